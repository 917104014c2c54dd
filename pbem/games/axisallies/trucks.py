"""Truck cargo in the noncombat move of *Axis & Allies: North Africa* (p.32 *Land Transport*), as actions.

Pieces are interchangeable, so cargo is loaded one piece (or supply point) at a time with ``load`` in the
territory a truck will drive out of; the next ``move`` of one of the power's trucks out of that territory takes
the whole load along, and it is unloaded where the truck stops. The truck's way and its load are judged by
:func:`.transport.check_truck_move` (capacity, cargo types of the truck's power, supply the side may move). A
loaded piece may not move by itself (p.32), and unloaded cargo moves no more this turn (it is marked spent, as
every piece that made a noncombat move). Only pieces that neither moved nor fought may be loaded (p.32), and
only where a truck of the power may still move.

RULING: cargo loads where the truck starts. The rulebook also lets it pick cargo up on its way; a player gets
the same result by driving the truck to the pick-up territory first only when the truck has moves left, so
loading on the way is listed as not yet enforced in ``docs/axisallies-rules.md``.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.games.axisallies.actions import Load
from pbem.games.axisallies.data import UnitType
from pbem.games.axisallies.position import graph_of, side_of
from pbem.games.axisallies.state import AxisState, Counts, added, key, split, tally
from pbem.games.axisallies.supply import usable_by
from pbem.games.axisallies.transport import check_truck_move
from pbem.rules.contract import ALLOW, Event, Step, Verdict, deny

__all__ = ["can_load", "carries", "check_haul", "haul", "is_truck", "load", "loaded", "loads"]

SUPPLY = "supply"


def is_truck(unit: UnitType) -> bool:
    """p.32: a unit with *Land Transport*."""
    return unit.has("land_transport")


def loaded(state: AxisState, space: str, cargo: str) -> int:
    """How many of ``cargo`` (a type of the moving power, or supply) wait loaded in ``space``."""
    return state.loads.get(space, {}).get(cargo, 0)


def carries(state: AxisState, space: str) -> bool:
    """Whether a load waits in ``space`` for the next truck out."""
    return bool(state.loads.get(space))


def _trucks_free(state: AxisState, space: str) -> bool:
    for k, n in state.pieces.get(space, {}).items():
        power, type_ = split(k)
        mine = power == state.power and is_truck(state.pack.unit(power, type_))
        if mine and n - tally(state.spent, space, k) > 0:
            return True
    return False


def loads(state: AxisState, seat: str) -> Iterator[Load]:
    graph = graph_of(state.pack)
    for space in sorted(state.pieces):
        if graph.kind(space) != "land" or not _trucks_free(state, space):
            continue
        for type_ in state.pack.cargo.truck:
            if state.count(space, key(state.power, type_)) > 0:
                yield Load(origin=space, cargo=type_)
        if state.position().supply_in(space) > 0:
            yield Load(origin=space, cargo=SUPPLY)


def can_load(state: AxisState, seat: str, act: Load) -> Verdict:
    pack = state.pack
    graph = graph_of(pack)
    if act.origin not in graph.nodes or graph.kind(act.origin) != "land":
        return deny("10", "unknown-territory", f"{act.origin} is not a territory")
    if not _trucks_free(state, act.origin):
        return deny("32", "no-truck", f"no {state.power} truck in {act.origin} may still move")
    capacity = pack.limit("truck_capacity")
    if sum(state.loads.get(act.origin, {}).values()) >= capacity:
        return deny("32", "over-capacity", f"a truck carries at most {capacity} units and supply")
    position = state.position()
    if act.cargo == SUPPLY:
        if position.supply_in(act.origin) - loaded(state, act.origin, SUPPLY) <= 0:
            return deny("32", "cargo-missing", f"no more supply to load in {act.origin}")
        side = side_of(pack, position, state.power, act.origin)
        if not usable_by(pack, position, act.origin, side):
            return deny("18", "supply-not-usable", f"{side} may not move the supply in {act.origin}")
        return ALLOW
    if act.cargo not in pack.cargo.truck:
        return deny("32", "not-cargo", f"a truck cannot carry {act.cargo}")
    k = key(state.power, act.cargo)
    free = state.count(act.origin, k) - tally(state.spent, act.origin, k) - loaded(state, act.origin, act.cargo)
    if free <= 0:
        return deny("32", "cargo-missing", f"no unmoved {state.power} {act.cargo} in {act.origin}")
    return ALLOW


def load(state: AxisState, seat: str, act: Load) -> Step[AxisState]:
    here = dict(state.loads.get(act.origin, {}))
    here[act.cargo] = here.get(act.cargo, 0) + 1
    state = state.model_copy(update={"loads": {**state.loads, act.origin: here}})
    data = {"power": state.power, "cargo": act.cargo, "src": act.origin}
    return Step(state=state, events=(Event(kind="loaded", seat=seat, rule="32", data=data),))


def check_haul(state: AxisState, unit: UnitType, path: tuple[str, ...]) -> Verdict:
    """p.32: whether a truck driving ``path`` may take the load waiting where it starts."""
    cargo = state.loads.get(path[0], {})
    units = {t: n for t, n in cargo.items() if t != SUPPLY}
    supply = cargo.get(SUPPLY, 0)
    return check_truck_move(
        state.pack,
        state.pack.scenario(state.scenario),
        state.position(),
        state.power,
        unit.type,
        path,
        loads={path[0]: units} if units else {},
        supply={path[0]: supply} if supply else {},
    )


def haul(state: AxisState, origin: str, to: str) -> tuple[AxisState, tuple[Event, ...]]:
    """p.32: the load in ``origin`` rides to ``to`` and is unloaded there; it moves no more this turn."""
    cargo: Counts = state.loads.get(origin, {})
    if not cargo:
        return state, ()
    pieces, spent = state.pieces, state.spent
    supply = dict(state.supply)
    for type_, n in cargo.items():
        if type_ == SUPPLY:
            supply[origin] -= n
            if not supply[origin]:
                del supply[origin]
            supply[to] = supply.get(to, 0) + n
            continue
        k = key(state.power, type_)
        pieces = added(added(pieces, origin, k, -n), to, k, n)
        spent = added(spent, to, k, n)
    state = state.model_copy(
        update={
            "pieces": pieces,
            "spent": spent,
            "supply": supply,
            "loads": {s: c for s, c in state.loads.items() if s != origin},
        }
    )
    data = {"power": state.power, "src": origin, "dst": to, "cargo": dict(cargo)}
    return state, (Event(kind="unloaded", rule="32", data=data),)
