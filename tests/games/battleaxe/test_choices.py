"""Battleaxe's choice tree (contract v2 ``choices``): action, then unit, then destination; units grouped by stack."""

from __future__ import annotations

from pbem.log.canon import canonical
from tests.games.battleaxe.position import R, new_game, play


def test_moves_are_offered_unit_by_unit_grouped_by_the_stack_they_stand_in() -> None:
    state = play(new_game(), "allied", {"action": "assault", "areas": ["C"]})
    tree = R.choices(state, "allied")
    assert tree.field == "action"
    assert sorted(map(canonical, tree.actions())) == sorted(map(canonical, R.legal_actions(state, "allied")))
    move = next(b for b in tree.options if b.value == "move")
    assert move.then is not None and move.then.field == "unit" and move.then.title == "unit"
    units = move.then.options
    assert len(units) >= 2 and {u.group for u in units} == {R.label(state, "to", "C")}
    for unit in units:
        assert unit.label == R.label(state, "unit", unit.value) != unit.value  # the unit's name, not its id
        assert unit.then is not None and unit.then.field == "to"
        assert all(step.action is not None and step.label.startswith(("Area", "Zone")) for step in unit.then.options)


def test_labels_come_from_the_data_pack_and_json_values_read_plainly() -> None:
    state = new_game()
    assert R.label(state, "to", "7").startswith("Area 7 (")
    assert R.label(state, "areas", ["A", "B"]).startswith("Zone A (")
    assert R.label(state, "artillery", True) == "yes" and R.label(state, "to", None) == "none"
    assert R.label(state, "action", "end_assault") == "end assault"
