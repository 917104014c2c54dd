"""Dice bookkeeping of a replay: rolls declared by actions, seeds revealed from each seat's chain, and rolls
resolved into faces (public) or into a hidden value (a private draw).

A roll is open from the action that declares it until every seat of its quorum has revealed its next seed;
the mover later echoes the faces of its public rolls. An entry may declare several requests: they are
answered, resolved and resumed in order (PROTOCOL.md §6.7). A roll nobody but the mover answers is a
solitaire roll (§6.4.1); a private draw owned by another seat waits for its owner's commitment first (§6.8).
Each is a function of the :class:`~pbem.replay.game.Game` it updates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pbem.errors import PbemError
from pbem.log import derive, hidden
from pbem.log.dice import faces, roll_seed, step_down
from pbem.log.entry import ActionEntry, Envelope, RevealEntry, RollDeclaration
from pbem.replay.basics import draw_value
from pbem.replay.books import Commitment, PendingRoll, RollRecord, SeatBook
from pbem.replay.hidden_info import hidden_changes
from pbem.rules.contract import Event, Outcome, RollRequest, RollSpec, Step, shown

if TYPE_CHECKING:
    from pbem.replay.game import Game

__all__ = ["apply_reveal", "check_echo", "declare"]


def declare(
    game: Game,
    env: Envelope,
    entry: ActionEntry,
    book: SeatBook,
    requests: tuple[RollRequest, ...],
    declared: RollDeclaration | list[RollDeclaration] | None,
) -> None:
    """Open the rolls an action entry declares: one declaration per pending request, in order (§6.2, §6.7)."""
    if declared is None:
        raise PbemError("D007", "the rules need dice here but the entry declares none")
    items = declared if isinstance(declared, list) else [declared]
    if len(items) != len(requests) or (len(requests) > 1) != isinstance(declared, list):
        wanted = shown([[r.model_dump() for r in q.rolls] for q in requests], limit=300)
        raise PbemError("D007", f"the rules need {len(requests)} roll requests, declared as in §6.7: {wanted}")
    slots = [q.slot for q in requests if q.slot is not None]
    if len(set(slots)) != len(slots):
        raise PbemError("R008", f"{game.ruleset.id} asks for two private draws into one slot at once")
    for part, (request, item) in enumerate(zip(requests, items, strict=True)):
        _declare_one(game, env, book, part, request, item)


def _declare_one(
    game: Game, env: Envelope, book: SeatBook, part: int, request: RollRequest, declared: RollDeclaration
) -> None:
    # the same fields as the two models' dumps (formatted only on refusal: this runs for every roll)
    fields = [(r.id, r.sides, r.n, r.purpose) for r in request.rolls]
    if [(r.id, r.sides, r.n, r.purpose) for r in declared.rolls] != fields or (declared.owner, declared.slot) != (
        request.owner,
        request.slot,
    ):
        wanted = [r.model_dump() for r in request.rolls]
        raise PbemError("D007", f"declared rolls differ from what the rules need: {wanted}")
    if request.owner is not None and request.owner not in game.roster.players:
        raise PbemError("R008", f"{game.ruleset.id} asks for a private draw owned by {request.owner}, not a player")
    own_draw = request.owner == book.seat
    if (declared.commit is None) == own_draw:
        raise PbemError("D007", "a private draw of the mover's needs its commitment, and nothing else does")
    _take_seed(game, book, declared.index, declared.seed)
    quorum = game.quorum(book.seat)
    seeds = {book.seat: declared.seed}
    if request.owner is not None and not own_draw:  # another seat's draw: its owner answers first (§6.8)
        awaiting = [request.owner, *(s for s in quorum if s != request.owner)]
    elif quorum:
        awaiting = quorum
    else:  # solitaire: the mover answers its own roll with its next chain element (§6.4.1)
        awaiting, seeds = [book.seat], {}
    key = env.id if part == 0 else f"{env.id}/{part}"
    roll = PendingRoll(
        key=key,
        line=game.line,
        mover=book.seat,
        request=request,
        awaiting=awaiting,
        seeds=seeds,
        commit=declared.commit,
        entry=env.id,
        part=part,
        solo=awaiting == [book.seat],
    )
    if request.owner is not None:
        assert request.slot is not None and game.state is not None
        old = game.state.hidden.get(request.slot)
        roll.ver = 0 if old is None else old.ver + 1
        if own_draw:
            assert declared.commit is not None
            _check_draw_commit(game, request.owner, request.slot, roll.ver, declared.commit)
    game.pending[key] = roll


def _check_draw_commit(game: Game, owner: str, slot: str, ver: int, commit: str) -> None:
    """With the owner's secret (its own replay, or at audit), its draw commitment must be its derived secret's."""
    epoch_no = len(game.seats[owner].epochs) - 1
    if game.knows(owner, epoch_no):
        secret = derive.draw_secret(game.secret(owner, epoch_no), slot, ver)
        if hidden.commit_draw(game.id, owner, slot, ver, secret) != commit:
            raise PbemError("H003", f"{owner}'s private draw commitment is not its derived secret")


def _take_seed(game: Game, book: SeatBook, index: int, seed_hex: str) -> None:
    epoch = book.epoch
    if epoch.index >= game.genesis.body.dice.chain:
        raise PbemError("D008", f"{book.seat}'s dice chain is exhausted")
    if index != epoch.index + 1:
        raise PbemError("D002", f"{book.seat} reveals chain index {index} where {epoch.index + 1} is next")
    seed = bytes.fromhex(seed_hex)
    if step_down(game.id, book.seat, len(book.epochs) - 1, index, seed) != epoch.element:
        raise PbemError("D003", f"{book.seat}'s seed {index} does not hash to its previous chain element")
    epoch.index, epoch.element = index, seed


def apply_reveal(game: Game, env: Envelope, entry: RevealEntry, book: SeatBook) -> list[Event]:
    """A seed answering the first request of entry ``for`` that waits for this seat (§6.2, §6.7)."""
    game.require_play(entry)
    body = entry.body
    if body.for_ not in entry.deps:
        raise PbemError("D004", "a reveal must depend on the roll it answers")
    roll = next((r for r in game.pending.values() if r.entry == body.for_ and book.seat in r.awaiting), None)
    if roll is None:
        if (body.for_, book.seat) in game.resolved:
            raise PbemError("D005", f"{book.seat} has already revealed for this roll")
        raise PbemError("D001", f"no open roll waits for {book.seat}'s seed")
    _take_draw_commit(game, book.seat, roll, body.commit)
    _take_seed(game, book, body.index, body.seed)
    game.resolved.add((body.for_, book.seat))
    roll.awaiting.remove(book.seat)
    roll.seeds[book.seat] = body.seed
    events: list[Event] = []
    while game.pending:  # requests resolve in order: the first, then any later one already complete
        first = next(iter(game.pending.values()))
        if first.awaiting:
            break
        events.extend(_resolve(game, env, entry.author, first))
    return events


def _take_draw_commit(game: Game, seat: str, roll: PendingRoll, commit: str | None) -> None:
    """The commitment of a private draw another seat declared comes with its owner's answer, before any other."""
    owner = roll.request.owner
    due = owner is not None and owner != roll.mover and roll.commit is None
    if not due:
        if commit is not None:
            raise PbemError("D009", f"{seat}'s reveal carries a draw commitment nobody asked for")
        return
    assert owner is not None and roll.request.slot is not None
    if seat != owner:
        raise PbemError("D009", f"{seat} answers {owner}'s private draw before {owner} has committed to it")
    if commit is None:
        raise PbemError("D009", f"{owner}'s reveal for its private draw lacks the draw commitment")
    _check_draw_commit(game, owner, roll.request.slot, roll.ver, commit)
    roll.commit = commit


