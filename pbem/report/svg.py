"""The shared map renderer: a game's :class:`~pbem.rules.maps.MapSpec` and a :class:`~pbem.rules.contract.View`
become one SVG drawing.

Built with ElementTree (text from logs and data packs is escaped by the serializer, never by hand) and
deterministic: the same view gives the same bytes, with coordinates printed to one decimal. Every unit on the
map is one ``<g class="unit" data-unit=…>`` element, which tests and the replay page rely on.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from pbem.report.draw import FONT, SVG_NS, el, num, pointlist
from pbem.rules.contract import View
from pbem.rules.maps import MapSpec, Point, Region
from pbem.rules.presentation import CounterFace, MapStyle, Presentation

__all__ = ["Box", "CombatSite", "MapRenderer", "MarkerBox", "Move", "Placement", "draw_face"]

Box = tuple[float, float, float, float]
"""A part of the board as an SVG viewBox: left, top, width, height in map units."""

VALUE = 0.4
"""A counter's values, as a share of its edge: a 36-unit counter on a 1,000-unit map printed 176 mm wide
gives 7.2 pt type."""
LEGEND_PT = 7.1
"""The printed type size of the legend and the combat markers."""
VALUE_PT = 7.1
"""The smallest printed type size of a counter's values."""
PT_PER_MM = 72 / 25.4


@dataclass(frozen=True)
class Placement:
    """Where one unit is drawn: its top-left corner, in map units."""

    unit: str
    name: str
    location: str
    face: CounterFace
    x: float
    y: float
    scale: float = 1.0
    size: float = 30.0

    @property
    def centre(self) -> Point:
        half = self.size * self.scale / 2
        return (self.x + half, self.y + half)


@dataclass(frozen=True)
class Move:
    """A unit that stands somewhere else than it did: where it was drawn before and where it is drawn now."""

    unit: str
    side: str
    start: Placement
    end: Placement


@dataclass(frozen=True)
class CombatSite:
    """A combat to mark on the map: where, its number in the story, and the side that won (None: nobody)."""

    location: str
    number: int
    winner: str | None


@dataclass(frozen=True)
class MarkerBox:
    """A marker as drawn: its text and colour, and its box's left, top and width (the height is fixed)."""

    text: str
    colour: str
    x: float
    y: float
    width: float


def _draw_markers(layer: ET.Element, boxes: list[MarkerBox], counter: float) -> None:
    for box in boxes:
        el(
            layer,
            "rect",
            x=num(box.x),
            y=num(box.y),
            width=num(box.width),
            height=num(counter * 0.36),
            rx="2",
            fill=box.colour,
        )
        el(
            layer,
            "text",
            box.text,
            x=num(box.x + box.width / 2),
            y=num(box.y + counter * 0.27),
            text_anchor="middle",
            font_size=num(counter * 0.26),
            fill="#ffffff",
            font_weight="bold",
        )


# --- counters ------------------------------------------------------------------------------------------------


def draw_face(parent: ET.Element, face: CounterFace, style: MapStyle) -> None:
    """Draw ``face`` into ``parent`` with its top-left corner at the origin."""
    c = style.counter
    side = style.sides[face.side]
    fill, ink = face.fill or side.fill, side.ink
    if face.count is not None:
        _pile(parent, face.count, c, fill, ink)
    if face.shape == "block":
        el(parent, "rect", x=num(c * 0.06), y=num(c * 0.1), width=num(c), height=num(c), rx="2", fill="#00000040")
        el(parent, "rect", width=num(c), height=num(c), rx="2", fill=fill, stroke=ink, stroke_width="0.8")
        if face.concealed:
            el(
                parent,
                "rect",
                x=num(c * 0.3),
                y=num(c * 0.3),
                width=num(c * 0.4),
                height=num(c * 0.4),
                rx="1",
                fill="none",
                stroke=ink,
                stroke_width="0.6",
                stroke_opacity="0.5",
            )
            return
    else:
        el(parent, "rect", width=num(c), height=num(c), rx="2.5", fill=fill, stroke=ink, stroke_width="0.8")
    if face.stripe is not None:
        el(parent, "rect", class_="stripe", x="0.4", y="0.4", width=num(c * 0.1), height=num(c - 0.8), fill=face.stripe)
    if face.reduced:
        el(
            parent,
            "rect",
            x="0.4",
            y=num(c * 0.74),
            width=num(c - 0.8),
            height=num(c * 0.25),
            fill="#ffffff",
            fill_opacity="0.55",
        )
    if face.title:
        title = el(
            parent,
            "text",
            face.title,
            x=num(c / 2),
            y=num(c * 0.25),
            text_anchor="middle",
            font_size=num(c * 0.22),
            font_family=FONT,
            fill=ink,
        )
        if len(face.title) * 0.6 * c * 0.22 > c * 0.92:  # squeeze a long name onto the counter
            title.set("textLength", num(c * 0.92))
            title.set("lengthAdjust", "spacingAndGlyphs")
    if face.symbol:
        _symbol(parent, face.symbol, c, ink)
    if face.value:
        big = face.shape == "block" and not face.symbol
        size = c * (0.42 if big else VALUE)
        value = el(
            parent,
            "text",
            face.value,
            class_="value",
            x=num(c / 2),
            y=num(c * (0.7 if big else 0.94)),
            text_anchor="middle",
            font_size=num(size),
            font_weight="bold",
            font_family=FONT,
            fill=ink,
        )
        if len(face.value) * 0.62 * size > c * 0.86:  # narrow the letters, never the type size
            value.set("textLength", num(c * 0.86))
            value.set("lengthAdjust", "spacingAndGlyphs")
    if face.count is not None:
        _count_badge(parent, face.count, c, ink)
    for i, mark in enumerate(face.marks):
        y = c * (0.02 + 0.24 * i)
        el(parent, "rect", x=num(c * 0.56), y=num(y), width=num(c * 0.46), height=num(c * 0.22), rx="1", fill="#b22222")
        el(
            parent,
            "text",
            mark,
            x=num(c * 0.79),
            y=num(y + c * 0.175),
            text_anchor="middle",
            font_size=num(c * 0.19),
            font_weight="bold",
            font_family=FONT,
            fill="#ffffff",
        )


