"""Shared fixtures for the CLI tests: an in-process runner, deterministic key files and a joined duel."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.log.keys import save_keypair
from tests.helpers import Cli, Run, test_key

__all__ = ["Cli", "Player", "Run", "run_script", "write_keys"]

PBEM = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "pbem"


def run_script(*argv: str | os.PathLike[str], timeout: float = 30, cwd: Path | None = None) -> Run:
    """Run the installed ``pbem`` console script with standard input not a terminal."""
    proc = subprocess.run(
        [str(PBEM), *map(os.fspath, argv)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=dict(os.environ),  # carries PBEM_GAMES, PYTHONPATH and this test's PBEM_STATE_DIR
        cwd=cwd,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


@dataclass(frozen=True)
class Player:
    """A player's own directory with NAME.key and NAME.pub."""

    key: Path
    pub: Path


def write_keys(directory: Path, name: str, seed_name: str | None = None) -> Player:
    """Deterministic key files for ``name`` (from ``tests.helpers.test_key``) in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    key, pub = save_keypair(test_key(seed_name or name), directory, name, None)
    return Player(key, pub)


@pytest.fixture
def alice(tmp_path: Path) -> Player:
    return write_keys(tmp_path / "alice", "alice", "red")


@pytest.fixture
def bob(tmp_path: Path) -> Player:
    return write_keys(tmp_path / "bob", "bob", "blue")


@pytest.fixture
def duel_log(cli: Cli, tmp_path: Path, alice: Player, bob: Player) -> Path:
    """A two-seat game (red = alice, blue = bob), created and joined through the CLI, nobody has acted."""
    log = tmp_path / "duel.jsonl"
    made = cli("new", "triad", "--scenario", "duel", "--seat", f"red={alice.pub}", "--seat", f"blue={bob.pub}",
               "--key", alice.key, "-o", log, "--title", "Friendly duel")  # fmt: skip
    assert made.code == 0, made.err
    joined = cli("join", log, "--key", bob.key)
    assert joined.code == 0, joined.err
    return log
