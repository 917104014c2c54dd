"""Phase 4 (pp.19-23, 28-29): declared land attacks fought through the combat library, each decision an action
of the seat that owns it, every die through the protocol's roll requests."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.ruleset import RULESET
from pbem.games.axisallies.state import AxisState
from pbem.rules.contract import Outcome
from tests.games.axisallies.rules_helpers import done, play, refusal, seat, start


def roll(state: AxisState, *, miss: bool = False, faces: dict[str, list[int]] | None = None) -> AxisState:
    """Resolve the pending roll: the ``faces`` given by roll id, else all hits (1) or, with ``miss``, all misses
    (10)."""
    request = state.rolls
    assert request is not None
    given = {k: tuple(v) for k, v in (faces or {}).items()}
    dice = {s.id: given.get(s.id, (10 if miss else 1,) * s.n) for s in request.rolls}
    return RULESET.resume(state.without_first_roll(), Outcome(dice=dice)).state


def attack_benghazi(tanks: int = 1) -> AxisState:
    """Rommel's Last Push, round 1: German tanks in El Agheila attack Benghazi, paid from El Agheila."""
    state = done(done(done(start())))  # no variable reinforcements, no purchases, no combat moves
    assert state.phase == "declare"
    for _ in range(tanks):
        state = play(state, {"action": "commit", "unit": "tank", "origin": "el_agheila", "target": "benghazi"})
    state = play(state, {"action": "pay", "origin": "el_agheila", "target": "benghazi", "source": "el_agheila"})
    return done(state)


FIGHT = {"action": "order", "fight": True, "exempt_stay": False, "source": "benghazi"}


@pytest.mark.rule("19")
def test_p19_the_mover_picks_each_declared_combat() -> None:
    state = attack_benghazi()
    assert state.phase == "combat" and seat(state) == "axis"
    assert refusal(state, {"action": "fight", "target": "tobruk"}) == ("19", "no-such-combat")
    state = play(state, {"action": "fight", "target": "benghazi"})
    assert state.battle is not None and state.battle.defenders["united_kingdom:infantry"] == 2
    assert seat(state) == "allies" and state.pending[-1].kind == "give_orders"


@pytest.mark.rule("20")
def test_p20_the_defender_fights_paying_exactly_one_supply_or_retreats() -> None:
    state = play(attack_benghazi(), {"action": "fight", "target": "benghazi"})
    supply = state.supply["benghazi"]
    assert refusal(state, {**FIGHT, "source": None}) == ("20", "supply-amount")
    state = play(state, FIGHT)
    assert state.supply["benghazi"] == supply - 1 and state.rolls is not None


@pytest.mark.rule("21")
def test_p21_attack_hits_are_taken_by_the_defender_who_still_fires() -> None:
    state = play(play(attack_benghazi(), {"action": "fight", "target": "benghazi"}), FIGHT)
    state = roll(state)  # the tank hits
    assert seat(state) == "allies" and state.pending[-1].kind == "take_casualties"
    state = play(state, {"action": "casualty", "unit": "united_kingdom:infantry", "origin": None})
    assert state.battle is not None and state.battle.marked == {"united_kingdom:infantry": 1}
    assert state.rolls is not None and len(state.rolls.rolls) == 4  # infantry (marked too), artillery, scout, tank


@pytest.mark.rule("22")
def test_p22_defence_hits_are_taken_at_once_by_the_attacker_naming_the_origin() -> None:
    state = play(play(attack_benghazi(tanks=2), {"action": "fight", "target": "benghazi"}), FIGHT)
    state = roll(state, miss=True)
    state = roll(state, miss=True, faces={"d1-0": [1]})  # one defender hit
    assert seat(state) == "axis" and state.pending[-1].kind == "take_casualties"
    assert refusal(state, {"action": "casualty", "unit": "germany:tank", "origin": "sirte"}) == (
        "22",
        "casualty-origin",
    )
    state = play(state, {"action": "casualty", "unit": "germany:tank", "origin": "el_agheila"})
    assert state.count("el_agheila", "germany:tank") == 1
    assert state.pending[-1].kind == "press_or_cease"


@pytest.mark.rule("23")
def test_p23_pressing_pays_per_origin_and_ceasing_ends_the_combat() -> None:
    state = play(play(attack_benghazi(), {"action": "fight", "target": "benghazi"}), FIGHT)
    state = roll(roll(state, miss=True), miss=True)
    assert refusal(state, {"action": "press"}) == ("23", "supply-amount")
    state = play(state, {"action": "press_pay", "origin": "el_agheila", "source": "el_agheila"})
    state = play(state, {"action": "press"})
    assert state.battle is not None and state.battle.round == 2 and state.pending[-1].kind == "give_orders"
    state = play(state, FIGHT)
    state = roll(roll(state, miss=True), miss=True)
    state = play(state, {"action": "cease"})
    assert state.battle is None and state.phase == "noncombat_move"


