"""How Gazala looks in reports and replays: the hex map from the pack (terrain, Minefields and Boxes, Ridges, Wadis,
the sea, roads and trails), NATO counters with their values and formation colours, and the markers (Improved
Defence, Breached Minefields, Supply Blocked, the active formation).
"""

from __future__ import annotations

from typing import ClassVar

from pbem.games.gazala.data import GazalaPack
from pbem.rules.contract import UnitView, View
from pbem.rules.maps import Edge, HexGrid, Label, MapSpec, Path, hex_regions
from pbem.rules.presentation import CounterFace, MapStyle, Marker, Presentation, SideStyle, Stroke

__all__ = ["GazalaLook", "grid_of"]

SYMBOLS = {
    "infantry": "infantry",
    "engineer": "infantry",
    "mot_infantry": "motorized",
    "panzergrenadier": "mechanized",
    "recce": "recon",
    "armoured_car": "recon",
    "flak88": "anti_tank",
    "hq": "hq",
}
"""NATO symbols by unit type (every tank type is ``armor``)."""


def grid_of(pack: GazalaPack) -> HexGrid:
    """The renderer's grid for the pack's map: its printed columns and rows (rows from 00), flat tops, and the
    renderer's stagger counted from the first column so that its topology is the kit's (``HexGrid.layout``)."""
    first_col, last_col = pack.map.cols
    first_row, last_row = pack.map.rows
    odd_from_zero = pack.map.stagger == "odd"
    shifted_first = (first_col % 2 == 1) == odd_from_zero  # is the first printed column a shifted one?
    return HexGrid(
        columns=last_col - first_col + 1,
        rows=last_row - first_row + 1,
        size=18,
        orientation=pack.map.orientation,
        stagger="odd" if not shifted_first else "even",
        first=first_col,
        first_row=first_row,
        origin=(10.0, 30.0),
    )


class GazalaLook(Presentation):
    style: ClassVar[MapStyle] = MapStyle(
        terrain={
            "clear": "#eadfbf",
            "broken": "#d6c39a",
            "village": "#d9cbb3",
            "poi": "#e2d3a8",
            "hill": "#c9ad7d",
            "tobruk": "#d8cfc4",
            "minefield": "#e3b7a8",
            "box": "#cf9c8c",
            "breached": "#ddd0b8",
            "sea": "#9cc3dd",
        },
        sides={
            "axis": SideStyle(name="Axis", fill="#8c8c6a", ink="#ffffff", control="#6b6b4a"),
            "cw": SideStyle(name="Commonwealth", fill="#c9a66b", ink="#222222", control="#a0783c"),
        },
        strokes={
            "ridge": Stroke(color="#7a5a30", width=4),
            "wadi": Stroke(color="#6a8a4a", width=4, dash="5,3"),
            "sea": Stroke(color="#3d7fb5", width=5),
            "road": Stroke(color="#5a4630", width=3),
            "trail": Stroke(color="#8a6d3b", width=2, dash="6,3"),
        },
        counter=16,
        label_size=5,
        names={"poi": "Point of interest", "box": "Box (minefield)"},
    )

    def map_spec(self) -> MapSpec:
        pack: GazalaPack = self.data
        grid = grid_of(pack)
        terrain = {r.id: r.terrain or pack.map.terrain for r in pack.map.hexes}
        for mine in pack.minefields:
            terrain[mine.hex] = "box" if mine.box is not None else "minefield"
        names = {r.id: f"{r.id} {', '.join(r.names)}" for r in pack.map.hexes if r.names}
        edges = tuple(
            Edge(a=side.a, b=side.b, kind=kind)
            for side in pack.map.hexsides
            for kind in ("ridge", "wadi", "sea")
            if kind in side.features
        )
        paths = tuple(Path(kind=route.kind, through=route.hexes) for route in pack.routes)
        width, height = grid.extent()
        missing = set(pack.map.missing)
        return MapSpec(
            width=width + 10,
            height=height + 10,
            regions=tuple(r for r in hex_regions(grid, terrain, names) if r.id not in missing),
            background="sea",
            edges=edges,
            paths=paths,
            labels=(Label(text="Gazala 1942", at=(width / 2, 20), size=16, italic=True),),
        )

    def face(self, unit: UnitView) -> CounterFace:
        pack: GazalaPack = self.data
        colour = None
        formation = unit.extra.get("formation")
        if isinstance(formation, str):
            colour = next((f.colour for f in pack.formations if f.id == formation), None)
        if unit.kind == "hq":
            marks = ("ES",) if unit.extra.get("emergency_supply") else ()
            return CounterFace(
                side=unit.side, title=unit.name, symbol="hq", value=str(unit.strength), marks=marks, fill=colour
            )
        record = next((u for u in pack.units if u.id == unit.id), None)
        disrupted = bool(unit.extra.get("disrupted"))
        value = str(unit.strength or "")
        if record is not None:
            eff = record.eff.disrupted if disrupted else record.eff.front
            armour = record.armour_points.disrupted if disrupted else record.armour_points.front
            ma = "d" if disrupted else str(record.ma)
            value = f"{unit.strength}-{eff}-{armour}{'T' if record.armour == 'tp' else 'A'}-{ma}"
        symbol = SYMBOLS.get(unit.kind, "armor")
        return CounterFace(side=unit.side, title=unit.name, symbol=symbol, value=value, reduced=disrupted, fill=colour)

    def markers(self, view: View) -> tuple[Marker, ...]:
        found: list[Marker] = []
        for hex_id in view.facts.get("improved", ()):
            found.append(Marker(location=hex_id, text="Improved Defence"))
        for hex_id in view.facts.get("breached", ()):
            found.append(Marker(location=hex_id, text="Breached"))
        for hex_id in view.facts.get("blocked", ()):
            found.append(Marker(location=hex_id, text="Supply Blocked"))
        return tuple(found)

    def stage(self, view: View) -> str:
        phase = view.facts.get("phase")
        return {"ops": "Ops Phase", "activation": "Ops Phase", "admin": "Admin Phase"}.get(str(phase), "")

    def period_title(self, period: str) -> str:
        return period.replace("turn-", "Game Turn ") if period.startswith("turn-") else super().period_title(period)

    def scores(self, view: View) -> dict[str, int]:
        vp = view.facts.get("axis_vp")
        return {"Axis VP": vp} if isinstance(vp, int) else {}

    def status(self, view: View) -> list[tuple[str, str]]:
        levels = view.facts.get("levels", {})
        if not isinstance(levels, dict):
            return []
        return [("Activation levels", ", ".join(f"{f} {n}" for f, n in sorted(levels.items())))]
