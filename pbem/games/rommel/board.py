"""Where the blocks stand, and what a move may do there: hexsides, road bonuses, group and regroup moves, engaging.

Pure functions over a loaded pack (:class:`~pbem.games.rommel.schema.RommelPack`, its kit map
``pack.hex_map``) and a :class:`Position`. A refusal is the contract's :class:`~pbem.rules.contract.Verdict`
naming the rule; every number comes from the pack's ``tables.limits``. Supply lines are in
:mod:`pbem.games.rommel.supply`.

Example::

    position = Position((Unit("de-3rec", "0108"),))
    check_unit_move(pack, position, "de-3rec", ["0108", "0107", "0207"]).ok  # True: a Recon unit on the highway
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import pairwise
from types import MappingProxyType
from typing import Literal

from pbem.games.rommel.schema import RommelPack
from pbem.kit.graph import Blocked, Cost, StepCost
from pbem.kit.hexes import HexId, Hexside, HexsideId, MoveCost
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "ROADS",
    "TERRAINS",
    "Battle",
    "HexState",
    "MoveOptions",
    "Position",
    "Side",
    "Unit",
    "check_group_move",
    "check_regroup_move",
    "check_unit_move",
    "engaging_hexside",
    "hexside_limit",
    "movement_cost",
    "passable",
    "road_bonus",
    "speed_need",
    "terrain",
]

Side = Literal["axis", "allied"]
HexState = Literal["friendly", "enemy", "empty", "battle"]
TERRAINS = ("clear", "gap", "mountain", "ridge", "marsh")
"""§1.4: the hexside terrains, as the kit map's hexside features."""
ROADS = ("highway", "track", "trail")
"""§1.5: the road kinds, best first, as the kit map's hexside features."""

_EMPTY: Mapping[str, Side] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Unit:
    """A block on the map: its id, hex and whether it is Disrupted (face down, §11).

    ``side`` is the block's colour when ``block`` is a public token rather than a pack block id (a hidden block's
    identity is not known to every replay); None reads the side from the pack.
    """

    block: str
    hex: str
    disrupted: bool = False
    side: Side | None = None


@dataclass(frozen=True, slots=True)
class Battle:
    """A battle hex's control (§8.1): its Defender, and the side that last engaged across each crossed hexside."""

    defender: Side
    crossed: Mapping[str, Side] = field(default_factory=lambda: _EMPTY)

    def owner(self, hexside: str) -> Side:
        """§8.1: a battle hexside is friendly to the side that last engaged across it, else to the Defender."""
        return self.crossed.get(hexside, self.defender)


@dataclass(frozen=True)
class Position:
    """The blocks on the map, the battles' control (hexes holding both sides need an entry) and who last occupied
    each Fortress (§1.2: fortresses are controlled by the last occupant; by place id)."""

    units: tuple[Unit, ...]
    battles: Mapping[str, Battle] = field(default_factory=lambda: MappingProxyType({}))
    fortresses: Mapping[str, Side] = field(default_factory=lambda: _EMPTY)

    def unit(self, block: str) -> Unit | None:
        """The unit of ``block``, or None if it is not on the map."""
        return self._by_block.get(block)

    def at(self, hex_id: str) -> tuple[Unit, ...]:
        """The units in ``hex_id``."""
        return self._by_hex.get(hex_id, ())

    def moved(self, paths: Mapping[str, Sequence[str]]) -> Position:
        """This position with each block of ``paths`` at the end of its path."""
        units = tuple(replace(u, hex=paths[u.block][-1]) if u.block in paths else u for u in self.units)
        return Position(units, self.battles, self.fortresses)

    @cached_property
    def _by_block(self) -> dict[str, Unit]:
        return {u.block: u for u in self.units}

    @cached_property
    def _by_hex(self) -> dict[str, tuple[Unit, ...]]:
        out: dict[str, list[Unit]] = {}
        for u in self.units:
            out.setdefault(u.hex, []).append(u)
        return {h: tuple(us) for h, us in out.items()}


def side_of(pack: RommelPack, unit: Unit) -> Side:
    """The side whose block ``unit`` is."""
    return unit.side if unit.side is not None else pack.block(unit.block).side


