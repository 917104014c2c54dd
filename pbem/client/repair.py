"""Recovering a damaged log: keep its longest valid prefix, set the rest aside, never delete a byte.

Damage seen in practice: a torn last line (a crash or a full disk mid-write), a corrupted line in the middle
(a bad sector, a careless edit), a UTF-8 byte order mark an editor put in front, CRLF line ends from an
editor or a mail client. Entries are verified over their canonical form, so line ends, a BOM and surrounding
whitespace are normalised away; a line that does not parse or verify ends the prefix.

The whole original file is first copied, byte for byte, to a dated backup beside the log; the bytes after the
kept prefix also go to a dated "aside" file so a player can see exactly what was cut. The log is then replaced
atomically by the canonical prefix, which verifies. What is lost comes back from the other players: their
``pbem export LOG --all`` (or the last packet they sent) imported with ``pbem import``.
"""

from __future__ import annotations

import fcntl
import os
import time
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import LogFormatError, StorageError
from pbem.log.entry import envelope
from pbem.log.store import write_file, write_new_file
from pbem.replay.game import DataProvider, builtin_data
from pbem.verify.findings import Finding
from pbem.verify.pipeline import verify_lines

__all__ = ["Repair", "plan_repair", "repair_log"]

_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Repair:
    """What repairing a log does (or did): the kept entries, the cut, and the files that keep every byte."""

    kept: list[bytes]
    """The canonical lines of the longest valid prefix."""
    lost: int
    """Lines (blank ones aside) set aside, a torn tail counted as one."""
    cut_at: int | None
    """The first line not kept (1-based), or None if every line is kept."""
    reason: Finding | None
    """Why the prefix ends there (the first finding of the first line not kept)."""
    aside: bytes
    """The file's bytes from the first line not kept to the end."""
    normalised: list[str]
    """Cosmetic damage fixed in the kept lines: "byte order mark", "CRLF line ends", "non-canonical lines"."""
    changed: bool
    """False if the file is already a clean, canonical, valid log: nothing to do."""
    backup: Path | None = None
    aside_file: Path | None = None


def _line_spans(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of every line, the newline excluded; a last line without a newline included."""
    spans = []
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        if end < 0:
            spans.append((start, len(data)))
            break
        spans.append((start, end))
        start = end + 1
    return spans


def _first_bad(lines: list[bytes]) -> tuple[int, Finding | None]:
    """The number of lines before the first one that does not parse (all of them if none)."""
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            envelope(line)
        except LogFormatError as exc:
            return index, Finding.from_error(exc, line=index + 1)
    return len(lines), None


def plan_repair(data: bytes, *, data_provider: DataProvider = builtin_data) -> Repair:
    """Work out the repair of a log's bytes without writing anything."""
    normalised: list[str] = []
    body = data
    if body.startswith(_BOM):
        body = body[len(_BOM) :]
        normalised.append("byte order mark")
    offset = len(data) - len(body)
    spans = _line_spans(body)
    raw = [body[s:e] for s, e in spans]
    if any(line.endswith(b"\r") for line in raw):
        normalised.append("CRLF line ends")
    count, reason = _first_bad(raw)
    while count:
        report, _ = verify_lines(raw[:count], data_provider=data_provider)
        first = report.first_error
        if report.valid or first is None:
            break
        count, reason = (first.line or 1) - 1, first  # no line: the prefix holds no genesis at all
    kept = [envelope(line).line for line in raw[:count] if line.strip()]
    if kept != [line.strip(b" \t\r") for line in raw[:count] if line.strip()]:
        normalised.append("non-canonical lines")
    if count == len(raw) and body and not body.endswith(b"\n"):
        normalised.append("missing final newline")
    cut = spans[count][0] + offset if count < len(spans) else len(data)
    changed = bool(normalised) or cut < len(data) or len(kept) != count
    return Repair(
        kept=kept,
        lost=sum(1 for line in raw[count:] if line.strip()),
        cut_at=None if count >= len(raw) else count + 1,
        reason=reason if count < len(raw) else None,
        aside=data[cut:],
        normalised=normalised,
        changed=changed,
    )


def _write_dated(path: Path, kind: str, data: bytes) -> Path:
    """Write ``data`` to a new ``LOG.KIND-DATE`` beside the log (``-2``, ``-3``… if repaired twice a second)."""
    stamp = time.strftime("%Y%m%dT%H%M%S")
    for attempt in range(1, 100):
        target = path.with_name(f"{path.name}.{kind}-{stamp}{'' if attempt == 1 else f'-{attempt}'}")
        try:
            write_new_file(target, data)
        except StorageError as exc:
            if exc.code.id != "F004":
                raise
            continue
        return target
    raise StorageError("F004", f"too many {kind} files named {path.name}.{kind}-{stamp}: move some away")


def repair_log(path: Path, *, data_provider: DataProvider = builtin_data) -> Repair:
    """Repair the log at ``path`` in place (see the module docstring); the result names the files written.

    Raises:
        StorageError: F001 unreadable, F006 locked by another pbem process, F002 a write failed (the log is
            then unchanged: the backup is written first and the log replaced in one rename).
    """
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise StorageError("F001", f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the same lock every pbem writer takes
        except BlockingIOError:
            raise StorageError("F006", f"{path} is locked by another pbem process") from None
        data = path.read_bytes()
        plan = plan_repair(data, data_provider=data_provider)
        if not plan.changed or not plan.kept:
            return plan
        backup = _write_dated(path, "original", data)
        aside_file = _write_dated(path, "aside", plan.aside) if plan.aside else None
        write_file(path, b"".join(line + b"\n" for line in plan.kept), replace=True)
    finally:
        os.close(fd)
    return Repair(**{**plan.__dict__, "backup": backup, "aside_file": aside_file})
