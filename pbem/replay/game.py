"""A game replayed from its log: the protocol's bookkeeping wrapped around the rules engine.

:class:`Game` is fed verified entries in file order (by :mod:`pbem.verify.pipeline`) and keeps everything
the protocol needs: each seat's feed, keys and dice chain, the open rolls, the hidden commitments, the
checkpoints owed, and the rules engine's state with its events. The ``check_*`` methods only read; only
:meth:`Game.apply` changes anything. Every refusal raises a :class:`~pbem.errors.PbemError` with its code.

Knowledge: a replaying party may know some seats' game secrets (its own, derived from its key; or every
disclosed one at audit). With a secret, the replay reads that seat's hidden values and checks its secret
choices and hidden transitions exactly; without it, only what the public log allows.

This module holds the core (set-up, queries, checks, the dispatch of :meth:`Game.apply`, and actions); each
kind of entry is applied by a function in :mod:`pbem.replay.rolls` (dice), :mod:`pbem.replay.hidden_info`
(hidden values) or :mod:`pbem.replay.seats` (joins, checkpoints, keys, resignations, claims, take-backs).
"""

from __future__ import annotations

import operator
import re
from collections import ChainMap
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import replace
from types import ModuleType
from typing import TYPE_CHECKING, Any

from pbem.errors import ActionError, LogFormatError, PbemError, SignatureError
from pbem.log.canon import check_value
from pbem.log.entry import ActionEntry, EntryType, Envelope, FeedEntry, GenesisEntry
from pbem.log.sign import PublicKey, key_id
from pbem.replay import hidden_info, rolls, seats
from pbem.replay.basics import (
    UNKNOWN,
    DataProvider,
    Knowledge,
    builtin_data,
    check_state,
    no_knowledge,
    replacement_statement,
    rotation_statement,
    state_hash,
)
from pbem.replay.books import (
    Await,
    Boundary,
    Claim,
    Commitment,
    LoggedEvent,
    PendingRoll,
    RollRecord,
    SeatBook,
    Undoable,
    UndoRequest,
)
from pbem.replay.guard import GuardedRuleset, Where
from pbem.replay.hidden_info import SealCursor
from pbem.rules import registry
from pbem.rules.contract import Action, Event, GameState, HiddenSlot, Result, Roster, RosterSeat, Step, shown, updated

if TYPE_CHECKING:
    from pbem.replay.decks import SharedDeck

__all__ = [
    "UNKNOWN",
    "DataProvider",
    "Game",
    "Knowledge",
    "SealCursor",
    "builtin_data",
    "check_state",
    "no_knowledge",
    "replacement_statement",
    "rotation_statement",
    "state_hash",
]

_MUST_OPEN = operator.attrgetter("must_open")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


