"""A rule-by-rule review of the combat library against the rulebook: each test pins a discrepancy that was found
(the rulebook's number or rule, and the library or pack as it was), so it stays fixed."""

from __future__ import annotations

import pytest

from pbem.games.gazala.combat import attack_strength, crt_lookup, parse_result
from pbem.games.gazala.combat_declare import check_rbc, rbc_bonus_options
from pbem.games.gazala.combat_displace import (
    Displacement,
    HqPenalty,
    OverstackEffects,
    check_displacement,
    displacement_chooser,
    displacement_options,
    hq_displacement_penalty,
    hqs_left_alone,
    overstack_effects,
    overstacked,
    surplus_hqs,
)
from pbem.games.gazala.data import GazalaPack
from pbem.kit.hexes import HexId
from tests.games.gazala.board_helpers import at
from tests.games.gazala.combat_helpers import BROKEN, example_attackers, unit

H = HexId


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


# --- displacement: who chooses, what HQs lose, lone HQs (§5.3.1-§5.3.3, §7.5) ----------------------------------------

RING = {"104": "2806", "i-5": "2707", "ii-8": "2808", "i-8": "2706"}  # Axis all round 2807 but 2906 and 2907


@pytest.mark.rule("5.3.1")
@pytest.mark.rule("5.3.3")
def test_r5_3_1_the_owner_eliminates_when_nothing_can_be_displaced(gazala: GazalaPack) -> None:
    """§5.3.3: "The opposing player may displace overstacked units of his choice"; §5.3.1: "If displacement is
    impossible due to the presence of enemy units and prohibited terrain, the owning side eliminates overstacked
    units until stacking limits are met"."""
    three = {"3rtr-4": "2807", "7mot": "2807", "8h-4": "2807"}
    assert displacement_chooser(gazala, at(gazala, three), "cw", H("2807")) == "axis"
    trapped = at(gazala, {**three, **RING, "27": "2906", "3": "2907"})
    assert displacement_chooser(gazala, trapped, "cw", H("2807")) == "cw"
    gone = Displacement("7mot", None)
    assert check_displacement(gazala, trapped, "cw", H("2807"), gone, by="cw").ok
    refused = check_displacement(gazala, trapped, "cw", H("2807"), gone, by="axis")
    assert (refused.rule, refused.reason) == ("5.3.1", "displace-chooser")
    assert check_displacement(gazala, at(gazala, three), "cw", H("2807"), gone, by="axis").reason == "displace-to"
    assert displacement_chooser(gazala, at(gazala, {"3rtr-4": "2807"}), "cw", H("2807")) is None


@pytest.mark.rule("5.3.1")
@pytest.mark.rule("5.3.2")
def test_r5_3_1_two_hqs_displace_an_hq_not_the_units(gazala: GazalaPack) -> None:
    """Two HQs over two units that fit: only an HQ is surplus; the owner picks which HQ goes (§5.3.2), and the
    opponent displaces no combat unit ("In overstacking situations for units (only), not HQs")."""
    sit = at(gazala, {"3rtr-4": "2807", "7mot": "2807"}, {"7armd-hq": "2807", "1armd-hq": "2807"})
    assert overstacked(gazala, sit, "cw", H("2807"))
    assert displacement_options(gazala, sit, "cw", H("2807")) == ()
    assert displacement_chooser(gazala, sit, "cw", H("2807")) is None
    assert surplus_hqs(gazala, sit, "cw", H("2807")) == (1, ("1armd-hq", "7armd-hq"))
    assert surplus_hqs(gazala, at(gazala, {"3rtr-4": "2807"}, {"7armd-hq": "2807"}), "cw", H("2807")) == (0, ())


