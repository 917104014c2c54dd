"""Seats (p.7): the seat table as contract scenarios, team quorum and resignations."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.ruleset import RULESET
from pbem.games.axisallies.seats import parse_scenario, successor
from tests.games.axisallies.rules_helpers import start


@pytest.mark.rule("7")
def test_p7_a_scenario_per_player_count_with_one_side_per_seat() -> None:
    ids = {s.id: s for s in RULESET.scenarios}
    assert set(ids) == {f"{b}-{n}p" for b in ("rommels_last_push", "operation_torch") for n in (2, 3, 4)}
    two = ids["rommels_last_push-2p"]
    assert [(s.id, s.team) for s in two.seats] == [("axis", "axis"), ("allies", "allies")]
    four = ids["operation_torch-4p"]
    assert [s.team for s in four.seats] == ["axis", "axis", "allies", "allies"]


@pytest.mark.rule("7")
def test_p7_a_seat_plays_each_of_its_powers() -> None:
    state = start("rommels_last_push-3p")
    assert state.seats == {
        "germany": "germany",
        "italy": "italy",
        "united_kingdom": "allies",
        "united_states": "allies",
    }


def test_scenario_ids_parse_or_refuse() -> None:
    assert parse_scenario("operation_torch-3p") == ("operation_torch", 3)
    for bad in ("operation_torch", "operation_torch-5p", "-2p", "x-twop"):
        with pytest.raises(ValueError):
            parse_scenario(bad)


@pytest.mark.rule("7")
def test_p7_resigning_passes_the_powers_to_a_partner_or_ends_the_game() -> None:
    state = start("rommels_last_push-4p")
    step = RULESET.on_resign(state, "italy")
    assert step is not None
    assert step.state.seats["italy"] == "germany" and step.state.resigned == ("italy",)
    assert RULESET.on_resign(step.state, "germany") is None  # no partner left: the other side wins
    assert RULESET.on_resign(start("rommels_last_push-2p"), "axis") is None
    conceding = start("rommels_last_push-4p", resignation="side_concedes")
    assert RULESET.on_resign(conceding, "italy") is None


def test_successor_skips_resigned_seats() -> None:
    seats = {"germany": "g", "united_kingdom": "u", "italy": "i", "united_states": "s"}
    sides = {"germany": "axis", "italy": "axis", "united_kingdom": "allies", "united_states": "allies"}
    assert successor(seats, sides, "u", frozenset()) == "s"
    assert successor(seats, sides, "u", frozenset({"s"})) is None


@pytest.mark.rule("12")
def test_p12_a_pending_decision_of_a_resigning_seat_passes_to_its_partner() -> None:
    from pbem.games.axisallies.state import ExcessMove

    state = start("rommels_last_push-4p")
    waiting = state.model_copy(update={"pending": (ExcessMove(seat="united_states", territory="sirte", side="axis"),)})
    step = RULESET.on_resign(waiting, "united_states")
    assert step is not None and step.state.pending[0].seat == "united_kingdom"
    assert RULESET.to_act(step.state) == ("united_kingdom",)
