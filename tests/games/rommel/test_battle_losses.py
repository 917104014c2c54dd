"""Applying hits (§9.5, §9.52, §2.3, §2.4): every legal allocation accepted, every illegal one refused with its rule,
and the allocation sidebars of §9.5 and the Minefield example of §14.2 step by step."""

from __future__ import annotations

from itertools import product

import pytest

from pbem.games.rommel.battle import (
    BattleHex,
    BattleUnit,
    Hits,
    Losses,
    apply_losses,
    battle_unit,
    check_losses,
    check_strength,
    legal_losses,
    losses_steps,
    reduced,
    unit_speed,
    usable_points,
)
from pbem.games.rommel.data import RommelPack

from .battle_helpers import refused, unit

ELITE = unit("elite", "axis", "armor", 6, elite=True)
NORMAL = unit("normal", "axis", "armor", 4)


def as_dicts(found: tuple[Losses, ...]) -> list[dict[str, int]]:
    return [dict(x) for x in found]


# --- §9.5 sidebars ----------------------------------------------------------------------------------------------


@pytest.mark.rule("9.5")
def test_r9_5_mixed_group_three_hits_two_on_elite_and_one_on_normal_or_three_on_normal() -> None:
    # §9.5 sidebar, Applying Losses to Mixed Groups: "Either 2 hits are applied to elite armor and 1 hit to normal,
    # or all 3 hits are applied to normal armor."
    targets = [ELITE, NORMAL]
    assert as_dicts(legal_losses(targets, Hits(full=3))) == [{"normal": 3}, {"elite": 2, "normal": 1}]
    assert check_losses(targets, Hits(full=3), {"normal": 3}).ok
    assert check_losses(targets, Hits(full=3), {"elite": 2, "normal": 1}).ok
    # "1 on elite + 2 on normal": the single hit on the elite unit completes no step and is wasted, though an
    # allocation wasting nothing exists.
    assert refused(check_losses(targets, Hits(full=3), {"normal": 2})) == ("9.5", "hits-wasted")


@pytest.mark.rule("9.5")
def test_r9_5_all_elite_class_wastes_the_odd_hit() -> None:
    # §9.5 sidebar, Applying "Half Losses": all Axis armor elite, 3 hits: two reduce a German armor unit by one step
    # and the leftover hit is wasted.
    other = unit("other", "axis", "armor", 4, elite=True)
    targets = [ELITE, other]
    assert as_dicts(legal_losses(targets, Hits(full=3))) == [{"other": 2}, {"elite": 2}]
    assert usable_points(targets, Hits(full=3)) == 4  # two hits of three
    assert check_losses(targets, Hits(full=3), {"elite": 2}).ok
    assert refused(check_losses(targets, Hits(full=3), {})) == ("9.5", "hits-wasted")


@pytest.mark.rule("9.5")
def test_r9_5_provisional_hit_on_a_one_cv_unit_may_have_to_go_to_the_elite_unit() -> None:
    # §9.5 sidebar: "a 1 CV unit hit by enemy fire should not be removed ... since an ensuing 2nd hit may have to be
    # applied to an elite double-step unit instead."
    small = unit("small", "axis", "armor", 1)
    big = unit("big", "axis", "armor", 4, elite=True)
    assert as_dicts(legal_losses([small, big], Hits(full=2))) == [{"big": 2}]
    assert refused(check_losses([small, big], Hits(full=2), {"small": 1})) == ("9.5", "hits-wasted")
    assert as_dicts(legal_losses([small, big], Hits(full=1))) == [{"small": 1}]


@pytest.mark.rule("9.5")
def test_r9_5_hits_beyond_the_class_are_wasted_once_it_is_eliminated() -> None:
    weak = unit("weak", "allied", "infantry", 2)
    assert as_dicts(legal_losses([weak], Hits(full=5))) == [{"weak": 2}]
    assert check_losses([weak], Hits(full=5), {"weak": 2}).ok
    assert reduced([weak], Hits(full=5), {"weak": 2}) == {"weak": None}


