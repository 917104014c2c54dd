"""The *Rommel in the Desert* data pack: its schema, strict loading and cross-checks.

The pack holds everything a rules module must not hard-code (style guide §2.2): the hex map from El Agheila
to Alexandria (grid, land hexes, hexside terrain, roads, places, port capacities, regions, the areas and lines
scenarios name, map-end exits and off-board boxes), the unit types, every block, every scenario of §18 and the
§19 demo, the supply-card deck, the Fire Table and the rulebook's numbers. Every record says where its values
came from: ``"rulebook §13.3 …"``, ``"reconstructed: <reason>"`` or, in a user's transcription of the printed
components, ``"transcribed: map"``.

Loading is fail-closed: :func:`load_pack` parses strictly, validates against :class:`RommelPack`, then runs the
cross-checks pydantic cannot express (geometry, references, roads over passable hexsides, connectivity, the
counts the rulebook states). Any defect raises :class:`~pbem.errors.DataPackError` (R006) naming the record.

Hex geometry: printed ids are ``CCRR`` (column, row). With ``pointy`` tops rows are staggered and a hex has
neighbours ``e``, ``w``, ``ne``, ``nw``, ``se``, ``sw`` (§1.1 names hexes "Msus E1" and "El Alamein SW1"); the
``stagger`` rows (``odd`` or ``even`` printed numbers) are pushed half a hex east.

Example:
    >>> pack = load_pack(default_pack_bytes())
    >>> pack.place("tobruk").port.allied
    5
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from functools import cached_property
from itertools import pairwise
from typing import Annotated, Any, Literal, NoReturn

from pydantic import Field, StringConstraints

from pbem.kit import datapack
from pbem.kit.datapack import PackModel, RuleRef, Slug, SourceText, Text
from pbem.rules.maps import HexGrid

__all__ = [
    "ARMS_CLASSES",
    "DIRECTIONS",
    "GAME_ID",
    "Block",
    "Grid",
    "Hexside",
    "MapHex",
    "Place",
    "Road",
    "RommelPack",
    "Scenario",
    "default_pack_bytes",
    "load_pack",
    "pack_schema",
]

GAME_ID = "rommel"
ARMS_CLASSES: tuple[str, ...] = ("armor", "infantry", "anti_tank", "artillery")
"""§2.2: the four arms classes, the Fire Table's rows and columns."""

Side = Literal["axis", "allied"]
HexId = Annotated[str, StringConstraints(pattern=r"^[0-9]{2,8}$")]
Direction = Literal["e", "w", "ne", "nw", "se", "sw", "n", "s"]
Fire = Literal["sf", "df", "tf"]
RoadKind = Literal["highway", "track", "trail"]
HexsideTerrain = Literal["clear", "gap", "mountain", "ridge", "marsh"]

DIRECTIONS: dict[str, dict[str, tuple[int, int]]] = {
    "pointy": {"ne": (1, -1), "e": (1, 0), "se": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (0, -1)},
    "flat": {"n": (0, -1), "ne": (1, -1), "se": (1, 0), "s": (0, 1), "sw": (-1, 1), "nw": (-1, 0)},
}
"""Axial steps by compass name for each orientation (the same lattice as :mod:`pbem.kit`'s hex maps)."""


# --- the map -------------------------------------------------------------------------------------------


class GridSources(PackModel):
    orientation: SourceText
    stagger: SourceText
    extent: SourceText
    drawing: SourceText


