"""Shared hidden decks: cards as group points, masking layers, shuffle steps and proofs (PROTOCOL.md §14).

Every group operation is libsodium's (through PyNaCl) on the prime-order subgroup of edwards25519; nothing
here does curve arithmetic by hand. ``B`` is the standard base point, ``L`` the group order::

    card(g, d, i)  = from_uniform(h[0:32]) + from_uniform(h[32:64]),
                     h = SHA-512(PAE("pbem/deck-card/v1", JCS({"game": g, "deck": d, "card": i})))

(two Elligator maps added, the random-oracle construction of RFC 9380, so nobody knows a discrete logarithm
between two cards). A seat's **layer** on a deck is a secret scalar ``k`` (the product of the scalars of all
its shuffle steps on that deck) published as its **layer point** ``W = k·B``. A deck position holds
``(k_1·k_2·…)·card``: the layers commute, so any seat can strip its own at any time.

A **shuffle step** multiplies every point by one fresh scalar ``r`` and permutes the list; both come from the
seat's game secret (``seed = derive.deck_seed(K, deck, number)``), so the end-of-game disclosure lets anyone
redo and audit it. Re-masking every point makes the output unlinkable to the input (deciding which output
came from which input is the decisional Diffie–Hellman problem). The step carries a Chaum–Pedersen proof that
the new layer point and the sum of the deck moved by the same factor (``W' = r·W`` and ``ΣQ = r·ΣP``): a
seat cannot claim a layer it does not use, and a step that masks honestly but duplicates, drops or
substitutes a card fails it at once.

Stripping, re-keying and revealing are all one statement, proved by :func:`prove_layer`: ``result = k·base``
for the ``k`` of the layer point ``W = k·B``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from nacl import bindings as sodium
from nacl.exceptions import CryptoError

from pbem.log import derive
from pbem.log.canon import JSONValue, canonical
from pbem.log.dice import faces
from pbem.log.entry import pae

__all__ = [
    "BASE",
    "ONE",
    "Step",
    "apply_step",
    "audit_step",
    "card_point",
    "card_points",
    "derive_step",
    "invert",
    "is_point",
    "layer_key",
    "mul",
    "point_sum",
    "prove_dleq",
    "prove_layer",
    "prove_step",
    "verify_dleq",
    "verify_layer",
    "verify_step",
]

ONE = (1).to_bytes(32, "little")
BASE = sodium.crypto_scalarmult_ed25519_base_noclamp(ONE)
"""The standard Ed25519 base point B: the layer point of a seat with no layer yet."""

_CARD = "pbem/deck-card/v1"
_SCALAR = "pbem/deck-scalar/v1"
_ORDER = "pbem/deck-order/v1"
_DLEQ = "pbem/deck-dleq/v1"
_NONCE = "pbem/deck-dleq-nonce/v1"


# --- points and scalars ---------------------------------------------------------------------------
def card_point(game_id: str, deck: str, index: int) -> bytes:
    """The group point of card ``index`` of ``deck`` in game ``game_id``."""
    h = hashlib.sha512(pae(_CARD, canonical({"game": game_id, "deck": deck, "card": index}))).digest()
    left = sodium.crypto_core_ed25519_from_uniform(h[:32])
    right = sodium.crypto_core_ed25519_from_uniform(h[32:])
    return sodium.crypto_core_ed25519_add(left, right)


def card_points(game_id: str, deck: str, size: int) -> list[bytes]:
    """The points of cards 0 … size−1."""
    return [card_point(game_id, deck, i) for i in range(size)]


def is_point(point: bytes) -> bool:
    """A canonical encoding of a point of the prime-order subgroup other than the identity."""
    return len(point) == 32 and bool(sodium.crypto_core_ed25519_is_valid_point(point))


def _scalar(label: str, material: bytes) -> bytes:
    """A scalar mod L from a domain-separated SHA-512 (reduced: its bias is below 2^-250)."""
    return sodium.crypto_core_ed25519_scalar_reduce(hashlib.sha512(pae(label, material)).digest())


def mul(scalar: bytes, point: bytes) -> bytes:
    """``scalar·point``; raises :class:`ValueError` for an invalid point or a zero result.

    libsodium refuses a point that :func:`is_point` refuses (not canonical, not on the curve, of small order or outside
    the prime-order subgroup) before multiplying, so a product is also a check of its point. The base point takes
    libsodium's fixed-base multiplication: the same product, about four times faster.
    """
    try:
        if point == BASE:
            return sodium.crypto_scalarmult_ed25519_base_noclamp(scalar)
        return sodium.crypto_scalarmult_ed25519_noclamp(scalar, point)
    except (CryptoError, TypeError) as exc:
        raise ValueError("not a point of the group, or a zero scalar") from exc


def invert(scalar: bytes) -> bytes:
    return sodium.crypto_core_ed25519_scalar_invert(scalar)


def layer_key(scalars: Sequence[bytes]) -> bytes:
    """A seat's layer: the product of the scalars of its shuffle steps on one deck (1 before the first)."""
    key = ONE
    for r in scalars:
        key = sodium.crypto_core_ed25519_scalar_mul(key, r)
    return key


