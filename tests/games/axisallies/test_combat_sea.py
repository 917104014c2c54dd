"""Sea combat: submarines, air units and destroyers, transports and convoy escapes, battleships, and the worked
convoy example of pages 21-22 (pages 6, 20-22, 27, 31-34).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.games.axisallies.combat import (
    TRANSPORT,
    Battle,
    Cargo,
    CargoLoss,
    Press,
    Scored,
    after_press,
    apply_hits,
    attack_fire,
    cargo_after,
    cargo_first_options,
    cargo_names,
    cargo_second_options,
    casualty_pool,
    check_aims,
    check_battle,
    check_casualties,
    check_escape,
    check_press,
    check_submerge,
    check_transport_hit,
    combat_over,
    defense_fire,
    hits_assignable,
    may_surprise,
    surprise_fire,
    volley,
)
from pbem.games.axisallies.data import AxisAlliesPack
from pbem.games.axisallies.position import Position
from tests.games.axisallies.pieces import (
    DE_BOMBER,
    DE_FIGHTER,
    DE_INF,
    DE_SCOUT,
    DE_TANK,
    IT_DD,
    IT_FIGHTER,
    IT_INF,
    IT_SUB,
    IT_TANK,
    UK_AAA,
    UK_BB,
    UK_DD,
    UK_FIGHTER,
    UK_INF,
    UK_SUB,
    US_DD,
)

# --- submarines: surprise strike and submerge (p.20, p.34) ---------------------------------------------------


@pytest.mark.rule("34")
def test_p34_submarines_strike_first_unless_an_enemy_destroyer_is_in_the_combat(pack: AxisAlliesPack) -> None:
    battle = Battle("sz25", "sea", "axis", air_sea={IT_SUB: 2, IT_DD: 1}, defenders={UK_SUB: 1, UK_BB: 1})
    assert may_surprise(pack, battle, "attacker") and may_surprise(pack, battle, "defender") is False
    assert [(g.type, g.count, g.needs, g.rule) for g in surprise_fire(pack, battle, "attacker", {})] == [
        ("submarine", 2, 4, "34")
    ]
    assert surprise_fire(pack, battle, "defender", {}) == ()  # the Italian destroyer cancels it
    strikers = {IT_SUB: 2}
    assert [g.type for g in attack_fire(pack, battle, holding=strikers)] == ["destroyer"]
    british = [(g.type, g.needs) for g in defense_fire(pack, battle, battle.defenders)]
    assert british == [("battleship", 6), ("submarine", 2)]  # the British submarine fires in step 3


@pytest.mark.rule("34")
def test_p34_submerging_is_a_choice_only_where_a_surprise_strike_is(pack: AxisAlliesPack) -> None:
    battle = Battle("sz25", "sea", "axis", air_sea={IT_SUB: 2}, defenders={UK_SUB: 1, UK_DD: 1})
    refused = check_submerge(pack, battle, "attacker", {IT_SUB: 1})
    assert (refused.rule, refused.reason) == ("34", "cannot-submerge")
    assert check_submerge(pack, battle, "defender", {UK_SUB: 1}).ok
    assert check_submerge(pack, battle, "defender", {}).ok
    too_many = check_submerge(pack, battle, "defender", {UK_SUB: 2})
    assert (too_many.rule, too_many.reason) == ("34", "not-a-submarine")
    assert surprise_fire(pack, battle, "defender", {UK_SUB: 1}) == ()


@pytest.mark.rule("34")
def test_p34_surprise_strike_casualties_go_at_the_end_of_step_1_but_a_hit_battleship_stays(
    pack: AxisAlliesPack,
) -> None:
    battle = Battle("sz25", "sea", "axis", air_sea={IT_SUB: 2}, defenders={UK_BB: 1, UK_SUB: 1})
    (strike,) = surprise_fire(pack, battle, "attacker", {})
    hits = volley(pack, battle, [Scored(strike, 1)])
    pool = casualty_pool(pack, battle, "defender")
    assert check_casualties(hits, pool, {UK_BB: 1}, rule="34").ok
    assert check_casualties(hits, pool, {UK_SUB: 1}, rule="34").ok
    left, damaged = apply_hits(battle.defenders, {}, {UK_BB: 1}, frozenset({UK_BB}))
    assert left == {UK_BB: 1, UK_SUB: 1} and damaged == {UK_BB: 1}


@pytest.mark.rule("34")
def test_p34_air_units_hit_submarines_only_beside_their_own_destroyer(pack: AxisAlliesPack) -> None:
    alone = Battle("sz25", "sea", "axis", air_sea={DE_FIGHTER: 1}, defenders={UK_SUB: 1})
    (fighter,) = attack_fire(pack, alone)
    assert hits_assignable(volley(pack, alone, [Scored(fighter, 1)]), casualty_pool(pack, alone, "defender")) == 0
    assert combat_over(pack, alone)  # neither side can hit the other
    with_dd = Battle("sz25", "sea", "axis", air_sea={IT_FIGHTER: 1, IT_DD: 1}, defenders={UK_SUB: 1})
    italian = next(g for g in attack_fire(pack, with_dd) if g.type == "fighter")
    pool = casualty_pool(pack, with_dd, "defender")
    assert hits_assignable(volley(pack, with_dd, [Scored(italian, 1)]), pool) == 1
    # a destroyer of another power does not help the German fighter (p.34: owned by the same power)
    other = Battle("sz25", "sea", "axis", air_sea={DE_FIGHTER: 1, IT_DD: 1}, defenders={UK_SUB: 1})
    german = next(g for g in attack_fire(pack, other) if g.type == "fighter")
    assert hits_assignable(volley(pack, other, [Scored(german, 1)]), casualty_pool(pack, other, "defender")) == 0


@pytest.mark.rule("34")
def test_p34_defending_air_units_hit_attacking_submarines_beside_a_friendly_destroyer(pack: AxisAlliesPack) -> None:
    battle = Battle("sz25", "sea", "axis", air_sea={IT_SUB: 1}, defenders={UK_FIGHTER: 1})
    (fighter,) = defense_fire(pack, battle, battle.defenders)
    assert hits_assignable(volley(pack, battle, [Scored(fighter, 1)]), casualty_pool(pack, battle, "attacker")) == 0
    guarded = replace(battle, defenders={UK_FIGHTER: 1, US_DD: 1})
    fighter = next(g for g in defense_fire(pack, guarded, guarded.defenders) if g.type == "fighter")
    pool = casualty_pool(pack, guarded, "attacker")
    assert hits_assignable(volley(pack, guarded, [Scored(fighter, 1)]), pool) == 1


@pytest.mark.rule("33")
def test_p33_bombers_name_a_sea_type_submarines_only_with_an_attacking_destroyer(pack: AxisAlliesPack) -> None:
    battle = Battle("sz25", "sea", "axis", air_sea={DE_BOMBER: 2}, defenders={UK_SUB: 1, UK_DD: 1})
    (bomber,) = attack_fire(pack, battle)
    assert bomber.target == "sea_type"
    pool = casualty_pool(pack, battle, "defender")
    assert check_aims(pack, battle, bomber, 2, {"destroyer": 1}, pool).ok
    refused = check_aims(pack, battle, bomber, 2, {"submarine": 1}, pool)
    assert (refused.rule, refused.reason) == ("33", "bad-aim")
    escorted = replace(battle, air_sea={DE_BOMBER: 2, IT_DD: 1})
    assert check_aims(pack, escorted, bomber, 2, {"submarine": 1}, pool).ok


@pytest.mark.rule("33")
def test_p33_a_battleship_takes_two_hits_in_the_pool(pack: AxisAlliesPack) -> None:
    battle = Battle("sz25", "sea", "axis", air_sea={IT_DD: 3}, defenders={UK_BB: 2}, damaged={UK_BB: 1})
    assert casualty_pool(pack, battle, "defender") == {UK_BB: 3}
    (dd,) = attack_fire(pack, battle)
    hits = volley(pack, battle, [Scored(dd, 3)])
    assert check_casualties(hits, casualty_pool(pack, battle, "defender"), {UK_BB: 3}, rule="21").ok


# --- the convoy example (p.21, p.22) --------------------------------------------------------------------------


@pytest.fixture
def convoy() -> Battle:
    """The Tripoli convoy zone (sz15): an Italian fighter escorts German and Italian cargo; two UK submarines."""
    cargo = Cargo(units={DE_INF: 1, IT_INF: 1, DE_TANK: 1, IT_TANK: 1, DE_SCOUT: 1}, supply={"germany": 4, "italy": 3})
    return Battle("sz15", "sea", "allies", air_sea={UK_SUB: 2}, defenders={IT_FIGHTER: 1}, cargo=cargo)


@pytest.mark.rule("21")
def test_p21_worked_example_submarine_hits_go_to_the_transports(pack: AxisAlliesPack, convoy: Battle) -> None:
    """p.21: "The UK attacks the Tripoli convoy sea zone, scoring hits with both submarines. Since submarines
    cannot hit air units (and vice versa), both casualties are assigned to transports"."""
    assert may_surprise(pack, convoy, "attacker")  # no Axis destroyer: the submarines strike
    (subs,) = surprise_fire(pack, convoy, "attacker", {})
    pool = casualty_pool(pack, convoy, "defender")
    assert pool == {IT_FIGHTER: 1, TRANSPORT: 4}  # 5 land units and 2 groups of supply: 4 transport hits
    hits = volley(pack, convoy, [Scored(subs, 2)])
    assert check_casualties(hits, pool, {TRANSPORT: 2}, rule="21").ok
    wrong = check_casualties(hits, pool, {IT_FIGHTER: 1, TRANSPORT: 1}, rule="21")
    assert (wrong.rule, wrong.reason) == ("21", "casualty-cannot-be-hit")
    (fighter,) = defense_fire(pack, convoy, convoy.defenders)
    assert hits_assignable(volley(pack, convoy, [Scored(fighter, 1)]), casualty_pool(pack, convoy, "attacker")) == 0


