"""Location graphs and the searches every map shares: movement under a budget, shortest paths, supply tracing.

An area map (Operation Battleaxe's Areas and Zones), a territory and sea-zone map (Axis & Allies) and a hex map
(:mod:`pbem.kit.hexes`) all ask the same questions: where can this unit go with its movement points, what is the
cheapest path, can this location trace supply to a source, which locations hang together. This module answers
them once, over any hashable node, with integer costs only (so results can go into signed data).

* :class:`LocationGraph`: nodes with a kind (``land``, ``sea``, ``area``, ``zone``) and typed edges with attributes,
  built from data-pack records (:class:`NodeRecord`, :class:`EdgeRecord`); adjacency is computed once per graph.
* :func:`movement`: every node a mover can reach under a budget, where each step's :class:`Cost` may also stop the
  move (entering an enemy zone of control), spend all remaining points, or be allowed only as a first step.
* :func:`dijkstra`: the one shortest-path search, over any state (a node, or a node plus what a path has used so
  far, e.g. ridge hexsides crossed), with integer step costs and a deterministic order.
* :func:`trace`: supply tracing from sources through allowed nodes, with a maximum length.
* :func:`components`: connected components under a passable predicate.

Example::

    graph = LocationGraph.build(nodes, edges)
    reach = movement("7", 4, lambda here: ((there, Cost(1)) for there in graph.neighbours(here)))
    reach.spent["9"], reach.path("9")
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Generic, Literal, TypeVar

from pydantic import Field

from pbem.kit.datapack import PackModel, Slug, SourceText, fail

__all__ = [
    "Blocked",
    "Cost",
    "Edge",
    "EdgeRecord",
    "LocationGraph",
    "NodeKind",
    "NodeRecord",
    "Reach",
    "Search",
    "StepCost",
    "components",
    "dijkstra",
    "movement",
    "trace",
]

N = TypeVar("N", bound=Hashable)
T = TypeVar("T", bound=Hashable)

NodeKind = Literal["land", "sea", "area", "zone"]


# --- costs -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cost:
    """What one step of a move costs, as a cost function returns it.

    Attributes:
        mp: movement points spent (an integer >= 0). With ``rest`` it is the least the mover must have left.
        stop: the move ends after this step (a combat unit entering an enemy zone of control).
        rest: the step costs every point the mover has left (at least ``mp``, and at least one), and ends the
            move (Battleaxe §9.2 "all MF").
        first: the step is allowed only as the first step of a move, with the whole budget unspent (Gazala
            §3.1.2: crossing a Ridge "costs all MPs", so only a unit that starts beside it can cross).
    """

    mp: int
    stop: bool = False
    rest: bool = False
    first: bool = False

    def __post_init__(self) -> None:
        if self.mp < 0:
            raise ValueError(f"a step cannot cost {self.mp} movement points")


@dataclass(frozen=True, slots=True)
class Blocked:
    """A step that cannot be taken, with the rule that forbids it (for :meth:`pbem.kit.hexes.HexMap.walk`)."""

    rule: str
    reason: str


StepCost = Cost | Blocked | None
"""A cost function's answer: a :class:`Cost`, or :class:`Blocked` / None when the step is impossible."""


# --- the one shortest-path search ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Search(Generic[T]):
    """The result of :func:`dijkstra`: the least cost of every state reached, and how it was reached."""

    cost: Mapping[T, int]
    previous: Mapping[T, T | None]

    def path(self, to: T) -> tuple[T, ...]:
        """The states from a start to ``to``, both included (KeyError if ``to`` was not reached)."""
        steps = [to]
        back = self.previous[to]
        while back is not None:
            steps.append(back)
            back = self.previous[back]
        return tuple(reversed(steps))


