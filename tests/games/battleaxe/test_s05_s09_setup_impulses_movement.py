"""Set-up (5), the sequence of play (6, 8), stacking and control (7), movement (9), June 15 (16)."""

from __future__ import annotations

import pytest

from tests.games.battleaxe.position import (
    DATA,
    DEFAULTS,
    ROSTER,
    R,
    axis_turn,
    controlled,
    new_game,
    placed,
    play,
    plays,
    reduced,
    refusal,
    roll,
)

ASSAULT_C = {"action": "assault", "areas": ["C"]}


@pytest.mark.rule("5.2.1")
def test_5_2_1_free_setup_places_11h_and_cih_in_zones_a_to_d() -> None:
    state = R.setup("campaign", DEFAULTS, ROSTER, DATA)
    assert state.step == "setup" and set(state.setup_left) == {"11h", "cih"}
    assert refusal(state, "allied", {"action": "place", "unit": "11h", "zone": "H"}) == ("5.2.1", "setup-zone")
    assert refusal(state, "allied", {"action": "place", "unit": "1-11", "zone": "A"}) == ("5.2.1", "not-free-setup")
    state = play(state, "allied", {"action": "place", "unit": "11h", "zone": "A"})
    state = play(state, "allied", {"action": "place", "unit": "cih", "zone": "D"})
    assert state.step == "impulse" and state.units["11h"].location == "A"
    assert state.units["1-8"].location == "18" and state.units["xx-mot"].location == "H"  # 5.2.2 fixed set-up


@pytest.mark.rule("5.2.1")
def test_19_3_consolidated_4rtr_replaces_three_counters() -> None:
    state = new_game(consolidated_4rtr=True)
    assert {"4rtr", "sq-a", "sq-b"}.isdisjoint(state.units) and state.units["4rtr-consolidated"].location == "C"


@pytest.mark.rule("8.0")
def test_8_0_only_the_active_player_acts() -> None:
    state = new_game()
    assert R.to_act(state) == ("allied",)
    assert refusal(state, "axis", {"action": "pass"}) == ("8.0", "not-your-turn")
    assert R.to_act(axis_turn(state)) == ("axis",)


@pytest.mark.rule("8.1")
def test_8_1_one_kind_of_impulse_and_well_formed_actions() -> None:
    state = new_game()
    assert refusal(state, "allied", {"action": "move", "unit": "7rtr", "to": "7"}) == (
        "8.1",
        "not-now",
    )  # the kit machine: not an action of this step
    # a malformed action is refused by its typed model before any rule (R004 when logged)
    assert refusal(state, "allied", {"action": "pass", "now": True}) == (None, "malformed")
    assert refusal(state, "allied", {"action": "assault", "areas": [["7"]]}) == (None, "malformed")


@pytest.mark.rule("9.1")
@pytest.mark.rule("9.1.1")
def test_9_1_an_assault_activates_one_area_whose_units_may_act() -> None:
    state = new_game()
    assert refusal(state, "allied", {"action": "assault", "areas": []}) == ("9.1", "areas")
    assert refusal(state, "allied", {"action": "assault", "areas": ["7"]}) == ("9.1.1", "no-units")
    state = play(state, "allied", ASSAULT_C)
    assert refusal(state, "allied", {"action": "move", "unit": "2rtr", "to": "10"}) == ("9.1.1", "not-active")
    assert refusal(state, "allied", {"action": "move", "unit": "nobody", "to": "10"}) == ("9.1", "unknown")


@pytest.mark.rule("9.1.2")
@pytest.mark.rule("14.1.1")
def test_9_1_2_axis_combined_operations_unless_short_of_fuel() -> None:
    state = new_game()
    assert refusal(state, "allied", {"action": "assault", "areas": ["C", "D"]}) == ("9.1.2", "combined-operations")
    axis = axis_turn(state)
    both = {"action": "assault", "areas": ["6", "9"]}
    assert both in R.legal_actions(axis, "axis")
    short = axis_turn(play(state, "allied", {"action": "fuel_shortage"}))
    assert refusal(short, "axis", both) == ("14.1.1", "fuel-shortage")
    # sequential: one Area, then a second after seeing the first (units may not activate twice)
    seq = play(axis, "axis", {"action": "assault", "areas": ["9"]})
    assert refusal(seq, "axis", {"action": "activate", "area": "9"}) == ("9.1.2", "combined-operations")
    seq = play(seq, "axis", {"action": "activate", "area": "13"})
    assert seq.assault is not None and seq.assault.mode == "sequential" and "15mg" in seq.assault.active
    assert refusal(seq, "axis", {"action": "activate", "area": "15"}) == ("9.1.2", "combined-operations")


