"""Rommel supply checks in play (§12.7): Initial and Final checks, Disruption from being Unsupplied (§12.1),
recovery (§11.2), the Buildup Supply Check (§16.2), Oasis supply (§15.1)."""

from __future__ import annotations

import pytest

from pbem.games.rommel import supplycheck
from pbem.games.rommel.state import BattleRecord, Pursuit, RommelState
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


@pytest.mark.rule("12.7")
def test_units_disrupted_by_the_final_check_rout_before_the_cards_are_revealed() -> None:
    """§12.7: the Final Supply Check Routs the newly Disrupted unshielded units at once, before the reveal (§3.48);
    without a Supply Line they cannot withdraw, so the Withdrawal eliminates them (§12.7 sidebar)."""
    table = Table("demo-1940", dice=[1] * 4)
    table.set_up()
    state = place(table.state, "axis-02", "1705", unsupplied=True)  # marked Unsupplied at the Initial check
    table.state = state.model_copy(
        update={"battles": {"1705": BattleRecord(defender="allied", attacker="axis", new=False)}}
    )
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "end_movement"})
    table.do("axis", {"action": "end_combat"})
    item = table.state.pending[-1]
    assert isinstance(item, Pursuit) and (item.cause, item.group) == ("rout", ("axis-02",))
    assert table.state.turn.stage == "final" and table.state.active == "axis"
    assert not any(e.kind == "supply_revealed" for e in table.events)  # the cards wait for the Rout
    assert table.refusal("axis", {"action": "end_combat"})[1] == "not-now"
    table.do("axis", {"action": "attrition", "eliminated": []})
    table.do("axis", {"action": "slowest", "speed": 1})
    table.do("allied", {"action": "pursue", "dice": 4})
    assert table.legal("axis") == [{"action": "end_withdrawal"}]  # no Supply Line: no way to withdraw
    table.do("axis", {"action": "end_withdrawal"})
    kinds = [(e.kind, e.rule) for e in table.events]
    assert kinds.index(("unit_eliminated", "11.3")) < kinds.index(("supply_revealed", "3.48"))
    assert table.state.tokens["axis-02"].status == "eliminated"
    assert table.state.active == "allied" and table.state.turn.stage == "select"
