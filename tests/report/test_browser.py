"""The replay page and the reports in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``).

``make browser`` installs them; without them these tests skip and say so. Set PBEM_SCREENSHOTS to a directory
to keep screenshots of what the browser showed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.report import charts
from pbem.report.chronicle import Chronicle
from pbem.report.documents import after_action_report, turn_report
from pbem.report.replay import replay_page
from tests.chromium import chromium, needs_chromium, shot

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(1280, 900) as driver:
        yield driver


def load(browser: Any, html: bytes, path: Path) -> None:
    path.write_bytes(html)
    browser.get(path.as_uri())


def units(browser: Any) -> dict[str, tuple[str, str, str]]:
    """Each drawn unit: (x, y, hidden flag)."""
    return browser.execute_script(
        "var out = {}; document.querySelectorAll('#units .unit').forEach(function (g) {"
        "  var u = g.querySelector('use');"
        "  out[g.getAttribute('data-unit')] = [u.getAttribute('x'), u.getAttribute('y'),"
        "    g.getAttribute('data-hidden')];"
        "}); return out;"
    )


def press(browser: Any, button: str, times: int = 1) -> None:
    for _ in range(times):
        browser.find_element("id", button).click()


def story(browser: Any) -> str:
    return str(browser.find_element("id", "story").text)


def step_of(browser: Any) -> int:
    return int(browser.find_element("id", "counter").text.split()[1])


def test_stepping_forward_and_back_changes_the_map_and_the_story(
    browser: Any, skirmish: Chronicle, tmp_path: Path
) -> None:
    load(browser, replay_page(skirmish), tmp_path / "replay.html")
    assert browser.get_log("browser") == []  # no script errors, nothing blocked by the CSP
    assert step_of(browser) == 1 and units(browser) == {}  # before anyone joined there is nothing on the map
    moved = next(i for i, m in enumerate(skirmish.moments) if any(e.kind == "moved" for e in m.events))
    press(browser, "next", moved - 1)
    before, before_story = units(browser), story(browser)
    press(browser, "next")
    after, after_story = units(browser), story(browser)
    assert after != before and after_story != before_story and "moves from" in after_story
    shot(browser, "replay-step")
    press(browser, "prev")
    assert units(browser) == before and story(browser) == before_story
    press(browser, "last")
    assert step_of(browser) == len(skirmish.moments)
    assert "wins" in browser.find_element("id", "situation").text


def test_the_side_selector_hides_the_enemys_blocks(browser: Any, skirmish: Chronicle, tmp_path: Path) -> None:
    from selenium.webdriver.support.ui import Select

    load(browser, replay_page(skirmish), tmp_path / "replay.html")
    first_move = next(i for i, m in enumerate(skirmish.moments) if any(e.kind == "moved" for e in m.events))
    press(browser, "next", first_move)
    pick = Select(browser.find_element("id", "viewer"))
    seen = {}
    for viewer in ("red", "blue", "@observer", "@all"):
        pick.select_by_value(viewer)
        seen[viewer] = units(browser)
        shot(browser, f"replay-as-{viewer.strip('@')}")
    assert len(seen["red"]) == 6
    for side, enemy in (("red", "b"), ("blue", "r")):
        assert {u: h for u, (_, _, h) in seen[side].items()} == {
            u: "1" if u.startswith(enemy) else "0" for u in seen[side]
        }
    assert {h for _, _, h in seen["@observer"].values()} == {"1"}
    assert {h for _, _, h in seen["@all"].values()} == {"0"}  # the game is over and fully disclosed
    # the positions are the same for everyone: fog hides strengths, not where the blocks stand
    assert {u: (x, y) for u, (x, y, _) in seen["red"].items()} == {u: (x, y) for u, (x, y, _) in seen["blue"].items()}


def test_keyboard_and_slider_move_through_the_game(browser: Any, sample: Chronicle, tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    load(browser, replay_page(sample), tmp_path / "replay.html")
    body = browser.find_element("tag name", "body")
    body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_RIGHT)
    assert step_of(browser) == 3
    body.send_keys(Keys.END)
    assert step_of(browser) == len(sample.moments)
    final = units(browser)
    assert len(final) == sum(1 for u in sample.view(sample.final).units if u.location)  # type: ignore[union-attr]
    shot(browser, "replay-battleaxe-end")
    browser.execute_script(
        "var s = document.getElementById('slider'); s.value = '40'; s.dispatchEvent(new Event('input'));"
    )
    assert step_of(browser) == 41
    body.send_keys(Keys.HOME)
    assert step_of(browser) == 1


@pytest.mark.parametrize("document", ["aar", "turn", "replay"])
def test_hostile_text_never_runs_and_the_layout_holds(
    browser: Any, hostile: Chronicle, tmp_path: Path, document: str
) -> None:
    from tests.report.conftest import HOSTILE_NAMES

    html = {
        "aar": lambda: after_action_report(hostile, None, "html"),
        "turn": lambda: turn_report(hostile, "1", None, "html"),
        "replay": lambda: replay_page(hostile),
    }[document]()
    load(browser, html, tmp_path / f"{document}.html")
    if document == "replay":
        press(browser, "last")
        for _ in range(3):
            press(browser, "prev")
    assert browser.execute_script("return window.__pwned === undefined")
    assert not browser.find_elements("css selector", "body script:not([type]):not([id])") or document == "replay"
    wide = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"the page is {wide[0]}px wide in a {wide[1]}px window"
    shown = browser.find_element("tag name", "body").text
    assert "<script>" in shown  # shown as text, not run
    if document != "replay":
        assert HOSTILE_NAMES["blue"][:20] in shown
    shot(browser, f"hostile-{document}")


def test_the_after_action_reports_first_three_screens(browser: Any, sample: Chronicle, tmp_path: Path) -> None:
    """The summary and the first turn as a reader scrolls them: maps drawn, no script, nothing too wide."""
    load(browser, after_action_report(sample, None, "html"), tmp_path / "aar.html")
    assert browser.get_log("browser") == []
    wide = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1]
    maps = browser.execute_script(
        "return Array.from(document.querySelectorAll('svg.map')).map(function (s) {"
        "  var r = s.getBoundingClientRect(); return [r.width, r.height]; });"
    )
    assert len(maps) == 7 and all(w > 600 and h > 400 for w, h in maps)  # the maps fill the column
    height = browser.execute_script("return window.innerHeight")
    for page in range(3):
        browser.execute_script("window.scrollTo(0, arguments[0])", page * height)
        shot(browser, f"aar-screen-{page + 1}")
    top = browser.execute_script(
        "return document.getElementById('turn-1').getBoundingClientRect().top + window.scrollY"
    )
    assert top > height  # the summary comes first


def test_the_replay_highlights_the_current_action_and_shows_the_score(
    browser: Any, sample: Chronicle, tmp_path: Path
) -> None:
    load(browser, replay_page(sample), tmp_path / "replay.html")
    moved = next(i for i, m in enumerate(sample.moments) if any(e.kind == "moved" for e in m.events))
    event = next(e for e in sample.moments[moved].events if e.kind == "moved")
    press(browser, "next", moved)
    state = browser.execute_script(
        "return [Array.from(document.querySelectorAll('.region.hot')).map(function (r) {"
        "  return r.getAttribute('data-id'); }).sort(),"
        " Array.from(document.querySelectorAll('#units .unit.moved')).map(function (g) {"
        "  return g.getAttribute('data-unit'); }),"
        " document.querySelectorAll('#arrows .arrow').length]"
    )
    assert state == [sorted([event.data["src"], event.data["dst"]]), [event.data["unit"]], 1]
    panel = browser.find_element("id", "score-panel")
    assert panel.is_displayed() and "Allied VP" in panel.text and "Victory points" in panel.text
    shot(browser, "replay-current-action")
    press(browser, "next")
    assert browser.execute_script("return document.querySelectorAll('#arrows .arrow').length") == 0
    press(browser, "last")
    assert "13" in browser.find_element("id", "score-panel").text


AXIS_LABELS = """
var boxes = Array.from(document.querySelectorAll('svg.chart')).map(function (svg) {
  var width = svg.viewBox.baseVal.width;
  return Array.from(svg.querySelectorAll('.x-label, .x-caption')).map(function (t) {
    var b = t.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height, t.textContent, width];
  });
});
return boxes;
"""


@pytest.mark.parametrize("count", [1, 4, 14, 40, 150])
@pytest.mark.parametrize("style", ["Round {n}", "Turn {n}: June {n}", "Operation {n} of the spring campaign"])
def test_the_charts_x_axis_labels_never_overlap(browser: Any, tmp_path: Path, count: int, style: str) -> None:
    """However many periods, and however long their names, no two x-axis labels (nor the caption) touch in
    Chromium, each stays inside its chart, and the first period is always labelled (a long name cut short).
    A&A's fourteen "Round N" periods read as their numbers under the caption "Round", every one of them."""
    labels = [style.format(n=n) for n in range(1, count + 1)]
    values = {"Axis": [n % 7 for n in range(count)], "Allies": [n % 5 for n in range(count)]}
    figures = charts.line_chart(labels, values, title="Score") + charts.bar_chart(labels, values, title="Losses")
    load(browser, f"<!doctype html><html><body style='width:440px'>{figures}</body></html>".encode(),
         tmp_path / "chart.html")  # fmt: skip
    shot(browser, f"chart-{count}-{style.split()[0].lower()}")
    for boxes in browser.execute_script(AXIS_LABELS):
        texts = [b[4] for b in boxes]
        first = texts[0].removesuffix("…")  # a long label is cut, from its end
        assert first == "1" or style.format(n=1).replace(": ", "").startswith(first)
        for i, a in enumerate(boxes):
            assert a[0] >= 0 and a[2] <= a[5], a
            for b in boxes[i + 1 :]:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)
        if style == "Round {n}" and count == 14:
            assert texts == [str(n) for n in range(1, 15)] + ["Round"]


