"""The *Operation Theseus: Gazala 1942* data pack: its schema, strict loading and cross-checks.

The rulebook is prose only: the map, the counters, the Combat Results Table, the Terrain Effects Chart, the
Action Points table, the minefield tables, the 29 combat-multiplier chits, the setup displays and the
reinforcement schedule are graphics that are not in the text. This pack holds all of them: every number the
rulebook states (rules and worked examples) and a reconstruction of the rest from the history of the Gazala
battles (26 May - 21 June 1942) and the system's conventions. Every record says, field by field, where each
value came from: ``"rulebook §7.5.1.2 …"``, ``"reconstructed: <reason>"`` or, in a transcription of the
printed components, ``"transcribed: <component>"`` (docs/gazala-data.md).

Loading is fail-closed: :func:`load_pack` parses strictly, validates against :class:`GazalaPack` and runs the
cross-checks the schema cannot express (references, the map's connectivity, minefields and boxes, the Tobruk
perimeter, setup stacking, the chits, the tables' shapes). Any defect raises
:class:`~pbem.errors.DataPackError` with code R006 naming the record and the field.

Example:
    >>> pack = load_pack(default_pack_bytes())
    >>> pack.place("Bir Hacheim")
    '2521'
    >>> pack.unit("104").cs, pack.unit("104").eff.front
    (9, 7)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Annotated, Any, Literal, NoReturn, Self

from pydantic import Field, PrivateAttr, StringConstraints

from pbem.games.gazala.stacking import stacking
from pbem.kit import datapack
from pbem.kit.datapack import PackMeta, PackModel, RuleRef, Slug, SourceText, Text, by_id
from pbem.kit.hexes import HexId, HexMap, HexMapData
from pbem.kit.tables import CombatTable

__all__ = [
    "CHIT_COUNT",
    "CRT_TERRAINS",
    "GAME_ID",
    "HEX_TERRAINS",
    "ApCell",
    "Chit",
    "ChitFace",
    "Formation",
    "GazalaPack",
    "Hq",
    "Scenario",
    "Unit",
    "default_pack_bytes",
    "load_pack",
    "pack_schema",
]

GAME_ID = "gazala"
CHIT_COUNT = 29
"""§3.5, §7.5.1.2: the chits are numbered 1/29 to 29/29; the optional linear set adds A10, A14-A18, A29."""
CRT_TERRAINS: tuple[str, ...] = ("clear", "broken", "hill", "minefield", "tobruk")
"""§3.1.1: the CRT's terrain rows, least to most favourable to the defender (Broken/Village/Point of interest
share a row, so do Minefield/Box)."""
HEX_TERRAINS: tuple[str, ...] = ("clear", "broken", "village", "poi", "hill", "tobruk")
"""§3.1.1: a hex's dominant printed terrain. Minefield and Box are an overlay (:class:`Minefield`), so that a
breached hex keeps the terrain under it."""

Side = Literal["axis", "cw"]
Nationality = Literal["german", "italian", "british", "indian", "south_african", "free_french"]
UnitType = Literal[
    "infantry",
    "engineer",
    "mot_infantry",
    "recce",
    "panzergrenadier",
    "armoured_car",
    "valentine",
    "matilda",
    "m3_grant",
    "crusader",
    "pz3",
    "pz4",
    "m14_41",
    "flak88",
]
"""§3.2a: the unit types printed on the counters."""
TANK_TYPES = frozenset({"valentine", "matilda", "m3_grant", "crusader", "pz3", "pz4", "m14_41"})
HEAVY_TANK_TYPES = frozenset({"valentine", "matilda"})
"""§5.8, §9.3.1: Commonwealth heavy tanks (MA 3, no Combined Arms)."""
INFANTRY_TYPES = frozenset({"infantry", "engineer", "mot_infantry", "panzergrenadier"})
"""§7.4: the units that may breach (engineers included: the §7.4 example lets KG Hecker breach)."""
RECCE_TYPES = frozenset({"recce", "armoured_car"})

HexText = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}$")]
"""A printed hex id ``CCRR``: column 01-52 west to east, row 00-29 north to south (§3.1)."""
CrtCell = Annotated[str, StringConstraints(pattern=r"^[0-9]+!?/[0-9]+!?$")]
"""A CRT result ``attacker/defender`` hits; ``!`` marks a number printed red and underlined (an EC, §7.5.2)."""
MineResult = Literal["success", "disrupt", "disrupt_loss"]
"""Enemy Minefield Check (§7.3.6): the unit enters; it disrupts (``D``); it disrupts and loses 1 SP (``1``)."""
BreachResult = Literal["success", "no_effect"]


# --- values with a disrupted side ----------------------------------------------------------------------


class Sides(PackModel):
    """A value printed on the front and on the Disrupted side of a counter (§3.2, §5.6.3)."""

    front: int
    disrupted: int


# --- formations, units, HQs, air units --------------------------------------------------------------------


class FormationSources(PackModel):
    name: SourceText
    side: SourceText
    nationality: SourceText
    kind: SourceText
    colour: SourceText
    max_level: SourceText
    recovery: SourceText
    leg_infantry_division: SourceText
    loss_group: SourceText


class Formation(PackModel):
    """A division or brigade with its HQ and its Formation Activation marker (§3.2, §3.5, §6.3.2)."""

    id: Slug
    name: Text
    side: Side
    nationality: Nationality
    kind: Literal["armoured", "motorised", "infantry"]
    colour: Annotated[str, StringConstraints(pattern=r"^#[0-9a-f]{6}$")] = Field(
        description="§3.2d formation colour stripe, as drawn by the renderer"
    )
    max_level: int = Field(description="§3.5, §9.1.1: Max. Activation Level printed on the activation marker")
    recovery: int = Field(description="§3.5, §9.1.1: Recovery Rating printed on the activation marker")
    leg_infantry_division: bool = Field(description="§5.5.2: a Commonwealth independent may be assigned to it")
    loss_group: Literal["dak_xx"] | None = Field(description="§10.3: counts in the DAK + XX Corps SP losses")
    sources: FormationSources


class UnitSources(PackModel):
    name: SourceText
    side: SourceText
    nationality: SourceText
    type: SourceText
    formation: SourceText
    independent: SourceText
    eff: SourceText
    cs: SourceText
    armour: SourceText
    armour_points: SourceText
    movement: SourceText
    ma: SourceText
    no_zoc: SourceText
    free_stacking: SourceText
    no_combined_arms: SourceText
    assign_to: SourceText
    cannibalise: SourceText
    half_brigade: SourceText
    loss_group: SourceText


class Unit(PackModel):
    """A combat unit counter (§3.2)."""

    id: Slug
    name: Text = Field(description="§3.2b the unit ID printed on the counter")
    side: Side
    nationality: Nationality
    type: UnitType
    formation: Slug | None = Field(description="§3.2d the formation stripe; null for independent units")
    independent: Literal["no", "assignable", "permanent"] = Field(
        description="§3.2d, §5.5.2: formation unit; no stripe (assignable); white stripe (permanently independent)"
    )
    eff: Sides = Field(description="§3.2e Effectiveness Rating 2..7, lower on the Disrupted side")
    cs: int = Field(description="§3.2f printed combat strength (1..15, the strength markers' range)")
    armour: Literal["tp", "at"] = Field(description="§3.2g Tank Points (yellow box, AFV) or Anti-Tank Points")
    armour_points: Sides = Field(description="§3.2g Tank or Anti-Tank Points, fewer on the Disrupted side")
    movement: Literal["leg", "motorised", "half"] = Field(
        description="§3.2h white (leg) or red (motorised) hexagon; half: KG Hecker (§7.3.3)"
    )
    ma: int = Field(description="§3.2h Movement Allowance (the Disrupted side shows 'd')")
    no_zoc: bool = Field(description="§3.2j, §5.4 the white corner")
    free_stacking: bool = Field(description="§3.2k free stacking symbol")
    no_combined_arms: bool = Field(description="§3.2l, §7.5.1.3: Italian tanks and British heavy tanks")
    assign_to: tuple[Slug, ...] = Field(description="§5.5.2: the formations an assignable unit may join")
    cannibalise: Literal["tank", "heavy_tank", "leg_infantry"] | None = Field(
        description="§9.3.1, §9.3.2: the Commonwealth RP type the unit yields when cannibalised"
    )
    half_brigade: bool = Field(description="§5.3.1: a Free French half-brigade")
    loss_group: Literal["dak_xx"] | None = Field(description="§10.3: counts in the DAK + XX Corps SP losses")
    sources: UnitSources

    @property
    def is_tank(self) -> bool:
        """A Panzer or tank unit (§7.5.1.3)."""
        return self.type in TANK_TYPES

    @property
    def is_heavy_tank(self) -> bool:
        """A Commonwealth heavy tank (§5.8, §9.3.1)."""
        return self.type in HEAVY_TANK_TYPES

    @property
    def is_infantry(self) -> bool:
        """An infantry-type unit (§5.3.1, §7.4, §7.5.1.2)."""
        return self.type in INFANTRY_TYPES

    @property
    def is_recce(self) -> bool:
        """An armoured car or recce unit (§5.3.1, §7.5.1.1)."""
        return self.type in RECCE_TYPES


class HqSources(PackModel):
    name: SourceText
    type: SourceText
    reaction: SourceText
    engineer: SourceText
    command_range: SourceText
    support: SourceText
    ma: SourceText


class Hq(PackModel):
    """A formation HQ counter (§3.3); its flip side is Emergency Supply expended."""

    id: Slug
    name: Text
    formation: Slug
    type: Literal["leg", "motorised"] = Field(description="§3.3a, §5.7.2")
    reaction: int = Field(description="§3.3e, §6.5.2: success on a d10 at or below it")
    engineer: int = Field(description="§3.3f, §7.3.6, §7.4: a DRM, zero or negative")
    command_range: int = Field(description="§3.3g, §5.8: hexes")
    support: int = Field(description="§3.3h, §7.5.1.5B: printed Attack Support Points")
    ma: int = Field(description="§3.3i Movement Allowance")
    sources: HqSources


class AirUnit(PackModel):
    """An Axis air unit marker (§3.4, §7.5.1.4): one column shift when committed."""

    id: Slug
    name: Text
    nationality: Literal["german", "italian"]
    source: SourceText


# --- markers and chits -------------------------------------------------------------------------------------


class Marker(PackModel):
    """A kind of game marker (§3.5) and how many the counter sheet holds."""

    id: Slug
    name: Text
    count: int = Field(ge=1)
    rule: RuleRef
    source: SourceText


class ChitFace(PackModel):
    """One face of a combat-multiplier chit: rows by Effectiveness, columns by attack or defence (§7.5.1.2).

    Columns: attacker Hasty | Regular | Prepared; defender Disrupted | Regular Defence | Improved Defence /
    Friendly Minefield.
    """

    effectiveness: tuple[int, int, int]
    multipliers: tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]] = Field(
        description="one row per effectiveness value, each (left, centre, right)"
    )
    source: SourceText


class Chit(PackModel):
    """A combat-multiplier chit ``Nº k/29`` (§3.5, §7.5.1.2) or an optional linear replacement ``Nº Ak``."""

    id: Slug
    number: int
    alternate: bool = Field(description="note on combat multiplier chits: an optional linear-distribution chit")
    low: ChitFace = Field(description="the face for Effectiveness 2, 3, 4")
    high: ChitFace = Field(description="the face for Effectiveness 5, 6, 7")

    def multiplier(self, eff: int, column: int) -> int:
        """The multiplier for an Effectiveness Rating and a column (0 left, 1 centre, 2 right)."""
        face = self.low if eff in self.low.effectiveness else self.high
        return face.multipliers[face.effectiveness.index(eff)][column]


# --- the map's game-specific overlays -------------------------------------------------------------------------


class Minefield(PackModel):
    """A Minefield hex, and whether it is also a Box (§3.1.3): its owner never changes."""

    hex: HexText
    owner: Side
    box: Slug | None = Field(description="the Box this hex belongs to (every Box hex is a Minefield hex); null")
    group: Slug = Field(description="the belt it belongs to, for reports: gazala-line, mine-marsh, tobruk-perimeter…")
    source: SourceText


class Route(PackModel):
    """A named Road or Trail (§3.1.1, §7.3.3), hex by hex; its hexsides carry the ``road`` / ``trail`` feature."""

    id: Slug
    name: Text
    kind: Literal["road", "trail"]
    hexes: tuple[HexText, ...] = Field(min_length=2)
    source: SourceText


class Escarpment(PackModel):
    """A named Ridge or Wadi (§3.1.2): the hexsides (``"2709/2710"``) that carry its feature."""

    id: Slug
    name: Text
    kind: Literal["ridge", "wadi"]
    hexsides: tuple[Annotated[str, StringConstraints(pattern=r"^[0-9]{4}/[0-9]{4}$")], ...] = Field(min_length=1)
    source: SourceText


class Box(PackModel):
    """A Commonwealth Box: a group of Box hexes, a Box supply source while unbreached (§5.7.3)."""

    id: Slug
    name: Text
    source: SourceText


class SupplySource(PackModel):
    """A supply source printed on the map (§3.1.5, §5.7.3)."""

    id: Slug
    hex: HexText
    side: Side
    kind: Literal["major", "tobruk"]
    entry: bool = Field(description="§9.4.1: a map-edge Major source, where reinforcements enter")
    name: Text
    source: SourceText


class Tobruk(PackModel):
    """Tobruk (§5.7.3): the capture hex, the perimeter line of Minefield hexes, the hexes inside it."""

    hex: HexText
    perimeter: tuple[HexText, ...] = Field(description="the connected line of Minefield hexes, in order")
    inside: tuple[HexText, ...] = Field(description="the hexes inside the perimeter, the line excluded")
    source: SourceText


# --- tables ---------------------------------------------------------------------------------------------------


class ApCell(PackModel):
    """An Action Points table cell (§6.3.1, §6.5.2): black for an activation, red for a Reaction."""

    black: int
    red: int


class TerrainEffect(PackModel):
    """A Terrain Effects Chart row (§3.1, §7.3, §7.5.1.5C). MP costs are in half MPs (§5.1: never rounded).

    Attributes:
        id: a hex terrain, a minefield state, a hexside feature or a route.
        applies_to: ``hex``, ``hexside`` or ``route`` (Road/Trail rate between two route hexes).
        leg, motorised, hq: the cost in half MPs; null where ``all_mp`` or ``prohibited``.
        all_mp: the step takes all the mover's MPs (only as its first step, §3.1.2).
        prohibited: no unit may cross or enter.
        crt_row: the CRT row of a defender in such a hex (hex rows only).
        at_bonus: added to a defender's Anti-Tank Points (§7.5.1.5C).
        attacker_tp_halved: the attacker's Tank Points are halved.
        blocks_zoc: no ZOC is projected into or across it.
    """

    id: Slug
    applies_to: Literal["hex", "hexside", "route"]
    leg: int | None
    motorised: int | None
    hq: int | None
    all_mp: bool
    prohibited: bool
    crt_row: Slug | None
    at_bonus: int
    attacker_tp_halved: bool
    blocks_zoc: bool
    rule: RuleRef
    source: SourceText


class NumberRow(PackModel):
    """A single number of the rules, with the section that states it."""

    id: Slug
    value: int
    rule: RuleRef
    text: Text
    source: SourceText


class SettingRow(PackModel):
    """A single non-numeric setting of the rules."""

    id: Slug
    value: Slug
    rule: RuleRef
    text: Text
    source: SourceText


class HitRule(PackModel):
    """One branch of the hit-distribution procedure (§7.5.2): what the remaining hits become.

    Attributes:
        side: who distributes. colour: the CRT number's colour. case: the EC outcome (``none`` for black).
        choice: the player's option in that case. first: the first remaining hit. rest: every further hit.
        disrupted_retreat: already Disrupted units (defender) or units that failed the EC retreat 1 hex.
    """

    id: Slug
    side: Literal["attacker", "defender"]
    colour: Literal["black", "red"]
    case: Literal["none", "all_pass", "all_fail", "mixed"]
    choice: Literal["hold", "retreat", "follow", "forced"]
    first: Literal["loss", "retreat", "forced_retreat", "none"]
    rest: Literal["loss", "retreat", "forced_retreat"]
    disrupted_retreat: bool
    rule: RuleRef
    text: Text
    source: SourceText


class TurnRow(PackModel):
    """A Game Turn of the turn track (§3.1.4, §4)."""

    number: int
    dates: Text
    days: int = Field(description="§1: a turn represents one to six days")
    admin_phase: bool = Field(description="§4, §10: the first turn skips the Admin Phase")
    axis_rp: int = Field(description="§9.3: German Panzer RPs this turn")
    cw_cannibalise: bool = Field(description="§9.3.1, §9.3.2: the Commonwealth may cannibalise this turn")
    source: SourceText


class InitiativeSpace(PackModel):
    """A space of the Initiative DRM track (§6.1)."""

    value: int
    source: SourceText


class ExampleRow(PackModel):
    """The numbers of one worked example of the rulebook, as printed (tests check them against the pack)."""

    id: Slug
    rule: RuleRef
    values: dict[Slug, int]
    text: Text


class Tables(PackModel):
    """Every table of the game (player aids A and B) and every number the rules state."""

    crt: dict[Slug, CombatTable[CrtCell]] = Field(description="§7.5.1: one table per terrain row, odds columns")
    terrain_effects: tuple[TerrainEffect, ...]
    action_points: CombatTable[ApCell] = Field(description="§6.3.1: columns are Activation Levels, rows d10")
    minefield_check: CombatTable[MineResult] = Field(description="§7.3.6: columns are unit classes")
    minefield_breach: CombatTable[BreachResult] = Field(description="§7.4: columns are hex types")
    hit_distribution: tuple[HitRule, ...]
    initiative_track: tuple[InitiativeSpace, ...]
    turns: tuple[TurnRow, ...]
    numbers: tuple[NumberRow, ...]
    settings: tuple[SettingRow, ...]
    examples: tuple[ExampleRow, ...]


REQUIRED_NUMBERS = frozenset(
    {
        "counters",
        "eff_min",
        "eff_max",
        "strength_max",
        "campaign_turns",
        "hq_per_hex",
        "axis_stack_hq",
        "axis_stack_infantry",
        "axis_stack_panzer_recce",
        "cw_stack_units",
        "cw_stack_leg_infantry",
        "cw_stack_hq_free",
        "command_path_leg",
        "command_path_motorised",
        "ap_black_max",
        "cost_movement",
        "cost_breach",
        "cost_refit",
        "cost_improved_defence",
        "cost_hasty",
        "cost_regular_extra",
        "cost_prepared_extra",
        "drm_min",
        "drm_max",
        "roll_min",
        "roll_max",
        "gt1_axis_initiative_drm",
    }
)
"""Number rows the rules module relies on: a pack missing one does not load."""


# --- scenarios ------------------------------------------------------------------------------------------------


class Placement(PackModel):
    """A unit or HQ on the map at setup (§10: Commonwealth units have fixed starting locations)."""

    unit: Slug
    hex: HexText
    assigned_to: Slug | None = Field(default=None, description="§5.5.2: an assignable unit's formation")
    source: SourceText


class FormationStart(PackModel):
    """A formation's Activation marker at setup (§6.3.2; §9.4.3 for formations that arrive later)."""

    formation: Slug
    level: int
    source: SourceText


