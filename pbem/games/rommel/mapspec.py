"""The *Rommel in the Desert* board and blocks as the shared renderer draws them (:mod:`pbem.report.svg`).

Everything comes from the data pack: the land hexes and their terrain, the rough hexsides (§1.4) and their named
passes, the roads (§1.5), the named places with their kinds and port capacities (§1.1, §13.3), the frontier
between the scenario areas Libya and Egypt (§18) and the two off-board boxes (§16.4 sidebar). This module only
chooses how they look. Blocks stand upright (§2): their owner sees type, designation and CV, the enemy sees a
blank block in its side's colour.

A game's :class:`~pbem.rules.presentation.Presentation` delegates its ``map_spec``, ``face`` and ``style`` to
:func:`map_spec`, :func:`face` and :func:`map_style` (as its docstring shows).

Example:
    >>> from pbem.games.rommel.data import default_pack_bytes, load_pack
    >>> pack = load_pack(default_pack_bytes())
    >>> spec = map_spec(pack)
    >>> next(r for r in spec.regions if r.id == "1203").terrain
    'fortress'
"""

from __future__ import annotations

import math
from typing import Literal

from pbem.games.rommel.schema import Block, Place, Road, RommelPack
from pbem.rules.contract import UnitView
from pbem.rules.maps import Edge, HexGrid, Label, MapSpec, Path, Point, Region
from pbem.rules.presentation import CounterFace, MapStyle, SideStyle, Stroke

__all__ = [
    "NATIONALITY_FILL",
    "block_face",
    "block_name",
    "concealed_face",
    "designation",
    "face",
    "hex_grid",
    "map_spec",
    "map_style",
]

SIDES = {
    # §2.1: the Axis blocks are grey, the Allied ones tan; control markers in the usual red and black
    "axis": SideStyle(name="Axis", fill="#a3a8ab", ink="#151515", control="#1c1c1c"),
    "allied": SideStyle(name="Allied", fill="#d9c48e", ink="#1f1a10", control="#b3261e"),
}
NATIONALITY_FILL = {
    "german": "#a3a8ab",
    "italian": "#aab592",
    "british": "#d9c48e",
    "australian": "#e3cf9c",
    "indian": "#cfb47a",
    "new_zealand": "#d2c9a0",
    "south_african": "#dcc27e",
    "free_french": "#c9c7b0",
    "polish": "#d6bd94",
}
"""A block's colour by nationality: shades of its side's colour (§2.1 tells nationalities apart by label)."""
SYMBOL_BY_TYPE = {"recon": "recon", "mech_inf": "mechanized", "mot_inf": "motorized", "para": "infantry"}
"""NATO symbols for unit types their arms class does not name well."""
SYMBOL_BY_CLASS = {"armor": "armor", "infantry": "infantry", "anti_tank": "anti_tank", "artillery": "artillery"}
PLACE_TERRAIN = {"base": "base", "fortress": "fortress", "oasis": "oasis"}
"""Places drawn as a terrain of their own (towns keep the hex's terrain and get only their name)."""

TERRAIN = {
    "sea": "#b9d3e0",
    "desert": "#f2e6c6",
    "mountain": "#c7ad80",
    "depression": "#ddd3a4",
    "fortress": "#d6b36e",
    "base": "#c9a0a0",
    "oasis": "#a9cf8f",
    "box": "#ffffff",
}
STROKES = {
    "mountain_side": Stroke(color="#5b3d1e", width=5),
    "ridge": Stroke(color="#8a5a28", width=4),
    "marsh": Stroke(color="#4f7f6a", width=4, dash="3,2"),
    "gap": Stroke(color="#c98f45", width=4, dash="2,3"),
    "frontier": Stroke(color="#6a2a6a", width=1.6, dash="6,3"),
    "highway": Stroke(color="#b3261e", width=3.2),
    "track": Stroke(color="#7a5a30", width=2, dash="6,3"),
    "trail": Stroke(color="#7a5a30", width=1.3, dash="2,3"),
}
NAMES = {
    "sea": "Sea",
    "desert": "Desert",
    "mountain": "Mountain",
    "mountain_side": "Mountain hexside",
    "depression": "Depression",
    "fortress": "Fortress (port)",
    "base": "Base",
    "oasis": "Oasis",
    "box": "Off-board box",
    "ridge": "Ridge hexside",
    "marsh": "Marsh hexside",
    "gap": "Gap (pass)",
    "highway": "Highway",
    "track": "Track",
    "trail": "Trail",
}
EDGE_KIND = {"mountain": "mountain_side"}
"""Hexside terrains whose name is also a hex terrain's get a stroke key of their own."""
GENERIC_LENGTH = 2
"""Unit names this short (``4``, ``SG``) name their block only with its division."""
COUNTER = 24.0
HALO = "#fbf6e8"
EXIT_SIZE = 8.0
"""The outline that keeps names legible over roads and hexsides."""
"""A block's edge in map units: two blocks side by side fit a hex 30 units from centre to corner."""


