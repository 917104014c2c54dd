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
