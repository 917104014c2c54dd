"""How Operation Battleaxe looks in reports: the area map from the data pack, counters in the colours of
their armies, and the facts a turn ends on (victory points, supply, the Advantage)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pbem.games.battleaxe.board import ALLIED, AXIS
from pbem.games.battleaxe.data import BattleaxePack
from pbem.rules.contract import Event, UnitView, View
from pbem.rules.maps import Edge, Label, Link, MapSpec, Point, Polyline, Region, Shape
from pbem.rules.presentation import CombatOutcome, CounterFace, MapStyle, Marker, Presentation, SideStyle, Stroke

__all__ = ["BattleaxePresentation"]

# Counter colours after the usual conventions of desert games: khaki Commonwealth, field-grey German,
# grey-green Italian; control in the rulebook's letter colours (red Allied, black Axis, 14.2).
NATIONALITY_FILL = {
    "british": "#d9c48e",
    "indian": "#cfb47a",
    "australian": "#e3cf9c",
    "german": "#a9b3b8",
    "italian": "#a9bb8c",
}

STYLE = MapStyle(
    terrain={"sea": "#b9d3e0", "desert": "#f2e6c6", "clear": "#ead9ad", "stutzpunkt": "#d6b978", "zone": "#f6efdc"},
    sides={
        ALLIED: SideStyle(name="Allied", fill="#d9c48e", ink="#1f1a10", control="#b3261e"),
        AXIS: SideStyle(name="Axis", fill="#a9b3b8", ink="#111111", control="#1c1c1c"),
    },
    strokes={
        "escarpment": Stroke(color="#7a4b1e", width=5),
        "connection": Stroke(color="#6b5b3e", width=1.6, dash="5,4"),
        "wire": Stroke(color="#4a4a4a", width=1.4, dash="2,3"),
    },
    counter=36,
    label_size=13,
    arrows={ALLIED: Stroke(color="#b3261e", width=4), AXIS: Stroke(color="#1c1c1c", width=4)},
    names={
        "stutzpunkt": "Stützpunkt",
        "clear": "Clear Area",
        "zone": "Zone (off-map)",
        "connection": "Zone connection",
        "wire": "Frontier wire",
        "escarpment": "Escarpment",
    },
)

# 11.4.4: who came out on top of each result (Maximum Attack and Fanatical Defense both turn it into a Stalemate)
WINNER: dict[str, Literal["attack", "defense"] | None] = {
    "repulse": "defense",
    "stalemate": None,
    "success": "attack",
    "overrun": "attack",
}
TURNED = frozenset({"maximum_attack", "fanatical_defense"})


class BattleaxePresentation(Presentation):
    style = STYLE
    combat_followups = frozenset(
        {
            "maximum_attack",
            "fanatical_defense",
            "attrition_absorbed",
            "unit_reduced",
            "unit_eliminated",
            "retreated",
            "overrun",
        }
    )

    def __init__(self, data: BattleaxePack):
        super().__init__(data)
        self.pack = data

    def map_spec(self) -> MapSpec:
        pack = self.pack
        regions = tuple(
            Region(
                id=loc.id,
                name=f"{'Area' if loc.kind == 'area' else 'Zone'} {loc.id} ({loc.name})",
                label=loc.name,
                terrain=loc.terrain if loc.kind == "area" else "zone",
                center=loc.position if loc.kind == "area" else _near_top(loc.position, loc.polygon),
                polygon=loc.polygon,
            )
            for loc in pack.locations
        )
        boundaries = pack.boundaries
        return MapSpec(
            width=pack.canvas.width,
            height=pack.canvas.height,
            regions=regions,
            links=tuple(Link(a=b.a, b=b.b, kind="connection") for b in boundaries if b.type == "connection"),
            edges=tuple(Edge(a=b.a, b=b.b, kind="escarpment") for b in boundaries if b.type == "escarpment"),
            lines=(Polyline(kind="wire", points=pack.frontier_wire),),
            shapes=(Shape(terrain="sea", polygon=_sea(pack)),),
            labels=(Label(text="Mediterranean Sea", at=(760, 40), size=18, italic=True),),
            background="desert",
        )

    def face(self, unit: UnitView) -> CounterFace:
        star = "*" if unit.extra.get("anti_tank") else ""
        return CounterFace(
            side=unit.side,
            title=unit.name,
            symbol={"armor": "armor", "infantry": "infantry", "anti_tank": "anti_tank"}.get(unit.kind),
            value=f"{unit.strength}{star}-{unit.extra.get('mf', '')}",
            reduced=unit.steps == 1,
            marks=("OOS",) if unit.extra.get("out_of_supply") else (),
            fill=NATIONALITY_FILL.get(str(unit.extra.get("nationality"))),
        )

    def combat_outcome(self, data: Mapping[str, Any], followups: Sequence[Event]) -> CombatOutcome:
        result = str(data.get("result", ""))
        if any(e.kind in TURNED for e in followups):
            result = "stalemate"
        return CombatOutcome(result=result, winner=WINNER.get(result))

    def markers(self, view: View) -> tuple[Marker, ...]:
        """A Contested marker where units of both sides stand (7.3)."""
        sides: dict[str, set[str]] = {}
        for unit in view.units:
            if unit.location is not None:
                sides.setdefault(unit.location, set()).add(unit.side)
        return tuple(Marker(location=loc, text="Contested") for loc, found in sorted(sides.items()) if len(found) > 1)

    def stage(self, view: View) -> str:
        phase = view.facts.get("phase")
        if phase == "maneuvers":
            return f"Impulse {view.facts.get('impulse')}"
        return {"setup": "Set-up", "refit": "Refit Phase", "end": "End of Turn", "over": "End of the game"}.get(
            str(phase), str(phase)
        )

    def period_title(self, period: str) -> str:
        if period.startswith("turn-"):
            number = int(period.removeprefix("turn-"))
            turns = self.pack.tables.turns
            if 1 <= number <= len(turns):
                return f"Turn {number}: {turns[number - 1].label}"
        return super().period_title(period)

    def scores(self, view: View) -> dict[str, int]:
        vp = view.facts.get("vp")
        return {"Allied VP": vp} if isinstance(vp, int) else {}

    def status(self, view: View) -> list[tuple[str, str]]:
        facts = view.facts
        needed = facts.get("vp_needed")
        vp = f"{facts.get('vp')} Allied VP" + (f" ({needed} needed for an Operational Victory)" if needed else "")
        out_of_supply = [u.name for u in view.units if u.location and u.extra.get("out_of_supply")]
        control = facts.get("control", {})
        names = {loc.id: loc.name for loc in self.pack.locations}  # places by name, in the rulebook's order
        held = {
            s: [names.get(k, k) for k in sorted((k for k, v in control.items() if v == s), key=_location_order)]
            for s in (ALLIED, AXIS)
        }
        advantage = str(facts.get("advantage", "")).title() + (" (Rommel in play)" if facts.get("rommel") else "")
        return [
            ("Victory points", vp),
            ("Advantage", advantage),
            ("Axis fuel", "Fuel Shortage" if facts.get("fuel_low") else "normal"),
            ("Out of supply", ", ".join(out_of_supply) or "none"),
            ("Allied control", ", ".join(held[ALLIED]) or "none"),
            ("Axis control", ", ".join(held[AXIS]) or "none"),
        ]


def _near_top(position: Point, polygon: tuple[Point, ...]) -> Point:
    """A Zone's label and stack go near its top edge: Zones are off-map boxes holding many units."""
    top = min(y for _, y in polygon)
    return (position[0], min(position[1], top + STYLE.counter * 0.9))


def _location_order(location: str) -> tuple[int, str]:
    return (int(location), "") if location.isdigit() else (100, location)


def _sea(pack: BattleaxePack) -> tuple[Point, ...]:
    """The Mediterranean: everything north of the locations that touch it (the pack has no coastline)."""
    coastal = [loc.polygon for loc in pack.locations if loc.touches_sea]
    coast = []
    for x in sorted({x for polygon in coastal for x, _ in polygon}):
        tops = [y for polygon in coastal for y in _crossings(polygon, x)]
        coast.append((x, min(tops)))
    width = pack.canvas.width
    return ((0, 0), (width, 0), (width, coast[-1][1]), *reversed(coast), (0, coast[0][1]))


def _crossings(polygon: tuple[Point, ...], x: float) -> list[float]:
    """Where the vertical line at ``x`` meets the polygon's edges."""
    ys = []
    for (px, py), (qx, qy) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if px == qx == x:
            ys += [py, qy]
        elif min(px, qx) <= x <= max(px, qx) and px != qx:
            ys.append(py + (qy - py) * (x - px) / (qx - px))
    return ys
