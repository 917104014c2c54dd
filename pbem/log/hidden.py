"""Hidden information: salted commitments, sealed values and private draws (PROTOCOL.md §7).

A hidden slot (a block's identity, a bid, a drawn card) has an owner and a version that grows whenever
its value changes. Each version is committed::

    commit = SHA-256(0x00 ‖ PAE("pbem/hidden/v1", JCS({"game", "owner", "slot", "ver", "salt", "value"})))

with a salt derived from the owner's game secret, and the value is *sealed* for its owner with
ChaCha20-Poly1305 under a key derived the same way (a fresh key per slot and version, so a zero nonce is
safe). Sealing lets a player rebuild everything it knows from the log and its key alone.

A private draw commits to the owner's draw secret instead::

    commit = SHA-256(0x00 ‖ PAE("pbem/private-draw/v1", JCS({"game", "owner", "slot", "ver", "secret"})))

The 0x00 prefix keeps these leaf hashes apart from any node of a future Merkle commitment.
"""

from __future__ import annotations

import hashlib

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from pbem.errors import LogFormatError
from pbem.log.canon import JSONValue, canonical, parse_line
from pbem.log.entry import pae

__all__ = ["commit_draw", "commit_value", "seal", "unseal"]

_NONCE = bytes(12)


def commit_value(game_id: str, owner: str, slot: str, ver: int, salt: bytes, value: JSONValue) -> str:
    """The commitment to ``value`` in ``slot`` at ``ver``."""
    material = {"game": game_id, "owner": owner, "slot": slot, "ver": ver, "salt": salt.hex(), "value": value}
    return hashlib.sha256(b"\x00" + pae("pbem/hidden/v1", canonical(material))).hexdigest()


def commit_draw(game_id: str, owner: str, slot: str, ver: int, secret: bytes) -> str:
    """The commitment to the owner's secret input of a private draw."""
    material = {"game": game_id, "owner": owner, "slot": slot, "ver": ver, "secret": secret.hex()}
    return hashlib.sha256(b"\x00" + pae("pbem/private-draw/v1", canonical(material))).hexdigest()


def seal(key: bytes, value: JSONValue, commit: str) -> str:
    """Encrypt ``value`` for its owner, bound to its commitment."""
    plain = canonical({"value": value})
    return ChaCha20Poly1305(key).encrypt(_NONCE, plain, bytes.fromhex(commit)).hex()


def unseal(key: bytes, enc: str, commit: str) -> JSONValue:
    """Decrypt a sealed value; None-safe callers must check :class:`ValueError`.

    Raises:
        ValueError: if the ciphertext does not authenticate or its plaintext is not a sealed value.
    """
    try:
        plain = ChaCha20Poly1305(key).decrypt(_NONCE, bytes.fromhex(enc), bytes.fromhex(commit))
        wrapper = parse_line(plain)
    except (InvalidTag, LogFormatError) as exc:
        raise ValueError("sealed value does not decrypt") from exc
    if set(wrapper) != {"value"}:
        raise ValueError("sealed plaintext is not {value}")
    return wrapper["value"]
