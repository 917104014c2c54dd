"""Land combat of *Axis & Allies: North Africa* around the fire: air defense, supply strikes, the defender's
fight-or-retreat orders, its retreats and the Vichy surrender (pp.19-22, 29, 31, 33).

* p.19, p.31 *Air Defense*: before the first round of a land combat, the defender's units with Air Defense fire
  the lesser of the attacking air units and the pack's ``air_defense_shots_per_unit`` per such unit, hitting at
  ``air_defense_hit`` or less; the attacker picks the air units lost. It needs no supply and fires even if the
  defenders retreat (p.20).
* p.20 step 1: the defender fights (spending exactly the pack's ``defense_supply`` token from the territory or a
  friendly or neutral neighbour, :mod:`.supply`) or retreats. Air, scout car and French units are exempt: if all
  are, no supply may be spent and they simply choose; in a mixed force they fight if the others fight, and all
  make one choice if the others retreat. Vichy French units never retreat (p.29).
* p.31, p.33: scout cars (*Supply Raider*) and bombers (*Collateral Damage*) may each destroy 1 supply token
  in the attacked territory before the first attack dice; p.19: against AAA alone there is no fight.
* p.22 step 4: surviving retreating defenders move to adjacent friendly or neutral territories not attacked by
  land units nor blitzed through this turn, within stacking limits, or are destroyed.
* p.29: Vichy French defending alone who score no hit in a round surrender and become Free French.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.games.axisallies.combat_fire import has
from pbem.games.axisallies.combat_types import Battle, Hit, Piece, Units, total
from pbem.games.axisallies.data import AxisAlliesPack, Scenario
from pbem.games.axisallies.movement import retreat_destinations
from pbem.games.axisallies.position import Position, combat_units, enemy
from pbem.games.axisallies.supply import check_payment, exempt_from_defense_supply, sources
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "Orders",
    "aaa_destroyed",
    "air_defense_dice",
    "air_defense_hits",
    "air_defense_volley",
    "check_orders",
    "check_retreats",
    "check_supply_strikes",
    "fighting",
    "is_exempt",
    "is_vichy",
    "needs_fight",
    "orders_options",
    "retreat_room",
    "retreating",
    "supply_strikes",
    "surrenders",
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


# --- before the first round: supply strikes and territories without a fight (p.19, p.31, p.33) -------------


def supply_strikes(pack: AxisAlliesPack, position: Position, battle: Battle) -> tuple[str, ...]:
    """pp.31, 33: the characteristics that let the attacker destroy 1 supply token in the attacked territory
    immediately before the first round's attack dice (so after the defender's orders of step 1, which may
    already have spent a token): *Supply Raider* with an attacking scout car,
    *Collateral Damage* with an attacking bomber (after air defense: not if all were shot down); each once,
    whatever the number of such units, and only while the territory holds supply (each destroys a token, so
    with fewer tokens than characteristics the attacker picks which to use, :func:`check_supply_strikes`).

    Args:
        position: the board before any strike of this combat (the tokens the strikes may destroy)."""
    if battle.kind != "land" or battle.round != 1:
        return ()
    attackers = battle.attackers()
    found = [
        ability
        for ability in ("supply_raider", "collateral_damage")
        if any(n > 0 and has(pack, k, ability) for k, n in attackers.items())
    ]
    return tuple(found) if position.supply_in(battle.space) else ()


def check_supply_strikes(pack: AxisAlliesPack, position: Position, battle: Battle, used: Sequence[str]) -> Verdict:
    """pp.31, 33: whether the attacker may use the supply strikes ``used`` (each destroys 1 supply token, so no
    more of them than tokens in the territory; ``position`` is the board before any of them)."""
    open_ = list(supply_strikes(pack, position, battle))
    for i, ability in enumerate(used):
        rule = "31" if ability == "supply_raider" else "33"
        if ability not in open_:
            return deny(rule, "no-supply-strike", f"{ability} cannot destroy supply in {battle.space} now")
        if i >= position.supply_in(battle.space):
            return deny(rule, "no-supply-left", f"{battle.space} holds no more supply to destroy")
        open_.remove(ability)
    return ALLOW


def needs_fight(pack: AxisAlliesPack, battle: Battle) -> bool:
    """p.19: whether rounds of combat are fought: the defenders have combat units other than AAA (those with
    *No Defense Value*); otherwise any AAA fires and the combat goes straight to step 6."""
    return any(n > 0 and not has(pack, k, "no_defense_value") for k, n in battle.defenders.items())


def aaa_destroyed(pack: AxisAlliesPack, battle: Battle) -> bool:
    """p.31: in a combat without a fight (:func:`needs_fight`), whether the AAA there is destroyed after air
    defense: always against land units, against air units alone only if one survived (``battle`` after the
    air defense casualties)."""
    if needs_fight(pack, battle):
        return False
    return any(n > 0 for units in battle.land.values() for n in units.values()) or any(
        n > 0 for n in battle.air_sea.values()
    )


# --- step 4: the defender's retreats (p.22) and the Vichy surrender (p.29) -----------------------------------


def retreat_room(pack: AxisAlliesPack, position: Position, territory: str, side: str) -> int:
    """p.22: how many more combat land and air units of ``side`` ``territory`` can take before its stacking
    limit (trucks never count, p.10)."""
    units = combat_units(pack, position, territory, side)
    used = sum(n for k, n in units.items() if pack.unit(*k).category in ("land", "air"))
    return max(pack.territory(territory).stacking_limit - used, 0)


def check_retreats(
    pack: AxisAlliesPack,
    scenario: Scenario,
    position: Position,
    battle: Battle,
    survivors: Units,
    moves: Mapping[str, Units],
    *,
    land_attacked: frozenset[str],
    blitzed: frozenset[str],
) -> Verdict:
    """p.22 step 4: whether the defender may move its retreating ``survivors`` as ``moves`` (territory ->
    pieces): each piece to one of :func:`.movement.retreat_destinations` (adjacent, friendly or neutral, not
    attacked by land units or blitzed through this turn), no territory past its stacking limit; a piece left
    behind is destroyed, which only a piece with no room anywhere may be."""
    side = enemy(battle.attacker)
    sent: dict[Piece, int] = {}
    for there, units in sorted(moves.items()):
        for piece, n in sorted(units.items()):
            if n <= 0:
                continue
            options = retreat_destinations(
                pack, scenario, position, battle.space, *piece, land_attacked=land_attacked, blitzed=blitzed
            )
            if there not in options:
                return deny("22", "bad-retreat", f"{piece[0]} {piece[1]} cannot retreat from {battle.space} to {there}")
            sent[piece] = sent.get(piece, 0) + n
        if total(units) > retreat_room(pack, position, there, side):
            return deny("22", "retreat-over-stacking", f"{there} cannot take {total(units)} more units")
    for piece, n in sorted(sent.items()):
        if n > survivors.get(piece, 0):
            return deny("22", "not-retreating", f"only {survivors.get(piece, 0)} {piece[0]} {piece[1]} retreat")
    for piece, n in sorted(survivors.items()):
        if n <= sent.get(piece, 0):
            continue
        options = retreat_destinations(
            pack, scenario, position, battle.space, *piece, land_attacked=land_attacked, blitzed=blitzed
        )
        if any(total(moves.get(t, {})) < retreat_room(pack, position, t, side) for t in options):
            return deny("22", "retreat-possible", f"{piece[0]} {piece[1]} can still retreat, so it may not stay")
    return ALLOW


def surrenders(pack: AxisAlliesPack, battle: Battle, defender_hits: int) -> bool:
    """p.29: Vichy French defending alone against an Allied attack that score no hit in a round surrender at
    the end of step 4: the survivors become Free French and the combat ends (casualties still die)."""
    vichy = next(a for a in pack.allegiances if a.id == "vichy")
    pieces = [k for k, n in battle.defenders.items() if n > 0]
    return (
        vichy.surrenders_on_zero_hits
        and defender_hits == 0
        and bool(pieces)
        and all(is_vichy(battle, k) for k in pieces)
    )
