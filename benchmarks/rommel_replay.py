"""Replay cost of the Rommel sample game (Crusader by packets), next to its signature-verification cost, in one run.

Times over the entries of ``sample_games/rommel/game.jsonl``, as ``benchmarks/replay_battleaxe.py`` does for
Battleaxe (CPU time, the fastest of interleaved rounds: see ``_harness.py``):

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

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PBEM_GAMES", "pbem.games.rommel.ruleset:RULESET")

from _harness import best, engine_only, module_calls, over_signatures, print_json, profile, signature_floor, us, us_each

from pbem.games.rommel.ruleset import RULESET, Rommel
from pbem.log.store import read_log
from pbem.verify.pipeline import verify_lines

SAMPLE = Path(__file__).resolve().parents[1] / "sample_games" / "rommel" / "game.jsonl"
REPEAT = 5


def main() -> None:
    lines = read_log(SAMPLE)[0]
    if "--profile" in sys.argv[1:]:
        print(profile(lines, 25))
        return
    signatures, actions = signature_floor(lines)

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
    print_json(
        {
            "entries": n,
            "rules_actions": actions,
            "us_per_entry": us_each(n, signatures=raw, no_rules=plain, full=full, module=game, engine=answered - plain),
            "replay_us_per_action": us(full - plain, actions),
            "signature_us": us(raw, n),
            "replay_per_action_over_signature": round((full - plain) / actions / (raw / n), 2),
            **over_signatures(raw, replay=full - plain, module=game, engine=answered - plain, full=full),
            "full_seconds": round(full, 3),
        }
    )


if __name__ == "__main__":
    main()
