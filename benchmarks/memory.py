"""Memory stays flat: peak RSS of ``pbem tournament verify`` over many logs against over a few, in one run.

Folders of 10 and of 1,000 copies of the Operation Battleaxe sample game are each verified by a fresh
process with one worker (``jobs=1``, so every game passes through the same interpreter and anything a game
leaves behind accumulates). Each process reports its own peak RSS. Prints one JSON line with both peaks
(MB) and their ratio; the goal is a ratio of at most 1.2. Run: ``make bench`` (or with ``--games N``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_games" / "battleaxe" / "game.jsonl"

CHILD = """
import json, resource, sys
from pathlib import Path
from pbem.verify.tournament import verify_folder
rows = verify_folder(Path(sys.argv[1]), jobs=1)
assert all(r.verdict == "valid" for r in rows), [r.first_error for r in rows if r.verdict != "valid"][:3]
print(json.dumps({"logs": len(rows), "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def peak(games: int) -> float:
    """Peak RSS (MB) of a fresh process verifying a folder of ``games`` copies of the sample."""
    with tempfile.TemporaryDirectory(prefix="pbem-memory-") as directory:
        folder = Path(directory)
        data = SAMPLE.read_bytes()
        for n in range(games):
            (folder / f"game-{n:04d}.jsonl").write_bytes(data)
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(folder)], check=True, capture_output=True, text=True, cwd=ROOT
        ).stdout
    result = json.loads(out)
    assert result["logs"] == games
    return float(result["peak_rss_kb"]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--few", type=int, default=10)
    args = parser.parse_args()
    small, large = peak(args.few), peak(args.games)
    print(json.dumps({
        "games": {"few": args.few, "many": args.games},
        "peak_rss_mb": {"few": round(small, 1), "many": round(large, 1)},
        "ratio": round(large / small, 3),
        "goal": 1.2,
    }))  # fmt: skip


if __name__ == "__main__":
    main()
