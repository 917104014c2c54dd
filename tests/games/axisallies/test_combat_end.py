"""Around and after the fire of a land combat: supply strikes, territories without a fight, the defender's
retreats, the Vichy surrender, pressing or ceasing, and who holds the territory (pages 19, 22-23, 28-29, 31, 33).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.games.axisallies.combat import (
    Battle,
    Conclusion,
    Orders,
    Press,
    aaa_destroyed,
    after_press,
    attack_fire,
    check_cease,
    check_move_in,
    check_press,
    check_retreats,
    check_supply_strikes,
    combat_over,
    conclude,
    defense_fire,
    fighting,
    group_hits,
    needs_fight,
    press_due,
    supply_strikes,
    surrenders,
)
from pbem.games.axisallies.data import AxisAlliesPack, Scenario
from pbem.games.axisallies.position import Position
from tests.games.axisallies.pieces import (
    DE_BOMBER,
    DE_FIGHTER,
    DE_INF,
    DE_SCOUT,
    DE_TANK,
    FR_INF,
    IT_AAA,
    IT_INF,
    UK_AT,
    UK_FIGHTER,
    UK_INF,
    UK_SCOUT,
    UK_TANK,
    UK_TRUCK,
    US_INF,
)


@pytest.fixture(scope="module")
def rlp(pack: AxisAlliesPack) -> Scenario:
    return pack.scenario("rommels_last_push")


# --- before the first round (p.19, p.31, p.33) ---------------------------------------------------------------


@pytest.mark.rule("31")
def test_p31_scout_cars_and_bombers_each_destroy_one_supply_token_before_round_one(pack: AxisAlliesPack) -> None:
    board = Position(round=1, supply={"tobruk": 3})
    battle = Battle(
        "tobruk",
        "land",
        "axis",
        land={"derna": {DE_SCOUT: 3, DE_TANK: 1}},
        air_sea={DE_BOMBER: 2},
        defenders={UK_INF: 1},
    )
    assert supply_strikes(pack, board, battle) == ("supply_raider", "collateral_damage")
    assert check_supply_strikes(pack, board, battle, ["supply_raider", "collateral_damage"]).ok
    twice = check_supply_strikes(pack, board, battle, ["supply_raider", "supply_raider"])
    assert (twice.rule, twice.reason) == ("31", "no-supply-strike")
    assert supply_strikes(pack, board, replace(battle, round=2)) == ()
    assert supply_strikes(pack, Position(round=1), battle) == ()


@pytest.mark.rule("31")
@pytest.mark.rule("33")
def test_p31_with_one_token_left_either_strike_may_destroy_it(pack: AxisAlliesPack) -> None:
    """pp.31, 33: scout cars and bombers attacking together each "may choose to destroy 1 supply token in the
    defending territory": with a single token there, the attacker may use either characteristic, not both."""
    board = Position(round=1, supply={"tobruk": 1})
    battle = Battle(
        "tobruk", "land", "axis", land={"derna": {DE_SCOUT: 1}}, air_sea={DE_BOMBER: 1}, defenders={UK_INF: 1}
    )
    assert supply_strikes(pack, board, battle) == ("supply_raider", "collateral_damage")
    assert check_supply_strikes(pack, board, battle, ["collateral_damage"]).ok
    assert check_supply_strikes(pack, board, battle, ["supply_raider"]).ok
    both = check_supply_strikes(pack, board, battle, ["supply_raider", "collateral_damage"])
    assert (both.rule, both.reason) == ("33", "no-supply-left")


@pytest.mark.rule("33")
def test_p33_collateral_damage_needs_a_bomber_left_after_air_defense(pack: AxisAlliesPack) -> None:
    board = Position(round=1, supply={"tobruk": 2})
    shot_down = Battle("tobruk", "land", "axis", air_sea={DE_FIGHTER: 1}, defenders={UK_INF: 1})
    assert supply_strikes(pack, board, shot_down) == ()
    refused = check_supply_strikes(pack, board, shot_down, ["collateral_damage"])
    assert (refused.rule, refused.reason) == ("33", "no-supply-strike")


