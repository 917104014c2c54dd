"""§7.7: the Improved Defence marker goes as soon as one unit of its hex is Disrupted, whatever disrupts it (an
Effectiveness Check, a Minefield Check, overstacking, a retreat passing through)."""

from __future__ import annotations

import pytest

from pbem.games.gazala.victory import disrupt
from tests.games.gazala.gazala_play import place, start


@pytest.mark.rule("7.7")
def test_a_disruption_in_the_hex_removes_its_improved_defence() -> None:
    state = place(start("opening-phase"), **{"i-5": "2820", "ii-5": "2820", "104": "2920"})
    state = state.model_copy(update={"improved": ("2820", "2920")})
    done = disrupt(state, ("i-5",))
    assert done.units["i-5"].disrupted and not done.units["ii-5"].disrupted
    assert done.improved == ("2920",)
    assert disrupt(state, ()).improved == state.improved
