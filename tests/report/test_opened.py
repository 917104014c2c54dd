"""An opened hidden value reads in the game's words (``Presentation.opened``), never as the engine's slot id."""

from __future__ import annotations

import copy
from typing import Any

from pbem.report.chronicle import Chronicle
from pbem.report.documents import turn_report
from pbem.report.replay import replay_page


def _opened(chron: Chronicle) -> list[tuple[int, Any]]:
    return [(m.line, e) for m in chron.moments for e in m.events if e.kind == "hidden_opened"]


def test_reports_say_what_was_opened_without_slot_ids(skirmish: Chronicle) -> None:
    """Skirmish's blocks open their strengths for a combat (slots ``strength/r2``…); its presentation names
    nothing, so the default words are used, with the value opened."""
    opened = _opened(skirmish)
    assert opened
    slots = {str(e.data["slot"]) for _, e in opened}
    for _, event in opened:
        who = skirmish.name_of(event.seat)
        assert skirmish.text_of(event) == f"{who} opened a hidden value, {event.data['value']}"
    period = next(m.period for m in skirmish.moments if m.line == opened[0][0])
    assert period is not None
    documents = [turn_report(skirmish, period, None, "html").decode(), replay_page(skirmish).decode()]
    for document in documents:
        assert "opened a hidden value" in document
        assert not any(slot in document for slot in slots)
    told = [t.text for seat in ("red", "blue") for t in skirmish.since_last_turn(seat)]
    assert not any(slot in text for text in told for slot in slots)


class _Named:
    """A presentation that names what each slot holds, as a game's own would."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def opened(self, slot: str, value: Any) -> str:
        return f"the strength of block {slot.rpartition('/')[2].upper()}, {value}"


def test_a_game_names_what_was_opened(skirmish: Chronicle) -> None:
    named = copy.copy(skirmish)
    named.__dict__["presentation"] = _Named(skirmish.presentation)  # the cached property, replaced
    line, event = _opened(named)[0]
    slot = str(event.data["slot"])
    block = slot.rpartition("/")[2].upper()
    expected = f"{named.name_of(event.seat)} opened the strength of block {block}, {event.data['value']}"
    assert named.text_of(event) == expected
    period = next(m.period for m in named.moments if m.line == line)
    assert period is not None
    assert "opened the strength of block" in turn_report(named, period, None, "html").decode()
