"""Sea mines against moving sea units (p.27): the stepwise loop of phases 3 and 5, played through the ruleset."""

from __future__ import annotations

import random

import pytest

from pbem.games.axisallies.ruleset import RULESET
from pbem.games.axisallies.state import AxisState
from pbem.kit import conformance
from pbem.rules.contract import Outcome
from tests.games.axisallies.rules_helpers import done, play, refusal, seat
from tests.games.axisallies.test_phases import germany, mv
from tests.games.axisallies.test_sea_ruleset import put, uk


def mined(state: AxisState, **zones: dict[str, int]) -> AxisState:
    return state.model_copy(update={"sea_mines": {z: dict(t) for z, t in zones.items()}})


def roll(state: AxisState, *faces: int) -> AxisState:
    """The sea mine dice come up ``faces``."""
    assert state.rolls is not None and state.rolls.rolls[0].id == "sea_mines"
    return RULESET.resume(state.without_first_roll(), Outcome(dice={"sea_mines": faces})).state


def detonate(state: AxisState, n: int) -> AxisState:
    return play(state, {"action": "detonate", "icons": n})


def _sub_to_sz23() -> AxisState:
    """Germany's combat move: its submarine in sz21 sets out for the UK destroyer in sz23; the UK mined sz19 and
    sz20, so every way there crosses a mined zone."""
    state = put(germany("combat_move"), "sz23", {"united_kingdom:destroyer": 1})
    return mined(state, sz19={"united_kingdom": 2}, sz20={"united_kingdom": 1})


@pytest.mark.rule("27")
@pytest.mark.rule("15")
def test_p27_a_ship_stops_in_a_mined_zone_the_owner_decides_then_it_sails_on() -> None:
    state = _sub_to_sz23()
    assert refusal(state, mv("submarine", "sz21", "sz23")) == ("27", "mined-zone")  # it stops on the way
    state = play(state, mv("submarine", "sz21", "sz19"))  # short of attack position: it stops there (step 1)
    assert [(h.path, h.waiting) for h in state.halts] == [(("sz21", "sz19"), True)]
    assert refusal(state, mv("submarine", "sz19", "sz23")) == ("15", "no-unit-to-move")  # the owner decides first
    state = done(state)  # step 1 ends: the owner of the mines in sz19 decides (step 2)
    assert seat(state) == "allies" and state.pending[-1].kind == "sea_detonation" and state.phase == "combat_move"
    assert refusal(state, {"action": "detonate", "icons": 3}) == ("27", "too-many-mines")
    state = roll(detonate(state, 1), 7)  # 1 die a token; a miss
    assert state.sea_mines["sz19"] == {"united_kingdom": 1} and not state.pending and seat(state) == "axis"
    assert refusal(state, {"action": "done"}) == ("15", "stopped-must-sail-on")  # p.16: it ends in attack position
    assert refusal(state, mv("submarine", "sz19", "sz21")) == ("27", "zone-twice")
    state = play(state, mv("submarine", "sz19", "sz23"))  # step 3: the survivor sails on with its move left
    assert state.halts == () and state.naval == ("sz23",)
    assert done(state).phase == "declare"


@pytest.mark.rule("27")
def test_p27_each_die_of_3_or_less_sinks_a_unit_that_entered_the_zone() -> None:
    state = put(_sub_to_sz23(), "sz19", {"germany:submarine": 1})  # already there: it cannot be chosen
    state = put(state, "sz21", {"germany:submarine": 2})
    state = play(state, mv("submarine", "sz21", "sz19"), mv("submarine", "sz21", "sz19"))
    state = roll(detonate(done(state), 2), 3, 1)
    assert seat(state) == "axis" and state.pending[-1].kind == "sea_mine_loss"
    assert refusal(state, {"action": "mine_loss", "unit": "italy:destroyer"}) == ("27", "not-entered")
    assert RULESET.legal_actions(state, "axis") == [{"action": "mine_loss", "unit": "germany:submarine"}]
    state = play(state, {"action": "mine_loss", "unit": "germany:submarine"})
    state = play(state, {"action": "mine_loss", "unit": "germany:submarine"})
    assert state.count("sz19", "germany:submarine") == 1 and not state.pending and state.halts == ()
    assert state.sea_mines == {"sz20": {"united_kingdom": 1}}
    assert done(state).phase == "declare"  # nothing stopped is left to sail on


