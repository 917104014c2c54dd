"""The *Axis & Allies: North Africa* board and pieces as the shared renderer draws them (:mod:`pbem.report.svg`).

Everything comes from the data pack: the canvas, the land that is no space (``decorations``), every territory and
sea zone with its outline and label anchor (``geometry``), RP values, the Sahara, impassable and coast-road
territories (p.11), the white line round Morocco, Algeria and Tunisia (p.10), the printed emblems of permanent
owners, the regional capitals (p.6), the convoy zones and their routes (p.11), the Strait of Messina, and each
power's colour. This module only chooses how they look. Pieces are interchangeable, so a space shows one counted
stack per power and unit type (its chart values, and the number of pieces in a badge).

A game's :class:`~pbem.rules.presentation.Presentation` delegates its ``map_spec``, ``face`` and ``style`` to
:func:`map_spec`, :func:`face` and :func:`map_style` (as its docstring shows).

Example:
    >>> from pbem.games.axisallies.data import default_pack_bytes, load_pack
    >>> pack = load_pack(default_pack_bytes())
    >>> next(r for r in map_spec(pack).regions if r.id == "tobruk").label
    'Tobruk 4'
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.games.axisallies.data import AxisAlliesPack, SeaZone, Territory
from pbem.rules.contract import UnitView
from pbem.rules.maps import Edge, Label, MapSpec, Path, Point, Polyline, Region, Shape
from pbem.rules.presentation import CounterFace, MapStyle, SideStyle, Stroke

__all__ = ["SYMBOLS", "face", "ink_on", "map_spec", "map_style", "stack_face"]

COUNTER = 20.0
"""A stack's edge in canvas units: three stacks side by side fit a territory 75 units wide."""
SYMBOLS = {
    "infantry": "infantry",
    "mech_infantry": "mechanized",
    "tank": "armor",
    "tiger_tank": "armor",
    "lend_lease_sherman": "armor",
    "artillery": "artillery",
    "anti_tank_gun": "anti_tank",
    "aaa": "air_defense",
    "scout_car": "recon",
    "truck": "truck",
    "fighter": "fighter",
    "bomber": "bomber",
    "battleship": "battleship",
    "destroyer": "destroyer",
    "submarine": "submarine",
}
"""NATO symbols of the pieces (Game Piece Directory, pp.36-37)."""
TERRAIN = {
    "sea": "#a9c8dc",
    "convoy": "#8fb7d3",
    "land": "#efe3bf",
    "mat": "#e9dcc0",
    "sahara": "#f3d9a0",
    "impassable": "#b7a88c",
    "neutral": "#d8d4c8",
}
NAMES = {
    "sea": "Sea zone",
    "convoy": "Convoy zone",
    "land": "Territory",
    "mat": "Morocco, Algeria, Tunisia",
    "sahara": "Sahara Desert (scout cars only)",
    "impassable": "Impassable",
    "neutral": "Neutral land (no space)",
    "coast_road": "Coast road",
    "white_line": "White line",
    "strait": "Strait (Axis sea units only)",
    "capital": "Regional capital",
}
STROKES = {
    "coast_road": Stroke(color="#c0302a", width=2.6),
    "white_line": Stroke(color="#d2d2d2", width=3.5),
    "strait": Stroke(color="#1c1c1c", width=3, dash="3,2"),
    "capital": Stroke(color="#d4a017", width=2.5),
}
HALO = "#fbf7ea"
LABEL_SIZE = 8.0
CONVOY_SIZE = 6.5
HOME = "home_"
"""Terrain keys of the spaces printed with a power's emblem: ``home_`` and the power's id."""


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (``#rrggbb``)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 299 * r + 587 * g + 114 * b > 140_000 else "#ffffff"


def _tint(colour: str, share: float) -> str:
    """``colour`` mixed with white: ``share`` of the colour, the rest white."""
    parts = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - p) * share):02x}" for p in parts)


def map_style(pack: AxisAlliesPack) -> MapStyle:
    """Colours by power (counters, control and the territories their emblem marks), terrain and line kinds."""
    sides = {
        power.id: SideStyle(name=power.name, fill=power.color, ink=ink_on(power.color), control=power.color)
        for power in pack.powers
    }
    homes = {f"{HOME}{p.id}": _tint(p.color, 0.35) for p in pack.powers}
    names = NAMES | {f"{HOME}{p.id}": f"{p.name} (printed emblem)" for p in pack.powers}
    return MapStyle(
        terrain=TERRAIN | homes,
        sides=sides,
        strokes=STROKES,
        counter=COUNTER,
        label_size=LABEL_SIZE,
        label_color="#2f2818",
        label_halo=HALO,
        region_stroke="#7c6c4c",
        names=names,
        control_tint=0.2,
    )


def map_spec(pack: AxisAlliesPack) -> MapSpec:
    """The board: sea zones and territories from their outlines, the coast road, the white line, capitals, the
    Strait of Messina, convoy routes and RP values."""
    width = float(pack.canvas.width)
    powers: dict[str, str] = {p.id: p.name for p in pack.powers}
    regions = [_zone(zone, width) for zone in pack.sea_zones] + [_territory(t, width, powers) for t in pack.territories]
    land = {t.id: t for t in pack.territories}
    sea = {z.id for z in pack.sea_zones}
    coast_road = [
        Path(kind="coast_road", through=(e.a, e.b))
        for e in pack.edges
        if e.type == "land" and land[e.a].coast_road and land[e.b].coast_road
    ]
    white_line = [
        Edge(a=e.a, b=e.b, kind="white_line") for e in pack.edges if e.type == "land" and land[e.a].mat != land[e.b].mat
    ]
    straits = [Edge(a=e.a, b=e.b, kind="strait") for e in pack.edges if e.type == "strait" and {e.a, e.b} <= sea]
    capitals = [
        Polyline(kind="capital", points=_inset(t.geometry.polygon, 3)) for t in pack.territories if t.capital_of
    ]
    return MapSpec(
        width=pack.canvas.width,
        height=pack.canvas.height,
        regions=tuple(regions),
        edges=(*white_line, *straits),
        paths=tuple(coast_road),
        lines=tuple(capitals),
        shapes=tuple(Shape(terrain="neutral", polygon=_points(d.polygon)) for d in pack.decorations),
        labels=(*_convoy_labels(pack), *_decoration_labels(pack)),
        background="sea",
    )


