"""Combat strengths, odds, column shifts, DRM bounds and the CRT (§7.5.1, §7.5.1.2-§7.5.1.5)."""

from __future__ import annotations

import json

import pytest

from pbem.games.gazala.combat import (
    DEFAULT_OPTIONS,
    CombatOptions,
    Ground,
    air_limit,
    attack_strength,
    check_air,
    chit_column,
    combatant,
    combined_arms,
    crt_lookup,
    defence_strength,
    final_drm,
    ground,
    modified_roll,
    parse_result,
    resolve,
    shift_terms,
)
from pbem.games.gazala.data import GazalaPack
from pbem.kit.hexes import HexId
from pbem.kit.tables import Term
from tests.games.gazala.board_helpers import at
from tests.games.gazala.combat_helpers import (
    BROKEN,
    example_attacker_chit,
    example_attackers,
    example_defenders,
    unit,
)

CLEAR = Ground(crt_row="clear", at_bonus=0, tp_halved=False, improved=False)


# --- chit columns and battle strength (§7.5.1.2) ---------------------------------------------------------------


@pytest.mark.rule("7.5.1.2")
def test_r7_5_1_2_chit_columns(gazala: GazalaPack) -> None:
    fresh, shaken = unit(gazala, "104"), unit(gazala, "104", disrupted=True)
    assert [chit_column(fresh, attack=k) for k in ("hasty", "regular", "prepared")] == [0, 1, 2]
    assert chit_column(fresh, attack=None, ground=CLEAR) == 1  # Regular Defence: centre
    assert chit_column(shaken, attack=None, ground=CLEAR) == 0  # Disrupted: left
    marker = Ground(crt_row="clear", at_bonus=0, tp_halved=False, improved=True)
    assert chit_column(fresh, attack=None, ground=marker) == 2  # Improved Defence: right
    assert chit_column(shaken, attack=None, ground=marker) == 0  # a Disrupted unit is never in Improved Defence
    mined = Ground(crt_row="minefield", at_bonus=1, tp_halved=True, improved=True, friendly_minefield=True)
    assert chit_column(shaken, attack=None, ground=mined) == 2  # its own minefield: right, even Disrupted


@pytest.mark.rule("7.5.1.2")
def test_r7_5_1_2_example_defender_strength(gazala: GazalaPack) -> None:
    """Regular Defence, centre column of chit Nº 21/29: 27 + 6 + 4 = 37."""
    found = defence_strength(gazala, example_defenders(gazala), gazala.chit("21"), BROKEN)
    ex = gazala.example("combat-strength")
    assert [p.strength * p.multiplier for p in found.parts] == [ex["axis_104"], ex["axis_3"], ex["axis_18flak"]]
    assert found.total == ex["axis_total"] == 37 and found.chit == "21"


@pytest.mark.rule("7.5.1.2")
def test_r7_5_1_2_example_attacker_strength(gazala: GazalaPack) -> None:
    """Regular Attack, centre column, Effectiveness 5 for both: 24 + 8 = 32 with the example's chit; the extracted
    chit Nº 1/29 reads x1 there and gives 16 (notes §10 A4)."""
    attackers = example_attackers(gazala)
    found = attack_strength(gazala, attackers, example_attacker_chit(gazala), "regular")
    ex = gazala.example("combat-strength")
    assert [p.strength * p.multiplier for p in found.parts] == [ex["cw_3rtr"], ex["cw_7mot"]]
    assert found.total == ex["cw_total"] == 32
    assert attack_strength(gazala, attackers, gazala.chit("1"), "regular").total == 16


@pytest.mark.rule("7.5.1.2")
def test_r7_5_1_2_the_attack_kind_picks_the_column(gazala: GazalaPack) -> None:
    chit = gazala.chit("1")  # Eff 5 row: 1, 1, 3
    tank = (unit(gazala, "3rtr-4"),)
    assert [attack_strength(gazala, tank, chit, k).total for k in ("hasty", "regular", "prepared")] == [4, 4, 12]


