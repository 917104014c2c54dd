"""The end-of-game audit of public claims (notes §7.2): a hidden block moved faster than its speed, too many pursuit
dice, a misannounced slowest retreating speed, a misreported strength, and a card that is not held, are caught and
attributed to their entry and seat."""

from __future__ import annotations

import pytest

from pbem.games.rommel.audit import audit
from pbem.games.rommel.state import Claim, cv_slot, unit_slot
from tests.games.rommel.rules_driver import Table
from tests.games.rommel.test_turn_combat_rommel import attacked


def public(table: Table) -> dict[str, str]:
    """Hide every block's identity from the replay (as the opponent's replay sees them); the identities, returned,
    are what the end-of-game disclosure reveals."""
    state = table.state
    revealed = {}
    hidden = dict(state.hidden)
    for name, slot in state.hidden.items():
        if name.startswith("unit/"):
            revealed[name.removeprefix("unit/")] = slot.value
            hidden[name] = slot.model_copy(update={"known": False, "value": None})
    table.state = state.model_copy(update={"hidden": hidden})
    return revealed


@pytest.mark.rule("6.1")
def test_a_hidden_block_moved_faster_than_its_speed_is_caught_at_the_audit() -> None:
    table = Table("demo-1940")
    table.set_up()
    revealed = public(table)
    assert table.state.hidden[unit_slot("axis-07")].known is False
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    # axis-07 is leg infantry (speed 1); the opponent's replay cannot see that and allows the fastest speed
    table.do("axis", {"action": "step", "token": "axis-07", "to": "1507"})
    table.do("axis", {"action": "step", "token": "axis-07", "to": "1508"})
    assert [c.value for c in table.state.claims] == [1, 2]
    found = audit(table.state, revealed)
    assert found is not None
    assert (found.seat, found.rule, found.reason, found.act) == ("axis", "6.1", "too-fast", table.state.claims[1].act)
    assert audit(table.state) is None  # nothing to check until the identities are revealed


@pytest.mark.rule("6.1")
def test_honest_moves_pass_the_audit() -> None:
    table = Table("demo-1940")
    table.set_up()
    revealed = public(table)
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1507"})  # motorized: speed 2
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1508"})
    assert audit(table.state, revealed) is None


@pytest.mark.rule("3.42")
def test_a_card_not_held_cannot_be_played() -> None:
    table = Table("demo-1940")
    table.set_up()
    held = len(table.state.decks["supply"].hands["axis"])
    assert table.refusal("axis", {"action": "commit", "card": held}) == ("3.42", "not-held")
    assert table.refusal("axis", {"action": "commit", "card": -1}) == ("3.42", "not-held")


def _claim(table: Table, kind: str, token: str, value: int, group: tuple[str, ...], against: int = 0) -> Claim:
    """A battle claim as the stage records it (the retreating or pursuing seat's, made at the current action)."""
    seat = table.state.tokens[token].side
    return Claim(
        act=table.state.acts, seat=seat, token=token, kind=kind, value=value, rule="10.5", group=group, against=against
    )


@pytest.mark.rule("10.5")
def test_a_player_claiming_too_many_pursuit_dice_is_caught_at_the_audit() -> None:
    table = Table("demo-1940")
    table.set_up()
    revealed = public(table)
    pack = table.state.pack
    # axis-06 (motorized, speed 2) and axis-07 (leg infantry, speed 1) pursue a group whose slowest speed is 1: two
    # dice for the faster unit, one for the equal one; so 0, 1, 2 or 3 dice may be claimed, never 4
    faster, equal = pack.limit("pursuit_dice_faster"), pack.limit("pursuit_dice_equal")
    honest = _claim(table, "pursuit", "axis-06", faster + equal, ("axis-06", "axis-07"), against=1)
    greedy = _claim(table, "pursuit", "axis-06", 2 * faster, ("axis-06", "axis-07"), against=1)
    greedy = greedy.model_copy(update={"act": honest.act + 1})
    table.state = table.state.model_copy(update={"claims": (honest, greedy)})
    found = audit(table.state, revealed)
    assert found is not None
    assert (found.act, found.seat, found.rule, found.reason) == (greedy.act, "axis", "10.5", "pursuit-dice-miscounted")
    table.state = table.state.model_copy(update={"claims": (honest,)})
    assert audit(table.state, revealed) is None


