"""The *Operation Battleaxe* data pack: its schema, strict loading and cross-checks.

The pack holds everything the rules module must not hard-code (style guide §2.2): the 23 Areas and 9 Zones
with their boundaries and drawing geometry, the 42 units (plus the optional 19.3 counter), and every number
the rulebook states in its text, each table row citing its rule section. Every location and unit record
carries a ``sources`` object naming, field by field, where the value came from: ``"rulebook §5.2.2"`` or
``"reconstructed: <reason>"`` (a transcription of the published map and counters may also say
``"transcribed: map"``). The schema makes those sources mandatory.

Loading is fail-closed. :func:`load_pack` parses the bytes strictly (no floats, no duplicate keys, no
``NaN``), validates them against :class:`BattleaxePack` and then runs the cross-checks pydantic cannot
express (counts, references, connectivity, setup stacking). Any defect raises
:class:`~pbem.errors.DataPackError` with code R006 and a message naming the record and the field.

Example:
    >>> pack = load_pack(default_pack_bytes())
    >>> pack.location("6").name, pack.location("6").vp
    ('Halfaya Pass', 2)
    >>> pack.limit("stacking_limit")
    4
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal, NoReturn

from pydantic import BaseModel, Field, PrivateAttr, StringConstraints

from pbem.kit import datapack
from pbem.kit.datapack import PackModel, RuleRef, Slug, SourceText, Text, by_id

__all__ = [
    "ALLIED_UNIT_COUNT",
    "AREA_IDS",
    "AXIS_UNIT_COUNT",
    "GAME_ID",
    "REQUIRED_ROWS",
    "ZONE_IDS",
    "BattleaxePack",
    "Boundary",
    "Location",
    "LocationSources",
    "Tables",
    "Unit",
    "UnitSources",
    "default_pack_bytes",
    "load_pack",
    "pack_schema",
]

GAME_ID = "battleaxe"
AREA_IDS: tuple[str, ...] = tuple(str(n) for n in range(1, 24))
"""§3.1, §3.1.1: the map has 23 numbered Areas."""
ZONE_IDS: tuple[str, ...] = tuple("ABCDEFGHI")
"""§3.1, §3.1.1: Zones are lettered A to I."""
ALLIED_UNIT_COUNT = 19
"""§5.2.1: the Allied setup lists 19 units (optional units come on top)."""
AXIS_UNIT_COUNT = 23
"""§5.2.2: the Axis setup lists 23 units."""


# --- field types ---------------------------------------------------------------------------------------

Side = Literal["allied", "axis"]
LocationId = Annotated[str, StringConstraints(pattern=r"^([1-9][0-9]*|[A-Z])$")]
Point = tuple[int, int]


_Model = PackModel


# --- locations and boundaries --------------------------------------------------------------------------


class LocationSources(_Model):
    """Where each field of a :class:`Location` came from (``geometry`` covers ``position`` and ``polygon``)."""

    id: SourceText
    kind: SourceText
    name: SourceText
    terrain: SourceText
    tem: SourceText
    vp: SourceText
    initial_control: SourceText
    supply_source: SourceText
    contested_at_start: SourceText
    touches_sea: SourceText
    geometry: SourceText


class Location(_Model):
    """An Area (``"1"``..``"23"``) or a Zone (``"A"``..``"I"``) of the map (§3.1, §15)."""

    id: LocationId
    kind: Literal["area", "zone"] = Field(description="§3.1: numbered Areas, lettered Zones")
    name: Text
    terrain: Literal["clear", "stutzpunkt"] = Field(description="§3.1.2: circle (Clear) or hexagon (Stützpunkt)")
    tem: int = Field(description="§3.1.3 Terrain Effects Modifier, between tables.limits tem_min and tem_max (1..3)")
    vp: int = Field(description="§17.2 Victory Points per Turn while Allied-controlled and supplied; 0: not a VP Area")
    initial_control: Side = Field(description="§3.1.1, §5.1: the side controlling it at setup")
    supply_source: Side | None = Field(description="§14.2: a Zone's letter colour makes it a supply source")
    contested_at_start: bool = Field(description="§7.3: units of both sides at setup (Zone H only)")
    touches_sea: bool = Field(description="§11.6.4: borders the Mediterranean")
    position: Point = Field(description="label anchor on the canvas (x right, y down; west left, sea north)")
    polygon: tuple[Point, ...] = Field(min_length=3, description="outline on the canvas, a simple polygon")
    sources: LocationSources


class Boundary(_Model):
    """A link between two locations: an Area boundary (§3.1.4) or a Zone connection line (§9.3.3, §15.1)."""

    a: LocationId
    b: LocationId
    type: Literal["open", "escarpment", "connection"] = Field(
        description="open: thin line; escarpment: thick line, never crossed (§9.3.2); connection: Zone line"
    )
    source: SourceText

    @property
    def passable(self) -> bool:
        """Whether units (and supply lines, §14.2.1) may cross it."""
        return self.type != "escarpment"


# --- units ---------------------------------------------------------------------------------------------


class Steps(_Model):
    """A value on the Full-Strength and the Reduced-Strength (striped) side of a counter."""

    full: int
    reduced: int


class UnitSources(_Model):
    """Where each field of a :class:`Unit` came from."""

    id: SourceText
    name: SourceText
    description: SourceText
    side: SourceText
    nationality: SourceText
    type: SourceText
    at_star: SourceText
    cv: SourceText
    mf: SourceText
    setup: SourceText
    formation: SourceText
    tobruk_origin: SourceText
    optional_rule: SourceText


class Unit(_Model):
    """A counter (§4, §5.2) with its two steps."""

    id: Slug
    name: Text = Field(description="the counter text as §5.2 prints it")
    description: Text = Field(description="the §5.2 description in parentheses")
    side: Side
    nationality: Literal["british", "indian", "australian", "german", "italian"]
    type: Literal["armor", "infantry", "anti_tank"] = Field(description="Glossary: Armor, Infantry, Anti-Tank")
    at_star: bool = Field(description="§10.3: the asterisk of AT/FLAK units")
    cv: Steps = Field(description="Combat Value (§11.4.2A, §11.4.3A)")
    mf: Steps = Field(description="Movement Factor (§9.1, Glossary)")
    setup: LocationId | tuple[LocationId, ...] = Field(
        description="§5.2 setup location, or the locations allowed for a free setup"
    )
    formation: tuple[Slug, ...] = Field(min_length=1, description="§5.2 setup headings as tags, e.g. 15pz, 5lt")
    tobruk_origin: bool = Field(description="§13.3.3: an Allied unit set up in Zone H, rebuilt only there")
    optional_rule: RuleRef | None = Field(description="the optional rule that brings the unit in, else null")
    sources: UnitSources

    @property
    def setup_options(self) -> tuple[str, ...]:
        """The allowed setup locations (one for a fixed setup)."""
        return (self.setup,) if isinstance(self.setup, str) else self.setup

    @property
    def fixed_setup(self) -> str | None:
        """The setup location when it is fixed, else None (free setup)."""
        return self.setup if isinstance(self.setup, str) else None


# --- tables: the rulebook's numbers, one rule reference per row -------------------------------------------


class TurnRow(_Model):
    id: Slug
    label: Text
    number: int
    extended_only: bool
    rule: RuleRef
    text: Text


class RollRow(_Model):
    """A kind of roll: ``dice`` dice of ``sides`` sides (dr = 1 die, DR = 2 dice)."""

    id: Slug
    dice: int
    sides: int
    rule: RuleRef
    text: Text


class CostRow(_Model):
    """A movement cost (§9.2): ``mf`` points, or every remaining point when ``all_mf``."""

    id: Slug
    mf: int | None
    all_mf: bool
    rule: RuleRef
    text: Text


class ModifierRow(_Model):
    """A combat modifier: a flat ``value`` plus ``dice`` extra d6."""

    id: Slug
    value: int
    dice: int
    rule: RuleRef
    text: Text


class AttritionRow(_Model):
    id: Slug
    ap: int
    rule: RuleRef
    text: Text


class DieResultRow(_Model):
    """A range ``min``..``max`` of a modified roll and its result."""

    id: Slug
    roll: Slug
    min: int
    max: int
    result: Slug
    rule: RuleRef
    text: Text


class DieModifierRow(_Model):
    id: Slug
    roll: Slug
    value: int
    rule: RuleRef
    text: Text


class LimitRow(_Model):
    """A single number of the rules."""

    id: Slug
    value: int
    rule: RuleRef
    text: Text


class SettingRow(_Model):
    """A single non-numeric setting of the rules."""

    id: Slug
    value: Slug
    rule: RuleRef
    text: Text


class ReleaseRow(_Model):
    """§16: the conditions that release a restricted formation."""

    formation: Slug
    controlled_areas: tuple[LocationId, ...] = Field(description="released when any becomes Allied-controlled")
    areas_adjacent_to: tuple[LocationId, ...] = Field(
        description="released when any Area adjacent to one of these becomes Allied-controlled"
    )
    entered_zones: tuple[LocationId, ...] = Field(description="released when an Allied unit enters any of these")
    assault_from: tuple[LocationId, ...] = Field(description="released when Allied units here conduct an Assault")
    released_after_turn: Slug = Field(description="released at the end of this Turn in any case")
    rule: RuleRef
    text: Text


class RegroupBanRow(_Model):
    """§8.1.2a: ``side`` may not Regroup from ``src`` to ``dst`` while ``src_controlled_by`` controls ``src``."""

    id: Slug
    side: Side
    src: LocationId
    dst: LocationId
    src_controlled_by: Side
    rule: RuleRef
    text: Text


class LocationRoleRow(_Model):
    """Locations the rules single out (victory, rebuilding, first activation)."""

    id: Slug
    locations: tuple[LocationId, ...] = Field(min_length=1)
    rule: RuleRef
    text: Text


class VariantRow(_Model):
    """An optional setup variant: units added and units removed."""

    id: Slug
    adds: tuple[Slug, ...]
    removes: tuple[Slug, ...]
    rule: RuleRef
    text: Text


class HistoricalSetupRow(_Model):
    """The §5.2.1 design note's historical placement of a free-setup unit."""

    unit: Slug
    location: LocationId
    rule: RuleRef
    text: Text


