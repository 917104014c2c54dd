"""Refit (13), supply and surrender (14), victory (17), the optional rules (19) and the Extended Game (20)."""

from __future__ import annotations

import pytest

from pbem.games.battleaxe.state import BattleaxeState, now
from tests.games.battleaxe.position import (
    R,
    controlled,
    new_game,
    off_board,
    placed,
    play,
    plays,
    reduced,
    refusal,
    roll,
)


def night(state: BattleaxeState) -> BattleaxeState:
    """End the Maneuvers Phase at once: both pass, the Sunset DR is low, nobody spends the Advantage."""
    state = state.model_copy(update={"impulse": 12, "half": "allied", "step": "impulse"})
    state = plays(state, "allied", {"action": "pass"})
    state = roll(play(state, "axis", {"action": "pass"}), sunset=(1, 1))
    if now(state) == "daylight":
        state = play(state, state.advantage or "allied", {"action": "nightfall"})
    return state


@pytest.mark.rule("12.1")
def test_12_1_prolonged_daylight_ignores_the_sunset_dr() -> None:
    state = new_game().model_copy(update={"impulse": 6})
    state = roll(play(play(state, "allied", {"action": "pass"}), "axis", {"action": "pass"}), sunset=(1, 2))
    assert now(state) == "daylight" and R.to_act(state) == ("allied",)
    state = play(state, "allied", {"action": "prolonged_daylight"})
    assert state.impulse == 7 and state.phase == "maneuvers" and state.advantage == "axis"


@pytest.mark.rule("13.3.2")
@pytest.mark.rule("12.1")
def test_13_3_2_one_rp_flips_two_units_or_rebuilds_one() -> None:
    state = night(reduced(new_game(), "2rtr", "6rtr", "1-krr"))
    assert now(state) == "refit" and state.refit is not None and state.refit.side == "allied"
    state = plays(state, "allied", {"action": "flip", "unit": "2rtr"}, {"action": "flip", "unit": "6rtr"})
    assert state.units["2rtr"].full and state.units["6rtr"].full and state.refit.rp == 0  # type: ignore[union-attr]
    assert refusal(state, "allied", {"action": "flip", "unit": "1-krr"}) == ("13.3.2", "no-rp")
    state = play(state, "allied", {"action": "increase_replacements"})  # 12.1F
    state = play(state, "allied", {"action": "flip", "unit": "1-krr"})
    assert state.units["1-krr"].full


@pytest.mark.rule("13.3.1")
def test_13_3_1_units_that_cannot_trace_supply_take_no_replacements() -> None:
    state = night(reduced(new_game(), "2rtr"))
    cut = controlled(state, **{"D": "axis", "C": "axis", "10": "axis", "5": "axis", "I": "axis"})
    assert refusal(cut, "allied", {"action": "flip", "unit": "2rtr"}) == ("13.3.1", "no-supply")


@pytest.mark.rule("13.3.3")
@pytest.mark.rule("13.3.4")
def test_13_3_3_rebuilds_and_the_tobruk_exception() -> None:
    state = night(placed(new_game(), **{"2rtr": None, "9aus": None}))
    assert refusal(state, "allied", {"action": "rebuild", "unit": "2rtr", "to": "H"}) == ("13.3.3", "tobruk")
    assert refusal(state, "allied", {"action": "rebuild", "unit": "9aus", "to": "D"}) == ("13.3.3", "tobruk")
    assert refusal(state, "allied", {"action": "rebuild", "unit": "2rtr", "to": "7"}) == ("13.3.3", "rebuild-place")
    state = play(state, "allied", {"action": "rebuild", "unit": "2rtr", "to": "D"})
    assert state.units["2rtr"].location == "D" and not state.units["2rtr"].full
    axis = play(night(placed(new_game(), **{"1-62": None})), "allied", {"action": "end_refit"})
    assert refusal(axis, "axis", {"action": "rebuild", "unit": "1-62", "to": "D"})[0] == "13.3.4"
    axis = play(axis, "axis", {"action": "rebuild", "unit": "1-62", "to": "15"})
    assert axis.units["1-62"].location == "15"


@pytest.mark.rule("13.3.5")
def test_13_3_5_axis_battlefield_recovery_flips_one_armored_unit_free() -> None:
    state = play(night(reduced(new_game(), "1-8", "2-8", "15mc")), "allied", {"action": "end_refit"})
    assert refusal(state, "axis", {"action": "recover", "unit": "15mc"}) == ("13.3.5", "recovery")
    state = play(state, "axis", {"action": "recover", "unit": "1-8"})
    assert state.units["1-8"].full and state.refit is not None and state.refit.rp == 1
    assert refusal(state, "axis", {"action": "recover", "unit": "2-8"}) == ("13.3.5", "recovered")


@pytest.mark.rule("19.1")
def test_19_1_g_tiger_cubs_only_with_the_optional_rule() -> None:
    state = night(reduced(new_game(), "2rtr"))
    assert refusal(state, "allied", {"action": "tiger_cubs", "unit": "2rtr"}) == ("19.1", "optional")
    state = night(reduced(new_game(tiger_cubs=True), "2rtr", "1-krr"))
    assert refusal(state, "allied", {"action": "tiger_cubs", "unit": "1-krr"}) == ("19.1", "tiger-cubs")
    state = play(state, "allied", {"action": "tiger_cubs", "unit": "2rtr"})
    assert state.units["2rtr"].full and state.advantage is None


