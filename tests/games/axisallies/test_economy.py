"""Income, requisition, convoys and deployment (pages 9-14, 25, 28-29), named by page.

The rulebook has no numbered sections; its pages serve as sections, so ``@pytest.mark.rule("13")`` is page 13.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.games.axisallies.data import AxisAlliesPack, Scenario
from pbem.games.axisallies.economy import (
    Order,
    check_deployment,
    check_land_mine,
    check_requisition,
    check_sea_mine,
    check_upkeep,
    check_variable_reinforcements,
    convoy_arrival,
    convoy_legs,
    convoy_next,
    convoy_open,
    exposed_convoys,
    immediate_deployment,
    income,
    pieces_available,
    transports,
)
from pbem.games.axisallies.position import Position, initial_position


@pytest.fixture(scope="module")
def rlp(pack: AxisAlliesPack) -> Scenario:
    return pack.scenario("rommels_last_push")


@pytest.fixture(scope="module")
def torch(pack: AxisAlliesPack) -> Scenario:
    return pack.scenario("operation_torch")


@pytest.fixture(scope="module")
def start(pack: AxisAlliesPack, rlp: Scenario) -> Position:
    return initial_position(pack, rlp)


def nbrp(pack: AxisAlliesPack, power: str) -> int:
    value = pack.power(power).nbrp
    assert value is not None
    return value


def rp(pack: AxisAlliesPack, territory: str) -> int:
    value = pack.territory(territory).rp
    assert value is not None
    return value


# --- p.13: income ---------------------------------------------------------------------------------------------


@pytest.mark.rule("13")
def test_p13_income_is_national_basic_rp_plus_controlled_territories(pack: AxisAlliesPack, start: Position) -> None:
    germany = income(pack, start, "germany", upkeep_paid=False)
    assert germany.value == nbrp(pack, "germany") + rp(pack, "el_agheila")
    assert germany.terms[0].label == "national basic RP"
    italy = income(pack, start, "italy", upkeep_paid=False)
    assert italy.value == nbrp(pack, "italy") + rp(pack, "tripoli")


@pytest.mark.rule("13")
def test_p13_malta_yields_its_rp_only_with_its_supply_upkeep(pack: AxisAlliesPack, start: Position) -> None:
    base = nbrp(pack, "united_kingdom") + sum(rp(pack, t) for t in ("benghazi", "tobruk", "cairo"))
    assert income(pack, start, "united_kingdom", upkeep_paid=False).value == base
    assert income(pack, start, "united_kingdom", upkeep_paid=True).value == base + rp(pack, "malta") == base + 15
    assert check_upkeep(pack, start, "united_kingdom", "malta").ok


@pytest.mark.rule("13")
def test_p13_malta_upkeep_refused_without_supply_there(pack: AxisAlliesPack, start: Position) -> None:
    dry = replace(start, supply={**start.supply, "malta": 0})
    verdict = check_upkeep(pack, dry, "united_kingdom", "malta")
    assert (verdict.ok, verdict.rule, verdict.reason) == (False, "13", "upkeep-supply-missing")
    assert check_upkeep(pack, start, "germany", "malta").reason == "not-controlled"
    assert check_upkeep(pack, start, "united_kingdom", "cairo").reason == "no-upkeep"


@pytest.mark.rule("10")
def test_p10_control_changes_income_only_through_markers(pack: AxisAlliesPack, start: Position) -> None:
    """p.10: control stays without units and moves only with the marker."""
    empty = replace(start, pieces={})
    assert (
        income(pack, empty, "germany", upkeep_paid=False).value
        == income(pack, start, "germany", upkeep_paid=False).value
    )
    captured = replace(start, control={**start.control, "tobruk": "germany"})
    assert income(pack, captured, "germany", upkeep_paid=False).value == nbrp(pack, "germany") + rp(
        pack, "el_agheila"
    ) + rp(pack, "tobruk")


# --- p.11-12: convoy routes -----------------------------------------------------------------------------------


@pytest.mark.rule("11")
def test_p11_convoy_open_while_a_depicted_power_holds_the_port(pack: AxisAlliesPack, start: Position) -> None:
    assert convoy_open(pack, start, "sz15", "germany") and convoy_open(pack, start, "sz15", "italy")
    assert not convoy_open(pack, start, "sz15", "united_kingdom")
    assert not convoy_open(pack, start, "sz20", "germany")  # Benghazi is British at the start
    taken = replace(start, control={**start.control, "benghazi": "italy"})
    assert convoy_open(pack, taken, "sz20", "germany")
    assert not convoy_open(pack, start, "sz2", "united_states")  # Casablanca is Vichy
    assert convoy_open(pack, start, "atlantic_ocean", "united_kingdom")  # permanent emblem
    assert convoy_open(pack, start, "sz12", "united_kingdom")
    assert not convoy_open(pack, start, "sz1", "germany")  # not a convoy zone


@pytest.mark.rule("12")
def test_p12_convoy_arrival_fills_the_port_to_its_stacking_limit(pack: AxisAlliesPack, start: Position) -> None:
    tripoli = pack.territory("tripoli")
    arrival = convoy_arrival(pack, start, "sz15", "germany", supply=4)
    present = 1 + 1 + 1 + 2  # German mech, fighter, bomber; Italian infantry (the truck does not count)
    assert (arrival.closed, arrival.combat_room, arrival.supply_landed) == (False, tripoli.stacking_limit - present, 4)


@pytest.mark.rule("12")
def test_p12_malta_supply_limit_keeps_the_excess_at_sea(pack: AxisAlliesPack, start: Position) -> None:
    limit = pack.territory("malta").supply_limit
    assert limit == 3
    assert convoy_arrival(pack, start, "sz12", "united_kingdom", supply=5).supply_landed == limit - start.supply_in(
        "malta"
    )
    spent = replace(start, supply={**start.supply, "malta": 1})
    assert convoy_arrival(pack, spent, "sz12", "united_kingdom", supply=5).supply_landed == 2


@pytest.mark.rule("12")
def test_p12_convoy_to_a_captured_port_goes_back(pack: AxisAlliesPack, start: Position) -> None:
    lost = replace(start, control={**start.control, "tripoli": "united_kingdom"})
    arrival = convoy_arrival(pack, lost, "sz15", "italy", supply=3)
    assert (arrival.closed, arrival.combat_room, arrival.supply_landed) == (True, 0, 0)


# --- p.9, 13, 28-29: requisition ------------------------------------------------------------------------------


def order_cost(pack: AxisAlliesPack, power: str, units: dict[str, int]) -> int:
    return sum((pack.unit(power, t).cost or 0) * n for t, n in units.items())


@pytest.mark.rule("13")
def test_p13_requisition_within_budget(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    units = {"tank": 2, "infantry": 3}
    cost = order_cost(pack, "germany", units) + 5
    order = Order(units={("germany", t): n for t, n in units.items()}, supply=5)
    assert check_requisition(pack, rlp, start, "germany", order, cost, in_play={}, supply_in_play=0).ok
    over = check_requisition(pack, rlp, start, "germany", order, cost - 1, in_play={}, supply_in_play=0)
    assert (over.ok, over.rule, over.reason) == (False, "13", "over-budget")


@pytest.mark.rule("13")
def test_p13_supply_cap_five_us_ten(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    uk_cap = pack.power("united_kingdom").supply_per_turn
    us_cap = pack.power("united_states").supply_per_turn
    assert (uk_cap, us_cap) == (5, 10)
    late = replace(start, round=8)
    refused = check_requisition(pack, rlp, late, "united_kingdom", Order(supply=6), 99, in_play={}, supply_in_play=0)
    assert (refused.rule, refused.reason) == ("13", "supply-cap")
    assert check_requisition(pack, rlp, late, "united_states", Order(supply=10), 99, in_play={}, supply_in_play=0).ok


@pytest.mark.rule("13")
def test_p13_uk_may_never_requisition_shermans(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    order = Order(units={("united_kingdom", "lend_lease_sherman"): 1})
    verdict = check_requisition(pack, rlp, start, "united_kingdom", order, 99, in_play={}, supply_in_play=0)
    assert (verdict.rule, verdict.reason) == ("13", "not-requisitionable")


@pytest.mark.rule("13")
def test_p13_only_units_of_the_power_chart(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    for order in (Order(units={("germany", "destroyer"): 1}), Order(units={("italy", "tank"): 1})):
        verdict = check_requisition(pack, rlp, start, "germany", order, 99, in_play={}, supply_in_play=0)
        assert (verdict.rule, verdict.reason) == ("13", "not-on-chart")


@pytest.mark.rule("28")
def test_p28_us_cannot_requisition_air_units_in_round_7(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    order = Order(units={("united_states", "fighter"): 1})
    r7 = check_requisition(pack, rlp, replace(start, round=7), "united_states", order, 99, in_play={}, supply_in_play=0)
    assert (r7.rule, r7.reason) == ("28", "barred-this-round")
    r8 = check_requisition(pack, rlp, replace(start, round=8), "united_states", order, 99, in_play={}, supply_in_play=0)
    assert r8.ok


@pytest.mark.rule("9")
def test_p9_component_limits_for_air_and_trucks(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    fighters = pack.unit("germany", "fighter").pieces
    order = Order(units={("germany", "fighter"): 1})
    full = {("germany", "fighter"): fighters}
    verdict = check_requisition(pack, rlp, start, "germany", order, 99, in_play=full, supply_in_play=0)
    assert (verdict.rule, verdict.reason) == ("9", "no-pieces-left")
    tokens = sum(t.pieces["all"] * t.value for t in pack.tokens if t.id.startswith("supply_"))
    short = check_requisition(pack, rlp, start, "germany", Order(supply=1), 99, in_play={}, supply_in_play=tokens)
    assert (short.rule, short.reason) == ("9", "no-tokens-left")


@pytest.mark.rule("28")
def test_p28_rlp_axis_second_truck_from_round_7(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    truck = pack.unit("germany", "truck")
    assert pieces_available(pack, rlp, 1, truck) == truck.pieces - 1
    assert pieces_available(pack, rlp, 7, truck) == truck.pieces
    order = Order(units={("germany", "truck"): 1})
    in_play = {("germany", "truck"): 1}
    early = check_requisition(pack, rlp, start, "germany", order, 99, in_play=in_play, supply_in_play=0)
    assert early.reason == "no-pieces-left"
    late = replace(start, round=7)
    assert check_requisition(pack, rlp, late, "germany", order, 99, in_play=in_play, supply_in_play=0).ok


@pytest.mark.rule("29")
def test_p29_free_french_need_allied_oran_and_one_per_type(
    pack: AxisAlliesPack, torch: Scenario, start: Position
) -> None:
    order = Order(units={("france", "infantry"): 1, ("france", "tank"): 1})
    vichy = replace(start, round=8)
    refused = check_requisition(pack, torch, vichy, "united_states", order, 99, in_play={}, supply_in_play=0)
    assert (refused.rule, refused.reason) == ("29", "port-not-controlled")
    freed = replace(vichy, control={**vichy.control, "oran": "united_states"})
    assert check_requisition(pack, torch, freed, "united_states", order, 99, in_play={}, supply_in_play=0).ok
    two = Order(units={("france", "infantry"): 2})
    assert check_requisition(pack, torch, freed, "united_states", two, 99, in_play={}, supply_in_play=0).reason == (
        "over-turn-limit"
    )
    assert (
        check_requisition(pack, torch, freed, "germany", order, 99, in_play={}, supply_in_play=0).reason
        == "not-on-chart"
    )


@pytest.mark.rule("38")
def test_p38_tiger_tank_only_with_its_optional_rule(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    order = Order(units={("germany", "tiger_tank"): 1})
    late = replace(start, round=8)
    off = check_requisition(pack, rlp, late, "germany", order, 99, in_play={}, supply_in_play=0)
    assert (off.rule, off.reason) == ("38", "optional-unit")
    on = frozenset({"tiger_tanks"})
    assert check_requisition(pack, rlp, late, "germany", order, 99, in_play={}, supply_in_play=0, options=on).ok
    early = check_requisition(pack, rlp, start, "germany", order, 99, in_play={}, supply_in_play=0, options=on)
    assert early.reason == "too-early"


@pytest.mark.rule("14")
def test_p14_mines_cost_their_rp(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    order = Order(land_mines=2, sea_mines=1)
    assert check_requisition(pack, rlp, start, "germany", order, 4, in_play={}, supply_in_play=0).ok
    assert check_requisition(pack, rlp, start, "germany", order, 3, in_play={}, supply_in_play=0).reason == (
        "over-budget"
    )


# --- p.25, 28: deployment -------------------------------------------------------------------------------------


@pytest.mark.rule("25")
def test_p25_land_air_and_supply_go_to_staging_or_open_convoys(
    pack: AxisAlliesPack, rlp: Scenario, start: Position
) -> None:
    tank = pack.unit("germany", "tank")
    assert check_deployment(pack, rlp, start, "germany", tank, "italy").ok
    assert check_deployment(pack, rlp, start, "germany", tank, "sz15").ok
    assert check_deployment(pack, rlp, start, "germany", None, "sz15").ok
    closed = check_deployment(pack, rlp, start, "germany", tank, "sz20")
    assert (closed.rule, closed.reason) == ("25", "convoy-not-open")
    elsewhere = check_deployment(pack, rlp, start, "germany", tank, "el_agheila")
    assert (elsewhere.rule, elsewhere.reason) == ("25", "not-a-deployment-space")


@pytest.mark.rule("25")
def test_p25_sea_units_to_the_deployment_zone(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    destroyer = pack.unit("united_kingdom", "destroyer")
    assert check_deployment(pack, rlp, start, "united_kingdom", destroyer, "sz4").ok
    assert check_deployment(pack, rlp, start, "united_kingdom", destroyer, "atlantic_ocean").ok
    wrong = check_deployment(pack, rlp, start, "united_kingdom", destroyer, "sz31")
    assert (wrong.rule, wrong.reason) == ("25", "not-deployment-zone")


@pytest.mark.rule("25")
def test_p25_uk_restrictions_malta_and_the_chain(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    infantry = pack.unit("united_kingdom", "infantry")
    aaa = pack.unit("united_kingdom", "aaa")
    assert check_deployment(pack, rlp, start, "united_kingdom", aaa, "sz12").ok
    assert check_deployment(pack, rlp, start, "united_kingdom", infantry, "sz12").reason == "convoy-type-barred"
    assert check_deployment(pack, rlp, start, "united_kingdom", infantry, "atlantic_ocean").ok
    for leg in ("indian_ocean", "suez_canal"):
        assert check_deployment(pack, rlp, start, "united_kingdom", infantry, leg).reason == "convoy-not-open"
    assert check_deployment(pack, rlp, start, "united_kingdom", infantry, "gibraltar").ok


@pytest.mark.rule("25")
def test_p25_axis_islands_take_air_and_air_defense_only(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    assert check_deployment(pack, rlp, start, "germany", pack.unit("germany", "fighter"), "sicily").ok
    assert check_deployment(pack, rlp, start, "germany", pack.unit("germany", "anti_tank_gun"), "crete").ok
    assert check_deployment(pack, rlp, start, "italy", pack.unit("italy", "aaa"), "sardinia").ok
    refused = check_deployment(pack, rlp, start, "italy", pack.unit("italy", "infantry"), "sicily")
    assert refused.reason == "not-a-deployment-space"


@pytest.mark.rule("28")
def test_p28_us_round_7_must_deploy_to_casablanca(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    held = replace(start, round=7, control={**start.control, "casablanca": "united_states", "oran": "united_states"})
    infantry = pack.unit("united_states", "infantry")
    refused = check_deployment(pack, rlp, held, "united_states", infantry, "sz6")
    assert (refused.rule, refused.reason) == ("28", "must-deploy-elsewhere")
    assert check_deployment(pack, rlp, held, "united_states", infantry, "sz2").ok
    lifted = frozenset({"us_casablanca_round_7"})
    assert check_deployment(pack, rlp, held, "united_states", infantry, "sz6", lifted=lifted).ok
    assert check_deployment(pack, rlp, replace(held, round=8), "united_states", infantry, "sz6").ok


@pytest.mark.rule("28")
def test_p28_torch_italy_deploys_only_to_tripoli_in_round_7(
    pack: AxisAlliesPack, torch: Scenario, start: Position
) -> None:
    board = replace(start, round=7, control={**start.control, "benghazi": "italy"})
    infantry = pack.unit("italy", "infantry")
    refused = check_deployment(pack, torch, board, "italy", infantry, "sz20")
    assert (refused.rule, refused.reason) == ("28", "convoy-barred-this-round")
    assert check_deployment(pack, torch, board, "italy", infantry, "sz15").ok
    assert check_deployment(pack, torch, board, "italy", infantry, "italy").ok
    assert check_deployment(pack, torch, replace(board, round=8), "italy", infantry, "sz20").ok


# --- p.14: mine tokens ----------------------------------------------------------------------------------------


@pytest.mark.rule("14")
def test_p14_land_mines_where_you_control_or_stand(pack: AxisAlliesPack, start: Position) -> None:
    def mine(power: str, territory: str, facing: str, done: int = 0, new: bool = True, used: int = 0) -> str:
        verdict = check_land_mine(
            pack, start, power, territory, facing, done_here=done, new_token=new, tokens_in_play=used
        )
        return "ok" if verdict.ok else f"{verdict.rule}:{verdict.reason}"

    assert mine("united_kingdom", "mersa_matruh", "tobruk") == "ok"  # British units, no marker possible
    assert mine("united_kingdom", "cairo", "mersa_matruh") == "ok"
    assert mine("germany", "mersa_matruh", "tobruk") == "14:mine-not-yours"
    assert mine("italy", "el_agheila", "benghazi") == "ok"  # an Italian tank stands there
    assert mine("germany", "tripoli", "sirte") == "ok"  # German units in an Italian territory
    assert mine("united_kingdom", "mersa_matruh", "benghazi") == "14:not-adjacent"
    assert mine("united_kingdom", "mersa_matruh", "tobruk", done=1) == "14:one-per-territory"
    pool = next(t for t in pack.tokens if t.id == "land_mine").pieces["all"]
    assert mine("united_kingdom", "mersa_matruh", "tobruk", used=pool) == "9:no-tokens-left"
    assert mine("united_kingdom", "mersa_matruh", "tobruk", new=False, used=pool) == "ok"  # an upgrade


@pytest.mark.rule("14")
def test_p14_sea_mines(pack: AxisAlliesPack, start: Position) -> None:
    def mine(power: str, zone: str, done: int = 0, used: int = 0) -> str:
        verdict = check_sea_mine(pack, start, power, zone, done_here=done, tokens_in_play=used)
        return "ok" if verdict.ok else f"{verdict.rule}:{verdict.reason}"

    assert mine("germany", "sz21") == "ok"
    assert mine("germany", "sz31") == "14:enemy-ships"
    assert mine("italy", "sz3") == "14:enemy-deployment-zone"
    assert mine("united_kingdom", "sz1") == "14:enemy-deployment-zone"
    assert mine("germany", "indian_ocean") == "14:axis-mines-forbidden"
    assert mine("germany", "sz21", done=1) == "14:one-per-zone"
    axis = next(t for t in pack.tokens if t.id == "sea_mine").pieces["axis"]
    assert mine("germany", "sz21", used=axis) == "9:no-tokens-left"
    assert mine("united_kingdom", "sz21") == "14:enemy-ships"  # a German submarine counts
    assert mine("united_kingdom", "sz19", used=axis - 1) == "9:no-tokens-left"  # only 6 Allied tokens


# --- p.35: the designers' advice, as worked examples ----------------------------------------------------------


@pytest.mark.rule("35")
def test_p35_axis_only_convoy_in_the_first_turn_is_tripoli(pack: AxisAlliesPack, start: Position) -> None:
    """p.35 (RLP): "Your only convoy option during your first turn is Tripoli"."""
    for power in ("germany", "italy"):
        open_zones = [z.id for z in pack.sea_zones if convoy_open(pack, start, z.id, power)]
        assert open_zones == ["sz15"]


@pytest.mark.rule("35")
def test_p35_atlantic_convoys_after_round_11_arrive_too_late(pack: AxisAlliesPack, rlp: Scenario) -> None:
    """p.35: "Don't deploy reinforcements to the Atlantic Ocean convoy route after round 11, as they won't arrive
    before the game ends": three phase-1 advances, Atlantic -> Indian Ocean -> Suez Canal -> Cairo."""
    legs = convoy_legs(pack, "atlantic_ocean")
    assert legs == 3
    assert 11 + legs <= rlp.end_round < 12 + legs
    assert convoy_legs(pack, "indian_ocean") == 2
    assert convoy_legs(pack, "suez_canal") == convoy_legs(pack, "sz15") == convoy_legs(pack, "sz12") == 1
    assert convoy_legs(pack, "sz1") is None


