"""*Operation Theseus: Gazala 1942* (VUCA Simulations, 2021) as a pbem game module.

* :mod:`.data`: the data pack (the hex map, every counter, every table, the three scenarios; docs/gazala-data.md).
* :mod:`.board`: the map per pack, a position, zones of control and movement (§3.1, §5.4, §7.3).
* :mod:`.paths`: command paths (§5.8) and supply paths (§5.7).
* :mod:`.minefields`: Enemy Minefield Checks (§7.3.6) and breaching (§7.4).
* :mod:`.stacking`: stacking limits (§5.3.1).
* :mod:`.retreat`: Retreat Paths (§7.5.2.2, §7.5.2.3).

The rules module comes later; the pack is exported now for ``pbem data check gazala``.
"""

from pbem.games.gazala.data import default_pack_bytes, load_pack, pack_schema

__all__ = ["default_pack_bytes", "load_pack", "pack_schema"]
