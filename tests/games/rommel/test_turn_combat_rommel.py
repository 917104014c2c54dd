"""Rommel Combat phase over the battle library: selecting battles (§8.6, §4.3; none after a Partial Retreat, §10.4),
the Battle Array (§8.5), Defensive then Offensive Fire (§9.1-§9.4) and the owner's loss reports (§9.5)."""

from __future__ import annotations

import pytest

from pbem.games.rommel.state import Fight, cv_slot, unit_slot
from tests.games.rommel.rules_driver import R, Table


def attacked(dice: list[int], cards: list[int] | None = None) -> Table:
    """The demo: axis-02 (Italian infantry, CV 4) attacks Sollum (allied-01, British motor infantry, CV 3)."""
    table = Table("demo-1940", cards=cards, dice=dice)
    table.set_up()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "commit", "card": 1})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "group", "origin": "1505", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1605"})
    table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    table.do("allied", {"action": "accept_battle"})  # §8.4: the Passive Player does not Refuse Battle
    return table


@pytest.mark.rule("8.6")
def test_a_new_battle_is_fought_before_the_turn_ends() -> None:
    table = attacked([])
    assert table.refusal("axis", {"action": "end_combat"}) == ("8.6", "new-battle")
    assert table.refusal("axis", {"action": "fight", "hex": "1505", "assault": False}) == ("8.6", "no-battle")


@pytest.mark.rule("8.5")
def test_the_battle_array_reveals_the_blocks() -> None:
    table = attacked([1, 1, 1, 1, 1, 1, 1])
    table.do("axis", {"action": "fight", "hex": "1605", "assault": False})
    for token in ("axis-02", "allied-01"):
        assert table.state.hidden[unit_slot(token)].public and table.state.hidden[cv_slot(token)].public
    assert not table.state.hidden[unit_slot("axis-03")].public
    fight = table.state.pending[-1]
    assert isinstance(fight, Fight) and fight.seat == "allied"  # Defensive Fire first (§9.1)


@pytest.mark.rule("9.5")
def test_fire_and_losses_follow_the_library() -> None:
    # allied-01 (motor infantry, CV 3) fires at infantry (SF: 6s hit): 6, 6, 1 -> 2 hits on axis-02
    table = attacked([6, 6, 1, 6, 2, 3, 4])
    table.do("axis", {"action": "fight", "hex": "1605", "assault": False})
    assert table.legal("allied") == [
        {"action": "fire", "token": "allied-01", "target": "infantry"},
        {"action": "cease"},
    ]
    table.do("allied", {"action": "fire", "token": "allied-01", "target": "infantry"})
    assert R.to_act(table.state) == ("axis",)  # the owner reports the losses
    assert table.legal("axis") == [{"action": "losses", "target": "infantry", "losses": {"axis-02": 2}}]
    assert table.refusal("axis", {"action": "losses", "target": "infantry", "losses": {"axis-02": 1}}) == (
        "9.5",
        "hits-wasted",
    )
    table.do("axis", {"action": "losses", "target": "infantry", "losses": {"axis-02": 2}})
    assert table.state.hidden[cv_slot("axis-02")].value == 2
    # Offensive Fire with the reduced unit: 2 dice, 6 and 2 -> 1 hit
    table.do("axis", {"action": "fire", "token": "axis-02", "target": "infantry"})
    table.do("allied", {"action": "losses", "target": "infantry", "losses": {"allied-01": 1}})
    assert table.state.hidden[cv_slot("allied-01")].value == 2
    assert not table.state.pending and table.state.turn.stage == "combat"
    table.do("axis", {"action": "end_combat"})
    assert table.state.active == "allied"


@pytest.mark.rule("9.1")
def test_firing_is_optional_and_ends_the_volley() -> None:
    table = attacked([6, 6, 6, 6])
    table.do("axis", {"action": "fight", "hex": "1605", "assault": False})
    table.do("allied", {"action": "cease"})
    assert R.to_act(table.state) == ("axis",) and table.state.pending[-1].awaiting == "fire"  # type: ignore[attr-defined]
    assert table.refusal("axis", {"action": "fire", "token": "axis-03", "target": "infantry"}) == (
        "9.2",
        "not-in-battle",
    )