def has_enemy(pack: RommelPack, position: Position, side: Side, hex_id: str, *, undisrupted: bool = False) -> bool:
    """Whether ``hex_id`` holds units of the other side (only undisrupted ones if ``undisrupted``)."""
    return any(side_of(pack, u) != side and not (undisrupted and u.disrupted) for u in position.at(hex_id))


def hex_state(pack: RommelPack, position: Position, side: Side, hex_id: str) -> HexState:
    """§1.2: friendly (solely ``side``'s units), enemy (solely the other's), empty, or battle (both)."""
    sides = {side_of(pack, u) for u in position.at(hex_id)}
    if len(sides) == 2:
        return "battle"
    if not sides:
        return "empty"
    return "friendly" if side in sides else "enemy"


def battle(position: Position, hex_id: str) -> Battle:
    """The battle in ``hex_id`` (ValueError if the position does not record its Defender)."""
    found = position.battles.get(hex_id)
    if found is None:
        raise ValueError(f"hex {hex_id} holds both sides but the position records no battle there")
    return found


# --- hexsides and roads -------------------------------------------------------------------------------------


def terrain(side: Hexside) -> str:
    """§1.4: the hexside's terrain (an unlisted hexside is Clear)."""
    return next((t for t in TERRAINS if side.has(t)), "clear")


def passable(side: Hexside) -> bool:
    """§1.4, §7.1: Clear and Gap hexsides pass; Mountain only where a road crosses; Ridge and Marsh never."""
    kind = terrain(side)
    return kind in ("clear", "gap") or (kind == "mountain" and side.has(*ROADS))


def hexside_limit(pack: RommelPack, side: Hexside) -> int:
    """§7.1: the units that may Engage across ``side`` per Movement phase (Clear 2, Gap or Mountain road 1);
    0 where units cannot cross at all."""
    if not passable(side):
        return 0
    return pack.limit(f"hexside_limit_{terrain(side)}")


def road_bonus(pack: RommelPack, path: Sequence[str]) -> int:
    """§6.2: the bonus of a move that starts, remains on and ends on roads (highway 4, track 2, trail 1): each
    step must cross a hexside a road crosses; where two kinds are used the lesser bonus applies. 0 otherwise."""
    if len(path) < 2:
        return 0
    bonuses = []
    for a, b in pairwise(path):
        side = pack.hex_map.hexside(HexId(a), HexId(b))
        kinds = [k for k in ROADS if side is not None and side.has(k)]
        if not kinds:
            return 0
        bonuses.append(max(pack.limit(f"road_bonus_{k}") for k in kinds))
    return min(bonuses)


def speed_need(
    pack: RommelPack,
    path: Sequence[str],
    *,
    rommel: bool = False,
    forced: bool = False,
    off_map: bool = False,
    roads: bool = True,
) -> int:
    """§6.1-§6.4, §17.1: the least speed that moves a unit along ``path`` (its hex first): the hexes entered (and
    the step off the enemy map-end when ``off_map``) less the road bonus of the whole path (none in a Retreat when
    not ``roads``, §6.2 sidebar), the Rommel bonus of an Axis Rommel Move and a Forced March's extra hex; at least 1.

    The one rule for a path's speed: a move is within range when its unit's speed is at least this
    (:func:`check_unit_move`), and a hidden unit's speed claim records it for the audit."""
    bonus = _bonus(pack, path, rommel=rommel, forced=forced, roads=roads)
    return max(1, len(path) - 1 + (1 if off_map else 0) - bonus)


def _bonus(pack: RommelPack, path: Sequence[str], *, rommel: bool, forced: bool, roads: bool = True) -> int:
    road = road_bonus(pack, path) if roads else 0
    return road + (pack.limit("rommel_bonus") if rommel else 0) + (pack.limit("forced_march_hexes") if forced else 0)


# --- moving -------------------------------------------------------------------------------------------------


