"""Choosing an Impulse (8.1): Assault, Regroup, Consolidation or Pass; and the Advantage spent outside combat
(12.1: Fuel Shortage, Rommel; ruling A44's Fuel Shortage window; optional 19.1H Wireless Intercepts)."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from pbem.games.battleaxe.actions import (
    Assault,
    Consolidate,
    FuelShortage,
    NoFuelShortage,
    NoIntercepts,
    Pass,
    Regroup,
    Rommel,
    WirelessIntercepts,
)
from pbem.games.battleaxe.board import ALLIED, AXIS, Side
from pbem.games.battleaxe.context import Result, always, at, board, declare, event, holds, release, sole, spend
from pbem.games.battleaxe.phase_sunset import end_half
from pbem.games.battleaxe.state import ELIMINATED, BattleaxeState, evolve, now
from pbem.games.battleaxe.state import Assault as Impulse
from pbem.kit.machine import pop
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = ["ACTIONS"]


def _first_activation(state: BattleaxeState, side: Side) -> bool:
    """16.3: the Allies activate Zones A-D together in Impulse 1 of the first Turn."""
    return side == ALLIED and state.turn == 1 and state.impulse == board(state).limits["start_impulse"]


def _must_assault(state: BattleaxeState) -> Verdict:
    """19.1H: after a Regroup, Wireless Intercepts buy an Assault, nothing else."""
    if state.intercepted:
        return deny("19.1", "intercepts", "Wireless Intercepts after a Regroup are spent on an Assault")
    return ALLOW


# --- Assault (8.1.1, 9.1) ---------------------------------------------------------------------------------------
def assaults(state: BattleaxeState, side: Side) -> Iterable[Assault]:
    s = at(state)
    areas = [loc for loc in s.board.locations if any(not s.restricted(u) for u in s.units_of(side, loc))]
    for loc in areas:
        yield Assault(areas=[loc])
    if side == AXIS and not state.fuel_low:
        for pair in combinations(areas, s.board.limits["axis_combined_ops_areas"]):
            yield Assault(areas=list(pair))
    if _first_activation(state, side):
        yield Assault(areas=list(s.board.roles["first_activation_zones"]))


def can_assault(state: BattleaxeState, side: Side, act: Assault) -> Verdict:
    areas = act.areas
    s = at(state)
    if not areas or len(set(areas)) != len(areas):
        return deny("9.1", "areas", "name the Active Area(s)")
    if unknown := [a for a in areas if a not in s.board.locations]:
        return deny("9.1", "areas", f"unknown location {', '.join(unknown)}")
    first = sorted(s.board.roles["first_activation_zones"])
    if sorted(areas) == first and len(areas) > 1:
        if not _first_activation(state, side):
            return deny("16.3", "first-activation", "Zones A-D activate together only in Impulse 1 of June 15")
    elif len(areas) == s.board.limits["axis_combined_ops_areas"]:
        if side != AXIS:
            return deny("9.1.2", "combined-operations", "only the Axis may activate two Areas")
        if state.fuel_low:
            return deny("14.1.1", "fuel-shortage", "no Combined Operations during a Fuel Shortage")
    elif len(areas) != 1:
        return deny("9.1", "areas", "an Assault activates one Area")
    for area in areas:
        if not any(not s.restricted(u) for u in s.units_of(side, area)):
            return deny("9.1.1", "no-units", f"no {side} unit in {area} can move or attack")
    return ALLOW


def assault(state: BattleaxeState, side: Side, act: Assault) -> Result:
    areas = tuple(act.areas)
    s = at(state)
    b = s.board
    active = tuple(u for a in areas for u in s.units_of(side, a) if not s.restricted(u))
    mode = "single" if len(areas) == 1 else "simultaneous"
    second_open = side == AXIS and len(areas) == 1 and not state.fuel_low
    contested = tuple(loc for loc in b.locations if s.contested(loc))
    under_way = Impulse(areas=areas, mode=mode, second_open=second_open, active=active, contested_at_start=contested)
    state = evolve(state, step="assault", assault=under_way, half_kind="assault")
    names = ", ".join(b.place(a) for a in areas)
    events = [event("assault_declared", "8.1.1", f"{side.title()} Assault from {names}", side, areas=list(areas))]
    if side == ALLIED:
        state, released = release(state, assault_from=areas)
        events += released
    return state, events


# --- Regroup, Consolidation, Pass (8.1.2, 8.1.3) ----------------------------------------------------------------
def can_regroup(state: BattleaxeState, side: Side, act: Regroup) -> Verdict:
    return _must_assault(state)


def regroup(state: BattleaxeState, side: Side, act: Regroup) -> Result:
    under_way = Impulse(areas=(), active=(), contested_at_start=())
    state = evolve(state, step="regroup", assault=under_way, half_kind="regroup")
    return state, [event("regroup_declared", "8.1.2", f"{side.title()} Regroup Impulse", side)]


def consolidations(state: BattleaxeState, side: Side) -> Iterable[Consolidate]:
    s = at(state)
    for loc in s.board.locations:
        for keep, remove in combinations(s.units_of(side, loc), 2):
            yield Consolidate(keep=keep, remove=remove)
            yield Consolidate(keep=remove, remove=keep)


def can_consolidate(state: BattleaxeState, side: Side, act: Consolidate) -> Verdict:
    if state.intercepted:
        return _must_assault(state)
    keep, remove = act.keep, act.remove
    if keep == remove or keep not in state.units or remove not in state.units:
        return deny("8.1.2", "consolidate-units", "name two different units")
    a, b = state.units[keep], state.units[remove]
    pieces = board(state)
    if pieces.side_of(keep) != side or pieces.side_of(remove) != side:
        return deny("8.1.2", "consolidate-units", "consolidate your own units")
    if a.location is None or a.location != b.location:
        return deny("8.1.2", "consolidate-place", "both units must be on the map in the same Area")
    if a.full or b.full:
        return deny("8.1.2", "consolidate-strength", "both units must be Reduced-Strength")
    kind = pieces.kind(keep)
    if kind != pieces.kind(remove) or kind == "anti_tank":
        return deny("8.1.2", "consolidate-type", "two Armored or two Infantry units; Anti-Tank units may not")
    if a.oos or b.oos:
        return deny("8.1.2", "consolidate-supply", "both units must be in supply")
    return ALLOW


def consolidate(state: BattleaxeState, side: Side, act: Consolidate) -> Result:
    keep, remove = act.keep, act.remove
    units = {**state.units, keep: state.units[keep].refitted(), remove: ELIMINATED}
    b = board(state)
    text = f"{b.label(keep)} absorbs {b.label(remove)} and is Full-Strength again"
    return end_half(evolve(state, units=units), [event("consolidated", "8.1.2", text, side, keep=keep, remove=remove)])


def can_pass(state: BattleaxeState, side: Side, act: Pass) -> Verdict:
    return _must_assault(state)


def pass_(state: BattleaxeState, side: Side, act: Pass) -> Result:
    return end_half(state, [event("passed", "8.1.3", f"{side.title()} passes", side)])


# --- the Advantage (12.1A-E) ------------------------------------------------------------------------------------
def can_fuel_shortage(state: BattleaxeState, side: Side, act: FuelShortage) -> Verdict:
    if side != ALLIED:
        return deny("12.1", "allied-only", "only the Allied player may declare an Axis Fuel Shortage")
    if not holds(state, side):
        return deny("12.1", "no-advantage", "the Allied player does not hold the Advantage")
    if state.fuel_low:
        return deny("12.1", "fuel-low", "the Axis already suffers a Fuel Shortage")
    return ALLOW


def fuel_shortage(state: BattleaxeState, side: Side, act: FuelShortage) -> Result:
    if now(state) == "fuel_window":  # notes A44: declared as the Axis Impulse begins
        state = pop(state)
    state = evolve(spend(state, side), fuel_low=True)
    return state, [event("fuel_shortage", "12.1", "The Allies spend the Advantage: Axis Fuel Shortage", side)]


def can_rommel(state: BattleaxeState, side: Side, act: Rommel) -> Verdict:
    if side != AXIS:
        return deny("12.1", "axis-only", "only the Axis player may call on Rommel")
    if not holds(state, side):
        return deny("12.1", "no-advantage", "the Axis player does not hold the Advantage")
    if state.rommel:
        return deny("12.1", "rommel-active", "Rommel is already at the front this phase")
    return ALLOW


def rommel(state: BattleaxeState, side: Side, act: Rommel) -> Result:
    state = evolve(spend(state, side), rommel=True)
    return state, [event("rommel", "12.1", "Rommel an der Spitze! The Axis spends the Advantage", side)]


def no_fuel_shortage(state: BattleaxeState, side: Side, act: NoFuelShortage) -> Result:
    return pop(state), []


# --- Wireless Intercepts (optional 19.1H) -----------------------------------------------------------------------
def can_intercept(state: BattleaxeState, side: Side, act: WirelessIntercepts) -> Verdict:
    return ALLOW if holds(state, side) else deny("12.1", "no-advantage", "you do not hold the Advantage")


def intercept(state: BattleaxeState, side: Side, act: WirelessIntercepts) -> Result:
    """19.1H: an Assault then a Regroup, or a Regroup then an Assault, in one Axis Impulse."""
    state = evolve(spend(state, side), intercepted=True)
    text = "Wireless Intercepts: the Axis spends the Advantage for another Impulse"
    used = event("wireless_intercepts", "19.1", text, side)
    if state.half_kind == "assault":
        state, more = regroup(state, side, Regroup())
        return state, [used, *more]
    return evolve(state, step="impulse"), [used]


def decline_intercepts(state: BattleaxeState, side: Side, act: NoIntercepts) -> Result:
    return end_half(evolve(state, intercepted=True), [])


ACTIONS = (
    declare(Assault, legal=assaults, can=can_assault, effect=assault),
    declare(Regroup, legal=sole(Regroup), can=can_regroup, effect=regroup),
    declare(Consolidate, legal=consolidations, can=can_consolidate, effect=consolidate),
    declare(Pass, legal=sole(Pass), can=can_pass, effect=pass_),
    declare(FuelShortage, legal=sole(FuelShortage), can=can_fuel_shortage, effect=fuel_shortage),
    declare(Rommel, legal=sole(Rommel), can=can_rommel, effect=rommel),
    declare(NoFuelShortage, legal=sole(NoFuelShortage), can=always, effect=no_fuel_shortage),
    declare(WirelessIntercepts, legal=sole(WirelessIntercepts), can=can_intercept, effect=intercept),
    declare(NoIntercepts, legal=sole(NoIntercepts), can=always, effect=decline_intercepts),
)
