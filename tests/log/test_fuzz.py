"""Structured fuzzing: the parser, the verifier (mutated entries signed again with the seats' real keys), the
packet readers and import, and mail composition. Every input must end either accepted or with a stable code;
never a traceback, never U007 (a bug). ``make test-slow`` runs at least 100,000 inputs; the normal suite a
sample of each kind.

Each test prints its count and outcomes; PROTOCOL.md §9.1 is what the codes mean.
"""

from __future__ import annotations

import base64
import email
import email.policy
import json
import random
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.errors import InternalError, PbemError
from pbem.exchange.mail import Summary, compose
from pbem.exchange.packet import Packet, armour, find_packets, read_packets
from pbem.exchange.transfer import import_packets
from pbem.log.entry import envelope, seal, validate
from pbem.verify.pipeline import Verifier

VECTORS = Path(__file__).resolve().parents[1] / "vectors" / "protocol-v1"
LINES = (VECTORS / "game.jsonl").read_bytes().splitlines()
KEYS = {
    seat: Ed25519PrivateKey.from_private_bytes(bytes.fromhex(v["private_seed"]))
    for seat, v in json.loads((VECTORS / "keys.json").read_text()).items()
    if isinstance(v, dict)
}
GAME = envelope(LINES[0]).id

# (normal suite, make test-slow): the slow counts add up to 100,000 structured inputs
COUNTS = {"parser": (600, 35_000), "verify": (400, 40_000), "packets": (200, 15_000), "mail": (200, 10_000)}

STRINGS = ["", "a", "red", "blue", "x" * 5000, "\x1b[2J", "\u202e", "\u2028", "e\u0301", "ß",
           "genesis", "action", "key-replace", "2026-13-45T00:00:00Z", "9999-12-31T23:59:59Z", "0" * 64, "f" * 128,
           "G" * 64, "reserve/red", "card/green/1", "../../etc/passwd", "\x00", "null"]  # fmt: skip
INTS = [0, 1, -1, 2, 15, 16, 65536, 65537, 2**53 - 1, 2**53, -(2**53), 10**16, True, False]


