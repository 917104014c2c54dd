"""*Rommel in the Desert* (Columbia Games, 2021 rules): the data pack.

The rulebook's text lacks the map, most of the block roster and the Fire Table's cells (they are printed on the
map and labels). :mod:`pbem.games.rommel.data` holds every fact the text states, a historical reconstruction of
the rest, field-by-field provenance, and the cross-checks that let a transcription of the printed components be
dropped in (``docs/rommel-data.md``). The rules module comes later; this package registers no ruleset yet.
"""
