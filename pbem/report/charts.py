"""Small SVG charts for after-action reports: a line chart of scores and a bar chart of losses, by turn.

ElementTree-built and deterministic, like the maps; no JavaScript, so they print as they show.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

from pbem.report.draw import FONT, SVG_NS, el, num

__all__ = ["bar_chart", "line_chart"]

PALETTE = ("#1f5f8b", "#b3261e", "#5b7f2a", "#8a5a9e", "#c77c02")
WIDTH, HEIGHT = 420.0, 205.0
"""Drawn half a page wide (88 mm), so 11-unit type prints at about 6.5 pt."""
LEFT, RIGHT, TOP, BOTTOM = 40.0, 12.0, 34.0, 64.0
LABEL_EM, LABEL_GAP = 0.68, 6.0
LEGEND_ROW = 17.0
"""An x-axis label's width per character in em (over-estimated, so that no font overruns it) and the space
between two labels."""


def _frame(title: str, labels: Sequence[str], top_value: int) -> tuple[ET.Element, float, float]:
    """The chart's axes, grid and labels; returns the root and the x step and y scale."""
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "viewBox": f"0 0 {num(WIDTH)} {num(HEIGHT)}",
            "class": "chart",
            "role": "img",
            "font-family": FONT,
        },
    )
    el(root, "title", title)
    el(root, "text", title, x=num(WIDTH / 2), y="20", text_anchor="middle", font_size="14", font_weight="bold")
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    top_value = max(1, top_value)
    step = _nice_step(top_value)
    top_value = -(-top_value // step) * step
    scale = plot_h / top_value
    for value in range(0, top_value + 1, step):
        y = TOP + plot_h - value * scale
        el(root, "line", x1=num(LEFT), y1=num(y), x2=num(WIDTH - RIGHT), y2=num(y), stroke="#d8d2c4", stroke_width="1")
        el(root, "text", str(value), x=num(LEFT - 6), y=num(y + 4), text_anchor="end", font_size="11", fill="#555")
    x_step = plot_w / max(1, len(labels))
    shown, caption, stride = _axis_labels(labels, x_step)
    for i, label in enumerate(shown):
        if i % stride:
            continue
        half = _label_width(label) / 2  # a wide label is moved, never cut, by the chart's edges
        x = min(max(LEFT + x_step * (i + 0.5), half + 1), WIDTH - half - 1)
        head, _, tail = label.partition(": ")  # "Turn 1: June 15" in two lines
        text = el(root, "text", None, class_="x-label", x=num(x), y=num(HEIGHT - BOTTOM + 16), text_anchor="middle",
                  font_size="11", fill="#333")  # fmt: skip
        for n, part in enumerate(p for p in (head, tail) if p):
            el(text, "tspan", part, x=num(x), dy="0" if n == 0 else "13")
    if caption:
        el(root, "text", caption, class_="x-caption", x=num(LEFT + plot_w / 2), y=num(HEIGHT - BOTTOM + 31),
           text_anchor="middle", font_size="11", fill="#555")  # fmt: skip
    el(root, "line", x1=num(LEFT), y1=num(TOP + plot_h), x2=num(WIDTH - RIGHT), y2=num(TOP + plot_h), stroke="#555")
    return root, x_step, scale


def _label_width(label: str) -> float:
    """A generous estimate of a label's width at 11-unit type: DejaVu Sans, the widest of the chart's fonts, runs
    at about 0.63 em a character, so 0.68 is safe; a two-line label ("Turn 1: June 15") is as wide as its longer
    line."""
    return max(len(part) for part in label.partition(": ")[::2]) * LABEL_EM * 11


def _axis_labels(labels: Sequence[str], x_step: float) -> tuple[list[str], str, int]:
    """The x-axis labels as drawn so that no two touch, with any number of periods: the labels themselves when
    they fit their slots; else, where every label is one word and a number ("Round 14"), the numbers under a
    caption ("Round"), and other labels cut to half the plot's width ("…"); and, where they still do not fit,
    every ``stride``-th label only, far enough apart that moving the outer ones inside the chart keeps a gap."""
    shown, caption = list(labels), ""
    if len(labels) < 2 or all(_label_width(label) + LABEL_GAP <= x_step for label in labels):
        return shown, caption, 1
    words = [label.split(" ") for label in labels]
    if all(len(w) == 2 and w[1].isdigit() and w[0] == words[0][0] for w in words):
        shown, caption = [w[1] for w in words], words[0][0]
    else:
        most = int((WIDTH - LEFT - RIGHT) / 2 / (LABEL_EM * 11))
        shown = [": ".join(_cut(part, most) for part in label.split(": ", 1)) for label in labels]
    widest = max(_label_width(label) for label in shown)
    moved = max(0.0, widest / 2 + 1 - min(LEFT, RIGHT) - x_step / 2)
    stride = max(1, math.ceil((widest + LABEL_GAP + moved) / x_step))
    return shown, caption, stride


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"


def _value_spot(
    placed: list[tuple[float, float, float, float]], x: float, bases: Sequence[float], width: float, size: float = 11
) -> float | None:
    """The first of the baselines ``bases`` (above a point, then below it) where a value centred on ``x`` touches
    no value already placed (``placed``, which it joins); None where each would, so that close lines or narrow bars
    do not print their values over each other (the value still reads off the axis)."""
    for base in bases:
        box = (x - width / 2, base - size * 0.93, x + width / 2, base + size * 0.24)  # the type's full line box
        if box[1] >= 0 and not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in placed):
            placed.append(box)
            return base
    return None


