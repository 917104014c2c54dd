"""Sea combat of *Axis & Allies: North Africa*: submarines, transports and convoy escapes (pp.20-22, 33-34).

* p.20 step 1, p.34: if the opposing side has no destroyer in the combat, each submarine either makes a
  *Surprise Strike* (fires in step 1, attacker's first, casualties removed at the end of step 1 but for
  battleships with one hit) or *submerges* (leaves the combat: it neither fires nor can be hit). The attacker
  decides first; a player may submerge all, some or none. With an enemy destroyer in the combat they fire in
  steps 2 and 3 like the others.
* p.21: a hit on the defender's transports destroys two pieces of cargo: the defender picks the first (a land
  unit, trucks included, or 5 supply tokens of its choice, all if fewer), the firing player names a unit type
  (or supply) and the defender picks the second from it. p.27: for a sea mine the acting player picks and the
  mine's owner names. The pieces may belong to different powers.
* p.22 step 4: in a convoy zone the defender may let up to the pack's ``convoy_escapes_per_round`` pieces of
  cargo escape each round (each a land unit or up to ``supply_per_bay`` supply tokens); they stay in the zone
  and rejoin the convoy after the combat.

Submarines that submerge leave the :class:`~.combat_types.Battle` before anything fires (they can neither fire
nor be hit); those that strike are ``holding`` for :func:`.combat_fire.attack_fire` / ``defense_fire``.

Example: two Italian submarines catch a British destroyer and submarine; the British submarine submerges::

    >>> from pbem.games.axisallies.data import default_pack_bytes, load_pack
    >>> pack = load_pack(default_pack_bytes())
    >>> it_sub, uk_sub, uk_dd = ("italy", "submarine"), ("united_kingdom", "submarine"), ("united_kingdom", "destroyer")
    >>> battle = Battle("sz25", "sea", "axis", air_sea={it_sub: 2}, defenders={uk_sub: 1, uk_dd: 1})
    >>> may_surprise(pack, battle, "attacker"), may_surprise(pack, battle, "defender")
    (False, True)
    >>> check_submerge(pack, battle, "defender", {uk_sub: 1}).ok
    True
    >>> surprise_fire(pack, battle, "defender", {uk_sub: 1})
    ()
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import product

from pbem.games.axisallies.combat_fire import has, rule_type
from pbem.games.axisallies.combat_types import Battle, Cargo, FireGroup, Piece, Role, Units, subtract, total
from pbem.games.axisallies.data import AxisAlliesPack
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "CargoLoss",
    "cargo_after",
    "cargo_first_options",
    "cargo_names",
    "cargo_second_options",
    "check_escape",
    "check_submerge",
    "check_transport_hit",
    "has_destroyer",
    "may_surprise",
    "submarines",
    "surprise_fire",
]


def has_destroyer(pack: AxisAlliesPack, units: Units) -> bool:
    """Whether ``units`` include a destroyer (*Anti-Submarine Vessel*, p.33)."""
    return any(n > 0 and has(pack, k, "anti_submarine_vessel") for k, n in units.items())


def submarines(pack: AxisAlliesPack, battle: Battle, role: Role) -> dict[Piece, int]:
    """The submarines (*Surprise Strike*) of ``role`` in the combat."""
    units = battle.attackers() if role == "attacker" else battle.defenders
    return {k: n for k, n in sorted(units.items()) if n > 0 and has(pack, k, "surprise_strike")}


def may_surprise(pack: AxisAlliesPack, battle: Battle, role: Role) -> bool:
    """p.20, p.34: whether ``role``'s submarines may strike or submerge in step 1: a sea combat with no
    destroyer of the other side in it (friendly destroyers merely present are not in the combat)."""
    other = battle.defenders if role == "attacker" else battle.attackers()
    return battle.kind == "sea" and bool(submarines(pack, battle, role)) and not has_destroyer(pack, other)


def check_submerge(pack: AxisAlliesPack, battle: Battle, role: Role, submerged: Units) -> Verdict:
    """p.34 *Submersible*: whether ``role`` may submerge ``submerged`` of its submarines this round."""
    if total(submerged) and not may_surprise(pack, battle, role):
        return deny("34", "cannot-submerge", "a submarine cannot submerge with an enemy destroyer in the combat")
    units = battle.attackers() if role == "attacker" else battle.defenders
    subs = {k: n for k, n in units.items() if n > 0 and has(pack, k, "submersible")}
    for piece, n in sorted(submerged.items()):
        if n < 0 or n > subs.get(piece, 0):
            return deny("34", "not-a-submarine", f"no {n} {piece[0]} {piece[1]} submarines to submerge")
    return ALLOW


def surprise_fire(pack: AxisAlliesPack, battle: Battle, role: Role, submerged: Units) -> tuple[FireGroup, ...]:
    """p.34 *Surprise Strike*: ``role``'s submarines that fire in step 1 (those not submerged, when they may);
    hand them as ``holding`` (with the submerged ones) to the fire of steps 2 and 3."""
    if not may_surprise(pack, battle, role):
        return ()
    groups = []
    for piece, n in submarines(pack, battle, role).items():
        n -= submerged.get(piece, 0)
        unit = pack.unit(*piece)
        value = unit.attack if role == "attacker" else unit.defense
        if n > 0 and value:
            groups.append(FireGroup(role, *piece, n, value, "any", False, False, "34"))
    return tuple(groups)


# --- transports (p.21, p.27) ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CargoLoss:
    """One piece of cargo lost to a transport hit: a land unit, or a group of supply points per power."""

    unit: Piece | None = None
    supply: Mapping[str, int] = field(default_factory=dict)


def cargo_after(cargo: Cargo, *losses: CargoLoss) -> Cargo:
    """The cargo left after ``losses`` (or escapes)."""
    units = dict(cargo.units)
    supply = dict(cargo.supply)
    for loss in losses:
        if loss.unit is not None:
            units[loss.unit] = units.get(loss.unit, 0) - 1
        for power, n in loss.supply.items():
            supply[power] = supply.get(power, 0) - n
    return Cargo({k: n for k, n in sorted(units.items()) if n > 0}, {p: n for p, n in sorted(supply.items()) if n > 0})


def _supply_splits(supply: Mapping[str, int], amount: int) -> list[dict[str, int]]:
    powers = sorted(p for p, n in supply.items() if n > 0)
    out = []
    for counts in product(*(range(supply[p] + 1) for p in powers)):
        if sum(counts) == amount:
            out.append({p: n for p, n in zip(powers, counts, strict=True) if n})
    return out


def _group(pack: AxisAlliesPack, cargo: Cargo) -> int:
    return min(cargo.supply_points, pack.limit("supply_per_bay"))


def cargo_first_options(pack: AxisAlliesPack, cargo: Cargo) -> tuple[CargoLoss, ...]:
    """p.21: what the owner may lose first: any land unit aboard, or 5 supply (all if fewer) split as it likes."""
    units = tuple(CargoLoss(unit=k) for k, n in sorted(cargo.units.items()) if n > 0)
    if not cargo.supply_points:
        return units
    return units + tuple(CargoLoss(supply=s) for s in _supply_splits(cargo.supply, _group(pack, cargo)))


def cargo_names(pack: AxisAlliesPack, cargo: Cargo) -> tuple[str, ...]:
    """p.21: the types the firing player may name for the second loss (:func:`.combat_fire.rule_type`: a tank is
    a tank, Matilda or Sherman; ``supply`` while supply is aboard); empty when nothing is left (the second loss
    lapses, notes §10.27)."""
    types = sorted({rule_type(pack, k[1]) for k, n in cargo.units.items() if n > 0})
    return tuple(types) + (("supply",) if cargo.supply_points else ())


def cargo_second_options(pack: AxisAlliesPack, cargo: Cargo, named: str) -> tuple[CargoLoss, ...]:
    """p.21: what the owner may lose second once ``named`` is named: a unit of that type (any power aboard) or
    a group of supply."""
    if named == "supply":
        return tuple(CargoLoss(supply=s) for s in _supply_splits(cargo.supply, _group(pack, cargo)))
    same = rule_type(pack, named)
    return tuple(CargoLoss(unit=k) for k, n in sorted(cargo.units.items()) if n > 0 and rule_type(pack, k[1]) == same)


def check_transport_hit(
    pack: AxisAlliesPack, cargo: Cargo, first: CargoLoss, named: str | None, second: CargoLoss | None, *, rule: str
) -> Verdict:
    """p.21 (``rule`` ``"21"``; p.27 for a sea mine): whether one transport hit is resolved as ``first``, then
    ``named`` by the other player, then ``second``."""
    if first not in cargo_first_options(pack, cargo):
        return deny(rule, "bad-cargo-loss", "the first loss must be one land unit or 5 supply aboard")
    rest = cargo_after(cargo, first)
    names = cargo_names(pack, rest)
    if not names:
        if named is not None or second is not None:
            return deny(rule, "nothing-left", "nothing is left aboard for a second loss")
        return ALLOW
    if named is None or rule_type(pack, named) not in names:
        return deny(rule, "bad-cargo-name", f"name one of {', '.join(names)}")
    if second is None or second not in cargo_second_options(pack, rest, named):
        return deny(rule, "bad-cargo-loss", f"the second loss must be of the named {named}")
    return ALLOW


def check_escape(pack: AxisAlliesPack, cargo: Cargo, escaped: Cargo) -> Verdict:
    """p.22 step 4: whether ``escaped`` may leave the combat this round: pieces aboard, at most
    ``convoy_escapes_per_round`` of them, each a land unit or up to ``supply_per_bay`` supply tokens."""
    if subtract(escaped.units, cargo.units) or any(n > cargo.supply.get(p, 0) for p, n in escaped.supply.items()):
        return deny("22", "not-aboard", "only cargo in the convoy can escape")
    if any(n < 0 for n in (*escaped.units.values(), *escaped.supply.values())):
        return deny("22", "not-aboard", "negative counts")
    slots = total(escaped.units) + -(-escaped.supply_points // pack.limit("supply_per_bay"))
    if slots > pack.limit("convoy_escapes_per_round"):
        limit = pack.limit("convoy_escapes_per_round")
        return deny("22", "too-many-escapes", f"{limit} pieces of cargo escape at most, {slots} chosen")
    return ALLOW
