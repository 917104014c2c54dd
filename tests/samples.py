"""What the sample games' tests share: their scripts (``sample_games/make_*.py``) loaded as modules, the actions
and the mail of a sample log, and the check that a script re-made a sample folder byte for byte."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

from pbem.exchange.packet import read_packets

ROOT = Path(__file__).resolve().parents[1]


def sample_script(name: str) -> ModuleType:
    """``sample_games/{name}.py`` loaded as a module (its ``main`` not run), e.g. to point its ``HERE`` elsewhere."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "sample_games" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def actions_of(lines: list[bytes]) -> list[dict[str, object]]:
    """Every rules action of the action entries of ``lines``, in order."""
    return [a for line in lines if (e := json.loads(line))["type"] == "action" for a in e["body"]["actions"]]


def mailed(folder: Path) -> set[bytes]:
    """Every entry that the packets of a sample folder (``packets/*.txt``, as mailed) carry."""
    return {line for packet in sorted((folder / "packets").glob("*.txt")) for p in read_packets(packet)
            for line in p.lines}  # fmt: skip


def assert_same_folder(made: Path, kept: Path) -> None:
    """``made`` holds the same files as ``kept``, each the same bytes (the game's log named first when it differs)."""
    assert (made / "game.jsonl").read_bytes() == (kept / "game.jsonl").read_bytes(), kept.name
    files = sorted(p.relative_to(made) for p in made.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(kept) for p in kept.rglob("*") if p.is_file())
    for name in files:
        assert (made / name).read_bytes() == (kept / name).read_bytes(), name
