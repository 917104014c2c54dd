"""Rommel Player-Turns: Turn Options committed face down (§3.42, §4), Group Moves (§5.1), speed and roads (§6),
engaging (§7, §8), the reveal (§3.48) and the end of the Month (§3.1, §4.5)."""

from __future__ import annotations

import pytest

from pbem.games.rommel import turns
from pbem.games.rommel.moves import finishes
from pbem.games.rommel.state import TurnRecord
from tests.games.rommel.rules_driver import R, Table

DUMMY = 28  # the pack's first dummy card (28 real cards first)


def demo(axis_cards: list[int] | None = None) -> Table:
    """The §19 demo set up (Axis 6 cards, Allies 3), with the Axis hand given (real cards by default)."""
    axis = axis_cards if axis_cards is not None else [0, 1, 2, 3, 4, 5]
    allied = [c for c in range(42) if c not in axis][:3]
    rest = [c for c in range(42) if c not in axis and c not in allied]
    table = Table("demo-1940", cards=[*axis, *allied, *rest])
    table.set_up()
    return table


def begin(table: Table, cards: list[int], origin: str, seat: str = "axis") -> None:
    for card in cards:
        table.do(seat, {"action": "commit", "card": card})
    table.do(seat, {"action": "select"})
    table.do(seat, {"action": "group", "origin": origin, "rommel": False})


@pytest.mark.rule("3.42")
def test_cards_are_committed_from_the_hand_once() -> None:
    table = demo()
    assert table.refusal("axis", {"action": "commit", "card": 6}) == ("3.42", "not-held")
    table.do("axis", {"action": "commit", "card": 0})
    assert table.refusal("axis", {"action": "commit", "card": 0}) == ("3.42", "already-committed")
    table.do("axis", {"action": "select"})
    assert table.refusal("axis", {"action": "commit", "card": 1}) == ("3.42", "not-selecting")
    assert table.refusal("axis", {"action": "select"}) == ("3.42", "not-selecting")


@pytest.mark.rule("4.0")
def test_moves_are_what_the_real_cards_pay_for() -> None:
    table = demo([DUMMY, 0, 1, 2, 3, 4])
    table.do("axis", {"action": "commit", "card": 0})  # a dummy: a (bluffed) Pass
    table.do("axis", {"action": "select"})
    assert table.refusal("axis", {"action": "group", "origin": "1505", "rommel": False}) == ("4.0", "option-spent")
    table = demo()
    begin(table, [0], "1506")
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1507"})
    table.do("axis", {"action": "end_move"})
    assert table.refusal("axis", {"action": "group", "origin": "1505", "rommel": False}) == ("4.0", "option-spent")


@pytest.mark.rule("4.2")
def test_two_real_cards_buy_two_moves_and_a_unit_moves_once() -> None:
    table = demo()
    begin(table, [0, 1], "1506")
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1507"})
    table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "group", "origin": "1505", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1506"})
    assert table.refusal("axis", {"action": "step", "token": "axis-06", "to": "1407"})[1] in ("moved-once",)


@pytest.mark.rule("5.1")
def test_a_group_moves_from_its_origin() -> None:
    table = demo()
    for card in (0,):
        table.do("axis", {"action": "commit", "card": card})
    table.do("axis", {"action": "select"})
    assert table.refusal("axis", {"action": "group", "origin": "1705", "rommel": False}) == ("5.1", "no-movers")
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    assert table.refusal("axis", {"action": "end_move"}) == ("5.1", "no-movers")
    assert table.refusal("axis", {"action": "step", "token": "axis-02", "to": "1406"}) == ("5.1", "not-in-group")
    assert table.refusal("axis", {"action": "step", "token": "allied-04", "to": "1707"}) == ("5.0", "not-own-unit")


@pytest.mark.rule("5.0")
def test_units_move_only_within_a_move() -> None:
    table = demo()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    assert table.refusal("axis", {"action": "step", "token": "axis-06", "to": "1507"}) == ("5.0", "no-move")
    assert table.refusal("axis", {"action": "end_move"}) == ("5.0", "no-move")
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    assert table.refusal("axis", {"action": "group", "origin": "1505", "rommel": False}) == ("5.0", "not-now")


