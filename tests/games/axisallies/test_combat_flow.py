"""A whole land combat played through the library's API, and the chart abilities the combat modules enforce
(pages 19-23, 30-34).
"""

from __future__ import annotations

import inspect
from dataclasses import replace

import pytest

from pbem.games.axisallies import (
    combat_casualties,
    combat_end,
    combat_fire,
    combat_land,
    combat_mines,
    combat_sea,
)
from pbem.games.axisallies.combat import (
    Battle,
    Losses,
    Orders,
    Press,
    Scored,
    aim_options,
    air_defense_dice,
    air_defense_hits,
    air_defense_volley,
    attack_fire,
    casualty_options,
    casualty_pool,
    check_aims,
    check_battle,
    check_casualties,
    check_losses,
    check_move_in,
    check_orders,
    check_press,
    check_supply_strikes,
    combat_over,
    conclude,
    defense_fire,
    fighting,
    group_hits,
    main_candidates,
    press_due,
    supply_strikes,
    take_losses,
    volley,
)
from pbem.games.axisallies.combat import after_press as next_round
from pbem.games.axisallies.data import ABILITIES, AxisAlliesPack
from pbem.games.axisallies.position import Position
from tests.games.axisallies.pieces import (
    DE_ART,
    DE_BOMBER,
    DE_FIGHTER,
    DE_INF,
    DE_MECH,
    DE_SCOUT,
    DE_TANK,
    UK_AAA,
    UK_AT,
    UK_INF,
    UK_TANK,
    UK_TRUCK,
)


def sort_groups(battle: Battle, pack: AxisAlliesPack, role: str) -> list[tuple[str, int, int, str, bool, bool]]:
    groups = attack_fire(pack, battle) if role == "attacker" else defense_fire(pack, battle, battle.defenders)
    return [(g.type, g.count, g.needs, g.target, g.flanking, g.supported) for g in groups]


