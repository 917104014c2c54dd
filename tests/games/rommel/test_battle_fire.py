"""The combat round (§9.1-§9.4, §9.21, §9.52, §13.2, §14.2): who fires when, targeting, the Fire Table from the pack,
dice multipliers, half-hits, and the §9 fire sidebars step by step."""

from __future__ import annotations

import doctest

import pytest

from pbem.games.rommel import battle as battle_module
from pbem.games.rommel.battle import (
    CLASSES,
    ArmsClass,
    BattleHex,
    BattleUnit,
    Hits,
    Losses,
    PlannedFire,
    Round,
    Side,
    Volley,
    apply_volley,
    check_fire,
    check_volley_losses,
    check_volley_over,
    dice_multiplier,
    fire,
    fire_dice,
    fire_level,
    half_hits,
    hits_scored,
    legal_targets,
    plan_dice,
    remaining_classes,
    resolve_plan,
    volley_losses,
)
from pbem.games.rommel.data import ARMS_CLASSES, RommelPack

from .battle_helpers import refused, unit

AX_ARMOR = unit("ax-armor", "axis", "armor", 6)
AX_INF = unit("ax-inf", "axis", "infantry", 4)
AX_AT = unit("ax-at", "axis", "anti_tank", 3)
AX_ART = unit("ax-art", "axis", "artillery", 3)
AL_ARMOR = unit("al-armor", "allied", "armor", 4)
AL_INF = unit("al-inf", "allied", "infantry", 3)
AL_AT = unit("al-at", "allied", "anti_tank", 3)
AL_ART = unit("al-art", "allied", "artillery", 2)


def hexof(*units: BattleUnit, attacker: Side = "axis", fortress: bool = False, minefield: bool = False) -> BattleHex:
    return BattleHex(units, attacker=attacker, fortress=fortress, minefield=minefield)


def test_module_docstring_example_runs() -> None:
    failures, tried = doctest.testmod(battle_module)
    assert tried > 10 and failures == 0


# --- §9.1 order ----------------------------------------------------------------------------------------------------


@pytest.mark.rule("9.1")
def test_r9_1_the_passive_player_fires_defensive_fire_first() -> None:
    assert Round(initiator="axis").order == ("allied", "axis")
    assert Round(initiator="allied").defensive == "axis"


@pytest.mark.rule("9.1")
def test_r9_1_offensive_fire_uses_the_surviving_reduced_units(rommel: RommelPack) -> None:
    battle = hexof(AX_INF, AL_INF)
    round_ = Round(initiator="axis")
    volley, _ = fire(rommel, battle, round_, Volley("allied"), "al-inf", "infantry", (6, 6, 1))
    after = apply_volley(battle, volley, {"infantry": {"ax-inf": 2}})
    assert fire_dice(rommel, after, round_, "ax-inf") == 2
    assert refused(check_fire(battle, Volley("axis"), "al-inf", "infantry")) == ("9.1", "not-firing-side")


# --- §9.2 unit fire ------------------------------------------------------------------------------------------------


@pytest.mark.rule("9.2")
def test_r9_2_one_die_per_cv_and_each_unit_fires_once(rommel: RommelPack) -> None:
    battle = hexof(AX_ARMOR, AL_ARMOR)
    round_ = Round(initiator="axis")
    assert fire_dice(rommel, battle, round_, "ax-armor") == 6
    volley, shot = fire(rommel, battle, round_, Volley("axis"), "ax-armor", "armor", (6, 6, 5, 1, 1, 1))
    assert shot.hits == Hits(full=2) and volley.fired == {"ax-armor"}
    assert refused(check_fire(battle, volley, "ax-armor", "armor")) == ("9.2", "already-fired")
    assert refused(check_fire(battle, volley, "nobody", "armor")) == ("9.2", "not-in-battle")
    with pytest.raises(ValueError):
        fire(rommel, battle, round_, Volley("axis"), "ax-armor", "armor", (6, 6))
    with pytest.raises(ValueError):
        fire(rommel, battle, round_, volley, "ax-armor", "armor", (6,) * 6)