@pytest.mark.rule("9.5")
def test_r9_5_refusals_name_the_rule() -> None:
    targets = [ELITE, NORMAL]
    assert refused(check_losses(targets, Hits(full=2), {"stranger": 1})) == ("9.5", "loss-not-a-target")
    assert refused(check_losses(targets, Hits(full=2), {"normal": 3})) == ("9.5", "losses-exceed-hits")
    assert refused(check_losses(targets, Hits(full=9), {"normal": 5})) == ("9.5", "loss-not-a-step")
    assert refused(check_losses(targets, Hits(full=9), {"normal": -1})) == ("9.5", "loss-not-a-step")


@pytest.mark.rule("2.4")
def test_r2_4_an_elite_unit_loses_two_cv_a_step() -> None:
    assert refused(check_losses([ELITE], Hits(full=1), {"elite": 1})) == ("2.4", "loss-not-a-step")
    assert losses_steps(ELITE, 2) == 1
    assert losses_steps(ELITE, 6) == 3  # 6 -> 4 -> 2 -> eliminated
    assert losses_steps(ELITE, 3) is None
    assert ELITE.steps == 3 and NORMAL.steps == 4


@pytest.mark.rule("2.3")
def test_r2_3_a_unit_reduced_below_its_lowest_cv_is_eliminated() -> None:
    assert NORMAL.after(3) == unit("normal", "axis", "armor", 1)
    assert NORMAL.after(4) is None
    assert ELITE.after(2) is not None and ELITE.after(3) is None
    with pytest.raises(ValueError):
        NORMAL.after(5)


# --- §9.52 / §14.2 double defense ---------------------------------------------------------------------------------


@pytest.mark.rule("9.52")
def test_r9_52_two_half_hits_make_a_cv_loss_and_odd_ones_are_wasted() -> None:
    inf = unit("inf", "allied", "infantry", 4)
    assert as_dicts(legal_losses([inf], Hits(half=3))) == [{"inf": 1}]
    assert check_losses([inf], Hits(half=3), {"inf": 1}).ok
    assert refused(check_losses([inf], Hits(half=4), {"inf": 1})) == ("9.52", "hits-wasted")


@pytest.mark.rule("14.2")
def test_r14_2_four_half_hits_reduce_an_elite_minefield_defender_one_step() -> None:
    # §14.2 example: "Four (4) half-hits are required to reduce an elite unit defending a Minefield by one step."
    elite = unit("elite", "axis", "infantry", 4, elite=True)
    assert as_dicts(legal_losses([elite], Hits(half=3))) == [{}]
    assert as_dicts(legal_losses([elite], Hits(half=4))) == [{"elite": 2}]


@pytest.mark.rule("9.52")
def test_r9_52_one_artillery_hit_and_two_half_hits_remove_an_elite_step() -> None:
    # Artillery scores full hits on Minefield Defenders (§9.52 exception), so 1 full + 2 half = one elite step.
    elite = unit("elite", "axis", "infantry", 4, elite=True)
    assert as_dicts(legal_losses([elite], Hits(full=1, half=2))) == [{"elite": 2}]
    assert as_dicts(legal_losses([elite], Hits(full=1, half=1))) == [{}]


# --- exhaustive: accepted exactly when enumerated ---------------------------------------------------------------


def all_reports(targets: list[BattleUnit]) -> list[dict[str, int]]:
    """Every report of whole steps (and a few impossible CV losses) on ``targets``."""
    choices = [sorted({u.loss(k) for k in range(u.steps + 1)} | {1, u.cv + 1}) for u in targets]
    return [{u.block: loss for u, loss in zip(targets, combo, strict=True) if loss} for combo in product(*choices)]


@pytest.mark.rule("9.5")
@pytest.mark.rule("9.52")
@pytest.mark.parametrize("full", range(0, 7))
@pytest.mark.parametrize("half", [0, 1, 3])
def test_r9_5_every_report_is_accepted_exactly_when_it_is_enumerated(full: int, half: int) -> None:
    targets = [
        unit("e6", "axis", "armor", 6, elite=True),
        unit("e4", "axis", "armor", 4, elite=True),
        unit("n1", "axis", "armor", 1),
        unit("n3", "axis", "armor", 3),
    ]
    hits = Hits(full=full, half=half)
    legal = as_dicts(legal_losses(targets, hits))
    assert legal and len(legal) == len({tuple(sorted(x.items())) for x in legal})
    # An oracle independent of the library: points of each whole-step report, the best that fits the hits.
    points = hits.points
    spent = {
        tuple(steps): sum(2 * u.step * k for u, k in zip(targets, steps, strict=True))
        for steps in product(*(range(u.steps + 1) for u in targets))
    }
    best = max(v for v in spent.values() if v <= points)
    oracle = [
        {u.block: u.loss(k) for u, k in zip(targets, steps, strict=True) if k}
        for steps, v in spent.items()
        if v == best
    ]
    assert sorted(map(sorted_items, legal)) == sorted(map(sorted_items, oracle))
    for report in all_reports(targets):
        assert check_losses(targets, hits, report).ok == (report in legal), report


