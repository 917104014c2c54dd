"""Every secret a seat uses in one game, derived from its key: nothing else needs a backup.

    K = HKDF-SHA256(ikm = Ed25519 private seed, salt = game id ‖ nonce, info = "pbem/game-secret/v1" ‖ u32be(epoch))

where ``nonce`` is 32 random bytes the seat publishes with the epoch's dice anchor (in its join, key-rotate
or key-replace entry). Without it, K would be a function of key and game id alone: a creator who sent a
player the genesis of a finished game again would know that player's whole "new" dice chain and hidden
salts from the secret disclosed at the first game's end.

and from K, with HKDF-Expand and one distinct label each (PROTOCOL.md §5):

* ``pbem/dice-chain-top/v1``: the top of the public dice seed chain;
* ``pbem/salt/v1``: the salt of a hidden commitment (per slot and version);
* ``pbem/seal-key/v1``: the key that seals a hidden value for its owner (per slot and version);
* ``pbem/private-draw/v1``: the owner's secret of a private draw (per slot and version);
* ``pbem/deck-shuffle/v1``: the seed of the seat's step in one shuffle of a shared deck (per deck and
  shuffle number), from which :mod:`pbem.log.deck` draws the masking scalar and the permutation.

Distinct labels make a private draw's secret independent of the public chain (research §4.3: revealing a
chain element must never expose a private roll). ``K`` is disclosed at game end for the audit; it is
one-way from the private key, so disclosing it never exposes the key. ``epoch`` counts key rotations.
"""

from __future__ import annotations

import struct

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF, HKDFExpand

from pbem.log.canon import canonical

__all__ = ["LABELS", "chain_top", "deck_seed", "draw_secret", "game_secret", "salt", "seal_key"]

LABELS = {
    "game": b"pbem/game-secret/v1",
    "chain": b"pbem/dice-chain-top/v1",
    "salt": b"pbem/salt/v1",
    "seal": b"pbem/seal-key/v1",
    "draw": b"pbem/private-draw/v1",
    "deck": b"pbem/deck-shuffle/v1",
}


def game_secret(seed: bytes, game_id: str, nonce: bytes, epoch: int) -> bytes:
    """The per-game secret K of the key with private ``seed``, for ``game_id``, the epoch's published
    ``nonce`` and key ``epoch``."""
    salt = bytes.fromhex(game_id) + nonce
    hkdf = HKDF(hashes.SHA256(), 32, salt=salt, info=LABELS["game"] + struct.pack(">I", epoch))
    return hkdf.derive(seed)


def _expand(secret: bytes, label: str, *params: str | int) -> bytes:
    info = LABELS[label] + b"\x00" + canonical(list(params))
    return HKDFExpand(hashes.SHA256(), 32, info).derive(secret)


def chain_top(secret: bytes) -> bytes:
    """The top element x_N of the seat's dice seed chain."""
    return _expand(secret, "chain")


def salt(secret: bytes, slot: str, ver: int) -> bytes:
    """The 256-bit salt of hidden slot ``slot`` at version ``ver``."""
    return _expand(secret, "salt", slot, ver)


def seal_key(secret: bytes, slot: str, ver: int) -> bytes:
    """The AEAD key sealing the value of ``slot`` at ``ver`` (unique per slot and version)."""
    return _expand(secret, "seal", slot, ver)


def draw_secret(secret: bytes, slot: str, ver: int) -> bytes:
    """The owner's private input to the private draw filling ``slot`` at ``ver``."""
    return _expand(secret, "draw", slot, ver)


def deck_seed(secret: bytes, deck: str, number: int) -> bytes:
    """The seed of the seat's step in shuffle ``number`` of shared deck ``deck`` (its scalar and permutation)."""
    return _expand(secret, "deck", deck, number)
