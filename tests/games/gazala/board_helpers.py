"""Positions on the real Gazala map for the board tests."""

from __future__ import annotations

from collections.abc import Iterable

from pbem.games.gazala.board import Position, Situation, board_of
from pbem.games.gazala.data import GazalaPack
from pbem.kit.hexes import HexId


def at(
    pack: GazalaPack,
    units: dict[str, str],
    hqs: dict[str, str] | None = None,
    *,
    disrupted: Iterable[str] = (),
    breached: Iterable[str] = (),
    blocked: Iterable[str] = (),
    tobruk: str = "cw",
    assigned: dict[str, str] | None = None,
) -> Situation:
    """A situation on the real map: unit id -> hex id."""
    position = Position(
        units={u: HexId(h) for u, h in units.items()},
        hqs={u: HexId(h) for u, h in (hqs or {}).items()},
        disrupted=frozenset(disrupted),
        breached=frozenset(HexId(h) for h in breached),
        blocked_sources=frozenset(blocked),
        tobruk_owner="axis" if tobruk == "axis" else "cw",
        assigned=assigned or {},
    )
    return Situation(board_of(pack), position)


def path(*hexes: str) -> list[HexId]:
    return [HexId(h) for h in hexes]
