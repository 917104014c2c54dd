"""The Gazala board: the map's per-pack structures, a position, zones of control and movement (§3.1, §5.4, §7.3).

Pure, deterministic functions over the data pack and a :class:`Position`. Three layers:

* :class:`Board` — what depends on the pack only (the kit's :class:`HexMap`, the TEC by id, the Minefields by hex,
  the road/trail network as a kit :class:`LocationGraph`, the hexside classes). Built once per loaded pack and kept
  on it (:func:`board_of`), never in a module global.
* :class:`Position` — what the rules state holds: where each combat unit and HQ stands, disruption, breached
  Minefields, blocked supply sources, Tobruk's owner, assignments of independent units.
* :class:`Situation` — a board and a position, with the derived sets (occupancy, zones of control) computed
  lazily once per position.

Movement costs are integer half-MPs as the pack stores them (§5.1: MPs are never rounded), so a budget is the
Movement Allowance times :data:`HALF`. Refusals are the contract's :class:`Verdict` (``deny(rule, reason, …)``).
Command and supply paths live in :mod:`.paths`, Minefield checks and breaching in :mod:`.minefields`, stacking in
:mod:`.stacking`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Literal, cast

from pbem.games.gazala.data import GAME_ID, GazalaPack, Hq, Minefield, Side, TerrainEffect, Unit
from pbem.kit.graph import Blocked, Cost, EdgeRecord, LocationGraph, NodeRecord, Reach, StepCost
from pbem.kit.hexes import HexId, HexMap, Hexside, HexsideId, MoveCost, Walk
from pbem.rules.contract import ALLOW, Verdict, deny

HALF = 2
"""Half-MPs per MP: the unit the pack's TEC costs are written in (``TerrainEffect``: "costs in half MPs")."""

Column = Literal["leg", "motorised", "hq"]
"""A TEC cost column."""

ROUTE_KINDS = ("road", "trail")
"""Route features, the faster first (§7.3.3: a hexside with both uses the Road rate)."""

TRACED_KEPT = 4096
"""The most paths and chains a :class:`Board` keeps (:attr:`Board.traced`)."""


def other(side: Side) -> Side:
    """The opposing side."""
    return "cw" if side == "axis" else "axis"


