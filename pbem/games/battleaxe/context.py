"""What every phase of the rules shares: the pack's board and the facts of a position, events and dice, and
the transitions more than one phase makes (the Advantage, step losses, control, the releases of 16).

The rules are functions of the state; the :class:`Context` of a data pack (its :class:`Board`, built once,
and the :class:`Situation` of the last position asked about) is kept with the pack and freed with it, never in
a module-level cache.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from pydantic import BaseModel

from pbem.games.battleaxe.board import ALLIED, AXIS, Board, Side, enemy
from pbem.games.battleaxe.data import BattleaxePack, Derived
from pbem.games.battleaxe.situation import Situation
from pbem.games.battleaxe.state import ELIMINATED, Assault, BattleaxeState, Combat, evolve
from pbem.kit.machine import ActionSpec, action
from pbem.rules.contract import ALLOW, Event, RollRequest, RollSpec, Step, Verdict, updated

__all__ = [
    "Context",
    "Result",
    "at",
    "board",
    "combat",
    "declare",
    "event",
    "holds",
    "impulse",
    "luftwaffe",
    "release",
    "roll",
    "settle_control",
    "shift_advantage",
    "spend",
    "step_loss",
]

Result = tuple[BattleaxeState, list[Event]]
"""A transition: the new state and the events it produced."""

X = TypeVar("X", bound=BaseModel)
SIDES: dict[str, Side] = {ALLIED: ALLIED, AXIS: AXIS}
"""The machine's seats are the sides (the ruleset maps a player's seat to a side first)."""


def declare(
    model: type[X],
    *,
    legal: Callable[[BattleaxeState, Side], Iterable[X]],
    can: Callable[[BattleaxeState, Side, X], Verdict],
    effect: Callable[[BattleaxeState, Side, X], Result],
) -> ActionSpec[BattleaxeState]:
    """A kit action whose candidates, predicate and effect take the acting side."""

    def candidates(state: BattleaxeState, seat: str) -> Iterable[X]:
        return legal(state, SIDES[seat])

    def allowed(state: BattleaxeState, seat: str, act: X) -> Verdict:
        return can(state, SIDES[seat], act)

    def applied(state: BattleaxeState, seat: str, act: X) -> Step[BattleaxeState]:
        new, events = effect(state, SIDES[seat], act)
        return Step(state=new, events=tuple(events))

    return action(model, legal=candidates, can=allowed, effect=applied)


def sole(model: type[X]) -> Callable[[BattleaxeState, Side], Iterable[X]]:
    """The candidates of an action without fields: its one instance (its ``can`` says when it is legal)."""

    def legal(state: BattleaxeState, side: Side) -> Iterable[X]:
        yield model()

    return legal


def always(state: BattleaxeState, side: Side, act: BaseModel) -> Verdict:
    """The predicate of an action legal whenever it is offered (the step that offers it is the whole rule)."""
    return ALLOW


class Context:
    """The rules' view of one data pack: its board, and the facts of the last position asked about."""

    __slots__ = ("_last", "board", "checked", "specs")

    def __init__(self, pack: BattleaxePack):
        self.board = Board(pack)
        self._last: Situation | None = None
        self.checked: tuple[BattleaxeState, str, BaseModel] | None = None
        """The last (state, side, action) the machine allowed: applying these very objects needs no second check."""
        self.specs: dict[tuple[str, str, int, str | None], RollSpec] = {}
        """The dice requests made so far (a few kinds and purposes per pack)."""

    def at(self, state: BattleaxeState) -> Situation:
        """The derived facts of ``state``; states are immutable, so the last one is reused while it lasts."""
        if self._last is None or self._last.state is not state:
            self._last = Situation(self.board, state, after=self._last)
        return self._last


def context(state: BattleaxeState) -> Context:
    """The context of the state's data pack, built on first use and kept with the pack."""
    private = state.pack.__pydantic_private__  # read directly: pydantic's private-attribute lookup is slow here
    derived: Derived = private["_derived"] if private is not None else state.pack._derived
    found = derived.context
    if not isinstance(found, Context):
        found = Context(state.pack)
        derived.context = found
    return found


def board(state: BattleaxeState) -> Board:
    """The board of the state's data pack."""
    return context(state).board


def at(state: BattleaxeState) -> Situation:
    """Who is where, control, supply and movement costs in ``state``."""
    return context(state).at(state)


_EVENT = Event(kind="event")


