"""Merging two copies: causal order whatever the argument order, damaged entries are not forks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.verify.merge import merge_lines
from pbem.verify.pipeline import verify_lines
from tests.cli.conftest import Cli
from tests.helpers import Table


def _flip_signature(line: bytes) -> bytes:
    raw = bytearray(line)
    at = raw.index(b'"sig":"') + len(b'"sig":"') + 70  # in S's low bytes: still canonical, no longer valid
    raw[at] = ord("1") if raw[at] != ord("1") else ord("2")
    return bytes(raw)


def _without(lines: list[bytes], *numbers: int) -> list[bytes]:
    return [line for i, line in enumerate(lines, 1) if i not in numbers]


@pytest.mark.parametrize(("gap_a", "gap_b"), [(5, 9), (7, 8), (12, 20)])
def test_merge_copies_missing_different_middle_entries_gives_valid_causal_order(
    duel: Table, gap_a: int, gap_b: int
) -> None:
    lines = duel.path.read_bytes().splitlines()
    a, b = _without(lines, gap_a), _without(lines, gap_b)
    forward, backward = merge_lines(a, b), merge_lines(b, a)
    assert forward.lines == backward.lines  # the argument order does not matter
    assert sorted(forward.lines) == sorted(lines)
    report, _ = verify_lines(forward.lines)
    assert report.valid, [f.render() for f in report.findings]
    assert not (forward.forks or forward.damaged or forward.unplaced or forward.unreadable)
    # each copy lacks an entry a co-signed checkpoint covers: both are named as truncated, and that is all
    assert {t.copy for t in forward.truncations} <= {"A", "B"}


def test_merge_leaves_out_an_entry_with_a_bad_signature_and_calls_it_no_fork(duel: Table) -> None:
    lines = duel.path.read_bytes().splitlines()
    damaged = list(lines)
    damaged[9] = _flip_signature(damaged[9])
    for a, b in ((lines, damaged), (damaged, lines)):
        result = merge_lines(a, b)
        assert result.forks == []
        assert [(d.code, d.line) for d in result.damaged] == [("K001", 10)]
        assert result.lines == lines
        assert not result.clean


def test_merge_cli_bad_signature_is_k001_not_c006_and_output_verifies(cli: Cli, duel: Table, tmp_path: Path) -> None:
    lines = duel.path.read_bytes().splitlines(keepends=True)
    bad, out = tmp_path / "bad.jsonl", tmp_path / "merged.jsonl"
    lines[9] = _flip_signature(lines[9].rstrip(b"\n")) + b"\n"
    bad.write_bytes(b"".join(lines))
    run = cli("merge", duel.path, bad, "-o", out, "--json")
    assert run.code == 1
    merged = json.loads(run.out)
    assert merged["forks"] == []
    assert [d["code"] for d in merged["damaged"]] == ["K001"]
    assert out.read_bytes() == duel.path.read_bytes()
    text = cli("merge", bad, duel.path, "-o", tmp_path / "merged2.jsonl").out
    assert "[K001]" in text and "[C006]" not in text


def test_merge_cli_gaps_in_both_copies_is_clean_in_either_order(cli: Cli, duel: Table, tmp_path: Path) -> None:
    lines = duel.path.read_bytes().splitlines(keepends=True)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_bytes(b"".join(_without(lines, 6)))
    b.write_bytes(b"".join(_without(lines, 11)))
    for first, second, out in ((a, b, "ab.jsonl"), (b, a, "ba.jsonl")):
        merged = json.loads(cli("merge", first, second, "-o", tmp_path / out, "--json").out)
        assert merged["forks"] == merged["damaged"] == merged["unplaced"] == []
        assert merged["verification"]["valid"] is True
    assert (tmp_path / "ab.jsonl").read_bytes() == (tmp_path / "ba.jsonl").read_bytes()
    assert cli("verify", tmp_path / "ab.jsonl").code == 0


def test_merge_that_cannot_place_entries_writes_nothing(cli: Cli, duel: Table, tmp_path: Path) -> None:
    """Both copies lack the same middle entry: the later ones cannot be placed; the merge refuses."""
    lines = duel.path.read_bytes().splitlines(keepends=True)
    a, b, out = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "merged.jsonl"
    a.write_bytes(b"".join(_without(lines, 8)))
    b.write_bytes(b"".join(_without(lines, 8, 12)))
    run = cli("merge", a, b, "-o", out, "--json")
    assert run.code == 1
    merged = json.loads(run.out)
    assert merged["unplaced"]
    assert not out.exists()
    assert not list(tmp_path.glob(".merged*"))  # no temporary file left behind either
