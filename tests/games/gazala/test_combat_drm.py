"""The five combat DRMs (§7.5.1.5) and the rulebook's DRM and Armour Superiority examples."""

from __future__ import annotations

import pytest

from pbem.games.gazala.combat import CombatOptions, Ground, final_drm
from pbem.games.gazala.combat_drm import (
    ArmourChoice,
    Supporter,
    armour_candidates,
    armour_choices,
    armour_superiority,
    check_armour_choice,
    check_lead_formation,
    hq_support_drm,
    rbc_failed_drm,
    schwerpunkt_drm,
    support_drm,
    support_hexes,
)
from pbem.games.gazala.data import GazalaPack
from pbem.kit.hexes import HexId
from pbem.kit.tables import Term
from tests.games.gazala.board_helpers import at
from tests.games.gazala.combat_helpers import BROKEN, example_attackers, example_defenders, unit

CLEAR = Ground(crt_row="clear", at_bonus=0, tp_halved=False, improved=False)
MINEFIELD = Ground(crt_row="minefield", at_bonus=1, tp_halved=True, improved=True, friendly_minefield=True)
EXAMPLE_AS = CombatOptions(armour_negative_with_at=True)


def _helper(pack: GazalaPack, ident: str, hex_id: str, **kw: object) -> Supporter:
    return Supporter(unit(pack, ident, **kw), HexId(hex_id))  # type: ignore[arg-type]


# --- A. Combat Support --------------------------------------------------------------------------------------------


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_support_values_by_attack_and_defence(gazala: GazalaPack) -> None:
    same = [_helper(gazala, "i-5", "0101"), _helper(gazala, "104", "0102")]  # 21. Panzer, two hexes
    other = [_helper(gazala, "ii-8", "0103")]  # 15. Panzer
    helpers = same + other

    def att(kind: str) -> int:
        term = support_drm(gazala, attacking=True, formation="21pz", helpers=helpers, kind=kind)  # type: ignore[arg-type]
        return term.value if term else 0

    assert [att(k) for k in ("hasty", "regular", "prepared")] == [0, 2, 5]  # Prepared: 2 x +2 and +1
    regular = support_drm(gazala, attacking=False, formation="21pz", helpers=helpers)
    improved = support_drm(gazala, attacking=False, formation="21pz", helpers=helpers, improved=True)
    assert (regular and regular.value, improved and improved.value) == (-2, -5)
    assert support_drm(gazala, attacking=False, formation="21pz", helpers=helpers, disrupted_defender=True) is None


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_one_value_per_hex(gazala: GazalaPack) -> None:
    """Same-formation and friendly support are not cumulative in one hex; two units in a hex count once."""
    helpers = [_helper(gazala, "i-5", "0101"), _helper(gazala, "ii-8", "0101"), _helper(gazala, "104", "0101")]
    term = support_drm(gazala, attacking=True, formation="21pz", helpers=helpers, kind="prepared")
    assert term is not None and term.value == 2


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_who_may_support(gazala: GazalaPack) -> None:
    def value(**kw: object) -> int:
        term = support_drm(
            gazala, attacking=True, formation="21pz", helpers=[_helper(gazala, "i-5", "0101", **kw)], kind="regular"
        )
        return term.value if term else 0

    assert value() == 1
    assert value(disrupted=True) == 0  # §5.6.3
    assert value(in_command=False) == 0
    assert value(supplied=False) == 0  # §5.7.5
    unassigned = [_helper(gazala, "18-flak", "0101", formation=None)]
    assert support_drm(gazala, attacking=True, formation="21pz", helpers=unassigned, kind="prepared") is None
    # permanently independent or unassigned units receive none
    assert support_drm(gazala, attacking=True, formation=None, helpers=[_helper(gazala, "i-5", "0101")]) is None


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_lead_formation(gazala: GazalaPack) -> None:
    mixed = (unit(gazala, "104"), unit(gazala, "ii-8"))
    assert check_lead_formation(mixed, "15pz").ok
    refused = check_lead_formation(mixed, None)
    assert (refused.rule, refused.reason) == ("7.5.1.5", "lead-formation")
    assert check_lead_formation(mixed, "ariete").reason == "lead-formation"
    assert check_lead_formation(example_defenders(gazala), None).ok


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_example_support_on_the_board(gazala: GazalaPack) -> None:
    """The combat example: an Axis unit projecting a ZOC into the attacking hex gives -1 (Regular Defence); the
    Commonwealth's adjacent stack is Disrupted and gives nothing."""
    sit = at(
        gazala,
        {
            "3rtr-4": "2707",
            "7mot": "2707",
            "104": "2607",
            "3": "2607",
            "18-flak": "2607",
            "i-5": "2708",
            "5rtr-4": "2506",
        },
        disrupted=["5rtr-4"],
        assigned={"18-flak": "21pz"},
    )
    axis = support_hexes(sit, "axis", HexId("2707"), HexId("2607"))
    assert axis == (("i-5", HexId("2708")),)
    helpers = [Supporter(unit(gazala, u), h) for u, h in axis]
    term = support_drm(gazala, attacking=False, formation="21pz", helpers=helpers)
    assert term is not None and term.value == gazala.example("combat-drm")["support"] == -1
    assert support_hexes(sit, "cw", HexId("2607"), HexId("2707")) == ()  # a Disrupted unit projects no ZOC


