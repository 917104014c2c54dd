"""The browser client's guards, over real HTTP: the token, POST-only changes, CSP, loopback only, hostile text."""

from __future__ import annotations

import base64
import html
import http.cookiejar
import shutil
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from pbem.errors import UsageError
from pbem.log.keys import save_keypair
from pbem.verify.pipeline import verify_file
from pbem.web.app import CSP
from pbem.web.desk import Desk
from pbem.web.serve import allowed_hosts, check_address
from tests.cli.conftest import write_keys
from tests.helpers import Table
from tests.web.conftest import Served, desk_of, served

SCRIPT = "<script>window.__pwned = 1</script>"


def _opener() -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def _status(
    opener: urllib.request.OpenerDirector, url: str | urllib.request.Request, data: dict[str, str] | None = None
) -> int:
    body = None if data is None else urllib.parse.urlencode(data).encode()
    try:
        with opener.open(url, body) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code


@pytest.fixture
def battleaxe(tmp_path: Path) -> Table:
    return Table.start(tmp_path, "campaign", game="battleaxe", options={}, names={"allied": SCRIPT, "axis": "Bob"})


def test_web_requests_without_the_token_are_refused(battleaxe: Table) -> None:
    with served(desk_of(battleaxe, "allied")) as site:
        stranger = _opener()
        assert _status(stranger, site.base + "/") == 403
        assert _status(stranger, site.base + "/static/web.js") == 403
        assert _status(stranger, site.base + "/?token=wrong") == 403
        assert _status(stranger, site.base + "/act", {"do": "pick", "csrf": "wrong"}) == 403
        player = _opener()
        assert _status(player, site.url) == 200  # the token moves into the cookie
        assert _status(player, site.base + "/") == 200
        assert _status(player, site.base + "/act", {"do": "owed"}) == 403  # the cookie alone is not enough: CSRF
        rebound = urllib.request.Request(site.url, headers={"Host": "attacker.example"})
        assert _status(player, rebound) == 400  # a DNS-rebinding page's Host


def test_web_a_get_changes_nothing_and_a_forged_post_writes_nothing(battleaxe: Table) -> None:
    before = battleaxe.path.read_bytes()
    desk = desk_of(battleaxe, "allied")
    desk.steps.clear()
    with served(desk) as site:
        player = _opener()
        assert _status(player, site.url) == 200
        for path in ("/act?do=sign&csrf=" + site.web.token, "/act?do=owed"):
            assert _status(player, site.base + path) == 405  # state changes are POST only
        assert (
            _status(
                player,
                site.base + "/act",
                {
                    "do": "pick",
                    "pick": '{"mode": "is", "field": "unit", "value": "no-such-unit"}',
                    "csrf": site.web.token,
                },
            )
            == 200
        )  # answered, not taken
        assert desk.picks == [] and desk.steps == []
    assert battleaxe.path.read_bytes() == before


def test_web_pages_carry_a_strict_csp_and_escape_hostile_names(battleaxe: Table) -> None:
    with served(desk_of(battleaxe, "allied")) as site:
        player = _opener()
        player.open(site.url).close()
        with player.open(site.base + "/") as response:
            assert response.headers["Content-Security-Policy"] == CSP
            assert response.headers["X-Frame-Options"] == "DENY"
            html = response.read().decode()
    assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP
    assert SCRIPT not in html and "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in html
    assert "<script>" not in html  # the only script is the static file
    seed = battleaxe.keys["allied"].seed
    assert seed.hex() not in html.lower() and base64.b64encode(seed).decode() not in html  # the key stays here


def test_web_listens_on_loopback_unless_told_otherwise() -> None:
    assert check_address("127.0.0.1", unsafe=False) == "127.0.0.1"
    assert check_address("::1", unsafe=False) == "::1"
    with pytest.raises(UsageError) as refused:
        check_address("0.0.0.0", unsafe=False)
    assert refused.value.code.id == "U003"
    assert check_address("192.168.1.5", unsafe=True) == "192.168.1.5"
    with pytest.raises(UsageError):
        check_address("example.org", unsafe=True)
    assert allowed_hosts("127.0.0.1") == ("127.0.0.1", "localhost")  # not a rebinding page's host name
    assert allowed_hosts("192.168.1.5") == ("192.168.1.5",) and allowed_hosts("0.0.0.0") == ("*",)


