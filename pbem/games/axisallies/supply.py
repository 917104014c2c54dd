"""Supply of *Axis & Allies: North Africa*: who may use which tokens, and what attacks and defences cost (pp.18-20).

Supply is not traced along lines: a land attack or defence takes its tokens from the territory itself or from a
friendly or neutral territory adjacent to it (p.18, p.20), and tokens on land may be used only by the side that
controls or occupies their territory, or by anyone if it is neutral (p.18). :func:`sources` finds those
territories with the kit's :func:`~pbem.kit.graph.trace` (one land step). Every number comes from the pack.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.games.axisallies.data import AxisAlliesPack, Scenario, UnitType
from pbem.games.axisallies.movement import may_enter
from pbem.games.axisallies.position import Position, combat_units, controller, enemy, graph_of, side_of, status
from pbem.kit.graph import trace
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "attack_supply_due",
    "check_land_attack",
    "check_payment",
    "defense_supply_due",
    "exempt_from_attack_supply",
    "exempt_from_defense_supply",
    "sources",
    "usable_by",
]


def usable_by(pack: AxisAlliesPack, position: Position, territory: str, side: str) -> bool:
    """p.18: supply tokens in a territory controlled by and/or containing combat units of a power may be used only
    by that side; tokens in a neutral territory by any power. Combat units outweigh a marker (notes §10.22: Torch
    supply in a Vichy territory held by US units is Allied)."""
    if combat_units(pack, position, territory, side):
        return True
    if combat_units(pack, position, territory, enemy(side)):
        return False
    owner = controller(pack, position, territory)
    return owner is None or side_of(pack, position, owner, territory) == side


def sources(pack: AxisAlliesPack, position: Position, territory: str, side: str) -> dict[str, int]:
    """pp.18, 20: where ``side`` may take supply for an attack out of, or a defence of, ``territory``: the
    territory itself and the adjacent territories friendly or neutral to the side, each holding usable tokens.

    Returns:
        Territory -> supply points there that ``side`` may spend (only territories with some).
    """
    graph = graph_of(pack)
    if territory not in graph.nodes or graph.kind(territory) != "land":
        return {}
    near = trace(
        graph,
        [territory],
        enter=lambda t: graph.kind(t) == "land" and status(pack, position, t, side) != "hostile",
        cross=lambda e: e.type == "land",
        max_length=1,
        backwards=False,
    )
    return {
        t: position.supply_in(t)
        for t in sorted(near)
        if position.supply_in(t) > 0 and usable_by(pack, position, t, side)
    }


def exempt_from_attack_supply(unit: UnitType) -> bool:
    """p.18, p.31 *Hit and Run*: scout cars need no supply to attack and are not counted."""
    return any(a.id == "hit_and_run" for a in unit.abilities)


def exempt_from_defense_supply(unit: UnitType) -> bool:
    """p.20: air, scout car and French units (the *Self-Sufficient*, p.30-32) defend without supply."""
    return unit.category == "air" or any(a.id == "self_sufficient" for a in unit.abilities)


def _unit(pack: AxisAlliesPack, power: str, name: str) -> UnitType:
    """The chart row of an attacker named by type (``power``'s) or by ``"power:type"`` (an operated piece)."""
    if ":" in name:
        other, _, type_ = name.partition(":")
        return pack.unit(other, type_)
    return pack.unit(power, name)


def attack_supply_due(pack: AxisAlliesPack, power: str, attackers: Mapping[str, int], *, defended: bool) -> int:
    """p.18: supply tokens an attack out of one territory costs: 1 for every 5 attacking land units or fraction
    (``attackers`` by type, or ``"power:type"`` for pieces of another power attacking with ``power``, p.29),
    scout cars not counted; nothing (and none may be spent) against a territory without enemy combat units
    (``defended`` False) or when every attacker is a scout car."""
    counted = sum(n for t, n in attackers.items() if not exempt_from_attack_supply(_unit(pack, power, t)))
    if not defended or counted == 0:
        return 0
    per = pack.limit("supply_per_attack_units")
    return -(-counted // per)


def defense_supply_due(pack: AxisAlliesPack, position: Position, territory: str, side: str) -> int:
    """p.20: a defence that fights spends exactly 1 supply token, whatever the number of units, unless every
    defending combat unit is exempt (then none may be spent)."""
    defenders = combat_units(pack, position, territory, side)
    if all(exempt_from_defense_supply(pack.unit(p, t)) for p, t in defenders):
        return 0
    return pack.limit("defense_supply")


def check_payment(
    pack: AxisAlliesPack,
    position: Position,
    territory: str,
    side: str,
    due: int,
    payment: Mapping[str, int],
    *,
    rule: str,
) -> Verdict:
    """pp.18, 20: ``payment`` (territory -> tokens) pays exactly ``due`` from :func:`sources` of ``territory``.

    Refuses paying more or less than due (p.18: no more than the rules require), and taking tokens from a
    territory that is not a source or holds fewer than taken; ``rule`` is the page of the payment."""
    paid = sum(payment.values())
    if any(n <= 0 for n in payment.values()) or paid != due:
        return deny(rule, "supply-amount", f"this costs exactly {due} supply; {paid} offered")
    allowed = sources(pack, position, territory, side)
    for place, n in sorted(payment.items()):
        if place not in allowed:
            return deny(rule, "supply-out-of-reach", f"{side} cannot take supply from {place} for {territory}")
        if n > allowed[place]:
            return deny(rule, "supply-short", f"{place} holds {allowed[place]} supply, {n} taken")
    return ALLOW


def check_land_attack(
    pack: AxisAlliesPack,
    scenario: Scenario,
    position: Position,
    power: str,
    origin: str,
    target: str,
    attackers: Mapping[str, int],
    payment: Mapping[str, int],
) -> Verdict:
    """p.18: whether ``power`` may declare a land attack with ``attackers`` (type -> count) out of ``origin``
    against the adjacent ``target``, paying ``payment`` (territory -> supply tokens).

    The target is a hostile territory, or for scout cars alone a neutral one holding supply; every attacker could
    enter it (the Sahara only for scout cars, p.11; the white line, p.28); AAA and trucks never attack (pp.31-32);
    the payment is exactly :func:`attack_supply_due`, from :func:`sources` of ``origin``.
    """
    edge = graph_of(pack).edge(origin, target)
    if edge is None or edge.type != "land":
        return deny("18", "not-adjacent", f"{target} is not adjacent to {origin}")
    side = side_of(pack, position, power, origin)
    if not attackers or any(n <= 0 for n in attackers.values()):
        return deny("18", "no-attackers", "an attack needs attacking land units")
    for type_, n in sorted(attackers.items()):
        try:
            unit = pack.unit(power, type_)
        except KeyError:
            return deny("8", "unknown-unit", f"{power} has no {type_} on its reference chart")
        if unit.category != "land" or not unit.combat or any(a.id == "cannot_attack" for a in unit.abilities):
            return deny("18", "cannot-attack", f"{unit.id} cannot attack")
        if position.count(origin, power, type_) < n:
            return deny("18", "units-missing", f"{origin} has fewer than {n} {unit.id}")
        verdict = may_enter(pack, scenario, position, side, unit, target, origin)
        if not verdict.ok:
            return verdict
    here = status(pack, position, target, side)
    scouts_only = all(exempt_from_attack_supply(pack.unit(power, t)) for t in attackers)
    if here != "hostile" and not (here == "neutral" and scouts_only and position.supply_in(target) > 0):
        return deny("18", "not-hostile", f"{target} is not a territory {power} may attack")
    defended = bool(combat_units(pack, position, target, enemy(side)))
    due = attack_supply_due(pack, power, attackers, defended=defended)
    return check_payment(pack, position, origin, side, due, payment, rule="18")