@pytest.mark.rule("22")
def test_p22_retreating_defenders_leave_and_the_attacker_moves_in() -> None:
    state = play(attack_benghazi(), {"action": "fight", "target": "benghazi"})
    state = play(state, {"action": "order", "fight": False, "exempt_stay": False, "source": None})
    state = roll(state, miss=True)  # the retreating defenders do not fire: no defence roll
    assert state.pending[-1].kind == "retreats" and seat(state) == "allies"
    assert refusal(state, {"action": "done"}) == ("22", "retreat-possible")
    assert refusal(state, {"action": "retreat", "unit": "united_kingdom:infantry", "to": "el_agheila"})[1] == (
        "bad-retreat"
    )
    while state.pending and state.pending[-1].kind == "retreats":
        state = play(state, RULESET.legal_actions(state, "allies")[0])
    assert state.pending[-1].kind == "move_into" and seat(state) == "axis"
    state = play(state, {"action": "move_in", "origin": "el_agheila", "unit": "germany:tank"})
    assert state.control["benghazi"] == "germany" and state.count("benghazi", "germany:tank") == 1
    assert state.phase == "noncombat_move"


@pytest.mark.rule("18")
def test_p18_an_attack_that_cannot_be_paid_is_withdrawn_and_one_that_can_stands() -> None:
    state = done(done(done(start())))
    commit = {"action": "commit", "unit": "tank", "origin": "el_agheila", "target": "benghazi"}
    state = play(state, commit)
    withdraw = {"action": "withdraw", "origin": "el_agheila", "target": "benghazi"}
    assert refusal(state, withdraw) == ("18", "declaration-final")
    drained = state.model_copy(update={"supply": {}})
    state = play(drained, withdraw)
    assert state.attacks == ()


@pytest.mark.rule("15")
def test_p15_a_combat_move_needs_the_supply_for_an_attack() -> None:
    state = done(done(start()))
    dry = state.model_copy(update={"supply": {k: v for k, v in state.supply.items() if k not in ("el_agheila",)}})
    assert refusal(dry, {"action": "move", "unit": "tank", "origin": "el_agheila", "to": "mechili"}) == (
        "15",
        "no-supply-for-attack",
    )


@pytest.mark.rule("28")
def test_p28_the_torch_landings_are_declared_and_pressed_with_all_units() -> None:
    state = done(start("operation_torch-4p"))
    while state.power != "united_states":
        state = done(state) if not state.pending else play(state, RULESET.legal_actions(state, seat(state))[0])
    assert {g.target for g in state.attacks if g.pre_declared} == {"casablanca", "oran", "algiers"}
    state = done(done(done(state)))  # purchase, combat move, declarations (the landings need no supply)
    assert state.phase == "combat"
    state = play(state, {"action": "fight", "target": "casablanca"})
    assert state.battle is not None and state.battle.must_press and state.battle.controller == "united_states"
    assert seat(state) == "germany"  # the Vichy French are Germany's decisions (p.29)
    state = play(state, RULESET.legal_actions(state, "germany")[0])
    state = roll(state, miss=True)
    state = roll(state, miss=True)  # the Vichy French score nothing: they surrender
    assert state.french["casablanca"] == "allies" and state.control["casablanca"] == "united_states"


@pytest.mark.rule("22")
def test_p22_no_retreat_into_a_territory_attacked_this_turn_even_once_fought() -> None:
    state = play(attack_benghazi(), {"action": "fight", "target": "benghazi"})
    assert state.attacked == ("benghazi",)
    marked = state.model_copy(update={"attacked": ("benghazi", "derna")})
    marked = play(marked, {"action": "order", "fight": False, "exempt_stay": False, "source": None})
    marked = roll(marked, miss=True)
    assert refusal(marked, {"action": "retreat", "unit": "united_kingdom:infantry", "to": "derna"}) == (
        "22",
        "bad-retreat",
    )