def point_sum(points: Sequence[bytes]) -> bytes:
    """The sum of ``points`` (at least one)."""
    total = points[0]
    for point in points[1:]:
        total = sodium.crypto_core_ed25519_add(total, point)
    return total


# --- Chaum–Pedersen proofs of equal discrete logarithms ---------------------------------------------
def _statement(context: Mapping[str, JSONValue], g1: bytes, h1: bytes, g2: bytes, h2: bytes) -> dict[str, JSONValue]:
    return {"context": dict(context), "g1": g1.hex(), "h1": h1.hex(), "g2": g2.hex(), "h2": h2.hex()}


def _challenge(statement: dict[str, JSONValue], a1: bytes, a2: bytes) -> bytes:
    return _scalar(_DLEQ, canonical({**statement, "a1": a1.hex(), "a2": a2.hex()}))


def prove_dleq(x: bytes, g1: bytes, h1: bytes, g2: bytes, h2: bytes, context: Mapping[str, JSONValue]) -> bytes:
    """A proof (64 bytes: challenge ‖ response) that ``h1 = x·g1`` and ``h2 = x·g2`` for one ``x``.

    Fiat–Shamir over the whole statement and its ``context``; the nonce is derived from ``x`` and the
    statement (as in Ed25519), so a proof is deterministic and a nonce never repeats across statements.
    """
    statement = _statement(context, g1, h1, g2, h2)
    t = _scalar(_NONCE, x + canonical(statement))
    c = _challenge(statement, mul(t, g1), mul(t, g2))
    s = sodium.crypto_core_ed25519_scalar_add(t, sodium.crypto_core_ed25519_scalar_mul(c, x))
    return c + s


def verify_dleq(g1: bytes, h1: bytes, g2: bytes, h2: bytes, context: Mapping[str, JSONValue], proof: bytes) -> bool:
    """Whether ``proof`` shows ``log_g1 h1 = log_g2 h2``.

    Every input point is checked: each is multiplied once, and :func:`mul` refuses any that is not a point of the
    group (as :func:`is_point` would, which is therefore not asked first: that doubled the cost of a proof).
    """
    if len(proof) != 64:
        return False
    c, s = proof[:32], proof[32:]
    if _reduced(c) != c or _reduced(s) != s:
        return False  # only canonical scalars: one proof per statement and nonce
    try:
        a1 = sodium.crypto_core_ed25519_sub(mul(s, g1), mul(c, h1))
        a2 = sodium.crypto_core_ed25519_sub(mul(s, g2), mul(c, h2))
    except ValueError:
        return False
    return _challenge(_statement(context, g1, h1, g2, h2), a1, a2) == c


def _reduced(scalar: bytes) -> bytes:
    return sodium.crypto_core_ed25519_scalar_reduce(scalar + bytes(32))


