"""Seat-level entries of a replay: joining, co-signing checkpoints, disclosing game secrets, rotating and
replacing keys, resigning, claiming a timeout, and asking for or accepting a take-back.

They concern a seat's standing in the protocol rather than moves of the game (actions are in
:mod:`pbem.replay.game`, dice in :mod:`pbem.replay.rolls`, hidden values in :mod:`pbem.replay.hidden_info`).
Each is a function of the :class:`~pbem.replay.game.Game` it updates.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import TYPE_CHECKING

from pbem.errors import PbemError, SignatureError
from pbem.log import derive
from pbem.log.dice import chain_anchor
from pbem.log.entry import (
    CheckpointEntry,
    ClaimTimeoutEntry,
    DiscloseEntry,
    Envelope,
    FeedEntry,
    JoinEntry,
    KeyReplaceEntry,
    KeyRotateEntry,
    ResignEntry,
    UndoAcceptEntry,
    UndoRequestEntry,
)
from pbem.log.sign import PublicKey
from pbem.replay.basics import replacement_statement, rotation_statement, state_hash
from pbem.replay.books import Boundary, Claim, Epoch, SeatBook, UndoRequest
from pbem.replay.hidden_info import hidden_changes
from pbem.rules.contract import Event, Result

if TYPE_CHECKING:
    from pbem.replay.game import Game

__all__ = [
    "apply_checkpoint",
    "apply_claim_timeout",
    "apply_disclose",
    "apply_join",
    "apply_key_replace",
    "apply_key_rotate",
    "apply_resign",
    "apply_undo_accept",
    "apply_undo_request",
    "owe_checkpoints",
]

END_LABEL = "end"


# join ----------------------------------------------------------------------------------------
def apply_join(game: Game, env: Envelope, entry: JoinEntry, book: SeatBook) -> list[Event]:
    if book.joined:
        raise PbemError("C007", f"{book.seat} joins twice")
    body = entry.body
    epoch = Epoch(book.roster_key, bytes.fromhex(body.anchor), bytes.fromhex(body.nonce), next_key=body.next_key)
    _learn_secret(game, book.seat, 0, epoch)
    book.epochs.append(epoch)
    if all(b.joined for b in game.seats.values()):
        state = game.ruleset.setup(game.genesis.body.scenario, game.genesis.body.options, game.roster, game.data)
        if state.rolls is not None or any(s.must_open for s in state.hidden.values()):
            raise PbemError("R008", f"{game.ruleset.id}.setup asks for dice or openings")
        game.state = state
        game.period = game.period_of(state)
        return [Event(kind="game_started", text=f"{game.ruleset.name}: every seat has joined")]
    return []


def _learn_secret(game: Game, seat: str, epoch_no: int, epoch: Epoch) -> None:
    secret = game.knowledge(game.id, seat, epoch_no, epoch)
    if secret is None:
        return
    anchor = chain_anchor(derive.chain_top(secret), game.id, seat, epoch_no, game.genesis.body.dice.chain)
    if anchor == epoch.anchor:
        epoch.secret = secret  # a secret is trusted only if it reproduces the committed anchor


# checkpoints ---------------------------------------------------------------------------------
def owe_checkpoints(game: Game, entry: FeedEntry) -> None:
    if game.state is None or entry.type in ("checkpoint", "disclose"):
        return
    label = END_LABEL if game.result is not None else game.period_of(game.state)
    if label == game.period or (label == END_LABEL and END_LABEL in game.checkpoints):
        return
    done = game.period if label != END_LABEL else END_LABEL
    assert done is not None
    if done in game.checkpoints:
        raise PbemError("R008", f"{game.ruleset.id} repeats the checkpoint period {done!r}")
    game.period = label
    body = {"label": done, "state": state_hash(game.state), "heads": game.heads(), "entries": game.count}
    game.checkpoints[done] = set()
    for book in game.seats.values():
        book.owed_checkpoints.append(Boundary(done, entry.author, entry.seq, body))


def apply_checkpoint(game: Game, env: Envelope, entry: CheckpointEntry, book: SeatBook) -> list[Event]:
    boundary = game.expected_checkpoint(book.seat)
    body = entry.body
    if boundary is None or boundary.label != body.label:
        raise PbemError("P004", f"{book.seat} signs checkpoint {body.label!r}, which it does not owe now")
    if body.state != boundary.body["state"]:
        raise PbemError("P001", f"checkpoint {body.label}: state hash differs from the replay")
    if body.heads != boundary.body["heads"] or body.entries != boundary.body["entries"]:
        raise PbemError("P002", f"checkpoint {body.label}: heads or entry count differ from the file")
    book.owed_checkpoints.pop(0)
    signers = game.checkpoints[body.label]
    signers.add(book.seat)
    if signers == set(game.seats):
        game.finals.append(body.label)
        return [
            Event(
                kind="checkpoint_final",
                data={"label": body.label},
                text=f"checkpoint {body.label} co-signed",
            )
        ]
    return []


# disclosure, keys, resignation ---------------------------------------------------------------
def apply_disclose(game: Game, env: Envelope, entry: DiscloseEntry, book: SeatBook) -> list[Event]:
    for item in entry.body.secrets:
        if item.epoch >= len(book.epochs):
            raise PbemError("H004", f"{book.seat} discloses a secret for key epoch {item.epoch}, which it never had")
        secret = bytes.fromhex(item.secret)
        if book.epochs[item.epoch].secret == secret:
            continue  # already proven at join (it reproduced the anchor there): no second 4,096-step chain
        anchor = chain_anchor(derive.chain_top(secret), game.id, book.seat, item.epoch, game.genesis.body.dice.chain)
        if anchor != book.epochs[item.epoch].anchor:
            raise PbemError("H004", f"{book.seat}'s disclosed secret does not reproduce its dice anchor")
    book.disclosed = True
    return [Event(kind="secret_disclosed", seat=book.seat, text=f"{book.seat} disclosed its game secret")]


def apply_key_rotate(game: Game, env: Envelope, entry: KeyRotateEntry, book: SeatBook) -> list[Event]:
    body = entry.body
    new = PublicKey.from_hex(body.key)
    if book.epoch.next_key is not None and hashlib.sha256(new.raw).hexdigest() != book.epoch.next_key:
        raise SignatureError("K007", f"{book.seat} rotates to a key that does not match its pre-rotation digest")
    try:
        new.verify(bytes.fromhex(body.pop), rotation_statement(game.id, book.seat, body.key, entry.seq))
    except SignatureError as exc:
        raise SignatureError("K006", f"{book.seat}'s new key did not sign the rotation") from exc
    _new_epoch(game, book, new, body.anchor, body.nonce, body.next_key)
    return [Event(kind="key_rotated", seat=book.seat, data={"fingerprint": new.fingerprint})]


def apply_key_replace(game: Game, env: Envelope, entry: KeyReplaceEntry, book: SeatBook) -> list[Event]:
    body = entry.body
    new = PublicKey.from_hex(body.key)
    statement = replacement_statement(game.id, book.seat, body.key, entry.seq, entry.prev)
    signed = {c.seat: c.sig for c in body.cosigs}
    others = [s for s in game.seats if s != book.seat]
    referees = [s for s in others if game.seats[s].role == "referee"]
    required = referees if referees and set(referees) <= set(signed) and len(signed) == len(referees) else others
    if set(signed) != set(required):
        missing = sorted(set(required) - set(signed)) or sorted(set(signed) - set(required))
        raise SignatureError("K008", f"key replacement of {book.seat}: co-signatures wrong for {missing}")
    for seat in required:
        try:
            game.seats[seat].key.verify(bytes.fromhex(signed[seat]), statement)
        except SignatureError as exc:
            raise SignatureError("K008", f"{seat}'s co-signature of the key replacement is invalid") from exc
    _new_epoch(game, book, new, body.anchor, body.nonce, None)
    return [Event(kind="key_replaced", seat=book.seat, data={"fingerprint": new.fingerprint})]


def _new_epoch(game: Game, book: SeatBook, key: PublicKey, anchor: str, nonce: str, next_key: str | None) -> None:
    epoch = Epoch(key, bytes.fromhex(anchor), bytes.fromhex(nonce), next_key=next_key)
    _learn_secret(game, book.seat, len(book.epochs), epoch)
    book.epochs.append(epoch)


def apply_resign(game: Game, env: Envelope, entry: ResignEntry, book: SeatBook) -> list[Event]:
    """The ruleset's ``on_resign`` decides (§3.6): the game ends for everyone (the default), or goes on."""
    state = game.require_play(entry)
    if game.result is not None or book.role != "player":
        raise PbemError("C011", f"{book.seat} cannot resign now")
    if book.seat in game.resigned:
        raise PbemError("C014", f"{book.seat} has resigned already")
    event = Event(kind="resigned", seat=book.seat, text=f"{book.seat} resigned")
    step = game.ruleset.on_resign(state, book.seat)
    if step is None:
        others = [s for s in game.roster.players if game.seats[s].team != book.team]
        teams = {game.seats[s].team for s in others}
        winners = tuple(others) if len(teams) == 1 else ()
        game.resignation = Result(winners=winners, outcome=f"{book.seat} resigned")
        game.pending.clear()
        return [event]
    if game.pending:
        raise PbemError("C014", f"{book.seat} cannot leave a game that goes on while dice are open")
    if step.state.rolls is not None:
        raise PbemError("R008", f"{game.ruleset.id}.on_resign asks for dice")
    game.resigned.add(book.seat)
    game.state = step.state
    hidden_changes(game, state, step.state, book.seat, None, skip=set())
    return [event, *step.events]


