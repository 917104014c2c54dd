"""Seats of *Axis & Allies: North Africa* (p.7): who plays which powers with 2, 3 or 4 players.

A player controls powers of one side only, and plays each of its powers' turns separately (p.7). The pack's
``seating`` table gives, for 2, 3 and 4 players, the seats and their powers; a contract scenario exists for each
(pack scenario, number of players), named ``<scenario>-<n>p``. A seat's team is its side, so:

* **Dice quorum** (contract v2, PROTOCOL.md §6.3.1): the recommended genesis quorum is ``teams``: a roll of the
  Axis is answered by one Allied seat (the first in roster order that has not resigned) and the reverse; with
  ``opponents`` every seat of the other side answers. Both keep the entropy out of the mover's side.
* **Resignation** (:func:`on_resign`, a RULING: the rulebook is silent): in a team game the resigning seat's
  powers pass to the first seat of its side still playing, who plays them from then on; a seat with no partner
  left ends the game, won by the other side.
* France has no seat: Vichy pieces are decided by Germany's seat and Free French by the United States' (p.29).
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.games.axisallies.data import AxisAlliesPack
from pbem.rules.contract import Scenario, SeatSpec

__all__ = [
    "PLAYER_COUNTS",
    "contract_scenarios",
    "parse_scenario",
    "seat_table",
    "successor",
]

PLAYER_COUNTS = (2, 3, 4)


def seat_table(pack: AxisAlliesPack, players: int) -> dict[str, str]:
    """p.7: power -> seat for ``players`` players (KeyError for another number)."""
    return {power: seat.id for seat in pack.seats(players) for power in seat.powers}


def _name(pack: AxisAlliesPack, powers: tuple[str, ...]) -> str:
    return " and ".join(pack.power(p).name for p in powers)


def contract_scenarios(pack: AxisAlliesPack) -> tuple[Scenario, ...]:
    """One contract scenario per (pack scenario, number of players), seats in the seat table's order."""
    found = []
    for scenario in pack.scenarios:
        for players in PLAYER_COUNTS:
            seats = tuple(
                SeatSpec(
                    id=seat.id,
                    name=_name(pack, seat.powers),
                    team=pack.power(seat.powers[0]).side or "",
                )
                for seat in pack.seats(players)
            )
            found.append(
                Scenario(
                    id=f"{scenario.id}-{players}p",
                    name=f"{scenario.name}, {players} players",
                    seats=seats,
                    description=f"{scenario.date}; rounds {scenario.start_round}-{scenario.end_round}",
                )
            )
    return tuple(found)


def parse_scenario(ident: str) -> tuple[str, int]:
    """(pack scenario id, players) of a contract scenario id such as ``rommels_last_push-2p``.

    Raises:
        ValueError: the id does not end in ``-<n>p`` with n a supported number of players.
    """
    base, _, tail = ident.rpartition("-")
    if not base or not tail.endswith("p") or not tail[:-1].isdigit() or int(tail[:-1]) not in PLAYER_COUNTS:
        raise ValueError(f"{ident!r} is not <scenario>-<2|3|4>p")
    return base, int(tail[:-1])


def successor(
    seats: Mapping[str, str],
    sides: Mapping[str, str],
    resigned: str,
    gone: frozenset[str],
) -> str | None:
    """RULING (resignation in a team game): the seat that takes over ``resigned``'s powers: the first other seat of
    its side, in turn order of the powers, that has not resigned (``gone``); None if there is none.

    Args:
        seats: power -> seat, in turn order.
        sides: power -> side.
    """
    side = next((sides[p] for p, s in seats.items() if s == resigned), None)
    for power, seat in seats.items():
        if seat != resigned and seat not in gone and sides[power] == side:
            return seat
    return None
