"""Playing through the CLI: the README walkthrough end to end, and refused actions."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from pathlib import Path

import pytest

from tests.cli.conftest import Cli, Player, run_script, write_keys

DICE_WAIT = re.compile(r"waiting for (\w+)'s dice")


def _status(cli: Cli, log: Path) -> dict:
    run = cli("status", log, "--json")
    assert run.code == 0, run.err
    return json.loads(run.out)


def _first_move_each_legal_action_is_accepted(
    cli: Cli, log: Path, key: Path, actions: list[dict], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Every object ``legal --json`` listed, passed to ``act`` as it is, is signed (each on its own copy)."""
    for number, action in enumerate(actions):
        trial = tmp_path / f"trial{number}" / "duel.jsonl"
        trial.parent.mkdir()
        shutil.copyfile(log, trial)
        # each copy is another "device": its own record of signed heads, or the second would be refused
        monkeypatch.setenv("PBEM_STATE_DIR", str(trial.parent / "state"))
        acted = cli("act", trial, "--key", key, json.dumps(action), "--json")
        assert acted.code == 0, (action, acted.err)
        assert [w["type"] for w in json.loads(acted.out)["written"]][-1] in ("action", "checkpoint")
        assert cli("verify", trial).code == 0


def test_readme_walkthrough_plays_a_duel_to_a_verified_end(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = {"alice": tmp_path / "alice", "bob": tmp_path / "bob"}
    for name, directory in home.items():
        directory.mkdir()
        made = cli("key", "new", name, "--dir", directory)
        assert made.code == 0, made.err
    keys = {"red": home["alice"] / "alice.key", "blue": home["bob"] / "bob.key"}

    assert cli("games").code == 0
    log = home["alice"] / "duel.jsonl"
    created = cli("new", "triad", "--scenario", "duel", "--seat", f"red={home['alice'] / 'alice.pub'}",
                  "--seat", f"blue={home['bob'] / 'bob.pub'}", "--key", keys["red"], "-o", log,
                  "--title", "Friendly duel")  # fmt: skip
    assert created.code == 0, created.err
    assert _status(cli, log)["awaiting"] == ["waiting for blue to join"]
    joined = cli("join", log, "--key", keys["blue"], "--json")
    assert joined.code == 0, joined.err
    assert [w["type"] for w in json.loads(joined.out)["written"]] == ["join"]
    status = _status(cli, log)
    assert status["title"] == "Friendly duel"
    assert status["valid"] is True
    assert sorted(status["awaiting"]) == ["waiting for blue to act", "waiting for red to act"]

    # first move: every listed action is accepted as it is (tried on copies), then red plays one for real
    legal = cli("legal", log, "--key", keys["red"], "--json")
    assert legal.code == 0, legal.err
    first = json.loads(legal.out)
    assert first == [{"action": "choose_reserve", "value": v} for v in (1, 2, 3)]
    home_state = os.environ["PBEM_STATE_DIR"]  # this machine's record of what it signed
    _first_move_each_legal_action_is_accepted(cli, log, keys["red"], first, monkeypatch, tmp_path)
    monkeypatch.setenv("PBEM_STATE_DIR", home_state)

    rng = random.Random(1)  # red's first turn is then an attack (dice for sure); later choices vary with the dice
    dice_waits: list[tuple[str, str]] = []  # (who acted, whose dice the game then waited for)
    moves = reveals = nothing_owed = 0
    for _ in range(400):
        progressed = False
        for seat, key in keys.items():
            listed = cli("legal", log, "--key", key, "--json")
            assert listed.code == 0, listed.err
            actions = json.loads(listed.out)
            if not actions:
                continue
            action = rng.choice(actions)
            acted = cli("act", log, "--key", key, json.dumps(action))
            assert acted.code == 0, (action, acted.err)
            moves += 1
            progressed = True
            for text in _status(cli, log)["awaiting"]:
                if match := DICE_WAIT.fullmatch(text):
                    dice_waits.append((seat, match.group(1)))
        if progressed:
            continue
        for key in keys.values():  # nobody can choose: somebody owes protocol work (or the game is done)
            revealed = cli("reveal", log, "--key", key)
            if revealed.code == 0:
                assert "signed " in revealed.out
                reveals += 1
                progressed = True
            else:
                revealed.assert_error("U002", exit_code=1)
                nothing_owed += 1
        if not progressed:
            break
    else:
        pytest.fail("the game did not end")

    assert moves >= 4 and reveals > 0 and nothing_owed > 0
    # dice are settled by the opponent's seed: after a roll the game waits for the *other* seat's dice
    assert dice_waits, "no action in this play-out left dice pending"
    assert all(waiting != actor for actor, waiting in dice_waits)

    lines = log.read_bytes().count(b"\n")
    checked = cli("verify", log, "--json")
    assert checked.code == 0, checked.out
    report = json.loads(checked.out)
    assert report["valid"] is True
    assert report["result"] is not None
    assert report["result"]["winners"]
    assert report["audit"] == "complete"
    assert report["entries"] == lines
    assert report["error"] is None
    assert report["conflicted_copies"] == []
    final = _status(cli, log)
    assert final["result"] == report["result"]
    assert final["awaiting"] == []
    assert "result: " in cli("verify", log).out

    # the game is over: nothing to choose, and acting is refused
    assert json.loads(cli("legal", log, "--key", keys["red"], "--json").out) == []
    before = log.read_bytes()
    cli("act", log, "--key", keys["red"], '{"action": "pass"}').assert_error("C011", exit_code=1)
    assert log.read_bytes() == before


def test_status_waits_for_the_attackers_dice_after_a_defence(
    cli: Cli, duel_log: Path, alice: Player, bob: Player
) -> None:
    assert cli("act", duel_log, "--key", alice.key, '{"action": "choose_reserve", "value": 2}').code == 0
    assert cli("act", duel_log, "--key", bob.key, '{"action": "choose_reserve", "value": 3}').code == 0
    assert cli("act", duel_log, "--key", alice.key, '{"action": "attack", "target": "blue"}').code == 0
    assert "waiting for blue to act" in _status(cli, duel_log)["awaiting"]
    defended = cli("act", duel_log, "--key", bob.key, '{"action": "defend", "stance": "block"}', "--json")
    assert defended.code == 0, defended.err
    assert "waiting for red's dice" in json.loads(defended.out)["awaiting"]
    status = _status(cli, duel_log)
    assert "waiting for red's dice" in status["awaiting"]
    assert "waiting for red's dice" in cli("status", duel_log).out
    # nobody has a choice until red reveals; blue owes nothing
    assert json.loads(cli("legal", duel_log, "--key", bob.key, "--json").out) == []
    nothing = cli("legal", duel_log, "--key", bob.key)
    assert nothing.code == 0 and "nothing to choose" in nothing.out
    cli("reveal", duel_log, "--key", bob.key).assert_error("U002", exit_code=1)
    revealed = cli("reveal", duel_log, "--key", alice.key)
    assert revealed.code == 0, revealed.err
    assert "signed reveal" in revealed.out
    assert "red rolls" in revealed.out  # the combat is resolved and reported
    keys, combat = {"red": alice.key, "blue": bob.key}, revealed.out
    for _ in range(3):  # an attack of 12 rolls one more die (T3.4), whose dice are awaited in turn
        waits = [m.group(1) for t in _status(cli, duel_log)["awaiting"] if (m := DICE_WAIT.fullmatch(t))]
        if not waits:
            break
        assert "red rolls 12 " in combat
        revealed = cli("reveal", duel_log, "--key", keys[waits[0]])
        assert revealed.code == 0, revealed.err
    else:
        pytest.fail("dice still pending")
    assert _status(cli, duel_log)["valid"] is True


def test_legal_lists_numbered_actions_as_json_objects(cli: Cli, duel_log: Path, alice: Player) -> None:
    run = cli("legal", duel_log, "--key", alice.key)
    assert run.code == 0, run.err
    listed = [line.split(". ", 1) for line in run.out.splitlines()]
    assert [int(n) for n, _ in listed] == [1, 2, 3]
    assert [json.loads(text) for _, text in listed] == [{"action": "choose_reserve", "value": v} for v in (1, 2, 3)]


def test_act_illegal_action_names_the_rule_and_writes_nothing(cli: Cli, duel_log: Path, alice: Player) -> None:
    before = duel_log.read_bytes()
    run = cli("act", duel_log, "--key", alice.key, '{"action": "choose_reserve", "value": 7}')
    line = run.assert_error("R001", exit_code=1)
    assert "[R001]" in line and "§T1.1" in line
    assert run.out == ""
    assert duel_log.read_bytes() == before


def test_act_illegal_action_via_console_script_is_one_line(duel_log: Path, alice: Player) -> None:
    before = duel_log.read_bytes()
    run = run_script("act", duel_log, "--key", alice.key, '{"action": "choose_reserve", "value": 0}')
    line = run.assert_error("R001", exit_code=1)
    assert "§T1.1" in line
    assert duel_log.read_bytes() == before


@pytest.mark.parametrize("text", ['{"action": ', "not json", "[1, 2]", '"pass"', '{"value": 2}'])
def test_act_malformed_action_is_r004(cli: Cli, duel_log: Path, alice: Player, text: str) -> None:
    before = duel_log.read_bytes()
    cli("act", duel_log, "--key", alice.key, text).assert_error("R004", exit_code=1)
    assert duel_log.read_bytes() == before


def test_act_when_not_your_turn_is_r002(cli: Cli, duel_log: Path, alice: Player, bob: Player) -> None:
    assert cli("act", duel_log, "--key", alice.key, '{"action": "choose_reserve", "value": 1}').code == 0
    assert cli("act", duel_log, "--key", bob.key, '{"action": "choose_reserve", "value": 1}').code == 0
    before = duel_log.read_bytes()
    line = cli("act", duel_log, "--key", bob.key, '{"action": "pass"}').assert_error("R002", exit_code=1)
    assert "red" in line
    assert duel_log.read_bytes() == before


def test_act_a_second_action_past_a_wait_point_is_r003(cli: Cli, duel_log: Path, bob: Player) -> None:
    before = duel_log.read_bytes()
    run = cli("act", duel_log, "--key", bob.key, '{"action": "choose_reserve", "value": 1}', '{"action": "pass"}')
    run.assert_error("R003", exit_code=1)
    assert duel_log.read_bytes() == before


def test_act_with_a_key_that_holds_no_seat_is_u001(cli: Cli, duel_log: Path, tmp_path: Path) -> None:
    carol = write_keys(tmp_path / "carol", "carol")
    before = duel_log.read_bytes()
    commands = [
        ["act", duel_log, "--key", carol.key, '{"action": "pass"}'],
        ["legal", duel_log, "--key", carol.key],
        ["reveal", duel_log, "--key", carol.key],
        ["join", duel_log, "--key", carol.key],
    ]
    for command in commands:
        line = cli(*command).assert_error("U001", exit_code=1)
        assert "SHA256:" in line  # names the key's fingerprint
    assert duel_log.read_bytes() == before


def test_join_twice_is_refused(cli: Cli, duel_log: Path, bob: Player) -> None:
    before = duel_log.read_bytes()
    cli("join", duel_log, "--key", bob.key).assert_error("U002", exit_code=1)
    assert duel_log.read_bytes() == before


def test_new_refuses_to_overwrite_and_unknown_scenario(cli: Cli, duel_log: Path, alice: Player, bob: Player) -> None:
    seats = ["--seat", f"red={alice.pub}", "--seat", f"blue={bob.pub}"]
    before = duel_log.read_bytes()
    cli("new", "triad", "--scenario", "duel", *seats, "--key", alice.key, "-o", duel_log).assert_error("F004")
    assert duel_log.read_bytes() == before
    other = duel_log.with_name("other.jsonl")
    cli("new", "triad", "--scenario", "nope", *seats, "--key", alice.key, "-o", other).assert_error("U003", 2)
    cli("new", "triad", "--scenario", "standard", *seats, "--key", alice.key, "-o", other).assert_error("U003", 2)
    cli("new", "triad", "--scenario", "duel", "--seat", "red", "--key", alice.key, "-o", other).assert_error("U003", 2)
    assert not other.exists()


def test_resign_ends_the_game_for_the_other_seat(cli: Cli, duel_log: Path, alice: Player, bob: Player) -> None:
    assert cli("act", duel_log, "--key", alice.key, '{"action": "choose_reserve", "value": 1}').code == 0
    resigned = cli("resign", duel_log, "--key", bob.key, "--json")
    assert resigned.code == 0, resigned.err
    assert "resign" in [w["type"] for w in json.loads(resigned.out)["written"]]
    report = json.loads(cli("verify", duel_log, "--json").out)
    assert report["valid"] is True
    assert report["result"] is not None and report["result"]["winners"] == ["red"]


def test_act_refuses_a_boolean_for_an_integer_field(cli: Cli, duel_log: Path, alice: Player) -> None:
    """``true`` is not an integer, even though Python's ``True == 1``: the typed action model (strict) refuses
    it as malformed (R004), before any rule is asked."""
    before = duel_log.read_bytes()
    run = cli("act", duel_log, "--key", alice.key, '{"action": "choose_reserve", "value": true}')
    assert run.code == 1, run.out
    assert "[R004]" in run.err and "value" in run.err
    assert duel_log.read_bytes() == before


def test_act_refuses_a_float_for_an_integer_field_and_writes_nothing(cli: Cli, duel_log: Path, alice: Player) -> None:
    before = duel_log.read_bytes()
    run = cli("act", duel_log, "--key", alice.key, '{"action": "choose_reserve", "value": 2.0}')
    assert run.code == 1
    assert "Traceback" not in run.err and len(run.err_lines) == 1
    assert duel_log.read_bytes() == before