def dijkstra(
    starts: Iterable[T],
    expand: Callable[[T, int], Iterable[tuple[T, int]]],
    *,
    limit: int | None = None,
    goal: Callable[[T], bool] | None = None,
) -> Search[T]:
    """Least-cost search from ``starts`` (cost 0 each) over states of any hashable type.

    Args:
        starts: the states the search begins in.
        expand: the successors of a state and the cost (>= 0) of stepping to each, given the cost so far.
        limit: the highest total cost kept (None: no limit).
        goal: stop as soon as a state that satisfies it is settled (it is then in the result).

    Returns:
        Every state settled, with its least cost and a predecessor on one least-cost path. Ties go to the state
        found first, and ``expand`` is called in a fixed order, so the result is deterministic.
    """
    cost: dict[T, int] = {}
    previous: dict[T, T | None] = {}
    best: dict[T, int] = {}
    heap: list[tuple[int, int, T, T | None]] = []
    order = 0  # breaks ties by discovery order, so states themselves are never compared
    for start in starts:
        if start not in best:
            best[start] = 0
            heap.append((0, order, start, None))
            order += 1
    heapq.heapify(heap)
    while heap:
        spent, _, state, back = heapq.heappop(heap)
        if state in cost:
            continue
        cost[state] = spent
        previous[state] = back
        if goal is not None and goal(state):
            break
        for nxt, step in expand(state, spent):
            if step < 0:
                raise ValueError(f"negative step cost {step} from {state!r} to {nxt!r}")
            total = spent + step
            if nxt in cost or (limit is not None and total > limit) or total >= best.get(nxt, total + 1):
                continue
            best[nxt] = total
            heapq.heappush(heap, (total, order, nxt, state))
            order += 1
    return Search(cost, previous)


# --- movement under a budget -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reach(Generic[N]):
    """Where a mover can end its move: the least points spent to stand on each node, and a path to each."""

    start: N
    budget: int
    spent: Mapping[N, int]
    _search: Search[tuple[N, bool]]

    def __contains__(self, node: object) -> bool:
        return node in self.spent

    def path(self, to: N) -> tuple[N, ...]:
        """A cheapest path from the start to ``to``, both included (KeyError if ``to`` cannot be reached)."""
        spent = self.spent[to]
        state = (to, False) if self._search.cost.get((to, False)) == spent else (to, True)
        return tuple(node for node, _ in self._search.path(state))


def movement(
    start: N,
    budget: int,
    steps: Callable[[N], Iterable[tuple[N, StepCost]]],
    *,
    minimum_move: bool = False,
) -> Reach[N]:
    """Every node a mover standing on ``start`` with ``budget`` movement points can reach.

    Args:
        start: where the mover stands (it is always in the result, at cost 0).
        budget: its movement points.
        steps: the neighbours of a node with the :class:`Cost` of stepping there (None or :class:`Blocked`: no).
        minimum_move: a first step that costs more than the budget is still allowed, and ends the move with the
            whole budget spent ("a unit may always move one area", Battleaxe §9.2).

    Returns:
        The reachable nodes and the least points spent on each. A node reached by a stopping step (enemy zone of
        control, "all remaining points") is a place to end the move, never to go on from.
    """

    def expand(state: tuple[N, bool], spent: int) -> Iterable[tuple[tuple[N, bool], int]]:
        here, stopped = state
        if stopped:
            return
        left = budget - spent
        for there, cost in steps(here):
            if not isinstance(cost, Cost):
                continue
            if cost.first and (spent != 0 or here != start):
                continue
            if cost.rest:
                if left >= max(cost.mp, 1):
                    yield (there, True), left
            elif cost.mp <= left:
                yield (there, cost.stop), cost.mp
            elif minimum_move and spent == 0 and here == start and left > 0:
                yield (there, True), left

    search = dijkstra([(start, False)], expand, limit=budget)
    spent: dict[N, int] = {}
    for (node, _), value in search.cost.items():
        if value < spent.get(node, value + 1):
            spent[node] = value
    return Reach(start, budget, spent, search)


# --- location graphs -------------------------------------------------------------------------------------------


class NodeRecord(PackModel):
    """A location of an area or sea map, as a data pack lists it."""

    id: str
    kind: NodeKind
    name: str = ""
    tags: tuple[Slug, ...] = ()
    """Game-defined properties: ``coast_road``, ``sahara``, ``impassable``, ``port``…"""
    values: dict[Slug, int] = Field(default_factory=dict)
    """Game-defined numbers: ``{"rp": 5, "stacking": 3}``."""


