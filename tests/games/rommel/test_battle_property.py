"""Random combat rounds (§9), with fire optional or mandatory: every offered fire is accepted and every accepted
report keeps the blocks on their labels; no dead ends (a volley can always end, every hit total has a legal report)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.games.rommel.battle import (
    CLASSES,
    BattleHex,
    BattleUnit,
    Round,
    Side,
    Volley,
    apply_volley,
    check_fire,
    check_volley_losses,
    check_volley_over,
    dice_multiplier,
    fire,
    fire_dice,
    fire_options,
    legal_losses,
    volley_losses,
)
from pbem.games.rommel.data import RommelPack, default_pack_bytes, load_pack

PACK: RommelPack = load_pack(default_pack_bytes())


@st.composite
def units(draw: st.DrawFn, side: Side, index: int) -> BattleUnit:
    elite = draw(st.booleans())
    cv = draw(st.sampled_from((2, 4, 6) if elite else (1, 2, 3, 4)))
    return BattleUnit(
        block=f"{side}-{index}",
        side=side,
        arms_class=draw(st.sampled_from(CLASSES)),
        speed=draw(st.integers(1, 4)),
        cv=cv,
        cv_min=2 if elite else 1,
        step=2 if elite else 1,
        disrupted=draw(st.booleans()) and draw(st.booleans()),
    )


@st.composite
def battles(draw: st.DrawFn) -> tuple[BattleHex, Round]:
    axis = [draw(units("axis", i)) for i in range(draw(st.integers(1, 4)))]
    allied = [draw(units("allied", i)) for i in range(draw(st.integers(1, 4)))]
    battle = BattleHex(
        (*axis, *allied),
        attacker=draw(st.sampled_from(("axis", "allied"))),
        fortress=draw(st.booleans()),
        minefield=draw(st.booleans()),
    )
    return battle, Round(initiator=draw(st.sampled_from(("axis", "allied"))), assault=draw(st.booleans()))


@pytest.mark.rule("9.1")
@pytest.mark.rule("9.5")
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=battles(), data=st.data())
def test_r9_1_random_combat_rounds_stay_legal(setup: tuple[BattleHex, Round], data: st.DataObject) -> None:
    battle, round_ = setup
    fire_optional = data.draw(st.booleans())  # the option: may a unit hold its fire (notes §10.29)?
    for side in round_.order:
        volley = Volley(side, fire_optional=fire_optional)
        while True:
            options = fire_options(battle, volley)
            over = check_volley_over(battle, volley)
            assert over.ok or options  # a side held to fire always has a fire on offer
            if not options or (over.ok and data.draw(st.integers(0, 5)) == 0):
                break  # a side may stop whenever its fire is optional
            block, target = data.draw(st.sampled_from(options))
            assert check_fire(battle, volley, block, target).ok
            unit = battle.unit(block)
            assert dice_multiplier(PACK, battle, round_, unit) in (1, 2, 4)
            need = fire_dice(PACK, battle, round_, block)
            rolls = data.draw(st.lists(st.integers(1, 6), min_size=need, max_size=need))
            volley, _ = fire(PACK, battle, round_, volley, block, target, rolls)
        assert len(volley.fired) == len(volley.shots)
        assert check_volley_over(battle, volley).ok
        report = {}
        for cls, targets, hits in volley_losses(battle, volley):
            legal = legal_losses(targets, hits)
            assert legal
            report[cls] = data.draw(st.sampled_from(legal))
        assert check_volley_losses(battle, volley, report).ok
        before = {u.block: u for u in battle.units}
        battle = apply_volley(battle, volley, report)
        for after in battle.units:
            old = before[after.block]
            assert after.cv_min <= after.cv <= old.cv and (old.cv - after.cv) % after.step == 0
