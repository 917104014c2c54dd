"""Selecting battles and Assaults (§4.3, §8.6), the Battle Array (§8.5), Fortress Attackers in a Pass Turn (§13.2
sidebars), the end of a battle (§8.0), and fire prompts that offer exactly what the checks accept (§9.2, §9.3)."""

from __future__ import annotations

from itertools import product

import pytest

from pbem.games.rommel.battle import (
    CLASSES,
    BattleHex,
    Round,
    Volley,
    attacked,
    battle_array,
    battle_over,
    check_assault,
    check_fire,
    engaged_across,
    fire,
    fire_options,
    fortress_pass_withdrawal,
    is_raider,
)
from pbem.games.rommel.data import RommelPack

from .battle_helpers import refused, unit

UNITS = (
    unit("ax-art", "axis", "artillery", 2),
    unit("ax-armor", "axis", "armor", 3),
    unit("ax-inf", "axis", "infantry", 2),
    unit("ax-shaken", "axis", "anti_tank", 2, disrupted=True),
    unit("al-inf", "allied", "infantry", 1),
    unit("al-art", "allied", "artillery", 2),
    unit("al-at", "allied", "anti_tank", 2),
)


@pytest.mark.rule("4.3")
def test_r4_3_assaults_only_in_an_assault_turn_and_only_in_active_battles() -> None:
    assert check_assault(assault=True, assault_turn=True, fight=True).ok
    assert check_assault(assault=False, assault_turn=False, fight=False).ok
    assert refused(check_assault(assault=True, assault_turn=False, fight=True)) == ("4.3", "not-assault-turn")
    assert refused(check_assault(assault=True, assault_turn=True, fight=False)) == ("8.6", "assault-not-active")


@pytest.mark.rule("8.5")
def test_r8_5_the_battle_array_reveals_undisrupted_units_by_class() -> None:
    battle = BattleHex(UNITS, attacker="axis")
    array = battle_array(battle)
    assert [u.block for u in array["axis"]] == ["ax-armor", "ax-inf", "ax-art"]
    assert [u.block for u in array["allied"]] == ["al-inf", "al-at", "al-art"]


@pytest.mark.rule("13.2")
def test_r13_2_fortress_attackers_passing_must_withdraw() -> None:
    fortress = BattleHex(UNITS, attacker="axis", fortress=True)
    assert fortress_pass_withdrawal(fortress, "axis", pass_turn=True)
    assert not fortress_pass_withdrawal(fortress, "axis", pass_turn=False)
    assert not fortress_pass_withdrawal(fortress, "allied", pass_turn=True)
    assert not fortress_pass_withdrawal(BattleHex(UNITS, attacker="axis"), "axis", pass_turn=True)


@pytest.mark.rule("8.0")
def test_r8_0_a_battle_ends_when_one_side_is_alone() -> None:
    battle = BattleHex(UNITS, attacker="axis")
    assert battle_over(battle) is None
    assert battle_over(battle.without(u.block for u in UNITS if u.side == "allied")) == "axis"


@pytest.mark.rule("9.2")
@pytest.mark.rule("9.3")
def test_r9_3_fire_options_are_exactly_the_accepted_fires(rommel: RommelPack) -> None:
    battle = BattleHex(UNITS, attacker="axis")
    round_ = Round("axis")
    volley = Volley("axis")
    for step in range(4):
        options = set(fire_options(battle, volley))
        accepted = {
            (u.block, c) for u, c in product(battle.units, CLASSES) if check_fire(battle, volley, u.block, c).ok
        }
        assert options == accepted, step
        if volley.shots:  # the armor fired first: artillery may no longer fire (§9.2)
            assert all(block != "ax-art" for block, _ in options)
        if not options:
            break
        block, target = sorted(options)[0]
        volley, _ = fire(rommel, battle, round_, volley, block, target, (6,) * (battle.unit(block).cv))
    # The armor (free: no Allied armor) and the infantry fired; the disrupted unit and the late artillery did not.
    assert [s.block for s in volley.shots] == ["ax-armor", "ax-inf"]


@pytest.mark.rule("8.1")
def test_r8_1_battle_hexsides_are_friendly_to_the_side_that_last_engaged_across_them() -> None:
    control = attacked("axis")
    assert control.defender == "allied"
    assert control.owner("h1") == "allied"  # uncrossed: the Defender's
    control = engaged_across(control, "h1", "axis")
    assert control.owner("h1") == "axis" and control.owner("h2") == "allied"
    control = engaged_across(control, "h1", "allied")
    assert control.owner("h1") == "allied"


@pytest.mark.rule("12.5")
def test_r12_5_unsupplied_units_entering_across_an_enemy_hexside_do_not_flip_it_and_are_raiders() -> None:
    control = attacked("axis")
    assert engaged_across(control, "h1", "axis", supplied=False).owner("h1") == "allied"
    assert is_raider(control, "h1", "axis", supplied=False)
    assert not is_raider(control, "h1", "axis", supplied=True)
    # Entering across a hexside already friendly keeps it friendly, and the unit is no Raider.
    friendly = engaged_across(control, "h1", "axis")
    assert engaged_across(friendly, "h1", "axis", supplied=False).owner("h1") == "axis"
    assert not is_raider(friendly, "h1", "axis", supplied=False)
