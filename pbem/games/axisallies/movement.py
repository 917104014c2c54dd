"""Movement of *Axis & Allies: North Africa*: land, air and sea moves along a given path, stacking and retreats.

Pure functions of the data pack, the scenario and a :class:`~.position.Position`; every allowance comes from the
pack (unit moves, the coast road's 5 territories, stacking limits). A refusal is a
:class:`~pbem.rules.contract.Verdict` naming the page (the pack uses pages as sections):

* p.10-11: impassable territories, emblem territories land units may not invade, the Sahara (scout cars only,
  no air units, p.33), the white line (p.28), Suez entered only from the Indian Ocean, the Atlantic for the UK
  only, the Strait of Messina for Axis sea units only.
* p.15 land combat moves: 1 movement point kept for the attack, never into hostile territory but for a blitz's
  first step into an empty one, never through a territory blitzed this phase; AAA and trucks never.
* p.16-17 air and sea moves: air units end a combat move in a hostile space within reach of a landing space;
  sea units stop on entering a hostile zone, submarines only at an enemy destroyer; no zone twice (p.27).
* p.24 noncombat moves: friendly and neutral territories only, the coast road's longer move (pp.30-32), air
  units land where their side held control at the start of the turn.
* p.12 stacking: the excess over a territory's limit and where it may be moved; p.22 retreat destinations.

:func:`land_reach` and :func:`air_range` answer "where can it go" with the kit's searches; the ``check_*``
functions judge a path a player gives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Literal

from pbem.games.axisallies.data import AxisAlliesPack, Scenario, UnitType
from pbem.games.axisallies.position import (
    Position,
    combat_units,
    controller,
    enemy,
    graph_of,
    sea_status,
    side_of,
    status,
)
from pbem.kit.graph import Cost, Edge, Reach, StepCost, dijkstra
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "Phase",
    "air_range",
    "check_air_move",
    "check_convoy_landing",
    "check_escort_move",
    "check_land_move",
    "check_sea_move",
    "excess_destinations",
    "in_attack_position",
    "land_reach",
    "landing_spaces",
    "may_enter",
    "retreat_destinations",
    "stacking_excess",
]

Phase = Literal["combat", "noncombat"]


def _has(unit: UnitType, ability: str) -> bool:
    return any(a.id == ability for a in unit.abilities)


def _chart(pack: AxisAlliesPack, power: str, type_: str) -> UnitType | Verdict:
    """The reference-chart row of ``power``'s ``type_``, or a refusal naming the charts (p.8)."""
    try:
        return pack.unit(power, type_)
    except KeyError:
        return deny("8", "unknown-unit", f"{power} has no {type_} on its reference chart")


def _mover(pack: AxisAlliesPack, power: str, type_: str, category: str, rule: str) -> UnitType | Verdict:
    """The chart row of ``power``'s ``type_`` if it is a unit of ``category`` (land, air, sea), else the refusal
    citing ``rule``."""
    unit = _chart(pack, power, type_)
    if isinstance(unit, Verdict) or unit.category == category:
        return unit
    article = "an" if category[0] in "aeiou" else "a"
    return deny(rule, f"not-{article}-{category}-unit", f"{unit.id} is not {article} {category} unit")


def _side(pack: AxisAlliesPack, position: Position, power: str, path: Sequence[str]) -> str:
    """The side ``power`` plays for where ``path`` starts (French pieces follow their allegiance there)."""
    return side_of(pack, position, power, path[0]) if path else "axis"


def _is_sub(unit: UnitType) -> bool:
    return _has(unit, "treat_hostile_sea_zones_as_friendly")


def mat_open(scenario: Scenario, side: str, round_: int) -> bool:
    """p.28: whether ``side`` may enter Morocco, Algeria and Tunisia (west of the white line) in ``round_``."""
    return any(row.side == side and row.from_round <= round_ for row in scenario.mat_entry)


