"""Test-wide set-up: the test-only game, an isolated state directory, and the ``--rule`` selector."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# The test-only game lives under tests/; PBEM_GAMES makes the registry load it (also in subprocesses).
os.environ["PBEM_GAMES"] = "tests.games.triad.ruleset:RULESET"
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
