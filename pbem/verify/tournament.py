"""Tournament verification: every log in a folder, on every core, checked against a roster of player keys.

One log that cannot even be read yields a row saying so; it never stops the others. Rows come back in file
name order whatever order the workers finish in.

When the folder holds several copies of one game (each player submitted theirs), the copies that verify are
also compared with each other as ``pbem merge`` does: two entries one seat signed with the same sequence
number mark both copies ``forked`` and name that seat, and a copy that lacks entries every seat co-signed
a checkpoint over is ``truncated``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Container, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field, replace
from itertools import combinations
from pathlib import Path
from typing import Literal

from pbem.errors import PbemError, UsageError
from pbem.log.entry import JoinEntry, envelope, validate
from pbem.log.keys import parse_public
from pbem.log.sign import PublicKey
from pbem.log.store import read_log
from pbem.verify.merge import merge_lines
from pbem.verify.pipeline import verify_lines

__all__ = ["GameRow", "Roster", "compare_copies", "verify_folder", "verify_one"]

Verdict = Literal["valid", "invalid", "unreadable", "unregistered", "forked", "truncated"]


@dataclass(frozen=True)
class Roster:
    """Registered players: fingerprint (OpenSSH ``SHA256:``) → name."""

    players: dict[str, str]

    @classmethod
    def load(cls, path: Path) -> Roster:
        """A JSON roster: ``{"players": [{"name": "Alice", "key": "ssh-ed25519 AAAA… | 64 hex | SHA256:…"}]}``.

        Raises:
            UsageError: U003 if the file or an entry is malformed.
        """
        try:
            entries = json.loads(path.read_text())["players"]
            players = {}
            for entry in entries:
                key, name = str(entry["key"]).strip(), str(entry["name"])
                fingerprint = key if key.startswith("SHA256:") else parse_public(key.encode(), name).fingerprint
                players[fingerprint] = name
        except (OSError, ValueError, KeyError, TypeError, PbemError) as exc:
            raise UsageError("U003", f"{path} is not a roster ({exc})") from exc
        return cls(players)


@dataclass(frozen=True)
class GameRow:
    """One log's line in the tournament table."""

    file: str
    verdict: Verdict
    game: str | None = None
    title: str = ""
    scenario: str | None = None
    players: list[str] = field(default_factory=list)
    result: str | None = None
    entries: int = 0
    first_error: str | None = None
    worker: int = 0
    """The process that verified it (to show that every core took part)."""


def signed_names(lines: Sequence[bytes], accepted: Container[str]) -> dict[str, str]:
    """The names players signed in their join entries, by seat (what reports call them without a roster).

    Only entries the verifier ``accepted`` count: a forged join must not put a name in the table.
    """
    names: dict[str, str] = {}
    for line in lines:
        if b'"join"' not in line:
            continue
        try:
            env = envelope(line)
            entry = validate(env.raw)
        except PbemError:
            continue
        if env.id in accepted and isinstance(entry, JoinEntry) and entry.body.name is not None:
            names.setdefault(entry.author, entry.body.name)
    return names


def verify_one(path: Path, roster: Roster | None = None) -> GameRow:
    """Verify one log; never raises for a bad log (the row says what is wrong)."""
    try:
        lines, torn = read_log(path)
        report, verifier = verify_lines(lines, torn=torn)
        names = signed_names(lines, verifier.game.entries) if verifier.game is not None else {}
    except PbemError as exc:
        return GameRow(path.name, "unreadable", first_error=exc.render(), worker=os.getpid())
    except Exception as exc:  # one log must never stop the other games: its row reports the bug and where
        where = "; ".join(getattr(exc, "__notes__", ())) or "while reading the log"
        return GameRow(path.name, "unreadable", first_error=f"internal error {where}: {exc!r}", worker=os.getpid())
    game = verifier.game
    first = report.first_error
    players: list[str] = []
    unregistered: list[str] = []
    if game is not None:
        for seat in game.genesis.body.roster:
            fingerprint = PublicKey.from_hex(seat.key).fingerprint
            name = roster.players.get(fingerprint) if roster is not None else None
            players.append(f"{seat.seat}: {name or names.get(seat.seat) or fingerprint}")  # the roster's, else signed
            if roster is not None and name is None and seat.role == "player":
                unregistered.append(f"{seat.seat} ({fingerprint})")
    verdict: Verdict = "valid" if report.valid else "invalid"
    error = first.render() if first is not None else None
    if verdict == "valid" and unregistered:
        verdict, error = "unregistered", "seats with keys not on the roster: " + ", ".join(unregistered)
    if game is None and not report.valid:
        verdict = "unreadable"
    return GameRow(
        file=path.name,
        verdict=verdict,
        game=report.game,
        title=game.genesis.body.title if game is not None else "",
        scenario=report.scenario,
        players=players,
        result=None if report.result is None else report.result.outcome,
        entries=report.entries,
        first_error=error,
        worker=os.getpid(),
    )


