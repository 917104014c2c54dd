"""Triad's rules of the contract-v2 scenarios (teams, solo), one test per rule section."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pbem.games.triad.ruleset import RULESET, SOLO_TARGET, TriadState
from pbem.replay.basics import state_hash
from pbem.rules.contract import Outcome, Roster, RosterSeat
from tests.helpers import Table

R = RULESET
TEAMS = {"red": "north", "green": "north", "blue": "south"}


def start(scenario: str) -> TriadState:
    teams = TEAMS if scenario == "teams" else {"red": "red"}
    roster = Roster(seats=tuple(RosterSeat(seat=s, team=t) for s, t in teams.items()))
    state = R.setup(scenario, {"rounds": 2}, roster, R.load_data(R.default_data()))
    for seat in state.seats:
        state = state.with_hidden(f"reserve/{seat}", seat, 2, known=True)
    return state.model_copy(update={"chosen": state.seats, "phase": "main"})


def do(state: TriadState, seat: str, action: dict[str, Any]) -> Any:
    assert action in R.legal_actions(state, seat), action
    return R.apply(state, seat, action)


def refusal(state: TriadState, seat: str, action: dict[str, Any]) -> tuple[str | None, str]:
    assert action not in R.legal_actions(state, seat)
    verdict = R.check(state, seat, action)
    assert not verdict.ok
    return verdict.rule, verdict.reason


def roll(state: TriadState, **dice: tuple[int, ...]) -> Any:
    return R.resume(state.without_first_roll(), Outcome(dice=dice))


def test_the_v1_scenarios_hash_as_before() -> None:
    """The v2 fields are left out of standard and duel states, so the old logs' checkpoints hold."""
    roster = Roster(seats=(RosterSeat(seat="red", team="red"), RosterSeat(seat="blue", team="blue")))
    state = R.setup("duel", {"rounds": 2}, roster, R.load_data(R.default_data()))
    assert not {"scenario", "teams", "resigned", "challenge", "extra_rolls"} & set(state.model_dump())
    assert state_hash(state) == state_hash(TriadState.model_validate(state.model_dump()))


@pytest.mark.rule("T9.1")
def test_t9_1_attacks_and_challenges_target_another_team() -> None:
    state = start("teams")
    assert refusal(state, "red", {"action": "attack", "target": "green"}) == ("T9.1", "teammate")
    assert refusal(state, "red", {"action": "challenge", "target": "green"}) == ("T9.1", "target")
    assert refusal(state, "red", {"action": "challenge"}) == ("T9.1", "no-target")
    assert {"action": "challenge", "target": "blue"} in R.legal_actions(state, "red")


@pytest.mark.rule("T9.4")
def test_t9_4_the_best_team_total_of_seats_still_in_wins() -> None:
    state = start("teams").model_copy(update={"phase": "over", "health": {"red": 1, "green": 1, "blue": 12}})
    result = R.result(state)
    assert result is not None and result.winners == ("blue",)  # 14 against 3 + 3
    dropped = state.model_copy(update={"resigned": ("blue",), "health": {"red": 1, "green": 1, "blue": 0}})
    result = R.result(dropped)
    assert result is not None and result.winners == ("red", "green") and "blue" not in result.score


@pytest.mark.rule("T10.2")
@pytest.mark.parametrize(("mine", "theirs", "red", "blue"), [(2, 5, 11, 12), (6, 1, 12, 11), (3, 3, 12, 12)])
def test_t10_2_the_lower_die_loses_one_health(mine: int, theirs: int, red: int, blue: int) -> None:
    state = do(start("teams"), "red", {"action": "challenge", "target": "blue"}).state
    assert [r.rolls[0].id for r in state.pending_rolls] == ["challenger", "challenged"]
    state = roll(state, challenger=(mine,)).state
    assert state.challenge.first == mine and [r.rolls[0].id for r in state.pending_rolls] == ["challenged"]
    step = roll(state, challenged=(theirs,))
    assert (step.state.health["red"], step.state.health["blue"]) == (red, blue)
    assert step.events[0].rule == "T10.2" and R.to_act(step.state) == ("green",)


@pytest.mark.rule("T10.3")
def test_t10_3_alone_beating_fate_heals_one() -> None:
    state = do(start("solo"), "red", {"action": "challenge"}).state
    healed = roll(roll(state, challenger=(5,)).state, challenged=(2,))
    state = healed.state
    assert state.health["red"] == 13 and healed.events[0].text.endswith("heals 1")
    state = state.model_copy(update={"turn": 0, "phase": "main", "round": 1})
    lost = do(state, "red", {"action": "challenge"}).state
    lost = roll(roll(lost, challenger=(1,)).state, challenged=(2,))
    assert lost.state.health["red"] == 12 and lost.events[0].rule == "T10.2"


