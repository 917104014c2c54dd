"""The log file on disk: read it, lock it, append durably, repair only a torn last line.

Persistence properties relied on (PROTOCOL.md §9): ``fsync`` of a file makes its written bytes durable;
``link``/``rename`` within a directory is atomic and durable once the directory is fsynced. Nothing else
(not even that appends persist in order) is assumed.

The rule is *sign → append + fsync → only then send*: :meth:`LogStore.append` returns only after fsync,
and an fsync error marks the log read-only (retrying fsync after a failure is unsafe: Linux may have
dropped the dirty pages and a second fsync "succeeds").
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import glob
import os
import stat
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import StorageError

__all__ = [
    "LogStore",
    "TornTail",
    "conflicted_siblings",
    "read_log",
    "read_regular_file",
    "write_file",
    "write_new_file",
]

LOCK_TIMEOUT_SECONDS = 30.0


@dataclass(frozen=True)
class TornTail:
    """An incomplete final line: its bytes, and where they were set aside (None when only read)."""

    data: bytes
    saved_to: Path | None

    @property
    def damaged_entry(self) -> bool:
        """Whether the tail is a whole JSON object followed by stray bytes (a damaged final newline, say)
        rather than the prefix of a line that a crash cut short: then an entry that was written is lost."""
        import json

        try:
            text = self.data.decode("utf-8").lstrip()
            value, end = json.JSONDecoder().raw_decode(text)
        except (UnicodeDecodeError, ValueError, RecursionError):
            return False
        return isinstance(value, dict) and bool(text[end:].strip())


def _fsync(fd: int) -> None:
    if sys.platform == "darwin":  # plain fsync does not flush the drive cache on macOS
        fcntl.fcntl(fd, fcntl.F_FULLFSYNC)
    else:
        os.fsync(fd)


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        _fsync(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.EIO, "short write")
        view = view[written:]


def write_new_file(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    """Create ``path`` holding ``data``, atomically and durably; never overwrite.

    The data goes to a temporary file in the same directory, which is fsynced and then hard-linked to
    ``path`` (link fails if ``path`` exists, so there is no check-then-create race).

    Raises:
        StorageError: F004 if ``path`` exists, F002 if any write fails.
    """
    directory = path.parent if str(path.parent) else Path(".")
    tmp = directory / f".{path.name}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            os.fchmod(fd, mode)  # the umask must not widen or narrow a key file's mode
            _write_all(fd, data)
            _fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise StorageError("F004", f"{path} exists; pbem never overwrites a file") from None
        _fsync_dir(directory)
    except StorageError:
        raise
    except OSError as exc:
        raise StorageError("F002", f"cannot write {path}: {exc.strerror or exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def write_file(path: Path, data: bytes, *, replace: bool = False) -> None:
    """Write ``path`` atomically and durably: readers see the old file or the whole new one, never a part.

    Without ``replace`` an existing file is refused (as :func:`write_new_file`); with it, the new file takes its
    place in one rename.

    Raises:
        StorageError: F004 if ``path`` exists and ``replace`` is False, F002 if any write fails.
    """
    if not replace:
        write_new_file(path, data)
        return
    directory = path.parent if str(path.parent) else Path(".")
    tmp = directory / f".{path.name}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            _write_all(fd, data)
            _fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        _fsync_dir(directory)
    except OSError as exc:
        raise StorageError("F002", f"cannot write {path}: {exc.strerror or exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _split(data: bytes) -> tuple[list[bytes], bytes]:
    """Complete lines (without their newline, blank ones kept so numbers match the file) and the rest."""
    end = data.rfind(b"\n") + 1
    return data[:end].split(b"\n")[:-1], data[end:]


def read_regular_file(path: Path, what: str = "") -> bytes:
    """The bytes of ``path``, which must be a regular file: a device (a symlink to /dev/zero), a FIFO or a
    directory is refused at once instead of hanging the command or failing obscurely.

    Raises:
        StorageError: F001 if the file cannot be read or is not a regular file.
    """
    name = f"{what} {path}" if what else str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        raise StorageError("F001", f"cannot read {name}: {exc.strerror or exc}") from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise StorageError("F001", f"cannot read {name}: not a regular file")
        with os.fdopen(os.dup(fd), "rb") as file:
            return file.read()
    except OSError as exc:
        raise StorageError("F001", f"cannot read {name}: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)


def read_log(path: Path) -> tuple[list[bytes], TornTail | None]:
    """Read a log without locking or changing it.

    A final line without a newline is reported as torn unless it is a complete JSON object (a copy
    that merely lacks its last newline, as email often leaves it).

    Raises:
        StorageError: F001 if the file cannot be read.
    """
    data = read_regular_file(path)
    lines, rest = _split(data)
    if not rest.strip():
        return lines, None
    if _is_complete(rest):
        return [*lines, rest], None
    return lines, TornTail(rest, None)


def _is_complete(rest: bytes) -> bool:
    from pbem.errors import LogFormatError
    from pbem.log.canon import parse_line

    try:
        parse_line(rest)
    except LogFormatError:
        return False
    return True


class LogStore:
    """A log file opened for appending under an exclusive lock; use :meth:`open` as a context manager.

    Attributes:
        path: the log file.
        lines: its complete lines, after any torn tail was set aside.
        torn: the torn tail that opening set aside, if any.
    """

    def __init__(self, path: Path, fd: int, lines: list[bytes], torn: TornTail | None):
        self.path = path
        self._fd = fd
        self.lines = lines
        self.torn = torn

    @property
    def readonly_marker(self) -> Path:
        return self.path.with_name(self.path.name + ".readonly")

    @classmethod
    @contextlib.contextmanager
    def open(cls, path: Path, *, timeout: float = LOCK_TIMEOUT_SECONDS) -> Iterator[LogStore]:
        """Lock ``path`` exclusively, repair a torn tail, and yield the store.

        Raises:
            StorageError: F001 unreadable, F003 marked read-only, F006 lock not obtained in time.
        """
        marker = path.with_name(path.name + ".readonly")
        if marker.exists():
            raise StorageError(
                "F003",
                f"{path} is read-only since a write failed ({marker}); verify it, restore it from a peer "
                "if needed, then delete the marker",
            )
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND)
        except OSError as exc:
            raise StorageError("F001", f"cannot open {path}: {exc.strerror or exc}") from exc
        try:
            _lock(fd, path, timeout)
            store = cls(path, fd, [], None)
            store._load_and_repair()
            yield store
        finally:
            os.close(fd)  # closing releases the flock

    def _load_and_repair(self) -> None:
        size = os.fstat(self._fd).st_size
        data = os.pread(self._fd, size, 0) if size else b""
        lines, rest = _split(data)
        if rest.strip() and _is_complete(rest):
            self._durable_write(b"\n")  # a complete last line that only lacks its newline
            lines.append(rest)
            rest = b""
        if rest:
            saved = self.path.with_name(f"{self.path.name}.torn-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}")
            write_new_file(saved, rest)
            try:
                os.ftruncate(self._fd, size - len(rest))
                _fsync(self._fd)
            except OSError as exc:
                self._mark_readonly()
                raise StorageError("F002", f"cannot truncate torn tail of {self.path}: {exc}") from exc
            self.torn = TornTail(rest, saved)
        self.lines = lines

    def append(self, line: bytes) -> None:
        """Append one line and make it durable before returning.

        Raises:
            StorageError: F002 if the write or fsync fails; the log is then marked read-only.
        """
        if b"\n" in line:
            raise ValueError("a log line cannot contain a newline")
        self._durable_write(line + b"\n")
        self.lines.append(line)

    def extend(self, lines: list[bytes]) -> None:
        """Append several lines in one write and one fsync (an imported packet).

        A crash can leave only a torn last line, which the next open sets aside; every complete line is an
        entry that was verified before the write.

        Raises:
            StorageError: F002 if the write or fsync fails; the log is then marked read-only.
        """
        if any(b"\n" in line for line in lines):
            raise ValueError("a log line cannot contain a newline")
        self._durable_write(b"".join(line + b"\n" for line in lines))
        self.lines.extend(lines)

    def _durable_write(self, data: bytes) -> None:
        try:
            _write_all(self._fd, data)
            _fsync(self._fd)
        except OSError as exc:
            self._mark_readonly()
            raise StorageError(
                "F002", f"writing {self.path} failed ({exc.strerror or exc}); nothing was acknowledged"
            ) from exc

    def _mark_readonly(self) -> None:
        # Best effort and deliberately without fsync: the disk has just failed us.
        with contextlib.suppress(OSError):
            fd = os.open(self.readonly_marker, os.O_WRONLY | os.O_CREAT, 0o644)
            try:
                os.write(fd, b"a write or fsync of the log failed (F002): verify it before deleting this file\n")
            finally:
                os.close(fd)


def _lock(fd: int, path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise StorageError("F006", f"{path} is locked by another pbem process") from None
            time.sleep(0.02)


def conflicted_siblings(path: Path) -> list[Path]:
    """Copies that sync tools made beside ``path`` after a conflict ("game (conflicted copy).jsonl",
    "game.sync-conflict-….jsonl", "game (1).jsonl"): merge them with ``pbem merge`` to surface any fork."""
    stem, suffix = path.stem, path.suffix
    found = []
    for sibling in sorted(path.parent.glob(f"{glob.escape(stem)}*{glob.escape(suffix)}")):
        rest = sibling.name[len(stem) : len(sibling.name) - len(suffix)]
        if sibling != path and ("conflict" in rest.lower() or rest.strip().startswith("(")):
            found.append(sibling)
    return found