@pytest.mark.rule("5.4")
@pytest.mark.rule("7.5.1.5")
def test_r5_4_support_needs_a_zoc_into_the_enemy_hex(gazala: GazalaPack) -> None:
    """§5.4 "Combat Support ZOC" example: a unit across a Ridge hexside projects no ZOC into the enemy hex and cannot
    support; one across an open hexside can."""
    sit = at(gazala, {"104": "2302", "3rtr-4": "2301", "5rtr-4": "2303", "7mot": "2202"})
    assert support_hexes(sit, "cw", HexId("2302"), HexId("2301")) == (("7mot", HexId("2202")),)


# --- B. HQ Attack Support -----------------------------------------------------------------------------------------


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_hq_attack_support(gazala: GazalaPack) -> None:
    attackers = example_attackers(gazala)
    support = gazala.hq("7armd-hq").support
    assert hq_support_drm(gazala, attackers, "hasty", support) is None
    regular = hq_support_drm(gazala, attackers, "regular", support)
    assert regular is not None and regular.value == gazala.example("combat-drm")["hq_support"] == 3
    prepared = hq_support_drm(gazala, attackers, "prepared", support)
    assert prepared is not None and prepared.value == 6
    odd = hq_support_drm(gazala, attackers, "regular", 5)
    assert odd is not None and odd.value == 3  # rounded up
    away = (unit(gazala, "3rtr-4", in_command=False), unit(gazala, "7mot"))
    assert hq_support_drm(gazala, away, "prepared", support) is None  # every participant In Command (notes B11)