class Board:
    """The per-pack structures every board function uses (built once per pack by :func:`board_of`).

    Raises:
        DataPackError: R006 if the map does not build (a loaded pack has already passed this check).
    """

    def __init__(self, pack: GazalaPack):
        self.pack = pack
        checked = pack.derived.grid
        # the map the load's cross-checks built (unless this is a model_copy with another map)
        self.grid = (
            checked if checked is not None and checked.data is pack.map else HexMap.from_pack(pack.map, game=GAME_ID)
        )
        self.tec: Mapping[str, TerrainEffect] = MappingProxyType({row.id: row for row in pack.tables.terrain_effects})
        self.mines: Mapping[HexId, Minefield] = MappingProxyType({HexId(m.hex): m for m in pack.minefields})
        self.units: Mapping[str, Unit] = MappingProxyType({u.id: u for u in pack.units})
        self.hqs: Mapping[str, Hq] = MappingProxyType({h.id: h for h in pack.hqs})
        self.hq_of: Mapping[str, Hq] = MappingProxyType({h.formation: h for h in pack.hqs})
        formation_side = {f.id: f.side for f in pack.formations}
        sides: dict[str, Side] = {u.id: u.side for u in pack.units}
        sides.update({h.id: formation_side[h.formation] for h in pack.hqs})
        self.side: Mapping[str, Side] = MappingProxyType(sides)
        hexside_rows = [row for row in pack.tables.terrain_effects if row.applies_to == "hexside"]
        sides_by_feature: dict[str, set[HexsideId]] = {}
        for side in self.grid.hexsides.values():
            for feature in side.features:
                sides_by_feature.setdefault(feature, set()).add(side.id)

        def having(rows: Iterable[TerrainEffect]) -> frozenset[HexsideId]:
            return frozenset(s for row in rows for s in sides_by_feature.get(row.id, ()))

        self.prohibited = having(r for r in hexside_rows if r.prohibited)
        """Hexsides no unit crosses (the sea hexsides in Tobruk)."""
        self.zoc_blocked = having(r for r in hexside_rows if r.blocks_zoc)
        """Hexsides no ZOC is projected across (§5.4: Ridge, Wadi; and the sea)."""
        routed = having(r for r in pack.tables.terrain_effects if r.applies_to == "route")
        self.all_mp = having(r for r in hexside_rows if r.all_mp)
        """Ridge and Wadi hexsides: crossing them costs all MPs (§3.1.2)."""
        self.path_ridges = self.all_mp - routed
        """Ridge and Wadi hexsides not intersected by a Road or Trail: they count against a path (§5.7.4, §5.8.2)."""
        self.hexside_rows: Mapping[HexsideId, tuple[TerrainEffect, ...]] = MappingProxyType(
            {
                s.id: tuple(r for r in hexside_rows if r.id in s.features)
                for s in self.grid.hexsides.values()
                if s.features
            }
        )
        self.route_kind: Mapping[HexsideId, str] = MappingProxyType(
            {
                s.id: next(k for k in ROUTE_KINDS if k in s.features)
                for s in self.grid.hexsides.values()
                if not s.features.isdisjoint(ROUTE_KINDS)
            }
        )
        route_hexes = {h for h in self.grid.hexes if not self.grid.features(h).isdisjoint(ROUTE_KINDS)}
        route_hexes |= {HexId(s.hex) for s in pack.supply_sources}
        for ident in self.route_kind:
            side = self.grid.hexsides[ident]
            route_hexes |= {side.a, side.b}
        self.routes = LocationGraph.from_pack(
            [NodeRecord(id=h, kind="land") for h in self.grid.hexes if h in route_hexes],
            [
                EdgeRecord(a=self.grid.hexsides[i].a, b=self.grid.hexsides[i].b, type=kind)
                for i, kind in self.route_kind.items()
            ],
            game=GAME_ID,
        )
        """The Road/Trail network (§5.7.2: a supply chain follows it hex by hex)."""
        self.hostile_mines: Mapping[Side, frozenset[HexId]] = MappingProxyType(
            {side: frozenset(h for h, m in self.mines.items() if m.owner != side) for side in ("axis", "cw")}
        )
        """Side -> the Minefield hexes enemy to it, breached or not (§3.1.3: by their original owner)."""
        self.boxes: frozenset[HexId] = frozenset(h for h, m in self.mines.items() if m.box is not None)
        self.traced: dict[tuple[object, ...], object] = {}
        """Command/supply paths and supply chains already traced on this map, keyed by everything they depend on
        (:mod:`.paths`): a move by one side leaves most of the other side's paths as they were. At most
        :data:`TRACED_KEPT` entries: emptied when full."""
        self.tobruk_inside: frozenset[HexId] = frozenset(HexId(h) for h in pack.tobruk.inside) | {
            HexId(pack.tobruk.hex)
        }

    def cost(self, row: TerrainEffect, column: Column) -> int:
        """A TEC cost in half-MPs. A loaded pack gives one wherever the row is neither all-MP nor prohibited."""
        value = {"leg": row.leg, "motorised": row.motorised, "hq": row.hq}[column]
        if value is None:
            raise ValueError(f"TEC row {row.id!r} has no {column} cost")
        return value

    def hex_row(self, hex_id: HexId, breached: frozenset[HexId], side: Side) -> TerrainEffect:
        """The TEC row of ``hex_id`` for ``side`` (§3.1.1, §3.1.3, §7.4): a Minefield's row by its state (friendly,
        enemy, breached), else the hex terrain's row."""
        mine = self.mines.get(hex_id)
        if mine is None:
            return self.tec[self.grid.terrain(hex_id)]
        if hex_id in breached:
            return self.tec["minefield-breached"]
        return self.tec["minefield-friendly" if mine.owner == side else "minefield-enemy"]


