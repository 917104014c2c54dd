"""The optional Air Transport rule of *Axis & Allies: North Africa* (p.38) as an action of the noncombat move.

With the genesis option ``air_transport`` on, ``airlift`` flies one Axis bomber out of its power's staging
territory (Italy) carrying one land unit of the same power (of the pack's ``cargo.air_transport`` types); both
start there and both end where the bomber lands (a territory its side held at the start of the turn, within the
bomber's move). Neither may have moved or fought this turn, and both are spent afterwards. The legality is
:func:`.transport.check_air_transport`'s, along the shortest way the bomber may fly
(:func:`.phases.air_reach_path`).
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.games.axisallies import phases as ph
from pbem.games.axisallies.actions import Airlift
from pbem.games.axisallies.state import AxisState, added, key
from pbem.games.axisallies.transport import check_air_transport
from pbem.rules.contract import Event, Step, Verdict, deny

__all__ = ["airlift", "airlifts", "can_airlift"]


def _carriers(state: AxisState) -> list[str]:
    """The power's bomber types (*Collateral Damage*, the chart's bombers) with a piece free to move in its
    staging territory."""
    staging = state.pack.power(state.power).staging
    if staging is None or state.options.get("air_transport") != "on":
        return []
    return [
        u.type
        for u in state.pack.units
        if u.power == state.power
        and u.category == "air"
        and u.has("collateral_damage")
        and ph.movable(state, staging, key(state.power, u.type)) > 0
    ]


def airlifts(state: AxisState, seat: str) -> Iterator[Airlift]:
    staging = state.pack.power(state.power).staging
    for bomber in _carriers(state):
        assert staging is not None
        for cargo in state.pack.cargo.air_transport:
            if ph.movable(state, staging, key(state.power, cargo)) <= 0:
                continue
            for there in state.landing:
                if there != staging:
                    yield Airlift(unit=bomber, cargo=cargo, to=there)


def can_airlift(state: AxisState, seat: str, act: Airlift) -> Verdict:
    rule = next(o for o in state.pack.optional_rules if o.id == "air_transport")
    if state.options.get(rule.id) != "on":
        return deny(rule.rule, "optional-rule-off", "Air Transport is not in force")
    staging = state.pack.power(state.power).staging
    if staging is None:
        return deny(rule.rule, "not-from-staging", f"{state.power} has no staging territory")
    if ph.movable(state, staging, key(state.power, act.unit)) <= 0:
        return deny(rule.rule, "no-unit-to-move", f"no {state.power} {act.unit} in {staging} may still move")
    if ph.movable(state, staging, key(state.power, act.cargo)) <= 0:
        return deny(rule.rule, "cargo-missing", f"no {state.power} {act.cargo} in {staging} may still move")
    path = ph.air_reach_path(state, act.unit, staging, act.to)
    if path is None:
        return deny("16", "too-far", f"{act.unit} cannot fly from {staging} to {act.to}")
    return check_air_transport(
        state.pack,
        ph.scenario_of(state),
        state.position(),
        state.power,
        act.unit,
        path,
        act.cargo,
        landing=frozenset(state.landing),
        options=frozenset(o for o, v in state.options.items() if v == "on"),
    )


def airlift(state: AxisState, seat: str, act: Airlift) -> Step[AxisState]:
    staging = state.pack.power(state.power).staging
    assert staging is not None
    pieces, spent = state.pieces, state.spent
    for type_ in (act.unit, act.cargo):
        k = key(state.power, type_)
        pieces = added(added(pieces, staging, k, -1), act.to, k, 1)
        spent = added(spent, act.to, k, 1)
    state = state.model_copy(update={"pieces": pieces, "spent": spent})
    data = {"power": state.power, "unit": act.unit, "cargo": act.cargo, "src": staging, "dst": act.to}
    return Step(state=state, events=(Event(kind="air_transported", seat=seat, rule="38", data=data),))
