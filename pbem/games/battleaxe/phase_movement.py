"""Movement in an Assault Impulse (9, 11.1's Mandatory Attacks, 9.1.2's second activation, 11.4.4's Overrun
step) and in a Regroup Impulse (8.1.2a)."""

from __future__ import annotations

from collections.abc import Iterable

from pbem.games.battleaxe.actions import Activate, EndAssault, EndOverrun, EndRegroup, Move, RegroupMove
from pbem.games.battleaxe.board import ALLIED, Side, enemy
from pbem.games.battleaxe.context import (
    Result,
    always,
    at,
    board,
    declare,
    event,
    impulse,
    release,
    settle_control,
    sole,
)
from pbem.games.battleaxe.phase_sunset import end_half
from pbem.games.battleaxe.situation import ALL_MF, Situation
from pbem.games.battleaxe.state import Assault, BattleaxeState, evolve
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = ["ACTIONS", "pending_mandatory"]


def pending_mandatory(state: BattleaxeState) -> list[str]:
    """11.1: locations entered this Impulse, enemy-occupied, not contested at its start, not yet attacked."""
    assault = impulse(state)
    s = at(state)
    return [
        loc
        for loc, units in assault.entered.items()
        if loc not in assault.contested_at_start
        and loc not in assault.attacked
        and units
        and s.where[loc][enemy(state.half)]
        and any(state.units[u].location == loc for u in units)
    ]


def _restricted(s: Situation, unit: str) -> Verdict:
    """16.1, 16.2: a unit of a division not yet released may not move."""
    row = s.board.restriction(unit, s.state.released)
    if row is None:
        return ALLOW
    return deny(row.rule, "restricted", f"{unit} may not move until its division is released")


# --- moving (9.1-9.3) -------------------------------------------------------------------------------------------
def moves(state: BattleaxeState, side: Side) -> Iterable[Move]:
    assault = impulse(state)
    if assault.overrun_target is not None:  # an Overrun is resolved before anything else
        for unit in assault.overrun_units:
            yield Move(unit=unit, to=assault.overrun_target)
        return
    adjacent = board(state).adjacent
    for unit in assault.active:
        here = state.units[unit].location
        if here is not None:
            for there in adjacent[here]:
                yield Move(unit=unit, to=there)


def can_move(state: BattleaxeState, side: Side, act: Move) -> Verdict:
    assault = impulse(state)
    unit, there = act.unit, act.to
    s = at(state)
    b = s.board
    if unit not in state.units or there not in b.locations:
        return deny("9.1", "unknown", f"unknown unit or location in {act}")
    here = state.units[unit].location
    overrun = unit in assault.overrun_units and assault.overrun_target is not None
    if assault.overrun_target is not None and not overrun:
        return deny("11.4.4", "overrun-first", "finish the Overrun first (its units move and attack, or end it)")
    if overrun and unit in assault.overrun_moved:
        return deny("11.4.4", "overrun-step", "an Overrun is one step")
    if not overrun and (unit not in assault.active or unit in assault.moved or unit in assault.attackers):
        return deny("9.1.1", "not-active", f"{unit} did not begin this Impulse in an Active Area or has acted")
    if overrun and there != assault.overrun_target:
        return deny("11.4.4", "overrun-target", f"an Overrun enters only {assault.overrun_target}")
    if here is None:
        return deny("9.1", "eliminated", f"{unit} is eliminated")
    if not (held := _restricted(s, unit)).ok:
        return held
    if there in b.escarpment[here]:
        return deny("9.3.2", "escarpment", f"{here}-{there} is an Escarpment boundary")
    if not b.linked(here, there):
        zone = b.is_zone(here) or b.is_zone(there)
        return deny("9.3.3" if zone else "3.1", "not-adjacent", f"{there} is not adjacent to {here}")
    if there in assault.attacked:
        return deny("9.2.1", "attacked", f"{there} has been attacked this Impulse")
    if s.full_for(side, there):
        return deny("7.1", "stacking", f"{there} already holds {b.stacking} {side} units")
    if overrun:
        return ALLOW  # RULING (notes A24): the Overrun step is always affordable
    if s.where[here][enemy(side)] and here not in assault.contested_at_start:
        return deny("9.2", "must-stop", f"{unit} entered an enemy-occupied Area and must stop")
    if assault.mover == unit:
        mf_left, spent = assault.mf_left, assault.spent
    else:
        mf_left, spent = s.mf(unit), False
        if here in assault.contested_at_start and not s.free_for(side, there):
            return deny("9.3.4", "contested-exit", "units leaving a Contested Area must first enter a Free Area")
    cost = s.move_cost(side, there)
    if mf_left <= 0:
        return deny("9.2", "no-mf", f"{unit} has no Movement Factors left")
    if cost == ALL_MF:
        # RULING (notes A8, option zone_entry): a Zone may be entered with any MF left, or only as a first move
        if spent and state.options["zone_entry"] == "first_move_only":
            return deny("9.2", "zone-entry", "a Zone is entered only with all of a unit's MF (first move)")
        return ALLOW
    if cost > mf_left and spent:
        return deny("9.2", "no-mf", f"entering {there} costs {cost} MF; {unit} has {mf_left} left")
    return ALLOW


