"""Commands that read logs: games, status, verify, show and merge."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pbem.log import timestamps
from tests.cli.conftest import Cli, Player, run_script, write_keys
from tests.helpers import Table, test_key


def _flip_signature_char(line: bytes, offset: int = 70) -> bytes:
    """``line`` with one hex digit inside its signature changed (in S's low bytes: still canonical)."""
    raw = bytearray(line)
    at = raw.index(b'"sig":"') + len(b'"sig":"') + offset
    raw[at] = ord("1") if raw[at] != ord("1") else ord("2")
    return bytes(raw)


def _tamper(log: Path, line_number: int) -> None:
    lines = log.read_bytes().split(b"\n")
    lines[line_number - 1] = _flip_signature_char(lines[line_number - 1])
    log.write_bytes(b"\n".join(lines))


# --- games -----------------------------------------------------------------------------------------------
def test_games_json_lists_triad_with_scenarios_and_seats(cli: Cli) -> None:
    run = cli("games", "--json")
    assert run.code == 0, run.err
    listing = json.loads(run.out)
    assert isinstance(listing, list)
    triad = next(g for g in listing if g["id"] == "triad")
    assert triad["name"] and triad["version"] == "1"
    scenarios = {s["id"]: s["seats"] for s in triad["scenarios"]}
    assert scenarios == {
        "duel": ["red", "blue"],
        "standard": ["red", "green", "blue"],
        "teams": ["red", "green", "blue"],
        "pairs": ["red", "blue", "green", "yellow"],
        "solo": ["red"],
    }
    assert all(isinstance(s["id"], str) and isinstance(s["seats"], list) for s in triad["scenarios"])


def test_games_text_names_each_scenario(cli: Cli) -> None:
    out = cli("games").out
    assert "triad" in out
    assert "scenario duel" in out and "red, blue" in out


def test_games_via_console_script(tmp_path: Path) -> None:
    run = run_script("games", "--json", cwd=tmp_path)
    assert run.code == 0, run.err
    assert "triad" in [g["id"] for g in json.loads(run.out)]


# --- status ----------------------------------------------------------------------------------------------
def test_status_json_names_seats_and_fingerprints(cli: Cli, duel_log: Path, alice: Player, bob: Player) -> None:
    run = cli("status", duel_log, "--json")
    assert run.code == 0, run.err
    info = json.loads(run.out)
    fingerprints = {s["seat"]: s["fingerprint"] for s in info["seats"]}
    assert fingerprints == {
        "red": json.loads(cli("key", "show", alice.pub, "--json").out)["fingerprint"],
        "blue": json.loads(cli("key", "show", bob.pub, "--json").out)["fingerprint"],
    }
    assert all(s["joined"] for s in info["seats"])
    assert info["entries"] == 3 and info["result"] is None and info["audit"] == "in-play"
    assert info["scenario"] == "duel" and info["period"] == "setup"


def test_status_of_a_tampered_log_exits_1_with_the_error(cli: Cli, duel_log: Path) -> None:
    _tamper(duel_log, 3)
    run = cli("status", duel_log, "--json")
    assert run.code == 1
    assert json.loads(run.out)["error"]["code"] == "K001"


# --- verify ----------------------------------------------------------------------------------------------
def test_verify_valid_log_exits_0(cli: Cli, duel: Table) -> None:
    run = cli("verify", duel.path)
    assert run.code == 0, run.out
    assert "valid" in run.out and "INVALID" not in run.out
    assert "audit complete" in run.out


def test_verify_json_reports_first_error(cli: Cli, duel: Table) -> None:
    _tamper(duel.path, 5)
    run = cli("verify", duel.path, "--json")
    assert run.code == 1
    report = json.loads(run.out)
    assert report["valid"] is False
    assert report["error"]["code"] == "K001"
    assert report["error"]["line"] == 5
    assert report["error"]["severity"] == "error"
    assert "Traceback" not in run.err


def test_verify_text_names_the_tampered_line(cli: Cli, duel: Table) -> None:
    _tamper(duel.path, 2)
    run = cli("verify", duel.path)
    assert run.code == 1
    assert "[K001] error line 2 " in run.out
    assert "INVALID" in run.out


def test_verify_console_script_exit_codes(duel: Table) -> None:
    assert run_script("verify", duel.path).code == 0
    _tamper(duel.path, 4)
    run = run_script("verify", duel.path, "--json")
    assert run.code == 1
    assert json.loads(run.out)["error"]["line"] == 4
    assert "Traceback" not in run.err


def test_verify_missing_file_is_f001_exit_3(cli: Cli, tmp_path: Path) -> None:
    run = cli("verify", tmp_path / "missing.jsonl")
    assert run.code in (2, 3)
    assert "Traceback" not in run.err
    assert len(run.err_lines) == 1, run.err
    if run.code == 3:
        run.assert_error("F001", exit_code=3)


def test_verify_missing_file_json_is_f001_exit_3(cli: Cli, tmp_path: Path) -> None:
    run_json = cli("verify", tmp_path / "missing.jsonl", "--json")
    run_json.assert_error("F001", exit_code=3)


def test_verify_no_rules_on_a_valid_log_exits_0(cli: Cli, duel: Table) -> None:
    run = cli("verify", duel.path, "--no-rules", "--json")
    assert run.code == 0, run.out
    assert json.loads(run.out)["valid"] is True


def test_verify_names_the_rule_of_an_illegal_signed_action(cli: Cli, duel_log: Path) -> None:
    """A validly signed action that breaks the rules: [R001] with the rule; --no-rules skips that check."""
    table = Table(duel_log, {"red": test_key("red"), "blue": test_key("blue")})
    after = json.loads(duel_log.read_bytes().splitlines()[-1])["ts"]  # the log was signed on the real clock
    forged = table.forge("red", "action", {"actions": [{"action": "pass"}], "rolls": None, "sealed": [], "echo": []},
                         ts=timestamps.add_hours(after, 1))  # fmt: skip
    with duel_log.open("ab") as file:
        file.write(forged + b"\n")
    run = cli("verify", duel_log)
    assert run.code == 1
    assert "[R001] error line 4 (red#1 " in run.out
    assert "(§T2.1)" in run.out
    assert json.loads(cli("verify", duel_log, "--json").out)["error"]["rule"] == "§T2.1"
    assert cli("verify", duel_log, "--no-rules").code == 0


def test_verify_reports_a_conflicted_copy_beside_the_log(cli: Cli, duel: Table) -> None:
    sibling = duel.path.with_name(f"{duel.path.stem} (conflicted copy){duel.path.suffix}")
    shutil.copyfile(duel.path, sibling)
    run = cli("verify", duel.path, "--json")
    assert run.code == 0
    assert json.loads(run.out)["conflicted_copies"] == [str(sibling)]
    assert "pbem merge" in cli("verify", duel.path).out


# --- show ------------------------------------------------------------------------------------------------
def test_show_json_as_seat_lists_units(cli: Cli, duel: Table) -> None:
    run = cli("show", duel.path, "--json", "--as", "red")
    assert run.code == 0, run.err
    view = json.loads(run.out)
    assert view["viewer"] == "red"
    assert view["line"] == len(duel.lines())
    units = view["units"]
    assert isinstance(units, list) and {u["id"] for u in units} == {"red", "blue"}
    for unit in units:
        assert {"id", "name", "side", "location", "strength"} <= set(unit)
        assert isinstance(unit["strength"], int)


def test_show_at_line_shows_that_position(cli: Cli, duel: Table) -> None:
    run = cli("show", duel.path, "--json", "--as", "blue", "--at", "3")
    assert run.code == 0, run.err
    view = json.loads(run.out)
    assert view["line"] == 3
    assert view["facts"]["phase"] == "setup"
    assert all(u["strength"] == 12 for u in view["units"])
    assert "after line 3" in cli("show", duel.path, "--at", "3").out


def test_show_before_everyone_joined_is_u002(cli: Cli, duel: Table) -> None:
    cli("show", duel.path, "--at", "1").assert_error("U002", exit_code=1)


def test_show_as_unknown_seat_is_u003_exit_2(cli: Cli, duel: Table) -> None:
    line = cli("show", duel.path, "--as", "nosuchseat").assert_error("U003", exit_code=2)
    assert "nosuchseat" in line


def test_show_at_zero_is_u003_exit_2(cli: Cli, duel: Table) -> None:
    cli("show", duel.path, "--at", "0").assert_error("U003", exit_code=2)


def test_show_with_key_reveals_only_your_own_reserve(cli: Cli, duel_log: Path, alice: Player, bob: Player) -> None:
    assert cli("act", duel_log, "--key", alice.key, '{"action": "choose_reserve", "value": 2}').code == 0

    def reserves(*argv: str | Path) -> dict[str, object]:
        run = cli("show", duel_log, "--json", *argv)
        assert run.code == 0, run.err
        return {u["id"]: u["extra"]["reserve"] for u in json.loads(run.out)["units"]}

    assert reserves("--as", "red", "--key", alice.key)["red"] == 2
    assert reserves("--as", "red") == {"red": None, "blue": None}
    assert reserves("--as", "blue", "--key", bob.key) == {"red": None, "blue": None}
    assert reserves("--as", "red", "--key", bob.key)["red"] is None  # bob's key cannot open red's reserve
    assert reserves("--key", alice.key)["red"] is None  # an observer does not see it either


def test_show_final_position_as_everyone_sees_all_reserves(cli: Cli, duel: Table) -> None:
    view = json.loads(cli("show", duel.path, "--json", "--as", "@all").out)
    assert all(isinstance(u["extra"]["reserve"], int) for u in view["units"])


# --- merge -----------------------------------------------------------------------------------------------
def test_merge_older_and_newer_copy_is_clean(
    cli: Cli, duel_log: Path, alice: Player, bob: Player, tmp_path: Path
) -> None:
    older = tmp_path / "older.jsonl"
    shutil.copyfile(duel_log, older)
    assert cli("act", duel_log, "--key", alice.key, '{"action": "choose_reserve", "value": 1}').code == 0
    assert cli("act", duel_log, "--key", bob.key, '{"action": "choose_reserve", "value": 3}').code == 0
    extra = duel_log.read_bytes().count(b"\n") - older.read_bytes().count(b"\n")
    assert extra >= 2

    out = tmp_path / "merged.jsonl"
    run = cli("merge", older, duel_log, "-o", out, "--json")
    assert run.code == 0, run.out + run.err
    merged = json.loads(run.out)
    assert merged["clean"] is True and merged["forks"] == [] and merged["truncations"] == []
    assert merged["added_from_b"] == extra
    assert merged["verification"]["valid"] is True
    assert out.read_bytes() == duel_log.read_bytes()
    assert cli("verify", out).code == 0

    text = cli("merge", duel_log, older, "-o", tmp_path / "merged2.jsonl")
    assert text.code == 0, text.out
    assert f"(0 only in {older})" in text.out
    assert "valid" in text.out


def test_merge_names_an_old_copy_behind_a_final_checkpoint_as_truncated(cli: Cli, duel: Table, tmp_path: Path) -> None:
    """A copy lacking entries that a checkpoint every seat co-signed covers is named (P005, exit 1)."""
    lines = duel.path.read_bytes().splitlines(keepends=True)
    old, out = tmp_path / "old.jsonl", tmp_path / "merged.jsonl"
    old.write_bytes(b"".join(lines[:10]))
    run = cli("merge", old, duel.path, "-o", out, "--json")
    assert run.code == 1
    merged = json.loads(run.out)
    assert {t["copy"] for t in merged["truncations"]} == {"A"}
    assert merged["forks"] == []
    assert merged["added_from_b"] == len(lines) - 10
    assert cli("verify", out).code == 0  # the union itself is the whole, valid game
    assert "[P005] copy A lacks" in cli("merge", old, duel.path, "-o", tmp_path / "merged2.jsonl").out


def test_merge_of_a_fork_names_c006_and_exits_1(
    cli: Cli, duel_log: Path, alice: Player, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, out = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "merged.jsonl"
    shutil.copyfile(duel_log, a)
    shutil.copyfile(duel_log, b)
    assert cli("act", a, "--key", alice.key, '{"action": "choose_reserve", "value": 1}').code == 0
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / "second-device"))  # red's other machine
    assert cli("act", b, "--key", alice.key, '{"action": "choose_reserve", "value": 2}').code == 0
    assert cli("verify", a).code == cli("verify", b).code == 0

    run = cli("merge", a, b, "-o", out)
    assert run.code == 1
    assert "[C006]" in run.out + run.err
    assert "Traceback" not in run.err
    assert "red seq 1" in run.out

    report = cli("merge", a, b, "-o", tmp_path / "merged2.jsonl", "--json")
    assert report.code == 1
    merged = json.loads(report.out)
    assert merged["clean"] is False
    assert [(f["author"], f["seq"]) for f in merged["forks"]] == [("red", 1)]
    assert not out.exists()  # the union of a fork does not verify: the merge refuses and writes nothing