@pytest.mark.rule("7.5.1.2")
def test_r7_5_1_2_lone_flak_fights_with_one_strength_point(gazala: GazalaPack) -> None:
    chit = gazala.chit("21")
    flak = unit(gazala, "18-flak", formation="21pz")
    alone = defence_strength(gazala, (flak, unit(gazala, "3")), chit, BROKEN)
    assert alone.parts[0].strength == gazala.number("flak_alone_cs") == 1
    with_infantry = defence_strength(gazala, (flak, unit(gazala, "104")), chit, BROKEN)
    assert with_infantry.parts[0].strength == 2
    # attacking: infantry anywhere in the attacking hex counts, taking part or not
    attacking = attack_strength(gazala, (flak,), chit, "hasty", stack=(unit(gazala, "104"),))
    assert attacking.parts[0].strength == 2
    assert attack_strength(gazala, (flak,), chit, "hasty").parts[0].strength == 1
    engineers = defence_strength(gazala, (flak, unit(gazala, "kg-hecker", formation="21pz")), chit, BROKEN)
    assert engineers.parts[0].strength == 1  # engineers are not an infantry type here


@pytest.mark.rule("5.1")
@pytest.mark.rule("5.7.5")
def test_r5_7_5_out_of_supply_halves_and_the_sum_rounds_up(gazala: GazalaPack) -> None:
    """Fractions are kept until the side's values are added, then rounded up (§5.1)."""
    chit = gazala.chit("1")  # Eff 5, Hasty: x1
    a = unit(gazala, "3rtr-4", 3, supplied=False)  # 3 x 1 / 2 = 1.5
    b = unit(gazala, "5rtr-4", 3, supplied=False)  # 1.5
    c = unit(gazala, "7mot", 5, supplied=False)  # 2.5
    assert attack_strength(gazala, (a,), chit, "hasty").total == 2
    assert attack_strength(gazala, (a, b), chit, "hasty").total == 3
    assert attack_strength(gazala, (a, b, c), chit, "hasty").total == 6  # 5.5 -> 6


@pytest.mark.rule("5.7.5")
def test_r5_7_5_unsupplied_defenders_keep_their_strength_by_default(gazala: GazalaPack) -> None:
    """Notes §10 A5: "still defend at normal strength" unless the option halves them."""
    defenders = (unit(gazala, "104", supplied=False),)
    chit = gazala.chit("21")  # Eff 7 centre: x3
    assert defence_strength(gazala, defenders, chit, BROKEN).total == 27
    assert DEFAULT_OPTIONS.oos_halves_defence is False
    halved = defence_strength(gazala, defenders, chit, BROKEN, CombatOptions(oos_halves_defence=True))
    assert halved.total == 14  # 13.5 rounds up


# --- Combined Arms and air (§7.5.1.3, §7.5.1.4) -------------------------------------------------------------------


@pytest.mark.rule("7.5.1.3")
def test_r7_5_1_3_example_combined_arms(gazala: GazalaPack) -> None:
    """A motorised infantry unit with a tank unit: yes; a Panzergrenadier with armoured car and FLAK: no."""
    assert combined_arms(example_attackers(gazala))
    assert not combined_arms(example_defenders(gazala))


@pytest.mark.rule("7.5.1.3")
def test_r7_5_1_3_combined_arms_conditions(gazala: GazalaPack) -> None:
    tank, infantry = unit(gazala, "i-5"), unit(gazala, "104")  # both 21. Panzer
    assert combined_arms((tank, infantry))
    assert not combined_arms((unit(gazala, "i-5", disrupted=True), infantry))  # Disrupted units do not qualify
    assert not combined_arms((tank, unit(gazala, "104", disrupted=True)))
    assert not combined_arms((unit(gazala, "ii-8"), infantry))  # 15. Panzer's tank with 21. Panzer's infantry
    heavy = unit(gazala, "8rtr", formation="50div")
    assert heavy.unit.no_combined_arms
    assert not combined_arms((heavy, unit(gazala, "7mot", formation="50div")))  # a heavy tank never qualifies
    assert not combined_arms((unit(gazala, "27"), tank))  # leg infantry does not qualify


@pytest.mark.rule("7.5.1.3")
def test_r7_5_1_3_one_shift_at_most_each_side(gazala: GazalaPack) -> None:
    assert shift_terms(gazala, attacker_arms=True, defender_arms=False, air=0).value == 1
    assert shift_terms(gazala, attacker_arms=True, defender_arms=True, air=0).value == 0
    assert shift_terms(gazala, attacker_arms=False, defender_arms=True, air=2).value == 1


