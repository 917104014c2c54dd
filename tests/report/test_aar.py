"""The after-action report as a document to post (issue 16): a one-page summary, a story per turn written from
the events, maps with arrows, combat markers and a legend, counters legible in print, areas named, options in
words, and no page more than half empty except the last of a section."""

from __future__ import annotations

import io
import math
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from pbem.report.chronicle import Chronicle
from pbem.report.context import PRINT_WIDTH_MM, aar_context, turns_of
from pbem.report.documents import after_action_report
from pbem.report.svg import MapRenderer
from pbem.rules.contract import OMNISCIENT

SVG = "{http://www.w3.org/2000/svg}"
MAP = re.compile(r'<svg\b[^>]*class="map".*?</svg>', re.S)
SECTION = re.compile(r'<section class="turn" id="([^"]+)">(.*?)</section>', re.S)
PT_PER_MM = 72 / 25.4


@pytest.fixture(scope="module")
def html(sample: Chronicle) -> str:
    return after_action_report(sample, None, "html").decode()


@pytest.fixture(scope="module")
def pdf_bytes(sample: Chronicle) -> bytes:
    return after_action_report(sample, None, "pdf")


def printed_pt(svg: ET.Element, size: float, scale: float = 1.0) -> float:
    """A type size in map units as printed: the drawing is ``width`` wide on paper."""
    width_mm = float(svg.get("width", "0").removesuffix("mm"))
    view_width = float(svg.get("viewBox", "0 0 1 1").split()[2])
    return size * scale * width_mm / view_width * PT_PER_MM


def unit_scale(unit: ET.Element) -> float:
    found = re.search(r"scale\(([\d.]+)\)", unit.get("transform", ""))
    return float(found.group(1)) if found else 1.0


def test_the_story_has_paragraphs_for_every_turn_and_tells_every_combat(html: str, sample: Chronicle) -> None:
    sections = SECTION.findall(html)
    assert [anchor for anchor, _ in sections] == ["turn-1", "turn-2", "turn-3"]
    combats = sum(1 for m in sample.moments for e in m.events if e.kind == "combat_resolved")
    told = []
    for _, body in sections:
        paragraphs = re.findall(r'<p class="story-paragraph">(.*?)</p>', body, re.S)
        assert len(paragraphs) >= 3
        assert re.search(r'<span class="lead">Impulse 1\.</span>', body)  # the stages head their paragraphs
        told += re.findall(r"Combat (\d+) at ", body)
    assert [int(n) for n in told] == list(range(1, combats + 1))  # each combat told once, in order
    assert re.search(r"Result: (Repulse|Stalemate|Success|Overrun), (won by the (Allied|Axis) side|neither side won)",
                     html)  # fmt: skip
    assert "Axis moves: 1/5 from Zone G (Gambut) to Zone H (Tobruk)" in html  # moves read from the views
    assert "The Allies score 2 VP (total 2)." in html  # VP changes
    turn_1 = sections[0][1]
    quote = '<blockquote class="note"><p>Danke. The 88s are waiting at Halfaya.</p><footer>Erwin (axis)'
    assert quote in turn_1 and turn_1.index(quote) < turn_1.index("Combat 1 at")  # a note where it falls


def test_the_overview_and_the_turning_point(html: str) -> None:
    overview = re.findall(r'<p class="overview">([^<]*)</p>', html)
    assert len(overview) == 3 and all("combat" in o and "Losses:" in o and "Allied VP" in o for o in overview)
    assert "Allied VP: 2 to 13 (+11)." in overview[2]
    assert re.search(r'Turning point: <a href="#turn-3">Turn 3: June 17</a>', html)


def test_the_summary_is_one_page(pdf_bytes: bytes) -> None:
    pdf = PdfReader(io.BytesIO(pdf_bytes))
    first = pdf.pages[0].extract_text()
    for part in ("Operational Victory with 13 VP", "Score at the end of each turn", "Turning point", "Losses",
                 "Archie", "Erwin", "Verification seal"):  # fmt: skip
        assert part in first, part
    assert "Turn 1: June 15" in pdf.pages[1].extract_text().split("\n", 3)[-1]  # the first turn starts page 2


