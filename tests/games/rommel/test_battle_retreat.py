"""Pursuit Fire, Refusing Battle, Retreats and Probe Combat, Routs, Overruns, Disruption recovery and which battles
are fought (§4.5, §6.4, §8.2-§8.6, §10, §11, §13.2), with the audit's checks of hidden claims."""

from __future__ import annotations

import pytest

from pbem.games.rommel.battle import (
    BattleHex,
    Hits,
    Volley,
    apply_volley,
    can_recover,
    check_combat,
    check_losses,
    check_pursuers,
    check_pursuit_dice,
    check_refuse_battle,
    check_retreat,
    check_slowest_speed,
    engagement,
    fire,
    legal_losses,
    probe_battle,
    probe_round,
    pursuit_dice,
    pursuit_dice_counts,
    pursuit_hits,
    rearguard,
    retreat_forced_march,
    retreat_kind,
    rout_attrition,
    routed,
    slowest_speed,
    unfired_pursuers,
)
from pbem.games.rommel.data import RommelPack

from .battle_helpers import refused, unit

RECON = unit("recon", "axis", "armor", 3, speed=4)
ARMOR = unit("armor", "axis", "armor", 4, speed=3)
MOT = unit("mot", "axis", "infantry", 3, speed=2)
LEG = unit("leg", "axis", "infantry", 4, speed=1)


# --- §10.5 Pursuit Fire --------------------------------------------------------------------------------------------


@pytest.mark.rule("10.5")
def test_r10_5_one_die_per_equally_fast_pursuer_two_per_faster_none_for_slower(rommel: RommelPack) -> None:
    # Against a group whose slowest unit has speed 3: recon (4) 2 dice, armor (3) 1, motorized (2) and leg (1) none.
    assert pursuit_dice(rommel, 3, [RECON, ARMOR, MOT, LEG]) == 3
    assert pursuit_dice(rommel, 1, [RECON, ARMOR, MOT, LEG]) == 7
    assert pursuit_dice(rommel, 4, [ARMOR, MOT]) == 0


@pytest.mark.rule("10.5")
def test_r10_5_slowest_retreating_speed_is_announced_and_audited() -> None:
    retreating = [unit("a", "allied", "armor", 4, speed=3), unit("b", "allied", "infantry", 3, speed=2)]
    assert slowest_speed(retreating) == 2
    assert check_slowest_speed(retreating, 2).ok
    assert refused(check_slowest_speed(retreating, 3)) == ("10.5", "slowest-speed-misreported")
    with pytest.raises(ValueError):
        slowest_speed([])


@pytest.mark.rule("10.5")
def test_r10_5_claimed_pursuit_dice_are_audited_against_true_speeds(rommel: RommelPack) -> None:
    # Pursuit Deception (§10 sidebar): some pursuers may withhold fire, so any sum of whole units' dice is legal.
    assert pursuit_dice_counts(rommel, 3, [RECON, ARMOR, MOT]) == {0, 1, 2, 3}
    assert pursuit_dice_counts(rommel, 3, [RECON, unit("r2", "axis", "armor", 3, speed=4)]) == {0, 2, 4}
    assert check_pursuit_dice(rommel, 3, [RECON, ARMOR], 3).ok
    assert refused(check_pursuit_dice(rommel, 3, [RECON, ARMOR], 4)) == ("10.5", "pursuit-dice-miscounted")
    assert refused(check_pursuit_dice(rommel, 3, [RECON, RECON], 1)) == ("10.5", "pursuit-dice-miscounted")


@pytest.mark.rule("10.5")
def test_r10_5_pursuit_hits_on_four_to_six_applied_as_in_9_5(rommel: RommelPack) -> None:
    assert pursuit_hits(rommel, (1, 2, 3, 4, 5, 6)) == 3
    with pytest.raises(ValueError):
        pursuit_hits(rommel, (7,))
    # The retreating player applies them to any retreating units as desired, per §9.5 (not by class).
    retreating = [unit("elite", "allied", "armor", 4, elite=True), unit("inf", "allied", "infantry", 1)]
    assert [dict(x) for x in legal_losses(retreating, Hits(full=3))] == [{"elite": 2, "inf": 1}]
    assert refused(check_losses(retreating, Hits(full=3), {"elite": 2})) == ("9.5", "hits-wasted")