@pytest.mark.rule("19")
def test_p19_to_p23_a_german_assault_on_tobruk_from_two_sides(pack: AxisAlliesPack) -> None:
    board = Position(
        round=2,
        pieces={
            "tobruk": {UK_INF: 2, UK_AT: 1, UK_AAA: 1, UK_TANK: 1, UK_TRUCK: 1},
            "derna": {DE_TANK: 3, DE_INF: 2, DE_ART: 1},
            "mechili": {DE_MECH: 1, DE_SCOUT: 1},
        },
        control={"tobruk": "united_kingdom", "derna": "germany"},
        supply={"tobruk": 2, "derna": 4},
    )
    battle = Battle(
        "tobruk",
        "land",
        "axis",
        land={"derna": {DE_TANK: 3, DE_INF: 2, DE_ART: 1}, "mechili": {DE_MECH: 1, DE_SCOUT: 1}},
        air_sea={DE_FIGHTER: 1, DE_BOMBER: 1},
        defenders={UK_INF: 2, UK_AT: 1, UK_AAA: 1, UK_TANK: 1},
    )
    assert main_candidates(battle) == ("derna",)
    battle = replace(battle, main="derna")
    assert check_battle(pack, battle).ok

    # Air defense (p.31): one AAA, two planes: two dice; a 2 hits, and Germany loses its fighter.
    assert air_defense_dice(pack, battle) == 2
    ad_hits = air_defense_hits(pack, [2, 7])
    ad = air_defense_volley(pack, battle, ad_hits)
    attackers = casualty_pool(pack, battle, "attacker")
    assert not check_casualties(ad, attackers, {DE_TANK: 1}, rule="31").ok
    assert check_casualties(ad, attackers, {DE_FIGHTER: 1}, rule="31").ok
    battle = replace(battle, air_sea={DE_BOMBER: 1})

    # Step 1 (p.20): the British fight, paying a token of Tobruk's two.
    orders = Orders(True, payment={"tobruk": 1})
    assert check_orders(pack, board, battle, orders).ok
    board = replace(board, supply={"tobruk": 1, "derna": 4})

    # Immediately before the attack dice (p.31, p.33): the scout car and the surviving bomber could each
    # destroy a token, but only one is left: either may take it, not both.
    assert supply_strikes(pack, board, battle) == ("supply_raider", "collateral_damage")
    assert check_supply_strikes(pack, board, battle, ["supply_raider"]).ok
    refused = check_supply_strikes(pack, board, battle, ["supply_raider", "collateral_damage"])
    assert (refused.rule, refused.reason) == ("33", "no-supply-left")
    board = replace(board, supply={"derna": 4})

    # Step 2 (p.21): the artillery supports the flanking mechanized infantry first (RULING, p.30).
    assert sort_groups(battle, pack, "attacker") == [
        ("artillery", 1, 3, "any", False, False),
        ("infantry", 2, 2, "any", False, False),
        ("tank", 3, 5, "any", False, False),
        ("bomber", 1, 5, "land_type", False, False),
        ("mech_infantry", 1, 3, "any", True, True),
        ("scout_car", 1, 2, "air", True, False),
    ]
    groups = attack_fire(pack, battle)
    faces = [[[3]], [[5, 1]], [[2, 6, 9]], [[4]], [[8], [10], [2]], [[9], [4]]]  # flanking: reroll 8-10
    hits = [group_hits(pack, g, f) for g, f in zip(groups, faces, strict=True)]
    assert hits == [1, 1, 1, 1, 1, 0]
    bomber = groups[3]
    pool = casualty_pool(pack, battle, "defender")
    assert aim_options(pack, battle, bomber, pool) == ("aaa", "anti_tank_gun", "infantry", "tank")
    assert check_aims(pack, battle, bomber, 1, {"anti_tank_gun": 1}, pool).ok
    scored = [Scored(g, h, {"anti_tank_gun": 1} if g is bomber else {}) for g, h in zip(groups, hits, strict=True)]
    incoming = volley(pack, battle, scored)
    assert casualty_options(incoming, pool, {}) == (UK_AAA, UK_AT, UK_INF, UK_TANK)
    refused = check_casualties(incoming, pool, {UK_INF: 2, UK_AAA: 1, UK_TANK: 1}, rule="21")
    assert (refused.rule, refused.reason) == ("21", "too-few-casualties")  # five hits, five defenders
    dodged = check_casualties(incoming, pool, {UK_INF: 2, UK_AAA: 1, UK_TANK: 1, UK_AT: 0}, rule="21")
    assert not dodged.ok
    marked = {UK_INF: 2, UK_AAA: 1, UK_TANK: 1, UK_AT: 1}
    assert check_casualties(incoming, pool, marked, rule="21").ok

    # Step 3 (p.22): the marked casualties still fire, with Tobruk's bonus; the gun aims at tanks (round 1).
    assert [
        (g.type, g.count, g.needs, g.target) for g in defense_fire(pack, battle, fighting(pack, battle, orders))
    ] == [
        ("anti_tank_gun", 1, 4, "tanks"),
        ("infantry", 2, 4, "any"),
        ("tank", 1, 6, "any"),
    ]
    back = defense_fire(pack, battle, fighting(pack, battle, orders))
    back_hits = [group_hits(pack, g, f) for g, f in zip(back, [[[1]], [[4, 7]], [[10]]], strict=True)]
    assert back_hits == [1, 1, 0]
    answer = volley(pack, battle, [Scored(back[0], 1, {"tanks": 1}), Scored(back[1], 1)])
    attackers = casualty_pool(pack, battle, "attacker")
    aimed = check_casualties(answer, attackers, {DE_INF: 2}, rule="22")
    assert (aimed.rule, aimed.reason) == ("30", "aimed-hit-ignored")
    lost = Losses(land={"derna": {DE_TANK: 1, DE_INF: 1}})
    assert check_losses(pack, battle, "attacker", answer, lost, rule="22").ok
    battle = take_losses(pack, battle, "attacker", lost)  # the attacker's go at once

    # Step 4: the British casualties go: none is left.
    battle = take_losses(pack, battle, "defender", Losses(other=marked))
    assert battle.defenders == {}
    assert battle.land == {"derna": {DE_TANK: 2, DE_INF: 1, DE_ART: 1}, "mechili": {DE_MECH: 1, DE_SCOUT: 1}}
    assert combat_over(pack, battle)

    # Step 6 (p.23): the land units but the scout car move in; the British truck is captured.
    result = conclude(pack, board, battle, power="germany")
    assert result.captured and result.controller == "germany" and result.trucks == {UK_TRUCK: 1}
    assert result.move_in == 5
    assert check_move_in(result, {"derna": {DE_TANK: 2, DE_INF: 1, DE_ART: 1}, "mechili": {DE_MECH: 1}}).ok


@pytest.mark.rule("23")
def test_p23_a_second_round_after_pressing(pack: AxisAlliesPack) -> None:
    board = Position(round=2, control={"tobruk": "united_kingdom", "derna": "germany"}, supply={"derna": 3})
    battle = Battle(
        "tobruk",
        "land",
        "axis",
        land={"derna": {DE_TANK: 4, DE_INF: 3}, "mechili": {DE_MECH: 1, DE_SCOUT: 1}},
        main="derna",
        defenders={UK_INF: 1, UK_AT: 1},
    )
    assert not combat_over(pack, battle)
    press = Press(retreat={"derna": {DE_INF: 1}}, payment={"derna": {"derna": 2}, "mechili": {"derna": 1}})
    assert press_due(pack, battle, press) == {"derna": 2, "mechili": 1}
    assert check_press(pack, board, battle, press).ok
    second = next_round(pack, battle, press)
    assert second.round == 2
    assert second.land == {"derna": {DE_TANK: 4, DE_INF: 2}, "mechili": {DE_MECH: 1}}
    assert all(g.target == "any" for g in defense_fire(pack, second, second.defenders))  # no aim after round 1
    assert air_defense_dice(pack, second) == 0