def movement_cost(
    pack: RommelPack, position: Position, side: Side, engaged: Mapping[HexsideId, int] = MappingProxyType({})
) -> MoveCost:
    """The kit cost function of one step for ``side``: a hex a step, stopping on Engaging.

    * §1.4: impassable hexsides cannot be crossed (``1.4 impassable``).
    * §7.2: leaving a hex with enemy units (Disengaging) only across a friendly battle hexside (``7.2
      enemy-hexside``) into a friendly or empty hex (``7.2 into-enemy``).
    * §7.0, §7.1: entering a hex with enemy units Engages and stops the move; at most the hexside's limit of
      units Engage across it per Movement phase, counting ``engaged`` (crossings so far; ``7.1 hexside-limit``).
    """

    def step(here: HexId, there: HexId, hexside: Hexside) -> StepCost:
        if not passable(hexside):
            return Blocked("1.4", "impassable")
        entering = has_enemy(pack, position, side, there)
        if has_enemy(pack, position, side, here):
            if battle(position, here).owner(hexside.id) != side:
                return Blocked("7.2", "enemy-hexside")
            if entering:
                return Blocked("7.2", "into-enemy")
        if entering:
            if engaged.get(hexside.id, 0) >= hexside_limit(pack, hexside):
                return Blocked("7.1", "hexside-limit")
            return Cost(1, stop=True)
        return Cost(1)

    return step


_WALK_RULES = {"not-adjacent": "6.0", "over-budget": "6.1", "after-stop": "7.0", "impassable": "1.4"}


def check_unit_move(
    pack: RommelPack,
    position: Position,
    block: str,
    path: Sequence[str],
    *,
    rommel: bool = False,
    forced: bool = False,
    speed: int | None = None,
    engaged: Mapping[HexsideId, int] = MappingProxyType({}),
) -> Verdict:
    """§6.0-§7.2: whether ``block`` may move along ``path`` (its hex first) at its speed plus bonuses.

    ``speed`` is the speed a hidden block's owner claims (checked at the audit); None uses the pack's. ``forced``
    is a Forced March attempt (§6.4: one hex more; the road bonus counts over the whole path).

    Refusals: ``5.1 not-on-map``, ``5.1 wrong-start``, ``11.1 disrupted`` (Disrupted units move only to Rout),
    ``6.3 not-axis`` (the Rommel bonus is the Axis's), ``6.0 not-adjacent``, ``6.1 over-budget``, ``7.0
    after-stop`` (a unit stops on Engaging), ``7.2 re-engage`` (a Disengaging unit does not Engage again this
    turn), and the step rules of :func:`movement_cost`.
    """
    unit = position.unit(block)
    if unit is None:
        return deny("5.1", "not-on-map", f"{block} is not on the map")
    if not path or path[0] != unit.hex:
        return deny("5.1", "wrong-start", f"{block} is in {unit.hex}; its path must start there")
    if unit.disrupted:
        return deny("11.1", "disrupted", f"{block} is Disrupted and may move only to Rout")
    side = side_of(pack, unit)
    if rommel and side != "axis":
        return deny("6.3", "not-axis", "only Axis moves take the Rommel bonus")
    steps = len(path) - 1  # the walk checks every step but the range, which speed_need judges for the whole path
    walk = pack.hex_map.walk([HexId(h) for h in path], steps, movement_cost(pack, position, side, engaged))
    if not walk.ok:
        rule = walk.rule or _WALK_RULES.get(walk.reason, "6.0")
        return deny(rule, walk.reason, f"{block}: step {walk.step} of {'-'.join(path)} ({walk.reason})")
    base = pack.unit_type(pack.block(block).unit_type).speed if speed is None else speed
    need = speed_need(pack, path, rommel=rommel, forced=forced)
    if steps > 0 and need > base:
        return deny("6.1", "over-budget", f"{block}: {'-'.join(path)} needs speed {need}, more than {base}")
    if steps > 0 and has_enemy(pack, position, side, path[0]) and has_enemy(pack, position, side, path[-1]):
        return deny("7.2", "re-engage", f"{block} Disengages from {path[0]} and may not Engage again this turn")
    return ALLOW


