"""The 1,000 random play-outs of issue 14 (behind ``slow``, run by ``make test-slow``): across both scenarios and
2, 3 and 4 players, every play-out ends with a result, conforms and verifies.

Each play-out goes through the real protocol (:func:`pbem.kit.conformance.play_out`: every action the scripted
player takes is one ``legal_actions`` offered, and the rules accepted it), then:

* its log verifies completely, with a result;
* an independent public replay of its lines verifies every line, ends in the same state (replay is
  deterministic), and at every 100th entry ``legal_actions`` and ``contains`` agree, near misses included.

The seeds are split in batches so that ``pytest -n auto`` spreads them over the cores. Measured with
``benchmarks/axisallies_playouts.py`` (20 seeds, CPU time of one process on the shared 2-core machine under a load
of about 12): 2.9 s a play-out, about 48 CPU-minutes for the 1,000 (10.5 s and about 175 CPU-minutes before the
states remembered their board, reach and paths).
"""

from __future__ import annotations

import random

import pytest

from pbem.games.axisallies.ruleset import RULESET
from pbem.kit import conformance
from pbem.log.canon import canonical
from tests.games.axisallies.test_playout import GAME, brisk

PLAY_OUTS = 1_000
BATCH = 25
SCENARIOS = tuple(s.id for s in RULESET.scenarios)


@pytest.fixture(autouse=True)
def _registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_GAMES", GAME)


def sweep(seed: int) -> str:
    """Play seed ``seed`` out (its scenario: the seed's turn in :data:`SCENARIOS`) and check it; its result."""
    scenario = SCENARIOS[seed % len(SCENARIOS)]
    played = conformance.play_out(RULESET.id, scenario, {}, random.Random(seed), choose=brisk, title=f"aa {seed}")
    report = played.verifier.report()
    assert report.valid and report.audit == "complete", (scenario, seed, report.first_error)
    assert report.result is not None, (scenario, seed, "the play-out ended without a result")
    rng = random.Random(seed)
    replay = None
    for replay, number in conformance.reachable(played.lines):
        state = replay.state
        assert state is not None
        if number % 100 or replay.waits_for_protocol() or replay.result is not None:
            continue
        for seat in replay.ruleset.to_act(state):
            conformance.check_legal_matches_contains(replay.ruleset, state, seat, rng, mutations=1)
    assert replay is not None and replay.state is not None and played.game.state is not None
    assert canonical(replay.state.model_dump(mode="json")) == canonical(played.game.state.model_dump(mode="json"))
    return report.result.outcome


@pytest.mark.slow
@pytest.mark.parametrize("batch", range(PLAY_OUTS // BATCH))
def test_a_thousand_random_play_outs_end_conform_and_verify(batch: int) -> None:
    results = [sweep(seed) for seed in range(batch * BATCH, (batch + 1) * BATCH)]
    assert len(results) == BATCH
