"""The results of a combat (11.4.4): step losses, Attrition Points (11.5), retreats (11.1, 11.6) and the choice
of an Overrun (11.4.4), until the Assault goes on."""

from __future__ import annotations

from collections.abc import Iterable

from pbem.games.battleaxe import combat as cmb
from pbem.games.battleaxe.actions import Absorb, Decline, Overrun, Retreat, Stay
from pbem.games.battleaxe.board import ALLIED, Side, enemy
from pbem.games.battleaxe.context import (
    Result,
    always,
    at,
    board,
    combat,
    declare,
    event,
    impulse,
    release,
    settle_control,
    sole,
    step_loss,
)
from pbem.games.battleaxe.state import (
    ELIMINATED,
    Allocation,
    AttackerRetreat,
    BattleaxeState,
    decision,
    evolve,
    now,
)
from pbem.kit.machine import replace_top, top
from pbem.rules.contract import ALLOW, Event, Verdict, deny, updated

__all__ = ["ACTIONS", "settle"]


def _loss_event(state: BattleaxeState, unit: str, how: str, side: Side) -> Event:
    return event(f"unit_{how}", "11.4.4", f"{board(state).label(unit)} is {how}", side, unit=unit)


def settle(state: BattleaxeState) -> Result:
    """11.4.4: the losses of a Repulse, a Stalemate, a Success or an Overrun, then what follows them (the combat's
    pending entry is replaced by the next decision, or popped when the Assault goes on)."""
    fight = combat(state)
    lead, def_lead = fight.lead, fight.def_lead
    if lead is None or def_lead is None:
        raise ValueError("a combat is settled only once both lead units are chosen")
    attacker, defender = state.half, enemy(state.half)
    events: list[Event] = []
    if fight.outcome == "repulse":
        for unit in fight.attackers:
            state, how = step_loss(state, unit)
            events.append(_loss_event(state, unit, how, attacker))
        survivors = tuple(u for u in fight.attackers if state.units[u].location == fight.target)
        if fight.mandatory and survivors:  # 11.1: a repulsed Mandatory Attack retreats
            state, more = _auto_retreat(state, survivors)
            return state, events + more
        state, more = _voluntary(state)
        return state, events + more
    if fight.outcome == "stalemate":
        for unit, side in ((lead, attacker), (def_lead, defender)):
            state, how = step_loss(state, unit)
            events.append(_loss_event(state, unit, how, side))
        state, more = _voluntary(state)
        return state, events + more
    # success or overrun: the Lead Attacking Unit takes a step (notes A16, option success_reduced_lead)
    if state.units[lead].full or state.options["success_reduced_lead"] == "step":
        state, how = step_loss(state, lead)
        events.append(_loss_event(state, lead, how, attacker))
    if fight.outcome == "overrun":
        state = evolve(state, units={**state.units, **dict.fromkeys(fight.defenders, ELIMINATED)})
        events += [_loss_event(state, unit, "eliminated", defender) for unit in fight.defenders]
        state, more = _after_combat(state)
        return state, events + more
    return _allocation_or_next(state, events, Allocation(seat=defender, ap_left=combat(state).ap))


# --- Attrition Points (11.5) ------------------------------------------------------------------------------------
def _allocation_or_next(state: BattleaxeState, events: list[Event], allocation: Allocation) -> Result:
    if allocation.ap_left <= 0 or not _remaining(state, allocation.absorbed):
        state, more = _voluntary(state)
        return state, events + more
    return replace_top(state, allocation), events


def _remaining(state: BattleaxeState, absorbed: dict[str, str]) -> list[str]:
    """The defenders still to absorb Attrition Points: in the combat's location, not yet absorbed (11.5)."""
    fight = combat(state)
    return [u for u in fight.defenders if u not in absorbed and state.units[u].location == fight.target]


def _absorb_options(
    state: BattleaxeState, units: list[str], absorbed: dict[str, str]
) -> dict[str, dict[cmb.Loss, int]]:
    """How each of ``units`` may absorb AP, and how many each way absorbs (11.5, 11.5.1)."""
    fight = combat(state)
    s = at(state)
    can_retreat = bool(s.retreat_options(enemy(state.half), fight.target))
    flip_and_retreat = bool(state.options["flip_and_retreat"])
    return {
        unit: cmb.loss_options(
            s,
            unit,
            lead=unit == fight.def_lead and unit not in absorbed,
            flip_and_retreat=flip_and_retreat,
            can_retreat=can_retreat,
        )
        for unit in units
    }


def absorptions(state: BattleaxeState, side: Side) -> Iterable[Absorb]:
    fight, absorbed = combat(state), top(state, Allocation).absorbed
    options = at(state).retreat_options(side, fight.target)
    for unit, losses in _absorb_options(state, _remaining(state, absorbed), absorbed).items():
        for loss in losses:
            for to in options if loss in ("retreat", "flip_retreat") else (None,):
                yield Absorb(unit=unit, loss=loss, to=to)


