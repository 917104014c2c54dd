"""Enemy Minefield entry and checks (§7.3.6) and the Breach Minefield Action (§7.4), with the rulebook's
"Minefield Check & Breach example" reproduced step by step from the pack's numbers (``minefield-check``,
``minefield-breach``).

The example: two 21. Pz. Div. stacks, supported by their HQ (Engineer -2), enter the Commonwealth Minefields 2622
(a Minefield & Box hex) and 2621 from 2623 (104, I./5, KG Hecker assigned to the division) and 2721 (II./5, 3.);
Free French units hold Bir Hacheim (2521), whose ZOC covers 2621 and 2622. The Schwerpunkt is elsewhere.
"""

from __future__ import annotations

import pytest

from pbem.games.gazala.board import Situation, check_move
from pbem.games.gazala.data import GazalaPack
from pbem.games.gazala.minefields import (
    breach,
    breach_drm,
    can_breach,
    check_column,
    minefield_check,
    minefield_check_drm,
    minefield_entry,
)
from pbem.games.gazala.paths import command, in_command
from pbem.kit.hexes import HexId
from tests.games.gazala.board_helpers import at, path

FIRST = ["104", "i-5", "kg-hecker"]
SECOND = ["ii-5", "3"]
HECKER = {"kg-hecker": "21pz"}


def before(pack: GazalaPack) -> Situation:
    units = {"104": "2623", "i-5": "2623", "kg-hecker": "2623", "ii-5": "2721", "3": "2721", "ff-1": "2521"}
    return at(pack, units | {"ff-2": "2521"}, {"21pz-hq": "2723", "ffbde-hq": "2422"}, assigned=HECKER)


def after(pack: GazalaPack, **changes: str) -> Situation:
    units = {"104": "2622", "kg-hecker": "2622", "i-5": "2623", "ii-5": "2721", "3": "2621", "ff-1": "2521"}
    units |= {"ff-2": "2521"} | changes
    return at(pack, units, {"21pz-hq": "2723", "ffbde-hq": "2422"}, disrupted=["i-5", "ii-5"], assigned=HECKER)


@pytest.mark.rule("7.3.6")
def test_r7_3_6_example_both_stacks_may_try_to_enter(gazala: GazalaPack) -> None:
    sit = before(gazala)
    assert all(command(sit, u).state == "in-command" for u in FIRST + SECOND)
    assert check_move(sit, FIRST, path("2623", "2622"), supplied=True).ok
    assert check_move(sit, SECOND, path("2721", "2621"), supplied=True).ok
    assert minefield_entry(sit, FIRST, path("2623", "2622")) == tuple(FIRST)
    assert minefield_entry(sit, SECOND, path("2721", "2621")) == tuple(SECOND)
    assert minefield_entry(sit, ["104"], path("2623", "2624")) == ()


@pytest.mark.rule("7.3.6")
def test_r7_3_6_example_first_stack_in_2623(gazala: GazalaPack) -> None:
    example = gazala.example("minefield-check")
    sit = before(gazala)
    drms = [minefield_check_drm(sit, u, FIRST, in_command=True, schwerpunkt=False) for u in FIRST]
    assert [d.value for d in drms] == [example["drm_2623"]] * 3  # HQ -2 and KG Hecker -3 (itself included)
    assert [t.rule for t in drms[0].terms] == ["7.3.6", "7.3.6"]
    drm = example["drm_2623"]
    checks = [
        minefield_check(sit, "104", example["roll_104"], drm),
        minefield_check(sit, "i-5", example["roll_i5"], drm),
        minefield_check(sit, "kg-hecker", example["roll_hecker"], drm),
    ]
    assert [c.roll for c in checks] == [example["mod_104"], example["mod_i5"], example["mod_hecker"]]
    # the same modified 3 for 104 and I./5, different columns: "their chances ... are different"
    assert [c.column for c in checks] == ["infantry", "tank", "infantry"]
    assert [c.result for c in checks] == ["success", "disrupt", "success"]


@pytest.mark.rule("7.3.6")
def test_r7_3_6_example_second_stack_in_2721(gazala: GazalaPack) -> None:
    example = gazala.example("minefield-check")
    sit = before(gazala)
    drms = [minefield_check_drm(sit, u, SECOND, in_command=True, schwerpunkt=False).value for u in SECOND]
    assert drms == [example["drm_2721"], example["drm_2721"]] == [example["hq_engineer"]] * 2  # no KG Hecker
    ii5 = minefield_check(sit, "ii-5", example["roll_ii5"], example["drm_2721"])
    third = minefield_check(sit, "3", example["roll_3"], example["drm_2721"])
    assert (ii5.roll, ii5.result) == (example["mod_ii5"], "disrupt_loss")  # a 0 is a 10: disrupts and loses 1 SP
    assert (third.roll, third.column, third.result) == (example["mod_3"], "recce", "success")


