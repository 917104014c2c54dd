"""*Operation Battleaxe: Wavell vs. Rommel, 1941* (Take Aim Designs, 2013).

The data pack (map, units and the rulebook's numbers) lives in :mod:`pbem.games.battleaxe.data` and
``data/pack.json``; docs/battleaxe-data.md describes it. The rules module is written separately.
"""
