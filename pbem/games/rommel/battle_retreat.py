"""Leaving battles and their cost (§8.2, §8.4, §10, §11.3, §11.4): Pursuit Fire, Refusing Battle, full and partial
Retreats with Probe Combat, Routs and Overruns.

The procedures, as the rules order them (the ruleset drives them; these functions answer each step):

* **Refuse Battle** (§10.2 procedure): :func:`check_refuse_battle`; the Active Player's Pursuit Fire
  (:func:`pursuit_dice` from the speed the Passive Player announces, :func:`pursuit_hits`, losses by
  :func:`~pbem.games.rommel.battle_losses.check_losses` on the retreating units); the Withdrawal Group Move; then
  the group's Disrupted units, now unshielded, Rout (:func:`rout_attrition`, Pursuit Fire by unfired units).
* **Full Retreat** (§10.3): :func:`check_retreat` (kind ``"full"``), then Pursuit Fire by the Passive Player, the
  move, Routs of any Disrupted units left (:func:`routed`).
* **Partial Retreat** (§10.4, §10.41): :func:`check_retreat` (kind ``"partial"``); the Passive Player may provoke
  Probe Combat, one combat round in :func:`probe_battle` with :func:`probe_round` (roles reversed); if
  :func:`rearguard` is then empty it becomes a full Retreat, with Pursuit Fire from unfired probers only.
* **Rout** (§11.3) and **Overrun** (§11.4): :func:`engagement` says a move into a hex of unshielded Disrupted
  units is an Overrun; routed units lose a step (:func:`rout_attrition`), take Pursuit Fire, withdraw, and are
  Disrupted again.

Hidden values make some of these public *claims*: the slowest retreating speed, the number of pursuit dice, the
strengths after hidden losses. :func:`check_slowest_speed`, :func:`check_pursuit_dice` and
:func:`~pbem.games.rommel.battle_units.check_strength` judge them against the true values at the audit.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Literal

from pbem.games.rommel.battle_units import BattleHex, BattleUnit, Round, Side, other_side
from pbem.games.rommel.schema import RommelPack
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "Engagement",
    "RetreatKind",
    "check_pursuers",
    "check_pursuit_dice",
    "check_refuse_battle",
    "check_reserved_pursuit_dice",
    "check_retreat",
    "check_slowest_speed",
    "engagement",
    "lose_steps",
    "probe_battle",
    "probe_round",
    "pursuit_dice",
    "pursuit_dice_counts",
    "pursuit_dice_splits",
    "pursuit_hits",
    "rearguard",
    "retreat_forced_march",
    "retreat_kind",
    "rout_attrition",
    "routed",
    "slowest_speed",
    "unfired_pursuers",
]

RetreatKind = Literal["full", "partial"]
Engagement = Literal["none", "attack", "overrun", "join"]


# --- §10.5 Pursuit Fire --------------------------------------------------------------------------------------------


def slowest_speed(retreating: Iterable[BattleUnit]) -> int:
    """§10.5: the speed of the slowest retreating unit, the one the retreating player announces.

    Raises:
        ValueError: nothing retreats.
    """
    speeds = [u.speed for u in retreating]
    if not speeds:
        raise ValueError("no unit retreats")
    return min(speeds)


def check_slowest_speed(retreating: Iterable[BattleUnit], announced: int) -> Verdict:
    """The audit of an announced slowest retreating speed against the retreating units' true speeds (§10.5)."""
    true = slowest_speed(retreating)
    if announced != true:
        return deny(
            "10.5", "slowest-speed-misreported", f"the slowest retreating unit has speed {true}, not {announced}"
        )
    return ALLOW


def _dice_of(pack: RommelPack, slowest: int, pursuer: BattleUnit) -> int:
    if pursuer.speed > slowest:
        return pack.limit("pursuit_dice_faster")
    if pursuer.speed == slowest:
        return pack.limit("pursuit_dice_equal")
    return 0


