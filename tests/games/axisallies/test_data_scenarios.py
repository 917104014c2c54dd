"""Powers, seats, tokens, the rules' numbers, and both scenarios' setups, events and special rules.

The rulebook has no numbered sections; its pages serve as sections, so ``@pytest.mark.rule("28")`` is page 28
(``pytest --rule 28``).
"""

from __future__ import annotations

import pytest

from pbem.games.axisallies.data import (
    REQUIRED_LIMITS,
    AxisAlliesPack,
)
from tests.games.axisallies.pack_helpers import placed

# --- powers, seats, tokens and numbers ---------------------------------------------------------------------------


@pytest.mark.rule("7")
@pytest.mark.rule("12")
def test_p7_powers_sides_and_turn_order(pack: AxisAlliesPack) -> None:
    order = sorted((p.turn_order, p.id) for p in pack.powers if p.turn_order is not None)
    assert [ident for _, ident in order] == ["germany", "united_kingdom", "italy", "united_states"]
    assert {p.id: p.side for p in pack.powers} == {
        "germany": "axis",
        "united_kingdom": "allies",
        "italy": "axis",
        "united_states": "allies",
        "france": None,
    }
    france = pack.power("france")
    assert (france.turn_order, france.nbrp, france.supply_per_turn) == (None, None, None)


@pytest.mark.rule("7")
def test_p7_seat_assignments(pack: AxisAlliesPack) -> None:
    def table(players: int) -> list[tuple[str, tuple[str, ...]]]:
        return [(seat.id, seat.powers) for seat in pack.seats(players)]

    assert table(2) == [("axis", ("germany", "italy")), ("allies", ("united_kingdom", "united_states"))]
    assert table(3) == [
        ("germany", ("germany",)),
        ("italy", ("italy",)),
        ("allies", ("united_kingdom", "united_states")),
    ]
    assert table(4) == [
        ("germany", ("germany",)),
        ("italy", ("italy",)),
        ("united_kingdom", ("united_kingdom",)),
        ("united_states", ("united_states",)),
    ]


@pytest.mark.rule("29")
def test_p29_vichy_and_free_french(pack: AxisAlliesPack) -> None:
    vichy, free = sorted(pack.allegiances, key=lambda a: a.id != "vichy")
    assert (vichy.id, vichy.side, vichy.operated_by) == ("vichy", "axis", "germany")
    assert not (vichy.can_move or vichy.can_attack or vichy.can_retreat or vichy.requisition_from_pool)
    assert vichy.surrenders_on_zero_hits and not free.surrenders_on_zero_hits
    assert (free.id, free.side, free.operated_by) == ("free", "allies", "united_states")
    assert free.can_move and free.can_attack and free.requisition_from_pool
    assert pack.limit("free_french_per_type") == 1


@pytest.mark.rule("13")
def test_p13_supply_caps_and_basic_income(pack: AxisAlliesPack) -> None:
    caps = {p.id: p.supply_per_turn for p in pack.powers if p.turn_order is not None}
    assert caps == {"germany": 5, "united_kingdom": 5, "italy": 5, "united_states": 10}
    for p in pack.powers:
        if p.nbrp is not None:
            assert p.nbrp > 0 and p.sources.nbrp.startswith("reconstructed: "), p.id  # printed on the board only
    assert pack.limit("malta_supply_per_turn") == pack.limit("battleship_repair_supply") == 1
    assert [(t.id, t.rp_upkeep_supply) for t in pack.territories if t.rp_upkeep_supply] == [("malta", 1)]
    assert [(z.id, z.repair_supply_from) for z in pack.sea_zones if z.naval_base] == [("sz31", "cairo")]


@pytest.mark.rule("4")
@pytest.mark.rule("14")
def test_p4_tokens(pack: AxisAlliesPack) -> None:
    tokens = {t.id: t for t in pack.tokens}
    assert tokens["supply_1"].pieces == {"all": 40} and tokens["supply_5"].pieces == {"all": 15}
    assert tokens["land_mine"].pieces == {"all": 20} and tokens["sea_mine"].pieces == {"allies": 6, "axis": 9}
    assert (tokens["land_mine"].cost, tokens["sea_mine"].cost, tokens["supply_1"].cost) == (1, 2, 1)
    assert (pack.limit("supply_token_small"), pack.limit("supply_token_large")) == (1, 5)
    assert pack.limit("control_markers") == sum(p.control_markers for p in pack.powers) == 48
    assert (pack.limit("gray_chips"), pack.limit("gray_chip_units")) == (50, 1)
    assert (pack.limit("green_chips"), pack.limit("green_chip_units")) == (15, 3)
    assert (pack.limit("dice"), pack.limit("die_sides")) == (8, 10)


