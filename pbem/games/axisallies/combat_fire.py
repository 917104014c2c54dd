"""Fire in a combat of *Axis & Allies: North Africa*: who rolls how many d10s, the hits, and where hits may fall.

* p.21 step 2: each attacking piece rolls one die and hits at or under its attack value; units with the same
  value roll together, but units with restricted targets or flanking roll apart (one :class:`FireGroup` per
  power, type, support and flank).
* p.22 step 3: each defending piece with a defense value that fights rolls one die (casualties already marked
  included); a territory's Defensive Bonus adds to its defending land units (p.10; Mareth only against land
  attacks from Tripoli).
* p.30 artillery: each attacking infantry or mechanized infantry paired with an artillery attacks at the pack's
  ``artillery_supported_attack``; pairs are one to one and may cross origins.
* p.19 flanking: land units attacking from another territory than the main attack reroll every die from the
  pack's ``flanking_reroll_from`` up, rerolls included (:func:`dice_needed` asks for them).
* Aimed hits: anti-tank guns at tanks in round 1 (p.30), attacking scout cars at air units (p.31), attacking
  bombers at a named land or sea type (p.33; submarines only with an attacking destroyer). The firer's choice
  per hit is an *aim*; :func:`volley` turns hits and aims into :class:`~.combat_types.Hit` s for
  :mod:`.combat_casualties`.
* Sea restrictions (p.34): submarines never hit air units; air units hit submarines only with a destroyer of
  their own power (attacking) or of their side (defending) in the combat; transports are hit only once the
  escorts a hit could reach are gone, but bombers may aim at them (p.21, p.33).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.games.axisallies.combat_casualties import pool_of
from pbem.games.axisallies.combat_types import (
    TRANSPORT,
    Battle,
    EscortsShield,
    FireGroup,
    Hit,
    Piece,
    Role,
    Target,
    Units,
    total,
)
from pbem.games.axisallies.data import AxisAlliesPack, UnitType
from pbem.rules.contract import ALLOW, RollSpec, Verdict, deny
from pbem.rules.records import Fire, FireStep

__all__ = [
    "Scored",
    "aim_options",
    "attack_fire",
    "casualty_pool",
    "check_aims",
    "check_battle",
    "check_faces",
    "defense_bonus",
    "defense_fire",
    "dice_needed",
    "final_faces",
    "fire_step",
    "group_hits",
    "has",
    "main_candidates",
    "roll_specs",
    "rule_type",
    "two_hit_pieces",
    "volley",
]


def has(pack: AxisAlliesPack, piece: Piece, ability: str) -> bool:
    """Whether ``piece``'s chart row has the characteristic ``ability`` (the transport has none)."""
    return piece != TRANSPORT and pack.unit(*piece).has(ability)


def rule_type(pack: AxisAlliesPack, type_: str) -> str:
    """The unit type a player names (pp.21, 33: "select a unit type"), as the profiles count types (p.30:
    "Infantry, mechanized infantry, artillery, anti-tank guns, anti-aircraft artillery, scout cars, tanks, and
    trucks"): a type of a pack ``unit_classes`` row (the tanks: the Lend-Lease Sherman and the Tiger are tanks)
    is named by the row's first type, any other type by itself."""
    for row in pack.unit_classes:
        if type_ in row.types:
            return row.types[0]
    return type_


def _unit(pack: AxisAlliesPack, piece: Piece) -> UnitType:
    return pack.unit(*piece)


def _category(pack: AxisAlliesPack, piece: Piece) -> str:
    return "sea" if piece == TRANSPORT else _unit(pack, piece).category


def main_candidates(battle: Battle) -> tuple[str, ...]:
    """p.19: the origins that may be the main attack: those with the most attacking land units (the attacker
    chooses among ties); every other origin's land units are flanking."""
    counts = {o: sum(n for n in units.values() if n > 0) for o, units in battle.land.items()}
    counts = {o: n for o, n in counts.items() if n > 0}
    if not counts:
        return ()
    top = max(counts.values())
    return tuple(sorted(o for o, n in counts.items() if n == top))


