"""The Allied free set-up (5.2.1, 19.3): each unit without a fixed set-up goes to one of its zones."""

from __future__ import annotations

from collections.abc import Iterable

from pbem.games.battleaxe.actions import Place
from pbem.games.battleaxe.board import Side
from pbem.games.battleaxe.context import Result, board, declare, event
from pbem.games.battleaxe.state import BattleaxeState, UnitState, evolve
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = ["ACTIONS"]


def places(state: BattleaxeState, side: Side) -> Iterable[Place]:
    units = board(state).units
    for unit in state.setup_left:
        for zone in units[unit].setup_options:
            yield Place(unit=unit, zone=zone)


def can_place(state: BattleaxeState, side: Side, act: Place) -> Verdict:
    if act.unit not in state.setup_left:
        return deny("5.2.1", "not-free-setup", f"{act.unit} is not a unit of the Allied free set-up")
    b = board(state)
    options = b.units[act.unit].setup_options
    if act.zone not in options:
        zones = ", ".join(b.place(z) for z in options)
        return deny("5.2.1", "setup-zone", f"{b.label(act.unit)} sets up in one of {zones}")
    return ALLOW


def place(state: BattleaxeState, side: Side, act: Place) -> Result:
    b = board(state)
    left = tuple(u for u in state.setup_left if u != act.unit)
    text = f"{b.label(act.unit)} sets up in {b.place(act.zone)}"
    events = [event("unit_placed", "5.2.1", text, side, unit=act.unit)]
    state = evolve(state, units={**state.units, act.unit: UnitState(location=act.zone)}, setup_left=left)
    if not left:
        state = evolve(state, step="impulse", phase="maneuvers")
        day = b.turns[state.turn - 1].label
        events.append(event("maneuvers_began", "6.2", f"{day}: the Maneuvers Phase begins"))
    return state, events


ACTIONS = (declare(Place, legal=places, can=can_place, effect=place),)
