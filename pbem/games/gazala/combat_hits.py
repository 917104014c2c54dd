"""Distributing combat hits (§7.5.2, §7.5.2.1, §5.6.2): the decision tree, its legal choices and their outcome.

The defender completes the procedure before the attacker. For one side:

1. **First step loss** (hits >= 1): the unit used for Armour Superiority takes it; without one, the owner picks
   (:func:`first_loss_options`).
2. **ECs** (the number is red): every unit still in the stack rolls 1 d10 (:func:`ec_rollers`, in that order); a
   roll above the current Effectiveness fails: the unit disrupts, or, already Disrupted, loses 1 more Strength
   Point (§5.6.2) (:func:`effectiveness_checks`).
3. **The remaining hits** (hits - 1), by the pack's ``hit_distribution`` rows for the side, the colour and the EC
   case (black: ``none``; red: ``all_pass``, ``all_fail``, ``mixed``): Hold, Voluntary Retreat, or (mixed) Hold with
   some of the units that passed or Follow with all. :func:`distribution_options` enumerates every legal
   :class:`Distribution` (for prompts), :func:`check_distribution` refuses the others citing the rule, and
   :func:`distribute` gives the :class:`Outcome`: Strength Point losses, disruptions, retreats (units, hexes,
   forced or not), eliminations.
4. **Step losses** (§7.5.2.1) are spread evenly over the units that could not avoid them by retreating (those
   that stay in the hex; all of them if the whole stack retreats): no unit takes a second (third) loss before every
   such unit has taken its first (second), an eliminated unit aside.

Retreat paths, their extra losses (§7.5.2.3) and displacements follow in :mod:`.combat_displace`.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pbem.games.gazala.combat import Combatant
from pbem.games.gazala.data import GazalaPack, HitRule
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "Distribution",
    "Ecs",
    "Outcome",
    "Retreat",
    "Role",
    "SideHits",
    "check_distribution",
    "distribute",
    "distribution_options",
    "ec_rollers",
    "effectiveness_checks",
    "first_loss_options",
]

Role = Literal["attacker", "defender"]
Case = Literal["none", "all_pass", "all_fail", "mixed"]


def first_loss_options(units: Sequence[Combatant], armour_unit: str | None, hits: int) -> tuple[str, ...]:
    """§7.5.2 step 1: who may take the mandatory first Strength Point loss: the Armour Superiority unit if it is in
    the stack, else any unit (the owner's choice); none without hits."""
    if hits < 1:
        return ()
    ids = tuple(u.id for u in units)
    return (armour_unit,) if armour_unit in ids else ids


def ec_rollers(units: Sequence[Combatant], first: str | None) -> tuple[str, ...]:
    """§7.5.2 step 3: the units that roll an EC after a red result (1 d10 each, in this order): every unit of the
    stack still on the map after the first loss."""
    return tuple(u.id for u in units if not (u.id == first and u.strength <= 1))


@dataclass(frozen=True)
class Ecs:
    """Effectiveness Checks of a red result (§5.6.1, §5.6.2): who passed, who failed; ``losses``: the extra
    Strength Point of each already Disrupted unit that failed."""

    passed: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()
    losses: Mapping[str, int] = field(default_factory=dict)


def effectiveness_checks(pack: GazalaPack, units: Sequence[Combatant], rolls: Mapping[str, int]) -> Ecs:
    """§5.6.1: each unit's EC passes with a d10 at or below its current Effectiveness Rating; a failure disrupts it,
    and a unit already Disrupted loses ``ec_disrupted_loss`` (1) Strength Point as well (§5.6.2)."""
    passed, failed, losses = [], [], {}
    for unit in units:
        if unit.id not in rolls:
            continue
        if rolls[unit.id] <= unit.eff:
            passed.append(unit.id)
        else:
            failed.append(unit.id)
            if unit.disrupted:
                losses[unit.id] = pack.number("ec_disrupted_loss")
    return Ecs(tuple(passed), tuple(failed), losses)


@dataclass(frozen=True)
class SideHits:
    """One side's hits to distribute, after its first loss and ECs.

    Attributes:
        role: attacker or defender. hits: its CRT number; red: printed red (ECs were rolled).
        units: its units in the combat as they were before the combat (strength, Disrupted status).
        first: the unit that took the first loss (None without hits). ecs: the ECs of a red result (a result
            given for a unit the first loss eliminated is dropped: it rolls none, :func:`ec_rollers`).
    """

    role: Role
    hits: int
    red: bool
    units: tuple[Combatant, ...]
    first: str | None
    ecs: Ecs = Ecs()

    def __post_init__(self) -> None:
        # a unit eliminated by the first loss rolls no EC (ec_rollers): drop any result given for it
        gone = {u.id for u in self.units if u.id == self.first and u.strength <= 1}
        if gone & {*self.ecs.passed, *self.ecs.failed}:
            ecs = Ecs(
                tuple(u for u in self.ecs.passed if u not in gone),
                tuple(u for u in self.ecs.failed if u not in gone),
                {u: n for u, n in self.ecs.losses.items() if u not in gone},
            )
            object.__setattr__(self, "ecs", ecs)

    @property
    def remaining(self) -> int:
        return max(0, self.hits - 1)

    def strength_left(self) -> dict[str, int]:
        """Strength after the first loss and the EC losses."""
        left = {u.id: u.strength for u in self.units}
        if self.first is not None:
            left[self.first] -= 1
        for ident, lost in self.ecs.losses.items():
            left[ident] -= lost
        return left

    def alive(self) -> tuple[str, ...]:
        left = self.strength_left()
        return tuple(u.id for u in self.units if left[u.id] > 0)

    def disrupted_after(self) -> frozenset[str]:
        """Units Disrupted once the ECs are done (before the combat, or by failing)."""
        return frozenset(u.id for u in self.units if u.disrupted) | frozenset(self.ecs.failed)

    def case(self) -> Case:
        if not self.red:
            return "none"
        alive = set(self.alive())
        passed = [u for u in self.ecs.passed if u in alive]
        failed = [u for u in self.ecs.failed if u in alive]
        if not failed:
            return "all_pass"
        return "mixed" if passed else "all_fail"


@dataclass(frozen=True)
class Distribution:
    """A side's choice for its remaining hits.

    Attributes:
        choice: the pack row's choice (``hold``, ``retreat``, ``follow``, ``forced``); None when no hit remains.
        holders: Hold in a mixed case: the units that passed their EC and stay (the others that passed follow the
            Forced Retreat); empty otherwise.
        losses: ``(unit, n)`` pairs, the remaining step losses each unit takes (the first loss excluded), units
            with none left out; kept sorted by unit, so equal choices compare (and hash) equal.
    """

    choice: Literal["hold", "retreat", "follow", "forced"] | None = None
    holders: tuple[str, ...] = ()
    losses: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "losses", tuple(sorted(self.losses)))
        object.__setattr__(self, "holders", tuple(sorted(self.holders)))


