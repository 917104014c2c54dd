"""The Ops Phase (§6): Initiative Determination, Act / Transfer / Pass, activations and their Action Points."""

from __future__ import annotations

import pytest

from pbem.games.gazala.cycle import cycle
from pbem.games.gazala.ops import ap_value, hq_supplied, next_cycle
from pbem.games.gazala.paths import in_command, in_supply
from pbem.games.gazala.state import Marker, sit_of
from tests.games.gazala.gazala_play import PACK, act, active, kinds, place, refused, roll, start, update


def _rolling(marker: Marker, turn: int = 2):
    state = start("opening-phase").model_copy(update={"turn": turn, "marker": marker})
    return cycle(state, ()).state


@pytest.mark.rule("6.1")
def test_initiative_higher_total_wins_and_ties_go_to_the_axis() -> None:
    won = roll(_rolling(Marker()), {"axis": (3,), "cw": (7,)})
    assert won.state.chooser == "cw" and won.events[0].data["winner"] == "cw"
    tied = roll(_rolling(Marker()), {"axis": (5,), "cw": (5,)}).state
    assert tied.chooser == "axis"


@pytest.mark.rule("6.1")
def test_the_marker_flips_to_the_reaction_side_or_moves_on() -> None:
    track = [s.value for s in PACK.tables.initiative_track]
    flipped = roll(_rolling(Marker()), {"axis": (9,), "cw": (1,)}).state
    assert flipped.marker == Marker(side="cw", space=1) and track[1] == 2
    onwards = roll(_rolling(Marker(side="cw", space=1)), {"axis": (9,), "cw": (1,)}).state
    assert onwards.marker == Marker(side="cw", space=2)
    # the marker's DRM counts for the side it shows: Commonwealth 5 + 2 beats the Axis's 6
    drm = roll(_rolling(Marker(side="cw", space=1)), {"axis": (6,), "cw": (5,)}).state
    assert drm.chooser == "cw" and drm.marker == Marker(side="axis", space=1)


@pytest.mark.rule("10")
def test_the_axis_adds_its_gt1_bonus_to_every_initiative_roll() -> None:
    bonus = PACK.number("gt1_axis_initiative_drm")
    state = roll(_rolling(Marker(), turn=1), {"axis": (4,), "cw": (4 + bonus,)}).state
    assert state.chooser == "axis"


@pytest.mark.rule("6.2")
def test_transfer_once_never_back_and_pass() -> None:
    state = start("opening-phase")
    moved = act(state, "axis", {"action": "transfer"}).state
    assert moved.chooser == "cw"
    assert refused(moved, "cw", {"action": "transfer"}).reason == "transferred"
    passed = act(moved, "cw", {"action": "pass"})
    assert passed.state.passed == ("cw",)
    assert passed.state.chooser == "axis" and passed.state.rolls is None  # the other side has it without a roll
    assert refused(passed.state, "axis", {"action": "transfer"}).reason == "other-passed"


@pytest.mark.rule("6.3")
def test_activation_needs_a_formation_of_the_side_at_level_one() -> None:
    state = start("opening-phase")
    assert refused(state, "axis", {"action": "activate", "formation": "7armd"}).reason == "not-a-formation"
    low = state.model_copy(
        update={"formations": {**state.formations, "21pz": state.formations["21pz"].model_copy(update={"level": 0})}}
    )
    assert refused(low, "axis", {"action": "activate", "formation": "21pz"}).reason == "level-zero"
    assert refused(state, "cw", {"action": "activate", "formation": "7armd"}).reason == "not-your-turn"


@pytest.mark.rule("6.3.1")
def test_action_points_from_the_table_plus_the_schwerpunkt() -> None:
    state = start("opening-phase")
    level = state.formations["21pz"].level
    asked = act(state, "axis", {"action": "activate", "formation": "21pz"})
    done = roll(asked.state, {"ap": (6,)})
    expected = ap_value(state, level, 6, red=False) + PACK.number("schwerpunkt_ap")
    assert done.state.activation is not None and done.state.activation.ap == expected
    assert done.state.formations["21pz"].level == level - 1
    assert done.state.phase == "activation" and done.events[0].kind == "action_points"
    plain = roll(act(state, "axis", {"action": "activate", "formation": "15pz"}).state, {"ap": (6,)}).state
    assert plain.activation is not None and plain.activation.ap == ap_value(state, level, 6, red=False)


