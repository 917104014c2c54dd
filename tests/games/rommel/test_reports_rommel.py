"""What Rommel's players read: event texts that name the blocks (with their division, once their identity is public)
and say what happened; views that give reports each block's steps (its CV, §2.3) and kind (its arms class) only where
the viewer may see them; action descriptions that name tokens as blocks, never by their ids."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.rommel import supplycheck
from pbem.games.rommel.mapspec import block_name
from pbem.games.rommel.present import public_label, token_label
from pbem.games.rommel.state import unit_slot
from pbem.rules.contract import OMNISCIENT, UnitView
from tests.games.rommel.rules_driver import R, Table
from tests.games.rommel.test_turn_combat_rommel import attacked


def _unit(table: Table, viewer: str, token: str) -> UnitView:
    return next(u for u in R.view(table.state, viewer).units if u.id == token)


def _block(table: Table, token: str) -> str:
    value = table.state.hidden[unit_slot(token)].value
    assert isinstance(value, str)
    return value


def _events(table: Table, kind: str) -> list[Any]:
    return [e for e in table.events if e.kind == kind]


def fought() -> Table:
    """The demo battle at Sollum (1605): allied-01 fires 6 6 1 at infantry, axis-02 loses 2 CV (§9.4, §9.5)."""
    table = attacked([6, 6, 1, 6, 2, 3, 4])
    table.do("axis", {"action": "fight", "hex": "1605", "assault": False})
    table.do("allied", {"action": "fire", "token": "allied-01", "target": "infantry"})
    table.do("axis", {"action": "losses", "target": "infantry", "losses": {"axis-02": 2}})
    return table


def test_a_block_name_carries_its_division() -> None:
    pack = Table("demo-1940").state.pack
    names = [block_name(b) for b in pack.blocks]
    assert len(set(names)) == len(names)  # no two blocks read alike
    assert all(b.division in block_name(b) for b in pack.blocks if b.division)


@pytest.mark.rule("9.4")
def test_fire_names_the_block_its_dice_and_target() -> None:
    table = fought()
    (fire,) = _events(table, "fired")[:1]
    name = block_name(table.state.pack.block(_block(table, "allied-01")))
    assert name in fire.text and "infantry" in fire.text
    assert all(str(d) in fire.text for d in fire.data["dice"]) and "allied-01" not in fire.text


@pytest.mark.rule("9.5")
def test_a_reduction_is_told_with_the_block_and_its_loss() -> None:
    table = fought()
    (reduced,) = _events(table, "unit_reduced")
    assert reduced.data == {"unit": "axis-02", "cv": 2}
    assert block_name(table.state.pack.block(_block(table, "axis-02"))) in reduced.text
    assert "2 CV" in reduced.text


@pytest.mark.rule("8.5")
def test_a_hidden_block_is_named_only_by_its_token() -> None:
    table = attacked([])
    tok = table.state.tokens["axis-03"]
    assert not table.state.hidden[unit_slot("axis-03")].public
    assert public_label(table.state, "axis-03") == token_label("axis", "axis-03", tok.hex, table.state.pack)
    table.do("axis", {"action": "fight", "hex": "1605", "assault": False})  # the Battle Array reveals axis-02
    assert block_name(table.state.pack.block(_block(table, "axis-02"))) in public_label(table.state, "axis-02")


@pytest.mark.rule("12.7")
def test_the_supply_check_names_every_unsupplied_block() -> None:
    table = attacked([])
    state = table.state.model_copy(update={"active": "allied"})
    far = "0101" if "0101" in state.pack.land() else min(state.pack.land())
    tokens = {**state.tokens, "allied-01": state.tokens["allied-01"].model_copy(update={"hex": far})}
    state = state.model_copy(update={"tokens": tokens})
    _, events = supplycheck.initial_check(state)
    (checked,) = [e for e in events if e.kind == "supply_checked"]
    assert checked.data["unsupplied"], "the test needs an Unsupplied block"
    for token in checked.data["unsupplied"]:
        assert public_label(state, token) in checked.text


@pytest.mark.rule("2.3")
def test_views_give_steps_and_kind_only_where_seen() -> None:
    table = attacked([])
    own = _unit(table, "axis", "axis-02")
    assert own.steps == own.strength == 4 and own.kind == "infantry" and not own.hidden
    assert own.name == block_name(table.state.pack.block(_block(table, "axis-02")))
    enemy = _unit(table, "allied", "axis-02")
    assert enemy.hidden and enemy.steps is None and enemy.strength is None and enemy.kind == ""
    assert enemy.name == token_label("axis", "axis-02", None, table.state.pack)
    assert _unit(table, OMNISCIENT, "axis-02").steps == 4


@pytest.mark.rule("9.5")
def test_losses_show_as_steps_to_the_enemy_after_the_reveal() -> None:
    table = attacked([6, 6, 1, 6, 2, 3, 4])
    table.do("axis", {"action": "fight", "hex": "1605", "assault": False})
    assert _unit(table, "allied", "axis-02").steps == 4  # revealed (§8.5)
    table.do("allied", {"action": "fire", "token": "allied-01", "target": "infantry"})
    table.do("axis", {"action": "losses", "target": "infantry", "losses": {"axis-02": 2}})
    seen = _unit(table, "allied", "axis-02")
    assert seen.steps == 2 and seen.kind == "infantry"
    assert _unit(table, "allied", "axis-03").steps is None  # never revealed


def test_describe_names_tokens_as_blocks() -> None:
    fire = R.describe({"action": "fire", "token": "axis-02", "target": "infantry"})
    assert "axis-02" not in fire and "Axis block 02" in fire
    losses = R.describe({"action": "losses", "target": "infantry", "losses": {"allied-01": 1}})
    assert "allied-01" not in losses and "Allied block 01 1 CV" in losses


@pytest.mark.rule("12.7")
def test_a_supply_check_with_nothing_to_tell_is_silent() -> None:
    table = attacked([])
    _, events = supplycheck.initial_check(table.state)
    (checked,) = [e for e in events if e.kind == "supply_checked"]
    assert not checked.data["unsupplied"] and checked.text == ""


@pytest.mark.rule("2.3")
def test_an_eliminated_block_has_no_steps_left() -> None:
    table = attacked([])
    tokens = {**table.state.tokens}
    tokens["axis-03"] = tokens["axis-03"].model_copy(update={"status": "eliminated", "hex": None})
    table.state = table.state.model_copy(update={"tokens": tokens})
    for viewer in ("axis", "allied"):
        assert _unit(table, viewer, "axis-03").steps == 0
    assert _unit(table, "allied", "axis-03").kind == ""  # its identity stays hidden


@pytest.mark.rule("8.5")
def test_an_opened_slot_reads_in_the_games_words_never_as_a_slot_id() -> None:
    table = fought()
    look = R.presentation(table.state.pack)
    block = _block(table, "axis-02")
    identity = look.opened(unit_slot("axis-02"), block)
    assert "unit/" not in identity and block_name(table.state.pack.block(block)) in identity
    assert look.opened("cv/axis-02", 3).endswith("CV 3") and "cv/" not in look.opened("cv/axis-02", 3)
    assert "1605" in look.opened("mine/allied-1", "1605") and "mine/" not in look.opened("mine/allied-1", "1605")
    assert "/" not in look.opened("losses/axis", {"axis-02": 1}) and "/" not in look.opened("bp/axis", 4)