@pytest.mark.rule("6.1")
def test_a_known_unit_moves_no_further_than_its_speed() -> None:
    table = demo()
    begin(table, [0], "1506")
    # axis-07 is Italian leg infantry (speed 1): one hex off the road, then no further
    table.do("axis", {"action": "step", "token": "axis-07", "to": "1507"})
    rule, reason = table.refusal("axis", {"action": "step", "token": "axis-07", "to": "1508"})
    assert (rule, reason) == ("6.1", "over-budget")
    assert [c.value for c in table.state.claims] == [1]  # the public claim: speed at least 1


@pytest.mark.rule("6.3")
def test_no_rommel_bonus_in_1940_and_never_for_the_allies() -> None:
    table = demo()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    assert table.refusal("axis", {"action": "group", "origin": "1506", "rommel": True}) == ("6.3", "no-rommel")
    table.state = table.state.model_copy(update={"active": "allied", "turn": table.state.turn})
    table.state = table.state.model_copy(update={"turn": TurnRecord(committed=(0,), stage="movement")})
    assert R.check(table.state, "allied", {"action": "group", "origin": "1705", "rommel": True}).rule == "6.3"


@pytest.mark.rule("7.0")
def test_engaging_stops_the_unit_and_opens_a_battle() -> None:
    table = demo()
    begin(table, [0], "1505")
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1605"})  # Sollum holds an Allied unit
    battle = table.state.battles["1605"]
    assert (battle.attacker, battle.defender, battle.new) == ("axis", "allied", True)
    assert list(battle.crossed.values()) == ["axis"]  # §8.1: the hexside is the Attacker's
    assert table.refusal("axis", {"action": "step", "token": "axis-02", "to": "1705"})[1] in ("after-stop",)


@pytest.mark.rule("7.1")
def test_hexside_limits_count_engagements() -> None:
    table = demo()
    begin(table, [0], "1505")
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1605"})
    # 1505-1605 is a Gap (the Sollum pass): one unit per Movement phase
    assert table.refusal("axis", {"action": "step", "token": "axis-03", "to": "1605"}) == ("7.1", "hexside-limit")


@pytest.mark.rule("8.6")
def test_a_new_battle_must_be_fought() -> None:
    table = demo()
    begin(table, [0], "1505")
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1605"})
    table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    table.do("allied", {"action": "accept_battle"})  # §8.4: the Passive Player does not Refuse Battle
    assert table.refusal("axis", {"action": "end_combat"}) == ("8.6", "new-battle")


@pytest.mark.rule("3.43")
def test_movement_ends_before_combat() -> None:
    table = demo()
    begin(table, [0], "1506")
    assert table.refusal("axis", {"action": "end_movement"}) == ("3.43", "move-under-way")
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1507"})
    table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    assert table.refusal("axis", {"action": "end_movement"}) == ("3.43", "not-movement")


@pytest.mark.rule("3.44")
def test_combat_ends_the_turn_and_reveals_the_cards() -> None:
    table = demo()
    assert table.refusal("axis", {"action": "end_combat"}) == ("3.44", "not-combat")
    begin(table, [0, 5], "1506")
    table.do("axis", {"action": "end_move"}, listed=False) if False else None
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1507"})
    table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    table.do("axis", {"action": "end_combat"})
    assert table.state.active == "allied" and table.state.decks["supply"].faceup == (0, 5)
    revealed = next(e for e in table.events if e.kind == "supply_revealed")
    assert revealed.rule == "3.48" and revealed.data["real"] == 2


@pytest.mark.rule("3.48")
def test_an_unpaid_turn_is_forfeited_at_the_reveal() -> None:
    table = demo()
    state = table.state.model_copy(update={"turn": TurnRecord(committed=(0,), moves=1, stage="reveal")})
    after, events = turns.revealed(state, (DUMMY,))
    assert after.forfeit == "axis" and after.winner == "allied"
    assert [e.rule for e in events] == ["3.48", "4.0"]
    assert R.result(after) is not None and R.result(after).winners == ("allied",)  # type: ignore[union-attr]


