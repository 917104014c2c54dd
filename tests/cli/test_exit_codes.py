"""Exit codes agree with the README table for every command: one situation, one code."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import Cli, Player

SAMPLE = Path(__file__).resolve().parents[2] / "sample_games" / "battleaxe" / "game.jsonl"


@pytest.mark.parametrize(
    "argv",
    [
        ["merge", "LOG", "LOG", "-o", "TAKEN"],
        ["report", "LOG", "-o", "TAKEN"],
        ["replay", "LOG", "-o", "TAKEN"],
        ["export", "LOG", "--all", "-o", "TAKEN"],
        ["mail", "LOG", "--to", "bob@example.org", "-o", "TAKEN"],
        [
            "new",
            "triad",
            "--scenario",
            "duel",
            "--seat",
            "red=PUB",
            "--seat",
            "blue=BOB",
            "--key",
            "KEY",
            "-o",
            "TAKEN",
        ],
        ["tournament", "verify", "DIR", "--html", "TAKEN"],
    ],
    ids=lambda argv: argv[0] if argv[0] != "tournament" else "tournament verify",
)
def test_an_existing_output_is_f004_and_exit_2_everywhere(
    cli: Cli, duel_log: Path, alice: Player, bob: Player, tmp_path: Path, argv: list[str]
) -> None:
    taken = tmp_path / "taken.out"
    taken.write_text("mine\n")
    folder = tmp_path / "folder"
    folder.mkdir()
    names = {
        "LOG": str(duel_log),
        "TAKEN": str(taken),
        "PUB": str(alice.pub),
        "KEY": str(alice.key),
        "DIR": str(folder),
    }
    args = [names.get(a, a.replace("PUB", str(alice.pub)).replace("BOB", str(bob.pub))) for a in argv]
    cli(*args).assert_error("F004", exit_code=2)
    assert taken.read_text() == "mine\n"


def test_unreadable_files_exit_3_and_invalid_logs_exit_1(cli: Cli, tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    for command in ("verify", "status", "show", "repair"):
        cli(command, missing).assert_error("F001", exit_code=3)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(SAMPLE.read_bytes()[:-100])
    bad.write_bytes(bad.read_bytes().replace(b'"seq":5,', b'"seq":6,', 1))
    assert cli("verify", bad).code == 1
    assert cli("status", bad).code == 1


def test_usage_slips_exit_2(cli: Cli, duel_log: Path, tmp_path: Path) -> None:
    assert cli("verify").code == 2  # missing argument (click)
    cli("show", duel_log, "--at", "0").assert_error("U003", exit_code=2)
    cli("report", duel_log, "-o", tmp_path / "x.pdf", "-f", "html").assert_error("U003", exit_code=2)


def test_a_game_module_bug_exits_4_from_every_command() -> None:
    """R009 is a bug to report (exit 4) whichever command met it, as U007 is; never the exit code of a bad log."""
    from pbem.cli._common import ExitCode, exit_code_for
    from pbem.errors import PbemError

    assert exit_code_for(PbemError("R009", "module raised")) == ExitCode.BUG == 4
    assert exit_code_for(PbemError("U007", "bug")) == ExitCode.BUG
