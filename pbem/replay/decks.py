"""Shared hidden decks in a replay: the protocol of PROTOCOL.md §14 around :mod:`pbem.log.deck`.

A game asks for a deck operation by setting ``GameState.deck`` (shuffle, deal, reveal). The engine turns it
into **duties**, entries that named seats owe in a fixed order:

* shuffle: every player in reverse seat order adds its layer to the returned cards (``deck-rekey``, only
  when cards are returned), then every player in seat order masks and permutes the deck (``deck-shuffle``);
* deal n cards to a seat: the top n positions leave the deck, and every other player in seat order strips
  its layer from them (``deck-strip``); the receiver strips its own privately and learns the cards;
* reveal: the owner shows cards of its hand, each with a proof that it is the card dealt (``deck-reveal``).

Every duty names the deck's head (the last entry that changed it), so a stale or replayed entry is refused.
Strips, re-keys and reveals carry Chaum–Pedersen proofs checked at once; a shuffle carries the proof that its
layer and the deck's sum moved by one factor, and is redone exactly from the seat's secret wherever the
replaying party knows it (at the audit: every shuffle). When the last duty is done the engine updates
``GameState.decks`` and calls the module's ``resume``.

In dealer mode (§14.10) a referee holds the deck's only lasting layer: the players' shuffle steps are masks
they take off again (``unmask``), and a deal is the receiver's mask on its cards (``mask``) and the dealer's
strip.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from pbem.errors import PbemError
from pbem.log import deck as crypto
from pbem.log.entry import DeckRekeyEntry, DeckRevealEntry, DeckShuffleEntry, DeckStripEntry, Envelope
from pbem.replay.books import Await, SeatBook
from pbem.replay.hidden_info import hidden_changes
from pbem.rules.contract import Deck, DeckRequest, Event, Outcome, Step, updated

if TYPE_CHECKING:
    from pbem.replay.game import Game

__all__ = [
    "Duty",
    "HandCard",
    "SharedDeck",
    "advance",
    "apply_rekey",
    "apply_reveal",
    "apply_shuffle",
    "apply_strip",
    "awaiting",
    "owed",
]

DeckEntry = DeckRekeyEntry | DeckShuffleEntry | DeckStripEntry | DeckRevealEntry
DutyKind = Literal["rekey", "shuffle", "strip", "reveal", "mask", "unmask"]
_ENTRY_TYPE: dict[str, str] = {"rekey": "deck-rekey", "shuffle": "deck-shuffle", "strip": "deck-strip"}
_ENTRY_TYPE |= {"reveal": "deck-reveal", "mask": "deck-shuffle", "unmask": "deck-strip"}  # the last two: dealer mode
_WHAT = {"rekey": "add a layer to the cards returned to", "shuffle": "shuffle", "strip": "deal from"}
_WHAT |= {"reveal": "reveal cards from", "mask": "mask the cards dealt from", "unmask": "take its mask off"}


@dataclass(frozen=True)
class Duty:
    kind: DutyKind
    seat: str

    def describe(self, deck: str) -> str:
        return f"{_WHAT[self.kind]} deck {deck}"


@dataclass(frozen=True)
class StepRecord:
    """One shuffle step of a seat: the shuffle number, the key epoch whose secret made it, the deck size."""

    number: int
    epoch: int
    size: int


@dataclass(frozen=True)
class HandCard:
    """A dealt card: ``point`` is the card under its owner's layer alone, ``layer`` the owner's layer point
    when it was dealt and ``steps`` the steps that made that layer (the owner may shuffle again before it
    reveals the card), ``card`` the card if the replaying party knows the owner's secret."""

    point: bytes
    layer: bytes
    steps: tuple[StepRecord, ...]
    card: int | None


