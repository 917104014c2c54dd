"""Start time: a command imports only what it uses (no report modules, mail or PDF for --help or status)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_games" / "battleaxe" / "game.jsonl"
HEAVY = ("pbem.report", "pbem.exchange", "weasyprint", "jinja2", "markdown_it", "pbem.client.session")


def _loaded(*argv: str) -> list[str]:
    probe = (
        "import io, json, sys, contextlib\n"
        "from pbem.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main({list(argv)!r})\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return list(json.loads(out.splitlines()[-1]))


@pytest.mark.parametrize("argv", [["--help"], ["verify", "--help"], ["report", "--help"]])
def test_help_imports_no_heavy_module(argv: list[str]) -> None:
    loaded = _loaded(*argv)
    assert not [m for m in loaded if m.startswith(HEAVY)]
    assert not [m for m in loaded if m.startswith(("pbem.replay", "pbem.verify", "pbem.games"))]


def test_status_imports_only_its_game_and_no_report_or_mail(tmp_path: Path) -> None:
    log = tmp_path / "three.jsonl"
    log.write_bytes(b"".join(SAMPLE.read_bytes().splitlines(keepends=True)[:3]))
    loaded = _loaded("status", str(log))
    assert "pbem.games.battleaxe.ruleset" in loaded
    assert not [m for m in loaded if m.startswith(HEAVY)]
    assert not [m for m in loaded if m.startswith(("pbem.games.triad", "pbem.games.skirmish"))]


COMMAND_MODULES = {"pbem.cli.datacmd", "pbem.cli.exchangecmd", "pbem.cli.inspectcmd", "pbem.cli.keycmd",
                   "pbem.cli.playcmd", "pbem.cli.playsession", "pbem.cli.repaircmd", "pbem.cli.reportcmd",
                   "pbem.cli.tournamentcmd"}  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "module"),
    [(["status", "--help"], "pbem.cli.inspectcmd"), (["key", "--help"], "pbem.cli.keycmd"),
     (["play", "--help"], "pbem.cli.playsession"), (["report", "--help"], "pbem.cli.reportcmd")],
)  # fmt: skip
def test_a_command_imports_its_own_module_and_no_other_command(argv: list[str], module: str) -> None:
    loaded = set(_loaded(*argv))
    assert loaded & COMMAND_MODULES == {module}


def test_status_imports_no_other_command_nor_what_only_tests_and_players_use(tmp_path: Path) -> None:
    log = tmp_path / "three.jsonl"
    log.write_bytes(b"".join(SAMPLE.read_bytes().splitlines(keepends=True)[:3]))
    loaded = set(_loaded("status", str(log)))
    assert loaded & COMMAND_MODULES == {"pbem.cli.inspectcmd"}
    assert not loaded & {"rfc8785", "pbem.client.session", "pbem.kit.conformance"}
