"""The *Axis & Allies: North Africa* data pack: its schema, strict loading and cross-checks.

The pack holds everything the rules module must not hard-code (style guide §2.2): every territory and sea zone
with its adjacency, RP value, stacking limit, coast road, Sahara and white-line membership, convoy routes and
drawing geometry; both reference charts (every unit type of every power with cost, attack, defense, move and
abilities); the powers, their national basic RP and the seat table; both scenarios' setups, round events and
special rules; victory conditions; and the numbers the rulebook states in its text, one rule reference per row.

The rulebook has no numbered sections, so its **pages** serve as sections: ``rulebook §10`` is page 10 and a
``rule`` of ``"28"`` is page 28 (the pages of the book's table of contents). Every record carries ``sources``
naming, field by field, where the value came from: ``"rulebook §10 ..."``, ``"reconstructed: <reason>"`` for
what the text lacks (the map, the Axis chart, parts of the Allied chart, the setup charts, the national basic
RP), or ``"transcribed: <component>"`` in a user's transcription of the printed components.

Loading is fail-closed: :func:`load_pack` parses strictly, validates against :class:`AxisAlliesPack` and runs
the cross-checks; any defect raises :class:`~pbem.errors.DataPackError` with code R006 naming the record.

Example:
    >>> pack = load_pack(default_pack_bytes())
    >>> pack.territory("malta").rp, pack.territory("malta").stacking_limit
    (15, 3)
    >>> pack.graph().edge("tobruk", "mersa_matruh") is not None
    True
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import Annotated, Literal, NoReturn

from pydantic import Field, StringConstraints

from pbem.kit import datapack
from pbem.kit.datapack import PackMeta, PackModel, RuleRef, Slug, SourceText, Text, by_id
from pbem.kit.graph import EdgeRecord, LocationGraph, NodeRecord, components

__all__ = [
    "ABILITIES",
    "EDGE_TYPES",
    "GAME_ID",
    "POWER_IDS",
    "REQUIRED_LIMITS",
    "AxisAlliesPack",
    "Power",
    "Scenario",
    "SeaZone",
    "Territory",
    "UnitClass",
    "UnitType",
    "default_pack_bytes",
    "load_pack",
    "pack_schema",
]

GAME_ID = "axis-allies"

PowerId = Literal["germany", "united_kingdom", "italy", "united_states", "france"]
POWER_IDS: tuple[str, ...] = ("germany", "united_kingdom", "italy", "united_states", "france")
"""p.7: Germany, the United Kingdom, Italy and the United States take turns; France has none (p.29)."""
Side = Literal["axis", "allies"]
Point = tuple[int, int]
Color = Annotated[str, StringConstraints(pattern=r"^#[0-9a-f]{6}$")]

Ability = Literal[
    "supported_by_artillery",
    "supports_infantry",
    "blitz",
    "coast_road_movement",
    "self_sufficient",
    "targeted_fire_tanks",
    "air_defense",
    "cannot_attack",
    "no_defense_value",
    "noncombat_move_only",
    "hit_and_run",
    "long_range_patrol",
    "sahara_desert_movement",
    "supply_raider",
    "targeted_attack_air_units",
    "land_transport",
    "logistical_unit",
    "collateral_damage",
    "targeted_attack_combat_land_units",
    "targeted_attack_sea_units",
    "two_hits_to_destroy",
    "anti_submarine_vessel",
    "cannot_be_hit_by_air_units",
    "cannot_hit_air_units",
    "does_not_block_enemy_movement",
    "submersible",
    "surprise_strike",
    "treat_hostile_sea_zones_as_friendly",
    "free_french_requisition",
]
ABILITIES: tuple[str, ...] = Ability.__args__  # type: ignore[attr-defined]
"""The unit characteristics of the Unit Profiles (pp.30-34) and the reference charts, as identifiers."""

EdgeType = Literal["land", "coast", "sea", "strait", "convoy"]
EDGE_TYPES: tuple[str, ...] = EdgeType.__args__  # type: ignore[attr-defined]
"""land: two territories; coast: a territory and a sea zone; sea: two sea zones; strait: two sea zones only
Axis sea units may cross (Messina, p.11); convoy: a one-way step of the UK's convoy chain (p.11, p.12)."""

REQUIRED_LIMITS: frozenset[str] = frozenset(
    {
        "default_stacking_limit",
        "rp_min",
        "rp_max",
        "die_sides",
        "supply_per_attack_units",
        "coast_road_territories",
        "truck_capacity",
        "air_defense_shots_per_unit",
        "air_defense_hit",
        "land_mine_dice_per_icon",
        "land_mine_hit",
        "sea_mine_dice_per_token",
        "sea_mine_hit",
        "flanking_reroll_from",
        "convoy_air_landing_range",
        "escort_move_range",
        "transport_bays",
        "supply_per_bay",
        "malta_supply_per_turn",
        "battleship_repair_supply",
        "free_french_per_type",
        "land_mine_deploys_per_territory",
        "sea_mine_deploys_per_zone",
        "supply_token_small",
        "supply_token_large",
    }
)
"""Rows of ``limits`` the rules module relies on: a pack missing one does not load."""


# --- the map -------------------------------------------------------------------------------------------------


class Geometry(PackModel):
    """Drawing only: a label anchor and an outline on the pack's canvas (x right, y down; north up)."""

    position: Point
    polygon: tuple[Point, ...] = Field(min_length=3)


class DefensiveBonus(PackModel):
    """p.10: the Defensive Bonus text printed on Mareth and Tobruk (its effect is reconstructed)."""

    defense_modifier: int = Field(description="added to each defending land combat unit's defense value")
    attacks_from: tuple[Slug, ...] = Field(description="applies only against land attacks from these; empty: any")
    text: Text


class TerritorySources(PackModel):
    """Where each field of a :class:`Territory` came from."""

    name: SourceText
    rp: SourceText
    rp_upkeep_supply: SourceText
    stacking_limit: SourceText
    supply_limit: SourceText
    impassable: SourceText
    sahara: SourceText
    coast_road: SourceText
    mat: SourceText
    island: SourceText
    north_africa: SourceText
    permanent_owner: SourceText
    staging_for: SourceText
    capital_of: SourceText
    axis_direct_deploy: SourceText
    defensive_bonus: SourceText
    geometry: SourceText