def can_absorb(state: BattleaxeState, side: Side, act: Absorb) -> Verdict:
    fight, allocation = combat(state), top(state, Allocation)
    absorbed = allocation.absorbed
    unit, loss, to = act.unit, act.loss, act.to
    if unit not in fight.defenders or unit in absorbed or state.units[unit].location != fight.target:
        return deny("11.5", "not-defender", f"{unit} is not a defending unit still to absorb AP")
    if fight.def_lead not in absorbed and unit != fight.def_lead:
        return deny("11.5", "lead-first", "the Lead Defending Unit absorbs the first Attrition Point")
    others = [u for u in _remaining(state, absorbed) if u != unit]
    table = _absorb_options(state, [unit, *others], absorbed)
    options = table[unit]
    if loss not in options:
        german = "11.5.1" if state.units[unit].full and loss == "retreat" else "11.5"
        what = str(loss).replace("_", " ")
        return deny(german, "loss", f"{board(state).label(unit)} cannot absorb AP by {what}")
    retreat = loss in ("retreat", "flip_retreat")
    if retreat != (to is not None) or (retreat and to not in at(state).retreat_options(side, fight.target)):
        return deny("11.6.2", "retreat-priority", f"{to} is not a retreat destination the priorities allow")
    sets = [table[u].values() for u in others]
    need = min(allocation.ap_left, sum(max(losses.values()) for losses in table.values()))
    target = cmb.goal(need, [options.values(), *sets])
    if (target - options[loss]) not in cmb.achievable(sets):
        return deny("11.5", "exact-losses", f"exact losses must be applied whenever possible ({target} AP)")
    return ALLOW


def absorb(state: BattleaxeState, side: Side, act: Absorb) -> Result:
    allocation = top(state, Allocation)
    unit, loss, to = act.unit, act.loss, act.to
    value = _absorb_options(state, [unit], allocation.absorbed)[unit][loss]
    piece = state.units[unit]
    if loss == "eliminate":
        piece = ELIMINATED
    elif loss == "flip":
        piece = piece.reduced()
    elif loss == "retreat" and to is not None:
        piece = piece.at(to)
    elif loss == "flip_retreat" and to is not None:
        piece = piece.reduced().at(to)
    allocation = updated(
        allocation, {"absorbed": {**allocation.absorbed, unit: loss}, "ap_left": allocation.ap_left - value}
    )
    state = evolve(state, units={**state.units, unit: piece})
    b = board(state)
    words = {
        "eliminate": "is eliminated",
        "flip": "is reduced",
        "retreat": f"retreats to {b.place(to or '')}",
        "flip_retreat": f"is reduced and retreats to {b.place(to or '')}",
        "none": "takes no loss",
    }
    text = f"{b.label(unit)} {words[loss]} ({value} AP)"
    absorbed = event("attrition_absorbed", "11.5", text, side, unit=unit, loss=loss, ap=value, to=to)
    return _allocation_or_next(state, [absorbed], allocation)


# --- retreats (11.1, 11.6) --------------------------------------------------------------------------------------
def _attacker_destinations(state: BattleaxeState, unit: str) -> tuple[str, ...]:
    s = at(state)
    origin = impulse(state).entered_from.get(unit)
    if origin is not None and not s.full_for(state.half, origin):
        return (origin,)  # 11.6: back into the Area they came from
    return s.retreat_options(state.half, combat(state).target)


def _auto_retreat(state: BattleaxeState, retreating: tuple[str, ...]) -> Result:
    """Retreat attackers that have one choice (or none: eliminated, 11.6.4), in order; ask about the rest."""
    events: list[Event] = []
    while retreating:
        unit = retreating[0]
        options = _attacker_destinations(state, unit)
        if len(options) > 1:
            return replace_top(state, AttackerRetreat(seat=state.half, units=retreating)), events
        state, done = _retreat_attacker(state, unit, options[0] if options else None)
        retreating = retreating[1:]
        events.append(done)
    state, more = _voluntary(state)
    return state, events + more


def _retreat_attacker(state: BattleaxeState, unit: str, to: str | None) -> tuple[BattleaxeState, Event]:
    piece = ELIMINATED if to is None else state.units[unit].at(to)
    state = evolve(state, units={**state.units, unit: piece})
    b = board(state)
    if to is None:
        text = f"{b.label(unit)} cannot retreat and is eliminated"
        return state, event("unit_eliminated", "11.6.4", text, state.half, unit=unit)
    return state, event("retreated", "11.6", f"{b.label(unit)} retreats to {b.place(to)}", state.half, unit=unit, to=to)


def _voluntary_units(state: BattleaxeState) -> list[str]:
    """11.6.3: defenders that may still withdraw (never Full-Strength Allied units)."""
    target = combat(state).target
    side = enemy(state.half)
    s = at(state)
    if not s.retreat_options(side, target):
        return []
    return [u for u in s.units_of(side, target) if not (side == ALLIED and state.units[u].full)]


def _voluntary(state: BattleaxeState) -> Result:
    if _voluntary_units(state):
        return replace_top(state, decision("voluntary_retreat", enemy(state.half))), []
    return _after_combat(state)


