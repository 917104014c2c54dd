"""Command paths (§5.8) and supply paths (§5.7) on the real Gazala map, with the §5.8 Command Range example.

The §5.8 example is a figure without hex numbers; its four cases are laid out on the open desert of columns 09-10
(rows 19-26) and at the Gazala line's Minefields 2315/2416/2417, with the units it names and the numbers the pack
keeps from its caption (``command-range``: a 5-hex Command Range, the 69th one hex short).
"""

from __future__ import annotations

import json

import pytest

from pbem.games.gazala import default_pack_bytes, load_pack
from pbem.games.gazala.board import Situation
from pbem.games.gazala.data import GazalaPack
from pbem.games.gazala.paths import command, in_command, in_supply, supply
from pbem.log.canon import canonical
from tests.games.gazala.board_helpers import at

AXIS_MAJORS = ("axis-via-balbia", "axis-trigh-capuzzo", "axis-trigh-el-abd")
CW_MAJORS = ("cw-via-balbia", "cw-trigh-capuzzo", "cw-trigh-el-abd")


def with_number(ident: str, value: int) -> GazalaPack:
    raw = json.loads(default_pack_bytes())
    next(row for row in raw["tables"]["numbers"] if row["id"] == ident)["value"] = value
    return load_pack(canonical(raw))


def length(sit: Situation, unit: str) -> int | None:
    return command(sit, unit).path.length


# --- §5.8 Command Range example ---------------------------------------------------------------------------------


@pytest.mark.rule("5.8")
def test_r5_8_example_a_the_69th_is_one_hex_short(gazala: GazalaPack) -> None:
    example = gazala.example("command-range")
    hq = gazala.hq("50div-hq")
    assert hq.command_range == example["range"] == gazala.hq("trieste-hq").command_range
    sit = at(gazala, {"69-bde": "1025", "150-bde": "1022", "151-bde": "1024"}, {"50div-hq": "1019"})
    assert command(sit, "69-bde").state == "out-of-command"
    assert length(sit, "69-bde") == example["range"] + example["short"]  # the HQ's hex counts, not the unit's
    verdict = in_command(sit, "69-bde")
    assert (verdict.rule, verdict.reason) == ("5.8.3", "out-of-command")


@pytest.mark.rule("5.8")
def test_r5_8_example_b_the_150th_and_151st_are_in_command(gazala: GazalaPack) -> None:
    sit = at(gazala, {"69-bde": "1025", "150-bde": "1022", "151-bde": "1024"}, {"50div-hq": "1019"})
    assert [command(sit, u).state for u in ("150-bde", "151-bde")] == ["in-command", "in-command"]
    assert (length(sit, "150-bde"), length(sit, "151-bde")) == (3, 5)
    assert in_command(sit, "151-bde").ok


@pytest.mark.rule("5.8.2")
def test_r5_8_example_c_friendly_units_open_the_151sts_ezoc_for_the_xi(gazala: GazalaPack) -> None:
    # the 151st at 0921 controls 1021 and 1022, the straight way from the XI (1024) to the Trieste HQ (1019)
    alone = at(gazala, {"xi": "1024", "151-bde": "0921"}, {"trieste-hq": "1019"})
    assert command(alone, "xi").state == "out-of-command"
    assert length(alone, "xi") == 6  # round the zone
    held = at(gazala, {"xi": "1024", "151-bde": "0921", "65": "1021", "8-bers": "1022"}, {"trieste-hq": "1019"})
    assert command(held, "xi").state == "in-command"
    assert command(held, "xi").path.hexes == ("1024", "1023", "1022", "1021", "1020", "1019")


@pytest.mark.rule("5.8.2")
def test_r5_8_example_d_the_65th_is_in_range_but_isolated(gazala: GazalaPack) -> None:
    # 2316 touches the Commonwealth Minefields 2315, 2416, 2417; the 150th at 2217 controls its other neighbours
    sit = at(gazala, {"65": "2316", "150-bde": "2217"}, {"trieste-hq": "2516"})
    assert sit.board.grid.distance(sit.position.units["65"], sit.position.hqs["trieste-hq"]) == 2
    assert command(sit, "65").state == "isolated"
    verdict = in_command(sit, "65")
    assert (verdict.rule, verdict.reason) == ("5.8.4", "isolated")
    breached = at(gazala, {"65": "2316", "150-bde": "2217"}, {"trieste-hq": "2516"}, breached=["2315", "2416", "2417"])
    assert command(breached, "65").state == "in-command"  # §7.4: a path may pass a breached Minefield