@pytest.mark.rule("19")
def test_p19_aaa_alone_fires_and_is_destroyed_without_a_fight(pack: AxisAlliesPack) -> None:
    battle = Battle("el_agheila", "land", "allies", land={"benghazi": {UK_INF: 1}}, defenders={IT_AAA: 2})
    assert not needs_fight(pack, battle)
    assert aaa_destroyed(pack, battle)
    assert needs_fight(pack, replace(battle, defenders={IT_AAA: 1, IT_INF: 1}))


@pytest.mark.rule("31")
def test_p31_an_air_attack_on_aaa_alone_needs_a_survivor(pack: AxisAlliesPack) -> None:
    survived = Battle("el_agheila", "land", "allies", air_sea={UK_FIGHTER: 1}, defenders={IT_AAA: 1})
    assert aaa_destroyed(pack, survived)
    all_down = replace(survived, air_sea={})
    assert not aaa_destroyed(pack, all_down)


# --- step 4: retreats (p.22) ---------------------------------------------------------------------------------


@pytest.fixture
def mersa_matruh() -> Position:
    """p.22's example: Axis units in Mersa Matruh, a UK scout car in Siwa, Cairo British, Tobruk German."""
    return Position(
        round=3,
        pieces={
            "mersa_matruh": {DE_INF: 3, DE_TANK: 3},
            "siwa": {UK_SCOUT: 1},
            "cairo": {UK_INF: 4},
            "bir_hachem": {UK_TANK: 1},
        },
        control={"cairo": "united_kingdom", "tobruk": "germany"},
    )


@pytest.mark.rule("22")
def test_p22_worked_example_the_only_retreat_is_tobruk(
    pack: AxisAlliesPack, rlp: Scenario, mersa_matruh: Position
) -> None:
    """p.22: "They cannot retreat into Bir Hachem, as it was attacked this round by a land unit. ... Siwa is a
    hostile territory, as there is a UK scout car there, so Tobruk is the only available retreat option"."""
    battle = Battle("mersa_matruh", "land", "allies", land={"cairo": {UK_INF: 4}}, defenders={DE_INF: 3, DE_TANK: 3})
    survivors = {DE_INF: 2, DE_TANK: 2}  # 4 units remain
    attacked = frozenset({"bir_hachem"})
    ok = check_retreats(
        pack, rlp, mersa_matruh, battle, survivors, {"tobruk": survivors}, land_attacked=attacked, blitzed=frozenset()
    )
    assert ok.ok
    for there in ("bir_hachem", "siwa", "cairo"):
        verdict = check_retreats(
            pack,
            rlp,
            mersa_matruh,
            battle,
            survivors,
            {"tobruk": {DE_INF: 2, DE_TANK: 1}, there: {DE_TANK: 1}},
            land_attacked=attacked,
            blitzed=frozenset(),
        )
        assert (verdict.rule, verdict.reason) == ("22", "bad-retreat"), there
    stay = check_retreats(
        pack, rlp, mersa_matruh, battle, survivors, {"tobruk": {DE_INF: 2}}, land_attacked=attacked, blitzed=frozenset()
    )
    assert (stay.rule, stay.reason) == ("22", "retreat-possible")
    blitzed = check_retreats(
        pack,
        rlp,
        mersa_matruh,
        battle,
        survivors,
        {"tobruk": survivors},
        land_attacked=attacked,
        blitzed=frozenset({"tobruk"}),
    )
    assert (blitzed.rule, blitzed.reason) == ("22", "bad-retreat")