@pytest.mark.rule("9.2")
def test_r9_2_artillery_fires_first(rommel: RommelPack) -> None:
    battle = hexof(AX_INF, AX_ART, AL_INF, AL_ART)
    round_ = Round(initiator="axis")
    after_art, _ = fire(rommel, battle, round_, Volley("axis"), "ax-art", "artillery", (1, 1, 1))
    assert check_fire(battle, after_art, "ax-inf", "infantry").ok
    after_inf, _ = fire(rommel, battle, round_, Volley("axis"), "ax-inf", "infantry", (1, 1, 1, 1))
    assert refused(check_fire(battle, after_inf, "ax-art", "infantry")) == ("9.2", "artillery-fires-first")


@pytest.mark.rule("9.2")
def test_r9_2_firing_is_optional_by_default(rommel: RommelPack) -> None:
    # RULING (notes §10.29), the default of the option fire_optional: a side may end its volley with units unfired.
    battle = hexof(AX_INF, AX_ART, AL_INF, AL_ART)
    assert check_volley_over(battle, Volley("axis")).ok
    assert check_fire(battle, Volley("axis"), "ax-inf", "infantry").ok  # the artillery forgoes its fire


@pytest.mark.rule("9.2")
def test_r9_2_with_mandatory_fire_every_unit_fires_and_all_artillery_first(rommel: RommelPack) -> None:
    # The option fire_optional=False reads §9.2 "each unit fires once" strictly.
    battle = hexof(AX_INF, AX_ART, AL_INF, AL_ART)
    round_ = Round(initiator="axis")
    strict = Volley("axis", fire_optional=False)
    assert refused(check_fire(battle, strict, "ax-inf", "infantry")) == ("9.2", "artillery-fires-first")
    assert refused(check_volley_over(battle, strict)) == ("9.2", "units-must-fire")
    strict, _ = fire(rommel, battle, round_, strict, "ax-art", "infantry", (1, 1, 1))
    assert check_fire(battle, strict, "ax-inf", "infantry").ok
    assert refused(check_volley_over(battle, strict)) == ("9.2", "units-must-fire")
    strict, _ = fire(rommel, battle, round_, strict, "ax-inf", "infantry", (1, 1, 1, 1))
    assert check_volley_over(battle, strict).ok
    # A unit with nothing left to fire at is not held to fire.
    alone = hexof(AX_INF, AX_ARMOR, unit("al-lone", "allied", "infantry", 1))
    strict, _ = fire(rommel, alone, round_, Volley("axis", fire_optional=False), "ax-inf", "infantry", (6, 1, 1, 1))
    assert check_volley_over(alone, strict).ok


@pytest.mark.rule("9.2")
def test_r9_2_a_fire_plan_under_mandatory_fire_covers_every_unit(rommel: RommelPack) -> None:
    lone = unit("al-lone", "allied", "infantry", 1)
    second = unit("ax-inf2", "axis", "infantry", 2)
    battle = hexof(AX_INF, second, lone, AL_ART)
    round_ = Round("axis")
    strict = Volley("axis", fire_optional=False)
    first = PlannedFire("ax-inf", ("infantry",))
    with pytest.raises(ValueError, match="units-must-fire"):
        resolve_plan(rommel, battle, round_, strict, [first], (6, 1, 1, 1))
    # The second unit's listed class is gone: it must still fire, at its first legal target (Fire Table order).
    volley = resolve_plan(
        rommel, battle, round_, strict, [first, PlannedFire("ax-inf2", ("infantry",))], (6, 1, 1, 1, 4, 1)
    )
    assert [(s.block, s.target) for s in volley.shots] == [("ax-inf", "infantry"), ("ax-inf2", "artillery")]
    assert check_volley_over(battle, volley).ok


@pytest.mark.rule("11.1")
def test_r11_1_disrupted_units_neither_fire_nor_count_for_targeting() -> None:
    shaken = unit("shaken", "axis", "infantry", 4, disrupted=True)
    shaken_armor = unit("shaken-armor", "allied", "armor", 4, disrupted=True)
    battle = hexof(AX_ARMOR, shaken, AL_INF, shaken_armor)
    assert refused(check_fire(battle, Volley("axis"), "shaken", "infantry")) == ("11.1", "disrupted-cannot-fire")
    # The only Allied armor is disrupted, so the Axis armor is free to fire at the infantry.
    assert legal_targets(battle, Volley("axis"), "ax-armor") == ("infantry",)


# --- §9.3 targeting ------------------------------------------------------------------------------------------------


