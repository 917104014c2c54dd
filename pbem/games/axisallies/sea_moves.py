"""Sea combat moves and sea attack declarations of *Axis & Allies: North Africa* (pp.11, 15-18, 24, 33-34).

* p.15: sea units are in attack position in a hostile sea zone (enemy surface warships or air units, p.11) or
  in a sea zone whose only enemy units are submarines and/or transports (reinforcements at sea, land units or
  supply, p.14). A sea combat move ends in attack position, except a move out of a hostile starting zone
  (p.17, "escape"); the path itself (stops in hostile zones, submarines through them but not past an enemy
  destroyer, the Strait of Messina, no zone twice) is :func:`.movement.check_sea_move`'s.
* p.18 declarations, sea units: those in a hostile zone must attack (p.17: units starting in one either stay
  and attack or move out); those in a friendly zone holding enemy units must attack if any of them combat moved
  there from a friendly space (so do air units that flew there, :mod:`.air_sorties`); the others there may
  (``sea_attack``).
* p.27: a sea move stops on entering a zone mined by an enemy power, and a survivor sails on with the move it has
  left (the stepwise loop, :mod:`.sea_mines`); the whole path it sailed this phase is judged. In the combat move a
  unit may stop in such a zone short of attack position; once its mines are decided it must sail on into attack
  position while it can (p.16: a sea unit's combat move ends in a hostile zone), else it stays.
* p.33: a battleship hit once stays damaged (``state.damaged``) until repaired. Pieces are interchangeable, so
  RULING: a damaged battleship moves before an undamaged one of its zone (towards the repair base of p.13).

Sea zones to be fought are kept in ``state.naval``; :mod:`.sea_battle` fights them in phase 4.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from pbem.games.axisallies import reserve as strategic
from pbem.games.axisallies import sea_mines
from pbem.games.axisallies.actions import SeaAttack
from pbem.games.axisallies.data import AxisAlliesPack, UnitType
from pbem.games.axisallies.movement import check_sea_move
from pbem.games.axisallies.position import Position, graph_of, sea_status, side_of
from pbem.games.axisallies.state import AxisState, Halt, added, key, split
from pbem.rules.contract import ALLOW, Event, Step, Verdict, deny

__all__ = [
    "attack_position",
    "can_end_combat_move",
    "can_sea_attack",
    "carry_damage",
    "check_move",
    "combat_moved",
    "declare",
    "enemy_at_sea",
    "sailed",
    "sea_attack",
    "sea_attacks",
]


def _side(state: AxisState) -> str:
    return state.pack.power(state.power).side or "axis"


def enemy_at_sea(pack: AxisAlliesPack, position: Position, zone: str, side: str) -> bool:
    """Whether ``zone`` holds pieces of the other side: units, or supply at sea on its powers' markers (p.14)."""
    pieces = position.pieces.get(zone, {})
    if any(n > 0 and side_of(pack, position, p, zone) != side for (p, _), n in pieces.items()):
        return True
    at_sea = position.convoy_supply.get(zone, {})
    return any(n > 0 and side_of(pack, position, p, zone) != side for p, n in at_sea.items())


def attack_position(pack: AxisAlliesPack, position: Position, zone: str, side: str) -> bool:
    """p.15: an air or sea unit of ``side`` is in attack position in ``zone``: hostile, or holding enemy units."""
    if graph_of(pack).kind(zone) != "sea":
        return False
    return sea_status(pack, position, zone, side) == "hostile" or enemy_at_sea(pack, position, zone, side)


def check_move(state: AxisState, power: str, unit: UnitType, path: Sequence[str]) -> Verdict:
    """pp.16-17, 24, 27: whether one of ``power``'s sea ``unit`` in ``path[0]`` may sail ``path`` in the current
    phase: a unit stopped there by mines (its whole path this phase) or one that has not moved."""
    first: Verdict | None = None
    for way in sea_mines.ways(state, key(power, unit.type), tuple(path)):
        verdict = _check_way(state, power, unit, tuple(path), way[1])
        if verdict.ok:
            return verdict
        first = first or verdict
    rule = "15" if state.phase == "combat_move" else "24"
    return first or deny(rule, "no-unit-to-move", f"no {unit.id} in {path[0]} may move in this phase")