def engaging_hexside(pack: RommelPack, position: Position, side: Side, path: Sequence[str]) -> HexsideId | None:
    """§7.1: the hexside a move Engages across (its last step, into a hex with enemy units), or None."""
    if len(path) < 2 or not has_enemy(pack, position, side, path[-1]):
        return None
    hexside = pack.hex_map.hexside(HexId(path[-2]), HexId(path[-1]))
    return None if hexside is None else hexside.id


@dataclass(frozen=True, slots=True)
class MoveOptions:
    """What a Move claims besides its paths: a Rommel Move (§6.3), the blocks attempting a Forced March (§6.4),
    the speeds claimed for hidden blocks (checked at the audit; a block not listed uses the pack's speed), and the
    Engagements already made across each hexside this Movement phase (§7.1; empty again for Blitz Movement)."""

    rommel: bool = False
    forced: frozenset[str] = frozenset()
    speeds: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    engaged: Mapping[HexsideId, int] = field(default_factory=lambda: MappingProxyType({}))


def _check_moves(
    pack: RommelPack, position: Position, side: Side, paths: Mapping[str, Sequence[str]], options: MoveOptions
) -> Verdict:
    used = dict(options.engaged)
    for block in sorted(paths):
        unit = position.unit(block)
        if unit is not None and side_of(pack, unit) != side:
            return deny("5.0", "not-own-unit", f"{block} is not a {side} unit")
        verdict = check_unit_move(
            pack,
            position,
            block,
            paths[block],
            rommel=options.rommel,
            forced=block in options.forced,
            speed=options.speeds.get(block),
            engaged=used,
        )
        if not verdict.ok:
            return verdict
        crossing = engaging_hexside(pack, position, side, paths[block])
        if crossing is not None:
            used[crossing] = used.get(crossing, 0) + 1
    return ALLOW


def check_group_move(
    pack: RommelPack,
    position: Position,
    side: Side,
    origin: str,
    paths: Mapping[str, Sequence[str]],
    options: MoveOptions = MoveOptions(),
) -> Verdict:
    """§5.1: any or all of ``side``'s units in ``origin`` move, each along its own path to any hex.

    Refusals: ``5.1 no-movers``, ``5.1 not-in-group`` (a mover not in ``origin``), ``5.0 not-own-unit``, and
    each unit's :func:`check_unit_move` (hexside limits count across the movers, §7.1).
    """
    if not paths:
        return deny("5.1", "no-movers", "a Group Move moves at least one unit")
    for block in sorted(paths):
        unit = position.unit(block)
        if unit is None or unit.hex != origin:
            return deny("5.1", "not-in-group", f"{block} is not in the moving group's hex {origin}")
    return _check_moves(pack, position, side, paths, options)


def check_regroup_move(
    pack: RommelPack,
    position: Position,
    side: Side,
    command_point: str,
    destination: str,
    paths: Mapping[str, Sequence[str]],
    options: MoveOptions = MoveOptions(),
) -> Verdict:
    """§5.2: units in or adjacent to the Command Point (regardless of terrain) move to one destination hex.

    Refusals: ``5.2 no-movers``, ``5.2 enemy-command-point`` (the Command Point may be friendly, empty or a
    battle, not an enemy hex), ``5.2 not-near-command-point``, ``5.2 not-to-destination`` (every mover ends in
    the destination: one that cannot reach it may not move at all), and each unit's :func:`check_unit_move`
    (distance counts from the unit's own hex).
    """
    if not paths:
        return deny("5.2", "no-movers", "a Regroup Move moves at least one unit")
    if command_point not in pack.hex_map:
        return deny("5.2", "enemy-command-point", f"{command_point} is not a land hex")
    if hex_state(pack, position, side, command_point) == "enemy":
        return deny("5.2", "enemy-command-point", f"the Command Point {command_point} is an enemy hex")
    reach = pack.limit("regroup_reach")
    for block in sorted(paths):
        unit = position.unit(block)
        if unit is None or pack.hex_map.distance(HexId(unit.hex), HexId(command_point)) > reach:
            return deny("5.2", "not-near-command-point", f"{block} is not in or next to {command_point}")
        if not paths[block] or paths[block][-1] != destination:
            return deny("5.2", "not-to-destination", f"{block} must end its Regroup in {destination}")
    return _check_moves(pack, position, side, paths, options)