@pytest.mark.rule("21")
def test_p21_worked_example_each_transport_hit_costs_two_pieces_of_cargo(pack: AxisAlliesPack, convoy: Battle) -> None:
    """p.21: "The defenders choose to lose 1 infantry to the first hit. The attacker chooses supply, so the
    defenders decide to lose 2 German and 3 Italian supply ... For the second hit, the defenders choose to lose 1
    infantry. The attacker chooses the tank unit type, so the defenders choose to lose the Italian tank"."""
    cargo = convoy.cargo
    assert cargo is not None
    first, second = CargoLoss(unit=DE_INF), CargoLoss(supply={"germany": 2, "italy": 3})
    assert check_transport_hit(pack, cargo, first, "supply", second, rule="21").ok
    assert cargo_names(pack, cargo_after(cargo, first)) == ("infantry", "scout_car", "tank", "supply")
    cargo = cargo_after(cargo, first, second)
    assert cargo.supply == {"germany": 2}
    third, fourth = CargoLoss(unit=IT_INF), CargoLoss(unit=IT_TANK)
    assert check_transport_hit(pack, cargo, third, "tank", fourth, rule="21").ok
    assert cargo_second_options(pack, cargo_after(cargo, third), "tank") == (CargoLoss(unit=DE_TANK), fourth)
    for named, loss, reason in (
        ("artillery", fourth, "bad-cargo-name"),
        ("tank", CargoLoss(supply={"germany": 2}), "bad-cargo-loss"),
        ("supply", CargoLoss(supply={"germany": 1}), "bad-cargo-loss"),  # all 2 must go
    ):
        verdict = check_transport_hit(pack, cargo, third, named, loss, rule="21")
        assert (verdict.rule, verdict.reason) == ("21", reason)
    short = check_transport_hit(
        pack, convoy.cargo or Cargo(), CargoLoss(supply={"germany": 4}), "tank", fourth, rule="21"
    )
    assert (short.rule, short.reason) == ("21", "bad-cargo-loss")  # 5 supply go when 5 are aboard
    options = cargo_first_options(pack, Cargo(units={DE_INF: 1}, supply={"germany": 1, "italy": 1}))
    assert options == (CargoLoss(unit=DE_INF), CargoLoss(supply={"germany": 1, "italy": 1}))