@dataclass(frozen=True)
class Retreat:
    """Units that retreat ``hexes`` hexes together; ``forced``: a Forced Retreat (§7.5.2.3)."""

    units: tuple[str, ...]
    hexes: int
    forced: bool


@dataclass(frozen=True)
class Outcome:
    """What a side's hits did (§7.5.2).

    Attributes:
        rule: the pack's ``hit_distribution`` row applied (None: no hit remained).
        losses: unit -> Strength Points lost to CRT hits (the first loss included).
        ec_losses: unit -> the extra Strength Point of a Disrupted unit failing its EC (§5.6.2; not a hit).
        disrupted: units newly Disrupted by a failed EC.
        retreats: the retreats to carry out, with their lengths.
        eliminated: units whose strength reached 0 (removed from play).
    """

    rule: str | None
    losses: Mapping[str, int]
    ec_losses: Mapping[str, int]
    disrupted: frozenset[str]
    retreats: tuple[Retreat, ...]
    eliminated: frozenset[str]


def _rows(pack: GazalaPack, side: SideHits) -> tuple[HitRule, ...]:
    return tuple(
        r
        for r in pack.tables.hit_distribution
        if r.side == side.role and r.colour == ("red" if side.red else "black") and r.case == side.case()
    )


@dataclass(frozen=True)
class _Plan:
    row: HitRule | None
    retreats: tuple[Retreat, ...]
    eligible: tuple[str, ...]
    losses: int


