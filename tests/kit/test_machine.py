"""pbem.kit.machine, proved on Duel (tests/kit/duel.py): phases, interrupts, legality by predicate, the stack."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, TypeAdapter

from pbem.errors import ActionError, PbemError
from pbem.kit.machine import ActionSpec, Interrupt, Machine, Phase, action, action_name, pop, top
from pbem.log.canon import canonical
from pbem.rules.contract import ALLOW, Outcome, Step, Verdict
from tests.kit.duel import (
    MACHINE,
    Advance,
    Allocate,
    Attack,
    CombatRoll,
    Defend,
    DuelState,
    Hold,
    Pass,
    TakeLoss,
    Withdraw,
    can_advance,
    setup,
)


def play(state: DuelState, *moves: tuple[str, dict[str, Any]]) -> DuelState:
    for seat, move in moves:
        state = roll(state, move["die"]).state if seat == "@dice" else MACHINE.apply(state, seat, move).state
    return state


def roll(state: DuelState, die: int) -> Step[DuelState]:
    """The engine's part: it clears ``rolls`` and resumes with the faces."""
    assert state.rolls is not None and MACHINE.to_act(state) == ()
    return MACHINE.resume(state.model_copy(update={"rolls": None}), Outcome(dice={"combat": (die,)}))


def reasons(state: DuelState, seat: str, move: dict[str, Any]) -> tuple[str | None, str]:
    verdict = MACHINE.check(state, seat, move)
    return verdict.rule, verdict.reason


def attacked() -> DuelState:
    """Red advanced r2 to 2; Blue's b2 (at 3) attacks location 2: Red must decide."""
    return play(
        setup(),
        ("red", {"action": "advance", "unit": "r2", "to": 2}),
        ("blue", {"action": "attack", "unit": "b2", "target": 2}),
    )


def test_the_active_seat_acts_in_its_phase() -> None:
    state = setup()
    assert MACHINE.to_act(state) == ("red",)
    assert MACHINE.legal_actions(state, "blue") == []
    legal = MACHINE.legal_actions(state, "red")
    assert Advance(unit="r2", to=2) in legal and Pass() in legal and not any(isinstance(a, Attack) for a in legal)
    assert MACHINE.dump(Advance(unit="r2", to=2)) == {"action": "advance", "unit": "r2", "to": 2}


@pytest.mark.rule("4.1")
def test_r4_1_an_attack_opens_the_defenders_decision() -> None:
    state = attacked()
    assert isinstance(state.pending[-1], Defend) and MACHINE.to_act(state) == ("red",)
    assert MACHINE.allowed(state) == ("hold", "withdraw")
    assert MACHINE.legal_actions(state, "red") == [Hold(), Withdraw(to=1)]
    assert reasons(state, "red", {"action": "pass"}) == ("5", "not-now")
    assert reasons(state, "blue", {"action": "pass"}) == ("2", "not-your-turn")
    assert reasons(setup(), "red", {"action": "attack", "unit": "r2", "target": 2}) == ("4.1", "no-target")


@pytest.mark.rule("5.1")
@pytest.mark.rule("6.1")
def test_r5_1_r6_1_holding_rolls_then_every_hit_is_allocated_one_at_a_time() -> None:
    held = play(attacked(), ("red", {"action": "hold"}))
    assert isinstance(held.pending[-1], CombatRoll) and held.rolls is not None and MACHINE.to_act(held) == ()
    assert MACHINE.legal_actions(held, "red") == [] and MACHINE.legal_actions(held, "blue") == []
    step = roll(held, 6)  # b2's strength 2, +1 for a 6: 3 hits, but r2 has only 2
    resolved = step.events[0].data
    assert resolved["hits"] == 2 and resolved["total"]["value"] == 3
    assert [t["rule"] for t in resolved["total"]["terms"]] == ["5.1", "5.1"]
    state = step.state
    allocate = top(state, Allocate)
    assert (allocate.seat, allocate.hits, allocate.at) == ("red", 2, 2) and len(state.pending) == 1
    assert MACHINE.legal_actions(state, "red") == [TakeLoss(unit="r2")]
    assert reasons(state, "red", {"action": "take_loss", "unit": "r1"}) == ("6.1", "not-in-battle")
    step = MACHINE.apply(state, "red", {"action": "take_loss", "unit": "r2"})
    assert top(step.state, Allocate).hits == 1 and [e.kind for e in step.events] == ["lost_step"]
    done = play(step.state, ("red", {"action": "take_loss", "unit": "r2"}))
    assert done.pending == () and done.units["r2"].at is None and MACHINE.to_act(done) == ("red",)