@pytest.mark.rule("22")
def test_p22_worked_example_two_pieces_of_cargo_escape(pack: AxisAlliesPack) -> None:
    """p.22: "the defenders choose 2 reinforcement land units to escape the combat. They choose the 2 supply
    tokens (instead of a unit) and the tank. The German scout car remains vulnerable at sea"."""
    cargo = Cargo(units={DE_TANK: 1, DE_SCOUT: 1}, supply={"germany": 2})
    escaped = Cargo(units={DE_TANK: 1}, supply={"germany": 2})
    assert check_escape(pack, cargo, escaped).ok
    three = check_escape(pack, cargo, Cargo(units={DE_TANK: 1, DE_SCOUT: 1}, supply={"germany": 2}))
    assert (three.rule, three.reason) == ("22", "too-many-escapes")
    absent = check_escape(pack, cargo, Cargo(units={IT_TANK: 1}))
    assert (absent.rule, absent.reason) == ("22", "not-aboard")
    left = cargo_after(cargo, CargoLoss(unit=DE_TANK), CargoLoss(supply={"germany": 2}))
    battle = Battle("sz15", "sea", "allies", air_sea={UK_SUB: 2}, defenders={IT_FIGHTER: 1}, cargo=left, round=2)
    assert casualty_pool(pack, battle, "defender") == {IT_FIGHTER: 1, TRANSPORT: 1}  # one target left
    assert not combat_over(pack, battle)
    assert combat_over(pack, replace(battle, cargo=Cargo()))  # subs and a fighter cannot hit each other


