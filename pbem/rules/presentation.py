"""How a game looks in reports and replays: its map, colours and counters, and which events tell its story.

A game module subclasses :class:`Presentation` and returns it from ``Ruleset.presentation()``. It describes;
the shared renderer (``pbem.report.svg``) draws. Everything here reads a :class:`~pbem.rules.contract.View`,
never a state, so a report can only show what its viewer may see.

**Event conventions** the reports rely on (any game that follows them gets combat tables and charts):

* ``combat_resolved``: ``data`` is a :class:`pbem.rules.records.CombatRecord` (``record.data()``): the
  location, the result, and whichever of two-sided totals (``sides``: lead, terms citing rules, dice, total),
  rounds of fire steps (each unit's or each group of pieces' dice and hits, a table lookup), hits and losses
  by side and kind the combat has. The events that follow it and whose kinds are in
  :attr:`Presentation.combat_followups` (losses, retreats, results changed after the roll) belong to it.
* Any event's ``data.location`` (an id) or ``data.locations`` (a list of ids) outlines those places on the
  maps of its turn and of its replay step.
* Losses are read from the views themselves (a unit's ``steps`` going down), so they need no convention.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping, Sequence
from typing import Any, ClassVar, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from pbem.rules.contract import Event, UnitView, View
from pbem.rules.maps import MapSpec

__all__ = [
    "CombatOutcome",
    "CounterFace",
    "LookModule",
    "LossUnit",
    "MapStyle",
    "MapspecLook",
    "Marker",
    "Presentation",
    "SideStyle",
    "Stroke",
    "outcome_by_totals",
    "period_title",
]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Stroke(_Model):
    color: str
    width: float = 2.0
    dash: str | None = None


class SideStyle(_Model):
    """A side's colours: counters (``fill``, ``ink``) and its control markers (``control``)."""

    name: str
    fill: str
    ink: str
    control: str


class MapStyle(_Model):
    """Colours by terrain, side and line kind; ``counter`` is a counter's edge in map units."""

    terrain: dict[str, str]
    sides: dict[str, SideStyle]
    strokes: dict[str, Stroke] = {}
    counter: float = 30.0
    region_stroke: str = "#6b5b3e"
    label_color: str = "#3b3020"
    label_size: float | None = None
    """The size of region labels (None: a little over a third of a counter)."""
    arrows: dict[str, Stroke] = {}
    """Movement arrows by side (default: the side's control colour)."""
    names: dict[str, str] = {}
    """How the legend names terrain and feature kinds (default: the kind, capitalised)."""
    label_halo: str | None = None
    """A colour outlining region labels so they read over roads and borders (None: no outline)."""
    control_tint: float | None = None
    """The opacity of a wash in the controller's colour over each controlled region (None: its marker only)."""

    def arrow(self, side: str) -> Stroke:
        if side in self.arrows:
            return self.arrows[side]
        return Stroke(color=self.sides[side].control if side in self.sides else "#333333", width=3)

    def name(self, kind: str) -> str:
        return self.names.get(kind, kind.replace("_", " ").capitalize())


class CounterFace(_Model):
    """One counter or block as drawn: everything the renderer needs, nothing it must look up.

    Attributes:
        side: a key of :attr:`MapStyle.sides`.
        shape: ``counter`` (a square with a unit symbol) or ``block`` (a standing block, as in Rommel in the Desert).
        title: the short designation along the top.
        symbol: a NATO unit-type symbol (None: none). Ground units: ``infantry``, ``armor``, ``mechanized``,
            ``motorized``, ``anti_tank``, ``artillery``, ``recon``, ``hq``, ``air_defense``, ``truck``;
            aircraft: ``fighter``, ``bomber``; ships: ``transport``, ``carrier``, ``battleship``, ``cruiser``,
            ``destroyer``; ``submarine``.
        value: the values along the bottom (``"5-4"``); for a block, its strength.
        reduced: the unit shows its reduced side (a band across the counter).
        marks: small badges (``"OOS"``).
        fill: a fill other than the side's (a nationality's colour).
        concealed: the viewer sees only the block's back: its colour, nothing else.
        stripe: a band down the counter's left edge in this colour (a formation's colour, as Gazala prints it).
        count: a stack of that many interchangeable pieces (Axis & Allies): drawn as a pile with the number in a
            badge (None: a single unit).
    """

    side: str
    shape: Literal["counter", "block"] = "counter"
    title: str = ""
    symbol: str | None = None
    value: str = ""
    reduced: bool = False
    marks: tuple[str, ...] = ()
    fill: str | None = None
    concealed: bool = False
    stripe: str | None = None
    count: int | None = None


