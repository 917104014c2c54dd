"""Refusing Battle (§8.4, §10.2), the Withdrawal Group Move it and Routs need (§5.3), Routs (§11.3, §11.11) and
Overruns (§11.4), each step a decision of the right seat on the machine's stack, with each refusal."""

from __future__ import annotations

import pytest

from pbem.games.rommel.state import Pursuit, Refusal, Withdrawal, cv_slot
from tests.games.rommel.rules_driver import R, Table


def attacking(dice: list[int] | None = None) -> Table:
    """axis-02 (Italian infantry) attacks Sollum (1605), held by allied-01 alone, and the Axis ends its Movement."""
    table = Table("demo-1940", dice=dice or [])
    table.set_up()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "group", "origin": "1505", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1605"})
    table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    return table


def disrupt(table: Table, token: str, hex_id: str | None = None) -> None:
    tok = table.state.tokens[token]
    update = {"disrupted": True, "disrupted_turn": table.state.turn_no, "hex": hex_id or tok.hex}
    table.state = table.state.model_copy(
        update={"tokens": {**table.state.tokens, token: tok.model_copy(update=update)}}
    )


@pytest.mark.rule("8.4")
def test_the_passive_player_may_refuse_a_group_just_attacked() -> None:
    table = attacking()
    assert isinstance(table.state.pending[-1], Refusal) and R.to_act(table.state) == ("allied",)
    assert table.legal("allied") == [{"action": "refuse", "hex": "1605"}, {"action": "accept_battle"}]
    assert table.refusal("allied", {"action": "refuse", "hex": "1505"}) == ("8.4", "not-attacked")
    assert table.refusal("axis", {"action": "fight", "hex": "1605", "assault": False})[1] == "not-your-turn"
    table.do("allied", {"action": "accept_battle"})
    assert not table.state.pending and R.to_act(table.state) == ("axis",)


@pytest.mark.rule("10.2")
def test_refusing_battle_is_pursued_then_withdraws_and_disrupts() -> None:
    table = attacking()
    table.do("allied", {"action": "refuse", "hex": "1605"})
    item = table.state.pending[-1]
    assert isinstance(item, Pursuit) and item.cause == "refuse" and item.pursuers == ("axis-02",)
    assert not table.state.hidden[cv_slot("allied-01")].public  # not revealed (§10.2)
    table.do("allied", {"action": "slowest", "speed": 3})
    table.do("axis", {"action": "pursue", "dice": 0})  # leg infantry is slower: it cannot pursue
    assert isinstance(table.state.pending[-1], Withdrawal)
    assert table.refusal("allied", {"action": "end_withdrawal"}) == ("10.2", "must-withdraw")
    assert table.refusal("allied", {"action": "withdraw", "token": "allied-01", "to": "1505"})[0] == "5.3"
    table.do("allied", {"action": "withdraw", "token": "allied-01", "to": "1705"})
    table.do("allied", {"action": "end_withdrawal"})
    tok = table.state.tokens["allied-01"]
    assert (tok.hex, tok.disrupted, tok.disrupted_turn) == ("1705", True, table.state.turn_no)
    assert "1605" not in table.state.battles and not table.state.pending  # nothing left to refuse
    assert table.legal("axis") == [{"action": "end_combat"}]


@pytest.mark.rule("8.4")
def test_a_group_without_a_supply_line_cannot_refuse() -> None:
    table = attacking()
    # the Allied units behind Sollum gone, and Axis units across the road east of it: no line to the Base
    tokens = dict(table.state.tokens)
    for token in ("allied-02", "allied-03", "allied-04"):
        tokens[token] = tokens[token].model_copy(update={"status": "eliminated", "hex": None})
    for token, hex_id in (("axis-03", "1705"), ("axis-04", "1706"), ("axis-05", "1704")):
        tokens[token] = tokens[token].model_copy(update={"hex": hex_id})
    table.state = table.state.model_copy(update={"tokens": tokens})
    assert table.refusal("allied", {"action": "refuse", "hex": "1605"}) == ("8.4", "no-supply-line")


