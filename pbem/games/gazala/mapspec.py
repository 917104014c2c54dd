"""The *Operation Theseus: Gazala 1942* board and counters as the shared renderer draws them (:mod:`pbem.report.svg`).

Everything comes from the data pack: the hex grid and its sea hexes (``map.missing``), each hex's printed terrain
(§3.1.1), its names, the Minefields and Boxes (§3.1.3) with their owners, the Ridges and Wadis (§3.1.2) and their
names, the Roads and Trails (§3.1.1, §7.3.3), the supply sources (§3.1.5) and the Tobruk hexes. This module only
chooses how they look. Counters are NATO counters in their nationality's colour with their formation's stripe
(§3.2d) and their values (§3.2: combat strength, Effectiveness, Tank or Anti-Tank Points, Movement Allowance).

A game's :class:`~pbem.rules.presentation.Presentation` delegates its ``map_spec``, ``face`` and ``style`` to
:func:`map_spec`, :func:`face` and :func:`map_style` (as its docstring shows).

Example:
    >>> from pbem.games.gazala.data import default_pack_bytes, load_pack
    >>> pack = load_pack(default_pack_bytes())
    >>> next(r for r in map_spec(pack).regions if r.id == pack.place("Bir Hacheim")).label
    'Bir Hacheim'
"""

from __future__ import annotations

import math
from typing import Literal

from pbem.games.gazala.data import (
    INFANTRY_TYPES,
    RECCE_TYPES,
    TANK_TYPES,
    GazalaPack,
    Hq,
    Minefield,
    Route,
    SupplySource,
    Unit,
)
from pbem.rules.contract import UnitView
from pbem.rules.maps import Edge, HexGrid, Label, MapSpec, Path, Point, Polyline, Region, Shape
from pbem.rules.presentation import CounterFace, MapStyle, SideStyle, Stroke

__all__ = [
    "NATIONALITY_FILL",
    "face",
    "hex_grid",
    "hq_face",
    "map_spec",
    "map_style",
    "piece_name",
    "side_name",
    "unit_face",
]

HEX_SIZE = 16.0
"""Centre to corner, in map units: 52 columns make a map about 1,250 units wide."""
COUNTER = 17.0
"""A counter's edge: one fits a hex whole, a stack shrinks."""
SIDES = {
    "axis": SideStyle(name="Axis", fill="#b7b9a8", ink="#111111", control="#1c1c1c"),
    "cw": SideStyle(name="Commonwealth", fill="#d9c48e", ink="#1f1a10", control="#b3261e"),
}
NATIONALITY_FILL = {
    "german": "#b7b9a8",
    "italian": "#a9bb8c",
    "british": "#d9c48e",
    "indian": "#cfb47a",
    "south_african": "#e0cd95",
    "free_french": "#b9c4d6",
}
"""§3.2: nationality colour coding of the counters."""
PERMANENT_STRIPE = "#ffffff"
"""§3.2d: permanently independent units carry a white stripe."""
TERRAIN = {
    "offmap": "#efe9d8",
    "sea": "#b9d3e0",
    "clear": "#f2e6c6",
    "broken": "#dcc69a",
    "village": "#d1c2b0",
    "poi": "#efdcae",
    "hill": "#c4a472",
    "tobruk": "#cdbfae",
}
STROKES = {
    "ridge": Stroke(color="#7a4b1e", width=3.5),
    "wadi": Stroke(color="#3f7f8f", width=3, dash="4,2"),
    "sea_side": Stroke(color="#3d7fb5", width=3.5),
    "road": Stroke(color="#b3261e", width=2.4),
    "trail": Stroke(color="#7a5a30", width=1.2, dash="4,2"),
    "minefield-axis": Stroke(color="#333333", width=1.3, dash="1.5,1.5"),
    "minefield-cw": Stroke(color="#b3261e", width=1.3, dash="1.5,1.5"),
    "box": Stroke(color="#b3261e", width=2),
    "supply-axis": Stroke(color="#1c1c1c", width=2),
    "supply-cw": Stroke(color="#b3261e", width=2),
}
NAMES = {
    "offmap": "Off the map",
    "sea": "Sea",
    "clear": "Clear",
    "broken": "Broken",
    "village": "Village",
    "poi": "Point of interest",
    "hill": "Hill",
    "tobruk": "Tobruk",
    "ridge": "Ridge hexside",
    "wadi": "Wadi hexside",
    "sea_side": "Sea hexside (no crossing)",
    "road": "Road",
    "trail": "Trail",
    "minefield-axis": "Axis Minefield",
    "minefield-cw": "Commonwealth Minefield",
    "box": "Box (Commonwealth Minefield)",
    "supply-axis": "Axis supply source",
    "supply-cw": "Commonwealth supply source",
}
HALO = "#fbf6e8"
HEXSIDE_KINDS = {"ridge": "ridge", "wadi": "wadi", "sea": "sea_side"}
"""Hexside features drawn along the hexside, with their stroke (roads and trails go through the hexes instead; the
sea hexside's stroke has a key of its own, as the sea is also a fill)."""