def _way(state: AxisState, power: str, unit: UnitType, leg: tuple[str, ...]) -> tuple[Halt | None, tuple[str, ...]]:
    """The piece that sails ``leg`` (:func:`check_move` allowed it) and its whole path this phase."""
    for way in sea_mines.ways(state, key(power, unit.type), leg):
        if _check_way(state, power, unit, leg, way[1]).ok:
            return way
    raise AssertionError(f"no {unit.id} may sail {leg}")  # can_move judged it


def _check_way(state: AxisState, power: str, unit: UnitType, leg: tuple[str, ...], whole: tuple[str, ...]) -> Verdict:
    """``whole``, ending with ``leg``: a combat move may also end where the only enemy pieces are supply at sea
    (transports, p.14), or stop in a zone mined by an enemy power (p.27)."""
    pack, position = state.pack, state.position()
    scenario = pack.scenario(state.scenario)
    mined = sea_mines.check_leg(state, power, leg)
    if not mined.ok:
        return mined
    combat = state.phase == "combat_move"
    verdict = check_sea_move(
        pack, scenario, position, power, unit.type, whole, phase="combat" if combat else "noncombat"
    )
    side = side_of(pack, position, power, whole[0])
    if combat and verdict.ok and attack_position(pack, position, whole[-1], side):
        return _reserve_pays(state, unit, leg, whole)
    if not (combat and not verdict.ok and verdict.reason == "not-attack-position"):
        return verdict
    if attack_position(pack, position, whole[-1], side):
        return _reserve_pays(state, unit, leg, whole)
    if sea_mines.enemy_mined(state, whole[-1], side):
        return ALLOW
    return verdict


def _reserve_pays(state: AxisState, unit: UnitType, leg: tuple[str, ...], whole: tuple[str, ...]) -> Verdict:
    """p.39: a sea unit sailing into attack position attacks (and so may the units already there), so the
    strategic reserve must pay for every attacker the move would leave."""
    if not strategic.in_force(state):
        return ALLOW
    k = key(unit.power, unit.type)
    moved = added(state.moved, leg[-1], k, 1)
    if len(whole) > len(leg):  # stopped by mines on its way: it was counted as moved where it stopped
        moved = added(moved, leg[0], k, -1)
    pieces = added(added(state.pieces, leg[0], k, -1), leg[-1], k, 1)
    after = combat_moved(state.model_copy(update={"pieces": pieces, "moved": moved}), leg[0], leg)
    return strategic.check_reserve(after)


def sailed(before: AxisState, after: AxisState, unit_key: str, leg: tuple[str, ...]) -> AxisState:
    """p.27: the stepwise loop's bookkeeping of a sea move (``after``: the piece moved along ``leg``)."""
    power, type_ = split(unit_key)
    way = _way(before, power, before.pack.unit(power, type_), leg)
    return sea_mines.record(before, after, unit_key, leg, way)


def _legs(state: AxisState, start: str, steps: int) -> Iterator[tuple[str, ...]]:
    """Simple paths of 1..``steps`` sea zones out of ``start``."""
    graph = graph_of(state.pack)
    stack: list[tuple[str, ...]] = [(start,)]
    while stack:
        path = stack.pop()
        if len(path) > 1:
            yield path
        if len(path) - 1 < steps:
            nexts = graph.edges(path[-1])
            stack.extend(
                (*path, e.b) for e in nexts if e.type != "convoy" and graph.kind(e.b) == "sea" and e.b not in path
            )


def can_end_combat_move(state: AxisState) -> Verdict:
    """p.16, p.27: the combat move ends only once every sea unit stopped by mines short of attack position (not
    escaping a hostile zone, p.17) sailed on, unless no way on is left to it."""
    pack, position = state.pack, state.position()
    for halt in state.halts:
        if halt.waiting:
            return ALLOW  # the mover's done ends step 1 of the loop (sea_mines.end_step)
        power, type_ = split(halt.unit)
        unit = pack.unit(power, type_)
        side = side_of(pack, position, power, halt.path[0])
        zone = halt.path[-1]
        if attack_position(pack, position, zone, side) or sea_status(pack, position, halt.path[0], side) == "hostile":
            continue
        for leg in _legs(state, zone, unit.move - len(halt.path) + 1):
            if _check_way(state, power, unit, leg, (*halt.path, *leg[1:])).ok:
                return deny("15", "stopped-must-sail-on", f"the {unit.id} stopped in {zone} can still sail on")
    return ALLOW


