"""Game modules, one package per game."""
