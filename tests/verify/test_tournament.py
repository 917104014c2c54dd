"""Tournament verification over a folder of generated games, tampered and unreadable ones among them."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest

from pbem.log.entry import seal
from pbem.verify.tournament import Roster, verify_folder
from tests.helpers import Cli, play_in_memory, test_key

GAMES = 12  # distinct played games; copies and damaged versions make the folder's 50 logs


def write(path: Path, lines: list[bytes]) -> None:
    path.write_bytes(b"".join(line + b"\n" for line in lines))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """50+ logs and the verdict each must get."""
    root = tmp_path_factory.mktemp("tournament")
    expected: dict[str, str] = {}
    games = [
        play_in_memory("triad", "duel", {"rounds": 1 + i % 3}, random.Random(i), title=f"game {i}")
        for i in range(GAMES)
    ]  # distinct titles: distinct games (one genesis would make them copies of one game, forked)
    for n in range(40):
        lines = games[n % GAMES]
        (root / f"valid-{n:02d}.jsonl").write_bytes(b"".join(line + b"\n" for line in lines))
        expected[f"valid-{n:02d}.jsonl"] = "valid"
    for n in range(5):
        lines = list(games[n])
        where = 5 + n * 3
        lines[where] = re.sub(rb'"ts":"(\d)', lambda m: b'"ts":"' + str(int(m.group(1)) ^ 1).encode(), lines[where])
        (root / f"tampered-{n}.jsonl").write_bytes(b"".join(line + b"\n" for line in lines))
        expected[f"tampered-{n}.jsonl"] = "invalid"
    for n in range(2):
        lines = list(games[n])
        del lines[6 + n]  # a truncated copy: an entry missing in the middle
        (root / f"truncated-{n}.jsonl").write_bytes(b"".join(line + b"\n" for line in lines))
        expected[f"truncated-{n}.jsonl"] = "invalid"
    (root / "garbage.jsonl").write_bytes(os.urandom(4096))
    (root / "empty.jsonl").write_bytes(b"")
    (root / "not-json.jsonl").write_text("this is my game, trust me\n")
    expected |= {"garbage.jsonl": "unreadable", "empty.jsonl": "unreadable", "not-json.jsonl": "unreadable"}
    trio = play_in_memory("triad", "standard", {"rounds": 1}, random.Random(99))
    (root / "three-seats.jsonl").write_bytes(b"".join(line + b"\n" for line in trio))
    expected["three-seats.jsonl"] = "unregistered"  # green's key is not on the roster
    # Both players' copies of one game: a seat signed two versions of its last entry (each copy verifies).
    forked = play_in_memory("triad", "duel", {"rounds": 1}, random.Random(100), title="forked")
    last = json.loads(forked[-1])
    last.pop("sig")
    last["ts"] = "2026-01-09T23:59:59Z"
    twin = seal(last, test_key(last["author"]).private.sign).line
    write(root / "fork-alice.jsonl", forked)
    write(root / "fork-bob.jsonl", [*forked[:-1], twin])
    write(root / "fork-bob-resent.jsonl", [*forked[:-1], twin])  # an identical copy is marked as well
    expected |= {"fork-alice.jsonl": "forked", "fork-bob.jsonl": "forked", "fork-bob-resent.jsonl": "forked"}
    # A copy cut short before a checkpoint that every seat co-signed, next to the whole game.
    whole = play_in_memory("triad", "duel", {"rounds": 2}, random.Random(101), title="cut")
    write(root / "cut-whole.jsonl", whole)
    write(root / "cut-short.jsonl", whole[: len(whole) // 2])
    expected |= {"cut-whole.jsonl": "valid", "cut-short.jsonl": "truncated"}
    (root / "notes.txt").write_text("not a log: ignored\n")
    players = (("Rosa", "red"), ("Bruno", "blue"))
    roster = {"players": [{"name": name, "key": test_key(seat).public.hex} for name, seat in players]}
    (root.parent / f"{root.name}-roster.json").write_text(json.dumps(roster))
    assert len(expected) >= 50
    return root, expected


def test_every_log_gets_its_verdict_and_one_bad_log_stops_nothing(folder: tuple[Path, dict[str, str]]) -> None:
    root, expected = folder
    roster = Roster.load(root.parent / f"{root.name}-roster.json")
    rows = verify_folder(root, roster=roster)
    assert {r.file: r.verdict for r in rows} == expected
    assert [r.file for r in rows] == sorted(expected)
    for row in rows:
        if row.verdict == "valid":
            assert row.first_error is None and row.result and row.entries > 3
            assert row.players == ["red: Rosa", "blue: Bruno"]
        else:
            assert row.first_error
    fork = next(r for r in rows if r.file == "fork-bob.jsonl")
    assert fork.first_error is not None and "[C006]" in fork.first_error and "fork-alice.jsonl" in fork.first_error
    short = next(r for r in rows if r.file == "cut-short.jsonl")
    assert short.first_error is not None and "[P005]" in short.first_error and "cut-whole.jsonl" in short.first_error
    tampered = next(r for r in rows if r.file == "tampered-0.jsonl")
    assert tampered.first_error is not None and "[K001]" in tampered.first_error


def test_every_core_takes_part(folder: tuple[Path, dict[str, str]]) -> None:
    cores = os.cpu_count() or 1
    if cores < 2:
        pytest.skip("one core: nothing to spread over")
    rows = verify_folder(folder[0])
    assert len({r.worker for r in rows}) == cores and os.getpid() not in {r.worker for r in rows}


def test_cli_table_json_html_and_exit_code(cli: Cli, folder: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    root, expected = folder
    page = tmp_path / "table.html"
    run = cli("tournament", "verify", root, "--roster", root.parent / f"{root.name}-roster.json", "--json",
              "--html", page)  # fmt: skip
    assert run.code == 1  # some games fail
    table = json.loads(run.out)
    assert table["valid"] is False and len(table["games"]) == len(expected)
    html = page.read_text()
    assert html.count('<tr class="valid">') == 41 and "three-seats.jsonl" in html and "unregistered" in html
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / "one.jsonl").write_bytes((root / "valid-00.jsonl").read_bytes())
    assert cli("tournament", "verify", clean, "--jobs", "1").code == 0
    cli("tournament", "verify", tmp_path / "missing").assert_error("U003", 2)