@pytest.mark.rule("14")
@pytest.mark.rule("26")
@pytest.mark.rule("27")
def test_p26_mines(pack: AxisAlliesPack) -> None:
    assert (pack.limit("land_mine_dice_per_icon"), pack.limit("land_mine_hit")) == (3, 3)
    assert (pack.limit("sea_mine_dice_per_token"), pack.limit("sea_mine_hit")) == (1, 3)
    assert pack.limit("land_mine_deploys_per_territory") == pack.limit("sea_mine_deploys_per_zone") == 1


@pytest.mark.rule("12")
@pytest.mark.rule("14")
@pytest.mark.rule("18")
@pytest.mark.rule("19")
@pytest.mark.rule("20")
@pytest.mark.rule("21")
@pytest.mark.rule("22")
@pytest.mark.rule("25")
def test_combat_and_convoy_numbers(pack: AxisAlliesPack) -> None:
    assert pack.limit("supply_per_attack_units") == 5  # p.18: 1 supply per 5 attacking units or fraction
    assert pack.limit("defense_supply") == 1  # p.20: exactly 1 supply to fight
    assert pack.limit("flanking_reroll_from") == 8  # p.19: reroll 8, 9 or 10
    assert (pack.limit("transport_bays"), pack.limit("supply_per_bay")) == (2, 5)  # p.14
    assert pack.limit("transport_casualties_per_hit") == 2  # p.21
    assert pack.limit("convoy_escapes_per_round") == 2  # p.22
    assert pack.limit("convoy_air_landing_range") == pack.limit("escort_move_range") == 2  # p.12, p.25
    assert {row.id for row in pack.limits} >= REQUIRED_LIMITS


@pytest.mark.rule("38")
@pytest.mark.rule("39")
def test_p38_optional_rules(pack: AxisAlliesPack) -> None:
    rules = {row.id: row for row in pack.optional_rules}
    assert set(rules) == {
        "draw_tie_break",  # p.6
        "rp_bidding",
        "reinforcing_land_attacks",
        "tiger_tanks",
        "air_transport",
        "mining_the_suez_canal",
        "choice_of_us_landing_zones",
        "anzac_reinforcements",
        "strategic_supply_reserve",
    }
    assert rules["rp_bidding"].values == {"min_bid": 1}
    reserves = {s.id: s.strategic_supply_reserve for s in pack.scenarios}
    assert reserves == {"rommels_last_push": {"axis": 4, "allies": 9}, "operation_torch": {"axis": 6, "allies": 4}}


# --- scenarios -------------------------------------------------------------------------------------------------


@pytest.mark.rule("6")
@pytest.mark.rule("28")
def test_p6_two_scenarios_end_after_round_14(pack: AxisAlliesPack) -> None:
    assert [s.id for s in pack.scenarios] == ["rommels_last_push", "operation_torch"]
    rlp, ot = pack.scenario("rommels_last_push"), pack.scenario("operation_torch")
    assert (rlp.start_round, ot.start_round) == (1, 7)
    assert rlp.end_round == ot.end_round == pack.limit("end_round") == 14


@pytest.mark.rule("6")
@pytest.mark.rule("28")
def test_p6_skipped_turns(pack: AxisAlliesPack) -> None:
    rlp, ot = pack.scenario("rommels_last_push"), pack.scenario("operation_torch")
    assert [(s.power, s.rounds) for s in rlp.skipped_turns] == [("united_states", (1, 2, 3, 4, 5, 6))]
    assert [(s.power, s.rounds) for s in ot.skipped_turns] == [("germany", (7,))]


@pytest.mark.rule("6")
def test_p6_victory_conditions(pack: AxisAlliesPack) -> None:
    def levels(scenario: str) -> dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]]:
        victory = pack.scenario(scenario).victory
        return {(v.side, v.level): (v.all_of, v.any_of) for v in victory.levels}

    assert levels("rommels_last_push") == {
        ("axis", "major"): (("tobruk", "mareth"), ()),
        ("axis", "minor"): ((), ("tripoli", "algiers")),
        ("allies", "major"): (("tobruk", "tripoli"), ()),
        ("allies", "minor"): (("mareth",), ()),
    }
    assert levels("operation_torch") == {
        ("axis", "total"): (("benghazi",), ()),
        ("axis", "major"): (("tripoli", "mareth"), ()),
        ("axis", "minor"): ((), ("tripoli", "algiers")),
        ("allies", "major"): (("benghazi", "tripoli"), ()),
        ("allies", "minor"): (("benghazi", "mareth"), ()),
    }
    for s in pack.scenarios:
        assert {(v.side, v.capture) for v in s.victory.instant} == {("axis", "cairo"), ("allies", "tunis")}
        assert s.victory.draw_if_both_minor


