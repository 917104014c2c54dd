"""Rommel: the Pass Turn's free Withdrawal Move (§4.5, §5.3) on the §19 demo set-up (Axis: Bardia 1504, Ft. Capuzzo
1505, Sidi Omar 1506; Allies next to them in the east)."""

from __future__ import annotations

import pytest

from tests.games.rommel.rules_driver import R
from tests.games.rommel.test_turn_rommel import demo


@pytest.mark.rule("4.5")
def test_a_pass_turn_makes_one_free_withdrawal_and_nothing_else() -> None:
    table = demo()
    table.do("axis", {"action": "select"})
    assert table.refusal("axis", {"action": "group", "origin": "1506", "rommel": False}) == ("4.0", "option-spent")
    table.do("axis", {"action": "withdraw_group", "origin": "1506", "rommel": False})
    for token in ("axis-06", "axis-07", "axis-08"):  # Sidi Omar falls back on Ft. Capuzzo
        table.do("axis", {"action": "step", "token": token, "to": "1505"})
    table.do("axis", {"action": "end_move"})
    assert {table.state.tokens[t].hex for t in ("axis-06", "axis-07", "axis-08")} == {"1505"}
    assert table.state.turn.moves == 0 and table.state.turn.withdrawn == ("axis-06", "axis-07", "axis-08")
    assert table.refusal("axis", {"action": "withdraw_group", "origin": "1505", "rommel": False}) == (
        "4.5",
        "withdrawn",
    )
    regroup = {"action": "withdraw_regroup", "command_point": "1505", "destination": "1504", "rommel": False}
    assert table.refusal("axis", regroup) == ("4.5", "withdrawn")
    assert table.refusal("axis", {"action": "force", "token": "axis-06", "to": "1504"}) == ("4.5", "withdrawn")
    table.do("axis", {"action": "end_movement"})
    table.do("axis", {"action": "end_combat"})
    assert table.state.active == "allied" and table.state.passes == 1 and table.state.forfeit is None


@pytest.mark.rule("4.5")
def test_the_free_withdrawal_is_the_only_move_of_its_turn() -> None:
    table = demo()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1507"})
    table.do("axis", {"action": "end_move"})
    assert table.refusal("axis", {"action": "withdraw_group", "origin": "1505", "rommel": False}) == (
        "4.5",
        "not-a-pass",
    )


@pytest.mark.rule("5.3")
def test_a_withdrawal_goes_back_along_its_own_line_without_engaging() -> None:
    table = demo()
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "withdraw_group", "origin": "1506", "rommel": False})
    step = {"action": "step", "token": "axis-06"}
    assert table.refusal("axis", {**step, "to": "1605"}) == ("5.3", "engages")
    assert table.refusal("axis", {**step, "to": "1606"}) == ("5.3", "away-from-base")
    assert table.refusal("axis", {**step, "to": "1507"}) == ("5.3", "not-along-supply-line")
    assert R.check(table.state, "axis", {**step, "to": "1505"}).ok


@pytest.mark.rule("5.3")
def test_a_withdrawal_must_reduce_the_supply_network() -> None:
    table = demo()
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "withdraw_group", "origin": "1505", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1504"})  # Ft. Capuzzo stays held
    assert table.refusal("axis", {"action": "end_move"}) == ("5.3", "network-not-reduced")


@pytest.mark.rule("5.3")
def test_a_regroup_withdrawal_is_offered_and_checked_like_a_group_one() -> None:
    table = demo()
    table.do("axis", {"action": "select"})
    offered = [a for a in table.legal("axis") if a["action"] == "withdraw_regroup"]
    assert {"action": "withdraw_regroup", "command_point": "1506", "destination": "1505", "rommel": False} in offered
    attack = {"action": "withdraw_regroup", "command_point": "1506", "destination": "1605", "rommel": False}
    table.do("axis", attack)
    assert table.refusal("axis", {"action": "step", "token": "axis-06", "to": "1605"}) == ("5.3", "engages")
    table = demo()
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "withdraw_regroup", "command_point": "1506", "destination": "1505", "rommel": False})
    for token in ("axis-06", "axis-07", "axis-08"):
        table.do("axis", {"action": "step", "token": token, "to": "1505"})
    table.do("axis", {"action": "end_move"})
    assert table.state.turn.withdrawn == ("axis-06", "axis-07", "axis-08")


@pytest.mark.rule("5.3")
def test_a_withdrawal_that_cannot_qualify_is_taken_back_and_spends_the_free_move() -> None:
    table = demo()
    assert table.refusal("axis", {"action": "void_withdrawal"}) == ("5.3", "no-withdrawal")
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "withdraw_group", "origin": "1505", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1504"})
    assert table.refusal("axis", {"action": "end_move"}) == ("5.3", "network-not-reduced")
    table.do("axis", {"action": "void_withdrawal"})
    assert table.state.tokens["axis-02"].hex == "1505" and "axis-02" not in table.state.turn.paths
    assert [e.kind for e in table.events][-1] == "withdrawal_voided"
    assert table.refusal("axis", {"action": "withdraw_group", "origin": "1506", "rommel": False}) == (
        "4.5",
        "withdrawn",
    )
    table.do("axis", {"action": "end_movement"})


@pytest.mark.rule("4.5")
def test_a_withdrawal_taken_back_leaves_the_moves_the_cards_pay_for() -> None:
    table = demo()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "withdraw_group", "origin": "1505", "rommel": False})
    table.do("axis", {"action": "void_withdrawal"})
    assert R.check(table.state, "axis", {"action": "group", "origin": "1506", "rommel": False}).ok
    assert table.refusal("axis", {"action": "withdraw_group", "origin": "1506", "rommel": False}) == (
        "4.5",
        "withdrawn",
    )


@pytest.mark.rule("4.5")
def test_a_regroup_withdrawal_makes_no_forced_march_into_its_destination() -> None:
    table = demo()
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "withdraw_regroup", "command_point": "1506", "destination": "1405", "rommel": False})
    # the leg infantry axis-07 reaches 1405 only by a Forced March, which a Withdrawal never makes
    assert table.refusal("axis", {"action": "step", "token": "axis-07", "to": "1505"}) == ("5.2", "not-to-destination")


@pytest.mark.rule("5.3")
def test_a_withdrawal_never_leaves_the_map_at_the_enemy_end() -> None:
    from pbem.games.rommel import moves

    table = demo()
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "withdraw_group", "origin": "1506", "rommel": False})
    edge = sorted(moves.exit_hexes(table.state, "axis"))[0]  # as if Sidi Omar's group stood on the enemy map-end
    tok = table.state.tokens["axis-06"].model_copy(update={"hex": edge})
    turn = table.state.turn.model_copy(update={"move": ("group", edge)})
    table.state = table.state.model_copy(update={"tokens": {**table.state.tokens, "axis-06": tok}, "turn": turn})
    assert table.refusal("axis", {"action": "step", "token": "axis-06", "to": "exit"}) == ("5.3", "away-from-base")
