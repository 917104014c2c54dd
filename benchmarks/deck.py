"""The cost of shared hidden decks against one Ed25519 verification, measured in one run.

Times, with libsodium through PyNaCl (pbem.log.deck) on a 42-card deck (Rommel in the Desert's supply deck):

* ``ed25519_verify``: one strict Ed25519 verification of an entry (pbem.log.sign, what every entry costs);
* ``shuffle_make`` / ``shuffle_check``: one seat's shuffle step of 42 cards (derive the scalar and order from
  the game secret, mask, permute, prove) and the verifier's check of it (42 point validations, two sums,
  one proof);
* ``deal5_make`` / ``deal5_check``: stripping one layer from 5 dealt cards with their proofs, and checking
  them; ``deal5_receive``: the receiver strips its own layer and finds the 5 cards;
* ``play_make`` / ``play_check``: revealing one card with its Chaum–Pedersen proof, and checking it;
* ``audit_round``: the audit of one full shuffle round of two seats (both steps redone from the disclosed
  secrets and compared);
* ``audit_game``: ``pbem verify`` with every secret disclosed of a whole High Card game on 42 cards (3 deals
  of 7 cards each, so 3 shuffle rounds), against the same game verified without the secrets.

Prints one JSON object (microseconds, and each cost in Ed25519 verifications). The bound the issue sets is
checked: a 42-card shuffle, made or checked, must cost less than verifying 50 entries (exit 1 otherwise).
Run: ``.venv/bin/python benchmarks/deck.py``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.log import deck
from pbem.log.keys import KeyPair
from pbem.log.sign import PublicKey
from pbem.verify.pipeline import verify_lines
from tests.helpers import play_in_memory

GAME = hashlib.sha256(b"benchmark game").hexdigest()
SIZE = 42


VERIFY: list[Callable[[], Any]] = []  # one Ed25519 verification, timed beside every measurement


def _once(fn: Callable[[], Any], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat * 1e6


def timed(fn: Callable[[], Any], repeat: int) -> float:
    """Microseconds per call of ``fn``, in Ed25519 verifications' time measured alongside: five rounds that
    each time ``fn`` and the verification back to back, so a busy machine slows both alike; the best ratio,
    times the best verification time."""
    ratios, verifies = [], []
    for _ in range(5):
        cost = _once(fn, repeat)
        verify = _once(VERIFY[0], 200)
        ratios.append(cost / verify)
        verifies.append(verify)
    return min(ratios) * min(verifies)


def main() -> int:
    pair = KeyPair.from_private(Ed25519PrivateKey.from_private_bytes(b"k" * 32))
    message = b"an entry's signing input" * 10
    signature = pair.private.sign(message)
    public = PublicKey.from_hex(pair.public.hex)
    VERIFY.append(lambda: public.verify(signature, message))
    verify_us = min(_once(VERIFY[0], 2000) for _ in range(5))

    secrets = [hashlib.sha256(seat).digest() for seat in (b"north", b"south")]
    cards = deck.card_points(GAME, "supply", SIZE)
    context = {"game": GAME, "deck": "supply", "after": "00" * 32, "seat": "north", "use": "shuffle", "index": 0}

    total = deck.point_sum(cards)  # a deck keeps the sum of its points from step to step

    def make_shuffle() -> tuple[list[bytes], bytes, bytes]:
        step = deck.derive_step(secrets[0], "supply", 0, SIZE)
        out = deck.apply_step(step, cards)
        layer, proof, _ = deck.prove_step(step, total, out, deck.BASE, context)
        return out, layer, proof

    def check_shuffle() -> None:
        assert deck.verify_step(SIZE, total, out, deck.BASE, layer, context, proof)[0] is None

    out, layer, proof = make_shuffle()
    check_shuffle()
    shuffle_make = timed(make_shuffle, 30)
    shuffle_check = timed(check_shuffle, 30)

    # a second seat shuffles; then 5 cards are dealt to north: south strips its layer
    step2 = deck.derive_step(secrets[1], "supply", 0, SIZE)
    stack = deck.apply_step(step2, out)
    key_n, key_s = deck.derive_step(secrets[0], "supply", 0, SIZE).scalar, step2.scalar
    layer_s = deck.mul(key_s, deck.BASE)
    dealt = stack[:5]

    def strip() -> list[tuple[bytes, bytes]]:
        inverse = deck.invert(key_s)
        result = []
        for i, point in enumerate(dealt):
            new = deck.mul(inverse, point)
            result.append((new, deck.prove_layer(key_s, new, point, {**context, "use": "strip", "index": i})))
        return result

    stripped = strip()

    def check_strip() -> None:
        for i, (point, (new, prf)) in enumerate(zip(dealt, stripped, strict=True)):
            assert deck.verify_layer(layer_s, new, point, {**context, "use": "strip", "index": i}, prf)

    index = {p: i for i, p in enumerate(cards)}

    def receive() -> list[int]:
        inverse = deck.invert(key_n)
        return [index[deck.mul(inverse, new)] for new, _ in stripped]

    hand = receive()
    deal_make, deal_check, deal_receive = timed(strip, 30), timed(check_strip, 30), timed(receive, 30)

    held, card = stripped[0][0], hand[0]
    layer_n = deck.mul(key_n, deck.BASE)
    play_context = {**context, "use": "reveal"}
    play_proof = deck.prove_layer(key_n, cards[card], held, play_context)
    play_make = timed(lambda: deck.prove_layer(key_n, cards[card], held, play_context), 200)
    play_check = timed(lambda: deck.verify_layer(layer_n, cards[card], held, play_context, play_proof), 200)

    def audit_round() -> None:
        first = deck.derive_step(secrets[0], "supply", 0, SIZE)
        assert deck.audit_step(first, cards, out) is None
        assert deck.audit_step(deck.derive_step(secrets[1], "supply", 0, SIZE), out, stack) is None

    audit_us = timed(audit_round, 20)

    lines = play_in_memory(
        "highcard", "duel", {"cards": SIZE, "hand": 7, "deals": 3, "keep": 2, "dealer": False}, random.Random(1)
    )
    start = time.perf_counter()
    report = verify_lines(lines)[0]  # the audit: every secret is disclosed in the log
    audit_game = (time.perf_counter() - start) * 1e6
    assert report.valid and report.audit == "complete"
    shuffles = sum(b'"type":"deck-shuffle"' in line for line in lines)

    costs = {
        "shuffle_make": shuffle_make,
        "shuffle_check": shuffle_check,
        "deal5_make": deal_make,
        "deal5_check": deal_check,
        "deal5_receive": deal_receive,
        "play_make": play_make,
        "play_check": play_check,
        "audit_round": audit_us,
    }
    bound = 50 * verify_us
    result = {
        "cards": SIZE,
        "ed25519_verify_us": round(verify_us, 1),
        **{f"{name}_us": round(us, 1) for name, us in costs.items()},
        **{f"{name}_in_verifies": round(us / verify_us, 1) for name, us in costs.items()},
        "audit_game": {"entries": len(lines), "shuffle_steps": shuffles, "ms": round(audit_game / 1000, 1)},
        "bound_50_verifies_us": round(bound, 1),
        "shuffle_under_bound": shuffle_make < bound and shuffle_check < bound,
    }
    print(json.dumps(result, indent=1))
    return 0 if result["shuffle_under_bound"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