# --- C. Armour Superiority ----------------------------------------------------------------------------------------


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_example_armour_superiority(gazala: GazalaPack) -> None:
    """3 RTR/4's 6 TPs against 18 FLAK's 8 AT + 3 (FLAK with infantry against tanks) + 1 (Broken) = 12: -6 in the
    example's reading (notes §10 A3), none by the rule text."""
    attackers, defenders = example_attackers(gazala), example_defenders(gazala)
    choice: ArmourChoice = ("3rtr-4", "at", "18-flak")
    assert check_armour_choice(attackers, defenders, "3rtr-4", "at", "18-flak").ok
    ex = gazala.example("combat-armour")
    found = armour_superiority(gazala, attackers, defenders, BROKEN, choice, options=EXAMPLE_AS)
    assert (found.attacker_value, found.defender_value, found.drm) == (ex["attacker_tp"], ex["defender_total"], -6)
    by_text = armour_superiority(gazala, attackers, defenders, BROKEN, choice)
    assert by_text.drm == 0 and by_text.term() is None
    assert (by_text.attacker_unit, by_text.defender_unit) == ("3rtr-4", "18-flak")  # they take the first hits


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_armour_choices(gazala: GazalaPack) -> None:
    attackers, defenders = example_attackers(gazala), example_defenders(gazala)
    assert armour_choices(attackers, defenders) == (("3rtr-4", "tp", "3"), ("3rtr-4", "at", "18-flak"))
    refused = check_armour_choice(attackers, defenders, "3rtr-4", "at", "104")  # 104 has fewer AT Points
    assert (refused.rule, refused.reason) == ("7.5.1.5", "armour-unit")
    assert not check_armour_choice(attackers, defenders, "7mot", "tp", "3").ok  # the attacker uses Tank Points
    with pytest.raises(ValueError):
        armour_superiority(gazala, attackers, defenders, BROKEN, ("3rtr-4", "at", "104"))


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_ties_go_to_strength_then_choice(gazala: GazalaPack) -> None:
    twins = (unit(gazala, "3rtr-4", 4), unit(gazala, "5rtr-4", 3))
    assert armour_candidates(twins, "tp") == ("3rtr-4",)  # same TPs: the higher combat strength
    even = (unit(gazala, "3rtr-4", 4), unit(gazala, "5rtr-4", 4))
    assert armour_candidates(even, "tp") == ("3rtr-4", "5rtr-4")  # player's choice
    assert armour_candidates((unit(gazala, "104"),), "tp") == ()


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_armour_examples(gazala: GazalaPack) -> None:
    ex = gazala.example("armour-examples")
    # II/8 with 18 FLAK, stacked with motorised infantry, against 6 SA's armoured cars (with a Disrupted Valentine,
    # the tank the FLAK criteria need, §7.5.1.5 C): 5 + 2 - 3 = +4
    attackers = (unit(gazala, "ii-8"), unit(gazala, "18-flak", formation="15pz"))
    stack = (unit(gazala, "104"),)
    sa = (unit(gazala, "6saac"), unit(gazala, "8rtr", formation="1sa", disrupted=True))
    flak = armour_superiority(gazala, attackers, sa, CLEAR, ("ii-8", "tp", "6saac"), stack=stack)
    assert flak.drm == ex["flak_case"] == 4
    no_infantry = armour_superiority(gazala, attackers, sa, CLEAR, ("ii-8", "tp", "6saac"))
    assert no_infantry.drm == 2
    no_tank = armour_superiority(gazala, attackers, sa[:1], CLEAR, ("ii-8", "tp", "6saac"), stack=stack)
    assert no_tank.drm == 2
    # II/8's 5 TPs against 2 AT Points: +3
    bers = (unit(gazala, "8-bers"),)
    assert armour_superiority(gazala, (unit(gazala, "ii-8"),), bers, CLEAR, ("ii-8", "at", "8-bers")).drm == 3
    # halved by the unbreached minefield: 6 / 2 = 3 against 6 unmodified TPs: -3
    halved = armour_superiority(
        gazala, (unit(gazala, "i-5"),), (unit(gazala, "3rtr-4"),), MINEFIELD, ("i-5", "tp", "3rtr-4")
    )
    assert halved.drm == ex["halved_case"] == -3
    # the attacker has only AT Points: the defender's unmodified best TPs (a Valentine's 4): -4
    valentine = (unit(gazala, "8rtr", formation="50div"),)
    assert armour_choices((unit(gazala, "27"),), valentine) == ((None, "tp", "8rtr"),)
    auto = armour_superiority(gazala, (unit(gazala, "27"),), valentine, MINEFIELD, (None, "tp", "8rtr"))
    assert (auto.drm, auto.attacker_unit, auto.defender_unit) == (ex["no_tp_case"], None, "8rtr")
    # neither side has Tank Points: no Armour Superiority, no unit takes the first hit by rule
    none = armour_superiority(gazala, (unit(gazala, "27"),), (unit(gazala, "69-bde"),), CLEAR, (None, "tp", None))
    assert (none.drm, none.defender_unit) == (0, None)


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_defender_tank_points_are_never_modified_by_terrain(gazala: GazalaPack) -> None:
    hill = Ground(crt_row="hill", at_bonus=2, tp_halved=False, improved=False)
    found = armour_superiority(
        gazala, (unit(gazala, "ii-8"),), (unit(gazala, "3rtr-4"),), hill, ("ii-8", "tp", "3rtr-4")
    )
    assert found.defender_value == 6 and found.drm == -1
    # Anti-Tank Points get the terrain bonus, even a unit without any
    tanks = (unit(gazala, "3rtr-4"),)
    at_choice = armour_superiority(gazala, (unit(gazala, "ii-8"),), tanks, hill, ("ii-8", "at", "3rtr-4"))
    assert at_choice.defender_value == 2 and at_choice.drm == 3


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_drm_example_a_hasty_against_improved_defence(gazala: GazalaPack) -> None:
    """I/8's TPs halved to 3 by the minefield, equal to 150 Bde's 2 AT + 1: no Armour Superiority; 69 Bde's
    support -2: the total is -2."""
    ex = gazala.example("drm-example-a")
    attackers, defenders = (unit(gazala, "i-8"),), (unit(gazala, "150-bde"),)
    armour = armour_superiority(gazala, attackers, defenders, MINEFIELD, ("i-8", "at", "150-bde"))
    assert armour.attacker_value == ex["tp_halved"] == armour.defender_value and armour.drm == 0
    support = support_drm(
        gazala, attacking=False, formation="50div", helpers=[_helper(gazala, "69-bde", "0101")], improved=True
    )
    assert support is not None and support.value == ex["support"]
    terms = [t for t in (support, armour.term(), hq_support_drm(gazala, attackers, "hasty", 6)) if t]
    assert final_drm(gazala, terms) == ex["total"] == -2


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_drm_example_b_regular_against_regular_defence(gazala: GazalaPack) -> None:
    """Ariete fails its Retreat before Combat (+2), 7th Armoured's HQ gives half its 6 (+3), IX/132 supports the
    defender (-1), 3 RTR/4's 6 TPs against 8th Bersaglieri's 2 AT (+4): +8."""
    ex = gazala.example("drm-example-b")
    attackers, defenders = (unit(gazala, "3rtr-4"),), (unit(gazala, "8-bers"),)
    terms = [
        rbc_failed_drm(gazala, True),
        hq_support_drm(gazala, attackers, "regular", gazala.hq("7armd-hq").support),
        support_drm(gazala, attacking=False, formation="ariete", helpers=[_helper(gazala, "ix-132", "0101")]),
        armour_superiority(gazala, attackers, defenders, CLEAR, ("3rtr-4", "at", "8-bers")).term(),
    ]
    assert [t.value if t else 0 for t in terms] == [ex[k] for k in ("failed_rbc", "hq_support", "support", "armour")]
    assert final_drm(gazala, [t for t in terms if t]) == ex["total"] == 8


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_drm_example_c_prepared_against_regular_defence(gazala: GazalaPack) -> None:
    """Friendly support both ways (+1 from another formation in a Prepared Attack, -1), 21. Panzer's HQ in full
    (+6), a slight Commonwealth Armour Superiority (-1): +5."""
    ex = gazala.example("drm-example-c")
    attackers, defenders = (unit(gazala, "i-5"),), (unit(gazala, "3rtr-4"),)
    terms = [
        support_drm(gazala, attacking=False, formation="7armd", helpers=[_helper(gazala, "7mot", "0101")]),
        support_drm(
            gazala, attacking=True, formation="21pz", helpers=[_helper(gazala, "ii-8", "0102")], kind="prepared"
        ),
        hq_support_drm(gazala, attackers, "prepared", gazala.hq("21pz-hq").support),
        armour_superiority(gazala, (unit(gazala, "ii-8"),), defenders, CLEAR, ("ii-8", "tp", "3rtr-4")).term(),
    ]
    assert [t.value if t else 0 for t in terms] == [
        ex[k] for k in ("support_def", "support_att", "hq_support", "armour")
    ]
    assert final_drm(gazala, [t for t in terms if t]) == ex["total"] == 5


