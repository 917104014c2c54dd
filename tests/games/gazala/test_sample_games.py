"""The Gazala sample games (sample_games/gazala): complete games that verify, made by packets between scripted
sensible players, re-made byte for byte by their script (slow), and verified by ``make demo`` through PBEM_GAMES."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.games.gazala.ruleset import RULESET
from pbem.log.store import read_log
from pbem.verify.pipeline import verify_lines
from tests.games.gazala.gazala_play import act, place, roll, start
from tests.samples import ROOT, actions_of, assert_same_folder, mailed, sample_script

SAMPLES = ROOT / "sample_games" / "gazala"
TARGET = "pbem.games.gazala.ruleset:RULESET"


@pytest.fixture(autouse=True)
def _gazala_loadable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_GAMES", TARGET)


def test_the_solitaire_sample_is_scenario_10_1_played_to_its_end() -> None:
    lines = read_log(SAMPLES / "bir-hacheim" / "game.jsonl")[0]
    report, verifier = verify_lines(lines)
    assert report.valid and report.audit == "complete" and report.result is not None, report.first_error
    genesis = json.loads(lines[0])["body"]
    assert genesis["scenario"] == "bir-hacheim" and [s["seat"] for s in genesis["roster"]] == ["axis"]
    assert verifier.game is not None
    kinds = {e.event.kind for e in verifier.game.events}
    assert {"combat_resolved", "game_ended"} <= kinds
    assert not list((SAMPLES / "bir-hacheim" / "packets").glob("*.txt"))  # one seat: nobody to mail


def test_the_opening_phase_sample_is_four_game_turns_by_packets_to_a_result() -> None:
    folder = SAMPLES / "opening-phase"
    lines = read_log(folder / "game.jsonl")[0]
    report, verifier = verify_lines(lines)
    assert report.valid and report.audit == "complete" and report.result is not None, report.first_error
    assert report.final_checkpoints[-4:] == ["turn-1", "turn-2", "turn-3", "end"]  # "end" covers Game Turn 4
    assert verifier.game is not None
    kinds = {e.event.kind for e in verifier.game.events}
    assert {"combat_resolved", "reaction_attempted", "reinforcement_entered", "game_ended"} <= kinds
    names = {str(a["action"]) for a in actions_of(lines)}
    assert {"attack", "react", "decline", "breach", "refit", "improve", "reinforce"} <= names
    # every entry but the creator's first reached the other seat in a packet, as mailed
    assert set(lines[1:]) <= mailed(folder)


def test_the_sensible_player_attacks_at_good_odds_only() -> None:
    """10.1 set-up: VIII/132 (6 CS) alone next to the Free French in 2522 (6 CS) holds back; with 8 Bers (8 CS)
    beside it the player attacks with both (14 against 6)."""
    player = sample_script("make_gazala").SensiblePlayer()
    state = act(start("bir-hacheim"), "axis", {"action": "activate", "formation": "ariete"}).state
    assert state.rolls is not None
    state = roll(state, {r.id: (5,) * r.n for r in state.rolls.rolls}).state
    legal = RULESET.legal_actions(state, "axis")
    assert {"action": "attack", "target": "2522", "units": ["viii-132"]} in legal
    assert player.choose(state, "axis", legal, RULESET)["action"] != "attack"
    stacked = place(state, **{"8-bers": "2623"})
    legal = RULESET.legal_actions(stacked, "axis")
    chosen = player.choose(stacked, "axis", legal, RULESET)
    assert chosen == {"action": "attack", "target": "2522", "units": ["8-bers", "viii-132"]}


@pytest.mark.slow
def test_the_script_recreates_the_committed_samples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = sample_script("make_gazala")
    monkeypatch.setattr(module, "HERE", tmp_path / "gazala")
    module.main()
    for scenario in ("bir-hacheim", "opening-phase"):
        assert_same_folder(tmp_path / "gazala" / scenario, SAMPLES / scenario)