class Tables(_Model):
    """Every number (and a few settings) the rulebook states in its text, one rule reference per row."""

    turns: tuple[TurnRow, ...]
    rolls: tuple[RollRow, ...]
    movement_costs: tuple[CostRow, ...]
    attack_modifiers: tuple[ModifierRow, ...]
    defense_modifiers: tuple[ModifierRow, ...]
    attrition_points: tuple[AttritionRow, ...]
    die_results: tuple[DieResultRow, ...]
    die_modifiers: tuple[DieModifierRow, ...]
    limits: tuple[LimitRow, ...]
    settings: tuple[SettingRow, ...]
    releases: tuple[ReleaseRow, ...]
    regroup_bans: tuple[RegroupBanRow, ...]
    location_roles: tuple[LocationRoleRow, ...]
    variants: tuple[VariantRow, ...]
    historical_setup: tuple[HistoricalSetupRow, ...]


REQUIRED_ROWS: dict[str, frozenset[str]] = {
    "turns": frozenset({"jun15", "jun16", "jun17", "jun18"}),
    "rolls": frozenset({"combat", "sunset", "artillery_call", "air_support", "rommel", "surrender"}),
    "movement_costs": frozenset(
        {
            "enter_vacant",
            "enter_vacant_adjacent_enemy",
            "enter_reduced_enemy_only",
            "enter_full_strength_enemy",
            "enter_zone",
        }
    ),
    "attack_modifiers": frozenset({"additional_unit", "air_support", "rommel", "artillery", "combined_arms"}),
    "defense_modifiers": frozenset({"additional_unit", "artillery", "fuel_shortage"}),
    "attrition_points": frozenset({"fs_eliminated", "fs_reduced", "rs_eliminated", "rs_retreat", "german_fs_retreat"}),
    "die_results": frozenset(
        {"artillery_not_available", "artillery_available", "surrender_step_loss", "surrender_no_effect"}
    ),
    "die_modifiers": frozenset({"artillery_axis_stutzpunkt", "surrender_advantage", "luftwaffe_allied_air"}),
    "limits": frozenset(
        {
            "stacking_limit",
            "tem_min",
            "tem_max",
            "start_impulse",
            "start_vp",
            "allied_air_markers",
            "air_support_per_impulse",
            "air_contested_divisor",
            "allied_artillery_markers",
            "axis_artillery_markers",
            "artillery_calls_per_combat",
            "at_alone_full_cv",
            "at_alone_reduced_cv",
            "axis_combined_ops_areas",
            "regroup_distance",
            "consolidations_per_impulse",
            "single_ap_retreat",
            "overrun_extra_areas",
            "rommel_attacks_per_impulse",
            "replacement_points",
            "advantage_extra_rp",
            "flips_per_rp",
            "rebuilds_per_rp",
            "battlefield_recovery_flips",
            "oos_mf_penalty",
            "oos_cv_penalty",
            "vp_win_threshold",
            "vp_per_eliminated_german_unit",
            "reduced_german_armor_per_vp",
            "extended_win_min",
            "extended_loss_max",
            "tiger_cubs_flips",
            "luftwaffe_air_markers",
            "luftwaffe_from_turn",
            "luftwaffe_allied_air_cap",
        }
    ),
    "settings": frozenset({"advantage_start", "turn_marker_start", "first_player", "sunset_roller", "zone_stacking"}),
    "location_roles": frozenset(
        {
            "automatic_victory_from",
            "automatic_victory_to",
            "vp_trace_targets",
            "first_activation_zones",
            "tobruk_rebuild",
            "tobruk_supplied",
        }
    ),
}
"""Row ids the rules module relies on, per table: a pack missing one does not load."""


