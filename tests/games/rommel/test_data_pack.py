"""The Rommel in the Desert data pack: it loads, holds every fact the rulebook's text states, its map agrees with
every worked distance of the text, and each cross-check refuses a broken copy with R006 naming the record.

Rulebook facts carry a ``rule`` marker with their section. Reconstructed values are checked for consistency only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import pytest

from pbem.errors import DataPackError
from pbem.games.rommel.data import ARMS_CLASSES, RommelPack, default_pack_bytes, load_pack, pack_schema

Raw = dict[str, Any]


@pytest.fixture(scope="module")
def pack() -> RommelPack:
    return load_pack(default_pack_bytes())


@pytest.fixture
def raw() -> Raw:
    value: Raw = json.loads(default_pack_bytes())
    return value


def rejected(value: Raw) -> str:
    with pytest.raises(DataPackError) as info:
        load_pack(json.dumps(value, indent=1).encode())
    assert info.value.code.id == "R006"
    return str(info.value)


def hex_of(pack: RommelPack, place: str) -> str:
    return pack.place(place).hex


def road_steps(pack: RommelPack, a: str, b: str, kinds: tuple[str, ...]) -> int:
    path = pack.road_path(hex_of(pack, a), hex_of(pack, b), kinds)
    assert path is not None, (a, b, kinds)
    return len(path) - 1


# --- loading -------------------------------------------------------------------------------------------


def test_bundled_pack_loads_and_is_canonical(pack: RommelPack) -> None:
    assert pack.meta.game == "rommel"
    raw = default_pack_bytes()
    assert b"\n" not in raw and load_pack(raw) == pack


def test_schema_is_json_schema() -> None:
    schema = pack_schema()
    assert schema["title"] == "RommelPack" and "map" in schema["properties"]


def test_pretty_printed_pack_loads(raw: Raw, pack: RommelPack) -> None:
    assert load_pack(json.dumps(raw, indent=2).encode()) == pack


def test_float_refused(raw: Raw) -> None:
    raw["deck"]["real"] = 28.5
    assert "integers only" in rejected(raw)


def test_missing_source_refused_naming_the_record(raw: Raw) -> None:
    raw["blocks"][0]["sources"]["cv"] = "guessed"
    assert "de-5pz" in rejected(raw)


# --- every cross-check refuses a broken copy -----------------------------------------------------------


def _hex(raw: Raw, place: str) -> str:
    return str(next(p["hex"] for p in raw["map"]["places"] if p["id"] == place))


def _set_place(raw: Raw, place: str, **changes: Any) -> None:
    next(p for p in raw["map"]["places"] if p["id"] == place).update(changes)


BREAKS: list[tuple[str, Callable[[Raw], None], str]] = [
    ("wrong game", lambda r: r["meta"].update(game="other"), "meta.game"),
    ("missing limit", lambda r: r["tables"]["limits"].pop(0), "road_bonus_highway"),
    ("fire cell missing", lambda r: r["tables"]["fire"].pop(), "artillery>artillery"),
    ("duplicate hex", lambda r: r["map"]["hexes"].append(r["map"]["hexes"][0]), r"hex id"),
    ("hex off grid", lambda r: r["map"]["hexes"][0].update(id="9901"), "9901"),
    ("hexside not adjacent", lambda r: r["map"]["hexsides"][0].update(b=_hex(r, "alexandria")), "not adjacent"),
    ("named ridge", lambda r: r["map"]["hexsides"][0].update(name="X"), "only a gap"),
    ("road jumps", lambda r: r["map"]["roads"][0]["hexes"].append(_hex(r, "jalo")), "coast-highway"),
    (
        "road over a ridge",
        lambda r: next(s for s in r["map"]["hexsides"] if s["name"] == "Sollum-Sidi Omar gap").update(
            terrain="ridge", name=None
        ),
        "frontier-trail",
    ),
    ("two axis bases", lambda r: _set_place(r, "agedabia", kind="base", side="axis"), "exactly one axis base"),
    ("base inland", lambda r: _set_place(r, "el-agheila", hex=_hex(r, "agedabia")), "west map edge"),
    ("fortress without port", lambda r: _set_place(r, "tobruk", port=None), "tobruk"),
    ("hex name wrong", lambda r: r["map"]["hex_names"][0].update(distance=2), "Msus E1"),
    ("line skips", lambda r: r["map"]["lines"][0]["hexes"].pop(1), "gazala-axis-line"),
    ("unknown unit type", lambda r: r["blocks"][0].update(unit_type="zeppelin"), "de-5pz"),
    ("german not elite", lambda r: r["blocks"][0].update(elite=False), "de-5pz"),
    ("half step", lambda r: r["blocks"][0].update(cv_max=5), "de-5pz"),
    ("five i-tanks", lambda r: next(b for b in r["blocks"] if b["id"] == "uk-7ad-4").update(i_tank=True), "uk-7ad-4"),
    ("count wrong", lambda r: r["scenarios"][2]["axis"]["deployments"][0].update(count=9), "1941"),
    ("unknown area", lambda r: r["scenarios"][2]["allied"]["deployments"][0]["where"].append("mars"), "mars"),
    ("wrong label", lambda r: r["scenarios"][2]["axis"]["reinforcements"][0].update(month=4), "1941"),
    ("block twice", lambda r: r["scenarios"][2]["axis"]["reinforcements"][0]["blocks"].append("de-5pz"), "de-5pz"),
    ("deck split", lambda r: r["deck"].update(dummy=15), "two thirds"),
    (
        "cut map",
        lambda r: r["map"]["hexsides"].append(
            {
                "a": _hex(r, "el-agheila"),
                "b": _hex(r, "mersa-brega"),
                "terrain": "ridge",
                "name": None,
                "source": "reconstructed: x",
            }
        ),
        "coast-highway",
    ),
]


def _sc(raw: Raw, scenario: str) -> Raw:
    found: Raw = next(s for s in raw["scenarios"] if s["id"] == scenario)
    return found


def _block(raw: Raw, block: str) -> Raw:
    found: Raw = next(b for b in raw["blocks"] if b["id"] == block)
    return found


def _first_marsh(raw: Raw) -> Raw:
    found: Raw = next(s for s in raw["map"]["hexsides"] if s["terrain"] == "marsh")
    return found


def _road(raw: Raw, road: str) -> Raw:
    found: Raw = next(x for x in raw["map"]["roads"] if x["id"] == road)
    return found


def _retype_artillery(raw: Raw) -> None:
    for row in raw["unit_types"]:
        if row["arms_class"] == "artillery":
            row["arms_class"] = "infantry"


BREAKS += [
    (
        "duplicate limit",
        lambda r: r["tables"]["limits"].append(r["tables"]["limits"][0]),
        "row id 'road_bonus_highway'",
    ),
    ("fire level missing", lambda r: r["tables"]["fire_levels"].pop(), "exactly sf, df and tf"),
    ("fire level twice", lambda r: r["tables"]["fire_levels"].append(r["tables"]["fire_levels"][0]), "row id 'sf'"),
    ("line twice", lambda r: r["map"]["lines"].append(r["map"]["lines"][0]), "line id"),
    ("fire cell twice", lambda r: r["tables"]["fire"].append(r["tables"]["fire"][0]), "armor>armor"),
    ("artillery cell null", lambda r: r["tables"]["fire"][-1].update(fire=None), "artillery>artillery"),
    ("armor cell null", lambda r: r["tables"]["fire"][0].update(fire=None), "armor>armor"),
    ("grid firsts differ", lambda r: r["map"]["grid"].update(rows=[0, 12]), "differ"),
    ("grid range reversed", lambda r: r["map"]["grid"].update(cols=[1, 0]), "not a range"),
    ("hex id digits", lambda r: r["map"]["hexes"][0].update(id="01011"), "01011"),
    ("hexside off map", lambda r: r["map"]["hexsides"][0].update(a="9999"), "9999"),
    ("hexside twice", lambda r: r["map"]["hexsides"].append(r["map"]["hexsides"][0]), "listed twice"),
    ("depression opened", lambda r: _first_marsh(r).update(terrain="clear"), "bounded by marsh"),
    ("road id twice", lambda r: r["map"]["roads"].append(r["map"]["roads"][1]), "road id"),
    (
        "road loops",
        lambda r: _road(r, "mechili-gazala")["hexes"].append(_road(r, "mechili-gazala")["hexes"][0]),
        "twice",
    ),
    ("no highway", lambda r: r["map"]["roads"][0].update(kind="track"), "no highway"),
    ("place id twice", lambda r: r["map"]["places"].append(r["map"]["places"][1]), "place id"),
    ("place name twice", lambda r: _set_place(r, "msus", name="Tobruk"), "Tobruk"),
    ("town with a side", lambda r: _set_place(r, "msus", side="axis"), "msus"),
    ("town with a port", lambda r: _set_place(r, "msus", port={"axis": 1, "allied": 1}), "msus"),
    ("box of the wrong base", lambda r: r["map"]["offboard"][0].update(base="alexandria"), "axis-box"),
    ("box on the map", lambda r: r["map"]["offboard"][0].update(direction="e"), "axis-box"),
    ("box of no place", lambda r: r["map"]["offboard"][0].update(base="atlantis"), "atlantis"),
    ("flat direction", lambda r: r["map"]["hex_names"][0].update(direction="n"), "Msus E1"),
    ("exit inland", lambda r: r["map"]["exits"][0]["hexes"].append(_hex(r, "tobruk")), "not on the east map edge"),
    ("exit missing", lambda r: r["map"]["exits"].pop(), "map.exits"),
    ("area twice", lambda r: r["map"]["areas"].append(r["map"]["areas"][0]), "area id"),
    ("area hex twice", lambda r: r["map"]["areas"][0]["hexes"].append(r["map"]["areas"][0]["hexes"][0]), "libya"),
    ("area off map", lambda r: r["map"]["areas"][0]["hexes"].append("9999"), "libya"),
    ("line waypoint unknown", lambda r: r["map"]["lines"][0]["waypoints"].append("atlantis"), "atlantis"),
    ("line misses waypoint", lambda r: r["map"]["lines"][0]["waypoints"].append("tobruk"), "tobruk"),
    ("unit type twice", lambda r: r["unit_types"].append(r["unit_types"][0]), "unit type id"),
    ("no artillery class", _retype_artillery, "four arms classes"),
    ("british on the axis side", lambda r: r["blocks"][0].update(nationality="british"), "de-5pz"),
    ("italian elite", lambda r: _block(r, "it-ariete").update(elite=True), "it-ariete"),
    ("elite allied infantry", lambda r: _block(r, "aus-9-20").update(elite=True), "aus-9-20"),
    ("cv range upside down", lambda r: _block(r, "uk-11h").update(cv_min=4), "uk-11h"),
    ("three i-tanks", lambda r: _block(r, "uk-1at").update(i_tank=False), "3 blocks have i_tank"),
    ("block id twice", lambda r: r["blocks"].append(r["blocks"][0]), "block id"),
    ("scenario id twice", lambda r: r["scenarios"].append(r["scenarios"][0]), "scenario id"),
    ("months reversed", lambda r: _sc(r, "1941").update(first_month=11), "1941"),
    ("joins nothing", lambda r: _sc(r, "1941-42").update(joins="1999"), "1999"),
    ("minefield nowhere", lambda r: _sc(r, "crusader").update(minefields=["atlantis"]), "atlantis"),
    ("unknown block", lambda r: _sc(r, "1941")["axis"]["deployments"][0]["blocks"].append("de-99"), "de-99"),
    (
        "block of the other side",
        lambda r: _sc(r, "1941")["allied"]["deployments"][0]["blocks"].__setitem__(0, "de-5pz"),
        "de-5pz",
    ),
    ("choose too many", lambda r: _sc(r, "1942")["axis"]["deployments"][0].update(choose=True, count=30), "choose 30"),
    ("stated start", lambda r: _sc(r, "1941")["axis"].update(stated_start=11), "states 11"),
    ("stated reinforcements", lambda r: _sc(r, "1941")["axis"].update(stated_reinforcements=13), "states 13"),
    ("arrives after the end", lambda r: _sc(r, "crusader")["allied"]["reinforcements"][0].update(month=11), "crusader"),
    ("deck too small", lambda r: r["deck"].update(real=14, dummy=7), "scenario 'crusader': initial hands"),
    (
        "hand over the limit",
        lambda r: _sc(r, "crusader")["allied"].update(initial_cards=17),
        "scenario 'crusader': an initial hand",
    ),
]


@pytest.mark.parametrize(("label", "breaker", "named"), BREAKS, ids=[b[0] for b in BREAKS])
def test_cross_checks_refuse_broken_copies(raw: Raw, label: str, breaker: Callable[[Raw], None], named: str) -> None:
    breaker(raw)
    assert named in rejected(raw), label


def test_disconnected_map_refused(raw: Raw) -> None:
    jalo = _hex(raw, "jalo")
    # wall Jalo in with ridges on every side and take its trail away
    raw["map"]["roads"] = [road for road in raw["map"]["roads"] if road["id"] != "agedabia-jalo"]
    pack = load_pack(default_pack_bytes())
    for nxt in pack.map.grid.neighbours(jalo):
        if nxt in pack.land() and pack.hexside(jalo, nxt) == "clear":
            raw["map"]["hexsides"].append(
                {"a": jalo, "b": nxt, "terrain": "ridge", "name": None, "source": "reconstructed: x"}
            )
    assert "not connected" in rejected(raw)


# --- rulebook facts ------------------------------------------------------------------------------------


@pytest.mark.rule("1.6")
def test_r1_6_bases(pack: RommelPack) -> None:
    grid = pack.map.grid
    agheila, alexandria = pack.place("el-agheila"), pack.place("alexandria")
    assert (agheila.kind, agheila.side, alexandria.kind, alexandria.side) == ("base", "axis", "base", "allied")
    assert grid.step(agheila.hex, "w") not in pack.land() and grid.step(alexandria.hex, "e") not in pack.land()


@pytest.mark.rule("13.3")
def test_r13_3_port_capacities(pack: RommelPack) -> None:
    ports = {p.id: (p.port.axis, p.port.allied) for p in pack.map.places if p.port is not None}
    assert ports == {"tobruk": (2, 5), "bardia": (1, 2), "benghazi": (1, 2)}


@pytest.mark.rule("13.3")
def test_r13_3_older_maps_halve_the_allied_capacity(pack: RommelPack) -> None:
    for place in pack.map.places:
        if place.port is not None:
            assert place.port.axis == place.port.allied // 2


@pytest.mark.rule("1.8")
def test_r1_8_oases(pack: RommelPack) -> None:
    assert {p.id for p in pack.map.places if p.kind == "oasis"} == {"jalo", "siwa", "jarabub"}


@pytest.mark.rule("1.7")
def test_r1_7_fortresses(pack: RommelPack) -> None:
    assert {p.id for p in pack.map.places if p.kind == "fortress"} == {"benghazi", "tobruk", "bardia"}


@pytest.mark.rule("1.1")
def test_r1_1_direction_names(pack: RommelPack) -> None:
    grid = pack.map.grid
    names = {n.name: n.hex for n in pack.map.hex_names}
    assert names["Msus E1"] == grid.step(hex_of(pack, "msus"), "e")
    alamein = hex_of(pack, "el-alamein")
    assert names["El Alamein SW1"] == grid.step(alamein, "sw")
    assert names["Alamein SW2"] == grid.step(grid.step(alamein, "sw"), "sw")
    assert pack.map.grid.orientation == "pointy"


@pytest.mark.rule("1.4")
def test_r1_4_hexside_passability(pack: RommelPack) -> None:
    agheila = hex_of(pack, "el-agheila")
    assert pack.hexside(agheila, hex_of(pack, "mersa-brega")) == "clear"
    jebel = [h.id for h in pack.map.hexes if h.terrain == "mountain"]
    assert jebel
    for a in jebel:
        for b in pack.map.grid.neighbours(a):
            if b in pack.land():
                assert pack.hexside(a, b) == "mountain"
                assert pack.passable(a, b) == (frozenset((a, b)) in pack.road_links())


@pytest.mark.rule("1.5")
def test_r1_5_road_kinds(pack: RommelPack) -> None:
    assert {r.kind for r in pack.map.roads} == {"highway", "track", "trail"}
    highway = next(r for r in pack.map.roads if r.kind == "highway")
    assert highway.hexes[0] == hex_of(pack, "el-agheila") and highway.hexes[-1] == hex_of(pack, "alexandria")


@pytest.mark.rule("5.3")
def test_r5_3_mechili_supply_lines(pack: RommelPack) -> None:
    roads = ("track", "trail")
    highway = set(next(r for r in pack.map.roads if r.kind == "highway").hexes)
    for end in ("agedabia", "beda-fomm", "ghemines", "er-regima", "derna", "gazala", "bir-harmat"):
        assert hex_of(pack, end) in highway
    assert road_steps(pack, "mechili", "msus", roads) <= pack.limit("supply_range_track")
    assert road_steps(pack, "mechili", "charruba", roads) <= pack.limit("supply_range_track")
    for end in ("agedabia", "beda-fomm", "ghemines", "er-regima"):
        assert road_steps(pack, "msus", end, roads) <= pack.limit("supply_range_track")
    assert road_steps(pack, "charruba", "er-regima", roads) <= pack.limit("supply_range_track")
    assert road_steps(pack, "mechili", "gazala", roads) <= pack.limit("supply_range_track")


@pytest.mark.rule("5.3")
def test_r5_3_withdrawal_routes_toward_the_base(pack: RommelPack) -> None:
    """Routes 1-5 (via Msus or Charruba) never step away from El Agheila; routes 6-8 do."""
    grid, base = pack.map.grid, hex_of(pack, "el-agheila")
    roads = ("track", "trail")

    def route(*places: str) -> list[str]:
        hexes = [hex_of(pack, "mechili")]
        for a, b in pairwise(places):
            path = pack.road_path(hex_of(pack, a), hex_of(pack, b), roads)
            assert path is not None, (a, b)
            hexes += path[1:]
        return hexes

    def steps_away(hexes: list[str]) -> int:
        return sum(1 for a, b in pairwise(hexes) if grid.distance(b, base) > grid.distance(a, base))

    for via, end in (("msus", "agedabia"), ("msus", "beda-fomm"), ("msus", "ghemines"), ("msus", "er-regima")):
        assert steps_away(route("mechili", via, end)) == 0, end
    assert steps_away(route("mechili", "charruba", "er-regima")) == 0
    for end in ("derna", "gazala", "bir-harmat"):
        assert steps_away(route("mechili", end)) > 0, end


@pytest.mark.rule("5.3")
def test_r5_3_highway_jogs_at_bardia(pack: RommelPack) -> None:
    grid, base = pack.map.grid, hex_of(pack, "el-agheila")
    bardia, capuzzo = hex_of(pack, "bardia"), hex_of(pack, "ft-capuzzo")
    assert capuzzo in grid.neighbours(bardia) and pack.road_links()[frozenset((bardia, capuzzo))] == "highway"
    assert grid.distance(bardia, base) == grid.distance(capuzzo, base) + 1
    highway = next(r for r in pack.map.roads if r.kind == "highway").hexes
    rises = [b for a, b in pairwise(highway) if grid.distance(b, base) < grid.distance(a, base)]
    assert rises == [capuzzo]  # walking east, only Capuzzo is nearer the Axis Base than the hex before it


@pytest.mark.rule("12.7")
def test_r12_7_supply_example_a(pack: RommelPack) -> None:
    assert road_steps(pack, "bir-harmat", "mechili", ("track",)) == 3
    assert road_steps(pack, "mechili", "derna", ("trail",)) == 2


@pytest.mark.rule("12.7")
def test_r12_7_supply_example_b(pack: RommelPack) -> None:
    assert road_steps(pack, "er-regima", "ghemines", ("track", "trail")) == 2
    path = pack.road_path(hex_of(pack, "er-regima"), hex_of(pack, "ghemines"), ("track", "trail"))
    assert path is not None and hex_of(pack, "benghazi") not in path


@pytest.mark.rule("12.7")
def test_r12_7_supply_figure(pack: RommelPack) -> None:
    path = pack.road_path(hex_of(pack, "mersa-matruh"), hex_of(pack, "siwa"), ("track",))
    assert path is not None and len(path) - 1 == 6  # [B] 3 hexes along the track, Siwa a further 3
    trail = next(r for r in pack.map.roads if r.id == "sidi-barrani-sofafi")
    assert trail.kind == "trail" and len(trail.hexes) - 1 == 2 and trail.hexes[1] == hex_of(pack, "sofafi")
    grid = pack.map.grid
    assert grid.step(grid.step(hex_of(pack, "sidi-omar"), "e"), "e") == hex_of(pack, "sofafi")
    barrani = hex_of(pack, "sidi-barrani")
    assert any(pack.hexside(barrani, n) == "ridge" for n in grid.neighbours(barrani))


@pytest.mark.rule("19.0")
def test_r19_0_sollum_three_gaps(pack: RommelPack) -> None:
    grid, sollum = pack.map.grid, hex_of(pack, "sollum")
    sides = {n: pack.hexside(sollum, n) for n in grid.neighbours(sollum) if n in pack.land()}
    assert sorted(str(t) for t in sides.values() if t != "clear") == ["gap", "gap", "gap", "ridge"]
    assert sides[hex_of(pack, "ft-capuzzo")] == "gap" and sides[hex_of(pack, "sidi-omar")] == "gap"
    gaps = sum(pack.limit("hexside_limit_gap") for t in sides.values() if t == "gap")
    assert gaps == 3
    assert sides[hex_of(pack, "buq-buq")] == "clear"


@pytest.mark.rule("19.0")
def test_r19_0_demo_geography(pack: RommelPack) -> None:
    grid = pack.map.grid
    habata = hex_of(pack, "bir-habata")
    for end in ("sidi-omar", "sofafi"):
        assert hex_of(pack, end) in grid.neighbours(habata) and pack.passable(habata, hex_of(pack, end))
    assert pack.hexside(hex_of(pack, "buq-buq"), hex_of(pack, "sofafi")) == "ridge"
    assert hex_of(pack, "sidi-omar") in grid.neighbours(hex_of(pack, "ft-capuzzo"))
    redeploy = pack.limit("redeployment_hexes") + pack.limit("road_bonus_highway")
    assert road_steps(pack, "mersa-matruh", "alexandria", ("highway",)) <= redeploy
    assert road_steps(pack, "buq-buq", "bardia", ("highway",)) <= redeploy
    for place, units in (("bardia", 1), ("ft-capuzzo", 4), ("sidi-omar", 3)):
        dep = next(d for d in pack.scenario("demo-1940").axis.deployments if d.where == (place,))
        assert dep.count == units
    for place, units in (("sollum", 1), ("buq-buq", 2), ("sofafi", 1)):
        dep = next(d for d in pack.scenario("demo-1940").allied.deployments if d.where == (place,))
        assert dep.count == units


@pytest.mark.rule("19.0")
def test_r19_0_demo_unit_types(pack: RommelPack) -> None:
    demo = pack.scenario("demo-1940")
    speed = {b.id: pack.unit_type(b.unit_type).speed for b in pack.blocks}
    axis = [b for d in demo.axis.deployments for b in d.blocks]
    assert all(speed[b] < 3 for b in axis)  # no mechanized or faster Axis units
    buq = next(d for d in demo.allied.deployments if d.id == "buq-buq").blocks
    assert sorted(pack.block(b).unit_type for b in buq) == ["armor", "mech_inf"]
    assert pack.fire("armor", "infantry") == "df" and pack.fire("infantry", "infantry") == "sf"


@pytest.mark.rule("18.7")
def test_r18_7_gazala_lines(pack: RommelPack) -> None:
    axis, allied = pack.area("gazala-axis"), pack.area("gazala-allied")
    for place in ("gazala", "segnali-rotunda", "tengeder", "agedabia", "el-agheila", "benghazi", "mechili"):
        assert hex_of(pack, place) in axis.hexes
    for place in ("acroma", "sidi-mufta", "bir-hacheim", "retma", "bir-guba", "jarabub", "tobruk", "alexandria"):
        assert hex_of(pack, place) in allied.hexes
    assert not set(axis.hexes) & set(allied.hexes)
    assert hex_of(pack, "bir-harmat") not in axis.hexes + allied.hexes


@pytest.mark.rule("18.1")
def test_r18_1_regions(pack: RommelPack) -> None:
    libya, egypt = set(pack.area("libya").hexes), set(pack.area("egypt").hexes)
    for place in ("el-agheila", "benghazi", "tobruk", "bardia", "ft-capuzzo", "jarabub", "jalo"):
        assert hex_of(pack, place) in libya
    for place in ("sidi-omar", "sollum", "sidi-barrani", "siwa", "alexandria"):
        assert hex_of(pack, place) in egypt


@pytest.mark.rule("2.2")
def test_r2_2_unit_types(pack: RommelPack) -> None:
    table = {t.id: (t.arms_class, t.speed, t.replacement_bp) for t in pack.unit_types}
    assert table == {
        "recon": ("armor", 4, 3),
        "armor": ("armor", 3, 3),
        "mech_inf": ("infantry", 3, 2),
        "mot_inf": ("infantry", 2, 2),
        "infantry": ("infantry", 1, 1),
        "para": ("infantry", 1, 1),
        "mobile_at": ("anti_tank", 3, 3),
        "mot_at": ("anti_tank", 2, 3),
        "sp_artillery": ("artillery", 3, 3),
        "artillery": ("artillery", 1, 3),
    }


@pytest.mark.rule("2.4")
def test_r2_4_elite_units(pack: RommelPack) -> None:
    for block in pack.blocks:
        if block.nationality == "german":
            assert block.elite
        if block.nationality == "italian":
            assert not block.elite
    assert sum(1 for b in pack.blocks if b.i_tank) == 4
    assert {b.unit for b in pack.blocks if b.i_tank} >= {"1AT", "32AT"}


@pytest.mark.rule("9.4")
def test_r9_4_fire_table(pack: RommelPack) -> None:
    assert {(lvl.id, lvl.hit_min) for lvl in pack.tables.fire_levels} == {("sf", 6), ("df", 5), ("tf", 4)}
    assert pack.fire("armor", "armor") == "sf"
    assert pack.fire("armor", "infantry") == "df"
    assert pack.fire("infantry", "infantry") == "sf"
    assert pack.tables.unsupported_artillery.fire == "tf"
    for firer in ("armor", "infantry", "anti_tank"):
        assert pack.fire(firer, "artillery") is None  # only artillery targets supported artillery (§9.3)
    assert pack.fire("artillery", "artillery") is not None
    assert len(pack.tables.fire) == len(ARMS_CLASSES) ** 2


@pytest.mark.rule("16.6")
def test_r16_6_deck_and_hand(pack: RommelPack) -> None:
    assert pack.deck.real == 2 * pack.deck.dummy
    assert pack.limit("hand_limit") == 16


NUMBERS = [
    ("road_bonus_highway", 4, "6.2"),
    ("road_bonus_track", 2, "6.2"),
    ("road_bonus_trail", 1, "6.2"),
    ("supply_range_track", 3, "12.4"),
    ("supply_range_trail", 2, "12.4"),
    ("supply_range_none", 1, "12.4"),
    ("hexside_limit_clear", 2, "7.1"),
    ("hexside_limit_gap", 1, "7.1"),
    ("hexside_limit_mountain", 1, "7.1"),
    ("rommel_bonus", 1, "6.3"),
    ("forced_march_min", 4, "6.4"),
    ("early_arrival_max", 2, "16.41"),
    ("pursuit_hit_min", 4, "10.5"),
    ("hand_limit", 16, "16.6"),
    ("bp_save_limit", 20, "16.5"),
    ("bp_extra_card", 10, "16.5"),
    ("bp_minefield", 15, "16.55"),
    ("bp_redeployment", 1, "16.51"),
    ("redeployment_hexes", 2, "16.51"),
    ("bp_sea_redeployment", 1, "16.53"),
    ("bp_sea_redeployment_besieged_allied", 4, "16.53"),
    ("cost_basic", 1, "4.1"),
    ("cost_offensive", 2, "4.2"),
    ("cost_assault", 2, "4.3"),
    ("cost_blitz", 3, "4.4"),
    ("cost_pass", 0, "4.5"),
    ("double_dice", 2, "9.21"),
    ("fortress_assault_dice", 4, "13.2"),
    ("elite_step", 2, "2.3"),
    ("step", 1, "2.3"),
    ("strategic_exit_units", 3, "17.1"),
    ("decisive_ratio", 2, "17.2"),
    ("german_unit_halves", 3, "17.2"),
    ("status_markers", 12, "2.1"),
    ("vp_strategic", 10, "17.1"),
    ("vp_decisive", 5, "17.2"),
    ("vp_positional", 2, "17.3"),
    ("vp_attrition", 1, "17.4"),
    ("i_tanks", 4, "17.0"),
    ("i_tank_speed", 2, "17.0"),
    ("bp_dice", 2, "16.3"),
    ("oasis_supply_units", 1, "15.1"),
    ("pursuit_dice_equal", 1, "10.5"),
    ("pursuit_dice_faster", 2, "10.5"),
    ("rout_attrition_steps", 1, "11.3"),
    ("forced_march_hexes", 1, "6.4"),
    ("forced_march_retreat_steps", 1, "6.4"),
    ("regroup_reach", 1, "5.2"),
    ("moves_basic", 1, "4.1"),
    ("moves_offensive", 2, "4.2"),
    ("moves_assault", 1, "4.3"),
    ("moves_blitz", 2, "4.4"),
    ("combat_rounds_blitz", 2, "4.4"),
    ("withdrawals_pass", 1, "4.5"),
    ("rommel_moves", 1, "6.3"),
    ("minefield_swap", 2, "16.55"),
    ("bp_refit", 0, "16.52"),
    ("initiative_cards", 1, "3.3"),
    ("early_arrival_months", 1, "16.41"),
]


@pytest.mark.parametrize(
    ("row", "value", "section"),
    [pytest.param(*n, marks=pytest.mark.rule(n[2]), id=n[0]) for n in NUMBERS],
)
def test_rulebook_numbers(pack: RommelPack, row: str, value: int, section: str) -> None:
    """Each number the text states, with its section; the list covers every row of tables.limits."""
    limit = next(r for r in pack.tables.limits if r.id == row)
    assert (limit.value, limit.rule) == (value, section)


def test_every_limit_is_checked(pack: RommelPack) -> None:
    assert {r.id for r in pack.tables.limits} == {n[0] for n in NUMBERS}


SCENARIOS = [
    # id, section, first, last, axis cards, axis resupply, allied cards, allied resupply, axis start, allied start
    ("1940", "18.1", 1, 6, 6, 2, 3, 3, 8, 4),
    ("1941", "18.2", 1, 10, 6, 2, 6, 3, 10, 12),
    ("1941-42", "18.3", 1, 20, 6, 2, 6, 3, 10, 12),
    ("crusader", "18.4", 8, 10, 10, 2, 12, 3, 22, 28),
    ("battleaxe", "18.5", 4, 10, 4, 2, 8, 3, 14, 18),
    ("1942", "18.6", 11, 20, 5, 3, 5, 3, 24, 28),
    ("gazala", "18.7", 14, 15, 10, 3, 12, 3, 24, 36),
    ("pursuit", "18.8", 15, 20, 8, 3, 8, 3, 22, 28),
]


@pytest.mark.parametrize("row", [pytest.param(s, marks=pytest.mark.rule(s[1]), id=s[0]) for s in SCENARIOS])
def test_scenarios(pack: RommelPack, row: tuple[Any, ...]) -> None:
    sid, section, first, last, axc, axr, alc, alr, axs, als = row
    sc = pack.scenario(sid)
    assert (sc.section, sc.first_month, sc.last_month) == (section, first, last)
    assert (sc.axis.initial_cards, sc.axis.resupply, sc.allied.initial_cards, sc.allied.resupply) == (
        axc,
        axr,
        alc,
        alr,
    )
    assert sum(d.count for d in sc.axis.deployments) == axs
    assert sum(d.count for d in sc.allied.deployments) == als


@pytest.mark.rule("18.1")
def test_r18_1_scenario_1940_rules(pack: RommelPack) -> None:
    sc = pack.scenario("1940")
    assert not sc.rommel_bonus and sc.bp_dice == 1 and not sc.labels_apply
    assert all(pack.block(b).nationality == "italian" for d in sc.axis.deployments for b in d.blocks)


@pytest.mark.rule("18.2")
def test_r18_2_scenario_1941_reinforcements(pack: RommelPack) -> None:
    sc = pack.scenario("1941")
    assert [a.month for a in sc.axis.reinforcements] == [3, 5, 7]
    assert [a.month for a in sc.allied.reinforcements] == [2, 4, 6, 8, 10]
    assert sum(len(a.blocks) for a in sc.axis.reinforcements) == 12
    assert sum(len(a.blocks) for a in sc.allied.reinforcements) == 24
    assert len(next(a for a in sc.axis.reinforcements if a.month == 3).blocks) == 4  # §16.41 example
    assert len(next(a for a in sc.allied.reinforcements if a.month == 2).blocks) == 4


@pytest.mark.rule("18.3")
def test_r18_3_campaign(pack: RommelPack) -> None:
    sc = pack.scenario("1941-42")
    assert [(c.cards, c.month, c.trigger) for c in sc.axis.resupply_changes] == [
        (3, 11, None),
        (2, None, "malta_group"),
    ]


@pytest.mark.rule("18.4")
def test_r18_4_crusader(pack: RommelPack) -> None:
    sc = pack.scenario("crusader")
    assert sc.first_player == "allied" and sc.minefields == ("tobruk",)
    assert sc.allied.deployments[0].caps[0].at_most == 5
    labels = {pack.block(b).label for b in sc.axis.deployments[0].blocks}
    assert labels == {"S", "3", "5", "7"}


@pytest.mark.rule("18.5")
def test_r18_5_battleaxe(pack: RommelPack) -> None:
    sc = pack.scenario("battleaxe")
    assert sc.axis.deployments[0].excluding == ("tobruk",)


@pytest.mark.rule("18.6")
def test_r18_6_scenario_1942_malta(pack: RommelPack) -> None:
    sc = pack.scenario("1942")
    malta = [a for a in sc.axis.reinforcements if a.optional]
    assert malta and all(pack.block(b).label == "M" for a in malta for b in a.blocks)
    caps = {c.place: c.at_most for c in sc.axis.deployments[0].caps}
    assert caps == {"el-agheila": 14, "mersa-brega": 10}


@pytest.mark.rule("18.7")
def test_r18_7_gazala_pregame(pack: RommelPack) -> None:
    sc = pack.scenario("gazala")
    assert sc.pregame_buildup is not None
    assert (sc.pregame_buildup.first, sc.pregame_buildup.bp) == ("allied", 30)


# --- map sanity ----------------------------------------------------------------------------------------


def test_every_road_is_passable(pack: RommelPack) -> None:
    for road in pack.map.roads:
        for a, b in pairwise(road.hexes):
            assert pack.passable(a, b), (road.id, a, b)


def test_alamein_gap_is_the_only_way_east(pack: RommelPack) -> None:
    grid = pack.map.grid
    alamein = hex_of(pack, "el-alamein")
    gap = {alamein} | {h for h in pack.land() if grid.parse(h)[0] == grid.parse(alamein)[0] and h != alamein}
    blocked = {h for h in gap if pack.hexside(h, h) is None}
    start, goal = hex_of(pack, "mersa-matruh"), hex_of(pack, "alexandria")
    seen, todo = {start}, [start]
    while todo:
        here = todo.pop()
        for nxt in grid.neighbours(here):
            if nxt in pack.land() and nxt not in seen and nxt not in blocked and pack.passable(here, nxt):
                seen.add(nxt)
                todo.append(nxt)
    assert goal not in seen  # every route east crosses Alamein's column between the sea and the Qattara


# --- the text's worked examples ------------------------------------------------------------------------


@pytest.mark.rule("6.2")
def test_r6_2_road_bonus_example(pack: RommelPack) -> None:
    recon = pack.unit_type("recon").speed
    bonus = {kind: pack.limit(f"road_bonus_{kind}") for kind in ("highway", "track", "trail")}
    assert (recon + bonus["highway"], recon + bonus["track"], recon + bonus["trail"]) == (8, 6, 5)
    assert recon + min(bonus["track"], bonus["trail"]) == 5  # tracks and trails: the lesser bonus


@pytest.mark.rule("16.51")
def test_r16_51_redeployment_example(pack: RommelPack) -> None:
    assert pack.limit("redeployment_hexes") + pack.limit("road_bonus_highway") == 6
    assert pack.limit("bp_redeployment") == 1


@pytest.mark.rule("9.4")
def test_r9_4_unit_fire_example(pack: RommelPack) -> None:
    hit_min = next(lvl.hit_min for lvl in pack.tables.fire_levels if lvl.id == pack.fire("armor", "infantry"))
    assert sum(1 for die in (4, 5, 1, 6, 3, 3) if die >= hit_min) == 2


@pytest.mark.rule("9.21")
def test_r9_21_double_dice_example(pack: RommelPack) -> None:
    assert 3 * pack.limit("double_dice") == 6
    assert pack.fire("infantry", "infantry") == "sf"


@pytest.mark.rule("13.4")
def test_r13_4_captured_supply_example(pack: RommelPack) -> None:
    benghazi = pack.place("benghazi").port
    assert benghazi is not None
    assert (benghazi.allied, benghazi.axis) == (2, 1)  # the Axis captures 2 cards (enemy capacity), the Allies 1


@pytest.mark.rule("16.53")
def test_r16_53_port_capacity_example(pack: RommelPack) -> None:
    tobruk = pack.place("tobruk").port
    assert tobruk is not None
    assert tobruk.allied >= 2 + 3 and 1 + 1 <= tobruk.axis < 1 + 2
    assert (2 + 3) * pack.limit("bp_sea_redeployment") == 5


@pytest.mark.rule("16.54")
def test_r16_54_replacement_costs_in_the_demo(pack: RommelPack) -> None:
    demo = pack.scenario("demo-1940")
    mech = next(b for d in demo.allied.deployments for b in d.blocks if pack.block(b).unit_type == "mech_inf")
    assert pack.unit_type(pack.block(mech).unit_type).replacement_bp == 2  # 1 step for 2 BPs
    leg = pack.block("it-brescia")
    assert 2 * pack.unit_type(leg.unit_type).replacement_bp == 2  # 2 steps for 2 BPs


@pytest.mark.rule("19.0")
def test_r19_0_demo_moves(pack: RommelPack) -> None:
    grid = pack.map.grid
    leg = pack.unit_type("infantry").speed
    highway = pack.limit("road_bonus_highway")
    assert road_steps(pack, "ft-capuzzo", "buq-buq", ("highway",)) <= leg + highway
    assert road_steps(pack, "sollum", "sidi-barrani", ("highway",)) <= leg + highway
    assert grid.distance(hex_of(pack, "sidi-omar"), hex_of(pack, "sofafi")) == leg + 1  # a forced march
    east = next(n.hex for n in pack.map.hex_names if n.name == "Sidi Barrani E1")
    sofafi, buq = hex_of(pack, "sofafi"), hex_of(pack, "buq-buq")
    assert sofafi in grid.neighbours(buq)  # in reach of the Command Point at Buq Buq, across the ridge
    assert pack.passable(sofafi, hex_of(pack, "sidi-barrani")) and east in grid.neighbours(hex_of(pack, "sidi-barrani"))
    assert grid.parse(east)[0] < grid.parse(hex_of(pack, "mersa-matruh"))[0]  # "west of Mersa Matruh"
    tobruk_to_sollum = road_steps(pack, "tobruk", "sollum", ("highway",))
    assert tobruk_to_sollum <= pack.limit("redeployment_hexes") + highway
    # Month 2: Tobruk to Sofafi in two Redeployments: 6 highway hexes to Sollum, then along the highway and the
    # Sidi Barrani trail (the lesser bonus, the trail's, applies).
    assert grid.distance(hex_of(pack, "sollum"), sofafi) == pack.limit("redeployment_hexes")
    second = road_steps(pack, "sollum", "sofafi", ("highway", "trail"))
    assert second <= pack.limit("redeployment_hexes") + pack.limit("road_bonus_trail")


def test_renderer_grid_agrees(pack: RommelPack) -> None:
    grid, drawing = pack.map.grid, pack.map.grid.hex_grid()
    for h in pack.map.hexes:
        col, row = grid.parse(h.id)
        assert drawing.hex_id(col, row) == h.id
        drawn = {drawing.hex_id(c, r) for c, r in drawing.neighbors(col, row)}
        assert {n for n in grid.neighbours(h.id) if n in pack.land()} <= drawn
    west, east = (
        drawing.center(*grid.parse(hex_of(pack, "el-agheila"))),
        drawing.center(*grid.parse(hex_of(pack, "alexandria"))),
    )
    assert west[0] < east[0]


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("stagger", ["odd", "even"])
@pytest.mark.parametrize("first", [0, 1])
def test_grid_geometry_matches_the_renderer(pack: RommelPack, orientation: str, stagger: str, first: int) -> None:
    grid = pack.map.grid.model_copy(
        update={"orientation": orientation, "stagger": stagger, "cols": (first, 9), "rows": (first, 8)}
    )
    drawing = grid.hex_grid()
    for col in range(first + 1, 9):
        for row in range(first + 1, 8):
            here = grid.format(col, row)
            assert grid.offset(*grid.axial(here)) == here
            mine = set(grid.neighbours(here))
            theirs = {drawing.hex_id(c, r) for c, r in drawing.neighbors(col, row)}
            assert mine == theirs
            assert all(grid.distance(here, n) == 1 for n in mine)