def board_of(pack: GazalaPack) -> Board:
    """The :class:`Board` of a loaded pack, built on first use and kept on the pack object."""
    board = pack.derived.board
    if not isinstance(board, Board) or board.pack is not pack:  # a model_copy shares the holder: rebuild for it
        board = Board(pack)
        pack.derived.board = board
    return board


@dataclass(frozen=True)
class Position:
    """What the board functions need from a game state.

    Attributes:
        units: combat unit id -> hex, for every combat unit on the map.
        hqs: HQ id -> hex, for every HQ on the map.
        disrupted: combat units showing their Disrupted side (§5.6).
        breached: Minefield hexes with a Breached marker (§7.4).
        blocked_sources: supply-source ids under a Supply Blocked marker (§5.7.3).
        tobruk_owner: the side whose Tobruk Control marker is in Tobruk (§5.7.3).
        assigned: assignable independent unit -> the formation it is assigned to (§5.5.2).
        whole_boxes: ruling ``box_breach`` (notes B15): one breached hex ends the Box supply of its whole Box.
    """

    units: Mapping[str, HexId]
    hqs: Mapping[str, HexId] = field(default_factory=dict)
    disrupted: frozenset[str] = frozenset()
    breached: frozenset[HexId] = frozenset()
    blocked_sources: frozenset[str] = frozenset()
    tobruk_owner: Side = "cw"
    assigned: Mapping[str, str] = field(default_factory=dict)
    whole_boxes: bool = False


class Situation:
    """A board and a position, with the sets derived from them computed once (occupancy, zones of control)."""

    def __init__(self, board: Board, position: Position):
        self.board = board
        self.position = position
        self.memo: dict[tuple[str, ...], object] = {}
        """Results other modules compute once per position (command states, supply chains), by a key they own."""

    @cached_property
    def combat(self) -> Mapping[Side, Mapping[HexId, tuple[str, ...]]]:
        """Side -> hex -> the combat units of that side in it."""
        side_of = self.board.side
        found: dict[Side, dict[HexId, tuple[str, ...]]] = {"axis": {}, "cw": {}}
        for unit, hex_id in self.position.units.items():
            by = found[side_of[unit]]
            by[hex_id] = (*by[hex_id], unit) if hex_id in by else (unit,)
        return found

    @cached_property
    def occupied(self) -> Mapping[Side, frozenset[HexId]]:
        """Side -> the hexes holding at least one of its units of any type, HQs included."""
        found: dict[Side, set[HexId]] = {"axis": set(), "cw": set()}
        for ident, hex_id in [*self.position.units.items(), *self.position.hqs.items()]:
            found[self.board.side[ident]].add(hex_id)
        return {s: frozenset(h) for s, h in found.items()}

    @property
    def zones(self) -> Mapping[Side, frozenset[HexId]]:
        """Side -> the hexes in the ZOC of that side's units (:func:`zone_of_control`)."""
        return {s: self.zone(s) for s in ("axis", "cw")}

    def zone(self, side: Side) -> frozenset[HexId]:
        """The hexes in the ZOC of ``side``'s units, computed once per position and side (a move asks only for the
        enemy's)."""
        key = ("zone", side)
        known = self.memo.get(key)
        if not isinstance(known, frozenset):
            known = zone_of_control(self, side)
            self.memo[key] = known
        return known

    def enemy_zone(self, side: Side) -> frozenset[HexId]:
        """The EZOC hexes for ``side``."""
        return self.zone(other(side))

    def formation(self, unit: str) -> str | None:
        """The formation a combat unit belongs to: its stripe, or its assignment (§5.5); None if unassigned."""
        return self.board.units[unit].formation or self.position.assigned.get(unit)

    @cached_property
    def enemy_mines(self) -> Mapping[Side, frozenset[HexId]]:
        """Side -> the unbreached Minefield hexes enemy to it (§3.1.3: by their original owner)."""
        breached = self.position.breached
        hostile = self.board.hostile_mines
        return {side: hostile[side] - breached if breached else hostile[side] for side in ("axis", "cw")}

    def enemy_minefield(self, hex_id: HexId, side: Side) -> bool:
        """Whether ``hex_id`` is an unbreached Minefield enemy to ``side`` (§3.1.3: by its original owner)."""
        return hex_id in self.enemy_mines[side]

    def units_at(self, hex_id: HexId) -> tuple[str, ...]:
        """The combat units in a hex, either side."""
        return self.combat["axis"].get(hex_id, ()) + self.combat["cw"].get(hex_id, ())


