"""*Operation Battleaxe: Wavell vs. Rommel, 1941* (Take Aim Designs, 2013) as a pbem game module.

* :mod:`.data`: the data pack (map, units and the rulebook's numbers; docs/battleaxe-data.md);
* :mod:`.board` and :mod:`.situation`: the map and the derived facts of a position (control, supply, costs);
* :mod:`.combat`: the combat arithmetic; :mod:`.rules`: the sequence of play as a state machine;
* :mod:`.ruleset`: the engine contract (``RULESET``, registered as the ``battleaxe`` game).
"""
