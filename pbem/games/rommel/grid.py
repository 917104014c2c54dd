"""The printed hex grid of the Rommel map, and the kit hex map built from the pack.

Printed ids are ``CCRR`` (column, row). With ``pointy`` tops rows are staggered and a hex has neighbours ``e``,
``w``, ``ne``, ``nw``, ``se``, ``sw`` (§1.1 names hexes "Msus E1" and "El Alamein SW1"); the ``stagger`` rows
(``odd`` or ``even`` printed numbers) are pushed half a hex east. All arithmetic is :mod:`pbem.kit.hexes`'s
(:class:`~pbem.kit.hexes.Layout`, :func:`~pbem.kit.hexes.distance`); :class:`Grid` only names it for ids that
need not be on the map (the cross-checks), and :func:`kit_map_data` turns the pack's map into the kit's
:class:`~pbem.kit.hexes.HexMapData`, whose :class:`~pbem.kit.hexes.HexMap` every rule uses (``RommelPack.hex_map``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from pydantic import Field

from pbem.kit import hexes
from pbem.kit.datapack import PackModel, SourceText
from pbem.rules.maps import HexGrid

__all__ = ["DIRECTIONS", "Grid", "GridSources", "kit_map_data"]

DIRECTIONS: dict[str, dict[str, tuple[int, int]]] = {
    orientation: {name: hexes.Layout(orientation).step(i) for i, name in enumerate(names)}
    for orientation, names in hexes.DIRECTION_NAMES.items()
}
"""Axial steps by compass name for each orientation: the kit's lattice (:data:`pbem.kit.hexes.DIRECTION_NAMES`)."""


class GridSources(PackModel):
    """Where each field group of a :class:`Grid` came from."""

    orientation: SourceText
    stagger: SourceText
    extent: SourceText
    drawing: SourceText


class Grid(PackModel):
    """The printed hex grid: enough to derive any coordinate scheme and to draw it."""

    orientation: Literal["pointy", "flat"] = Field(description="pointy: rows staggered, neighbours E/W")
    stagger: Literal["odd", "even"] = Field(description="which printed rows (pointy) or columns are shifted")
    col_digits: int = Field(ge=1, le=4, description="digits of the column part of an id")
    row_digits: int = Field(ge=1, le=4, description="digits of the row part of an id")
    cols: tuple[int, int] = Field(description="first and last printed column, inclusive")
    rows: tuple[int, int] = Field(description="first and last printed row, inclusive")
    hex_size: int = Field(ge=4, description="drawing: centre-to-corner distance in px")
    margin: int = Field(ge=0, description="drawing: blank border in px")
    sources: GridSources

    def parse(self, hex_id: str) -> tuple[int, int]:
        """(col, row) of a printed id."""
        return int(hex_id[: self.col_digits]), int(hex_id[self.col_digits :])

    def format(self, col: int, row: int) -> str:
        """The printed id of ``(col, row)``."""
        return f"{col:0{self.col_digits}d}{row:0{self.row_digits}d}"

    @property
    def layout(self) -> hexes.Layout:
        """The kit's layout of this grid."""
        return hexes.Layout(self.orientation, self.stagger)

    def axial(self, hex_id: str) -> tuple[int, int]:
        """Axial (q, r) of a printed id."""
        here = self.layout.to_hex(*self.parse(hex_id))
        return here.q, here.r

    def offset(self, q: int, r: int) -> str:
        """The printed id of axial (q, r) (not checked against the map)."""
        return self.format(*self.layout.to_offset(hexes.Hex(q, r)))

    def step(self, hex_id: str, direction: str) -> str:
        """The id one hex ``direction`` (``"e"``, ``"sw"``…) of ``hex_id`` (not checked against the map)."""
        here = hexes.Hex(*self.axial(hex_id))
        return self.offset(*here.step(DIRECTIONS[self.orientation][direction]))

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        """The six ids around ``hex_id``, clockwise from the first direction (not checked against the map)."""
        return tuple(self.format(*there) for there in self.layout.neighbours(*self.parse(hex_id)))

    def distance(self, a: str, b: str) -> int:
        """The number of hex steps between ``a`` and ``b``, ignoring terrain."""
        return hexes.distance(hexes.Hex(*self.axial(a)), hexes.Hex(*self.axial(b)))

    def hex_grid(self) -> HexGrid:
        """The report renderer's grid for this map (its stagger counts from ``first``, this one by printed number)."""
        first_col, first_row = self.cols[0], self.rows[0]
        flip = (first_col if self.orientation == "flat" else first_row) % 2 == 1  # the staggered lines' first
        stagger: Literal["odd", "even"] = ("even" if self.stagger == "odd" else "odd") if flip else self.stagger
        return HexGrid(
            columns=self.cols[1] - first_col + 1,
            rows=self.rows[1] - first_row + 1,
            size=float(self.hex_size),
            orientation=self.orientation,
            stagger=stagger,
            first=first_col,
            first_row=None if first_row == first_col else first_row,
            id_format=f"{{col:0{self.col_digits}d}}{{row:0{self.row_digits}d}}",
            origin=(float(self.margin), float(self.margin)),
        )


def kit_map_data(
    grid: Grid,
    land: Iterable[str],
    terrain: Mapping[frozenset[str], str],
    roads: Mapping[frozenset[str], frozenset[str]],
    source: str,
) -> hexes.HexMapData:
    """The kit's map data for the pack's map.

    Every id of the grid's rectangle that is not ``land`` is ``missing`` (sea, §1.4). A hexside's features are its
    terrain (``terrain``, else ``clear``, §1.4) and the kinds of road that cross it (``roads``, §1.5).
    """
    on_land = set(land)
    rectangle = [
        grid.format(col, row)
        for col in range(grid.cols[0], grid.cols[1] + 1)
        for row in range(grid.rows[0], grid.rows[1] + 1)
    ]
    sides = []
    for pair in sorted(set(terrain) | set(roads), key=sorted):
        a, b = sorted(pair)
        features = (terrain.get(pair, "clear"), *sorted(roads.get(pair, ())))
        sides.append(hexes.HexsideRecord(a=a, b=b, features=features))
    return hexes.HexMapData(
        orientation=grid.orientation,
        stagger=grid.stagger,
        col_digits=grid.col_digits,
        row_digits=grid.row_digits,
        cols=grid.cols,
        rows=grid.rows,
        missing=tuple(h for h in rectangle if h not in on_land),
        hexsides=tuple(sides),
        source=source,
    )
