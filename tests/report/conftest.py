"""Games to report on: the bundled Battleaxe sample, a Skirmish game (hex map, hidden blocks), a hostile one."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.log.store import read_log
from pbem.report.chronicle import Chronicle, chronicle
from tests.games.skirmish.play import aggressive_game

SAMPLE = Path(__file__).resolve().parents[2] / "sample_games" / "battleaxe" / "game.jsonl"

# Untrusted text in every place a log can carry it: the title, player names and notes.
SCRIPT = "<script>window.__pwned = 1</script>"
HOSTILE_TITLE = f'{SCRIPT}<img src=x onerror="window.__pwned=2">"quoted" & \'single\''
HOSTILE_NAMES = {"red": f"{SCRIPT}\"Mallory'", "blue": "B" * 64}
HOSTILE_NOTES = {"red": f"</blockquote>{SCRIPT}<b>bold?</b>" + "x" * 1900, "blue": "W" * 2000}


@pytest.fixture(scope="session")
def sample() -> Chronicle:
    return chronicle(read_log(SAMPLE)[0])


@pytest.fixture(scope="session")
def skirmish_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("skirmish")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_STATE_DIR", str(directory / "state"))
        return aggressive_game(directory, names={"red": "Rosa", "blue": "Bruno"}).path


@pytest.fixture(scope="session")
def skirmish(skirmish_log: Path) -> Chronicle:
    return chronicle(read_log(skirmish_log)[0])


@pytest.fixture(scope="session")
def hostile_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("hostile")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_STATE_DIR", str(directory / "state"))
        return aggressive_game(directory, title=HOSTILE_TITLE, names=HOSTILE_NAMES, **HOSTILE_NOTES).path


@pytest.fixture(scope="session")
def hostile(hostile_log: Path) -> Chronicle:
    return chronicle(read_log(hostile_log)[0])
