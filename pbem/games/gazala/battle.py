"""The Combat Action (§7.5) as steps of the sequence of play, over the combat library (:mod:`.combat` and its
``combat_*`` modules, pure functions taking dice and chits as inputs).

A: ``attack`` (the attacker) pays the AP; each Isolated participant rolls its EC (§5.8.4). B: the defender may
attempt a Retreat before Combat (``retreat_before_combat`` / ``stand``; ruling: each side adds the best DRM its stack
offers); on success the defending stack makes its free move (``step`` / ``halt``) and the combat ends. C: the
attacker may ``escalate``. D: the two chits are drawn (a d29, then a d28 among the rest). F: the Axis attacker
commits ``air`` units. G: the defender names its ``lead`` formation; the ``armour_unit`` / ``armour`` choices of
Armour Superiority. H: the attacker's d10 on the CRT. I: the defender's hits first, then the attacker's: the
``first_loss``, the ECs of a red number (1 d10 a unit), the ``distribute`` choice, each ``retreat`` path and the
opponent's ``displace`` choices; then the Battle Victory bonus APs (§7.5.3), spent at once by the winning units.

A decision with one option is taken without asking; the static side of §10.1 never decides (it Holds, §10.1).
An HQ left alone in a hex after the combat is displaced where its owner chooses among the nearest destinations
(§5.3.2, :mod:`.hq_displace`). Ruling: a Battle Victory won by the side that is not acting during a nested activation (a
Reaction's or a bonus's) earns no bonus APs.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from pbem.games.gazala import intelligence, victory
from pbem.games.gazala.actions import (
    Air,
    ArmourChoice,
    ArmourUnit,
    Attack,
    DeclineBonus,
    Displace,
    Distribute,
    Escalate,
    FirstLoss,
    Lead,
    RetreatBeforeCombat,
    RetreatPath,
    Stand,
)
from pbem.games.gazala.board import other
from pbem.games.gazala.combat import (
    ATTACK_KINDS,
    BattleStrength,
    Combatant,
    CombatOptions,
    Resolution,
    air_limit,
    combatant,
    ground,
    resolve,
)
from pbem.games.gazala.combat_chits import chit_pool, chits_from_dice, draw_sizes
from pbem.games.gazala.combat_declare import (
    attack_cost,
    check_declaration,
    check_escalation,
    check_rbc,
    escalation_cost,
    isolated_check,
    rbc_bonus_options,
    rbc_succeeds,
)
from pbem.games.gazala.combat_displace import (
    Displacement,
    can_retreat,
    check_displacement,
    displacement_chooser,
    displacement_options,
    hqs_left_alone,
    overstack_effects,
    retreat_paths,
)
from pbem.games.gazala.combat_drm import ArmourChoice as ArmourChoiceKey
from pbem.games.gazala.combat_drm import (
    ArmourKind,
    Supporter,
    armour_choices,
    armour_superiority,
    check_lead_formation,
    hq_support_drm,
    rbc_failed_drm,
    schwerpunkt_drm,
    support_drm,
    support_hexes,
)
from pbem.games.gazala.combat_hits import (
    Distribution,
    Ecs,
    SideHits,
    check_distribution,
    distribute,
    distribution_options,
    ec_rollers,
    effectiveness_checks,
    first_loss_options,
)
from pbem.games.gazala.combat_victory import battle_victory
from pbem.games.gazala.data import Side
from pbem.games.gazala.hq_displace import displace_lone_hqs, displace_or_ask
from pbem.games.gazala.mapspec import piece_name, side_name
from pbem.games.gazala.ops import affordable, after_action, member, side_of_seat, spend
from pbem.games.gazala.paths import supply
from pbem.games.gazala.rulings import ruling
from pbem.games.gazala.scenarios import static_side
from pbem.games.gazala.state import (
    Activation,
    Battle,
    BattleStep,
    DiceWait,
    GazalaState,
    HqDisplacing,
    MoveState,
    Reacting,
    sit_of,
)
from pbem.kit.hexes import HexId
from pbem.kit.machine import pop, push, top
from pbem.kit.tables import BELOW, Term
from pbem.rules.contract import ALLOW, Event, Outcome, RollRequest, RollSpec, Step, Verdict, deny
from pbem.rules.records import CombatRecord, CombatSide

__all__ = ["battle_over", "finish_rbc_move", "offer_displacement"]


# --- facts of the battle ------------------------------------------------------------------------------------------


def _battle(state: GazalaState) -> Battle:
    assert state.battle is not None
    return state.battle


def _with(state: GazalaState, **fields: object) -> GazalaState:
    return state.model_copy(update={"battle": _battle(state).model_copy(update=fields)})


def _defender(state: GazalaState) -> Side:
    return other(_battle(state).side)


def _options(state: GazalaState) -> CombatOptions:
    """The combat rulings the genesis options chose (notes §10 A3, A5, B11, B12)."""
    return CombatOptions(
        oos_halves_defence=bool(state.options.get("oos_halves_defence", False)),
        armour_negative_with_at=bool(state.options.get("armour_negative_with_at", False)),
        combined_arms_stack=bool(ruling(state, "combined_arms_stack")),
        hq_support_any=bool(ruling(state, "hq_support_any_in_command")),
    )


def _supplied(state: GazalaState, unit: str) -> bool:
    """§5.7.1, §5.7.5: a unit's supply as last checked: its formation HQ's status (the acting formation's from its
    activation), or, for an unassigned independent unit, its own trace."""
    sit = sit_of(state)
    formation = sit.formation(unit)
    acting = state.acting
    if acting is not None and (formation == acting.formation or unit == acting.unit) and formation is not None:
        return acting.supplied
    if formation is None:
        return supply(sit, unit).ok
    hq = state.hqs.get(state.pack.hq_of(formation).id)
    return hq is not None and hq.hex is not None and hq.supplied


def _combatants(state: GazalaState, ids: Sequence[str]) -> tuple[Combatant, ...]:
    sit = sit_of(state)
    return tuple(combatant(sit, u, state.units[u].cs, supplied=_supplied(state, u)) for u in ids)


def _seat(state: GazalaState, side: Side) -> str | None:
    """The seat deciding for ``side``; None for the static side of §10.1, whose decisions are taken for it."""
    if static_side(state.pack, state.scenario) == side or side not in state.seats:
        return None
    return side


def _ask(state: GazalaState, step: str, side: Side) -> GazalaState:
    seat = _seat(state, side)
    assert seat is not None
    return push(state, BattleStep(kind=step, seat=seat))  # type: ignore[arg-type]


def _top_is(state: GazalaState, step: str) -> Verdict:
    if state.battle is None or not state.pending or getattr(state.pending[-1], "kind", None) != step:
        return deny("7.5.1", "no-battle", "no combat waits for this decision")
    return ALLOW


# --- A. declaration -------------------------------------------------------------------------------------------------


def attacks(state: GazalaState, seat: str) -> Iterator[Attack]:
    if state.move is not None or state.battle is not None:
        return
    sit = sit_of(state)
    side = side_of_seat(seat)
    by_hex: dict[str, list[str]] = {}
    for unit, counter in state.units.items():
        if counter.hex is not None and not counter.disrupted and member(state, unit):
            by_hex.setdefault(counter.hex, []).append(unit)
    enemy = sit.combat[other(side)]
    for here, units in sorted(by_hex.items()):
        targets = [t for t in sit.board.grid.neighbours(HexId(here)) if t in enemy]
        for target in targets:
            for size in range(1, len(units) + 1):
                for group in itertools.combinations(sorted(units), size):
                    yield Attack(target=target, units=list(group))


def can_attack(state: GazalaState, seat: str, act: Attack) -> Verdict:
    """§7.5.1 A: the combat library's declaration check, the units named once in id order, the AP (§7.1, §5.8.3)."""
    if state.move is not None:
        return deny("7.3", "moving", "finish the Movement Action first")
    if state.battle is not None:
        return deny("7.5.1", "in-combat", "a combat is under way")
    if not act.units or act.units != sorted(set(act.units)):
        return deny("7.5.1", "units-order", "name each attacking unit once, in id order")
    acting = state.acting
    if acting is None:
        return deny("7.1", "no-activation", "no formation is active")
    for unit in act.units:
        if unit not in state.units or state.units[unit].hex is None or not member(state, unit):
            return deny("7.2", "not-activated", f"{unit} is not a unit of the active formation on the map")
    sit = sit_of(state)
    if act.target not in sit.board.grid:
        return deny("7.5.1", "not-adjacent", f"{act.target} is not a hex of the map")
    source = state.units[act.units[0]].hex
    assert source is not None
    participants = _combatants(state, act.units)
    activated = acting.formation or acting.unit or ""
    verdict = check_declaration(sit, HexId(source), HexId(act.target), participants, activated)
    if not verdict.ok:
        return verdict
    return affordable(state, _attack_cost(state, participants))