@pytest.mark.rule("5.3.1")
def test_r5_3_1_overstacking_disrupts_and_costs_hqs_support(gazala: GazalaPack) -> None:
    """ "All combat units in an overstacked hex ... suffer an automatic disruption. A currently Disrupted unit remains
    Disrupted and suffers an additional Strength Point loss. If a hex contains two or more HQs, each HQ loses one
    Support Point"."""
    three = {"3rtr-4": "2807", "7mot": "2807", "8h-4": "2807"}
    done = overstack_effects(gazala, at(gazala, three, disrupted=["8h-4"]), "cw", H("2807"))
    assert done.disrupted == {"3rtr-4", "7mot"}
    assert dict(done.losses) == {"8h-4": gazala.number("overstack_disrupted_loss")}
    assert dict(done.hq_support) == {}
    hqs = at(gazala, {"3rtr-4": "2807"}, {"7armd-hq": "2807", "1armd-hq": "2807"})
    done = overstack_effects(gazala, hqs, "cw", H("2807"))  # the limits count HQs: the hex is overstacked too
    assert (done.disrupted, dict(done.losses)) == ({"3rtr-4"}, {})
    loss = gazala.number("overstack_hq_support_loss")
    assert dict(done.hq_support) == {"1armd-hq": loss, "7armd-hq": loss}
    assert overstack_effects(gazala, at(gazala, {"3rtr-4": "2807"}), "cw", H("2807")) == OverstackEffects()


@pytest.mark.rule("5.3.2")
def test_r5_3_2_a_displaced_hq_loses_support_and_an_activation_space(gazala: GazalaPack) -> None:
    """ "1. Subtract one from the HQ's current Attack Support total until the minimum of 0 is reached and 2. Move its
    Formation Activation marker to the next lower space"."""
    assert hq_displacement_penalty(gazala, support=6, level=3) == HqPenalty(support=5, level=2)
    assert hq_displacement_penalty(gazala, support=0, level=0) == HqPenalty(support=0, level=0)


@pytest.mark.rule("7.5")
@pytest.mark.rule("5.3.2")
def test_r7_5_an_hq_left_alone_by_combat_is_displaced(gazala: GazalaPack) -> None:
    """ "an HQ is immediately displaced if it suddenly finds itself alone in a hex as a result of combat. This is true
    even if not adjacent to an enemy unit": after the losses and retreats, the combat's hexes are looked at."""
    before = at(gazala, {"3rtr-4": "2707", "104": "2607"}, {"7armd-hq": "2707", "21pz-hq": "2607"})
    assert hqs_left_alone(before, (H("2707"), H("2607"))) == ()
    after = at(gazala, {"3rtr-4": "2807", "104": "2607"}, {"7armd-hq": "2707", "21pz-hq": "2607"})
    assert hqs_left_alone(after, (H("2707"), H("2607"))) == ("7armd-hq",)
    gone = at(gazala, {"3rtr-4": "2807"}, {"7armd-hq": "2707", "21pz-hq": "2607"})
    assert hqs_left_alone(gone, (H("2707"), H("2607"))) == ("21pz-hq", "7armd-hq")


# --- Retreat before Combat: tanks are mechanised (§7.5.1.1) -----------------------------------------------------


@pytest.mark.rule("7.5.1.1")
def test_r7_5_1_1_a_heavy_tank_is_mechanised(gazala: GazalaPack) -> None:
    """ "at least one non-HQ unit in the defending stack is mechanised or motorised": a Matilda moves on a white
    hexagon (§3.2h) but is a tank, a mechanised unit; with leg infantry of its formation it may retreat. Against
    an attack of leg units only, its full Effectiveness is the defender's DRM option."""
    matilda = unit(gazala, "42rtr", formation="50div")
    stack = (matilda, unit(gazala, "69-bde"))
    assert check_rbc(stack).ok
    assert check_rbc((unit(gazala, "69-bde"), unit(gazala, "150-bde"))).reason == "rbc-leg"
    attackers = (unit(gazala, "27"),)  # Italian leg infantry
    options = dict(rbc_bonus_options(gazala, stack, attackers, defending=True))
    assert options == {"42rtr": matilda.unit.eff.front}
