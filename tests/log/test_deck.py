"""The cryptographic core of shared hidden decks (pbem.log.deck): layers commute, a shuffle step is a masked
permutation, and every Chaum–Pedersen proof verifies for its statement and for no other."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.log import deck

GAME = "ab" * 32
CONTEXT = {"game": GAME, "deck": "supply", "seat": "red", "use": "strip"}
secrets = st.binary(min_size=32, max_size=32)


def scalar(seed: bytes) -> bytes:
    return deck._scalar("test", seed)


def test_cards_are_distinct_valid_points_bound_to_game_and_deck() -> None:
    cards = deck.card_points(GAME, "supply", 42)
    assert len(set(cards)) == 42 and all(map(deck.is_point, cards))
    assert deck.card_point("cd" * 32, "supply", 0) != cards[0]
    assert deck.card_point(GAME, "other", 0) != cards[0]


@settings(max_examples=25, deadline=None)
@given(secrets, secrets, st.integers(0, 41))
def test_layers_commute_and_strip_in_any_order(a: bytes, b: bytes, index: int) -> None:
    card = deck.card_point(GAME, "supply", index)
    ka, kb = scalar(a), scalar(b)
    both = deck.mul(ka, deck.mul(kb, card))
    assert both == deck.mul(kb, deck.mul(ka, card))
    assert deck.mul(deck.invert(ka), deck.mul(deck.invert(kb), both)) == card
    assert deck.mul(deck.invert(kb), deck.mul(deck.invert(ka), both)) == card


@settings(max_examples=15, deadline=None)
@given(secrets, st.integers(1, 42), st.integers(0, 5))
def test_a_shuffle_step_is_a_masked_permutation_derived_from_the_secret(secret: bytes, size: int, number: int) -> None:
    cards = deck.card_points(GAME, "supply", size)
    step = deck.derive_step(secret, "supply", number, size)
    assert sorted(step.order) == list(range(size))
    assert step == deck.derive_step(secret, "supply", number, size)  # deterministic: the audit redoes it
    out = deck.apply_step(step, cards)
    unmasked = [deck.mul(deck.invert(step.scalar), p) for p in out]
    assert unmasked == [cards[i] for i in step.order]
    total = deck.point_sum(cards)
    layer, proof, after = deck.prove_step(step, total, out, deck.BASE, CONTEXT)
    assert deck.verify_step(size, total, out, deck.BASE, layer, CONTEXT, proof) == (None, after)
    assert deck.audit_step(step, cards, out) is None


def test_the_order_is_uniform_enough_over_many_secrets() -> None:
    firsts = [deck.derive_step(hashlib.sha256(bytes([i])).digest(), "d", 0, 4).order[0] for i in range(200)]
    assert {firsts.count(i) for i in range(4)} <= set(range(30, 71))  # ~50 each for a uniform order


@settings(max_examples=20, deadline=None)
@given(secrets, st.integers(0, 41), st.integers(0, 41))
def test_a_layer_proof_verifies_and_fails_for_any_wrong_element(secret: bytes, index: int, other: int) -> None:
    key = scalar(secret)
    layer = deck.mul(key, deck.BASE)
    card = deck.card_point(GAME, "supply", index)
    masked = deck.mul(key, card)
    proof = deck.prove_layer(key, card, masked, CONTEXT)
    assert deck.verify_layer(layer, card, masked, CONTEXT, proof)
    wrong = deck.card_point(GAME, "supply", other)
    if other != index:
        assert not deck.verify_layer(layer, wrong, masked, CONTEXT, proof)  # another card
        assert not deck.verify_layer(layer, card, deck.mul(key, wrong), CONTEXT, proof)  # another result
    assert not deck.verify_layer(deck.mul(key, layer), card, masked, CONTEXT, proof)  # another layer
    assert not deck.verify_layer(layer, card, masked, {**CONTEXT, "seat": "blue"}, proof)  # another context
    for position in (0, 31, 32, 63):
        tampered = bytearray(proof)
        tampered[position] ^= 1
        assert not deck.verify_layer(layer, card, masked, CONTEXT, bytes(tampered))
    assert not deck.verify_layer(layer, card, masked, CONTEXT, proof[:32])


def test_a_proof_for_a_false_statement_does_not_verify() -> None:
    key, lie = scalar(b"k"), scalar(b"lie")
    card = deck.card_point(GAME, "supply", 3)
    # the prover knows key, but claims card·lie was made with it
    proof = deck.prove_dleq(key, deck.BASE, deck.mul(key, deck.BASE), card, deck.mul(lie, card), CONTEXT)
    assert not deck.verify_layer(deck.mul(key, deck.BASE), card, deck.mul(lie, card), CONTEXT, proof)


def test_invalid_points_are_refused() -> None:
    identity = (1).to_bytes(32, "little")
    small_order = bytes(32)  # (0, 0)-style encodings and the identity are not in the prime-order group
    assert not deck.is_point(identity) and not deck.is_point(small_order) and not deck.is_point(b"\x01" * 31)
    with pytest.raises(ValueError):
        deck.mul(scalar(b"k"), small_order)
    card = deck.card_point(GAME, "supply", 0)
    proof = deck.prove_layer(scalar(b"k"), card, deck.mul(scalar(b"k"), card), CONTEXT)
    assert not deck.verify_layer(identity, card, card, CONTEXT, proof)


def _stack(size: int = 10) -> tuple[deck.Step, list[bytes], list[bytes]]:
    cards = deck.card_points(GAME, "supply", size)
    step = deck.derive_step(b"s" * 32, "supply", 0, size)
    return step, cards, deck.apply_step(step, cards)


def test_a_step_that_duplicates_a_card_fails_its_proof_at_once() -> None:
    step, cards, out = _stack()
    total = deck.point_sum(cards)
    layer, _, _ = deck.prove_step(step, total, out, deck.BASE, CONTEXT)
    cheat = [*out[:-1], deck.mul(step.scalar, deck.mul(step.scalar, cards[0]))]
    proof = deck.prove_dleq(step.scalar, deck.BASE, layer, deck.point_sum(cards), deck.point_sum(cheat), CONTEXT)
    assert "proof fails" in str(deck.verify_step(10, total, cheat, deck.BASE, layer, CONTEXT, proof)[0])
    assert "twice" in str(deck.verify_step(10, total, [*out[:-1], out[0]], deck.BASE, layer, CONTEXT, proof)[0])
    assert "cards where" in str(deck.verify_step(10, total, out[:-1], deck.BASE, layer, CONTEXT, proof)[0])


def test_the_audit_names_a_sum_preserving_substitution_and_a_reordering() -> None:
    step, cards, out = _stack()
    # move some weight T from one card to another: the sum (so the proof) holds, the audit does not
    shift = deck.card_point(GAME, "elsewhere", 0)
    cheat = [deck.sodium.crypto_core_ed25519_add(out[0], shift), deck.sodium.crypto_core_ed25519_sub(out[1], shift)]
    cheat += out[2:]
    total = deck.point_sum(cards)
    layer, proof, _ = deck.prove_step(step, total, cheat, deck.BASE, CONTEXT)
    assert deck.verify_step(10, total, cheat, deck.BASE, layer, CONTEXT, proof)[0] is None
    assert "substitutes" in str(deck.audit_step(step, cards, cheat))
    swapped = [out[1], out[0], *out[2:]]
    assert "orders" in str(deck.audit_step(step, cards, swapped))
    assert "duplicates" in str(deck.audit_step(step, cards, [out[0], out[0], *out[2:]]))


def test_the_step_seed_is_hkdf_expand_of_the_game_secret_with_its_label() -> None:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

    from pbem.log import derive

    secret = b"\x07" * 32
    expected = HKDFExpand(hashes.SHA256(), 32, b'pbem/deck-shuffle/v1\x00["supply",2]').derive(secret)
    assert derive.deck_seed(secret, "supply", 2) == expected