@pytest.mark.rule("9.3")
def test_r9_3_armor_must_fire_at_armor_and_infantry_at_infantry() -> None:
    battle = hexof(AX_ARMOR, AX_INF, AX_AT, AL_ARMOR, AL_INF, AL_AT)
    volley = Volley("axis")
    assert legal_targets(battle, volley, "ax-armor") == ("armor",)
    assert legal_targets(battle, volley, "ax-inf") == ("infantry",)
    assert legal_targets(battle, volley, "ax-at") == ("armor", "infantry", "anti_tank")
    assert refused(check_fire(battle, volley, "ax-armor", "infantry")) == ("9.3", "must-target-armor")
    assert refused(check_fire(battle, volley, "ax-inf", "anti_tank")) == ("9.3", "must-target-infantry")


@pytest.mark.rule("9.3")
def test_r9_3_only_artillery_fires_at_supported_artillery() -> None:
    battle = hexof(AX_AT, AX_ART, AL_INF, AL_ART)
    volley = Volley("axis")
    assert legal_targets(battle, volley, "ax-at") == ("infantry",)
    assert legal_targets(battle, volley, "ax-art") == ("infantry", "artillery")
    assert refused(check_fire(battle, volley, "ax-at", "artillery")) == ("9.3", "artillery-supported")
    assert refused(check_fire(battle, volley, "ax-at", "armor")) == ("9.3", "target-absent")


@pytest.mark.rule("9.3")
def test_r9_3_unsupported_artillery_is_fired_on_at_triple_fire(rommel: RommelPack) -> None:
    # §9.3 sidebar, Targeting Artillery: "All units except artillery fire on unsupported enemy artillery at TF."
    battle = hexof(AX_ARMOR, AX_INF, AX_ART, AL_ART)
    volley = Volley("axis")
    assert legal_targets(battle, volley, "ax-armor") == ("artillery",)
    _, shot = fire(rommel, battle, Round("axis"), volley, "ax-armor", "artillery", (4, 3, 3, 3, 3, 3))
    assert (shot.fire, shot.hits) == ("tf", Hits(full=1))
    assert fire_level(rommel, "infantry", "artillery", unsupported=True) == rommel.tables.unsupported_artillery.fire
    # Artillery firing at artillery reads its own cell of the Fire Table.
    _, art_shot = fire(rommel, battle, Round("axis"), Volley("axis"), "ax-art", "artillery", (5, 5, 5))
    assert art_shot.fire == rommel.fire("artillery", "artillery")
    with pytest.raises(ValueError):
        fire_level(rommel, "armor", "artillery")


@pytest.mark.rule("9.3")
def test_r9_3_a_class_eliminated_mid_volley_frees_unfired_units(rommel: RommelPack) -> None:
    # §9.3: "If all units of a required target class are eliminated, unfired units may fire at other target
    # Classes"; §9.5: the eliminated class is removed, so the artillery it supported becomes unsupported.
    battle = hexof(AX_INF, unit("ax-inf2", "axis", "infantry", 4), AL_INF, AL_ART)
    round_ = Round("axis")
    volley, _ = fire(rommel, battle, round_, Volley("axis"), "ax-inf", "infantry", (6, 6, 6, 1))
    assert remaining_classes(battle, volley) == {"artillery"}
    assert legal_targets(battle, volley, "ax-inf2") == ("artillery",)
    assert refused(check_fire(battle, volley, "ax-inf2", "infantry")) == ("9.3", "target-absent")
    volley, shot = fire(rommel, battle, round_, volley, "ax-inf2", "artillery", (4, 1, 1, 1))
    assert (shot.fire, shot.hits) == ("tf", Hits(full=1))


@pytest.mark.rule("9.3")
def test_r9_3_no_enemy_present_means_no_fire() -> None:
    battle = hexof(AX_INF, unit("al-shaken", "allied", "infantry", 2, disrupted=True))
    assert legal_targets(battle, Volley("axis"), "ax-inf") == ()
    assert refused(check_fire(battle, Volley("axis"), "ax-inf", "infantry")) == ("9.3", "no-target")


# --- §9.4 Fire Table -------------------------------------------------------------------------------------------


@pytest.mark.rule("9.4")
def test_r9_4_fire_levels_score_on_six_five_or_four(rommel: RommelPack) -> None:
    rolls = (1, 2, 3, 4, 5, 6)
    assert [hits_scored(rommel, level, rolls) for level in ("sf", "df", "tf")] == [1, 2, 3]
    with pytest.raises(ValueError):
        hits_scored(rommel, "sf", (0, 7))


