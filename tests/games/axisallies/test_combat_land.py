"""Land combat: air defense, orders, fire by unit type, dice and defensive bonus (pages 10, 19-22, 30-31, 35).

The rulebook has no numbered sections; its pages serve as sections, so ``@pytest.mark.rule("31")`` is page 31.
"""

from __future__ import annotations

import pytest

from pbem.games.axisallies import (
    combat_casualties,
    combat_end,
    combat_fire,
    combat_land,
    combat_losses,
    combat_mines,
    combat_sea,
    combat_start,
)
from pbem.games.axisallies.combat import (
    Battle,
    FireGroup,
    Orders,
    Piece,
    air_defense_dice,
    air_defense_hits,
    air_defense_volley,
    attack_fire,
    casualty_pool,
    check_aims,
    check_casualties,
    check_faces,
    check_orders,
    defense_bonus,
    defense_fire,
    dice_needed,
    fighting,
    group_hits,
    main_candidates,
    orders_options,
    retreating,
    roll_specs,
)
from pbem.games.axisallies.data import AxisAlliesPack, load_pack
from pbem.games.axisallies.position import Position
from tests.games.axisallies.pack_helpers import Raw, pretty, record
from tests.games.axisallies.pieces import (
    DE_ART,
    DE_AT,
    DE_BOMBER,
    DE_FIGHTER,
    DE_INF,
    DE_MECH,
    DE_SCOUT,
    DE_TANK,
    FR_INF,
    IT_AAA,
    IT_INF,
    UK_AAA,
    UK_ART,
    UK_AT,
    UK_BOMBER,
    UK_FIGHTER,
    UK_INF,
    UK_SCOUT,
    UK_SHERMAN,
    UK_TANK,
)


def rows(groups: tuple[FireGroup, ...]) -> list[tuple[str, str, int, int, str, bool]]:
    return [(g.power, g.type, g.count, g.needs, g.target, g.flanking) for g in groups]


def test_module_examples() -> None:
    import doctest

    from pbem.games.axisallies import combat

    for module in (
        combat,
        combat_fire,
        combat_land,
        combat_end,
        combat_sea,
        combat_mines,
        combat_casualties,
        combat_losses,
        combat_start,
    ):
        assert doctest.testmod(module).failed == 0


# --- air defense (p.19, p.31) --------------------------------------------------------------------------------


@pytest.mark.rule("31")
def test_p31_worked_example_air_defense_dice(pack: AxisAlliesPack) -> None:
    """p.31: "five air units attacking a territory containing two AAA would have five shots fired against them,
    while those same five air units would have only three shots fired against them if there were only one"."""
    five = {UK_FIGHTER: 3, UK_BOMBER: 2}
    two = Battle("el_agheila", "land", "allies", air_sea=five, defenders={IT_AAA: 2, IT_INF: 1})
    one = Battle("el_agheila", "land", "allies", air_sea=five, defenders={IT_AAA: 1, IT_INF: 1})
    assert air_defense_dice(pack, two) == 5
    assert air_defense_dice(pack, one) == 3


@pytest.mark.rule("31")
def test_p31_air_defense_hits_on_two_or_less_and_only_air_units(pack: AxisAlliesPack) -> None:
    assert air_defense_hits(pack, [1, 2, 3, 10]) == 2
    battle = Battle("tobruk", "land", "axis", land={"derna": {DE_TANK: 2}}, air_sea={DE_FIGHTER: 1, DE_BOMBER: 1})
    hits = air_defense_volley(pack, battle, 2)
    pool = {DE_FIGHTER: 1, DE_BOMBER: 1}
    assert check_casualties(hits, pool, {DE_FIGHTER: 1, DE_BOMBER: 1}, rule="31").ok
    attackers = casualty_pool(pack, battle, "attacker")
    refused = check_casualties(hits, attackers, {DE_TANK: 1, DE_BOMBER: 1}, rule="31")
    assert (refused.rule, refused.reason) == ("31", "casualty-cannot-be-hit")
    assert air_defense_volley(pack, battle, 0) == ()


@pytest.mark.rule("31")
def test_p31_german_anti_tank_guns_have_air_defense_british_ones_do_not(pack: AxisAlliesPack) -> None:
    """p.30: anti-tank guns *with this characteristic* fire like AAA (the German Flak 41 in the pack)."""
    german = Battle("el_agheila", "land", "allies", air_sea={UK_FIGHTER: 4}, defenders={DE_AT: 1})
    british = Battle("tobruk", "land", "axis", air_sea={DE_FIGHTER: 4}, defenders={UK_AT: 1})
    assert air_defense_dice(pack, german) == 3
    assert air_defense_dice(pack, british) == 0


