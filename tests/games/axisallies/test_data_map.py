"""The map of the data pack: every space, border, flag and convoy route the text gives, and a sane drawing.

Facts the text does not give are checked for consistency only; their sources must say ``reconstructed:``.

The rulebook has no numbered sections; its pages serve as sections, so ``@pytest.mark.rule("28")`` is page 28
(``pytest --rule 28``).
"""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.axisallies.data import (
    AxisAlliesPack,
    SeaZone,
    Territory,
)
from pbem.kit.graph import components

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