# --- D. Schwerpunkt, E. failed Retreat before Combat ---------------------------------------------------------------


@pytest.mark.rule("7.5.1.5")
@pytest.mark.rule("5.9")
def test_r7_5_1_5_schwerpunkt(gazala: GazalaPack) -> None:
    defenders = example_defenders(gazala)
    term = schwerpunkt_drm(gazala, "axis", defenders, "21pz", attacking=False)
    assert term is not None and term.value == gazala.example("combat-drm")["schwerpunkt"] == -2
    attack = schwerpunkt_drm(gazala, "axis", defenders, "21pz", attacking=True)
    assert attack is not None and attack.value == 2
    disrupted = (unit(gazala, "104", disrupted=True),)
    assert schwerpunkt_drm(gazala, "axis", disrupted, "21pz", attacking=True) is not None  # status does not matter
    assert schwerpunkt_drm(gazala, "axis", (unit(gazala, "104", in_command=False),), "21pz", attacking=True) is None
    assert schwerpunkt_drm(gazala, "axis", defenders, "15pz", attacking=True) is None
    assert schwerpunkt_drm(gazala, "cw", example_attackers(gazala), "7armd", attacking=True) is None


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_example_total(gazala: GazalaPack) -> None:
    """-1 support, +3 HQ, -6 Armour Superiority, -2 Schwerpunkt, +2 failed Retreat before Combat: -4."""
    attackers, defenders = example_attackers(gazala), example_defenders(gazala)
    terms: list[Term | None] = [
        support_drm(gazala, attacking=False, formation="21pz", helpers=[_helper(gazala, "i-5", "2708")]),
        hq_support_drm(gazala, attackers, "regular", gazala.hq("7armd-hq").support),
        armour_superiority(
            gazala, attackers, defenders, BROKEN, ("3rtr-4", "at", "18-flak"), options=EXAMPLE_AS
        ).term(),
        schwerpunkt_drm(gazala, "axis", defenders, "21pz", attacking=False),
        rbc_failed_drm(gazala, True),
    ]
    assert final_drm(gazala, [t for t in terms if t]) == gazala.example("combat-drm")["total"] == -4
    assert rbc_failed_drm(gazala, False) is None
