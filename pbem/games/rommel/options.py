"""Turn Options (§4): what the real cards committed face down pay for, and what a turn has used.

Every cost comes from the pack's ``tables.limits`` (``cost_basic`` …, ``moves_basic`` …). A card is real when its
number is below the pack's count of real cards (the deck's cards are numbered real first, then dummies).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.rommel.schema import RommelPack

__all__ = ["cost_of_moves", "is_real", "moves_paid", "real_count"]


def is_real(pack: RommelPack, card: int) -> bool:
    """Whether supply card ``card`` is a real card (the rest are dummies, §16.6)."""
    return 0 <= card < pack.deck.real


def real_count(pack: RommelPack, cards: Sequence[int | None]) -> int | None:
    """How many of ``cards`` are real; None if some card's value is not known to this replay."""
    if any(c is None for c in cards):
        return None
    return sum(1 for c in cards if c is not None and is_real(pack, c))


def moves_paid(pack: RommelPack, real: int) -> int:
    """§4.1, §4.2: the Moves ``real`` real cards pay for in the Movement phase (Basic 1, Offensive 2; a Pass none)."""
    if real >= pack.limit("cost_offensive"):
        return pack.limit("moves_offensive")
    if real >= pack.limit("cost_basic"):
        return pack.limit("moves_basic")
    return 0


def cost_of_moves(pack: RommelPack, moves: int) -> int:
    """§4: the real cards a turn with ``moves`` Moves costs (none: a Pass, §4.5)."""
    if moves >= pack.limit("moves_offensive"):
        return pack.limit("cost_offensive")
    if moves >= pack.limit("moves_basic"):
        return pack.limit("cost_basic")
    return pack.limit("cost_pass")
