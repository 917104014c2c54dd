"""Declaring a combat (§7.5.1 A, C), Retreat before Combat (§7.5.1.1) and the chit draw (§7.5.1 D, §7.5.1.2)."""

from __future__ import annotations

import itertools

import pytest

from pbem.games.gazala.board import check_move
from pbem.games.gazala.combat_chits import chit_pool, chits_from_cards, chits_from_dice, draw_sizes
from pbem.games.gazala.combat_declare import (
    attack_cost,
    check_declaration,
    check_escalation,
    check_rbc,
    check_rbc_bonus,
    check_rbc_move,
    escalation_cost,
    isolated_check,
    rbc_bonus_options,
    rbc_succeeds,
)
from pbem.games.gazala.data import GazalaPack
from pbem.kit.hexes import HexId
from tests.games.gazala.board_helpers import at
from tests.games.gazala.combat_helpers import example_attackers, example_defenders, unit

EXAMPLE = {"3rtr-4": "2707", "7mot": "2707", "104": "2607", "3": "2607", "18-flak": "2607"}


# --- A. declaration --------------------------------------------------------------------------------------------------


@pytest.mark.rule("7.5.1")
def test_r7_5_1_example_declaration(gazala: GazalaPack) -> None:
    """A Hasty Attack from 2707 (7th Inf Bde and 3 RTR/4) on 2607 (104, 3 and 18 FLAK) for one AP."""
    sit = at(gazala, EXAMPLE, assigned={"18-flak": "21pz"})
    attackers = example_attackers(gazala)
    assert check_declaration(sit, HexId("2707"), HexId("2607"), attackers, "7armd").ok
    assert attack_cost(gazala, attackers) == 1
    assert check_declaration(sit, HexId("2707"), HexId("2607"), attackers[:1], "7armd").ok  # the attacker picks


@pytest.mark.rule("7.5.1")
def test_r7_5_1_declaration_refusals(gazala: GazalaPack) -> None:
    sit = at(gazala, {**EXAMPLE, "5rtr-4": "2708", "i-5": "2506"})
    attackers = example_attackers(gazala)

    def reason(attacker: str, target: str, units: tuple[object, ...], activated: str = "7armd") -> tuple[str, str]:
        verdict = check_declaration(sit, HexId(attacker), HexId(target), units, activated)  # type: ignore[arg-type]
        return verdict.rule or "", verdict.reason

    assert reason("2707", "2607", ()) == ("7.5.1", "attack-empty")
    assert reason("2707", "2607", (attackers[0], attackers[0])) == ("7.5.1", "attack-twice")
    assert reason("2707", "2607", (*attackers, unit(gazala, "5rtr-4"))) == ("7.5.1", "not-in-hex")  # multi-hex
    assert reason("2707", "2506", attackers) == ("7.5.1", "not-adjacent")
    assert reason("2707", "2708", attackers) == ("7.5.1", "no-enemy")
    assert reason("2707", "2607", attackers, "1armd") == ("7.2", "not-activated")
    shaken = (unit(gazala, "3rtr-4", disrupted=True),)
    assert reason("2707", "2607", shaken) == ("5.6.3", "disrupted")


@pytest.mark.rule("5.8.3")
@pytest.mark.rule("7.1")
def test_r5_8_3_out_of_command_costs_double_and_stays_hasty(gazala: GazalaPack) -> None:
    away = (unit(gazala, "3rtr-4", in_command=False), unit(gazala, "7mot"))
    assert attack_cost(gazala, away) == 2
    assert attack_cost(gazala, (unit(gazala, "7mot", isolated=True),)) == 2
    refused = check_escalation(away, "regular", available=5, cost=escalation_cost(gazala, "regular"))
    assert (refused.rule, refused.reason) == ("5.8.3", "escalate-command")


@pytest.mark.rule("7.5.1")
@pytest.mark.rule("6.4")
def test_r7_5_1_escalation(gazala: GazalaPack) -> None:
    attackers = example_attackers(gazala)
    assert [escalation_cost(gazala, k) for k in ("hasty", "regular", "prepared")] == [0, 1, 2]
    assert check_escalation(attackers, "regular", available=1, cost=1).ok  # the example's escalation
    assert check_escalation(attackers, "prepared", available=1, cost=2).reason == "no-ap"
    lone = (unit(gazala, "recam"),)
    refused = check_escalation(lone, "regular", available=3, cost=1)
    assert (refused.rule, refused.reason) == ("6.4", "escalate-independent")
    assert check_escalation(lone, "hasty", available=0, cost=0).ok


@pytest.mark.rule("5.8.4")
def test_r5_8_4_isolated_units_pass_an_ec_to_take_part(gazala: GazalaPack) -> None:
    lonely = unit(gazala, "7mot", isolated=True)  # Eff 5
    assert isolated_check(lonely, 5) and not isolated_check(lonely, 6)


# --- B. Retreat before Combat ----------------------------------------------------------------------------------------


@pytest.mark.rule("7.5.1.1")
def test_r7_5_1_1_example_retreat_before_combat(gazala: GazalaPack) -> None:
    """The stack qualifies (18 FLAK is assigned to 21. Panzer); 3.'s Effectiveness 7 gives +4; 7 against 3 + 4: the
    defender is not higher, the retreat fails and the attacker gets +2."""
    defenders, attackers = example_defenders(gazala), example_attackers(gazala)
    assert check_rbc(defenders).ok
    ex = gazala.example("combat-rbc")
    options = dict(rbc_bonus_options(gazala, defenders, attackers, defending=True))
    assert options == {"3": ex["axis_drm"]}
    assert rbc_bonus_options(gazala, attackers, defenders, defending=False) == ()
    assert not rbc_succeeds(ex["cw_roll"], ex["axis_roll"] + options["3"])
    assert rbc_succeeds(7, 8)


