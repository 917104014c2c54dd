"""The Axis & Allies board and pieces as drawn: spaces from the pack's outlines, owner colours, convoy zones, the coast
road and the Sahara, counted stacks by power and type, deterministic SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from pbem.games.axisallies import mapspec
from pbem.games.axisallies.data import AxisAlliesPack, SeaZone, Territory
from pbem.report.svg import MapRenderer
from pbem.rules.contract import UnitView, View
from pbem.rules.maps import MapSpec
from tests.maphelpers import SVG, render_with_seed
from tests.maphelpers import renderer as renderer_for


@pytest.fixture(scope="module")
def spec(pack: AxisAlliesPack) -> MapSpec:
    return mapspec.map_spec(pack)


@pytest.fixture(scope="module")
def renderer(pack: AxisAlliesPack) -> MapRenderer:
    return renderer_for(mapspec, pack)


def test_every_region_is_a_space_of_the_pack_with_its_outline(pack: AxisAlliesPack, spec: MapSpec) -> None:
    regions = {r.id: r for r in spec.regions}
    assert len(regions) == len(spec.regions)
    spaces: list[Territory | SeaZone] = [*pack.territories, *pack.sea_zones]
    assert set(regions) == {s.id for s in spaces}
    for space in spaces:
        region = regions[space.id]
        assert region.polygon == tuple((float(x), float(y)) for x, y in space.geometry.polygon)
        assert region.label.startswith(space.label)
        assert 0 <= region.center[0] <= pack.canvas.width and region.center[1] == space.geometry.position[1]
    assert (spec.width, spec.height) == (pack.canvas.width, pack.canvas.height)
    assert [s.polygon for s in spec.shapes] == [
        tuple((float(x), float(y)) for x, y in d.polygon) for d in pack.decorations
    ]


def test_rp_values_sahara_impassable_emblems_and_convoys_come_from_the_pack(
    pack: AxisAlliesPack, spec: MapSpec
) -> None:
    regions = {r.id: r for r in spec.regions}
    for t in pack.territories:
        region = regions[t.id]
        if t.rp is not None:
            assert region.label == f"{t.label} {t.rp}"
        if t.permanent_owner is not None:
            assert region.terrain == f"{mapspec.HOME}{t.permanent_owner}"
        elif t.impassable:
            assert region.terrain == "impassable"
        elif t.sahara:
            assert region.terrain == "sahara"
    for zone in pack.sea_zones:
        assert (regions[zone.id].terrain == "convoy") == (zone.convoy is not None)
    routes = {label.text for label in spec.labels if label.italic and label.text.endswith(" convoy")}
    assert routes == {
        f"{z.convoy.route} convoy" for z in pack.sea_zones if z.convoy is not None and z.number is not None
    }
    style = mapspec.map_style(pack)
    assert {r.terrain for r in spec.regions} | {s.terrain for s in spec.shapes} <= set(style.terrain)
    assert set(style.sides) == {p.id for p in pack.powers}
    assert all(style.sides[p.id].control == p.color for p in pack.powers)


def test_coast_road_white_line_and_strait_follow_the_pack_edges(pack: AxisAlliesPack, spec: MapSpec) -> None:
    land = {t.id: t for t in pack.territories}
    edges = {frozenset((e.a, e.b)): e.type for e in pack.edges}
    road = [p.through for p in spec.paths if p.kind == "coast_road"]
    assert road and all(edges[frozenset(pair)] == "land" for pair in road)
    assert {t for pair in road for t in pair} == {t.id for t in pack.territories if t.coast_road}
    for edge in spec.edges:
        assert frozenset((edge.a, edge.b)) in edges
        if edge.kind == "white_line":
            assert land[edge.a].mat != land[edge.b].mat
    assert any(e.kind == "strait" for e in spec.edges)
    capitals = [line for line in spec.lines if line.kind == "capital"]
    assert len(capitals) == sum(1 for t in pack.territories if t.capital_of)


def test_stack_shows_the_power_the_piece_its_chart_values_and_the_count(pack: AxisAlliesPack) -> None:
    row = pack.unit("germany", "tank")
    face = mapspec.stack_face(pack, "germany", "tank", 3)
    assert (face.side, face.title, face.count, face.symbol) == ("germany", row.name, 3, "armor")
    assert face.value == f"{row.attack}/{row.defense}/{row.move}"
    truck = next(u for u in pack.units if u.type == "truck")
    assert mapspec.stack_face(pack, truck.power, "truck", 1).value.startswith("-/-/")
    assert mapspec.ink_on("#111111") == "#ffffff" and mapspec.ink_on("#eeeeee") == "#111111"


STACKS = (
    ("tobruk", "germany", "tank", 3),
    ("tobruk", "italy", "infantry", 2),
    ("cairo", "united_kingdom", "infantry", 4),
    ("cairo", "united_states", "tank", 12),
    ("sz25", "united_kingdom", "destroyer", 2),
)


def view(pack: AxisAlliesPack) -> View:
    units = tuple(
        UnitView(
            id=f"{space}/{power}:{kind}",
            name=kind,
            side=pack.power(power).side or "axis",
            location=space,
            kind=kind,
            steps=count,
            extra={"power": power, "count": count},
        )
        for space, power, kind, count in STACKS
    )
    control = {"tobruk": "germany", "cairo": "united_kingdom"}
    return View(viewer="germany", summary="", units=units, facts={"control": control})


def test_renderer_draws_counted_stacks_and_owner_tints(pack: AxisAlliesPack, renderer: MapRenderer) -> None:
    shown = view(pack)
    root = ET.fromstring(renderer.render(shown, legend=True))
    drawn = {g.get("data-unit"): g for g in root.iter(f"{SVG}g") if g.get("class") == "unit"}
    assert set(drawn) == {u.id for u in shown.units}
    for unit in shown.units:
        badge = next(g for g in drawn[unit.id].iter(f"{SVG}g") if g.get("class") == "count")
        assert badge.get("data-count") == str(unit.extra["count"])
        assert drawn[unit.id].get("data-side") == unit.extra["power"]
    tints = {p.get("data-id"): p.get("fill") for p in root.iter(f"{SVG}polygon") if p.get("data-side")}
    assert tints == {"tobruk": pack.power("germany").color, "cairo": pack.power("united_kingdom").color}


def test_svg_is_byte_identical_across_renders_and_hash_seeds(pack: AxisAlliesPack, renderer: MapRenderer) -> None:
    first = renderer.render(view(pack), legend=True)
    assert renderer_for(mapspec, pack).render(view(pack), legend=True) == first
    assert render_with_seed("axisallies", "7") == first
