"""§3.3: an HQ is removed from play only when every unit of its formation and every unit assigned to it has been
eliminated."""

from __future__ import annotations

import pytest

from pbem.games.gazala.state import GazalaState
from pbem.games.gazala.victory import lose
from tests.games.gazala.gazala_play import PACK, kinds, start, update


def _members(state: GazalaState, formation: str) -> list[str]:
    return sorted(u for u, c in state.units.items() if PACK.unit(u).formation == formation or c.assigned == formation)


def _eliminate(state: GazalaState, units: list[str]) -> tuple[GazalaState, list[str]]:
    found: list[str] = []
    for unit in units:
        state, events = lose(state, unit, state.units[unit].cs, "7.5.2.1")
        found += kinds(events)
    return state, found


@pytest.mark.rule("3.3")
def test_the_hq_goes_with_the_last_unit_of_its_formation() -> None:
    state = start("opening-phase")
    members = _members(state, "21pz")
    assert members and state.hqs["21pz-hq"].hex is not None
    some, found = _eliminate(state, members[:-1])
    assert "hq_removed" not in found and some.hqs["21pz-hq"].hex is not None
    done, found = _eliminate(some, members[-1:])
    assert found[:2] == ["unit_eliminated", "hq_removed"] and done.hqs["21pz-hq"].hex is None


@pytest.mark.rule("5.9")
def test_the_schwerpunkt_leaves_with_its_formations_hq_until_the_next_organisation() -> None:
    state = start("opening-phase", schwerpunkt="21pz")
    assert state.schwerpunkt == "21pz"
    done, found = _eliminate(state, _members(state, "21pz"))
    assert found[-2:] == ["hq_removed", "schwerpunkt_lost"] and done.schwerpunkt is None
    kept, found = _eliminate(start("opening-phase", schwerpunkt="15pz"), _members(state, "21pz"))
    assert "schwerpunkt_lost" not in found and kept.schwerpunkt == "15pz"


@pytest.mark.rule("3.3")
def test_a_unit_still_to_arrive_or_an_assigned_one_keeps_the_hq() -> None:
    state = start("opening-phase")
    members = _members(state, "21pz")
    waiting = update(state, members[-1], hex=None)  # not eliminated: a reinforcement still to come
    kept, found = _eliminate(waiting, members[:-1])
    assert "hq_removed" not in found and kept.hqs["21pz-hq"].hex is not None
    other = next(
        u
        for u, c in state.units.items()
        if PACK.unit(u).formation is None and PACK.unit(u).side == "axis" and c.hex is not None and u not in members
    )
    assigned = update(state, other, assigned="21pz")
    kept, found = _eliminate(assigned, members)
    assert "hq_removed" not in found and kept.hqs["21pz-hq"].hex is not None
    gone, found = _eliminate(kept, [other])
    assert "hq_removed" in found and gone.hqs["21pz-hq"].hex is None
