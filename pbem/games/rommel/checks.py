"""The Rommel pack's cross-checks: what its schema cannot say. The first failure raises R006 naming the record."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import pairwise
from typing import NoReturn

from pbem.games.rommel.grid import DIRECTIONS
from pbem.games.rommel.schema import ARMS_CLASSES, GAME_ID, Place, RommelPack, SideSetup
from pbem.kit import datapack
from pbem.kit.graph import dijkstra
from pbem.kit.hexes import HexId

__all__ = ["REQUIRED_LIMITS", "cross_check"]


def _fail(message: str) -> NoReturn:
    datapack.fail(GAME_ID, message)


def _unique(ids: Iterable[str], what: str) -> None:
    datapack.require_unique(GAME_ID, ids, what)


# --- cross-checks --------------------------------------------------------------------------------------

REQUIRED_LIMITS = frozenset(
    {
        "road_bonus_highway",
        "road_bonus_track",
        "road_bonus_trail",
        "supply_range_track",
        "supply_range_trail",
        "supply_range_none",
        "hexside_limit_clear",
        "hexside_limit_gap",
        "hexside_limit_mountain",
        "rommel_bonus",
        "forced_march_min",
        "early_arrival_max",
        "pursuit_hit_min",
        "hand_limit",
        "bp_save_limit",
        "bp_extra_card",
        "bp_minefield",
        "bp_redeployment",
        "redeployment_hexes",
        "bp_sea_redeployment",
        "bp_sea_redeployment_besieged_allied",
        "cost_basic",
        "cost_offensive",
        "cost_assault",
        "cost_blitz",
        "cost_pass",
        "double_dice",
        "fortress_assault_dice",
        "elite_step",
        "step",
        "strategic_exit_units",
        "decisive_ratio",
        "german_unit_halves",
        "status_markers",
        "vp_strategic",
        "vp_decisive",
        "vp_positional",
        "vp_attrition",
        "i_tanks",
        "i_tank_speed",
        "bp_dice",
        "oasis_supply_units",
        "pursuit_dice_equal",
        "pursuit_dice_faster",
        "rout_attrition_steps",
        "forced_march_hexes",
        "forced_march_retreat_steps",
        "regroup_reach",
        "moves_basic",
        "moves_offensive",
        "moves_assault",
        "moves_blitz",
        "combat_rounds_blitz",
        "withdrawals_pass",
        "rommel_moves",
        "minefield_swap",
        "bp_refit",
        "initiative_cards",
        "early_arrival_months",
    }
)
"""Limit rows the rules module relies on: a pack missing one does not load."""


def cross_check(pack: RommelPack) -> None:
    """What the schema cannot say. Steps run in order; the first failure raises R006."""
    if pack.meta.game != GAME_ID:
        _fail(f"meta.game is {pack.meta.game!r}, expected {GAME_ID!r}")
    _check_tables(pack)
    _check_hexes(pack)
    _check_hexsides(pack)
    _check_roads(pack)
    _check_places(pack)
    _check_connected(pack)
    _check_areas(pack)
    _check_unit_types(pack)
    _check_blocks(pack)
    _check_scenarios(pack)
    _check_deck(pack)


def _check_tables(pack: RommelPack) -> None:
    t = pack.tables
    _unique((row.id for row in t.limits), "tables.limits row")
    missing = sorted(REQUIRED_LIMITS - {row.id for row in t.limits})
    if missing:
        _fail(f"tables.limits lacks the row(s) {', '.join(missing)}")
    _unique((row.id for row in t.fire_levels), "tables.fire_levels row")
    if {row.id for row in t.fire_levels} != {"sf", "df", "tf"}:
        _fail("tables.fire_levels must hold exactly sf, df and tf (§9.4)")
    cells = [(c.firer, c.target) for c in t.fire]
    _unique((f"{a}>{b}" for a, b in cells), "tables.fire cell")
    wanted = {(a, b) for a in ARMS_CLASSES for b in ARMS_CLASSES}
    if set(cells) != wanted:
        gap = sorted(f"{a}>{b}" for a, b in wanted - set(cells))
        _fail(f"tables.fire must have a cell for every firer and target class (§9.4): missing {gap}")
    for cell in t.fire:
        if cell.fire is None and (cell.firer == "artillery" or cell.target != "artillery"):
            _fail(
                f"tables.fire cell {cell.firer}>{cell.target}: only non-artillery fire at artillery may be null (§9.3)"
            )


def _check_hexes(pack: RommelPack) -> None:
    grid = pack.map.grid
    _unique((h.id for h in pack.map.hexes), "hex")
    if grid.cols[0] != grid.rows[0]:
        _fail(f"map.grid: first column {grid.cols[0]} and first row {grid.rows[0]} differ (the renderer needs one)")
    for what, (first, last), digits in (
        ("cols", grid.cols, grid.col_digits),
        ("rows", grid.rows, grid.row_digits),
    ):
        if first < 0 or last < first or len(str(last)) > digits:
            _fail(f"map.grid.{what} {first}..{last} is not a range of {digits}-digit numbers")
    for h in pack.map.hexes:
        if len(h.id) != grid.col_digits + grid.row_digits:
            _fail(f"hex {h.id!r}: the id must have {grid.col_digits}+{grid.row_digits} digits")
        col, row = grid.parse(h.id)
        if not (grid.cols[0] <= col <= grid.cols[1] and grid.rows[0] <= row <= grid.rows[1]):
            _fail(f"hex {h.id!r}: outside the grid's columns {grid.cols} and rows {grid.rows}")


def _check_known(pack: RommelPack, ids: Iterable[str], where: str) -> None:
    land = pack.land()
    for ident in ids:
        if ident not in land:
            _fail(f"{where} names {ident!r}, which is not a land hex of the map")


def _check_hexsides(pack: RommelPack) -> None:
    grid = pack.map.grid
    seen: set[frozenset[str]] = set()
    for side in pack.map.hexsides:
        where = f"hexside {side.a}/{side.b}"
        _check_known(pack, (side.a, side.b), where)
        if side.b not in grid.neighbours(side.a):
            _fail(f"{where}: the two hexes are not adjacent")
        pair = frozenset((side.a, side.b))
        if pair in seen:
            _fail(f"{where}: listed twice")
        seen.add(pair)
        if side.name is not None and side.terrain != "gap":
            _fail(f"{where}: only a gap has a name (field 'name')")
    depression = {h.id for h in pack.map.hexes if h.terrain == "depression"}
    for a in depression:
        for b in grid.neighbours(a):
            terrain = pack.hexside(a, b)
            if terrain is not None and terrain not in ("marsh", "gap"):
                _fail(f"hexside {a}/{b}: a Qattara depression hex is bounded by marsh (§1.4), not {terrain}")


def _check_roads(pack: RommelPack) -> None:
    grid = pack.map.grid
    _unique((road.id for road in pack.map.roads), "road")
    for road in pack.map.roads:
        where = f"road {road.id!r}"
        _check_known(pack, road.hexes, where)
        for a, b in pairwise(road.hexes):
            if b not in grid.neighbours(a):
                _fail(f"{where}: {a} and {b} follow each other but are not adjacent")
            terrain = pack.hexside(a, b)
            if terrain in ("ridge", "marsh"):
                _fail(f"{where}: crosses the {terrain} hexside {a}/{b}; a road crosses a ridge only at a gap (§7.1)")
        if len(set(road.hexes)) != len(road.hexes):
            _fail(f"{where}: passes a hex twice")
    if not any(road.kind == "highway" for road in pack.map.roads):
        _fail("the map has no highway (§1.5, §12.3)")


def _check_places(pack: RommelPack) -> None:
    grid = pack.map.grid
    places = pack.map.places
    _unique((p.id for p in places), "place")
    _unique((p.name for p in places), "place name")
    for place in places:
        where = f"place {place.id!r}"
        _check_known(pack, (place.hex,), where)
        if (place.kind == "base") != (place.side is not None):
            _fail(f"{where}: field 'side' is given exactly for a base (§1.6)")
        if (place.kind == "fortress") != (place.port is not None):
            _fail(f"{where}: field 'port' is given exactly for a fortress (§13.3; bases have no limit)")
    for side, edge in (("axis", "west"), ("allied", "east")):
        bases = [p for p in places if p.kind == "base" and p.side == side]
        if len(bases) != 1:
            _fail(f"the map needs exactly one {side} base (§1.6), found {len(bases)}")
        base = bases[0]
        if grid.parse(base.hex)[0] != _edge_column(pack, edge):
            _fail(f"place {base.id!r}: the {side} base must be on the {edge} map edge (§1.6)")
    for off in pack.map.offboard:
        base = _place(pack, off.base, f"offboard {off.id!r}")
        if base.kind != "base" or base.side != off.side:
            _fail(f"offboard {off.id!r}: field 'base' must be the {off.side} base")
        if _on_map(pack, grid.step(base.hex, off.direction)):
            _fail(f"offboard {off.id!r}: one hex {off.direction} of the base must be off the map (§16.4 sidebar)")
    for name in pack.map.hex_names:
        where = f"hex name {name.name!r}"
        origin = _place(pack, name.place, where)
        if name.direction not in DIRECTIONS[grid.orientation]:
            _fail(f"{where}: direction {name.direction!r} does not exist on a {grid.orientation} grid")
        here = origin.hex
        for _ in range(name.distance):
            here = grid.step(here, name.direction)
        if here != name.hex:
            _fail(f"{where}: {name.distance} {name.direction} of {origin.hex} is {here}, not {name.hex}")
        _check_known(pack, (name.hex,), where)
    for ex in pack.map.exits:
        where = f"exit of the {ex.side}"
        _check_known(pack, ex.hexes, where)
        for ident in ex.hexes:
            if grid.parse(ident)[0] != _edge_column(pack, ex.edge):
                _fail(f"{where}: hex {ident} is not on the {ex.edge} map edge")
    if {(ex.side, ex.edge) for ex in pack.map.exits} != {("axis", "east"), ("allied", "west")}:
        _fail("map.exits must give the Axis exit (east) and the Allied exit (west), §17.1")


def _edge_column(pack: RommelPack, edge: str) -> int:
    """The printed column of the west or east map-end (§1.6: the Bases sit on them)."""
    # RULING: a map-end is the first or last printed column (the map runs east-west, §1.0); a coastal hex with sea
    # to its west is not on the map-end.
    return pack.map.grid.cols[0] if edge == "west" else pack.map.grid.cols[1]


def _on_map(pack: RommelPack, hex_id: str) -> bool:
    return hex_id in pack.land()


def _place(pack: RommelPack, place_id: str, where: str) -> Place:
    try:
        return pack.place(place_id)
    except KeyError:
        _fail(f"{where} names the unknown place {place_id!r}")


def _components(pack: RommelPack) -> Iterator[set[str]]:
    """The parts of the map connected over passable hexsides (depression hexes left out), by the kit's search."""
    hex_map = pack.hex_map  # the hexes, hexsides and roads are known to fit the grid by now
    land = frozenset(h.id for h in pack.map.hexes if h.terrain != "depression")

    def expand(here: HexId, _spent: int) -> Iterator[tuple[HexId, int]]:
        return ((there, 1) for there in hex_map.neighbours(here) if there in land and pack.passable(here, there))

    todo = set(land)
    while todo:
        seen: set[str] = set(dijkstra([HexId(min(todo))], expand).cost)
        todo -= seen
        yield seen


