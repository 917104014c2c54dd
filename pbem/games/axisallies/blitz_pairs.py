"""p.15 (p.32): a tank's *Blitz* may take 1 mechanized infantry along with it; a mechanized infantry never blitzes
on its own.

Moves are made one piece at a time, so the tank blitzes first and records its path; afterwards each unit with
*Blitz* that is not a tank (the pack's ``tanks`` class) may move along that same path, one per tank that blitzed
along it, although the tank's first step has since captured the territory (it is no longer hostile, and other
combat moves may not enter it).
"""

from __future__ import annotations

from pbem.games.axisallies.data import AxisAlliesPack, UnitType
from pbem.games.axisallies.state import AxisState, BlitzRoute

__all__ = ["blitzes_alone", "follow", "free_route", "record_tank"]


def blitzes_alone(pack: AxisAlliesPack, unit: UnitType) -> bool:
    """Whether ``unit`` may blitz without a tank: only tanks do."""
    return unit.type in pack.unit_class("tanks")


def free_route(state: AxisState, origin: str, to: str) -> BlitzRoute | None:
    """The first route tanks blitzed from ``origin`` to ``to`` this turn with room for one more follower."""
    return next(
        (r for r in state.blitz_routes if (r.path[0], r.path[-1]) == (origin, to) and r.followers < r.tanks),
        None,
    )


def _with_route(state: AxisState, route: BlitzRoute) -> AxisState:
    routes = tuple(r for r in state.blitz_routes if r.path != route.path)
    return state.model_copy(update={"blitz_routes": (*routes, route)})


def record_tank(state: AxisState, path: tuple[str, ...]) -> AxisState:
    """A tank blitzed along ``path``."""
    route = next((r for r in state.blitz_routes if r.path == path), BlitzRoute(path=path))
    return _with_route(state, route.model_copy(update={"tanks": route.tanks + 1}))


def follow(state: AxisState, route: BlitzRoute) -> AxisState:
    """A mechanized infantry moved along ``route`` with one of its tanks."""
    return _with_route(state, route.model_copy(update={"followers": route.followers + 1}))
