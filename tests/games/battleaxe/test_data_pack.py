"""The Operation Battleaxe data pack: the bundled pack loads, holds every rulebook fact, and bad packs fail R006.

Rulebook facts carry a ``rule`` marker with the section that states them (``pytest --rule 17.2``). Facts the
rulebook does not give (map geometry, TEMs, counter values) are checked for consistency only.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from itertools import combinations, pairwise
from typing import Any

import pytest

from pbem.errors import DataPackError
from pbem.games.battleaxe.data import (
    ALLIED_UNIT_COUNT,
    AREA_IDS,
    AXIS_UNIT_COUNT,
    ZONE_IDS,
    BattleaxePack,
    Location,
    LocationSources,
    Unit,
    UnitSources,
    default_pack_bytes,
    load_pack,
    pack_schema,
)
from pbem.log.canon import canonical, jcs

Raw = dict[str, Any]

# --- fixtures and helpers ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pack() -> BattleaxePack:
    return load_pack(default_pack_bytes())


@pytest.fixture
def raw() -> Raw:
    """A fresh, mutable copy of the bundled pack as plain JSON values."""
    value: Raw = json.loads(default_pack_bytes())
    return value


def pretty(value: Raw) -> bytes:
    return json.dumps(value, indent=2, ensure_ascii=False).encode()


def rejected(data: bytes) -> DataPackError:
    with pytest.raises(DataPackError) as info:
        load_pack(data)
    assert info.value.code.id == "R006"
    return info.value


def record(raw: Raw, section: str, ident: str) -> Raw:
    found: Raw = next(r for r in raw[section] if r["id"] == ident)
    return found


def setup_of(pack: BattleaxePack) -> dict[str, str | tuple[str, ...]]:
    return {u.id: u.setup for u in pack.units}


# --- the bundled pack ----------------------------------------------------------------------------------


def test_bundled_pack_loads_from_file_and_canonical_bytes(pack: BattleaxePack) -> None:
    from importlib import resources

    pretty_file = resources.files("pbem.games.battleaxe").joinpath("data/pack.json").read_bytes()
    assert b"\n" in pretty_file.strip()  # the file is meant to be read and edited by people
    assert load_pack(pretty_file) == pack
    assert pack.meta.game == "battleaxe"


@pytest.mark.rule("3.1")
def test_r3_1_twenty_three_areas_and_nine_zones(pack: BattleaxePack) -> None:
    areas = [loc.id for loc in pack.locations if loc.kind == "area"]
    zones = [loc.id for loc in pack.locations if loc.kind == "zone"]
    assert sorted(areas, key=int) == [str(n) for n in range(1, 24)] == list(AREA_IDS)
    assert sorted(zones) == list("ABCDEFGHI") == list(ZONE_IDS)


@pytest.mark.rule("5.2")
def test_r5_2_nineteen_allied_and_twenty_three_axis_units(pack: BattleaxePack) -> None:
    standard = [u for u in pack.units if u.optional_rule is None]
    assert sum(u.side == "allied" for u in standard) == ALLIED_UNIT_COUNT == 19
    assert sum(u.side == "axis" for u in standard) == AXIS_UNIT_COUNT == 23
    optional = [u for u in pack.units if u.optional_rule is not None]
    assert [(u.id, u.name, u.optional_rule) for u in optional] == [("4rtr-consolidated", "4RTR*", "19.3")]


ALLIED_SETUP = {
    # 5.2.1 Coastal Force
    "1-11": ("1/11", "2nd Mahrattas Infantry Battalion", "A"),
    "2-11": ("2/11", "1st Rajputana Rifles Infantry Battalion", "A"),
    "sq-a": ('Squadron "A"', "Matildas from 4th RTR", "A"),
    "3-11": ("3/11", "2nd Queen's Own Cameron Highlanders", "B"),
    "sq-b": ('Squadron "B"', "Matildas from 4th RTR", "B"),
    # Escarpment Force
    "4rtr": ("4RTR(-)", "4th Royal Tank Regiment", "C"),
    "7rtr": ("7RTR", "7th Royal Tank Regiment", "C"),
    "22gds": ("22 Guards Brigade", "22 Guards Brigade", "C"),
    "65at": ("65th AT", "Anti-Tank", "C"),
    # 7th Armored Division
    "2rtr": ("2RTR", "2nd Royal Tank Regiment", "D"),
    "6rtr": ("6RTR", "6th Royal Tank Regiment", "D"),
    "1-krr": ("1/KRR", "1st Battalion, King's Royal Rifles", "D"),
    "2-rb": ("2/RB", "2nd Battalion, Rifle Brigade", "D"),
    "12at": ("12AT", "12th Australian Anti-Tank", "D"),
    # Tobruk Garrison
    "9aus": ("9th Australian Division", "9th Australian Division", "H"),
    "18bde": ("18th Brigade", "7th Australian Division", "H"),
    "3armd": ("3rd Armored Brigade", "3rd Armored Brigade", "H"),
}

AXIS_SETUP = {
    "1-104": ("1/104", "6"),
    "1-33a": ("1/33A", "6"),
    "defr": ("deFR", "6"),
    "1-62": ("1/62", "15"),
    "2-62": ("2/62", "16"),
    "3-62": ("3/62", "17"),
    "15mc": ("15MC(-)", "9"),
    "33pak": ("33PAK", "9"),
    "6oasis": ("6th Oasis Company", "9"),
    "15mg": ("15MG", "13"),
    "1-33b": ("1/33B", "13"),
    "1-8": ("1/8", "18"),
    "2-8": ("2/8", "18"),
    "1-33c": ("1/33C", "18"),
    "33recce": ("33 REECE", "18"),
    "bardia-1": ("Bardia 1", "21"),
    "bardia-2": ("Bardia 2", "22"),
    "1-5": ("1/5", "G"),
    "2-5": ("2/5", "G"),
    "3recce": ("3 REECE", "G"),
    "xx-mot": ("XX Motorized Corps", "H"),
    "xxi-inf": ("XXI Infantry Corps", "H"),
    "15inf": ("15th Infantry Brigade", "H"),
}


@pytest.mark.rule("5.2.1")
def test_r5_2_1_allied_setup(pack: BattleaxePack) -> None:
    for uid, (name, description, where) in ALLIED_SETUP.items():
        unit = pack.unit(uid)
        assert (unit.side, unit.name, unit.description, unit.setup) == ("allied", name, description, where), uid
    for uid, name in (("11h", "11H"), ("cih", "CIH")):  # Free Setup: Zone A-D
        unit = pack.unit(uid)
        assert (unit.name, unit.setup, unit.fixed_setup) == (name, ("A", "B", "C", "D"), None)
    assert len(ALLIED_SETUP) + 2 == ALLIED_UNIT_COUNT


@pytest.mark.rule("5.2.1")
def test_r5_2_1_historical_free_setup(pack: BattleaxePack) -> None:
    assert {(r.unit, r.location) for r in pack.tables.historical_setup} == {("11h", "D"), ("cih", "B")}


@pytest.mark.rule("5.2.2")
def test_r5_2_2_axis_setup(pack: BattleaxePack) -> None:
    for uid, (name, where) in AXIS_SETUP.items():
        unit = pack.unit(uid)
        assert (unit.side, unit.name, unit.setup) == ("axis", name, where), uid
    assert len(AXIS_SETUP) == AXIS_UNIT_COUNT


@pytest.mark.rule("5.2.2")
def test_r5_2_2_italian_and_german_units(pack: BattleaxePack) -> None:
    italian = {u.id for u in pack.units if u.nationality == "italian"}
    # 'Italian Battalion', 'Trento Division' (three battalions and both Bardia counters), '(Italian)' corps
    assert italian == {"defr", "1-62", "2-62", "3-62", "bardia-1", "bardia-2", "xx-mot", "xxi-inf"}
    axis = {u.id for u in pack.units if u.side == "axis"}
    assert {u.id for u in pack.units if u.nationality == "german"} == axis - italian
    assert pack.unit("12at").nationality == pack.unit("9aus").nationality == "australian"


@pytest.mark.rule("5.2.2")
@pytest.mark.rule("16.0")
def test_r5_2_2_restricted_divisions_are_tagged(pack: BattleaxePack) -> None:
    assert {u.id for u in pack.units if "15pz" in u.formation} == {"1-8", "2-8", "1-33c", "33recce"}
    assert {u.id for u in pack.units if "5lt" in u.formation} == {"1-5", "2-5", "3recce"}
    assert {u.id for u in pack.units if "tobruk_siege" in u.formation} == {"xx-mot", "xxi-inf", "15inf"}
    assert {u.id for u in pack.units if "tobruk_garrison" in u.formation} == {"9aus", "18bde", "3armd"}


@pytest.mark.rule("19.3")
def test_r19_3_consolidated_4rtr(pack: BattleaxePack) -> None:
    unit = pack.unit("4rtr-consolidated")
    assert (unit.setup, unit.type, unit.side) == (("A", "B", "C"), "armor", "allied")
    (variant,) = pack.tables.variants
    assert (variant.rule, variant.adds, set(variant.removes)) == (
        "19.3",
        ("4rtr-consolidated",),
        {"4rtr", "sq-a", "sq-b"},
    )


@pytest.mark.rule("10.3")
def test_r10_3_asterisk_on_at_and_flak_units(pack: BattleaxePack) -> None:
    starred = {u.id for u in pack.units if u.at_star}
    assert starred == {"65at", "12at", "33pak", "1-33a", "1-33b", "1-33c"}
    assert starred == {u.id for u in pack.units if u.type == "anti_tank"}


@pytest.mark.rule("13.3.3")
def test_r13_3_3_tobruk_origin(pack: BattleaxePack) -> None:
    assert {u.id for u in pack.units if u.tobruk_origin} == {"9aus", "18bde", "3armd"}
    assert pack.role("tobruk_rebuild") == ("H",)


VP = {"6": 2, "13": 2, "19": 2, "23": 2, "9": 1, "11": 1, "15": 1, "16": 1, "21": 1, "22": 1}
VP_NAMES = {
    "6": "Halfaya Pass",
    "13": "Point 208",
    "19": "Sidi Azeiz",
    "23": "Menastir II",
    "9": "Point 206",
    "11": "Sidi Omar",
    "15": "Fort Capuzzo",
    "16": "Sollum Barracks",
    "21": "Bardia Harbor",
    "22": "Bardia",
}


@pytest.mark.rule("17.2")
def test_r17_2_victory_point_areas(pack: BattleaxePack) -> None:
    assert {loc.id: loc.vp for loc in pack.locations if loc.vp} == VP
    assert {loc.id: loc.name for loc in pack.locations if loc.vp} == VP_NAMES
    assert sum(loc.vp for loc in pack.locations) == 14
    assert all(loc.kind == "area" for loc in pack.locations if loc.vp)
    assert pack.role("vp_trace_targets") == ("A", "B", "C", "D")


@pytest.mark.rule("17.2")
def test_r17_2_victory_thresholds_and_german_losses(pack: BattleaxePack) -> None:
    assert pack.limit("vp_win_threshold") == 10
    assert pack.limit("vp_per_eliminated_german_unit") == 1
    assert pack.limit("reduced_german_armor_per_vp") == 2


@pytest.mark.rule("20.1")
def test_r20_1_extended_game(pack: BattleaxePack) -> None:
    assert (pack.limit("extended_win_min"), pack.limit("extended_loss_max")) == (11, 8)
    assert [(t.label, t.number, t.extended_only) for t in pack.tables.turns] == [
        ("June 15", 1, False),
        ("June 16", 2, False),
        ("June 17", 3, False),
        ("June 18", 4, True),
    ]


@pytest.mark.rule("17.1")
def test_r17_1_named_zones_and_automatic_victory(pack: BattleaxePack) -> None:
    assert pack.location("A").name == "Buq-Buq"
    assert pack.location("H").name == "Tobruk"
    assert (pack.role("automatic_victory_from"), pack.role("automatic_victory_to")) == (("H",), ("A",))


@pytest.mark.rule("8.1.2a")
def test_r8_1_2a_halfaya_is_adjacent_to_musaid(pack: BattleaxePack) -> None:
    edge = pack.boundary("6", "17")
    assert edge is not None and edge.passable
    assert pack.location("17").name == "Musaid"
    (ban,) = pack.tables.regroup_bans
    assert (ban.side, ban.src, ban.dst, ban.src_controlled_by) == ("allied", "6", "17", "axis")


@pytest.mark.rule("5.2.2")
@pytest.mark.rule("3.1.2")
def test_r5_2_2_stutzpunkt_areas(pack: BattleaxePack) -> None:
    # Setup headings 'Stützpunkt Halfaya', 'Stützpunkt 206', 'Stützpunkt 208', 'Stützpunkt Bardia'
    assert {loc.id for loc in pack.locations if loc.terrain == "stutzpunkt"} == {"6", "9", "13", "22"}


@pytest.mark.rule("16.1")
def test_r16_1_area_18_has_neighbours_and_releases(pack: BattleaxePack) -> None:
    assert pack.neighbours("18")  # 'Any Area adjacent to Area 18'
    assert "15" in pack.neighbours("18")  # reconstructed: Capuzzo falling alarms 15th Panzer, as on 15 June 1941
    rows = {r.formation: r for r in pack.tables.releases}
    pz = rows["15pz"]
    assert (pz.controlled_areas, pz.areas_adjacent_to, pz.entered_zones, pz.assault_from) == (
        ("6",),
        ("18",),
        ("E", "F", "G"),
        (),
    )
    assert pz.released_after_turn == "jun15"


@pytest.mark.rule("16.2")
def test_r16_2_fifth_light_release(pack: BattleaxePack) -> None:
    lt = next(r for r in pack.tables.releases if r.formation == "5lt")
    assert (lt.controlled_areas, lt.entered_zones, lt.assault_from, lt.released_after_turn) == (
        (),
        ("E", "F", "G"),
        ("H",),
        "jun15",
    )


@pytest.mark.rule("16.3")
def test_r16_3_allied_first_activation(pack: BattleaxePack) -> None:
    assert pack.role("first_activation_zones") == ("A", "B", "C", "D")


@pytest.mark.rule("7.3")
@pytest.mark.rule("5.2")
def test_r7_3_only_tobruk_starts_contested(pack: BattleaxePack) -> None:
    assert [loc.id for loc in pack.locations if loc.contested_at_start] == ["H"]


@pytest.mark.rule("5.1")
@pytest.mark.rule("3.1.1")
def test_r5_1_initial_control(pack: BattleaxePack) -> None:
    allied = {loc.id for loc in pack.locations if loc.initial_control == "allied"}
    assert allied == {"A", "B", "C", "D", "H"}  # red letters; every Area and Zones E, F, G, I are Axis


@pytest.mark.rule("14.2")
def test_r14_2_supply_sources_follow_letter_colour(pack: BattleaxePack) -> None:
    sources = {loc.id: loc.supply_source for loc in pack.locations if loc.supply_source}
    assert sources == {z: ("allied" if z in "ABCDH" else "axis") for z in ZONE_IDS}
    assert pack.role("tobruk_supplied") == ("H",)


@pytest.mark.rule("5.1")
def test_r5_1_starting_markers(pack: BattleaxePack) -> None:
    assert pack.setting("advantage_start") == "allied"
    assert pack.setting("turn_marker_start") == "attack"
    assert (pack.limit("start_impulse"), pack.limit("start_vp")) == (1, 0)


@pytest.mark.rule("7.1")
def test_r7_1_stacking_limit_and_setup(pack: BattleaxePack) -> None:
    assert pack.limit("stacking_limit") == 4
    assert sum(u.setup == "18" for u in pack.units) == 4  # 15th Panzer fills Area 18 exactly
    assert pack.setting("zone_stacking") == "unlimited"  # 15.2


@pytest.mark.rule("9.2")
def test_r9_2_movement_costs(pack: BattleaxePack) -> None:
    costs = {row.id: (row.mf, row.all_mf) for row in pack.tables.movement_costs}
    assert costs == {
        "enter_vacant": (1, False),
        "enter_vacant_adjacent_enemy": (2, False),
        "enter_reduced_enemy_only": (3, False),
        "enter_full_strength_enemy": (4, False),
        "enter_zone": (None, True),
    }


@pytest.mark.rule("11.4.2")
@pytest.mark.rule("11.4.3")
def test_r11_4_combat_modifiers(pack: BattleaxePack) -> None:
    attack = {row.id: (row.value, row.dice) for row in pack.tables.attack_modifiers}
    assert attack == {
        "additional_unit": (1, 0),
        "air_support": (0, 1),
        "rommel": (0, 1),
        "artillery": (2, 0),
        "combined_arms": (1, 0),
    }
    defense = {row.id: (row.value, row.dice) for row in pack.tables.defense_modifiers}
    assert defense == {"additional_unit": (1, 0), "artillery": (2, 0), "fuel_shortage": (2, 0)}
    combat = next(r for r in pack.tables.rolls if r.id == "combat")
    assert (combat.dice, combat.sides) == (2, 6)


@pytest.mark.rule("11.5")
@pytest.mark.rule("11.5.1")
def test_r11_5_attrition_points(pack: BattleaxePack) -> None:
    ap = {row.id: row.ap for row in pack.tables.attrition_points}
    assert ap == {"fs_eliminated": 3, "fs_reduced": 1, "rs_eliminated": 2, "rs_retreat": 1, "german_fs_retreat": 1}


@pytest.mark.rule("10.2")
@pytest.mark.rule("10.2.1")
def test_r10_2_artillery(pack: BattleaxePack) -> None:
    assert (pack.limit("allied_artillery_markers"), pack.limit("axis_artillery_markers")) == (3, 2)
    results = {r.id: (r.roll, r.min, r.max) for r in pack.tables.die_results}
    assert results["artillery_not_available"] == ("artillery_call", 1, 3)
    assert results["artillery_available"] == ("artillery_call", 4, 6)
    stp = next(m for m in pack.tables.die_modifiers if m.id == "artillery_axis_stutzpunkt")
    assert (stp.roll, stp.value) == ("artillery_call", 1)


@pytest.mark.rule("10.1")
@pytest.mark.rule("10.3")
def test_r10_air_support_and_lone_at_units(pack: BattleaxePack) -> None:
    assert pack.limit("air_support_per_impulse") == 1
    assert pack.limit("air_contested_divisor") == 2
    assert (pack.limit("at_alone_full_cv"), pack.limit("at_alone_reduced_cv")) == (1, 0)


@pytest.mark.rule("14.2.3")
@pytest.mark.rule("14.2.2")
def test_r14_2_surrender_and_out_of_supply(pack: BattleaxePack) -> None:
    results = {r.id: (r.roll, r.min, r.max) for r in pack.tables.die_results}
    assert results["surrender_step_loss"] == ("surrender", 1, 3)
    assert results["surrender_no_effect"] == ("surrender", 4, 6)
    adv = next(m for m in pack.tables.die_modifiers if m.id == "surrender_advantage")
    assert adv.value == 1
    assert (pack.limit("oos_mf_penalty"), pack.limit("oos_cv_penalty")) == (1, 1)


@pytest.mark.rule("13.2")
@pytest.mark.rule("13.3.2")
@pytest.mark.rule("13.3.5")
def test_r13_refit_numbers(pack: BattleaxePack) -> None:
    assert (pack.limit("replacement_points"), pack.limit("advantage_extra_rp")) == (1, 1)
    assert (pack.limit("flips_per_rp"), pack.limit("rebuilds_per_rp")) == (2, 1)
    assert pack.limit("battlefield_recovery_flips") == 1


@pytest.mark.rule("6.2.1")
def test_r6_2_1_sunset_and_impulse_track(pack: BattleaxePack) -> None:
    sunset = next(r for r in pack.tables.rolls if r.id == "sunset")
    assert (sunset.dice, sunset.sides) == (2, 6)
    assert pack.setting("sunset_roller") == "axis"
    # Reconstructed length: the track never ends a turn before the highest Sunset DR could (2d6: 12).
    assert pack.impulse_track_length == sunset.dice * sunset.sides == 12
    # 'A typical game turn will end after seven impulses' (Strategy Tips): the expected length fits the track.
    expected = _expected_impulses(pack.impulse_track_length)
    assert 6 < expected < 8


def _expected_impulses(track: int) -> float:
    """Expected number of impulses in a Maneuvers Phase without Prolonged Daylight."""
    dist = [0] * 13
    for a in range(1, 7):
        for b in range(1, 7):
            dist[a + b] += 1
    alive, total = 1.0, 0.0
    for impulse in range(1, track + 1):
        total += alive  # this impulse is played
        alive *= sum(dist[impulse:]) / 36  # Sunset DR >= impulse: go on
    return total


@pytest.mark.rule("9.1.2")
@pytest.mark.rule("12.1E")
@pytest.mark.rule("19.2")
def test_axis_activation_rommel_and_luftwaffe(pack: BattleaxePack) -> None:
    assert pack.limit("axis_combined_ops_areas") == 2
    assert pack.limit("rommel_attacks_per_impulse") == 1
    assert (pack.limit("luftwaffe_from_turn"), pack.limit("luftwaffe_allied_air_cap")) == (2, 6)


# --- the reconstructed map: consistency, not rulebook facts ---------------------------------------------


def test_zones_connect_only_by_lines_and_the_map_is_connected(pack: BattleaxePack) -> None:
    for edge in pack.boundaries:
        zone = "zone" in (pack.location(edge.a).kind, pack.location(edge.b).kind)
        assert (edge.type == "connection") == zone
    assert {e.type for e in pack.boundaries} == {"open", "escarpment", "connection"}


def test_start_zones_face_the_front_and_tobruk_lies_west(pack: BattleaxePack) -> None:
    axis_held = {u.fixed_setup for u in pack.units if u.side == "axis" and u.fixed_setup}
    for zone in "ABCD":
        areas = [n for n in pack.neighbours(zone) if pack.location(n).kind == "area"]
        assert areas, zone
        for area in areas:  # empty approach Areas within three Areas of an Axis position
            assert area not in axis_held
            assert _area_distance(pack, area, axis_held) <= 3, (zone, area)
    assert pack.location("H").position[0] < min(loc.position[0] for loc in pack.locations if loc.kind == "area")
    assert [n for n in pack.neighbours("H") if pack.location(n).kind == "area"] == ["23"]
    gambut_areas = [n for n in pack.neighbours("G") if pack.location(n).kind == "area"]
    assert gambut_areas and all(pack.location(n).position[0] < 300 for n in gambut_areas)


def _area_distance(pack: BattleaxePack, start: str, targets: set[str]) -> int:
    """Fewest passable Area-to-Area steps from ``start`` to any of ``targets``."""
    seen, layer, steps = {start}, {start}, 0
    while layer and not layer & targets:
        layer = {n for a in layer for n in pack.neighbours(a) if pack.location(n).kind == "area"} - seen
        seen |= layer
        steps += 1
    return steps if layer else 99


def test_escarpments_separate_areas_only(pack: BattleaxePack) -> None:
    escarpments = {(e.a, e.b) for e in pack.boundaries if e.type == "escarpment"}
    assert escarpments == {("1", "2"), ("1", "3"), ("6", "16"), ("18", "21")}
    assert "21" not in pack.neighbours("18") and "21" in pack.neighbours("18", passable_only=False)


def test_coastal_locations(pack: BattleaxePack) -> None:
    coastal = {loc.id for loc in pack.locations if loc.touches_sea}
    assert {"6", "16", "21", "23", "A", "H"} <= coastal
    assert not coastal & {"9", "11", "13", "15", "19", "22"}


def _inside(point: tuple[float, float], polygon: tuple[tuple[int, int], ...]) -> bool:
    x, y = point
    result = False
    for (x1, y1), (x2, y2) in pairwise((*polygon, polygon[0])):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            result = not result
    return result


def _edges(polygon: tuple[tuple[int, int], ...]) -> set[frozenset[tuple[int, int]]]:
    return {frozenset(pair) for pair in pairwise((*polygon, polygon[0]))}


def _crosses(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int], s: tuple[int, int]) -> bool:
    def orient(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> int:
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (v > 0) - (v < 0)

    return orient(p, q, r) * orient(p, q, s) < 0 and orient(r, s, p) * orient(r, s, q) < 0


def test_polygons_are_simple_and_hold_their_label(pack: BattleaxePack) -> None:
    for loc in pack.locations:
        edges = list(pairwise((*loc.polygon, loc.polygon[0])))
        for (p, q), (r, s) in combinations(edges, 2):
            assert not _crosses(p, q, r, s), loc.id
        assert _inside(loc.position, loc.polygon), loc.id


def test_neighbours_touch_and_nothing_overlaps(pack: BattleaxePack) -> None:
    areas = [loc for loc in pack.locations if loc.kind == "area"]
    linked = {frozenset((e.a, e.b)) for e in pack.boundaries}
    for a, b in combinations(areas, 2):
        common_edges = _edges(a.polygon) & _edges(b.polygon)
        common_points = set(a.polygon) & set(b.polygon)
        if frozenset((a.id, b.id)) in linked:
            assert common_edges, f"{a.id} and {b.id} share a boundary but no drawn edge"
        else:
            assert not common_edges and len(common_points) <= 1, f"{a.id} and {b.id} touch but are not linked"
    for x in range(0, pack.canvas.width, 7):
        for y in range(0, pack.canvas.height, 7):
            point = (x + 0.37, y + 0.61)
            holders = [loc.id for loc in pack.locations if _inside(point, loc.polygon)]
            assert len(holders) <= 1, (point, holders)


# --- provenance ----------------------------------------------------------------------------------------


def test_every_field_has_a_source_field() -> None:
    drawn = {"position", "polygon"}
    assert set(LocationSources.model_fields) == set(Location.model_fields) - {"sources"} - drawn | {"geometry"}
    assert set(UnitSources.model_fields) == set(Unit.model_fields) - {"sources"}


def test_sources_cite_the_rulebook_or_give_a_reason(pack: BattleaxePack) -> None:
    texts = [s for loc in pack.locations for s in loc.sources.model_dump().values()]
    texts += [s for unit in pack.units for s in unit.sources.model_dump().values()]
    texts += [e.source for e in pack.boundaries] + list(pack.sources.model_dump().values())
    assert all(t.startswith(("rulebook §", "reconstructed: ")) for t in texts)
    # every rulebook fact above is sourced to the rulebook, and every counter value is marked reconstructed
    assert pack.location("6").sources.vp.startswith("rulebook §17.2")
    assert pack.location("13").sources.terrain.startswith("rulebook §5.2.2")
    assert pack.unit("1-8").sources.setup.startswith("rulebook §5.2.2")
    halfaya_musaid = pack.boundary("6", "17")
    assert halfaya_musaid is not None and halfaya_musaid.source.startswith("rulebook §8.1.2a")
    assert all(u.sources.cv.startswith("reconstructed: ") for u in pack.units)
    assert pack.sources.impulse_track_length.startswith("reconstructed: ")


def test_every_table_row_cites_a_rule(pack: BattleaxePack) -> None:
    for name in type(pack.tables).model_fields:
        for row in getattr(pack.tables, name):
            assert row.rule and row.rule[0].isdigit(), (name, row)


# --- canonical bytes and schema ------------------------------------------------------------------------


def test_default_pack_bytes_are_canonical_and_stable() -> None:
    data = default_pack_bytes()
    value = json.loads(data)
    assert data == canonical(value) == jcs(value)
    assert b"\n" not in data and data == default_pack_bytes()
    from importlib import resources

    pretty_file = resources.files("pbem.games.battleaxe").joinpath("data/pack.json").read_bytes()
    assert hashlib.sha256(canonical(json.loads(pretty_file))).hexdigest() == hashlib.sha256(data).hexdigest()


def test_a_short_canonical_line_goes_through_the_log_parser(raw: Raw) -> None:
    # A single-line pack within the log-line limit is read by pbem.log.canon.parse_line: its L-codes map to R006.
    error = rejected(b'{"meta": 1.5}')
    assert "L005" in error.message


def test_pack_schema_requires_sources() -> None:
    schema = pack_schema()
    json.dumps(schema)
    defs = schema["$defs"]
    assert set(defs["LocationSources"]["required"]) == set(LocationSources.model_fields)
    assert "sources" in defs["Location"]["required"] and "sources" in defs["Unit"]["required"]
    assert defs["Location"]["additionalProperties"] is False
    assert {"meta", "locations", "boundaries", "units", "tables", "impulse_track_length"} <= set(schema["required"])


# --- rejections: each cross-check fails closed with R006 -------------------------------------------------

Mutation = Callable[[Raw], None]


def _drop_source(raw: Raw) -> None:
    del record(raw, "locations", "6")["sources"]["tem"]


def _bad_source(raw: Raw) -> None:
    record(raw, "units", "1-8")["sources"]["cv"] = "I made it up"


def _unknown_setup(raw: Raw) -> None:
    record(raw, "units", "1-104")["setup"] = "24"


def _unknown_free_setup(raw: Raw) -> None:
    record(raw, "units", "11h")["setup"] = ["A", "Z"]


def _unknown_boundary(raw: Raw) -> None:
    raw["boundaries"][0]["b"] = "99"


def _self_loop(raw: Raw) -> None:
    raw["boundaries"][0]["b"] = raw["boundaries"][0]["a"]


def _duplicate_boundary(raw: Raw) -> None:
    edge = raw["boundaries"][0]
    raw["boundaries"].append({**edge, "a": edge["b"], "b": edge["a"]})


def _connection_between_areas(raw: Raw) -> None:
    next(e for e in raw["boundaries"] if e["a"] == "6" and e["b"] == "17")["type"] = "connection"


def _open_zone_edge(raw: Raw) -> None:
    next(e for e in raw["boundaries"] if e["type"] == "connection")["type"] = "open"


def _disconnected(raw: Raw) -> None:
    raw["boundaries"] = [e for e in raw["boundaries"] if "H" not in (e["a"], e["b"])]


def _escarpments_cut_the_map(raw: Raw) -> None:
    for edge in raw["boundaries"]:
        if edge["a"] == "23" or edge["b"] == "23":
            edge["type"] = "escarpment" if edge["type"] == "open" else edge["type"]
    raw["boundaries"] = [
        e for e in raw["boundaries"] if not ({e["a"], e["b"]} & {"H", "G"} and "23" in (e["a"], e["b"]))
    ]


def _missing_axis_unit(raw: Raw) -> None:
    raw["units"] = [u for u in raw["units"] if u["id"] != "6oasis"]


def _extra_unflagged_unit(raw: Raw) -> None:
    raw["units"].append({**record(raw, "units", "1-11"), "id": "4-11"})


def _duplicate_unit(raw: Raw) -> None:
    raw["units"].append(record(raw, "units", "1-11"))


def _reduced_above_full(raw: Raw) -> None:
    record(raw, "units", "7rtr")["cv"] = {"full": 3, "reduced": 4}


def _mf_reduced_above_full(raw: Raw) -> None:
    record(raw, "units", "2rtr")["mf"] = {"full": 6, "reduced": 7}


def _missing_area(raw: Raw) -> None:
    raw["locations"] = [loc for loc in raw["locations"] if loc["id"] != "23"]


def _extra_zone(raw: Raw) -> None:
    raw["locations"].append({**record(raw, "locations", "I"), "id": "J"})


def _duplicate_location(raw: Raw) -> None:
    raw["locations"].append(record(raw, "locations", "1"))


def _tem_out_of_range(raw: Raw) -> None:
    record(raw, "locations", "22")["tem"] = 4


def _area_supply_source(raw: Raw) -> None:
    record(raw, "locations", "22")["supply_source"] = "axis"


def _zone_colour_mismatch(raw: Raw) -> None:
    record(raw, "locations", "G")["supply_source"] = "allied"


def _contested_mismatch(raw: Raw) -> None:
    record(raw, "locations", "G")["contested_at_start"] = True


def _overstacked_setup(raw: Raw) -> None:
    record(raw, "units", "15mg")["setup"] = "18"


def _at_star_mismatch(raw: Raw) -> None:
    record(raw, "units", "1-104")["at_star"] = True


def _tobruk_origin_mismatch(raw: Raw) -> None:
    record(raw, "units", "xx-mot")["tobruk_origin"] = True


def _optional_not_in_variant(raw: Raw) -> None:
    raw["tables"]["variants"] = []


def _regroup_ban_without_adjacency(raw: Raw) -> None:
    raw["boundaries"] = [e for e in raw["boundaries"] if {e["a"], e["b"]} != {"6", "17"}]


def _missing_table_row(raw: Raw) -> None:
    raw["tables"]["limits"] = [r for r in raw["tables"]["limits"] if r["id"] != "stacking_limit"]


def _release_unknown_formation(raw: Raw) -> None:
    raw["tables"]["releases"][0]["formation"] = "21pz"


def _role_unknown_location(raw: Raw) -> None:
    raw["tables"]["location_roles"][0]["locations"] = ["Q"]


def _bad_rule_ref(raw: Raw) -> None:
    raw["tables"]["limits"][0]["rule"] = "§7.1"


def _string_for_int(raw: Raw) -> None:
    record(raw, "locations", "6")["tem"] = "3"


def _bool_for_int(raw: Raw) -> None:
    record(raw, "locations", "6")["vp"] = True


def _extra_field(raw: Raw) -> None:
    record(raw, "units", "2-8")["morale"] = 7


def _wrong_game(raw: Raw) -> None:
    raw["meta"]["game"] = "rommel"


def _point_off_canvas(raw: Raw) -> None:
    record(raw, "locations", "9")["polygon"][0] = [1001, 0]


MUTATIONS: dict[str, tuple[Mutation, tuple[str, ...]]] = {
    # name: (mutation, identifiers the message must name)
    "missing source": (_drop_source, ("'6'", "sources.tem", "Field required")),
    "source without provenance": (_bad_source, ("'1-8'", "sources.cv")),
    "unknown setup location": (_unknown_setup, ("'1-104'", "setup", "'24'")),
    "unknown free setup location": (_unknown_free_setup, ("'11h'", "setup", "'Z'")),
    "unknown boundary location": (_unknown_boundary, ("'99'",)),
    "self-loop": (_self_loop, ("boundaries[0]",)),
    "duplicate boundary": (_duplicate_boundary, ("second boundary",)),
    "connection between areas": (_connection_between_areas, ("6-17", "type")),
    "open edge to a zone": (_open_zone_edge, ("type",)),
    "disconnected graph": (_disconnected, ("'H'",)),
    "graph cut by escarpments": (_escarpments_cut_the_map, ("'23'",)),
    "wrong unit count": (_missing_axis_unit, ("22 standard axis units",)),
    "unflagged extra unit": (_extra_unflagged_unit, ("20 standard allied units",)),
    "duplicate unit": (_duplicate_unit, ("'1-11'",)),
    "reduced cv above full": (_reduced_above_full, ("'7rtr'", "'cv'")),
    "reduced mf above full": (_mf_reduced_above_full, ("'2rtr'", "'mf'")),
    "missing area": (_missing_area, ("'23'",)),
    "extra zone": (_extra_zone, ("'J'",)),
    "duplicate location": (_duplicate_location, ("'1'",)),
    "tem out of range": (_tem_out_of_range, ("'22'", "'tem'")),
    "area as supply source": (_area_supply_source, ("'22'", "'supply_source'")),
    "zone colour mismatch": (_zone_colour_mismatch, ("'G'", "'supply_source'")),
    "contested mismatch": (_contested_mismatch, ("'G'", "'contested_at_start'")),
    "overstacked setup": (_overstacked_setup, ("'18'",)),
    "asterisk mismatch": (_at_star_mismatch, ("'1-104'", "'at_star'")),
    "tobruk origin mismatch": (_tobruk_origin_mismatch, ("'xx-mot'", "'tobruk_origin'")),
    "optional unit without variant": (_optional_not_in_variant, ("'4rtr-consolidated'",)),
    "regroup ban without adjacency": (_regroup_ban_without_adjacency, ("'halfaya_minefields'",)),
    "missing table row": (_missing_table_row, ("stacking_limit",)),
    "release of unknown formation": (_release_unknown_formation, ("'21pz'",)),
    "role with unknown location": (_role_unknown_location, ("'Q'",)),
    "bad rule reference": (_bad_rule_ref, ("tables.limits[0]", "rule")),
    "string for integer": (_string_for_int, ("'6'", "tem")),
    "bool for integer": (_bool_for_int, ("'6'", "vp")),
    "extra field": (_extra_field, ("'2-8'", "morale")),
    "wrong game": (_wrong_game, ("meta.game",)),
    "point off the canvas": (_point_off_canvas, ("'9'", "'polygon'")),
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


def test_a_transcription_may_cite_the_published_components(raw: Raw) -> None:
    record(raw, "locations", "6")["sources"]["tem"] = "transcribed: map, identifier of Area 6"
    record(raw, "units", "1-8")["sources"]["cv"] = "transcribed: counter 1/8"
    assert load_pack(pretty(raw)).location("6").sources.tem.startswith("transcribed: ")


def test_module_examples() -> None:
    import doctest

    from pbem.games.battleaxe import data

    assert doctest.testmod(data).failed == 0


def test_float_is_rejected(raw: Raw) -> None:
    text = pretty(raw).decode()
    assert '"tem": 3,' in text
    error = rejected(text.replace('"tem": 3,', '"tem": 3.0,', 1).encode())
    assert "3.0" in error.message


def test_duplicate_key_is_rejected(raw: Raw) -> None:
    text = pretty(raw).decode()
    error = rejected(text.replace('"tem": 3,', '"tem": 3, "tem": 1,', 1).encode())
    assert "'tem'" in error.message and "'6'" in error.message


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"[]\n",
        b'{\n"meta": NaN\n}',
        b'\xef\xbb\xbf{\n"meta": {}\n}',
        b'{\n"meta": "\xff"\n}',
        b'{\n"meta": 12345678901234567890\n}',
        b'{\n"meta":\n',
    ],
    ids=["empty", "array", "nan", "bom", "bad-utf8", "huge-int", "truncated"],
)
def test_unparseable_pack_is_rejected(data: bytes) -> None:
    rejected(data)
