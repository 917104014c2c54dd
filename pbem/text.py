"""Wording helpers shared by every message a player reads."""

from __future__ import annotations

__all__ = ["plural"]


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 line``, ``3 lines``, ``2 copies`` (``many`` for an irregular plural)."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"