@pytest.mark.rule("21")
def test_p21_transports_are_hit_only_once_the_escorts_are_gone(pack: AxisAlliesPack) -> None:
    battle = Battle("sz15", "sea", "allies", air_sea={UK_DD: 2}, defenders={IT_DD: 1}, cargo=Cargo(units={IT_INF: 2}))
    (dd,) = attack_fire(pack, battle)
    pool = casualty_pool(pack, battle, "defender")
    one = volley(pack, battle, [Scored(dd, 1)])
    refused = check_casualties(one, pool, {TRANSPORT: 1}, rule="21")
    assert (refused.rule, refused.reason) == ("21", "transports-before-escorts")
    assert check_casualties(one, pool, {IT_DD: 1}, rule="21").ok
    two = volley(pack, battle, [Scored(dd, 2)])
    assert check_casualties(two, pool, {IT_DD: 1, TRANSPORT: 1}, rule="21").ok


@pytest.mark.rule("33")
def test_p33_bombers_may_aim_at_transports_past_the_escorts(pack: AxisAlliesPack) -> None:
    battle = Battle(
        "sz15", "sea", "allies", air_sea={UK_FIGHTER: 1}, defenders={IT_DD: 1}, cargo=Cargo(units={IT_INF: 2})
    )
    axis = Battle("sz2", "sea", "axis", air_sea={DE_BOMBER: 1}, defenders={UK_DD: 1}, cargo=Cargo(units={UK_INF: 2}))
    (bomber,) = attack_fire(pack, axis)
    pool = casualty_pool(pack, axis, "defender")
    assert check_aims(pack, axis, bomber, 1, {"transport": 1}, pool).ok
    hits = volley(pack, axis, [Scored(bomber, 1, {"transport": 1})])
    assert check_casualties(hits, pool, {TRANSPORT: 1}, rule="21").ok
    assert not check_casualties(hits, pool, {UK_DD: 1}, rule="21").ok  # the aim must be met
    (fighter,) = attack_fire(pack, battle)
    escorted = volley(pack, battle, [Scored(fighter, 1)])
    assert not check_casualties(escorted, casualty_pool(pack, battle, "defender"), {TRANSPORT: 1}, rule="21").ok


# --- what may fight where (p.6, p.15, p.19, p.31, p.32) -------------------------------------------------------


@pytest.mark.rule("6")
def test_p6_there_are_no_naval_bombardments(pack: AxisAlliesPack) -> None:
    battle = Battle(
        "tobruk", "land", "allies", land={"mersa_matruh": {UK_INF: 2}}, air_sea={UK_BB: 1}, defenders={DE_INF: 1}
    )
    verdict = check_battle(pack, battle)
    assert (verdict.rule, verdict.reason) == ("6", "naval-bombardment")
    assert check_battle(pack, replace(battle, air_sea={UK_FIGHTER: 1})).ok


@pytest.mark.rule("8")
@pytest.mark.rule("15")
@pytest.mark.rule("19")
@pytest.mark.rule("20")
@pytest.mark.rule("31")
@pytest.mark.rule("32")
def test_p19_battles_hold_only_pieces_that_can_fight_there(pack: AxisAlliesPack) -> None:
    cases = [
        (Battle("sz25", "land", "allies", air_sea={UK_FIGHTER: 1}), "19", "wrong-space"),
        (Battle("sz25", "sea", "allies", land={"tobruk": {UK_INF: 1}}), "15", "land-attack-at-sea"),
        (Battle("sz25", "sea", "axis", air_sea={IT_SUB: 1}, defenders={UK_INF: 1}), "19", "land-unit-at-sea"),
        (Battle("tobruk", "land", "allies", land={"mersa_matruh": {UK_AAA: 1}}), "31", "cannot-attack"),
        (
            Battle("tobruk", "land", "allies", land={"mersa_matruh": {UK_INF: 1}}, defenders={("germany", "truck"): 1}),
            "32",
            "not-a-combat-unit",
        ),
        (Battle("tobruk", "land", "allies", land={"mersa_matruh": {DE_INF: 1}}), "20", "wrong-side"),
        (Battle("tobruk", "land", "axis", air_sea={DE_INF: 1}), "15", "land-unit-without-origin"),
        (Battle("tobruk", "land", "axis", air_sea={("germany", "battleship"): 1}), "8", "unknown-unit"),
    ]
    for battle, rule, reason in cases:
        verdict = check_battle(pack, battle)
        assert (verdict.rule, verdict.reason) == (rule, reason), battle


