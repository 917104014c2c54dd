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


@pytest.mark.rule("5.3.2")
@pytest.mark.rule("5.3.3")
def test_a_unit_displaced_after_a_combat_next_to_a_lone_enemy_hq_displaces_it() -> None:
    """The Commonwealth stack that retreated into 3221 overstacks it; the Axis displaces one of its units next to the
    lone 21. Panzer HQ, which its owner then displaces."""
    crowded = {"3rtr-4": "3221", "5rtr-4": "3221", "8h-4": "3221", "i-5": "3019"}
    state = place(active(start("opening-phase"), "21pz", 4), **crowded)
    grid = sit_of(state).board.grid
    occupied = {c.hex for c in state.units.values()} | {c.hex for c in state.hqs.values()}
    fight = Battle(
        side="axis",
        source="3019",
        target="3120",
        attackers=("i-5",),
        defenders=("3rtr-4", "5rtr-4", "8h-4"),
        before={u: (state.units[u].cs, False) for u in ("i-5", "3rtr-4", "5rtr-4", "8h-4")},
        hits=(0, False, 1, False),
        armour=("", "tank", ""),
        displacing="3221",
    )
    offered = battle.offer_displacement(state.model_copy(update={"battle": fight}), ()).state
    assert RULESET.to_act(offered) == ("axis",) and offered.pending[-1].kind == "displacement"
    pick, lone = next(
        (a, str(h))
        for a in RULESET.legal_actions(offered, "axis")
        if a["to"] is not None
        for h in grid.neighbours(HexId(a["to"]))
        if str(h) not in occupied and HexId("3221") not in (h, *grid.neighbours(h))
    )
    done = act(place(offered, **{"21pz-hq": lone}), "axis", pick)
    if done.state.pending and done.state.pending[-1].kind == "hq_displacement":
        done = act(done.state, "axis", RULESET.legal_actions(done.state, "axis")[0])
    moved = next(e for e in done.events if e.kind == "hq_displaced")
    assert moved.data["hq"] == "21pz-hq" and moved.data["src"] == lone and done.state.hqs["21pz-hq"].hex != lone


def test_the_hq_decision_is_labelled_with_names() -> None:
    state = battle.battle_over(_lone_after_combat(), ()).state
    assert RULESET.label(state, "hq", "7armd-hq") == PACK.hq("7armd-hq").name
