"""pbem.kit.hexes: coordinates, ids, neighbours, lines and rings, hexsides, movement and zones of control."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import DataPackError
from pbem.kit.graph import Blocked, Cost
from pbem.kit.hexes import (
    DIRECTION_NAMES,
    Hex,
    HexId,
    HexMap,
    HexMapData,
    HexRecord,
    Hexside,
    HexsideRecord,
    Layout,
    distance,
    hexside_id,
    line,
    ring,
    spiral,
    with_zoc,
)

layouts = st.builds(Layout, st.sampled_from(["flat", "pointy"]), st.sampled_from(["odd", "even"]))


def centre(layout: Layout, col: int, row: int) -> tuple[int, int]:
    """An integer oracle for where a hex sits: flat (3 col, 2 row + shift), pointy (2 col + shift, 3 row)."""
    if layout.orientation == "flat":
        return 3 * col, 2 * row + (1 if layout.shifted(col) else 0)
    return 2 * col + (1 if layout.shifted(row) else 0), 3 * row


def touching(layout: Layout, a: tuple[int, int], b: tuple[int, int]) -> bool:
    (ax, ay), (bx, by) = centre(layout, *a), centre(layout, *b)
    dx, dy = abs(ax - bx), abs(ay - by)
    return (dx, dy) in ({(0, 2), (3, 1)} if layout.orientation == "flat" else {(2, 0), (1, 3)})


def small_map(**changes: object) -> HexMap:
    data = {"orientation": "flat", "stagger": "odd", "cols": (1, 6), "rows": (1, 5), "source": "reconstructed: test"}
    raw = json.dumps({**data, **changes}, default=lambda record: record.model_dump(exclude_none=True))
    return HexMap(HexMapData.model_validate_json(raw))


@settings(max_examples=200)
@given(layouts, st.integers(-30, 30), st.integers(-30, 30))
def test_offset_and_axial_coordinates_round_trip(layout: Layout, col: int, row: int) -> None:
    assert layout.to_offset(layout.to_hex(col, row)) == (col, row)


@settings(max_examples=200)
@given(layouts, st.integers(-9, 9), st.integers(-9, 9))
def test_neighbours_are_exactly_the_hexes_whose_centres_touch(layout: Layout, col: int, row: int) -> None:
    around = layout.neighbours(col, row)
    box = {(c, r) for c in range(col - 2, col + 3) for r in range(row - 2, row + 3)} - {(col, row)}
    assert set(around) == {there for there in box if touching(layout, (col, row), there)}
    assert len(set(around)) == 6


def test_directions_are_clockwise_and_named() -> None:
    flat = Layout("flat", "odd")
    # "odd": odd columns sit half a hex lower, so column 2's north-east neighbour is (3, 4), its south-east (3, 5)
    assert flat.neighbours(2, 5) == ((2, 4), (3, 4), (3, 5), (2, 6), (1, 5), (1, 4))
    assert DIRECTION_NAMES["flat"][flat.direction(flat.to_hex(2, 5), flat.to_hex(3, 5)) or 0] == "se"
    pointy = Layout("pointy", "even")
    assert DIRECTION_NAMES["pointy"][pointy.direction(pointy.to_hex(4, 4), pointy.to_hex(5, 4)) or 0] == "e"
    assert flat.direction(Hex(0, 0), Hex(2, 0)) is None


@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20))
def test_distance_is_the_number_of_steps_of_a_line(q1: int, r1: int, q2: int, r2: int) -> None:
    a, b = Hex(q1, r1), Hex(q2, r2)
    assert distance(a, b) == distance(b, a)
    for side in (1, -1):
        hexes = line(a, b, side=side)
        assert hexes[0] == a and hexes[-1] == b and len(hexes) == distance(a, b) + 1
        assert all(distance(x, y) == 1 for x, y in itertools.pairwise(hexes))


def test_a_line_along_hexsides_goes_either_way_by_side() -> None:
    a, b = Hex(0, 0), Hex(1, 1)  # two steps apart, the straight line runs along the hexside between two hexes
    assert line(a, b, side=1)[1] != line(a, b, side=-1)[1]
    assert {line(a, b, side=1)[1], line(a, b, side=-1)[1]} == {Hex(1, 0), Hex(0, 1)}
    assert line(Hex(0, 0), Hex(3, 0), side=1) == line(Hex(0, 0), Hex(3, 0), side=-1)  # a straight row


@given(st.integers(0, 6))
def test_rings_and_spirals(radius: int) -> None:
    center = Hex(2, -3)
    hexes = ring(center, radius)
    assert len(set(hexes)) == max(1, 6 * radius)
    assert all(distance(center, h) == radius for h in hexes)
    assert len(spiral(center, radius)) == 1 + 3 * radius * (radius + 1)


def test_hex_ids_print_and_parse_the_maps_way() -> None:
    grid = small_map(col_digits=2, row_digits=2, rows=(0, 5))
    assert grid.hex_id(4, 0) == "0400" and grid.offset("0412") == (4, 12)
    assert "0100" in grid and "0700" not in grid and len(grid) == 36
    with pytest.raises(ValueError):
        grid.offset("412")


def test_hexside_ids_are_unordered_pairs() -> None:
    assert hexside_id("0413", "0412") == hexside_id("0412", "0413") == "0412/0413"
    grid = small_map(hexsides=[{"a": "0203", "b": "0202", "features": ["ridge", "gap"]}])
    side = grid.hexside(HexId("0202"), HexId("0203"))
    assert side is not None and side.id == "0202/0203" and side.has("gap") and not side.has("road")
    assert grid.hexside(HexId("0202"), HexId("0204")) is None
    assert len(grid.hexsides) == sum(len(grid.neighbours(h)) for h in grid.hexes) // 2


def test_a_path_lists_the_hexsides_it_crosses() -> None:
    grid = small_map()
    assert grid.crossings([HexId("0303"), HexId("0304"), HexId("0404")]) == ("0303/0304", "0304/0404")
    assert grid.crossings([HexId("0303")]) == ()
    with pytest.raises(ValueError):
        grid.crossings([HexId("0303"), HexId("0305")])


@pytest.mark.parametrize(
    "changes",
    [
        {"hexsides": [{"a": "0202", "b": "0204", "features": ["river"]}]},  # not neighbours
        {
            "hexsides": [
                {"a": "0202", "b": "0203", "features": ["river"]},
                {"a": "0203", "b": "0202", "features": ["x"]},
            ]
        },
        {"hexes": [{"id": "0909", "terrain": "hill"}]},
        {"missing": ["0909"]},
    ],
)
def test_a_map_refuses_records_that_do_not_fit(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        small_map(**changes)


def test_a_pack_whose_map_does_not_fit_is_refused_with_r006() -> None:
    data = HexMapData.model_validate_json(
        '{"orientation": "pointy", "stagger": "even", "cols": [1, 3], "rows": [0, 2], "source": "transcribed: map",'
        ' "hexsides": [{"a": "0100", "b": "0300", "features": ["river"]}]}'
    )
    with pytest.raises(DataPackError) as caught:
        HexMap.from_pack(data, game="demo")
    assert caught.value.code.id == "R006"
    good = HexMap.from_pack(data.model_copy(update={"hexsides": ()}), game="demo")
    assert len(good) == 9 and good.hex_id(1, 0) == "0100"


def test_terrain_features_and_missing_hexes() -> None:
    grid = small_map(missing=["0101"], hexes=[HexRecord(id="0303", terrain="hill", features=("town",))])
    assert grid.terrain(HexId("0303")) == "hill" and grid.terrain(HexId("0302")) == "clear"
    assert grid.features(HexId("0303")) == {"town"}
    assert "0101" not in grid and "0101" not in grid.neighbours(HexId("0102"))
    assert grid.line(HexId("0102"), HexId("0102")) == ("0102",)


# --- movement --------------------------------------------------------------------------------------------------


def one(_a: HexId, _b: HexId, _side: Hexside) -> Cost:
    return Cost(1)


def test_reach_with_uniform_costs_is_the_hexes_within_the_budget() -> None:
    grid = small_map(cols=(1, 9), rows=(1, 9))
    reach = grid.reach(HexId("0505"), 2, one)
    assert set(reach.spent) == set(grid.within(HexId("0505"), 2))
    assert all(reach.spent[h] == grid.distance(HexId("0505"), h) for h in reach.spent)
    for far in grid.ring(HexId("0505"), 2):
        path = reach.path(far)
        assert path[0] == "0505" and path[-1] == far and len(path) == 3


def test_terrain_costs_all_remaining_points_and_first_step_only() -> None:
    ridge = HexsideRecord(a="0303", b="0304", features=("ridge",))
    grid = small_map(hexes=[HexRecord(id="0203", terrain="rough")], hexsides=[ridge])

    def rule(here: HexId, there: HexId, side: Hexside) -> Cost | Blocked:
        if side.has("ridge"):
            return Cost(0, rest=True, first=True)  # Gazala §3.1.2: costs all MPs, so only from beside it
        if grid.terrain(there) == "rough":
            return Cost(0, rest=True)  # all remaining points, the move ends
        return Cost(1)

    reach = grid.reach(HexId("0303"), 1, rule)
    assert reach.spent[HexId("0304")] == 1 and HexId("0305") not in reach  # crossed first, then stopped
    assert reach.spent[HexId("0203")] == 1  # rough: all remaining
    later = grid.reach(HexId("0302"), 3, rule)
    assert later.spent[HexId("0304")] == 3 and later.path(HexId("0304"))[1] != "0303"  # went round the ridge
    walk = grid.walk([HexId("0302"), HexId("0303"), HexId("0304")], 3, rule)
    assert (walk.ok, walk.step, walk.reason) == (False, 2, "not-first-step")


def test_walk_explains_each_refusal() -> None:
    grid = small_map()

    def rule(here: HexId, there: HexId, side: Hexside) -> Cost | Blocked | None:
        if there == "0404":
            return Blocked("7.1", "ridge")
        if there == "0405":
            return None
        return Cost(2, stop=there == "0202")

    def at(*ids: str) -> list[HexId]:
        return [HexId(i) for i in ids]

    assert grid.walk(at("0303", "0304"), 4, rule).ok
    assert grid.walk(at("0303"), 0, rule) == grid.walk([], 0, rule)
    assert grid.walk(at("0303", "0305"), 4, rule).reason == "not-adjacent"
    assert grid.walk(at("0303", "9999"), 4, rule).reason == "not-adjacent"
    blocked = grid.walk(at("0303", "0404"), 4, rule)
    assert (blocked.ok, blocked.rule, blocked.reason) == (False, "7.1", "ridge")
    assert grid.walk(at("0304", "0405"), 4, rule).reason == "impassable"
    over = grid.walk(at("0302", "0303", "0304", "0305"), 4, rule)
    assert (over.step, over.reason, over.spent) == (3, "over-budget", 4)
    stop = grid.walk(at("0302", "0202", "0203"), 9, rule)
    assert (stop.step, stop.reason) == (2, "after-stop")


def test_zones_of_control_stop_a_move_and_hexsides_can_block_them() -> None:
    ridge = HexsideRecord(a="0404", b="0403", features=("ridge",))
    grid = small_map(hexsides=[ridge])
    zone = grid.zoc([HexId("0404")], blocked=lambda side: side.has("ridge"))
    assert HexId("0404") in zone and HexId("0403") not in zone and len(zone) == 6
    assert grid.zoc([HexId("0404")], own_hex=False) == set(grid.neighbours(HexId("0404")))

    def terrain(_a: HexId, _b: HexId, side: Hexside) -> Cost | None:
        return None if side.has("ridge") else Cost(1)

    rule = with_zoc(terrain, zone)
    reach = grid.reach(HexId("0202"), 6, rule)
    assert HexId("0303") in reach and HexId("0404") not in reach  # 0404 lies beyond the zone's edge
    assert reach.spent[HexId("0403")] == 2  # not in the zone: the ridge blocks it
    strict = with_zoc(one, zone, leave_extra=2, zoc_to_zoc=Blocked("5.4", "zoc-to-zoc"))
    assert grid.walk([HexId("0303"), HexId("0304")], 9, strict).reason == "zoc-to-zoc"
    leaving = grid.walk([HexId("0303"), HexId("0302")], 9, strict)
    assert leaving.ok and leaving.spent == 3


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_reach_agrees_with_walking_every_simple_path(data: st.DataObject) -> None:
    """The search (graph.movement) and the step-by-step check (HexMap.walk) are written apart; they must agree."""
    grid = small_map(cols=(1, 3), rows=(1, 3), orientation=data.draw(st.sampled_from(["flat", "pointy"])))
    kinds = st.sampled_from(["plain", "stop", "rest", "first", "none"])
    table = {
        (side.a, side.b, way): (data.draw(st.integers(0, 3)), data.draw(kinds))
        for side in grid.hexsides.values()
        for way in (0, 1)
    }

    def rule(here: HexId, there: HexId, side: Hexside) -> Cost | None:
        mp, kind = table[(side.a, side.b, 0 if here == side.a else 1)]
        if kind == "none":
            return None
        return Cost(mp, stop=kind == "stop", rest=kind == "rest", first=kind == "first")

    start, budget = HexId("0202"), data.draw(st.integers(0, 5))
    minimum = data.draw(st.booleans())
    best: dict[HexId, int] = {}

    def walk(path: list[HexId]) -> None:
        result = grid.walk(path, budget, rule, minimum_move=minimum)
        if not result.ok:
            return
        best[path[-1]] = min(best.get(path[-1], result.spent), result.spent)
        for there in grid.neighbours(path[-1]):
            if there not in path:
                walk([*path, there])

    walk([start])
    reach = grid.reach(start, budget, rule, minimum_move=minimum)
    assert dict(reach.spent) == best
    for there in reach.spent:
        assert grid.walk(list(reach.path(there)), budget, rule, minimum_move=minimum).spent == reach.spent[there]


def test_a_minimum_move_allows_one_step_over_the_budget() -> None:
    grid = small_map()

    def swamp(_a: HexId, _b: HexId, _side: Hexside) -> Cost:
        return Cost(5)

    assert set(grid.reach(HexId("0303"), 2, swamp).spent) == {"0303"}
    reach = grid.reach(HexId("0303"), 2, swamp, minimum_move=True)
    assert set(reach.spent) == {"0303", *grid.neighbours(HexId("0303"))} and reach.spent[HexId("0302")] == 2
    assert grid.walk([HexId("0303"), HexId("0302")], 2, swamp, minimum_move=True).ok
    assert grid.walk([HexId("0303"), HexId("0302"), HexId("0301")], 2, swamp, minimum_move=True).reason == "after-stop"
    assert not grid.walk([HexId("0303"), HexId("0302")], 0, swamp, minimum_move=True).ok  # no points, no move


def reference_line(a: Hex, b: Hex) -> list[Hex]:
    """The usual floating-point hex line (nudged by (1e-6, 2e-6, -3e-6)), as a test oracle only."""
    n = distance(a, b)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        q = a.q + 1e-6 + (b.q - a.q) * t
        r = a.r + 2e-6 + (b.r - a.r) * t
        s = -a.q - a.r - 3e-6 + ((-b.q - b.r) - (-a.q - a.r)) * t
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        out.append(Hex(rq, rr))
    return out


@given(st.integers(-15, 15), st.integers(-15, 15), st.integers(-15, 15), st.integers(-15, 15))
def test_the_integer_line_is_the_usual_hex_line(q1: int, r1: int, q2: int, r2: int) -> None:
    a, b = Hex(q1, r1), Hex(q2, r2)
    assert list(line(a, b)) == reference_line(a, b)