def may_enter(
    pack: AxisAlliesPack, scenario: Scenario, position: Position, side: str, unit: UnitType, space: str, previous: str
) -> Verdict:
    """Whether ``unit`` of ``side`` may ever enter ``space`` from ``previous`` this round (terrain and scenario,
    not the space's occupants)."""
    graph = graph_of(pack)
    if graph.kind(space) == "sea":
        zone = pack.sea_zone(space)
        if unit.category == "land":
            return deny("10", "land-unit-at-sea", f"{unit.id} cannot enter {zone.name}")
        if zone.entry_only_from and previous not in zone.entry_only_from:
            return deny("10", "entry-only-from", f"{zone.name} may be entered only from {zone.entry_only_from}")
        if zone.entry_powers and unit.power not in zone.entry_powers:
            return deny("10", "entry-powers", f"only {zone.entry_powers} may enter {zone.name}")
        return ALLOW
    row = pack.territory(space)
    if unit.category == "sea":
        return deny("10", "sea-unit-on-land", f"{unit.id} cannot enter {row.name}")
    if row.impassable:
        return deny("10", "impassable", f"{row.name} is impassable")
    if row.sahara and not _has(unit, "sahara_desert_movement"):
        return deny("33" if unit.category == "air" else "11", "sahara", f"{unit.id} cannot enter {row.name}")
    if row.mat and not mat_open(scenario, side, position.round):
        return deny("28", "white-line", f"{side} units may not enter {row.name} in round {position.round}")
    owner = row.permanent_owner
    if unit.category == "land" and owner is not None and pack.power(owner).side not in (None, side):
        return deny("10", "cannot-invade", f"enemy land units may not invade {row.name}")
    return ALLOW


def _walk(
    pack: AxisAlliesPack, scenario: Scenario, position: Position, side: str, unit: UnitType, path: Sequence[str]
) -> Verdict:
    """Every step of ``path`` follows an edge of the map and enters a space ``unit`` may enter."""
    if len(path) < 2:
        return deny("15", "empty-path", "a move needs a start and at least one space entered")
    graph = graph_of(pack)
    for here, there in pairwise(path):
        edge = graph.edge(here, there)
        if edge is None or (unit.category == "land" and edge.type != "land"):
            return deny("10", "not-adjacent", f"{there} is not adjacent to {here}")
        verdict = may_enter(pack, scenario, position, side, unit, there, here)
        if not verdict.ok:
            return verdict
    return ALLOW


# --- land (pp.15, 24, 30-32) ---------------------------------------------------------------------------------


def _coast_road(pack: AxisAlliesPack, unit: UnitType, path: Sequence[str]) -> bool:
    """pp.30-32 *Coast Road Movement*: the unit has it and starts and stays in coast road territories."""
    return _has(unit, "coast_road_movement") and all(pack.territory(t).coast_road for t in path)


