"""The Movement Action (§7.3) step by step, Enemy Minefield entry (§7.3.6), and the Formation Reaction the
non-moving seat may attempt in the middle of a move (§6.5).

A move is ``move`` (the stack, paying its AP), then ``step`` after ``step`` (each checked by the board's walk of
the whole path so far: terrain, roads, ridges, zones of control, Screen movement, enemy Minefields), ``leave``
where leaving a hex is a Reaction trigger point, and ``halt``. A trigger point (§6.5.1: entering, or attempting to
exit, a hex next to an enemy combat unit) puts a :class:`~.state.ReactionOffer` on the pending stack for the other
seat: ``react`` with a qualifying unit, or ``decline``. At most one attempt is made per Movement Action.

Stacking (§5.3.1) does not restrict movement: a stack may pass through, and stop in, a hex it overstacks; where the
move ends, :mod:`.overstack` disrupts and displaces before the game goes on.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from pbem.games.gazala import overstack, victory
from pbem.games.gazala.actions import Decline, Halt, Leave, Move, React, Step
from pbem.games.gazala.board import adjacent, hqs_displaced_by, other, walk_path
from pbem.games.gazala.combat_declare import check_rbc_move
from pbem.games.gazala.data import Side
from pbem.games.gazala.hq_displace import displace_or_ask
from pbem.games.gazala.mapspec import piece_name, side_name
from pbem.games.gazala.minefields import minefield_check, minefield_check_drm
from pbem.games.gazala.ops import (
    action_cost,
    affordable,
    after_action,
    ap_value,
    member,
    side_of_seat,
    spend,
    supply_check,
)
from pbem.games.gazala.paths import command
from pbem.games.gazala.rulings import ruling
from pbem.games.gazala.scenarios import activation_restriction, static_side
from pbem.games.gazala.state import Activation, DiceWait, GazalaState, MoveState, Reacting, ReactionOffer, sit_of
from pbem.kit.hexes import HexId
from pbem.kit.machine import pop, push, top
from pbem.rules.contract import ALLOW, Event, Outcome, RollRequest, RollSpec, Verdict, deny
from pbem.rules.contract import Step as Result

__all__ = ["can_continue", "exit_due", "qualifying"]


def _here(state: GazalaState) -> str:
    assert state.move is not None
    return state.move.path[-1]


def _pieces_at(state: GazalaState, hex_id: str) -> list[str]:
    units = [u for u, c in state.units.items() if c.hex == hex_id]
    return units + [h for h, c in state.hqs.items() if c.hex == hex_id]


def _place(state: GazalaState, pieces: tuple[str, ...], hex_id: str) -> GazalaState:
    units = dict(state.units)
    hqs = dict(state.hqs)
    for piece in pieces:
        if piece in units:
            units[piece] = units[piece].model_copy(update={"hex": hex_id})
        else:
            hqs[piece] = hqs[piece].model_copy(update={"hex": hex_id})
    return state.model_copy(update={"units": units, "hqs": hqs})


# --- the start of a Movement Action -------------------------------------------------------------------------------


def moves(state: GazalaState, seat: str) -> Iterator[Move]:
    if state.move is not None:
        return
    by_hex: dict[str, list[str]] = {}
    for ident in (*state.units, *state.hqs):
        counter = state.units.get(ident) or state.hqs[ident]
        if counter.hex is not None and member(state, ident):
            if ident in state.units and state.units[ident].disrupted:
                continue
            by_hex.setdefault(counter.hex, []).append(ident)
    for pieces in by_hex.values():
        ordered = sorted(pieces)
        for size in range(1, len(ordered) + 1):
            for group in itertools.combinations(ordered, size):
                yield Move(units=list(group))


def can_move(state: GazalaState, seat: str, act: Move) -> Verdict:
    """§7.3.1: pieces of the acting formation (or the activated independent unit) starting together, none Disrupted
    (§5.6.3), listed once each in id order; the AP (§7: doubled Out of Command or Isolated); a first step possible."""
    if state.move is not None:
        return deny("7.3", "moving", "a Movement Action is under way")
    if not act.units or act.units != sorted(set(act.units)):
        return deny("7.3.1", "units-order", "name each moving piece once, in id order")
    hexes = set()
    for ident in act.units:
        if not member(state, ident):
            return deny("7.3.1", "not-active", f"{ident} is not a piece of the active formation on the map")
        if ident in state.units and state.units[ident].disrupted:
            return deny("5.6.3", "disrupted", f"{ident} is Disrupted: it may only Refit")
        counter = state.units.get(ident) or state.hqs[ident]
        hexes.add(counter.hex)
    if len(hexes) != 1:
        return deny("7.3.1", "not-together", "a moving stack starts in one hex")
    verdict = affordable(state, action_cost(state, "cost_movement", act.units, doubles=True))
    if not verdict.ok:
        return verdict
    trial = state.model_copy(update={"move": _new_move(state, tuple(act.units), next(iter(hexes)))})
    if not any(_step_verdict(trial, there).ok for there in _neighbours(trial)):
        return deny("7.3.2", "cannot-move", "the stack has nowhere to go")
    return ALLOW


def _new_move(state: GazalaState, units: tuple[str, ...], start: str | None) -> MoveState:
    acting = state.acting
    assert acting is not None and start is not None
    reactable = state.reaction is None and static_side(state.pack, state.scenario) != other(acting.side)
    return MoveState(units=units, path=(start,), supplied=acting.supplied, reactable=reactable and len(state.seats) > 1)


def move(state: GazalaState, seat: str, act: Move) -> Result[GazalaState]:
    """§7.3: pay the AP; the Improved Defence marker of the hex goes (§7.7: a unit in it takes an Action); an Isolated
    unit must pass an Effectiveness Check first (§5.8.4)."""
    units = tuple(act.units)
    cost = action_cost(state, "cost_movement", units, doubles=True)
    start = state.units[units[0]].hex if units[0] in state.units else state.hqs[units[0]].hex
    assert start is not None
    state = spend(state, cost)
    state = state.model_copy(update={"improved": tuple(h for h in state.improved if h != start)})
    sit = sit_of(state)
    isolated = tuple(u for u in units if u in state.units and command(sit, u).state == "isolated")
    event = Event(
        kind="move_begun",
        seat=side_of_seat(seat),
        rule="7.3",
        data={"units": list(units), "from": start, "ap": cost},
        text=f"{', '.join(piece_name(state.pack, u) for u in units)} begin a Movement Action from {start} ({cost} AP)",
    )
    if isolated:
        wait = DiceWait(seat=seat, purpose="isolated", units=isolated, movers=units)
        roll = RollRequest(rolls=(RollSpec(id="ec", sides=10, n=len(isolated), purpose="§5.8.4 Isolated units' ECs"),))
        return Result(state=push(state, wait).with_rolls(roll), events=(event,))
    return Result(state=state.model_copy(update={"move": _new_move(state, units, start)}), events=(event,))


def isolated_checked(state: GazalaState, outcome: Outcome) -> Result[GazalaState]:
    """§5.8.4: each Isolated unit passes an Effectiveness Check (d10 at most its current Effectiveness) or disrupts
    and stays; the APs are spent even if no unit moves."""
    wait = top(state, DiceWait)
    assert outcome.dice is not None
    state = pop(state)
    failed: list[str] = []
    events: list[Event] = []
    for unit, die in zip(wait.units, outcome.dice["ec"], strict=True):
        record = state.pack.unit(unit)
        passed = die <= record.eff.front
        if not passed:
            failed.append(unit)
            state = victory.disrupt(state, (unit,))
        events.append(
            Event(
                kind="effectiveness_check",
                seat=record.side,
                rule="5.8.4",
                data={"unit": unit, "die": die, "passed": passed},
                text=f"{record.name} (Isolated, {side_name(record.side)}) rolls {die}: "
                + ("passes" if passed else "fails and is Disrupted"),
            )
        )
    movers = tuple(u for u in wait.movers if u not in failed)
    if not movers:
        return after_action(state, events)
    start = state.units[movers[0]].hex if movers[0] in state.units else state.hqs[movers[0]].hex
    moving = state.model_copy(update={"move": _new_move(state, movers, start)})
    if not can_continue(moving):
        return after_action(state, events)
    return Result(state=moving, events=tuple(events))


# --- steps ----------------------------------------------------------------------------------------------------------


def _neighbours(state: GazalaState) -> tuple[str, ...]:
    return tuple(sit_of(state).board.grid.neighbours(HexId(_here(state))))


def _step_verdict(state: GazalaState, there: str) -> Verdict:
    """One more step of the move under way: the walk of the whole path so far (§7.3); stacking limits do not
    prohibit movement (§5.3.1)."""
    assert state.move is not None
    sit = sit_of(state)
    if there not in sit.board.grid:
        return deny("7.3", "not-adjacent", f"{there} is not a hex of the map")
    path = [HexId(h) for h in (*state.move.path, there)]
    if state.move.rbc:
        verdict = check_rbc_move(sit, state.move.units, path, supplied=state.move.supplied)
    else:
        verdict, _ = walk_path(
            sit, state.move.units, path, supplied=state.move.supplied, reinforcement=state.move.reinforcement
        )
    return verdict


def can_continue(state: GazalaState) -> bool:
    """Whether the stack under way could take one more step (then it may also announce leaving its hex)."""
    return any(_step_verdict(state, there).ok for there in _neighbours(state))


def qualifying(state: GazalaState, unit: str) -> Verdict:
    """§6.5.1, §7.3.5, ruling B3: a unit of the non-moving side may make its formation react if it is adjacent to the
    moving stack, undisrupted, In Command of its parent HQ, not an unassigned independent unit, its HQ was not
    displaced by this move, and its formation is at level 1 or more and not restricted by the scenario."""
    move_state = state.move
    acting = state.activation
    if move_state is None or acting is None:
        return deny("6.5.1", "no-move", "no move to react to")
    counter = state.units.get(unit)
    side = other(acting.side)
    if counter is None or counter.hex is None or state.pack.unit(unit).side != side:
        return deny("6.5.1", "not-a-unit", f"{unit} is not a {side} combat unit on the map")
    sit = sit_of(state)
    if not adjacent(sit.board, HexId(counter.hex), HexId(_here(state))):
        return deny("6.5.1", "not-adjacent", f"{unit} is not adjacent to the moving stack")
    if counter.disrupted:
        return deny("6.5.1", "disrupted", f"{unit} is Disrupted")
    formation = sit.formation(unit)
    if formation is None:
        return deny("6.5.1", "independent", f"{unit} is an unassigned independent unit")
    if command(sit, unit).state != "in-command":
        return deny("6.5.1", "out-of-command", f"{unit} is not In Command")
    if formation in move_state.barred:
        return deny("7.3.5", "hq-displaced", f"the move displaced the HQ of {formation}")
    if state.formations[formation].level < 1 and ruling(state, "reaction_needs_level"):
        return deny("6.5.1", "level-zero", f"{formation} is at Activation Level 0")
    if activation_restriction(state, formation) is not None:
        return deny("6.5.1", "restricted", f"{formation} may not activate yet")
    return ALLOW


def _candidates(state: GazalaState) -> list[str]:
    acting = state.activation
    if state.move is None or acting is None:
        return []
    side = other(acting.side)
    grid = sit_of(state).board.grid
    near = set(grid.neighbours(HexId(_here(state))))
    return sorted(u for u, c in state.units.items() if c.hex in near and state.pack.unit(u).side == side)


def _offer_due(state: GazalaState) -> bool:
    move_state = state.move
    if move_state is None or not move_state.reactable or move_state.attempted:
        return False
    return any(qualifying(state, u).ok for u in _candidates(state))


def exit_due(state: GazalaState) -> bool:
    """§6.5.1: leaving the current hex is a trigger point not yet offered to the Reaction player."""
    assert state.move is not None
    return f"exit:{_here(state)}" not in state.move.offered and _offer_due(state)


def steps(state: GazalaState, seat: str) -> Iterator[Step]:
    if state.move is None:
        return
    for there in _neighbours(state):
        yield Step(to=there)


def can_step(state: GazalaState, seat: str, act: Step) -> Verdict:
    if state.move is None:
        return deny("7.3", "no-move", "no Movement Action is under way")
    if exit_due(state):
        return deny("6.5.1", "announce-exit", "announce leaving this hex first: the other side may react")
    return _step_verdict(state, act.to)


def step(state: GazalaState, seat: str, act: Step) -> Result[GazalaState]:
    """§7.3: one hex on. Entering an unbreached enemy Minefield (its one step, the whole MA) makes every mover take
    an Enemy Minefield Check (§7.3.6). A lone enemy HQ next to the hex entered is displaced (§5.3.2, §7.3.5)."""
    move_state = state.move
    assert move_state is not None
    sit = sit_of(state)
    side = sit.board.side[move_state.units[0]]
    if sit.enemy_minefield(HexId(act.to), side):
        schwerpunkt = state.acting is not None and state.acting.schwerpunkt
        drms = tuple(
            minefield_check_drm(
                sit, u, move_state.units, in_command=command(sit, u).state == "in-command", schwerpunkt=schwerpunkt
            ).value
            for u in move_state.units
        )
        wait = DiceWait(seat=seat, purpose="minefield", units=move_state.units, hex=act.to, drms=drms)
        roll = RollRequest(
            rolls=(RollSpec(id="mines", sides=10, n=len(drms), purpose=f"§7.3.6 Enemy Minefield Checks into {act.to}"),)
        )
        return Result(state=push(state, wait).with_rolls(roll))
    return _entered(state, side, move_state.units, act.to, ())


def _entered(
    state: GazalaState, side: Side, units: tuple[str, ...], there: str, events: tuple[Event, ...]
) -> Result[GazalaState]:
    """The stack stands in ``there``: the objectives' last occupant (§10), then :func:`after_entry`."""
    move_state = state.move
    assert move_state is not None
    state = _place(state, units, there)
    state = victory.occupy(state, side, (there,))
    moved = move_state.model_copy(update={"units": units, "path": (*move_state.path, there)})
    state = state.model_copy(update={"move": moved})
    found = (
        *events,
        Event(
            kind="moved", seat=side, rule="7.3", data={"units": list(units), "src": move_state.path[-1], "dst": there}
        ),
    )
    return after_entry(state, found)


