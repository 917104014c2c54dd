"""Secret assignment of independents with Dummy markers (§5.5.2; notes §7.2 M3): the box public, the identity in a
committed slot, opened when both sides have organised, an illegal marker caught at the opening and at the audit."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.gazala.admin import begin_admin
from pbem.games.gazala.assignments import DUMMY, dummy_limit
from pbem.games.gazala.audit import audit, unopened
from pbem.games.gazala.ruleset import RULESET
from pbem.games.gazala.state import GazalaState
from pbem.replay.basics import state_hash
from pbem.rules.contract import OBSERVER, Event, Outcome
from tests.games.gazala.gazala_play import PACK, act, kinds, place, refused, start


def _organising() -> GazalaState:
    """Turn 2's Organisation Segment of The Opening Phase, assignments secret; the 1st South African HQ moved up so
    that 8 RTR is within its Command Range too."""
    state = place(start("opening-phase", secret_assignments=True), **{"1sa-hq": "2306"})
    return begin_admin(state.model_copy(update={"turn": 2}), ()).state


def _place(state: GazalaState, seat: str, formation: str, unit: str, *, known: bool = True) -> GazalaState:
    """A marker placed as the engine does it: the identity goes into the slot ``secret_fields`` names (``known``:
    the replaying party is its owner), the logged action carries only the box."""
    logged: dict[str, Any] = {"action": "place_marker", "formation": formation}
    slot = RULESET.secret_fields(state, seat, logged)["unit"]
    assert RULESET.secret_fields(state, seat, {**logged, "unit": unit}) == {"unit": slot}
    if known:
        assert RULESET.contains(state, seat, RULESET.parse_action({**logged, "unit": unit})).ok
    else:
        assert RULESET.contains(state, seat, RULESET.parse_action(logged), unseen=frozenset({"unit"})).ok
    filled = state.with_hidden(slot, seat, unit if known else None, known=known)
    return RULESET.apply(filled, seat, RULESET.parse_action(logged)).state


def _opened(state: GazalaState, values: dict[str, str]) -> tuple[GazalaState, tuple[Event, ...]]:
    """Every owner opens its markers (``values``: slot → identity, what the openings carry)."""
    assert state.admin == "markers" and RULESET.to_act(state) == ()
    asked = sorted(name for name, slot in state.hidden.items() if slot.must_open)
    assert asked == sorted(values)
    hidden = dict(state.hidden)
    for name, value in values.items():
        opening = {"value": value, "known": True, "public": True, "must_open": False}
        hidden[name] = hidden[name].model_copy(update=opening)
    step = RULESET.resume(state.model_copy(update={"hidden": hidden}), Outcome(opened=tuple(values)))
    return step.state, step.events


@pytest.mark.rule("5.5.2")
def test_markers_go_face_down_into_formation_boxes_instead_of_open_assignments() -> None:
    state = _organising()
    legal = RULESET.legal_actions(state, "axis")
    assert {"action": "place_marker", "formation": "15pz", "unit": "18-flak"} in legal
    assert {"action": "place_marker", "formation": "15pz", "unit": DUMMY} in legal
    assert not any(a["action"] == "assign" for a in legal)
    assert refused(state, "axis", {"action": "assign", "unit": "18-flak", "formation": "15pz"}).reason == "secret"
    placed = _place(state, "axis", "15pz", "18-flak")
    assert placed.units["18-flak"].assigned == "21pz"  # nothing changes until the markers are opened
    assert [(m.side, m.formation) for m in placed.markers] == [("axis", "15pz")]
    assert placed.hidden[placed.markers[0].slot].owner == "axis"


@pytest.mark.rule("5.5.2")
def test_the_box_is_checked_at_once_and_the_identity_by_its_owner() -> None:
    state = _organising()
    assert refused(state, "axis", {"action": "place_marker", "formation": "7armd", "unit": DUMMY}).reason == "box"
    assert refused(state, "axis", {"action": "place_marker", "formation": "ariete", "unit": "18-flak"}).reason == (
        "assign-to"
    )
    assert refused(state, "axis", {"action": "place_marker", "formation": "15pz"}).reason == "no-identity"
    permanent = next(u.id for u in PACK.units if u.side == "axis" and u.independent == "permanent")
    assert refused(state, "axis", {"action": "place_marker", "formation": "15pz", "unit": permanent}).reason == (
        "not-assignable"
    )
    once = _place(state, "axis", "15pz", "18-flak")
    assert refused(once, "axis", {"action": "place_marker", "formation": "90le", "unit": "18-flak"}).reason == (
        "one-marker"
    )
    for _ in range(dummy_limit(PACK)):
        once = _place(once, "axis", "21pz", DUMMY)
    assert refused(once, "axis", {"action": "place_marker", "formation": "21pz", "unit": DUMMY}).reason == "no-dummy"
    assert refused(state, "cw", {"action": "place_marker", "formation": "7armd", "unit": DUMMY}).reason == (
        "not-your-turn"
    )


@pytest.mark.rule("5.5.2")
def test_the_opponent_sees_how_many_markers_each_box_holds_not_what_they_are() -> None:
    state = _organising()
    mine = _place(_place(state, "axis", "15pz", "18-flak"), "axis", "15pz", DUMMY)
    theirs = _place(_place(state, "axis", "15pz", "18-flak", known=False), "axis", "15pz", DUMMY, known=False)
    assert state_hash(mine) == state_hash(theirs)
    assert RULESET.view(mine, OBSERVER) == RULESET.view(theirs, OBSERVER)
    assert RULESET.view(theirs, "cw").facts["markers"] == {"axis": {"15pz": 2}}
    assert "my_markers" not in RULESET.view(theirs, "cw").facts
    assert RULESET.view(mine, "axis").facts["my_markers"] == [
        {"formation": "15pz", "unit": "18-flak"},
        {"formation": "15pz", "unit": DUMMY},
    ]
    look = RULESET.presentation(PACK)
    panzer, flak = PACK.formation("15pz").name, PACK.unit("18-flak").name
    assert ("Assigned markers (Axis)", f"{panzer} 2") in look.status(RULESET.view(theirs, "cw"))
    assert not any(flak in text for _, text in look.status(RULESET.view(theirs, "cw")))
    mine_told = f"{flak} in {panzer}, a Dummy marker in {panzer}"
    assert ("Your markers", mine_told) in look.status(RULESET.view(mine, "axis"))


@pytest.mark.rule("9.2")
def test_the_markers_are_opened_when_both_sides_have_organised() -> None:
    state = _place(_place(_organising(), "axis", "15pz", "18-flak"), "axis", "90le", DUMMY)
    state = act(state, "axis", {"action": "schwerpunkt", "formation": "15pz"}).state
    assert state.admin == "cw_organisation"
    cw_unit = next(a["unit"] for a in RULESET.legal_actions(state, "cw") if a.get("unit") not in (DUMMY, None))
    cw_box = next(a["formation"] for a in RULESET.legal_actions(state, "cw") if a.get("unit") == cw_unit)
    state = _place(state, "cw", cw_box, cw_unit)
    state = act(state, "cw", {"action": "organised"}).state
    assert state.admin == "markers" and unopened(state) == tuple(m.slot for m in state.markers)
    slots = [m.slot for m in state.markers]
    opened, events = _opened(state, dict(zip(slots, ["18-flak", DUMMY, cw_unit], strict=True)))
    assert opened.units["18-flak"].assigned == "15pz" and opened.units[cw_unit].assigned == cw_box
    assert kinds(events).count("marker_revealed") == 3 and kinds(events).count("unit_assigned") == 2
    assert not opened.markers and not set(slots) & set(opened.hidden) and opened.admin != "markers"
    assert audit(opened) is None


@pytest.mark.rule("5.5.2")
def test_a_cheating_marker_is_caught_at_the_opening_and_named_by_the_audit() -> None:
    """The Commonwealth's replay cannot see the Axis markers; at the opening one turns out to be a unit that may not
    join that formation, and the other the same unit again: neither takes effect, the first is the audit's."""
    state = _organising()
    assert refused(state, "axis", {"action": "place_marker", "formation": "ariete", "unit": "18-flak"}).ok is False
    state = _place(state, "axis", "ariete", "18-flak", known=False)
    state = _place(state, "axis", "15pz", "18-flak", known=False)
    state = act(state, "axis", {"action": "schwerpunkt", "formation": "15pz"}).state
    if state.admin == "cw_organisation":
        state = act(state, "cw", {"action": "organised"}).state
    slots = [m.slot for m in state.markers]
    opened, events = _opened(state, {slots[0]: "18-flak", slots[1]: "18-flak"})
    found = audit(opened)
    assert found is not None
    assert (found.seat, found.slot, found.rule, found.reason, found.turn) == ("axis", slots[0], "5.5.2", "assign-to", 2)
    assert opened.units["18-flak"].assigned == "15pz"  # the second marker was legal on its own
    assert [e.data["legal"] for e in events if e.kind == "marker_revealed"] == [False, True]
    assert RULESET.view(opened, OBSERVER).facts["violations"][0]["slot"] == slots[0]
    status = RULESET.presentation(PACK).status(RULESET.view(opened, OBSERVER))
    assert any(label == "Illegal secret choice" and slots[0] in text for label, text in status)