class Grid(PackModel):
    """The printed hex grid: enough to derive any coordinate scheme and to draw it."""

    orientation: Literal["pointy", "flat"] = Field(description="pointy: rows staggered, neighbours E/W")
    stagger: Literal["odd", "even"] = Field(description="which printed rows (pointy) or columns are shifted")
    col_digits: int = Field(ge=1, le=4, description="digits of the column part of an id")
    row_digits: int = Field(ge=1, le=4, description="digits of the row part of an id")
    cols: tuple[int, int] = Field(description="first and last printed column, inclusive")
    rows: tuple[int, int] = Field(description="first and last printed row, inclusive")
    hex_size: int = Field(ge=4, description="drawing: centre-to-corner distance in px")
    margin: int = Field(ge=0, description="drawing: blank border in px")
    sources: GridSources

    def parse(self, hex_id: str) -> tuple[int, int]:
        """(col, row) of a printed id."""
        return int(hex_id[: self.col_digits]), int(hex_id[self.col_digits :])

    def format(self, col: int, row: int) -> str:
        return f"{col:0{self.col_digits}d}{row:0{self.row_digits}d}"

    def _shifted(self, index: int) -> bool:
        return index % 2 == (1 if self.stagger == "odd" else 0)

    def axial(self, hex_id: str) -> tuple[int, int]:
        """Axial (q, r) of a printed id."""
        col, row = self.parse(hex_id)
        if self.orientation == "pointy":
            lift = (row - (row & 1)) // 2 if self.stagger == "odd" else (row + (row & 1)) // 2
            return col - lift, row
        lift = (col - (col & 1)) // 2 if self.stagger == "odd" else (col + (col & 1)) // 2
        return col, row - lift

    def offset(self, q: int, r: int) -> str:
        """The printed id of axial (q, r) (not checked against the map)."""
        if self.orientation == "pointy":
            lift = (r - (r & 1)) // 2 if self.stagger == "odd" else (r + (r & 1)) // 2
            return self.format(q + lift, r)
        lift = (q - (q & 1)) // 2 if self.stagger == "odd" else (q + (q & 1)) // 2
        return self.format(q, r + lift)

    def step(self, hex_id: str, direction: str) -> str:
        q, r = self.axial(hex_id)
        dq, dr = DIRECTIONS[self.orientation][direction]
        return self.offset(q + dq, r + dr)

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        return tuple(self.step(hex_id, d) for d in DIRECTIONS[self.orientation])

    def distance(self, a: str, b: str) -> int:
        (q1, r1), (q2, r2) = self.axial(a), self.axial(b)
        dq, dr = q1 - q2, r1 - r2
        return max(abs(dq), abs(dr), abs(dq + dr))

    def hex_grid(self) -> HexGrid:
        """The report renderer's grid for this map (its stagger counts from ``first``, this one by printed number)."""
        first = self.cols[0]
        flip = first % 2 == 1
        stagger: Literal["odd", "even"] = ("even" if self.stagger == "odd" else "odd") if flip else self.stagger
        return HexGrid(
            columns=self.cols[1] - first + 1,
            rows=self.rows[1] - first + 1,
            size=float(self.hex_size),
            orientation=self.orientation,
            stagger=stagger,
            first=first,
            id_format=f"{{col:0{self.col_digits}d}}{{row:0{self.row_digits}d}}",
            origin=(float(self.margin), float(self.margin)),
        )


class MapHexSources(PackModel):
    """Where each field of a :class:`MapHex` came from (``hex``: that the land hex exists with this id)."""

    hex: SourceText
    region: SourceText
    terrain: SourceText


class MapHex(PackModel):
    """A land hex (every hex of the grid's rectangle that is not listed is sea or off the map, §1.4)."""

    id: HexId
    region: Literal["libya", "egypt"] = Field(description="§18: the country scenarios' deployment areas name")
    terrain: Literal["desert", "mountain", "depression"] = Field(
        description="drawing only (§1.4: hex terrain has no effect); mountain = Jebel el Akhdar, depression = Qattara"
    )
    sources: MapHexSources


class Hexside(PackModel):
    """A hexside that is not Clear (§1.4: all other hexsides between land hexes are Clear)."""

    a: HexId
    b: HexId
    terrain: HexsideTerrain = Field(description="§1.4, terrain key: gap, mountain, ridge, marsh (clear if listed)")
    name: Text | None = Field(description="the pass's name, e.g. Halfaya Pass; null when unnamed")
    source: SourceText


class Road(PackModel):
    """A road as the hexes it runs through, in order; it crosses the hexside between consecutive hexes (§1.5)."""

    id: Slug
    name: Text
    kind: RoadKind
    hexes: tuple[HexId, ...] = Field(min_length=2)
    source: SourceText