@pytest.mark.rule("10.5")
def test_r10_5_only_unfired_undisrupted_units_pursue() -> None:
    battle = BattleHex((RECON, ARMOR, unit("shaken", "axis", "armor", 2, disrupted=True), MOT), attacker="axis")
    assert [u.block for u in unfired_pursuers(battle, "axis", fired={"armor"})] == ["recon", "mot"]
    assert check_pursuers(battle, "axis", {"recon"}, fired={"armor"}).ok
    assert refused(check_pursuers(battle, "axis", {"armor"}, fired={"armor"})) == ("10.5", "not-a-pursuer")
    assert refused(check_pursuers(battle, "axis", {"shaken"})) == ("10.5", "not-a-pursuer")


# --- §8.4, §10.2 Refusing Battle -----------------------------------------------------------------------------------


@pytest.mark.rule("10.2")
def test_r10_2_refuse_battle_withdraws_every_undisrupted_unit_of_an_attacked_group() -> None:
    group = [ARMOR, MOT, unit("shaken", "axis", "infantry", 2, disrupted=True)]
    lines = {"armor": True, "mot": True}
    assert check_refuse_battle(group, {"armor", "mot"}, attacked=True, engaged_before=False, supply_lines=lines).ok
    assert refused(check_refuse_battle(group, {"armor"}, attacked=True, engaged_before=False, supply_lines=lines)) == (
        "10.2",
        "partial-refusal",
    )
    assert refused(
        check_refuse_battle(group, {"armor", "mot"}, attacked=False, engaged_before=False, supply_lines=lines)
    ) == ("10.2", "not-attacked")


@pytest.mark.rule("8.4")
def test_r8_4_groups_engaged_before_movement_and_groups_lacking_supply_lines_cannot_refuse() -> None:
    group = [ARMOR, MOT]
    lines = {"armor": True, "mot": True}
    assert refused(
        check_refuse_battle(group, {"armor", "mot"}, attacked=True, engaged_before=True, supply_lines=lines)
    ) == ("8.4", "already-engaged")
    # §8.4 sidebar: a mixed group of which only some units have a Supply Line may not Refuse Battle.
    assert refused(
        check_refuse_battle(
            group, {"armor", "mot"}, attacked=True, engaged_before=False, supply_lines={"armor": True, "mot": False}
        )
    ) == ("8.4", "no-supply-line")


@pytest.mark.rule("8.2")
def test_r8_2_unshielded_disrupted_units_attacked_rout_rather_than_refuse() -> None:
    group = [unit("shaken", "axis", "infantry", 2, disrupted=True)]
    assert refused(check_refuse_battle(group, set(), attacked=True, engaged_before=False, supply_lines={})) == (
        "8.2",
        "unshielded-routs",
    )


@pytest.mark.rule("8.2")
def test_r8_2_attack_join_and_overrun() -> None:
    foe = unit("foe", "allied", "infantry", 3)
    shaken = unit("shaken", "allied", "infantry", 3, disrupted=True)
    assert engagement([], "axis") == "none"
    assert engagement([LEG], "axis") == "none"
    assert engagement([foe], "axis") == "attack"
    assert engagement([foe, shaken], "axis") == "attack"  # the disrupted unit is shielded
    assert engagement([foe, LEG], "axis") == "join"  # adding units to a battle is not an Attack


@pytest.mark.rule("11.4")
def test_r11_4_disrupted_enemy_units_sharing_a_hex_with_friendly_disrupted_units_are_overrun() -> None:
    # §5.3 sidebar: Disrupted units of both sides may share a hex; neither shields the other side's units, so
    # entering it with an undisrupted unit Routs the enemy ones (§11.4: "Unshielded enemy Disrupted units").
    shaken_foe = unit("shaken-foe", "allied", "infantry", 3, disrupted=True)
    shaken_own = unit("shaken-own", "axis", "infantry", 2, disrupted=True)
    assert engagement([shaken_foe, shaken_own], "axis") == "overrun"
    foe = unit("foe", "allied", "infantry", 3)
    assert engagement([foe, LEG], "axis") == "join"


# --- §11.3, §11.4, §11.11 Routs and Overruns -----------------------------------------------------------------------