@pytest.mark.rule("7.5.1.1")
def test_r7_5_1_1_who_may_retreat_before_combat(gazala: GazalaPack) -> None:
    def reason(*units: object) -> str:
        return check_rbc(units).reason  # type: ignore[arg-type]

    assert reason(unit(gazala, "104", disrupted=True), unit(gazala, "3")) == "rbc-disrupted"
    assert reason(unit(gazala, "104", isolated=True)) == "rbc-isolated"
    assert reason(unit(gazala, "27")) == "rbc-leg"  # Italian leg infantry
    assert reason(unit(gazala, "104"), unit(gazala, "18-flak", formation=None)) == "rbc-unassigned"
    assert reason(unit(gazala, "104"), unit(gazala, "ii-8")) == "rbc-formation"
    assert reason(unit(gazala, "27"), unit(gazala, "104", formation="pavia")) == ""  # one mechanised unit is enough
    assert check_rbc((unit(gazala, "104"),)).rule is None


@pytest.mark.rule("7.5.1.1")
def test_r7_5_1_1_full_effectiveness_against_leg_attackers(gazala: GazalaPack) -> None:
    defenders = (unit(gazala, "104"), unit(gazala, "3"))
    legs = (unit(gazala, "69-bde"),)
    assert dict(rbc_bonus_options(gazala, defenders, legs, defending=True)) == {"104": 7, "3": 7}
    assert check_rbc_bonus(gazala, defenders, legs, "104", defending=True).ok
    refused = check_rbc_bonus(gazala, defenders, example_attackers(gazala), "104", defending=True)
    assert (refused.rule, refused.reason) == ("7.5.1.1", "rbc-bonus")
    assert check_rbc_bonus(gazala, defenders, legs, None, defending=True).ok
    # a Disrupted armoured car gives nothing; the printed (front) Effectiveness counts
    assert rbc_bonus_options(gazala, (unit(gazala, "3", disrupted=True),), defenders, defending=False) == ()


@pytest.mark.rule("7.5.1.1")
def test_r7_5_1_1_the_free_move_may_enter_a_hex_next_to_other_enemies(gazala: GazalaPack) -> None:
    """The whole stack moves; from the attacker's zone it may step straight into another EZOC (which a normal move
    may not, §5.4.1), and stops there; no Screen movement."""
    units = {**EXAMPLE, "7rtr": "2406"}  # 7 RTR's zone covers 2506
    sit = at(gazala, units, assigned={"18-flak": "21pz"})
    stack = ("104", "3", "18-flak")
    path = [HexId("2607"), HexId("2506")]
    assert check_rbc_move(sit, stack, path, supplied=True).ok
    assert check_move(sit, stack, path, supplied=True).reason == "zoc-to-zoc"
    on = check_rbc_move(sit, stack, [*path, HexId("2505")], supplied=True)
    assert on.reason == "after-stop"
    assert check_rbc_move(sit, stack, [HexId("2607"), HexId("2507"), HexId("2407")], supplied=True).ok
    assert check_rbc_move(sit, stack[:2], path, supplied=True).reason == "rbc-stack"  # never part of the stack
    assert check_rbc_move(sit, stack, [HexId("2607"), HexId("2707")], supplied=True).reason == "enemy-occupied"


# --- D. chits --------------------------------------------------------------------------------------------------------


@pytest.mark.rule("7.5.1.2")
def test_r7_5_1_2_the_pool_and_the_linear_set(gazala: GazalaPack) -> None:
    pool = chit_pool(gazala)
    assert [c.number for c in pool] == list(range(1, 30)) and not any(c.alternate for c in pool)
    linear = chit_pool(gazala, linear=True)
    assert [c.number for c in linear] == list(range(1, 30))
    assert sorted(c.id for c in linear if c.alternate) == sorted(f"a{n}" for n in (10, 14, 15, 16, 17, 18, 29))


@pytest.mark.rule("7.5.1.2")
def test_r7_5_1_2_two_distinct_chits_each_draw(gazala: GazalaPack) -> None:
    """A d29 and a d28 reach every ordered pair of distinct chits exactly once (a uniform draw without replacement);
    so do two distinct cards of a 29-card deck."""
    pool = chit_pool(gazala)
    assert draw_sizes(gazala) == (29, 28)
    pairs = [chits_from_dice(pool, a, d) for a in range(1, 30) for d in range(1, 29)]
    ids = [(p.attacker.id, p.defender.id) for p in pairs]
    assert len(set(ids)) == len(ids) == 29 * 28 and all(a != d for a, d in ids)
    cards = {(chits_from_cards(pool, a, d).attacker.id, chits_from_cards(pool, a, d).defender.id)
             for a, d in itertools.permutations(range(29), 2)}  # fmt: skip
    assert cards == set(ids)
    example = chits_from_dice(pool, 1, 20)
    assert (example.attacker.id, example.defender.id) == ("1", "21")  # the combat example's chits
    for bad in ((0, 1), (30, 1), (1, 29)):
        with pytest.raises(ValueError):
            chits_from_dice(pool, *bad)
    with pytest.raises(ValueError):
        chits_from_cards(pool, 3, 3)