@pytest.mark.rule("19")
def test_p19_air_defense_fires_only_before_the_first_round_of_a_land_combat(pack: AxisAlliesPack) -> None:
    battle = Battle("tobruk", "land", "axis", air_sea={DE_FIGHTER: 2}, defenders={UK_AAA: 1, UK_INF: 1}, round=2)
    assert air_defense_dice(pack, battle) == 0
    at_sea = Battle("sz25", "sea", "axis", air_sea={DE_FIGHTER: 2}, defenders={UK_AAA: 1})
    assert air_defense_dice(pack, at_sea) == 0
    no_air = Battle("tobruk", "land", "axis", land={"derna": {DE_TANK: 1}}, defenders={UK_AAA: 1})
    assert air_defense_dice(pack, no_air) == 0


# --- step 1: fight or retreat (p.20, p.29) -------------------------------------------------------------------


@pytest.fixture
def board() -> Position:
    """Tobruk British with 2 supply, Mersa Matruh neutral with 1, Derna German with 3 (German infantry there)."""
    return Position(
        round=1,
        pieces={"derna": {DE_INF: 1}},
        control={"tobruk": "united_kingdom", "derna": "germany"},
        supply={"tobruk": 2, "mersa_matruh": 1, "derna": 3},
    )


def defended(defenders: dict[Piece, int]) -> Battle:
    return Battle("tobruk", "land", "axis", land={"derna": {DE_TANK: 3}}, defenders=defenders)


@pytest.mark.rule("20")
def test_p20_fighting_costs_exactly_one_supply_from_the_territory_or_a_friendly_or_neutral_neighbour(
    pack: AxisAlliesPack, board: Position
) -> None:
    battle = defended({UK_INF: 2, UK_TANK: 1})
    assert check_orders(pack, board, battle, Orders(True, payment={"tobruk": 1})).ok
    assert check_orders(pack, board, battle, Orders(True, payment={"mersa_matruh": 1})).ok
    for payment, reason in (
        ({}, "supply-amount"),
        ({"tobruk": 2}, "supply-amount"),
        ({"derna": 1}, "supply-out-of-reach"),  # German-held
    ):
        verdict = check_orders(pack, board, battle, Orders(True, payment=payment))
        assert (verdict.rule, verdict.reason) == ("20", reason)


@pytest.mark.rule("20")
def test_p20_retreating_spends_nothing_and_nobody_fires(pack: AxisAlliesPack, board: Position) -> None:
    battle = defended({UK_INF: 2, UK_TANK: 1})
    orders = Orders(False)
    assert check_orders(pack, board, battle, orders).ok
    assert fighting(pack, battle, orders) == {}
    assert retreating(pack, battle, orders) == {UK_INF: 2, UK_TANK: 1}
    assert defense_fire(pack, battle, fighting(pack, battle, orders)) == ()
    paid = check_orders(pack, board, battle, Orders(False, payment={"tobruk": 1}))
    assert (paid.rule, paid.reason) == ("20", "supply-not-allowed")


@pytest.mark.rule("20")
def test_p20_all_exempt_defenders_choose_without_supply(pack: AxisAlliesPack, board: Position) -> None:
    battle = defended({UK_FIGHTER: 1, UK_SCOUT: 2})
    assert check_orders(pack, board, battle, Orders(True)).ok
    assert check_orders(pack, board, battle, Orders(False)).ok
    paid = check_orders(pack, board, battle, Orders(True, payment={"tobruk": 1}))
    assert (paid.rule, paid.reason) == ("20", "supply-not-allowed")
    split = check_orders(pack, board, battle, Orders(False, exempt_stay=True))
    assert (split.rule, split.reason) == ("20", "exempt-choice-not-open")
    assert orders_options(pack, board, battle) == (Orders(True), Orders(False))


