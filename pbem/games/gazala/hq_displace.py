"""HQ displacement (§5.3.2) as a decision of the HQ's owner, shared by the three places that displace HQs.

§5.3.2 places a displaced HQ "on the nearest friendly ground combat unit of the same formation ... In the event of
more than one option, the owning player chooses the hex", and §5.3.1 says "any surplus HQs ... must immediately be
displaced" without saying which: the owner chooses that too. :func:`displace_or_ask` displaces at once when the
owner has a single option (or has no seat, §10.1's static side: the first option), else pushes an
:class:`~.state.HqDisplacing` for the owner's ``displace_hq``. The callers are re-entrant: once the owner has
answered, the flow that asked runs again and finds the HQ gone (:mod:`.hq_decisions`):

* ``overstack``: a surplus HQ at the end of a Movement Action (:mod:`.overstack`);
* ``entered``: a lone HQ next to the hex a moving enemy stack entered (§7.3.5, :mod:`.moves`);
* ``battle``: an HQ left alone by a combat (§7.5, :mod:`.battle`);
* ``overstack`` and ``displacement``: a lone HQ next to a unit displaced there (§5.3.3, :func:`displace_lone_hqs`).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.gazala.board import hqs_displaced_by, other
from pbem.games.gazala.combat_displace import hq_displacement_options, hq_displacement_penalty
from pbem.games.gazala.data import Side
from pbem.games.gazala.mapspec import piece_name
from pbem.games.gazala.rulings import ruling
from pbem.games.gazala.state import GazalaState, HqDisplacing, sit_of
from pbem.kit.hexes import HexId
from pbem.kit.machine import push
from pbem.rules.contract import Event

__all__ = ["displace_hq", "displace_lone_hqs", "displace_or_ask", "hq_choices"]


def hq_choices(state: GazalaState, hqs: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Every (HQ, destination) the owner may pick: each of ``hqs`` to each of its nearest destinations."""
    sit = sit_of(state)
    enemy_only = bool(ruling(state, "hq_displacement_enemy_mines"))  # notes B14
    return tuple((hq, str(to)) for hq in hqs for to in hq_displacement_options(sit, hq, enemy_mines_only=enemy_only))


def displace_hq(state: GazalaState, hq: str, to: str, events: list[Event], *, rule: str = "5.3.2") -> GazalaState:
    """§5.3.2: ``hq`` goes to ``to`` and pays its penalty (Attack Support and one Activation space)."""
    counter = state.hqs[hq]
    formation = state.pack.hq(hq).formation
    level = state.formations[formation]
    penalty = hq_displacement_penalty(state.pack, support=counter.support, level=level.level)
    moved = counter.model_copy(update={"hex": to, "support": penalty.support})
    lowered = level.model_copy(update={"level": penalty.level})
    state = state.model_copy(
        update={"hqs": {**state.hqs, hq: moved}, "formations": {**state.formations, formation: lowered}}
    )
    side = state.pack.formation(formation).side
    events.append(
        Event(
            kind="hq_displaced",
            seat=side,
            rule=rule,
            data={"hq": hq, "src": counter.hex, "dst": to},
            text=f"{piece_name(state.pack, hq)} is displaced from {counter.hex} to {to}",
        )
    )
    return state


def displace_or_ask(
    state: GazalaState,
    side: Side,
    hqs: Sequence[str],
    count: int,
    then: str,
    events: list[Event],
    *,
    rule: str = "5.3.2",
) -> tuple[GazalaState, bool]:
    """Displace ``count`` of ``side``'s ``hqs`` (those with somewhere to go; one without stays where it is), each
    at once while the owner has a single option or no seat; else push the owner's decision. Returns the state and
    whether a decision is pending (then the caller stops, and runs again once it is taken)."""
    left = list(hqs)
    while count > 0:
        choices = hq_choices(state, left)
        if not choices:
            break
        if side in state.seats and len(choices) > 1:
            wait = HqDisplacing(seat=side, hqs=tuple(left), count=count, then=then)  # type: ignore[arg-type]
            return push(state, wait), True
        hq, to = choices[0]
        state = displace_hq(state, hq, to, events, rule=rule)
        left.remove(hq)
        count -= 1
    return state, False


def displace_lone_hqs(state: GazalaState, side: Side, there: str, events: list[Event]) -> GazalaState:
    """§5.3.2: a ``side`` combat unit displaced into ``there`` (§5.3.3) displaces each lone enemy HQ next to it ("an
    enemy non-HQ unit moves adjacent to it for any reason"); the state may end with the owner's decision pending,
    which the caller puts above the displacement it interrupts (``then``: ``overstack`` or ``displacement``)."""
    lone = hqs_displaced_by(sit_of(state), side, HexId(there))
    then = "overstack" if state.battle is None else "displacement"
    state, _ = displace_or_ask(state, other(side), lone, len(lone), then, events)
    return state