class Port(PackModel):
    """§13.3: Port Capacity per side (the first printed number is the Axis one)."""

    axis: int
    allied: int


class PlaceSources(PackModel):
    name: SourceText
    aliases: SourceText
    hex: SourceText
    kind: SourceText
    side: SourceText
    port: SourceText


class Place(PackModel):
    """A named location (§1.1): a Base, Fortress, Oasis or town."""

    id: Slug
    name: Text
    aliases: tuple[Text, ...] = Field(description="other spellings the rulebook uses")
    hex: HexId
    kind: Literal["base", "fortress", "oasis", "town"]
    side: Side | None = Field(description="a Base's owner (§1.6); null otherwise")
    port: Port | None = Field(description="a Fortress's Port Capacity (§13.3); Bases are unlimited; else null")
    sources: PlaceSources


class HexName(PackModel):
    """A "direction + distance" name (§1.1, §14.1): ``distance`` steps ``direction`` from ``place``."""

    name: Text
    place: Slug
    direction: Direction
    distance: int = Field(ge=1)
    hex: HexId
    source: SourceText


class Area(PackModel):
    """A set of hexes a scenario names (§18): a deployment area."""

    id: Slug
    name: Text
    hexes: tuple[HexId, ...] = Field(min_length=1)
    source: SourceText


class Line(PackModel):
    """A line a scenario draws through named places (§18.7), as the hexes it runs through in order."""

    id: Slug
    name: Text
    waypoints: tuple[Slug, ...] = Field(min_length=2, description="the places (and road ids) the text lists")
    hexes: tuple[HexId, ...] = Field(min_length=2)
    source: SourceText


class OffBoard(PackModel):
    """§16.4 sidebar, §16.52: the box one hex directly east/west of a Base for held reinforcements and refits."""

    id: Slug
    side: Side
    base: Slug
    direction: Direction
    source: SourceText


class Exit(PackModel):
    """§17.1: the map-end ``side`` exits through to win (the enemy's), as the edge hexes units leave from."""

    side: Side
    edge: Literal["east", "west"]
    hexes: tuple[HexId, ...] = Field(min_length=1)
    source: SourceText


class MapSources(PackModel):
    hexes: SourceText
    regions: SourceText
    hexsides: SourceText


class HexMap(PackModel):
    grid: Grid
    sources: MapSources
    hexes: tuple[MapHex, ...]
    hexsides: tuple[Hexside, ...]
    roads: tuple[Road, ...]
    places: tuple[Place, ...]
    hex_names: tuple[HexName, ...]
    areas: tuple[Area, ...]
    lines: tuple[Line, ...]
    offboard: tuple[OffBoard, ...]
    exits: tuple[Exit, ...]


# --- units ---------------------------------------------------------------------------------------------


class UnitTypeSources(PackModel):
    arms_class: SourceText
    speed: SourceText
    replacement_bp: SourceText


class UnitType(PackModel):
    """A row of the Unit Types Chart (§2.2, §6.1) with its §16.54 replacement cost per CV."""

    id: Slug
    name: Text
    arms_class: Literal["armor", "infantry", "anti_tank", "artillery"]
    speed: int = Field(ge=1, le=4)
    replacement_bp: int = Field(ge=1, description="BP per CV (elite: twice this per 2-CV step)")
    sources: UnitTypeSources


class BlockSources(PackModel):
    side: SourceText
    nationality: SourceText
    unit_type: SourceText
    elite: SourceText
    i_tank: SourceText
    cv: SourceText
    designation: SourceText
    label: SourceText


