"""The map and the counters as fast lookups, and the map predicates of the rules (3, 7, 9, 14, 15).

A :class:`Board` is built once from a data pack; every predicate takes the game state explicitly, so the
rules never keep state of their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from pbem.games.battleaxe.data import BattleaxePack, DieResultRow, Location, ReleaseRow, RollRow, Unit
from pbem.kit import graph

__all__ = ["ALLIED", "AXIS", "Board", "Side", "enemy"]

Side = Literal["allied", "axis"]
ALLIED: Side = "allied"
AXIS: Side = "axis"


def enemy(side: Side) -> Side:
    return AXIS if side == ALLIED else ALLIED


@dataclass(frozen=True)
class Piece:
    """Where a unit is and which side is up: ``location`` None means eliminated."""

    location: str | None
    full: bool


class Board:
    """Indexed map and counters of one data pack."""

    def __init__(self, pack: BattleaxePack):
        self.pack = pack
        self.locations: dict[str, Location] = {loc.id: loc for loc in pack.locations}
        self.units: dict[str, Unit] = {unit.id: unit for unit in pack.units}
        self.unit_order = {unit.id: n for n, unit in enumerate(pack.units)}  # a state lists its units in this order
        self.sides: dict[str, Side] = {unit.id: ALLIED if unit.side == "allied" else AXIS for unit in pack.units}
        self.zones = frozenset(loc.id for loc in pack.locations if loc.kind == "zone")
        passable: dict[str, set[str]] = {loc: set() for loc in self.locations}
        escarpment: dict[str, set[str]] = {loc: set() for loc in self.locations}
        for edge in pack.boundaries:
            table = passable if edge.passable else escarpment
            table[edge.a].add(edge.b)
            table[edge.b].add(edge.a)
        order = {loc.id: n for n, loc in enumerate(pack.locations)}
        self.order = order
        self.adjacent: dict[str, tuple[str, ...]] = {
            k: tuple(sorted(v, key=order.__getitem__)) for k, v in passable.items()
        }
        self.escarpment: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in escarpment.items()}
        self.graph = graph.LocationGraph.build(
            [graph.NodeRecord(id=loc.id, kind=loc.kind) for loc in pack.locations],
            [graph.EdgeRecord(a=edge.a, b=edge.b, type=edge.type) for edge in pack.boundaries],
        )
        # the pack's values, read once here instead of a scan of their table per action
        self.limits: dict[str, int] = {row.id: row.value for row in pack.tables.limits}
        self.roles: dict[str, tuple[str, ...]] = {row.id: row.locations for row in pack.tables.location_roles}
        self.rolls: dict[str, RollRow] = {row.id: row for row in pack.tables.rolls}
        self.die_results: dict[str, DieResultRow] = {row.id: row for row in pack.tables.die_results}
        self.impulse_track = pack.impulse_track_length
        self.stacking = self.limits["stacking_limit"]
        self.costs = {row.id: row for row in pack.tables.movement_costs}
        self.attrition = {row.id: row.ap for row in pack.tables.attrition_points}
        self.attack_mods = {row.id: row for row in pack.tables.attack_modifiers}
        self.defense_mods = {row.id: row for row in pack.tables.defense_modifiers}
        self.die_mods = {row.id: row for row in pack.tables.die_modifiers}
        self.turns = pack.tables.turns
        self.standard_turns = sum(1 for turn in self.turns if not turn.extended_only)  # 6.0; 20.1 adds the rest
        self.first_player: Side = ALLIED if pack.setting("first_player") == "allied" else AXIS  # 6.2
        self.vp_trace_targets = self.roles["vp_trace_targets"]
        self.releases = {row.formation: row for row in pack.tables.releases}
        self.sources: dict[Side, tuple[str, ...]] = {
            side: tuple(loc.id for loc in pack.locations if loc.supply_source == side) for side in (ALLIED, AXIS)
        }

    # --- the counters ------------------------------------------------------------------------------
    def side_of(self, unit: str) -> Side:
        return self.sides[unit]

    def restriction(self, unit: str, released: tuple[str, ...]) -> ReleaseRow | None:
        """The release (16.1, 16.2) that still holds ``unit`` back, if its division is not yet released."""
        for formation in self.units[unit].formation:
            row = self.releases.get(formation)
            if row is not None and formation not in released:
                return row
        return None

    def is_german(self, unit: str) -> bool:
        return self.units[unit].nationality == "german"

    def kind(self, unit: str) -> str:
        return self.units[unit].type

    def is_anti_tank(self, unit: str) -> bool:
        return self.units[unit].type == "anti_tank"

    def cv(self, unit: str, full: bool) -> int:
        steps = self.units[unit].cv
        return steps.full if full else steps.reduced

    def mf(self, unit: str, full: bool) -> int:
        steps = self.units[unit].mf
        return steps.full if full else steps.reduced

    # --- the map -----------------------------------------------------------------------------------
    def label(self, unit: str) -> str:
        """A unit's name, as reports and prompts show it."""
        return self.units[unit].name

    def place(self, location: str) -> str:
        """``Zone A (…)`` or ``Area 7 (Halfaya Pass)``; an unknown id as it is."""
        loc = self.locations.get(location)
        if loc is None:
            return location
        return f"{'Zone ' if loc.kind == 'zone' else 'Area '}{loc.id} ({loc.name})"

    def is_zone(self, location: str) -> bool:
        return location in self.zones

    def name(self, location: str) -> str:
        return self.locations[location].name

    def linked(self, a: str, b: str) -> bool:
        """Whether units could move directly between ``a`` and ``b`` (3.1, 9.3.2, 9.3.3)."""
        return b in self.adjacent[a]

    def full_for(self, location: str, count: int) -> bool:
        """Whether ``count`` friendly units fill ``location`` (7.1; Zones never fill, 15.2)."""
        return location not in self.zones and count >= self.stacking

    @cached_property
    def vp_areas(self) -> dict[str, int]:
        return {loc.id: loc.vp for loc in self.pack.locations if loc.vp}

    def supply_sources(self, side: Side) -> tuple[str, ...]:
        return self.sources[side]


