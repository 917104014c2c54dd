"""Write ``dice-v1.json``: golden vectors for committed dice (PROTOCOL.md §6, research-crypto §3.4, case D7).

The vectors are computed here straight from the protocol text, without importing pbem: the normative JCS
(the ``rfc8785`` package), DSSE PAE, SHA-256 and exact rejection sampling on 64-bit big-endian words.
``tests/log/test_dice.py`` checks that pbem derives the same values and that this script still writes the
committed file byte for byte. Deterministic: run ``python tests/vectors/make_dice_vectors.py``.
"""

from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path
from typing import Any

import rfc8785

OUTPUT = Path(__file__).with_name("dice-v1.json")
WORD = 2**64


def h(label: str) -> str:
    """A fixed 64-hex-digit value named by ``label``."""
    return hashlib.sha256(label.encode()).hexdigest()


def pae(payload_type: str, payload: bytes) -> bytes:
    t = payload_type.encode()
    return b"DSSEv1 " + str(len(t)).encode() + b" " + t + b" " + str(len(payload)).encode() + b" " + payload


def roll_seed(game: str, action: str, seeds: dict[str, str], private: str | None) -> bytes:
    material: dict[str, Any] = {"game": game, "action": action, "seeds": seeds}
    if private is not None:
        material["private"] = private
    return hashlib.sha256(pae("pbem/dice/v1", rfc8785.dumps(material))).digest()


def faces(seed: bytes, rolls: list[list[int]]) -> list[list[int]]:
    words: list[int] = []
    block = 0
    result = []
    for sides, count in rolls:
        limit = WORD - WORD % sides
        group: list[int] = []
        while len(group) < count:
            if not words:
                words = list(struct.unpack(">4Q", hashlib.sha256(seed + struct.pack(">Q", block)).digest()))
                block += 1
            word = words.pop(0)
            if word < limit:
                group.append(word % sides + 1)
        result.append(group)
    return result


def anchor_and_first(top: bytes, game: str, seat: str, epoch: int, length: int) -> tuple[bytes, bytes]:
    """x_0 and x_1 of the chain whose x_length is ``top``."""
    element, x1 = top, top
    for index in range(length, 0, -1):
        # x_{index-1} = SHA-256(label ‖ game ‖ u8(len seat) ‖ seat ‖ u32be(epoch) ‖ u32be(index-1) ‖ x_index)
        element = hashlib.sha256(
            b"pbem/dice-chain/v1"
            + bytes.fromhex(game)
            + bytes([len(seat.encode())])
            + seat.encode()
            + struct.pack(">I", epoch)
            + struct.pack(">I", index - 1)
            + element
        ).digest()
        if index == 2:
            x1 = element
    return element, x1


ROLL_CASES: list[dict[str, Any]] = [
    {"seats": ["red", "blue"], "private": None, "rolls": [[6, 1]]},
    {"seats": ["red", "blue"], "private": None, "rolls": [[6, 2], [10, 1]]},
    {"seats": ["blue", "red"], "private": "draw", "rolls": [[6, 1], [20, 3]]},
    {"seats": ["red", "blue", "green"], "private": None, "rolls": [[100, 10], [20, 5]]},
    {"seats": ["red", "ref"], "private": None, "rolls": [[2, 100]]},
    {"seats": ["red", "blue"], "private": "draw", "rolls": [[1000, 50]]},
    {"seats": ["a-1", "b_2", "c"], "private": None, "rolls": [[3, 7], [7, 7], [12, 7], [4, 7], [8, 7]]},
    {"seats": [], "private": None, "rolls": [[6, 3]]},
    {"seats": ["red"], "private": None, "rolls": [[6, 1]] * 12},
    # sides far beyond the schema (2..1000) so that rejection sampling visibly skips words:
    # 2^63 + 1 rejects almost half of them, 3·2^62 a quarter
    {"seats": ["red", "blue"], "private": None, "rolls": [[2**63 + 1, 12], [3 * 2**62, 12], [6, 4]]},
]

CHAIN_CASES: list[dict[str, Any]] = [
    {"seat": "red", "epoch": 0, "length": 16},
    {"seat": "blue", "epoch": 0, "length": 16},
    {"seat": "red", "epoch": 1, "length": 16},
    {"seat": "red", "epoch": 2**32 - 1, "length": 2},
    {"seat": "referee_1", "epoch": 3, "length": 100},
]


def build() -> str:
    """The text of ``dice-v1.json``."""
    rolls = []
    for number, spec in enumerate(ROLL_CASES):
        game = h(f"game {number}")
        action = h(f"action {number}")
        seeds = {seat: h(f"seed {number} {seat}") for seat in spec["seats"]}
        private = None if spec["private"] is None else h(f"private {number}")
        seed = roll_seed(game, action, seeds, private)
        rolls.append(
            {
                "game": game,
                "action": action,
                "seeds": seeds,
                "private": private,
                "rolls": spec["rolls"],
                "roll_seed": seed.hex(),
                "faces": faces(seed, spec["rolls"]),
            }
        )
    chains = []
    for number, spec in enumerate(CHAIN_CASES):
        game, top = h(f"chain game {number}"), h(f"chain top {number}")
        anchor, x1 = anchor_and_first(bytes.fromhex(top), game, spec["seat"], spec["epoch"], spec["length"])
        chains.append({"game": game, **spec, "top": top, "anchor": anchor.hex(), "x1": x1.hex()})

    def block(items: list[dict[str, Any]]) -> str:
        return ",\n".join("  " + json.dumps(item, sort_keys=True) for item in items)

    about = "pbem committed-dice golden vectors v1; written by tests/vectors/make_dice_vectors.py"
    head = f'{{\n "about": {json.dumps(about)},\n'
    return head + f' "rolls": [\n{block(rolls)}\n ],\n "chains": [\n{block(chains)}\n ]\n}}\n'


def main() -> None:
    OUTPUT.write_bytes(build().encode())


if __name__ == "__main__":
    main()