def _plan(side: SideHits, row: HitRule | None, holders: Sequence[str]) -> _Plan:
    """What a row makes of the remaining hits: the retreats, and how many step losses fall on which units."""
    alive = side.alive()
    r = side.remaining
    if row is None or r == 0:
        return _Plan(None, (), alive, 0)
    kinds = [row.first, *[row.rest] * (r - 1)]
    losses = sum(1 for k in kinds if k == "loss")
    hexes = sum(1 for k in kinds if k in ("retreat", "forced_retreat"))
    forced = any(k == "forced_retreat" for k in kinds)
    if hexes:  # the whole stack retreats (Voluntary Retreat, Case B, Case C follow); losses fall on all of it
        return _Plan(row, (Retreat(alive, hexes, forced),), alive, losses)
    leaving: tuple[str, ...] = ()
    if row.disrupted_retreat:  # Hold: the Disrupted units (Case C: and the non-holders) Forced-Retreat 1 hex
        disrupted = side.disrupted_after()
        leaving = tuple(u for u in alive if u in disrupted or (row.case == "mixed" and u not in holders))
    staying = tuple(u for u in alive if u not in leaving)
    retreats = (Retreat(leaving, 1, True),) if leaving else ()
    return _Plan(row, retreats, staying or alive, losses)


def _balanced(side: SideHits, eligible: Sequence[str], extra: Mapping[str, int]) -> bool:
    """§7.5.2.1: no unit takes a (k+1)-th loss while another eligible unit with strength left has fewer than k."""
    left = side.strength_left()
    taken = {u: extra.get(u, 0) + (1 if u == side.first else 0) for u in eligible}
    full = {u for u in eligible if extra.get(u, 0) >= left[u]}
    return all(taken[u] <= taken[v] + 1 or v in full for u in eligible for v in eligible)


def _allocations(side: SideHits, eligible: Sequence[str], count: int) -> list[dict[str, int]]:
    """Every even spread (§7.5.2.1) of ``count`` losses over ``eligible`` (capped by their strength left)."""
    left = side.strength_left()
    absorbed = min(count, sum(left[u] for u in eligible))
    found = []
    for counts in itertools.product(*(range(min(absorbed, left[u]) + 1) for u in eligible)):
        if sum(counts) != absorbed:
            continue
        extra = {u: c for u, c in zip(eligible, counts, strict=True) if c}
        if _balanced(side, eligible, extra):
            found.append(extra)
    return found


def _holder_sets(side: SideHits) -> list[tuple[str, ...]]:
    """Case C, Hold: every non-empty set of undisrupted units that passed their EC."""
    disrupted = side.disrupted_after()
    able = [u for u in side.alive() if u in side.ecs.passed and u not in disrupted]
    return [c for n in range(1, len(able) + 1) for c in itertools.combinations(able, n)]