def sorted_items(report: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(report.items()))


# --- applying -----------------------------------------------------------------------------------------------------


@pytest.mark.rule("9.5")
def test_r9_5_apply_losses_reduces_and_removes() -> None:
    other = unit("other", "allied", "armor", 3)
    battle = BattleHex((ELITE, NORMAL, other), attacker="allied")
    after = apply_losses(battle, [ELITE, NORMAL], Hits(full=7), {"elite": 6, "normal": 1})
    assert after.units == (unit("normal", "axis", "armor", 3), other)
    with pytest.raises(ValueError):
        apply_losses(battle, [ELITE, NORMAL], Hits(full=7), {"elite": 2})


# --- strengths (the audit's reported strength) ------------------------------------------------------------------


@pytest.mark.rule("2.3")
def test_r2_3_reported_strength_between_lowest_and_highest_cv(rommel: RommelPack) -> None:
    assert check_strength(rommel, "it-brescia", 1).ok
    assert check_strength(rommel, "it-brescia", 4).ok
    assert refused(check_strength(rommel, "it-brescia", 5)) == ("2.3", "strength-out-of-range")
    assert refused(check_strength(rommel, "it-brescia", 0)) == ("2.3", "strength-out-of-range")
    assert refused(check_strength(rommel, "de-5pz", 1)) == ("2.3", "strength-out-of-range")


@pytest.mark.rule("2.4")
def test_r2_4_reported_strength_of_an_elite_block_is_on_its_steps(rommel: RommelPack) -> None:
    assert [cv for cv in range(7) if check_strength(rommel, "de-5pz", cv).ok] == [2, 4, 6]
    assert refused(check_strength(rommel, "de-5pz", 5)) == ("2.4", "strength-off-step")
    # Optional I-Tanks: the Army Tank blocks become elite (4 CV: 4, 2).
    assert check_strength(rommel, "uk-32at", 3).ok
    assert refused(check_strength(rommel, "uk-32at", 3, i_tanks=True)) == ("2.4", "strength-off-step")


@pytest.mark.rule("2.4")
def test_r2_4_battle_unit_reads_class_speed_and_steps_from_the_pack(rommel: RommelPack) -> None:
    panzer = battle_unit(rommel, "de-5pz")
    assert (panzer.side, panzer.arms_class, panzer.speed, panzer.cv, panzer.step, panzer.elite) == (
        "axis",
        "armor",
        3,
        6,
        2,
        True,
    )
    assert battle_unit(rommel, "it-brescia", 2, disrupted=True).disrupted
    assert not battle_unit(rommel, "uk-32at").elite
    with pytest.raises(ValueError):
        battle_unit(rommel, "de-5pz", 5)


@pytest.mark.rule("17.0")
def test_r17_0_i_tanks_option_makes_army_tanks_elite_at_the_packs_speed(rommel: RommelPack) -> None:
    """Optional Rules, Allied I-Tanks: elite, and "reduced Unit Speed of 2, instead of 3", both from the pack."""
    plain = battle_unit(rommel, "uk-32at")
    assert (plain.elite, plain.speed) == (False, rommel.unit_type("armor").speed)
    i_tank = battle_unit(rommel, "uk-32at", i_tanks=True)
    assert (i_tank.elite, i_tank.step, i_tank.speed) == (True, rommel.limit("elite_step"), rommel.limit("i_tank_speed"))
    assert rommel.limit("i_tank_speed") == 2
    # The rule touches only the four I-tanks: other Allied armor keeps its speed.
    assert battle_unit(rommel, "uk-7ad-4", i_tanks=True).speed == rommel.unit_type("armor").speed
    assert [unit_speed(rommel, "uk-32at", i_tanks=on) for on in (False, True)] == [plain.speed, i_tank.speed]
