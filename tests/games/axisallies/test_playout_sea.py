"""Random play-outs reach every decision of sea combat and convoy escorts (pp.12, 17-18, 21-22, 25, 33-34)."""

from __future__ import annotations

import pytest

from tests.games.axisallies.test_playout import GAME, conform

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


@pytest.fixture(autouse=True)
def _registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_GAMES", GAME)


@pytest.mark.slow
def test_play_outs_reach_every_sea_decision() -> None:
    """A few seeds of the four-player game, until every sea decision was taken (each seed is one full game)."""
    kinds: set[str] = set()
    for seed in range(1, 9):
        kinds |= conform("rommels_last_push-4p", seed=seed, mutations=1)
        if kinds >= SEA_DECISIONS:
            break
    assert kinds >= SEA_DECISIONS, sorted(SEA_DECISIONS - kinds)
