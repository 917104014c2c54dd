"""*Operation Theseus: Gazala 1942* (VUCA Simulations, 2021) as a pbem game module.

* :mod:`.data`: the data pack (the hex map, every counter, every table, the three scenarios; docs/gazala-data.md).
* :mod:`.ruleset`: the rules module on contract v2 and the kit's step machine, with :mod:`.state`, :mod:`.actions`,
  :mod:`.scenarios` and :mod:`.cycle` (set-up and turns), :mod:`.ops` (the Ops Phase: initiative, activation,
  Action Points), :mod:`.moves` (movement and Formation Reaction), :mod:`.actions_misc` (breach, refit, improved
  defence), :mod:`.battle` (the combat sequence as decisions of each seat), :mod:`.snafu` (the SNAFU re-roll
  window, §5.2), :mod:`.overstack` (overstacking at the end of a move, §5.3.1), :mod:`.admin` (the Admin Phase)
  and :mod:`.victory` (§8). The secret assignment of independents with Dummy markers (§5.5.2): :mod:`.assignments`
  (committed markers, opened when both sides have organised) and :mod:`.audit`. Not in the ``pbem.games`` entry
  point while part of the rulebook is not enforced: limited stack intelligence (§5.3.4; every stack is open).
  Develop with ``PBEM_GAMES=pbem.games.gazala.ruleset:RULESET``.
* :mod:`.combat` and ``combat_*``: the combat library (§7.5): strengths, chits, DRMs, the CRT, hit distribution,
  retreats and displacements, Battle Victory and SNAFU, as pure functions of dice and chits.
* :mod:`.board`: the map per pack, a position, zones of control and movement (§3.1, §5.4, §7.3).
* :mod:`.paths`: command paths (§5.8) and supply paths (§5.7).
* :mod:`.minefields`: Enemy Minefield Checks (§7.3.6) and breaching (§7.4).
* :mod:`.stacking`: stacking limits (§5.3.1).
* :mod:`.retreat`: Retreat Paths (§7.5.2.2, §7.5.2.3).
* :mod:`.mapspec` and :mod:`.present`: the map, counters and markers in reports and the browser.

The pack is exported for ``pbem data check gazala``.
"""

from pbem.games.gazala.data import default_pack_bytes, load_pack, pack_schema

__all__ = ["default_pack_bytes", "load_pack", "pack_schema"]