# --- §5.8, §5.8.4 lengths and limits ---------------------------------------------------------------------------


@pytest.mark.rule("5.8.4")
def test_r5_8_4_isolation_limits_leg_and_motorised(gazala: GazalaPack) -> None:
    motorised = at(gazala, {"i-8": "1021"}, {"15pz-hq": "1010"})
    assert command(motorised, "i-8").state == "out-of-command"
    assert length(motorised, "i-8") == 11 <= gazala.number("command_path_motorised")
    leg = at(gazala, {"69-bde": "1021"}, {"50div-hq": "1010"})
    assert gazala.number("command_path_leg") < 11
    assert command(leg, "69-bde").state == "isolated"
    heavy = at(gazala, {"8rtr": "1021"}, {"50div-hq": "1010"}, assigned={"8rtr": "50div"})
    assert command(heavy, "8rtr").state == "isolated"  # a Commonwealth heavy tank counts as leg ("MA of 3")


@pytest.mark.rule("5.8.4")
def test_r5_8_4_no_hq_on_the_map_isolates_and_unassigned_independents_never_are(gazala: GazalaPack) -> None:
    assert command(at(gazala, {"i-8": "1021"}), "i-8").state == "isolated"
    assert command(at(gazala, {"recam": "1021"}), "recam").state == "in-command"
    assigned = at(gazala, {"kg-hecker": "1021"}, {"21pz-hq": "1010"}, assigned={"kg-hecker": "21pz"})
    assert command(assigned, "kg-hecker").state == "out-of-command"
    assert command(at(gazala, {"kg-hecker": "1021"}, {"21pz-hq": "1010"}), "kg-hecker").state == "in-command"


@pytest.mark.rule("5.8.2")
def test_r5_8_2_an_enemy_unit_of_any_type_breaks_the_path(gazala: GazalaPack) -> None:
    clear = at(gazala, {"69-bde": "1024"}, {"50div-hq": "1019"})
    assert command(clear, "69-bde").state == "in-command"
    blocked = at(gazala, {"69-bde": "1024"}, {"50div-hq": "1019", "15pz-hq": "1022"})  # an HQ: no ZOC, still a block
    assert length(blocked, "69-bde") == 6
    assert command(blocked, "69-bde").state == "out-of-command"


@pytest.mark.rule("5.4.1")
def test_r5_4_1_paths_go_into_but_not_through_an_ezoc(gazala: GazalaPack) -> None:
    # the HQ stands in the 150th's zone: the path may end there
    sit = at(gazala, {"i-8": "1020", "150-bde": "1024"}, {"15pz-hq": "1023"})
    assert command(sit, "i-8").state == "in-command"
    assert length(sit, "i-8") == 3


@pytest.mark.rule("5.8.2")
def test_r5_8_2_one_ridge_and_not_the_units_own(gazala: GazalaPack) -> None:
    one = at(gazala, {"i-8": "2711"}, {"15pz-hq": "2708"})
    assert command(one, "i-8").path.hexes == ("2711", "2710", "2709", "2708")  # across the Sidra ridge 2709/2710
    strict = with_number("path_ridges", 0)
    none_left = at(strict, {"i-8": "2711"}, {"15pz-hq": "2708"})
    assert length(none_left, "i-8") is not None
    assert length(none_left, "i-8") != 3  # round the ridge
    own = at(strict, {"i-8": "2710"}, {"15pz-hq": "2708"})
    assert command(own, "i-8").path.hexes == ("2710", "2709", "2708")  # its own hexside does not count


@pytest.mark.rule("5.7.4")
def test_r5_7_4_into_or_out_of_one_enemy_minefield_never_through(gazala: GazalaPack) -> None:
    out_of = at(gazala, {"104": "2622"}, {"21pz-hq": "2624"})
    assert command(out_of, "104").state == "in-command"  # it stands in one and leaves it
    # Bir Hacheim (2521) is ringed by Commonwealth Minefields: out of one, a path would have to pass through another
    ring = at(gazala, {"104": "2521"}, {"21pz-hq": "2723"})
    grid = ring.board.grid
    assert all(ring.enemy_minefield(h, "axis") for h in grid.neighbours(ring.position.units["104"]))
    assert command(ring, "104").state == "isolated"
    opened = at(gazala, {"104": "2521"}, {"21pz-hq": "2723"}, breached=["2622"])
    assert command(opened, "104").path.hexes[:2] == ("2521", "2622")