def move(state: BattleaxeState, side: Side, act: Move) -> Result:
    assault = impulse(state)
    unit, there = act.unit, act.to
    s = at(state)
    piece = state.units[unit]
    here = piece.location
    if here is None:
        raise ValueError(f"{unit} is eliminated")
    overrun = unit in assault.overrun_units and assault.overrun_target is not None
    moved = assault.moved
    if assault.mover is not None and assault.mover != unit:
        moved = (*moved, assault.mover)  # units move one at a time (9.1): the previous move is over
    if overrun:
        mf_left = 0
    else:
        mf_left = assault.mf_left if assault.mover == unit else s.mf(unit)
        cost = s.move_cost(side, there)
        mf_left = 0 if cost == ALL_MF or cost > mf_left else mf_left - cost
    stop = mf_left <= 0 or bool(s.where[there][enemy(side)]) or overrun
    assault = evolve(
        assault,
        mover=None if stop else unit,
        mf_left=mf_left,
        spent=True,
        moved=(*moved, unit) if stop and not overrun else moved,
        overrun_moved=(*assault.overrun_moved, unit) if overrun else assault.overrun_moved,
        entered_from={**assault.entered_from, unit: here},
        entered={**assault.entered, there: (*assault.entered.get(there, ()), unit)},
    )
    state = evolve(state, units={**state.units, unit: piece.at(there)}, assault=assault)
    b = s.board
    text = f"{b.label(unit)} moves from {b.place(here)} to {b.place(there)}"
    events = [event("moved", "9.1", text, side, unit=unit, src=here, dst=there)]
    state, changed = settle_control(state, there)
    state, released = release(state, entered_zone=there if side == ALLIED else None)
    return state, [*events, *changed, *released]


# --- a second Active Area (9.1.2) -------------------------------------------------------------------------------
def _fresh(s: Situation, assault: Assault, side: Side, area: str) -> tuple[str, ...]:
    """The units of ``area`` that have not yet acted this Impulse (9.1.2: the same units never activate twice)."""
    return tuple(
        u
        for u in s.units_of(side, area)
        if not s.restricted(u)
        and u not in assault.moved
        and u not in assault.attackers
        and u not in assault.entered_from
    )


def activations(state: BattleaxeState, side: Side) -> Iterable[Activate]:
    assault = impulse(state)
    if assault.second_open and assault.overrun_target is None:
        for loc in board(state).locations:
            yield Activate(area=loc)


def can_activate(state: BattleaxeState, side: Side, act: Activate) -> Verdict:
    assault = impulse(state)
    area = act.area
    if not assault.second_open:
        return deny("9.1.2", "combined-operations", "no second Area may be activated this Impulse")
    if assault.overrun_target is not None:
        return deny("11.4.4", "overrun-first", "finish the Overrun first (its units move and attack, or end it)")
    s = at(state)
    if area in assault.areas or area not in s.board.locations:
        return deny("9.1.2", "combined-operations", "activate a different Area")
    if not _fresh(s, assault, side, area):
        return deny("9.1.2", "same-units", "the same units may not activate twice")
    if pending_mandatory(state):
        return deny("11.1", "mandatory-attack", "resolve the Mandatory Attack first")
    return ALLOW


def activate(state: BattleaxeState, side: Side, act: Activate) -> Result:
    assault = impulse(state)
    s = at(state)
    # 9.1.2 sequential: the first Area's activation is over once the second begins
    assault = evolve(
        assault,
        areas=(*assault.areas, act.area),
        mode="sequential",
        second_open=False,
        active=_fresh(s, assault, side, act.area),
        mover=None,
        moved=(*assault.moved, *assault.active),
    )
    text = f"Combined Operations: the Axis activates {s.board.place(act.area)}"
    return evolve(state, assault=assault), [event("second_activation", "9.1.2", text, side)]


# --- the end of an Overrun, of an Assault (11.1, 11.4.4, 8.1.1) -------------------------------------------------
def overrun_ends(state: BattleaxeState, side: Side) -> Iterable[EndOverrun]:
    if impulse(state).overrun_target is not None:
        yield EndOverrun()


