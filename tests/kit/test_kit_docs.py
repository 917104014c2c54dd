"""docs/KIT.md's examples run: each section's Python blocks, in order, in one namespace."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import pytest

KIT = Path(__file__).resolve().parents[2] / "docs" / "KIT.md"


def sections() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    title = ""
    for part in re.split(r"^## ", KIT.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]:
        title = part.splitlines()[0]
        found[title] = re.findall(r"```python\n(.*?)```", part, flags=re.DOTALL)
    return found


SECTIONS = sections()


def test_every_piece_has_an_example() -> None:
    pieces = ("datapack", "hexes", "graph", "tables", "machine")
    assert all(any(f"pbem.kit.{p}" in t and SECTIONS[t] for t in SECTIONS) for p in pieces)


@pytest.mark.parametrize("title", [t for t, blocks in SECTIONS.items() if blocks])
def test_the_examples_of_a_section_run(title: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A real module, as a reader's script would be: pydantic resolves a model's types through sys.modules.
    module = types.ModuleType("kit_docs_example")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    for block in SECTIONS[title]:
        exec(compile(block, f"docs/KIT.md ({title})", "exec", dont_inherit=True), module.__dict__)