def map_style(pack: RommelPack) -> MapStyle:
    """Colours, strokes and block size for the map of ``pack`` (its sides are the blocks' sides)."""
    sides = {side: SIDES[side] for side in dict.fromkeys(b.side for b in pack.blocks)}
    return MapStyle(
        terrain=TERRAIN,
        sides=sides,
        strokes=STROKES,
        counter=COUNTER,
        label_size=6.5,
        label_color="#4a3c24",
        label_halo=HALO,
        region_stroke="#b8a47c",
        names=NAMES | {"frontier": f"{'-'.join(_country_names(pack))} frontier"},
    )


def _country_names(pack: RommelPack) -> list[str]:
    """The names of the scenario areas the hexes' countries are (§18: Libya, Egypt), in map order."""
    areas = {area.id: area.name for area in pack.map.areas}
    return [areas.get(region, region.title()) for region in dict.fromkeys(h.region for h in pack.map.hexes)]


def hex_grid(pack: RommelPack) -> HexGrid:
    """The renderer's grid for the pack's printed grid, one hex of room on either side for the off-board boxes."""
    grid = pack.map.grid
    width = math.sqrt(3) * grid.hex_size if grid.orientation == "pointy" else 1.5 * grid.hex_size
    staggers: tuple[Literal["odd", "even"], ...] = ("odd", "even")
    for stagger in staggers:
        candidate = HexGrid(
            columns=grid.cols[1] - grid.cols[0] + 1,
            rows=grid.rows[1] - grid.rows[0] + 1,
            size=float(grid.hex_size),
            orientation=grid.orientation,
            stagger=stagger,
            first=grid.cols[0],
            first_row=grid.rows[0],
            id_format=f"{{col:0{grid.col_digits}d}}{{row:0{grid.row_digits}d}}",
            origin=(grid.margin + width, float(grid.margin)),
        )
        if candidate.layout == grid.layout:  # the renderer counts its stagger from the first line, the pack by number
            return candidate
    raise ValueError(f"no renderer grid has the pack's layout {grid.layout}")  # pragma: no cover - both are tried


def map_spec(pack: RommelPack) -> MapSpec:
    """The board: land hexes over the sea, rough hexsides, the frontier, roads, places and the off-board boxes."""
    grid = hex_grid(pack)
    places: dict[str, list[Place]] = {}
    for place in pack.map.places:
        places.setdefault(place.hex, []).append(place)
    regions = []
    for record in pack.map.hexes:
        col, row = pack.map.grid.parse(record.id)
        here = places.get(record.id, [])
        terrain = next((PLACE_TERRAIN[p.kind] for p in here if p.kind in PLACE_TERRAIN), record.terrain)
        regions.append(
            Region(
                id=record.id,
                name=", ".join([record.id, *(_describe(p) for p in here)]),
                label=" / ".join(p.name for p in here) or record.id,
                terrain=terrain,
                center=grid.center(col, row),
                polygon=grid.corners(col, row),
            )
        )
    regions += _boxes(pack, grid)
    width, height = grid.extent()
    width += grid.origin[0] - pack.map.grid.margin  # the off-board box beyond the east edge
    edges = [
        Edge(a=s.a, b=s.b, kind=EDGE_KIND.get(s.terrain, s.terrain)) for s in pack.map.hexsides if s.terrain != "clear"
    ]
    edges += _frontier(pack)
    return MapSpec(
        width=width,
        height=height + grid.origin[1],
        regions=tuple(regions),
        edges=tuple(edges),
        paths=tuple(Path(kind=road.kind, through=road.hexes) for road in _by_rank(pack)),
        labels=(
            *_place_labels(pack, grid),
            *_pass_labels(pack, grid),
            *_area_labels(pack, grid),
            *_exits(pack, grid, width),
        ),
        background="sea",
    )


