"""A power's turn (p.12): income and requisition, combat moves, declarations, noncombat moves, deployment,
convoys and stacking, played through the ruleset."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.phases import start_turn
from pbem.games.axisallies.ruleset import RULESET
from pbem.games.axisallies.state import AxisState
from tests.games.axisallies.rules_helpers import done, play, refusal, seat, start


def germany(phase: str = "purchase") -> AxisState:
    """Rommel's Last Push, round 1, Germany's turn at ``phase`` (2 players)."""
    state = done(start())  # the UK places no variable reinforcements
    order = ["purchase", "combat_move", "declare", "noncombat_move", "deploy"]
    for _ in order[: order.index(phase)]:
        state = done(state)
    assert state.phase == phase
    return state


def req(unit: str) -> dict[str, str]:
    return {"action": "requisition", "unit": unit}


def mv(unit: str, origin: str, to: str) -> dict[str, str]:
    return {"action": "move", "unit": unit, "origin": origin, "to": to}


@pytest.mark.rule("13")
def test_p13_income_is_national_rp_plus_controlled_territories() -> None:
    state = germany()
    nbrp, rp = state.pack.power("germany").nbrp, state.pack.territory("el_agheila").rp
    assert nbrp is not None and rp is not None and state.rp == nbrp + rp


@pytest.mark.rule("13")
def test_p13_requisitions_go_to_the_reinforcements_zone_within_budget_and_supply_cap() -> None:
    state = play(germany(), req("infantry"), req("supply"))
    assert state.reserve["germany"] == {"infantry": 1, "supply": 1}
    for _ in range(4):
        state = play(state, req("supply"))
    assert refusal(state, req("supply")) == ("13", "supply-cap")
    assert refusal(state, req("fighter")) == ("13", "over-budget")
    assert refusal(state, req("battleship")) == ("13", "not-on-chart")


@pytest.mark.rule("13")
def test_p13_german_submarines_are_placed_in_sea_zone_1_at_once() -> None:
    state = play(germany(), req("submarine"))
    assert state.count("sz1", "germany:submarine") == 1 and "germany" not in state.reserve


@pytest.mark.rule("38")
def test_p38_tigers_need_their_optional_rule() -> None:
    assert refusal(germany(), req("tiger_tank")) == ("38", "optional-unit")


@pytest.mark.rule("13")
def test_p13_malta_yields_its_rp_for_one_supply_token_paid_first() -> None:
    state = germany("deploy")
    state = done(state)  # Germany's turn ends; the UK's begins
    assert (state.power, seat(state)) == ("united_kingdom", "allies")
    before, malta = state.rp, state.supply["malta"]
    state = play(state, {"action": "pay_upkeep", "territory": "malta"})
    assert state.rp == before + (state.pack.territory("malta").rp or 0) and state.supply["malta"] == malta - 1
    assert refusal(state, {"action": "pay_upkeep", "territory": "malta"}) == ("13", "upkeep-first")


@pytest.mark.rule("15")
def test_p15_a_land_combat_move_keeps_a_point_for_the_attack_and_ends_in_attack_position() -> None:
    state = germany("combat_move")
    assert refusal(state, mv("infantry", "el_agheila", "sirte")) == ("15", "attack-point-reserved")
    assert refusal(state, mv("mech_infantry", "tripoli", "garian")) == ("15", "not-attack-position")
    assert refusal(state, mv("truck", "el_agheila", "sirte")) == ("15", "noncombat-only")
    state = play(state, mv("tank", "el_agheila", "mechili"))
    assert state.count("mechili", "germany:tank") == 1 and state.obliged == {"mechili": {"germany:tank": 1}}


@pytest.mark.rule("15")
def test_p15_a_blitz_takes_an_empty_hostile_territory_at_once() -> None:
    state = germany("combat_move")
    emptied = {**state.pieces}
    del emptied["benghazi"]
    state = state.model_copy(update={"pieces": emptied})
    state = play(state, mv("tank", "el_agheila", "derna"))  # through Benghazi, its second point
    assert state.control["benghazi"] == "germany" and state.blitzed == ("benghazi",)
    assert state.exhausted == {"derna": {"germany:tank": 1}} and not state.obliged
    assert refusal(state, mv("mech_infantry", "el_agheila", "benghazi")) == ("15", "blitzed-territory")


@pytest.mark.rule("18")
def test_p18_units_that_moved_into_attack_position_must_attack_and_pay_exactly() -> None:
    state = play(germany("combat_move"), mv("tank", "el_agheila", "mechili"))
    state = done(state)
    assert refusal(state, {"action": "done"}) == ("18", "must-attack")
    state = play(state, {"action": "commit", "unit": "tank", "origin": "mechili", "target": "benghazi"})
    assert refusal(state, {"action": "done"}) == ("18", "supply-amount")
    pay = {"action": "pay", "origin": "mechili", "target": "benghazi", "source": "el_agheila"}
    state = play(state, pay)
    assert state.supply["el_agheila"] == 2 and state.attacks[0].paid == {"el_agheila": 1}
    assert refusal(state, pay) == ("18", "supply-amount")
    state = done(state)
    assert state.phase == "combat" and state.spent == {"mechili": {"germany:tank": 1}}


@pytest.mark.rule("18")
def test_p18_attacks_only_hostile_neighbours_and_a_unit_attacks_once() -> None:
    state = germany("declare")
    commit = {"action": "commit", "unit": "infantry", "origin": "el_agheila", "target": "sirte"}
    assert refusal(state, commit) == ("18", "not-hostile")
    assert refusal(state, {**commit, "target": "tobruk"}) == ("18", "not-adjacent")
    assert refusal(state, {**commit, "unit": "truck", "target": "benghazi"}) == ("18", "cannot-attack")
    state = play(state, {**commit, "target": "benghazi"})
    assert refusal(state, {**commit, "target": "jalo"}) == ("18", "no-unit-to-commit")


@pytest.mark.rule("24")
def test_p24_noncombat_moves_stay_out_of_hostile_territory_and_move_once() -> None:
    state = germany("noncombat_move")
    assert refusal(state, mv("infantry", "el_agheila", "benghazi")) == ("24", "hostile-territory")
    state = play(state, mv("infantry", "el_agheila", "sirte"))
    assert refusal(state, mv("infantry", "sirte", "tripoli")) == ("24", "no-unit-to-move")
    state = play(state, mv("fighter", "tripoli", "el_agheila"))
    assert state.count("el_agheila", "germany:fighter") == 1
    assert refusal(state, mv("bomber", "sicily", "sz11")) == ("24", "no-landing")


@pytest.mark.rule("25")
def test_p25_everything_in_the_reinforcements_zone_deploys_to_a_legal_space() -> None:
    state = play(germany(), req("infantry"))
    for _ in range(4):
        state = done(state)
    assert refusal(state, {"action": "done"}) == ("25", "must-deploy")
    assert refusal(state, {"action": "deploy", "unit": "infantry", "to": "cairo"}) == ("25", "not-a-deployment-space")
    state = play(state, {"action": "deploy", "unit": "infantry", "to": "italy"})
    assert state.count("italy", "germany:infantry") == 1
    state = done(state)
    assert state.power == "united_kingdom"


@pytest.mark.rule("12")
def test_p12_convoys_land_in_their_port_or_return_when_the_route_is_closed() -> None:
    state = germany()
    cargo = state.model_copy(
        update={
            "pieces": {**state.pieces, "sz15": {"germany:infantry": 2}},
            "convoy_supply": {"sz15": {"germany": 3}},
        }
    )
    landed = start_turn(cargo).state
    assert landed.count("tripoli", "germany:infantry") == 2 and landed.supply["tripoli"] == 2 + 3
    closed = cargo.model_copy(update={"control": {**cargo.control, "tripoli": "united_kingdom"}})
    back = start_turn(closed).state
    assert back.reserve["germany"] == {"infantry": 2, "supply": 3} and "sz15" not in back.convoy_supply


@pytest.mark.rule("12")
def test_p12_the_uk_chain_moves_one_leg_per_turn() -> None:
    state = start()
    state = play(state, {"action": "place", "zone": "atlantic_ocean", "unit": "infantry"})
    state = play(state, {"action": "place", "zone": "indian_ocean", "unit": "artillery"})
    state = done(state).model_copy(update={"power": "united_kingdom"})
    state = start_turn(state).state
    assert state.count("indian_ocean", "united_kingdom:infantry") == 1
    assert state.count("suez_canal", "united_kingdom:artillery") == 1


@pytest.mark.rule("12")
def test_p12_an_opposing_player_moves_excess_units_then_the_owner_destroys() -> None:
    state = germany("noncombat_move")
    crowded = {**state.pieces, "sirte": {**state.pieces["sirte"], "germany:infantry": 7}}
    state = done(state.model_copy(update={"pieces": crowded}))
    assert state.phase == "noncombat_move" and seat(state) == "allies"
    assert refusal(state, {"action": "move_excess", "unit": "germany:infantry", "to": "benghazi"}) == ("12", "no-room")
    state = play(state, {"action": "move_excess", "unit": "germany:infantry", "to": "garian"})
    assert state.count("garian", "germany:infantry") == 1
    state = done(state)
    assert seat(state) == "axis" and state.pending[-1].kind == "excess_destroy"
    state = play(state, {"action": "destroy", "unit": "italy:infantry"})
    assert state.phase == "deploy" and not state.pending


@pytest.mark.rule("9")
def test_p9_air_sea_and_trucks_never_exceed_their_pieces() -> None:
    state = germany()
    trucks = state.pack.unit("germany", "truck")
    available = 1  # Rommel's Last Push: one Axis truck each until round 7 (p.28)
    on_board = sum(c.get("germany:truck", 0) for c in state.pieces.values())
    assert trucks.pieces > available and on_board == available
    assert refusal(state, req("truck")) == ("9", "no-pieces-left")
    subs = state.pack.unit("germany", "submarine").pieces - sum(
        c.get("germany:submarine", 0) for c in state.pieces.values()
    )
    for _ in range(subs):
        state = play(state, req("submarine")).model_copy(update={"rp": 99})
    assert refusal(state, req("submarine")) == ("9", "no-pieces-left")


@pytest.mark.rule("29")
def test_p29_axis_land_units_among_vichy_units_only_take_the_territory_over() -> None:
    state = germany("noncombat_move")
    algiers = {**state.pieces["algiers"], "germany:infantry": 1}
    state = state.model_copy(update={"pieces": {**state.pieces, "algiers": algiers}})
    assert refusal(state, {"action": "claim", "territory": "tobruk"}) == ("29", "not-vichy")
    crowded = state.model_copy(update={"pieces": {**state.pieces, "algiers": {**algiers, "italy:infantry": 1}}})
    assert refusal(crowded, {"action": "claim", "territory": "algiers"}) == ("29", "not-only-vichy")
    state = play(state, {"action": "claim", "territory": "algiers"})
    assert state.control["algiers"] == "germany"


def _empty_benghazi() -> AxisState:
    """Germany's combat move with Benghazi empty and a second mechanized infantry in El Agheila."""
    state = germany("combat_move")
    emptied = {**state.pieces, "el_agheila": {**state.pieces["el_agheila"], "germany:mech_infantry": 2}}
    del emptied["benghazi"]
    return state.model_copy(update={"pieces": emptied})


