"""The after-action report's story: each turn told in sentences, written from its events and views.

What moved is read from the views (a unit standing somewhere else), so any game gets movement told; combats
follow the ``combat_resolved`` convention and :meth:`Presentation.combat_outcome` says who won; other lines
are the texts of the events the game lists in :attr:`Presentation.highlights`. Players' notes are quoted
where they fall. Everything is told as one viewer may see it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from pbem.kit.tables import Lookup
from pbem.report.chronicle import QUIET, Chronicle, Moment
from pbem.report.svg import CombatSite, MapRenderer
from pbem.rules.contract import OMNISCIENT, Event, View
from pbem.rules.presentation import Presentation, outcome_by_totals
from pbem.rules.records import CombatRecord, combat_record

__all__ = ["Fight", "Paragraph", "TurnStory", "lookup_text", "losses_in_words", "tell", "told", "visible"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class Paragraph(_Model):
    """A paragraph of a turn's story (``lead``: the stage it begins, as a run-in heading), or a player's note."""

    kind: Literal["text", "note"]
    lead: str = ""
    sentences: list[str] = []
    who: str = ""
    text: str = ""
    line: int = 0


class Fight(_Model):
    """One combat as the story and the map tell it: its number, where, and who won."""

    number: int
    line: int
    region: str
    location: str
    result: str
    winner: str | None
    winner_name: str
    sentence: str


class TurnStory(_Model):
    """A turn (with any quiet periods folded into it) told as paragraphs."""

    periods: list[str]
    paragraphs: list[Paragraph]
    fights: list[Fight]
    moves: int


def visible(event: Event, viewer: str) -> bool:
    if event.kind in QUIET:
        return False
    return viewer == OMNISCIENT or event.visible_to is None or viewer in event.visible_to


def told(presentation: Presentation | None, event: Event, viewer: str) -> bool:
    """Whether the story tells ``event`` to ``viewer`` in a sentence of its own: a visible event with a text that
    the game lists among its highlights (a game without a look has every event told), never a dice roll."""
    if not visible(event, viewer) or event.kind == "dice_rolled" or not event.text.strip():
        return False
    return presentation is None or event.kind in presentation.highlights


def sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def side_name(presentation: Presentation | None, side: str) -> str:
    if presentation is not None and side in presentation.style.sides:
        return presentation.style.sides[side].name
    return side


def _names(units: Sequence[str]) -> str:
    return units[0] if len(units) == 1 else ", ".join(units[:-1]) + " and " + units[-1]


def lookup_text(found: Lookup[str]) -> str:
    """A table lookup in words: ``CRT (rule 7.5) column 2:1 shifted +1 to 3:1, roll 4: DE``."""
    column = found.column
    if found.applied:
        column = f"{found.base} shifted {found.applied:+d} to {found.column}"
    elif found.shift:
        column = f"{found.column} (shift {found.shift:+d} stopped at the edge)"
    return f"{found.table} (rule {found.rule}) column {column}, roll {found.roll}: {found.result}"


def losses_in_words(record: CombatRecord, unit_name: Callable[[str], str]) -> list[tuple[str, str]]:
    """Each side's losses in words, as (side, ``"2 tanks, 1 step of 7th Armoured"``); pieces of one kind add up."""
    by_side: dict[str, list[str]] = {}
    pieces: dict[tuple[str, str], int] = {}
    for loss in record.losses:
        if loss.unit is None:
            pieces[(loss.side, loss.kind)] = pieces.get((loss.side, loss.kind), 0) + loss.pieces
            continue
        name = unit_name(loss.unit)
        what = f"{name} eliminated" if loss.eliminated else f"{loss.steps} step{'s' * (loss.steps != 1)} of {name}"
        by_side.setdefault(loss.side, []).append(what)
    for (side, kind), count in pieces.items():
        by_side.setdefault(side, []).append(f"{count} {kind.replace('_', ' ')}")
    return [(side, ", ".join(parts)) for side, parts in by_side.items()]


@dataclass
class _Open:
    """A combat whose consequences are still being told."""

    number: int
    line: int
    event: Event
    record: CombatRecord
    followups: list[Event] = field(default_factory=list)


