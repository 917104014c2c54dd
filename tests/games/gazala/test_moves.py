"""The Movement Action step by step (§7.3), Enemy Minefield entry (§7.3.6), HQ displacement (§7.3.5) and the
Formation Reaction of the non-moving seat (§6.5)."""

from __future__ import annotations

import pytest

from pbem.games.gazala.board import HALF, walk_path
from pbem.games.gazala.moves import qualifying
from pbem.games.gazala.ops import ap_value
from pbem.games.gazala.ruleset import RULESET
from pbem.games.gazala.state import Reacting, ReactionOffer, sit_of
from pbem.kit.hexes import HexId
from tests.games.gazala.gazala_play import PACK, act, active, kinds, place, refused, roll, start, update


def _ariete(ap: int = 6):
    return active(start("bir-hacheim"), "ariete", ap)


@pytest.mark.rule("7.3")
def test_a_move_pays_its_ap_then_steps_and_halts() -> None:
    state = _ariete(3)
    begun = act(state, "axis", {"action": "move", "units": ["ix-132"]})
    assert begun.state.activation is not None and begun.state.activation.ap == 2
    assert refused(begun.state, "axis", {"action": "halt"}).reason == "not-moved"
    assert refused(begun.state, "axis", {"action": "end_activation"}).reason == "moving"
    stepped = act(begun.state, "axis", {"action": "step", "to": "2822"})
    assert stepped.state.units["ix-132"].hex == "2822" and stepped.events[-1].kind == "moved"
    halted = act(stepped.state, "axis", {"action": "halt"})
    assert halted.state.move is None and halted.state.units["ix-132"].hex == "2822"
    assert refused(halted.state, "axis", {"action": "step", "to": "2821"}).reason == "no-move"


@pytest.mark.rule("7.3.2")
def test_steps_beyond_the_movement_allowance_are_refused() -> None:
    state = _ariete()
    sit = sit_of(state)
    path = [HexId("2722")]
    for _ in range(6):
        path.append(sit.board.grid.neighbours(path[-1])[0])  # due north, clear going
    whole, spent = walk_path(sit, ["ix-132"], path[:6], supplied=True)
    assert whole.ok and spent == PACK.unit("ix-132").ma * HALF
    over, _ = walk_path(sit, ["ix-132"], path, supplied=True)
    assert (over.rule, over.reason) == ("7.3.2", "over-budget")
    halved, _ = walk_path(sit, ["ix-132"], path[:6], supplied=False)  # §5.7.5: half MA out of supply
    assert halved.reason == "over-budget"
    moving = act(state, "axis", {"action": "move", "units": ["ix-132"]}).state
    for hex_id in path[1:6]:
        moving = act(moving, "axis", {"action": "step", "to": hex_id}).state
    assert moving.move is None and moving.units["ix-132"].hex == path[5]  # every MP spent: the move ended


@pytest.mark.rule("7.3.1")
def test_a_moving_stack_is_one_formations_starting_together() -> None:
    state = _ariete()
    assert refused(state, "axis", {"action": "move", "units": ["vii-132", "8-bers"]}).reason == "units-order"
    assert refused(state, "axis", {"action": "move", "units": ["ix-132", "vii-132"]}).reason == "not-together"
    assert refused(state, "axis", {"action": "move", "units": ["ff-1"]}).reason == "not-active"
    assert act(state, "axis", {"action": "move", "units": ["8-bers", "vii-132"]}).state.move is not None


@pytest.mark.rule("5.6.3")
def test_a_disrupted_unit_does_not_move() -> None:
    state = update(_ariete(), "ix-132", disrupted=True)
    assert refused(state, "axis", {"action": "move", "units": ["ix-132"]}).reason == "disrupted"


@pytest.mark.rule("5.4.1")
def test_entering_an_enemy_zone_of_control_ends_the_move() -> None:
    state = act(_ariete(), "axis", {"action": "move", "units": ["ix-132"]}).state
    stopped = act(state, "axis", {"action": "step", "to": "2623"})  # next to the Free French in 2522
    assert stopped.state.move is None and stopped.state.units["ix-132"].hex == "2623"


