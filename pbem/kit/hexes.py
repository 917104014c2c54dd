"""Hex maps: coordinates and printed ids, neighbours, hexsides with features, movement, zones of control.

Two coordinate systems meet here:

* **offset** ``(col, row)``, as printed on a map (``"0412"`` is column 4, row 12). A :class:`Layout` says whether
  hexes have flat tops (columns are staggered) or pointy tops (rows are staggered), and which printed columns
  (rows) are pushed half a hex down (right): ``odd`` or ``even``, by their printed number.
* **axial** :class:`Hex` ``(q, r)`` (cube coordinates with ``s = -q - r`` left implicit), where distance, lines and
  rings are simple integer arithmetic.

A :class:`HexMap` is one map of a data pack (:class:`HexMapData`): its hexes, terrain per hex and hexside
features (``ridge``, ``river``, ``minefield``, ``track``, ``impassable``… the game's vocabulary). It computes
adjacency once per map object and answers movement (:meth:`HexMap.reach`, :meth:`HexMap.walk`) with the shared
search of :mod:`pbem.kit.graph`, through a cost function of ``(from, to, hexside)``. Zones of control are sets of
hexes (:meth:`HexMap.zoc`), and entering or leaving them is a rule of the cost function (:func:`with_zoc`).

Everything is integer arithmetic, so results can go into signed data. This module must not import
:mod:`pbem.rules` (the renderer's ``HexGrid`` in :mod:`pbem.rules.maps` shares this topology).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple, NewType

from pydantic import Field, model_validator

from pbem.kit.datapack import PackModel, Slug, SourceText, fail
from pbem.kit.graph import Blocked, Cost, Reach, StepCost, movement

__all__ = [
    "DIRECTION_NAMES",
    "Hex",
    "HexId",
    "HexMap",
    "HexMapData",
    "HexRecord",
    "Hexside",
    "HexsideId",
    "HexsideRecord",
    "Layout",
    "MoveCost",
    "Orientation",
    "Stagger",
    "Walk",
    "distance",
    "hexside_id",
    "line",
    "ring",
    "spiral",
    "with_zoc",
]

HexId = NewType("HexId", str)
"""A hex as printed on the map: ``"0412"``."""
HexsideId = NewType("HexsideId", str)
"""A hexside: the ids of the two hexes it separates, the smaller first, joined by ``/`` (``"0412/0413"``)."""
Orientation = Literal["flat", "pointy"]
Stagger = Literal["odd", "even"]


class Hex(NamedTuple):
    """Axial coordinates (``s = -q - r``)."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate."""
        return -self.q - self.r

    def step(self, step: tuple[int, int]) -> Hex:
        """The hex one axial ``step`` away."""
        return Hex(self.q + step[0], self.r + step[1])


# Clockwise from the top. Flat tops: columns are staggered, so a hex has a neighbour straight up and down.
_AXIAL_STEPS: dict[Orientation, tuple[tuple[int, int], ...]] = {
    "flat": ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)),
    "pointy": ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)),
}
DIRECTION_NAMES: dict[Orientation, tuple[str, ...]] = {
    "flat": ("n", "ne", "se", "s", "sw", "nw"),
    "pointy": ("ne", "e", "se", "sw", "w", "nw"),
}
"""Direction ``i`` of :meth:`Layout.direction` by name, clockwise."""


def distance(a: Hex, b: Hex) -> int:
    """The number of hex steps from ``a`` to ``b``."""
    dq, dr = a.q - b.q, a.r - b.r
    return max(abs(dq), abs(dr), abs(dq + dr))