@pytest.mark.rule("3.1")
def test_two_passes_in_succession_end_the_month() -> None:
    table = Table("demo-1940", dice=[3, 5])
    table.set_up()
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "end_movement"})
    table.do("axis", {"action": "end_combat"})
    assert table.state.passes == 1 and table.state.active == "allied"
    table.do("allied", {"action": "select"})
    table.do("allied", {"action": "end_movement"})
    table.do("allied", {"action": "end_combat"})
    assert table.state.phase == "advance" and table.state.month == 1
    table.do("axis", {"action": "advance"})
    assert table.state.phase == "buildup" and table.state.month == 2
    assert any(e.kind == "month_ended" and e.rule == "3.1" for e in table.events)


@pytest.mark.rule("4.5")
def test_a_bluffed_pass_counts_as_a_pass() -> None:
    table = demo([DUMMY, DUMMY + 1, 0, 1, 2, 3])
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "commit", "card": 1})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "end_movement"})
    table.do("axis", {"action": "end_combat"})
    assert table.state.passes == 1


@pytest.mark.rule("7.2")
def test_disengaging_units_are_disrupted() -> None:
    table = demo()
    begin(table, [0], "1505")
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1605"})
    table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    table.do("allied", {"action": "accept_battle"})  # §8.4: the Passive Player does not Refuse Battle
    state = table.state
    record = state.battles["1605"].model_copy(update={"new": False})
    table.state = state.model_copy(
        update={"battles": {"1605": record}, "active": "allied", "turn": TurnRecord(committed=(0,), stage="movement")}
    )
    table.do("allied", {"action": "group", "origin": "1605", "rommel": False})
    side = next(s for s in table.legal("allied") if s["action"] == "step" and s["token"] == "allied-01")
    table.do("allied", side)
    table.do("allied", {"action": "end_move"})
    assert table.state.tokens["allied-01"].disrupted
    assert "1605" not in table.state.battles  # the battle ends when one side has left
    assert table.state.position().unit("allied-01") is not None


@pytest.mark.rule("7.2")
def test_a_disengaging_unit_cannot_finish_back_in_the_battle_hex_it_left() -> None:
    """Coming back Engages again, which the step check refuses; the search of where a mover may still end must
    agree, or a Regroup towards that hex strands the mover with no legal action (found by a random play-out)."""
    table = demo()
    begin(table, [0], "1505")
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1605"})
    table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    table.do("allied", {"action": "accept_battle"})  # §8.4: the Passive Player does not Refuse Battle
    state = table.state
    record = state.battles["1605"].model_copy(update={"new": False})
    table.state = state.model_copy(
        update={"battles": {"1605": record}, "active": "allied", "turn": TurnRecord(committed=(0,), stage="movement")}
    )
    table.do("allied", {"action": "group", "origin": "1605", "rommel": False})
    side = next(s for s in table.legal("allied") if s["action"] == "step" and s["token"] == "allied-01")
    table.do("allied", side)
    path = table.state.turn.current
    assert path[0] == "1605" and len(path) == 2
    assert "1605" not in finishes(table.state, "allied", "allied-01", path)
    assert table.refusal("allied", {"action": "step", "token": "allied-01", "to": "1605"})[0] == "7.2"


@pytest.mark.rule("13.4")
def test_fortresses_change_hands_at_the_end_of_a_player_turn() -> None:
    table = demo()
    bardia = table.state.pack.place("bardia")
    assert table.state.fortresses[bardia.id] == "axis"


