"""Refusing Battle (§8.4, §10.2): after all enemy Movement (Forced Marches included), the Passive Player may
Retreat each group just Attacked by Withdrawal Group Move.

A :class:`~pbem.games.rommel.state.Refusal` goes on the stack as the Movement phase ends if some group was
Attacked this turn. The Passive Player refuses battle in a hex (``refuse``) or accepts every remaining battle
(``accept``). Refusing pushes the group's Withdrawal (every undisrupted unit: no Regroup, no Partial Retreat) beneath
the Active Player's Pursuit Fire (units not revealed, §10.2 procedure); the Disrupted units left behind Rout once the
others have gone (step 4). Groups engaged when Movement began cannot refuse (§8.4); every refusing unit needs a
Supply Line and a first step of a Withdrawal (§5.3; a mixed group whose units cannot all withdraw cannot refuse).
"""

from __future__ import annotations

from pbem.games.rommel import pursuit
from pbem.games.rommel.present import SIDE_NAMES, hex_label
from pbem.games.rommel.state import Refusal, RommelState, Side, Withdrawal, other
from pbem.games.rommel.supply import supply_lines
from pbem.games.rommel.withdrawal import step_verdict
from pbem.kit.machine import pop, push
from pbem.rules.contract import ALLOW, Event, Verdict, deny
from pbem.text import plural

__all__ = ["accepted", "attacked", "offer", "refuse_verdict", "refused", "settle"]


def attacked(state: RommelState) -> list[str]:
    """The battles the Active Player started by Attacking this turn (§8.2), whose Defender's group is still there."""
    ended = {path[-1] for path in state.turn.paths.values()}
    passive = other(state.active)
    return [
        h
        for h, b in sorted(state.battles.items())
        if b.new and b.attacker == state.active and b.defender == passive and h in ended
    ]


def offer(state: RommelState) -> RommelState:
    """As the Movement phase ends: the Passive Player's chance to Refuse Battle, if some group was just Attacked."""
    if not any(refuse_verdict(state, h).ok for h in attacked(state)):
        return state
    return push(state, Refusal(seat=other(state.active)))


def settle(state: RommelState) -> RommelState:
    """Once a refusal's Withdrawal (and any Rout after it) is over: the Refusal ends by itself when no other group
    may still refuse."""
    top = state.pending[-1] if state.pending else None
    if isinstance(top, Refusal) and not any(refuse_verdict(state, h).ok for h in attacked(state)):
        return pop(state)
    return state


def _group(state: RommelState, hex_id: str, side: Side) -> tuple[str, ...]:
    return tuple(t for t in state.at(hex_id) if state.tokens[t].side == side and not state.tokens[t].disrupted)


def refuse_verdict(state: RommelState, hex_id: str) -> Verdict:
    """§8.4, §10.2: whether the group in ``hex_id`` may Refuse Battle."""
    side = other(state.active)
    if hex_id not in state.battles or hex_id not in attacked(state):
        return deny("8.4", "not-attacked", f"no group of yours was just Attacked in {hex_id}")
    group = _group(state, hex_id, side)
    if not group:
        return deny("8.2", "unshielded-routs", "unshielded Disrupted units that are Attacked Rout instead")
    lines = supply_lines(state.pack, state.position(), side)
    lacking = sorted(t for t in group if t not in lines.supplied)
    if lacking:
        return deny("8.4", "no-supply-line", f"{', '.join(lacking)} cannot Withdraw: no Supply Line")
    probe = Withdrawal(seat=side, hex=hex_id, group=group, cause="refuse")
    for token in group:
        if not any(step_verdict(state, probe, token, str(n)).ok for n in state.pack.hex_map.neighbours(hex_id)):  # type: ignore[arg-type]
            return deny("8.4", "cannot-withdraw", f"{token} has no Withdrawal route out of {hex_id}")
    return ALLOW


def refused(state: RommelState, hex_id: str) -> tuple[RommelState, list[Event]]:
    """The group's Withdrawal, after the Active Player's Pursuit Fire (units stay hidden, §10.2)."""
    side = other(state.active)
    group = _group(state, hex_id, side)
    state = push(state, Withdrawal(seat=side, hex=hex_id, group=group, cause="refuse"))
    data = {"location": hex_id, "units": list(group)}
    where = hex_label(state.pack, hex_id)
    text = f"{SIDE_NAMES[side]} refuses battle at {where}: {plural(len(group), 'block')} withdraw"
    events = [Event(kind="battle_refused", seat=side, rule="10.2", data=data, text=text)]
    state, more = pursuit.start(state, hex_id, side, group, "refuse")
    return state, [*events, *more]


def accepted(state: RommelState) -> tuple[RommelState, list[Event]]:
    """Every remaining battle is accepted (§8.4): the Combat phase follows."""
    return pop(state), [Event(kind="battle_accepted", seat=other(state.active), rule="8.4")]
