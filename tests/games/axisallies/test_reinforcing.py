"""Reinforcing Land Attacks (p.38, genesis option ``reinforcing_land_attacks``) by units that moved in the combat
move: the pieces remember whether they kept a movement point and whether they declared an attack."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.ruleset import RULESET
from pbem.games.axisallies.state import AxisState
from pbem.rules.contract import Outcome
from tests.games.axisallies.rules_helpers import done, play, refusal
from tests.games.axisallies.test_extras import mv, turn, with_pieces


def _round(state: AxisState, defender: int) -> AxisState:
    """A round's dice: the attacker's all miss (10s), the defender's all show ``defender``."""
    for face in (10, defender):
        request = state.rolls
        assert request is not None
        dice = {s.id: (face,) * s.n for s in request.rolls}
        state = RULESET.resume(state.without_first_roll(), Outcome(dice=dice)).state
    return state


def pressing_mechili(*moves: dict[str, str], hit: bool = False, infantry: int = 1) -> AxisState:
    """Germany (RLP round 1, Benghazi emptied, one UK infantry in Mechili; with more than 1 ``infantry``, El
    Agheila holds them and a tank alone) makes ``moves`` in the combat move, attacks Mechili with El Agheila's
    infantry but one (at least one), and waits to press or cease after a round where its dice miss and the
    defender's miss too, or ``hit`` an infantry."""
    state = turn("combat_move", reinforcing_land_attacks="on")
    el_agheila = state.pieces["el_agheila"] if infantry == 1 else {"germany:infantry": infantry, "germany:tank": 1}
    state = with_pieces(state, benghazi={}, mechili={"united_kingdom:infantry": 1}, el_agheila=el_agheila)
    state = done(play(state, *moves))
    commit = {"action": "commit", "unit": "infantry", "origin": "el_agheila", "target": "mechili"}
    state = play(state, *[commit] * max(1, infantry - 1))
    state = play(state, {"action": "pay", "origin": "el_agheila", "target": "mechili", "source": "el_agheila"})
    state = play(done(state), {"action": "fight", "target": "mechili"})
    state = play(state, {"action": "order", "fight": True, "exempt_stay": False, "source": "tobruk"})
    state = _round(state, 1 if hit else 10)
    if hit:
        state = play(state, {"action": "casualty", "unit": "germany:infantry", "origin": "el_agheila"})
    assert state.pending[-1].kind == "press_or_cease"
    return state


def join(origin: str, unit: str) -> dict[str, str]:
    return {"action": "reinforce", "origin": origin, "unit": unit}


@pytest.mark.rule("38")
def test_p38_units_that_moved_and_kept_a_point_reinforce_once() -> None:
    """A tank that blitzed into Benghazi and stayed, and the mechanized infantry that went along, used 1 of their
    2 points and declared no attack: they reinforce the attack on the adjacent Mechili, each piece once."""
    state = pressing_mechili(mv("tank", "el_agheila", "benghazi"), mv("mech_infantry", "el_agheila", "benghazi"))
    assert state.kept == {"benghazi": {"germany:mech_infantry": 1, "germany:tank": 1}}
    state = play(state, join("benghazi", "tank"), join("benghazi", "mech_infantry"))
    assert state.battle is not None
    assert state.battle.land["benghazi"] == {"germany:mech_infantry": 1, "germany:tank": 1}
    assert state.kept == {}
    assert state.spent["benghazi"] == {"germany:mech_infantry": 1, "germany:tank": 1}  # no noncombat move
    assert refusal(state, join("benghazi", "tank")) == ("38", "no-fresh-unit")


@pytest.mark.rule("38")
def test_p38_units_that_used_every_point_do_not_reinforce() -> None:
    """A tank that blitzed on through Benghazi to Derna (and its mechanized infantry) used both points: though
    Derna is adjacent to Mechili, they cannot reinforce."""
    state = pressing_mechili(mv("tank", "el_agheila", "derna"), mv("mech_infantry", "el_agheila", "derna"))
    assert state.exhausted == {"derna": {"germany:mech_infantry": 1, "germany:tank": 1}}
    assert state.kept == {}
    assert refusal(state, join("derna", "tank")) == ("38", "no-fresh-unit")
    assert refusal(state, join("derna", "mech_infantry")) == ("38", "no-fresh-unit")


@pytest.mark.rule("38")
def test_p38_a_unit_that_declared_an_attack_does_not_reinforce() -> None:
    """El Agheila's one infantry attacks; its other pieces neither moved nor attacked and join, once each."""
    state = pressing_mechili()
    assert refusal(state, join("el_agheila", "infantry")) == ("38", "no-fresh-unit")
    state = play(state, join("el_agheila", "anti_tank_gun"))
    assert state.spent["el_agheila"] == {"germany:anti_tank_gun": 1, "germany:infantry": 1}
    assert refusal(state, join("el_agheila", "anti_tank_gun")) == ("38", "no-fresh-unit")
    state = play(state, join("el_agheila", "tank"), join("el_agheila", "tank"))
    assert refusal(state, join("el_agheila", "tank")) == ("38", "no-fresh-unit")


@pytest.mark.rule("38")
def test_p38_an_attacker_lost_takes_its_mark_of_a_spent_piece_with_it() -> None:
    """Of El Agheila's three infantry two attack and one is lost: the third neither moved nor attacked, and
    joins."""
    state = pressing_mechili(hit=True, infantry=3)
    assert state.pieces["el_agheila"]["germany:infantry"] == 2
    assert state.spent["el_agheila"]["germany:infantry"] == 1
    state = play(state, join("el_agheila", "infantry"))
    assert refusal(state, join("el_agheila", "infantry")) == ("38", "no-fresh-unit")
