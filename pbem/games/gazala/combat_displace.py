"""Retreats after combat and displacements (§7.5.2.2, §7.5.2.3, §5.3.1-§5.3.3), over :mod:`.retreat`.

* :func:`retreat_paths` enumerates every legal path of a retreating stack and :func:`check_retreat_path` refuses
  the others. Each hex entered must bring the stack closer to home (the nearest friendly Major supply source or
  the friendly map edge, :func:`~.retreat.home_distance`; notes B5), and among those the hexes that cost no extra
  Strength Point take precedence (§7.5.2.2: "avoiding additional step losses takes precedence"): an EZOC hex (a
  Forced Retreat only, +1 SP per unit, §7.5.2.3) or an overstacked hex (+1 SP per retreating unit, §7.5.2.2). A
  Forced Retreat that cannot go on costs each unit 2 SP per hex not entered; a Voluntary Retreat that cannot be
  completed is not offered (notes B6: :func:`can_retreat` tells the hit distribution).
* Overstacking in a hex a retreat enters disrupts every combat unit there (an already Disrupted one loses 1 SP,
  §5.3.1); where the retreat ends overstacked, the surplus is displaced.
* :func:`displacement_options` / :func:`check_displacement`: the opponent displaces overstacked combat units one at
  a time into adjacent hexes (§5.3.3), never into a fully stacked hex while another is open, never through enemy
  units; a unit with nowhere to go is eliminated, and when no unit can go anywhere the owner picks the units it
  eliminates (§5.3.1; :func:`displacement_chooser` says who picks). Only the combat units' own limits count here:
  a second HQ is a surplus HQ (:func:`surplus_hqs`), which its owner displaces (§5.3.2), never a reason to displace
  combat units.
* :func:`overstack_effects`: what overstacking does to a hex (§5.3.1): its combat units disrupt (a Disrupted one
  loses a Strength Point), and with two or more HQs each HQ loses a Support Point as well.
* HQs (§5.3.2, §7.5): :func:`hqs_left_alone` finds the HQs a combat left without a combat unit (displaced at once,
  even far from the enemy), :func:`hq_displacement_options` where the owner may put one, and
  :func:`hq_displacement_penalty` what a displacement costs it (one Attack Support point, one Activation space).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pbem.games.gazala.board import Situation, adjacent, other
from pbem.games.gazala.data import GazalaPack, Side
from pbem.games.gazala.retreat import home_distance, retreat_step
from pbem.games.gazala.stacking import stacking
from pbem.kit.hexes import HexId
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "Displacement",
    "HqPenalty",
    "OverstackEffects",
    "RetreatPath",
    "can_retreat",
    "check_displacement",
    "check_retreat_path",
    "displacement_chooser",
    "displacement_options",
    "hq_displacement_options",
    "hq_displacement_penalty",
    "hqs_left_alone",
    "overstack_effects",
    "overstacked",
    "retreat_paths",
    "surplus_hqs",
]


def _friendly_at(sit: Situation, side: Side, hex_id: HexId, *, without: Sequence[str] = ()) -> list[str]:
    """The ``side`` combat units and HQs in ``hex_id`` (``without`` left out)."""
    units = [u for u in sit.combat[side].get(hex_id, ()) if u not in without]
    hqs = [h for h, there in sit.position.hqs.items() if there == hex_id and sit.board.side[h] == side]
    return units + hqs


def _would_overstack(pack: GazalaPack, sit: Situation, side: Side, hex_id: HexId, arriving: Sequence[str]) -> bool:
    return not stacking(pack, [*_friendly_at(sit, side, hex_id, without=arriving), *arriving]).ok


@dataclass(frozen=True)
class RetreatPath:
    """A retreat as carried out.

    Attributes:
        hexes: the hexes entered, in order. blocked: hexes of a Forced Retreat it could not enter.
        ezoc: EZOC hexes entered (Forced Retreat). overstacked: hexes entered that it overstacked.
    """

    hexes: tuple[HexId, ...]
    blocked: int
    ezoc: tuple[HexId, ...]
    overstacked: tuple[HexId, ...]

    def losses(self, pack: GazalaPack, *, ezoc_once: bool = False) -> int:
        """The extra Strength Points each retreating unit loses (§7.5.2.2, §7.5.2.3): over and above the hits.
        ``ezoc_once``: the EZOC loss once for the retreat, not per EZOC hex entered (notes B7, ruling
        ``retreat_ezoc_loss``)."""
        entered = min(len(self.ezoc), 1) if ezoc_once else len(self.ezoc)
        return (
            entered * pack.number("forced_retreat_ezoc_loss")
            + len(self.overstacked) * pack.number("retreat_overstack_loss")
            + self.blocked * pack.number("forced_retreat_blocked_loss")
        )


def _steps(
    pack: GazalaPack, sit: Situation, side: Side, here: HexId, units: Sequence[str], *, forced: bool
) -> list[tuple[HexId, bool, bool]]:
    """The hexes the stack may retreat into from ``here``: closer to home, open (:func:`~.retreat.retreat_step`),
    an EZOC only in a Forced Retreat; of those, only the ones with the fewest extra losses. ``(hex, ezoc, over)``."""
    zone = sit.enemy_zone(side)
    now = home_distance(sit, side, here)
    found = []
    for there in sit.board.grid.neighbours(here):
        if not retreat_step(sit, side, here, there).ok or home_distance(sit, side, there) >= now:
            continue
        ezoc = there in zone
        if ezoc and not forced:
            continue
        found.append((there, ezoc, _would_overstack(pack, sit, side, there, units)))
    if not found:
        return []
    least = min(int(e) + int(o) for _, e, o in found)
    return [f for f in found if int(f[1]) + int(f[2]) == least]


def retreat_paths(
    pack: GazalaPack, sit: Situation, side: Side, start: HexId, units: Sequence[str], hexes: int, *, forced: bool
) -> tuple[RetreatPath, ...]:
    """Every legal retreat of ``units`` (one stack, ``side``) from ``start`` over ``hexes`` hexes (§7.5.2.2). A
    Forced Retreat stops where no hex is open and counts the hexes it missed; a Voluntary Retreat must be complete
    (none: it cannot be chosen)."""
    found: list[RetreatPath] = []

    def walk(here: HexId, path: tuple[HexId, ...], ezoc: tuple[HexId, ...], over: tuple[HexId, ...]) -> None:
        if len(path) == hexes:
            found.append(RetreatPath(path, 0, ezoc, over))
            return
        steps = _steps(pack, sit, side, here, units, forced=forced)
        if not steps:
            if forced:
                found.append(RetreatPath(path, hexes - len(path), ezoc, over))
            return
        for there, in_zone, overstack in steps:
            walk(there, (*path, there), (*ezoc, there) if in_zone else ezoc, (*over, there) if overstack else over)

    walk(start, (), (), ())
    return tuple(found)


def can_retreat(pack: GazalaPack, sit: Situation, side: Side, start: HexId, units: Sequence[str], hexes: int) -> bool:
    """Whether a Voluntary Retreat of ``hexes`` hexes is open (the hit distribution's ``can_retreat``)."""
    return bool(retreat_paths(pack, sit, side, start, units, hexes, forced=False))


def check_retreat_path(
    pack: GazalaPack,
    sit: Situation,
    side: Side,
    start: HexId,
    units: Sequence[str],
    hexes: int,
    path: Sequence[HexId],
    *,
    forced: bool,
) -> Verdict:
    """§7.5.2.2, §7.5.2.3: ``path`` (the hexes entered) is one of :func:`retreat_paths`. Refused: ``retreat-path``
    naming the first hex that no legal retreat takes."""
    legal = retreat_paths(pack, sit, side, start, units, hexes, forced=forced)
    if any(p.hexes == tuple(path) for p in legal):
        return ALLOW
    for n in range(len(path)):
        if not any(p.hexes[: n + 1] == tuple(path[: n + 1]) for p in legal):
            break
    else:
        n = len(path)
    where = f"{path[n]}" if n < len(path) else "a shorter path"
    ways = sorted({"-".join(p.hexes) or "none" for p in legal})
    return deny("7.5.2.2", "retreat-path", f"the retreat may not take {where}; it may take {', '.join(ways)}")


# --- displacement (§5.3.2, §5.3.3) ---------------------------------------------------------------------------------


def overstacked(pack: GazalaPack, sit: Situation, side: Side, hex_id: HexId) -> bool:
    """§5.3.1: whether ``side``'s units and HQs in ``hex_id`` break the stacking limits."""
    return not stacking(pack, _friendly_at(sit, side, hex_id)).ok


def _hqs_at(sit: Situation, side: Side, hex_id: HexId) -> tuple[str, ...]:
    return tuple(sorted(h for h, there in sit.position.hqs.items() if there == hex_id and sit.board.side[h] == side))


def _units_overstacked(pack: GazalaPack, sit: Situation, side: Side, hex_id: HexId) -> bool:
    """§5.3.1: the combat units of the hex alone break their limits (one HQ never changes them: the Axis limit
    allows one, the Commonwealth's stacks one for free)."""
    return not stacking(pack, list(sit.combat[side].get(hex_id, ()))).ok


def surplus_hqs(pack: GazalaPack, sit: Situation, side: Side, hex_id: HexId) -> tuple[int, tuple[str, ...]]:
    """§5.3.1, §3.3: how many of ``side``'s HQs in ``hex_id`` are surplus (more than ``hq_per_hex``), and the HQs of
    the hex among which the owner picks those it displaces (§5.3.2); ``(0, ())`` when there is none."""
    hqs = _hqs_at(sit, side, hex_id)
    surplus = len(hqs) - pack.number("hq_per_hex")
    return (surplus, hqs) if surplus > 0 else (0, ())


@dataclass(frozen=True)
class OverstackEffects:
    """What overstacking does to a hex (§5.3.1).

    Attributes:
        disrupted: combat units newly Disrupted. losses: unit -> Strength Points lost (a unit already Disrupted).
        hq_support: HQ -> Support Points lost (each HQ of a hex holding two or more).
    """

    disrupted: frozenset[str] = frozenset()
    losses: Mapping[str, int] = field(default_factory=dict)
    hq_support: Mapping[str, int] = field(default_factory=dict)


def overstack_effects(pack: GazalaPack, sit: Situation, side: Side, hex_id: HexId) -> OverstackEffects:
    """§5.3.1 for ``side``'s stack in ``hex_id`` (at the end of an Action, or any time during a retreat): when it
    breaks the stacking limits (:func:`overstacked`; the limits count HQs, so a second HQ overstacks the hex too:
    "All combat units in an overstacked hex ... suffer an automatic disruption"), each combat unit disrupts, and
    one already Disrupted stays so and loses ``overstack_disrupted_loss``; when it holds two or more HQs, each loses
    ``overstack_hq_support_loss`` Support Points (the owner applies the minimum of 0). A retreating unit's own
    extra loss is the retreat's (:meth:`RetreatPath.losses`)."""
    disrupted: set[str] = set()
    losses: dict[str, int] = {}
    if overstacked(pack, sit, side, hex_id):
        for unit in sit.combat[side].get(hex_id, ()):
            if unit in sit.position.disrupted:
                losses[unit] = pack.number("overstack_disrupted_loss")
            else:
                disrupted.add(unit)
    hqs = _hqs_at(sit, side, hex_id)
    loss = pack.number("overstack_hq_support_loss")
    support = {h: loss for h in hqs} if len(hqs) > pack.number("hq_per_hex") else {}
    return OverstackEffects(frozenset(disrupted), losses, support)


@dataclass(frozen=True)
class Displacement:
    """One displaced combat unit and where it goes; ``to`` None: it cannot be displaced and is eliminated."""

    unit: str
    to: HexId | None


def _destinations(pack: GazalaPack, sit: Situation, side: Side, hex_id: HexId, unit: str) -> tuple[HexId, ...]:
    board = sit.board
    enemy = sit.occupied[other(side)]
    open_hexes = [n for n in board.grid.neighbours(hex_id) if adjacent(board, hex_id, n) and n not in enemy]
    roomy = [n for n in open_hexes if not _would_overstack(pack, sit, side, n, [unit])]
    return tuple(roomy or open_hexes)


def displacement_options(pack: GazalaPack, sit: Situation, side: Side, hex_id: HexId) -> tuple[Displacement, ...]:
    """§5.3.3: the displacements the opponent may make next in an overstacked ``hex_id`` of ``side``: any of its
    combat units, into an adjacent hex that is neither enemy-occupied nor across a prohibited hexside, a hex with
    room first (a full one only when no other is open); a unit with no such hex is eliminated. Empty once the hex
    meets the combat units' limits (a surplus HQ is :func:`surplus_hqs`). Computed once per position, side and hex
    (the chooser, the options offered and the check of the one taken all ask it)."""
    key = ("displacements", side, hex_id)
    known = sit.memo.get(key)
    if isinstance(known, tuple):
        return known
    found: list[Displacement] = []
    if _units_overstacked(pack, sit, side, hex_id):
        for unit in sit.combat[side].get(hex_id, ()):
            destinations = _destinations(pack, sit, side, hex_id, unit)
            found += [Displacement(unit, to) for to in destinations] or [Displacement(unit, None)]
    sit.memo[key] = options = tuple(found)
    return options


def displacement_chooser(pack: GazalaPack, sit: Situation, side: Side, hex_id: HexId) -> Side | None:
    """Who picks the next displacement of ``side``'s overstacked combat units in ``hex_id``: the opponent (§5.3.3,
    "the opposing player may displace overstacked units of his choice"), or the owner when no unit can be displaced
    anywhere (§5.3.1, "the owning side eliminates overstacked units until stacking limits are met"); None when the
    units meet their limits."""
    options = displacement_options(pack, sit, side, hex_id)
    if not options:
        return None
    return side if all(d.to is None for d in options) else other(side)


def check_displacement(
    pack: GazalaPack, sit: Situation, side: Side, hex_id: HexId, move: Displacement, *, by: Side | None = None
) -> Verdict:
    """§5.3.3: ``move`` is one of :func:`displacement_options`, made ``by`` the side that picks it (when given:
    :func:`displacement_chooser`). Refused: ``not-overstacked`` (nothing to displace), ``displace-unit`` (not a
    combat unit of that hex), ``displace-to`` (a hex it may not be displaced into), ``displace-chooser`` (§5.3.1:
    the other side picks)."""
    if not _units_overstacked(pack, sit, side, hex_id):
        return deny("5.3.3", "not-overstacked", f"{hex_id} meets the stacking limits")
    if move.unit not in sit.combat[side].get(hex_id, ()):
        return deny("5.3.3", "displace-unit", f"{move.unit} is not a combat unit of the overstacked hex {hex_id}")
    if move not in displacement_options(pack, sit, side, hex_id):
        places = ", ".join(str(d.to) for d in displacement_options(pack, sit, side, hex_id) if d.unit == move.unit)
        return deny("5.3.3", "displace-to", f"{move.unit} may be displaced into {places}")
    chooser = displacement_chooser(pack, sit, side, hex_id)
    if by is not None and by != chooser:
        who = "the owner eliminates the units" if chooser == side else "the opponent displaces the units"
        return deny("5.3.1", "displace-chooser", f"{who} of {hex_id}")
    return ALLOW


def hq_displacement_options(sit: Situation, hq: str, *, enemy_mines_only: bool = False) -> tuple[HexId, ...]:
    """§5.3.2: where the owner places a displaced HQ: the hexes of the nearest friendly combat units of its formation
    not stacked with another HQ and not in an unbreached Minefield (either side's, notes B14; ``enemy_mines_only``:
    the enemy's only); if every such unit is in an unbreached Minefield, a hex adjacent to one of them (not
    enemy-occupied). Empty: the formation has no combat unit on the map."""
    board, position = sit.board, sit.position
    formation = board.hqs[hq].formation
    side = board.side[hq]
    here = position.hqs[hq]
    with_hq = {h for other_hq, h in position.hqs.items() if other_hq != hq}
    own = sorted({h for h, units in sit.combat[side].items() for u in units if sit.formation(u) == formation})
    mined = {
        h
        for h in own
        if h in board.mines and h not in position.breached and not (enemy_mines_only and board.mines[h].owner == side)
    }
    good = [h for h in own if h not in with_hq and h not in mined]
    if good:
        nearest = min(board.grid.distance(here, h) for h in good)
        return tuple(h for h in good if board.grid.distance(here, h) == nearest)
    if own and all(h in mined for h in own):
        enemy = sit.occupied[other(side)]
        return tuple(
            sorted({n for h in own for n in board.grid.neighbours(h) if adjacent(board, h, n) and n not in enemy})
        )
    return ()


@dataclass(frozen=True)
class HqPenalty:
    """A displaced HQ's Attack Support and its formation's Activation level after the displacement (§5.3.2)."""

    support: int
    level: int


def hq_displacement_penalty(pack: GazalaPack, *, support: int, level: int) -> HqPenalty:
    """§5.3.2: a displaced HQ loses ``displacement_support_loss`` of its current Attack Support (to 0 at least) and
    its Formation Activation marker moves ``displacement_level_loss`` space lower (to 0 at least). ``support`` and
    ``level``: before the displacement (after any overstacking loss of §5.3.1, :func:`overstack_effects`)."""
    return HqPenalty(
        support=max(0, support - pack.number("displacement_support_loss")),
        level=max(0, level - pack.number("displacement_level_loss")),
    )


def hqs_left_alone(sit: Situation, hexes: Iterable[HexId]) -> tuple[str, ...]:
    """§7.5, §5.3.2: the HQs (either side) in ``hexes`` with no friendly combat unit there: after a combat, with
    ``hexes`` the attacking and the defending hex once losses, retreats and displacements are done, each is
    displaced at once, "even if not adjacent to an enemy unit" (:func:`hq_displacement_options`,
    :func:`hq_displacement_penalty`)."""
    places = set(hexes)
    board = sit.board
    return tuple(
        sorted(
            hq
            for hq, there in sit.position.hqs.items()
            if there in places and not sit.combat[board.side[hq]].get(there)
        )
    )