def _describe(place: Place) -> str:
    """A place as its tooltip reads: ``Tobruk (fortress, port Axis 2 / Allied 5)``."""
    kind = place.kind if place.side is None else f"{SIDES[place.side].name} {place.kind}"
    port = f", port Axis {place.port.axis} / Allied {place.port.allied}" if place.port is not None else ""
    return f"{place.name} ({kind}{port})"


def _by_rank(pack: RommelPack) -> list[Road]:
    """Roads, the lesser first, so a highway is drawn over the tracks that share its hexsides."""
    order = {"trail": 0, "track": 1, "highway": 2}
    return sorted(pack.map.roads, key=lambda road: order[road.kind])


def _frontier(pack: RommelPack) -> list[Edge]:
    """The hexsides between the scenario areas that split the map by country (§18: Libya and Egypt)."""
    country = {h.id: h.region for h in pack.map.hexes}
    out = []
    for a in sorted(country):
        for b in pack.map.grid.neighbours(a):
            if b in country and a < b and country[a] != country[b]:
                out.append(Edge(a=a, b=b, kind="frontier"))
    return out


def _centre(pack: RommelPack, grid: HexGrid, hex_id: str) -> Point:
    return grid.center(*pack.map.grid.parse(hex_id))


def _place_labels(pack: RommelPack, grid: HexGrid) -> list[Label]:
    """A named hex shows its place's name on top (its region label), so its id goes to the bottom edge."""
    labels = []
    for hex_id in sorted({place.hex for place in pack.map.places}):
        x, y = _centre(pack, grid, hex_id)
        labels.append(Label(text=hex_id, at=(x, y + grid.size * 0.8), size=5.5))
    return labels


def _pass_labels(pack: RommelPack, grid: HexGrid) -> list[Label]:
    """Named passes (Sollum, Halfaya…) beside the middle of their hexside."""
    labels = []
    for side in pack.map.hexsides:
        if side.name:
            (ax, ay), (bx, by) = _centre(pack, grid, side.a), _centre(pack, grid, side.b)
            labels.append(Label(text=side.name, at=((ax + bx) / 2, (ay + by) / 2 + 3), size=6, italic=True, halo=HALO))
    return labels


def _area_labels(pack: RommelPack, grid: HexGrid) -> list[Label]:
    """The country names (Libya, Egypt) large and faint, where the middle of their hexes is."""
    labels = []
    for region in dict.fromkeys(h.region for h in pack.map.hexes):
        area = next((a for a in pack.map.areas if a.id == region), None)
        if area is None:
            continue
        points = [_centre(pack, grid, h) for h in area.hexes]
        x = sum(p[0] for p in points) / len(points)
        y = max(p[1] for p in points) - grid.size * 0.6
        labels.append(Label(text=area.name.upper(), at=(x, y), size=20, italic=True, color="#9a8660", halo=HALO))
    return labels


def _exits(pack: RommelPack, grid: HexGrid, width: float) -> list[Label]:
    """§17.1: where each side exits the map to win, an arrow and its name beyond the middle of the edge hexes."""
    labels = []
    for exit_ in pack.map.exits:
        points = [_centre(pack, grid, h) for h in exit_.hexes]
        x = (min if exit_.edge == "west" else max)(p[0] for p in points)
        y = sum(p[1] for p in points) / len(points)
        name = SIDES[exit_.side].name
        text = f"\u25c0 {name} exit" if exit_.edge == "west" else f"{name} exit \u25b6"
        shift = grid.size * 1.6 * (-1 if exit_.edge == "west" else 1)
        labels.append(
            Label(text=text, at=(x + shift, y), size=8, bold=True, halo=HALO, color=SIDES[exit_.side].control)
        )
    return labels