def pursuit_dice(pack: RommelPack, slowest: int, pursuers: Iterable[BattleUnit]) -> int:
    """§10.5: the dice ``pursuers`` roll against a group whose slowest unit has speed ``slowest`` (the announced
    speed): one per equally fast unit, two per faster unit, none for slower ones."""
    return sum(_dice_of(pack, slowest, u) for u in pursuers)


def pursuit_dice_counts(pack: RommelPack, slowest: int, eligible: Iterable[BattleUnit]) -> frozenset[int]:
    """Every number of pursuit dice the pursuer can roll by letting some of ``eligible`` fire and withholding the
    others (§10 sidebar, Pursuit Deception): what a hidden pursuer may claim."""
    counts = {0}
    for unit in eligible:
        dice = _dice_of(pack, slowest, unit)
        counts |= {c + dice for c in counts}
    return frozenset(counts)


def check_pursuit_dice(pack: RommelPack, slowest: int, eligible: Iterable[BattleUnit], claimed: int) -> Verdict:
    """The audit of a claimed number of pursuit dice: some of the eligible pursuers (true speeds) roll exactly that
    many against the announced ``slowest`` speed (§10.5)."""
    possible = pursuit_dice_counts(pack, slowest, eligible)
    if claimed not in possible:
        return deny(
            "10.5",
            "pursuit-dice-miscounted",
            f"{claimed} pursuit dice: the pursuers could roll {sorted(possible)} against speed {slowest}",
        )
    return ALLOW


def pursuit_dice_splits(
    pack: RommelPack, slowest: Sequence[int], eligible: Iterable[BattleUnit]
) -> frozenset[tuple[int, ...]]:
    """The dice ``eligible`` may roll in successive Pursuit Fires from one hex against the announced speeds
    ``slowest`` (one per pursuit, in order), each unit firing at most once (§10 sidebar, Pursuit Deception: fire
    reserved for Disrupted units about to be Routed; §10.3 procedure step 4: "by unfired units")."""
    splits = {(0,) * len(slowest)}
    for unit in eligible:
        grown = set(splits)
        for k, speed in enumerate(slowest):
            dice = _dice_of(pack, speed, unit)
            grown |= {(*s[:k], s[k] + dice, *s[k + 1 :]) for s in splits}
        splits = grown
    return frozenset(splits)


def check_reserved_pursuit_dice(
    pack: RommelPack, earlier: Sequence[tuple[int, int]], slowest: int, eligible: Iterable[BattleUnit], claimed: int
) -> Verdict:
    """The audit of a claimed number of pursuit dice after ``earlier`` Pursuit Fires from the same hex ((announced
    speed, dice) each): the units that rolled those cannot fire again (Pursuit Deception, §10.3 step 4)."""
    speeds = [s for s, _ in earlier] + [slowest]
    wanted = (*(d for _, d in earlier), claimed)
    if wanted not in pursuit_dice_splits(pack, speeds, eligible):
        return deny(
            "10.5",
            "pursuit-dice-miscounted",
            f"{claimed} pursuit dice against speed {slowest}: the units that fired the earlier {list(earlier)} cannot"
            " fire again",
        )
    return ALLOW


def check_pursuers(battle: BattleHex, pursuer: Side, blocks: Collection[str], fired: Collection[str] = ()) -> Verdict:
    """Whether ``blocks`` may pursue: undisrupted ``pursuer`` units in the (former) battle hex that have not fired
    this round (§10.5; §11.3 sidebar, Combat Phase Routs; §10.2 procedure step 4: unfired units)."""
    eligible = {u.block for u in unfired_pursuers(battle, pursuer, fired)}
    for block in sorted(blocks):
        if block not in eligible:
            return deny("10.5", "not-a-pursuer", f"{block} cannot pursue: not an unfired undisrupted {pursuer} unit")
    return ALLOW


def unfired_pursuers(battle: BattleHex, pursuer: Side, fired: Collection[str] = ()) -> tuple[BattleUnit, ...]:
    """``pursuer``'s undisrupted units in the battle that have not fired (in this round, or at this retreat)."""
    return tuple(u for u in battle.of(pursuer) if u.block not in fired)