def retreats(state: BattleaxeState, side: Side) -> Iterable[Retreat]:
    fight = combat(state)
    if now(state) == "attacker_retreat":
        for unit in top(state, AttackerRetreat).units[:1]:
            for to in _attacker_destinations(state, unit):
                yield Retreat(unit=unit, to=to)
        return
    for unit in _voluntary_units(state):
        for to in at(state).retreat_options(side, fight.target):
            yield Retreat(unit=unit, to=to)


def can_retreat(state: BattleaxeState, side: Side, act: Retreat) -> Verdict:
    fight = combat(state)
    unit, to = act.unit, act.to
    if now(state) == "attacker_retreat":
        if top(state, AttackerRetreat).units[:1] != (unit,):
            return deny("11.6.1", "one-at-a-time", "units retreat one at a time, in order")
        if to not in _attacker_destinations(state, unit):
            return deny("11.6", "retreat-priority", f"{unit} may not retreat to {to}")
        return ALLOW
    if unit not in _voluntary_units(state):
        return deny("11.6.3", "voluntary", f"{unit} may not retreat voluntarily")
    if to not in at(state).retreat_options(side, fight.target):
        return deny("11.6.2", "retreat-priority", f"{to} is not a destination the priorities allow")
    return ALLOW


def retreat(state: BattleaxeState, side: Side, act: Retreat) -> Result:
    unit, to = act.unit, act.to
    if now(state) == "attacker_retreat":
        rest = tuple(u for u in top(state, AttackerRetreat).units if u != unit)
        state, done = _retreat_attacker(state, unit, to)
        state, more = _auto_retreat(state, rest)
        return state, [done, *more]
    state = evolve(state, units={**state.units, unit: state.units[unit].at(to)})
    b = board(state)
    done = event("retreated", "11.6.3", f"{b.label(unit)} withdraws to {b.place(to)}", side, unit=unit, to=to)
    if not _voluntary_units(state):
        state, more = _after_combat(state)
        return state, [done, *more]
    return state, [done]


def stay(state: BattleaxeState, side: Side, act: Stay) -> Result:
    return _after_combat(state)


def _after_combat(state: BattleaxeState) -> Result:
    """7.2, 16: control and releases after the combat; then an Overrun's choice, or the Assault goes on."""
    fight, assault = combat(state), impulse(state)
    state, events = settle_control(state, fight.target)
    state, released = release(state)
    events += released
    overrun = fight.outcome == "overrun" and not fight.overrun
    survivors = tuple(u for u in fight.attackers if state.units[u].location == fight.target)
    assault = evolve(assault, overrun_units=(), overrun_target=None, overrun_moved=())
    if overrun and survivors:
        state = evolve(state, assault=evolve(assault, overrun_units=survivors))
        return replace_top(state, decision("overrun", state.half)), events
    return replace_top(evolve(state, combat=None, assault=assault), None), events


# --- Overrun (11.4.4) -------------------------------------------------------------------------------------------
def overruns(state: BattleaxeState, side: Side) -> Iterable[Overrun]:
    for there in board(state).adjacent[combat(state).target]:
        yield Overrun(target=there)


def can_overrun(state: BattleaxeState, side: Side, act: Overrun) -> Verdict:
    target = combat(state).target
    there = act.target
    b = board(state)
    if there not in b.adjacent[target]:
        rule = "9.3.2" if there in b.escarpment[target] else "11.4.4"
        return deny(rule, "not-adjacent", f"{b.place(there)} is not adjacent to {b.place(target)}")
    if there in impulse(state).attacked:
        return deny("9.2.1", "attacked", f"{there} has been attacked this Impulse")
    if at(state).full_for(side, there):
        return deny("7.1", "stacking", f"{there} already holds {b.stacking} {side} units")
    return ALLOW


def overrun(state: BattleaxeState, side: Side, act: Overrun) -> Result:
    # 11.4.4: the survivors may enter ONE adjacent location; the first combat's artillery may follow them
    artillery = combat(state).attacker_artillery_ok
    assault = evolve(
        impulse(state), overrun_target=act.target, mover=None, overrun_moved=(), overrun_artillery=artillery
    )
    state = replace_top(evolve(state, assault=assault, combat=None), None)
    text = f"Overrun: units may move into {board(state).place(act.target)} and attack once more"
    return state, [event("overrun", "11.4.4", text, side, target=act.target)]


def decline(state: BattleaxeState, side: Side, act: Decline) -> Result:
    assault = evolve(impulse(state), overrun_units=(), overrun_target=None)
    return replace_top(evolve(state, assault=assault, combat=None), None), []


ACTIONS = (
    declare(Absorb, legal=absorptions, can=can_absorb, effect=absorb),
    declare(Retreat, legal=retreats, can=can_retreat, effect=retreat),
    declare(Stay, legal=sole(Stay), can=always, effect=stay),
    declare(Overrun, legal=overruns, can=can_overrun, effect=overrun),
    declare(Decline, legal=sole(Decline), can=always, effect=decline),
)