@pytest.mark.rule("5.1")
def test_r5_1_a_low_roll_can_leave_no_hits() -> None:
    weak = play(setup(), ("red", {"action": "advance", "unit": "r2", "to": 2}), ("blue", {"action": "pass"}))
    weak = weak.model_copy(update={"units": {**weak.units, "r2": weak.units["r2"].model_copy(update={"strength": 1})}})
    state = play(weak, ("red", {"action": "attack", "unit": "r2", "target": 3}), ("blue", {"action": "hold"}))
    after = roll(state, 1)
    assert after.events[0].data["hits"] == 0 and after.state.pending == () and MACHINE.to_act(after.state) == ("blue",)


def test_resume_without_a_pending_roll_is_a_contract_bug() -> None:
    with pytest.raises(PbemError) as caught:
        MACHINE.resume(setup(), Outcome(dice={"combat": (3,)}))
    assert caught.value.code.id == "R008"


@pytest.mark.rule("5.2")
def test_r5_2_withdrawing_moves_away_from_the_attacker() -> None:
    state = attacked()
    assert reasons(state, "red", {"action": "withdraw", "to": 3}) == ("5.2", "not-away")
    after = play(state, ("red", {"action": "withdraw", "to": 1}))
    assert after.units["r2"].at == 1 and after.pending == ()


@pytest.mark.rule("3.1")
def test_r3_1_advances_go_to_a_free_neighbour() -> None:
    state = setup()
    assert reasons(state, "red", {"action": "advance", "unit": "r2", "to": 3}) == ("3.1", "not-neighbour")
    assert reasons(state, "red", {"action": "advance", "unit": "b1", "to": 3}) == ("2", "not-own-unit")
    near = play(state, ("red", {"action": "advance", "unit": "r2", "to": 2}), ("blue", {"action": "pass"}))
    assert reasons(near, "red", {"action": "advance", "unit": "r2", "to": 3}) == ("3.1", "enemy-there")


@pytest.mark.rule("2")
def test_r2_the_game_ends_after_the_last_turn_with_the_stronger_side_winning() -> None:
    state = setup(last_turn=1)
    over = play(state, ("red", {"action": "pass"}), ("blue", {"action": "pass"}))
    assert over.phase == "over" and MACHINE.to_act(over) == () and over.winner is None
    assert MACHINE.legal_actions(over, "red") == []


@pytest.mark.parametrize(
    "move",
    [
        {"action": "advance", "unit": "r2", "to": "2"},  # a string where an integer belongs
        {"action": "advance", "unit": ["r2"], "to": 2},
        {"action": "advance", "unit": "r2"},
        {"action": "advance", "unit": "r2", "to": 2, "extra": 1},
        {"action": "fly", "unit": "r2"},
        {"unit": "r2"},
    ],
)
def test_malformed_actions_are_refused_never_raised(move: dict[str, Any]) -> None:
    assert reasons(setup(), "red", move) == ("2", "malformed")
    with pytest.raises(ActionError) as caught:
        MACHINE.apply(setup(), "red", move)
    assert caught.value.code.id == "R004"


def test_apply_checks_first_and_names_the_code() -> None:
    with pytest.raises(ActionError) as caught:
        MACHINE.apply(setup(), "blue", {"action": "pass"})
    assert caught.value.code.id == "R002"
    with pytest.raises(ActionError) as illegal:
        MACHINE.apply(setup(), "red", Advance(unit="r1", to=4))
    assert illegal.value.code.id == "R001" and illegal.value.rule == "§3.1"