def apply_claim_timeout(game: Game, env: Envelope, entry: ClaimTimeoutEntry, book: SeatBook) -> list[Event]:
    """Evidence of a stall: ``against`` has owed an answer since the last entry, for longer than the deadline.

    The game goes on (the late seat may still answer); what a claim means is for the tournament director.
    """
    deadline = game.genesis.body.deadline  # (a seat that never joins can be claimed against too)
    against, since = entry.body.against, entry.body.since
    if deadline is None:
        raise PbemError("C012", "this game has no response deadline")
    if game.result is not None:
        raise PbemError("C012", "the game is over")
    if since != game.last[0]:
        raise PbemError("C012", f"the claim names {since[:16]}…, but the last entry before it is {game.last[0][:16]}…")
    owed = [w.describe() for w in game.awaiting() if w.seat == against]
    if against == book.seat or not owed:
        raise PbemError("C012", f"{against} owes nothing now, so there is nothing to claim against it")
    waited = _hours_between(game.last[1], entry.ts)
    if waited < deadline:
        raise PbemError("C012", f"only {waited} of the {deadline} hours of the deadline have passed")
    claim = Claim(game.line, book.seat, against, since, waited, owed[0])
    game.claims.append(claim)
    data = {"against": against, "hours": waited}
    return [Event(kind="timeout_claimed", seat=book.seat, data=data, text=claim.describe())]