class Territory(PackModel):
    """A land space (p.10)."""

    id: Slug
    name: Text
    label: Text = Field(description="the short text drawn on the map")
    rp: int | None = Field(description="p.10: Reinforcement Points per turn for its controller; null: none")
    rp_upkeep_supply: int | None = Field(
        description="p.13: supply tokens (value 1) its controller must spend from it at the start of phase 2 to "
        "collect its RP (Malta: 1); null: none"
    )
    stacking_limit: int = Field(description="p.10: combat land and air units of the occupying side")
    supply_limit: int | None = Field(description="p.12: supply tokens that may land here (Malta's 'SL: 3')")
    impassable: bool = Field(description="p.10: no unit may enter (hash marks)")
    sahara: bool = Field(description="p.11: beige Sahara Desert territory, scout cars only")
    coast_road: bool = Field(description="p.11: the red coast road runs through it")
    mat: bool = Field(description="p.10: Morocco, Algeria or Tunisia, west of the white line")
    island: bool = Field(description="p.11: surrounded by sea zones only (Gibraltar counts)")
    north_africa: bool = Field(description="p.6: a territory in North Africa, for the elimination victory")
    permanent_owner: PowerId | None = Field(description="p.10: a printed emblem; enemy land units may not invade")
    staging_for: tuple[PowerId, ...] = Field(description="p.10: the powers whose staging territory it is")
    capital_of: Side | None = Field(description="p.6: a regional capital; capturing it wins at once")
    axis_direct_deploy: bool = Field(description="p.25: Axis AAA, air units and German AT guns may deploy here")
    defensive_bonus: DefensiveBonus | None
    geometry: Geometry
    sources: TerritorySources


class Convoy(PackModel):
    """p.11: a convoy route printed in a sea zone."""

    route: Text = Field(description="the route's printed name")
    port: Slug | None = Field(description="the territory its cargo lands in; null for the Atlantic/Indian legs")
    powers: tuple[PowerId, ...] = Field(min_length=1, description="the emblems printed (ghosted or permanent)")
    permanent: bool = Field(description="a permanent emblem: always open to its power")
    sea_units_to: Slug | None = Field(description="p.12: where sea units in it advance in phase 1 (Suez: 31)")


class SeaZoneSources(PackModel):
    """Where each field of a :class:`SeaZone` came from."""

    name: SourceText
    number: SourceText
    convoy: SourceText
    deployment_for: SourceText
    naval_base: SourceText
    repair_supply_from: SourceText
    axis_mines_forbidden: SourceText
    entry_only_from: SourceText
    entry_powers: SourceText
    direct_deploy: SourceText
    land_deploy_types: SourceText
    geometry: SourceText


class SeaZone(PackModel):
    """A sea space (p.10-11)."""

    id: Slug
    number: int | None = Field(description="the printed number; null for the named off-map convoy zones")
    name: Text
    label: Text
    convoy: Convoy | None
    deployment_for: tuple[PowerId, ...] = Field(description="p.10, p.25: sea unit deployment zone of these powers")
    naval_base: bool = Field(description="p.13: the UK naval base (battleship repair)")
    repair_supply_from: Slug | None = Field(
        description="p.13: the territory whose supply pays for repairs at this naval base (Cairo); null: no base"
    )
    axis_mines_forbidden: bool = Field(description="p.14: Axis powers may not deploy sea mines here")
    entry_only_from: tuple[Slug, ...] = Field(description="p.10: units may enter only from these zones")
    entry_powers: tuple[PowerId, ...] = Field(description="p.10: only these powers' units may enter; empty: all")
    direct_deploy: bool = Field(description="p.25: reinforcements may be deployed straight into it in phase 6")
    land_deploy_types: tuple[Slug, ...] | None = Field(
        description="p.25: the only land unit types that may be deployed to it (Malta: AAA); null: any"
    )
    geometry: Geometry
    sources: SeaZoneSources


class Decoration(PackModel):
    """Drawing only: land that is not a space (Spain, France, Turkey, ...), drawn under the spaces."""

    name: Text
    polygon: tuple[Point, ...] = Field(min_length=3)


# --- units ---------------------------------------------------------------------------------------------------


class AbilityRow(PackModel):
    """One unit characteristic of a unit type, citing the page that defines it."""

    id: Ability
    rule: RuleRef


class UnitSources(PackModel):
    """Where each field of a :class:`UnitType` came from."""

    name: SourceText
    cost: SourceText
    attack: SourceText
    defense: SourceText
    move: SourceText
    abilities: SourceText
    pieces: SourceText


class UnitType(PackModel):
    """A row of a reference chart: one unit type of one power (p.6: values differ between powers)."""

    id: Slug = Field(description="'<power>-<type>', e.g. 'germany-tank': names the row in messages")
    power: PowerId
    type: Slug
    name: Text = Field(description="the piece (Game Piece Directory, pp.36-37)")
    category: Literal["land", "air", "sea"]
    combat: bool = Field(description="p.30: every unit but the truck is a combat unit")
    cost: int | None = Field(description="RP to requisition; null: printed '-', never requisitioned")
    attack: int | None = Field(description="hits on a d10 roll at or under it; null: printed '-'")
    defense: int | None
    move: int
    abilities: tuple[AbilityRow, ...]
    pieces: int = Field(description="pp.4-5: the pieces in the box, spares not counted")
    spares: int = Field(description="p.5: the spare-bag pieces, not used in the scenarios")
    optional_rule: RuleRef | None = Field(description="the optional rule that brings it in, else null")
    sources: UnitSources

    def has(self, ability: str) -> bool:
        """Whether this unit type has the characteristic ``ability``."""
        return any(row.id == ability for row in self.abilities)


class Token(PackModel):
    """Supply and mine tokens: requisition cost, value and the number in the box (p.4, chart p.8)."""

    id: Slug
    cost: int
    value: int
    pieces: dict[Slug, int] = Field(description="pieces per pool: 'all', or 'axis'/'allies' for sea mines")
    rule: RuleRef
    text: Text
    source: SourceText


