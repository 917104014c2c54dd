"""The Gazala board and counters as drawn: a spec from the bundled pack that fits it, deterministic SVG, NATO counters
with the pack's values and formation colours."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest

from pbem.games.gazala import mapspec
from pbem.games.gazala.data import GazalaPack
from pbem.kit.hexes import HexId, HexMap
from pbem.report.svg import MapRenderer
from pbem.rules.contract import UnitView, View
from pbem.rules.maps import MapSpec
from tests.maphelpers import SVG, corners, render_with_seed
from tests.maphelpers import renderer as renderer_for


@pytest.fixture(scope="module")
def spec(gazala: GazalaPack) -> MapSpec:
    return mapspec.map_spec(gazala)


@pytest.fixture(scope="module")
def grid(gazala: GazalaPack) -> HexMap:
    return HexMap.from_pack(gazala.map, game="gazala")


@pytest.fixture(scope="module")
def renderer(gazala: GazalaPack) -> MapRenderer:
    return renderer_for(mapspec, gazala)


def test_every_region_is_a_hex_of_the_map_and_the_sea_is_not(spec: MapSpec, grid: HexMap, gazala: GazalaPack) -> None:
    ids = [r.id for r in spec.regions]
    assert len(ids) == len(set(ids)) and set(ids) == set(grid.hexes)
    assert len(spec.shapes) == len(gazala.map.missing)


def test_hexes_sit_where_the_kit_says_neighbours_share_a_side(spec: MapSpec, grid: HexMap) -> None:
    regions = {r.id: r for r in spec.regions}
    for hex_id in grid.hexes:
        for other in grid.neighbours(hex_id):
            assert len(corners(regions[hex_id]) & corners(regions[other])) == 2, (hex_id, other)


def test_ridges_wadis_and_the_sea_hexside_are_edges_between_neighbours(
    spec: MapSpec, grid: HexMap, gazala: GazalaPack
) -> None:
    expected = {
        (s.a, s.b, mapspec.HEXSIDE_KINDS[f])
        for s in gazala.map.hexsides
        for f in s.features
        if f in mapspec.HEXSIDE_KINDS
    }
    assert {(e.a, e.b, e.kind) for e in spec.edges} == expected
    for edge in spec.edges:
        assert grid.hexside(HexId(edge.a), HexId(edge.b)) is not None
    named = {key for e in gazala.escarpments for key in e.hexsides}
    assert {f"{e.a}/{e.b}" for e in spec.edges if e.kind in ("ridge", "wadi")} == named
    assert {e.kind for e in spec.edges} <= set(mapspec.map_style(gazala).strokes)


def test_roads_and_trails_are_the_pack_routes_through_neighbours(
    spec: MapSpec, grid: HexMap, gazala: GazalaPack
) -> None:
    assert sorted(p.through for p in spec.paths) == sorted(r.hexes for r in gazala.routes)
    for path in spec.paths:
        assert all(grid.hexside(HexId(a), HexId(b)) is not None for a, b in pairwise(path.through))
    kinds = [p.kind for p in spec.paths]
    assert kinds == sorted(kinds, key=["trail", "road"].index)  # roads over the trails that share them


def test_terrain_names_minefields_boxes_and_supply_sources_come_from_the_pack(
    spec: MapSpec, gazala: GazalaPack
) -> None:
    regions = {r.id: r for r in spec.regions}
    for record in gazala.map.hexes:
        assert regions[record.id].terrain == (record.terrain or gazala.map.terrain)
        for name in record.names:
            assert name in regions[record.id].label
    rings = [line for line in spec.lines if line.kind in ("box", "minefield-axis", "minefield-cw")]
    assert len(rings) == len(gazala.minefields)
    assert sum(line.kind == "box" for line in rings) == sum(m.box is not None for m in gazala.minefields)
    box_names = {b.id: b.name for b in gazala.boxes}
    for mine in gazala.minefields:
        if mine.box is not None:
            assert box_names[mine.box] in regions[mine.hex].name
    supply = [line for line in spec.lines if line.kind.startswith("supply-")]
    assert sorted(line.kind for line in supply) == sorted(f"supply-{s.side}" for s in gazala.supply_sources)
    style = mapspec.map_style(gazala)
    assert {r.terrain for r in spec.regions} | {"sea"} <= set(style.terrain)
    assert {line.kind for line in spec.lines} <= set(style.strokes)


def test_unit_counter_shows_the_pack_values_of_the_side_it_shows(gazala: GazalaPack) -> None:
    unit = next(u for u in gazala.units if u.formation is not None and u.armour == "tp")
    front = mapspec.unit_face(gazala, unit.id)
    assert front.value == f"{unit.cs}-{unit.eff.front}-{unit.armour_points.front}T-{unit.ma}"
    assert front.stripe == gazala.formation(unit.formation or "").colour and not front.reduced
    assert front.fill == mapspec.NATIONALITY_FILL[unit.nationality]
    back = mapspec.unit_face(gazala, unit.id, strength=unit.cs - 2, disrupted=True)
    assert back.value == f"{unit.cs - 2}-{unit.eff.disrupted}-{unit.armour_points.disrupted}T-d" and back.reduced
    permanent = next((u for u in gazala.units if u.independent == "permanent"), None)
    if permanent is not None:
        assert mapspec.unit_face(gazala, permanent).stripe == mapspec.PERMANENT_STRIPE


def test_hq_counter_and_its_spent_emergency_supply(gazala: GazalaPack) -> None:
    hq = gazala.hqs[0]
    face = mapspec.hq_face(gazala, hq.id, emergency_supply_used=True)
    assert face.symbol == "hq" and face.marks == ("ES",)
    assert face.value == f"{hq.support}-{hq.command_range}-{hq.ma}"
    assert face.side == gazala.formation(hq.formation).side


def view(gazala: GazalaPack) -> View:
    scenario = gazala.scenarios[0]
    units = tuple(
        UnitView(id=p.unit, name=p.unit, side=gazala.side_of(p.unit), location=p.hex, extra={"disrupted": i == 1})
        for i, p in enumerate(scenario.placements[:8])
    )
    return View(viewer="axis", summary="", units=units)


def test_renderer_draws_each_counter_with_its_values(gazala: GazalaPack, renderer: MapRenderer) -> None:
    shown = view(gazala)
    assert len({u.side for u in shown.units}) == 2  # a few units of each side
    root = ET.fromstring(renderer.render(shown, legend=True))
    drawn = {g.get("data-unit"): g for g in root.iter(f"{SVG}g") if g.get("class") == "unit"}
    assert set(drawn) == {u.id for u in shown.units}
    for unit in shown.units:
        values = [t.text for t in drawn[unit.id].iter(f"{SVG}text") if t.get("class") == "value"]
        assert values == [mapspec.face(gazala, unit).value]


def test_svg_is_byte_identical_across_renders_and_hash_seeds(gazala: GazalaPack, renderer: MapRenderer) -> None:
    first = renderer.render(view(gazala), legend=True)
    assert renderer_for(mapspec, gazala).render(view(gazala), legend=True) == first
    assert render_with_seed("gazala", "7") == first


def test_supply_sources_are_named_in_their_hex_tooltip(spec: MapSpec, gazala: GazalaPack) -> None:
    regions = {r.id: r for r in spec.regions}
    for source in gazala.supply_sources:
        assert source.name in regions[source.hex].name
