"""Helpers for Battleaxe rules tests: positions built directly on the ruleset (no log needed)."""

from __future__ import annotations

from typing import Any

from pbem.games.battleaxe.ruleset import RULESET
from pbem.games.battleaxe.state import BattleaxeState, UnitState
from pbem.rules.contract import Outcome, Roster, RosterSeat

R = RULESET
DATA = R.load_data(R.default_data())
ROSTER = Roster(seats=(RosterSeat(seat="allied", team="allied"), RosterSeat(seat="axis", team="axis")))
DEFAULTS = {o.id: o.default for o in R.options}


def new_game(**options: Any) -> BattleaxeState:
    """A game after the historical Allied free set-up (11H in D, CIH in B), Allied Impulse 1 of June 15."""
    state = R.setup("campaign", {**DEFAULTS, **options}, ROSTER, DATA)
    for row in DATA.tables.historical_setup:
        if row.unit in state.setup_left:
            state = play(state, "allied", {"action": "place", "unit": row.unit, "zone": row.location})
    for unit in state.setup_left:  # 19.3's consolidated 4th RTR
        state = play(state, "allied", {"action": "place", "unit": unit, "zone": "C"})
    return state


def play(state: BattleaxeState, seat: str, action: dict[str, Any]) -> BattleaxeState:
    assert action in R.legal_actions(state, seat), (action, R.check(state, seat, action))
    return R.apply(state, seat, action).state


def plays(state: BattleaxeState, seat: str, *actions: dict[str, Any]) -> BattleaxeState:
    for action in actions:
        state = play(state, seat, action)
    return state


def refusal(state: BattleaxeState, seat: str, action: dict[str, Any]) -> tuple[str | None, str]:
    assert action not in R.legal_actions(state, seat)
    verdict = R.check(state, seat, action)
    assert not verdict.ok
    return verdict.rule, verdict.reason


def roll(state: BattleaxeState, **faces: tuple[int, ...]) -> BattleaxeState:
    """Answer the pending dice with these faces (as the engine does after the reveals)."""
    assert state.rolls is not None, "no dice are pending"
    wanted = {r.id for r in state.rolls.rolls}
    assert set(faces) == wanted, f"the rules ask for {sorted(wanted)}"
    return R.resume(state.model_copy(update={"rolls": None}), Outcome(dice=faces)).state


def placed(state: BattleaxeState, **where: str | None) -> BattleaxeState:
    """Move units by hand (``None`` eliminates), keeping their strength."""
    units = dict(state.units)
    for unit, location in where.items():
        units[unit.replace("_", "-")] = units[unit.replace("_", "-")].model_copy(update={"location": location})
    return state.model_copy(update={"units": units})


def reduced(state: BattleaxeState, *unit_ids: str) -> BattleaxeState:
    units = {**state.units, **{u: state.units[u].model_copy(update={"full": False}) for u in unit_ids}}
    return state.model_copy(update={"units": units})


def controlled(state: BattleaxeState, **control: str) -> BattleaxeState:
    return state.model_copy(update={"control": {**state.control, **control}})


def axis_turn(state: BattleaxeState) -> BattleaxeState:
    """Let the Allies pass so that the Axis half of the Impulse begins."""
    return play(state, "allied", {"action": "pass"})


def off_board(state: BattleaxeState, *keep: str) -> BattleaxeState:
    """Eliminate every unit except ``keep`` (a clean board for a focused test)."""
    units = {u: (p if u in keep else UnitState(location=None, full=p.full)) for u, p in state.units.items()}
    return state.model_copy(update={"units": units})