def test_every_map_has_legible_counters_and_a_legend(html: str) -> None:
    maps = [ET.fromstring(m) for m in MAP.findall(html)]
    assert len(maps) == 7
    for svg in maps:
        assert 0 < float(svg.get("width", "0").removesuffix("mm")) <= PRINT_WIDTH_MM
        values = [
            printed_pt(svg, float(text.get("font-size", 0)), unit_scale(unit))
            for unit in svg.iter(f"{SVG}g")
            if unit.get("class") == "unit"
            for text in unit.iter(f"{SVG}text")
            if text.get("class") == "value"
        ]
        assert values and min(values) >= 7.0, min(values)
        (legend,) = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "legend"]
        kinds = [g.get("data-kind") for g in legend if g.get("class") == "legend-item"]
        assert kinds.count("counter") == kinds.count("control") == 2 and "terrain" in kinds and "stroke" in kinds
        assert all(printed_pt(svg, float(t.get("font-size", 0))) >= 7.0 for t in legend.iter(f"{SVG}text"))
    end_maps = maps[2::2]
    for svg in end_maps:
        (legend,) = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "legend"]
        kinds = [g.get("data-kind") for g in legend]
        assert kinds.count("arrow") == 2 and kinds.count("combat") == 1


def test_areas_are_labelled_by_name(html: str, sample: Chronicle) -> None:
    assert sample.game is not None
    names = {loc.name for loc in sample.game.data.locations}
    (final,) = [ET.fromstring(m) for m in MAP.findall(html)][:1]
    labels = []
    for text in final.iter(f"{SVG}text"):
        if text.get("class") == "label":
            labels.append(" ".join(t.text or "" for t in text.iter() if t.text).strip())
    assert len(labels) == 32 and set(labels) == names
    assert not any(label.isdigit() or len(label) == 1 for label in labels)


def test_arrows_join_each_moved_units_old_and_new_positions(sample: Chronicle, html: str) -> None:
    assert sample.presentation is not None
    renderer = MapRenderer(sample.presentation, min_scale=1.0)
    maps = [ET.fromstring(m) for m in MAP.findall(html)]
    c = renderer.style.counter
    for turn, end_map in zip(turns_of(sample, OMNISCIENT), maps[2::2], strict=True):
        group = turn.periods
        start = sample.view(None, OMNISCIENT, state=sample.state_before(turn.main))
        end = sample.view([m for m in sample.moments if m.period in group][-1], OMNISCIENT)
        assert start is not None and end is not None
        then = {p.unit: p for p in renderer.placements(start)}
        now = {p.unit: p for p in renderer.placements(end)}
        moved = {u for u in now if u in then and then[u].location != now[u].location}
        arrows = {g.get("data-unit", ""): g for g in end_map.iter(f"{SVG}g") if g.get("class") == "arrow"}
        assert set(arrows) == moved and moved
        for unit, arrow in arrows.items():
            assert (arrow.get("data-from"), arrow.get("data-to")) == (then[unit].location, now[unit].location)
            shaft = next(e for e in arrow if e.get("class") == "shaft")
            (x1, y1), (x2, y2) = then[unit].centre, now[unit].centre
            assert math.hypot(float(shaft.get("x1", 0)) - x1, float(shaft.get("y1", 0)) - y1) <= 0.1
            head = next(e for e in arrow if e.get("class") == "head")
            tip = [float(v) for v in head.get("points", "").split()[0].split(",")]
            to_end = math.hypot(x2 - tip[0], y2 - tip[1])
            assert to_end <= c * 0.56  # the tip stops at the edge of the unit's new counter...
            along = (tip[0] - x1) * (x2 - x1) + (tip[1] - y1) * (y2 - y1)
            assert along > 0  # ...on the way from the old one


def test_combat_markers_sit_where_the_combats_were(sample: Chronicle, html: str) -> None:
    maps = [ET.fromstring(m) for m in MAP.findall(html)]
    ctx = aar_context(sample, OMNISCIENT)
    for turn, end_map in zip(ctx.turns, maps[2::2], strict=True):
        marked = {g.get("data-location") for g in end_map.iter(f"{SVG}g") if g.get("class") == "combat-marker"}
        assert marked == {f.region for f in turn.fights}