@pytest.mark.rule("20")
def test_p20_exempt_units_fight_with_the_others_and_choose_together_when_they_retreat(
    pack: AxisAlliesPack, board: Position
) -> None:
    battle = defended({UK_INF: 1, UK_FIGHTER: 1, UK_SCOUT: 1})
    assert fighting(pack, battle, Orders(True, payment={"tobruk": 1})) == battle.defenders
    forced = check_orders(pack, board, battle, Orders(True, exempt_stay=True, payment={"tobruk": 1}))
    assert (forced.rule, forced.reason) == ("20", "exempt-choice-not-open")
    stay = Orders(False, exempt_stay=True)
    assert check_orders(pack, board, battle, stay).ok
    assert fighting(pack, battle, stay) == {UK_FIGHTER: 1, UK_SCOUT: 1}
    assert retreating(pack, battle, stay) == {UK_INF: 1}
    options = orders_options(pack, board, battle)
    assert options == (
        Orders(False),
        Orders(False, exempt_stay=True),
        Orders(True, payment={"mersa_matruh": 1}),
        Orders(True, payment={"tobruk": 1}),
    )


@pytest.mark.rule("20")
def test_p20_without_supply_the_defenders_must_retreat(pack: AxisAlliesPack) -> None:
    dry = Position(round=1, control={"tobruk": "united_kingdom"})
    battle = defended({UK_INF: 2})
    assert orders_options(pack, dry, battle) == (Orders(False),)


@pytest.mark.rule("29")
def test_p29_vichy_french_never_retreat(pack: AxisAlliesPack) -> None:
    board = Position(round=7, control={"casablanca": "france"})
    battle = Battle(
        "casablanca", "land", "allies", land={"casablanca": {("united_states", "infantry"): 5}}, defenders={FR_INF: 2}
    )
    refused = check_orders(pack, board, battle, Orders(False))
    assert (refused.rule, refused.reason) == ("29", "vichy-cannot-retreat")
    assert orders_options(pack, board, battle) == (Orders(True),)
    mixed = Battle(
        "casablanca",
        "land",
        "allies",
        land={"fez": {("united_states", "infantry"): 5}},
        defenders={FR_INF: 2, DE_INF: 1},
    )
    assert not check_orders(pack, board, mixed, Orders(False)).ok
    assert orders_options(pack, board, mixed) == (Orders(False, exempt_stay=True),)  # no supply: Germans go, Vichy stay


# --- steps 2 and 3: fire by unit type (pp.21-22, 30-33) ------------------------------------------------------


@pytest.mark.rule("21")
def test_p21_each_unit_rolls_one_die_hitting_at_or_under_its_attack_value(pack: AxisAlliesPack) -> None:
    battle = Battle(
        "tobruk",
        "land",
        "axis",
        land={"derna": {DE_TANK: 2, DE_INF: 3}},
        air_sea={DE_FIGHTER: 1},
        defenders={UK_INF: 1},
    )
    assert rows(attack_fire(pack, battle)) == [
        ("germany", "infantry", 3, 2, "any", False),
        ("germany", "tank", 2, 5, "any", False),
        ("germany", "fighter", 1, 4, "any", False),
    ]
    group = attack_fire(pack, battle)[0]
    assert group_hits(pack, group, [[2, 3, 1]]) == 2
    assert check_faces(pack, group, [[2, 3, 1]]).ok
    bad = check_faces(pack, group, [[2, 11, 1]])
    assert (bad.rule, bad.reason) == ("21", "bad-dice")
    assert not check_faces(pack, group, [[2, 3]]).ok


@pytest.mark.rule("35")
def test_p35_an_attacking_fighter_hits_40_percent_of_the_time(pack: AxisAlliesPack) -> None:
    battle = Battle("tobruk", "land", "axis", air_sea={DE_FIGHTER: 1}, defenders={UK_INF: 1})
    (group,) = attack_fire(pack, battle)
    hits = sum(group_hits(pack, group, [[face]]) for face in range(1, pack.limit("die_sides") + 1))
    assert hits * 100 // pack.limit("die_sides") == 40


@pytest.mark.rule("30")
def test_p30_artillery_supports_one_infantry_each_across_origins(pack: AxisAlliesPack) -> None:
    battle = Battle(
        "tobruk",
        "land",
        "axis",
        land={"derna": {DE_INF: 3, DE_ART: 1}, "mechili": {DE_MECH: 1, DE_ART: 1}},
        main="derna",
        defenders={UK_INF: 1},
    )
    supported = {(g.type, g.flanking): (g.count, g.needs) for g in attack_fire(pack, battle) if g.supported}
    plain = {(g.type, g.flanking): (g.count, g.needs) for g in attack_fire(pack, battle) if not g.supported}
    # the flanking mech from Mechili takes a pair first, the other artillery one infantry in Derna
    assert supported == {("mech_infantry", True): (1, 3), ("infantry", False): (1, 3)}
    assert plain == {("artillery", True): (1, 3), ("artillery", False): (1, 3), ("infantry", False): (2, 2)}


