"""Triad: a tiny three-seat example game that exercises every part of the engine contract."""