def _page(table: Table, seat: str) -> str:
    with served(desk_of(table, seat)) as site:
        player = _opener()
        with player.open(site.url) as response:
            return response.read().decode().replace(site.web.token, "TOKEN")


def test_web_the_other_seats_hidden_values_never_reach_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pages = []
    for number, strengths in enumerate(((1, 2, 3), (3, 1, 2))):
        (tmp_path / str(number)).mkdir()
        monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / str(number) / "state"))  # two copies of one game
        table = Table.start(tmp_path / str(number), "meeting", game="skirmish", options={})
        table.act("red", dict(zip(("action", "s1", "s2", "s3"), ("deploy", *strengths), strict=True)))
        pages.append(_page(table, "blue"))
        own = _page(table, "red")
        assert '<dl id="hidden">' in own and f"<dt>strength · Red 1</dt><dd>{strengths[0]}</dd>" in own
    assert '<dl id="hidden">' not in pages[0]
    assert pages[0] == pages[1]  # blue's page does not depend on red's secret strengths at all


def test_web_play_refuses_a_bad_listen_address_or_key_before_serving(tmp_path: Path, cli: Any) -> None:
    table = Table.start(tmp_path, "campaign", game="battleaxe", options={})
    allied = save_keypair(table.keys["allied"], tmp_path, "allied", None)[0]
    stranger = write_keys(tmp_path / "stranger", "stranger").key
    cli("play", table.path, "--key", allied, "--web", "--unsafe-listen", "example.org").assert_error("U003", 2)
    cli("play", table.path, "--key", stranger, "--web", "--no-browser").assert_error("U001")


def _post(site: Served, opener: urllib.request.OpenerDirector, **fields: str) -> str:
    """POST a form with the session's token, as the page's buttons do; the page it leads back to."""
    body = urllib.parse.urlencode({"csrf": site.web.token, **fields}).encode()
    with opener.open(site.base + "/act", body) as response:
        return response.read().decode()


def _signed_in(site: Served) -> urllib.request.OpenerDirector:
    opener = _opener()
    opener.open(site.url).close()
    return opener


