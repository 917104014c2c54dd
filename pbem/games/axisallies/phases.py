"""A power's turn of *Axis & Allies: North Africa* (p.12): its phases as declared actions of the kit machine.

Each action has a candidate generator, a ``can_*`` predicate citing the rulebook page (the pack's sections are
its pages) and an effect; :mod:`.ruleset` declares them to :class:`~pbem.kit.machine.Machine`. Every rule check
is one of the rule libraries' (:mod:`.economy`, :mod:`.supply`, :mod:`.movement`), so what is offered and what
is accepted cannot drift apart.

* setup (p.9): the UK's variable reinforcements, one piece at a time, then ``done``.
* phase 1 (p.12): convoys advance by themselves at the start of the turn (:func:`convoys`).
* phase 2 (p.13): ``pay_upkeep`` (Malta), ``repair`` (p.13, :mod:`.sea_repair`), ``requisition`` one unit or supply
  point at a time (the US also the Free French, ``france:type``, :mod:`.operated`), ``lay_mine`` / ``lay_sea_mine``
  (p.14, :mod:`.mines`).
* phase 3 (pp.15-18): ``move`` land units (blitzes capture at once; a move into attack position needs the
  supply for an attack there), then ``commit`` units to attacks and ``pay`` their supply (an attack that can
  no longer be paid is ``withdraw`` n); ``done`` checks that every unit that moved into attack position attacks
  while it can and every attack is paid in full. In the round of Operation Torch the landings start declared.
  Sea units move into attack position and their attacks are declared by the move (:mod:`.sea_moves`; the
  optional attack of a friendly zone holding enemy submarines or transports is ``sea_attack``).
* phase 4 (pp.19-23): :mod:`.phase_combat` (at sea :mod:`.sea_battle`).
* phase 5 (p.24): ``move`` land, air and sea units that neither moved nor fought (scout cars that attacked within
  their Long-Range Patrol, :mod:`.patrols`); ``load`` cargo onto the next truck out (p.32, :mod:`.trucks`);
  ``airlift`` with the optional Air Transport (p.38, :mod:`.airlift`).
* phase 6 (p.25): ``deploy`` everything in the Reinforcements Zone, ``escort`` open convoys (:mod:`.sea_escorts`);
  what cannot go anywhere is lost; then the sea mines of the zones that received cargo (p.27, :mod:`.convoy_mines`).
* land mines (p.26, :mod:`.mines`): after the declarations, on every crossed border; a blitzer waits for them.
* the end of every phase (p.12): stacking. An opposing player may ``move_excess`` pieces out, then the owner
  must ``destroy`` pieces until the territory is within its limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pbem.games.axisallies import air_sorties as air
from pbem.games.axisallies import convoy_mines, mines, patrols, phase_combat, sea_escorts, sea_mines, sea_moves, trucks
from pbem.games.axisallies import reserve as strategic
from pbem.games.axisallies.actions import (
    Claim,
    Commit,
    Deploy,
    Destroy,
    Done,
    Move,
    MoveExcess,
    Pay,
    PayUpkeep,
    Place,
    Requisition,
    Withdraw,
)
from pbem.games.axisallies.advantages import ANZAC, anzac_allows
from pbem.games.axisallies.blitz_pairs import blitzes_alone, follow, free_route, record_tank
from pbem.games.axisallies.components import check_components
from pbem.games.axisallies.data import AxisAlliesPack, Scenario, UnitType
from pbem.games.axisallies.economy import (
    Order,
    check_deployment,
    check_requisition,
    check_upkeep,
    check_variable_reinforcements,
    convoy_arrival,
    convoy_next,
    immediate_deployment,
    income,
    pieces_available,
)
from pbem.games.axisallies.movement import Phase as MovePhase
from pbem.games.axisallies.movement import (
    check_land_move,
    excess_destinations,
    landing_spaces,
    may_enter,
    stacking_excess,
)
from pbem.games.axisallies.operated import moved_french, name, operated_pieces, operates, resolve
from pbem.games.axisallies.position import Position, combat_units, enemy, graph_of, side_of, status
from pbem.games.axisallies.scenarios import (
    final_result,
    instant_winner,
    next_turn,
    phase6_events,
    round_start,
)
from pbem.games.axisallies.state import (
    AttackGroup,
    AxisState,
    Counts,
    ExcessDestroy,
    ExcessMove,
    Patrol,
    added,
    key,
    remember,
    remembered,
    split,
    tally,
)
from pbem.games.axisallies.supply import attack_supply_due, exempt_from_attack_supply, sources
from pbem.kit.graph import dijkstra
from pbem.kit.machine import pop, push, replace_top, top
from pbem.rules.contract import ALLOW, Event, Step, Verdict, deny

SUPPLY = "supply"
"""The ``unit`` of a requisitioned or deployed supply point."""


def scenario_of(state: AxisState) -> Scenario:
    """The pack's record of the state's scenario."""
    return state.pack.scenario(state.scenario)


def _side(state: AxisState, power: str) -> str:
    return state.pack.power(power).side or "axis"


def _chart(pack: AxisAlliesPack, power: str, type_: str) -> UnitType | None:
    try:
        return pack.unit(power, type_)
    except KeyError:
        return None


def _pieces_of(state: AxisState, power: str, space: str) -> Counts:
    return {k: n for k, n in state.pieces.get(space, {}).items() if n > 0 and split(k)[0] == power}


def _with_piece(state: AxisState, space: str, unit_key: str, n: int) -> AxisState:
    return state.model_copy(update={"pieces": added(state.pieces, space, unit_key, n)})


def in_play(state: AxisState) -> dict[tuple[str, str], int]:
    """p.9: every piece on the board or in a Reinforcements Zone, by (power, type)."""
    found: dict[tuple[str, str], int] = {}
    for counts in state.pieces.values():
        for k, n in counts.items():
            found[split(k)] = found.get(split(k), 0) + n
    for power, reserve in state.reserve.items():
        for type_, n in reserve.items():
            if type_ != SUPPLY:
                found[(power, type_)] = found.get((power, type_), 0) + n
    for sortie in state.sorties:  # in the air (p.12)
        found[(sortie.power, sortie.type)] = found.get((sortie.power, sortie.type), 0) + 1
    return found


def supply_in_play(state: AxisState) -> int:
    """p.9: supply points anywhere but the general pool."""
    at_sea = sum(n for powers in state.convoy_supply.values() for n in powers.values())
    reserved = sum(r.get(SUPPLY, 0) for r in state.reserve.values())
    return sum(state.supply.values()) + at_sea + reserved


# --- the turn ------------------------------------------------------------------------------------------------


def start_turn(state: AxisState) -> Step[AxisState]:
    """The start of ``state.power``'s turn: fresh bookkeeping, phase 1 (convoys), then income (p.13)."""
    state = state.model_copy(
        update={
            "phase": "purchase",
            "moved": {},
            "obliged": {},
            "exhausted": {},
            "spent": {},
            "kept": {},
            "blitzed": (),
            "blitz_routes": (),
            "sorties": (),
            "attacks": (),
            "attacked": (),
            "ordered": {},
            "upkeep_paid": False,
            "mines_laid": {},
            "patrols": (),
            "loads": {},
            "deployed": {},
            "anzac": 0,
            "landing": tuple(sorted(landing_spaces(state.pack, state.position(), _side(state, state.power)))),
        }
    )
    duty = sea_escorts.on_duty(state)  # p.12: the escorts in place before the convoys move land
    state, events = convoys(state)
    state = _torch_landings(state)
    rp = income(state.pack, state.position(), state.power, upkeep_paid=False)
    state = state.model_copy(update={"rp": rp.value + state.bonus.get(state.power, 0)})
    started = Event(
        kind="turn_started",
        seat=state.seat_of(state.power),
        rule="12",
        data={"power": state.power, "round": state.round, "rp": rp.value},
        text=f"round {state.round}: {state.pack.power(state.power).name}'s turn, {rp.value} RP",
    )
    return Step(state=sea_escorts.with_landings(state, duty), events=(started, *events))


def _torch_landings(state: AxisState) -> AxisState:
    """p.28: in the round of Operation Torch, the turn that resolves the landings starts with them declared:
    every landing power's combat land units in each landing territory attack it, with no supply."""
    torch = scenario_of(state).torch
    if state.round != torch.round or state.power != torch.resolved_in_turn_of:
        return state
    groups = []
    for landing in torch.landings:
        for power in landing.attackers:
            units = {
                split(k)[1]: n
                for k, n in _pieces_of(state, power, landing.territory).items()
                if state.pack.unit(*split(k)).combat and state.pack.unit(*split(k)).category == "land"
            }
            if units:
                groups.append(
                    AttackGroup(
                        power=power, origin=landing.territory, target=landing.territory, units=units, pre_declared=True
                    )
                )
    return state.model_copy(update={"attacks": tuple(groups)})


