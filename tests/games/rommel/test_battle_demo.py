"""The §19 demonstration (1940), every battle step of it, with the pack's demo blocks (scenario ``demo-1940``):
the refused battle at Sollum, the battle at Buq Buq, and the Allied withdrawals that draw no Pursuit Fire."""

from __future__ import annotations

import pytest

from pbem.games.rommel.battle import (
    BattleHex,
    Round,
    Volley,
    apply_volley,
    battle_unit,
    can_recover,
    check_combat,
    check_pursuit_dice,
    check_refuse_battle,
    check_retreat,
    check_slowest_speed,
    check_volley_losses,
    fire,
    fire_dice,
    legal_losses,
    legal_targets,
    pursuit_dice,
    slowest_speed,
    volley_losses,
)
from pbem.games.rommel.data import RommelPack

from .battle_helpers import refused


def deployed(pack: RommelPack, side: str, place: str) -> tuple[str, ...]:
    scenario = pack.scenario("demo-1940")
    setup = scenario.axis if side == "axis" else scenario.allied
    return next(d.blocks for d in setup.deployments if d.id == place)


@pytest.mark.rule("10.2")
def test_r10_2_demo_first_axis_turn_the_refused_battle_at_sollum(rommel: RommelPack) -> None:
    # Three Axis units from Ft. Capuzzo attack the single Allied unit in Sollum; it Refuses Battle and withdraws.
    (defender,) = (battle_unit(rommel, b) for b in deployed(rommel, "allied", "sollum"))
    attackers = [battle_unit(rommel, b) for b in deployed(rommel, "axis", "ft-capuzzo")[:3]]
    assert check_refuse_battle(
        [defender], {defender.block}, attacked=True, engaged_before=False, supply_lines={defender.block: True}
    ).ok
    # "The Allied player informs the Axis player that the unit (the slowest in the Retreating group) is a mechanized
    # unit. Since the Axis player has no mechanized or faster units involved, there is no pursuit fire."
    announced = rommel.unit_type("mech_inf").speed
    assert check_slowest_speed([defender], announced).ok
    assert pursuit_dice(rommel, announced, attackers) == 0
    assert check_pursuit_dice(rommel, announced, attackers, 0).ok
    assert refused(check_pursuit_dice(rommel, announced, attackers, 1)) == ("10.5", "pursuit-dice-miscounted")


@pytest.mark.rule("11.2")
def test_r11_2_demo_the_unit_at_sidi_barrani_recovers_only_after_a_full_axis_turn() -> None:
    # Disrupted in the first Axis turn: not in the first Allied turn, but in the second (after the second Axis turn).
    assert refused(can_recover(in_battle_hex=False, supply_line=True, enemy_turns_disrupted=0)) == (
        "11.2",
        "too-recent",
    )
    assert can_recover(in_battle_hex=False, supply_line=True, enemy_turns_disrupted=1).ok


