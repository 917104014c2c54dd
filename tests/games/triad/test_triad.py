"""Triad's rules, one test per rule section (the test game proving the engine contract)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pbem.errors import ActionError
from pbem.games.triad.ruleset import RULESET, TriadState
from pbem.rules.contract import Outcome, Roster, RosterSeat
from tests.helpers import Table

R = RULESET


def start(seats: tuple[str, ...] = ("red", "blue"), rounds: int = 2) -> TriadState:
    roster = Roster(seats=tuple(RosterSeat(seat=s, team=s) for s in seats))
    return R.setup("duel", {"rounds": rounds}, roster, R.load_data(R.default_data()))


def do(state: TriadState, seat: str, action: dict[str, Any]) -> TriadState:
    """Apply a legal action as the engine would (secret fields go to their slot first)."""
    assert action in R.legal_actions(state, seat), action
    assert R.check(state, seat, action).ok
    logged = dict(action)
    for field, slot in R.secret_fields(state, seat, action).items():
        state = state.with_hidden(slot, seat, logged.pop(field), known=True)
    return R.apply(state, seat, logged).state


def refusal(state: TriadState, seat: str, action: dict[str, Any]) -> tuple[str | None, str]:
    assert action not in R.legal_actions(state, seat)
    verdict = R.check(state, seat, action)
    assert not verdict.ok
    return verdict.rule, verdict.reason


def in_play(reserves: tuple[int, int] = (2, 3)) -> TriadState:
    state = start()
    state = do(state, "red", {"action": "choose_reserve", "value": reserves[0]})
    return do(state, "blue", {"action": "choose_reserve", "value": reserves[1]})


@pytest.mark.rule("T1.1")
def test_t1_1_reserve_is_chosen_secretly_within_its_range(tmp_path: Path) -> None:
    state = start()
    assert set(R.to_act(state)) == {"red", "blue"}  # simultaneous
    assert refusal(state, "red", {"action": "choose_reserve", "value": 4}) == ("T1.1", "reserve-range")
    table = Table.start(tmp_path, "duel")
    table.act("red", {"action": "choose_reserve", "value": 3})
    logged = table.lines()[-1]
    assert b'"value"' not in logged and b'"sealed":[{' in logged  # the value is committed, not logged
    with pytest.raises(ActionError) as illegal:
        table.act("blue", {"action": "choose_reserve", "value": 0})
    assert (illegal.value.code.id, illegal.value.rule) == ("R001", "§T1.1")


@pytest.mark.rule("T2.1")
def test_t2_1_seats_act_in_turn_and_phase() -> None:
    state = in_play()
    assert R.to_act(state) == ("red",)
    assert refusal(state, "blue", {"action": "pass"}) == ("T2.1", "not-your-turn")
    assert refusal(state, "red", {"action": "defend", "stance": "block"}) == ("T2.1", "wrong-phase")
    # shapes are checked by the typed action models before any rule: R004 for the engine, "malformed" here
    assert refusal(state, "red", {"action": "jump"}) == (None, "malformed")
    assert refusal(state, "red", {"action": "pass", "now": True}) == (None, "malformed")
    with pytest.raises(ActionError) as malformed:
        R.parse_action({"action": "pass", "now": True})
    assert malformed.value.code.id == "R004" and "now" in malformed.value.message
    state = do(state, "red", {"action": "pass"})
    assert R.to_act(state) == ("blue",)


@pytest.mark.rule("T2.2")
def test_t2_2_a_seat_at_zero_health_is_skipped() -> None:
    state = start(("red", "green", "blue"))
    for seat in ("red", "green", "blue"):
        state = do(state, seat, {"action": "choose_reserve", "value": 1})
    state = state.model_copy(update={"health": {**state.health, "green": 0}})
    state = do(state, "red", {"action": "pass"})
    assert R.to_act(state) == ("blue",)


@pytest.mark.rule("T3.1")
def test_t3_1_attack_another_seat_still_in() -> None:
    state = in_play()
    assert refusal(state, "red", {"action": "attack", "target": "red"}) == ("T3.1", "target")
    assert refusal(state, "red", {"action": "attack", "target": "green"}) == ("T3.1", "target")
    state = do(state, "red", {"action": "attack", "target": "blue"})
    assert R.to_act(state) == ("blue",) and state.phase == "defend"


@pytest.mark.rule("T3.2")
def test_t3_2_the_defender_chooses_a_stance_then_dice_are_needed() -> None:
    state = do(in_play(), "red", {"action": "attack", "target": "blue"})
    assert refusal(state, "blue", {"action": "defend", "stance": "run"}) == (None, "malformed")  # block or dodge
    state = do(state, "blue", {"action": "defend", "stance": "block"})
    assert state.rolls is not None and [r.id for r in state.rolls.rolls] == ["attack", "defence"]


def resolve(state: TriadState, attack: tuple[int, int], defence: int) -> Any:
    assert state.rolls is not None
    return R.resume(state.model_copy(update={"rolls": None}), Outcome(dice={"attack": attack, "defence": (defence,)}))


@pytest.mark.rule("T3.3")
@pytest.mark.parametrize(("stance", "dice", "damage"), [("block", ((6, 5), 3), 5), ("dodge", ((6, 5), 3), 8),
                                                        ("block", ((1, 1), 6), 0)])  # fmt: skip
def test_t3_3_damage_is_attack_minus_defence_doubled_when_blocking(stance: str, dice: Any, damage: int) -> None:
    state = do(
        do(in_play(), "red", {"action": "attack", "target": "blue"}), "blue", {"action": "defend", "stance": stance}
    )
    step = resolve(state, *dice)
    assert step.state.health["blue"] == 12 - damage and step.events[0].rule == "T3.3"
    assert R.to_act(step.state) == ("blue",)


@pytest.mark.rule("T3.4")
def test_t3_4_a_twelve_rolls_one_more_die_of_damage() -> None:
    state = do(
        do(in_play(), "red", {"action": "attack", "target": "blue"}), "blue", {"action": "defend", "stance": "block"}
    )
    step = resolve(state, (6, 6), 3)
    assert step.state.rolls is not None and step.state.rolls.rolls[0].id == "bonus"  # a chained roll
    bonus = R.resume(step.state.model_copy(update={"rolls": None}), Outcome(dice={"bonus": (4,)}))
    assert bonus.state.health["blue"] == 12 - (12 - 2 * 3) - 4 and bonus.events[-1].rule == "T3.4"


@pytest.mark.rule("T3.5")
def test_t3_5_a_dodger_rolling_low_loses_a_reserve_point() -> None:
    state = do(
        do(in_play(), "red", {"action": "attack", "target": "blue"}), "blue", {"action": "defend", "stance": "dodge"}
    )
    step = resolve(state, (2, 1), 2)
    assert step.state.hidden["reserve/blue"].value == 2 and step.state.hidden["reserve/blue"].ver == 1


@pytest.mark.rule("T3.5")
def test_t3_5_the_owner_commits_to_a_loss_caused_by_another_seat(trio: Table) -> None:
    lines, verifier = trio.lines(), trio.replay()
    loss = next(e for e in verifier.game.events if e.event.kind == "reserve_lost")  # type: ignore[union-attr]
    owner = loss.event.seat
    later = [line for line in lines[loss.line :] if b'"author":"%s"' % owner.encode() in line]
    assert b'"type":"hidden"' in later[0] or b'"type":"checkpoint"' in later[0]


@pytest.mark.rule("T4.1")
@pytest.mark.rule("T4.2")
def test_t4_draws_are_private_and_the_hand_is_limited() -> None:
    state = do(in_play(), "red", {"action": "draw"})
    assert state.rolls is not None and state.rolls.owner == "red" and state.rolls.slot == "card/red/1"
    full = state.model_copy(update={"rolls": None, "hand": {**state.hand, "red": ("card/red/1", "card/red/2")}})
    full = full.model_copy(update={"turn": 0, "phase": "main"})
    assert refusal(full, "red", {"action": "draw"}) == ("T4.2", "hand-full")


@pytest.mark.rule("T4.1")
def test_t4_1_only_the_drawer_sees_the_card(duel: Table) -> None:
    from pbem.client.session import own_knowledge
    from pbem.verify.pipeline import verify_lines

    lines = duel.lines()
    draw, drawer = next((i, m.group(1).decode()) for i, line in enumerate(lines)
                        if (m := re.search(rb'"slot":"card/(\w+)/', line)))  # fmt: skip
    other = next(seat for seat in duel.keys if seat != drawer)
    cut = next(i for i in range(draw, len(lines)) if b'"type":"reveal"' in lines[i]) + 1
    public = verify_lines(lines[:cut])[1].game
    mine = verify_lines(lines[:cut], knowledge=own_knowledge(duel.keys[drawer]))[1].game
    theirs = verify_lines(lines[:cut], knowledge=own_knowledge(duel.keys[other]))[1].game
    assert public is not None and mine is not None and theirs is not None
    assert public.state is not None and mine.state is not None and theirs.state is not None
    slot = next(s for s in public.state.hidden if s.startswith(f"card/{drawer}"))
    assert mine.state.hidden[slot].known
    assert not public.state.hidden[slot].known and not theirs.state.hidden[slot].known


@pytest.mark.rule("T5.1")
@pytest.mark.rule("T5.2")
def test_t5_playing_a_card_opens_it_and_heals() -> None:
    state = in_play().with_hidden("card/red/1", "red", {"card": [4]}, known=True)
    state = state.model_copy(update={"hand": {**state.hand, "red": ("card/red/1",)}, "health": {"red": 5, "blue": 12}})
    assert refusal(state, "red", {"action": "play", "card": "card/red/9"}) == ("T5.1", "not-in-hand")
    state = do(state, "red", {"action": "play", "card": "card/red/1"})
    assert state.hidden["card/red/1"].must_open
    opened = state.model_copy(update={"hidden": {"card/red/1": state.hidden["card/red/1"].model_copy(
        update={"must_open": False, "public": True})}})  # fmt: skip
    step = R.resume(opened, Outcome(opened=("card/red/1",)))
    assert step.state.health["red"] == 9 and step.state.hand["red"] == () and step.events[0].rule == "T5.2"


@pytest.mark.rule("T6.1")
@pytest.mark.rule("T6.2")
def test_t6_fortify_raises_the_hidden_reserve_up_to_five() -> None:
    state = do(in_play(reserves=(3, 3)), "red", {"action": "fortify"})
    assert state.hidden["reserve/red"].value == 4 and state.hidden["reserve/red"].ver == 1
    capped = in_play(reserves=(3, 3))
    capped = capped.with_hidden("reserve/red", "red", 5, known=True)
    assert refusal(capped, "red", {"action": "fortify"}) == ("T6.2", "reserve-cap")
    unknown = capped.with_hidden("reserve/red", "red", None, known=False)
    assert {"action": "fortify"} in R.legal_actions(unknown, "red")  # the public check is a superset...


@pytest.mark.rule("T7")
def test_t7_pass_ends_the_turn() -> None:
    assert R.to_act(do(in_play(), "red", {"action": "pass"})) == ("blue",)


@pytest.mark.rule("T8.1")
@pytest.mark.rule("T8.2")
def test_t8_reserves_are_opened_and_the_highest_score_wins() -> None:
    state = in_play(reserves=(1, 3))
    for _ in range(2):
        state = do(do(state, "red", {"action": "pass"}), "blue", {"action": "pass"})
    assert state.phase == "reveal" and all(s.must_open for s in state.hidden.values())
    opened = state.model_copy(update={"hidden": {k: v.model_copy(update={"must_open": False, "public": True})
                                                 for k, v in state.hidden.items()}})  # fmt: skip
    step = R.resume(opened, Outcome(opened=tuple(state.hidden)))
    result = R.result(step.state)
    assert result is not None and result.winners == ("blue",) and result.score == {"red": 13, "blue": 15}


def test_views_hide_the_other_seats_reserve() -> None:
    state = in_play()
    red_view = {u.id: u for u in R.view(state, "red").units}
    assert red_view["red"].extra["reserve"] == 2 and red_view["blue"].extra["reserve"] is None
    assert {u.id: u.extra["reserve"] for u in R.view(state, "@all").units} == {"red": 2, "blue": 3}
