"""Rommel through the real protocol: random legal play-outs (dice, the shared deck and hidden identities), the
contract's conformance checks on every reachable state, and the claims audit on the finished game.

The scripted players Engage and fight Combat Rounds through the battle stage (``fights.py`` over ``battle*.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from pbem.games.rommel.audit import audit
from pbem.games.rommel.ruleset import RULESET
from pbem.games.rommel.state import RommelState
from pbem.kit import conformance
from pbem.rules.contract import Action

GAMES = "pbem.games.rommel.ruleset:RULESET"


class Peaceful:
    """A scripted player that ends phases often; with ``engage`` false it never Engages."""

    def __init__(self, *, engage: bool = True) -> None:
        self.state: RommelState | None = None
        self.engage = engage

    def choose(self, seat: str, legal: list[Action], rng: conformance.Picker) -> Action:
        state = self.state
        assert state is not None and legal

        def enemy(hex_id: str) -> bool:
            return any(state.tokens[t].side != seat for t in state.at(hex_id))

        def engages(action: Action) -> bool:
            kind = action["action"]
            return (kind in ("step", "force") and enemy(action["to"])) or (
                kind == "regroup" and enemy(action["destination"])
            )

        calm = legal if self.engage else [a for a in legal if not engages(a)]
        enders = [a for a in calm if a["action"] in ("select", "end_movement", "end_combat", "end_move", "end_buildup")]
        if enders and rng.choice(range(3)) == 0:
            return rng.choice(enders)
        return rng.choice(calm)


P = TypeVar("P", bound=Peaceful)


def seated(player: P, monkeypatch: pytest.MonkeyPatch) -> P:
    """``player`` shown the state whose legal actions it chooses among (the rules list them, the player looks)."""
    monkeypatch.setenv("PBEM_GAMES", GAMES)
    inner = RULESET.legal_actions

    def recording(state: RommelState, seat: str) -> list[Action]:
        player.state = state
        return inner(state, seat)

    monkeypatch.setattr(RULESET, "legal_actions", recording)
    return player


@pytest.fixture
def peaceful(monkeypatch: pytest.MonkeyPatch) -> Iterator[Peaceful]:
    yield seated(Peaceful(), monkeypatch)


def play(player: Peaceful, scenario: str, seed: int) -> conformance.PlayOut:
    return conformance.play_out("rommel", scenario, {}, random.Random(seed), choose=player.choose, title=f"p{seed}")


def conform(played: conformance.PlayOut, seed: int, mutations: int) -> int:
    report = played.verifier.report()
    assert report.valid and report.result is not None and report.audit == "complete", report.first_error
    rng = random.Random(seed)
    checked = 0
    for replay, _ in conformance.reachable(played.lines):
        state = replay.state
        assert state is not None
        if replay.waits_for_protocol() or replay.result is not None:
            continue
        for seat in replay.ruleset.to_act(state):
            checked += conformance.check_legal_matches_contains(replay.ruleset, state, seat, rng, mutations=mutations)
            conformance.check_choices(replay.ruleset, state, seat)
    conformance.check_deterministic(played.lines)
    assert conformance.check_viewer_hashes(played.lines, played.keys) > 0
    final = played.game.state
    assert isinstance(final, RommelState) and audit(final) is None
    return checked


@pytest.mark.rule("17.0")
def test_a_random_demo_game_conforms(peaceful: Peaceful) -> None:
    played = play(peaceful, "demo-1940", 54)  # a game with a battle fought, and a block eliminated in it
    assert conform(played, 54, mutations=2) > 0
    kinds = [e.event.kind for e in played.game.events]
    assert "game_over" in kinds and "fired" in kinds and "unit_eliminated" in kinds
    events = [e.event for e in played.game.events]
    missing = conformance.rules_without_tests(RULESET, Path(__file__).resolve().parents[2], events)
    assert not missing, f"rules cited without a test marked with them: {sorted(missing)}"


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["demo-1940", "1940", "crusader", "gazala"])
@pytest.mark.parametrize("seed", range(2, 5))
def test_random_games_conform(peaceful: Peaceful, scenario: str, seed: int) -> None:
    assert conform(play(peaceful, scenario, seed), seed, mutations=5) > 0


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["1941", "battleaxe", "1942", "pursuit", "1941-42"])
def test_every_other_scenario_conforms(peaceful: Peaceful, scenario: str) -> None:
    assert conform(play(peaceful, scenario, 7), 7, mutations=2) > 0
