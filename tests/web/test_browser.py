"""A Battleaxe turn for each side played only by clicking, in real headless Chromium (Debian's chromium and
chromium-driver, as tests/report/test_browser.py). Set PBEM_SCREENSHOTS to a directory to keep screenshots."""

from __future__ import annotations

import calendar
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.client.turn import Choice
from pbem.log.entry import envelope
from pbem.log.keys import save_keypair
from pbem.log.store import read_log
from pbem.web.desk import Desk
from tests.chromium import chromium, needs_chromium, shot
from tests.helpers import Table
from tests.web.conftest import served

pytestmark = needs_chromium

HOSTILE = '<img src=x onerror="window.__pwned=1">Mallory'


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(1500, 1000) as driver:
        yield driver


def _reloading(browser: Any, element: Any) -> None:
    """Click ``element`` and wait for the page the form posts to (the server redirects back to the desk)."""
    _awaiting_reload(browser, element.click)


def _awaiting_reload(browser: Any, click: Any) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    browser.execute_script("window.__before = true;")  # gone once the next page has loaded
    click()
    WebDriverWait(browser, 20).until(
        lambda b: b.execute_script("return window.__before === undefined && document.readyState === 'complete'")
    )


def press(browser: Any, text: str) -> None:
    """Press the button whose text is ``text``."""
    button = browser.find_element("xpath", f"//button[normalize-space()={json.dumps(text)}]")
    _reloading(browser, button)


def click_unit(browser: Any, unit: str) -> None:
    """Click a unit's counter on the map (or its button, for a unit not on the map yet)."""
    counters = browser.find_elements("css selector", f'#board g.unit[data-unit="{unit}"]')
    _reloading(
        browser, counters[0] if counters else browser.find_element("css selector", f'button[data-unit="{unit}"]')
    )


def click_place(browser: Any, desk: Desk, place: str) -> None:
    """Click the map at a place's centre (where its counters stand: the page looks through them)."""
    from selenium.webdriver.common.action_chains import ActionChains

    renderer = desk.renderer()
    assert renderer is not None
    cx, cy = renderer.regions[place].center
    svg = browser.find_element("css selector", "#board svg.map")
    dx, dy = browser.execute_script(
        "var svg = arguments[0], p = svg.createSVGPoint(); p.x = arguments[1]; p.y = arguments[2];"
        "var m = p.matrixTransform(svg.getScreenCTM()), b = svg.getBoundingClientRect();"
        "return [m.x - b.left - b.width / 2, m.y - b.top - b.height / 2];",
        svg, cx, cy,
    )  # fmt: skip
    _awaiting_reload(browser, ActionChains(browser).move_to_element_with_offset(svg, int(dx), int(dy)).click().perform)


def batch(browser: Any) -> list[str]:
    return [e.text for e in browser.find_elements("css selector", "#batch .step")]


def authored_actions(path: Path) -> list[tuple[str, list[dict[str, Any]]]]:
    """The author and actions of every action entry of the log, in order."""
    lines, _ = read_log(path)
    bodies = [envelope(line).raw for line in lines]
    return [(raw["author"], raw["body"]["actions"]) for raw in bodies if raw["type"] == "action"]


def signed_actions(path: Path) -> list[list[dict[str, Any]]]:
    return [actions for _, actions in authored_actions(path)]


EXPECTED_ALLIED = [
    {"action": "place", "unit": "11h", "zone": "A"},
    {"action": "place", "unit": "cih", "zone": "B"},
    {"action": "assault", "areas": ["H"]},
    {"action": "attack", "target": "H"},
    {"action": "lead", "unit": "9aus"},
    {"action": "support", "air": False, "rommel": False, "artillery": False},
]


