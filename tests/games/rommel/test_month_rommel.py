"""Rommel: Regroup Forced Marches (§5.2 sidebar, §6.4), the Month-11 changes of the 1941-42 Campaign (18.3), the
divulging option (§16.5), Raiders (§12.5) and where the movement searches are remembered."""

from __future__ import annotations

import pytest

from pbem.games.rommel import moves
from pbem.games.rommel.data import default_pack_bytes, load_pack
from pbem.games.rommel.state import BattleRecord
from tests.games.rommel.rules_driver import Table
from tests.games.rommel.test_turn_rommel import demo


def regroup_short(die: int) -> Table:
    """An Axis Regroup to 1405 from the Command Point Sidi Omar 1506: the leg infantry axis-07 (speed 1) gets one
    hex short and must Force March into the destination."""
    table = Table("demo-1940", dice=[die])
    table.set_up()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "regroup", "command_point": "1506", "destination": "1405", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-07", "to": "1505"})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1505"})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1405"})
    # axis-07 stopped short as axis-06 moved: its Forced March into 1405 is announced, counting its crossing
    assert table.state.turn.forced == {"axis-07": "1405"}
    assert [e.rule for e in table.events if e.kind == "forced_march_announced"] == ["6.4"]
    table.do("axis", {"action": "end_move"})
    assert table.refusal("axis", {"action": "force", "token": "axis-07", "to": "1404"}) == ("5.2", "not-to-destination")
    assert table.refusal("axis", {"action": "force", "token": "axis-07", "to": "1405"}) == ("6.4", "already-forced")
    assert table.refusal("axis", {"action": "force", "token": "axis-06", "to": "1404"}) == ("5.2", "regrouped")
    table.do("axis", {"action": "end_movement"})
    return table


@pytest.mark.rule("5.2")
def test_a_regroup_mover_may_force_march_into_the_destination() -> None:
    table = regroup_short(4)
    assert table.state.tokens["axis-07"].hex == "1405" and not table.state.tokens["axis-07"].disrupted


@pytest.mark.rule("6.4")
def test_a_failed_regroup_forced_march_disrupts_the_unit_at_its_original_location() -> None:
    table = regroup_short(3)
    assert table.state.tokens["axis-07"].hex == "1506" and table.state.tokens["axis-07"].disrupted


@pytest.mark.rule("5.2")
def test_a_regroup_mover_may_not_stop_where_no_forced_march_reaches_the_destination() -> None:
    table = demo()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "regroup", "command_point": "1506", "destination": "1405", "rommel": False})
    assert table.refusal("axis", {"action": "step", "token": "axis-07", "to": "1607"}) == ("5.2", "not-to-destination")


def test_movement_searches_are_remembered_by_the_loaded_pack_not_the_module() -> None:
    table = demo()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    state = table.state
    found = moves.finishes(state, "axis", "axis-07", ("1506",))
    assert state.pack.move_searches and found in state.pack.move_searches.values()
    # the same bytes give the same (frozen) pack again (pbem.kit.datapack); another load has a cache of its own
    assert load_pack(default_pack_bytes() + b"\n").move_searches == {}
    mutable = [k for k, v in vars(moves).items() if isinstance(v, dict | list | set) and not k.startswith("__")]
    assert mutable == []  # no module-global cache


def raid(unsupplied: bool) -> Table:
    """A battle in Sollum 1605 (the Allies defending, axis-02 in it across Ft. Capuzzo's hexside); axis-06 enters
    it from Sidi Omar 1506 across a hexside nobody crossed (the Defender's)."""
    from pbem.games.rommel.state import BattleRecord

    table = demo()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    state = table.state
    pack = state.pack
    capuzzo = pack.hex_map.hexside("1505", "1605")
    assert capuzzo is not None
    record = BattleRecord(defender="allied", attacker="axis", crossed={capuzzo.id: "axis"}, new=False)
    tokens = dict(state.tokens)
    tokens["axis-02"] = tokens["axis-02"].model_copy(update={"hex": "1605"})
    tokens["axis-06"] = tokens["axis-06"].model_copy(update={"unsupplied": unsupplied})
    table.state = state.model_copy(update={"tokens": tokens, "battles": {"1605": record}})
    table.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1605"})
    return table


@pytest.mark.rule("12.5")
def test_an_unsupplied_unit_entering_across_an_enemy_hexside_becomes_a_raider() -> None:
    table = raid(unsupplied=True)
    entry = table.state.pack.hex_map.hexside("1506", "1605")
    assert entry is not None
    assert entry.id not in table.state.battles["1605"].crossed  # the hexside stays the Defender's
    assert table.state.turn.raids == {"axis-06": entry.id}
    table.do("axis", {"action": "end_move"})
    table.do("axis", {"action": "end_movement"})
    table.do("axis", {"action": "end_combat"})
    tok = table.state.tokens["axis-06"]
    assert tok.raider and tok.disrupted  # cut off: Disrupted at the Final Supply Check
    assert [e.rule for e in table.events if e.kind == "raiders_marked"] == ["12.5"]


@pytest.mark.rule("12.5")
def test_a_supplied_unit_makes_the_hexside_it_enters_friendly() -> None:
    table = raid(unsupplied=False)
    entry = table.state.pack.hex_map.hexside("1506", "1605")
    assert entry is not None
    assert table.state.battles["1605"].crossed[entry.id] == "axis" and table.state.turn.raids == {}


