"""*Operation Theseus: Gazala 1942* (VUCA Simulations, 2021) as a pbem game module.

* :mod:`.data`: the data pack (the hex map, every counter, every table, the three scenarios; docs/gazala-data.md).

The rules module comes later; the pack is exported now for ``pbem data check gazala``.
"""

from pbem.games.gazala.data import default_pack_bytes, load_pack, pack_schema

__all__ = ["default_pack_bytes", "load_pack", "pack_schema"]