@pytest.mark.rule("9.1")
@pytest.mark.rule("9.5")
def test_r9_1_demo_second_axis_turn_the_battle_at_buq_buq(rommel: RommelPack) -> None:
    armor, mech = (battle_unit(rommel, b) for b in deployed(rommel, "allied", "buq-buq"))
    assert (armor.arms_class, mech.arms_class) == ("armor", "infantry")
    inf_a, inf_b = (battle_unit(rommel, b) for b in deployed(rommel, "axis", "ft-capuzzo")[:2])
    assert inf_a.cv == inf_b.cv == 4
    buq_buq = BattleHex((armor, mech, inf_a, inf_b), attacker="axis")
    # "The Allied player decides to fight this time" (the battle is new, so the Axis must fight it).
    assert refused(check_combat(fight=False, active="axis", attacker="axis", new=True, fortress=False)) == (
        "8.6",
        "new-battle",
    )
    round_ = Round(initiator="axis")
    assert round_.defensive == "allied"  # "and has the first fire (Defensive Fire)"

    # "The armored unit gets two hits with Double Fire (DF) but the mechanized infantry (SF) misses."
    volley = Volley("allied")
    assert legal_targets(buq_buq, volley, armor.block) == ("infantry",)
    volley, shot = fire(rommel, buq_buq, round_, volley, armor.block, "infantry", (5, 3, 6, 2))
    assert (shot.fire, shot.hits.full) == ("df", 2)
    volley, shot = fire(rommel, buq_buq, round_, volley, mech.block, "infantry", (5, 4, 1))
    assert (shot.fire, shot.hits.full) == ("sf", 0)

    # "The Axis player reduces one of his infantry units by 2 CV (alternatively, both units could have been reduced
    # by 1 CV each)": exactly these three reports are legal.
    ((cls, targets, hits),) = volley_losses(buq_buq, volley)
    assert cls == "infantry" and hits.full == 2
    assert sorted(sorted(dict(x).items()) for x in legal_losses(targets, hits)) == sorted(
        [[(inf_a.block, 2)], [(inf_b.block, 2)], [(inf_a.block, 1), (inf_b.block, 1)]]
    )
    assert refused(check_volley_losses(buq_buq, volley, {"infantry": {inf_a.block: 1}})) == ("9.5", "hits-wasted")
    buq_buq = apply_volley(buq_buq, volley, {"infantry": {inf_b.block: 2}})

    # "The Axis player fires both infantry units (4 CV and 2 CV) at single fire (SF), scoring one hit."
    volley = Volley("axis")
    assert [fire_dice(rommel, buq_buq, round_, b) for b in (inf_a.block, inf_b.block)] == [4, 2]
    assert legal_targets(buq_buq, volley, inf_a.block) == ("infantry",)  # infantry must fire at infantry
    volley, first = fire(rommel, buq_buq, round_, volley, inf_a.block, "infantry", (2, 6, 3, 1))
    volley, second = fire(rommel, buq_buq, round_, volley, inf_b.block, "infantry", (5, 4))
    assert (first.fire, second.fire, first.hits.full + second.hits.full) == ("sf", "sf", 1)

    # "The Allied player reduces the mechanized infantry unit by 1 CV."
    ((_, targets, hits),) = volley_losses(buq_buq, volley)
    assert [dict(x) for x in legal_losses(targets, hits)] == [{mech.block: 1}]
    buq_buq = apply_volley(buq_buq, volley, {"infantry": {mech.block: 1}})
    assert [(u.block, u.cv) for u in buq_buq.units] == [
        (armor.block, armor.cv),
        (mech.block, mech.cv - 1),
        (inf_a.block, 4),
        (inf_b.block, 2),
    ]


@pytest.mark.rule("10.5")
def test_r10_5_demo_withdrawals_from_buq_buq_and_sidi_barrani_draw_no_pursuit(rommel: RommelPack) -> None:
    # Second Allied turn: a Pass, and one Withdrawal Move taking both Buq Buq units out of the battle (a full
    # Retreat, so a Withdrawal Move may make it). "Since they are faster than the pursuing units, no pursuit fire."
    armor, mech = (battle_unit(rommel, b) for b in deployed(rommel, "allied", "buq-buq"))
    inf_a, inf_b = (battle_unit(rommel, b) for b in deployed(rommel, "axis", "ft-capuzzo")[:2])
    buq_buq = BattleHex((armor, mech, inf_a, inf_b), attacker="axis")
    assert check_retreat(buq_buq, "allied", {armor.block, mech.block}, withdrawal_move=True).ok
    assert refused(check_retreat(buq_buq, "allied", {armor.block}, withdrawal_move=True)) == (
        "10.4",
        "partial-by-withdrawal",
    )
    assert refused(
        check_combat(fight=True, active="allied", attacker="axis", new=False, fortress=False, pass_turn=True)
    ) == (
        "4.5",
        "pass-no-combat",
    )
    assert pursuit_dice(rommel, slowest_speed([armor, mech]), [inf_a, inf_b]) == 0
    # Third Axis turn: the mechanized unit at Sidi Barrani withdraws from the two attacking infantry units; again no
    # pursuit fire.
    sidi_barrani = battle_unit(rommel, deployed(rommel, "allied", "sollum")[0])
    assert pursuit_dice(rommel, slowest_speed([sidi_barrani]), [inf_a, inf_b]) == 0
