"""Combat arithmetic from the data pack: labelled terms and totals, die-roll ranges, and CRT / Fire table lookups.

Every number lives in the game's data pack (style guide §2.2); the rules only say which rows apply. A game's
pack embeds these models (:class:`RangeTable`, :class:`CombatTable`) and its rules call them:

* :class:`Term` / :class:`Total`: the addends of a combat value, each citing its rule, summed (for reports).
* :class:`RangeTable`: die-roll ranges to results (``"1-4": "success"``).
* :class:`CombatTable`: a 2-D table of results by column and die roll. Columns are odds (``"1:2"``, ``"3:2"``),
  thresholds of an integer (a differential ``"-2"``, ``"+3"``, or a strength ``"7"``: the lowest value in the
  column) or names (``"hasty"``). :meth:`CombatTable.resolve` finds the column with exact integer arithmetic
  (rounding in the defender's favour unless told otherwise), applies column shifts clamped at the table's
  edges, and returns a :class:`Lookup` record of column, shift, roll and result for the report.

Example::

    crt = CombatTable[str].model_validate_json(raw)        # from the pack
    total = Total.of([Term(label="2/RTR", value=5, rule="11.4.2"), Term(label="artillery", value=2, rule="10.2")])
    found = crt.resolve(total.value, 3, roll=4, shift=1)    # found.column, found.result
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Annotated, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from pbem.kit.datapack import PackModel, RuleRef, Slug

__all__ = [
    "ABOVE",
    "BELOW",
    "CombatRow",
    "CombatTable",
    "DieRange",
    "Lookup",
    "RangeRow",
    "RangeTable",
    "Term",
    "Total",
    "odds",
    "parse_range",
]

R = TypeVar("R")

DieRange = Annotated[str, StringConstraints(pattern=r"^-?[0-9]+(--?[0-9]+)?$")]
"""Die rolls as printed: ``"4"``, ``"1-4"``, ``"-2--1"`` (modified rolls may be negative)."""

BELOW = "below"
"""The :attr:`Lookup.base` of a column left of the table's first column."""
ABOVE = "above"
"""The :attr:`Lookup.base` of a column right of the table's last column."""

_RANGE = re.compile(r"^(-?[0-9]+)(?:-(-?[0-9]+))?$")
_ODDS = re.compile(r"^([1-9][0-9]*):([1-9][0-9]*)$")
_THRESHOLD = re.compile(r"^[+-]?[0-9]+$")


def parse_range(text: str) -> tuple[int, int]:
    """The lowest and highest roll of a :data:`DieRange` (``"1-4"`` -> ``(1, 4)``).

    Raises:
        ValueError: not a range, or the low end is above the high end.
    """
    match = _RANGE.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not a die roll range such as '4' or '1-4'")
    low = int(match[1])
    high = int(match[2]) if match[2] is not None else low
    if low > high:
        raise ValueError(f"die roll range {text!r} runs backwards")
    return low, high


def odds(label: str) -> tuple[int, int]:
    """The ratio of an odds column label (``"3:2"`` -> ``(3, 2)``).

    Raises:
        ValueError: not ``a:b`` with positive integers.
    """
    match = _ODDS.match(label)
    if match is None:
        raise ValueError(f"{label!r} is not an odds column such as '1:2' or '3:1'")
    return int(match[1]), int(match[2])


def _check_ranges(texts: Sequence[str], where: str) -> list[tuple[int, int]]:
    """Ranges in ascending order with no gap or overlap."""
    ranges = [parse_range(t) for t in texts]
    for (_, high), (low, _), text in zip(ranges, ranges[1:], texts[1:], strict=False):
        if low != high + 1:
            raise ValueError(f"{where}: die roll range {text!r} does not follow on from the row before")
    return ranges


# --- terms and totals ------------------------------------------------------------------------------------------


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class ValueRow(Protocol):
    """A pack row holding one modifier (``value`` and its ``rule``), as most packs have."""

    @property
    def value(self) -> int:
        """The modifier."""
        ...

    @property
    def rule(self) -> str:
        """The rulebook section it comes from."""
        ...


class Term(_Record):
    """One addend of a combat value: ``{"label": "artillery", "value": 2, "rule": "10.2"}``."""

    label: str
    value: int
    rule: str

    @classmethod
    def of(cls, row: ValueRow, label: str, times: int = 1) -> Term:
        """The term of a pack row, counted ``times`` (``additional units`` x 2)."""
        return cls(label=label, value=row.value * times, rule=row.rule)

    def __str__(self) -> str:
        return f"{self.value:+d} {self.label}"


