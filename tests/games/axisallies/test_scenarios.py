"""Scenarios (p.6, pp.8-9, pp.28-29): setup, variable reinforcements, turn order, round events and victory."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.phases import end_turn
from pbem.games.axisallies.scenarios import final_result, instant_winner, next_turn
from pbem.games.axisallies.state import AxisState
from tests.games.axisallies.rules_helpers import done, play, refusal, seat, start


def _skip_setup(state: AxisState) -> AxisState:
    return done(state) if state.phase == "setup" else state


@pytest.mark.rule("8")
def test_p8_setup_places_the_charts_with_vichy_pieces_on_the_axis_side() -> None:
    state = start()
    assert state.count("el_agheila", "germany:tank") == 2
    assert state.count("sicily", "germany:bomber") == 1 and state.count("sicily", "germany:fighter") == 1
    assert state.supply["cairo"] == 5 and state.control["tripoli"] == "italy"
    assert state.count("casablanca", "france:infantry") == 2 and "casablanca" not in state.french


@pytest.mark.rule("9")
def test_p9_the_uk_places_variable_reinforcements_within_each_zones_rp() -> None:
    state = start()
    assert state.phase == "setup" and seat(state) == "allies"
    for _ in range(3):
        state = play(state, {"action": "place", "zone": "atlantic_ocean", "unit": "infantry"})
    assert state.count("atlantic_ocean", "united_kingdom:infantry") == 3
    assert refusal(state, {"action": "place", "zone": "atlantic_ocean", "unit": "artillery"}) == ("9", "over-budget")
    assert refusal(state, {"action": "place", "zone": "sz5", "unit": "infantry"}) == ("9", "not-a-variable-zone")
    assert refusal(state, {"action": "place", "zone": "suez_canal", "unit": "truck"}) == ("9", "not-a-reinforcement")
    state = done(state)
    assert (state.phase, state.power, state.round) == ("purchase", "germany", 1)


@pytest.mark.rule("6")
def test_p6_us_turns_are_skipped_until_round_7_in_rommels_last_push() -> None:
    state = _skip_setup(start())
    order = []
    while state.round < 8:
        order.append((state.round, state.power))
        nxt = next_turn(state, state.pack, state.pack.scenario(state.scenario))
        assert nxt is not None
        state = state.model_copy(update={"power": nxt[0], "round": nxt[1]})
    assert (6, "united_states") not in order and (7, "united_states") in order
    assert order[:3] == [(1, "germany"), (1, "united_kingdom"), (1, "italy")]


@pytest.mark.rule("28")
def test_p28_germanys_round_7_turn_is_skipped_in_operation_torch() -> None:
    state = _skip_setup(start("operation_torch-4p"))
    assert (state.round, state.power) == (7, "united_kingdom") and seat(state) == "united_kingdom"


@pytest.mark.rule("28")
def test_p28_round_7_of_rommels_last_push_brings_the_torch_forces() -> None:
    state = _skip_setup(start()).model_copy(update={"round": 6, "power": "italy"})
    after = end_turn(state).state
    assert (after.round, after.power) == (7, "germany")
    assert after.control["tunis"] == "germany" and after.control["mareth"] == "italy"
    assert after.count("casablanca", "united_states:infantry") == 5 and after.supply["tunis"] == 3


@pytest.mark.rule("6")
def test_p6_the_game_ends_after_round_14_with_the_higher_level() -> None:
    state = _skip_setup(start()).model_copy(update={"round": 14, "power": "united_states"})
    over = end_turn(state).state
    assert over.phase == "over"
    assert (over.winner, over.outcome) == final_result(state.pack, state.pack.scenario(state.scenario), state)
    # the setup's board: the Axis holds Tripoli (Minor), the Allies Tobruk but not Tripoli or Mareth: Axis wins
    assert over.winner == "axis" and "minor" in over.outcome
    allies = state.model_copy(update={"control": {**state.control, "tripoli": "united_kingdom"}})
    assert final_result(state.pack, state.pack.scenario(state.scenario), allies)[0] == "allies"
    both = state.model_copy(update={"control": {**state.control, "mareth": "united_kingdom"}})
    assert final_result(state.pack, state.pack.scenario(state.scenario), both) == ("draw", "both sides minor victory")


@pytest.mark.rule("6")
def test_p6_capturing_cairo_is_an_instant_axis_victory() -> None:
    state = _skip_setup(start())
    scenario = state.pack.scenario(state.scenario)
    assert instant_winner(state.pack, scenario, state) is None
    taken = state.model_copy(update={"control": {**state.control, "cairo": "germany"}})
    assert instant_winner(state.pack, scenario, taken) == ("axis", "captured Cairo")
