"""Mines laid and detonated (pp.14, 26), truck cargo (p.32), Long-Range Patrol (p.31) and the optional rules
(pp.6, 38-39) played through the ruleset, with their refusals."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.errors import PbemError
from pbem.games.axisallies.advantages import land_rp
from pbem.games.axisallies.phases import scenario_of, start_turn
from pbem.games.axisallies.ruleset import RULESET
from pbem.games.axisallies.scenarios import final_result
from pbem.games.axisallies.state import AxisState, Patrol
from pbem.rules.contract import Outcome
from tests.games.axisallies.rules_helpers import done, play, refusal, seat, start


def turn(phase: str = "purchase", power: str = "germany", **options: str) -> AxisState:
    """Rommel's Last Push, round 1, ``power``'s turn at ``phase`` (2 players)."""
    state = done(start(**options))  # the UK places no variable reinforcements
    if power != state.power:
        state = start_turn(state.model_copy(update={"power": power})).state
    order = ["purchase", "combat_move", "declare", "noncombat_move", "deploy"]
    for _ in order[: order.index(phase)]:
        state = done(state)
    assert state.phase == phase
    return state


def with_pieces(state: AxisState, **spaces: dict[str, int]) -> AxisState:
    return state.model_copy(update={"pieces": {**state.pieces, **spaces}})


def mv(unit: str, origin: str, to: str) -> dict[str, str]:
    return {"action": "move", "unit": unit, "origin": origin, "to": to}


def lay(territory: str, facing: str) -> dict[str, str]:
    return {"action": "lay_mine", "territory": territory, "facing": facing}


def roll(state: AxisState, faces: list[int]) -> AxisState:
    return RULESET.resume(state.without_first_roll(), Outcome(dice={"mines": faces})).state


# --- laying mines (p.14) ------------------------------------------------------------------------------------


@pytest.mark.rule("14")
def test_p14_a_land_mine_faces_one_border_of_a_held_territory_once_a_turn_for_1_rp() -> None:
    state = turn()
    rp = state.rp
    state = play(state, lay("el_agheila", "benghazi"))
    assert state.land_mines["el_agheila"] == {"benghazi": (1,)} and state.mines_laid == {"el_agheila": 1}
    assert refusal(state, lay("el_agheila", "jalo")) == ("14", "one-per-territory")
    assert refusal(state, lay("benghazi", "el_agheila")) == ("14", "mine-not-yours")
    assert refusal(state, lay("tripoli", "benghazi")) == ("14", "not-adjacent")
    assert refusal(state, lay("sirte", "garian")) == ("14", "mine-not-yours")  # Italy's, not Germany's
    poor = state.model_copy(update={"rp": 0})
    assert refusal(poor, lay("tripoli", "garian")) == ("13", "over-budget")
    assert rp == state.rp  # the RP are spent with the order, counted against the turn's total
    upgrade = play(state.model_copy(update={"mines_laid": {}}), lay("el_agheila", "benghazi"))
    assert upgrade.land_mines["el_agheila"] == {"benghazi": (2,)}  # the "1 mine" token is flipped, not doubled


@pytest.mark.rule("14")
def test_p14_sea_mines_once_a_zone_a_turn_never_near_enemy_ships_or_where_the_axis_may_not() -> None:
    state = turn()
    sea = {"action": "lay_sea_mine", "zone": "sz15"}
    state = play(state, sea)
    assert state.sea_mines["sz15"] == {"germany": 1}
    assert refusal(state, sea) == ("14", "one-per-zone")
    assert refusal(state, {**sea, "zone": "sz31"}) == ("14", "enemy-ships")
    assert refusal(state, {**sea, "zone": "atlantic_ocean"}) == ("14", "enemy-deployment-zone")
    assert refusal(state, {**sea, "zone": "suez_canal"}) == ("14", "axis-mines-forbidden")
    poor = state.model_copy(update={"rp": 3})  # the first sea mine cost 2 RP of the turn's RP
    assert refusal(poor, {**sea, "zone": "sz17"}) == ("13", "over-budget")


@pytest.mark.rule("39")
def test_p39_mining_the_suez_canal_needs_the_option_and_an_axis_bomber_on_crete() -> None:
    sea = {"action": "lay_sea_mine", "zone": "suez_canal"}
    state = turn(mining_the_suez_canal="on")
    assert refusal(state, sea) == ("14", "axis-mines-forbidden")
    state = play(with_pieces(state, crete={"germany:bomber": 1}), sea)
    assert state.sea_mines["suez_canal"] == {"germany": 1}
    off = with_pieces(turn(), crete={"germany:bomber": 1})
    assert refusal(off, sea) == ("14", "axis-mines-forbidden")


# --- land mines detonated after the declarations (p.26) -----------------------------------------------------


def attack_cairo() -> AxisState:
    """Germany's declarations: 3 infantry and a scout car attack Cairo from Mersa Matruh across the UK's mines
    (a "2 mines" and a "1 mine" token, Rommel's Last Push setup)."""
    state = turn("declare")
    state = with_pieces(state, mersa_matruh={"germany:infantry": 3, "germany:scout_car": 1})
    state = state.model_copy(update={"supply": {**state.supply, "mersa_matruh": 2}})
    commit = {"action": "commit", "origin": "mersa_matruh", "target": "cairo"}
    state = play(state, *({**commit, "unit": u} for u in ("infantry", "infantry", "infantry", "scout_car")))
    state = play(state, {"action": "pay", "origin": "mersa_matruh", "target": "cairo", "source": "mersa_matruh"})
    assert state.land_mines["cairo"] == {"mersa_matruh": (2, 1)}
    return done(state)


@pytest.mark.rule("26")
def test_p26_the_owner_detonates_mines_on_a_crossed_border_and_the_mover_turns_units_back() -> None:
    state = attack_cairo()
    assert seat(state) == "allies" and state.pending[-1].kind == "detonation"
    assert state.patrols == (Patrol(space="mersa_matruh", unit="germany:scout_car", used=1, count=1, attacked=True),)
    assert refusal(state, {"action": "detonate", "icons": 4}) == ("26", "too-many-mines")
    state = play(state, {"action": "detonate", "icons": 3})
    assert state.rolls is not None and state.rolls.rolls[0].n == 9  # 3 dice an icon
    state = roll(state, [1, 2, 3, 4, 5, 6, 7, 8, 9])
    assert "cairo" not in state.land_mines and seat(state) == "axis"
    assert refusal(state, {"action": "turn_back", "unit": "tank"}) == ("26", "not-crossing")
    state = play(state, *({"action": "turn_back", "unit": u} for u in ("scout_car", "infantry", "infantry")))
    assert state.attacks[0].units == {"infantry": 1} and state.phase == "combat" and not state.pending
    assert state.patrols == ()  # the scout car turned back loses its Long-Range Patrol (p.31)


@pytest.mark.rule("26")
def test_p26_every_unit_turned_back_withdraws_the_attack_and_declining_keeps_the_mines() -> None:
    state = play(attack_cairo(), {"action": "detonate", "icons": 2})
    assert state.land_mines["cairo"] == {"mersa_matruh": (2, 1)}  # the icons leave once the dice are rolled
    state = roll(state, [1, 1, 1, 1, 9, 9])
    assert state.land_mines["cairo"] == {"mersa_matruh": (1,)}
    state = play(state, *({"action": "turn_back", "unit": u} for u in ("infantry",) * 3 + ("scout_car",)))
    assert not state.attacks and state.phase == "noncombat_move"
    kept = done(attack_cairo())
    assert kept.land_mines["cairo"] == {"mersa_matruh": (2, 1)} and kept.phase == "combat" and not kept.pending


# --- trucks (p.32) -----------------------------------------------------------------------------------------------


def load(origin: str, cargo: str) -> dict[str, str]:
    return {"action": "load", "origin": origin, "cargo": cargo}


@pytest.mark.rule("32")
def test_p32_a_truck_carries_units_of_its_power_and_supply_which_then_move_no_more() -> None:
    state = turn("noncombat_move")
    assert refusal(state, load("el_agheila", "tank")) == ("32", "not-cargo")
    assert refusal(state, load("sicily", "infantry")) == ("32", "no-truck")  # no truck there nor reaching it
    state = play(state, load("el_agheila", "infantry"), load("el_agheila", "supply"), load("el_agheila", "supply"))
    assert refusal(state, mv("infantry", "el_agheila", "sirte")) == ("24", "no-unit-to-move")  # loaded
    assert refusal(state, load("el_agheila", "infantry")) == ("32", "cargo-missing")
    supply = state.supply["el_agheila"]
    state = play(state, mv("truck", "el_agheila", "sirte"))
    assert state.count("sirte", "germany:infantry") == 1 and state.count("sirte", "germany:truck") == 1
    assert state.supply["sirte"] == 1 + 2 and state.supply["el_agheila"] == supply - 2 and not state.loads
    assert refusal(state, mv("infantry", "sirte", "tripoli")) == ("24", "no-unit-to-move")


@pytest.mark.rule("32")
def test_p32_a_truck_carries_six_at_most() -> None:
    state = turn("noncombat_move")
    state = state.model_copy(update={"supply": {**state.supply, "el_agheila": 9}})
    state = play(state, *(load("el_agheila", "supply") for _ in range(6)))
    assert refusal(state, load("el_agheila", "supply")) == ("32", "over-capacity")


# --- Long-Range Patrol (p.31) ------------------------------------------------------------------------------------


@pytest.mark.rule("31")
def test_p31_an_attacking_scout_car_moves_the_rest_of_its_move_after_combat() -> None:
    state = turn("combat_move")
    state = play(state, mv("scout_car", "el_agheila", "mechili"))
    state = done(state)
    state = play(state, {"action": "commit", "unit": "scout_car", "origin": "mechili", "target": "benghazi"})
    state = done(state)
    assert state.patrols == (Patrol(space="mechili", unit="germany:scout_car", used=2, count=1, attacked=True),)
    without_jalo = {s: c for s, c in state.pieces.items() if s != "jalo"}  # no hostile way round
    after = state.model_copy(
        update={
            "phase": "noncombat_move",
            "attacks": (),
            "pieces": {**without_jalo, "el_agheila": {"germany:scout_car": 1}},
            "spent": {"el_agheila": {"germany:scout_car": 1}},
            "patrols": (Patrol(space="el_agheila", unit="germany:scout_car", used=3, count=1, attacked=True),),
        }
    )
    assert refusal(after, mv("scout_car", "el_agheila", "garian")) == ("24", "too-far")  # 2 steps off the road
    state = play(after, mv("scout_car", "el_agheila", "sirte"))
    assert state.count("sirte", "germany:scout_car") == 1 and state.patrols == ()
    assert refusal(after.model_copy(update={"patrols": ()}), mv("scout_car", "el_agheila", "sirte")) == (
        "24",
        "no-unit-to-move",
    )


# --- optional rules (pp.6, 38-39) ---------------------------------------------------------------------------


@pytest.mark.rule("39")
def test_p39_anzac_reinforcements_one_uk_infantry_a_turn_to_the_indian_ocean() -> None:
    def uk_deploying(**options: str) -> AxisState:
        state = turn("purchase", "united_kingdom", **options)
        state = play(
            state, {"action": "requisition", "unit": "infantry"}, {"action": "requisition", "unit": "infantry"}
        )
        for _ in range(4):
            state = done(state)
        assert state.phase == "deploy"
        return state

    to_india: dict[str, Any] = {"action": "deploy", "unit": "infantry", "to": "indian_ocean"}
    assert refusal(uk_deploying(), to_india) == ("25", "convoy-not-open")
    state = play(uk_deploying(anzac_reinforcements="on"), to_india)
    assert state.count("indian_ocean", "united_kingdom:infantry") == 1 and state.anzac == 1
    assert refusal(state, to_india) == ("25", "convoy-not-open")


@pytest.mark.rule("38")
def test_p38_air_transport_an_axis_bomber_in_italy_carries_one_unit_of_its_power() -> None:
    fly: dict[str, Any] = {"action": "airlift", "unit": "bomber", "cargo": "infantry", "to": "tripoli"}
    assert refusal(turn("noncombat_move", "italy"), fly) == ("38", "optional-rule-off")
    state = turn("noncombat_move", "italy", air_transport="on")
    assert refusal(state, {**fly, "cargo": "tank"}) == ("38", "cargo-missing")
    state = play(state, fly)
    assert state.count("tripoli", "italy:bomber") == 1 and state.count("italy", "italy:infantry") == 1
    assert state.count("tripoli", "italy:infantry") == 2 + 1
    assert refusal(state, fly) == ("38", "no-unit-to-move")


@pytest.mark.rule("6")
def test_p6_the_draw_tie_break_counts_the_rp_of_land_units_in_territories() -> None:
    state = turn()
    control = {t: p for t, p in state.control.items() if t not in ("tripoli", "algiers")}  # no victory level
    drawn = state.model_copy(update={"control": control})
    assert final_result(drawn.pack, scenario_of(drawn), drawn) == ("draw", "no victory level")
    broken = drawn.model_copy(update={"options": {**drawn.options, "draw_tie_break": "on"}})
    axis, allies = land_rp(broken, "axis"), land_rp(broken, "allies")
    assert axis != allies
    winner, outcome = final_result(broken.pack, scenario_of(broken), broken)
    assert winner == ("axis" if axis > allies else "allies") and "tie-break" in outcome


@pytest.mark.rule("38")
def test_p38_optional_rules_are_named_genesis_options_off_by_default() -> None:
    options = {o.id: o for o in RULESET.options}
    for rule in RULESET.load_data(RULESET.default_data()).optional_rules:
        assert rule.id in options, rule.id
        assert options[rule.id].default in ("off", "none")


# --- Free French (p.29) ------------------------------------------------------------------------------------------


def us_turn(**options: str) -> AxisState:
    """Operation Torch, round 7, the US turn's phase 2, with Oran won (its Vichy French gone over to the Allies:
    2 Free French infantry there)."""
    state = done(start("operation_torch-4p", **options))
    while state.power != "united_states":
        state = done(state) if not state.pending else play(state, RULESET.legal_actions(state, seat(state))[0])
    pieces = {**state.pieces, "oran": {"france:infantry": 2}}
    control = {**state.control, "oran": "united_states"}
    attacks = tuple(g for g in state.attacks if g.target != "oran")
    french = {**state.french, "oran": "allies"}
    return state.model_copy(update={"pieces": pieces, "control": control, "attacks": attacks, "french": french})


def req(unit: str) -> dict[str, str]:
    return {"action": "requisition", "unit": unit}


@pytest.mark.rule("29")
def test_p29_the_us_requisitions_one_free_french_unit_of_each_type_a_turn_placed_in_oran() -> None:
    state = us_turn()
    assert req("france:infantry") in RULESET.legal_actions(state, seat(state))
    state = play(state, req("france:infantry"), req("france:tank"))
    assert state.count("oran", "france:infantry") == 3 and state.count("oran", "france:tank") == 1
    assert refusal(state, req("france:infantry")) == ("29", "over-turn-limit")
    assert refusal(state, req("france:truck")) == ("13", "not-on-chart")
    lost = us_turn().model_copy(update={"control": {**us_turn().control, "oran": "italy"}})
    assert refusal(lost, req("france:tank")) == ("29", "port-not-controlled")
    assert refusal(turn(), req("france:infantry")) == ("13", "not-on-chart")  # not Germany's


@pytest.mark.rule("29")
def test_p29_free_french_move_and_attack_as_us_units_vichy_french_never() -> None:
    state = done(us_turn())  # the combat move
    assert refusal(state, mv("germany:tank", "el_agheila", "sirte")) == ("29", "not-operated")
    assert refusal(state, mv("france:infantry", "algiers", "orleansville")) == ("29", "not-operated")  # Vichy
    enemy = with_pieces(state, sidi_bel_abbes={"germany:infantry": 1})
    declare = done(enemy.model_copy(update={"supply": {**enemy.supply, "oran": 2}}))
    commit = {"action": "commit", "unit": "france:infantry", "origin": "oran", "target": "sidi_bel_abbes"}
    declare = play(declare, commit, {"action": "pay", "origin": "oran", "target": "sidi_bel_abbes", "source": "oran"})
    assert any(g.units == {"france:infantry": 1} and g.power == "united_states" for g in declare.attacks)
    calm = done(done(done(us_turn().model_copy(update={"attacks": ()}))))  # no landing left to fight
    assert calm.phase == "noncombat_move"
    moving = play(calm, mv("france:infantry", "oran", "oujda"))
    assert moving.count("oujda", "france:infantry") == 1 and moving.french["oujda"] == "allies"


# --- RP bidding (p.38) -------------------------------------------------------------------------------------------


@pytest.mark.rule("38")
def test_p38_an_accepted_bid_adds_to_the_sides_first_round_given_out_by_its_seat() -> None:
    state = start("rommels_last_push-2p", rp_bidding="axis:3")
    assert state.phase == "allot" and seat(state) == "axis"
    assert refusal(state, {"action": "allot", "power": "united_kingdom"}) == ("38", "not-a-sharer")
    plain = done(start())
    state = play(state, *({"action": "allot", "power": p} for p in ("germany", "italy", "germany")))
    assert state.phase == "setup" and state.bonus == {"germany": 2, "italy": 1}
    state = done(state)
    assert state.power == "germany" and state.rp == plain.rp + 2
    later = done(done(done(done(done(state)))))  # Germany's turn ends: its share is spent
    assert later.power == "united_kingdom" and later.bonus == {"italy": 1}
    uk = start("rommels_last_push-2p", rp_bidding="allies:4")  # the US has no turn in round 1: all to the UK
    assert uk.phase == "setup" and uk.bonus == {"united_kingdom": 4}


@pytest.mark.rule("38")
def test_p38_a_malformed_bid_is_refused_at_setup() -> None:
    for value in ("axis", "axis:0", "neutral:3", "allies:x"):
        with pytest.raises(PbemError) as caught:
            start("rommels_last_push-2p", rp_bidding=value)
        assert caught.value.code.id == "R007"


# --- Strategic Supply Reserve (p.39) -------------------------------------------------------------------------


@pytest.mark.rule("39")
def test_p39_the_strategic_reserve_pays_for_air_attacks_from_the_staging_territory() -> None:
    plain = turn("combat_move")
    state = turn("combat_move", strategic_supply_reserve="on")
    reserve = state.pack.scenario("rommels_last_push").strategic_supply_reserve
    assert state.supply.get("italy", 0) == plain.supply.get("italy", 0) + reserve["axis"]
    assert state.supply.get("gibraltar", 0) == plain.supply.get("gibraltar", 0) + reserve["allies"]
    sortie = next(a for a in RULESET.legal_actions(state, "axis") if a.get("unit") == "fighter")
    broke = state.model_copy(update={"supply": {t: n for t, n in state.supply.items() if t != "italy"}})
    assert refusal(broke, sortie) == ("39", "reserve-short")
    before = state.supply["italy"]
    state = done(done(play(state, sortie)))  # the declarations end: 1 token for up to 5 air units
    assert state.supply["italy"] == before - 1


@pytest.mark.rule("39")
def test_p39_with_the_reserve_the_us_may_deploy_supply_to_gibraltar() -> None:
    def deploying(**options: str) -> AxisState:
        state = play(us_turn(**options).model_copy(update={"attacks": ()}), req("supply"))  # no landing to fight
        return done(done(done(done(state))))

    to_gibraltar = {"action": "deploy", "unit": "supply", "to": "gibraltar"}
    assert refusal(deploying(), to_gibraltar) == ("25", "not-a-deployment-space")
    state = play(deploying(strategic_supply_reserve="on"), to_gibraltar)
    assert state.supply["gibraltar"] >= 1


# --- Reinforcing Land Attacks (p.38) ----------------------------------------------------------------------------


def pressing(**options: str) -> AxisState:
    """Germany's tank attack from El Agheila on Benghazi after a round of misses, waiting to press or cease."""
    state = done(done(done(start(**options))))
    state = play(state, {"action": "commit", "unit": "tank", "origin": "el_agheila", "target": "benghazi"})
    state = play(state, {"action": "pay", "origin": "el_agheila", "target": "benghazi", "source": "el_agheila"})
    state = play(done(state), {"action": "fight", "target": "benghazi"})
    state = play(state, {"action": "order", "fight": True, "exempt_stay": False, "source": "benghazi"})
    for _ in range(2):
        request = state.rolls
        assert request is not None
        dice = {s.id: (10,) * s.n for s in request.rolls}
        state = RULESET.resume(state.without_first_roll(), Outcome(dice=dice)).state
    assert state.pending[-1].kind == "press_or_cease"
    return state


@pytest.mark.rule("38")
def test_p38_reinforcing_land_attacks_fresh_adjacent_land_units_join_before_paying() -> None:
    join = {"action": "reinforce", "origin": "el_agheila", "unit": "infantry"}
    assert refusal(pressing(), join) == ("38", "optional-rule-off")
    state = pressing(reinforcing_land_attacks="on")
    assert refusal(state, {**join, "unit": "scout_car"}) == ("38", "scouts-cannot-reinforce")
    assert refusal(state, {**join, "origin": "tripoli"}) == ("38", "not-adjacent")
    assert refusal(state, {**join, "origin": "mechili"}) == ("38", "no-fresh-unit")
    state = play(state, join)
    assert state.battle is not None and state.battle.land["el_agheila"]["germany:infantry"] == 1
    assert state.spent["el_agheila"]["germany:infantry"] == 1
    assert refusal(state, join) == ("38", "no-fresh-unit")  # El Agheila's only infantry joined
    state = play(state, {"action": "press_pay", "origin": "el_agheila", "source": "el_agheila"})
    assert refusal(state, {**join, "unit": "tank"}) == ("23", "turn-aside-first")


# --- sea mines on deployed convoys (p.27) -------------------------------------------------------------------


@pytest.mark.rule("27")
def test_p27_sea_mines_hit_the_cargo_just_deployed_two_pieces_a_hit() -> None:
    state = turn()
    state = play(state, *(req(u) for u in ("infantry", "infantry", "supply", "supply", "supply", "supply", "supply")))
    state = done(done(done(done(state))))
    assert state.phase == "deploy"
    state = state.model_copy(update={"sea_mines": {"sz15": {"united_kingdom": 2}}})
    state = play(state, *({"action": "deploy", "unit": u, "to": "sz15"} for u in ["infantry"] * 2 + ["supply"] * 5))
    state = done(state)
    assert seat(state) == "allies" and state.pending[-1].kind == "sea_detonation"
    assert refusal(state, {"action": "detonate", "icons": 3}) == ("27", "too-many-mines")
    state = play(state, {"action": "detonate", "icons": 2})
    assert state.sea_mines == {} and state.rolls is not None and state.rolls.rolls[0].n == 2  # 1 die a token
    state = RULESET.resume(state.without_first_roll(), Outcome(dice={"sea_mines": (3, 4)})).state
    assert seat(state) == "axis" and state.pending[-1].kind == "sea_mine_loss"
    assert refusal(state, {"action": "mine_name", "unit": "supply"}) == ("27", "not-naming")
    state = play(state, {"action": "mine_loss", "unit": "germany:infantry"})
    assert seat(state) == "allies"  # the mine's owner names the second loss
    state = play(state, {"action": "mine_name", "unit": "supply"})
    assert refusal(state, {"action": "mine_loss", "unit": "germany:infantry"}) == ("27", "bad-cargo-loss")
    state = play(state, {"action": "mine_loss", "unit": "supply"})
    assert state.power == "united_kingdom" and not state.pending
    assert state.count("sz15", "germany:infantry") == 1 and "germany" not in state.convoy_supply.get("sz15", {})


@pytest.mark.rule("27")
def test_p27_own_sides_mines_and_declined_ones_leave_the_convoy_alone() -> None:
    state = play(turn(), req("infantry"))
    state = done(done(done(done(state))))
    state = state.model_copy(update={"sea_mines": {"sz15": {"italy": 1, "united_kingdom": 1}}})
    state = done(play(state, {"action": "deploy", "unit": "infantry", "to": "sz15"}))
    assert seat(state) == "allies"  # only the enemy's token is offered
    state = done(state)
    assert state.power == "united_kingdom" and state.sea_mines["sz15"] == {"italy": 1, "united_kingdom": 1}
    assert state.count("sz15", "germany:infantry") == 1


# --- a blitz across a mined border (p.26) ------------------------------------------------------------------


def mined_benghazi() -> AxisState:
    """Germany's combat move with Benghazi British but empty, its border with El Agheila mined ("2 mines")."""
    state = turn("combat_move")
    pieces = {s: c for s, c in state.pieces.items() if s != "benghazi"}
    return state.model_copy(update={"pieces": pieces, "land_mines": {"benghazi": {"el_agheila": (2,)}}})


@pytest.mark.rule("26")
def test_p26_a_blitzer_crossing_a_mined_border_waits_for_the_owner_then_takes_the_territory() -> None:
    state = play(mined_benghazi(), mv("tank", "el_agheila", "derna"))
    assert seat(state) == "allies" and state.pending[-1].kind == "detonation"
    assert state.count("benghazi", "germany:tank") == 1 and state.control["benghazi"] == "united_kingdom"
    state = done(state)  # no detonation: the blitz goes on
    assert state.count("derna", "germany:tank") == 1 and state.control["benghazi"] == "germany"
    assert state.exhausted == {"derna": {"germany:tank": 1}} and state.land_mines["benghazi"] == {"el_agheila": (2,)}


@pytest.mark.rule("26")
@pytest.mark.rule("30")
def test_p26_a_blitzer_turned_back_goes_home_and_its_mechanized_infantry_may_still_go() -> None:
    state = play(mined_benghazi(), mv("tank", "el_agheila", "derna"), {"action": "detonate", "icons": 2})
    state = roll(state, [3, 9, 9, 9, 9, 9])
    assert state.count("el_agheila", "germany:tank") == 2 and state.control["benghazi"] == "united_kingdom"
    assert state.exhausted == {"el_agheila": {"germany:tank": 1}} and "benghazi" not in state.land_mines
    state = play(state, mv("mech_infantry", "el_agheila", "derna"))  # along the tank's route (p.30)
    assert state.count("derna", "germany:mech_infantry") == 1 and state.control["benghazi"] == "germany"


@pytest.mark.rule("26")
def test_p26_mines_owned_jointly_on_a_tie_ask_each_owner_and_detonate_the_fewest() -> None:
    state = done(start("rommels_last_push-4p"))
    state = start_turn(state.model_copy(update={"power": "united_kingdom"})).state
    state = done(done(state))
    assert state.phase == "declare"
    state = with_pieces(state, mersa_matruh={"germany:infantry": 1, "italy:infantry": 1})
    state = state.model_copy(update={"land_mines": {"mersa_matruh": {"cairo": (2,)}}})
    state = play(state, {"action": "commit", "unit": "infantry", "origin": "cairo", "target": "mersa_matruh"})
    state = done(play(state, {"action": "pay", "origin": "cairo", "target": "mersa_matruh", "source": "cairo"}))
    assert seat(state) == state.seat_of("germany")
    state = play(state, {"action": "detonate", "icons": 2})
    assert seat(state) == state.seat_of("italy")  # the other owner of the tie is asked too
    state = play(state, {"action": "detonate", "icons": 1})
    assert state.rolls is not None and state.rolls.rolls[0].n == 3  # the fewer wished: 1 icon, 3 dice


@pytest.mark.rule("29")
def test_p29_a_power_names_its_own_pieces_by_type_only() -> None:
    assert refusal(turn("combat_move"), mv("germany:tank", "el_agheila", "mechili")) == ("8", "unknown-unit")
    assert refusal(turn(), req("germany:infantry")) == ("13", "not-on-chart")
