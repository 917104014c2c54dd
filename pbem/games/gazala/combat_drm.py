"""The five combat DRMs (§7.5.1.5): Combat Support, HQ Attack Support, Armour Superiority, Schwerpunkt and a failed
Retreat before Combat. Each gives a :class:`~pbem.kit.tables.Term` (or none) for :func:`.combat.final_drm`.

The decisions they need come in as arguments: the defender's Lead Formation (a stack of several formations), the
defender's choice of Tank or Anti-Tank Points, and either side's pick among units tied for Armour Superiority;
:func:`armour_choices` enumerates the legal ones and :func:`check_armour_choice` refuses the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pbem.games.gazala.board import Situation, supporters
from pbem.games.gazala.combat import (
    DEFAULT_OPTIONS,
    INFANTRY_KINDS,
    MOTORISED_INFANTRY,
    AttackKind,
    Combatant,
    CombatOptions,
    Ground,
)
from pbem.games.gazala.data import GazalaPack, Side
from pbem.kit.hexes import HexId
from pbem.kit.tables import Term
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "Armour",
    "ArmourChoice",
    "ArmourKind",
    "Supporter",
    "armour_candidates",
    "armour_choices",
    "armour_superiority",
    "check_armour_choice",
    "check_lead_formation",
    "hq_support_drm",
    "rbc_failed_drm",
    "schwerpunkt_drm",
    "support_drm",
    "support_hexes",
]

ArmourKind = Literal["tp", "at"]
ArmourChoice = tuple[str | None, ArmourKind, str | None]
"""``(attacker_unit, defender_kind, defender_unit)``: the units selected for Armour Superiority (§7.5.1.5 C)."""


# --- A. Combat Support ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Supporter:
    """A friendly combat unit that projects a ZOC into the enemy hex of the combat, in ``hex`` (§7.5.1.5 A)."""

    combatant: Combatant
    hex: HexId


def support_hexes(sit: Situation, side: Side, enemy_hex: HexId, own_hex: HexId) -> tuple[tuple[str, HexId], ...]:
    """The ``side`` units that project a ZOC into ``enemy_hex`` from outside ``own_hex`` (the combat's own hex never
    supports, notes §5.7 G), with their hexes: the candidates for Combat Support (:func:`~.board.supporters`)."""
    units = sit.position.units
    return tuple((u, units[u]) for u in supporters(sit, side, enemy_hex) if units[u] != own_hex)


def _qualifies(unit: Combatant) -> bool:
    """§7.5.1.5 A, §5.6.3, §5.7.5: an undisrupted unit of a formation (assigned independents count; unassigned and
    permanently independent units never support, notes §10 A9), In Command Range of its HQ, and supplied."""
    return not unit.disrupted and not unit.unassigned and unit.in_command and unit.supplied


def support_drm(
    pack: GazalaPack,
    *,
    attacking: bool,
    formation: str | None,
    helpers: Sequence[Supporter],
    kind: AttackKind = "hasty",
    improved: bool = False,
    disrupted_defender: bool = False,
) -> Term | None:
    """§7.5.1.5 A: Combat Support, one value per hex holding a qualifying supporter (same formation and other
    friendly units in one hex do not add up).

    Args:
        attacking: the attacker's support (into the defending hex) or the defender's (into the attacking hex).
        formation: the formation receiving support: the attackers', or the defender's Lead Formation; None (an
            unassigned or permanently independent unit) receives none.
        helpers: the candidates (:func:`support_hexes` with the state's command and supply of each).
        kind: the attack (a Hasty Attack gets none; Regular +1 per same-formation hex; Prepared +2 per
            same-formation hex, +1 per other friendly hex).
        improved: the defender has Improved Defence (-2 / -1), else Regular Defence (-1 / none).
        disrupted_defender: a defending unit is Disrupted: the defender gets none (even in a minefield, notes A6).
    """
    if formation is None:
        return None
    if attacking:
        if kind == "hasty":
            return None
        same = pack.number("support_regular" if kind == "regular" else "support_prepared")
        others = pack.number("support_prepared_other") if kind == "prepared" else 0
    else:
        if disrupted_defender:
            return None
        same = pack.number("support_improved_defence" if improved else "support_regular_defence")
        others = pack.number("support_improved_other") if improved else 0
    by_hex: dict[HexId, int] = {}
    for helper in helpers:
        if not _qualifies(helper.combatant):
            continue
        value = same if helper.combatant.formation == formation else others
        best = by_hex.get(helper.hex, 0)
        by_hex[helper.hex] = value if abs(value) > abs(best) else best
    total = sum(by_hex.values())
    if total == 0:
        return None
    count = sum(1 for v in by_hex.values() if v)
    who = "attacker" if attacking else "defender"
    return Term(label=f"{who} Combat Support ({count} hex{'es' if count > 1 else ''})", value=total, rule="7.5.1.5")


def check_lead_formation(defenders: Sequence[Combatant], lead: str | None) -> Verdict:
    """§7.5.1.5 A: a defending stack of several formations names one of them as its Lead Formation; a stack of one
    formation leads with it (None is accepted for it)."""
    formations = sorted({d.formation for d in defenders if d.formation is not None})
    if lead is None and len(formations) <= 1:
        return ALLOW
    if lead not in formations:
        return deny("7.5.1.5", "lead-formation", f"the Lead Formation is one of {', '.join(formations) or 'none'}")
    return ALLOW


# --- B. HQ Attack Support -----------------------------------------------------------------------------------------


def hq_support_drm(
    pack: GazalaPack, attackers: Sequence[Combatant], kind: AttackKind, support: int, *, any_in_command: bool = False
) -> Term | None:
    """§7.5.1.5 B: a Regular Attack gets half its HQ's current Support Points (rounded up), a Prepared Attack all of
    them, if the attacking stack is In Command Range (every participant, notes B11; ``any_in_command``: one is
    enough; an unassigned independent has no HQ). ``support``: the HQ's current Attack Support Points."""
    if kind == "hasty" or support <= 0 or any(a.unassigned for a in attackers):
        return None
    commanded = [a.in_command for a in attackers]
    if not (any(commanded) if any_in_command else all(commanded)):
        return None
    divisor = pack.number("hq_support_regular_divisor") if kind == "regular" else 1
    return Term(label=f"HQ Attack Support ({kind})", value=-(-support // divisor), rule="7.5.1.5")


# --- C. Armour Superiority ----------------------------------------------------------------------------------------


def _points(unit: Combatant, kind: ArmourKind) -> int:
    return unit.armour_points if unit.unit.armour == kind else 0


def armour_candidates(units: Sequence[Combatant], kind: ArmourKind) -> tuple[str, ...]:
    """§7.5.1.5 C: the units a side may select for ``kind`` points: the most points, then the higher combat
    strength; several left are the player's choice. Empty when no unit has such points (an attacker without Tank
    Points; a defender whose best is 0 still selects among all its units, see :func:`armour_choices`)."""
    best = max((_points(u, kind) for u in units), default=0)
    if best == 0:
        return ()
    return _strongest([u for u in units if _points(u, kind) == best])


def _strongest(units: Sequence[Combatant]) -> tuple[str, ...]:
    strongest = max(u.strength for u in units)
    return tuple(u.id for u in units if u.strength == strongest)


@dataclass(frozen=True)
class Armour:
    """Armour Superiority (§7.5.1.5 C) as determined.

    Attributes:
        attacker_unit: the attacker's Tank Points unit (None: the attacker has none); attacker_value: its final A.
        defender_kind, defender_unit, defender_value: the defender's choice, unit and final D (the unit is None
            when neither side has Tank Points).
        drm: the DRM (positive: the attacker's favour). The two units take the first step loss (§7.5.2 step 1).
    """

    attacker_unit: str | None
    attacker_value: int
    defender_kind: ArmourKind
    defender_unit: str | None
    defender_value: int
    drm: int

    def term(self) -> Term | None:
        """The DRM as a report term, or None when it is 0."""
        if self.drm == 0:
            return None
        return Term(label="Armour Superiority", value=self.drm, rule="7.5.1.5")


def _flak_attack(
    pack: GazalaPack, attackers: Sequence[Combatant], stack: Sequence[Combatant], defenders: Sequence[Combatant]
) -> int:
    """Attacking German FLAK with mot/armoured infantry in its stack, against a tank: +2 Tank Points (once)."""
    hex_units = [*attackers, *stack]
    flak = any(a.unit.type == "flak88" for a in attackers)
    infantry = any(u.unit.type in MOTORISED_INFANTRY for u in hex_units)
    tanks = any(d.unit.is_tank for d in defenders)
    return pack.number("flak_attack_tp") if flak and infantry and tanks else 0


def _flak_defence(pack: GazalaPack, defenders: Sequence[Combatant], attackers: Sequence[Combatant]) -> int:
    """Defending German FLAK stacked with an infantry unit, against a tank: +3 Tank or Anti-Tank Points (once)."""
    flak = any(d.unit.type == "flak88" for d in defenders)
    infantry = any(d.unit.type in INFANTRY_KINDS for d in defenders)
    tanks = any(a.unit.is_tank for a in attackers)
    return pack.number("flak_defence_bonus") if flak and infantry and tanks else 0


def armour_choices(attackers: Sequence[Combatant], defenders: Sequence[Combatant]) -> tuple[ArmourChoice, ...]:
    """Every legal ``(attacker_unit, defender_kind, defender_unit)`` (§7.5.1.5 C): the attacker picks first among
    its tied Tank Points units; the defender then picks Tank or Anti-Tank Points (always free to) and a tied unit.
    An attacker without Tank Points leaves no choice: the defender's best Tank Points unit counts, unmodified."""
    att = armour_candidates(attackers, "tp")
    if not att:
        defence = armour_candidates(defenders, "tp") or (None,)
        return tuple((None, "tp", d) for d in defence)
    return tuple(
        (a, kind, d)
        for a in att
        for kind in ("tp", "at")
        for d in armour_candidates(defenders, kind) or _strongest(defenders)
    )


def check_armour_choice(
    attackers: Sequence[Combatant],
    defenders: Sequence[Combatant],
    attacker_unit: str | None,
    defender_kind: ArmourKind,
    defender_unit: str | None,
) -> Verdict:
    """§7.5.1.5 C: the choice is one of :func:`armour_choices` (the unit with the most points, then the higher
    strength)."""
    if (attacker_unit, defender_kind, defender_unit) in armour_choices(attackers, defenders):
        return ALLOW
    return deny(
        "7.5.1.5",
        "armour-unit",
        "Armour Superiority uses the unit with the most Tank (Anti-Tank) Points, then the higher combat strength",
    )


def armour_superiority(
    pack: GazalaPack,
    attackers: Sequence[Combatant],
    defenders: Sequence[Combatant],
    ground: Ground,
    choice: ArmourChoice,
    *,
    stack: Sequence[Combatant] = (),
    options: CombatOptions = DEFAULT_OPTIONS,
) -> Armour:
    """§7.5.1.5 C, with a legal ``choice`` (:func:`check_armour_choice`; ValueError otherwise).

    A = the attacker's unit's Tank Points, halved on ``ground.tp_halved``, plus the FLAK bonus, rounded up (notes
    B13). D = the defender's unit's Tank Points (never modified by terrain) or Anti-Tank Points plus the terrain's
    AT bonus, plus the FLAK bonus. The DRM is A - D; with Anti-Tank Points never below 0 (unless
    ``options.armour_negative_with_at``). An attacker without Tank Points gives the defender's best unmodified
    Tank Points as a negative DRM (0 if it has none)."""
    attacker_unit, kind, defender_unit = choice
    if not check_armour_choice(attackers, defenders, attacker_unit, kind, defender_unit).ok:
        raise ValueError(f"{choice} is not a legal Armour Superiority choice")
    by_id = {u.id: u for u in [*attackers, *defenders]}
    if attacker_unit is None:
        value = by_id[defender_unit].armour_points if defender_unit is not None else 0
        return Armour(None, 0, "tp", defender_unit, value, -value)
    raw = by_id[attacker_unit].armour_points
    halves = raw if ground.tp_halved else 2 * raw
    a = -(-(halves + 2 * _flak_attack(pack, attackers, stack, defenders)) // 2)
    assert defender_unit is not None  # a defending stack always has a unit to select
    d = _points(by_id[defender_unit], kind) + _flak_defence(pack, defenders, attackers)
    if kind == "at":
        d += ground.at_bonus
    drm = a - d
    if kind == "at" and not options.armour_negative_with_at:
        drm = max(0, drm)
    return Armour(attacker_unit, a, kind, defender_unit, d, drm)


# --- D. Schwerpunkt, E. failed Retreat before Combat ------------------------------------------------------------------


def schwerpunkt_drm(
    pack: GazalaPack, side: Side, units: Sequence[Combatant], schwerpunkt: str | None, *, attacking: bool
) -> Term | None:
    """§7.5.1.5 D, §5.9: the Axis gets +2 attacking, -2 defending, if at least one In Command combat unit of its
    ``units`` in the combat belongs to the formation holding the Schwerpunkt marker."""
    if side != "axis" or schwerpunkt is None:
        return None
    if not any(u.formation == schwerpunkt and u.in_command for u in units):
        return None
    value = pack.number("schwerpunkt_combat_drm")
    return Term(label="Schwerpunkt", value=value if attacking else -value, rule="7.5.1.5")


def rbc_failed_drm(pack: GazalaPack, failed: bool) -> Term | None:
    """§7.5.1.1, §7.5.1.5 E: a failed Retreat before Combat gives the attacker +2."""
    if not failed:
        return None
    return Term(label="failed Retreat before Combat", value=pack.number("rbc_failed_drm"), rule="7.5.1.5")
