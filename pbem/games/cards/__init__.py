"""High Card: a small two-player card game that plays with a shared hidden deck (PROTOCOL.md §14)."""
