"""Rommel Minefields (§14, §16.55): built and swapped in secret in the Buildup, revealed when the enemy enters them
(§14.2), on the §19 demo (the Allies' network runs from Sollum 1605 along the highway to Alexandria 2605)."""

from __future__ import annotations

import pytest

from pbem.games.rommel.buildup import bp_slot
from pbem.games.rommel.minefields import mine_hex
from tests.games.rommel.rules_driver import R, Table
from tests.games.rommel.test_redeploy_rommel import allied_buildup


def to_axis_turn(table: Table) -> None:
    """Both Buildups ended, no Initiative Challenge: the Axis turn begins."""
    table.do("allied", {"action": "end_buildup"})
    while any(a["action"] == "identify" for a in table.legal("axis")):
        table.do("axis", table.first_legal("axis", "identify"))
    table.do("axis", {"action": "end_buildup"})
    table.do("allied", {"action": "challenge", "card": None})
    assert table.state.active == "axis" and table.state.turn.stage == "select"


def entered_sidi_omar_neighbour() -> Table:
    """Allied Minefields in 1606 (next to the Axis at Sidi Omar 1506) and 2205; the Axis moves into 1606."""
    table = allied_buildup(bp=40)
    table.do("allied", {"action": "build_minefield", "hex": "1606"})
    table.do("allied", {"action": "build_minefield", "hex": "2205"})
    to_axis_turn(table)
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1606"})
    table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    return table


@pytest.mark.rule("16.55")
def test_a_minefield_is_built_in_secret_in_the_friendly_network_for_its_bp() -> None:
    table = allied_buildup(bp=20)
    assert table.refusal("allied", {"action": "build_minefield", "hex": "1504"}) == ("16.55", "outside-network")
    assert R.secret_fields(table.state, "allied", {"action": "build_minefield"}) == {"hex": "mine/allied-1"}
    table.do("allied", {"action": "build_minefield", "hex": "1805"})
    assert table.state.mines == {"mine/allied-1": "hidden"} and mine_hex(table.state, "mine/allied-1") == "1805"
    assert table.state.hidden[bp_slot("allied")].value == 20 - table.state.pack.limit("bp_minefield")
    assert table.state.minefields == ()  # nobody else knows where
    assert table.refusal("allied", {"action": "build_minefield", "hex": "1905"}) == ("16.5", "short-of-bp")
    unseen = R.contains(table.state, "allied", R.typed({"action": "build_minefield"}), unseen=frozenset({"hex"}))
    assert not unseen.ok and (unseen.rule, unseen.reason) == ("16.5", "short-of-bp")
    hidden = table.state.with_hidden(bp_slot("allied"), "allied", None, known=False)
    assert R.contains(hidden, "allied", R.typed({"action": "build_minefield"}), unseen=frozenset({"hex"})).ok


@pytest.mark.rule("14.0")
def test_no_minefield_in_a_battle_hex() -> None:
    from pbem.games.rommel.state import BattleRecord

    table = allied_buildup(bp=20)
    table.state = table.state.model_copy(update={"battles": {"1705": BattleRecord(defender="allied", attacker="axis")}})
    assert table.refusal("allied", {"action": "build_minefield", "hex": "1705"}) == ("14.0", "battle-hex")


@pytest.mark.rule("16.55")
def test_two_minefields_in_the_network_are_swapped_for_a_new_one_at_no_cost() -> None:
    table = allied_buildup(bp=30)
    table.do("allied", {"action": "build_minefield", "hex": "1805"})
    assert table.refusal(
        "allied", {"action": "swap_minefields", "first": "mine/allied-1", "second": "mine/allied-1", "hex": "2005"}
    ) == (
        "16.55",
        "same-minefield",
    )
    table.do("allied", {"action": "build_minefield", "hex": "1905"})
    assert table.refusal(
        "allied", {"action": "swap_minefields", "first": "mine/allied-1", "second": "1905", "hex": "2005"}
    ) == (
        "16.55",
        "not-a-minefield",
    )
    reversed_pair = {"action": "swap_minefields", "first": "mine/allied-2", "second": "mine/allied-1", "hex": "2005"}
    assert table.refusal("allied", reversed_pair) == ("16.55", "pair-order")  # one written form, as the list offers
    swap = {"action": "swap_minefields", "first": "mine/allied-1", "second": "mine/allied-2", "hex": "2005"}
    table.do("allied", swap)
    assert table.state.mines == {
        "mine/allied-1": "dismantled",
        "mine/allied-2": "dismantled",
        "mine/allied-3": "hidden",
    }
    assert table.state.hidden[bp_slot("allied")].value == 0 and mine_hex(table.state, "mine/allied-3") == "2005"


@pytest.mark.rule("14.2")
def test_a_minefield_the_enemy_entered_is_revealed_at_the_end_of_the_movement_phase() -> None:
    table = entered_sidi_omar_neighbour()
    assert table.state.turn.stage == "mines" and R.to_act(table.state) == ("allied",)
    assert table.refusal("allied", {"action": "mines_done"}) == ("14.2", "must-reveal")
    assert table.refusal("allied", {"action": "reveal_mine", "mine": "mine/allied-2"}) == ("14.2", "not-entered")
    assert table.refusal("axis", {"action": "end_combat"}) == ("3.0", "not-your-turn")
    table.do("allied", {"action": "reveal_mine", "mine": "mine/allied-1"})
    assert table.state.minefields == ("1606",) and table.state.mines["mine/allied-1"] == "revealed"
    assert table.state.mines["mine/allied-2"] == "hidden"
    table.do("allied", {"action": "mines_done"})
    assert table.state.turn.stage == "combat" and R.to_act(table.state) == ("axis",)


@pytest.mark.rule("14.2")
def test_no_minefield_stage_when_the_enemy_entered_none_of_its_hexes_or_has_none() -> None:
    table = allied_buildup()
    to_axis_turn(table)
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1606"})
    table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    assert table.state.turn.stage == "combat"
    assert table.refusal("allied", {"action": "mines_done"}) == ("3.0", "not-your-turn")


@pytest.mark.rule("14.1")
def test_a_minefield_is_in_its_builders_view_only_until_revealed() -> None:
    table = entered_sidi_omar_neighbour()
    assert R.view(table.state, "allied").facts["own_minefields"] == ["1606", "2205"]
    assert R.view(table.state, "axis").facts["own_minefields"] == []
    assert R.view(table.state, "axis").facts["minefields"] == []
    table.do("allied", {"action": "reveal_mine", "mine": "mine/allied-1"})
    assert R.view(table.state, "axis").facts["minefields"] == ["1606"]
    assert R.view(table.state, "allied").facts["own_minefields"] == ["2205"]
