"""Rommel's off-board boxes (§16.4 sidebar, §16.52): reinforcements and refitted units held off the map while their
Base is engaged, brought in by a normal Group Move from the box; on the §19 demo (the Allied Base Alexandria 2605)."""

from __future__ import annotations

import pytest

from pbem.games.rommel import offboard
from pbem.games.rommel.buildup import start_buildup
from pbem.games.rommel.state import BattleRecord, RommelState, Token
from tests.games.rommel.rules_driver import R, Table
from tests.games.rommel.test_redeploy_rommel import allied_buildup

BASE = "2605"


def engaged(state: RommelState) -> RommelState:
    """Axis block 01 in the Allied Base beside Allied block 04: a battle there (§8)."""
    tokens = dict(state.tokens)
    for token in ("axis-01", "allied-04"):
        tokens[token] = tokens[token].model_copy(update={"hex": BASE})
    battles = {BASE: BattleRecord(defender="allied", attacker="axis", new=False)}
    return state.model_copy(update={"tokens": tokens, "battles": battles})


@pytest.mark.rule("16.4")
def test_reinforcements_wait_off_the_map_while_their_base_is_engaged() -> None:
    table = allied_buildup()
    arriving = [t for t, tok in table.state.tokens.items() if tok.group == "arrival-2"]
    placed = [t for t in arriving if table.state.tokens[t].status == "map"]
    assert placed and all(table.state.tokens[t].hex == BASE for t in placed)  # identified before: in the Base
    table = allied_buildup_engaged()
    held = [t for t, tok in table.state.tokens.items() if tok.group == "arrival-2" and tok.status == "waiting"]
    assert held and all(table.state.tokens[t].hex is None for t in held)
    assert [e.data["units"] for e in table.events if e.kind == "held_off_board"] == [[t] for t in held]
    assert {u.location for u in R.view(table.state, "@observer").units if u.id in held} == {"allied-box"}
    assert table.refusal("allied", {"action": "replace", "token": held[0]}) == ("16.54", "not-in-base")


def allied_buildup_engaged() -> Table:
    """The Allies' first Buildup with their Base engaged before they choose their reinforcements."""
    from tests.games.rommel.test_buildup_rommel import to_buildup

    table = to_buildup(dice=(6, 5))
    table.state = engaged(table.state)
    while any(a["action"] == "identify" for a in table.legal("allied")):
        table.do("allied", table.first_legal("allied", "identify"))
    return table


@pytest.mark.rule("16.52")
def test_refitted_units_returning_to_an_engaged_base_wait_off_the_map() -> None:
    table = allied_buildup()
    table.do("allied", {"action": "refit", "token": "allied-02"})
    state, events = start_buildup(engaged(table.state))
    assert state.tokens["allied-02"].status == "waiting" and state.tokens["allied-02"].hex is None
    assert [e.data["units"] for e in events if e.kind == "held_off_board"] == [["allied-02"]]
    told = next(e.text for e in events if e.kind == "held_off_board")
    assert told == "1 Allied unit waits in the Allied off-board box: their Base is engaged"


def allied_turn_with_a_waiting_unit() -> Table:
    """The Allied Player-Turn of the demo's first Month, Allied block 10 waiting in the box, the Base engaged."""
    table = Table("demo-1940")
    table.set_up()
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "end_movement"})
    table.do("axis", {"action": "end_combat"})
    state = engaged(table.state)
    waiting = Token(side="allied", group="arrival-2", status="waiting")
    table.state = state.model_copy(update={"tokens": {**state.tokens, "allied-10": waiting}})
    return table


@pytest.mark.rule("16.4")
def test_a_group_move_from_the_box_enters_the_engaged_base_and_joins_its_battle() -> None:
    table = allied_turn_with_a_waiting_unit()
    table.do("allied", {"action": "commit", "card": 0})
    table.do("allied", {"action": "select"})
    assert table.refusal("allied", {"action": "group", "origin": "axis-box", "rommel": False})[1] == "no-movers"
    table.do("allied", {"action": "group", "origin": "allied-box", "rommel": False})
    assert table.legal("allied")[:1] == [{"action": "step", "token": "allied-10", "to": BASE}]
    assert table.refusal("allied", {"action": "step", "token": "allied-10", "to": "2505"}) == ("16.4", "only-the-base")
    assert table.refusal("allied", {"action": "step", "token": "allied-04", "to": "2505"}) == ("16.4", "not-waiting")
    table.do("allied", {"action": "step", "token": "allied-10", "to": BASE})
    tok = table.state.tokens["allied-10"]
    assert (tok.status, tok.hex) == ("map", BASE) and BASE in table.state.battles
    assert table.refusal("allied", {"action": "step", "token": "allied-10", "to": "2505"})[1] == "not-waiting"  # in
    table.do("allied", {"action": "end_move"})
    assert table.state.turn.moves == 1 and not offboard.waiting(table.state, "allied")


@pytest.mark.rule("16.4")
def test_a_waiting_unit_moves_only_in_a_group_move_from_its_box() -> None:
    table = allied_turn_with_a_waiting_unit()
    table.do("allied", {"action": "commit", "card": 0})
    table.do("allied", {"action": "select"})
    table.do("allied", {"action": "group", "origin": "1705", "rommel": False})
    assert table.refusal("allied", {"action": "step", "token": "allied-10", "to": BASE}) == ("16.4", "not-from-box")
    passing = allied_turn_with_a_waiting_unit()
    passing.do("allied", {"action": "select"})  # a Pass: its free Withdrawal Move never comes from the box
    assert passing.refusal("allied", {"action": "withdraw_group", "origin": "allied-box", "rommel": False}) == (
        "16.4",
        "not-from-box",
    )


@pytest.mark.rule("17.2")
def test_waiting_and_refitting_units_count_in_their_base_at_the_end() -> None:
    table = allied_turn_with_a_waiting_unit()
    state, back = offboard.count_in(table.state)
    assert back == ["allied-10"] and state.tokens["allied-10"].hex == BASE and "allied-10" in state.on_map("allied")


def test_the_box_is_named_as_a_place_in_prompts() -> None:
    table = allied_turn_with_a_waiting_unit()
    assert R.label(table.state, "origin", "allied-box") == "the Allied off-board box (beyond Alexandria)"


@pytest.mark.rule("6.3")
@pytest.mark.rule("16.4")
def test_units_entering_from_the_box_take_no_rommel_bonus() -> None:
    """The step into the Base is the whole move (RULING), so the Rommel bonus would add nothing but use up the
    turn's bonus: it is neither offered nor allowed for a Group Move from the box (found in review)."""
    table = Table("1941")
    table.set_up()
    table.do("axis", table.first_legal("axis", "commit"))
    table.do("axis", {"action": "select"})
    waiting = Token(side="axis", group="malta", status="waiting")
    table.state = table.state.model_copy(update={"tokens": {**table.state.tokens, "axis-99": waiting}})
    box = offboard.box(table.state, "axis")
    offered = [a for a in table.legal("axis") if a["action"] == "group" and a["origin"] == box]
    assert offered == [{"action": "group", "origin": box, "rommel": False}]
    assert table.refusal("axis", {"action": "group", "origin": box, "rommel": True}) == ("6.3", "no-bonus-from-box")
