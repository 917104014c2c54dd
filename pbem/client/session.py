"""What a player does to a log: create a game, join it, act, and the protocol work the game owes.

Every entry a player signs is built from the replay, then fed through the full verification pipeline
*before* it is written: pbem never writes an entry that its own verifier would reject. Protocol work
(co-signing checkpoints, revealing dice seeds, committing to and opening hidden values, disclosing the
game secret at the end) needs no decision, so :meth:`Session.do_owed` does it whenever a player runs a
command.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.client import heads
from pbem.errors import ActionError, PbemError, StorageError, UsageError
from pbem.log import derive, hidden, timestamps
from pbem.log.canon import JSONValue
from pbem.log.dice import SeedChain
from pbem.log.entry import Envelope, Sealed, seal, signing_input, validate
from pbem.log.keys import KeyPair
from pbem.log.sign import PublicKey
from pbem.log.store import LogStore, write_new_file
from pbem.replay import decks
from pbem.replay.books import Epoch
from pbem.replay.game import UNKNOWN, DataProvider, Game, Knowledge, builtin_data, rotation_statement
from pbem.rules.contract import Action, Event, Ruleset
from pbem.verify.findings import Finding
from pbem.verify.pipeline import Verifier, verify_lines

__all__ = ["Clock", "Entropy", "NewGame", "Session", "create_game", "own_knowledge", "start_game", "system_clock"]

Clock = Callable[[], str]
Entropy = Callable[[int], bytes]
"""Random bytes (``os.urandom``; tests pass a deterministic source so their logs are reproducible)."""
NONCE_BYTES = 32


def system_clock() -> str:
    """Now, in the log's timestamp format (UTC, whole seconds)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _parent_times(game: Game) -> list[str]:
    """The timestamps an entry drafted now must not precede: the genesis and every seat's head."""
    return [game.genesis.ts, *(book.ts for book in game.seats.values() if book.ts)]


def own_knowledge(pair: KeyPair) -> Knowledge:
    """The knowledge of the holder of ``pair``: its own game secrets, derived from its key."""

    def knowledge(game: str, seat: str, number: int, epoch: Epoch) -> bytes | None:
        return derive.game_secret(pair.seed, game, epoch.nonce, number) if epoch.key == pair.public else None

    return knowledge


def _raise_finding(finding: Finding) -> None:
    raise PbemError(finding.code, f"refusing to write an entry pbem would reject: {finding.message}", rule=finding.rule)


@dataclass(frozen=True)
class NewGame:
    """What :func:`create_game` wrote: the game id and the creator's seat."""

    game: str
    seat: str
    lines: int


def create_game(
    path: Path,
    ruleset: Ruleset[Any],
    scenario: str,
    seats: Mapping[str, PublicKey],
    creator: KeyPair,
    *,
    options: Mapping[str, JSONValue] | None = None,
    referee: tuple[str, PublicKey] | None = None,
    referee_dice: bool = False,
    team_dice: bool = False,
    title: str = "",
    name: str | None = None,
    deadline: int | None = None,
    data: bytes | None = None,
    chain: int = 4096,
    clock: Clock = system_clock,
    entropy: Entropy = os.urandom,
) -> NewGame:
    """Write a new log at ``path``: the genesis and, if the creator holds a seat, its join.

    Raises:
        UsageError: U001 if the creator holds no seat, U003 for unknown seats or options.
        PbemError: R007 if the ruleset refuses scenario, roster or options.
        StorageError: F004 if ``path`` exists.
    """
    verifier, entries = start_game(
        ruleset, scenario, seats, creator, options=options, referee=referee, referee_dice=referee_dice,
        team_dice=team_dice,
        title=title, name=name, deadline=deadline, data=data, chain=chain, clock=clock, entropy=entropy,
    )  # fmt: skip
    write_new_file(path, b"".join(e.line + b"\n" for e in entries))
    assert verifier.game is not None
    author = str(entries[0].raw["author"])
    heads.record(path, verifier.game.id, author, 0)
    return NewGame(verifier.game.id, author, 2)


