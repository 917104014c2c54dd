"""Rommel supply checks in play (§12.7): Initial and Final checks, Disruption from being Unsupplied (§12.1),
recovery (§11.2), the Buildup Supply Check (§16.2), Oasis supply (§15.1)."""

from __future__ import annotations

import pytest

from pbem.games.rommel import supplycheck
from pbem.games.rommel.state import RommelState
from tests.games.rommel.rules_driver import Table

DEEP_DESERT = "0410"  # no line to El Agheila: no road, far from the highway and from every Axis unit


def demo() -> Table:
    table = Table("demo-1940", dice=[1, 1] * 10)
    table.set_up()
    return table


def place(state: RommelState, token: str, hex_id: str, **more: object) -> RommelState:
    tok = state.tokens[token].model_copy(update={"hex": hex_id, **more})
    return state.model_copy(update={"tokens": {**state.tokens, token: tok}})


@pytest.mark.rule("12.7")
def test_the_initial_check_marks_unsupplied_units() -> None:
    table = demo()
    state, events = supplycheck.initial_check(place(table.state, "axis-02", DEEP_DESERT))
    assert state.tokens["axis-02"].unsupplied and not state.tokens["axis-03"].unsupplied
    assert events[0].data["unsupplied"] == ["axis-02"]


@pytest.mark.rule("12.1")
def test_unsupplied_at_both_checks_of_a_turn_is_disrupted() -> None:
    table = demo()
    state, _ = supplycheck.initial_check(place(table.state, "axis-02", DEEP_DESERT))
    state, events = supplycheck.final_check(state)
    assert state.tokens["axis-02"].disrupted and events[0].data["disrupted"] == ["axis-02"]
    rejoined, _ = supplycheck.final_check(place(supplycheck.initial_check(
        place(table.state, "axis-02", DEEP_DESERT))[0], "axis-02", "1505"))  # fmt: skip
    assert not rejoined.tokens["axis-02"].disrupted  # a line again by the Final check: not Disrupted


@pytest.mark.rule("11.2")
def test_recovery_needs_a_whole_enemy_turn_and_a_line() -> None:
    table = demo()
    now = table.state.turn_no
    state = place(table.state, "axis-02", "1505", disrupted=True, disrupted_turn=now - 2)
    state = place(state, "axis-03", "1505", disrupted=True, disrupted_turn=now - 1)  # Disrupted in the enemy turn
    state = place(state, "axis-04", DEEP_DESERT, disrupted=True, disrupted_turn=now - 2)
    after, events = supplycheck.initial_check(state)
    assert not after.tokens["axis-02"].disrupted
    assert after.tokens["axis-03"].disrupted and after.tokens["axis-04"].disrupted
    assert any(e.rule == "11.2" and e.data["units"] == ["axis-02"] for e in events)


@pytest.mark.rule("16.2")
def test_the_buildup_check_eliminates_unsupplied_units() -> None:
    table = demo()
    table.state = place(table.state, "axis-02", DEEP_DESERT)
    state, events = supplycheck.buildup_check(table.state)
    assert state.tokens["axis-02"].status == "eliminated" and state.tokens["axis-02"].hex is None
    assert events[0].data["eliminated"] == ["axis-02"]


@pytest.mark.rule("15.1")
def test_an_oasis_supplies_one_unit() -> None:
    table = demo()
    siwa = table.state.pack.place("siwa").hex  # far from any Axis line
    state = place(place(table.state, "axis-02", siwa), "axis-03", siwa)
    ok = supplycheck.supplied(state, "axis")
    assert "axis-02" in ok and "axis-03" not in ok  # one unit, in token order (RULING)