class UnitClass(PackModel):
    """A class of unit types a rule names as a whole, e.g. p.30's "tanks" that anti-tank guns aim at."""

    id: Slug
    types: tuple[Slug, ...] = Field(min_length=1)
    rule: RuleRef
    source: SourceText


# --- powers and seats ------------------------------------------------------------------------------------------


class PowerSources(PackModel):
    """Where each field of a :class:`Power` came from."""

    name: SourceText
    side: SourceText
    turn_order: SourceText
    color: SourceText
    staging: SourceText
    nbrp: SourceText
    supply_per_turn: SourceText
    control_markers: SourceText


class Power(PackModel):
    """A power (p.7). France has no turn: its units are Vichy (Axis) or Free French (Allied), p.29."""

    id: PowerId
    name: Text
    side: Side | None = Field(description="null for France, whose side follows its units' allegiance")
    turn_order: int | None = Field(description="p.12: 1 Germany, 2 UK, 3 Italy, 4 US; null: no turn")
    color: Color
    staging: Slug | None = Field(description="p.10: staging territory")
    nbrp: int | None = Field(description="p.13: National Basic Reinforcement Points (board, upper right)")
    supply_per_turn: int | None = Field(description="p.13: supply tokens it may requisition per turn")
    control_markers: int
    sources: PowerSources


class Allegiance(PackModel):
    """p.29: French units are Vichy (Axis, run by Germany's player) until they surrender, then Free French."""

    id: Literal["vichy", "free"]
    side: Side
    operated_by: PowerId
    can_move: bool
    can_attack: bool
    can_retreat: bool
    requisition_from_pool: bool
    surrenders_on_zero_hits: bool = Field(
        description="attacked by an Allied power with no other Axis defender, survivors of a round without a hit "
        "surrender at the end of step 4 and take the other allegiance"
    )
    rule: RuleRef
    text: Text


class ImmediateDeployment(PackModel):
    """p.13: units placed on the board the moment they are requisitioned, able to move and attack that turn."""

    id: Slug
    power: PowerId
    units: tuple[Slug, ...] = Field(min_length=1)
    space: Slug
    allegiance: Literal["vichy", "free"] | None = Field(description="for French units: the allegiance they take")
    requires_side_control: Side | None = Field(description="the space must be controlled by this side")
    per_type_per_turn: int | None = Field(description="at most this many of each type per turn; null: no limit")
    rule: RuleRef
    text: Text


class Cargo(PackModel):
    """p.32, p.38: which land unit types ride a truck (*Land Transport*) or, with the optional Air Transport
    rule, an Axis bomber; the text names them, so the rules module must not."""

    truck: tuple[Slug, ...] = Field(min_length=1, description="p.32: infantry, artillery, anti-tank guns and AAA")
    air_transport: tuple[Slug, ...] = Field(description="p.38 optional: the types an Axis bomber in Italy may carry")
    rule: RuleRef
    source: SourceText


class Seat(PackModel):
    """One player's seat: the powers it controls, all on one side (p.7)."""

    id: Slug
    powers: tuple[PowerId, ...] = Field(min_length=1)


class Seating(PackModel):
    """p.7: how the powers are split between 2, 3 or 4 players."""

    players: int
    seats: tuple[Seat, ...]
    rule: RuleRef


# --- scenarios -------------------------------------------------------------------------------------------------


class Placement(PackModel):
    """Pieces of one power in one space."""

    space: Slug
    power: PowerId
    units: dict[Slug, int]
    supply: int = 0
    attack_arrows: int = Field(default=0, description="p.28: arrows of a pre-declared attack, from the pool")
    source: SourceText


class ControlRow(PackModel):
    """A national control marker on an RP territory (p.10)."""

    territory: Slug
    power: PowerId
    source: SourceText


class ConvoyMarkers(PackModel):
    """National control markers in a convoy zone: the route is open to these powers (p.11)."""

    zone: Slug
    powers: tuple[PowerId, ...] = Field(min_length=1)
    source: SourceText


class LandMine(PackModel):
    """Land mine tokens on the border of ``territory`` facing ``facing`` (p.14): each token 1 or 2 icons."""

    territory: Slug
    facing: Slug
    tokens: tuple[int, ...] = Field(min_length=1)
    source: SourceText


class SeaMine(PackModel):
    """A sea mine token of ``power`` in ``zone`` (p.14)."""

    zone: Slug
    power: PowerId
    source: SourceText


class VariableReinforcement(PackModel):
    """p.9: the UK places combat units (not trucks) worth at most ``rp`` in this sea zone at setup."""

    zone: Slug
    power: PowerId
    rp: int
    source: SourceText


class PoolChange(PackModel):
    """Pieces set aside at setup (negative) or added to a pool in an event (p.9, p.28)."""

    power: PowerId
    unit: Slug
    count: int
    source: SourceText


class Setup(PackModel):
    """A scenario's Setup Charts: what is on the board, and set aside, before the first turn (pp.8-9)."""

    control: tuple[ControlRow, ...]
    convoy_markers: tuple[ConvoyMarkers, ...]
    placements: tuple[Placement, ...]
    land_mines: tuple[LandMine, ...]
    sea_mines: tuple[SeaMine, ...]
    variable_reinforcements: tuple[VariableReinforcement, ...]
    pool_changes: tuple[PoolChange, ...]


class RoundEvent(PackModel):
    """A scheduled event: at the start of a round (before the first turn), or in a power's phase 6."""

    id: Slug
    round: int
    timing: Literal["round_start", "phase_6"]
    power: PowerId | None = Field(description="for phase_6: whose phase 6")
    control: tuple[ControlRow, ...] = ()
    convoy_markers: tuple[ConvoyMarkers, ...] = ()
    placements: tuple[Placement, ...] = ()
    pool_changes: tuple[PoolChange, ...] = ()
    rule: RuleRef
    text: Text


class SkippedTurns(PackModel):
    """Rounds in which ``power`` has no turn (p.6, p.28)."""

    power: PowerId
    rounds: tuple[int, ...] = Field(min_length=1)
    rule: RuleRef
    text: Text


class MatEntry(PackModel):
    """p.28: from which round a side's units may enter territories west of the white line (``mat``)."""

    side: Side
    from_round: int
    rule: RuleRef
    text: Text