def situation(pack: GazalaPack, position: Position) -> Situation:
    """The :class:`Situation` of a position on a loaded pack's board."""
    return Situation(board_of(pack), position)


# --- zones of control (§5.4) -------------------------------------------------------------------------------


def projects_zoc(sit: Situation, unit: str) -> bool:
    """§5.4: a combat unit projects a ZOC unless it is Disrupted or has the white corner (HQs, German FLAK,
    KG Hecker: ``no_zoc`` in the pack)."""
    return not sit.board.units[unit].no_zoc and unit not in sit.position.disrupted


def zone_of_control(sit: Situation, side: Side) -> frozenset[HexId]:
    """§5.4: the hexes ``side``'s units control: each projecting unit's hex and its six neighbours, never across a
    Ridge or Wadi hexside (the TEC's ``blocks_zoc``) and never into an unbreached Minefield enemy to ``side``."""
    board = sit.board
    hexes = [h for h, units in sit.combat[side].items() if any(projects_zoc(sit, u) for u in units)]
    zone = board.grid.zoc(hexes, blocked=lambda s: s.id in board.zoc_blocked)
    return frozenset(h for h in zone if not sit.enemy_minefield(h, side))


def projects_zoc_into(sit: Situation, unit: str, hex_id: HexId) -> bool:
    """§5.4, §7.5.1.5 A: whether ``unit`` projects a ZOC into ``hex_id`` (Combat Support needs it)."""
    board = sit.board
    here = sit.position.units[unit]
    side = board.side[unit]
    if not projects_zoc(sit, unit) or sit.enemy_minefield(hex_id, side):
        return False
    if hex_id == here:
        return True
    hexside = board.grid.hexside(here, hex_id)
    return hexside is not None and hexside.id not in board.zoc_blocked


# --- adjacency for combat (§7.5) ---------------------------------------------------------------------------


def adjacent(board: Board, a: HexId, b: HexId) -> bool:
    """§7.5, §5.3.2: two hexes share a hexside that is not impassable (the sea hexsides in Tobruk divide)."""
    hexside = board.grid.hexside(a, b)
    return hexside is not None and hexside.id not in board.prohibited


def attacker_tp_halved(board: Board, attacker: HexId, defender: HexId) -> bool:
    """§3.1.2: attacking Tank Points are halved across a Ridge or Wadi hexside (the TEC's ``attacker_tp_halved``)."""
    return any(row.attacker_tp_halved for row in board.hexside_rows.get(_side_id(board, attacker, defender), ()))


def defender_terrain(sit: Situation, hex_id: HexId, defender: Side) -> TerrainEffect:
    """§3.1.1, §3.1.3, §7.4: the TEC row of a defender's hex (its CRT row and bonuses): an unbreached Minefield or
    Box uses its Minefield row (friendly or enemy to the defender); a breached one, or any other hex, its terrain."""
    row = sit.board.hex_row(hex_id, sit.position.breached, defender)
    return row if row.crt_row is not None else sit.board.tec[sit.board.grid.terrain(hex_id)]


def supporters(sit: Situation, side: Side, target: HexId) -> tuple[str, ...]:
    """§7.5.1.5 A: the ``side`` combat units outside ``target`` that project a ZOC into it, the candidates for Combat
    Support (whether each is In Command and supplied is the caller's check)."""
    board = sit.board
    found = [
        unit
        for there in board.grid.neighbours(target)
        for unit in sit.combat[side].get(there, ())
        if projects_zoc_into(sit, unit, target)
    ]
    return tuple(sorted(found))


def _side_id(board: Board, a: HexId, b: HexId) -> HexsideId:
    hexside = board.grid.hexside(a, b)
    if hexside is None:
        raise ValueError(f"{a} and {b} are not adjacent")
    return hexside.id


