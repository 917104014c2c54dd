"""Fixtures of the Axis & Allies: North Africa tests: the bundled pack, loaded and as raw JSON."""

from __future__ import annotations

import json

import pytest

from pbem.games.axisallies.data import AxisAlliesPack, default_pack_bytes, load_pack
from tests.games.axisallies.pack_helpers import Raw


@pytest.fixture(scope="module")
def pack() -> AxisAlliesPack:
    return load_pack(default_pack_bytes())


@pytest.fixture
def raw() -> Raw:
    """A fresh, mutable copy of the bundled pack as plain JSON values."""
    value: Raw = json.loads(default_pack_bytes())
    return value
