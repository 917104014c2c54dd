"""Gazala combat (§7.5): the participants, battle strengths, the odds, the CRT with its shifts, DRMs and results.

Pure, deterministic functions over typed inputs. The rules module keeps the state; this library never rolls or
draws: every die face and every chit drawn is an argument, and each step says what it needs.

The Combat Action sequence (§7.5.1, A-I), where each step lives and the dice or chits it needs (the ruleset
rolls and draws them; 0 on a d10 reads 10, §3.9):

* A. declaration and AP cost; an Isolated participant's EC (1 d10 each): :mod:`.combat_declare`
  (``check_declaration``, ``attack_cost``, ``isolated_check``);
* B. Retreat before Combat (1 d10 for the attacker, then 1 d10 for the defender, each plus the DRM of a unit the
  side names) and its free move: :mod:`.combat_declare` (``check_rbc``, ``rbc_bonus_options``, ``rbc_succeeds``,
  ``check_rbc_move``);
* C. escalation: :mod:`.combat_declare` (``escalation_cost``, ``check_escalation``);
* D. the chits: two distinct chits of the pool of 29 (a d29 for the attacker, then a d28 among the rest; or two
  cards of a 29-card deck), returned after the combat, never re-drawn by SNAFU: :mod:`.combat_chits`;
* E. battle strengths (:func:`attack_strength`, :func:`defence_strength`), Combined Arms (:func:`combined_arms`);
  F. Axis air (:func:`check_air`, :func:`air_shift`); the shifts as terms (:func:`shift_terms`): this module;
* G. the five DRMs and the decisions they need (Lead Formation, Tank or Anti-Tank Points, tied units):
  :mod:`.combat_drm`; their total (:func:`final_drm`);
* H. the attacker's 1 d10 (:func:`modified_roll`) on the CRT (:func:`crt_lookup`, :func:`parse_result`);
  :func:`resolve` runs E-H in one call;
* I. hit distribution, the defender's first (a red number: 1 d10 per unit of the stack for its EC, in the order
  of ``ec_rollers``): :mod:`.combat_hits`; retreat paths, overstacking, displacements by the opponent (§5.3.3; by
  the owner when nothing can be displaced, §5.3.1), HQs left alone by the combat or surplus in a hex, displaced by
  their owner with their penalties (§7.5, §5.3.2): :mod:`.combat_displace`; Battle Victory bonus APs and the
  SNAFU re-roll check (any one opponent d10 while it is the latest roll): :mod:`.combat_victory`.

Ambiguities of the rulebook are :class:`CombatOptions` fields whose defaults are the engineering notes'
recommendations (§10 of the notes); the ruleset maps its genesis options onto them.

Example (the rulebook's combat example, §7.5.1: 3 RTR/4 and 7th Inf Bde attack 104, 3 and 18 FLAK in Broken):

    >>> from pbem.games.gazala import default_pack_bytes, load_pack
    >>> pack = load_pack(default_pack_bytes())
    >>> att = tuple(Combatant(pack.unit(u), s, formation="7armd") for u, s in (("3rtr-4", 4), ("7mot", 12)))
    >>> dfn = tuple(Combatant(pack.unit(u), s, formation="21pz") for u, s in (("104", 9), ("3", 2), ("18-flak", 2)))
    >>> ground = Ground(crt_row="broken", at_bonus=1, tp_halved=False, improved=False)
    >>> d = defence_strength(pack, dfn, pack.chit("21"), ground)
    >>> d.total
    37
    >>> combined_arms(att), combined_arms(dfn)
    (True, False)
    >>> a = attack_strength(pack, att, pack.chit("1"), "regular")
    >>> a.total
    32
    >>> found = crt_lookup(pack, ground, a.total, d.total, modified_roll(pack, 10, -4), shift=1)
    >>> (found.base, found.column, found.result)
    ('2:3', '1:1', '2!/1!')
    >>> parse_result(found.result)
    Result(attacker=2, attacker_ec=True, defender=1, defender_ec=True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic_core import to_jsonable_python

from pbem.games.gazala.board import Situation, attacker_tp_halved, defender_terrain
from pbem.games.gazala.data import Chit, GazalaPack, Side, Unit
from pbem.games.gazala.paths import command
from pbem.kit.hexes import HexId
from pbem.kit.tables import Lookup, Term, Total
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "ATTACK_KINDS",
    "DEFAULT_OPTIONS",
    "INFANTRY_KINDS",
    "MOTORISED_INFANTRY",
    "AttackKind",
    "BattleStrength",
    "CombatOptions",
    "Combatant",
    "Ground",
    "Resolution",
    "Result",
    "UnitStrength",
    "air_limit",
    "air_shift",
    "attack_strength",
    "check_air",
    "chit_column",
    "combatant",
    "combined_arms",
    "crt_lookup",
    "defence_strength",
    "final_drm",
    "ground",
    "modified_roll",
    "parse_result",
    "resolve",
    "shift_terms",
]

AttackKind = Literal["hasty", "regular", "prepared"]
ATTACK_KINDS: tuple[AttackKind, ...] = ("hasty", "regular", "prepared")
"""§7.1, §7.5.1 C: a Combat Action is a Hasty Attack, escalated to Regular (+1 AP) or Prepared (+2 AP)."""

INFANTRY_KINDS = frozenset({"infantry", "mot_infantry", "panzergrenadier"})
"""§7.5.1.2: "infantry type" units: "(leg, motorised, or armoured infantry/ Panzergrenadier)". Engineers are not:
the parenthesis lists the kinds, and §5.3.1 counts "Flak/engineer units" apart from infantry (only the breach of
§7.4 lets engineers act as infantry, by its example)."""
MOTORISED_INFANTRY = frozenset({"mot_infantry", "panzergrenadier"})
"""§7.5.1.3, §7.5.1.5 C: motorised and armoured infantry (Panzergrenadier)."""

LEFT, CENTRE, RIGHT = 0, 1, 2
"""Chit columns (§7.5.1.2): attacker Hasty | Regular | Prepared; defender Disrupted | Regular | Improved."""


@dataclass(frozen=True)
class CombatOptions:
    """The rulebook's combat ambiguities, as the ruleset's genesis options set them (defaults: the notes' rulings).

    Attributes:
        oos_halves_defence: §5.7.5 against §7.5.1.2 (notes §10 A5): an unsupplied unit's strength is halved when it
            defends too. Default False: halved when attacking only ("still defend at normal strength").
        armour_negative_with_at: §7.5.1.5 C against the combat example (notes §10 A3): a defender using Anti-Tank
            Points that outnumber the attacker's Tank Points gets the difference as a negative DRM. Default False:
            the rule text (no Armour Superiority); True reproduces the example's -6.
        combined_arms_stack: §7.5.1.3 is silent on whether the attacker's pair must take part (notes §10 B12).
            Default False: participating attackers only; True: any pair in the attacking hex.
        hq_support_any: §7.5.1.5 B with a partly Out of Command stack (notes §10 B11). Default False: every
            participant In Command; True: one In Command participant is enough.
    """

    oos_halves_defence: bool = False
    armour_negative_with_at: bool = False
    combined_arms_stack: bool = False
    hq_support_any: bool = False


DEFAULT_OPTIONS = CombatOptions()
"""The recommended rulings."""


@dataclass(frozen=True)
class Combatant:
    """A combat unit taking part in a combat, with what the state knows of it.

    Attributes:
        unit: its counter (values from the pack). strength: its current combat strength (Strength Points).
        disrupted: it shows its Disrupted side (§5.6.3: lower Effectiveness and Tank/AT Points).
        formation: the formation it belongs to (its stripe or its assignment, §5.5); None: an unassigned
            independent unit.
        in_command: it is in Command Range of its parent HQ (§5.8); unassigned independents count as in command.
        supplied: its formation's HQ (an unassigned independent: the unit itself) is in supply (§5.7.5).
        isolated: it is Isolated (§5.8.4).
    """

    unit: Unit
    strength: int
    disrupted: bool = False
    formation: str | None = None
    in_command: bool = True
    supplied: bool = True
    isolated: bool = False

    @property
    def id(self) -> str:
        return self.unit.id

    @property
    def eff(self) -> int:
        """The current Effectiveness Rating (the Disrupted side's when Disrupted)."""
        return self.unit.eff.disrupted if self.disrupted else self.unit.eff.front

    @property
    def armour_points(self) -> int:
        """The current Tank or Anti-Tank Points (§3.2g; fewer on the Disrupted side)."""
        return self.unit.armour_points.disrupted if self.disrupted else self.unit.armour_points.front

    @property
    def unassigned(self) -> bool:
        """An independent unit not assigned to a formation (§5.5.2)."""
        return self.formation is None


def combatant(sit: Situation, unit: str, strength: int, *, supplied: bool) -> Combatant:
    """The :class:`Combatant` of a combat unit on the board: its counter, Disrupted status and formation (its stripe
    or assignment) from the position, its command state by :func:`~.paths.command` (§5.8); ``strength`` its current
    combat strength and ``supplied`` the supply status the state recorded at the last check (§5.7.1: of its
    formation's HQ, or of the unit itself when it is an unassigned independent)."""
    state = command(sit, unit).state
    return Combatant(
        unit=sit.board.units[unit],
        strength=strength,
        disrupted=unit in sit.position.disrupted,
        formation=sit.formation(unit),
        in_command=state == "in-command",
        supplied=supplied,
        isolated=state == "isolated",
    )


@dataclass(frozen=True)
class Ground:
    """Where a combat is fought, as the CRT, the chits and Armour Superiority see it (§3.1, TEC).

    Attributes:
        crt_row: the CRT row of the defender's hex (``clear``, ``broken``, ``hill``, ``minefield``, ``tobruk``).
        at_bonus: the TEC's Anti-Tank bonus of the defender's hex (§7.5.1.5 C).
        tp_halved: the attacker's Tank Points are halved (a Ridge or Wadi hexside, an unbreached Minefield…).
        improved: the defender has Improved Defence, or holds an unbreached friendly Minefield or Box hex
            (§7.5.1.2, §7.7: always Improved Defence).
        friendly_minefield: the defender holds an unbreached Minefield or Box hex of its own (a Disrupted unit reads
            the Improved Defence column there too, §5.6.3).
    """

    crt_row: str
    at_bonus: int
    tp_halved: bool
    improved: bool
    friendly_minefield: bool = False


def ground(sit: Situation, attacker: HexId, target: HexId, defender: Side, *, improved_defence: bool) -> Ground:
    """The :class:`Ground` of an attack from ``attacker`` into ``target`` held by ``defender`` on the board.

    ``improved_defence``: the target hex carries an Improved Defence marker (§7.7). An unbreached Minefield of the
    defender's own is Improved Defence anyway; the CRT row, AT bonus and halving come from the TEC row of the
    defender's hex (:func:`~.board.defender_terrain`) and of the hexside (:func:`~.board.attacker_tp_halved`).
    """
    row = defender_terrain(sit, target, defender)
    mine = sit.board.mines.get(target)
    friendly_mine = mine is not None and mine.owner == defender and target not in sit.position.breached
    assert row.crt_row is not None  # defender_terrain gives a row with a CRT row
    return Ground(
        crt_row=row.crt_row,
        at_bonus=row.at_bonus,
        tp_halved=row.attacker_tp_halved or attacker_tp_halved(sit.board, attacker, target),
        improved=improved_defence or friendly_mine,
        friendly_minefield=friendly_mine,
    )


# --- E. battle strength (§7.5.1.2) -----------------------------------------------------------------------------


def chit_column(unit: Combatant, *, attack: AttackKind | None, ground: Ground | None = None) -> int:
    """The chit column a unit reads (§7.5.1.2, §5.6.3): attacking, by the kind of attack; defending, Improved
    Defence / Friendly Minefield (right) when ``ground.improved``, else Regular Defence (centre); a Disrupted unit
    cannot be in Improved Defence and reads Disrupted (left), except in its own unbreached Minefield (right)."""
    if attack is not None:
        return ATTACK_KINDS.index(attack)
    if unit.disrupted:
        return RIGHT if ground is not None and ground.friendly_minefield else LEFT
    return RIGHT if ground is not None and ground.improved else CENTRE


@dataclass(frozen=True)
class UnitStrength:
    """One unit's battle strength: ``strength`` (its current CS, 1 for a lone FLAK) x ``multiplier``, halved when
    ``halved`` (out of supply). ``halves`` is the value in half Strength Points (§5.1: fractions are kept)."""

    unit: str
    strength: int
    multiplier: int
    halved: bool
    halves: int


@dataclass(frozen=True)
class BattleStrength:
    """A side's battle strength (§7.5.1.2): its units' values added, fractions kept, the sum rounded up (§5.1)."""

    chit: str
    parts: tuple[UnitStrength, ...]
    total: int


def _flak_alone(unit: Combatant, stack: Iterable[Combatant]) -> bool:
    """§7.5.1.2: a German FLAK unit not stacked with any infantry-type unit fights with one Strength Point."""
    return unit.unit.type == "flak88" and not any(other.unit.type in INFANTRY_KINDS for other in stack)


def _strength(
    pack: GazalaPack,
    units: Sequence[Combatant],
    stack: Sequence[Combatant],
    chit: Chit,
    columns: Sequence[int],
    *,
    halve: bool,
) -> BattleStrength:
    parts = []
    for unit, column in zip(units, columns, strict=True):
        strength = pack.number("flak_alone_cs") if _flak_alone(unit, stack) else unit.strength
        multiplier = chit.multiplier(unit.eff, column)
        halved = halve and not unit.supplied
        divisor = pack.number("oos_divisor") if halved else 1
        # in halves: 2 x strength x multiplier / divisor (the divisor is 2: exact)
        parts.append(UnitStrength(unit.id, strength, multiplier, halved, 2 * strength * multiplier // divisor))
    total_halves = sum(p.halves for p in parts)
    return BattleStrength(chit=chit.id, parts=tuple(parts), total=-(-total_halves // 2))


def attack_strength(
    pack: GazalaPack,
    attackers: Sequence[Combatant],
    chit: Chit,
    kind: AttackKind,
    *,
    stack: Sequence[Combatant] = (),
) -> BattleStrength:
    """§7.5.1.2: the attacking stack's battle strength with its chit, each unit's CS x the multiplier of its
    Effectiveness in the column of the attack ``kind``. Out-of-supply units are halved (§5.7.5); ``stack`` adds the
    units of the attacking hex that do not take part (a FLAK unit stacked with infantry keeps its strength)."""
    columns = [chit_column(u, attack=kind) for u in attackers]
    return _strength(pack, attackers, [*attackers, *stack], chit, columns, halve=True)


def defence_strength(
    pack: GazalaPack,
    defenders: Sequence[Combatant],
    chit: Chit,
    ground: Ground,
    options: CombatOptions = DEFAULT_OPTIONS,
) -> BattleStrength:
    """§7.5.1.2: the defending stack's battle strength with its chit (every combat unit in the hex defends).
    Out-of-supply defenders are halved only under ``options.oos_halves_defence`` (§5.7.5, notes §10 A5)."""
    columns = [chit_column(u, attack=None, ground=ground) for u in defenders]
    return _strength(pack, defenders, defenders, chit, columns, halve=options.oos_halves_defence)


# --- E. Combined Arms and F. air: column shifts (§7.5.1.3, §7.5.1.4) ----------------------------------------------


def combined_arms(units: Sequence[Combatant]) -> bool:
    """§7.5.1.3: an undisrupted Panzer or tank unit (not an Italian tank or a Commonwealth heavy tank) with an
    undisrupted Panzergrenadier / armoured or motorised infantry unit of the same formation among ``units`` (the
    attacking participants, or every defender)."""
    tanks = {u.formation for u in units if u.unit.is_tank and not u.unit.no_combined_arms and not u.disrupted}
    infantry = {u.formation for u in units if u.unit.type in MOTORISED_INFANTRY and not u.disrupted}
    return bool((tanks & infantry) - {None})


def air_limit(pack: GazalaPack, kind: AttackKind) -> int:
    """§7.5.1.4: how many air units an Axis attack of ``kind`` may commit (Hasty 1, Regular 2, Prepared 3)."""
    return pack.number(f"air_{kind}")


def check_air(pack: GazalaPack, attacker: Side, kind: AttackKind, committed: int, available: int) -> Verdict:
    """§7.5.1.4: the Axis attacker (only) commits up to :func:`air_limit` air units from the Available box."""
    if committed == 0:
        return ALLOW
    if attacker != "axis":
        return deny("7.5.1.4", "air-not-axis-attack", "only the attacking Axis player commits air units")
    if committed < 0 or committed > air_limit(pack, kind):
        return deny("7.5.1.4", "air-limit", f"a {kind} attack commits at most {air_limit(pack, kind)} air units")
    if committed > available:
        return deny("7.5.1.4", "air-unavailable", f"only {available} air units are in the Available box")
    return ALLOW


def air_shift(pack: GazalaPack, committed: int) -> int:
    """§7.5.1.4: column shifts to the right for ``committed`` air units."""
    return committed * pack.number("air_shift")


def shift_terms(pack: GazalaPack, *, attacker_arms: bool, defender_arms: bool, air: int) -> Total:
    """The column shifts as report terms (right: the attacker's favour): Combined Arms of each side (§7.5.1.3, one
    shift at most) and the air units committed (§7.5.1.4)."""
    shift = pack.number("combined_arms_shift")
    terms = []
    if attacker_arms:
        terms.append(Term(label="attacker Combined Arms", value=shift, rule="7.5.1.3"))
    if defender_arms:
        terms.append(Term(label="defender Combined Arms", value=-shift, rule="7.5.1.3"))
    if air:
        terms.append(Term(label=f"{air} air unit{'s' if air > 1 else ''}", value=air_shift(pack, air), rule="7.5.1.4"))
    return Total.of(terms)


# --- G. DRM total, H. the CRT (§7.5.1.5, §7.5.1 E/H) ------------------------------------------------------------------


def final_drm(pack: GazalaPack, terms: Iterable[Term]) -> int:
    """§7.5.1.5: the DRMs added, clamped to ``drm_min``..``drm_max`` (-12..+12)."""
    total = sum(t.value for t in terms)
    return max(pack.number("drm_min"), min(pack.number("drm_max"), total))


def modified_roll(pack: GazalaPack, roll: int, drm: int) -> int:
    """§7.5.1.5: the attacker's d10 (0 reads 10, §3.9) plus the final DRM, clamped to ``roll_min``..``roll_max``."""
    if not 1 <= roll <= pack.number("die_sides"):
        raise ValueError(f"a d10 reads 1..10, not {roll}")
    return max(pack.number("roll_min"), min(pack.number("roll_max"), roll + drm))


def crt_lookup(
    pack: GazalaPack, ground: Ground, attack: int, defence: int, roll: int, *, shift: int = 0
) -> Lookup[str]:
    """§7.5.1 E, H: the CRT of the defender's terrain row at the odds ``attack``:``defence`` rounded down to a
    column, shifted ``shift`` columns (right: the attacker's favour; net of every shift, clamped at the row's
    edges), read at the modified ``roll``. Odds below the leftmost column give 5/0 and ignore every shift (§7.5.1.3,
    §7.5.1.4); above the rightmost, the rightmost column."""
    return pack.tables.crt[ground.crt_row].resolve(attack, defence, roll, shift=shift)


@dataclass(frozen=True)
class Result:
    """A CRT result: hits on each side and whether that number is printed red (every unit of the stack takes an EC,
    §7.5.2)."""

    attacker: int
    attacker_ec: bool
    defender: int
    defender_ec: bool


def parse_result(cell: str) -> Result:
    """A CRT cell ``"2!/1"`` (``!``: red, underlined) as a :class:`Result`."""
    left, right = cell.split("/")
    return Result(
        attacker=int(left.rstrip("!")),
        attacker_ec=left.endswith("!"),
        defender=int(right.rstrip("!")),
        defender_ec=right.endswith("!"),
    )


@dataclass(frozen=True)
class Resolution:
    """Steps E-H of one combat, for the log and the report.

    Attributes:
        attack, defence: the two battle strengths. shifts: the column shifts. drms: the DRM terms; drm: their
        clamped total. roll: the attacker's d10; lookup: the CRT read; result: its hits.
    """

    attack: BattleStrength
    defence: BattleStrength
    shifts: Total
    drms: Total
    drm: int
    roll: int
    lookup: Lookup[str]
    result: Result

    def record(self) -> dict[str, Any]:
        """The resolution as plain JSON data (strings and integers only) for a ``combat_resolved`` event."""
        data: dict[str, Any] = to_jsonable_python(self)
        return data


def resolve(
    pack: GazalaPack,
    attackers: Sequence[Combatant],
    defenders: Sequence[Combatant],
    ground: Ground,
    kind: AttackKind,
    chits: tuple[Chit, Chit],
    *,
    drms: Sequence[Term],
    roll: int,
    air: int = 0,
    stack: Sequence[Combatant] = (),
    options: CombatOptions = DEFAULT_OPTIONS,
) -> Resolution:
    """Steps E-H: strengths with the attacker's and the defender's chits, the ratio on the defender's CRT row, the
    Combined Arms and air shifts, the DRMs (:mod:`.combat_drm` builds them) and the attacker's d10 ``roll``."""
    attack = attack_strength(pack, attackers, chits[0], kind, stack=stack)
    defence = defence_strength(pack, defenders, chits[1], ground, options)
    pairs = (*attackers, *stack) if options.combined_arms_stack else attackers  # ``stack``: the others in the hex
    shifts = shift_terms(pack, attacker_arms=combined_arms(pairs), defender_arms=combined_arms(defenders), air=air)
    drm = final_drm(pack, drms)
    found = crt_lookup(pack, ground, attack.total, defence.total, modified_roll(pack, roll, drm), shift=shifts.value)
    return Resolution(
        attack=attack,
        defence=defence,
        shifts=shifts,
        drms=Total.of(drms),
        drm=drm,
        roll=roll,
        lookup=found,
        result=parse_result(found.result),
    )
