"""The Axis & Allies: North Africa data pack: it loads, every source says where it came from, and every
cross-check refuses a broken copy with R006 naming the record.

The rulebook has no numbered sections; its pages serve as sections, so ``@pytest.mark.rule("28")`` is page 28
(``pytest --rule 28``).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from pbem.games.axisallies.data import (
    GAME_ID,
    AxisAlliesPack,
    default_pack_bytes,
    load_pack,
    pack_schema,
)
from pbem.log.canon import canonical
from tests.games.axisallies.pack_helpers import Mutation, Raw, pretty, record, rejected

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


def _more_infantry_than_chips(raw: Raw) -> None:
    row = {"space": "sz15", "power": "italy", "units": {"infantry": 120}, "source": "reconstructed: x"}
    _scenario(raw)["setup"]["placements"].append(row)  # a convoy has no stacking limit


def _scout_cars_everywhere(raw: Raw) -> None:
    for space in ("tripoli", "sirte", "garian", "jalo"):  # and El Agheila: 5 stacks, 4 pieces
        row = {"space": space, "power": "germany", "units": {"scout_car": 1}, "source": "reconstructed: x"}
        _scenario(raw)["setup"]["placements"].append(row)


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
    "more infantry than pieces and chips": (_more_infantry_than_chips, ("'rommels_last_push'", "chips")),
    "more stacks than pieces": (_scout_cars_everywhere, ("germany/scout_car", "5 spaces")),
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


def test_cargo_types_must_be_combat_land_units(raw: Raw) -> None:
    raw["cargo"]["truck"] = ["infantry", "truck"]
    assert "cargo.truck" in str(rejected(pretty(raw)))
    raw["cargo"]["truck"] = ["infantry"]
    raw["cargo"]["air_transport"] = ["destroyer"]
    assert "cargo.air_transport" in str(rejected(pretty(raw)))