PILE = 3
"""The most layers a counted stack shows: more pieces only raise the number on its badge."""


def _pile(parent: ET.Element, count: int, c: float, fill: str, ink: str) -> None:
    """The pieces under the top one of a counted stack, each peeking out down and to the right."""
    for layer in range(min(count, PILE) - 1, 0, -1):
        offset = c * 0.09 * layer
        el(parent, "rect", x=num(offset), y=num(offset), width=num(c), height=num(c), rx="2.5", fill=fill, stroke=ink,
           stroke_width="0.6", class_="pile")  # fmt: skip


def _count_badge(parent: ET.Element, count: int, c: float, ink: str) -> None:
    """How many pieces a counted stack holds, in a white disc on its top-right corner."""
    r = c * 0.2
    g = el(parent, "g", class_="count", data_count=str(count))
    el(g, "circle", cx=num(c - r * 0.5), cy=num(r * 0.5), r=num(r), fill="#ffffff", stroke=ink, stroke_width="0.8")
    size = r * (1.3 if count < 10 else 1.05)
    el(g, "text", str(count), x=num(c - r * 0.5), y=num(r * 0.5 + size * 0.36), text_anchor="middle",
       font_size=num(size), font_weight="bold", font_family=FONT, fill="#111111")  # fmt: skip


AIR = {"fighter": "F", "bomber": "B"}
"""Aircraft (APP-6: an air frame, a dome open below, with the type's letter)."""
SEA = {"transport": "TP", "carrier": "CV", "battleship": "BB", "cruiser": "CA", "destroyer": "DD"}
"""Surface ships (APP-6: a sea-surface frame, a circle, with the class's letters)."""
SUBSURFACE = {"submarine": "SS"}
"""Submarines (APP-6: a subsurface frame, a bowl open above)."""


def _symbol(parent: ET.Element, symbol: str, c: float, ink: str) -> None:
    """A NATO unit-type symbol in a box across the middle of the counter (a dome, circle or bowl at sea and in
    the air)."""
    x0, y0, w, h = c * 0.24, c * 0.3, c * 0.52, c * 0.26
    x1, y1 = x0 + w, y0 + h
    g = el(parent, "g", fill="none", stroke=ink, stroke_width=num(max(0.6, c * 0.03)))
    letters = AIR.get(symbol) or SEA.get(symbol) or SUBSURFACE.get(symbol)
    if letters is not None:
        mid, r = y0 + h / 2, c * 0.16
        if symbol in AIR:
            d = f"M{num(x0)},{num(y1)} V{num(mid)} A{num(w / 2)},{num(h / 2)} 0 0 1 {num(x1)},{num(mid)} V{num(y1)}"
            el(g, "path", d=d, class_="frame-air")
        elif symbol in SEA:
            el(g, "circle", cx=num(c / 2), cy=num(mid), r=num(r), class_="frame-sea")
        else:
            d = f"M{num(x0)},{num(y0)} V{num(mid)} A{num(w / 2)},{num(h / 2)} 0 0 0 {num(x1)},{num(mid)} V{num(y0)}"
            el(g, "path", d=d, class_="frame-subsurface")
        size = h * (0.7 if len(letters) == 1 else 0.55)
        el(g, "text", letters, x=num(c / 2), y=num(mid + size * 0.36), text_anchor="middle", font_size=num(size),
           font_weight="bold", font_family=FONT, fill=ink, stroke="none")  # fmt: skip
        return
    el(g, "rect", x=num(x0), y=num(y0), width=num(w), height=num(h))
    if symbol == "hq":
        el(
            g,
            "text",
            "HQ",
            x=num(c / 2),
            y=num(y0 + h * 0.75),
            text_anchor="middle",
            font_size=num(h * 0.7),
            font_family=FONT,
            fill=ink,
            stroke="none",
        )
    if symbol in ("infantry", "mechanized", "motorized"):
        el(g, "line", x1=num(x0), y1=num(y0), x2=num(x1), y2=num(y1))
        el(g, "line", x1=num(x0), y1=num(y1), x2=num(x1), y2=num(y0))
    if symbol in ("armor", "mechanized"):
        el(
            g,
            "rect",
            x=num(x0 + w * 0.18),
            y=num(y0 + h * 0.22),
            width=num(w * 0.64),
            height=num(h * 0.56),
            rx=num(h * 0.28),
        )
    if symbol == "motorized":
        el(g, "line", x1=num(c / 2), y1=num(y0), x2=num(c / 2), y2=num(y1))
    if symbol == "recon":
        el(g, "line", x1=num(x0), y1=num(y1), x2=num(x1), y2=num(y0))
    if symbol == "anti_tank":
        el(g, "polyline", points=pointlist([(x0, y1), (c / 2, y0), (x1, y1)]))
    if symbol == "artillery":
        el(g, "circle", cx=num(c / 2), cy=num(y0 + h / 2), r=num(h * 0.18), fill=ink)
    if symbol == "air_defense":  # APP-6: a dome rising from the bottom of the frame
        d = f"M{num(x0 + w * 0.2)},{num(y1)} A{num(w * 0.3)},{num(h * 0.6)} 0 0 1 {num(x1 - w * 0.2)},{num(y1)}"
        el(g, "path", d=d)
    if symbol == "truck":  # APP-6 transportation: a wheel, hub and spokes
        r = h * 0.32
        el(g, "circle", cx=num(c / 2), cy=num(y0 + h / 2), r=num(r))
        el(g, "line", x1=num(c / 2 - r), y1=num(y0 + h / 2), x2=num(c / 2 + r), y2=num(y0 + h / 2))
        el(g, "line", x1=num(c / 2), y1=num(y0 + h / 2 - r), x2=num(c / 2), y2=num(y0 + h / 2 + r))


