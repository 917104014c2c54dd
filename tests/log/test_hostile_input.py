"""Hostile input: every command that reads a log ends it with a code naming the entry; a bug exits 4; text from
a log never drives the terminal; key files that are not small private regular files are refused at once."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from pbem.cli.__init__ import main
from pbem.exchange.packet import Packet
from pbem.log.entry import envelope, seal
from pbem.log.keys import save_keypair
from pbem.log.sign import PublicKey
from pbem.text import json_safe, one_line, terminal_safe
from tests.helpers import Cli, Table, codes, test_key

PASS = {"actions": [{"action": "pass"}], "rolls": None, "sealed": [], "echo": []}
HOSTILE = "\x1b[2J\x1b]0;owned\x07\r\x9b31m\u202eevil\u2028\u2029\x00"


def _with_line(table: Table, line: bytes, name: str = "bad.jsonl") -> Path:
    path = table.path.with_name(name)
    path.write_bytes(b"".join(x + b"\n" for x in [*table.lines(), line]))
    return path


@pytest.fixture
def duel_table(tmp_path: Path) -> Table:
    return Table.start(tmp_path, "duel")


@pytest.mark.parametrize("kind", [["action"], {"action": 1}, 7, None, True])
@pytest.mark.parametrize("command", ["verify", "status", "act", "import-into", "import-packet", "report", "replay",
                                     "export", "merge"])  # fmt: skip
def test_a_wrong_typed_envelope_type_ends_in_a_code_naming_the_entry_in_every_command(
    duel_table: Table, cli: Cli, kind: object, command: str
) -> None:
    table = duel_table
    line = table.forge("red", "action", PASS, type=kind)
    bad = _with_line(table, line)
    key = table.path.parent / "keys"
    key.mkdir()
    red_key, _ = save_keypair(test_key("red"), key, "red", None)
    packet = table.path.with_name("p.pbem")
    packet.write_bytes(Packet(envelope(table.lines()[0]).id, "red", "blue", (line,)).to_file())
    out = table.path.parent / "out"
    argv: dict[str, list[object]] = {
        "verify": ["verify", bad],
        "status": ["status", bad],
        "act": ["act", bad, "--key", red_key, '{"action": "pass"}'],
        "import-into": ["import", bad, packet],
        "import-packet": ["import", table.path, packet],
        "report": ["report", bad, "-o", out.with_suffix(".html")],
        "replay": ["replay", bad, "-o", out.with_suffix(".replay.html")],
        "export": ["export", bad],
        "merge": ["merge", bad, table.path, "-o", out.with_suffix(".jsonl")],
    }
    run = cli(*argv[command])
    text = run.out + run.err
    assert "Traceback" not in text
    assert run.code == 1, text
    assert "[L014]" in text and "'type'" in text
    assert "line 4" in text or "entry 1" in text  # the log's line, or the packet's entry


def test_envelope_fields_of_every_wrong_json_type_are_l014_at_the_parse_step(duel_table: Table) -> None:
    wrong = [("author", ["red"]), ("kid", 1), ("seq", "1"), ("seq", True), ("deps", "x"), ("deps", [1]),
             ("body", []), ("ts", 20260101), ("prev", {}), ("game", None), ("v", "1")]  # fmt: skip
    for name, value in wrong:
        draft = json.loads(duel_table.forge("red", "action", PASS))
        draft.pop("sig")
        draft[name] = value
        line = seal(draft, test_key("red").private.sign).line
        report = duel_table.verify([*duel_table.lines(), line])
        assert codes(report) == ["L014"], (name, value, report.findings)


def test_a_bug_exits_4_with_the_line_and_please_report(
    duel_table: Table, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem.replay.game import Game

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("division by zero")

    log = _with_line(duel_table, duel_table.forge("red", "action", PASS))
    monkeypatch.setattr(Game, "check_causal", broken)
    run = cli("verify", log)
    err = run.assert_error("U007", exit_code=4)
    assert "please report" in err and "line 2" in err and "ZeroDivisionError" in err


def test_a_bug_outside_any_log_also_exits_4_in_one_line(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.rules import registry

    def broken() -> None:
        raise KeyError("oops")

    monkeypatch.setattr(registry, "installed", broken)
    cli("games").assert_error("U007", exit_code=4)


# --- the genesis: check order and roster keys -------------------------------------------------------


def _genesis(table: Table, **changes: object) -> dict[str, object]:
    data = json.loads(table.lines()[0])
    data.pop("sig")
    data.update(changes)
    return data


def test_genesis_key_id_is_checked_before_its_signature(duel_table: Table) -> None:
    """§9 step 3: a genesis naming the wrong key id and signed by another key is K004 (was K001)."""
    data = _genesis(duel_table, kid=test_key("blue").public.id)
    line = seal(data, test_key("blue").private.sign).line
    assert codes(duel_table.verify([line])) == ["K004"]


def _off_curve() -> bytes:
    for y in range(2, 100):
        raw = y.to_bytes(32, "little")
        try:
            PublicKey(raw)
        except Exception as exc:
            if "curve" in str(exc):
                return raw
    raise AssertionError("no off-curve encoding found")


@pytest.mark.case("S2")
def test_a_roster_key_off_the_curve_is_refused_at_genesis_with_k003(duel_table: Table) -> None:
    data = _genesis(duel_table)
    body = data["body"]
    assert isinstance(body, dict)
    body["roster"][1]["key"] = _off_curve().hex()
    line = seal(data, test_key("red").private.sign).line
    assert codes(duel_table.verify([line])) == ["K003"]


@pytest.mark.case("S2")
def test_an_off_curve_key_is_refused_as_a_join_key_or_rotation_target() -> None:
    with pytest.raises(Exception) as refused:
        PublicKey(_off_curve())
    assert refused.value.code.id == "K003"


# --- terminal escapes -----------------------------------------------------------------------------------


def test_the_sanitiser_escapes_controls_bidi_and_separators() -> None:
    shown = terminal_safe(HOSTILE + "\nnext\tline")
    assert not any(c in shown for c in "\x1b\x07\r\x9b\u202e\u2028\u2029\x00")
    assert shown.startswith("\\x1b[2J") and "\\u202e" in shown and shown.endswith("\nnext\tline")
    assert (
        "\n" not in one_line("a\nb")
        and json.loads(json_safe(json.dumps("\u202e\x9b", ensure_ascii=False))) == "\u202e\x9b"
    )


def test_status_and_verify_print_a_hostile_title_and_name_inert(tmp_path: Path, cli: Cli) -> None:
    table = Table.start(tmp_path, "duel", title=f"Duel{HOSTILE}[blink]x[/blink]", names={"blue": f"Bob{HOSTILE}"})
    for argv in (["status", table.path], ["status", table.path, "--json"], ["verify", table.path, "--json"]):
        run = cli(*argv)
        assert run.code == 0, run.err
        assert not any(c in run.out for c in "\x1b\x07\r\x9b\u202e\u2028\u2029\x00"), argv
    assert "[blink]x[/blink]" in cli("status", table.path).out  # brackets from the log are not markup


def test_play_shows_an_opponents_note_inert(tmp_path: Path, cli: Cli) -> None:
    table = Table.start(tmp_path, "duel")
    with table.session("red") as session:
        session.act([{"action": "choose_reserve", "value": 2}], f"hi{HOSTILE}")
    keys = tmp_path / "keys"
    keys.mkdir()
    blue_key, _ = save_keypair(test_key("blue"), keys, "blue", None)
    run = cli("play", table.path, "--key", blue_key)
    assert "hi\\x1b[2J" in run.out
    assert not any(c in run.out for c in "\x1b\x07\r\x9b\u202e\u2028\u2029\x00")


# --- a damaged last line ------------------------------------------------------------------------------


def test_a_damaged_final_newline_is_reported_as_a_lost_entry(duel_table: Table, cli: Cli) -> None:
    data = duel_table.path.read_bytes()
    duel_table.path.write_bytes(data[:-1] + b"X")  # the last entry is whole, its newline is not
    run = cli("verify", duel_table.path, "--json")
    assert run.code == 1
    report = json.loads(run.out)
    assert not report["valid"] and [f["code"] for f in report["findings"]] == ["L013"]
    assert "lost" in report["findings"][0]["message"]


# --- key files ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o666, 0o777, 0o604])
def test_a_private_key_other_users_can_read_is_refused(tmp_path: Path, cli: Cli, mode: int) -> None:
    key, _ = save_keypair(test_key("red"), tmp_path, "red", None)
    key.chmod(mode)
    line = cli("key", "show", key).assert_error("K009", exit_code=3)
    assert "chmod 600" in line


@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "directory"])
def test_a_key_path_that_is_not_a_regular_file_is_refused_at_once(tmp_path: Path, cli: Cli, target: str) -> None:
    link = tmp_path / "red.key"
    if target == "fifo":
        os.mkfifo(tmp_path / "fifo")
        os.symlink(tmp_path / "fifo", link)
    elif target == "directory":
        (tmp_path / "dir").mkdir()
        os.symlink(tmp_path / "dir", link)
    else:
        os.symlink(target, link)
    log = Table.start(tmp_path, "duel").path
    started = time.monotonic()
    for argv in (["key", "show", link], ["act", log, "--key", link, '{"action": "pass"}']):
        cli(*argv).assert_error("K009", exit_code=3)
    assert time.monotonic() - started < 5


def test_main_is_the_console_entry_point() -> None:
    assert main(["--help"]) == 0


def test_a_passphrase_file_that_is_not_a_regular_file_is_refused_at_once(tmp_path: Path, cli: Cli) -> None:
    key, _ = save_keypair(test_key("red"), tmp_path, "red", b"secret")
    os.symlink("/dev/zero", tmp_path / "pass")
    started = time.monotonic()
    cli("key", "show", key, "--passphrase-file", tmp_path / "pass").assert_error("K009", exit_code=3)
    assert time.monotonic() - started < 5


def test_a_log_packet_or_data_path_that_is_not_a_regular_file_is_refused_at_once(
    duel_table: Table, cli: Cli, tmp_path: Path
) -> None:
    zero = tmp_path / "zero"
    os.symlink("/dev/zero", zero)
    started = time.monotonic()
    for argv in (["verify", zero], ["status", zero], ["import", duel_table.path, zero],
                 ["verify", duel_table.path, "--data", zero], ["import", duel_table.path, tmp_path]):  # fmt: skip
        cli(*argv).assert_error("F001", exit_code=3)
    assert time.monotonic() - started < 5


def test_pbem_new_refuses_an_off_curve_seat_key_with_k003(tmp_path: Path, cli: Cli) -> None:
    key, pub = save_keypair(test_key("red"), tmp_path, "red", None)
    blue = tmp_path / "blue.pub"
    blue.write_text(_off_curve().hex() + "\n")  # a public key file may hold 64 hex digits
    run = cli("new", "triad", "--scenario", "duel", "--seat", f"red={pub}", "--seat", f"blue={blue}",
              "--key", key, "-o", tmp_path / "game.jsonl")  # fmt: skip
    run.assert_error("K003")
    assert not (tmp_path / "game.jsonl").exists()