@pytest.mark.rule("11.4")
def test_r11_4_entering_a_hex_of_only_disrupted_enemy_units_is_an_overrun(rommel: RommelPack) -> None:
    shaken = [
        unit("s1", "allied", "infantry", 3, disrupted=True, speed=2),
        unit("s2", "allied", "armor", 1, disrupted=True, speed=3),
    ]
    assert engagement(shaken, "axis") == "overrun"
    # Overrun procedure: attrition first (s2 is eliminated), then Pursuit Fire by the overrunning units against the
    # survivors' slowest speed (2): recon and armor are faster, 2 dice each; the leg infantry is slower.
    after = [rout_attrition(rommel, u) for u in shaken]
    assert after == [unit("s1", "allied", "infantry", 2, disrupted=True, speed=2), None]
    survivors = [u for u in after if u is not None]
    assert pursuit_dice(rommel, slowest_speed(survivors), [RECON, ARMOR, LEG]) == 4


@pytest.mark.rule("11.3")
def test_r11_3_rout_attrition_is_one_step_two_cv_for_elite(rommel: RommelPack) -> None:
    assert rout_attrition(rommel, unit("e", "axis", "armor", 6, elite=True)) == unit(
        "e", "axis", "armor", 4, elite=True
    )
    assert rout_attrition(rommel, unit("e", "axis", "armor", 2, elite=True)) is None
    assert rout_attrition(rommel, unit("n", "allied", "infantry", 1)) is None


@pytest.mark.rule("11.11")
def test_r11_11_disrupted_units_rout_once_no_shielding_unit_remains(rommel: RommelPack) -> None:
    guard = unit("guard", "allied", "infantry", 1, speed=2)
    shaken = unit("shaken", "allied", "infantry", 3, disrupted=True, speed=2)
    battle = BattleHex((ARMOR, LEG, guard, shaken), attacker="axis")
    assert routed(battle, "allied") == ()
    # Combat-phase Rout (§11.3 sidebar): the Axis leg infantry kills the shield; only unfired Axis units pursue.
    round_ = probe_round("allied")  # any round the Axis initiates
    volley, _ = fire(rommel, battle, round_, Volley("axis"), "leg", "infantry", (6, 1, 1, 1))
    after = apply_volley(battle, volley, {"infantry": {"guard": 1}})
    assert routed(after, "allied") == (shaken,)
    assert [u.block for u in unfired_pursuers(after, "axis", volley.fired)] == ["armor"]
    assert (
        pursuit_dice(rommel, slowest_speed(routed(after, "allied")), unfired_pursuers(after, "axis", volley.fired)) == 2
    )


@pytest.mark.rule("11.3")
def test_r11_3_disrupted_units_rout_only_from_undisrupted_enemy_units() -> None:
    # §11.3 routs Disrupted units left "in a battle hex": with no enemy left the battle is won (§11.11), and beside
    # enemy units that are all Disrupted too nothing happens (§5.3 sidebar: the first to recover Routs the other).
    shaken = unit("shaken", "allied", "infantry", 3, disrupted=True, speed=2)
    assert routed(BattleHex((shaken,), attacker="axis"), "allied") == ()
    both = BattleHex((shaken, unit("dazed", "axis", "infantry", 2, disrupted=True)), attacker="axis")
    assert routed(both, "allied") == () and routed(both, "axis") == ()
    assert routed(BattleHex((shaken, LEG), attacker="axis"), "allied") == (shaken,)


# --- §10.3, §10.4, §10.41 Retreats -------------------------------------------------------------------------------


@pytest.mark.rule("10.3")
@pytest.mark.rule("10.0")
@pytest.mark.rule("7.2")
def test_r10_3_full_retreat_disengages_every_undisrupted_unit() -> None:
    shaken = unit("shaken", "axis", "infantry", 2, disrupted=True)
    battle = BattleHex((ARMOR, MOT, shaken, unit("foe", "allied", "armor", 4)), attacker="axis")
    assert retreat_kind(battle, "axis", {"armor", "mot"}) == "full"
    assert check_retreat(battle, "axis", {"armor", "mot"}, withdrawal_move=True).ok
    # The disrupted unit stays behind, unshielded: it Routs (§10.3 procedure step 4).
    assert routed(battle.without({"armor", "mot"}), "axis") == (shaken,)
    assert refused(check_retreat(battle, "axis", {"shaken"}, withdrawal_move=False)) == (
        "11.1",
        "disrupted-cannot-move",
    )
    assert refused(check_retreat(battle, "axis", {"foe"}, withdrawal_move=False)) == ("7.2", "not-engaged")
    assert refused(check_retreat(battle, "axis", {"ghost"}, withdrawal_move=False)) == ("7.2", "not-engaged")
    assert refused(check_retreat(battle, "axis", set(), withdrawal_move=False)) == ("10.0", "nothing-disengages")


