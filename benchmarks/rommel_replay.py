"""Replay cost of the Rommel sample game (Crusader by packets), next to its signature-verification cost, in one run.

Times over the entries of ``sample_games/rommel/game.jsonl``, as ``benchmarks/replay_battleaxe.py`` does for
Battleaxe (CPU time, the fastest of interleaved rounds: see ``replay_parts.py``):

* ``signatures``: bare Ed25519 verification of every entry (the cryptographic floor);
* ``no_rules``: ``pbem verify --no-rules`` (parse, ids, strict signatures, schema, chain);
* ``full``: the whole verification, replaying every action through the rules engine, opening every commitment
  and replaying the disclosed game for the audit;
* ``module``: only the calls the replay makes into the Rommel module (contains, apply, resume, to_act...),
  recorded during one verification and made again in a row: the game's own share of the replay;
* ``engine``: the full verification with every module call and dice chain answered at once from a recording, less
  ``no_rules``: pbem's own replay machinery (here mostly the shared deck's proofs, PROTOCOL.md §14).

Prints one JSON line: microseconds per entry and per rules action, and the ratios of the replay's, the module's and
the engine's cost to the signatures'. ``--profile`` prints instead the top functions of one full verification by
cumulative and by own CPU time (cProfile). Rommel is not in the ``pbem.games`` entry point yet, so the script loads
it through ``PBEM_GAMES``. Run: ``python benchmarks/rommel_replay.py [--profile]``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PBEM_GAMES", "pbem.games.rommel.ruleset:RULESET")

from replay_parts import best, engine_only, module_calls, profile

from pbem.games.rommel.ruleset import RULESET, Rommel
from pbem.log.entry import envelope
from pbem.log.store import read_log
from pbem.verify.pipeline import verify_lines

SAMPLE = Path(__file__).resolve().parents[1] / "sample_games" / "rommel" / "game.jsonl"
REPEAT = 5


def main() -> None:
    lines = read_log(SAMPLE)[0]
    if "--profile" in sys.argv[1:]:
        print(profile(lines, 25))
        return
    envelopes = [envelope(line) for line in lines]
    roster = {s["seat"]: s["key"] for s in json.loads(lines[0])["body"]["roster"]}
    keys = {s: Ed25519PublicKey.from_public_bytes(bytes.fromhex(k)) for s, k in roster.items()}
    work = [(keys[e.raw["author"]], e.sig, e.signing_input) for e in envelopes]
    actions = sum(len(e.raw["body"]["actions"]) for e in envelopes if e.raw["type"] == "action")

    def signatures() -> None:
        for public, sig, message in work:
            public.verify(sig, message)

    module = module_calls(Rommel, RULESET, lines)
    raw, plain, full, game, answered = best(
        REPEAT,
        signatures,
        lambda: verify_lines(lines, rules=False),
        lambda: verify_lines(lines),
        module,
        engine_only(lines),
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
                    "engine": round((answered - plain) / n * 1e6, 1),
                },
                "replay_us_per_action": round((full - plain) / actions * 1e6, 1),
                "signature_us": round(raw / n * 1e6, 1),
                "replay_per_action_over_signature": round((full - plain) / actions / (raw / n), 2),
                "replay_over_signatures": round((full - plain) / raw, 2),
                "module_over_signatures": round(game / raw, 2),
                "engine_over_signatures": round((answered - plain) / raw, 2),
                "full_over_signatures": round(full / raw, 2),
                "full_seconds": round(full, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
