"""Shared fixtures for the Rommel tests: the bundled pack, loaded once, and positions built from block lists."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pbem.games.rommel.data import RommelPack, default_pack_bytes, load_pack


@pytest.fixture(scope="session")
def rommel() -> RommelPack:
    return load_pack(default_pack_bytes())


def blocks(pack: RommelPack, side: str, unit_type: str) -> Iterator[str]:
    """The ids of ``side``'s blocks of ``unit_type``, in pack order."""
    return (b.id for b in pack.blocks if b.side == side and b.unit_type == unit_type)


def at(pack: RommelPack, place: str) -> str:
    """The hex of a named place."""
    return pack.place(place).hex
