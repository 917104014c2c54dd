"""The rules-engine contract: what a game module provides, and the state model it works on.

A game is a :class:`Ruleset` registered under an id. The engine (``pbem.replay``) drives it; a module never
touches the log, keys or dice derivation. The contract, in the spirit of Rally the Troops and
python-chess:

* ``setup`` builds the initial :class:`GameState` from scenario, options, roster and data pack.
* ``to_act`` names the seats the game waits for. Dice, openings of hidden slots and re-seals are waited for
  by the engine itself, from the state's ``rolls`` and ``hidden`` fields.
* ``actions`` (contract v2) declares the game's actions as :class:`ActionModel` classes (frozen, no extra
  fields, strict types), a union discriminated on ``action``. The wire form stays the canonical JSON object.
  The engine's first rules step, :meth:`Ruleset.parse_action`, turns a logged object into its model; any
  shape or type error is R004 naming the field (``assault: areas.0: Input should be a valid string``), so
  rules code never sees a malformed action and never re-checks field sets by hand.
* ``contains`` (v2) decides whether ONE parsed action is legal now, citing the rule when it is not; the
  replay asks it for every logged action instead of enumerating the legal set. An action whose secret
  fields the replaying party cannot see reaches it without them (``unseen`` names them); the end-of-game
  audit checks the exact values.
* ``legal_actions`` enumerates every legal atomic action of a seat as a JSON object, for prompts and
  ``pbem legal``. It must agree with ``contains`` (the conformance suite, :mod:`pbem.kit.conformance`,
  checks it on every reachable state). ``choices`` presents the same set as a tree (action kind, then each
  field, then its values, with human ``label`` s; groups such as stacks are marked on its branches).
* ``check`` explains a refusal of a JSON object. v1 games (no ``actions``) implement ``check`` and get
  ``contains`` by membership in ``legal_actions``; v2 games implement ``contains`` and get ``check``.
* ``apply`` and ``resume`` return a new state and structured :class:`Event` s that cite rule numbers.
  ``apply`` receives the parsed action (the model); :meth:`Ruleset.typed` lets tests pass JSON objects.
* ``view`` redacts the state for one seat (fog of war); ``result`` says who won.

The engine calls a module only through :class:`pbem.replay.guard.GuardedRuleset`: an exception a module
raises (other than a :class:`~pbem.errors.PbemError`) becomes one R009 finding naming the entry, never a
traceback. A module should still never raise on a well-formed action: it refuses with a :class:`Verdict`.

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

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Generic, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    model_serializer,
)

from pbem.errors import ActionError, PbemError

if TYPE_CHECKING:
    from pbem.rules.presentation import Presentation

__all__ = [
    "ALLOW",
    "OBSERVER",
    "OMNISCIENT",
    "Action",
    "ActionModel",
    "Branch",
    "Choices",
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
    "listed",
    "shown",
    "updated",
]

Action = dict[str, Any]
"""An atomic action: a JSON object whose ``"action"`` field names it, e.g. ``{"action": "pass"}``."""


class ActionModel(BaseModel):
    """The base of a typed action (contract v2): frozen, no extra fields, strict types.

    A subclass names its action with a Literal, ``action: Literal["move"] = "move"``, and declares its fields
    in the order of the wire form, with a ``title`` (and a ``description`` if useful) for prompts::

        class Move(ActionModel):
            \"\"\"Move a block to an adjacent hex.\"\"\"
            action: Literal["move"] = "move"
            block: str = Field(title="block")
            to: str = Field(title="to hex")

    A field whose value is secret (:meth:`Ruleset.secret_fields`) must have the default None: the logged form
    leaves it out. Array fields are lists (the wire form's type; strict validation keeps them so).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, defer_build=True)

    def wire(self) -> Action:
        """The canonical JSON object of this action (``action`` first, unset secret fields left out)."""
        return {"action": getattr(self, "action"), **self.model_dump(exclude_unset=True)}  # noqa: B009


OBSERVER = "@observer"
"""The viewer with no seat: sees only public information."""
OMNISCIENT = "@all"
"""The viewer that sees everything the replaying party knows (after full disclosure: everything)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


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
M = TypeVar("M", bound=BaseModel)
_new = object.__new__
_set = object.__setattr__


def updated(model: M, changes: Mapping[str, Any]) -> M:
    """``model.model_copy(update=changes)``: the same new object (fields, fields set), built directly.

    Every transition of a game copies its frozen state once or more; pydantic's generic copy (``copy.copy`` of each
    of its four slots) costs about twice this. Like ``model_copy``, nothing is validated. A model with extra or
    private attributes takes pydantic's own path.
    """
    if model.__pydantic_extra__ is not None or model.__pydantic_private__ is not None:
        return model.model_copy(update=changes)
    new = _new(type(model))
    _set(new, "__dict__", {**model.__dict__, **changes})
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_fields_set__", model.__pydantic_fields_set__ | changes.keys())
    _set(new, "__pydantic_private__", None)
    return new


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
        return updated(self, {"hidden": {**self.hidden, name: slot}})

    def with_opening(self: S, *names: str) -> S:
        """Require the owners to open ``names`` before the game goes on."""
        hidden = dict(self.hidden)
        for name in names:
            hidden[name] = updated(hidden[name], {"must_open": True})
        return updated(self, {"hidden": hidden})

    def with_rolls(self: S, *requests: RollRequest) -> S:
        """Ask for ``requests`` (after any already pending), resolved and resumed one at a time in order."""
        pending = (*self.pending_rolls, *requests)
        return updated(self, {"rolls": pending[0] if pending else None, "extra_rolls": pending[1:]})

    def without_first_roll(self: S) -> S:
        """The state once its first pending request has resolved (the engine's, before ``resume``)."""
        rest = self.pending_rolls[1:]
        return updated(self, {"rolls": rest[0] if rest else None, "extra_rolls": rest[1:]})

    def with_deck(self: S, request: DeckRequest) -> S:
        return updated(self, {"deck": request})


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


class Branch(_Frozen):
    """One branch of a :class:`Choices` tree: the value chosen at this level, its human label, and what follows.

    ``value`` is the JSON value the field takes (the action name at the top level). ``then`` is the next
    field's choices; None ends a complete action, which ``action`` then holds as its wire form. ``group``
    collects sibling branches that belong together (the units of one stack, the areas of one front), so a
    prompt can offer "the whole group" as one step.
    """

    value: Any
    label: str
    then: Choices | None = None
    action: dict[str, Any] | None = None
    group: str | None = None


class Choices(_Frozen):
    """The legal actions of a seat as a tree: the action kind, then each field in order, then its legal values.

    ``field`` names the field chosen at this level (``"action"`` at the root) and ``title`` says it for humans.
    """

    field: str
    title: str
    options: tuple[Branch, ...]

    def actions(self) -> list[dict[str, Any]]:
        """Every complete action in the tree, in order (the leaves)."""
        found: list[dict[str, Any]] = []
        for option in self.options:
            if option.action is not None:
                found.append(option.action)
            if option.then is not None:
                found.extend(option.then.actions())
        return found


Branch.model_rebuild()


def listed(action: Action, legal: Sequence[Action]) -> bool:
    """Whether ``action`` is in ``legal`` as JSON: Python's ``True == 1`` must not make ``true`` legal where
    ``1`` is (a cheap ``in`` first, then an exact comparison of the few matches)."""
    return action in legal and any(_same_json(action, a) for a in legal if a == action)


def _same_json(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


_ADAPTERS: dict[int, tuple[Any, TypeAdapter[Any]]] = {}


def _adapter(union: Any) -> TypeAdapter[Any]:
    """The validator of a ruleset's action union (built once per union).

    Found by the union's identity: hashing a union of 40 models (as a cache key) cost more than parsing an
    action; the union itself is kept with its adapter, so its id cannot be reused by another object.
    """
    found = _ADAPTERS.get(id(union))
    if found is None or found[0] is not union:
        found = _ADAPTERS[id(union)] = (union, TypeAdapter(Annotated[union, Field(discriminator="action")]))
    return found[1]


def shown(value: Any, limit: int = 120) -> str:
    """A logged value as its JSON text for a message (never a Python repr), cut to ``limit`` characters."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _where(loc: tuple[int | str, ...]) -> str:
    return ".".join(map(str, loc)) or "the action"


class Ruleset(ABC, Generic[S]):
    """A game module. Subclass, set the class attributes, implement the abstract methods, and register
    an instance under the ``pbem.games`` entry-point group."""

    id: ClassVar[str]
    name: ClassVar[str]
    version: ClassVar[str]
    scenarios: ClassVar[tuple[Scenario, ...]]
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    actions: ClassVar[Any] = None
    """The union of the game's :class:`ActionModel` classes, discriminated on ``action`` (contract v2).

    None: an untyped (v1) game, whose actions reach :meth:`check` and :meth:`apply` as JSON objects."""

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

    def parse_action(self, action: Action) -> Any:
        """The first rules step: the logged JSON object as the game's typed action (v1: the object itself).

        Raises:
            ActionError: R004 naming the field at fault if the object does not fit any action model.
        """
        name = action.get("action") if isinstance(action, dict) else None
        if not isinstance(name, str):
            raise ActionError("R004", f"action {shown(action)} has no action name")
        if self.actions is None:
            return action
        try:
            # the adapter's validator called directly: TypeAdapter.validate_python only adds its keyword plumbing
            return _adapter(self.actions).validator.validate_python(action, strict=True)
        except ValidationError as exc:
            error = exc.errors(include_url=False)[0]
            if error["type"] in ("union_tag_invalid", "union_tag_not_found"):
                raise ActionError("R004", f"{self.id} has no action “{name}”") from exc
            field = _where(tuple(error["loc"])[1:])
            raise ActionError("R004", f"{name}: {field}: {error['msg']}") from exc

    def typed(self, action: Any) -> Any:
        """``action`` as :meth:`parse_action` gives it: the engine passes parsed actions to :meth:`contains` and
        :meth:`apply`, and a v2 game calls this first so that tools and tests may pass JSON objects too."""
        return self.parse_action(action) if isinstance(action, dict) else action

    def contains(self, state: S, seat: str, action: Any, *, unseen: frozenset[str] = frozenset()) -> Verdict:
        """Whether the parsed ``action`` is legal for ``seat`` now, deciding this one action only.

        ``unseen`` names secret fields whose values the replaying party cannot see (they are absent from
        ``action``): the verdict then says whether the rest could be legal, and the end-of-game audit checks
        the exact values. This default (for v1 games) looks the action up in :meth:`legal_actions` and asks
        :meth:`check` for the reason of a refusal; a v2 game decides it directly, without enumerating.

        Raises:
            PbemError: R008 if :meth:`check` allows an action :meth:`legal_actions` does not list.
        """
        if type(self).check is Ruleset.check:
            raise TypeError(f"{type(self).__name__} must implement contains() or check()")
        wire = action.wire() if isinstance(action, ActionModel) else dict(action)
        legal = self.legal_actions(state, seat)
        if unseen:
            legal = [{k: v for k, v in a.items() if k not in unseen} for a in legal]
            wire = {k: v for k, v in wire.items() if k not in unseen}
        if listed(wire, legal):
            return ALLOW
        verdict = self.check(state, seat, wire)
        if verdict.ok:
            raise PbemError("R008", f"{self.id}: check() allows {wire} but legal_actions() does not list it")
        return verdict

    def check(self, state: S, seat: str, action: Action) -> Verdict:
        """Why the JSON object ``action`` is (il)legal; agrees with :meth:`legal_actions`.

        A v1 game implements it; the default (for v2 games) parses the action and asks :meth:`contains`.
        """
        if type(self).contains is Ruleset.contains:
            raise TypeError(f"{type(self).__name__} must implement contains() or check()")
        try:
            parsed = self.parse_action(action)
        except ActionError as exc:
            return Verdict(ok=False, reason="malformed", message=exc.message)
        return self.contains(state, seat, parsed)

    @abstractmethod
    def apply(self, state: S, seat: str, action: Any) -> Step[S]:
        """Apply a legal action, as :meth:`parse_action` returned it (v2: the typed model). The engine calls it
        only after :meth:`contains` allowed it."""

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

    def choices(self, state: S, seat: str) -> Choices:
        """The legal actions of ``seat`` as a tree (:class:`Choices`): action kind, then each field in order.

        This default groups :meth:`legal_actions` by action, then by the fields in the order of the action's
        model (or of the JSON object), labelling values with :meth:`label`. A game overrides it to mark groups
        (units stacked together, say), so that a prompt can offer a whole group as one step.
        """
        return _tree(self, state, self.legal_actions(state, seat), "action")

    def label(self, state: S, field: str, value: Any) -> str:
        """The human label of a field's value in prompts (``"7"`` -> ``"Area 7 (Halfaya Pass)"``).

        The default prints JSON values plainly (never a Python repr): a list as its items joined by commas; a
        game overrides it to name units and places from its data pack.
        """
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list):
            return ", ".join(self.label(state, field, v) for v in value)
        return str(value).replace("_", " ") if field == "action" else str(value)

    def field_title(self, action_name: str, field: str) -> str:
        """How a prompt names ``field`` of ``action_name``: the model field's title, else the field name."""
        model = self.action_model(action_name)
        info = None if model is None else model.model_fields.get(field)
        if info is not None and info.title:
            return info.title
        return field.replace("_", " ")

    def action_model(self, action_name: str) -> type[ActionModel] | None:
        """The model class of ``action_name`` (None for a v1 game or an unknown name)."""
        if self.actions is None:
            return None
        return _models(self.actions).get(action_name)

    def describe(self, action: Action) -> str:
        """A short human text for an action (prompts and reports): ``move 2-rtr 7``, its values in the order of
        the action's model (for an untyped game, of the JSON object); booleans in words (``air yes``), never
        Python's True/False, and an absent value (None) left out."""
        name = str(action.get("action", "?"))
        model = self.action_model(name)
        words = [name.replace("_", " ")]
        flags = []
        for key in model.model_fields if model is not None else action:
            value = action.get(key)
            if key == "action" or value is None:
                continue
            if isinstance(value, bool):
                flags.append(f"{key.replace('_', ' ')} {'yes' if value else 'no'}")
            else:
                words.append(", ".join(map(str, value)) if isinstance(value, list) else str(value))
        return " ".join(words) + (f": {', '.join(flags)}" if flags else "")

    def assert_invariants(self, state: S) -> None:
        """Raise AssertionError if ``state`` breaks an invariant (used by tests and fuzzing)."""


@cache
def _models(union: Any) -> dict[str, type[ActionModel]]:
    """The model classes of an action union, by action name."""
    found: dict[str, type[ActionModel]] = {}
    for model in getattr(union, "__args__", (union,)):
        default = model.model_fields["action"].default
        found[str(default)] = model
    return found


def _tree(ruleset: Ruleset[Any], state: Any, actions: list[Action], field: str) -> Choices:
    """The default :meth:`Ruleset.choices`: ``actions`` split by ``field``, then by the following fields."""
    branches: dict[str, list[Action]] = {}
    for action in actions:
        branches.setdefault(repr(action.get(field)), []).append(action)
    name = str(actions[0].get("action")) if actions and field != "action" else ""
    options = []
    for group in branches.values():
        value = group[0].get(field)
        rest = _next_field(ruleset, group[0], field)
        label = ruleset.label(state, field, value)
        if rest is None:
            options.append(Branch(value=value, label=label, action=group[0]))
        else:
            options.append(Branch(value=value, label=label, then=_tree(ruleset, state, group, rest)))
    title = "action" if field == "action" else ruleset.field_title(name, field)
    return Choices(field=field, title=title, options=tuple(options))


def _next_field(ruleset: Ruleset[Any], action: Action, field: str) -> str | None:
    """The field after ``field`` in ``action``'s model order (or its JSON order), None after the last."""
    model = ruleset.action_model(str(action.get("action")))
    order = [f for f in (model.model_fields if model is not None else action) if f in action]
    if field == "action":
        rest = [f for f in order if f != "action"]
        return rest[0] if rest else None
    position = order.index(field)
    return order[position + 1] if position + 1 < len(order) else None