def prove_layer(key: bytes, base: bytes, result: bytes, context: Mapping[str, JSONValue]) -> bytes:
    """Proof that ``result = key·base`` for the seat whose layer point is ``key·B`` (a strip, a re-key, or
    a revealed card)."""
    return prove_dleq(key, BASE, mul(key, BASE), base, result, context)


def verify_layer(layer: bytes, base: bytes, result: bytes, context: Mapping[str, JSONValue], proof: bytes) -> bool:
    return verify_dleq(BASE, layer, base, result, context, proof)


# --- shuffle steps --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """One seat's shuffle step: every point times ``scalar``, then output position j takes input ``order[j]``."""

    scalar: bytes
    order: tuple[int, ...]


def derive_step(secret: bytes, deck: str, number: int, size: int) -> Step:
    """The step a seat with game secret ``secret`` owes in shuffle ``number`` of a ``size``-card deck.

    The order is a Fisher–Yates shuffle whose draws are exact dice (:func:`pbem.log.dice.faces`)."""
    seed = derive.deck_seed(secret, deck, number)
    scalar = _scalar(_SCALAR, seed)
    if scalar == bytes(32):
        raise ValueError("zero masking scalar")  # probability 2^-252: the protocol forbids it
    order = list(range(size))
    if size > 1:
        words = faces(hashlib.sha256(pae(_ORDER, seed)).digest(), [(i + 1, 1) for i in range(size - 1, 0, -1)])
        for i, (face,) in zip(range(size - 1, 0, -1), words, strict=True):
            j = face - 1
            order[i], order[j] = order[j], order[i]
    return Step(scalar, tuple(order))


def apply_step(step: Step, stack: Sequence[bytes]) -> list[bytes]:
    """The stack after ``step``."""
    return [mul(step.scalar, stack[i]) for i in step.order]


def prove_step(
    step: Step, total: bytes, out: Sequence[bytes], layer: bytes, context: Mapping[str, JSONValue]
) -> tuple[bytes, bytes, bytes]:
    """The new layer point, the proof that it and the deck's sum (``total`` before, ΣQ after) moved by the
    same factor, and ΣQ (the next step's ``total``: a deck keeps its sum, so each step adds up one list).

    For an honest step ΣQ = r·ΣP: one multiplication instead of adding up the list (a verifier adds it up)."""
    new_layer = mul(step.scalar, layer)
    after = mul(step.scalar, total)
    return new_layer, prove_dleq(step.scalar, layer, new_layer, total, after, context), after


def verify_step(
    size: int,
    total: bytes,
    out: Sequence[bytes],
    layer: bytes,
    new_layer: bytes,
    context: Mapping[str, JSONValue],
    proof: bytes,
) -> tuple[str | None, bytes]:
    """Why a published step on a deck of ``size`` points summing to ``total`` is refused at once (None:
    accepted; the audit redoes it exactly), and the sum of ``out``."""
    if len(out) != size:
        return f"the step has {len(out)} cards where the deck has {size}", b""
    if not all(map(is_point, out)):  # also keeps torsion "tags" that would survive masking out of the deck
        return "the step holds a value that is not a point of the group", b""
    if len(set(out)) != len(out):
        return "the step holds one point twice", b""
    after = point_sum(out)
    if not verify_dleq(layer, new_layer, total, after, context, proof):
        return "the step's proof fails: its cards are not the deck's, masked by the factor of its layer", after
    return None, after


def audit_step(step: Step, stack: Sequence[bytes], out: Sequence[bytes]) -> str | None:
    """At audit, why the published ``out`` is not the step derived from the disclosed secret (None: it is)."""
    expected = apply_step(step, stack)
    if list(out) == expected:
        return None
    origin = {point: i for i, point in enumerate(expected)}  # expected position of each masked input
    sources = [origin.get(point) for point in out]
    if any(s is None for s in sources):
        return "it substitutes a card (a point that is no card of the deck, masked)"
    if len(set(sources)) != len(sources):
        return "it duplicates a card and drops another"
    return "it orders the cards otherwise than its derived permutation"
