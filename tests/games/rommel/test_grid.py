"""The Rommel map on the kit's hex library: one hex arithmetic, one map object per loaded pack."""

from __future__ import annotations

import pytest

from pbem.games.rommel.data import RommelPack, default_pack_bytes, load_pack
from pbem.kit.hexes import HexId


@pytest.fixture(scope="module")
def pack() -> RommelPack:
    return load_pack(default_pack_bytes())


def test_kit_map_is_built_once_per_pack(pack: RommelPack) -> None:
    assert pack.hex_map is pack.hex_map
    assert load_pack(default_pack_bytes() + b"\n").hex_map is not pack.hex_map  # the same bytes give the same pack


def test_kit_map_holds_exactly_the_land_hexes(pack: RommelPack) -> None:
    assert set(pack.hex_map.hexes) == pack.land()


@pytest.mark.rule("1.4")
def test_r1_4_kit_map_agrees_with_the_grid_and_hexsides(pack: RommelPack) -> None:
    grid = pack.map.grid
    for a in sorted(pack.land()):
        kit = set(pack.hex_map.neighbours(HexId(a)))
        assert kit == {b for b in grid.neighbours(a) if b in pack.land()}
        for b in kit:
            assert pack.hex_map.distance(HexId(a), HexId(b)) == grid.distance(a, b) == 1
            side = pack.hex_map.hexside(HexId(a), HexId(b))
            assert side is not None
            terrain = str(pack.hexside(a, b))
            assert side.has(terrain) or (terrain == "clear" and not side.features)  # unlisted: clear (§1.4)
            roads = side.features & {"highway", "track", "trail"}
            best = pack.road_links().get(frozenset((a, b)))
            assert (best is None) == (not roads) and (best is None or best in roads)
