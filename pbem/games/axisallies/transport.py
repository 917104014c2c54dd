"""Land units carried in the noncombat move of *Axis & Allies: North Africa*: by truck (*Land Transport*,
p.32) and, with the optional Air Transport rule, by Axis bomber out of Italy (p.38).

A truck moves like any land unit in the noncombat move (:func:`.movement.check_land_move`, coast road included)
and carries up to the pack's ``truck_capacity`` of units and supply points (a 5-token counts five). Cargo units
are of the types the pack's ``cargo.truck`` names and belong to the truck's power; supply may be anyone's the
side may use (p.18). Cargo loads where the truck starts or along its way, never where it stops, and unloads only
there. Whether the cargo units moved or fought this turn, and whether the truck was captured this turn, are the
caller's history.

An Axis bomber in the Axis staging territory (Italy) may carry the pack's ``air_transport_units`` land unit of
a ``cargo.air_transport`` type and its own power; both start and end together (p.38).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.games.axisallies.data import AxisAlliesPack, Scenario
from pbem.games.axisallies.movement import check_air_move, check_land_move, may_enter
from pbem.games.axisallies.position import Position, side_of
from pbem.games.axisallies.supply import usable_by
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = ["check_air_transport", "check_truck_move"]


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


def check_air_transport(
    pack: AxisAlliesPack,
    scenario: Scenario,
    position: Position,
    power: str,
    type_: str,
    path: Sequence[str],
    cargo: str,
    *,
    landing: frozenset[str],
    options: frozenset[str],
) -> Verdict:
    """p.38 (optional Air Transport): whether ``power``'s bomber may fly ``path`` in the noncombat move carrying
    one ``cargo`` land unit from the Axis staging territory to where it lands."""
    rule = next(o for o in pack.optional_rules if o.id == "air_transport")
    if rule.id not in options:
        return deny(rule.rule, "optional-rule-off", "Air Transport is not in force")
    verdict = check_air_move(pack, scenario, position, power, type_, path, phase="noncombat", landing=landing)
    if not verdict.ok:
        return verdict
    side = side_of(pack, position, power, path[0])
    bomber = pack.unit(power, type_)
    if side != rule.side or not any(a.id == "collateral_damage" for a in bomber.abilities):
        return deny(rule.rule, "not-a-transport", f"{bomber.id} cannot carry land units")
    if path[0] != pack.power(power).staging:
        return deny(rule.rule, "not-from-staging", f"air transport starts in {pack.power(power).staging}")
    if cargo not in pack.cargo.air_transport:
        return deny(rule.rule, "not-cargo", f"a bomber cannot carry {cargo}")
    if position.count(path[0], power, cargo) < pack.limit("air_transport_units"):
        return deny(rule.rule, "cargo-missing", f"{path[0]} has no {power} {cargo}")
    return may_enter(pack, scenario, position, side, pack.unit(power, cargo), path[-1], path[-2])