def forced(die: int) -> Table:
    table = Table("demo-1940", dice=[die])
    table.set_up()
    begin(table, [0], "1506")
    table.do("axis", {"action": "step", "token": "axis-07", "to": "1507"})  # leg infantry: its whole range
    assert table.refusal("axis", {"action": "force", "token": "axis-07", "to": "1508"}) == ("6.4", "not-now")
    table.do("axis", {"action": "end_move"})
    assert table.refusal("axis", {"action": "force", "token": "axis-08", "to": "1507"}) == ("6.4", "not-moved")
    table.do("axis", {"action": "force", "token": "axis-07", "to": "1508"})
    assert table.refusal("axis", {"action": "force", "token": "axis-07", "to": "1508"})[1] == "already-forced"
    table.do("axis", {"action": "end_movement"})
    return table


@pytest.mark.rule("6.4")
def test_a_forced_march_moves_one_hex_more_on_4_to_6() -> None:
    from pbem.games.rommel.audit import audit

    table = forced(4)
    assert table.state.tokens["axis-07"].hex == "1508" and not table.state.tokens["axis-07"].disrupted
    assert table.state.claims[-1].value == 1  # the extra hex is the Forced March's, not the unit's speed
    assert audit(table.state) is None
    failed = forced(3)
    assert failed.state.tokens["axis-07"].hex == "1507" and failed.state.tokens["axis-07"].disrupted
    assert [e.rule for e in failed.events if e.kind == "forced_march_failed"] == ["6.4"]


@pytest.mark.rule("5.2")
def test_a_regroup_brings_units_from_around_the_command_point_to_one_hex() -> None:
    table = demo()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    far = {"action": "regroup", "command_point": "1505", "destination": "0108", "rommel": False}
    assert table.refusal("axis", far) == ("5.2", "no-movers")
    enemy = {"action": "regroup", "command_point": "1605", "destination": "1505", "rommel": False}
    assert table.refusal("axis", enemy) == ("5.2", "enemy-command-point")
    table.do("axis", {"action": "regroup", "command_point": "1505", "destination": "1406", "rommel": False})
    # axis-06 (motorized, speed 2) in Sidi Omar, next to the Command Point: into the enemy it would stop short
    assert table.refusal("axis", {"action": "step", "token": "axis-06", "to": "1605"}) == ("5.2", "not-to-destination")
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1505"})
    assert table.refusal("axis", {"action": "end_move"}) == ("5.2", "not-to-destination")
    assert table.refusal("axis", {"action": "step", "token": "axis-02", "to": "1406"}) == ("5.2", "finish-first")
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1406"})
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1406"})  # from the Command Point itself
    table.do("axis", {"action": "end_move"})
    assert {table.state.tokens[t].hex for t in ("axis-02", "axis-06")} == {"1406"}
    assert table.refusal("axis", {"action": "force", "token": "axis-06", "to": "1407"}) == ("5.2", "regrouped")


@pytest.mark.rule("5.2")
def test_units_far_from_the_command_point_do_not_regroup() -> None:
    table = demo()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "regroup", "command_point": "1504", "destination": "1404", "rommel": False})
    assert table.refusal("axis", {"action": "step", "token": "axis-06", "to": "1505"}) == (
        "5.2",
        "not-near-command-point",
    )
    again = {"action": "regroup", "command_point": "1605", "destination": "1505", "rommel": False}
    assert table.refusal("axis", again) == ("5.0", "not-now")


@pytest.mark.rule("3.0")
def test_only_the_seat_the_game_waits_for_acts() -> None:
    table = demo()
    assert R.legal_actions(table.state, "allied") == []
    assert table.refusal("allied", {"action": "select"}) == ("3.0", "not-your-turn")
    waiting = table.state.model_copy(update={"turn": table.state.turn.model_copy(update={"stage": "reveal"})})
    assert R.to_act(waiting) == () and not R.check(waiting, "axis", {"action": "select"}).ok


@pytest.mark.rule("3.48")
def test_the_turn_that_ends_is_credited_to_its_own_player_even_without_cards() -> None:
    """A Select with no card committed goes straight on to the next Player-Turn: the end of the turn is still the
    Axis player's (found in review: the event named the next player)."""
    table = demo()
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "end_movement"})
    table.do("axis", {"action": "end_combat"})
    ended = [e for e in table.events if e.kind == "turn_ended"]
    assert [e.seat for e in ended] == ["axis"] and table.state.active == "allied"
