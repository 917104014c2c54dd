"""How a Gazala combat reads in the reports (issue 13, Play and reports): each side's battle strength unit by unit
with its chit, the odds, shifts, DRMs and die under the combat, the winner by fewer CRT hits (§7.5.3); the
Activated Formation and Independent Activation markers on the map (§3.5)."""

from __future__ import annotations

import pytest

from pbem.games.gazala.ruleset import RULESET
from pbem.rules.contract import OBSERVER, Event
from pbem.rules.records import combat_record
from tests.games.gazala.gazala_play import PACK, act, active, roll, start, update
from tests.games.gazala.test_ruleset_battle import _to_roll


def _combat(die: int = 5) -> tuple[Event, ...]:
    state = active(start("bir-hacheim"), "ariete", 6)
    step = act(state, "axis", {"action": "attack", "target": "2522", "units": ["viii-132"]})
    step = act(step.state, "axis", {"action": "escalate", "to": "hasty"})
    return roll(_to_roll(step), {"combat": (die,)}).events


def _resolved() -> tuple[Event, Event]:
    events = _combat()
    resolved = next(e for e in events if e.kind == "combat_resolved")
    modifiers = next(e for e in events if e.kind == "combat_modifiers")
    return resolved, modifiers


@pytest.mark.rule("7.5.1")
def test_a_combat_record_shows_each_sides_strength_with_its_chit() -> None:
    resolved, _ = _resolved()
    record = combat_record(resolved)
    assert record is not None and record.lookup is not None and record.result == resolved.data["result"]
    resolution = resolved.data["resolution"]
    attack, defense = record.side("attack"), record.side("defense")
    assert attack is not None and defense is not None
    assert attack.units == ("viii-132",) and defense.units == ("ff-2",)
    assert attack.total == resolution["attack"]["total"] and defense.total == resolution["defence"]["total"]
    assert sum(t.value for t in attack.terms) == attack.total  # the record's own check: terms plus dice
    chit = resolution["attack"]["chit"]
    assert f"chit {chit}" in attack.terms[0].label and attack.terms[0].rule == "7.5.1.2"


@pytest.mark.rule("7.5.1.5")
def test_the_odds_shifts_drms_and_die_are_told_under_the_combat() -> None:
    resolved, modifiers = _resolved()
    lookup = resolved.data["lookup"]
    assert modifiers.data["die"] == 5 and modifiers.data["drm"] == resolved.data["resolution"]["drm"]
    for part in (lookup["base"], lookup["column"], lookup["result"], "DRM", "die 5"):
        assert str(part) in modifiers.text
    look = RULESET.presentation(PACK)
    assert "combat_modifiers" in look.combat_followups and "strength_lost" in look.combat_followups


@pytest.mark.rule("7.5.3")
def test_the_reports_winner_is_the_side_with_fewer_hits() -> None:
    resolved, _ = _resolved()
    look = RULESET.presentation(PACK)

    def winner(attacker: int, defender: int, *followups: Event) -> str | None:
        data = {**resolved.data, "result": f"{attacker}/{defender}!"}  # the CRT cell every combat_resolved carries
        return look.combat_outcome(data, list(followups)).winner

    assert winner(0, 2) == "attack" and winner(3, 1) == "defense" and winner(1, 1) is None
    gone = Event(kind="unit_eliminated", seat="axis", rule="7.5.2.1", data={"unit": "viii-132"})
    assert winner(0, 2, gone) is None  # all its participating units eliminated: no Battle Victory


@pytest.mark.rule("6.4")
def test_the_map_shows_the_activated_formation_and_independent_activation_markers() -> None:
    state = update(active(start("opening-phase"), "21pz", 4), "recam", acts=2)
    look = RULESET.presentation(PACK)
    markers = {m.text: m for m in look.markers(RULESET.view(state, OBSERVER))}
    activated = markers["Activated: " + PACK.formation("21pz").name]
    assert activated.location == state.hqs["21pz-hq"].hex and activated.side == "axis"
    assert markers["ACT-2"].location == state.units["recam"].hex


@pytest.mark.rule("6.3.2")
def test_an_hq_counter_shows_its_current_support_and_its_formations_activation_level() -> None:
    state = update(start("opening-phase"), "21pz-hq", support=2)
    look = RULESET.presentation(PACK)
    hq = next(u for u in RULESET.view(state, OBSERVER).units if u.id == "21pz-hq")
    face = look.face(hq)
    record = PACK.hq("21pz-hq")
    assert face.value == f"2-{record.command_range}-{record.ma}"
    assert f"L{state.formations['21pz'].level}" in face.marks


@pytest.mark.rule("7.5.2")
def test_every_event_told_under_a_combat_says_what_happened() -> None:
    look = RULESET.presentation(PACK)
    for die in (1, 5, 10):
        told = [e for e in _combat(die) if e.kind in look.combat_followups]
        assert told and all(e.text for e in told), [e.kind for e in told if not e.text]
