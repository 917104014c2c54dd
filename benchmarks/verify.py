"""Verification throughput against the raw Ed25519 floor, measured in one run.

Generates a signed game log of at least 10,000 entries (the test game Triad, played by a scripted client),
then times, on the same entries:

* ``raw``: bare Ed25519 verification of every entry's signing input (pyca/OpenSSL, keys loaded once);
* ``verify_no_rules``: ``pbem verify --no-rules``: parse, canonical form, ids, strict signatures, schema,
  chain, causal order (everything but the game replay);
* ``verify_rules``: the full verification, replaying every action through the rules engine.

Prints one JSON line with the rates (entries per second) and the ratios to the raw rate. The goal for
``ratio_no_rules`` is 0.75 or more. Run: ``make bench`` (or with ``--entries N``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PBEM_GAMES", "pbem.games.triad.ruleset:RULESET")

from pbem.client.session import Session, create_game, own_knowledge
from pbem.log.entry import envelope
from pbem.log.keys import KeyPair
from pbem.rules import registry
from pbem.verify.pipeline import Verifier, verify_lines
from tests.helpers import MemoryStore

ROUNDS = 3


def key(seat: str) -> KeyPair:
    return KeyPair.from_private(Ed25519PrivateKey.from_private_bytes(hashlib.sha256(seat.encode()).digest()))


def generate(entries: int) -> list[bytes]:
    """A valid game of at least ``entries`` lines, built in memory through the player client."""
    directory = Path(tempfile.mkdtemp())
    os.environ["PBEM_STATE_DIR"] = str(directory / "state")
    keys = {"red": key("red"), "blue": key("blue")}
    tick = iter(range(10**9))

    def clock() -> str:
        t = next(tick)
        return (
            f"2026-{1 + t // 2_592_000 % 12:02d}-{1 + t // 86400 % 28:02d}T{t // 3600 % 24:02d}:{t // 60 % 60:02d}:00Z"
        )

    log = directory / "game.jsonl"
    rounds = entries // 4 + 10
    create_game(log, registry.get("triad"), "duel", {s: k.public for s, k in keys.items()}, keys["red"],
                options={"rounds": rounds}, clock=clock)  # fmt: skip
    store = MemoryStore(log.read_bytes().splitlines())
    # One replay serves both scripted players, so it knows both seats' secrets.
    verifier = Verifier(knowledge=lambda g, seat, e, k: own_knowledge(keys[seat])(g, seat, e, k))
    for line in store.lines:
        verifier.feed(line)
    sessions = {s: Session(store, k, verifier, clock=clock) for s, k in keys.items()}  # type: ignore[arg-type]
    sessions["blue"].join()
    rng = random.Random(1)
    game = verifier.game
    assert game is not None
    progressed = True
    while progressed:
        progressed = False
        for seat, session in sessions.items():
            progressed |= bool(session.do_owed())
            if game.result is None and len(store.lines) >= entries:
                session.resign()  # long enough: end the game so that it closes with disclosures
                progressed = True
            elif game.result is None and not game.waits_for_protocol() and seat in game.ruleset.to_act(game.state):
                legal = game.ruleset.legal_actions(game.state, seat)
                # keep both seats alive so the game runs long: no attacks (draws still roll dice)
                calm = [a for a in legal if a["action"] != "attack"]
                session.act([rng.choice(calm or legal)])
                progressed = True
    report = verifier.report()
    assert report.valid and report.audit == "complete", [f.render() for f in report.findings[:3]]
    return store.lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    args = parser.parse_args()
    lines = generate(args.entries)
    envelopes = [envelope(line) for line in lines]
    roster = {s["seat"]: s["key"] for s in json.loads(lines[0])["body"]["roster"]}
    keys = {s: Ed25519PublicKey.from_public_bytes(bytes.fromhex(k)) for s, k in roster.items()}
    work = [(keys[e.raw["author"]], e.sig, e.signing_input) for e in envelopes]

    def signatures() -> bool:
        for public, sig, message in work:
            public.verify(sig, message)
        return True

    runs: dict[str, Callable[[], bool]] = {
        "raw": signatures,
        "plain": lambda: verify_lines(lines, rules=False)[0].valid,
        "full": lambda: verify_lines(lines)[0].valid,
    }
    # interleaved rounds, fastest of each, in CPU time: a change in the (shared) machine's load affects every measure
    # alike, and the time other processes hold the cores is not counted
    spent: dict[str, list[float]] = {label: [] for label in runs}
    for _ in range(ROUNDS):
        for label, run in runs.items():
            start = time.process_time()
            assert run(), label
            spent[label].append(time.process_time() - start)
    raw, plain, full = (min(spent[label]) for label in runs)

    n = len(lines)
    print(json.dumps({
        "entries": n,
        "raw_ed25519_per_s": round(n / raw),
        "verify_no_rules_per_s": round(n / plain),
        "verify_rules_per_s": round(n / full),
        "ratio_no_rules": round(raw / plain, 3),
        "ratio_rules": round(raw / full, 3),
        "replay_over_signatures": round((full - plain) / raw, 3),
        "goals": {"ratio_no_rules": 0.75, "ratio_rules": 0.55, "replay_over_signatures": 0.5},
        "us_per_entry": {"raw": round(raw / n * 1e6, 1), "no_rules": round(plain / n * 1e6, 1),
                         "rules": round(full / n * 1e6, 1)},
    }))  # fmt: skip


if __name__ == "__main__":
    main()
