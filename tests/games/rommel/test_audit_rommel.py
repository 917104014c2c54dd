"""The end-of-game audit of public claims (notes §7.2): a hidden block moved faster than its speed, and a card that
is not held, are caught and attributed to their seat."""

from __future__ import annotations

import pytest

from pbem.games.rommel.audit import audit
from pbem.games.rommel.state import unit_slot
from tests.games.rommel.rules_driver import Table


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