class Reinforcement(PackModel):
    """A unit or HQ of the Reinforcements Schedule (§9.4): eligible from ``turn``, entering at ``entry``."""

    unit: Slug
    turn: int
    entry: tuple[Slug, ...] = Field(min_length=1, description="supply source ids: map-edge Major sources")
    assigned_to: Slug | None = None
    source: SourceText


class VpBand(PackModel):
    """VPs of an objective for a range of Game Turns: In Command and (Out of Command / Isolated)."""

    first_turn: int
    last_turn: int
    in_command: int
    out_of_command: int


class Objective(PackModel):
    """A Victory Hex (§10): last occupant counts at game end, or definitive once earned."""

    id: Slug
    hex: HexText
    kind: Literal["last_occupant", "definitive"]
    bands: tuple[VpBand, ...] = Field(min_length=1)
    rule: RuleRef
    source: SourceText


class VpRow(PackModel):
    """A VP award or penalty that is not a hex (§10): ``vp`` per ``per``, or once at ``threshold``."""

    id: Slug
    vp: int
    per: Literal["turn_per_source", "hq", "breached_minefield", "sp_lost", "disrupted_unit", "threshold"]
    threshold: int | None = Field(description="the SP losses at which a threshold row applies")
    when: Literal["end_of_turn", "game_end"]
    rule: RuleRef
    text: Text
    source: SourceText