def event(kind: str, rule: str, text: str, seat: str | None = None, **data: Any) -> Event:
    """An event of the rules, copied from a template without validating it again: this signature types every field
    (an Event's validation cost more than the rest of most transitions)."""
    return updated(_EVENT, {"kind": kind, "seat": seat, "rule": rule, "text": text, "data": data})


def roll(state: BattleaxeState, kind: str, purpose: str, *, times: int = 1, id: str | None = None) -> RollSpec:
    """``times`` rolls of the pack's ``kind`` roll (its dice and sides), under ``id`` (default: the kind); the same
    request is made once per pack (a spec is a frozen value)."""
    ctx = context(state)
    key = (kind, purpose, times, id)
    found = ctx.specs.get(key)
    if found is None:
        row = ctx.board.rolls[kind]
        found = ctx.specs[key] = RollSpec(id=id or kind, sides=row.sides, n=row.dice * times, purpose=purpose)
    return found


def request(*rolls: RollSpec) -> RollRequest:
    return RollRequest(rolls=rolls)


def impulse(state: BattleaxeState) -> Assault:
    """The Assault or Regroup Impulse under way (its steps always have one)."""
    if state.assault is None:
        raise ValueError(f"no Impulse under way in step {state.step}")
    return state.assault


def combat(state: BattleaxeState) -> Combat:
    """The combat under way (its steps always have one)."""
    if state.combat is None:
        raise ValueError(f"no combat under way in step {state.step}")
    return state.combat


# --- the Advantage (12) ------------------------------------------------------------------------------------------
def holds(state: BattleaxeState, side: Side) -> bool:
    """Whether ``side`` holds the Advantage and has not spent it this Impulse or Phase."""
    return state.advantage == side and state.advantage_used_by is None


def spend(state: BattleaxeState, side: Side) -> BattleaxeState:
    """12.2: the Advantage belongs to nobody until the end of this Impulse or Phase."""
    return evolve(state, advantage=None, advantage_used_by=side)


def luftwaffe(state: BattleaxeState) -> bool:
    """19.2: Greater Luftwaffe intervention gives the Axis Air Support from its first Turn on."""
    return bool(state.options["luftwaffe"]) and state.turn >= board(state).limits["luftwaffe_from_turn"]


def shift_advantage(state: BattleaxeState) -> Result:
    """12.2: a spent Advantage passes to the other player at the end of the Impulse or Phase."""
    if state.advantage_used_by is None:
        return state, []
    owner = enemy(state.advantage_used_by)
    state = evolve(state, advantage=owner, advantage_used_by=None)
    return state, [event("advantage_passed", "12.2", f"The Advantage passes to the {owner} player", owner)]


# --- losses, control, releases (7.2, 11.4.4, 14.2.3, 16) -----------------------------------------------------------
def step_loss(state: BattleaxeState, unit: str) -> tuple[BattleaxeState, str]:
    """A Full-Strength unit is reduced, a Reduced one eliminated; and which of the two (``reduced``...)."""
    piece = state.units[unit]
    if piece.full:
        return evolve(state, units={**state.units, unit: piece.reduced()}), "reduced"
    return evolve(state, units={**state.units, unit: ELIMINATED}), "eliminated"


def settle_control(state: BattleaxeState, location: str) -> Result:
    """7.2: a side with units in a location free of enemy units controls it."""
    where = at(state).where[location]
    for side in (ALLIED, AXIS):
        if where[side] and not where[enemy(side)] and state.control[location] != side:
            text = f"{board(state).place(location)} passes to {side} control"
            state = evolve(state, control={**state.control, location: side})
            return state, [event("control_changed", "7.2", text, side, location=location)]
    return state, []


def release(state: BattleaxeState, *, entered_zone: str | None = None, assault_from: Iterable[str] = ()) -> Result:
    """16.1, 16.2: release the 15th Panzer and 5th Light Divisions when their conditions are met."""
    events = []
    released = list(state.released)
    origins = tuple(assault_from)
    for row in state.pack.tables.releases:
        if row.formation in released:
            continue
        s = at(state)
        near = {n for a in row.areas_adjacent_to for n in s.neighbours(a)}
        trigger = (
            any(state.control[a] == ALLIED for a in (*row.controlled_areas, *near))
            or (entered_zone is not None and entered_zone in row.entered_zones)
            or any(a in row.assault_from for a in origins)
        )
        if trigger:
            released.append(row.formation)
            events.append(event("division_released", row.rule, row.text, AXIS, formation=row.formation))
    if not events:
        return state, events
    return evolve(state, released=tuple(released)), events
