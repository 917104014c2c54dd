"""A game log replayed into a chronicle: one :class:`Moment` per line, with the events it caused and the
state after it. Every report and the replay page is made from a chronicle (through views, never states).

The replay is the verifier's own (:class:`~pbem.verify.pipeline.Verifier`), so a report shows exactly what
verification accepted; after the first error the game stands still and the moments only record the lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from pbem.errors import PbemError
from pbem.log.entry import ActionEntry, GenesisBody, JoinEntry, ResignEntry, RevealEntry, envelope, validate
from pbem.log.sign import PublicKey
from pbem.replay.books import Epoch
from pbem.replay.game import DataProvider, Game, Knowledge, builtin_data, no_knowledge
from pbem.rules.contract import OMNISCIENT, Action, Event, GameState, Ruleset, View
from pbem.rules.presentation import Presentation
from pbem.verify.findings import Finding, VerificationReport
from pbem.verify.pipeline import Verifier, with_disclosed

__all__ = ["QUIET", "Chronicle", "Moment", "Player", "Told", "chronicle"]

QUIET = frozenset({"checkpoint_final"})
"""Engine events that the verification seal covers and a story need not repeat."""

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` while a long job runs."""


@dataclass(frozen=True)
class Player:
    """A seat as genesis and its join entry name it."""

    seat: str
    team: str
    role: str
    name: str
    fingerprint: str


@dataclass(frozen=True)
class Moment:
    """One line of the log and what it did to the game.

    Attributes:
        line: its line number (from 1).
        type: the entry type (``action``, ``reveal``…), or ``unreadable`` for a line that does not parse.
        period: the checkpoint period (``turn-2``) the entry was made in.
        state: the game after the line (None before every seat has joined).
        findings: what verification found wrong with this line.
        answers: for a reveal, the id of the entry whose roll request it answers (its ``for``).
        asked_by: for a reveal, the seat that signed that request (None where the log does not hold it).
    """

    line: int
    type: str
    entry: str | None = None
    author: str | None = None
    ts: str | None = None
    actions: tuple[Action, ...] = ()
    note: str | None = None
    events: tuple[Event, ...] = ()
    state: GameState | None = None
    period: str | None = None
    findings: tuple[Finding, ...] = ()
    answers: str | None = None
    asked_by: str | None = None

    def credit(self, event: Event) -> str | None:
        """The seat a line of this moment's story is credited to. A reveal only adds a die to a roll another
        entry asked for, so its lines are the roll's: they belong to the seat that signed the roll request
        (the action the reveal's ``for`` names), or to nobody if the log does not hold it; never to the seat
        that happened to reveal the last die. Other lines belong to the seat that signed the entry, not the
        seat an event is about; an action's events that name no seat are the rules' narration (nobody's)."""
        if self.type == "reveal":
            return self.asked_by
        if self.type == "action" and event.seat is None:
            return None
        return self.author


@dataclass(frozen=True)
class Told:
    """One line of "since your last turn": its log line, who is credited (a seat, or None), what, and the
    event told (None for a player's note)."""

    line: int
    seat: str | None
    text: str
    event: Event | None = None

    @property
    def note(self) -> bool:
        """The text is a note a player wrote, not an event."""
        return self.event is None