def test_apply_after_check_asks_the_predicate_once_and_only_for_the_very_objects_checked() -> None:
    """The replay asks check() then apply() of every action: the predicate runs once for the objects check() allowed,
    and again for any other objects (apply has no unchecked path)."""
    asked: list[Advance] = []

    def counting(state: DuelState, seat: str, act: Advance) -> Verdict:
        asked.append(act)
        return can_advance(state, seat, act)

    spec = next(s for s in MACHINE.actions if s.name == "advance")
    machine = replace(MACHINE, actions=tuple(replace(s, can=counting) if s is spec else s for s in MACHINE.actions))
    state, move = setup(), Advance(unit="r2", to=2)
    assert machine.check(state, "red", move).ok and len(asked) == 1
    assert machine.apply(state, "red", move).state != state and len(asked) == 1  # allowed just now: no second ask
    machine.apply(state, "red", Advance(unit="r2", to=2))  # an equal action, but another object: checked again
    machine.apply(setup(), "red", move)  # another state object: checked again
    assert len(asked) == 3
    assert not machine.check(state, "red", Advance(unit="r1", to=4)).ok
    with pytest.raises(ActionError) as illegal:  # a refusal is never remembered as allowed
        machine.apply(state, "red", Advance(unit="r1", to=4))
    assert illegal.value.code.id == "R001" and len(asked) == 5
    copy = state.model_copy()  # a game's own bookkeeping copy of the state check() was asked of
    assert machine.check(state, "red", move).ok and len(asked) == 6
    assert machine.apply(copy, "red", move, checked=state).state != state and len(asked) == 6
    machine.apply(copy, "red", move, checked=setup())  # not the state checked: checked again
    assert len(asked) == 7


def test_the_pending_stack_is_part_of_the_signed_state() -> None:
    state = attacked()
    dumped = state.model_dump(mode="json")
    assert dumped["pending"] == [{"kind": "defend", "seat": "red", "attacker": "b2", "target": 2}]
    assert DuelState.model_validate_json(json.dumps(dumped)) == state  # the stack round-trips with its types
    assert pop(state).pending == ()
    with pytest.raises(ValueError):
        pop(setup())
    with pytest.raises(TypeError):
        top(state, Allocate)


def test_a_machine_refuses_inconsistent_declarations() -> None:
    spec: ActionSpec[DuelState] = action(
        Pass, legal=lambda s, seat: [Pass()], can=lambda s, seat, a: ALLOW, effect=lambda s, seat, a: Step(state=s)
    )
    adapter: TypeAdapter[Pass] = TypeAdapter(Pass)
    battle: Phase[DuelState] = Phase("battle", ("pass", "advance"), rule="2", to_act=lambda s: (s.active,))
    with pytest.raises(ValueError):
        Machine(adapter=adapter, rule="2", phases=(battle,), interrupts=(), actions=(spec,))
    with pytest.raises(ValueError):
        Machine(
            adapter=adapter, rule="2", phases=(), interrupts=(Interrupt("x", ("pass",), "1"),), actions=(spec, spec)
        )

    class Nameless(BaseModel):
        action: str

    with pytest.raises(TypeError):
        action_name(Nameless)
    assert action_name(Withdraw) == "withdraw"


# --- legal_actions <=> check on random reachable states --------------------------------------------------------

UNITS = ("r1", "r2", "b1", "b2", "x9")
PLACES = range(-1, 6)


def universe() -> list[dict[str, Any]]:
    """Every action over the fields' domains, and then some: the enumeration must agree with check on all."""
    found: list[dict[str, Any]] = [{"action": "pass"}, {"action": "hold"}]
    for unit in UNITS:
        found.append({"action": "take_loss", "unit": unit})
        for place in PLACES:
            found += [
                {"action": "advance", "unit": unit, "to": place},
                {"action": "attack", "unit": unit, "target": place},
            ]
    found += [{"action": "withdraw", "to": place} for place in PLACES]
    return found


ALL = universe()


