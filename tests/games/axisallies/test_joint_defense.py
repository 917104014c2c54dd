"""Co-defenders held by different players (p.20, Multinational Forces): the rulebook gives them no decision of
their own ("those players must decide together"); RULING: the seat of the defending power with the most pieces
there signs their joint decisions, and the other co-defending seat is refused."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.phases import start_turn
from pbem.games.axisallies.ruleset import RULESET
from pbem.games.axisallies.state import AxisState
from tests.games.axisallies.rules_helpers import done, play, start

ORDER = {"action": "order", "fight": True, "exempt_stay": False, "source": "el_agheila"}


def uk_attacks_el_agheila(**pieces: int) -> AxisState:
    """Rommel's Last Push by 4 players, round 1: the UK's infantry from Benghazi attack El Agheila, held by German
    pieces and an Italian tank (or ``pieces``, ``power_type=n``), waiting for the defender's orders."""
    state = done(start("rommels_last_push-4p"))
    if pieces:
        here = {k.replace("_", ":", 1): n for k, n in pieces.items()}
        state = state.model_copy(update={"pieces": {**state.pieces, "el_agheila": here}})
    state = done(done(start_turn(state.model_copy(update={"power": "united_kingdom"})).state))
    state = play(state, {"action": "commit", "unit": "infantry", "origin": "benghazi", "target": "el_agheila"})
    state = play(state, {"action": "pay", "origin": "benghazi", "target": "el_agheila", "source": "benghazi"})
    state = play(done(state), {"action": "fight", "target": "el_agheila"})
    assert state.pending[-1].kind == "give_orders"
    return state


@pytest.mark.rule("20")
def test_p20_co_defenders_of_two_players_decide_through_the_seat_with_most_pieces() -> None:
    state = uk_attacks_el_agheila()
    german = sum(n for k, n in state.pieces["el_agheila"].items() if k.startswith("germany:"))
    assert german > state.pieces["el_agheila"]["italy:tank"]
    assert RULESET.to_act(state) == ("germany",)
    refused = RULESET.contains(state, "italy", RULESET.typed(ORDER))
    assert (refused.rule, refused.reason) == ("12", "not-your-turn")
    assert RULESET.contains(state, "germany", RULESET.typed(ORDER)).ok
    outnumbered = uk_attacks_el_agheila(germany_infantry=2, italy_infantry=2, italy_tank=1)
    assert RULESET.to_act(outnumbered) == ("italy",)
    refused = RULESET.contains(outnumbered, "germany", RULESET.typed(ORDER))
    assert (refused.rule, refused.reason) == ("12", "not-your-turn")
