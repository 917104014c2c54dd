"""Convoy escorts of *Axis & Allies: North Africa* (pp.12, 25): air units on convoy duty, and their landing.

* p.25: air units deployed to a convoy zone, and friendly sea units already there, escort its convoy; in phase 6
  the power may also ``escort`` with an air unit that moved in neither the combat nor the noncombat move: up to
  the pack's ``escort_move_range`` spaces into a sea zone holding one of its open convoy routes
  (:func:`.movement.check_escort_move`).
* p.12 phase 1: at the start of the power's next turn its air units in its convoy zones must ``land_escort``
  within the pack's ``convoy_air_landing_range`` spaces in a friendly-controlled territory
  (:func:`.movement.check_convoy_landing`); ``done`` destroys those that cannot (it is refused while one can).
  Notes §10.16, genesis option ``chain_escorts``: ``advance`` (the default): air units in the UK's Atlantic and
  Indian Ocean legs (no port) go on with the chain instead, and those that reach Suez land on the next turn;
  ``land``: they stay and land like the others (from the Atlantic, nothing is in reach). Notes §10.17: this
  flight does not count against their later moves.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.games.axisallies.actions import Escort, LandEscort
from pbem.games.axisallies.economy import convoy_open
from pbem.games.axisallies.movement import check_convoy_landing, check_escort_move
from pbem.games.axisallies.position import graph_of
from pbem.games.axisallies.state import AxisState, Counts, LandEscorts, added, split
from pbem.kit.machine import pop, push, replace_top, top
from pbem.rules.contract import ALLOW, Event, Step, Verdict, deny

__all__ = [
    "can_done_landing",
    "can_escort",
    "can_land_escort",
    "done_landing",
    "escort",
    "escorts",
    "land_escort",
    "land_escorts",
    "on_duty",
    "with_landings",
]


def _paths(state: AxisState, origin: str, longest: int, *, arrows: bool = False) -> Iterator[tuple[str, ...]]:
    """Paths of 1..``longest`` borders out of ``origin``, breadth first; along the convoy arrows of the map (the
    UK chain and its ports, p.11) only with ``arrows``: escorts landing may reach "the convoy's destination port"
    (p.12)."""
    graph = graph_of(state.pack)
    frontier: list[tuple[str, ...]] = [(origin,)]
    for _ in range(longest):
        grown = []
        for path in frontier:
            for edge in graph.edges(path[-1]):
                if (arrows or edge.type != "convoy") and edge.b not in path:
                    grown.append((*path, edge.b))
        yield from grown
        frontier = grown


def _air(state: AxisState, space: str) -> Counts:
    return {
        k: n
        for k, n in state.pieces.get(space, {}).items()
        if n > 0 and split(k)[0] == state.power and state.pack.unit(*split(k)).category == "air"
    }


# --- phase 6: escort moves (p.25) -----------------------------------------------------------------------------


def _open(state: AxisState) -> frozenset[str]:
    pack, position = state.pack, state.position()
    return frozenset(z.id for z in pack.sea_zones if z.convoy and convoy_open(pack, position, z.id, state.power))


def _escort_path(state: AxisState, act: Escort) -> tuple[tuple[str, ...] | None, Verdict]:
    pack = state.pack
    scenario = pack.scenario(state.scenario)
    position = state.position()
    open_ = _open(state)
    first: Verdict | None = None
    for path in _paths(state, act.origin, pack.limit("escort_move_range")):
        if path[-1] != act.to:
            continue
        verdict = check_escort_move(pack, scenario, position, state.power, act.unit, path, open_convoys=open_)
        if verdict.ok:
            return path, verdict
        first = first or verdict
    return None, first or deny("25", "too-far", f"escorts fly at most {pack.limit('escort_move_range')} spaces")


def escorts(state: AxisState, seat: str) -> Iterator[Escort]:
    open_ = sorted(_open(state))
    for space in sorted(state.pieces):
        for k in sorted(_air(state, space)):
            for zone in open_:
                if zone != space:
                    yield Escort(unit=split(k)[1], origin=space, to=zone)


def can_escort(state: AxisState, seat: str, act: Escort) -> Verdict:
    """p.25: an air unit that neither combat moved nor noncombat moved flies to escort an open convoy."""
    graph = graph_of(state.pack)
    if act.origin not in graph.nodes or act.to not in graph.nodes:
        return deny("10", "unknown-space", f"{act.origin} or {act.to} is not a space of the map")
    k = f"{state.power}:{act.unit}"
    if _air(state, act.origin).get(k, 0) - state.spent.get(act.origin, {}).get(k, 0) <= 0:
        return deny("25", "moved-this-turn", f"no {act.unit} in {act.origin} that did not move this turn")
    path, verdict = _escort_path(state, act)
    return ALLOW if path is not None else verdict


def escort(state: AxisState, seat: str, act: Escort) -> Step[AxisState]:
    k = f"{state.power}:{act.unit}"
    pieces = added(added(state.pieces, act.origin, k, -1), act.to, k, 1)
    state = state.model_copy(update={"pieces": pieces, "spent": added(state.spent, act.to, k, 1)})
    data = {"power": state.power, "unit": act.unit, "src": act.origin, "dst": act.to}
    return Step(state=state, events=(Event(kind="escort_moved", seat=seat, rule="25", data=data),))


# --- phase 1: escorts land (p.12) -------------------------------------------------------------------------------


def _chain_lands(state: AxisState) -> bool:
    return state.options.get("chain_escorts") == "land"


def riding(state: AxisState, pieces: Counts) -> Counts:
    """The pieces of a leg of the UK chain that advance along it in phase 1 (p.12): all of them, but air units
    when they land instead (option ``chain_escorts``, notes §10.16)."""
    if not _chain_lands(state):
        return pieces
    return {k: n for k, n in pieces.items() if state.pack.unit(*split(k)).category != "air"}


def on_duty(state: AxisState) -> dict[str, Counts]:
    """The power's air units in its convoy zones that land in phase 1 (in the UK's chain legs only with the
    option ``chain_escorts`` ``land``, §10.16)."""
    found = {}
    for zone in state.pack.sea_zones:
        convoy = zone.convoy
        leg = convoy is not None and convoy.port is None
        if convoy is None or (leg and not _chain_lands(state)) or state.power not in convoy.powers:
            continue
        air = _air(state, zone.id)
        if air:
            found[zone.id] = air
    return found


def with_landings(state: AxisState, duty: dict[str, Counts]) -> AxisState:
    """The state waiting for the landings of ``duty`` (taken before the convoys moved), if any is left."""
    left = {z: {k: min(n, _air(state, z).get(k, 0)) for k, n in c.items()} for z, c in duty.items()}
    left = {z: {k: n for k, n in c.items() if n > 0} for z, c in left.items()}
    left = {z: c for z, c in left.items() if c}
    if not left:
        return state
    return push(state, LandEscorts(seat=state.seat_of(state.power), left=left))


def _landing_path(state: AxisState, act: LandEscort) -> tuple[tuple[str, ...] | None, Verdict]:
    pack = state.pack
    scenario = pack.scenario(state.scenario)
    position = state.position()
    first: Verdict | None = None
    for path in _paths(state, act.origin, pack.limit("convoy_air_landing_range"), arrows=True):
        if path[-1] != act.to:
            continue
        verdict = check_convoy_landing(pack, scenario, position, state.power, act.unit, path)
        if verdict.ok:
            return path, verdict
        first = first or verdict
    return None, first or deny("12", "too-far", f"{act.unit} cannot reach {act.to}")


def land_escorts(state: AxisState, seat: str) -> Iterator[LandEscort]:
    decision = top(state, LandEscorts)
    graph = graph_of(state.pack)
    for zone, counts in sorted(decision.left.items()):
        reach = state.pack.limit("convoy_air_landing_range")
        targets = sorted({p[-1] for p in _paths(state, zone, reach, arrows=True)})
        for k in sorted(counts):
            for there in targets:
                if graph.kind(there) == "land":
                    yield LandEscort(unit=split(k)[1], origin=zone, to=there)


def can_land_escort(state: AxisState, seat: str, act: LandEscort) -> Verdict:
    decision = top(state, LandEscorts)
    if decision.left.get(act.origin, {}).get(f"{state.power}:{act.unit}", 0) <= 0:
        return deny("12", "not-on-escort", f"no {act.unit} of {state.power} escorts in {act.origin}")
    path, verdict = _landing_path(state, act)
    return ALLOW if path is not None else verdict


def land_escort(state: AxisState, seat: str, act: LandEscort) -> Step[AxisState]:
    decision = top(state, LandEscorts)
    k = f"{state.power}:{act.unit}"
    state = state.model_copy(update={"pieces": added(added(state.pieces, act.origin, k, -1), act.to, k, 1)})
    left = added(decision.left, act.origin, k, -1)
    data = {"power": state.power, "unit": act.unit, "src": act.origin, "dst": act.to}
    event = Event(kind="escort_landed", seat=seat, rule="12", data=data)
    if left:
        return Step(state=replace_top(state, decision.model_copy(update={"left": left})), events=(event,))
    return Step(state=pop(state), events=(event,))


def can_done_landing(state: AxisState) -> Verdict:
    """p.12: the escorts that can land must; ``done`` only destroys those that cannot."""
    for act in land_escorts(state, state.seat_of(state.power)):
        if can_land_escort(state, state.seat_of(state.power), act).ok:
            return deny("12", "escort-must-land", f"the {act.unit} in {act.origin} can still land")
    return ALLOW


def done_landing(state: AxisState, seat: str) -> Step[AxisState] | None:
    """``done`` ending the phase-1 landings (the escorts left, unable to land, are destroyed); None elsewhere."""
    if not state.pending or state.pending[-1].kind != "land_escorts":
        return None
    decision = top(state, LandEscorts)
    pieces = state.pieces
    for zone, counts in decision.left.items():
        for k, n in counts.items():
            pieces = added(pieces, zone, k, -n)
    lost = {z: dict(c) for z, c in decision.left.items()}
    event = Event(kind="escorts_lost", seat=seat, rule="12", data={"units": lost})
    return Step(state=pop(state.model_copy(update={"pieces": pieces})), events=(event,))
