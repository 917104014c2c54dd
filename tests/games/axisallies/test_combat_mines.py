"""Mine token detonation: ownership, who may detonate, tokens left, dice and hits, units turned back, and sea
mine hits on entering units and transports (pages 26-27 and the quick reference).
"""

from __future__ import annotations

import pytest

from pbem.games.axisallies.combat import (
    TRANSPORT,
    Cargo,
    CargoLoss,
    after_detonation,
    check_casualties,
    check_detonation,
    check_transport_hit,
    check_turned_back,
    joint_icons,
    land_mine_owners,
    mine_dice,
    mine_hits,
    sea_mine_volley,
)
from pbem.games.axisallies.data import AxisAlliesPack
from pbem.games.axisallies.position import Position, initial_position
from tests.games.axisallies.pieces import DE_INF, DE_MECH, DE_TANK, IT_INF, UK_BB, UK_DD, UK_INF


@pytest.mark.rule("26")
def test_qr_land_mines_roll_three_dice_per_icon_hitting_on_three_or_less(pack: AxisAlliesPack) -> None:
    """Quick reference: "Roll 3 dice for each mine icon removed. For each result of 3 or less, the attacker
    retreats one land unit attacking across that border"."""
    assert mine_dice(pack, "land", 3) == 9
    assert mine_hits(pack, "land", [1, 2, 3, 4, 10, 3]) == 4


@pytest.mark.rule("27")
def test_qr_sea_mines_roll_one_die_per_token_hitting_on_three_or_less(pack: AxisAlliesPack) -> None:
    assert mine_dice(pack, "sea", 2) == 2
    assert mine_hits(pack, "sea", [3, 4]) == 1


@pytest.mark.rule("26")
def test_p26_the_cairo_mines_belong_to_the_uk_and_blow_only_on_enemy_turns(pack: AxisAlliesPack) -> None:
    scenario = pack.scenario("rommels_last_push")
    start = initial_position(pack, scenario)
    (mines,) = scenario.setup.land_mines
    assert (mines.territory, mines.facing, sum(mines.tokens)) == ("cairo", "mersa_matruh", 3)
    assert land_mine_owners(pack, start, "cairo") == ("united_kingdom",)
    assert check_detonation(pack, start, "cairo", mines.tokens, 3, acting="germany").ok
    own = check_detonation(pack, start, "cairo", mines.tokens, 1, acting="united_states")
    assert (own.rule, own.reason) == ("26", "own-turn")
    much = check_detonation(pack, start, "cairo", mines.tokens, 4, acting="italy")
    assert (much.rule, much.reason) == ("26", "too-many-mines")


@pytest.mark.rule("26")
def test_p26_without_marker_or_combat_units_mines_are_inactive_else_the_largest_force_owns_them(
    pack: AxisAlliesPack,
) -> None:
    empty = Position(round=2)
    assert land_mine_owners(pack, empty, "mersa_matruh") == ()
    inactive = check_detonation(pack, empty, "mersa_matruh", (1,), 1, acting="germany")
    assert (inactive.rule, inactive.reason) == ("26", "mines-inactive")
    held = Position(round=2, pieces={"mersa_matruh": {DE_INF: 2, IT_INF: 1, ("germany", "truck"): 3}})
    assert land_mine_owners(pack, held, "mersa_matruh") == ("germany",)
    tied = Position(round=2, pieces={"mersa_matruh": {DE_INF: 1, IT_INF: 1}})
    assert land_mine_owners(pack, tied, "mersa_matruh") == ("germany", "italy")
    assert joint_icons([2, 1]) == 1 and joint_icons([2, 0]) == 0


@pytest.mark.rule("26")
def test_p26_a_two_mines_token_may_flip_to_one(pack: AxisAlliesPack) -> None:
    assert after_detonation((2, 1), 1) == (2,)
    assert after_detonation((2, 1), 2) == (1,)
    assert after_detonation((2, 1), 3) == ()
    assert after_detonation((2, 2), 1) == (2, 1)
    assert after_detonation((2, 2), 3) == (1,)


@pytest.mark.rule("26")
def test_p26_each_hit_turns_one_crossing_land_unit_aside(pack: AxisAlliesPack) -> None:
    crossing = {DE_TANK: 2, DE_MECH: 1}
    assert check_turned_back(crossing, 2, {DE_TANK: 1, DE_MECH: 1}).ok
    assert check_turned_back(crossing, 5, crossing).ok  # more hits than units: all turn back
    few = check_turned_back(crossing, 2, {DE_TANK: 1})
    assert (few.rule, few.reason) == ("26", "turned-back-count")
    other = check_turned_back(crossing, 1, {DE_INF: 1})
    assert (other.rule, other.reason) == ("26", "not-crossing")


@pytest.mark.rule("27")
def test_p27_sea_mine_hits_fall_on_the_units_that_entered_transports_included(pack: AxisAlliesPack) -> None:
    pool = {UK_DD: 1, UK_BB: 2, TRANSPORT: 1}  # an undamaged battleship takes two hits
    hits = sea_mine_volley(pool, 2)
    assert check_casualties(hits, pool, {UK_BB: 2}, rule="27").ok
    assert check_casualties(hits, pool, {UK_DD: 1, TRANSPORT: 1}, rule="27").ok
    few = check_casualties(hits, pool, {UK_DD: 1}, rule="27")
    assert (few.rule, few.reason) == ("27", "too-few-casualties")
    assert sea_mine_volley({}, 2) == ()


@pytest.mark.rule("27")
def test_p27_a_mine_hit_on_transports_costs_two_newly_deployed_pieces(pack: AxisAlliesPack) -> None:
    """p.27: the acting player chooses the first, the mine's owner names a type, the acting player the second."""
    cargo = Cargo(units={UK_INF: 2}, supply={"united_kingdom": 7})
    assert check_transport_hit(
        pack, cargo, CargoLoss(unit=UK_INF), "supply", CargoLoss(supply={"united_kingdom": 5}), rule="27"
    ).ok
    lone = Cargo(units={UK_INF: 1})
    assert check_transport_hit(pack, lone, CargoLoss(unit=UK_INF), None, None, rule="27").ok
    lapsed = check_transport_hit(pack, lone, CargoLoss(unit=UK_INF), "infantry", CargoLoss(unit=UK_INF), rule="27")
    assert (lapsed.rule, lapsed.reason) == ("27", "nothing-left")


@pytest.mark.rule("27")
def test_p27_only_the_owning_power_detonates_sea_mines_on_enemy_turns(pack: AxisAlliesPack) -> None:
    from pbem.games.axisallies.combat import check_sea_detonation

    assert check_sea_detonation(pack, "italy", "united_kingdom", 2, 2).ok
    own = check_sea_detonation(pack, "italy", "germany", 2, 1)
    assert (own.rule, own.reason) == ("26", "own-turn")
    much = check_sea_detonation(pack, "italy", "united_states", 1, 2)
    assert (much.rule, much.reason) == ("27", "too-many-mines")
