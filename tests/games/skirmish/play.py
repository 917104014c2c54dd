"""A scripted Skirmish game: blocks march on each other and fight, so reports have combats to show."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.helpers import Table

__all__ = ["aggressive_game"]


def _column(hex_id: str) -> int:
    return int(hex_id[:2])


def _choose(seat: str, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    names = {a["action"] for a in legal}
    if "deploy" in names:
        return rng.choice(legal)
    if "press" in names:
        return {"action": "press"}
    attacks = [a for a in legal if a["action"] == "attack"]
    if attacks:
        return rng.choice(attacks)
    forward = 1 if seat == "red" else -1
    moves = [a for a in legal if a["action"] == "move"]
    best = max((forward * _column(a["to"]) for a in moves), default=None)
    ahead = [a for a in moves if forward * _column(a["to"]) == best]
    return rng.choice(ahead) if ahead else {"action": "pass"}


def aggressive_game(
    directory: Path, seed: int = 3, *, title: str = "", names: dict[str, str] | None = None, **notes: str
) -> Table:
    """A finished, fully disclosed Skirmish game; ``notes`` maps a seat to a note on its first action."""
    table = Table.start(directory, "meeting", game="skirmish", options={"rounds": 6}, title=title, names=names)
    rng = random.Random(seed)
    progressed = True
    while progressed:
        progressed = False
        for seat in ("red", "blue"):
            with table.session(seat) as session:
                written = session.do_owed()
                legal = session.legal()
                if legal:
                    written += session.act([_choose(seat, legal, rng)], notes.pop(seat, None))
                progressed = progressed or bool(written)
    return table