def convoys(state: AxisState) -> tuple[AxisState, tuple[Event, ...]]:
    """p.12 phase 1: the power's cargo in its convoy zones lands in their ports (up to the port's stacking and
    supply limits, the owner's pieces in chart order; a closed route sends it back to the Reinforcements Zone);
    the UK's Suez cargo lands in Cairo and its ships go to sea zone 31; then the UK chain moves one leg on."""
    pack, power = state.pack, state.power
    events: list[Event] = []
    chain: list[tuple[str, str]] = []
    for zone in pack.sea_zones:
        convoy = zone.convoy
        if convoy is None or power not in convoy.powers:
            continue
        land_to, sea_to = convoy_next(pack, zone.id)
        if convoy.port is None:
            if land_to is not None:
                chain.append((zone.id, land_to))
            continue
        cargo = {k: n for k, n in _pieces_of(state, power, zone.id).items() if pack.unit(*split(k)).category == "land"}
        at_sea = state.convoy_supply.get(zone.id, {}).get(power, 0)
        if sea_to is not None:  # Suez: cargo to Cairo, ships to sea zone 31
            ships = {
                k: n for k, n in _pieces_of(state, power, zone.id).items() if pack.unit(*split(k)).category == "sea"
            }
            for k, n in ships.items():
                state = _with_piece(_with_piece(state, zone.id, k, -n), sea_to, k, n)
        if not cargo and not at_sea:
            continue
        arrival = convoy_arrival(pack, state.position(), zone.id, power, at_sea)
        if arrival.closed:
            reserve = dict(state.reserve.get(power, {}))
            for k, n in cargo.items():
                state = _with_piece(state, zone.id, k, -n)
                reserve[split(k)[1]] = reserve.get(split(k)[1], 0) + n
            if at_sea:
                reserve[SUPPLY] = reserve.get(SUPPLY, 0) + at_sea
            state = _set_convoy_supply(state, zone.id, power, 0)
            state = state.model_copy(update={"reserve": {**state.reserve, power: reserve}})
            events.append(Event(kind="convoy_returned", rule="12", data={"zone": zone.id, "power": power}))
            continue
        port = convoy.port
        room = arrival.combat_room
        landed: Counts = {}
        for unit in pack.units:
            k = key(unit.power, unit.type)
            n = cargo.get(k, 0)
            if not n:
                continue
            take = n if not unit.combat else min(n, room)
            room -= take if unit.combat else 0
            if take:
                state = _with_piece(_with_piece(state, zone.id, k, -take), port, k, take)
                landed[k] = take
        if arrival.supply_landed:
            state = _set_convoy_supply(state, zone.id, power, at_sea - arrival.supply_landed)
            supply = dict(state.supply)
            supply[port] = supply.get(port, 0) + arrival.supply_landed
            state = state.model_copy(update={"supply": supply})
        events.append(
            Event(
                kind="convoy_landed",
                rule="12",
                data={"zone": zone.id, "port": port, "units": landed, "supply": arrival.supply_landed},
            )
        )
    riding = sea_escorts.riding  # notes §10.16: air units may stay to land
    moved = [
        (src, dst, riding(state, _pieces_of(state, power, src)), state.convoy_supply.get(src, {}).get(power, 0))
        for src, dst in chain
    ]
    for src, _, counts, _at_sea in moved:
        for k, n in counts.items():
            state = _with_piece(state, src, k, -n)
        state = _set_convoy_supply(state, src, power, 0)
    for src, dst, counts, at_sea in moved:
        for k, n in counts.items():
            state = _with_piece(state, dst, k, n)
        if at_sea:
            state = _set_convoy_supply(state, dst, power, state.convoy_supply.get(dst, {}).get(power, 0) + at_sea)
        if counts or at_sea:
            events.append(Event(kind="convoy_advanced", rule="12", data={"from": src, "to": dst, "power": power}))
    return state, tuple(events)


def _set_convoy_supply(state: AxisState, zone: str, power: str, n: int) -> AxisState:
    convoy = {z: dict(p) for z, p in state.convoy_supply.items()}
    here = convoy.setdefault(zone, {})
    if n:
        here[power] = n
    else:
        here.pop(power, None)
    if not here:
        del convoy[zone]
    return state.model_copy(update={"convoy_supply": convoy})


def _next_phase(state: AxisState) -> Step[AxisState]:
    """The phase after the current one (the end of phase 6 ends the turn)."""
    order = {
        "setup": "purchase",
        "purchase": "combat_move",
        "combat_move": "declare",
        "combat": "noncombat_move",
        "noncombat_move": "deploy",
    }
    if state.phase == "declare":
        state, paid = strategic.pay_reserve(_after_declare(state))
        step = mines.after_declarations(state)
        return Step(state=step.state, events=paid + step.events)
    if state.phase in order:
        following = order[state.phase]
        if state.phase == "setup":
            return start_turn(state.model_copy(update={"placed": {}}))
        return Step(state=state.model_copy(update={"phase": following}))
    return end_turn(state)


def end_turn(state: AxisState) -> Step[AxisState]:
    """p.12: the next power's turn, a new round (with its events), or the end of the game (p.6)."""
    scenario = scenario_of(state)
    following = next_turn(state, state.pack, scenario)
    ended = Event(kind="turn_ended", seat=state.seat_of(state.power), rule="12", data={"power": state.power})
    state = state.model_copy(update={"bonus": {p: n for p, n in state.bonus.items() if p != state.power}})
    if following is None:
        winner, outcome = final_result(state.pack, scenario, state)
        over = state.model_copy(update={"phase": "over", "winner": winner, "outcome": outcome})
        return Step(
            state=over, events=(ended, Event(kind="game_ended", rule="6", data={"winner": winner}, text=outcome))
        )
    power, round_ = following
    events: tuple[Event, ...] = (ended,)
    if round_ != state.round:
        state, extra = round_start(state.model_copy(update={"round": round_}), state.pack, scenario)
        events += extra
    step = start_turn(state.model_copy(update={"power": power}))
    return Step(state=step.state, events=events + step.events)


def check_victory(step: Step[AxisState]) -> Step[AxisState]:
    """p.6: Instant Total Victory ends the game at once, whatever was under way."""
    state = step.state
    if state.phase in ("over", "setup"):
        return step
    found = instant_winner(state.pack, scenario_of(state), state)
    if found is None:
        return step
    side, how = found
    over = state.model_copy(
        update={"phase": "over", "pending": (), "winner": side, "outcome": f"{side} total victory: {how}"}
    )
    return Step(state=over, events=(*step.events, Event(kind="game_ended", rule="6", data={"winner": side}, text=how)))


# --- done: the end of a phase and stacking (p.12) ------------------------------------------------------------


def close_phase(state: AxisState, events: tuple[Event, ...] = ()) -> Step[AxisState]:
    """p.12: at the end of a phase, an over-stacked territory first waits for an opposing player, then for its
    owner; once every territory is within its limit, the next phase begins."""
    if state.phase not in ("setup", "purchase"):
        found = _first_excess(state)
        if found is not None:
            territory, side = found
            decision = ExcessMove(seat=_enforcer(state, side), territory=territory, side=side)
            return Step(state=push(state, decision), events=events)
    step = _next_phase(state)
    return check_victory(Step(state=step.state, events=events + step.events))


def _first_excess(state: AxisState) -> tuple[str, str] | None:
    position = state.position()
    for territory in state.pack.territories:
        if territory.id not in state.pieces:
            continue
        for side in ("axis", "allies"):
            if stacking_excess(state.pack, position, territory.id, side):
                return territory.id, side
    return None


def _enforcer(state: AxisState, side: str) -> str:
    """RULING (notes §10.26, option ``stacking_enforcer``): the opposing player is the seat of the first power of
    the other side after the current power in turn order."""
    order = sorted((p for p in state.pack.powers if p.turn_order is not None), key=lambda p: p.turn_order or 0)
    ids = [p.id for p in order]
    start = ids.index(state.power) if state.power in ids else 0
    for power in ids[start + 1 :] + ids[: start + 1]:
        if _side(state, power) != side:
            return state.seat_of(power)
    return state.seat_of(state.power)


def _owner_seat(state: AxisState, territory: str, side: str) -> str:
    """p.12: the owner destroys the excess: the moving power's seat if it is on that side, else the seat of the
    first power of the side with pieces there (France's pieces are decided by their operator, p.29)."""
    if _side(state, state.power) == side:
        return state.seat_of(state.power)
    for k in state.pieces.get(territory, {}):
        power = split(k)[0]
        if power == "france":
            allegiance = next(a for a in state.pack.allegiances if a.side == side)
            return state.seat_of(allegiance.operated_by)
        if _side(state, power) == side:
            return state.seat_of(power)
    return state.seat_of(state.power)


