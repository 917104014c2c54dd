"""Land combat of *Axis & Allies: North Africa* before and around the fire: air defense and the defender's
fight-or-retreat orders (pp.19-20, p.31).

* p.19, p.31 *Air Defense*: before the first round of a land combat, the defender's units with Air Defense fire
  the lesser of the attacking air units and the pack's ``air_defense_shots_per_unit`` per such unit, hitting at
  ``air_defense_hit`` or less; the attacker picks the air units lost. It needs no supply and fires even if the
  defenders retreat (p.20).
* p.20 step 1: the defender fights (spending exactly the pack's ``defense_supply`` token from the territory or a
  friendly or neutral neighbour, :mod:`.supply`) or retreats. Air, scout car and French units are exempt: if all
  are, no supply may be spent and they simply choose; in a mixed force they fight if the others fight, and all
  make one choice if the others retreat. Vichy French units never retreat (p.29).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.games.axisallies.combat_fire import has
from pbem.games.axisallies.combat_types import Battle, Hit, Piece, Units
from pbem.games.axisallies.data import AxisAlliesPack
from pbem.games.axisallies.position import Position, enemy
from pbem.games.axisallies.supply import check_payment, exempt_from_defense_supply, sources
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "Orders",
    "air_defense_dice",
    "air_defense_hits",
    "air_defense_volley",
    "check_orders",
    "fighting",
    "is_exempt",
    "is_vichy",
    "orders_options",
    "retreating",
]


def _air(pack: AxisAlliesPack, units: Units) -> dict[Piece, int]:
    return {k: n for k, n in sorted(units.items()) if n > 0 and pack.unit(*k).category == "air"}


def air_defense_dice(pack: AxisAlliesPack, battle: Battle) -> int:
    """p.31: the air defense dice before the first round of a land combat: the lesser of the attacking air
    units and ``air_defense_shots_per_unit`` times the defending units with *Air Defense* (0 at sea, after
    round 1, or without air attackers)."""
    if battle.kind != "land" or battle.round != 1:
        return 0
    guns = sum(n for k, n in battle.defenders.items() if n > 0 and has(pack, k, "air_defense"))
    planes = sum(_air(pack, battle.air_sea).values())
    return min(planes, guns * pack.limit("air_defense_shots_per_unit"))


def air_defense_hits(pack: AxisAlliesPack, faces: Sequence[int]) -> int:
    """p.31: each air defense die at or under ``air_defense_hit`` destroys an attacking air unit."""
    return sum(1 for f in faces if f <= pack.limit("air_defense_hit"))


def air_defense_volley(pack: AxisAlliesPack, battle: Battle, hits: int) -> tuple[Hit, ...]:
    """p.31: the air defense hits, which fall on attacking air units only (the attacker chooses which; check
    the choice with :func:`.combat_casualties.check_casualties` on the attacker's air units, rule ``"31"``)."""
    air = frozenset(_air(pack, battle.air_sea))
    return (Hit(hits, air),) if hits > 0 and air else ()


@dataclass(frozen=True)
class Orders:
    """p.20 step 1: the defender's combat orders for one round.

    Attributes:
        fight: whether the units that need supply fight (when every defender is exempt: whether all fight).
        exempt_stay: when the units that need supply retreat, the exempt ones stay and fight (False: they
            retreat too); only open to a force of both kinds.
        payment: territory -> supply tokens spent to fight (exactly the pack's ``defense_supply``, or none).
    """

    fight: bool
    exempt_stay: bool = False
    payment: Mapping[str, int] = field(default_factory=dict)


def is_exempt(pack: AxisAlliesPack, piece: Piece) -> bool:
    """p.20: air, scout car and French units defend without supply (the *Self-Sufficient*, pp.30-32)."""
    return exempt_from_defense_supply(pack.unit(*piece))


def is_vichy(battle: Battle, piece: Piece) -> bool:
    """p.29: a French piece defending against the Allies is Vichy French (French units fight for one side)."""
    return piece[0] == "france" and battle.attacker == "allies"


def _vichy_may_retreat(pack: AxisAlliesPack) -> bool:
    return next(a for a in pack.allegiances if a.id == "vichy").can_retreat


def check_orders(pack: AxisAlliesPack, position: Position, battle: Battle, orders: Orders) -> Verdict:
    """p.20: whether the defender may give ``orders`` this round (supply from :func:`.supply.sources`)."""
    side = enemy(battle.attacker)
    pieces = [k for k, n in sorted(battle.defenders.items()) if n > 0]
    needy = [k for k in pieces if not is_exempt(pack, k)]
    exempt = [k for k in pieces if is_exempt(pack, k)]
    if orders.exempt_stay and (orders.fight or not needy or not exempt):
        return deny("20", "exempt-choice-not-open", "exempt units choose apart only when the others retreat")
    if not needy:
        if any(n for n in orders.payment.values()):
            return deny("20", "supply-not-allowed", "every defender is exempt: no supply may be spent")
    elif orders.fight:
        verdict = check_payment(
            pack, position, battle.space, side, pack.limit("defense_supply"), orders.payment, rule="20"
        )
        if not verdict.ok:
            return verdict
    elif any(n for n in orders.payment.values()):
        return deny("20", "supply-not-allowed", "retreating defenders spend no supply")
    chosen = orders.fight or orders.exempt_stay
    if not chosen and not _vichy_may_retreat(pack) and any(is_vichy(battle, k) for k in exempt):
        return deny("29", "vichy-cannot-retreat", "Vichy French units cannot retreat")
    return ALLOW


def fighting(pack: AxisAlliesPack, battle: Battle, orders: Orders) -> dict[Piece, int]:
    """The defenders that fight this round under ``orders`` (those that fire in step 3, p.22)."""
    return {k: n for k, n in sorted(battle.defenders.items()) if n > 0 and _fights(pack, battle, orders, k)}


def retreating(pack: AxisAlliesPack, battle: Battle, orders: Orders) -> dict[Piece, int]:
    """The defenders that retreat this round: they do not fire and leave in step 4 if they survive (p.20)."""
    return {k: n for k, n in sorted(battle.defenders.items()) if n > 0 and not _fights(pack, battle, orders, k)}


def _fights(pack: AxisAlliesPack, battle: Battle, orders: Orders, piece: Piece) -> bool:
    if not is_exempt(pack, piece):
        return orders.fight
    if any(not is_exempt(pack, k) for k, n in battle.defenders.items() if n > 0):
        return orders.fight or orders.exempt_stay
    return orders.fight


def orders_options(pack: AxisAlliesPack, position: Position, battle: Battle) -> tuple[Orders, ...]:
    """Every legal :class:`Orders` this round (one per territory supply may come from), for prompts."""
    side = enemy(battle.attacker)
    due = pack.limit("defense_supply")
    candidates = [Orders(True), Orders(False), Orders(False, exempt_stay=True)]
    candidates += [
        Orders(True, payment={t: due}) for t, n in sources(pack, position, battle.space, side).items() if n >= due
    ]
    return tuple(o for o in candidates if check_orders(pack, position, battle, o).ok)
