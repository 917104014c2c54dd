"""Hidden information and key derivation (pbem.log.hidden, pbem.log.derive): research §4, cases H1 and H3."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import struct
from typing import Any

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from pbem.log import derive
from pbem.log.canon import canonical
from pbem.log.dice import SeedChain
from pbem.log.entry import pae
from pbem.log.hidden import commit_draw, commit_value, seal, unseal

GAME = hashlib.sha256(b"hidden test game").hexdigest()
OTHER_GAME = hashlib.sha256(b"another game").hexdigest()
SEED = hashlib.sha256(b"pbem test key red").digest()
NONCE = hashlib.sha256(b"join nonce").digest()
SECRET = derive.game_secret(SEED, GAME, NONCE, 0)
SALT = derive.salt(SECRET, "block/7", 1)

# --- commitments (H1 style) ----------------------------------------------------------------------------------

VALUE_BASE: dict[str, Any] = {
    "game_id": GAME,
    "owner": "red",
    "slot": "block/7",
    "ver": 1,
    "salt": SALT,
    "value": {"unit": "panzer", "steps": 3},
}
VALUE_CHANGES: list[tuple[str, Any]] = [
    ("game_id", OTHER_GAME),
    ("owner", "blue"),
    ("slot", "block/8"),
    ("slot", "block/70"),
    ("ver", 0),
    ("ver", 2),
    ("salt", derive.salt(SECRET, "block/7", 2)),
    ("salt", bytes(32)),
    ("salt", SALT[:-1]),
    ("value", {"unit": "panzer", "steps": 2}),
    ("value", {"unit": "infantry", "steps": 3}),
    ("value", {"steps": 3, "unit": "panzer", "x": None}),
    ("value", "panzer"),
    ("value", None),
    ("value", [{"unit": "panzer", "steps": 3}]),
]


def test_commit_value_matches_the_protocol_text() -> None:
    material = {**VALUE_BASE, "game": GAME, "salt": SALT.hex()}
    del material["game_id"]
    expected = hashlib.sha256(b"\x00" + pae("pbem/hidden/v1", canonical(material))).hexdigest()
    assert commit_value(**VALUE_BASE) == expected


@pytest.mark.parametrize(("field", "new"), VALUE_CHANGES)
def test_commit_value_changes_with_every_input(field: str, new: Any) -> None:
    assert commit_value(**{**VALUE_BASE, field: new}) != commit_value(**VALUE_BASE)


def test_commit_value_is_deterministic_and_key_order_free() -> None:
    again = {**VALUE_BASE, "value": {"steps": 3, "unit": "panzer"}}
    assert commit_value(**again) == commit_value(**VALUE_BASE)


DRAW_SECRET = derive.draw_secret(SECRET, "hand/1", 1)
DRAW_BASE: dict[str, Any] = {"game_id": GAME, "owner": "red", "slot": "hand/1", "ver": 1, "secret": DRAW_SECRET}


@pytest.mark.parametrize(
    ("field", "new"),
    [
        ("game_id", OTHER_GAME),
        ("owner", "blue"),
        ("slot", "hand/2"),
        ("ver", 2),
        ("ver", 0),
        ("secret", derive.draw_secret(SECRET, "hand/1", 2)),
        ("secret", bytes(32)),
    ],
)
def test_commit_draw_changes_with_every_input(field: str, new: Any) -> None:
    assert commit_draw(**{**DRAW_BASE, field: new}) != commit_draw(**DRAW_BASE)


def test_commit_draw_is_not_a_value_commitment() -> None:
    """The two commitment kinds are domain-separated: a draw secret is no committed value."""
    as_draw = commit_draw(GAME, "red", "s", 1, DRAW_SECRET)
    assert as_draw != commit_value(GAME, "red", "s", 1, DRAW_SECRET, DRAW_SECRET.hex())
    material = {"game": GAME, "owner": "red", "slot": "s", "ver": 1, "secret": DRAW_SECRET.hex()}
    assert as_draw == hashlib.sha256(b"\x00" + pae("pbem/private-draw/v1", canonical(material))).hexdigest()


# --- sealing ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [{"unit": "panzer", "steps": 3}, "\u00e9t\u00e9", 0, None, [], [1, [2, {"a": True}]]])
def test_seal_round_trip(value: Any) -> None:
    key = derive.seal_key(SECRET, "block/7", 1)
    commit = commit_value(GAME, "red", "block/7", 1, SALT, value)
    enc = seal(key, value, commit)
    assert enc == enc.lower()
    assert unseal(key, enc, commit) == value
    assert canonical(unseal(key, enc, commit)) == canonical(value)


def _sealed() -> tuple[bytes, str, str]:
    key = derive.seal_key(SECRET, "block/7", 1)
    commit = commit_value(**VALUE_BASE)
    return key, seal(key, VALUE_BASE["value"], commit), commit


def test_unseal_with_wrong_key_fails() -> None:
    key, enc, commit = _sealed()
    for wrong in (derive.seal_key(SECRET, "block/7", 2), derive.seal_key(SECRET, "block/8", 1), bytes(32)):
        assert wrong != key
        with pytest.raises(ValueError):
            unseal(wrong, enc, commit)


def test_unseal_with_wrong_commit_fails() -> None:
    key, enc, commit = _sealed()
    last = "00" if commit[-2:] != "00" else "01"
    for wrong in (commit_value(**{**VALUE_BASE, "ver": 2}), "00" * 32, commit[:-2] + last):
        with pytest.raises(ValueError):
            unseal(key, enc, wrong)


def test_unseal_of_tampered_ciphertext_fails() -> None:
    key, enc, commit = _sealed()
    raw = bytes.fromhex(enc)
    for position in (0, len(raw) // 2, len(raw) - 1):  # plaintext bytes and the tag
        flipped = bytearray(raw)
        flipped[position] ^= 0x01
        with pytest.raises(ValueError):
            unseal(key, flipped.hex(), commit)
    for shortened in (raw[:-1], raw[:16], b""):
        with pytest.raises(ValueError):
            unseal(key, shortened.hex(), commit)


@pytest.mark.parametrize("plain", [b'{"x":1}', b'{"value":1,"x":2}', b"not json", b"[1]", b'{"value":1.5}', b""])
def test_unseal_refuses_a_plaintext_that_is_not_a_sealed_value(plain: bytes) -> None:
    key, _, commit = _sealed()
    enc = ChaCha20Poly1305(key).encrypt(bytes(12), plain, bytes.fromhex(commit)).hex()
    with pytest.raises(ValueError):
        unseal(key, enc, commit)


def test_seal_is_bound_to_its_commit_as_aad() -> None:
    key, enc, commit = _sealed()
    plain = ChaCha20Poly1305(key).decrypt(bytes(12), bytes.fromhex(enc), bytes.fromhex(commit))
    assert plain == canonical({"value": VALUE_BASE["value"]})


# --- key derivation (H3) -----------------------------------------------------------------------------------------


def _hkdf_expand(prk: bytes, info: bytes) -> bytes:
    """RFC 5869 HKDF-Expand for one 32-byte block."""
    return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()


def test_derivation_matches_rfc5869() -> None:
    """Pin the derivation formulas of derive.py's docstring with an independent HKDF."""
    prk = hmac.new(bytes.fromhex(GAME) + NONCE, SEED, hashlib.sha256).digest()
    assert _hkdf_expand(prk, b"pbem/game-secret/v1" + struct.pack(">I", 0)) == SECRET
    assert derive.chain_top(SECRET) == _hkdf_expand(SECRET, b"pbem/dice-chain-top/v1\x00[]")
    assert derive.salt(SECRET, "block/7", 1) == _hkdf_expand(SECRET, b'pbem/salt/v1\x00["block/7",1]')
    assert derive.seal_key(SECRET, "b", 0) == _hkdf_expand(SECRET, b'pbem/seal-key/v1\x00["b",0]')
    assert derive.draw_secret(SECRET, "hand/1", 1) == _hkdf_expand(SECRET, b'pbem/private-draw/v1\x00["hand/1",1]')


