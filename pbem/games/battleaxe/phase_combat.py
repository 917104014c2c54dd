"""Combat (10, 11.0-11.4, 12.1A-B): declaring an attack and its supports, the defender's response, the dice and
the result, and the Advantage spent on it (Maximum Attack, Fanatical Defense). :mod:`.phase_losses` settles it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pbem.games.battleaxe import combat as cmb
from pbem.games.battleaxe.actions import Accept, Attack, Defend, FanaticalDefense, Join, Lead, MaximumAttack, Support
from pbem.games.battleaxe.board import ALLIED, AXIS, Side, enemy
from pbem.games.battleaxe.context import (
    Result,
    always,
    at,
    board,
    combat,
    declare,
    event,
    holds,
    impulse,
    luftwaffe,
    request,
    roll,
    sole,
    spend,
)
from pbem.games.battleaxe.phase_losses import settle
from pbem.games.battleaxe.state import (
    BattleaxeState,
    Combat,
    CombatResult,
    StateChanges,
    decision,
    evolve,
    now,
    waiting,
)
from pbem.kit.machine import push, replace_top
from pbem.rules.contract import ALLOW, Event, Verdict, deny

__all__ = ["ACTIONS", "attacker_artillery", "resolve"]


# --- declaring an attack (11.0-11.3) ----------------------------------------------------------------------------
def _eligible_attackers(state: BattleaxeState, target: str) -> tuple[str, ...]:
    """The units that may attack ``target``: those that entered it, or began in it when it was contested (11.3)."""
    assault = impulse(state)
    overrun = target == assault.overrun_target
    found = []
    for unit in at(state).units_of(state.half, target):
        if unit in assault.attackers and not (overrun and unit in assault.overrun_moved):
            continue
        if unit in assault.entered.get(target, ()):
            found.append(unit)
        elif unit in assault.active and unit not in assault.moved and target in assault.contested_at_start:
            found.append(unit)  # 11.3: units starting in a Contested Active Area attack without moving
    return tuple(found)


def attacks(state: BattleaxeState, side: Side) -> Iterable[Attack]:
    assault = impulse(state)
    if assault.overrun_target is not None:  # an Overrun is resolved before anything else
        yield Attack(target=assault.overrun_target)
        return
    for loc in board(state).locations:
        yield Attack(target=loc)


def can_attack(state: BattleaxeState, side: Side, act: Attack) -> Verdict:
    assault = impulse(state)
    target = act.target
    s = at(state)
    if target not in s.board.locations:
        return deny("11.0", "unknown", f"unknown location {target}")
    if not s.where[target][enemy(side)]:
        return deny("11.0", "no-enemy", f"no enemy unit in {target}")
    if target in assault.attacked:
        return deny("9.2.1", "attacked", f"{target} has already been attacked this Impulse")
    if assault.overrun_target is not None and target != assault.overrun_target:
        return deny("11.4.4", "overrun-target", f"the Overrun may attack only {assault.overrun_target}")
    if not _eligible_attackers(state, target):
        return deny("11.0", "no-attackers", f"no unit that began in an Active Area may attack {target}")
    return ALLOW


def attack(state: BattleaxeState, side: Side, act: Attack) -> Result:
    assault = impulse(state)
    target = act.target
    mandatory = target not in assault.contested_at_start
    forced = tuple(u for u in _eligible_attackers(state, target) if u in assault.entered.get(target, ()))
    overrun = target == assault.overrun_target
    fight = Combat(
        target=target,
        attackers=forced if mandatory else (),
        mandatory=mandatory,
        contested_at_start=not mandatory,
        overrun=overrun,
        attacker_artillery_ok=overrun and assault.overrun_artillery,
    )
    if assault.mover is not None:
        assault = evolve(assault, mover=None, moved=(*assault.moved, assault.mover))
    state = evolve(state, step="declare", combat=fight, assault=assault)
    kind = "Mandatory Attack" if mandatory else "attack"
    text = f"{side.title()} {kind} on {board(state).place(target)}"
    return state, [event("attack_declared", "11.1" if mandatory else "11.2", text, side, target=target)]


# --- the attackers, the lead and the supports (11.4.2, 10) ------------------------------------------------------
def joins(state: BattleaxeState, side: Side) -> Iterable[Join]:
    return (Join(unit=u) for u in _eligible_attackers(state, combat(state).target))


def can_join(state: BattleaxeState, side: Side, act: Join) -> Verdict:
    fight = combat(state)
    if fight.lead is not None:
        return deny("11.4.2", "declared", "the attackers are declared once the lead is chosen")
    if act.unit in fight.attackers or act.unit not in _eligible_attackers(state, fight.target):
        return deny("11.2", "not-eligible", f"{act.unit} may not join this attack")
    return ALLOW


def join(state: BattleaxeState, side: Side, act: Join) -> Result:
    fight = combat(state)
    return evolve(state, combat=evolve(fight, attackers=(*fight.attackers, act.unit))), []


def leads(state: BattleaxeState, side: Side) -> Iterable[Lead]:
    return (Lead(unit=u) for u in _eligible_attackers(state, combat(state).target))


def can_lead(state: BattleaxeState, side: Side, act: Lead) -> Verdict:
    fight = combat(state)
    unit = act.unit
    if fight.lead is not None:
        return deny("11.4.2", "declared", "the lead is already chosen")
    attackers = fight.attackers if unit in fight.attackers else (*fight.attackers, unit)
    if unit not in fight.attackers and unit not in _eligible_attackers(state, fight.target):
        return deny("11.4.2", "not-eligible", f"{unit} may not attack here")
    b = board(state)
    if b.is_anti_tank(unit) and not all(b.is_anti_tank(u) for u in attackers):
        return deny("10.3", "at-lead", "an AT/FLAK unit may not be the Lead Attacking Unit")
    return ALLOW


def lead(state: BattleaxeState, side: Side, act: Lead) -> Result:
    fight = combat(state)
    attackers = fight.attackers if act.unit in fight.attackers else (*fight.attackers, act.unit)
    return evolve(state, combat=evolve(fight, lead=act.unit, attackers=attackers)), []


def supports(state: BattleaxeState, side: Side) -> Iterable[Support]:
    for air in (False, True):
        for rommel in (False, True):
            for artillery in (False, True):
                yield Support(air=air, rommel=rommel, artillery=artillery)


def can_support(state: BattleaxeState, side: Side, act: Support) -> Verdict:
    fight, assault = combat(state), impulse(state)
    if fight.lead is None:
        return deny("11.4.2", "no-lead", "choose the Lead Attacking Unit first")
    if act.air:
        if side == AXIS and not luftwaffe(state):
            return deny("10.1", "no-air", "the Axis has no Air Support (optional 19.2 from June 16)")
        if not state.air_ready[side] or (assault.air_used and not fight.overrun):
            return deny("10.1.1", "air-used", "Air Support is committed once per Assault Impulse")
    if act.rommel:
        if side != AXIS or not state.rommel:
            return deny("12.1", "no-rommel", "Rommel is not at the front (spend the Advantage, 12.1E)")
        if assault.rommel_used:
            return deny("12.1", "rommel-used", "Rommel adds to one Axis attack per Impulse")
    if act.artillery and not fight.overrun and state.artillery[side] <= 0:
        return deny("10.2", "no-artillery", f"the {side} player has no Artillery Support marker left this turn")
    if act.artillery and fight.overrun and not fight.attacker_artillery_ok:
        return deny("11.4.4", "no-artillery", "only artillery placed in the first combat carries over")
    return ALLOW


def support(state: BattleaxeState, side: Side, act: Support) -> Result:
    fight, assault = combat(state), impulse(state)
    if fight.overrun:  # 11.4.4: the first combat's artillery is assigned again, without a new call
        carried = act.artillery and fight.attacker_artillery_ok
        fight = evolve(fight, air=act.air, rommel=False, artillery=False, attacker_artillery_ok=carried)
    else:
        fight = evolve(fight, air=act.air, rommel=act.rommel, artillery=act.artillery, attacker_artillery_ok=False)
    assault = evolve(
        assault,
        air_used=assault.air_used or act.air,
        rommel_used=assault.rommel_used or act.rommel,
        attackers=(*assault.attackers, *fight.attackers),
        attacked=(*assault.attacked, fight.target),
    )
    used = [k for k, on in (("air", act.air), ("rommel", act.rommel), ("artillery", act.artillery)) if on]
    b = board(state)
    text = f"{len(fight.attackers)} unit(s) led by {b.label(fight.lead or '')} attack {b.place(fight.target)}"
    text += f" with {', '.join(used)}" if used else ""
    events = [
        event("attack_committed", "11.4.2", text, side, attackers=list(fight.attackers), lead=fight.lead, supports=used)
    ]
    # the attack is committed: the Assault step waits for the combat, one pending entry until its last retreat
    state = evolve(state, combat=fight, assault=assault, step="assault")
    if fight.artillery:
        call = roll(state, "artillery_call", f"{side} artillery call", id="artillery")
        return push(state, waiting("attacker_artillery", side)).with_rolls(request(call)), events
    return push(state, decision("defend", enemy(side))), events


# --- the defender's response (11.4.3, 10.2.1) -------------------------------------------------------------------
def defences(state: BattleaxeState, side: Side) -> Iterable[Defend]:
    for unit in at(state).units_of(side, combat(state).target):
        for artillery in (False, True):
            yield Defend(lead=unit, artillery=artillery)


def can_defend(state: BattleaxeState, side: Side, act: Defend) -> Verdict:
    target = combat(state).target
    if act.lead not in at(state).units_of(side, target):
        return deny("11.4.3", "lead", f"the Lead Defending Unit must be in {board(state).place(target)}")
    if act.artillery and state.artillery[side] <= 0:
        return deny("10.2", "no-artillery", f"the {side} player has no Artillery Support marker left this turn")
    return ALLOW


def defend(state: BattleaxeState, side: Side, act: Defend) -> Result:
    fight = combat(state)
    defenders = at(state).units_of(side, fight.target)
    fight = evolve(fight, def_lead=act.lead, def_artillery=act.artillery, defenders=defenders)
    rolls = [
        roll(state, "combat", f"{state.half} combat DR", id="attack"),
        roll(state, "combat", f"{side} combat DR", id="defense"),
    ]
    if fight.def_artillery:
        rolls.append(roll(state, "artillery_call", f"{side} artillery call", id="defender_artillery"))
    if fight.air:
        rolls.append(roll(state, "air_support", f"{state.half} air support", id="air"))
    if fight.rommel:
        rolls.append(roll(state, "rommel", "Rommel"))
    text = f"{board(state).label(act.lead)} leads the defense" + (", calling artillery" if act.artillery else "")
    state = replace_top(evolve(state, combat=fight), waiting("combat", state.half))
    return state.with_rolls(request(*rolls)), [event("defense_declared", "11.4.3", text, side, lead=act.lead)]


# --- the dice (10.2.1, 11.4) ------------------------------------------------------------------------------------
def _artillery_ok(state: BattleaxeState, side: Side, face: int, target: str) -> bool:
    """10.2.1: a call succeeds on the pack's artillery_available roll; +1 for an Axis call in an Axis-controlled
    Stützpunkt.

    RULING (notes A22, option axis_stutzpunkt_artillery): the +1 applies to any Axis call there, or with
    ``defense_only`` only when the Axis defends.
    """
    b = board(state)
    modifier = 0
    stutzpunkt = side == AXIS and b.locations[target].terrain == "stutzpunkt" and state.control[target] == AXIS
    if stutzpunkt and (state.options["axis_stutzpunkt_artillery"] == "always" or side != state.half):
        modifier = b.die_mods["artillery_axis_stutzpunkt"].value
    success = b.die_results["artillery_available"]
    return face + modifier >= success.min


def _called(side: Side, face: int, ok: bool) -> Event:
    text = f"{side.title()} artillery call: {face}, " + ("support arrives" if ok else "no support")
    return event("artillery_called", "10.2.1", text, side, roll=face, success=ok)


def attacker_artillery(state: BattleaxeState, dice: Mapping[str, tuple[int, ...]]) -> Result:
    """10.2.1: the attacker's artillery call, before the defender responds."""
    fight = combat(state)
    face = dice["artillery"][0]
    ok = _artillery_ok(state, state.half, face, fight.target)
    artillery = {**state.artillery, state.half: state.artillery[state.half] - (1 if ok else 0)}
    state = evolve(state, combat=evolve(fight, attacker_artillery_ok=ok), artillery=artillery)
    return replace_top(state, decision("defend", enemy(state.half))), [_called(state.half, face, ok)]


