"""*Axis & Allies: North Africa* (Larry Harris and Matt Hyra, Renegade Game Studios, 2024): the data pack.

The data pack (:mod:`pbem.games.axisallies.data`), the rule libraries and the ruleset
(:mod:`pbem.games.axisallies.ruleset`, not registered as a game yet).
"""
