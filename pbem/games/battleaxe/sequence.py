"""The sequence of play of Operation Battleaxe (6, 8-17) on the kit's step machine.

Each step of :data:`pbem.games.battleaxe.state.Step` is a machine phase: the actions it allows, the rule it
follows and the side that acts. A decision that suspends it (the defender's response, the Advantage's windows,
loss allocation, retreats, an Overrun's choice) is an :data:`INTERRUPTS` entry on the machine's pending stack,
and so are the dice the game waits for (nobody acts; its ``resume`` goes on once they are rolled). The actions
themselves (candidates, predicate, effect) are declared by the module of their phase of the rulebook. The
machine's seats are the sides: the ruleset maps a player's seat to a side before asking it (:mod:`.ruleset`;
until bids decide the sides, 18.1, :mod:`.phase_bids` decides).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated

from pydantic import Field, TypeAdapter

from pbem.errors import PbemError
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
from pbem.games.battleaxe.board import ALLIED, Side
from pbem.games.battleaxe.context import Result, context
from pbem.games.battleaxe.state import BattleaxeState, now
from pbem.kit.machine import Interrupt, Machine, Phase
from pbem.rules.contract import Outcome, Step, Verdict

__all__ = ["INTERRUPTS", "MACHINE", "STEPS", "apply", "check"]


def _step(
    name: str, actions: tuple[str, ...], rule: str, actor: Callable[[BattleaxeState], Side | None]
) -> Phase[BattleaxeState]:
    def to_act(state: BattleaxeState) -> tuple[str, ...]:
        side = actor(state)
        return () if side is None else (side,)

    return Phase(name, actions, rule=rule, to_act=to_act)


def _mover(state: BattleaxeState) -> Side:
    return state.half


def _allies(state: BattleaxeState) -> Side:
    return ALLIED


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
    _step("regroup", ("regroup_move", "end_regroup"), "8.1.2", _mover),
    _step("intercepts", ("wireless_intercepts", "no_intercepts"), "19.1", _mover),
    _step(
        "refit", ("increase_replacements", "flip", "recover", "tiger_cubs", "rebuild", "end_refit"), "13.2", _refitting
    ),
    _step("over", (), "17.2", _nobody),
)


def _rolled(
    goes_on: Callable[[BattleaxeState, Mapping[str, tuple[int, ...]]], Result],
) -> Callable[[BattleaxeState, Outcome], Step[BattleaxeState]]:
    """The ``resume`` of a wait for dice: ``goes_on`` with the faces (it pops or replaces the wait)."""

    def resume(state: BattleaxeState, outcome: Outcome) -> Step[BattleaxeState]:
        if outcome.dice is None:  # bids are opened before; the rest of the game has no hidden information (7.1)
            raise PbemError("R008", f"battleaxe: {now(state)} waits for dice, not for openings")
        new, events = goes_on(state, outcome.dice)
        return Step(state=new, events=tuple(events))

    return resume


def _surrendered(state: BattleaxeState, dice: Mapping[str, tuple[int, ...]]) -> Result:
    return phase_refit.surrender(state, dice["surrender"])


def _sunset(state: BattleaxeState, dice: Mapping[str, tuple[int, ...]]) -> Result:
    return phase_sunset.sunset_rolled(state, dice["sunset"])


INTERRUPTS: tuple[Interrupt[BattleaxeState], ...] = (
    Interrupt("defend", ("defend",), rule="11.4.3"),
    Interrupt("max_attack", ("maximum_attack", "accept"), rule="12.1"),
    Interrupt("fanatical", ("fanatical_defense", "accept"), rule="12.1"),
    Interrupt("allocate", ("absorb",), rule="11.5"),
    Interrupt("attacker_retreat", ("retreat",), rule="11.6"),
    Interrupt("voluntary_retreat", ("retreat", "stay"), rule="11.6.3"),
    Interrupt("overrun", ("overrun", "decline"), rule="11.4.4"),
    Interrupt("daylight", ("prolonged_daylight", "nightfall"), rule="12.1"),
    Interrupt("fuel_window", ("fuel_shortage", "no_fuel_shortage"), rule="12.1"),
    Interrupt("attacker_artillery", (), rule="10.2.1", resume=_rolled(phase_combat.attacker_artillery)),
    Interrupt("combat", (), rule="11.4", resume=_rolled(phase_combat.resolve)),
    Interrupt("sunset", (), rule="6.2.1", resume=_rolled(_sunset)),
    Interrupt("surrender", (), rule="14.2.3", resume=_rolled(_surrendered)),
)
"""The decisions that suspend a step, with the actions each allows and the seat its pending entry names; and the
dice the game waits for, with what goes on once they are rolled."""


def _state_step(state: BattleaxeState) -> str:
    return state.step


MACHINE: Machine[BattleaxeState, BattleaxeAction] = Machine(
    adapter=TypeAdapter(Annotated[BattleaxeAction, Field(discriminator="action")]),
    rule="8.0",
    phases=STEPS,
    interrupts=INTERRUPTS,
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

_EFFECTS = {spec.name: spec.effect for spec in MACHINE.actions}


def check(state: BattleaxeState, side: str, act: BattleaxeAction) -> Verdict:
    """Whether ``side`` may take ``act`` now (the machine's verdict), remembering an allowed one for :func:`apply`."""
    verdict = MACHINE.check(state, side, act)
    if verdict.ok:
        context(state).checked = (state, side, act)
    elif verdict.reason == "not-now":  # in the player's words: what cannot be done now, and where the game is
        what, step = act.action.replace("_", " "), now(state).replace("_", " ")
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
