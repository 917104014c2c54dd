"""How *Rommel in the Desert* looks in reports and play: the hex map from the pack (land hexes, rough hexsides,
roads, named places), blocks drawn as blocks (concealed for a viewer who may not see them, face up with their CV
for one who may), and prompt labels that name places and blocks without revealing hidden identities."""

from __future__ import annotations

from typing import ClassVar, Literal

from pbem.games.rommel.schema import RommelPack
from pbem.rules.contract import UnitView
from pbem.rules.maps import Edge, HexGrid, Label, MapSpec, Path, Region
from pbem.rules.presentation import CounterFace, MapStyle, Presentation, SideStyle, Stroke

__all__ = ["RommelLook", "hex_label", "token_label"]

STYLE = MapStyle(
    terrain={"desert": "#f1e3bd", "mountain": "#c9b38a", "depression": "#e2d3a8", "paper": "#f7f1e1"},
    sides={
        "axis": SideStyle(name="Axis", fill="#9aa3a8", ink="#111111", control="#1c1c1c"),
        "allied": SideStyle(name="Allied", fill="#d8c08a", ink="#1f1a10", control="#b3261e"),
    },
    strokes={
        "ridge": Stroke(color="#7a4b1e", width=5),
        "gap": Stroke(color="#c08a4a", width=5, dash="4,4"),
        "marsh": Stroke(color="#6f8f6a", width=5),
        "mountain": Stroke(color="#5b4025", width=6),
        "highway": Stroke(color="#8a2a1a", width=4),
        "track": Stroke(color="#8a6d3b", width=2.5, dash="7,3"),
        "trail": Stroke(color="#8a6d3b", width=1.5, dash="2,3"),
    },
    counter=26,
    label_size=7,
)


def _hex_grid(pack: RommelPack) -> HexGrid:
    """The renderer's grid with the pack's topology (its stagger counts from the first printed line)."""
    grid = pack.map.grid
    base = dict(
        columns=grid.cols[1] - grid.cols[0] + 1,
        rows=grid.rows[1] - grid.rows[0] + 1,
        size=float(grid.hex_size),
        orientation=grid.orientation,
        first=grid.cols[0],
        first_row=grid.rows[0],
        origin=(float(grid.margin), float(grid.margin)),
    )
    staggers: tuple[Literal["odd", "even"], ...] = ("odd", "even")
    for stagger in staggers:
        candidate = HexGrid(stagger=stagger, **base)
        if candidate.layout.stagger == grid.stagger:
            return candidate
    raise ValueError("no renderer stagger matches the pack's grid")


def hex_label(pack: RommelPack, hex_id: str) -> str:
    """``1506 (Sidi Omar)``: a hex with the places in it."""
    names = [p.name for p in pack.map.places if p.hex == hex_id]
    return f"{hex_id} ({', '.join(names)})" if names else hex_id


def token_label(side: str, token: str, hex_id: str | None, pack: RommelPack) -> str:
    """A block as everybody may name it: its side, number and hex (never its hidden identity)."""
    where = f" at {hex_label(pack, hex_id)}" if hex_id else ""
    return f"{side.title()} block {token.rsplit('-', 1)[-1]}{where}"


class RommelLook(Presentation):
    """The map and the blocks."""

    style: ClassVar[MapStyle] = STYLE

    def map_spec(self) -> MapSpec:
        pack: RommelPack = self.data
        grid = _hex_grid(pack)
        land = {h.id: h for h in pack.map.hexes}
        regions = []
        for hex_id, record in sorted(land.items()):
            col, row = pack.map.grid.parse(hex_id)
            regions.append(
                Region(
                    id=hex_id,
                    name=hex_label(pack, hex_id),
                    label=hex_id,
                    terrain=record.terrain,
                    center=grid.center(col, row),
                    polygon=grid.corners(col, row),
                )
            )
        edges = tuple(Edge(a=s.a, b=s.b, kind=s.terrain) for s in pack.map.hexsides if s.terrain != "clear")
        paths = tuple(Path(kind=road.kind, through=road.hexes) for road in pack.map.roads)
        labels = []
        for place in pack.map.places:
            if place.kind != "town":
                col, row = pack.map.grid.parse(place.hex)
                x, y = grid.center(col, row)
                labels.append(Label(text=place.name, at=(x, y - grid.size * 0.55), size=8))
        width = max(x for r in regions for x, _ in r.polygon) + pack.map.grid.margin
        height = max(y for r in regions for _, y in r.polygon) + pack.map.grid.margin
        return MapSpec(
            width=width,
            height=height,
            regions=tuple(regions),
            edges=edges,
            paths=paths,
            labels=tuple(labels),
            background="paper",
        )

    def face(self, unit: UnitView) -> CounterFace:
        marks = ("disrupted",) if unit.extra.get("disrupted") else ()
        if unit.hidden:
            return CounterFace(side=unit.side, shape="block", concealed=True, marks=marks)
        value = "" if unit.strength is None else str(unit.strength)
        return CounterFace(side=unit.side, shape="block", title=unit.name, value=value, marks=marks)
