"""The rules-engine contract: what a game module provides, and the state model it works on.

A game is a :class:`Ruleset` registered under an id. The engine (``pbem.replay``) drives it; a module never
touches the log, keys or dice derivation. The contract, in the spirit of Rally the Troops and
python-chess:

* ``setup`` builds the initial :class:`GameState` from scenario, options, roster and data pack.
* ``to_act`` names the seats the game waits for. Dice, openings of hidden slots and re-seals are waited for
  by the engine itself, from the state's ``rolls`` and ``hidden`` fields.
* ``legal_actions`` enumerates every legal atomic action of a seat as a JSON object. It is the single source
  of legality: the engine accepts a logged action only if it is in this list (or, when the action has
  secret fields the verifier cannot see, if its redacted form is in the redacted list; the exact check
  then happens at the end-of-game audit).
* ``check`` explains a refusal with a rule reference; it must agree with ``legal_actions``.
* ``apply`` and ``resume`` return a new state and structured :class:`Event` s that cite rule numbers.
* ``view`` redacts the state for one seat (fog of war); ``result`` says who won.

**Hidden information.** A hidden value lives in a slot of ``GameState.hidden``. A module reads it with
:meth:`GameState.slot` (its ``known`` flag is False when the replaying party cannot see it) and changes it
with :meth:`GameState.with_hidden`, which bumps its version. The engine then requires the owner to commit
to the new version: in the same entry if the owner is acting, or in the owner's next entry otherwise.
A secret choice (a bid, a hidden deployment) is an action field named by :meth:`Ruleset.secret_fields`; the
engine stores its value in the named slot before calling ``apply`` and removes it from the logged action.
Rules ask for a slot to be opened with :meth:`GameState.with_opening`; once opened, a slot may be dropped
from ``hidden`` (a played card), but never before.

**Dice.** A module that needs dice returns a state with ``rolls`` set (:meth:`GameState.with_rolls`); the
entry that led there declares them, the opponents reveal their seeds, and the engine calls ``resume`` with
the faces. A private draw (``RollRequest.owner``, any seat) lands in a hidden slot only its owner can read.
Several requests may be pending at once (``with_rolls(a, b)``): the engine resolves and resumes them one
at a time, in the order given, and ``resume`` sees the ones still pending in ``rolls``/``extra_rolls``.

**Resignation.** :meth:`Ruleset.on_resign` decides what a resignation does: by default the game ends for
everyone; a multi-player game may let the seat drop out and play on.

**Shared decks.** A module that needs cards returns a state with ``deck`` set (:meth:`GameState.with_deck`):
shuffle a new deck or return face-up cards and reshuffle, deal cards to a seat, or have a seat reveal cards
of its hand. The engine runs the protocol (PROTOCOL.md §14), keeps ``GameState.decks`` (public sizes, the
face-up cards and each hand as far as the replaying party can see it) and calls ``resume`` with the
revealed cards. ``view`` must show a hand's cards only to its owner.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

if TYPE_CHECKING:
    from pbem.rules.presentation import Presentation

__all__ = [
    "ALLOW",
    "OBSERVER",
    "OMNISCIENT",
    "Action",
    "Deck",
    "DeckRequest",
    "Event",
    "GameState",
    "HiddenSlot",
    "OptionSpec",
    "Outcome",
    "Result",
    "RollRequest",
    "RollSpec",
    "Roster",
    "RosterSeat",
    "Ruleset",
    "Scenario",
    "SeatSpec",
    "Step",
    "UnitView",
    "Verdict",
    "View",
    "deny",
]

Action = dict[str, Any]
"""An atomic action: a JSON object whose ``"action"`` field names it, e.g. ``{"action": "pass"}``."""

OBSERVER = "@observer"
"""The viewer with no seat: sees only public information."""
OMNISCIENT = "@all"
"""The viewer that sees everything the replaying party knows (after full disclosure: everything)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Verdict(_Frozen):
    """Whether an action is legal; a refusal names the rule (``"7.1"``) and a stable reason slug."""

    ok: bool
    rule: str | None = None
    reason: str = ""
    message: str = ""


ALLOW = Verdict(ok=True)


def deny(rule: str, reason: str, message: str) -> Verdict:
    """A refusal citing rulebook section ``rule`` with the reason slug ``reason``."""
    return Verdict(ok=False, rule=rule, reason=reason, message=message)