@pytest.mark.rule("16.3")
def test_16_3_zones_a_to_d_activate_together_only_on_june_15_impulse_1() -> None:
    state = new_game()
    four = {"action": "assault", "areas": ["A", "B", "C", "D"]}
    assert four in R.legal_actions(state, "allied")
    later = state.model_copy(update={"impulse": 2})
    assert refusal(later, "allied", four) == ("16.3", "first-activation")


@pytest.mark.rule("9.2")
def test_9_2_movement_costs() -> None:
    state = play(new_game(), "allied", ASSAULT_C)
    s = R  # readability
    # C -> 8: vacant, no enemy next to it: 1 MF; 8 -> 2: vacant but next to Halfaya's Axis units: 2 MF
    state = play(state, "allied", {"action": "move", "unit": "7rtr", "to": "8"})
    assert state.assault is not None and state.assault.mf_left == 3
    state = play(state, "allied", {"action": "move", "unit": "7rtr", "to": "2"})
    assert state.assault is not None and state.assault.mf_left == 1
    # entering Full-Strength enemies costs 4: not with 1 MF left once MF has been spent
    assert refusal(state, "allied", {"action": "move", "unit": "7rtr", "to": "6"}) == ("9.2", "no-mf")
    # a unit that has spent nothing may always enter by spending all its MF (here: Out of Supply, MF 3 < 4)
    start = placed(new_game(), **{"22gds": "7"})
    start = start.model_copy(
        update={"units": {**start.units, "22gds": start.units["22gds"].model_copy(update={"oos": True})}}
    )
    start = play(start, "allied", {"action": "assault", "areas": ["7"]})
    assert s.check(start, "allied", {"action": "move", "unit": "22gds", "to": "6"}).ok


@pytest.mark.rule("9.2")
def test_9_2_reduced_enemy_costs_three_and_enemies_stop_movement() -> None:
    state = reduced(new_game(), "1-104", "1-33a", "defr")
    state = play(state, "allied", ASSAULT_C)
    state = plays(state, "allied", {"action": "move", "unit": "65at", "to": "7"})
    assert state.assault is not None and state.assault.mf_left == 3  # 7 is next to Halfaya: 2 MF of 5
    state = play(state, "allied", {"action": "move", "unit": "65at", "to": "6"})  # only Reduced enemies: 3 MF
    assert state.assault is not None and state.assault.mf_left == 0
    assert refusal(state, "allied", {"action": "move", "unit": "65at", "to": "17"})[0] in ("9.1.1", "9.2")


@pytest.mark.rule("9.2")
def test_9_2_entering_a_zone_takes_all_mf() -> None:
    state = play(new_game(), "allied", ASSAULT_C)
    state = play(state, "allied", {"action": "move", "unit": "7rtr", "to": "B"})
    assert state.assault is not None and "7rtr" in state.assault.moved  # the move is over


@pytest.mark.rule("9.3.2")
@pytest.mark.rule("9.3.3")
def test_9_3_escarpments_and_zone_connection_lines() -> None:
    state = placed(new_game(), **{"7rtr": "1"})
    state = play(state, "allied", {"action": "assault", "areas": ["1"]})
    assert refusal(state, "allied", {"action": "move", "unit": "7rtr", "to": "2"}) == ("9.3.2", "escarpment")
    other = play(new_game(), "allied", {"action": "assault", "areas": ["A"]})
    assert refusal(other, "allied", {"action": "move", "unit": "1-11", "to": "C"}) == ("9.3.3", "not-adjacent")


@pytest.mark.rule("9.2.1")
@pytest.mark.rule("7.1")
def test_7_1_and_9_2_1_stacking_and_attacked_areas_are_closed() -> None:
    state = placed(new_game(), **{"2rtr": "8", "6rtr": "8", "1-krr": "8", "2-rb": "8"})
    state = controlled(state, **{"8": "allied"})
    state = play(state, "allied", ASSAULT_C)
    assert refusal(state, "allied", {"action": "move", "unit": "7rtr", "to": "8"}) == ("7.1", "stacking")
    state = state.model_copy(update={"assault": state.assault.model_copy(update={"attacked": ("7",)})})  # type: ignore[union-attr]
    assert refusal(state, "allied", {"action": "move", "unit": "7rtr", "to": "7"}) == ("9.2.1", "attacked")


