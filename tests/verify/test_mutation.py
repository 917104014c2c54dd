"""T1: every single-byte change anywhere in a valid game log is rejected.

Each mutant line is fed to a copy of the verifier that has already accepted every line before it, so a
sweep over every byte of a whole game takes seconds. ``make test`` flips each byte two ways; the slow
suite tries all 255 other values of every byte.
"""

from __future__ import annotations

import pytest

from pbem.verify.findings import Severity
from pbem.verify.pipeline import Verifier, verify_lines
from tests.helpers import Table


def sweep(lines: list[bytes], index: int, substitutes: list[int] | None) -> list[tuple[int, int]]:
    """(position, new byte) of every mutant of line ``index`` that the verifier accepts (should be none)."""
    _, prefix = verify_lines(lines[:index])
    if index == 0:
        prefix = Verifier()
    accepted = []
    line = lines[index]
    for position, old in enumerate(line):
        for new in substitutes or [old ^ 0x01, old ^ 0x20]:
            if new == old or new == 0x0A:  # a newline would split the line: that is a different test (T3/F1)
                continue
            mutant = line[:position] + bytes([new]) + line[position + 1 :]
            found = prefix.clone().feed(mutant, index + 1)
            if not any(f.severity is Severity.ERROR for f in found):
                accepted.append((position, new))
    return accepted


@pytest.mark.case("T1")
@pytest.mark.parametrize("game", ["duel_master", "trio_master"])
@pytest.mark.parametrize("part", range(4))
def test_t1_every_single_byte_change_is_rejected(game: str, part: int, request: pytest.FixtureRequest) -> None:
    lines = request.getfixturevalue(game).lines()
    for index in range(part, len(lines), 4):
        assert sweep(lines, index, None) == [], f"line {index + 1} accepted a mutation"


@pytest.mark.slow
@pytest.mark.case("T1")
@pytest.mark.parametrize("part", range(8))
def test_t1_every_byte_value_at_every_position_is_rejected(duel_master: Table, part: int) -> None:
    lines = duel_master.lines()
    for index in range(part, len(lines), 8):
        assert sweep(lines, index, list(range(256))) == [], f"line {index + 1} accepted a mutation"
