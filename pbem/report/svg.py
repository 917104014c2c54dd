"""The shared map renderer: a game's :class:`~pbem.rules.maps.MapSpec` and a :class:`~pbem.rules.contract.View`
become one SVG drawing.

Built with ElementTree (text from logs and data packs is escaped by the serializer, never by hand) and
deterministic: the same view gives the same bytes, with coordinates printed to one decimal. Every unit on the
map is one ``<g class="unit" data-unit=…>`` element, which tests and the replay page rely on.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass

from pbem.report.draw import FONT, SVG_NS, el, num, pointlist
from pbem.rules.contract import View
from pbem.rules.maps import MapSpec, Point, Region
from pbem.rules.presentation import CounterFace, MapStyle, Presentation

__all__ = ["MapRenderer", "MarkerBox", "Placement", "draw_face"]


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
        el(
            parent,
            "text",
            face.value,
            x=num(c / 2),
            y=num(c * (0.7 if big else 0.93)),
            text_anchor="middle",
            font_size=num(c * (0.42 if big else 0.26)),
            font_weight="bold",
            font_family=FONT,
            fill=ink,
        )
    for i, mark in enumerate(face.marks):
        y = c * (0.02 + 0.24 * i)
        el(parent, "rect", x=num(c * 0.56), y=num(y), width=num(c * 0.46), height=num(c * 0.22), rx="1", fill="#b22222")
        el(
            parent,
            "text",
            mark,
            x=num(c * 0.79),
            y=num(y + c * 0.17),
            text_anchor="middle",
            font_size=num(c * 0.16),
            font_weight="bold",
            font_family=FONT,
            fill="#ffffff",
        )


def _symbol(parent: ET.Element, symbol: str, c: float, ink: str) -> None:
    """A NATO unit-type symbol in a box across the middle of the counter."""
    x0, y0, w, h = c * 0.2, c * 0.34, c * 0.6, c * 0.36
    x1, y1 = x0 + w, y0 + h
    g = el(parent, "g", fill="none", stroke=ink, stroke_width=num(max(0.6, c * 0.03)))
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


# --- the map ---------------------------------------------------------------------------------------------


class MapRenderer:
    """Draws one game's map. Build it once per report; :meth:`render` is then a pure function of a view."""

    def __init__(self, presentation: Presentation):
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
        counters where a crowd would not fit in its region)."""
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
            top = cy - self.style.counter * 0.35
            scale, per_row = self._fit(region, len(units), top)
            size = self.style.counter * scale
            step = size * 1.08
            for i, (unit_id, name, face) in enumerate(units):
                row, col = divmod(i, per_row)
                in_row = min(per_row, len(units) - row * per_row)
                left = cx - (in_row * step - (step - size)) / 2
                placed.append(Placement(unit_id, name, location, face, left + col * step, top + row * step, scale))
        return placed

    def _fit(self, region: Region, count: int, top: float) -> tuple[float, int]:
        """The largest counter scale (and counters per row) at which ``count`` counters fit in ``region``."""
        if region.polygon:
            xs, ys = [x for x, _ in region.polygon], [y for _, y in region.polygon]
            width, height = (max(xs) - min(xs)) * 0.92, (max(ys) - top) * 0.95
        else:
            width, height = region.radius * 2, region.radius * 2
        for scale in (1.0, 0.85, 0.7, 0.6, 0.5):
            step = self.style.counter * scale * 1.08
            per_row = max(1, min(count, int((width + step * 0.08) // step)))
            if -(-count // per_row) * step <= height + step * 0.08:
                return scale, per_row
        return scale, per_row

    # --- drawing ---------------------------------------------------------------------------------------------
    def render(
        self,
        view: View | None,
        *,
        highlight: Iterable[str] = (),
        title: str = "",
        css_class: str = "map",
    ) -> str:
        """The map with ``view``'s units, control and markers (None: the empty board)."""
        root = self.board(highlight=highlight, title=title, css_class=css_class, view=view)
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
        return ET.tostring(root, encoding="unicode")

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
            if region.label:
                el(
                    labels,
                    "text",
                    region.label,
                    x=num(cx),
                    y=num(ly),
                    text_anchor="middle",
                    font_size=num(style.label_size or c * 0.38),
                    font_weight="bold",
                    fill=style.label_color,
                )
            owner = control.get(region.id, "")
            if owner in style.sides or every_control:
                dx = c * 0.25 + len(region.label) * c * 0.12
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
                fill=style.label_color,
            )
        return root

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


def _circle_points(region: Region) -> tuple[Point, ...]:
    cx, cy = region.center
    r = region.radius + 3
    return tuple((cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in range(0, 360, 30))