@dataclass
class SharedDeck:
    """The public protocol state of one deck (points, layer points, hands, duties) and what the replaying
    party can see of it."""

    name: str
    game: str
    seats: tuple[str, ...]  # the players, in seat order: each holds a layer
    cards: list[bytes]  # the card points, by card number
    head: str
    stack: list[bytes] = field(default_factory=list)
    layers: dict[str, bytes] = field(default_factory=dict)
    steps: dict[str, list[StepRecord]] = field(default_factory=dict)
    number: int = -1  # the current shuffle's number (0 for the first)
    hands: dict[str, list[HandCard]] = field(default_factory=dict)
    faceup: list[int] = field(default_factory=list)
    request: DeckRequest | None = None
    duties: list[Duty] = field(default_factory=list)
    returning: list[bytes] = field(default_factory=list)  # returned cards gaining their layers
    dealing: list[bytes] = field(default_factory=list)  # dealt positions losing theirs
    dealer: str | None = None  # dealer mode: the referee seat that holds the deck's only lasting layer
    seen: list[int | None] = field(default_factory=list)  # dealer mode: the dealt cards, if the dealer's known
    cached_total: bytes = b""  # the sum of stack and returning, once computed (b"": not yet)

    def clone(self) -> SharedDeck:
        return replace(
            self,
            stack=list(self.stack),
            layers=dict(self.layers),
            steps={s: list(r) for s, r in self.steps.items()},
            hands={s: list(h) for s, h in self.hands.items()},
            faceup=list(self.faceup),
            duties=list(self.duties),
            returning=list(self.returning),
            dealing=list(self.dealing),
            seen=list(self.seen),
        )

    def context(self, seat: str, use: str, index: int) -> dict[str, Any]:
        """The proof context: binds every proof to its game, deck, state, seat, purpose and position."""
        return {"game": self.game, "deck": self.name, "after": self.head, "seat": seat, "use": use, "index": index}

    def public(self) -> Deck:
        hands = {seat: tuple(c.card for c in cards) for seat, cards in self.hands.items()}
        size = len(self.stack) + len(self.returning) + len(self.dealing)  # cards being dealt are not in hand yet
        return Deck(size=size, hands=hands, faceup=tuple(self.faceup))

    def total(self) -> bytes:
        """The sum of the points a shuffle step takes (a step proves it moved by the step's factor)."""
        if not self.cached_total:
            self.cached_total = crypto.point_sum(self.stack + self.returning)
        return self.cached_total

    def card_of(self, point: bytes) -> int | None:
        try:
            return self.cards.index(point)
        except ValueError:
            return None


# --- keys -------------------------------------------------------------------------------------------
def _secret(game: Game, seat: str, epoch: int) -> bytes | None:
    return game.secret(seat, epoch) if game.knows(seat, epoch) else None


def _step(game: Game, deck: SharedDeck, seat: str, record: StepRecord) -> crypto.Step | None:
    secret = _secret(game, seat, record.epoch)
    return None if secret is None else crypto.derive_step(secret, deck.name, record.number, record.size)


def layer_key(game: Game, deck: SharedDeck, seat: str, steps: tuple[StepRecord, ...] | None = None) -> bytes | None:
    """``seat``'s layer on ``deck`` (now, or the one its ``steps`` made) if the replaying party knows every
    secret it was made with."""
    scalars = []
    for record in deck.steps[seat] if steps is None else steps:
        step = _step(game, deck, seat, record)
        if step is None:
            return None
        scalars.append(step.scalar)
    return crypto.layer_key(scalars)


# --- starting and finishing operations -------------------------------------------------------------
def advance(game: Game, entry_id: str, author: str) -> list[Event]:
    """Start the deck operation the rules ask for, if none is running; finish it at once if it owes nothing."""
    events: list[Event] = []
    while game.state is not None and game.state.deck is not None:
        request = game.state.deck
        deck = game.decks.get(request.deck)
        if deck is not None and deck.request is not None:
            return events  # running: its duties are owed
        deck = _start(game, request, deck, entry_id)
        game.decks[request.deck] = deck
        if deck.duties:
            return events
        events.extend(_finish(game, deck, (), author))
    return events