@pytest.mark.rule("30")
def test_p30_no_support_on_defense_and_none_for_another_power(pack: AxisAlliesPack) -> None:
    battle = Battle("el_agheila", "land", "allies", land={"benghazi": {UK_INF: 2}}, defenders={IT_INF: 2, DE_ART: 1})
    groups = defense_fire(pack, battle, battle.defenders)
    assert [(g.type, g.needs, g.supported) for g in groups] == [("artillery", 3, False), ("infantry", 3, False)]
    mixed = Battle(
        "tobruk",
        "land",
        "axis",
        land={"derna": {DE_ART: 1}, "mechili": {IT_INF: 1}},
        main="derna",
        defenders={UK_INF: 1},
    )
    assert all(not g.supported for g in attack_fire(pack, mixed))


@pytest.mark.rule("19")
def test_p19_the_main_attack_comes_from_the_origin_with_most_land_units(pack: AxisAlliesPack) -> None:
    battle = Battle(
        "tobruk", "land", "axis", land={"derna": {DE_TANK: 3}, "mechili": {DE_INF: 2}, "bir_hachem": {DE_TANK: 3}}
    )
    assert main_candidates(battle) == ("bir_hachem", "derna")


@pytest.mark.rule("19")
def test_p19_flanking_units_reroll_8_9_and_10_including_rerolls(pack: AxisAlliesPack) -> None:
    battle = Battle(
        "tobruk",
        "land",
        "axis",
        land={"derna": {DE_TANK: 3}, "mechili": {DE_TANK: 2}},
        main="derna",
        defenders={UK_INF: 3},
    )
    main, flank = attack_fire(pack, battle)
    assert (main.flanking, flank.flanking) == (False, True)
    assert dice_needed(pack, flank, []) == 2
    assert dice_needed(pack, flank, [[9, 3]]) == 1
    assert dice_needed(pack, flank, [[9, 3], [10]]) == 1
    assert dice_needed(pack, flank, [[9, 3], [10], [5]]) == 0
    assert group_hits(pack, flank, [[9, 3], [10], [5]]) == 2  # 3 and the final 5
    assert check_faces(pack, flank, [[9, 3], [10], [5]]).ok
    owed = check_faces(pack, flank, [[9, 3]])
    assert (owed.rule, owed.reason) == ("19", "rerolls-owed")
    assert dice_needed(pack, main, [[9, 9, 9]]) == 0  # the main attack never rerolls
    assert group_hits(pack, main, [[9, 9, 5]]) == 1
    specs = roll_specs(pack, (main, flank), "c1-r1-attack")
    assert [(s.id, s.n, s.sides) for s in specs] == [("c1-r1-attack-0", 3, 10), ("c1-r1-attack-1", 2, 10)]


@pytest.mark.rule("30")
def test_p30_anti_tank_guns_aim_at_tanks_in_the_first_round_only(pack: AxisAlliesPack) -> None:
    first = Battle("tobruk", "land", "axis", land={"derna": {DE_AT: 2}}, defenders={UK_INF: 2, UK_TANK: 1, UK_AT: 1})
    assert rows(attack_fire(pack, first)) == [("germany", "anti_tank_gun", 2, 2, "tanks", False)]
    assert [g.target for g in defense_fire(pack, first, first.defenders)] == ["tanks", "any", "any"]
    later = Battle(**{**first.__dict__, "round": 2})
    assert rows(attack_fire(pack, later)) == [("germany", "anti_tank_gun", 2, 2, "any", False)]
    assert all(g.target == "any" for g in defense_fire(pack, later, later.defenders))


@pytest.mark.rule("31")
def test_p31_attacking_scout_cars_aim_at_air_units_defending_ones_do_not(pack: AxisAlliesPack) -> None:
    battle = Battle("tobruk", "land", "axis", land={"derna": {DE_SCOUT: 2}}, defenders={UK_FIGHTER: 1, UK_SCOUT: 1})
    (group,) = attack_fire(pack, battle)
    assert (group.target, group.needs) == ("air", 2)
    assert [g.target for g in defense_fire(pack, battle, battle.defenders)] == ["any", "any"]


