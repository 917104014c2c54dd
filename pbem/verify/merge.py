"""Merging two copies of one game: the union of their entries in causal order, with fork and truncation proofs.

The union is ordered topologically by each entry's ``prev`` and ``deps`` (its vector clock), so an entry
always follows everything it builds on, whatever the order of the two copies or where each has gaps. Ties
between entries that do not depend on each other are broken by their earliest position in either copy, then
by id: the same two copies give the same file in either argument order, and a copy merged with an older
prefix of itself comes out byte for byte as it was.

An entry whose signature does not verify is damaged (or forged), not a fork: it is left out and named with the
verifier's own code (K001...), never C006, which would accuse its seat of equivocation. Two different
entries with valid signatures and one (author, seq) are a fork (C006); a copy that lacks entries covered by
a checkpoint every seat co-signed was truncated (P005), since every seat, including whoever kept that copy,
had signed that it held them.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import PbemError
from pbem.log.entry import Envelope, envelope
from pbem.log.store import read_log
from pbem.verify.pipeline import Verifier

__all__ = ["DamagedEntry", "ForkProof", "MergeResult", "TruncationProof", "merge_files", "merge_lines"]

# Findings of the key step: the entry itself is damaged or forged, whatever the rest of the copy holds.
_SIGNATURE_CODES = frozenset({"K001", "K002", "K004", "K005"})


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


@dataclass(frozen=True)
class DamagedEntry:
    """An entry of copy ``copy`` at ``line`` that fails its signature check; it is left out of the union."""

    copy: str
    line: int
    code: str
    entry: str
    author: str | None
    seq: int | None
    message: str


@dataclass
class MergeResult:
    lines: list[bytes]
    from_a: int
    from_b: int
    added: int
    forks: list[ForkProof] = field(default_factory=list)
    truncations: list[TruncationProof] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    damaged: list[DamagedEntry] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)
    """Entries that build on an entry neither copy holds: they cannot be placed and are left out."""

    @property
    def clean(self) -> bool:
        return not (self.forks or self.truncations or self.unreadable or self.damaged or self.unplaced)


def _parse(lines: list[bytes], name: str, unreadable: list[str]) -> list[tuple[int, Envelope]]:
    parsed = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            parsed.append((number, envelope(line)))
        except PbemError as exc:
            unreadable.append(f"{name} line {number}: {exc.render()}")
    return parsed


def _damaged(lines: list[bytes], name: str) -> dict[int, DamagedEntry]:
    """Entries of one copy whose signature (or signing key) does not check, by line number.

    By line, not id: an entry's id hashes what it signs, not its signature, so a good copy of the entry in the
    other file has the same id and must still be taken.

    Only the signature step is asked (rules off): a damaged entry makes every later entry of its author fail the
    chain check, but those later entries are sound and may be placed from the other copy.
    """
    verifier = Verifier(rules=False)
    found: dict[int, DamagedEntry] = {}
    for number, line in enumerate(lines, 1):
        for finding in verifier.feed(line, number):
            if finding.code in _SIGNATURE_CODES and finding.entry is not None:
                found[number] = DamagedEntry(
                    name, number, finding.code, finding.entry, finding.author, finding.seq, finding.message
                )
    return found


def _links(env: Envelope) -> list[str]:
    raw = env.raw
    links = [d for d in raw.get("deps", []) or [] if isinstance(d, str)]
    if isinstance(raw.get("prev"), str):
        links.append(str(raw["prev"]))
    return links


def _causal_order(union: dict[str, Envelope], rank: dict[str, int]) -> tuple[list[Envelope], list[str]]:
    """Kahn's topological sort over prev/deps links, ties by (rank, id); returns the order and what is left."""
    waiting: dict[str, set[str]] = {}
    children: dict[str, list[str]] = {}
    for entry_id, env in union.items():
        needs = {link for link in _links(env) if link != entry_id}  # a link held by neither copy is never met
        waiting[entry_id] = needs
        for link in needs:
            children.setdefault(link, []).append(entry_id)
    ready = [(rank[i], i) for i, needs in waiting.items() if not needs]
    heapq.heapify(ready)
    order: list[Envelope] = []
    while ready:
        _, entry_id = heapq.heappop(ready)
        order.append(union[entry_id])
        for child in children.get(entry_id, []):
            waiting[child].discard(entry_id)
            if not waiting[child]:
                heapq.heappush(ready, (rank[child], child))
    placed = {e.id for e in order}
    return order, sorted(i for i in union if i not in placed)


def _covered(heads: dict[str, str], by_id: dict[str, Envelope]) -> set[str]:
    """Every entry reachable from ``heads`` through prev and deps."""
    seen: set[str] = set()
    todo = list(heads.values())
    while todo:
        entry_id = todo.pop()
        if entry_id in seen or entry_id not in by_id:
            continue
        seen.add(entry_id)
        todo.extend(_links(by_id[entry_id]))
    return seen


def _missing_dependencies(union: dict[str, Envelope], unplaced: list[str]) -> list[str]:
    missing: set[str] = set()
    for entry_id in unplaced:
        missing.update(link for link in _links(union[entry_id]) if link not in union)
    return sorted(missing)


def merge_lines(a: list[bytes], b: list[bytes]) -> MergeResult:
    """Merge two copies given as lines (see the module docstring)."""
    unreadable: list[str] = []
    first, second = _parse(a, "A", unreadable), _parse(b, "B", unreadable)
    damaged = {"A": _damaged(a, "A"), "B": _damaged(b, "B")}
    ids_a = {e.id for _, e in first}
    ids_b = {e.id for _, e in second}
    union: dict[str, Envelope] = {}
    rank: dict[str, int] = {}
    for name, copy in (("A", first), ("B", second)):
        for position, (number, env) in enumerate(copy):
            if number in damaged[name]:
                continue
            union.setdefault(env.id, env)
            rank[env.id] = min(rank.get(env.id, position), position)
    order, unplaced_ids = _causal_order(union, rank)
    unplaced = [
        f"{union[i].raw.get('author')}#{union[i].raw.get('seq')} ({i[:12]}…) builds on entries neither copy holds"
        for i in unplaced_ids
    ]
    if unplaced_ids:
        absent = ", ".join(f"{m[:12]}…" for m in _missing_dependencies(union, unplaced_ids))
        unplaced.append(f"missing from both copies: {absent}")
    result = MergeResult(
        [e.line for e in order],
        len(first),
        len(second),
        len(set(union) - ids_a),
        unreadable=unreadable,
        damaged=[*damaged["A"].values(), *damaged["B"].values()],
        unplaced=unplaced,
    )
    slots: dict[tuple[object, object], str] = {}
    for env in order:
        key = (env.raw.get("author"), env.raw.get("seq"))
        if env.raw.get("type") == "genesis":
            continue
        if key in slots and slots[key] != env.id:
            result.forks.append(ForkProof(str(key[0]), int(str(key[1])), slots[key], env.id))
        slots.setdefault(key, env.id)
    seats = {s.get("seat") for s in _roster(order)}
    signers: dict[str, dict[str, Envelope]] = {}
    for env in order:
        body = env.raw.get("body")
        if env.raw.get("type") == "checkpoint" and isinstance(body, dict) and isinstance(body.get("label"), str):
            signers.setdefault(body["label"], {})[str(env.raw.get("author"))] = env
    for label, by_seat in signers.items():
        if set(by_seat) != seats:
            continue  # not final: not every seat has co-signed it
        heads = next(iter(by_seat.values())).raw["body"].get("heads", {})
        covered = _covered(heads if isinstance(heads, dict) else {}, union)
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