def _start(game: Game, request: DeckRequest, deck: SharedDeck | None, entry_id: str) -> SharedDeck:
    players = tuple(game.roster.players)
    module = game.ruleset.id
    if deck is None:
        if request.op != "shuffle" or not 1 <= request.size <= 256 or request.returned:
            raise PbemError("R008", f"{module} uses deck {request.deck} before shuffling it as a new deck")
        dealer = request.dealer
        if dealer is not None and (dealer not in game.seats or game.seats[dealer].role != "referee"):
            raise PbemError("R008", f"{module} names {dealer} as the dealer of {request.deck}, but it is no referee")
        cards = crypto.card_points(game.id, request.deck, request.size)
        deck = SharedDeck(request.deck, game.id, players, cards, "", list(cards), dealer=dealer)
        layered = (*players, dealer) if dealer is not None else players
        deck.layers = dict.fromkeys(layered, crypto.BASE)
        deck.steps = {seat: [] for seat in layered}
        deck.hands = {seat: [] for seat in players}
    deck = deck.clone()
    deck.head, deck.request, deck.cached_total = entry_id, request, b""
    if request.op == "shuffle":
        if (request.size and request.size != len(deck.cards)) or len(set(request.returned)) != len(request.returned):
            raise PbemError("R008", f"{module} shuffles deck {request.deck} with a wrong size or returned list")
        if not set(request.returned) <= set(deck.faceup):
            raise PbemError("R008", f"{module} returns cards to deck {request.deck} that are not face up")
        deck.faceup = [c for c in deck.faceup if c not in request.returned]
        deck.returning = [deck.cards[c] for c in request.returned]
        deck.number += 1
        if deck.dealer is None:
            rekeys = [Duty("rekey", s) for s in reversed(players)] if deck.returning else []
            deck.duties = [*rekeys, *(Duty("shuffle", s) for s in players)]
        else:  # the players fix the order, the dealer masks last, then the players take their masks off
            rekeys = [Duty("rekey", deck.dealer)] if deck.returning else []
            shuffles = [*(Duty("shuffle", s) for s in players), Duty("shuffle", deck.dealer)]
            deck.duties = [*rekeys, *shuffles, *(Duty("unmask", s) for s in players)]
    elif request.op == "deal":
        if request.seat not in players or not 0 <= request.n <= len(deck.stack) or deck.number < 0:
            raise PbemError("R008", f"{module} deals {request.n} cards of deck {request.deck} to {request.seat}")
        deck.dealing, deck.stack = deck.stack[: request.n], deck.stack[request.n :]
        if deck.dealer is None:
            deck.duties = [Duty("strip", s) for s in players if s != request.seat] if request.n else []
        elif request.n:  # the receiver masks its cards, then the dealer strips its layer
            deck.number += 1  # a fresh step number for the receiver's mask
            deck.duties = [Duty("mask", request.seat), Duty("strip", deck.dealer)]
            deck.seen = _dealer_sees(game, deck)
    else:
        held = len(deck.hands.get(request.seat or "", ()))
        if request.seat not in players or any(not 0 <= i < held for i in request.hand):
            raise PbemError("R008", f"{module} asks {request.seat} to reveal cards it does not hold")
        if len(set(request.hand)) != len(request.hand):
            raise PbemError("R008", f"{module} asks for one card twice")
        deck.duties = [Duty("reveal", request.seat)] if request.hand else []
    return deck


def _finish(game: Game, deck: SharedDeck, revealed: tuple[int, ...], author: str) -> list[Event]:
    request = deck.request
    assert request is not None and game.state is not None
    if request.op == "deal" and request.n:
        assert request.seat is not None
        events = [Event(kind="cards_dealt", seat=request.seat, data={"deck": deck.name, "n": request.n},
                        text=f"{request.n} cards dealt from {deck.name}")]  # fmt: skip
    elif request.op == "shuffle":
        events = [Event(kind="deck_shuffled", data={"deck": deck.name, "size": len(deck.stack)},
                        text=f"{deck.name} shuffled by every player ({len(deck.stack)} cards)")]  # fmt: skip
    else:
        events = []
    deck.request, deck.duties = None, []
    state = updated(game.state, {"deck": None, "decks": {**game.state.decks, deck.name: deck.public()}})
    step: Step[Any] = game.ruleset.resume(state, Outcome(revealed=revealed))
    if step.state.rolls is not None:
        raise PbemError("R008", f"{game.ruleset.id} asks for dice right after a deck operation")
    game.state = step.state
    hidden_changes(game, state, step.state, author, None, skip=set())
    return [*events, *step.events]


