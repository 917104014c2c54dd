"""Air units attacking (pp.15, 24, 33): the combat move out, and the landing in the noncombat move.

In the combat move an air unit flies to a hostile territory, or a sea zone in attack position (hostile, or holding
enemy submarines or transports: convoy interdiction, p.21), that it will attack (p.15): within its move, and only if
a territory its side controlled at the start of the turn (``state.landing``) stays within the rest of its move ("you
can't deliberately move an air unit out of range of a safe landing space"). From then on it is in the air (p.12:
attacking air units do not count for stacking): it leaves the board as a :class:`.state.Sortie`, joins the combat
there in phase 4 (air-only attacks included; at sea, :mod:`.sea_battle`), and in the noncombat move the survivors
land within the rest of their move (p.24). RULING: one still aloft when the phase ends, able to land nowhere, is
destroyed; the phase cannot end while one of them can still land."""

from __future__ import annotations

from collections.abc import Iterator

from pbem.games.axisallies.data import UnitType
from pbem.games.axisallies.movement import may_enter
from pbem.games.axisallies.position import graph_of, side_of, status
from pbem.games.axisallies.sea_moves import attack_position
from pbem.games.axisallies.state import AxisState, Sortie, key, remembered
from pbem.kit.graph import dijkstra
from pbem.rules.contract import ALLOW, Event, Verdict, deny

__all__ = [
    "air_reach",
    "aloft",
    "can_land",
    "can_sortie",
    "ditch",
    "fly_out",
    "land",
    "landings",
    "sortie_targets",
    "unfought_targets",
]


def air_reach(state: AxisState, power: str, unit: UnitType, origin: str, budget: int) -> dict[str, int]:
    """p.33: the spaces ``power``'s air ``unit`` in ``origin`` reaches with ``budget`` movement points, and the
    points it spends to get there (every border crossed is 1; once per state, :func:`.state.remembered`)."""
    return remembered(state, ("air_reach", power, unit.power, unit.type, origin, budget),
                      lambda: _air_reach(state, power, unit, origin, budget))  # fmt: skip


def _air_reach(state: AxisState, power: str, unit: UnitType, origin: str, budget: int) -> dict[str, int]:
    pack = state.pack
    scenario = pack.scenario(state.scenario)
    position = state.position()
    side = side_of(pack, position, power, origin)
    graph = graph_of(pack)

    def expand(here: str, _spent: int) -> Iterator[tuple[str, int]]:
        for edge in graph.edges(here):
            if edge.type != "convoy" and may_enter(pack, scenario, position, side, unit, edge.b, edge.a).ok:
                yield edge.b, 1

    return dict(dijkstra([origin], expand, limit=max(budget, 0)).cost)


def _can_still_land(state: AxisState, unit: UnitType, there: str, budget: int) -> bool:
    reach = air_reach(state, state.power, unit, there, budget)
    return any(space in reach for space in state.landing)


def can_sortie(state: AxisState, unit: UnitType, origin: str, to: str) -> Verdict:
    """p.15: whether ``unit`` in ``origin`` may fly to attack ``to`` in the combat move: a hostile territory, or a
    sea zone in attack position (hostile, or holding enemy submarines or transports, :mod:`.sea_moves`)."""
    side = state.pack.power(state.power).side or "axis"
    position = state.position()
    if graph_of(state.pack).kind(to) == "sea":
        if not attack_position(state.pack, position, to, side):
            return deny("15", "air-target-not-hostile", f"{to} holds no enemy units to attack")
    elif status(state.pack, position, to, side) != "hostile":
        return deny("15", "air-target-not-hostile", f"{unit.id} attacks only a hostile space, not {to}")
    flown = air_reach(state, state.power, unit, origin, unit.move).get(to)
    if flown is None or origin == to:
        return deny("16", "too-far", f"{unit.id} cannot fly from {origin} to {to}")
    if not _can_still_land(state, unit, to, unit.move - flown):
        return deny("15", "no-safe-landing", f"{unit.id} could land nowhere after attacking {to}")
    return ALLOW


