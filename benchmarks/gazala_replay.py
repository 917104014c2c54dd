"""Replay cost per action of Gazala games, next to the signature cost, and Battleaxe's replay cost for comparison.

The benchmark times the sample games (``sample_games/gazala``: 10.1 and 10.2 between scripted sensible players) and
a game of each scenario it plays first (random legal actions, ``pbem.kit.conformance.play_out``, through the real
protocol), over their entries:

* ``signatures``: bare Ed25519 verification of every entry (the cryptographic floor);
* ``no_rules``: verification without the rules engine (parse, ids, strict signatures, schema, chain);
* ``full``: the whole verification, replaying every action through the Gazala rules;
* ``pack_load``: loading and cross-checking the data pack once (genesis), which a short game does not amortise.

The goal (issue 13): path-finding for command and supply paths must not make Gazala's 1,560-hex map slower to replay
than Battleaxe per action by more than 2x; Battleaxe's figure is measured in the same run on its sample game.
Prints one JSON line. Run: ``PBEM_GAMES=pbem.games.gazala.ruleset:RULESET .venv/bin/python benchmarks/gazala_replay.py``
(the script sets it if unset).
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PBEM_GAMES", "pbem.games.gazala.ruleset:RULESET")

from _harness import best, over_signatures, print_json, signature_floor, us

from pbem.kit.conformance import play_out
from pbem.log.store import read_log
from pbem.rules import registry
from pbem.verify.pipeline import verify_lines

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"
BATTLEAXE = SAMPLES / "battleaxe" / "game.jsonl"
REPEAT = 5


def measure(lines: list[bytes], game: str) -> dict[str, float | int]:
    signatures, actions = signature_floor(lines)

    ruleset = registry.get(game)
    pack = ruleset.default_data()
    raw, plain, full, load = best(
        REPEAT,
        signatures,
        lambda: verify_lines(lines, rules=False),
        lambda: verify_lines(lines),
        lambda: ruleset.load_data(pack),
    )
    return {
        "entries": len(lines),
        "rules_actions": actions,
        "signatures_us_per_entry": us(raw, len(lines)),
        "replay_us_per_action": us(full - plain, actions),
        "pack_load_ms": round(load * 1e3, 1),
        "replay_us_per_action_after_pack_load": us(full - plain - load, actions),
        **over_signatures(raw, replay=full - plain),
    }


def main() -> None:
    found: dict[str, dict[str, float | int]] = {"battleaxe": measure(read_log(BATTLEAXE)[0], "battleaxe")}
    for scenario in ("bir-hacheim", "opening-phase"):
        sample = SAMPLES / "gazala" / scenario / "game.jsonl"
        if sample.exists():
            found[f"gazala sample {scenario}"] = measure(read_log(sample)[0], "gazala")
        played = play_out("gazala", scenario, {}, random.Random(1), title="benchmark")
        found[f"gazala {scenario}"] = measure(played.lines, "gazala")
    base = found["battleaxe"]
    for name, figures in found.items():
        if name != "battleaxe":
            figures["over_battleaxe"] = round(figures["replay_us_per_action"] / base["replay_us_per_action"], 2)
            after = figures["replay_us_per_action_after_pack_load"] / base["replay_us_per_action_after_pack_load"]
            figures["over_battleaxe_after_pack_load"] = round(after, 2)
    print_json(found)


if __name__ == "__main__":
    main()