@pytest.mark.rule("5.3")
def test_a_withdrawal_step_follows_the_supply_line_within_the_units_speed() -> None:
    table = attacking()
    table.do("allied", {"action": "refuse", "hex": "1605"})
    table.do("allied", {"action": "slowest", "speed": 3})
    table.do("axis", {"action": "pursue", "dice": 0})
    assert table.refusal("allied", {"action": "withdraw", "token": "allied-02", "to": "1805"}) == (
        "5.3",
        "not-withdrawing",
    )
    assert table.refusal("allied", {"action": "withdraw", "token": "allied-01", "to": "1905"}) == (
        "6.0",
        "not-adjacent",
    )
    speed = 3  # allied-01's type
    hexes = ["1705"]
    table.do("allied", {"action": "withdraw", "token": "allied-01", "to": "1705"})
    while len(hexes) < speed:
        step = next((a for a in table.legal("allied") if a["action"] == "withdraw"), None)
        if step is None:
            break
        table.do("allied", step)
        hexes.append(step["to"])
    over = [a for a in table.legal("allied") if a["action"] == "withdraw"]
    assert len(hexes) < speed or not over  # no hex beyond its speed (no road bonus in a Retreat)
    assert any(c.kind == "speed" and c.rule == "5.3" for c in table.state.claims)


@pytest.mark.rule("11.4")
def test_entering_a_hex_of_unshielded_disrupted_units_overruns_them() -> None:
    table = Table("demo-1940", dice=[6, 6])
    table.set_up()
    disrupt(table, "allied-01")
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1605"})  # motorized, speed 2
    assert table.refusal("axis", {"action": "step", "token": "axis-06", "to": "1705"})[0] == "7.0"  # it stops there
    table.do("axis", {"action": "end_move"})
    assert any(e.kind == "overrun" and e.rule == "11.4" for e in table.events)
    item = table.state.pending[-1]
    assert isinstance(item, Pursuit) and (item.cause, item.awaiting, item.seat) == ("rout", "attrition", "allied")
    # §11.3: Rout Attrition first, one step (allied-01 at CV 3 survives it)
    assert table.legal("allied") == [{"action": "attrition", "eliminated": []}]
    assert table.refusal("allied", {"action": "attrition", "eliminated": ["allied-01"]}) == (
        "11.3",
        "attrition-misreported",
    )
    table.do("allied", {"action": "attrition", "eliminated": []})
    assert table.state.hidden[cv_slot("allied-01")].value == 2
    table.do("allied", {"action": "slowest", "speed": 3})
    assert [a["dice"] for a in table.legal("axis")] == [0]  # motorized (2) is slower than motor infantry (3)
    table.do("axis", {"action": "pursue", "dice": 0})
    assert isinstance(table.state.pending[-1], Withdrawal)
    step = next(a for a in table.legal("allied") if a["action"] == "withdraw")
    table.do("allied", step)
    table.do("allied", {"action": "end_withdrawal"})
    tok = table.state.tokens["allied-01"]
    assert tok.hex == step["to"] and tok.disrupted and not table.state.pending
    assert "1605" not in table.state.battles


@pytest.mark.rule("11.3")
def test_a_routed_unit_at_its_last_step_is_eliminated_by_attrition() -> None:
    table = Table("demo-1940")
    table.set_up()
    disrupt(table, "allied-01")
    table.state = table.state.with_hidden(cv_slot("allied-01"), "allied", 1, known=True)
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1605"})
    table.do("axis", {"action": "end_move"})
    assert table.legal("allied") == [{"action": "attrition", "eliminated": ["allied-01"]}]
    table.do("allied", {"action": "attrition", "eliminated": ["allied-01"]})
    assert table.state.tokens["allied-01"].status == "eliminated"
    assert isinstance(table.state.pending[-1], Withdrawal)  # nobody left to withdraw: it ends at once
    table.do("allied", {"action": "end_withdrawal"})
    assert not table.state.pending and "1605" not in table.state.battles


