"""Committed dice (pbem.log.dice): seed chains, unbiased faces, golden vectors (research §3.4, case D7)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from pbem.log import dice
from pbem.log.dice import DEFAULT_CHAIN_LENGTH, SeedChain, chain_anchor, faces, roll_seed, step_down

VECTORS = Path(__file__).parent.parent / "vectors"
GAME = hashlib.sha256(b"dice test game").hexdigest()
SIDES = (2, 3, 4, 6, 8, 10, 12, 20, 100)

# --- seed chains ---------------------------------------------------------------------------------------


def test_seed_chain_links() -> None:
    top = hashlib.sha256(b"top").digest()
    n = 64
    chain = SeedChain(top, GAME, "red", 0, length=n)
    assert chain.length == n
    assert chain[n] == top
    element = top
    for index in range(n, 0, -1):
        element = step_down(GAME, "red", 0, index, element)
    assert chain.anchor == element
    for index in range(1, n + 1):
        below = chain.anchor if index == 1 else chain[index - 1]
        assert step_down(GAME, "red", 0, index, chain[index]) == below
    assert len({chain[i] for i in range(1, n + 1)} | {chain.anchor}) == n + 1


@pytest.mark.parametrize(("seat", "epoch", "n"), [("red", 0, 64), ("blue", 3, 1), ("z" * 32, 0, 17)])
def test_chain_anchor_is_the_anchor_of_the_whole_chain(seat: str, epoch: int, n: int) -> None:
    top = hashlib.sha256(seat.encode()).digest()
    assert chain_anchor(top, GAME, seat, epoch, n) == SeedChain(top, GAME, seat, epoch, length=n).anchor
    element = top
    for index in range(n, 0, -1):
        element = step_down(GAME, seat, epoch, index, element)
    assert chain_anchor(top, GAME, seat, epoch, n) == element


@pytest.mark.parametrize("index", [0, -1, 65, 1000])
def test_seed_chain_index_out_of_range(index: int) -> None:
    chain = SeedChain(bytes(32), GAME, "red", 0, length=64)
    with pytest.raises(IndexError):
        chain[index]


def test_seed_chain_default_length_and_binding() -> None:
    top = hashlib.sha256(b"top").digest()
    chain = SeedChain(top, GAME, "red", 0)
    assert chain.length == DEFAULT_CHAIN_LENGTH
    assert chain[DEFAULT_CHAIN_LENGTH] == top
    other_game = hashlib.sha256(b"other game").hexdigest()
    anchors = {
        SeedChain(top, GAME, "red", 0, length=8).anchor,
        SeedChain(top, other_game, "red", 0, length=8).anchor,
        SeedChain(top, GAME, "blue", 0, length=8).anchor,
        SeedChain(top, GAME, "red", 1, length=8).anchor,
        SeedChain(top, GAME, "red", 0, length=9).anchor,
    }
    assert len(anchors) == 5
    assert SeedChain(top, GAME, "red", 0, length=8)[3] == SeedChain(top, GAME, "red", 0, length=8)[3]


# --- distribution (D7) -------------------------------------------------------------------------------------


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X ~ chi-squared(df), in closed form for integer df (no scipy in the venv)."""
    h = x / 2
    if df % 2 == 0:
        term = total = math.exp(-h)
        for i in range(1, df // 2):
            term *= h / i
            total += term
        return total
    total = math.erfc(math.sqrt(h))
    term = math.exp(-h) * math.sqrt(h) / math.gamma(1.5)
    for j in range(1, (df - 1) // 2 + 1):
        total += term
        term *= h / (j + 0.5)
    return total


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [(10.828, 1, 0.001), (13.816, 2, 0.001), (20.515, 5, 0.001), (18.307, 10, 0.05), (148.230, 99, 0.001)],
)
def test_chi2_sf_matches_tables(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=2e-3)


def chi2(observed: list[int], expected: list[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


@cache
def seeds(k: int) -> tuple[bytes, ...]:
    contributions = {"red": "aa" * 32, "blue": "bb" * 32}
    return tuple(roll_seed(GAME, f"{i:064x}", contributions) for i in range(k))


@pytest.mark.case("D7")
@pytest.mark.parametrize("sides", SIDES)
def test_faces_are_uniform(sides: int) -> None:
    per_seed = 200
    counts: Counter[int] = Counter()
    for seed in seeds(500):
        (group,) = faces(seed, [(sides, per_seed)])
        counts.update(group)
    total = sum(counts.values())
    assert total >= 100_000
    assert set(counts) == set(range(1, sides + 1))
    statistic = chi2([counts[f] for f in range(1, sides + 1)], [total / sides] * sides)
    assert chi2_sf(statistic, sides - 1) > 0.001


@pytest.mark.case("D7")
def test_2d6_sums() -> None:
    sums: Counter[int] = Counter()
    for seed in seeds(500):
        for a, b in faces(seed, [(6, 2)] * 100):
            sums[a + b] += 1
    total = sum(sums.values())
    assert total == 50_000
    expected = [total * (6 - abs(s - 7)) / 36 for s in range(2, 13)]
    statistic = chi2([sums[s] for s in range(2, 13)], expected)
    assert chi2_sf(statistic, 10) > 0.001


@pytest.mark.case("D7")
@pytest.mark.parametrize("sides", [*SIDES, 7, 1000, 2**32 + 1, 3 * 2**62, 2**63 + 1])
def test_rejection_is_exact(sides: int, monkeypatch: pytest.MonkeyPatch) -> None:
    limit = 2**64 - (2**64 % sides)
    assert limit % sides == 0  # every face owns exactly limit // sides words
    assert 2**64 - limit < sides
    power_of_two = sides & (sides - 1) == 0
    assert (limit == 2**64) == power_of_two
    words = [2**64 - 1, limit, limit - 1, 0, sides - 1, 1, 12345678901234567]
    monkeypatch.setattr(dice, "_words", lambda seed: iter(words))
    expected = [w % sides + 1 for w in words if w < limit]
    assert faces(b"", [(sides, len(expected))]) == [expected]
    if not power_of_two:
        # 2^64-1 and limit are skipped: the first face comes from limit-1, the top face (limit would give 1)
        assert expected[:2] == [sides, 1]
        assert len(expected) == len(words) - 2


@pytest.mark.case("D7")
def test_rejected_word_moves_the_next_group(monkeypatch: pytest.MonkeyPatch) -> None:
    words = [2**64 - 1, 5, 2**64 - 2, 7, 9]

    def fake(seed: bytes) -> Iterator[int]:
        return iter(words)

    monkeypatch.setattr(dice, "_words", fake)
    # sides 3: limit = 2^64 - 1, so 2^64 - 1 is rejected, 2^64 - 2 accepted
    assert faces(b"", [(3, 2), (10, 2)]) == [[5 % 3 + 1, (2**64 - 2) % 3 + 1], [8, 10]]


def test_words_are_sha256_blocks() -> None:
    seed = hashlib.sha256(b"seed").digest()
    stream = dice._words(seed)
    got = [next(stream) for _ in range(12)]
    expected = []
    for block in range(3):
        digest = hashlib.sha256(seed + block.to_bytes(8, "big")).digest()
        expected += [int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8)]
    assert got == expected


def test_roll_seed_binds_every_input() -> None:
    base = {"red": "aa" * 32, "blue": "bb" * 32}
    action = "cc" * 32
    variants = {
        roll_seed(GAME, action, base),
        roll_seed(GAME, action, base, private="dd" * 32),
        roll_seed(GAME, action, base, private="de" * 32),
        roll_seed(hashlib.sha256(b"g2").hexdigest(), action, base),
        roll_seed(GAME, "cd" * 32, base),
        roll_seed(GAME, action, {**base, "red": "ab" * 32}),
        roll_seed(GAME, action, {"red": "aa" * 32}),
        roll_seed(GAME, action, {**base, "green": "ee" * 32}),
    }
    assert len(variants) == 8
    assert roll_seed(GAME, action, {"blue": "bb" * 32, "red": "aa" * 32}) == roll_seed(GAME, action, base)


# --- golden vectors ------------------------------------------------------------------------------------------


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_dice_vectors", VECTORS / "make_dice_vectors.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.case("D7")
def test_golden_file_is_what_the_script_writes() -> None:
    assert (VECTORS / "dice-v1.json").read_bytes() == _generator().build().encode()


@pytest.mark.case("D7")
def test_golden_roll_vectors() -> None:
    vectors = json.loads((VECTORS / "dice-v1.json").read_text())
    assert len(vectors["rolls"]) == 10
    skipped = 0
    for case in vectors["rolls"]:
        seed = roll_seed(case["game"], case["action"], case["seeds"], case["private"])
        assert seed.hex() == case["roll_seed"]
        rolls = [(sides, n) for sides, n in case["rolls"]]
        assert faces(seed, rolls) == case["faces"]
        assert [len(group) for group in case["faces"]] == [n for _, n in rolls]
        words = dice._words(seed)
        for (sides, _), group in zip(rolls, case["faces"], strict=True):
            assert all(1 <= face <= sides for face in group)
            for face in group:  # walk the word stream: count the words rejection sampling skipped
                while (word := next(words)) >= 2**64 - 2**64 % sides:
                    skipped += 1
                assert word % sides + 1 == face
    assert skipped > 0  # the file exercises rejection sampling for real


@pytest.mark.case("D7")
def test_golden_chain_vectors() -> None:
    vectors = json.loads((VECTORS / "dice-v1.json").read_text())
    assert len(vectors["chains"]) == 5
    for case in vectors["chains"]:
        chain = SeedChain(bytes.fromhex(case["top"]), case["game"], case["seat"], case["epoch"], case["length"])
        assert chain.anchor.hex() == case["anchor"]
        assert chain[1].hex() == case["x1"]
        assert chain[case["length"]].hex() == case["top"]
