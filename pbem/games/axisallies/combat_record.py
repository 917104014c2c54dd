"""What players read of a combat: the record of :class:`pbem.rules.records.CombatRecord` a ``combat_resolved``
event carries (rounds of fire by power, hits, losses counted by piece type: pieces are interchangeable), and the
words of the combat events, with powers, pieces and spaces by their printed names (the pack's), never by id."""

from __future__ import annotations

from pbem.games.axisallies.combat_fire import final_faces, group_hits
from pbem.games.axisallies.combat_types import TRANSPORT, FireGroup
from pbem.games.axisallies.data import AxisAlliesPack
from pbem.games.axisallies.state import BattleRecord, GroupRecord, split
from pbem.rules.records import CombatRecord, Fire, FireStep, Hits, Loss, Round

__all__ = ["combat_record", "fire_purpose", "fire_text", "piece_name", "reroll_purpose", "space_name"]


def space_name(pack: AxisAlliesPack, ident: str) -> str:
    """A territory's or sea zone's printed name (the id if the pack has neither)."""
    if any(t.id == ident for t in pack.territories):
        return pack.territory(ident).name
    if any(z.id == ident for z in pack.sea_zones):
        return pack.sea_zone(ident).name
    return ident


def piece_name(pack: AxisAlliesPack, key: str) -> str:
    """``"germany:tank"`` -> ``"Germany Tank"``: the power's name and its piece's name; a convoy's virtual
    transport (p.14, no power's piece) is ``"convoy transport"``."""
    power, type_ = split(key)
    if (power, type_) == TRANSPORT:
        return "convoy transport"
    return f"{pack.power(power).name} {pack.unit(power, type_).name}"


def _fire_group(g: GroupRecord) -> FireGroup:
    return FireGroup(
        g.role, g.power, g.type, g.count, g.needs, g.target,  # type: ignore[arg-type]
        g.flanking, g.supported, g.rule,
    )  # fmt: skip


def fire_purpose(pack: AxisAlliesPack, space: str, g: GroupRecord) -> str:
    """A fire roll's purpose as the dice lines read it: ``"Tobruk: 2 Germany Panzer IV attacking, hit on 5 or
    less"`` (the log signs it, so it is written in words: no id reaches a player)."""
    role = "attacking" if g.role == "attacker" else "defending"
    flank = " (flanking)" if g.flanking else ""
    pieces = f"{g.count} {piece_name(pack, f'{g.power}:{g.type}')}"
    return f"{space_name(pack, space)}: {pieces} {role}, hit on {g.needs} or less{flank}"


def reroll_purpose(pack: AxisAlliesPack, space: str, g: GroupRecord) -> str:
    """The purpose of a flanking group's rerolls (p.19): ``"Tobruk: flanking rerolls of Germany Infantry"``."""
    return f"{space_name(pack, space)}: flanking rerolls of {piece_name(pack, f'{g.power}:{g.type}')}"


def fire_text(pack: AxisAlliesPack, space: str, role: str, groups: tuple[GroupRecord, ...]) -> str:
    """A volley in words: ``"Tobruk, attacker: 2 Germany Tank hit on 5 or less: 3, 7 (1 hit)"``."""
    parts = []
    for g in groups:
        faces = final_faces(pack, _fire_group(g), g.batches) if g.batches else ()
        hits = group_hits(pack, _fire_group(g), g.batches) if g.batches else 0
        flank = " (flanking)" if g.flanking else ""
        rolled = ", ".join(map(str, faces)) or "no dice"
        parts.append(
            f"{g.count} {piece_name(pack, f'{g.power}:{g.type}')} hit on {g.needs} or less{flank}: {rolled} "
            f"({hits} hit{'s' * (hits != 1)})"
        )
    return f"{space_name(pack, space)}, {role}: " + "; ".join(parts)


def combat_record(pack: AxisAlliesPack, record: BattleRecord, result: str, winner: str | None) -> CombatRecord:
    """The combat as reports read it: each round's volleys, one fire step per power (its side in the view),
    the hits each power scored and the pieces each power lost, counted by type."""
    rounds: dict[int, list[FireStep]] = {}
    scored: dict[str, int] = {}
    for volley in record.volleys:
        by_power: dict[str, list[Fire]] = {}
        for g in volley.groups:
            hits = group_hits(pack, _fire_group(g), g.batches) if g.batches else 0
            faces = tuple(final_faces(pack, _fire_group(g), g.batches)) if g.batches else ()
            by_power.setdefault(g.power, []).append(
                Fire(kind=g.type, count=g.count, dice=faces, needs=g.needs, hits=hits)
            )
            scored[g.power] = scored.get(g.power, 0) + hits
        for power, fire in by_power.items():
            role = volley.groups[0].role
            label = f"{'surprise strike, ' if volley.surprise else ''}{role} {pack.power(power).name}"
            rule = "34" if volley.surprise else "21" if role == "attacker" else "22"
            rounds.setdefault(volley.round, []).append(FireStep(label=label, side=power, rule=rule, fire=tuple(fire)))
    losses = []
    for side in sorted(record.casualties):
        for k, n in sorted(record.casualties[side].items()):
            power, type_ = split(k)
            if (power, type_) == TRANSPORT:  # a virtual transport is no piece: its cargo's losses have their events
                continue
            losses.append(Loss(side=power, kind=type_, pieces=n, eliminated=True))
    return CombatRecord(
        location=record.space,
        result=result,
        rounds=tuple(Round(number=n, steps=tuple(steps)) for n, steps in sorted(rounds.items())),
        hits=tuple(Hits(side=p, count=n) for p, n in scored.items()),
        losses=tuple(losses),
        winner=winner,
    )