@pytest.mark.rule("10.5")
def test_a_misannounced_slowest_retreating_speed_is_caught_at_the_audit() -> None:
    table = Table("demo-1940")
    table.set_up()
    revealed = public(table)
    # the group axis-06 (speed 2) and axis-07 (speed 1) retreats: its slowest speed is 1, announced as 2
    lying = _claim(table, "slowest", "axis-06", 2, ("axis-06", "axis-07"))
    table.state = table.state.model_copy(update={"claims": (lying,)})
    found = audit(table.state, revealed)
    assert found is not None
    assert (found.seat, found.rule, found.reason) == ("axis", "10.5", "slowest-speed-misreported")
    truthful = _claim(table, "slowest", "axis-06", 1, ("axis-06", "axis-07"))
    table.state = table.state.model_copy(update={"claims": (truthful,)})
    assert audit(table.state, revealed) is None


@pytest.mark.rule("2.3")
def test_a_misreported_strength_is_caught_when_the_battle_opens_it() -> None:
    table = attacked([6, 6, 1, 6, 2, 3, 4])
    # the Axis committed CV 6 for axis-02, an Italian infantry block of at most CV 4
    table.state = table.state.with_hidden(cv_slot("axis-02"), "axis", 6, known=True)
    table.do("axis", {"action": "fight", "hex": "1605", "assault": False})
    act = table.state.acts
    found = audit(table.state)
    assert found is not None
    assert (found.act, found.seat, found.rule, found.reason) == (act, "axis", "2.3", "strength-out-of-range")
    # the replay that sees the opened values refuses to fight on with it
    fire = {"action": "fire", "token": "allied-01", "target": "infantry"}
    verdict = table.check("allied", fire)
    assert (verdict.ok, verdict.rule, verdict.reason) == (False, "2.3", "strength-out-of-range")
    verdict = table.check("allied", {"action": "cease"})
    assert (verdict.ok, verdict.rule, verdict.reason) == (False, "2.3", "strength-out-of-range")


@pytest.mark.rule("2.3")
def test_honest_strengths_opened_by_a_battle_pass_the_audit() -> None:
    table = attacked([6, 6, 1, 6, 2, 3, 4])
    table.do("axis", {"action": "fight", "hex": "1605", "assault": False})
    strengths = {c.token: c.value for c in table.state.claims if c.kind == "strength"}
    assert strengths == {"axis-02": 4, "allied-01": 3}
    assert audit(table.state) is None


@pytest.mark.rule("9.5")
def test_a_loss_report_beyond_the_committed_strength_is_refused() -> None:
    # Defensive Fire: allied-01's 6, 6, 1 -> 2 hits on axis-02 (CV 4, opened by the Battle Array)
    table = attacked([6, 6, 1, 6, 6, 3, 4])
    table.do("axis", {"action": "fight", "hex": "1605", "assault": False})
    table.do("allied", {"action": "fire", "token": "allied-01", "target": "infantry"})
    # a report of more CV than the hits allow is refused at once (the CVs are public from the Battle Array on)
    too_much = {"action": "losses", "target": "infantry", "losses": {"axis-02": 3}}
    verdict = table.check("axis", too_much)
    assert not verdict.ok and verdict.rule == "9.5"
    table.do("axis", {"action": "losses", "target": "infantry", "losses": {"axis-02": 2}})
    table.do("axis", {"action": "fire", "token": "axis-02", "target": "infantry"})  # 6, 6: 2 hits on allied-01 (CV 3)
    verdict = table.check("allied", {"action": "losses", "target": "infantry", "losses": {"allied-01": 1}})
    assert not verdict.ok and verdict.rule == "9.5"
    table.do("allied", {"action": "losses", "target": "infantry", "losses": {"allied-01": 2}})
    assert table.state.hidden[cv_slot("allied-01")].value == 1
    assert audit(table.state) is None
