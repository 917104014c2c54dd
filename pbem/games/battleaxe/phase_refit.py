"""The end of the Maneuvers Phase: supply (14.2); the Refit Phase (13, 19.1G); Surrender checks (14.2.3)."""

from __future__ import annotations

from collections.abc import Iterable

from pbem.games.battleaxe.actions import EndRefit, Flip, IncreaseReplacements, Rebuild, Recover, TigerCubs
from pbem.games.battleaxe.board import ALLIED, AXIS, Side, enemy
from pbem.games.battleaxe.context import (
    Result,
    always,
    at,
    board,
    declare,
    event,
    holds,
    request,
    roll,
    shift_advantage,
    sole,
    spend,
    step_loss,
)
from pbem.games.battleaxe.phase_end import end_phase
from pbem.games.battleaxe.state import BattleaxeState, DiceWait, Refit, UnitState, evolve
from pbem.kit.machine import pop, push, top
from pbem.rules.contract import ALLOW, Event, Verdict, deny

__all__ = ["ACTIONS", "end_maneuvers", "surrender"]


# --- end of the Maneuvers Phase: supply (14.2) ------------------------------------------------------------------
def end_maneuvers(state: BattleaxeState, events: list[Event]) -> Result:
    """6.2.1, 14.2: night falls; supply is marked and cut-off locations change hands; the Allies refit first."""
    state, shifted = shift_advantage(state)
    night = event("maneuvers_ended", "6.2.1", f"Night falls after Impulse {state.impulse}")
    events = [*events, *shifted, night]
    state = evolve(state, fuel_low=False, rommel=False, sunset=None, assault=None)
    s = at(state)
    b = s.board
    # RULING (notes A53): one snapshot: unit supply and area flips are computed before any flip applies
    units = {}
    for unit, piece in state.units.items():
        side = b.side_of(unit)
        oos = piece.location is not None and not s.in_supply(side, piece.location)
        units[unit] = piece if piece.oos == oos else piece.marked(oos)
        if oos and not piece.oos:
            events.append(event("out_of_supply", "14.2", f"{b.label(unit)} is Out of Supply", side, unit=unit))
    control = dict(state.control)
    for loc, owner in state.control.items():
        if not s.where[loc][owner] and not s.in_supply(owner, loc):  # 14.2.4
            control[loc] = enemy(owner)
            text = f"{b.place(loc)} is cut off and passes to {enemy(owner)} control"
            events.append(event("control_changed", "14.2.4", text, enemy(owner), location=loc))
    refit = Refit(side=ALLIED, rp=state.pack.limit("replacement_points"))
    state = evolve(state, units=units, control=control, phase="refit", step="refit", refit=refit)
    return state, events


# --- Refit (13) -------------------------------------------------------------------------------------------------
def _refit(state: BattleaxeState) -> Refit:
    """The Refit under way (the ``refit`` step always has one)."""
    if state.refit is None:
        raise ValueError(f"no Refit under way in step {state.step}")
    return state.refit


def _reduced(state: BattleaxeState, side: Side) -> Iterable[str]:
    b = board(state)
    return (u for u, p in state.units.items() if b.side_of(u) == side and p.location is not None and not p.full)


def can_increase(state: BattleaxeState, side: Side, act: IncreaseReplacements) -> Verdict:
    return ALLOW if holds(state, side) else deny("12.1", "no-advantage", "you do not hold the Advantage")


def increase(state: BattleaxeState, side: Side, act: IncreaseReplacements) -> Result:
    refit = _refit(state)
    extra = state.pack.limit("advantage_extra_rp")
    state = evolve(spend(state, side), refit=evolve(refit, rp=refit.rp + extra))
    return state, [
        event("increased_replacements", "12.1", f"{side.title()} spends the Advantage for +{extra} RP", side)
    ]