def after_entry(state: GazalaState, events: tuple[Event, ...]) -> Result[GazalaState]:
    """After the moving stack entered a hex: lone enemy HQs next to it displaced (§7.3.5; their owner chooses where,
    and this runs again once the owner has), then a Reaction offer if this is a trigger point, else the move goes on
    or ends."""
    move_state = state.move
    assert move_state is not None
    side = state.pack.side_of(move_state.units[0])
    there = move_state.path[-1]
    found = list(events)
    state, asking = _displace_hqs(state, side, there, found)
    if asking:
        return Result(state=state, events=tuple(found))
    if _offer_due(state):
        assert state.move is not None
        offered = state.move.model_copy(update={"offered": (*state.move.offered, f"entry:{there}")})
        offer = ReactionOffer(seat=other(side), at=there, exit=False)
        return Result(state=push(state.model_copy(update={"move": offered}), offer), events=tuple(found))
    if can_continue(state):
        return Result(state=state, events=tuple(found))
    return _finish(state, tuple(found))


def _displace_hqs(state: GazalaState, side: Side, there: str, events: list[Event]) -> tuple[GazalaState, bool]:
    """§5.3.2, §7.3.5: each lone enemy HQ adjacent to the hex entered goes to the nearest combat unit of its formation
    not stacked with another HQ and not in an unbreached Minefield (the owner chooses among equally near ones,
    :mod:`.hq_displace`); it loses one Attack Support Point and its formation one level, and its formation may not
    react to this move. Only a stack with a combat unit displaces ("an enemy non-HQ unit", §5.3.2). Whether the
    owner's decision is pending."""
    assert state.move is not None
    if not any(u in state.units for u in state.move.units):
        return state, False
    lone = hqs_displaced_by(sit_of(state), side, HexId(there))
    if not lone:
        return state, False
    formations = tuple(state.pack.hq(hq).formation for hq in lone)
    barred = (*state.move.barred, *(f for f in formations if f not in state.move.barred))
    state = state.model_copy(update={"move": state.move.model_copy(update={"barred": barred})})
    return displace_or_ask(state, other(side), lone, len(lone), "entered", events, rule="7.3.5")