# --- the pack ------------------------------------------------------------------------------------------


class Meta(_Model):
    game: Text
    edition: Text
    version: Text
    description: Text
    notes: tuple[Text, ...]


class Canvas(_Model):
    """The drawing space of ``position`` and ``polygon`` coordinates."""

    width: int
    height: int


class PackSources(_Model):
    """Where the pack-level values came from."""

    impulse_track_length: SourceText
    canvas: SourceText
    frontier_wire: SourceText


class Derived:
    """What the rules derive from a pack once (their context: the board), kept with the pack and freed with it.

    It is not part of the pack's value: equal to any other, never dumped, shared by copies.
    """

    __slots__ = ("context",)

    def __init__(self) -> None:
        self.context: Any = None  # a battleaxe.context.Context, which imports this module

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Derived)

    def __hash__(self) -> int:
        return 0

    def __copy__(self) -> Derived:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Derived:
        return self


class BattleaxePack(_Model):
    """The whole data pack. Build it with :func:`load_pack`, which also runs the cross-checks."""

    _derived: Derived = PrivateAttr(default_factory=Derived)

    meta: Meta
    impulse_track_length: int = Field(description="§3.3, §6.2.1: spaces on the Impulse Track")
    canvas: Canvas
    frontier_wire: tuple[Point, ...] = Field(description="drawing only: the frontier is no boundary (§3.1.4)")
    sources: PackSources
    locations: tuple[Location, ...]
    boundaries: tuple[Boundary, ...]
    units: tuple[Unit, ...]
    tables: Tables

    def location(self, location_id: str) -> Location:
        """The location ``location_id``; KeyError if there is none."""
        return by_id(self.locations, location_id)

    def unit(self, unit_id: str) -> Unit:
        """The unit ``unit_id``; KeyError if there is none."""
        return by_id(self.units, unit_id)

    def boundary(self, a: str, b: str) -> Boundary | None:
        """The boundary between ``a`` and ``b`` (either order), if any."""
        for edge in self.boundaries:
            if {edge.a, edge.b} == {a, b}:
                return edge
        return None

    def neighbours(self, location_id: str, *, passable_only: bool = True) -> tuple[str, ...]:
        """Locations linked to ``location_id``, sorted; escarpment neighbours only if ``passable_only`` is False."""
        found = {
            edge.b if edge.a == location_id else edge.a
            for edge in self.boundaries
            if location_id in (edge.a, edge.b) and (edge.passable or not passable_only)
        }
        return tuple(sorted(found, key=_location_order))

    def limit(self, row_id: str) -> int:
        """The value of row ``row_id`` of ``tables.limits``; KeyError if there is none."""
        for row in self.tables.limits:
            if row.id == row_id:
                return row.value
        raise KeyError(row_id)

    def setting(self, row_id: str) -> str:
        """The value of row ``row_id`` of ``tables.settings``; KeyError if there is none."""
        for row in self.tables.settings:
            if row.id == row_id:
                return row.value
        raise KeyError(row_id)

    def role(self, row_id: str) -> tuple[str, ...]:
        """The locations of row ``row_id`` of ``tables.location_roles``; KeyError if there is none."""
        for row in self.tables.location_roles:
            if row.id == row_id:
                return row.locations
        raise KeyError(row_id)


