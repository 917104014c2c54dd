"""The sequence of play as the events report it: phases and Impulses (6.2, 6.4), Impulse kinds (8.1.1, 8.1.3),
the Advantage passing on (12.2), the end of a Fuel Shortage (14.1.2) and cut-off locations (14.2.4).

The conformance suite asks every rule an event cites to have a test; these are they.
"""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.battleaxe.state import BattleaxeState, now
from pbem.rules.contract import Event, Outcome
from tests.games.battleaxe.position import DATA, DEFAULTS, ROSTER, R, new_game, off_board, play, roll


def events(state: BattleaxeState, seat: str, action: dict[str, Any]) -> tuple[BattleaxeState, list[Event]]:
    assert action in R.legal_actions(state, seat), (action, R.check(state, seat, action))
    step = R.apply(state, seat, action)
    return step.state, list(step.events)


def kinds(found: list[Event]) -> list[tuple[str, str | None]]:
    return [(e.kind, e.rule) for e in found]


def rolled(state: BattleaxeState, **faces: tuple[int, ...]) -> tuple[BattleaxeState, list[Event]]:
    step = R.resume(state.model_copy(update={"rolls": None}), Outcome(dice=faces))
    return step.state, list(step.events)


@pytest.mark.rule("6.2")
def test_6_2_the_maneuvers_phase_and_each_impulse_begin() -> None:
    state = R.setup("campaign", DEFAULTS, ROSTER, DATA)
    last = None
    for row in DATA.tables.historical_setup:
        if row.unit in state.setup_left:
            state, last = events(state, "allied", {"action": "place", "unit": row.unit, "zone": row.location})
    assert last is not None and ("maneuvers_began", "6.2") in kinds(last)
    state = play(play(new_game(), "allied", {"action": "pass"}), "axis", {"action": "pass"})
    state, found = rolled(state, sunset=(6, 6))  # a Sunset DR above the Impulse: the day goes on
    assert ("impulse_began", "6.2") in kinds(found) and state.impulse == 2


@pytest.mark.rule("8.1.1")
def test_8_1_1_an_assault_impulse_is_declared_and_ended() -> None:
    state, found = events(new_game(), "allied", {"action": "assault", "areas": ["C"]})
    assert kinds(found)[0] == ("assault_declared", "8.1.1") and found[0].data["areas"] == ["C"]
    state, found = events(state, "allied", {"action": "end_assault"})
    assert ("assault_ended", "8.1.1") in kinds(found) and state.half == "axis"


@pytest.mark.rule("8.1.3")
def test_8_1_3_a_player_may_pass_his_impulse() -> None:
    state, found = events(new_game(), "allied", {"action": "pass"})
    assert kinds(found)[0] == ("passed", "8.1.3") and state.half == "axis" and now(state) == "impulse"


@pytest.mark.rule("12.2")
def test_12_2_a_spent_advantage_passes_to_the_other_player() -> None:
    state = new_game()
    assert state.advantage == "allied"
    state, _ = events(state, "allied", {"action": "fuel_shortage"})
    assert state.advantage is None and state.advantage_used_by == "allied"  # nobody's until the Impulse ends
    state, found = events(state, "allied", {"action": "pass"})
    assert ("advantage_passed", "12.2") in kinds(found) and state.advantage == "axis"


@pytest.mark.rule("14.1.2")
def test_14_1_2_a_fuel_shortage_ends_when_the_sunset_dr_equals_the_impulse() -> None:
    state = new_game().model_copy(update={"fuel_low": True, "impulse": 7})
    state = play(play(state, "allied", {"action": "pass"}), "axis", {"action": "pass"})
    state, found = rolled(state, sunset=(3, 4))
    assert ("fuel_restored", "14.1.2") in kinds(found) and not state.fuel_low


def nightfall(state: BattleaxeState) -> BattleaxeState:
    """The last Impulse: both pass and a low Sunset DR ends the Maneuvers Phase (into the Refit Phase)."""
    state = state.model_copy(update={"impulse": 12})
    state = roll(play(play(state, "allied", {"action": "pass"}), "axis", {"action": "pass"}), sunset=(1, 1))
    if now(state) == "daylight":
        state = play(state, state.advantage or "allied", {"action": "nightfall"})
    assert now(state) == "refit"
    return state


@pytest.mark.rule("14.2.4")
def test_14_2_4_an_empty_location_that_cannot_trace_supply_changes_control() -> None:
    state = off_board(new_game())  # nobody on the map: a location stays its owner's only if it traces supply
    axis_held = sorted(loc for loc, side in state.control.items() if side == "axis")
    island = axis_held[0]
    control = {loc: "allied" for loc in state.control} | {island: "axis"}
    surrounded = state.model_copy(update={"control": control, "impulse": 12})
    state, found = rolled(play(play(surrounded, "allied", {"action": "pass"}), "axis", {"action": "pass"}),
                          sunset=(1, 1))  # fmt: skip
    if now(state) == "daylight":
        state, found = events(state, state.advantage or "allied", {"action": "nightfall"})
    cut = [e for e in found if (e.kind, e.rule) == ("control_changed", "14.2.4")]
    assert [e.data["location"] for e in cut] == [island] and state.control[island] == "allied"


@pytest.mark.rule("6.4")
def test_6_4_a_new_day_begins_after_the_end_phase() -> None:
    state = play(nightfall(new_game()), "allied", {"action": "end_refit"})
    step = R.apply(state, "axis", {"action": "end_refit"})
    state, found = step.state, list(step.events)
    if state.rolls is not None:  # surrender checks of units out of supply first
        state, found = rolled(state, surrender=tuple(6 for _ in range(state.rolls.rolls[0].n)))
    assert ("turn_began", "6.4") in kinds(found) and state.turn == 2 and state.impulse == 1