def check_land_move(
    pack: AxisAlliesPack,
    scenario: Scenario,
    position: Position,
    power: str,
    type_: str,
    path: Sequence[str],
    *,
    phase: Phase,
    blitzed: frozenset[str] = frozenset(),
    spent: int = 0,
) -> Verdict:
    """Whether ``power``'s ``type_`` may move along ``path`` (start first) in the combat or noncombat move.

    Combat move (p.15): not AAA or trucks; every space friendly or neutral and not captured by a blitz this phase
    (``blitzed``), at most move - 1 steps (1 point is kept for the attack). A *Blitz* unit's first step may enter
    a hostile territory without enemy combat units; it may then stop to attack or go on to a friendly or neutral
    territory, up to its full move. Noncombat move (p.24): friendly or neutral territories only, up to the
    unit's move, or up to the pack's ``coast_road_territories`` for a unit with *Coast Road Movement* that starts
    and stays on the coast road (pp.30-32), less ``spent``: the points a scout car used in its combat move and
    attack (*Long-Range Patrol*, p.31). Vichy French units never move (p.29).
    """
    unit = _mover(pack, power, type_, "land", "15")
    if isinstance(unit, Verdict):
        return unit
    side = _side(pack, position, power, path)
    if unit.power == "france":
        allegiance = next(a for a in pack.allegiances if a.side == side)
        if not allegiance.can_move:
            return deny(allegiance.rule, "cannot-move", f"{allegiance.id} French units cannot move")
    verdict = _walk(pack, scenario, position, side, unit, path)
    if not verdict.ok:
        return verdict
    steps = len(path) - 1
    if phase == "noncombat":
        for there in path[1:]:
            if status(pack, position, there, side) == "hostile":
                return deny("24", "hostile-territory", f"a noncombat move cannot enter hostile {there}")
        allowance = unit.move
        if _coast_road(pack, unit, path):
            allowance = max(allowance, pack.limit("coast_road_territories"))
        allowance -= spent
        if spent and not _has(unit, "long_range_patrol"):
            return deny("24", "already-moved", f"{unit.id} moved or fought in the combat move")
        if steps > allowance:
            return deny("24", "too-far", f"{unit.id} moves at most {allowance} territories here")
        return ALLOW
    if _has(unit, "logistical_unit") or _has(unit, "cannot_attack"):
        return deny("15", "noncombat-only", f"{unit.id} cannot make a combat move")
    blitz = _has(unit, "blitz") and status(pack, position, path[1], side) == "hostile"
    for index, there in enumerate(path[1:]):
        if there in blitzed:
            return deny("15", "blitzed-territory", f"{there} was captured by a blitz this phase")
        if status(pack, position, there, side) != "hostile":
            continue
        if not (blitz and index == 0):
            return deny("15", "hostile-territory", f"a combat move cannot enter hostile {there}")
        if combat_units(pack, position, there, enemy(side)):
            return deny("15", "blitz-into-defended", "a blitz may enter only a hostile territory without defenders")
    allowance = unit.move if blitz else unit.move - 1
    if steps > allowance:
        return deny("15", "attack-point-reserved", f"{unit.id} may combat move at most {allowance} territories")
    # A blitz is a combat move in itself: after its first step the unit may stay, to attack if it is then in
    # attack position, or go on (p.15 "may", notes §10.11); only other moves must end in attack position.
    if not blitz and not in_attack_position(pack, scenario, position, power, type_, path[-1]):
        return deny("15", "not-attack-position", f"a land combat move must end in attack position, not {path[-1]}")
    return ALLOW


def in_attack_position(
    pack: AxisAlliesPack, scenario: Scenario, position: Position, power: str, type_: str, territory: str
) -> bool:
    """p.15: a land unit in ``territory`` is in attack position beside a hostile territory it could attack (the
    Sahara, the white line and emblems as for entering it); a scout car also beside a neutral territory holding
    supply tokens. Whether the supply for the attack is there is :func:`.supply.check_land_attack`'s question."""
    unit = pack.unit(power, type_)
    side = side_of(pack, position, power, territory)
    scout = _has(unit, "hit_and_run")
    graph = graph_of(pack)
    for edge in graph.edges(territory):
        if edge.type != "land" or not may_enter(pack, scenario, position, side, unit, edge.b, territory).ok:
            continue
        there = status(pack, position, edge.b, side)
        if there == "hostile" or (scout and there == "neutral" and position.supply_in(edge.b) > 0):
            return True
    return False