def test_web_take_back_export_and_import_from_the_page(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel")
    for seat in table.keys:
        table.act(seat, {"action": "choose_reserve", "value": 2})
    blues = tmp_path / "blue-copy.jsonl"
    shutil.copy(table.path, blues)  # blue's own copy, which has not seen red's next entries yet
    table.act("red", {"action": "pass"})
    with served(desk_of(table, "red")) as site:
        red = _signed_in(site)
        page = _post(site, red, do="undo-request")
        assert "take-back request: signed 1 entry" in page and 'id="undo-request"' not in page
        packet = _post(site, red, do="export")
        text = html.unescape(packet.split('<textarea id="packet" readonly rows="8">', 1)[1].split("</textarea>")[0])
    with served(Desk(blues, table.keys["blue"], clock=table.clock, entropy=table.entropy)) as site:
        blue = _signed_in(site)
        page = _post(site, blue, do="import", text=text)
        assert "imported 3 entries" in page and 'id="undo-accept"' in page
        before = blues.read_bytes()
        page = _post(site, blue, do="undo-accept")
        assert "take-back agreed: signed 1 entry" in page
    assert verify_file(blues)[0].valid
    # A backup restored over blue's copy lacks the entry blue signed there: the page says so and offers import.
    blues.write_bytes(before)
    with served(Desk(blues, table.keys["blue"], clock=table.clock, entropy=table.entropy)) as site:
        with pytest.raises(urllib.error.HTTPError) as stale:
            _opener().open(site.url)
        trouble = stale.value.read().decode()
        assert stale.value.code == 409 and "[F005]" in trouble and 'id="import-form"' in trouble


def test_web_writes_the_eml_next_to_the_log(battleaxe: Table) -> None:
    battleaxe.act("allied", {"action": "place", "unit": "11h", "zone": "A"})
    with served(desk_of(battleaxe, "allied")) as site:
        page = _post(site, _signed_in(site), do="mail", to="bob@example.org")
    written = list(battleaxe.path.parent.glob("*.eml"))
    assert len(written) == 1 and f"saved to {written[0]}" in page
    assert "bob@example.org" in written[0].read_text()


def test_web_claims_a_timeout_from_the_page(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel", deadline=48)
    table.act("red", {"action": "choose_reserve", "value": 2})
    table.clock.tick += 49 * 3600  # blue has not answered for 49 hours
    with served(desk_of(table, "red")) as site:
        red = _signed_in(site)
        assert 'id="claim-timeout"' in _post(site, red, do="cancel")
        page = _post(site, red, do="claim-timeout", against="blue")
    assert "timeout claim: signed 1 entry" in page
    report = table.verify()
    assert report.valid and len(report.claims) == 1


def test_web_play_refuses_a_missing_log_before_serving(tmp_path: Path, cli: Any) -> None:
    key = write_keys(tmp_path, "alice").key
    cli("play", tmp_path / "missing.jsonl", "--key", key, "--web", "--no-browser").assert_error("F001", 3)


def test_web_a_game_without_a_map_is_played_with_buttons(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel")
    with served(desk_of(table, "red")) as site:
        red = _signed_in(site)
        page = _post(site, red, do="cancel")
        assert "This game has no map." in page and "Click a unit" not in page
        page = _post(site, red, do="pick", pick='{"field": "action", "mode": "is", "value": "choose_reserve"}')
        assert "So far: Choose reserve" in page
        page = _post(site, red, do="back")
        assert "So far" not in page
        _post(site, red, do="pick", pick='{"field": "action", "mode": "is", "value": "choose_reserve"}')
        page = _post(site, red, do="pick", pick='{"field": "value", "mode": "is", "value": 2}')
        assert "added to your batch: Choose reserve: reserve 2" in page  # the field as the game titles it
        page = _post(site, red, do="sign", note="<b>good luck</b>")
    assert "your batch: signed 1 entry" in page
    assert table.verify().valid and table.lines()[-1].count(b"good luck") == 1
    blue = _page(table, "blue")
    assert "<b>good luck</b>" not in blue and "“&lt;b&gt;good luck&lt;/b&gt;”" in blue  # the note is text


def test_web_the_header_tells_the_period_and_stage_in_the_games_words(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "campaign", game="battleaxe", options={})
    summary = '<span id="summary">{}</span>'
    assert summary.format("Setup") in _page(table, "allied")
    table.act(
        "allied", {"action": "place", "unit": "11h", "zone": "A"}, {"action": "place", "unit": "cih", "zone": "B"}
    )
    table.act("allied", {"action": "assault", "areas": ["H"]})
    page = _page(table, "allied")
    assert summary.format("Turn 1: June 15 · Impulse 1") in page  # the presentation's titles, not "declare"


@pytest.mark.rule("2.1")
def test_web_a_players_own_blocks_are_listed_in_the_games_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rommel's hidden values (each block's identity and CV) read as the game names them (Presentation.secret):
    "Axis block 01: Artiglieria (XXI Corps)", "CV 4", never a slot or block id."""
    monkeypatch.setenv("PBEM_GAMES", "pbem.games.rommel.ruleset:RULESET")
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / "state"))
    table = Table.start(tmp_path, "demo-1940", game="rommel", options={})
    while (legal := table.legal("axis")) and legal[0]["action"] == "identify":
        table.act("axis", legal[0])
    page = _page(table, "axis")
    rows = page.split('<dl id="hidden">', 1)[1].split("</dl>", 1)[0]
    assert "<dt>Axis block 01</dt><dd>CV " in rows and "<dd>Artiglieria (XXI Corps)</dd>" in rows
    assert not any(raw in rows for raw in ("unit ·", "cv ·", "it-art", "it-brescia"))