def _nice_step(top: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        if top / step <= 6:
            return step
    return int(10 ** len(str(top)))


def _legend(root: ET.Element, names: Sequence[str], colours: Sequence[str]) -> None:
    """A key per series, in rows: a key that would run past the chart's right edge starts a new row, and the chart
    grows by a row's height for each row after the first."""
    x, row = LEFT, 0
    for name, colour in zip(names, colours, strict=True):
        width = 28 + 7 * len(name)
        if x > LEFT and x + width - 12 > WIDTH:  # the key's trailing space may pass the edge
            x, row = LEFT, row + 1
        y = HEIGHT + LEGEND_ROW * row
        el(root, "rect", class_="legend-key", x=num(x), y=num(y - 18), width="12", height="12", fill=colour)
        el(root, "text", name, class_="legend-name", x=num(x + 16), y=num(y - 8), font_size="11", fill="#333")
        x += width
    if row:
        root.set("viewBox", f"0 0 {num(WIDTH)} {num(HEIGHT + LEGEND_ROW * row)}")


def line_chart(labels: Sequence[str], series: Mapping[str, Sequence[int]], *, title: str) -> str:
    """One line per series over the ``labels`` (turns); the values are whole numbers."""
    names = sorted(series)
    top = max((v for values in series.values() for v in values), default=1)
    root, x_step, scale = _frame(title, labels, top)
    base = HEIGHT - BOTTOM
    colours = [PALETTE[i % len(PALETTE)] for i in range(len(names))]
    title_half = len(title) * LABEL_EM * 14 / 2
    placed = [(WIDTH / 2 - title_half, 6.0, WIDTH / 2 + title_half, 24.0)]  # the title's box
    for name, colour in zip(names, colours, strict=True):
        points = [(LEFT + x_step * (i + 0.5), base - v * scale) for i, v in enumerate(series[name])]
        el(
            root,
            "polyline",
            class_="series",
            data_series=name,
            fill="none",
            stroke=colour,
            stroke_width="2.5",
            points=" ".join(f"{num(x)},{num(y)}" for x, y in points),
        )
        for (x, y), value in zip(points, series[name], strict=True):
            el(root, "circle", cx=num(x), cy=num(y), r="3.5", fill=colour)
            spot = _value_spot(placed, x, (y - 8, y + 16), _label_width(str(value)))
            if spot is not None:
                el(root, "text", str(value), class_="value", x=num(x), y=num(spot), text_anchor="middle",
                   font_size="11", fill=colour)  # fmt: skip
    _legend(root, names, colours)
    return ET.tostring(root, encoding="unicode")


def bar_chart(
    labels: Sequence[str], series: Mapping[str, Sequence[int]], *, title: str, colours: Mapping[str, str] | None = None
) -> str:
    """Grouped bars: one group per label (turn), one bar per series (side)."""
    names = sorted(series)
    top = max((v for values in series.values() for v in values), default=1)
    root, x_step, scale = _frame(title, labels, top)
    base = HEIGHT - BOTTOM
    fills = [(colours or {}).get(name, PALETTE[i % len(PALETTE)]) for i, name in enumerate(names)]
    bar = x_step * 0.7 / max(1, len(names))
    placed: list[tuple[float, float, float, float]] = []
    for s, (name, fill) in enumerate(zip(names, fills, strict=True)):
        for i, value in enumerate(series[name]):
            x = LEFT + x_step * i + x_step * 0.15 + bar * s
            el(
                root,
                "rect",
                class_="bar",
                data_series=name,
                x=num(x),
                y=num(base - value * scale),
                width=num(bar * 0.92),
                height=num(value * scale),
                fill=fill,
            )
            above = base - value * scale - 4
            spot = (
                _value_spot(placed, x + bar * 0.46, (above,), _label_width(str(value)) * 10 / 11, 10) if value else None
            )
            if spot is not None:
                el(root, "text", str(value), class_="value", x=num(x + bar * 0.46), y=num(spot), text_anchor="middle",
                   font_size="10", fill="#333")  # fmt: skip
    _legend(root, names, fills)
    return ET.tostring(root, encoding="unicode")