# --- the entries ------------------------------------------------------------------------------------
def _duty(game: Game, entry: DeckEntry, book: SeatBook, name: str, after: str) -> tuple[SharedDeck, DutyKind]:
    game.require_play(entry)
    if game.result is not None:  # a resignation ends every deck operation with the game
        raise PbemError("C011", f"{entry.type} after the game has ended")
    deck = game.decks.get(name)
    if deck is None or not deck.duties:
        raise PbemError("E001", f"deck {name} waits for no {entry.type} now")
    duty = deck.duties[0]
    if duty.seat != book.seat or _ENTRY_TYPE[duty.kind] != entry.type:
        raise PbemError("E001", f"deck {name} waits for {duty.seat} to {duty.describe(name)}, not {book.seat}")
    if after != deck.head:
        raise PbemError("E002", f"{book.seat} builds on deck state {after[:16]}…, but {name} is at {deck.head[:16]}…")
    return deck, duty.kind


def _done(game: Game, env: Envelope, book: SeatBook, deck: SharedDeck, revealed: tuple[int, ...] = ()) -> list[Event]:
    deck.duties.pop(0)
    deck.head = env.id
    if game.state is not None and deck.request is not None:
        game.state = updated(game.state, {"decks": {**game.state.decks, deck.name: deck.public()}})
    if deck.duties:
        return []
    return _finish(game, deck, revealed, book.seat)  # Game.apply then starts what the rules ask for next


def _points(values: list[str]) -> list[bytes]:
    return [bytes.fromhex(v) for v in values]


def apply_rekey(game: Game, env: Envelope, entry: DeckRekeyEntry, book: SeatBook) -> list[Event]:
    body = entry.body
    deck, _ = _duty(game, entry, book, body.deck, body.after)
    points = _points(body.points)
    if len(points) != len(deck.returning) or len(body.proofs) != len(points):
        raise PbemError("E004", f"{book.seat} re-keys {len(points)} cards where {len(deck.returning)} return")
    for i, (old, new, proof) in enumerate(zip(deck.returning, points, body.proofs, strict=True)):
        context = deck.context(book.seat, "rekey", i)
        if not crypto.verify_layer(deck.layers[book.seat], old, new, context, bytes.fromhex(proof)):
            raise PbemError(
                "E004", f"{book.seat}'s re-key of returned card {i} of {deck.name} does not match its layer"
            )
    deck.returning, deck.cached_total = points, b""
    return _done(game, env, book, deck)


def _fresh_layer(deck: SharedDeck, seat: str) -> None:
    """Dealer mode: a player's mask lasts one step (its cards' or the deck's), so each step starts from 1."""
    if deck.dealer is not None and seat != deck.dealer:
        deck.layers[seat], deck.steps[seat] = crypto.BASE, []