def minefield_checked(state: GazalaState, outcome: Outcome) -> Result[GazalaState]:
    """§7.3.6: each mover's Enemy Minefield Check: a unit that passes must enter; one that fails stays, Disrupted
    (``disrupt``) and also losing one Strength Point (``disrupt_loss``). The stack may split (A10); the move ends."""
    wait = top(state, DiceWait)
    assert outcome.dice is not None and wait.hex is not None
    state = pop(state)
    sit = sit_of(state)
    entered: list[str] = []
    events: list[Event] = []
    for unit, die, drm in zip(wait.units, outcome.dice["mines"], wait.drms, strict=True):
        found = minefield_check(sit, unit, die, drm).result
        events.append(
            Event(
                kind="minefield_check",
                seat=sit.board.side[unit],
                rule="7.3.6",
                data={"unit": unit, "die": die, "drm": drm, "result": found, "hex": wait.hex},
                text=f"{piece_name(state.pack, unit)} ({side_name(sit.board.side[unit])}) rolls {die}{drm:+d} "
                f"for the Minefield in {wait.hex}: {found.replace('_', ' ')}",
            )
        )
        if found == "success":
            entered.append(unit)
            continue
        state = victory.disrupt(state, (unit,))
        if found == "disrupt_loss":
            state, lost = victory.lose(state, unit, 1, "7.3.6")
            events.extend(lost)
    side = sit.board.side[wait.units[0]]
    if entered and len(entered) < len(wait.units) and ruling(state, "minefield_stack_together"):
        entered = []  # notes A10, §7.3.1: the stack ends together, so one failure keeps it all out
    if not entered:
        assert state.move is not None
        stopped = state.model_copy(update={"move": state.move.model_copy(update={"units": ()})})
        return _finish(stopped, tuple(events), side=side)
    return _entered(state, side, tuple(entered), wait.hex, tuple(events))


