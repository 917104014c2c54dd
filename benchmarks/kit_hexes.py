"""Microseconds for the hex kit's work on a 40x40 map (1,600 hexes, the size of Gazala's ~1,500):

* ``build_map``: building a :class:`~pbem.kit.hexes.HexMap` (ids, coordinates, adjacency, hexsides), once per pack;
* ``reach_budget_4`` / ``reach_budget_12``: every hex a unit with 4 / 12 MP reaches, with terrain and hexside costs
  and an enemy zone of control that stops movement (a motorised unit, a long road move);
* ``reach_whole_map``: the same search with an unlimited budget (every hex settled: the worst case);
* ``walk_12``: checking one logged 12-step path (how the engine checks a move without searching);
* ``zoc_20_units``: the zone of control of 20 enemy units.

Prints one JSON line of medians (microseconds) and the number of hexes each search settled. Run:
``.venv/bin/python benchmarks/kit_hexes.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _harness import median_us

from pbem.kit.graph import Cost, StepCost
from pbem.kit.hexes import HexId, HexMap, HexMapData, HexRecord, Hexside, HexsideRecord, with_zoc

SIZE = 40


def data() -> HexMapData:
    """A 40x40 map with a hill every 7th hex, a ridge along column 20 with a gap every 5 rows, a road on row 20."""
    hexes = [
        HexRecord(id=f"{c:02d}{r:02d}", terrain="hill")
        for c in range(1, SIZE + 1)
        for r in range(1, SIZE + 1)
        if (c * r) % 7 == 0
    ]
    probe = HexMap(
        HexMapData(orientation="flat", stagger="odd", cols=(1, SIZE), rows=(1, SIZE), source="reconstructed: benchmark")
    )
    sides = []
    for side in probe.hexsides.values():
        cols = {int(side.a[:2]), int(side.b[:2])}
        rows = {int(side.a[2:]), int(side.b[2:])}
        if cols == {20, 21}:
            sides.append(
                HexsideRecord(a=side.a, b=side.b, features=("ridge", "gap") if min(rows) % 5 == 0 else ("ridge",))
            )
        elif rows == {20}:
            sides.append(HexsideRecord(a=side.a, b=side.b, features=("road",)))
    return HexMapData(
        orientation="flat",
        stagger="odd",
        cols=(1, SIZE),
        rows=(1, SIZE),
        hexes=tuple(hexes),
        hexsides=tuple(sides),
        source="reconstructed: benchmark",
    )


def main() -> None:
    pack = data()
    grid = HexMap(pack)

    def terrain(here: HexId, there: HexId, side: Hexside) -> StepCost:
        if side.has("ridge") and not side.has("gap"):
            return None
        if side.has("road"):
            return Cost(1)
        return Cost(3 if grid.terrain(there) == "hill" else 2)

    enemies = [grid.hex_id(30, r) for r in range(1, SIZE + 1, 2)]
    rule = with_zoc(terrain, grid.zoc(enemies))
    start = HexId("1020")
    sizes = {
        "reach_budget_4": len(grid.reach(start, 4, rule).spent),
        "reach_budget_12": len(grid.reach(start, 12, rule).spent),
        "reach_whole_map": len(grid.reach(start, 10**6, rule).spent),
    }
    path = grid.reach(start, 12, rule).path(HexId("1620"))
    result = {
        "hexes": len(grid),
        "hexsides": len(grid.hexsides),
        "build_map_us": median_us(lambda: HexMap(pack), 7),
        "reach_budget_4_us": median_us(lambda: grid.reach(start, 4, rule), 51),
        "reach_budget_12_us": median_us(lambda: grid.reach(start, 12, rule), 21),
        "reach_whole_map_us": median_us(lambda: grid.reach(start, 10**6, rule), 7),
        "walk_12_us": median_us(lambda: grid.walk(path, 12, rule), 101),
        "zoc_20_units_us": median_us(lambda: grid.zoc(enemies), 101),
        "settled": sizes,
    }
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
