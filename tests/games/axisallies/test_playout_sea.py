"""Random play-outs reach every decision of sea combat and convoy escorts (pp.12, 17-18, 21-22, 25, 33-34), ships
stopped by sea mines (p.27) and trucks picking cargo up on their way (p.32)."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.data import default_pack_bytes, load_pack
from pbem.games.axisallies.position import graph_of
from pbem.kit.conformance import Picker
from pbem.rules.contract import Action
from tests.games.axisallies.test_playout import GAME, brisk, conform

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
LOOPS = {"sea_mines_entered", "truck_picked_up"}
"""Ships stopped in mined zones (p.27) and trucks picking cargo up on their way (p.32)."""


@pytest.fixture(autouse=True)
def _registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_GAMES", GAME)


_PACK = load_pack(default_pack_bytes())
STEERED = {"requisition", "escape", "sea_attack"}


def _seaward(action: Action) -> bool:
    """Whether ``action`` brings on a war at sea: requisitions (cargo to ship), escapes and sea attacks, moves and
    deployments into sea zones (convoys, escorts, ships into attack position)."""
    if action["action"] in STEERED:
        return True
    to = action.get("to")
    graph = graph_of(_PACK)
    return action["action"] in ("move", "deploy") and to in graph.nodes and graph.kind(to) == "sea"


def seafaring(seat: str, legal: list[Action], rng: Picker) -> Action:
    """Random legal play steered to sea: three times in four, a legal action that brings on a war at sea (when
    there is one); else :func:`.test_playout.brisk`. Every action is still a random legal one, so the play-outs
    reach the rare sea decisions (a transport hit with two pieces of cargo aboard, an escape) honestly."""
    seaward = [a for a in legal if _seaward(a)]
    if seaward:
        steer: bool = rng.choice((True, True, True, False))
        if steer:
            return rng.choice(seaward)
    return brisk(seat, legal, rng)


@pytest.mark.slow
def test_play_outs_reach_every_sea_decision() -> None:
    """Seeds of the four-player game played seaward, until every sea decision was taken and ships stopped in mined
    zones and trucks picked cargo up (each seed is one full game; the first reaches them all today)."""
    kinds: set[str] = set()
    for seed in range(1, 9):
        kinds |= conform("rommels_last_push-4p", seed=seed, mutations=1, choose=seafaring)
        if kinds >= SEA_DECISIONS | LOOPS:
            break
    assert kinds >= SEA_DECISIONS | LOOPS, sorted((SEA_DECISIONS | LOOPS) - kinds)
