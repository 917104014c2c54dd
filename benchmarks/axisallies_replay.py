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

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PBEM_GAMES", "pbem.games.axisallies.ruleset:RULESET")

from _harness import best, over_signatures, print_json, signature_floor, us, us_each

from pbem.log.store import read_log
from pbem.verify.pipeline import verify_lines

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games" / "axis-allies"
GAMES = ("rommels-last-push-2p", "rommels-last-push-4p")
REPEAT = 3
"""Timings per measure: a whole replay of a sample takes seconds, so fewer than Battleaxe's benchmark takes."""


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
    signatures, actions = signature_floor(lines)

    raw, plain, full = best(REPEAT, signatures, lambda: verify_lines(lines, rules=False), lambda: verify_lines(lines))
    n = len(lines)
    trips = round_trips(game / "packets" / "README.md")
    per_round = sorted(trips.values())
    return {
        "game": game.name,
        "entries": n,
        "rules_actions": actions,
        "us_per_entry": us_each(n, signatures=raw, no_rules=plain, full=full),
        "signature_us_per_entry": us(raw, n),
        "replay_us_per_action": us(full - plain, actions),
        **over_signatures(raw, replay=full - plain, full=full),
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
        print_json(measure(SAMPLES / name))


if __name__ == "__main__":
    main()
