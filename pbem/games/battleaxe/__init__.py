"""*Operation Battleaxe: Wavell vs. Rommel, 1941* (Take Aim Designs, 2013) as a pbem game module.

* :mod:`.data`: the data pack (map, units and the rulebook's numbers; docs/battleaxe-data.md);
* :mod:`.board` and :mod:`.situation`: the map and the derived facts of a position (control, supply, costs);
* :mod:`.combat`: the combat arithmetic; :mod:`.context`: what the phases share (board, situation, transitions);
* :mod:`.sequence`: the sequence of play on the kit's step machine, whose actions the phase modules declare:
  :mod:`.phase_setup` (5.2), :mod:`.phase_impulse` (8.1, 12.1, 19.1H), :mod:`.phase_movement` (9, 8.1.2a),
  :mod:`.phase_combat` (10, 11.0-11.4, 12.1A-B), :mod:`.phase_losses` (11.4.4-11.6), :mod:`.phase_sunset`
  (6.2.1, 12.1C), :mod:`.phase_refit` (14.2, 13, 14.2.3) and :mod:`.phase_end` (6.4, 17, 20); bids for sides
  (18.1) are decided by seat, before the machine, in :mod:`.phase_bids`;
* :mod:`.ruleset`: the engine contract (``RULESET``, registered as the ``battleaxe`` game).
"""