SETUP_LINES = {  # p.8: the surviving Rommel's Last Push setup chart lines, each one pack row
    ("tripoli", "germany"): ({"mech_infantry": 1, "fighter": 1, "bomber": 1}, 0),
    ("sicily", "germany"): ({"bomber": 1}, 0),
    ("cairo", "united_kingdom"): ({"infantry": 1, "anti_tank_gun": 1, "aaa": 1, "fighter": 1}, 5),
    ("tripoli", "italy"): ({"infantry": 2, "truck": 1}, 2),
}


@pytest.mark.rule("8")
def test_p8_setup_lines_are_rows_of_their_own(pack: AxisAlliesPack) -> None:
    rows = {
        (r.space, r.power): (r.units, r.supply)
        for r in pack.scenario("rommels_last_push").setup.placements
        if r.source.startswith("rulebook §8")
    }
    assert rows == SETUP_LINES


@pytest.mark.rule("8")
def test_p8_surviving_setup_lines(pack: AxisAlliesPack) -> None:
    rlp = "rommels_last_push"
    units, _ = placed(pack, rlp, "tripoli", "germany")
    assert units == {"mech_infantry": 1, "fighter": 1, "bomber": 1}
    assert placed(pack, rlp, "sicily", "germany")[0]["bomber"] == 1
    units, supply = placed(pack, rlp, "cairo", "united_kingdom")
    assert {k: units[k] for k in ("infantry", "anti_tank_gun", "aaa", "fighter")} == {
        "infantry": 1,
        "anti_tank_gun": 1,
        "aaa": 1,
        "fighter": 1,
    }
    assert supply == 5
    (mines,) = pack.scenario(rlp).setup.land_mines
    assert (mines.territory, mines.facing, sum(mines.tokens)) == ("cairo", "mersa_matruh", 3)
    assert placed(pack, rlp, "tripoli", "italy") == ({"infantry": 2, "truck": 1}, 2)
    control = {row.territory: row.power for row in pack.scenario(rlp).setup.control}
    assert control["tripoli"] == "italy"


@pytest.mark.rule("8")
@pytest.mark.rule("28")
def test_p28_round_7_insertion(pack: AxisAlliesPack) -> None:
    events = {e.id: e for e in pack.scenario("rommels_last_push").events}
    torch = events["operation_torch"]
    assert (torch.round, torch.timing) == (7, "round_start")
    assert {(c.territory, c.power) for c in torch.control} == {
        ("tunis", "germany"),
        ("kasserine_pass", "germany"),
        ("mareth", "italy"),
    }
    assert [(m.zone, m.powers) for m in torch.convoy_markers] == [("sz13", ("germany", "italy"))]
    assert pack.sea_zone("sz13").convoy is not None
    assert {(c.power, c.unit, c.count) for c in torch.pool_changes} == {("germany", "truck", 1), ("italy", "truck", 1)}
    got = {(p.space, p.power): (p.units, p.supply, p.attack_arrows) for p in torch.placements}
    assert got == {
        ("tunis", "germany"): ({}, 3, 0),
        ("casablanca", "united_states"): ({"infantry": 5}, 4, 1),
        ("oran", "united_states"): ({"infantry": 5}, 4, 1),
        ("algiers", "united_states"): ({"infantry": 3}, 5, 1),
        ("algiers", "united_kingdom"): ({"infantry": 3}, 0, 0),
    }


@pytest.mark.rule("9")
@pytest.mark.rule("28")
def test_p28_rommels_last_push_special_rules(pack: AxisAlliesPack) -> None:
    rlp = pack.scenario("rommels_last_push")
    assert {(m.side, m.from_round) for m in rlp.mat_entry} == {("allies", 7), ("axis", 8)}
    assert {(c.power, c.unit, c.count) for c in rlp.setup.pool_changes} == {
        ("germany", "truck", -1),
        ("italy", "truck", -1),
    }
    shermans = next(e for e in rlp.events if e.id == "lend_lease_shermans")
    assert (shermans.round, shermans.timing, shermans.power) == (4, "phase_6", "united_kingdom")
    assert [(p.space, p.units) for p in shermans.placements] == [("atlantic_ocean", {"lend_lease_sherman": 2})]
    assert rlp.torch.no_attacks_on_adjacent_territories
    assert rlp.torch.sources["no_attacks_on_adjacent_territories"].startswith("rulebook §28")


