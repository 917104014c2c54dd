"""Strict Ed25519 signing and verification (PROTOCOL.md §4, research-crypto §5.3).

pyca/cryptography (OpenSSL) accepts small-order and non-canonical public keys and R points; under such a
key anyone can forge signatures that verify. This module adds the missing layer: both the public key A and
the signature's R must be canonical encodings and must not be one of the eight small-order points. With
it, pbem's verdicts on the ed25519-speccheck vectors match libsodium's and all Wycheproof vectors still
pass (both are pinned tests).
"""

from __future__ import annotations

import base64
import hashlib
import struct

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from nacl.bindings import crypto_core_ed25519_add
from nacl.exceptions import CryptoError

from pbem.errors import SignatureError

__all__ = [
    "PublicKey",
    "check_point_encoding",
    "fingerprint",
    "key_id",
    "on_curve",
    "sign",
]

_P = 2**255 - 19
_NEUTRAL = bytes([1]) + bytes(31)  # the encoding of the neutral element (x = 0, y = 1)
# The canonical encodings of the 8 points of order dividing 8 (the torsion subgroup E[8]); a test
# recomputes their orders. Non-canonical encodings of the same points are refused by the y < p and
# sign-bit checks below.
SMALL_ORDER_POINTS: frozenset[bytes] = frozenset(
    bytes.fromhex(h)
    for h in (
        "0100000000000000000000000000000000000000000000000000000000000000",  # identity, order 1
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # (0, -1), order 2
        "0000000000000000000000000000000000000000000000000000000000000000",  # (+sqrt(-1), 0), order 4
        "0000000000000000000000000000000000000000000000000000000000000080",  # (-sqrt(-1), 0), order 4
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",  # order 8
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  # order 8
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",  # order 8
    )
)


def check_point_encoding(encoded: bytes) -> str | None:
    """Why ``encoded`` is not an acceptable Edwards point encoding, or None if it is.

    Acceptable means: 32 bytes, y < p, no sign bit on a point with x = 0, and not small-order.
    """
    if len(encoded) != 32:
        return f"{len(encoded)} bytes, not 32"
    y = int.from_bytes(encoded, "little") & ((1 << 255) - 1)
    if y >= _P:
        return "non-canonical encoding (y >= p)"
    if encoded[31] & 0x80 and y in (1, _P - 1):
        return "non-canonical encoding (sign bit set on x = 0)"
    if encoded in SMALL_ORDER_POINTS:
        return "small-order point"
    return None


def on_curve(encoded: bytes) -> bool:
    """Whether a 32-byte encoding decodes to a point on the curve (RFC 8032 §5.1.3, step 2).

    OpenSSL accepts such a key without complaint and then fails every signature under it, so a seat given
    one could never sign. libsodium decodes and checks the point when adding it to the neutral element, and
    refuses an encoding that is not on the curve; no curve arithmetic of our own.
    """
    try:
        crypto_core_ed25519_add(encoded, _NEUTRAL)
    except CryptoError:
        return False
    return True


class PublicKey:
    """A validated Ed25519 public key, ready for strict verification.

    Raises:
        SignatureError: K003 for a weak or malformed key.
    """

    __slots__ = ("_key", "id", "raw")

    def __init__(self, raw: bytes):
        problem = check_point_encoding(raw)
        if problem is None and not on_curve(raw):
            problem = "not a point on the curve"
        if problem is not None:
            raise SignatureError("K003", f"public key refused: {problem}")
        self.raw = raw
        self.id = key_id(raw)
        self._key = Ed25519PublicKey.from_public_bytes(raw)

    @classmethod
    def from_hex(cls, text: str) -> PublicKey:
        return cls(bytes.fromhex(text))

    @property
    def hex(self) -> str:
        return self.raw.hex()

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.raw)

    def verify(self, signature: bytes, message: bytes) -> None:
        """Verify strictly: canonical, non-small-order R; S < L (checked by OpenSSL); the equation.

        Raises:
            SignatureError: K002 for a weak R, K001 for any other failure.
        """
        if len(signature) != 64:
            raise SignatureError("K001", f"signature of {len(signature)} bytes, not 64")
        problem = check_point_encoding(signature[:32])
        if problem is not None:
            raise SignatureError("K002", f"signature R refused: {problem}")
        try:
            self._key.verify(signature, message)
        except InvalidSignature as exc:
            raise SignatureError("K001", "signature does not verify") from exc

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PublicKey) and other.raw == self.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __repr__(self) -> str:
        return f"PublicKey({self.fingerprint})"

    def __copy__(self) -> PublicKey:
        return self  # immutable

    def __deepcopy__(self, memo: object) -> PublicKey:
        return self


def key_id(raw: bytes) -> str:
    """The key id used in log entries: lowercase hex SHA-256 of the raw 32-byte key."""
    return hashlib.sha256(raw).hexdigest()


def fingerprint(raw: bytes) -> str:
    """The OpenSSH ``SHA256:`` fingerprint (the hash of the SSH wire blob, as ``ssh-keygen -lf`` shows)."""
    name = b"ssh-ed25519"
    blob = struct.pack(">I", len(name)) + name + struct.pack(">I", len(raw)) + raw
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def sign(private: Ed25519PrivateKey, message: bytes) -> bytes:
    """Sign ``message`` (RFC 8032, deterministic)."""
    return private.sign(message)