@pytest.mark.rule("22")
def test_p22_units_with_nowhere_to_go_are_destroyed_and_stacking_limits_hold(
    pack: AxisAlliesPack, rlp: Scenario, mersa_matruh: Position
) -> None:
    full = replace(mersa_matruh, pieces={**mersa_matruh.pieces, "tobruk": {IT_INF: 7}})
    battle = Battle("mersa_matruh", "land", "allies", land={"cairo": {UK_INF: 4}}, defenders={DE_INF: 3, DE_TANK: 3})
    survivors = {DE_INF: 1, DE_TANK: 2}
    attacked = frozenset({"bir_hachem"})
    over = check_retreats(
        pack, rlp, full, battle, survivors, {"tobruk": survivors}, land_attacked=attacked, blitzed=frozenset()
    )
    assert (over.rule, over.reason) == ("22", "retreat-over-stacking")
    assert check_retreats(
        pack, rlp, full, battle, survivors, {"tobruk": {DE_TANK: 1}}, land_attacked=attacked, blitzed=frozenset()
    ).ok  # one fits, two are destroyed
    trapped = check_retreats(
        pack,
        rlp,
        mersa_matruh,
        battle,
        survivors,
        {},
        land_attacked=frozenset({"bir_hachem", "tobruk"}),
        blitzed=frozenset(),
    )
    assert trapped.ok
    extra = check_retreats(
        pack, rlp, mersa_matruh, battle, survivors, {"tobruk": {DE_INF: 2}}, land_attacked=attacked, blitzed=frozenset()
    )
    assert (extra.rule, extra.reason) == ("22", "not-retreating")


# --- Vichy French (p.29) -------------------------------------------------------------------------------------


@pytest.mark.rule("29")
def test_p29_worked_example_vichy_surrender_in_casablanca(pack: AxisAlliesPack) -> None:
    """p.29: "There are 5 United States infantry attacking 2 Vichy French infantry in Casablanca. The US player
    rolls 1, 5, 6, 8, and 9 for 1 hit ... The Germany player rolls 6 and 7, two misses ... the surviving unit
    surrenders ... the US player places a control marker in Casablanca"."""
    board = Position(
        round=7,
        pieces={"casablanca": {FR_INF: 2, US_INF: 5}},
        control={"casablanca": "france"},
        supply={"casablanca": 4},
    )
    battle = Battle(
        "casablanca", "land", "allies", land={"casablanca": {US_INF: 5}}, defenders={FR_INF: 2}, must_press=True
    )
    (attack,) = attack_fire(pack, battle)
    assert group_hits(pack, attack, [[1, 5, 6, 8, 9]]) == 1
    (defense,) = defense_fire(pack, battle, fighting(pack, battle, Orders(True)))
    misses = group_hits(pack, defense, [[6, 7]])
    assert misses == 0
    assert surrenders(pack, battle, misses)
    assert not surrenders(pack, battle, 1)
    ended = replace(battle, defenders={})  # one destroyed, one now Free French
    assert combat_over(pack, ended)
    result = conclude(pack, board, ended, power="united_states")
    assert result.captured and result.controller == "united_states"
    assert (result.convoy_zone, result.convoy_powers) == ("sz2", ("united_kingdom", "united_states"))
    assert result.move_in == 0  # the landing units are already there


@pytest.mark.rule("29")
def test_p29_vichy_with_german_defenders_never_surrender(pack: AxisAlliesPack) -> None:
    battle = Battle("casablanca", "land", "allies", land={"fez": {US_INF: 5}}, defenders={FR_INF: 1, DE_INF: 1})
    assert not surrenders(pack, battle, 0)


# --- step 5: press or cease (p.22, p.23, p.28) ---------------------------------------------------------------


@pytest.fixture
def pressing() -> Position:
    return Position(
        round=4,
        pieces={"mersa_matruh": {UK_INF: 5, UK_AT: 2}},
        control={"cairo": "united_kingdom", "tobruk": "germany"},
        supply={"mersa_matruh": 1, "cairo": 3},
    )


@pytest.mark.rule("23")
def test_p23_worked_example_retreating_two_anti_tank_guns_saves_a_supply_token(
    pack: AxisAlliesPack, pressing: Position
) -> None:
    """p.23: "the UK player chooses to retreat both of their anti-tank guns, reducing the supply cost for the
    second round of combat to just 1 supply token"."""
    battle = Battle("tobruk", "land", "allies", land={"mersa_matruh": {UK_INF: 5, UK_AT: 2}}, defenders={DE_INF: 2})
    assert press_due(pack, battle, Press()) == {"mersa_matruh": 2}
    keep_guns = Press(payment={"mersa_matruh": {"mersa_matruh": 1, "cairo": 1}})
    assert check_press(pack, pressing, battle, keep_guns).ok
    guns_back = Press(retreat={"mersa_matruh": {UK_AT: 2}}, payment={"mersa_matruh": {"mersa_matruh": 1}})
    assert press_due(pack, battle, guns_back) == {"mersa_matruh": 1}
    assert check_press(pack, pressing, battle, guns_back).ok
    underpaid = check_press(pack, pressing, battle, Press(payment={"mersa_matruh": {"cairo": 1}}))
    assert (underpaid.rule, underpaid.reason) == ("23", "supply-amount")
    nxt = after_press(pack, battle, guns_back)
    assert nxt.land == {"mersa_matruh": {UK_INF: 5}} and nxt.round == 2


