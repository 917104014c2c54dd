"""The shared map renderer: hex and area geometry, one element per unit, fog of war, determinism."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.report.chronicle import Chronicle
from pbem.report.svg import MapRenderer
from pbem.rules.contract import OMNISCIENT, UnitView, View
from pbem.rules.maps import HexGrid, Link, MapSpec, Region, hex_regions
from pbem.rules.presentation import CounterFace, MapStyle, Presentation, SideStyle

GOLDEN = Path(__file__).parent / "golden"


def units_in(svg: str) -> dict[str, dict[str, str]]:
    """The unit elements of a rendered map, by unit id, with their attributes."""
    root = ET.fromstring(svg)
    return {e.get("data-unit", ""): dict(e.attrib) for e in root.iter() if e.get("class") == "unit"}


def tagged(root: ET.Element, name: str) -> list[ET.Element]:
    """Elements named ``name`` in the SVG namespace."""
    return list(root.iter(f"{{http://www.w3.org/2000/svg}}{name}"))


def on_map(view: View) -> set[str]:
    return {u.id for u in view.units if u.location is not None}


@settings(max_examples=60, deadline=None)
@given(
    columns=st.integers(1, 7),
    rows=st.integers(1, 7),
    orientation=st.sampled_from(["flat", "pointy"]),
    stagger=st.sampled_from(["odd", "even"]),
    first=st.integers(0, 1),
)
def test_hex_neighbours_are_exactly_the_hexes_sharing_a_side(
    columns: int, rows: int, orientation: str, stagger: str, first: int
) -> None:
    grid = HexGrid(columns=columns, rows=rows, orientation=orientation, stagger=stagger, first=first)  # type: ignore[arg-type]
    corners = {}
    for col in range(first, first + columns):
        for row in range(first, first + rows):
            corners[(col, row)] = {(round(x, 3), round(y, 3)) for x, y in grid.corners(col, row)}
    for here, mine in corners.items():
        sharing = {there for there, theirs in corners.items() if there != here and len(mine & theirs) == 2}
        assert set(grid.neighbors(*here)) == sharing


def test_hex_regions_fill_the_grid_without_overlap() -> None:
    grid = HexGrid(columns=4, rows=3, size=20)
    regions = hex_regions(grid, {"0102": "woods"})
    assert len(regions) == 12 and {r.id for r in regions} >= {"0101", "0403"}
    assert next(r for r in regions if r.id == "0102").terrain == "woods"
    width, height = grid.extent()
    assert all(0 <= x <= width and 0 <= y <= height for r in regions for x, y in r.polygon)


def test_battleaxe_map_has_one_element_per_unit_on_the_map(sample: Chronicle) -> None:
    assert sample.presentation is not None
    renderer = MapRenderer(sample.presentation)
    for moment in (sample.moments[10], sample.moments[len(sample.moments) // 2], sample.final):
        view = sample.view(moment, OMNISCIENT)
        assert view is not None
        drawn = units_in(renderer.render(view))
        assert set(drawn) == on_map(view)  # eliminated units are not drawn; every unit on the map is


def test_rendering_is_deterministic_and_matches_the_golden_file(sample: Chronicle) -> None:
    """The sample's final position, byte for byte (regenerate with PBEM_REGENERATE=1 after a deliberate change)."""
    assert sample.presentation is not None
    view = sample.view(sample.final, OMNISCIENT)
    first = MapRenderer(sample.presentation).render(view, title="final position")
    again = MapRenderer(sample.presentation).render(view, title="final position")
    assert first == again
    golden = GOLDEN / "battleaxe-final.svg"
    if not golden.exists() or os.environ.get("PBEM_REGENERATE"):
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(first)
    assert first == golden.read_text()


def test_area_map_draws_terrain_escarpments_connections_and_control(sample: Chronicle) -> None:
    assert sample.presentation is not None
    svg = MapRenderer(sample.presentation).render(sample.view(sample.final, OMNISCIENT))
    root = ET.fromstring(svg)
    regions = [e for e in root.iter() if e.get("class") == "region"]
    assert len(regions) == 32  # 23 Areas and 9 Zones
    stutzpunkt = sample.presentation.style.terrain["stutzpunkt"]
    assert {e.get("data-id") for e in regions if e.get("fill") == stutzpunkt} == {"6", "9", "13", "22"}
    escarpment = sample.presentation.style.strokes["escarpment"].color
    assert sum(1 for e in tagged(root, "polyline") if e.get("stroke") == escarpment) == 4
    control = [e for e in tagged(root, "circle") if e.get("class") == "control"]
    assert len(control) == 32 and {e.get("data-side") for e in control} == {"allied", "axis"}


def test_hex_map_draws_river_hexsides_and_road(skirmish: Chronicle) -> None:
    look = skirmish.presentation
    assert look is not None
    svg = MapRenderer(look).render(skirmish.view(skirmish.final, OMNISCIENT))
    root = ET.fromstring(svg)
    assert sum(1 for e in root.iter() if e.get("class") == "region") == 48
    river = look.style.strokes["river"].color
    assert sum(1 for e in tagged(root, "polyline") if e.get("stroke") == river) == 11  # every river hexside


