"""A position of *Axis & Allies: North Africa* as the economy, supply and movement rules read it.

Pieces are interchangeable, so a space holds counts per (power, unit type), never named units (issue 14). The
position also holds territory control, supply points per space and convoy cargo; the rules modules
(:mod:`.economy`, :mod:`.supply`, :mod:`.movement`) are pure functions of the pack and a position.

The rulebook's pages serve as sections (see :mod:`.data`): ``p.10`` defines friendly, hostile and neutral
territories, ``p.11`` friendly and hostile sea zones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from pbem.games.axisallies.data import AxisAlliesPack, Scenario, UnitType
from pbem.kit.graph import LocationGraph

__all__ = [
    "Position",
    "Status",
    "combat_units",
    "controller",
    "enemy",
    "graph_of",
    "initial_position",
    "sea_status",
    "side_of",
    "status",
]

Status = Literal["friendly", "hostile", "neutral"]
Side = Literal["axis", "allies"]

Stack = Mapping[tuple[str, str], int]
"""(power, unit type) -> how many pieces."""


@dataclass(frozen=True)
class Position:
    """What the rules need to know about the board.

    Attributes:
        round: the current round (1-14).
        pieces: space -> (power, unit type) -> count; absent or zero means none.
        control: RP territory -> the power whose control marker is on it (permanent emblems come from the pack).
        supply: territory -> supply points there (tokens of 1 and 5 are interchangeable on the board, p.18).
        convoy_supply: convoy zone -> power -> supply points at sea on that power's marker (p.18).
        french: space -> the side French pieces there fight for; absent means Vichy, the Axis (p.29).
    """

    round: int
    pieces: Mapping[str, Stack] = field(default_factory=dict)
    control: Mapping[str, str] = field(default_factory=dict)
    supply: Mapping[str, int] = field(default_factory=dict)
    convoy_supply: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    french: Mapping[str, Side] = field(default_factory=dict)

    def count(self, space: str, power: str, type_: str) -> int:
        """How many of ``power``'s ``type_`` stand in ``space``."""
        return self.pieces.get(space, {}).get((power, type_), 0)

    def supply_in(self, space: str) -> int:
        """The supply points in ``space``."""
        return self.supply.get(space, 0)


_GRAPHS: dict[int, tuple[AxisAlliesPack, LocationGraph]] = {}


def graph_of(pack: AxisAlliesPack) -> LocationGraph:
    """The pack's map graph, built once per loaded pack (the pack is kept alive with it, so its id stays its own)."""
    kept = _GRAPHS.get(id(pack))
    if kept is None or kept[0] is not pack:
        kept = (pack, pack.graph())
        _GRAPHS[id(pack)] = kept
    return kept[1]


def enemy(side: str) -> Side:
    """The other side."""
    return "allies" if side == "axis" else "axis"


def side_of(pack: AxisAlliesPack, position: Position, power: str, space: str) -> Side:
    """The side ``power``'s pieces in ``space`` fight for: the power's side, or for France its allegiance (p.29)."""
    side = pack.power(power).side
    if side is not None:
        return side
    return position.french.get(space, "axis")


def controller(pack: AxisAlliesPack, position: Position, territory: str) -> str | None:
    """The power that controls ``territory`` (p.10): its control marker, else its printed emblem, else None."""
    marker = position.control.get(territory)
    if marker is not None:
        return marker
    return pack.territory(territory).permanent_owner


def combat_units(pack: AxisAlliesPack, position: Position, space: str, side: str) -> dict[tuple[str, str], int]:
    """The combat units (every unit but the truck, p.30) of ``side`` in ``space``, by (power, type)."""
    found: dict[tuple[str, str], int] = {}
    for (power, type_), n in position.pieces.get(space, {}).items():
        if n > 0 and pack.unit(power, type_).combat and side_of(pack, position, power, space) == side:
            found[(power, type_)] = n
    return found


def status(pack: AxisAlliesPack, position: Position, territory: str, side: str) -> Status:
    """p.10: friendly (a control marker and/or combat units of the side), hostile (of an enemy), else neutral.

    Combat units outweigh a marker: enemy combat units make a territory hostile whatever its marker, and the
    side's own combat units in an enemy-marked territory (the Torch landings, p.28) still leave it hostile.
    """
    if combat_units(pack, position, territory, enemy(side)):
        return "hostile"
    owner = controller(pack, position, territory)
    if owner is not None and side_of(pack, position, owner, territory) != side:
        return "hostile"
    if owner is not None or combat_units(pack, position, territory, side):
        return "friendly"
    return "neutral"


def is_surface_warship(unit: UnitType) -> bool:
    """p.33: battleships and destroyers; submarines are warships but not surface warships."""
    return unit.category == "sea" and not any(a.id == "does_not_block_enemy_movement" for a in unit.abilities)


def sea_status(pack: AxisAlliesPack, position: Position, zone: str, side: str) -> Status:
    """p.11: a sea zone is hostile to a side if it holds enemy surface warships or air units, else friendly."""
    for (power, type_), n in combat_units(pack, position, zone, enemy(side)).items():
        unit = pack.unit(power, type_)
        if n > 0 and (unit.category == "air" or is_surface_warship(unit)):
            return "hostile"
    return "friendly"


def initial_position(pack: AxisAlliesPack, scenario: Scenario) -> Position:
    """The board of ``scenario``'s setup charts (p.8): control markers, pieces and supply at its first round."""
    pieces: dict[str, dict[tuple[str, str], int]] = {}
    supply: dict[str, int] = {}
    for row in scenario.setup.placements:
        here = pieces.setdefault(row.space, {})
        for type_, n in row.units.items():
            here[(row.power, type_)] = here.get((row.power, type_), 0) + n
        if row.supply:
            supply[row.space] = supply.get(row.space, 0) + row.supply
    control = {row.territory: row.power for row in scenario.setup.control}
    return Position(round=scenario.start_round, pieces=pieces, control=control, supply=supply)