@pytest.mark.rule("6.3.3")
def test_emergency_supply_then_level_zero() -> None:
    cut = place(start("opening-phase"), **{"21pz-hq": "3829"})  # far from any road: out of supply
    assert not hq_supplied(cut, "21pz")
    first = act(cut, "axis", {"action": "activate", "formation": "21pz"})
    assert "emergency_supply" in kinds(first.events) and first.state.hqs["21pz-hq"].es
    after = roll(first.state, {"ap": (1,)}).state
    assert after.activation is not None and after.activation.supplied
    again = act(
        after.model_copy(update={"phase": "ops", "chooser": "axis", "activation": None}),
        "axis",
        {"action": "activate", "formation": "21pz"},
    )
    assert "out_of_supply" in kinds(again.events)
    spent = roll(again.state, {"ap": (1,)}).state
    assert spent.formations["21pz"].level == 0 and spent.activation is not None and not spent.activation.supplied


@pytest.mark.rule("5.7.5")
def test_an_unsupplied_tracer_is_refused_by_name() -> None:
    cut = place(start("opening-phase"), **{"21pz-hq": "3829"})
    verdict = in_supply(sit_of(cut), "21pz-hq")
    assert not verdict.ok and verdict.rule == "5.7.5" and verdict.reason == "out-of-supply"


@pytest.mark.rule("6.4")
def test_independent_activation_markers() -> None:
    state = start("opening-phase")
    step = act(state, "axis", {"action": "activate_unit", "unit": "recam"})
    assert step.state.units["recam"].acts == 1 and step.state.activation is not None
    assert step.state.activation.unit == "recam" and step.state.activation.ap == 1
    worn = update(state, "recam", acts=PACK.number("independent_activations"))
    assert refused(worn, "axis", {"action": "activate_unit", "unit": "recam"}).reason == "no-act"
    assert refused(state, "axis", {"action": "activate_unit", "unit": "i-5"}).reason == "not-independent"
    assert refused(state, "axis", {"action": "activate_unit", "unit": "nobody"}).reason == "not-a-unit"


@pytest.mark.rule("7.1")
def test_leftover_ap_are_lost_and_actions_need_ap() -> None:
    state = active(start("opening-phase"), "21pz", 1)
    ended = act(state, "axis", {"action": "end_activation"})
    assert ended.events[0].data["lost"] == 1 and ended.state.activation is None
    broke = active(start("opening-phase"), "21pz", 0)
    assert refused(broke, "axis", {"action": "improve", "hex": "2024"}).reason == "no-ap"


@pytest.mark.rule("6")
def test_a_side_that_cannot_activate_anything_passes() -> None:
    state = start("opening-phase")
    zero = {f: s.model_copy(update={"level": 0}) for f, s in state.formations.items() if PACK.formation(f).side == "cw"}
    units = {u: c.model_copy(update={"acts": 3}) for u, c in state.units.items()}
    step = next_cycle(state.model_copy(update={"formations": {**state.formations, **zero}, "units": units}), ())
    assert "cw" in step.state.passed and step.state.chooser == "axis"
    assert any(e.kind == "passed" and e.rule == "6" for e in step.events)


@pytest.mark.rule("5.8.3")
def test_out_of_command_units_may_not_refit() -> None:
    state = update(place(start("opening-phase"), **{"i-5": "2929"}), "i-5", disrupted=True)
    assert in_command(sit_of(state), "i-5").reason in ("out-of-command", "isolated")
    verdict = refused(active(state, "21pz", 3), "axis", {"action": "refit", "unit": "i-5"})
    assert verdict.rule in ("5.8.3", "5.8.4")