def _check_connected(pack: RommelPack) -> None:
    parts = sorted(_components(pack), key=len, reverse=True)
    if len(parts) > 1:
        cut = sorted(set().union(*parts[1:]))
        _fail(f"the map is not connected over passable hexsides: {cut[:8]} cannot be reached (§1.4)")


def _check_areas(pack: RommelPack) -> None:
    _unique((a.id for a in pack.map.areas), "area")
    _unique((line.id for line in pack.map.lines), "line")
    place_ids = {p.id for p in pack.map.places} | {r.id for r in pack.map.roads}
    grid = pack.map.grid
    for area in pack.map.areas:
        _check_known(pack, area.hexes, f"area {area.id!r}")
        _unique(area.hexes, f"area {area.id!r} hex")
    for line in pack.map.lines:
        where = f"line {line.id!r}"
        _check_known(pack, line.hexes, where)
        for a, b in pairwise(line.hexes):
            if b not in grid.neighbours(a):
                _fail(f"{where}: {a} and {b} follow each other but are not adjacent")
        for ident in line.waypoints:
            if ident not in place_ids:
                _fail(f"{where}: waypoint {ident!r} is neither a place nor a road")
            if ident in {p.id for p in pack.map.places} and pack.place(ident).hex not in line.hexes:
                _fail(f"{where}: the line does not pass through its waypoint {ident!r}")