def pursuit_hits(pack: RommelPack, rolls: Sequence[int]) -> int:
    """§10.5: one hit per roll of 4, 5 or 6 (the pack's ``pursuit_hit_min``). They are full hits on any retreating
    units: "one hit is scored" (§10.5); half-hits are only Offensive Fire by Attacking units on Minefield Defenders
    (§9.52, §14.2), and Pursuit Fire is neither (the text settles it, no option).

    Raises:
        ValueError: a roll outside 1-6.
    """
    if any(not 1 <= r <= 6 for r in rolls):
        raise ValueError(f"die rolls must be 1-6: {tuple(rolls)}")
    return sum(1 for r in rolls if r >= pack.limit("pursuit_hit_min"))


# --- step losses outside fire --------------------------------------------------------------------------------------


def lose_steps(unit: BattleUnit, steps: int) -> BattleUnit | None:
    """``unit`` after losing ``steps`` steps (at most all it has): None when that eliminates it (§2.3)."""
    return unit.after(min(steps, unit.steps))


def rout_attrition(pack: RommelPack, unit: BattleUnit) -> BattleUnit | None:
    """§11.3: a routed unit loses one step of Rout Attrition (2 CV if elite): None when that eliminates it."""
    return lose_steps(unit, pack.limit("rout_attrition_steps"))


def retreat_forced_march(pack: RommelPack, unit: BattleUnit) -> BattleUnit | None:
    """§6.4 sidebar, Retreat Forced Marches: a retreating unit that fails a Forced March loses one step."""
    return lose_steps(unit, pack.limit("forced_march_retreat_steps"))


# --- §8.2, §11.3, §11.4 engaging, routs and overruns ---------------------------------------------------------------


def engagement(units_in_hex: Iterable[BattleUnit], mover: Side) -> Engagement:
    """What moving ``mover``'s units into a hex holding ``units_in_hex`` is (§7.0, §8.2, §11.4): ``none`` (no enemy),
    ``overrun`` (every enemy unit there is Disrupted, so none shields them: they Rout, even beside ``mover``'s own
    Disrupted units, §5.3 sidebar), ``join`` (an existing battle: not an Attack) or ``attack``.

    A Retreating Withdrawal passes through or stops with enemy Disrupted units with no effect (§5.3 sidebar): the
    mover, not this function, tells an Overrun from that."""
    enemy = [u for u in units_in_hex if u.side != mover]
    if not enemy:
        return "none"
    if all(u.disrupted for u in enemy):
        return "overrun"
    if any(u.side == mover for u in units_in_hex):
        return "join"
    return "attack"


def routed(battle: BattleHex, side: Side) -> tuple[BattleUnit, ...]:
    """§11.11, §11.3: ``side``'s Disrupted units that Rout: those left in a battle hex without an undisrupted
    friendly unit to shield them (none while one remains). Only undisrupted enemy units rout them: with no enemy left
    the battle is won (§11.11), and Disrupted units of both sides alone in a hex coexist (§5.3 sidebar)."""
    if battle.of(side) or not battle.of(other_side(side)):
        return ()
    return battle.of(side, disrupted=True)


# --- §8.4, §10.2 Refusing Battle -----------------------------------------------------------------------------------