def map_style(pack: GazalaPack) -> MapStyle:
    """Colours, strokes and counter size for the map of ``pack`` (its sides are the formations' sides)."""
    sides = {side: SIDES[side] for side in dict.fromkeys(f.side for f in pack.formations)}
    return MapStyle(
        terrain=TERRAIN,
        sides=sides,
        strokes=STROKES,
        counter=COUNTER,
        label_size=4.6,
        label_color="#4a3c24",
        label_halo=HALO,
        region_stroke="#c8b68e",
        names=NAMES,
    )


def hex_grid(pack: GazalaPack) -> HexGrid:
    """The renderer's grid for the pack's printed grid (columns from ``cols[0]``, rows from ``rows[0]``)."""
    data = pack.map
    staggers: tuple[Literal["odd", "even"], ...] = ("odd", "even")
    for stagger in staggers:
        candidate = HexGrid(
            columns=data.cols[1] - data.cols[0] + 1,
            rows=data.rows[1] - data.rows[0] + 1,
            size=HEX_SIZE,
            orientation=data.orientation,
            stagger=stagger,
            first=data.cols[0],
            first_row=data.rows[0],
            id_format=f"{{col:0{data.col_digits}d}}{{row:0{data.row_digits}d}}",
            origin=(10.0, 10.0),
        )
        if candidate.layout.stagger == data.stagger and candidate.layout.orientation == data.orientation:
            return candidate
    raise ValueError(f"no renderer grid has the pack's layout {data.orientation}/{data.stagger}")  # pragma: no cover


def _parse(pack: GazalaPack, hex_id: str) -> tuple[int, int]:
    return int(hex_id[: pack.map.col_digits]), int(hex_id[pack.map.col_digits :])


def map_spec(pack: GazalaPack) -> MapSpec:
    """The board: land hexes with their terrain and names, sea hexes, Minefields and Boxes, Ridges and Wadis,
    Roads and Trails, and the supply sources."""
    grid = hex_grid(pack)
    data = pack.map
    records = {r.id: r for r in data.hexes}
    boxes = {b.id: b.name for b in pack.boxes}
    mines = {m.hex: m for m in pack.minefields}
    sources: dict[str, list[SupplySource]] = {}
    for source in pack.supply_sources:
        sources.setdefault(source.hex, []).append(source)
    missing = set(data.missing)
    regions = []
    shapes = []
    id_labels = []
    for col in range(data.cols[0], data.cols[1] + 1):
        for row in range(data.rows[0], data.rows[1] + 1):
            hex_id = grid.hex_id(col, row)
            if hex_id in missing:
                shapes.append(Shape(terrain="sea", polygon=grid.corners(col, row)))
                continue
            record = records.get(hex_id)
            names = record.names if record is not None else ()
            terrain = (record.terrain if record is not None else None) or data.terrain
            mine = mines.get(hex_id)
            about = _hex_terrain(terrain, mine, boxes)
            about += [f"supply source: {source.name}" for source in sources.get(hex_id, ())]
            regions.append(
                Region(
                    id=hex_id,
                    name=f"{hex_id} {', '.join(names)} ({'; '.join(about)})".replace("  ", " "),
                    label=" / ".join(names) or hex_id,
                    terrain=terrain,
                    center=grid.center(col, row),
                    polygon=grid.corners(col, row),
                )
            )
            if names:
                x, y = grid.center(col, row)
                id_labels.append(Label(text=hex_id, at=(x, y + grid.size * 0.78), size=3.6))
    edges = [
        Edge(a=side.a, b=side.b, kind=stroke)
        for side in data.hexsides
        for feature, stroke in HEXSIDE_KINDS.items()
        if feature in side.features
    ]
    width, height = grid.extent()
    return MapSpec(
        width=width + 10,
        height=height + 10,
        regions=tuple(regions),
        shapes=tuple(shapes),
        edges=tuple(edges),
        paths=tuple(Path(kind=route.kind, through=route.hexes) for route in sorted(pack.routes, key=_route_rank)),
        lines=(*_minefields(pack, grid), *_supply(pack, grid)),
        labels=(*id_labels, *_escarpment_labels(pack, grid)),
        background="offmap",
    )