@pytest.mark.rule("23")
def test_p23_press_checks_the_units_and_that_someone_goes_on(pack: AxisAlliesPack, pressing: Position) -> None:
    battle = Battle(
        "tobruk", "land", "allies", land={"mersa_matruh": {UK_INF: 2}}, air_sea={UK_FIGHTER: 1}, defenders={DE_INF: 2}
    )
    ghost = check_press(pack, pressing, battle, Press(retreat={"mersa_matruh": {UK_TANK: 1}}))
    assert (ghost.rule, ghost.reason) == ("23", "not-attacking")
    nobody = check_press(
        pack, pressing, battle, Press(retreat={"mersa_matruh": {UK_INF: 2}}, air_retreat={UK_FIGHTER: 1})
    )
    assert (nobody.rule, nobody.reason) == ("23", "nobody-presses")
    air_only = Press(retreat={"mersa_matruh": {UK_INF: 2}})
    assert press_due(pack, battle, air_only) == {}
    assert check_press(pack, pressing, battle, air_only).ok  # air units press for free
    paid_for_nothing = check_press(pack, pressing, battle, replace(air_only, payment={"mersa_matruh": {"cairo": 1}}))
    assert (paid_for_nothing.rule, paid_for_nothing.reason) == ("23", "supply-amount")


@pytest.mark.rule("31")
def test_p31_scout_cars_leave_after_the_first_round_and_cost_nothing(pack: AxisAlliesPack, pressing: Position) -> None:
    battle = Battle("tobruk", "land", "allies", land={"mersa_matruh": {UK_SCOUT: 2, UK_INF: 1}}, defenders={DE_INF: 2})
    assert press_due(pack, battle, Press()) == {"mersa_matruh": 1}
    nxt = after_press(pack, battle, Press(payment={"mersa_matruh": {"cairo": 1}}))
    assert nxt.land == {"mersa_matruh": {UK_INF: 1}}
    scouts_only = replace(battle, land={"mersa_matruh": {UK_SCOUT: 2}})
    refused = check_press(pack, pressing, scouts_only, Press())
    assert (refused.rule, refused.reason) == ("23", "nobody-presses")


@pytest.mark.rule("28")
def test_p28_torch_landings_press_with_all_units_while_they_can_pay(pack: AxisAlliesPack) -> None:
    board = Position(
        round=7,
        pieces={"algiers": {FR_INF: 2, US_INF: 3, UK_INF: 3}},
        control={"algiers": "france"},
        supply={"algiers": 5},
    )
    battle = Battle(
        "algiers", "land", "allies", land={"algiers": {US_INF: 3, UK_INF: 3}}, defenders={FR_INF: 1}, must_press=True
    )
    assert press_due(pack, battle, Press()) == {"algiers": 2}  # both powers' units count together
    assert check_press(pack, board, battle, Press(payment={"algiers": {"algiers": 2}})).ok
    partial = check_press(
        pack, board, battle, Press(retreat={"algiers": {UK_INF: 1}}, payment={"algiers": {"algiers": 2}})
    )
    assert (partial.rule, partial.reason) == ("28", "must-press-with-all")
    cease = check_cease(pack, board, battle)
    assert (cease.rule, cease.reason) == ("28", "must-press")
    dry = replace(board, supply={"algiers": 1})
    assert check_cease(pack, dry, battle).ok  # notes §10.22: unable to pay, the normal forced cease
    ordinary = replace(battle, must_press=False)
    assert check_cease(pack, board, ordinary).ok
    won = conclude(pack, board, replace(battle, defenders={}), power="united_states")
    assert won.controller == "united_states" and won.convoy_zone == "sz7"


