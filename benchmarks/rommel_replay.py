"""Replay cost of the Rommel sample game (Crusader by packets), next to its signature-verification cost, in one run.

Times over the entries of ``sample_games/rommel/game.jsonl``, as ``benchmarks/replay_battleaxe.py`` does for
Battleaxe:

* ``signatures``: bare Ed25519 verification of every entry (the cryptographic floor);
* ``no_rules``: ``pbem verify --no-rules`` (parse, ids, strict signatures, schema, chain);
* ``full``: the whole verification, replaying every action through the rules engine, opening every commitment
  and replaying the disclosed game for the audit;
* ``module``: only the calls the replay makes into the Rommel module (contains, apply, resume, to_act...),
  recorded during one verification and made again in a row: the game's own share of the replay.

Prints one JSON line: microseconds per entry and per rules action, and the ratios of the replay's and the
module's cost to the signatures'. ``--profile`` prints instead the top functions of one full verification by
cumulative and by own time (cProfile). Rommel is not in the ``pbem.games`` entry point yet, so the script loads
it through ``PBEM_GAMES``. Run: ``python benchmarks/rommel_replay.py [--profile]``.
"""

from __future__ import annotations

import cProfile
import io
import json
import os
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PBEM_GAMES", "pbem.games.rommel.ruleset:RULESET")

from pbem.games.rommel.ruleset import RULESET, Rommel
from pbem.log.entry import envelope
from pbem.log.store import read_log
from pbem.verify.pipeline import verify_lines

SAMPLE = Path(__file__).resolve().parents[1] / "sample_games" / "rommel" / "game.jsonl"
REPEAT = 5
MODULE_CALLS = ("to_act", "secret_fields", "contains", "apply", "resume", "period", "result")


def best(*works: Callable[[], object]) -> list[float]:
    """The fastest of REPEAT timings of each of ``works`` (seconds), in interleaved rounds so that a change in the
    shared machine's load affects every measure alike and their ratios stay fair."""
    times: list[list[float]] = [[] for _ in works]
    for _ in range(REPEAT):
        for work, spent in zip(works, times, strict=True):
            start = time.perf_counter()
            work()
            spent.append(time.perf_counter() - start)
    return [min(spent) for spent in times]


def module_calls(lines: list[bytes]) -> Callable[[], None]:
    """The calls one verification of ``lines`` makes into the Rommel ruleset, as a function that makes them again
    (states are immutable, so each call sees exactly what it saw during the verification)."""
    calls: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = []
    originals = {name: getattr(Rommel, name) for name in MODULE_CALLS}

    def recorder(method: Callable[..., Any]) -> Callable[..., Any]:
        def record(self: Rommel, *args: Any, **kwargs: Any) -> Any:
            calls.append((method, args, kwargs))
            return method(self, *args, **kwargs)

        return record

    try:
        for name, method in originals.items():
            setattr(Rommel, name, recorder(method))
        verify_lines(lines)
    finally:
        for name, method in originals.items():
            setattr(Rommel, name, method)

    def again() -> None:
        for method, args, kwargs in calls:
            method(RULESET, *args, **kwargs)

    return again


def profile(lines: list[bytes], top: int = 25) -> str:
    """The top functions of one full verification, by cumulative and by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    verify_lines(lines)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main() -> None:
    lines = read_log(SAMPLE)[0]
    if "--profile" in sys.argv[1:]:
        print(profile(lines))
        return
    envelopes = [envelope(line) for line in lines]
    roster = {s["seat"]: s["key"] for s in json.loads(lines[0])["body"]["roster"]}
    keys = {s: Ed25519PublicKey.from_public_bytes(bytes.fromhex(k)) for s, k in roster.items()}
    work = [(keys[e.raw["author"]], e.sig, e.signing_input) for e in envelopes]
    actions = sum(len(e.raw["body"]["actions"]) for e in envelopes if e.raw["type"] == "action")

    def signatures() -> None:
        for public, sig, message in work:
            public.verify(sig, message)

    module = module_calls(lines)
    raw, plain, full, game = best(
        signatures, lambda: verify_lines(lines, rules=False), lambda: verify_lines(lines), module
    )
    n = len(lines)
    print(
        json.dumps(
            {
                "entries": n,
                "rules_actions": actions,
                "us_per_entry": {
                    "signatures": round(raw / n * 1e6, 1),
                    "no_rules": round(plain / n * 1e6, 1),
                    "full": round(full / n * 1e6, 1),
                    "module": round(game / n * 1e6, 1),
                },
                "replay_us_per_action": round((full - plain) / actions * 1e6, 1),
                "signature_us": round(raw / n * 1e6, 1),
                "replay_per_action_over_signature": round((full - plain) / actions / (raw / n), 2),
                "replay_over_signatures": round((full - plain) / raw, 2),
                "module_over_signatures": round(game / raw, 2),
                "full_over_signatures": round(full / raw, 2),
                "full_seconds": round(full, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
