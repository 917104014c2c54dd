"""*Rommel in the Desert* (Columbia Games, 2021 rules): the data pack and the rules.

The rulebook's text lacks the map, most of the block roster and the Fire Table's cells (they are printed on the
map and labels). :mod:`pbem.games.rommel.data` holds every fact the text states, a historical reconstruction of
the rest, field-by-field provenance, and the cross-checks that let a transcription of the printed components be
dropped in (``docs/rommel-data.md``). :mod:`pbem.games.rommel.ruleset` plays the game on contract v2 and the kit
(``docs/rommel-rules.md`` lists what it enforces); it is not registered in the ``pbem.games`` entry point until it is
complete (``PBEM_GAMES=pbem.games.rommel.ruleset:RULESET`` loads it for development).
"""