@pytest.mark.rule("19")
def test_p19_the_attacker_names_the_main_attack_and_flanking_dice_reroll() -> None:
    state = done(done(start()))
    state = play(state, {"action": "move", "unit": "tank", "origin": "el_agheila", "to": "mechili"})
    state = done(state)
    for origin in ("el_agheila", "mechili"):
        state = play(state, {"action": "commit", "unit": "tank", "origin": origin, "target": "benghazi"})
        state = play(state, {"action": "pay", "origin": origin, "target": "benghazi", "source": "el_agheila"})
    state = play(done(state), {"action": "fight", "target": "benghazi"})
    assert state.pending[-1].kind == "choose_main" and seat(state) == "axis"
    assert refusal(state, {"action": "main", "origin": "sirte"}) == ("19", "not-main-candidate")
    state = play(state, {"action": "main", "origin": "mechili"})
    state = play(state, FIGHT)
    assert state.rolls is not None
    flank = next(s.id for s in state.rolls.rolls if "flanking" in s.purpose)
    state = roll(state, miss=True, faces={flank: [9]})
    assert state.rolls is not None and [(s.id, s.n) for s in state.rolls.rolls] == [(flank, 1)]  # a reroll
    state = roll(state, faces={flank: [1]})
    assert state.pending[-1].kind == "take_casualties" and seat(state) == "allies"


@pytest.mark.rule("28")
def test_p28_uk_landing_units_wait_for_the_us_turn() -> None:
    state = done(start("operation_torch-4p"))
    assert state.power == "united_kingdom" and state.count("algiers", "united_kingdom:infantry") > 0
    state = done(state)
    neighbour = next(e.b for e in state.pack.graph().edges("algiers") if e.type == "land")
    move = {"action": "move", "unit": "infantry", "origin": "algiers", "to": neighbour}
    assert refusal(state, move) == ("28", "landing-units-wait")


def _torch_round_one(**options: str) -> AxisState:
    """Operation Torch, the US turn of round 7: the Casablanca landing after a round in which only the Vichy
    French hit, with no supply left around Casablanca."""
    state = done(start("operation_torch-4p", **options))
    while state.power != "united_states":
        state = done(state) if not state.pending else play(state, RULESET.legal_actions(state, seat(state))[0])
    state = play(done(done(done(state))), {"action": "fight", "target": "casablanca"})
    state = play(state, RULESET.legal_actions(state, "germany")[0])
    state = roll(roll(state, miss=True))
    while state.pending[-1].kind == "take_casualties":
        state = play(state, RULESET.legal_actions(state, seat(state))[0])
    assert state.pending[-1].kind == "press_or_cease"
    return state.model_copy(update={"supply": {}})


@pytest.mark.rule("28")
def test_p28_a_torch_landing_that_cannot_pay_ceases_unless_the_option_presses_it_unpaid() -> None:
    short = _torch_round_one()
    assert refusal(short, {"action": "press"}) == ("23", "supply-amount")
    assert RULESET.contains(short, seat(short), RULESET.typed({"action": "cease"})).ok
    unpaid = _torch_round_one(torch_unpaid_press="on")
    assert RULESET.contains(unpaid, seat(unpaid), RULESET.typed({"action": "press"})).ok
    assert refusal(unpaid, {"action": "cease"})[0] == "28"


@pytest.mark.rule("31")
@pytest.mark.rule("33")
def test_p31_p33_with_two_tokens_a_scout_car_and_a_bomber_each_destroy_one() -> None:
    state = done(done(done(start())))
    el_agheila = {**state.pieces["el_agheila"], "germany:scout_car": 1}
    state = state.model_copy(update={"pieces": {**state.pieces, "el_agheila": el_agheila}})
    for unit in ("tank", "scout_car"):
        state = play(state, {"action": "commit", "unit": unit, "origin": "el_agheila", "target": "benghazi"})
    state = play(state, {"action": "pay", "origin": "el_agheila", "target": "benghazi", "source": "el_agheila"})
    state = play(done(state), {"action": "fight", "target": "benghazi"})
    assert state.battle is not None
    bomber = state.battle.model_copy(update={"air": {"germany:bomber": 1}})
    state = state.model_copy(update={"battle": bomber, "supply": {**state.supply, "benghazi": 3}})
    state = play(state, FIGHT)  # the defender's token leaves two for the strikes
    assert state.pending[-1].kind == "strike_supply" and seat(state) == "axis"
    state = play(state, {"action": "strike", "ability": "supply_raider"})
    assert state.pending[-1].kind == "strike_supply"
    assert refusal(state, {"action": "strike", "ability": "supply_raider"}) == ("31", "no-supply-strike")
    state = play(state, {"action": "strike", "ability": "collateral_damage"})
    assert "benghazi" not in state.supply and state.rolls is not None
