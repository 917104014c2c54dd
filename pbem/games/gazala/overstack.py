"""Overstacking at the end of a Movement Action (§5.3.1, §5.3.2, §5.3.3), over :mod:`.combat_displace`.

"Stacking limits do not prohibit movement and must only be met at the end of an Action" (§5.3.1): a moving stack
may pass through, and stop in, a hex it overstacks. Where the move ends (and where a stack split by an Enemy
Minefield Check stays behind) the hex's combat units disrupt, a Disrupted one losing a Strength Point, and two HQs
lose a Support Point each (:func:`~.combat_displace.overstack_effects`); a surplus HQ is displaced by its owner, who
chooses which HQ leaves and where among its nearest destinations (§5.3.1, §5.3.2, :mod:`.hq_displace`); then the
opponent displaces overstacked combat units one at a time (``displace``, :func:`~.combat_displace.
displacement_options`), or the owner eliminates them when none can go anywhere. A decision with a single option,
or of a side without a seat (§10.1), is taken at once. Only then does the move's end lead on (``then``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from pbem.games.gazala import victory
from pbem.games.gazala.actions import Displace
from pbem.games.gazala.admin import next_reinforcement
from pbem.games.gazala.battle import finish_rbc_move
from pbem.games.gazala.combat_displace import (
    Displacement,
    check_displacement,
    displacement_chooser,
    displacement_options,
    overstack_effects,
    overstacked,
    surplus_hqs,
)
from pbem.games.gazala.data import Side
from pbem.games.gazala.hq_displace import displace_lone_hqs, displace_or_ask
from pbem.games.gazala.mapspec import side_name
from pbem.games.gazala.ops import after_action, side_of_seat
from pbem.games.gazala.state import GazalaState, HqDisplacing, Overstack, sit_of
from pbem.kit.hexes import HexId
from pbem.kit.machine import pop, push
from pbem.rules.contract import Event, Step, Verdict, deny

__all__ = ["can_displace", "displace", "displacements", "resume", "settle", "top_overstack"]


def settle(
    state: GazalaState,
    side: Side,
    hexes: Sequence[str],
    then: str,
    events: Sequence[Event],
) -> Step[GazalaState]:
    """§5.3.1 at the end of a move of ``side``: the effects in each overstacked hex of ``hexes``, the surplus HQs
    displaced by their owner, then the opponent's displacements; then ``then``."""
    found = list(events)
    over: list[str] = []
    for hex_id in dict.fromkeys(hexes):
        sit = sit_of(state)
        if not overstacked(state.pack, sit, side, HexId(hex_id)):
            continue
        over.append(hex_id)
        effects = overstack_effects(state.pack, sit, side, HexId(hex_id))
        state = victory.disrupt(state, sorted(effects.disrupted))
        hqs = dict(state.hqs)
        for hq, points in sorted(effects.hq_support.items()):
            hqs[hq] = hqs[hq].model_copy(update={"support": max(0, hqs[hq].support - points)})
        state = state.model_copy(update={"hqs": hqs})
        found.append(
            Event(
                kind="overstacked",
                seat=side,
                rule="5.3.1",
                data={
                    "hex": hex_id,
                    "disrupted": sorted(effects.disrupted),
                    "losses": dict(sorted(effects.losses.items())),
                    "hq_support": dict(sorted(effects.hq_support.items())),
                },
                text=f"the {side_name(side)} is overstacked in {hex_id} at the end of its move",
            )
        )
        for unit, points in sorted(effects.losses.items()):
            state, lost = victory.lose(state, unit, points, "5.3.1")
            found.extend(lost)
    waiting = Overstack(
        seat=side,
        hexes=tuple(over),
        side=side,
        then=then,  # type: ignore[arg-type]
        hq_hexes=tuple(over),
    )
    return resume(state, waiting, tuple(found))