@pytest.mark.rule("T11.1")
def test_t11_1_a_gift_goes_to_a_teammate_still_in_with_room_in_hand() -> None:
    state = start("teams")
    assert refusal(state, "red", {"action": "gift", "target": "blue"}) == ("T11.1", "not-a-teammate")
    full = state.model_copy(update={"hand": {**state.hand, "green": ("card/green/1", "card/green/2")}})
    assert refusal(full, "red", {"action": "gift", "target": "green"}) == ("T4.2", "hand-full")
    out = state.model_copy(update={"health": {**state.health, "green": 0}})
    assert refusal(out, "red", {"action": "gift", "target": "green"}) == ("T11.1", "out")
    request = do(state, "red", {"action": "gift", "target": "green"}).state.rolls
    assert (request.owner, request.slot) == ("green", "card/green/1")


@pytest.mark.rule("T12.1")
def test_t12_1_alone_the_seat_wins_by_reaching_the_target() -> None:
    state = start("solo").model_copy(update={"phase": "over"})
    assert [r["action"] for r in R.legal_actions(start("solo"), "red")].count("attack") == 0
    for health, winners in ((SOLO_TARGET - 2, ("red",)), (SOLO_TARGET - 3, ())):
        result = R.result(state.model_copy(update={"health": {"red": health}}))
        assert result is not None and result.winners == winners


@pytest.mark.rule("T9.2")
def test_t9_2_a_resignation_before_play_starts_ends_the_game() -> None:
    state = start("teams").model_copy(update={"phase": "setup"})
    assert R.on_resign(state, "green") is None
    assert R.on_resign(start("teams"), "green") is not None
    roster = Roster(seats=(RosterSeat(seat="red", team="red"), RosterSeat(seat="blue", team="blue")))
    duel = R.setup("duel", {"rounds": 2}, roster, R.load_data(R.default_data()))
    assert R.on_resign(duel.model_copy(update={"phase": "main"}), "red") is None  # the default elsewhere


@pytest.mark.rule("T11.2")
@pytest.mark.parametrize(("die", "health"), [(4, 13), (3, 12)])
def test_t11_2_a_rally_rolls_a_die_and_deals_the_teammate_a_card_at_once(die: int, health: int) -> None:
    state = do(start("teams"), "red", {"action": "rally", "target": "green"}).state
    public, draw = state.pending_rolls
    assert public.owner is None and (draw.owner, draw.slot) == ("green", "card/green/1")
    step = roll(state, rally=(die,))
    assert step.state.health["red"] == health and step.events[0].rule == "T11.2"
    assert step.state.pending_rolls == (draw,) and R.to_act(step.state) == ("red",)  # the turn waits for the card
    drawn = step.state.without_first_roll().with_hidden("card/green/1", "green", {"card": [3]}, known=True)
    done = R.resume(drawn, Outcome(drawn="card/green/1")).state
    assert done.hand["green"] == ("card/green/1",) and R.to_act(done) == ("green",)
    assert refusal(start("teams"), "red", {"action": "rally", "target": "blue"}) == ("T11.1", "not-a-teammate")


V2_PROBES = [
    {"action": "challenge"},
    *({"action": a, "target": t} for a in ("challenge", "gift", "rally", "attack") for t in ("red", "green", "blue")),
    {"action": "gift"},
    {"action": "rally", "target": "nobody"},
]


@pytest.mark.parametrize("scenario", ["teams", "solo"])
@pytest.mark.parametrize("seed", range(8))
def test_legal_actions_and_check_agree_on_reachable_v2_states(scenario: str, seed: int) -> None:
    from tests.rules.test_contract import advance

    rng = random.Random(seed)
    state: TriadState | None = start(scenario)
    while state is not None:
        R.assert_invariants(state)
        for seat in state.seats:
            legal = R.legal_actions(state, seat)
            assert all(R.check(state, seat, a).ok for a in legal)
            for probe in V2_PROBES:
                assert (probe in legal) == R.check(state, seat, probe).ok, (seat, probe)
        state = advance(R, state, rng)


@pytest.mark.parametrize(("scenario", "team_dice"), [("solo", False), ("teams", False), ("teams", True)])
@pytest.mark.parametrize("seed", range(3))
def test_random_v2_play_outs_finish_and_verify(tmp_path: Path, scenario: str, team_dice: bool, seed: int) -> None:
    table = Table.start(tmp_path, scenario, rounds=3, team_dice=team_dice)
    table.play_out(random.Random(seed))
    report = table.verify()
    assert report.valid and report.result is not None and report.audit == "complete"


@pytest.mark.slow
@pytest.mark.parametrize(("scenario", "team_dice"), [("solo", False), ("teams", False), ("teams", True)])
@pytest.mark.parametrize("seed", range(100, 140))
def test_random_v2_play_outs_finish_and_verify_many(tmp_path: Path, scenario: str, team_dice: bool, seed: int) -> None:
    table = Table.start(tmp_path, scenario, rounds=4, team_dice=team_dice)
    table.play_out(random.Random(seed))
    report = table.verify()
    assert report.valid and report.result is not None and report.audit == "complete"
