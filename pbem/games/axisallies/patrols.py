"""Scout cars' *Long-Range Patrol* (p.31) in a turn of *Axis & Allies: North Africa*.

A scout car that attacks may split its move between the combat move and the noncombat move: in the noncombat move
it may move up to its move less the spaces it moved in the combat move and the point its attack used
(:func:`.movement.check_land_move`'s ``spent``). Pieces are interchangeable, so the state keeps, per space and
scout car type, how many points the scout cars there used (:class:`~.state.Patrol`):

* a scout car's combat move records the points it used (its steps and the point kept for the attack);
* at the end of the declarations the attacking scout cars of each space are matched with those records (the
  ones that moved first, the fewest points used first, as :func:`.phases._after_declare` counts moved units as
  attacking first); the others that attack from where they stood used 1 point; scout cars that did not attack
  lose their records (they moved in the combat move, p.24);
* a scout car turned back by land mines loses its patrol (p.31, :func:`.mines.turn_back`);
* in the noncombat move a scout car that may not otherwise move (it attacked) moves within its patrol.
"""

from __future__ import annotations

from pbem.games.axisallies.data import UnitType
from pbem.games.axisallies.state import AxisState, Patrol, key, split

__all__ = ["after_declare", "available", "moved", "patrolling", "records", "use"]


def patrolling(unit: UnitType) -> bool:
    """p.31: whether ``unit`` has *Long-Range Patrol*."""
    return unit.has("long_range_patrol")


def moved(state: AxisState, unit: UnitType, to: str, steps: int) -> AxisState:
    """A scout car's combat move of ``steps`` into ``to``: it used them and the attack's point."""
    record = Patrol(space=to, unit=key(unit.power, unit.type), used=steps + 1, count=1)
    return state.model_copy(update={"patrols": _merged((*state.patrols, record))})


def after_declare(state: AxisState, committed: dict[tuple[str, str], int]) -> AxisState:
    """The patrols of the scout cars that attack (``committed``: (space, ``"power:type"``) -> attacking pieces)."""
    found: list[Patrol] = []
    for (space, k), n in sorted(committed.items()):
        unit = state.pack.unit(*split(k))
        if n <= 0 or not patrolling(unit):
            continue
        records = sorted((p for p in state.patrols if (p.space, p.unit) == (space, k)), key=lambda p: p.used)
        left = n
        for record in records:
            take = min(left, record.count)
            if take:
                found.append(record.model_copy(update={"count": take, "attacked": True}))
                left -= take
        if left:
            found.append(Patrol(space=space, unit=k, used=1, count=left, attacked=True))
    return state.model_copy(update={"patrols": _merged(tuple(found))})


def available(state: AxisState, space: str, unit_key: str) -> int:
    """How many scout cars in ``space`` may still move within a patrol (never more than stand there)."""
    n = sum(p.count for p in state.patrols if (p.space, p.unit) == (space, unit_key) and p.attacked)
    return min(n, state.count(space, unit_key))


def records(state: AxisState, space: str, unit_key: str) -> list[Patrol]:
    """The patrols of ``unit_key`` in ``space``, the fewest points left first (a move uses the least it can)."""
    found = [p for p in state.patrols if (p.space, p.unit) == (space, unit_key) and p.attacked]
    return sorted(found, key=lambda p: -p.used)


def use(state: AxisState, record: Patrol) -> AxisState:
    """One scout car of ``record`` made its noncombat move."""
    rest = tuple(p for p in state.patrols if p is not record)
    if record.count > 1:
        rest = (*rest, record.model_copy(update={"count": record.count - 1}))
    return state.model_copy(update={"patrols": _merged(rest)})


def _merged(records: tuple[Patrol, ...]) -> tuple[Patrol, ...]:
    """One record per (space, unit, used, attacked), sorted, so equal states serialise alike."""
    counts: dict[tuple[str, str, int, bool], int] = {}
    for p in records:
        ident = (p.space, p.unit, p.used, p.attacked)
        counts[ident] = counts.get(ident, 0) + p.count
    return tuple(
        Patrol(space=s, unit=u, used=used, count=n, attacked=a)
        for (s, u, used, a), n in sorted(counts.items())
        if n > 0 and split(u)[1]
    )