def apply_shuffle(game: Game, env: Envelope, entry: DeckShuffleEntry, book: SeatBook) -> list[Event]:
    body = entry.body
    deck, kind = _duty(game, entry, book, body.deck, body.after)
    _fresh_layer(deck, book.seat)
    masking = kind == "mask"  # dealer mode: the receiver masks the cards dealt to it
    before = list(deck.dealing) if masking else deck.stack + deck.returning
    total = crypto.point_sum(before) if masking else deck.total()
    out, layer = _points(body.stack), bytes.fromhex(body.layer)
    context = deck.context(book.seat, "shuffle", 0)
    proof = bytes.fromhex(body.proof)
    why, after = crypto.verify_step(len(before), total, out, deck.layers[book.seat], layer, context, proof)
    if why is not None:
        raise PbemError("E003", f"{book.seat}'s shuffle of {deck.name}: {why}")
    record = StepRecord(deck.number, len(book.epochs) - 1, len(before))
    step = _step(game, deck, book.seat, record)
    if step is not None:  # the replaying party knows the secret (its own, or disclosed): redo the step exactly
        why = crypto.audit_step(step, before, out)
        if why is None and layer != crypto.mul(step.scalar, deck.layers[book.seat]):
            why = "its layer point is not the derived one"
        if why is not None:
            raise PbemError("E007", f"{book.seat}'s shuffle of {deck.name} (entry {env.id[:16]}…): {why}")
    if masking:
        deck.dealing = out
    else:
        deck.stack, deck.returning, deck.cached_total = out, [], after
    deck.layers[book.seat] = layer
    deck.steps[book.seat].append(record)
    return _done(game, env, book, deck)


def apply_strip(game: Game, env: Envelope, entry: DeckStripEntry, book: SeatBook) -> list[Event]:
    body = entry.body
    deck, kind = _duty(game, entry, book, body.deck, body.after)
    unmask = kind == "unmask"  # dealer mode: a player takes its mask off the whole deck
    before = deck.stack if unmask else deck.dealing
    points = _points(body.points)
    if len(points) != len(before) or len(body.proofs) != len(points):
        raise PbemError("E004", f"{book.seat} strips {len(points)} cards where {len(before)} are due")
    for i, (old, new, proof) in enumerate(zip(before, points, body.proofs, strict=True)):
        context = deck.context(book.seat, "strip", i)
        if not crypto.verify_layer(deck.layers[book.seat], new, old, context, bytes.fromhex(proof)):
            raise PbemError("E004", f"{book.seat}'s strip of card {i} of {deck.name} does not match its layer")
    if unmask:
        deck.stack, deck.cached_total = points, b""
        _fresh_layer(deck, book.seat)
        return _done(game, env, book, deck)
    deck.dealing = points
    if len(deck.duties) == 1:  # the last strip: the cards reach the receiver's hand
        request = deck.request
        assert request is not None and request.seat is not None
        _to_hand(game, deck, request.seat)
    return _done(game, env, book, deck)


def _to_hand(game: Game, deck: SharedDeck, seat: str) -> None:
    key = layer_key(game, deck, seat)
    layer = deck.layers[seat]
    seen = deck.seen or [None] * len(deck.dealing)
    for point, dealer_saw in zip(deck.dealing, seen, strict=True):
        card = dealer_saw
        if key is not None:
            card = deck.card_of(crypto.mul(crypto.invert(key), point))
            if card is None:
                raise PbemError("E007", f"a card dealt to {seat} from {deck.name} is no card: a shuffle was false")
        deck.hands[seat].append(HandCard(point, layer, tuple(deck.steps[seat]), card))
    deck.dealing, deck.seen = [], []


def _dealer_sees(game: Game, deck: SharedDeck) -> list[int | None]:
    """Dealer mode, with the dealer's secret known: the cards it deals (the weaker mode's price). The deck
    carries the dealer's layer alone, so it sees them before the receiver masks them."""
    key = None if deck.dealer is None else layer_key(game, deck, deck.dealer)
    if key is None:
        return [None] * len(deck.dealing)
    inverse = crypto.invert(key)
    return [deck.card_of(crypto.mul(inverse, p)) for p in deck.dealing]


