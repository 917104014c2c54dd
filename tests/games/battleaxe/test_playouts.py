"""Random legal play-outs of whole games through the full protocol: signed entries, committed dice, checkpoints."""

from __future__ import annotations

import random

import pytest

from pbem.verify.pipeline import verify_lines
from tests.helpers import play_in_memory

OPTION_SETS = [{}, {"extended": True, "luftwaffe": True, "tiger_cubs": True, "consolidated_4rtr": True}]


def finished_and_valid(seed: int) -> None:
    lines = play_in_memory("battleaxe", "campaign", OPTION_SETS[seed % 2], random.Random(seed))
    report, _ = verify_lines(lines)  # a fresh, public verifier
    assert report.valid, [f.render() for f in report.findings[:3]]
    assert report.result is not None and report.audit == "complete"
    assert report.final_checkpoints[-1] == "end"


@pytest.mark.parametrize("seed", range(3))
def test_random_play_outs_finish_with_a_result_and_a_log_that_verifies(seed: int) -> None:
    finished_and_valid(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 300))
def test_200_random_play_outs(seed: int) -> None:
    finished_and_valid(seed)