@pytest.mark.rule("27")
@pytest.mark.rule("33")
def test_p27_a_mine_damages_a_battleship_and_each_zone_entered_is_decided_in_turn() -> None:
    state = mined(uk("noncombat_move"), sz29={"germany": 2}, sz30={"germany": 2})
    state = play(state, mv("battleship", "sz31", "sz29"))
    assert refusal(state, mv("destroyer", "sz31", "sz26")) == ("27", "mined-zone")  # every way is mined
    state = play(state, mv("destroyer", "sz31", "sz30"))
    state = done(state)  # both zones entered in this step: sz29 first (the map's order), then sz30
    assert state.pending[-1].check.zone == "sz29" and state.pending[-1].rest[0].zone == "sz30"  # type: ignore[union-attr]
    state = roll(detonate(state, 1), 2)
    state = play(state, {"action": "mine_loss", "unit": "united_kingdom:battleship"})
    assert state.damaged == {"sz29": {"united_kingdom:battleship": 1}}  # p.33: a battleship takes two hits
    assert state.count("sz29", "united_kingdom:battleship") == 1
    state = roll(detonate(state, 2), 9, 8)  # sz30: two misses
    assert state.count("sz30", "united_kingdom:destroyer") == 1 and not state.pending
    state = play(state, mv("battleship", "sz29", "sz26"))  # it sails on, its damage with it
    assert state.damaged == {"sz26": {"united_kingdom:battleship": 1}}
    after = done(state)  # a noncombat move may stop in a mined zone for good
    assert after.phase == "deploy" and after.halts == ()


@pytest.mark.rule("27")
@pytest.mark.rule("33")
def test_p27_a_second_hit_sinks_the_damaged_battleship() -> None:
    state = mined(uk("noncombat_move"), sz29={"germany": 2})
    state = roll(detonate(done(play(state, mv("battleship", "sz31", "sz29"))), 2), 1, 3)
    state = play(state, {"action": "mine_loss", "unit": "united_kingdom:battleship"})
    state = play(state, {"action": "mine_loss", "unit": "united_kingdom:battleship"})
    assert state.count("sz29", "united_kingdom:battleship") == 0 and state.damaged == {} and not state.pending


@pytest.mark.rule("27")
def test_p27_the_owner_may_detonate_nothing_and_allied_mines_never_detonate() -> None:
    state = _sub_to_sz23()
    state = mined(state, sz19={"italy": 1, "united_kingdom": 1})  # p.26: only enemy powers' mines
    state = play(state, mv("submarine", "sz21", "sz19"))
    assert done(state).pending[-1].seat == "allies"  # the UK only, for its own token
    state = done(done(state))  # the UK detonates none: the submarine may sail on
    assert state.sea_mines["sz19"] == {"italy": 1, "united_kingdom": 1} and state.halts[0].waiting is False
    state = play(state, mv("submarine", "sz19", "sz23"))
    assert state.naval == ("sz23",)


@pytest.mark.rule("27")
def test_p27_legal_moves_and_refusals_agree_through_the_loop() -> None:
    state = play(_sub_to_sz23(), mv("submarine", "sz21", "sz19"))
    for current in (state, roll(detonate(done(state), 1), 9)):
        for who in RULESET.to_act(current):
            assert conformance.check_legal_matches_contains(RULESET, current, who, random.Random(1), mutations=5)
            conformance.check_choices(RULESET, current, who)


@pytest.mark.rule("27")
@pytest.mark.rule("17")
def test_p27_a_submarine_stopped_in_a_hostile_mined_zone_may_sail_on_and_attacks_only_where_it_ends() -> None:
    state = put(germany("combat_move"), "sz19", {"united_kingdom:battleship": 1})  # hostile, no destroyer
    state = mined(put(state, "sz23", {"united_kingdom:destroyer": 1}), sz19={"united_kingdom": 1})
    state = play(state, mv("submarine", "sz21", "sz19"))  # it stops there: in attack position
    assert state.naval == ("sz19",)
    state = roll(detonate(done(state), 1), 10)
    assert done(state).phase == "declare"  # in attack position, it may stay and attack
    state = play(state, mv("submarine", "sz19", "sz23"))  # or sail on through the hostile zone's exit
    assert "sz19" not in state.naval and done(done(state)).naval == ("sz23",)  # it attacks where it ended
