"""Which battles are fought, and how (§4.3, §4.5, §8.5, §8.6, §13.2), battle hexsides (§8.1, §12.5 Raiders), the
Battle Array (§8.5), the end of a battle, and Disruption recovery (§11.2).

The Active Player selects the Active Battles (:func:`check_combat` for each battle: new battles and the Attacker's
Fortress battles must be fought, none in a Pass Turn or after a Partial Retreat) and, in an Assault Turn, the
Assault battles (:func:`check_assault`). :func:`battle_array` is what the Battle Array reveals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from pbem.games.rommel.battle_units import CLASSES, BattleHex, BattleUnit, Side, other_side
from pbem.games.rommel.board import Battle
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "attacked",
    "battle_array",
    "battle_over",
    "can_recover",
    "check_assault",
    "check_combat",
    "engaged_across",
    "fortress_pass_withdrawal",
    "is_raider",
]


def attacked(mover: Side) -> Battle:
    """§8.3, §8.1: the battle ``mover`` starts by Attacking: the other side is its Defender, and every hexside no one
    has crossed yet is friendly to the Defender."""
    return Battle(defender=other_side(mover))


def engaged_across(control: Battle, hexside: str, side: Side, *, supplied: bool = True) -> Battle:
    """§8.1: the battle after ``side``'s units engage across ``hexside``: it becomes friendly to ``side`` at once,
    except that Unsupplied units entering across an enemy hexside do not make it friendly (§12.5, Raiders)."""
    if not supplied and control.owner(hexside) != side:
        return control
    return replace(control, crossed=MappingProxyType({**control.crossed, hexside: side}))


def is_raider(control: Battle, entry: str, side: Side, *, supplied: bool) -> bool:
    """§12.5: a unit that entered the battle Unsupplied across ``entry`` is a Raider if that hexside is still enemy
    after all movement (it fights normally, but is cut off from friendly supply)."""
    return not supplied and control.owner(entry) != side


def battle_array(battle: BattleHex) -> Mapping[Side, tuple[BattleUnit, ...]]:
    """§8.5: each side's units revealed in its Battle Line, grouped by arms class (the Battle Arrays sidebar);
    Disrupted units stay face down behind the lines and are not revealed (§11.11)."""
    return {
        side: tuple(u for cls in CLASSES for u in battle.of(side) if u.arms_class == cls)
        for side in (battle.attacker, battle.defender)
    }


def battle_over(battle: BattleHex) -> Side | None:
    """§8.0: the side left alone in the hex once a battle ends (the other side retreated or was eliminated), or
    None while both sides have units there (or neither has)."""
    sides = {u.side for u in battle.units}
    return next(iter(sides)) if len(sides) == 1 else None


def fortress_pass_withdrawal(battle: BattleHex, active: Side, *, pass_turn: bool) -> bool:
    """§13.2 and the §8.6 / §13.5 sidebars, Fortress Combat in Pass Turns: whether the Active Player's units must
    leave the battle by Withdrawal Move (they Rout if they cannot): he is the Attacker in a Fortress and Passes."""
    return pass_turn and battle.fortress and active == battle.attacker


def check_assault(*, assault: bool, assault_turn: bool, fight: bool) -> Verdict:
    """§4.3, §8.6: whether a battle may be designated an Assault: only in an Assault Turn, and only an Active Battle."""
    if not assault:
        return ALLOW
    if not assault_turn:
        return deny("4.3", "not-assault-turn", "Assault battles are designated only in an Assault Turn")
    if not fight:
        return deny("8.6", "assault-not-active", "only a battle selected for combat can be an Assault")
    return ALLOW


# --- §11.2 recovery ---------------------------------------------------------------------------------------------


def can_recover(*, in_battle_hex: bool, supply_line: bool, enemy_turns_disrupted: int) -> Verdict:
    """§11.2: whether a Disrupted unit recovers at its side's Initial Supply Check.

    Args:
        in_battle_hex: it is in a battle hex (enemy units in its hex, §11.11). A hex holding only Disrupted units of
            both sides is not one (notes §10.18: "the first Group to recover will Rout the other", §5.3 sidebar).
        supply_line: it has a Supply Line.
        enemy_turns_disrupted: complete enemy Player-Turns it has spent Disrupted (a unit Disrupted in an enemy turn,
            by Refusing Battle or a Rout, has not spent that one).
    """
    if in_battle_hex:
        return deny("11.2", "in-battle", "Disrupted units cannot recover while enemy units remain in the hex")
    if not supply_line:
        return deny("11.2", "no-supply-line", "Disrupted units recover only with a Supply Line")
    if enemy_turns_disrupted < 1:
        return deny("11.2", "too-recent", "a unit recovers after one complete enemy Player-Turn Disrupted")
    return ALLOW


# --- §8.6, §13.2, §10.4, §4.5 which battles are fought ------------------------------------------------------------


def check_combat(
    *,
    fight: bool,
    active: Side,
    attacker: Side,
    new: bool,
    fortress: bool,
    blitz: bool = False,
    partial_retreat: bool = False,
    pass_turn: bool = False,
    partial_retreat_bars_fortress_combat: bool = True,
) -> Verdict:
    """Whether the Active Player may fight (``fight``) or skip a battle in this Combat phase.

    Args:
        new: the battle began in the Movement phase just played (Blitz Movement for Blitz Combat) (§8.6).
        fortress: the battle hex is a Fortress (§13.2: the Attacker must fight every Combat round, not in Blitz
            Combat).
        partial_retreat: the Active Player made a Partial Retreat from it this Player-Turn (§10.4: no combat there).
        pass_turn: a Pass Turn (§4.5: no combat at all).
        partial_retreat_bars_fortress_combat: the option for the Fortress Attacker's Partial Retreat (notes §10.9),
            where §10.4 ("you cannot initiate Combat in that Battle") meets §13.2 ("the Attacker must initiate
            combat"). True (RULING, the recommended default): §10.4 wins, the battle is not fought. False: §13.2
            wins, the Attacker fights it (outside Blitz Combat, where Fortress combat is not mandatory).
    """
    fortress_duty = fortress and active == attacker and not blitz
    partial_bars = partial_retreat and not (fortress_duty and not partial_retreat_bars_fortress_combat)
    if fight:
        if pass_turn:
            return deny("4.5", "pass-no-combat", "no combat in a Pass Turn")
        if partial_bars:
            return deny("10.4", "partial-retreat-no-combat", "no combat in a battle after a Partial Retreat from it")
        return ALLOW
    if pass_turn:
        return ALLOW
    if new and not partial_retreat:
        return deny("8.6", "new-battle", "combat is required in the first Combat phase of a new battle")
    if fortress_duty and not partial_bars:
        return deny("13.2", "fortress-combat", "the Attacker must wage combat in a Fortress every Combat round")
    return ALLOW