def test_same_device_refuses_to_act_on_a_stale_copy(cli: Cli, duel_log: Path, alice: Player, tmp_path: Path) -> None:
    """A backup restored over the log lacks an entry this machine signed in that file: F005, no fork."""
    backup = tmp_path / "backup.jsonl"
    shutil.copyfile(duel_log, backup)
    assert cli("act", duel_log, "--key", alice.key, '{"action": "choose_reserve", "value": 1}').code == 0
    shutil.copyfile(backup, duel_log)  # the restored backup is behind
    before = duel_log.read_bytes()
    cli("act", duel_log, "--key", alice.key, '{"action": "choose_reserve", "value": 2}').assert_error(
        "F005", exit_code=1
    )
    assert duel_log.read_bytes() == before


def test_trying_a_move_on_a_copy_does_not_poison_the_real_log(
    cli: Cli, duel_log: Path, alice: Player, tmp_path: Path
) -> None:
    """The stale-copy guard is keyed by the file's path: a copy in another folder is its own copy."""
    trial = tmp_path / "scratch" / "duel.jsonl"
    trial.parent.mkdir()
    shutil.copyfile(duel_log, trial)
    assert cli("act", trial, "--key", alice.key, '{"action": "choose_reserve", "value": 1}').code == 0
    run = cli("act", duel_log, "--key", alice.key, '{"action": "choose_reserve", "value": 2}')
    assert run.code == 0, run.err


