"""Random play-outs through the real protocol that reach the battle rules beyond the Combat Round: Pursuit Fire of
Retreats (§10.3, §10.5), Refusing Battle (§8.4, §10.2), Withdrawals (§5.3), Routs and Overruns (§11.3, §11.4),
Probe Combat (§10.41) and Blitz Turns (§4.4), with the contract's conformance checks and the claims audit.

The scripted player prefers the decisions that lead there (engaging, disengaging, refusing, probing, pursuing, a
Blitz) and otherwise plays like the peaceful one, at random among the legal actions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from pbem.kit import conformance
from pbem.rules.contract import Action
from tests.games.rommel.test_playout_rommel import Peaceful, conform, seated


class Fighter(Peaceful):
    """Takes a fighting decision three times in four when one is offered, and commits cards and moves often."""

    def choose(self, seat: str, legal: list[Action], rng: conformance.Picker) -> Action:
        state = self.state
        assert state is not None

        def enemy(hex_id: str | None) -> bool:
            return hex_id is not None and any(state.tokens[t].side != seat for t in state.at(hex_id))

        def fighting(action: Action) -> bool:
            kind = action["action"]
            if kind in ("blitz", "fight"):
                return True
            if kind == "refuse":  # half the time: battles accepted are fought, and can Rout
                return rng.choice(range(2)) == 0
            if kind == "probe":
                return bool(action["provoke"])
            if kind == "pursue":
                return bool(action["dice"])
            if kind == "step" and action["to"] in state.pack.land():
                near = any(enemy(str(n)) for n in state.pack.hex_map.neighbours(action["to"]))  # type: ignore[arg-type]
                return near or enemy(action["to"]) or enemy(state.tokens[action["token"]].hex)
            if kind == "regroup":
                return enemy(action["destination"])
            return False

        hot = [a for a in legal if fighting(a)]
        if hot and rng.choice(range(4)) != 0:
            return rng.choice(hot)
        busy = [a for a in legal if a["action"] in ("commit", "group", "regroup", "step")]
        if busy and len(state.turn.committed or ()) < 3 and rng.choice(range(3)) != 0:
            return rng.choice(busy)
        return super().choose(seat, legal, rng)


@pytest.fixture
def fighter(monkeypatch: pytest.MonkeyPatch) -> Iterator[Fighter]:
    yield seated(Fighter(), monkeypatch)


def fought(player: Fighter, scenario: str, seed: int) -> conformance.PlayOut:
    return conformance.play_out("rommel", scenario, {}, random.Random(seed), choose=player.choose, title=f"f{seed}")


def kinds(played: conformance.PlayOut) -> Counter[str]:
    return Counter(e.event.kind for e in played.game.events)


@pytest.mark.rule("10.5")
@pytest.mark.rule("10.2")
@pytest.mark.rule("11.4")
def test_a_fighting_game_refuses_pursues_and_overruns_and_conforms(fighter: Fighter) -> None:
    # seeds chosen by a search: the Regroup Forced Marches (§5.2 sidebar) changed which actions are legal, hence the
    # random games; this one refuses, pursues, overruns and routs
    played = fought(fighter, "demo-1940", 6)
    found = kinds(played)
    for kind in ("battle_refused", "slowest_announced", "pursuit_fire", "pursuit_losses", "overrun", "rout_attrition"):
        assert found[kind], kind
    assert found["withdrawal_ended"] and found["game_over"]
    assert conform(played, 6, mutations=1) > 0


@pytest.mark.rule("10.41")
@pytest.mark.rule("4.4")
@pytest.mark.rule("11.3")
def test_fighting_games_probe_blitz_and_rout(fighter: Fighter) -> None:
    # seeds found by a search (the rules change the random games: last, a Group Move begins only where a unit can
    # step); no seed below 100 reaches a Probe, a Blitz and a Rout in one game, so two games share them
    probing, routing = fought(fighter, "demo-1940", 61), fought(fighter, "demo-1940", 40)
    for played in (probing, routing):
        report = played.verifier.report()
        assert report.valid and report.audit == "complete", report.first_error
    probes = [e for e in probing.game.events if e.event.kind == "battle_begun" and e.event.rule == "10.41"]
    assert probes and kinds(probing)["blitz_begun"]
    assert kinds(routing)["routed"] and kinds(routing)["rout_attrition"]


@pytest.mark.rule("5.1")
def test_a_group_move_begins_only_where_one_of_its_units_can_step(fighter: Fighter) -> None:
    """Seed 32 of the demo found a dead end: the Allies began a Group Move from a battle hex whose undisrupted units
    had no legal step (enemy hexsides, impassable sides), so the Move could neither go on nor end (a Move moves at
    least one unit). Beginning it is now refused (``no-first-step``) and the game plays to its end."""
    played = fought(fighter, "demo-1940", 32)
    report = played.verifier.report()
    assert report.valid and played.game.result is not None, report.first_error


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 19))
def test_fighting_games_conform(fighter: Fighter, seed: int) -> None:
    assert conform(fought(fighter, "demo-1940", seed), seed, mutations=2) > 0


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["1940", "crusader", "gazala", "battleaxe"])
def test_fighting_games_of_other_scenarios_conform(fighter: Fighter, scenario: str) -> None:
    assert conform(fought(fighter, scenario, 3), 3, mutations=1) > 0
