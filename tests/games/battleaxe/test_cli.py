"""Two players can play Operation Battleaxe with nothing but ``pbem legal --json`` and ``pbem act``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.log.keys import save_keypair
from tests.helpers import test_key


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_two_players_play_impulses_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("alice", "bob"):
        save_keypair(test_key(name), tmp_path, name, None)
    log = str(tmp_path / "battleaxe.jsonl")
    key = {"allied": str(tmp_path / "alice.key"), "axis": str(tmp_path / "bob.key")}
    assert run(capsys, "new", "battleaxe", "--scenario", "campaign", "--seat", f"allied={tmp_path / 'alice.pub'}",
               "--seat", f"axis={tmp_path / 'bob.pub'}", "--key", key["allied"], "-o", log)[0] == 0  # fmt: skip
    assert run(capsys, "join", log, "--key", key["axis"])[0] == 0
    rng = random.Random(3)
    for _ in range(60):  # the first part of June 15, whoever is to act choosing among the listed actions
        status = json.loads(run(capsys, "status", log, "--json")[1])
        actor = next((s for s in ("allied", "axis") if any(f"{s} to act" in w for w in status["awaiting"])), None)
        owes = [
            s for s in ("allied", "axis") if any(w.startswith(f"waiting for {s}'s dice") for w in status["awaiting"])
        ]
        for seat in owes:
            assert run(capsys, "reveal", log, "--key", key[seat])[0] == 0
        if actor is None:
            continue
        legal = json.loads(run(capsys, "legal", log, "--key", key[actor], "--json")[1])
        assert legal, status
        code, _ = run(capsys, "act", log, "--key", key[actor], json.dumps(rng.choice(legal)))
        assert code == 0
    code, out = run(capsys, "verify", log, "--json")
    report = json.loads(out)
    assert code == 0 and report["valid"] and report["entries"] > 60
    shown = json.loads(run(capsys, "show", log, "--json", "--as", "axis")[1])
    assert {"id", "name", "side", "location", "strength"} <= set(shown["units"][0])
