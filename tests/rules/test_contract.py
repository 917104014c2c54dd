"""The engine contract, checked on every installed ruleset and on the test game's play-outs.

* ``a in legal_actions(s)`` if and only if ``check(s, a).ok``, over states reached by random legal play;
* every ``deny`` a ruleset can return cites a rule that some test carries as a ``rule`` marker;
* replaying the same log twice gives byte-identical states and events, and checkpoint hashes match;
* random legal play-outs finish with a result and a log that verifies (more of them in the slow suite).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.kit import conformance
from pbem.log.canon import canonical
from pbem.replay.game import check_state, state_hash
from pbem.rules import registry
from pbem.rules.contract import Outcome, Roster, RosterSeat
from pbem.verify.pipeline import verify_lines
from tests.helpers import Table

TESTS = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game_id", list(registry.installed()))
def test_every_rule_a_ruleset_can_cite_has_a_test(game_id: str) -> None:
    missing = conformance.rules_without_tests(registry.get(game_id), TESTS)
    assert not missing, f"rules cited by {game_id} without a test marked with them: {sorted(missing)}"


def advance(ruleset: Any, state: Any, rng: random.Random) -> Any | None:
    """One step as the engine would take it: dice, openings, or a random legal action (None: game over)."""
    if state.rolls is not None:
        request = state.rolls
        faces = {r.id: tuple(rng.randint(1, r.sides) for _ in range(r.n)) for r in request.rolls}
        state = state.without_first_roll()
        if request.owner is None:
            return ruleset.resume(state, Outcome(dice=faces)).state
        value = {k: list(v) for k, v in faces.items()}
        state = state.with_hidden(request.slot, request.owner, value, known=True)
        return ruleset.resume(state, Outcome(drawn=request.slot)).state
    opening = tuple(k for k, v in state.hidden.items() if v.must_open)
    if opening:
        hidden = {k: v.model_copy(update={"must_open": False, "public": True}) for k, v in state.hidden.items()}
        return ruleset.resume(state.model_copy(update={"hidden": hidden}), Outcome(opened=opening)).state
    actors = ruleset.to_act(state)
    if not actors:
        return None
    seat = rng.choice(actors)
    action = dict(rng.choice(ruleset.legal_actions(state, seat)))
    for field, slot in ruleset.secret_fields(state, seat, action).items():
        state = state.with_hidden(slot, seat, action.pop(field), known=True)
    return ruleset.apply(state, seat, action).state


PROBES = [
    *({"action": "attack", "target": t} for t in ("red", "green", "blue", "nobody")),
    *({"action": "choose_reserve", "value": v} for v in (0, 1, 3, 4)),
    *({"action": a} for a in ("draw", "fortify", "pass", "defend", "teleport")),
    {"action": "defend", "stance": "block"},
    {"action": "play", "card": "card/red/1"},
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 80), three=st.booleans())
def test_legal_actions_and_check_agree_on_reachable_states(seed: int, steps: int, three: bool) -> None:
    ruleset = registry.get("triad")
    rng = random.Random(seed)
    seats = ("red", "green", "blue") if three else ("red", "blue")
    roster = Roster(seats=tuple(RosterSeat(seat=s, team=s) for s in seats))
    state = ruleset.setup("standard", {"rounds": 3}, roster, ruleset.load_data(ruleset.default_data()))
    for _ in range(steps):
        ruleset.assert_invariants(state)
        check_state(state)
        for seat in seats:
            legal = ruleset.legal_actions(state, seat)
            assert all(ruleset.check(state, seat, a).ok for a in legal)
            for probe in PROBES:
                assert (probe in legal) == ruleset.check(state, seat, probe).ok, (seat, probe)
        state = advance(ruleset, state, rng)
        if state is None:
            break


def test_replay_is_byte_identical_and_checkpoints_match(trio: Table) -> None:
    lines = trio.lines()
    first, second = verify_lines(lines)[1].game, verify_lines(lines)[1].game
    assert first is not None and second is not None and first.state is not None and second.state is not None
    assert canonical(first.state.model_dump(mode="json")) == canonical(second.state.model_dump(mode="json"))
    assert [e.event.model_dump() for e in first.events] == [e.event.model_dump() for e in second.events]
    assert state_hash(first.state) == state_hash(second.state) == verify_lines(lines)[0].state_hash
    assert first.finals[0] == "setup" and first.finals[-1] == "end" and len(set(first.finals)) == len(first.finals)


def test_the_same_moves_give_the_same_log_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    logs = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / name / "state"))  # two machines
        table = Table.start(tmp_path / name, "standard", rounds=1)
        table.play_out(random.Random(7))
        logs.append(table.path.read_bytes())
    assert logs[0] == logs[1]


@pytest.mark.parametrize("seed", range(6))
def test_random_play_outs_finish_and_verify(tmp_path: Path, seed: int) -> None:
    table = Table.start(tmp_path, "standard" if seed % 2 else "duel", rounds=2)
    table.play_out(random.Random(seed))
    report = table.verify()
    assert report.valid and report.result is not None and report.audit == "complete"


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 300))
def test_random_play_outs_finish_and_verify_many(tmp_path: Path, seed: int) -> None:
    table = Table.start(tmp_path, "standard" if seed % 2 else "duel", rounds=3)
    table.play_out(random.Random(seed))
    report = table.verify()
    assert report.valid and report.result is not None and report.audit == "complete"


def test_updated_builds_what_model_copy_builds() -> None:
    """The transitions' fast copy gives the same fields, the same fields set and the same dump as pydantic's."""
    from pydantic import BaseModel, PrivateAttr

    from pbem.rules.contract import GameState, HiddenSlot, RollRequest, RollSpec, updated

    state = GameState().with_hidden("bid/a", "a", 3, known=True)
    request = RollRequest(rolls=(RollSpec(id="d", sides=6, n=1, purpose="test"),))
    for changes in ({"rolls": request}, {"hidden": {}}, {}):
        fast, slow = updated(state, changes), state.model_copy(update=changes)
        assert type(fast) is GameState and fast == slow and fast is not state
        assert fast.__dict__ == slow.__dict__ and fast.__dict__ is not state.__dict__
        assert fast.__pydantic_fields_set__ == slow.__pydantic_fields_set__
        assert fast.model_dump(mode="json") == slow.model_dump(mode="json")
        assert state.rolls is None  # the original is left unchanged
    slot = updated(state.slot("bid/a"), {"must_open": True})
    assert slot == HiddenSlot(owner="a", ver=0, value=3, known=True, must_open=True)

    class WithPrivate(BaseModel):
        x: int
        _memo: int = PrivateAttr(default=0)

    private = WithPrivate(x=1)
    private._memo = 5
    copied = updated(private, {"x": 2})
    assert (copied.x, copied._memo, private.x) == (2, 5, 1)  # pydantic's own path keeps private attributes