# --- announcing an exit, halting -------------------------------------------------------------------------------------


def leaves(state: GazalaState, seat: str) -> Iterator[Leave]:
    if state.move is not None:
        yield Leave()


def can_leave(state: GazalaState, seat: str, act: Leave) -> Verdict:
    if state.move is None:
        return deny("7.3", "no-move", "no Movement Action is under way")
    if not exit_due(state):
        return deny("6.5.1", "no-trigger", "leaving this hex is not a Reaction trigger point: step on")
    if not can_continue(state):
        return deny("7.3.2", "cannot-move", "the stack cannot go on: halt")
    return ALLOW


def leave(state: GazalaState, seat: str, act: Leave) -> Result[GazalaState]:
    """§6.5.1: the mover announces it leaves (neither where to nor with how many units): the other side may react."""
    assert state.move is not None
    here = _here(state)
    moved = state.move.model_copy(update={"offered": (*state.move.offered, f"exit:{here}")})
    side = side_of_seat(seat)
    event = Event(
        kind="leaving",
        seat=side,
        rule="6.5.1",
        data={"hex": here},
        text=f"the {side_name(side)} announces leaving {here}",
    )
    return Result(
        state=push(state.model_copy(update={"move": moved}), ReactionOffer(seat=other(side), at=here, exit=True)),
        events=(event,),
    )