# --- loading -------------------------------------------------------------------------------------------


def _fail(message: str) -> NoReturn:
    datapack.fail(GAME_ID, message)


def _location_order(location_id: str) -> tuple[int, int | str]:
    return (0, int(location_id)) if location_id.isdigit() else (1, location_id)


# --- cross-checks --------------------------------------------------------------------------------------


def _cross_check(pack: BattleaxePack) -> None:
    """What the schema cannot say. Steps run in order; the first failure raises R006."""
    # (1) The pack belongs to this game.
    if pack.meta.game != GAME_ID:
        _fail(f"meta.game is {pack.meta.game!r}, expected {GAME_ID!r}")
    # (2) Tables first: later checks read their limits and roles.
    _check_tables_shape(pack)
    # (3) Locations: the 23 Areas and 9 Zones of §3.1, then each record's values.
    _check_locations(pack)
    # (4) Boundaries: known ids, no loops or duplicates, the right type for what they join.
    _check_boundaries(pack)
    # (5) Every location reaches every other over passable boundaries (units and supply can get anywhere).
    _check_connected(pack)
    # (6) Units: counts per side, values, setup locations, optional units.
    _check_units(pack)
    # (7) Setup-dependent facts: stacking at setup (§7.1), contested start (§7.3), Tobruk origin (§13.3.3).
    _check_setup(pack)
    # (8) Table rows that name locations, units, formations or rolls.
    _check_table_references(pack)


