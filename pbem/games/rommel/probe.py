"""Probe Combat (§10.41): as a Move that made a Partial Retreat ends, the Passive Player may provoke one round of
combat against the Rearguard (no Supply Card spent).

A :class:`~pbem.games.rommel.state.Probe` goes on the stack for each battle the Move retreated from partially
where the Passive Player has undisrupted units. ``probe`` with ``provoke`` true fights the round through the battle
stage (:func:`pbem.games.rommel.fights.start_fight` with roles reversed: the Rearguard fires Defensive Fire first,
the Passive Player returns Offensive Fire); if it eliminates every Rearguard unit, the probing units that did not fire
pursue the disengaging units as a group (§10.5). Declined, or the Rearguard surviving, the disengaging units take no
Pursuit Fire.
"""

from __future__ import annotations

from collections.abc import Iterable

from pbem.games.rommel import fights
from pbem.games.rommel.present import SIDE_NAMES, hex_label
from pbem.games.rommel.state import Probe, RommelState, other
from pbem.kit.machine import pop, push
from pbem.rules.contract import ALLOW, Event, Verdict, deny

__all__ = ["offer", "probe_verdict", "probed"]


def offer(state: RommelState, partial: Iterable[str], movers: Iterable[str]) -> RommelState:
    """A Probe decision for each battle in ``partial`` (this Move's Partial Retreats) with undisrupted Passive units;
    the first hex is decided first."""
    passive = other(state.active)
    turn = state.turn
    moved = [t for t in movers if turn.disengaged.get(t, False) and t in turn.paths]
    for hex_id in sorted(partial, reverse=True):
        group = tuple(sorted(t for t in moved if turn.paths[t][0] == hex_id and state.tokens[t].status == "map"))
        probers = [t for t in state.at(hex_id) if state.tokens[t].side == passive and not state.tokens[t].disrupted]
        if group and probers:
            state = push(state, Probe(seat=passive, hex=hex_id, group=group))
    return state


def probe_verdict(state: RommelState, item: Probe, provoke: bool) -> Verdict:
    """§10.41: Probe Combat is the Passive Player's option, while the Rearguard stands."""
    if provoke and item.hex not in state.battles:
        return deny("10.41", "no-rearguard", f"no battle is left in {item.hex} to probe")
    return ALLOW


def probed(state: RommelState, item: Probe, provoke: bool) -> tuple[RommelState, list[Event]]:
    """Provoked: the round of Probe Combat; declined: the disengaging units are safe from Pursuit Fire."""
    state = pop(state)
    passive = other(state.active)
    if not provoke:
        text = f"{SIDE_NAMES[passive]} declines Probe Combat at {hex_label(state.pack, item.hex)}"
        return state, [Event(kind="probe_declined", seat=passive, rule="10.41", data={"location": item.hex}, text=text)]
    return fights.start_fight(state, passive, item.hex, False, probe=item.group)