class CombatOutcome(_Model):
    """How a combat ended, for a narrative: the result in words and the role that won (None: nobody did)."""

    result: str
    winner: Literal["attack", "defense"] | None


class Marker(_Model):
    """A marker on a location (``"Fuel shortage"``), in a side's colour if it has one."""

    location: str
    text: str
    side: str | None = None


class LossUnit(_Model):
    """What a side loses, as the reports count it: one ``name`` and its ``plural`` ("step", "steps": the losses
    tables' "Steps" and "Steps lost", the chart's "Steps lost in each turn", a turn's "Losses: Axis 2 steps"), and
    whether the units eliminated are counted apart (``units``: a unit may lose a step and stay; in a game of
    interchangeable pieces every loss is a piece gone, so it says ``LossUnit(name="piece", plural="pieces",
    units=False)``)."""

    name: str = "step"
    plural: str = "steps"
    units: bool = True

    def count(self, n: int) -> str:
        """``n`` of them in words: "1 step", "3 steps"."""
        return f"{n} {self.name if n == 1 else self.plural}"


class Presentation(ABC):
    """A game's look over one data pack. Subclass, set :attr:`style`, implement :meth:`map_spec` and :meth:`face`.

    A game whose look lives in a ``mapspec`` module (``map_spec(pack)``, ``face(pack, unit)``, ``map_style(pack)``)
    subclasses :class:`MapspecLook` and names the module.
    """

    style: MapStyle
    """Colours, strokes and sizes: a class attribute when one style fits every pack, else set in ``__init__``."""
    combat_followups: ClassVar[frozenset[str]] = frozenset({"unit_reduced", "unit_eliminated", "retreated"})
    """Event kinds that belong to the combat before them (see the module docstring)."""
    highlights: ClassVar[frozenset[str]] = frozenset(
        {
            "combat_resolved",
            "control_changed",
            "unit_eliminated",
            "victory_points",
            "game_over",
            "resigned",
            "timeout_claimed",
        }
    )
    """Event kinds worth a line in an after-action report's timeline."""
    crop_turn_maps: ClassVar[bool] = False
    """Draw a turn's maps around its units and events only (a large board whose counters would print too
    small whole); the summary's final map always shows the whole board."""
    loss_unit: ClassVar[LossUnit] = LossUnit()
    """What the reports' losses count (steps and units eliminated, by default)."""
    stage_openers: ClassVar[frozenset[str]] = frozenset({"turn_started", "turn_began", "month_began"})
    """Event kinds that open the stage the line ends in: the rules start the next turn inside the previous
    turn's last action, so the story tells such an event, and what follows it, under the new stage."""

    def __init__(self, data: Any):
        self.data = data
        """The game's loaded data pack."""

    @abstractmethod
    def map_spec(self) -> MapSpec:
        """The board, from the data pack."""

    @abstractmethod
    def face(self, unit: UnitView) -> CounterFace:
        """How ``unit`` looks to the viewer its view was made for (``unit.hidden``: a concealed block)."""

    def control(self, view: View) -> Mapping[str, str]:
        """Who controls each location (location → side); by default the view's ``control`` fact."""
        control = view.facts.get("control")
        return control if isinstance(control, dict) else {}

    def markers(self, view: View) -> tuple[Marker, ...]:
        return ()

    def zones(self, view: View) -> Mapping[str, Collection[str]]:
        """Zones of control as the viewer of ``view`` can tell them (side → the locations in that side's zone), for
        a map that shows them on request (``MapRenderer.render(zones=True)``); none by default."""
        return {}

    def stage(self, view: View) -> str:
        """The part of a turn the game is in (``"Impulse 3"``), for a report's sections; "" if turns have none."""
        return ""

    def period_title(self, period: str) -> str:
        """A heading for a checkpoint period (``"turn-1"`` → ``"June 15"``); by default :func:`period_title`."""
        return period_title(period)

    def scores(self, view: View) -> dict[str, int]:
        """Numbers charted turn by turn (``{"Allied VP": 7}``)."""
        return {}

    def status(self, view: View) -> list[tuple[str, str]]:
        """Facts listed at the end of a turn report (``("Supply", "2 Axis units out of supply")``)."""
        return []

    def opened(self, slot: str, value: Any) -> str:
        """What a player opened when the rules asked (the hidden slot ``slot``, now public as ``value``), in the
        game's words for a report line "… opened <this>" (``"the strength of the block in Tobruk, 3"``). By
        default "a hidden value", with the value when it is a number: a slot id never reaches a player."""
        if isinstance(value, int) and not isinstance(value, bool):
            return f"a hidden value, {value}"
        return "a hidden value"

    def secret(self, slot: str, value: Any) -> tuple[str, str] | None:
        """One of the viewer's own hidden values as their play page lists it, in the game's words: (what it is,
        its value), e.g. ``("Axis block 01", "Artiglieria (XXI Corps)")``; None: the client names the slot's parts
        (units and places by name) and prints the value's label."""
        return None

    def combat_outcome(self, data: Mapping[str, Any], followups: Sequence[Event]) -> CombatOutcome:
        """How a ``combat_resolved`` event (its ``data``) ended once the events that ``followups`` lists
        (those of :attr:`combat_followups` after it) had their say. By default the higher total wins and
        equal totals leave nobody the winner; a game whose results read otherwise overrides this."""
        return outcome_by_totals(data)