@pytest.mark.rule("7.3.6")
def test_r7_3_6_drms_need_command_at_the_start_and_add_the_schwerpunkt(gazala: GazalaPack) -> None:
    sit = before(gazala)
    out = minefield_check_drm(sit, "ii-5", SECOND, in_command=False, schwerpunkt=False)
    assert out.value == 0
    with_sp = minefield_check_drm(sit, "104", FIRST, in_command=True, schwerpunkt=True)
    assert with_sp.value == gazala.example("minefield-check")["drm_2623"] + gazala.number("schwerpunkt_minefield_drm")
    # KG Hecker helps only its own formation's units in its moving stack
    unassigned = at(gazala, {"104": "2623", "kg-hecker": "2623"}, {"21pz-hq": "2723"})
    assert minefield_check_drm(unassigned, "104", ["104", "kg-hecker"], in_command=True, schwerpunkt=False).value == (
        gazala.hq("21pz-hq").engineer
    )
    staying = minefield_check_drm(sit, "104", ["104", "i-5"], in_command=True, schwerpunkt=False)
    assert staying.value == gazala.hq("21pz-hq").engineer


@pytest.mark.rule("7.3.6")
def test_r7_3_6_table_columns_by_unit_type(gazala: GazalaPack) -> None:
    sit = before(gazala)
    assert [check_column(sit, u) for u in ("104", "i-5", "3", "kg-hecker")] == ["infantry", "tank", "recce", "infantry"]


@pytest.mark.rule("7.4")
def test_r7_4_example_breach_of_2622(gazala: GazalaPack) -> None:
    example = gazala.example("minefield-breach")
    sit = after(gazala)
    for unit in ("104", "kg-hecker"):
        assert can_breach(sit, unit, command=in_command(sit, unit)).ok
    drm = breach_drm(sit, "104", in_command=True, schwerpunkt=False)
    assert drm.value == example["drm"]  # HQ -2, KG Hecker -1, EZOC +1
    assert [t.value for t in drm.terms] == [
        gazala.hq("21pz-hq").engineer,
        gazala.number("kg_hecker_breach_drm"),
        gazala.number("ezoc_breach_drm"),
    ]
    assert breach_drm(sit, "kg-hecker", in_command=True, schwerpunkt=False).value == example["drm"]
    first = breach(sit, HexId("2622"), example["roll_104"], example["drm"])
    assert (first.roll, first.column, first.result) == (example["mod_104"], "box", "no_effect")
    second = breach(sit, HexId("2622"), example["roll_hecker"], example["drm"])
    assert (second.roll, second.result) == (example["mod_hecker"], "success")
    # "very unlikely to succeed, since 2622 is a Minefield & Box hex": a plain Minefield yields to the first roll
    assert breach(sit, HexId("2621"), example["roll_104"], example["drm"]).result == "success"


@pytest.mark.rule("7.4")
def test_r7_4_breach_refusals(gazala: GazalaPack) -> None:
    sit = after(gazala)
    tank = can_breach(sit, "i-5", command=in_command(sit, "i-5"))
    assert (tank.rule, tank.reason) == ("7.4", "not-infantry")
    recce = can_breach(sit, "3", command=in_command(sit, "3"))
    assert (recce.rule, recce.reason) == ("7.4", "not-infantry")
    outside = after(gazala, **{"104": "2623"})
    refused = can_breach(outside, "104", command=in_command(outside, "104"))
    assert (refused.rule, refused.reason) == ("7.4", "not-in-enemy-minefield")
    breached = at(gazala, {"104": "2622"}, {"21pz-hq": "2723"}, breached=["2622"])
    assert can_breach(breached, "104", command=in_command(breached, "104")).reason == "not-in-enemy-minefield"
    disrupted = at(gazala, {"104": "2622"}, {"21pz-hq": "2723"}, disrupted=["104"])
    assert can_breach(disrupted, "104", command=in_command(disrupted, "104")).reason == "disrupted"
    far = at(gazala, {"104": "2622"}, {"21pz-hq": "3322"})
    ooc = can_breach(far, "104", command=in_command(far, "104"))
    assert (ooc.rule, ooc.reason) == ("5.8.3", "out-of-command")
    assert can_breach(sit, "ffbde-hq", command=in_command(sit, "104")).reason == "not-a-unit"


@pytest.mark.rule("7.4")
def test_r7_4_the_schwerpunkt_helps_and_command_is_needed_for_the_engineer(gazala: GazalaPack) -> None:
    sit = after(gazala)
    base = breach_drm(sit, "104", in_command=True, schwerpunkt=False).value
    assert breach_drm(sit, "104", in_command=True, schwerpunkt=True).value == base + gazala.number(
        "schwerpunkt_breach_drm"
    )
    assert breach_drm(sit, "104", in_command=False, schwerpunkt=False).value == base - gazala.hq("21pz-hq").engineer
