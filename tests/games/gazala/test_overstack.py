"""Stacking during movement (§5.3.1, §5.3.3): a stack may pass through and stop in a hex it overstacks; at the end of
the move the hex's combat units disrupt and the opponent displaces the surplus, one unit at a time."""

from __future__ import annotations

import pytest

from pbem.games.gazala.ruleset import RULESET
from pbem.games.gazala.state import GazalaState, sit_of
from pbem.kit.hexes import HexId
from tests.games.gazala.gazala_play import PACK, act, active, kinds, place, refused, start


def _ariete(ap: int = 6) -> GazalaState:
    return active(start("bir-hacheim"), "ariete", ap)


def _full_2822() -> GazalaState:
    """Two of Ariete's tank battalions in 2822 (the Axis Panzer limit), a third next to it in 2823."""
    state = place(_ariete(), **{"ix-132": "2823", "vii-132": "2822", "8-bers": "2622"})
    return place(state, **{"viii-132": "2822"})


@pytest.mark.rule("5.3.1")
def test_a_moving_stack_may_pass_through_a_hex_it_overstacks() -> None:
    moving = act(_full_2822(), "axis", {"action": "move", "units": ["ix-132"]}).state
    through = act(moving, "axis", {"action": "step", "to": "2822"}).state
    assert through.move is not None and through.move.path[-1] == "2822"
    onward = next(
        a["to"] for a in RULESET.legal_actions(through, "axis") if a["action"] == "step" and a["to"] not in ("2823",)
    )
    done = act(act(through, "axis", {"action": "step", "to": onward}).state, "axis", {"action": "halt"})
    assert "overstacked" not in kinds(done.events)
    assert not any(done.state.units[u].disrupted for u in ("ix-132", "vii-132", "viii-132"))


@pytest.mark.rule("5.3.1")
def test_a_move_ending_overstacked_disrupts_the_hex_and_displaces_the_surplus() -> None:
    moving = act(_full_2822(), "axis", {"action": "move", "units": ["ix-132"]}).state
    done = act(act(moving, "axis", {"action": "step", "to": "2822"}).state, "axis", {"action": "halt"})
    over = next(e for e in done.events if e.kind == "overstacked")
    assert over.rule == "5.3.1" and set(over.data["disrupted"]) == {"ix-132", "vii-132", "viii-132"}
    # §10.1: the static Commonwealth has no seat, so its displacement is made for it; the hex meets the limit again.
    displaced = [e for e in done.events if e.kind == "displaced"]
    assert len(displaced) == 1 and displaced[0].rule == "5.3.3"
    assert sum(1 for u in ("ix-132", "vii-132", "viii-132") if done.state.units[u].hex == "2822") == 2
    assert all(done.state.units[u].disrupted for u in ("ix-132", "vii-132", "viii-132"))
    assert done.state.phase == "activation" and not done.state.pending


def _panzers_overstacked() -> GazalaState:
    """21 Pz's two Panzer battalions in 1924, its recce moving in from a neighbour and halting there."""
    sit = sit_of(start("opening-phase"))
    beside = next(str(n) for n in sit.board.grid.neighbours(HexId("1924")) if str(n) not in ("1923", "2024"))
    state = place(active(start("opening-phase"), "21pz", 6), **{"i-5": "1924", "ii-5": "1924", "3": beside})
    moving = act(state, "axis", {"action": "move", "units": ["3"]}).state
    return act(act(moving, "axis", {"action": "step", "to": "1924"}).state, "axis", {"action": "halt"}).state


@pytest.mark.rule("5.3.3")
def test_the_opponent_chooses_the_displacement_at_the_end_of_a_move() -> None:
    state = _panzers_overstacked()
    assert RULESET.to_act(state) == ("cw",) and state.pending[-1].kind == "overstack"
    legal = RULESET.legal_actions(state, "cw")
    assert legal and all(a["action"] == "displace" for a in legal)
    assert {a["unit"] for a in legal} == {"i-5", "ii-5", "3"}
    assert refused(state, "axis", {"action": "displace", "unit": "3", "to": legal[0]["to"]}).reason == "not-your-turn"
    assert refused(state, "cw", {"action": "displace", "unit": "3", "to": "1924"}).reason == "displace-to"
    pick = next(a for a in legal if a["unit"] == "i-5")
    done = act(state, "cw", pick)
    assert kinds(done.events) == ["displaced"] and done.state.units["i-5"].hex == pick["to"]
    assert done.state.phase == "activation" and not done.state.pending and RULESET.to_act(done.state) == ("axis",)
    assert done.state.activation is not None and done.state.activation.ap == 6 - PACK.number("cost_movement")