@pytest.mark.rule("10.4")
def test_r10_4_partial_retreat_never_by_withdrawal_move_and_no_combat_after() -> None:
    battle = BattleHex((ARMOR, MOT, unit("foe", "allied", "armor", 4)), attacker="axis")
    assert retreat_kind(battle, "axis", {"armor"}) == "partial"
    assert check_retreat(battle, "axis", {"armor"}, withdrawal_move=False).ok
    assert refused(check_retreat(battle, "axis", {"armor"}, withdrawal_move=True)) == ("10.4", "partial-by-withdrawal")
    assert rearguard(battle, "axis", {"armor"}) == (MOT,)
    assert refused(
        check_combat(fight=True, active="axis", attacker="axis", new=False, fortress=False, partial_retreat=True)
    ) == (
        "10.4",
        "partial-retreat-no-combat",
    )
    # RULING (notes §10.9), the default of the option partial_retreat_bars_fortress_combat: no combat after a Partial
    # Retreat, even where Fortress combat is mandatory.
    assert check_combat(fight=False, active="axis", attacker="axis", new=False, fortress=True, partial_retreat=True).ok
    assert refused(
        check_combat(fight=True, active="axis", attacker="axis", new=False, fortress=True, partial_retreat=True)
    ) == ("10.4", "partial-retreat-no-combat")


@pytest.mark.rule("13.2")
def test_r13_2_mandatory_fortress_combat_after_a_partial_retreat_as_an_option() -> None:
    # With partial_retreat_bars_fortress_combat=False, §13.2 wins: the Fortress Attacker fights its Rearguard's battle.
    def fortress(*, fight: bool, blitz: bool = False, fortress: bool = True) -> tuple[bool, str]:
        verdict = check_combat(
            fight=fight,
            active="axis",
            attacker="axis",
            new=False,
            fortress=fortress,
            blitz=blitz,
            partial_retreat=True,
            partial_retreat_bars_fortress_combat=False,
        )
        return verdict.ok, verdict.reason

    assert fortress(fight=True) == (True, "")
    assert fortress(fight=False) == (False, "fortress-combat")
    assert fortress(fight=False, blitz=True)[0]  # Blitz Combat: Fortress combat is not mandatory
    assert fortress(fight=True, blitz=True) == (False, "partial-retreat-no-combat")
    assert fortress(fight=True, fortress=False) == (False, "partial-retreat-no-combat")


@pytest.mark.rule("10.41")
def test_r10_41_probe_combat_eliminating_the_rearguard_exposes_the_disengaging_units(rommel: RommelPack) -> None:
    # The Axis (active) leaves its armor and keeps a 1-CV motorized rearguard; the Allies probe with two units.
    rear = unit("rear", "axis", "infantry", 1, speed=2)
    probers = (unit("p-inf", "allied", "infantry", 2, speed=2), unit("p-armor", "allied", "armor", 3, speed=3))
    battle = BattleHex((ARMOR, rear, *probers), attacker="allied")
    probe = probe_battle(battle, {"armor"})
    round_ = probe_round("axis")
    assert round_.order == ("axis", "allied") and not round_.assault
    # Rearguard fires Defensive Fire first (misses), then the probers fire Offensive Fire.
    defensive, _ = fire(rommel, probe, round_, Volley("axis"), "rear", "infantry", (1,))
    probe = apply_volley(probe, defensive, {})
    offensive, _ = fire(rommel, probe, round_, Volley("allied"), "p-inf", "infantry", (6, 2))
    probe = apply_volley(probe, offensive, {"infantry": {"rear": 1}})
    assert rearguard(probe, "axis", {"armor"}) == ()
    # The retreat becomes a full one: unfired probers pursue the disengaging armor (speed 3): p-armor 1 die.
    pursuers = unfired_pursuers(probe, "allied", offensive.fired)
    assert [u.block for u in pursuers] == ["p-armor"]
    assert pursuit_dice(rommel, slowest_speed([ARMOR]), pursuers) == 1