@pytest.mark.rule("33")
def test_p33_bombers_name_a_combat_land_unit_type(pack: AxisAlliesPack) -> None:
    battle = Battle("tobruk", "land", "axis", air_sea={DE_BOMBER: 2}, defenders={UK_INF: 2, UK_ART: 1})
    (group,) = attack_fire(pack, battle)
    assert group.target == "land_type"
    pool = casualty_pool(pack, battle, "defender")
    assert check_aims(pack, battle, group, 2, {"artillery": 1}, pool).ok
    for aims, reason in (({"tank": 1}, "bad-aim"), ({"artillery": 3}, "too-many-aims")):
        verdict = check_aims(pack, battle, group, 2, aims, pool)
        assert verdict.reason == reason
    british = Battle("tobruk", "land", "allies", air_sea={UK_BOMBER: 1}, defenders={DE_INF: 1})
    (plain,) = attack_fire(pack, british)
    assert plain.target == "any"  # the British bomber has only Collateral Damage
    refused = check_aims(pack, british, plain, 1, {"infantry": 1}, casualty_pool(pack, british, "defender"))
    assert (refused.rule, refused.reason) == ("21", "cannot-aim")


@pytest.mark.rule("31")
def test_p31_aaa_cannot_attack_and_has_no_defense_value(pack: AxisAlliesPack) -> None:
    battle = Battle(
        "tobruk", "land", "allies", land={"mersa_matruh": {UK_AAA: 1, UK_INF: 1}}, defenders={IT_AAA: 1, IT_INF: 1}
    )
    assert [g.type for g in attack_fire(pack, battle)] == ["infantry"]
    assert [g.type for g in defense_fire(pack, battle, battle.defenders)] == ["infantry"]
    assert casualty_pool(pack, battle, "defender") == {IT_AAA: 1, IT_INF: 1}  # still a casualty


@pytest.mark.rule("10")
def test_p10_tobruk_defensive_bonus_raises_defending_land_units(pack: AxisAlliesPack) -> None:
    battle = Battle("tobruk", "land", "axis", land={"derna": {DE_TANK: 1}}, defenders={UK_INF: 1, UK_FIGHTER: 1})
    bonus = pack.territory("tobruk").defensive_bonus
    assert bonus is not None and defense_bonus(pack, battle) == bonus.defense_modifier
    values = {g.type: g.needs for g in defense_fire(pack, battle, battle.defenders)}
    assert values == {"infantry": 3 + bonus.defense_modifier, "fighter": 5}  # air units gain nothing


@pytest.mark.rule("10")
def test_p10_mareth_bonus_only_against_land_attacks_from_tripoli(pack: AxisAlliesPack) -> None:
    from_tripoli = Battle(
        "mareth",
        "land",
        "allies",
        land={"tripoli": {UK_INF: 1}, "garian": {UK_INF: 1}},
        main="tripoli",
        defenders={IT_INF: 1},
    )
    from_garian = Battle("mareth", "land", "allies", land={"garian": {UK_INF: 1}}, defenders={IT_INF: 1})
    by_air = Battle("mareth", "land", "allies", air_sea={UK_FIGHTER: 1}, defenders={IT_INF: 1})
    assert defense_bonus(pack, from_tripoli) == 1
    assert defense_bonus(pack, from_garian) == 0
    assert defense_bonus(pack, by_air) == 0


@pytest.mark.rule("19")
def test_p19_flanking_lasts_after_the_main_attack_is_gone(pack: AxisAlliesPack) -> None:
    """p.19: "This bonus remains in effect throughout the combat, even after all of the units in the main attack
    have retreated or been destroyed"."""
    battle = Battle(
        "tobruk", "land", "axis", land={"mechili": {DE_TANK: 2}}, main="derna", defenders={UK_INF: 1}, round=3
    )
    assert [g.flanking for g in attack_fire(pack, battle)] == [True]


@pytest.mark.rule("19")
def test_p19_several_origins_need_a_main_attack_with_the_most_land_units(pack: AxisAlliesPack) -> None:
    from pbem.games.axisallies.combat import check_battle

    battle = Battle(
        "tobruk", "land", "axis", land={"derna": {DE_TANK: 3}, "mechili": {DE_TANK: 1}}, defenders={UK_INF: 1}
    )
    unset = check_battle(pack, battle)
    assert (unset.rule, unset.reason) == ("19", "main-attack-unset")
    wrong = check_battle(pack, Battle(**{**battle.__dict__, "main": "mechili"}))
    assert (wrong.rule, wrong.reason) == ("19", "not-main-attack")
    assert check_battle(pack, Battle(**{**battle.__dict__, "main": "derna"})).ok