def apply_reveal(game: Game, env: Envelope, entry: DeckRevealEntry, book: SeatBook) -> list[Event]:
    body = entry.body
    deck, _ = _duty(game, entry, book, body.deck, body.after)
    request = deck.request
    assert request is not None
    hand = deck.hands[book.seat]
    for item in body.cards:
        if item.hand >= len(hand):
            raise PbemError("E005", f"{book.seat} holds no card at position {item.hand} of its {deck.name} hand")
    if [c.hand for c in body.cards] != list(request.hand):
        raise PbemError("E001", f"{book.seat} reveals other cards than the game asks for ({list(request.hand)})")
    shown: list[int] = []
    for i, item in enumerate(body.cards):
        if item.card >= len(deck.cards) or item.card in deck.faceup or item.card in shown:
            raise PbemError("E008", f"{book.seat} reveals card {item.card} of {deck.name}, which is face up or none")
        held = hand[item.hand]
        context = deck.context(book.seat, "reveal", i)
        point = deck.cards[item.card]
        if not crypto.verify_layer(held.layer, point, held.point, context, bytes.fromhex(item.proof)):
            raise PbemError("E006", f"{book.seat}'s card {item.card} is not the card dealt to position {item.hand}")
        shown.append(item.card)
    for position in sorted(request.hand, reverse=True):
        del hand[position]
    deck.faceup.extend(shown)
    events = [Event(kind="cards_revealed", seat=book.seat, data={"deck": deck.name, "cards": shown},
                    text=f"revealed {', '.join(map(str, shown))} from {deck.name}")]  # fmt: skip
    return events + _done(game, env, book, deck, tuple(shown))


# --- what is owed -----------------------------------------------------------------------------------
def awaiting(game: Game) -> list[Await]:
    if game.result is not None:
        return []
    return [Await(d.duties[0].seat, "deck", d.duties[0].describe(d.name)) for d in game.decks.values() if d.duties]


def owed(game: Game, seat: str) -> tuple[str, dict[str, Any]] | None:
    """The deck entry ``seat`` owes next, built with its own secret (the client side of the duties)."""
    if game.result is not None:
        return None
    for deck in game.decks.values():
        if not deck.duties or deck.duties[0].seat != seat:
            continue
        kind = deck.duties[0].kind
        base = {"deck": deck.name, "after": deck.head}
        if kind in ("shuffle", "mask"):
            before = list(deck.dealing) if kind == "mask" else deck.stack + deck.returning
            total = crypto.point_sum(before) if kind == "mask" else deck.total()
            record = StepRecord(deck.number, len(game.seats[seat].epochs) - 1, len(before))
            step = _step(game, deck, seat, record)
            assert step is not None, "a seat knows its own secret"
            out = crypto.apply_step(step, before)
            context = deck.context(seat, "shuffle", 0)
            trial = deck.clone()
            _fresh_layer(trial, seat)
            layer, proof, _ = crypto.prove_step(step, total, out, trial.layers[seat], context)
            return "deck-shuffle", {**base, "stack": [p.hex() for p in out], "layer": layer.hex(), "proof": proof.hex()}
        if kind == "reveal":
            request = deck.request
            assert request is not None
            cards = []
            for i, position in enumerate(request.hand):
                held = deck.hands[seat][position]
                key = layer_key(game, deck, seat, held.steps)  # the layer the card was dealt under
                assert held.card is not None and key is not None
                proof = crypto.prove_layer(key, deck.cards[held.card], held.point, deck.context(seat, "reveal", i))
                cards.append({"hand": position, "card": held.card, "proof": proof.hex()})
            return "deck-reveal", {**base, "cards": cards}
        key = layer_key(game, deck, seat)
        assert key is not None, "a seat knows its own secret"
        if kind == "rekey":
            points = [crypto.mul(key, p) for p in deck.returning]
            proofs = [crypto.prove_layer(key, old, new, deck.context(seat, "rekey", i))
                      for i, (old, new) in enumerate(zip(deck.returning, points, strict=True))]  # fmt: skip
        else:
            inverse = crypto.invert(key)
            before = deck.stack if kind == "unmask" else deck.dealing
            points = [crypto.mul(inverse, p) for p in before]
            proofs = [crypto.prove_layer(key, new, old, deck.context(seat, "strip", i))
                      for i, (old, new) in enumerate(zip(before, points, strict=True))]  # fmt: skip
        body = {**base, "points": [p.hex() for p in points], "proofs": [p.hex() for p in proofs]}
        return _ENTRY_TYPE[kind], body
    return None
