"""Replay cost of the Axis & Allies sample games, next to their signature-verification cost, and their mail.

For each game of ``sample_games/axis-allies/`` (Rommel's Last Push by 2 and by 4 players), timed in one run:

* ``signatures``: bare Ed25519 verification of every entry (the cryptographic floor);
* ``no_rules``: verification without the rules (parse, ids, strict signatures, schema, chain);
* ``full``: the whole verification, replaying every action through the rules engine.

and, from the packet index the sample script wrote (``packets/README.md``), the round trips per game round (a
round trip is two hops: the distinct waves of mail of the round, :mod:`pbem.client.scripted`).

Prints one JSON line per game: microseconds per entry and per rules action, the replay's cost over the
signatures' (``replay_over_signatures``) and the round trips per round (mean, least, most). Run:
``PBEM_GAMES=pbem.games.axisallies.ruleset:RULESET python benchmarks/axisallies_replay.py`` (the script sets it).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PBEM_GAMES", "pbem.games.axisallies.ruleset:RULESET")

from pbem.log.entry import envelope
from pbem.log.store import read_log
from pbem.verify.pipeline import verify_lines

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games" / "axis-allies"
GAMES = ("rommels-last-push-2p", "rommels-last-push-4p")
REPEAT = 3
"""Timings per measure: a whole replay of a sample takes seconds, so fewer than Battleaxe's benchmark takes."""


def best(*works: Callable[[], object]) -> list[float]:
    """The fastest of REPEAT timings of each of ``works`` (CPU seconds of this process: the machine is shared, so
    the wall clock would swamp the ratios), taken in interleaved rounds so that every measure sees the same load."""
    times: list[list[float]] = [[] for _ in works]
    for _ in range(REPEAT):
        for work, spent in zip(works, times, strict=True):
            start = time.process_time()
            work()
            spent.append(time.process_time() - start)
    return [min(spent) for spent in times]


def round_trips(index: Path) -> dict[str, float]:
    """Round trips per ``round-N`` period of the packet index (its table: packet, from, period, ..., hop)."""
    hops: dict[str, set[int]] = {}
    for line in index.read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 6 and cells[2].startswith("round-"):
            hops.setdefault(cells[2], set()).add(int(cells[5]))
    return {period: len(waves) / 2 for period, waves in hops.items()}


def measure(game: Path) -> dict[str, object]:
    lines = read_log(game / "game.jsonl")[0]
    envelopes = [envelope(line) for line in lines]
    roster = {s["seat"]: s["key"] for s in json.loads(lines[0])["body"]["roster"]}
    keys = {s: Ed25519PublicKey.from_public_bytes(bytes.fromhex(k)) for s, k in roster.items()}
    work = [(keys[e.raw["author"]], e.sig, e.signing_input) for e in envelopes]
    actions = sum(len(e.raw["body"]["actions"]) for e in envelopes if e.raw["type"] == "action")

    def signatures() -> None:
        for public, sig, message in work:
            public.verify(sig, message)

    raw, plain, full = best(signatures, lambda: verify_lines(lines, rules=False), lambda: verify_lines(lines))
    n = len(lines)
    trips = round_trips(game / "packets" / "README.md")
    per_round = sorted(trips.values())
    return {
        "game": game.name,
        "entries": n,
        "rules_actions": actions,
        "us_per_entry": {
            "signatures": round(raw / n * 1e6, 1),
            "no_rules": round(plain / n * 1e6, 1),
            "full": round(full / n * 1e6, 1),
        },
        "signature_us_per_entry": round(raw / n * 1e6, 1),
        "replay_us_per_action": round((full - plain) / actions * 1e6, 1),
        "replay_over_signatures": round((full - plain) / raw, 2),
        "full_over_signatures": round(full / raw, 2),
        "rounds": len(per_round),
        "round_trips_per_round": {
            "mean": round(sum(per_round) / max(len(per_round), 1), 2),
            "least": per_round[0] if per_round else 0,
            "most": per_round[-1] if per_round else 0,
        },
        "full_seconds": round(full, 3),
    }


def main() -> None:
    for name in GAMES:
        print(json.dumps(measure(SAMPLES / name)))


if __name__ == "__main__":
    main()