@pytest.mark.rule("7.5.1.4")
def test_r7_5_1_4_air_support_limits(gazala: GazalaPack) -> None:
    assert [air_limit(gazala, k) for k in ("hasty", "regular", "prepared")] == [1, 2, 3]
    assert check_air(gazala, "axis", "regular", 2, 3).ok
    assert check_air(gazala, "axis", "hasty", 2, 3).reason == "air-limit"
    assert check_air(gazala, "axis", "prepared", 3, 2).reason == "air-unavailable"
    refused = check_air(gazala, "cw", "prepared", 1, 1)
    assert (refused.rule, refused.reason) == ("7.5.1.4", "air-not-axis-attack")
    assert check_air(gazala, "cw", "hasty", 0, 0).ok


# --- the CRT (§7.5.1 E, H) ---------------------------------------------------------------------------------------


@pytest.mark.rule("7.5.1")
def test_r7_5_1_example_ratio_shift_and_result(gazala: GazalaPack) -> None:
    """32 : 37 rounds down to 2:3 on the Broken row; Combined Arms shifts to 1:1; modified 6 gives 2/1."""
    ratio = gazala.example("combat-ratio")
    found = crt_lookup(gazala, BROKEN, ratio["attack"], ratio["defence"], 6, shift=ratio["shift"])
    assert (found.base, found.column) == ("2:3", "1:1")
    assert parse_result(found.result) == parse_result("2!/1")
    result = parse_result(found.result)
    ex = gazala.example("combat-result")
    assert (result.attacker, result.defender) == (ex["attacker_hits"], ex["defender_hits"])
    assert (result.attacker_ec, result.defender_ec) == (True, False)


@pytest.mark.rule("7.5.1")
def test_r7_5_1_below_the_leftmost_column_is_5_0_whatever_the_shifts(gazala: GazalaPack) -> None:
    """Below the leftmost column of the terrain row: 5/0; Combined Arms and air are ignored (§7.5.1.3, §7.5.1.4)."""
    tobruk = Ground(crt_row="tobruk", at_bonus=2, tp_halved=True, improved=False)
    found = crt_lookup(gazala, tobruk, 10, 8, 20, shift=4)  # 5:4 < 3:2, Tobruk's leftmost
    assert (found.base, found.applied, found.result) == ("below", 0, "5/0")
    assert crt_lookup(gazala, CLEAR, 10, 8, 20, shift=4).result != "5/0"  # 5:4 is on the clear row


@pytest.mark.rule("7.5.1")
def test_r7_5_1_above_the_rightmost_column_and_shift_clamping(gazala: GazalaPack) -> None:
    found = crt_lookup(gazala, CLEAR, 100, 1, 5)
    assert found.column == "6:1"  # the rightmost column
    shifted = crt_lookup(gazala, CLEAR, 5, 1, 5, shift=3)  # 5:1, three right: stops at 6:1
    assert (shifted.column, shifted.applied) == ("6:1", 1)
    left = crt_lookup(gazala, CLEAR, 1, 3, 5, shift=-2)  # 1:3 is the leftmost: a left shift stays there
    assert (left.column, left.applied) == ("1:3", 0)


@pytest.mark.rule("7.5.1")
def test_r7_5_1_odds_round_down(gazala: GazalaPack) -> None:
    assert crt_lookup(gazala, CLEAR, 29, 10, 5).column == "2:1"  # 2.9:1
    assert crt_lookup(gazala, CLEAR, 20, 10, 5).column == "2:1"
    assert crt_lookup(gazala, CLEAR, 19, 10, 5).column == "3:2"


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_drm_and_roll_clamps(gazala: GazalaPack) -> None:
    terms = [Term(label="a", value=9, rule="x"), Term(label="b", value=6, rule="x")]
    assert final_drm(gazala, terms) == 12
    assert final_drm(gazala, [Term(label="a", value=-15, rule="x")]) == -12
    assert final_drm(gazala, [Term(label="a", value=4, rule="x"), Term(label="b", value=-6, rule="x")]) == -2
    assert modified_roll(gazala, 10, 12) == 20 and modified_roll(gazala, 1, -12) == 1
    assert modified_roll(gazala, 10, -4) == 6
    with pytest.raises(ValueError):
        modified_roll(gazala, 0, 0)  # the 0 face reads 10 before it gets here (§3.9)


@pytest.mark.rule("7.5.2")
def test_r7_5_2_red_numbers_mean_an_ec(gazala: GazalaPack) -> None:
    shown = gazala.example("result-illustration")  # "3 / 0": the attacking stack's 3 hits + EC, no hits, no EC
    three = parse_result("3!/0")
    assert (three.attacker, three.attacker_ec, three.defender, three.defender_ec) == (
        shown["attacker_hits"],
        bool(shown["attacker_red"]),
        shown["defender_hits"],
        bool(shown["defender_red"]),
    )
    r = parse_result("3/1!")
    assert (r.attacker, r.attacker_ec, r.defender, r.defender_ec) == (3, False, 1, True)