def resolve(state: BattleaxeState, dice: Mapping[str, tuple[int, ...]]) -> Result:
    """11.4: the defender's artillery call, the Attack and Defense Values and DRs, and the result."""
    fight = combat(state)
    attacker, defender = state.half, enemy(state.half)
    b = board(state)
    events: list[Event] = []
    artillery = state.artillery
    if fight.def_artillery:
        face = dice["defender_artillery"][0]
        ok = _artillery_ok(state, defender, face, fight.target)
        artillery = {**artillery, defender: artillery[defender] - (1 if ok else 0)}
        fight = evolve(fight, defender_artillery_ok=ok)
        events.append(_called(defender, face, ok))
    air = 0
    if fight.air:
        air = dice["air"][0]
        if state.options["luftwaffe"] and attacker == ALLIED:  # 19.2, notes A48: +1, capped, then halved
            air = min(air + b.die_mods["luftwaffe_allied_air"].value, b.limits["luftwaffe_allied_air_cap"])
        if fight.contested_at_start:
            air //= b.limits["air_contested_divisor"]
    rommel = dice["rommel"][0] if fight.rommel else 0
    s = at(state)
    av, av_terms = cmb.attack_value(s, fight, air, rommel)
    dv, dv_terms = cmb.defense_value(s, fight, attacker)
    at_total, dt_total = av + sum(dice["attack"]), dv + sum(dice["defense"])
    result: CombatResult = cmb.outcome(at_total, dt_total)
    ap = max(0, at_total - dt_total)
    stutz = (
        attacker == ALLIED and b.locations[fight.target].terrain == "stutzpunkt" and state.control[fight.target] == AXIS
    )
    excess = ap > cmb.absorbable(s, fight.defenders)
    if result == "success" and excess and not stutz and not fight.overrun:
        result = "overrun"
    fight = evolve(
        fight,
        attack_total=at_total,
        defense_total=dt_total,
        outcome=result,
        ap=ap,
        dice={k: list(v) for k, v in dice.items()},
    )
    changes: StateChanges = {"combat": fight, "artillery": artillery}
    if attacker == AXIS and state.sunset is None:
        changes["sunset"] = sum(dice["attack"])  # 6.2.1: the first Axis DR
    window = None
    if result == "repulse" and holds(state, attacker):
        window = decision("max_attack", attacker)
    # RULING (notes A26, option fanatical_vs_excess): more AP than the defenders can absorb without an
    # Overrun (an Axis Stützpunkt, or a second combat) is still a Success that Fanatical Defense may turn
    elif result == "success" and holds(state, defender) and (state.options["fanatical_vs_excess"] or not excess):
        window = decision("fanatical", defender)
    state = evolve(state, **changes)
    words = {
        "repulse": "Repulse",
        "stalemate": "Stalemate",
        "success": f"Success, {ap} AP",
        "overrun": f"Overrun, {ap} AP",
    }
    text = (
        f"Combat in {b.place(fight.target)}: attack {av} ({cmb.describe(av_terms)}) + DR "
        f"{'+'.join(map(str, dice['attack']))} = {at_total} against defense {dv} ({cmb.describe(dv_terms)}) + DR "
        f"{'+'.join(map(str, dice['defense']))} = {dt_total}: {words[result]}"
    )
    record = cmb.record(fight, attacker, defender, result, ap, (av_terms, dice["attack"]), (dv_terms, dice["defense"]))
    other_dice = {k: list(v) for k, v in dice.items() if k not in ("attack", "defense")}
    events.append(
        Event(kind="combat_resolved", seat=attacker, rule="11.4.4", text=text, data=record.data(dice=other_dice))
    )
    if window is not None:  # an Advantage window opens (12.1A, 12.1B)
        return replace_top(state, window), events
    state, more = settle(state)
    return state, events + more


