"""Retreat paths (§7.5.2.2, §7.5.2.3): which hexes a retreating stack may enter, and which way is "towards home".

Retreat is not movement (no MPs). The combat module chooses among :func:`retreat_options`; these functions say
which steps are allowed and rank them by :func:`home_distance`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.games.gazala.board import Situation, other
from pbem.games.gazala.data import Side
from pbem.kit.hexes import HexId
from pbem.rules.contract import ALLOW, Verdict, deny


def retreat_step(sit: Situation, side: Side, here: HexId, there: HexId) -> Verdict:
    """§7.5.2.2: whether a ``side`` stack may retreat from ``here`` into ``there``, EZOCs aside (see
    :func:`retreat_options`). Refused: ``impassable`` (not a neighbour, off the map, the sea hexsides in Tobruk),
    ``enemy-occupied`` (HQs included), ``enemy-hq-adjacent`` (a hex next to an enemy HQ, even a lone one),
    ``ridge`` (a Ridge or Wadi hexside, unless via a Road or Trail), ``enemy-minefield`` (unbreached)."""
    board = sit.board
    hexside = board.grid.hexside(here, there) if here in board.grid and there in board.grid else None
    if hexside is None or hexside.id in board.prohibited:
        return deny("7.5.2.2", "impassable", f"{there} cannot be entered from {here}")
    enemy = other(side)
    if there in sit.occupied[enemy]:
        return deny("7.5.2.2", "enemy-occupied", f"{there} holds an enemy unit")
    enemy_hqs = {h for hq, h in sit.position.hqs.items() if board.side[hq] == enemy}
    if any(n in enemy_hqs for n in board.grid.neighbours(there)):
        return deny("7.5.2.2", "enemy-hq-adjacent", f"{there} is next to an enemy HQ")
    if hexside.id in board.path_ridges:
        return deny("7.5.2.2", "ridge", f"{here}/{there} is a Ridge or Wadi without a Road or Trail")
    if sit.enemy_minefield(there, side):
        return deny("7.5.2.2", "enemy-minefield", f"{there} is an unbreached enemy Minefield")
    return ALLOW


def home_distance(sit: Situation, side: Side, hex_id: HexId) -> int:
    """§7.5.2.2: hexes from ``hex_id`` to the nearer of the friendly map edge (``axis_edge`` / ``cw_edge``) and the
    nearest friendly unblocked Major supply source: a retreat goes "towards" home by lowering it."""
    board = sit.board
    col, _ = board.grid.offset(hex_id)
    first, last = board.pack.map.cols
    edge = board.pack.setting("axis_edge" if side == "axis" else "cw_edge")
    best = col - first if edge == "west" else last - col
    for source in board.pack.supply_sources:
        if source.side == side and source.kind == "major" and source.id not in sit.position.blocked_sources:
            best = min(best, board.grid.distance(hex_id, HexId(source.hex)))
    return best


@dataclass(frozen=True)
class RetreatOption:
    """A hex a retreat may enter, whether it is in an EZOC (a Forced Retreat's last resort, §7.5.2.3: an extra
    Strength Point loss), and its :func:`home_distance`."""

    hex: HexId
    ezoc: bool
    home: int


def retreat_options(sit: Situation, side: Side, here: HexId, *, forced: bool) -> tuple[RetreatOption, ...]:
    """§7.5.2.2, §7.5.2.3: the hexes a ``side`` stack in ``here`` may retreat into, nearest home first. EZOC hexes
    never, except in a Forced Retreat when no other hex is open. Empty: the stack cannot retreat (a Forced Retreat
    then costs two Strength Points per hex not entered)."""
    zone = sit.enemy_zone(side)
    open_hexes = [h for h in sit.board.grid.neighbours(here) if retreat_step(sit, side, here, h).ok]
    clear = [h for h in open_hexes if h not in zone]
    chosen = clear if clear or not forced else open_hexes
    options = [RetreatOption(h, h in zone, home_distance(sit, side, h)) for h in chosen]
    return tuple(sorted(options, key=lambda o: (o.home, o.hex)))
