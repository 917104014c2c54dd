"""Both reference charts of the data pack: every printed Allied row, the unit list, and each unit profile.

The rulebook has no numbered sections; its pages serve as sections, so ``@pytest.mark.rule("28")`` is page 28
(``pytest --rule 28``).
"""

from __future__ import annotations

import pytest

from pbem.games.axisallies.data import (
    ABILITIES,
    AxisAlliesPack,
)
from tests.games.axisallies.pack_helpers import units_of

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


@pytest.mark.rule("32")
def test_p32_truck_and_air_transport_cargo(pack: AxisAlliesPack) -> None:
    """p.32: trucks carry infantry, artillery, anti-tank guns and AAA; p.38: an Axis bomber also mechanized
    infantry."""
    assert set(pack.cargo.truck) == {"infantry", "artillery", "anti_tank_gun", "aaa"}
    assert set(pack.cargo.air_transport) == set(pack.cargo.truck) | {"mech_infantry"}
