"""Play-outs of Axis & Allies: North Africa through the real protocol (pbem.kit.conformance), for 2, 3 and 4
players and both scenarios: a few on every run, more behind ``slow``.

The scripted players choose at random among the legal actions, ending a phase (``done``) half the time it is
legal, so that a game of fourteen rounds stays a few hundred entries long.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem.games.axisallies.ruleset import RULESET
from pbem.kit import conformance
from pbem.kit.conformance import Chooser, Picker
from pbem.rules.contract import Action

TESTS = Path(__file__).resolve().parents[2]
GAME = "pbem.games.axisallies.ruleset:RULESET"


def brisk(seat: str, legal: list[Action], rng: Picker) -> Action:
    """A random legal action; ``done`` half the time it is legal."""
    if {"action": "done"} in legal and rng.choice((True, False)):
        return {"action": "done"}
    return rng.choice(legal)


def conform(scenario: str, seed: int, mutations: int, choose: Chooser = brisk) -> set[str]:
    """Play ``scenario`` out (the players choosing with ``choose``) and check it; the kinds of the game's events."""
    played = conformance.play_out(RULESET.id, scenario, {}, random.Random(seed), choose=choose, title=f"aa {seed}")
    report = played.verifier.report()
    assert report.valid and report.result is not None and report.audit == "complete", report.first_error
    rng = random.Random(seed)
    checked = 0
    for number, (replay, _) in enumerate(conformance.reachable(played.lines)):
        state = replay.state
        assert state is not None
        if replay.waits_for_protocol() or replay.result is not None or number % 15:
            continue
        for seat in replay.ruleset.to_act(state):
            checked += conformance.check_legal_matches_contains(replay.ruleset, state, seat, rng, mutations=mutations)
            conformance.check_choices(replay.ruleset, state, seat)
    assert checked > 0
    conformance.check_deterministic(played.lines)
    assert conformance.check_viewer_hashes(played.lines, played.keys) > 0
    missing = conformance.rules_without_tests(RULESET, TESTS, [e.event for e in played.game.events])
    assert not missing, f"rules cited without a test marked with them: {sorted(missing)}"
    return {e.event.kind for e in played.game.events}


@pytest.fixture(autouse=True)
def _registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_GAMES", GAME)


@pytest.mark.parametrize("scenario", ["rommels_last_push-2p", "operation_torch-3p", "operation_torch-4p"])
def test_play_outs_conform(scenario: str) -> None:
    kinds = conform(scenario, seed=1, mutations=1)
    assert {"flew_to_attack", "air_defense", "landed"} <= kinds  # random players attack with air units too
    assert "sea_combat_started" in kinds  # and fight at sea


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 6))
@pytest.mark.parametrize("scenario", [s.id for s in RULESET.scenarios])
def test_play_outs_conform_many(scenario: str, seed: int) -> None:
    conform(scenario, seed=seed, mutations=5)