class Landing(PackModel):
    """p.28: a pre-declared Operation Torch amphibious attack, fought on the US turn of round 7."""

    territory: Slug
    attackers: tuple[PowerId, ...] = Field(min_length=1)
    controller_if_won: PowerId
    convoy_zone: Slug
    convoy_powers_if_won: tuple[PowerId, ...]
    rule: RuleRef


class Torch(PackModel):
    """p.28: the round-7 Operation Torch landings."""

    round: int
    resolved_in_turn_of: PowerId
    landings: tuple[Landing, ...]
    pre_declared: bool = Field(description="no supply is spent to declare them")
    must_press_with_all_units: bool
    no_attacks_on_adjacent_territories: bool = Field(description="amphibious attackers may not attack out")
    inactive_in_own_turn: tuple[PowerId, ...] = Field(description="powers whose landing units can't act on their turn")
    rule: RuleRef
    sources: dict[Slug, SourceText]


class RoundRule(PackModel):
    """A special rule in force in some rounds (p.28)."""

    id: Slug
    kind: Literal["no_requisition", "deploy_only_to", "must_deploy_to"]
    power: PowerId
    rounds: tuple[int, ...] = Field(min_length=1)
    categories: tuple[Literal["land", "air", "sea", "supply"], ...] = ()
    zones: tuple[Slug, ...] = ()
    if_controls: Slug | None = None
    optional_rule_lifts: RuleRef | None = Field(default=None, description="an optional rule that cancels it")
    rule: RuleRef
    text: Text


class VictoryLevel(PackModel):
    """p.6: a side reaches ``level`` at the end of round 14 if it controls all of ``all_of`` and, when
    ``any_of`` is not empty, at least one of ``any_of``."""

    side: Side
    level: Literal["total", "major", "minor"]
    all_of: tuple[Slug, ...]
    any_of: tuple[Slug, ...]
    rule: RuleRef


class InstantVictory(PackModel):
    """p.6: Instant Total Victory: capture ``capture``, or eliminate every enemy combat unit in territories
    flagged ``north_africa``."""

    side: Side
    capture: Slug
    rule: RuleRef


class Victory(PackModel):
    """p.6: the victory chart of a scenario."""

    instant: tuple[InstantVictory, ...]
    levels: tuple[VictoryLevel, ...]
    draw_if_both_minor: bool
    rule: RuleRef


class Scenario(PackModel):
    """One of the two scenarios (p.6, pp.28-29): rounds, setup, events and special rules."""

    id: Slug
    name: Text
    date: Text
    start_round: int
    end_round: int
    skipped_turns: tuple[SkippedTurns, ...]
    mat_entry: tuple[MatEntry, ...]
    setup: Setup
    events: tuple[RoundEvent, ...]
    torch: Torch
    round_rules: tuple[RoundRule, ...]
    strategic_supply_reserve: dict[Side, int] = Field(description="p.39 optional rule: supply in staging territories")
    victory: Victory
    rule: RuleRef


# --- tables --------------------------------------------------------------------------------------------------


class LimitRow(PackModel):
    """A single number of the rules."""

    id: Slug
    value: int
    rule: RuleRef
    text: Text


class OptionalRule(PackModel):
    """pp.38-39: an optional rule, with its numbers."""

    id: Slug
    side: Side | None
    values: dict[Slug, int]
    rule: RuleRef
    text: Text


class Canvas(PackModel):
    """The drawing space of every ``geometry`` and ``decorations`` point."""

    width: int
    height: int


class AxisAlliesPack(PackModel):
    """The whole data pack. Build it with :func:`load_pack`, which also runs the cross-checks."""

    meta: PackMeta
    canvas: Canvas
    decorations: tuple[Decoration, ...]
    territories: tuple[Territory, ...]
    sea_zones: tuple[SeaZone, ...]
    edges: tuple[EdgeRecord, ...]
    powers: tuple[Power, ...]
    allegiances: tuple[Allegiance, ...]
    seating: tuple[Seating, ...]
    units: tuple[UnitType, ...]
    tokens: tuple[Token, ...]
    immediate_deployments: tuple[ImmediateDeployment, ...]
    cargo: Cargo
    unit_classes: tuple[UnitClass, ...] = Field(description="classes of unit types rules name (p.30: tanks)")
    scenarios: tuple[Scenario, ...]
    limits: tuple[LimitRow, ...]
    optional_rules: tuple[OptionalRule, ...]

    @cached_property
    def _spaces(self) -> dict[str, Territory | SeaZone]:
        """The spaces by id (the rules look them up hundreds of thousands of times a game)."""
        spaces: dict[str, Territory | SeaZone] = {row.id: row for row in self.territories}
        spaces.update({row.id: row for row in self.sea_zones})
        return spaces

    @cached_property
    def _units(self) -> dict[tuple[str, str], UnitType]:
        """The chart rows by (power, type), the first row of a pair winning."""
        return {(row.power, row.type): row for row in reversed(self.units)}

    def territory(self, ident: str) -> Territory:
        """The territory ``ident``; KeyError if there is none."""
        row = self._spaces.get(ident)
        if not isinstance(row, Territory):
            raise KeyError(ident)
        return row

    def sea_zone(self, ident: str) -> SeaZone:
        """The sea zone ``ident``; KeyError if there is none."""
        row = self._spaces.get(ident)
        if not isinstance(row, SeaZone):
            raise KeyError(ident)
        return row

    def power(self, ident: str) -> Power:
        """The power ``ident``; KeyError if there is none."""
        return by_id(self.powers, ident)

    def unit(self, power: str, type_: str) -> UnitType:
        """The chart row of ``power``'s ``type_``; KeyError if the power has no such unit."""
        row = self._units.get((power, type_))
        if row is None:
            raise KeyError(f"{power}/{type_}")
        return row

    def scenario(self, ident: str) -> Scenario:
        """The scenario ``ident``; KeyError if there is none."""
        return by_id(self.scenarios, ident)

    def unit_class(self, ident: str) -> frozenset[str]:
        """The unit types of class ``ident`` (``"tanks"``); KeyError if there is none."""
        return frozenset(by_id(self.unit_classes, ident).types)

    def limit(self, ident: str) -> int:
        """The value of ``limits`` row ``ident``; KeyError if there is none."""
        for row in self.limits:
            if row.id == ident:
                return row.value
        raise KeyError(ident)

    def seats(self, players: int) -> tuple[Seat, ...]:
        """The seat table for ``players`` players (p.7); KeyError for another number."""
        for row in self.seating:
            if row.players == players:
                return row.seats
        raise KeyError(players)

    def graph(self) -> LocationGraph:
        """The map as a kit :class:`~pbem.kit.graph.LocationGraph`: territories are ``land`` nodes and sea zones
        ``sea`` nodes, with the flags as tags and ``rp`` / ``stacking`` as values. Build it once per pack."""
        nodes = [_territory_node(row) for row in self.territories] + [_sea_node(row) for row in self.sea_zones]
        return LocationGraph.from_pack(nodes, self.edges, game=GAME_ID)


