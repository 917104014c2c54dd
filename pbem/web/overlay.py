"""Moves since the player's last turn, drawn as arrows over the rendered map (from ``src`` to ``dst`` of events)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable

from pbem.report.draw import el, num, pointlist
from pbem.report.svg import MapRenderer
from pbem.rules.contract import Event

__all__ = ["moves_of", "with_arrows"]


def moves_of(events: Iterable[Event], renderer: MapRenderer) -> list[tuple[str, str]]:
    """The (from, to) places of events that moved something between two places of the map."""
    moves = []
    for event in events:
        src, dst = event.data.get("src"), event.data.get("dst")
        if isinstance(src, str) and isinstance(dst, str) and src in renderer.regions and dst in renderer.regions:
            moves.append((src, dst))
    return list(dict.fromkeys(moves))


def with_arrows(svg: str, renderer: MapRenderer, moves: Iterable[tuple[str, str]]) -> str:
    """``svg`` (the renderer's map) with an arrow for each move, drawn last so it lies over the counters."""
    layer = ET.Element("g", {"class": "news-moves"})
    c = renderer.style.counter
    for src, dst in moves:
        (ax, ay), (bx, by) = renderer.regions[src].center, renderer.regions[dst].center
        length = math.hypot(bx - ax, by - ay)
        if length < c:
            continue
        ux, uy = (bx - ax) / length, (by - ay) / length
        tip = (bx - ux * c * 0.3, by - uy * c * 0.3)
        base = (tip[0] - ux * c * 0.45, tip[1] - uy * c * 0.45)
        wing = (-uy * c * 0.22, ux * c * 0.22)
        el(layer, "line", x1=num(ax), y1=num(ay), x2=num(base[0]), y2=num(base[1]), class_="news-move")
        head = [tip, (base[0] + wing[0], base[1] + wing[1]), (base[0] - wing[0], base[1] - wing[1])]
        el(layer, "polygon", points=pointlist(head), class_="news-move-head")
    if not len(layer):
        return svg
    assert svg.endswith("</svg>")  # the renderer's one root element
    return svg[: -len("</svg>")] + ET.tostring(layer, encoding="unicode") + "</svg>"