def _check_unit_types(pack: RommelPack) -> None:
    _unique((t.id for t in pack.unit_types), "unit type")
    if {t.arms_class for t in pack.unit_types} != set(ARMS_CLASSES):
        _fail("unit_types must cover the four arms classes (§2.2)")


def _check_blocks(pack: RommelPack) -> None:
    _unique((b.id for b in pack.blocks), "block")
    types = {t.id for t in pack.unit_types}
    step = pack.limit("step")
    elite_step = pack.limit("elite_step")
    for block in pack.blocks:
        where = f"block {block.id!r}"
        if block.unit_type not in types:
            _fail(f"{where}: field 'unit_type' names the unknown type {block.unit_type!r}")
        axis = block.nationality in ("german", "italian")
        if axis != (block.side == "axis"):
            _fail(f"{where}: nationality {block.nationality!r} does not fight for the {block.side} (§2.1)")
        if block.nationality == "german" and not block.elite:
            _fail(f"{where}: every German unit is elite (§2.4)")
        if block.nationality == "italian" and block.elite:
            _fail(f"{where}: Italian units are not elite (§2.4)")
        if block.side == "allied" and block.elite and pack.unit_type(block.unit_type).arms_class != "armor":
            _fail(f"{where}: only Allied tank units are elite (§2.4)")
        if block.cv_min > block.cv_max:
            _fail(f"{where}: field 'cv_min' {block.cv_min} exceeds 'cv_max' {block.cv_max}")
        if (block.cv_max - block.cv_min) % (elite_step if block.elite else step):
            _fail(f"{where}: cv_max - cv_min must be whole steps of {elite_step if block.elite else step} CV (§2.3)")
        if block.i_tank and (block.side != "allied" or block.code != "AT"):
            _fail(f"{where}: an I-tank is an Allied Army Tank (AT) block (§17 sidebar, Optional Rules)")
    i_tanks = sum(1 for b in pack.blocks if b.i_tank)
    if i_tanks != pack.limit("i_tanks"):
        _fail(f"{i_tanks} blocks have i_tank, expected {pack.limit('i_tanks')} (§17 sidebar, Optional Rules)")


