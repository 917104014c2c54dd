"""How *Rommel in the Desert* looks in reports and play: the hex map from the pack (land hexes, rough hexsides,
roads, named places), blocks drawn as blocks (concealed for a viewer who may not see them, face up with their CV
for one who may), and prompt labels that name places and blocks without revealing hidden identities."""

from __future__ import annotations

from pbem.games.rommel import mapspec
from pbem.games.rommel.schema import RommelPack
from pbem.rules.contract import UnitView
from pbem.rules.maps import MapSpec
from pbem.rules.presentation import CounterFace, Presentation

__all__ = ["RommelLook", "hex_label", "token_label"]


def hex_label(pack: RommelPack, hex_id: str) -> str:
    """``1506 (Sidi Omar)``: a hex with the places in it."""
    names = [p.name for p in pack.map.places if p.hex == hex_id]
    return f"{hex_id} ({', '.join(names)})" if names else hex_id


def token_label(side: str, token: str, hex_id: str | None, pack: RommelPack) -> str:
    """A block as everybody may name it: its side, number and hex (never its hidden identity)."""
    where = f" at {hex_label(pack, hex_id)}" if hex_id else ""
    return f"{side.title()} block {token.rsplit('-', 1)[-1]}{where}"


class RommelLook(Presentation):
    """The map, the blocks and the style are :mod:`pbem.games.rommel.mapspec`'s. A view names a block by its public
    token (``unit.id``); its identity, when the viewer may see it, is ``unit.extra["block"]``."""

    def __init__(self, data: RommelPack):
        super().__init__(data)
        self.style = mapspec.map_style(data)

    def map_spec(self) -> MapSpec:
        return mapspec.map_spec(self.data)

    def face(self, unit: UnitView) -> CounterFace:
        return mapspec.face(self.data, unit)
