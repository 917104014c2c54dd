"""Storage faults (research §9 F1-F7): torn writes, kill -9, I/O errors, concurrency, stale and conflicted copies."""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pbem.errors import PbemError, StorageError
from pbem.log.entry import envelope
from pbem.log.store import LogStore, conflicted_siblings, read_log, write_new_file
from pbem.verify.merge import merge_lines
from pbem.verify.pipeline import verify_lines
from tests.helpers import Table, codes

ROOT = Path(__file__).resolve().parents[2]


def finished_duel(directory: Path) -> Table:
    table = Table.start(directory, "duel", rounds=1)
    table.play_out(random.Random(3))
    return table


@pytest.fixture(scope="module")
def game_lines(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    directory = tmp_path_factory.mktemp("store")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_STATE_DIR", str(directory / "state"))
        return finished_duel(directory).lines()


def write(path: Path, lines: list[bytes], tail: bytes = b"") -> None:
    path.write_bytes(b"".join(line + b"\n" for line in lines) + tail)


# --- F1: torn writes ---------------------------------------------------------------------------------


def _torn_offsets(lines: list[bytes], last: int, step: int) -> list[tuple[int, int]]:
    """(index of the line being written, bytes of it that reached the disk) over the last ``last`` lines."""
    return [(i, cut) for i in range(len(lines) - last, len(lines)) for cut in range(0, len(lines[i]) + 1, step)]


@pytest.mark.case("F1")
@pytest.mark.parametrize("step", [1])
def test_f1_torn_tail_at_every_byte_recovers_the_longest_valid_prefix(
    game_lines: list[bytes], tmp_path: Path, step: int
) -> None:
    log = tmp_path / "game.jsonl"
    for index, cut in _torn_offsets(game_lines, last=2, step=step):
        for saved in tmp_path.glob("game.jsonl.torn-*"):
            saved.unlink()
        write(log, game_lines[:index], game_lines[index][:cut])
        expected = game_lines[: index + 1] if cut == len(game_lines[index]) else game_lines[:index]
        lines, torn = read_log(log)
        assert lines == expected and (torn is None) == (cut in (0, len(game_lines[index])))
        with LogStore.open(log) as store:
            assert store.lines == expected
            assert (store.torn is not None) == (0 < cut < len(game_lines[index]))
            if store.torn is not None:
                assert store.torn.saved_to is not None and store.torn.saved_to.read_bytes() == game_lines[index][:cut]
        assert log.read_bytes() == b"".join(line + b"\n" for line in expected)


@pytest.mark.case("F1")
def test_f1_recovered_prefixes_verify(game_lines: list[bytes], tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    for index, cut in _torn_offsets(game_lines, last=3, step=97):
        write(log, game_lines[:index], game_lines[index][:cut])
        with LogStore.open(log) as store:
            report, _ = verify_lines(store.lines)
        assert report.valid, (index, cut, [f.render() for f in report.findings])
        for saved in tmp_path.glob("game.jsonl.torn-*"):
            saved.unlink()


@pytest.mark.case("F1")
def test_f1_damage_before_the_last_line_is_not_repaired(game_lines: list[bytes], tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    damaged = [*game_lines[:5], game_lines[5][:40], *game_lines[6:]]
    write(log, damaged)
    report, _ = verify_lines(read_log(log)[0])
    assert codes(report)[0] == "L003"
    with LogStore.open(log) as store:  # only a torn *last* line is repaired
        assert store.torn is None and store.lines == damaged


@pytest.mark.case("F1")
def test_f1_verify_reports_a_torn_tail_without_changing_the_file(game_lines: list[bytes], tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    write(log, game_lines, game_lines[0][:30])
    before = log.read_bytes()
    lines, torn = read_log(log)
    report, _ = verify_lines(lines, torn=torn)
    assert report.valid and [f.code for f in report.findings] == ["L013"]
    assert log.read_bytes() == before


# --- F2: kill -9 while appending ------------------------------------------------------------------

APPENDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from pbem.log.store import LogStore
    log, source = Path(sys.argv[1]), Path(sys.argv[2])
    lines = source.read_bytes().split(b"\\n")[:-1]
    print("ready", flush=True)
    for line in lines[2:]:
        with LogStore.open(log) as store:
            if line in store.lines:
                continue
            store.append(line)
        sys.stdout.write(f"ack {lines.index(line)}\\n")
        sys.stdout.flush()
    """
)


def kill_loop(game_lines: list[bytes], directory: Path, iterations: int, seed: int) -> int:
    """Start an appender, kill -9 it at a random moment, check every acknowledged line survived."""
    rng = random.Random(seed)
    source, log = directory / "source.jsonl", directory / "game.jsonl"
    write(source, game_lines)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", APPENDER, str(log), str(source)]

    def start() -> subprocess.Popen[bytes]:
        child = subprocess.Popen(command, stdout=subprocess.PIPE, env=env)
        assert child.stdout is not None and child.stdout.readline() == b"ready\n"  # its imports are done
        return child

    write(log, game_lines[:2])
    child = start()
    began = time.monotonic()
    child.communicate()
    appending = time.monotonic() - began  # kill at a uniformly random moment of the appending
    killed_mid_run = 0
    for _ in range(iterations):
        write(log, game_lines[:2])
        for saved in directory.glob("game.jsonl.torn-*"):
            saved.unlink()
        child = start()
        time.sleep(rng.uniform(0, appending))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        complete = out.decode().split("\n")[:-1]  # a kill can cut the last line short: it acknowledges nothing
        acked = [int(line.split()[1]) for line in complete if line.startswith("ack ")]
        killed_mid_run += 0 < len(acked) < len(game_lines) - 2
        with LogStore.open(log) as store:
            lines = store.lines
        assert lines == game_lines[: len(lines)], "recovered lines are not a prefix of what was appended"
        assert all(game_lines[i] in lines for i in acked), "an acknowledged entry was lost"
        assert verify_lines(lines)[0].valid
    return killed_mid_run


@pytest.mark.case("F2")
def test_f2_kill_9_during_append_never_loses_an_acknowledged_entry(game_lines: list[bytes], tmp_path: Path) -> None:
    assert kill_loop(game_lines, tmp_path, iterations=12, seed=1) >= 1


@pytest.mark.slow
@pytest.mark.case("F2")
def test_f2_kill_9_loop_1000_iterations(game_lines: list[bytes], tmp_path: Path) -> None:
    assert kill_loop(game_lines, tmp_path, iterations=1000, seed=2) >= 100


# --- F3: I/O errors -------------------------------------------------------------------------------


def _table_in_setup(tmp_path: Path) -> Table:
    table = Table.start(tmp_path, "duel", rounds=1)
    return table


@pytest.mark.case("F3")
@pytest.mark.parametrize("errno_", [errno.EIO, errno.ENOSPC])
def test_f3_fsync_error_aborts_and_marks_the_log_read_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, errno_: int
) -> None:
    table = _table_in_setup(tmp_path)

    def failing_fsync(fd: int) -> None:
        raise OSError(errno_, os.strerror(errno_))

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(StorageError) as raised:
        table.act("red", {"action": "choose_reserve", "value": 1})
    assert raised.value.code.id == "F002"
    monkeypatch.undo()
    assert (tmp_path / "game.jsonl.readonly").exists()
    with pytest.raises(StorageError) as again:
        table.act("red", {"action": "choose_reserve", "value": 1})
    assert again.value.code.id == "F003"


@pytest.mark.case("F3")
def test_f3_short_write_then_error_leaves_a_recoverable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table_in_setup(tmp_path)
    before = table.lines()
    real_write = os.write

    def short_write(fd: int, data: bytes | memoryview) -> int:
        if len(data) > 20:
            real_write(fd, bytes(data[:20]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", short_write)
    with pytest.raises(StorageError) as raised:
        table.act("red", {"action": "choose_reserve", "value": 1})
    assert raised.value.code.id == "F002"
    monkeypatch.undo()
    (tmp_path / "game.jsonl.readonly").unlink()  # the player checked the disk and clears the marker
    with LogStore.open(table.path) as store:
        assert store.lines == before and store.torn is not None
    table.act("red", {"action": "choose_reserve", "value": 1})
    assert table.verify().valid


@pytest.mark.case("F3")
def test_f3_write_new_file_never_overwrites_and_never_leaves_a_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.jsonl"
    write_new_file(target, b"one\n")
    with pytest.raises(StorageError) as exists:
        write_new_file(target, b"two\n")
    assert exists.value.code.id == "F004" and target.read_bytes() == b"one\n"

    def failing_fsync(fd: int) -> None:
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(StorageError) as failed:
        write_new_file(tmp_path / "new.jsonl", b"data\n")
    assert failed.value.code.id == "F002"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]


# --- F4: concurrent writers -----------------------------------------------------------------------

RACER = textwrap.dedent(
    """
    import sys, random
    from pathlib import Path
    from tests.helpers import Table, test_key
    from pbem.errors import PbemError
    table = Table(Path(sys.argv[1]), {s: test_key(s) for s in ("red", "blue")})
    table.clock.tick = int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]))
    for _ in range(40):
        for seat in ("red", "blue"):
            try:
                with table.session(seat) as session:
                    session.do_owed()
                    legal = session.legal()
                    if legal:
                        session.act([rng.choice(legal)])
            except PbemError as exc:
                print("refused", exc.code.id, flush=True)
    """
)


@pytest.mark.case("F4")
def test_f4_two_concurrent_writers_never_write_the_same_seq(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel", rounds=2)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    racers = [
        subprocess.Popen([sys.executable, "-c", RACER, str(table.path), str(1000 * (n + 1)), str(n)],
                         stdout=subprocess.PIPE, env=env, cwd=ROOT)
        for n in range(2)
    ]  # fmt: skip
    outputs = [r.communicate(timeout=300)[0].decode() for r in racers]
    assert all(r.returncode == 0 for r in racers), outputs
    lines = table.lines()
    seen = [(json.loads(line).get("author"), json.loads(line).get("seq")) for line in lines[1:]]
    assert len(seen) == len(set(seen)), "two entries with one (author, seq)"
    report, _ = verify_lines(lines)
    assert report.valid, [f.render() for f in report.findings]
    assert report.result is not None  # the racers played the game to its end between them


@pytest.mark.case("F4")
def test_f4_a_held_lock_makes_the_other_writer_wait_then_fail(game_lines: list[bytes], tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    write(log, game_lines)
    with LogStore.open(log), pytest.raises(StorageError) as locked, LogStore.open(log, timeout=0.2):
        pass
    assert locked.value.code.id == "F006"


# --- F5-F7: stale copies, sync conflicts, email ---------------------------------------------------------


@pytest.mark.case("F5")
def test_f5_signing_on_a_restored_backup_is_refused(tmp_path: Path) -> None:
    table = _table_in_setup(tmp_path)
    backup = tmp_path / "backup.jsonl"
    shutil.copyfile(table.path, backup)
    table.act("red", {"action": "choose_reserve", "value": 1})
    shutil.copyfile(backup, table.path)  # the player restores yesterday's copy
    with pytest.raises(StorageError) as stale:
        table.act("red", {"action": "choose_reserve", "value": 3})
    assert stale.value.code.id == "F005"


@pytest.mark.case("F6")
def test_f6_conflicted_copy_is_detected_and_its_fork_surfaced(tmp_path: Path) -> None:
    table = _table_in_setup(tmp_path)
    conflicted = tmp_path / "game (conflicted copy 2026-01-02).jsonl"
    shutil.copyfile(table.path, conflicted)
    table.act("red", {"action": "choose_reserve", "value": 1})
    other = Table(conflicted, table.keys)
    other.clock.tick = 5000
    os.environ["PBEM_STATE_DIR"] = str(tmp_path / "second-device")  # the other device has its own record
    other.act("red", {"action": "choose_reserve", "value": 2})
    assert conflicted_siblings(table.path) == [conflicted]
    result = merge_lines(table.lines(), other.lines())
    assert [(f.author, f.seq) for f in result.forks] == [("red", 1)]


@pytest.mark.case("F7")
def test_f7_email_mangled_copy_verifies_and_merges_back_to_canonical_lines(game_lines: list[bytes]) -> None:
    mangled = [
        json.dumps(json.loads(line), indent=None, separators=(", ", ": ")).encode() + b"   \r" for line in game_lines
    ]
    report, _ = verify_lines(mangled)
    assert report.valid
    result = merge_lines(mangled, [])
    assert result.lines == game_lines  # stored canonically again
    assert [envelope(line).id for line in mangled] == [envelope(line).id for line in game_lines]


def test_pbem_error_codes_are_stable_for_storage() -> None:
    assert {StorageError("F002", "x").code.slug, PbemError("F005", "y").code.slug} == {"write-failed", "stale-copy"}
