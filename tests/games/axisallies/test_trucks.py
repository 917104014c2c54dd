"""Truck cargo loaded on the way (p.32): a truck drives to where cargo waits, picks it up and drives on."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.ruleset import RULESET
from pbem.games.axisallies.state import AxisState
from tests.games.axisallies.rules_helpers import done, play, refusal, seat
from tests.games.axisallies.test_extras import load, turn, with_pieces
from tests.games.axisallies.test_phases import mv


def _waiting() -> AxisState:
    """Germany's noncombat move: its truck in El Agheila loads a supply point there; infantry waits in Sirte and
    artillery in Garian, on the truck's possible ways."""
    state = with_pieces(turn("noncombat_move"), sirte={"germany:infantry": 2}, garian={"germany:artillery": 1})
    return play(state, load("el_agheila", "supply"), load("sirte", "infantry"))


@pytest.mark.rule("32")
def test_p32_a_truck_picks_up_cargo_on_its_way_and_unloads_it_where_it_stops() -> None:
    state = _waiting()
    state = play(state, mv("truck", "el_agheila", "sirte"))  # it does not stop: it picks the infantry up
    assert [d.path for d in state.drives] == [("el_agheila", "sirte")]
    assert state.loads == {"sirte": {"infantry": 1, "supply": 1}}
    state = play(state, load("sirte", "infantry"))  # more, as capacity allows
    assert refusal(state, mv("infantry", "sirte", "tripoli")) == ("24", "no-unit-to-move")  # loaded: it rides
    supply = state.supply.get("tripoli", 0)
    state = play(state, mv("truck", "sirte", "tripoli"))  # its whole way: El Agheila, Sirte, Tripoli
    assert state.count("tripoli", "germany:infantry") == 2 and state.supply["tripoli"] == supply + 1
    assert state.drives == () and state.loads == {}
    assert refusal(state, mv("infantry", "tripoli", "sirte")) == ("24", "no-unit-to-move")  # unloaded: spent
    assert refusal(state, mv("truck", "tripoli", "sirte")) == ("24", "no-unit-to-move")


@pytest.mark.rule("32")
def test_p32_a_truck_on_its_way_has_only_the_move_it_has_left() -> None:
    state = play(_waiting(), mv("truck", "el_agheila", "sirte"), load("garian", "artillery"))
    state = play(state, mv("truck", "sirte", "garian"))  # two territories: its move is spent
    assert [d.path for d in state.drives] == [("el_agheila", "sirte", "garian")]
    assert refusal(state, mv("truck", "garian", "tripoli")) == ("24", "too-far")
    assert refusal(state, mv("artillery", "garian", "tripoli")) == ("24", "no-unit-to-move")
    assert refusal(state, load("tripoli", "supply")) == ("32", "no-truck")  # its reach: the move it has left (review)
    state = done(state)  # it stops: the cargo is unloaded where it is
    assert state.phase == "deploy" and state.drives == ()
    assert state.pieces["garian"] == {"germany:artillery": 1, "germany:infantry": 1, "germany:truck": 1}


@pytest.mark.rule("32")
def test_p32_loading_on_the_way_only_within_reach_and_capacity() -> None:
    state = with_pieces(turn("noncombat_move"), sirte={"germany:infantry": 2})
    assert refusal(state, load("sicily", "infantry")) == ("32", "no-truck")  # no truck reaches it
    state = play(state, *(load("el_agheila", c) for c in ("infantry", "anti_tank_gun", "supply", "supply", "supply")))
    state = play(state, load("sirte", "infantry"), load("sirte", "infantry"))
    assert refusal(state, mv("truck", "el_agheila", "sirte")) == ("32", "over-capacity")  # 5 aboard, 2 waiting


@pytest.mark.rule("32")
def test_p32_a_truck_at_sea_is_convoy_cargo_and_reaches_nothing_bug() -> None:
    """The first play-outs with loading on the way met a truck in a convoy zone (p.14) and looked for its reach."""
    state = with_pieces(turn("noncombat_move"), sz15={"germany:truck": 1}, tripoli={"germany:infantry": 1})
    state = state.model_copy(update={"pieces": {s: c for s, c in state.pieces.items() if s != "el_agheila"}})
    assert {"action": "load", "origin": "tripoli", "cargo": "infantry"} not in RULESET.legal_actions(state, "axis")
    assert refusal(state, load("sz15", "infantry")) == ("10", "unknown-territory")


@pytest.mark.rule("32")
@pytest.mark.rule("27")
def test_the_legal_moves_remember_the_way_a_move_takes() -> None:
    """A move names its ends and the rules choose the way (a ship's or truck's shortest): listing the legal moves
    records each way found, and it must be the way the move itself takes, else a player who listed the moves and a
    replay that did not reach different states (the merged sea mines and path memo did, found by the play-outs)."""
    from pbem.games.axisallies import phases
    from pbem.games.axisallies.operated import resolve

    for state in (turn("noncombat_move"), turn("combat_move")):
        listed = [a for a in RULESET.legal_actions(state, seat(state)) if a["action"] == "move"]
        assert listed
        for move in listed:
            unit = state.pack.unit(*resolve(state, move["unit"]))
            if unit.category == "air":
                continue
            remembered = phases.find_path(state, unit.power, unit, move["origin"], move["to"])
            fresh = phases._find_path(state, unit.power, unit, move["origin"], move["to"])
            assert remembered[0] == fresh[0], move
