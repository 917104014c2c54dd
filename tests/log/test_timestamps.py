"""Timestamps: real UTC instants in the canonical form, never before what they answer, never absurdly ahead."""

from __future__ import annotations

import itertools
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.log import timestamps
from pbem.log.entry import envelope
from tests.helpers import Cli, Table, codes


def _id(line: bytes) -> str:
    return envelope(line).id


def deadline_game(tmp_path: Path, hours: int = 48) -> Table:
    table = Table.start(tmp_path, "duel", deadline=hours)
    table.act("red", {"action": "choose_reserve", "value": 2})
    return table


@pytest.mark.parametrize(
    "ts",
    ["2026-13-45T00:00:00Z", "2026-02-30T12:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:00:60Z",
     "2026-1-01T00:00:00Z", "2026-01-01 00:00:00Z", "2026-01-01T00:00:00+00:00", "2026-01-01T00:00:00.5Z"],
)  # fmt: skip
def test_a_timestamp_that_is_not_a_real_canonical_utc_instant_is_c008(tmp_path: Path, ts: str) -> None:
    table = Table.start(tmp_path, "duel")
    forged = table.forge("red", "action", {"actions": [{"action": "pass"}], "rolls": None, "sealed": [], "echo": []},
                         ts=ts)  # fmt: skip
    report = table.verify([*table.lines(), forged])
    assert codes(report) == ["C008"]
    assert report.first_error is not None and report.first_error.line == 4


def _trio_after_red(tmp_path: Path) -> tuple[Table, str]:
    """Three seats; red has acted. Green's own latest entry (its join) is older than red's action."""
    table = Table.start(tmp_path, "standard", deadline=48)
    green_join = next(json.loads(x)["ts"] for x in table.lines() if json.loads(x)["author"] == "green")
    table.act("red", {"action": "choose_reserve", "value": 1})
    assert green_join < json.loads(table.lines()[-1])["ts"]
    return table, green_join


def test_an_entry_dated_before_an_entry_it_depends_on_is_c008(tmp_path: Path) -> None:
    """Green answers red's action (it depends on it) but dates its entry at its own join: C008, although it is
    not earlier than green's own previous entry."""
    table, green_join = _trio_after_red(tmp_path)
    forged = table.forge("green", "action", {"actions": [{"action": "choose_reserve", "value": 2}], "rolls": None,
                                             "sealed": [], "echo": []}, ts=green_join)  # fmt: skip
    assert codes(table.verify([*table.lines(), forged])) == ["C008"]


@pytest.mark.parametrize("ts", ["2100-01-01T00:00:00Z", "9999-12-31T23:59:59Z"])
def test_an_entry_dated_absurdly_far_ahead_of_what_it_answers_is_c008(tmp_path: Path, ts: str) -> None:
    table = deadline_game(tmp_path)
    forged = table.forge("blue", "action", {"actions": [{"action": "choose_reserve", "value": 1}], "rolls": None,
                                            "sealed": [], "echo": []}, ts=ts)  # fmt: skip
    assert codes(table.verify([*table.lines(), forged])) == ["C008"]


def test_the_bound_is_a_month_or_the_deadline_if_longer() -> None:
    assert timestamps.max_ahead(None) == timestamps.max_ahead(48) == 744
    assert timestamps.max_ahead(8760) == 8760
    timestamps.check_order("2026-02-01T00:00:00Z", ["2026-01-01T00:00:00Z"], None)  # 744 hours exactly
    with pytest.raises(PbemError) as late:
        timestamps.check_order("2026-02-01T00:00:01Z", ["2026-01-01T00:00:00Z"], None)
    assert late.value.code.id == "C008"


def test_a_client_signs_within_the_bounds_after_a_long_pause_and_behind_a_fast_clock(tmp_path: Path) -> None:
    table = deadline_game(tmp_path)
    table.clock.tick += 2000 * 3600  # nobody played for 83 days: the client clamps, the game goes on
    table.act("blue", {"action": "choose_reserve", "value": 1})
    assert table.verify().valid
    assert timestamps.for_signing("2026-01-01T00:00:00Z", ["2026-01-02T00:00:00Z"], None) == "2026-01-02T00:00:00Z"


def test_the_far_end_of_the_calendar_never_overflows() -> None:
    assert timestamps.add_hours("9999-12-31T23:59:59Z", 48) == "9999-12-31T23:59:59Z"
    assert timestamps.add_hours("9999-12-31T00:00:00Z", 8760) == "9999-12-31T23:59:59Z"