@pytest.mark.rule("9.4")
def test_r9_4_fire_table_is_read_from_the_pack(rommel: RommelPack) -> None:
    assert ARMS_CLASSES == CLASSES
    for firer in CLASSES:
        for target in CLASSES:
            if target == "artillery" and firer != "artillery":
                continue
            assert fire_level(rommel, firer, target) == rommel.fire(firer, target)


@pytest.mark.rule("9.4")
def test_r9_4_unit_fire_example_six_cv_armor_at_infantry_scores_two(rommel: RommelPack) -> None:
    # §9.4 sidebar, Unit Fire Example: no enemy armor, a 6 CV armor unit fires on infantry at DF;
    # 4, 5, 1, 6, 3, 3 scores two hits.
    battle = hexof(AX_ARMOR, AL_INF)
    volley = Volley("axis")
    assert legal_targets(battle, volley, "ax-armor") == ("infantry",)
    assert fire_dice(rommel, battle, Round("axis"), "ax-armor") == 6
    _, shot = fire(rommel, battle, Round("axis"), volley, "ax-armor", "infantry", (4, 5, 1, 6, 3, 3))
    assert (shot.fire, shot.hits) == ("df", Hits(full=2))


@pytest.mark.rule("9.4")
def test_r9_4_firepower_example_armor_at_armor_sf_else_infantry_df(rommel: RommelPack) -> None:
    # §9.4 sidebar, Firepower Example.
    with_armor = hexof(AX_ARMOR, AL_ARMOR, AL_INF)
    assert legal_targets(with_armor, Volley("axis"), "ax-armor") == ("armor",)
    _, shot = fire(rommel, with_armor, Round("axis"), Volley("axis"), "ax-armor", "armor", (6, 5, 5, 5, 5, 5))
    assert (shot.fire, shot.hits) == ("sf", Hits(full=1))
    without = hexof(AX_ARMOR, AL_INF)
    _, shot = fire(rommel, without, Round("axis"), Volley("axis"), "ax-armor", "infantry", (6, 5, 5, 5, 5, 5))
    assert (shot.fire, shot.hits) == ("df", Hits(full=6))


# --- §9.21, §13.2 multipliers ----------------------------------------------------------------------------------


@pytest.mark.rule("9.21")
def test_r9_21_assault_doubles_both_sides(rommel: RommelPack) -> None:
    battle = hexof(AX_ARMOR, AL_INF)
    for firer in ("ax-armor", "al-inf"):
        assert fire_dice(rommel, battle, Round("axis", assault=True), firer) == 2 * battle.unit(firer).cv


@pytest.mark.rule("13.2")
def test_r13_2_double_dice_unit_fire_example_fortress_infantry(rommel: RommelPack) -> None:
    # §9.21 sidebar: a 3 CV infantry unit defending a Fortress rolls 6 dice, still SF against infantry.
    battle = hexof(AX_INF, AL_INF, attacker="axis", fortress=True)
    round_ = Round("axis")
    assert fire_dice(rommel, battle, round_, "al-inf") == 6
    _, shot = fire(rommel, battle, round_, Volley("allied"), "al-inf", "infantry", (6, 5, 5, 5, 5, 6))
    assert (shot.fire, shot.hits) == ("sf", Hits(full=2))


@pytest.mark.rule("13.2")
def test_r13_2_fortress_double_dice_only_for_defending_non_armor(rommel: RommelPack) -> None:
    battle = hexof(AX_ARMOR, AX_INF, AL_ARMOR, AL_INF, AL_ART, attacker="axis", fortress=True)
    normal = Round("axis")
    assault = Round("axis", assault=True)
    table = {
        b: (
            dice_multiplier(rommel, battle, normal, battle.unit(b)),
            dice_multiplier(rommel, battle, assault, battle.unit(b)),
        )
        for b in ("ax-armor", "ax-inf", "al-armor", "al-inf", "al-art")
    }
    # Attacker x1 (x2 in an Assault); Defender's armor x1 (x2); Defender's other classes x2 (Quadruple: x4).
    assert table == {
        "ax-armor": (1, 2),
        "ax-inf": (1, 2),
        "al-armor": (1, 2),
        "al-inf": (2, rommel.limit("fortress_assault_dice")),
        "al-art": (2, rommel.limit("fortress_assault_dice")),
    }


