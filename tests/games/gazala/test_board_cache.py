"""What the replay keeps per pack (the map built once, the records by id, the traced paths) gives what building it
afresh gives: the caches change the cost of a replay, never its result."""

from __future__ import annotations

import pytest

from pbem.games.gazala import default_pack_bytes, load_pack
from pbem.games.gazala.board import Board, Situation, board_of
from pbem.games.gazala.paths import command, supply
from pbem.games.gazala.state import GazalaState, position, sit_of
from pbem.kit import hexes
from pbem.kit.conformance import reachable
from pbem.log.store import read_log
from tests.games.gazala.test_sample_games import SAMPLES

TARGET = "pbem.games.gazala.ruleset:RULESET"


@pytest.fixture(autouse=True)
def _gazala_loadable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_GAMES", TARGET)


def test_a_load_builds_the_map_once_and_the_board_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[object] = []
    original = hexes.HexMap.__init__

    def counting(self: hexes.HexMap, data: hexes.HexMapData) -> None:
        built.append(data)
        original(self, data)

    monkeypatch.setattr(hexes.HexMap, "__init__", counting)
    pack = load_pack(default_pack_bytes() + b"\n" * 3)  # bytes no other test loads: the same bytes give the same pack
    board = board_of(pack)
    assert len(built) == 1
    assert board_of(pack) is board and board.grid.data is pack.map


def test_a_copy_of_the_pack_keeps_neither_its_lookups_nor_its_board() -> None:
    pack = load_pack(default_pack_bytes())
    unit = pack.units[0]
    assert pack.unit(unit.id) is unit
    fewer = pack.model_copy(update={"units": pack.units[1:]})
    with pytest.raises(KeyError):
        fewer.unit(unit.id)
    assert board_of(fewer) is not board_of(pack)


def _traces(sit: Situation, state: GazalaState) -> list[tuple[str, str, int | None, str | None]]:
    found: list[tuple[str, str, int | None, str | None]] = []
    for unit, counter in sorted(state.units.items()):
        if counter.hex is not None and sit.formation(unit) is not None:
            traced = command(sit, unit)
            found.append((unit, traced.state, traced.path.length, None))
    for hq, hq_counter in sorted(state.hqs.items()):
        if hq_counter.hex is not None:
            supplied = supply(sit, hq)
            found.append((hq, "supply", supplied.path.length, supplied.source))
    return found


def test_paths_kept_on_the_board_are_those_traced_afresh() -> None:
    """Every 25th position of the 10.2 sample: command states and supply of every piece, through the board the
    replay kept (its traces found again across positions) and through a new board traced from nothing."""
    lines = read_log(SAMPLES / "opening-phase" / "game.jsonl")[0]
    compared = 0
    for game, number in reachable(lines):
        if number % 25:
            continue
        state = game.state
        assert isinstance(state, GazalaState)
        fresh = Situation(Board(state.pack), position(state))
        assert _traces(sit_of(state), state) == _traces(fresh, state), f"line {number}"
        compared += 1
    assert compared > 20