# --- §5.7 supply ---------------------------------------------------------------------------------------------------


@pytest.mark.rule("5.7.2")
def test_r5_7_2_a_leg_hq_is_on_or_adjacent_to_a_road_chain(gazala: GazalaPack) -> None:
    beside = at(gazala, {}, {"brescia-hq": "0611"})  # the Trigh Capuzzo runs through 0610
    assert supply(beside, "brescia-hq").source == "major"
    assert supply(beside, "brescia-hq").path.hexes == ("0611", "0610")
    assert in_supply(beside, "brescia-hq").ok
    two_off = at(gazala, {}, {"brescia-hq": "0612"})
    verdict = in_supply(two_off, "brescia-hq")
    assert (verdict.rule, verdict.reason) == ("5.7.5", "out-of-supply")


@pytest.mark.rule("5.7.2")
def test_r5_7_2_a_motorised_hq_goes_its_command_range_cross_country(gazala: GazalaPack) -> None:
    sit = at(gazala, {}, {"15pz-hq": "0615"})
    assert supply(sit, "15pz-hq").path.hexes == ("0615", "0616", "0617")  # to the Trigh el Abd


@pytest.mark.rule("5.7.2")
def test_r5_7_2_an_unassigned_independent_goes_its_effectiveness(gazala: GazalaPack) -> None:
    eff = gazala.unit("recam").eff.front
    near = at(gazala, {"recam": "1021"})
    assert supply(near, "recam").path.length == eff  # to 1017 on the Trigh el Abd
    assert not supply(at(gazala, {"recam": "1022"}), "recam").ok


@pytest.mark.rule("5.7.4")
def test_r5_7_4_an_ezoc_on_the_chain_breaks_it_unless_a_friendly_unit_is_there(gazala: GazalaPack) -> None:
    cut = at(gazala, {"6sa-bde": "0710"}, {"brescia-hq": "0611"})
    assert not supply(cut, "brescia-hq").ok
    held = at(gazala, {"6sa-bde": "0710", "65": "0610"}, {"brescia-hq": "0611"})
    assert supply(held, "brescia-hq").source == "major"


@pytest.mark.rule("5.7.3")
def test_r5_7_3_blocked_major_sources_supply_nobody(gazala: GazalaPack) -> None:
    assert not supply(at(gazala, {}, {"brescia-hq": "0611"}, blocked=AXIS_MAJORS), "brescia-hq").ok


@pytest.mark.rule("5.7.3")
def test_r5_7_3_commonwealth_box_supply(gazala: GazalaPack) -> None:
    boxed = at(gazala, {}, {"50div-hq": "2623"})  # next to the Bir Hacheim Box hex 2622
    assert supply(boxed, "50div-hq").source == "box"
    breached = at(gazala, {}, {"50div-hq": "2623"}, breached=["2622", "2522"])
    assert supply(breached, "50div-hq").source != "box"
    motorised = at(gazala, {}, {"7armd-hq": "2623"}, blocked=CW_MAJORS)
    assert supply(motorised, "7armd-hq").source is None  # only leg HQs and leg infantry use a Box
    assert supply(at(gazala, {}, {"brescia-hq": "2623"}), "brescia-hq").source is None


@pytest.mark.rule("5.7.3")
def test_r5_7_3_tobruk_supplies_its_owner_inside_the_perimeter(gazala: GazalaPack) -> None:
    own = at(gazala, {}, {"50div-hq": "4203"}, blocked=CW_MAJORS)
    assert supply(own, "50div-hq").source == "tobruk"
    lost = at(gazala, {}, {"50div-hq": "4203"}, blocked=CW_MAJORS, tobruk="axis")
    assert supply(lost, "50div-hq").source is None
    taken = at(gazala, {}, {"brescia-hq": "4203"}, blocked=AXIS_MAJORS, tobruk="axis")
    assert supply(taken, "brescia-hq").source == "tobruk"


def test_results_are_kept_per_position(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "1021"}, {"15pz-hq": "1019", "brescia-hq": "0611"})
    assert command(sit, "i-8") is command(sit, "i-8")
    supply(sit, "15pz-hq")
    chains = [key for key in sit.memo if key[0] == "chain"]
    supply(sit, "brescia-hq")
    assert [key for key in sit.memo if key[0] == "chain"] == chains  # one Road/Trail chain per side and sources
    fresh = at(gazala, {"i-8": "1021"}, {"15pz-hq": "1010"})
    assert command(fresh, "i-8").state == "out-of-command"  # another position, another answer
