"""A game replayed from its log: the protocol's bookkeeping wrapped around the rules engine.

:class:`Game` is fed verified entries in file order (by :mod:`pbem.verify.pipeline`) and keeps everything
the protocol needs: each seat's feed, keys and dice chain, the open rolls, the hidden commitments, the
checkpoints owed, and the rules engine's state with its events. The ``check_*`` methods only read; only
:meth:`Game.apply` changes anything. Every refusal raises a :class:`~pbem.errors.PbemError` with its code.

Knowledge: a replaying party may know some seats' game secrets (its own, derived from its key; or every
disclosed one at audit). With a secret, the replay reads that seat's hidden values and checks its secret
choices and hidden transitions exactly; without it, only what the public log allows.
"""

from __future__ import annotations

import hashlib
import operator
import re
from collections import ChainMap
from collections.abc import Callable, Mapping, MutableMapping
from datetime import datetime
from typing import Any

from pbem.errors import ActionError, LogFormatError, PbemError, SignatureError
from pbem.log import derive, hidden
from pbem.log.canon import canonical, check_value
from pbem.log.dice import SeedChain, faces, roll_seed, step_down
from pbem.log.entry import (
    ActionEntry,
    CheckpointEntry,
    ClaimTimeoutEntry,
    DiscloseEntry,
    Envelope,
    FeedEntry,
    GenesisEntry,
    HiddenEntry,
    JoinEntry,
    KeyReplaceEntry,
    KeyRotateEntry,
    ResignEntry,
    RevealEntry,
    RollDeclaration,
    Sealed,
    UndoAcceptEntry,
    UndoRequestEntry,
    pae,
)
from pbem.log.sign import PublicKey, key_id
from pbem.replay.books import (
    Await,
    Boundary,
    Claim,
    Commitment,
    Epoch,
    LoggedEvent,
    OwedSeal,
    PendingRoll,
    RollRecord,
    SeatBook,
    Undoable,
    UndoRequest,
)
from pbem.rules import registry
from pbem.rules.contract import (
    Action,
    Event,
    GameState,
    HiddenSlot,
    Outcome,
    Result,
    RollRequest,
    RollSpec,
    Roster,
    RosterSeat,
    Ruleset,
    Step,
)

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

Knowledge = Callable[[str, str, int, Epoch], bytes | None]
"""The game secret of (game id, seat, epoch number, the epoch's key and nonce), if the replaying party knows it
(its own, or disclosed)."""

UNKNOWN: Any = object()
"""A hidden value the replaying party cannot see."""


def no_knowledge(game: str, seat: str, number: int, epoch: Epoch) -> None:
    """The public verifier's knowledge: no secrets at all."""
    return None


DataProvider = Callable[[Ruleset[Any], str], bytes | None]
"""Finds the data pack with a given SHA-256 for a ruleset (None if unavailable)."""

END_LABEL = "end"
_MUST_OPEN = operator.attrgetter("must_open")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def builtin_data(ruleset: Ruleset[Any], sha: str) -> bytes | None:
    """The default provider: the ruleset's bundled pack, if it has that hash."""
    raw = ruleset.default_data()
    return raw if hashlib.sha256(raw).hexdigest() == sha else None


def state_hash(state: GameState) -> str:
    """SHA-256 of the public part of ``state``: unopened hidden values are left out."""
    dumped = state.model_dump(mode="json")
    dumped["hidden"] = {
        name: {
            "owner": slot.owner,
            "ver": slot.ver,
            "public": slot.public,
            "must_open": slot.must_open,
            **({"value": slot.value} if slot.public else {}),
        }
        for name, slot in state.hidden.items()
    }
    return hashlib.sha256(canonical(dumped)).hexdigest()


def check_state(state: GameState) -> None:
    """Check that a module's state is inside the JSON data model (no floats, no huge integers).

    States come from module code, not from players, so this guards against module bugs: the test suite runs
    it on every state of every play-out rather than the verifier on every checkpoint.

    Raises:
        PbemError: R008 if it is not.
    """
    try:
        check_value(state.model_dump(mode="json"))
    except LogFormatError as exc:
        raise PbemError("R008", f"the game state is not in the JSON data model: {exc.message}") from exc


def rotation_statement(game: str, seat: str, key: str, seq: int) -> bytes:
    """What a rotated-to key signs to prove possession (PROTOCOL.md §4.3)."""
    return pae("pbem/key-rotate/v1", canonical({"game": game, "seat": seat, "key": key, "seq": seq}))


def replacement_statement(game: str, seat: str, key: str, seq: int, prev: str) -> bytes:
    """What every other seat co-signs to replace a lost key (PROTOCOL.md §4.4)."""
    body = {"game": game, "seat": seat, "key": key, "seq": seq, "prev": prev}
    return pae("pbem/key-replace/v1", canonical(body))


