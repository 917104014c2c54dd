"""The Axis & Allies look in reports (present.AxisAlliesLook): the board from the pack, the stage of a turn, and per
power its income, supply and reinforcements."""

from __future__ import annotations

import pytest

from pbem.games.axisallies import present
from pbem.games.axisallies.economy import income
from pbem.games.axisallies.ruleset import RULESET
from pbem.rules.contract import OMNISCIENT
from tests.games.axisallies.rules_helpers import start


@pytest.mark.rule("13")
def test_each_power_shows_its_income_supply_and_reinforcements() -> None:
    state = start()
    look = RULESET.presentation(state.pack)
    assert isinstance(look, present.AxisAlliesLook)
    view = RULESET.view(state, OMNISCIENT)
    lines = dict(look.status(view))
    turns = [p for p in state.pack.powers if p.turn_order is not None]
    assert list(lines) == [p.name for p in sorted(turns, key=lambda p: p.turn_order or 0)]
    for power in turns:
        rp = income(state.pack, state.position(), power.id, upkeep_paid=False).value
        assert lines[power.name].startswith(f"income {rp} RP; ")
    assert look.scores(view) == {f"{p.name} RP": int(lines[p.name].split()[1]) for p in turns}


def test_the_stage_is_the_power_and_its_phase_and_the_board_is_the_packs() -> None:
    state = start()
    look = RULESET.presentation(state.pack)
    assert look is not None
    view = RULESET.view(state, OMNISCIENT)
    assert look.stage(view) == view.summary.split(", ", 1)[1]
    assert {r.id for r in look.map_spec().regions} >= {t.id for t in state.pack.territories}
    assert "turn_started" in look.highlights
