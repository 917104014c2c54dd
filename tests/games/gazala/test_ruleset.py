"""Gazala's scenarios set up from the pack (§10), their special rules, and the skipped first Admin Phase (§4)."""

from __future__ import annotations

import pytest

from pbem.games.gazala.cycle import cycle
from pbem.games.gazala.ops import end_of_turn
from pbem.games.gazala.ruleset import RULESET
from tests.games.gazala.gazala_play import PACK, act, active, kinds, refused, start


@pytest.mark.rule("10.1")
def test_solitaire_setup_has_one_seat_and_only_ariete_acts() -> None:
    state = start("bir-hacheim")
    scenario = PACK.scenario("bir-hacheim")
    assert [s.id for s in next(s for s in RULESET.scenarios if s.id == "bir-hacheim").seats] == ["axis"]
    assert state.rolls is None and RULESET.to_act(state) == ("axis",)
    assert {p.unit for p in scenario.placements} <= {u for u, c in state.units.items() if c.hex} | set(state.hqs)
    assert state.formations["ariete"].level == next(f.level for f in scenario.formations if f.formation == "ariete")
    assert RULESET.legal_actions(state, "axis") == [{"action": "activate", "formation": "ariete"}]
    assert refused(state, "axis", {"action": "pass"}).reason == "no-pass"
    assert refused(state, "axis", {"action": "transfer"}).rule == "10.1"
    assert refused(state, "axis", {"action": "activate_unit", "unit": "recam"}).rule in ("10.1", "6.4")
    assert state.air_missions == 1 and state.air == {"2-stormo": True}


@pytest.mark.rule("10.1")
def test_solitaire_ends_after_six_activations() -> None:
    state = start("bir-hacheim")
    limit = PACK.scenario("bir-hacheim").special_rules
    assert any(r.kind == "max_activations" and r.value == 6 for r in limit)
    spent = state.model_copy(
        update={
            "formations": {
                **state.formations,
                "ariete": state.formations["ariete"].model_copy(update={"activations": 6}),
            }
        }
    )
    assert refused(spent, "axis", {"action": "activate", "formation": "ariete"}).reason == "activations-spent"
    ended = act(active(spent, "ariete", 1), "axis", {"action": "end_activation"})
    assert ended.state.phase == "over" and RULESET.result(ended.state) is not None
    assert "game_ended" in kinds(ended.events)


@pytest.mark.rule("10")
def test_first_initiative_of_gt1_is_the_axis_without_a_roll() -> None:
    state = start("opening-phase")
    assert state.rolls is None and state.chooser == "axis" and state.initiative == "axis"
    track = [s.value for s in PACK.tables.initiative_track]
    assert state.marker.side == "cw" and track[state.marker.space] == 2
    assert not state.first_cycle
    again = cycle(state.model_copy(update={"phase": "ops"}), ())
    assert again.state.rolls is not None  # later cycles roll


@pytest.mark.rule("4")
def test_first_admin_phase_is_skipped_and_turn_two_begins_with_it() -> None:
    state = start("opening-phase")
    assert state.turn == 1 and state.phase == "ops" and not PACK.tables.turns[0].admin_phase
    step = end_of_turn(state.model_copy(update={"passed": ("axis", "cw")}), ())
    assert step.state.turn == 2
    assert "turn_began" in kinds(step.events) and "recovered" in kinds(step.events)


@pytest.mark.rule("5.9")
def test_the_schwerpunkt_starts_on_the_chosen_formation() -> None:
    assert start("opening-phase").schwerpunkt == "21pz"
    assert start("gazala-battles", schwerpunkt="15pz").schwerpunkt == "15pz"
    assert start("bir-hacheim").schwerpunkt is None


@pytest.mark.rule("10.2")
def test_tobruk_garrison_may_not_activate_before_turn_three() -> None:
    state = start("opening-phase").model_copy(update={"chooser": "cw", "initiative": "cw"})
    verdict = refused(state, "cw", {"action": "activate", "formation": "2sa"})
    assert verdict.reason == "restricted" and verdict.rule == "10.2"
    later = state.model_copy(update={"turn": 3})
    assert RULESET.contains(later, "cw", RULESET.parse_action({"action": "activate", "formation": "2sa"})).ok


@pytest.mark.rule("10.3")
def test_dispersed_armour_waits_for_contact() -> None:
    state = start("gazala-battles").model_copy(update={"chooser": "cw", "initiative": "cw"})
    verdict = refused(state, "cw", {"action": "activate", "formation": "1armd"})
    assert verdict.reason == "restricted" and verdict.rule == "10.3"
    near = state.model_copy(
        update={"units": {**state.units, "i-5": state.units["i-5"].model_copy(update={"hex": "3117"})}}
    )
    assert RULESET.contains(near, "cw", RULESET.parse_action({"action": "activate", "formation": "1armd"})).ok