@pytest.mark.rule("28")
def test_p28_torch_landings(pack: AxisAlliesPack) -> None:
    for s in pack.scenarios:
        torch = s.torch
        assert (torch.round, torch.resolved_in_turn_of) == (7, "united_states")
        assert torch.pre_declared and torch.must_press_with_all_units
        assert torch.inactive_in_own_turn == ("united_kingdom",)
        landings = {(x.territory, x.attackers, x.controller_if_won, x.convoy_zone) for x in torch.landings}
        assert landings == {
            ("casablanca", ("united_states",), "united_states", "sz2"),
            ("oran", ("united_states",), "united_states", "sz6"),
            ("algiers", ("united_states", "united_kingdom"), "united_states", "sz7"),
        }
        assert all(x.convoy_powers_if_won == ("united_kingdom", "united_states") for x in torch.landings)
        rules = {r.id: r for r in s.round_rules}
        air = rules["us_no_air_round_7"]
        assert (air.kind, air.power, air.rounds, air.categories) == ("no_requisition", "united_states", (7,), ("air",))
        casa = rules["us_casablanca_round_7"]
        assert (casa.kind, casa.zones, casa.if_controls, casa.optional_rule_lifts) == (
            "must_deploy_to",
            ("sz2",),
            "casablanca",
            "39",
        )


@pytest.mark.rule("28")
def test_p28_operation_torch_special_rules(pack: AxisAlliesPack) -> None:
    ot = pack.scenario("operation_torch")
    assert all(m.from_round <= ot.start_round for m in ot.mat_entry)  # no restriction for anyone
    assert placed(pack, "operation_torch", "suez_canal", "united_kingdom")[0] == {"lend_lease_sherman": 2}
    italy = next(r for r in ot.round_rules if r.id == "italy_tripoli_only_round_7")
    assert (italy.kind, italy.power, italy.rounds, italy.zones) == ("deploy_only_to", "italy", (7,), ("sz15",))
    assert ot.events == ()  # the Round Track events are ignored in Operation Torch (p.9)
    assert ot.torch.sources["no_attacks_on_adjacent_territories"].startswith("reconstructed: ")


@pytest.mark.rule("29")
def test_p29_french_units_start_as_vichy(pack: AxisAlliesPack) -> None:
    for s in pack.scenarios:
        french = [p for p in s.setup.placements if p.power == "france"]
        assert {p.space for p in french} == {"casablanca", "oran", "algiers"}
        assert all(set(p.units) <= {"infantry", "tank"} for p in french)
        control = {row.territory: row.power for row in s.setup.control}
        assert all(control[p.space] == "france" for p in french)
        # p.29: Free French requisitions come from the pool, so some French pieces stay off the board
        on_board = sum(count for p in french for count in p.units.values())
        assert on_board < sum(u.pieces for u in pack.units if u.power == "france")


@pytest.mark.rule("13")
@pytest.mark.rule("29")
def test_p13_immediate_deployments(pack: AxisAlliesPack) -> None:
    rows = {row.id: row for row in pack.immediate_deployments}
    subs = rows["german_submarines"]
    assert (subs.power, subs.units, subs.space, subs.per_type_per_turn) == ("germany", ("submarine",), "sz1", None)
    french = rows["free_french"]
    assert (french.power, set(french.units), french.space) == ("france", {"infantry", "tank"}, "oran")
    assert (french.allegiance, french.requires_side_control, french.per_type_per_turn) == ("free", "allies", 1)


@pytest.mark.rule("25")
def test_p25_uk_convoy_deployment_limits(pack: AxisAlliesPack) -> None:
    assert pack.sea_zone("sz12").land_deploy_types == ("aaa",)  # Malta: AAA only
    assert {z.id for z in pack.sea_zones if not z.direct_deploy} == {"indian_ocean", "suez_canal"}
    assert all(z.land_deploy_types is None for z in pack.sea_zones if z.id != "sz12")


@pytest.mark.rule("9")
@pytest.mark.rule("35")
def test_p9_uk_variable_reinforcements(pack: AxisAlliesPack) -> None:
    rlp = pack.scenario("rommels_last_push").setup.variable_reinforcements
    assert {(v.zone, v.rp) for v in rlp} == {("atlantic_ocean", 12), ("indian_ocean", 12), ("suez_canal", 12)}
    assert all(v.power == "united_kingdom" for s in pack.scenarios for v in s.setup.variable_reinforcements)
    assert pack.scenario("operation_torch").setup.variable_reinforcements


@pytest.mark.rule("35")
def test_p35_strategy_notes_agree_with_the_setup(pack: AxisAlliesPack) -> None:
    rlp = pack.scenario("rommels_last_push")
    axis_open = {m.zone for m in rlp.setup.convoy_markers if set(m.powers) & {"germany", "italy"}}
    assert axis_open == {"sz15"}  # "your only convoy option during your first turn is Tripoli"
    ot = {row.territory: row.power for row in pack.scenario("operation_torch").setup.control}
    assert ot["tobruk"] in ("germany", "italy") and ot["benghazi"] in ("germany", "italy")  # the UK must take them


def test_setups_respect_stacking_and_pieces(pack: AxisAlliesPack) -> None:
    for s in pack.scenarios:
        for row in s.setup.placements:
            for unit in row.units:
                pack.unit(row.power, unit)
        assert s.setup.placements and s.setup.control