@pytest.mark.rule("21")
def test_p21_a_volley_is_recorded_per_unit_type_with_its_dice(pack: AxisAlliesPack) -> None:
    from pbem.games.axisallies.combat import fire_step

    battle = Battle(
        "tobruk",
        "land",
        "axis",
        land={"derna": {DE_TANK: 2}, "mechili": {DE_INF: 1}},
        main="derna",
        defenders={UK_INF: 1},
    )
    tanks, infantry = attack_fire(pack, battle)
    step = fire_step(pack, "attacking units fire", "axis", (tanks, infantry), ([[5, 6]], [[9], [2]]))
    assert [(f.kind, f.count, f.dice, f.needs, f.hits) for f in step.fire] == [
        ("germany-tank", 2, (5, 6), 5, 1),
        ("germany-infantry", 1, (9, 2), 2, 1),
    ]
    assert step.hits == 2 and step.side == "axis"


@pytest.mark.rule("33")
@pytest.mark.rule("30")
def test_p33_a_bomber_naming_the_tank_type_names_every_tank(pack: AxisAlliesPack) -> None:
    """p.33: the attacker selects "a specific combat land unit type"; the unit types are those of the profiles
    (p.30: "Infantry, mechanized infantry, artillery, anti-tank guns, anti-aircraft artillery, scout cars, tanks,
    and trucks"), and the Lend-Lease Sherman is a tank (p.28, Game Piece Directory): naming tanks lets the
    defender lose either tank, and the Sherman may be named as a tank."""
    battle = Battle("tobruk", "land", "axis", air_sea={DE_BOMBER: 1}, defenders={UK_INF: 1, UK_TANK: 1, UK_SHERMAN: 1})
    (bomber,) = attack_fire(pack, battle)
    pool = casualty_pool(pack, battle, "defender")
    assert combat_fire.aim_options(pack, battle, bomber, pool) == ("infantry", "tank")
    hits = combat_fire.volley(pack, battle, [combat_fire.Scored(bomber, 1, {"tank": 1})])
    assert check_casualties(hits, pool, {UK_SHERMAN: 1}, rule="21").ok
    assert check_casualties(hits, pool, {UK_TANK: 1}, rule="21").ok
    ignored = check_casualties(hits, pool, {UK_INF: 1}, rule="21")
    assert (ignored.rule, ignored.reason) == ("33", "aimed-hit-ignored")
    shermans = Battle("tobruk", "land", "axis", air_sea={DE_BOMBER: 1}, defenders={UK_INF: 1, UK_SHERMAN: 1})
    assert check_aims(pack, shermans, bomber, 1, {"tank": 1}, casualty_pool(pack, shermans, "defender")).ok


@pytest.mark.rule("30")
def test_p30_each_artillery_goes_where_its_support_adds_most(pack: AxisAlliesPack, raw: Raw) -> None:
    """p.30: "Each eligible infantry or mechanized infantry must be paired one-for-one with a supporting
    artillery"; the pairing is the attacker's, and the library makes the best one. Support is worth more to a
    flanking unit than to the same unit in the main attack (p.19: its 8-10 are rerolled), and more to a weaker
    unit than to a stronger: in a transcription where mechanized infantry attacks at 1, a single artillery
    supports the mechanized infantry of the main attack (+2 in 10) before the flanking infantry (+1 in 7)."""
    battle = Battle(
        "tobruk",
        "land",
        "axis",
        land={"derna": {DE_MECH: 1, DE_INF: 1}, "mechili": {DE_INF: 1, DE_ART: 1}},
        defenders={UK_INF: 1},
        main="derna",
    )
    flank = {(g.type, g.flanking, g.supported) for g in attack_fire(pack, battle)}
    assert ("infantry", True, True) in flank  # same base value: the flanking infantry takes the support
    record(raw, "units", "germany-mech_infantry")["attack"] = 1
    weak = load_pack(pretty(raw))
    groups = {(g.type, g.flanking, g.supported, g.needs) for g in attack_fire(weak, battle)}
    assert ("mech_infantry", False, True, 3) in groups
    assert ("infantry", True, False, 2) in groups