def land_reach(
    pack: AxisAlliesPack,
    scenario: Scenario,
    position: Position,
    power: str,
    type_: str,
    start: str,
    *,
    way: Sequence[str] = (),
) -> frozenset[str]:
    """p.24: every territory ``power``'s ``type_`` in ``start`` can reach in the noncombat move, by its own move
    or along the coast road (the kit's :meth:`~pbem.kit.graph.LocationGraph.movement`). ``way``: the territories a
    truck on its way has driven through so far, ``start`` last (p.32): it goes on with the move it has left."""
    taken = max(len(way) - 1, 0)
    unit = pack.unit(power, type_)
    side = side_of(pack, position, power, start)
    graph = graph_of(pack)

    def cost(road: bool) -> Callable[[Edge], StepCost]:
        def step(edge: Edge) -> StepCost:
            if edge.type != "land" or not may_enter(pack, scenario, position, side, unit, edge.b, edge.a).ok:
                return None
            if status(pack, position, edge.b, side) == "hostile":
                return None
            if road and not pack.territory(edge.b).coast_road:
                return None
            return Cost(1)

        return step

    found = set(graph.movement(start, unit.move - taken, cost(False)).spent) if unit.move > taken else {start}
    road_left = pack.limit("coast_road_territories") - taken
    if road_left > 0 and _coast_road(pack, unit, [*way] or [start]):
        road: Reach[str] = graph.movement(start, road_left, cost(True))
        found |= set(road.spent)
    return frozenset(found)


# --- air (pp.16, 24, 33) -------------------------------------------------------------------------------------


def landing_spaces(pack: AxisAlliesPack, position: Position, side: str) -> frozenset[str]:
    """p.24: where air units of ``side`` may land: territories controlled by a power of the side (markers and
    printed emblems; only RP and emblem territories can be controlled). Take it at the start of the turn."""
    found = set()
    for row in pack.territories:
        owner = controller(pack, position, row.id)
        if owner is not None and side_of(pack, position, owner, row.id) == side:
            found.add(row.id)
    return frozenset(found)


def air_range(
    pack: AxisAlliesPack, scenario: Scenario, position: Position, side: str, unit: UnitType, start: str
) -> dict[str, int]:
    """p.33: the spaces an air unit in ``start`` can fly to and the fewest spaces entered to get there: every
    border crossed costs 1 (a coast and its sea zone, a sea zone and its island, two sea zones)."""
    graph = graph_of(pack)

    def expand(here: str, _spent: int) -> Iterable[tuple[str, int]]:
        for edge in graph.edges(here):
            if may_enter(pack, scenario, position, side, unit, edge.b, edge.a).ok:
                yield edge.b, 1

    return dict(dijkstra([start], expand).cost)


def _attack_position(pack: AxisAlliesPack, position: Position, space: str, side: str) -> bool:
    """p.15: an air or sea unit is in attack position in a hostile space, or in a sea zone whose only enemy units
    are submarines and/or transports (reinforcement land units at sea, p.14)."""
    if graph_of(pack).kind(space) == "land":
        return status(pack, position, space, side) == "hostile"
    if sea_status(pack, position, space, side) == "hostile":
        return True
    return any(
        n > 0 and side_of(pack, position, p, space) != side for (p, _), n in position.pieces.get(space, {}).items()
    )


def check_air_move(
    pack: AxisAlliesPack,
    scenario: Scenario,
    position: Position,
    power: str,
    type_: str,
    path: Sequence[str],
    *,
    phase: Phase,
    landing: frozenset[str],
    spent: int = 0,
) -> Verdict:
    """pp.16, 24, 33: whether ``power``'s air unit may fly ``path`` having already flown ``spent`` this turn.

    Air units cross any space but impassable and Sahara territories (and the zones' entry limits), one point per
    space entered, at most their move over the whole turn. A combat move ends in attack position and keeps
    enough points to reach one of ``landing`` (:func:`landing_spaces` at the start of the turn); a noncombat
    move ends in one of them.
    """
    unit = _mover(pack, power, type_, "air", "16")
    if isinstance(unit, Verdict):
        return unit
    side = _side(pack, position, power, path)
    verdict = _walk(pack, scenario, position, side, unit, path)
    if not verdict.ok:
        return verdict
    left = unit.move - spent - (len(path) - 1)
    if left < 0:
        return deny("16", "too-far", f"{unit.id} has {unit.move - spent} movement points left")
    end = path[-1]
    if phase == "noncombat":
        if end not in landing:
            return deny("24", "no-landing", f"{unit.id} cannot land in {end}")
        return ALLOW
    if not _attack_position(pack, position, end, side):
        return deny("15", "not-attack-position", f"an air combat move must end in a hostile space, not {end}")
    reach = air_range(pack, scenario, position, side, unit, end)
    if not any(reach.get(space, left + 1) <= left for space in landing):
        return deny("16", "no-landing-in-range", f"{unit.id} could not land anywhere from {end}")
    return ALLOW


