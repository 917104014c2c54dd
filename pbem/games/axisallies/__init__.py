"""*Axis & Allies: North Africa* (Larry Harris and Matt Hyra, Renegade Game Studios, 2024): the data pack.

The rules module comes later; for now the package ships the data pack (:mod:`pbem.games.axisallies.data`).
"""