@pytest.mark.parametrize("viewer", ["red", "blue", "@observer"])
def test_fog_of_war_draws_enemy_blocks_as_plain_blocks(skirmish: Chronicle, viewer: str) -> None:
    look = skirmish.presentation
    assert look is not None
    moment = next(m for m in skirmish.moments if m.period == "round-1")  # deployed, nothing revealed yet
    view = skirmish.view(moment, viewer)
    assert view is not None
    root = ET.fromstring(MapRenderer(look).render(view))
    for unit in tagged(root, "g"):
        if unit.get("class") != "unit":
            continue
        texts = [t.text for t in tagged(unit, "text")]
        if unit.get("data-side") == viewer:
            assert texts and texts[-1] in {"1", "2", "3"}  # own blocks show their strength
        else:
            assert texts == []  # an enemy block shows only its colour


class _Nodes(Presentation):
    """A point-to-point map: two nodes and a connection."""

    style = MapStyle(terrain={"clear": "#eeeeee"}, sides={"red": SideStyle(name="Red", fill="#c00", ink="#fff",
                     control="#c00")})  # fmt: skip

    def map_spec(self) -> MapSpec:
        nodes = (Region(id="a", name="Alpha", center=(40, 50)), Region(id="b", name="Beta", center=(140, 50)))
        return MapSpec(width=200, height=100, regions=nodes, links=(Link(a="a", b="b", kind="rail"),))

    def face(self, unit: UnitView) -> CounterFace:
        return CounterFace(side=unit.side, title=unit.name, symbol="armor", value="4-6")


def test_a_point_to_point_map_draws_nodes_and_links_between_their_rims() -> None:
    renderer = MapRenderer(_Nodes(None))
    view = View(viewer="@all", summary="", units=(UnitView(id="u", name="<Panzer & Co>", side="red", location="b"),))
    svg = renderer.render(view)
    root = ET.fromstring(svg)
    assert len([e for e in tagged(root, "circle") if e.get("class") == "region"]) == 2
    (link,) = list(tagged(root, "line"))[:1]
    assert float(link.get("x1", 0)) == 40 + 18 and float(link.get("x2", 0)) == 140 - 18  # clipped at the rims
    assert "&lt;Panzer &amp; Co&gt;" in svg and set(units_in(svg)) == {"u"}


def test_contested_locations_carry_a_marker(sample: Chronicle) -> None:
    """Zone H starts with units of both sides (Battleaxe 7.3): the map marks it Contested."""
    assert sample.presentation is not None
    first = next(m for m in sample.moments if m.state is not None)
    root = ET.fromstring(MapRenderer(sample.presentation).render(sample.view(first, OMNISCIENT)))
    (layer,) = [e for e in tagged(root, "g") if e.get("class") == "markers"]
    assert [t.text for t in tagged(layer, "text")] == ["Contested"]


def test_movement_arrows_are_drawn_beneath_the_counters(sample: Chronicle) -> None:
    """An arrow shows the way a unit came; drawn last it would cross the blocks it passes over."""
    assert sample.presentation is not None
    renderer = MapRenderer(sample.presentation)
    before, after = sample.view(sample.moments[10], OMNISCIENT), sample.view(sample.final, OMNISCIENT)
    assert before is not None and after is not None
    moves = renderer.moves(before, after)
    assert moves
    root = ET.fromstring(renderer.render(after, moves=moves))
    layers = [g.get("class") for g in root if g.get("class") in ("arrows", "units")]
    assert layers == ["arrows", "units"]


def test_a_view_box_frames_the_places_asked_for_and_the_legend_sits_under_it(sample: Chronicle) -> None:
    assert sample.presentation is not None
    renderer = MapRenderer(sample.presentation)
    spec = renderer.spec
    assert renderer.view_box([]) is None and renderer.view_box(["no-such-place"]) is None
    assert renderer.view_box([r.id for r in spec.regions]) is None  # the whole board: drawn as it is
    region = spec.regions[0]
    box = renderer.view_box([region.id])
    assert box is not None
    x, y, width, height = box
    assert x >= 0 and y >= 0 and x + width <= spec.width + 0.01 and y + height <= spec.height + 0.01
    assert all(x <= px <= x + width and y <= py <= y + height for px, py in region.polygon)
    assert abs(width / height - spec.width / spec.height) < 0.01  # the board's proportions
    view = sample.view(sample.final, OMNISCIENT)
    root = ET.fromstring(renderer.render(view, legend=True, width_mm=170, view_box=box))
    left, top, wide, tall = (float(v) for v in (root.get("viewBox") or "").split())
    assert (round(left, 1), round(top, 1), round(wide, 1)) == (round(x, 1), round(y, 1), round(width, 1))
    assert tall > height  # the legend is under the part shown
    legend = next(g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "legend")
    rect = tagged(legend, "rect")[0]
    assert abs(float(rect.get("y", "0")) - (y + height)) < 0.1 and abs(float(rect.get("x", "0")) - x) < 0.1
    # without a view box the map is drawn whole, as before
    whole = ET.fromstring(renderer.render(view, legend=True, width_mm=170))
    assert (whole.get("viewBox") or "").startswith("0 0 ")
