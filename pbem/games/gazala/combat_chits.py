"""The combat-multiplier chits (§7.5.1 D, §7.5.1.2): two drawn at random per combat, returned afterwards.

Each combat draws two distinct chits from the container of 29 (one for the attacker, then one for the defender)
and puts both back when the combat is over, so every combat draws from the full pool. The draw is public as soon
as it is made (nothing about a chit is secret), and it is not a die: SNAFU never re-draws it (notes §10 B25).

Two ways to draw, equivalent in distribution, both over :func:`chit_pool` in its fixed order:

* **dice** (the protocol's committed dice): one die of ``len(pool)`` sides for the attacker, then one of
  ``len(pool) - 1`` for the defender, which counts among the chits left (:func:`draw_sizes`, :func:`chits_from_dice`);
* **cards** (a shared deck of ``len(pool)`` cards, PROTOCOL.md §14): card ``i`` is ``pool[i]``; the attacker's and
  the defender's cards are two distinct cards of a deck reshuffled for each combat (:func:`chits_from_cards`).

Example:
    >>> from pbem.games.gazala import default_pack_bytes, load_pack
    >>> pack = load_pack(default_pack_bytes())
    >>> draw_sizes(pack)
    (29, 28)
    >>> drawn = chits_from_dice(chit_pool(pack), 1, 20)  # the attacker's 1st chit, the defender's 20th of the 28 left
    >>> drawn.attacker.id, drawn.defender.id
    ('1', '21')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.games.gazala.data import Chit, GazalaPack

__all__ = ["ChitDraw", "chit_pool", "chits_from_cards", "chits_from_dice", "draw_sizes"]


def chit_pool(pack: GazalaPack, *, linear: bool = False) -> tuple[Chit, ...]:
    """The 29 chits of the container, by number (§7.5.1.2). ``linear``: the optional linear-distribution set (notes
    §9.2) replaces chits 10, 14, 15, 16, 17, 18 and 29 with A10…A29."""
    alternates = {c.number: c for c in pack.chits if c.alternate} if linear else {}
    standard = sorted((c for c in pack.chits if not c.alternate), key=lambda c: c.number)
    return tuple(alternates.get(c.number, c) for c in standard)


def draw_sizes(pack: GazalaPack) -> tuple[int, int]:
    """The dice that draw a combat's chits: the attacker's d29, then the defender's d28 (``chits_per_side`` each,
    without replacement)."""
    count = pack.number("chits")
    return count, count - pack.number("chits_per_side")


@dataclass(frozen=True)
class ChitDraw:
    """The two chits of one combat: the attacker's and the defender's (§7.5.1 D)."""

    attacker: Chit
    defender: Chit


def chits_from_dice(pool: Sequence[Chit], attacker_face: int, defender_face: int) -> ChitDraw:
    """The chits drawn by a d``len(pool)`` (the attacker's, 1-based) and a d``len(pool)-1`` (the defender's, counted
    among the chits the attacker did not draw). ValueError for a face off its die."""
    if not 1 <= attacker_face <= len(pool) or not 1 <= defender_face <= len(pool) - 1:
        raise ValueError(f"chit faces {attacker_face}, {defender_face} are off a d{len(pool)} and a d{len(pool) - 1}")
    left = [c for i, c in enumerate(pool) if i != attacker_face - 1]
    return ChitDraw(pool[attacker_face - 1], left[defender_face - 1])


def chits_from_cards(pool: Sequence[Chit], attacker_card: int, defender_card: int) -> ChitDraw:
    """The chits of two distinct cards (0-based) of a deck of ``len(pool)`` cards. ValueError otherwise."""
    cards = range(len(pool))
    if attacker_card not in cards or defender_card not in cards or attacker_card == defender_card:
        raise ValueError(f"cards {attacker_card} and {defender_card} are not two cards of a {len(pool)}-card deck")
    return ChitDraw(pool[attacker_card], pool[defender_card])
