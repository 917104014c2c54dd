"""Taking casualties off a :class:`~.combat_types.Battle` (pp.21-22, 33).

Casualty legality depends only on the (power, type) of the pieces hit (:mod:`.combat_casualties`), but an
attacker's land units are kept per origin: which origin loses a tank decides flanking (p.19) and each origin's
supply to press (p.23). So the attacker names its losses per origin in :class:`Losses`; :func:`check_losses`
judges them, and :func:`take_losses` removes them, damaging battleships before sinking them (p.33). Hits on
:data:`~.combat_types.TRANSPORT` are resolved on the cargo (:mod:`.combat_sea`), not here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from pbem.games.axisallies.combat_casualties import apply_hits, check_casualties
from pbem.games.axisallies.combat_fire import casualty_pool, two_hit_pieces
from pbem.games.axisallies.combat_types import TRANSPORT, Battle, Hit, Piece, Role, Units, add, total
from pbem.games.axisallies.data import AxisAlliesPack
from pbem.rules.contract import Verdict, deny

__all__ = ["Losses", "check_losses", "take_losses", "total_land"]


@dataclass(frozen=True)
class Losses:
    """The hit points one side takes: attacking land units per origin, every other piece in ``other``
    (attacking air and sea units, or any defender, :data:`~.combat_types.TRANSPORT` included).

    Attributes:
        land: origin -> attacking land pieces lost there.
        other: piece -> hit points taken (a battleship takes one per hit, p.33).
    """

    land: Mapping[str, Units] = field(default_factory=dict)
    other: Units = field(default_factory=dict)

    def combined(self) -> dict[Piece, int]:
        """All hit points taken, origins added up: what :func:`.combat_casualties.check_casualties` judges."""
        out: dict[Piece, int] = {}
        for units in self.land.values():
            out = add(out, units)
        return add(out, self.other)


def check_losses(
    pack: AxisAlliesPack, battle: Battle, role: Role, hits: Sequence[Hit], losses: Losses, *, rule: str
) -> Verdict:
    """Whether ``role`` may answer ``hits`` with ``losses``: each origin holds the land units it loses (only an
    attacker has origins), and the whole choice is legal (:func:`.combat_casualties.check_casualties`)."""
    if role == "defender" and total_land(losses):
        return deny(rule, "casualty-not-present", "defending losses have no origin")
    for origin, units in sorted(losses.land.items()):
        for piece, n in sorted(units.items()):
            if n < 0 or n > battle.land.get(origin, {}).get(piece, 0):
                held = battle.land.get(origin, {}).get(piece, 0)
                return deny(rule, "casualty-not-present", f"{origin} holds {held} {piece[0]} {piece[1]}, {n} lost")
    if role == "attacker" and any(_is_land(pack, k) for k, n in losses.other.items() if n):
        return deny(rule, "casualty-origin", "name the origin of each attacking land unit lost")
    return check_casualties(hits, casualty_pool(pack, battle, role), losses.combined(), rule=rule)


def total_land(losses: Losses) -> int:
    """The land units named per origin."""
    return sum(total(u) for u in losses.land.values())


def _is_land(pack: AxisAlliesPack, piece: Piece) -> bool:
    return piece != TRANSPORT and pack.unit(*piece).category == "land"


def take_losses(pack: AxisAlliesPack, battle: Battle, role: Role, losses: Losses) -> Battle:
    """The combat with ``losses`` (checked with :func:`check_losses`) taken off ``role``'s pieces; hits on
    transports are left to the cargo."""
    other = {k: n for k, n in losses.other.items() if k != TRANSPORT}
    if role == "defender":
        two_hit = two_hit_pieces(pack, battle.defenders)
        defenders, damaged = apply_hits(battle.defenders, battle.damaged, other, two_hit)
        return replace(battle, defenders=defenders, damaged={**_others(battle.damaged, two_hit), **damaged})
    land = {}
    for origin, units in battle.land.items():
        left, _ = apply_hits(units, {}, losses.land.get(origin, {}), frozenset())
        if left:
            land[origin] = left
    two_hit = two_hit_pieces(pack, battle.air_sea)
    air_sea, damaged = apply_hits(battle.air_sea, battle.damaged, other, two_hit)
    return replace(battle, land=land, air_sea=air_sea, damaged={**_others(battle.damaged, two_hit), **damaged})


def _others(damaged: Units, mine: frozenset[Piece]) -> dict[Piece, int]:
    """The damaged pieces of the other side (``damaged`` holds both sides')."""
    return {k: n for k, n in damaged.items() if k not in mine and n > 0}
