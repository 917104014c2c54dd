"""Helpers shared by the Axis & Allies: North Africa data pack tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from pbem.errors import DataPackError
from pbem.games.axisallies.data import AxisAlliesPack, UnitType, load_pack

Raw = dict[str, Any]
Mutation = Callable[[Raw], None]


def pretty(value: Raw) -> bytes:
    return json.dumps(value, indent=1, ensure_ascii=False).encode()


def rejected(data: bytes) -> DataPackError:
    with pytest.raises(DataPackError) as info:
        load_pack(data)
    assert info.value.code.id == "R006"
    return info.value


def record(raw: Raw, section: str, ident: str) -> Raw:
    found: Raw = next(r for r in raw[section] if r["id"] == ident)
    return found


def units_of(pack: AxisAlliesPack, power: str) -> dict[str, UnitType]:
    return {u.type: u for u in pack.units if u.power == power}


def placed(pack: AxisAlliesPack, scenario: str, space: str, power: str) -> tuple[dict[str, int], int]:
    """Units and supply of ``power`` in ``space`` at setup, summed over the setup lines."""
    units: dict[str, int] = {}
    supply = 0
    for row in pack.scenario(scenario).setup.placements:
        if (row.space, row.power) == (space, power):
            supply += row.supply
            for unit, count in row.units.items():
                units[unit] = units.get(unit, 0) + count
    return units, supply