def _round_cube(q: int, r: int, s: int, scale: int) -> Hex:
    """The hex nearest to the cube point ``(q, r, s) / scale`` (q + r + s == 0), in integers only."""
    rq, rr, rs = ((2 * v + scale) // (2 * scale) for v in (q, r, s))
    dq, dr, ds = abs(rq * scale - q), abs(rr * scale - r), abs(rs * scale - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(rq, rr)


def line(a: Hex, b: Hex, *, side: Literal[1, -1] = 1) -> tuple[Hex, ...]:
    """The hexes a straight line from the centre of ``a`` to the centre of ``b`` passes through, both included.

    A line that runs exactly along a hexside is ambiguous: ``side`` nudges it to one side (1) or the other (-1).
    Rules that block sight "if either side is blocked" call both.
    """
    n = distance(a, b)
    if n == 0:
        return (a,)
    # Each point is (a*(n-i) + b*i)/n. Scaled by 8n and nudged by (1, 2, -3)*side, less than the half step (4)
    # to any rounding boundary, so ties break one way and nothing else moves.
    scale = 8 * n
    out = []
    for i in range(n + 1):
        q = 8 * (a.q * (n - i) + b.q * i) + side
        r = 8 * (a.r * (n - i) + b.r * i) + 2 * side
        out.append(_round_cube(q, r, -q - r, scale))
    return tuple(out)


def ring(center: Hex, radius: int) -> tuple[Hex, ...]:
    """The hexes exactly ``radius`` steps from ``center``, clockwise (``(center,)`` for radius 0)."""
    if radius < 0:
        raise ValueError(f"a ring cannot have radius {radius}")
    if radius == 0:
        return (center,)
    steps = _AXIAL_STEPS["flat"]
    here = Hex(center.q + steps[4][0] * radius, center.r + steps[4][1] * radius)  # start south-west
    out = []
    for direction in range(6):
        for _ in range(radius):
            out.append(here)
            here = here.step(steps[direction])
    return tuple(out)


def spiral(center: Hex, radius: int) -> tuple[Hex, ...]:
    """Every hex within ``radius`` steps of ``center``: the centre, then ring 1, ring 2…"""
    return tuple(h for k in range(radius + 1) for h in ring(center, k))


def hexside_id(a: str, b: str) -> HexsideId:
    """The id of the hexside between hexes ``a`` and ``b`` (in either order)."""
    return HexsideId(f"{a}/{b}" if a < b else f"{b}/{a}")


@dataclass(frozen=True, slots=True)
class Layout:
    """How a map's printed ``(col, row)`` numbers sit on the hex lattice.

    Attributes:
        orientation: ``flat`` (flat tops, columns staggered) or ``pointy`` (pointy tops, rows staggered).
        stagger: which printed columns (flat) or rows (pointy) are pushed half a hex down (right).
    """

    orientation: Orientation = "flat"
    stagger: Stagger = "odd"

    def shifted(self, index: int) -> bool:
        """Whether printed column (flat) or row (pointy) ``index`` is pushed half a hex down (right)."""
        return index % 2 == (1 if self.stagger == "odd" else 0)

    def to_hex(self, col: int, row: int) -> Hex:
        """Axial coordinates of the printed ``(col, row)``."""
        if self.orientation == "flat":
            lift = (col - (col & 1)) // 2 if self.stagger == "odd" else (col + (col & 1)) // 2
            return Hex(col, row - lift)
        lift = (row - (row & 1)) // 2 if self.stagger == "odd" else (row + (row & 1)) // 2
        return Hex(col - lift, row)

    def to_offset(self, h: Hex) -> tuple[int, int]:
        """The printed ``(col, row)`` of an axial hex."""
        if self.orientation == "flat":
            lift = (h.q - (h.q & 1)) // 2 if self.stagger == "odd" else (h.q + (h.q & 1)) // 2
            return h.q, h.r + lift
        lift = (h.r - (h.r & 1)) // 2 if self.stagger == "odd" else (h.r + (h.r & 1)) // 2
        return h.q + lift, h.r

    def step(self, direction: int) -> tuple[int, int]:
        """The axial step of direction ``direction`` (0..5, clockwise, see :data:`DIRECTION_NAMES`)."""
        return _AXIAL_STEPS[self.orientation][direction]

    def neighbours(self, col: int, row: int) -> tuple[tuple[int, int], ...]:
        """The six printed ``(col, row)`` around ``(col, row)``, by direction (the map's edges are not checked)."""
        here = self.to_hex(col, row)
        return tuple(self.to_offset(here.step(step)) for step in _AXIAL_STEPS[self.orientation])

    def direction(self, a: Hex, b: Hex) -> int | None:
        """The direction (0..5) from ``a`` to its neighbour ``b``; None if they are not neighbours."""
        step = (b.q - a.q, b.r - a.r)
        steps = _AXIAL_STEPS[self.orientation]
        return steps.index(step) if step in steps else None


# --- a map's data ----------------------------------------------------------------------------------------------

_ID = re.compile(r"^[0-9]+$")


class HexRecord(PackModel):
    """A hex with something to say: its terrain, features (``town``, ``oasis``, ``minefield``) and names."""

    id: str
    terrain: Slug | None = None
    features: tuple[Slug, ...] = ()
    names: tuple[str, ...] = ()
    source: SourceText | None = None


class HexsideRecord(PackModel):
    """A hexside with features: ``("ridge",)``, ``("ridge", "gap")``, ``("clear", "track")``, ``("impassable",)``."""

    a: str
    b: str
    features: tuple[Slug, ...] = Field(min_length=1)
    source: SourceText | None = None


class HexMapData(PackModel):
    """A hex map as a data pack holds it (a game's pack embeds it).

    Attributes:
        orientation, stagger: the :class:`Layout`.
        col_digits, row_digits: how printed ids are written (2 and 2: ``"0412"``).
        cols, rows: the first and last printed column and row, inclusive.
        missing: hexes inside that rectangle that are not on the map (sea, partial hexes that do not count).
        terrain: the terrain of any hex its record does not name.
        hexes, hexsides: the records with something to say; every other hexside is featureless.
        source: where the map as a whole came from (a record's own ``source`` overrides it).
    """

    orientation: Orientation
    stagger: Stagger
    col_digits: int = Field(default=2, ge=1, le=4)
    row_digits: int = Field(default=2, ge=1, le=4)
    cols: tuple[int, int]
    rows: tuple[int, int]
    missing: tuple[str, ...] = ()
    terrain: Slug = "clear"
    hexes: tuple[HexRecord, ...] = ()
    hexsides: tuple[HexsideRecord, ...] = ()
    source: SourceText

    @model_validator(mode="after")
    def _consistent(self) -> HexMapData:
        for what, (first, last) in (("cols", self.cols), ("rows", self.rows)):
            if first < 0 or last < first:
                raise ValueError(f"{what} ({first}, {last}) is not a range of printed numbers")
        if len(str(self.cols[1])) > self.col_digits or len(str(self.rows[1])) > self.row_digits:
            raise ValueError("the last column or row has more digits than col_digits / row_digits allow")
        return self


@dataclass(frozen=True, slots=True)
class Hexside:
    """A hexside of a map: its id, the two hexes (``a`` < ``b``) and its features."""

    id: HexsideId
    a: HexId
    b: HexId
    features: frozenset[str]

    def has(self, *features: str) -> bool:
        """Whether the hexside has any of ``features``."""
        return not self.features.isdisjoint(features)


MoveCost = Callable[[HexId, HexId, Hexside], StepCost]
"""A movement rule: what stepping from one hex to a neighbour across a hexside costs (see :class:`Cost`)."""


@dataclass(frozen=True, slots=True)
class Walk:
    """A given path checked step by step: ``ok``, the points ``spent``, and for a refusal the ``step`` at fault
    (1 = the first step) with the ``rule`` and ``reason`` (``not-adjacent``, ``over-budget``, ``after-stop``,
    ``not-first-step``, or the cost function's :class:`Blocked` reason)."""

    ok: bool
    spent: int
    step: int | None = None
    rule: str | None = None
    reason: str = ""


class HexMap:
    """One hex map: ids, adjacency (computed once, here), terrain, hexsides; movement and zones of control.

    Raises:
        ValueError: a record names a hex that is not on the map, a hexside joins hexes that do not touch, or a hex
            or hexside is listed twice (:meth:`from_pack` turns this into R006).
    """

    def __init__(self, data: HexMapData):
        self.data = data
        self.layout = Layout(data.orientation, data.stagger)
        missing = set(data.missing)
        ids = [
            self.hex_id(col, row)
            for col in range(data.cols[0], data.cols[1] + 1)
            for row in range(data.rows[0], data.rows[1] + 1)
        ]
        unknown = missing - set(ids)
        if unknown:
            raise ValueError(f"missing names hexes outside the map: {sorted(unknown)}")
        self.hexes: tuple[HexId, ...] = tuple(HexId(h) for h in ids if h not in missing)
        on_map = set(self.hexes)
        self._coords: dict[HexId, Hex] = {h: self.layout.to_hex(*self.offset(h)) for h in self.hexes}
        self._by_coords: dict[tuple[int, int], HexId] = {c: h for h, c in self._coords.items()}
        self._terrain: dict[HexId, str] = {}
        self.records: dict[HexId, HexRecord] = {}
        for record in data.hexes:
            if record.id not in on_map:
                raise ValueError(f"hex record {record.id!r} is not a hex of the map")
            if record.id in self.records:
                raise ValueError(f"hex {record.id!r} is listed twice")
            self.records[HexId(record.id)] = record
            if record.terrain is not None:
                self._terrain[HexId(record.id)] = record.terrain
        features: dict[HexsideId, frozenset[str]] = {}
        for record_side in data.hexsides:
            for end in (record_side.a, record_side.b):
                if end not in on_map:
                    raise ValueError(f"hexside {record_side.a}/{record_side.b} names {end!r}, not a hex of the map")
            if self.direction(HexId(record_side.a), HexId(record_side.b)) is None:
                raise ValueError(f"hexside {record_side.a}/{record_side.b} joins hexes that do not touch")
            key = hexside_id(record_side.a, record_side.b)
            if key in features:
                raise ValueError(f"hexside {key} is listed twice")
            features[key] = frozenset(record_side.features)
        # Adjacency, built once: for each hex its on-map neighbours by direction, with the hexside between.
        # Plain (q, r) tuples look up Hex keys (a NamedTuple hashes and compares as its tuple), and each hexside
        # is made once, from the side of its smaller id, so building a 1,500-hex map stays cheap.
        by_pair: dict[tuple[HexId, HexId], Hexside] = {}
        adjacency: dict[HexId, tuple[tuple[HexId, Hexside], ...]] = {}
        steps = _AXIAL_STEPS[self.layout.orientation]
        by_coords = self._by_coords
        empty: frozenset[str] = frozenset()
        for here in self.hexes:
            q, r = self._coords[here]
            around = []
            for dq, dr in steps:
                there = by_coords.get((q + dq, r + dr))
                if there is None:
                    continue
                pair = (here, there) if here < there else (there, here)
                side = by_pair.get(pair)
                if side is None:
                    key = HexsideId(f"{pair[0]}/{pair[1]}")
                    side = by_pair[pair] = Hexside(key, pair[0], pair[1], features.get(key, empty))
                around.append((there, side))
            adjacency[here] = tuple(around)
        self._adjacency = adjacency
        self.hexsides: Mapping[HexsideId, Hexside] = {side.id: side for side in by_pair.values()}

    @classmethod
    def from_pack(cls, data: HexMapData, *, game: str) -> HexMap:
        """The map of a loaded pack, for a game's loader or cross-check.

        Raises:
            DataPackError: R006 naming the record that does not fit the map.
        """
        try:
            return cls(data)
        except ValueError as exc:
            fail(game, f"hex map: {exc}")

    # --- ids and coordinates ---------------------------------------------------------------------------------
    def hex_id(self, col: int, row: int) -> HexId:
        """The printed id of ``(col, row)`` (it need not be on the map)."""
        return HexId(f"{col:0{self.data.col_digits}d}{row:0{self.data.row_digits}d}")

    def offset(self, hex_id: str) -> tuple[int, int]:
        """The printed ``(col, row)`` of an id; ValueError if it is not written the map's way."""
        width = self.data.col_digits + self.data.row_digits
        if len(hex_id) != width or not _ID.match(hex_id):
            raise ValueError(f"{hex_id!r} is not a hex id of {width} digits")
        return int(hex_id[: self.data.col_digits]), int(hex_id[self.data.col_digits :])

    def __contains__(self, hex_id: object) -> bool:
        return hex_id in self._coords

    def __len__(self) -> int:
        return len(self.hexes)

    def coords(self, hex_id: HexId) -> Hex:
        """Axial coordinates of a hex of the map (KeyError if it is not on the map)."""
        return self._coords[hex_id]

    def at(self, h: Hex) -> HexId | None:
        """The hex of the map at axial ``h``, or None if off the map."""
        return self._by_coords.get(h)

    # --- topology ----------------------------------------------------------------------------------------------
    def neighbours(self, hex_id: HexId) -> tuple[HexId, ...]:
        """The hexes of the map sharing a side with ``hex_id``, clockwise from the top (flat) or top-right."""
        return tuple(there for there, _ in self._adjacency[hex_id])

    def sides(self, hex_id: HexId) -> tuple[tuple[HexId, Hexside], ...]:
        """Each neighbour of ``hex_id`` with the hexside between them."""
        return self._adjacency[hex_id]

    def hexside(self, a: HexId, b: HexId) -> Hexside | None:
        """The hexside between ``a`` and ``b``, or None if they are not neighbours on the map."""
        return self.hexsides.get(hexside_id(a, b))

    def direction(self, a: HexId, b: HexId) -> int | None:
        """The direction (0..5) from ``a`` to its neighbour ``b`` (see :data:`DIRECTION_NAMES`), else None."""
        return self.layout.direction(self.coords(a), self.coords(b))

    def distance(self, a: HexId, b: HexId) -> int:
        """Hex steps from ``a`` to ``b`` on the lattice (ignoring terrain and the map's missing hexes)."""
        return distance(self.coords(a), self.coords(b))

    def line(self, a: HexId, b: HexId, *, side: Literal[1, -1] = 1) -> tuple[HexId | None, ...]:
        """The hexes of :func:`line` from ``a`` to ``b`` (None where the line leaves the map)."""
        return tuple(self.at(h) for h in line(self.coords(a), self.coords(b), side=side))

    def ring(self, center: HexId, radius: int) -> tuple[HexId, ...]:
        """The hexes of the map exactly ``radius`` steps from ``center``."""
        return tuple(h for h in (self.at(c) for c in ring(self.coords(center), radius)) if h is not None)

    def within(self, center: HexId, radius: int) -> tuple[HexId, ...]:
        """The hexes of the map at most ``radius`` steps from ``center``, nearest first."""
        return tuple(h for h in (self.at(c) for c in spiral(self.coords(center), radius)) if h is not None)

    # --- terrain -----------------------------------------------------------------------------------------------
    def terrain(self, hex_id: HexId) -> str:
        """The terrain of a hex (the map's default where its record gives none)."""
        return self._terrain.get(hex_id, self.data.terrain)

    def features(self, hex_id: HexId) -> frozenset[str]:
        """The features of a hex (``town``, ``minefield``…)."""
        record = self.records.get(hex_id)
        return frozenset(record.features) if record is not None else frozenset()

    # --- movement ----------------------------------------------------------------------------------------------
    def reach(self, start: HexId, budget: int, cost: MoveCost, *, minimum_move: bool = False) -> Reach[HexId]:
        """Every hex a mover on ``start`` with ``budget`` movement points can end its move in.

        Args:
            start: where the mover stands.
            budget: its movement points.
            cost: the movement rule (see :class:`Cost`: it may stop the move, take all remaining points, or
                allow a step only first).
            minimum_move: a first step may cost more than the budget, and then ends the move.

        Returns:
            The reachable hexes with the least points spent on each, and a cheapest path to each.
        """
        adjacency = self._adjacency

        def steps(here: HexId) -> Iterator[tuple[HexId, StepCost]]:
            for there, side in adjacency[here]:
                yield there, cost(here, there, side)

        return movement(start, budget, steps, minimum_move=minimum_move)

    def walk(self, path: Sequence[HexId], budget: int, cost: MoveCost, *, minimum_move: bool = False) -> Walk:
        """Check one given path (a logged move ``[h0, …, hn]``) without searching the map.

        A path may end, but not go on, after a stopping step. Like :meth:`reach`, but for one path: the rules
        engine checks a move this way instead of enumerating every destination.
        """
        spent = 0
        for index, (here, there) in enumerate(itertools.pairwise(path), start=1):
            over = False
            side = self.hexside(here, there) if here in self and there in self else None
            if side is None:
                return Walk(False, spent, index, None, "not-adjacent")
            step = cost(here, there, side)
            if isinstance(step, Blocked):
                return Walk(False, spent, index, step.rule, step.reason)
            if step is None:
                return Walk(False, spent, index, None, "impassable")
            if step.first and index != 1:
                return Walk(False, spent, index, None, "not-first-step")
            left = budget - spent
            if step.rest:
                if left < max(step.mp, 1):
                    return Walk(False, spent, index, None, "over-budget")
                spent = budget
            elif step.mp <= left:
                spent += step.mp
            elif minimum_move and index == 1 and left > 0:
                spent, over = budget, True
            else:
                return Walk(False, spent, index, None, "over-budget")
            if (step.stop or step.rest or over) and index < len(path) - 1:
                return Walk(False, spent, index + 1, None, "after-stop")
        return Walk(True, spent)

    def crossings(self, path: Sequence[HexId]) -> tuple[HexsideId, ...]:
        """The hexsides a path crosses, in order (for hexside limits: Rommel §7.1 lets 2 units cross a clear
        hexside, 1 a gap, per Movement phase; a state counts crossings by these ids).

        Raises:
            ValueError: two consecutive hexes of the path are not neighbours on the map.
        """
        found = []
        for here, there in itertools.pairwise(path):
            side = self.hexside(here, there) if here in self and there in self else None
            if side is None:
                raise ValueError(f"{here} and {there} are not neighbours on the map")
            found.append(side.id)
        return tuple(found)

    # --- zones of control --------------------------------------------------------------------------------------
    def zoc(
        self,
        units: Iterable[HexId],
        *,
        blocked: Callable[[Hexside], bool] = lambda _: False,
        own_hex: bool = True,
    ) -> frozenset[HexId]:
        """The hexes in the zone of control of units standing on ``units``.

        Args:
            units: the hexes of the units that project a zone of control (the caller leaves out those that do
                not: disrupted units, HQs…).
            blocked: hexsides no zone of control crosses (Gazala §3.1.2: ridges and wadis).
            own_hex: whether a unit's own hex is in its zone (Gazala §5.4: yes).
        """
        zone: set[HexId] = set()
        for here in units:
            if own_hex:
                zone.add(here)
            for there, side in self._adjacency[here]:
                if not blocked(side):
                    zone.add(there)
        return frozenset(zone)


def with_zoc(
    cost: MoveCost,
    enemy_zoc: frozenset[HexId],
    *,
    enter_extra: int = 0,
    leave_extra: int = 0,
    stop_on_enter: bool = True,
    zoc_to_zoc: Blocked | None = None,
) -> MoveCost:
    """A movement rule with zone-of-control rules on top of ``cost``.

    Args:
        cost: the terrain rule.
        enemy_zoc: the hexes in an enemy zone of control (:meth:`HexMap.zoc`).
        enter_extra: extra points to enter a hex in the zone.
        leave_extra: extra points to leave a hex in the zone.
        stop_on_enter: whether entering the zone ends the move.
        zoc_to_zoc: if set, a step from one zone hex straight into another is refused with this rule and reason.
    """

    def rule(here: HexId, there: HexId, side: Hexside) -> StepCost:
        base = cost(here, there, side)
        if not isinstance(base, Cost):
            return base
        leaving, entering = here in enemy_zoc, there in enemy_zoc
        if leaving and entering and zoc_to_zoc is not None:
            return zoc_to_zoc
        extra = (enter_extra if entering else 0) + (leave_extra if leaving else 0)
        if not extra and not (entering and stop_on_enter):
            return base
        return Cost(base.mp + extra, stop=base.stop or (entering and stop_on_enter), rest=base.rest, first=base.first)

    return rule