def _points(polygon: tuple[tuple[int, int], ...]) -> tuple[Point, ...]:
    return tuple((float(x), float(y)) for x, y in polygon)


def _anchor(position: tuple[int, int], text: str, size: float, width: float) -> Point:
    """A label's anchor, moved in from the canvas's edges so the whole text shows (the renderer's width estimate:
    0.56 of the type size a character)."""
    half = len(text) * size * 0.56 / 2 + 2
    return (min(max(float(position[0]), half), width - half), float(position[1]))


def _territory(t: Territory, width: float, powers: Mapping[str, str]) -> Region:
    if t.permanent_owner is not None:
        terrain = f"{HOME}{t.permanent_owner}"
    elif t.impassable:
        terrain = "impassable"
    elif t.sahara:
        terrain = "sahara"
    else:
        terrain = "mat" if t.mat else "land"
    facts = [f"{t.rp} RP" if t.rp is not None else "", "coast road" if t.coast_road else "",
             f"capital of the {t.capital_of.title()}" if t.capital_of else "",
             f"staging territory of {', '.join(powers[p] for p in t.staging_for)}" if t.staging_for else "",
             f"stacking {t.stacking_limit}"]  # fmt: skip
    label = t.label if t.rp is None else f"{t.label} {t.rp}"
    return Region(
        id=t.id,
        name=f"{t.name} ({', '.join(f for f in facts if f)})",
        label=label,
        terrain=terrain,
        center=_anchor(t.geometry.position, label, LABEL_SIZE, width),
        polygon=_points(t.geometry.polygon),
    )


def _zone(zone: SeaZone, width: float) -> Region:
    about = ", ".join(
        fact
        for fact in (
            f"{zone.convoy.route} convoy" if zone.convoy is not None else "",
            "naval base" if zone.naval_base else "",
        )
        if fact
    )
    return Region(
        id=zone.id,
        name=f"{zone.name}{f' ({about})' if about else ''}",
        label=zone.label,
        terrain="convoy" if zone.convoy is not None else "sea",
        center=_anchor(zone.geometry.position, zone.label, LABEL_SIZE, width),
        polygon=_points(zone.geometry.polygon),
    )


def _inset(polygon: tuple[tuple[int, int], ...], by: float) -> tuple[Point, ...]:
    """A closed outline ``by`` units inside a polygon's corners, towards its corners' mean (a capital's ring)."""
    cx = sum(x for x, _ in polygon) / len(polygon)
    cy = sum(y for _, y in polygon) / len(polygon)
    points = [(x + by * ((cx > x) - (cx < x)), y + by * ((cy > y) - (cy < y))) for x, y in polygon]
    return (*points, points[0])


def _convoy_labels(pack: AxisAlliesPack) -> list[Label]:
    """Each convoy zone's route (``Malta convoy``) under its number, with the powers whose emblem it prints."""
    labels = []
    for zone in pack.sea_zones:
        if zone.convoy is None or zone.number is None:
            continue
        text = f"{zone.convoy.route} convoy"
        x, y = _anchor(zone.geometry.position, text, CONVOY_SIZE, pack.canvas.width)
        labels.append(Label(text=text, at=(x, y + 9), size=CONVOY_SIZE, italic=True, halo=HALO))
    return labels


def _decoration_labels(pack: AxisAlliesPack) -> list[Label]:
    """The neutral lands' names in their middle, faint."""
    labels = []
    for land in pack.decorations:
        xs = [x for x, _ in land.polygon]
        ys = [y for _, y in land.polygon]
        at = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
        labels.append(Label(text=land.name, at=at, size=9, italic=True, color="#7a7466"))
    return labels


# --- pieces ----------------------------------------------------------------------------------------------------


def stack_face(pack: AxisAlliesPack, power: str, unit_type: str, count: int) -> CounterFace:
    """``count`` interchangeable pieces of ``power``'s ``unit_type`` in one space: a counted stack in the power's
    colour with the piece's NATO symbol and its chart's attack/defense/move (``-`` where the chart prints none).

    Raises:
        KeyError: the power has no such unit type.
    """
    row = pack.unit(power, unit_type)
    values = "/".join("-" if v is None else str(v) for v in (row.attack, row.defense, row.move))
    return CounterFace(side=power, title=row.name, symbol=SYMBOLS.get(unit_type), value=values, count=count)


def face(pack: AxisAlliesPack, unit: UnitView) -> CounterFace:
    """The stack of a view's entry: ``unit.extra["power"]`` owns it, ``unit.kind`` is the unit type and
    ``unit.extra["count"]`` (else ``unit.steps``, else 1) the number of pieces."""
    power = str(unit.extra.get("power", unit.side))
    count = unit.extra.get("count", unit.steps)
    number = count if isinstance(count, int) else 1
    try:
        return stack_face(pack, power, unit.kind, number)
    except KeyError:
        return CounterFace(side=power, title=unit.name, count=number)
