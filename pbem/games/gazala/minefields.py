"""Enemy Minefield entry (§7.3.6) and the Breach Minefield Action (§7.4): preconditions, DRMs and results.

The dice come through the protocol; these functions say who must roll, with which modifiers (kit ``Term``s, each
citing its rule, every value from the pack) and what a given roll yields (the pack's tables via the kit's
``CombatTable``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pbem.games.gazala.board import Situation
from pbem.games.gazala.data import BreachResult, MineResult
from pbem.kit.hexes import HexId
from pbem.kit.tables import Lookup, Term, Total
from pbem.rules.contract import ALLOW, Verdict, deny

KG_HECKER = "kg-hecker"
"""The unit id of Kampfgruppe Hecker, whose presence modifies both rolls (§7.3.6, §7.4)."""


def minefield_entry(sit: Situation, movers: Sequence[str], path: Sequence[HexId]) -> tuple[str, ...]:
    """§7.3.6: the units that must take an Enemy Minefield Check before a (legal) move: every mover when the move
    enters an unbreached enemy Minefield or Box (its one step: :func:`~.board.move_rule` allows nothing else)."""
    side = sit.board.side[movers[0]]
    if len(path) == 2 and sit.enemy_minefield(path[-1], side):
        return tuple(movers)
    return ()


def box_supplies(sit: Situation, hex_id: HexId) -> bool:
    """§5.7.3: whether a Box hex still functions as a Commonwealth Box supply source: "once breached, a Box ceases to
    function" for the rest of the game. Which Box: that hex only (ruling ``box_breach`` ``hex``, notes B15), or the
    whole Box one of whose hexes is breached (``whole``)."""
    breached = sit.position.breached
    if hex_id in breached:
        return False
    if not sit.position.whole_boxes:
        return True
    box = sit.board.mines[hex_id].box
    return not any(sit.board.mines[h].box == box for h in breached if h in sit.board.mines)


def check_column(sit: Situation, unit: str) -> Literal["infantry", "recce", "tank"]:
    """§7.3.6: the Enemy Minefield Check table column of a unit's type (tanks, recce/armoured cars, the rest)."""
    record = sit.board.units[unit]
    if record.is_tank:
        return "tank"
    return "recce" if record.is_recce else "infantry"


def _hecker_with(sit: Situation, unit: str, stack: Sequence[str]) -> bool:
    """KG Hecker is assigned to the unit's formation and in ``stack`` (the unit may be KG Hecker itself)."""
    formation = sit.formation(unit)
    return KG_HECKER in stack and formation is not None and sit.formation(KG_HECKER) == formation


def _engineer(sit: Situation, unit: str, rule: str) -> list[Term]:
    formation = sit.formation(unit)
    if formation is None:
        return []
    hq = sit.board.hq_of[formation]
    return [Term(label=f"{hq.name} engineer", value=hq.engineer, rule=rule)]  # a label players read


def minefield_check_drm(
    sit: Situation, unit: str, movers: Sequence[str], *, in_command: bool, schwerpunkt: bool
) -> Total:
    """§7.3.6 Enemy Minefield DRMs: the parent HQ's Engineer rating if the unit was In Command when the move began;
    ``kg_hecker_minefield_drm`` if KG Hecker is assigned to its formation and moves in the same stack; the
    Schwerpunkt's ``schwerpunkt_minefield_drm`` (§5.9)."""
    pack = sit.board.pack
    terms = _engineer(sit, unit, "7.3.6") if in_command else []
    if _hecker_with(sit, unit, movers):
        terms.append(Term(label="KG Hecker", value=pack.number("kg_hecker_minefield_drm"), rule="7.3.6"))
    if schwerpunkt:
        terms.append(Term(label="Schwerpunkt", value=pack.number("schwerpunkt_minefield_drm"), rule="5.9"))
    return Total.of(terms)


def minefield_check(sit: Situation, unit: str, roll: int, drm: int) -> Lookup[MineResult]:
    """§7.3.6: the Enemy Minefield Check result of ``roll`` (the d10, 0 read as 10) modified by ``drm`` in the
    unit's column: ``success`` (it must enter), ``disrupt`` or ``disrupt_loss`` (it stays, Disrupted, -1 SP)."""
    table = sit.board.pack.tables.minefield_check
    return table.lookup(table.named_column(check_column(sit, unit)), roll + drm)


def can_breach(sit: Situation, unit: str, *, command: Verdict) -> Verdict:
    """§7.4 Breach Minefield preconditions: an infantry-type unit (infantry, engineer, mot inf, Panzergrenadier;
    KG Hecker is an engineer), in an unbreached enemy Minefield hex, not Disrupted (§5.6.3) and In Command
    (``command``: the unit's :func:`~.paths.in_command`; §5.8.3 OOC and Isolated units may only Move and make
    Hasty Attacks)."""
    board, position = sit.board, sit.position
    record = board.units.get(unit)
    if record is None or unit not in position.units:
        return deny("7.4", "not-a-unit", f"{unit} is not a combat unit on the map")
    if not record.is_infantry:
        return deny("7.4", "not-infantry", f"{unit} is not an infantry-type unit")
    if not sit.enemy_minefield(position.units[unit], record.side):
        return deny("7.4", "not-in-enemy-minefield", f"{unit} is not in an unbreached enemy Minefield")
    if unit in position.disrupted:
        return deny("5.6.3", "disrupted", f"{unit} is Disrupted: it may only Refit")
    if not command.ok:
        return command
    return ALLOW


def breach_drm(sit: Situation, unit: str, *, in_command: bool, schwerpunkt: bool) -> Total:
    """§7.4 Breach Attempt DRMs: the parent HQ's Engineer rating if In Command; ``kg_hecker_breach_drm`` if KG
    Hecker is assigned to its formation and stacked with it (itself included, per the example); ``ezoc_breach_drm``
    in an EZOC; the Schwerpunkt's ``schwerpunkt_breach_drm`` (§5.9)."""
    pack = sit.board.pack
    here = sit.position.units[unit]
    terms = _engineer(sit, unit, "7.4") if in_command else []
    stack = [u for u, h in sit.position.units.items() if h == here]
    if _hecker_with(sit, unit, stack):
        terms.append(Term(label="KG Hecker", value=pack.number("kg_hecker_breach_drm"), rule="7.4"))
    if here in sit.enemy_zone(sit.board.side[unit]):
        terms.append(Term(label="in an EZOC", value=pack.number("ezoc_breach_drm"), rule="7.4"))
    if schwerpunkt:
        terms.append(Term(label="Schwerpunkt", value=pack.number("schwerpunkt_breach_drm"), rule="5.9"))
    return Total.of(terms)


def breach(sit: Situation, hex_id: HexId, roll: int, drm: int) -> Lookup[BreachResult]:
    """§7.4: the Minefield Breach result of ``roll`` modified by ``drm`` in the row of the hex's type (a Box hex's
    row, or a plain Minefield's): ``success`` (breached for good) or ``no_effect``."""
    table = sit.board.pack.tables.minefield_breach
    mine = sit.board.mines[hex_id]
    return table.lookup(table.named_column("box" if mine.box is not None else "minefield"), roll + drm)
