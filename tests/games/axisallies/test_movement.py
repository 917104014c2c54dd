"""Land, air and sea movement, stacking and retreats (pages 10-12, 15-17, 22, 24, 27-33), by page.

The rulebook has no numbered sections; its pages serve as sections, so ``@pytest.mark.rule("15")`` is page 15.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.games.axisallies.data import AxisAlliesPack, Scenario
from pbem.games.axisallies.movement import (
    air_range,
    check_air_move,
    check_convoy_landing,
    check_escort_move,
    check_land_move,
    check_sea_move,
    excess_destinations,
    in_attack_position,
    land_reach,
    landing_spaces,
    may_enter,
    retreat_destinations,
    stacking_excess,
)
from pbem.games.axisallies.position import Position, initial_position
from pbem.rules.contract import Verdict


@pytest.fixture(scope="module")
def rlp(pack: AxisAlliesPack) -> Scenario:
    return pack.scenario("rommels_last_push")


@pytest.fixture(scope="module")
def torch(pack: AxisAlliesPack) -> Scenario:
    return pack.scenario("operation_torch")


@pytest.fixture(scope="module")
def start(pack: AxisAlliesPack, rlp: Scenario) -> Position:
    return initial_position(pack, rlp)


def put(position: Position, space: str, **units: int) -> Position:
    """``position`` with ``space`` holding exactly ``units`` (keys ``power__type``)."""
    stack = {tuple(key.split("__")): n for key, n in units.items()}
    return replace(position, pieces={**position.pieces, space: stack})  # type: ignore[dict-item]


def refused(verdict: Verdict, rule: str, reason: str) -> None:
    assert (verdict.ok, verdict.rule, verdict.reason) == (False, rule, reason), verdict.message


# --- p.15: land combat moves ----------------------------------------------------------------------------------


@pytest.mark.rule("15")
def test_p15_one_movement_point_is_kept_for_the_attack(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    """p.15: move-1 units must already be in attack position; move-2 units combat move 1 territory."""
    infantry = check_land_move(pack, rlp, start, "germany", "infantry", ["el_agheila", "mechili"], phase="combat")
    refused(infantry, "15", "attack-point-reserved")
    assert check_land_move(pack, rlp, start, "germany", "tank", ["el_agheila", "mechili"], phase="combat").ok
    two = check_land_move(pack, rlp, start, "germany", "tank", ["el_agheila", "mechili", "derna"], phase="combat")
    refused(two, "15", "attack-point-reserved")
    scout = check_land_move(
        pack, rlp, start, "germany", "scout_car", ["el_agheila", "mechili", "derna", "tobruk"], phase="combat"
    )
    refused(scout, "15", "hostile-territory")
    assert check_land_move(
        pack, rlp, start, "germany", "scout_car", ["el_agheila", "mechili", "derna"], phase="combat"
    ).ok


@pytest.mark.rule("15")
def test_p15_aaa_and_trucks_never_combat_move(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    truck = check_land_move(pack, rlp, start, "germany", "truck", ["el_agheila", "mechili"], phase="combat")
    refused(truck, "15", "noncombat-only")
    aaa = check_land_move(pack, rlp, start, "united_kingdom", "aaa", ["tobruk", "derna"], phase="combat")
    refused(aaa, "15", "noncombat-only")
    assert check_land_move(pack, rlp, start, "united_kingdom", "aaa", ["tobruk", "derna"], phase="noncombat").ok


@pytest.mark.rule("15")
def test_p15_blitz_into_an_empty_hostile_territory(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    defended = check_land_move(pack, rlp, start, "germany", "tank", ["el_agheila", "benghazi"], phase="combat")
    refused(defended, "15", "blitz-into-defended")
    empty = put(start, "benghazi")
    assert check_land_move(pack, rlp, empty, "germany", "tank", ["el_agheila", "benghazi"], phase="combat").ok
    assert check_land_move(pack, rlp, empty, "germany", "tank", ["el_agheila", "benghazi", "derna"], phase="combat").ok
    assert check_land_move(
        pack, rlp, empty, "germany", "mech_infantry", ["el_agheila", "benghazi", "derna"], phase="combat"
    ).ok
    scout = check_land_move(pack, rlp, empty, "germany", "scout_car", ["el_agheila", "benghazi"], phase="combat")
    refused(scout, "15", "hostile-territory")
    beyond = check_land_move(
        pack, rlp, empty, "germany", "tank", ["el_agheila", "benghazi", "derna", "tobruk"], phase="combat"
    )
    refused(beyond, "15", "hostile-territory")


@pytest.mark.rule("15")
def test_p15_no_combat_move_through_a_blitzed_territory(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    verdict = check_land_move(
        pack,
        rlp,
        start,
        "germany",
        "scout_car",
        ["el_agheila", "mechili", "derna"],
        phase="combat",
        blitzed=frozenset({"mechili"}),
    )
    refused(verdict, "15", "blitzed-territory")


# --- p.10-11, 28-29: where land units may go ------------------------------------------------------------------


@pytest.mark.rule("10")
def test_p10_impassable_and_not_adjacent(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    refused(
        check_land_move(
            pack, rlp, start, "united_kingdom", "infantry", ["cairo", "qattara_depression"], phase="noncombat"
        ),
        "10",
        "impassable",
    )
    refused(
        check_land_move(pack, rlp, start, "united_kingdom", "infantry", ["cairo", "tobruk"], phase="noncombat"),
        "10",
        "not-adjacent",
    )
    refused(
        check_land_move(pack, rlp, start, "united_kingdom", "infantry", ["cairo", "sz31"], phase="noncombat"),
        "10",
        "not-adjacent",
    )
    refused(
        check_land_move(pack, rlp, start, "united_kingdom", "infantry", ["cairo"], phase="noncombat"),
        "15",
        "empty-path",
    )


@pytest.mark.rule("10")
def test_p10_emblem_territories_cannot_be_invaded(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    infantry = pack.unit("united_kingdom", "infantry")
    refused(may_enter(pack, rlp, start, "allies", infantry, "sicily", "sz12"), "10", "cannot-invade")
    fighter = pack.unit("united_kingdom", "fighter")
    assert may_enter(pack, rlp, start, "allies", fighter, "sicily", "sz12").ok  # air units may attack them


@pytest.mark.rule("11")
def test_p11_sahara_only_for_scout_cars(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    refused(
        check_land_move(pack, rlp, start, "united_kingdom", "infantry", ["cairo", "kharga"], phase="noncombat"),
        "11",
        "sahara",
    )
    board = put(start, "cairo", united_kingdom__scout_car=1)
    assert check_land_move(pack, rlp, board, "united_kingdom", "scout_car", ["cairo", "kharga"], phase="noncombat").ok


@pytest.mark.rule("28")
def test_p28_white_line_closed_then_opened_by_scenario_and_round(
    pack: AxisAlliesPack, rlp: Scenario, torch: Scenario, start: Position
) -> None:
    board = put(start, "tripoli", germany__scout_car=1)
    path = ["tripoli", "mareth"]
    refused(check_land_move(pack, rlp, board, "germany", "scout_car", path, phase="noncombat"), "28", "white-line")
    refused(
        check_land_move(pack, rlp, replace(board, round=7), "germany", "scout_car", path, phase="noncombat"),
        "28",
        "white-line",
    )
    assert check_land_move(pack, rlp, replace(board, round=8), "germany", "scout_car", path, phase="noncombat").ok
    assert check_land_move(pack, torch, replace(board, round=7), "germany", "scout_car", path, phase="noncombat").ok
    allied = put(start, "oujda", united_states__infantry=1)
    us_path = ["oujda", "sidi_bel_abbes"]
    refused(
        check_land_move(pack, rlp, allied, "united_states", "infantry", us_path, phase="noncombat"), "28", "white-line"
    )
    assert check_land_move(
        pack, rlp, replace(allied, round=7), "united_states", "infantry", us_path, phase="noncombat"
    ).ok


@pytest.mark.rule("29")
def test_p29_vichy_units_never_move(pack: AxisAlliesPack, torch: Scenario, start: Position) -> None:
    board = replace(start, round=8)
    verdict = check_land_move(pack, torch, board, "france", "infantry", ["casablanca", "rabat"], phase="noncombat")
    refused(verdict, "29", "cannot-move")
    free = replace(board, french={"casablanca": "allies"})
    assert check_land_move(pack, torch, free, "france", "infantry", ["casablanca", "rabat"], phase="noncombat").ok


# --- p.24, 30-32: noncombat land moves and the coast road -----------------------------------------------------


@pytest.mark.rule("24")
def test_p24_noncombat_never_into_hostile_territory(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    empty = put(start, "benghazi")  # no British units, still British-controlled
    verdict = check_land_move(pack, rlp, empty, "germany", "tank", ["el_agheila", "benghazi"], phase="noncombat")
    refused(verdict, "24", "hostile-territory")
    assert check_land_move(
        pack, rlp, start, "germany", "tank", ["el_agheila", "mechili", "derna"], phase="noncombat"
    ).ok


@pytest.mark.rule("30")
def test_p30_coast_road_moves_five_territories(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    assert pack.limit("coast_road_territories") == 5
    road = ["cairo", "mersa_matruh", "tobruk", "derna", "benghazi"]
    assert check_land_move(pack, rlp, start, "united_kingdom", "tank", road, phase="noncombat").ok
    assert check_land_move(pack, rlp, start, "united_kingdom", "truck", road, phase="noncombat").ok
    infantry = check_land_move(pack, rlp, start, "united_kingdom", "infantry", road[:3], phase="noncombat")
    refused(infantry, "24", "too-far")
    off_road = ["cairo", "mersa_matruh", "bir_hachem"]
    refused(check_land_move(pack, rlp, start, "united_kingdom", "tank", off_road, phase="noncombat"), "24", "too-far")
    clear = replace(start, pieces={}, control={**start.control, "el_agheila": "united_kingdom"})
    six = [*road, "el_agheila", "sirte"]
    refused(check_land_move(pack, rlp, clear, "united_kingdom", "tank", six, phase="noncombat"), "24", "too-far")
    assert check_land_move(pack, rlp, clear, "united_kingdom", "tank", six[:-1], phase="noncombat").ok
    combat = check_land_move(pack, rlp, start, "united_kingdom", "tank", road[:3], phase="combat")
    refused(combat, "15", "attack-point-reserved")  # the coast road is for the noncombat move only


@pytest.mark.rule("30")
def test_p30_land_reach_by_move_or_coast_road(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    """The kit's movement search agrees with the path checks: Bir Hachem is off the road, El Agheila hostile."""
    reach = land_reach(pack, rlp, start, "united_kingdom", "tank", "cairo")
    assert reach == {"cairo", "mersa_matruh", "tobruk", "derna", "benghazi"}
    assert land_reach(pack, rlp, start, "united_kingdom", "infantry", "cairo") == {"cairo", "mersa_matruh"}


