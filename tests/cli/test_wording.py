"""What players read: words, never Python values; hints that name the next command."""

from __future__ import annotations

from pathlib import Path

from pbem.rules import registry
from tests.cli.conftest import Cli, Player


def test_describe_puts_booleans_in_words() -> None:
    text = registry.get("battleaxe").describe({"action": "support", "air": False, "artillery": True, "rommel": None})
    assert text == "support: air no, artillery yes"
    assert "False" not in text and "True" not in text and "None" not in text


def test_status_of_a_file_that_is_not_a_log_says_so(cli: Cli, tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("hello\n")
    run = cli("status", junk)
    assert run.code == 1
    assert "is not a pbem game log" in run.out and "[L003]" in run.out
    assert "None" not in run.out + run.err and "?" not in run.out


def test_status_counts_entries_in_words(cli: Cli, duel_log: Path) -> None:
    out = cli("status", duel_log).out
    assert "3 entries" in out and "None" not in out


def test_legal_says_run_pbem_reveal_when_a_dice_reveal_is_owed(
    cli: Cli, duel_log: Path, alice: Player, bob: Player
) -> None:
    assert cli("act", duel_log, "--key", alice.key, '{"action": "choose_reserve", "value": 2}').code == 0
    assert cli("act", duel_log, "--key", bob.key, '{"action": "choose_reserve", "value": 3}').code == 0
    assert cli("act", duel_log, "--key", alice.key, '{"action": "attack", "target": "blue"}').code == 0
    assert cli("act", duel_log, "--key", bob.key, '{"action": "defend", "stance": "block"}').code == 0
    owed = cli("legal", duel_log, "--key", alice.key)
    assert owed.code == 0
    assert "a dice reveal" in owed.out and f"pbem reveal {duel_log}" in owed.out
    assert "pbem reveal" not in cli("legal", duel_log, "--key", bob.key).out


def test_an_unknown_action_name_suggests_the_near_match(cli: Cli, duel_log: Path, alice: Player, bob: Player) -> None:
    assert cli("act", duel_log, "--key", alice.key, '{"action": "choose_reserve", "value": 2}').code == 0
    assert cli("act", duel_log, "--key", bob.key, '{"action": "choose_reserve", "value": 3}').code == 0
    run = cli("act", duel_log, "--key", alice.key, '{"action": "pas"}')
    assert run.code == 1
    assert "did you mean “pass”?" in run.err


def test_tournament_table_is_not_clipped_and_names_players_from_their_joins(cli: Cli, tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[2] / "sample_games" / "battleaxe" / "game.jsonl"
    folder = tmp_path / "submitted"
    folder.mkdir()
    lines = sample.read_bytes().splitlines(keepends=True)
    (folder / "whole.jsonl").write_bytes(b"".join(lines))
    (folder / "old.jsonl").write_bytes(b"".join(lines[:40]))
    run = cli("tournament", "verify", folder, "--jobs", "1")
    assert run.code == 1
    assert "allied: Archie" in run.out and "axis: Erwin" in run.out  # no roster: the names signed at join
    assert "an old or truncated copy" in " ".join(run.out.split())
    row = next(line for line in run.out.splitlines() if "old.jsonl" in line)
    assert "[P005] lacks" in row and "…" not in row  # the whole first error on one line, nothing cut off
