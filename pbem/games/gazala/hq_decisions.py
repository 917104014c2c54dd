"""The owner's ``displace_hq`` decision (§5.3.1, §5.3.2) and the flows it resumes (:mod:`.hq_displace`).

Once the HQ is placed, the flow that asked runs again: the overstacking at the end of a move
(:func:`.overstack.resume`), the hex a moving stack entered (:func:`.moves.after_entry`), a combat's displacements
(:func:`.battle.offer_displacement`), or the end of a combat (:func:`.battle.battle_over`); each finds the HQ gone
and asks for the next one, or goes on.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.games.gazala import battle, moves, overstack
from pbem.games.gazala.actions import DisplaceHq
from pbem.games.gazala.hq_displace import displace_hq, hq_choices
from pbem.games.gazala.state import GazalaState, HqDisplacing, Overstack
from pbem.kit.machine import pop
from pbem.rules.contract import ALLOW, Event, Step, Verdict, deny

__all__ = ["can_displace_hq", "displace_hq_action", "hq_displacements"]


def _waiting(state: GazalaState) -> HqDisplacing | None:
    item = state.pending[-1] if state.pending else None
    return item if isinstance(item, HqDisplacing) else None


def hq_displacements(state: GazalaState, seat: str) -> Iterator[DisplaceHq]:
    waiting = _waiting(state)
    if waiting is not None and waiting.seat == seat:
        for hq, to in hq_choices(state, waiting.hqs):
            yield DisplaceHq(hq=hq, to=to)


def can_displace_hq(state: GazalaState, seat: str, act: DisplaceHq) -> Verdict:
    """§5.3.2: one of the HQs to displace, to one of its nearest destinations (the owner's choice among them)."""
    waiting = _waiting(state)
    if waiting is None or waiting.seat != seat:
        return deny("5.3.2", "not-displacing", "no HQ of yours waits for its displacement")
    if act.hq not in waiting.hqs:
        return deny("5.3.2", "not-displaced", f"{act.hq} is not an HQ to displace now")
    if (act.hq, act.to) not in hq_choices(state, waiting.hqs):
        return deny("5.3.2", "not-nearest", f"{act.to} is not one of the nearest places for {act.hq}")
    return ALLOW


def displace_hq_action(state: GazalaState, seat: str, act: DisplaceHq) -> Step[GazalaState]:
    waiting = _waiting(state)
    assert waiting is not None
    found: list[Event] = []
    rule = "7.3.5" if waiting.then == "entered" else "5.3.2"
    state = displace_hq(pop(state), act.hq, act.to, found, rule=rule)
    if waiting.then == "overstack":
        below = state.pending[-1]
        assert isinstance(below, Overstack)
        return overstack.resume(pop(state), below, tuple(found))
    if waiting.then == "entered":
        return moves.after_entry(state, tuple(found))
    if waiting.then == "displacement":
        return battle.offer_displacement(state, tuple(found))
    return battle.battle_over(state, tuple(found))