def test_options_are_in_plain_words(html: str, sample: Chronicle) -> None:
    table = re.search(r'<table class="options">.*?</table>', html, re.S)
    assert table is not None
    rows = re.findall(r"<tr class=\"(\w+)\"><td>([^<]+)</td><td class=\"setting\">([^<]+).*?<td class=\"rule-ref\">"
                      r"([^<]*)</td>", table.group(0))  # fmt: skip
    assert sample.ruleset is not None and len(rows) == len(sample.ruleset.options)
    assert ("standard", "Fanatical Defense may answer a Success whose AP exceed what the defenders absorb when no "
            "Overrun is allowed", "yes", "ruling A26") in rows  # fmt: skip
    assert ("standard", "The Extended Game (June 18 when the Allies end June 17 on 9-10 VP)", "no", "rule 20") in rows
    for raw in ("fanatical_vs_excess", "= True", "= False", "zone_h_rebuild"):
        assert raw not in html


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_no_page_is_more_than_half_empty_but_the_last_of_a_section(
    pdf_bytes: bytes, sample: Chronicle, tmp_path: Path
) -> None:
    """Pages as images: how far down the page the ink reaches, between the header and the footer. Sections
    (the summary, each turn, the appendix) begin on a new page, found from the PDF's bookmarks."""
    from PIL import Image

    pdf = PdfReader(io.BytesIO(pdf_bytes))
    titles = {t.title for t in aar_context(sample, OMNISCIENT).turns} | {"The game and its verification"}

    def bookmarks(items: list[Any]) -> Iterator[Any]:
        for item in items:
            yield from bookmarks(item) if isinstance(item, list) else [item]

    pages = [pdf.get_destination_page_number(b) for b in bookmarks(pdf.outline) if b.title in titles]
    starts = sorted({page for page in pages if page is not None})
    assert len(starts) == len(titles) and starts[0] == 1
    last_of_section = {s - 1 for s in starts if s > 0} | {len(pdf.pages) - 1}
    (tmp_path / "aar.pdf").write_bytes(pdf_bytes)
    subprocess.run(["pdftoppm", "-r", "30", "-gray", str(tmp_path / "aar.pdf"), str(tmp_path / "page")], check=True)
    images = sorted(tmp_path.glob("page-*.pgm"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    assert len(images) == len(pdf.pages)
    for number, path in enumerate(images):
        image = Image.open(path)
        width, height = image.size
        top, bottom = round(height * 24 / 297), round(height * (297 - 22) / 297)  # the text block, A4 in mm
        darkest = [image.crop((0, y, width, y + 1)).getextrema()[0] for y in range(top, bottom)]
        inked = [y for y, ink in zip(range(top, bottom), darkest, strict=True) if isinstance(ink, int) and ink < 200]
        filled = (max(inked) - top) / (bottom - top) if inked else 0.0
        if number not in last_of_section:
            assert filled >= 0.5, f"page {number + 1} is {filled:.0%} full"


def test_skirmish_hex_map_report_has_arrows_legend_and_legible_blocks(skirmish: Chronicle) -> None:
    html = after_action_report(skirmish, None, "html").decode()
    maps = [ET.fromstring(m) for m in MAP.findall(html)]
    assert len(maps) >= 3
    arrows = [g for svg in maps for g in svg.iter(f"{SVG}g") if g.get("class") == "arrow"]
    assert arrows
    for svg in maps:
        assert any(g.get("class") == "legend" for g in svg.iter(f"{SVG}g"))
        values = [printed_pt(svg, float(t.get("font-size", 0))) for t in svg.iter(f"{SVG}text")
                  if t.get("class") == "value"]  # fmt: skip
        assert all(v >= 7.0 for v in values)
    assert re.search(r"Combat \d+ at [^:]+: Red", html) and '<p class="story-paragraph">' in html


def test_an_option_reads_as_words_from_its_description() -> None:
    from pbem.report.context import option_row
    from pbem.rules.contract import OptionSpec

    spec = OptionSpec(id="escarpments_block", description="9.3.2: escarpments block movement", default=False)
    row = option_row("escarpments_block", True, spec)
    assert (row.label, row.value, row.rule, row.standard) == ("Escarpments block movement", "yes", "rule 9.3.2", False)
    choice = OptionSpec(id="retreat", description="ruling A33: one step ('single_step') or more", default="single_step")
    assert option_row("retreat", "single_step", choice).label == "One step (“single step”) or more"
    assert option_row("mystery", 3, None).label == "Mystery" and option_row("mystery", 3, None).value == "3"
