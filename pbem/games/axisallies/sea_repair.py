"""Battleship repair of *Axis & Allies: North Africa* (p.13): in phase 2 a damaged battleship (p.33) in a sea zone
with a naval base (sea zone 31) is repaired for the pack's ``battleship_repair_supply`` supply tokens taken from
the base's territory (Cairo), which must be the power's side's to use (friendly to it, p.18)."""

from __future__ import annotations

from collections.abc import Iterator

from pbem.games.axisallies.actions import Repair
from pbem.games.axisallies.position import graph_of, status
from pbem.games.axisallies.state import AxisState, added, split
from pbem.rules.contract import ALLOW, Event, Step, Verdict, deny

__all__ = ["can_repair", "repair", "repairs"]


def _damaged(state: AxisState, zone: str) -> str | None:
    """The key of a damaged battleship of the moving power in ``zone``, if any."""
    for k, n in sorted(state.damaged.get(zone, {}).items()):
        if n > 0 and split(k)[0] == state.power:
            return k
    return None


def repairs(state: AxisState, seat: str) -> Iterator[Repair]:
    for zone in state.pack.sea_zones:
        if zone.naval_base:
            yield Repair(zone=zone.id)


def can_repair(state: AxisState, seat: str, act: Repair) -> Verdict:
    pack = state.pack
    if act.zone not in graph_of(pack).nodes or graph_of(pack).kind(act.zone) != "sea":
        return deny("10", "unknown-space", f"{act.zone} is not a sea zone")
    zone = pack.sea_zone(act.zone)
    if not zone.naval_base or zone.repair_supply_from is None:
        return deny("13", "no-naval-base", f"{zone.name} has no naval base")
    if _damaged(state, act.zone) is None:
        return deny("13", "nothing-to-repair", f"{state.power} has no damaged battleship in {zone.name}")
    source = zone.repair_supply_from
    side = pack.power(state.power).side or "axis"
    cost = pack.limit("battleship_repair_supply")
    if status(pack, state.position(), source, side) != "friendly" or state.supply.get(source, 0) < cost:
        return deny("13", "repair-supply", f"a repair takes {cost} supply from {source}")
    return ALLOW


def repair(state: AxisState, seat: str, act: Repair) -> Step[AxisState]:
    zone = state.pack.sea_zone(act.zone)
    source = zone.repair_supply_from
    assert source is not None  # can_repair checked the base
    k = _damaged(state, act.zone)
    assert k is not None
    supply = dict(state.supply)
    supply[source] -= state.pack.limit("battleship_repair_supply")
    if not supply[source]:
        del supply[source]
    state = state.model_copy(update={"supply": supply, "damaged": added(state.damaged, act.zone, k, -1)})
    event = Event(kind="battleship_repaired", seat=seat, rule="13", data={"zone": act.zone, "src": source})
    return Step(state=state, events=(event,))