class Total(_Record):
    """Labelled terms and their sum, for reports (``lead 2/RTR 5; +2 artillery = 7``)."""

    terms: tuple[Term, ...]
    value: int

    @classmethod
    def of(cls, terms: Iterable[Term]) -> Total:
        """The total of ``terms``."""
        kept = tuple(terms)
        return cls(terms=kept, value=sum(t.value for t in kept))

    def describe(self) -> str:
        """``lead 2/RTR 5; +2 artillery; -1 terrain`` (the first term unsigned)."""
        if not self.terms:
            return "0"
        first, *rest = self.terms
        return "; ".join([f"{first.label} {first.value}", *map(str, rest)])


# --- die-roll ranges -------------------------------------------------------------------------------------------


class RangeRow(PackModel, Generic[R]):
    """Rolls ``rolls`` give ``result``."""

    rolls: DieRange
    result: R


class RangeTable(PackModel, Generic[R]):
    """Die-roll ranges to results (``"1-4": success, "5-6": failure``), in ascending order, with no gaps.

    Attributes:
        clamp: a roll beyond the rows uses the nearest row (a modified roll); False: such a roll is a bug.
    """

    id: Slug
    rule: RuleRef
    rows: tuple[RangeRow[R], ...] = Field(min_length=1)
    clamp: bool = True

    @model_validator(mode="after")
    def _ranges(self) -> RangeTable[R]:
        _check_ranges([row.rolls for row in self.rows], f"table {self.id}")
        return self

    def lookup(self, roll: int) -> R:
        """The result of ``roll``.

        Raises:
            ValueError: the roll is outside the rows and the table does not clamp.
        """
        return self.rows[_row_index([r.rolls for r in self.rows], roll, clamp=self.clamp, table=self.id)].result


def _row_index(texts: Sequence[str], roll: int, *, clamp: bool, table: str) -> int:
    ranges = [parse_range(t) for t in texts]
    if roll < ranges[0][0] or roll > ranges[-1][1]:
        if not clamp:
            raise ValueError(f"table {table}: roll {roll} is outside {texts[0]}..{texts[-1]}")
        return 0 if roll < ranges[0][0] else len(ranges) - 1
    return next(i for i, (low, high) in enumerate(ranges) if low <= roll <= high)


# --- 2-D tables ------------------------------------------------------------------------------------------------


class CombatRow(PackModel, Generic[R]):
    """One row of a CRT or Fire table: the rolls and one result per column."""

    rolls: DieRange
    results: tuple[R, ...]


class Lookup(_Record, Generic[R]):
    """A table lookup as the report shows it.

    Attributes:
        table, rule: which table, and its rule.
        base: the column the odds / value / name gave (:data:`BELOW` or :data:`ABOVE` off the table).
        shift: the column shift asked for (right: the attacker's favour).
        applied: the shift actually applied, after clamping at the edges (0 when off the table).
        column: the column read.
        roll: the (modified) roll; ``rows`` the row's printed range.
        result: what the table says.
    """

    table: str
    rule: str
    base: str
    shift: int
    applied: int
    column: str
    roll: int
    rows: str
    result: R