@pytest.mark.rule("7.3.6")
def test_minefield_entry_checks_split_the_stack() -> None:
    state = place(_ariete(), **{"8-bers": "2722", "vii-132": "2722"})
    moving = act(state, "axis", {"action": "move", "units": ["8-bers", "ix-132", "vii-132"]}).state
    asked = act(moving, "axis", {"action": "step", "to": "2622"})  # the Bir Hacheim Box: an enemy Minefield
    assert asked.state.rolls is not None and asked.state.rolls.rolls[0].n == 3
    done = roll(asked.state, {"mines": (1, 10, 5)})
    units = done.state.units
    assert units["8-bers"].hex == "2622" and not units["8-bers"].disrupted
    assert units["ix-132"].hex == "2722" and units["ix-132"].disrupted
    assert units["ix-132"].cs == PACK.unit("ix-132").cs - 1
    assert units["vii-132"].hex == "2722" and units["vii-132"].disrupted
    assert [e.data["result"] for e in done.events if e.kind == "minefield_check"] == [
        "success",
        "disrupt_loss",
        "disrupt",
    ]
    assert done.state.move is None


@pytest.mark.rule("7.3.6")
def test_minefield_entry_is_the_whole_move() -> None:
    moving = act(_ariete(), "axis", {"action": "move", "units": ["ix-132"]}).state
    moved = act(moving, "axis", {"action": "step", "to": "2721"}).state
    assert refused(moved, "axis", {"action": "step", "to": "2621"}).reason == "not-first-step"
    back = act(_ariete(), "axis", {"action": "move", "units": ["ix-132"]}).state
    assert (
        roll(act(back, "axis", {"action": "step", "to": "2622"}).state, {"mines": (1,)}).state.units["ix-132"].hex
        == "2622"
    )


@pytest.mark.rule("5.8.4")
def test_an_isolated_unit_checks_before_it_moves() -> None:
    state = place(_ariete(), **{"ix-132": "0529"})
    asked = act(state, "axis", {"action": "move", "units": ["ix-132"]})
    assert asked.state.rolls is not None
    failed = roll(asked.state, {"ec": (10,)})
    assert failed.state.units["ix-132"].disrupted and failed.state.move is None
    passed = roll(asked.state, {"ec": (1,)})
    assert passed.state.move is not None and passed.state.move.units == ("ix-132",)


# --- Formation Reaction (§6.5) in a two-seat scenario ----------------------------------------------------------------


def _panzer(hex_id: str, ap: int = 6, hq: str = "2820"):
    return active(place(start("opening-phase"), **{"i-5": hex_id, "21pz-hq": hq}), "21pz", ap)


@pytest.mark.rule("6.5.1")
def test_entering_a_hex_next_to_the_enemy_offers_a_reaction() -> None:
    moving = act(_panzer("2921"), "axis", {"action": "move", "units": ["i-5"]}).state
    entered = act(moving, "axis", {"action": "step", "to": "2922"}).state
    offer = entered.pending[-1]
    assert isinstance(offer, ReactionOffer) and offer.seat == "cw" and not offer.exit
    assert {"action": "react", "unit": "7mot"} in RULESET.legal_actions(entered, "cw")
    assert refused(entered, "axis", {"action": "halt"}).reason == "not-your-turn"
    declined = act(entered, "cw", {"action": "decline"})
    assert declined.state.move is None  # the EZOC ended the move anyway
    assert "reaction_declined" in kinds(declined.events)


@pytest.mark.rule("6.5.1")
def test_leaving_a_hex_next_to_the_enemy_is_announced_first() -> None:
    moving = act(_panzer("2922"), "axis", {"action": "move", "units": ["i-5"]}).state
    assert refused(moving, "axis", {"action": "step", "to": "2921"}).reason == "announce-exit"
    offered = act(moving, "axis", {"action": "leave"}).state
    assert isinstance(offered.pending[-1], ReactionOffer) and offered.pending[-1].exit
    declined = act(offered, "cw", {"action": "decline"}).state
    assert act(declined, "axis", {"action": "step", "to": "2921"}).state.units["i-5"].hex == "2921"


@pytest.mark.rule("6.5.1")
def test_a_reacting_unit_must_qualify() -> None:
    entered = act(
        act(_panzer("2921"), "axis", {"action": "move", "units": ["i-5"]}).state,
        "axis",
        {"action": "step", "to": "2922"},
    ).state
    assert qualifying(entered, "7mot").ok
    assert refused(entered, "cw", {"action": "react", "unit": "8h-4"}).reason == "not-adjacent"
    assert refused(entered, "cw", {"action": "react", "unit": "i-8"}).reason == "not-a-unit"
    disrupted = update(entered, "7mot", disrupted=True)
    assert refused(disrupted, "cw", {"action": "react", "unit": "7mot"}).reason == "disrupted"