@pytest.mark.rule("9")
def test_p9_uk_variable_reinforcements(pack: AxisAlliesPack, rlp: Scenario, torch: Scenario) -> None:
    """p.9 and p.35 (RLP): combat units worth up to 12 RP in each of the Atlantic, Indian Ocean and Suez zones."""
    for zone in ("atlantic_ocean", "indian_ocean", "suez_canal"):
        assert check_variable_reinforcements(pack, rlp, zone, {"infantry": 4}).ok  # 4 x 3 = 12
        over = check_variable_reinforcements(pack, rlp, zone, {"infantry": 3, "artillery": 1})
        assert (over.rule, over.reason) == ("9", "over-budget")
    truck = check_variable_reinforcements(pack, rlp, "suez_canal", {"truck": 1})
    assert (truck.rule, truck.reason) == ("9", "not-a-reinforcement")
    sherman = check_variable_reinforcements(pack, rlp, "suez_canal", {"lend_lease_sherman": 1})
    assert sherman.reason == "not-a-reinforcement"
    assert check_variable_reinforcements(pack, torch, "suez_canal", {"infantry": 1}).reason == "not-a-variable-zone"
    assert check_variable_reinforcements(pack, rlp, "suez_canal", {"panzer": 1}).reason == "not-on-chart"


