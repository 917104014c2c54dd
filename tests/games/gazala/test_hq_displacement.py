"""HQ displacement as the owner's decision (§5.3.2): an HQ a combat leaves alone in its hex (§7.5) goes where its
owner chooses among the nearest destinations, and the end of the combat goes on once it has."""

from __future__ import annotations

import pytest

from pbem.games.gazala import battle
from pbem.games.gazala.ruleset import RULESET
from pbem.games.gazala.state import Battle, GazalaState, sit_of
from pbem.kit.hexes import HexId
from tests.games.gazala.gazala_play import PACK, act, active, place, refused, start


def _lone_after_combat() -> GazalaState:
    """21 Pz attacked 7 Armd's HQ hex from 3225 and eliminated its only unit there: the HQ is alone in 3124."""
    state = place(active(start("opening-phase"), "21pz", 4), **{"i-5": "3225", "7mot": None})
    assert state.hqs["7armd-hq"].hex == "3124" and not sit_of(state).combat["cw"].get(HexId("3124"))
    fight = Battle(
        side="axis",
        source="3225",
        target="3124",
        attackers=("i-5",),
        defenders=("7mot",),
        before={"i-5": (state.units["i-5"].cs, False), "7mot": (PACK.unit("7mot").cs, False)},
        hits=(0, False, 2, False),
        eliminated=("7mot",),
    )
    return state.model_copy(update={"battle": fight})


@pytest.mark.rule("5.3.2")
@pytest.mark.rule("7.5")
def test_an_hq_left_alone_by_a_combat_is_displaced_where_its_owner_chooses() -> None:
    over = battle.battle_over(_lone_after_combat(), ())
    state = over.state
    assert RULESET.to_act(state) == ("cw",) and state.pending[-1].kind == "hq_displacement"
    legal = RULESET.legal_actions(state, "cw")
    assert len(legal) > 1 and {a["hq"] for a in legal} == {"7armd-hq"}
    grid = sit_of(state).board.grid
    assert len({grid.distance(HexId("3124"), HexId(a["to"])) for a in legal}) == 1
    assert refused(state, "cw", {"action": "displace_hq", "hq": "7armd-hq", "to": "3225"}).reason == "not-nearest"
    assert refused(state, "axis", legal[0]).reason in ("not-your-turn", "not-displacing")
    done = act(state, "cw", legal[-1])
    moved = next(e for e in done.events if e.kind == "hq_displaced")
    assert moved.rule == "5.3.2" and moved.data["dst"] == legal[-1]["to"]
    assert done.state.hqs["7armd-hq"].hex == legal[-1]["to"]
    assert done.state.battle is None  # the end of the combat went on (§7.5.3)
    assert RULESET.to_act(done.state) == ("axis",)