class Event(_Frozen):
    """Something that happened, for reports: past-tense ``kind``, the rule applied, structured data.

    ``visible_to`` limits who may see it (None: everyone); a private draw's result is visible only to its
    owner until it is opened.
    """

    kind: str
    seat: str | None = None
    rule: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)
    text: str = ""
    visible_to: tuple[str, ...] | None = None


class RollSpec(_Frozen):
    """One group of dice: ``n`` dice of ``sides`` sides, with an id and a purpose for reports."""

    id: str
    sides: int
    n: int
    purpose: str


class RollRequest(_Frozen):
    """Dice the game needs before it can go on. ``owner`` and ``slot`` make it a private draw; the owner may
    be any player, not only the seat whose action asked for it (PROTOCOL.md §6.8)."""

    rolls: tuple[RollSpec, ...]
    owner: str | None = None
    slot: str | None = None


class HiddenSlot(_Frozen):
    """A hidden value owned by a seat.

    Attributes:
        owner: the seat that knows it and commits to it.
        ver: its version; it grows by one at every change.
        value: the value, meaningful only when ``known``.
        known: whether the replaying party knows the value (its owner, after opening, or after disclosure).
        public: whether it has been opened to everyone (until its next change).
        must_open: whether the rules require the owner to open it now.
    """

    owner: str
    ver: int = 0
    value: Any = None
    known: bool = False
    public: bool = False
    must_open: bool = False


class DeckRequest(_Frozen):
    """What a game asks of the shared deck ``deck`` before it can go on (the engine then calls ``resume``).

    * ``shuffle``: put the face-up cards ``returned`` back (or, for a new deck, create cards 0 … size−1)
      and have every player shuffle;
    * ``deal``: deal ``n`` cards from the top to ``seat``;
    * ``reveal``: ``seat`` reveals the cards at positions ``hand`` of its hand (in the order dealt).

    ``dealer`` (on the shuffle that creates a deck) names a referee seat that deals: the weaker mode, in which
    the referee sees every hand (PROTOCOL.md §14.10).
    """

    deck: str
    op: Literal["shuffle", "deal", "reveal"]
    dealer: str | None = None
    size: int = 0
    returned: tuple[int, ...] = ()
    seat: str | None = None
    n: int = 0
    hand: tuple[int, ...] = ()


class Deck(_Frozen):
    """A shared deck as the engine keeps it in the state: the number of cards in it, each seat's hand in the
    order dealt (a card is None where the replaying party cannot see it), and the face-up cards."""

    size: int
    hands: dict[str, tuple[int | None, ...]] = Field(default_factory=dict)
    faceup: tuple[int, ...] = ()

    def describe(self, name: str) -> str:
        """What everybody may know of the deck, in one line (status, the replay page)."""
        hands = ", ".join(f"{seat} {len(cards)}" for seat, cards in self.hands.items())
        faceup = ", ".join(map(str, self.faceup)) or "none"
        return f"deck {name}: {self.size} cards; hands: {hands}; face up: {faceup}"

    def hand(self, seat: str, viewer: str) -> tuple[int | None, ...]:
        """``seat``'s hand as ``viewer`` may see it: the cards for its owner (or an omniscient viewer),
        otherwise only how many."""
        cards = self.hands.get(seat, ())
        return cards if viewer in (seat, OMNISCIENT) else (None,) * len(cards)


S = TypeVar("S", bound="GameState")