@pytest.mark.rule("5.5.2")
def test_open_assignments_when_the_option_is_off() -> None:
    state = begin_admin(start("opening-phase").model_copy(update={"turn": 2}), ()).state
    assert refused(state, "axis", {"action": "place_marker", "formation": "15pz", "unit": "18-flak"}).reason == "open"
    assert RULESET.secret_fields(state, "axis", {"action": "place_marker", "formation": "15pz"}) == {}
    assert {"action": "assign", "unit": "18-flak", "formation": "15pz"} in RULESET.legal_actions(state, "axis")


@pytest.mark.rule("9.2")
def test_when_the_initiative_dice_would_follow_the_opening_the_axis_proceeds_to_them() -> None:
    """Dice may not follow an opening (a ``hidden`` entry declares none): with no replacement nor reinforcement to
    decide, the Axis's ``proceed`` asks for the Ops Phase's initiative roll."""
    state = place(start("opening-phase", secret_assignments=True), **{"1sa-hq": "2306"})
    every = tuple(r.unit for r in PACK.scenario("opening-phase").reinforcements)
    state = begin_admin(state.model_copy(update={"turn": 3, "reinforced": every}), ()).state
    state = _place(state, "axis", "15pz", "18-flak")
    state = act(state, "axis", {"action": "schwerpunkt", "formation": "15pz"}).state
    if state.admin == "cw_organisation":
        state = act(state, "cw", {"action": "organised"}).state
    opened, _ = _opened(state, {m.slot: "18-flak" for m in state.markers})
    assert opened.admin == "revealed" and opened.rolls is None and opened.units["18-flak"].assigned == "15pz"
    assert RULESET.to_act(opened) == ("axis",) and RULESET.legal_actions(opened, "axis") == [{"action": "proceed"}]
    assert refused(opened, "cw", {"action": "proceed"}).reason == "not-your-turn"
    assert refused(state, "axis", {"action": "proceed"}).reason in ("not-your-turn", "not-now")
    went = act(opened, "axis", {"action": "proceed"}).state
    assert went.phase == "ops" and went.rolls is not None
