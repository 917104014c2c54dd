"""§5.5.2, §9.4.1: an independent reinforcement without a white stripe is assigned by its owner to a qualifying
formation before it is placed on the map."""

from __future__ import annotations

import random

import pytest

from pbem.errors import ActionError
from pbem.games.gazala.admin import begin_admin
from pbem.games.gazala.paths import command
from pbem.games.gazala.ruleset import RULESET
from pbem.games.gazala.state import GazalaState, sit_of
from pbem.kit import conformance
from tests.games.gazala.gazala_play import PACK, act, place, refused, start

INDEPENDENT = "11ind-bde"
"""The Commonwealth's independent reinforcement of GT4 (no stripe: it may join several formations)."""


def _reinforcing(state: GazalaState) -> GazalaState:
    """GT4's Reinforcement Segment, the Commonwealth's 6 RTR and 10 Ind Bde postponed."""
    state = begin_admin(state.model_copy(update={"turn": 4}), ()).state
    state = act(state, "axis", {"action": "schwerpunkt", "formation": "21pz"}).state
    for seat, segment in (("axis", "replacement"), ("cw", "cw_replacement")):
        if state.admin == segment:
            state = act(state, seat, {"action": "forgo"}).state
    for unit in ("6rtr", "10ind-bde"):
        state = act(state, "cw", {"action": "postpone", "unit": unit}).state
    return state


def _entry() -> str:
    return next(r for r in PACK.scenario("opening-phase").reinforcements if r.unit == INDEPENDENT).entry[0]


@pytest.mark.rule("9.4.1")
def test_the_owner_assigns_an_independent_reinforcement_to_a_qualifying_formation() -> None:
    state = _reinforcing(start("opening-phase"))
    offered = [a for a in RULESET.legal_actions(state, "cw") if a["action"] == "reinforce" and a["unit"] == INDEPENDENT]
    assert {a["formation"] for a in offered} == set(PACK.unit(INDEPENDENT).assign_to)
    chosen = next(f for f in PACK.unit(INDEPENDENT).assign_to if f != "5ind")  # not the schedule's formation
    entered = act(state, "cw", {"action": "reinforce", "unit": INDEPENDENT, "entry": _entry(), "formation": chosen})
    assert entered.state.units[INDEPENDENT].assigned == chosen
    assert entered.events[0].data["formation"] == chosen
    # a unit of a formation names none (null): its stripe says where it belongs
    plain = [a for a in RULESET.legal_actions(state, "cw") if a["action"] == "reinforce" and a["unit"] != INDEPENDENT]
    assert plain == []  # the others were postponed; at GT2 6 RTR names none:
    early = begin_admin(start("opening-phase").model_copy(update={"turn": 2}), ()).state
    early = act(early, "axis", {"action": "schwerpunkt", "formation": "21pz"}).state
    if early.admin == "replacement":
        early = act(early, "axis", {"action": "forgo"}).state
    assert {a["formation"] for a in RULESET.legal_actions(early, "cw") if a["action"] == "reinforce"} == {None}


@pytest.mark.rule("9.4.1")
def test_an_independent_reinforcement_is_refused_unassigned_or_to_a_formation_it_may_not_join() -> None:
    state = _reinforcing(start("opening-phase"))
    move = {"action": "reinforce", "unit": INDEPENDENT, "entry": _entry(), "formation": None}
    assert refused(state, "cw", move).reason == "unassigned"
    assert refused(state, "cw", {**move, "formation": "7armd"}).reason == "assign-to"  # not in its assign_to
    assert refused(state, "cw", {**move, "formation": "21pz"}).reason == "assign-to"  # an enemy formation


@pytest.mark.rule("9.4.1")
def test_a_formation_whose_hq_is_off_the_map_does_not_qualify() -> None:
    allowed = PACK.unit(INDEPENDENT).assign_to
    gone = allowed[0]
    state = _reinforcing(place(start("opening-phase"), **{PACK.hq_of(gone).id: None}))
    offered = {a.get("formation") for a in RULESET.legal_actions(state, "cw") if a.get("unit") == INDEPENDENT}
    assert gone not in offered and set(allowed[1:]) <= offered
    move = {"action": "reinforce", "unit": INDEPENDENT, "entry": _entry(), "formation": gone}
    assert refused(state, "cw", move).reason == "assign-to"
    # with no qualifying formation left the unit cannot enter: it waits
    alone = place(start("opening-phase"), **{PACK.hq_of(f).id: None for f in allowed})
    waiting = _reinforcing(alone)
    kinds = {a["action"] for a in RULESET.legal_actions(waiting, "cw") if a.get("unit") == INDEPENDENT}
    assert kinds == {"postpone"}


@pytest.mark.rule("9.4.1")
def test_a_unit_of_a_formation_names_no_formation() -> None:
    state = begin_admin(start("opening-phase").model_copy(update={"turn": 2}), ()).state
    state = act(state, "axis", {"action": "schwerpunkt", "formation": "21pz"}).state
    if state.admin == "replacement":
        state = act(state, "axis", {"action": "forgo"}).state
    move = {"action": "reinforce", "unit": "6rtr", "entry": "cw-via-balbia", "formation": "1armd"}
    assert refused(state, "cw", move).reason == "not-independent"


@pytest.mark.rule("9.4.1")
def test_every_reinforcement_names_its_formation_or_null_and_legal_actions_agree_with_contains() -> None:
    state = _reinforcing(start("opening-phase"))
    dropped = {"action": "reinforce", "unit": INDEPENDENT, "entry": _entry()}  # the field left out: malformed
    with pytest.raises(ActionError):
        RULESET.parse_action(dropped)
    assert conformance.check_legal_matches_contains(RULESET, state, "cw", random.Random(1), mutations=40) > 0


@pytest.mark.rule("9.4.1")
def test_with_every_entry_hex_blocked_the_alternate_entry_is_in_command_range_of_the_chosen_formation() -> None:
    """Ruling ``alternate_entry`` ``command_range`` (notes B23): the range is that of the formation the owner
    assigns the unit to, so a formation whose HQ is near the edge opens the alternate hexes, a far one does not."""
    record = next(r for r in PACK.scenario("opening-phase").reinforcements if r.unit == INDEPENDENT)
    near = place(start("opening-phase"), **{"5ind-hq": "4912"})
    state = _reinforcing(near.model_copy(update={"blocked": tuple(record.entry)}))
    offered = [
        a for a in RULESET.legal_actions(state, "cw") if a["action"] == "reinforce_at" and a["unit"] == INDEPENDENT
    ]
    assert offered and {a["formation"] for a in offered} == {"5ind"}  # the others' HQs are far from the edge
    entered = act(state, "cw", offered[0]).state
    assert entered.units[INDEPENDENT].assigned == "5ind" and entered.units[INDEPENDENT].hex == offered[0]["hex"]
    assert command(sit_of(entered), INDEPENDENT).state == "in-command"
    far = next(f for f in PACK.unit(INDEPENDENT).assign_to if f != "5ind")
    assert refused(state, "cw", {**offered[0], "formation": far}).reason == "alternate"
