"""The *Rommel in the Desert* data pack's records: map, unit types, blocks, scenarios, deck and tables.

Every record says where its values came from, field by field (``sources``) or as one fact (``source``):
``"rulebook §13.3 …"``, ``"reconstructed: <reason>"`` or ``"transcribed: map"``. Load a pack with
:func:`pbem.games.rommel.data.load_pack`, which also runs the cross-checks of :mod:`pbem.games.rommel.checks`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from itertools import pairwise
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from pbem.games.rommel.grid import Grid, kit_map_data
from pbem.kit import hexes
from pbem.kit.datapack import PackMeta, PackModel, RuleRef, Slug, SourceText, Text, by_id
from pbem.kit.graph import dijkstra

__all__ = [
    "ARMS_CLASSES",
    "GAME_ID",
    "Area",
    "Arrival",
    "Block",
    "BlockSources",
    "Cap",
    "Deck",
    "DeckSources",
    "Deployment",
    "Exit",
    "FireCell",
    "FireLevel",
    "HexMap",
    "HexName",
    "Hexside",
    "LimitRow",
    "Line",
    "MapHex",
    "MapHexSources",
    "MapSources",
    "OffBoard",
    "Place",
    "PlaceSources",
    "Port",
    "PregameBuildup",
    "ResupplyChange",
    "Road",
    "RommelPack",
    "Scenario",
    "SideSetup",
    "SpecialRule",
    "Tables",
    "UnitType",
    "UnitTypeSources",
    "UnsupportedArtillery",
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


# --- the map -------------------------------------------------------------------------------------------


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
    name: Text | None = Field(description="the pass's name, e.g. Sollum pass; null when unnamed")
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
    """Where each field of a :class:`Place` came from."""

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
    """Where the map-wide conventions came from (land hexes, regions, the Clear default of hexsides)."""

    hexes: SourceText
    regions: SourceText
    hexsides: SourceText


class HexMap(PackModel):
    """The map: its grid and every record on it."""

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
    """Where each field of a :class:`UnitType` came from."""

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
    """Where each field of a :class:`Block` came from (``cv`` covers both CVs, ``designation`` the names and code)."""

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
    """One side's part of a scenario: cards, deployments, reinforcements and the counts the text states."""

    initial_cards: int = Field(ge=0)
    resupply: int = Field(ge=0)
    resupply_changes: tuple[ResupplyChange, ...]
    deployments: tuple[Deployment, ...]
    reinforcements: tuple[Arrival, ...]
    stated_start: int = Field(description="the starting-force count the text states")
    stated_reinforcements: int | None = Field(description="the reinforcement count the text states, if any")


class SpecialRule(PackModel):
    """A scenario's special rule in the text's words (the data fields of :class:`Scenario` carry its effect)."""

    id: Slug
    rule: RuleRef
    text: Text


class PregameBuildup(PackModel):
    """§18.7: a Buildup before deployment with a fixed number of BP and no dice."""

    first: Side
    bp: int
    rule: RuleRef


class Scenario(PackModel):
    """A scenario of §18 (or the §19 demo): months, first player, special rules and both sides' setups."""

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
    """A single number of the rules with its section and words."""

    id: Slug
    value: int
    rule: RuleRef
    text: Text


class DeckSources(PackModel):
    """Where the deck's split and size came from."""

    split: SourceText
    size: SourceText


class Deck(PackModel):
    """The supply-card deck (intro: two thirds real, one third dummy)."""

    real: int
    dummy: int
    sources: DeckSources


class Tables(PackModel):
    """The Fire Table and every number the rulebook states."""

    fire: tuple[FireCell, ...]
    fire_levels: tuple[FireLevel, ...]
    unsupported_artillery: UnsupportedArtillery
    limits: tuple[LimitRow, ...]