@pytest.mark.rule("15")
@pytest.mark.rule("32")
def test_p15_mechanized_infantry_blitz_only_along_with_a_tank_one_per_tank() -> None:
    state = _empty_benghazi()
    assert refusal(state, mv("mech_infantry", "el_agheila", "derna")) == ("15", "blitz-needs-tank")
    assert refusal(state, mv("mech_infantry", "el_agheila", "benghazi")) == ("15", "blitz-needs-tank")
    state = play(state, mv("tank", "el_agheila", "derna"))
    assert mv("mech_infantry", "el_agheila", "derna") in RULESET.legal_actions(state, "axis")
    state = play(state, mv("mech_infantry", "el_agheila", "derna"))  # along the tank's path, through Benghazi
    assert state.count("derna", "germany:mech_infantry") == 1
    assert state.exhausted == {"derna": {"germany:tank": 1, "germany:mech_infantry": 1}} and not state.obliged
    assert refusal(state, mv("mech_infantry", "el_agheila", "derna")) == ("15", "one-per-tank")


@pytest.mark.rule("15")
def test_p15_a_mechanized_infantry_stopping_with_its_tank_need_not_attack() -> None:
    state = play(_empty_benghazi(), mv("tank", "el_agheila", "benghazi"), mv("mech_infantry", "el_agheila", "benghazi"))
    assert state.count("benghazi", "germany:mech_infantry") == 1 and not state.obliged
    assert refusal(state, mv("mech_infantry", "el_agheila", "benghazi")) == ("15", "one-per-tank")
