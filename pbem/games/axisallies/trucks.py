"""Truck cargo in the noncombat move of *Axis & Allies: North Africa* (p.32 *Land Transport*), as actions.

Pieces are interchangeable, so cargo is loaded one piece (or supply point) at a time with ``load`` in the
territory a truck will drive out of; the next ``move`` of one of the power's trucks out of that territory takes
the whole load along, and it is unloaded where the truck stops. The truck's way and its load are judged by
:func:`.transport.check_truck_move` (capacity, cargo types of the truck's power, supply the side may move). A
loaded piece may not move by itself (p.32), and unloaded cargo moves no more this turn (it is marked spent, as
every piece that made a noncombat move). Only pieces that neither moved nor fought may be loaded (p.32).

Cargo may also be loaded on the truck's way (p.32: "at any point during its movement, as capacity allows"): a
``load`` in a territory without a truck of the power that may still move, but which one of them reaches this
noncombat move, waits there to be picked up. A truck that drives into a territory where cargo waits does not stop:
it is on its way (:class:`~.state.Drive`), its own cargo joins what waits there (more may be loaded, as capacity
allows), and its next ``move`` drives on with all of it, its whole way this phase judged as one move (its move or
the coast road's). A truck on its way that moves no more stops there at the end of the phase, its cargo unloaded.
RULING (interchangeable pieces): a truck on its way drives out of a territory before the trucks that start there,
so the cargo it picked up never changes trucks.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.games.axisallies.actions import Load
from pbem.games.axisallies.data import UnitType
from pbem.games.axisallies.movement import land_reach
from pbem.games.axisallies.position import graph_of, side_of
from pbem.games.axisallies.state import AxisState, Counts, Drive, added, key, split, tally
from pbem.games.axisallies.supply import usable_by
from pbem.games.axisallies.transport import check_truck_move
from pbem.rules.contract import ALLOW, Event, Step, Verdict, deny

__all__ = ["can_load", "carries", "check_haul", "en_route", "haul", "is_truck", "load", "loaded", "loads"]

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


def en_route(state: AxisState, space: str, unit_key: str) -> int:
    """Trucks of ``unit_key`` on their way in ``space``: they may drive on."""
    return sum(1 for d in state.drives if d.path[-1] == space and d.unit == unit_key)


def _trucks_free(state: AxisState, space: str) -> bool:
    """Whether a truck of the power in ``space`` may still move (one that has not moved, or one on its way)."""
    for k, n in state.pieces.get(space, {}).items():
        power, type_ = split(k)
        mine = power == state.power and is_truck(state.pack.unit(power, type_))
        if mine and n - tally(state.spent, space, k) + en_route(state, space, k) > 0:
            return True
    return False


def _pickups(state: AxisState) -> frozenset[str]:
    """p.32: the territories a truck of the power that may still move reaches in this noncombat move (one on its
    way: from where it stands with the move it has left, never back where it went through)."""
    pack, position = state.pack, state.position()
    scenario = pack.scenario(state.scenario)
    graph = graph_of(pack)
    found: set[str] = set()
    for space, counts in sorted(state.pieces.items()):
        if graph.kind(space) != "land":  # trucks at sea are convoy cargo (p.14)
            continue
        for k, n in sorted(counts.items()):
            power, type_ = split(k)
            if power == state.power and is_truck(pack.unit(power, type_)) and n - tally(state.spent, space, k) > 0:
                found |= land_reach(pack, scenario, position, power, type_, space) - {space}
    for drive in state.drives:
        power, type_ = split(drive.unit)
        found |= land_reach(pack, scenario, position, power, type_, drive.path[-1], way=drive.path) - set(drive.path)
    return frozenset(found)


def _may_load(state: AxisState, space: str, pickups: frozenset[str]) -> bool:
    return _trucks_free(state, space) or space in pickups


def loads(state: AxisState, seat: str) -> Iterator[Load]:
    graph = graph_of(state.pack)
    pickups = _pickups(state)
    for space in sorted({*state.pieces, *state.supply}):
        if graph.kind(space) != "land" or not _may_load(state, space, pickups):
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
    if not _may_load(state, act.origin, _pickups(state)):
        return deny("32", "no-truck", f"no {state.power} truck in {act.origin} may still move, nor reaches it")
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


def _way(state: AxisState, unit_key: str, leg: tuple[str, ...]) -> tuple[Drive | None, tuple[str, ...]] | None:
    """The truck that drives ``leg`` and its whole way this phase: one on its way there first (RULING, see the
    module), else one that has not moved; None if neither is there."""
    for drive in state.drives:
        if drive.path[-1] == leg[0] and drive.unit == unit_key:
            return drive, (*drive.path, *leg[1:])
    if state.count(leg[0], unit_key) - tally(state.spent, leg[0], unit_key) > 0:
        return None, leg
    return None


def check_haul(state: AxisState, unit: UnitType, path: tuple[str, ...]) -> Verdict:
    """p.32: whether a truck driving ``path`` may take the load waiting where it starts (a truck on its way
    there: its whole way this phase), and pick up what waits where it stops, as capacity allows."""
    way = _way(state, key(state.power, unit.type), path)
    if way is None:
        return deny("24", "no-unit-to-move", f"no {unit.id} in {path[0]} may move in this phase")
    whole = way[1]
    cargo = state.loads.get(path[0], {})
    units = {t: n for t, n in cargo.items() if t != SUPPLY}
    supply = cargo.get(SUPPLY, 0)
    verdict = check_truck_move(
        state.pack,
        state.pack.scenario(state.scenario),
        state.position(),
        state.power,
        unit.type,
        whole,
        loads={path[0]: units} if units else {},
        supply={path[0]: supply} if supply else {},
    )
    if not verdict.ok:
        return verdict
    waiting = sum(state.loads.get(path[-1], {}).values())
    capacity = state.pack.limit("truck_capacity")
    if waiting and sum(cargo.values()) + waiting > capacity:
        return deny("32", "over-capacity", f"a truck carries at most {capacity} units and supply")
    return ALLOW


def _carry(state: AxisState, cargo: Counts, origin: str, to: str, *, spend: bool) -> AxisState:
    """``cargo`` of ``origin``'s load rides to ``to`` (marked spent there once unloaded)."""
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
        if spend:
            spent = added(spent, to, k, n)
    return state.model_copy(update={"pieces": pieces, "spent": spent, "supply": supply})


