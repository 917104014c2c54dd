"""Wall time of ``pbem tournament verify`` over a folder of logs: all cores against a single process.

The folder holds 60 copies of the Operation Battleaxe sample game (277 entries each), 4 of them tampered.
Prints one JSON line: the core count, both wall times (seconds) and their ratio. Run: ``make bench``.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.verify.tournament import verify_folder

SAMPLE = Path(__file__).resolve().parents[1] / "sample_games" / "battleaxe" / "game.jsonl"
COPIES = 60


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="pbem-tournament-"))
    data = SAMPLE.read_bytes()
    for n in range(COPIES):
        body = data if n % 15 else data.replace(b'"ts":"2026-06-15T00:1', b'"ts":"2026-06-15T00:2', 1)
        (folder / f"game-{n:02d}.jsonl").write_bytes(body)
    timings = {}
    for label, jobs in (("one_process", 1), ("all_cores", os.cpu_count() or 1)):
        start = time.perf_counter()
        rows = verify_folder(folder, jobs=jobs)
        timings[label] = round(time.perf_counter() - start, 2)
        assert sum(r.verdict == "valid" for r in rows) == COPIES - 4, [r.first_error for r in rows][:5]
    print(json.dumps({
        "logs": COPIES, "cores": os.cpu_count(), **timings,
        "speedup": round(timings["one_process"] / timings["all_cores"], 2),
    }))  # fmt: skip


if __name__ == "__main__":
    main()
