"""Mine token detonation of *Axis & Allies: North Africa* (pp.26-27; quick reference).

* Land mines (p.26): tokens show 1 or 2 mine icons and sit on one border of a territory. They are active only in
  a territory with a control marker or combat units; its controller owns them, else the power with the most
  combat units there, and on a tie both together (they detonate only if both agree, the lower number if they
  disagree on it). Only the enemies of the acting power detonate. The owner removes tokens showing the icons
  detonated (a "2 mines" token may flip to "1 mine") and rolls the pack's ``land_mine_dice_per_icon`` per icon;
  each die at or under ``land_mine_hit`` turns one land unit crossing that border aside (not destroyed); the
  acting player chooses which.
* Sea mines (p.27): always active, detonated by the owning power only; 1 die per token at or under
  ``sea_mine_hit`` is a hit the acting player applies to its sea units (transports included) that moved or were
  deployed into the zone: combat units are destroyed (a battleship takes two), a transport hit costs two pieces
  of cargo (:mod:`.combat_sea`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pbem.games.axisallies.combat_types import Hit, Piece, Units, total
from pbem.games.axisallies.data import AxisAlliesPack
from pbem.games.axisallies.position import Position, combat_units, controller, side_of
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "after_detonation",
    "check_detonation",
    "check_sea_detonation",
    "check_turned_back",
    "joint_icons",
    "land_mine_owners",
    "mine_dice",
    "mine_hits",
    "sea_mine_volley",
]


def land_mine_owners(pack: AxisAlliesPack, position: Position, territory: str) -> tuple[str, ...]:
    """p.26: the power(s) owning the land mines of ``territory``: its controller, else the power with the most
    combat units there, several when tied (jointly); none while it holds neither marker nor combat units
    (inactive: they may be captured)."""
    owner = controller(pack, position, territory)
    if owner is not None:
        return (owner,)
    counts: dict[str, int] = {}
    for side in ("axis", "allies"):
        for (power, _), n in combat_units(pack, position, territory, side).items():
            counts[power] = counts.get(power, 0) + n
    if not counts:
        return ()
    top = max(counts.values())
    return tuple(sorted(p for p, n in counts.items() if n == top))


def check_detonation(
    pack: AxisAlliesPack,
    position: Position,
    territory: str,
    tokens: Sequence[int],
    icons: int,
    *,
    acting: str,
) -> Verdict:
    """p.26: whether the owners of ``territory``'s mines may detonate ``icons`` of the ``tokens`` on the border
    crossed while ``acting`` moves or attacks across it."""
    owners = land_mine_owners(pack, position, territory)
    if not owners:
        return deny("26", "mines-inactive", f"the mines of {territory} are inactive (no marker, no combat units)")
    acting_side = pack.power(acting).side
    if any(side_of(pack, position, o, territory) == acting_side for o in owners):
        return deny("26", "own-turn", "mines are detonated only during enemy powers' turns")
    if not 1 <= icons <= sum(tokens):
        return deny("26", "too-many-mines", f"{sum(tokens)} mine icons on the border, {icons} detonated")
    return ALLOW


def check_sea_detonation(pack: AxisAlliesPack, owner: str, acting: str, tokens: int, detonated: int) -> Verdict:
    """p.27: whether ``owner`` may detonate ``detonated`` of its ``tokens`` sea mines in a zone that ``acting``
    entered or deployed into: sea mines are always active, but only their power detonates them, and only
    during an enemy power's turn (p.26)."""
    if pack.power(owner).side == pack.power(acting).side:
        return deny("26", "own-turn", "mines are detonated only during enemy powers' turns")
    if not 1 <= detonated <= tokens:
        return deny("27", "too-many-mines", f"{owner} has {tokens} sea mine tokens here, {detonated} detonated")
    return ALLOW


def joint_icons(wishes: Sequence[int]) -> int:
    """p.26: mines owned jointly on a tie detonate only if every owner agrees; if they disagree only on the
    number, the lowest wish is detonated (0 from any owner: none)."""
    return min(wishes, default=0)


def after_detonation(tokens: Sequence[int], icons: int) -> tuple[int, ...]:
    """p.26: the tokens left on a border after ``icons`` are detonated.

    RULING: the "1 mine" token goes first, then "2 mines" tokens are removed, and an odd icon flips one to
    "1 mine". The text says "remove tokens showing that total number of mine icons from the border. A '2 mines'
    token may be partially detonated by flipping it to its '1 mine' side" (p.26): the owner "rolls 3 dice for
    each mine icon removed", so which tokens carry the icons never changes the dice nor the icons left; this
    order also leaves the fewest tokens on the border (a border holds one "1 mine" token at most, p.14), so the
    owner is not asked.
    """
    left = sorted(tokens)
    remaining = icons
    while remaining > 0 and left:
        if left[0] == 1 or remaining >= 2:
            remaining -= left.pop(0)
        else:
            left[-1] = 1
            remaining = 0
    return tuple(sorted(left, reverse=True))


def mine_dice(pack: AxisAlliesPack, kind: Literal["land", "sea"], detonated: int) -> int:
    """QR, pp.26-27: the dice for ``detonated`` land mine icons or sea mine tokens."""
    return detonated * pack.limit("land_mine_dice_per_icon" if kind == "land" else "sea_mine_dice_per_token")


def mine_hits(pack: AxisAlliesPack, kind: Literal["land", "sea"], faces: Sequence[int]) -> int:
    """QR, pp.26-27: the hits among mine dice (at or under ``land_mine_hit`` / ``sea_mine_hit``)."""
    need = pack.limit("land_mine_hit" if kind == "land" else "sea_mine_hit")
    return sum(1 for f in faces if f <= need)


def check_turned_back(crossing: Units, hits: int, turned: Units) -> Verdict:
    """p.26: the acting player turns aside one land unit crossing the border per hit (all of them if fewer)."""
    for piece, n in sorted(turned.items()):
        if n < 0 or n > crossing.get(piece, 0):
            return deny("26", "not-crossing", f"{piece[0]} {piece[1]} is not crossing that border")
    want = min(hits, total(crossing))
    if total(turned) != want:
        return deny("26", "turned-back-count", f"{want} units must be turned back, {total(turned)} chosen")
    return ALLOW


def sea_mine_volley(pool: Units, hits: int) -> tuple[Hit, ...]:
    """p.27: sea mine hits, which may fall on any unit that entered the zone (``pool``: its hit points, with
    :data:`~.combat_types.TRANSPORT` for newly deployed cargo); judge the choice with
    :func:`.combat_casualties.check_casualties`, rule ``"27"``."""
    pieces: frozenset[Piece] = frozenset(k for k, n in pool.items() if n > 0)
    return (Hit(hits, pieces),) if hits > 0 and pieces else ()
