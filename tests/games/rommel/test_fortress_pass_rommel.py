"""Rommel: Fortress Combat in Pass Turns (§13.5 sidebar, §13.2): once the reveal shows a Pass, the passing player's
Fortress Attackers Disengage by Withdrawal Move (a Full Retreat, pursued), and those unable to withdraw are Routed."""

from __future__ import annotations

import pytest

from pbem.games.rommel.state import Pursuit, Withdrawal
from tests.games.rommel.rules_driver import R, Table
from tests.games.rommel.test_turn_rommel import demo


def besieging_bardia(allied_cards: list[int], *, dummy: bool = False) -> Table:
    """allied-01 attacks the Axis Fortress of Bardia (1504, axis-01) from Sollum and fights a round; the Axis then
    plays a real card, and the Allies commit ``allied_cards`` (none: a Pass, which fights no battle). ``dummy``: the
    Allies' last card is a dummy."""
    table = demo()
    if dummy:  # the §19 demo deal, the Allies' third card a dummy
        real = table.state.pack.deck.real
        order = [*range(6), 6, 7, real, *(c for c in range(8, real + table.state.pack.deck.dummy) if c != real)]
        table = Table("demo-1940", cards=order)
        table.set_up()
    for action in ("select", "end_movement", "end_combat"):
        table.do("axis", {"action": action})
    table.do("allied", {"action": "commit", "card": 0})
    table.do("allied", {"action": "select"})
    table.do("allied", {"action": "group", "origin": "1605", "rommel": False})
    table.do("allied", {"action": "step", "token": "allied-01", "to": "1504"})
    table.do("allied", {"action": "end_move"})
    table.do("allied", {"action": "end_movement"})
    table.do("axis", {"action": "accept_battle"})
    table.dice = [1] * 8
    table.do("allied", {"action": "fight", "hex": "1504", "assault": False})
    table.do("axis", {"action": "cease"})
    table.do("allied", {"action": "cease"})
    table.do("allied", {"action": "end_combat"})
    table.do("axis", {"action": "commit", "card": 1})
    for action in ("select", "end_movement", "end_combat"):
        table.do("axis", {"action": action})
    for card in allied_cards:
        table.do("allied", {"action": "commit", "card": card})
    table.do("allied", {"action": "select"})
    table.do("allied", {"action": "end_movement"})
    record = table.state.battles["1504"]
    assert (record.fortress, record.attacker) == (True, "allied")
    if allied_cards and not dummy:  # not a Pass: the Attacker must fight in the Fortress (§13.2)
        table.dice = [1] * 8
        table.do("allied", {"action": "fight", "hex": "1504", "assault": False})
        table.do("axis", {"action": "cease"})
        table.do("allied", {"action": "cease"})
    table.do("allied", {"action": "end_combat"})
    return table


@pytest.mark.rule("13.5")
@pytest.mark.rule("13.2")
def test_a_passing_fortress_attacker_withdraws_after_pursuit_fire() -> None:
    table = besieging_bardia([])
    assert (table.state.active, table.state.passes) == ("axis", 1)
    withdrawal, pursuit = table.state.pending
    assert isinstance(withdrawal, Withdrawal) and (withdrawal.cause, withdrawal.group) == ("fortress", ("allied-01",))
    assert isinstance(pursuit, Pursuit) and (pursuit.cause, pursuit.pursuers) == ("retreat", ("axis-01",))
    assert [e.rule for e in table.events if e.kind == "fortress_withdrawal"] == ["13.5"]
    assert R.to_act(table.state) == ("allied",)
    table.do("allied", {"action": "slowest", "speed": 3})
    table.do("axis", {"action": "pursue", "dice": 0})
    assert table.refusal("allied", {"action": "end_withdrawal"}) == ("13.5", "must-withdraw")
    table.do("allied", {"action": "withdraw", "token": "allied-01", "to": "1605"})
    table.do("allied", {"action": "end_withdrawal"})
    tok = table.state.tokens["allied-01"]
    assert (tok.hex, tok.disrupted) == ("1605", True) and "1504" not in table.state.battles
    assert not table.state.pending and R.to_act(table.state) == ("axis",)


@pytest.mark.rule("13.5")
@pytest.mark.rule("11.3")
def test_a_passing_fortress_attacker_unable_to_withdraw_routs() -> None:
    table = besieging_bardia([])
    tokens = dict(table.state.tokens)  # an Axis unit into Sollum behind it: no way back
    tokens["axis-03"] = tokens["axis-03"].model_copy(update={"hex": "1605"})
    table.state = table.state.model_copy(update={"tokens": tokens})
    table.do("allied", {"action": "slowest", "speed": 3})
    table.do("axis", {"action": "pursue", "dice": 0})
    assert not [a for a in table.legal("allied") if a["action"] == "withdraw"]
    table.do("allied", {"action": "end_withdrawal"})
    tok = table.state.tokens["allied-01"]
    assert (tok.hex, tok.disrupted, tok.status) == ("1504", True, "map")  # Routed, not eliminated
    assert [e.kind for e in table.events if e.kind == "routed"] == ["routed"]
    kinds = [(p.kind, getattr(p, "cause", None)) for p in table.state.pending]
    assert kinds == [("withdrawal", "rout"), ("pursuit", "rout")]


@pytest.mark.rule("13.5")
def test_a_fortress_attacker_that_did_not_pass_stays() -> None:
    table = besieging_bardia([0])  # a real card: not a Pass (revealed at the end of the turn, §3.48)
    assert table.state.passes == 0 and not table.state.pending
    assert table.state.battles["1504"].attacker == "allied"


@pytest.mark.rule("13.5")
@pytest.mark.rule("3.48")
def test_a_bluffed_pass_by_a_fortress_attacker_is_a_pass_at_the_reveal() -> None:
    table = besieging_bardia([1], dummy=True)  # its one card committed is the dummy: a Pass
    assert table.state.passes == 1
    assert [(p.kind, getattr(p, "cause", None)) for p in table.state.pending] == [
        ("withdrawal", "fortress"),
        ("pursuit", "retreat"),
    ]