@pytest.mark.rule("13.2")
def test_r13_2_fortress_advantage_lost_when_the_defender_initiates(rommel: RommelPack) -> None:
    battle = hexof(AX_INF, AL_INF, attacker="axis", fortress=True)
    assert fire_dice(rommel, battle, Round("allied"), "al-inf") == 3
    assert fire_dice(rommel, battle, Round("allied", assault=True), "al-inf") == 6
    assert fire_dice(rommel, battle, Round("allied"), "ax-inf") == 4


# --- §9.52 / §14.2 minefields --------------------------------------------------------------------------------------


@pytest.mark.rule("14.2")
def test_r14_2_attacking_fire_on_minefield_defenders_scores_half_hits(rommel: RommelPack) -> None:
    big = unit("al-big", "allied", "infantry", 8)
    battle = hexof(AX_INF, AX_ART, big, AL_ART, attacker="axis", minefield=True)
    round_ = Round("axis")
    volley, art = fire(rommel, battle, round_, Volley("axis"), "ax-art", "infantry", (6, 6, 6))
    volley, inf = fire(rommel, battle, round_, volley, "ax-inf", "infantry", (6, 6, 6, 1))
    assert art.hits == Hits(full=3)  # §9.52 exception: artillery scores full hits (6s hit at any Firepower)
    assert inf.hits == Hits(half=3)
    assert volley.hits_on("infantry") == Hits(full=3, half=3)
    # The Defender's own fire is unaffected.
    assert not half_hits(battle, round_, big)


@pytest.mark.rule("14.2")
def test_r14_2_minefield_advantage_lost_when_the_defender_initiates(rommel: RommelPack) -> None:
    battle = hexof(AX_INF, AL_INF, attacker="axis", minefield=True)
    _, shot = fire(rommel, battle, Round("allied"), Volley("axis"), "ax-inf", "infantry", (6, 6, 1, 1))
    assert shot.hits == Hits(full=2)


@pytest.mark.rule("10.41")
def test_r10_41_probe_rearguard_of_original_defenders_keeps_fortress_and_minefield(rommel: RommelPack) -> None:
    # §10 sidebar, Reversed Roles in Probe Combat: the Allied Rearguard (Original Defenders, the Active Player) fires
    # Defensive Fire first; the Axis probers initiate and get no benefit, the Rearguard gets both.
    battle = hexof(AX_INF, AL_INF, attacker="axis", fortress=True, minefield=True)
    probe = Round(initiator="axis")  # the Passive Player (Axis) provokes the probe
    assert probe.defensive == "allied"
    assert fire_dice(rommel, battle, probe, "al-inf") == 6
    assert fire_dice(rommel, battle, probe, "ax-inf") == 4
    assert half_hits(battle, probe, battle.unit("ax-inf"))
    # When the Rearguard is the Attacker, the probing Defenders initiate and lose both advantages.
    reversed_ = hexof(AX_INF, AL_INF, attacker="allied", fortress=True, minefield=True)
    assert fire_dice(rommel, reversed_, probe, "ax-inf") == 4
    assert not half_hits(reversed_, probe, reversed_.unit("al-inf"))


# --- §9.5 volley losses ------------------------------------------------------------------------------------------


@pytest.mark.rule("9.5")
def test_r9_5_volley_hits_are_allocated_per_class_by_their_owner(rommel: RommelPack) -> None:
    battle = hexof(AX_AT, AX_ART, AL_ARMOR, AL_INF, AL_ART)
    round_ = Round("axis")
    volley, _ = fire(rommel, battle, round_, Volley("axis"), "ax-art", "artillery", (6, 6, 1))
    volley, _ = fire(rommel, battle, round_, volley, "ax-at", "armor", (6, 5, 1))
    owed = volley_losses(battle, volley)
    assert [(cls, [u.block for u in targets], hits) for cls, targets, hits in owed] == [
        ("armor", ["al-armor"], Hits(full=2 if rommel.fire("anti_tank", "armor") == "df" else 1)),
        ("artillery", ["al-art"], Hits(full=2)),
    ]
    armor_hits = owed[0][2].full
    good: dict[ArmsClass, Losses] = {"armor": {"al-armor": armor_hits}, "artillery": {"al-art": 2}}
    assert check_volley_losses(battle, volley, good).ok
    assert refused(check_volley_losses(battle, volley, {**good, "infantry": {"al-inf": 1}})) == (
        "9.5",
        "class-not-hit",
    )
    assert refused(check_volley_losses(battle, volley, {"armor": good["armor"]})) == ("9.5", "hits-wasted")
    after = apply_volley(battle, volley, good)
    assert [u.block for u in after.units] == ["ax-at", "ax-art", *(["al-armor"] if armor_hits < 4 else []), "al-inf"]
    with pytest.raises(ValueError):
        apply_volley(battle, volley, {})