# --- the Advantage in combat (12.1A, 12.1B) ---------------------------------------------------------------------
def can_maximum_attack(state: BattleaxeState, side: Side, act: MaximumAttack) -> Verdict:
    return ALLOW if now(state) == "max_attack" else deny("12.1", "window", "Maximum Attack answers a Repulse")


def maximum_attack(state: BattleaxeState, side: Side, act: MaximumAttack) -> Result:
    state = evolve(spend(state, side), combat=evolve(combat(state), outcome="stalemate"))
    used = event("maximum_attack", "12.1", "Maximum Attack: the Repulse becomes a Stalemate", side)
    state, more = settle(state)
    return state, [used, *more]


def can_fanatical_defense(state: BattleaxeState, side: Side, act: FanaticalDefense) -> Verdict:
    return ALLOW if now(state) == "fanatical" else deny("12.1", "window", "Fanatical Defense answers a Success")


def fanatical_defense(state: BattleaxeState, side: Side, act: FanaticalDefense) -> Result:
    state = evolve(spend(state, side), combat=evolve(combat(state), outcome="stalemate", ap=0))
    used = event("fanatical_defense", "12.1", "Fanatical Defense: the Success becomes a Stalemate", side)
    state, more = settle(state)
    return state, [used, *more]


def accept(state: BattleaxeState, side: Side, act: Accept) -> Result:
    return settle(state)


ACTIONS = (
    declare(Attack, legal=attacks, can=can_attack, effect=attack),
    declare(Join, legal=joins, can=can_join, effect=join),
    declare(Lead, legal=leads, can=can_lead, effect=lead),
    declare(Support, legal=supports, can=can_support, effect=support),
    declare(Defend, legal=defences, can=can_defend, effect=defend),
    declare(MaximumAttack, legal=sole(MaximumAttack), can=can_maximum_attack, effect=maximum_attack),
    declare(FanaticalDefense, legal=sole(FanaticalDefense), can=can_fanatical_defense, effect=fanatical_defense),
    declare(Accept, legal=sole(Accept), can=always, effect=accept),
)