def combat_moved(state: AxisState, origin: str, path: Sequence[str]) -> AxisState:
    """p.18: a sea unit that combat moved from a friendly zone into attack position obliges its zone's attack
    (a move out of a hostile zone is an escape, p.17, and obliges nothing)."""
    pack, position, side = state.pack, state.position(), _side(state)
    escaping = sea_status(pack, position, origin, side) == "hostile"
    end = path[-1]
    if escaping or not attack_position(pack, position, end, side) or end in state.naval:
        return state
    return state.model_copy(update={"naval": tuple(sorted({*state.naval, end}))})


def _is_ship(state: AxisState, unit_key: str, n: int) -> bool:
    return n > 0 and split(unit_key)[0] == state.power and state.pack.unit(*split(unit_key)).category == "sea"


def _has_ships(state: AxisState, zone: str) -> bool:
    return any(_is_ship(state, k, n) for k, n in state.pieces.get(zone, {}).items())


def declare(state: AxisState) -> AxisState:
    """p.18, p.17: at the end of the combat move every hostile zone holding the mover's sea units is attacked
    (they stayed), and every zone its air units flew to attack holds a sea combat too."""
    pack, position, side = state.pack, state.position(), _side(state)
    zones = set(state.naval)
    for zone in pack.sea_zones:
        if _has_ships(state, zone.id) and sea_status(pack, position, zone.id, side) == "hostile":
            zones.add(zone.id)
    zones |= {s.target for s in state.sorties if graph_of(pack).kind(s.target) == "sea" and not s.fought}
    zones = {z for z in zones if attack_position(pack, position, z, side)}
    return state.model_copy(update={"naval": tuple(sorted(zones))})


def sea_attacks(state: AxisState, seat: str) -> Iterator[SeaAttack]:
    for zone in state.pack.sea_zones:
        if _has_ships(state, zone.id):
            yield SeaAttack(zone=zone.id)


def can_sea_attack(state: AxisState, seat: str, act: SeaAttack) -> Verdict:
    """p.18: sea units in a friendly zone holding enemy submarines or transports may attack them (all of them:
    p.16, "you must either attack all enemy units in the sea zone, or you must ignore all of them")."""
    pack = state.pack
    if act.zone not in graph_of(pack).nodes or graph_of(pack).kind(act.zone) != "sea":
        return deny("10", "unknown-space", f"{act.zone} is not a sea zone")
    if not _has_ships(state, act.zone):
        return deny("18", "no-sea-units", f"{state.power} has no sea units in {act.zone}")
    if act.zone in state.naval:
        return deny("18", "already-attacking", f"{act.zone} is attacked already")
    if not attack_position(pack, state.position(), act.zone, _side(state)):
        return deny("18", "nothing-to-attack", f"{act.zone} holds no enemy units")
    return strategic.check_reserve(state.model_copy(update={"naval": (*state.naval, act.zone)}))  # p.39


def sea_attack(state: AxisState, seat: str, act: SeaAttack) -> Step[AxisState]:
    state = state.model_copy(update={"naval": tuple(sorted({*state.naval, act.zone}))})
    event = Event(kind="sea_attack_declared", seat=seat, rule="18", data={"zone": act.zone, "power": state.power})
    return Step(state=state, events=(event,))


def carry_damage(state: AxisState, unit_key: str, origin: str, to: str) -> AxisState:
    """RULING (p.33, interchangeable pieces): a damaged battleship moves before an undamaged one, so the damage
    goes with the piece that moved (its move already counted in ``state.pieces``)."""
    if state.damaged.get(origin, {}).get(unit_key, 0) <= 0:
        return state
    damaged = added(added(state.damaged, origin, unit_key, -1), to, unit_key, 1)
    return state.model_copy(update={"damaged": damaged})
