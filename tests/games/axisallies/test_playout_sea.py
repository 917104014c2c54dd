"""Random play-outs reach every decision of sea combat and convoy escorts (pp.12, 17-18, 21-22, 25, 33-34)."""

from __future__ import annotations

import pytest

from tests.games.axisallies.test_playout import _registered, conform

__all__ = ["_registered"]

SEA_DECISIONS = {
    "sea_combat_started",
    "sea_attack_declared",
    "submerged",
    "hit_aimed",
    "cargo_lost",
    "cargo_named",
    "cargo_escaped",
    "escort_moved",
    "escort_landed",
}


@pytest.mark.slow
def test_play_outs_reach_every_sea_decision() -> None:
    kinds: set[str] = set()
    for seed in (1, 3):
        kinds |= conform("rommels_last_push-4p", seed=seed, mutations=1)
    assert kinds >= SEA_DECISIONS, sorted(SEA_DECISIONS - kinds)