class SealCursor:
    """Hands out a logged entry's ``sealed`` commitments in order, checking each against what is due."""

    def __init__(self, sealed: list[Sealed]):
        self._items = sealed
        self._next = 0

    def take(self, slot: str, ver: int, value: Any) -> Sealed:
        if self._next >= len(self._items):
            raise PbemError("H005", f"missing commitment to hidden slot {slot!r} version {ver}")
        item = self._items[self._next]
        if (item.slot, item.ver) != (slot, ver):
            raise PbemError("H005", f"commitment to {item.slot!r} v{item.ver} where {slot!r} v{ver} is due")
        self._next += 1
        return item

    def finish(self) -> None:
        if self._next != len(self._items):
            extra = self._items[self._next]
            raise PbemError("H005", f"commitment to {extra.slot!r} v{extra.ver} that the rules do not ask for")


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
        if rules:
            self.ruleset = registry.get(body.ruleset, body.version)
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
        self._knowledge = knowledge or no_knowledge
        # Append-only maps; a clone layers its own writes over them (ChainMap) instead of copying the history.
        self.entries: MutableMapping[str, tuple[int, str, int]] = {env.id: (1, genesis.author, -1)}  # line, author, seq
        self.clocks: MutableMapping[str, dict[str, int]] = {env.id: {}}
        self.feeds: MutableMapping[tuple[str, int], str] = {}
        self.count = 1
        self.state: GameState | None = None
        self.period: str | None = None
        self.events: list[LoggedEvent] = []
        self.rolls: list[RollRecord] = []
        self.pending: dict[str, PendingRoll] = {}
        self.commitments: MutableMapping[tuple[str, int], Commitment] = {}
        self.opened_round: list[str] = []
        self.checkpoints: dict[str, set[str]] = {}  # label → seats that signed
        self.finals: list[str] = []
        self.resignation: Result | None = None
        self.line = 1
        self.last = (env.id, genesis.ts)  # the latest entry in file order, and its timestamp
        self.claims: list[Claim] = []
        self.undoable: Undoable | None = None  # the last action, if it may still be taken back
        self.undo_request: UndoRequest | None = None
        self.resolved: set[tuple[str, str]] = set()  # (roll key, seat) for every seed contributed
        self.echoed: set[str] = set()  # roll keys whose faces their mover has echoed

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
        if dice.quorum == "opponents" and dice.referee is not None:
            raise PbemError("R007", "dice.referee is only meaningful with the referee quorum")
        if len({players[p].team for p in players}) < 2:
            raise PbemError("R007", "a game needs at least two teams")
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
        return None if self.state is None or not self.rules else self.ruleset.result(self.state)

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
        dice = self.genesis.body.dice
        if dice.quorum == "referee":
            assert dice.referee is not None
            return [dice.referee]
        team = self.seats[mover].team
        return [s for s in self.roster.players if self.seats[s].team != team]

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
        if self.state is None:
            return waits
        opens = [(slot.owner, name) for name, slot in sorted(self.state.hidden.items()) if slot.must_open]
        waits.extend(Await(owner, "open", name) for owner, name in opens)
        if self.result is not None:
            waits.extend(Await(s, "disclose") for s in self.roster.players if not self.seats[s].disclosed)
        elif not self.pending and not opens and self.state.rolls is None:
            waits.extend(Await(seat, "act") for seat in self.ruleset.to_act(self.state))
        return waits

    def waits_for_protocol(self) -> bool:
        """Whether the rules engine must wait for dice or openings before anyone acts.

        Owed re-seals do not block play: the rules fixed the new value, so only its commitment is late,
        and the owner's next entry must carry it.
        """
        assert self.state is not None
        return bool(self.pending) or self.state.rolls is not None or any(map(_MUST_OPEN, self.state.hidden.values()))

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
        book = self.seats[entry.author]
        clock = self._clock(entry)
        if entry.type not in ("join", "checkpoint"):
            self._check_owed(book, clock, entry)
        if entry.type not in ("undo-request", "undo-accept", "checkpoint"):
            # Anything else happening ends a take-back window (a checkpoint only co-signs an earlier boundary).
            self.undoable, self.undo_request = None, None
        handler = getattr(self, f"_apply_{entry.type.replace('-', '_')}")
        events: list[Event] = handler(env, entry, book)
        self.record(env, entry, line, clock)
        self._owe_checkpoints(entry)
        self.events.extend(LoggedEvent(line, env.id, e) for e in events)
        return events

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
        clock: dict[str, int] = {}
        for parent in (entry.prev, *entry.deps):
            for seat, seq in self.clocks.get(parent, {}).items():
                clock[seat] = max(clock.get(seat, -1), seq)
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

    def _require_play(self, entry: FeedEntry) -> GameState:
        if self.state is None:
            raise PbemError("C009", f"{entry.type} before every seat has joined")
        return self.state

    # join ----------------------------------------------------------------------------------------
    def _apply_join(self, env: Envelope, entry: JoinEntry, book: SeatBook) -> list[Event]:
        if book.joined:
            raise PbemError("C007", f"{book.seat} joins twice")
        body = entry.body
        epoch = Epoch(book.roster_key, bytes.fromhex(body.anchor), bytes.fromhex(body.nonce), next_key=body.next_key)
        self._learn_secret(book.seat, 0, epoch)
        book.epochs.append(epoch)
        if all(b.joined for b in self.seats.values()):
            state = self.ruleset.setup(self.genesis.body.scenario, self.genesis.body.options, self.roster, self.data)
            if state.rolls is not None or any(s.must_open for s in state.hidden.values()):
                raise PbemError("R008", f"{self.ruleset.id}.setup asks for dice or openings")
            self.state = state
            self.period = self.ruleset.period(state)
            return [Event(kind="game_started", text=f"{self.ruleset.name}: every seat has joined")]
        return []

    def _learn_secret(self, seat: str, epoch_no: int, epoch: Epoch) -> None:
        secret = self._knowledge(self.id, seat, epoch_no, epoch)
        if secret is None:
            return
        chain = SeedChain(derive.chain_top(secret), self.id, seat, epoch_no, self.genesis.body.dice.chain)
        if chain.anchor == epoch.anchor:
            epoch.secret = secret  # a secret is trusted only if it reproduces the committed anchor

    # action --------------------------------------------------------------------------------------
    def _apply_action(self, env: Envelope, entry: ActionEntry, book: SeatBook) -> list[Event]:
        state = self._require_play(entry)
        if self.result is not None:
            raise PbemError("C011", "action after the game has ended")
        before, period = state, self.period
        self._check_echo(entry)
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
            self._declare(env, entry, book, state.rolls, declared)
        # An undo never crosses a roll, a hidden value or a period boundary: only such a plain action may be
        # taken back, and only until anything else happens.
        plain = declared is None and not entry.body.sealed and state.hidden == before.hidden
        if plain and self.ruleset.period(state) == period and self.result is None:
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
            raise ActionError("R004", f"action {action!r} has no action name")
        secret_fields = self.ruleset.secret_fields(state, book.seat, name)
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
        leaked = sorted(set(secret_fields) & set(action))
        if leaked:
            raise ActionError("R004", f"secret field {leaked[0]!r} of {name} must not be logged in clear")
        exact: Action | None = dict(action)  # the action with its secret values, if this replay can see them
        values: dict[str, tuple[int, Any, bool]] = {}
        for field_name in sorted(secret_fields):
            slot = secret_fields[field_name]
            old = state.hidden.get(slot)
            ver = 0 if old is None else old.ver + 1
            item = seals.take(slot, ver, UNKNOWN if plain_action is None else plain_action[field_name])
            known, value = self._unseal(book, item)
            values[slot] = (ver, value, known)
            self._commit(book.seat, item)
            if exact is not None and known:
                exact[field_name] = value
            else:
                exact = None
        self._check_legal(state, book.seat, action, exact, secret_fields)
        before = state
        if values:
            hidden = dict(state.hidden)
            for slot, (ver, value, known) in values.items():
                hidden[slot] = HiddenSlot(owner=book.seat, ver=ver, value=value if known else None, known=known)
            state = state.model_copy(update={"hidden": hidden})
        step: Step[Any] = self.ruleset.apply(state, book.seat, dict(action))
        self._hidden_changes(before, step.state, book.seat, seals, skip=set(values))
        return step.state, step.events, action

    def _check_legal(
        self, state: GameState, seat: str, logged: Action, plain: Action | None, secret: Mapping[str, str]
    ) -> None:
        legal = self.ruleset.legal_actions(state, seat)
        if plain is not None:
            if _listed(plain, legal):
                return
            candidate = plain
        else:
            # the verifier cannot see the secret values: check the redacted form now, the rest at audit
            redacted = [{k: v for k, v in a.items() if k not in secret} for a in legal]
            if _listed(logged, redacted):
                return
            candidate = logged
        verdict = self.ruleset.check(state, seat, candidate)
        if verdict.ok:
            raise PbemError(
                "R008", f"{self.ruleset.id}: check() allows {candidate} but legal_actions() does not list it"
            )
        rule = f"§{verdict.rule}" if verdict.rule else None
        raise ActionError("R001", f"{seat}: {candidate} is illegal: {verdict.reason}: {verdict.message}", rule=rule)

    def _unseal(self, book: SeatBook, item: Sealed) -> tuple[bool, Any]:
        """The sealed value (known, value) if the replaying party can open it; checks it at audit."""
        epoch_no = len(book.epochs) - 1
        if not self.knows(book.seat, epoch_no):
            return False, None
        secret = self.secret(book.seat, epoch_no)
        try:
            value = hidden.unseal(derive.seal_key(secret, item.slot, item.ver), item.enc, item.commit)
        except ValueError as exc:
            raise PbemError("H007", f"{book.seat}'s sealed value of {item.slot} v{item.ver} does not decrypt") from exc
        salt = derive.salt(secret, item.slot, item.ver)
        if hidden.commit_value(self.id, book.seat, item.slot, item.ver, salt, value) != item.commit:
            raise PbemError("H007", f"{book.seat}'s sealed value of {item.slot} v{item.ver} is not the committed one")
        return True, value

    def _commit(self, owner: str, item: Sealed) -> None:
        epoch = len(self.seats[owner].epochs) - 1
        self.commitments[(item.slot, item.ver)] = Commitment(owner, item.slot, item.ver, item.commit, item.enc, epoch)

    def _hidden_changes(self, before: GameState, after: GameState, author: str, seals: Any, skip: set[str]) -> None:
        """Commitments for every slot the rules changed: the acting owner's ``seals`` carry them now;
        any other owner owes them in its next entry (``seals`` is None when the change came from dice
        or openings, where the entry's author has nothing to seal with)."""
        if after.hidden is before.hidden:
            return
        if any(not before.hidden[name].public for name in before.hidden.keys() - after.hidden.keys()):
            raise PbemError("R008", f"{self.ruleset.id} removed a hidden slot that was never opened")
        changed = [
            name
            for name, slot in after.hidden.items()
            if (old := before.hidden.get(name)) is not slot and (old is None or old.ver != slot.ver)
        ]
        for name in sorted(changed):
            slot = after.hidden[name]
            if name in skip:
                continue
            if seals is not None and slot.owner == author:
                item = seals.take(name, slot.ver, slot.value if slot.known else UNKNOWN)
                self._check_transition(slot, item)
                self._commit(slot.owner, item)
            else:
                seq = self.seats[author].seq + 1  # the entry being applied
                self.seats[slot.owner].owed_seals.append(OwedSeal(name, slot.ver, author, seq))

    def _check_transition(self, slot: HiddenSlot, item: Sealed) -> None:
        """At audit (the owner's secret known), the committed value must be the one the rules produced."""
        owner = self.seats[slot.owner]
        epoch_no = len(owner.epochs) - 1
        if not slot.known or not self.knows(slot.owner, epoch_no):
            return
        salt = derive.salt(self.secret(slot.owner, epoch_no), item.slot, item.ver)
        if hidden.commit_value(self.id, slot.owner, item.slot, item.ver, salt, slot.value) != item.commit:
            raise PbemError(
                "H002",
                f"{slot.owner} committed {item.slot} v{item.ver} to another value than the rules produce",
            )

    # dice ----------------------------------------------------------------------------------------
    def _declare(
        self,
        env: Envelope,
        entry: ActionEntry,
        book: SeatBook,
        request: RollRequest,
        declared: RollDeclaration | None,
    ) -> None:
        if declared is None:
            raise PbemError("D007", "the rules need dice here but the entry declares none")
        wanted = [r.model_dump() for r in request.rolls]
        if [r.model_dump() for r in declared.rolls] != wanted or (declared.owner, declared.slot) != (
            request.owner,
            request.slot,
        ):
            raise PbemError("D007", f"declared rolls differ from what the rules need: {wanted}")
        if request.owner is not None and request.owner != book.seat:
            raise PbemError("R008", f"{self.ruleset.id} asks for a private draw owned by another seat")
        if (declared.commit is None) != (request.owner is None):
            raise PbemError("D007", "a private draw needs its owner's commitment, and only it")
        self._take_seed(book, declared.index, declared.seed)
        roll = PendingRoll(
            key=env.id,
            line=self.line,
            mover=book.seat,
            request=request,
            awaiting=self.quorum(book.seat),
            seeds={book.seat: declared.seed},
            commit=declared.commit,
        )
        if request.owner is not None:
            assert request.slot is not None and declared.commit is not None and self.state is not None
            old = self.state.hidden.get(request.slot)
            roll.ver = 0 if old is None else old.ver + 1
            epoch_no = len(book.epochs) - 1
            if self.knows(book.seat, epoch_no):
                secret = derive.draw_secret(self.secret(book.seat, epoch_no), request.slot, roll.ver)
                if hidden.commit_draw(self.id, book.seat, request.slot, roll.ver, secret) != declared.commit:
                    raise PbemError("H003", f"{book.seat}'s private draw commitment is not its derived secret")
        self.pending[env.id] = roll

    def _take_seed(self, book: SeatBook, index: int, seed_hex: str) -> None:
        epoch = book.epoch
        if epoch.index >= self.genesis.body.dice.chain:
            raise PbemError("D008", f"{book.seat}'s dice chain is exhausted")
        if index != epoch.index + 1:
            raise PbemError("D002", f"{book.seat} reveals chain index {index} where {epoch.index + 1} is next")
        seed = bytes.fromhex(seed_hex)
        if step_down(self.id, book.seat, len(book.epochs) - 1, index, seed) != epoch.element:
            raise PbemError("D003", f"{book.seat}'s seed {index} does not hash to its previous chain element")
        epoch.index, epoch.element = index, seed

    def _apply_reveal(self, env: Envelope, entry: RevealEntry, book: SeatBook) -> list[Event]:
        self._require_play(entry)
        body = entry.body
        if body.for_ not in entry.deps:
            raise PbemError("D004", "a reveal must depend on the roll it answers")
        if (body.for_, book.seat) in self.resolved:
            raise PbemError("D005", f"{book.seat} has already revealed for this roll")
        roll = self.pending.get(body.for_)
        if roll is None or book.seat not in roll.awaiting:
            raise PbemError("D001", f"no open roll waits for {book.seat}'s seed")
        self._take_seed(book, body.index, body.seed)
        self.resolved.add((body.for_, book.seat))
        roll.awaiting.remove(book.seat)
        roll.seeds[book.seat] = body.seed
        if roll.awaiting:
            return []
        return self._resolve(env, entry.author, roll)

    def _resolve(self, env: Envelope, author: str, roll: PendingRoll) -> list[Event]:
        assert self.state is not None
        del self.pending[roll.key]
        request = roll.request
        groups = [(r.sides, r.n) for r in request.rolls]
        state = self.state.model_copy(update={"rolls": None})
        if request.owner is None:
            drawn = faces(roll_seed(self.id, roll.key, roll.seeds), groups)
            dice = {r.id: tuple(f) for r, f in zip(request.rolls, drawn, strict=True)}
            self.rolls.append(RollRecord(self.id, roll.key, self.line, roll.mover, request, dict(roll.seeds), dice))
            events = [_dice_event(roll.mover, request, dice)]
            outcome = Outcome(dice=dice)
        else:
            assert request.slot is not None and roll.commit is not None
            owner = self.seats[request.owner]
            epoch_no = len(owner.epochs) - 1
            value: dict[str, list[int]] | None = None
            secret_hex = None
            if self.knows(request.owner, epoch_no):
                secret = derive.draw_secret(self.secret(request.owner, epoch_no), request.slot, roll.ver)
                secret_hex = secret.hex()
                value = _draw_value(request, roll_seed(self.id, roll.key, roll.seeds, secret_hex))
            state = state.with_hidden(request.slot, request.owner, value, known=value is not None)
            self.commitments[(request.slot, roll.ver)] = Commitment(
                request.owner, request.slot, roll.ver, roll.commit, None, epoch_no, roll.clone()
            )
            dice_known = None if value is None else {k: tuple(v) for k, v in value.items()}
            self.rolls.append(
                RollRecord(
                    self.id,
                    roll.key,
                    self.line,
                    roll.mover,
                    request,
                    dict(roll.seeds),
                    dice_known,
                    secret_hex,
                )
            )
            events = [
                Event(
                    kind="private_draw_made",
                    seat=request.owner,
                    data={"slot": request.slot, "rolls": [r.id for r in request.rolls]},
                    text=f"{request.owner} made a private draw ({', '.join(r.purpose for r in request.rolls)})",
                )
            ]
            outcome = Outcome(drawn=request.slot)
        before = state
        step: Step[Any] = self.ruleset.resume(state, outcome)
        self.state = step.state
        self._hidden_changes(before, step.state, author, None, skip=set())
        if step.state.rolls is not None:  # a roll that follows from the last one, with no decision between
            self._chain_roll(env, roll.mover, step.state.rolls)
        return [*events, *step.events]

    def _chain_roll(self, env: Envelope, mover: str, request: RollRequest) -> None:
        if request.owner is not None:
            raise PbemError("R008", f"{self.ruleset.id} chains a private draw to a roll")
        awaiting = sorted({mover, *self.quorum(mover)})
        self.pending[env.id] = PendingRoll(env.id, self.line, mover, request, awaiting, {})

    def to_echo(self, seat: str) -> list[RollRecord]:
        """The resolved public rolls of ``seat`` whose faces it has not echoed yet."""
        return [r for r in self.rolls if r.mover == seat and r.request.owner is None and r.entry not in self.echoed]

    def _check_echo(self, entry: ActionEntry) -> None:
        if not entry.body.echo:
            return
        records = {r.entry: r for r in self.to_echo(entry.author)}
        for echo in entry.body.echo:
            record = records.get(echo.for_)
            if record is None or record.faces is None:
                raise PbemError("D006", f"echo of an unknown, unresolved or already echoed roll {echo.for_[:16]}…")
            expected = [f for group in record.faces.values() for f in group]
            if echo.faces != expected:
                raise PbemError("D006", f"echoed faces {echo.faces} differ from the derivation {expected}")
            self.echoed.add(echo.for_)

    # hidden --------------------------------------------------------------------------------------
    def _apply_hidden(self, env: Envelope, entry: HiddenEntry, book: SeatBook) -> list[Event]:
        state = self._require_play(entry)
        if not entry.body.opened and not entry.body.sealed:
            raise PbemError("H006", "an empty hidden entry")
        for item in entry.body.sealed:
            owed = next((o for o in book.owed_seals if (o.slot, o.ver) == (item.slot, item.ver)), None)
            if owed is None:
                raise PbemError("H005", f"commitment to {item.slot} v{item.ver} that nobody owes")
            book.owed_seals.remove(owed)
            self._check_transition(state.hidden[item.slot], item)
            self._commit(book.seat, item)
            known, value = self._unseal(book, item)
            if known and not state.hidden[item.slot].known:
                slot = state.hidden[item.slot].model_copy(update={"value": value, "known": True})
                state = state.model_copy(update={"hidden": {**state.hidden, item.slot: slot}})
        events: list[Event] = []
        hidden_slots = dict(state.hidden)
        for opening in entry.body.opened:
            asked = hidden_slots.get(opening.slot)
            if asked is None or asked.owner != book.seat or not asked.must_open:
                raise PbemError("H006", f"{book.seat} opens {opening.slot}, which the rules do not ask it to open")
            value = self._check_opening(book.seat, asked, opening.slot, opening)
            hidden_slots[opening.slot] = asked.model_copy(
                update={"value": value, "known": True, "public": True, "must_open": False}
            )
            self.opened_round.append(opening.slot)
            events.append(
                Event(
                    kind="hidden_opened",
                    seat=book.seat,
                    data={"slot": opening.slot, "value": value},
                    text=f"{book.seat} opened {opening.slot}",
                )
            )
        state = state.model_copy(update={"hidden": hidden_slots})
        self.state = state
        if self.opened_round and not any(s.must_open for s in state.hidden.values()):
            opened, self.opened_round = tuple(self.opened_round), []
            step: Step[Any] = self.ruleset.resume(state, Outcome(opened=opened))
            self.state = step.state
            self._hidden_changes(state, step.state, book.seat, None, skip=set())
            if step.state.rolls is not None:
                raise PbemError("R008", f"{self.ruleset.id} asks for dice right after an opening")
            events.extend(step.events)
        return events

    def _check_opening(self, owner: str, slot: HiddenSlot, name: str, opening: Any) -> Any:
        commitment = self.commitments.get((name, slot.ver))
        if opening.ver != slot.ver or commitment is None:
            raise PbemError("H001", f"opening of {name} v{opening.ver} where v{slot.ver} is committed")
        if commitment.draw is None:
            if opening.salt is None:
                raise PbemError("H001", f"opening of {name} lacks its salt")
            salt = bytes.fromhex(opening.salt)
            if hidden.commit_value(self.id, owner, name, slot.ver, salt, opening.value) != commitment.commit:
                raise PbemError("H001", f"opening of {name} v{slot.ver} does not match its commitment")
            return opening.value
        if opening.secret is None:
            raise PbemError("H003", f"opening of private draw {name} lacks its secret")
        secret = bytes.fromhex(opening.secret)
        if hidden.commit_draw(self.id, owner, name, slot.ver, secret) != commitment.commit:
            raise PbemError("H003", f"private draw secret of {name} does not match its commitment")
        roll = commitment.draw
        value = _draw_value(roll.request, roll_seed(self.id, roll.key, roll.seeds, opening.secret))
        return value

    # checkpoints ---------------------------------------------------------------------------------
    def _owe_checkpoints(self, entry: FeedEntry) -> None:
        if self.state is None or entry.type in ("checkpoint", "disclose"):
            return
        label = END_LABEL if self.result is not None else self.ruleset.period(self.state)
        if label == self.period or (label == END_LABEL and END_LABEL in self.checkpoints):
            return
        done = self.period if label != END_LABEL else END_LABEL
        assert done is not None
        if done in self.checkpoints:
            raise PbemError("R008", f"{self.ruleset.id} repeats the checkpoint period {done!r}")
        self.period = label
        body = {"label": done, "state": state_hash(self.state), "heads": self.heads(), "entries": self.count}
        self.checkpoints[done] = set()
        for book in self.seats.values():
            book.owed_checkpoints.append(Boundary(done, entry.author, entry.seq, body))

    def expected_checkpoint(self, seat: str) -> Boundary | None:
        owed = self.seats[seat].owed_checkpoints
        return owed[0] if owed else None

    def _apply_checkpoint(self, env: Envelope, entry: CheckpointEntry, book: SeatBook) -> list[Event]:
        boundary = self.expected_checkpoint(book.seat)
        body = entry.body
        if boundary is None or boundary.label != body.label:
            raise PbemError("P004", f"{book.seat} signs checkpoint {body.label!r}, which it does not owe now")
        if body.state != boundary.body["state"]:
            raise PbemError("P001", f"checkpoint {body.label}: state hash differs from the replay")
        if body.heads != boundary.body["heads"] or body.entries != boundary.body["entries"]:
            raise PbemError("P002", f"checkpoint {body.label}: heads or entry count differ from the file")
        book.owed_checkpoints.pop(0)
        signers = self.checkpoints[body.label]
        signers.add(book.seat)
        if signers == set(self.seats):
            self.finals.append(body.label)
            return [
                Event(
                    kind="checkpoint_final",
                    data={"label": body.label},
                    text=f"checkpoint {body.label} co-signed",
                )
            ]
        return []

    # disclosure, keys, resignation ---------------------------------------------------------------
    def _apply_disclose(self, env: Envelope, entry: DiscloseEntry, book: SeatBook) -> list[Event]:
        for item in entry.body.secrets:
            if item.epoch >= len(book.epochs):
                raise PbemError(
                    "H004", f"{book.seat} discloses a secret for key epoch {item.epoch}, which it never had"
                )
            secret = bytes.fromhex(item.secret)
            chain = SeedChain(derive.chain_top(secret), self.id, book.seat, item.epoch, self.genesis.body.dice.chain)
            if chain.anchor != book.epochs[item.epoch].anchor:
                raise PbemError("H004", f"{book.seat}'s disclosed secret does not reproduce its dice anchor")
        book.disclosed = True
        return [Event(kind="secret_disclosed", seat=book.seat, text=f"{book.seat} disclosed its game secret")]

    def _apply_key_rotate(self, env: Envelope, entry: KeyRotateEntry, book: SeatBook) -> list[Event]:
        body = entry.body
        new = PublicKey.from_hex(body.key)
        if book.epoch.next_key is not None and hashlib.sha256(new.raw).hexdigest() != book.epoch.next_key:
            raise SignatureError("K007", f"{book.seat} rotates to a key that does not match its pre-rotation digest")
        try:
            new.verify(bytes.fromhex(body.pop), rotation_statement(self.id, book.seat, body.key, entry.seq))
        except SignatureError as exc:
            raise SignatureError("K006", f"{book.seat}'s new key did not sign the rotation") from exc
        self._new_epoch(book, new, body.anchor, body.nonce, body.next_key)
        return [Event(kind="key_rotated", seat=book.seat, data={"fingerprint": new.fingerprint})]

    def _apply_key_replace(self, env: Envelope, entry: KeyReplaceEntry, book: SeatBook) -> list[Event]:
        body = entry.body
        new = PublicKey.from_hex(body.key)
        statement = replacement_statement(self.id, book.seat, body.key, entry.seq, entry.prev)
        signed = {c.seat: c.sig for c in body.cosigs}
        others = [s for s in self.seats if s != book.seat]
        referees = [s for s in others if self.seats[s].role == "referee"]
        required = referees if referees and set(referees) <= set(signed) and len(signed) == len(referees) else others
        if set(signed) != set(required):
            missing = sorted(set(required) - set(signed)) or sorted(set(signed) - set(required))
            raise SignatureError("K008", f"key replacement of {book.seat}: co-signatures wrong for {missing}")
        for seat in required:
            try:
                self.seats[seat].key.verify(bytes.fromhex(signed[seat]), statement)
            except SignatureError as exc:
                raise SignatureError("K008", f"{seat}'s co-signature of the key replacement is invalid") from exc
        self._new_epoch(book, new, body.anchor, body.nonce, None)
        return [Event(kind="key_replaced", seat=book.seat, data={"fingerprint": new.fingerprint})]

    def _new_epoch(self, book: SeatBook, key: PublicKey, anchor: str, nonce: str, next_key: str | None) -> None:
        epoch = Epoch(key, bytes.fromhex(anchor), bytes.fromhex(nonce), next_key=next_key)
        self._learn_secret(book.seat, len(book.epochs), epoch)
        book.epochs.append(epoch)

    def _apply_resign(self, env: Envelope, entry: ResignEntry, book: SeatBook) -> list[Event]:
        self._require_play(entry)
        if self.result is not None or book.role != "player":
            raise PbemError("C011", f"{book.seat} cannot resign now")
        others = [s for s in self.roster.players if self.seats[s].team != book.team]
        teams = {self.seats[s].team for s in others}
        winners = tuple(others) if len(teams) == 1 else ()
        self.resignation = Result(winners=winners, outcome=f"{book.seat} resigned")
        self.pending.clear()
        return [Event(kind="resigned", seat=book.seat, text=f"{book.seat} resigned")]

    def _apply_claim_timeout(self, env: Envelope, entry: ClaimTimeoutEntry, book: SeatBook) -> list[Event]:
        """Evidence of a stall: ``against`` has owed an answer since the last entry, for longer than the deadline.

        The game goes on (the late seat may still answer); what a claim means is for the tournament director.
        """
        deadline = self.genesis.body.deadline  # (a seat that never joins can be claimed against too)
        against, since = entry.body.against, entry.body.since
        if deadline is None:
            raise PbemError("C012", "this game has no response deadline")
        if self.result is not None:
            raise PbemError("C012", "the game is over")
        if since != self.last[0]:
            raise PbemError(
                "C012", f"the claim names {since[:16]}…, but the last entry before it is {self.last[0][:16]}…"
            )
        owed = [w.describe() for w in self.awaiting() if w.seat == against]
        if against == book.seat or not owed:
            raise PbemError("C012", f"{against} owes nothing now, so there is nothing to claim against it")
        waited = _hours_between(self.last[1], entry.ts)
        if waited < deadline:
            raise PbemError("C012", f"only {waited} of the {deadline} hours of the deadline have passed")
        claim = Claim(self.line, book.seat, against, since, waited, owed[0])
        self.claims.append(claim)
        data = {"against": against, "hours": waited}
        return [Event(kind="timeout_claimed", seat=book.seat, data=data, text=claim.describe())]

    def _apply_undo_request(self, env: Envelope, entry: UndoRequestEntry, book: SeatBook) -> list[Event]:
        undoable = self.undoable
        if undoable is None or undoable.entry != entry.body.for_ or undoable.author != book.seat:
            raise PbemError("C013", f"{book.seat} cannot take back {entry.body.for_[:16]}… (see C013)")
        others = frozenset(s for s in self.roster.players if s != book.seat)
        self.undo_request = UndoRequest(env.id, book.seat, undoable.entry, others)
        text = f"{book.seat} asks to take back its last action"
        return [Event(kind="undo_requested", seat=book.seat, data={"entry": undoable.entry}, text=text)]

    def _apply_undo_accept(self, env: Envelope, entry: UndoAcceptEntry, book: SeatBook) -> list[Event]:
        request, undoable = self.undo_request, self.undoable
        if request is None or undoable is None or request.id != entry.body.for_ or book.seat not in request.waiting:
            raise PbemError("C013", f"{book.seat} accepts a take-back that is not open to it")
        self.undo_request = request = request.accepted_by(book.seat)
        events = [Event(kind="undo_accepted", seat=book.seat, text=f"{book.seat} agrees to the take-back")]
        if not request.waiting:
            self.state, self.undoable, self.undo_request = undoable.state, None, None
            text = f"{request.author}'s action is taken back by agreement"
            events.append(
                Event(kind="action_taken_back", seat=request.author, data={"entry": request.action}, text=text)
            )
        return events

    # --- copying ----------------------------------------------------------------------------------
    def clone(self) -> Game:
        """An independent copy (for what-if application and mutation sweeps)."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
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
        other.echoed = set(self.echoed)
        return other


def _hours_between(earlier: str, later: str) -> int:
    """Whole hours from one entry timestamp to another (they are UTC, to the second)."""
    start, end = (datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ") for t in (earlier, later))
    return int((end - start).total_seconds() // 3600)


def _listed(action: Action, legal: list[Action]) -> bool:
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


def _draw_value(request: RollRequest, seed: bytes) -> dict[str, list[int]]:
    drawn = faces(seed, [(r.sides, r.n) for r in request.rolls])
    return {r.id: f for r, f in zip(request.rolls, drawn, strict=True)}


def _dice_event(mover: str, request: RollRequest, dice: Mapping[str, tuple[int, ...]]) -> Event:
    parts = [f"{r.purpose or r.id}: {'+'.join(map(str, dice[r.id]))}" for r in request.rolls]
    return Event(
        kind="dice_rolled",
        seat=mover,
        data={"rolls": [_roll_json(r, dice[r.id]) for r in request.rolls]},
        text="; ".join(parts),
    )


def _roll_json(spec: RollSpec, faces_: tuple[int, ...]) -> dict[str, Any]:
    return {"id": spec.id, "sides": spec.sides, "n": spec.n, "purpose": spec.purpose, "faces": list(faces_)}
