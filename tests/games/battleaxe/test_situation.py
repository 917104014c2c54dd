"""A Situation built from the previous one (reusing its unit placement) equals one built from scratch."""

from __future__ import annotations

from pathlib import Path

from pbem.games.battleaxe.board import Board
from pbem.games.battleaxe.situation import Situation
from pbem.games.battleaxe.state import BattleaxeState
from pbem.kit.conformance import reachable
from pbem.log.store import read_log

SAMPLE = Path(__file__).resolve().parents[3] / "sample_games" / "battleaxe" / "game.jsonl"


def test_the_incremental_unit_placement_matches_a_full_rebuild_over_the_sample_game() -> None:
    states = [game.state for game, _ in reachable(read_log(SAMPLE)[0])]
    assert all(isinstance(s, BattleaxeState) for s in states)
    battleaxe = [s for s in states if isinstance(s, BattleaxeState)]
    board = Board(battleaxe[0].pack)
    previous = Situation(board, battleaxe[0])
    assert previous.where
    rebuilt = 0
    for state in battleaxe[1:]:
        current = Situation(board, state, after=previous)
        full = Situation(board, state).where
        rebuilt += current.where is not previous.where
        assert list(current.where.items()) == list(full.items())  # the same places, in the same order
        previous = current
    assert rebuilt > 20  # the sample moves units often: the incremental path was exercised
