"""The ruleset's contract answers: turn and phase dispatch, refusals, labels, views, periods and results."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.phases import end_turn
from pbem.games.axisallies.ruleset import RULESET
from pbem.rules.contract import OBSERVER
from tests.games.axisallies.rules_helpers import done, refusal, seat, start


@pytest.mark.rule("12")
def test_p12_only_the_moving_powers_seat_acts_and_only_in_its_phase() -> None:
    state = done(start())
    assert RULESET.to_act(state) == ("axis",) and RULESET.legal_actions(state, "allies") == []
    verdict = RULESET.contains(state, "allies", RULESET.typed({"action": "done"}))
    assert (verdict.rule, verdict.reason) == ("12", "not-your-turn")
    assert refusal(state, {"action": "move", "unit": "tank", "origin": "el_agheila", "to": "mechili"}) == (
        "13",
        "not-now",
    )


def test_unknown_places_and_units_are_refused_by_rule() -> None:
    state = done(done(start()))
    assert (
        refusal(state, {"action": "move", "unit": "tank", "origin": "atlantis", "to": "mechili"})[1] == "unknown-space"
    )
    assert refusal(state, {"action": "move", "unit": "zeppelin", "origin": "el_agheila", "to": "mechili"}) == (
        "8",
        "unknown-unit",
    )


def test_prompts_name_spaces_and_pieces() -> None:
    state = done(done(start()))
    assert RULESET.label(state, "origin", "el_agheila") == "El Agheila"
    assert RULESET.label(state, "unit", "supply") == "1 supply point"
    assert RULESET.label(state, "unit", "italy:infantry").startswith("Italy ")


@pytest.mark.rule("13")
def test_a_purchase_prompt_names_each_choice_with_its_price_and_only_a_purchase() -> None:
    state = done(start())  # the set-up done: the first power's purchase
    assert state.phase == "purchase"
    supply = next(t for t in state.pack.tokens if t.id == "supply_1")
    assert RULESET.label(state, "unit", "supply") == f"1 supply point ({supply.cost // supply.value} RP)"
    infantry = state.pack.unit(state.power, "infantry")
    assert RULESET.label(state, "unit", "infantry") == f"{infantry.name} ({infantry.cost} RP)"
    later = done(done(start()))
    assert later.phase != "purchase" and RULESET.label(later, "unit", "infantry") == infantry.name


def test_everyone_sees_the_whole_board_and_the_period_is_the_round() -> None:
    state = start()
    view = RULESET.view(state, OBSERVER)
    assert view.model_copy(update={"viewer": "axis"}) == RULESET.view(state, "axis")
    stack = next(u for u in view.units if u.id == "el_agheila/germany:tank")
    assert (stack.kind, stack.extra["count"]) == ("tank", 2)
    assert RULESET.period(state) == "round-1"


@pytest.mark.rule("6")
def test_p6_the_result_names_the_winning_sides_seats() -> None:
    state = done(start()).model_copy(update={"round": 14, "power": "united_states"})
    over = end_turn(state).state
    result = RULESET.result(over)
    assert result is not None and result.winners == ("axis",)
    assert RULESET.result(state) is None
    assert seat(done(start("operation_torch-4p"))) == "united_kingdom"
