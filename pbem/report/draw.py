"""ElementTree helpers shared by the map renderer and the charts."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import Any

from pbem.rules.maps import Point

__all__ = ["FONT", "SVG_NS", "el", "num", "pointlist"]

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def num(value: float) -> str:
    """A coordinate with one decimal and no trailing ``.0``: stable across platforms."""
    text = f"{value:.1f}"
    text = text[:-2] if text.endswith(".0") else text
    return "0" if text == "-0" else text


def pointlist(corners: Iterable[Point]) -> str:
    """An SVG ``points`` attribute."""
    return " ".join(f"{num(x)},{num(y)}" for x, y in corners)


def el(parent: ET.Element, tag: str, text: str | None = None, **attrs: Any) -> ET.Element:
    element = ET.SubElement(parent, tag, {k.rstrip("_").replace("_", "-"): str(v) for k, v in attrs.items()})
    if text is not None:
        element.text = text
    return element
