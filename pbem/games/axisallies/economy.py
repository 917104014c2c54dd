"""Income, requisition, convoys and deployment of *Axis & Allies: North Africa* (pp.10-14, 25, 28-29).

Pure functions of the data pack and a :class:`~.position.Position`; every number comes from the pack. A refusal
is a :class:`~pbem.rules.contract.Verdict` naming the page (the pack uses pages as sections) and a stable reason.

* :func:`income`: national basic RP plus the RP of every controlled territory (p.13), as labelled terms.
* :func:`check_upkeep`: Malta's 15 RP need exactly 1 supply token spent from Malta first (p.13).
* :func:`convoy_open`, :func:`convoy_arrival`: a convoy route is open while a depicted power controls its port
  (p.11); in phase 1 cargo lands up to the port's stacking and supply limits, or goes back to the
  Reinforcements Zone if the route has closed (p.12).
* :func:`check_requisition`: chart, round rules, the supply cap, the cost and the component limits (pp.9, 13, 28).
* :func:`check_deployment`: where phase 6 may put each reinforcement (p.25, p.28).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from pbem.games.axisallies.data import AxisAlliesPack, Scenario, UnitType
from pbem.games.axisallies.position import Position, combat_units, controller, enemy, graph_of, side_of
from pbem.kit.graph import dijkstra
from pbem.kit.tables import Term, Total
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "Arrival",
    "Category",
    "Order",
    "check_deployment",
    "check_land_mine",
    "check_requisition",
    "check_sea_mine",
    "check_upkeep",
    "check_variable_reinforcements",
    "convoy_arrival",
    "convoy_legs",
    "convoy_next",
    "convoy_open",
    "exposed_convoys",
    "immediate_deployment",
    "income",
    "pieces_available",
    "transports",
]

Category = Literal["land", "air", "sea", "supply"]


def _controls(pack: AxisAlliesPack, position: Position, power: str, territory: str) -> bool:
    return controller(pack, position, territory) == power


# --- income (p.13) -------------------------------------------------------------------------------------------


def income(pack: AxisAlliesPack, position: Position, power: str, *, upkeep_paid: bool) -> Total:
    """p.13: the RP ``power`` may spend this turn: its national basic RP plus the RP value of every territory it
    controls (p.10: only RP territories can be controlled). A territory with an upkeep (Malta) counts only when
    ``upkeep_paid`` (see :func:`check_upkeep`)."""
    nbrp = pack.power(power).nbrp or 0
    terms = [Term(label="national basic RP", value=nbrp, rule="13")]
    for row in pack.territories:
        if row.rp is None or not _controls(pack, position, power, row.id):
            continue
        if row.rp_upkeep_supply is not None and not upkeep_paid:
            continue
        terms.append(Term(label=row.name, value=row.rp, rule="10"))
    return Total.of(terms)


def check_upkeep(pack: AxisAlliesPack, position: Position, power: str, territory: str) -> Verdict:
    """p.13: to gain Malta's RP the UK spends exactly its upkeep in supply, taken from Malta itself."""
    row = pack.territory(territory)
    if row.rp_upkeep_supply is None:
        return deny("13", "no-upkeep", f"{row.name} has no supply upkeep")
    if not _controls(pack, position, power, territory):
        return deny("13", "not-controlled", f"{power} does not control {row.name}")
    if position.supply_in(territory) < row.rp_upkeep_supply:
        return deny(
            "13",
            "upkeep-supply-missing",
            f"{row.name} needs {row.rp_upkeep_supply} supply there to yield its RP; it has "
            f"{position.supply_in(territory)}",
        )
    return ALLOW


# --- convoys (pp.11-12) --------------------------------------------------------------------------------------


def convoy_open(pack: AxisAlliesPack, position: Position, zone: str, power: str) -> bool:
    """p.11: a convoy route is open to the powers of its emblems while it is permanent or one of them controls
    its port."""
    convoy = pack.sea_zone(zone).convoy
    if convoy is None or power not in convoy.powers:
        return False
    if convoy.permanent or convoy.port is None:
        return convoy.permanent
    return controller(pack, position, convoy.port) in convoy.powers


@dataclass(frozen=True)
class Arrival:
    """What a convoy lands in its port in phase 1 (p.12).

    Attributes:
        closed: the route is closed; all cargo goes back to the Reinforcements Zone for phase 6.
        combat_room: how many of its combat land units may land (the owner chooses which, notes §10.38).
        supply_landed: supply points that land; the rest stays in the convoy zone.
    """

    closed: bool
    combat_room: int
    supply_landed: int


