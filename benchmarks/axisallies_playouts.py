"""How long the 1,000 random Axis & Allies play-outs of ``make test-slow`` take (tests/games/axisallies/
test_playout_sweep.py): the sweep's own check of a number of its seeds, timed in CPU seconds of this process (the
wall clock of a shared machine also counts the wait for a core).

Prints one JSON line per seed (its scenario, result and CPU seconds) and a last line with the mean and the CPU
minutes 1,000 play-outs would take on one core. Run:
``.venv/bin/python benchmarks/axisallies_playouts.py [SEEDS]`` (default 20, the first seeds of the sweep).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PBEM_GAMES", "pbem.games.axisallies.ruleset:RULESET")

from tests.games.axisallies.test_playout_sweep import PLAY_OUTS, SCENARIOS, sweep


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    spent = []
    for seed in range(seeds):
        start = time.process_time()
        result = sweep(seed)
        spent.append(time.process_time() - start)
        line = {"seed": seed, "scenario": SCENARIOS[seed % len(SCENARIOS)], "result": result, "cpu_s": spent[-1]}
        print(json.dumps({k: round(v, 2) if isinstance(v, float) else v for k, v in line.items()}), flush=True)
    mean = statistics.mean(spent)
    print(json.dumps({"mean_cpu_s": round(mean, 2), "sweep_cpu_minutes": round(PLAY_OUTS * mean / 60, 1)}))


if __name__ == "__main__":
    main()