# --- movement (§7.3) ---------------------------------------------------------------------------------------


def movers_side(board: Board, movers: Sequence[str]) -> Side:
    """The side of a moving stack (its first unit's)."""
    return board.side[movers[0]]


def columns(board: Board, movers: Sequence[str], *, on_route: bool) -> tuple[Column, ...]:
    """The TEC columns a stack pays: leg, motorised, HQ. KG Hecker (``half``) pays the leg rate off and the
    motorised rate on Roads and Trails (§7.3.3)."""
    found: list[Column] = []
    for ident in movers:
        unit = board.units.get(ident)
        if unit is None:
            found.append("hq")
        elif unit.movement == "half":
            found.append("motorised" if on_route else "leg")
        else:
            found.append(unit.movement)
    return tuple(dict.fromkeys(found))


def budget(board: Board, movers: Sequence[str], *, supplied: bool) -> int:
    """§7.3.1, §7.3.2, §5.7.5: a stack's MA in half-MPs: its slowest unit's printed MA, halved when unsupplied
    (exact in half-MPs: §5.1 never rounds MPs)."""
    slowest = min((board.units[i].ma if i in board.units else board.hqs[i].ma) for i in movers)
    total = slowest * HALF
    return total if supplied else total // board.pack.number("oos_divisor")


def screen_allowed(sit: Situation, side: Side, hex_id: HexId) -> bool:
    """§7.3.4 Screen movement: the hex holds at least ``screen_tp_factor`` times as many Tank Points (undisrupted
    units of ``side`` there, moving or not) as the Tank and Anti-Tank Points of every undisrupted enemy unit that
    projects a ZOC into it (printed values, no terrain modifiers)."""
    board = sit.board
    own = sum(
        board.units[u].armour_points.front
        for u in sit.combat[side].get(hex_id, ())
        if board.units[u].armour == "tp" and u not in sit.position.disrupted
    )
    enemy = 0
    for there in (hex_id, *board.grid.neighbours(hex_id)):
        for unit in sit.combat[other(side)].get(there, ()):
            if projects_zoc_into(sit, unit, hex_id):
                enemy += board.units[unit].armour_points.front
    return enemy > 0 and own >= board.pack.number("screen_tp_factor") * enemy


def move_rule(sit: Situation, movers: Sequence[str], *, screen: bool = False, reinforcement: bool = False) -> MoveCost:
    """The movement rule of a stack as a kit cost function (half-MPs), for :meth:`HexMap.reach` and ``walk``.

    * §5.3.2, TEC: prohibited hexsides (the sea in Tobruk) are never crossed;
    * §7.3.2: never into a hex holding an enemy combat unit;
    * §7.3.6: an unbreached enemy Minefield/Box is entered only by combat units, as the one step of a move that
      spends the whole MA (``first`` and ``rest``);
    * §3.3: an HQ enters an EZOC only with combat units or where a friendly combat unit already is;
    * §9.4.2, §5.4.1: the free move of a ``reinforcement`` never enters an EZOC;
    * §5.4.1: entering an EZOC ends the move (an HQ's too); EZOC to EZOC directly only as Screen movement (§7.3.4:
      the whole MA, never into an unbreached enemy Minefield), if ``screen`` (see :func:`screen_allowed`);
    * §7.3.3: the Road/Trail rate along a route hexside, never entering or leaving an EZOC or an unbreached enemy
      Minefield;
    * §3.1.2: a Ridge or Wadi hexside otherwise takes all MPs (first step only);
    * §3.1.1: otherwise the TEC cost of the hex entered, the highest among the stack's columns.
    """
    board = sit.board
    side = movers_side(board, movers)
    zone = sit.enemy_zone(side)
    enemy = sit.combat[other(side)]
    friendly = sit.combat[side]
    has_combat = any(m in board.units for m in movers)
    has_hq = any(m in board.hqs for m in movers)
    off_route = columns(board, movers, on_route=False)
    on_route = columns(board, movers, on_route=True)
    breached = sit.position.breached

    def rule(here: HexId, there: HexId, hexside: Hexside) -> StepCost:
        if hexside.id in board.prohibited:
            return Blocked("5.3.2", "prohibited-hexside")
        if there in enemy:
            return Blocked("7.3.2", "enemy-occupied")
        leaving, entering = here in zone, there in zone
        if sit.enemy_minefield(there, side):
            if has_hq:
                return Blocked("7.3.6", "hq-minefield")
            if leaving and entering:
                return Blocked("7.3.4", "screen-minefield") if screen else Blocked("5.4.1", "zoc-to-zoc")
            return Cost(0, rest=True, first=True)
        if reinforcement and entering:
            return Blocked("9.4.2", "reinforcement-ezoc")
        if has_hq and entering and not has_combat and there not in friendly:
            return Blocked("3.3", "hq-ezoc")
        if leaving and entering:
            if not screen:
                return Blocked("5.4.1", "zoc-to-zoc")
            return Cost(0, rest=True, first=True)
        kind = board.route_kind.get(hexside.id)
        if kind is not None and not leaving and not entering and not sit.enemy_minefield(here, side):
            return _row_step(board, (board.tec[kind],), on_route, stop=False)
        if hexside.id in board.all_mp:
            return Cost(0, rest=True, first=True, stop=entering)
        rows = (board.tec[board.grid.terrain(there)], board.hex_row(there, breached, side))
        return _row_step(board, rows, off_route, stop=entering)

    return rule