def _unique(ids: Iterable[str], what: str) -> None:
    datapack.require_unique(GAME_ID, ids, what)


def _check_tables_shape(pack: BattleaxePack) -> None:
    for name in type(pack.tables).model_fields:
        rows: tuple[BaseModel, ...] = getattr(pack.tables, name)
        ids = [str(getattr(row, "id", getattr(row, "formation", getattr(row, "unit", "")))) for row in rows]
        _unique(ids, f"tables.{name} row")
        missing = sorted(REQUIRED_ROWS.get(name, frozenset()) - set(ids))
        if missing:
            _fail(f"tables.{name} lacks the row(s) {', '.join(missing)}")
    numbers = sorted(row.number for row in pack.tables.turns)
    if numbers != list(range(1, len(numbers) + 1)):
        _fail(f"tables.turns numbers {numbers} are not 1, 2, 3, ...")
    if pack.impulse_track_length < pack.limit("start_impulse"):
        _fail(f"impulse_track_length {pack.impulse_track_length} is shorter than the start impulse")
    for row in pack.tables.movement_costs:
        if (row.mf is None) != row.all_mf:
            _fail(f"tables.movement_costs row {row.id!r}: give either mf or all_mf, exactly one")
    for result in pack.tables.die_results:
        if result.min > result.max:
            _fail(f"tables.die_results row {result.id!r}: min {result.min} > max {result.max}")


def _check_locations(pack: BattleaxePack) -> None:
    _unique((loc.id for loc in pack.locations), "location")
    for wanted, kind in ((AREA_IDS, "area"), (ZONE_IDS, "zone")):
        have = {loc.id for loc in pack.locations if loc.kind == kind}
        if have != set(wanted):
            missing = sorted(set(wanted) - have, key=_location_order)
            extra = sorted(have - set(wanted), key=_location_order)
            _fail(f"the {kind}s must be exactly {wanted[0]}..{wanted[-1]}: missing {missing}, unexpected {extra}")
    tem_min, tem_max = pack.limit("tem_min"), pack.limit("tem_max")
    width, height = pack.canvas.width, pack.canvas.height
    for loc in pack.locations:
        name = f"location {loc.id!r}"
        if not tem_min <= loc.tem <= tem_max:
            _fail(f"{name}: field 'tem' is {loc.tem}, outside {tem_min}..{tem_max} (§3.1.3)")
        if loc.vp < 0:
            _fail(f"{name}: field 'vp' is negative")
        if loc.kind == "area" and loc.supply_source is not None:
            _fail(f"{name}: field 'supply_source' must be null: only Zones are supply sources (§14.2)")
        if loc.kind == "zone" and loc.supply_source != loc.initial_control:
            _fail(
                f"{name}: field 'supply_source' is {loc.supply_source!r} but 'initial_control' is "
                f"{loc.initial_control!r}: both follow the letter colour (§3.1.1, §14.2)"
            )
        for field, points in (("position", (loc.position,)), ("polygon", loc.polygon)):
            for x, y in points:
                if not (0 <= x <= width and 0 <= y <= height):
                    _fail(f"{name}: field {field!r} has the point ({x}, {y}) outside the {width}x{height} canvas")


