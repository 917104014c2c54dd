"""The browser client (``pbem play LOG --key KEY --web``): the map, clickable legal moves, signed locally."""