CHART_LEGEND = """
return Array.from(document.querySelectorAll('svg.chart')).map(function (svg) {
  var box = svg.viewBox.baseVal;
  return Array.from(svg.querySelectorAll('.legend-key, .legend-name')).map(function (t) {
    var b = t.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height, t.textContent, box.width, box.height];
  });
});
"""


@pytest.mark.parametrize("count", [2, 5, 9])
def test_the_charts_legend_keys_wrap_inside_the_chart(browser: Any, tmp_path: Path, count: int) -> None:
    """A chart's legend with many or long names (A&A's "United Kingdom RP", "United States RP") wraps into rows
    that the chart grows to hold: no key or name leaves the chart or touches another."""
    names = [f"{word} RP" for word in ("Germany", "Italy", "United Kingdom", "United States", "France")] + [
        f"A long series name {n}" for n in range(count)
    ]
    values = {name: [1, 2, 3] for name in names[:count]}
    labels = ["Round 1", "Round 2", "Round 3"]
    figures = charts.line_chart(labels, values, title="Score") + charts.bar_chart(labels, values, title="Losses")
    load(browser, f"<!doctype html><html><body style='width:440px'>{figures}</body></html>".encode(),
         tmp_path / "legend.html")  # fmt: skip
    shot(browser, f"chart-legend-{count}")
    for boxes in browser.execute_script(CHART_LEGEND):
        assert len(boxes) == 2 * count
        for i, a in enumerate(boxes):
            assert a[0] >= 0 and a[2] <= a[5] and a[3] <= a[6], a
            for b in boxes[i + 1 :]:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)