def haul(state: AxisState, unit_key: str, path: tuple[str, ...]) -> tuple[AxisState, tuple[Event, ...]]:
    """p.32: the truck drives ``path`` with the load of ``path[0]``: it is unloaded where the truck stops, or,
    where more cargo waits, the truck goes on its way with all of it (:class:`~.state.Drive`)."""
    origin, to = path[0], path[-1]
    cargo: Counts = state.loads.get(origin, {})
    way = _way(state, unit_key, path)
    assert way is not None  # check_haul, can_move
    drive, whole = way
    if drive is not None:  # it drives on: it was counted as moved where it stopped
        drives = list(state.drives)
        drives.remove(drive)
        state = state.model_copy(update={"drives": tuple(drives), "spent": added(state.spent, origin, unit_key, -1)})
    loads = {s: c for s, c in state.loads.items() if s != origin}
    if to != origin and loads.get(to):  # cargo waits there: picked up on the way (p.32)
        state = _carry(state, cargo, origin, to, spend=False)
        merged = dict(loads[to])
        for t, n in cargo.items():
            merged[t] = merged.get(t, 0) + n
        on_way = (*state.drives, Drive(unit=unit_key, path=whole))
        state = state.model_copy(update={"loads": {**loads, to: merged}, "drives": on_way})
        data = {"power": state.power, "src": origin, "dst": to, "cargo": dict(merged)}
        return state, (Event(kind="truck_picked_up", rule="32", data=data),)
    if not cargo:
        return state.model_copy(update={"loads": loads}), ()
    state = _carry(state, cargo, origin, to, spend=True).model_copy(update={"loads": loads})
    data = {"power": state.power, "src": origin, "dst": to, "cargo": dict(cargo)}
    return state, (Event(kind="unloaded", rule="32", data=data),)