def _flanking(battle: Battle, origin: str) -> bool:
    """p.19: land units not attacking from the main attack's origin flank, even once the main attack is gone."""
    return battle.main is not None and origin != battle.main


def _attack_target(pack: AxisAlliesPack, battle: Battle, piece: Piece) -> Target:
    if battle.kind == "land":
        if battle.round == 1 and has(pack, piece, "targeted_fire_tanks"):
            return "tanks"
        if has(pack, piece, "targeted_attack_air_units"):
            return "air"
        if has(pack, piece, "targeted_attack_combat_land_units"):
            return "land_type"
        return "any"
    return "sea_type" if has(pack, piece, "targeted_attack_sea_units") else "any"


def attack_fire(pack: AxisAlliesPack, battle: Battle, *, holding: Units | None = None) -> tuple[FireGroup, ...]:
    """p.21 step 2: the attacker's dice this round, one group per power, type, support and flank.

    Args:
        holding: attacking pieces that do not fire in step 2 (submarines that struck or submerged in step 1).
    """
    holding = dict(holding or {})
    supported = _support(pack, battle)
    groups: list[FireGroup] = []
    origins = sorted(battle.land, key=lambda o: (not _flanking(battle, o), o))
    rows: list[tuple[Piece, int, bool, int]] = []
    for origin in origins:
        for piece, n in sorted(battle.land[origin].items()):
            boosted = min(n, supported.get(piece, 0))
            supported[piece] = supported.get(piece, 0) - boosted
            rows.append((piece, n, _flanking(battle, origin), boosted))
    rows += [(piece, n, False, 0) for piece, n in sorted(battle.air_sea.items())]
    for piece, n, flank, boosted in rows:
        held = min(n, holding.get(piece, 0))
        holding[piece] = holding.get(piece, 0) - held
        n -= held
        unit = _unit(pack, piece)
        if n <= 0 or unit.attack is None or unit.has("cannot_attack"):
            continue
        target = _attack_target(pack, battle, piece)
        plain = n - boosted
        if boosted:
            value = pack.limit("artillery_supported_attack")
            groups.append(FireGroup("attacker", *piece, boosted, value, target, flank, True, "30"))
        if plain:
            groups.append(FireGroup("attacker", *piece, plain, unit.attack, target, flank, False, "21"))
    return tuple(sorted(_merge(groups), key=lambda g: g.flanking))


def _merge(groups: Sequence[FireGroup]) -> list[FireGroup]:
    """One group per power, type, flank and support (the same piece may come from several origins)."""
    merged: dict[tuple[str, str, bool, bool], FireGroup] = {}
    for g in groups:
        key = (g.power, g.type, g.flanking, g.supported)
        old = merged.get(key)
        merged[key] = g if old is None else FireGroup(**{**old.__dict__, "count": old.count + g.count})
    return list(merged.values())


def _support(pack: AxisAlliesPack, battle: Battle) -> dict[Piece, int]:
    """p.30: per power, the infantry and mechanized infantry an artillery supports, one for one.

    RULING (text): artillery supports infantry of its own power: "each power attacks with its own units only on
    its own turn" (p.20), and in the joint Algiers landing (p.28) neither power has artillery.

    RULING (the best pairing): "Each eligible infantry or mechanized infantry must be paired one-for-one with a
    supporting artillery ... paired units need not necessarily be attacking from the same territory" (p.30);
    the pairing is the attacker's, so the library makes the one that adds the most to its chances: a pair
    raises a unit from its attack value to ``artillery_supported_attack``, worth that many faces in 10, or in 7
    for a flanking unit (p.19: its faces from ``flanking_reroll_from`` up are rerolled). So flanking units come
    before the same units in the main attack; ties go by origin and type name. The attacker is never worse off
    and has no pairing to declare."""
    guns: dict[str, int] = {}
    for units in battle.land.values():
        for piece, n in units.items():
            if has(pack, piece, "supports_infantry"):
                guns[piece[0]] = guns.get(piece[0], 0) + n
    boosted = pack.limit("artillery_supported_attack")
    faces, kept = pack.limit("die_sides"), pack.limit("flanking_reroll_from") - 1

    def gain(origin: str, piece: Piece) -> int:
        """The support's worth in faces, over the common denominator ``faces * kept``."""
        raised = max(boosted - (_unit(pack, piece).attack or 0), 0)
        return raised * (faces if _flanking(battle, origin) else kept)

    candidates = sorted(
        (
            (-gain(origin, piece), not _flanking(battle, origin), origin, piece, n)
            for origin, units in battle.land.items()
            for piece, n in units.items()
            if n > 0 and has(pack, piece, "supported_by_artillery")
        ),
    )
    out: dict[Piece, int] = {}
    for _, _, _, piece, n in candidates:
        paired = min(n, guns.get(piece[0], 0))
        if paired:
            guns[piece[0]] -= paired
            out[piece] = out.get(piece, 0) + paired
    return out


