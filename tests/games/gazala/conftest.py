"""Shared fixtures for the Gazala tests."""

from __future__ import annotations

import pytest

from pbem.games.gazala import default_pack_bytes, load_pack
from pbem.games.gazala.data import GazalaPack


@pytest.fixture(scope="session")
def gazala() -> GazalaPack:
    return load_pack(default_pack_bytes())
