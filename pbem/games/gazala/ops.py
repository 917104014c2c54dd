"""The Ops Phase (§6): Initiative Determination, Act / Transfer / Pass, Formation and Independent Unit Activation with
their Action Points, the end of an activation, and the End of Turn Phase (§8).

Every function here is one of the step machine's callables (candidates, ``can_…`` predicate, effect, dice handler)
or a helper the Actions of :mod:`.moves` and :mod:`.actions_misc` share: who belongs to the acting formation, what
an Action costs (§7: doubled for Out of Command or Isolated units), and what happens after an Action (the
activation ends when its Action Points are spent).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from pbem.games.gazala import admin, victory
from pbem.games.gazala.actions import Activate, ActivateUnit, EndActivation, Pass, Transfer
from pbem.games.gazala.board import other
from pbem.games.gazala.cycle import cycle, d10, initiative_won
from pbem.games.gazala.data import Side
from pbem.games.gazala.mapspec import piece_name, side_name
from pbem.games.gazala.paths import command, supply
from pbem.games.gazala.rulings import ruling
from pbem.games.gazala.scenarios import (
    activation_restriction,
    always_supplied,
    max_activations,
    only_formation,
    static_side,
)
from pbem.games.gazala.state import Activation, DiceWait, GazalaState, Marker, Reacting, sit_of
from pbem.kit.machine import pop, push, top
from pbem.rules.contract import ALLOW, Event, Outcome, Step, Verdict, deny

__all__ = [
    "action_cost",
    "after_action",
    "member",
    "next_cycle",
    "side_of_seat",
]


def side_of_seat(seat: str) -> Side:
    """The side a seat plays (seats are named by their side)."""
    return "axis" if seat == "axis" else "cw"


def formation_of(state: GazalaState, ident: str) -> str | None:
    """The formation of a combat unit (stripe or assignment, §5.5) or of an HQ."""
    hq = state.pack.hq(ident) if ident in state.hqs else None
    return hq.formation if hq is not None else sit_of(state).formation(ident)


def member(state: GazalaState, ident: str) -> bool:
    """Whether a piece on the map may take Actions in the current activation: a combat unit of the activated
    formation (assigned independents included, §5.5.2) or its HQ, or the activated independent unit (§6.4); while
    Battle Victory bonus APs wait, only the units that won them (§7.5.3)."""
    acting = state.acting
    if acting is None:
        return False
    where = state.units[ident].hex if ident in state.units else state.hqs[ident].hex if ident in state.hqs else None
    if where is None:
        return False
    if acting.bonus > 0 and ident not in acting.bonus_units:
        return False  # §7.5.3: only the winning units spend the bonus APs
    if acting.unit is not None:
        return ident == acting.unit
    return formation_of(state, ident) == acting.formation


def out_of_command(state: GazalaState, units: Iterable[str]) -> bool:
    """§5.8.3, §5.8.4: whether any of the combat units is Out of Command or Isolated (ruling B4: one such unit makes
    the whole stack's Action cost double)."""
    sit = sit_of(state)
    return any(command(sit, u).state != "in-command" for u in units if u in state.units)


def action_cost(state: GazalaState, number: str, units: Sequence[str], *, doubles: bool) -> int:
    """§7: the AP cost of an Action from the pack's ``cost_*`` row, times ``ooc_cost_factor`` for Out of Command or
    Isolated units where the Action is allowed to them (``doubles``). An Independent Unit Activation takes exactly one
    Action with no AP accounting (§6.4): it costs its one Action."""
    acting = state.acting
    if acting is not None and acting.unit is not None:
        return 1
    cost = state.pack.number(number)
    return cost * state.pack.number("ooc_cost_factor") if doubles and out_of_command(state, units) else cost


def affordable(state: GazalaState, cost: int) -> Verdict:
    """§7.1: the acting formation has the Action Points an Action costs."""
    acting = state.acting
    if acting is None:
        return deny("7.1", "no-activation", "no formation is active")
    if cost > acting.ap:
        return deny("7.1", "no-ap", f"the Action costs {cost} AP and {acting.ap} are left")
    return ALLOW


def spend(state: GazalaState, cost: int) -> GazalaState:
    """The state with ``cost`` Action Points spent by the acting formation (§7.1)."""
    acting = state.acting
    assert acting is not None
    bonus = max(0, acting.bonus - cost)  # §7.5.3: Battle Victory bonus APs pay first
    units = acting.bonus_units if bonus else ()
    spent = acting.model_copy(update={"ap": acting.ap - cost, "bonus": bonus, "bonus_units": units})
    return state.model_copy(update={"reaction": spent} if state.reaction is not None else {"activation": spent})


# --- supply of an activating formation (§5.7.1, §6.3.3) -----------------------------------------------------------


def hq_supplied(state: GazalaState, formation: str) -> bool:
    """§5.7.1: the supply check of a formation's HQ (§10.1: a scenario may keep it always in supply)."""
    if always_supplied(state.pack, state.scenario, formation):
        return True
    hq = state.pack.hq_of(formation).id
    if state.hqs.get(hq) is None or state.hqs[hq].hex is None:
        return False
    return supply(sit_of(state), hq).ok


def supply_check(state: GazalaState, formation: str) -> tuple[GazalaState, bool, bool, tuple[Event, ...]]:
    """§6.3.3: the HQ's supply check at an activation or Reaction. In supply: as usual. Out of supply with the HQ on
    its front side: the HQ flips to Emergency Supply and counts as supplied (§5.7.5). Out of supply with the HQ
    already flipped: the formation is unsupplied and its level drops to 0 afterwards.

    Returns the state, whether the formation counts as supplied, whether its level falls to 0 after, and events.
    """
    hq_id = state.pack.hq_of(formation).id
    hq = state.hqs[hq_id]
    if hq_supplied(state, formation):
        return (
            state.model_copy(update={"hqs": {**state.hqs, hq_id: hq.model_copy(update={"supplied": True})}}),
            True,
            False,
            (),
        )
    side = state.pack.formation(formation).side
    if not hq.es:
        flipped = hq.model_copy(update={"es": True, "supplied": True})
        event = Event(
            kind="emergency_supply",
            seat=side,
            rule="6.3.3",
            data={"hq": hq_id},
            text=f"{piece_name(state.pack, hq_id)} is out of supply and uses Emergency Supply",
        )
        return state.model_copy(update={"hqs": {**state.hqs, hq_id: flipped}}), True, False, (event,)
    event = Event(
        kind="out_of_supply",
        seat=side,
        rule="6.3.3",
        data={"hq": hq_id},
        text=f"{piece_name(state.pack, hq_id)} is out of supply with its Emergency Supply spent: "
        f"{piece_name(state.pack, formation)} drops to level 0",
    )
    unsupplied = hq.model_copy(update={"supplied": False})
    return state.model_copy(update={"hqs": {**state.hqs, hq_id: unsupplied}}), False, True, (event,)


def ap_value(state: GazalaState, level: int, die: int, *, red: bool) -> int:
    """§6.3.1, §6.5.2: the Action Points table at the Activation Level's column: black for an activation, red for a
    Reaction (levels above the table's last column read the last column)."""
    table = state.pack.tables.action_points
    column = table.named_column(str(max(1, min(level, len(table.columns)))))
    cell = table.lookup(column, die).result
    return cell.red if red else cell.black


# --- Initiative Determination (§6.1) -------------------------------------------------------------------------------


def initiative_rolled(state: GazalaState, outcome: Outcome) -> Step[GazalaState]:
    """§6.1, §10: each side's d10 plus the marker's value if it shows that side (plus the Axis's GT1 bonus); the
    higher total wins, ties to the Axis. The marker then moves for the Reaction side: the next space if it already
    shows that side, else flipped to it at +2; it never returns to 0 in the Ops Phase."""
    pack = state.pack
    assert outcome.dice is not None
    state = pop(state)
    track = [s.value for s in pack.tables.initiative_track]
    marker = state.marker
    bonus = {s: (track[marker.space] if marker.side == s else 0) for s in ("axis", "cw")}
    if state.turn == 1:
        bonus["axis"] += pack.number("gt1_axis_initiative_drm")
    axis = outcome.dice["axis"][0] + bonus["axis"]
    cw = outcome.dice["cw"][0] + bonus["cw"]
    ties: Side = "axis" if pack.setting("initiative_ties") == "axis" else "cw"
    winner: Side = "axis" if axis > cw else "cw" if cw > axis else ties
    reacting = other(winner)
    if marker.side == reacting and marker.space != 0:
        moved = Marker(side=reacting, space=min(marker.space + 1, len(track) - 1))
    else:
        moved = Marker(side=reacting, space=1)
    event = Event(
        kind="initiative_rolled",
        seat=winner,
        rule="6.1",
        data={"axis": axis, "cw": cw, "dice": {k: list(v) for k, v in outcome.dice.items()}, "winner": winner},
        text=f"initiative: Axis {axis} against Commonwealth {cw}: the {side_name(winner)} wins",
    )
    return Step(state=initiative_won(state.model_copy(update={"marker": moved}), winner), events=(event,))


# --- Act / Transfer / Pass (§6.2) ----------------------------------------------------------------------------------


def activations(state: GazalaState, seat: str) -> Iterator[Activate]:
    side = side_of_seat(seat)
    for formation in state.formations:
        if state.pack.formation(formation).side == side:
            yield Activate(formation=formation)


def can_activate(state: GazalaState, seat: str, act: Activate) -> Verdict:
    """§6.3: a formation of the side with the initiative, at Activation Level 1 or more, not restricted by the
    scenario, with a piece on the map."""
    pack = state.pack
    side = side_of_seat(seat)
    found = state.formations.get(act.formation)
    if found is None or pack.formation(act.formation).side != side:
        return deny("6.3", "not-a-formation", f"{act.formation} is not a formation of {side} in play")
    if static_side(pack, state.scenario) == side:
        return deny("10.1", "static", f"{side} never activates in this scenario")
    only = only_formation(pack, state.scenario)
    if only is not None and act.formation != only:
        return deny("10.1", "only-formation", f"only {only} activates in this scenario")
    limit = max_activations(pack, state.scenario)
    if ruling(state, "bir_hacheim_end") == "level":  # notes B19: only the level ends §10.1
        limit = None
    if limit is not None and found.activations >= limit:
        return deny("10.1", "activations-spent", f"{act.formation} has been activated {limit} times")
    if found.level < 1:
        return deny("6.3", "level-zero", f"{act.formation} is at Activation Level 0")
    restricted = activation_restriction(state, act.formation)
    if restricted is not None:
        return deny(restricted.rule, "restricted", restricted.text)
    if not _has_pieces(state, act.formation):
        return deny("6.3", "nothing-to-do", f"{act.formation} has no unit that could act")
    return ALLOW


def _has_pieces(state: GazalaState, formation: str) -> bool:
    """§6.3, §5.6.3: at least one piece could take an Action: its HQ on the map, or a unit that is not both
    Disrupted and Isolated."""
    hq = state.hqs.get(state.pack.hq_of(formation).id)
    if hq is not None and hq.hex is not None:
        return True
    sit = sit_of(state)
    for unit, counter in state.units.items():
        if counter.hex is None or sit.formation(unit) != formation:
            continue
        if not counter.disrupted or command(sit, unit).state != "isolated":
            return True
    return False


def activate(state: GazalaState, seat: str, act: Activate) -> Step[GazalaState]:
    """§6.3: supply-check the HQ (§6.3.3), then roll for Action Points."""
    side = side_of_seat(seat)
    state, supplied, exhausted, events = supply_check(state, act.formation)
    wait = DiceWait(seat=seat, purpose="ap", formation=act.formation, drms=(1 if supplied else 0, int(exhausted)))
    event = Event(
        kind="formation_activated",
        seat=side,
        rule="6.3",
        data={"formation": act.formation, "level": state.formations[act.formation].level},
        text=f"the {side_name(side)} activates {piece_name(state.pack, act.formation)}",
    )
    roll = d10("ap", f"§6.3.1 Action Points of {act.formation}")
    return Step(state=push(state, wait).with_rolls(roll), events=(*events, event))


def ap_rolled(state: GazalaState, outcome: Outcome) -> Step[GazalaState]:
    """§6.3.1, §6.3.2: the black AP value at the formation's level (+``schwerpunkt_ap``, §5.9); the level drops by one
    (to 0 if its HQ had no supply left, §6.3.3)."""
    wait = top(state, DiceWait)
    assert outcome.dice is not None and wait.formation is not None
    formation = wait.formation
    die = outcome.dice["ap"][0]
    found = state.formations[formation]
    points = ap_value(state, found.level, die, red=False)
    schwerpunkt = state.schwerpunkt == formation
    if schwerpunkt:
        points += state.pack.number("schwerpunkt_ap")
    level = 0 if wait.drms[1] else found.level - 1
    formations = {
        **state.formations,
        formation: found.model_copy(update={"level": level, "activations": found.activations + 1}),
    }
    side = state.pack.formation(formation).side
    acting = Activation(side=side, formation=formation, ap=points, schwerpunkt=schwerpunkt, supplied=bool(wait.drms[0]))
    event = Event(
        kind="action_points",
        seat=side,
        rule="6.3.1",
        data={"formation": formation, "die": die, "ap": points, "level": level},
        text=f"{piece_name(state.pack, formation)} ({side_name(side)}) rolls {die} for its Action Points: {points} AP; "
        f"Activation level now {level}",
    )
    after = pop(state).model_copy(update={"formations": formations, "activation": acting, "phase": "activation"})
    return Step(state=after, events=(event,))


def independents(state: GazalaState, seat: str) -> Iterator[ActivateUnit]:
    side = side_of_seat(seat)
    for unit, counter in state.units.items():
        record = state.pack.unit(unit)
        if record.side == side and record.independent != "no" and counter.assigned is None and counter.hex is not None:
            yield ActivateUnit(unit=unit)


def can_activate_unit(state: GazalaState, seat: str, act: ActivateUnit) -> Verdict:
    """§6.4: an unassigned independent unit on the map of the side with the initiative, with fewer than
    ``independent_activations`` Independent Activation markers; not in a scenario that lets only one formation act."""
    pack = state.pack
    side = side_of_seat(seat)
    counter = state.units.get(act.unit)
    if counter is None or counter.hex is None or pack.unit(act.unit).side != side:
        return deny("6.4", "not-a-unit", f"{act.unit} is not a unit of {side} on the map")
    if pack.unit(act.unit).independent == "no" or counter.assigned is not None:
        return deny("6.4", "not-independent", f"{act.unit} is not an unassigned independent unit")
    if static_side(pack, state.scenario) == side or only_formation(pack, state.scenario) is not None:
        return deny("10.1", "only-formation", "only the scenario's formation activates")
    if counter.acts >= pack.number("independent_activations"):
        return deny("6.4", "no-act", f"{act.unit} carries a NO-ACT marker")
    return ALLOW


def activate_unit(state: GazalaState, seat: str, act: ActivateUnit) -> Step[GazalaState]:
    """§6.4: the unit's supply check (§5.7.1), its next Independent Activation marker, and one Action."""
    side = side_of_seat(seat)
    supplied = supply(sit_of(state), act.unit).ok
    counter = state.units[act.unit]
    units = {**state.units, act.unit: counter.model_copy(update={"acts": counter.acts + 1})}
    acting = Activation(side=side, unit=act.unit, ap=1, supplied=supplied)
    event = Event(
        kind="unit_activated",
        seat=side,
        rule="6.4",
        data={"unit": act.unit, "supplied": supplied, "marker": counter.acts + 1},
        text=f"the {side_name(side)} activates the independent unit {piece_name(state.pack, act.unit)}"
        + ("" if supplied else " (out of supply)"),
    )
    return Step(
        state=state.model_copy(update={"units": units, "activation": acting, "phase": "activation"}), events=(event,)
    )


def transfers(state: GazalaState, seat: str) -> Iterator[Transfer]:
    yield Transfer()


def can_transfer(state: GazalaState, seat: str, act: Transfer) -> Verdict:
    """§6.2: only to a side that has not passed, and never back."""
    if len(state.seats) == 1:
        return deny("10.1", "solitaire", "there is nobody to transfer the initiative to")
    if other(side_of_seat(seat)) in state.passed:
        return deny("6.2", "other-passed", "the other side has passed")
    if state.transferred:
        return deny("6.2", "transferred", "the initiative was transferred already: act or pass")
    return ALLOW


def transfer(state: GazalaState, seat: str, act: Transfer) -> Step[GazalaState]:
    receiver = other(side_of_seat(seat))
    event = Event(
        kind="initiative_transferred",
        seat=seat,
        rule="6.2",
        data={"to": receiver},
        text=f"the {side_name(side_of_seat(seat))} transfers the initiative to the {side_name(receiver)}",
    )
    return Step(state=state.model_copy(update={"chooser": receiver, "transferred": True}), events=(event,))


def passes(state: GazalaState, seat: str) -> Iterator[Pass]:
    yield Pass()


def can_pass(state: GazalaState, seat: str, act: Pass) -> Verdict:
    """§6.2; §10.1: the solitaire formation activates until it cannot (no pass)."""
    if only_formation(state.pack, state.scenario) is not None:
        return deny("10.1", "no-pass", "Ariete activates until it cannot")
    return ALLOW


def pass_turn(state: GazalaState, seat: str, act: Pass) -> Step[GazalaState]:
    side = side_of_seat(seat)
    event = Event(
        kind="passed", seat=side, rule="6.2", text=f"the {side_name(side)} passes for the rest of the Ops Phase"
    )
    return next_cycle(state.model_copy(update={"passed": (*state.passed, side)}), (event,))


# --- the end of an Action and of an activation (§7.1, §6.5.3) -----------------------------------------------------


def ends(state: GazalaState, seat: str) -> Iterator[EndActivation]:
    yield EndActivation()


def can_end(state: GazalaState, seat: str, act: EndActivation) -> Verdict:
    if state.move is not None:
        return deny("7.3", "moving", "finish the Movement Action first")
    return ALLOW


def end(state: GazalaState, seat: str, act: EndActivation) -> Step[GazalaState]:
    acting = state.acting
    assert acting is not None
    event = Event(
        kind="activation_ended",
        seat=acting.side,
        rule="7.1",
        data={"formation": acting.formation, "unit": acting.unit, "lost": acting.ap},
        text=f"{piece_name(state.pack, acting.formation or acting.unit or '')} ends its activation",
    )
    return end_activation(state, (event,))


def after_action(state: GazalaState, events: Sequence[Event]) -> Step[GazalaState]:
    """§7.1, §6.4: after an Action, an activation with no Action Points left ends (and the game, once decided)."""
    acting = state.acting
    if state.move is None and state.victory.decided is not None:
        return next_cycle(state, tuple(events))  # §10.1: an Automatic Victory ends the game at once
    if state.move is None and acting is not None and acting.ap <= 0:
        return end_activation(state, tuple(events))
    return Step(state=state, events=tuple(events))


def end_activation(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    """§6.5.3: a reacting formation's activation ends and the initiative formation resumes with a new Action (or
    ends too, with no AP left); an initiative activation's end starts the next Ops Cycle."""
    if state.reaction is not None:
        resumed = pop(state) if state.pending and isinstance(state.pending[-1], Reacting) else state
        return after_action(resumed.model_copy(update={"reaction": None, "move": None}), events)
    return next_cycle(state, events)


def can_act_at_all(state: GazalaState, side: Side) -> bool:
    """B2 (ruling): the Ops Phase goes on while a side that has not passed can still activate something."""
    seat = side
    if any(can_activate(state, seat, a).ok for a in activations(state, seat)):
        return True
    return any(can_activate_unit(state, seat, a).ok for a in independents(state, seat))


def next_cycle(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    """§6: the next Ops Cycle, or the End of Turn Phase when both sides have passed (§6.2) or cannot conduct any more
    activations (§6; a side that cannot is taken as passed); in the solitaire scenario when its formation cannot
    activate any more or the game is decided (§10.1)."""
    state = state.model_copy(update={"activation": None, "reaction": None, "move": None, "phase": "ops"})
    if state.victory.decided is not None:
        return end_of_turn(state, events)
    passed = list(state.passed)
    found = list(events)
    for side in ("axis", "cw"):
        if side in passed:
            continue
        if not can_act_at_all(state, side):
            passed.append(side)
            found.append(
                Event(
                    kind="passed",
                    seat=side,
                    rule="6",
                    text=f"the {side_name(side)} cannot activate anything more: it passes",
                )
            )
    state = state.model_copy(update={"passed": tuple(passed)})
    if len(passed) == 2:
        return end_of_turn(state, tuple(found))
    return cycle(state, tuple(found))


def end_of_turn(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    """§8: score the turn (§10), then end the game after its last turn or an Automatic Victory, else go on to the
    next Game Turn's Admin Phase (§4)."""
    state, scored = victory.end_of_turn(state)
    events = (*events, *scored)
    final = state.victory.decided is not None or state.turn >= state.last_turn or len(state.seats) == 1
    if final:
        state, closing = victory.game_end(state)
        return Step(state=state.model_copy(update={"phase": "over", "chooser": None}), events=(*events, *closing))
    turned = state.model_copy(
        update={"turn": state.turn + 1, "first_cycle": False, "tobruk": state.tobruk_next or state.tobruk}
    )
    event = Event(kind="turn_began", rule="4", data={"turn": turned.turn}, text=f"Game Turn {turned.turn} begins")
    return admin.begin_admin(turned, (*events, event))
