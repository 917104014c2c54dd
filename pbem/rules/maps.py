"""The geometry of a game map, as a game module describes it for the shared renderer (``pbem.report.svg``).

Two kinds of map share one model:

* **Area maps** (Operation Battleaxe): each location is a :class:`Region` with a polygon (or, for a
  point-to-point map, no polygon: it is drawn as a node), joined by :class:`Link` s drawn centre to centre
  (connection lines) and :class:`Edge` s drawn along the border two regions share (escarpments, rivers).
* **Hex maps**: a :class:`HexGrid` (offset coordinates, flat or pointy tops) turns into one region per hex
  with :func:`hex_regions`; hexside features are :class:`Edge` s between neighbouring hexes, roads and
  railways are :class:`Path` s through hex centres.

Coordinates are SVG user units (y grows downwards). Nothing here is signed or hashed, so floats are fine;
the renderer prints them with a fixed precision, which keeps its output byte-for-byte deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from pbem.kit.hexes import Layout

__all__ = ["Edge", "HexGrid", "Label", "Link", "MapSpec", "Path", "Point", "Polyline", "Region", "Shape", "hex_regions"]

Point = tuple[float, float]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Region(_Model):
    """A location units can be in: an area, a zone, a hex, or a node of a point-to-point map.

    Attributes:
        id: the location id the game's views use (``UnitView.location``).
        name: the full name (tooltips, reports).
        label: the short text drawn on the map (e.g. the Area number or hex id).
        terrain: a key into the style's terrain fills.
        center: where counters stack and the label goes.
        polygon: the outline; empty for a node, which is drawn as a circle of ``radius``.
    """

    id: str
    name: str = ""
    label: str = ""
    terrain: str = "clear"
    center: Point
    polygon: tuple[Point, ...] = ()
    radius: float = 18.0


class Link(_Model):
    """A line between two regions' centres (a connection line, a sea lane); ``kind`` keys its stroke."""

    a: str
    b: str
    kind: str


class Edge(_Model):
    """A feature on the border of two regions (an escarpment, a river hexside); ``kind`` keys its stroke."""

    a: str
    b: str
    kind: str


class Path(_Model):
    """A road or railway through the centres of ``through``, in order."""

    kind: str
    through: tuple[str, ...]


class Polyline(_Model):
    """A free line (a frontier wire, a coastline); ``kind`` keys its stroke."""

    kind: str
    points: tuple[Point, ...]


class Shape(_Model):
    """A filled area that is not a location (the sea, a lake), drawn under the regions."""

    terrain: str
    polygon: tuple[Point, ...]


class Label(_Model):
    """Text on the map that is not a region's label (a sea, a map title)."""

    text: str
    at: Point
    size: float = 14.0
    italic: bool = False
    halo: str | None = None
    """A colour outlining the text so it reads over lines and hexes (None: no outline)."""
    bold: bool = False
    color: str | None = None
    """The text's colour (None: the style's label colour)."""


# Direction indices of pbem.kit.hexes (clockwise) in HexGrid.neighbors' order: flat N S NW SW NE SE, pointy W E NW NE
# SW SE.
_LEGACY_ORDER = {"flat": (0, 3, 5, 4, 1, 2), "pointy": (4, 1, 5, 0, 3, 2)}


