"""Rommel: Retreat Forced Marches (§6.4 sidebar): a unit that Disengaged may still Force March after all Moves;
failing, it loses one step besides its Disruption, reported by its owner like a Rout's Attrition (the CV in secret,
an elimination public); a Regroup mover back in its battle hex Routs if unshielded (notes §10.10)."""

from __future__ import annotations

import pytest

from pbem.games.rommel.state import Pursuit, cv_slot
from tests.games.rommel.rules_driver import R, Table
from tests.games.rommel.test_month_rommel import regroup_short
from tests.games.rommel.test_pursuit_rommel import retreated
from tests.games.rommel.test_turn_combat_rommel import two_attackers


def group_retreat_marches(dice: list[int]) -> Table:
    """axis-02 (it-brescia, 4 CV) and axis-06 leave Sollum (1605) in a Full Retreat, take no Pursuit Fire, and both
    Force March on (the dice in token order: axis-02, then axis-06)."""
    table = retreated()
    table.do("axis", {"action": "slowest", "speed": 1})
    table.do("allied", {"action": "pursue", "dice": 0})
    assert all(table.state.tokens[t].disrupted for t in ("axis-02", "axis-06"))  # Disrupted as the Move ended
    table.do("axis", {"action": "force", "token": "axis-02", "to": "1504"})
    table.do("axis", {"action": "force", "token": "axis-06", "to": "1507"})
    table.dice = list(dice)
    table.do("axis", {"action": "end_movement"})
    return table


@pytest.mark.rule("6.4")
@pytest.mark.rule("7.2")
def test_a_retreating_unit_may_force_march_but_not_back_into_the_battle() -> None:
    table = retreated()
    table.do("axis", {"action": "slowest", "speed": 1})
    table.do("allied", {"action": "pursue", "dice": 0})
    assert {"action": "force", "token": "axis-02", "to": "1504"} in table.legal("axis")
    assert table.refusal("axis", {"action": "force", "token": "axis-06", "to": "1605"}) == ("7.2", "re-engage")


@pytest.mark.rule("6.4")
def test_a_failed_retreat_forced_march_costs_a_step_reported_by_its_owner() -> None:
    table = group_retreat_marches([1, 5])
    assert table.state.tokens["axis-06"].hex == "1507"  # the success moves the extra hex, at no cost
    assert table.state.tokens["axis-02"].hex == "1505" and table.state.tokens["axis-02"].disrupted
    item = table.state.pending[-1]
    assert isinstance(item, Pursuit) and (item.cause, item.group, item.awaiting) == ("march", ("axis-02",), "attrition")
    assert R.to_act(table.state) == ("axis",)
    assert table.legal("axis") == [{"action": "attrition", "eliminated": []}]  # 4 CV: one step lost, not the last
    assert table.refusal("axis", {"action": "attrition", "eliminated": ["axis-02"]}) == ("6.4", "attrition-misreported")
    table.do("axis", {"action": "attrition", "eliminated": []})
    assert table.state.hidden[cv_slot("axis-02")].value == 3 and table.state.hidden[cv_slot("axis-06")].value == 3
    assert [(e.kind, e.rule) for e in table.events if e.kind == "march_attrition"] == [("march_attrition", "6.4")]
    assert not table.state.pending


@pytest.mark.rule("6.4")
def test_a_failed_retreat_forced_march_at_the_last_step_eliminates_the_unit() -> None:
    table = retreated()
    table.state = table.state.with_hidden(cv_slot("axis-02"), "axis", 1, known=True)
    table.do("axis", {"action": "slowest", "speed": 1})
    table.do("allied", {"action": "pursue", "dice": 0})
    table.do("axis", {"action": "force", "token": "axis-02", "to": "1504"})
    table.dice = [2]
    table.do("axis", {"action": "end_movement"})
    assert table.refusal("axis", {"action": "attrition", "eliminated": []}) == ("6.4", "attrition-misreported")
    table.do("axis", {"action": "attrition", "eliminated": ["axis-02"]})
    assert table.state.tokens["axis-02"].status == "eliminated"
    assert [e.rule for e in table.events if e.kind == "unit_eliminated"] == ["6.4"]


@pytest.mark.rule("6.4")
def test_a_failed_forced_march_off_a_retreat_costs_no_step() -> None:
    table = regroup_short(3)  # a Regroup that left no battle: Disrupted, no step lost
    assert table.state.tokens["axis-07"].disrupted and not table.state.pending


def regroup_retreat(table: Table) -> None:
    """axis-02 and axis-06 Regroup out of the 1605 battle to 1406; axis-02, one hex short, owes a Forced March."""
    table.do("axis", {"action": "regroup", "command_point": "1605", "destination": "1406", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1505"})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1505"})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1406"})
    table.do("axis", {"action": "end_move"})
    assert table.state.turn.forced == {"axis-02": "1406"}
    table.do("axis", {"action": "slowest", "speed": 1})


@pytest.mark.rule("6.4")
@pytest.mark.rule("11.3")
def test_a_regroup_retreat_failing_its_forced_march_loses_a_step_and_routs_from_the_battle_hex() -> None:
    # notes §10.10: Disrupted at its original location, the battle hex; a step lost; unshielded there, it Routs
    table = two_attackers()
    regroup_retreat(table)
    table.do("allied", {"action": "pursue", "dice": 0})
    table.dice = [3]
    table.do("axis", {"action": "end_movement"})
    assert table.state.tokens["axis-02"].hex == "1605" and table.state.tokens["axis-02"].disrupted
    table.do("axis", {"action": "attrition", "eliminated": []})
    assert table.state.hidden[cv_slot("axis-02")].value == 3
    assert [(p.kind, getattr(p, "cause", None)) for p in table.state.pending] == [
        ("withdrawal", "rout"),
        ("pursuit", "rout"),
    ]
    assert [e.kind for e in table.events[-2:]] == ["march_attrition", "routed"]


@pytest.mark.rule("6.4")
@pytest.mark.rule("10.5")
def test_a_unit_eliminated_by_pursuit_fire_after_announcing_its_forced_march_rolls_none() -> None:
    # the fighting play-out of seed 47: the Forced March of a Regroup mover that its Retreat's Pursuit Fire then
    # eliminated was still rolled, and its step taken from no hex
    table = two_attackers()
    table.state = table.state.with_hidden(cv_slot("axis-02"), "axis", 1, known=True)
    regroup_retreat(table)
    table.dice = [6, 6]
    table.do("allied", {"action": "pursue", "dice": 2})
    losses = next(a for a in table.legal("axis") if a["action"] == "pursuit_losses" and "axis-02" in a["eliminated"])
    table.do("axis", losses)
    assert table.state.tokens["axis-02"].status == "eliminated"
    table.do("axis", {"action": "end_movement"})  # no die for axis-02
    assert table.state.turn.forced == {} and not table.dice and table.state.turn.stage == "combat"