def dones(state: AxisState, seat: str) -> Iterator[Done]:
    yield Done()


def can_done(state: AxisState, seat: str, act: Done) -> Verdict:
    if state.pending and state.pending[-1].kind == "retreats":
        return phase_combat.can_done_retreating(state)
    if state.pending and state.pending[-1].kind == "land_escorts":
        return sea_escorts.can_done_landing(state)
    if state.pending:
        return ALLOW  # an opposing player stops moving excess units; an attacker strikes or aims no more
    if state.phase == "declare":
        return _declarations_complete(state)
    if state.phase == "deploy":
        return can_done_deploy(state)
    landings = (Move(unit=t, origin=o, to=d) for t, o, d in air.landings(state))
    if state.phase == "noncombat_move" and any(can_move(state, seat, m).ok for m in landings):
        return deny("24", "air-must-land", "an air unit that attacked can still land")
    if state.phase == "combat_move":
        return sea_moves.can_end_combat_move(state)
    return ALLOW


def done(state: AxisState, seat: str, act: Done) -> Step[AxisState]:
    in_combat = phase_combat.done_in_combat(state, seat, act)
    if in_combat is not None:
        return in_combat
    if state.pending and state.pending[-1].kind == "detonation":
        return mines.done_detonating(state, seat)
    if state.pending and state.pending[-1].kind == "sea_detonation":
        return convoy_mines.done_sea(state, seat)
    if state.pending:
        decision = top(state, ExcessMove)
        owner = ExcessDestroy(
            seat=_owner_seat(state, decision.territory, decision.side), territory=decision.territory, side=decision.side
        )
        return Step(state=replace_top(state, owner))
    if state.phase in sea_mines.MOVE_PHASES:  # p.27: the end of step 1 of the loop, else of the phase
        stepped = sea_mines.end_step(state, seat)
        if stepped is not None:
            return stepped
        state = state.model_copy(update={"halts": (), "drives": ()})  # trucks on their way stop (p.32)
    event = Event(kind="phase_ended", seat=seat, rule="12", data={"phase": state.phase, "power": state.power})
    if state.phase == "deploy":
        return convoy_mines.after_deployments(state, (event,))
    if state.phase == "noncombat_move":
        state, lost = air.ditch(state)
        return close_phase(state, (event, *lost))
    return close_phase(state, (event,))


# --- setup: UK variable reinforcements (p.9) -----------------------------------------------------------------


def places(state: AxisState, seat: str) -> Iterator[Place]:
    for row in scenario_of(state).setup.variable_reinforcements:
        for unit in state.pack.units:
            if unit.power == row.power and unit.combat and unit.cost is not None:
                yield Place(zone=row.zone, unit=unit.type)


def can_place(state: AxisState, seat: str, act: Place) -> Verdict:
    rows = [r for r in scenario_of(state).setup.variable_reinforcements if r.zone == act.zone]
    if not rows:
        return deny("9", "not-a-variable-zone", f"{act.zone} takes no variable reinforcements")
    row = rows[0]
    if state.seat_of(row.power) != seat:
        return deny("9", "not-your-reinforcements", f"the variable reinforcements are {row.power}'s")
    units = dict(state.placed.get(act.zone, {}))
    units[act.unit] = units.get(act.unit, 0) + 1
    verdict = check_variable_reinforcements(state.pack, scenario_of(state), act.zone, units)
    if not verdict.ok:
        return verdict
    return _pieces_left(state, row.power, act.unit)


def _pieces_left(state: AxisState, power: str, type_: str) -> Verdict:
    unit = _chart(state.pack, power, type_)
    if unit is None:
        return deny("8", "unknown-unit", f"{power} has no {type_}")
    strict = unit.category in ("air", "sea") or not unit.combat
    available = pieces_available(state.pack, scenario_of(state), state.round, unit)
    if strict and in_play(state).get((power, type_), 0) >= available:
        return deny("9", "no-pieces-left", f"no {unit.id} pieces left in the pool")
    return ALLOW


def place_unit(state: AxisState, seat: str, act: Place) -> Step[AxisState]:
    row = next(r for r in scenario_of(state).setup.variable_reinforcements if r.zone == act.zone)
    placed = {z: dict(u) for z, u in state.placed.items()}
    zone = placed.setdefault(act.zone, {})
    zone[act.unit] = zone.get(act.unit, 0) + 1
    state = _with_piece(state.model_copy(update={"placed": placed}), act.zone, key(row.power, act.unit), 1)
    event = Event(kind="placed", seat=seat, rule="9", data={"zone": act.zone, "unit": act.unit, "power": row.power})
    return Step(state=state, events=(event,))


# --- phase 2: income and requisition (p.13) ------------------------------------------------------------------


def upkeeps(state: AxisState, seat: str) -> Iterator[PayUpkeep]:
    for territory in state.pack.territories:
        if territory.rp_upkeep_supply is not None:
            yield PayUpkeep(territory=territory.id)


def can_pay_upkeep(state: AxisState, seat: str, act: PayUpkeep) -> Verdict:
    if state.upkeep_paid or state.ordered or state.mines_laid:
        return deny("13", "upkeep-first", "the upkeep is paid once, at the start of phase 2, before requisitions")
    if not any(t.id == act.territory for t in state.pack.territories):
        return deny("10", "unknown-territory", f"there is no territory {act.territory}")
    return check_upkeep(state.pack, state.position(), state.power, act.territory)


def pay_upkeep(state: AxisState, seat: str, act: PayUpkeep) -> Step[AxisState]:
    cost = state.pack.territory(act.territory).rp_upkeep_supply or 0
    supply = dict(state.supply)
    supply[act.territory] -= cost
    if not supply[act.territory]:
        del supply[act.territory]
    state = state.model_copy(update={"supply": supply, "upkeep_paid": True})
    rp = income(state.pack, state.position(), state.power, upkeep_paid=True)
    state = state.model_copy(update={"rp": rp.value + state.bonus.get(state.power, 0)})
    event = Event(kind="upkeep_paid", seat=seat, rule="13", data={"territory": act.territory, "rp": rp.value})
    return Step(state=state, events=(event,))


def requisitions(state: AxisState, seat: str) -> Iterator[Requisition]:
    for unit in state.pack.units:
        if unit.power == state.power:
            yield Requisition(unit=unit.type)
    for rule in state.pack.immediate_deployments:  # p.29: the Free French, named "france:type"
        allegiance = next((a for a in state.pack.allegiances if a.id == rule.allegiance), None)
        if allegiance is not None and allegiance.operated_by == state.power:
            for type_ in rule.units:
                yield Requisition(unit=key(rule.power, type_))
    yield Requisition(unit=SUPPLY)


def _order(state: AxisState, extra: str | None, land_mines: int = 0, sea_mines: int = 0) -> Order:
    """This turn's requisitions with ``extra`` (a unit type or supply) and more mine tokens (p.14: bought in
    phase 2 with the same RP)."""
    units: dict[tuple[str, str], int] = {}
    supply = 0
    wanted = dict(state.ordered)
    if extra is not None:
        wanted[extra] = wanted.get(extra, 0) + 1
    for k, n in wanted.items():
        if k == SUPPLY:
            supply = n
        else:
            units[resolve(state, k)] = n
    sea = {z.id for z in state.pack.sea_zones}
    laid_at_sea = sum(n for s, n in state.mines_laid.items() if s in sea)
    laid_on_land = sum(state.mines_laid.values()) - laid_at_sea
    return Order(units=units, supply=supply, land_mines=laid_on_land + land_mines, sea_mines=laid_at_sea + sea_mines)


def can_afford(state: AxisState, *, land_mines: int = 0, sea_mines: int = 0) -> Verdict:
    """p.13: whether this turn's RP also pay for more mine tokens (p.14)."""
    return check_requisition(
        state.pack,
        scenario_of(state),
        state.position(),
        state.power,
        _order(state, None, land_mines, sea_mines),
        state.rp,
        in_play=_in_play_before_orders(state),
        supply_in_play=supply_in_play(state) - state.ordered.get(SUPPLY, 0),
        options=frozenset(o for o, v in state.options.items() if v == "on"),
    )


def can_requisition(state: AxisState, seat: str, act: Requisition) -> Verdict:
    if act.unit != SUPPLY and _chart(state.pack, *resolve(state, act.unit)) is None:
        return deny("13", "not-on-chart", f"{state.power} has no {act.unit}")
    verdict = check_requisition(
        state.pack,
        scenario_of(state),
        state.position(),
        state.power,
        _order(state, act.unit),
        state.rp,
        in_play=_in_play_before_orders(state),
        supply_in_play=supply_in_play(state) - state.ordered.get(SUPPLY, 0),
        options=frozenset(o for o, v in state.options.items() if v == "on"),
    )
    if not verdict.ok:
        return verdict
    placed = None if act.unit == SUPPLY else state.pack.unit(*resolve(state, act.unit))
    return check_components(requisition(state, seat, act).state, placed)