def start_game(
    ruleset: Ruleset[Any],
    scenario: str,
    seats: Mapping[str, PublicKey],
    creator: KeyPair,
    *,
    options: Mapping[str, JSONValue] | None = None,
    referee: tuple[str, PublicKey] | None = None,
    referee_dice: bool = False,
    team_dice: bool = False,
    title: str = "",
    name: str | None = None,
    deadline: int | None = None,
    data: bytes | None = None,
    chain: int = 4096,
    clock: Clock = system_clock,
    entropy: Entropy = os.urandom,
    knowledge: Knowledge | None = None,
) -> tuple[Verifier, list[Envelope]]:
    """The genesis and the creator's join of a new game, verified, without writing anything.

    Returns the verifier holding the replay (with ``knowledge``, by default the creator's own) and the two
    entries. Raises as :func:`create_game`.
    """
    spec = next((s for s in ruleset.scenarios if s.id == scenario), None)
    if spec is None:
        raise UsageError("U003", f"{ruleset.id} has no scenario {scenario!r}")
    wanted = {s.id for s in spec.seats}
    if set(seats) != wanted:
        raise UsageError("U003", f"scenario {scenario} needs exactly the seats {sorted(wanted)}, got {sorted(seats)}")
    if referee_dice and team_dice:
        raise UsageError("U003", "dice come from the referee or from one seat per opposing team, not both")
    chosen = dict(options or {})
    unknown = sorted(set(chosen) - {o.id for o in ruleset.options})
    if unknown:
        raise UsageError("U003", f"{ruleset.id} has no option {unknown[0]!r}")
    roster: list[dict[str, JSONValue]] = [
        {"seat": s.id, "key": seats[s.id].hex, "role": "player", "team": s.team} for s in spec.seats
    ]
    if referee is not None:
        roster.append({"seat": referee[0], "key": referee[1].hex, "role": "referee", "team": referee[0]})
    author = next((r["seat"] for r in roster if r["key"] == creator.public.hex), None)
    if not isinstance(author, str):
        raise UsageError("U001", "the creating key must be the key of one of the seats (or of the referee)")
    pack = ruleset.default_data() if data is None else data
    body: dict[str, Any] = {
        "ruleset": ruleset.id,
        "version": ruleset.version,
        "data": hashlib.sha256(pack).hexdigest(),
        "scenario": scenario,
        "options": {o.id: chosen.get(o.id, o.default) for o in ruleset.options},
        "roster": roster,
        "dice": {
            "quorum": "referee" if referee_dice else "teams" if team_dice else "opponents",
            "referee": referee[0] if referee_dice and referee is not None else None,
            "chain": chain,
        },
        "title": title,
    }
    if deadline is not None:
        body["deadline"] = deadline
    unsigned = {
        "v": 1,
        "type": "genesis",
        "author": author,
        "kid": creator.public.id,
        "ts": clock(),
        "body": body,
    }
    genesis = seal(unsigned, creator.private.sign)

    def provider(r: Ruleset[Any], sha: str) -> bytes | None:
        return pack if hashlib.sha256(pack).hexdigest() == sha else None

    verifier = Verifier(knowledge=knowledge or own_knowledge(creator), data_provider=provider)
    found = verifier.feed(genesis.line)
    if found:
        _raise_finding(found[0])
    assert verifier.game is not None
    session = Session(None, creator, verifier, clock=clock, entropy=entropy)
    join = session.join(name)
    return verifier, [genesis, join]


