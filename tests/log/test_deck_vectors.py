"""The shared-deck golden vectors (tests/vectors/deck-v1/): an independent implementation of PROTOCOL.md §14
wrote them; pbem computes every value, and the generator still writes the committed files byte for byte."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pbem.log import deck
from pbem.verify.pipeline import verify_lines
from tests.vectors import make_deck_vectors

HERE = Path(__file__).resolve().parents[1] / "vectors" / "deck-v1"
V: dict[str, Any] = json.loads((HERE / "crypto.json").read_text())
GAME, DECK = V["game"], V["deck"]


def points(values: list[str]) -> list[bytes]:
    return [bytes.fromhex(v) for v in values]


def context(after: str, seat: str, use: str, index: int) -> dict[str, Any]:
    return {"game": GAME, "deck": DECK, "after": after, "seat": seat, "use": use, "index": index}


def test_the_vector_files_are_exactly_what_the_generator_makes() -> None:
    built = make_deck_vectors.build()
    on_disk = {p.name: p.read_bytes() for p in HERE.iterdir() if p.is_file()}
    assert sorted(built) == sorted(on_disk)
    for name, data in built.items():
        assert data == on_disk[name], f"{name} differs: run tests/vectors/make_deck_vectors.py"


def test_pbem_computes_the_cards_and_every_shuffle_step() -> None:
    assert deck.BASE.hex() == V["base"]
    assert deck.card_points(GAME, DECK, len(V["cards"])) == points(V["cards"])
    layers = dict.fromkeys(V["secrets"], deck.BASE)
    for s in V["steps"]:
        before = points(s["input"])
        step = deck.derive_step(bytes.fromhex(V["secrets"][s["seat"]]), DECK, s["number"], len(before))
        assert (step.scalar.hex(), list(step.order)) == (s["scalar"], s["order"])
        out = deck.apply_step(step, before)
        assert out == points(s["stack"])
        ctx = context(s["after"], s["seat"], "shuffle", 0)
        layer, proof, _ = deck.prove_step(step, deck.point_sum(before), out, layers[s["seat"]], ctx)
        assert (layer.hex(), proof.hex()) == (s["layer"], s["proof"])
        assert (
            deck.verify_step(len(before), deck.point_sum(before), out, layers[s["seat"]], layer, ctx, proof)[0] is None
        )
        assert deck.audit_step(step, before, out) is None
        layers[s["seat"]] = layer
    assert {s: p.hex() for s, p in layers.items()} == V["final"]["layers"]
    assert all(a["ok"] for a in V["audit"])


def test_pbem_checks_every_strip_reveal_and_rekey_proof() -> None:
    layers = {s["seat"]: bytes.fromhex(s["layer"]) for s in V["steps"] if s["number"] == 0}
    for deal in V["deals"]:
        strip = deal["strip"]
        for i, (old, new, proof) in enumerate(zip(deal["dealt"], strip["points"], strip["proofs"], strict=True)):
            ctx = context(deal["after"], strip["seat"], "strip", i)
            assert deck.verify_layer(
                layers[strip["seat"]], bytes.fromhex(new), bytes.fromhex(old), ctx, bytes.fromhex(proof)
            )
    reveal = V["reveal"]
    ctx = context(reveal["after"], reveal["seat"], "reveal", 0)
    card = bytes.fromhex(V["cards"][reveal["card"]])
    assert deck.verify_layer(
        bytes.fromhex(reveal["layer"]), card, bytes.fromhex(reveal["point"]), ctx, bytes.fromhex(reveal["proof"])
    )
    other = bytes.fromhex(V["cards"][(reveal["card"] + 1) % 6])
    assert not deck.verify_layer(
        bytes.fromhex(reveal["layer"]), other, bytes.fromhex(reveal["point"]), ctx, bytes.fromhex(reveal["proof"])
    )
    returning = [card]
    for rekey in V["rekeys"]:
        for i, (old, new, proof) in enumerate(zip(returning, points(rekey["points"]), rekey["proofs"], strict=True)):
            ctx = context(rekey["after"], rekey["seat"], "rekey", i)
            assert deck.verify_layer(layers[rekey["seat"]], old, new, ctx, bytes.fromhex(proof))
        returning = points(rekey["points"])


def test_the_vector_game_verifies_with_a_complete_audit() -> None:
    expected = json.loads((HERE / "expected.json").read_text())
    report = verify_lines((HERE / "game.jsonl").read_bytes().splitlines())[0]
    assert report.valid and report.audit == expected["audit"] == "complete"
    assert report.state_hash == expected["final_state"] and report.entries == expected["entries"]
    assert report.result is not None and report.result.model_dump(mode="json") == expected["result"]
