"""The optional Strategic Supply Reserve for sea attacks (p.39): sea units that attack are paid for like air units."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.reserve import reserve_due, sea_attackers
from pbem.games.axisallies.ruleset import RULESET
from pbem.games.axisallies.state import AxisState
from tests.games.axisallies.rules_helpers import done, play, refusal
from tests.games.axisallies.test_extras import turn
from tests.games.axisallies.test_phases import mv
from tests.games.axisallies.test_sea_ruleset import put


def broke(state: AxisState) -> AxisState:
    """The Axis strategic reserve (in Italy) spent."""
    return state.model_copy(update={"supply": {t: n for t, n in state.supply.items() if t != "italy"}})


@pytest.mark.rule("39")
def test_p39_a_sea_unit_sailing_into_attack_position_is_paid_from_the_reserve() -> None:
    state = put(turn("combat_move", strategic_supply_reserve="on"), "sz19", {"united_kingdom:destroyer": 1})
    assert refusal(broke(state), mv("submarine", "sz21", "sz19")) == ("39", "reserve-short")
    state = play(state, mv("submarine", "sz21", "sz19"))
    assert sea_attackers(state) == (1, 0) and reserve_due(state) == 1
    before = state.supply["italy"]
    state = done(done(state))  # the declarations end: 1 token for up to 5 attacking air and sea units
    assert state.supply["italy"] == before - 1


@pytest.mark.rule("39")
def test_p39_sea_attack_declarations_are_refused_when_the_reserve_cannot_pay() -> None:
    state = put(
        turn("declare", strategic_supply_reserve="on"), "sz21", {"germany:submarine": 1, "united_kingdom:submarine": 1}
    )
    assert refusal(broke(state), {"action": "sea_attack", "zone": "sz21"}) == ("39", "reserve-short")
    state = play(state, {"action": "sea_attack", "zone": "sz21"})
    assert reserve_due(state) == 1


@pytest.mark.rule("39")
def test_p39_ships_that_stay_in_a_hostile_zone_attack_and_the_reserve_pays_what_it_can() -> None:
    """RULING: their attack needs no combat move to refuse; an empty reserve pays nothing for them."""
    state = put(
        turn("combat_move", strategic_supply_reserve="on"),
        "sz21",
        {"germany:submarine": 1, "united_kingdom:destroyer": 1},
    )
    state = broke(state)
    assert sea_attackers(state) == (1, 1)
    state = done(done(state))
    assert state.phase == "combat" and state.naval == ("sz21",) and "italy" not in state.supply
    plain = put(turn("combat_move"), "sz19", {"united_kingdom:destroyer": 1})
    assert reserve_due(play(broke(plain), mv("submarine", "sz21", "sz19"))) == 0  # the rule is optional


@pytest.mark.rule("39")
def test_p39_an_air_attack_counted_with_ships_that_then_escape_still_ends_the_declarations_bug() -> None:
    """A play-out with every optional rule on met an air attack allowed while a ship in a hostile zone counted as
    owed, then the ship escaped and the declarations could not end: every join now counts all attackers there."""
    state = put(
        turn("combat_move", strategic_supply_reserve="on"),
        "sz21",
        {"germany:submarine": 1, "united_kingdom:destroyer": 1},
    )
    sortie = next(a for a in RULESET.legal_actions(state, "axis") if a.get("unit") == "fighter")
    assert refusal(broke(state), sortie) == ("39", "reserve-short")  # the ship that stays is owed too
    one = state.model_copy(update={"supply": {**state.supply, "italy": 1}})
    state = play(one, sortie, mv("submarine", "sz21", "sz20"))  # the submarine escapes (p.17)
    assert sea_attackers(state) == (0, 0)
    state = done(done(state))  # the declarations end: the fighter's token
    assert state.phase == "combat" and "italy" not in state.supply


@pytest.mark.rule("39")
def test_p39_ships_in_a_zone_air_units_attack_fight_and_count() -> None:
    state = turn("combat_move", strategic_supply_reserve="on")
    state = put(state, "sz21", {"germany:submarine": 1, "united_kingdom:submarine": 1})
    assert sea_attackers(state) == (0, 0)  # a friendly zone: the submarine may ignore the enemy's (p.16)
    state = play(state, mv("fighter", "tripoli", "sz21"))
    assert sea_attackers(state) == (1, 0) and reserve_due(state) == 1  # 1 token for the fighter and the submarine
