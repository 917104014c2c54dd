"""pbem report and pbem replay: documents written atomically, never over a file by accident, with exit codes."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pbem.log.store import read_log
from tests.cli.conftest import Cli, Player
from tests.report.conftest import SAMPLE


def test_report_writes_an_after_action_report_and_says_so_in_json(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "aar.html"
    run = cli("report", SAMPLE, "-o", out, "--json")
    assert run.code == 0, run.err
    assert json.loads(run.out) == {"document": "after-action report", "error": None, "output": str(out), "valid": True}
    html = out.read_text()
    assert "After-action report" in html and 'id="seal"' in html


def test_report_turn_as_pdf_from_the_format_option(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "turn-setup.bin"
    run = cli("report", SAMPLE, "--turn", "setup", "--format", "pdf", "-o", out)
    assert run.code == 0, run.err
    assert out.read_bytes().startswith(b"%PDF-") and "wrote turn report" in run.err


def test_report_never_replaces_a_file_unless_forced(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "precious.jsonl"
    out.write_text("my only copy\n")
    cli("report", SAMPLE, "-o", out).assert_error("F004", 2)
    assert out.read_text() == "my only copy\n"
    assert cli("report", SAMPLE, "-o", out, "--force", "--format", "html").code == 0
    assert "After-action report" in out.read_text()
    assert not list(tmp_path.glob(".*.tmp"))  # written through a temporary file, which is gone


def test_report_of_an_invalid_log_is_written_and_exits_one(cli: Cli, tmp_path: Path) -> None:
    lines = read_log(SAMPLE)[0]
    broken = tmp_path / "broken.jsonl"
    lines[100] = re.sub(rb'"ts":"2026', b'"ts":"2027', lines[100])
    broken.write_bytes(b"".join(line + b"\n" for line in lines))
    out = tmp_path / "aar.html"
    run = cli("report", broken, "-o", out)
    assert run.code == 1 and "[K001]" in run.err and "Traceback" not in run.err
    assert "does NOT verify" in out.read_text()


def test_report_usage_errors(cli: Cli, tmp_path: Path) -> None:
    cli("report", SAMPLE, "-o", tmp_path / "a.html", "--as", "rommel").assert_error("U003", 2)
    cli("report", SAMPLE, "-o", tmp_path / "b.html", "--turn", "12").assert_error("U003", 2)
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    cli("report", empty, "-o", tmp_path / "c.html").assert_error("U006")
    assert not (tmp_path / "a.html").exists() and not (tmp_path / "c.html").exists()


def test_replay_writes_one_self_contained_page(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "replay.html"
    run = cli("replay", SAMPLE, "-o", out)
    assert run.code == 0, run.err
    html = out.read_text()
    assert 'id="pbem-data"' in html and "default-src 'none'" in html
    assert not re.search(r'(src|href)="(https?:)?//', html)  # nothing from the network


def test_names_and_notes_signed_through_the_cli_reach_the_report(
    cli: Cli, tmp_path: Path, alice: Player, bob: Player
) -> None:
    log = tmp_path / "named.jsonl"
    made = cli("new", "triad", "--scenario", "duel", "--seat", f"red={alice.pub}", "--seat", f"blue={bob.pub}",
               "--key", alice.key, "-o", log, "--name", "Alice Liddell")  # fmt: skip
    assert made.code == 0, made.err
    assert cli("join", log, "--key", bob.key, "--name", "Bob").code == 0
    acted = cli("act", log, '{"action": "choose_reserve", "value": 2}', "--key", alice.key, "--note", "Your move!")
    assert acted.code == 0, acted.err
    out = tmp_path / "aar.html"
    assert cli("report", log, "-o", out, "--as", "@observer").code == 0
    html = out.read_text()
    assert "Alice Liddell" in html and "Bob" in html and "Your move!" in html


def test_replay_written_with_a_key_holds_only_that_seat_and_the_public_view(
    cli: Cli, tmp_path: Path, alice: Player, bob: Player
) -> None:
    """Before disclosure, a page written with Alice's key has her view and the observer's, never everything."""
    log = tmp_path / "triad.jsonl"
    made = cli("new", "triad", "--scenario", "duel", "--seat", f"red={alice.pub}", "--seat", f"blue={bob.pub}",
               "--key", alice.key, "-o", log)  # fmt: skip
    assert made.code == 0, made.err
    assert cli("join", log, "--key", bob.key).code == 0
    assert cli("act", log, '{"action": "choose_reserve", "value": 2}', "--key", alice.key).code == 0
    pages = {}
    for name, key in (("keyless", ()), ("alice", ("--key", alice.key))):
        out = tmp_path / f"{name}.html"
        assert cli("replay", log, "-o", out, *key).code == 0
        found = re.search(r'<script type="application/json" id="pbem-data">(.*?)</script>', out.read_text(), re.S)
        assert found is not None
        pages[name] = json.loads(found.group(1))
    assert [v["id"] for v in pages["alice"]["viewers"]] == ["red", "@observer"]
    assert {v for step in pages["alice"]["steps"] for v in step["frame"]} == {"red", "@observer"}
    assert "@all" in [v["id"] for v in pages["keyless"]["viewers"]]  # a copy with no key knows only public values


def test_report_refuses_a_format_its_suffix_contradicts(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "x.pdf"
    cli("report", SAMPLE, "-o", out, "-f", "html").assert_error("U003", 2)
    assert not out.exists()
    cli("report", SAMPLE, "-o", tmp_path / "x.html", "--format", "pdf").assert_error("U003", 2)


def test_report_with_a_key_says_whose_view_it_is(cli: Cli, tmp_path: Path) -> None:
    """Before the game is over, --key shows that seat's hidden values: the document must not claim an observer."""
    log = tmp_path / "early.jsonl"
    log.write_bytes(b"".join(SAMPLE.read_bytes().splitlines(keepends=True)[:40]))
    out = tmp_path / "turn.html"
    key = tmp_path / "allied.key"  # a private key must be 0600 (K009); git checks files out 0644
    key.write_bytes((SAMPLE.parent / "keys" / "allied.key").read_bytes())
    key.chmod(0o600)
    assert cli("report", log, "--turn", "1", "-o", out, "--key", key).code == 0
    page = out.read_text()
    assert "an observer" not in page
    assert "Seen as Archie" in page


def test_report_turn_of_a_game_whose_periods_are_rounds(cli: Cli, tmp_path: Path) -> None:
    """Triad's periods are ``round-N``: ``--turn 2`` is its second round, not an error."""
    triad = Path(__file__).resolve().parents[1] / "vectors" / "protocol-v1" / "game.jsonl"
    out = tmp_path / "round-2.html"
    run = cli("report", triad, "--turn", "2", "-o", out, "--format", "html")
    assert run.code == 0, run.err
    assert "Round 2" in out.read_text()  # its title, as the default presentation names it
    cli("report", triad, "--turn", "7", "-o", tmp_path / "x.html").assert_error("U003", 2)