class Game:
    """One game replayed from its log (see the module docstring)."""

    def __init__(
        self,
        env: Envelope,
        genesis: GenesisEntry,
        *,
        knowledge: Knowledge | None = None,
        data_provider: DataProvider = builtin_data,
        rules: bool = True,
    ):
        """Set up the replay from the genesis entry (already signature-checked).

        With ``rules=False`` only the protocol's chain bookkeeping runs (no game module is needed).

        Raises:
            PbemError: R005 unknown ruleset, R006 missing data pack, R007 bad scenario/roster/options,
            K004/K005 genesis not signed by a roster seat.
        """
        body = genesis.body
        self.id = env.id
        self.genesis = genesis
        self.rules = rules
        self.where = Where()  # the entry being replayed, for the messages of a module's bugs
        if rules:
            # every call into the module goes through this guard (pbem.replay.guard)
            self.ruleset = GuardedRuleset(registry.get(body.ruleset, body.version), self.where)
            raw = data_provider(self.ruleset, body.data)
            if raw is None:
                raise PbemError(
                    "R006",
                    f"data pack {body.data[:16]}… for {body.ruleset} is not available; pass it with --data",
                )
            self.data = self.ruleset.load_data(raw)
            self._check_roster()
        self.roster = Roster(seats=tuple(RosterSeat(seat=s.seat, team=s.team, role=s.role) for s in body.roster))
        self.seats: dict[str, SeatBook] = {}
        for seat in body.roster:
            self.seats[seat.seat] = SeatBook(seat.seat, seat.team, seat.role, PublicKey.from_hex(seat.key))
        creator = self.seats.get(genesis.author)
        if creator is None:
            raise SignatureError("K005", f"genesis author {genesis.author!r} is not in the roster")
        if creator.roster_key.id != genesis.kid:
            raise SignatureError("K004", "genesis is not signed with its author's roster key")
        self.knowledge = knowledge or no_knowledge
        # Append-only maps; a clone layers its own writes over them (ChainMap) instead of copying the history.
        self.entries: MutableMapping[str, tuple[int, str, int]] = {env.id: (1, genesis.author, -1)}  # line, author, seq
        self.clocks: MutableMapping[str, dict[str, int]] = {env.id: {}}
        self.feeds: MutableMapping[tuple[str, int], str] = {}
        self.count = 1
        self.state: GameState | None = None
        self._result_of: tuple[GameState, Result | None] | None = None  # the result of that state
        self._period_of: tuple[GameState, str] | None = None  # the checkpoint period of that state
        self.period: str | None = None
        self.events: list[LoggedEvent] = []
        self.rolls: list[RollRecord] = []
        self.pending: dict[str, PendingRoll] = {}
        self.commitments: MutableMapping[tuple[str, int], Commitment] = {}
        self.opened_round: list[str] = []
        self.checkpoints: dict[str, set[str]] = {}  # label → seats that signed
        self.finals: list[str] = []
        self.resignation: Result | None = None
        self.resigned: set[str] = set()  # seats that resigned from a game that went on (§3.6)
        self.line = 1
        self.last = (env.id, genesis.ts)  # the latest entry in file order, and its timestamp
        self.claims: list[Claim] = []
        self.undoable: Undoable | None = None  # the last action, if it may still be taken back
        self.undo_request: UndoRequest | None = None
        self.resolved: set[tuple[str, str]] = set()  # (roll key, seat) for every seed contributed
        self.echoed: set[str] = set()  # roll keys whose faces their mover has echoed
        # resolved public rolls whose faces their mover has not echoed yet, by key, in the order resolved: an
        # echo looks among these, not through every roll of the game (which made long logs quadratic)
        self.unechoed: dict[str, RollRecord] = {}
        self.decks: dict[str, SharedDeck] = {}  # shared hidden decks (PROTOCOL.md §14)

    # --- set-up ---------------------------------------------------------------------------------
    def _check_roster(self) -> None:
        body = self.genesis.body
        scenario = next((s for s in self.ruleset.scenarios if s.id == body.scenario), None)
        if scenario is None:
            known = ", ".join(s.id for s in self.ruleset.scenarios)
            raise PbemError("R007", f"{body.ruleset} has no scenario {body.scenario!r} (it has: {known})")
        players = {s.seat: s for s in body.roster if s.role == "player"}
        referees = [s.seat for s in body.roster if s.role == "referee"]
        if set(players) != {s.id for s in scenario.seats}:
            raise PbemError("R007", f"scenario {scenario.id} has seats {[s.id for s in scenario.seats]}")
        for spec in scenario.seats:
            if players[spec.id].team != spec.team:
                raise PbemError("R007", f"seat {spec.id} must be on team {spec.team!r}")
        if len({s.seat for s in body.roster}) != len(body.roster) or len({s.key for s in body.roster}) != len(
            body.roster
        ):
            raise PbemError("R007", "every seat needs its own name and its own key")
        dice = body.dice
        if dice.quorum == "referee" and (dice.referee is None or dice.referee not in referees):
            raise PbemError("R007", "a referee dice quorum needs a roster seat with role referee")
        if dice.quorum != "referee" and dice.referee is not None:
            raise PbemError("R007", "dice.referee is only meaningful with the referee quorum")
        # One team is a solitaire game (§6.4.1): the roster must still be exactly the scenario's seats.
        specs = {o.id: o for o in self.ruleset.options}
        if set(body.options) != set(specs):
            raise PbemError("R007", f"genesis must list exactly the options {sorted(specs)}")
        for name, value in body.options.items():
            option = specs[name]
            if option.choices is not None and value not in option.choices:
                raise PbemError("R007", f"option {name}={value!r} is not one of {list(option.choices)}")
            if option.choices is None and type(value) is not type(option.default):
                raise PbemError("R007", f"option {name} must be a {type(option.default).__name__}")

    # --- queries --------------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def result(self) -> Result | None:
        if self.resignation is not None:
            return self.resignation
        if self.state is None or not self.rules:
            return None
        # asked several times per entry: states are immutable, so the answer for the current one is kept
        if self._result_of is None or self._result_of[0] is not self.state:
            self._result_of = (self.state, self.ruleset.result(self.state))
        return self._result_of[1]

    def period_of(self, state: GameState) -> str:
        """The rules' checkpoint period of ``state`` (asked twice per action: kept for the latest state)."""
        if self._period_of is None or self._period_of[0] is not state:
            self._period_of = (state, self.ruleset.period(state))
        return self._period_of[1]

    def knows(self, seat: str, epoch: int | None = None) -> bool:
        book = self.seats[seat]
        if not book.epochs:
            return False
        return book.epochs[-1 if epoch is None else epoch].secret is not None

    def secret(self, seat: str, epoch: int) -> bytes:
        secret = self.seats[seat].epochs[epoch].secret
        assert secret is not None
        return secret

    def current_state_hash(self) -> str | None:
        return None if self.state is None else state_hash(self.state)

    def heads(self) -> dict[str, str]:
        return {s: b.head for s, b in sorted(self.seats.items()) if b.head is not None}

    def quorum(self, mover: str) -> list[str]:
        """The seats that answer ``mover``'s roll with a seed (§6.3); empty in a solitaire game."""
        dice = self.genesis.body.dice
        if dice.quorum == "referee":
            assert dice.referee is not None
            return [dice.referee]
        team = self.seats[mover].team
        others = [s for s in self.roster.players if self.seats[s].team != team and s not in self.resigned]
        if dice.quorum == "teams":  # the first seat of each opposing team in roster order (§6.3.1)
            first: dict[str, str] = {}
            for seat in others:
                first.setdefault(self.seats[seat].team, seat)
            return list(first.values())
        return others

    def awaiting(self) -> list[Await]:
        """Everything the game waits for, in the order a seat should do it."""
        waits: list[Await] = []
        for seat, book in self.seats.items():
            if not book.joined:
                waits.append(Await(seat, "join"))
            waits.extend(Await(seat, "checkpoint", b.label) for b in book.owed_checkpoints)
            waits.extend(Await(seat, "seal", f"{o.slot} v{o.ver}") for o in book.owed_seals)
        for roll in self.pending.values():
            waits.extend(Await(seat, "dice", roll.key) for seat in roll.awaiting)
        if self.decks:
            waits.extend(_decks().awaiting(self))
        if self.state is None:
            return waits
        opens = [(slot.owner, name) for name, slot in sorted(self.state.hidden.items()) if slot.must_open]
        waits.extend(Await(owner, "open", name) for owner, name in opens)
        if self.result is not None:
            waits.extend(Await(s, "disclose") for s in self.roster.players if not self.seats[s].disclosed)
        elif not self.pending and not opens and self.state.rolls is None and self.state.deck is None:
            waits.extend(Await(seat, "act") for seat in self.ruleset.to_act(self.state))
        return waits

    def waits_for_protocol(self) -> bool:
        """Whether the rules engine must wait for dice or openings before anyone acts.

        Owed re-seals do not block play: the rules fixed the new value, so only its commitment is late,
        and the owner's next entry must carry it.
        """
        assert self.state is not None
        return (
            bool(self.pending)
            or self.state.rolls is not None
            or self.state.deck is not None
            or any(map(_MUST_OPEN, self.state.hidden.values()))
        )

    def to_echo(self, seat: str) -> list[RollRecord]:
        """The resolved public rolls of ``seat`` whose faces it has not echoed yet."""
        return [r for r in self.unechoed.values() if r.mover == seat]

    def expected_checkpoint(self, seat: str) -> Boundary | None:
        owed = self.seats[seat].owed_checkpoints
        return owed[0] if owed else None

    # --- steps 2, 5-8 of the pipeline: checks that do not change anything -----------------------
    def key_for(self, env: Envelope) -> PublicKey:
        """The key that must have signed ``env`` (step 2).

        Raises:
            SignatureError: K005 unknown author, K004 a key that is not the author's current one.
        """
        book = self.seats.get(env.author) if isinstance(env.author, str) else None
        if book is None:
            raise SignatureError("K005", f"author {env.author!r} is not a seat of this game")
        if env.raw.get("type") == "key-replace":  # signed by the replacing key, authorised by co-signatures
            body = env.raw.get("body")
            new = body.get("key") if isinstance(body, dict) else None
            if isinstance(new, str) and _HEX64.match(new) and env.kid == key_id(bytes.fromhex(new)):
                return PublicKey.from_hex(new)
        if env.kid != book.key.id:
            retired = any(e.key.id == env.kid for e in book.epochs[:-1])
            why = "a rotated-out key" if retired else "a key that is not the seat's"
            raise SignatureError("K004", f"entry of {book.seat} signed with {why}")
        return book.key

    def check_binding(self, entry: FeedEntry) -> None:
        if entry.game != self.id:
            raise PbemError("C002", f"entry belongs to game {entry.game[:16]}…, not {self.id[:16]}…")

    def check_fork(self, env: Envelope, entry: FeedEntry) -> None:
        other = self.feeds.get((entry.author, entry.seq))
        if other is not None and other != env.id:
            raise PbemError("C006", f"fork: {entry.author} seq {entry.seq} is both {other} and {env.id}", entry=env.id)

    def check_chain(self, env: Envelope, entry: FeedEntry) -> None:
        book = self.seats[entry.author]
        if entry.seq != book.seq + 1:
            raise PbemError("C003", f"{entry.author} seq {entry.seq} where {book.seq + 1} is expected")
        expected_prev = self.id if book.head is None else book.head
        if entry.prev != expected_prev:
            raise PbemError("C004", f"{entry.author} seq {entry.seq}: prev is not the author's previous entry")
        if (entry.type == "join") != (entry.seq == 0):
            raise PbemError("C007", f"{entry.author}'s first entry must be its join, and only it")
        if entry.ts < book.ts:
            raise PbemError("C008", f"timestamp {entry.ts} is earlier than {entry.author}'s previous {book.ts}")

    def check_causal(self, entry: FeedEntry) -> None:
        if len(set(entry.deps)) != len(entry.deps):
            raise PbemError("C005", "deps lists an entry twice")
        for dep in entry.deps:
            if dep not in self.entries:
                raise PbemError("C005", f"dependency {dep[:16]}… is unknown or comes later in the file")
        if entry.type == "join" and self.id not in entry.deps:
            raise PbemError("C005", "a join must depend on the genesis")

    # --- step 9: apply ----------------------------------------------------------------------------
    def apply(self, env: Envelope, entry: FeedEntry, line: int) -> list[Event]:
        """Apply a checked entry: protocol, dice, hidden information, rules and checkpoints.

        Raises:
            PbemError: a D, H, P, R or C code. The game may then be half-updated: the caller stops
            applying entries (the pipeline only :meth:`record` s the rest), or applies to a :meth:`clone`.
        """
        self.line = line
        self.where.line, self.where.author, self.where.seq = line, entry.author, entry.seq
        book = self.seats[entry.author]
        clock = self._clock(entry)
        if entry.type not in ("join", "checkpoint"):
            self._check_owed(book, clock, entry)
        if entry.type not in ("undo-request", "undo-accept", "checkpoint"):
            # Anything else happening ends a take-back window (a checkpoint only co-signs an earlier boundary).
            self.undoable, self.undo_request = None, None
        events = _HANDLERS[entry.type](self, env, entry, book)
        if self.state is not None and self.state.deck is not None:  # a deck operation the rules just asked for
            events += _decks().advance(self, self._deck_trigger(env, entry), entry.author)
        self.record(env, entry, line, clock)
        seats.owe_checkpoints(self, entry)
        if events:
            self.events.extend([LoggedEvent(line, env.id, e) for e in events])
        return events

    def _deck_trigger(self, env: Envelope, entry: FeedEntry) -> str:
        """The id a deck operation started by ``entry`` builds on (§14.8). Joins are concurrent, so copies may
        hold them in different orders: a deck made at set-up builds on the join of the roster's last seat."""
        last = next(reversed(self.seats))
        if entry.type != "join" or entry.author == last or (last, 0) not in self.feeds:
            return env.id
        return self.feeds[(last, 0)]

    def record(self, env: Envelope, entry: FeedEntry, line: int, clock: dict[str, int] | None = None) -> None:
        """Enter ``entry`` into its author's feed without applying it (used once the replay has halted)."""
        self.entries[env.id] = (line, entry.author, entry.seq)
        if self.rules:  # causal clocks matter only to the protocol step, which --no-rules skips
            self.clocks[env.id] = self._clock(entry) if clock is None else clock
        self.feeds[(entry.author, entry.seq)] = env.id
        book = self.seats[entry.author]
        book.seq, book.head, book.ts = entry.seq, env.id, entry.ts
        book.clock = self.clocks.get(env.id, book.clock)
        self.count += 1
        self.last = (env.id, entry.ts)

    def _clock(self, entry: FeedEntry) -> dict[str, int]:
        clocks = self.clocks
        clock = dict(clocks.get(entry.prev, {}))  # the prev's clock, raised by each dependency's
        for parent in entry.deps:
            for seat, seq in clocks.get(parent, {}).items():
                if seq > clock.get(seat, -1):
                    clock[seat] = seq
        clock[entry.author] = entry.seq
        return clock

    def _check_owed(self, book: SeatBook, clock: dict[str, int], entry: FeedEntry) -> None:
        for boundary in book.owed_checkpoints:
            if clock.get(boundary.author, -1) >= boundary.seq:
                raise PbemError("P003", f"{book.seat} must co-sign checkpoint {boundary.label} first")
        if entry.type != "hidden":
            for owed in book.owed_seals:
                if clock.get(owed.author, -1) >= owed.seq:
                    raise PbemError("H005", f"{book.seat} must commit to {owed.slot} v{owed.ver} first")

    def require_play(self, entry: FeedEntry) -> GameState:
        if self.state is None:
            raise PbemError("C009", f"{entry.type} before every seat has joined")
        return self.state

    # action --------------------------------------------------------------------------------------
    def _apply_action(self, env: Envelope, entry: ActionEntry, book: SeatBook) -> list[Event]:
        state = self.require_play(entry)
        if self.result is not None:
            raise PbemError("C011", "action after the game has ended")
        if book.seat in self.resigned:
            raise PbemError("C014", f"{book.seat} has resigned and takes no further part in play")
        before, period = state, self.period
        rolls.check_echo(self, entry)
        seals = SealCursor(entry.body.sealed)
        events, _ = self.run_batch(book, entry.body.actions, seals)
        seals.finish()
        assert self.state is not None
        state = self.state
        declared = entry.body.rolls
        if state.rolls is None:
            if declared is not None:
                raise PbemError("D007", "the entry declares rolls the rules do not ask for")
        else:
            rolls.declare(self, env, entry, book, state.pending_rolls, declared)
        # An undo never crosses a roll, a hidden value or a period boundary: only such a plain action may be
        # taken back, and only until anything else happens.
        plain = declared is None and not entry.body.sealed and state.hidden == before.hidden and state.deck is None
        if plain and self.period_of(state) == period and self.result is None:
            self.undoable = Undoable(env.id, book.seat, before)
        return events

    def run_batch(
        self, book: SeatBook, actions: list[Action], seals: Any, *, plain: bool = False
    ) -> tuple[list[Event], list[Action]]:
        """Apply a batch of actions; ``seals`` gives or makes the commitments they need.

        The verifier passes the logged actions and a :class:`SealCursor`. A player's client passes
        ``plain=True`` with the actions as the player wrote them (secret values included) and a sealer
        that creates commitments, on a :meth:`clone`. Returns the events and the actions as logged.
        """
        state = self.state
        assert state is not None
        events: list[Event] = []
        logged: list[Action] = []
        for number, action in enumerate(actions):
            if self.waits_for_protocol() or book.seat not in self.ruleset.to_act(state):
                if number:
                    raise ActionError("R003", f"action {number + 1} comes after a point where {book.seat} must wait")
                raise ActionError("R002", f"the game is waiting for {self._waiting_text()}, not {book.seat}")
            state, step_events, as_logged = self._apply_one(state, book, action, seals, plain)
            events.extend(step_events)
            logged.append(as_logged)
            self.state = state
        return events, logged

    def _waiting_text(self) -> str:
        waits = [w.describe().removeprefix("waiting for ") for w in self.awaiting()]
        return ", ".join(waits) or "nobody"

    def _apply_one(
        self, state: GameState, book: SeatBook, action: Any, seals: Any, plain: bool
    ) -> tuple[GameState, tuple[Event, ...], Action]:
        name = action.get("action") if isinstance(action, dict) else None
        if not isinstance(name, str):
            raise ActionError("R004", f"action {shown(action)} has no action name")
        secret_fields = self._secret_fields(state, book.seat, action, plain)
        plain_action: Action | None = None
        if plain:
            try:
                check_value(action)
            except LogFormatError as exc:
                raise ActionError("R004", f"{name}: {exc.message}") from exc
            missing = sorted(set(secret_fields) - set(action))
            if missing:
                raise ActionError("R004", f"{name} needs its secret field {missing[0]!r}")
            plain_action, action = action, {k: v for k, v in action.items() if k not in secret_fields}
        exact: Action | None = action  # the action with its secret values, if this replay can see them
        values: dict[str, tuple[int, Any, bool]] = {}
        if secret_fields:  # (most actions have none: then nothing below is needed, nor a copy of the action)
            leaked = sorted(set(secret_fields) & set(action))
            if leaked:
                raise ActionError("R004", f"secret field {leaked[0]!r} of {name} must not be logged in clear")
            exact = dict(action)
        for field_name in sorted(secret_fields):
            slot = secret_fields[field_name]
            old = state.hidden.get(slot)
            ver = 0 if old is None else old.ver + 1
            item = seals.take(slot, ver, UNKNOWN if plain_action is None else plain_action[field_name])
            known, value = hidden_info.unseal(self, book, item)
            values[slot] = (ver, value, known)
            hidden_info.commit(self, book.seat, item)
            if exact is not None and known:
                exact[field_name] = value
            else:
                exact = None
        parsed = self._check_legal(state, book.seat, action, exact, secret_fields)
        before = state
        if values:
            hidden = dict(state.hidden)
            for slot, (ver, value, known) in values.items():
                hidden[slot] = HiddenSlot(owner=book.seat, ver=ver, value=value if known else None, known=known)
            state = updated(state, {"hidden": hidden})
        step: Step[Any] = self.ruleset.apply(state, book.seat, parsed)
        hidden_info.hidden_changes(self, before, step.state, book.seat, seals, skip=set(values))
        return step.state, step.events, action

    def _secret_fields(self, state: GameState, seat: str, action: Action, plain: bool) -> dict[str, str]:
        """The secret fields of ``action``, computed from its public fields only (PROTOCOL.md §7.3.1).

        A logged action holds only public fields. A player's own action (``plain``) holds the secret values
        too: the answer must not change once they are left out, or a verifier would compute another one.
        """
        fields = self.ruleset.secret_fields(state, seat, dict(action))
        if plain:
            public = {k: v for k, v in action.items() if k not in fields}
            if self.ruleset.secret_fields(state, seat, public) != fields:
                raise PbemError("R008", f"{self.ruleset.id}.secret_fields depends on a secret value")
        return fields

    def _check_legal(
        self, state: GameState, seat: str, logged: Action, plain: Action | None, secret: Mapping[str, str]
    ) -> Any:
        """Parse the action into the game's model (R004), then ask the rules whether it is legal (R001).

        Returns the parsed logged action, which is what ``apply`` gets (secret values live in their slots).
        Without the secret values, only the rest is checked now; the end-of-game audit checks them.
        """
        parsed = self.ruleset.parse_action(logged)
        if plain is not None:
            exact = parsed if not secret else self.ruleset.parse_action(plain)  # no secret: the logged action
            candidate, told, unseen = exact, plain, frozenset[str]()
        else:
            candidate, told, unseen = parsed, logged, frozenset(secret)
        verdict = self.ruleset.contains(state, seat, candidate, unseen=unseen)
        if not verdict.ok:
            rule = f"§{verdict.rule}" if verdict.rule else None
            what = self.ruleset.describe(told)  # formatted only on refusal: this is the hot path
            raise ActionError("R001", f"{seat}: {what} is illegal: {verdict.reason}: {verdict.message}", rule=rule)
        return parsed

    # --- copying ----------------------------------------------------------------------------------
    def clone(self) -> Game:
        """An independent copy (for what-if application and mutation sweeps)."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.where = replace(self.where)
        if self.rules:
            other.ruleset = self.ruleset.rebind(other.where)
        other.seats = {s: b.clone() for s, b in self.seats.items()}
        other.entries = ChainMap({}, self.entries)
        other.clocks = ChainMap({}, self.clocks)
        other.feeds = ChainMap({}, self.feeds)
        other.events = list(self.events)
        other.rolls = list(self.rolls)
        other.pending = {k: p.clone() for k, p in self.pending.items()}
        other.commitments = ChainMap({}, self.commitments)
        other.opened_round = list(self.opened_round)
        other.checkpoints = {k: set(v) for k, v in self.checkpoints.items()}
        other.finals = list(self.finals)
        other.claims = list(self.claims)
        other.resolved = set(self.resolved)
        other.resigned = set(self.resigned)
        other.echoed = set(self.echoed)
        other.unechoed = dict(self.unechoed)
        other.decks = {k: d.clone() for k, d in self.decks.items()}
        return other


def _decks() -> ModuleType:
    """:mod:`pbem.replay.decks`, imported when a game first uses a shared deck: most games never do, and the
    deck protocol's group arithmetic is not worth importing for them (CLI start time)."""
    from pbem.replay import decks

    return decks