# --- the map ---------------------------------------------------------------------------------------------


class MapRenderer:
    """Draws one game's map. Build it once per report; :meth:`render` is then a pure function of a view."""

    def __init__(self, presentation: Presentation, *, min_scale: float = 0.5):
        """``min_scale``: the smallest counters a crowd may shrink to (1 for print, where type must stay
        legible: a crowd that does not fit then overlaps a little and spills over its region's edge)."""
        self.min_scale = min_scale
        self._placed: dict[int, tuple[View, list[Placement]]] = {}
        self._type = presentation.style.counter * 0.4
        self.presentation = presentation
        self.style = presentation.style
        self.spec: MapSpec = presentation.map_spec()
        self.regions: dict[str, Region] = {r.id: r for r in self.spec.regions}
        self._names = {r.id: r.name or r.id for r in self.spec.regions}

    def name(self, location: str) -> str:
        return self._names.get(location, location)

    # --- placing counters ----------------------------------------------------------------------------------
    def placements(self, view: View) -> list[Placement]:
        """Every unit of ``view`` that is on the map, laid out in rows under its location's label (smaller
        counters where a crowd would not fit in its region). Remembered per view: a replay asks for each
        view's layout for its picture and again for the moves into and out of it."""
        known = self._placed.get(id(view))
        if known is not None and known[0] is view:
            return known[1]
        placed = self._place(view)
        self._placed[id(view)] = (view, placed)  # holding the view keeps its id from being reused
        return placed

    def _place(self, view: View) -> list[Placement]:
        by_location: dict[str, list[tuple[str, str, CounterFace]]] = {}
        for unit in view.units:
            if unit.location is None or unit.location not in self.regions:
                continue
            by_location.setdefault(unit.location, []).append((unit.id, unit.name, self.presentation.face(unit)))
        placed = []
        for location in sorted(by_location):
            region = self.regions[location]
            units = by_location[location]  # in the view's order, which the game keeps stable
            cx, cy = region.center
            c = self.style.counter
            top = cy - c * 0.35
            scale, per_row, spacing = self._fit(region, len(units), top)
            size = c * scale
            step = size * spacing
            rows = -(-len(units) // per_row)
            bottom = self._bottom(region)
            if top + rows * step > bottom and rows > 1:  # a crowd that spills: lift it, never over the label
                top = max(cy - c * 0.35 - (top + rows * step - bottom), cy - c * 0.35 - c * 0.3)
            for i, (unit_id, name, face) in enumerate(units):
                row, col = divmod(i, per_row)
                in_row = min(per_row, len(units) - row * per_row)
                left = cx - (in_row * step - (step - size)) / 2
                placed.append(Placement(unit_id, name, location, face, left + col * step, top + row * step, scale, c))
        return placed

    def _bottom(self, region: Region) -> float:
        if region.polygon:
            return max(y for _, y in region.polygon)
        return region.center[1] + region.radius

    def _fit(self, region: Region, count: int, top: float) -> tuple[float, int, float]:
        """The largest counter scale, counters per row and spacing (1.08 apart, or overlapping a little) at
        which ``count`` counters fit in ``region``; at the smallest allowed scale, the best it can do."""
        if region.polygon:
            xs = [x for x, _ in region.polygon]
            width, height = (max(xs) - min(xs)) * 0.92, (self._bottom(region) - top) * 0.95
        else:
            width, height = region.radius * 2, region.radius * 2
        scales = [s for s in (1.0, 0.85, 0.7, 0.6, 0.5) if s >= self.min_scale] or [self.min_scale]
        for scale in scales:
            for spacing in (1.08, 0.94):  # 0.94: neighbours overlap a counter's margin, never its values
                step = self.style.counter * scale * spacing
                room = width / 0.92 * 0.98 if spacing < 1 else width
                per_row = max(1, min(count, int((room - self.style.counter * scale + step) // step)))
                if -(-count // per_row) * step <= height + step * 0.08:
                    return scale, per_row, spacing
        step = self.style.counter * scales[-1] * 0.94
        per_row = max(1, min(count, int((width / 0.92 - self.style.counter * scales[-1] + step) // step)))
        return scales[-1], per_row, 0.94

    # --- drawing ---------------------------------------------------------------------------------------------
    def render(
        self,
        view: View | None,
        *,
        highlight: Iterable[str] = (),
        title: str = "",
        css_class: str = "map",
        moves: Iterable[Move] = (),
        combats: Iterable[CombatSite] = (),
        legend: bool = False,
        width_mm: float | None = None,
        view_box: Box | None = None,
        zones: bool | Mapping[str, Collection[str]] = False,
    ) -> str:
        """The map with ``view``'s units, control and markers (None: the empty board).

        ``moves`` are drawn as arrows from where each unit stood to where it stands, ``combats`` as numbered
        markers in the winner's colour; ``legend`` adds a key under the map; ``width_mm`` gives the printed
        width (the screen scales the drawing to its column either way); ``view_box`` shows only that part of
        the board (:meth:`view_box`), the legend under it. ``zones`` adds the presentation's zones of control
        (:meth:`Presentation.zones`, or the zones given, as a page that asked for them already has them) as a
        hatched layer of class ``zones`` under the counters, one hatching per side.
        """
        moves, combats = list(moves), list(combats)
        box = view_box or (0.0, 0.0, self.spec.width, self.spec.height)
        # the legend's and markers' type: LEGEND_PT on paper, or a little over a third of a counter on screen
        mm_per_unit = (width_mm or 0) / box[2]
        self._type = LEGEND_PT / PT_PER_MM / mm_per_unit if mm_per_unit else self.style.counter * 0.4
        root = self.board(highlight=highlight, title=title, css_class=css_class, view=view)
        if view_box is not None:
            root.set("viewBox", " ".join(num(v) for v in box))
        drawn = self.presentation.zones(view) if zones is True and view is not None else zones
        if isinstance(drawn, Mapping) and drawn:
            self._zones(root, drawn)
        if moves:  # beneath the counters: an arrow shows the way a unit came and never hides a counter
            layer = el(root, "g", class_="arrows")
            for move in moves:
                self.arrow(layer, move)
        if view is not None:
            units = el(root, "g", class_="units")
            for p in self.placements(view):
                g = el(
                    units,
                    "g",
                    class_="unit",
                    data_unit=p.unit,
                    data_side=p.face.side,
                    transform=f"translate({num(p.x)},{num(p.y)})" + (f" scale({num(p.scale)})" if p.scale != 1 else ""),
                )
                el(g, "title", f"{p.name} ({self.name(p.location)})")
                draw_face(g, p.face, self.style)
            self._markers(root, view)
        if combats:
            self._combats(el(root, "g", class_="combats"), combats)
        height = self.legend(root, moves=bool(moves), combats=bool(combats), box=box) if legend else box[3]
        if width_mm is not None:
            root.set("width", f"{num(width_mm)}mm")
            root.set("height", f"{num(width_mm * height / box[2])}mm")
        return ET.tostring(root, encoding="unicode")

    def print_width(self, column_mm: float, tallest_mm: float, view_box: Box | None = None) -> float:
        """How wide to print the map (or its ``view_box``): as large as fits a ``column_mm`` by ``tallest_mm``
        box, but never so small that a counter's values print under VALUE_PT, nor wider than the column."""
        _, _, width, height = view_box or (0.0, 0.0, self.spec.width, self.spec.height)
        fits = min(column_mm / width, tallest_mm / height)
        legible = VALUE_PT / PT_PER_MM / (self.style.counter * VALUE * self.min_scale)
        return min(column_mm, max(fits, legible) * width)

    def view_box(self, locations: Iterable[str], *, least: float = 0.4) -> Box | None:
        """The part of the board around ``locations`` (a period's units and events): their regions' bounding
        box padded by a counter and a half, at least ``least`` of the board's width and height, widened to the
        board's proportions and kept on the board. None when no location is on the map or the box would be
        (nearly) the whole board, which is then drawn as it is."""
        points = [p for r in dict.fromkeys(locations) if r in self.regions for p in _outline(self.regions[r])]
        if not points:
            return None
        spec, pad = self.spec, self.style.counter * 1.5
        left, right = min(x for x, _ in points) - pad, max(x for x, _ in points) + pad
        top, bottom = min(y for _, y in points) - pad, max(y for _, y in points) + pad
        width = max(right - left, spec.width * least, (bottom - top) * spec.width / spec.height)
        height = max(bottom - top, spec.height * least, width * spec.height / spec.width)
        width = max(width, height * spec.width / spec.height)
        if width >= spec.width * 0.9 or height >= spec.height * 0.9:
            return None
        x = min(max((left + right - width) / 2, 0.0), spec.width - width)
        y = min(max((top + bottom - height) / 2, 0.0), spec.height - height)
        return (x, y, width, height)

    # --- what happened: movement arrows, combat markers, the legend --------------------------------------------
    def moves(self, before: View, after: View) -> list[Move]:
        """The units of ``after`` that stand in another location than in ``before``, as drawn in each."""
        then = {p.unit: p for p in self.placements(before)}
        moved = []
        for now in self.placements(after):
            was = then.get(now.unit)
            if was is not None and was.location != now.location:
                moved.append(Move(now.unit, now.face.side, was, now))
        return moved

    def arrow_shape(self, move: Move) -> tuple[Point, Point, tuple[Point, Point, Point]]:
        """An arrow's tail (the unit's old counter centre), the end of its shaft and its head, whose tip
        stops at the edge of the unit's new counter."""
        (x1, y1), (x2, y2) = move.start.centre, move.end.centre
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        c = self.style.counter
        stop = min(c * 0.55, length * 0.4)
        tip = (x2 - ux * stop, y2 - uy * stop)
        head = c * 0.42
        base = (tip[0] - ux * head, tip[1] - uy * head)
        wing = (-uy * head * 0.5, ux * head * 0.5)
        return (x1, y1), base, (tip, (base[0] + wing[0], base[1] + wing[1]), (base[0] - wing[0], base[1] - wing[1]))

    def arrow(self, layer: ET.Element, move: Move) -> None:
        stroke = self.style.arrow(move.side)
        tail, base, head = self.arrow_shape(move)
        g = el(
            layer,
            "g",
            class_="arrow",
            data_unit=move.unit,
            data_from=move.start.location,
            data_to=move.end.location,
        )
        line = {"x1": num(tail[0]), "y1": num(tail[1]), "x2": num(base[0]), "y2": num(base[1])}
        el(g, "line", **line, stroke="#ffffff", stroke_width=num(stroke.width + 3), stroke_linecap="round")
        attrs = {"stroke": stroke.color, "stroke_width": num(stroke.width), "stroke_linecap": "round"}
        if stroke.dash:
            attrs["stroke_dasharray"] = stroke.dash
        el(g, "line", class_="shaft", **line, **attrs)
        el(g, "circle", cx=num(tail[0]), cy=num(tail[1]), r=num(stroke.width * 1.2), fill=stroke.color)
        el(g, "polygon", class_="head", points=pointlist(head), fill=stroke.color, stroke="#ffffff", stroke_width="1")

    def _label_box(self, region: Region) -> tuple[float, float, float, float]:
        """The box a region's label (and its control marker) takes: left, top, right, bottom."""
        cx, cy = region.center
        size = self._label_size()
        lines = _wrap(region.label, self._label_width(region), size)
        widest = max((len(part) for part in lines), default=0) * 0.56 * size
        baseline = cy - self.style.counter * 0.5
        left = cx - widest / 2 - self.style.counter * 0.4  # the control marker
        return (left, baseline - size * (1.05 * len(lines)), cx + widest / 2, baseline + size * 0.25)

    def _combats(self, layer: ET.Element, sites: list[CombatSite]) -> None:
        """One marker per location: the numbers of its combats (``1–3, 5``), in the colour of the side that
        won the last of them (grey: nobody). It goes beside the location's label, on the first side (left,
        right, above) where it covers no other label and stays on the map."""
        by_location: dict[str, list[CombatSite]] = {}
        for site in sites:
            if site.location in self.regions:
                by_location.setdefault(site.location, []).append(site)
        c, size = self.style.counter, self._type
        labels = {r.id: self._label_box(r) for r in self.spec.regions if r.label}
        taken: list[tuple[float, float, float, float]] = []
        for location, fought in by_location.items():
            text = _runs([site.number for site in fought])
            last = fought[-1].winner
            fill = self.style.sides[last].control if last in self.style.sides else "#8a8a8a"
            left, top, right, bottom = labels.get(location) or self._label_box(self.regions[location])
            width, height = len(text) * size * 0.62 + c * 0.45, size * 1.5
            middle = (top + bottom) / 2 - height / 2
            candidates = [
                (left - width - c * 0.05, middle),
                (right + c * 0.1, middle),
                ((left + right) / 2 - width / 2, top - height - c * 0.05),
            ]
            others = [b for k, b in labels.items() if k != location] + taken
            x, y = candidates[2]
            for cx, cy in candidates:
                box = (cx, cy, cx + width, cy + height)
                on_map = cx >= 0 and cy >= 0 and box[2] <= self.spec.width and box[3] <= self.spec.height
                if on_map and not any(_overlap(box, other) for other in others):
                    x, y = cx, cy
                    break
            x, y = min(max(x, 1.0), self.spec.width - width - 1), max(y, 1.0)
            taken.append((x, y, x + width, y + height))
            g = el(layer, "g", class_="combat-marker", data_location=location, data_numbers=text)
            el(g, "rect", x=num(x), y=num(y), width=num(width), height=num(height), rx=num(height / 2), fill=fill,
               stroke="#ffffff", stroke_width="1.5")  # fmt: skip
            _burst(g, x + c * 0.25, y + height / 2, height * 0.34, "#ffffff")
            el(g, "text", text, x=num(x + c * 0.45 + (width - c * 0.45) / 2), y=num(y + height / 2 + size * 0.36),
               text_anchor="middle", font_size=num(size), font_weight="bold", fill="#ffffff")  # fmt: skip

    def legend(self, root: ET.Element, *, moves: bool, combats: bool, box: Box | None = None) -> float:
        """Add a key under the map drawn in ``root`` (arrows and combat markers listed when the map has them),
        or under the part ``box`` of it; returns the drawing's new height, which its viewBox now has."""
        spec, style = self.spec, self.style
        left, top, wide, tall = box or (0.0, 0.0, spec.width, spec.height)
        bottom = top + tall
        c, size = style.counter, self._type
        items: list[tuple[str, str, str]] = []  # (kind of swatch, what it shows, words)
        for side, look in style.sides.items():
            items.append(("counter", side, f"{look.name} unit"))
        for side, look in style.sides.items():
            items.append(("control", side, f"{look.name} control"))
        if moves:
            for side, look in style.sides.items():
                items.append(("arrow", side, f"{look.name} move"))
        if combats:
            items.append(("combat", "", "Combats, numbered as in the story (colour of the last winner; grey: none)"))
        terrains = dict.fromkeys(r.terrain for r in spec.regions)
        for terrain in terrains:
            items.append(("terrain", terrain, style.name(terrain)))
        kinds = [*(e.kind for e in spec.edges), *(k.kind for k in spec.links), *(p.kind for p in spec.paths)]
        for kind in dict.fromkeys([*kinds, *(line.kind for line in spec.lines)]):
            items.append(("stroke", kind, style.name(kind)))
        layer = el(root, "g", class_="legend")
        pad, row_height = c * 0.25, size * 1.75
        x, y = left + pad, bottom + pad
        positions = []
        for kind, what, words in items:
            # DejaVu Sans (FONT) averages about 0.64 em a character; the gap grows with the type, which in print
            # can be as large as a small counter (Gazala's)
            width = c * 0.9 + len(words) * size * 0.64 + max(c * 0.6, size * 0.8)
            if x + width > left + wide - pad and x > left + pad:
                x, y = left + pad, y + row_height
            positions.append((kind, what, words, x, y))
            x += width
        height = y + row_height + pad - top
        el(
            layer,
            "rect",
            x=num(left),
            y=num(bottom),
            width=num(wide),
            height=num(top + height - bottom),
            fill="#ffffff",
        )
        el(layer, "line", x1=num(left), y1=num(bottom), x2=num(left + wide), y2=num(bottom), stroke="#6b5b3e")
        for kind, what, words, x, y in positions:
            item = el(layer, "g", class_="legend-item", data_kind=kind)
            self._swatch(item, kind, what, x, y + (row_height - c * 0.6) / 2, c * 0.6)
            el(item, "text", words, x=num(x + c * 0.9), y=num(y + row_height / 2 + size * 0.36), font_size=num(size),
               fill="#222222")  # fmt: skip
        root.set("viewBox", f"{num(left)} {num(top)} {num(wide)} {num(height)}")
        return height

    def _swatch(self, parent: ET.Element, kind: str, what: str, x: float, y: float, s: float) -> None:
        style = self.style
        if kind == "counter":
            look = style.sides[what]
            el(parent, "rect", x=num(x), y=num(y), width=num(s), height=num(s), rx="2", fill=look.fill, stroke=look.ink)
        elif kind == "control":
            el(parent, "circle", cx=num(x + s / 2), cy=num(y + s / 2), r=num(s * 0.3), fill=style.sides[what].control,
               stroke="#ffffff")  # fmt: skip
        elif kind == "arrow":
            stroke = style.arrow(what)
            mid = y + s / 2
            el(parent, "line", x1=num(x), y1=num(mid), x2=num(x + s * 0.6), y2=num(mid), stroke=stroke.color,
               stroke_width=num(stroke.width))  # fmt: skip
            el(parent, "polygon", points=pointlist([(x + s * 1.1, mid), (x + s * 0.5, mid - s * 0.3),
               (x + s * 0.5, mid + s * 0.3)]), fill=stroke.color)  # fmt: skip
        elif kind == "combat":
            el(parent, "rect", x=num(x - s * 0.1), y=num(y + s * 0.1), width=num(s * 1.3), height=num(s * 0.8),
               rx=num(s * 0.4), fill="#8a8a8a")  # fmt: skip
            _burst(parent, x + s * 0.25, y + s / 2, s * 0.28, "#ffffff")
        elif kind == "terrain":
            el(parent, "rect", x=num(x), y=num(y), width=num(s), height=num(s), fill=self._fill(what),
               stroke=style.region_stroke)  # fmt: skip
        else:
            el(parent, "line", x1=num(x), y1=num(y + s / 2), x2=num(x + s), y2=num(y + s / 2), **self._stroke(what))

    def _label_size(self) -> float:
        return self.style.label_size or self.style.counter * 0.38

    def _label_width(self, region: Region) -> float:
        if region.polygon:
            xs = [x for x, _ in region.polygon]
            return (max(xs) - min(xs)) * 0.8
        return region.radius * 4

    def board(
        self,
        *,
        highlight: Iterable[str] = (),
        title: str = "",
        css_class: str = "map",
        view: View | None = None,
        every_control: bool = False,
    ) -> ET.Element:
        """The static board: terrain, borders, features, labels, and (with ``view``) control.

        With ``every_control`` each region gets a control marker, blank where nobody controls it, for a page
        that recolours them as it steps through a game.
        """
        spec, style = self.spec, self.style
        root = ET.Element(
            "svg",
            {
                "xmlns": SVG_NS,
                "viewBox": f"0 0 {num(spec.width)} {num(spec.height)}",
                "class": css_class,
                "role": "img",
                "font-family": FONT,
            },
        )
        el(root, "title", title or "Map")
        if view is not None:
            el(root, "desc", self.describe(view))
        el(root, "rect", width=num(spec.width), height=num(spec.height), fill=self._fill(spec.background))
        for shape in spec.shapes:
            el(root, "polygon", points=pointlist(shape.polygon), fill=self._fill(shape.terrain))
        hot = set(highlight)
        regions = el(root, "g", class_="regions")
        for region in spec.regions:
            attrs = {
                "class_": "region",
                "data_id": region.id,
                "fill": self._fill(region.terrain),
                "stroke": style.region_stroke,
                "stroke_width": "1",
            }
            if region.polygon:
                drawn = el(regions, "polygon", points=pointlist(region.polygon), **attrs)
            else:
                cx, cy = region.center
                drawn = el(regions, "circle", cx=num(cx), cy=num(cy), r=num(region.radius), **attrs)
            el(drawn, "title", region.name or region.id)
        if style.control_tint is not None and view is not None:
            self._tint(root, self.presentation.control(view), style.control_tint)
        features = el(root, "g", class_="features")
        for line in spec.lines:
            el(features, "polyline", points=pointlist(line.points), fill="none", **self._stroke(line.kind))
        for path in spec.paths:
            points = [self.regions[r].center for r in path.through if r in self.regions]
            el(features, "polyline", points=pointlist(points), fill="none", **self._stroke(path.kind))
        for link in spec.links:
            (ax, ay), (bx, by) = _between(self.regions[link.a], self.regions[link.b])
            el(features, "line", x1=num(ax), y1=num(ay), x2=num(bx), y2=num(by), **self._stroke(link.kind))
        for edge in spec.edges:
            shared = _shared_border(self.regions[edge.a], self.regions[edge.b])
            if len(shared) >= 2:
                el(
                    features,
                    "polyline",
                    points=pointlist(shared),
                    fill="none",
                    stroke_linecap="round",
                    **self._stroke(edge.kind),
                )
        for region in spec.regions:
            if region.id in hot:
                outline = region.polygon or _circle_points(region)
                el(
                    features,
                    "polygon",
                    class_="highlight",
                    points=pointlist(outline),
                    fill="none",
                    stroke="#d62828",
                    stroke_width="4",
                    stroke_opacity="0.85",
                )
        labels = el(root, "g", class_="labels")
        control = self.presentation.control(view) if view is not None else {}
        c = style.counter
        for region in spec.regions:
            cx, cy = region.center
            ly = cy - c * 0.5
            size = self._label_size()
            lines = _wrap(region.label, self._label_width(region), size)
            if lines:
                text = el(
                    labels,
                    "text",
                    None if len(lines) > 1 else lines[0],
                    class_="label",
                    x=num(cx),
                    y=num(ly - size * 1.05 * (len(lines) - 1)),
                    text_anchor="middle",
                    font_size=num(size),
                    font_weight="bold",
                    fill=style.label_color,
                    **_halo(style.label_halo, size),
                )
                if len(lines) > 1:
                    for i, part in enumerate(lines):
                        el(text, "tspan", part, x=num(cx), dy="0" if i == 0 else num(size * 1.05))
            owner = control.get(region.id, "")
            if owner in style.sides or every_control:
                widest = max((len(part) for part in lines), default=0) * size * 0.56
                dx = c * 0.25 + widest / 2
                el(
                    labels,
                    "circle",
                    class_="control",
                    data_id=region.id,
                    data_side=owner,
                    cx=num(cx - dx),
                    cy=num(ly - c * 0.13),
                    r=num(c * 0.14),
                    fill=style.sides[owner].control if owner in style.sides else "none",
                    stroke="#ffffff" if owner in style.sides else "none",
                    stroke_width="0.8",
                )
        for label in spec.labels:
            el(
                labels,
                "text",
                label.text,
                x=num(label.at[0]),
                y=num(label.at[1]),
                text_anchor="middle",
                font_size=num(label.size),
                font_style="italic" if label.italic else "normal",
                fill=label.color or style.label_color,
                **_halo(label.halo, label.size),
                **({"font_weight": "bold"} if label.bold else {}),
            )
        return root

    def _tint(self, root: ET.Element, control: Mapping[str, str], opacity: float) -> None:
        """A wash in its controller's colour over each controlled region with an outline."""
        layer = el(root, "g", class_="control-tint")
        for region in self.spec.regions:
            owner = control.get(region.id, "")
            if owner in self.style.sides and region.polygon:
                el(layer, "polygon", data_id=region.id, data_side=owner, points=pointlist(region.polygon),
                   fill=self.style.sides[owner].control, fill_opacity=num(opacity), stroke="none")  # fmt: skip

    def _zones(self, root: ET.Element, zones: Mapping[str, Collection[str]]) -> None:
        """Each side's zone of control hatched in its control colour (the two sides' hatchings cross where the
        zones overlap), each region also outlined, in a layer a page may show or hide."""
        layer = el(root, "g", class_="zones")
        defs = el(layer, "defs")
        step = self.style.counter * 0.22
        for i, (side, where) in enumerate(sorted(zones.items())):
            colour = self.style.sides[side].control if side in self.style.sides else "#333333"
            pattern = el(defs, "pattern", id=f"zoc-{side}", patternUnits="userSpaceOnUse", width=num(step),
                         height=num(step), patternTransform=f"rotate({45 if i % 2 == 0 else -45})")  # fmt: skip
            el(pattern, "line", x1="0", y1="0", x2="0", y2=num(step), stroke=colour, stroke_width=num(step * 0.35))
            group = el(layer, "g", class_="zone", data_side=side)
            for location in sorted(where):
                region = self.regions.get(location)
                if region is None:
                    continue
                outline = region.polygon or _circle_points(region)
                el(group, "polygon", data_id=location, points=pointlist(outline), fill=f"url(#zoc-{side})",
                   fill_opacity="0.6", stroke=colour, stroke_opacity="0.5", stroke_width="1")  # fmt: skip

    def marker_boxes(self, view: View) -> list[MarkerBox]:
        """Where each of the view's markers is drawn: a coloured label above its location."""
        boxes = []
        c = self.style.counter
        for i, marker in enumerate(self.presentation.markers(view)):
            region = self.regions.get(marker.location)
            if region is None:
                continue
            cx, cy = region.center
            colour = self.style.sides[marker.side].control if marker.side in self.style.sides else "#333333"
            width = c * 0.16 * len(marker.text) + c * 0.3
            boxes.append(MarkerBox(marker.text, colour, cx - width / 2, cy - c * 1.25 - (i % 2) * c * 0.4, width))
        return boxes

    def _markers(self, root: ET.Element, view: View) -> None:
        boxes = self.marker_boxes(view)
        if boxes:
            _draw_markers(el(root, "g", class_="markers"), boxes, self.style.counter)

    def describe(self, view: View) -> str:
        """The map in words (the SVG's ``<desc>``): who is where."""
        where: dict[str, list[str]] = {}
        for unit in view.units:
            if unit.location is not None:
                where.setdefault(unit.location, []).append(unit.name if not unit.hidden else f"a {unit.side} block")
        return "; ".join(f"{self.name(loc)}: {', '.join(names)}" for loc, names in sorted(where.items()))

    def _fill(self, terrain: str) -> str:
        return self.style.terrain.get(terrain, "#f4f1e8")

    def _stroke(self, kind: str) -> dict[str, str]:
        stroke = self.style.strokes.get(kind)
        if stroke is None:
            return {"stroke": "#555555", "stroke_width": "1.5"}
        attrs = {"stroke": stroke.color, "stroke_width": num(stroke.width)}
        if stroke.dash:
            attrs["stroke_dasharray"] = stroke.dash
        return attrs


def _halo(colour: str | None, size: float) -> dict[str, str]:
    """The attributes outlining text in ``colour`` behind its letters (none without a colour)."""
    if colour is None:
        return {}
    return {"stroke": colour, "stroke_width": num(max(1.0, size * 0.22)), "stroke_linejoin": "round",
            "paint_order": "stroke"}  # fmt: skip


def _wrap(text: str, width: float, size: float) -> list[str]:
    """``text`` in at most two lines that fit ``width`` at type ``size`` where a break can make them fit."""
    if not text or len(text) * size * 0.56 <= width or " " not in text:
        return [text] if text else []
    words = text.split(" ")
    best = min(range(1, len(words)), key=lambda i: max(len(" ".join(words[:i])), len(" ".join(words[i:]))))
    return [" ".join(words[:best]), " ".join(words[best:])]


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _runs(numbers: list[int]) -> str:
    """``[1, 2, 3, 5]`` → ``1–3, 5``."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def _burst(parent: ET.Element, x: float, y: float, r: float, fill: str) -> None:
    """A combat marker: an eight-pointed burst."""
    points = []
    for i in range(16):
        radius = r * (1.0 if i % 2 == 0 else 0.72)
        angle = math.radians(i * 22.5 - 90)
        points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    el(parent, "polygon", points=pointlist(points), fill=fill, stroke="#ffffff", stroke_width="1.5")


def _shared_border(a: Region, b: Region) -> list[Point]:
    """The corners two polygons share, in ``a``'s order (rounded, so computed hex corners match)."""

    def key(p: Point) -> tuple[int, int]:
        return (round(p[0] * 2), round(p[1] * 2))

    theirs = {key(p) for p in b.polygon}
    mine = [p for p in a.polygon if key(p) in theirs]
    if len(mine) > 2 and len(mine) == len(a.polygon):
        return mine
    # a shared run may wrap around the end of a's corner list: start it after the first unshared corner
    ring = list(a.polygon)
    start = next((i for i, p in enumerate(ring) if key(p) not in theirs), 0)
    ordered = ring[start:] + ring[:start]
    return [p for p in ordered if key(p) in theirs]


def _between(a: Region, b: Region) -> tuple[Point, Point]:
    """The part of the line between two centres that lies outside both regions."""
    start, end = a.center, b.center
    return _exit(a, start, end), _exit(b, end, start)


def _exit(region: Region, inside: Point, outside: Point) -> Point:
    """Where the segment from ``inside`` (the region's centre) to ``outside`` leaves ``region``."""
    (x0, y0), (x1, y1) = inside, outside
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy) or 1.0
    if not region.polygon:
        t = min(1.0, region.radius / length)
        return (x0 + dx * t, y0 + dy * t)
    best = 0.0
    ring = region.polygon
    for (px, py), (qx, qy) in zip(ring, ring[1:] + ring[:1], strict=True):
        ex, ey = qx - px, qy - py
        denom = dx * ey - dy * ex
        if denom == 0:
            continue
        t = ((px - x0) * ey - (py - y0) * ex) / denom
        u = ((px - x0) * dy - (py - y0) * dx) / denom
        if 0 <= t <= 1 and 0 <= u <= 1:
            best = max(best, t)
    return (x0 + dx * best, y0 + dy * best)


def _outline(region: Region) -> tuple[Point, ...]:
    """The points that bound ``region``: its polygon, or the square around a node's circle."""
    if region.polygon:
        return region.polygon
    (cx, cy), r = region.center, region.radius
    return ((cx - r, cy - r), (cx + r, cy + r))


def _circle_points(region: Region) -> tuple[Point, ...]:
    cx, cy = region.center
    r = region.radius + 3
    return tuple((cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in range(0, 360, 30))