class Block(PackModel):
    """A unit block (§2)."""

    id: Slug
    side: Side
    nationality: Literal[
        "german", "italian", "british", "australian", "indian", "new_zealand", "south_african", "free_french", "polish"
    ] = Field(description="§2.1 label colours and Commonwealth centre colours")
    unit_type: Slug
    elite: bool = Field(description="§2.4: 2 CV per step; every German unit, some Allied tank units")
    i_tank: bool = Field(description="Optional Rules, Allied I-Tanks: one of the four Army Tank blocks")
    cv_max: int = Field(ge=1)
    cv_min: int = Field(ge=1, description="the lowest printed CV; below it the unit is eliminated (§2.3)")
    division: Text
    unit: Text = Field(description="brigade or regiment (§2.1 unit symbols)")
    code: Literal["H", "Tob", "AT", "G", "m", "SG"] | None = Field(description="§2.1 designation code")
    label: Annotated[str, StringConstraints(pattern=r"^(S|T|M|[1-9][0-9]?|-)$")] = Field(
        description="month of appearance (§2.1): S, T, M, a month number, or - for no code"
    )
    sources: BlockSources


# --- scenarios -----------------------------------------------------------------------------------------


class Cap(PackModel):
    """At most ``at_most`` of a deployment's units in ``place`` ("up to 5 units in Tobruk")."""

    place: Slug
    at_most: int = Field(ge=0)


class Deployment(PackModel):
    """Units placed at the start: fixed in a place, or Free Deployment in areas (§18.0)."""

    id: Slug
    where: tuple[Slug, ...] = Field(min_length=1, description="area ids and/or place ids")
    excluding: tuple[Slug, ...] = Field(description="place ids the areas exclude (Libya except Tobruk)")
    caps: tuple[Cap, ...]
    count: int = Field(ge=1, description="units deployed here, as the text states")
    choose: bool = Field(description="the player picks `count` of `blocks` (1942); otherwise all of them")
    blocks: tuple[Slug, ...] = Field(min_length=1)
    source: SourceText


class Arrival(PackModel):
    """Reinforcements due in ``month`` (§16.4); for optional ones (Malta Group), the first Buildup they may come."""

    month: int
    blocks: tuple[Slug, ...] = Field(min_length=1)
    optional: bool = Field(description="Malta Group (18.6, 18.8): arrives in any Buildup the owner chooses")
    source: SourceText


class ResupplyChange(PackModel):
    """Monthly Resupply changes: from ``month`` on (18.3), or when ``trigger`` happens (Malta Group)."""

    cards: int
    month: int | None
    trigger: Literal["malta_group"] | None
    rule: RuleRef


class SideSetup(PackModel):
    initial_cards: int = Field(ge=0)
    resupply: int = Field(ge=0)
    resupply_changes: tuple[ResupplyChange, ...]
    deployments: tuple[Deployment, ...]
    reinforcements: tuple[Arrival, ...]
    stated_start: int = Field(description="the starting-force count the text states")
    stated_reinforcements: int | None = Field(description="the reinforcement count the text states, if any")


class SpecialRule(PackModel):
    id: Slug
    rule: RuleRef
    text: Text


class PregameBuildup(PackModel):
    """§18.7: a Buildup before deployment with a fixed number of BP and no dice."""

    first: Side
    bp: int
    rule: RuleRef


class Scenario(PackModel):
    id: Slug
    name: Text
    section: RuleRef
    first_month: int
    last_month: int
    start_label: Text
    end_label: Text
    time: Text
    first_player: Side = Field(description="§18.0: the Axis, except Crusader (18.4)")
    rommel_bonus: bool = Field(description="§6.3: not in 1940")
    bp_dice: int = Field(description="§16.3: dice each player rolls for BP")
    labels_apply: bool = Field(description="§18.1: month codes on labels do not apply to 1940")
    minefields: tuple[Slug, ...] = Field(description="places holding a Minefield at the start (18.4)")
    pregame_buildup: PregameBuildup | None
    joins: Slug | None = Field(description="18.3: the scenario whose months 11-20 follow")
    axis: SideSetup
    allied: SideSetup
    special_rules: tuple[SpecialRule, ...]
    source: SourceText


# --- tables --------------------------------------------------------------------------------------------