def _unit_ok(state: BattleaxeState, side: Side, unit: str, rule: str) -> Verdict:
    """13.3.1: a Reduced-Strength unit of ``side`` on the map, in supply when flipping needs it."""
    b = board(state)
    if unit not in state.units or b.side_of(unit) != side:
        return deny(rule, "unknown", f"{unit} is not a {side} unit")
    piece = state.units[unit]
    if piece.location is None or piece.full:
        return deny(rule, "not-reduced", f"{unit} is not a Reduced-Strength unit on the map")
    # RULING (notes A54, A55, option free_flip_needs_supply): flipping needs supply (13.3.1)
    if not at(state).in_supply(side, piece.location) and (rule == "13.3.2" or state.options["free_flip_needs_supply"]):
        return deny("13.3.1", "no-supply", f"{unit} cannot trace supply")
    return ALLOW


def flips(state: BattleaxeState, side: Side) -> Iterable[Flip]:
    return (Flip(unit=u) for u in _reduced(state, side))


def can_flip(state: BattleaxeState, side: Side, act: Flip) -> Verdict:
    refit = _refit(state)
    verdict = _unit_ok(state, side, act.unit, "13.3.2")
    if not verdict.ok:
        return verdict
    if refit.flips_left <= 0 and refit.rp <= 0:
        return deny("13.3.2", "no-rp", "no Replacement Points left")
    return ALLOW


def flip(state: BattleaxeState, side: Side, act: Flip) -> Result:
    refit = _refit(state)
    if refit.flips_left > 0:
        refit = evolve(refit, flips_left=refit.flips_left - 1)
    else:
        refit = evolve(refit, rp=refit.rp - 1, flips_left=state.pack.limit("flips_per_rp") - 1)
    units = {**state.units, act.unit: state.units[act.unit].refitted()}
    text = f"{board(state).label(act.unit)} is back to Full Strength"
    return evolve(state, units=units, refit=refit), [event("unit_refitted", "13.3.2", text, side, unit=act.unit)]


def recoveries(state: BattleaxeState, side: Side) -> Iterable[Recover]:
    return (Recover(unit=u) for u in _reduced(state, side))


def can_recover(state: BattleaxeState, side: Side, act: Recover) -> Verdict:
    refit = _refit(state)
    if act.unit not in state.units or side != AXIS or board(state).kind(act.unit) != "armor":
        return deny("13.3.5", "recovery", "Battlefield Recovery flips one Axis Armored unit")
    if refit.recovered:
        return deny("13.3.5", "recovered", "one Battlefield Recovery per Axis Refit Phase")
    return _unit_ok(state, side, act.unit, "13.3.5")


def recover(state: BattleaxeState, side: Side, act: Recover) -> Result:
    refit = _refit(state)
    units = {**state.units, act.unit: state.units[act.unit].refitted()}
    state = evolve(state, units=units, refit=evolve(refit, recovered=True))
    text = f"{board(state).label(act.unit)} recovers to Full Strength"
    return state, [event("battlefield_recovery", "13.3.5", text, side, unit=act.unit)]


def cubs(state: BattleaxeState, side: Side) -> Iterable[TigerCubs]:
    return (TigerCubs(unit=u) for u in _reduced(state, side))


def can_tiger_cubs(state: BattleaxeState, side: Side, act: TigerCubs) -> Verdict:
    if not state.options["tiger_cubs"]:
        return deny("19.1", "optional", "Additional Tiger Cubs is an optional rule not in play")
    if act.unit not in state.units or side != ALLIED or board(state).kind(act.unit) != "armor":
        return deny("19.1", "tiger-cubs", "Tiger Cubs flip one Allied Armored unit")
    if not holds(state, side):
        return deny("19.1", "no-advantage", "Tiger Cubs are paid for with the Advantage")
    return _unit_ok(state, side, act.unit, "19.1")


def tiger_cubs(state: BattleaxeState, side: Side, act: TigerCubs) -> Result:
    refit = _refit(state)
    units = {**state.units, act.unit: state.units[act.unit].refitted()}
    state = evolve(spend(state, side), units=units, refit=evolve(refit, tiger_cubs=True))
    text = f"Tiger Cubs: {board(state).label(act.unit)} is back to Full Strength"
    return state, [event("tiger_cubs", "19.1", text, side, unit=act.unit)]


def rebuilds(state: BattleaxeState, side: Side) -> Iterable[Rebuild]:
    b = board(state)
    for unit, piece in state.units.items():
        if piece.location is None and b.side_of(unit) == side:
            for loc in b.locations:
                yield Rebuild(unit=unit, to=loc)