# --- p.14, 21: convoys at sea ---------------------------------------------------------------------------------


@pytest.mark.rule("14")
@pytest.mark.parametrize(
    ("land", "supply", "needed"), [(0, 0, 0), (1, 0, 1), (2, 0, 1), (1, 5, 1), (1, 6, 2), (3, 11, 3)]
)
def test_p14_two_cargo_bays_per_transport(pack: AxisAlliesPack, land: int, supply: int, needed: int) -> None:
    """p.14: each transport has two cargo bays, each holding 1 land unit or up to 5 supply tokens."""
    assert (pack.limit("transport_bays"), pack.limit("supply_per_bay")) == (2, 5)
    assert transports(pack, land, supply) == needed


@pytest.mark.rule("21")
def test_p21_convoys_within_enemy_reach(pack: AxisAlliesPack, start: Position) -> None:
    """p.21's example: the UK attacks the Tripoli convoy zone holding German and Italian cargo."""
    assert exposed_convoys(pack, start, "axis") == ()
    loaded = replace(
        start,
        pieces={**start.pieces, "sz15": {**start.pieces["sz15"], ("germany", "infantry"): 1}},
        convoy_supply={"sz15": {"germany": 2, "italy": 3}},
    )
    assert exposed_convoys(pack, loaded, "axis") == ()  # only the Italian destroyer there
    attacked = replace(
        loaded, pieces={**loaded.pieces, "sz15": {**loaded.pieces["sz15"], ("united_kingdom", "submarine"): 2}}
    )
    assert exposed_convoys(pack, attacked, "axis") == ("sz15",)
    supply_only = replace(attacked, pieces={**attacked.pieces, "sz15": {("united_kingdom", "submarine"): 2}})
    assert exposed_convoys(pack, supply_only, "axis") == ("sz15",)
    assert exposed_convoys(pack, replace(supply_only, convoy_supply={}), "axis") == ()


@pytest.mark.rule("12")
def test_p12_uk_convoy_chain_advances(pack: AxisAlliesPack) -> None:
    assert convoy_next(pack, "atlantic_ocean") == ("indian_ocean", "indian_ocean")
    assert convoy_next(pack, "indian_ocean") == ("suez_canal", "suez_canal")
    assert convoy_next(pack, "suez_canal") == ("cairo", "sz31")  # cargo to Cairo, sea units to sea zone 31
    assert convoy_next(pack, "sz15") == (None, None)


@pytest.mark.rule("13")
def test_p13_immediate_deployments(pack: AxisAlliesPack) -> None:
    assert immediate_deployment(pack, pack.unit("germany", "submarine")) == "sz1"
    assert immediate_deployment(pack, pack.unit("france", "infantry")) == "oran"
    assert immediate_deployment(pack, pack.unit("italy", "submarine")) is None