def _scenario_blocks(side: SideSetup) -> Iterator[str]:
    for dep in side.deployments:
        yield from dep.blocks
    for arrival in side.reinforcements:
        yield from arrival.blocks


def _check_scenarios(pack: RommelPack) -> None:
    _unique((s.id for s in pack.scenarios), "scenario")
    blocks = {b.id: b for b in pack.blocks}
    where_ids = {a.id for a in pack.map.areas} | {p.id for p in pack.map.places}
    scenario_ids = {s.id for s in pack.scenarios}
    for sc in pack.scenarios:
        name = f"scenario {sc.id!r}"
        if sc.first_month > sc.last_month:
            _fail(f"{name}: first_month {sc.first_month} is after last_month {sc.last_month}")
        if sc.joins is not None and sc.joins not in scenario_ids:
            _fail(f"{name}: field 'joins' names the unknown scenario {sc.joins!r}")
        for place in sc.minefields:
            _place(pack, place, f"{name} minefields")
        for side_name, side in (("axis", sc.axis), ("allied", sc.allied)):
            where = f"{name} {side_name}"
            ids = list(_scenario_blocks(side))
            _unique(ids, f"{where} block")
            for ident in ids:
                if ident not in blocks:
                    _fail(f"{where} names the unknown block {ident!r}")
                if blocks[ident].side != side_name:
                    _fail(f"{where}: block {ident!r} belongs to the {blocks[ident].side}")
            start = 0
            for dep in side.deployments:
                dwhere = f"{where} deployment {dep.id!r}"
                for ident in (*dep.where, *dep.excluding, *(cap.place for cap in dep.caps)):
                    if ident not in where_ids:
                        _fail(f"{dwhere} names the unknown area or place {ident!r}")
                if dep.choose and dep.count > len(dep.blocks):
                    _fail(f"{dwhere}: choose {dep.count} of only {len(dep.blocks)} blocks")
                if not dep.choose and dep.count != len(dep.blocks):
                    _fail(f"{dwhere}: field 'count' is {dep.count} but {len(dep.blocks)} blocks are listed")
                start += dep.count
            if start != side.stated_start:
                _fail(f"{where}: {start} units deploy, the text states {side.stated_start} (§{sc.section})")
            arriving = sum(len(a.blocks) for a in side.reinforcements)
            if side.stated_reinforcements is not None and arriving != side.stated_reinforcements:
                _fail(f"{where}: {arriving} reinforcements, the text states {side.stated_reinforcements}")
            for arrival in side.reinforcements:
                if not sc.first_month < arrival.month <= sc.last_month:
                    _fail(f"{where}: reinforcements in month {arrival.month}, outside the scenario's Buildups")
                if sc.labels_apply:
                    for ident in arrival.blocks:
                        label = blocks[ident].label
                        wanted = "M" if arrival.optional else str(arrival.month)
                        if label != wanted:
                            _fail(f"{where}: block {ident!r} is labelled {label!r} but arrives as {wanted!r} (§16.4)")


def _check_deck(pack: RommelPack) -> None:
    if pack.deck.real != 2 * pack.deck.dummy:
        _fail(f"deck: {pack.deck.real} real and {pack.deck.dummy} dummy cards are not two thirds real (intro)")
    size = pack.deck.real + pack.deck.dummy
    hand = pack.limit("hand_limit")
    for sc in pack.scenarios:
        dealt = sc.axis.initial_cards + sc.allied.initial_cards
        if dealt > size:
            _fail(f"scenario {sc.id!r}: initial hands of {dealt} cards exceed the deck of {size}")
        for side in (sc.axis, sc.allied):
            if side.initial_cards > hand:
                _fail(f"scenario {sc.id!r}: an initial hand over the hand limit of {hand} (§16.6)")