@pytest.mark.rule("14.2")
@pytest.mark.rule("14.2.3")
def test_14_2_out_of_supply_units_check_for_surrender() -> None:
    # an Axis unit cut off deep in Allied territory, and a vacant Axis Area cut off by Allied control
    state = off_board(new_game(), "1-62", "2rtr", "1-8")
    state = placed(state, **{"1-62": "5", "2rtr": "D", "1-8": "18"})
    state = controlled(state, **{"5": "axis", "10": "allied", "9": "allied", "11": "allied", "I": "allied"})
    state = night(state)
    assert state.units["1-62"].oos and not state.units["2rtr"].oos
    state = plays(state, "allied", {"action": "end_refit"})
    state = play(state, "axis", {"action": "end_refit"})
    state = roll(state, surrender=(2,))  # 1-3: a step is lost
    assert not state.units["1-62"].full


@pytest.mark.rule("14.2")
def test_14_2_4_a_vacant_cut_off_area_changes_control() -> None:
    state = off_board(new_game(), "2rtr", "1-8")
    state = controlled(state, **{"10": "allied", "9": "allied", "11": "allied", "I": "allied", "D": "allied"})
    state = controlled(state, **{"5": "axis"})  # vacant, Axis-controlled, its neighbours Allied
    state = night(state)
    assert state.control["5"] == "allied"


@pytest.mark.rule("17.1")
def test_17_1_automatic_victory_when_tobruk_traces_to_buq_buq() -> None:
    state = off_board(new_game(), "9aus", "2rtr")
    path = ("23", "14", "12", "11", "5", "D", "C", "B", "A", "H")
    state = controlled(state, **{loc: "allied" for loc in path})
    state = night(state)
    state = plays(state, "allied", {"action": "end_refit"})
    state = play(state, "axis", {"action": "end_refit"})
    result = R.result(state)
    assert result is not None and result.winners == ("allied",) and "Automatic" in result.outcome


def end_of_turn(state: BattleaxeState) -> tuple[BattleaxeState, list[str]]:
    """Run the Refit and End Phases; return the state and the End Phase events' kinds and data."""
    state = play(state, "allied", {"action": "end_refit"})
    step = R.apply(state, "axis", {"action": "end_refit"})
    return step.state, [f"{e.kind}:{e.data.get('gained', e.data.get('bonus', ''))}" for e in step.events]


@pytest.mark.rule("17.2")
def test_17_2_victory_points_from_supplied_vp_areas_and_german_losses() -> None:
    state = off_board(new_game(), "2rtr", "9aus", "1-8", "xx-mot")
    state = controlled(state, **{"11": "allied", "5": "allied"})  # Sidi Omar (1 VP) traces through 5 to Zone D
    state = night(state.model_copy(update={"turn": 3, "vp": 8}))
    germans_lost = sum(
        1 for u, p in state.units.items() if p.location is None and state.pack.unit(u).nationality == "german"
    )
    state, events = end_of_turn(state)
    gained = int(next(e for e in events if e.startswith("victory_points:")).split(":")[1])
    assert gained >= 1 and f"german_losses:{germans_lost}" in events
    assert state.vp == 8 + gained + germans_lost
    result = R.result(state)
    assert result is not None and result.winners == ("allied",) and "Operational Victory" in result.outcome


@pytest.mark.rule("17.2")
@pytest.mark.rule("20.1")
def test_20_1_the_extended_game_plays_june_18_on_9_or_10_vp() -> None:
    standard, _ = end_of_turn(night(new_game().model_copy(update={"turn": 3, "vp": 9})))
    result = R.result(standard)
    assert result is not None and result.winners == ("axis",)  # 9 < 10 (17.2)
    extended, _ = end_of_turn(night(new_game(extended=True).model_copy(update={"turn": 3, "vp": 9})))
    assert R.result(extended) is None and extended.turn == 4 and now(extended) == "impulse"
    last, _ = end_of_turn(night(extended))
    result = R.result(last)
    assert result is not None and result.winners == ("axis",)  # June 18 without an Automatic Victory


@pytest.mark.rule("19.1")
def test_19_1_h_wireless_intercepts_add_the_other_impulse() -> None:
    axis = new_game(wireless_intercepts=True).model_copy(update={"advantage": "axis"})
    axis = play(axis, "allied", {"action": "pass"})
    axis = plays(axis, "axis", {"action": "regroup"}, {"action": "end_regroup"})
    assert now(axis) == "intercepts"
    axis = play(axis, "axis", {"action": "wireless_intercepts"})
    assert now(axis) == "impulse" and axis.advantage is None
    assert refusal(axis, "axis", {"action": "pass"}) == ("19.1", "intercepts")
    axis = plays(axis, "axis", {"action": "assault", "areas": ["9"]}, {"action": "end_assault"})
    assert now(axis) == "sunset"  # no second intercept: the half-Impulse ends
    plain = new_game().model_copy(update={"advantage": "axis"})
    plain = plays(play(plain, "allied", {"action": "pass"}), "axis", {"action": "regroup"}, {"action": "end_regroup"})
    assert now(plain) == "sunset"  # without the optional rule there is no window
