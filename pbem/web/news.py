"""What happened since the seat's last entry, as that seat could see it (the page's "Since your last turn").

The same selection as ``pbem play`` prints (events visible to the seat, minus the quiet ones, and the others'
notes), kept as data so the page can escape it and draw it on the map. A line is credited to the seat that
signed its entry (a dice reveal's combat to the revealer), and an action's narration that names no seat to nobody.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.report.chronicle import Chronicle
from pbem.report.context import QUIET
from pbem.rules.contract import Event

__all__ = ["Told", "since_last_turn"]


@dataclass(frozen=True)
class Told:
    """One line: its log line, who (a name, or ""), what, and the event told (None for a player's note)."""

    line: int
    who: str
    text: str
    event: Event | None = None

    @property
    def note(self) -> bool:
        """The text is a note a player wrote, not an event."""
        return self.event is None


def since_last_turn(chron: Chronicle, seat: str) -> list[Told]:
    """What the others did since ``seat``'s last action or join, as ``seat`` could see it."""
    last = max(
        (i for i, m in enumerate(chron.moments) if m.author == seat and m.type in ("action", "join")), default=-1
    )
    told = []
    for moment in chron.moments[last + 1 :]:
        for event in moment.events:
            visible = event.visible_to is None or seat in event.visible_to
            if visible and event.text and event.kind not in QUIET:
                credited = None if moment.type == "action" and event.seat is None else moment.author
                told.append(Told(moment.line, chron.name_of(credited) if credited else "", event.text, event))
        if moment.note and moment.author != seat:
            told.append(Told(moment.line, chron.name_of(moment.author), moment.note))
    return told