def _two_hqs() -> tuple[GazalaState, GazalaState, str]:
    """21 Pz's HQ ends its move on 15 Pz's HQ in a hex without combat units: the base state, the state after the
    halt, and the hex."""
    base = start("opening-phase")
    sit = sit_of(base)
    here = base.hqs["21pz-hq"].hex
    assert here is not None
    beside = next(str(n) for n in sit.board.grid.neighbours(HexId(here)) if not sit_of(base).combat["cw"].get(n))
    state = place(active(base, "21pz", 6), **{"15pz-hq": beside})
    moving = act(state, "axis", {"action": "move", "units": ["21pz-hq"]}).state
    return (
        base,
        act(act(moving, "axis", {"action": "step", "to": beside}).state, "axis", {"action": "halt"}).state,
        beside,
    )


@pytest.mark.rule("5.3.1")
@pytest.mark.rule("5.3.2")
def test_an_hq_ending_its_move_on_another_hq_costs_both_a_support_point_and_the_owner_displaces_one() -> None:
    base, state, beside = _two_hqs()
    loss = PACK.number("overstack_hq_support_loss")
    for hq in ("15pz-hq", "21pz-hq"):
        assert state.hqs[hq].support == base.hqs[hq].support - loss
    # §5.3.1 does not say which surplus HQ goes: the owner chooses it, and where among its nearest destinations.
    assert RULESET.to_act(state) == ("axis",) and state.pending[-1].kind == "hq_displacement"
    legal = RULESET.legal_actions(state, "axis")
    assert legal and all(a["action"] == "displace_hq" for a in legal)
    assert {a["hq"] for a in legal} == {"15pz-hq", "21pz-hq"}
    pick = next(a for a in legal if a["hq"] == "15pz-hq")
    done = act(state, "axis", pick)
    moved = next(e for e in done.events if e.kind == "hq_displaced")
    assert moved.rule == "5.3.2" and moved.data == {"hq": "15pz-hq", "src": beside, "dst": pick["to"]}
    assert done.state.hqs["21pz-hq"].hex == beside and done.state.hqs["15pz-hq"].hex == pick["to"]
    penalty = PACK.number("displacement_support_loss")
    assert done.state.hqs["15pz-hq"].support == max(0, base.hqs["15pz-hq"].support - loss - penalty)
    lowered = state.formations["15pz"].level - PACK.number("displacement_level_loss")
    assert done.state.formations["15pz"].level == max(0, lowered)
    assert done.state.phase == "activation" and not done.state.pending and RULESET.to_act(done.state) == ("axis",)


@pytest.mark.rule("5.3.2")
def test_a_surplus_hq_displacement_off_the_nearest_places_or_by_the_opponent_is_refused() -> None:
    _, state, beside = _two_hqs()
    legal = RULESET.legal_actions(state, "axis")
    near = {a["to"] for a in legal if a["hq"] == "21pz-hq"}
    far = next(
        str(h) for h in sit_of(state).board.grid.neighbours(HexId(beside)) if str(h) not in near and str(h) != beside
    )
    assert refused(state, "axis", {"action": "displace_hq", "hq": "21pz-hq", "to": far}).reason == "not-nearest"
    assert refused(state, "axis", {"action": "displace_hq", "hq": "90le-hq", "to": far}).reason == "not-displaced"
    assert refused(state, "cw", legal[0]).reason in ("not-your-turn", "not-displacing")


@pytest.mark.rule("5.3.2")
def test_a_unit_displaced_next_to_a_lone_enemy_hq_displaces_it() -> None:
    state = _panzers_overstacked()
    grid = sit_of(state).board.grid
    occupied = {c.hex for c in state.units.values()} | {c.hex for c in state.hqs.values()}
    pick, lone = next(
        (a, str(h))
        for a in RULESET.legal_actions(state, "cw")
        for h in grid.neighbours(HexId(a["to"]))
        if str(h) not in occupied and HexId("1924") not in (h, *grid.neighbours(h))
    )
    # the same position with a lone Commonwealth HQ waiting next to the displacement's hex
    with_hq = place(state, **{"7armd-hq": lone})
    done = act(with_hq, "cw", pick)
    if done.state.pending and done.state.pending[-1].kind == "hq_displacement":
        assert RULESET.to_act(done.state) == ("cw",)
        done = act(done.state, "cw", RULESET.legal_actions(done.state, "cw")[0])
    moved = next(e for e in done.events if e.kind == "hq_displaced")
    assert moved.data["hq"] == "7armd-hq" and moved.data["src"] == lone
    assert done.state.hqs["7armd-hq"].hex != lone