def check_refuse_battle(
    group: Sequence[BattleUnit],
    withdrawing: Collection[str],
    *,
    attacked: bool,
    engaged_before: bool,
    supply_lines: Mapping[str, bool],
) -> Verdict:
    """Whether the Passive Player may Refuse Battle with ``group`` by withdrawing ``withdrawing`` (§8.4, §10.2).

    Args:
        group: the units of the group in the hex (disrupted ones too: they Rout once the others have left).
        withdrawing: the blocks that withdraw: every undisrupted unit of the group (no Partial Retreat).
        attacked: the group was Attacked this Movement (§8.2: its hex held only its units).
        engaged_before: the group was already engaged when Movement began.
        supply_lines: for each undisrupted block, whether it has a Supply Line (a Withdrawal Move needs one).

    The Withdrawal Move itself is checked by :func:`pbem.games.rommel.supply.check_withdrawal`.
    """
    if engaged_before:
        return deny("8.4", "already-engaged", "groups engaged when Movement began cannot Refuse Battle")
    if not attacked:
        return deny("10.2", "not-attacked", "only groups just Attacked may Refuse Battle")
    # Only the undisrupted units need a Supply Line: the sidebar on Disrupted units in a refusing Group has them stay
    # and Rout, then withdraw as a group of their own (eliminated if they cannot, §11.3), so they never make the
    # refusal the Partial Retreat the sidebar on units without a Supply Line forbids (the text settles it, no option).
    able = [u.block for u in group if not u.disrupted]
    if not able:
        return deny("8.2", "unshielded-routs", "unshielded Disrupted units that are Attacked Rout instead")
    if set(withdrawing) != set(able):
        return deny("10.2", "partial-refusal", "Refusing Battle withdraws every undisrupted unit of the group")
    lacking = sorted(b for b in able if not supply_lines.get(b, False))
    if lacking:
        return deny("8.4", "no-supply-line", f"{', '.join(lacking)} cannot Withdraw: no Supply Line")
    return ALLOW


# --- §10.3, §10.4, §10.41 Retreats and Probe Combat ----------------------------------------------------------------


def retreat_kind(battle: BattleHex, side: Side, disengaging: Collection[str]) -> RetreatKind:
    """§10.0: a Full Retreat when every undisrupted ``side`` unit disengages, else Partial. Disrupted units cannot
    move (§11.1) and do not make it partial: the Full Retreat Procedure's step 4 Routs "any Disrupted units remaining
    in the Retreat hex", and §10.4's Rearguard is "all Undisrupted units remaining" (the text settles it)."""
    return "full" if {u.block for u in battle.of(side)} <= set(disengaging) else "partial"


def check_retreat(battle: BattleHex, side: Side, disengaging: Collection[str], *, withdrawal_move: bool) -> Verdict:
    """Whether ``side`` may disengage ``disengaging`` from the battle in a Group or Regroup Move (§7.2, §10.3,
    §10.4); the route is the move's (:mod:`pbem.games.rommel.board`).

    Args:
        withdrawal_move: the move is a Withdrawal Move (Pass turn, §4.5): no Partial Retreat (§10.4).
    """
    if not disengaging:
        return deny("10.0", "nothing-disengages", "a Retreat disengages at least one unit")
    for block in sorted(disengaging):
        try:
            unit = battle.unit(block)
        except KeyError:
            return deny("7.2", "not-engaged", f"{block} is not in this battle")
        if unit.side != side:
            return deny("7.2", "not-engaged", f"{block} is not a {side} unit")
        if unit.disrupted:
            return deny("11.1", "disrupted-cannot-move", f"{block} is Disrupted: it moves only to Rout")
    if withdrawal_move and retreat_kind(battle, side, disengaging) == "partial":
        return deny("10.4", "partial-by-withdrawal", "a Partial Retreat can never be made by Withdrawal Move")
    return ALLOW


def rearguard(battle: BattleHex, side: Side, disengaging: Collection[str]) -> tuple[BattleUnit, ...]:
    """§10.4: the undisrupted ``side`` units that stay: the Rearguard."""
    return tuple(u for u in battle.of(side) if u.block not in disengaging)


def probe_battle(battle: BattleHex, disengaging: Collection[str]) -> BattleHex:
    """§10.41: the battle Probe Combat is fought in: without the disengaging units (only the Rearguard is fired at;
    the disengaging units are exposed to Pursuit Fire only if the Rearguard is eliminated)."""
    return battle.without(disengaging)


def probe_round(active: Side) -> Round:
    """§10.41: Probe Combat's round: the Passive Player initiates it (the Rearguard fires Defensive Fire first), never
    an Assault."""
    return Round(initiator=other_side(active))
