"""The Organisation Segment (§9.2): independents without a white stripe are assigned and reassigned (§5.5.2), the
Axis first (ending with the Schwerpunkt), then the Commonwealth."""

from __future__ import annotations

import pytest

from pbem.games.gazala.admin import begin_admin
from pbem.games.gazala.ruleset import RULESET
from pbem.games.gazala.state import GazalaState
from tests.games.gazala.gazala_play import PACK, act, kinds, place, refused, start, update


def _organising(state: GazalaState | None = None) -> GazalaState:
    base = state if state is not None else start("opening-phase")
    return begin_admin(base.model_copy(update={"turn": 2}), ()).state


@pytest.mark.rule("5.5.2")
def test_an_independent_is_reassigned_within_command_range() -> None:
    state = _organising()
    legal = RULESET.legal_actions(state, "axis")
    assert {"action": "assign", "unit": "18-flak", "formation": "15pz"} in legal
    done = act(state, "axis", {"action": "assign", "unit": "18-flak", "formation": "15pz"})
    assert kinds(done.events) == ["unit_assigned"] and done.events[0].data["from"] == "21pz"
    assert done.state.units["18-flak"].assigned == "15pz" and done.state.admin == "organisation"


@pytest.mark.rule("5.5.2")
def test_assignments_are_refused_outside_the_rules() -> None:
    state = _organising()
    permanent = next(u.id for u in PACK.units if u.side == "axis" and u.independent == "permanent")
    formation_unit = next(u.id for u in PACK.units if u.formation == "21pz")
    assert refused(state, "axis", {"action": "assign", "unit": permanent, "formation": "21pz"}).reason == (
        "not-assignable"
    )
    assert refused(state, "axis", {"action": "assign", "unit": formation_unit, "formation": "15pz"}).reason == (
        "not-assignable"
    )
    assert refused(state, "axis", {"action": "assign", "unit": "18-flak", "formation": "ariete"}).reason == "assign-to"
    assert refused(state, "axis", {"action": "assign", "unit": "18-flak", "formation": "21pz"}).reason == "assign-to"
    assert refused(state, "cw", {"action": "assign", "unit": "8rtr", "formation": "1sa"}).reason == "not-your-turn"
    shaken = update(state, "18-flak", disrupted=True)
    assert refused(shaken, "axis", {"action": "assign", "unit": "18-flak", "formation": "15pz"}).reason == "disrupted"
    far = _organising(place(start("opening-phase"), **{"18-flak": "0120"}))
    verdict = refused(far, "axis", {"action": "assign", "unit": "18-flak", "formation": "15pz"})
    assert verdict.reason in ("out-of-range", "out-of-command", "isolated")


@pytest.mark.rule("9.2")
def test_the_commonwealth_organises_after_the_axis_schwerpunkt() -> None:
    near = _organising(place(start("opening-phase"), **{"1sa-hq": "2306"}))  # 8 RTR (50 Div) within its range too
    state = act(near, "axis", {"action": "schwerpunkt", "formation": "15pz"}).state
    assert state.admin == "cw_organisation" and RULESET.to_act(state) == ("cw",)
    legal = RULESET.legal_actions(state, "cw")
    assert {"action": "organised"} in legal and all(a["action"] in ("assign", "organised") for a in legal)
    pick = next(a for a in legal if a["action"] == "assign")
    assigned = act(state, "cw", pick).state
    assert assigned.units[pick["unit"]].assigned == pick["formation"]
    done = act(assigned, "cw", {"action": "organised"}).state
    assert done.admin not in ("organisation", "cw_organisation")
    assert refused(done, "cw", {"action": "organised"}).reason in ("not-your-turn", "not-now")


@pytest.mark.rule("9.2")
def test_the_axis_ends_its_organisation_with_the_schwerpunkt_while_it_can() -> None:
    state = _organising()
    assert refused(state, "axis", {"action": "organised"}).reason == "schwerpunkt"