def _in_play_before_orders(state: AxisState) -> dict[tuple[str, str], int]:
    """The pieces in play less this turn's requisitions, which :func:`check_requisition` counts with the order
    (once per state: every requisition and mine offered asks)."""
    return dict(remembered(state, "in_play_before_orders", lambda: _before_orders(state)))


def _before_orders(state: AxisState) -> dict[tuple[str, str], int]:
    found = in_play(state)
    for type_, n in state.ordered.items():
        if type_ != SUPPLY:
            found[resolve(state, type_)] -= n
    return found


def requisition(state: AxisState, seat: str, act: Requisition) -> Step[AxisState]:
    ordered = dict(state.ordered)
    ordered[act.unit] = ordered.get(act.unit, 0) + 1
    state = state.model_copy(update={"ordered": ordered})
    where = None if act.unit == SUPPLY else immediate_deployment(state.pack, state.pack.unit(*resolve(state, act.unit)))
    if where is not None:
        power, type_ = resolve(state, act.unit)
        state = _with_piece(state, where, key(power, type_), 1)
        if power != state.power:  # p.29: Free French, placed in Oran, serve the Allies there
            side = _side(state, state.power)
            state = state.model_copy(update={"french": {**state.french, where: side}})
    else:
        reserve = dict(state.reserve.get(state.power, {}))
        reserve[act.unit] = reserve.get(act.unit, 0) + 1
        state = state.model_copy(update={"reserve": {**state.reserve, state.power: reserve}})
    event = Event(
        kind="requisitioned", seat=seat, rule="13", data={"power": state.power, "unit": act.unit, "to": where}
    )
    return Step(state=state, events=(event,))


# --- moves (pp.15, 24) ---------------------------------------------------------------------------------------


def _movable(state: AxisState, space: str, unit_key: str) -> int:
    """Pieces of ``unit_key`` in ``space`` that may still move in this phase."""
    here = state.count(space, unit_key)  # p.27, p.32: ships stopped by mines sail on, trucks on their way drive on
    here += sea_mines.survivors(state, space, unit_key) + trucks.en_route(state, space, unit_key)
    if state.phase == "combat_move":
        return here - tally(state.moved, space, unit_key)
    own = split(unit_key)[0] == state.power
    return here - tally(state.spent, space, unit_key) - (trucks.loaded(state, space, split(unit_key)[1]) if own else 0)


def movable(state: AxisState, space: str, unit_key: str) -> int:
    """Pieces of ``unit_key`` in ``space`` that may still move in this phase."""
    return _movable(state, space, unit_key)


def air_reach_path(state: AxisState, type_: str, origin: str, to: str) -> tuple[str, ...] | None:
    """p.33: a shortest way the acting power's air unit ``type_`` flies from ``origin`` to ``to`` within its move
    (the kit's search, spaces it may enter), or None."""
    pack, scenario, position = state.pack, scenario_of(state), state.position()
    unit = pack.unit(state.power, type_)
    side = side_of(pack, position, state.power, origin)
    graph = graph_of(pack)

    def expand(here: str, _spent: int) -> Iterator[tuple[str, int]]:
        for edge in graph.edges(here):
            if edge.type != "convoy" and may_enter(pack, scenario, position, side, unit, edge.b, edge.a).ok:
                yield edge.b, 1

    search = dijkstra([origin], expand, limit=unit.move)
    return search.path(to) if to in search.cost and to != origin else None


def _paths(state: AxisState, start: str, unit: UnitType) -> Iterator[tuple[str, ...]]:
    """Simple paths ``unit`` might take out of ``start`` (1.. :func:`_longest` steps), depth first in the map's
    order: land edges only for land units, sea zones only for sea units; beyond the unit's own move only along
    the coast road (pp.30-32), the only way a unit moves further."""
    graph = graph_of(state.pack)
    land = unit.category == "land"
    longest = _longest(state, unit)
    road = {t.id for t in state.pack.territories if t.coast_road}
    stack: list[tuple[str, ...]] = [(start,)]
    while stack:
        path = stack.pop()
        if len(path) > 1:
            yield path
        if len(path) - 1 >= longest:
            continue
        beyond = len(path) - 1 >= unit.move
        if beyond and not all(t in road for t in path):
            continue
        nexts = []
        for edge in graph.edges(path[-1]):
            if edge.type == "convoy" or edge.b in path or land != (edge.type == "land"):
                continue
            if not land and edge.type == "coast":  # sea units sail from sea zone to sea zone (p.33)
                continue
            if beyond and edge.b not in road:
                continue
            nexts.append((*path, edge.b))
        stack.extend(reversed(nexts))


def _ways(state: AxisState, start: str, unit: UnitType) -> Iterable[tuple[str, ...]]:
    """The paths a move's way is chosen from, in the order the first legal one is taken (:func:`find_path`, and
    :func:`moves`, which records find_path's answers): the map's order, but a shortest way first for a ship (it
    enters the fewest zones, p.27) and a truck (one on its way keeps the most of its move, p.32)."""
    ways = _paths(state, start, unit)
    return sorted(ways, key=len) if unit.category == "sea" or trucks.is_truck(unit) else ways


def _longest(state: AxisState, unit: UnitType) -> int:
    if unit.category == "sea":
        return unit.move
    if state.phase == "combat_move":
        return unit.move if unit.has("blitz") else unit.move - 1
    road = state.pack.limit("coast_road_territories") if unit.has("coast_road_movement") else 0
    return max(unit.move, road)


def _check_path(state: AxisState, power: str, unit: UnitType, path: tuple[str, ...]) -> Verdict:
    """Whether ``power`` may move ``unit`` along ``path`` now (judged once per state: the legal moves try every
    path, and each move they offer is checked again)."""
    return remembered(
        state, ("path", power, unit.power, unit.type, path), lambda: _judge_path(state, power, unit, path)
    )


def _judge_path(state: AxisState, power: str, unit: UnitType, path: tuple[str, ...]) -> Verdict:
    pack, position = state.pack, state.position()
    if unit.category == "land":
        phase: MovePhase = "combat" if state.phase == "combat_move" else "noncombat"
        if _goes_along(state, unit) and _blitz_path(state, path):
            return deny("15", "blitz-needs-tank", f"{unit.id} blitzes only along with a tank that blitzed first")
        return check_land_move(
            pack, scenario_of(state), position, power, unit.type, path, phase=phase, blitzed=frozenset(state.blitzed)
        )
    return sea_moves.check_move(state, power, unit, path)


def find_path(
    state: AxisState, power: str, unit: UnitType, origin: str, to: str
) -> tuple[tuple[str, ...] | None, Verdict]:
    """The first legal path from ``origin`` to ``to`` (in :func:`_ways`' order), or None with the refusal of the direct
    step (else of the first path tried): a move names its ends, the rules choose the way, as a player would.
    Once per state: :func:`moves` finds the same first paths and records them."""
    return remembered(state, _found(power, unit, origin, to), lambda: _find_path(state, power, unit, origin, to))


def _found(power: str, unit: UnitType, origin: str, to: str) -> tuple[str, ...]:
    """The name of :func:`find_path`'s answer in :func:`.state.remembered`."""
    return ("find_path", power, unit.power, unit.type, origin, to)


def _find_path(
    state: AxisState, power: str, unit: UnitType, origin: str, to: str
) -> tuple[tuple[str, ...] | None, Verdict]:
    first: Verdict | None = None
    if graph_of(state.pack).edge(origin, to) is not None:
        first = _check_path(state, power, unit, (origin, to))  # the direct step's own reason
    for path in _ways(state, origin, unit):
        if path[-1] != to:
            continue
        verdict = _check_path(state, power, unit, path)
        if verdict.ok:
            return path, verdict
        first = first or verdict
    rule = "15" if state.phase == "combat_move" else "24"
    return None, first or deny(rule, "no-path", f"no way from {origin} to {to}")


