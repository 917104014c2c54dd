"""The bundled sample game: reproducible byte for byte, deterministic replay, and checked by the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.log.canon import canonical
from pbem.log.store import read_log
from pbem.replay.game import state_hash
from pbem.verify.pipeline import verify_lines
from tests.samples import ROOT, sample_script

SAMPLE = ROOT / "sample_games" / "battleaxe" / "game.jsonl"


def test_the_sample_game_is_a_complete_three_turn_game_that_verifies() -> None:
    report, verifier = verify_lines(read_log(SAMPLE)[0])
    assert report.valid and report.audit == "complete" and report.result is not None
    assert report.final_checkpoints == ["setup", "turn-1", "turn-2", "end"]  # "end" covers the last turn
    assert verifier.game is not None
    kinds = {e.event.kind for e in verifier.game.events}
    assert {"combat_resolved", "victory_points", "game_over", "unit_refitted"} <= kinds


def test_replaying_the_sample_twice_gives_identical_states_and_events() -> None:
    lines = read_log(SAMPLE)[0]
    one, two = verify_lines(lines)[1].game, verify_lines(lines)[1].game
    assert one is not None and two is not None and one.state is not None and two.state is not None
    assert canonical(one.state.model_dump(mode="json")) == canonical(two.state.model_dump(mode="json"))
    events = [[e.event.model_dump(mode="json") for e in game.events] for game in (one, two)]
    assert events[0] == events[1]
    assert state_hash(one.state) == state_hash(two.state)


def test_the_sample_script_recreates_the_committed_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = sample_script("make_battleaxe")
    monkeypatch.setattr(module, "HERE", tmp_path / "battleaxe")
    module.main()
    assert (tmp_path / "battleaxe" / "game.jsonl").read_bytes() == SAMPLE.read_bytes()


def test_pbem_data_check_validates_packs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", "check", "battleaxe", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] and out["bundled"]
    broken = tmp_path / "pack.json"
    broken.write_text('{"meta": {}}')
    assert main(["data", "check", "battleaxe", str(broken), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "R006"
    assert main(["data", "schema", "battleaxe"]) == 0
    assert "properties" in json.loads(capsys.readouterr().out)
