"""Skirmish: a tiny hex-and-block example game (hex map, hidden block strengths, fog of war)."""