def _resolve(game: Game, env: Envelope, author: str, roll: PendingRoll) -> list[Event]:
    assert game.state is not None
    del game.pending[roll.key]
    request = roll.request
    if game.state.rolls is not request and game.state.rolls != request:  # (the same object: no model comparison)
        raise PbemError("R008", f"{game.ruleset.id} changed its pending rolls while they were open")
    groups = [(r.sides, r.n) for r in request.rolls]
    state = game.state.without_first_roll()
    action = roll.action(game.id)
    if request.owner is None:
        drawn = faces(roll_seed(game.id, action, roll.seeds), groups)
        dice = {r.id: tuple(f) for r, f in zip(request.rolls, drawn, strict=True)}
        record = _record(game, roll, dice, None)
        game.rolls.append(record)
        game.unechoed[record.key] = record  # until its mover echoes its faces (check_echo)
        events = [_dice_event(roll.mover, request, dice)]
        outcome = Outcome(dice=dice)
    else:
        assert request.slot is not None and roll.commit is not None
        owner = game.seats[request.owner]
        epoch_no = len(owner.epochs) - 1
        value: dict[str, list[int]] | None = None
        secret_hex = None
        if game.knows(request.owner, epoch_no):
            secret = derive.draw_secret(game.secret(request.owner, epoch_no), request.slot, roll.ver)
            secret_hex = secret.hex()
            value = draw_value(request, roll_seed(game.id, action, roll.seeds, secret_hex))
        state = state.with_hidden(request.slot, request.owner, value, known=value is not None)
        if state.hidden[request.slot].ver != roll.ver:
            raise PbemError("R008", f"{game.ruleset.id} changed {request.slot} while a draw into it was open")
        game.commitments[(request.slot, roll.ver)] = Commitment(
            request.owner, request.slot, roll.ver, roll.commit, None, epoch_no, roll.clone()
        )
        dice_known = None if value is None else {k: tuple(v) for k, v in value.items()}
        game.rolls.append(_record(game, roll, dice_known, secret_hex))
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
    step: Step[Any] = game.ruleset.resume(state, outcome)
    game.state = step.state
    hidden_changes(game, before, step.state, author, None, skip=set())
    still = [r.request for r in game.pending.values()]
    after = step.state.pending_rolls
    if list(after[: len(still)]) != still:
        raise PbemError("R008", f"{game.ruleset.id} changed its pending rolls while they were open")
    for request_ in after[len(still) :]:  # rolls that follow from this one, with no decision between (§6.5)
        _chain_roll(game, env, roll.mover, request_)
    return [*events, *step.events]