# --- sea (pp.11, 16-17, 24, 27) ------------------------------------------------------------------------------


def _destroyer(pack: AxisAlliesPack, position: Position, zone: str, side: str) -> bool:
    return any(
        _has(pack.unit(p, t), "anti_submarine_vessel") for p, t in combat_units(pack, position, zone, enemy(side))
    )


def check_sea_move(
    pack: AxisAlliesPack,
    scenario: Scenario,
    position: Position,
    power: str,
    type_: str,
    path: Sequence[str],
    *,
    phase: Phase,
) -> Verdict:
    """pp.11, 16-17, 24: whether ``power``'s sea unit may sail ``path``.

    Sea zones only; the Strait of Messina for Axis sea units only (p.11); no zone twice (p.27); at most its move.
    Entering a hostile zone ends the move (p.16); a submarine sails through hostile zones and stops only on
    entering one with an enemy destroyer (p.17). A combat move ends in attack position unless it leaves a
    hostile starting zone (p.17); a noncombat move enters friendly zones only, submarines excepted (p.24).
    """
    unit = _mover(pack, power, type_, "sea", "16")
    if isinstance(unit, Verdict):
        return unit
    side = _side(pack, position, power, path)
    verdict = _walk(pack, scenario, position, side, unit, path)
    if not verdict.ok:
        return verdict
    graph = graph_of(pack)
    for here, there in pairwise(path):
        edge = graph.edge(here, there)
        if edge is not None and "axis_sea_units_only" in edge.tags and side != "axis":
            return deny("11", "strait-of-messina", "only Axis sea units may pass the Strait of Messina")
    if len(set(path)) != len(path):
        return deny("27", "zone-twice", "no sea unit may enter the same sea zone twice in a phase")
    if len(path) - 1 > unit.move:
        return deny("16", "too-far", f"{unit.id} moves at most {unit.move} sea zones")
    sub = _is_sub(unit)
    for there in path[1:-1]:
        if sub and _destroyer(pack, position, there, side):
            return deny("17", "must-stop", f"a submarine entering {there} with an enemy destroyer stops there")
        if not sub and sea_status(pack, position, there, side) == "hostile":
            return deny("16", "must-stop", f"entering hostile {there} ends the move")
    end = path[-1]
    if phase == "noncombat":
        if not sub and sea_status(pack, position, end, side) == "hostile":
            return deny("24", "hostile-zone", f"a noncombat move cannot enter hostile {end}")
        return ALLOW
    escaping = sea_status(pack, position, path[0], side) == "hostile"
    if not escaping and not _attack_position(pack, position, end, side):
        return deny("15", "not-attack-position", f"a sea combat move must end in attack position, not {end}")
    return ALLOW


# --- stacking (p.12) and retreats (p.22) ---------------------------------------------------------------------


def _stacked(pack: AxisAlliesPack, position: Position, territory: str, side: str, airborne: Mapping[str, int]) -> int:
    units = combat_units(pack, position, territory, side)
    count = sum(n for (p, t), n in units.items() if pack.unit(p, t).category in ("land", "air"))
    return count - sum(airborne.values())


def stacking_excess(
    pack: AxisAlliesPack,
    position: Position,
    territory: str,
    side: str,
    *,
    airborne: Mapping[str, int] | None = None,
) -> int:
    """p.10, p.12: how many combat land and air units of ``side`` exceed ``territory``'s stacking limit at the end
    of a phase (trucks never count; attacking air units ``airborne`` at the end of phases 3 and 4 do not)."""
    used = _stacked(pack, position, territory, side, airborne or {})
    return max(used - pack.territory(territory).stacking_limit, 0)