@dataclass
class _Teller:
    chron: Chronicle
    viewer: str
    renderer: MapRenderer | None
    presentation: Presentation | None
    first_fight: int
    paragraphs: list[Paragraph] = field(default_factory=list)
    fights: list[Fight] = field(default_factory=list)
    moves: int = 0
    _lead: str = ""
    _sentences: list[str] = field(default_factory=list)
    _moved: list[tuple[str, str, str, str]] = field(default_factory=list)  # (side, unit, from, to)
    _open: _Open | None = None
    _units: dict[str, str] = field(default_factory=dict)

    # --- paragraphs -------------------------------------------------------------------------------------
    def stage(self, lead: str) -> None:
        self.close_fight()
        self.end_paragraph()
        self._lead = lead

    def end_paragraph(self) -> None:
        self.flush_moves()
        if self._sentences:
            self.paragraphs.append(Paragraph(kind="text", lead=self._lead, sentences=self._sentences))
            self._lead = ""
        self._sentences = []

    def say(self, text: str) -> None:
        self.flush_moves()
        if text.strip():
            self._sentences.append(sentence(text))

    def note(self, moment: Moment) -> None:
        self.end_paragraph()  # a combat still open keeps gathering its consequences after the quote
        who = self.chron.name_of(moment.author)
        self.paragraphs.append(Paragraph(kind="note", who=who, text=moment.note or "", line=moment.line))

    # --- movement -----------------------------------------------------------------------------------------
    def know(self, view: View) -> None:
        """Learn the units' names as the viewer knows them."""
        self._units.update({u.id: u.name for u in view.units})

    def moved(self, before: View, after: View) -> None:
        self.know(after)
        then = {u.id: u.location for u in before.units}
        for unit in after.units:
            was = then.get(unit.id)
            if was is not None and unit.location is not None and was != unit.location:
                self._moved.append((unit.side, unit.id, was, unit.location))
                self.moves += 1

    def flush_moves(self) -> None:
        if not self._moved:
            return
        by_side: dict[str, dict[tuple[str, str], list[str]]] = {}
        for side, unit, src, dst in self._moved:
            by_side.setdefault(side, {}).setdefault((src, dst), []).append(self._units.get(unit, unit))
        self._moved = []
        place = self.place
        for side, legs in by_side.items():
            parts = [f"{_names(units)} from {place(src)} to {place(dst)}" for (src, dst), units in legs.items()]
            self._sentences.append(sentence(f"{side_name(self.presentation, side)} moves: {'; '.join(parts)}"))

    # --- combat -------------------------------------------------------------------------------------------------
    def fight(self, moment: Moment, event: Event, record: CombatRecord) -> None:
        self.close_fight()
        self.flush_moves()
        self._open = _Open(self.first_fight + len(self.fights), moment.line, event, record)
        self._sentences.append(f"\0{self._open.number}")  # filled in when its consequences are known

    def place(self, location: str) -> str:
        return self.renderer.name(location) if self.renderer is not None else location

    @property
    def followups(self) -> frozenset[str]:
        return (self.presentation or Presentation).combat_followups

    def followup(self, event: Event) -> bool:
        if self._open is None or event.kind not in self.followups:
            return False
        self._open.followups.append(event)
        return True

    def close_fight(self) -> None:
        fight, self._open = self._open, None
        if fight is None:
            return
        data: dict[str, Any] = fight.event.data
        outcome = (
            self.presentation.combat_outcome(data, fight.followups)
            if self.presentation is not None
            else outcome_by_totals(data)
        )
        record = fight.record
        winner = next((s.side for s in record.sides if s.role == outcome.winner), record.winner)
        winner_name = side_name(self.presentation, winner) if winner else ""
        region = record.location
        where = self.place(region)

        def party(role: str) -> str:
            side = record.side(role)
            if side is None:
                return "?"
            units = [self._units.get(u, u) for u in side.units]
            who = side_name(self.presentation, side.side)
            return f"{who} {_names(units)} ({side.total})" if units else f"{who} ({side.total})"

        if record.sides:
            told = f"Combat {fight.number} at {where}: {party('attack')} attacked {party('defense')}"
        else:
            told = f"Combat {fight.number} at {where}"
        told += self._fire(record)
        consequences = "; ".join(e.text.rstrip(".") for e in fight.followups if visible(e, self.viewer) and e.text)
        result = outcome.result.capitalize()
        verdict = f"{result}, won by the {winner_name} side" if winner_name else f"{result}, neither side won"
        text = f"{told}. {sentence(consequences) + ' ' if consequences else ''}Result: {verdict}."
        self.fights.append(
            Fight(
                number=fight.number,
                line=fight.line,
                region=region,
                location=where,
                result=result,
                winner=str(winner) if winner else None,
                winner_name=winner_name,
                sentence=text,
            )
        )
        self._sentences = [text if s == f"\0{fight.number}" else s for s in self._sentences]
        for paragraph_index, paragraph in enumerate(self.paragraphs):
            if f"\0{fight.number}" in paragraph.sentences:
                filled = [text if s == f"\0{fight.number}" else s for s in paragraph.sentences]
                self.paragraphs[paragraph_index] = paragraph.model_copy(update={"sentences": filled})

    def _fire(self, record: CombatRecord) -> str:
        """Rounds of fire, hits and losses in a clause each (empty for a combat without them)."""
        said = ""
        if record.rounds:
            scored: dict[str, int] = {}
            for round_ in record.rounds:
                for step in round_.steps:
                    scored[step.side] = scored.get(step.side, 0) + step.hits
            hits = ", ".join(f"{side_name(self.presentation, s)} {n} hit{'s' * (n != 1)}" for s, n in scored.items())
            rounds = len(record.rounds)
            said += f" over {rounds} round{'s' * (rounds != 1)} of fire ({hits})"
        lost = losses_in_words(record, lambda u: self._units.get(u, u))
        if lost:
            said += "; losses: " + "; ".join(f"{side_name(self.presentation, s)} {text}" for s, text in lost)
        return said

    def sites(self) -> list[CombatSite]:
        return [CombatSite(f.region, f.number, f.winner) for f in self.fights]


