"""Air units in land combat (pp.15, 24, 31): the combat move to attack, air defense, and the landing after."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.ruleset import RULESET
from pbem.games.axisallies.state import AxisState, Sortie
from tests.games.axisallies.rules_helpers import done, play, refusal, seat, start
from tests.games.axisallies.test_phases import germany, mv
from tests.games.axisallies.test_phases_combat import roll


def _malta_raid() -> AxisState:
    """Germany's fighter and bomber in Sicily fly to attack Malta (a UK fighter and 1 AAA), the air-only combat
    begun."""
    state = play(germany("combat_move"), mv("fighter", "sicily", "malta"), mv("bomber", "sicily", "malta"))
    state = done(done(state))  # no land attack is declared: the air attack is fought all the same
    assert state.phase == "combat"
    return play(state, {"action": "fight", "target": "malta"})


@pytest.mark.rule("15")
def test_p15_air_units_fly_only_to_attack_a_hostile_territory_they_can_return_from() -> None:
    state = germany("combat_move")
    assert refusal(state, mv("fighter", "tripoli", "el_agheila")) == ("15", "air-target-not-hostile")
    assert refusal(state, mv("fighter", "tripoli", "cairo")) == ("16", "too-far")
    state = play(state, mv("fighter", "tripoli", "benghazi"))
    assert state.count("tripoli", "germany:fighter") == 0
    assert [(s.type, s.origin, s.target) for s in state.sorties] == [("fighter", "tripoli", "benghazi")]
    assert refusal(state, mv("fighter", "tripoli", "benghazi")) == ("15", "no-unit-to-move")


@pytest.mark.rule("15")
def test_p15_a_safe_landing_must_stay_within_the_rest_of_the_move() -> None:
    state = germany("combat_move")
    assert RULESET.contains(
        state.model_copy(update={"landing": ("sicily",)}), "axis", RULESET.typed(mv("fighter", "sicily", "malta"))
    ).ok
    nowhere = state.model_copy(update={"landing": ()})
    assert refusal(nowhere, mv("fighter", "sicily", "malta")) == ("15", "no-safe-landing")


@pytest.mark.rule("31")
def test_p31_air_defense_fires_before_round_one_and_the_attacker_picks_the_air_losses() -> None:
    state = _malta_raid()
    assert state.battle is not None and state.battle.air == {"germany:bomber": 1, "germany:fighter": 1}
    assert state.rolls is not None and [(s.id, s.n) for s in state.rolls.rolls] == [("ad", 2)]
    state = roll(state, faces={"ad": [2, 3]})  # one die at or under 2
    assert state.pending[-1].kind == "take_casualties" and seat(state) == "axis"
    assert refusal(state, {"action": "casualty", "unit": "united_kingdom:fighter", "origin": None}) == (
        "31",
        "casualty-not-allowed",
    )
    state = play(state, {"action": "casualty", "unit": "germany:fighter", "origin": None})
    assert state.battle is not None and state.battle.air == {"germany:bomber": 1}
    assert [s.type for s in state.sorties] == ["bomber"]
    assert state.pending[-1].kind == "give_orders" and seat(state) == "allies"  # round 1 goes on


@pytest.mark.rule("24")
@pytest.mark.rule("33")
def test_p24_air_units_that_attacked_land_within_the_rest_of_their_move() -> None:
    state = roll(_malta_raid(), miss=True)  # air defense misses
    state = play(state, {"action": "order", "fight": True, "exempt_stay": False, "source": "malta"})
    assert state.pending[-1].kind == "strike_supply"  # the bomber's Collateral Damage (p.33)
    supply = state.supply["malta"]
    state = play(state, {"action": "strike", "ability": "collateral_damage"})
    assert state.supply.get("malta", 0) == supply - 1
    state = roll(roll(state, miss=True), miss=True)  # both sides miss
    state = play(state, {"action": "cease"})
    assert state.phase == "noncombat_move" and len(state.sorties) == 2
    assert refusal(state, {"action": "done"}) == ("24", "air-must-land")
    assert refusal(state, mv("bomber", "malta", "benghazi")) == ("24", "no-landing")
    state = play(state, mv("bomber", "malta", "sicily"), mv("fighter", "malta", "sicily"))
    assert state.count("sicily", "germany:bomber") == 1 and state.sorties == ()
    assert refusal(state, mv("bomber", "sicily", "tripoli"))[1] == "no-unit-to-move"
    assert done(state).phase == "deploy"


@pytest.mark.rule("22")
def test_p22_attacking_air_units_hit_by_the_defender_are_lost_in_the_air() -> None:
    state = roll(_malta_raid(), miss=True)
    state = done(play(state, {"action": "order", "fight": True, "exempt_stay": False, "source": "malta"}))
    state = roll(roll(state, miss=True))  # the British fighter hits
    assert state.pending[-1].kind == "take_casualties" and seat(state) == "axis"
    assert refusal(state, {"action": "casualty", "unit": "germany:bomber", "origin": "sicily"}) == (
        "22",
        "casualty-origin",
    )
    state = play(state, {"action": "casualty", "unit": "germany:bomber", "origin": None})
    assert state.battle is not None and state.battle.air == {"germany:fighter": 1}
    assert [s.type for s in state.sorties] == ["fighter"] and state.count("sicily", "germany:bomber") == 0


@pytest.mark.rule("23")
def test_p23_air_units_press_free_and_one_turned_aside_stays_in_the_air_to_land() -> None:
    state = roll(_malta_raid(), miss=True)
    state = done(play(state, {"action": "order", "fight": True, "exempt_stay": False, "source": "malta"}))
    state = roll(roll(state, miss=True), miss=True)
    assert state.pending[-1].kind == "press_or_cease"
    turn = {"action": "turn_aside", "origin": None, "unit": "germany:fighter"}
    state = play(state, turn)
    assert refusal(state, turn) == ("23", "not-attacking")
    state = play(state, {"action": "press"})  # no land unit goes on: nothing to pay
    assert state.battle is not None and state.battle.round == 2 and state.battle.air == {"germany:bomber": 1}
    assert sorted(s.type for s in state.sorties) == ["bomber", "fighter"]


@pytest.mark.rule("24")
def test_p24_an_air_unit_over_a_torch_landing_territory_lands_on_its_own_turn() -> None:
    state = done(start("operation_torch-4p"))  # the UK's turn of round 7: its landing units wait (p.28)
    assert state.power == "united_kingdom"
    aloft = Sortie(power="united_kingdom", type="bomber", origin="gibraltar", target="casablanca", flown=3, fought=True)
    state = state.model_copy(update={"phase": "noncombat_move", "sorties": (aloft,)})
    assert refusal(state, {"action": "done"}) == ("24", "air-must-land")
    state = play(state, mv("bomber", "casablanca", "gibraltar"))
    assert state.sorties == () and done(state).phase == "deploy"


@pytest.mark.rule("31")
def test_p31_an_air_attack_shot_down_entirely_ends_without_a_round() -> None:
    state = roll(_malta_raid(), faces={"ad": [1, 2]})
    state = play(
        state,
        {"action": "casualty", "unit": "germany:fighter", "origin": None},
        {"action": "casualty", "unit": "germany:bomber", "origin": None},
    )
    assert state.battle is None and state.phase == "noncombat_move" and state.sorties == ()
    assert state.count("malta", "united_kingdom:aaa") == 1 and state.control.get("malta") != "germany"