def moves(state: AxisState, seat: str) -> Iterator[Move]:
    power = state.power
    for space in sorted(state.pieces):
        for k in sorted(operated_pieces(state, space)):
            unit = state.pack.unit(*split(k))
            named = name(state, k)
            if not _may_move(state, unit, space):
                continue
            if _movable(state, space, k) <= 0 and not _patrol_only(state, space, k):
                continue
            if unit.category == "air" and state.phase == "combat_move":
                for there in air.sortie_targets(state, unit, space):
                    yield Move(unit=named, origin=space, to=there)
                continue
            if unit.category == "air":
                reach = air.air_reach(state, power, unit, space, unit.move)
                for there in sorted(reach):
                    if there in state.landing and there != space:
                        yield Move(unit=named, origin=space, to=there)
                continue
            seen: set[str] = set()
            if _patrol_only(state, space, k):
                for there in _patrol_ends(state, unit, space):
                    yield Move(unit=named, origin=space, to=there)
                continue
            if state.phase == "combat_move" and unit.has("blitz"):
                for route in state.blitz_routes:
                    if route.path[0] == space and free_route(state, space, route.path[-1]) is not None:
                        seen.add(route.path[-1])
                        yield Move(unit=named, origin=space, to=route.path[-1])
            for path in _ways(state, space, unit):
                if path[-1] in seen:
                    continue
                verdict = _check_path(state, unit.power, unit, path)
                if verdict.ok:
                    seen.add(path[-1])
                    # the first legal path there in find_path's order: find_path's answer
                    remember(state, _found(unit.power, unit, space, path[-1]), (path, verdict))
                    yield Move(unit=named, origin=space, to=path[-1])
    if state.phase == "noncombat_move":
        for type_, over, there in air.landings(state):
            yield Move(unit=type_, origin=over, to=there)


def _may_move(state: AxisState, unit: UnitType, space: str) -> bool:
    """Which pieces move in each phase: land, air and sea units; land units at sea are convoy cargo and never move
    by themselves (p.14)."""
    if graph_of(state.pack).kind(space) == "sea" and unit.category == "land":
        return False
    return unit.category in ("land", "air", "sea")


def _landing_waits(state: AxisState, space: str) -> Verdict:
    """p.28: in the round of the Torch landings, the landing units of a power that fights them on another power's
    turn (the UK in Algiers) cannot act on their own turn."""
    torch = scenario_of(state).torch
    landing = any(row.territory == space for row in torch.landings)
    if state.round == torch.round and state.power in torch.inactive_in_own_turn and landing:
        return deny("28", "landing-units-wait", f"{state.power}'s units in {space} attack on the landing's turn")
    return ALLOW


def can_move(state: AxisState, seat: str, act: Move) -> Verdict:
    rule = "15" if state.phase == "combat_move" else "24"
    graph = graph_of(state.pack)
    if act.origin not in graph.nodes or act.to not in graph.nodes:
        return deny("10", "unknown-space", f"{act.origin} or {act.to} is not a space of the map")
    power, type_ = resolve(state, act.unit)
    unit = _chart(state.pack, power, type_)
    if unit is None:
        return deny("8", "unknown-unit", f"{power} has no {type_}")
    if not operates(state, power, act.origin):
        return deny("29", "not-operated", f"{state.power} does not move {power}'s pieces in {act.origin}")
    if state.phase == "noncombat_move" and unit.category == "air" and air.aloft(state, act.origin, act.unit):
        return air.can_land(state, unit, act.origin, act.to)  # flying back from an attack, on the board nowhere
    waiting = _landing_waits(state, act.origin)
    if not waiting.ok:
        return waiting
    k = key(power, type_)
    if _patrol_only(state, act.origin, k):
        return _patrol_path(state, unit, act.origin, act.to)[1]
    if _movable(state, act.origin, k) <= 0:
        return deny(rule, "no-unit-to-move", f"no {unit.id} in {act.origin} may move in this phase")
    if not _may_move(state, unit, act.origin):
        if unit.category == "land":
            return deny("14", "convoy-cargo", f"{unit.id} at sea is convoy cargo and does not move")
        return deny("15", "air-sea-combat-move", f"{unit.id} makes no combat move in this engine")
    if unit.category == "air" and state.phase == "combat_move":
        verdict = strategic.check_reserve(state, 1)
        return verdict if not verdict.ok else air.can_sortie(state, unit, act.origin, act.to)
    if unit.category == "air":
        return _can_fly(state, unit, act.origin, act.to)
    if _follows(state, unit, act) is not None:
        return ALLOW
    if _goes_along(state, unit) and any((r.path[0], r.path[-1]) == (act.origin, act.to) for r in state.blitz_routes):
        return deny("15", "one-per-tank", f"1 {unit.id} at most goes along with each blitzing tank")
    path, verdict = find_path(state, power, unit, act.origin, act.to)
    if path is None:
        return verdict
    if trucks.is_truck(unit) and trucks.carries(state, act.origin):
        return trucks.check_haul(state, unit, path)
    if state.phase == "combat_move" and unit.category == "land" and not _blitz_path(state, path):
        arrived = _with_piece(_with_piece(state, act.origin, k, -1), act.to, k, 1)
        if not _could_attack(arrived.model_copy(update={"phase": "declare"}), act.to, act.unit):
            return deny("15", "no-supply-for-attack", f"from {act.to} no attack could be paid for")
    return ALLOW


def _patrol_only(state: AxisState, space: str, unit_key: str) -> bool:
    """p.31: whether a piece of ``unit_key`` in ``space`` may move in this noncombat move only within a
    Long-Range Patrol (none may move otherwise, and some attacked this turn)."""
    if state.phase != "noncombat_move" or _movable(state, space, unit_key) > 0:
        return False
    return patrols.available(state, space, unit_key) > 0


def _patrol_path(
    state: AxisState, unit: UnitType, origin: str, to: str
) -> tuple[tuple[str, ...] | None, Verdict, Patrol | None]:
    """p.31: the first path from ``origin`` to ``to`` within a patrol of the scout cars there, the patrol with the
    fewest points left that allows one first; else the refusal of the direct step (or of the first path)."""
    position = state.position()
    first: Verdict | None = None
    for record in patrols.records(state, origin, key(state.power, unit.type)):
        for path in _paths(state, origin, unit):
            if path[-1] != to:
                continue
            verdict = _in_patrol(state, position, unit, path, record)
            if verdict.ok:
                return path, verdict, record
            first = first or verdict
    return None, first or deny("31", "no-path", f"no way from {origin} to {to} within the patrol"), None


def _patrol_ends(state: AxisState, unit: UnitType, origin: str) -> list[str]:
    """p.31: where the scout cars in ``origin`` may end a move within one of their patrols (:func:`_patrol_path`
    for every end at once), in the order of the first path to each."""
    position = state.position()
    records = patrols.records(state, origin, key(state.power, unit.type))
    order: list[str] = []
    valid: set[str] = set()
    for path in _paths(state, origin, unit):
        if path[-1] not in order:
            order.append(path[-1])
        if path[-1] not in valid and any(_in_patrol(state, position, unit, path, r).ok for r in records):
            valid.add(path[-1])
    return [there for there in order if there in valid]


def _in_patrol(state: AxisState, position: Position, unit: UnitType, path: tuple[str, ...], record: Patrol) -> Verdict:
    """p.31: whether ``path`` is a noncombat move within the points ``record``'s scout cars have left."""
    return check_land_move(
        state.pack, scenario_of(state), position, state.power, unit.type, path, phase="noncombat", spent=record.used
    )


def _goes_along(state: AxisState, unit: UnitType) -> bool:
    """p.15: whether ``unit`` blitzes in this phase only along with a tank (mechanized infantry)."""
    return state.phase == "combat_move" and unit.has("blitz") and not blitzes_alone(state.pack, unit)


def _follows(state: AxisState, unit: UnitType, act: Move) -> tuple[str, ...] | None:
    """p.15: the path of a tank's blitz that this mechanized infantry's combat move goes along, if any."""
    if not _goes_along(state, unit):
        return None
    route = free_route(state, act.origin, act.to)
    return route.path if route is not None else None


def _blitz_path(state: AxisState, path: tuple[str, ...]) -> bool:
    return status(state.pack, state.position(), path[1], _side(state, state.power)) == "hostile"


def _can_fly(state: AxisState, unit: UnitType, origin: str, to: str) -> Verdict:
    """p.24: an air unit that did not move flies at most its move to land where its side held control at the start
    of the turn."""
    distance = air.air_reach(state, state.power, unit, origin, unit.move).get(to)
    if distance is None or origin == to:
        return deny("16", "too-far", f"{unit.id} cannot fly from {origin} to {to}")
    if to not in state.landing:
        return deny("24", "no-landing", f"{unit.id} cannot land in {to}")
    return ALLOW


def _air_move(state: AxisState, seat: str, unit: UnitType, act: Move) -> Step[AxisState] | None:
    """An air unit flying out to attack (p.15) or landing after its attack (p.24); None for other moves."""
    if unit.category != "air":
        return None
    if state.phase == "combat_move":
        state, kind, rule = air.fly_out(state, unit, act.origin, act.to), "flew_to_attack", "15"
    elif air.aloft(state, act.origin, act.unit):
        state, kind, rule = air.land(state, unit, act.origin, act.to), "landed", "24"
    else:
        return None
    data = {"power": state.power, "unit": act.unit, "src": act.origin, "dst": act.to}
    return Step(state=state, events=(Event(kind=kind, seat=seat, rule=rule, data=data),))


