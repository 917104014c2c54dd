"""Take-backs after signing: a request and the others' agreement, both in the log (never across dice or hidden)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.errors import UsageError
from tests.cli.conftest import write_keys
from tests.helpers import Cli, Table, codes


def in_play(tmp_path: Path, scenario: str = "duel") -> Table:
    table = Table.start(tmp_path, scenario)
    for seat in table.keys:
        table.act(seat, {"action": "choose_reserve", "value": 2})
    return table


def test_an_agreed_take_back_restores_the_game_before_the_action(tmp_path: Path) -> None:
    table = in_play(tmp_path)
    before = table.legal("red")
    table.act("red", {"action": "pass"})
    assert table.legal("red") == []
    with table.session("red") as session:
        session.request_undo()
    with table.session("blue") as session:
        session.accept_undo()
    assert table.legal("red") == before  # red's turn again, as before the pass
    report = table.verify()
    assert report.valid
    table.act("red", {"action": "pass"})
    assert table.verify().valid
    kinds = [e.event.kind for e in table.replay().game.events]  # type: ignore[union-attr]
    assert kinds.count("undo_requested") == kinds.count("action_taken_back") == 1


def test_every_other_player_must_agree(tmp_path: Path) -> None:
    table = in_play(tmp_path, "standard")
    table.act("red", {"action": "pass"})
    with table.session("red") as session:
        session.request_undo()
    with table.session("green") as session:
        session.accept_undo()
    assert table.legal("red") == []  # blue has not agreed yet
    with table.session("blue") as session:
        session.accept_undo()
    assert table.legal("red") and table.verify().valid


@pytest.mark.parametrize("what", ["dice", "secret", "played-on", "twice"])
def test_take_backs_the_log_does_not_allow(tmp_path: Path, what: str) -> None:
    table = in_play(tmp_path)
    if what == "dice":
        table.act("red", {"action": "attack", "target": "blue"})
        table.act("blue", {"action": "defend", "stance": "dodge"})  # declares the dice
        seat = "blue"
    elif what == "secret":
        (tmp_path / "fresh").mkdir()
        table = Table.start(tmp_path / "fresh", "duel", rounds=3)  # another game (another genesis)
        table.act("red", {"action": "choose_reserve", "value": 3})  # a sealed secret choice
        seat = "red"
    else:
        table.act("red", {"action": "pass"})
        seat = "red"
        if what == "played-on":
            table.act("blue", {"action": "pass"})  # blue plays on instead of agreeing
        else:
            with table.session("red") as session:
                session.request_undo()
    with table.session(seat) as session, pytest.raises(UsageError) as refused:
        session.request_undo()
    assert refused.value.code.id == "U002"


def test_forged_take_back_entries_are_c013(tmp_path: Path) -> None:
    table = in_play(tmp_path)
    table.act("red", {"action": "pass"})
    red_pass = table.lines()[-1]
    from pbem.log.entry import envelope

    target = envelope(red_pass).id
    assert codes(table.verify([*table.lines(), table.forge("blue", "undo-request", {"for": target})])) == ["C013"]
    with table.session("red") as session:
        request = session.request_undo()
    assert codes(table.verify([*table.lines(), table.forge("red", "undo-accept", {"for": request.id})])) == ["C013"]
    table.act("blue", {"action": "pass"})  # the request lapses
    assert codes(table.verify([*table.lines(), table.forge("blue", "undo-accept", {"for": request.id})])) == ["C013"]


def test_cli_undo_and_accept(cli: Cli, tmp_path: Path) -> None:
    table = in_play(tmp_path)
    red, blue = write_keys(tmp_path / "r", "alice", "red"), write_keys(tmp_path / "b", "bob", "blue")
    assert cli("act", table.path, '{"action": "pass"}', "--key", red.key).code == 0
    cli("undo", table.path, "--key", blue.key).assert_error("U002")  # blue has nothing to take back
    assert cli("undo", table.path, "--key", red.key).code == 0
    assert cli("undo", table.path, "--key", blue.key, "--accept").code == 0
    assert '"action": "pass"' in cli("legal", table.path, "--key", red.key).out
