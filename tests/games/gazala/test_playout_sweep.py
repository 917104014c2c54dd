"""1,000 random legal play-outs of Gazala through the real protocol (issue 13), behind ``slow`` (``make test-slow``).

The play-outs are split across the three scenarios, most of them the short ones (10.1's solitaire assault and
10.2's four turns; 10.3's eight turns cost about twice a 10.2 game), and into chunks so that ``make test-slow``'s
workers share them. Every play-out must end with a result, verify with a complete audit, keep the ruleset's
invariants after every entry, and agree between ``legal_actions`` and ``contains`` (with sampled mutations) and the
choice tree at a sample of its positions. A chunk collects every failing seed and asserts once, on the summary.

Measured (CPU seconds per play-out, verification and checks included, on a loaded shared 2-core machine): 10.1
0.15-0.18, 10.2 2.4-2.7, 10.3 4.0-5.8 (20 play-outs, then 45 more); so the 1,000 cost about 24-28 CPU-minutes,
shared by the chunks among ``make test-slow``'s workers.

Half the seeds play at random, half with the scripted player who attacks whenever it can (:func:`fighting`), so
that combat, retreats, displacements and the SNAFU re-roll window are reached often.
"""

from __future__ import annotations

import random

import pytest

from pbem.kit import conformance
from pbem.rules.contract import Action
from tests.games.gazala.test_playout import fighting

PLAY_OUTS = {"bir-hacheim": 500, "opening-phase": 400, "gazala-battles": 100}
"""How many play-outs each scenario gets: 1,000 in all."""
CHUNK = 50
FIRST_SEED = 1_000
"""Seeds start above those of the other play-out tests, so that these games are new ones."""
SAMPLE_EVERY = 25
"""Check ``legal_actions`` against ``contains`` and the choice tree at every this-many-th position of a game."""

CHUNKS = [(scenario, start) for scenario, count in PLAY_OUTS.items() for start in range(0, count, CHUNK)]


@pytest.fixture(autouse=True)
def _gazala_loadable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_GAMES", "pbem.games.gazala.ruleset:RULESET")


def at_random(seat: str, legal: list[Action], rng: conformance.Picker) -> Action:
    return rng.choice(legal)


def problem(scenario: str, seed: int) -> str | None:
    """What is wrong with the play-out of ``seed`` (None: it ends, verifies and conforms)."""
    choose = fighting if seed % 2 else at_random
    played = conformance.play_out("gazala", scenario, {}, random.Random(seed), title=f"sweep {seed}", choose=choose)
    report = played.verifier.report()
    if not report.valid or report.audit != "complete":
        return f"does not verify: {report.first_error}"
    if report.result is None:
        return f"has no result after {len(played.lines)} entries"
    rng = random.Random(seed)
    try:
        for index, (replay, _) in enumerate(conformance.reachable(played.lines)):
            state = replay.state
            assert state is not None
            replay.ruleset.assert_invariants(state)
            if index % SAMPLE_EVERY or replay.waits_for_protocol() or replay.result is not None:
                continue
            for seat in replay.ruleset.to_act(state):
                conformance.check_legal_matches_contains(replay.ruleset, state, seat, rng, mutations=1)
                conformance.check_choices(replay.ruleset, state, seat)
    except AssertionError as exc:
        return f"does not conform: {exc}"
    return None


@pytest.mark.slow
@pytest.mark.parametrize(("scenario", "start"), CHUNKS, ids=[f"{s}-{n}" for s, n in CHUNKS])
def test_a_thousand_random_play_outs_end_verify_and_conform(scenario: str, start: int) -> None:
    seeds = range(FIRST_SEED + start, FIRST_SEED + min(start + CHUNK, PLAY_OUTS[scenario]))
    failures = {seed: found for seed in seeds if (found := problem(scenario, seed)) is not None}
    assert not failures, f"{len(failures)} of {len(seeds)} {scenario} play-outs failed: {failures}"