class FireCell(PackModel):
    """A cell of the Fire Table (§9.4): ``firer``'s class against ``target``'s class.

    ``fire`` is null where the class may not be targeted (§9.3: only artillery fires at supported artillery).
    """

    firer: Literal["armor", "infantry", "anti_tank", "artillery"]
    target: Literal["armor", "infantry", "anti_tank", "artillery"]
    fire: Fire | None
    source: SourceText


class UnsupportedArtillery(PackModel):
    """§9.3 sidebar: every class but artillery fires at unsupported enemy artillery at this Firepower."""

    fire: Fire
    rule: RuleRef
    text: Text


class FireLevel(PackModel):
    """§9.4: a die scores a hit at ``hit_min`` or more."""

    id: Fire
    name: Text
    hit_min: int = Field(ge=1, le=6)
    rule: RuleRef


class LimitRow(PackModel):
    id: Slug
    value: int
    rule: RuleRef
    text: Text


class DeckSources(PackModel):
    split: SourceText
    size: SourceText


class Deck(PackModel):
    """The supply-card deck (intro: two thirds real, one third dummy)."""

    real: int
    dummy: int
    sources: DeckSources


class Tables(PackModel):
    fire: tuple[FireCell, ...]
    fire_levels: tuple[FireLevel, ...]
    unsupported_artillery: UnsupportedArtillery
    limits: tuple[LimitRow, ...]


class Meta(PackModel):
    game: Text
    edition: Text
    version: Text
    description: Text
    notes: tuple[Text, ...]


class RommelPack(PackModel):
    """The whole data pack. Build it with :func:`load_pack`, which also runs the cross-checks."""

    meta: Meta
    map: HexMap
    unit_types: tuple[UnitType, ...]
    blocks: tuple[Block, ...]
    scenarios: tuple[Scenario, ...]
    deck: Deck
    tables: Tables

    def place(self, place_id: str) -> Place:
        """The place ``place_id``; KeyError if there is none."""
        for place in self.map.places:
            if place.id == place_id:
                return place
        raise KeyError(place_id)

    def block(self, block_id: str) -> Block:
        for block in self.blocks:
            if block.id == block_id:
                return block
        raise KeyError(block_id)

    def unit_type(self, type_id: str) -> UnitType:
        for row in self.unit_types:
            if row.id == type_id:
                return row
        raise KeyError(type_id)

    def scenario(self, scenario_id: str) -> Scenario:
        for row in self.scenarios:
            if row.id == scenario_id:
                return row
        raise KeyError(scenario_id)

    def area(self, area_id: str) -> Area:
        for row in self.map.areas:
            if row.id == area_id:
                return row
        raise KeyError(area_id)

    def line(self, line_id: str) -> Line:
        for row in self.map.lines:
            if row.id == line_id:
                return row
        raise KeyError(line_id)

    def limit(self, limit_id: str) -> int:
        for row in self.tables.limits:
            if row.id == limit_id:
                return row.value
        raise KeyError(limit_id)

    def fire(self, firer: str, target: str) -> Fire | None:
        """The Fire Table cell; None where ``target`` may not be chosen (supported artillery, §9.3)."""
        for cell in self.tables.fire:
            if cell.firer == firer and cell.target == target:
                return cell.fire
        raise KeyError((firer, target))

    def hexside(self, a: str, b: str) -> HexsideTerrain | None:
        """The terrain between two land hexes: listed, else Clear; None if they are not adjacent land hexes."""
        land = self.land()
        if a not in land or b not in land or b not in self.map.grid.neighbours(a):
            return None
        return self._hexsides().get(frozenset((a, b)), "clear")

    def road_links(self) -> dict[frozenset[str], RoadKind]:
        """The best road across each hexside a road crosses (highway over track over trail)."""
        return self._road_links

    def passable(self, a: str, b: str) -> bool:
        """Whether units and supply lines may cross from ``a`` to ``b`` (§1.4, §7.1)."""
        terrain = self.hexside(a, b)
        if terrain is None:
            return False
        if terrain == "mountain":
            return frozenset((a, b)) in self.road_links()
        return terrain in ("clear", "gap")

    def land(self) -> frozenset[str]:
        return self._land

    def _hexsides(self) -> dict[frozenset[str], HexsideTerrain]:
        return self._hexside_index

    @cached_property
    def _land(self) -> frozenset[str]:
        return frozenset(h.id for h in self.map.hexes)

    @cached_property
    def _hexside_index(self) -> dict[frozenset[str], HexsideTerrain]:
        return {frozenset((s.a, s.b)): s.terrain for s in self.map.hexsides}

    @cached_property
    def _road_links(self) -> dict[frozenset[str], RoadKind]:
        out: dict[frozenset[str], RoadKind] = {}
        for road in self.map.roads:
            for a, b in pairwise(road.hexes):
                pair = frozenset((a, b))
                if pair not in out or _ROAD_RANK[road.kind] > _ROAD_RANK[out[pair]]:
                    out[pair] = road.kind
        return out

    @cached_property
    def _road_kinds(self) -> dict[frozenset[str], frozenset[str]]:
        out: dict[frozenset[str], set[str]] = {}
        for road in self.map.roads:
            for a, b in pairwise(road.hexes):
                out.setdefault(frozenset((a, b)), set()).add(road.kind)
        return {pair: frozenset(kinds) for pair, kinds in out.items()}

    def region(self, region: str) -> tuple[str, ...]:
        return tuple(h.id for h in self.map.hexes if h.region == region)

    def road_path(self, start: str, end: str, kinds: Iterable[str]) -> tuple[str, ...] | None:
        """The shortest path from ``start`` to ``end`` crossing only hexsides carrying a road of ``kinds``."""
        allowed = set(kinds)
        links: dict[str, set[str]] = {}
        for pair, present in self._road_kinds.items():
            if present & allowed:
                a, b = tuple(pair)
                links.setdefault(a, set()).add(b)
                links.setdefault(b, set()).add(a)
        return _bfs_path(links, start, end)