def _territory_node(row: Territory) -> NodeRecord:
    flags = ("impassable", "sahara", "coast_road", "mat", "island", "north_africa", "axis_direct_deploy")
    tags = tuple(flag for flag in flags if getattr(row, flag))
    values = {"stacking": row.stacking_limit} | ({"rp": row.rp} if row.rp is not None else {})
    return NodeRecord(id=row.id, kind="land", name=row.name, tags=tags, values=values)


def _sea_node(row: SeaZone) -> NodeRecord:
    tags = tuple(t for t, on in (("convoy", row.convoy is not None), ("naval_base", row.naval_base)) if on)
    return NodeRecord(id=row.id, kind="sea", name=row.name, tags=tags)


# --- loading -------------------------------------------------------------------------------------------------


def _fail(message: str) -> NoReturn:
    datapack.fail(GAME_ID, message)


# --- cross-checks --------------------------------------------------------------------------------------------


def _cross_check(pack: AxisAlliesPack) -> None:
    """What the schema cannot say. Steps run in order; the first failure raises R006."""
    if pack.meta.game != GAME_ID:
        _fail(f"meta.game is {pack.meta.game!r}, expected {GAME_ID!r}")
    _check_limits(pack)
    _check_powers(pack)
    _check_territories(pack)
    _check_sea_zones(pack)
    _check_edges(pack)
    _check_map_shape(pack)
    _check_units(pack)
    _check_scenarios(pack)


def _unique(ids: Iterable[str], what: str) -> None:
    datapack.require_unique(GAME_ID, ids, what)


def _check_limits(pack: AxisAlliesPack) -> None:
    _unique((row.id for row in pack.limits), "limits row")
    missing = sorted(REQUIRED_LIMITS - {row.id for row in pack.limits})
    if missing:
        _fail(f"limits lacks the row(s) {', '.join(missing)}")
    _unique((row.id for row in pack.optional_rules), "optional_rules row")
    _unique((row.id for row in pack.tokens), "token")


def _check_powers(pack: AxisAlliesPack) -> None:
    _unique((p.id for p in pack.powers), "power")
    if {p.id for p in pack.powers} != set(POWER_IDS):
        _fail(f"powers must be exactly {', '.join(POWER_IDS)} (p.7, p.29)")
    spaces = {t.id for t in pack.territories}
    orders = sorted(p.turn_order for p in pack.powers if p.turn_order is not None)
    if orders != list(range(1, len(orders) + 1)):
        _fail(f"power turn_order values {orders} are not 1, 2, 3, ...")
    for p in pack.powers:
        name = f"power {p.id!r}"
        has_turn = p.turn_order is not None
        if (
            has_turn != (p.side is not None)
            or has_turn != (p.nbrp is not None)
            or has_turn != (p.supply_per_turn is not None)
        ):
            _fail(f"{name}: a power with a turn has a side, nbrp and supply_per_turn; one without has none")
        if p.staging is not None and p.staging not in spaces:
            _fail(f"{name}: field 'staging' names the unknown territory {p.staging!r}")
        if p.nbrp is not None and p.nbrp < 0:
            _fail(f"{name}: field 'nbrp' is negative")
    if {a.id for a in pack.allegiances} != {"vichy", "free"} or len(pack.allegiances) != 2:
        _fail("allegiances must be exactly 'vichy' and 'free' (p.29)")
    for a in pack.allegiances:
        operator = pack.power(a.operated_by)
        if operator.side != a.side:
            _fail(f"allegiance {a.id!r}: operated_by {a.operated_by!r} is not on side {a.side!r}")
    _check_seating(pack)


def _check_seating(pack: AxisAlliesPack) -> None:
    turn_powers = {p.id for p in pack.powers if p.turn_order is not None}
    if sorted(row.players for row in pack.seating) != [2, 3, 4]:
        _fail("seating must have one row each for 2, 3 and 4 players (p.7)")
    for row in pack.seating:
        where = f"seating for {row.players} players"
        if len(row.seats) != row.players:
            _fail(f"{where}: {len(row.seats)} seats")
        _unique((seat.id for seat in row.seats), f"{where} seat")
        listed = [p for seat in row.seats for p in seat.powers]
        if sorted(listed) != sorted(turn_powers):
            _fail(f"{where}: the seats must hold each power with a turn exactly once")
        for seat in row.seats:
            sides = {pack.power(p).side for p in seat.powers}
            if len(sides) != 1:
                _fail(f"{where}: seat {seat.id!r} mixes sides (p.7: a player's powers are on one side)")


def _geometry_inside(pack: AxisAlliesPack, name: str, geometry: Geometry) -> None:
    for field, points in (("position", (geometry.position,)), ("polygon", geometry.polygon)):
        for x, y in points:
            if not (0 <= x <= pack.canvas.width and 0 <= y <= pack.canvas.height):
                _fail(f"{name}: geometry {field} has the point ({x}, {y}) outside the canvas")