class VictoryLevel(PackModel):
    """A victory level: Axis VPs from ``min_vp`` to ``max_vp`` (null: no limit)."""

    label: Text
    winner: Literal["axis", "cw", "none"]
    min_vp: int | None
    max_vp: int | None
    source: SourceText


class SpecialRule(PackModel):
    """A scenario special rule as data (§10; Scenarios 2 and 3: "see setup display").

    Attributes:
        kind: ``only_formation`` (only ``formation`` activates), ``max_activations`` (``value``),
            ``hq_always_supplied``, ``static_side`` (``side`` never acts), ``air_missions`` (``value`` missions
            with ``air``), ``no_reinforcements``, ``restricted_until_turn`` (``formation`` may not activate
            before ``value``), ``restricted_until_contact`` (``formation`` may not activate until an enemy
            combat unit is within ``value`` hexes of one of its units), ``schwerpunkt_at_start``.
    """

    id: Slug
    kind: Literal[
        "only_formation",
        "max_activations",
        "hq_always_supplied",
        "static_side",
        "air_missions",
        "no_reinforcements",
        "restricted_until_turn",
        "restricted_until_contact",
        "schwerpunkt_at_start",
    ]
    formation: Slug | None = None
    side: Side | None = None
    value: int | None = None
    air: tuple[Slug, ...] = ()
    rule: RuleRef
    text: Text
    source: SourceText


