"""A rule-by-rule review of the combat library against the rulebook: each test pins a discrepancy that was found
(the rulebook's number or rule, and the library or pack as it was), so it stays fixed."""

from __future__ import annotations

import pytest

from pbem.games.gazala.combat import attack_strength, crt_lookup, parse_result
from pbem.games.gazala.data import GazalaPack
from tests.games.gazala.combat_helpers import BROKEN, example_attackers


@pytest.mark.rule("7.5.1.2")
def test_r7_5_1_2_the_packs_chit_1_gives_the_examples_32(gazala: GazalaPack) -> None:
    """§7.5.1 combat example, E: "Both units have an Effectiveness Rating of 5 and so the '5' row is used. The final
    added strength is 32" (24 + 8): chit Nº 1/29, Effectiveness 5, Regular Attack (centre) is x2 in the pack itself,
    not in a patched copy."""
    chit = gazala.chit("1")
    assert chit.multiplier(5, 1) == 2
    found = attack_strength(gazala, example_attackers(gazala), chit, "regular")
    ex = gazala.example("combat-strength")
    assert [p.strength * p.multiplier for p in found.parts] == [ex["cw_3rtr"], ex["cw_7mot"]]
    assert found.total == ex["cw_total"] == 32
    assert "rulebook §7.5.1 combat example" in chit.high.source and "32" in chit.high.source


@pytest.mark.rule("7.5.2")
@pytest.mark.rule("7.5.1")
def test_r7_5_2_the_examples_cell_makes_the_defender_take_ecs(gazala: GazalaPack) -> None:
    """§7.5.1 combat example, H and I: "The Axis player's stack receives a single hit and must also make an EC for
    each unit in his stack"; I.2 "All units in the stack must perform an EC" (104 fails, later refitted). The
    Broken 1:1 cell at a modified 6 prints both numbers red."""
    ratio = gazala.example("combat-ratio")
    found = crt_lookup(gazala, BROKEN, ratio["attack"], ratio["defence"], 6, shift=ratio["shift"])
    result = parse_result(found.result)
    assert (result.attacker, result.attacker_ec, result.defender, result.defender_ec) == (2, True, 1, True)
    assert gazala.example("combat-result")["defender_red"] == 1