def defense_bonus(pack: AxisAlliesPack, battle: Battle) -> int:
    """p.10: the Defensive Bonus of the territory (the pack's reconstruction), added to each defending land
    combat unit; Mareth's only while land units attack from Tripoli."""
    if battle.kind != "land":
        return 0
    bonus = pack.territory(battle.space).defensive_bonus
    if bonus is None:
        return 0
    if bonus.attacks_from and not any(battle.land.get(o) for o in bonus.attacks_from):
        return 0
    return bonus.defense_modifier


def defense_fire(
    pack: AxisAlliesPack, battle: Battle, firing: Units, *, holding: Units | None = None
) -> tuple[FireGroup, ...]:
    """p.22 step 3: the defender's dice this round: every fighting piece (``firing``, see
    :func:`.combat_land.fighting`) with a defense value, casualties already marked included.

    Args:
        holding: defending pieces that do not fire in step 3 (submarines that struck or submerged in step 1).
    """
    holding = holding or {}
    bonus = defense_bonus(pack, battle)
    top = pack.limit("die_sides")
    groups = []
    for piece, n in sorted(firing.items()):
        n -= holding.get(piece, 0)
        unit = _unit(pack, piece)
        if n <= 0 or not unit.defense:
            continue
        value = min(unit.defense + (bonus if unit.category == "land" else 0), top)
        aimed: Target = (
            "tanks" if battle.kind == "land" and battle.round == 1 and unit.has("targeted_fire_tanks") else "any"
        )
        groups.append(
            FireGroup("defender", *piece, n, value, aimed, False, False, "10" if value > unit.defense else "22")
        )
    return tuple(groups)


def roll_specs(pack: AxisAlliesPack, groups: Sequence[FireGroup], prefix: str) -> tuple[RollSpec, ...]:
    """One :class:`~pbem.rules.contract.RollSpec` of d10s per group, ids ``<prefix>-<index>``."""
    sides = pack.limit("die_sides")
    return tuple(
        RollSpec(
            id=f"{prefix}-{i}",
            sides=sides,
            n=g.count,
            purpose=f"{g.role} {g.power} {g.type} hit on {g.needs} or less" + (" (flanking)" if g.flanking else ""),
        )
        for i, g in enumerate(groups)
    )


def dice_needed(pack: AxisAlliesPack, group: FireGroup, batches: Sequence[Sequence[int]]) -> int:
    """How many more dice ``group`` needs after the ``batches`` rolled so far: its count at first, then, when
    flanking, a reroll for every die of the last batch from ``flanking_reroll_from`` up (p.19); 0 when done."""
    if not batches:
        return group.count
    if not group.flanking:
        return 0
    return sum(1 for f in batches[-1] if f >= pack.limit("flanking_reroll_from"))


