"""The SNAFU / Schlachtenglück re-roll window (§5.2): offered to the holder after each roll holding an opponent's
die, before the roll takes effect; the marker passes on a re-roll, which replaces the targeted die."""

from __future__ import annotations

import pytest

from pbem.games.gazala.cycle import cycle
from pbem.games.gazala.ops import ap_value
from pbem.games.gazala.ruleset import RULESET
from pbem.games.gazala.state import GazalaState, Marker
from tests.games.gazala.gazala_play import PACK, act, active, kinds, place, refused, roll, rolled, start


def _cw_holds() -> GazalaState:
    return start("opening-phase").model_copy(update={"snafu": "cw"})


def _ap_rolled(state: GazalaState, face: int) -> GazalaState:
    asked = act(state, "axis", {"action": "activate", "formation": "15pz"})
    return rolled(asked.state, {"ap": (face,)}).state


@pytest.mark.rule("5.2")
def test_the_holder_is_offered_a_reroll_of_an_opponent_roll_before_it_takes_effect() -> None:
    state = _ap_rolled(_cw_holds(), 6)
    assert RULESET.to_act(state) == ("cw",) and state.activation is None
    legal = RULESET.legal_actions(state, "cw")
    assert {"action": "snafu", "roll": "ap", "die": 0} in legal and {"action": "keep_roll"} in legal
    assert refused(state, "axis", {"action": "keep_roll"}).reason == "not-your-turn"


@pytest.mark.rule("5.2")
def test_a_reroll_passes_the_marker_and_the_new_die_replaces_the_old() -> None:
    base = _cw_holds()
    level = base.formations["15pz"].level
    offered = _ap_rolled(base, 6)
    used = act(offered, "cw", {"action": "snafu", "roll": "ap", "die": 0})
    assert kinds(used.events) == ["snafu_used"] and used.events[0].data["was"] == 6
    assert used.state.snafu == "axis" and used.state.rolls is not None
    # The re-roll is the new holder's own roll: no second window, it takes effect at once.
    done = rolled(used.state, {"ap": (1,)}).state
    assert done.activation is not None and done.activation.ap == ap_value(base, level, 1, red=False)
    assert done.snafu == "axis" and not any(p.kind == "snafu" for p in done.pending)


@pytest.mark.rule("5.2")
def test_keeping_the_roll_keeps_the_marker() -> None:
    base = _cw_holds()
    level = base.formations["15pz"].level
    kept = act(_ap_rolled(base, 6), "cw", {"action": "keep_roll"}).state
    assert kept.snafu == "cw" and kept.activation is not None
    assert kept.activation.ap == ap_value(base, level, 6, red=False)


@pytest.mark.rule("5.2")
def test_no_window_on_the_holders_own_roll() -> None:
    state = start("opening-phase")
    assert state.snafu == PACK.setting("snafu_start") == "axis"
    asked = act(state, "axis", {"action": "activate", "formation": "15pz"})
    assert rolled(asked.state, {"ap": (6,)}).state.activation is not None


@pytest.mark.rule("5.2")
def test_only_an_opponent_die_of_the_roll_may_be_rerolled() -> None:
    rolling = cycle(start("opening-phase").model_copy(update={"turn": 2, "marker": Marker()}), ()).state
    offered = rolled(rolling, {"axis": (3,), "cw": (7,)}).state
    assert RULESET.to_act(offered) == ("axis",)
    assert refused(offered, "axis", {"action": "snafu", "roll": "axis", "die": 0}).reason == "snafu-own-roll"
    assert refused(offered, "axis", {"action": "snafu", "roll": "cw", "die": 1}).reason == "snafu-no-die"
    used = act(offered, "axis", {"action": "snafu", "roll": "cw", "die": 0})
    again = rolled(used.state, {"cw": (1,)})
    assert again.state.chooser == "axis" and again.events[0].data["winner"] == "axis"


@pytest.mark.rule("5.2")
def test_no_snafu_without_an_open_roll() -> None:
    state = _cw_holds()
    assert refused(state, "cw", {"action": "snafu", "roll": "ap", "die": 0}).reason == "not-your-turn"
    # Once the roll was kept the window is closed: the game has gone on to the activation.
    kept = roll(act(state, "axis", {"action": "activate", "formation": "15pz"}).state, {"ap": (6,)}).state
    assert refused(kept, "cw", {"action": "snafu", "roll": "ap", "die": 0}).reason in ("not-your-turn", "not-now")
    assert refused(kept, "axis", {"action": "snafu", "roll": "ap", "die": 0}).reason == "not-now"


def _until_roll(state: GazalaState, purpose: str) -> GazalaState:
    """Take every decision with its first option (standing, not retreating) and keep every die, up to ``purpose``."""
    while state.rolls is None or getattr(state.pending[-1], "purpose", None) != purpose:
        top = state.pending[-1]
        if state.rolls is not None:
            state = roll(state, {r.id: (1,) * r.n for r in state.rolls.rolls}).state
        else:
            legal = RULESET.legal_actions(state, top.seat)
            state = act(state, top.seat, next((a for a in legal if a["action"] == "stand"), legal[0])).state
    return state


@pytest.mark.rule("5.2")
def test_chit_draws_are_never_offered_but_the_attackers_combat_roll_is() -> None:
    state = place(_cw_holds(), **{"i-5": "2922", "21pz-hq": "2820"})
    declared = act(active(state, "21pz", 6), "axis", {"action": "attack", "target": "3023", "units": ["i-5"]}).state
    chits = _until_roll(declared, "chits")
    drawn = rolled(chits, {"attacker": (1,), "defender": (1,)}).state
    assert not any(p.kind == "snafu" for p in drawn.pending)
    combat = _until_roll(drawn, "combat")
    offered = rolled(combat, {"combat": (10,)}).state
    assert offered.pending[-1].kind == "snafu" and RULESET.to_act(offered) == ("cw",)
    assert offered.battle is not None and {"action": "snafu", "roll": "combat", "die": 0} in RULESET.legal_actions(
        offered, "cw"
    )