def period_title(period: str) -> str:
    """A period's heading for a game that names none (``"month-3"`` → ``"Month 3"``)."""
    if period == "end":  # the engine's period after the result: disclosure and the final checkpoint
        return "After the game"
    return period.replace("-", " ").capitalize()


def outcome_by_totals(data: Mapping[str, Any]) -> CombatOutcome:
    """A combat's outcome read from its totals: the higher wins; equal totals leave nobody the winner."""
    totals = {str(s.get("role")): int(s.get("total", 0)) for s in data.get("sides", [])}
    attack, defense = totals.get("attack", 0), totals.get("defense", 0)
    winner: Literal["attack", "defense"] | None = (
        "attack" if attack > defense else "defense" if defense > attack else None
    )
    return CombatOutcome(result=str(data.get("result", "")).replace("_", " "), winner=winner)


class LookModule(Protocol):
    """A game's ``mapspec`` module: its map, counters and style, drawn from the data pack."""

    def map_style(self, pack: Any) -> MapStyle: ...

    def map_spec(self, pack: Any) -> MapSpec: ...

    def face(self, pack: Any, unit: UnitView) -> CounterFace: ...


class MapspecLook(Presentation):
    """A presentation whose map, counters and style are its ``mapspec`` module's (:class:`LookModule`): one home
    for the look, the presentation adds stages, markers and scores::

        class Look(MapspecLook):
            look = mapspec
    """

    look: ClassVar[LookModule]

    def __init__(self, data: Any):
        super().__init__(data)
        self.style = self.look.map_style(data)

    def map_spec(self) -> MapSpec:
        return self.look.map_spec(self.data)

    def face(self, unit: UnitView) -> CounterFace:
        return self.look.face(self.data, unit)