def can_end_overrun(state: BattleaxeState, side: Side, act: EndOverrun) -> Verdict:
    assault = impulse(state)
    if assault.overrun_target is None:
        return deny("11.4.4", "no-overrun", "no Overrun is under way")
    if assault.overrun_target in pending_mandatory(state):
        return deny("11.1", "mandatory-attack", f"the Overrun entered {assault.overrun_target}: it must attack")
    return ALLOW


def end_overrun(state: BattleaxeState, side: Side, act: EndOverrun) -> Result:
    assault = evolve(impulse(state), overrun_units=(), overrun_target=None, overrun_moved=())
    return evolve(state, assault=assault), []


def assault_ends(state: BattleaxeState, side: Side) -> Iterable[EndAssault]:
    if impulse(state).overrun_target is None:
        yield EndAssault()


def can_end_assault(state: BattleaxeState, side: Side, act: EndAssault) -> Verdict:
    if impulse(state).overrun_target is not None:
        return deny("11.4.4", "overrun-first", "finish the Overrun first (its units move and attack, or end it)")
    if pending := pending_mandatory(state):
        where = ", ".join(board(state).place(a) for a in pending)
        return deny("11.1", "mandatory-attack", f"Mandatory Attack pending in {where}")
    return ALLOW


def end_assault(state: BattleaxeState, side: Side, act: EndAssault) -> Result:
    return end_half(state, [event("assault_ended", "8.1.1", f"{side.title()} ends the Assault", side)])


# --- Regroup (8.1.2a) -------------------------------------------------------------------------------------------
def regroup_moves(state: BattleaxeState, side: Side) -> Iterable[RegroupMove]:
    assault = impulse(state)
    b = board(state)
    for unit, piece in state.units.items():
        if piece.location is not None and b.side_of(unit) == side and unit not in assault.moved:
            for there in b.adjacent[piece.location]:
                yield RegroupMove(unit=unit, to=there)


def can_regroup_move(state: BattleaxeState, side: Side, act: RegroupMove) -> Verdict:
    assault = impulse(state)
    unit, there = act.unit, act.to
    s = at(state)
    b = s.board
    if unit not in state.units or there not in b.locations or b.side_of(unit) != side:
        return deny("8.1.2", "unknown", f"{unit} cannot regroup to {there}")
    here = state.units[unit].location
    if here is None or unit in assault.moved:
        return deny("8.1.2", "regrouped", f"{unit} is not on the map or has already regrouped")
    if not (held := _restricted(s, unit)).ok:
        return held
    if there in b.escarpment[here]:
        return deny("9.3.2", "escarpment", f"{here}-{there} is an Escarpment boundary")
    if not b.linked(here, there):
        return deny("8.1.2", "not-adjacent", f"{there} is not adjacent to {here}")
    if not s.free_for(side, there):
        return deny("8.1.2", "regroup-enemy", f"Regrouping units may not enter enemy-controlled or -occupied {there}")
    for ban in state.pack.tables.regroup_bans:
        if ban.side == side and ban.src == here and ban.dst == there and state.control[here] == ban.src_controlled_by:
            return deny("8.1.2", "halfaya-minefields", ban.text)
    if s.full_for(side, there):
        return deny("7.1", "stacking", f"{there} already holds {b.stacking} {side} units")
    return ALLOW


def regroup_move(state: BattleaxeState, side: Side, act: RegroupMove) -> Result:
    assault = impulse(state)
    unit, there = act.unit, act.to
    piece = state.units[unit]
    here = piece.location or ""
    state = evolve(
        state, units={**state.units, unit: piece.at(there)}, assault=evolve(assault, moved=(*assault.moved, unit))
    )
    b = board(state)
    text = f"{b.label(unit)} regroups from {b.place(here)} to {b.place(there)}"
    return state, [event("regrouped", "8.1.2", text, side, unit=unit, src=here, dst=there)]


def end_regroup(state: BattleaxeState, side: Side, act: EndRegroup) -> Result:
    return end_half(state, [])


ACTIONS = (
    declare(Move, legal=moves, can=can_move, effect=move),
    declare(Activate, legal=activations, can=can_activate, effect=activate),
    declare(EndOverrun, legal=overrun_ends, can=can_end_overrun, effect=end_overrun),
    declare(EndAssault, legal=assault_ends, can=can_end_assault, effect=end_assault),
    declare(RegroupMove, legal=regroup_moves, can=can_regroup_move, effect=regroup_move),
    declare(EndRegroup, legal=sole(EndRegroup), can=always, effect=end_regroup),
)