class EdgeRecord(PackModel):
    """A connection between two locations: ``type`` is the game's vocabulary (``open``, ``escarpment``, ``sea_lane``,
    ``strait``); ``directed`` edges go only from ``a`` to ``b`` (a convoy route)."""

    a: str
    b: str
    type: Slug
    directed: bool = False
    tags: tuple[Slug, ...] = ()
    values: dict[Slug, int] = Field(default_factory=dict)
    """Game-defined numbers: ``{"mp": 2}``."""
    source: SourceText | None = None


@dataclass(frozen=True, slots=True)
class Edge:
    """One way along a connection: from ``a`` to ``b``, with its record's type, tags and values."""

    a: str
    b: str
    type: str
    tags: frozenset[str]
    values: Mapping[str, int] = field(default_factory=dict, compare=False, hash=False)


class LocationGraph:
    """An area or sea map: nodes with kinds, typed edges, adjacency computed once.

    Neighbours are listed in the order the data pack lists the edges, so every search is deterministic.

    Raises:
        ValueError: an edge names an unknown node, or joins a node to itself, or two edges join the same pair.
    """

    def __init__(self, nodes: Sequence[NodeRecord], edges: Sequence[EdgeRecord]):
        self.nodes: dict[str, NodeRecord] = {}
        for node in nodes:
            if node.id in self.nodes:
                raise ValueError(f"node {node.id!r} is listed twice")
            self.nodes[node.id] = node
        out: dict[str, list[Edge]] = {n: [] for n in self.nodes}
        into: dict[str, list[Edge]] = {n: [] for n in self.nodes}
        seen: set[tuple[str, str]] = set()
        for record in edges:
            for end in (record.a, record.b):
                if end not in self.nodes:
                    raise ValueError(f"edge {record.a}-{record.b} names the unknown node {end!r}")
            if record.a == record.b:
                raise ValueError(f"edge {record.a}-{record.b} joins a node to itself")
            ways = [(record.a, record.b)] if record.directed else [(record.a, record.b), (record.b, record.a)]
            for a, b in ways:
                if (a, b) in seen:
                    raise ValueError(f"two edges lead from {a!r} to {b!r}")
                seen.add((a, b))
                edge = Edge(a, b, record.type, frozenset(record.tags), MappingProxyType(dict(record.values)))
                out[a].append(edge)
                into[b].append(edge)
        self._out = {n: tuple(e) for n, e in out.items()}
        self._into = {n: tuple(e) for n, e in into.items()}
        self._between = {(e.a, e.b): e for es in self._out.values() for e in es}

    @classmethod
    def build(cls, nodes: Sequence[NodeRecord], edges: Sequence[EdgeRecord]) -> LocationGraph:
        """The graph of a data pack's records (same as the constructor; reads better at call sites)."""
        return cls(nodes, edges)

    @classmethod
    def from_pack(cls, nodes: Sequence[NodeRecord], edges: Sequence[EdgeRecord], *, game: str) -> LocationGraph:
        """The graph of a loaded pack, for a game's loader or cross-check.

        Raises:
            DataPackError: R006 naming the node or edge at fault.
        """
        try:
            return cls(nodes, edges)
        except ValueError as exc:
            fail(game, f"location graph: {exc}")

    def kind(self, node: str) -> NodeKind:
        """The kind of ``node``: ``land``, ``sea``, ``area`` or ``zone``."""
        return self.nodes[node].kind

    def edges(self, node: str) -> tuple[Edge, ...]:
        """The edges leaving ``node``."""
        return self._out[node]

    def edges_into(self, node: str) -> tuple[Edge, ...]:
        """The edges arriving at ``node`` (for tracing back from a source along directed edges)."""
        return self._into[node]

    def neighbours(self, node: str) -> tuple[str, ...]:
        """The nodes one edge away from ``node``, in the pack's order of the edges."""
        return tuple(e.b for e in self._out[node])

    def edge(self, a: str, b: str) -> Edge | None:
        """The edge from ``a`` to ``b``, or None if they are not connected that way."""
        return self._between.get((a, b))

    def reachable(
        self,
        start: str,
        *,
        enter: Callable[[str], bool] = lambda _: True,
        cross: Callable[[Edge], bool] = lambda _: True,
    ) -> frozenset[str]:
        """Every node reachable from ``start`` through nodes that ``enter`` accepts, along edges ``cross`` accepts."""
        found = trace(self, [start], enter=enter, cross=cross, backwards=False)
        return frozenset(found)

    def shortest(
        self,
        a: str,
        b: str,
        cost: Callable[[Edge], int | None] = lambda _: 1,
        *,
        enter: Callable[[str], bool] = lambda _: True,
    ) -> tuple[tuple[str, ...], int] | None:
        """A least-cost path from ``a`` to ``b`` and its cost, or None. ``cost`` None means the edge is closed."""

        def expand(here: str, _spent: int) -> Iterable[tuple[str, int]]:
            for edge in self._out[here]:
                step = cost(edge)
                if step is not None and (edge.b == b or enter(edge.b)):
                    yield edge.b, step

        search = dijkstra([a], expand, goal=lambda node: node == b)
        if b not in search.cost:
            return None
        return search.path(b), search.cost[b]

    def movement(
        self, start: str, budget: int, cost: Callable[[Edge], StepCost], *, minimum_move: bool = False
    ) -> Reach[str]:
        """:func:`movement` over this graph, with a cost function of the edge taken."""
        return movement(
            start, budget, lambda here: ((e.b, cost(e)) for e in self._out[here]), minimum_move=minimum_move
        )