@pytest.mark.rule("16.5")
def test_the_divulging_option_discloses_the_bp_saved_and_the_spending_counts() -> None:
    from pbem.games.rommel.buildup import bp_slot
    from tests.games.rommel.test_redeploy_rommel import allied_buildup

    table = allied_buildup(bp=40)
    table.state = table.state.model_copy(update={"options": {**table.state.options, "divulge_bp": True}})
    table.do("allied", {"action": "redeploy", "token": "allied-01", "to": "2205"})
    table.do("allied", {"action": "build_minefield", "hex": "1805"})
    table.do("allied", {"action": "end_buildup"})
    divulged = [e for e in table.events if e.kind == "buildup_divulged"]
    assert [e.rule for e in divulged] == ["16.5"]
    assert divulged[0].data["redeployments"] == 1 and divulged[0].data["minefields"] == 1
    assert divulged[0].data["minefields_bp"] == table.state.pack.limit("bp_minefield")
    assert table.state.hidden[bp_slot("allied")].public  # the BP saved are open to the Axis
    assert "1805" not in table.state.minefields  # never the Minefield's hex
    while any(a["action"] == "identify" for a in table.legal("axis")):
        table.do("axis", table.first_legal("axis", "identify"))
    table.do("axis", {"action": "end_buildup"})
    assert table.state.phase == "initiative" and table.state.hidden[bp_slot("axis")].public


def campaign_month(month: int) -> Table:
    """The 1941-42 Campaign set up, fast-forwarded to the end of Month ``month`` - 1, then advanced: the Buildup of
    Month ``month`` (the Axis rolls lower and is Player 1)."""
    table = Table("1941-42", dice=[1, 1, 6, 6, *[6] * 60])
    table.set_up()
    table.state = table.state.model_copy(update={"month": month - 1, "phase": "advance"})
    table.do("axis", {"action": "advance"})
    while any(a["action"] == "identify" for a in table.legal("axis")):
        table.do("axis", table.first_legal("axis", "identify"))
    return table


@pytest.mark.rule("18.3")
def test_the_campaign_month_11_brings_a_normal_buildup_three_axis_cards_and_the_malta_group() -> None:
    from pbem.games.rommel.buildup import monthly_cards

    before = campaign_month(10)
    assert monthly_cards(before.state, "axis") == 2
    assert before.refusal("axis", {"action": "malta"}) == ("18.6", "malta-not-yet")
    table = campaign_month(11)
    assert table.state.month == 11 and table.state.phase == "buildup"  # a normal Buildup, units kept as they are
    assert monthly_cards(table.state, "axis") == 3 and monthly_cards(table.state, "allied") == 3
    table.do("axis", {"action": "malta"})
    assert monthly_cards(table.state, "axis") == 2  # the Malta Group's drop (as in 1942)
    arrivals = {tok.group for tok in table.state.tokens.values() if tok.side == "allied"}
    assert "arrival-12" in arrivals  # 1942 reinforcements check for Early Arrival at the join


def regroup_into_battle() -> Table:
    """An Axis Regroup from the Command Point 1606 into the battle at 1505 (the Allied 11th Hussars attacking the
    Italian infantry there): axis-06 (speed 2) Engages across the Clear hexside 1505/1506 (limit 2), the artillery
    axis-01 across the Gap 1505/1605 (limit 1), then the leg infantry axis-08 (speed 1) stops short in 1506, its
    Forced March into 1505 still open."""
    table = demo()
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    state = table.state
    hexes = {"allied-04": "1505", "axis-01": "1506", "axis-06": "1607", "axis-07": "1607", "axis-08": "1607"}
    hexes |= dict.fromkeys(("allied-01", "allied-02", "allied-03"), "1905")
    tokens = {**state.tokens, **{t: state.tokens[t].model_copy(update={"hex": h}) for t, h in hexes.items()}}
    battle = BattleRecord(defender="axis", attacker="allied", crossed={"1505/1605": "allied"})
    table.state = state.model_copy(update={"tokens": tokens, "battles": {"1505": battle}})
    table.do("axis", {"action": "regroup", "command_point": "1606", "destination": "1505", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1506"})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1505"})
    table.do("axis", {"action": "step", "token": "axis-01", "to": "1605"})
    table.do("axis", {"action": "step", "token": "axis-01", "to": "1505"})
    table.do("axis", {"action": "step", "token": "axis-08", "to": "1506"})
    return table


@pytest.mark.rule("5.2")
@pytest.mark.rule("7.1")
def test_a_regroup_mover_may_not_step_where_the_forced_marches_announced_leave_it_no_way_in() -> None:
    table = regroup_into_battle()
    # axis-08's Forced March is announced as axis-07 moves: with axis-06's Engagement it fills 1505/1506, so
    # axis-07 in 1506 could neither cross it nor Force March: it may not step there (it stays out of the Regroup)
    assert table.refusal("axis", {"action": "step", "token": "axis-07", "to": "1506"}) == ("5.2", "not-to-destination")
    assert not [a for a in table.legal("axis") if a["action"] == "step" and a["token"] == "axis-07"]
    table.do("axis", {"action": "end_move"})
    assert table.state.turn.forced == {"axis-08": "1505"}
    assert table.state.turn.forced_engaged == {"1505/1506": 1}
