"""The conformance suite (pbem.kit.conformance) run for every shipped game: Battleaxe, Triad and Skirmish.

A few play-outs per game here; many more with ``--slow``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pbem.games.triad.ruleset import Triad, TriadState
from pbem.kit import conformance
from pbem.rules import registry
from pbem.rules.contract import Roster, RosterSeat, Step

TESTS = Path(__file__).resolve().parents[1]

# (game, scenario, options) of every shipped scenario worth playing out
SCENARIOS: list[tuple[str, str, dict[str, Any]]] = [
    ("battleaxe", "campaign", {}),
    ("battleaxe", "bidding", {"extended": True}),
    ("triad", "duel", {"rounds": 2}),
    ("triad", "standard", {"rounds": 2}),
    ("triad", "teams", {"rounds": 2}),
    ("triad", "pairs", {"rounds": 1}),
    ("highcard", "trio", {"cards": 9, "hand": 2, "deals": 1, "keep": 0, "dealer": False}),
    ("skirmish", "meeting", {"rounds": 4}),
]


def conform(game: str, scenario: str, options: dict[str, Any], seed: int, mutations: int) -> None:
    played = conformance.play_out(game, scenario, options, random.Random(seed), title=f"conformance {seed}")
    report = played.verifier.report()
    assert report.valid and report.result is not None and report.audit == "complete", report.first_error
    rng = random.Random(seed)
    checked = concurrent = 0
    for replay, _ in conformance.reachable(played.lines):
        state = replay.state
        assert state is not None
        replay.ruleset.assert_invariants(state)
        if replay.waits_for_protocol() or replay.result is not None:
            continue
        for seat in replay.ruleset.to_act(state):
            checked += conformance.check_legal_matches_contains(replay.ruleset, state, seat, rng, mutations=mutations)
            conformance.check_choices(replay.ruleset, state, seat)
        concurrent += conformance.check_concurrent_commute(replay.ruleset, state, replay.roster.players, rng)
    assert checked > 0
    # the scenarios with a simultaneous phase (Triad's set-up with 3+ seats) have concurrent pairs to compare
    assert concurrent > 0 or (game, len(replay.roster.players)) != ("triad", 3), concurrent
    conformance.check_deterministic(played.lines)
    assert conformance.check_viewer_hashes(played.lines, played.keys) > 0
    events = [e.event for e in played.game.events]
    missing = conformance.rules_without_tests(registry.get(game), TESTS, events)
    assert not missing, f"rules {game} cites without a test marked with them: {sorted(missing)}"


@pytest.mark.parametrize(("game", "scenario", "options"), SCENARIOS, ids=[f"{g}-{s}" for g, s, _ in SCENARIOS])
def test_every_shipped_game_conforms(game: str, scenario: str, options: dict[str, Any]) -> None:
    conform(game, scenario, options, seed=1, mutations=3)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 12))
@pytest.mark.parametrize(("game", "scenario", "options"), SCENARIOS, ids=[f"{g}-{s}" for g, s, _ in SCENARIOS])
def test_every_shipped_game_conforms_many(game: str, scenario: str, options: dict[str, Any], seed: int) -> None:
    conform(game, scenario, options, seed=seed, mutations=10)


class ArrivalOrderTriad(Triad):
    """Triad as it was: set-up choices recorded in the order they arrive, which copies may not share."""

    def apply(self, state: TriadState, seat: str, action: Any) -> Step[TriadState]:
        step = super().apply(state, seat, action)
        if state.phase != "setup":
            return step
        return Step(state=step.state.model_copy(update={"chosen": (*state.chosen, seat)}), events=step.events)


@pytest.mark.rule("8.1")
def test_actions_whose_order_matters_are_caught() -> None:
    """Concurrent actions must commute (PROTOCOL.md §8.1): the check finds a set-up that records arrival order."""
    ruleset = ArrivalOrderTriad()
    roster = Roster(seats=tuple(RosterSeat(seat=s, team=s) for s in ("red", "green", "blue")))
    state = ruleset.setup("standard", {"rounds": 1}, roster, ruleset.load_data(ruleset.default_data()))
    assert conformance.check_concurrent_commute(Triad(), state, roster.players, random.Random(1)) > 0
    with pytest.raises(AssertionError, match="different states in either order"):
        conformance.check_concurrent_commute(ruleset, state, roster.players, random.Random(1))