@pytest.mark.rule("28")
def test_p28_option_torch_landings_unable_to_pay_press_unpaid(pack: AxisAlliesPack) -> None:
    """Notes §10.22, a named option: p.28 says the landings "must continue to be pressed with all units until"
    one side is gone, and also that "In all other respects, these attacks follow the normal ... combat
    procedure", under which an attacker short of supply must cease (p.23). ``torch_unpaid_press`` False (the
    default): the normal forced cease; True: a landing that cannot pay presses without paying."""
    board = Position(round=7, pieces={"algiers": {FR_INF: 2, US_INF: 6}}, control={"algiers": "france"})
    dry = replace(board, supply={"algiers": 1})
    battle = Battle("algiers", "land", "allies", land={"algiers": {US_INF: 6}}, defenders={FR_INF: 1}, must_press=True)
    assert check_cease(pack, dry, battle).ok
    assert not check_press(pack, dry, battle, Press()).ok
    refused = check_cease(pack, dry, battle, torch_unpaid_press=True)
    assert (refused.rule, refused.reason) == ("28", "must-press")
    assert check_press(pack, dry, battle, Press(), torch_unpaid_press=True).ok
    paid = check_press(pack, dry, battle, Press(payment={"algiers": {"algiers": 1}}), torch_unpaid_press=True)
    assert (paid.rule, paid.reason) == ("23", "supply-amount")  # nothing may be paid in part
    able = replace(board, supply={"algiers": 2})
    unpaid = check_press(pack, able, battle, Press(), torch_unpaid_press=True)
    assert (unpaid.rule, unpaid.reason) == ("23", "supply-amount")  # who can pay, pays
    ordinary = replace(battle, must_press=False)
    assert not check_press(pack, dry, ordinary, Press(), torch_unpaid_press=True).ok
    assert check_cease(pack, dry, ordinary, torch_unpaid_press=True).ok


# --- step 6: who holds the territory (p.23) ------------------------------------------------------------------


@pytest.mark.rule("23")
def test_p23_the_winner_moves_in_up_to_the_stacking_limit_and_captures_trucks(pack: AxisAlliesPack) -> None:
    board = Position(
        round=3,
        pieces={"tobruk": {UK_TRUCK: 1}, "derna": {DE_TANK: 6}, "mechili": {DE_INF: 4}},
        control={"tobruk": "united_kingdom"},
    )
    battle = Battle(
        "tobruk",
        "land",
        "axis",
        land={"derna": {DE_TANK: 6}, "mechili": {DE_INF: 4, DE_SCOUT: 1}},
        air_sea={DE_FIGHTER: 2},
        main="derna",
    )
    result = conclude(pack, board, battle, power="germany")
    assert result.captured and result.controller == "germany"
    assert result.movers == {"derna": {DE_TANK: 6}, "mechili": {DE_INF: 4}}  # no scout car, no fighter
    assert result.move_in == pack.territory("tobruk").stacking_limit
    assert result.trucks == {UK_TRUCK: 1}
    assert result.convoy_zone is None
    assert check_move_in(result, {"derna": {DE_TANK: 6}, "mechili": {DE_INF: 2}}).ok
    short = check_move_in(result, {"derna": {DE_TANK: 6}})
    assert (short.rule, short.reason) == ("23", "move-in-count")
    scout = check_move_in(result, {"derna": {DE_TANK: 6}, "mechili": {DE_INF: 1, DE_SCOUT: 1}})
    assert (scout.rule, scout.reason) == ("23", "cannot-move-in")


@pytest.mark.rule("23")
def test_p23_no_capture_while_defenders_remain_or_with_scouts_and_air_alone(pack: AxisAlliesPack) -> None:
    board = Position(round=3, control={"tobruk": "united_kingdom"})
    held = Battle("tobruk", "land", "axis", land={"derna": {DE_TANK: 2}}, defenders={UK_INF: 1})
    assert conclude(pack, board, held, power="germany") == Conclusion(False)
    raiders = Battle("tobruk", "land", "axis", land={"derna": {DE_SCOUT: 2}}, air_sea={DE_BOMBER: 1})
    assert not conclude(pack, board, raiders, power="germany").captured


