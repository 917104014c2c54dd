"""The rulebook's combat sequence example (§7.5.1, "COMBAT SEQUENCE EXAMPLE"), steps A to I, on the real map.

The Commonwealth attacks from 2707 (3 RTR/4 and 7th Inf Bde, 7th Armoured) into 2607 (104, 3 and 18 FLAK assigned
to 21. Panzer, which holds the Schwerpunkt), Broken terrain. Two readings the notes flag are fixed here: the
example's -6 Armour Superiority with Anti-Tank Points (notes §10 A3, ``armour_negative_with_at``) and its
Commonwealth chit arithmetic (notes §10 A4, :func:`example_attacker_chit`); the defender's EC follows the narrative
while the CRT cell prints the defender's 1 black (notes §10 A2).
"""

from __future__ import annotations

import pytest

from pbem.games.gazala.combat import CombatOptions, combined_arms, ground, resolve
from pbem.games.gazala.combat_chits import chit_pool, chits_from_dice
from pbem.games.gazala.combat_declare import (
    attack_cost,
    check_declaration,
    check_escalation,
    check_rbc,
    escalation_cost,
    rbc_bonus_options,
    rbc_succeeds,
)
from pbem.games.gazala.combat_displace import retreat_paths
from pbem.games.gazala.combat_drm import (
    Supporter,
    armour_choices,
    armour_superiority,
    hq_support_drm,
    rbc_failed_drm,
    schwerpunkt_drm,
    support_drm,
    support_hexes,
)
from pbem.games.gazala.combat_hits import (
    Distribution,
    Retreat,
    SideHits,
    distribute,
    distribution_options,
    ec_rollers,
    effectiveness_checks,
    first_loss_options,
)
from pbem.games.gazala.combat_victory import battle_victory
from pbem.games.gazala.data import GazalaPack
from pbem.kit.hexes import HexId
from pbem.kit.tables import Term
from tests.games.gazala.board_helpers import at
from tests.games.gazala.combat_helpers import example_attacker_chit, example_attackers, example_defenders, unit

H = HexId
POSITION = {
    "3rtr-4": "2707",
    "7mot": "2707",
    "104": "2607",
    "3": "2607",
    "18-flak": "2607",
    "i-5": "2708",  # 21. Panzer, projecting its ZOC into 2707: the defender's support
    "5rtr-4": "2506",  # the attacker's adjacent stack, Disrupted: no support
    "6rtr": "2506",
}