def excess_destinations(
    pack: AxisAlliesPack, scenario: Scenario, position: Position, territory: str, power: str, type_: str
) -> tuple[str, ...]:
    """p.12: where an opposing player may move an excess unit: adjacent territories it could legally enter that
    are not hostile to it and not already at their stacking limit (none: the owner destroys units instead)."""
    unit = pack.unit(power, type_)
    side = side_of(pack, position, power, territory)
    found = []
    for there in graph_of(pack).neighbours(territory):
        edge = graph_of(pack).edge(territory, there)
        if graph_of(pack).kind(there) != "land" or (unit.category == "land" and edge and edge.type != "land"):
            continue
        if not may_enter(pack, scenario, position, side, unit, there, territory).ok:
            continue
        if status(pack, position, there, side) == "hostile":
            continue
        if _stacked(pack, position, there, side, {}) < pack.territory(there).stacking_limit:
            found.append(there)
    return tuple(found)


def retreat_destinations(
    pack: AxisAlliesPack,
    scenario: Scenario,
    position: Position,
    territory: str,
    power: str,
    type_: str,
    *,
    land_attacked: frozenset[str],
    blitzed: frozenset[str],
) -> tuple[str, ...]:
    """p.22: where a defending unit retreating out of ``territory`` may go: adjacent territories friendly or
    neutral to it, below their stacking limit, that had no attack declared against them by land units
    (``land_attacked``, resolved or not) and were not blitzed through this turn (none: it is destroyed)."""
    return tuple(
        t
        for t in excess_destinations(pack, scenario, position, territory, power, type_)
        if t not in land_attacked and t not in blitzed
    )


# --- convoy air moves (p.12, p.25) ---------------------------------------------------------------------------


def check_convoy_landing(
    pack: AxisAlliesPack, scenario: Scenario, position: Position, power: str, type_: str, path: Sequence[str]
) -> Verdict:
    """p.12: an air unit of ``power`` in its convoy zone at phase 1 flies at most the pack's
    ``convoy_air_landing_range`` spaces to land in a friendly-controlled territory (else it is destroyed)."""
    unit = _chart(pack, power, type_)
    if isinstance(unit, Verdict):
        return unit
    side = _side(pack, position, power, path)
    verdict = _walk(pack, scenario, position, side, unit, path)
    if not verdict.ok:
        return verdict
    if len(path) - 1 > pack.limit("convoy_air_landing_range"):
        return deny("12", "too-far", f"convoy air units land within {pack.limit('convoy_air_landing_range')} spaces")
    if path[-1] not in landing_spaces(pack, position, side):
        return deny("12", "no-landing", f"{path[-1]} is not a friendly-controlled territory")
    return ALLOW


def check_escort_move(
    pack: AxisAlliesPack,
    scenario: Scenario,
    position: Position,
    power: str,
    type_: str,
    path: Sequence[str],
    *,
    open_convoys: frozenset[str],
) -> Verdict:
    """p.25: an air unit that did not move this turn flies at most the pack's ``escort_move_range`` spaces into a
    sea zone holding one of ``power``'s open convoy routes (``open_convoys``, see :func:`.economy.convoy_open`)."""
    unit = _mover(pack, power, type_, "air", "25")
    if isinstance(unit, Verdict):
        return unit
    side = _side(pack, position, power, path)
    verdict = _walk(pack, scenario, position, side, unit, path)
    if not verdict.ok:
        return verdict
    if len(path) - 1 > pack.limit("escort_move_range"):
        return deny("25", "too-far", f"escorts fly at most {pack.limit('escort_move_range')} spaces")
    if path[-1] not in open_convoys:
        return deny("25", "not-a-convoy", f"{path[-1]} holds no open convoy route of {power}")
    return ALLOW