def _opener(chron: Chronicle, moment: Moment) -> int | None:
    """Where in ``moment``'s events the first that opens a stage is (:attr:`Presentation.stage_openers`)."""
    presentation = chron.presentation
    if presentation is None:
        return None
    return next((i for i, e in enumerate(moment.events) if e.kind in presentation.stage_openers), None)


def _carried(chron: Chronicle, periods: Sequence[str], moments: list[Moment]) -> Moment | None:
    """The line before ``periods`` if it opened their first stage (the rules start a new turn, which is a new
    period, inside the last action of the one before): the events from its opener on are these periods' story."""
    if not moments:
        return None
    index = next(i for i, m in enumerate(chron.moments) if m is moments[0])
    line = chron.moments[index - 1] if index else None
    if line is None or line.period in periods or chron.period_after(line) not in periods:
        return None
    return line if _opener(chron, line) is not None else None


def tell(
    chron: Chronicle,
    periods: Sequence[str],
    viewer: str,
    renderer: MapRenderer | None,
    first_fight: int = 1,
) -> tuple[TurnStory, list[CombatSite]]:
    """The story of ``periods`` (one turn, with any quiet periods folded in) as ``viewer`` may read it
    (``renderer``: the game's map, which names locations; None for a game without one)."""
    presentation = chron.presentation
    teller = _Teller(chron, viewer, renderer, presentation, first_fight)
    moments = [m for m in chron.moments if m.period in periods]
    carried = _carried(chron, periods, moments)
    state = chron.state_before(periods[0]) if periods else None
    stage = None
    for moment in [carried, *moments] if carried is not None else moments:
        after = chron.view(moment, viewer)
        opened = presentation.stage(after) if presentation is not None and after is not None else stage or ""
        opener = _opener(chron, moment)
        events = list(moment.events)
        if moment is carried and opener is not None:  # the previous period's last line opened this one
            teller.stage(opened)
            stage = opened
            for event in events[opener:]:
                if visible(event, viewer) and event.kind != "dice_rolled" and told(presentation, event, viewer):
                    teller.say(chron.text_of(event))
            continue
        if opener is not None and chron.period_after(moment) not in periods:
            events = events[:opener]  # the rest opens the next period, whose story tells it
        before = chron.view(None, viewer, state=state) if state is not None else None
        now = presentation.stage(before) if presentation is not None and before is not None else ""
        if now != stage:
            teller.stage(now)
            stage = now
        combat_line = moves_told = False
        for index, event in enumerate(events):
            if not visible(event, viewer):
                continue
            if index == opener and opened != stage:
                if before is not None and after is not None and not combat_line and not moves_told:
                    teller.moved(before, after)  # the line's own moves end the stage it was made in
                    moves_told = True
                teller.stage(opened)  # the next turn began in this line: its announcement heads the new stage
                stage = opened
            record = combat_record(event)
            if record is not None:
                teller.fight(moment, event, record)
                combat_line = True
            elif teller.followup(event):
                combat_line = True
            elif event.kind == "dice_rolled":
                continue
            else:
                teller.close_fight()
                if told(presentation, event, viewer):
                    teller.say(chron.text_of(event))
        if before is not None and after is not None and not (combat_line or moves_told) and moment.state is not state:
            teller.moved(before, after)  # moves made in a combat (retreats, advances) are its consequences
        elif after is not None:
            teller.know(after)
        if moment.note:
            teller.note(moment)
        if moment.type == "resign":
            teller.say(f"{chron.name_of(moment.author)} resigns")
        state = moment.state if moment.state is not None else state
    teller.close_fight()
    teller.end_paragraph()
    story = TurnStory(periods=list(periods), paragraphs=teller.paragraphs, fights=teller.fights, moves=teller.moves)
    return story, teller.sites()