# --- §11.2 recovery ---------------------------------------------------------------------------------------------


@pytest.mark.rule("11.2")
def test_r11_2_recovery_needs_no_battle_a_supply_line_and_a_full_enemy_turn() -> None:
    assert can_recover(in_battle_hex=False, supply_line=True, enemy_turns_disrupted=1).ok
    assert refused(can_recover(in_battle_hex=True, supply_line=True, enemy_turns_disrupted=2)) == ("11.2", "in-battle")
    assert refused(can_recover(in_battle_hex=False, supply_line=False, enemy_turns_disrupted=2)) == (
        "11.2",
        "no-supply-line",
    )
    assert refused(can_recover(in_battle_hex=False, supply_line=True, enemy_turns_disrupted=0)) == (
        "11.2",
        "too-recent",
    )


# --- §8.6, §13.2, §4.5 which battles are fought ------------------------------------------------------------------


@pytest.mark.rule("8.6")
def test_r8_6_new_battles_must_be_fought() -> None:
    assert refused(check_combat(fight=False, active="axis", attacker="axis", new=True, fortress=False)) == (
        "8.6",
        "new-battle",
    )
    assert check_combat(fight=False, active="axis", attacker="axis", new=False, fortress=False).ok
    assert check_combat(fight=True, active="allied", attacker="axis", new=False, fortress=False).ok


@pytest.mark.rule("13.2")
def test_r13_2_the_fortress_attacker_must_fight_except_in_blitz_combat() -> None:
    assert refused(check_combat(fight=False, active="axis", attacker="axis", new=False, fortress=True)) == (
        "13.2",
        "fortress-combat",
    )
    assert check_combat(fight=False, active="axis", attacker="axis", new=False, fortress=True, blitz=True).ok
    assert check_combat(fight=False, active="allied", attacker="axis", new=False, fortress=True).ok  # the Defender


@pytest.mark.rule("4.5")
def test_r4_5_no_combat_in_a_pass_turn() -> None:
    assert refused(
        check_combat(fight=True, active="axis", attacker="axis", new=False, fortress=False, pass_turn=True)
    ) == (
        "4.5",
        "pass-no-combat",
    )
    assert check_combat(fight=False, active="axis", attacker="axis", new=False, fortress=True, pass_turn=True).ok


@pytest.mark.rule("6.4")
def test_r6_4_a_retreating_unit_failing_a_forced_march_loses_a_step(rommel: RommelPack) -> None:
    assert retreat_forced_march(rommel, LEG) == unit("leg", "axis", "infantry", 3, speed=1)
    assert retreat_forced_march(rommel, unit("e", "axis", "infantry", 2, elite=True)) is None


@pytest.mark.rule("10.2")
@pytest.mark.rule("11.3")
def test_r10_2_refusing_battle_with_disrupted_units_in_the_group(rommel: RommelPack) -> None:
    # §8.6 sidebar, Refusing Battle: Disrupted Units in the Group. The undisrupted units take Pursuit Fire and
    # withdraw; the Disrupted units, now unshielded, Rout: attrition, then Pursuit Fire from unfired pursuers.
    fast = unit("fast", "allied", "armor", 4, speed=3)
    shaken = unit("shaken", "allied", "infantry", 3, speed=1, disrupted=True)
    hunters = (RECON, ARMOR, LEG)
    battle = BattleHex((fast, shaken, *hunters), attacker="axis")
    assert check_refuse_battle(
        [fast, shaken], {"fast"}, attacked=True, engaged_before=False, supply_lines={"fast": True}
    ).ok
    # The Axis saves its leg infantry for the Rout (Pursuit Deception): recon and armor pursue the armor (speed 3).
    assert check_pursuers(battle, "axis", {"recon", "armor"}).ok
    assert pursuit_dice(rommel, slowest_speed([fast]), [RECON, ARMOR]) == 3
    after = battle.without({"fast"})
    assert routed(after, "allied") == (shaken,)
    survivor = rout_attrition(rommel, shaken)
    assert survivor is not None and survivor.cv == 2
    pursuers = unfired_pursuers(after, "axis", fired={"recon", "armor"})
    assert pursuers == (LEG,)
    assert pursuit_dice(rommel, slowest_speed([survivor]), pursuers) == 1
