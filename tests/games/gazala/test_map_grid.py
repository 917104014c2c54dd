"""The renderer's HexGrid draws the Gazala map: rows printed from 00, columns from 01 (``HexGrid.first_row``)."""

from __future__ import annotations

from typing import Literal

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games.gazala import default_pack_bytes, load_pack
from pbem.kit.hexes import HexId, HexMap
from pbem.rules.maps import HexGrid, hex_regions


def gazala_grid() -> tuple[HexGrid, HexMap]:
    pack = load_pack(default_pack_bytes())
    cols, rows = pack.map.cols, pack.map.rows
    grid = HexGrid(
        columns=cols[1] - cols[0] + 1,
        rows=rows[1] - rows[0] + 1,
        orientation="flat",
        stagger="even",  # counted from column 01: the kit's odd printed columns sit half a hex lower
        first=cols[0],
        first_row=rows[0],
    )
    return grid, HexMap(pack.map)


def test_the_grid_has_the_packs_ids_and_neighbours() -> None:
    grid, board = gazala_grid()
    assert grid.layout.stagger == board.layout.stagger == "odd"
    ids = {r.id for r in hex_regions(grid, {})}
    assert "2100" in ids and "0100" in ids and "5229" in ids and "0000" not in ids
    assert set(board.hexes) <= ids and len(ids) == len(board) + len(board.data.missing)
    for hex_id in board.hexes:
        col, row = board.offset(hex_id)
        drawn = {grid.hex_id(c, r) for c, r in grid.neighbors(col, row)}
        assert {h for h in drawn if h in board} == set(board.neighbours(HexId(hex_id))), hex_id


def test_first_row_defaults_to_first() -> None:
    assert HexGrid(columns=3, rows=3, first=1).row0 == 1
    assert HexGrid(columns=3, rows=3, first=1, first_row=0).contains(1, 0)
    assert not HexGrid(columns=3, rows=3, first=1).contains(1, 0)


@settings(max_examples=40, deadline=None)
@given(
    columns=st.integers(1, 6),
    rows=st.integers(1, 6),
    orientation=st.sampled_from(["flat", "pointy"]),
    stagger=st.sampled_from(["odd", "even"]),
    first=st.integers(0, 1),
    first_row=st.integers(0, 1),
)
def test_neighbours_share_a_side_when_rows_and_columns_start_apart(
    columns: int,
    rows: int,
    orientation: Literal["flat", "pointy"],
    stagger: Literal["odd", "even"],
    first: int,
    first_row: int,
) -> None:
    grid = HexGrid(
        columns=columns,
        rows=rows,
        orientation=orientation,
        stagger=stagger,
        first=first,
        first_row=first_row,
    )
    corners = {}
    for col in range(first, first + columns):
        for row in range(first_row, first_row + rows):
            corners[(col, row)] = {(round(x, 3), round(y, 3)) for x, y in grid.corners(col, row)}
    for here, mine in corners.items():
        sharing = {there for there, theirs in corners.items() if there != here and len(mine & theirs) == 2}
        assert set(grid.neighbors(*here)) == sharing
