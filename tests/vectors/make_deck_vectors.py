"""Write ``deck-v1/``: golden vectors for shared hidden decks (PROTOCOL.md §14).

``crypto.json`` is computed here straight from the protocol text, without importing pbem: libsodium's
edwards25519 functions (through PyNaCl), the normative JCS (``rfc8785``), DSSE PAE, HKDF-Expand-SHA256 and
the dice derivation of ``make_dice_vectors``. It walks one deck of 6 cards between two seats: creation, the
first shuffle (two steps), a deal of 2 cards to each seat (strips and the receivers' unmasking), a card
revealed with its proof, a reshuffle with the revealed card returned (two re-keys and two steps), and the
audit of every step. ``game.jsonl`` and ``expected.json`` are a whole signed game of High Card built by pbem
with test keys, which any verifier must find valid with a complete audit.

``tests/log/test_deck_vectors.py`` checks that pbem computes every value and that this script still writes
the committed files byte for byte. Deterministic: run ``python tests/vectors/make_deck_vectors.py``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import rfc8785
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand
from nacl import bindings as na

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.vectors.make_dice_vectors import faces, h, pae

OUTPUT = Path(__file__).with_name("deck-v1")
GAME = h("deck vectors game")
DECK = "supply"
SEATS = ("north", "south")
SECRETS = {seat: h(f"deck vectors secret {seat}") for seat in SEATS}
ONE = (1).to_bytes(32, "little")
B = na.crypto_scalarmult_ed25519_base_noclamp(ONE)


def card(i: int) -> bytes:
    digest = hashlib.sha512(pae("pbem/deck-card/v1", rfc8785.dumps({"game": GAME, "deck": DECK, "card": i}))).digest()
    return na.crypto_core_ed25519_add(
        na.crypto_core_ed25519_from_uniform(digest[:32]), na.crypto_core_ed25519_from_uniform(digest[32:])
    )


def to_scalar(label: str, material: bytes) -> bytes:
    return na.crypto_core_ed25519_scalar_reduce(hashlib.sha512(pae(label, material)).digest())


def step(seat: str, number: int, size: int) -> tuple[bytes, bytes, list[int]]:
    """The seed, scalar and order of ``seat``'s step in shuffle ``number`` of a ``size``-point deck."""
    info = b"pbem/deck-shuffle/v1" + b"\x00" + rfc8785.dumps([DECK, number])
    seed = HKDFExpand(hashes.SHA256(), 32, info).derive(bytes.fromhex(SECRETS[seat]))
    scalar = to_scalar("pbem/deck-scalar/v1", seed)
    order = list(range(size))
    draws = faces(
        hashlib.sha256(pae("pbem/deck-order/v1", seed)).digest(), [[i + 1, 1] for i in range(size - 1, 0, -1)]
    )
    for i, (face,) in zip(range(size - 1, 0, -1), draws, strict=True):
        order[i], order[face - 1] = order[face - 1], order[i]
    return seed, scalar, order


def total(points: list[bytes]) -> bytes:
    result = points[0]
    for point in points[1:]:
        result = na.crypto_core_ed25519_add(result, point)
    return result


def prove(x: bytes, g1: bytes, h1: bytes, g2: bytes, h2: bytes, context: dict[str, Any]) -> bytes:
    statement = {"context": context, "g1": g1.hex(), "h1": h1.hex(), "g2": g2.hex(), "h2": h2.hex()}
    t = to_scalar("pbem/deck-dleq-nonce/v1", x + rfc8785.dumps(statement))
    a1, a2 = na.crypto_scalarmult_ed25519_noclamp(t, g1), na.crypto_scalarmult_ed25519_noclamp(t, g2)
    c = to_scalar("pbem/deck-dleq/v1", rfc8785.dumps({**statement, "a1": a1.hex(), "a2": a2.hex()}))
    return c + na.crypto_core_ed25519_scalar_add(t, na.crypto_core_ed25519_scalar_mul(c, x))


def context(after: str, seat: str, use: str, index: int) -> dict[str, Any]:
    return {"game": GAME, "deck": DECK, "after": after, "seat": seat, "use": use, "index": index}


def hexes(points: list[bytes]) -> list[str]:
    return [p.hex() for p in points]


def mul(k: bytes, p: bytes) -> bytes:
    return na.crypto_scalarmult_ed25519_noclamp(k, p)


