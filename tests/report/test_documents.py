"""Turn reports and after-action reports of the sample game, in HTML (checked structurally) and PDF."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from pypdf import PdfReader

from pbem.errors import UsageError
from pbem.log.store import read_log
from pbem.report.chronicle import Chronicle, chronicle
from pbem.report.documents import after_action_report, turn_report
from pbem.rules.contract import OBSERVER, OMNISCIENT
from tests.report.conftest import SAMPLE

SVG = re.compile(r"<svg\b.*?</svg>", re.S)


def maps(html: str) -> list[ET.Element]:
    return [ET.fromstring(m) for m in SVG.findall(html) if 'class="map"' in m[:300]]


def unit_ids(svg: ET.Element) -> set[str]:
    return {e.get("data-unit", "") for e in svg.iter() if e.get("class") == "unit"}


def on_map(chron: Chronicle, state: object, viewer: str = OMNISCIENT) -> set[str]:
    view = chron.view(None, viewer, state=state)  # type: ignore[arg-type]
    assert view is not None
    return {u.id for u in view.units if u.location is not None}


@pytest.fixture(scope="module")
def aar_pdf(sample: Chronicle) -> PdfReader:
    return PdfReader(io.BytesIO(after_action_report(sample, None, "pdf")))


@pytest.fixture(scope="module")
def turn_pdf(sample: Chronicle) -> PdfReader:
    return PdfReader(io.BytesIO(turn_report(sample, "1", None, "pdf")))


def text_of(pdf: PdfReader) -> str:
    return "\n".join(page.extract_text() for page in pdf.pages)


def test_turn_report_html_maps_hold_one_element_per_unit_at_start_and_end(sample: Chronicle) -> None:
    html = turn_report(sample, "2", None, "html").decode()
    start, end = maps(html)
    moments = sample.moments_of("turn-2")
    assert unit_ids(start) == on_map(sample, sample.state_before("turn-2"))
    assert unit_ids(end) == on_map(sample, moments[-1].state)
    assert unit_ids(start) != unit_ids(end)  # units were lost during the turn


def test_turn_report_tells_every_impulse_with_combat_tables_and_rule_numbers(sample: Chronicle) -> None:
    html = turn_report(sample, "1", None, "html").decode()
    sections = re.findall(r'<section class="stage" id="[^"]+">\s*<h2>([^<]+)</h2>', html)
    assert sections[0] == "Impulse 1" and "Refit Phase" in sections
    impulses = [s for s in sections if s.startswith("Impulse")]
    assert impulses == [f"Impulse {n}" for n in range(1, len(impulses) + 1)]
    combats = sum(1 for m in sample.moments_of("turn-1") for e in m.events if e.kind == "combat_resolved")
    assert html.count('<table class="combat">') == combats > 0
    assert "§11.4.4" in html and "§11.4.2" in html and 'class="die"' in html
    assert "Victory points" in html and "Out of supply" in html and "Allied control" in html


def test_turn_report_pdf_has_pages_headings_and_a_combat_line(turn_pdf: PdfReader) -> None:
    text = text_of(turn_pdf)
    assert len(turn_pdf.pages) >= 6
    for heading in ("Turn report", "Contents", "Impulse 1", "The position at the end", "Verification seal"):
        assert heading.lower() in text.lower(), heading
    assert re.search(r"Combat in Zone H \(Tobruk\):\s*Repulse", text)
    assert "Page 2 of" in text  # running footers


def test_after_action_report_pdf(aar_pdf: PdfReader, sample: Chronicle) -> None:
    text = text_of(aar_pdf)
    assert 5 <= len(aar_pdf.pages) <= 20
    for heading in ("After-action report", "The game and its verification", "Verification seal", "Turning point",
                    "Losses by unit type", "The final position", "Turn 1: June 15", "Turn 3: June 17"):  # fmt: skip
        assert heading.lower() in text.lower(), heading
    assert "Archie" in text and "Erwin" in text and "SHA256:" in text  # players with key fingerprints
    assert "The log verifies" in text and sample.report.state_hash in text.replace("\n", "")
    assert re.search(r"Combat \d+ at [^:]+:.*?Result:\s*(Repulse|Stalemate|Success|Overrun)", text, re.S)
    assert aar_pdf.outline  # headings become PDF bookmarks


def test_after_action_report_html_parts(sample: Chronicle) -> None:
    html = after_action_report(sample, None, "html").decode()
    final, *turn_maps = maps(html)
    assert unit_ids(final) == on_map(sample, sample.final.state if sample.final else None)
    assert len(turn_maps) == 2 * 3  # the start and the end of each of the three turns
    charts = [ET.fromstring(m) for m in SVG.findall(html) if 'class="chart"' in m[:300]]
    assert len(charts) == 2
    score, losses = charts
    assert [e.get("data-series") for e in score.iter() if e.get("class") == "series"] == ["Allied VP"]
    assert {e.get("data-series") for e in losses.iter() if e.get("class") == "bar"} == {"Allied", "Axis"}
    assert "Good luck! Tobruk first, then Halfaya." in html  # players' notes reach the timeline
    casualties = re.search(r'<table class="casualties">.*?</table>', html, re.S)
    assert casualties is not None and "armor" in casualties.group(0) and "infantry" in casualties.group(0)


def test_losses_agree_with_the_units_that_left_the_map(sample: Chronicle) -> None:
    html = after_action_report(sample, None, "html").decode()
    rows = re.findall(r"<tr><td>(\w+)</td><td>[^<]+</td><td>(\d+)</td><td>(\d+)</td></tr>", html)
    eliminated = sum(int(gone) for _, _, gone in rows)
    final = sample.view(sample.final, OMNISCIENT)
    first = sample.view(next(m for m in sample.moments if m.state is not None), OMNISCIENT)
    assert final is not None and first is not None
    gone_now = {u.id for u in final.units if u.location is None}
    gone_then = {u.id for u in first.units if u.location is None}
    rebuilt = sum(1 for m in sample.moments for e in m.events if e.kind == "unit_rebuilt")
    assert eliminated == len(gone_now - gone_then) + rebuilt


def test_an_invalid_log_is_reported_with_its_first_failure_in_red() -> None:
    """A signature byte of line 201 flipped: the seal turns red and names the code and the line."""
    lines = read_log(SAMPLE)[0]
    bad = re.sub(rb'"sig":"(.)', lambda m: b'"sig":"' + (b"0" if m.group(1) != b"0" else b"1"), lines[200])
    chron = chronicle([*lines[:200], bad, *lines[201:]])
    html = after_action_report(chron, None, "html").decode()
    assert '<section class="seal invalid" id="seal">' in html
    assert "[K001]" in html and "line 201" in html
    assert "not established" in html


def test_viewer_and_turn_choices_are_checked(sample: Chronicle) -> None:
    with pytest.raises(UsageError) as bad_seat:
        after_action_report(sample, "nobody", "html")
    with pytest.raises(UsageError) as bad_turn:
        turn_report(sample, "7", None, "html")
    assert bad_seat.value.code.id == bad_turn.value.code.id == "U003"
    assert "turn-1, turn-2, turn-3" in bad_turn.value.message
    html = after_action_report(sample, OBSERVER, "html").decode()
    assert "Seen as an observer" in html


def test_a_log_without_a_game_cannot_be_reported() -> None:
    with pytest.raises(UsageError) as empty:
        after_action_report(chronicle([b"not json"]), None, "html")
    assert empty.value.code.id == "U006"
