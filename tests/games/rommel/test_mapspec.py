"""The Rommel board and blocks as drawn: a spec from the bundled pack that fits it, deterministic SVG, fog of war."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest

from pbem.games.rommel import mapspec
from pbem.games.rommel.data import RommelPack
from pbem.report.svg import MapRenderer
from pbem.rules.contract import UnitView, View
from pbem.rules.maps import MapSpec
from tests.maphelpers import SVG, corners, render_with_seed
from tests.maphelpers import renderer as renderer_for


@pytest.fixture(scope="module")
def spec(rommel: RommelPack) -> MapSpec:
    return mapspec.map_spec(rommel)


@pytest.fixture(scope="module")
def renderer(rommel: RommelPack) -> MapRenderer:
    return renderer_for(mapspec, rommel)


def test_every_region_is_a_location_of_the_pack_and_every_land_hex_is_drawn(rommel: RommelPack, spec: MapSpec) -> None:
    ids = [r.id for r in spec.regions]
    assert len(ids) == len(set(ids))
    assert set(ids) == {h.id for h in rommel.map.hexes} | {box.id for box in rommel.map.offboard}


def test_hexes_sit_where_the_grid_says_neighbours_share_a_side(rommel: RommelPack, spec: MapSpec) -> None:
    regions = {r.id: r for r in spec.regions}
    land = rommel.land()
    for hex_id in sorted(land):
        for other in rommel.map.grid.neighbours(hex_id):
            if other in land:
                assert len(corners(regions[hex_id]) & corners(regions[other])) == 2, (hex_id, other)


def test_hexside_edges_join_neighbours_and_name_the_pack_terrain(rommel: RommelPack, spec: MapSpec) -> None:
    regions = {r.id: r for r in spec.regions}
    rough = {frozenset((s.a, s.b)): s.terrain for s in rommel.map.hexsides if s.terrain != "clear"}
    drawn = {frozenset((e.a, e.b)): e.kind for e in spec.edges if e.kind != "frontier"}
    assert drawn == {pair: mapspec.EDGE_KIND.get(t, t) for pair, t in rough.items()}
    for edge in spec.edges:
        assert edge.b in rommel.map.grid.neighbours(edge.a)
        assert len(corners(regions[edge.a]) & corners(regions[edge.b])) == 2
    style = mapspec.map_style(rommel)
    assert {e.kind for e in spec.edges} <= set(style.strokes)


def test_frontier_runs_between_libya_and_egypt(rommel: RommelPack, spec: MapSpec) -> None:
    country = {h.id: h.region for h in rommel.map.hexes}
    frontier = [e for e in spec.edges if e.kind == "frontier"]
    assert frontier and all(country[e.a] != country[e.b] for e in frontier)
    legend = mapspec.map_style(rommel).name("frontier")
    assert all(rommel.area(region).name in legend for region in set(country.values()))


def test_roads_are_paths_through_neighbouring_hexes(rommel: RommelPack, spec: MapSpec) -> None:
    assert sorted(p.through for p in spec.paths) == sorted(r.hexes for r in rommel.map.roads)
    for path in spec.paths:
        assert all(b in rommel.map.grid.neighbours(a) for a, b in pairwise(path.through))
    kinds = [p.kind for p in spec.paths]
    assert kinds == sorted(kinds, key=["trail", "track", "highway"].index)  # a highway is drawn over tracks


def test_places_are_named_and_fortresses_bases_oases_marked(rommel: RommelPack, spec: MapSpec) -> None:
    regions = {r.id: r for r in spec.regions}
    for place in rommel.map.places:
        region = regions[place.hex]
        assert place.name in region.label and place.name in region.name
        if place.kind in mapspec.PLACE_TERRAIN:
            assert region.terrain == mapspec.PLACE_TERRAIN[place.kind]
        if place.port is not None:
            assert f"Axis {place.port.axis} / Allied {place.port.allied}" in region.name
    terrains = {r.terrain for r in spec.regions}
    assert terrains <= set(mapspec.map_style(rommel).terrain)


def test_offboard_boxes_lie_beyond_their_base(rommel: RommelPack, spec: MapSpec) -> None:
    regions = {r.id: r for r in spec.regions}
    for box in rommel.map.offboard:
        base = regions[rommel.place(box.base).hex].center
        x, _ = regions[box.id].center
        assert (x < base[0]) == (box.direction == "w")
        assert 0 < x < spec.width


def test_owner_sees_type_designation_and_cv_enemy_sees_a_blank_block(rommel: RommelPack) -> None:
    block = next(b for b in rommel.blocks if b.side == "axis" and b.unit_type == "armor")
    face = mapspec.block_face(rommel, block.id, cv=block.cv_max - 1, disrupted=True)
    assert (face.shape, face.side, face.title, face.value, face.symbol) == (
        "block", "axis", block.unit, str(block.cv_max - 1), "armor"
    )  # fmt: skip
    assert face.marks == ("D",)
    hidden = mapspec.face(rommel, UnitView(id="t1", name="", side="allied", location="1203", hidden=True))
    assert hidden.concealed and hidden.title == "" and hidden.value == "" and hidden.side == "allied"


def view(rommel: RommelPack) -> View:
    axis = [b for b in rommel.blocks if b.side == "axis"][:3]
    allied = [b for b in rommel.blocks if b.side == "allied"][:3]
    units = [UnitView(id=b.id, name=b.unit, side="axis", location=h, strength=b.cv_max)
             for b, h in zip(axis, ("0108", "0108", "0505"), strict=True)]  # fmt: skip
    # the viewer's enemy: a hidden view entry, even for a block whose id the renderer could look up
    units += [UnitView(id=b.id, name="", side="allied", location=h, hidden=True)
              for b, h in zip(allied, ("1203", "1203", "allied-box"), strict=True)]  # fmt: skip
    return View(viewer="axis", summary="", units=tuple(units), facts={"control": {"1203": "allied"}})


def test_renderer_draws_every_block_and_hides_enemy_identities(rommel: RommelPack, renderer: MapRenderer) -> None:
    shown = view(rommel)
    root = ET.fromstring(renderer.render(shown, legend=True))
    drawn = {g.get("data-unit"): g for g in root.iter(f"{SVG}g") if g.get("class") == "unit"}
    assert set(drawn) == {u.id for u in shown.units}
    for unit in shown.units:
        texts = [t.text for t in drawn[unit.id].iter(f"{SVG}text")]
        if unit.hidden:
            assert texts == []  # a blank block: no type, designation or CV
        else:
            assert str(unit.strength) in texts and unit.name in texts
    legend = [t.text for t in root.iter(f"{SVG}text") if t.text and t.text.startswith("Fortress")]
    assert legend == [mapspec.NAMES["fortress"]]


def test_svg_is_byte_identical_across_renders_and_hash_seeds(rommel: RommelPack, renderer: MapRenderer) -> None:
    first = renderer.render(view(rommel), legend=True)
    assert renderer_for(mapspec, rommel).render(view(rommel), legend=True) == first
    for seed in ("1", "2"):
        assert render_with_seed("rommel", seed) == first


def test_map_end_exits_are_named_for_their_side_inside_the_canvas(rommel: RommelPack, spec: MapSpec) -> None:
    exits = [label for label in spec.labels if "exit" in label.text]
    assert len(exits) == len(rommel.map.exits)
    for label, exit_ in zip(exits, rommel.map.exits, strict=True):
        assert mapspec.SIDES[exit_.side].name in label.text
        assert 0 < label.at[0] < spec.width
