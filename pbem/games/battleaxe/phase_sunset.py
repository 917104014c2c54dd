"""The end of a half-Impulse, the Sunset DR and the next Impulse (6.2, 6.2.1, 12.1C, 12.2, 14.1.2)."""

from __future__ import annotations

from pbem.games.battleaxe.actions import Nightfall, ProlongedDaylight
from pbem.games.battleaxe.board import ALLIED, AXIS, Side, enemy
from pbem.games.battleaxe.context import (
    Result,
    always,
    board,
    declare,
    event,
    holds,
    luftwaffe,
    request,
    roll,
    shift_advantage,
    sole,
    spend,
)
from pbem.games.battleaxe.phase_refit import end_maneuvers
from pbem.games.battleaxe.state import BattleaxeState, decision, evolve, waiting
from pbem.kit.machine import pop, push
from pbem.rules.contract import ALLOW, Event, Verdict, deny

__all__ = ["ACTIONS", "end_half", "sunset_rolled"]


def end_half(state: BattleaxeState, events: list[Event]) -> Result:
    """The end of a player's half of the Impulse: the other player's half, or the Sunset DR (6.2.1)."""
    state = evolve(state, assault=None, combat=None)
    first = board(state).first_player
    if state.half == first:
        state, shifted = shift_advantage(state)
        state = evolve(state, half=enemy(first), step="impulse", sunset=None, half_kind=None, intercepted=False)
        # RULING (notes A44, option fuel_timing): the Allies may also declare the Fuel Shortage now
        late = state.options["fuel_timing"] == "also_start_of_axis_impulse"
        if late and holds(state, ALLIED) and not state.fuel_low:
            state = push(state, decision("fuel_window", ALLIED))
        return state, events + shifted
    intercepts = state.options["wireless_intercepts"] and not state.intercepted and state.half_kind is not None
    if intercepts and holds(state, AXIS):  # 19.1H: the Axis may buy a second, other Impulse
        return evolve(state, step="intercepts"), events
    if state.sunset is None:  # 6.2.1: no Axis DR this half-Impulse: the Axis rolls a Sunset DR now
        waits = push(state, waiting("sunset", AXIS))
        return waits.with_rolls(request(roll(state, "sunset", "Sunset DR"))), events
    return _sunset(state, events)


def sunset_rolled(state: BattleaxeState, dice: tuple[int, ...]) -> Result:
    """6.2.1: the Sunset DR rolled at the end of an Axis half-Impulse without an Axis DR."""
    state = evolve(pop(state), sunset=sum(dice))
    return _sunset(state, [event("sunset_rolled", "6.2.1", f"Sunset DR {sum(dice)}", AXIS, dice=list(dice))])


def _sunset(state: BattleaxeState, events: list[Event]) -> Result:
    """6.2.1: a Sunset DR below the Impulse number ends the day (unless the Advantage prolongs it, 12.1C)."""
    sunset = state.sunset
    if sunset is None:
        raise ValueError("no Sunset DR to compare")
    if state.fuel_low and sunset == state.impulse:  # 14.1.2
        state = evolve(state, fuel_low=False)
        events = [*events, event("fuel_restored", "14.1.2", "The Axis Fuel Shortage ends", AXIS)]
    if sunset < state.impulse:
        if state.advantage is not None and state.advantage_used_by is None:
            return push(state, decision("daylight", state.advantage)), events
        return end_maneuvers(state, events)
    return _next_impulse(state, events)


def _next_impulse(state: BattleaxeState, events: list[Event]) -> Result:
    state, shifted = shift_advantage(state)
    impulse = state.impulse + 1
    if impulse > board(state).impulse_track:
        return end_maneuvers(state, events + shifted)
    state = evolve(
        state,
        impulse=impulse,
        half=board(state).first_player,
        step="impulse",
        sunset=None,
        half_kind=None,
        intercepted=False,
        air_ready={**state.air_ready, ALLIED: True, AXIS: state.air_ready[AXIS] or luftwaffe(state)},
    )
    return state, [*events, *shifted, event("impulse_began", "6.2", f"Impulse {impulse}")]


# --- Prolonged Daylight (12.1C) ---------------------------------------------------------------------------------
def can_prolong(state: BattleaxeState, side: Side, act: ProlongedDaylight) -> Verdict:
    return ALLOW if holds(state, side) else deny("12.1", "no-advantage", "you do not hold the Advantage")


def prolong(state: BattleaxeState, side: Side, act: ProlongedDaylight) -> Result:
    state = spend(pop(state), side)
    return _next_impulse(
        state, [event("prolonged_daylight", "12.1", "Prolonged Daylight: the Sunset DR is ignored", side)]
    )


def nightfall(state: BattleaxeState, side: Side, act: Nightfall) -> Result:
    return end_maneuvers(pop(state), [])


ACTIONS = (
    declare(ProlongedDaylight, legal=sole(ProlongedDaylight), can=can_prolong, effect=prolong),
    declare(Nightfall, legal=sole(Nightfall), can=always, effect=nightfall),
)
