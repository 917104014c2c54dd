"""``pbem new`` for the scenarios and dice quorum of contract v2: a solitaire game, and ``--team-dice``."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.conftest import Player, write_keys
from tests.helpers import Cli


def test_new_starts_a_solitaire_game_that_needs_no_other_seat(cli: Cli, tmp_path: Path, alice: Player) -> None:
    log = tmp_path / "solo.jsonl"
    made = cli("new", "triad", "--scenario", "solo", "--seat", f"red={alice.pub}", "--key", alice.key, "-o", log)
    assert made.code == 0, made.err
    status = cli("status", log, "--json")
    assert status.code == 0, status.err
    assert "red" in status.out and "act" in status.out


def test_new_with_team_dice_records_the_team_quorum(cli: Cli, tmp_path: Path, alice: Player, bob: Player) -> None:
    carol = write_keys(tmp_path / "carol", "carol", "green")
    log = tmp_path / "teams.jsonl"
    made = cli("new", "triad", "--scenario", "teams", "--seat", f"red={alice.pub}", "--seat", f"green={carol.pub}",
               "--seat", f"blue={bob.pub}", "--key", alice.key, "-o", log, "--team-dice")  # fmt: skip
    assert made.code == 0, made.err
    genesis = json.loads(log.read_text().splitlines()[0])
    assert genesis["body"]["dice"] == {"quorum": "teams", "referee": None, "chain": 4096}
    both = cli("new", "triad", "--scenario", "teams", "--seat", f"red={alice.pub}", "--seat", f"green={carol.pub}",
               "--seat", f"blue={bob.pub}", "--key", alice.key, "-o", tmp_path / "x.jsonl", "--team-dice",
               "--referee-dice")  # fmt: skip
    assert both.code != 0 and "U003" in both.err + both.out