def move(state: AxisState, seat: str, act: Move) -> Step[AxisState]:
    before = state
    power, type_ = resolve(state, act.unit)
    unit = state.pack.unit(power, type_)
    flown = _air_move(state, seat, unit, act)
    if flown is not None:
        return flown
    k = key(power, type_)
    events: list[Event] = []
    along = _follows(state, unit, act)
    if unit.category == "air":
        path: tuple[str, ...] = (act.origin, act.to)
    elif along is not None:
        path = along
        route = free_route(state, act.origin, act.to)
        assert route is not None  # _follows found it
        state = follow(state, route)
    elif _patrol_only(state, act.origin, k):
        found, _verdict, record = _patrol_path(state, unit, act.origin, act.to)
        assert found is not None and record is not None  # can_move found it
        path = found
        state = patrols.use(state, record)
        events.append(Event(kind="patrolled", rule="31", data={"unit": act.unit, "src": act.origin, "dst": act.to}))
    else:
        found, _ = find_path(state, power, unit, act.origin, act.to)
        assert found is not None  # can_move found it
        path = found
    side = _side(state, state.power)
    blitz = (
        state.phase == "combat_move"
        and unit.category == "land"
        and status(state.pack, state.position(), path[1], side) == "hostile"
    )
    if blitz and along is None:
        state = record_tank(state, path)
    if blitz and mines.blitz_mined(state, path):  # p.26: the owner decides before the blitz takes the territory
        return mines.start_crossing(state, seat, k, path)
    if trucks.is_truck(unit):
        state, hauled = trucks.haul(state, k, path)
        events.extend(hauled)
    state = _with_piece(_with_piece(state, act.origin, k, -1), act.to, k, 1)
    state = state.model_copy(update={"french": moved_french(state, power, act.origin, act.to)})
    if unit.category == "sea":
        state = sea_moves.carry_damage(state, k, act.origin, act.to)
        state = sea_moves.sailed(before, state, k, path)  # p.27: the stepwise loop of sea mines
    if state.phase == "combat_move":
        state = state.model_copy(update={"moved": added(state.moved, act.to, k, 1)})
        if patrols.patrolling(unit):
            state = patrols.moved(state, unit, act.to, len(path) - 1)
        if along is not None:  # a blitz along with a tank: as the tank, not obliged to attack (p.18)
            if blitz:  # p.15: its tank was turned back by mines (p.26); it completes the blitz itself
                state, captured = _blitz(state, path[1])
                events.extend(captured)
            if len(path) == 3:
                state = state.model_copy(update={"exhausted": added(state.exhausted, act.to, k, 1)})
        elif unit.category == "sea":  # p.18: a sea attack is declared by the move itself (sea_moves)
            state = sea_moves.combat_moved(state, act.origin, path)
        elif blitz:
            state, captured = _blitz(state, path[1])
            events.extend(captured)
            if len(path) == 3:
                state = state.model_copy(update={"exhausted": added(state.exhausted, act.to, k, 1)})
        else:
            state = state.model_copy(update={"obliged": added(state.obliged, act.to, k, 1)})
    else:
        state = state.model_copy(update={"spent": added(state.spent, act.to, k, 1)})
    if unit.combat and graph_of(state.pack).kind(act.to) == "land":
        state, captured = _capture_trucks(state, act.to)
        events.extend(captured)
    rule = "15" if state.phase == "combat_move" else "24"
    moved = Event(
        kind="moved",
        seat=seat,
        rule=rule,
        data={"power": state.power, "unit": act.unit, "src": act.origin, "dst": act.to, "path": list(path)},
    )
    return Step(state=state, events=(moved, *events))


def blitz_capture(state: AxisState, territory: str) -> tuple[AxisState, list[Event]]:
    """p.15: a blitz takes ``territory`` (see :func:`_blitz`)."""
    return _blitz(state, territory)


def capture_trucks(state: AxisState, territory: str) -> tuple[AxisState, list[Event]]:
    """p.19: combat units ending a move in ``territory`` capture the enemy trucks there."""
    return _capture_trucks(state, territory)


def _blitz(state: AxisState, territory: str) -> tuple[AxisState, list[Event]]:
    """p.15: a blitz takes control of the hostile territory it enters at once (an RP territory gets the
    blitzer's marker) and captures the enemy trucks there."""
    control = dict(state.control)
    if state.pack.territory(territory).rp is not None:
        control[territory] = state.power
    state = state.model_copy(update={"control": control, "blitzed": tuple(sorted({*state.blitzed, territory}))})
    state, events = _capture_trucks(state, territory)
    event = Event(kind="blitzed", rule="15", data={"power": state.power, "territory": territory})
    return state, [event, *events]


def _capture_trucks(state: AxisState, territory: str) -> tuple[AxisState, list[Event]]:
    """p.19: combat units ending a move (or blitzing) where enemy trucks stand capture them: they become the
    capturing power's trucks (RULING: one count per power and type, so a captured truck is counted as the
    capturer's piece, the pack's truck type of that power)."""
    side = _side(state, state.power)
    position = state.position()
    events = []
    for k, n in _enemy_trucks(state, territory, side).items():
        state = _with_piece(state, territory, k, -n)
        state = _with_piece(state, territory, key(state.power, split(k)[1]), n)
        state = state.model_copy(update={"spent": added(state.spent, territory, key(state.power, split(k)[1]), n)})
        events.append(
            Event(kind="trucks_captured", rule="19", data={"territory": territory, "from": split(k)[0], "n": n})
        )
    del position
    return state, events


def _enemy_trucks(state: AxisState, territory: str, side: str) -> Counts:
    position = state.position()
    found = {}
    for k, n in state.pieces.get(territory, {}).items():
        power, type_ = split(k)
        unit = state.pack.unit(power, type_)
        enemy_truck = n > 0 and not unit.combat and side_of(state.pack, position, power, territory) != side
        if enemy_truck and _chart(state.pack, state.power, type_) is not None:
            found[k] = n
    return found


# --- attack declarations (p.18) ------------------------------------------------------------------------------


def _group(state: AxisState, origin: str, target: str) -> AttackGroup | None:
    return next((g for g in state.attacks if g.origin == origin and g.target == target), None)


def _committed(state: AxisState, origin: str, type_: str) -> int:
    return sum(g.units.get(type_, 0) for g in state.attacks if g.origin == origin and g.power == state.power)


def _due(state: AxisState, group: AttackGroup) -> int:
    if group.pre_declared:  # p.28: the Torch landings are declared at setup, with no supply
        return 0
    defended = bool(combat_units(state.pack, state.position(), group.target, enemy(_side(state, state.power))))
    return attack_supply_due(state.pack, state.power, group.units, defended=defended)


def commits(state: AxisState, seat: str) -> Iterator[Commit]:
    graph = graph_of(state.pack)
    for space in sorted(state.pieces):
        if graph.kind(space) != "land":
            continue
        for k in sorted(operated_pieces(state, space)):
            unit = state.pack.unit(*split(k))
            if unit.category != "land" or not unit.combat:
                continue
            for edge in graph.edges(space):
                if edge.type == "land":
                    yield Commit(unit=name(state, k), origin=space, target=edge.b)


def can_commit(state: AxisState, seat: str, act: Commit) -> Verdict:
    pack = state.pack
    graph = graph_of(pack)
    if act.origin not in graph.nodes or act.target not in graph.nodes:
        return deny("10", "unknown-space", f"{act.origin} or {act.target} is not a space of the map")
    edge = graph.edge(act.origin, act.target)
    if edge is None or edge.type != "land":
        return deny("18", "not-adjacent", f"{act.target} is not adjacent to {act.origin}")
    power, type_ = resolve(state, act.unit)
    unit = _chart(pack, power, type_)
    if unit is None:
        return deny("8", "unknown-unit", f"{power} has no {type_}")
    if not operates(state, power, act.origin):
        return deny("29", "not-operated", f"{state.power} does not attack with {power}'s pieces in {act.origin}")
    if unit.category != "land" or not unit.combat or unit.has("cannot_attack"):
        return deny("18", "cannot-attack", f"{unit.id} cannot attack")
    waiting = _landing_waits(state, act.origin)
    if not waiting.ok:
        return waiting
    if any(g.pre_declared and g.origin == act.origin for g in state.attacks):
        return deny("28", "amphibious-attackers", "units landing in a Torch attack attack nothing else")
    k = key(power, type_)
    free = state.count(act.origin, k) - tally(state.exhausted, act.origin, k) - _committed(state, act.origin, act.unit)
    if free <= 0:
        return deny("18", "no-unit-to-commit", f"no {unit.id} in {act.origin} is free to attack")
    position = state.position()
    side = _side(state, state.power)
    verdict = may_enter(pack, scenario_of(state), position, side, unit, act.target, act.origin)
    if not verdict.ok:
        return verdict
    group = _group(state, act.origin, act.target)
    units = dict(group.units) if group else {}
    units[act.unit] = units.get(act.unit, 0) + 1
    here = status(pack, position, act.target, side)
    scouts_only = all(exempt_from_attack_supply(pack.unit(*resolve(state, t))) for t in units)
    if here != "hostile" and not (here == "neutral" and scouts_only and position.supply_in(act.target) > 0):
        return deny("18", "not-hostile", f"{act.target} is not a territory {state.power} may attack")
    grown = (group or AttackGroup(power=state.power, origin=act.origin, target=act.target)).model_copy(
        update={"units": units}
    )
    owed = _due(state, grown) - sum(grown.paid.values())
    if owed > sum(sources(pack, position, act.origin, side).values()):
        return deny("18", "supply-short", f"the attack from {act.origin} could not be paid for")
    return ALLOW


