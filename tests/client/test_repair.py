"""pbem repair: the longest valid prefix is kept, the rest set aside, and no byte is ever deleted."""

from __future__ import annotations

import functools
import json
import shutil
from pathlib import Path

import pytest

from pbem.client.repair import repair_log
from pbem.log.store import read_log
from pbem.verify.pipeline import verify_file, verify_lines
from tests.cli.conftest import Cli

SAMPLE = Path(__file__).resolve().parents[2] / "sample_games" / "battleaxe" / "game.jsonl"
LINES = SAMPLE.read_bytes().splitlines(keepends=True)
TAIL_START = sum(len(line) for line in LINES[:-3])  # the first byte of the last three entries


@functools.cache
def _prefix_is_valid(count: int) -> bool:
    return verify_lines([line.rstrip(b"\n") for line in LINES[:count]])[0].valid


def _expected_prefix(position: int) -> int:
    """The number of whole lines before the line holding byte ``position``."""
    total = 0
    for count, line in enumerate(LINES):
        total += len(line)
        if position < total:
            return count
    return len(LINES)


def _check_repair(log: Path, original: bytes, intact: int) -> None:
    done = repair_log(log)
    assert log.read_bytes() == b"".join(LINES[:intact])  # every intact entry, in canonical form, nothing else
    assert _prefix_is_valid(intact)
    if original == log.read_bytes():
        assert not done.changed and done.backup is None  # a cut exactly at a line end leaves a valid log
        return
    assert done.backup is not None and done.backup.read_bytes() == original  # no byte is ever deleted
    if done.aside_file is not None:
        assert original.endswith(done.aside_file.read_bytes())


def _truncated(tmp_path: Path, position: int) -> None:
    log = tmp_path / f"cut-{position}.jsonl"
    data = SAMPLE.read_bytes()[:position]
    log.write_bytes(data)
    intact = _expected_prefix(position)
    if intact < len(LINES) and position == sum(len(line) for line in LINES[: intact + 1]) - 1:
        intact += 1  # cut right before a line's newline: that line is complete, only unterminated
    _check_repair(log, data, intact)


def _corrupted(tmp_path: Path, position: int) -> None:
    log = tmp_path / f"bad-{position}.jsonl"
    data = bytearray(SAMPLE.read_bytes())
    data[position] ^= 0x01
    log.write_bytes(bytes(data))
    _check_repair(log, bytes(data), _expected_prefix(position))


SAMPLED = [TAIL_START, TAIL_START + 1, TAIL_START + 300, TAIL_START + 621, len(SAMPLE.read_bytes()) - 1]


@pytest.mark.parametrize("position", SAMPLED)
def test_repair_truncated_tail_keeps_every_intact_entry(tmp_path: Path, position: int) -> None:
    _truncated(tmp_path, position)


@pytest.mark.parametrize("position", SAMPLED)
def test_repair_corrupted_tail_keeps_every_intact_entry(tmp_path: Path, position: int) -> None:
    _corrupted(tmp_path, position)


@pytest.mark.slow
def test_repair_sweep_every_byte_of_the_last_three_entries(tmp_path: Path) -> None:
    for position in range(TAIL_START, len(SAMPLE.read_bytes())):
        _truncated(tmp_path, position)
        _corrupted(tmp_path, position)
        for leftover in tmp_path.iterdir():
            leftover.unlink()


def test_repair_corrupted_middle_line_sets_the_rest_aside(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    data = bytearray(SAMPLE.read_bytes())
    at = sum(len(line) for line in LINES[:100]) + 40
    data[at : at + 3] = b"\x00\x00\x00"
    log.write_bytes(bytes(data))
    done = repair_log(log)
    assert done.cut_at == 101 and done.lost == len(LINES) - 100
    assert done.reason is not None and done.reason.code == "L003"
    assert verify_file(log)[0].valid
    assert read_log(log)[0] == [line.rstrip(b"\n") for line in LINES[:100]]
    assert done.aside_file is not None and done.aside_file.read_bytes() == bytes(data[at - 40 :])


def test_repair_strips_a_byte_order_mark(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_bytes(b"\xef\xbb\xbf" + SAMPLE.read_bytes())
    assert verify_file(log)[0].first_error.code == "L002"  # type: ignore[union-attr]
    done = repair_log(log)
    assert done.normalised == ["byte order mark"] and done.lost == 0
    assert log.read_bytes() == SAMPLE.read_bytes()
    assert done.backup is not None and done.backup.read_bytes().startswith(b"\xef\xbb\xbf")


def test_repair_normalises_crlf_line_ends(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_bytes(SAMPLE.read_bytes().replace(b"\n", b"\r\n"))
    done = repair_log(log)
    assert done.normalised == ["CRLF line ends"] and done.lost == 0 and done.aside_file is None
    assert log.read_bytes() == SAMPLE.read_bytes()


def test_repair_of_a_log_truncated_by_a_full_disk(tmp_path: Path) -> None:
    """A full disk cuts the file at a block boundary, mid-entry, possibly leaving NUL bytes."""
    log = tmp_path / "game.jsonl"
    data = SAMPLE.read_bytes()[: 4096 * 40] + b"\x00" * 512
    log.write_bytes(data)
    done = repair_log(log)
    intact = _expected_prefix(4096 * 40)
    assert log.read_bytes() == b"".join(LINES[:intact])
    assert done.backup is not None and done.backup.read_bytes() == data
    assert verify_file(log)[0].valid


def test_repair_of_a_torn_last_line(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    data = SAMPLE.read_bytes()[:-200]
    log.write_bytes(data)
    done = repair_log(log)
    assert done.lost == 1 and done.cut_at == len(LINES)
    assert log.read_bytes() == b"".join(LINES[:-1])


def test_repair_of_a_clean_log_writes_nothing(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    shutil.copyfile(SAMPLE, log)
    done = repair_log(log)
    assert not done.changed and done.backup is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def test_repair_cli_explains_what_was_lost_and_how_to_get_it_back(cli: Cli, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_bytes(SAMPLE.read_bytes()[:-200])
    run = cli("repair", log, "--json")
    assert run.code == 0, run.err
    info = json.loads(run.out)
    assert info["lost"] == 1 and info["reason"]["code"] == "L003"
    assert Path(info["backup"]).exists() and Path(info["aside"]).exists()
    log.write_bytes(SAMPLE.read_bytes()[:-200])
    text = cli("repair", log).out
    assert "pbem import" in text and "export" in text and "--all" in text
    assert cli("verify", log).code == 0


def test_repair_cli_with_no_intact_genesis_changes_nothing(cli: Cli, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_bytes(b"not a log\n")
    run = cli("repair", log)
    assert run.code == 1
    assert "[L003]" in run.err
    assert log.read_bytes() == b"not a log\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def test_verify_of_a_damaged_log_suggests_repair(cli: Cli, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_bytes(b"\xef\xbb\xbf" + SAMPLE.read_bytes())
    run = cli("verify", log)
    assert run.code == 1
    assert "pbem repair" in run.out
