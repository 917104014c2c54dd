"""The chronicle credits each line of the story to the seat that signed it (issue 16), and a roll's lines to
the seat that asked for the roll."""

from __future__ import annotations

import json
import re
from dataclasses import replace

from pbem.report.chronicle import Chronicle
from pbem.report.documents import turn_report
from pbem.report.replay import replay_page


def test_a_rolls_lines_are_credited_to_the_seat_that_asked_for_the_roll(sample: Chronicle) -> None:
    """Line 20 is a reveal signed by the Allied player: its die completes the Axis player's Sunset roll, which
    the action its ``for`` names asked for. The roll's lines are the Axis player's, not the revealer's."""
    reveal = next(m for m in sample.moments if m.line == 20)
    assert reveal.type == "reveal" and reveal.author == "allied"
    request = next(m for m in sample.moments if m.entry == reveal.answers)
    assert request.type == "action" and request.line < reveal.line
    sunset = next(e for e in reveal.events if e.kind == "sunset_rolled")
    assert reveal.asked_by == request.author == "axis"
    assert reveal.credit(sunset) == "axis"
    reveals = [m for m in sample.moments if m.type == "reveal" and m.events]
    assert reveals and any(m.author != m.asked_by for m in reveals)
    for moment in reveals:
        asker = next(m for m in sample.moments if m.entry == moment.answers).author
        assert all(moment.credit(e) == asker for e in moment.events), moment.line


def test_a_reveal_whose_request_the_log_does_not_hold_is_credited_to_nobody(sample: Chronicle) -> None:
    reveal = next(m for m in sample.moments if m.line == 20)
    orphan = replace(reveal, answers="0" * 64, asked_by=None)
    assert all(orphan.credit(e) is None for e in orphan.events)


def test_an_actions_lines_are_credited_to_its_signer(sample: Chronicle) -> None:
    """Line 273 is the Axis player's action that ends the game; the rules score Allied VP in it."""
    action = next(m for m in sample.moments if m.line == 273)
    scored = next(e for e in action.events if e.kind == "victory_points")
    assert action.author == "axis" and scored.seat == "allied"
    assert action.credit(scored) == "axis"
    narration = next(e for e in sample.moments[4].events if e.seat is None)  # "the Maneuvers Phase begins"
    assert sample.moments[4].credit(narration) is None


def test_reports_and_the_replay_page_credit_a_roll_to_the_seat_that_asked_for_it(sample: Chronicle) -> None:
    html = turn_report(sample, "1", None, "html").decode()
    credited = re.findall(
        r'<li class="ev ev-sunset_rolled"><span class="ln">(\d+)</span><span class="who">([^<]+)', html
    )
    askers = {m.line: sample.name_of(m.asked_by) for m in sample.moments if m.type == "reveal"}
    assert credited and all(who == askers[int(line)] for line, who in credited)
    page = replay_page(sample).decode()
    found = re.search(r'<script type="application/json" id="pbem-data">(.*?)</script>', page, re.S)
    assert found is not None
    data = json.loads(found.group(1))
    reveals = [step for step in data["steps"] if step["type"] == "reveal" and step["lines"]]
    assert reveals
    for step in reveals:
        assert {line[1] for line in step["lines"]} == {askers[step["line"]]}, step["line"]
