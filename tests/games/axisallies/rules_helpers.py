"""Helpers of the ruleset tests: a started game per scenario id, and playing actions through the ruleset."""

from __future__ import annotations

from typing import Any

from pbem.games.axisallies.ruleset import RULESET
from pbem.games.axisallies.state import AxisState
from pbem.rules.contract import Roster, RosterSeat, Verdict


def start(scenario: str = "rommels_last_push-2p", **options: str) -> AxisState:
    """The state after setup of a contract scenario (``<pack scenario>-<n>p``)."""
    spec = next(s for s in RULESET.scenarios if s.id == scenario)
    roster = Roster(seats=tuple(RosterSeat(seat=s.id, team=s.team) for s in spec.seats))
    return RULESET.setup(scenario, options, roster, RULESET.load_data(RULESET.default_data()))


def seat(state: AxisState) -> str:
    """The one seat the game waits for."""
    (who,) = RULESET.to_act(state)
    return who


def play(state: AxisState, *actions: dict[str, Any]) -> AxisState:
    """``state`` after the waited-for seat plays ``actions`` in order (each must be legal)."""
    for act in actions:
        verdict = RULESET.contains(state, seat(state), RULESET.typed(act))
        assert verdict.ok, (act, verdict)
        state = RULESET.apply(state, seat(state), act).state
    return state


def refusal(state: AxisState, act: dict[str, Any]) -> tuple[str | None, str]:
    """(rule, reason) of the refusal of ``act`` by the waited-for seat."""
    verdict: Verdict = RULESET.contains(state, seat(state), RULESET.typed(act))
    assert not verdict.ok, act
    return verdict.rule, verdict.reason


def done(state: AxisState) -> AxisState:
    return play(state, {"action": "done"})