def commit(state: AxisState, seat: str, act: Commit) -> Step[AxisState]:
    group = _group(state, act.origin, act.target)
    if group is None:
        group = AttackGroup(power=state.power, origin=act.origin, target=act.target)
    units = dict(group.units)
    units[act.unit] = units.get(act.unit, 0) + 1
    updated = group.model_copy(update={"units": units})
    attacks = tuple(g for g in state.attacks if g is not group and (g.origin, g.target) != (act.origin, act.target))
    state = state.model_copy(update={"attacks": (*attacks, updated)})
    event = Event(kind="committed", seat=seat, rule="18", data={"unit": act.unit, "src": act.origin, "dst": act.target})
    return Step(state=state, events=(event,))


def pays(state: AxisState, seat: str) -> Iterator[Pay]:
    side = _side(state, state.power)
    for group in state.attacks:
        for source in sources(state.pack, state.position(), group.origin, side):
            yield Pay(origin=group.origin, target=group.target, source=source)


def can_pay(state: AxisState, seat: str, act: Pay) -> Verdict:
    group = _group(state, act.origin, act.target)
    if group is None:
        return deny("18", "no-such-attack", f"no attack from {act.origin} on {act.target} is declared")
    if sum(group.paid.values()) >= _due(state, group):
        return deny("18", "supply-amount", f"the attack on {act.target} is paid in full; no more may be spent")
    allowed = sources(state.pack, state.position(), act.origin, _side(state, state.power))
    if allowed.get(act.source, 0) < 1:
        return deny("18", "supply-out-of-reach", f"no usable supply in {act.source} for an attack from {act.origin}")
    return ALLOW


def pay(state: AxisState, seat: str, act: Pay) -> Step[AxisState]:
    group = _group(state, act.origin, act.target)
    assert group is not None
    paid = dict(group.paid)
    paid[act.source] = paid.get(act.source, 0) + 1
    supply = dict(state.supply)
    supply[act.source] -= 1
    if not supply[act.source]:
        del supply[act.source]
    attacks = tuple(g.model_copy(update={"paid": paid}) if g is group else g for g in state.attacks)
    state = state.model_copy(update={"supply": supply, "attacks": attacks})
    event = Event(kind="supply_spent", seat=seat, rule="18", data={"src": act.source, "dst": act.target})
    return Step(state=state, events=(event,))


def _declarations_complete(state: AxisState) -> Verdict:
    """p.18: every attack paid exactly, and every land unit that moved into attack position attacking (p.39: the
    strategic reserve was checked as each air or sea attack joined, :mod:`.reserve`)."""
    for group in state.attacks:
        due = _due(state, group)
        if sum(group.paid.values()) != due:
            return deny("18", "supply-amount", f"the attack on {group.target} costs {due} supply")
    for space, counts in state.obliged.items():
        for k, n in counts.items():
            if _committed(state, space, name(state, k)) < n and _could_attack(state, space, name(state, k)):
                return deny("18", "must-attack", f"{k} that moved into {space} in the combat move must attack")
    return ALLOW


def _could_attack(state: AxisState, origin: str, type_: str) -> bool:
    """Whether one more ``type_`` in ``origin`` could join an attack now and have it paid in full from the supply
    it may use. RULING: a unit that moved into attack position must attack (p.18) only while such an attack is
    open; one whose attacks can no longer be paid (the supply went to other attacks) stays."""
    graph = graph_of(state.pack)
    available = sum(sources(state.pack, state.position(), origin, _side(state, state.power)).values())
    for edge in graph.edges(origin):
        if edge.type != "land":
            continue
        act = Commit(unit=type_, origin=origin, target=edge.b)
        if not can_commit(state, state.seat_of(state.power), act).ok:
            continue
        group = _group(state, origin, edge.b) or AttackGroup(power=state.power, origin=origin, target=edge.b)
        grown = group.model_copy(update={"units": {**group.units, type_: group.units.get(type_, 0) + 1}})
        if _due(state, grown) - sum(group.paid.values()) <= available:
            return True
    return False


def withdraws(state: AxisState, seat: str) -> Iterator[Withdraw]:
    for group in state.attacks:
        if group.power == state.power:
            yield Withdraw(origin=group.origin, target=group.target)


def can_withdraw(state: AxisState, seat: str, act: Withdraw) -> Verdict:
    group = _group(state, act.origin, act.target)
    if group is None or group.power != state.power:
        return deny("18", "no-such-attack", f"no attack from {act.origin} on {act.target} is declared")
    if group.pre_declared:
        return deny("28", "pre-declared", "the Torch landings are declared by the scenario")
    owed = _due(state, group) - sum(group.paid.values())
    if owed <= sum(sources(state.pack, state.position(), group.origin, _side(state, state.power)).values()):
        return deny("18", "declaration-final", f"the attack on {act.target} can still be paid: it stands")
    return ALLOW


def withdraw(state: AxisState, seat: str, act: Withdraw) -> Step[AxisState]:
    """p.18: RULING: attacks are declared one unit and one token at a time, so an attack whose supply went to
    other attacks in the meantime (and can no longer be paid) is taken back, its supply returned; any other
    declaration stands."""
    group = _group(state, act.origin, act.target)
    assert group is not None
    supply = dict(state.supply)
    for source, n in group.paid.items():
        supply[source] = supply.get(source, 0) + n
    attacks = tuple(g for g in state.attacks if g is not group)
    state = state.model_copy(update={"supply": supply, "attacks": attacks})
    event = Event(kind="attack_withdrawn", seat=seat, rule="18", data={"src": act.origin, "dst": act.target})
    return Step(state=state, events=(event,))


def _after_declare(state: AxisState) -> AxisState:
    """The end of phase 3: who may not move in phase 5 (moved or attacking; interchangeable pieces: the moved
    ones attack first), the moved ones that kept a point and declared no attack (p.38), then the combats of
    phase 4."""
    spent: dict[str, Counts] = {}
    kept: dict[str, Counts] = {}
    spaces = {*state.moved, *(g.origin for g in state.attacks)}
    for space in spaces:
        for k in {
            *state.moved.get(space, {}),
            *(key(*resolve(state, t)) for g in state.attacks if g.origin == space for t in g.units),
        }:
            moved = tally(state.moved, space, k)
            committed = _committed(state, space, name(state, k))
            overlap = min(committed, moved - tally(state.exhausted, space, k))
            spent = added(spent, space, k, moved + committed - overlap)
            kept = added(kept, space, k, moved - tally(state.exhausted, space, k) - overlap)
    attacking: dict[tuple[str, str], int] = {}
    for group in state.attacks:
        for named, n in group.units.items() if group.power == state.power else ():
            k = key(*resolve(state, named))
            attacking[(group.origin, k)] = attacking.get((group.origin, k), 0) + n
    state = patrols.after_declare(state, attacking)
    state = sea_moves.declare(state)
    phase = "combat" if phase_combat.combats_left(state) else "noncombat_move"
    attacked = tuple(sorted({g.target for g in state.attacks}))
    return state.model_copy(update={"spent": spent, "kept": kept, "phase": phase, "attacked": attacked})


# --- the Vichy take-over (p.29) ---------------------------------------------------------------------------------


def claims(state: AxisState, seat: str) -> Iterator[Claim]:
    for territory in sorted(state.pieces):
        if graph_of(state.pack).kind(territory) == "land":
            yield Claim(territory=territory)