@dataclass
class Chronicle:
    """A replayed log: who played what, every moment, and the verifier's verdict."""

    moments: list[Moment]
    report: VerificationReport
    game: Game | None
    players: list[Player] = field(default_factory=list)
    knows: frozenset[str] = frozenset()
    """The seats whose game secrets the replaying copy's own key unlocked (not those disclosed in the log)."""
    _views: dict[tuple[int, str], View] = field(default_factory=dict, repr=False)

    # --- what the game is --------------------------------------------------------------------------------
    @property
    def genesis(self) -> GenesisBody | None:
        return None if self.game is None else self.game.genesis.body

    @property
    def ruleset(self) -> Ruleset[Any] | None:
        return self.game.ruleset if self.game is not None and self.game.rules else None

    @cached_property
    def presentation(self) -> Presentation | None:
        ruleset = self.ruleset
        return None if ruleset is None or self.game is None else ruleset.presentation(self.game.data)

    def text_of(self, event: Event) -> str:
        """An event's line as reports print it: its own text, except an opened hidden value, which the engine
        can name only by its slot id and the game names in words (:meth:`Presentation.opened`)."""
        if event.kind != "hidden_opened":
            return event.text
        presentation = self.presentation
        slot, value = str(event.data.get("slot", "")), event.data.get("value")
        words = presentation.opened(slot, value) if presentation is not None else "a hidden value"
        return f"{self.name_of(event.seat) if event.seat else 'a player'} opened {words}"

    def name_of(self, seat: str | None) -> str:
        """How reports call a seat: ``Alice (axis)``, or the seat id if the player gave no name."""
        if seat is None:
            return "the rules"
        player = next((p for p in self.players if p.seat == seat), None)
        return seat if player is None or player.name == seat else f"{player.name} ({seat})"

    def since_last_turn(self, seat: str) -> list[Told]:
        """What the others did since ``seat``'s last action or join, as ``seat`` could see it: the visible,
        not quiet events, each credited to the seat that signed its entry (:meth:`Moment.credit`), and the
        other players' notes. ``pbem play`` prints it; the browser board lists it and draws it on the map."""
        last = max(
            (i for i, m in enumerate(self.moments) if m.author == seat and m.type in ("action", "join")), default=-1
        )
        told: list[Told] = []
        for moment in self.moments[last + 1 :]:
            for event in moment.events:
                visible = event.visible_to is None or seat in event.visible_to
                if visible and event.text and event.kind not in QUIET:
                    told.append(Told(moment.line, moment.credit(event), self.text_of(event), event))
            if moment.note and moment.author != seat:
                told.append(Told(moment.line, moment.author, moment.note))
        return told

    # --- the game's course -----------------------------------------------------------------------------------
    @cached_property
    def periods(self) -> list[str]:
        """The checkpoint periods in the order play reached them (``setup``, ``turn-1``…)."""
        seen: list[str] = []
        for moment in self.moments:
            if moment.period is not None and moment.period not in seen:
                seen.append(moment.period)
        return seen

    def period_after(self, moment: Moment) -> str | None:
        """The period the game is in after ``moment``: the next line's (its own for the last line)."""
        index = next(i for i, m in enumerate(self.moments) if m is moment)
        later = self.moments[index + 1 :]
        return next((m.period for m in later if m.period is not None), moment.period)

    def moments_of(self, period: str) -> list[Moment]:
        return [m for m in self.moments if m.period == period]

    def state_before(self, period: str) -> GameState | None:
        """The game as the period began (after the last line of the period before)."""
        state = None
        for moment in self.moments:
            if moment.period == period:
                return state
            state = moment.state
        return state

    def view(self, moment: Moment | None, viewer: str = OMNISCIENT, state: GameState | None = None) -> View | None:
        """What ``viewer`` sees after ``moment`` (or in ``state``); None where the game has not started."""
        ruleset = self.ruleset
        state = moment.state if moment is not None else state
        if ruleset is None or state is None:
            return None
        key = (id(state), viewer)
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = ruleset.view(state, viewer)
        return view

    @property
    def final(self) -> Moment | None:
        return next((m for m in reversed(self.moments) if m.state is not None), None)


def chronicle(
    lines: Sequence[bytes],
    *,
    knowledge: Knowledge = no_knowledge,
    data_provider: DataProvider = builtin_data,
    progress: Progress | None = None,
) -> Chronicle:
    """Replay ``lines`` through the verifier, keeping every moment."""
    knows: set[str] = set()

    def local(game: str, seat: str, number: int, epoch: Epoch) -> bytes | None:
        secret = knowledge(game, seat, number, epoch)
        if secret is not None:
            knows.add(seat)
        return secret

    verifier = Verifier(knowledge=with_disclosed(local, lines), data_provider=data_provider)
    moments: list[Moment] = []
    names: dict[str, str] = {}
    signers: dict[str, str] = {}  # entry id -> the seat that signed it, to credit a roll to its requester
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        game = verifier.game
        before = game.state if game is not None else None
        period = game.period if game is not None and before is not None else None
        seen = len(game.events) if game is not None else 0
        found = tuple(verifier.feed(line, number))
        game = verifier.game
        moment = _moment(number, line, found, period)
        if game is not None and not verifier.halted:
            events = tuple(e.event for e in game.events[seen:])
            state = game.state
        else:
            events, state = (), (moments[-1].state if moments else None)
        if moment.entry is not None and moment.author is not None:
            signers.setdefault(moment.entry, moment.author)
        asked_by = signers.get(moment.answers) if moment.answers is not None else None
        moments.append(replace(moment, events=events, state=state, asked_by=asked_by))
        if moment.type == "join" and moment.author is not None and not found:
            entry = validate(envelope(line).raw)
            if isinstance(entry, JoinEntry) and entry.body.name is not None:
                names[entry.author] = entry.body.name
        if progress is not None:
            progress(number, len(lines))
    game = verifier.game
    players = []
    if game is not None:
        for seat in game.genesis.body.roster:
            players.append(
                Player(
                    seat=seat.seat,
                    team=seat.team,
                    role=seat.role,
                    name=names.get(seat.seat, seat.seat),
                    fingerprint=PublicKey.from_hex(seat.key).fingerprint,
                )
            )
    return Chronicle(moments=moments, report=verifier.report(), game=game, players=players, knows=frozenset(knows))


def _moment(number: int, line: bytes, found: tuple[Finding, ...], period: str | None) -> Moment:
    """The line's own facts (who, when, what it asked for), read only as far as it parses."""
    try:
        env = envelope(line)
        entry = validate(env.raw)
    except PbemError:
        return Moment(line=number, type="unreadable", findings=found, period=period)
    actions: tuple[Action, ...] = ()
    note = answers = None
    if isinstance(entry, RevealEntry):
        answers = entry.body.for_
    elif isinstance(entry, ActionEntry):
        actions, note = tuple(entry.body.actions), entry.body.note
    elif isinstance(entry, ResignEntry):
        note = entry.body.note
    return Moment(
        line=number,
        type=entry.type,
        entry=env.id,
        author=entry.author,
        ts=entry.ts,
        actions=actions,
        note=note,
        findings=found,
        period=period,
        answers=answers,
    )
