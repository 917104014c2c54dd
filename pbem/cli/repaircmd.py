"""``pbem repair``: recover a damaged log without losing a byte."""

from __future__ import annotations

from typing import Any

from pbem.cli._common import DataOpt, JsonOpt, LogArg, console, data_provider, emit_json
from pbem.errors import PbemError

__all__ = ["repair"]


def repair(log: LogArg, data: DataOpt = None, as_json: JsonOpt = False) -> None:
    """Keep the longest valid prefix of a damaged log and set the rest aside (never deleting a byte).

    Fixes a torn last line, a corrupted line, a byte order mark and CRLF line ends. The original file is kept
    whole in LOG.original-DATE and the cut-off lines in LOG.aside-DATE; get the lost entries back from the
    other players (their pbem export LOG --all, imported with pbem import). Exit code 0 when the log is valid
    afterwards, 1 if not even its genesis could be kept.
    """
    from pbem.client.repair import repair_log
    from pbem.log.entry import entry_count
    from pbem.text import plural

    done = repair_log(log, data_provider=data_provider(data))
    if not done.kept:
        reason = done.reason
        raise PbemError(
            reason.code if reason else "C001",
            f"{log}: not even its first entry (the game's genesis) is intact"
            f"{f' ({reason.render()})' if reason else ''}; nothing can be kept: ask another player for the whole "
            f"log (pbem export LOG --all) and import it into a new file (pbem import NEW-LOG THEIR-FILE)",
        )
    if as_json:
        info: dict[str, Any] = {
            "log": str(log), "changed": done.changed, "kept": len(done.kept), "lost": done.lost,
            "cut_at": done.cut_at, "reason": None if done.reason is None else done.reason.model_dump(mode="json"),
            "normalised": done.normalised, "backup": done.backup and str(done.backup),
            "aside": done.aside_file and str(done.aside_file),
        }  # fmt: skip
        emit_json(info)
        return
    if not done.changed:
        console.print(f"{log} is a clean, valid log of {entry_count(len(done.kept))}: nothing to repair")
        return
    console.print(f"repaired {log}: kept {entry_count(len(done.kept))}, which verify")
    if done.normalised:
        console.print(f"fixed: {', '.join(done.normalised)}")
    if done.cut_at is not None:
        why = f" ({done.reason.render()})" if done.reason else ""
        console.print(
            f"set aside {plural(done.lost, 'line')} from line {done.cut_at} on{why} in {done.aside_file}", markup=False
        )
    console.print(f"the original file is kept whole in {done.backup}", markup=False)
    if done.lost:
        console.print(
            "to get the lost entries back, import them from another player: the last packet they sent you "
            f"(pbem import {log} SAVED-MAIL), or ask them to run pbem export LOG --all (or pbem mail LOG --to YOU "
            f"--all -o FILE.eml) and import that (pbem import {log} THEIR-FILE)",
            markup=False,
        )