class _Sealer:
    """Makes the commitments a player's own batch needs (the client side of :class:`SealCursor`)."""

    def __init__(self, game: str, owner: str, secret: bytes):
        self._game, self._owner, self._secret = game, owner, secret
        self.made: list[Sealed] = []

    def take(self, slot: str, ver: int, value: Any) -> Sealed:
        if value is UNKNOWN:
            raise PbemError("R008", f"the rules changed {slot}, but its owner {self._owner} cannot compute the value")
        salt = derive.salt(self._secret, slot, ver)
        commit = hidden.commit_value(self._game, self._owner, slot, ver, salt, value)
        enc = hidden.seal(derive.seal_key(self._secret, slot, ver), value, commit)
        item = Sealed(slot=slot, ver=ver, commit=commit, enc=enc)
        self.made.append(item)
        return item

    def finish(self) -> None:
        return None


class Session:
    """One seat working on a log: ``store`` is the locked file (None while creating it)."""

    def __init__(
        self,
        store: LogStore | None,
        pair: KeyPair,
        verifier: Verifier,
        *,
        clock: Clock = system_clock,
        entropy: Entropy = os.urandom,
    ):
        self.store = store
        self.pair = pair
        self.verifier = verifier
        self.clock = clock
        self.entropy = entropy
        game = verifier.game
        assert game is not None
        self.game: Game = game
        seat = next((s for s, b in game.seats.items() if b.key == pair.public), None)
        if seat is None:
            raise UsageError("U001", f"key {pair.public.fingerprint} holds no seat in this game")
        self.seat = seat
        self._chain: tuple[int, SeedChain] | None = None

    @classmethod
    def open(
        cls,
        store: LogStore,
        pair: KeyPair,
        *,
        clock: Clock = system_clock,
        entropy: Entropy = os.urandom,
        data_provider: DataProvider = builtin_data,
    ) -> Session:
        """Verify the locked log with this seat's knowledge; refuse to go on from an invalid or stale copy.

        Raises:
            UsageError: U005 if the log does not verify, U001 if the key holds no seat.
            StorageError: F005 if this machine already signed entries beyond this copy's head.
        """
        report, verifier = verify_lines(store.lines, knowledge=own_knowledge(pair), data_provider=data_provider)
        if not report.valid:
            first = report.first_error
            detail = first.render() if first else "no genesis"
            raise UsageError("U005", f"{store.path} does not verify ({detail}); run pbem verify")
        session = cls(store, pair, verifier, clock=clock, entropy=entropy)
        signed = heads.recorded(store.path, session.game.id, session.seat)
        if signed is not None and signed > session.book.seq:
            raise StorageError(
                "F005",
                f"this machine already signed {session.seat} seq {signed}, but {store.path} ends at seq "
                f"{session.book.seq}: it is a stale copy; import the newer entries first",
            )
        return session

    # --- state ----------------------------------------------------------------------------------
    @property
    def book(self) -> Any:
        return self.game.seats[self.seat]

    @property
    def secret(self) -> bytes:
        """This seat's game secret for its current key epoch."""
        return self._secret(self.game, len(self.book.epochs) - 1)

    def _secret(self, game: Game, number: int) -> bytes:
        epoch = game.seats[self.seat].epochs[number]
        return derive.game_secret(self.pair.seed, game.id, epoch.nonce, number)

    def chain(self) -> SeedChain:
        epoch = len(self.book.epochs) - 1
        if self._chain is None or self._chain[0] != epoch:
            top = derive.chain_top(self.secret)
            self._chain = (
                epoch,
                SeedChain(top, self.game.id, self.seat, epoch, self.game.genesis.body.dice.chain),
            )
        return self._chain[1]

    # --- building and writing entries -------------------------------------------------------------
    def draft(self, game: Game, kind: str, body: Mapping[str, Any], extra_deps: Sequence[str] = ()) -> dict[str, Any]:
        book = game.seats[self.seat]
        deps = {h for s, h in game.heads().items() if s != self.seat} | set(extra_deps)
        if kind == "join":
            deps.add(game.id)
        return {
            "v": 1,
            "type": kind,
            "game": game.id,
            "author": self.seat,
            "kid": book.key.id,
            "seq": book.seq + 1,
            "prev": book.head or game.id,
            "deps": sorted(deps),
            "ts": timestamps.for_signing(self.clock(), _parent_times(game), game.genesis.body.deadline),
            "body": dict(body),
        }

    def _write(self, kind: str, body: Mapping[str, Any], extra_deps: Sequence[str] = ()) -> Envelope:
        env = seal(self.draft(self.game, kind, body, extra_deps), self.pair.private.sign)
        found = self.verifier.feed(env.line)
        if found:
            _raise_finding(found[0])
        if self.store is not None:
            self.store.append(env.line)
            heads.record(self.store.path, self.game.id, self.seat, self.book.seq)
        return env

    @staticmethod
    def _simulate(game: Game, unsigned: dict[str, Any]) -> None:
        """Apply an unsigned entry to a clone (for dry runs: nothing is signed that is not written)."""
        signed = signing_input(unsigned)
        env = Envelope({**unsigned, "sig": "0" * 128}, signed, hashlib.sha256(signed).hexdigest(), b"")
        entry = validate(env.raw)
        assert not isinstance(entry, type(None))
        game.apply(env, entry, game.line + 1)  # type: ignore[arg-type]

    def join(self, name: str | None = None) -> Envelope:
        """Append this seat's join (proof of possession of its key, its dice-chain anchor, and the name the
        player goes by in reports)."""
        if self.book.joined:
            raise UsageError("U002", f"{self.seat} has already joined")
        nonce = self.entropy(NONCE_BYTES)
        top = derive.chain_top(derive.game_secret(self.pair.seed, self.game.id, nonce, 0))
        anchor = SeedChain(top, self.game.id, self.seat, 0, self.game.genesis.body.dice.chain).anchor
        body: dict[str, Any] = {"anchor": anchor.hex(), "nonce": nonce.hex(), "next_key": None}
        if name is not None:
            body["name"] = name
        return self._write("join", body)

    # --- protocol work ----------------------------------------------------------------------------
    def _next_owed(self, game: Game) -> tuple[str, dict[str, Any], list[str]] | None:
        """The next entry of protocol work this seat owes in ``game``, as (type, body, extra deps)."""
        book = game.seats[self.seat]
        if not book.joined or game.state is None:
            return None
        if book.owed_checkpoints:
            return "checkpoint", dict(book.owed_checkpoints[0].body), []
        sealer = _Sealer(game.id, self.seat, self._secret(game, len(book.epochs) - 1))
        for owed in book.owed_seals:
            slot = game.state.hidden[owed.slot]
            sealer.take(owed.slot, owed.ver, slot.value if slot.known else UNKNOWN)
        opened = [
            self._opening(game, name)
            for name, slot in sorted(game.state.hidden.items())
            if slot.owner == self.seat and slot.must_open
        ]
        if sealer.made or opened:
            return "hidden", {"opened": opened, "sealed": [s.model_dump() for s in sealer.made]}, []
        deck_work = decks.owed(game, self.seat)
        if deck_work is not None:
            return deck_work[0], deck_work[1], []
        answered: set[str] = set()  # entries whose first request awaiting this seat cannot be answered yet
        for roll in game.pending.values():
            if self.seat not in roll.awaiting or roll.entry in answered:
                continue
            answered.add(roll.entry)  # the engine matches a reveal to the entry's first request awaiting it
            owner = roll.request.owner
            index = book.epoch.index + 1
            reveal: dict[str, Any] = {"for": roll.entry, "index": index, "seed": self.chain()[index].hex()}
            if owner is not None and owner != roll.mover and roll.commit is None:  # another seat's draw (§6.8)
                if owner != self.seat:
                    continue  # its owner commits first
                assert roll.request.slot is not None
                draw = derive.draw_secret(self._secret(game, len(book.epochs) - 1), roll.request.slot, roll.ver)
                reveal["commit"] = hidden.commit_draw(game.id, self.seat, roll.request.slot, roll.ver, draw)
            return "reveal", reveal, [roll.entry]
        dealer = any(d.dealer == self.seat for d in game.decks.values())  # its shuffles are audited too
        if game.result is not None and (book.role == "player" or dealer) and not book.disclosed:
            secrets = [
                {"epoch": n, "secret": self._secret(game, n).hex()}
                for n, e in enumerate(book.epochs)
                if e.key == self.pair.public
            ]
            return "disclose", {"secrets": secrets}, []
        return None

    def _opening(self, game: Game, name: str) -> dict[str, Any]:
        assert game.state is not None
        slot = game.state.hidden[name]
        # No commitment yet means this very entry seals the slot, under the current key epoch.
        commitment = game.commitments.get((name, slot.ver))
        epoch = len(game.seats[self.seat].epochs) - 1 if commitment is None else commitment.epoch
        secret = self._secret(game, epoch)
        if commitment is not None and commitment.draw is not None:
            draw = derive.draw_secret(secret, name, slot.ver)
            return {"slot": name, "ver": slot.ver, "salt": None, "value": None, "secret": draw.hex()}
        salt = derive.salt(secret, name, slot.ver)
        return {"slot": name, "ver": slot.ver, "salt": salt.hex(), "value": slot.value, "secret": None}

    def do_owed(self) -> list[Envelope]:
        """Write every entry of protocol work this seat owes now (until nothing is owed)."""
        written: list[Envelope] = []
        while (owed := self._next_owed(self.game)) is not None:
            written.append(self._write(*owed))
        return written

    def _simulate_owed(self, game: Game) -> Game:
        while (owed := self._next_owed(game)) is not None:
            self._simulate(game, self.draft(game, *owed))
        return game

    # --- playing --------------------------------------------------------------------------------
    def legal(self) -> list[Action]:
        """The actions this seat may take once its owed protocol work is done ([] if it must wait)."""
        game = self._simulate_owed(self.game.clone())
        if game.state is None or game.waits_for_protocol() or game.result is not None:
            return []
        if self.seat not in game.ruleset.to_act(game.state):
            return []
        return game.ruleset.legal_actions(game.state, self.seat)

    def try_batch(self, actions: list[Action]) -> tuple[Game, list[Event]]:
        """The game after the work this seat owes and ``actions``, on a clone: nothing is signed or written.

        Raises:
            ActionError: as :meth:`act` would, if the batch is not legal.
        """
        trial = self._simulate_owed(self.game.clone())
        events = self._batch_body(trial, [dict(a) for a in actions])[1] if actions else []
        return trial, events

    def _batch_body(self, game: Game, actions: list[Action]) -> tuple[dict[str, Any], list[Event]]:
        """The body of an action entry for ``actions`` (checked by running them on ``game``, a clone)."""
        book = game.seats[self.seat]
        sealer = _Sealer(game.id, self.seat, self.secret)
        events, logged = game.run_batch(book, actions, sealer, plain=True)
        assert game.state is not None
        declarations = []
        for number, request in enumerate(game.state.pending_rolls):  # the mover's next chain elements, in order
            index = book.epoch.index + 1 + number
            declaration: dict[str, Any] = {
                "rolls": [r.model_dump() for r in request.rolls],
                "index": index,
                "seed": self.chain()[index].hex(),
                "owner": request.owner,
                "slot": request.slot,
                "commit": None,
            }
            if request.owner == self.seat and request.slot is not None:  # another owner commits itself (§6.8)
                old = game.state.hidden.get(request.slot)
                ver = 0 if old is None else old.ver + 1
                draw = derive.draw_secret(self.secret, request.slot, ver)
                declaration["commit"] = hidden.commit_draw(game.id, self.seat, request.slot, ver, draw)
            declarations.append(declaration)
        echo = [
            {"for": r.entry, "faces": [f for g in (r.faces or {}).values() for f in g]}
            for r in self.game.to_echo(self.seat)
        ]
        body = {
            "actions": logged,
            "rolls": declarations[0] if len(declarations) == 1 else (declarations or None),
            "sealed": [s.model_dump() for s in sealer.made],
            "echo": echo,
        }
        return body, events

    def act(self, actions: list[Action], note: str | None = None) -> list[Envelope]:
        """Do owed protocol work, then sign ``actions`` as one batch (with ``note``, a message to the other
        players), then any work that follows.

        Everything is dry-run first, so an illegal action writes nothing at all.

        Raises:
            ActionError: R001 (with the rule), R002, R003 or R004; UsageError U002 if nothing is given.
        """
        if not actions:
            raise UsageError("U002", "no actions given")
        trial = self._simulate_owed(self.game.clone())
        if trial.state is None:
            raise ActionError("R002", "the game has not started: not every seat has joined")
        if trial.result is not None:
            raise PbemError("C011", "the game is over")
        self._batch_body(trial, [dict(a) for a in actions])
        written = self.do_owed()
        body, _ = self._batch_body(self.game.clone(), [dict(a) for a in actions])
        if note is not None:
            body["note"] = note
        written.append(self._write("action", body))
        written.extend(self.do_owed())
        return written

    def request_undo(self) -> Envelope:
        """Ask the other players to let this seat take back its last action (which rolled no dice, changed no
        hidden value and ended no period, and after which nothing has happened).

        Raises:
            UsageError: U002 if there is no such action to take back.
        """
        self._owed_checkpoints()
        undoable = self.game.undoable
        if undoable is None or undoable.author != self.seat or self.game.undo_request is not None:
            raise UsageError("U002", f"{self.seat} has no action it may take back now")
        return self._write("undo-request", {"for": undoable.entry})

    def accept_undo(self) -> Envelope:
        """Agree to the open take-back request.

        Raises:
            UsageError: U002 if no request waits for this seat.
        """
        self._owed_checkpoints()
        request = self.game.undo_request
        if request is None or self.seat not in request.waiting:
            raise UsageError("U002", f"no take-back request waits for {self.seat}'s answer")
        return self._write("undo-accept", {"for": request.id})

    def _owed_checkpoints(self) -> None:
        """Co-sign owed checkpoints (the only protocol work that leaves a take-back window open)."""
        while self.book.owed_checkpoints:
            self._write("checkpoint", dict(self.book.owed_checkpoints[0].body))

    def claim_timeout(self, against: str) -> Envelope:
        """Sign a claim that ``against`` has not answered within the game's deadline (the log must bear it out).

        Raises:
            PbemError: C012 if the log does not bear the claim out (no deadline, nothing owed, not yet late).
        """
        return self._write("claim-timeout", {"against": against, "since": self.game.last[0]})

    def resign(self, note: str | None = None) -> list[Envelope]:
        written = self.do_owed()
        written.append(self._write("resign", {} if note is None else {"note": note}))
        written.extend(self.do_owed())
        return written

    def rotate(self, new: KeyPair, next_key: PublicKey | None = None) -> Envelope:
        """Rotate this seat's key to ``new`` (signed by the current key, with ``new``'s proof of possession)."""
        seq = self.book.seq + 1
        epoch = len(self.book.epochs)
        nonce = self.entropy(NONCE_BYTES)
        top = derive.chain_top(derive.game_secret(new.seed, self.game.id, nonce, epoch))
        anchor = SeedChain(top, self.game.id, self.seat, epoch, self.game.genesis.body.dice.chain).anchor
        pop = new.private.sign(rotation_statement(self.game.id, self.seat, new.public.hex, seq))
        body = {
            "key": new.public.hex,
            "pop": pop.hex(),
            "anchor": anchor.hex(),
            "nonce": nonce.hex(),
            "next_key": None if next_key is None else hashlib.sha256(next_key.raw).hexdigest(),
        }
        return self._write("key-rotate", body)