def _clicked_game(browser: Any, table: Table) -> None:
    """Allied sets up and assaults Tobruk, Axis defends, Allied reveals its dice, Axis takes the losses."""
    allied, axis = Desk(table.path, table.keys["allied"]), Desk(table.path, table.keys["axis"])
    with served(allied) as site:
        browser.get(site.url)
        assert browser.execute_script("return window.__pwned === undefined")
        assert browser.find_element("id", "me").text.startswith(HOSTILE)  # the name is text, not markup
        shot(browser, "1-start")
        click_unit(browser, "11h")
        shot(browser, "2-destinations")
        assert {e.get_attribute("data-id") for e in browser.find_elements("css selector", ".region.target")} == {
            "A",
            "B",
            "C",
            "D",
        }  # the legal set-up zones light up
        click_place(browser, allied, "D")
        assert browser.find_elements("css selector", '#board svg.map g.unit[data-unit="11h"]')  # the preview
        click_unit(browser, "cih")
        click_place(browser, allied, "B")
        assert len(batch(browser)) == 2
        _reloading(browser, browser.find_elements("css selector", "#batch .take-back")[0])  # undo from step 1 on
        assert batch(browser) == [] and not browser.find_elements(
            "css selector", '#board svg.map g.unit[data-unit="11h"]'
        )
        click_unit(browser, "11h")
        click_place(browser, allied, "A")
        click_unit(browser, "cih")
        click_place(browser, allied, "B")
        press(browser, "Assault")
        click_place(browser, allied, "H")
        press(browser, "Attack")
        click_place(browser, allied, "H")
        press(browser, "Lead")
        click_unit(browser, "9aus")
        press(browser, "Support")
        press(browser, "Air Support: no")
        press(browser, "Artillery Support: no")
        shot(browser, "3-batch")
        assert len(batch(browser)) == 6 and not browser.find_elements("id", "choices")
        assert allied.steps and not signed_actions(table.path)  # nothing is written before signing
        press(browser, "Sign these 6 actions as one entry and append to game.jsonl")
        assert signed_actions(table.path) == [EXPECTED_ALLIED]
    with served(axis) as site:
        browser.get(site.url)
        assert "Combat" not in browser.find_element("id", "news").text
        click_unit(browser, "xx-mot")  # lead the defense
        press(browser, "Artillery Support: no")
        press(browser, "Sign this action and append to game.jsonl")
    with served(allied) as site:
        browser.get(site.url)
        press(browser, "Do it now (reveal dice, co-sign, commit, open)")  # the dice reveal, from the other seat
        assert "Combat in Zone H (Tobruk)" in browser.find_element("id", "news").text
    desks = {"allied": allied, "axis": axis}
    seat, batches = "allied" if "allied to act" in browser.find_element("id", "waits").text else "axis", 0
    while batches < 3:  # the combat's aftermath (the choice after the roll, losses, retreats) and the next impulse
        with served(desks[seat]) as site:
            browser.get(site.url)
            while _click_something(browser, desks[seat]):
                pass
            if batches == 0:
                shot(browser, "4-aftermath")
            assert "_" not in browser.find_element("id", "summary").text  # no raw step name (voluntary_retreat)
            press(browser, browser.find_element("id", "sign").text)
        batches += 1
        seat = "axis" if seat == "allied" else "allied"


def _click_something(browser: Any, desk: Desk) -> bool:
    """Make the first choice offered, on the map where it can be made there; False once the batch is complete."""
    if browser.find_elements("id", "owed"):
        press(browser, browser.find_element("id", "owed").text)
        return True
    buttons = browser.find_elements("css selector", "#choices button")
    if not buttons:
        return False
    on_map = [b for b in buttons if b.get_attribute("data-unit")]
    counters = [
        u
        for b in on_map
        for u in browser.find_elements("css selector", f'#board g.unit[data-unit="{b.get_attribute("data-unit")}"]')
    ]
    places = [b.get_attribute("data-location") for b in buttons if b.get_attribute("data-location")]
    if counters:
        _reloading(browser, counters[0])
    elif places:
        click_place(browser, desk, places[0])
    else:
        _reloading(browser, buttons[0])
    return True


DEFEND = {"action": "defend", "lead": "xx-mot", "artillery": False}


