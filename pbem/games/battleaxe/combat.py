"""Combat arithmetic (11.4, 11.5, 10.3): attack and defense values, results, and Attrition Point choices."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pbem.games.battleaxe.board import AXIS, Side
from pbem.games.battleaxe.situation import Situation
from pbem.games.battleaxe.state import Combat

__all__ = ["Loss", "absorbable", "achievable", "attack_value", "defense_value", "goal", "loss_options", "outcome"]

Loss = str  # "eliminate" | "flip" | "retreat" | "flip_retreat" | "none"


def _lead_cv(situation: Situation, lead: str, units: Sequence[str]) -> int:
    """10.3: an AT/FLAK unit fights at its full CV only beside an Infantry or Armored unit; alone it is 1 or 0."""
    board = situation.board
    if board.is_anti_tank(lead) and all(board.is_anti_tank(u) for u in units):
        full = situation.state.units[lead].full
        alone = board.pack.limit("at_alone_full_cv" if full else "at_alone_reduced_cv")
        oos = board.pack.limit("oos_cv_penalty") if situation.state.units[lead].oos else 0
        return alone - oos  # 14.2.2 note: an OOS AT unit alone is 0 or -1
    return situation.cv(lead)


def attack_value(situation: Situation, combat: Combat, air: int, rommel: int) -> tuple[int, list[str]]:
    """11.4.2: the Attack Value and the terms that made it (for the report)."""
    board = situation.board
    assert combat.lead is not None
    units = combat.attackers
    mods = board.attack_mods
    value = _lead_cv(situation, combat.lead, units)
    terms = [f"lead {combat.lead} {value}"]
    if len(units) > 1:
        extra = mods["additional_unit"].value * (len(units) - 1)
        value += extra
        terms.append(f"+{extra} additional units")
    if air:
        value += air
        terms.append(f"+{air} air support")
    if rommel:
        value += rommel
        terms.append(f"+{rommel} Rommel")
    if combat.attacker_artillery_ok:
        value += mods["artillery"].value
        terms.append(f"+{mods['artillery'].value} artillery")
    kinds = {board.kind(u) for u in units}
    if {"armor", "infantry", "anti_tank"} <= kinds:
        value += mods["combined_arms"].value
        terms.append(f"+{mods['combined_arms'].value} combined arms")
    return value, terms


def defense_value(situation: Situation, combat: Combat, attacker: Side) -> tuple[int, list[str]]:
    """11.4.3: the Defense Value and its terms."""
    board = situation.board
    assert combat.def_lead is not None
    units = combat.defenders
    mods = board.defense_mods
    value = _lead_cv(situation, combat.def_lead, units)
    terms = [f"lead {combat.def_lead} {value}"]
    if len(units) > 1:
        extra = mods["additional_unit"].value * (len(units) - 1)
        value += extra
        terms.append(f"+{extra} additional units")
    tem = board.locations[combat.target].tem
    value += tem
    terms.append(f"+{tem} TEM")
    if combat.defender_artillery_ok:
        value += mods["artillery"].value
        terms.append(f"+{mods['artillery'].value} artillery")
    if attacker == AXIS and situation.state.fuel_low:
        value += mods["fuel_shortage"].value
        terms.append(f"+{mods['fuel_shortage'].value} Axis fuel shortage")
    return value, terms


def absorbable(situation: Situation, units: Iterable[str]) -> int:
    """11.4.4: the most Attrition Points the units can take (all of them eliminated)."""
    ap = situation.board.attrition
    return sum(ap["fs_eliminated"] if situation.state.units[u].full else ap["rs_eliminated"] for u in units)


def outcome(attack_total: int, defense_total: int) -> str:
    """11.4.4: repulse, stalemate or success (an Overrun is decided by the caller)."""
    if attack_total < defense_total:
        return "repulse"
    if attack_total == defense_total:
        return "stalemate"
    return "success"


def loss_options(
    situation: Situation, unit: str, *, lead: bool, flip_and_retreat: bool, can_retreat: bool
) -> dict[Loss, int]:
    """11.5, 11.5.1: how ``unit`` may absorb AP, and how many each way absorbs."""
    ap = situation.board.attrition
    full = situation.state.units[unit].full
    options: dict[Loss, int] = {}
    if full:
        options["flip"] = ap["fs_reduced"]
        options["eliminate"] = ap["fs_eliminated"]
        if can_retreat and situation.board.is_german(unit):
            options["retreat"] = ap["german_fs_retreat"]
        # RULING (notes A17, option flip_and_retreat): a flipped unit is Reduced and may then retreat
        if can_retreat and flip_and_retreat:
            options["flip_retreat"] = ap["fs_reduced"] + ap["rs_retreat"]
    else:
        options["eliminate"] = ap["rs_eliminated"]
        if can_retreat:
            options["retreat"] = ap["rs_retreat"]
    if not lead:
        options["none"] = 0
    return options


def achievable(option_sets: Sequence[Iterable[int]]) -> set[int]:
    """Every total the units can absorb together (one option each)."""
    totals = {0}
    for options in option_sets:
        totals = {t + v for t in totals for v in options}
    return totals


def goal(needed: int, option_sets: Sequence[Iterable[int]]) -> int:
    """11.5: exact losses whenever possible, else the smallest total above (or everything there is)."""
    totals = achievable(option_sets)
    if needed in totals:
        return needed
    above = [t for t in totals if t > needed]
    return min(above) if above else max(totals)
