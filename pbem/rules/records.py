"""Typed event records that reports read: a combat of any shape, and where an event happened.

A ``combat_resolved`` event's ``data`` is a :class:`CombatRecord` dumped to JSON (``record.data()``), plus any
keys of the game's own, which reports ignore. One record serves every kind of combat:

* **Sides** (Battleaxe, Skirmish): each side's units, its lead, labelled terms citing rules (the kit's
  :class:`~pbem.kit.tables.Term`), its dice and its total; the higher total usually wins.
* **Rounds of fire** (Axis & Allies, Gazala): each round holds fire steps (a volley: one side firing at one
  point of the sequence, e.g. "defending fighters"), each step the fire of one unit or of a number of
  interchangeable pieces (``count`` infantry) with its dice and hits, and optionally a table lookup.
* **A table lookup** (a CRT or Fire table: the kit's :class:`~pbem.kit.tables.Lookup`) for the combat as a whole.
* **Hits and losses** by side and by kind: an identified unit's steps (Battleaxe) or interchangeable pieces
  counted by type (``{"side": "axis", "kind": "tank", "pieces": 2}``).

Every part but ``location`` and ``result`` is optional, so a game fills in what its combat has.

**Locations.** Any event may say where it happened with ``data.location`` (one location id) or
``data.locations`` (a list of ids); maps outline those places (:func:`event_locations`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from pbem.kit.tables import Lookup, Term, Total
from pbem.rules.contract import Event

__all__ = [
    "CombatRecord",
    "CombatSide",
    "Fire",
    "FireStep",
    "Hits",
    "Loss",
    "Round",
    "combat_record",
    "event_locations",
]


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class CombatSide(_Record):
    """One side's value: ``total`` is its terms plus its dice (checked).

    Attributes:
        role: ``attack`` or ``defense`` (a game with more roles names them).
        side: a key of the presentation's sides.
        units: the unit ids taking part; ``lead`` the one whose value leads (None: no lead).
    """

    role: str
    side: str
    units: tuple[str, ...] = ()
    lead: str | None = None
    terms: tuple[Term, ...] = ()
    dice: tuple[int, ...] = ()
    total: int

    @model_validator(mode="after")
    def _adds_up(self) -> CombatSide:
        if self.total != sum(t.value for t in self.terms) + sum(self.dice):
            raise ValueError(f"the {self.role} total {self.total} is not its terms plus its dice")
        return self

    @property
    def value(self) -> Total:
        """The terms and their sum, before the dice."""
        return Total.of(self.terms)


class Fire(_Record):
    """One unit's fire, or that of ``count`` interchangeable pieces of one kind (``3 infantry``).

    Attributes:
        unit: the unit id (a named unit) or "" for pieces known only by ``kind``.
        needs: the highest roll that hits (Axis & Allies' "hits on 2 or less"); None: the table decides.
    """

    unit: str = ""
    kind: str = ""
    count: int = 1
    dice: tuple[int, ...] = ()
    needs: int | None = None
    hits: int = 0


class FireStep(_Record):
    """A volley: one side firing at one point of a round (``"defending fighters"``), with its rule."""

    label: str
    side: str
    rule: str | None = None
    fire: tuple[Fire, ...] = ()
    lookup: Lookup[str] | None = None

    @property
    def hits(self) -> int:
        return sum(f.hits for f in self.fire)


class Round(_Record):
    """One round of a combat of several rounds."""

    number: int
    steps: tuple[FireStep, ...] = ()


class Hits(_Record):
    """Hits a side scored (``count`` of them, ``kind``: "hits", "attrition points", "step losses")."""

    side: str
    count: int
    kind: str = "hits"


class Loss(_Record):
    """What one side lost: ``steps`` of an identified ``unit``, or ``pieces`` of a ``kind`` (2 tanks)."""

    side: str
    kind: str = ""
    unit: str | None = None
    steps: int = 0
    pieces: int = 0
    eliminated: bool = False


class CombatRecord(_Record):
    """A resolved combat, for reports (see the module docstring)."""

    location: str
    result: str
    sides: tuple[CombatSide, ...] = ()
    rounds: tuple[Round, ...] = ()
    lookup: Lookup[str] | None = None
    hits: tuple[Hits, ...] = ()
    losses: tuple[Loss, ...] = ()
    winner: str | None = None
    """The side that won, for a combat without two sides whose roles say it (rounds of fire); None: read the
    winning role of :meth:`Presentation.combat_outcome` from ``sides``."""

    def data(self, **extra: Any) -> dict[str, Any]:
        """The event's ``data``: the record as JSON, empty parts left out, and the game's ``extra`` keys."""
        return {**self.model_dump(mode="json", exclude_defaults=True), **extra}

    def side(self, role: str) -> CombatSide | None:
        return next((s for s in self.sides if s.role == role), None)


def combat_record(event: Event) -> CombatRecord | None:
    """The record a ``combat_resolved`` event carries, None if it carries none (a game with its own shape)."""
    if event.kind != "combat_resolved":
        return None
    fields = {k: v for k, v in event.data.items() if k in CombatRecord.model_fields}
    if "location" not in fields or "result" not in fields:
        return None
    try:
        return CombatRecord.model_validate(fields)
    except ValidationError:
        return None


def event_locations(data: Mapping[str, Any]) -> tuple[str, ...]:
    """Where an event happened: its ``data.location`` and ``data.locations`` (strings only)."""
    found: list[str] = []
    one = data.get("location")
    if isinstance(one, str) and one:
        found.append(one)
    many = data.get("locations")
    if isinstance(many, list | tuple):
        found.extend(str(x) for x in many if isinstance(x, str) and x and x not in found)
    return tuple(found)