def test_merge_refuses_to_overwrite_output(cli: Cli, duel: Table, tmp_path: Path) -> None:
    out = tmp_path / "merged.jsonl"
    out.write_bytes(b"keep me\n")
    cli("merge", duel.path, duel.path, "-o", out).assert_error("F004", exit_code=2)
    assert out.read_bytes() == b"keep me\n"


def test_merge_missing_input_is_f001(cli: Cli, duel: Table, tmp_path: Path) -> None:
    out = tmp_path / "merged.jsonl"
    cli("merge", duel.path, tmp_path / "missing.jsonl", "-o", out).assert_error("F001", exit_code=3)
    assert not out.exists()


# --- no tracebacks -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "code_id", "exit_code"),
    [
        (["verify", "DIR/missing.jsonl"], "F001", 3),
        (["status", "DIR/missing.jsonl"], "F001", 3),
        (["show", "DIR/missing.jsonl"], "F001", 3),
        (["join", "DIR/missing.jsonl", "--key", "KEY"], "F001", 3),
        (["legal", "DIR/missing.jsonl", "--key", "KEY"], "F001", 3),
        (["act", "DIR/missing.jsonl", "--key", "KEY", '{"action": "pass"}'], "F001", 3),
        (["reveal", "DIR/missing.jsonl", "--key", "KEY"], "F001", 3),
        (["resign", "DIR/missing.jsonl", "--key", "KEY"], "F001", 3),
        (["show", "DIR/garbage.jsonl"], "U005", 1),
        (["legal", "DIR/garbage.jsonl", "--key", "KEY"], "U005", 1),
        (["act", "DIR/garbage.jsonl", "--key", "KEY", '{"action": "pass"}'], "U005", 1),
        (["legal", "DIR/empty.jsonl", "--key", "KEY"], "U005", 1),
        (["key", "show", "DIR/garbage.jsonl"], "K009", 3),
        (["legal", "DIR/garbage.jsonl", "--key", "DIR/garbage.jsonl"], "K009", 3),
        (["legal", "DIR/garbage.jsonl", "--key", "DIR/missing.key"], "K009", 3),
        (["new", "nosuchgame", "--scenario", "duel", "--seat", "red=PUB", "--key", "KEY", "-o", "DIR/x"], "R005", 1),
        (
            [
                "new",
                "triad",
                "--scenario",
                "duel",
                "--seat",
                "red=DIR/garbage.jsonl",
                "--seat",
                "blue=PUB",
                "--key",
                "KEY",
                "-o",
                "DIR/x",
            ],
            "K009",
            3,
        ),
        (["key", "new", "x", "--dir", "DIR/no/such/dir"], "F002", 3),
    ],
    ids=lambda v: " ".join(a.split("/")[-1] for a in v) if isinstance(v, list) else str(v),
)
def test_errors_are_one_line_without_traceback(
    cli: Cli, tmp_path: Path, argv: list[str], code_id: str, exit_code: int
) -> None:
    player = write_keys(tmp_path / "k", "k")
    (tmp_path / "garbage.jsonl").write_bytes(b"this is not a log\n\x00\xff\n")
    (tmp_path / "empty.jsonl").write_bytes(b"")
    args = [
        a.replace("DIR", str(tmp_path)).replace("KEY", str(player.key)).replace("PUB", str(player.pub)) for a in argv
    ]
    run = cli(*args)
    run.assert_error(code_id, exit_code=exit_code)
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("command", ["verify", "status"])
def test_unparsable_log_is_reported_as_findings_not_a_crash(cli: Cli, tmp_path: Path, command: str) -> None:
    log = tmp_path / "garbage.jsonl"
    log.write_bytes(b"this is not a log\n\x00\xff\n")
    run = cli(command, log)
    assert run.code == 1
    assert "Traceback" not in run.err + run.out
    assert "[L003] error line 1" in run.out and "[L001] error line 2" in run.out
    assert "INVALID" in run.out


def test_verify_json_of_an_empty_file_names_an_error(cli: Cli, tmp_path: Path) -> None:
    """KNOWN BUG (fails today): an empty log is invalid, yet the report has no finding at all.

    ``pbem verify empty.jsonl --json`` prints ``"valid": false`` with ``"error": null`` and ``"findings": []``,
    and the text form prints only ``INVALID: 0 entries read`` without saying why (expected: a C001 "no genesis").
    """
    log = tmp_path / "empty.jsonl"
    log.write_bytes(b"")
    run = cli("verify", log, "--json")
    assert run.code == 1
    report = json.loads(run.out)
    assert report["valid"] is False
    assert report["error"] is not None