def halts(state: GazalaState, seat: str) -> Iterator[Halt]:
    if state.move is not None:
        yield Halt()


def can_halt(state: GazalaState, seat: str, act: Halt) -> Verdict:
    if state.move is None:
        return deny("7.3", "no-move", "no Movement Action is under way")
    stuck = state.move.rbc and not can_continue(state)  # a Retreat before Combat with nowhere to go stays
    if len(state.move.path) < 2 and not state.move.reinforcement and not stuck:
        return deny("7.3", "not-moved", "take at least one step")
    return ALLOW


def halt(state: GazalaState, seat: str, act: Halt) -> Result[GazalaState]:
    return _finish(state, ())


def _land(state: GazalaState) -> tuple[GazalaState, list[Event]]:
    """§7.3 the end of a Movement Action: the Improved Defence marker of the hex entered goes (§7.7); an enemy Major
    supply source entered is blocked, a friendly one unblocked (§5.7.3); Tobruk changes hands from the next Game Turn
    when an enemy ground unit ends a move in it (§5.7.3)."""
    move_state = state.move
    assert move_state is not None
    events: list[Event] = []
    end = move_state.path[-1]
    if len(move_state.path) > 1 and move_state.units:
        side = state.pack.side_of(move_state.units[0])
        improved = tuple(h for h in state.improved if h != end)
        blocked = list(state.blocked)
        for source in state.pack.supply_sources:
            if source.hex != end or source.kind != "major":
                continue
            if source.side != side and source.id not in blocked:
                blocked.append(source.id)
                events.append(Event(kind="source_blocked", seat=side, rule="5.7.3", data={"source": source.id}))
            elif source.side == side and source.id in blocked:
                blocked.remove(source.id)
                events.append(Event(kind="source_unblocked", seat=side, rule="5.7.3", data={"source": source.id}))
        tobruk_next = state.tobruk_next
        combat = any(u in state.units for u in move_state.units)
        if end == state.pack.tobruk.hex and combat and side != (state.tobruk_next or state.tobruk):
            tobruk_next = side
            events.append(Event(kind="tobruk_captured", seat=side, rule="5.7.3", data={"side": side}))
        state = state.model_copy(update={"improved": improved, "blocked": tuple(blocked), "tobruk_next": tobruk_next})
    return victory.sudden_death(state.model_copy(update={"move": None})), events