def _row_step(board: Board, rows: Sequence[TerrainEffect], paying: Sequence[Column], *, stop: bool) -> StepCost:
    """The step cost of TEC rows for the stack's columns: refused where a row is ``prohibited``, all MPs where one
    is ``all_mp`` (first step only, §3.1.2), else the highest cost (the pack gives one for every other row)."""
    for row in rows:
        if row.prohibited:
            return Blocked(row.rule, "prohibited-terrain")
    if any(row.all_mp for row in rows):
        return Cost(0, rest=True, first=True, stop=stop)
    return Cost(max(board.cost(row, column) for row in rows for column in paying), stop=stop)


def reachable(sit: Situation, movers: Sequence[str], *, supplied: bool, reinforcement: bool = False) -> Reach[HexId]:
    """§7.3: every hex the stack can end a Movement Action in, with the least half-MPs and a path (the move
    prompt). A unit may always move one hex (§7.3.2: ``minimum_move``); Screen movement is offered when allowed."""
    start = sit.position.units.get(movers[0]) or sit.position.hqs[movers[0]]
    side = movers_side(sit.board, movers)
    rule = move_rule(sit, movers, screen=screen_allowed(sit, side, start), reinforcement=reinforcement)
    return sit.board.grid.reach(start, budget(sit.board, movers, supplied=supplied), rule, minimum_move=True)


_WALK_RULES = {"over-budget": "7.3.2", "not-adjacent": "7.3", "impassable": "5.3.2"}


def check_move(
    sit: Situation, movers: Sequence[str], path: Sequence[HexId], *, supplied: bool, reinforcement: bool = False
) -> Verdict:
    """§7.3: whether a logged Movement Action (a stack and its path ``[h0 … hn]``) is legal, step by step (kit
    ``walk``, no search).

    Refusals: ``no-movers``, ``not-together`` / ``mixed-formations`` (§7.3.1: one formation's stack, all starting
    in ``h0``, an HQ only with its own formation), ``disrupted`` (§5.6.3), and every step refusal of
    :func:`move_rule` or of the walk (``over-budget``, ``after-stop``, ``not-first-step``, ``not-adjacent``).
    """
    board, position = sit.board, sit.position
    if not movers or len(path) < 2:
        return deny("7.3", "no-movers", "a move names at least one unit and two hexes")
    for ident in movers:
        if (position.units.get(ident) or position.hqs.get(ident)) != path[0]:
            return deny("7.3.1", "not-together", f"{ident} does not stand in {path[0]}")
        if ident in position.disrupted:
            return deny("5.6.3", "disrupted", f"{ident} is Disrupted: it may only Refit")
    side = movers_side(board, movers)
    formations = {sit.formation(i) if i in board.units else board.hqs[i].formation for i in movers}
    if len(formations) > 1 or any(board.side[i] != side for i in movers):
        return deny("7.3.1", "mixed-formations", "a moving stack belongs to one formation")
    return walk_path(sit, movers, path, supplied=supplied, reinforcement=reinforcement)[0]


