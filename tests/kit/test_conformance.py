"""The conformance suite (pbem.kit.conformance) run for every shipped game: Battleaxe, Triad and Skirmish.

A few play-outs per game here; many more with ``--slow``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pbem.kit import conformance
from pbem.rules import registry

TESTS = Path(__file__).resolve().parents[1]

# (game, scenario, options) of every shipped scenario worth playing out
SCENARIOS: list[tuple[str, str, dict[str, Any]]] = [
    ("battleaxe", "campaign", {}),
    ("battleaxe", "bidding", {"extended": True}),
    ("triad", "duel", {"rounds": 2}),
    ("triad", "standard", {"rounds": 2}),
    ("skirmish", "meeting", {"rounds": 4}),
]


def conform(game: str, scenario: str, options: dict[str, Any], seed: int, mutations: int) -> None:
    played = conformance.play_out(game, scenario, options, random.Random(seed), title=f"conformance {seed}")
    report = played.verifier.report()
    assert report.valid and report.result is not None and report.audit == "complete", report.first_error
    rng = random.Random(seed)
    checked = 0
    for replay, _ in conformance.reachable(played.lines):
        state = replay.state
        assert state is not None
        replay.ruleset.assert_invariants(state)
        if replay.waits_for_protocol() or replay.result is not None:
            continue
        for seat in replay.ruleset.to_act(state):
            checked += conformance.check_legal_matches_contains(replay.ruleset, state, seat, rng, mutations=mutations)
            conformance.check_choices(replay.ruleset, state, seat)
    assert checked > 0
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