def _check_boundaries(pack: BattleaxePack) -> None:
    kinds = {loc.id: loc.kind for loc in pack.locations}
    seen: set[frozenset[str]] = set()
    for i, edge in enumerate(pack.boundaries):
        name = f"boundaries[{i}] ({edge.a}-{edge.b})"
        for field, ident in (("a", edge.a), ("b", edge.b)):
            if ident not in kinds:
                _fail(f"{name}: field {field!r} names the unknown location {ident!r}")
        if edge.a == edge.b:
            _fail(f"{name}: a location cannot border itself")
        pair = frozenset((edge.a, edge.b))
        if pair in seen:
            _fail(f"{name}: a second boundary between the same two locations")
        seen.add(pair)
        zone_involved = "zone" in (kinds[edge.a], kinds[edge.b])
        if zone_involved and edge.type != "connection":
            _fail(f"{name}: field 'type' is {edge.type!r}, but Zones connect only by connection lines (§9.3.3)")
        if not zone_involved and edge.type == "connection":
            _fail(f"{name}: field 'type' is 'connection', but connection lines always involve a Zone (§15.1)")


def _check_connected(pack: BattleaxePack) -> None:
    ids = [loc.id for loc in pack.locations]
    links: dict[str, set[str]] = {ident: set() for ident in ids}
    for edge in pack.boundaries:
        if edge.passable:
            links[edge.a].add(edge.b)
            links[edge.b].add(edge.a)
    reached = {ids[0]}
    frontier = [ids[0]]
    while frontier:
        for nxt in links[frontier.pop()] - reached:
            reached.add(nxt)
            frontier.append(nxt)
    if len(reached) != len(ids):
        cut = sorted(set(ids) - reached, key=_location_order)
        _fail(f"the map is not connected over open boundaries and connection lines: {cut} cannot be reached")


def _check_units(pack: BattleaxePack) -> None:
    _unique((unit.id for unit in pack.units), "unit")
    known = {loc.id for loc in pack.locations}
    for side, wanted in (("allied", ALLIED_UNIT_COUNT), ("axis", AXIS_UNIT_COUNT)):
        count = sum(1 for unit in pack.units if unit.side == side and unit.optional_rule is None)
        if count != wanted:
            _fail(f"{count} standard {side} units, expected {wanted} (§5.2); flag extra units with optional_rule")
    for unit in pack.units:
        name = f"unit {unit.id!r}"
        for field in ("cv", "mf"):
            steps: Steps = getattr(unit, field)
            if steps.reduced > steps.full:
                _fail(f"{name}: field {field!r} reduced {steps.reduced} exceeds full {steps.full}")
        if unit.cv.reduced < 0:
            _fail(f"{name}: field 'cv' reduced is negative")
        if unit.mf.reduced < 1:
            _fail(f"{name}: field 'mf' must be at least 1 on both sides")
        if unit.at_star != (unit.type == "anti_tank"):
            _fail(f"{name}: field 'at_star' must be true exactly for anti_tank units (§10.3)")
        options = unit.setup_options
        if not options or len(set(options)) != len(options):
            _fail(f"{name}: field 'setup' must list distinct locations")
        for ident in options:
            if ident not in known:
                _fail(f"{name}: field 'setup' names the unknown location {ident!r}")