LINE_VALUES = """
return Array.from(document.querySelectorAll('svg.chart')).map(function (svg) {
  return Array.from(svg.querySelectorAll('text.value, text:first-of-type')).map(function (t) {
    var b = t.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height, t.textContent];
  });
});
"""


@pytest.mark.parametrize("count", [3, 14, 40])
def test_the_charts_values_never_print_over_each_other(browser: Any, tmp_path: Path, count: int) -> None:
    """Close lines (A&A's RP: 13 and 15, 20 and 24, a 30 under the title) print each value above or below its point
    where it touches no other value nor the title, and leave it out where neither place is free; narrow bars print
    their values where they touch no other."""
    series = {"Germany RP": 13, "Italy RP": 15, "United Kingdom RP": 24, "United States RP": 20, "France RP": 30}
    values = {name: [base + (n % 3) for n in range(count)] for name, base in series.items()}
    labels = [f"Round {n}" for n in range(1, count + 1)]
    title = "Score at the end of each turn"
    figures = charts.line_chart(labels, values, title=title) + charts.bar_chart(labels, values, title=title)
    load(browser, f"<!doctype html><html><body style='width:440px'>{figures}</body></html>".encode(),
         tmp_path / "values.html")  # fmt: skip
    shot(browser, f"chart-values-{count}")
    for boxes in browser.execute_script(LINE_VALUES):
        assert boxes[0][4] == title and len(boxes) > 1
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)