def _moment_with_losses(directory: Path, monkeypatch: pytest.MonkeyPatch) -> time.struct_time:
    """A moment at which this test's assault succeeds, so Axis must allocate a loss (found by dry runs that sign
    the same actions through the same desks, without a browser)."""
    real = time.gmtime
    for day in range(1, 60):
        scratch = directory / str(day)
        scratch.mkdir(parents=True)
        monkeypatch.setenv("PBEM_STATE_DIR", str(scratch / "state"))
        table = Table.start(scratch, "campaign", game="battleaxe", options={}, names={"allied": HOSTILE})
        joined = calendar.timegm(time.strptime(envelope(table.lines()[-1]).raw["ts"], "%Y-%m-%dT%H:%M:%SZ"))
        frozen = real(joined + day * 86400)
        monkeypatch.setattr(time, "gmtime", lambda *_, moment=frozen: moment)
        allied, axis = Desk(table.path, table.keys["allied"]), Desk(table.path, table.keys["axis"])
        allied.steps = [Choice("", (action,)) for action in EXPECTED_ALLIED]
        allied.sign(None)
        axis.steps = [Choice("", (DEFEND,))]
        axis.sign(None)
        allied.do_owed()
        monkeypatch.setattr(time, "gmtime", real)
        if any(leaf.action["action"] == "absorb" for leaf in axis.tree(axis.turn())):
            return frozen
    raise AssertionError("the assault fails at every moment tried")


def test_web_a_battleaxe_turn_for_each_side_by_clicking_signs_what_pbem_act_signs(
    browser: Any, tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Dice are bound to the entries that declare them, and entries carry their time: both runs sign at one
    # frozen moment, so the same choices meet the same dice; at that moment the assault succeeds, so Axis
    # allocates its losses (and retreats) by clicking.
    frozen = _moment_with_losses(tmp_path / "dry-runs", monkeypatch)
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / "web-state"))
    monkeypatch.setattr(time, "gmtime", lambda *_: frozen)
    (tmp_path / "web").mkdir()
    (tmp_path / "cli").mkdir()
    (tmp_path / "keys").mkdir()
    table = Table.start(tmp_path / "web", "campaign", game="battleaxe", options={}, names={"allied": HOSTILE})
    _clicked_game(browser, table)
    assert cli("verify", table.path).code == 0
    clicked = signed_actions(table.path)
    assert len(clicked) == 5 and clicked[0] == EXPECTED_ALLIED
    assert clicked[1] == [DEFEND]
    assert any(a["action"] == "absorb" for a in clicked[2])  # losses, allocated by clicking

    # The same choices through pbem act, on a copy of the game's start, signed by the same keys.
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / "cli-state"))
    again = Table.start(tmp_path / "cli", "campaign", game="battleaxe", options={}, names={"allied": HOSTILE})
    keys = {seat: save_keypair(pair, tmp_path / "keys", seat, None)[0] for seat, pair in again.keys.items()}
    for author, actions in authored_actions(table.path):
        other = "axis" if author == "allied" else "allied"
        cli("reveal", again.path, "--key", keys[other])  # any dice the other seat owes first (or nothing: U002)
        done = cli("act", again.path, "--key", keys[author], *(json.dumps(a) for a in actions))
        assert done.code == 0, done.err
    assert cli("verify", again.path).code == 0
    assert signed_actions(again.path) == clicked


def test_web_the_map_zooms_and_keeps_its_zoom_across_choices(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole-theatre map is small at the page's width: "+" enlarges it in a scrolling frame, the zoom survives the
    reload each choice makes, "Fit" shows the whole map again; the legal places still light up."""
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / "state"))
    table = Table.start(tmp_path, "campaign", game="battleaxe", options={})
    allied = Desk(table.path, table.keys["allied"])

    def zoom() -> float:
        """The map's width over its frame's (the frame loses a scroll bar's width once the map overflows it)."""
        return float(
            browser.execute_script(
                "var map = document.querySelector('#board svg.map');"
                "return map.getBoundingClientRect().width / map.parentNode.clientWidth;"
            )
        )

    with served(allied) as site:
        browser.get(site.url)
        browser.execute_script("sessionStorage.clear()")
        browser.get(site.url)
        assert zoom() == pytest.approx(1, rel=0.02)
        for _ in range(2):
            browser.find_element("xpath", "//button[@title='Larger map']").click()
        assert zoom() == pytest.approx(2, rel=0.02)
        assert browser.find_element("css selector", "#board .zoom span").text == "200%"
        click_unit(browser, "11h")  # a choice: the page reloads
        assert zoom() == pytest.approx(2, rel=0.02)
        assert browser.find_elements("css selector", ".region.target")  # the legal set-up zones still light up
        shot(browser, "zoomed")
        browser.find_element("xpath", "//button[@title='The whole map']").click()
        assert zoom() == pytest.approx(1, rel=0.02)
