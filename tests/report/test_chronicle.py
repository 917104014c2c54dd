"""The chronicle credits each line of the story to the seat that signed it (issue 16)."""

from __future__ import annotations

import json
import re

from pbem.report.chronicle import Chronicle
from pbem.report.documents import turn_report
from pbem.report.replay import replay_page


def test_reveal_entries_are_credited_to_the_seat_that_signed_them(sample: Chronicle) -> None:
    """Line 20 is a reveal signed by the Allied player that answers the Axis player's Sunset roll."""
    reveal = next(m for m in sample.moments if m.line == 20)
    assert reveal.type == "reveal" and reveal.author == "allied"
    sunset = next(e for e in reveal.events if e.kind == "sunset_rolled")
    assert sunset.seat == "axis"  # the rules name the seat whose roll it was...
    assert reveal.credit(sunset) == "allied"  # ...but the line is the Allied player's
    protocol = [m for m in sample.moments if m.type not in ("action", "unreadable") and m.events]
    assert protocol and all(m.credit(e) == m.author for m in protocol for e in m.events)


def test_an_actions_lines_are_credited_to_its_signer(sample: Chronicle) -> None:
    """Line 273 is the Axis player's action that ends the game; the rules score Allied VP in it."""
    action = next(m for m in sample.moments if m.line == 273)
    scored = next(e for e in action.events if e.kind == "victory_points")
    assert action.author == "axis" and scored.seat == "allied"
    assert action.credit(scored) == "axis"
    narration = next(e for e in sample.moments[4].events if e.seat is None)  # "the Maneuvers Phase begins"
    assert sample.moments[4].credit(narration) is None


def test_reports_and_the_replay_page_credit_reveals_to_their_signer(sample: Chronicle) -> None:
    html = turn_report(sample, "1", None, "html").decode()
    credited = re.findall(
        r'<li class="ev ev-sunset_rolled"><span class="ln">(\d+)</span><span class="who">([^<]+)', html
    )
    signers = {m.line: sample.name_of(m.author) for m in sample.moments}
    assert credited and all(who == signers[int(line)] for line, who in credited)
    page = replay_page(sample).decode()
    found = re.search(r'<script type="application/json" id="pbem-data">(.*?)</script>', page, re.S)
    assert found is not None
    data = json.loads(found.group(1))
    for step in data["steps"]:
        if step["type"] == "reveal":
            assert {line[1] for line in step["lines"]} <= {step["who"]}, step["line"]
