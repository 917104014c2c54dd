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
the faces. A private draw (``RollRequest.owner``) lands in a hidden slot only its owner can read.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from pbem.rules.presentation import Presentation

__all__ = [
    "ALLOW",
    "OBSERVER",
    "OMNISCIENT",
    "Action",
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
    """Dice the game needs before it can go on. ``owner`` and ``slot`` make it a private draw."""

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


S = TypeVar("S", bound="GameState")


class GameState(_Frozen):
    """The base of every game's state. Subclasses add their own (frozen, JSON-serializable) fields.

    The engine reads ``hidden`` and ``rolls``; everything else belongs to the module.
    """

    hidden: dict[str, HiddenSlot] = Field(default_factory=dict)
    rolls: RollRequest | None = None

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

    def with_rolls(self: S, request: RollRequest) -> S:
        return self.model_copy(update={"rolls": request})


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
        """Go on after dice were rolled (``state.rolls`` is still set) or slots were opened."""

    @abstractmethod
    def view(self, state: S, viewer: str) -> View:
        """What ``viewer`` (a seat, :data:`OBSERVER` or :data:`OMNISCIENT`) may see; must not change state."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The result once the game is over, else None."""

    def period(self, state: S) -> str:
        """The label of the current checkpoint period (e.g. ``"turn-2"``); a change owes a checkpoint."""
        return "game"

    def secret_fields(self, state: S, seat: str, action_name: str) -> dict[str, str]:
        """Fields of action ``action_name`` whose values are secret, mapped to the slot that keeps each.

        It may depend only on public information, since every verifier must compute it.
        """
        return {}

    def presentation(self, data: Any) -> Presentation | None:
        """The game's look in reports and replays over the loaded data pack ``data``; None: no map."""
        return None

    def describe(self, action: Action) -> str:
        """A short human text for an action (prompts and reports): ``move 2-rtr 7``."""
        words = [str(action.get("action", "?")).replace("_", " ")]
        flags = []  # booleans in words ("air yes"), never Python's True/False; an absent value (None) is left out
        for key, value in action.items():
            if key == "action" or value is None:
                continue
            if isinstance(value, bool):
                flags.append(f"{key.replace('_', ' ')} {'yes' if value else 'no'}")
            else:
                words.append(", ".join(map(str, value)) if isinstance(value, list) else str(value))
        return " ".join(words) + (f": {', '.join(flags)}" if flags else "")

    def assert_invariants(self, state: S) -> None:
        """Raise AssertionError if ``state`` breaks an invariant (used by tests and fuzzing)."""
