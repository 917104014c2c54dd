"""Command paths (§5.8) and supply paths (§5.7) on the Gazala board.

Both are hex paths counted in hexes (not MPs) under the same breaks (§5.7.4, §5.8.2): no hex with an enemy unit of
any type; no EZOC hex unless a friendly unit of any type is in it, except as the path's end (§5.4.1: "into but
never through"); into or out of at most ``path_enemy_minefields`` unbreached enemy Minefield hexes, never through
one; across at most ``path_ridges`` Ridge or Wadi hexsides not intersected by a Road or Trail, not counting those
of the tracing unit's own hex. The search is the kit's :func:`dijkstra` over ``(hex, ridges crossed)``; the supply
chain along Roads and Trails is the kit's :func:`trace` over the board's route graph.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Literal, TypeVar, cast

from pbem.games.gazala.board import TRACED_KEPT, Situation, other
from pbem.games.gazala.data import Side
from pbem.games.gazala.minefields import box_supplies
from pbem.kit.graph import dijkstra, trace
from pbem.kit.hexes import HexId
from pbem.rules.contract import ALLOW, Verdict, deny

CommandState = Literal["in-command", "out-of-command", "isolated"]


@dataclass(frozen=True)
class PathFound:
    """A traced path: its hexes from the tracer to the end (both included) and its length in hexes (the tracer's
    own hex not counted, §5.8), or no path (``hexes`` empty, ``length`` None)."""

    hexes: tuple[HexId, ...]
    length: int | None


NO_PATH = PathFound((), None)


def trace_path(
    sit: Situation,
    side: Side,
    start: HexId,
    goal: Callable[[HexId], bool],
    limit: int,
    *,
    target: HexId | None = None,
    goal_key: tuple[str, ...] | None = None,
) -> PathFound:
    """The shortest path from ``start`` to a hex ``goal`` accepts, at most ``limit`` hexes, under the breaks of
    §5.7.4 / §5.8.2 (module docstring). Deterministic: the kit's search, neighbours clockwise.

    With a single ``target`` the search is A* in the kit's Dijkstra: each step costs ``1 + h(next) - h(here)`` with
    ``h`` the lattice distance to the target (consistent, so every step costs 0..2), and the budget shrinks by
    ``h(start)``. A path then runs straight at the HQ, and an Isolated unit searches only the ellipse of hexes
    that a path within ``limit`` could pass, never the whole radius.

    ``goal_key`` names the goal by what it depends on beyond the position's blocking hexes (an HQ's hex, a chain's
    sources): the path is then kept on the board and found again for any position with the same blocking hexes."""
    if goal_key is not None:
        key = ("path", start, str(limit), target or "", *goal_key)
        return recall(sit, side, key, lambda: trace_path(sit, side, start, goal, limit, target=target))
    board = sit.board
    grid = board.grid
    aim = grid.coords(target) if target is not None else None

    def h(hex_id: HexId) -> int:
        if aim is None:
            return 0
        q, r = grid.coords(hex_id)
        return (abs(q - aim[0]) + abs(r - aim[1]) + abs(q + r - aim[0] - aim[1])) // 2

    if h(start) > limit:
        return NO_PATH
    enemy = sit.occupied[other(side)]
    mines = sit.enemy_mines[side]
    blocked = _blocked(sit, side)
    own_sides = frozenset(s.id for _, s in grid.sides(start))
    max_ridges = board.pack.number("path_ridges")
    max_mines = board.pack.number("path_enemy_minefields")
    start_mines = 1 if start in mines else 0
    prohibited, ridged = board.prohibited, board.path_ridges

    def may_end(hex_id: HexId) -> bool:
        return goal(hex_id) and start_mines + (1 if hex_id in mines else 0) <= max_mines

    def expand(state: tuple[HexId, int], _spent: int) -> list[tuple[tuple[HexId, int], int]]:
        here, ridges = state
        if here != start and here in blocked:
            return []  # a path may end here (it was a goal) but not go on
        away = h(here)
        found = []
        for there, hexside in grid.sides(here):
            if hexside.id in prohibited or there in enemy:
                continue
            crossed = ridges + (1 if hexside.id in ridged and hexside.id not in own_sides else 0)
            if crossed > max_ridges or (there in blocked and not may_end(there)):
                continue
            found.append(((there, crossed), 1 + h(there) - away))
        return found

    if start_mines > max_mines:
        return NO_PATH
    search = dijkstra([(start, 0)], expand, limit=limit - h(start), goal=lambda state: may_end(state[0]))
    ends = [state for state in search.cost if may_end(state[0])]
    if not ends:
        return NO_PATH
    best = min(ends, key=lambda state: search.cost[state])
    hexes = tuple(hex_id for hex_id, _ in search.path(best))
    return PathFound(hexes, len(hexes) - 1)


T = TypeVar("T")


def recall(sit: Situation, side: Side, key: tuple[str, ...], compute: Callable[[], T]) -> T:
    """What ``compute`` traces for ``side`` in ``sit``, kept on the board under ``key`` and the hexes that decide
    every path and chain of ``side``: those it may not pass (:func:`_blocked`), those it may not enter (enemy
    units) and the enemy Minefields (they count against a path's end)."""
    full = (*key, side, _blocked(sit, side), sit.occupied[other(side)], sit.enemy_mines[side])
    traced = sit.board.traced
    if full in traced:
        return cast(T, traced[full])
    found = compute()
    if len(traced) >= TRACED_KEPT:
        traced.clear()
    traced[full] = found
    return found


def _blocked(sit: Situation, side: Side) -> frozenset[HexId]:
    """The hexes a ``side`` path may end in but never pass through: EZOC hexes without a friendly unit (§5.4.1) and
    unbreached enemy Minefields (§5.7.4, §5.8.2); once per position and side."""
    key = ("path_blocked", side)
    known = sit.memo.get(key)
    if not isinstance(known, frozenset):
        known = (sit.enemy_zone(side) - sit.occupied[side]) | sit.enemy_mines[side]
        sit.memo[key] = known
    return known


# --- command (§5.8) ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """A combat unit's command state (§5.8) and the path that gives it."""

    state: CommandState
    path: PathFound


def command_limit(sit: Situation, unit: str) -> int:
    """§5.8.4: the longest Command Path before Isolation: ``command_path_leg`` for leg units and Commonwealth heavy
    tanks ("MA of 3"), ``command_path_motorised`` for mot/mech units."""
    record = sit.board.units[unit]
    leg = record.movement == "leg" or record.is_heavy_tank
    return sit.board.pack.number("command_path_leg" if leg else "command_path_motorised")


def command(sit: Situation, unit: str) -> Command:
    """§5.8: In Command (a path no longer than the parent HQ's Command Range, counting the HQ's hex and not the
    unit's), Out of Command (longer, up to :func:`command_limit`), or Isolated (no unbroken path that short, or no
    HQ on the map). An unassigned independent unit is never Out of Command or Isolated (§5.8, §5.8.4)."""
    known = sit.memo.get(("command", unit))
    if isinstance(known, Command):
        return known
    found = _command(sit, unit)
    sit.memo["command", unit] = found
    return found


def _command(sit: Situation, unit: str) -> Command:
    board, position = sit.board, sit.position
    here = position.units[unit]
    formation = sit.formation(unit)
    if formation is None:
        return Command("in-command", PathFound((here,), 0))
    hq = board.hq_of[formation]
    hq_hex = position.hqs.get(hq.id)
    if hq_hex is None:
        return Command("isolated", NO_PATH)
    found = trace_path(sit, board.side[unit], here, lambda h: h == hq_hex, command_limit(sit, unit), target=hq_hex,
                       goal_key=("hq", hq_hex))  # fmt: skip
    if found.length is None:
        return Command("isolated", found)
    return Command("in-command" if found.length <= hq.command_range else "out-of-command", found)


def in_command(sit: Situation, unit: str) -> Verdict:
    """§5.8.3, §5.8.4: ALLOW for an In Command unit, else a refusal naming its state."""
    state = command(sit, unit).state
    if state == "out-of-command":
        return deny("5.8.3", "out-of-command", f"{unit} is Out of Command")
    if state == "isolated":
        return deny("5.8.4", "isolated", f"{unit} is Isolated")
    return ALLOW


# --- supply (§5.7) -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Supply:
    """A supply check's result (§5.7): the source kind that supplies (``major``, ``box``, ``tobruk``) or None, and
    the cross-country part of the path (tracer to the Road/Trail chain, or to the source)."""

    source: Literal["major", "box", "tobruk"] | None
    path: PathFound

    @property
    def ok(self) -> bool:
        return self.source is not None


def cross_country(sit: Situation, tracer: str) -> int:
    """§5.7.2: how far a tracer may go cross-country to a Road or Trail hex: a leg HQ must be on or adjacent to one
    (one hex), a mot/mech HQ its printed Command Range, an unassigned independent unit its undisrupted
    Effectiveness Rating."""
    board = sit.board
    hq = board.hqs.get(tracer)
    if hq is None:
        return board.units[tracer].eff.front
    return 1 if hq.type == "leg" else hq.command_range


def chain(sit: Situation, side: Side, sources: Collection[HexId]) -> dict[str, int]:
    """§5.7.2, §5.7.4: the Road/Trail hexes joined to ``sources`` by an unbroken chain of Road/Trail hexes along
    the roads (other terrain ignored), hex -> chain length. Kit ``trace`` over the board's route graph; once per
    position and set of sources."""
    key = ("chain", side, *sorted(sources))
    known = sit.memo.get(key)
    if isinstance(known, dict):
        return known
    zone = sit.enemy_zone(side)
    enemy = sit.occupied[other(side)]
    friendly = sit.occupied[side]

    def enter(hex_id: str) -> bool:
        h = HexId(hex_id)
        if h in enemy or sit.enemy_minefield(h, side):
            return False
        return h not in zone or h in friendly

    found = recall(sit, side, key, lambda: trace(sit.board.routes, sorted(sources), enter=enter))
    sit.memo[key] = found
    return found


def supply(sit: Situation, tracer: str) -> Supply:
    """§5.7: whether an HQ or an unassigned independent unit is in supply, and through which source.

    * Commonwealth Box (§5.7.3): a Commonwealth leg HQ or unassigned independent leg infantry unit on or adjacent
      to a friendly unbreached Box hex (:func:`~.minefields.box_supplies`);
    * Major (§5.7.2, §5.7.3): a cross-country path (:func:`cross_country`) to a Road/Trail hex of an unbroken chain
      to an unblocked friendly Major source not holding an enemy unit, or straight to the source;
    * Tobruk (§5.7.3): the same path to Tobruk, for a tracer inside the perimeter while its side owns Tobruk.

    Traced once per position and tracer (the end of every activation asks it of every HQ, §6.3).
    """
    known = sit.memo.get(("supply", tracer))
    if isinstance(known, Supply):
        return known
    found = _supply(sit, tracer)
    sit.memo["supply", tracer] = found
    return found


def _supply(sit: Situation, tracer: str) -> Supply:
    board, position = sit.board, sit.position
    side = board.side[tracer]
    here = position.hqs.get(tracer) or position.units[tracer]
    hq = board.hqs.get(tracer)
    unit = board.units.get(tracer)
    leg = (hq is not None and hq.type == "leg") or (unit is not None and unit.movement == "leg" and unit.is_infantry)
    if side == "cw" and leg:
        for h in (here, *board.grid.neighbours(here)):
            if h in board.boxes and board.mines[h].owner == side and box_supplies(sit, h):
                return Supply("box", PathFound((here, h), 0 if h == here else 1))
    enemy = sit.occupied[other(side)]
    reach = cross_country(sit, tracer)
    majors = [
        HexId(s.hex)
        for s in board.pack.supply_sources
        if s.side == side and s.kind == "major" and s.id not in position.blocked_sources and s.hex not in enemy
    ]
    network = chain(sit, side, majors)
    found = trace_path(sit, side, here, network.__contains__, reach, goal_key=("chain", *sorted(majors)))
    if found.length is not None:
        return Supply("major", found)
    tobruk = HexId(board.pack.tobruk.hex)
    if position.tobruk_owner == side and here in board.tobruk_inside and tobruk not in enemy:
        network = chain(sit, side, [tobruk])
        found = trace_path(sit, side, here, network.__contains__, reach, goal_key=("chain", tobruk))
        if found.length is not None:
            return Supply("tobruk", found)
    return Supply(None, NO_PATH)


def in_supply(sit: Situation, tracer: str) -> Verdict:
    """§5.7.5: ALLOW for a supplied tracer, else the refusal ``out-of-supply``."""
    if supply(sit, tracer).ok:
        return ALLOW
    return deny("5.7.5", "out-of-supply", f"{tracer} cannot trace a supply path")
