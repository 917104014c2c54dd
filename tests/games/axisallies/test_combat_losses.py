"""Casualties named per origin and taken off the combat (pages 19, 21-23, 33)."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.combat import (
    TRANSPORT,
    Battle,
    Cargo,
    Losses,
    Scored,
    attack_fire,
    check_losses,
    defense_fire,
    take_losses,
    volley,
)
from pbem.games.axisallies.data import AxisAlliesPack
from tests.games.axisallies.pieces import DE_FIGHTER, DE_INF, DE_TANK, IT_DD, IT_INF, UK_BB, UK_DD, UK_INF


@pytest.fixture
def two_sides() -> Battle:
    return Battle(
        "tobruk",
        "land",
        "axis",
        land={"derna": {DE_TANK: 3}, "mechili": {DE_TANK: 1, DE_INF: 1}},
        main="derna",
        air_sea={DE_FIGHTER: 1},
        defenders={UK_INF: 3},
    )


@pytest.mark.rule("22")
def test_p22_the_attacker_names_the_origin_of_each_land_unit_lost(pack: AxisAlliesPack, two_sides: Battle) -> None:
    (inf,) = defense_fire(pack, two_sides, two_sides.defenders)
    hits = volley(pack, two_sides, [Scored(inf, 2)])
    flank = Losses(land={"mechili": {DE_TANK: 1}}, other={DE_FIGHTER: 1})
    assert check_losses(pack, two_sides, "attacker", hits, flank, rule="22").ok
    wrong = check_losses(pack, two_sides, "attacker", hits, Losses(land={"mechili": {DE_TANK: 2}}), rule="22")
    assert (wrong.rule, wrong.reason) == ("22", "casualty-not-present")
    nameless = check_losses(pack, two_sides, "attacker", hits, Losses(other={DE_TANK: 2}), rule="22")
    assert (nameless.rule, nameless.reason) == ("22", "casualty-origin")
    few = check_losses(pack, two_sides, "attacker", hits, Losses(land={"derna": {DE_TANK: 1}}), rule="22")
    assert (few.rule, few.reason) == ("22", "too-few-casualties")
    after = take_losses(pack, two_sides, "attacker", flank)
    assert after.land == {"derna": {DE_TANK: 3}, "mechili": {DE_INF: 1}} and after.air_sea == {}
    assert [g.flanking for g in attack_fire(pack, after) if g.type == "infantry"] == [True]


@pytest.mark.rule("19")
def test_p19_an_origin_that_loses_everything_leaves_the_combat(pack: AxisAlliesPack, two_sides: Battle) -> None:
    after = take_losses(pack, two_sides, "attacker", Losses(land={"derna": {DE_TANK: 3}}))
    assert after.land == {"mechili": {DE_TANK: 1, DE_INF: 1}} and after.main == "derna"
    assert all(g.flanking for g in attack_fire(pack, after) if g.type != "fighter")


@pytest.mark.rule("33")
def test_p33_battleship_damage_is_kept_for_either_side(pack: AxisAlliesPack) -> None:
    battle = Battle(
        "sz25", "sea", "axis", air_sea={IT_DD: 2}, defenders={UK_BB: 1, UK_DD: 1}, cargo=Cargo(units={UK_INF: 2})
    )
    (dd,) = attack_fire(pack, battle)
    hits = volley(pack, battle, [Scored(dd, 1)])
    defended = Losses(other={UK_BB: 1})
    assert check_losses(pack, battle, "defender", hits, defended, rule="21").ok
    hurt = take_losses(pack, battle, "defender", defended)
    assert hurt.defenders == {UK_BB: 1, UK_DD: 1} and hurt.damaged == {UK_BB: 1}
    sunk = take_losses(pack, hurt, "defender", Losses(other={UK_BB: 1, TRANSPORT: 1}))
    assert sunk.defenders == {UK_DD: 1} and sunk.damaged == {}
    assert sunk.cargo == battle.cargo  # transport hits are resolved on the cargo (combat_sea)
    origin = check_losses(pack, battle, "defender", hits, Losses(land={"tobruk": {IT_INF: 1}}), rule="21")
    assert (origin.rule, origin.reason) == ("21", "casualty-not-present")
    uk = Battle("sz25", "sea", "allies", air_sea={UK_BB: 1}, defenders={IT_DD: 1})
    hit = take_losses(pack, uk, "attacker", Losses(other={UK_BB: 1}))
    assert hit.air_sea == {UK_BB: 1} and hit.damaged == {UK_BB: 1}
