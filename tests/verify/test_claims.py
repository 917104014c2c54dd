"""Response deadlines and timeout claims: a signed claim the verifier checks against the log (research §9 D6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.report.chronicle import chronicle
from pbem.report.documents import after_action_report
from tests.helpers import Cli, Table, codes

DAY = 24 * 3600


def late(table: Table, hours: int) -> None:
    table.clock.tick += hours * 3600


def deadline_game(tmp_path: Path) -> Table:
    table = Table.start(tmp_path, "duel", deadline=48)
    table.act("red", {"action": "choose_reserve", "value": 2})
    return table


def test_a_claim_after_the_deadline_is_recorded_and_the_game_goes_on(tmp_path: Path) -> None:
    table = deadline_game(tmp_path)
    late(table, 49)
    with table.session("red") as session:
        claim = session.claim_timeout("blue")
    assert claim.raw["type"] == "claim-timeout"
    report = table.verify()
    claim_text = "red claims a timeout against blue: waiting for blue to act for 49 hours"
    assert report.valid and report.claims == [f"line 5: {claim_text}"]
    table.act("blue", {"action": "choose_reserve", "value": 1})  # the late seat may still answer
    assert table.verify().valid


@pytest.mark.case("D6")
def test_a_stalled_dice_reveal_can_be_claimed(tmp_path: Path) -> None:
    table = deadline_game(tmp_path)
    table.act("blue", {"action": "choose_reserve", "value": 1})
    table.act("red", {"action": "attack", "target": "blue"})
    table.act("blue", {"action": "defend", "stance": "block"})  # declares the dice; red's seed is now owed
    late(table, 72)
    with table.session("blue") as session:
        session.claim_timeout("red")
    report = table.verify()
    assert report.valid and "red's dice" in report.claims[0]


@pytest.mark.parametrize(
    ("setup", "against", "why"),
    [
        ("no-deadline", "blue", "no response deadline"),
        ("too-early", "blue", "only 47 of the 48 hours"),
        ("owes-nothing", "red", "owes nothing"),
    ],
)
def test_claims_the_log_does_not_bear_out_are_refused(tmp_path: Path, setup: str, against: str, why: str) -> None:
    if setup == "no-deadline":
        table = Table.start(tmp_path, "duel")
        table.act("red", {"action": "choose_reserve", "value": 2})
        late(table, 1000)
    else:
        table = deadline_game(tmp_path)
        late(table, 47 if setup == "too-early" else 100)
    with table.session("red") as session, pytest.raises(PbemError) as refused:
        session.claim_timeout(against)
    assert refused.value.code.id == "C012" and why in refused.value.message


def test_a_claim_must_name_the_last_entry(tmp_path: Path) -> None:
    table = deadline_game(tmp_path)
    first = table.lines()[1]
    late(table, 100)
    forged = table.forge("red", "claim-timeout", {"against": "blue", "since": _id(first)})
    assert codes(table.verify([*table.lines(), forged])) == ["C012"]


def _id(line: bytes) -> str:
    from pbem.log.entry import envelope

    return envelope(line).id


def test_a_seat_that_never_joins_can_be_claimed_against(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel", deadline=48, join=False)
    late(table, 50)
    with table.session("red") as session:
        session.claim_timeout("blue")
    assert "waiting for blue to join" in table.verify().claims[0]


def test_cli_deadline_status_claim_and_report(cli: Cli, tmp_path: Path) -> None:
    """A game signed in January (the test clock) is long overdue by now: the CLI claim goes through."""
    from tests.cli.conftest import write_keys

    table = deadline_game(tmp_path)
    alice = write_keys(tmp_path / "alice", "alice", "red")  # red's test key
    status = json.loads(cli("status", table.path, "--json").out)
    assert status["deadline"]["hours"] == 48 and status["deadline"]["claim_from"] == "2026-01-03T00:00:03Z"
    cli("claim-timeout", table.path, "--key", alice.key, "--against", "red").assert_error("C012")
    run = cli("claim-timeout", table.path, "--key", alice.key, "--against", "blue")
    assert run.code == 0, run.err
    assert json.loads(cli("status", table.path, "--json").out)["claims"][0].startswith("line 5: red claims")
    assert "timeout claim, line 5" in cli("status", table.path).out
    html = after_action_report(chronicle(table.lines()), None, "html").decode()
    assert "Timeout claims" in html and "red claims a timeout against blue" in html
