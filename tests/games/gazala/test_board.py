"""Movement, zones of control, stacking and adjacency on the real Gazala map (§3.1, §3.3, §5.3, §5.4, §7.3).

Positions use the bundled pack's map: the open desert of columns 06-14, rows 19-27 (clear, no features), the Via
Balbia (0500-0601) and the Trigh Capuzzo (0509-0610), the Sidra ridge (2709/2710), the hill 2824, the sea hexside
of Tobruk (4403/4404) and the Commonwealth Minefields of the Gazala line. Every cost is read from the pack's TEC
(half-MPs); a refusal is asserted by its rule and reason.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.games.gazala import default_pack_bytes, load_pack
from pbem.games.gazala.board import (
    HALF,
    Situation,
    adjacent,
    adjacent_enemy_combat,
    attacker_tp_halved,
    board_of,
    budget,
    check_move,
    defender_terrain,
    hqs_displaced_by,
    move_rule,
    projects_zoc_into,
    reachable,
    screen_allowed,
    supporters,
)
from pbem.games.gazala.data import GazalaPack
from pbem.games.gazala.stacking import stacking
from pbem.kit.graph import Blocked, Cost, StepCost
from pbem.kit.hexes import HexId
from pbem.log.canon import canonical
from tests.games.gazala.board_helpers import at, path


def step(sit: Situation, movers: list[str], a: str, b: str, *, screen: bool = False) -> StepCost:
    board = sit.board
    hexside = board.grid.hexside(HexId(a), HexId(b))
    assert hexside is not None
    return move_rule(sit, movers, screen=screen)(HexId(a), HexId(b), hexside)


def half(pack: GazalaPack, row: str, column: str) -> int:
    value = getattr(pack.terrain_effect(row), column)
    assert isinstance(value, int)
    return value


# --- §3.1.1 hex terrain and §7.3.3 roads ---------------------------------------------------------------------


@pytest.mark.rule("3.1.1")
def test_r3_1_1_hex_costs_come_from_the_tec_per_column(gazala: GazalaPack) -> None:
    leg = at(gazala, {"69-bde": "2823"}, {"50div-hq": "2723"})
    assert step(leg, ["69-bde"], "2823", "2824") == Cost(half(gazala, "hill", "leg"))
    assert step(leg, ["50div-hq"], "2723", "2824") == Cost(half(gazala, "hill", "hq"))
    motorised = at(gazala, {"i-8": "2923"})
    assert step(motorised, ["i-8"], "2923", "2824") == Cost(half(gazala, "hill", "motorised"))
    assert step(motorised, ["i-8"], "2923", "2922") == Cost(half(gazala, "clear", "motorised"))
    # the pack's reconstruction: clear 1 MP, hill 2 MP leg / 3 MP motorised, in half-MPs
    assert (half(gazala, "clear", "leg"), half(gazala, "hill", "leg"), half(gazala, "hill", "motorised")) == (2, 4, 6)


@pytest.mark.rule("3.1.1")
def test_r3_1_1_a_stack_pays_its_slowest_column(gazala: GazalaPack) -> None:
    sit = at(gazala, {"115": "0121", "kg-hecker": "0121"})
    # KG Hecker pays the leg rate cross-country, 115 the motorised: the stack pays the higher
    expected = max(half(gazala, "broken", "leg"), half(gazala, "broken", "motorised"))
    assert step(sit, ["115", "kg-hecker"], "0121", "0122") == Cost(expected)


@pytest.mark.rule("7.3.3")
def test_r7_3_3_road_and_trail_rates_along_the_route(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "0500", "kg-hecker": "0509"})
    assert step(sit, ["i-8"], "0500", "0601") == Cost(half(gazala, "road", "motorised"))
    leg = at(gazala, {"69-bde": "0500"})
    assert step(leg, ["69-bde"], "0500", "0601") == Cost(half(gazala, "road", "leg"))
    assert step(sit, ["kg-hecker"], "0509", "0610") == Cost(half(gazala, "trail", "motorised"))
    # leaving the road through a hexside it does not cross pays the hex entered
    assert step(sit, ["i-8"], "0500", "0501") == Cost(half(gazala, "clear", "motorised"))


@pytest.mark.rule("7.3.3")
def test_r7_3_3_no_road_rate_entering_or_leaving_an_ezoc(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "0500", "6sa-bde": "0701"})  # 0701 projects into 0601, not into 0500
    entering = step(sit, ["i-8"], "0500", "0601")
    assert entering == Cost(half(gazala, "clear", "motorised"), stop=True)
    leaving = at(gazala, {"i-8": "0601", "6sa-bde": "0701"})
    assert step(leaving, ["i-8"], "0601", "0500") == Cost(half(gazala, "clear", "motorised"))


# --- §3.1.2 ridges and wadis, §5.3.2 the sea ---------------------------------------------------------------


@pytest.mark.rule("3.1.2")
def test_r3_1_2_a_ridge_costs_all_mps_and_only_as_the_first_step(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "2709", "115": "2609"})
    assert step(sit, ["i-8"], "2709", "2710") == Cost(0, rest=True, first=True)
    assert check_move(sit, ["i-8"], path("2709", "2710"), supplied=True).ok
    refused = check_move(sit, ["115"], path("2609", "2709", "2710"), supplied=True)
    assert (refused.rule, refused.reason) == ("3.1.2", "not-first-step")
    after = check_move(sit, ["i-8"], path("2709", "2710", "2711"), supplied=True)
    assert (after.rule, after.reason) == ("3.1.2", "after-stop")


@pytest.mark.rule("5.3.2")
def test_r5_3_2_the_sea_hexsides_of_tobruk_are_impassable(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "4404"})
    assert step(sit, ["i-8"], "4404", "4403") == Blocked("5.3.2", "prohibited-hexside")
    refused = check_move(sit, ["i-8"], path("4404", "4403"), supplied=True)
    assert (refused.rule, refused.reason) == ("5.3.2", "prohibited-hexside")
    assert not adjacent(sit.board, HexId("4404"), HexId("4403"))
    assert adjacent(sit.board, HexId("4404"), HexId("4303"))


# --- §7.3.1, §7.3.2 the moving stack and its MA --------------------------------------------------------------


@pytest.mark.rule("7.3.2")
def test_r7_3_2_never_into_an_enemy_combat_unit(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "1020", "69-bde": "1021"})
    refused = check_move(sit, ["i-8"], path("1020", "1021"), supplied=True)
    assert (refused.rule, refused.reason) == ("7.3.2", "enemy-occupied")


@pytest.mark.rule("7.3.2")
def test_r7_3_2_the_ma_is_never_exceeded_but_one_hex_always_moves(gazala: GazalaPack) -> None:
    sit = at(gazala, {"69-bde": "1020"})
    ma = gazala.unit("69-bde").ma
    far = path(*[f"10{r}" for r in range(20, 22 + ma)])
    assert check_move(sit, ["69-bde"], far[:-1], supplied=True).ok
    refused = check_move(sit, ["69-bde"], far, supplied=True)
    assert (refused.rule, refused.reason) == ("7.3.2", "over-budget")
    # unsupplied, the MA is halved (§5.7.5); a hill costs more than all of it, yet one hex is always possible
    assert budget(sit.board, ["69-bde"], supplied=False) == ma * HALF // gazala.number("oos_divisor")
    hill = at(gazala, {"69-bde": "2823"})
    assert check_move(hill, ["69-bde"], path("2823", "2824"), supplied=False).ok


@pytest.mark.rule("7.3.1")
def test_r7_3_1_a_stack_is_one_formation_starting_together(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "1020", "ii-8": "1020", "vii-132": "1020", "115": "1021"}, {"15pz-hq": "1020"})
    assert check_move(sit, ["i-8", "ii-8", "15pz-hq"], path("1020", "1120"), supplied=True).ok
    mixed = check_move(sit, ["i-8", "vii-132"], path("1020", "1120"), supplied=True)
    assert (mixed.rule, mixed.reason) == ("7.3.1", "mixed-formations")
    apart = check_move(sit, ["i-8", "115"], path("1020", "1120"), supplied=True)
    assert (apart.rule, apart.reason) == ("7.3.1", "not-together")
    # the stack's MA is its slowest unit's
    assert (
        budget(sit.board, ["i-8", "15pz-hq"], supplied=True)
        == min(gazala.unit("i-8").ma, gazala.hq("15pz-hq").ma) * HALF
    )


@pytest.mark.rule("5.6.3")
def test_r5_6_3_a_disrupted_unit_does_not_move(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "1020"}, disrupted=["i-8"])
    refused = check_move(sit, ["i-8"], path("1020", "1021"), supplied=True)
    assert (refused.rule, refused.reason) == ("5.6.3", "disrupted")


@pytest.mark.rule("7.3")
def test_r7_3_a_path_of_neighbours(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "1020"})
    refused = check_move(sit, ["i-8"], path("1020", "1022"), supplied=True)
    assert (refused.rule, refused.reason) == ("7.3", "not-adjacent")
    assert check_move(sit, ["i-8"], path("1020"), supplied=True).reason == "no-movers"


@pytest.mark.rule("7.3")
def test_r7_3_reach_for_the_move_prompt(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "1020"})
    reach = reachable(sit, ["i-8"], supplied=True)
    ma = gazala.unit("i-8").ma
    clear = half(gazala, "clear", "motorised")
    assert reach.spent[HexId("1026")] == ma * HALF // clear * clear  # six clear hexes south
    assert HexId(f"10{20 + ma + 1}") not in reach
    assert check_move(sit, ["i-8"], list(reach.path(HexId("1026"))), supplied=True).ok


# --- §5.4 zones of control -----------------------------------------------------------------------------------


@pytest.mark.rule("5.4")
def test_r5_4_zoc_is_the_hex_and_its_six_neighbours(gazala: GazalaPack) -> None:
    sit = at(gazala, {"150-bde": "1022"})
    zone = sit.zones["cw"]
    assert zone == {HexId("1022"), *sit.board.grid.neighbours(HexId("1022"))}
    assert len(zone) == gazala.number("zoc_hexes") + 1


@pytest.mark.rule("5.4")
def test_r5_4_no_zoc_from_disrupted_units_hqs_flak_or_kg_hecker(gazala: GazalaPack) -> None:
    sit = at(
        gazala, {"150-bde": "1022", "18-flak": "1422", "kg-hecker": "0820"}, {"50div-hq": "1225"}, disrupted=["150-bde"]
    )
    assert sit.zones["cw"] == frozenset()
    assert sit.zones["axis"] == frozenset()


@pytest.mark.rule("5.4")
def test_r5_4_no_zoc_across_a_ridge(gazala: GazalaPack) -> None:
    """§5.4 ZOC example: the AFV cannot project a ZOC across the Ridge, so it cannot give Combat Support there."""
    sit = at(gazala, {"i-8": "2709", "150-bde": "2710"})
    assert HexId("2710") not in sit.zones["axis"]
    assert HexId("2809") in sit.zones["axis"]
    assert not projects_zoc_into(sit, "i-8", HexId("2710"))
    assert projects_zoc_into(sit, "i-8", HexId("2809"))
    assert attacker_tp_halved(sit.board, HexId("2709"), HexId("2710"))
    assert not attacker_tp_halved(sit.board, HexId("2709"), HexId("2809"))


@pytest.mark.rule("5.4")
def test_r5_4_no_zoc_into_an_unbreached_enemy_minefield(gazala: GazalaPack) -> None:
    # 2623 touches the Commonwealth Minefields 2622, 2522 and 2523
    sit = at(gazala, {"i-8": "2623", "ff-1": "2521"})
    mines = {HexId("2622"), HexId("2522"), HexId("2523")}
    assert not mines & sit.zones["axis"]
    assert {HexId("2622"), HexId("2522")} <= sit.zones["cw"]  # friendly Minefields take the Commonwealth ZOC
    breached = at(gazala, {"i-8": "2623"}, breached=["2622"])
    assert HexId("2622") in breached.zones["axis"]


@pytest.mark.rule("5.4.1")
def test_r5_4_1_entering_an_ezoc_ends_the_move(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "1020", "115": "1022", "150-bde": "1023"})
    clear = half(gazala, "clear", "motorised")
    assert step(sit, ["i-8"], "1021", "1022") == Cost(clear, stop=True)  # even where a friendly unit already is
    refused = check_move(sit, ["i-8"], path("1020", "1021", "1022", "1023"), supplied=True)
    assert (refused.rule, refused.reason) == ("5.4.1", "after-stop")
    assert check_move(sit, ["i-8"], path("1020", "1021", "1022"), supplied=True).ok


@pytest.mark.rule("5.4.1")
def test_r5_4_1_ezoc_to_ezoc_is_refused_and_leaving_is_free(gazala: GazalaPack) -> None:
    sit = at(gazala, {"115": "1023", "150-bde": "1024"})
    refused = check_move(sit, ["115"], path("1023", "1123"), supplied=True)
    assert (refused.rule, refused.reason) == ("5.4.1", "zoc-to-zoc")
    assert check_move(sit, ["115"], path("1023", "1022", "1021", "1020"), supplied=True).ok


@pytest.mark.rule("7.3.4")
def test_r7_3_4_screen_movement_needs_twice_the_enemy_tank_and_at_points(gazala: GazalaPack) -> None:
    # I/8 and II/8 (6 + 5 TP) against the 150th's AT points: screen one hex from EZOC to EZOC with the whole MA
    strong = at(gazala, {"i-8": "1023", "ii-8": "1023", "150-bde": "1024"})
    enemy = gazala.unit("150-bde").armour_points.front
    own = gazala.unit("i-8").armour_points.front + gazala.unit("ii-8").armour_points.front
    assert own >= gazala.number("screen_tp_factor") * enemy
    assert screen_allowed(strong, "axis", HexId("1023"))
    assert check_move(strong, ["i-8"], path("1023", "1123"), supplied=True).ok  # ii-8 counts without moving
    beyond = check_move(strong, ["i-8"], path("1023", "1123", "1124"), supplied=True)
    assert (beyond.rule, beyond.reason) == ("7.3.4", "after-stop")
    weak = at(gazala, {"viii-132": "1023", "150-bde": "1024"})
    assert not screen_allowed(weak, "axis", HexId("1023"))
    refused = check_move(weak, ["viii-132"], path("1023", "1123"), supplied=True)
    assert (refused.rule, refused.reason) == ("5.4.1", "zoc-to-zoc")


@pytest.mark.rule("7.3.4")
def test_r7_3_4_no_screen_movement_into_an_enemy_minefield(gazala: GazalaPack) -> None:
    # 2623 is in the Free French EZOC of 2522 (a Box hex they hold); 2622 is in it too, and a Commonwealth Box
    sit = at(gazala, {"i-8": "2623", "ii-8": "2623", "ff-1": "2522"})
    assert screen_allowed(sit, "axis", HexId("2623"))
    refused = check_move(sit, ["i-8"], path("2623", "2622"), supplied=True)
    assert (refused.rule, refused.reason) == ("7.3.4", "screen-minefield")
    weak = at(gazala, {"104": "2623", "ff-1": "2522"})
    plain = check_move(weak, ["104"], path("2623", "2622"), supplied=True)
    assert (plain.rule, plain.reason) == ("5.4.1", "zoc-to-zoc")


# --- §3.3, §7.3.6 HQs and Minefields ----------------------------------------------------------------------------


@pytest.mark.rule("3.3")
def test_r3_3_an_hq_enters_an_ezoc_only_with_or_to_combat_units(gazala: GazalaPack) -> None:
    alone = at(gazala, {"150-bde": "1024"}, {"15pz-hq": "1022"})
    refused = check_move(alone, ["15pz-hq"], path("1022", "1023"), supplied=True)
    assert (refused.rule, refused.reason) == ("3.3", "hq-ezoc")
    joined = at(gazala, {"150-bde": "1024", "115": "1023"}, {"15pz-hq": "1022"})
    assert check_move(joined, ["15pz-hq"], path("1022", "1023"), supplied=True).ok
    together = at(gazala, {"150-bde": "1024", "115": "1022"}, {"15pz-hq": "1022"})
    assert check_move(together, ["115", "15pz-hq"], path("1022", "1023"), supplied=True).ok


@pytest.mark.rule("7.3.6")
def test_r7_3_6_an_enemy_minefield_takes_the_whole_ma_from_an_adjacent_hex(gazala: GazalaPack) -> None:
    sit = at(gazala, {"104": "2623", "115": "2624"}, {"21pz-hq": "2623"})
    assert step(sit, ["104"], "2623", "2622") == Cost(0, rest=True, first=True)
    assert check_move(sit, ["104"], path("2623", "2622"), supplied=True).ok
    far = check_move(sit, ["115"], path("2624", "2623", "2622"), supplied=True)
    assert (far.rule, far.reason) == ("7.3.6", "not-first-step")
    hq = check_move(sit, ["21pz-hq"], path("2623", "2622"), supplied=True)
    assert (hq.rule, hq.reason) == ("7.3.6", "hq-minefield")
    breached = at(gazala, {"115": "2624"}, breached=["2622"])
    assert check_move(breached, ["115"], path("2624", "2623", "2622"), supplied=True).ok
    # a friendly Minefield costs its TEC row like any hex
    own = at(gazala, {"150-bde": "2623"})
    assert step(own, ["150-bde"], "2623", "2622") == Cost(half(gazala, "minefield-friendly", "leg"))


# --- §5.3 stacking and HQ displacement ----------------------------------------------------------------------


@pytest.mark.rule("5.3.1")
def test_r5_3_1_axis_stacking_limits(gazala: GazalaPack) -> None:
    assert stacking(gazala, ["i-8", "ii-8", "115", "15pz-hq", "18-flak", "kg-hecker"]).ok
    assert stacking(gazala, ["i-8", "ii-8", "33"]).reason == "overstacked"
    assert stacking(gazala, ["115", "104"]).rule == "5.3.1"


@pytest.mark.rule("5.3.1")
def test_r5_3_1_commonwealth_stacking_limits(gazala: GazalaPack) -> None:
    assert stacking(gazala, ["150-bde", "8rtr", "50div-hq"]).ok
    assert stacking(gazala, ["150-bde", "151-bde"]).reason == "overstacked"
    assert stacking(gazala, ["ff-1", "ff-2"]).ok  # the two half-brigades count as one leg infantry unit
    assert stacking(gazala, ["ff-1", "ff-2", "150-bde"]).reason == "overstacked"


@pytest.mark.rule("3.3")
def test_r3_3_one_hq_a_hex(gazala: GazalaPack) -> None:
    refused = stacking(gazala, ["15pz-hq", "21pz-hq"])
    assert (refused.rule, refused.reason) == ("3.3", "hq-per-hex")


@pytest.mark.rule("7.3.5")
def test_r7_3_5_a_lone_enemy_hq_adjacent_is_displaced(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "1020", "151-bde": "1223"}, {"50div-hq": "1022", "1sa-hq": "1223"})
    assert hqs_displaced_by(sit, "axis", HexId("1021")) == ("50div-hq",)
    assert hqs_displaced_by(sit, "axis", HexId("1122")) == ("50div-hq",)  # 1sa-hq has a combat unit with it
    assert hqs_displaced_by(sit, "axis", HexId("1020")) == ()
    tobruk = at(gazala, {}, {"50div-hq": "4403"})
    assert hqs_displaced_by(tobruk, "axis", HexId("4404")) == ()  # across the sea hexside


@pytest.mark.rule("6.5.1")
def test_r6_5_1_reaction_trigger_hexes_are_adjacent_to_enemy_combat_units(gazala: GazalaPack) -> None:
    sit = at(gazala, {"150-bde": "1024"}, {"15pz-hq": "1020"})
    assert adjacent_enemy_combat(sit, "axis", HexId("1023"))
    assert not adjacent_enemy_combat(sit, "axis", HexId("1022"))


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_defender_terrain_row_of_minefields(gazala: GazalaPack) -> None:
    sit = at(gazala, {}, breached=["2621"])
    assert defender_terrain(sit, HexId("2622"), "cw").crt_row == "minefield"
    assert defender_terrain(sit, HexId("2622"), "axis").crt_row == "minefield"
    assert defender_terrain(sit, HexId("2621"), "cw").id == "clear"  # breached: its hex terrain
    assert defender_terrain(sit, HexId("2824"), "cw").id == "hill"


def test_the_board_is_built_once_per_pack_and_is_not_part_of_its_value(gazala: GazalaPack) -> None:
    assert board_of(gazala) is board_of(gazala)
    fresh = load_pack(default_pack_bytes())
    assert fresh == gazala  # one has its board built, the other not yet
    copy = gazala.model_copy()
    assert board_of(copy).pack is copy
    assert board_of(gazala).pack is gazala


@pytest.mark.rule("9.4.2")
def test_r9_4_2_reinforcements_never_enter_an_ezoc(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "1020", "150-bde": "1023"})
    refused = check_move(sit, ["i-8"], path("1020", "1021", "1022"), supplied=True, reinforcement=True)
    assert (refused.rule, refused.reason) == ("9.4.2", "reinforcement-ezoc")
    reach = reachable(sit, ["i-8"], supplied=True, reinforcement=True)
    assert HexId("1021") in reach
    assert not set(reach.spent) & sit.zones["cw"]


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_combat_support_comes_from_units_projecting_a_zoc_into_the_hex(gazala: GazalaPack) -> None:
    # 2710 is attacked: I/8 (2709) is across the Sidra ridge and 33 (2809) Disrupted; II/8 (2711) and 115 (2810) can
    sit = at(gazala, {"150-bde": "2710", "i-8": "2709", "ii-8": "2711", "115": "2810", "33": "2809"}, disrupted=["33"])
    assert supporters(sit, "axis", HexId("2710")) == ("115", "ii-8")


def test_the_board_example_of_the_data_doc_runs() -> None:
    doc = (Path(__file__).parents[3] / "docs" / "gazala-data.md").read_text(encoding="utf-8")
    section = doc[doc.index("## 9. The board") :]
    start = section.index("```python") + len("```python")
    block = section[start : section.index("```", start)]
    exec(compile(block, "docs/gazala-data.md §9", "exec"), {})


@pytest.mark.rule("7.3.3")
def test_r7_3_3_no_road_rate_out_of_an_unbreached_enemy_minefield(gazala: GazalaPack) -> None:
    # the Via Balbia crosses 3802/3902; 3902 is a Tobruk perimeter Minefield, Commonwealth-owned
    sit = at(gazala, {"i-8": "3902"})
    terrain = sit.board.grid.terrain(HexId("3802"))
    assert step(sit, ["i-8"], "3902", "3802") == Cost(half(gazala, terrain, "motorised"))
    breached = at(gazala, {"i-8": "3902"}, breached=["3902"])
    assert step(breached, ["i-8"], "3902", "3802") == Cost(half(gazala, "road", "motorised"))


@pytest.mark.rule("3.1.1")
def test_r3_1_1_a_transcribed_tec_may_make_terrain_all_mp_or_prohibited(gazala: GazalaPack) -> None:
    raw = json.loads(default_pack_bytes())
    rows = {row["id"]: row for row in raw["tables"]["terrain_effects"]}
    rows["hill"].update(leg=None, motorised=None, hq=None, all_mp=True)
    rows["broken"].update(leg=None, motorised=None, hq=None, prohibited=True)
    changed = load_pack(canonical(raw))
    hill = at(changed, {"i-8": "2923"})
    assert step(hill, ["i-8"], "2923", "2824") == Cost(0, rest=True, first=True)
    broken = at(changed, {"i-8": "0121"})
    assert step(broken, ["i-8"], "0121", "0122") == Blocked("3.1.1", "prohibited-terrain")
    refused = check_move(broken, ["i-8"], path("0121", "0122"), supplied=True)
    assert (refused.rule, refused.reason) == ("3.1.1", "prohibited-terrain")