@pytest.mark.case("H3")
def test_labels_are_distinct() -> None:
    labels = list(derive.LABELS.values())
    assert len(set(labels)) == len(labels) == 6
    for a, b in itertools.permutations(labels, 2):
        assert not a.startswith(b)  # no label is a prefix of another (the 0x00 separator keeps it so anyway)
    assert all(b"\x00" not in label for label in labels)


@pytest.mark.case("H3")
def test_derived_values_differ_per_purpose() -> None:
    for slot, ver in [("block/7", 1), ("hand/1", 0), ("", 0)]:
        values = [
            derive.draw_secret(SECRET, slot, ver),
            derive.salt(SECRET, slot, ver),
            derive.seal_key(SECRET, slot, ver),
            derive.chain_top(SECRET),
            SECRET,
        ]
        assert len(set(values)) == len(values)
        assert all(len(v) == 32 for v in values)


@pytest.mark.case("H3")
def test_derived_values_differ_per_slot_and_version() -> None:
    params = [("a", 1), ("a", 11), ("a1", 1), ("a", 2), ("b", 1), ("a", 0), ("1", 1), ("", 11)]
    for fn in (derive.salt, derive.seal_key, derive.draw_secret):
        outputs = {fn(SECRET, slot, ver) for slot, ver in params}
        assert len(outputs) == len(params)


@pytest.mark.case("H3")
def test_private_draw_secrets_are_independent_of_the_public_chain() -> None:
    """Revealing chain elements must never expose a private draw (research §4.3)."""
    top = derive.chain_top(SECRET)
    chain = SeedChain(top, GAME, "red", 0)
    public = {chain.anchor, top} | {chain[i] for i in range(1, chain.length + 1)}
    assert len(public) == chain.length + 1
    first_hundred = [chain[i] for i in range(1, 101)]
    secrets = {derive.draw_secret(SECRET, slot, ver) for slot in ("hand/1", "hand/2", "deck", "x") for ver in range(5)}
    assert len(secrets) == 20
    assert not secrets & set(first_hundred)
    assert not secrets & public
    # nor do the other per-slot values sit on the chain
    others = {fn(SECRET, "hand/1", v) for fn in (derive.salt, derive.seal_key) for v in range(5)}
    assert not others & public


@pytest.mark.case("H3")
def test_game_secret_depends_on_seed_game_nonce_and_epoch() -> None:
    """The nonce matters: the genesis of a finished game sent again must not give the joiner the same secret
    (which was disclosed at that game's end)."""
    base = derive.game_secret(SEED, GAME, NONCE, 0)
    assert derive.game_secret(SEED, GAME, NONCE, 0) == base  # deterministic
    variants = [
        derive.game_secret(hashlib.sha256(b"pbem test key blue").digest(), GAME, NONCE, 0),
        derive.game_secret(SEED, OTHER_GAME, NONCE, 0),
        derive.game_secret(SEED, GAME, hashlib.sha256(b"another join").digest(), 0),
        derive.game_secret(SEED, GAME, NONCE, 1),
        derive.game_secret(SEED, GAME, NONCE, 2**32 - 1),
    ]
    assert len({base, *variants}) == 6
    assert SEED not in {base, *variants}
