"""``pbem data``: packs of games whose rules are not installed yet are checked through ``pbem.packs``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import Cli

PACK_GAMES = ("rommel", "gazala", "axis-allies")


@pytest.mark.parametrize("game", PACK_GAMES)
def test_data_check_validates_a_pack_whose_rules_are_not_installed(cli: Cli, game: str, tmp_path: Path) -> None:
    done = cli("data", "check", game, "--json")
    assert done.code == 0, done.err
    assert json.loads(done.out)["valid"] is True
    broken = tmp_path / "broken.json"
    pack = json.loads(cli("data", "schema", game).out)
    assert "$defs" in pack
    broken.write_text('{"meta": {}}')
    refused = cli("data", "check", game, broken, "--json")
    assert refused.code == 1
    assert json.loads(refused.out)["error"]["code"] == "R006"


def test_data_check_of_an_unknown_game_names_the_installed_ones(cli: Cli) -> None:
    cli("data", "check", "no-such-game").assert_error("R005", 1)


def test_data_check_refuses_a_file_that_is_not_regular(cli: Cli) -> None:
    cli("data", "check", "rommel", "/dev/zero").assert_error("F001", 3)


def test_new_refuses_a_data_pack_that_is_not_a_regular_file(cli: Cli, tmp_path: Path) -> None:
    assert cli("key", "new", "red", "--dir", tmp_path).code == 0
    out = tmp_path / "solo.jsonl"
    made = cli("new", "triad", "--scenario", "solo", "--seat", f"red={tmp_path / 'red.pub'}",
               "--key", tmp_path / "red.key", "-o", out, "--data", "/dev/zero")  # fmt: skip
    made.assert_error("F001", 3)
    assert not out.exists()
