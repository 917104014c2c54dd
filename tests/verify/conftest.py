"""Fixture games, built once per test session and copied into each test's directory."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from tests.helpers import Table

# Seeds whose random play-outs cover every protocol path (checked by test_fixture_coverage).
DUEL_SEED = 12  # two seats: private draw, card played (opening of a draw), fortify, opponent-caused hidden loss
TRIO_SEED = 19  # three seats: private draw, card played, hidden loss, chained critical roll


def _finished(directory: Path, scenario: str, seed: int) -> Table:
    with pytest.MonkeyPatch.context() as patch:  # session fixtures run before the per-test state dir
        patch.setenv("PBEM_STATE_DIR", str(directory / "state"))
        table = Table.start(directory, scenario, rounds=3, name=f"{scenario}.jsonl")
        table.play_out(random.Random(seed))
    return table


@pytest.fixture(scope="session")
def duel_master(tmp_path_factory: pytest.TempPathFactory) -> Table:
    return _finished(tmp_path_factory.mktemp("duel"), "duel", DUEL_SEED)


@pytest.fixture(scope="session")
def trio_master(tmp_path_factory: pytest.TempPathFactory) -> Table:
    return _finished(tmp_path_factory.mktemp("trio"), "standard", TRIO_SEED)


def _copy(master: Table, directory: Path) -> Table:
    path = directory / master.path.name
    shutil.copyfile(master.path, path)
    table = Table(path, master.keys)
    table.clock.tick = master.clock.tick
    return table


@pytest.fixture
def duel(duel_master: Table, tmp_path: Path) -> Table:
    """A finished, fully disclosed two-seat game (a private copy for this test)."""
    return _copy(duel_master, tmp_path)


@pytest.fixture
def trio(trio_master: Table, tmp_path: Path) -> Table:
    """A finished, fully disclosed three-seat game (a private copy for this test)."""
    return _copy(trio_master, tmp_path)
