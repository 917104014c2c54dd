"""§5.4 zones of control shown on request: the presentation's zones for a viewer, the map's hatched layer, and the
browser desk's "Zones of control" switch (over real HTTP, and in headless Chromium when it is installed; set
PBEM_SCREENSHOTS to a directory to keep the screenshots)."""

from __future__ import annotations

import http.cookiejar
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.games.gazala.state import sit_of
from pbem.report.svg import MapRenderer
from pbem.rules.contract import OBSERVER
from tests.chromium import CHROMIUM, DRIVER, chromium, shot
from tests.games.gazala.gazala_play import PACK, RULESET, start, update
from tests.helpers import Table
from tests.web.conftest import desk_of, served


@pytest.fixture
def gazala(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.setenv("PBEM_GAMES", "pbem.games.gazala.ruleset:RULESET")
    return Table.start(tmp_path, "opening-phase", game="gazala", options={"schwerpunkt": "21pz"})


@pytest.mark.rule("5.4")
def test_the_zones_a_view_shows_are_the_rules_zones_of_control() -> None:
    state = update(start("opening-phase"), "ff-1", disrupted=True)  # a Disrupted unit projects none
    zones = RULESET.presentation(PACK).zones(RULESET.view(state, OBSERVER))
    rules = sit_of(state).zones
    assert {side: set(hexes) for side, hexes in zones.items()} == {side: set(h) for side, h in rules.items()}
    hex_ff1 = state.units["ff-1"].hex
    assert hex_ff1 is not None and update(state, "ff-1", disrupted=False) != state
    undisrupted = RULESET.presentation(PACK).zones(RULESET.view(update(state, "ff-1", disrupted=False), OBSERVER))
    assert set(undisrupted["cw"]) >= set(zones["cw"])


@pytest.mark.rule("5.4")
def test_the_map_hatches_each_sides_zone_only_when_asked() -> None:
    view = RULESET.view(start("opening-phase"), OBSERVER)
    look = RULESET.presentation(PACK)
    renderer = MapRenderer(look)
    assert 'class="zones"' not in renderer.render(view)
    drawn = renderer.render(view, zones=True)
    assert drawn.count('class="zone"') == 2 and 'id="zoc-axis"' in drawn and 'id="zoc-cw"' in drawn
    for side, hexes in look.zones(view).items():
        assert f'data-side="{side}"' in drawn
        assert all(f'data-id="{h}" points=' in drawn for h in hexes)
    assert drawn == renderer.render(view, zones=True)  # byte for byte


def _page(table: Table, seat: str) -> str:
    """The desk's page (the token's redirect sets the cookie the page needs)."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with served(desk_of(table, seat)) as site, opener.open(site.url) as response:
        return str(response.read().decode())


@pytest.mark.rule("5.4")
def test_the_desk_offers_zones_of_control_for_gazala_not_for_a_game_without_them(gazala: Table, tmp_path: Path) -> None:
    page = _page(gazala, "axis")
    assert 'id="show-zones"' in page and '<g class="zones">' in page
    (tmp_path / "battleaxe").mkdir()
    other = Table.start(tmp_path / "battleaxe", "campaign", game="battleaxe", options={})
    plain = _page(other, "allied")
    assert 'id="show-zones"' not in plain and '<g class="zones">' not in plain


@pytest.fixture
def browser() -> Iterator[Any]:
    if CHROMIUM is None or DRIVER is None:
        pytest.skip("Chromium is not installed: run `make browser` (Debian's chromium and chromium-driver)")
    with chromium(1500, 1000) as driver:
        yield driver


@pytest.mark.rule("5.4")
def test_in_chromium_the_switch_shows_and_hides_the_zones_and_is_remembered(gazala: Table, browser: Any) -> None:
    def display() -> str:
        return str(browser.execute_script("return getComputedStyle(document.querySelector('#board .zones')).display"))

    with served(desk_of(gazala, "axis")) as site:
        browser.get(site.url)
        assert display() == "none"
        shot(browser, "gazala-zones-off")
        browser.find_element("id", "show-zones").click()
        assert display() != "none"
        painted = browser.execute_script(
            "var r = document.querySelector('#board .zone polygon').getBoundingClientRect(); return r.width * r.height"
        )
        assert painted > 0
        shot(browser, "gazala-zones-on")
        browser.refresh()  # every choice reloads the page: the switch stays on
        assert browser.find_element("id", "show-zones").is_selected() and display() != "none"
        browser.find_element("id", "show-zones").click()
        assert display() == "none"
