"""Merging two copies of one game: the union of their entries, with fork and truncation proofs.

The union keeps copy A's order and appends B's extra entries in B's order; every entry's ``prev`` and
``deps`` then still come earlier, so the result is a valid file order. Two different entries with one
(author, seq) are a fork (C006); a copy that lacks entries covered by a checkpoint every seat co-signed
was truncated (P005), since every seat, including whoever kept that copy, had signed that it held them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import PbemError
from pbem.log.entry import Envelope, envelope
from pbem.log.store import read_log

__all__ = ["ForkProof", "MergeResult", "TruncationProof", "merge_files", "merge_lines"]


@dataclass(frozen=True)
class ForkProof:
    """Two signed entries of one author with one sequence number."""

    author: str
    seq: int
    first: str
    second: str


@dataclass(frozen=True)
class TruncationProof:
    """Copy ``copy`` lacks ``missing`` entries that checkpoint ``label``, co-signed by every seat, covers.

    Every seat signed that it held those entries, so the copy is either an old one (a backup from before
    the checkpoint) or was cut short: a director asks its keeper which.
    """

    copy: str
    label: str
    missing: int


@dataclass
class MergeResult:
    lines: list[bytes]
    from_a: int
    from_b: int
    added: int
    forks: list[ForkProof] = field(default_factory=list)
    truncations: list[TruncationProof] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.forks or self.truncations or self.unreadable)


def _parse(lines: list[bytes], name: str, unreadable: list[str]) -> list[Envelope]:
    parsed = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            parsed.append(envelope(line))
        except PbemError as exc:
            unreadable.append(f"{name} line {number}: {exc.render()}")
    return parsed


def _covered(heads: dict[str, str], by_id: dict[str, Envelope]) -> set[str]:
    """Every entry reachable from ``heads`` through prev and deps."""
    seen: set[str] = set()
    todo = list(heads.values())
    while todo:
        entry_id = todo.pop()
        if entry_id in seen or entry_id not in by_id:
            continue
        seen.add(entry_id)
        raw = by_id[entry_id].raw
        todo.extend(d for d in raw.get("deps", []) if isinstance(d, str))
        if isinstance(raw.get("prev"), str):
            todo.append(raw["prev"])
    return seen


def merge_lines(a: list[bytes], b: list[bytes]) -> MergeResult:
    """Merge two copies given as lines (see the module docstring)."""
    unreadable: list[str] = []
    first, second = _parse(a, "A", unreadable), _parse(b, "B", unreadable)
    ids_a = {e.id for e in first}
    ids_b = {e.id for e in second}
    union = list({e.id: e for e in first}.values())
    seen = set(ids_a)
    for env in second:
        if env.id not in seen:
            union.append(env)
            seen.add(env.id)
    by_id = {e.id: e for e in union}
    result = MergeResult(
        [e.line for e in union], len(first), len(second), len(union) - len(ids_a), unreadable=unreadable
    )
    slots: dict[tuple[object, object], str] = {}
    for env in union:
        key = (env.raw.get("author"), env.raw.get("seq"))
        if env.raw.get("type") == "genesis":
            continue
        if key in slots and slots[key] != env.id:
            result.forks.append(ForkProof(str(key[0]), int(str(key[1])), slots[key], env.id))
        slots.setdefault(key, env.id)
    seats = {s.get("seat") for s in _roster(union)}
    signers: dict[str, dict[str, Envelope]] = {}
    for env in union:
        body = env.raw.get("body")
        if env.raw.get("type") == "checkpoint" and isinstance(body, dict) and isinstance(body.get("label"), str):
            signers.setdefault(body["label"], {})[str(env.raw.get("author"))] = env
    for label, by_seat in signers.items():
        if set(by_seat) != seats:
            continue  # not final: not every seat has co-signed it
        heads = next(iter(by_seat.values())).raw["body"].get("heads", {})
        covered = _covered(heads if isinstance(heads, dict) else {}, by_id)
        for name, ids in (("A", ids_a), ("B", ids_b)):
            missing = len(covered - ids)
            if missing:
                result.truncations.append(TruncationProof(name, label, missing))
    return result


def _roster(union: list[Envelope]) -> list[dict[str, object]]:
    for env in union:
        body = env.raw.get("body")
        if env.raw.get("type") == "genesis" and isinstance(body, dict) and isinstance(body.get("roster"), list):
            return [s for s in body["roster"] if isinstance(s, dict)]
    return []


def merge_files(a: Path, b: Path) -> MergeResult:
    """Merge the logs at ``a`` and ``b`` (read only)."""
    lines_a, _ = read_log(a)
    lines_b, _ = read_log(b)
    return merge_lines(lines_a, lines_b)