def _value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(8 if depth < 3 else 4)
    if kind == 0:
        return rng.choice(STRINGS)
    if kind == 1:
        return rng.choice(INTS)
    if kind == 2:
        return None
    if kind == 3:
        return rng.choice(["", "".join(rng.choice("0123456789abcdef") for _ in range(rng.choice([63, 64, 65])))])
    if kind in (4, 5):
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["for", "slot", "ver", "seat", "sig", "action", "x"]): _value(rng, depth + 1)
            for _ in range(rng.randrange(4))}  # fmt: skip


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found.extend(_paths(child, (*prefix, key)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found.extend(_paths(child, (*prefix, index)))
    return found


# Values of the right shape taken from the log itself: a mutation built from them passes the schema and reaches
# the chain, dice, hidden-information and rules checks.
_LOG_VALUES: list[Any] = sorted(
    {json.dumps(v) for line in LINES for p in _paths(json.loads(line)) if p for v in [_at(json.loads(line), p)]
     if not isinstance(v, (dict, list))}
)  # fmt: skip


def _plausible(rng: random.Random, old: Any) -> Any:
    """A value of the same JSON type as ``old``, most often one that occurs in the log."""
    same = [json.loads(v) for v in rng.sample(_LOG_VALUES, 40) if type(json.loads(v)) is type(old)]
    if isinstance(old, int) and not isinstance(old, bool) and rng.randrange(2):
        return old + rng.choice([-1, 1, 2])
    if isinstance(old, list) and old:
        copy = list(old)
        rng.shuffle(copy)
        return copy[: rng.randrange(len(copy) + 1)]
    return rng.choice(same) if same else old


def _mutate(rng: random.Random, data: dict[str, Any]) -> None:
    """One change somewhere in ``data`` (never at the top-level ``sig``): half the time a plausible value of the
    same type, otherwise a structural change."""
    paths = [p for p in _paths(data) if p and p[0] != "sig"]
    in_body = [p for p in paths if p[0] == "body" and len(p) > 1]
    path = rng.choice(in_body if in_body and rng.randrange(4) else paths)  # mostly the body: the deeper checks
    parent: Any = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if rng.randrange(2):
        parent[last] = _plausible(rng, parent[last])
        return
    op = rng.randrange(6)
    if op == 0 and isinstance(parent, dict):
        del parent[last]
    elif op == 1 and isinstance(parent, dict):
        parent[rng.choice(["extra", "note", "name", "deadline", "secret"])] = _value(rng)
    elif op == 2 and isinstance(parent[last], list):
        parent[last] = parent[last] * 2 + parent[last][:1]
    elif op == 3 and last == "type":
        parent[last] = rng.choice(["genesis", "join", "action", "reveal", "hidden", "checkpoint", "disclose",
                                   "key-rotate", "key-replace", "resign", "claim-timeout", "undo-request",
                                   "undo-accept", ["action"], {"t": 1}])  # fmt: skip
    elif op == 4 and isinstance(parent[last], int) and not isinstance(parent[last], bool):
        parent[last] = parent[last] + rng.choice([-1, 1, 2**40])
    else:
        parent[last] = _value(rng)


def _sign(data: dict[str, Any]) -> bytes:
    key = KEYS.get(data.get("author")) if isinstance(data.get("author"), str) else None  # type: ignore[arg-type]
    unsigned = {k: v for k, v in data.items() if k != "sig"}
    try:
        return seal(unsigned, (key or KEYS["red"]).sign).line
    except PbemError:  # outside the data model (a float, a huge integer): send the raw JSON instead
        return json.dumps(unsigned | {"sig": "0" * 128}, ensure_ascii=False).encode("utf-8", "surrogatepass")


def _sizes(kind: str) -> pytest.MarkDecorator:
    """The test twice: a sample in the normal suite, its share of the 100,000 inputs behind the slow marker."""
    normal, slow = COUNTS[kind]
    return pytest.mark.parametrize(
        "count", [pytest.param(normal, id="sample"), pytest.param(slow, id="slow", marks=pytest.mark.slow)]
    )


def _report(kind: str, outcomes: Counter[str]) -> None:
    total = sum(outcomes.values())
    print(f"fuzz {kind}: {total} inputs, 0 tracebacks; outcomes {dict(outcomes.most_common(12))}")


def _byte_mutation(rng: random.Random, line: bytes) -> bytes:
    data = bytearray(line)
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(6)
        at = rng.randrange(len(data) + 1)
        if op == 0 and data:
            data[at % len(data)] = rng.randrange(256)
        elif op == 1:
            data[at:at] = rng.choice([b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\u", b"\\ud800", b"1e5", b"-0",
                                      b"\xff", b"\xef\xbb\xbf", b"\x00", b"\n", b"true", b"null", b" "])  # fmt: skip
        elif op == 2:
            del data[at : at + rng.randrange(1, 20)]
        elif op == 3:
            data = data[:at]
        elif op == 4:
            data[at:at] = b"[" * rng.randrange(1, 40)
        else:
            data = data.replace(b'"', b"'", 1)
    return bytes(data)


@_sizes("parser")
def test_fuzz_the_parser(count: int) -> None:
    rng = random.Random(1)
    outcomes: Counter[str] = Counter()
    for _ in range(count):
        line = _byte_mutation(rng, rng.choice(LINES))
        try:
            validate(envelope(line).raw)
            outcomes["parsed"] += 1
        except PbemError as exc:
            outcomes[exc.code.id] += 1
    _report("parser", outcomes)
    assert sum(outcomes.values()) == count


def _prefix_verifiers() -> list[Verifier]:
    """A verifier that has read the first i lines, for every i; each mutation then costs a clone. (A clone layers
    its writes over the original's maps, so each prefix gets its own verifier, never touched again.)"""
    states = []
    for i in range(len(LINES) + 1):
        verifier = Verifier()
        for number, line in enumerate(LINES[:i], 1):
            verifier.feed(line, number)
        states.append(verifier)
    return states


@_sizes("verify")
def test_fuzz_verify_with_resigned_mutations(count: int) -> None:
    rng = random.Random(2)
    states = _prefix_verifiers()
    outcomes: Counter[str] = Counter()
    for _ in range(count):
        i = rng.randrange(len(LINES))
        data = json.loads(LINES[i])
        for _ in range(rng.randrange(1, 3)):
            _mutate(rng, data)
        line = _sign(data)
        verifier = states[i].clone()
        try:
            found = verifier.feed(line, i + 1)
            if i + 1 < len(LINES):  # and the next line, which may depend on the changed one
                found += verifier.feed(LINES[i + 1], i + 2)
        except InternalError as exc:  # a bug: fail with the input that shows it
            raise AssertionError(f"U007 on line {i + 1} mutated to {line[:400]!r}") from exc
        errors = [f.code for f in found if f.severity == "error"]
        outcomes[errors[0] if errors else "accepted"] += 1
        report = verifier.report()
        assert report.valid == (not any(f.severity == "error" for f in report.findings))
    _report("verify", outcomes)


def _armour_mutation(rng: random.Random, text: str) -> str:
    lines = text.splitlines()
    op = rng.randrange(7)
    if op == 0:
        i = rng.randrange(len(lines))
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    elif op == 1:
        del lines[rng.randrange(len(lines))]
    elif op == 2:
        stray = ["", "> ", "Checksum: 00", "-----END PBEM PACKET-----", "-----BEGIN PBEM PACKET-----", "=?utf-8?q?x?="]
        lines.insert(rng.randrange(len(lines)), rng.choice(stray))
    elif op == 3:
        width = rng.randrange(20, 80)
        lines = [p for line in lines for p in ([line[k : k + width] for k in range(0, len(line), width)] or [""])]
    elif op == 4:
        lines = [rng.choice(["> ", ">", "  ", "\t"]) + line for line in lines]
    elif op == 5:
        i = rng.randrange(len(lines))
        chars = list(lines[i]) or ["x"]
        chars[rng.randrange(len(chars))] = rng.choice("A/+=é\x00\u2028")
        lines[i] = "".join(chars)
    else:
        payload = base64.b64encode(bytes(rng.randrange(256) for _ in range(rng.randrange(200)))).decode()
        lines = [lines[0], "Checksum: " + "ab" * 12, "", payload, lines[-1]]
    return "\n".join(lines) + rng.choice(["\n", "\r\n", ""])


@_sizes("packets")
def test_fuzz_packets_and_import(count: int, tmp_path: Path) -> None:
    """Armour, packet files and saved emails, damaged; then imports of re-signed mutated entries into a copy
    of the log (each import verifies the whole log, so one in twenty inputs is an import)."""
    rng = random.Random(3)
    outcomes: Counter[str] = Counter()
    base = tmp_path / "base.jsonl"
    base.write_bytes(b"".join(line + b"\n" for line in LINES[:-3]))
    tail = Packet(GAME, "green", None, tuple(LINES[-3:]))
    text, file_bytes = armour(tail), tail.to_file()
    for n in range(count):
        source = tmp_path / f"in-{n % 7}"
        try:
            if n % 20 == 0:  # an import of mutated, re-signed entries
                data = json.loads(rng.choice(LINES[-3:]))
                _mutate(rng, data)
                log = tmp_path / "log.jsonl"
                shutil.copyfile(base, log)
                before = log.read_bytes()
                try:
                    import_packets(log, [Packet(GAME, "green", None, (*LINES[-3:-1], _sign(data)))])
                    outcomes["imported"] += 1
                except PbemError:
                    assert log.read_bytes() == before  # nothing is written unless every entry verifies
                    raise
                continue
            kind = rng.randrange(3)
            if kind == 0:
                found = find_packets(_armour_mutation(rng, text))
            elif kind == 1:
                source.write_bytes(_byte_mutation(rng, file_bytes))
                found = read_packets(source)
            else:
                charset = rng.choice(["utf-8", "x-unknown", "us-ascii", "utf-16", "klingon", ""])
                body = _armour_mutation(rng, text) if rng.randrange(2) else text
                head = f"From: a@b\nTo: c@d\nSubject: s\nContent-Type: text/plain; charset={charset}\n\n"
                source.write_bytes(head.encode() + body.encode("utf-8", "replace"))
                found = read_packets(source)
            outcomes["read" if found else "none"] += 1
        except InternalError:
            raise
        except PbemError as exc:
            outcomes[exc.code.id] += 1
    _report("packets and import", outcomes)


@_sizes("mail")
def test_fuzz_mail_headers_and_bodies(count: int) -> None:
    rng = random.Random(4)
    packet = Packet(GAME, "green", "red", tuple(LINES[-2:]))
    outcomes: Counter[str] = Counter()
    breaks = ["\r", "\n", "\r\n", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1b[2J", "\u202e", "\x00", "\t"]

    def pick() -> str:
        parts = [*breaks, "Bcc: x@y", "=?utf-8?q?=0D=0A?=", "é", "a" * rng.randrange(1, 300), " ", ":"]
        return "".join(rng.choice(parts) for _ in range(rng.randrange(1, 8)))

    for _ in range(count):
        summary = Summary(pick(), pick() or "x", tuple(pick() for _ in range(rng.randrange(3))), (pick(),))
        message = compose(packet, summary, to="bob@example.org", sender="alice@example.org", log_name="game.jsonl")
        raw = bytes(message)
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        assert "Bcc" not in parsed and parsed["To"] == "bob@example.org"
        subject = str(parsed["Subject"])
        assert not any(c in subject for c in "\r\n\u2028\u2029\x85\x0b\x0c\x00\x1b\u202e")
        assert [p.lines for p in (read_packets_from_bytes(raw))] == [packet.lines, packet.lines]
        outcomes["composed"] += 1
    _report("mail", outcomes)


def read_packets_from_bytes(raw: bytes) -> list[Packet]:
    from pbem.exchange.packet import _message_packets

    return _message_packets(email.message_from_bytes(raw, policy=email.policy.default), "fuzz")