def occupants(pieces: Mapping[str, Piece], board: Board) -> dict[str, dict[Side, list[str]]]:
    """Units by location and side (eliminated units left out), in counter order."""
    found: dict[str, dict[Side, list[str]]] = {}
    for unit, piece in pieces.items():
        if piece.location is not None:
            found.setdefault(piece.location, {ALLIED: [], AXIS: []})[board.side_of(unit)].append(unit)
    return found


def supplied(board: Board, control: Mapping[str, Side], side: Side, targets: Iterable[str]) -> frozenset[str]:
    """Every location from which ``side`` can trace a supply line to one of ``targets`` that it controls (14.2.1):
    one search of the kit's :func:`pbem.kit.graph.trace` from those targets.

    A line never enters an enemy-controlled location (vacant or not) nor crosses an escarpment, and may pass
    through friendly-controlled contested ones. RULING (notes A50): the location a line starts from is exempt
    from the enemy-control test, else the Axis siege of Allied Tobruk would be cut off from the first evening;
    so an enemy-controlled location next to a friendly line traces too (it ends the line, nothing passes it).
    """
    return frozenset(
        graph.trace(
            board.graph,
            [t for t in targets if control[t] == side],
            enter=lambda n: control[n] == side,
            end=lambda n: True,
            cross=lambda e: e.type != "escarpment",
        )
    )


def trace(
    board: Board,
    control: Mapping[str, Side],
    side: Side,
    start: str,
    targets: Iterable[str],
) -> bool:
    """Whether ``side`` can trace a supply line from ``start`` to one of ``targets`` that it controls (14.2.1,
    ruling A50; see :func:`supplied`)."""
    return start in supplied(board, control, side, targets)
