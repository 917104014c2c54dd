"""The typed inputs and outputs of the combat library of *Axis & Allies: North Africa* (see :mod:`.combat`).

Pieces are interchangeable, so every force is a count per :data:`Piece`, ``(power, unit type)``: the pieces on
each side, the cargo of a convoy, the casualties a player chooses. Nothing here rolls a die: a step says which
:class:`FireGroup` s roll how many d10s, and the caller hands the faces back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "TRANSPORT",
    "Battle",
    "Cargo",
    "EscortsShield",
    "FireGroup",
    "Hit",
    "Kind",
    "Piece",
    "Role",
    "Target",
    "Units",
    "add",
    "subtract",
    "total",
]

Piece = tuple[str, str]
"""(power, unit type), e.g. ``("germany", "tank")``."""
Units = Mapping[Piece, int]
"""Counted pieces: Piece -> how many (absent or 0: none)."""
Role = Literal["attacker", "defender"]
Kind = Literal["land", "sea"]
Target = Literal["any", "tanks", "air", "land_type", "sea_type"]
"""What the firer may aim a hit of a group at: ``any`` (no option), ``tanks`` (anti-tank guns, round 1, p.30),
``air`` (attacking scout cars, p.31), ``land_type`` / ``sea_type`` (a type the attacking bomber's player names,
p.33)."""

EscortsShield = Literal["reachable", "all"]
"""Named option (notes §10.12): which escorts keep hits off the defender's transports. p.21 says transports "may
not be taken as casualties until no more escorting sea or air units remain in the combat", but its worked example
assigns two submarine hits to the transports past an escorting fighter ("Since submarines cannot hit air units
(and vice versa), both casualties are assigned to transports"). ``reachable`` (recommended default, as the
example and "The defender must assign as many hits as possible"): only escorts the hit could fall on shield the
transports. ``all``: every escort does, and a hit that can reach no escort is lost."""

TRANSPORT: Piece = ("convoy", "transport")
"""The defender's virtual transports (p.14) as one kind of casualty: a hit on them costs two pieces of cargo."""


def total(units: Units) -> int:
    """How many pieces ``units`` holds."""
    return sum(n for n in units.values() if n > 0)


def add(a: Units, b: Units) -> dict[Piece, int]:
    """The pieces of both (counts added), zero counts dropped."""
    out = {k: n for k, n in a.items() if n > 0}
    for k, n in b.items():
        if n > 0:
            out[k] = out.get(k, 0) + n
    return out


def subtract(a: Units, b: Units) -> dict[Piece, int]:
    """The pieces of ``a`` less those of ``b`` (never below zero), zero counts dropped."""
    out = {k: n - b.get(k, 0) for k, n in a.items()}
    return {k: n for k, n in sorted(out.items()) if n > 0}


@dataclass(frozen=True)
class Cargo:
    """Reinforcements at sea in a convoy zone, on the defender's virtual transports (p.14).

    Attributes:
        units: the land units (trucks included) by (power, type).
        supply: supply points per power (each power's tokens sit on its control marker, p.18).
    """

    units: Units = field(default_factory=dict)
    supply: Mapping[str, int] = field(default_factory=dict)

    @property
    def supply_points(self) -> int:
        """All supply points aboard, of every power."""
        return sum(n for n in self.supply.values() if n > 0)

    def empty(self) -> bool:
        """Whether nothing is aboard."""
        return total(self.units) == 0 and self.supply_points == 0


@dataclass(frozen=True)
class Battle:
    """One combat in one space, as it stands at the start of a step.

    Land units attack a territory from adjacent ones (p.15), so attacking land units are kept per territory of
    origin: supply to press is paid per origin (p.23) and land units outside the main attack are flanking
    (p.19). A Torch landing attacks from the territory itself (p.28): its origin is ``space``.

    Attributes:
        space: the territory or sea zone fought over.
        kind: ``land`` for a territory, ``sea`` for a sea zone.
        attacker: the attacking side (``axis`` or ``allies``).
        land: origin territory -> the attacking land units from it still in the combat.
        air_sea: the attacking air and sea units still in the combat.
        defenders: the defending combat units still in the combat (trucks are never in it, p.32).
        round: the combat round, from 1.
        main: the origin of the main attack when land units attack from several territories (p.19); None
            when there is one origin.
        damaged: battleships (either side) already hit once (p.33).
        cargo: the defender's reinforcements at sea in a convoy zone (p.14), None elsewhere.
        must_press: the Torch landings of round 7 must be pressed with all units (p.28).
    """

    space: str
    kind: Kind
    attacker: str
    land: Mapping[str, Units] = field(default_factory=dict)
    air_sea: Units = field(default_factory=dict)
    defenders: Units = field(default_factory=dict)
    round: int = 1
    main: str | None = None
    damaged: Units = field(default_factory=dict)
    cargo: Cargo | None = None
    must_press: bool = False

    def attackers(self) -> dict[Piece, int]:
        """Every attacking piece still in the combat, land units of all origins added up."""
        out: dict[Piece, int] = {}
        for units in self.land.values():
            out = add(out, units)
        return add(out, self.air_sea)


@dataclass(frozen=True)
class FireGroup:
    """Dice one kind of piece rolls together in one step (p.21: units with the same value roll together; units
    with restricted targets, or flanking, roll apart).

    Attributes:
        role: who fires.
        power, type: the firing pieces.
        count: how many dice (one per piece).
        needs: a die scores a hit at or under it.
        target: the option the firer has on each hit (see :data:`Target`).
        flanking: rerolls every die from the pack's ``flanking_reroll_from`` up, again and again (p.19).
        supported: infantry attacking at the artillery-supported value (p.30).
        rule: the page that sets ``needs``.
    """

    role: Role
    power: str
    type: str
    count: int
    needs: int
    target: Target = "any"
    flanking: bool = False
    supported: bool = False
    rule: str = "21"

    @property
    def piece(self) -> Piece:
        """The firing (power, type)."""
        return (self.power, self.type)


@dataclass(frozen=True)
class Hit:
    """``count`` hits that may each fall on one of ``allowed``; a hit aimed by its firer (p.30, p.31, p.33)
    must fall on ``preferred`` if possible; ``escorts_first`` hits reach transports only once no escort they
    could hit is left (p.21).
    """

    count: int
    allowed: frozenset[Piece]
    preferred: frozenset[Piece] = frozenset()
    escorts_first: bool = False
    aim_rule: str = "30"
    """The page of the aim (30 anti-tank guns, 31 scout cars, 33 bombers), cited when it is ignored."""