def _attack_cost(state: GazalaState, participants: Sequence[Combatant]) -> int:
    acting = state.acting
    if acting is not None and acting.unit is not None:
        return 1  # §6.4: an Independent Unit Activation's one Action
    return attack_cost(state.pack, participants)


def attack(state: GazalaState, seat: str, act: Attack) -> Step[GazalaState]:
    """§7.5.1 A: pay the AP (the Improved Defence marker of the attacking hex goes, §7.7); every combat unit in the
    target defends; Isolated participants check first (§5.8.4)."""
    side = side_of_seat(seat)
    participants = _combatants(state, act.units)
    cost = _attack_cost(state, participants)
    source = state.units[act.units[0]].hex
    assert source is not None
    state = spend(state, cost).model_copy(update={"improved": tuple(h for h in state.improved if h != source)})
    defenders = tuple(sorted(sit_of(state).combat[other(side)].get(HexId(act.target), ())))
    battle = Battle(side=side, source=source, target=act.target, attackers=tuple(act.units), defenders=defenders)
    state = state.model_copy(update={"battle": battle})
    event = Event(
        kind="attack_declared",
        seat=side,
        rule="7.5.1",
        data={"units": list(act.units), "src": source, "location": act.target, "ap": cost},
        text=f"{_names(state, act.units)} attack {act.target} from {source} ({cost} AP)",
    )
    events = (event, _examined(state, side, act.target, defenders)) if intelligence.limited(state) else (event,)
    isolated = tuple(p.id for p in participants if p.isolated)
    if isolated:
        wait = DiceWait(seat=seat, purpose="battle_isolated", units=isolated)
        roll = RollRequest(rolls=(RollSpec(id="ec", sides=10, n=len(isolated), purpose="§5.8.4 Isolated ECs"),))
        return Step(state=push(state, wait).with_rolls(roll), events=events)
    return _offer_rbc(state, events)


def _examined(state: GazalaState, side: Side, target: str, defenders: Sequence[str]) -> Event:
    """§5.3.4: having declared a ground attack, the attacker examines the defending stack (the views show it whole
    until the combat ends, :mod:`.intelligence`)."""
    return Event(
        kind="stack_examined",
        seat=side,
        rule="5.3.4",
        data={"location": target, "units": list(defenders)},
        text=f"the {side_name(side)} examines the stack in {target}: {_names(state, defenders)}",
    )


def battle_isolated_checked(state: GazalaState, outcome: Outcome) -> Step[GazalaState]:
    """§5.8.4: an Isolated participant failing its EC disrupts and takes no part; the AP stay spent."""
    wait = top(state, DiceWait)
    assert outcome.dice is not None
    state = pop(state)
    events: list[Event] = []
    out: list[str] = []
    for unit, die in zip(wait.units, outcome.dice["ec"], strict=True):
        passed = isolated_check(_combatants(state, [unit])[0], die)
        if not passed:
            out.append(unit)
            state = victory.disrupt(state, (unit,))
        events.append(
            Event(
                kind="effectiveness_check",
                seat=state.pack.unit(unit).side,
                rule="5.8.4",
                data={"unit": unit, "die": die, "passed": passed},
            )
        )
    left = tuple(u for u in _battle(state).attackers if u not in out)
    if not left:
        return after_action(state.model_copy(update={"battle": None}), events)
    return _offer_rbc(_with(state, attackers=left), tuple(events))


# --- B. Retreat before Combat (§7.5.1.1) ---------------------------------------------------------------------------


