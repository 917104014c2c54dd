"""One damaged entry is one finding and its consequences, not a cascade of unrelated errors."""

from __future__ import annotations

import json
from pathlib import Path

from pbem.verify.findings import root_causes
from pbem.verify.pipeline import verify_lines
from tests.cli.conftest import Cli
from tests.helpers import Table


def _alter(line: bytes) -> bytes:
    return line.replace(b'"ts":"', b'"ts":"X', 1)  # the signature no longer verifies, and the id changes


def test_one_altered_entry_is_one_cause_with_its_consequences(duel: Table) -> None:
    lines = duel.path.read_bytes().splitlines()
    lines[9] = _alter(lines[9])
    report, _ = verify_lines(lines)
    errors = [f for f in report.findings if f.severity == "error"]
    assert len(errors) > 2  # the pipeline still reports every line
    causes = root_causes(report.findings, lines)
    assert [(c.finding.code, c.finding.line) for c in causes] == [("K001", 10)]
    assert len(causes[0].consequences) == len(errors) - 1


def test_an_unparseable_line_explains_the_later_chain_errors(duel: Table) -> None:
    lines = duel.path.read_bytes().splitlines()
    lines[9] = lines[9][:50]
    report, _ = verify_lines(lines)
    causes = root_causes(report.findings, lines)
    assert [c.finding.code for c in causes] == ["L003"]


def test_verify_prints_the_first_finding_and_summarises_the_rest(cli: Cli, duel: Table, tmp_path: Path) -> None:
    lines = duel.path.read_bytes().splitlines(keepends=True)
    lines[9] = _alter(lines[9])
    log = tmp_path / "bad.jsonl"
    log.write_bytes(b"".join(lines))
    run = cli("verify", log)
    assert run.code == 1
    shown = [line for line in run.out.splitlines() if line.startswith("[")]
    assert len(shown) == 1 and shown[0].startswith("[K001]")
    assert "later entries depend on it" in run.out
    assert "pbem repair" in run.out
    causes = json.loads(cli("verify", log, "--json").out)["causes"]
    assert len(causes) == 1 and causes[0]["line"] == 10 and causes[0]["consequences"]
