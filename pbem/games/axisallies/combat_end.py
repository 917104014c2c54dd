"""The end of a combat round and of a combat of *Axis & Allies: North Africa* (pp.22-23, 28).

* p.22 step 5: the combat ends when either side has nothing left that can fire at a valid target or escape;
  otherwise the attacker presses or ceases.
* p.23 press on land: the attacker may turn any attacking units aside (they stay where they attacked from:
  land units in their origin, air units in the air until the noncombat move), then pays the pack's
  ``supply_per_attack_units`` rule again, per origin, for the land units that go on (from the origin or a
  friendly or neutral territory beside it, :mod:`.supply`); scout cars always leave after the first round
  (*Hit and Run*, p.31). At sea the attacker presses for free. The Torch landings must press with all units
  (p.28) unless the supply cannot be paid (notes §10.22: then the normal forced cease).
* p.23 step 6: if no defending combat unit is left and the attacker has land units other than scout cars in
  the combat, those units move in up to the stacking limit (air units do not count), trucks there are
  captured, the control marker changes and the port's convoy route opens or closes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from pbem.games.axisallies.combat_fire import Scored, has, volley
from pbem.games.axisallies.combat_types import (
    Battle,
    EscortsShield,
    FireGroup,
    Piece,
    Role,
    Units,
    add,
    subtract,
    total,
)
from pbem.games.axisallies.data import AxisAlliesPack
from pbem.games.axisallies.position import Position, combat_units, side_of
from pbem.games.axisallies.supply import check_payment, exempt_from_attack_supply, sources
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "Conclusion",
    "Press",
    "after_press",
    "attacker_retreats",
    "check_cease",
    "check_move_in",
    "check_press",
    "check_reinforcements",
    "combat_over",
    "conclude",
    "press_due",
    "reinforce",
]


def _can_hit(pack: AxisAlliesPack, battle: Battle, role: Role, escorts_shield: EscortsShield) -> bool:
    """Whether some piece of ``role`` could hit some piece of the other side (one die each, all hitting); an
    attacking bomber with *Targeted Attack - Sea Units* may aim at the transports past the escorts (p.33)."""
    units = battle.attackers() if role == "attacker" else dict(battle.defenders)
    cargo = battle.cargo is not None and not battle.cargo.empty()
    for piece, n in sorted(units.items()):
        unit = pack.unit(*piece)
        value = unit.attack if role == "attacker" else unit.defense
        if n <= 0 or not value or (role == "attacker" and unit.has("cannot_attack")):
            continue
        fire = [Scored(FireGroup(role, *piece, 1, value), 1)]
        if role == "attacker" and cargo and battle.kind == "sea" and unit.has("targeted_attack_sea_units"):
            fire.append(Scored(FireGroup(role, *piece, 1, value, "sea_type"), 1, {"transport": 1}))
        if any(h.allowed for h in volley(pack, battle, fire, escorts_shield=escorts_shield)):
            return True
    return False


def combat_over(pack: AxisAlliesPack, battle: Battle, *, escorts_shield: EscortsShield = "reachable") -> bool:
    """p.22 step 5: whether the combat ends now: no attacking units, no defending combat units (nor cargo at
    sea, which can still escape), or neither side able to hit the other (submarines against air units alone;
    ``escorts_shield`` is the named option of :func:`.combat_fire.volley`)."""
    if total(battle.attackers()) == 0:
        return True
    cargo = battle.cargo is not None and not battle.cargo.empty()
    if total(battle.defenders) == 0 and not cargo:
        return True
    if battle.kind == "land":
        return False
    return not _can_hit(pack, battle, "attacker", escorts_shield) and not _can_hit(
        pack, battle, "defender", escorts_shield
    )


@dataclass(frozen=True)
class Press:
    """p.23 step 5: the attacker presses the attack.

    Attributes:
        retreat: origin -> attacking land units turned aside there (they stay in their origin).
        air_retreat: attacking air units turned aside (land combats only: at sea the attacker presses with all).
        payment: origin -> (territory -> supply tokens) paid for the land units going on from that origin.
    """

    retreat: Mapping[str, Units] = field(default_factory=dict)
    air_retreat: Units = field(default_factory=dict)
    payment: Mapping[str, Mapping[str, int]] = field(default_factory=dict)


def _hit_and_run(pack: AxisAlliesPack, units: Units) -> dict[Piece, int]:
    return {k: n for k, n in units.items() if n > 0 and has(pack, k, "hit_and_run")}


def _going_on(pack: AxisAlliesPack, battle: Battle, press: Press) -> dict[str, dict[Piece, int]]:
    out = {}
    for origin, units in sorted(battle.land.items()):
        left = subtract(subtract(units, press.retreat.get(origin, {})), _hit_and_run(pack, units))
        if left:
            out[origin] = left
    return out


def press_due(pack: AxisAlliesPack, battle: Battle, press: Press) -> dict[str, int]:
    """p.23: the supply tokens pressing costs per origin (nothing at sea or for scout cars, which leave)."""
    if battle.kind != "land":
        return {}
    per = pack.limit("supply_per_attack_units")
    due = {}
    for origin, units in _going_on(pack, battle, press).items():
        counted = sum(n for k, n in units.items() if not exempt_from_attack_supply(pack.unit(*k)))
        due[origin] = -(-counted // per)
    return due


def _affordable(pack: AxisAlliesPack, position: Position, battle: Battle, origin: str, due: int) -> bool:
    """Whether the attacker has ``due`` supply tokens within reach of ``origin`` (p.23)."""
    return sum(sources(pack, position, origin, battle.attacker).values()) >= due


def check_press(
    pack: AxisAlliesPack, position: Position, battle: Battle, press: Press, *, torch_unpaid_press: bool = False
) -> Verdict:
    """p.23 step 5: whether the attacker may press as ``press``: it turns aside only units in the combat and only
    in a land combat (at sea it presses with all or ceases), keeps at least one unit in it, and pays each
    origin's due exactly (the Torch landings turn none aside, p.28).

    Args:
        torch_unpaid_press: named option (notes §10.22): p.28 has the Torch landings "continue to be pressed
            with all units until" one side is gone, yet "In all other respects, these attacks follow the normal
            ... combat procedure", under which an attacker short of supply must cease (p.23). False (recommended
            default): the normal procedure, see :func:`check_cease`; True: a landing origin that cannot pay its
            due presses without paying (one that can, pays).
    """
    for origin, units in sorted(press.retreat.items()):
        for piece, n in sorted(units.items()):
            if n < 0 or n > battle.land.get(origin, {}).get(piece, 0):
                return deny("23", "not-attacking", f"{origin} has no {n} {piece[0]} {piece[1]} in the combat")
    for piece, n in sorted(press.air_retreat.items()):
        if n < 0 or n > battle.air_sea.get(piece, 0):
            return deny("23", "not-attacking", f"no {n} {piece[0]} {piece[1]} in the combat")
    if battle.kind == "sea" and total(press.air_retreat):
        # p.23: "In a sea combat, you may simply choose to either press or cease the attack"; only "In a land
        # combat" may the attacker "turn any others (including any or all air units) on their sides".
        return deny("23", "sea-press-with-all", "at sea the attacker presses with every unit or ceases")
    if battle.must_press and (total(press.air_retreat) or any(total(u) for u in press.retreat.values())):
        return deny("28", "must-press-with-all", "the Torch landings press with all units")
    going = _going_on(pack, battle, press)
    if not going and total(subtract(battle.air_sea, press.air_retreat)) == 0:
        return deny("23", "nobody-presses", "pressing needs units that go on attacking")
    due = press_due(pack, battle, press)
    if torch_unpaid_press and battle.must_press:
        due = {o: n if _affordable(pack, position, battle, o, n) else 0 for o, n in due.items()}
    for origin in sorted(set(due) | set(press.payment)):
        verdict = check_payment(
            pack, position, origin, battle.attacker, due.get(origin, 0), press.payment.get(origin, {}), rule="23"
        )
        if not verdict.ok:
            return verdict
    return ALLOW


def check_reinforcements(
    pack: AxisAlliesPack, battle: Battle, units: Mapping[str, Units], *, options: frozenset[str]
) -> Verdict:
    """p.38 optional *Reinforcing Land Attacks*: when pressing, the attacker may add land combat units from
    ``units`` (origin -> pieces). Scout cars cannot reinforce. Whether each is in attack position with a
    movement point left and declared no attack this turn is the caller's history. Their anti-tank guns never
    aim at tanks: they join from round 2 on, when no gun does (p.30)."""
    rule = next(o for o in pack.optional_rules if o.id == "reinforcing_land_attacks")
    if rule.id not in options:
        return deny(rule.rule, "optional-rule-off", "Reinforcing Land Attacks is not in force")
    if battle.kind != "land":
        return deny(rule.rule, "not-a-land-attack", "only land attacks are reinforced")
    for pieces in units.values():
        for piece, n in sorted(pieces.items()):
            unit = pack.unit(*piece)
            if n <= 0:
                continue
            if unit.category != "land" or not unit.combat or unit.has("cannot_attack"):
                return deny(rule.rule, "cannot-reinforce", f"{unit.id} cannot join a land attack")
            if unit.has("hit_and_run"):
                return deny(rule.rule, "scouts-cannot-reinforce", "scout cars cannot reinforce attacks")
            if pack.power(piece[0]).side not in (None, battle.attacker):
                return deny(rule.rule, "cannot-reinforce", f"{unit.id} is not the attacker's")
    return ALLOW


def reinforce(battle: Battle, units: Mapping[str, Units]) -> Battle:
    """The combat with ``units`` (origin -> pieces, see :func:`check_reinforcements`) added to the attack."""
    land = {o: dict(u) for o, u in battle.land.items()}
    for origin, pieces in units.items():
        land[origin] = add(land.get(origin, {}), pieces)
    return replace(battle, land=land)


def check_cease(
    pack: AxisAlliesPack, position: Position, battle: Battle, *, torch_unpaid_press: bool = False
) -> Verdict:
    """p.23, p.28: ceasing is always open but to the Torch landings, which must press while they can pay (or,
    with the named option ``torch_unpaid_press`` of :func:`check_press`, always)."""
    if not battle.must_press or combat_over(pack, battle):
        return ALLOW
    due = press_due(pack, battle, Press())
    if torch_unpaid_press or all(_affordable(pack, position, battle, o, n) for o, n in due.items()):
        return deny("28", "must-press", "the Torch landings press until one side is gone")
    return ALLOW


def attacker_retreats(pack: AxisAlliesPack, battle: Battle, press: Press) -> dict[str, dict[Piece, int]]:
    """p.23: where the units turned aside by ``press`` (and leaving scout cars, p.31) end up: land units stay in
    the territory they attacked from (they never entered), air and sea units stay in the contested space until
    the noncombat move (p.23 step 6). They take no further part in the combat and may not move in."""
    out: dict[str, dict[Piece, int]] = {}
    for origin, units in sorted(battle.land.items()):
        leaving = add(
            {k: min(n, units.get(k, 0)) for k, n in press.retreat.get(origin, {}).items()},
            _hit_and_run(pack, subtract(units, press.retreat.get(origin, {}))),
        )
        if leaving:
            out[origin] = add(out.get(origin, {}), leaving)
    if total(press.air_retreat):
        out[battle.space] = add(out.get(battle.space, {}), press.air_retreat)
    return out


def after_press(pack: AxisAlliesPack, battle: Battle, press: Press) -> Battle:
    """The combat of the next round: units turned aside and scout cars gone, the round one higher."""
    return replace(
        battle,
        land=_going_on(pack, battle, press),
        air_sea=subtract(battle.air_sea, press.air_retreat),
        round=battle.round + 1,
    )


@dataclass(frozen=True)
class Conclusion:
    """p.23 step 6 of a land combat.

    Attributes:
        captured: the attacker takes the territory.
        movers: origin -> the land units (not scout cars) that may move in.
        move_in: how many of them must move in (all, or up to the stacking limit).
        trucks: the defender's trucks there, now captured (p.19).
        controller: the power whose control marker goes on the territory (None: no RP value, or not captured).
        convoy_zone: the port's convoy zone, if its route changes.
        convoy_powers: the powers whose markers go in ``convoy_zone`` (empty: the route closes).
    """

    captured: bool
    movers: Mapping[str, Units] = field(default_factory=dict)
    move_in: int = 0
    trucks: Units = field(default_factory=dict)
    controller: str | None = None
    convoy_zone: str | None = None
    convoy_powers: tuple[str, ...] = ()


def conclude(pack: AxisAlliesPack, position: Position, battle: Battle, *, power: str) -> Conclusion:
    """p.23 step 6: what the end of a land combat does (``battle`` as it ends, ``position`` the board around
    it). ``power`` is the power whose marker goes on a captured RP territory: the attacker, or the United
    States for the joint Algiers landing (p.28)."""
    movers = {
        origin: {k: n for k, n in sorted(units.items()) if n > 0 and not has(pack, k, "hit_and_run")}
        for origin, units in sorted(battle.land.items())
    }
    movers = {o: u for o, u in movers.items() if u}
    if battle.kind != "land" or total(battle.defenders) or not movers:
        return Conclusion(False)
    side = battle.attacker
    outside = {o: u for o, u in movers.items() if o != battle.space}
    present = sum(
        n for k, n in combat_units(pack, position, battle.space, side).items() if pack.unit(*k).category == "land"
    )
    room = max(pack.territory(battle.space).stacking_limit - present, 0)
    move_in = min(sum(total(u) for u in outside.values()), room)
    trucks = {
        k: n
        for k, n in sorted(position.pieces.get(battle.space, {}).items())
        if n > 0 and not pack.unit(*k).combat and side_of(pack, position, k[0], battle.space) != side
    }
    territory = pack.territory(battle.space)
    owner = power if territory.rp is not None and territory.permanent_owner is None else None
    zone: str | None = None
    powers: tuple[str, ...] = ()
    for z in pack.sea_zones:
        if z.convoy is not None and z.convoy.port == battle.space and not z.convoy.permanent:
            zone = z.id
            opens = {pack.power(p).side for p in z.convoy.powers} == {side}
            powers = tuple(z.convoy.powers) if opens else ()
    return Conclusion(True, outside, move_in, trucks, owner, zone, powers)


def check_move_in(conclusion: Conclusion, moved: Mapping[str, Units]) -> Verdict:
    """p.23 step 6: the attacker's land units must move in, units of its choice, until all have or the
    stacking limit is reached."""
    count = 0
    for origin, units in sorted(moved.items()):
        for piece, n in sorted(units.items()):
            if n < 0 or n > conclusion.movers.get(origin, {}).get(piece, 0):
                return deny("23", "cannot-move-in", f"{piece[0]} {piece[1]} from {origin} cannot move in")
            count += n
    if count != conclusion.move_in:
        return deny("23", "move-in-count", f"{conclusion.move_in} units must move in, {count} given")
    return ALLOW
