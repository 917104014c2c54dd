"""Rommel: one rule for the speed a path needs (§6.1-§6.4), used by the step checks and by the audit of the speed
claims, and the Forced March rolled after a Move that must not join a later Move of the same turn (§4.4, §5.2)."""

from __future__ import annotations

import pytest

from pbem.games.rommel.audit import audit
from pbem.games.rommel.board import Position, Unit, check_unit_move, speed_need
from pbem.games.rommel.data import default_pack_bytes, load_pack
from pbem.games.rommel.state import RommelState
from tests.games.rommel.rules_driver import Table
from tests.games.rommel.test_playout_rommel import Peaceful, play, seated
from tests.games.rommel.test_probe_blitz_rommel import blitzing
from tests.games.rommel.test_turn_rommel import demo


def blitz_after_a_regroup_forced_march() -> Table:
    """A Blitz Turn (three real cards): the leg infantry axis-07 (speed 1) stops one hex short of the Regroup's
    destination 1405, Force Marches into it (die 4), and the Blitz Movement phase begins."""
    table = demo()
    for card in (0, 1, 2):
        table.do("axis", {"action": "commit", "card": card})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "regroup", "command_point": "1506", "destination": "1405", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-07", "to": "1505"})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1505"})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1405"})
    table.do("axis", {"action": "end_move"})
    table.dice = [4]
    table.do("axis", {"action": "end_movement"})
    assert table.state.tokens["axis-07"].hex == "1405"
    table.do("axis", {"action": "blitz"})
    return table


@pytest.mark.rule("5.2")
@pytest.mark.rule("6.4")
@pytest.mark.rule("7.1")
def test_a_forced_march_rolled_after_the_moves_joins_no_later_regroup() -> None:
    # the Crusader seed-2 play-out: a Forced March rolled after the first Movement phase left its unit among the
    # movers of the next Move, so the Blitz Regroup took it for one of its own stopped short of the destination and
    # announced it a second Forced March, which the audit then found too fast for the unit's speed
    table = blitz_after_a_regroup_forced_march()
    assert table.state.turn.in_move == ()
    table.do("axis", {"action": "regroup", "command_point": "1505", "destination": "1404", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1404"})
    table.do("axis", {"action": "end_move"})
    turn = table.state.turn
    assert turn.forced == {} and turn.forced_engaged == {}  # no Forced March of axis-07, none in the hexside count
    assert turn.regroup_to == {"axis-07": "1405", "axis-06": "1405", "axis-02": "1404"}
    assert not [e for e in table.events if e.kind == "forced_march_announced" and e.data["dst"] == "1404"]
    table.do("axis", {"action": "end_movement"})
    assert table.state.tokens["axis-07"].hex == "1405" and not table.state.tokens["axis-07"].disrupted
    assert audit(table.state) is None
    claims = [c for c in table.state.claims if c.token == "axis-07"]
    assert [(c.rule, c.value) for c in claims] == [("6.1", 1), ("6.4", 1)]  # 1506-1505, then the march to 1405


@pytest.mark.rule("4.4")
def test_a_forced_march_rolled_after_the_moves_is_no_mover_of_a_blitz_group_move() -> None:
    table = blitz_after_a_regroup_forced_march()
    table.do("axis", {"action": "group", "origin": "1505", "rommel": False})
    assert table.refusal("axis", {"action": "end_move"}) == ("5.1", "no-movers")  # axis-07 is not one of its movers
    assert table.refusal("axis", {"action": "step", "token": "axis-07", "to": "1404"}) == ("4.2", "moved-once")


@pytest.mark.rule("4.4")
def test_a_unit_that_moved_before_the_blitz_makes_no_forced_march_in_it() -> None:
    table = blitzing()  # axis-06 moved 1506-1507 in the first Movement phase
    table.do("axis", {"action": "blitz"})
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-07", "to": "1507"})
    table.do("axis", {"action": "end_move"})
    assert table.refusal("axis", {"action": "force", "token": "axis-06", "to": "1508"}) == ("4.4", "moved-before-blitz")
    assert [a for a in table.legal("axis") if a["action"] == "force" and a["token"] == "axis-07"]


@pytest.mark.rule("6.1")
@pytest.mark.rule("6.2")
@pytest.mark.rule("6.4")
def test_the_step_check_allows_exactly_the_paths_whose_speed_need_is_met() -> None:
    # one rule: a path is within a unit's range exactly when speed_need says its speed reaches, also for a path that
    # doubles back along a highway (the road bonus counts over the whole path) and for a Forced March's extra hex
    pack = load_pack(default_pack_bytes())
    position = Position((Unit("de-3rec", "0108"),))
    highway = ["0108", "0107", "0207"]
    for path in (
        highway,
        [*highway, "0107", "0207", "0107", "0207"],
        [*highway, "0107", "0207", "0107", "0207", "0107"],
    ):
        for forced in (False, True):
            need = speed_need(pack, path, forced=forced)
            for speed in range(1, 8):
                verdict = check_unit_move(pack, position, "de-3rec", path, forced=forced, speed=speed)
                assert verdict.ok == (speed >= need), (path, forced, speed, need, verdict)
                if not verdict.ok:
                    assert (verdict.rule, verdict.reason) == ("6.1", "over-budget")
    assert speed_need(pack, [*highway, "0107", "0207", "0107", "0207"]) == 6 - 4  # six hexes, all on the highway
    assert speed_need(pack, ["0206", "0306", "0307"]) == 2  # off the road: no bonus
    assert speed_need(pack, ["0108", "0107"], roads=False) == 1  # a Retreat takes no road bonus (§6.2 sidebar)


@pytest.mark.rule("6.1")
def test_a_hidden_mover_claims_the_speed_need_of_its_path() -> None:
    table = demo()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1505"})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1506"})
    path = table.state.turn.paths["axis-06"]
    assert table.state.claims[-1].value == speed_need(table.state.pack, path) == 2


@pytest.mark.slow
@pytest.mark.rule("6.1")
@pytest.mark.parametrize("seed", range(1, 21))
def test_no_honest_crusader_play_out_ends_with_a_speed_violation(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    final = play(seated(Peaceful(), monkeypatch), "crusader", seed).game.state
    assert isinstance(final, RommelState)
    finding = audit(final)
    assert finding is None, finding
