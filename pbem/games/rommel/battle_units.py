"""The blocks in a battle (§2.3, §2.4), the battle itself (§8.3, §13.2, §14.2) and a combat round's roles (§9.1).

Plain frozen values, built from the pack by :func:`battle_unit` or directly in tests; every other battle module
(:mod:`~pbem.games.rommel.battle_fire`, :mod:`~pbem.games.rommel.battle_losses`,
:mod:`~pbem.games.rommel.battle_retreat`) computes over them. Import them from :mod:`pbem.games.rommel.battle`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Literal, get_args

from pbem.games.rommel.schema import RommelPack
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "CLASSES",
    "ArmsClass",
    "BattleHex",
    "BattleUnit",
    "Round",
    "Side",
    "battle_unit",
    "check_strength",
    "other_side",
    "unit_speed",
]

Side = Literal["axis", "allied"]
ArmsClass = Literal["armor", "infantry", "anti_tank", "artillery"]
CLASSES: tuple[ArmsClass, ...] = get_args(ArmsClass)
"""§2.2: the arms classes in the Fire Table's order (the schema's ``ARMS_CLASSES``, typed)."""


def other_side(side: Side) -> Side:
    """The opponent of ``side``."""
    return "allied" if side == "axis" else "axis"


@dataclass(frozen=True, slots=True)
class BattleUnit:
    """A block in a battle hex with its true values.

    Attributes:
        block: the block id (the pack's).
        side: its owner.
        arms_class: §2.2, what it targets and what targets it (§9.3).
        speed: §6.1, for Pursuit Fire (§10.5).
        cv: its current Combat Value (§2.3): the dice it rolls and the hits it absorbs.
        cv_min: its lowest printed CV; a unit reduced below it is eliminated (§2.3).
        step: CV per step, 1 or 2 for an elite unit (§2.4); one hit removes 1 CV, a step is lost whole.
        disrupted: face down (§11.1): it neither fires nor absorbs hits nor counts for targeting.
    """

    block: str
    side: Side
    arms_class: ArmsClass
    speed: int
    cv: int
    cv_min: int
    step: int = 1
    disrupted: bool = False

    @property
    def elite(self) -> bool:
        """§2.4: two CV (two hits) per step."""
        return self.step > 1

    @property
    def steps(self) -> int:
        """The steps it can lose before it is gone: the last one eliminates it (§2.3)."""
        return (self.cv - self.cv_min) // self.step + 1

    def after(self, steps: int) -> BattleUnit | None:
        """This unit after losing ``steps`` steps, or None if that eliminates it (§2.3)."""
        if not 0 <= steps <= self.steps:
            raise ValueError(f"{self.block} has {self.steps} steps to lose, not {steps}")
        cv = self.cv - steps * self.step
        return replace(self, cv=cv) if cv >= self.cv_min else None

    def loss(self, steps: int) -> int:
        """The CV lost by losing ``steps`` steps: the whole CV when they eliminate it."""
        left = self.after(steps)
        return self.cv - (left.cv if left is not None else 0)


def battle_unit(
    pack: RommelPack,
    block: str,
    cv: int | None = None,
    *,
    disrupted: bool = False,
    i_tanks: bool = False,
    speed: int | None = None,
) -> BattleUnit:
    """The :class:`BattleUnit` of ``block`` at ``cv`` (default: its maximum) from the pack's block and unit type.

    Args:
        i_tanks: the optional Allied I-Tanks rule is in play (Optional Rules sidebar, cited 17.0): I-tank blocks are
            elite (the pack's ``elite_step``) and move at the pack's ``i_tank_speed`` instead of their type's.
        speed: overrides the speed the pack gives (a test's hand-made unit); None reads it from the pack.

    Raises:
        KeyError: an unknown block.
        ValueError: ``cv`` is not a strength the block can have (:func:`check_strength`).
    """
    record = pack.block(block)
    unit_type = pack.unit_type(record.unit_type)
    elite = record.elite or (i_tanks and record.i_tank)
    step = pack.limit("elite_step") if elite else pack.limit("step")
    strength = record.cv_max if cv is None else cv
    verdict = check_strength(pack, block, strength, i_tanks=i_tanks)
    if not verdict.ok:
        raise ValueError(verdict.message)
    return BattleUnit(
        block=block,
        side=record.side,
        arms_class=unit_type.arms_class,
        speed=unit_speed(pack, block, i_tanks=i_tanks) if speed is None else speed,
        cv=strength,
        cv_min=record.cv_min,
        step=step,
        disrupted=disrupted,
    )


def unit_speed(pack: RommelPack, block: str, *, i_tanks: bool = False) -> int:
    """§6.1: ``block``'s Unit Speed from its unit type, or the pack's ``i_tank_speed`` for an I-tank when the optional
    Allied I-Tanks rule is in play ("reduced Unit Speed of 2, instead of 3"). Movement, Regroup reach and Pursuit
    Fire all use this speed.

    Raises:
        KeyError: an unknown block.
    """
    record = pack.block(block)
    if i_tanks and record.i_tank:
        return pack.limit("i_tank_speed")
    return pack.unit_type(record.unit_type).speed


def check_strength(pack: RommelPack, block: str, cv: int, *, i_tanks: bool = False) -> Verdict:
    """§2.3: whether ``block`` can stand at ``cv``: between its lowest and highest printed CV, whole steps below the
    maximum (an elite block moves 2 CV a step, §2.4). The audit checks reported strengths with it.

    Raises:
        KeyError: an unknown block.
    """
    record = pack.block(block)
    elite = record.elite or (i_tanks and record.i_tank)
    step = pack.limit("elite_step") if elite else pack.limit("step")
    if not record.cv_min <= cv <= record.cv_max:
        return deny("2.3", "strength-out-of-range", f"{block} has CV {record.cv_min}-{record.cv_max}, not {cv}")
    if (record.cv_max - cv) % step:
        return deny("2.4", "strength-off-step", f"{block} loses {step} CV a step: CV {cv} is not on its label")
    return ALLOW


@dataclass(frozen=True, slots=True)
class BattleHex:
    """A battle (§8): the units in the hex and what the hex gives its Defender.

    Attributes:
        units: every block in the hex, both sides, disrupted ones included (they take no part, §11.11).
        attacker: the side that initiated the battle, the Attacker for as long as it lasts (§8.3).
        fortress: the hex is a Fortress (§13.2): the Defender's non-armor units fire Double Dice on Defensive Fire.
        minefield: the hex holds a (revealed) Minefield (§14.2): the Defender takes half-hits from non-artillery.
    """

    units: tuple[BattleUnit, ...]
    attacker: Side
    fortress: bool = False
    minefield: bool = False

    @property
    def defender(self) -> Side:
        """§8.3: the other side."""
        return other_side(self.attacker)

    def unit(self, block: str) -> BattleUnit:
        """The unit of ``block``; KeyError if it is not in this battle."""
        for unit in self.units:
            if unit.block == block:
                return unit
        raise KeyError(block)

    def of(self, side: Side, *, disrupted: bool | None = False) -> tuple[BattleUnit, ...]:
        """``side``'s units: undisrupted ones (default), disrupted ones, or all (``disrupted=None``)."""
        return tuple(u for u in self.units if u.side == side and (disrupted is None or u.disrupted == disrupted))

    def classes(self, side: Side) -> frozenset[ArmsClass]:
        """The arms classes ``side`` has present for targeting: its undisrupted units' (§9.3 sidebar)."""
        return frozenset(u.arms_class for u in self.of(side))

    def without(self, blocks: Iterable[str]) -> BattleHex:
        """This battle without ``blocks`` (eliminated, or disengaging before Probe Combat, §10.41)."""
        gone = frozenset(blocks)
        return replace(self, units=tuple(u for u in self.units if u.block not in gone))

    def with_units(self, changed: Mapping[str, BattleUnit | None]) -> BattleHex:
        """This battle with each block of ``changed`` replaced by its new unit, or removed where None."""
        units = tuple(changed.get(u.block, u) for u in self.units)
        return replace(self, units=tuple(u for u in units if u is not None))


@dataclass(frozen=True, slots=True)
class Round:
    """A combat round's roles (§9.1).

    Attributes:
        initiator: the side that initiates it and fires Offensive Fire second: the Active Player (§9.1), or the
            Passive Player in Probe Combat (§10.41, roles reversed). The other side fires Defensive Fire first.
        assault: an Assault battle of an Assault Turn (§4.3): every unit fires Double Dice (§9.21).
    """

    initiator: Side
    assault: bool = False

    @property
    def defensive(self) -> Side:
        """The side that fires first, Defensive Fire (§9.1)."""
        return other_side(self.initiator)

    @property
    def order(self) -> tuple[Side, Side]:
        """§9.1: Defensive Fire, then Offensive Fire."""
        return (self.defensive, self.initiator)
