"""§9.1-§9.4, §9.21, §13.2, §14.2: one side's fire in a combat round, unit by unit.

A combat round (§9.1) is two volleys: the side that did not initiate it fires Defensive Fire, its hits are applied
(:func:`volley_losses` / :func:`apply_volley`), then the initiator fires Offensive Fire with its surviving, reduced
units. In a volley each undisrupted unit fires once, artillery first (§9.2): the firing player names the unit and
the target class (§9.3), the protocol rolls
:func:`fire_dice` dice, and :func:`fire` scores them. Hits on a class are allocated by its owner only when the
volley is over (§9.5); a class that has taken enough hits to eliminate all its units is gone for the rest of the
volley (§9.5: "removed from play, which may affect subsequent targeting").

Whether a unit may hold its fire is the option ``fire_optional`` of :class:`Volley` (notes §10.29: the text never
says; Pursuit Fire is explicitly optional, §10 sidebar). True, the RULING and recommended default: a unit may
decline, so "artillery must fire first" means no artillery fires once another unit has (:func:`check_fire`), and a
side ends its volley when it likes. False: every unit that has a target fires (:func:`check_volley_over`), all the
artillery before any other unit.

Dice multipliers (§9.21, §13.2 and its sidebar, §4.3): an Assault doubles every unit's dice; the Defender's
non-armor units in a Fortress double theirs on Defensive Fire, quadruple in an Assault; the advantage is lost when
the Defender initiates the round. Minefield Defenders take half-hits from non-artillery fire (§9.52, §14.2), also
lost when the Defender initiates. In Probe Combat (§10.41) the Passive Player initiates, so a Rearguard of Original
Defenders keeps both benefits and the probers get none (§10 sidebar, Reversed Roles in Probe Combat).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from pbem.games.rommel.battle_losses import Hits, Losses, check_losses, reduced
from pbem.games.rommel.battle_units import CLASSES, ArmsClass, BattleHex, BattleUnit, Round, Side, other_side
from pbem.games.rommel.schema import Fire, RommelPack
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "PlannedFire",
    "Shot",
    "Volley",
    "apply_volley",
    "check_fire",
    "check_volley_losses",
    "check_volley_over",
    "dice_multiplier",
    "fire",
    "fire_dice",
    "fire_level",
    "fire_options",
    "half_hits",
    "hits_scored",
    "legal_targets",
    "plan_dice",
    "remaining_classes",
    "resolve_plan",
    "volley_losses",
]


@dataclass(frozen=True, slots=True)
class Shot:
    """One unit's fire (§9.2): its target class, Firepower, dice rolled and hits scored."""

    block: str
    target: ArmsClass
    fire: Fire
    rolls: tuple[int, ...]
    hits: Hits


@dataclass(frozen=True, slots=True)
class PlannedFire:
    """A unit's entry in a fire plan: it fires at the first of ``targets`` it may target when its turn comes."""

    block: str
    targets: tuple[ArmsClass, ...]


@dataclass(frozen=True, slots=True)
class Volley:
    """One side's Defensive or Offensive Fire in a combat round, so far.

    Attributes:
        side: the firing side.
        shots: the fire so far, in order.
        fire_optional: the option of the module docstring: a unit may hold its fire (True, the default).
    """

    side: Side
    shots: tuple[Shot, ...] = ()
    fire_optional: bool = True

    @property
    def fired(self) -> frozenset[str]:
        """The blocks that have fired."""
        return frozenset(s.block for s in self.shots)

    def hits_on(self, target: ArmsClass) -> Hits:
        """The hits scored on ``target`` so far."""
        total = Hits()
        for shot in self.shots:
            if shot.target == target:
                total = total + shot.hits
        return total


def _class_points(battle: BattleHex, side: Side, target: ArmsClass) -> int:
    """Points that eliminate every undisrupted ``target`` unit of ``side`` (each step costs 2 points per CV)."""
    return sum(2 * u.step * u.steps for u in battle.of(side) if u.arms_class == target)


def remaining_classes(battle: BattleHex, volley: Volley) -> frozenset[ArmsClass]:
    """The target side's classes present (undisrupted, §9.3 sidebar) and not yet eliminated by this volley (§9.5)."""
    target_side = other_side(volley.side)
    return frozenset(
        c for c in battle.classes(target_side) if volley.hits_on(c).points < _class_points(battle, target_side, c)
    )


