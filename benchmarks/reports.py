"""Seconds to render the Operation Battleaxe sample game's documents, measured in one run.

* ``chronicle``: replaying the log into the moments every document is made from (the verifier's replay);
* ``aar_html`` / ``aar_pdf``: the after-action report, from the chronicle, as HTML and as PDF (WeasyPrint): a
  summary page, the story of each turn with its start and end maps (seven maps for the sample), an appendix;
* ``turn_pdf``: the turn report of turn 1 as PDF;
* ``replay_html``: the step-through replay page (every line, every viewer).

Prints one JSON line of medians (seconds) and the PDF/HTML ratio. Run: ``make bench``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _harness import median_time

from pbem.log.store import read_log
from pbem.report.chronicle import Chronicle, chronicle
from pbem.report.documents import after_action_report, turn_report
from pbem.report.replay import replay_page

SAMPLE = Path(__file__).resolve().parents[1] / "sample_games" / "battleaxe" / "game.jsonl"


def fresh(lines: list[bytes]) -> Chronicle:
    return chronicle(lines)


def main() -> None:
    lines = read_log(SAMPLE)[0]
    chron = fresh(lines)
    after_action_report(chron, None, "pdf")  # warm up: fonts, templates
    results = {
        "entries": len(lines),
        "chronicle": median_time(lambda: fresh(lines), 5),
        "aar_html": median_time(lambda: after_action_report(fresh(lines), None, "html"), 5),
        "aar_pdf": median_time(lambda: after_action_report(fresh(lines), None, "pdf"), 3),
        "turn_pdf": median_time(lambda: turn_report(fresh(lines), "1", None, "pdf"), 3),
        "replay_html": median_time(lambda: replay_page(fresh(lines)), 3),
    }
    rounded = {k: round(v, 3) if isinstance(v, float) else v for k, v in results.items()}
    rounded["pdf_over_html"] = round(results["aar_pdf"] / results["aar_html"], 1)
    print(json.dumps(rounded))


if __name__ == "__main__":
    main()
