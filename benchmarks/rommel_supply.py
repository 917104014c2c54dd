"""Microseconds for Rommel in the Desert's supply and movement rules on the full bundled map (239 land hexes):

* ``load_pack``: loading and cross-checking the bundled pack; ``build_map``: building its kit hex map (once per pack);
* ``network_empty``: both sides' supply networks on an empty map (the highway only);
* ``network_92_units``: one side's network with all 92 blocks on the map (Axis in the west half, Allied in the east,
  every third unit Disrupted), the worst case of a Supply Check;
* ``withdrawal_mechili``: checking the §5.3 example's Withdrawal (two network computations and the line check);
* ``move_highway_8``: checking one 8-hex Recon move along the highway (§6.2).

Prints one JSON object: medians in microseconds, and the size of each network. Run:
``.venv/bin/python benchmarks/rommel_supply.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _harness import median_us

from pbem.games.rommel.board import Position, Unit, check_unit_move
from pbem.games.rommel.data import RommelPack, default_pack_bytes, load_pack
from pbem.games.rommel.supply import check_withdrawal, supply_lines
from pbem.kit.hexes import HexMap


def crowded(pack: RommelPack) -> Position:
    """Every block on the map: Axis spread over the western land hexes, Allied over the eastern, no battles."""
    land = sorted(pack.land())
    west = [h for h in land if int(h[:2]) <= 13]
    east = [h for h in land if int(h[:2]) > 13]
    units = []
    for n, block in enumerate(b for b in pack.blocks if b.side == "axis"):
        units.append(Unit(block.id, west[(n * 7) % len(west)], disrupted=n % 3 == 2))
    for n, block in enumerate(b for b in pack.blocks if b.side == "allied"):
        units.append(Unit(block.id, east[(n * 5) % len(east)], disrupted=n % 3 == 2))
    return Position(tuple(units))


def main() -> None:
    raw = default_pack_bytes()
    pack = load_pack(raw)
    data = pack.hex_map.data
    empty, full = Position(()), crowded(pack)
    recon = next(b.id for b in pack.blocks if b.side == "axis" and b.unit_type == "recon")
    msus, charruba = [b.id for b in pack.blocks if b.side == "axis" and b.unit_type == "infantry"][:2]
    mechili = Position((Unit(recon, "0703"), Unit(msus, "0505"), Unit(charruba, "0604")))
    highway = ["0108", "0107", "0207", "0206", "0205", "0204", "0303", "0403", "0402"]
    on_highway = Position((Unit(recon, "0108"),))
    assert check_withdrawal(pack, mechili, "axis", {recon: ["0703", "0604", "0504"]}).ok
    assert check_unit_move(pack, on_highway, recon, highway).ok
    result = {
        "land_hexes": len(pack.land()),
        "load_pack": median_us(lambda: load_pack(raw), 5),
        "build_map": median_us(lambda: HexMap(data), 20),
        "network_empty": median_us(
            lambda: (supply_lines(pack, empty, "axis"), supply_lines(pack, empty, "allied")), 20
        ),
        "network_92_units": median_us(lambda: supply_lines(pack, full, "axis"), 20),
        "withdrawal_mechili": median_us(lambda: check_withdrawal(pack, mechili, "axis", {recon: ["0703", "0604"]}), 20),
        "move_highway_8": median_us(lambda: check_unit_move(pack, on_highway, recon, highway), 50),
        "network_hexes": {
            "empty_axis": len(supply_lines(pack, empty, "axis").hexes),
            "92_units_axis": len(supply_lines(pack, full, "axis").hexes),
            "92_units_allied": len(supply_lines(pack, full, "allied").hexes),
        },
        "supplied_of_92": len(supply_lines(pack, full, "axis").supplied | supply_lines(pack, full, "allied").supplied),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
