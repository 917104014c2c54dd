"""The Axis & Allies: North Africa data pack: it loads, holds every fact the rulebook states, the map is sane,
and every cross-check refuses a broken copy with R006 naming the record.

The rulebook has no numbered sections; its pages serve as sections, so ``@pytest.mark.rule("28")`` is page 28
(``pytest --rule 28``). Facts the text does not give (the map, the Axis chart, the setup charts, the national
basic RP) are checked for consistency only, and their sources must say ``reconstructed:``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from pbem.errors import DataPackError
from pbem.games.axisallies.data import (
    ABILITIES,
    GAME_ID,
    REQUIRED_LIMITS,
    AxisAlliesPack,
    SeaZone,
    Territory,
    UnitType,
    default_pack_bytes,
    load_pack,
    pack_schema,
)
from pbem.kit.graph import components
from pbem.log.canon import canonical

Raw = dict[str, Any]
Mutation = Callable[[Raw], None]


@pytest.fixture(scope="module")
def pack() -> AxisAlliesPack:
    return load_pack(default_pack_bytes())


@pytest.fixture
def raw() -> Raw:
    """A fresh, mutable copy of the bundled pack as plain JSON values."""
    value: Raw = json.loads(default_pack_bytes())
    return value


def pretty(value: Raw) -> bytes:
    return json.dumps(value, indent=1, ensure_ascii=False).encode()


def rejected(data: bytes) -> DataPackError:
    with pytest.raises(DataPackError) as info:
        load_pack(data)
    assert info.value.code.id == "R006"
    return info.value


def record(raw: Raw, section: str, ident: str) -> Raw:
    found: Raw = next(r for r in raw[section] if r["id"] == ident)
    return found


def units_of(pack: AxisAlliesPack, power: str) -> dict[str, UnitType]:
    return {u.type: u for u in pack.units if u.power == power}


def placed(pack: AxisAlliesPack, scenario: str, space: str, power: str) -> tuple[dict[str, int], int]:
    """Units and supply of ``power`` in ``space`` at setup, summed over the setup lines."""
    units: dict[str, int] = {}
    supply = 0
    for row in pack.scenario(scenario).setup.placements:
        if (row.space, row.power) == (space, power):
            supply += row.supply
            for unit, count in row.units.items():
                units[unit] = units.get(unit, 0) + count
    return units, supply


# --- the bundled pack ----------------------------------------------------------------------------------------


def test_bundled_pack_loads_from_file_and_canonical_bytes(pack: AxisAlliesPack) -> None:
    pretty_file = resources.files("pbem.games.axisallies").joinpath("data/pack.json").read_bytes()
    assert b"\n" in pretty_file.strip()  # meant to be read and edited by people
    assert load_pack(pretty_file) == pack
    assert default_pack_bytes() == canonical(json.loads(pretty_file))
    assert pack.meta.game == GAME_ID == "axis-allies"


def test_schema_is_json_schema() -> None:
    schema = pack_schema()
    assert {"territories", "sea_zones", "edges", "units", "scenarios"} <= set(schema["properties"])
    json.dumps(schema)


def test_module_examples() -> None:
    import doctest

    from pbem.games.axisallies import data

    assert doctest.testmod(data).failed == 0


def test_every_source_says_where_it_came_from(pack: AxisAlliesPack) -> None:
    """The schema enforces the prefixes; a rulebook source names a page of the book (4..39)."""
    sources: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("source", "sources") or (isinstance(value, str) and key != "text"):
                    if key == "sources" and isinstance(value, dict):
                        sources.extend(v for v in value.values() if isinstance(v, str))
                    elif key == "source" and isinstance(value, str):
                        sources.append(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(json.loads(default_pack_bytes()))
    assert len(sources) > 500
    for text in sources:
        assert text.startswith(("rulebook §", "reconstructed: ")), text
        if text.startswith("rulebook §"):
            page = int(text.removeprefix("rulebook §").split(":")[0].split(" ")[0].split(",")[0])
            assert 4 <= page <= 39, text


def test_a_transcription_may_cite_the_printed_components(raw: Raw) -> None:
    record(raw, "territories", "tobruk")["sources"]["rp"] = "transcribed: map, Tobruk's RP circle"
    assert load_pack(pretty(raw)).territory("tobruk").sources.rp.startswith("transcribed: ")


# --- the map: facts of the text ----------------------------------------------------------------------------------


@pytest.mark.rule("10")
def test_p10_impassable_territories(pack: AxisAlliesPack) -> None:
    assert {t.id for t in pack.territories if t.impassable} == {"qattara_depression", "spanish_morocco"}


@pytest.mark.rule("10")
def test_p10_rp_values(pack: AxisAlliesPack) -> None:
    assert pack.territory("malta").rp == 15  # p.13: Malta's 15 RPs
    assert pack.territory("constantine").rp is None and pack.territory("mersa_matruh").rp is None
    assert all(1 <= t.rp <= 15 for t in pack.territories if t.rp is not None)
    assert (pack.limit("rp_min"), pack.limit("rp_max")) == (1, 15)
    # territories the text makes controllable: control markers (p.8, p.28) and victory objectives (p.6)
    for ident in ("tunis", "cairo", "tobruk", "mareth", "tripoli", "benghazi", "algiers", "kasserine_pass"):
        assert pack.territory(ident).rp is not None, ident
    for ident in ("casablanca", "oran"):  # p.23: ports whose capture opens a convoy route
        assert pack.territory(ident).rp is not None, ident


@pytest.mark.rule("10")
def test_p10_stacking_limits(pack: AxisAlliesPack) -> None:
    assert pack.limit("default_stacking_limit") == 8
    malta = pack.territory("malta")
    assert (malta.stacking_limit, malta.supply_limit) == (3, 3)  # p.12: 'SL: 3' is also a supply limit
    for t in pack.territories:
        if t.id not in ("malta", "gibraltar"):
            assert t.stacking_limit == 8, t.id
            assert t.sources.stacking_limit.startswith("rulebook §10"), t.id
    assert [t.id for t in pack.territories if t.supply_limit is not None] == ["malta"]


@pytest.mark.rule("10")
def test_p10_permanent_emblems_and_staging(pack: AxisAlliesPack) -> None:
    assert pack.territory("italy").permanent_owner == "italy"
    assert pack.territory("malta").permanent_owner == "united_kingdom"
    assert pack.territory("gibraltar").permanent_owner == "united_kingdom"
    assert pack.territory("sicily").permanent_owner in ("germany", "italy")  # p.11: Axis both sides of Messina
    assert pack.power("germany").staging == pack.power("italy").staging == "italy"
    assert pack.power("united_kingdom").staging == "gibraltar"
    assert pack.power("united_states").staging is None
    assert set(pack.territory("italy").staging_for) == {"germany", "italy"}


@pytest.mark.rule("10")
def test_p10_defensive_bonus_on_mareth_and_tobruk(pack: AxisAlliesPack) -> None:
    assert {t.id for t in pack.territories if t.defensive_bonus is not None} == {"mareth", "tobruk"}
    mareth = pack.territory("mareth").defensive_bonus
    assert mareth is not None and mareth.attacks_from == ("tripoli",)
    assert pack.graph().edge("mareth", "tripoli") is not None


@pytest.mark.rule("10")
def test_p10_white_line(pack: AxisAlliesPack) -> None:
    mat = {t.id for t in pack.territories if t.mat}
    assert {"casablanca", "oran", "algiers", "constantine", "tunis", "kasserine_pass", "mareth"} <= mat
    assert not mat & {"tripoli", "benghazi", "tobruk", "cairo", "el_agheila", "italy", "malta"}
    assert all(t.north_africa for t in pack.territories if t.mat)


@pytest.mark.rule("10")
def test_p10_sea_zone_entry(pack: AxisAlliesPack) -> None:
    suez = pack.sea_zone("suez_canal")
    assert suez.entry_only_from == ("indian_ocean",)
    assert [e.a for e in pack.graph().edges_into("suez_canal")] == ["indian_ocean"]
    assert pack.sea_zone("atlantic_ocean").entry_powers == ("united_kingdom",)


@pytest.mark.rule("10")
@pytest.mark.rule("25")
def test_p10_sea_unit_deployment_zones(pack: AxisAlliesPack) -> None:
    zones = {p: [z.id for z in pack.sea_zones if p in z.deployment_for] for p in ("germany", "italy", "united_kingdom")}
    assert len(zones["united_kingdom"]) == 2 and len(zones["germany"]) == len(zones["italy"]) == 1
    assert len([z for z in pack.sea_zones if "united_states" in z.deployment_for]) == 1
    assert zones["germany"] == ["sz1"]  # p.13: sea zone 1, south of Portugal
    assert "atlantic_ocean" in zones["united_kingdom"]


@pytest.mark.rule("11")
def test_p11_strait_of_messina(pack: AxisAlliesPack) -> None:
    graph = pack.graph()
    edge = graph.edge("sz11", "sz16")
    assert edge is not None and edge.type == "strait" and "axis_sea_units_only" in edge.tags
    assert [e for e in pack.edges if e.type == "strait"] == [e for e in pack.edges if {e.a, e.b} == {"sz11", "sz16"}]
    assert pack.sea_zone("sz11").number == 11 and pack.sea_zone("sz16").number == 16
    assert {"sz11", "sz16"} <= set(graph.neighbours("italy")) and "sz16" in graph.neighbours("sicily")


@pytest.mark.rule("11")
def test_p11_islands(pack: AxisAlliesPack) -> None:
    graph = pack.graph()
    islands = {t.id for t in pack.territories if t.island}
    assert {"gibraltar", "malta", "sicily", "sardinia", "crete"} == islands
    for ident in islands:
        assert all(graph.kind(n) == "sea" for n in graph.neighbours(ident)), ident
    assert graph.neighbours("malta") == ("sz12",)  # p.12: the Malta convoy sea zone (12) surrounds it


@pytest.mark.rule("11")
def test_p11_coast_road_runs_from_morocco_to_egypt(pack: AxisAlliesPack) -> None:
    graph = pack.graph()
    road = {t.id for t in pack.territories if t.coast_road}
    assert {"casablanca", "cairo", "spanish_morocco", "tripoli", "tobruk", "mersa_matruh"} <= road
    along = components(graph, enter=lambda n: n in road)
    assert len(along) == 1  # one road
    cut = components(graph, enter=lambda n: n in road and not pack.territory(n).impassable)
    assert len(cut) == 2  # Spanish Morocco interrupts it
    west = next(part for part in cut if "casablanca" in part)
    assert "cairo" not in west


@pytest.mark.rule("11")
def test_p11_sahara_along_the_bottom(pack: AxisAlliesPack) -> None:
    sahara = [t for t in pack.territories if t.sahara]
    assert len(sahara) >= 4
    bottom = pack.canvas.height
    for t in sahara:
        assert max(y for _, y in t.geometry.polygon) == bottom, t.id
        assert t.rp is None and not t.impassable


@pytest.mark.rule("11")
@pytest.mark.rule("23")
def test_p11_convoy_routes(pack: AxisAlliesPack) -> None:
    routes = {z.convoy.port: z for z in pack.sea_zones if z.convoy is not None and z.convoy.port is not None}
    for port in ("tunis", "tripoli", "benghazi"):
        convoy = routes[port].convoy
        assert convoy is not None and (convoy.powers, convoy.permanent) == (("germany", "italy"), False), port
    for port in ("casablanca", "oran", "algiers"):
        convoy = routes[port].convoy
        assert convoy is not None and convoy.powers == ("united_kingdom", "united_states"), port
    malta = pack.sea_zone("sz12").convoy
    assert malta is not None and (malta.port, malta.powers, malta.permanent) == ("malta", ("united_kingdom",), True)
    named = {z.id for z in pack.sea_zones if z.number is None}
    assert named == {"atlantic_ocean", "indian_ocean", "suez_canal"}
    assert all(pack.sea_zone(z).convoy is not None for z in named)


@pytest.mark.rule("12")
def test_p12_the_uk_convoy_chain(pack: AxisAlliesPack) -> None:
    graph = pack.graph()
    chain = [(e.a, e.b) for e in pack.edges if e.type == "convoy"]
    assert set(chain) == {
        ("atlantic_ocean", "indian_ocean"),
        ("indian_ocean", "suez_canal"),
        ("suez_canal", "cairo"),
        ("suez_canal", "sz31"),
    }
    assert all(e.directed for e in pack.edges if e.type == "convoy")
    assert graph.edge("indian_ocean", "atlantic_ocean") is None and graph.edge("cairo", "suez_canal") is None
    suez = pack.sea_zone("suez_canal").convoy
    assert suez is not None and (suez.port, suez.sea_units_to) == ("cairo", "sz31")


@pytest.mark.rule("13")
@pytest.mark.rule("14")
def test_p13_naval_base_and_axis_mine_bans(pack: AxisAlliesPack) -> None:
    assert [z.id for z in pack.sea_zones if z.naval_base] == ["sz31"]
    banned = {z.id for z in pack.sea_zones if z.axis_mines_forbidden}
    assert banned == {"sz31", "atlantic_ocean", "indian_ocean", "suez_canal"}


@pytest.mark.rule("22")
def test_p22_retreat_example_neighbours_of_mersa_matruh(pack: AxisAlliesPack) -> None:
    graph = pack.graph()
    land = {n for n in graph.neighbours("mersa_matruh") if graph.kind(n) == "land"}
    assert {"bir_hachem", "siwa", "tobruk"} <= land
    assert land - {"bir_hachem", "siwa", "tobruk"} == {"cairo"}  # the attacker's side; Tobruk is the only way out
    assert graph.edge("cairo", "mersa_matruh") is not None  # p.8: land mines on Cairo's Mersa Matruh border


@pytest.mark.rule("25")
def test_p25_axis_direct_deployment_islands(pack: AxisAlliesPack) -> None:
    assert {t.id for t in pack.territories if t.axis_direct_deploy} == {"sicily", "sardinia", "crete"}


@pytest.mark.rule("6")
def test_p6_regional_capitals(pack: AxisAlliesPack) -> None:
    assert {t.capital_of: t.id for t in pack.territories if t.capital_of} == {"axis": "tunis", "allies": "cairo"}


# --- the map: sanity ---------------------------------------------------------------------------------------------


def test_map_land_is_connected(pack: AxisAlliesPack) -> None:
    graph = pack.graph()
    african = {t.id for t in pack.territories if t.north_africa and not t.impassable}
    assert len(components(graph, enter=african.__contains__)) == 1
    passable_land = {t.id for t in pack.territories if not t.impassable and not t.island and t.north_africa}
    assert passable_land == african


def test_map_sea_zones_and_coasts(pack: AxisAlliesPack) -> None:
    graph = pack.graph()
    numbers = sorted(z.number for z in pack.sea_zones if z.number is not None)
    assert numbers == list(range(1, 32))  # sea zones 1..31 (31 is the highest the text names)
    for z in pack.sea_zones:
        assert graph.neighbours(z.id) or graph.edges_into(z.id), z.id
        if z.convoy is not None and z.convoy.port is not None:
            assert graph.edge(z.id, z.convoy.port) is not None, z.id
    for t in pack.territories:
        seas = [n for n in graph.neighbours(t.id) if graph.kind(n) == "sea"]
        if t.island:
            assert seas, t.id
    for e in pack.edges:
        kinds = {graph.kind(e.a), graph.kind(e.b)}
        if e.type != "convoy":  # the Suez arrow into Cairo is a convoy step, not a coast
            assert (e.type == "coast") == (kinds == {"land", "sea"}), e
        assert (e.type == "land") == (kinds == {"land"}), e


def test_map_adjacency_is_symmetric_except_convoy_arrows(pack: AxisAlliesPack) -> None:
    graph = pack.graph()
    for node in graph.nodes:
        for edge in graph.edges(node):
            back = graph.edge(edge.b, edge.a)
            assert (back is None) == (edge.type == "convoy"), edge


def test_map_geometry(pack: AxisAlliesPack) -> None:
    spaces: list[Territory | SeaZone] = [*pack.territories, *pack.sea_zones]
    for space in spaces:
        g = space.geometry
        xs = [x for x, _ in g.polygon]
        ys = [y for _, y in g.polygon]
        assert min(xs) <= g.position[0] <= max(xs) and min(ys) <= g.position[1] <= max(ys), space.id
        assert space.label
    # spaces that share an edge share a stretch of outline on the drawing (the drawing is the adjacency)
    outline = {s.id: _segments(s.geometry.polygon) for s in spaces}
    islands = {t.id for t in pack.territories if t.island}
    box = {s.id: _box(s.geometry.polygon) for s in spaces}
    for e in pack.edges:
        if e.type == "convoy":
            continue
        if e.a in islands:  # an island is drawn inside its sea zone's outer ring
            (x0, y0, x1, y1), (u0, v0, u1, v1) = box[e.a], box[e.b]
            assert (u0 <= x0 and v0 <= y0 and x1 <= u1 and y1 <= v1) or _touch(outline[e.a], outline[e.b]), e
        else:
            assert _touch(outline[e.a], outline[e.b]), (e.a, e.b)


def _box(polygon: tuple[tuple[int, int], ...]) -> tuple[int, int, int, int]:
    xs, ys = [x for x, _ in polygon], [y for _, y in polygon]
    return min(xs), min(ys), max(xs), max(ys)


def _segments(polygon: tuple[tuple[int, int], ...]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    return [(polygon[i], polygon[(i + 1) % len(polygon)]) for i in range(len(polygon))]


def _touch(a: list[Any], b: list[Any]) -> bool:
    """Two rectilinear outlines share a stretch of positive length (islands: the sea's outer ring may not)."""
    for p1, p2 in a:
        for q1, q2 in b:
            if p1[0] == p2[0] == q1[0] == q2[0]:
                lo, hi = max(min(p1[1], p2[1]), min(q1[1], q2[1])), min(max(p1[1], p2[1]), max(q1[1], q2[1]))
                if hi > lo:
                    return True
            if p1[1] == p2[1] == q1[1] == q2[1]:
                lo, hi = max(min(p1[0], p2[0]), min(q1[0], q2[0])), min(max(p1[0], p2[0]), max(q1[0], q2[0]))
                if hi > lo:
                    return True
    return False


# --- the reference charts ----------------------------------------------------------------------------------------

UNIT_LIST = {  # p.4: the unit list, per power
    "germany": {
        "infantry": 12,
        "mech_infantry": 6,
        "artillery": 6,
        "anti_tank_gun": 6,
        "scout_car": 4,
        "tank": 10,
        "truck": 2,
        "fighter": 5,
        "bomber": 4,
        "submarine": 3,
    },
    "united_kingdom": {
        "infantry": 12,
        "artillery": 6,
        "anti_tank_gun": 8,
        "aaa": 6,
        "scout_car": 6,
        "tank": 8,
        "lend_lease_sherman": 2,
        "truck": 6,
        "fighter": 6,
        "bomber": 3,
        "battleship": 2,
        "destroyer": 4,
        "submarine": 2,
    },
    "italy": {
        "infantry": 12,
        "artillery": 6,
        "aaa": 4,
        "scout_car": 4,
        "tank": 7,
        "truck": 2,
        "fighter": 3,
        "bomber": 2,
        "destroyer": 3,
        "submarine": 3,
    },
    "united_states": {
        "infantry": 12,
        "artillery": 6,
        "aaa": 4,
        "tank": 8,
        "truck": 2,
        "fighter": 3,
        "bomber": 3,
        "destroyer": 2,
    },
    "france": {"infantry": 7, "tank": 4},
}
SPARES = {  # p.5: the spare unit bag
    "germany": {"scout_car": 1, "truck": 1, "fighter": 1, "bomber": 1, "submarine": 1},
    "united_kingdom": {"truck": 1, "fighter": 1, "bomber": 1, "battleship": 1, "destroyer": 1, "submarine": 1},
    "italy": {"scout_car": 1, "tank": 1, "truck": 1, "fighter": 1, "bomber": 1, "destroyer": 1, "submarine": 1},
    "united_states": {"scout_car": 3, "truck": 1, "fighter": 1, "bomber": 1, "destroyer": 1},
    "france": {"truck": 3},
}


@pytest.mark.rule("4")
@pytest.mark.rule("5")
def test_p4_unit_list_and_spares(pack: AxisAlliesPack) -> None:
    for power, listed in UNIT_LIST.items():
        charts = units_of(pack, power)
        pieces = {t: u.pieces for t, u in charts.items() if u.pieces}
        assert pieces == listed, power
        spares = {t: u.spares for t, u in charts.items() if u.spares}
        assert spares == SPARES[power], power
    assert pack.unit("germany", "tiger_tank").optional_rule == "38"
    # p.4: "254 Total" plastic miniatures: 226 in the scenarios and 28 in the spare bag
    assert sum(u.pieces for u in pack.units) == 226 and sum(u.spares for u in pack.units) == 28


ALLIED_CHART = {  # p.8: the Allies Reference Chart as extracted: cost, attack, defense, move
    ("united_kingdom", "infantry"): (3, 2, 3, 1),
    ("united_kingdom", "artillery"): (4, 3, 3, 1),
    ("united_kingdom", "anti_tank_gun"): (4, 2, 3, 1),
    ("united_kingdom", "aaa"): (3, None, None, 1),
    ("united_kingdom", "scout_car"): (4, 2, 1, 4),
    ("united_kingdom", "tank"): (5, 4, 5, 1),
    ("united_kingdom", "lend_lease_sherman"): (None, 5, 4, 2),
    ("united_kingdom", "truck"): (2, None, None, 2),
    ("united_kingdom", "fighter"): (10, 4, 5, 4),
    ("united_kingdom", "battleship"): (13, 6, 6, 4),
    ("united_kingdom", "destroyer"): (8, 4, 4, 4),
    ("united_kingdom", "submarine"): (6, 4, 2, 4),
    ("united_states", "infantry"): (3, 2, 3, 1),
    ("united_states", "artillery"): (4, 3, 3, 1),
    ("united_states", "aaa"): (3, None, None, 1),
    ("united_states", "tank"): (4, 5, 4, 2),
    ("united_states", "fighter"): (10, 4, 5, 4),
    ("united_states", "bomber"): (10, 6, 1, 6),
    ("united_states", "destroyer"): (8, 4, 4, 4),
    ("france", "infantry"): (3, 2, 3, 1),
    ("france", "tank"): (4, 5, 4, 2),
}


@pytest.mark.rule("8")
def test_p8_allies_reference_chart(pack: AxisAlliesPack) -> None:
    for (power, type_), values in ALLIED_CHART.items():
        unit = pack.unit(power, type_)
        assert (unit.cost, unit.attack, unit.defense, unit.move) == values, unit.id
        assert unit.sources.attack.startswith("rulebook §8"), unit.id
    for power, type_ in (("united_kingdom", "bomber"), ("united_states", "truck")):  # rows lost from the text
        assert pack.unit(power, type_).sources.cost.startswith("reconstructed: "), type_
    assert all(
        u.sources.cost.startswith("reconstructed: ")
        for u in pack.units
        if u.power in ("germany", "italy") and u.type != "tiger_tank"
    )  # the Axis chart is missing entirely


@pytest.mark.rule("8")
def test_p8_allied_chart_characteristics(pack: AxisAlliesPack) -> None:
    uk = units_of(pack, "united_kingdom")
    assert uk["infantry"].has("supported_by_artillery") and uk["artillery"].has("supports_infantry")
    assert uk["anti_tank_gun"].has("targeted_fire_tanks") and not uk["anti_tank_gun"].has("air_defense")
    assert {a.id for a in uk["aaa"].abilities} == {
        "air_defense",
        "cannot_attack",
        "no_defense_value",
        "noncombat_move_only",
    }
    assert {a.id for a in uk["scout_car"].abilities} == {
        "coast_road_movement",
        "hit_and_run",
        "long_range_patrol",
        "sahara_desert_movement",
        "self_sufficient",
        "supply_raider",
        "targeted_attack_air_units",
    }
    assert {a.id for a in uk["tank"].abilities} == {"coast_road_movement"}  # the Matilda: no Blitz
    assert {a.id for a in uk["lend_lease_sherman"].abilities} == {"blitz", "coast_road_movement"}
    assert {a.id for a in uk["truck"].abilities} == {"coast_road_movement", "land_transport", "logistical_unit"}
    assert uk["battleship"].has("two_hits_to_destroy") and uk["destroyer"].has("anti_submarine_vessel")
    assert {a.id for a in uk["submarine"].abilities} == {
        "cannot_be_hit_by_air_units",
        "cannot_hit_air_units",
        "does_not_block_enemy_movement",
        "submersible",
        "surprise_strike",
        "treat_hostile_sea_zones_as_friendly",
    }
    assert {a.id for a in pack.unit("united_states", "bomber").abilities} == {"collateral_damage"}
    for type_ in ("infantry", "tank"):
        french = pack.unit("france", type_)
        assert french.has("self_sufficient") and french.has("free_french_requisition") and not french.has("blitz")


@pytest.mark.rule("13")
def test_p13_uk_shermans_cannot_be_requisitioned(pack: AxisAlliesPack) -> None:
    assert pack.unit("united_kingdom", "lend_lease_sherman").cost is None


@pytest.mark.rule("20")
def test_p20_air_scout_and_french_units_defend_without_supply(pack: AxisAlliesPack) -> None:
    for unit in pack.units:
        if unit.type == "scout_car" or (unit.power == "france" and unit.combat):
            assert unit.has("self_sufficient"), unit.id


@pytest.mark.rule("30")
@pytest.mark.rule("31")
@pytest.mark.rule("32")
def test_p30_land_unit_profiles(pack: AxisAlliesPack) -> None:
    for unit in pack.units:
        if unit.type == "infantry" and unit.power != "france":
            assert unit.has("supported_by_artillery"), unit.id
        if unit.type == "artillery":
            assert unit.has("supports_infantry") and unit.move == 1, unit.id
        if unit.type == "anti_tank_gun":
            assert unit.has("targeted_fire_tanks"), unit.id
        if unit.type == "aaa":
            assert unit.has("air_defense") and unit.has("cannot_attack") and unit.defense is None, unit.id
        if unit.type == "truck":
            assert not unit.combat and unit.has("land_transport") and unit.has("logistical_unit"), unit.id
            assert unit.has("coast_road_movement"), unit.id
        if unit.type == "scout_car":
            assert unit.has("hit_and_run") and unit.has("sahara_desert_movement") and unit.has("supply_raider")
    mech = pack.unit("germany", "mech_infantry")
    assert {a.id for a in mech.abilities} == {"blitz", "coast_road_movement", "supported_by_artillery"}
    assert pack.unit("germany", "anti_tank_gun").has("air_defense")  # p.25: German AT guns deploy like AAA
    assert (pack.limit("truck_capacity"), pack.limit("coast_road_territories")) == (6, 5)
    assert (pack.limit("air_defense_shots_per_unit"), pack.limit("air_defense_hit")) == (3, 2)
    assert pack.limit("artillery_supported_attack") == 3
    assert [u.type for u in pack.units if u.category == "land" and not u.combat] == ["truck"] * 5


@pytest.mark.rule("33")
@pytest.mark.rule("34")
def test_p33_air_and_sea_unit_profiles(pack: AxisAlliesPack) -> None:
    for unit in pack.units:
        if unit.type == "fighter":
            assert unit.abilities == () and unit.attack == 4, unit.id  # p.35: a fighter hits 40% attacking
        if unit.type == "bomber":
            assert unit.has("collateral_damage") and unit.defense == 1, unit.id  # poor defenders
        if unit.type == "battleship":
            assert unit.has("two_hits_to_destroy")
        if unit.type == "destroyer":
            assert unit.has("anti_submarine_vessel")
        if unit.type == "submarine":
            assert unit.has("surprise_strike") and unit.has("submersible")
    assert pack.unit("germany", "bomber").has("targeted_attack_combat_land_units")  # p.33: dive bombers


@pytest.mark.rule("38")
def test_p38_tiger_tank(pack: AxisAlliesPack) -> None:
    tiger = pack.unit("germany", "tiger_tank")
    assert (tiger.cost, tiger.attack, tiger.defense, tiger.move) == (9, 6, 7, 2)
    assert {a.id for a in tiger.abilities} == {"blitz"}  # no Coast Road Movement
    assert (pack.limit("tiger_from_round"), pack.limit("tigers_per_turn")) == (8, 1)


def test_every_ability_cites_its_profile_page(pack: AxisAlliesPack) -> None:
    pages = {a.id: a.rule for u in pack.units for a in u.abilities}
    assert set(pages) <= set(ABILITIES)
    for unit in pack.units:
        for ability in unit.abilities:
            assert ability.rule == pages[ability.id] and 13 <= int(ability.rule) <= 34, (unit.id, ability.id)


def test_every_power_has_a_full_chart(pack: AxisAlliesPack) -> None:
    for power in ("germany", "italy", "united_kingdom", "united_states"):
        charts = units_of(pack, power)
        assert {"infantry", "artillery", "tank", "truck", "fighter", "bomber"} <= set(charts), power
        for unit in charts.values():
            assert unit.move >= 1 and (unit.cost is None or unit.cost >= 2), unit.id


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


# --- every cross-check refuses a broken copy -----------------------------------------------------------------------


def _unit(raw: Raw, ident: str) -> Raw:
    return record(raw, "units", ident)


def _scenario(raw: Raw, ident: str = "rommels_last_push") -> Raw:
    return record(raw, "scenarios", ident)


def _placement(raw: Raw, space: str, power: str, scenario: str = "rommels_last_push") -> Raw:
    rows: list[Raw] = _scenario(raw, scenario)["setup"]["placements"]
    return next(r for r in rows if (r["space"], r["power"]) == (space, power))


def _edge(raw: Raw, a: str, b: str) -> Raw:
    return next(e for e in raw["edges"] if {e["a"], e["b"]} == {a, b})


def _set(path: Callable[[Raw], Raw], key: str, value: Any) -> Mutation:
    def mutate(raw: Raw) -> None:
        path(raw)[key] = value

    return mutate


def _drop_limit(raw: Raw) -> None:
    raw["limits"] = [r for r in raw["limits"] if r["id"] != "truck_capacity"]


def _cut_africa(raw: Raw) -> None:
    raw["edges"] = [
        e for e in raw["edges"] if not ({e["a"], e["b"]} & {"tobruk", "bir_hachem"} and e["type"] == "land")
    ]


def _cut_the_sea(raw: Raw) -> None:
    raw["edges"] = [e for e in raw["edges"] if not (e["type"] in ("sea", "strait") and "sz3" in (e["a"], e["b"]))]


def _island_on_land(raw: Raw) -> None:
    raw["edges"].append({"a": "sicily", "b": "tunis", "type": "land", "source": "reconstructed: a bridge"})


def _duplicate_edge(raw: Raw) -> None:
    edge = dict(_edge(raw, "tobruk", "mersa_matruh"))
    edge["a"], edge["b"] = edge["b"], edge["a"]
    raw["edges"].append(edge)


def _unknown_edge_end(raw: Raw) -> None:
    raw["edges"].append({"a": "tobruk", "b": "bardia", "type": "land", "source": "reconstructed: x"})


def _land_edge_to_sea(raw: Raw) -> None:
    _edge(raw, "tobruk", "sz25")["type"] = "land"


def _undirected_convoy(raw: Raw) -> None:
    _edge(raw, "atlantic_ocean", "indian_ocean")["directed"] = False


def _suez_from_the_med(raw: Raw) -> None:
    raw["edges"].append({"a": "sz30", "b": "suez_canal", "type": "sea", "source": "reconstructed: x"})


def _port_not_adjacent(raw: Raw) -> None:
    record(raw, "sea_zones", "sz20")["convoy"]["port"] = "tripoli"


def _ghost_one_power(raw: Raw) -> None:
    record(raw, "sea_zones", "sz15")["convoy"]["powers"] = ["italy"]


def _mixed_convoy(raw: Raw) -> None:
    record(raw, "sea_zones", "sz15")["convoy"]["powers"] = ["italy", "united_states"]


def _two_axis_capitals(raw: Raw) -> None:
    record(raw, "territories", "tripoli")["capital_of"] = "axis"


def _staging_mismatch(raw: Raw) -> None:
    record(raw, "powers", "united_kingdom")["staging"] = "malta"


def _seat_mixes_sides(raw: Raw) -> None:
    seats = next(row for row in raw["seating"] if row["players"] == 2)["seats"]
    seats[0]["powers"], seats[1]["powers"] = ["germany", "united_states"], ["united_kingdom", "italy"]


def _seat_drops_power(raw: Raw) -> None:
    seats = next(row for row in raw["seating"] if row["players"] == 4)["seats"]
    seats.pop()


def _france_takes_turn(raw: Raw) -> None:
    record(raw, "powers", "france")["turn_order"] = 5


def _extra_power(raw: Raw) -> None:
    record(raw, "powers", "france")["id"] = "spain"


def _vichy_operator(raw: Raw) -> None:
    next(a for a in raw["allegiances"] if a["id"] == "vichy")["operated_by"] = "united_kingdom"


def _truck_in_combat(raw: Raw) -> None:
    _unit(raw, "italy-truck")["combat"] = True


def _blitzing_ship(raw: Raw) -> None:
    _unit(raw, "italy-destroyer")["abilities"].append({"id": "blitz", "rule": "32"})


def _unknown_ability(raw: Raw) -> None:
    _unit(raw, "italy-tank")["abilities"].append({"id": "flamethrower", "rule": "32"})


def _unit_id_mismatch(raw: Raw) -> None:
    _unit(raw, "italy-tank")["id"] = "italy-panzer"


def _overstacked(raw: Raw) -> None:
    _placement(raw, "el_agheila", "germany")["units"]["infantry"] = 4


def _too_many_fighters(raw: Raw) -> None:
    row = {"space": "sz1", "power": "germany", "units": {"fighter": 4}, "source": "reconstructed: x"}
    _scenario(raw)["setup"]["placements"].append(row)  # 2 already on the board, 5 pieces


def _second_german_truck(raw: Raw) -> None:
    _placement(raw, "tripoli", "germany")["units"]["truck"] = 1


def _unknown_unit_in_setup(raw: Raw) -> None:
    _placement(raw, "tripoli", "italy")["units"]["mech_infantry"] = 1


def _ship_on_land(raw: Raw) -> None:
    _placement(raw, "tripoli", "italy")["units"]["destroyer"] = 1


def _control_without_rp(raw: Raw) -> None:
    _scenario(raw)["setup"]["control"].append({"territory": "sirte", "power": "italy", "source": "reconstructed: x"})


def _marker_of_wrong_power(raw: Raw) -> None:
    _scenario(raw)["setup"]["convoy_markers"][0]["powers"] = ["united_kingdom"]


def _mines_off_border(raw: Raw) -> None:
    _scenario(raw)["setup"]["land_mines"][0]["facing"] = "tobruk"


def _two_single_mines(raw: Raw) -> None:
    _scenario(raw)["setup"]["land_mines"][0]["tokens"] = [1, 1, 1]


def _event_outside_scenario(raw: Raw) -> None:
    _scenario(raw, "operation_torch")["events"] = copy.deepcopy(_scenario(raw)["events"][:1])


def _victory_on_sirte(raw: Raw) -> None:
    _scenario(raw)["victory"]["levels"][0]["all_of"] = ["sirte"]


def _landing_wrong_zone(raw: Raw) -> None:
    _scenario(raw)["torch"]["landings"][0]["convoy_zone"] = "sz7"


def _skip_france(raw: Raw) -> None:
    _scenario(raw)["skipped_turns"][0]["power"] = "france"


def _rp_out_of_range(raw: Raw) -> None:
    record(raw, "territories", "cairo")["rp"] = 16


def _sahara_rp(raw: Raw) -> None:
    record(raw, "territories", "kufra")["rp"] = 1


def _point_off_canvas(raw: Raw) -> None:
    record(raw, "territories", "cairo")["geometry"]["polygon"][0] = [1501, 0]


def _missing_source(raw: Raw) -> None:
    del record(raw, "territories", "tobruk")["sources"]["rp"]


def _bare_source(raw: Raw) -> None:
    _unit(raw, "germany-tank")["sources"]["attack"] = "guessed"


def _float(raw: Raw) -> None:
    record(raw, "territories", "tobruk")["stacking_limit"] = "8"


def _terr_power(ident: str) -> Callable[[Raw], Raw]:
    return lambda raw: record(raw, "powers", ident)


def _terr(ident: str) -> Callable[[Raw], Raw]:
    return lambda raw: record(raw, "territories", ident)


def _zone(ident: str) -> Callable[[Raw], Raw]:
    return lambda raw: record(raw, "sea_zones", ident)


def _seating_row(players: int) -> Callable[[Raw], Raw]:
    return lambda raw: next(row for row in raw["seating"] if row["players"] == players)


def _three_seat_rows(raw: Raw) -> None:
    raw["seating"] = [row for row in raw["seating"] if row["players"] != 3]


def _seat_twice(raw: Raw) -> None:
    _seating_row(4)(raw)["seats"][3]["powers"] = ["united_kingdom"]


def _staging_without_emblem(raw: Raw) -> None:
    _terr("gibraltar")(raw)["permanent_owner"] = None


def _staging_not_listed(raw: Raw) -> None:
    _terr("gibraltar")(raw)["staging_for"] = []


def _bonus_from_nowhere(raw: Raw) -> None:
    _terr("mareth")(raw)["defensive_bonus"]["attacks_from"] = ["atlantis"]


def _sea_deploy_missing(raw: Raw) -> None:
    _zone("sz16")(raw)["deployment_for"] = []


def _ghost_port_without_rp(raw: Raw) -> None:
    record(raw, "sea_zones", "sz9")["convoy"] = {
        "route": "Constantine",
        "port": "constantine",
        "powers": ["united_kingdom", "united_states"],
        "permanent": False,
        "sea_units_to": None,
    }


def _edge_type(raw: Raw) -> None:
    _edge(raw, "tobruk", "mersa_matruh")["type"] = "railway"


def _edge_without_source(raw: Raw) -> None:
    del _edge(raw, "tobruk", "mersa_matruh")["source"]


def _coast_between_territories(raw: Raw) -> None:
    _edge(raw, "tobruk", "mersa_matruh")["type"] = "coast"


def _orphan_territory(raw: Raw) -> None:
    raw["edges"] = [e for e in raw["edges"] if "greece" not in (e["a"], e["b"])]


def _missing_power(raw: Raw) -> None:
    raw["powers"] = [p for p in raw["powers"] if p["id"] != "france"]


def _missing_allegiance(raw: Raw) -> None:
    raw["allegiances"] = raw["allegiances"][:1]


def _sea_units_to_far_zone(raw: Raw) -> None:
    _zone("suez_canal")(raw)["convoy"]["sea_units_to"] = "sz1"


def _entry_from_without_edge(raw: Raw) -> None:
    _zone("suez_canal")(raw)["entry_only_from"] = ["sz30"]


def _huge_attack(raw: Raw) -> None:
    _unit(raw, "italy-tank")["attack"] = 11


def _negative_move(raw: Raw) -> None:
    _unit(raw, "italy-tank")["move"] = -1


def _aaa_with_defense(raw: Raw) -> None:
    _unit(raw, "italy-aaa")["defense"] = 1


def _tank_two_hits(raw: Raw) -> None:
    _unit(raw, "italy-tank")["abilities"].append({"id": "two_hits_to_destroy", "rule": "33"})


def _france_without_units(raw: Raw) -> None:
    raw["units"] = [u for u in raw["units"] if u["power"] != "france"]


def _placement_off_map(raw: Raw) -> None:
    _placement(raw, "tripoli", "italy")["space"] = "atlantis"


def _zero_count(raw: Raw) -> None:
    _placement(raw, "tripoli", "italy")["units"]["infantry"] = 0


def _infantry_at_sea(raw: Raw) -> None:
    _placement(raw, "sz16", "italy")["units"]["infantry"] = 1


def _units_in_qattara(raw: Raw) -> None:
    _placement(raw, "tripoli", "italy")["space"] = "qattara_depression"


def _negative_supply(raw: Raw) -> None:
    _placement(raw, "tripoli", "italy")["supply"] = -1


def _start_after_end(raw: Raw) -> None:
    _scenario(raw)["start_round"] = 15


def _round_start_with_power(raw: Raw) -> None:
    next(e for e in _scenario(raw)["events"] if e["id"] == "operation_torch")["power"] = "germany"


def _landing_at_sea(raw: Raw) -> None:
    _scenario(raw)["torch"]["landings"][0]["territory"] = "sz2"


def _round_rule_unknown_zone(raw: Raw) -> None:
    _scenario(raw)["round_rules"][1]["zones"] = ["sz99"]


def _capture_own_capital(raw: Raw) -> None:
    _scenario(raw)["victory"]["instant"][0]["capture"] = "tunis"


def _control_unknown(raw: Raw) -> None:
    _scenario(raw)["setup"]["control"][0]["territory"] = "atlantis"


def _control_of_malta(raw: Raw) -> None:
    _scenario(raw)["setup"]["control"][0]["territory"] = "malta"


def _marker_unknown_zone(raw: Raw) -> None:
    _scenario(raw)["setup"]["convoy_markers"][0]["zone"] = "sz99"


def _variable_on_land(raw: Raw) -> None:
    _scenario(raw)["setup"]["variable_reinforcements"][0]["zone"] = "cairo"


def _pool_unknown_unit(raw: Raw) -> None:
    _scenario(raw)["setup"]["pool_changes"][0]["unit"] = "battleship"


def _impassable_with_rp(raw: Raw) -> None:
    _terr("qattara_depression")(raw)["rp"] = 1


def _island_in_africa(raw: Raw) -> None:
    _terr("malta")(raw)["north_africa"] = True


def _zero_stacking(raw: Raw) -> None:
    _terr("tobruk")(raw)["stacking_limit"] = 0


def _entry_from_unknown(raw: Raw) -> None:
    _zone("suez_canal")(raw)["entry_only_from"] = ["sz99"]


def _port_unknown(raw: Raw) -> None:
    _zone("sz15")(raw)["convoy"]["port"] = "atlantis"


def _upkeep_without_rp(raw: Raw) -> None:
    _terr("sirte")(raw)["rp_upkeep_supply"] = 1


def _base_without_payer(raw: Raw) -> None:
    _zone("sz31")(raw)["repair_supply_from"] = None


def _repairs_paid_from_atlantis(raw: Raw) -> None:
    _zone("sz31")(raw)["repair_supply_from"] = "atlantis"


def _immediate_unknown_space(raw: Raw) -> None:
    raw["immediate_deployments"][0]["space"] = "sz99"


def _immediate_unknown_unit(raw: Raw) -> None:
    raw["immediate_deployments"][0]["units"] = ["battleship"]


def _malta_deploys_ships(raw: Raw) -> None:
    _zone("sz12")(raw)["land_deploy_types"] = ["destroyer"]


def _sea_units_to_unknown(raw: Raw) -> None:
    _zone("suez_canal")(raw)["convoy"]["sea_units_to"] = "sz99"


MUTATIONS: dict[str, tuple[Mutation, tuple[str, ...]]] = {
    # name: (mutation, what the message must name)
    "wrong game": (_set(lambda r: r["meta"], "game", "axis-and-allies-1942"), ("meta.game",)),
    "missing limit": (_drop_limit, ("truck_capacity",)),
    "missing source": (_missing_source, ("'tobruk'", "sources.rp", "Field required")),
    "source without provenance": (_bare_source, ("'germany-tank'", "sources.attack")),
    "string for integer": (_float, ("'tobruk'", "stacking_limit")),
    "rp out of range": (_rp_out_of_range, ("'cairo'", "'rp'")),
    "sahara with rp": (_sahara_rp, ("'kufra'",)),
    "point off the canvas": (_point_off_canvas, ("'cairo'", "polygon")),
    "two axis capitals": (_two_axis_capitals, ("regional capital",)),
    "staging mismatch": (_staging_mismatch, ("'gibraltar'", "staging_for")),
    "africa cut in two": (_cut_africa, ("not connected", "'tobruk'")),
    "sea zone cut off": (_cut_the_sea, ("sea zones are not connected", "sz3")),
    "island on land": (_island_on_land, ("'sicily'", "island")),
    "duplicate edge": (_duplicate_edge, ("'mersa_matruh'", "'tobruk'")),
    "unknown edge end": (_unknown_edge_end, ("'bardia'",)),
    "land edge to sea": (_land_edge_to_sea, ("tobruk-sz25",)),
    "undirected convoy arrow": (_undirected_convoy, ("atlantic_ocean-indian_ocean", "directed")),
    "suez entered from the med": (_suez_from_the_med, ("'suez_canal'", "'sz30'")),
    "convoy port not adjacent": (_port_not_adjacent, ("'sz20'", "'tripoli'")),
    "ghosted route with one emblem": (_ghost_one_power, ("'sz15'", "permanent")),
    "convoy of both sides": (_mixed_convoy, ("'sz15'", "one side")),
    "seat mixes sides": (_seat_mixes_sides, ("2 players", "'axis'")),
    "seat table misses a power": (_seat_drops_power, ("4 players",)),
    "france takes a turn": (_france_takes_turn, ("'france'",)),
    "unknown power": (_extra_power, ("powers",)),
    "missing power": (_missing_power, ("powers must be exactly",)),
    "turn order gap": (_set(_terr_power("germany"), "turn_order", 5), ("turn_order",)),
    "unknown staging territory": (_set(_terr_power("italy"), "staging", "atlantis"), ("'italy'", "'atlantis'")),
    "negative nbrp": (_set(_terr_power("italy"), "nbrp", -1), ("'italy'", "'nbrp'")),
    "missing allegiance": (_missing_allegiance, ("'vichy' and 'free'",)),
    "vichy run by the uk": (_vichy_operator, ("'vichy'", "'united_kingdom'")),
    "truck as combat unit": (_truck_in_combat, ("'italy-truck'",)),
    "blitzing destroyer": (_blitzing_ship, ("'italy-destroyer'", "blitz")),
    "unknown ability": (_unknown_ability, ("'italy-tank'", "abilities")),
    "unit id mismatch": (_unit_id_mismatch, ("'italy-panzer'",)),
    "overstacked setup": (_overstacked, ("'el_agheila'", "stacking limit 8")),
    "more fighters than pieces": (_too_many_fighters, ("germany/fighter",)),
    "second axis truck before round 7": (_second_german_truck, ("germany/truck",)),
    "unit the power lacks": (_unknown_unit_in_setup, ("'italy'", "'mech_infantry'")),
    "ship on land": (_ship_on_land, ("placements", "sea units")),
    "control without rp": (_control_without_rp, ("'sirte'",)),
    "convoy marker of the wrong side": (_marker_of_wrong_power, ("'sz15'",)),
    "mines off a border": (_mines_off_border, ("'cairo'", "'tobruk'")),
    "two single-mine tokens": (_two_single_mines, ("'1 mine'",)),
    "event outside the scenario": (_event_outside_scenario, ("'operation_torch'", "'lend_lease_shermans'")),
    "victory on an uncontrollable territory": (_victory_on_sirte, ("'sirte'",)),
    "landing with the wrong convoy zone": (_landing_wrong_zone, ("'casablanca'", "'sz7'")),
    "skipping a power without a turn": (_skip_france, ("'france'",)),
    "seat table without 3 players": (_three_seat_rows, ("2, 3 and 4 players",)),
    "a power in two seats": (_seat_twice, ("4 players", "exactly once")),
    "staging territory without emblem": (_staging_without_emblem, ("'gibraltar'", "emblem")),
    "staging territory not listed": (_staging_not_listed, ("'united_kingdom'", "staging_for")),
    "defensive bonus from nowhere": (_bonus_from_nowhere, ("'mareth'", "'atlantis'")),
    "sea power without deployment zone": (_sea_deploy_missing, ("'italy'", "deployment zone")),
    "ghosted port without rp": (_ghost_port_without_rp, ("'sz9'", "RP territory")),
    "unknown edge type": (_edge_type, ("mersa_matruh-tobruk", "'railway'")),
    "edge without source": (_edge_without_source, ("mersa_matruh", "'source'")),
    "coast between territories": (_coast_between_territories, ("mersa_matruh-tobruk", "coast")),
    "territory borders nothing": (_orphan_territory, ("'greece'", "borders nothing")),
    "suez ships sail to a far zone": (_sea_units_to_far_zone, ("'suez_canal'", "'sz1'")),
    "entry only from a zone without an edge": (_entry_from_without_edge, ("'suez_canal'", "'sz30'")),
    "attack above the die": (_huge_attack, ("'italy-tank'", "'attack'")),
    "negative move": (_negative_move, ("'italy-tank'", "move")),
    "aaa with a defense value": (_aaa_with_defense, ("'italy-aaa'", "defense")),
    "tank with two hits": (_tank_two_hits, ("'italy-tank'", "two_hits_to_destroy")),
    "power without units": (_france_without_units, ("'france'", "no unit types")),
    "placement off the map": (_placement_off_map, ("'atlantis'",)),
    "zero units placed": (_zero_count, ("'infantry'", "at least 1")),
    "infantry at sea outside a convoy": (_infantry_at_sea, ("placements", "convoys")),
    "units in the qattara depression": (_units_in_qattara, ("impassable",)),
    "negative supply": (_negative_supply, ("placements", "not negative")),
    "start after the end": (_start_after_end, ("'rommels_last_push'", "start_round")),
    "round start event with a power": (_round_start_with_power, ("'operation_torch'", "phase_6")),
    "landing at sea": (_landing_at_sea, ("'sz2'", "not a territory")),
    "round rule in an unknown zone": (_round_rule_unknown_zone, ("'us_casablanca_round_7'", "'sz99'")),
    "capturing one's own capital": (_capture_own_capital, ("axis cannot win",)),
    "control of an unknown territory": (_control_unknown, ("'atlantis'",)),
    "control marker on a permanent territory": (_control_of_malta, ("'malta'", "permanently marked")),
    "convoy marker in an unknown zone": (_marker_unknown_zone, ("'sz99'",)),
    "variable reinforcements on land": (_variable_on_land, ("variable reinforcements",)),
    "pool change of an unknown unit": (_pool_unknown_unit, ("germany/battleship",)),
    "impassable territory with rp": (_impassable_with_rp, ("'qattara_depression'", "impassable")),
    "island in north africa": (_island_in_africa, ("'malta'", "island")),
    "zero stacking limit": (_zero_stacking, ("'tobruk'", "at least 1")),
    "entry from an unknown zone": (_entry_from_unknown, ("'suez_canal'", "'sz99'")),
    "convoy to an unknown port": (_port_unknown, ("'sz15'", "'atlantis'")),
    "ships advance to an unknown zone": (_sea_units_to_unknown, ("'suez_canal'", "'sz99'")),
    "upkeep without rp": (_upkeep_without_rp, ("'sirte'", "rp_upkeep_supply")),
    "naval base without a payer": (_base_without_payer, ("'sz31'", "naval base")),
    "repairs paid from an unknown territory": (_repairs_paid_from_atlantis, ("'sz31'", "'atlantis'")),
    "immediate deployment to an unknown space": (_immediate_unknown_space, ("'german_submarines'", "'sz99'")),
    "immediate deployment of a unit the power lacks": (
        _immediate_unknown_unit,
        ("'german_submarines'", "'battleship'"),
    ),
    "malta convoy deploying ships as land units": (_malta_deploys_ships, ("'sz12'", "'destroyer'")),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_broken_pack_is_rejected(raw: Raw, name: str) -> None:
    mutate, named = MUTATIONS[name]
    broken = copy.deepcopy(raw)
    mutate(broken)
    for data in (pretty(broken), canonical(broken)):
        error = rejected(data)
        for ident in named:
            assert ident in error.message, (name, error.message)


def test_float_is_rejected(raw: Raw) -> None:
    text = pretty(raw).decode()
    assert '"rp": 15,' in text
    error = rejected(text.replace('"rp": 15,', '"rp": 15.0,', 1).encode())
    assert "15.0" in error.message


def test_duplicate_key_is_rejected(raw: Raw) -> None:
    text = pretty(raw).decode()
    error = rejected(text.replace('"rp": 15,', '"rp": 15, "rp": 1,', 1).encode())
    assert "'rp'" in error.message and "'malta'" in error.message


@pytest.mark.parametrize(
    "data",
    [b"", b"[]\n", b'{\n"meta": NaN\n}', b'\xef\xbb\xbf{\n"meta": {}\n}', b'{\n"meta":\n'],
    ids=["empty", "array", "nan", "bom", "truncated"],
)
def test_unparseable_pack_is_rejected(data: bytes) -> None:
    rejected(data)


def test_geometry_feeds_the_shared_map_model(pack: AxisAlliesPack) -> None:
    """The renderer's MapSpec takes the pack's outlines as they are: one Region per space, decorations as shapes."""
    from pbem.rules.maps import MapSpec, Region, Shape

    spaces: list[Territory | SeaZone] = [*pack.sea_zones, *pack.territories]
    regions = [
        Region(
            id=s.id,
            name=s.name,
            label=s.label,
            terrain="sea" if isinstance(s, SeaZone) else ("sahara" if s.sahara else "land"),
            center=(float(s.geometry.position[0]), float(s.geometry.position[1])),
            polygon=tuple((float(x), float(y)) for x, y in s.geometry.polygon),
        )
        for s in spaces
    ]
    shapes = [
        Shape(terrain="neutral", polygon=tuple((float(x), float(y)) for x, y in d.polygon)) for d in pack.decorations
    ]
    spec = MapSpec(width=pack.canvas.width, height=pack.canvas.height, regions=tuple(regions), shapes=tuple(shapes))
    assert len(spec.regions) == len(pack.territories) + len(pack.sea_zones) == 79


NAMED_SPACES = {  # every space the text names, with the page that names it
    "qattara_depression": "Qattara Depression",  # p.10
    "spanish_morocco": "Spanish Morocco",  # p.11
    "italy": "Italy",  # p.10
    "malta": "Malta",  # p.10
    "gibraltar": "Gibraltar",  # p.10
    "sicily": "Sicily",  # p.25
    "sardinia": "Sardinia",  # p.25
    "crete": "Crete",  # p.25
    "greece": "Greece",  # p.6
    "tunis": "Tunis",  # p.6
    "cairo": "Cairo",  # p.6
    "tobruk": "Tobruk",  # p.6
    "mareth": "Mareth",  # p.6
    "tripoli": "Tripoli",  # p.6
    "benghazi": "Benghazi",  # p.6
    "algiers": "Algiers",  # p.6
    "casablanca": "Casablanca",  # p.23
    "oran": "Oran",  # p.23
    "kasserine_pass": "Kasserine Pass",  # p.28
    "el_agheila": "El Agheila",  # p.6
    "mersa_matruh": "Mersa Matruh",  # p.10
    "constantine": "Constantine",  # p.10
    "bir_hachem": "Bir Hachem",  # p.22
    "siwa": "Siwa",  # p.22
}


@pytest.mark.rule("6")
@pytest.mark.rule("10")
@pytest.mark.rule("11")
@pytest.mark.rule("22")
@pytest.mark.rule("25")
@pytest.mark.rule("28")
def test_every_space_the_text_names_is_on_the_map(pack: AxisAlliesPack) -> None:
    for ident, name in NAMED_SPACES.items():
        territory = pack.territory(ident)
        assert territory.name == name
        assert territory.sources.name.startswith("rulebook §"), ident
    for number in (1, 5, 11, 12, 16, 31):  # pp.11-13
        zone = pack.sea_zone(f"sz{number}")
        assert zone.number == number and zone.sources.number.startswith("rulebook §"), number
    for ident, name in (
        ("atlantic_ocean", "Atlantic Ocean"),
        ("indian_ocean", "Indian Ocean"),
        ("suez_canal", "Suez Canal"),
    ):
        assert pack.sea_zone(ident).name == name


@pytest.mark.rule("11")
def test_p11_coast_road_territories_are_coastal(pack: AxisAlliesPack) -> None:
    """The red line runs along the coast, so every coast road territory borders a sea zone."""
    graph = pack.graph()
    for t in pack.territories:
        if t.coast_road:
            assert any(graph.kind(n) == "sea" for n in graph.neighbours(t.id)), t.id


def test_every_convoy_route_and_scenario_zone_is_a_sea_zone(pack: AxisAlliesPack) -> None:
    zones = {z.id for z in pack.sea_zones}
    for s in pack.scenarios:
        named = [m.zone for m in s.setup.convoy_markers] + [x.convoy_zone for x in s.torch.landings]
        named += [v.zone for v in s.setup.variable_reinforcements] + [z for r in s.round_rules for z in r.zones]
        named += [m.zone for e in s.events for m in e.convoy_markers]
        assert set(named) <= zones, s.id
        for zone in named:
            assert pack.sea_zone(zone).convoy is not None, zone