def legal_targets(battle: BattleHex, volley: Volley, block: str) -> tuple[ArmsClass, ...]:
    """§9.3: the classes ``block`` may target now, in Fire Table order (empty: it has nothing to fire at)."""
    unit = battle.unit(block)
    present = remaining_classes(battle, volley)
    if unit.arms_class in ("armor", "infantry") and unit.arms_class in present:
        return (unit.arms_class,)
    if unit.arms_class != "artillery" and present - {"artillery"}:
        present = present - {"artillery"}
    return tuple(c for c in CLASSES if c in present)


def check_fire(battle: BattleHex, volley: Volley, block: str, target: ArmsClass) -> Verdict:
    """Whether ``block`` may fire at ``target`` next in ``volley`` (§9.2, §9.3, §11.1)."""
    try:
        unit = battle.unit(block)
    except KeyError:
        return deny("9.2", "not-in-battle", f"{block} is not in this battle")
    if unit.side != volley.side:
        return deny("9.1", "not-firing-side", f"{block} is not a {volley.side} unit")
    if unit.disrupted:
        return deny("11.1", "disrupted-cannot-fire", f"{block} is Disrupted")
    if block in volley.fired:
        return deny("9.2", "already-fired", f"{block} has fired this round")
    if unit.arms_class == "artillery" and any(battle.unit(s.block).arms_class != "artillery" for s in volley.shots):
        return deny("9.2", "artillery-fires-first", f"{block} is artillery and other units have fired")
    if unit.arms_class != "artillery" and not volley.fire_optional:
        waiting = sorted(u.block for u in _must_fire(battle, volley) if u.arms_class == "artillery")
        if waiting:
            return deny("9.2", "artillery-fires-first", f"{', '.join(waiting)} must fire before {block}")
    allowed = legal_targets(battle, volley, block)
    if target in allowed:
        return ALLOW
    if not allowed:
        return deny("9.3", "no-target", f"{block} has no enemy unit to fire at")
    if target not in remaining_classes(battle, volley):
        return deny("9.3", "target-absent", f"there is no enemy {target} to fire at")
    if allowed == (unit.arms_class,):
        return deny("9.3", f"must-target-{unit.arms_class}", f"{block} must fire at the enemy {unit.arms_class}")
    return deny("9.3", "artillery-supported", "only artillery may fire at supported artillery")


def _must_fire(battle: BattleHex, volley: Volley) -> tuple[BattleUnit, ...]:
    """The volley's side's undisrupted units that have not fired and have something to fire at."""
    return tuple(
        u for u in battle.of(volley.side) if u.block not in volley.fired and legal_targets(battle, volley, u.block)
    )


def check_volley_over(battle: BattleHex, volley: Volley) -> Verdict:
    """Whether the volley's side may end its fire now: always when fire is optional (the default), else only once
    every unit with a target has fired (§9.2 read strictly, the option ``fire_optional=False``)."""
    if volley.fire_optional:
        return ALLOW
    waiting = sorted(u.block for u in _must_fire(battle, volley))
    if waiting:
        return deny("9.2", "units-must-fire", f"{', '.join(waiting)} must still fire")
    return ALLOW


def fire_options(battle: BattleHex, volley: Volley) -> tuple[tuple[str, ArmsClass], ...]:
    """Every (unit, target class) the volley's side may fire next, for prompts: exactly what :func:`check_fire`
    accepts. Empty when no unit can fire (the volley is over, or the side declines the rest)."""
    return tuple(
        (u.block, target)
        for u in battle.of(volley.side)
        for target in legal_targets(battle, volley, u.block)
        if check_fire(battle, volley, u.block, target).ok
    )


def fire_level(pack: RommelPack, firer: ArmsClass, target: ArmsClass, *, unsupported: bool = False) -> Fire:
    """§9.4: the Firepower of ``firer`` against ``target`` from the pack's Fire Table; TF (the pack's
    ``unsupported_artillery``) for a non-artillery unit firing at unsupported artillery (§9.3 sidebar).

    Raises:
        ValueError: a non-artillery unit at supported artillery (the table has no cell: §9.3 forbids it).
    """
    if target == "artillery" and firer != "artillery":
        if not unsupported:
            raise ValueError(f"{firer} cannot target supported artillery (§9.3)")
        return pack.tables.unsupported_artillery.fire
    level = pack.fire(firer, target)
    if level is None:
        raise ValueError(f"the Fire Table has no cell for {firer} at {target}")
    return level