# --- the board's ground ---------------------------------------------------------------------------------------------


@pytest.mark.rule("7.5.1.2")
def test_r7_5_1_2_ground_from_the_board(gazala: GazalaPack) -> None:
    sit = at(gazala, {"3rtr-4": "2707", "104": "2607"})
    assert ground(sit, HexId("2707"), HexId("2607"), "axis", improved_defence=False) == BROKEN
    marked = ground(sit, HexId("2707"), HexId("2607"), "axis", improved_defence=True)
    assert marked.improved


@pytest.mark.rule("7.5.1.2")
def test_r7_5_1_2_mines_have_no_friends(gazala: GazalaPack) -> None:
    """A defender in its own unbreached Minefield has Improved Defence and the Minefield row; in an enemy one, the
    Minefield row without Improved Defence; in a breached one, the terrain underneath."""
    mine = next(m for m in gazala.minefields if m.owner == "cw")
    hex_id = HexId(mine.hex)
    neighbour = next(n for n in at(gazala, {}).board.grid.neighbours(hex_id) if gazala.minefield(n) is None)
    own = ground(at(gazala, {"7mot": mine.hex}), neighbour, hex_id, "cw", improved_defence=False)
    assert (own.crt_row, own.improved, own.tp_halved, own.friendly_minefield) == ("minefield", True, True, True)
    enemy = ground(at(gazala, {"104": mine.hex}), neighbour, hex_id, "axis", improved_defence=False)
    assert (enemy.crt_row, enemy.improved, enemy.friendly_minefield) == ("minefield", False, False)
    breached = ground(
        at(gazala, {"7mot": mine.hex}, breached=[mine.hex]), neighbour, hex_id, "cw", improved_defence=False
    )
    assert breached.crt_row != "minefield" and not breached.improved


# --- steps E-H together ---------------------------------------------------------------------------------------------


@pytest.mark.rule("7.5.1")
def test_r7_5_1_resolve_the_example(gazala: GazalaPack) -> None:
    drms = [
        Term(label=k, value=v, rule="7.5.1.5") for k, v in (("s", -1), ("hq", 3), ("as", -6), ("sp", -2), ("rbc", 2))
    ]
    done = resolve(
        gazala,
        example_attackers(gazala),
        example_defenders(gazala),
        BROKEN,
        "regular",
        (example_attacker_chit(gazala), gazala.chit("21")),
        drms=drms,
        roll=10,
    )
    assert (done.attack.total, done.defence.total, done.shifts.value, done.drm) == (32, 37, 1, -4)
    assert (done.lookup.roll, done.lookup.column, done.lookup.result) == (6, "1:1", "2!/1")
    record = done.record()
    assert json.loads(json.dumps(record)) == record  # plain data for the log
    assert record["result"] == {"attacker": 2, "attacker_ec": True, "defender": 1, "defender_ec": False}
    assert record["attack"]["total"] == 32 and record["drms"]["value"] == -4


@pytest.mark.rule("7.5.1")
def test_r7_5_1_module_examples_run() -> None:
    """The usage examples of the combat modules' docstrings stay true."""
    import doctest

    from pbem.games.gazala import combat, combat_chits

    for module in (combat, combat_chits):
        failed, tried = doctest.testmod(module)
        assert tried and not failed, module.__name__


@pytest.mark.rule("5.8")
def test_r5_8_combatants_from_the_board(gazala: GazalaPack) -> None:
    """Command state by the board's command paths; formation by stripe or assignment; Disrupted from the position."""
    sit = at(
        gazala,
        {"3rtr-4": "2707", "104": "2607", "18-flak": "2607"},
        {"7armd-hq": "2808"},
        disrupted=["104"],
        assigned={"18-flak": "21pz"},
    )
    tank = combatant(sit, "3rtr-4", 4, supplied=True)
    assert (tank.in_command, tank.isolated, tank.formation, tank.disrupted) == (True, False, "7armd", False)
    infantry = combatant(sit, "104", 9, supplied=False)  # 21. Panzer's HQ is not on the map: Isolated
    assert (infantry.in_command, infantry.isolated, infantry.disrupted, infantry.supplied) == (False, True, True, False)
    flak = combatant(sit, "18-flak", 2, supplied=True)
    assert flak.formation == "21pz" and flak.strength == 2