class Scenario(PackModel):
    """A scenario of §10 with its setup display."""

    id: Slug
    number: RuleRef
    name: Text
    first_turn: int
    last_turn: int
    solitaire: bool
    air_units: tuple[Slug, ...] = Field(description="Axis air units in play (Available at start)")
    placements: tuple[Placement, ...]
    formations: tuple[FormationStart, ...]
    reinforcements: tuple[Reinforcement, ...]
    objectives: tuple[Objective, ...]
    vp_rows: tuple[VpRow, ...]
    levels: tuple[VictoryLevel, ...]
    automatic_victory_hex: HexText | None
    special_rules: tuple[SpecialRule, ...]
    source: SourceText


# --- the pack -------------------------------------------------------------------------------------------------


class Derived:
    """Structures derived from a loaded pack and kept on it (the board's adjacency, TEC by id…), built on first use.

    Not part of the pack's value: any two compare equal, so building them never changes ``pack == other``.
    """

    __slots__ = ("board", "grid")

    def __init__(self) -> None:
        self.board: object = None
        self.grid: HexMap | None = None
        """The map the cross-checks built, handed on to the board so that a load builds it once."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Derived)

    __hash__ = None  # type: ignore[assignment]


class Lookups:
    """A pack's records by id (the first of each id, as :func:`by_id` finds it), and its scenarios' special rules by
    kind: the rules read them many times per action. Built once per pack (:attr:`GazalaPack.lookups`)."""

    def __init__(self, pack: GazalaPack):
        self.units: dict[str, Unit] = _by_id(pack.units)
        self.hqs: dict[str, Hq] = _by_id(pack.hqs)
        self.hq_of: dict[str, Hq] = {}
        for hq in pack.hqs:
            self.hq_of.setdefault(hq.formation, hq)
        self.formations: dict[str, Formation] = _by_id(pack.formations)
        self.chits: dict[str, Chit] = _by_id(pack.chits)
        self.scenarios: dict[str, Scenario] = _by_id(pack.scenarios)
        self.numbers: dict[str, int] = {k: row.value for k, row in _by_id(pack.tables.numbers).items()}
        self.settings: dict[str, str] = {k: row.value for k, row in _by_id(pack.tables.settings).items()}
        self.terrain_effects: dict[str, TerrainEffect] = _by_id(pack.tables.terrain_effects)
        rules: dict[tuple[str, str], list[SpecialRule]] = {}
        for scenario in pack.scenarios:
            for rule in scenario.special_rules:
                rules.setdefault((scenario.id, rule.kind), []).append(rule)
        self.special_rules: dict[tuple[str, str], tuple[SpecialRule, ...]] = {k: tuple(v) for k, v in rules.items()}


def _by_id(rows: Iterable[Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for row in rows:
        found.setdefault(row.id, row)
    return found


class GazalaPack(PackModel):
    """The whole data pack. Build it with :func:`load_pack`, which also runs the cross-checks."""

    meta: PackMeta
    map: HexMapData
    minefields: tuple[Minefield, ...]
    boxes: tuple[Box, ...]
    routes: tuple[Route, ...]
    escarpments: tuple[Escarpment, ...]
    supply_sources: tuple[SupplySource, ...]
    tobruk: Tobruk
    formations: tuple[Formation, ...]
    hqs: tuple[Hq, ...]
    units: tuple[Unit, ...]
    air_units: tuple[AirUnit, ...]
    markers: tuple[Marker, ...]
    chits: tuple[Chit, ...]
    tables: Tables
    scenarios: tuple[Scenario, ...]
    _derived: Derived = PrivateAttr(default_factory=lambda: Derived())
    """The per-pack structures of :func:`pbem.games.gazala.board.board_of`, built once on first use."""

    @property
    def derived(self) -> Derived:
        """The per-pack structures (:class:`Derived`), read without pydantic's slower lookup of private attributes
        (the rules read the pack's records by id many times per action)."""
        private = self.__pydantic_private__
        assert private is not None
        derived: Derived = private["_derived"]
        return derived

    @cached_property
    def lookups(self) -> Lookups:
        """The pack's records by id (:class:`Lookups`), built on first use (a copy builds its own)."""
        return Lookups(self)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy, without this pack's :attr:`lookups` (the copy may hold other records)."""
        copied = super().model_copy(update=update, deep=deep)
        copied.__dict__.pop("lookups", None)
        return copied

    def formation(self, ident: str) -> Formation:
        """The formation ``ident``; KeyError if there is none."""
        return self.lookups.formations[ident]

    def unit(self, ident: str) -> Unit:
        """The combat unit ``ident``; KeyError if there is none."""
        return self.lookups.units[ident]

    def find_unit(self, ident: str) -> Unit | None:
        """The combat unit ``ident``, or None (an HQ's id, say)."""
        return self.lookups.units.get(ident)

    def special_rules(self, scenario: str, kind: str) -> tuple[SpecialRule, ...]:
        """The special rules of ``kind`` of scenario ``scenario`` (KeyError for an unknown scenario), in pack order."""
        lookups = self.lookups
        if scenario not in lookups.scenarios:
            raise KeyError(scenario)
        return lookups.special_rules.get((scenario, kind), ())

    def hq(self, ident: str) -> Hq:
        """The HQ ``ident``; KeyError if there is none."""
        return self.lookups.hqs[ident]

    def hq_of(self, formation: str) -> Hq:
        """The HQ of a formation; KeyError if it has none."""
        return self.lookups.hq_of[formation]

    def side_of(self, ident: str) -> Side:
        """The side of a combat unit or HQ; KeyError if neither has that id."""
        unit = self.find_unit(ident)
        if unit is not None:
            return unit.side
        return self.formation(self.hq(ident).formation).side

    def chit(self, ident: str) -> Chit:
        """The chit ``ident`` (``"21"``, ``"a10"``); KeyError if there is none."""
        return self.lookups.chits[ident]

    def scenario(self, ident: str) -> Scenario:
        """The scenario ``ident``; KeyError if there is none."""
        return self.lookups.scenarios[ident]

    def number(self, ident: str) -> int:
        """The value of ``tables.numbers`` row ``ident``; KeyError if there is none."""
        return self.lookups.numbers[ident]

    def setting(self, ident: str) -> str:
        """The value of ``tables.settings`` row ``ident``; KeyError if there is none."""
        return self.lookups.settings[ident]

    def example(self, ident: str) -> dict[str, int]:
        """The numbers of worked example ``ident``; KeyError if there is none."""
        return by_id(self.tables.examples, ident).values

    def terrain_effect(self, ident: str) -> TerrainEffect:
        """The TEC row ``ident``; KeyError if there is none."""
        return self.lookups.terrain_effects[ident]

    def place(self, name: str) -> HexId:
        """The hex carrying the name ``name`` on the map; KeyError if none does."""
        for record in self.map.hexes:
            if name in record.names:
                return HexId(record.id)
        raise KeyError(name)

    def minefield(self, hex_id: str) -> Minefield | None:
        """The Minefield record of a hex, or None."""
        return next((m for m in self.minefields if m.hex == hex_id), None)


# --- loading --------------------------------------------------------------------------------------------------


def _fail(message: str) -> NoReturn:
    datapack.fail(GAME_ID, message)


def _unique(ids: Iterable[str], what: str) -> None:
    datapack.require_unique(GAME_ID, ids, what)


# --- cross-checks ---------------------------------------------------------------------------------------------


def _cross_check(pack: GazalaPack) -> None:
    """What the schema cannot say. Steps run in order; the first failure raises R006."""
    # (1) The pack belongs to this game.
    if pack.meta.game != GAME_ID:
        _fail(f"meta.game is {pack.meta.game!r}, expected {GAME_ID!r}")
    # (2) The map: it builds, its terrain is the rulebook's, and every hex reaches every other.
    grid = HexMap.from_pack(pack.map, game=GAME_ID)
    _check_map(pack, grid)
    # (3) Minefields, Boxes, supply sources and the Tobruk perimeter lie on the map and agree with its features.
    _check_overlays(pack, grid)
    # (4) Named roads, trails, ridges and wadis follow the map's hexside features, and every such hexside is named.
    _check_named_features(pack, grid)
    # (5) Formations, HQs, units and air units: ids, references, values within the rulebook's ranges.
    _check_counters(pack)
    # (6) The chits: 29 numbered ones and the optional replacements, multipliers 1..3.
    _check_chits(pack)
    # (7) The tables: required numbers, CRT rows per terrain, the turn track.
    _check_tables(pack)
    # (8) Scenarios: units and hexes exist, nobody is placed twice, setup stacking holds.
    _check_scenarios(pack, grid)
    # (9) The board the rules use builds on this map (kept on the pack: a load builds the map once).
    pack.derived.grid = grid
    from pbem.games.gazala.board import board_of  # the board module reads this one: imported when a pack loads

    board_of(pack)


def _check_map(pack: GazalaPack, grid: HexMap) -> None:
    for record in pack.map.hexes:
        if record.terrain is not None and record.terrain not in HEX_TERRAINS:
            _fail(f"map hex {record.id!r}: terrain {record.terrain!r} is not one of {', '.join(HEX_TERRAINS)}")
    if pack.map.terrain not in HEX_TERRAINS:
        _fail(f"map: default terrain {pack.map.terrain!r} is not one of {', '.join(HEX_TERRAINS)}")
    known = {row.id for row in pack.tables.terrain_effects if row.applies_to == "hexside"}
    known |= {row.id for row in pack.tables.terrain_effects if row.applies_to == "route"}
    for edge in pack.map.hexsides:
        for feature in edge.features:
            if feature not in known:
                _fail(f"map hexside {edge.a}/{edge.b}: feature {feature!r} has no Terrain Effects Chart row")
    passable = {
        key for key, side in grid.hexsides.items() if not any(pack.terrain_effect(f).prohibited for f in side.features)
    }
    start = grid.hexes[0]
    reached = {start}
    frontier = [start]
    while frontier:
        here = frontier.pop()
        for there, side in grid.sides(here):
            if there not in reached and side.id in passable:
                reached.add(there)
                frontier.append(there)
    if len(reached) != len(grid):
        cut = sorted(set(grid.hexes) - reached)
        _fail(f"map: {len(cut)} hex(es) cannot be reached from {start}, e.g. {cut[:5]}")


def _check_overlays(pack: GazalaPack, grid: HexMap) -> None:
    _unique((m.hex for m in pack.minefields), "minefield hex")
    _unique((b.id for b in pack.boxes), "box")
    boxes = {b.id for b in pack.boxes}
    used_boxes: set[str] = set()
    for mine in pack.minefields:
        where = f"minefield {mine.hex!r}"
        if mine.hex not in grid:
            _fail(f"{where}: not a hex of the map")
        features = grid.features(HexId(mine.hex))
        if "minefield" not in features:
            _fail(f"{where}: its map record lacks the feature 'minefield'")
        if (mine.box is not None) != ("box" in features):
            _fail(f"{where}: field 'box' and the map feature 'box' must agree (every Box hex is a Minefield, §3.1.3)")
        if mine.box is not None:
            if mine.box not in boxes:
                _fail(f"{where}: field 'box' names the unknown box {mine.box!r}")
            if mine.owner != "cw":
                _fail(f"{where}: Boxes are Commonwealth (§5.7.3)")
            used_boxes.add(mine.box)
    mined = {m.hex for m in pack.minefields}
    for record in pack.map.hexes:
        if ("minefield" in record.features or "box" in record.features) and record.id not in mined:
            _fail(f"map hex {record.id!r}: feature minefield/box without a minefields record")
    for box in pack.boxes:
        if box.id not in used_boxes:
            _fail(f"box {box.id!r}: no Box hex belongs to it")
    _unique((s.id for s in pack.supply_sources), "supply source")
    last_col = pack.map.cols[1]
    for source in pack.supply_sources:
        where = f"supply source {source.id!r}"
        if source.hex not in grid:
            _fail(f"{where}: hex {source.hex!r} is not on the map")
        col = grid.offset(source.hex)[0]
        if source.entry:
            edge = pack.map.cols[0] if source.side == "axis" else last_col
            if col != edge or source.kind != "major":
                _fail(f"{where}: an entry source is a Major source on the friendly map edge, column {edge} (§9.4.1)")
        if source.kind == "tobruk" and source.hex != pack.tobruk.hex:
            _fail(f"{where}: the Tobruk supply source is the Tobruk hex {pack.tobruk.hex} (§5.7.3)")
    for side in ("axis", "cw"):
        if not any(s.side == side and s.entry for s in pack.supply_sources):
            _fail(f"supply sources: the {side} side has no map-edge Major source (§9.4.1)")
    tob = pack.tobruk
    if tob.hex not in grid:
        _fail(f"tobruk: hex {tob.hex!r} is not on the map")
    line = tob.perimeter
    if len(line) < 2 or len(set(line)) != len(line):
        _fail("tobruk: the perimeter is a line of distinct hexes")
    for a, b in itertools.pairwise(line):
        if a not in grid or b not in grid or grid.hexside(HexId(a), HexId(b)) is None:
            _fail(f"tobruk: perimeter hexes {a} and {b} are not neighbours on the map (§5.7.3: connected)")
    for hex_id in line:
        found = pack.minefield(hex_id)
        if found is None or found.owner != "cw":
            _fail(f"tobruk: perimeter hex {hex_id} is not a Commonwealth Minefield hex (§5.7.3)")
    inside = set(tob.inside)
    if tob.hex not in inside or inside & set(line):
        _fail("tobruk: 'inside' holds the Tobruk hex and no perimeter hex")
    for hex_id in inside:
        if hex_id not in grid:
            _fail(f"tobruk: inside hex {hex_id!r} is not on the map")
        for there in grid.neighbours(HexId(hex_id)):
            if there not in inside and there not in line:
                _fail(f"tobruk: inside hex {hex_id} touches {there}, outside the perimeter: the line has a gap")


def _check_named_features(pack: GazalaPack, grid: HexMap) -> None:
    _unique((r.id for r in pack.routes), "route")
    _unique((e.id for e in pack.escarpments), "escarpment")
    named: set[str] = set()
    for route in pack.routes:
        accepted = {"road"} if route.kind == "road" else {"road", "trail"}  # a trail may run along a road
        for a, b in itertools.pairwise(route.hexes):
            side = grid.hexside(HexId(a), HexId(b)) if a in grid and b in grid else None
            if side is None or side.features.isdisjoint(accepted):
                _fail(f"route {route.id!r}: {a} to {b} is not a {route.kind} hexside of the map")
            named.add(side.id)
    for escarpment in pack.escarpments:
        for key in escarpment.hexsides:
            side = grid.hexsides.get(key)  # type: ignore[call-overload]
            if side is None or not side.has(escarpment.kind):
                _fail(f"escarpment {escarpment.id!r}: {key} is not a {escarpment.kind} hexside of the map")
            named.add(key)
    for key, side in grid.hexsides.items():
        if side.has("road", "trail", "ridge", "wadi") and key not in named:
            _fail(f"map hexside {key}: its {sorted(side.features)} belong to no named route or escarpment")


def _check_counters(pack: GazalaPack) -> None:
    _unique((f.id for f in pack.formations), "formation")
    _unique((h.id for h in pack.hqs), "hq")
    _unique([*(u.id for u in pack.units), *(h.id for h in pack.hqs)], "unit or hq")
    _unique((a.id for a in pack.air_units), "air unit")
    _unique((m.id for m in pack.markers), "marker")
    formations = {f.id: f for f in pack.formations}
    eff_min, eff_max, strength_max = pack.number("eff_min"), pack.number("eff_max"), pack.number("strength_max")
    for formation in pack.formations:
        where = f"formation {formation.id!r}"
        if sum(1 for h in pack.hqs if h.formation == formation.id) != 1:
            _fail(f"{where}: a formation has exactly one HQ (§5.5.1)")
        if not 1 <= formation.recovery <= formation.max_level:
            _fail(f"{where}: field 'recovery' must be 1..max_level")
        if formation.leg_infantry_division and (formation.side != "cw" or formation.kind != "infantry"):
            _fail(f"{where}: only Commonwealth infantry divisions take assigned independents (§5.5.2)")
    for hq in pack.hqs:
        where = f"hq {hq.id!r}"
        if hq.formation not in formations:
            _fail(f"{where}: field 'formation' names the unknown formation {hq.formation!r}")
        if hq.engineer > 0:
            _fail(f"{where}: field 'engineer' is a DRM, zero or negative (§7.3.6)")
        if not 0 <= hq.support <= strength_max or not 1 <= hq.reaction <= 10:
            _fail(f"{where}: fields 'support' (0..{strength_max}) or 'reaction' (1..10) out of range")
        if hq.command_range < 1 or hq.ma < 1:
            _fail(f"{where}: fields 'command_range' and 'ma' are at least 1")
    for unit in pack.units:
        where = f"unit {unit.id!r}"
        for eff in (unit.eff.front, unit.eff.disrupted):
            if not eff_min <= eff <= eff_max:
                _fail(f"{where}: field 'eff' {eff} is outside {eff_min}..{eff_max} (§3.2e)")
        if unit.eff.disrupted >= unit.eff.front:
            _fail(f"{where}: field 'eff' is lower on the Disrupted side (§5.6.3)")
        if unit.armour_points.disrupted > unit.armour_points.front or unit.armour_points.disrupted < 0:
            _fail(f"{where}: field 'armour_points' is fewer (or equal at 0) on the Disrupted side (§5.6.3)")
        if not 1 <= unit.cs <= strength_max:
            _fail(f"{where}: field 'cs' {unit.cs} is outside 1..{strength_max} (§3.5)")
        if unit.ma < 1:
            _fail(f"{where}: field 'ma' is at least 1")
        if (unit.armour == "tp") != (unit.is_tank or unit.is_recce):
            _fail(f"{where}: field 'armour' is 'tp' exactly for AFV-type units (§3.2g)")
        if unit.independent == "no":
            parent = formations.get(unit.formation or "")
            if parent is None:
                _fail(f"{where}: field 'formation' must name a formation of the pack")
            if parent.side != unit.side:
                _fail(f"{where}: its formation {parent.id!r} belongs to the other side")
            if unit.assign_to:
                _fail(f"{where}: field 'assign_to' is only for assignable independent units")
            if unit.loss_group != parent.loss_group:
                _fail(f"{where}: field 'loss_group' must follow its formation's (§10.3)")
        else:
            if unit.formation is not None:
                _fail(f"{where}: an independent unit has no formation stripe (field 'formation' null)")
            if (unit.independent == "assignable") != bool(unit.assign_to):
                _fail(f"{where}: field 'assign_to' lists formations exactly for assignable units (§5.5.2)")
        for target in unit.assign_to:
            joined = formations.get(target)
            if joined is None or joined.side != unit.side:
                _fail(f"{where}: field 'assign_to' names {target!r}, not a formation of its side")
            if unit.side == "cw" and not joined.leg_infantry_division:
                _fail(f"{where}: Commonwealth independents join only leg infantry divisions (§5.5.2)")
        if unit.no_combined_arms and not unit.is_tank:
            _fail(f"{where}: field 'no_combined_arms' marks tank units only (§3.2l)")
        if unit.is_heavy_tank and (unit.movement != "leg" or unit.ma != 3 or not unit.no_combined_arms):
            _fail(f"{where}: a heavy tank has MA 3 (§5.8) and no Combined Arms bonus (§7.5.1.3)")
        if unit.cannibalise is not None and unit.side != "cw":
            _fail(f"{where}: only Commonwealth units are cannibalised (§9.3)")
        if unit.half_brigade and unit.nationality != "free_french":
            _fail(f"{where}: only the Free French half-brigades are half-brigades (§5.3.1)")
        if unit.type == "flak88" and not unit.no_zoc:
            _fail(f"{where}: German FLAK units project no ZOC (§5.4)")


def _check_chits(pack: GazalaPack) -> None:
    _unique((c.id for c in pack.chits), "chit")
    numbered = sorted(c.number for c in pack.chits if not c.alternate)
    if numbered != list(range(1, CHIT_COUNT + 1)):
        _fail(f"chits: the standard chits must be numbered 1..{CHIT_COUNT} once each (§7.5.1.2)")
    standard = {c.number for c in pack.chits if not c.alternate}
    for chit in pack.chits:
        where = f"chit {chit.id!r}"
        if chit.alternate and chit.number not in standard:
            _fail(f"{where}: an alternate chit replaces a standard chit of the same number")
        if chit.low.effectiveness != (2, 3, 4) or chit.high.effectiveness != (5, 6, 7):
            _fail(f"{where}: faces are for Effectiveness 2-3-4 and 5-6-7 (§7.5.1.2)")
        for face in (chit.low, chit.high):
            for row in face.multipliers:
                if any(not 1 <= m <= 3 for m in row):
                    _fail(f"{where}: multipliers are 1..3 (§7.5.1.2)")


def _check_tables(pack: GazalaPack) -> None:
    t = pack.tables
    _unique((row.id for row in t.numbers), "tables.numbers row")
    _unique((row.id for row in t.settings), "tables.settings row")
    _unique((row.id for row in t.terrain_effects), "tables.terrain_effects row")
    _unique((row.id for row in t.hit_distribution), "tables.hit_distribution row")
    _unique((row.id for row in t.examples), "tables.examples row")
    missing = sorted(REQUIRED_NUMBERS - {row.id for row in t.numbers})
    if missing:
        _fail(f"tables.numbers lacks the row(s) {', '.join(missing)}")
    if set(t.crt) != set(CRT_TERRAINS):
        _fail(f"tables.crt must have exactly the terrain rows {', '.join(CRT_TERRAINS)} (§3.1.1)")
    for terrain, crt in t.crt.items():
        if crt.kind != "odds" or crt.below != "5/0":
            _fail(f"tables.crt[{terrain!r}]: odds columns, and below the leftmost column the result is 5/0 (§7.5.1)")
        first, last = crt.rows[0].rolls, crt.rows[-1].rolls
        if not first.startswith("1") or not last.endswith("20"):
            _fail(f"tables.crt[{terrain!r}]: rows run from roll 1 to 20 (§7.5.1.5)")
    rows = {row.id: row for row in t.terrain_effects}
    for terrain in HEX_TERRAINS:
        row = rows.get(terrain)
        if row is None or row.applies_to != "hex" or row.crt_row not in t.crt:
            _fail(f"tables.terrain_effects: the hex terrain {terrain!r} needs a hex row naming a CRT row")
    for row in t.terrain_effects:
        costs = (row.leg, row.motorised, row.hq)
        fixed = row.all_mp or row.prohibited
        if any((c is None) != fixed for c in costs) or any(c is not None and c < 1 for c in costs):
            _fail(f"tables.terrain_effects row {row.id!r}: give positive costs, or all_mp / prohibited and no costs")
    black_max = pack.number("ap_black_max")
    for ap_row in t.action_points.rows:
        for cell in ap_row.results:
            if not 0 <= cell.red <= cell.black <= black_max:
                _fail(f"tables.action_points row {ap_row.rolls!r}: 0 <= red <= black <= {black_max} (§6.3.1)")
    numbers = [row.number for row in t.turns]
    if numbers != list(range(1, pack.number("campaign_turns") + 1)):
        _fail(f"tables.turns must number 1..{pack.number('campaign_turns')} (§4)")
    if [row.admin_phase for row in t.turns] != [False] + [True] * (len(numbers) - 1):
        _fail("tables.turns: only the first turn skips the Admin Phase (§4, §10)")
    if not t.initiative_track or t.initiative_track[0].value != 0 or len(t.initiative_track) < 2:
        _fail("tables.initiative_track starts 0, +2 (§6.1)")
    if t.initiative_track[1].value != 2:
        _fail("tables.initiative_track: the first space after 0 is +2 (§6.1)")


def _check_scenarios(pack: GazalaPack, grid: HexMap) -> None:
    _unique((s.id for s in pack.scenarios), "scenario")
    counters = {u.id: u for u in pack.units}
    hqs = {h.id: h for h in pack.hqs}
    formations = {f.id for f in pack.formations}
    sources = {s.id: s for s in pack.supply_sources}
    air = {a.id for a in pack.air_units}
    last_turn = pack.number("campaign_turns")
    for scenario in pack.scenarios:
        name = f"scenario {scenario.id!r}"
        if not 1 <= scenario.first_turn <= scenario.last_turn <= last_turn:
            _fail(f"{name}: turns must lie within 1..{last_turn}")
        for ident in scenario.air_units:
            if ident not in air:
                _fail(f"{name}: air_units names the unknown air unit {ident!r}")
        placed: set[str] = set()
        stacks: dict[str, list[str]] = {}
        for place in scenario.placements:
            where = f"{name} placement of {place.unit!r}"
            if place.unit not in counters and place.unit not in hqs:
                _fail(f"{where}: no unit or HQ has that id")
            if place.unit in placed:
                _fail(f"{where}: placed twice")
            placed.add(place.unit)
            if place.hex not in grid:
                _fail(f"{where}: hex {place.hex!r} is not on the map")
            mine = pack.minefield(place.hex)
            if mine is not None and mine.owner != pack.side_of(place.unit):
                _fail(f"{where}: sets up in an unbreached enemy Minefield {place.hex} (§7.3.6)")
            _check_assignment(pack, where, place.unit, place.assigned_to)
            stacks.setdefault(place.hex, []).append(place.unit)
        for hex_id, stack in stacks.items():
            _check_stack(pack, f"{name} hex {hex_id}", stack)
        for rein in scenario.reinforcements:
            where = f"{name} reinforcement {rein.unit!r}"
            if rein.unit not in counters and rein.unit not in hqs:
                _fail(f"{where}: no unit or HQ has that id")
            if rein.unit in placed:
                _fail(f"{where}: already placed at setup")
            placed.add(rein.unit)
            if not scenario.first_turn < rein.turn <= scenario.last_turn:
                _fail(f"{where}: turn {rein.turn} is not a later turn of the scenario (§9.4)")
            side = pack.side_of(rein.unit)
            for ident in rein.entry:
                source = sources.get(ident)
                if source is None or not source.entry or source.side != side:
                    _fail(f"{where}: entry {ident!r} is not a friendly map-edge Major source (§9.4.1)")
            _check_assignment(pack, where, rein.unit, rein.assigned_to)
        for start in scenario.formations:
            if start.formation not in formations:
                _fail(f"{name}: formations names the unknown formation {start.formation!r}")
            if start.level < 0:
                _fail(f"{name}: formation {start.formation!r} starts below level 0")
        for objective in scenario.objectives:
            if objective.hex not in grid:
                _fail(f"{name} objective {objective.id!r}: hex {objective.hex!r} is not on the map")
        for rule in scenario.special_rules:
            if rule.formation is not None and rule.formation not in formations:
                _fail(f"{name} special rule {rule.id!r}: unknown formation {rule.formation!r}")
            for ident in rule.air:
                if ident not in scenario.air_units:
                    _fail(f"{name} special rule {rule.id!r}: air unit {ident!r} is not in the scenario")
        if scenario.automatic_victory_hex is not None and scenario.automatic_victory_hex not in grid:
            _fail(f"{name}: automatic_victory_hex is not on the map")


def _check_assignment(pack: GazalaPack, where: str, ident: str, assigned: str | None) -> None:
    unit = next((u for u in pack.units if u.id == ident), None)
    if assigned is None:
        return
    if unit is None or unit.independent != "assignable" or assigned not in unit.assign_to:
        _fail(f"{where}: cannot be assigned to {assigned!r} (§5.5.2)")


def _check_stack(pack: GazalaPack, where: str, stack: list[str]) -> None:
    """§5.3.1 stacking at setup (HQs: one per hex, §3.3), by the rules' own :func:`.stacking.stacking`."""
    verdict = stacking(pack, stack)
    if not verdict.ok:
        _fail(f"{where}: {verdict.message} (§{verdict.rule})")


FORMAT = datapack.PackFormat(game=GAME_ID, model=GazalaPack, package="pbem.games.gazala", cross_checks=(_cross_check,))
"""The Operation Theseus: Gazala 1942 pack format (registered under ``pbem.packs``)."""
load_pack = FORMAT.load
default_pack_bytes = FORMAT.bundled
pack_schema = FORMAT.schema