def dice_multiplier(pack: RommelPack, battle: BattleHex, round_: Round, unit: BattleUnit) -> int:
    """§9.21, §13.2: how many times its CV ``unit`` rolls: 2 in an Assault, 2 for the Defender's non-armor units
    on Defensive Fire in a Fortress the Defender did not initiate the round in, 4 for both (the sidebar's
    Quadruple Dice)."""
    fortress = (
        battle.fortress
        and unit.side == battle.defender
        and round_.initiator != battle.defender
        and unit.arms_class != "armor"
    )
    if fortress and round_.assault:
        return pack.limit("fortress_assault_dice")
    if fortress or round_.assault:
        return pack.limit("double_dice")
    return 1


def fire_dice(pack: RommelPack, battle: BattleHex, round_: Round, block: str) -> int:
    """§9.2: the dice ``block`` rolls: one per current CV, times :func:`dice_multiplier`."""
    unit = battle.unit(block)
    return unit.cv * dice_multiplier(pack, battle, round_, unit)


def half_hits(battle: BattleHex, round_: Round, unit: BattleUnit) -> bool:
    """§9.52, §14.2: whether ``unit``'s hits are half-hits: it fires at Minefield Defenders, is not artillery,
    and the Defender did not initiate the round (the advantage is lost then)."""
    return (
        battle.minefield
        and unit.side == battle.attacker
        and round_.initiator == battle.attacker
        and unit.arms_class != "artillery"
    )


def hits_scored(pack: RommelPack, level: Fire, rolls: Sequence[int]) -> int:
    """§9.4: the rolls that score at Firepower ``level`` (SF 6, DF 5-6, TF 4-6, from the pack).

    Raises:
        ValueError: a roll outside 1-6.
    """
    if any(not 1 <= r <= 6 for r in rolls):
        raise ValueError(f"die rolls must be 1-6: {tuple(rolls)}")
    hit_min = next(row.hit_min for row in pack.tables.fire_levels if row.id == level)
    return sum(1 for r in rolls if r >= hit_min)


def fire(
    pack: RommelPack,
    battle: BattleHex,
    round_: Round,
    volley: Volley,
    block: str,
    target: ArmsClass,
    rolls: Sequence[int],
) -> tuple[Volley, Shot]:
    """``block`` fires at ``target`` with ``rolls`` (exactly :func:`fire_dice` of them): the volley after, and the shot.

    Raises:
        ValueError: the fire is not legal (:func:`check_fire`), or the wrong number of rolls.
    """
    verdict = check_fire(battle, volley, block, target)
    if not verdict.ok:
        raise ValueError(f"§{verdict.rule} {verdict.reason}: {verdict.message}")
    need = fire_dice(pack, battle, round_, block)
    if len(rolls) != need:
        raise ValueError(f"dice-count: {block} rolls {need} dice, not {len(rolls)}")
    unit = battle.unit(block)
    unsupported = target == "artillery" and remaining_classes(battle, volley) == {"artillery"}
    level = fire_level(pack, unit.arms_class, target, unsupported=unsupported)
    scored = hits_scored(pack, level, rolls)
    hits = Hits(half=scored) if half_hits(battle, round_, unit) else Hits(full=scored)
    shot = Shot(block, target, level, tuple(rolls), hits)
    return replace(volley, shots=(*volley.shots, shot)), shot


def plan_dice(pack: RommelPack, battle: BattleHex, round_: Round, plan: Sequence[PlannedFire]) -> int:
    """The dice a whole fire plan needs: every planned unit's :func:`fire_dice` (a unit's CV does not change during
    its side's volley, §9.5: losses are finalized when the fire is complete)."""
    return sum(fire_dice(pack, battle, round_, p.block) for p in plan)