def _where(state: GazalaState, side: Side | None = None) -> tuple[Side | None, tuple[str, ...]]:
    """The moving side and the hexes where the move under way leaves its stack (where it stands and where each mover
    is): what :func:`.overstack.settle` checks at the move's end (§5.3.1)."""
    move_state = state.move
    assert move_state is not None
    movers = move_state.units
    if side is None and movers:
        side = state.pack.side_of(movers[0])
    placed = [state.units[m].hex if m in state.units else state.hqs[m].hex for m in movers]
    return side, (move_state.path[-1], *(h for h in placed if h is not None))


def _finish(state: GazalaState, events: tuple[Event, ...], *, side: Side | None = None) -> Result[GazalaState]:
    """The end of a Movement Action: the hex entered (:func:`_land`), overstacking resolved (§5.3.1), then what
    follows the move (the Action's end, a Retreat before Combat's end, the next reinforcement)."""
    assert state.move is not None
    then = "rbc" if state.move.rbc else "reinforcement" if state.move.reinforcement else "action"
    side, hexes = _where(state, side)
    state, landed = _land(state)
    if side is None:
        return after_action(state, (*events, *landed))
    return overstack.settle(state, side, hexes, then, (*events, *landed))


# --- Formation Reaction (§6.5) -----------------------------------------------------------------------------------


def reacts(state: GazalaState, seat: str) -> Iterator[React]:
    for unit in _candidates(state):
        yield React(unit=unit)


def can_react(state: GazalaState, seat: str, act: React) -> Verdict:
    return qualifying(state, act.unit)


