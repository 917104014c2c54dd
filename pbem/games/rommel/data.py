"""The *Rommel in the Desert* data pack: its schema, strict loading and cross-checks.

The pack holds everything a rules module must not hard-code (style guide §2.2): the hex map from El Agheila
to Alexandria (grid, land hexes, hexside terrain, roads, places, port capacities, regions, the areas and lines
scenarios name, map-end exits and off-board boxes), the unit types, every block, every scenario of §18 and the
§19 demo, the supply-card deck, the Fire Table and the rulebook's numbers. Every record says where its values
came from: ``"rulebook §13.3 …"``, ``"reconstructed: <reason>"`` or, in a user's transcription of the printed
components, ``"transcribed: map"``.

Loading is fail-closed: :func:`load_pack` parses strictly, validates against :class:`RommelPack`, then runs the
cross-checks pydantic cannot express (geometry, references, roads over passable hexsides, connectivity, the
counts the rulebook states). Any defect raises :class:`~pbem.errors.DataPackError` (R006) naming the record.

The records live in :mod:`pbem.games.rommel.schema`, the hex arithmetic in :mod:`pbem.games.rommel.grid` and
the cross-checks in :mod:`pbem.games.rommel.checks`; this module loads packs and is what the ruleset (later) and
``pbem data check rommel`` use.

Example:
    >>> pack = load_pack(default_pack_bytes())
    >>> pack.place("tobruk").port.allied
    5
"""

from __future__ import annotations

from pbem.games.rommel.checks import REQUIRED_LIMITS, cross_check
from pbem.games.rommel.grid import DIRECTIONS, Grid
from pbem.games.rommel.schema import (
    ARMS_CLASSES,
    GAME_ID,
    Block,
    Hexside,
    MapHex,
    Place,
    Road,
    RommelPack,
    Scenario,
)
from pbem.kit import datapack

__all__ = [
    "ARMS_CLASSES",
    "DIRECTIONS",
    "GAME_ID",
    "REQUIRED_LIMITS",
    "Block",
    "Grid",
    "Hexside",
    "MapHex",
    "Place",
    "Road",
    "RommelPack",
    "Scenario",
    "default_pack_bytes",
    "load_pack",
    "pack_schema",
]


FORMAT = datapack.PackFormat(game=GAME_ID, model=RommelPack, package="pbem.games.rommel", cross_checks=(cross_check,))
"""The Rommel in the Desert pack format (registered under ``pbem.packs``)."""
load_pack = FORMAT.load
default_pack_bytes = FORMAT.bundled
pack_schema = FORMAT.schema