class GameState(_Frozen):
    """The base of every game's state. Subclasses add their own (frozen, JSON-serializable) fields.

    The engine reads ``hidden``, ``rolls``, ``extra_rolls``, ``deck`` and ``decks``; everything else belongs
    to the module. ``rolls`` is the first pending request, ``extra_rolls`` the ones after it, in resolution
    order; ``deck`` is a pending shared-deck request and ``decks`` the decks' public state.
    """

    omit_when_empty: ClassVar[frozenset[str]] = frozenset({"extra_rolls", "deck", "decks"})
    """Fields left out of the serialization (and so of the state hash) while empty (None, (), {}, "").

    A field added to a state after logs were signed goes here, so every state that does not use it hashes
    as before and the old logs' checkpoints stay valid. A subclass extends the set.
    """

    hidden: dict[str, HiddenSlot] = Field(default_factory=dict)
    rolls: RollRequest | None = None
    extra_rolls: tuple[RollRequest, ...] = ()
    deck: DeckRequest | None = None
    decks: dict[str, Deck] = Field(default_factory=dict)

    @model_serializer(mode="wrap")
    def _omit_empty_new_fields(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        dumped: dict[str, Any] = handler(self)
        for name in self.omit_when_empty:
            if name in dumped and dumped[name] in (None, (), [], {}, ""):
                del dumped[name]
        return dumped

    @property
    def pending_rolls(self) -> tuple[RollRequest, ...]:
        """Every pending roll request, in the order the engine resolves them."""
        return () if self.rolls is None else (self.rolls, *self.extra_rolls)

    def slot(self, name: str) -> HiddenSlot:
        return self.hidden[name]

    def with_hidden(self: S, name: str, owner: str, value: Any, *, known: bool) -> S:
        """A new version of slot ``name`` holding ``value`` (pass ``known=False`` when it cannot be
        computed by the replaying party, e.g. a change to an unknown value)."""
        old = self.hidden.get(name)
        ver = 0 if old is None else old.ver + 1
        slot = HiddenSlot(owner=owner, ver=ver, value=value if known else None, known=known)
        return self.model_copy(update={"hidden": {**self.hidden, name: slot}})

    def with_opening(self: S, *names: str) -> S:
        """Require the owners to open ``names`` before the game goes on."""
        hidden = dict(self.hidden)
        for name in names:
            hidden[name] = hidden[name].model_copy(update={"must_open": True})
        return self.model_copy(update={"hidden": hidden})

    def with_rolls(self: S, *requests: RollRequest) -> S:
        """Ask for ``requests`` (after any already pending), resolved and resumed one at a time in order."""
        pending = (*self.pending_rolls, *requests)
        return self.model_copy(update={"rolls": pending[0] if pending else None, "extra_rolls": pending[1:]})

    def without_first_roll(self: S) -> S:
        """The state once its first pending request has resolved (the engine's, before ``resume``)."""
        rest = self.pending_rolls[1:]
        return self.model_copy(update={"rolls": rest[0] if rest else None, "extra_rolls": rest[1:]})

    def with_deck(self: S, request: DeckRequest) -> S:
        return self.model_copy(update={"deck": request})


class SeatSpec(_Frozen):
    """A seat of a scenario: id (``axis``), display name and team (seats of one team share a side)."""

    id: str
    name: str
    team: str


class Scenario(_Frozen):
    id: str
    name: str
    seats: tuple[SeatSpec, ...]
    description: str = ""


class OptionSpec(_Frozen):
    """A game option recorded in genesis; ``choices`` lists the allowed values (None: any of its type)."""

    id: str
    description: str
    default: Any
    choices: tuple[Any, ...] | None = None


class RosterSeat(_Frozen):
    seat: str
    team: str
    role: Literal["player", "referee"] = "player"


class Roster(_Frozen):
    """The seats of a game as genesis records them (keys are the engine's business, not the module's)."""

    seats: tuple[RosterSeat, ...]

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.seat for s in self.seats if s.role == "player")

    def team_of(self, seat: str) -> str:
        return next(s.team for s in self.seats if s.seat == seat)


class Outcome(_Frozen):
    """What the engine hands back to ``resume``: dice faces by roll id (None for a private draw, whose
    result is in its hidden slot), and the slots just opened."""

    dice: Mapping[str, tuple[int, ...]] | None = None
    drawn: str | None = None
    opened: tuple[str, ...] = ()
    revealed: tuple[int, ...] = ()  # the cards a deck reveal showed, in the order the module asked


class Step(_Frozen, Generic[S]):
    state: S
    events: tuple[Event, ...] = ()


class Result(_Frozen):
    """The end of a game: the winning seats (empty for a draw), a short outcome, and scores if any."""

    winners: tuple[str, ...]
    outcome: str
    score: dict[str, int] = Field(default_factory=dict)


class UnitView(_Frozen):
    """A unit as one viewer sees it; ``strength``/``steps`` are None where hidden from that viewer.

    ``kind`` is the unit's type (``infantry``, ``armor``…), by which reports count casualties.
    """

    id: str
    name: str
    side: str
    location: str | None
    kind: str = ""
    strength: int | None = None
    steps: int | None = None
    hidden: bool = False
    extra: dict[str, Any] = Field(default_factory=dict)


