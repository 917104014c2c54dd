"""Declaring a Combat Action (§7.5.1 A), Retreat before Combat (§7.5.1.1) and escalation (§7.5.1 C), with the AP
costs of §7.1 and the command effects of §5.8.3 / §5.8.4.

Dice: an Isolated participant rolls 1 d10 (an EC) before it takes part (§5.8.4, :func:`isolated_check`); Retreat
before Combat rolls 1 d10 for the attacker and 1 d10 for the defender (:func:`rbc_succeeds`). A successful Retreat
before Combat is a free Movement Action of the whole defending stack, checked by the board's movement rules (it
may enter hexes adjacent to enemy units; never Screen movement: :func:`check_rbc_move`); the combat ends, the
attacker's AP is lost and it may not advance.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.gazala.board import Situation, adjacent, budget, columns, move_rule, movers_side, other
from pbem.games.gazala.combat import AttackKind, Combatant
from pbem.games.gazala.data import GazalaPack
from pbem.kit.graph import Blocked, Cost, StepCost
from pbem.kit.hexes import HexId, Hexside, MoveCost
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "attack_cost",
    "check_declaration",
    "check_escalation",
    "check_rbc",
    "check_rbc_bonus",
    "check_rbc_move",
    "escalation_cost",
    "isolated_check",
    "rbc_bonus_options",
    "rbc_succeeds",
]


def check_declaration(
    sit: Situation, attacker: HexId, target: HexId, participants: Sequence[Combatant], activated: str
) -> Verdict:
    """§7.5.1 A, §7.1, §5.6.3: a Hasty Attack by units of one hex against one adjacent enemy-occupied hex.

    ``activated``: the activated formation, or the id of the activated independent unit (§6.4). Refused:
    ``attack-empty``, ``attack-twice`` (a unit named twice), ``not-in-hex`` (every participant stands in the
    attacking hex: no multi-hex combat), ``not-adjacent``, ``no-enemy`` (the target holds no enemy combat unit;
    HQs are ignored in combat), ``not-activated``, ``disrupted`` (Disrupted units cannot attack)."""
    if not participants:
        return deny("7.5.1", "attack-empty", "name at least one attacking unit")
    ids = [p.id for p in participants]
    if len(set(ids)) != len(ids):
        return deny("7.5.1", "attack-twice", "a unit is named twice")
    units = sit.position.units
    side = sit.board.side[ids[0]]
    for p in participants:
        if units.get(p.id) != attacker or sit.board.side[p.id] != side:
            return deny("7.5.1", "not-in-hex", f"{p.unit.name} is not in the attacking hex {attacker}")
    if not adjacent(sit.board, attacker, target):
        return deny("7.5.1", "not-adjacent", f"{target} is not adjacent to {attacker}")
    if target not in sit.combat[other(side)]:
        return deny("7.5.1", "no-enemy", f"{target} holds no enemy combat unit")
    for p in participants:
        if p.id != activated and p.formation != activated:
            return deny("7.2", "not-activated", f"{p.unit.name} does not belong to the activated formation")
        if p.disrupted:
            return deny("5.6.3", "disrupted", f"{p.unit.name} is Disrupted and cannot attack")
    return ALLOW


def attack_cost(pack: GazalaPack, participants: Sequence[Combatant]) -> int:
    """§7.1, §5.8.3: a Hasty Attack costs 1 AP, 2 if a participant is Out of Command or Isolated (notes B4)."""
    cost = pack.number("cost_hasty")
    if any(not p.in_command or p.isolated for p in participants):
        cost *= pack.number("ooc_cost_factor")
    return cost


def escalation_cost(pack: GazalaPack, kind: AttackKind) -> int:
    """§7.1: the extra APs of escalating a Hasty Attack to ``kind`` (Regular +1, Prepared +2)."""
    return {"hasty": 0, "regular": pack.number("cost_regular_extra"), "prepared": pack.number("cost_prepared_extra")}[
        kind
    ]


def check_escalation(participants: Sequence[Combatant], kind: AttackKind, *, available: int, cost: int) -> Verdict:
    """§7.5.1 C, §6.4, §5.8.3: escalating to ``kind`` (``cost`` APs of :func:`escalation_cost`, ``available`` on the
    track). Refused: ``escalate-independent`` (an unassigned independent unit makes Hasty Attacks only),
    ``escalate-command`` (Out of Command or Isolated units take part in Hasty Attacks only), ``no-ap``."""
    if kind == "hasty":
        return ALLOW
    if any(p.unassigned for p in participants):
        return deny("6.4", "escalate-independent", "an unassigned independent unit makes Hasty Attacks only")
    if any(not p.in_command or p.isolated for p in participants):
        return deny("5.8.3", "escalate-command", "Out of Command or Isolated units make Hasty Attacks only")
    if cost > available:
        return deny("7.1", "no-ap", f"a {kind} attack needs {cost} more APs, {available} are left")
    return ALLOW


def isolated_check(unit: Combatant, roll: int) -> bool:
    """§5.8.4: an Isolated unit takes part in an Action only if its EC passes (d10 at or below its Effectiveness);
    a failure disrupts it, and the APs are spent anyway."""
    return roll <= unit.eff


# --- Retreat before Combat (§7.5.1.1) ---------------------------------------------------------------------------------


def check_rbc(defenders: Sequence[Combatant]) -> Verdict:
    """§7.5.1.1: the defending stack may attempt Retreat before Combat if every unit is undisrupted
    (``rbc-disrupted``) and not Isolated (``rbc-isolated``), one is motorised or mechanised (``rbc-leg``), and all
    belong to one formation (``rbc-formation``; an unassigned independent unit never may: ``rbc-unassigned``)."""
    if any(d.disrupted for d in defenders):
        return deny("7.5.1.1", "rbc-disrupted", "a defending unit is Disrupted")
    if any(d.isolated for d in defenders):
        return deny("7.5.1.1", "rbc-isolated", "a defending unit is Isolated")
    if not any(d.unit.movement != "leg" for d in defenders):
        return deny("7.5.1.1", "rbc-leg", "no defending unit is motorised or mechanised")
    if any(d.unassigned for d in defenders):
        return deny("7.5.1.1", "rbc-unassigned", "an unassigned independent unit cannot retreat before combat")
    if len({d.formation for d in defenders}) > 1:
        return deny("7.5.1.1", "rbc-formation", "the defending units belong to more than one formation")
    return ALLOW


def rbc_bonus_options(
    pack: GazalaPack, own: Sequence[Combatant], enemy: Sequence[Combatant], *, defending: bool
) -> tuple[tuple[str, int], ...]:
    """§7.5.1.1: the DRMs a side may add to its Retreat before Combat roll, one unit of its choice: half the printed
    Effectiveness (rounded up, §5.1) of an undisrupted armoured car or recce unit in its stack; for the defender
    against an attacking stack of leg units only, the full printed Effectiveness of any of its motorised or
    mechanised units. Each unit once, with its best value."""
    divisor = pack.number("rbc_recce_divisor")
    options: dict[str, int] = {}
    for unit in own:
        if unit.unit.is_recce and not unit.disrupted:
            options[unit.id] = -(-unit.unit.eff.front // divisor)
    if defending and all(e.unit.movement == "leg" for e in enemy):
        for unit in own:
            if unit.unit.movement != "leg":
                options[unit.id] = max(options.get(unit.id, 0), unit.unit.eff.front)
    return tuple(options.items())


def check_rbc_bonus(
    pack: GazalaPack, own: Sequence[Combatant], enemy: Sequence[Combatant], unit: str | None, *, defending: bool
) -> Verdict:
    """§7.5.1.1: the unit named for the Retreat before Combat DRM is one of :func:`rbc_bonus_options` (None: none)."""
    if unit is None or unit in dict(rbc_bonus_options(pack, own, enemy, defending=defending)):
        return ALLOW
    return deny("7.5.1.1", "rbc-bonus", "that unit gives no Retreat before Combat DRM")


def rbc_succeeds(attacker_total: int, defender_total: int) -> bool:
    """§7.5.1.1: the retreat succeeds if the defender's modified d10 is greater than the attacker's (a tie fails)."""
    return defender_total > attacker_total


def _rbc_rule(sit: Situation, movers: Sequence[str], start: HexId) -> MoveCost:
    """§7.5.1.1: the movement rule of a Retreat before Combat: the board's (:func:`~.board.move_rule`) without
    Screen movement, except that the first step may go from the attacker's zone straight into another EZOC ("it is
    allowed to enter a hex adjacent to other enemy units"), at the hex's TEC cost, and ends the move there."""
    board = sit.board
    inner = move_rule(sit, movers, screen=False)
    side = movers_side(board, movers)
    paying = columns(board, movers, on_route=False)

    def rule(here: HexId, there: HexId, hexside: Hexside) -> StepCost:
        step = inner(here, there, hexside)
        if not (isinstance(step, Blocked) and step.reason == "zoc-to-zoc" and here == start):
            return step
        if sit.enemy_minefield(there, side):
            return step  # an enemy Minefield from an EZOC stays closed (it is never a Screen move either)
        rows = (board.tec[board.grid.terrain(there)], board.hex_row(there, sit.position.breached, side))
        if any(row.prohibited for row in rows):
            return Blocked("7.3.2", "prohibited-terrain")
        if hexside.id in board.all_mp or any(row.all_mp for row in rows):
            return Cost(0, rest=True, first=True, stop=True)
        return Cost(max(board.cost(row, column) for row in rows for column in paying), stop=True)

    return rule


def check_rbc_move(sit: Situation, movers: Sequence[str], path: Sequence[HexId], *, supplied: bool) -> Verdict:
    """§7.5.1.1: the free Movement Action of a successful Retreat before Combat: the whole defending stack
    (``movers``: every unit and HQ of the hex) along ``path`` (``[h0 … hn]``), by :func:`_rbc_rule` and the stack's
    budget (:func:`~.board.budget`). Refused: ``rbc-stack`` (not the whole stack of ``h0``), or the walk's reason."""
    position = sit.position
    if len(path) < 2:
        return deny("7.5.1.1", "rbc-stack", "a Retreat before Combat moves at least one hex")
    here = path[0]
    stack = {u for u, h in position.units.items() if h == here} | {h for h, at in position.hqs.items() if at == here}
    if set(movers) != stack:
        return deny("7.5.1.1", "rbc-stack", f"a Retreat before Combat moves every unit of {here}, and only them")
    walked = sit.board.grid.walk(
        path, budget(sit.board, movers, supplied=supplied), _rbc_rule(sit, movers, here), minimum_move=True
    )
    if walked.ok:
        return ALLOW
    return deny(walked.rule or "7.5.1.1", walked.reason, f"step {walked.step} of the Retreat before Combat")