@pytest.mark.rule("4.3")
def test_assaults_need_an_assault_turn() -> None:
    table = Table("demo-1940", dice=[])
    table.set_up()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "group", "origin": "1505", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1605"})
    table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    table.do("allied", {"action": "accept_battle"})  # §8.4: the Passive Player does not Refuse Battle
    assert table.refusal("axis", {"action": "fight", "hex": "1605", "assault": True}) == ("4.3", "not-assault-turn")


def two_attackers() -> Table:
    """axis-02 and axis-06 attacked Sollum (allied-01) in the Axis's first turn, fought it without loss, and the
    Allies passed: the Axis's second turn begins with two undisrupted units in the battle."""
    table = Table("demo-1940", dice=[1] * 12)
    table.set_up()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "commit", "card": 1})
    table.do("axis", {"action": "select"})
    for origin, token in (("1505", "axis-02"), ("1506", "axis-06")):
        table.do("axis", {"action": "group", "origin": origin, "rommel": False})
        table.do("axis", {"action": "step", "token": token, "to": "1605"})
        table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    table.do("allied", {"action": "accept_battle"})
    table.do("axis", {"action": "fight", "hex": "1605", "assault": False})
    table.do("allied", {"action": "cease"})
    table.do("axis", {"action": "cease"})
    table.do("axis", {"action": "end_combat"})
    for action in ("select", "end_movement", "end_combat"):
        table.do("allied", {"action": action})
    table.do("axis", {"action": "commit", "card": 2})
    table.do("axis", {"action": "select"})
    return table


@pytest.mark.rule("10.4")
def test_no_combat_in_a_battle_after_a_partial_retreat_from_it() -> None:
    table = two_attackers()
    table.do("axis", {"action": "group", "origin": "1605", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1506"})  # axis-02 stays: the Rearguard
    table.do("axis", {"action": "end_move"})
    table.do("allied", {"action": "probe", "provoke": False})  # §10.41: no Probe Combat
    table.do("axis", {"action": "end_movement"})
    assert "1605" in table.state.battles and table.state.turn.partial == ("1605",)
    assert table.refusal("axis", {"action": "fight", "hex": "1605", "assault": False}) == (
        "10.4",
        "partial-retreat-no-combat",
    )
    assert table.legal("axis") == [{"action": "end_combat"}]


@pytest.mark.rule("10.4")
def test_a_battle_nobody_retreated_from_may_be_fought() -> None:
    table = two_attackers()
    table.do("axis", {"action": "end_movement"})
    assert {"action": "fight", "hex": "1605", "assault": False} in table.legal("axis")


@pytest.mark.rule("10.4")
@pytest.mark.parametrize("bars", [True, False])
def test_the_fortress_attackers_partial_retreat_follows_the_genesis_option(bars: bool) -> None:
    """Notes §10.9: were Sollum a Fortress, §10.4 (no combat after a Partial Retreat) meets §13.2 (the Attacker
    must fight in a Fortress). The default (True) lets §10.4 win; False lets §13.2 win."""
    table = two_attackers()
    table.do("axis", {"action": "group", "origin": "1605", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1506"})
    table.do("axis", {"action": "end_move"})
    table.do("allied", {"action": "probe", "provoke": False})
    table.do("axis", {"action": "end_movement"})
    state = table.state
    battles = {**state.battles, "1605": state.battles["1605"].model_copy(update={"fortress": True})}
    options = {**state.options, "partial_retreat_bars_fortress_combat": bars}
    table.state = state.model_copy(update={"battles": battles, "options": options})
    fight = {"action": "fight", "hex": "1605", "assault": False}
    if bars:
        assert table.refusal("axis", fight) == ("10.4", "partial-retreat-no-combat")
        assert table.legal("axis") == [{"action": "end_combat"}]
    else:
        assert fight in table.legal("axis")
        assert table.refusal("axis", {"action": "end_combat"}) == ("13.2", "fortress-combat")