def react(state: GazalaState, seat: str, act: React) -> Result[GazalaState]:
    """§6.5.2: the reacting HQ's supply check (with Emergency Supply, §6.3.3), then the Reaction Check and the AP
    roll (one d10 each, rolled together)."""
    offer = top(state, ReactionOffer)
    state = pop(state)
    assert state.move is not None
    state = state.model_copy(update={"move": state.move.model_copy(update={"attempted": True})})
    formation = sit_of(state).formation(act.unit)
    assert formation is not None
    state, supplied, exhausted, events = supply_check(state, formation)
    wait = DiceWait(
        seat=seat, purpose="reaction", formation=formation, hex=offer.at, drms=(int(supplied), int(exhausted))
    )
    roll = RollRequest(
        rolls=(RollSpec(id="reaction", sides=10, n=2, purpose=f"§6.5.2 Reaction of {formation}: check, AP"),)
    )
    event = Event(
        kind="reaction_attempted",
        seat=seat,
        rule="6.5.1",
        data={"formation": formation, "unit": act.unit, "hex": offer.at},
        text=f"the {side_name(seat)} attempts a Reaction with {piece_name(state.pack, formation)}",
    )
    return Result(state=push(state, wait).with_rolls(roll), events=(*events, event))


def reaction_rolled(state: GazalaState, outcome: Outcome) -> Result[GazalaState]:
    """§6.5.2: success on a d10 at or below the HQ's printed Reaction Rating. Failure: nothing happens and the mover
    goes on. Success: the mover stops (its Action ends), the formation rolls the red AP value (+ Schwerpunkt) and
    drops a level, and acts; the initiative formation then resumes with a new Action (§6.5.3)."""
    wait = top(state, DiceWait)
    assert outcome.dice is not None and wait.formation is not None
    state = pop(state)
    formation = wait.formation
    check, ap_die = outcome.dice["reaction"]
    rating = state.pack.hq_of(formation).reaction
    side = state.pack.formation(formation).side
    if check > rating:
        event = Event(
            kind="reaction_failed",
            seat=side,
            rule="6.5.2",
            data={"formation": formation, "die": check, "rating": rating},
            text=f"{piece_name(state.pack, formation)} ({side_name(side)}) rolls {check} against its Reaction Rating "
            f"{rating}: no Reaction",
        )
        if can_continue(state):
            return Result(state=state, events=(event,))
        return _finish(state, (event,))
    found = state.formations[formation]
    points = ap_value(state, found.level, ap_die, red=True)
    schwerpunkt = state.schwerpunkt == formation
    if schwerpunkt:
        points += state.pack.number("schwerpunkt_ap")
    level = 0 if wait.drms[1] else max(0, found.level - 1)  # ruling reaction_needs_level false: it stays at 0
    state = state.model_copy(
        update={"formations": {**state.formations, formation: found.model_copy(update={"level": level})}}
    )
    event = Event(
        kind="reaction_succeeded",
        seat=side,
        rule="6.5.2",
        data={"formation": formation, "die": check, "rating": rating, "ap_die": ap_die, "ap": points, "level": level},
        text=f"{piece_name(state.pack, formation)} ({side_name(side)}) rolls {check} against {rating} and reacts "
        f"with {points} Action Points",
    )
    mover, hexes = _where(state)
    state, landed = _land(state)
    reacting = Activation(
        side=side, formation=formation, ap=points, schwerpunkt=schwerpunkt, supplied=bool(wait.drms[0])
    )
    state = push(state.model_copy(update={"reaction": reacting}), Reacting(seat=side))
    if mover is None:
        return Result(state=state, events=(event, *landed))
    # The mover's Action ends where it stopped (§6.5.3): its overstacking is resolved before the Reaction acts.
    return overstack.settle(state, mover, hexes, "none", (event, *landed))


def declines(state: GazalaState, seat: str) -> Iterator[Decline]:
    yield Decline()


def can_decline(state: GazalaState, seat: str, act: Decline) -> Verdict:
    return ALLOW


def decline(state: GazalaState, seat: str, act: Decline) -> Result[GazalaState]:
    offer = top(state, ReactionOffer)
    state = pop(state)
    event = Event(kind="reaction_declined", seat=seat, rule="6.5.1", data={"hex": offer.at})
    if offer.exit or can_continue(state):
        return Result(state=state, events=(event,))
    return _finish(state, (event,))