def _offer_rbc(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    battle = _battle(state)
    if _seat(state, _defender(state)) is None or not check_rbc(_combatants(state, battle.defenders)).ok:
        return _offer_escalation(state, events)
    return Step(state=_ask(state, "rbc_offer", _defender(state)), events=events)


def rbc_attempts(state: GazalaState, seat: str) -> Iterator[RetreatBeforeCombat]:
    yield RetreatBeforeCombat()


def can_rbc(state: GazalaState, seat: str, act: RetreatBeforeCombat) -> Verdict:
    return _top_is(state, "rbc_offer")


def _best(options: Sequence[tuple[str, int]]) -> int:
    return max((value for _, value in options), default=0)


def rbc(state: GazalaState, seat: str, act: RetreatBeforeCombat) -> Step[GazalaState]:
    """§7.5.1.1: both sides roll a d10 (ruling: each adds the best DRM its stack offers)."""
    state = pop(state)
    wait = DiceWait(seat=seat, purpose="rbc")
    roll = RollRequest(
        rolls=(
            RollSpec(id="attacker", sides=10, n=1, purpose="§7.5.1.1 attacker"),
            RollSpec(id="defender", sides=10, n=1, purpose="§7.5.1.1 defender"),
        )
    )
    event = Event(kind="rbc_attempted", seat=seat, rule="7.5.1.1", data={"location": _battle(state).target})
    return Step(state=push(state, wait).with_rolls(roll), events=(event,))


def rbc_rolled(state: GazalaState, outcome: Outcome) -> Step[GazalaState]:
    """§7.5.1.1: success if the defender's total beats the attacker's: the defending stack moves away for free and
    the combat ends (the attacker's AP are lost); otherwise the attacker gets +2 in the combat."""
    assert outcome.dice is not None
    state = pop(state)
    battle = _battle(state)
    pack = state.pack
    own = _combatants(state, battle.defenders)
    enemy = _combatants(state, battle.attackers)
    att = outcome.dice["attacker"][0] + _best(rbc_bonus_options(pack, enemy, own, defending=False))
    dfn = outcome.dice["defender"][0] + _best(rbc_bonus_options(pack, own, enemy, defending=True))
    success = rbc_succeeds(att, dfn)
    event = Event(
        kind="rbc_rolled",
        seat=_defender(state),
        rule="7.5.1.1",
        data={"attacker": att, "defender": dfn, "success": success, "location": battle.target},
        text=f"Retreat before Combat: {SIDE_NAMES[_defender(state)]} rolls {dfn} against "
        f"{SIDE_NAMES[battle.side]}'s {att}: " + ("it succeeds" if success else "it fails"),
    )
    if not success:
        return _offer_escalation(_with(state, rbc_failed=True), (event,))
    movers = tuple(sorted(u for u, c in state.units.items() if c.hex == battle.target))
    movers += tuple(sorted(h for h, c in state.hqs.items() if c.hex == battle.target))
    moving = MoveState(
        units=movers,
        path=(battle.target,),
        supplied=all(_supplied(state, u) for u in battle.defenders),
        reactable=False,
        rbc=True,
    )
    state = _ask(state.model_copy(update={"move": moving}), "rbc_moving", _defender(state))
    return Step(state=state, events=(event,))


def finish_rbc_move(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    """The end of a Retreat before Combat's free move: the combat is over (no Battle Victory)."""
    if state.pending and isinstance(state.pending[-1], BattleStep) and state.pending[-1].kind == "rbc_moving":
        state = pop(state)
    return after_action(state.model_copy(update={"battle": None}), events)


def stands(state: GazalaState, seat: str) -> Iterator[Stand]:
    yield Stand()


def can_stand(state: GazalaState, seat: str, act: Stand) -> Verdict:
    return _top_is(state, "rbc_offer")


def stand(state: GazalaState, seat: str, act: Stand) -> Step[GazalaState]:
    event = Event(kind="stood", seat=seat, rule="7.5.1.1", data={"location": _battle(state).target})
    return _offer_escalation(pop(state), (event,))


# --- C. escalation --------------------------------------------------------------------------------------------------


def _escalation_verdict(state: GazalaState, kind: str) -> Verdict:
    battle = _battle(state)
    acting = state.acting
    if kind not in ATTACK_KINDS or acting is None:
        return deny("7.5.1", "attack-kind", f"{kind} is not an attack")
    cost = escalation_cost(state.pack, kind)
    return check_escalation(_combatants(state, battle.attackers), kind, available=acting.ap, cost=cost)


def _offer_escalation(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    if any(_escalation_verdict(state, k).ok for k in ATTACK_KINDS[1:]):
        return Step(state=_ask(state, "escalation", _battle(state).side), events=events)
    return _draw_chits(state, events)


def escalations(state: GazalaState, seat: str) -> Iterator[Escalate]:
    for kind in ATTACK_KINDS:
        yield Escalate(to=kind)


def can_escalate(state: GazalaState, seat: str, act: Escalate) -> Verdict:
    verdict = _top_is(state, "escalation")
    return verdict if not verdict.ok else _escalation_verdict(state, act.to)


def escalate(state: GazalaState, seat: str, act: Escalate) -> Step[GazalaState]:
    """§7.5.1 C: Regular (+1 AP) or Prepared (+2 AP)."""
    state = spend(pop(state), escalation_cost(state.pack, act.to))
    event = Event(kind="attack_escalated", seat=seat, rule="7.5.1", data={"kind": act.to})
    return _draw_chits(_with(state, kind=act.to), (event,))


# --- D. the chits ---------------------------------------------------------------------------------------------------


def _draw_chits(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    first, second = draw_sizes(state.pack)
    roll = RollRequest(
        rolls=(
            RollSpec(id="attacker", sides=first, n=1, purpose="§7.5.1.2 attacker's chit"),
            RollSpec(id="defender", sides=second, n=1, purpose="§7.5.1.2 defender's chit"),
        )
    )
    wait = DiceWait(seat=_battle(state).side, purpose="chits")
    return Step(state=push(state, wait).with_rolls(roll), events=events)


def chits_drawn(state: GazalaState, outcome: Outcome) -> Step[GazalaState]:
    """§7.5.1 D: two distinct chits of the 29 (the optional linear set, option ``linear_chits``)."""
    assert outcome.dice is not None
    state = pop(state)
    pool = chit_pool(state.pack, linear=bool(state.options.get("linear_chits", False)))
    drawn = chits_from_dice(pool, outcome.dice["attacker"][0], outcome.dice["defender"][0])
    event = Event(
        kind="chits_drawn",
        rule="7.5.1.2",
        data={"attacker": drawn.attacker.id, "defender": drawn.defender.id, "location": _battle(state).target},
    )
    return _offer_air(_with(state, chits=(drawn.attacker.id, drawn.defender.id)), (event,))


# --- F. air units ---------------------------------------------------------------------------------------------------


def _air_most(state: GazalaState) -> int:
    battle = _battle(state)
    if battle.side != "axis":
        return 0
    available = sum(1 for ready in state.air.values() if ready)
    most = min(available, air_limit(state.pack, battle.kind))
    return most if state.air_missions is None else min(most, state.air_missions)


def _offer_air(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    if _air_most(state) > 0:
        return Step(state=_ask(state, "air", "axis"), events=events)
    return _offer_lead(state, events)


def airs(state: GazalaState, seat: str) -> Iterator[Air]:
    if state.battle is not None:
        for count in range(_air_most(state) + 1):
            yield Air(count=count)


def can_air(state: GazalaState, seat: str, act: Air) -> Verdict:
    """§7.5.1.4 (and §10.1's one mission): at most the attack's limit, from the Available box."""
    verdict = _top_is(state, "air")
    if not verdict.ok:
        return verdict
    if not 0 <= act.count <= _air_most(state):
        return deny("7.5.1.4", "air-limit", f"commit 0 to {_air_most(state)} air units")
    return ALLOW


def air(state: GazalaState, seat: str, act: Air) -> Step[GazalaState]:
    flown = [a for a, ready in sorted(state.air.items()) if ready][: act.count]
    missions = None if state.air_missions is None else state.air_missions - (1 if act.count else 0)
    state = pop(state).model_copy(
        update={"air": {a: r and a not in flown for a, r in state.air.items()}, "air_missions": missions}
    )
    event = Event(kind="air_committed", seat="axis", rule="7.5.1.4", data={"air": flown})
    return _offer_lead(_with(state, air=act.count), (event,))


# --- G. Lead Formation, Armour Superiority --------------------------------------------------------------------------


def _formations(state: GazalaState) -> list[str]:
    return sorted({c.formation for c in _combatants(state, _battle(state).defenders) if c.formation is not None})


def _offer_lead(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    formations = _formations(state)
    if len(formations) > 1 and _seat(state, _defender(state)) is not None:
        return Step(state=_ask(state, "lead", _defender(state)), events=events)
    lead = formations[0] if formations else None
    return _offer_armour(_with(state, lead=lead), events)


def leads(state: GazalaState, seat: str) -> Iterator[Lead]:
    if state.battle is not None:
        for formation in _formations(state):
            yield Lead(formation=formation)


def can_lead(state: GazalaState, seat: str, act: Lead) -> Verdict:
    verdict = _top_is(state, "lead")
    if not verdict.ok:
        return verdict
    return check_lead_formation(_combatants(state, _battle(state).defenders), act.formation)


def lead(state: GazalaState, seat: str, act: Lead) -> Step[GazalaState]:
    event = Event(kind="lead_formation", seat=seat, rule="7.5.1.5", data={"formation": act.formation})
    return _offer_armour(_with(pop(state), lead=act.formation), (event,))


def _choices(state: GazalaState) -> tuple[ArmourChoiceKey, ...]:
    battle = _battle(state)
    return armour_choices(_combatants(state, battle.attackers), _combatants(state, battle.defenders))


def _offer_armour(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    attackers = {c[0] for c in _choices(state)}
    if len(attackers) > 1:
        return Step(state=_ask(state, "armour_attacker", _battle(state).side), events=events)
    chosen = next(iter(attackers))
    return _offer_defender_armour(_with(state, armour=(chosen or "",)), events)


def armour_units(state: GazalaState, seat: str) -> Iterator[ArmourUnit]:
    if state.battle is not None:
        for unit in sorted({c[0] for c in _choices(state) if c[0] is not None}):
            yield ArmourUnit(unit=unit)


def can_armour_unit(state: GazalaState, seat: str, act: ArmourUnit) -> Verdict:
    verdict = _top_is(state, "armour_attacker")
    if not verdict.ok:
        return verdict
    if act.unit not in {c[0] for c in _choices(state)}:
        return deny("7.5.1.5", "armour-unit", "the unit with the most Tank Points, then the higher strength")
    return ALLOW


def armour_unit(state: GazalaState, seat: str, act: ArmourUnit) -> Step[GazalaState]:
    return _offer_defender_armour(_with(pop(state), armour=(act.unit,)), ())


def _points(value: str) -> ArmourKind:
    return "at" if value == "at" else "tp"


def _defender_options(state: GazalaState) -> list[tuple[ArmourKind, str | None]]:
    chosen = _battle(state).armour[0] or None
    return [(kind, unit) for a, kind, unit in _choices(state) if a == chosen]


def _offer_defender_armour(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    options = _defender_options(state)
    if len(options) > 1 and _seat(state, _defender(state)) is not None:
        return Step(state=_ask(state, "armour_defender", _defender(state)), events=events)
    if len(options) > 1:  # the static side takes the choice that helps it most (the largest defending value)
        battle = _battle(state)
        sit = sit_of(state)
        here = ground(sit, HexId(battle.source), HexId(battle.target), _defender(state), improved_defence=False)
        att, dfn = _combatants(state, battle.attackers), _combatants(state, battle.defenders)
        rulings = _options(state)
        first = battle.armour[0] or None
        options.sort(
            key=lambda o: armour_superiority(state.pack, att, dfn, here, (first, o[0], o[1]), options=rulings).drm
        )
    kind, unit = options[0]
    return _roll_combat(_with(state, armour=(_battle(state).armour[0], kind, unit or "")), events)


def armour_picks(state: GazalaState, seat: str) -> Iterator[ArmourChoice]:
    if state.battle is not None and state.battle.armour:
        for kind, unit in _defender_options(state):
            if unit is not None:
                yield ArmourChoice(points=kind, unit=unit)


def can_armour(state: GazalaState, seat: str, act: ArmourChoice) -> Verdict:
    verdict = _top_is(state, "armour_defender")
    if not verdict.ok:
        return verdict
    if (act.points, act.unit) not in _defender_options(state):
        return deny(
            "7.5.1.5", "armour-unit", "the unit with the most Tank (Anti-Tank) Points, then the higher strength"
        )
    return ALLOW


def armour(state: GazalaState, seat: str, act: ArmourChoice) -> Step[GazalaState]:
    event = Event(kind="armour_chosen", seat=seat, rule="7.5.1.5", data={"points": act.points, "unit": act.unit})
    battle = _battle(state)
    return _roll_combat(_with(pop(state), armour=(battle.armour[0], act.points, act.unit)), (event,))


# --- H. the combat roll ----------------------------------------------------------------------------------------------


def _roll_combat(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    wait = DiceWait(seat=_battle(state).side, purpose="combat")
    roll = RollRequest(rolls=(RollSpec(id="combat", sides=10, n=1, purpose="§7.5.1 combat roll"),))
    return Step(state=push(state, wait).with_rolls(roll), events=events)


def _supporters(state: GazalaState, side: Side, into: str, own: str) -> list[Supporter]:
    sit = sit_of(state)
    found = support_hexes(sit, side, HexId(into), HexId(own))
    return [Supporter(_combatants(state, [unit])[0], where) for unit, where in found]


def combat_rolled(state: GazalaState, outcome: Outcome) -> Step[GazalaState]:
    """§7.5.1 E-H: strengths with the chits, the odds on the defender's CRT row, the shifts, the five DRMs (Combat
    Support, HQ Attack Support, Armour Superiority, Schwerpunkt, a failed Retreat before Combat), the d10."""
    assert outcome.dice is not None
    state = pop(state)
    battle = _battle(state)
    pack = state.pack
    sit = sit_of(state)
    defender = _defender(state)
    att = _combatants(state, battle.attackers)
    dfn = _combatants(state, battle.defenders)
    here = ground(
        sit, HexId(battle.source), HexId(battle.target), defender, improved_defence=battle.target in state.improved
    )
    stack = _combatants(
        state, [u for u, c in state.units.items() if c.hex == battle.source and u not in battle.attackers]
    )
    attacker_formation = att[0].formation
    choice = (battle.armour[0] or None, _points(battle.armour[1]), battle.armour[2] or None)
    armour_found = armour_superiority(pack, att, dfn, here, choice, stack=stack, options=_options(state))
    hq = state.hqs.get(pack.hq_of(attacker_formation).id) if attacker_formation else None
    terms: list[Term | None] = [
        support_drm(
            pack,
            attacking=True,
            formation=attacker_formation,
            helpers=_supporters(state, battle.side, battle.target, battle.source),
            kind=battle.kind,
        ),
        support_drm(
            pack,
            attacking=False,
            formation=battle.lead,
            helpers=_supporters(state, defender, battle.source, battle.target),
            improved=here.improved,
            disrupted_defender=any(d.disrupted for d in dfn)
            and not (here.friendly_minefield and ruling(state, "disrupted_minefield_support")),  # notes A6
        ),
        hq_support_drm(
            pack, att, battle.kind, hq.support if hq is not None else 0, any_in_command=_options(state).hq_support_any
        ),
        armour_found.term(),
        schwerpunkt_drm(pack, battle.side, att, state.schwerpunkt, attacking=True),
        schwerpunkt_drm(pack, defender, dfn, state.schwerpunkt, attacking=False),
        rbc_failed_drm(pack, battle.rbc_failed),
    ]
    chits = (pack.chit(battle.chits[0]), pack.chit(battle.chits[1]))
    die = outcome.dice["combat"][0]
    found = resolve(
        pack,
        att,
        dfn,
        here,
        battle.kind,
        chits,
        drms=[t for t in terms if t is not None],
        roll=die,
        air=battle.air,
        stack=stack,
        options=_options(state),
    )
    result = found.result
    before = {c.id: (c.strength, c.disrupted) for c in (*att, *dfn)}
    state = _with(
        state,
        before=before,
        hits=(result.attacker, result.attacker_ec, result.defender, result.defender_ec),
        armour=(armour_found.attacker_unit or "", armour_found.defender_kind, armour_found.defender_unit or ""),
        role="defender",
    )
    record = CombatRecord(
        location=battle.target,
        result=found.lookup.result,
        sides=(
            _strength_side("attack", battle.side, found.attack, battle.kind),
            _strength_side("defense", defender, found.defence, "defence"),
        ),
        lookup=found.lookup,
    )
    event = Event(
        kind="combat_resolved",
        seat=battle.side,
        rule="7.5.1",
        data=record.data(src=battle.source, kind=battle.kind, resolution=found.record()),
        text=f"combat at {battle.target}: {found.lookup.column} on {here.crt_row}, {SIDE_NAMES[battle.side]} rolls "
        f"{die}: {found.lookup.result}",
    )
    return _begin_hits(state, (event, _modifiers_event(battle, found)))


def _strength_side(role: str, side: Side, strength: BattleStrength, column: str) -> CombatSide:
    """A side's battle strength for the reports (§7.5.1.2): each unit's Strength Points times its chit multiplier
    (halved out of supply), the fractions rounded up once for the side (§5.1)."""
    terms = [
        Term(
            label=f"{p.unit}: {p.strength} x {p.multiplier} (chit {strength.chit}, {column})"
            + (", halved" if p.halved else ""),
            value=p.halves // 2,
            rule="7.5.1.2",
        )
        for p in strength.parts
    ]
    rest = strength.total - sum(t.value for t in terms)
    if rest:
        terms.append(Term(label="fractions rounded up", value=rest, rule="5.1"))
    return CombatSide(
        role=role, side=side, units=tuple(p.unit for p in strength.parts), terms=tuple(terms), total=strength.total
    )


def _modifiers_event(battle: Battle, found: Resolution) -> Event:
    """What the CRT read besides the strengths, told under the combat in the reports: the chits, the column shifts,
    each DRM and the attacker's die (§7.5.1.2-§7.5.1.5)."""
    shifts = ", ".join(f"{t.label} {t.value:+d}" for t in found.shifts.terms) or "none"
    drms = ", ".join(f"{t.label} {t.value:+d}" for t in found.drms.terms) or "none"
    lookup = found.lookup
    if lookup.base == BELOW:  # §7.5.1 E: below the leftmost column, 5/0 whatever the shifts and the die
        ignored = f", {shifts} ignored" if found.shifts.terms else ""
        odds = f"odds {found.attack.total}:{found.defence.total} below the table{ignored}"
    else:
        odds = f"odds {lookup.base} shifted {found.shifts.value:+d} to {lookup.column} ({shifts})"
    text = (
        f"chits {found.attack.chit} (attacker) and {found.defence.chit} (defender); {odds}; "
        f"DRM {found.drm:+d} ({drms}); die {found.roll}, modified {lookup.roll}: {lookup.result}"
    )
    return Event(
        kind="combat_modifiers",
        seat=battle.side,
        rule="7.5.1",
        data={
            "location": battle.target,
            "chits": [found.attack.chit, found.defence.chit],
            "shifts": [t.model_dump(mode="json") for t in found.shifts.terms],
            "drms": [t.model_dump(mode="json") for t in found.drms.terms],
            "drm": found.drm,
            "die": found.roll,
        },
        text=text,
    )


# --- I. hit distribution (§7.5.2) ------------------------------------------------------------------------------------


def _role_side(state: GazalaState) -> Side:
    battle = _battle(state)
    return battle.side if battle.role == "attacker" else other(battle.side)


def _role_units(state: GazalaState) -> tuple[str, ...]:
    battle = _battle(state)
    return battle.attackers if battle.role == "attacker" else battle.defenders


def _before(state: GazalaState) -> tuple[Combatant, ...]:
    """The distributing side's units as they were when the CRT was read."""
    battle = _battle(state)
    sit = sit_of(state)
    found = []
    for unit in _role_units(state):
        strength, disrupted = battle.before[unit]
        formation = sit.formation(unit)
        found.append(Combatant(unit=state.pack.unit(unit), strength=strength, disrupted=disrupted, formation=formation))
    return tuple(found)


def _hits(state: GazalaState) -> tuple[int, bool]:
    battle = _battle(state)
    assert battle.hits is not None
    a, a_red, d, d_red = battle.hits
    return (a, a_red) if battle.role == "attacker" else (d, d_red)


def _armour_unit(state: GazalaState) -> str | None:
    battle = _battle(state)
    return (battle.armour[0] if battle.role == "attacker" else battle.armour[2]) or None


def _begin_hits(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    hits, _ = _hits(state)
    state = _with(state, first=None, passed=(), failed=(), ec_losses={}, retreats=())
    options = first_loss_options(_before(state), _armour_unit(state), hits)
    if len(options) > 1 and _seat(state, _role_side(state)) is not None:
        return Step(state=_ask(state, "first_loss", _role_side(state)), events=events)
    return _after_first(_with(state, first=options[0] if options else None), events)


def first_losses(state: GazalaState, seat: str) -> Iterator[FirstLoss]:
    if state.battle is not None and state.battle.hits is not None:
        for unit in first_loss_options(_before(state), _armour_unit(state), _hits(state)[0]):
            yield FirstLoss(unit=unit)


def can_first_loss(state: GazalaState, seat: str, act: FirstLoss) -> Verdict:
    verdict = _top_is(state, "first_loss")
    if not verdict.ok:
        return verdict
    if act.unit not in first_loss_options(_before(state), _armour_unit(state), _hits(state)[0]):
        return deny("7.5.2", "first-loss", "the first loss goes to the Armour Superiority unit, else one of the stack")
    return ALLOW


def first_loss(state: GazalaState, seat: str, act: FirstLoss) -> Step[GazalaState]:
    return _after_first(_with(pop(state), first=act.unit), ())


def _after_first(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    hits, red = _hits(state)
    if red and hits:
        rollers = ec_rollers(_before(state), _battle(state).first)
        if rollers:
            wait = DiceWait(seat=_role_side(state), purpose="battle_ec", units=rollers)
            roll = RollRequest(rolls=(RollSpec(id="ec", sides=10, n=len(rollers), purpose="§7.5.2 ECs"),))
            return Step(state=push(state, wait).with_rolls(roll), events=events)
    return _offer_distribution(state, events)


def battle_ecs_rolled(state: GazalaState, outcome: Outcome) -> Step[GazalaState]:
    """§7.5.2, §5.6.1, §5.6.2: each unit's EC after a red number."""
    wait = top(state, DiceWait)
    assert outcome.dice is not None
    state = pop(state)
    ecs = effectiveness_checks(state.pack, _before(state), dict(zip(wait.units, outcome.dice["ec"], strict=True)))
    event = Event(
        kind="effectiveness_checks",
        seat=_role_side(state),
        rule="7.5.2",
        data={"passed": list(ecs.passed), "failed": list(ecs.failed), "location": _battle(state).target},
        text=f"{SIDE_NAMES[_role_side(state)]}'s ECs: passed {_names(state, ecs.passed) or 'none'}; "
        f"failed {_names(state, ecs.failed) or 'none'}",
    )
    return _offer_distribution(_with(state, passed=ecs.passed, failed=ecs.failed, ec_losses=dict(ecs.losses)), (event,))


def _side_hits(state: GazalaState) -> SideHits:
    battle = _battle(state)
    hits, red = _hits(state)
    ecs = Ecs(battle.passed, battle.failed, battle.ec_losses)
    return SideHits(battle.role, hits, red, _before(state), battle.first, ecs)


def _hex(state: GazalaState) -> str:
    battle = _battle(state)
    return battle.source if battle.role == "attacker" else battle.target


def _can_retreat(state: GazalaState, side_hits: SideHits) -> bool:
    alive = side_hits.alive()
    if not alive:
        return False
    hexes = side_hits.remaining if side_hits.role == "defender" else 1
    return can_retreat(state.pack, sit_of(state), _role_side(state), HexId(_hex(state)), alive, max(1, hexes))


def _distributions(state: GazalaState) -> tuple[Distribution, ...]:
    side_hits = _side_hits(state)
    return distribution_options(state.pack, side_hits, can_retreat=_can_retreat(state, side_hits))


def _offer_distribution(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    options = _distributions(state)
    if len(options) > 1 and _seat(state, _role_side(state)) is not None:
        return Step(state=_ask(state, "distribution", _role_side(state)), events=events)
    chosen = next((o for o in options if o.choice in ("hold", None)), options[0])  # §10.1: the static side holds
    return _apply_distribution(state, chosen, events)


def _as_action(choice: Distribution) -> Distribute | None:
    if choice.choice is None:
        return None
    losses = [unit for unit, n in choice.losses for _ in range(n)]
    return Distribute(choice=choice.choice, holders=list(choice.holders), losses=losses)


def _as_choice(act: Distribute) -> Distribution:
    counts: dict[str, int] = {}
    for unit in act.losses:
        counts[unit] = counts.get(unit, 0) + 1
    return Distribution(act.choice, tuple(act.holders), tuple(counts.items()))


def distributions(state: GazalaState, seat: str) -> Iterator[Distribute]:
    if state.battle is None or state.battle.hits is None:
        return
    for option in _distributions(state):
        found = _as_action(option)
        if found is not None:
            yield found


def can_distribute(state: GazalaState, seat: str, act: Distribute) -> Verdict:
    verdict = _top_is(state, "distribution")
    if not verdict.ok:
        return verdict
    if act.losses != sorted(act.losses) or act.holders != sorted(set(act.holders)):
        return deny("7.5.2", "order", "name the holders once and the losses in id order")
    side_hits = _side_hits(state)
    return check_distribution(state.pack, side_hits, _as_choice(act), can_retreat=_can_retreat(state, side_hits))


def distribute_hits(state: GazalaState, seat: str, act: Distribute) -> Step[GazalaState]:
    return _apply_distribution(pop(state), _as_choice(act), ())


SIDE_NAMES: dict[Side, str] = {"axis": "the Axis", "cw": "the Commonwealth"}


def _names(state: GazalaState, pieces: Sequence[str]) -> str:
    """Units as players read them, in the order given (the event's data keeps the ids)."""
    return ", ".join(piece_name(state.pack, p) for p in pieces)


CHOICE_WORDS = {
    "hold": "holds",
    "retreat": "retreats",
    "follow": "follows its Disrupted units' Forced Retreat",
    "forced": "makes a Forced Retreat",
}
"""How the report tells a hit distribution's choice (§7.5.2: the pack's rows)."""


def _distribution_text(side: Side, hits: int, choice: str | None) -> str:
    who = SIDE_NAMES[side]
    if not hits:
        return f"{who} takes no hit"
    told = CHOICE_WORDS.get(choice or "", "loses Strength Points for them")
    return f"{who} takes {hits} hit{'s' * (hits != 1)} and {told}"


def _apply_distribution(state: GazalaState, choice: Distribution, events: tuple[Event, ...]) -> Step[GazalaState]:
    """§7.5.2, §7.5.2.1: losses, disruptions and eliminations; then the retreats."""
    side_hits = _side_hits(state)
    found = distribute(state.pack, side_hits, choice)
    side = _role_side(state)
    found_events = [
        *events,
        Event(
            kind="hits_distributed",
            seat=side,
            rule="7.5.2",
            data={"choice": choice.choice, "row": found.rule, "location": _hex(state)},
            text=_distribution_text(side, _hits(state)[0], choice.choice),
        ),
    ]
    hex_id = _hex(state)
    for unit in sorted(found.disrupted):
        state = victory.disrupt(state, (unit,))
    for unit in sorted(set(found.losses) | set(found.ec_losses)):
        lost = found.losses.get(unit, 0) + found.ec_losses.get(unit, 0)
        if lost and state.units[unit].hex is not None:
            state, lost_events = victory.lose(state, unit, lost, "7.5.2.1")
            found_events.extend(lost_events)
    if found.disrupted or found.eliminated or found.losses:
        state = state.model_copy(update={"improved": tuple(h for h in state.improved if h != hex_id)})
    battle = _battle(state)
    retreats = tuple((str(r.hexes), "forced" if r.forced else "voluntary", *r.units) for r in found.retreats)
    state = _with(state, eliminated=(*battle.eliminated, *sorted(found.eliminated)), retreats=retreats)
    return _next_retreat(state, tuple(found_events))


# --- retreats and displacements ---------------------------------------------------------------------------------------


def _retreat_now(state: GazalaState) -> tuple[int, bool, tuple[str, ...]]:
    head = _battle(state).retreats[0]
    return int(head[0]), head[1] == "forced", tuple(u for u in head[2:] if state.units[u].hex is not None)


def _paths(state: GazalaState) -> tuple[tuple[str, ...], ...]:
    hexes, forced, units = _retreat_now(state)
    found = retreat_paths(state.pack, sit_of(state), _role_side(state), HexId(_hex(state)), units, hexes, forced=forced)
    return tuple(tuple(p.hexes) for p in found)


def _next_retreat(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    battle = _battle(state)
    while battle.retreats and not _retreat_now(state)[2]:
        state = _with(state, retreats=battle.retreats[1:])
        battle = _battle(state)
    if not battle.retreats:
        return _side_done(state, events)
    paths = _paths(state)
    if len(paths) > 1 and _seat(state, _role_side(state)) is not None:
        return Step(state=_ask(state, "retreat", _role_side(state)), events=events)
    return _apply_retreat(state, paths[0] if paths else (), events)


def retreats(state: GazalaState, seat: str) -> Iterator[RetreatPath]:
    if state.battle is not None and state.battle.retreats:
        for path in _paths(state):
            yield RetreatPath(path=list(path))


def can_retreat_path(state: GazalaState, seat: str, act: RetreatPath) -> Verdict:
    verdict = _top_is(state, "retreat")
    if not verdict.ok:
        return verdict
    if tuple(act.path) not in _paths(state):
        return deny("7.5.2.2", "retreat-path", "not a retreat path towards home with the fewest extra losses")
    return ALLOW


def retreat(state: GazalaState, seat: str, act: RetreatPath) -> Step[GazalaState]:
    return _apply_retreat(pop(state), tuple(act.path), ())


def _apply_retreat(state: GazalaState, path: tuple[str, ...], events: tuple[Event, ...]) -> Step[GazalaState]:
    """§7.5.2.2, §7.5.2.3: the stack moves along ``path``; each unit loses the extra Strength Points of the path
    (EZOC hexes entered, overstacked hexes, hexes a Forced Retreat could not enter); the objectives' last occupant."""
    hexes, forced, units = _retreat_now(state)
    side = _role_side(state)
    sit = sit_of(state)
    found = retreat_paths(state.pack, sit, side, HexId(_hex(state)), units, hexes, forced=forced)
    chosen = next((p for p in found if tuple(p.hexes) == path), None)
    extra = (
        chosen.losses(state.pack, ezoc_once=ruling(state, "retreat_ezoc_loss") == "once")
        if chosen is not None
        else hexes * state.pack.number("forced_retreat_blocked_loss")
    )
    origin = _hex(state)
    found_events = list(events)
    if path:
        units_map = dict(state.units)
        for unit in units:
            units_map[unit] = units_map[unit].model_copy(update={"hex": path[-1]})
        state = state.model_copy(update={"units": units_map})
        state = victory.occupy(state, side, path)
        state = state.model_copy(update={"improved": tuple(h for h in state.improved if h not in (origin, path[-1]))})
        found_events.append(
            Event(
                kind="retreated",
                seat=side,
                rule="7.5.2.2",
                data={"units": list(units), "src": origin, "dst": path[-1], "locations": [origin, *path]},
            )
        )
    if chosen is not None and path:
        effects = overstack_effects(state.pack, sit_of(state), side, HexId(path[-1]))  # §5.3.1 where it ends
        for over in chosen.overstacked:
            if over == path[-1]:
                continue
            state = victory.disrupt(state, sit_of(state).combat[side].get(over, ()))  # §5.3.1: a hex passed over
        state = victory.disrupt(state, sorted(effects.disrupted))
        for unit, points in sorted(effects.losses.items()):
            state, lost = victory.lose(state, unit, points, "5.3.1")
            found_events.extend(lost)
        for hq, points in sorted(effects.hq_support.items()):
            counter = state.hqs[hq]
            state = state.model_copy(
                update={
                    "hqs": {**state.hqs, hq: counter.model_copy(update={"support": max(0, counter.support - points)})}
                }
            )
    if extra:
        for unit in units:
            if state.units[unit].hex is not None:
                state, lost = victory.lose(state, unit, extra, "7.5.2.3")
                found_events.extend(lost)
                if state.units[unit].hex is None:
                    battle = _battle(state)
                    state = _with(state, eliminated=(*battle.eliminated, unit))
    battle = _battle(state)
    state = _with(state, retreats=battle.retreats[1:], displacing=path[-1] if path else None)
    return offer_displacement(state, tuple(found_events))


def _displacements(state: GazalaState) -> tuple[Displacement, ...]:
    where = _battle(state).displacing
    if where is None:
        return ()
    return displacement_options(state.pack, sit_of(state), _role_side(state), HexId(where))


def _chooser(state: GazalaState) -> Side | None:
    where = _battle(state).displacing
    if where is None:
        return None
    return displacement_chooser(state.pack, sit_of(state), _role_side(state), HexId(where))


def offer_displacement(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    """§5.3.3: the opponent displaces the overstacked units one at a time (§5.3.1: the owner eliminates them when
    none can go anywhere)."""
    options = _displacements(state)
    chooser = _chooser(state)
    if not options or chooser is None:
        return _next_retreat(_with(state, displacing=None), events)
    if _seat(state, chooser) is None or len(options) == 1:
        return _apply_displacement(state, options[0], events)
    return Step(state=_ask(state, "displacement", chooser), events=events)


def displacements(state: GazalaState, seat: str) -> Iterator[Displace]:
    if state.battle is not None:
        for option in _displacements(state):
            yield Displace(unit=option.unit, to=option.to)


def can_displace(state: GazalaState, seat: str, act: Displace) -> Verdict:
    verdict = _top_is(state, "displacement")
    if not verdict.ok:
        return verdict
    where = _battle(state).displacing
    assert where is not None
    move = Displacement(act.unit, None if act.to is None else HexId(act.to))
    return check_displacement(state.pack, sit_of(state), _role_side(state), HexId(where), move, by=side_of_seat(seat))


def displace(state: GazalaState, seat: str, act: Displace) -> Step[GazalaState]:
    return _apply_displacement(pop(state), Displacement(act.unit, None if act.to is None else HexId(act.to)), ())


def _apply_displacement(state: GazalaState, move: Displacement, events: tuple[Event, ...]) -> Step[GazalaState]:
    """§5.3.3: the unit goes to the adjacent hex (overstacking it in turn is resolved later), or is eliminated."""
    found = list(events)
    by = _chooser(state)
    if move.to is None:
        state, lost = victory.lose(state, move.unit, state.units[move.unit].cs, "5.3.3")
        found.extend(lost)
    else:
        state = state.model_copy(
            update={"units": {**state.units, move.unit: state.units[move.unit].model_copy(update={"hex": move.to})}}
        )
        found.append(Event(kind="displaced", seat=by, rule="5.3.3", data={"unit": move.unit, "dst": move.to}))
        state = displace_lone_hqs(state, _role_side(state), move.to, found)  # §5.3.2: "for any reason"
        if state.pending and isinstance(state.pending[-1], HqDisplacing):
            return Step(state=state, events=tuple(found))  # its owner decides, then the displacements go on
    return offer_displacement(state, tuple(found))


def _side_done(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    battle = _battle(state)
    if battle.role == "defender":
        return _begin_hits(_with(state, role="attacker"), events)
    return battle_over(state, events)


# --- the end of the combat: lone HQs, Battle Victory (§5.3.2, §7.5.3) ---------------------------------------------


def _lone_hqs(state: GazalaState, events: list[Event]) -> tuple[GazalaState, bool]:
    """§7.5, §5.3.2: an HQ the combat left without a combat unit in the attacking or the defending hex is displaced
    at once, where its owner chooses among the nearest destinations (:func:`~.hq_displace.displace_or_ask`);
    whether the owner's decision is pending."""
    battle = _battle(state)
    alone = hqs_left_alone(sit_of(state), (HexId(battle.source), HexId(battle.target)))
    for side in (battle.side, other(battle.side)):
        own = [hq for hq in alone if state.pack.side_of(hq) == side]
        state, asking = displace_or_ask(state, side, own, len(own), "battle", events)
        if asking:
            return state, True
    return state, False


def battle_over(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    """§7.5.3: the side with fewer CRT hits wins (unless all its units are gone); its In Command units receive the
    bonus APs (two with an In Command Schwerpunkt unit, Axis), to spend at once: the attacker adds them to its
    activation, the defender acts with them in a nested activation (no Reaction to it)."""
    found = list(events)
    state, asking = _lone_hqs(state, found)
    if asking:
        return Step(state=state, events=tuple(found))
    battle = _battle(state)
    assert battle.hits is not None
    eliminated = frozenset(battle.eliminated)
    alive = {u for u in (*battle.attackers, *battle.defenders) if state.units[u].hex is not None}

    def involved(ids: Sequence[str]) -> tuple[Combatant, ...]:
        gone = tuple(Combatant(unit=state.pack.unit(u), strength=battle.before[u][0]) for u in ids if u not in alive)
        return _combatants(state, [u for u in ids if u in alive]) + gone

    att, dfn = involved(battle.attackers), involved(battle.defenders)
    won = battle_victory(
        state.pack, battle.side, (battle.hits[0], battle.hits[2]), att, dfn, eliminated, schwerpunkt=state.schwerpunkt
    )
    state = state.model_copy(update={"battle": None})
    winner = None if won.winner is None else (battle.side if won.winner == "attacker" else other(battle.side))
    if winner is None or not won.bonus_ap or static_side(state.pack, state.scenario) == winner:
        return after_action(state, found)
    found.append(
        Event(
            kind="battle_victory",
            seat=winner,
            rule="7.5.3",
            data={"units": list(won.units), "ap": won.bonus_ap, "location": battle.target},
            text=f"the {side_name(winner)} wins the battle: {won.bonus_ap} bonus AP for {_names(state, won.units)}",
        )
    )
    acting = state.acting
    if acting is not None and acting.side == winner:
        ap = acting.ap - acting.bonus + won.bonus_ap  # §7.5.3: an unspent second bonus AP is lost
        boosted = acting.model_copy(update={"ap": ap, "bonus": won.bonus_ap, "bonus_units": tuple(won.units)})
        key = "reaction" if state.reaction is not None else "activation"
        return Step(state=state.model_copy(update={key: boosted}), events=tuple(found))
    if state.reaction is not None:
        return after_action(state, found)  # ruling: no bonus for the side not acting in a nested activation
    formation = sit_of(state).formation(won.units[0])
    bonus = Activation(
        side=winner,
        formation=formation,
        ap=won.bonus_ap,
        bonus=won.bonus_ap,
        bonus_units=tuple(won.units),
        supplied=all(_supplied(state, u) for u in won.units),
    )
    return Step(state=push(state.model_copy(update={"reaction": bonus}), Reacting(seat=winner)), events=tuple(found))


def bonus_declines(state: GazalaState, seat: str) -> Iterator[DeclineBonus]:
    yield DeclineBonus()


def can_decline_bonus(state: GazalaState, seat: str, act: DeclineBonus) -> Verdict:
    acting = state.acting
    if acting is None or acting.bonus <= 0:
        return deny("7.5.3", "no-bonus", "no Battle Victory bonus AP waits")
    if state.move is not None or state.battle is not None:
        return deny("7.5.3", "busy", "finish the Action first")
    return ALLOW


def decline_bonus(state: GazalaState, seat: str, act: DeclineBonus) -> Step[GazalaState]:
    """§7.5.3: bonus APs not spent at once are lost."""
    acting = state.acting
    assert acting is not None
    lost = acting.model_copy(update={"ap": acting.ap - acting.bonus, "bonus": 0, "bonus_units": ()})
    key = "reaction" if state.reaction is not None else "activation"
    event = Event(kind="bonus_lost", seat=acting.side, rule="7.5.3", data={"ap": acting.bonus})
    return after_action(state.model_copy(update={key: lost}), (event,))
