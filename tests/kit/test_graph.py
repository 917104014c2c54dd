"""pbem.kit.graph: location graphs, movement under a budget, shortest paths, supply tracing, components."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import DataPackError
from pbem.kit.graph import (
    Cost,
    Edge,
    EdgeRecord,
    LocationGraph,
    NodeRecord,
    components,
    dijkstra,
    movement,
    trace,
)


def build(
    nodes: Iterable[str], edges: Iterable[tuple[str, str, str]], *, directed: Iterable[str] = ()
) -> LocationGraph:
    one_way = set(directed)
    return LocationGraph.build(
        [NodeRecord(id=n, kind="zone" if n.isalpha() else "area") for n in nodes],
        [EdgeRecord(a=a, b=b, type=kind, directed=f"{a}>{b}" in one_way) for a, b, kind in edges],
    )


# A Battleaxe-like strip: Areas 1-2-3-4 in a row, an escarpment 2|5, Zone A behind 4, a sea lane 4>6 one way.
STRIP = build(
    ["1", "2", "3", "4", "5", "6", "A"],
    [
        ("1", "2", "open"),
        ("2", "3", "open"),
        ("3", "4", "open"),
        ("2", "5", "escarpment"),
        ("4", "A", "connection"),
        ("4", "6", "sea_lane"),
    ],
    directed=["4>6"],
)


def test_nodes_and_edges_carry_game_values() -> None:
    graph = LocationGraph.build(
        [
            NodeRecord(id="malta", kind="land", tags=("island",), values={"rp": 15, "stacking": 3}),
            NodeRecord(id="sz12", kind="sea"),
        ],
        [EdgeRecord(a="malta", b="sz12", type="coast", values={"mp": 1})],
    )
    assert graph.nodes["malta"].values["stacking"] == 3 and "island" in graph.nodes["malta"].tags
    edge = graph.edge("sz12", "malta")
    assert edge is not None and edge.values["mp"] == 1 and hash(edge) == hash(graph.edge("sz12", "malta"))


def test_a_graph_lists_neighbours_kinds_and_edges_in_pack_order() -> None:
    assert STRIP.neighbours("2") == ("1", "3", "5")
    assert STRIP.kind("A") == "zone" and STRIP.kind("1") == "area"
    assert STRIP.edge("4", "6") == Edge("4", "6", "sea_lane", frozenset())
    assert STRIP.edge("6", "4") is None  # one way
    assert [e.a for e in STRIP.edges_into("6")] == ["4"]


@pytest.mark.parametrize(
    ("nodes", "edges"),
    [
        (["1", "1"], []),
        (["1"], [("1", "9", "open")]),
        (["1"], [("1", "1", "open")]),
        (["1", "2"], [("1", "2", "open"), ("2", "1", "open")]),
    ],
)
def test_a_graph_refuses_bad_records(nodes: list[str], edges: list[tuple[str, str, str]]) -> None:
    with pytest.raises(ValueError):
        build(nodes, edges)


def test_a_pack_whose_graph_does_not_fit_is_refused_with_r006() -> None:
    with pytest.raises(DataPackError) as caught:
        LocationGraph.from_pack([NodeRecord(id="1", kind="area")], [EdgeRecord(a="1", b="2", type="open")], game="demo")
    assert caught.value.code.id == "R006"


def test_movement_with_all_remaining_costs_and_closed_edges() -> None:
    def cost(edge: Edge) -> Cost | None:
        if edge.type == "escarpment":
            return None  # Battleaxe §9.3.2: never crossed
        if edge.b == "3":
            return Cost(0, rest=True)  # entering costs all MF
        return Cost(1)

    reach = STRIP.movement("1", 3, cost)
    assert dict(reach.spent) == {"1": 0, "2": 1, "3": 3}
    assert reach.path("3") == ("1", "2", "3") and "5" not in reach
    with pytest.raises(KeyError):
        reach.path("4")


def test_a_stop_ends_the_move_but_a_cheaper_way_round_does_not() -> None:
    ring = build("abcd", [("a", "b", "x"), ("b", "c", "x"), ("a", "d", "x"), ("d", "c", "x")])

    def cost(edge: Edge) -> Cost:
        return Cost(1, stop=edge.b == "b") if edge.b != "d" else Cost(2)

    reach = ring.movement("a", 4, cost)
    assert reach.spent["b"] == 1 and reach.spent["c"] == 3  # through d, since b stops the move
    assert reach.path("c") == ("a", "d", "c")


def test_shortest_paths_respect_costs_and_closed_nodes() -> None:
    assert STRIP.shortest("1", "A") == (("1", "2", "3", "4", "A"), 4)
    assert STRIP.shortest("6", "1") is None  # the sea lane runs one way
    assert STRIP.shortest("1", "A", enter=lambda n: n != "3") is None
    assert STRIP.shortest("1", "5", lambda e: 9 if e.type == "escarpment" else None) is None  # 1-2 is closed too
    cheap = STRIP.shortest("1", "5", lambda e: 9 if e.type == "escarpment" else 1)
    assert cheap == (("1", "2", "5"), 10)


def test_supply_traces_through_friendly_locations_up_to_a_length() -> None:
    friendly = {"A", "4", "3"}
    lines = trace(STRIP, ["A"], enter=friendly.__contains__, cross=lambda e: e.type != "escarpment")
    assert lines == {"A": 0, "4": 1, "3": 2}
    # Battleaxe ruling A50 shape: an enemy-held location still traces out of itself, but nothing traces through it
    held = trace(STRIP, ["A"], enter=friendly.__contains__, end=lambda n: n == "2")
    assert held["2"] == 3 and "1" not in held
    assert trace(STRIP, ["A"], max_length=1) == {"A": 0, "4": 1}


def test_supply_follows_one_way_routes_in_their_direction() -> None:
    convoy = build(
        ["atlantic", "indian", "suez", "cairo"],
        [("atlantic", "indian", "convoy"), ("indian", "suez", "convoy"), ("suez", "cairo", "convoy")],
        directed=["atlantic>indian", "indian>suez", "suez>cairo"],
    )
    assert set(trace(convoy, ["atlantic"])) == {"atlantic"}  # nothing sails *to* the Atlantic
    assert set(trace(convoy, ["cairo"])) == {"cairo", "suez", "indian", "atlantic"}  # all can ship to Cairo
    assert convoy.reachable("atlantic") == {"atlantic", "indian", "suez", "cairo"}


def test_components_split_at_closed_locations() -> None:
    parts = components(STRIP, enter=lambda n: n != "3")
    assert parts == [frozenset({"1", "2", "5"}), frozenset({"4", "6", "A"})]
    assert components(STRIP) == [frozenset(STRIP.nodes)]


def test_dijkstra_searches_states_with_memory() -> None:
    """Gazala §5.8 shape: a path may cross at most one ridge; the state is (location, ridges crossed)."""
    ridges = {("b", "c")}
    line = build("abcd", [("a", "b", "x"), ("b", "c", "x"), ("c", "d", "x")])

    def expand(state: tuple[str, int], _spent: int) -> Iterable[tuple[tuple[str, int], int]]:
        here, crossed = state
        for there in line.neighbours(here):
            more = crossed + ((here, there) in ridges or (there, here) in ridges)
            if more <= 1:
                yield (there, more), 1

    search = dijkstra([("a", 0)], expand)
    assert search.cost[("d", 1)] == 3 and search.path(("d", 1))[-1] == ("d", 1)
    assert ("d", 0) not in search.cost
    goal = dijkstra([("a", 0)], expand, goal=lambda s: s[0] == "c")
    assert ("d", 1) not in goal.cost


def test_dijkstra_refuses_negative_costs() -> None:
    with pytest.raises(ValueError):
        dijkstra([0], lambda n, _s: [(n + 1, -1)])
    with pytest.raises(ValueError):
        Cost(-1)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 3)), max_size=15), st.integers(0, 6))
def test_movement_with_plain_costs_agrees_with_bellman_ford(edges: list[tuple[int, int, int]], budget: int) -> None:
    weights: dict[tuple[int, int], int] = {}
    for a, b, w in edges:
        if a != b:
            weights[(a, b)] = w
    reach = movement(0, budget, lambda here: ((b, Cost(w)) for (a, b), w in weights.items() if a == here))
    best = {0: 0}
    for _ in range(6):
        for (a, b), w in weights.items():
            if a in best and best[a] + w <= budget and best[a] + w < best.get(b, budget + 1):
                best[b] = best[a] + w
    assert dict(reach.spent) == best


# --- Battleaxe on the kit's graph (how its board.py would use it) ----------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_battleaxe_supply_trace_is_a_kit_trace(data: st.DataObject) -> None:
    """Battleaxe's board.trace (§14.2.1, ruling A50) is kit.graph.trace over the pack's locations and boundaries."""
    from pbem.games.battleaxe.board import Board
    from pbem.games.battleaxe.board import trace as battleaxe_trace
    from pbem.games.battleaxe.data import default_pack_bytes, load_pack

    pack = load_pack(default_pack_bytes())
    board = Board(pack)
    graph = LocationGraph.build(
        [NodeRecord(id=loc.id, kind=loc.kind) for loc in pack.locations],
        [EdgeRecord(a=b.a, b=b.b, type=b.type) for b in pack.boundaries],
    )
    ids = sorted(board.locations)
    control = {loc: data.draw(st.sampled_from(["allied", "axis"])) for loc in ids}
    side = data.draw(st.sampled_from(["allied", "axis"]))
    targets = data.draw(st.lists(st.sampled_from(ids), max_size=4))
    start = data.draw(st.sampled_from(ids))
    expected = battleaxe_trace(board, control, side, start, targets)  # type: ignore[arg-type]
    lines = trace(
        graph,
        [t for t in targets if control[t] == side],
        enter=lambda n: control[n] == side,
        end=lambda n: n == start,  # ruling A50: the start traces out of itself
        cross=lambda e: e.type != "escarpment",
    )
    assert (start in lines) == expected