def convoy_arrival(pack: AxisAlliesPack, position: Position, zone: str, power: str, supply: int) -> Arrival:
    """p.12: cargo of ``power`` in convoy zone ``zone`` advances into the port. Combat land units land until the
    port is at its stacking limit (trucks never count, p.10); supply lands up to a supply limit (Malta's
    "SL: 3"); a route no longer open sends everything back to the Reinforcements Zone."""
    convoy = pack.sea_zone(zone).convoy
    if convoy is None or convoy.port is None or not convoy_open(pack, position, zone, power):
        return Arrival(closed=True, combat_room=0, supply_landed=0)
    port = pack.territory(convoy.port)
    side = side_of(pack, position, power, port.id)
    present = sum(combat_units(pack, position, port.id, side).values())
    room = max(port.stacking_limit - present, 0)
    landed = supply
    if port.supply_limit is not None:
        landed = min(supply, max(port.supply_limit - position.supply_in(port.id), 0))
    return Arrival(closed=False, combat_room=room, supply_landed=landed)


def transports(pack: AxisAlliesPack, land_units: int, supply: int) -> int:
    """p.14: the virtual transports a power's convoy cargo in one zone fills: each has the pack's
    ``transport_bays`` bays, each bay holding 1 land unit or up to ``supply_per_bay`` supply points."""
    per_bay = pack.limit("supply_per_bay")
    bays = land_units + -(-supply // per_bay)
    return -(-bays // pack.limit("transport_bays"))


def exposed_convoys(pack: AxisAlliesPack, position: Position, side: str) -> tuple[str, ...]:
    """pp.11, 21: the convoy zones holding ``side``'s cargo (land units at sea, or supply on its powers' markers)
    where the enemy has combat units, so the convoy can be interdicted (attacked or already contested)."""
    found = []
    for zone in pack.sea_zones:
        if zone.convoy is None:
            continue
        here = position.pieces.get(zone.id, {})
        at_sea = position.convoy_supply.get(zone.id, {})
        cargo = any(n > 0 and side_of(pack, position, p, zone.id) == side for p, n in at_sea.items()) or any(
            n > 0 and pack.unit(p, t).category == "land" and side_of(pack, position, p, zone.id) == side
            for (p, t), n in here.items()
        )
        if cargo and combat_units(pack, position, zone.id, enemy(side)):
            found.append(zone.id)
    return tuple(found)


def convoy_next(pack: AxisAlliesPack, zone: str) -> tuple[str | None, str | None]:
    """p.12, UK phase 1: where the units in convoy zone ``zone`` advance along the arrows, as (land units and
    supply, sea units): the Atlantic and Indian Ocean legs move everything one leg on; Suez lands its cargo in
    Cairo and sends sea units to sea zone 31. (None, None) for a zone without an onward convoy edge."""
    graph = graph_of(pack)
    onward = [e.b for e in graph.edges(zone) if e.type == "convoy"]
    land = next((n for n in onward if graph.kind(n) == "land"), None)
    sea = next((n for n in onward if graph.kind(n) == "sea"), None)
    if land is not None:
        convoy = pack.sea_zone(zone).convoy
        return land, convoy.sea_units_to if convoy is not None else None
    return sea, sea


def convoy_legs(pack: AxisAlliesPack, zone: str) -> int | None:
    """p.12: how many phase-1 advances cargo in convoy zone ``zone`` needs to reach land, along the convoy edges
    (the UK chain: Atlantic Ocean -> Indian Ocean -> Suez Canal -> Cairo; 1 for a zone beside its port), by the
    kit's shortest path. None if the zone is no convoy zone."""
    convoy = pack.sea_zone(zone).convoy
    if convoy is None:
        return None
    graph = graph_of(pack)

    def expand(here: str, _spent: int) -> Iterable[tuple[str, int]]:
        for edge in graph.edges(here):
            if edge.type == "convoy" or (here == zone and edge.b == convoy.port):
                yield edge.b, 1

    search = dijkstra([zone], expand, goal=lambda node: graph.kind(node) == "land")
    landed = [cost for node, cost in search.cost.items() if graph.kind(node) == "land"]
    return min(landed) if landed else None


# --- requisition (pp.9, 13, 28-29, 38) -----------------------------------------------------------------------


@dataclass(frozen=True)
class Order:
    """A phase-2 requisition: units by (chart power, type), supply points, land and sea mine tokens."""

    units: Mapping[tuple[str, str], int] = field(default_factory=dict)
    supply: int = 0
    land_mines: int = 0
    sea_mines: int = 0


def pieces_available(pack: AxisAlliesPack, scenario: Scenario, round_: int, unit: UnitType) -> int:
    """p.9: the pieces of ``unit`` in the game at ``round_``: the box's pieces, less those set aside at setup,
    plus those a round-start event has added since (RLP: the Axis' second truck in round 7, p.28)."""
    total = unit.pieces
    for change in scenario.setup.pool_changes:
        if (change.power, change.unit) == (unit.power, unit.type):
            total += change.count
    for event in scenario.events:
        if event.timing == "round_start" and event.round <= round_:
            for change in event.pool_changes:
                if (change.power, change.unit) == (unit.power, unit.type):
                    total += change.count
    return total


def _token(pack: AxisAlliesPack, ident: str) -> tuple[int, int]:
    for row in pack.tokens:
        if row.id == ident:
            return row.cost, row.value
    raise KeyError(ident)


def supply_cost(pack: AxisAlliesPack, points: int) -> int:
    """p.13: the RP ``points`` supply points cost (at the small token's price for its value)."""
    cost, value = _token(pack, "supply_1")
    return points * cost // value


def _may_buy(
    pack: AxisAlliesPack, position: Position, power: str, unit: UnitType, count: int, options: frozenset[str]
) -> Verdict:
    """Whether ``power`` may requisition ``count`` of chart row ``unit`` at all (the chart and the special rows)."""
    if unit.power != power:
        for rule in pack.immediate_deployments:
            if rule.power != unit.power or unit.type not in rule.units:
                continue
            allegiance = next((a for a in pack.allegiances if a.id == rule.allegiance), None)
            if allegiance is None or allegiance.operated_by != power:
                break
            owner = controller(pack, position, rule.space)
            if rule.requires_side_control is not None and (
                owner is None or side_of(pack, position, owner, rule.space) != rule.requires_side_control
            ):
                return deny(rule.rule, "port-not-controlled", f"{unit.id} needs {rule.space} in Allied hands")
            if rule.per_type_per_turn is not None and count > rule.per_type_per_turn:
                return deny(rule.rule, "over-turn-limit", f"at most {rule.per_type_per_turn} {unit.id} per turn")
            return ALLOW
        return deny("13", "not-on-chart", f"{power} cannot requisition {unit.id}")
    if unit.cost is None:
        return deny("13", "not-requisitionable", f"{unit.id} cannot be requisitioned")
    if unit.optional_rule is not None:
        enabling = [o for o in pack.optional_rules if o.rule == unit.optional_rule and o.id in options]
        if not enabling:
            return deny(unit.optional_rule, "optional-unit", f"{unit.id} needs its optional rule")
        values = enabling[0].values
        if position.round < values.get("from_round", 0):
            return deny(unit.optional_rule, "too-early", f"{unit.id} only from round {values['from_round']}")
        if count > values.get("per_turn", count):
            return deny(unit.optional_rule, "over-turn-limit", f"at most {values['per_turn']} {unit.id} per turn")
    return ALLOW


def check_requisition(
    pack: AxisAlliesPack,
    scenario: Scenario,
    position: Position,
    power: str,
    order: Order,
    rp: int,
    *,
    in_play: Mapping[tuple[str, str], int],
    supply_in_play: int,
    options: frozenset[str] = frozenset(),
) -> Verdict:
    """pp.9, 13, 28-29: whether ``power`` may requisition ``order`` with ``rp`` Reinforcement Points.

    Args:
        in_play: pieces of each (power, type) already on the board, in convoys or the Reinforcements Zone.
        supply_in_play: supply points anywhere but the general pool.
        options: the optional rules in force, by id.

    Refuses (in this order) a unit not on the power's chart or printed "-" (p.13, Shermans), an optional unit
    without its rule, a category barred this round (US air in round 7, p.28), Free French without Oran or over
    one per type (p.29), supply over the power's cap (p.13), a cost over ``rp`` (p.13) and a component limit
    (p.9: air, sea and truck pieces and tokens strictly).
    """
    cost = 0
    for (unit_power, type_), count in sorted(order.units.items()):
        if count <= 0:
            return deny("13", "bad-count", f"{count} is not a number of units to requisition")
        try:
            unit = pack.unit(unit_power, type_)
        except KeyError:
            return deny("13", "not-on-chart", f"{unit_power} has no {type_}")
        verdict = _may_buy(pack, position, power, unit, count, options)
        if not verdict.ok:
            return verdict
        for rule in scenario.round_rules:
            if (
                rule.kind == "no_requisition"
                and rule.power == power
                and position.round in rule.rounds
                and unit.category in rule.categories
            ):
                return deny(rule.rule, "barred-this-round", rule.text)
        cost += (unit.cost or 0) * count
        strict = unit.category in ("air", "sea") or not unit.combat
        if strict and in_play.get((unit_power, type_), 0) + count > pieces_available(
            pack, scenario, position.round, unit
        ):
            return deny("9", "no-pieces-left", f"no {unit.id} pieces left in the pool")
    cap = pack.power(power).supply_per_turn or 0
    if order.supply < 0 or order.supply > cap:
        return deny("13", "supply-cap", f"{power} may requisition at most {cap} supply per turn")
    tokens_total = sum(t.pieces.get("all", 0) * t.value for t in pack.tokens if t.id.startswith("supply_"))
    if supply_in_play + order.supply > tokens_total:
        return deny("9", "no-tokens-left", f"only {tokens_total - supply_in_play} supply points are left in the pool")
    cost += supply_cost(pack, order.supply)
    cost += order.land_mines * _token(pack, "land_mine")[0] + order.sea_mines * _token(pack, "sea_mine")[0]
    if cost > rp:
        return deny("13", "over-budget", f"the order costs {cost} RP; {power} has {rp}")
    return ALLOW


def check_variable_reinforcements(
    pack: AxisAlliesPack, scenario: Scenario, zone: str, units: Mapping[str, int]
) -> Verdict:
    """p.9: at setup the UK places, in each of its variable-reinforcement sea zones, combat units (not trucks) of
    any type whose total cost is at most the zone's RP (printed "-" units, the Shermans, cannot be chosen)."""
    row = next((r for r in scenario.setup.variable_reinforcements if r.zone == zone), None)
    if row is None:
        return deny("9", "not-a-variable-zone", f"{zone} takes no variable reinforcements in {scenario.name}")
    cost = 0
    for type_, n in sorted(units.items()):
        try:
            unit = pack.unit(row.power, type_)
        except KeyError:
            return deny("9", "not-on-chart", f"{row.power} has no {type_}")
        if not unit.combat or unit.cost is None or n <= 0:
            return deny("9", "not-a-reinforcement", f"{unit.id} cannot be a variable reinforcement")
        cost += unit.cost * n
    if cost > row.rp:
        return deny("9", "over-budget", f"{cost} RP of units; {zone} allows {row.rp}")
    return ALLOW


def immediate_deployment(pack: AxisAlliesPack, unit: UnitType) -> str | None:
    """p.13, p.29: where a requisitioned ``unit`` is placed at once (German submarines in sea zone 1, Free French
    in Oran), or None if it goes to the Reinforcements Zone."""
    for rule in pack.immediate_deployments:
        if rule.power == unit.power and unit.type in rule.units:
            return rule.space
    return None


# --- deployment (p.25, p.28) ---------------------------------------------------------------------------------


def check_deployment(
    pack: AxisAlliesPack,
    scenario: Scenario,
    position: Position,
    power: str,
    unit: UnitType | None,
    destination: str,
    *,
    lifted: frozenset[str] = frozenset(),
) -> Verdict:
    """p.25: whether phase 6 may put a reinforcement of ``power`` (``unit``, or None for supply) in ``destination``.

    Sea units go to the power's sea unit deployment zone(s). Land units, air units and supply go to the power's
    staging territory or an open convoy zone that takes direct deployment (not the Indian Ocean or Suez legs),
    whose ``land_deploy_types`` limit land units (Malta: AAA only); the Axis may also put air units and units
    with *Air Defense* (AAA, German anti-tank guns) on Sicily, Sardinia and Crete. The scenario's round rules
    (p.28) narrow this unless their id is in ``lifted`` (an optional rule in force, p.39).
    """
    category: Category = "supply" if unit is None else unit.category
    what = "supply" if unit is None else unit.id
    if category == "sea":
        if _is_sea(pack, destination) and power in pack.sea_zone(destination).deployment_for:
            return ALLOW
        return deny("25", "not-deployment-zone", f"{what} must deploy in {power}'s sea unit deployment zone")
    for rule in scenario.round_rules:
        if rule.power != power or position.round not in rule.rounds or rule.id in lifted:
            continue
        in_force = rule.if_controls is None or _controls(pack, position, power, rule.if_controls)
        if rule.kind == "must_deploy_to" and category in rule.categories and in_force and destination not in rule.zones:
            return deny(rule.rule, "must-deploy-elsewhere", rule.text)
        if rule.kind == "deploy_only_to" and _is_sea(pack, destination) and destination not in rule.zones:
            return deny(rule.rule, "convoy-barred-this-round", rule.text)
    if _is_sea(pack, destination):
        zone = pack.sea_zone(destination)
        if not zone.direct_deploy or not convoy_open(pack, position, destination, power):
            return deny("25", "convoy-not-open", f"{zone.name} is not an open convoy zone for {power}")
        types = zone.land_deploy_types
        if unit is not None and category == "land" and types is not None and unit.type not in types:
            return deny("25", "convoy-type-barred", f"{unit.id} may not deploy to {zone.name}")
        return ALLOW
    territory = pack.territory(destination)
    if pack.power(power).staging == destination:
        return ALLOW
    air_defense = unit is not None and any(a.id == "air_defense" for a in unit.abilities)
    if (
        territory.axis_direct_deploy
        and pack.power(power).side == "axis"
        and unit is not None
        and (category == "air" or air_defense)
    ):
        return ALLOW
    return deny("25", "not-a-deployment-space", f"{what} cannot deploy to {territory.name}")


def _is_sea(pack: AxisAlliesPack, space: str) -> bool:
    return any(z.id == space for z in pack.sea_zones)


# --- mines (p.14) --------------------------------------------------------------------------------------------


def check_land_mine(
    pack: AxisAlliesPack,
    position: Position,
    power: str,
    territory: str,
    facing: str,
    *,
    done_here: int,
    new_token: bool,
    tokens_in_play: int,
) -> Verdict:
    """p.14: whether ``power`` may deploy (``new_token``) or upgrade a land mine token in ``territory`` facing the
    adjacent ``facing``: only where it has control or combat land units, at most the pack's
    ``land_mine_deploys_per_territory`` a turn (``done_here`` so far), and a new token needs one in the pool."""
    side = side_of(pack, position, power, territory)
    own_land = any(
        p == power and pack.unit(p, t).category == "land" for p, t in combat_units(pack, position, territory, side)
    )
    if controller(pack, position, territory) != power and not own_land:
        return deny("14", "mine-not-yours", f"{power} neither controls nor occupies {territory}")
    edge = graph_of(pack).edge(territory, facing)
    if edge is None or edge.type != "land":
        return deny("14", "not-adjacent", f"a mine faces an adjacent territory; {facing} is not")
    if done_here >= pack.limit("land_mine_deploys_per_territory"):
        return deny("14", "one-per-territory", "one land mine deployment or upgrade per territory per turn")
    pool = next(t for t in pack.tokens if t.id == "land_mine").pieces.get("all", 0)
    if new_token and tokens_in_play >= pool:
        return deny("9", "no-tokens-left", "no land mine tokens are left in the pool")
    return ALLOW


def check_sea_mine(
    pack: AxisAlliesPack,
    position: Position,
    power: str,
    zone: str,
    *,
    done_here: int,
    tokens_in_play: int,
    axis_ban_lifted: bool = False,
) -> Verdict:
    """p.14: whether ``power`` may deploy a sea mine token in ``zone``: no enemy combat sea units there, not an
    enemy sea unit deployment zone, not a zone barred to Axis mines (unless ``axis_ban_lifted``: the optional
    Mining the Suez Canal, p.39), at most the pack's ``sea_mine_deploys_per_zone`` a turn, and a token left in the
    side's pool (``tokens_in_play`` of the side)."""
    row = pack.sea_zone(zone)
    side = side_of(pack, position, power, zone)
    if any(pack.unit(p, t).category == "sea" for p, t in combat_units(pack, position, zone, enemy(side))):
        return deny("14", "enemy-ships", f"{row.name} holds enemy combat sea units")
    if any(side_of(pack, position, p, zone) != side for p in row.deployment_for):
        return deny("14", "enemy-deployment-zone", f"{row.name} is an enemy sea unit deployment zone")
    if side == "axis" and row.axis_mines_forbidden and not axis_ban_lifted:
        return deny("14", "axis-mines-forbidden", f"the Axis may not mine {row.name}")
    if done_here >= pack.limit("sea_mine_deploys_per_zone"):
        return deny("14", "one-per-zone", "one sea mine per sea zone per turn")
    pool = next(t for t in pack.tokens if t.id == "sea_mine").pieces.get(side, 0)
    if tokens_in_play >= pool:
        return deny("9", "no-tokens-left", f"no {side} sea mine tokens are left in the pool")
    return ALLOW
