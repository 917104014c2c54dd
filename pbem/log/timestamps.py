"""Entry timestamps: the canonical form, their order, and the bound on how far ahead one may run.

A timestamp is ``YYYY-MM-DDTHH:MM:SSZ``, a real UTC instant (PROTOCOL.md §3.8). Timestamps are each author's
own signed statement, so the protocol only bounds them against the entries they answer:

* never earlier than the author's previous entry or any dependency (nobody answers before the question);
* never more than :func:`max_ahead` hours after the latest of them, so a forged clock (an entry dated 2100)
  is refused instead of making every later timeout claim impossible, and can delay a claim by at most that
  bound. An honest client signs ``min(max(now, latest), latest + bound)`` (:func:`for_signing`), so a game
  can always go on, even after a pause longer than the bound.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from pbem.errors import PbemError

__all__ = [
    "FORMAT",
    "MAX_AHEAD_HOURS",
    "add_hours",
    "check_order",
    "for_signing",
    "hours_between",
    "max_ahead",
    "parse",
]

FORMAT = "%Y-%m-%dT%H:%M:%SZ"
MAX_AHEAD_HOURS = 744  # 31 days: a month of silence before a client must understate its signing time
_SHAPE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
_LATEST = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)


def parse(text: object) -> datetime:
    """The UTC instant of a canonical timestamp.

    Raises:
        PbemError: C008 if ``text`` is not ``YYYY-MM-DDTHH:MM:SSZ`` naming a real instant (no month 13, no
        February 30, no leap second).
    """
    if not isinstance(text, str) or not _SHAPE.match(text):
        raise PbemError("C008", f"timestamp {str(text)[:40]!r} is not YYYY-MM-DDTHH:MM:SSZ")
    try:
        if len(text) == 20 and text.isascii():  # exactly YYYY-MM-DDTHH:MM:SSZ: the C parser, same refusals
            return datetime.fromisoformat(text)  # ("Z" is UTC; about a tenth of building it field by field)
        if text.isascii():  # the fields are at fixed places: datetime refuses what strptime would, at a tenth the cost
            return datetime(
                int(text[0:4]), int(text[5:7]), int(text[8:10]), int(text[11:13]), int(text[14:16]), int(text[17:19]),
                tzinfo=UTC,
            )  # fmt: skip
        return datetime.strptime(text, FORMAT).replace(tzinfo=UTC)  # other Unicode digits: strptime's own rules
    except ValueError as exc:
        raise PbemError("C008", f"timestamp {text!r} is not a real UTC instant") from exc


def _format(instant: datetime) -> str:
    return instant.strftime(FORMAT)


def add_hours(text: str, hours: int) -> str:
    """``text`` plus ``hours``, capped at the last representable instant (never an overflow)."""
    start = parse(text)
    room = (_LATEST - start) // timedelta(hours=1)
    return _format(_LATEST if hours > room else start + timedelta(hours=hours))


def hours_between(earlier: str, later: str) -> int:
    """Whole hours from ``earlier`` to ``later`` (negative if ``later`` is earlier)."""
    return int((parse(later) - parse(earlier)).total_seconds() // 3600)


def max_ahead(deadline: int | None) -> int:
    """How many hours an entry may be dated after the latest entry it answers: a month, or the game's
    response deadline if that is longer (so a timeout claim can always be dated)."""
    return max(MAX_AHEAD_HOURS, deadline or 0)


def check_order(ts: str, parents: Iterable[str], deadline: int | None) -> None:
    """Check ``ts`` against the timestamps of the entry's prev and dependencies.

    Raises:
        PbemError: C008 if it is earlier than one of them, or more than :func:`max_ahead` hours after the latest.
    """
    known = list(parents)
    if not known:
        return
    latest = max(known)  # canonical timestamps order as strings
    if ts < latest:
        raise PbemError("C008", f"timestamp {ts} is earlier than {latest}, an entry it depends on")
    if ts[:7] == latest[:7] and len(ts) == len(latest) == 20 and latest.isascii():
        return  # the same month: less than 31 days (the least bound, 744 hours) after the latest
    bound = max_ahead(deadline)
    if ts > add_hours(latest, bound):
        raise PbemError("C008", f"timestamp {ts} is more than {bound} hours after {latest}, the latest it depends on")


def for_signing(now: str, parents: Iterable[str], deadline: int | None) -> str:
    """The timestamp an honest client signs: ``now``, but never before a parent nor beyond the bound."""
    known = list(parents)
    if not known:
        return now
    latest = max(known)
    return min(max(now, latest), add_hours(latest, max_ahead(deadline)))
