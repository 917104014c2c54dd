"""The documents pbem makes from a log: turn reports, after-action reports (HTML or PDF) and the replay page."""

from __future__ import annotations

import re
from typing import Literal

from pbem.errors import UsageError
from pbem.report import render
from pbem.report.chronicle import Chronicle
from pbem.report.context import aar_context, default_viewer, turn_context
from pbem.rules.contract import OBSERVER, OMNISCIENT
from pbem.rules.presentation import period_title

__all__ = ["Format", "after_action_report", "pick_period", "pick_viewer", "turn_report"]

Format = Literal["html", "pdf"]


def pick_viewer(chron: Chronicle, viewer: str | None) -> str:
    """``viewer`` checked against the seats, or the default (everything once fully disclosed).

    Raises:
        UsageError: U003 for an unknown seat.
    """
    if viewer is None:
        return default_viewer(chron)
    seats = [p.seat for p in chron.players]
    if viewer not in (*seats, OBSERVER, OMNISCIENT):
        raise UsageError("U003", f"--as {viewer}: no such seat (seats: {', '.join(seats)}, {OBSERVER}, {OMNISCIENT})")
    return viewer


NUMBERED = re.compile(r"^[^\s-].*-([0-9]+)$")
"""A period named with a number at its end, whatever the word before it: ``turn-3``, ``month-3``, ``round-2``."""


def pick_period(chron: Chronicle, turn: str) -> str:
    """The period ``turn`` names: a label (``setup``, ``month-2``), its title in reports (``Round 2``), or a
    number N: the one period named ``<anything>-N``, or the N-th period of a game whose periods carry no number.

    Raises:
        UsageError: U003 naming the periods the game has.
    """
    periods = chron.periods
    if turn in periods:
        return turn
    presentation = chron.presentation
    if turn.isdigit():
        numbered = {p: int(m[1]) for p in periods if (m := NUMBERED.match(p))}
        found = [p for p, n in numbered.items() if n == int(turn)]
        if len(found) == 1:
            return found[0]
        if not numbered and 1 <= int(turn) <= len(periods):
            return periods[int(turn) - 1]
    else:
        title = presentation.period_title if presentation is not None else period_title
        titled = [p for p in periods if title(p).casefold() == turn.strip().casefold()]
        if len(titled) == 1:
            return titled[0]
    raise UsageError("U003", f"--turn {turn}: the game has no such turn (it has: {', '.join(periods) or 'none'})")


def _ready(chron: Chronicle) -> None:
    if chron.game is None:
        first = chron.report.first_error
        raise UsageError("U006", f"no game to report on: {first.render() if first else 'the log is empty'}")


def turn_report(chron: Chronicle, turn: str, viewer: str | None, fmt: Format) -> bytes:
    """One turn told in full, as ``viewer`` saw it."""
    _ready(chron)
    who = pick_viewer(chron, viewer)
    ctx = turn_context(chron, pick_period(chron, turn), who)
    document = render.html("turn.html", ctx=ctx, header=ctx.header)
    return render.pdf(document) if fmt == "pdf" else document.encode()


def after_action_report(chron: Chronicle, viewer: str | None, fmt: Format) -> bytes:
    """The whole game: who played, the verification seal, the timeline, charts, casualties, the final map."""
    _ready(chron)
    ctx = aar_context(chron, pick_viewer(chron, viewer))
    document = render.html("aar.html", ctx=ctx, header=ctx.header)
    return render.pdf(document) if fmt == "pdf" else document.encode()