def _hex_terrain(terrain: str, mine: Minefield | None, boxes: dict[str, str]) -> list[str]:
    """What a hex is, the strongest feature first (§3.1.3: a Box hex is a Box, and always also a Minefield, of its
    owner; the printed terrain under it comes last)."""
    if mine is None:
        return [NAMES.get(terrain, terrain)]
    minefield = NAMES[f"minefield-{mine.owner}"]
    if mine.box is not None:
        return [boxes[mine.box], minefield, NAMES.get(terrain, terrain)]
    return [minefield, NAMES.get(terrain, terrain)]


def side_name(side: str) -> str:
    """A side as players read it (the map's key and the reports: ``Axis``, ``Commonwealth``)."""
    return SIDES[side].name if side in SIDES else side


def piece_name(pack: GazalaPack, ident: str) -> str:
    """A combat unit, HQ or formation by its printed name (an id the pack does not know stays as it is)."""
    found = pack.lookups.units.get(ident) or pack.lookups.hqs.get(ident) or pack.lookups.formations.get(ident)
    return found.name if found is not None else ident


def _route_rank(route: Route) -> int:
    """Trails first, so a road is drawn over a trail that runs along it."""
    return 1 if route.kind == "road" else 0


def _ring(centre: Point, radius: float, corners: int, turn: float) -> tuple[Point, ...]:
    """A closed polygon around ``centre`` (its first corner repeated at the end)."""
    cx, cy = centre
    points = [
        (
            cx + radius * math.cos(math.radians(turn + 360 * i / corners)),
            cy + radius * math.sin(math.radians(turn + 360 * i / corners)),
        )
        for i in range(corners)
    ]
    return (*points, points[0])


def _minefields(pack: GazalaPack, grid: HexGrid) -> list[Polyline]:
    """§3.1.3: a Minefield is a dotted hexagon inside its hex in its owner's colour; a Box a solid one."""
    turn = 0.0 if grid.orientation == "flat" else 30.0
    lines = []
    for mine in sorted(pack.minefields, key=lambda m: m.hex):
        centre = grid.center(*_parse(pack, mine.hex))
        kind = "box" if mine.box is not None else f"minefield-{mine.owner}"
        lines.append(Polyline(kind=kind, points=_ring(centre, grid.size * 0.78, 6, turn)))
    return lines


def _supply(pack: GazalaPack, grid: HexGrid) -> list[Polyline]:
    """§3.1.5: a supply source is a circle in its side's colour round the hex's centre."""
    return [
        Polyline(kind=f"supply-{s.side}", points=_ring(grid.center(*_parse(pack, s.hex)), grid.size * 0.55, 16, 0))
        for s in sorted(pack.supply_sources, key=lambda s: s.hex)
    ]


