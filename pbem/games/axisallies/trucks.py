"""Trucks of *Axis & Allies: North Africa*: *Land Transport* in the noncombat move (p.32).

A truck moves like any land unit in the noncombat move (:func:`.movement.check_land_move`, coast road included)
and carries up to the pack's ``truck_capacity`` of units and supply points (a 5-token counts five). Cargo units
are of the types the pack's ``cargo.truck`` names and belong to the truck's power; supply may be anyone's the
side may use (p.18). Cargo loads where the truck starts or along its way, never where it stops, and unloads only
there. Whether the cargo units moved or fought this turn, and whether the truck was captured this turn, are the
caller's history.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.games.axisallies.data import AxisAlliesPack, Scenario
from pbem.games.axisallies.movement import check_land_move
from pbem.games.axisallies.position import Position, side_of
from pbem.games.axisallies.supply import usable_by
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = ["check_truck_move"]


def check_truck_move(
    pack: AxisAlliesPack,
    scenario: Scenario,
    position: Position,
    power: str,
    type_: str,
    path: Sequence[str],
    *,
    loads: Mapping[str, Mapping[str, int]],
    supply: Mapping[str, int],
) -> Verdict:
    """p.32: whether ``power``'s truck may drive ``path`` loading ``loads`` (territory -> unit type -> count) and
    ``supply`` (territory -> supply points) on the way."""
    verdict = check_land_move(pack, scenario, position, power, type_, path, phase="noncombat")
    if not verdict.ok:
        return verdict
    truck = pack.unit(power, type_)
    if not any(a.id == "land_transport" for a in truck.abilities):
        return deny("32", "not-a-transport", f"{truck.id} carries nothing")
    side = side_of(pack, position, power, path[0])
    stops = set(path[:-1])
    carried = 0
    for place, cargo in sorted(loads.items()):
        for cargo_type, n in sorted(cargo.items()):
            if place not in stops:
                return deny("32", "load-off-path", f"cargo loads on the way, not in {place}")
            if cargo_type not in pack.cargo.truck:
                return deny("32", "not-cargo", f"a truck cannot carry {cargo_type}")
            if n <= 0 or position.count(place, power, cargo_type) < n:
                return deny("32", "cargo-missing", f"{place} has fewer than {n} {power} {cargo_type}")
            carried += n
    for place, n in sorted(supply.items()):
        if place not in stops:
            return deny("32", "load-off-path", f"supply loads on the way, not in {place}")
        if n <= 0 or position.supply_in(place) < n:
            return deny("32", "cargo-missing", f"{place} holds fewer than {n} supply")
        if not usable_by(pack, position, place, side):
            return deny("18", "supply-not-usable", f"{side} may not move the supply in {place}")
        carried += n
    capacity = pack.limit("truck_capacity")
    if carried > capacity:
        return deny("32", "over-capacity", f"a truck carries at most {capacity} units and supply; {carried} loaded")
    return ALLOW
