"""The printed hex grid of the Rommel map: coordinates, neighbours, distances and the renderer's grid.

Printed ids are ``CCRR`` (column, row). With ``pointy`` tops rows are staggered and a hex has neighbours ``e``,
``w``, ``ne``, ``nw``, ``se``, ``sw`` (§1.1 names hexes "Msus E1" and "El Alamein SW1"); the ``stagger`` rows
(``odd`` or ``even`` printed numbers) are pushed half a hex east. This is the kit's hex lattice; the arithmetic
here is the little the pack's cross-checks need.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pbem.kit.datapack import PackModel, SourceText
from pbem.rules.maps import HexGrid

__all__ = ["DIRECTIONS", "Grid", "GridSources"]

DIRECTIONS: dict[str, dict[str, tuple[int, int]]] = {
    "pointy": {"ne": (1, -1), "e": (1, 0), "se": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (0, -1)},
    "flat": {"n": (0, -1), "ne": (1, -1), "se": (1, 0), "s": (0, 1), "sw": (-1, 1), "nw": (-1, 0)},
}
"""Axial steps by compass name for each orientation (the same lattice as :mod:`pbem.kit`'s hex maps)."""


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

    def _shifted(self, index: int) -> bool:
        return index % 2 == (1 if self.stagger == "odd" else 0)

    def axial(self, hex_id: str) -> tuple[int, int]:
        """Axial (q, r) of a printed id."""
        col, row = self.parse(hex_id)
        if self.orientation == "pointy":
            lift = (row - (row & 1)) // 2 if self.stagger == "odd" else (row + (row & 1)) // 2
            return col - lift, row
        lift = (col - (col & 1)) // 2 if self.stagger == "odd" else (col + (col & 1)) // 2
        return col, row - lift

    def offset(self, q: int, r: int) -> str:
        """The printed id of axial (q, r) (not checked against the map)."""
        if self.orientation == "pointy":
            lift = (r - (r & 1)) // 2 if self.stagger == "odd" else (r + (r & 1)) // 2
            return self.format(q + lift, r)
        lift = (q - (q & 1)) // 2 if self.stagger == "odd" else (q + (q & 1)) // 2
        return self.format(q, r + lift)

    def step(self, hex_id: str, direction: str) -> str:
        """The id one hex ``direction`` (``"e"``, ``"sw"``…) of ``hex_id`` (not checked against the map)."""
        q, r = self.axial(hex_id)
        dq, dr = DIRECTIONS[self.orientation][direction]
        return self.offset(q + dq, r + dr)

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        """The six ids around ``hex_id``, clockwise from the first direction (not checked against the map)."""
        return tuple(self.step(hex_id, d) for d in DIRECTIONS[self.orientation])

    def distance(self, a: str, b: str) -> int:
        """The number of hex steps between ``a`` and ``b``, ignoring terrain."""
        (q1, r1), (q2, r2) = self.axial(a), self.axial(b)
        dq, dr = q1 - q2, r1 - r2
        return max(abs(dq), abs(dr), abs(dq + dr))

    def hex_grid(self) -> HexGrid:
        """The report renderer's grid for this map (its stagger counts from ``first``, this one by printed number)."""
        first = self.cols[0]
        flip = first % 2 == 1
        stagger: Literal["odd", "even"] = ("even" if self.stagger == "odd" else "odd") if flip else self.stagger
        return HexGrid(
            columns=self.cols[1] - first + 1,
            rows=self.rows[1] - first + 1,
            size=float(self.hex_size),
            orientation=self.orientation,
            stagger=stagger,
            first=first,
            id_format=f"{{col:0{self.col_digits}d}}{{row:0{self.row_digits}d}}",
            origin=(float(self.margin), float(self.margin)),
        )
