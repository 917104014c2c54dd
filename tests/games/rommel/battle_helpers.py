"""Units built by hand for the battle tests (the pack's blocks are used where the rulebook names a unit type)."""

from __future__ import annotations

from pbem.games.rommel.battle import ArmsClass, BattleUnit, Side
from pbem.rules.contract import Verdict


def unit(
    block: str,
    side: Side,
    arms_class: ArmsClass,
    cv: int,
    *,
    speed: int = 1,
    elite: bool = False,
    disrupted: bool = False,
) -> BattleUnit:
    """A unit with the pack's conventions: lowest CV 1 (2 for elite units), 1 CV a step (2 for elite units)."""
    return BattleUnit(
        block=block,
        side=side,
        arms_class=arms_class,
        speed=speed,
        cv=cv,
        cv_min=2 if elite else 1,
        step=2 if elite else 1,
        disrupted=disrupted,
    )


def refused(verdict: Verdict) -> tuple[str | None, str]:
    """The rule and reason of a refusal."""
    assert not verdict.ok, "expected a refusal"
    return verdict.rule, verdict.reason
