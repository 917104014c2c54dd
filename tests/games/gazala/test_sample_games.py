"""The Gazala sample games (sample_games/gazala): complete games that verify, made by packets between scripted
sensible players, re-made byte for byte by their script (slow), and verified by ``make demo`` through PBEM_GAMES."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from pbem.exchange.packet import read_packets
from pbem.games.gazala.ruleset import RULESET
from pbem.log.store import read_log
from pbem.verify.pipeline import verify_lines
from tests.games.gazala.gazala_play import act, place, roll, start

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "sample_games" / "gazala"
TARGET = "pbem.games.gazala.ruleset:RULESET"


@pytest.fixture(autouse=True)
def _gazala_loadable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_GAMES", TARGET)


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_gazala", ROOT / "sample_games" / "make_gazala.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _actions(lines: list[bytes]) -> list[dict[str, object]]:
    found = []
    for line in lines:
        entry = json.loads(line)
        if entry["type"] == "action":
            found.extend(entry["body"]["actions"])
    return found


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
    names = {str(a["action"]) for a in _actions(lines)}
    assert {"attack", "react", "decline", "breach", "refit", "improve", "reinforce"} <= names
    # every entry but the creator's first reached the other seat in a packet, as mailed
    mailed = {line for packet in sorted((folder / "packets").glob("*.txt")) for p in read_packets(packet)
              for line in p.lines}  # fmt: skip
    assert set(lines[1:]) <= mailed


def test_the_sensible_player_attacks_at_good_odds_only() -> None:
    """10.1 set-up: VIII/132 (6 CS) alone next to the Free French in 2522 (6 CS) holds back; with 8 Bers (8 CS)
    beside it the player attacks with both (14 against 6)."""
    player = _script().SensiblePlayer()
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
    module = _script()
    monkeypatch.setattr(module, "HERE", tmp_path / "gazala")
    module.main()
    for scenario in ("bir-hacheim", "opening-phase"):
        made, kept = tmp_path / "gazala" / scenario, SAMPLES / scenario
        assert (made / "game.jsonl").read_bytes() == (kept / "game.jsonl").read_bytes(), scenario
        files = sorted(p.relative_to(made) for p in made.rglob("*") if p.is_file())
        assert files == sorted(p.relative_to(kept) for p in kept.rglob("*") if p.is_file())
