"""18.1: secret VP bids for the Allied side, committed in the log and opened together."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pbem.errors import ActionError
from pbem.verify.pipeline import verify_lines
from tests.helpers import Table, play_in_memory


def bidding(tmp_path: Path) -> Table:
    return Table.start(tmp_path, "bidding", game="battleaxe", options={})


@pytest.mark.rule("18.1")
def test_18_1_the_higher_secret_bid_takes_the_allies_and_sets_the_threshold(tmp_path: Path) -> None:
    table = bidding(tmp_path)
    table.act("player-a", {"action": "bid", "vp": 9})
    logged = json.loads(table.lines()[-1])
    assert logged["body"]["actions"] == [{"action": "bid"}] and logged["body"]["sealed"]  # committed, not shown
    assert table.legal("player-b")  # simultaneous: player-b bids without seeing player-a's
    table.act("player-b", {"action": "bid", "vp": 12})
    table.settle()  # both open their bids
    report, verifier = verify_lines(table.lines())
    game = verifier.game
    assert report.valid and game is not None and game.state is not None
    assert game.state.sides == {"player-b": "allied", "player-a": "axis"} and game.state.threshold == 12
    assert any(e.event.kind == "bids_opened" and e.event.data["bids"] == {"player-a": 9, "player-b": 12}
               for e in game.events)  # fmt: skip
    assert [a["action"] for a in table.legal("player-b")] == ["place"] * len(table.legal("player-b"))


@pytest.mark.rule("18.1")
def test_18_1_bids_are_whole_vp_and_a_tie_means_bidding_again(tmp_path: Path) -> None:
    table = bidding(tmp_path)
    with pytest.raises(ActionError) as refused:
        table.act("player-a", {"action": "bid", "vp": 99})
    assert (refused.value.code.id, refused.value.rule) == ("R001", "§18.1")
    table.act("player-a", {"action": "bid", "vp": 10})
    table.act("player-b", {"action": "bid", "vp": 10})
    table.settle()
    state = table.replay().game.state  # type: ignore[union-attr]
    assert state is not None and state.step == "bid" and state.bid_round == 2
    table.act("player-a", {"action": "bid", "vp": 11})
    table.act("player-b", {"action": "bid", "vp": 11})
    table.settle()
    state = table.replay().game.state  # type: ignore[union-attr]
    assert state is not None and state.step == "tiebreak"
    table.act("player-a", {"action": "roll_for_sides"})
    table.settle()
    state = table.replay().game.state  # type: ignore[union-attr]
    assert state is not None and set(state.sides.values()) == {"allied", "axis"} and state.threshold == 11
    assert table.verify().valid


@pytest.mark.rule("18.1")
def test_18_1_a_whole_bidding_game_plays_out_and_verifies() -> None:
    lines = play_in_memory("battleaxe", "bidding", {}, random.Random(5))
    report, _ = verify_lines(lines)
    assert report.valid and report.result is not None and report.audit == "complete"
    assert report.result.winners[0] in ("player-a", "player-b")


@pytest.mark.rule("18.1")
def test_18_1_each_seat_sees_only_its_own_bid_until_both_are_opened(tmp_path: Path) -> None:
    from pbem.client.session import own_knowledge
    from pbem.games.battleaxe.ruleset import RULESET

    table = bidding(tmp_path)
    table.act("player-a", {"action": "bid", "vp": 7})
    lines = table.lines()
    mine = verify_lines(lines, knowledge=own_knowledge(table.keys["player-a"]))[1].game
    theirs = verify_lines(lines, knowledge=own_knowledge(table.keys["player-b"]))[1].game
    assert mine is not None and theirs is not None and mine.state is not None and theirs.state is not None
    assert RULESET.view(mine.state, "player-a").facts["bids"] == {"player-a": 7}
    assert RULESET.view(theirs.state, "player-b").facts["bids"] == {"player-a": None}


@pytest.mark.rule("18.1")
def test_18_1_applying_a_bid_checks_it_too() -> None:
    from pbem.games.battleaxe.ruleset import RULESET
    from pbem.rules.contract import Roster, RosterSeat

    roster = Roster(seats=(RosterSeat(seat="player-a", team="player-a"), RosterSeat(seat="player-b", team="player-b")))
    options = {o.id: o.default for o in RULESET.options}
    state = RULESET.setup("bidding", options, roster, RULESET.load_data(RULESET.default_data()))
    with pytest.raises(ActionError) as refused:
        RULESET.apply(state, "player-a", {"action": "bid", "vp": 61})
    assert (refused.value.code.id, refused.value.rule) == ("R001", "§18.1")
    state = RULESET.apply(state, "player-a", {"action": "bid"}).state  # logged without its secret value
    with pytest.raises(ActionError) as again:
        RULESET.apply(state, "player-a", {"action": "bid"})
    assert again.value.code.id == "R002"