def _check_setup(pack: BattleaxePack) -> None:
    stack = pack.limit("stacking_limit")
    standard = [unit for unit in pack.units if unit.optional_rule is None]
    for loc in pack.locations:
        here = [unit for unit in standard if unit.fixed_setup == loc.id]
        sides = {unit.side for unit in here}
        if loc.kind == "area":
            for side in sides:
                count = sum(1 for unit in here if unit.side == side)
                if count > stack:
                    _fail(f"location {loc.id!r}: {count} {side} units set up there, over the limit of {stack} (§7.1)")
        if loc.contested_at_start != (len(sides) == 2):
            _fail(
                f"location {loc.id!r}: field 'contested_at_start' is {loc.contested_at_start} but "
                f"{'both sides' if len(sides) == 2 else 'not both sides'} set up there (§7.3)"
            )
    tobruk = set(pack.role("tobruk_rebuild"))
    for unit in pack.units:
        expected = unit.side == "allied" and unit.fixed_setup in tobruk
        if unit.tobruk_origin != expected:
            _fail(
                f"unit {unit.id!r}: field 'tobruk_origin' must be {str(expected).lower()} "
                "(true exactly for Allied units set up in Zone H, §13.3.3)"
            )


def _check_table_references(pack: BattleaxePack) -> None:
    t = pack.tables
    locations = {loc.id for loc in pack.locations}
    units = {unit.id for unit in pack.units}
    formations = {tag for unit in pack.units for tag in unit.formation}
    rolls = {row.id for row in t.rolls}
    turns = {row.id for row in t.turns}

    def need(ids: Iterable[str], known: set[str], where: str, what: str) -> None:
        for ident in ids:
            if ident not in known:
                _fail(f"{where} names the unknown {what} {ident!r}")

    for res in t.die_results:
        need([res.roll], rolls, f"tables.die_results row {res.id!r}", "roll")
    for dmod in t.die_modifiers:
        need([dmod.roll], rolls, f"tables.die_modifiers row {dmod.id!r}", "roll")
    for rel in t.releases:
        where = f"tables.releases row {rel.formation!r}"
        need([rel.formation], formations, where, "formation")
        need(
            [*rel.controlled_areas, *rel.areas_adjacent_to, *rel.entered_zones, *rel.assault_from],
            locations,
            where,
            "location",
        )
        need([rel.released_after_turn], turns, where, "turn")
    for ban in t.regroup_bans:
        where = f"tables.regroup_bans row {ban.id!r}"
        need([ban.src, ban.dst], locations, where, "location")
        edge = pack.boundary(ban.src, ban.dst)
        if edge is None or not edge.passable:
            _fail(f"{where}: {ban.src} and {ban.dst} must share a passable boundary (§8.1.2a implies it)")
    for role in t.location_roles:
        need(role.locations, locations, f"tables.location_roles row {role.id!r}", "location")
    optional_added: set[str] = set()
    for variant in t.variants:
        where = f"tables.variants row {variant.id!r}"
        need([*variant.adds, *variant.removes], units, where, "unit")
        for ident in variant.adds:
            if pack.unit(ident).optional_rule != variant.rule:
                _fail(f"{where}: unit {ident!r} must have optional_rule {variant.rule!r}")
            optional_added.add(ident)
        for ident in variant.removes:
            if pack.unit(ident).optional_rule is not None:
                _fail(f"{where}: the removed unit {ident!r} must be a standard unit")
    for unit in pack.units:
        if unit.optional_rule is not None and unit.id not in optional_added:
            _fail(f"unit {unit.id!r}: optional units must be added by a row of tables.variants")
    for hist in t.historical_setup:
        where = f"tables.historical_setup row {hist.unit!r}"
        need([hist.unit], units, where, "unit")
        if hist.location not in pack.unit(hist.unit).setup_options:
            _fail(f"{where}: {hist.location!r} is not one of the unit's setup options")


FORMAT = datapack.PackFormat(
    game=GAME_ID, model=BattleaxePack, package="pbem.games.battleaxe", cross_checks=(_cross_check,)
)
"""The Operation Battleaxe pack format. ``load_pack`` parses, validates and cross-checks (R006 naming the record and
field at fault: not strict JSON, a float, a duplicate key, a missing source, a failed cross-check); the same bytes
give the same frozen pack again. ``default_pack_bytes`` is the bundled pack as canonical JSON (RFC 8785), so that its
SHA-256 does not depend on formatting."""
load_pack = FORMAT.load
default_pack_bytes = FORMAT.bundled
pack_schema = FORMAT.schema