def sortie_targets(state: AxisState, unit: UnitType, origin: str) -> Iterator[str]:
    """The territories ``unit`` in ``origin`` may fly to attack (in the map's order)."""
    for there in sorted(air_reach(state, state.power, unit, origin, unit.move)):
        if can_sortie(state, unit, origin, there).ok:
            yield there


def fly_out(state: AxisState, unit: UnitType, origin: str, to: str) -> AxisState:
    """The air unit leaves ``origin`` to attack ``to``."""
    flown = air_reach(state, state.power, unit, origin, unit.move)[to]
    k = key(unit.power, unit.type)
    pieces = {**state.pieces, origin: {**state.pieces.get(origin, {}), k: state.pieces[origin][k] - 1}}
    sortie = Sortie(power=unit.power, type=unit.type, origin=origin, target=to, flown=flown)
    return state.model_copy(update={"pieces": pieces, "sorties": (*state.sorties, sortie)})


def unfought_targets(state: AxisState) -> set[str]:
    """The territories air units flew to attack whose combat is still to be fought."""
    return {s.target for s in state.sorties if not s.fought}


def aloft(state: AxisState, target: str, type_: str) -> list[Sortie]:
    """``state.power``'s ``type_`` in the air over ``target``, the shortest-ranged first."""
    found = [s for s in state.sorties if (s.target, s.type, s.power) == (target, type_, state.power)]
    return sorted(found, key=lambda s: -s.flown)


def _lander(state: AxisState, unit: UnitType, origin: str, to: str) -> Sortie | None:
    """The sortie that lands in ``to`` (the one with the least range left that still reaches it)."""
    for sortie in aloft(state, origin, unit.type):
        if to in state.landing and to in air_reach(state, state.power, unit, origin, unit.move - sortie.flown):
            return sortie
    return None


def can_land(state: AxisState, unit: UnitType, origin: str, to: str) -> Verdict:
    """p.24: whether an air unit that attacked ``origin`` may land in ``to``."""
    if _lander(state, unit, origin, to) is None:
        return deny("24", "no-landing", f"{unit.id} over {origin} cannot land in {to}")
    return ALLOW


def land(state: AxisState, unit: UnitType, origin: str, to: str) -> AxisState:
    """The air unit over ``origin`` lands in ``to``; it moves no more this turn."""
    sortie = _lander(state, unit, origin, to)
    assert sortie is not None  # can_land found it
    index = state.sorties.index(sortie)
    k = key(unit.power, unit.type)
    pieces = {**state.pieces, to: {**state.pieces.get(to, {}), k: state.pieces.get(to, {}).get(k, 0) + 1}}
    spent = {**state.spent, to: {**state.spent.get(to, {}), k: state.spent.get(to, {}).get(k, 0) + 1}}
    sorties = state.sorties[:index] + state.sorties[index + 1 :]
    return state.model_copy(update={"pieces": pieces, "spent": spent, "sorties": sorties})


def landings(state: AxisState) -> Iterator[tuple[str, str, str]]:
    """(unit type, over, landing territory) of every landing open now."""
    seen: set[tuple[str, str, str]] = set()
    for sortie in state.sorties:
        unit = state.pack.unit(sortie.power, sortie.type)
        reach = air_reach(state, sortie.power, unit, sortie.target, unit.move - sortie.flown)
        for there in sorted(reach):
            row = (sortie.type, sortie.target, there)
            if there in state.landing and row not in seen:
                seen.add(row)
                yield row


def ditch(state: AxisState) -> tuple[AxisState, tuple[Event, ...]]:
    """RULING: air units still aloft when the noncombat move ends could land nowhere: they are destroyed."""
    events = tuple(
        Event(kind="air_lost", rule="24", data={"power": s.power, "unit": s.type, "over": s.target})
        for s in state.sorties
    )
    return state.model_copy(update={"sorties": ()}), events