class HexGrid(_Model):
    """An offset hex grid.

    Attributes:
        columns, rows: the grid's size.
        size: the distance from a hex's centre to a corner.
        orientation: ``flat`` (flat tops; columns are staggered) or ``pointy`` (rows are staggered).
        stagger: which columns (flat) or rows (pointy) are pushed half a hex down (right): ``odd`` or ``even``,
            counted from ``first``.
        first: the number of the first column and row (wargames count from 1).
        first_row: the number of the first row when it is not ``first`` (Gazala prints rows from 00 and columns
            from 01); None: ``first``.
        id_format: the hex id, from ``col`` and ``row`` (``"{col:02d}{row:02d}"`` gives ``0304``).
        origin: the top-left corner of the grid's bounding box.
    """

    columns: int
    rows: int
    size: float = 30.0
    orientation: Literal["flat", "pointy"] = "flat"
    stagger: Literal["odd", "even"] = "odd"
    first: int = 1
    first_row: int | None = None
    id_format: str = "{col:02d}{row:02d}"
    origin: Point = (10.0, 10.0)

    def hex_id(self, col: int, row: int) -> str:
        return self.id_format.format(col=col, row=row)

    @property
    def layout(self) -> Layout:
        """The grid's topology in :mod:`pbem.kit.hexes` terms (its stagger counts from ``first``; the kit's from 0)."""
        from pbem.kit.hexes import Layout  # lazily: the CLI imports this module, and most commands draw no hexes

        base = self.first if self.orientation == "flat" else self.row0  # the staggered lines count from here
        odd = (base + (1 if self.stagger == "odd" else 0)) % 2 == 1
        return Layout(self.orientation, "odd" if odd else "even")

    @property
    def row0(self) -> int:
        """The number of the first row."""
        return self.first if self.first_row is None else self.first_row

    def _shifted(self, index: int) -> bool:
        return self.layout.shifted(index)

    def center(self, col: int, row: int) -> Point:
        """The centre of the hex at (``col``, ``row``)."""
        s, (ox, oy) = self.size, self.origin
        c, r = col - self.first, row - self.row0
        if self.orientation == "flat":
            x = s + 1.5 * s * c
            y = math.sqrt(3) * s * (r + 0.5 + (0.5 if self._shifted(col) else 0.0))
        else:
            x = math.sqrt(3) * s * (c + 0.5 + (0.5 if self._shifted(row) else 0.0))
            y = s + 1.5 * s * r
        return (ox + x, oy + y)

    def corners(self, col: int, row: int) -> tuple[Point, ...]:
        cx, cy = self.center(col, row)
        angles = [math.radians((0 if self.orientation == "flat" else 30) + 60 * i) for i in range(6)]
        return tuple((cx + self.size * math.cos(a), cy + self.size * math.sin(a)) for a in angles)

    def contains(self, col: int, row: int) -> bool:
        return self.first <= col < self.first + self.columns and self.row0 <= row < self.row0 + self.rows

    def neighbors(self, col: int, row: int) -> list[tuple[int, int]]:
        """The hexes that share a side with (``col``, ``row``), inside the grid.

        The topology is :meth:`pbem.kit.hexes.Layout.neighbours`; the order (along the unstaggered axis first, then
        the previous and the next line) is the one games listed their moves in before the kit existed.
        """
        around = self.layout.neighbours(col, row)
        return [around[d] for d in _LEGACY_ORDER[self.orientation] if self.contains(*around[d])]

    def extent(self) -> Point:
        """The width and height the grid needs, origin included."""
        s, (ox, oy) = self.size, self.origin
        if self.orientation == "flat":
            return (ox + s * (1.5 * self.columns + 0.5), oy + math.sqrt(3) * s * (self.rows + 0.5))
        return (ox + math.sqrt(3) * s * (self.columns + 0.5), oy + s * (1.5 * self.rows + 0.5))


def hex_regions(
    grid: HexGrid, terrain: Mapping[str, str], names: Mapping[str, str] | None = None
) -> tuple[Region, ...]:
    """One region per hex of ``grid``, labelled with its id; ``terrain`` maps hex ids to terrain (default clear)."""
    names = names or {}
    regions = []
    for col in range(grid.first, grid.first + grid.columns):
        for row in range(grid.row0, grid.row0 + grid.rows):
            hex_id = grid.hex_id(col, row)
            regions.append(
                Region(
                    id=hex_id,
                    name=names.get(hex_id, hex_id),
                    label=hex_id,
                    terrain=terrain.get(hex_id, "clear"),
                    center=grid.center(col, row),
                    polygon=grid.corners(col, row),
                )
            )
    return tuple(regions)


class MapSpec(_Model):
    """Everything the renderer draws that does not move: the board."""

    width: float
    height: float
    regions: tuple[Region, ...]
    links: tuple[Link, ...] = ()
    edges: tuple[Edge, ...] = ()
    paths: tuple[Path, ...] = ()
    lines: tuple[Polyline, ...] = ()
    shapes: tuple[Shape, ...] = ()
    labels: tuple[Label, ...] = ()
    background: str = "clear"
    """The terrain that fills the canvas behind the regions (e.g. the sea)."""