def can_claim(state: AxisState, seat: str, act: Claim) -> Verdict:
    """p.29: an RP territory controlled by the Vichy French, holding combat land units of the moving Axis power and
    no pieces but those and Vichy French ones."""
    pack = state.pack
    graph = graph_of(pack)
    if act.territory not in graph.nodes or graph.kind(act.territory) != "land":
        return deny("10", "unknown-territory", f"{act.territory} is not a territory")
    position = state.position()
    owner = state.control.get(act.territory)
    vichy = (
        owner is not None and pack.power(owner).side is None and side_of(pack, position, owner, act.territory) == "axis"
    )
    if pack.territory(act.territory).rp is None or not vichy or _side(state, state.power) != "axis":
        return deny("29", "not-vichy", f"{act.territory} is not a Vichy French RP territory the Axis may take over")
    pieces = state.pieces.get(act.territory, {})
    own = [
        k
        for k in pieces
        if split(k)[0] == state.power and pack.unit(*split(k)).combat and pack.unit(*split(k)).category == "land"
    ]
    others = [k for k in pieces if split(k)[0] not in (state.power, owner)]
    if not own or others:
        return deny(
            "29", "not-only-vichy", f"{act.territory} must hold {state.power}'s combat land units and Vichy units only"
        )
    return ALLOW


def claim(state: AxisState, seat: str, act: Claim) -> Step[AxisState]:
    state = state.model_copy(update={"control": {**state.control, act.territory: state.power}})
    event = Event(
        kind="vichy_taken_over", seat=seat, rule="29", data={"territory": act.territory, "power": state.power}
    )
    return Step(state=state, events=(event,))


# --- phase 6: deployment (p.25) ------------------------------------------------------------------------------


def _destinations(state: AxisState) -> list[str]:
    pack = state.pack
    found = [pack.power(state.power).staging] if pack.power(state.power).staging else []
    found += [t.id for t in pack.territories if t.axis_direct_deploy]
    found += [z.id for z in pack.sea_zones if z.direct_deploy or state.power in z.deployment_for]
    if state.options.get("anzac_reinforcements") == "on" and state.power == ANZAC[0]:
        found.append(ANZAC[2])
    found.append(strategic.supply_staging(state))
    return sorted({f for f in found if f is not None})


def deploys(state: AxisState, seat: str) -> Iterator[Deploy]:
    for type_ in sorted(state.reserve.get(state.power, {})):
        for there in _destinations(state):
            yield Deploy(unit=type_, to=there)


def can_deploy(state: AxisState, seat: str, act: Deploy) -> Verdict:
    if state.reserve.get(state.power, {}).get(act.unit, 0) <= 0:
        return deny("25", "not-in-reserve", f"no {act.unit} in {state.power}'s Reinforcements Zone")
    graph = graph_of(state.pack)
    if act.to not in graph.nodes:
        return deny("10", "unknown-space", f"{act.to} is not a space of the map")
    unit = None if act.unit == SUPPLY else state.pack.unit(state.power, act.unit)
    if not (anzac_allows(state, unit, act.to) or (unit is None and act.to == strategic.supply_staging(state))):
        verdict = check_deployment(
            state.pack, scenario_of(state), state.position(), state.power, unit, act.to, lifted=_lifted(state)
        )
        if not verdict.ok:
            return verdict
    return check_components(deploy(state, seat, act).state, unit)


def _lifted(state: AxisState) -> frozenset[str]:
    """Round rules an optional rule in force cancels (p.39: Choice of US Landing Zones)."""
    options = {o.rule for o in state.pack.optional_rules if state.options.get(o.id) == "on"}
    return frozenset(r.id for r in scenario_of(state).round_rules if r.optional_rule_lifts in options)


def deploy(state: AxisState, seat: str, act: Deploy) -> Step[AxisState]:
    reserve = dict(state.reserve.get(state.power, {}))
    reserve[act.unit] -= 1
    if not reserve[act.unit]:
        del reserve[act.unit]
    unit = None if act.unit == SUPPLY else state.pack.unit(state.power, act.unit)
    if anzac_allows(state, unit, act.to):
        state = state.model_copy(update={"anzac": state.anzac + 1})
    state = state.model_copy(update={"reserve": {**state.reserve, state.power: reserve}})
    sea = graph_of(state.pack).kind(act.to) == "sea"
    if sea and (unit is None or unit.category == "land"):
        state = convoy_mines.record_deployment(state, act.unit, act.to)
    if act.unit == SUPPLY and sea:
        state = _set_convoy_supply(
            state, act.to, state.power, state.convoy_supply.get(act.to, {}).get(state.power, 0) + 1
        )
    elif act.unit == SUPPLY:
        supply = dict(state.supply)
        supply[act.to] = supply.get(act.to, 0) + 1
        state = state.model_copy(update={"supply": supply})
    else:
        state = _with_piece(state, act.to, key(state.power, act.unit), 1)
    event = Event(kind="deployed", seat=seat, rule="25", data={"power": state.power, "unit": act.unit, "dst": act.to})
    return Step(state=state, events=(event,))


def finish_deploy(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    """The end of phase 6 once the sea mines are settled (p.27): what could not deploy is lost (p.25), the
    scenario's phase-6 events (p.28), then stacking (p.12)."""
    state, lost = _lose_undeployable(state)
    state, extra = phase6_events(state, state.pack, scenario_of(state))
    return close_phase(state, (*events, *lost, *extra))


def _lose_undeployable(state: AxisState) -> tuple[AxisState, tuple[Event, ...]]:
    """p.25: every piece in the Reinforcements Zone must deploy; one with nowhere to go is lost (the United States
    without an open convoy zone). A piece that could deploy keeps ``done`` from being legal, see
    :func:`can_done_deploy`."""
    reserve = state.reserve.get(state.power, {})
    if not reserve:
        return state, ()
    lost = dict(reserve)
    state = state.model_copy(update={"reserve": {p: r for p, r in state.reserve.items() if p != state.power}})
    return state, (Event(kind="reinforcements_lost", rule="25", data={"power": state.power, "units": lost}),)


def can_done_deploy(state: AxisState) -> Verdict:
    """p.25: phase 6 ends only when nothing left in the Reinforcements Zone can be deployed."""
    for act in deploys(state, state.seat_of(state.power)):
        if can_deploy(state, state.seat_of(state.power), act).ok:
            return deny("25", "must-deploy", f"{act.unit} in the Reinforcements Zone can still deploy")
    return ALLOW


# --- stacking decisions (p.12) -------------------------------------------------------------------------------


def _excess_pieces(state: AxisState, territory: str, side: str) -> list[str]:
    position = state.position()
    return sorted(
        k
        for k, n in state.pieces.get(territory, {}).items()
        if n > 0
        and state.pack.unit(*split(k)).combat
        and state.pack.unit(*split(k)).category in ("land", "air")
        and side_of(state.pack, position, split(k)[0], territory) == side
    )


def excess_moves(state: AxisState, seat: str) -> Iterator[MoveExcess]:
    decision = top(state, ExcessMove)
    for k in _excess_pieces(state, decision.territory, decision.side):
        for there in graph_of(state.pack).neighbours(decision.territory):
            yield MoveExcess(unit=k, to=there)


def can_move_excess(state: AxisState, seat: str, act: MoveExcess) -> Verdict:
    decision = top(state, ExcessMove)
    if act.unit not in _excess_pieces(state, decision.territory, decision.side):
        return deny("12", "not-excess", f"{act.unit} is not a piece over the limit in {decision.territory}")
    power, type_ = split(act.unit)
    found = excess_destinations(state.pack, scenario_of(state), state.position(), decision.territory, power, type_)
    if act.to not in found:
        return deny("12", "no-room", f"{act.unit} cannot be moved from {decision.territory} to {act.to}")
    return ALLOW


def move_excess(state: AxisState, seat: str, act: MoveExcess) -> Step[AxisState]:
    decision = top(state, ExcessMove)
    state = _with_piece(_with_piece(state, decision.territory, act.unit, -1), act.to, act.unit, 1)
    event = Event(
        kind="excess_moved", seat=seat, rule="12", data={"unit": act.unit, "src": decision.territory, "dst": act.to}
    )
    return _after_excess(state, decision.territory, decision.side, (event,))


def destroys(state: AxisState, seat: str) -> Iterator[Destroy]:
    decision = top(state, ExcessDestroy)
    for k in _excess_pieces(state, decision.territory, decision.side):
        yield Destroy(unit=k)


def can_destroy(state: AxisState, seat: str, act: Destroy) -> Verdict:
    decision = top(state, ExcessDestroy)
    if act.unit not in _excess_pieces(state, decision.territory, decision.side):
        return deny("12", "not-excess", f"{act.unit} is not a piece over the limit in {decision.territory}")
    return ALLOW


def destroy(state: AxisState, seat: str, act: Destroy) -> Step[AxisState]:
    decision = top(state, ExcessDestroy)
    state = _with_piece(state, decision.territory, act.unit, -1)
    event = Event(kind="excess_destroyed", seat=seat, rule="12", data={"unit": act.unit, "src": decision.territory})
    return _after_excess(state, decision.territory, decision.side, (event,))


def _after_excess(state: AxisState, territory: str, side: str, events: tuple[Event, ...]) -> Step[AxisState]:
    if stacking_excess(state.pack, state.position(), territory, side):
        return Step(state=state, events=events)
    return close_phase(pop(state), events)