@pytest.mark.rule("9.3.4")
def test_9_3_4_leaving_a_contested_area_goes_first_to_a_free_area() -> None:
    state = placed(new_game(), **{"7rtr": "6", "22gds": "6"})
    state = play(state, "allied", {"action": "assault", "areas": ["6"]})
    # 17 is Axis-controlled (not Free); 2 is Axis-controlled too; make 2 Free
    assert refusal(state, "allied", {"action": "move", "unit": "7rtr", "to": "17"}) == ("9.3.4", "contested-exit")
    free = play(
        controlled(placed(new_game(), **{"7rtr": "6"}), **{"2": "allied"}),
        "allied",
        {"action": "assault", "areas": ["6"]},
    )
    assert R.check(free, "allied", {"action": "move", "unit": "7rtr", "to": "2"}).ok


@pytest.mark.rule("7.2")
def test_7_2_control_changes_when_a_unit_enters_a_vacant_enemy_area() -> None:
    state = play(new_game(), "allied", ASSAULT_C)
    state = play(state, "allied", {"action": "move", "unit": "7rtr", "to": "8"})
    assert state.control["8"] == "allied"


@pytest.mark.rule("8.1.2")
def test_8_1_2_regroup_moves_every_unit_one_free_area() -> None:
    state = play(new_game(), "allied", {"action": "regroup"})
    assert R.check(state, "allied", {"action": "regroup_move", "unit": "7rtr", "to": "B"}).ok
    # enemy-controlled (even vacant) destinations are closed to a Regroup
    assert refusal(state, "allied", {"action": "regroup_move", "unit": "7rtr", "to": "8"}) == ("8.1.2", "regroup-enemy")
    state = play(state, "allied", {"action": "regroup_move", "unit": "7rtr", "to": "B"})
    assert refusal(state, "allied", {"action": "regroup_move", "unit": "7rtr", "to": "C"}) == ("8.1.2", "regrouped")
    state = play(state, "allied", {"action": "end_regroup"})
    assert state.half == "axis"


@pytest.mark.rule("8.1.2")
def test_8_1_2_no_regroup_from_axis_held_halfaya_to_musaid() -> None:
    state = controlled(placed(new_game(), **{"7rtr": "6", "3-62": None}), **{"17": "allied"})
    state = play(state, "allied", {"action": "regroup"})
    assert refusal(state, "allied", {"action": "regroup_move", "unit": "7rtr", "to": "17"}) == (
        "8.1.2",
        "halfaya-minefields",
    )


@pytest.mark.rule("8.1.2")
def test_8_1_2_consolidation_of_two_reduced_units_of_one_type() -> None:
    state = reduced(new_game(), "2rtr", "6rtr", "1-krr", "12at")
    assert refusal(state, "allied", {"action": "consolidate", "keep": "2rtr", "remove": "1-krr"}) == (
        "8.1.2",
        "consolidate-type",
    )
    assert refusal(state, "allied", {"action": "consolidate", "keep": "2rtr", "remove": "11h"}) == (
        "8.1.2",
        "consolidate-strength",
    )
    state = play(state, "allied", {"action": "consolidate", "keep": "2rtr", "remove": "6rtr"})
    assert state.units["2rtr"].full and state.units["6rtr"].location is None and state.half == "axis"


@pytest.mark.rule("16.1")
@pytest.mark.rule("16.2")
def test_16_the_panzer_divisions_wait_for_their_release() -> None:
    state = axis_turn(new_game())
    state = play(state, "axis", {"action": "regroup"})
    assert refusal(state, "axis", {"action": "regroup_move", "unit": "1-8", "to": "19"}) == ("16.1", "restricted")
    assert refusal(state, "axis", {"action": "regroup_move", "unit": "1-5", "to": "F"}) == ("16.2", "restricted")
    # an Allied assault out of Tobruk releases the 5th Light (16.2)
    state = play(new_game(), "allied", {"action": "assault", "areas": ["H"]})
    assert "5lt" in state.released and "15pz" not in state.released
    # taking an Area next to Area 18 releases the 15th Panzer (16.1)
    state = controlled(new_game(), **{"19": "allied"})
    state = play(play(state, "allied", ASSAULT_C), "allied", {"action": "move", "unit": "7rtr", "to": "8"})
    assert "15pz" in state.released


@pytest.mark.rule("6.2.1")
def test_6_2_1_the_sunset_dr_ends_the_maneuvers_phase_when_below_the_impulse() -> None:
    state = new_game().model_copy(update={"impulse": 5, "advantage": None})
    state = play(axis_turn(state), "axis", {"action": "pass"})
    state = roll(state, sunset=(1, 3))  # 4 < 5: night falls (nobody holds the Advantage)
    assert state.phase == "refit" and state.step == "refit"
    state = new_game().model_copy(update={"impulse": 5})
    state = roll(play(axis_turn(state), "axis", {"action": "pass"}), sunset=(3, 3))
    assert state.impulse == 6 and state.half == "allied"