@pytest.mark.rule("11.11")
def test_disrupted_units_rout_when_their_last_shield_is_eliminated_in_combat() -> None:
    # allied-02 stands Disrupted behind allied-01 at Sollum; the Axis Offensive Fire eliminates allied-01
    table = attacking([1, 1, 1, 6, 6, 6, 6])
    disrupt(table, "allied-02", "1605")
    table.state = table.state.with_hidden(cv_slot("allied-01"), "allied", 1, known=True)
    table.do("allied", {"action": "accept_battle"})
    table.do("axis", {"action": "fight", "hex": "1605", "assault": False})
    table.do("allied", {"action": "fire", "token": "allied-01", "target": "infantry"})  # 1, 1, 1... misses
    while table.state.pending and table.state.pending[-1].kind == "battle" and R.to_act(table.state) == ("allied",):
        table.do("allied", table.legal("allied")[0])
    table.do("axis", {"action": "fire", "token": "axis-02", "target": "infantry"})
    table.do("allied", {"action": "losses", "target": "infantry", "losses": {"allied-01": 1}})
    assert table.state.tokens["allied-01"].status == "eliminated"
    assert any(e.kind == "routed" and e.rule == "11.3" for e in table.events)
    item = table.state.pending[-1]
    assert isinstance(item, Pursuit) and item.group == ("allied-02",) and item.pursuers == ()  # axis-02 fired


@pytest.mark.rule("5.3")
def test_disrupted_units_of_both_sides_side_by_side_hold_no_battle() -> None:
    """§5.3 sidebar: a Retreating Withdrawal may stop with enemy Disrupted units; the hex then holds both sides and no
    battle, which supply lines must pass (the Disrupted units neither block nor chain, §11.1)."""
    from pbem.games.rommel.supply import supply_lines

    table = attacking()
    table.do("allied", {"action": "accept_battle"})
    disrupt(table, "allied-01")
    disrupt(table, "axis-02")
    table.state = table.state.model_copy(update={"battles": {}})
    for side in ("axis", "allied"):
        assert "1605" in supply_lines(table.state.pack, table.state.position(), side).hexes


@pytest.mark.rule("10.1")
def test_a_unit_that_cannot_withdraw_is_eliminated() -> None:
    from pbem.games.rommel import withdrawal

    table = attacking()
    item = Withdrawal(seat="allied", hex="1605", group=("allied-01",), cause="refuse")
    state, events = withdrawal.ended(table.state.model_copy(update={"pending": (item,)}), item)
    assert state.tokens["allied-01"].status == "eliminated" and not state.pending
    assert [(e.kind, e.rule) for e in events][1:] == [("unit_eliminated", "10.1")]


@pytest.mark.rule("11.3")
def test_unshielded_disrupted_units_rout_as_a_player_turn_begins() -> None:
    """Notes §10.18: Disrupted units of both sides side by side; once one side's unit is upright again the other's
    Rout, interrupting play as the next Player-Turn begins."""
    table = Table("demo-1940")
    table.set_up()
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "end_movement"})
    disrupt(table, "allied-01")  # as if allied-01 and axis-02 had stood Disrupted together until axis-02 recovered
    tokens = dict(table.state.tokens)
    tokens["axis-02"] = tokens["axis-02"].model_copy(update={"hex": "1605"})
    table.state = table.state.model_copy(update={"tokens": tokens, "battles": {}})
    table.do("axis", {"action": "end_combat"})
    item = table.state.pending[-1]
    assert isinstance(item, Pursuit) and (item.cause, item.group, item.seat) == ("rout", ("allied-01",), "allied")
    assert any(e.kind == "routed" and e.rule == "11.3" for e in table.events)


@pytest.mark.rule("11.3")
def test_a_replay_that_cannot_see_the_routed_units_accepts_any_attrition_report_of_them() -> None:
    table = Table("demo-1940")
    table.set_up()
    disrupt(table, "allied-01")
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1605"})
    table.do("axis", {"action": "end_move"})
    hidden = {
        n: s.model_copy(update={"known": False, "value": None})
        for n, s in table.state.hidden.items()
        if s.owner == "allied"
    }
    table.state = table.state.model_copy(update={"hidden": {**table.state.hidden, **hidden}})
    assert table.legal("allied") == [
        {"action": "attrition", "eliminated": []},
        {"action": "attrition", "eliminated": ["allied-01"]},
    ]
    assert table.refusal("allied", {"action": "attrition", "eliminated": ["axis-06"]}) == (
        "11.3",
        "attrition-misreported",
    )
    table.do("allied", {"action": "attrition", "eliminated": []})
    assert not table.state.hidden[cv_slot("allied-01")].known  # changed in secret, a new version to commit