def _check_territories(pack: AxisAlliesPack) -> None:
    _unique([t.id for t in pack.territories] + [z.id for z in pack.sea_zones], "space")
    low, high = pack.limit("rp_min"), pack.limit("rp_max")
    for t in pack.territories:
        name = f"territory {t.id!r}"
        if t.rp is not None and not low <= t.rp <= high:
            _fail(f"{name}: field 'rp' is {t.rp}, outside {low}..{high} (p.10)")
        if t.stacking_limit < 1 or (t.supply_limit is not None and t.supply_limit < 1):
            _fail(f"{name}: stacking and supply limits must be at least 1")
        if t.impassable and (t.rp is not None or t.sahara or t.permanent_owner is not None or t.staging_for):
            _fail(f"{name}: an impassable territory has no RP, owner, staging role or Sahara flag")
        if t.sahara and t.rp is not None:
            _fail(f"{name}: a Sahara territory has no RP value")
        # RULING: "territories in North Africa" (p.6) are the African mainland: islands never count.
        if t.island and t.north_africa:
            _fail(f"{name}: an island is not a territory in North Africa (ruling: African mainland only)")
        for power in t.staging_for:
            if pack.power(power).staging != t.id:
                _fail(f"{name}: field 'staging_for' lists {power!r}, whose staging territory is elsewhere")
        if t.staging_for and t.permanent_owner is None:
            _fail(f"{name}: a staging territory carries a power's emblem (p.10)")
        if t.rp_upkeep_supply is not None and (t.rp is None or t.rp_upkeep_supply < 1):
            _fail(f"{name}: field 'rp_upkeep_supply' needs an RP value and at least 1 token (p.13)")
        if t.defensive_bonus is not None:
            for ident in t.defensive_bonus.attacks_from:
                if ident not in {x.id for x in pack.territories}:
                    _fail(f"{name}: defensive_bonus.attacks_from names the unknown territory {ident!r}")
        _geometry_inside(pack, name, t.geometry)
    for p in pack.powers:
        if p.staging is not None and p.id not in pack.territory(p.staging).staging_for:
            _fail(f"power {p.id!r}: its staging territory {p.staging!r} does not list it in staging_for")
    capitals = sorted((t.capital_of, t.id) for t in pack.territories if t.capital_of is not None)
    if [side for side, _ in capitals] != ["allies", "axis"]:
        _fail("there must be exactly one regional capital per side (p.6)")


def _check_sea_zones(pack: AxisAlliesPack) -> None:
    territories = {t.id: t for t in pack.territories}
    zones = {z.id for z in pack.sea_zones}
    numbers = [z.number for z in pack.sea_zones if z.number is not None]
    _unique((str(n) for n in numbers), "sea zone number")
    for z in pack.sea_zones:
        name = f"sea zone {z.id!r}"
        for ident in z.entry_only_from:
            if ident not in zones:
                _fail(f"{name}: field 'entry_only_from' names the unknown sea zone {ident!r}")
        if z.naval_base != (z.repair_supply_from is not None):
            _fail(f"{name}: a naval base names the territory that pays for repairs, and only a naval base does")
        if z.repair_supply_from is not None and z.repair_supply_from not in territories:
            _fail(f"{name}: field 'repair_supply_from' names the unknown territory {z.repair_supply_from!r}")
        if z.convoy is not None:
            c = z.convoy
            if c.port is not None and c.port not in territories:
                _fail(f"{name}: convoy.port names the unknown territory {c.port!r}")
            if c.port is not None and territories[c.port].rp is None and not c.permanent:
                _fail(f"{name}: a ghosted route's port must be an RP territory, which can be captured (p.11)")
            if c.sea_units_to is not None and c.sea_units_to not in zones:
                _fail(f"{name}: convoy.sea_units_to names the unknown sea zone {c.sea_units_to!r}")
            if c.permanent != (len(c.powers) == 1):
                _fail(f"{name}: a permanent route shows one emblem, a ghosted route two (p.11)")
            sides = {pack.power(p).side for p in c.powers}
            if len(sides) != 1:
                _fail(f"{name}: convoy powers must be on one side")
        _geometry_inside(pack, name, z.geometry)
    for p in pack.powers:
        if p.turn_order is not None and not any(p.id in z.deployment_for for z in pack.sea_zones):
            owns_sea = any(u.power == p.id and u.category == "sea" for u in pack.units)
            if owns_sea:
                _fail(f"power {p.id!r} has sea units but no sea unit deployment zone (p.25)")


def _check_edges(pack: AxisAlliesPack) -> None:
    kinds = {t.id: "land" for t in pack.territories} | {z.id: "sea" for z in pack.sea_zones}
    pack.graph()  # R006 for unknown ends, self-loops and two edges between the same spaces
    for i, edge in enumerate(pack.edges):
        name = f"edges[{i}] ({edge.a}-{edge.b})"
        if edge.type not in EDGE_TYPES:
            _fail(f"{name}: field 'type' is {edge.type!r}, not one of {', '.join(EDGE_TYPES)}")
        ends = (kinds[edge.a], kinds[edge.b])
        wanted = {
            "land": ("land", "land"),
            "sea": ("sea", "sea"),
            "strait": ("sea", "sea"),
        }.get(edge.type)
        if wanted is not None and ends != wanted:
            _fail(f"{name}: a {edge.type!r} edge joins {wanted[0]} to {wanted[1]}")
        if edge.type == "coast" and sorted(ends) != ["land", "sea"]:
            _fail(f"{name}: a 'coast' edge joins a territory to a sea zone")
        if edge.directed != (edge.type == "convoy"):
            _fail(f"{name}: exactly the 'convoy' edges are directed")
        if edge.source is None:
            _fail(f"{name}: field 'source' is required")