def _hours_between(earlier: str, later: str) -> int:
    """Whole hours from one entry timestamp to another (they are UTC, to the second)."""
    start, end = (datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ") for t in (earlier, later))
    return int((end - start).total_seconds() // 3600)


# take-backs ----------------------------------------------------------------------------------
def apply_undo_request(game: Game, env: Envelope, entry: UndoRequestEntry, book: SeatBook) -> list[Event]:
    undoable = game.undoable
    if undoable is None or undoable.entry != entry.body.for_ or undoable.author != book.seat:
        raise PbemError("C013", f"{book.seat} cannot take back {entry.body.for_[:16]}… (see C013)")
    others = frozenset(s for s in game.roster.players if s != book.seat)
    game.undo_request = UndoRequest(env.id, book.seat, undoable.entry, others)
    text = f"{book.seat} asks to take back its last action"
    return [Event(kind="undo_requested", seat=book.seat, data={"entry": undoable.entry}, text=text)]


def apply_undo_accept(game: Game, env: Envelope, entry: UndoAcceptEntry, book: SeatBook) -> list[Event]:
    request, undoable = game.undo_request, game.undoable
    if request is None or undoable is None or request.id != entry.body.for_ or book.seat not in request.waiting:
        raise PbemError("C013", f"{book.seat} accepts a take-back that is not open to it")
    game.undo_request = request = request.accepted_by(book.seat)
    events = [Event(kind="undo_accepted", seat=book.seat, text=f"{book.seat} agrees to the take-back")]
    if not request.waiting:
        game.state, game.undoable, game.undo_request = undoable.state, None, None
        text = f"{request.author}'s action is taken back by agreement"
        events.append(Event(kind="action_taken_back", seat=request.author, data={"entry": request.action}, text=text))
    return events
