"""Shared helpers for the games' map tests: a presentation that wires a ``mapspec`` module as a game would, hex
corners to compare, and an SVG rendered in a fresh interpreter to prove the output does not hang on hash seeds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from pbem.report.svg import MapRenderer
from pbem.rules.contract import UnitView
from pbem.rules.maps import MapSpec, Region
from pbem.rules.presentation import CounterFace, Presentation

__all__ = ["SVG", "corners", "render_with_seed", "renderer"]

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).parents[1]


def renderer(mapspec: ModuleType, pack: Any) -> MapRenderer:
    """A renderer over ``pack`` through a presentation that delegates to ``mapspec``, its style from ``pack``."""

    class Look(Presentation):
        style = mapspec.map_style(pack)

        def map_spec(self) -> MapSpec:
            spec: MapSpec = mapspec.map_spec(self.data)
            return spec

        def face(self, unit: UnitView) -> CounterFace:
            face: CounterFace = mapspec.face(self.data, unit)
            return face

    return MapRenderer(Look(pack))


def corners(region: Region) -> set[tuple[int, int]]:
    """A region's corners on a half-unit lattice, so neighbours' shared corners compare equal."""
    return {(round(x * 2), round(y * 2)) for x, y in region.polygon}


def render_with_seed(game: str, seed: str) -> str:
    """The SVG of ``game``'s bundled pack and its test module's ``view``, rendered by a fresh interpreter whose
    ``PYTHONHASHSEED`` is ``seed``."""
    script = (
        f"import sys; from tests.games.{game}.test_mapspec import view; from tests.maphelpers import renderer;"
        f"from pbem.games.{game} import mapspec; from pbem.games.{game}.data import default_pack_bytes, load_pack;"
        "p = load_pack(default_pack_bytes()); sys.stdout.write(renderer(mapspec, p).render(view(p), legend=True))"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT,
                         env={**os.environ, "PYTHONHASHSEED": seed})  # fmt: skip
    return out.stdout
