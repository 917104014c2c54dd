"""The optional Reinforcing Land Attacks of *Axis & Allies: North Africa* (p.38) as an action of the press.

With the genesis option ``reinforcing_land_attacks`` on, when the attacker presses a land attack (step 5, before
any supply is paid for the next round) it may ``reinforce`` it, one piece at a time, with land combat units in a
territory adjacent to the contested one that have at least 1 unused movement point from the combat move and
declared no attack this turn: those that did not move and did not attack (not ``spent``), and those that moved,
kept a point and declared no attack (``kept``: a blitzer that stayed, a unit whose attack could no longer be
paid; a blitzer that went on, ``exhausted``, kept none). Scout cars and units that cannot attack are excepted
(the combat library's :func:`.combat_end.check_reinforcements`), and they must be able to enter. They join the
attack from their territory, are paid for with the rest when pressing, and move no more this turn (a moved one
joins first: it could not move in phase 5 anyway). Anti-tank guns among them never aim at tanks: they fight from
round 2 on, when no gun does (p.30).
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.games.axisallies.actions import Reinforce
from pbem.games.axisallies.combat_end import check_reinforcements
from pbem.games.axisallies.movement import may_enter
from pbem.games.axisallies.operated import name, operated_pieces, operates, resolve
from pbem.games.axisallies.phase_combat import battle_of
from pbem.games.axisallies.position import graph_of
from pbem.games.axisallies.state import AxisState, added, key, split, tally
from pbem.rules.contract import Event, Step, Verdict, deny

__all__ = ["can_reinforce", "fresh", "reinforce", "reinforces"]


def reinforces(state: AxisState, seat: str) -> Iterator[Reinforce]:
    if state.battle is None or state.options.get("reinforcing_land_attacks") != "on":
        return
    for edge in graph_of(state.pack).edges(state.battle.space):
        if edge.type != "land":
            continue
        for k in sorted(operated_pieces(state, edge.b)):
            unit = state.pack.unit(*split(k))
            if unit.category == "land" and unit.combat:
                yield Reinforce(origin=edge.b, unit=name(state, k))


def can_reinforce(state: AxisState, seat: str, act: Reinforce) -> Verdict:
    record = state.battle
    assert record is not None  # the press decision is pushed with its battle
    rule = next(o for o in state.pack.optional_rules if o.id == "reinforcing_land_attacks")
    options = frozenset(o for o, v in state.options.items() if v == "on")
    graph = graph_of(state.pack)
    if act.origin not in graph.nodes:
        return deny("10", "unknown-territory", f"{act.origin} is not a territory")
    edge = graph.edge(act.origin, record.space)
    if edge is None or edge.type != "land":
        return deny(rule.rule, "not-adjacent", f"{act.origin} is not in attack position against {record.space}")
    if record.paid:
        return deny("23", "turn-aside-first", "reinforcements join before the supply is paid")
    power, type_ = resolve(state, act.unit)
    try:
        unit = state.pack.unit(power, type_)
    except KeyError:
        return deny("8", "unknown-unit", f"{power} has no {type_}")
    if not operates(state, power, act.origin):
        return deny("29", "not-operated", f"{state.power} does not attack with {power}'s pieces")
    verdict = check_reinforcements(state.pack, battle_of(record), {act.origin: {(power, type_): 1}}, options=options)
    if not verdict.ok:
        return verdict
    k = key(power, type_)
    if fresh(state, act.origin, k) <= 0:
        return deny(rule.rule, "no-fresh-unit", f"no {unit.id} in {act.origin} with a point left and no attack")
    side = state.pack.power(state.power).side or "axis"
    scenario = state.pack.scenario(state.scenario)
    return may_enter(state.pack, scenario, state.position(), side, unit, record.space, act.origin)


def fresh(state: AxisState, origin: str, unit_key: str) -> int:
    """p.38: pieces of ``unit_key`` in ``origin`` with a movement point left that declared no attack this turn."""
    unspent = state.count(origin, unit_key) - tally(state.spent, origin, unit_key)
    return unspent + tally(state.kept, origin, unit_key)


def reinforce(state: AxisState, seat: str, act: Reinforce) -> Step[AxisState]:
    record = state.battle
    assert record is not None
    k = key(*resolve(state, act.unit))
    record = record.model_copy(update={"land": added(record.land, act.origin, k, 1)})
    if tally(state.kept, act.origin, k):
        state = state.model_copy(update={"battle": record, "kept": added(state.kept, act.origin, k, -1)})
    else:
        state = state.model_copy(update={"battle": record, "spent": added(state.spent, act.origin, k, 1)})
    data = {"unit": k, "src": act.origin, "dst": record.space}
    return Step(state=state, events=(Event(kind="reinforced", seat=seat, rule="38", data=data),))