@pytest.mark.rule("7.5.1")
@pytest.mark.rule("7.5.1.1")
@pytest.mark.rule("7.5.1.2")
@pytest.mark.rule("7.5.1.3")
@pytest.mark.rule("7.5.1.5")
@pytest.mark.rule("7.5.2")
@pytest.mark.rule("7.5.3")
def test_r7_5_1_combat_sequence_example(gazala: GazalaPack) -> None:
    sit = at(gazala, POSITION, disrupted=["5rtr-4", "6rtr"], assigned={"18-flak": "21pz"})
    attackers, defenders = example_attackers(gazala), example_defenders(gazala)

    # A. The Commonwealth spends one AP to declare a Hasty Attack from 2707 on 2607.
    assert check_declaration(sit, H("2707"), H("2607"), attackers, "7armd").ok
    assert attack_cost(gazala, attackers) == 1

    # B. Retreat before Combat: the stack qualifies; the armoured car 3 gives +4; 7 against 3 + 4 fails: +2 DRM.
    assert check_rbc(defenders).ok
    rbc = gazala.example("combat-rbc")
    bonus = dict(rbc_bonus_options(gazala, defenders, attackers, defending=True))["3"]
    failed = not rbc_succeeds(rbc["cw_roll"], rbc["axis_roll"] + bonus)
    assert (bonus, failed) == (4, True)

    # C. Escalation to a Regular Attack: one more AP.
    cost = escalation_cost(gazala, "regular")
    assert cost == 1 and check_escalation(attackers, "regular", available=1, cost=cost).ok

    # D. The chits: Nº 1/29 for the Commonwealth, Nº 21/29 for the Axis.
    drawn = chits_from_dice(chit_pool(gazala), 1, 20)
    assert (drawn.attacker.id, drawn.defender.id) == ("1", "21")

    # E. Combined Arms for the Commonwealth (motorised infantry with a tank), not for the Axis; 32 : 37.
    assert combined_arms(attackers) and not combined_arms(defenders)
    where = ground(sit, H("2707"), H("2607"), "axis", improved_defence=False)
    assert (where.crt_row, where.at_bonus, where.tp_halved, where.improved) == ("broken", 1, False, False)

    # G. DRMs: support -1, HQ +3, Armour Superiority -6, Schwerpunkt -2, failed RbC +2 = -4.
    axis_helpers = [Supporter(unit(gazala, u), h) for u, h in support_hexes(sit, "axis", H("2707"), H("2607"))]
    cw_helpers = [Supporter(unit(gazala, u), h) for u, h in support_hexes(sit, "cw", H("2607"), H("2707"))]
    assert cw_helpers == []  # the Disrupted stack projects no ZOC
    options = CombatOptions(armour_negative_with_at=True)
    assert ("3rtr-4", "at", "18-flak") in armour_choices(attackers, defenders)
    armour = armour_superiority(gazala, attackers, defenders, where, ("3rtr-4", "at", "18-flak"), options=options)
    terms = [
        support_drm(gazala, attacking=True, formation="7armd", helpers=cw_helpers, kind="regular"),
        support_drm(gazala, attacking=False, formation="21pz", helpers=axis_helpers),
        hq_support_drm(gazala, attackers, "regular", gazala.hq("7armd-hq").support),
        armour.term(),
        schwerpunkt_drm(gazala, "axis", defenders, "21pz", attacking=False),
        rbc_failed_drm(gazala, failed),
    ]
    drms: list[Term] = [t for t in terms if t is not None]
    ex = gazala.example("combat-drm")
    assert [t.value for t in drms] == [
        ex["support"],
        ex["hq_support"],
        ex["armour"],
        ex["schwerpunkt"],
        ex["failed_rbc"],
    ]

    # E-H. 32 : 37 is 2:3 on the Broken row, Combined Arms shifts to 1:1; the roll 0 (10) - 4 = 6: 2 / 1.
    done = resolve(
        gazala,
        attackers,
        defenders,
        where,
        "regular",
        (example_attacker_chit(gazala), drawn.defender),
        drms=drms,
        roll=ex["roll"],
        options=options,
    )
    assert (done.attack.total, done.defence.total) == (32, 37)
    assert (done.lookup.base, done.shifts.value, done.lookup.column) == ("2:3", 1, "1:1")
    assert (done.drm, done.lookup.roll, done.lookup.result) == (ex["total"], ex["modified"], "2!/1")
    result = done.result
    assert (result.attacker, result.attacker_ec, result.defender) == (2, True, 1)

    # I. The defender first: 18 FLAK (its AT Points used) takes the first loss; the narrated ECs: 104 fails.
    ecs = gazala.example("combat-ecs")
    first = first_loss_options(defenders, armour.defender_unit, result.defender)
    assert first == ("18-flak",)
    rollers = ec_rollers(defenders, first[0])
    rolls = dict(zip(rollers, (ecs["def_104"], ecs["def_3"], ecs["def_18flak"]), strict=True))
    defence = SideHits(
        "defender", result.defender, True, defenders, first[0], effectiveness_checks(gazala, defenders, rolls)
    )
    assert distribution_options(gazala, defence) == (Distribution(),)  # a single hit: no retreat, no more losses
    held = distribute(gazala, defence, Distribution())
    assert dict(held.losses) == {"18-flak": 1} and held.disrupted == {"104"} and held.retreats == ()

    # The attacker: 3 RTR/4 takes the first loss and fails its EC; 7th Inf Bde passes; the Commonwealth follows.
    first = first_loss_options(attackers, armour.attacker_unit, result.attacker)
    assert first == ("3rtr-4",)
    rolls = dict(zip(ec_rollers(attackers, first[0]), (ecs["att_3rtr"], ecs["att_7mot"]), strict=True))
    attack = SideHits(
        "attacker", result.attacker, True, attackers, first[0], effectiveness_checks(gazala, attackers, rolls)
    )
    out = distribute(gazala, attack, Distribution(choice="follow"))
    assert out.retreats == (Retreat(("3rtr-4", "7mot"), 1, True),) and dict(out.losses) == {"3rtr-4": 1}
    after = gazala.example("combat-after")
    assert (defenders[2].strength - 1, attackers[0].strength - 1) == (after["flak_left"], after["rtr_left"])
    # both move a single hex towards home, entering no prohibited hex: no additional losses
    paths = retreat_paths(gazala, sit, "cw", H("2707"), ("3rtr-4", "7mot"), 1, forced=True)
    assert [p.hexes for p in paths] == [(H("2807"),)] and paths[0].losses(gazala) == 0

    # Battle Victory: the Axis took fewer hits; 21. Panzer holds the Schwerpunkt: two bonus APs.
    victory = battle_victory(
        gazala, "cw", (result.attacker, result.defender), attackers, defenders, held.eliminated, schwerpunkt="21pz"
    )
    assert (victory.winner, victory.bonus_ap) == ("defender", after["bonus_ap"])
    assert "104" in victory.units  # which spends one AP on a Refit (the EC roll 2 passes its Disrupted Eff 5)
    assert ecs["refit_104"] <= unit(gazala, "104", disrupted=True).eff
