"""Dice bookkeeping of a replay: rolls declared by actions, seeds revealed from each seat's chain, and rolls
resolved into faces (public) or into a hidden value (a private draw).

A roll is open from the action that declares it until every seat of its quorum has revealed its next seed;
the mover later echoes the faces of its public rolls. Each is a function of the
:class:`~pbem.replay.game.Game` it updates.
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
from pbem.rules.contract import Event, Outcome, RollRequest, RollSpec, Step

if TYPE_CHECKING:
    from pbem.replay.game import Game

__all__ = ["apply_reveal", "check_echo", "declare"]


def declare(
    game: Game,
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
        raise PbemError("R008", f"{game.ruleset.id} asks for a private draw owned by another seat")
    if (declared.commit is None) != (request.owner is None):
        raise PbemError("D007", "a private draw needs its owner's commitment, and only it")
    _take_seed(game, book, declared.index, declared.seed)
    roll = PendingRoll(
        key=env.id,
        line=game.line,
        mover=book.seat,
        request=request,
        awaiting=game.quorum(book.seat),
        seeds={book.seat: declared.seed},
        commit=declared.commit,
    )
    if request.owner is not None:
        assert request.slot is not None and declared.commit is not None and game.state is not None
        old = game.state.hidden.get(request.slot)
        roll.ver = 0 if old is None else old.ver + 1
        epoch_no = len(book.epochs) - 1
        if game.knows(book.seat, epoch_no):
            secret = derive.draw_secret(game.secret(book.seat, epoch_no), request.slot, roll.ver)
            if hidden.commit_draw(game.id, book.seat, request.slot, roll.ver, secret) != declared.commit:
                raise PbemError("H003", f"{book.seat}'s private draw commitment is not its derived secret")
    game.pending[env.id] = roll


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
    game.require_play(entry)
    body = entry.body
    if body.for_ not in entry.deps:
        raise PbemError("D004", "a reveal must depend on the roll it answers")
    if (body.for_, book.seat) in game.resolved:
        raise PbemError("D005", f"{book.seat} has already revealed for this roll")
    roll = game.pending.get(body.for_)
    if roll is None or book.seat not in roll.awaiting:
        raise PbemError("D001", f"no open roll waits for {book.seat}'s seed")
    _take_seed(game, book, body.index, body.seed)
    game.resolved.add((body.for_, book.seat))
    roll.awaiting.remove(book.seat)
    roll.seeds[book.seat] = body.seed
    if roll.awaiting:
        return []
    return _resolve(game, env, entry.author, roll)


def _resolve(game: Game, env: Envelope, author: str, roll: PendingRoll) -> list[Event]:
    assert game.state is not None
    del game.pending[roll.key]
    request = roll.request
    groups = [(r.sides, r.n) for r in request.rolls]
    state = game.state.model_copy(update={"rolls": None})
    if request.owner is None:
        drawn = faces(roll_seed(game.id, roll.key, roll.seeds), groups)
        dice = {r.id: tuple(f) for r, f in zip(request.rolls, drawn, strict=True)}
        game.rolls.append(RollRecord(game.id, roll.key, game.line, roll.mover, request, dict(roll.seeds), dice))
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
            value = draw_value(request, roll_seed(game.id, roll.key, roll.seeds, secret_hex))
        state = state.with_hidden(request.slot, request.owner, value, known=value is not None)
        game.commitments[(request.slot, roll.ver)] = Commitment(
            request.owner, request.slot, roll.ver, roll.commit, None, epoch_no, roll.clone()
        )
        dice_known = None if value is None else {k: tuple(v) for k, v in value.items()}
        game.rolls.append(
            RollRecord(
                game.id,
                roll.key,
                game.line,
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
    step: Step[Any] = game.ruleset.resume(state, outcome)
    game.state = step.state
    hidden_changes(game, before, step.state, author, None, skip=set())
    if step.state.rolls is not None:  # a roll that follows from the last one, with no decision between
        _chain_roll(game, env, roll.mover, step.state.rolls)
    return [*events, *step.events]


def _chain_roll(game: Game, env: Envelope, mover: str, request: RollRequest) -> None:
    if request.owner is not None:
        raise PbemError("R008", f"{game.ruleset.id} chains a private draw to a roll")
    awaiting = sorted({mover, *game.quorum(mover)})
    game.pending[env.id] = PendingRoll(env.id, game.line, mover, request, awaiting, {})


def check_echo(game: Game, entry: ActionEntry) -> None:
    if not entry.body.echo:
        return
    records = {r.entry: r for r in game.to_echo(entry.author)}
    for echo in entry.body.echo:
        record = records.pop(echo.for_, None)  # a roll is echoed once: a repeat, here or later, is D006
        if record is None or record.faces is None:
            raise PbemError("D006", f"echo of an unknown, unresolved or already echoed roll {echo.for_[:16]}…")
        expected = [f for group in record.faces.values() for f in group]
        if echo.faces != expected:
            raise PbemError("D006", f"echoed faces {echo.faces} differ from the derivation {expected}")
        game.echoed.add(echo.for_)


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
