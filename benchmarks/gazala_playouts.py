"""How long one random legal play-out of each Gazala scenario takes: the budget of the play-outs in ``make test-slow``.

For each scenario and seed, a whole game between players choosing at random among the legal actions
(``pbem.kit.conformance.play_out``, the slow tests' own driver, through the real protocol), then one verification of
its log (what the issue asks of each play-out: a result, and a log that verifies). Seeds alternate the slow tests'
two players: random (even seeds) and ``fighting`` (odd: attacks whenever it can). Prints one JSON line per scenario:
entries, CPU seconds per play-out (play and verification apart; the wall clock of a shared machine also counts the
wait for a core) and the CPU seconds 1,000 play-outs would take with the scenarios equally represented, on one core.

Run: ``.venv/bin/python benchmarks/gazala_playouts.py [SEEDS]`` (default 4 seeds per scenario).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PBEM_GAMES", "pbem.games.gazala.ruleset:RULESET")

from pbem.kit.conformance import Picker, play_out
from pbem.rules.contract import Action
from pbem.verify.pipeline import verify_lines

SCENARIOS = ("bir-hacheim", "opening-phase", "gazala-battles")
COMBAT = ("attack", "retreat_before_combat")


def fighting(seat: str, legal: list[Action], rng: Picker) -> Action:
    """The slow tests' keen player: attacks (or retreats before combat) whenever it can, else acts at random."""
    keen = [a for a in legal if a["action"] in COMBAT]
    return rng.choice(keen) if keen else rng.choice(legal)


def one(scenario: str, seed: int) -> dict[str, float | int | str | None]:
    start = time.process_time()
    extra = {"choose": fighting} if seed % 2 else {}
    played = play_out("gazala", scenario, {}, random.Random(seed), title=f"gazala {seed}", **extra)  # type: ignore[arg-type]
    middle = time.process_time()
    report, _ = verify_lines(played.lines)
    end = time.process_time()
    if not report.valid or report.result is None:
        raise SystemExit(f"{scenario} seed {seed}: the play-out did not end with a result that verifies")
    return {
        "entries": len(played.lines),
        "play_s": round(middle - start, 2),
        "verify_s": round(end - middle, 2),
        "result": report.result.outcome,
    }


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    per_scenario: dict[str, float] = {}
    for scenario in SCENARIOS:
        runs = [one(scenario, seed) for seed in range(2, 2 + seeds)]
        totals = [float(r["play_s"]) + float(r["verify_s"]) for r in runs]  # type: ignore[arg-type]
        per_scenario[scenario] = statistics.mean(totals)
        print(
            json.dumps(
                {
                    "scenario": scenario,
                    "runs": runs,
                    "mean_s": round(statistics.mean(totals), 2),
                    "max_s": round(max(totals), 2),
                }
            ),
            flush=True,
        )
    thousand = 1000 * statistics.mean(per_scenario.values())
    print(json.dumps({"thousand_play_outs_s": round(thousand), "thousand_play_outs_h": round(thousand / 3600, 2)}))


if __name__ == "__main__":
    main()
