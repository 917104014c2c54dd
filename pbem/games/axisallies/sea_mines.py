"""Sea mines against moving sea units of *Axis & Allies: North Africa*: the stepwise loop of phases 3 and 5 (p.27).

Whenever a sea unit moves into or through a sea zone mined by an enemy power, p.27 has every sea move follow a loop:

1. the mover sails its sea units until each reaches its destination or enters a zone mined by an enemy power
   (a move never passes *through* such a zone: it stops there, :func:`check_leg`); no unit enters a zone twice
   in the phase;
2. the owners of the mines in each zone entered decide, zone by zone (the mover's ``done`` ends step 1: RULING,
   pieces move one at a time, so the mover says when all its desired sea units have moved), and apply their dice;
3. the mover may sail on with the survivors (back to step 1).

A stopped unit is a :class:`~.state.Halt`: the zones it entered this phase and whether the owners have decided on
it yet. A survivor sails on with the move it has left and never re-enters a zone of its path
(:func:`.sea_moves.check_move` judges the whole path). RULING (interchangeable pieces): a stopped unit sails on
before a unit of its type in the same zone that has not moved, so the unmoved one keeps its whole move.

The detonations reuse :mod:`.convoy_mines` (one home for the owner's decision and the dice); here only sea units
that entered the zone in this step may be hit (p.27: "units that were already in the zone cannot be chosen"): a
hit destroys a combat unit, a battleship is damaged first (p.33). Transports never move (cargo at sea is carried by
virtual transports, p.14), so no cargo is hit here.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.games.axisallies.data import UnitType
from pbem.games.axisallies.position import side_of
from pbem.games.axisallies.state import AxisState, Counts, Halt, SeaMineCheck, added, split, tally
from pbem.rules.contract import ALLOW, Event, Step, Verdict, deny

__all__ = [
    "MOVE_PHASES",
    "check_leg",
    "checks",
    "end_step",
    "enemy_mined",
    "entered",
    "hit",
    "in_loop",
    "record",
    "step_resolved",
    "survivors",
    "ways",
]

MOVE_PHASES = ("combat_move", "noncombat_move")


def in_loop(state: AxisState) -> bool:
    """Whether a sea mine detonation now is one of the stepwise loop of phases 3 and 5 (not phase 6's)."""
    return state.phase in MOVE_PHASES


def enemy_mined(state: AxisState, zone: str, side: str) -> bool:
    """p.27: whether ``zone`` holds sea mine tokens of a power of the side other than ``side``."""
    return any(n > 0 and state.pack.power(o).side != side for o, n in state.sea_mines.get(zone, {}).items())


def _side(state: AxisState) -> str:
    return state.pack.power(state.power).side or "axis"


def _table(state: AxisState) -> str:
    """The bookkeeping that says a piece moved this phase (``moved`` in phase 3, ``spent`` in phase 5)."""
    return "moved" if state.phase == "combat_move" else "spent"


def check_leg(state: AxisState, power: str, leg: tuple[str, ...]) -> Verdict:
    """p.27 step 1: a sea unit stops on entering a zone mined by an enemy power; it never sails through one."""
    side = side_of(state.pack, state.position(), power, leg[0])
    for zone in leg[1:-1]:
        if enemy_mined(state, zone, side):
            return deny("27", "mined-zone", f"a sea unit entering {zone}, mined by an enemy power, stops there")
    return ALLOW


def survivors(state: AxisState, zone: str, unit_key: str) -> int:
    """Sea units of ``unit_key`` stopped in ``zone`` this phase whose mines were decided: they may sail on."""
    return sum(h.count for h in state.halts if h.path[-1] == zone and h.unit == unit_key and not h.waiting)


def ways(state: AxisState, unit_key: str, leg: tuple[str, ...]) -> Iterator[tuple[Halt | None, tuple[str, ...]]]:
    """The pieces of ``unit_key`` in ``leg[0]`` that might sail ``leg``, each with the whole path it would have
    sailed this phase: the stopped survivors first (RULING, see the module), then a piece that has not moved."""
    for halt in state.halts:
        if halt.path[-1] == leg[0] and halt.unit == unit_key and not halt.waiting:
            yield halt, (*halt.path, *leg[1:])
    unmoved = state.count(leg[0], unit_key) - tally(getattr(state, _table(state)), leg[0], unit_key)
    if unmoved > 0:
        yield None, leg


def _with_halts(state: AxisState, halts: list[Halt]) -> AxisState:
    return state.model_copy(update={"halts": tuple(h for h in halts if h.count > 0)})


def record(
    before: AxisState, after: AxisState, unit_key: str, leg: tuple[str, ...], way: tuple[Halt | None, tuple[str, ...]]
) -> AxisState:
    """The bookkeeping of a sea move along ``leg`` (``after``: the state with the piece moved): a survivor that
    sails on leaves its halt; a move ending in a zone mined by an enemy power stops there, waiting for step 2."""
    if not in_loop(after):
        return after
    halt, whole = way
    carried = before.damaged.get(leg[0], {}).get(unit_key, 0) > 0  # sea_moves.carry_damage moved the damage
    halts = list(after.halts)
    if halt is not None:
        i = halts.index(halt)
        halts[i] = halt.model_copy(update={"count": halt.count - 1, "damaged": max(0, halt.damaged - carried)})
        table = _table(after)
        after = after.model_copy(update={table: added(getattr(after, table), leg[0], unit_key, -1)})
        after = _unattacked(after, leg[0])  # a submarine stopped in a hostile zone sailed on (p.17)
    if enemy_mined(after, leg[-1], _side(after)):
        same = next((j for j, h in enumerate(halts) if h.waiting and (h.unit, h.path) == (unit_key, whole)), None)
        if same is None:
            halts.append(Halt(unit=unit_key, path=whole, damaged=int(carried)))
        else:
            h = halts[same]
            halts[same] = h.model_copy(update={"count": h.count + 1, "damaged": h.damaged + carried})
    return _with_halts(after, halts)


def checks(state: AxisState) -> tuple[SeaMineCheck, ...]:
    """p.27 step 2: the zones entered in this step, in the map's order (RULING, as phase 6's: the owners are not
    asked for an order), each with every enemy power holding tokens there."""
    side = _side(state)
    waiting = {h.path[-1] for h in state.halts if h.waiting}
    found = []
    for zone in state.pack.sea_zones:
        if zone.id not in waiting:
            continue
        for owner, n in sorted(state.sea_mines.get(zone.id, {}).items()):
            if n > 0 and state.pack.power(owner).side != side:
                found.append(SeaMineCheck(zone=zone.id, owner=owner))
    return tuple(found)


def end_step(state: AxisState, seat: str) -> Step[AxisState] | None:
    """The mover's ``done`` in phase 3 or 5: with units stopped in mined zones in this step, it ends step 1 and
    the owners decide (step 2); else None (the phase ends)."""
    if not any(h.waiting for h in state.halts):
        return None
    from pbem.games.axisallies.convoy_mines import detonations

    zones = sorted({h.path[-1] for h in state.halts if h.waiting})
    event = Event(kind="sea_mines_entered", seat=seat, rule="27", data={"power": state.power, "zones": zones})
    return detonations(state, checks(state), (event,))


def step_resolved(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    """p.27 step 3: every zone entered was decided; the survivors may sail on (or stay)."""
    halts = [h.model_copy(update={"waiting": False}) for h in state.halts]
    return Step(state=_with_halts(state, halts), events=events)


def entered(state: AxisState, zone: str) -> Counts:
    """p.27: the sea units that entered ``zone`` in this step (those already there cannot be chosen)."""
    found: Counts = {}
    for h in state.halts:
        if h.waiting and h.path[-1] == zone:
            found[h.unit] = found.get(h.unit, 0) + h.count
    return found


def _two_hits(unit: UnitType) -> bool:
    return unit.has("two_hits_to_destroy")


def hit(state: AxisState, zone: str, unit_key: str) -> tuple[AxisState, str]:
    """p.27: one mine hit on a sea unit of ``unit_key`` that entered ``zone`` in this step: a combat unit is
    destroyed, a battleship damaged first (p.33: "even by ... a sea mine"); what became of it.

    RULING (interchangeable pieces): of the units stopped there along different paths, the hit falls on the one
    with the longest path (the fewest points left), the one the mover loses least by."""
    mine = [(i, h) for i, h in enumerate(state.halts) if h.waiting and h.path[-1] == zone and h.unit == unit_key]
    mine.sort(key=lambda ih: (-len(ih[1].path), ih[0]))
    halts = list(state.halts)
    if _two_hits(state.pack.unit(*split(unit_key))):
        whole = next(((i, h) for i, h in mine if h.count > h.damaged), None)
        if whole is not None:
            i, h = whole
            halts[i] = h.model_copy(update={"damaged": h.damaged + 1})
            damaged = added(state.damaged, zone, unit_key, 1)
            return _with_halts(state.model_copy(update={"damaged": damaged}), halts), "damaged"
    i, h = mine[0]
    sunk_damaged = _two_hits(state.pack.unit(*split(unit_key))) and h.damaged > 0
    halts[i] = h.model_copy(update={"count": h.count - 1, "damaged": h.damaged - sunk_damaged})
    table = _table(state)
    update: dict[str, object] = {
        "pieces": added(state.pieces, zone, unit_key, -1),
        table: added(getattr(state, table), zone, unit_key, -1),
    }
    if sunk_damaged:
        update["damaged"] = added(state.damaged, zone, unit_key, -1)
    state = _with_halts(state.model_copy(update=update), halts)
    return _unattacked(state, zone), "destroyed"


def _unattacked(state: AxisState, zone: str) -> AxisState:
    """``zone`` no longer attacked by sea units once none of the mover's is left there (the air units that flew
    there attack it still: :func:`.sea_moves.declare` counts them)."""
    if zone in state.naval and not _has_ships(state, zone):
        return state.model_copy(update={"naval": tuple(z for z in state.naval if z != zone)})
    return state


def _has_ships(state: AxisState, zone: str) -> bool:
    return any(
        n > 0 and split(k)[0] == state.power and state.pack.unit(*split(k)).category == "sea"
        for k, n in state.pieces.get(zone, {}).items()
    )