class View(_Frozen):
    """What one viewer sees: a one-line situation, the units, and any other public facts."""

    viewer: str
    summary: str
    units: tuple[UnitView, ...] = ()
    facts: dict[str, Any] = Field(default_factory=dict)


class Ruleset(ABC, Generic[S]):
    """A game module. Subclass, set the class attributes, implement the abstract methods, and register
    an instance under the ``pbem.games`` entry-point group."""

    id: ClassVar[str]
    name: ClassVar[str]
    version: ClassVar[str]
    scenarios: ClassVar[tuple[Scenario, ...]]
    options: ClassVar[tuple[OptionSpec, ...]] = ()

    # --- data pack ------------------------------------------------------------------------------
    @abstractmethod
    def default_data(self) -> bytes:
        """The bundled data pack, as canonical JSON bytes (its SHA-256 goes into genesis)."""

    @abstractmethod
    def load_data(self, raw: bytes) -> Any:
        """Validate and load a data pack; raise ``DataPackError`` (R006) if it does not validate."""

    def data_schema(self) -> dict[str, Any] | None:
        """The JSON Schema of the data pack, for people transcribing the published components."""
        return None

    # --- the game -------------------------------------------------------------------------------
    @abstractmethod
    def setup(self, scenario: str, options: Mapping[str, Any], roster: Roster, data: Any) -> S:
        """The initial state. It must not ask for dice or openings (nothing could have declared them)."""

    @abstractmethod
    def to_act(self, state: S) -> tuple[str, ...]:
        """The seats whose action the game waits for (empty when it is over)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: str) -> list[Action]:
        """Every legal atomic action of ``seat`` now, in a stable order."""

    @abstractmethod
    def check(self, state: S, seat: str, action: Action) -> Verdict:
        """Why ``action`` is (il)legal; must agree with :meth:`legal_actions`."""

    @abstractmethod
    def apply(self, state: S, seat: str, action: Action) -> Step[S]:
        """Apply a legal action. The engine calls it only after the legality check."""

    @abstractmethod
    def resume(self, state: S, outcome: Outcome) -> Step[S]:
        """Go on after one roll request resolved or slots were opened.

        For dice, ``state`` no longer holds the resolved request (``rolls`` is the next one still pending, if
        any); requests the returned state adds after the pending ones are chained rolls (PROTOCOL.md §6.5).
        """

    @abstractmethod
    def view(self, state: S, viewer: str) -> View:
        """What ``viewer`` (a seat, :data:`OBSERVER` or :data:`OMNISCIENT`) may see; must not change state."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The result once the game is over, else None."""

    def period(self, state: S) -> str:
        """The label of the current checkpoint period (e.g. ``"turn-2"``); a change owes a checkpoint."""
        return "game"

    def secret_fields(self, state: S, seat: str, action: Action) -> dict[str, str]:
        """Fields of ``action`` whose values are secret, mapped to the slot that keeps each.

        ``action`` holds the action's public fields (its name and every field not secret), so a game can
        name a per-piece slot (``{"hex": "block/axis-07"}`` for ``{"action": "deploy", "block": "axis-07"}``).
        It may depend only on public information, since every verifier must compute it: the engine calls it
        with the logged action (secret fields absent), and the client, which holds the secret values too,
        must get the same answer without them (R008 otherwise).
        """
        return {}

    def on_resign(self, state: S, seat: str) -> Step[S] | None:
        """What the resignation of ``seat`` does. None (the default): the game ends for everyone, won by
        the other team if only one other team remains. A :class:`Step`: the game goes on from its state
        (the seat drops out, or its team loses when :meth:`result` says so); it must not ask for dice.
        """
        return None

    def presentation(self, data: Any) -> Presentation | None:
        """The game's look in reports and replays over the loaded data pack ``data``; None: no map."""
        return None

    def describe(self, action: Action) -> str:
        """A short human text for an action (prompts and reports): ``move 2-rtr 7``."""
        words = [str(action.get("action", "?")).replace("_", " ")]
        for key, value in action.items():
            if key != "action":
                words.append(", ".join(map(str, value)) if isinstance(value, list) else str(value))
        return " ".join(words)

    def assert_invariants(self, state: S) -> None:
        """Raise AssertionError if ``state`` breaks an invariant (used by tests and fuzzing)."""
