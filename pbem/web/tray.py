"""Counters that are not on the map yet (units to set up, reinforcements), drawn in a row to click like the map's.

The same :func:`~pbem.report.svg.draw_face` draws them, from the seat's own view, and each is a
``<g class="unit" data-unit=…>`` as on the map, so the page's script treats both alike.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable

from pbem.report.draw import FONT, SVG_NS, el, num
from pbem.report.svg import MapRenderer, draw_face
from pbem.rules.contract import View

__all__ = ["tray"]


def tray(renderer: MapRenderer, view: View, units: Iterable[str]) -> str | None:
    """An SVG row of those of ``units`` that ``view`` shows off the map (None: there are none)."""
    wanted = set(units)
    off = [u for u in view.units if u.id in wanted and (u.location is None or u.location not in renderer.regions)]
    if not off:
        return None
    c = renderer.style.counter
    step = c * 1.25
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "viewBox": f"0 0 {num(step * len(off) + c * 0.25)} {num(c * 1.4)}",
            "class": "tray",
            "role": "img",
            "font-family": FONT,
        },
    )
    el(root, "title", "Units not on the map")
    for number, unit in enumerate(off):
        g = el(
            root,
            "g",
            class_="unit",
            data_unit=unit.id,
            transform=f"translate({num(c * 0.2 + number * step)},{num(c * 0.2)})",
        )
        el(g, "title", unit.name)
        draw_face(g, renderer.presentation.face(unit), renderer.style)
    return ET.tostring(root, encoding="unicode")
