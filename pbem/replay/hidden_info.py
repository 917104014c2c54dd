"""Hidden-information bookkeeping of a replay: sealed commitments, their openings, and hidden entries.

A hidden value is committed when the rules create or change it (sealed in the acting entry, or owed by
another owner in its next one) and checked when it is opened. With the owner's game secret the replay also
reads the sealed value and checks that it is the one the rules produced; without it, only the commitments.
Each is a function of the :class:`~pbem.replay.game.Game` it updates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.errors import PbemError
from pbem.log import derive, hidden
from pbem.log.dice import roll_seed
from pbem.log.entry import Envelope, HiddenEntry, Sealed
from pbem.replay.basics import UNKNOWN, draw_value
from pbem.replay.books import Commitment, OwedSeal, SeatBook
from pbem.rules.contract import Event, GameState, HiddenSlot, Outcome, Step, updated

if TYPE_CHECKING:
    from pbem.replay.game import Game

__all__ = ["SealCursor", "apply_hidden", "commit", "hidden_changes", "unseal"]


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


def unseal(game: Game, book: SeatBook, item: Sealed) -> tuple[bool, Any]:
    """The sealed value (known, value) if the replaying party can open it; checks it at audit."""
    epoch_no = len(book.epochs) - 1
    if not game.knows(book.seat, epoch_no):
        return False, None
    secret = game.secret(book.seat, epoch_no)
    try:
        value = hidden.unseal(derive.seal_key(secret, item.slot, item.ver), item.enc, item.commit)
    except ValueError as exc:
        raise PbemError("H007", f"{book.seat}'s sealed value of {item.slot} v{item.ver} does not decrypt") from exc
    salt = derive.salt(secret, item.slot, item.ver)
    if hidden.commit_value(game.id, book.seat, item.slot, item.ver, salt, value) != item.commit:
        raise PbemError("H007", f"{book.seat}'s sealed value of {item.slot} v{item.ver} is not the committed one")
    return True, value


def commit(game: Game, owner: str, item: Sealed) -> None:
    epoch = len(game.seats[owner].epochs) - 1
    game.commitments[(item.slot, item.ver)] = Commitment(owner, item.slot, item.ver, item.commit, item.enc, epoch)


def hidden_changes(game: Game, before: GameState, after: GameState, author: str, seals: Any, skip: set[str]) -> None:
    """Commitments for every slot the rules changed: the acting owner's ``seals`` carry them now;
    any other owner owes them in its next entry (``seals`` is None when the change came from dice
    or openings, where the entry's author has nothing to seal with)."""
    if after.hidden is before.hidden:
        return
    if any(not before.hidden[name].public for name in before.hidden.keys() - after.hidden.keys()):
        raise PbemError("R008", f"{game.ruleset.id} removed a hidden slot that was never opened")
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
            _check_transition(game, slot, item)
            commit(game, slot.owner, item)
        else:
            seq = game.seats[author].seq + 1  # the entry being applied
            game.seats[slot.owner].owed_seals.append(OwedSeal(name, slot.ver, author, seq))


def _check_transition(game: Game, slot: HiddenSlot, item: Sealed) -> None:
    """At audit (the owner's secret known), the committed value must be the one the rules produced."""
    owner = game.seats[slot.owner]
    epoch_no = len(owner.epochs) - 1
    if not slot.known or not game.knows(slot.owner, epoch_no):
        return
    salt = derive.salt(game.secret(slot.owner, epoch_no), item.slot, item.ver)
    if hidden.commit_value(game.id, slot.owner, item.slot, item.ver, salt, slot.value) != item.commit:
        raise PbemError(
            "H002",
            f"{slot.owner} committed {item.slot} v{item.ver} to another value than the rules produce",
        )


def apply_hidden(game: Game, env: Envelope, entry: HiddenEntry, book: SeatBook) -> list[Event]:
    state = game.require_play(entry)
    if not entry.body.opened and not entry.body.sealed:
        raise PbemError("H006", "an empty hidden entry")
    for item in entry.body.sealed:
        owed = next((o for o in book.owed_seals if (o.slot, o.ver) == (item.slot, item.ver)), None)
        if owed is None:
            raise PbemError("H005", f"commitment to {item.slot} v{item.ver} that nobody owes")
        book.owed_seals.remove(owed)
        _check_transition(game, state.hidden[item.slot], item)
        commit(game, book.seat, item)
        known, value = unseal(game, book, item)
        if known and not state.hidden[item.slot].known:
            slot = updated(state.hidden[item.slot], {"value": value, "known": True})
            state = updated(state, {"hidden": {**state.hidden, item.slot: slot}})
    events: list[Event] = []
    hidden_slots = dict(state.hidden)
    for opening in entry.body.opened:
        asked = hidden_slots.get(opening.slot)
        if asked is None or asked.owner != book.seat or not asked.must_open:
            raise PbemError("H006", f"{book.seat} opens {opening.slot}, which the rules do not ask it to open")
        value = _check_opening(game, book.seat, asked, opening.slot, opening)
        hidden_slots[opening.slot] = updated(asked, {"value": value, "known": True, "public": True, "must_open": False})
        game.opened_round.append(opening.slot)
        events.append(
            Event(
                kind="hidden_opened",
                seat=book.seat,
                data={"slot": opening.slot, "value": value},
                text=f"{book.seat} opened {opening.slot}",
            )
        )
    state = updated(state, {"hidden": hidden_slots})
    game.state = state
    if game.opened_round and not any(s.must_open for s in state.hidden.values()):
        opened, game.opened_round = tuple(game.opened_round), []
        step: Step[Any] = game.ruleset.resume(state, Outcome(opened=opened))
        game.state = step.state
        hidden_changes(game, state, step.state, book.seat, None, skip=set())
        if step.state.rolls is not None:
            raise PbemError("R008", f"{game.ruleset.id} asks for dice right after an opening")
        events.extend(step.events)
    return events


def _check_opening(game: Game, owner: str, slot: HiddenSlot, name: str, opening: Any) -> Any:
    commitment = game.commitments.get((name, slot.ver))
    if opening.ver != slot.ver or commitment is None:
        raise PbemError("H001", f"opening of {name} v{opening.ver} where v{slot.ver} is committed")
    if commitment.draw is None:
        if opening.salt is None:
            raise PbemError("H001", f"opening of {name} lacks its salt")
        salt = bytes.fromhex(opening.salt)
        if hidden.commit_value(game.id, owner, name, slot.ver, salt, opening.value) != commitment.commit:
            raise PbemError("H001", f"opening of {name} v{slot.ver} does not match its commitment")
        return opening.value
    if opening.secret is None:
        raise PbemError("H003", f"opening of private draw {name} lacks its secret")
    secret = bytes.fromhex(opening.secret)
    if hidden.commit_draw(game.id, owner, name, slot.ver, secret) != commitment.commit:
        raise PbemError("H003", f"private draw secret of {name} does not match its commitment")
    roll = commitment.draw
    value = draw_value(roll.request, roll_seed(game.id, roll.action(game.id), roll.seeds, opening.secret))
    return value
