"""The Gazala data pack: it loads, holds every number the rulebook states, refuses broken copies with R006, and its
reconstructed map puts the battlefield where history has it.

Rulebook facts carry a ``rule`` marker with the section that states them (``pytest --rule 7.5.1``). Values the
rulebook does not give (most of the map, most counter values, most table cells) are checked for consistency and
for their provenance only.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections import deque
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, get_args

import pytest
from pydantic import BaseModel

from pbem.errors import DataPackError
from pbem.games.gazala import default_pack_bytes, load_pack, pack_schema
from pbem.games.gazala.data import CHIT_COUNT, CRT_TERRAINS, GazalaPack
from pbem.kit.hexes import HexId, HexMap, Layout
from pbem.log.canon import canonical

Raw = dict[str, Any]


@pytest.fixture(scope="module")
def pack() -> GazalaPack:
    return load_pack(default_pack_bytes())


@pytest.fixture(scope="module")
def grid(pack: GazalaPack) -> HexMap:
    return HexMap(pack.map)


@pytest.fixture
def raw() -> Raw:
    value: Raw = json.loads(default_pack_bytes())
    return value


def rejected(value: Raw) -> str:
    with pytest.raises(DataPackError) as info:
        load_pack(canonical(value))
    assert info.value.code.id == "R006"
    return str(info.value)


def find(rows: list[Raw], key: str, value: str) -> Raw:
    found: Raw = next(r for r in rows if r[key] == value)
    return found


def col_row(hex_id: str) -> tuple[int, int]:
    return int(hex_id[:2]), int(hex_id[2:])


# --- the bundled pack -----------------------------------------------------------------------------------------------


def test_bundled_pack_loads_from_the_pretty_file_and_canonical_bytes(pack: GazalaPack) -> None:
    pretty = resources.files("pbem.games.gazala").joinpath("data/pack.json").read_bytes()
    assert b"\n" in pretty.strip()  # meant to be read and corrected by people
    assert load_pack(pretty) == pack
    assert pack.meta.game == "gazala"


def test_schema_describes_the_pack() -> None:
    schema = pack_schema()
    assert {"map", "units", "hqs", "chits", "tables", "scenarios"} <= set(schema["properties"])


def test_every_record_names_its_provenance(raw: Raw) -> None:
    """Every SourceText says rulebook §…, reconstructed: … or transcribed: … (the schema enforces the pattern)."""
    sources: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "source" and isinstance(value, str):
                    sources.append(value)
                elif key == "sources" and isinstance(value, dict):
                    sources.extend(v for v in value.values() if isinstance(v, str))
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(raw)
    assert len(sources) > 2000
    assert all(s.startswith(("rulebook §", "reconstructed: ", "transcribed: ")) for s in sources)
    assert sum(s.startswith("rulebook §") for s in sources) > 300


# --- cross-checks refuse broken copies ----------------------------------------------------------------------------


def _unit(raw: Raw, ident: str) -> Raw:
    return find(raw["units"], "id", ident)


def _isolate_a_hex(raw: Raw) -> None:
    hexsides = raw["map"]["hexsides"]
    for col, row in Layout("flat", "odd").neighbours(27, 29):
        if row > 29:
            continue
        a, b = sorted(("2729", f"{col:02d}{row:02d}"))
        if not any(s["a"] == a and s["b"] == b for s in hexsides):
            hexsides.append({"a": a, "b": b, "features": ["sea"]})


BROKEN: list[tuple[str, Callable[[Raw], object], str]] = [
    ("wrong game", lambda r: r["meta"].update(game="battleaxe"), "meta.game"),
    ("strength over 15", lambda r: _unit(r, "104").update(cs=16), "unit '104'"),
    ("eff not lower disrupted", lambda r: _unit(r, "104")["eff"].update(disrupted=7), "unit '104'"),
    ("eff out of range", lambda r: _unit(r, "3")["eff"].update(front=8), "unit '3'"),
    ("unknown formation", lambda r: _unit(r, "104").update(formation="nope"), "unit '104'"),
    ("loss group off", lambda r: _unit(r, "104").update(loss_group=None), "unit '104'"),
    ("tp on infantry", lambda r: _unit(r, "104").update(armour="tp"), "unit '104'"),
    ("heavy tank fast", lambda r: _unit(r, "8rtr").update(ma=4), "unit '8rtr'"),
    ("flak with zoc", lambda r: _unit(r, "18-flak").update(no_zoc=False), "unit '18-flak'"),
    ("cw to armoured div", lambda r: _unit(r, "8rtr").update(assign_to=["7armd"]), "unit '8rtr'"),
    ("positive engineer", lambda r: find(r["hqs"], "id", "21pz-hq").update(engineer=1), "hq '21pz-hq'"),
    ("formation without hq", lambda r: r["hqs"].remove(find(r["hqs"], "id", "21pz-hq")), "formation '21pz'"),
    ("recovery over max", lambda r: find(r["formations"], "id", "21pz").update(recovery=9), "formation '21pz'"),
    ("mine without feature", lambda r: find(r["map"]["hexes"], "id", "2621").update(features=[]), "minefield '2621'"),
    ("unknown box", lambda r: find(r["minefields"], "hex", "2622").update(box="nope"), "minefield '2622'"),
    ("axis box", lambda r: find(r["minefields"], "hex", "2622").update(owner="axis"), "minefield '2622'"),
    ("perimeter gap", lambda r: r["tobruk"]["perimeter"].remove("4109"), "tobruk"),
    ("perimeter not mined", lambda r: r["minefields"].remove(find(r["minefields"], "hex", "4109")), "4109"),
    (
        "entry off the edge",
        lambda r: find(r["supply_sources"], "id", "axis-via-balbia").update(hex="2100"),
        "supply source 'axis-via-balbia'",
    ),
    ("unknown hexside feature", lambda r: r["map"]["hexsides"][0].update(features=["lava"]), "map hexside"),
    ("swamp terrain", lambda r: find(r["map"]["hexes"], "id", "2607").update(terrain="swamp"), "map hex '2607'"),
    ("disconnected map", _isolate_a_hex, "cannot be reached"),
    ("chit number twice", lambda r: find(r["chits"], "id", "2").update(number=1), "chits"),
    ("multiplier 4", lambda r: find(r["chits"], "id", "21")["high"]["multipliers"][0].__setitem__(0, 4), "chit '21'"),
    ("crt row missing", lambda r: r["tables"]["crt"].pop("hill"), "tables.crt"),
    ("crt below", lambda r: r["tables"]["crt"]["clear"].update(below="4/0"), "tables.crt['clear']"),
    ("crt short rows", lambda r: r["tables"]["crt"]["clear"]["rows"].pop(), "tables.crt['clear']"),
    (
        "ap red over black",
        lambda r: r["tables"]["action_points"]["rows"][0]["results"][0].update(red=5),
        "tables.action_points",
    ),
    (
        "number missing",
        lambda r: r["tables"]["numbers"].remove(find(r["tables"]["numbers"], "id", "drm_max")),
        "drm_max",
    ),
    ("turn 1 admin", lambda r: r["tables"]["turns"][0].update(admin_phase=True), "tables.turns"),
    ("initiative +3 first", lambda r: r["tables"]["initiative_track"][1].update(value=3), "initiative_track"),
    ("tec costs", lambda r: find(r["tables"]["terrain_effects"], "id", "clear").update(leg=None), "'clear'"),
    (
        "unknown placement",
        lambda r: r["scenarios"][1]["placements"][0].update(unit="nope"),
        "scenario 'opening-phase' placement of 'nope'",
    ),
    (
        "placed twice",
        lambda r: r["scenarios"][1]["placements"].append(dict(r["scenarios"][1]["placements"][0])),
        "placed twice",
    ),
    (
        "overstacked",
        lambda r: [find(r["scenarios"][1]["placements"], "unit", u).update(hex="3122") for u in ("3rtr-4", "5rtr-4")],
        "scenario 'opening-phase' hex 3122",
    ),
    (
        "bad assignment",
        lambda r: find(r["scenarios"][2]["placements"], "unit", "18-flak").update(assigned_to="ariete"),
        "placement of '18-flak'",
    ),
    (
        "wrong entry",
        lambda r: find(r["scenarios"][2]["reinforcements"], "unit", "6rtr").update(entry=["axis-via-balbia"]),
        "reinforcement '6rtr'",
    ),
    (
        "reinforcement too late",
        lambda r: find(r["scenarios"][1]["reinforcements"], "unit", "6rtr").update(turn=5),
        "reinforcement '6rtr'",
    ),
    (
        "route off its road",
        lambda r: find(r["routes"], "id", "via-balbia")["hexes"].insert(1, "0500"),
        "route 'via-balbia'",
    ),
    ("unnamed trail", lambda r: find(r["routes"], "id", "hacheim-abd")["hexes"].pop(), "no named route"),
    (
        "escarpment not a ridge",
        lambda r: find(r["escarpments"], "id", "rigel-ridge")["hexsides"].append("0101/0102"),
        "escarpment 'rigel-ridge'",
    ),
    (
        "setup in enemy mines",
        lambda r: find(r["scenarios"][1]["placements"], "unit", "85").update(hex="2101"),
        "enemy Minefield 2101",
    ),
    ("default terrain", lambda r: r["map"].update(terrain="swamp"), "default terrain"),
    (
        "box without hexes",
        lambda r: r["boxes"].append({"id": "ghost", "name": "Ghost box", "source": "reconstructed: x"}),
        "box 'ghost'",
    ),
    (
        "box feature without box",
        lambda r: find(r["map"]["hexes"], "id", "2712").update(features=["box", "trail"]),
        "map hex '2712'",
    ),
    (
        "no axis entry",
        lambda r: [s.update(entry=False) for s in r["supply_sources"] if s["side"] == "axis"],
        "the axis side has no map-edge Major source",
    ),
    (
        "tobruk source moved",
        lambda r: find(r["supply_sources"], "id", "tobruk").update(hex="4304"),
        "supply source 'tobruk'",
    ),
    ("inside leaks", lambda r: r["tobruk"]["inside"].append("3701"), "tobruk: inside hex 3701"),
    ("tobruk inside lacks tobruk", lambda r: r["tobruk"]["inside"].remove("4303"), "tobruk: 'inside'"),
    ("support out of range", lambda r: find(r["hqs"], "id", "7armd-hq").update(support=16), "hq '7armd-hq'"),
    (
        "hq of unknown formation",
        lambda r: r["hqs"].append(dict(r["hqs"][0], id="8armd-hq", formation="8armd")),
        "hq '8armd-hq'",
    ),
    (
        "axis leg division",
        lambda r: find(r["formations"], "id", "brescia").update(leg_infantry_division=True),
        "formation 'brescia'",
    ),
    ("more armour disrupted", lambda r: _unit(r, "i-8")["armour_points"].update(disrupted=7), "unit 'i-8'"),
    ("no movement", lambda r: _unit(r, "i-8").update(ma=0), "unit 'i-8'"),
    ("axis cannibalised", lambda r: _unit(r, "i-8").update(cannibalise="tank"), "unit 'i-8'"),
    ("british half-brigade", lambda r: _unit(r, "69-bde").update(half_brigade=True), "unit '69-bde'"),
    ("combined arms on infantry", lambda r: _unit(r, "69-bde").update(no_combined_arms=True), "unit '69-bde'"),
    ("independent with stripe", lambda r: _unit(r, "stopcol").update(formation="50div"), "unit 'stopcol'"),
    ("assignable without targets", lambda r: _unit(r, "kg-hecker").update(assign_to=[]), "unit 'kg-hecker'"),
    ("formation unit assignable", lambda r: _unit(r, "104").update(assign_to=["15pz"]), "unit '104'"),
    ("orphan alternate", lambda r: find(r["chits"], "id", "a10").update(number=30), "chit 'a10'"),
    ("faces swapped", lambda r: find(r["chits"], "id", "5")["low"].update(effectiveness=[5, 6, 7]), "chit '5'"),
    (
        "terrain without tec",
        lambda r: r["tables"]["terrain_effects"].remove(find(r["tables"]["terrain_effects"], "id", "hill")),
        "'hill'",
    ),
    ("nine turns", lambda r: r["tables"]["turns"].append(dict(r["tables"]["turns"][-1], number=9)), "tables.turns"),
    ("scenario too long", lambda r: r["scenarios"][1].update(last_turn=9), "scenario 'opening-phase'"),
    ("unknown air", lambda r: r["scenarios"][0].update(air_units=["jg27"]), "scenario 'bir-hacheim'"),
    (
        "air rule outside scenario",
        lambda r: find(r["scenarios"][0]["special_rules"], "id", "one-air-mission").update(air=["i-stg3"]),
        "special rule 'one-air-mission'",
    ),
    (
        "rule for unknown formation",
        lambda r: find(r["scenarios"][0]["special_rules"], "id", "only-ariete").update(formation="folgore"),
        "special rule 'only-ariete'",
    ),
    (
        "two hqs in a hex",
        lambda r: find(r["scenarios"][1]["placements"], "unit", "1sa-hq").update(hex="2511"),
        "hex 2511",
    ),
    (
        "both sides in a hex",
        lambda r: find(r["scenarios"][1]["placements"], "unit", "recam").update(hex="2824"),
        "hex 2824",
    ),
    (
        "hq among the enemy",
        lambda r: find(r["scenarios"][1]["placements"], "unit", "ariete-hq").update(hex="2824"),
        "hex 2824: units of both sides",
    ),
    (
        "unknown level formation",
        lambda r: r["scenarios"][1]["formations"].append(
            {"formation": "folgore", "level": 2, "source": "reconstructed: x"}
        ),
        "folgore",
    ),
    ("negative level", lambda r: r["scenarios"][1]["formations"][0].update(level=-1), "below level 0"),
    ("auto victory off map", lambda r: r["scenarios"][2].update(automatic_victory_hex="3000"), "automatic_victory_hex"),
    ("objective off map", lambda r: r["scenarios"][2]["objectives"][0].update(hex="3000"), "objective 'tobruk'"),
]


@pytest.mark.parametrize(("why", "breaks", "names"), BROKEN, ids=[b[0] for b in BROKEN])
def test_each_cross_check_refuses_a_broken_copy_naming_the_record(
    raw: Raw, why: str, breaks: Callable[[Raw], object], names: str
) -> None:
    broken = copy.deepcopy(raw)
    breaks(broken)
    assert names in rejected(broken), why


def test_strict_json_refuses_floats_and_duplicate_keys() -> None:
    text = default_pack_bytes().decode()
    for bad in (text.replace('"cs":9', '"cs":9.0', 1), text.replace('"cs":9', '"cs":9,"cs":9', 1)):
        with pytest.raises(DataPackError) as info:
            load_pack(bad.encode())
        assert info.value.code.id == "R006"


# --- the map --------------------------------------------------------------------------------------------------------


def test_map_is_about_fifteen_hundred_hexes_and_connected(pack: GazalaPack, grid: HexMap) -> None:
    assert 1400 <= len(grid) <= 1600
    start = grid.hexes[0]
    seen = {start}
    todo = [start]
    while todo:
        for there in grid.neighbours(todo.pop()):
            if there not in seen:
                seen.add(there)
                todo.append(there)
    assert len(seen) == len(grid)


@pytest.mark.rule("3.1")
def test_r3_1_hex_ids_are_ccrr_with_row_00(pack: GazalaPack, grid: HexMap) -> None:
    assert pack.map.rows[0] == 0 and pack.map.cols[0] == 1
    assert "2100" in grid and grid.terrain(HexId("2100")) == "village"
    # the examples' neighbours (§7.3.6, §7.4, §7.5.1) touch on this layout
    for a, b in (("2623", "2622"), ("2721", "2621"), ("2707", "2607"), ("2521", "2622")):
        assert grid.hexside(HexId(a), HexId(b)) is not None, (a, b)


NAMED = {
    "Ain el Gazala": ("2100", "10.2"),
    "Bir Hacheim": ("2521", "10.1"),
    "Knightsbridge": ("3012", "10.2"),
    "Acroma": ("3305", "10.2"),
    "El Adem": ("4112", "10.2"),
    "Tobruk": ("4303", "5.7.3"),
}


@pytest.mark.rule("10.2")
@pytest.mark.parametrize("name", sorted(NAMED))
def test_r10_2_victory_places_are_the_printed_hexes(pack: GazalaPack, name: str) -> None:
    assert pack.place(name) == NAMED[name][0]


def test_history_puts_the_places_where_they_were(pack: GazalaPack, grid: HexMap) -> None:
    at = {
        name: col_row(pack.place(name))
        for name in (
            "Ain el Gazala",
            "Bir Hacheim",
            "Knightsbridge",
            "Acroma",
            "El Adem",
            "Tobruk",
            "Sidi Muftah",
            "Got el Ualeb",
            "Bir Harmat",
            "The Cauldron",
            "Bir el Gubi",
            "Sidi Rezegh",
            "Ed Duda",
            "Belhamed",
            "Rotonda Segnali",
            "Alam Hamza",
            "Eleut et Tamar",
            "Sidra Ridge",
            "Rigel Ridge",
            "Bir el Aslagh",
            "Retma",
        )
    }
    col = {k: v[0] for k, v in at.items()}
    row = {k: v[1] for k, v in at.items()}
    # the Gazala line runs south from the coast at Gazala to Bir Hacheim, with the 150th box between
    assert row["Ain el Gazala"] < row["Alam Hamza"] < row["Sidi Muftah"] < row["Got el Ualeb"] < row["Bir Hacheim"]
    assert col["Ain el Gazala"] <= col["Sidi Muftah"] <= col["Bir Hacheim"]
    # Tobruk lies east on the coast; Acroma between Gazala and Tobruk; El Adem south of Tobruk
    assert col["Ain el Gazala"] < col["Acroma"] < col["Tobruk"]
    assert row["Tobruk"] < row["El Adem"] and abs(col["Tobruk"] - col["El Adem"]) <= 3
    for coastal in ("Ain el Gazala", "Tobruk"):
        assert len(grid.neighbours(HexId(pack.place(coastal)))) < 6  # the sea is off the map
    # Knightsbridge behind the line, south of Acroma, west of El Adem; the Cauldron between it and the 150th box
    assert col["Sidi Muftah"] < col["The Cauldron"] < col["Knightsbridge"] < col["El Adem"]
    assert row["Acroma"] < row["Rigel Ridge"] < row["Knightsbridge"]
    assert row["Sidra Ridge"] < row["The Cauldron"] < row["Bir el Aslagh"]
    # Bir Harmat south-west of Knightsbridge; Bir el Gubi south of El Adem and south-east of Bir Hacheim
    assert col["Bir Harmat"] < col["Knightsbridge"] and row["Bir Harmat"] > row["Knightsbridge"]
    assert row["Bir el Gubi"] > row["Bir Hacheim"] and col["Bir el Gubi"] > col["Bir Hacheim"]
    assert row["Bir el Gubi"] > row["El Adem"]
    assert row["Retma"] > row["Bir Hacheim"] and col["Retma"] > col["Bir Hacheim"]
    # Sidi Rezegh east of El Adem; Ed Duda and Belhamed between Tobruk and Sidi Rezegh
    assert col["El Adem"] < col["Ed Duda"] <= col["Belhamed"] <= col["Sidi Rezegh"]
    assert row["Tobruk"] < row["Ed Duda"] < row["Sidi Rezegh"]
    # the Axis rear is west of the line
    assert col["Rotonda Segnali"] < col["Ain el Gazala"]
    assert col["Eleut et Tamar"] < col["Acroma"]


def _route(grid: HexMap, start: str, goal: str, feature: str) -> bool:
    seen = {start}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        if here == goal:
            return True
        for there, side in grid.sides(HexId(here)):
            if there not in seen and side.has(feature):
                seen.add(there)
                todo.append(there)
    return False


def test_roads_and_trails_join_the_battlefield(pack: GazalaPack, grid: HexMap) -> None:
    via_balbia = ("axis-via-balbia", "cw-via-balbia")
    ends = [find([s.model_dump() for s in pack.supply_sources], "id", i)["hex"] for i in via_balbia]
    assert _route(grid, ends[0], pack.place("Ain el Gazala"), "road")
    assert _route(grid, pack.place("Ain el Gazala"), pack.place("Tobruk"), "road")
    assert _route(grid, pack.place("Tobruk"), ends[1], "road")
    assert _route(grid, pack.place("Tobruk"), pack.place("El Adem"), "road")
    # the Trigh Capuzzo through the line, the Cauldron, Knightsbridge and El Adem; the Bir Hacheim - Acroma track
    assert _route(grid, "0109", pack.place("Knightsbridge"), "trail")
    assert _route(grid, pack.place("Knightsbridge"), pack.place("El Adem"), "trail")
    assert _route(grid, pack.place("Bir Hacheim"), pack.place("Acroma"), "trail")
    assert _route(grid, "0117", pack.place("Bir el Gubi"), "trail")


def test_named_roads_trails_ridges_and_belts(pack: GazalaPack) -> None:
    routes = {r.name: r for r in pack.routes}
    assert routes["Via Balbia"].kind == "road" and routes["Via Balbia"].hexes[0] == "0100"
    assert pack.place("Ain el Gazala") in routes["Via Balbia"].hexes and "4303" in routes["Via Balbia"].hexes
    assert {"Knightsbridge", "El Adem"} <= {n for h in routes["Trigh Capuzzo"].hexes for n in _names(pack, h)}
    assert "Bir el Gubi" in {n for h in routes["Trigh el Abd"].hexes for n in _names(pack, h)}
    assert {e.name for e in pack.escarpments} >= {"Rigel ridge", "Sidra ridge", "Aslagh ridge", "Wadi es Sehel"}
    marsh = pack.minefield(pack.place("Mine marsh"))
    assert marsh is not None and marsh.group == "mine-marsh"
    groups = {m.group for m in pack.minefields}
    assert {"gazala-line", "mine-marsh", "tobruk-perimeter", "bir-hacheim", "axis-front"} <= groups


def _names(pack: GazalaPack, hex_id: str) -> tuple[str, ...]:
    return next((r.names for r in pack.map.hexes if r.id == hex_id), ())


@pytest.mark.rule("1")
def test_r1_and_r10_stated_sizes_and_times(pack: GazalaPack) -> None:
    assert (pack.number("hex_miles_tenths"), pack.number("line_km"), pack.number("line_miles")) == (22, 70, 43)
    assert [pack.number(f"sc{n}_hours") for n in (1, 2, 3)] == [1, 5, 10]


@pytest.mark.rule("3.1.2")
def test_r3_1_2_escarpments_are_hexside_features(pack: GazalaPack, grid: HexMap) -> None:
    kinds = {f for side in grid.hexsides.values() for f in side.features}
    assert {"ridge", "wadi", "road", "trail", "sea"} <= kinds
    # the Rigel ridge lies across the way from Knightsbridge north to Acroma
    column = [HexId(f"30{r:02d}") for r in range(12, 4, -1)]
    sides = [grid.hexside(a, b) for a, b in itertools.pairwise(column)]
    assert any(side is not None and side.has("ridge") for side in sides)
    ridge = pack.terrain_effect("ridge")
    assert ridge.all_mp and ridge.attacker_tp_halved and ridge.blocks_zoc


@pytest.mark.rule("3.1.3")
def test_r3_1_3_minefields_and_boxes_have_owners(pack: GazalaPack, grid: HexMap) -> None:
    box = pack.minefield("2622")
    assert box is not None and box.box == "bir-hacheim" and box.owner == "cw"  # §7.4: a Minefield & Box hex
    mine = pack.minefield("2621")
    assert mine is not None and mine.box is None and mine.owner == "cw"  # §7.3.6: an enemy minefield to the Axis
    for clear in ("2623", "2721", "2607", "2707"):  # the examples' Axis and combat hexes are not minefields
        assert pack.minefield(clear) is None
    boxes = {m.box for m in pack.minefields if m.box}
    assert {"gazala", "151-bde", "69-bde", "150-bde", "bir-hacheim", "knightsbridge", "acroma", "el-adem"} <= boxes
    assert any(m.owner == "axis" for m in pack.minefields)
    assert pack.minefield("3305") is not None and pack.minefield("3305").box == "acroma"  # type: ignore[union-attr]


def test_the_line_can_be_turned_only_south_of_bir_hacheim(pack: GazalaPack, grid: HexMap) -> None:
    """The minefield belt runs unbroken from the sea to Bir Hacheim (history's 'open southern flank')."""
    mined = {m.hex for m in pack.minefields if m.owner == "cw"}
    goal = pack.place("Knightsbridge")

    def reachable(max_row: int) -> bool:
        seen = {"0109"}
        todo = deque(["0109"])
        while todo:
            here = todo.popleft()
            if here == goal:
                return True
            for there in grid.neighbours(HexId(here)):
                if there not in seen and (there not in mined or there == goal) and col_row(there)[1] <= max_row:
                    seen.add(there)
                    todo.append(there)
        return False

    assert not reachable(22)
    assert reachable(29)


@pytest.mark.rule("5.7.3")
def test_r5_7_3_tobruk_perimeter_and_supply(pack: GazalaPack, grid: HexMap) -> None:
    tob = pack.tobruk
    assert tob.hex == "4303" and tob.perimeter[0] == "3902" and tob.perimeter[-1] == "4706"
    assert "4303" in tob.inside
    assert all(grid.hexside(HexId(a), HexId(b)) for a, b in zip(tob.perimeter, tob.perimeter[1:], strict=False))
    tobruk = [s for s in pack.supply_sources if s.kind == "tobruk"]
    assert [(s.hex, s.entry) for s in tobruk] == [("4303", False)]
    assert {s.side for s in pack.supply_sources if s.entry} == {"axis", "cw"}


@pytest.mark.rule("5.3.2")
def test_r5_3_2_sea_hexsides_inside_tobruk(pack: GazalaPack, grid: HexMap) -> None:
    seas = [side for side in grid.hexsides.values() if side.has("sea")]
    assert seas and all(side.a in pack.tobruk.inside and side.b in pack.tobruk.inside for side in seas)
    assert pack.terrain_effect("sea").prohibited


@pytest.mark.rule("7.5.2.2")
def test_r7_5_2_2_friendly_edges(pack: GazalaPack) -> None:
    assert (pack.setting("axis_edge"), pack.setting("cw_edge")) == ("west", "east")
    for source in pack.supply_sources:
        if source.entry:
            assert col_row(source.hex)[0] == (pack.map.cols[0] if source.side == "axis" else pack.map.cols[1])


# --- counters -------------------------------------------------------------------------------------------------------


@pytest.mark.rule("3")
def test_r3_three_hundred_eighty_three_counters(pack: GazalaPack) -> None:
    total = len(pack.units) + len(pack.hqs) + len(pack.air_units) + len(pack.chits)
    total += sum(m.count for m in pack.markers)
    assert total == pack.number("counters") == 383


@pytest.mark.rule("3.2")
def test_r3_2_the_formations(pack: GazalaPack) -> None:
    axis = {f.name for f in pack.formations if f.side == "axis"}
    cw = {f.name for f in pack.formations if f.side == "cw"}
    assert axis == {
        "90. leichte Afrika-Division",
        "15. Panzer-Division",
        "21. Panzer-Division",
        "15. Schützen-Brigade",
        "Littorio Division",
        "Pavia Division",
        "Brescia Division",
        "Trento Division",
        "Sabratha Division",
        "Ariete Division",
        "Trieste Division",
    }
    assert cw == {
        "7th Armoured Division",
        "1st Armoured Division",
        "50th (Northumbrian) Division",
        "1st Free French Brigade",
        "5th Indian Division",
        "1st South African Division",
        "2nd South African Division",
    }
    assert all(pack.hq_of(f.id).formation == f.id for f in pack.formations)


@pytest.mark.rule("3.2")
def test_r3_2_ratings_within_the_printed_ranges(pack: GazalaPack) -> None:
    assert (pack.number("eff_min"), pack.number("eff_max"), pack.number("strength_max")) == (2, 7, 15)
    assert all(2 <= u.eff.disrupted < u.eff.front <= 7 and 1 <= u.cs <= 15 for u in pack.units)
    types = {u.type for u in pack.units}
    assert {"pz3", "pz4", "m14_41", "valentine", "matilda", "m3_grant", "crusader", "flak88"} <= types
    assert all((u.armour == "tp") == (u.is_tank or u.is_recce) for u in pack.units)


EXAMPLE_UNITS = [
    ("104", "7.5.1", {"cs": 9, "eff": 7}),
    ("3", "7.5.1.1", {"cs": 2, "eff": 7}),
    ("18-flak", "7.5.1", {"cs": 2, "eff": 6, "points": 8}),
    ("3rtr-4", "7.5.1", {"cs": 4, "eff": 5, "points": 6}),
    ("7mot", "7.5.1", {"cs": 12, "eff": 5}),
    ("i-8", "7.5.1.5", {"points": 6}),
    ("ii-8", "7.5.1.5", {"points": 5}),
    ("6saac", "7.5.1.5", {"points": 3}),
    ("8-bers", "7.5.1.5", {"points": 2}),
]


@pytest.mark.rule("7.5.1")
@pytest.mark.parametrize(("ident", "section", "values"), EXAMPLE_UNITS, ids=[u[0] for u in EXAMPLE_UNITS])
def test_r7_5_1_worked_examples_counter_values(
    pack: GazalaPack, ident: str, section: str, values: dict[str, int]
) -> None:
    unit = pack.unit(ident)
    got = {"cs": unit.cs, "eff": unit.eff.front, "points": unit.armour_points.front}
    assert {k: got[k] for k in values} == values
    assert any(
        s.startswith(f"rulebook §{section}") or s.startswith("rulebook §7.5.1")
        for s in unit.sources.model_dump().values()
    )


@pytest.mark.rule("7.5.1")
def test_r7_5_1_example_hq_values(pack: GazalaPack) -> None:
    hq = pack.hq("21pz-hq")
    assert (hq.engineer, hq.support) == (-2, 6)  # §7.4 example -2 Eng.; §7.5.1.5 example C +6
    assert -(-pack.hq("7armd-hq").support // 2) == 3  # half its support points, rounded up: +3


@pytest.mark.rule("5.8")
def test_r5_8_italian_and_british_hqs_have_five_hex_command_range(pack: GazalaPack) -> None:
    for hq in pack.hqs:
        formation = pack.formation(hq.formation)
        if formation.nationality in {"italian", "british"}:
            assert hq.command_range == pack.example("command-range")["range"] == 5
    assert (pack.number("command_path_leg"), pack.number("command_path_motorised")) == (10, 20)
    heavy = [u for u in pack.units if u.is_heavy_tank]
    assert heavy and all(u.ma == pack.number("leg_ma") == 3 and u.movement == "leg" for u in heavy)
    assert all(u.ma >= pack.number("motorised_ma_min") for u in pack.units if u.movement == "motorised")


@pytest.mark.rule("5.5.2")
def test_r5_5_2_assignment_restrictions(pack: GazalaPack) -> None:
    axis = {f.id for f in pack.formations if f.side == "axis"}
    assert set(pack.unit("kpf-flak").assign_to) == axis == set(pack.unit("kg-hecker").assign_to)
    assert set(pack.unit("18-flak").assign_to) == set(pack.unit("35-flak").assign_to) == {"90le", "15pz", "21pz"}
    cw = {u.id: set(u.assign_to) for u in pack.units if u.side == "cw" and u.independent == "assignable"}
    assert cw and all(targets == {"50div", "1sa", "2sa", "5ind"} for targets in cw.values())
    assert {u.id for u in pack.units if u.independent == "permanent"} >= {"stopcol", "seacol"}


@pytest.mark.rule("5.4")
def test_r5_4_units_without_zoc(pack: GazalaPack) -> None:
    no_zoc = {u.id for u in pack.units if u.no_zoc}
    assert no_zoc == {"18-flak", "35-flak", "kpf-flak", "kg-hecker"}
    assert pack.unit("kg-hecker").movement == "half"  # §7.3.3 half-leg, half-motorised


@pytest.mark.rule("5.3.1")
def test_r5_3_1_stacking_numbers_and_half_brigades(pack: GazalaPack) -> None:
    assert [pack.number(n) for n in ("axis_stack_hq", "axis_stack_infantry", "axis_stack_panzer_recce")] == [1, 1, 2]
    assert [pack.number(n) for n in ("cw_stack_units", "cw_stack_leg_infantry", "cw_stack_hq_free")] == [2, 1, 1]
    assert {u.id for u in pack.units if u.half_brigade} == {"ff-1", "ff-2"}


@pytest.mark.rule("9.3")
def test_r9_3_cannibalisation_types(pack: GazalaPack) -> None:
    assert {pack.unit(i).cannibalise for i in ("stopcol", "seacol")} == {"leg_infantry"}
    assert all(u.cannibalise == "heavy_tank" for u in pack.units if u.is_heavy_tank)
    assert all(u.cannibalise == "tank" for u in pack.units if u.side == "cw" and u.is_tank and not u.is_heavy_tank)
    assert all(u.cannibalise is None for u in pack.units if u.side == "axis")


@pytest.mark.rule("10.3")
def test_r10_3_dak_and_xx_corps_losses(pack: GazalaPack) -> None:
    grouped = {f.id for f in pack.formations if f.loss_group == "dak_xx"}
    assert {"15pz", "21pz", "ariete", "trieste"} <= grouped and "littorio" not in grouped
    assert all(pack.unit(i).loss_group == "dak_xx" for i in ("18-flak", "35-flak", "kpf-flak", "recam"))


@pytest.mark.rule("3.4")
def test_r3_4_axis_air_units(pack: GazalaPack) -> None:
    assert "2-stormo" in {a.id for a in pack.air_units}
    assert pack.number("air_prepared") <= len(pack.air_units)


# --- chits ----------------------------------------------------------------------------------------------------------


@pytest.mark.rule("7.5.1.2")
def test_r7_5_1_2_twenty_nine_chits_and_seven_linear_replacements(pack: GazalaPack) -> None:
    assert sorted(c.number for c in pack.chits if not c.alternate) == list(range(1, CHIT_COUNT + 1))
    assert sorted(c.id for c in pack.chits if c.alternate) == sorted(f"a{n}" for n in (10, 14, 15, 16, 17, 18, 29))
    for chit in pack.chits:
        assert all(1 <= m <= 3 for face in (chit.low, chit.high) for row in face.multipliers for m in row)


@pytest.mark.rule("7.5.1.2")
@pytest.mark.parametrize("linear", [False, True])
def test_r7_5_1_2_better_effectiveness_and_prepared_attacks_draw_higher(pack: GazalaPack, linear: bool) -> None:
    """ "Statistically, a unit has a better chance to get a high modifier when it has a better Efficiency Rating and
    if it is conducting a Prepared Attack or has Improved Defence" — with the original and the linear chits."""
    pool = {c.number: c for c in pack.chits if not c.alternate}
    if linear:
        pool.update({c.number: c for c in pack.chits if c.alternate})
    total = {(eff, col): sum(c.multiplier(eff, col) for c in pool.values()) for eff in range(2, 8) for col in range(3)}
    for col in range(3):
        assert [total[eff, col] for eff in range(2, 8)] == sorted(total[eff, col] for eff in range(2, 8))
    for eff in range(2, 8):
        assert total[eff, 0] < total[eff, 1] < total[eff, 2]


PRINTED_LOW = {
    "10": [[1, 1, 3], [2, 1, 2], [2, 2, 3]],
    "29": [[1, 1, 2], [1, 3, 3], [1, 1, 3]],
    "15": [[3, 3, 1], [1, 2, 2], [1, 2, 3]],
    "18": [[1, 1, 1], [1, 2, 3], [1, 2, 2]],
    "a10": [[1, 1, 2], [2, 1, 3], [2, 2, 1]],
    "a29": [[1, 1, 2], [1, 3, 3], [1, 1, 2]],
}


@pytest.mark.rule("14")
@pytest.mark.parametrize("ident", sorted(PRINTED_LOW))
def test_r14_chit_note_faces_as_printed(pack: GazalaPack, ident: str) -> None:
    face = pack.chit(ident).low
    assert [list(row) for row in face.multipliers] == PRINTED_LOW[ident]
    assert face.source.startswith("rulebook §14")


@pytest.mark.rule("7.5.1.2")
def test_r7_5_1_2_combat_example_defender_strength_from_chit_21(pack: GazalaPack) -> None:
    """Regular Defence is the centre column: 104 9 x 3 + 3 2 x 3 + 18 FLAK 2 x 2 = 37 (chit Nº 21/29)."""
    chit = pack.chit("21")
    parts = [pack.unit(i).cs * chit.multiplier(pack.unit(i).eff.front, 1) for i in ("104", "3", "18-flak")]
    example = pack.example("combat-strength")
    assert parts == [example["axis_104"], example["axis_3"], example["axis_18flak"]] == [27, 6, 4]
    assert sum(parts) == example["axis_total"] == 37


@pytest.mark.rule("7.5.1.2")
def test_r7_5_1_2_combat_example_attacker_strength_from_chit_1(pack: GazalaPack) -> None:
    """The Commonwealth's 24 + 8 = 32 (Eff 5, Regular x2) is chit Nº 1/29's centre cell of the '5' row; the rest of
    its 5-6-7 face is the example's graphic read column by column (docs/gazala-data.md R5)."""
    example = pack.example("combat-strength")
    chit = pack.chit("1")
    assert pack.unit("7mot").cs * chit.multiplier(5, 1) == example["cw_7mot"] == 24
    assert pack.unit("3rtr-4").cs * chit.multiplier(5, 1) == example["cw_3rtr"] == 8
    assert example["cw_total"] == 32
    assert [list(r) for r in chit.high.multipliers] == [[1, 2, 3], [2, 3, 3], [1, 2, 2]]


# --- tables ---------------------------------------------------------------------------------------------------------


@pytest.mark.rule("3.1.1")
def test_r3_1_1_crt_rows_from_least_to_most_favourable(pack: GazalaPack) -> None:
    assert set(pack.tables.crt) == set(CRT_TERRAINS)  # the order is CRT_TERRAINS (canonical JSON sorts keys)
    lefts = [pack.tables.crt[t].odds_column(1, 1) for t in CRT_TERRAINS]
    assert all(left >= 0 for left in lefts[:3])  # 1:1 is on the clear, broken and hill rows
    for terrain in ("village", "poi"):
        assert pack.terrain_effect(terrain).crt_row == "broken"
    assert pack.terrain_effect("minefield-enemy").crt_row == "minefield"  # "Mines have no friends"


@pytest.mark.rule("7.5.1")
def test_r7_5_1_combat_example_ratio_shift_and_result(pack: GazalaPack) -> None:
    crt = pack.tables.crt["broken"]
    ratio = pack.example("combat-ratio")
    found = crt.resolve(ratio["attack"], ratio["defence"], roll=pack.example("combat-drm")["modified"], shift=1)
    assert (found.base, found.column) == ("2:3", "1:1")
    assert found.result == "2!/1!"  # attacker 2 hits + EC, defender 1 hit + EC (the narrative, notes §10 A2)
    result = pack.example("combat-result")
    assert (result["attacker_hits"], result["defender_hits"], result["attacker_red"], result["defender_red"]) == (
        2,
        1,
        1,
        1,
    )


@pytest.mark.rule("7.5.1")
def test_r7_5_1_below_the_leftmost_column_is_five_nil(pack: GazalaPack) -> None:
    for terrain in CRT_TERRAINS:
        crt = pack.tables.crt[terrain]
        assert crt.below == "5/0"
        assert crt.resolve(1, 100, roll=10, shift=3).result == "5/0"
    assert (pack.number("below_table_attacker_hits"), pack.number("below_table_defender_hits")) == (5, 0)


def _hits(cell: str) -> tuple[int, int]:
    attacker, defender = cell.replace("!", "").split("/")
    return int(attacker), int(defender)


@pytest.mark.rule("3.1.1")
def test_r3_1_1_the_crt_favours_the_defender_more_on_better_terrain(pack: GazalaPack) -> None:
    """Higher rolls and odds hurt the defender more; the same odds and roll hurt him less on better terrain."""
    crts = [pack.tables.crt[t] for t in CRT_TERRAINS]
    for crt in crts:
        for col in range(len(crt.columns)):
            column = [_hits(row.results[col]) for row in crt.rows]
            assert [d for _, d in column] == sorted(d for _, d in column)
            assert [a for a, _ in column] == sorted((a for a, _ in column), reverse=True)
        for row in crt.rows:
            assert [_hits(c)[1] for c in row.results] == sorted(_hits(c)[1] for c in row.results)
    for worse, better in itertools.pairwise(crts):  # CRT_TERRAINS: least to most favourable to the defender
        for label in set(better.columns) & set(worse.columns):
            for roll in range(1, 21):
                hurt = _hits(better.lookup(better.columns.index(label), roll).result)[1]
                assert hurt <= _hits(worse.lookup(worse.columns.index(label), roll).result)[1]


@pytest.mark.rule("7.5.2")
def test_r7_5_2_the_printed_results_are_cells_of_the_crt(pack: GazalaPack) -> None:
    cells = {c for crt in pack.tables.crt.values() for row in crt.rows for c in row.results}
    assert "3/1!" in cells  # hit distribution example: 3 / 1, the defender's hit needs an EC
    assert "3!/0" in cells  # the combat results illustration: 3 hits + EC / no hits
    hits = pack.example("hit-distribution")
    assert (hits["attacker_hits"], hits["defender_hits"], hits["defender_red"]) == (3, 1, 1)


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_drm_and_roll_bounds(pack: GazalaPack) -> None:
    assert [pack.number(n) for n in ("drm_min", "drm_max", "roll_min", "roll_max")] == [-12, 12, 1, 20]
    for crt in pack.tables.crt.values():
        assert crt.rows[0].rolls == "1" and crt.rows[-1].rolls == "20"
    drm = pack.example("combat-drm")
    parts = [drm[k] for k in ("support", "hq_support", "armour", "schwerpunkt", "failed_rbc")]
    assert parts == [-1, 3, -6, -pack.number("schwerpunkt_combat_drm"), pack.number("rbc_failed_drm")]
    assert sum(parts) == drm["total"] == -4 and drm["roll"] + drm["total"] == drm["modified"] == 6


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_armour_superiority_examples_from_pack_values(pack: GazalaPack) -> None:
    flak = pack.unit("18-flak").armour_points.front + pack.number("flak_defence_bonus")
    defender = flak + pack.terrain_effect("broken").at_bonus
    assert defender == pack.example("combat-armour")["defender_total"] == 12
    assert pack.unit("3rtr-4").armour_points.front - defender == pack.example("combat-armour")["drm"] == -6
    ex = pack.example("armour-examples")
    ii8 = pack.unit("ii-8").armour_points.front
    assert ii8 + pack.number("flak_attack_tp") - pack.unit("6saac").armour_points.front == ex["flak_case"] == 4
    assert ii8 - pack.unit("8-bers").armour_points.front == ex["at_case"] == 3
    b = pack.example("drm-example-b")
    assert pack.unit("3rtr-4").armour_points.front - pack.unit("8-bers").armour_points.front == b["armour"] == 4
    assert sum(b[k] for k in ("failed_rbc", "hq_support", "support", "armour")) == b["total"] == 8
    a = pack.example("drm-example-a")
    halved = pack.unit("i-8").armour_points.front // 2
    assert halved == a["tp_halved"] == 3
    assert pack.terrain_effect("minefield-friendly").attacker_tp_halved
    assert pack.unit("150-bde").armour_points.front + pack.terrain_effect("minefield-friendly").at_bonus == halved
    assert pack.number("support_improved_defence") == a["support"] == a["total"]
    c = pack.example("drm-example-c")
    assert sum(c[k] for k in ("support_def", "support_att", "hq_support", "armour")) == c["total"] == 5
    assert c["hq_support"] == pack.hq("21pz-hq").support


@pytest.mark.rule("7.5.1.5")
def test_r7_5_1_5_support_and_hq_numbers(pack: GazalaPack) -> None:
    names = (
        "support_regular",
        "support_prepared",
        "support_prepared_other",
        "support_regular_defence",
        "support_improved_defence",
        "support_improved_other",
        "hq_support_regular_divisor",
    )
    assert [pack.number(n) for n in names] == [1, 2, 1, -1, -2, -1, 2]
    assert (pack.number("flak_attack_tp"), pack.number("flak_defence_bonus")) == (2, 3)


@pytest.mark.rule("5.6.1")
def test_r5_6_1_combat_example_effectiveness_checks(pack: GazalaPack) -> None:
    """An EC passes at or below the Effectiveness Rating: the example's rolls against the pack's ratings."""
    ex = pack.example("combat-ecs")
    rolls = {
        "104": ex["def_104"],
        "3": ex["def_3"],
        "18-flak": ex["def_18flak"],
        "3rtr-4": ex["att_3rtr"],
        "7mot": ex["att_7mot"],
    }
    passed = {ident: roll <= pack.unit(ident).eff.front for ident, roll in rolls.items()}
    assert passed == {"104": False, "3": True, "18-flak": True, "3rtr-4": False, "7mot": True}
    assert ex["refit_104"] <= pack.unit("104").eff.disrupted  # the Refit EC uses the Disrupted side (notes B16)
    after = pack.example("combat-after")
    assert (pack.unit("18-flak").cs - 1, pack.unit("3rtr-4").cs - 1) == (after["flak_left"], after["rtr_left"])


@pytest.mark.rule("7.5.1.1")
def test_r7_5_1_1_retreat_before_combat_example(pack: GazalaPack) -> None:
    ex = pack.example("combat-rbc")
    half = -(-pack.unit("3").eff.front // pack.number("rbc_recce_divisor"))
    assert half == ex["axis_drm"] == 4
    assert ex["axis_roll"] + half == ex["axis_total"] == ex["cw_roll"] == 7  # not greater: the retreat fails
    assert ex["failed_drm"] == pack.number("rbc_failed_drm") == 2


@pytest.mark.rule("7.5.1.4")
def test_r7_5_1_4_air_support_limits(pack: GazalaPack) -> None:
    assert [pack.number(n) for n in ("air_hasty", "air_regular", "air_prepared", "air_shift")] == [1, 2, 3, 1]


@pytest.mark.rule("7.3.6")
def test_r7_3_6_minefield_check_example_cells(pack: GazalaPack) -> None:
    table = pack.tables.minefield_check
    ex = pack.example("minefield-check")
    assert ex["roll_104"] + ex["drm_2623"] == ex["mod_104"] == 3
    assert ex["roll_hecker"] + ex["drm_2623"] == ex["mod_hecker"] == -2
    assert ex["drm_2623"] == pack.hq("21pz-hq").engineer + pack.number("kg_hecker_minefield_drm") == -5
    assert ex["roll_ii5"] + ex["drm_2721"] == ex["mod_ii5"] == 8
    cells = {
        ("infantry", ex["mod_104"]): "success",  # 104 (Panzergrenadier)
        ("tank", ex["mod_i5"]): "disrupt",  # I./5 disrupts
        ("infantry", ex["mod_hecker"]): "success",  # KG Hecker
        ("tank", ex["mod_ii5"]): "disrupt_loss",  # II./5: "1", disrupts and loses 1 SP
        ("recce", ex["mod_3"]): "success",  # 3.
    }
    for (column, roll), result in cells.items():
        assert table.lookup(table.named_column(column), roll).result == result, (column, roll)


@pytest.mark.rule("7.4")
def test_r7_4_breach_example_cells(pack: GazalaPack) -> None:
    table = pack.tables.minefield_breach
    ex = pack.example("minefield-breach")
    drm = pack.hq("21pz-hq").engineer + pack.number("kg_hecker_breach_drm") + pack.number("ezoc_breach_drm")
    assert drm == ex["drm"] == -2
    box = table.named_column("box")
    assert table.lookup(box, ex["roll_104"] + drm).result == "no_effect"
    assert table.lookup(box, ex["roll_hecker"] + drm).result == "success"
    assert pack.number("cost_breach") == 2


@pytest.mark.rule("7")
def test_r7_action_costs(pack: GazalaPack) -> None:
    names = (
        "cost_movement",
        "cost_breach",
        "cost_refit",
        "cost_improved_defence",
        "cost_hasty",
        "cost_regular_extra",
        "cost_prepared_extra",
        "ooc_cost_factor",
    )
    assert [pack.number(n) for n in names] == [1, 2, 1, 1, 1, 1, 2, 2]


@pytest.mark.rule("6.3.1")
def test_r6_3_1_action_points_table(pack: GazalaPack) -> None:
    table = pack.tables.action_points
    cells = [cell for row in table.rows for cell in row.results]
    assert max(c.black for c in cells) == pack.number("ap_black_max") == 7
    assert all(c.red <= c.black for c in cells)
    assert [row.rolls for row in table.rows] == [str(n) for n in range(1, 11)]
    # a higher level never gives fewer APs on the same roll
    for row in table.rows:
        blacks = [c.black for c in row.results]
        assert blacks == sorted(blacks)


@pytest.mark.rule("6.1")
def test_r6_1_initiative_track_and_ties(pack: GazalaPack) -> None:
    assert [s.value for s in pack.tables.initiative_track][:2] == [0, pack.number("initiative_first_space")] == [0, 2]
    assert pack.setting("initiative_ties") == "axis"


@pytest.mark.rule("5.9")
def test_r5_9_schwerpunkt_numbers(pack: GazalaPack) -> None:
    names = (
        "schwerpunkt_ap",
        "schwerpunkt_minefield_drm",
        "schwerpunkt_breach_drm",
        "schwerpunkt_combat_drm",
        "schwerpunkt_victory_ap",
    )
    assert [pack.number(n) for n in names] == [1, -2, -1, 2, 1]
    assert (
        pack.number("battle_victory_ap") + pack.number("schwerpunkt_victory_ap")
        == pack.number("battle_victory_ap_schwerpunkt")
        == pack.example("combat-after")["bonus_ap"]
    )


@pytest.mark.rule("7.5.2")
def test_r7_5_2_hit_distribution_branches(pack: GazalaPack) -> None:
    rules = {r.id: r for r in pack.tables.hit_distribution}
    assert rules["att-black-retreat"].first == "retreat" and rules["att-black-retreat"].rest == "loss"
    assert rules["def-black-retreat"].rest == "retreat"
    assert rules["def-red-fail"].rest == "forced_retreat" and rules["att-red-fail"].rest == "loss"
    assert rules["def-red-mixed-follow"].first == "forced_retreat"
    assert {(r.side, r.colour, r.case) for r in rules.values()} >= {
        (s, "red", c) for s in ("attacker", "defender") for c in ("all_pass", "all_fail", "mixed")
    }
    assert pack.number("attacker_retreat_hits") == 1


@pytest.mark.rule("7.5.2.3")
def test_r7_5_2_3_retreat_losses(pack: GazalaPack) -> None:
    names = ("retreat_overstack_loss", "forced_retreat_ezoc_loss", "forced_retreat_blocked_loss")
    assert [pack.number(n) for n in names] == [1, 1, 2]


@pytest.mark.rule("3.1.1")
def test_r3_1_1_terrain_effects_chart(pack: GazalaPack) -> None:
    broken = pack.terrain_effect("broken")
    assert broken.at_bonus == pack.example("combat-armour")["terrain_bonus"] == 1 and not broken.attacker_tp_halved
    enemy = pack.terrain_effect("minefield-enemy")
    assert enemy.all_mp and enemy.blocks_zoc
    road, trail = pack.terrain_effect("road"), pack.terrain_effect("trail")
    assert road.motorised is not None and trail.motorised is not None and road.motorised < trail.motorised


@pytest.mark.rule("4")
def test_r4_eight_turns_the_first_without_admin(pack: GazalaPack) -> None:
    turns = pack.tables.turns
    assert [t.number for t in turns] == list(range(1, pack.number("campaign_turns") + 1))
    assert [t.admin_phase for t in turns] == [False] + [True] * 7
    assert all(pack.number("turn_days_min") <= t.days <= pack.number("turn_days_max") for t in turns)
    assert sum(t.days for t in turns) == 27  # 26 May - 21 June 1942


@pytest.mark.rule("9.3")
def test_r9_3_replacement_turns(pack: GazalaPack) -> None:
    turns = pack.tables.turns
    assert [t.number for t in turns if t.axis_rp] == [2, 4, 6, 8]
    assert [t.number for t in turns if t.cw_cannibalise] == [4, 6, 8]
    assert pack.number("cw_cannibalise_from") == 4 and pack.number("axis_panzer_rp") == 1


@pytest.mark.rule("1")
def test_r1_scale(pack: GazalaPack) -> None:
    assert pack.number("hex_km_tenths") == 35


@pytest.mark.rule("5.2")
def test_r5_2_snafu_starts_with_the_axis(pack: GazalaPack) -> None:
    assert pack.setting("snafu_start") == "axis" and pack.number("snafu_rerolls") == 1


@pytest.mark.rule("5.4")
def test_r5_4_zoc_covers_the_six_neighbours(pack: GazalaPack, grid: HexMap) -> None:
    assert pack.number("zoc_hexes") == 6 == len(grid.neighbours(HexId("2712")))
    assert len(grid.zoc([HexId("2712")])) == pack.number("zoc_hexes") + 1  # the unit's own hex too


@pytest.mark.rule("5.8")
def test_r5_8_counts_of_states_sources_options(pack: GazalaPack) -> None:
    assert pack.number("command_states") == 3
    assert pack.number("supply_source_kinds") == 3  # Major and Tobruk records, and the Boxes
    assert {s.kind for s in pack.supply_sources} == {"major", "tobruk"} and pack.boxes
    assert pack.number("initiative_options") == 3 and pack.number("minimum_move_hexes") == 1


# --- scenarios ------------------------------------------------------------------------------------------------------


@pytest.mark.rule("10.1")
def test_r10_1_assault_on_bir_hacheim(pack: GazalaPack) -> None:
    s = pack.scenario("bir-hacheim")
    assert s.solitaire and s.automatic_victory_hex == "2521" and s.air_units == ("2-stormo",)
    kinds = {r.kind: r for r in s.special_rules}
    assert kinds["only_formation"].formation == "ariete"
    assert kinds["max_activations"].value == pack.number("sc1_max_activations") == 6
    assert kinds["air_missions"].value == 1 and kinds["static_side"].side == "cw"
    assert {"hq_always_supplied", "no_reinforcements"} <= set(kinds)
    assert {f.formation: f.level for f in s.formations}["ariete"] == 6
    assert {(v.per, v.vp) for v in s.vp_rows} == {("breached_minefield", 1), ("sp_lost", 1), ("disrupted_unit", 1)}
    assert [(lv.min_vp, lv.max_vp) for lv in s.levels][1:] == [(4, 4), (5, 5), (6, None)]
    sides = {pack.unit(p.unit).side for p in s.placements if p.unit in {u.id for u in pack.units}}
    assert sides == {"axis", "cw"} and not s.reinforcements
    assert any(p.hex == "2521" and p.unit.startswith("ff-") for p in s.placements)


@pytest.mark.rule("10.2")
def test_r10_2_opening_phase_victory(pack: GazalaPack) -> None:
    s = pack.scenario("opening-phase")
    assert (s.first_turn, s.last_turn) == (1, 4)
    obj = {o.id: o for o in s.objectives}
    assert [(b.in_command, b.out_of_command) for b in obj["tobruk"].bands] == [(6, 5)]
    assert obj["tobruk"].hex == "4303" and obj["tobruk"].kind == "last_occupant"
    for ident, hex_id in (("knightsbridge", "3012"), ("acroma", "3305")):
        assert obj[ident].hex == hex_id
        assert [(b.first_turn, b.last_turn, b.in_command, b.out_of_command) for b in obj[ident].bands] == [
            (1, 3, 3, 2),
            (4, 4, 2, 1),
        ]
    assert [
        (obj[i].hex, obj[i].kind, obj[i].bands[0].in_command, obj[i].bands[0].out_of_command)
        for i in ("el-adem", "bir-hacheim", "gazala")
    ] == [("4112", "definitive", 2, 1), ("2521", "definitive", 1, 0), ("2100", "definitive", 1, 0)]
    assert {(v.id, v.vp) for v in s.vp_rows} == {("axis-source-occupied", -2), ("axis-hq-oos", -1)}
    assert [(lv.winner, lv.min_vp, lv.max_vp) for lv in s.levels] == [
        ("axis", 8, None),
        ("axis", 7, 7),
        ("axis", 6, 6),
        ("none", 5, 5),
        ("cw", 4, 4),
        ("cw", 3, 3),
        ("cw", None, 2),
    ]
    assert all(r.turn <= 4 for r in s.reinforcements)


@pytest.mark.rule("10.3")
def test_r10_3_gazala_battles_victory(pack: GazalaPack) -> None:
    s = pack.scenario("gazala-battles")
    assert (s.first_turn, s.last_turn) == (1, 8)
    assert s.automatic_victory_hex == "4303"  # the text's "3703" is a typo (engineering notes §10 A1)
    obj = {o.id: [(b.first_turn, b.last_turn, b.in_command, b.out_of_command) for b in o.bands] for o in s.objectives}
    assert obj["tobruk"] == [(1, 4, 10, 8), (5, 6, 7, 6), (7, 8, 6, 5)]
    assert obj["knightsbridge"] == obj["acroma"] == [(1, 3, 3, 2), (4, 5, 2, 1), (6, 8, 1, 0)]
    assert obj["el-adem"] == [(1, 4, 2, 1), (5, 8, 1, 0)]
    assert obj["bir-hacheim"] == obj["gazala"] == [(1, 8, 1, 0)]
    marker = pack.example("vp-marker")
    assert obj["tobruk"][0] == (
        marker["first_turn"],
        marker["last_turn"],
        marker["in_command"],
        marker["out_of_command"],
    )
    rows = {v.id: (v.vp, v.threshold) for v in s.vp_rows}
    assert rows["cw-motorised-45"] == (1, 45) and rows["cw-motorised-65"] == (2, 65)
    assert [rows[f"dak-xx-{n}"] for n in (35, 45, 55)] == [(-1, 35), (-2, 45), (-3, 55)]
    assert rows["axis-source-occupied"] == (-2, None) and rows["axis-hq-lost"] == (-1, None)
    assert [(lv.min_vp, lv.max_vp) for lv in s.levels] == [
        (15, None),
        (13, 14),
        (11, 12),
        (10, 10),
        (9, 9),
        (8, 8),
        (None, 7),
    ]


@pytest.mark.rule("10")
def test_r10_scenario_start_and_gt1_initiative(pack: GazalaPack) -> None:
    assert pack.number("gt1_axis_initiative_drm") == 3
    assert (pack.setting("gt1_first_initiative"), pack.setting("gt1_marker_side")) == ("axis", "cw")
    assert pack.setting("first_phase") == "ops"
    for ident in ("opening-phase", "gazala-battles"):
        s = pack.scenario(ident)
        placed = {p.unit for p in s.placements}
        cw_units = {u.id for u in pack.units if u.side == "cw"}
        arriving = {r.unit for r in pack.scenario("gazala-battles").reinforcements}
        assert cw_units - arriving <= placed  # every Commonwealth unit has a fixed start
        assert any(r.kind == "schwerpunkt_at_start" for r in s.special_rules)


@pytest.mark.rule("9.4.3")
def test_r9_4_3_arriving_formations_start_at_their_maximum(pack: GazalaPack) -> None:
    s = pack.scenario("gazala-battles")
    starts = {f.formation for f in s.formations}
    assert "littorio" not in starts and "littorio-hq" in {r.unit for r in s.reinforcements}
    for start in s.formations:
        assert start.level == pack.formation(start.formation).max_level
    entries = {e for r in s.reinforcements for e in r.entry}
    assert all(next(x for x in pack.supply_sources if x.id == e).entry for e in entries)
    assert min(r.turn for r in s.reinforcements) == pack.number("reinforcements_from") == 2


# --- the documentation ----------------------------------------------------------------------------------------------


def _models(annotation: object) -> list[type[BaseModel]]:
    found: list[type[BaseModel]] = []
    model = isinstance(annotation, type) and issubclass(annotation, BaseModel)
    if model and getattr(annotation, "__module__", "") == "pbem.games.gazala.data":
        found.append(annotation)  # type: ignore[arg-type]
    for arg in get_args(annotation):
        found.extend(_models(arg))
    return found


def test_every_field_of_the_schema_is_documented() -> None:
    """docs/gazala-data.md names every field of every Gazala model (as `field` or `field[]`)."""
    doc = (Path(__file__).parents[3] / "docs" / "gazala-data.md").read_text(encoding="utf-8")
    todo: list[type[BaseModel]] = [GazalaPack]
    seen: set[type[BaseModel]] = set()
    missing: list[str] = []
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.add(model)
        for name, field in model.model_fields.items():
            if f"`{name}`" not in doc and f"`{name}[]`" not in doc and not name.endswith("sources"):
                missing.append(f"{model.__name__}.{name}")
            todo.extend(_models(field.annotation))
    assert not missing


@pytest.mark.rule("10.3")
def test_r10_3_the_campaign_uses_every_counter_once(pack: GazalaPack) -> None:
    s = pack.scenario("gazala-battles")
    used = [p.unit for p in s.placements] + [r.unit for r in s.reinforcements]
    assert sorted(used) == sorted([u.id for u in pack.units] + [h.id for h in pack.hqs])
    assert set(s.air_units) == {a.id for a in pack.air_units}


def test_the_documented_api_example_runs_and_its_comments_hold() -> None:
    doc = (Path(__file__).parents[3] / "docs" / "gazala-data.md").read_text(encoding="utf-8")
    namespace: dict[str, Any] = {}
    exec(doc.split("```python\n", 1)[1].split("```", 1)[0], namespace)
    pack = namespace["pack"]
    assert (pack.place("Bir Hacheim"), pack.unit("104").cs, pack.hq_of("21pz").engineer) == ("2521", 9, -2)
    assert (pack.chit("21").multiplier(7, 1), pack.number("drm_max")) == (3, 12)
    assert pack.tables.crt["broken"].resolve(32, 37, roll=6, shift=1).result == "2!/1!"
    assert namespace["schema"]["title"] == "GazalaPack"


@pytest.mark.rule("5.8")
@pytest.mark.parametrize("ident", ["bir-hacheim", "opening-phase", "gazala-battles"])
def test_r5_8_every_unit_starts_within_its_hqs_command_range(pack: GazalaPack, grid: HexMap, ident: str) -> None:
    """A setup display puts formations together: each unit is within Command Range (in hexes) of its HQ."""
    s = pack.scenario(ident)
    at = {p.unit: HexId(p.hex) for p in s.placements}
    units = {u.id: u for u in pack.units}
    for place in s.placements:
        unit = units.get(place.unit)
        formation = (unit.formation or place.assigned_to) if unit is not None else None
        if formation is None:
            continue
        hq = pack.hq_of(formation)
        assert grid.distance(at[place.unit], at[hq.id]) <= hq.command_range, place.unit


@pytest.mark.rule("5.7.2")
@pytest.mark.parametrize("ident", ["opening-phase", "gazala-battles"])
def test_r5_7_2_every_hq_starts_in_supply(pack: GazalaPack, grid: HexMap, ident: str) -> None:
    """Each HQ's road/trail chain reaches a friendly Major source (or Tobruk, or a Box) without entering an
    unbreached enemy minefield: leg HQs on or next to it, motorised HQs within Command Range (§5.7.2, §5.7.3)."""
    s = pack.scenario(ident)
    for side in ("axis", "cw"):
        enemy_mines = {m.hex for m in pack.minefields if m.owner != side}
        sources = [x.hex for x in pack.supply_sources if x.side == side]
        chain = set(sources)
        todo = deque(sources)
        while todo:
            here = todo.popleft()
            for there, hexside in grid.sides(HexId(here)):
                if there not in chain and there not in enemy_mines and hexside.has("road", "trail"):
                    chain.add(there)
                    todo.append(there)
        boxes = {m.hex for m in pack.minefields if m.box} if side == "cw" else set()
        for place in s.placements:
            if place.unit not in {h.id for h in pack.hqs}:
                continue
            hq = pack.hq(place.unit)
            if pack.formation(hq.formation).side != side:
                continue
            here = HexId(place.hex)
            reach = 1 if hq.type == "leg" else hq.command_range
            supplied = any(grid.distance(here, HexId(h)) <= reach for h in chain)
            boxed = hq.type == "leg" and any(grid.distance(here, HexId(b)) <= 1 for b in boxes)
            assert supplied or boxed or place.hex in pack.tobruk.inside, place.unit
