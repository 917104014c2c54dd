"""The conformance suite (pbem.kit.conformance) on Gazala's three scenarios, through the real protocol.

Gazala is not registered in the ``pbem.games`` entry point yet (BRIEF): the tests load it through ``PBEM_GAMES``.
A few play-outs here; more behind ``slow``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem.kit import conformance
from pbem.rules import registry
from pbem.rules.contract import Action

TESTS = Path(__file__).resolve().parents[2]
TARGET = "pbem.games.gazala.ruleset:RULESET"
SCENARIOS = ("bir-hacheim", "opening-phase", "gazala-battles")


@pytest.fixture(autouse=True)
def _gazala_loadable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_GAMES", TARGET)


COMBAT = ("attack", "retreat_before_combat")


def fighting(seat: str, legal: list[Action], rng: conformance.Picker) -> Action:
    """A scripted player who attacks (and retreats before combat) whenever it can, otherwise acts at random."""
    keen = [a for a in legal if a["action"] in COMBAT]
    return rng.choice(keen) if keen else rng.choice(legal)


def conform(
    scenario: str, seed: int, mutations: int, *, check_every: int = 1, choose: conformance.Chooser | None = None
) -> None:
    played = conformance.play_out(
        "gazala", scenario, {}, random.Random(seed), title=f"gazala {seed}", **({"choose": choose} if choose else {})
    )
    report = played.verifier.report()
    assert report.valid and report.result is not None and report.audit == "complete", report.first_error
    rng = random.Random(seed)
    checked = 0
    for index, (replay, _) in enumerate(conformance.reachable(played.lines)):
        state = replay.state
        assert state is not None
        replay.ruleset.assert_invariants(state)
        if replay.waits_for_protocol() or replay.result is not None or index % check_every:
            continue
        for seat in replay.ruleset.to_act(state):
            checked += conformance.check_legal_matches_contains(replay.ruleset, state, seat, rng, mutations=mutations)
            conformance.check_choices(replay.ruleset, state, seat)
    assert checked > 0
    conformance.check_deterministic(played.lines)
    assert conformance.check_viewer_hashes(played.lines, played.keys) > 0
    events = [e.event for e in played.game.events]
    missing = conformance.rules_without_tests(registry.get("gazala"), TESTS, events)
    assert not missing, f"rules gazala cites without a test marked with them: {sorted(missing)}"


def test_solitaire_conforms() -> None:
    conform("bir-hacheim", seed=1, mutations=3)


@pytest.mark.parametrize("scenario", SCENARIOS[1:])
def test_two_seat_scenarios_conform(scenario: str) -> None:
    conform(scenario, seed=1, mutations=1, check_every=7)


@pytest.mark.parametrize("scenario", SCENARIOS[:2])
def test_combat_heavy_play_outs_conform(scenario: str) -> None:
    conform(scenario, seed=3, mutations=2, check_every=1 if scenario == "bir-hacheim" else 5, choose=fighting)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 8))
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_many_play_outs_conform(scenario: str, seed: int) -> None:
    choose = fighting if seed % 2 else None
    conform(scenario, seed=seed, mutations=3, check_every=1 if scenario == "bir-hacheim" else 3, choose=choose)