def walk_path(
    sit: Situation, movers: Sequence[str], path: Sequence[HexId], *, supplied: bool, reinforcement: bool = False
) -> tuple[Verdict, int]:
    """§7.3: the steps of a path ``[h0 … hn]`` for a stack (wherever it stands now: a move logged step by step has
    it on the way), with the half-MPs spent. Screen movement is judged in ``h0`` (it is a one-step move). The
    refusals are :func:`check_move`'s step refusals."""
    board = sit.board
    walk_key = ("walk", *movers, "|", *path, str(supplied), str(reinforcement))
    known = sit.memo.get(walk_key)
    if isinstance(known, tuple):  # the check of an action and its application walk the same path
        return cast(tuple[Verdict, int], known)
    side = movers_side(board, movers)
    screen = screen_allowed(sit, side, path[0])
    key = ("move_rule", *movers, str(screen), str(reinforcement))
    rule = sit.memo.get(key)
    if not callable(rule):  # built once per position and stack: a step-by-step move walks its path often
        rule = move_rule(sit, movers, screen=screen, reinforcement=reinforcement)
        sit.memo[key] = rule
    walked = board.grid.walk(path, budget(board, movers, supplied=supplied), rule, minimum_move=True)
    found = _walk_verdict(sit, side, path, walked)
    sit.memo[walk_key] = found
    return found


def _walk_verdict(sit: Situation, side: Side, path: Sequence[HexId], walked: Walk) -> tuple[Verdict, int]:
    if walked.ok:
        return ALLOW, walked.spent
    step = walked.step or 1
    stopping = step - 1 if walked.reason == "after-stop" else step
    rule = walked.rule or _WALK_RULES.get(walked.reason) or _stopping_rule(sit, side, path, stopping)
    message = f"step {step} of the move ({path[step - 1]} to {path[step]}): {walked.reason}"
    return deny(rule, walked.reason, message), walked.spent


def _stopping_rule(sit: Situation, side: Side, path: Sequence[HexId], index: int) -> str:
    """The rule that made step ``index`` end the move or allowed it only first: an enemy Minefield (§7.3.6),
    Screen movement (§7.3.4), entering an EZOC (§5.4.1) or a Ridge/Wadi (§3.1.2)."""
    here, there = path[index - 1], path[index]
    zone = sit.enemy_zone(side)
    if sit.enemy_minefield(there, side):
        return "7.3.6"
    if here in zone and there in zone:
        return "7.3.4"
    if there in zone:
        return "5.4.1"
    if _side_id(sit.board, here, there) in sit.board.all_mp:
        return "3.1.2"
    return "7.3.2"


def hqs_displaced_by(sit: Situation, side: Side, hex_id: HexId) -> tuple[str, ...]:
    """§5.3.2, §7.3.5: the enemy HQs alone in a hex adjacent to ``hex_id`` (not across an impassable hexside) that a
    ``side`` combat unit entering ``hex_id`` displaces."""
    board, position = sit.board, sit.position
    enemy = other(side)
    near = set(board.grid.neighbours(hex_id))
    here = [(hq, there) for hq, there in position.hqs.items() if there in near]
    found = []
    for hq, there in here:
        if board.side[hq] != enemy or there in sit.combat[enemy] or not adjacent(board, hex_id, there):
            continue
        if sum(1 for _, h in here if h == there) == 1:  # every HQ in a hex next to hex_id is in ``here``
            found.append(hq)
    return tuple(sorted(found))


def adjacent_enemy_combat(sit: Situation, side: Side, hex_id: HexId) -> bool:
    """§6.5.1: whether ``hex_id`` is adjacent to an enemy combat unit (a Reaction trigger point, regardless of ZOC)."""
    enemy = sit.combat[other(side)]
    return any(there in enemy for there in sit.board.grid.neighbours(hex_id))
