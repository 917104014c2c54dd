"""Combat arithmetic (11.4, 11.5, 10.3): attack and defense values, results, and Attrition Point choices."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pbem.games.battleaxe.actions import Loss
from pbem.games.battleaxe.board import AXIS, Side
from pbem.games.battleaxe.data import ModifierRow
from pbem.games.battleaxe.situation import Situation
from pbem.games.battleaxe.state import Combat, CombatResult
from pbem.kit import tables
from pbem.rules.records import CombatRecord, CombatSide, Hits

__all__ = [
    "Loss",
    "Term",
    "absorbable",
    "achievable",
    "attack_value",
    "defense_value",
    "describe",
    "goal",
    "loss_options",
    "outcome",
    "record",
]


def _lead_cv(situation: Situation, lead: str, units: Sequence[str]) -> int:
    """10.3: an AT/FLAK unit fights at its full CV only beside an Infantry or Armored unit; alone it is 1 or 0."""
    board = situation.board
    if board.is_anti_tank(lead) and all(board.is_anti_tank(u) for u in units):
        full = situation.state.units[lead].full
        alone = board.limits["at_alone_full_cv" if full else "at_alone_reduced_cv"]
        oos = board.limits["oos_cv_penalty"] if situation.state.units[lead].oos else 0
        return alone - oos  # 14.2.2 note: an OOS AT unit alone is 0 or -1
    return situation.cv(lead)


Term = dict[str, str | int]
"""One addend of a combat value, for reports: ``{"label": "air support", "value": 3, "rule": "10.1.3"}``."""


def _term(label: str, value: int, rule: str) -> Term:
    return {"label": label, "value": value, "rule": rule}


def _base(situation: Situation, lead: str, units: Sequence[str], rule: str, extra_row: ModifierRow) -> list[Term]:
    """The lead unit's CV and the bonus for every other unit (11.4.2A-B, 11.4.3A-B)."""
    terms = [_term(f"lead {situation.board.units[lead].name}", _lead_cv(situation, lead, units), rule)]
    if len(units) > 1:
        terms.append(_term("additional units", extra_row.value * (len(units) - 1), extra_row.rule))
    return terms


def attack_value(situation: Situation, combat: Combat, air: int, rommel: int) -> tuple[int, list[Term]]:
    """11.4.2: the Attack Value and the terms that make it."""
    board = situation.board
    if combat.lead is None:
        raise ValueError("an Attack Value needs the Lead Attacking Unit (11.4.2)")
    units = combat.attackers
    mods = board.attack_mods
    terms = _base(situation, combat.lead, units, "11.4.2", mods["additional_unit"])
    if air:
        terms.append(_term("air support", air, mods["air_support"].rule))
    if rommel:
        terms.append(_term("Rommel", rommel, mods["rommel"].rule))
    if combat.attacker_artillery_ok:
        terms.append(_term("artillery", mods["artillery"].value, mods["artillery"].rule))
    if {"armor", "infantry", "anti_tank"} <= {board.kind(u) for u in units}:
        terms.append(_term("combined arms", mods["combined_arms"].value, mods["combined_arms"].rule))
    return _total(terms), terms


def defense_value(situation: Situation, combat: Combat, attacker: Side) -> tuple[int, list[Term]]:
    """11.4.3: the Defense Value and its terms."""
    board = situation.board
    if combat.def_lead is None:
        raise ValueError("a Defense Value needs the Lead Defending Unit (11.4.3)")
    mods = board.defense_mods
    terms = _base(situation, combat.def_lead, combat.defenders, "11.4.3", mods["additional_unit"])
    terms.append(_term("terrain (TEM)", board.locations[combat.target].tem, "3.1.3"))
    if combat.defender_artillery_ok:
        terms.append(_term("artillery", mods["artillery"].value, mods["artillery"].rule))
    if attacker == AXIS and situation.state.fuel_low:
        terms.append(_term("Axis fuel shortage", mods["fuel_shortage"].value, mods["fuel_shortage"].rule))
    return _total(terms), terms


def _total(terms: Sequence[Term]) -> int:
    return sum(int(t["value"]) for t in terms)


def describe(terms: Sequence[Term]) -> str:
    """``lead 2/RTR 5; +2 artillery``."""
    first, *rest = terms
    return "; ".join([f"{first['label']} {first['value']}", *(f"+{t['value']} {t['label']}" for t in rest)])


def record(
    combat: Combat,
    attacker: Side,
    defender: Side,
    result: str,
    ap: int,
    attack: tuple[Sequence[Term], Sequence[int]],
    defense: tuple[Sequence[Term], Sequence[int]],
) -> CombatRecord:
    """11.4.4: the combat as reports read it (pbem.rules.records): both sides' lead, terms and dice, and the
    Attrition Points the attacker scored."""

    def side(
        role: str, who: Side, units: Sequence[str], lead: str | None, scored: tuple[Sequence[Term], Sequence[int]]
    ) -> CombatSide:
        terms = tuple(tables.Term(label=str(t["label"]), value=int(t["value"]), rule=str(t["rule"])) for t in scored[0])
        dice = tuple(scored[1])
        total = sum(t.value for t in terms) + sum(dice)
        return CombatSide(role=role, side=who, units=tuple(units), lead=lead, terms=terms, dice=dice, total=total)

    return CombatRecord(
        location=combat.target,
        result=result,
        sides=(
            side("attack", attacker, combat.attackers, combat.lead, attack),
            side("defense", defender, combat.defenders, combat.def_lead, defense),
        ),
        hits=(Hits(side=attacker, count=ap, kind="attrition points"),) if ap else (),
    )


def absorbable(situation: Situation, units: Iterable[str]) -> int:
    """11.4.4: the most Attrition Points the units can take (all of them eliminated)."""
    ap = situation.board.attrition
    return sum(ap["fs_eliminated"] if situation.state.units[u].full else ap["rs_eliminated"] for u in units)


def outcome(attack_total: int, defense_total: int) -> CombatResult:
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