def _check_map_shape(pack: AxisAlliesPack) -> None:
    graph = pack.graph()
    passable = {t.id for t in pack.territories if not t.impassable}
    african = [t.id for t in pack.territories if t.north_africa and not t.impassable]
    parts = components(graph, enter=lambda n: n in african)
    if len(parts) != 1:
        cut = sorted(set(african) - set(parts[0])) if parts else african
        _fail(f"the African mainland is not connected by land: {cut} cannot be reached")
    for t in pack.territories:
        if t.island and any(graph.kind(n) == "land" for n in graph.neighbours(t.id)):
            _fail(f"territory {t.id!r}: an island borders no territory (p.11)")
        if t.id in passable and not graph.neighbours(t.id):
            _fail(f"territory {t.id!r} borders nothing")
    seas = [z.id for z in pack.sea_zones if not z.entry_only_from and not z.entry_powers]
    parts = components(graph, enter=lambda n: n in seas)
    if len(parts) != 1:
        _fail(f"the open sea zones are not connected: {sorted(parts[-1])} are cut off")
    for z in pack.sea_zones:
        c = z.convoy
        if c is None or c.port is None:
            continue
        if graph.edge(z.id, c.port) is None:
            _fail(f"sea zone {z.id!r}: its convoy port {c.port!r} does not border it")
        if c.sea_units_to is not None and graph.edge(z.id, c.sea_units_to) is None:
            _fail(f"sea zone {z.id!r}: convoy.sea_units_to {c.sea_units_to!r} does not border it")
    for z in pack.sea_zones:
        for ident in z.entry_only_from:
            if graph.edge(ident, z.id) is None:
                _fail(f"sea zone {z.id!r}: entry_only_from {ident!r} has no edge into it")
            for edge in graph.edges_into(z.id):
                if edge.a not in z.entry_only_from:
                    _fail(f"sea zone {z.id!r}: it may be entered only from {z.entry_only_from}, not {edge.a!r}")


def _check_units(pack: AxisAlliesPack) -> None:
    _unique((u.id for u in pack.units), "unit type")
    for u in pack.units:
        name = f"unit {u.id!r}"
        if u.id != f"{u.power}-{u.type}":
            _fail(f"{name}: field 'id' must be '{u.power}-{u.type}'")
        _unique((a.id for a in u.abilities), f"{name} ability")
        for field in ("cost", "attack", "defense"):
            value = getattr(u, field)
            if value is not None and not 0 <= value <= pack.limit("die_sides") * (3 if field == "cost" else 1):
                _fail(f"{name}: field {field!r} is {value}, out of range")
        if u.move < 0 or u.pieces < 0 or u.spares < 0:
            _fail(f"{name}: move, pieces and spares are not negative")
        if u.combat == u.has("logistical_unit"):
            _fail(f"{name}: a unit is a combat unit exactly when it is not a logistical unit (p.30, p.32)")
        if (u.has("no_defense_value") or not u.combat) != (u.defense is None):
            _fail(f"{name}: defense is '-' exactly for units with no_defense_value and for trucks (p.31, p.32)")
        for ability in ("supported_by_artillery", "blitz", "air_defense", "targeted_fire_tanks", "land_transport"):
            if u.has(ability) and u.category != "land":
                _fail(f"{name}: {ability} belongs to land units")
        if u.has("two_hits_to_destroy") and u.category != "sea":
            _fail(f"{name}: two_hits_to_destroy belongs to sea units")
    for p in pack.powers:
        if not any(u.power == p.id for u in pack.units):
            _fail(f"power {p.id!r} has no unit types")
    spaces = {t.id for t in pack.territories} | {z.id for z in pack.sea_zones}
    _unique((row.id for row in pack.immediate_deployments), "immediate_deployments row")
    for row in pack.immediate_deployments:
        where = f"immediate_deployments row {row.id!r}"
        if row.space not in spaces:
            _fail(f"{where}: names the unknown space {row.space!r}")
        for type_ in row.units:
            if not any(u.power == row.power and u.type == type_ for u in pack.units):
                _fail(f"{where}: {row.power!r} has no unit type {type_!r}")
    for field_name in ("truck", "air_transport"):
        for type_ in getattr(pack.cargo, field_name):
            if not any(u.type == type_ and u.category == "land" and u.combat for u in pack.units):
                _fail(f"cargo.{field_name} names {type_!r}, which is no combat land unit type")
    for z in pack.sea_zones:
        for type_ in z.land_deploy_types or ():
            if not any(u.type == type_ and u.category == "land" for u in pack.units):
                _fail(f"sea zone {z.id!r}: land_deploy_types names {type_!r}, which is no land unit type")


def _check_placement(pack: AxisAlliesPack, where: str, row: Placement, kinds: dict[str, str]) -> None:
    if row.space not in kinds:
        _fail(f"{where}: names the unknown space {row.space!r}")
    for unit, count in row.units.items():
        try:
            chart = pack.unit(row.power, unit)
        except KeyError:
            _fail(f"{where}: {row.power!r} has no unit type {unit!r}")
        if count < 1:
            _fail(f"{where}: count of {unit!r} must be at least 1")
        if kinds[row.space] == "sea" and chart.category == "land":
            zone = pack.sea_zone(row.space)
            if zone.convoy is None:
                _fail(f"{where}: land units at sea only ride convoys (p.10)")
        if kinds[row.space] == "land" and chart.category == "sea":
            _fail(f"{where}: sea units may not be in a territory (p.10)")
    if kinds[row.space] == "land" and pack.territory(row.space).impassable:
        _fail(f"{where}: nothing may stand in an impassable territory")
    if row.supply < 0 or row.attack_arrows < 0:
        _fail(f"{where}: supply and attack arrows are not negative")


def _check_scenarios(pack: AxisAlliesPack) -> None:
    _unique((s.id for s in pack.scenarios), "scenario")
    kinds = {t.id: "land" for t in pack.territories} | {z.id: "sea" for z in pack.sea_zones}
    for s in pack.scenarios:
        name = f"scenario {s.id!r}"
        if not 1 <= s.start_round <= s.end_round:
            _fail(f"{name}: start_round {s.start_round} must lie in 1..end_round {s.end_round}")
        _check_setup(pack, s, kinds)
        for event in s.events:
            where = f"{name} event {event.id!r}"
            if not s.start_round <= event.round <= s.end_round:
                _fail(f"{where}: round {event.round} is outside the scenario")
            if (event.timing == "phase_6") != (event.power is not None):
                _fail(f"{where}: a phase_6 event names a power; a round_start event does not")
            for i, row in enumerate(event.placements):
                _check_placement(pack, f"{where} placements[{i}]", row, kinds)
            _check_control(pack, where, event.control, event.convoy_markers)
        _unique((e.id for e in s.events), f"{name} event")
        for skip in s.skipped_turns:
            if pack.power(skip.power).turn_order is None:
                _fail(f"{name}: skipped_turns names {skip.power!r}, which has no turn")
        for landing in s.torch.landings:
            where = f"{name} torch landing {landing.territory!r}"
            if landing.territory not in kinds or kinds[landing.territory] != "land":
                _fail(f"{where}: not a territory")
            zone = pack.sea_zone(landing.convoy_zone)
            if zone.convoy is None or zone.convoy.port != landing.territory:
                _fail(f"{where}: convoy_zone {landing.convoy_zone!r} is not that port's convoy zone")
        for rule in s.round_rules:
            for ident in (*rule.zones, *((rule.if_controls,) if rule.if_controls else ())):
                if ident not in kinds:
                    _fail(f"{name} round rule {rule.id!r}: names the unknown space {ident!r}")
        for level in s.victory.levels:
            for ident in (*level.all_of, *level.any_of):
                if ident not in kinds or pack.territory(ident).rp is None:
                    _fail(f"{name} victory: {ident!r} is not a territory that can be controlled (p.10)")
        for instant in s.victory.instant:
            if pack.territory(instant.capture).capital_of == instant.side:
                _fail(f"{name} victory: {instant.side} cannot win by capturing its own capital")


