"""Hit distribution (§7.5.2, §7.5.2.1, §5.6.2): every branch of the decision tree, its refusals and enumeration."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games.gazala.combat import Combatant
from pbem.games.gazala.combat_hits import (
    Distribution,
    Ecs,
    Retreat,
    SideHits,
    check_distribution,
    distribute,
    distribution_options,
    ec_rollers,
    effectiveness_checks,
    first_loss_options,
)
from pbem.games.gazala.data import GazalaPack
from tests.games.gazala.combat_helpers import example_attackers, example_defenders, unit


def _side(
    pack: GazalaPack,
    role: str,
    hits: int,
    units: tuple[Combatant, ...],
    first: str | None,
    *,
    red: bool = False,
    rolls: dict[str, int] | None = None,
) -> SideHits:
    ecs = effectiveness_checks(pack, units, rolls or {}) if red else Ecs()
    return SideHits(role=role, hits=hits, red=red, units=units, first=first, ecs=ecs)  # type: ignore[arg-type]


@pytest.mark.rule("7.5.2")
def test_r7_5_2_first_loss_goes_to_the_armour_superiority_unit(gazala: GazalaPack) -> None:
    defenders = example_defenders(gazala)
    assert first_loss_options(defenders, "18-flak", 1) == ("18-flak",)
    assert first_loss_options(defenders, None, 2) == ("104", "3", "18-flak")  # no Armour Superiority: owner's pick
    assert first_loss_options(defenders, "18-flak", 0) == ()


@pytest.mark.rule("5.6.1")
@pytest.mark.rule("5.6.2")
def test_r5_6_2_ecs_disrupt_or_cost_a_disrupted_unit_a_strength_point(gazala: GazalaPack) -> None:
    units = (unit(gazala, "104"), unit(gazala, "i-5", disrupted=True))  # Eff 7; Eff 4 when Disrupted
    ecs = effectiveness_checks(gazala, units, {"104": 7, "i-5": 5})
    assert (ecs.passed, ecs.failed, dict(ecs.losses)) == (("104",), ("i-5",), {"i-5": 1})
    assert ec_rollers((unit(gazala, "18-flak", 1), unit(gazala, "104")), "18-flak") == ("104",)  # eliminated first
    assert gazala.number("ec_disrupted_loss") == 1


@pytest.mark.rule("7.5.2")
def test_r7_5_2_nothing_to_choose_once_every_unit_is_gone(gazala: GazalaPack) -> None:
    units = (unit(gazala, "104", 1), unit(gazala, "i-5", 1, disrupted=True))
    side = _side(gazala, "defender", 3, units, "104", red=True, rolls={"i-5": 10})
    assert distribution_options(gazala, side) == (Distribution(),)
    out = distribute(gazala, side, Distribution())
    assert out.eliminated == {"104", "i-5"} and dict(out.ec_losses) == {"i-5": 1} and not out.retreats


# --- the rulebook's examples -----------------------------------------------------------------------------------------


@pytest.mark.rule("7.5.2")
def test_r7_5_2_combat_example_defender_narrative(gazala: GazalaPack) -> None:
    """§7.5.1 I, the defender as narrated (1 hit + EC, notes §10 A2): 18 FLAK takes the first loss (1 SP left);
    104 rolls 0 and disrupts, 3 and 18 FLAK pass with 7 and 3; a single hit: no retreat, no more losses."""
    ex = gazala.example("combat-ecs")
    defenders = example_defenders(gazala)
    assert ec_rollers(defenders, "18-flak") == ("104", "3", "18-flak")
    side = _side(
        gazala, "defender", 1, defenders, "18-flak", red=True,
        rolls={"104": ex["def_104"], "3": ex["def_3"], "18-flak": ex["def_18flak"]},
    )  # fmt: skip
    assert distribution_options(gazala, side) == (Distribution(),)
    out = distribute(gazala, side, Distribution())
    assert dict(out.losses) == {"18-flak": 1} and out.disrupted == {"104"} and not out.retreats
    assert defenders[2].strength - out.losses["18-flak"] == gazala.example("combat-after")["flak_left"]


@pytest.mark.rule("7.5.2")
def test_r7_5_2_combat_example_defender_by_the_crt_cell(gazala: GazalaPack) -> None:
    """The pack's cell 2!/1 prints the defender's 1 black: the first loss only, no EC."""
    side = _side(gazala, "defender", 1, example_defenders(gazala), "18-flak")
    out = distribute(gazala, side, Distribution())
    assert (dict(out.losses), out.disrupted, out.retreats) == ({"18-flak": 1}, frozenset(), ())


@pytest.mark.rule("7.5.2")
def test_r7_5_2_combat_example_attacker(gazala: GazalaPack) -> None:
    """2 hits + EC: 3 RTR/4 takes the first loss (3 SP left) and fails its EC (7 > 5); 7th Inf Bde passes (3):
    Case C. The Commonwealth follows with 7th Inf Bde: the second hit is a 1-hex Forced Retreat of both."""
    ex = gazala.example("combat-ecs")
    attackers = example_attackers(gazala)
    side = _side(
        gazala, "attacker", 2, attackers, "3rtr-4", red=True, rolls={"3rtr-4": ex["att_3rtr"], "7mot": ex["att_7mot"]}
    )
    assert side.case() == "mixed"
    follow = Distribution(choice="follow")
    hold = Distribution(choice="hold", holders=("7mot",), losses=(("7mot", 1),))
    assert set(distribution_options(gazala, side)) == {follow, hold}
    out = distribute(gazala, side, follow)
    assert out.rule == "att-red-mixed-follow"
    assert out.retreats == (Retreat(("3rtr-4", "7mot"), 1, True),)
    assert dict(out.losses) == {"3rtr-4": 1} and out.disrupted == {"3rtr-4"}
    assert attackers[0].strength - 1 == gazala.example("combat-after")["rtr_left"]
    # Hold instead: 3 RTR/4 Forced-Retreats alone (not a hit), 7th Inf Bde holds and takes the remaining hit
    held = distribute(gazala, side, hold)
    assert held.retreats == (Retreat(("3rtr-4",), 1, True),) and dict(held.losses) == {"3rtr-4": 1, "7mot": 1}


@pytest.mark.rule("7.5.2")
@pytest.mark.rule("7.5.2.1")
def test_r7_5_2_hit_distribution_example(gazala: GazalaPack) -> None:
    """3 / 1: 104 (its AT Points used) takes the defender's hit, 3. fails its EC and disrupts. The attacker: 5 RTR/4
    takes the first hit, retreats with the second, and the third must go to 7th Inf Bde."""
    defenders = (unit(gazala, "104"), unit(gazala, "3"))
    defence = _side(gazala, "defender", 1, defenders, "104", red=True, rolls={"104": 5, "3": 9})
    out = distribute(gazala, defence, Distribution())
    assert dict(out.losses) == {"104": 1} and out.disrupted == {"3"}
    attackers = (unit(gazala, "5rtr-4"), unit(gazala, "7mot"))
    attack = _side(gazala, "attacker", 3, attackers, "5rtr-4")
    retreat = Distribution(choice="retreat", losses=(("7mot", 1),))
    assert check_distribution(gazala, attack, retreat).ok
    done = distribute(gazala, attack, retreat)
    assert done.rule == "att-black-retreat"
    assert done.retreats == (Retreat(("5rtr-4", "7mot"), 1, False),)
    assert dict(done.losses) == {"5rtr-4": 1, "7mot": 1}
    refused = check_distribution(gazala, attack, Distribution(choice="retreat", losses=(("5rtr-4", 1),)))
    assert (refused.rule, refused.reason) == ("7.5.2.1", "unbalanced")


# --- black results ---------------------------------------------------------------------------------------------------


@pytest.mark.rule("7.5.2")
def test_r7_5_2_black_defender_hold_or_retreat(gazala: GazalaPack) -> None:
    defenders = (unit(gazala, "104"), unit(gazala, "i-5"))
    side = _side(gazala, "defender", 3, defenders, "i-5")
    options = distribution_options(gazala, side)
    assert set(options) == {
        Distribution(choice="hold", losses=(("104", 1), ("i-5", 1))),
        Distribution(choice="hold", losses=(("104", 2),)),
        Distribution(choice="retreat"),
    }
    out = distribute(gazala, side, Distribution(choice="retreat"))
    assert out.retreats == (Retreat(("104", "i-5"), 2, False),) and dict(out.losses) == {"i-5": 1}
    assert not check_distribution(gazala, side, Distribution(choice="retreat"), can_retreat=False).ok
    assert all(o.choice == "hold" for o in distribution_options(gazala, side, can_retreat=False))


@pytest.mark.rule("7.5.2")
def test_r7_5_2_black_hold_sends_already_disrupted_defenders_back(gazala: GazalaPack) -> None:
    defenders = (unit(gazala, "104"), unit(gazala, "i-5", disrupted=True))
    side = _side(gazala, "defender", 2, defenders, "104")
    hold = Distribution(choice="hold", losses=(("104", 1),))
    assert check_distribution(gazala, side, hold).ok
    out = distribute(gazala, side, hold)
    assert out.retreats == (Retreat(("i-5",), 1, True),)  # a Forced Retreat
    assert dict(out.losses) == {"104": 2}  # the retreating unit avoids the losses
    wrong = check_distribution(gazala, side, Distribution(choice="hold", losses=(("i-5", 1),)))
    assert (wrong.rule, wrong.reason) == ("7.5.2.1", "loss-count")


@pytest.mark.rule("7.5.2")
def test_r7_5_2_black_attacker_converts_only_one_hit(gazala: GazalaPack) -> None:
    side = _side(gazala, "attacker", 4, (unit(gazala, "i-5"),), "i-5")
    out = distribute(gazala, side, Distribution(choice="retreat", losses=(("i-5", 2),)))
    assert out.retreats == (Retreat(("i-5",), 1, False),) and dict(out.losses) == {"i-5": 3}
    assert gazala.number("attacker_retreat_hits") == 1


@pytest.mark.rule("7.5.2")
def test_r7_5_2_refusals(gazala: GazalaPack) -> None:
    side = _side(gazala, "attacker", 2, (unit(gazala, "i-5"),), "i-5")
    assert check_distribution(gazala, side, Distribution(choice="follow")).reason == "hit-option"
    assert check_distribution(
        gazala, side, Distribution(choice="hold", holders=("i-5",), losses=(("i-5", 1),))
    ).reason == ("holders")
    assert check_distribution(gazala, side, Distribution(choice="hold", losses=(("i-5", 2),))).reason == "loss-count"
    single = _side(gazala, "attacker", 1, (unit(gazala, "i-5"),), "i-5")
    assert check_distribution(gazala, single, Distribution(choice="hold")).reason == "no-choice"
    with pytest.raises(ValueError):
        distribute(gazala, side, Distribution(choice="follow"))


# --- red results -----------------------------------------------------------------------------------------------------


@pytest.mark.rule("7.5.2")
def test_r7_5_2_case_a_all_pass_is_as_black(gazala: GazalaPack) -> None:
    side = _side(gazala, "defender", 2, (unit(gazala, "104"),), "104", red=True, rolls={"104": 1})
    assert side.case() == "all_pass"
    assert {o.choice for o in distribution_options(gazala, side)} == {"hold", "retreat"}
    assert distribute(gazala, side, Distribution(choice="retreat")).rule == "def-red-pass-retreat"


@pytest.mark.rule("7.5.2")
def test_r7_5_2_case_b_all_fail(gazala: GazalaPack) -> None:
    defenders = (unit(gazala, "104"), unit(gazala, "i-5"))
    rolls = {"104": 10, "i-5": 10}
    side = _side(gazala, "defender", 3, defenders, "i-5", red=True, rolls=rolls)
    assert side.case() == "all_fail"
    assert distribution_options(gazala, side) == (Distribution(choice="forced"),)
    out = distribute(gazala, side, Distribution(choice="forced"))
    assert out.retreats == (Retreat(("104", "i-5"), 2, True),) and out.disrupted == {"104", "i-5"}
    attack = _side(gazala, "attacker", 3, defenders, "i-5", red=True, rolls=rolls)
    options = distribution_options(gazala, attack)
    assert {o.choice for o in options} == {"forced"}
    assert set(options) == {Distribution(choice="forced", losses=(("104", 1),))}  # the 2nd loss: 104 (even spread)
    out = distribute(gazala, attack, options[0])
    assert out.retreats == (Retreat(("104", "i-5"), 1, True),) and dict(out.losses) == {"i-5": 1, "104": 1}


@pytest.mark.rule("7.5.2")
def test_r7_5_2_case_c_defender(gazala: GazalaPack) -> None:
    """Mixed ECs: the Disrupted units (those Disrupted before the combat too) Forced-Retreat 1 hex; the others hold
    (the hits become losses on the holders) or all follow (one hit, then further Forced Retreats)."""
    defenders = (unit(gazala, "104"), unit(gazala, "i-5"), unit(gazala, "3", disrupted=True))
    side = _side(
        gazala, "defender", 3, defenders, "i-5", red=True, rolls={"104": 2, "i-5": 10, "3": 1}
    )  # 104 passes, I./5 fails, 3. passes but was Disrupted
    assert side.case() == "mixed"
    hold = Distribution(choice="hold", holders=("104",), losses=(("104", 2),))
    assert set(distribution_options(gazala, side)) == {hold, Distribution(choice="follow")}
    held = distribute(gazala, side, hold)
    assert held.retreats == (Retreat(("i-5", "3"), 1, True),)
    follow = distribute(gazala, side, Distribution(choice="follow"))
    assert follow.retreats == (Retreat(("104", "i-5", "3"), 2, True),) and follow.rule == "def-red-mixed-follow"
    bad = check_distribution(gazala, side, Distribution(choice="hold", holders=("3",), losses=(("3", 1),)))
    assert (bad.rule, bad.reason) == ("7.5.2", "holders")


@pytest.mark.rule("7.5.2")
def test_r7_5_2_case_c_attacker_follow_takes_losses(gazala: GazalaPack) -> None:
    attackers = (unit(gazala, "i-5"), unit(gazala, "104"))
    side = _side(gazala, "attacker", 3, attackers, "i-5", red=True, rolls={"i-5": 10, "104": 1})
    follow = [o for o in distribution_options(gazala, side) if o.choice == "follow"]
    assert follow == [Distribution(choice="follow", losses=(("104", 1),))]
    out = distribute(gazala, side, follow[0])
    assert out.rule == "att-red-mixed-follow" and out.retreats == (Retreat(("i-5", "104"), 1, True),)


@pytest.mark.rule("7.5.2.1")
def test_r7_5_2_1_eliminated_units_and_surplus_losses(gazala: GazalaPack) -> None:
    """A unit at strength 1 is eliminated by a loss; the others then take the rest; losses beyond every unit's
    strength are lost with them."""
    units = (unit(gazala, "104", 1), unit(gazala, "i-5", 3))
    side = _side(gazala, "defender", 4, units, "104")
    assert distribution_options(gazala, side) == (
        Distribution(choice="hold", losses=(("i-5", 3),)),
        Distribution(choice="retreat"),
    )
    out = distribute(gazala, side, Distribution(choice="hold", losses=(("i-5", 3),)))
    assert out.eliminated == {"104", "i-5"}
    weak = _side(gazala, "defender", 3, (unit(gazala, "104", 2),), "104")
    assert distribution_options(gazala, weak)[0] == Distribution(choice="hold", losses=(("104", 1),))


@pytest.mark.rule("7.5.2")
def test_r7_5_2_every_option_is_accepted_and_nothing_else(gazala: GazalaPack) -> None:
    """Sweep: for every side, colour, EC pattern and hit count, the enumerated options are exactly the choices the
    check accepts among all candidate choices."""
    units = (unit(gazala, "104", 2), unit(gazala, "i-5", 3, disrupted=True), unit(gazala, "3", 2))
    candidates = [
        Distribution(choice=c, holders=h, losses=loss)
        for c in (None, "hold", "retreat", "follow", "forced")
        for h in ((), ("104",), ("3",), ("104", "3"), ("i-5",))
        for loss in (
            tuple((u, n) for u, n in zip(("104", "i-5", "3"), counts, strict=True) if n)
            for counts in itertools.product(range(4), repeat=3)
        )
    ]
    for role in ("attacker", "defender"):
        for hits in range(5):
            for rolls in (
                None,
                {"104": 1, "i-5": 1, "3": 1},
                {"104": 10, "i-5": 10, "3": 10},
                {"104": 1, "i-5": 10, "3": 10},
            ):
                first = "104" if hits else None
                side = _side(gazala, role, hits, units, first, red=rolls is not None, rolls=rolls)
                options = set(distribution_options(gazala, side))
                accepted = {c for c in candidates if check_distribution(gazala, side, c).ok}
                assert options == accepted, (role, hits, rolls)
                assert options


@pytest.mark.rule("7.5.2")
@pytest.mark.rule("7.5.2.1")
def test_r7_5_2_every_hit_is_accounted_for(gazala: GazalaPack) -> None:
    """Random sides: every enumerated option is accepted and applies; with no unit eliminated, the first loss, the
    remaining step losses and the hexes of a whole-stack retreat add up to the CRT number exactly."""

    @settings(max_examples=150, deadline=None)
    @given(
        strengths=st.lists(st.integers(1, 4), min_size=1, max_size=3),
        disrupted=st.lists(st.booleans(), min_size=3, max_size=3),
        hits=st.integers(0, 6),
        red=st.booleans(),
        rolls=st.lists(st.integers(1, 10), min_size=3, max_size=3),
        role=st.sampled_from(["attacker", "defender"]),
    )
    def check(strengths: list[int], disrupted: list[bool], hits: int, red: bool, rolls: list[int], role: str) -> None:
        ids = ("104", "i-5", "3")[: len(strengths)]
        units = tuple(unit(gazala, u, s, disrupted=d) for u, s, d in zip(ids, strengths, disrupted, strict=False))
        first = ids[0] if hits else None
        ec_rolls = dict(zip(ids, rolls, strict=False))
        side = _side(gazala, role, hits, units, first, red=red and hits > 0, rolls=ec_rolls)
        options = distribution_options(gazala, side)
        assert options
        for option in options:
            assert check_distribution(gazala, side, option).ok
            out = distribute(gazala, side, option)
            for ident, lost in out.losses.items():
                assert lost + out.ec_losses.get(ident, 0) <= next(u.strength for u in units if u.id == ident)
            assert all(set(r.units).isdisjoint(out.eliminated) for r in out.retreats)
            if hits and not out.eliminated:
                whole = [r for r in out.retreats if option.choice in ("retreat", "follow", "forced")]
                assert sum(out.losses.values()) + sum(r.hexes for r in whole) == hits

    check()