def random_state(data: st.DataObject) -> tuple[DuelState, list[tuple[str, dict[str, Any]]]]:
    state = setup(last_turn=data.draw(st.integers(1, 4)))
    moves: list[tuple[str, dict[str, Any]]] = []
    for _ in range(data.draw(st.integers(0, 14))):
        seats = MACHINE.to_act(state)
        if not seats and state.rolls is not None:
            die = data.draw(st.integers(1, 6))
            moves.append(("@dice", {"die": die}))
            state = roll(state, die).state
            continue
        if not seats:
            break
        legal = MACHINE.legal_actions(state, seats[0])
        assert legal, f"dead end: {seats[0]} has no legal action in {state!r}"
        move = MACHINE.dump(legal[data.draw(st.integers(0, len(legal) - 1))])
        moves.append((seats[0], move))
        state = MACHINE.apply(state, seats[0], move).state
    return state, moves


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_legal_actions_agree_with_check_on_reachable_states(data: st.DataObject) -> None:
    state, moves = random_state(data)
    for seat in ("red", "blue"):
        offered = [MACHINE.dump(a) for a in MACHINE.legal_actions(state, seat)]
        assert all(a in ALL for a in offered)  # the universe covers the enumeration
        accepted = [a for a in ALL if MACHINE.contains(state, seat, a)]
        assert sorted(map(canonical, offered)) == sorted(map(canonical, accepted))
        if MACHINE.to_act(state) and seat in MACHINE.to_act(state):
            assert offered, "the seat to act always has a legal action"
    replayed = play(setup(last_turn=state.last_turn), *moves)
    assert canonical(replayed.model_dump(mode="json")) == canonical(state.model_dump(mode="json"))


def test_the_machine_reports_whose_decision_it_is_through_nested_interrupts() -> None:
    state = attacked()
    nested = state.model_copy(update={"pending": (*state.pending, Allocate(seat="blue", hits=1, at=3))})
    assert MACHINE.to_act(nested) == ("blue",) and MACHINE.allowed(nested) == ("take_loss",)
    assert MACHINE.legal_actions(nested, "blue") == [TakeLoss(unit="b2")]
    back = MACHINE.apply(nested, "blue", TakeLoss(unit="b2")).state
    assert isinstance(back.pending[-1], Defend) and MACHINE.to_act(back) == ("red",)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
names = st.sampled_from(["advance", "attack", "pass", "hold", "withdraw", "take_loss", "fly", ""])
fields = st.sampled_from(["unit", "to", "target", "action", "x"])


@settings(max_examples=300, deadline=None)
@given(
    st.data(), names, st.dictionaries(fields, json_values, max_size=3), st.sampled_from(["red", "blue", "@observer"])
)
def test_any_json_payload_ends_in_a_verdict_never_an_exception(
    data: st.DataObject, name: str, extra: dict[str, Any], seat: str
) -> None:
    state, _ = random_state(data)
    payload = {"action": name, **{k: v for k, v in extra.items() if k != "action"}}
    verdict = MACHINE.check(state, seat, payload)
    assert verdict.ok == (verdict.reason == "")
    if verdict.ok:
        assert MACHINE.parse(payload) in MACHINE.legal_actions(state, seat)


class March(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
    action: Literal["march"] = "march"
    path: tuple[int, ...]


def test_logged_json_is_read_with_jsons_rules() -> None:
    """A JSON array fills a tuple field (strict models refuse lists in Python mode); nothing is coerced."""
    marching: Machine[DuelState, March] = Machine(
        adapter=TypeAdapter(March),
        rule="2",
        phases=(Phase("battle", ("march",), rule="2", to_act=lambda s: (s.active,)),),
        interrupts=(),
        actions=(
            action(
                March, legal=lambda s, seat: [], can=lambda s, seat, a: ALLOW, effect=lambda s, seat, a: Step(state=s)
            ),
        ),
    )
    assert marching.parse({"action": "march", "path": [1, 2]}) == March(path=(1, 2))
    assert marching.check(setup(), "red", {"action": "march", "path": ["1"]}).reason == "malformed"
    assert marching.check(setup(), "red", {"action": "march", "path": [1.5]}).reason == "malformed"
    assert marching.check(setup(), "red", {"action": "march", "path": {1}}).reason == "malformed"  # not JSON
    assert marching.check(setup(), "red", Pass()).reason == "not-now"  # type: ignore[arg-type]
    not_an_action = Defend(seat="red", attacker="b1", target=1)
    assert marching.check(setup(), "red", not_an_action).reason == "malformed"  # type: ignore[arg-type]
