"""Probe Combat (§10.41: the Passive Player's option after a Partial Retreat, roles reversed, Pursuit Fire by unfired
probers if the Rearguard falls) and Blitz Movement and Combat (§4.4, §3.45, §3.46)."""

from __future__ import annotations

import pytest

from pbem.games.rommel import turns
from pbem.games.rommel.state import Fight, Probe, Pursuit, TurnRecord, cv_slot
from tests.games.rommel.rules_driver import R, Table
from tests.games.rommel.test_turn_combat_rommel import two_attackers
from tests.games.rommel.test_turn_rommel import DUMMY, demo


def partial(dice: list[int]) -> Table:
    """axis-06 leaves the battle at Sollum (1605), axis-02 stays as the Rearguard (CV 1 here); allied-02 has joined
    allied-01 there."""
    table = two_attackers()
    tokens = dict(table.state.tokens)
    tokens["allied-02"] = tokens["allied-02"].model_copy(update={"hex": "1605"})
    table.state = table.state.model_copy(update={"tokens": tokens}).with_hidden(
        cv_slot("axis-02"), "axis", 1, known=True
    )
    table.dice = dice
    table.do("axis", {"action": "group", "origin": "1605", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1506"})
    table.do("axis", {"action": "end_move"})
    return table


@pytest.mark.rule("10.41")
def test_the_passive_player_may_probe_a_partial_retreat() -> None:
    table = partial([])
    item = table.state.pending[-1]
    assert isinstance(item, Probe) and (item.seat, item.hex, item.group) == ("allied", "1605", ("axis-06",))
    assert table.legal("allied") == [{"action": "probe", "provoke": True}, {"action": "probe", "provoke": False}]
    table.do("allied", {"action": "probe", "provoke": False})
    assert not table.state.pending  # declined: the disengaging units take no Pursuit Fire
    assert any(e.kind == "probe_declined" for e in table.events)


@pytest.mark.rule("10.41")
def test_probe_combat_reverses_the_roles_and_pursues_if_the_rearguard_falls() -> None:
    table = partial([1, 6, 1, 1])
    table.do("allied", {"action": "probe", "provoke": True})
    fight = table.state.pending[-1]
    assert isinstance(fight, Fight) and fight.initiator == "allied" and fight.probe == ("axis-06",)
    assert R.to_act(table.state) == ("axis",)  # the Rearguard fires Defensive Fire first
    assert "1605" not in table.state.turn.fought  # not the Active Player's Combat Round
    table.do("axis", {"action": "fire", "token": "axis-02", "target": "infantry"})  # 1: a miss
    table.do("allied", {"action": "fire", "token": "allied-01", "target": "infantry"})  # 6, 1, 1: one hit
    table.do("axis", {"action": "losses", "target": "infantry", "losses": {"axis-02": 1}})
    assert table.state.tokens["axis-02"].status == "eliminated"
    item = table.state.pending[-1]
    # the Partial Retreat became a Full one: allied-02, which did not fire, pursues the disengaging group
    assert isinstance(item, Pursuit) and (item.cause, item.group, item.pursuers) == (
        "probe",
        ("axis-06",),
        ("allied-02",),
    )


@pytest.mark.rule("10.41")
def test_a_surviving_rearguard_protects_the_disengaging_units() -> None:
    table = partial([1, 1, 1, 1])
    table.do("allied", {"action": "probe", "provoke": True})
    table.do("axis", {"action": "fire", "token": "axis-02", "target": "infantry"})
    table.do("allied", {"action": "fire", "token": "allied-01", "target": "infantry"})
    while table.state.pending:
        seat = R.to_act(table.state)[0]
        table.do(seat, {"action": "cease"} if {"action": "cease"} in table.legal(seat) else table.legal(seat)[0])
    assert table.state.tokens["axis-02"].status == "map" and not any(e.kind == "pursuit_begun" for e in table.events)


def blitzing() -> Table:
    """The Axis commits three real cards (a Blitz Turn), moves axis-06 and ends its first Combat phase."""
    table = demo()
    for card in (0, 1, 2):
        table.do("axis", {"action": "commit", "card": card})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1507"})
    table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    return table


@pytest.mark.rule("4.4")
def test_a_blitz_turn_has_a_second_move_with_other_units() -> None:
    table = blitzing()
    table.state = table.state.model_copy(update={"turn": table.state.turn.model_copy(update={"engaged": {"x": 1}})})
    assert {"action": "blitz"} in table.legal("axis")
    table.do("axis", {"action": "blitz"})
    turn = table.state.turn
    assert (turn.stage, turn.blitz, turn.engaged) == ("movement", True, {})  # hexside limits reset
    assert table.refusal("axis", {"action": "blitz"})[0] == "4.4"
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    assert table.refusal("axis", {"action": "step", "token": "axis-06", "to": "1508"}) == ("4.2", "moved-once")
    table.do("axis", {"action": "step", "token": "axis-07", "to": "1507"})
    table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    assert {"action": "blitz"} not in table.legal("axis")
    table.do("axis", {"action": "end_combat"})
    assert table.state.active == "allied" and not table.state.forfeit


@pytest.mark.rule("4.4")
def test_a_blitz_needs_three_real_cards_and_one_move() -> None:
    table = demo()
    for card in (0, 1):
        table.do("axis", {"action": "commit", "card": card})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "end_movement"})
    assert table.refusal("axis", {"action": "blitz"}) == ("4.4", "not-blitz-paid")
    table = demo()
    for card in (0, 1, 2):
        table.do("axis", {"action": "commit", "card": card})
    table.do("axis", {"action": "select"})
    for origin, token in (("1506", "axis-06"), ("1505", "axis-03")):
        table.do("axis", {"action": "group", "origin": origin, "rommel": False})
        table.do("axis", {"action": "step", "token": token, "to": "1507" if origin == "1506" else "1506"})
        table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    assert table.refusal("axis", {"action": "blitz"}) == ("4.4", "two-moves")


@pytest.mark.rule("4.4")
def test_a_blitz_paid_with_fewer_than_three_real_cards_is_forfeited_at_the_reveal() -> None:
    table = demo()
    record = TurnRecord(committed=(0, 1, 2), moves=2, blitz=True, stage="reveal")
    after, events = turns.revealed(table.state.model_copy(update={"turn": record}), (0, 1, DUMMY))
    assert after.forfeit == "axis" and [e.rule for e in events] == ["3.48", "4.0"]
    after, _ = turns.revealed(table.state.model_copy(update={"turn": record}), (0, 1, 2))
    assert after.forfeit is None


@pytest.mark.rule("10.41")
def test_probing_original_defenders_get_no_fortress_or_minefield_benefit() -> None:
    from pbem.games.rommel import fights

    table = partial([])
    state = table.state
    battles = {**state.battles, "1605": state.battles["1605"].model_copy(update={"fortress": True})}
    table.state = state.model_copy(update={"battles": battles, "minefields": ("1605",)})
    table.do("allied", {"action": "probe", "provoke": True})
    fight = table.state.pending[-1]
    assert isinstance(fight, Fight) and fight.defender == "allied" == fight.initiator
    here = fights.battle_hex(table.state, fight)
    assert here is not None and not here.fortress and not here.minefield  # the Axis Rearguard attacked Sollum
