"""Test-wide set-up: the test-only game, an isolated state directory, and the ``--rule`` selector."""

from __future__ import annotations

import os
import random
import shutil
import tempfile
from pathlib import Path

import pytest

from pbem.cli import main
from tests.helpers import Cli, Run, Table

os.environ.setdefault("PBEM_STATE_DIR", tempfile.mkdtemp(prefix="pbem-test-state-"))
os.environ["PYTHONPATH"] = os.pathsep.join(
    filter(None, [str(Path(__file__).parent.parent), os.environ.get("PYTHONPATH")])
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--rule", action="append", default=[], help="run only tests marked with this rule section")
    parser.addoption("--slow", action="store_true", default=False, help="also run tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rules = config.getoption("--rule")
    run_slow = config.getoption("--slow")
    selected, deselected = [], []
    for item in items:
        marks = {m.args[0] for m in item.iter_markers("rule") if m.args}
        if (rules and not marks & set(rules)) or (item.get_closest_marker("slow") and not run_slow):
            deselected.append(item)
        else:
            selected.append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = selected


@pytest.fixture(autouse=True)
def _isolated_state(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test gets its own record of signed heads (pbem.client.heads)."""
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path_factory.mktemp("state")))


# --- fixture games: built once per session, copied into each test ---------------------------------------

# Seeds whose random play-outs cover every protocol path (checked by test_fixture_coverage).
DUEL_SEED = 33  # two seats: private draw, card played (opening of a draw), fortify, opponent-caused hidden loss
TRIO_SEED = 116  # three seats: private draw, card played, hidden loss, chained critical roll


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
    table.entropy.count = master.entropy.count
    return table


@pytest.fixture
def duel(duel_master: Table, tmp_path: Path) -> Table:
    """A finished, fully disclosed two-seat game (a private copy for this test)."""
    return _copy(duel_master, tmp_path)


@pytest.fixture
def trio(trio_master: Table, tmp_path: Path) -> Table:
    """A finished, fully disclosed three-seat game (a private copy for this test)."""
    return _copy(trio_master, tmp_path)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """``cli("verify", path, "--json")`` runs ``pbem.cli.main`` in process and captures its output."""

    def run(*argv: str | os.PathLike[str]) -> Run:
        capsys.readouterr()  # drop anything printed before
        code = main([os.fspath(a) for a in argv])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run