_ROAD_RANK = {"highway": 3, "track": 2, "trail": 1}


def _bfs_path(links: dict[str, set[str]], start: str, end: str) -> tuple[str, ...] | None:
    previous: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == end:
            path = [here]
            while (back := previous[path[-1]]) is not None:
                path.append(back)
            return tuple(reversed(path))
        for nxt in sorted(links.get(here, ())):
            if nxt not in previous:
                previous[nxt] = here
                queue.append(nxt)
    return None


# --- loading -------------------------------------------------------------------------------------------


def load_pack(raw: bytes) -> RommelPack:
    """Parse, validate and cross-check a pack.

    Raises:
        DataPackError: R006, naming the record and field at fault.
    """
    return datapack.load_pack(raw, RommelPack, game=GAME_ID, cross_checks=(_cross_check,))


def default_pack_bytes() -> bytes:
    """The bundled pack as canonical JSON (RFC 8785): its SHA-256 is what genesis will record."""
    return datapack.bundled_pack_bytes("pbem.games.rommel", "data/pack.json", game=GAME_ID)


def pack_schema() -> dict[str, Any]:
    """The JSON Schema of a pack (without the cross-checks), for checking a transcription in an editor."""
    return datapack.pack_schema(RommelPack)


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


def _cross_check(pack: RommelPack) -> None:
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
    return pack.map.grid.cols[0] if edge == "west" else pack.map.grid.cols[1]


def _on_map(pack: RommelPack, hex_id: str) -> bool:
    return hex_id in pack.land()


def _place(pack: RommelPack, place_id: str, where: str) -> Place:
    try:
        return pack.place(place_id)
    except KeyError:
        _fail(f"{where} names the unknown place {place_id!r}")


def _components(pack: RommelPack) -> Iterator[set[str]]:
    todo = {h.id for h in pack.map.hexes if h.terrain != "depression"}
    grid = pack.map.grid
    while todo:
        start = min(todo)
        seen = {start}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in grid.neighbours(here):
                if nxt in todo and nxt not in seen and pack.passable(here, nxt):
                    seen.add(nxt)
                    queue.append(nxt)
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