def can_rebuild(state: BattleaxeState, side: Side, act: Rebuild) -> Verdict:
    refit = _refit(state)
    b = board(state)
    unit, to = act.unit, act.to
    if unit not in state.units or b.side_of(unit) != side or state.units[unit].location is not None:
        return deny("13.3.2", "not-eliminated", f"{unit} is not an eliminated {side} unit")
    if refit.rp <= 0:
        return deny("13.3.2", "no-rp", "no Replacement Points left")
    if to not in b.locations:
        return deny("13.3.3", "unknown", f"unknown location {to}")
    rule = "13.3.3" if side == ALLIED else "13.3.4"
    s = at(state)
    tobruk = state.pack.role("tobruk_rebuild")
    if side == ALLIED and ((to in tobruk) != b.units[unit].tobruk_origin):
        return deny("13.3.3", "tobruk", "only units that set up in Zone H are rebuilt there, and only there")
    if state.control[to] != side or (
        s.contested(to) and not (to in tobruk and state.options["zone_h_rebuild_ignores_contest"])
    ):
        return deny(rule, "rebuild-place", f"{to} is not a friendly-controlled, uncontested location")
    if not s.in_supply(side, to):
        return deny(rule, "no-supply", f"{to} is not supplied")
    if s.full_for(side, to):
        return deny("7.1", "stacking", f"{to} already holds {b.stacking} {side} units")
    return ALLOW


def rebuild(state: BattleaxeState, side: Side, act: Rebuild) -> Result:
    refit = _refit(state)
    units = {**state.units, act.unit: UnitState(location=act.to, full=False)}
    state = evolve(state, units=units, refit=evolve(refit, rp=refit.rp - 1))
    b = board(state)
    text = f"{b.label(act.unit)} is rebuilt in {b.place(act.to)}"
    return state, [event("unit_rebuilt", "13.3.2", text, side, unit=act.unit, to=act.to)]


def end_refit(state: BattleaxeState, side: Side, act: EndRefit) -> Result:
    if side == ALLIED:  # 13.1: then the Axis refits; unspent RP are lost (13.4)
        return evolve(state, refit=Refit(side=AXIS, rp=state.pack.limit("replacement_points"))), []
    oos = tuple(u for u, p in state.units.items() if p.oos and p.location is not None)
    state = evolve(state, refit=None)
    if oos:  # 14.2.3: Surrender checks at the end of the Refit Phase
        checks = roll(state, "surrender", "Surrender checks", times=len(oos))
        return push(state, DiceWait(kind="surrender", seat=side, units=oos)).with_rolls(request(checks)), []
    return end_phase(state, [])


def surrender(state: BattleaxeState, rolls: tuple[int, ...]) -> Result:
    """14.2.3: each Out of Supply unit loses a step on a low dr (+1 while its side holds the Advantage)."""
    events = []
    b = board(state)
    loss = b.die_results["surrender_step_loss"]
    units = top(state, DiceWait).units
    state = pop(state)
    for unit, face in zip(units, rolls, strict=True):
        side = b.side_of(unit)
        # RULING (notes A57): a spent Advantage belongs to nobody, so it gives neither side the +1
        modified = face + (b.die_mods["surrender_advantage"].value if holds(state, side) else 0)
        if loss.min <= modified <= loss.max:
            state, how = step_loss(state, unit)
            text = f"{b.label(unit)} surrenders a step (dr {face})"
            events.append(event(f"unit_{how}", "14.2.3", text, side, unit=unit))
        else:
            text = f"{b.label(unit)} holds out (dr {face})"
            events.append(event("surrender_passed", "14.2.3", text, side, unit=unit))
    return end_phase(state, events)


ACTIONS = (
    declare(IncreaseReplacements, legal=sole(IncreaseReplacements), can=can_increase, effect=increase),
    declare(Flip, legal=flips, can=can_flip, effect=flip),
    declare(Recover, legal=recoveries, can=can_recover, effect=recover),
    declare(TigerCubs, legal=cubs, can=can_tiger_cubs, effect=tiger_cubs),
    declare(Rebuild, legal=rebuilds, can=can_rebuild, effect=rebuild),
    declare(EndRefit, legal=sole(EndRefit), can=always, effect=end_refit),
)
