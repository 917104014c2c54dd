"""Verification findings and the report: data, not prose."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pbem.codes import code
from pbem.errors import PbemError
from pbem.log.entry import envelope
from pbem.rules.contract import Result

__all__ = ["Cause", "Finding", "Severity", "VerificationReport", "root_causes"]


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


class Finding(BaseModel):
    """One problem found in a log, tied to its line and entry; ``code`` is stable forever."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    code: str
    slug: str
    severity: Severity
    line: int | None
    entry: str | None = None
    author: str | None = None
    seq: int | None = None
    rule: str | None = None
    message: str

    @classmethod
    def from_error(
        cls,
        error: PbemError,
        *,
        line: int | None,
        entry: str | None = None,
        author: str | None = None,
        seq: int | None = None,
        severity: Severity = Severity.ERROR,
    ) -> Finding:
        return cls(
            code=error.code.id,
            slug=error.code.slug,
            severity=severity,
            line=line,
            entry=entry,
            author=author,
            seq=seq,
            rule=error.rule,
            message=error.message,
        )

    @classmethod
    def warning(cls, code_id: str, message: str, *, line: int | None = None, entry: str | None = None) -> Finding:
        return cls(
            code=code_id,
            slug=code(code_id).slug,
            severity=Severity.WARNING,
            line=line,
            entry=entry,
            message=message,
        )

    def render(self) -> str:
        """``[C004] error line 12 (alice#5 7f3a12c4…): seq 6 where 5 is expected (§7.1)``."""
        who = f"{self.author}#{self.seq}" if self.author is not None and self.seq is not None else self.author
        ident = " ".join(x for x in (who, f"{self.entry[:8]}…" if self.entry else None) if x)
        where = f"line {self.line}" if self.line is not None else "log"
        rule = f" ({self.rule})" if self.rule else ""
        return f"[{self.code}] {self.severity.value} {where}{f' ({ident})' if ident else ''}: {self.message}{rule}"


class VerificationReport(BaseModel):
    """The verdict on one log: ``valid`` is False if any finding is an error."""

    valid: bool
    lines: int
    entries: int
    game: str | None
    ruleset: str | None
    scenario: str | None
    result: Result | None
    audit: Literal["complete", "pending", "in-play", "unknown"]
    awaiting: list[str]
    heads: dict[str, str]
    state_hash: str | None
    final_checkpoints: list[str]
    findings: list[Finding] = Field(default_factory=list)
    claims: list[str] = Field(default_factory=list)
    """Timeout claims the log bears out, as ``line N: …``."""

    @property
    def module_bug(self) -> bool:
        """Whether the verdict is unknown because the game module failed (R009): report it as a bug."""
        return any(f.code == "R009" for f in self.findings)

    @property
    def first_error(self) -> Finding | None:
        return next((f for f in self.findings if f.severity is Severity.ERROR), None)

    def as_json(self) -> dict[str, Any]:
        data = self.model_dump(mode="json")
        first = self.first_error
        data["error"] = None if first is None else first.model_dump(mode="json")
        return data


@dataclass(frozen=True)
class Cause:
    """An error finding and the later error findings that only follow from it (its consequences)."""

    finding: Finding
    consequences: tuple[Finding, ...]


def _links_by_line(lines: Sequence[bytes]) -> tuple[dict[int, tuple[str, list[str]]], set[str]]:
    """Line number -> (entry id, what it builds on: prev and deps), for every line that parses; and all ids."""
    found: dict[int, tuple[str, list[str]]] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            env = envelope(line)
        except PbemError:
            continue
        deps = env.raw.get("deps")
        links = [d for d in deps if isinstance(d, str)] if isinstance(deps, list) else []
        if isinstance(env.raw.get("prev"), str):
            links.append(str(env.raw["prev"]))
        found[number] = (env.id, links)
    return found, {entry_id for entry_id, _ in found.values()}


def root_causes(findings: Sequence[Finding], lines: Sequence[bytes]) -> list[Cause]:
    """Group error findings into causes and their consequences.

    A later error is a consequence when its entry builds (through prev or deps, transitively) on an entry that
    already failed, or on an entry missing from the file once something has failed (a line that does not parse,
    or an altered entry, whose id is then not the one its successors name): one
    damaged entry then reads as one finding "and N later entries depend on it", not N unrelated errors.
    """
    links, present = _links_by_line(lines)
    roots: list[Finding] = []
    followers: dict[int, list[Finding]] = {}
    tainted: dict[str, int] = {}  # entry id -> index of its root
    missing_root: int | None = None  # the first root: it explains ids absent from the file
    for finding in findings:
        if finding.severity is not Severity.ERROR:
            continue
        entry_id, builds_on = links.get(finding.line or 0, (finding.entry, []))
        root = next((tainted[link] for link in builds_on if link in tainted), None)
        if root is None and missing_root is not None and any(link not in present for link in builds_on):
            root = missing_root
        if root is None:
            root = len(roots)
            roots.append(finding)
            if missing_root is None:
                missing_root = root
        else:
            followers.setdefault(root, []).append(finding)
        if entry_id is not None:
            tainted.setdefault(entry_id, root)
    return [Cause(f, tuple(followers.get(i, []))) for i, f in enumerate(roots)]
