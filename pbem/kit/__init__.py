"""Shared pieces that games build on: data packs, maps, sequences of play, tables, conformance tests.

A game module imports only :mod:`pbem.rules` and :mod:`pbem.kit` (style guide §2.1).
"""
