"""CLI start time: ``pbem --help`` and ``pbem status`` of a 3-entry log, against ``python -c pass``.

The 3-entry logs (genesis and two joins) are of Battleaxe (the first lines of the sample game) and of
Triad, the small example game (made with the CLI in a temporary folder): a status must load its game's rules
module, so the game's own import cost is part of the number.

Each command runs as a fresh process (the interpreter of this venv, so the baseline pays the same site and
editable-install start-up), once to warm up, then ``--runs`` times; the median CPU time is taken. The children
may write bytecode caches even if this environment sets PYTHONDONTWRITEBYTECODE: an installed pbem runs from
compiled modules (pip compiles them), and recompiling 60 modules at every start measures the compiler instead.
Prints one JSON line with the medians in seconds and the ratios to the baseline. The goal is a ratio of 8 or less
for both commands.
Run: ``.venv/bin/python benchmarks/cli_start.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

SAMPLE = Path(__file__).resolve().parents[1] / "sample_games" / "battleaxe" / "game.jsonl"


CHILD_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def median_seconds(argv: list[str], runs: int) -> float:
    """The median CPU time (user + system) of the child process: on a shared machine, wall time mostly measures
    the other processes. A first, untimed run writes the bytecode caches."""
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=CHILD_ENV)
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=CHILD_ENV)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21)
    runs = parser.parse_args().runs
    pbem = [sys.executable, "-c", "from pbem.cli import main; main()"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        battleaxe = folder / "battleaxe.jsonl"
        battleaxe.write_bytes(b"".join(SAMPLE.read_bytes().splitlines(keepends=True)[:3]))
        triad = folder / "triad.jsonl"
        quiet = {"stdout": subprocess.DEVNULL, "check": True, "cwd": folder}
        for name in ("red", "blue"):
            subprocess.run([*pbem, "key", "new", name], stdin=subprocess.DEVNULL, **quiet)  # type: ignore[call-overload]
        subprocess.run([*pbem, "new", "triad", "-s", "duel", "--seat", "red=red.pub", "--seat", "blue=blue.pub",
                        "--key", "red.key", "-o", str(triad)], **quiet)  # type: ignore[call-overload]  # fmt: skip
        subprocess.run([*pbem, "join", str(triad), "--key", "blue.key"], **quiet)  # type: ignore[call-overload]
        base = median_seconds([sys.executable, "-c", "pass"], runs)
        times = {
            "help": median_seconds([*pbem, "--help"], runs),
            "status_battleaxe": median_seconds([*pbem, "status", str(battleaxe)], runs),
            "status_triad": median_seconds([*pbem, "status", str(triad)], runs),
        }
    result: dict[str, float] = {"runs": runs, "python_c_pass": round(base, 4)}
    for name, seconds in times.items():
        result[name] = round(seconds, 4)
        result[f"{name}_ratio"] = round(seconds / base, 2)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