_Handler = Callable[[Game, Envelope, Any, SeatBook], list[Event]]
"""Applies one type of entry (its entry parameter is that type's model) and returns its events."""

# Every feed entry type (all but the genesis, which sets the game up) and the function that applies it.
_HANDLERS: dict[str, _Handler] = {
    "join": seats.apply_join,
    "action": Game._apply_action,
    "reveal": rolls.apply_reveal,
    "hidden": hidden_info.apply_hidden,
    "checkpoint": seats.apply_checkpoint,
    "disclose": seats.apply_disclose,
    "key-rotate": seats.apply_key_rotate,
    "key-replace": seats.apply_key_replace,
    "resign": seats.apply_resign,
    "claim-timeout": seats.apply_claim_timeout,
    "undo-request": seats.apply_undo_request,
    "undo-accept": seats.apply_undo_accept,
    "deck-shuffle": lambda game, env, entry, book: _decks().apply_shuffle(game, env, entry, book),
    "deck-rekey": lambda game, env, entry, book: _decks().apply_rekey(game, env, entry, book),
    "deck-strip": lambda game, env, entry, book: _decks().apply_strip(game, env, entry, book),
    "deck-reveal": lambda game, env, entry, book: _decks().apply_reveal(game, env, entry, book),
}
assert set(_HANDLERS) == {t.value for t in EntryType} - {EntryType.GENESIS}