# --- fire plans: one roll for a whole volley ---------------------------------------------------------------------


@pytest.mark.rule("9.2")
def test_r9_2_a_fire_plan_is_the_same_volley_as_unit_by_unit_fire(rommel: RommelPack) -> None:
    battle = hexof(AX_ART, AX_INF, AX_ARMOR, AL_INF, AL_ART, AL_ARMOR)
    round_ = Round("axis")
    plan = [
        PlannedFire("ax-art", ("artillery",)),
        PlannedFire("ax-inf", ("infantry",)),
        PlannedFire("ax-armor", ("armor",)),
    ]
    assert plan_dice(rommel, battle, round_, plan) == 3 + 4 + 6
    rolls = (6, 5, 1, 6, 1, 1, 2, 6, 6, 1, 1, 1, 1)
    planned = resolve_plan(rommel, battle, round_, Volley("axis"), plan, rolls)
    volley = Volley("axis")
    volley, _ = fire(rommel, battle, round_, volley, "ax-art", "artillery", rolls[:3])
    volley, _ = fire(rommel, battle, round_, volley, "ax-inf", "infantry", rolls[3:7])
    volley, _ = fire(rommel, battle, round_, volley, "ax-armor", "armor", rolls[7:])
    assert planned == volley


@pytest.mark.rule("9.3")
def test_r9_3_a_fire_plan_falls_back_when_a_class_is_eliminated(rommel: RommelPack) -> None:
    lone = unit("al-lone", "allied", "infantry", 1)
    second = unit("ax-inf2", "axis", "infantry", 2)
    battle = hexof(AX_INF, second, lone, AL_ART)
    round_ = Round("axis")
    plan = [PlannedFire("ax-inf", ("infantry",)), PlannedFire("ax-inf2", ("infantry", "artillery"))]
    volley = resolve_plan(rommel, battle, round_, Volley("axis"), plan, (6, 1, 1, 1, 4, 1))
    assert [(s.block, s.target, s.fire, s.hits) for s in volley.shots] == [
        ("ax-inf", "infantry", "sf", Hits(full=1)),
        ("ax-inf2", "artillery", "tf", Hits(full=1)),
    ]
    # Without a fallback the second unit holds its fire and its rolls go unused.
    held = resolve_plan(
        rommel, battle, round_, Volley("axis"), [plan[0], PlannedFire("ax-inf2", ("infantry",))], (6,) * 6
    )
    assert [s.block for s in held.shots] == ["ax-inf"]


@pytest.mark.rule("9.2")
def test_r9_2_an_illegal_fire_plan_is_refused(rommel: RommelPack) -> None:
    battle = hexof(AX_ART, AX_INF, AL_INF)
    round_ = Round("axis")
    art = PlannedFire("ax-art", ("infantry",))
    inf = PlannedFire("ax-inf", ("infantry",))
    with pytest.raises(ValueError, match="artillery-fires-first"):
        resolve_plan(rommel, battle, round_, Volley("axis"), [inf, art], (1,) * 7)
    with pytest.raises(ValueError, match="already-fired"):
        resolve_plan(rommel, battle, round_, Volley("axis"), [inf, inf], (1,) * 8)
    with pytest.raises(ValueError, match="dice-count"):
        resolve_plan(rommel, battle, round_, Volley("axis"), [art, inf], (1,) * 6)
    after_inf, _ = fire(rommel, battle, round_, Volley("axis"), "ax-inf", "infantry", (1,) * 4)
    with pytest.raises(ValueError, match="artillery-fires-first"):
        resolve_plan(rommel, battle, round_, after_inf, [art], (1,) * 3)
