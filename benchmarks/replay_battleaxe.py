"""Replay cost of the Operation Battleaxe sample game, next to its signature-verification cost, in one run.

Times over the same 300-odd entries of ``sample_games/battleaxe/game.jsonl``:

* ``signatures``: bare Ed25519 verification of every entry (the cryptographic floor);
* ``no_rules``: ``pbem verify --no-rules`` (parse, ids, strict signatures, schema, chain);
* ``full``: the whole verification, replaying every action through the rules engine;
* ``module``: only the calls the replay makes into the Battleaxe module (contains, apply, resume, to_act...),
  recorded during one verification and made again in a row: the game's own share of the replay, without the
  engine's;
* ``audit_chain``: the end-of-game audit's proof of each disclosed game secret, its seat's whole dice chain
  (4,096 SHA-256 steps) rebuilt to the anchor committed at join: a fixed cost per game that the protocol
  requires, whatever the rules;
* ``engine``: the full verification with every module call and chain answered at once from a recording, less
  ``no_rules``: pbem's own replay machinery (see ``_harness.py``).

Prints one JSON line: microseconds per entry and per rules action, and the ratios: the replay's cost over the
signatures' (goal at most 0.5), the module's, the engine's and the chain audit's shares of it, and full and
protocol-only verification speed as fractions of raw Ed25519 speed (goals at least 0.55 and 0.75). ``--profile``
prints instead the top functions of one full verification by cumulative and by own CPU time (cProfile).
Run: ``make bench``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _harness import best, engine_only, module_calls, over_signatures, print_json, profile, signature_floor, us, us_each

from pbem.games.battleaxe.ruleset import RULESET, Battleaxe
from pbem.log import derive
from pbem.log.dice import chain_anchor
from pbem.log.entry import envelope
from pbem.log.store import read_log
from pbem.verify.pipeline import disclosed_knowledge, verify_lines

SAMPLE = Path(__file__).resolve().parents[1] / "sample_games" / "battleaxe" / "game.jsonl"
REPEAT = 15


def audit_chain(lines: list[bytes]) -> Callable[[], None]:
    """The audit's check of every disclosed secret (what :mod:`pbem.replay.seats` does once per seat and epoch)."""
    genesis = json.loads(lines[0])
    game, length = envelope(lines[0]).id, genesis["body"]["dice"]["chain"]
    secrets = disclosed_knowledge(lines)

    def prove() -> None:
        for (seat, epoch), secret in secrets.items():
            chain_anchor(derive.chain_top(secret), game, seat, epoch, length)

    return prove


def main() -> None:
    lines = read_log(SAMPLE)[0]
    if "--profile" in sys.argv[1:]:
        print(profile(lines))
        return
    signatures, actions = signature_floor(lines)

    module = module_calls(Battleaxe, RULESET, lines)
    raw, plain, full, game, chain, answered = best(
        REPEAT,
        signatures,
        lambda: verify_lines(lines, rules=False),
        lambda: verify_lines(lines),
        module,
        audit_chain(lines),
        engine_only(lines),
    )
    n = len(lines)
    print_json(
        {
            "entries": n,
            "rules_actions": actions,
            "us_per_entry": us_each(
                n, signatures=raw, no_rules=plain, full=full, module=game, audit_chain=chain, engine=answered - plain
            ),
            "replay_us_per_action": us(full - plain, actions),
            **over_signatures(
                raw, replay=full - plain, module=game, audit_chain=chain, engine=answered - plain, full=full
            ),
            # speeds as fractions of raw Ed25519 (goals: full >= 0.55, no rules >= 0.75, replay <= 0.5)
            "ratio_full": round(raw / full, 3),
            "ratio_no_rules": round(raw / plain, 3),
            "goals": {"ratio_full": 0.55, "ratio_no_rules": 0.75, "replay_over_signatures": 0.5},
            "full_seconds": round(full, 3),
        }
    )


if __name__ == "__main__":
    main()