def test_status_of_a_game_dated_9999_does_not_crash(tmp_path: Path, cli: Cli) -> None:
    table = Table.start(tmp_path, "duel", deadline=48, join=False)
    line = table.lines()[0]
    data = json.loads(line)
    data.pop("sig")
    data["ts"] = "9999-12-31T23:59:59Z"
    from pbem.log.entry import seal

    table.path.write_bytes(seal(data, table.keys["red"].private.sign).line + b"\n")
    run = cli("status", table.path, "--json")
    assert run.code == 0, run.err
    assert json.loads(run.out)["deadline"]["claim_from"] == "9999-12-31T23:59:59Z"


# --- claims and a forged clock --------------------------------------------------------------------


def _claim(table: Table, seat: str, against: str, **fields: str) -> bytes:
    return table.forge(seat, "claim-timeout", {"against": against, "since": _id(table.lines()[-1])}, **fields)


def test_a_claim_dated_before_the_entry_it_names_is_c008_not_a_negative_wait(tmp_path: Path) -> None:
    table, green_join = _trio_after_red(tmp_path)
    claim = _claim(table, "green", "blue", ts=green_join)
    assert codes(table.verify([*table.lines(), claim])) == ["C008"]


def test_a_claim_relying_on_a_forged_clock_is_refused(tmp_path: Path) -> None:
    """Red dates its claim in 2100 so that the deadline "has passed" at once: C008, not a recorded claim."""
    table = deadline_game(tmp_path)
    claim = _claim(table, "red", "blue", ts="2100-01-01T00:00:00Z")
    report = table.verify([*table.lines(), claim])
    assert codes(report) == ["C008"] and report.claims == []


def test_a_seat_that_forges_its_clock_cannot_escape_a_claim(tmp_path: Path) -> None:
    """Blue dates an entry in 2100 to make every claim against it look premature: that entry is refused (C008),
    and red's claim against the copy without it holds once the deadline has really passed."""
    table = Table.start(tmp_path, "duel", deadline=48)
    table.act("red", {"action": "choose_reserve", "value": 2})
    table.act("blue", {"action": "choose_reserve", "value": 1})
    table.act("red", {"action": "attack", "target": "blue"})
    forged = table.forge("blue", "action", {"actions": [{"action": "defend", "stance": "block"}], "rolls": None,
                                            "sealed": [], "echo": []}, ts="2100-01-01T00:00:00Z")  # fmt: skip
    assert codes(table.verify([*table.lines(), forged])) == ["C008"]
    table.clock.tick += 49 * 3600
    with table.session("red") as session:
        session.claim_timeout("blue")
    report = table.verify()
    assert report.valid and len(report.claims) == 1


def _strptime_verdict(text: str) -> object:
    try:
        return datetime.strptime(text, timestamps.FORMAT).replace(tzinfo=UTC)
    except ValueError:
        return "C008"


def test_the_fast_parse_accepts_and_refuses_exactly_what_strptime_does() -> None:
    fields = (["0000", "0001", "0999", "2024", "2026", "2100", "9999"], ["00", "01", "02", "09", "12", "13"],
              ["00", "01", "28", "29", "30", "31", "32"], ["00", "09", "23", "24", "99"], ["00", "59", "60"],
              ["00", "59", "60", "61"])  # fmt: skip
    for y, mo, d, h, mi, s in itertools.product(*fields):
        text = f"{y}-{mo}-{d}T{h}:{mi}:{s}Z"
        try:
            got: object = timestamps.parse(text)
        except PbemError as exc:
            got = exc.code.id
        assert got == _strptime_verdict(text), text


def test_the_same_month_shortcut_of_check_order_agrees_with_the_formatted_bound() -> None:
    pairs = [("2026-01-01T00:00:00Z", "2026-01-31T23:59:59Z"), ("2026-02-01T00:00:00Z", "2026-02-28T00:00:00Z"),
             ("0005-01-01T00:00:00Z", "0005-01-31T00:00:00Z")]  # fmt: skip
    for latest, ts in pairs:
        timestamps.check_order(ts, [latest], None)
        assert not ts > timestamps.add_hours(latest, timestamps.MAX_AHEAD_HOURS) or latest.startswith("0")


def test_parse_agrees_with_building_the_instant_field_by_field() -> None:
    """The fast parse of a canonical timestamp gives exactly the instant its fields name, and refuses the same."""
    for year, month, day, hour, minute, second in itertools.product(
        (0, 1, 1900, 2000, 2024, 2026, 9999), (0, 1, 2, 12, 13), (0, 1, 28, 29, 30, 31, 32), (0, 23, 24), (0, 59, 60),
        (0, 59, 60),
    ):  # fmt: skip
        text = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"
        try:
            expected: datetime | None = datetime(year, month, day, hour, minute, second, tzinfo=UTC)
        except ValueError:
            expected = None
        if expected is None:
            with pytest.raises(PbemError) as refused:
                timestamps.parse(text)
            assert refused.value.code.id == "C008"
        else:
            assert timestamps.parse(text) == expected and timestamps.parse(text).tzinfo is UTC