@pytest.mark.rule("21")
def test_p21_naming_the_tank_type_for_a_transport_hit_names_every_tank(pack: AxisAlliesPack) -> None:
    """p.21: "For the second, you select a unit type, and then the defender must choose a unit of that type": a
    British convoy's Matilda and Lend-Lease Sherman are both of the type tank (p.30, Game Piece Directory)."""
    uk_tank, sherman = ("united_kingdom", "tank"), ("united_kingdom", "lend_lease_sherman")
    cargo = Cargo(units={UK_INF: 1, uk_tank: 1, sherman: 1})
    assert cargo_names(pack, cargo) == ("infantry", "tank")
    assert cargo_second_options(pack, cargo, "tank") == (CargoLoss(unit=sherman), CargoLoss(unit=uk_tank))
    first = CargoLoss(unit=UK_INF)
    assert check_transport_hit(pack, cargo, first, "tank", CargoLoss(unit=sherman), rule="21").ok
    only_sherman = Cargo(units={UK_INF: 1, sherman: 1})
    assert cargo_names(pack, cargo_after(only_sherman, first)) == ("tank",)
    assert check_transport_hit(pack, only_sherman, first, "tank", CargoLoss(unit=sherman), rule="21").ok


@pytest.mark.rule("23")
def test_p23_at_sea_the_attacker_presses_with_every_unit_or_ceases(pack: AxisAlliesPack) -> None:
    """p.23 step 5: "In a sea combat, you may simply choose to either press or cease the attack. If you choose to
    press, return to step 1": only a land attack turns some units aside ("In a land combat, it works a bit
    differently")."""
    battle = Battle("sz25", "sea", "axis", air_sea={IT_DD: 2, IT_FIGHTER: 1}, defenders={UK_DD: 1})
    board = Position(round=1)
    assert check_press(pack, board, battle, Press()).ok
    for aside in ({IT_FIGHTER: 1}, {IT_DD: 1}):
        refused = check_press(pack, board, battle, Press(air_retreat=aside))
        assert (refused.rule, refused.reason) == ("23", "sea-press-with-all")
    assert after_press(pack, battle, Press()).air_sea == battle.air_sea


@pytest.mark.rule("21")
def test_p21_option_escorts_shield_every_escort_or_only_those_a_hit_can_reach(
    pack: AxisAlliesPack, convoy: Battle
) -> None:
    """Notes §10.12, a named option: p.21 says transports "may not be taken as casualties until no more escorting
    sea or air units remain", yet its worked example sends submarine hits to the transports past an escorting
    fighter. ``reachable`` (the default, as the example): only escorts the hit could fall on shield the
    transports; ``all``: any escort does, and the submarines' hits are lost."""
    (subs,) = surprise_fire(pack, convoy, "attacker", {})
    pool = casualty_pool(pack, convoy, "defender")
    assert hits_assignable(volley(pack, convoy, [Scored(subs, 2)]), pool) == 2
    assert hits_assignable(volley(pack, convoy, [Scored(subs, 2)], escorts_shield="reachable"), pool) == 2
    assert hits_assignable(volley(pack, convoy, [Scored(subs, 2)], escorts_shield="all"), pool) == 0
    assert not combat_over(pack, convoy)
    assert combat_over(pack, convoy, escorts_shield="all")  # neither side can hit the other
    bomber = Battle("sz15", "sea", "allies", air_sea={("united_kingdom", "bomber"): 1}, defenders={IT_DD: 1})
    bomber = replace(bomber, cargo=convoy.cargo)
    (group,) = attack_fire(pack, bomber)
    assert group.target == "any"  # the British bomber names no type (only Collateral Damage)
    guarded = casualty_pool(pack, bomber, "defender")
    refused = check_casualties(
        volley(pack, bomber, [Scored(group, 1)], escorts_shield="all"), guarded, {TRANSPORT: 1}, rule="21"
    )
    assert (refused.rule, refused.reason) == ("21", "casualty-cannot-be-hit")