@pytest.mark.rule("12")
def test_p12_moving_through_a_full_territory(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    """p.12: stacking limits may be exceeded during a phase: a unit can move through a full territory."""
    full = put(start, "tobruk", united_kingdom__infantry=pack.territory("tobruk").stacking_limit)
    board = put(full, "cairo", united_kingdom__scout_car=1)
    path = ["cairo", "mersa_matruh", "tobruk", "derna"]
    assert check_land_move(pack, rlp, board, "united_kingdom", "scout_car", path, phase="noncombat").ok


# --- p.16, 24, 33: air moves ----------------------------------------------------------------------------------


@pytest.mark.rule("16")
def test_p16_worked_example_air_unit_keeps_points_to_land(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    """p.16: "an air unit with a move value of 4 can't move 4 spaces to get to a hostile space"."""
    landing = landing_spaces(pack, start, "axis")
    four = ["tripoli", "sirte", "el_agheila", "mechili", "tobruk"]
    verdict = check_air_move(pack, rlp, start, "germany", "fighter", four, phase="combat", landing=landing)
    refused(verdict, "16", "no-landing-in-range")
    three = ["tripoli", "sirte", "el_agheila", "benghazi"]
    assert check_air_move(pack, rlp, start, "germany", "fighter", three, phase="combat", landing=landing).ok
    home = ["benghazi", "el_agheila"]
    assert check_air_move(pack, rlp, start, "germany", "fighter", home, phase="noncombat", landing=landing, spent=3).ok
    further = ["benghazi", "el_agheila", "sirte"]
    refused(
        check_air_move(pack, rlp, start, "germany", "fighter", further, phase="noncombat", landing=landing, spent=3),
        "16",
        "too-far",
    )


@pytest.mark.rule("24")
def test_p24_air_lands_where_its_side_held_control(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    landing = landing_spaces(pack, start, "axis")
    assert {"tripoli", "el_agheila", "italy", "sicily"} <= landing
    assert not {"benghazi", "mechili", "sirte"} & landing  # enemy; no RP; uncontrolled
    verdict = check_air_move(
        pack, rlp, start, "germany", "fighter", ["tripoli", "sirte"], phase="noncombat", landing=landing
    )
    refused(verdict, "24", "no-landing")
    captured = replace(start, control={**start.control, "benghazi": "germany"})
    refused(
        check_air_move(
            pack, rlp, captured, "germany", "fighter", ["el_agheila", "benghazi"], phase="noncombat", landing=landing
        ),
        "24",
        "no-landing",
    )  # captured this turn: not in the start-of-turn landing set


@pytest.mark.rule("15")
def test_p15_air_combat_move_ends_in_attack_position(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    landing = landing_spaces(pack, start, "axis")
    verdict = check_air_move(
        pack, rlp, start, "germany", "fighter", ["tripoli", "sirte"], phase="combat", landing=landing
    )
    refused(verdict, "15", "not-attack-position")


@pytest.mark.rule("33")
def test_p33_air_counts_every_border_islands_included(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    """p.33: flying to an island counts the surrounding sea zone and the island itself as one space each."""
    fighter = pack.unit("germany", "fighter")
    assert air_range(pack, rlp, start, "axis", fighter, "sicily")["malta"] == 2
    assert air_range(pack, rlp, start, "axis", fighter, "tripoli")["sz15"] == 1
    board = put(start, "garian", germany__fighter=1)
    landing = landing_spaces(pack, board, "axis")
    verdict = check_air_move(
        pack, rlp, board, "germany", "fighter", ["garian", "ghadames"], phase="noncombat", landing=landing
    )
    refused(verdict, "33", "sahara")


@pytest.mark.rule("10")
def test_p10_suez_and_atlantic_entry(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    fighter = pack.unit("united_kingdom", "fighter")
    refused(may_enter(pack, rlp, start, "allies", fighter, "suez_canal", "sz31"), "10", "entry-only-from")
    german = pack.unit("germany", "fighter")
    refused(may_enter(pack, rlp, start, "axis", german, "atlantic_ocean", "sz1"), "10", "entry-powers")


# --- p.11, 16-17, 24, 27: sea moves ---------------------------------------------------------------------------


@pytest.mark.rule("16")
def test_p16_worked_example_sea_unit_enters_hostile_with_its_last_move(
    pack: AxisAlliesPack, rlp: Scenario, start: Position
) -> None:
    """p.16: a move-4 sea unit may pass 1 to 3 friendly zones and enter a hostile one with its final move."""
    board = put(start, "sz22", italy__destroyer=1)
    path = ["sz31", "sz30", "sz28", "sz26", "sz22"]
    assert check_sea_move(pack, rlp, board, "united_kingdom", "destroyer", path, phase="combat").ok
    near = put(start, "sz29", italy__destroyer=1)
    assert check_sea_move(pack, rlp, near, "united_kingdom", "destroyer", ["sz31", "sz29"], phase="combat").ok
    blocked = put(board, "sz28", italy__destroyer=1)
    refused(check_sea_move(pack, rlp, blocked, "united_kingdom", "destroyer", path, phase="combat"), "16", "must-stop")
    far = put(start, "sz25", italy__destroyer=1)
    five = ["sz31", "sz30", "sz28", "sz26", "sz22", "sz25"]
    refused(check_sea_move(pack, rlp, far, "united_kingdom", "destroyer", five, phase="combat"), "16", "too-far")


@pytest.mark.rule("16")
def test_p16_enemy_submarines_and_transports_do_not_block(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    board = put(start, "sz20", united_kingdom__destroyer=1)  # sz18 holds an Italian submarine, sz15 a destroyer
    assert check_sea_move(pack, rlp, board, "united_kingdom", "destroyer", ["sz20", "sz18", "sz15"], phase="combat").ok
    cargo = put(board, "sz21", germany__infantry=2)
    assert check_sea_move(pack, rlp, cargo, "united_kingdom", "destroyer", ["sz20", "sz21"], phase="combat").ok


@pytest.mark.rule("17")
def test_p17_submarines_pass_hostile_zones_but_stop_at_destroyers(
    pack: AxisAlliesPack, rlp: Scenario, start: Position
) -> None:
    board = put(start, "sz21", united_kingdom__battleship=1)
    sub = ["sz18", "sz21", "sz12"]
    assert check_sea_move(pack, rlp, board, "italy", "submarine", sub, phase="combat").ok
    ship = put(board, "sz18", italy__destroyer=1)
    refused(check_sea_move(pack, rlp, ship, "italy", "destroyer", sub, phase="combat"), "16", "must-stop")
    hunted = put(board, "sz21", united_kingdom__destroyer=1)
    refused(check_sea_move(pack, rlp, hunted, "italy", "submarine", sub, phase="combat"), "17", "must-stop")


@pytest.mark.rule("17")
def test_p17_leaving_a_hostile_zone_needs_no_attack_position(
    pack: AxisAlliesPack, rlp: Scenario, start: Position
) -> None:
    board = put(start, "sz29", italy__destroyer=1, united_kingdom__destroyer=1)
    assert check_sea_move(pack, rlp, board, "united_kingdom", "destroyer", ["sz29", "sz31"], phase="combat").ok
    idle = check_sea_move(pack, rlp, start, "united_kingdom", "destroyer", ["sz31", "sz30"], phase="combat")
    refused(idle, "15", "not-attack-position")


@pytest.mark.rule("11")
def test_p11_strait_of_messina_for_axis_sea_units_only(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    refused(
        check_sea_move(pack, rlp, start, "united_kingdom", "destroyer", ["sz11", "sz16"], phase="noncombat"),
        "11",
        "strait-of-messina",
    )
    assert check_sea_move(pack, rlp, start, "italy", "destroyer", ["sz16", "sz11"], phase="noncombat").ok
    landing = landing_spaces(pack, start, "allies")  # sz16 holds an Italian destroyer: a target
    fighter = check_air_move(
        pack, rlp, start, "united_kingdom", "fighter", ["sz11", "sz16"], phase="combat", landing=landing
    )
    assert fighter.ok  # air units of both sides may pass the strait


@pytest.mark.rule("27")
def test_p27_no_sea_zone_twice_in_a_phase(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    path = ["sz15", "sz14", "sz15"]
    refused(check_sea_move(pack, rlp, start, "italy", "destroyer", path, phase="noncombat"), "27", "zone-twice")


@pytest.mark.rule("24")
def test_p24_noncombat_sea_moves_stay_in_friendly_zones(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    board = put(start, "sz21", united_kingdom__battleship=1)
    refused(
        check_sea_move(pack, rlp, board, "italy", "destroyer", ["sz15", "sz21"], phase="noncombat"),
        "24",
        "hostile-zone",
    )
    assert check_sea_move(pack, rlp, board, "italy", "submarine", ["sz18", "sz21"], phase="noncombat").ok
    refused(
        check_sea_move(pack, rlp, start, "italy", "destroyer", ["sz15", "tripoli"], phase="noncombat"),
        "10",
        "sea-unit-on-land",
    )


# --- p.10, 12: stacking ---------------------------------------------------------------------------------------


@pytest.mark.rule("10")
def test_p10_stacking_counts_combat_land_and_air_units_not_trucks(
    pack: AxisAlliesPack, rlp: Scenario, start: Position
) -> None:
    assert pack.limit("default_stacking_limit") == pack.territory("tobruk").stacking_limit == 8
    board = put(start, "tobruk", united_kingdom__infantry=7, united_kingdom__fighter=2, united_kingdom__truck=3)
    assert stacking_excess(pack, board, "tobruk", "allies") == 1
    assert stacking_excess(pack, board, "tobruk", "allies", airborne={"united_kingdom/fighter": 2}) == 0
    assert stacking_excess(pack, start, "malta", "allies") == 0
    crowded = put(start, "malta", united_kingdom__fighter=2, united_kingdom__aaa=2)
    assert stacking_excess(pack, crowded, "malta", "allies") == 4 - pack.territory("malta").stacking_limit


@pytest.mark.rule("12")
def test_p12_excess_moves_to_adjacent_territories_below_their_limit(
    pack: AxisAlliesPack, rlp: Scenario, start: Position
) -> None:
    assert excess_destinations(pack, rlp, start, "tobruk", "united_kingdom", "infantry") == (
        "bir_hachem",
        "derna",
        "mechili",
        "mersa_matruh",
    )
    full = put(start, "mersa_matruh", united_kingdom__infantry=8)
    enemy = put(full, "derna", germany__infantry=1)
    assert excess_destinations(pack, rlp, enemy, "tobruk", "united_kingdom", "infantry") == ("bir_hachem", "mechili")


@pytest.mark.rule("22")
def test_p22_worked_example_retreat_from_mersa_matruh(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    """p.22: the Axis units in Mersa Matruh retreat; Bir Hachem was attacked by a land unit this round, Siwa is
    hostile (a UK scout car is there), so Tobruk is the only option."""
    board = replace(
        start,
        pieces={
            "mersa_matruh": {("germany", "infantry"): 2, ("germany", "tank"): 2},
            "siwa": {("united_kingdom", "scout_car"): 1},
            "cairo": start.pieces["cairo"],
        },
        control={**start.control, "tobruk": "germany"},
    )
    found = retreat_destinations(
        pack,
        rlp,
        board,
        "mersa_matruh",
        "germany",
        "infantry",
        land_attacked=frozenset({"bir_hachem"}),
        blitzed=frozenset(),
    )
    assert found == ("tobruk",)
    none = retreat_destinations(
        pack,
        rlp,
        board,
        "mersa_matruh",
        "germany",
        "tank",
        land_attacked=frozenset({"bir_hachem"}),
        blitzed=frozenset({"tobruk"}),
    )
    assert none == ()


# --- p.12, 25: convoy air moves -------------------------------------------------------------------------------


@pytest.mark.rule("12")
def test_p12_convoy_air_units_land_within_two_spaces(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    board = put(start, "sz15", germany__fighter=1)
    assert check_convoy_landing(pack, rlp, board, "germany", "fighter", ["sz15", "tripoli"]).ok
    refused(check_convoy_landing(pack, rlp, board, "germany", "fighter", ["sz15", "sz18", "sirte"]), "12", "no-landing")
    three = ["sz15", "tripoli", "sirte", "el_agheila"]
    refused(check_convoy_landing(pack, rlp, board, "germany", "fighter", three), "12", "too-far")


@pytest.mark.rule("25")
def test_p25_escorts_fly_two_spaces_to_an_open_convoy(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    convoys = frozenset({"sz15"})
    assert check_escort_move(pack, rlp, start, "germany", "fighter", ["tripoli", "sz15"], open_convoys=convoys).ok
    refused(
        check_escort_move(pack, rlp, start, "germany", "fighter", ["tripoli", "sz14"], open_convoys=convoys),
        "25",
        "not-a-convoy",
    )
    far = ["el_agheila", "sirte", "sz18", "sz15"]
    refused(check_escort_move(pack, rlp, start, "germany", "fighter", far, open_convoys=convoys), "25", "too-far")
    refused(
        check_escort_move(pack, rlp, start, "germany", "tank", ["el_agheila", "sz20"], open_convoys=convoys),
        "25",
        "not-an-air-unit",
    )


@pytest.mark.rule("15")
def test_p15_land_combat_move_ends_in_attack_position(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    board = put(start, "tripoli", germany__tank=1)
    idle = check_land_move(pack, rlp, board, "germany", "tank", ["tripoli", "garian"], phase="combat")
    refused(idle, "15", "not-attack-position")  # Garian borders no Allied territory; Tunisia is closed
    assert in_attack_position(pack, rlp, start, "germany", "tank", "el_agheila")
    assert not in_attack_position(pack, rlp, start, "germany", "tank", "tripoli")
    stocked = replace(board, supply={**board.supply, "ghadames": 1})
    assert not in_attack_position(pack, rlp, stocked, "germany", "tank", "garian")
    assert in_attack_position(pack, rlp, stocked, "germany", "scout_car", "garian")  # a supply raid (p.31)


@pytest.mark.rule("31")
def test_p31_long_range_patrol_splits_the_scout_car_move(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    """p.31: a scout car that moved 1 and attacked (2 points) may still noncombat move 2 spaces."""
    board = put(start, "mechili", germany__scout_car=1)
    two = ["mechili", "el_agheila", "sirte"]
    assert check_land_move(pack, rlp, board, "germany", "scout_car", two, phase="noncombat", spent=2).ok
    three = ["mechili", "el_agheila", "sirte", "tripoli"]
    refused(
        check_land_move(pack, rlp, board, "germany", "scout_car", three, phase="noncombat", spent=2), "24", "too-far"
    )
    tanks = put(start, "mechili", germany__tank=1)
    refused(
        check_land_move(pack, rlp, tanks, "germany", "tank", ["mechili", "el_agheila"], phase="noncombat", spent=2),
        "24",
        "already-moved",
    )


@pytest.mark.rule("8")
def test_p8_units_off_the_reference_chart_are_refused(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    landing = landing_spaces(pack, start, "axis")
    for verdict in (
        check_land_move(pack, rlp, start, "italy", "mech_infantry", ["tripoli", "sirte"], phase="noncombat"),
        check_air_move(pack, rlp, start, "germany", "zeppelin", ["tripoli", "sz15"], phase="combat", landing=landing),
        check_sea_move(pack, rlp, start, "germany", "destroyer", ["sz1", "sz2"], phase="combat"),
        check_convoy_landing(pack, rlp, start, "italy", "tiger_tank", ["sz15", "tripoli"]),
        check_escort_move(pack, rlp, start, "united_states", "submarine", ["sz3", "sz2"], open_convoys=frozenset()),
    ):
        refused(verdict, "8", "unknown-unit")