def _record(game: Game, roll: PendingRoll, dice: dict[str, tuple[int, ...]] | None, secret: str | None) -> RollRecord:
    return RollRecord(
        game.id,
        roll.entry,
        game.line,
        roll.mover,
        roll.request,
        dict(roll.seeds),
        dice,
        secret,
        roll.part,
        roll.action(game.id),
    )


def _chain_roll(game: Game, env: Envelope, mover: str, request: RollRequest) -> None:
    if request.owner is not None:
        raise PbemError("R008", f"{game.ruleset.id} chains a private draw to a roll")
    awaiting = sorted({mover, *game.quorum(mover)})
    part = sum(1 for r in game.pending.values() if r.entry == env.id)
    key = env.id if part == 0 else f"{env.id}/{part}"
    game.pending[key] = PendingRoll(key, game.line, mover, request, awaiting, {}, entry=env.id, part=part)
    game.pending[key].solo = awaiting == [mover]


def check_echo(game: Game, entry: ActionEntry) -> None:
    if not entry.body.echo:
        return
    open_ = game.to_echo(entry.author)
    for echo in entry.body.echo:
        # the first request of that entry not echoed yet (several may share one entry, §6.7); a roll is
        # echoed once: a repeat, here or later, finds none and is D006
        record = next((r for r in open_ if r.entry == echo.for_ and r.key not in game.echoed), None)
        if record is None or record.faces is None:
            raise PbemError("D006", f"echo of an unknown, unresolved or already echoed roll {echo.for_[:16]}…")
        expected = [f for group in record.faces.values() for f in group]
        if echo.faces != expected:
            raise PbemError("D006", f"echoed faces {echo.faces} differ from the derivation {expected}")
        game.echoed.add(record.key)
        del game.unechoed[record.key]


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