class RommelPack(PackModel):
    """The whole data pack. Build it with :func:`load_pack`, which also runs the cross-checks."""

    meta: PackMeta
    map: HexMap
    unit_types: tuple[UnitType, ...]
    blocks: tuple[Block, ...]
    scenarios: tuple[Scenario, ...]
    deck: Deck
    tables: Tables

    def place(self, place_id: str) -> Place:
        """The place ``place_id``; KeyError if there is none."""
        return by_id(self.map.places, place_id)

    def block(self, block_id: str) -> Block:
        """The block ``block_id``; KeyError if there is none."""
        return self._blocks[block_id]

    def unit_type(self, type_id: str) -> UnitType:
        """The unit type ``type_id``; KeyError if there is none."""
        return by_id(self.unit_types, type_id)

    def scenario(self, scenario_id: str) -> Scenario:
        """The scenario ``scenario_id``; KeyError if there is none."""
        return by_id(self.scenarios, scenario_id)

    def area(self, area_id: str) -> Area:
        """The area ``area_id``; KeyError if there is none."""
        return by_id(self.map.areas, area_id)

    def line(self, line_id: str) -> Line:
        """The line ``line_id``; KeyError if there is none."""
        return by_id(self.map.lines, line_id)

    def limit(self, limit_id: str) -> int:
        """The value of the limit row ``limit_id``; KeyError if there is none."""
        return self._limits[limit_id]

    def fire(self, firer: str, target: str) -> Fire | None:
        """The Fire Table cell; None where ``target`` may not be chosen (supported artillery, §9.3)."""
        for cell in self.tables.fire:
            if cell.firer == firer and cell.target == target:
                return cell.fire
        raise KeyError((firer, target))

    @cached_property
    def hex_map(self) -> hexes.HexMap:
        """The kit's hex map of this pack, built once per loaded pack: land hexes, and on each hexside its terrain
        (§1.4) and the kinds of road crossing it (§1.5) as features.

        Raises:
            DataPackError: R006 if a record does not fit the grid.
        """
        data = kit_map_data(self.map.grid, self._land, self._hexside_index, self._road_kinds, self.map.sources.hexsides)
        return hexes.HexMap.from_pack(data, game=GAME_ID)

    def hexside(self, a: str, b: str) -> HexsideTerrain | None:
        """The terrain between two land hexes: listed, else Clear; None if they are not adjacent land hexes."""
        # The grid's arithmetic, not hex_map: the cross-checks ask before the records are known to fit the map.
        if a not in self._land or b not in self._land or b not in self.map.grid.neighbours(a):
            return None
        return self._hexside_index.get(frozenset((a, b)), "clear")

    def road_links(self) -> dict[frozenset[str], RoadKind]:
        """The best road across each hexside a road crosses (highway over track over trail)."""
        return self._road_links

    def passable(self, a: str, b: str) -> bool:
        """Whether units and supply lines may cross from ``a`` to ``b`` (§1.4, §7.1)."""
        terrain = self.hexside(a, b)
        if terrain is None:
            return False
        # RULING: §1.4 opens rough hexsides at a Gap "and/or" a road, §7.1 opens Ridges and Marshes only at a Gap.
        # The pack records every passable ridge or marsh crossing as a gap (a road over a ridge must cross a gap,
        # a cross-check), so a road opens only Mountain hexsides.
        if terrain == "mountain":
            return frozenset((a, b)) in self.road_links()
        return terrain in ("clear", "gap")

    def land(self) -> frozenset[str]:
        """The ids of every land hex."""
        return self._land

    @cached_property
    def move_searches(self) -> dict[tuple[object, ...], frozenset[str]]:
        """Searches of where a move can still end (:func:`pbem.games.rommel.moves.finishes`, a Redeployment's reach),
        remembered for this loaded pack: listing Regroups asks the same ones for every candidate. Its users clear it
        at ``moves.SEARCHES_KEEP`` entries."""
        return {}

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

    @cached_property
    def _blocks(self) -> dict[str, Block]:
        return {block.id: block for block in self.blocks}

    @cached_property
    def _limits(self) -> dict[str, int]:
        """The limit rows by id (the rules read them tens of thousands of times in a replay). The first row of an
        id wins, as a search through the rows would find it."""
        found: dict[str, int] = {}
        for row in self.tables.limits:
            found.setdefault(row.id, row.value)
        return found

    def region(self, region: str) -> tuple[str, ...]:
        """The hexes of ``region`` (``"libya"`` or ``"egypt"``)."""
        return tuple(h.id for h in self.map.hexes if h.region == region)

    def road_path(self, start: str, end: str, kinds: Iterable[str]) -> tuple[str, ...] | None:
        """A shortest path from ``start`` to ``end`` crossing only hexsides carrying a road of ``kinds``."""
        allowed = frozenset(kinds)
        hex_map = self.hex_map
        if start not in hex_map or end not in hex_map:
            return None

        def expand(here: hexes.HexId, _spent: int) -> Iterable[tuple[hexes.HexId, int]]:
            return ((there, 1) for there, side in hex_map.sides(here) if side.has(*allowed))

        search = dijkstra([hexes.HexId(start)], expand, goal=lambda here: here == end)
        return search.path(hexes.HexId(end)) if end in search.cost else None


_ROAD_RANK = {"highway": 3, "track": 2, "trail": 1}