def crypto() -> dict[str, Any]:
    cards = [card(i) for i in range(6)]
    layers = dict.fromkeys(SEATS, B)
    keys = dict.fromkeys(SEATS, ONE)
    stack = list(cards)
    steps: list[dict[str, Any]] = []
    entry = iter(range(1, 100))

    def shuffle(number: int, returning: list[bytes]) -> list[bytes]:
        deck = stack + returning
        for seat in SEATS:
            after = h(f"entry {next(entry)}")
            seed, r, order = step(seat, number, len(deck))
            out = [mul(r, deck[i]) for i in order]
            new_layer = mul(r, layers[seat])
            proof = prove(r, layers[seat], new_layer, total(deck), total(out), context(after, seat, "shuffle", 0))
            steps.append({"seat": seat, "number": number, "after": after, "input": hexes(deck), "seed": seed.hex(),
                          "scalar": r.hex(), "order": order, "stack": hexes(out), "layer": new_layer.hex(),
                          "proof": proof.hex()})  # fmt: skip
            layers[seat], keys[seat] = new_layer, na.crypto_core_ed25519_scalar_mul(keys[seat], r)
            deck = out
        return deck

    stack = shuffle(0, [])
    hands: dict[str, list[tuple[bytes, int]]] = {seat: [] for seat in SEATS}
    deals = []
    for receiver in SEATS:  # 2 cards from the top to each seat; the other seat strips its layer
        dealt, stack = stack[:2], stack[2:]
        stripper = next(s for s in SEATS if s != receiver)
        after = h(f"entry {next(entry)}")
        inverse = na.crypto_core_ed25519_scalar_invert(keys[stripper])
        points = [mul(inverse, p) for p in dealt]
        proofs = [prove(keys[stripper], B, layers[stripper], new, old, context(after, stripper, "strip", i))
                  for i, (old, new) in enumerate(zip(dealt, points, strict=True))]  # fmt: skip
        mine = na.crypto_core_ed25519_scalar_invert(keys[receiver])
        got = [cards.index(mul(mine, p)) for p in points]
        hands[receiver] = [(p, c) for p, c in zip(points, got, strict=True)]
        deals.append({"to": receiver, "after": after, "dealt": hexes(dealt), "strip": {"seat": stripper,
                      "points": hexes(points), "proofs": [p.hex() for p in proofs]}, "cards": got})  # fmt: skip
    held, shown = hands["north"].pop(0)
    after = h(f"entry {next(entry)}")
    reveal_proof = prove(keys["north"], B, layers["north"], cards[shown], held, context(after, "north", "reveal", 0))
    reveal = {"seat": "north", "after": after, "hand": 0, "card": shown, "point": held.hex(),
              "layer": layers["north"].hex(), "proof": reveal_proof.hex()}  # fmt: skip
    returning = [cards[shown]]
    rekeys = []
    for seat in reversed(SEATS):
        after = h(f"entry {next(entry)}")
        points = [mul(keys[seat], p) for p in returning]
        proofs = [prove(keys[seat], B, layers[seat], old, new, context(after, seat, "rekey", i))
                  for i, (old, new) in enumerate(zip(returning, points, strict=True))]  # fmt: skip
        rekeys.append({"seat": seat, "after": after, "points": hexes(points), "proofs": [p.hex() for p in proofs]})
        returning = points
    stack = shuffle(1, returning)
    audit = []  # every step redone from the disclosed secret must give the published stack and layer point
    for s in steps:
        _, r, order = step(s["seat"], s["number"], len(s["input"]))
        redone = [mul(r, bytes.fromhex(s["input"][i])).hex() for i in order]
        audit.append({"seat": s["seat"], "number": s["number"], "ok": redone == s["stack"]})
    return {
        "about": "pbem shared-deck golden vectors v1 (PROTOCOL.md §14); written by tests/vectors/make_deck_vectors.py",
        "game": GAME,
        "deck": DECK,
        "secrets": SECRETS,
        "base": B.hex(),
        "cards": hexes(cards),
        "steps": steps,
        "deals": deals,
        "reveal": reveal,
        "rekeys": rekeys,
        "final": {"stack": hexes(stack), "layers": {s: layers[s].hex() for s in SEATS}},
        "audit": audit,
    }


def game() -> dict[str, bytes]:
    """A whole High Card game, signed with test keys and fully disclosed (built by pbem)."""
    import os
    import random
    import tempfile

    from pbem.verify.pipeline import verify_lines
    from tests.helpers import Table

    saved = os.environ.get("PBEM_STATE_DIR")
    with tempfile.TemporaryDirectory() as directory:
        os.environ["PBEM_STATE_DIR"] = str(Path(directory) / "state")  # a fresh record of signed heads
        try:
            table = Table.start(
                Path(directory),
                "duel",
                game="highcard",
                options={"cards": 8, "hand": 2, "deals": 2, "keep": 0, "dealer": False},
            )
            table.play_out(random.Random(7))
            lines = table.lines()
        finally:
            if saved is None:
                del os.environ["PBEM_STATE_DIR"]
            else:
                os.environ["PBEM_STATE_DIR"] = saved
    report, verifier = verify_lines(lines)
    assert verifier.game is not None and report.result is not None
    expected = {
        "valid": report.valid,
        "audit": report.audit,
        "entries": report.entries,
        "final_state": report.state_hash,
        "result": report.result.model_dump(mode="json"),
        "types": [json.loads(line)["type"] for line in lines],
    }
    return {
        "game.jsonl": b"".join(line + b"\n" for line in lines),
        "expected.json": (json.dumps(expected, indent=1, sort_keys=True) + "\n").encode(),
    }


def build() -> dict[str, bytes]:
    return {"crypto.json": (json.dumps(crypto(), indent=1) + "\n").encode(), **game()}


def main() -> None:
    OUTPUT.mkdir(exist_ok=True)
    for name, data in build().items():
        (OUTPUT / name).write_bytes(data)


if __name__ == "__main__":
    main()