class CombatTable(PackModel, Generic[R]):
    """A CRT or Fire table: results by column and die roll.

    Attributes:
        id, rule, text: the table and its rule.
        kind: ``odds`` (columns ``"1:2"``, ``"1:1"``…), ``threshold`` (columns name the lowest value of an
            integer in them: a differential ``"-2"``, ``"+3"``, or a strength), or ``named``.
        columns: left to right, ascending (the attacker's best on the right).
        rows: one per roll range, ascending.
        below, above: the result when the base column is off the table to the left (right); None: use the
            edge column. Gazala §7.5.1: below the leftmost column "the result is 5/0".
        clamp_rolls: a modified roll beyond the rows uses the nearest row (False: such a roll is a bug).
    """

    id: Slug
    rule: RuleRef
    kind: Literal["odds", "threshold", "named"]
    columns: tuple[str, ...] = Field(min_length=1)
    rows: tuple[CombatRow[R], ...] = Field(min_length=1)
    below: R | None = None
    above: R | None = None
    clamp_rolls: bool = True
    text: str = ""

    @model_validator(mode="after")
    def _shape(self) -> CombatTable[R]:
        where = f"table {self.id}"
        if len(set(self.columns)) != len(self.columns):
            raise ValueError(f"{where}: a column is listed twice")
        for row in self.rows:
            if len(row.results) != len(self.columns):
                raise ValueError(
                    f"{where}: row {row.rolls!r} has {len(row.results)} results for {len(self.columns)} columns"
                )
        _check_ranges([row.rolls for row in self.rows], where)
        if self.kind == "odds":
            ratios = [odds(c) for c in self.columns]
            for (a, b), (c, d), label in zip(ratios, ratios[1:], self.columns[1:], strict=False):
                if a * d >= c * b:
                    raise ValueError(f"{where}: odds column {label!r} is not above the column before")
        elif self.kind == "threshold":
            if not all(_THRESHOLD.match(c) for c in self.columns):
                raise ValueError(f"{where}: threshold columns are integers such as '-2', '0', '+3'")
            values = [int(c) for c in self.columns]
            if values != sorted(set(values)):
                raise ValueError(f"{where}: threshold columns must ascend")
        return self

    # --- finding the column ------------------------------------------------------------------------------------
    def odds_column(self, attack: int, defence: int, *, favour: Literal["defender", "attacker"] = "defender") -> int:
        """The column index of the odds ``attack``:``defence``, exactly (-1: below the table).

        ``favour="defender"`` rounds down to the highest column whose ratio the odds reach (7:3 is 2:1);
        ``"attacker"`` rounds up to the lowest column whose ratio is at least the odds (7:3 is 5:2 or 3:1).
        Odds beyond the last column use the last; a defence of 0 gives the last column.
        """
        if self.kind != "odds":
            raise ValueError(f"table {self.id} has {self.kind} columns, not odds")
        if attack < 0 or defence < 0:
            raise ValueError(f"odds of {attack}:{defence} are not strengths")
        last = len(self.columns) - 1
        if defence == 0:
            return last
        ratios = [odds(c) for c in self.columns]
        if favour == "defender":
            reached = [i for i, (a, b) in enumerate(ratios) if attack * b >= defence * a]
            return reached[-1] if reached else -1
        at_least = [i for i, (a, b) in enumerate(ratios) if attack * b <= defence * a]
        return at_least[0] if at_least else last

    def value_column(self, value: int) -> int:
        """The column index of an integer (a differential, a strength): the last column whose threshold it
        reaches (-1: below the table; beyond the last threshold is the last column)."""
        if self.kind != "threshold":
            raise ValueError(f"table {self.id} has {self.kind} columns, not thresholds")
        reached = [i for i, c in enumerate(self.columns) if value >= int(c)]
        return reached[-1] if reached else -1

    def named_column(self, name: str) -> int:
        """The column index of a named column (ValueError if the table has no such column)."""
        if name not in self.columns:
            raise ValueError(f"table {self.id} has no column {name!r}")
        return self.columns.index(name)

    # --- reading it --------------------------------------------------------------------------------------------
    def lookup(self, column: int, roll: int, *, shift: int = 0) -> Lookup[R]:
        """Read the table at column index ``column`` (as the ``*_column`` methods give it), shifted, for ``roll``.

        A base column off the table gives :attr:`below` / :attr:`above` if the table has one (shifts are then
        ignored), else the edge column. A shift beyond an edge stops at the edge.

        Raises:
            ValueError: the roll is outside the rows and the table does not clamp rolls.
        """
        last = len(self.columns) - 1
        row = self.rows[_row_index([r.rolls for r in self.rows], roll, clamp=self.clamp_rolls, table=self.id)]
        off = BELOW if column < 0 else ABOVE if column > last else None
        fixed = self.below if off == BELOW else self.above if off == ABOVE else None
        if off is not None and fixed is not None:
            return Lookup[R](
                table=self.id,
                rule=self.rule,
                base=off,
                shift=shift,
                applied=0,
                column=off,
                roll=roll,
                rows=row.rolls,
                result=fixed,
            )
        base = min(max(column, 0), last)
        final = min(max(base + shift, 0), last)
        return Lookup[R](
            table=self.id,
            rule=self.rule,
            base=off or self.columns[base],
            shift=shift,
            applied=final - base,
            column=self.columns[final],
            roll=roll,
            rows=row.rolls,
            result=row.results[final],
        )

    def resolve(
        self,
        attack: int,
        defence: int,
        roll: int,
        *,
        shift: int = 0,
        favour: Literal["defender", "attacker"] = "defender",
    ) -> Lookup[R]:
        """Combat by odds or differential: the column of ``attack`` against ``defence`` (:meth:`odds_column` for
        an odds table, :meth:`value_column` of ``attack - defence`` for a threshold table), then :meth:`lookup`.

        Raises:
            ValueError: a named table (pick the column with :meth:`named_column`), or a roll it cannot read.
        """
        if self.kind == "threshold":
            return self.lookup(self.value_column(attack - defence), roll, shift=shift)
        return self.lookup(self.odds_column(attack, defence, favour=favour), roll, shift=shift)
