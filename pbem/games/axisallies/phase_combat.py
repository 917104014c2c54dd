"""Phase 4 of *Axis & Allies: North Africa* (pp.19-23, 28-29): the declared land attacks fought one at a time,
every decision an action of the seat that owns it, every die through the protocol, the rules in the combat
library (:mod:`.combat`).

The moving power picks the next combat (``fight``); a sea zone's is fought by :mod:`.sea_battle`, which shares
the fire, aims and casualties below. Then, in order:

* round 1 with attacks from several territories tied for the most land units: the attacker names the main
  attack (``main``, p.19; the others flank);
* round 1 with attacking air units and defending air defense units: the air defense dice, the attacker's air
  losses (``casualty``, p.31); air units that flew to attack join the combat (air-only attacks included) and
  take hits as the land units do, without an origin (:mod:`.air_sorties`);
* round 1: the attacker may destroy supply there with scout cars and bombers (``strike``, pp.31, 33);
* a territory with no defender but AAA is not fought: its AAA is destroyed (p.31) and the combat concludes;
* each round: the defender's combat orders (``order``: fight, paying the supply, or retreat, p.20); the
  attacker's dice (flanking rerolls chained, p.19), its aims (``aim``: anti-tank guns at tanks in round 1,
  scout cars at air units, bombers at a type, pp.30-33), the defender's casualties one piece at a time
  (``casualty``, p.21); the defender's dice, aims and the attacker's casualties (p.22); retreats of the
  defenders that did not fight (``retreat``, p.22) and the Vichy surrender (p.29); then the attacker presses
  (``turn_aside``, ``press_pay``, ``press``) or ``cease`` s (p.23);
* the end (p.23 step 6): the attacker's land units ``move_in``, trucks are captured, the control marker changes.

RULING (one seat per side in a combat): the defender's decisions are taken by the seat of the defending
power with the most pieces there (Vichy pieces by Germany's seat, p.29), the attacker's by the mover's. The
rulebook gives co-defenders held by different players no decision of their own (p.20, Multinational Forces: they
"must decide together", the attacker choosing if they cannot agree): their agreement is reached outside the log,
and that seat signs it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Literal

from pbem.games.axisallies import air_sorties as air
from pbem.games.axisallies import combat as lib
from pbem.games.axisallies import combat_record as words
from pbem.games.axisallies import sea_battle as sea
from pbem.games.axisallies.actions import (
    Aim,
    Casualty,
    Cease,
    Done,
    Fight,
    Main,
    MoveIn,
    Order,
    Press,
    PressPay,
    Retreat,
    Strike,
    TurnAside,
)
from pbem.games.axisallies.combat_start import defenders_in
from pbem.games.axisallies.combat_types import Battle, Cargo, FireGroup, Hit, Piece, Units, add
from pbem.games.axisallies.movement import retreat_destinations
from pbem.games.axisallies.position import Position, enemy, graph_of
from pbem.games.axisallies.state import (
    AimHits,
    AirDefenseRoll,
    AxisState,
    BattleRecord,
    ChooseMain,
    Counts,
    FireRoll,
    GiveOrders,
    GroupRecord,
    HitRecord,
    MoveInto,
    PressOrCease,
    Retreats,
    StrikeSupply,
    TakeCasualties,
    Volley,
    added,
    key,
    split,
    tally,
)
from pbem.games.axisallies.supply import sources
from pbem.kit.machine import pop, push, replace_top, top
from pbem.rules.contract import ALLOW, Event, Outcome, RollRequest, RollSpec, Step, Verdict, deny

__all__ = [
    "attacker_seat",
    "battle_of",
    "chosen_counts",
    "conclude_combat",
    "defender_seat",
    "fire_volley",
    "shoot_down",
]


def _units(counts: Counts) -> dict[Piece, int]:
    return {split(k): n for k, n in sorted(counts.items()) if n > 0}


def _counts(units: Units) -> Counts:
    return {key(*k): n for k, n in sorted(units.items()) if n > 0}


def battle_of(record: BattleRecord) -> Battle:
    """The combat library's view of the combat under way (at sea: the attacking ships with the air units, the
    damaged battleships, the convoy still in the combat)."""
    cargo = Cargo(_units(record.cargo_units), dict(record.cargo_supply))
    return Battle(
        space=record.space,
        kind=record.kind,
        attacker=record.attacker,
        land={o: _units(c) for o, c in record.land.items()},
        air_sea=add(_units(record.air), _units(record.ships)),
        defenders=_units(record.defenders),
        round=record.round,
        main=record.main,
        damaged=_units(record.damaged),
        cargo=None if cargo.empty() else cargo,
        must_press=record.must_press,
    )


def _battle(state: AxisState) -> BattleRecord:
    assert state.battle is not None  # every combat decision is pushed with its battle
    return state.battle


def _with_battle(state: AxisState, record: BattleRecord | None) -> AxisState:
    return state.model_copy(update={"battle": record})


def _attacker_seat(state: AxisState) -> str:
    return state.seat_of(state.power)


def _defender_seat(state: AxisState, record: BattleRecord) -> str:
    """RULING: the seat of the defending power with the most pieces there (France: its allegiance's operator)."""
    counts: dict[str, int] = {}
    for k, n in {**record.cargo_units, **record.defenders}.items():
        counts[split(k)[0]] = counts.get(split(k)[0], 0) + n
    for power in record.cargo_supply:  # a convoy of supply alone sails on its power's marker (p.18)
        counts.setdefault(power, 0)
    side = enemy(record.attacker)
    for power, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        if power == "france":
            return state.seat_of(next(a for a in state.pack.allegiances if a.side == side).operated_by)
        return state.seat_of(power)
    return state.seat_of(next(p for p in state.seats if state.pack.power(p).side == side))


# --- choosing the next combat ---------------------------------------------------------------------------------


def _targets(state: AxisState) -> list[str]:
    return sorted({g.target for g in state.attacks} | air.unfought_targets(state) | set(state.naval))


def combats_left(state: AxisState) -> bool:
    """Whether a land, air or sea combat is still to be fought this turn."""
    return bool(_targets(state))


def fights(state: AxisState, seat: str) -> Iterator[Fight]:
    for target in _targets(state):
        yield Fight(target=target)


def can_fight(state: AxisState, seat: str, act: Fight) -> Verdict:
    if act.target not in _targets(state):
        return deny("19", "no-such-combat", f"no attack on {act.target} waits to be fought")
    return ALLOW


def fight(state: AxisState, seat: str, act: Fight) -> Step[AxisState]:
    """p.19: the combat on ``target``: its attackers by origin, its defenders (every enemy combat unit there)."""
    pack = state.pack
    if graph_of(pack).kind(act.target) == "sea":
        return sea.fight_at_sea(state, seat, act.target)
    groups = [g for g in state.attacks if g.target == act.target]
    land: dict[str, Counts] = {}
    for g in groups:
        for type_, n in g.units.items():  # a piece another power operates is named "power:type" (p.29)
            land = added(land, g.origin, type_ if ":" in type_ else key(g.power, type_), n)
    side = pack.power(state.power).side or "axis"
    defenders = _counts(defenders_in(pack, state.position(), act.target, side))
    flying: Counts = {}
    sorties = []
    for sortie in state.sorties:  # p.15: the air units that flew to attack here join (air-only attacks too)
        if sortie.target == act.target and not sortie.fought:
            flying[key(sortie.power, sortie.type)] = flying.get(key(sortie.power, sortie.type), 0) + 1
            sortie = sortie.model_copy(update={"fought": True})
        sorties.append(sortie)
    state = state.model_copy(update={"sorties": tuple(sorties)})
    scenario = pack.scenario(state.scenario)
    landing = next((row for row in scenario.torch.landings if row.territory == act.target), None)
    torch = landing is not None and state.round == scenario.torch.round and any(g.origin == act.target for g in groups)
    record = BattleRecord(
        space=act.target,
        attacker=side,
        land=land,
        defenders=defenders,
        air=flying,
        must_press=torch and scenario.torch.must_press_with_all_units,
        controller=landing.controller_if_won if torch and landing is not None else state.power,
    )
    remaining = tuple(g for g in state.attacks if g.target != act.target)
    state = _with_battle(state.model_copy(update={"attacks": remaining}), record)
    text = f"{pack.power(state.power).name} attacks {words.space_name(pack, act.target)}"
    event = Event(kind="combat_started", seat=seat, rule="19", text=text, data={"space": act.target, "attacker": side})
    candidates = lib.main_candidates(battle_of(record))
    if len(record.land) > 1 and len(candidates) > 1:
        return Step(state=push(state, ChooseMain(seat=seat)), events=(event,))
    if len(record.land) > 1:
        state = _with_battle(state, record.model_copy(update={"main": candidates[0]}))
    return _before_round_one(state, (event,))


def mains(state: AxisState, seat: str) -> Iterator[Main]:
    for origin in lib.main_candidates(battle_of(_battle(state))):
        yield Main(origin=origin)


def can_main(state: AxisState, seat: str, act: Main) -> Verdict:
    if act.origin not in lib.main_candidates(battle_of(_battle(state))):
        return deny("19", "not-main-candidate", f"{act.origin} does not have the most attacking land units")
    return ALLOW


def main(state: AxisState, seat: str, act: Main) -> Step[AxisState]:
    state = _with_battle(pop(state), _battle(state).model_copy(update={"main": act.origin}))
    return _before_round_one(state, (Event(kind="main_attack", seat=seat, rule="19", data={"origin": act.origin}),))


def _before_round_one(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    """p.31: air defense fires once, before round 1, at the attacking air units."""
    dice = lib.air_defense_dice(state.pack, battle_of(_battle(state)))
    if not dice:
        return _round(state, events)
    where = words.space_name(state.pack, _battle(state).space)
    spec = RollSpec(id="ad", sides=state.pack.limit("die_sides"), n=dice, purpose=f"{where}: air defense")
    waiting = push(state, AirDefenseRoll(seat=_attacker_seat(state))).with_rolls(RollRequest(rolls=(spec,)))
    return Step(state=waiting, events=events)


def air_defense_rolled(state: AxisState, outcome: Outcome) -> Step[AxisState]:
    """p.31: each die at or under the air defense number destroys an attacking air unit, the attacker's pick."""
    state = pop(state)
    record = _battle(state)
    faces = (outcome.dice or {}).get("ad", ())
    hits = lib.air_defense_hits(state.pack, faces)
    event = Event(kind="air_defense", rule="31", data={"space": record.space, "faces": list(faces), "hits": hits})
    volley = lib.air_defense_volley(state.pack, battle_of(record), hits)
    if not volley:
        return _round(state, (event,))
    stored = tuple(HitRecord(count=h.count, allowed=tuple(sorted(key(*p) for p in h.allowed))) for h in volley)
    decision = TakeCasualties(seat=_attacker_seat(state), role="attacker", hits=stored, stage="air_defense")
    return Step(state=push(state, decision), events=(event,))


def _strikes_or(state: AxisState, then: Literal["fire", "conclude"], events: tuple[Event, ...]) -> Step[AxisState]:
    """pp.31, 33: immediately before the round-1 attack dice (or the end of a combat without a fight), the
    attacker may use its supply strikes."""
    if _battle(state).round == 1 and lib.supply_strikes(state.pack, state.position(), battle_of(_battle(state))):
        return Step(state=push(state, StrikeSupply(seat=_attacker_seat(state), then=then)), events=events)
    return _attack(state, events) if then == "fire" else _no_fight(state, events)


def strikes(state: AxisState, seat: str) -> Iterator[Strike]:
    for ability in ("supply_raider", "collateral_damage"):
        yield Strike(ability=ability)


def _before_strikes(state: AxisState, used: tuple[str, ...]) -> Position:
    """The board before the strikes ``used`` of this combat (each destroyed one token of the attacked
    territory), as :func:`lib.check_supply_strikes` reads it."""
    board = state.position()
    space = _battle(state).space
    return replace(board, supply={**board.supply, space: board.supply_in(space) + len(used)})


def can_strike(state: AxisState, seat: str, act: Strike) -> Verdict:
    decision = top(state, StrikeSupply)
    return lib.check_supply_strikes(
        state.pack, _before_strikes(state, decision.used), battle_of(_battle(state)), (*decision.used, act.ability)
    )


def strike(state: AxisState, seat: str, act: Strike) -> Step[AxisState]:
    decision = top(state, StrikeSupply)
    space = _battle(state).space
    supply = dict(state.supply)
    supply[space] -= 1
    if not supply[space]:
        del supply[space]
    state = state.model_copy(update={"supply": supply})
    rule = "31" if act.ability == "supply_raider" else "33"
    event = Event(kind="supply_destroyed", seat=seat, rule=rule, data={"space": space, "by": act.ability})
    used = (*decision.used, act.ability)
    if any(
        lib.check_supply_strikes(state.pack, _before_strikes(state, used), battle_of(_battle(state)), (*used, a)).ok
        for a in ("supply_raider", "collateral_damage")
    ):
        return Step(state=replace_top(state, decision.model_copy(update={"used": used})), events=(event,))
    return _struck(pop(state), decision.then, (event,))


def done_striking(state: AxisState, seat: str) -> Step[AxisState]:
    return _struck(pop(state), top(state, StrikeSupply).then, ())


def _struck(state: AxisState, then: str, events: tuple[Event, ...]) -> Step[AxisState]:
    return _attack(state, events) if then == "fire" else _no_fight(state, events)


# --- a round: orders, fire, casualties (pp.20-22) ------------------------------------------------------------


def _round(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    record = _battle(state)
    if not battle_of(record).attackers():  # p.31: air defense shot down every attacker (an air-only attack)
        return _conclude(state, events)
    if not lib.needs_fight(state.pack, battle_of(record)):
        return _strikes_or(state, "conclude", events)
    return Step(state=push(state, GiveOrders(seat=_defender_seat(state, record))), events=events)


def _no_fight(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    """p.19, p.31: a territory defended by AAA alone (or by nothing) is not fought: the AAA is destroyed."""
    record = _battle(state)
    if lib.aaa_destroyed(state.pack, battle_of(record)):
        for k, n in record.defenders.items():
            state = _remove(state, record.space, k, n)
        state = _with_battle(state, record.model_copy(update={"defenders": {}}))
        events += (Event(kind="aaa_destroyed", rule="31", data={"space": record.space}),)
    return _conclude(state, events)


def orders(state: AxisState, seat: str) -> Iterator[Order]:
    record = _battle(state)
    for option in lib.orders_options(state.pack, state.position(), battle_of(record)):
        source = next(iter(option.payment), None)
        yield Order(fight=option.fight, exempt_stay=option.exempt_stay, source=source)


def _orders_of(state: AxisState, act: Order) -> lib.Orders:
    payment = {act.source: state.pack.limit("defense_supply")} if act.source is not None else {}
    return lib.Orders(fight=act.fight, exempt_stay=act.exempt_stay, payment=payment)


def can_order(state: AxisState, seat: str, act: Order) -> Verdict:
    return lib.check_orders(state.pack, state.position(), battle_of(_battle(state)), _orders_of(state, act))


def order(state: AxisState, seat: str, act: Order) -> Step[AxisState]:
    record = _battle(state)
    if act.source is not None:
        supply = dict(state.supply)
        supply[act.source] -= state.pack.limit("defense_supply")
        if not supply[act.source]:
            del supply[act.source]
        state = state.model_copy(update={"supply": supply})
    record = record.model_copy(update={"fight": act.fight, "exempt_stay": act.exempt_stay, "marked": {}})
    state = _with_battle(pop(state), record)
    event = Event(
        kind="combat_orders",
        seat=seat,
        rule="20",
        data={"space": record.space, "fight": act.fight, "exempt_stay": act.exempt_stay, "src": act.source},
    )
    return _strikes_or(state, "fire", (event,))


def _attack(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    """p.21 step 2: the attacker's dice."""
    return _fire(state, "attacker", lib.attack_fire(state.pack, battle_of(_battle(state))), events)


def _fire(
    state: AxisState, role: Literal["attacker", "defender"], groups: tuple[FireGroup, ...], events: tuple[Event, ...]
) -> Step[AxisState]:
    record = _battle(state)
    fire = tuple(
        GroupRecord(
            role=g.role, power=g.power, type=g.type, count=g.count, needs=g.needs, target=g.target,
            flanking=g.flanking, supported=g.supported, rule=g.rule,
        )
        for g in groups
    )  # fmt: skip
    state = _with_battle(state, record.model_copy(update={"fire": fire}))
    if not fire:
        return _fired(state, role, events)
    specs = tuple(
        spec.model_copy(update={"purpose": words.fire_purpose(state.pack, record.space, g)})
        for spec, g in zip(lib.roll_specs(state.pack, groups, _prefix(record, role)), fire, strict=True)
    )
    waiting = push(state, FireRoll(seat=_attacker_seat(state), role=role)).with_rolls(RollRequest(rolls=specs))
    return Step(state=waiting, events=events)


def _prefix(record: BattleRecord, role: str) -> str:
    """Roll ids of a volley: ``a1``, ``d1`` (steps 2 and 3 of round 1); ``sa1``, ``sd1``: Surprise Strikes (p.34)."""
    return f"{'s' if record.stage == 'surprise' else ''}{role[0]}{record.round}"


def _group(record: GroupRecord) -> FireGroup:
    return FireGroup(
        record.role, record.power, record.type, record.count, record.needs, record.target,  # type: ignore[arg-type]
        record.flanking, record.supported, record.rule,
    )  # fmt: skip


def rolled(state: AxisState, outcome: Outcome) -> Step[AxisState]:
    """The faces of a fire roll (or of its flanking rerolls, p.19, asked for until none is owed)."""
    decision = top(state, FireRoll)
    record = _battle(state)
    dice = outcome.dice or {}
    prefix = _prefix(record, decision.role)
    fire = []
    for i, g in enumerate(record.fire):
        faces = dice.get(f"{prefix}-{i}")
        fire.append(g.model_copy(update={"batches": (*g.batches, tuple(faces))}) if faces is not None else g)
    record = record.model_copy(update={"fire": tuple(fire)})
    state = _with_battle(state, record)
    owed = [(i, lib.dice_needed(state.pack, _group(g), g.batches)) for i, g in enumerate(record.fire)]
    rerolls = tuple(
        RollSpec(id=f"{prefix}-{i}", sides=state.pack.limit("die_sides"), n=n,
                 purpose=words.reroll_purpose(state.pack, record.space, record.fire[i]))
        for i, n in owed
        if n > 0
    )  # fmt: skip
    if not rerolls:  # the volley is complete: kept for the combat's record
        volley = Volley(round=record.round, surprise=record.stage == "surprise", groups=record.fire)
        state = _with_battle(state, record.model_copy(update={"volleys": (*record.volleys, volley)}))
    event = Event(
        kind="dice_rolled",
        rule="21" if decision.role == "attacker" else "22",
        text=words.fire_text(state.pack, record.space, decision.role, record.fire),
        data={
            "space": record.space,
            "role": decision.role,
            "groups": [
                {"power": g.power, "type": g.type, "needs": g.needs, "faces": [list(b) for b in g.batches]}
                for g in record.fire
            ],
        },
    )
    if rerolls:
        return Step(state=state.with_rolls(RollRequest(rolls=rerolls)), events=(event,))
    return _fired(pop(state), decision.role, (event,))


def _hits(state: AxisState, g: GroupRecord) -> int:
    return lib.group_hits(state.pack, _group(g), g.batches) if g.batches else 0


def _fired(state: AxisState, role: Literal["attacker", "defender"], events: tuple[Event, ...]) -> Step[AxisState]:
    record = _battle(state)
    if role == "defender":
        record = record.model_copy(update={"defender_hits": sum(_hits(state, g) for g in record.fire)})
        state = _with_battle(state, record)
    if any(_aims_open(state, i) for i in range(len(record.fire))):
        seat = _attacker_seat(state) if role == "attacker" else _defender_seat(state, record)
        return Step(state=push(state, AimHits(seat=seat, role=role)), events=events)
    return _assign(state, role, events)


def _pool(state: AxisState, role: Literal["attacker", "defender"]) -> dict[Piece, int]:
    return lib.casualty_pool(state.pack, battle_of(_battle(state)), "defender" if role == "attacker" else "attacker")


def _aims_open(state: AxisState, index: int) -> tuple[str, ...]:
    record = _battle(state)
    g = record.fire[index]
    if sum(g.aims.values()) >= _hits(state, g):
        return ()
    return lib.aim_options(state.pack, battle_of(record), _group(g), _pool(state, g.role))


def aims(state: AxisState, seat: str) -> Iterator[Aim]:
    for i in range(len(_battle(state).fire)):
        for target in _aims_open(state, i):
            yield Aim(group=i, target=target)


def can_aim(state: AxisState, seat: str, act: Aim) -> Verdict:
    record = _battle(state)
    if not 0 <= act.group < len(record.fire):
        return deny("21", "no-such-group", f"there is no fire group {act.group}")
    g = record.fire[act.group]
    more = {**g.aims, act.target: g.aims.get(act.target, 0) + 1}
    return lib.check_aims(state.pack, battle_of(record), _group(g), _hits(state, g), more, _pool(state, g.role))


def aim(state: AxisState, seat: str, act: Aim) -> Step[AxisState]:
    record = _battle(state)
    g = record.fire[act.group]
    fire = list(record.fire)
    fire[act.group] = g.model_copy(update={"aims": {**g.aims, act.target: g.aims.get(act.target, 0) + 1}})
    state = _with_battle(state, record.model_copy(update={"fire": tuple(fire)}))
    event = Event(kind="hit_aimed", seat=seat, rule=g.rule, data={"type": g.type, "at": act.target})
    if any(_aims_open(state, i) for i in range(len(fire))):
        return Step(state=state, events=(event,))
    return _assign(pop(state), g.role, (event,))


def done_aiming(state: AxisState, seat: str) -> Step[AxisState]:
    decision = top(state, AimHits)
    return _assign(pop(state), decision.role, ())


def _assign(state: AxisState, role: Literal["attacker", "defender"], events: tuple[Event, ...]) -> Step[AxisState]:
    """The hits of ``role``'s fire go to the other side, who picks its casualties (p.21, p.22)."""
    record = _battle(state)
    scored = [lib.Scored(_group(g), _hits(state, g), dict(g.aims)) for g in record.fire]
    hits = lib.volley(state.pack, battle_of(record), scored, escorts_shield=sea.shield(state))
    pool = _pool(state, role)
    if not hits or lib.hits_assignable(hits, pool) == 0:
        return _after_casualties(state, role, events)
    loser: Literal["attacker", "defender"] = "defender" if role == "attacker" else "attacker"
    seat = _defender_seat(state, record) if loser == "defender" else _attacker_seat(state)
    stored = tuple(
        HitRecord(
            count=h.count,
            allowed=tuple(sorted(key(*p) for p in h.allowed)),
            preferred=tuple(sorted(key(*p) for p in h.preferred)),
            escorts_first=h.escorts_first,
        )
        for h in hits
    )
    return Step(state=push(state, TakeCasualties(seat=seat, role=loser, hits=stored)), events=events)


def _hit_objects(decision: TakeCasualties) -> tuple[Hit, ...]:
    return tuple(
        Hit(h.count, frozenset(map(split, h.allowed)), frozenset(map(split, h.preferred)), h.escorts_first)
        for h in decision.hits
    )


def _own_pool(state: AxisState, role: Literal["attacker", "defender"]) -> dict[Piece, int]:
    return lib.casualty_pool(state.pack, battle_of(_battle(state)), role)


def _chosen(decision: TakeCasualties) -> Counts:
    """The pieces chosen so far, origins added up."""
    out: Counts = {}
    for counts in decision.chosen.values():
        for k, n in counts.items():
            out[k] = out.get(k, 0) + n
    return out


def _origins(state: AxisState, decision: TakeCasualties, unit_key: str) -> list[str | None]:
    """Where a casualty may come from: the defender's pieces are in the space (None); the attacker names the
    origin of each land unit lost (it decides flanking and the supply to press, pp.19, 23)."""
    record = _battle(state)
    if decision.role == "defender" or record.kind == "sea" or unit_key in record.air:
        return [None]
    return [
        o for o, c in sorted(record.land.items()) if c.get(unit_key, 0) > decision.chosen.get(o, {}).get(unit_key, 0)
    ]


def casualties(state: AxisState, seat: str) -> Iterator[Casualty]:
    decision = top(state, TakeCasualties)
    options = lib.casualty_options(_hit_objects(decision), _own_pool(state, decision.role), _units(_chosen(decision)))
    for piece in options:
        for origin in _origins(state, decision, key(*piece)):
            yield Casualty(unit=key(*piece), origin=origin)


def can_casualty(state: AxisState, seat: str, act: Casualty) -> Verdict:
    decision = top(state, TakeCasualties)
    rule = "31" if decision.stage == "air_defense" else "21" if decision.role == "defender" else "22"
    options = lib.casualty_options(_hit_objects(decision), _own_pool(state, decision.role), _units(_chosen(decision)))
    if split(act.unit) not in options:
        return deny(rule, "casualty-not-allowed", f"{act.unit} cannot be the next casualty")
    if act.origin not in _origins(state, decision, act.unit):
        return deny(rule, "casualty-origin", f"no {act.unit} attacking from {act.origin} can be lost")
    return ALLOW


def casualty(state: AxisState, seat: str, act: Casualty) -> Step[AxisState]:
    decision = top(state, TakeCasualties)
    where = act.origin or ""
    chosen = {o: dict(c) for o, c in decision.chosen.items()}
    chosen = added(chosen, where, act.unit, 1)
    decision = decision.model_copy(update={"chosen": chosen})
    rule = "21" if decision.role == "defender" else "22"
    text = f"{words.piece_name(state.pack, act.unit)} lost ({decision.role})"
    data = {"unit": act.unit, "role": decision.role}
    event = Event(kind="casualty_chosen", seat=seat, rule=rule, text=text, data=data)
    state = _lost(state, decision.role, act.unit)
    hits, pool = _hit_objects(decision), _own_pool(state, decision.role)
    if lib.casualty_options(hits, pool, _units(_chosen(decision))):
        return Step(state=replace_top(state, decision), events=(event,))
    state = pop(state)
    record = _battle(state)
    if record.kind == "sea":
        return sea.casualties_taken(state, decision, (event,))
    if decision.role == "defender":
        state = _with_battle(state, record.model_copy(update={"marked": _chosen(decision)}))
        return _after_casualties(state, "attacker", (event,))
    land = {o: dict(c) for o, c in record.land.items()}
    flying = dict(record.air)
    for origin, counts in chosen.items():  # p.22: the attacker's casualties are removed at once
        for k, n in counts.items():
            if origin:
                state = _attacker_gone(state, origin, k, n)
                land = added(land, origin, k, -n)
            else:  # air units, in the air over the territory
                state = _shot_down(state, record.space, k, n)
                flying[k] = flying.get(k, 0) - n
    flying = {k: n for k, n in flying.items() if n > 0}
    state = _with_battle(state, record.model_copy(update={"land": land, "air": flying}))
    if decision.stage == "air_defense":
        return _round(state, (event,))
    return _after_casualties(state, "defender", (event,))


def _shot_down(state: AxisState, space: str, unit_key: str, n: int) -> AxisState:
    """``n`` of the attacking ``unit_key`` over ``space`` are destroyed (their sorties end)."""
    sorties = list(state.sorties)
    for _ in range(n):
        sortie = next(
            s for s in air.aloft(state, space, split(unit_key)[1]) if s.fought and s.power == split(unit_key)[0]
        )
        sorties.remove(sortie)
        state = state.model_copy(update={"sorties": tuple(sorties)})
    return state


def _after_casualties(
    state: AxisState, fired: Literal["attacker", "defender"], events: tuple[Event, ...]
) -> Step[AxisState]:
    record = _battle(state)
    if record.kind == "sea":
        return sea.after_casualties(state, fired, events)
    if fired == "attacker":
        orders_ = lib.Orders(fight=record.fight, exempt_stay=record.exempt_stay)
        groups = lib.defense_fire(state.pack, battle_of(record), lib.fighting(state.pack, battle_of(record), orders_))
        return _fire(state, "defender", groups, events)
    return _step_four(state, events)


def _remove(state: AxisState, space: str, unit_key: str, n: int) -> AxisState:
    return state.model_copy(update={"pieces": added(state.pieces, space, unit_key, -n)})


def _attacker_gone(state: AxisState, origin: str, unit_key: str, n: int) -> AxisState:
    """``n`` attacking land units leave ``origin`` (lost or moved in), and their mark of pieces spent this turn
    with them: the pieces left there keep what they may still do (p.24, p.38)."""
    state = _remove(state, origin, unit_key, n)
    gone = min(n, tally(state.spent, origin, unit_key))
    return state.model_copy(update={"spent": added(state.spent, origin, unit_key, -gone)})


# --- step 4: casualties removed, retreats, surrender (p.22, p.29) --------------------------------------------


def _step_four(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    record = _battle(state)
    defenders = dict(record.defenders)
    for k, n in record.marked.items():
        state = _remove(state, record.space, k, n)
        defenders = {**defenders, k: defenders.get(k, 0) - n}
    defenders = {k: n for k, n in defenders.items() if n > 0}
    record = record.model_copy(update={"defenders": defenders, "marked": {}})
    state = _with_battle(state, record)
    orders_ = lib.Orders(fight=record.fight, exempt_stay=record.exempt_stay)
    leaving = _counts(lib.retreating(state.pack, battle_of(record), orders_))
    if leaving:
        decision = Retreats(seat=_defender_seat(state, record), survivors=leaving)
        return Step(state=push(state, decision), events=events)
    return _surrender_or_press(state, events)


def _retreat_options(state: AxisState, unit_key: str) -> tuple[str, ...]:
    record = _battle(state)
    land_attacked = frozenset({*state.attacked, record.space})
    power, type_ = split(unit_key)
    scenario = state.pack.scenario(state.scenario)
    return retreat_destinations(
        state.pack, scenario, state.position(), record.space, power, type_,
        land_attacked=land_attacked, blitzed=frozenset(state.blitzed),
    )  # fmt: skip


def retreats(state: AxisState, seat: str) -> Iterator[Retreat]:
    decision = top(state, Retreats)
    for k in sorted(decision.survivors):
        for there in _retreat_options(state, k):
            yield Retreat(unit=k, to=there)


def can_retreat(state: AxisState, seat: str, act: Retreat) -> Verdict:
    decision = top(state, Retreats)
    if decision.survivors.get(act.unit, 0) <= 0:
        return deny("22", "not-retreating", f"{act.unit} is not retreating")
    if act.to not in _retreat_options(state, act.unit):
        return deny("22", "bad-retreat", f"{act.unit} cannot retreat to {act.to}")
    return ALLOW


def retreat(state: AxisState, seat: str, act: Retreat) -> Step[AxisState]:
    decision = top(state, Retreats)
    record = _battle(state)
    state = _remove(state, record.space, act.unit, 1)
    state = state.model_copy(update={"pieces": added(state.pieces, act.to, act.unit, 1)})
    defenders = {k: n - (k == act.unit) for k, n in record.defenders.items()}
    record = record.model_copy(update={"defenders": {k: n for k, n in defenders.items() if n > 0}})
    state = _with_battle(state, record)
    left = {k: n for k, n in {**decision.survivors, act.unit: decision.survivors[act.unit] - 1}.items() if n > 0}
    event = Event(kind="retreated", seat=seat, rule="22", data={"unit": act.unit, "src": record.space, "dst": act.to})
    if left and any(_retreat_options(state, k) for k in left):
        return Step(state=replace_top(state, decision.model_copy(update={"survivors": left})), events=(event,))
    return _lost_in_retreat(pop(state), left, (event,))


def can_done_retreating(state: AxisState) -> Verdict:
    decision = top(state, Retreats)
    if any(_retreat_options(state, k) for k in decision.survivors):
        return deny("22", "retreat-possible", "a retreating unit that can retreat may not stay")
    return ALLOW


def done_retreating(state: AxisState, seat: str) -> Step[AxisState]:
    decision = top(state, Retreats)
    return _lost_in_retreat(pop(state), decision.survivors, ())


def _lost_in_retreat(state: AxisState, left: Counts, events: tuple[Event, ...]) -> Step[AxisState]:
    """p.22: a retreating unit with nowhere to go is destroyed."""
    record = _battle(state)
    defenders = dict(record.defenders)
    for k, n in left.items():
        state = _remove(state, record.space, k, n)
        defenders = {**defenders, k: defenders.get(k, 0) - n}
    if left:
        events += (Event(kind="destroyed_in_retreat", rule="22", data={"space": record.space, "units": left}),)
    record = record.model_copy(update={"defenders": {k: n for k, n in defenders.items() if n > 0}})
    return _surrender_or_press(_with_battle(state, record), events)


def _surrender_or_press(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    record = _battle(state)
    if lib.surrenders(state.pack, battle_of(record), record.defender_hits):
        french = {**state.french, record.space: "allies"}
        state = _with_battle(state.model_copy(update={"french": french}), record.model_copy(update={"defenders": {}}))
        events += (Event(kind="vichy_surrendered", rule="29", data={"space": record.space}),)
        return _conclude(state, events)
    if lib.combat_over(state.pack, battle_of(record)):
        return _conclude(state, events)
    return Step(state=push(state, PressOrCease(seat=_attacker_seat(state))), events=events)


# --- step 5: press or cease (p.23) ---------------------------------------------------------------------------


def _press(state: AxisState) -> lib.Press:
    record = _battle(state)
    return lib.Press(
        retreat={o: _units(c) for o, c in record.turned.items() if o},
        air_retreat=_units(record.turned.get("", {})),
        payment={o: dict(p) for o, p in record.paid.items()},
    )


def turn_asides(state: AxisState, seat: str) -> Iterator[TurnAside]:
    record = _battle(state)
    for origin, counts in sorted(record.land.items()):
        for k in sorted(counts):
            yield TurnAside(origin=origin, unit=k)
    for k in sorted(record.air):
        yield TurnAside(origin=None, unit=k)


def can_turn_aside(state: AxisState, seat: str, act: TurnAside) -> Verdict:
    record = _battle(state)
    if record.kind == "sea":
        return deny("23", "sea-press-with-all", "at sea the attacker presses with every unit or ceases")
    if record.paid:
        return deny("23", "turn-aside-first", "units are turned aside before the supply is paid")
    if record.must_press:
        return deny("28", "must-press-with-all", "the Torch landings press with all units")
    attacking = record.land.get(act.origin, {}) if act.origin else record.air
    there = attacking.get(act.unit, 0) - record.turned.get(act.origin or "", {}).get(act.unit, 0)
    if there <= 0:
        return deny("23", "not-attacking", f"no {act.unit} from {act.origin} is attacking")
    return ALLOW


def turn_aside(state: AxisState, seat: str, act: TurnAside) -> Step[AxisState]:
    record = _battle(state)
    turned = added(record.turned, act.origin or "", act.unit, 1)  # "": the air units
    state = _with_battle(state, record.model_copy(update={"turned": turned}))
    return Step(state=state, events=(Event(kind="turned_aside", seat=seat, rule="23", data={"unit": act.unit}),))


def press_pays(state: AxisState, seat: str) -> Iterator[PressPay]:
    record = _battle(state)
    for origin in sorted(record.land):
        for source in sources(state.pack, state.position(), origin, record.attacker):
            yield PressPay(origin=origin, source=source)


def can_press_pay(state: AxisState, seat: str, act: PressPay) -> Verdict:
    record = _battle(state)
    due = lib.press_due(state.pack, battle_of(record), _press(state)).get(act.origin, 0)
    if sum(record.paid.get(act.origin, {}).values()) >= due:
        return deny("23", "supply-amount", f"pressing from {act.origin} is paid in full")
    available = sources(state.pack, state.position(), act.origin, record.attacker)
    if available.get(act.source, 0) < 1:
        return deny("23", "supply-out-of-reach", f"no usable supply in {act.source} for {act.origin}")
    return ALLOW


def press_pay(state: AxisState, seat: str, act: PressPay) -> Step[AxisState]:
    record = _battle(state)
    paid = {o: dict(p) for o, p in record.paid.items()}
    paid.setdefault(act.origin, {})[act.source] = paid.get(act.origin, {}).get(act.source, 0) + 1
    supply = dict(state.supply)
    supply[act.source] -= 1
    if not supply[act.source]:
        del supply[act.source]
    state = _with_battle(state.model_copy(update={"supply": supply}), record.model_copy(update={"paid": paid}))
    return Step(state=state, events=(Event(kind="supply_spent", seat=seat, rule="23", data={"src": act.source}),))


def _unpaid(state: AxisState) -> Position:
    """The board with the supply paid so far for a press back where it came from (the library judges the whole
    payment against the board before it)."""
    record = _battle(state)
    position = state.position()
    supply = dict(position.supply)
    for paid in record.paid.values():
        for source, n in paid.items():
            supply[source] = supply.get(source, 0) + n
    return replace(position, supply=supply)


def _press_check(state: AxisState) -> Verdict:
    """p.23: the press as turned aside and paid so far."""
    return lib.check_press(
        state.pack, _unpaid(state), battle_of(_battle(state)), _press(state),
        torch_unpaid_press=_torch_unpaid_press(state),
    )  # fmt: skip


def presses(state: AxisState, seat: str) -> Iterator[Press]:
    yield Press()


def can_press(state: AxisState, seat: str, act: Press) -> Verdict:
    return _press_check(state)


def press(state: AxisState, seat: str, act: Press) -> Step[AxisState]:
    record = _battle(state)
    if record.kind == "sea":
        return sea.next_round(state, seat)
    battle = lib.after_press(state.pack, battle_of(record), _press(state))
    record = record.model_copy(
        update={
            "land": {o: _counts(u) for o, u in battle.land.items()},
            "air": _counts(battle.air_sea),
            "round": battle.round,
            "turned": {},
            "paid": {},
        }
    )
    state = _with_battle(pop(state), record)
    event = Event(kind="pressed", seat=seat, rule="23", data={"space": record.space, "round": record.round})
    return _round(state, (event,))


def ceases(state: AxisState, seat: str) -> Iterator[Cease]:
    yield Cease()


def can_cease(state: AxisState, seat: str, act: Cease) -> Verdict:
    return lib.check_cease(
        state.pack, _unpaid(state), battle_of(_battle(state)), torch_unpaid_press=_torch_unpaid_press(state)
    )


def _torch_unpaid_press(state: AxisState) -> bool:
    """The genesis option ``torch_unpaid_press`` (notes §10.22, see :mod:`.combat`)."""
    return state.options.get("torch_unpaid_press") == "on"


def cease(state: AxisState, seat: str, act: Cease) -> Step[AxisState]:
    """p.23: the attack ends; supply already set aside for a press that did not happen goes back."""
    record = _battle(state)
    supply = dict(state.supply)
    for paid in record.paid.values():
        for source, n in paid.items():
            supply[source] = supply.get(source, 0) + n
    state = state.model_copy(update={"supply": supply})
    event = Event(kind="ceased", seat=seat, rule="23", data={"space": record.space})
    return _finish(pop(state), (event,), "attack called off")


# --- step 6: the end of the combat (p.23) ---------------------------------------------------------------------


def _conclude(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    record = _battle(state)
    conclusion = lib.conclude(state.pack, state.position(), battle_of(record), power=record.controller)
    if not conclusion.captured:
        return _finish(state, events, *_unwon(state, record))
    if conclusion.move_in:
        return Step(state=push(state, MoveInto(seat=_attacker_seat(state), left=conclusion.move_in)), events=events)
    return _captured(state, events)


def moves_in(state: AxisState, seat: str) -> Iterator[MoveIn]:
    record = _battle(state)
    for origin, counts in sorted(record.land.items()):
        if origin != record.space:
            for k in sorted(counts):
                yield MoveIn(origin=origin, unit=k)


def can_move_in(state: AxisState, seat: str, act: MoveIn) -> Verdict:
    decision = top(state, MoveInto)
    record = _battle(state)
    conclusion = lib.conclude(state.pack, state.position(), battle_of(record), power=record.controller)
    there = conclusion.movers.get(act.origin, {}).get(split(act.unit), 0)
    if there - decision.moved.get(act.origin, {}).get(act.unit, 0) <= 0:
        return deny("23", "cannot-move-in", f"no {act.unit} from {act.origin} can move in")
    return ALLOW


def move_in(state: AxisState, seat: str, act: MoveIn) -> Step[AxisState]:
    decision = top(state, MoveInto)
    record = _battle(state)
    state = _attacker_gone(state, act.origin, act.unit, 1)
    state = state.model_copy(
        update={
            "pieces": added(state.pieces, record.space, act.unit, 1),
            "spent": added(state.spent, record.space, act.unit, 1),
        }
    )
    moved = added(decision.moved, act.origin, act.unit, 1)
    event = Event(
        kind="moved_in", seat=seat, rule="23", data={"unit": act.unit, "src": act.origin, "dst": record.space}
    )
    if decision.left > 1:
        return Step(
            state=replace_top(state, decision.model_copy(update={"left": decision.left - 1, "moved": moved})),
            events=(event,),
        )
    return _captured(pop(state), (event,))


def _lost(state: AxisState, role: str, unit: str) -> AxisState:
    """One more casualty of ``role`` in the combat's record (removing it is the casualty steps' work)."""
    record = _battle(state)
    casualties = {r: dict(c) for r, c in record.casualties.items()}
    counts = casualties.setdefault(role, {})
    counts[unit] = counts.get(unit, 0) + 1
    return _with_battle(state, record.model_copy(update={"casualties": casualties}))


def _unwon(state: AxisState, record: BattleRecord) -> tuple[str, str | None]:
    """How a combat that took nothing ended, and the power that won it if one did: the defenders' when the
    attack was wiped out, the attacking power's when it cleared a sea zone."""
    battle = battle_of(record)
    attackers = any(n for units in battle.land.values() for n in units.values()) or any(battle.air_sea.values())
    defenders = [power for (power, _), n in battle.defenders.items() if n]
    if attackers and not defenders:
        return "defenders destroyed", state.power
    if defenders and not attackers:
        return "attack repulsed", defenders[0]
    if defenders:
        return "not taken", None
    return "both sides destroyed", None


def _captured(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    """p.23 step 6: trucks captured, supply there now the attacker's (by occupation), control marker changed."""
    record = _battle(state)
    position = state.position()
    conclusion = lib.conclude(state.pack, position, battle_of(record), power=record.controller)
    for piece, n in conclusion.trucks.items():
        state = _remove(state, record.space, key(*piece), n)
        state = state.model_copy(update={"pieces": added(state.pieces, record.space, key(state.power, piece[1]), n)})
    control = dict(state.control)
    if conclusion.controller is not None:
        control[record.space] = conclusion.controller
    state = state.model_copy(update={"control": control})
    # the capturing power (the attacker, or the US for the joint Algiers landing, p.28); only an RP territory
    # takes its control marker (``conclusion.controller``)
    text = f"{words.space_name(state.pack, record.space)} captured by {state.pack.power(record.controller).name}"
    data = {"space": record.space, "by": conclusion.controller}
    event = Event(kind="territory_captured", rule="23", text=text, data=data)
    return _finish(state, (*events, event), "captured", record.controller)


def _finish(state: AxisState, events: tuple[Event, ...], result: str, winner: str | None = None) -> Step[AxisState]:
    """The combat is over (``result``; ``winner``: the power that won, if one did): the next one, or the
    noncombat move (after the end-of-phase stacking check)."""
    from pbem.games.axisallies.phases import close_phase

    record = _battle(state)
    told = words.combat_record(state.pack, record, result, winner)
    won = f", won by {state.pack.power(winner).name}" if winner else ""
    text = f"Combat in {words.space_name(state.pack, record.space)}: {result}{won}"
    data = told.data(space=record.space, attacker=record.attacker)
    ended = Event(kind="combat_resolved", rule="23", text=text, data=data)
    state = _with_battle(state, None)
    if _targets(state):
        return Step(state=state, events=(*events, ended))
    return close_phase(state, (*events, ended))


def done_in_combat(state: AxisState, seat: str, act: Done) -> Step[AxisState] | None:
    """``done`` where a combat decision allows it (stop striking, aiming or retreating); None elsewhere."""
    at_sea = sea.done_at_sea(state, seat)
    if at_sea is not None:
        return at_sea
    kind = state.pending[-1].kind if state.pending else ""
    if kind == "strike_supply":
        return done_striking(state, seat)
    if kind == "aim_hits":
        return done_aiming(state, seat)
    if kind == "retreats":
        return done_retreating(state, seat)
    return None


# --- the names :mod:`.sea_battle` shares ------------------------------------------------------------------------

attacker_seat = _attacker_seat
defender_seat = _defender_seat
fire_volley = _fire
chosen_counts = _chosen
shoot_down = _shot_down
conclude_combat = _conclude