def _boxes(pack: RommelPack, grid: HexGrid) -> list[Region]:
    """§16.4 sidebar: each off-board box one hex beyond its side's Base, drawn as a square box."""
    boxes = []
    for box in pack.map.offboard:
        base = pack.place(box.base)
        col, row = pack.map.grid.parse(pack.map.grid.step(base.hex, box.direction))
        cx, cy = grid.center(col, row)
        half = grid.size * 0.8
        name = f"{SIDES[box.side].name} off-board box"
        boxes.append(
            Region(
                id=box.id,
                name=f"{name} (beyond {base.name})",
                label=name.split(" ", 1)[0] + " box",
                terrain="box",
                center=(cx, cy),
                polygon=(
                    (cx - half, cy - half),
                    (cx + half, cy - half),
                    (cx + half, cy + half),
                    (cx - half, cy + half),
                ),
            )
        )
    return boxes


# --- blocks ----------------------------------------------------------------------------------------------------


def designation(block: Block) -> str:
    """The name on a block's label: its unit, with its division where the unit alone is a bare number or a generic
    short name (``2 NZ/4``, ``7 Armd/SG``): several brigades share the numbers 4, 5 and 6, as labels print the
    division above them (§2.1)."""
    bare = len(block.unit) <= GENERIC_LENGTH and (block.unit.isdigit() or block.unit.isupper())
    return f"{block.division}/{block.unit}" if bare and block.division else block.unit


def block_name(block: Block) -> str:
    """A block's name in texts and views: its unit with its division (``5 Pz (5 Le)``, ``5 (4 Ind)``), as the
    block's label prints the division over the unit (§2.1): the unit alone repeats across divisions."""
    return f"{block.unit} ({block.division})" if block.division and block.division != block.unit else block.unit


def block_face(pack: RommelPack, block: Block | str, *, cv: int, disrupted: bool = False) -> CounterFace:
    """A block standing upright as its owner sees it: unit symbol, designation and current CV (§2.1, §2.3).

    ``disrupted`` (§11) adds a ``D`` badge.
    """
    record = pack.block(block) if isinstance(block, str) else block
    unit_type = pack.unit_type(record.unit_type)
    return CounterFace(
        side=record.side,
        shape="block",
        title=designation(record),
        symbol=SYMBOL_BY_TYPE.get(unit_type.id, SYMBOL_BY_CLASS[unit_type.arms_class]),
        value=str(cv),
        marks=("D",) if disrupted else (),
        fill=NATIONALITY_FILL.get(record.nationality),
    )


def concealed_face(side: Literal["axis", "allied"] | str, *, disrupted: bool = False) -> CounterFace:
    """An enemy block: the blank back of a block in its side's colour (§2: blocks hide their identity).

    A Disrupted block's state is public (§11: it lies face down), so it keeps its ``D`` badge; the renderer draws
    no badge on a concealed face, so a Disrupted one is a blank block marked ``?`` instead of the inner square."""
    if disrupted:
        return CounterFace(side=side, shape="block", value="?", marks=("D",))
    return CounterFace(side=side, shape="block", concealed=True)


def face(pack: RommelPack, unit: UnitView) -> CounterFace:
    """The face of a view's unit: concealed when ``unit.hidden`` or its block is unknown, else the block upright.

    Reads the block id from ``unit.extra["block"]`` (a view that names blocks by public tokens puts the identity
    there when the viewer may see it) or else ``unit.id``, ``unit.strength`` (its CV) and
    ``unit.extra["disrupted"]``.
    """
    disrupted = bool(unit.extra.get("disrupted"))
    if unit.hidden or unit.strength is None:
        return concealed_face(unit.side, disrupted=disrupted)
    block = unit.extra.get("block")
    try:
        record = pack.block(block if isinstance(block, str) else unit.id)
    except KeyError:
        return concealed_face(unit.side, disrupted=disrupted)
    return block_face(pack, record, cv=unit.strength, disrupted=disrupted)
