"""The state's typed transitions and the machine that runs it: the changes dicts mirror the models' fields, the
empty pending stack never enters a hash, and the phases' context is kept with the pack, not in a module."""

from __future__ import annotations

from typing import get_type_hints

import pytest
from pydantic import BaseModel

from pbem.errors import ActionError
from pbem.games.battleaxe import context, state
from pbem.games.battleaxe.ruleset import RULESET
from pbem.games.battleaxe.sequence import INTERRUPTS, MACHINE, STEPS
from pbem.kit.machine import MachineState, push
from pbem.replay.basics import state_hash
from pbem.rules.contract import GameState
from tests.games.battleaxe.position import new_game

CHANGES: list[tuple[type[BaseModel], type]] = [
    (state.Assault, state.AssaultChanges),
    (state.Combat, state.CombatChanges),
    (state.Refit, state.RefitChanges),
    (state.BattleaxeState, state.StateChanges),
]
ENGINE_FIELDS = set(GameState.model_fields) | set(MachineState.model_fields) - {"phase"}


@pytest.mark.parametrize(("model", "changes"), CHANGES, ids=[m.__name__ for m, _ in CHANGES])
def test_each_changes_dict_types_exactly_the_fields_of_its_model(model: type[BaseModel], changes: type) -> None:
    own = {name: info.annotation for name, info in model.model_fields.items() if name not in ENGINE_FIELDS}
    own.pop("pack", None)  # the data pack never changes during a game
    assert get_type_hints(changes) == own


def test_evolve_changes_a_copy_and_keeps_the_original() -> None:
    before = new_game()
    after = state.evolve(before, vp=3, step="assault")
    assert (before.vp, before.step, after.vp, after.step) == (0, "impulse", 3, "assault")


def test_the_empty_pending_stack_is_not_serialized_so_old_checkpoints_keep_their_hashes() -> None:
    game = new_game()
    assert "pending" not in game.model_dump(mode="json")
    assert state_hash(game) == state_hash(game.model_copy(update={"pending": ()}))


def test_with_nothing_pending_the_retired_fields_are_hashed_as_logs_signed_before_the_stack_hashed_them() -> None:
    game = new_game()
    dumped = game.model_dump(mode="json")
    assert (dumped["awaiting"], dumped["surrender_units"]) == (None, [])  # their values while nothing waited
    assert {"awaiting", "surrender_units"}.isdisjoint(state.BattleaxeState.model_fields)  # no longer state
    waiting = push(game, state.waiting("sunset", "axis"))
    assert waiting.model_dump(mode="json")["pending"] == [{"kind": "sunset", "seat": "axis", "units": []}]
    assert state_hash(waiting) != state_hash(game)


def test_every_step_but_the_bids_is_a_phase_and_every_action_is_offered_by_a_phase_or_an_interrupt() -> None:
    steps = {p.name for p in STEPS}
    assert steps == set(state.Step.__args__) - {"bid", "tiebreak"}  # the bids are decided by seat (18.1)
    declared = [spec.name for spec in MACHINE.actions]
    offered = {a for where in (*STEPS, *INTERRUPTS) for a in where.actions}
    assert len(declared) == len(set(declared)) == len(offered)
    assert MACHINE.allowed(new_game()) == ("assault", "regroup", "consolidate", "pass", "fuel_shortage", "rommel")


def test_the_context_is_built_once_per_pack_and_kept_with_it() -> None:
    game = new_game()
    assert context.context(game) is context.context(state.evolve(game, vp=1))
    assert context.at(game) is context.at(game)  # the same position: the same facts


def test_apply_skips_the_second_check_only_for_the_very_action_just_allowed() -> None:
    game = new_game()
    allowed = RULESET.parse_action({"action": "pass"})
    assert RULESET.contains(game, "allied", allowed).ok
    illegal = RULESET.parse_action({"action": "move", "unit": "7rtr", "to": "7"})
    with pytest.raises(ActionError) as refused:
        RULESET.apply(game, "allied", illegal)  # another action: the machine checks it, and refuses it
    assert refused.value.code.id == "R001"
    assert RULESET.contains(game, "allied", allowed).ok
    assert RULESET.apply(game, "allied", allowed).state.half == "axis"
