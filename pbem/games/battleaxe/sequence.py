"""The sequence of play of Operation Battleaxe (6, 8-17) on the kit's step machine.

Each step of :data:`pbem.games.battleaxe.state.Step` is a machine phase: the actions it allows, the rule it
follows and the side that acts. The actions themselves (candidates, predicate, effect) are declared by the
module of their phase of the rulebook. The machine's seats are the sides: the ruleset maps a player's seat to
a side before asking it (:mod:`.ruleset`; until bids decide the sides, 18.1, :mod:`.phase_bids` decides).

A step that waits for dice (``state.awaiting``) lets nobody act; :data:`RESUME` names the rule that goes on
once they are rolled.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated

from pydantic import Field, TypeAdapter

from pbem.games.battleaxe import (
    phase_combat,
    phase_impulse,
    phase_losses,
    phase_movement,
    phase_refit,
    phase_setup,
    phase_sunset,
)
from pbem.games.battleaxe.actions import BattleaxeAction
from pbem.games.battleaxe.board import ALLIED, Side, enemy
from pbem.games.battleaxe.context import Result, context
from pbem.games.battleaxe.state import BattleaxeState
from pbem.kit.machine import Machine, Phase
from pbem.rules.contract import Step, Verdict

__all__ = ["MACHINE", "RESUME", "STEPS", "apply", "check"]


def _step(
    name: str, actions: tuple[str, ...], rule: str, actor: Callable[[BattleaxeState], Side | None]
) -> Phase[BattleaxeState]:
    def to_act(state: BattleaxeState) -> tuple[str, ...]:
        side = None if state.awaiting is not None else actor(state)
        return () if side is None else (side,)

    return Phase(name, actions, rule=rule, to_act=to_act)


def _mover(state: BattleaxeState) -> Side:
    return state.half


def _other(state: BattleaxeState) -> Side:
    return enemy(state.half)


def _allies(state: BattleaxeState) -> Side:
    return ALLIED


def _holder(state: BattleaxeState) -> Side | None:
    return state.advantage


def _refitting(state: BattleaxeState) -> Side | None:
    return None if state.refit is None else state.refit.side


def _nobody(state: BattleaxeState) -> Side | None:
    return None


_ADVANTAGE = ("fuel_shortage", "rommel")

STEPS = (
    _step("setup", ("place",), "5.2.1", _allies),
    _step("impulse", ("assault", "regroup", "consolidate", "pass", *_ADVANTAGE), "8.1", _mover),
    _step("assault", ("move", "attack", "activate", "end_overrun", "end_assault", *_ADVANTAGE), "9.1", _mover),
    _step("declare", ("join", "lead", "support"), "11.4.2", _mover),
    _step("defend", ("defend",), "11.4.3", _other),
    _step("max_attack", ("maximum_attack", "accept"), "12.1", _mover),
    _step("fanatical", ("fanatical_defense", "accept"), "12.1", _other),
    _step("allocate", ("absorb",), "11.5", _other),
    _step("attacker_retreat", ("retreat",), "11.6", _mover),
    _step("voluntary_retreat", ("retreat", "stay"), "11.6.3", _other),
    _step("overrun", ("overrun", "decline"), "11.4.4", _mover),
    _step("regroup", ("regroup_move", "end_regroup"), "8.1.2", _mover),
    _step("daylight", ("prolonged_daylight", "nightfall"), "12.1", _holder),
    _step("intercepts", ("wireless_intercepts", "no_intercepts"), "19.1", _mover),
    _step("fuel_window", ("fuel_shortage", "no_fuel_shortage"), "12.1", _allies),
    _step(
        "refit", ("increase_replacements", "flip", "recover", "tiger_cubs", "rebuild", "end_refit"), "13.2", _refitting
    ),
    _step("over", (), "17.2", _nobody),
)


def _state_step(state: BattleaxeState) -> str:
    return state.step


MACHINE: Machine[BattleaxeState, BattleaxeAction] = Machine(
    adapter=TypeAdapter(Annotated[BattleaxeAction, Field(discriminator="action")]),
    rule="8.0",
    phases=STEPS,
    interrupts=(),
    actions=(
        *phase_setup.ACTIONS,
        *phase_impulse.ACTIONS,
        *phase_movement.ACTIONS,
        *phase_sunset.ACTIONS,
        *phase_refit.ACTIONS,
        *phase_combat.ACTIONS,
        *phase_losses.ACTIONS,
    ),
    phase_of=_state_step,
)


def _surrendered(state: BattleaxeState, dice: Mapping[str, tuple[int, ...]]) -> Result:
    return phase_refit.surrender(state, dice["surrender"])


def _sunset(state: BattleaxeState, dice: Mapping[str, tuple[int, ...]]) -> Result:
    return phase_sunset.sunset_rolled(state, dice["sunset"])


RESUME: Mapping[str, Callable[[BattleaxeState, Mapping[str, tuple[int, ...]]], Result]] = {
    "attacker_artillery": phase_combat.attacker_artillery,
    "combat": phase_combat.resolve,
    "sunset": _sunset,
    "surrender": _surrendered,
}
"""What goes on once the dice a step waits for (``state.awaiting``) are rolled."""

_EFFECTS = {spec.name: spec.effect for spec in MACHINE.actions}


def check(state: BattleaxeState, side: str, act: BattleaxeAction) -> Verdict:
    """Whether ``side`` may take ``act`` now (the machine's verdict), remembering an allowed one for :func:`apply`."""
    verdict = MACHINE.check(state, side, act)
    if verdict.ok:
        context(state).checked = (state, side, act)
    elif verdict.reason == "not-now":  # in the player's words: what cannot be done now, and where the game is
        what, step = act.action.replace("_", " "), state.step.replace("_", " ")
        return Verdict(
            ok=False, rule=verdict.rule, reason=verdict.reason, message=f"{what} is not possible now ({step})"
        )
    return verdict


def apply(state: BattleaxeState, side: str, act: BattleaxeAction) -> Step[BattleaxeState]:
    """Apply ``act``. The engine asks :func:`check` first: if it has just allowed these very (immutable) objects,
    the effect runs straight away; any other call goes through the machine, which checks first.

    Raises:
        ActionError: R004 malformed, R002 not the side's turn, R001 illegal (with the rule).
    """
    ctx = context(state)
    last, ctx.checked = ctx.checked, None
    if last is not None and last[0] is state and last[2] is act and last[1] == side:
        return _EFFECTS[act.action](state, side, act)
    return MACHINE.apply(state, side, act)