def resume(state: GazalaState, waiting: Overstack, events: tuple[Event, ...]) -> Step[GazalaState]:
    """The surplus HQs displaced by their owner first (§5.3.1: which, and where, :mod:`.hq_displace`); then the
    next displacement of the first hex still overstacked, asked of its chooser or made at once; then ``then``."""
    while waiting.hq_hexes:
        surplus, candidates = surplus_hqs(state.pack, sit_of(state), waiting.side, HexId(waiting.hq_hexes[0]))
        found = list(events)
        state, asking = displace_or_ask(state, waiting.side, candidates, surplus, "overstack", found)
        events = tuple(found)
        if asking:
            return _under(state, waiting, events)
        waiting = waiting.model_copy(update={"hq_hexes": waiting.hq_hexes[1:]})
    while waiting.hexes:
        where = HexId(waiting.hexes[0])
        chooser = displacement_chooser(state.pack, sit_of(state), waiting.side, where)
        if chooser is None:
            waiting = waiting.model_copy(update={"hexes": waiting.hexes[1:]})
            continue
        options = displacement_options(state.pack, sit_of(state), waiting.side, where)
        if chooser not in state.seats or len(options) == 1:
            state, events = _apply(state, waiting, options[0], chooser, events)
            if _asking(state):
                return _under(state, waiting, events)
            continue
        return Step(state=push(state, waiting.model_copy(update={"seat": chooser})), events=events)
    return _then(state, waiting.then, events)


def _asking(state: GazalaState) -> bool:
    return bool(state.pending) and isinstance(state.pending[-1], HqDisplacing)


def _under(state: GazalaState, waiting: Overstack, events: tuple[Event, ...]) -> Step[GazalaState]:
    """The owner's HQ decision on top, the overstacking it interrupts (``waiting``) just below it."""
    below = state.pending[:-1]
    return Step(state=state.model_copy(update={"pending": (*below, waiting, state.pending[-1])}), events=events)


def _then(state: GazalaState, then: str, events: tuple[Event, ...]) -> Step[GazalaState]:
    if then == "rbc":
        return finish_rbc_move(state, events)
    if then == "reinforcement":
        return next_reinforcement(pop(state), events)
    if then == "action":
        return after_action(state, events)
    return Step(state=state, events=events)


def _apply(
    state: GazalaState, waiting: Overstack, move: Displacement, by: Side, events: tuple[Event, ...]
) -> tuple[GazalaState, tuple[Event, ...]]:
    """§5.3.3: the unit goes to the adjacent hex (overstacking it in turn is not resolved again), or is eliminated;
    a lone enemy HQ it comes next to is displaced (§5.3.2, "for any reason"; its owner's decision may be pending)."""
    found = list(events)
    if move.to is None:
        state, lost = victory.lose(state, move.unit, state.units[move.unit].cs, "5.3.3")
        found.extend(lost)
    else:
        state = state.model_copy(
            update={"units": {**state.units, move.unit: state.units[move.unit].model_copy(update={"hex": move.to})}}
        )
        found.append(Event(kind="displaced", seat=by, rule="5.3.3", data={"unit": move.unit, "dst": move.to}))
        state = displace_lone_hqs(state, waiting.side, move.to, found)
    return state, tuple(found)


def top_overstack(state: GazalaState) -> Overstack | None:
    item = state.pending[-1] if state.pending else None
    return item if isinstance(item, Overstack) else None


def displacements(state: GazalaState, seat: str) -> Iterator[Displace]:
    waiting = top_overstack(state)
    if waiting is not None:
        for option in displacement_options(state.pack, sit_of(state), waiting.side, HexId(waiting.hexes[0])):
            yield Displace(unit=option.unit, to=option.to)


def can_displace(state: GazalaState, seat: str, act: Displace) -> Verdict:
    waiting = top_overstack(state)
    if waiting is None:
        return deny("5.3.3", "not-overstacked", "no overstacked hex waits for a displacement")
    move = Displacement(act.unit, None if act.to is None else HexId(act.to))
    where = HexId(waiting.hexes[0])
    return check_displacement(state.pack, sit_of(state), waiting.side, where, move, by=side_of_seat(seat))


def displace(state: GazalaState, seat: str, act: Displace) -> Step[GazalaState]:
    waiting = top_overstack(state)
    assert waiting is not None
    move = Displacement(act.unit, None if act.to is None else HexId(act.to))
    state, events = _apply(pop(state), waiting, move, side_of_seat(seat), ())
    if _asking(state):
        return _under(state, waiting, events)
    return resume(state, waiting, events)
