"""§9.5, §9.52, §2.4: applying hits, exactly as the owner may.

Hits on a target (an arms class in combat, the retreating group in Pursuit Fire) are counted in *points*: a full
hit is 2 points, a half-hit (§9.52: non-artillery fire on Minefield Defenders) is 1, and a step costs 2 points per
CV of the step (a normal unit's step 2, an elite unit's step 4: "four half-hits … reduce an elite unit", §14.2).
The owner reports the result as the CV each unit loses (:data:`Losses`: a whole number of steps, or its whole CV
when the last step eliminates it). A report is legal when it uses no more points than were scored and wastes as
few as any allocation can ("hits may only be wasted if there is no alternative", §9.5): a bounded knapsack over
the steps of the targets, small enough to solve exactly and to enumerate for prompts.

Example: three armor hits on an elite 6-CV and a normal 4-CV unit (§9.5 sidebar, Applying Losses to Mixed Groups)::

    legal_losses([elite, normal], Hits(full=3))   # ({"normal": 3}, {"elite": 2, "normal": 1})
    check_losses([elite, normal], Hits(full=3), {"normal": 2}).reason   # "hits-wasted"
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from pbem.games.rommel.battle_units import BattleHex, BattleUnit
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "FULL",
    "HALF",
    "Hits",
    "Losses",
    "apply_losses",
    "check_losses",
    "legal_losses",
    "losses_steps",
    "reduced",
    "usable_points",
]

FULL = 2
"""Points of a full hit."""
HALF = 1
"""Points of a half-hit (§9.52)."""

Losses = Mapping[str, int]
"""The CV each block loses (blocks absent lose nothing)."""


@dataclass(frozen=True, slots=True)
class Hits:
    """Hits scored on one target: full hits and half-hits (§9.52)."""

    full: int = 0
    half: int = 0

    def __post_init__(self) -> None:
        if self.full < 0 or self.half < 0:
            raise ValueError(f"hits cannot be negative: {self.full} full, {self.half} half")

    @property
    def points(self) -> int:
        """The points these hits are worth: 2 a full hit, 1 a half-hit."""
        return FULL * self.full + HALF * self.half

    def __add__(self, other: Hits) -> Hits:
        return Hits(self.full + other.full, self.half + other.half)


def _cost(unit: BattleUnit) -> int:
    """Points a step of ``unit`` costs: one full hit per CV of the step (§9.5, §2.4)."""
    return FULL * unit.step


def _reachable(targets: Sequence[BattleUnit], budget: int) -> list[frozenset[int]]:
    """For each suffix ``targets[i:]``, the point totals (at most ``budget``) its whole steps can absorb."""
    out = [frozenset({0})]
    for unit in reversed(targets):
        cost = _cost(unit)
        sums = {s + k * cost for s in out[-1] for k in range(unit.steps + 1) if s + k * cost <= budget}
        out.append(frozenset(sums))
    out.reverse()
    return out


def usable_points(targets: Sequence[BattleUnit], hits: Hits) -> int:
    """The most points whole steps of ``targets`` can absorb: what every legal allocation uses (§9.5)."""
    return max(_reachable(targets, hits.points)[0])


def legal_losses(targets: Sequence[BattleUnit], hits: Hits) -> tuple[Losses, ...]:
    """Every legal report of ``hits`` on ``targets`` (§9.5, §9.52), each as the CV the hit units lose.

    The tuple is in a fixed order (by the targets' order, fewer steps first); a prompt offers it, and
    :func:`check_losses` accepts exactly its members.
    """
    reach = _reachable(targets, hits.points)
    goal = max(reach[0])

    def walk(i: int, left: int) -> Iterator[dict[str, int]]:
        if i == len(targets):
            if left == 0:
                yield {}
            return
        unit = targets[i]
        for k in range(unit.steps + 1):
            rest = left - k * _cost(unit)
            if rest < 0:
                break
            if rest in reach[i + 1]:
                for tail in walk(i + 1, rest):
                    yield {unit.block: unit.loss(k), **tail} if k else tail

    return tuple(MappingProxyType(found) for found in walk(0, goal))


def losses_steps(unit: BattleUnit, loss: int) -> int | None:
    """The steps a loss of ``loss`` CV is for ``unit``, or None if no whole number of steps loses that (§2.3)."""
    for k in range(unit.steps + 1):
        if unit.loss(k) == loss:
            return k
    return None


def check_losses(targets: Sequence[BattleUnit], hits: Hits, losses: Losses) -> Verdict:
    """Whether the owner's report ``losses`` of ``hits`` on ``targets`` is legal (§9.5, §9.52, §2.4).

    Refusals: ``loss-not-a-target`` (a block that is not one of the targets: hits go to the targeted class, §9.5),
    ``loss-not-a-step`` (not a whole number of the unit's steps, §2.4), ``losses-exceed-hits`` (more than the hits
    scored), ``hits-wasted`` (hits left unapplied that another allocation applies: §9.5, §9.52 for half-hits).
    """
    by_block = {u.block: u for u in targets}
    spent = 0
    for block, loss in sorted(losses.items()):
        unit = by_block.get(block)
        if unit is None:
            return deny("9.5", "loss-not-a-target", f"{block} is not one of the units the hits are on")
        steps = losses_steps(unit, loss)
        if steps is None:
            return deny(
                "2.4" if unit.elite else "9.5",
                "loss-not-a-step",
                f"{block} (CV {unit.cv}, {unit.step} CV a step) cannot lose {loss} CV",
            )
        spent += steps * _cost(unit)
    if spent > hits.points:
        return deny("9.5", "losses-exceed-hits", f"the losses take {spent} points, the hits are worth {hits.points}")
    best = usable_points(targets, hits)
    if spent < best:
        return deny(
            "9.52" if hits.half else "9.5",
            "hits-wasted",
            f"the losses apply {spent} of {hits.points} points; {best} can be applied, so none may be wasted",
        )
    return ALLOW


def reduced(targets: Sequence[BattleUnit], hits: Hits, losses: Losses) -> Mapping[str, BattleUnit | None]:
    """Each target that loses CV in the legal report ``losses``, as it is after: reduced, or None if eliminated.

    Raises:
        ValueError: the report is not legal (:func:`check_losses`); the ruleset checks first.
    """
    verdict = check_losses(targets, hits, losses)
    if not verdict.ok:
        raise ValueError(f"§{verdict.rule} {verdict.reason}: {verdict.message}")
    changed: dict[str, BattleUnit | None] = {}
    for unit in targets:
        steps = losses_steps(unit, losses.get(unit.block, 0))
        if steps:
            changed[unit.block] = unit.after(steps)
    return MappingProxyType(changed)


def apply_losses(battle: BattleHex, targets: Sequence[BattleUnit], hits: Hits, losses: Losses) -> BattleHex:
    """The battle after the legal report ``losses`` of ``hits`` on ``targets``: units reduced, eliminated removed.

    Raises:
        ValueError: the report is not legal (:func:`check_losses`).
    """
    return battle.with_units(reduced(targets, hits, losses))