def verify_folder(
    directory: Path,
    *,
    roster: Roster | None = None,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[GameRow]:
    """Verify every ``*.jsonl`` log in ``directory`` with ``jobs`` processes (default: one per core).

    Raises:
        UsageError: U003 if ``directory`` is not a folder.
    """
    if not directory.is_dir():
        raise UsageError("U003", f"{directory} is not a folder")
    logs: Sequence[Path] = sorted(p for p in directory.iterdir() if p.suffix == ".jsonl" and p.is_file())
    workers = max(1, jobs or os.cpu_count() or 1)
    rows: dict[str, GameRow] = {}
    if workers == 1:
        for done, path in enumerate(logs, 1):
            rows[path.name] = verify_one(path, roster)
            if progress is not None:
                progress(done, len(logs))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(verify_one, path, roster) for path in logs]
            for done, future in enumerate(as_completed(futures), 1):
                row = future.result()
                rows[row.file] = row
                if progress is not None:
                    progress(done, len(logs))
    return compare_copies(directory, [rows[p.name] for p in logs])


def compare_copies(directory: Path, rows: list[GameRow]) -> list[GameRow]:
    """``rows`` with forks and truncations between copies of one game (see the module docstring) marked."""
    by_game: dict[str, list[GameRow]] = {}
    for row in rows:
        if row.game is not None and row.verdict in ("valid", "unregistered"):
            by_game.setdefault(row.game, []).append(row)
    findings: dict[str, list[tuple[Verdict, str]]] = {}
    for copies in by_game.values():
        if len(copies) < 2:
            continue  # the usual case: nothing to compare, so no second read of the file
        versions: dict[tuple[bytes, ...], list[str]] = {}  # identical copies are compared once
        for row in copies:
            versions.setdefault(tuple(read_log(directory / row.file)[0]), []).append(row.file)
        for (lines_a, files_a), (lines_b, files_b) in combinations(versions.items(), 2):
            a, b = files_a[0], files_b[0]
            merged = merge_lines(list(lines_a), list(lines_b))
            for fork in merged.forks:
                text = (
                    f"[C006] fork: {fork.author} signed two entries with seq {fork.seq} "
                    f"({fork.first[:12]}… and {fork.second[:12]}…), one in {a}, the other in {b}"
                )
                for name in (*files_a, *files_b):
                    findings.setdefault(name, []).append(("forked", text))
            for cut in merged.truncations:
                short, full = (files_a, b) if cut.copy == "A" else (files_b, a)
                text = (
                    f"[P005] lacks {cut.missing} entries that {full} holds and every seat co-signed "
                    f"(checkpoint {cut.label}): an old or truncated copy"
                )
                for name in short:
                    findings.setdefault(name, []).append(("truncated", text))
    marked = []
    for row in rows:
        found = findings.get(row.file)
        if found:
            verdict: Verdict = "forked" if any(v == "forked" for v, _ in found) else "truncated"
            row = replace(row, verdict=verdict, first_error="; ".join(dict.fromkeys(t for _, t in found)))
        marked.append(row)
    return marked


def as_json(rows: Sequence[GameRow]) -> list[dict[str, object]]:
    return [asdict(row) for row in rows]