def trace(
    graph: LocationGraph,
    sources: Iterable[str],
    *,
    enter: Callable[[str], bool] = lambda _: True,
    end: Callable[[str], bool] = lambda _: False,
    cross: Callable[[Edge], bool] = lambda _: True,
    max_length: int | None = None,
    backwards: bool = True,
) -> dict[str, int]:
    """Supply tracing: the locations that can trace a line to one of ``sources``, with the length of the shortest.

    The search runs from the sources outwards (along edges backwards, so a directed convoy route is followed in
    its own direction by the supplied location). A line may pass through a location only if ``enter`` accepts it
    (friendly or allowed, not enemy-occupied); a location that ``end`` accepts may be the traced-from end of a
    line without being passable (Gazala §5.4.1: a path may end in an enemy zone of control but not pass through
    one; Battleaxe's ruling A50: a besieged location traces out of itself). Sources count whatever ``enter`` says.

    Args:
        graph: the map.
        sources: where supply comes from.
        enter: whether a line may pass through a location.
        end: whether a line may start in a location ``enter`` refuses.
        cross: whether a line may use an edge (an escarpment, a closed strait: no).
        max_length: the most edges a line may have (None: any).
        backwards: False to search forwards from the sources (plain reachability).

    Returns:
        Location -> number of edges to the nearest source, for every location that can trace.
    """
    found: dict[str, int] = {}
    todo: deque[str] = deque()
    for source in sources:
        if source not in found:
            found[source] = 0
            todo.append(source)
    while todo:
        here = todo.popleft()
        length = found[here] + 1
        if max_length is not None and length > max_length:
            continue
        for edge in graph.edges_into(here) if backwards else graph.edges(here):
            there = edge.a if backwards else edge.b
            if there in found or not cross(edge):
                continue
            if enter(there):
                found[there] = length
                todo.append(there)
            elif end(there):
                found[there] = length  # a dead end: it traces, but nothing traces through it
    return found


def components(graph: LocationGraph, *, enter: Callable[[str], bool] = lambda _: True) -> list[frozenset[str]]:
    """The connected components of the nodes ``enter`` accepts (edges taken both ways), in the data pack's order."""
    undirected: dict[str, list[str]] = {n: [] for n in graph.nodes}
    for node in graph.nodes:
        for edge in graph.edges(node):
            undirected[edge.a].append(edge.b)
            undirected[edge.b].append(edge.a)
    seen: set[str] = set()
    parts: list[frozenset[str]] = []
    for node in graph.nodes:
        if node in seen or not enter(node):
            continue
        part = {node}
        todo = [node]
        while todo:
            here = todo.pop()
            for there in undirected[here]:
                if there not in part and enter(there):
                    part.add(there)
                    todo.append(there)
        seen |= part
        parts.append(frozenset(part))
    return parts
