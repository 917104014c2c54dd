"""Skirmish's rules (the test game with a hex map and hidden blocks), one test per rule section."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pbem.errors import DataPackError
from pbem.games.skirmish.ruleset import RULESET, SkirmishState
from pbem.rules.contract import OMNISCIENT, Outcome, Roster, RosterSeat
from tests.helpers import Table

R = RULESET


def start(rounds: int = 4) -> SkirmishState:
    roster = Roster(seats=tuple(RosterSeat(seat=s, team=s) for s in ("red", "blue")))
    return R.setup("meeting", {"rounds": rounds}, roster, R.load_data(R.default_data()))


def do(state: SkirmishState, seat: str, action: dict[str, Any]) -> SkirmishState:
    assert action in R.legal_actions(state, seat), action
    logged = dict(action)
    for field, slot in R.secret_fields(state, seat, action).items():
        state = state.with_hidden(slot, seat, logged.pop(field), known=True)
    return R.apply(state, seat, logged).state


def refusal(state: SkirmishState, seat: str, action: dict[str, Any]) -> tuple[str | None, str]:
    assert action not in R.legal_actions(state, seat)
    verdict = R.check(state, seat, action)
    assert not verdict.ok
    return verdict.rule, verdict.reason


def deployed(red: tuple[int, int, int] = (1, 2, 3), blue: tuple[int, int, int] = (2, 2, 2)) -> SkirmishState:
    state = start()
    state = do(state, "red", {"action": "deploy", "s1": red[0], "s2": red[1], "s3": red[2]})
    return do(state, "blue", {"action": "deploy", "s1": blue[0], "s2": blue[1], "s3": blue[2]})


def placed(state: SkirmishState, **where: str | None) -> SkirmishState:
    return state.model_copy(update={"location": {**state.location, **where}})


@pytest.mark.rule("SK1.1")
def test_sk1_1_strengths_are_secret_and_one_to_three() -> None:
    state = start()
    assert set(R.to_act(state)) == {"red", "blue"}
    assert refusal(state, "red", {"action": "deploy", "s1": 4, "s2": 1, "s3": 1}) == ("SK1.1", "strength")
    state = deployed()
    enemy = {u.id: u for u in R.view(state, "red").units}
    assert enemy["b1"].hidden and enemy["b1"].strength is None  # blue's strengths are hidden from red
    assert not enemy["r3"].hidden and enemy["r3"].strength == 3


@pytest.mark.rule("SK1.2")
def test_sk1_2_strengths_total_at_most_the_budget() -> None:
    assert refusal(start(), "red", {"action": "deploy", "s1": 3, "s2": 3, "s3": 1}) == ("SK1.2", "budget")


@pytest.mark.rule("SK2")
def test_sk2_sides_take_turns() -> None:
    state = deployed()
    assert R.to_act(state) == ("red",)
    assert refusal(state, "blue", {"action": "pass"}) == ("SK2", "not-your-turn")
    state = do(state, "red", {"action": "pass"})
    assert R.to_act(state) == ("blue",)


@pytest.mark.rule("SK2.4")
def test_sk2_4_a_side_may_pass_its_turn() -> None:
    state = deployed()
    step = R.apply(state, "red", {"action": "pass"})
    assert [(e.kind, e.rule) for e in step.events] == [("passed", "SK2.4")]
    assert step.state.location == state.location and R.to_act(step.state) == ("blue",)


@pytest.mark.rule("SK2.1")
def test_sk2_1_a_block_moves_one_hex() -> None:
    state = deployed()
    assert refusal(state, "red", {"action": "move", "block": "r1", "to": "0302"}) == ("SK2.1", "not-adjacent")
    state = do(state, "red", {"action": "move", "block": "r1", "to": "0202"})
    assert state.location["r1"] == "0202"


@pytest.mark.rule("SK2.2")
def test_sk2_2_the_river_is_crossed_only_by_the_road() -> None:
    state = placed(deployed(), r1="0402", r2="0403")
    assert refusal(state, "red", {"action": "move", "block": "r1", "to": "0502"}) == ("SK2.2", "river")
    state = do(state, "red", {"action": "move", "block": "r2", "to": "0504"})  # the bridge
    assert state.location["r2"] == "0504"


@pytest.mark.rule("SK2.3")
def test_sk2_3_no_two_blocks_of_a_side_in_one_hex() -> None:
    state = deployed()
    assert refusal(state, "red", {"action": "move", "block": "r1", "to": "0103"}) == ("SK2.3", "stacking")


@pytest.mark.rule("SK3.1")
@pytest.mark.rule("SK3.2")
def test_sk3_1_attack_reveals_both_blocks_then_the_attacker_decides() -> None:
    state = placed(deployed(), r3="0604", b1="0704")
    assert refusal(state, "red", {"action": "move", "block": "r3", "to": "0704"}) == ("SK3.1", "enemy-hex")
    assert refusal(state, "red", {"action": "attack", "block": "r3", "target": "b3"}) == ("SK3.1", "not-adjacent")
    state = do(state, "red", {"action": "attack", "block": "r3", "target": "b1"})
    assert state.hidden["strength/r3"].must_open and state.hidden["strength/b1"].must_open
    assert R.legal_actions(state, "red") == [{"action": "press"}, {"action": "break_off"}]


@pytest.mark.rule("SK3.3")
@pytest.mark.rule("SK3.4")
@pytest.mark.rule("SK3.5")
def test_sk3_3_to_5_strength_plus_die_terrain_helps_defender_ties_hold() -> None:
    state = placed(deployed(red=(1, 2, 3), blue=(2, 2, 2)), r3="0604", b1="0705")  # 0705 is a hill
    state = do(state, "red", {"action": "attack", "block": "r3", "target": "b1"})
    state = state.model_copy(update={"hidden": {k: v.model_copy(update={"must_open": False, "public": True})
                                                for k, v in state.hidden.items()}})  # fmt: skip
    state = R.apply(state, "red", {"action": "press"}).state
    step = R.resume(state.model_copy(update={"rolls": None}), Outcome(dice={"attack": (3,), "defense": (3,)}))
    combat = next(e for e in step.events if e.kind == "combat_resolved")
    assert [s["total"] for s in combat.data["sides"]] == [6, 6]  # 3+3 against 2+3+1 (hill): a tie
    assert combat.data["result"] == "defender holds" and step.state.location["r3"] is None
    state = placed(step.state, r2="0604", b1="0704")
    state = state.model_copy(update={"side": "red"})
    state = do(state, "red", {"action": "attack", "block": "r2", "target": "b1"})
    state = R.apply(state, "red", {"action": "press"}).state
    step = R.resume(state.model_copy(update={"rolls": None}), Outcome(dice={"attack": (6,), "defense": (1,)}))
    assert step.state.location["b1"] is None and step.state.location["r2"] == "0704"  # the winner advances


@pytest.mark.rule("SK4.1")
@pytest.mark.rule("SK4.2")
def test_sk4_the_game_ends_after_the_last_round_and_towns_score_double() -> None:
    state = placed(deployed(), r1="0403")  # a town
    for _ in range(4):
        state = do(state, "red", {"action": "pass"})
        state = do(state, "blue", {"action": "pass"})
    result = R.result(state)
    assert result is not None and result.score == {"red": 5, "blue": 3} and result.winners == ("red",)


def test_the_data_pack_refuses_a_road_between_hexes_that_do_not_touch() -> None:
    raw = R.default_data().replace(b'"0103","0203"', b'"0103","0803"')
    with pytest.raises(DataPackError):
        R.load_data(raw)


@pytest.mark.parametrize("seed", [1, 2])
def test_play_outs_verify_and_the_audit_opens_every_block(tmp_path: Path, seed: int) -> None:
    table = Table.start(tmp_path, "meeting", game="skirmish", options={"rounds": 3})
    table.play_out(random.Random(seed))
    report = table.verify()
    assert report.valid and report.result is not None and report.audit == "complete"
    game = table.replay().game
    assert game is not None and game.state is not None
    assert all(u.strength is not None for u in R.view(game.state, OMNISCIENT).units)