def check_faces(pack: AxisAlliesPack, group: FireGroup, batches: Sequence[Sequence[int]]) -> Verdict:
    """Whether ``batches`` are the dice ``group`` asked for: each batch as many faces as :func:`dice_needed`
    said before it, every face on the die, and no more dice owed."""
    sides = pack.limit("die_sides")
    for i, batch in enumerate(batches):
        want = dice_needed(pack, group, batches[:i])
        if len(batch) != want or any(not 1 <= f <= sides for f in batch):
            return deny("21", "bad-dice", f"{group.power} {group.type}: batch {i} must hold {want} faces 1-{sides}")
    if dice_needed(pack, group, batches):
        return deny("19", "rerolls-owed", f"{group.power} {group.type}: flanking rerolls are still owed")
    return ALLOW


def final_faces(pack: AxisAlliesPack, group: FireGroup, batches: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The face each die of ``group`` ends on: a flanking die's first face under ``flanking_reroll_from``."""
    faces = [f for batch in batches for f in batch]
    if group.flanking:
        return tuple(f for f in faces if f < pack.limit("flanking_reroll_from"))
    return tuple(faces)


def group_hits(pack: AxisAlliesPack, group: FireGroup, batches: Sequence[Sequence[int]]) -> int:
    """The hits of ``group``: final faces at or under its value (p.21)."""
    return sum(1 for f in final_faces(pack, group, batches) if f <= group.needs)


def fire_step(
    pack: AxisAlliesPack, label: str, side: str, groups: Sequence[FireGroup], batches: Sequence[Sequence[Sequence[int]]]
) -> FireStep:
    """The report record of one volley (:class:`~pbem.rules.records.FireStep`): each group's pieces as
    ``<power>-<type>`` (the chart row), all its dice in the order rolled (rerolls included), its value and hits.

    Args:
        label: the volley's name in reports ("attacking units fire").
        side: the firing side (``axis`` or ``allies``).
        groups: the groups that fired; ``batches`` their dice, one list of batches per group.
    """
    fire = tuple(
        Fire(
            kind=f"{g.power}-{g.type}",
            count=g.count,
            dice=tuple(f for batch in b for f in batch),
            needs=g.needs,
            hits=group_hits(pack, g, b),
        )
        for g, b in zip(groups, batches, strict=True)
    )
    rule = groups[0].rule if groups else None
    return FireStep(label=label, side=side, rule=rule, fire=fire)


def two_hit_pieces(pack: AxisAlliesPack, units: Units) -> frozenset[Piece]:
    """The pieces of ``units`` that take two hits to destroy (battleships, p.33)."""
    return frozenset(k for k in units if has(pack, k, "two_hits_to_destroy"))


def casualty_pool(pack: AxisAlliesPack, battle: Battle, role: Role) -> dict[Piece, int]:
    """The hit points ``role`` has in the combat: one per combat piece, two per undamaged battleship (p.33),
    and for a defending convoy one per hit its transports can take (two pieces of cargo each, p.21)."""
    units = battle.attackers() if role == "attacker" else dict(battle.defenders)
    pool = pool_of(units, battle.damaged, two_hit_pieces(pack, units))
    if role == "defender" and battle.cargo is not None and not battle.cargo.empty():
        bays = sum(n for n in battle.cargo.units.values() if n > 0) + -(
            -battle.cargo.supply_points // pack.limit("supply_per_bay")
        )
        pool[TRANSPORT] = -(-bays // pack.limit("transport_casualties_per_hit"))
    return pool


def _destroyer(pack: AxisAlliesPack, units: Units, power: str | None) -> bool:
    return any(n > 0 and has(pack, k, "anti_submarine_vessel") and power in (None, k[0]) for k, n in units.items())


def _allowed(pack: AxisAlliesPack, battle: Battle, group: FireGroup, pool: Units) -> frozenset[Piece]:
    """p.34: what a hit of ``group`` can fall on among the opponent's ``pool``."""
    if battle.kind == "land":
        return frozenset(pool)
    fired = _unit(pack, group.piece)
    out = set(pool)
    if fired.has("cannot_hit_air_units"):
        out -= {k for k in pool if _category(pack, k) == "air"}
    if fired.category == "air":
        # An attacking air unit needs a destroyer of its own power; a defending one a destroyer of its side.
        own = battle.attackers() if group.role == "attacker" else battle.defenders
        if not _destroyer(pack, own, group.power if group.role == "attacker" else None):
            out -= {k for k in pool if has(pack, k, "cannot_be_hit_by_air_units")}
    return frozenset(out)


def _aim_set(pack: AxisAlliesPack, target: Target, aim: str, pool: Units) -> frozenset[Piece]:
    if target == "tanks":
        tanks = pack.unit_class("tanks")
        return frozenset(k for k in pool if k != TRANSPORT and k[1] in tanks)
    if target == "air":
        return frozenset(k for k in pool if _category(pack, k) == "air")
    named = rule_type(pack, aim)
    return frozenset(k for k in pool if rule_type(pack, k[1]) == named)


def check_aims(
    pack: AxisAlliesPack, battle: Battle, group: FireGroup, hits: int, aims: Mapping[str, int], pool: Units
) -> Verdict:
    """Whether the firer of ``group`` may aim its ``hits`` as ``aims`` (target -> hits aimed at it): ``tanks``
    for anti-tank guns in round 1 (p.30), ``air`` for attacking scout cars (p.31), a type the opponent has in
    the combat for attacking bombers (p.33; a submarine only beside an attacking destroyer, ``transport`` at
    sea); unaimed hits fall anywhere."""
    if sum(aims.values()) > hits or any(n < 0 for n in aims.values()):
        return deny("21", "too-many-aims", f"{hits} hits, {sum(aims.values())} aimed")
    rule = {"tanks": "30", "air": "31"}.get(group.target, "33")
    for aim, n in sorted(aims.items()):
        if n == 0:
            continue
        if group.target == "any":
            return deny("21", "cannot-aim", f"{group.power} {group.type} hits cannot be aimed")
        if group.target in ("tanks", "air") and aim != group.target:
            return deny(rule, "bad-aim", f"{group.power} {group.type} may aim at {group.target} only")
        if group.target in ("land_type", "sea_type"):
            named = _aim_set(pack, group.target, aim, pool)
            if not named:
                return deny(rule, "bad-aim", f"the opponent has no {aim} in the combat")
            piece = min(named)
            if group.target == "land_type" and _category(pack, piece) != "land":
                return deny(rule, "bad-aim", f"{aim} is not a combat land unit type")
            if group.target == "sea_type" and _category(pack, piece) != "sea":
                return deny(rule, "bad-aim", f"{aim} is not a sea unit type")
            if has(pack, piece, "cannot_be_hit_by_air_units") and not _destroyer(pack, battle.attackers(), None):
                return deny(rule, "bad-aim", "submarines may be named only with an attacking destroyer")
    return ALLOW


def aim_options(pack: AxisAlliesPack, battle: Battle, group: FireGroup, pool: Units) -> tuple[str, ...]:
    """The targets the firer of ``group`` may usefully aim a hit at (see :func:`check_aims`; targets the
    opponent has none of are left out), for prompts."""
    if group.target in ("tanks", "air"):
        candidates: list[str] = [group.target]
    elif group.target == "any":
        candidates = []
    else:
        candidates = sorted({rule_type(pack, k[1]) for k, n in pool.items() if n > 0})
    return tuple(
        a
        for a in candidates
        if _aim_set(pack, group.target, a, pool) and check_aims(pack, battle, group, 1, {a: 1}, pool).ok
    )


@dataclass(frozen=True)
class Scored:
    """The hits one group scored, and the firer's aims (target -> hits aimed; see :func:`check_aims`)."""

    group: FireGroup
    hits: int
    aims: Mapping[str, int] = field(default_factory=dict)


def volley(
    pack: AxisAlliesPack, battle: Battle, scored: Sequence[Scored], *, escorts_shield: EscortsShield = "reachable"
) -> tuple[Hit, ...]:
    """The :class:`~.combat_types.Hit` s one side's fire puts on the other's :func:`casualty_pool` (aims are
    assumed checked with :func:`check_aims`).

    Args:
        escorts_shield: the named option of notes §10.12 (:data:`~.combat_types.EscortsShield`): with ``all``,
            no hit but a bomber's aimed at them reaches the transports while any escort is in the combat.
    """
    out: list[Hit] = []
    for s in scored:
        if s.hits <= 0:
            continue
        target_role: Role = "defender" if s.group.role == "attacker" else "attacker"
        pool = casualty_pool(pack, battle, target_role)
        allowed = _allowed(pack, battle, s.group, pool)
        if escorts_shield == "all" and any(k != TRANSPORT for k in pool):
            allowed -= {TRANSPORT}
        plain = s.hits - sum(s.aims.values())
        for aim, n in sorted(s.aims.items()):
            if n <= 0:
                continue
            preferred = _aim_set(pack, s.group.target, aim, pool)
            allowed_here = allowed | (preferred if s.group.target == "sea_type" else frozenset())
            rule = {"tanks": "30", "air": "31"}.get(s.group.target, "33")
            out.append(Hit(n, allowed_here, preferred & allowed_here, aim != TRANSPORT[1], rule))
        if plain:
            out.append(Hit(plain, allowed, escorts_first=True))
    return tuple(out)


def check_battle(pack: AxisAlliesPack, battle: Battle) -> Verdict:
    """Whether ``battle`` is a combat the rules allow: a land combat in a territory between land and air units
    (there are no naval bombardments, p.6; land units attack only territories, p.15), a sea combat in a sea
    zone between sea and air units; trucks are never in a combat (p.32), AAA never attacks (p.31); each side's
    pieces belong to its side (French pieces fight for either, p.29); with several origins the main attack is
    named, in round 1 one of :func:`main_candidates` (p.19)."""
    graph_kind = "land" if any(t.id == battle.space for t in pack.territories) else "sea"
    if graph_kind != battle.kind:
        return deny("19", "wrong-space", f"{battle.space} is not a {battle.kind} space")
    if battle.kind == "sea" and any(total(u) for u in battle.land.values()):
        return deny("15", "land-attack-at-sea", "land units attack territories only")
    sides = {"attacker": battle.attacker, "defender": "allies" if battle.attacker == "axis" else "axis"}
    for role, units in (("attacker", battle.attackers()), ("defender", dict(battle.defenders))):
        for piece in sorted(k for k, n in units.items() if n > 0):
            try:
                unit = _unit(pack, piece)
            except KeyError:
                return deny("8", "unknown-unit", f"{piece[0]} has no {piece[1]} on its reference chart")
            if not unit.combat:
                return deny("32", "not-a-combat-unit", f"{unit.id} is never in a combat")
            if battle.kind == "land" and unit.category == "sea":
                return deny("6", "naval-bombardment", f"{unit.id}: there are no naval bombardments")
            if battle.kind == "sea" and unit.category == "land":
                return deny("19", "land-unit-at-sea", f"{unit.id} does not fight at sea (cargo is not a unit)")
            if role == "attacker" and unit.has("cannot_attack"):
                return deny("31", "cannot-attack", f"{unit.id} cannot attack")
            side = pack.power(piece[0]).side
            if side is not None and side != sides[role]:
                return deny("20", "wrong-side", f"{unit.id} is not on the {role}'s side")
    for piece in battle.air_sea:
        if _category(pack, piece) == "land":
            return deny("15", "land-unit-without-origin", f"{piece[0]} {piece[1]} attacks from a territory")
    origins = [o for o, units in battle.land.items() if total(units)]
    if len(origins) > 1 and battle.main is None:
        return deny("19", "main-attack-unset", "land units attack from several territories: name the main attack")
    if battle.round == 1 and battle.main is not None and battle.main not in main_candidates(battle):
        return deny("19", "not-main-attack", f"{battle.main} has fewer attacking land units than another origin")
    return ALLOW