def resolve_plan(
    pack: RommelPack,
    battle: BattleHex,
    round_: Round,
    volley: Volley,
    plan: Sequence[PlannedFire],
    rolls: Sequence[int],
) -> Volley:
    """A whole volley fired from one set of rolls (one decision, one roll, instead of one per unit).

    The units fire in plan order, each taking the next :func:`fire_dice` rolls and firing at the first of its
    ``targets`` that :func:`check_fire` accepts at that moment (an earlier shot may have eliminated a class, §9.3);
    a unit with none of them left does not fire and its rolls are unused, unless fire is mandatory (the volley's
    ``fire_optional`` is False): then it fires at its first legal target in Fire Table order, and the plan must
    name every unit that can fire (:func:`check_volley_over`). The plan must still be legal in itself: artillery
    before other units (§9.2), each unit once.

    Raises:
        ValueError: ``len(rolls) != plan_dice(...)``, a unit planned twice, artillery planned after another unit, or
            (mandatory fire) a unit that can fire left out of the plan.
    """
    if len(rolls) != plan_dice(pack, battle, round_, plan):
        raise ValueError(f"dice-count: the plan rolls {plan_dice(pack, battle, round_, plan)} dice, not {len(rolls)}")
    blocks = [p.block for p in plan]
    if len(set(blocks)) != len(blocks) or set(blocks) & volley.fired:
        raise ValueError("§9.2 already-fired: a unit fires once in a round")
    artillery = [battle.unit(b).arms_class == "artillery" for b in blocks]
    others_before = any(battle.unit(s.block).arms_class != "artillery" for s in volley.shots)
    if any(artillery[i] and (others_before or not all(artillery[:i])) for i in range(len(plan))):
        raise ValueError("§9.2 artillery-fires-first: artillery is planned after other units")
    left_out = sorted(u.block for u in _must_fire(battle, volley) if u.block not in blocks)
    if not volley.fire_optional and left_out:
        raise ValueError(f"§9.2 units-must-fire: the plan leaves out {', '.join(left_out)}")
    at = 0
    for entry in plan:
        need = fire_dice(pack, battle, round_, entry.block)
        mine, at = rolls[at : at + need], at + need
        fallback = () if volley.fire_optional else legal_targets(battle, volley, entry.block)
        target = next((t for t in (*entry.targets, *fallback) if check_fire(battle, volley, entry.block, t).ok), None)
        if target is not None:
            volley, _ = fire(pack, battle, round_, volley, entry.block, target, mine)
    return volley


def volley_losses(battle: BattleHex, volley: Volley) -> tuple[tuple[ArmsClass, tuple[BattleUnit, ...], Hits], ...]:
    """The hits of a finished volley to allocate, per target class: the class, its units (the targets) and the
    hits (§9.5). Their owner reports the losses of each class (:func:`~pbem.games.rommel.battle_losses.legal_losses`
    lists the legal reports)."""
    target_side = other_side(volley.side)
    out: list[tuple[ArmsClass, tuple[BattleUnit, ...], Hits]] = []
    for cls in CLASSES:
        hits = volley.hits_on(cls)
        if hits.points:
            out.append((cls, tuple(u for u in battle.of(target_side) if u.arms_class == cls), hits))
    return tuple(out)


def check_volley_losses(battle: BattleHex, volley: Volley, losses: Mapping[ArmsClass, Losses]) -> Verdict:
    """Whether the owner's report of a finished volley's losses, per class, is legal (§9.5, §9.52)."""
    owed = {cls: (targets, hits) for cls, targets, hits in volley_losses(battle, volley)}
    for cls in sorted(losses):
        if cls not in owed and any(losses[cls].values()):
            return deny("9.5", "class-not-hit", f"no hits were scored on {cls}")
    for cls, (targets, hits) in owed.items():
        verdict = check_losses(targets, hits, losses.get(cls, {}))
        if not verdict.ok:
            return verdict
    return ALLOW


def apply_volley(battle: BattleHex, volley: Volley, losses: Mapping[ArmsClass, Losses]) -> BattleHex:
    """The battle after the owner's legal report of a finished volley's losses (§9.5): the next volley fires with
    these reduced units (§9.1).

    Raises:
        ValueError: the report is not legal (:func:`check_volley_losses`).
    """
    verdict = check_volley_losses(battle, volley, losses)
    if not verdict.ok:
        raise ValueError(f"§{verdict.rule} {verdict.reason}: {verdict.message}")
    changed: dict[str, BattleUnit | None] = {}
    for cls, targets, hits in volley_losses(battle, volley):
        changed.update(reduced(targets, hits, losses.get(cls, {})))
    return battle.with_units(changed)