@pytest.mark.rule("23")
def test_p23_capturing_a_port_opens_or_closes_its_convoy_route(pack: AxisAlliesPack) -> None:
    board = Position(round=3, control={"benghazi": "united_kingdom", "tripoli": "italy"})
    axis_win = conclude(
        pack, board, Battle("benghazi", "land", "axis", land={"el_agheila": {DE_TANK: 1}}), power="germany"
    )
    assert (axis_win.convoy_zone, axis_win.convoy_powers) == ("sz20", ("germany", "italy"))
    allied_win = conclude(
        pack, board, Battle("tripoli", "land", "allies", land={"sirte": {UK_INF: 1}}), power="united_kingdom"
    )
    assert (allied_win.convoy_zone, allied_win.convoy_powers) == ("sz15", ())


@pytest.mark.rule("22")
def test_p22_the_combat_ends_when_a_side_is_gone(pack: AxisAlliesPack) -> None:
    battle = Battle("tobruk", "land", "axis", land={"derna": {DE_TANK: 1}}, defenders={UK_INF: 1})
    assert not combat_over(pack, battle)
    assert combat_over(pack, replace(battle, defenders={}))
    assert combat_over(pack, replace(battle, land={}))


@pytest.mark.rule("38")
def test_p38_optional_reinforcing_land_attacks(pack: AxisAlliesPack) -> None:
    from pbem.games.axisallies.combat import check_reinforcements, reinforce

    battle = Battle(
        "tobruk", "land", "axis", land={"derna": {DE_TANK: 2}}, main="derna", defenders={UK_INF: 1}, round=2
    )
    on = frozenset({"reinforcing_land_attacks"})
    extra = {"mechili": {DE_INF: 2}}
    off = check_reinforcements(pack, battle, extra, options=frozenset())
    assert (off.rule, off.reason) == ("38", "optional-rule-off")
    assert check_reinforcements(pack, battle, extra, options=on).ok
    scouts = check_reinforcements(pack, battle, {"mechili": {DE_SCOUT: 1}}, options=on)
    assert (scouts.rule, scouts.reason) == ("38", "scouts-cannot-reinforce")
    aaa = check_reinforcements(pack, battle, {"mechili": {IT_AAA: 1}}, options=on)
    assert (aaa.rule, aaa.reason) == ("38", "cannot-reinforce")
    at_sea = Battle(
        "sz25", "sea", "axis", air_sea={("italy", "destroyer"): 1}, defenders={("united_kingdom", "destroyer"): 1}
    )
    sea = check_reinforcements(pack, at_sea, extra, options=on)
    assert (sea.rule, sea.reason) == ("38", "not-a-land-attack")
    joined = reinforce(battle, extra)
    assert joined.land == {"derna": {DE_TANK: 2}, "mechili": {DE_INF: 2}}
    assert [g.flanking for g in attack_fire(pack, joined)] == [False, True]  # they flank the main attack


@pytest.mark.rule("23")
def test_p23_turned_aside_attackers_stay_where_they_attacked_from(pack: AxisAlliesPack) -> None:
    from pbem.games.axisallies.combat import attacker_retreats

    battle = Battle(
        "tobruk",
        "land",
        "allies",
        land={"mersa_matruh": {UK_INF: 5, UK_AT: 2, UK_SCOUT: 1}},
        air_sea={UK_FIGHTER: 2},
        defenders={DE_INF: 2},
    )
    press = Press(retreat={"mersa_matruh": {UK_AT: 2}}, air_retreat={UK_FIGHTER: 1})
    assert attacker_retreats(pack, battle, press) == {
        "mersa_matruh": {UK_AT: 2, UK_SCOUT: 1},  # the scout car leaves after round 1 anyway (p.31)
        "tobruk": {UK_FIGHTER: 1},  # in the air over Tobruk until the noncombat move
    }