def distribution_options(pack: GazalaPack, side: SideHits, *, can_retreat: bool = True) -> tuple[Distribution, ...]:
    """Every legal :class:`Distribution` of ``side``'s remaining hits. ``can_retreat``: False when the stack has no
    legal Voluntary Retreat (notes B6: then only Hold is offered)."""
    if side.remaining == 0 or not side.alive():
        return (Distribution(),)
    found: list[Distribution] = []
    for row in _rows(pack, side):
        if row.choice == "retreat" and not can_retreat:
            continue
        holder_sets = _holder_sets(side) if row.case == "mixed" and row.choice == "hold" else [()]
        for holders in holder_sets:
            plan = _plan(side, row, holders)
            for extra in _allocations(side, plan.eligible, plan.losses):
                found.append(Distribution(row.choice, holders, tuple(extra.items())))
    return tuple(found)


def check_distribution(pack: GazalaPack, side: SideHits, choice: Distribution, *, can_retreat: bool = True) -> Verdict:
    """§7.5.2, §7.5.2.1: ``choice`` is legal. Refused: ``no-choice`` (no hit remains, or no unit: nothing to choose),
    ``hit-option`` (not an option of this side, colour and EC case; a Voluntary Retreat with no open path),
    ``holders`` (Hold needs undisrupted units that passed their EC), ``loss-count`` (the losses do not add up to
    the hits, or fall on units that retreat), ``unbalanced`` (a second loss before every unit took one)."""
    if side.remaining == 0 or not side.alive():
        if choice != Distribution():
            return deny("7.5.2", "no-choice", "no hit remains to distribute")
        return ALLOW
    row = next((r for r in _rows(pack, side) if r.choice == choice.choice), None)
    if row is None or (row.choice == "retreat" and not can_retreat):
        options = sorted({r.choice for r in _rows(pack, side)})
        return deny("7.5.2", "hit-option", f"the options are {', '.join(options)}")
    needs_holders = row.case == "mixed" and row.choice == "hold"
    if needs_holders and choice.holders not in {tuple(sorted(h)) for h in _holder_sets(side)}:
        return deny("7.5.2", "holders", "Hold with units that passed their EC and are not Disrupted")
    if not needs_holders and choice.holders:
        return deny("7.5.2", "holders", "only a Hold after mixed ECs names the holding units")
    plan = _plan(side, row, choice.holders)
    left = side.strength_left()
    absorbed = min(plan.losses, sum(left[u] for u in plan.eligible))
    extra = dict(choice.losses)
    if len(extra) != len(choice.losses) or (
        any(u not in plan.eligible or n < 1 or n > left[u] for u, n in extra.items()) or sum(extra.values()) != absorbed
    ):
        return deny("7.5.2.1", "loss-count", f"{absorbed} step losses fall on {', '.join(plan.eligible)}")
    if not _balanced(side, plan.eligible, extra):
        return deny("7.5.2.1", "unbalanced", "no unit takes a second loss before every unit has taken one")
    return ALLOW


def distribute(pack: GazalaPack, side: SideHits, choice: Distribution) -> Outcome:
    """The outcome of a legal ``choice`` (:func:`check_distribution`; ValueError otherwise)."""
    verdict = check_distribution(pack, side, choice)
    if not verdict.ok:
        raise ValueError(verdict.message)
    live = side.remaining and side.alive()
    row = next((r for r in _rows(pack, side) if r.choice == choice.choice), None) if live else None
    plan = _plan(side, row, choice.holders)
    losses = dict(choice.losses)
    if side.first is not None:
        losses[side.first] = losses.get(side.first, 0) + 1
    strength = {u.id: u.strength for u in side.units}
    gone = frozenset(u for u in strength if strength[u] - losses.get(u, 0) - side.ecs.losses.get(u, 0) <= 0)
    before = frozenset(u.id for u in side.units if u.disrupted)
    retreats = tuple(Retreat(tuple(u for u in r.units if u not in gone), r.hexes, r.forced) for r in plan.retreats)
    return Outcome(
        rule=plan.row.id if plan.row else None,
        losses=losses,
        ec_losses=dict(side.ecs.losses),
        disrupted=frozenset(side.ecs.failed) - before - gone,
        retreats=tuple(r for r in retreats if r.units),
        eliminated=gone,
    )