def _escarpment_labels(pack: GazalaPack, grid: HexGrid) -> list[Label]:
    """Each Ridge's and Wadi's name by the middle hexside of its run."""
    labels = []
    for escarpment in pack.escarpments:
        a, b = escarpment.hexsides[len(escarpment.hexsides) // 2].split("/")
        (ax, ay), (bx, by) = grid.center(*_parse(pack, a)), grid.center(*_parse(pack, b))
        labels.append(
            Label(
                text=escarpment.name,
                at=((ax + bx) / 2, (ay + by) / 2 + 2),
                size=5.5,
                italic=True,
                halo=HALO,
                color=STROKES[escarpment.kind].color,
            )
        )
    return labels


# --- counters ---------------------------------------------------------------------------------------------------


def _symbol(unit: Unit) -> str:
    """The NATO symbol of a unit's type (§3.2a)."""
    if unit.type in TANK_TYPES:
        return "armor"
    if unit.type in RECCE_TYPES:
        return "recon"
    if unit.type in INFANTRY_TYPES:
        if unit.type == "panzergrenadier":
            return "mechanized"
        return "motorized" if unit.movement == "motorised" else "infantry"
    return "anti_tank"


def unit_face(
    pack: GazalaPack, unit: Unit | str, *, strength: int | None = None, disrupted: bool = False
) -> CounterFace:
    """A combat unit's counter: nationality colour, formation stripe, NATO symbol and ``CS-Eff-TP/AT-MA`` values of
    the side it shows (§3.2; the Disrupted side, §5.6.3, has lower values and ``d`` for its MA).

    ``strength``: its current combat strength (the strength marker); None: the printed one.
    """
    record = pack.unit(unit) if isinstance(unit, str) else unit
    eff = record.eff.disrupted if disrupted else record.eff.front
    points = record.armour_points.disrupted if disrupted else record.armour_points.front
    ma = "d" if disrupted else str(record.ma)
    armour = "T" if record.armour == "tp" else "A"
    stripe = None
    if record.formation is not None:
        stripe = pack.formation(record.formation).colour
    elif record.independent == "permanent":
        stripe = PERMANENT_STRIPE
    return CounterFace(
        side=record.side,
        title=record.name,
        symbol=_symbol(record),
        value=f"{record.cs if strength is None else strength}-{eff}-{points}{armour}-{ma}",
        reduced=disrupted,
        fill=NATIONALITY_FILL[record.nationality],
        stripe=stripe,
    )


def hq_face(
    pack: GazalaPack,
    hq: Hq | str,
    *,
    emergency_supply_used: bool = False,
    support: int | None = None,
    level: int | None = None,
) -> CounterFace:
    """An HQ counter (§3.3): its current Attack Support Points (``support``; the printed ones by default), command
    range and MA; ``ES`` once its Emergency Supply is spent; its formation's Activation level (``level``: the
    Formation Activation marker, §3.5, §6.3.2) as a badge ``L3``."""
    record = pack.hq(hq) if isinstance(hq, str) else hq
    formation = pack.formation(record.formation)
    marks = (*(("ES",) if emergency_supply_used else ()), *((f"L{level}",) if level is not None else ()))
    return CounterFace(
        side=formation.side,
        title=record.name,
        symbol="hq",
        value=f"{record.support if support is None else support}-{record.command_range}-{record.ma}",
        marks=marks,
        fill=NATIONALITY_FILL[formation.nationality],
        stripe=formation.colour,
    )


def face(pack: GazalaPack, unit: UnitView) -> CounterFace:
    """The counter of a view's unit or HQ (by ``unit.id``): ``unit.strength`` is its current combat strength,
    ``unit.extra["disrupted"]`` its side shown, ``unit.extra["emergency_supply"]`` an HQ's spent Emergency Supply,
    ``unit.extra["level"]`` its formation's Activation level.
    A unit the pack does not know is drawn as a plain counter of its side."""
    try:
        return unit_face(pack, unit.id, strength=unit.strength, disrupted=bool(unit.extra.get("disrupted")))
    except KeyError:
        pass
    try:
        level = unit.extra.get("level")
        return hq_face(
            pack,
            unit.id,
            emergency_supply_used=bool(unit.extra.get("emergency_supply")),
            support=unit.strength,
            level=level if isinstance(level, int) else None,
        )
    except KeyError:
        return CounterFace(side=unit.side, title=unit.name, value="" if unit.strength is None else str(unit.strength))