@pytest.mark.rule("6.5.2")
def test_a_successful_reaction_stops_the_mover_and_the_formation_acts() -> None:
    moving = act(_panzer("2922"), "axis", {"action": "move", "units": ["i-5"]}).state
    offered = act(moving, "axis", {"action": "leave"}).state
    attempted = act(offered, "cw", {"action": "react", "unit": "7mot"})
    level = offered.formations["7armd"].level
    reacted = roll(attempted.state, {"reaction": (PACK.hq("7armd-hq").reaction, 4)})
    state = reacted.state
    assert state.units["i-5"].hex == "2922" and state.move is None
    assert isinstance(state.pending[-1], Reacting) and state.reaction is not None
    assert state.reaction.ap == ap_value(state, level, 4, red=True)
    assert state.formations["7armd"].level == level - 1
    ended = act(state, "cw", {"action": "end_activation"}).state
    assert ended.reaction is None and ended.activation is not None and ended.activation.formation == "21pz"
    again = act(ended, "axis", {"action": "move", "units": ["i-5"]}).state
    assert again.move is not None and not any(isinstance(p, ReactionOffer) for p in again.pending)
    assert refused(again, "axis", {"action": "step", "to": "2921"}).reason == "announce-exit"  # a new Action


@pytest.mark.rule("6.5.2")
def test_a_failed_reaction_lets_the_mover_go_on_and_no_second_attempt() -> None:
    moving = act(_panzer("2922"), "axis", {"action": "move", "units": ["i-5"]}).state
    offered = act(moving, "axis", {"action": "leave"}).state
    failed = roll(act(offered, "cw", {"action": "react", "unit": "7mot"}).state, {"reaction": (10, 4)})
    assert "reaction_failed" in kinds(failed.events) and failed.state.move is not None
    assert failed.state.formations["7armd"].level == offered.formations["7armd"].level
    on = act(failed.state, "axis", {"action": "step", "to": "2921"}).state
    assert on.move is not None and on.move.attempted


@pytest.mark.rule("7.3.5")
def test_a_lone_enemy_hq_next_to_the_mover_is_displaced() -> None:
    moving = act(_panzer("3325"), "axis", {"action": "move", "units": ["i-5"]}).state
    level = moving.formations["7armd"].level
    entered = act(moving, "axis", {"action": "step", "to": "3225"}).state
    # §5.3.2: the HQ's owner chooses among its nearest destinations, in the middle of the mover's Action.
    assert RULESET.to_act(entered) == ("cw",) and entered.pending[-1].kind == "hq_displacement"
    legal = RULESET.legal_actions(entered, "cw")
    assert len(legal) > 1 and {a["hq"] for a in legal} == {"7armd-hq"}
    grid = sit_of(entered).board.grid
    assert len({grid.distance(HexId("3124"), HexId(a["to"])) for a in legal}) == 1
    chosen = act(entered, "cw", legal[-1])
    displaced = [e for e in chosen.events if e.kind == "hq_displaced"]
    assert displaced and displaced[0].data["hq"] == "7armd-hq" and displaced[0].rule == "7.3.5"
    state = chosen.state
    hq_hex = state.hqs["7armd-hq"].hex
    assert hq_hex == legal[-1]["to"]
    assert RULESET.to_act(state) == ("axis",) and state.move is not None
    assert hq_hex != "3124" and any(
        c.hex == hq_hex for u, c in state.units.items() if PACK.unit(u).formation == "7armd"
    )
    assert state.hqs["7armd-hq"].support == PACK.hq("7armd-hq").support - 1
    assert state.formations["7armd"].level == level - 1
    assert state.move is not None and "7armd" in state.move.barred


@pytest.mark.rule("5.7.3")
def test_ending_a_move_on_an_enemy_major_source_blocks_it() -> None:
    source = next(s for s in PACK.supply_sources if s.side == "cw" and s.kind == "major")
    col = int(source.hex[:2]) - 1
    near = f"{col:02d}{source.hex[2:]}"
    state = act(_panzer(near, hq=f"{col - 1:02d}{source.hex[2:]}"), "axis", {"action": "move", "units": ["i-5"]}).state
    state = act(state, "axis", {"action": "step", "to": source.hex}).state
    if state.move is not None:
        state = act(state, "axis", {"action": "halt"}).state
    assert source.id in state.blocked


@pytest.mark.rule("5.3.2")
def test_an_hq_moving_alone_displaces_no_enemy_hq() -> None:
    state = active(place(start("opening-phase"), **{"21pz-hq": "3325"}), "21pz", 6)
    moving = act(state, "axis", {"action": "move", "units": ["21pz-hq"]}).state
    entered = act(moving, "axis", {"action": "step", "to": "3225"})
    assert "hq_displaced" not in kinds(entered.events) and entered.state.hqs["7armd-hq"].hex == "3124"
    assert not any(p.kind == "hq_displacement" for p in entered.state.pending)