def _check_control(
    pack: AxisAlliesPack, where: str, control: tuple[ControlRow, ...], markers: tuple[ConvoyMarkers, ...]
) -> None:
    for row in control:
        try:
            t = pack.territory(row.territory)
        except KeyError:
            _fail(f"{where}: control names the unknown territory {row.territory!r}")
        if t.rp is None:
            _fail(f"{where}: control of {t.id!r}, which has no RP value and cannot be controlled (p.10)")
        if t.permanent_owner is not None:
            _fail(f"{where}: {t.id!r} is permanently marked; it needs no control marker")
    for marker in markers:
        try:
            zone = pack.sea_zone(marker.zone)
        except KeyError:
            _fail(f"{where}: convoy_markers names the unknown sea zone {marker.zone!r}")
        if zone.convoy is None or not set(marker.powers) <= set(zone.convoy.powers):
            _fail(f"{where}: convoy markers in {marker.zone!r} must be powers of its convoy route (p.11)")


def _check_setup(pack: AxisAlliesPack, s: Scenario, kinds: dict[str, str]) -> None:
    name = f"scenario {s.id!r} setup"
    setup = s.setup
    _check_control(pack, name, setup.control, setup.convoy_markers)
    _unique((row.territory for row in setup.control), f"{name} control territory")
    for i, row in enumerate(setup.placements):
        _check_placement(pack, f"{name} placements[{i}]", row, kinds)
    graph = pack.graph()
    for mine in setup.land_mines:
        if graph.edge(mine.territory, mine.facing) is None or kinds.get(mine.facing) != "land":
            _fail(f"{name}: land mines on {mine.territory!r} facing {mine.facing!r}, which do not share a border")
        if any(token not in (1, 2) for token in mine.tokens) or mine.tokens.count(1) > 1:
            _fail(f"{name}: land mine tokens show 1 or 2 mines, and a border holds one '1 mine' at most (p.14)")
    for extra in setup.variable_reinforcements:
        if kinds.get(extra.zone) != "sea" or extra.rp < 1:
            _fail(f"{name}: variable reinforcements need a sea zone and at least 1 RP")
    side_of = {p.id: p.side for p in pack.powers}
    counts: dict[tuple[str, str], int] = {}
    for row in setup.placements:
        if kinds[row.space] != "land":
            continue
        for unit, count in row.units.items():
            if pack.unit(row.power, unit).combat:
                # RULING: French units at setup are Vichy (p.29), so they stack with the Axis.
                key = (row.space, side_of[row.power] or "axis")
                counts[key] = counts.get(key, 0) + count
    for (space, side_name), count in counts.items():
        cap = pack.territory(space).stacking_limit
        if count > cap:
            _fail(f"{name}: {count} {side_name} combat units in {space!r}, over its stacking limit {cap} (p.10)")
    _check_pieces(pack, s)
    for change in setup.pool_changes:
        if not any(u.power == change.power and u.type == change.unit for u in pack.units):
            _fail(f"{name}: pool_changes names the unknown unit {change.power}/{change.unit}")


def _check_pieces(pack: AxisAlliesPack, s: Scenario) -> None:
    """p.9: air, sea and truck units (and every French unit, of which the spare bag has none to stand in) never
    exceed their pieces, counting the scenario's set-asides; combat land units may go beyond their pieces with
    chips, but each stack needs a piece on top, and the chips in the box are shared by everyone."""
    placed: dict[tuple[str, str], int] = {}
    stacks: dict[tuple[str, str], set[str]] = {}
    rows = [*s.setup.placements, *(row for event in s.events for row in event.placements)]
    for row in rows:
        for unit, count in row.units.items():
            placed[(row.power, unit)] = placed.get((row.power, unit), 0) + count
            stacks.setdefault((row.power, unit), set()).add(row.space)
    chips = pack.limit("gray_chips") * pack.limit("gray_chip_units") + pack.limit("green_chips") * pack.limit(
        "green_chip_units"
    )
    for (power, unit), count in placed.items():
        chart = pack.unit(power, unit)
        strict = chart.category != "land" or not chart.combat or power == "france"
        available = chart.pieces + sum(
            c.count for c in s.setup.pool_changes if (c.power, c.unit) == (power, unit) and c.count < 0
        )
        if strict and count > available:
            _fail(f"scenario {s.id!r}: {count} {power}/{unit} placed, but only {available} pieces (p.9)")
        if len(stacks[(power, unit)]) > available:
            spaces = len(stacks[(power, unit)])
            _fail(f"scenario {s.id!r}: {power}/{unit} in {spaces} spaces, but only {available} pieces (p.9)")
        chips -= max(0, count - available)
    if chips < 0:
        _fail(f"scenario {s.id!r}: more combat land units than pieces and chips can show (p.9)")


FORMAT = datapack.PackFormat(
    game=GAME_ID, model=AxisAlliesPack, package="pbem.games.axisallies", cross_checks=(_cross_check,)
)
"""The Axis & Allies: North Africa pack format (registered under ``pbem.packs``)."""
load_pack = FORMAT.load
default_pack_bytes = FORMAT.bundled
pack_schema = FORMAT.schema