# --- every ability of the charts -----------------------------------------------------------------------------

OUTSIDE_COMBAT = {
    "blitz": "movement (p.15)",
    "coast_road_movement": "movement (pp.30-32)",
    "noncombat_move_only": "movement (p.31)",
    "long_range_patrol": "movement (p.31)",
    "sahara_desert_movement": "movement (p.11)",
    "land_transport": "transport (p.32)",
    "does_not_block_enemy_movement": "movement (p.34)",
    "treat_hostile_sea_zones_as_friendly": "movement (p.34)",
    "free_french_requisition": "economy (p.29)",
}


@pytest.mark.rule("30")
def test_p30_every_combat_ability_of_both_charts_is_read_by_the_combat_modules(pack: AxisAlliesPack) -> None:
    """Every unit characteristic on a chart is either read by the combat library or belongs to another module."""
    source = "".join(
        inspect.getsource(m)
        for m in (combat_fire, combat_land, combat_end, combat_sea, combat_mines, combat_casualties)
    )
    used = {a.id for u in pack.units for a in u.abilities}
    combat_side = used - set(OUTSIDE_COMBAT)
    # read elsewhere: self_sufficient through supply.exempt_from_defense_supply (p.20), logistical_unit as the
    # chart's ``combat`` flag (trucks are never in a combat, p.32)
    read_elsewhere = {"self_sufficient", "logistical_unit"}
    for ability in sorted(combat_side - read_elsewhere):
        assert f'"{ability}"' in source, ability
    assert set(OUTSIDE_COMBAT) <= set(ABILITIES)


@pytest.mark.rule("34")
def test_p20_to_p23_german_submarines_strike_a_british_convoy(pack: AxisAlliesPack) -> None:
    from pbem.games.axisallies.combat import (
        TRANSPORT,
        Cargo,
        check_escape,
        check_submerge,
        may_surprise,
        surprise_fire,
    )

    de_sub, uk_bb, uk_fighter = (
        ("germany", "submarine"),
        ("united_kingdom", "battleship"),
        ("united_kingdom", "fighter"),
    )
    battle = Battle(
        "sz2",
        "sea",
        "axis",
        air_sea={de_sub: 2},
        defenders={uk_bb: 1, uk_fighter: 1},
        cargo=Cargo(units={UK_INF: 3}, supply={"united_kingdom": 5}),
    )
    assert check_battle(pack, battle).ok
    # Step 1: no British destroyer, so the U-boats strike (none submerges); the British have no submarine.
    assert may_surprise(pack, battle, "attacker") and not may_surprise(pack, battle, "defender")
    assert check_submerge(pack, battle, "attacker", {}).ok
    (strike,) = surprise_fire(pack, battle, "attacker", {})
    hits = volley(pack, battle, [Scored(strike, group_hits(pack, strike, [[3, 9]]))])
    pool = casualty_pool(pack, battle, "defender")
    assert pool == {uk_bb: 2, uk_fighter: 1, TRANSPORT: 2}
    assert casualty_options(hits, pool, {}) == (uk_bb,)  # not the fighter (p.34), not the convoy (p.21)
    battle = take_losses(pack, battle, "defender", Losses(other={uk_bb: 1}))
    assert battle.defenders == {uk_bb: 1, uk_fighter: 1} and battle.damaged == {uk_bb: 1}  # it stays, damaged
    # Step 2: the submarines already fired.
    assert attack_fire(pack, battle, holding={de_sub: 2}) == ()
    # Step 3: the battleship and the fighter fire; the fighter's hit cannot fall on a submarine.
    back = defense_fire(pack, battle, battle.defenders)
    assert [(g.type, g.needs) for g in back] == [("battleship", 6), ("fighter", 5)]
    answer = volley(pack, battle, [Scored(back[0], 1), Scored(back[1], 1)])
    too_many = check_losses(pack, battle, "attacker", answer, Losses(other={de_sub: 2}), rule="22")
    assert (too_many.rule, too_many.reason) == ("22", "too-many-casualties")
    assert check_losses(pack, battle, "attacker", answer, Losses(other={de_sub: 1}), rule="22").ok
    battle = take_losses(pack, battle, "attacker", Losses(other={de_sub: 1}))
    # Step 4: two pieces of cargo escape; step 5: the U-boat may press, for free.
    assert check_escape(pack, battle.cargo or Cargo(), Cargo(units={UK_INF: 1}, supply={"united_kingdom": 5})).ok
    assert not combat_over(pack, battle)
    assert press_due(pack, battle, Press()) == {}
    assert check_press(pack, Position(round=3), battle, Press()).ok
