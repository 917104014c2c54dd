"""Rommel Buildup movement (§16.51-§16.53), Captured Supply (§13.4), on the §19 demo (1940: one BP die each; the
Allies at Sollum 1605, Buq Buq 1705, Sofafi 1706, their Base Alexandria 2605; the Axis around Bardia 1504)."""

from __future__ import annotations

import pytest

from pbem.games.rommel.buildup import bp_slot
from pbem.games.rommel.redeploy import freeze_networks, network
from pbem.games.rommel.state import BattleRecord, Token
from tests.games.rommel.rules_driver import R, Table
from tests.games.rommel.test_buildup_rommel import to_buildup


def allied_buildup(bp: int | None = None) -> Table:
    """The Allies' first Buildup (they rolled lower), their reinforcements chosen; ``bp`` set if given."""
    table = to_buildup(dice=(6, 5))
    assert R.to_act(table.state) == ("allied",)
    while any(a["action"] == "identify" for a in table.legal("allied")):
        table.do("allied", table.first_legal("allied", "identify"))
    if bp is not None:
        table.state = table.state.with_hidden(bp_slot("allied"), "allied", bp, known=True)
    return table


@pytest.mark.rule("16.51")
def test_a_redeployment_moves_two_hexes_plus_the_road_bonus_for_one_bp() -> None:
    table = allied_buildup()
    bp = table.state.hidden[bp_slot("allied")].value
    table.do("allied", {"action": "redeploy", "token": "allied-01", "to": "2205"})  # six hexes on the highway
    assert table.state.tokens["allied-01"].hex == "2205"
    assert table.state.hidden[bp_slot("allied")].value == bp - table.state.pack.limit("bp_redeployment")
    table.do("allied", {"action": "redeploy", "token": "allied-01", "to": "2505"})  # again, while BP last
    assert table.refusal("allied", {"action": "redeploy", "token": "allied-04", "to": "1806"}) == (
        "16.51",
        "out-of-reach",
    )


@pytest.mark.rule("16.51")
def test_redeployment_stays_in_the_frozen_network_and_out_of_the_enemy_one() -> None:
    table = allied_buildup()
    frozen = network(table.state, "allied")
    offered = {a["to"] for a in table.legal("allied") if a["action"] == "redeploy"}
    assert offered <= frozen - network(table.state, "axis")
    assert table.refusal("allied", {"action": "redeploy", "token": "allied-02", "to": "1504"})[1] == "out-of-reach"


@pytest.mark.rule("16.51")
def test_no_redeployment_into_a_battle_and_out_of_one_only_leaving_a_unit() -> None:
    table = allied_buildup()
    state = table.state
    tokens = {**state.tokens, "axis-01": state.tokens["axis-01"].model_copy(update={"hex": "1705"})}
    battles = {"1705": BattleRecord(defender="allied", attacker="axis")}
    table.state = state.model_copy(update={"tokens": tokens, "battles": battles})
    assert table.refusal("allied", {"action": "redeploy", "token": "allied-04", "to": "1705"}) == (
        "16.51",
        "out-of-reach",
    )
    table.do("allied", {"action": "redeploy", "token": "allied-02", "to": "1805"})  # allied-03 stays
    assert table.refusal("allied", {"action": "redeploy", "token": "allied-03", "to": "1805"}) == (
        "16.51",
        "last-in-battle",
    )


@pytest.mark.rule("11.1")
def test_disrupted_units_do_not_redeploy_or_refit() -> None:
    table = allied_buildup()
    tok = table.state.tokens["allied-04"].model_copy(update={"disrupted": True})
    table.state = table.state.model_copy(update={"tokens": {**table.state.tokens, "allied-04": tok}})
    assert table.refusal("allied", {"action": "redeploy", "token": "allied-04", "to": "1805"}) == (
        "11.1",
        "disrupted",
    )
    assert table.refusal("allied", {"action": "refit", "token": "allied-04"}) == ("11.1", "disrupted")


@pytest.mark.rule("16.5")
def test_redeployments_cost_bp() -> None:
    table = allied_buildup(bp=0)
    assert table.refusal("allied", {"action": "redeploy", "token": "allied-01", "to": "2205"}) == (
        "16.5",
        "short-of-bp",
    )
    hidden = R.contains(table.state.model_copy(update={"hidden": {}}), "allied", R.typed({"action": "end_buildup"}))
    assert hidden.ok


@pytest.mark.rule("16.52")
def test_a_refitted_unit_leaves_the_map_and_returns_to_base_next_buildup() -> None:
    table = allied_buildup()
    table.do("allied", {"action": "refit", "token": "allied-02"})
    assert table.state.tokens["allied-02"].status == "refit" and table.state.tokens["allied-02"].hex is None
    assert table.refusal("allied", {"action": "refit", "token": "allied-02"}) == ("16.52", "not-own-unit")
    assert table.refusal("allied", {"action": "replace", "token": "allied-02"}) == ("16.54", "not-in-base")
    from pbem.games.rommel.buildup import start_buildup

    state, events = start_buildup(table.state)
    assert state.tokens["allied-02"].status == "map" and state.tokens["allied-02"].hex == "2605"
    assert [e.rule for e in events if e.kind == "refit_returned"] == ["16.52"]


@pytest.mark.rule("16.52")
def test_refit_needs_an_overland_route_to_base_in_the_network() -> None:
    table = allied_buildup()
    state = table.state
    tokens = {**state.tokens, "allied-07": Token(side="allied", group="test", hex="0303", status="map")}
    table.state = state.model_copy(update={"tokens": tokens})
    assert table.refusal("allied", {"action": "refit", "token": "allied-07"}) == ("16.52", "outside-network")


def sea_buildup() -> Table:
    """The Allies' Buildup with Bardia in Allied hands and unbesieged (the Axis moved far west), 20 BP."""
    table = allied_buildup(bp=20)
    state = table.state
    west = {t: tok.model_copy(update={"hex": "0108"}) for t, tok in state.tokens.items() if tok.side == "axis"}
    bardia = state.pack.place("bardia")
    allied = {f"allied-{n}": Token(side="allied", group="test", hex=bardia.hex, status="map") for n in range(10, 14)}
    moved = state.model_copy(update={"tokens": {**state.tokens, **west, **allied}, "fortresses": {bardia.id: "allied"}})
    table.state = freeze_networks(moved)  # as the Buildup Supply Check would have found it
    return table


@pytest.mark.rule("16.53")
def test_sea_redeployment_between_controlled_ports_costs_one_bp_within_port_capacity() -> None:
    table = sea_buildup()
    bp = table.state.hidden[bp_slot("allied")].value
    assert {"action": "sea_redeploy", "token": "allied-10", "to": "2605"} in table.legal("allied")
    table.do("allied", {"action": "sea_redeploy", "token": "allied-10", "to": "2605"})
    assert table.state.tokens["allied-10"].hex == "2605"
    assert table.state.hidden[bp_slot("allied")].value == bp - table.state.pack.limit("bp_sea_redeployment")
    table.do("allied", {"action": "sea_redeploy", "token": "allied-11", "to": "2605"})  # Bardia: 2 for the Allies
    assert table.refusal("allied", {"action": "sea_redeploy", "token": "allied-12", "to": "2605"}) == (
        "16.53",
        "port-capacity",
    )
    assert table.refusal("allied", {"action": "sea_redeploy", "token": "allied-01", "to": "2605"}) == (
        "16.53",
        "not-a-port",
    )


@pytest.mark.rule("16.53")
def test_a_besieged_port_costs_the_allies_more_and_is_closed_to_the_axis() -> None:
    table = sea_buildup()
    state = table.state
    tokens = {**state.tokens, "axis-01": state.tokens["axis-01"].model_copy(update={"hex": "1404"})}
    table.state = state.model_copy(update={"tokens": tokens})
    bp = table.state.hidden[bp_slot("allied")].value
    table.do("allied", {"action": "sea_redeploy", "token": "allied-10", "to": "2605"})
    besieged = table.state.pack.limit("bp_sea_redeployment_besieged_allied")
    assert table.state.hidden[bp_slot("allied")].value == bp - besieged
    axis = table.state.model_copy(update={"fortresses": {"bardia": "axis"}})
    from pbem.games.rommel.redeploy import sea_cost

    assert sea_cost(axis, "axis", "1504", "0108") is None
    assert sea_cost(axis, "axis", "0108", "1504") is None


@pytest.mark.rule("13.4")
def test_a_captured_fortress_earns_the_enemy_port_capacity_in_cards_next_buildup() -> None:
    from pbem.games.rommel.buildup import captured_supply

    table = allied_buildup()
    bardia = table.state.pack.place("bardia")
    taken = table.state.model_copy(update={"fortresses": {bardia.id: "allied"}, "month_fortresses": {"bardia": "axis"}})
    state, bonus = captured_supply(taken)
    assert bonus == {"axis": 0, "allied": bardia.port.axis}  # the Allies take the Axis Port Capacity
    assert state.bonus_cards == {"allied": bardia.port.axis} and state.month_fortresses == {"bardia": "allied"}
    twice = captured_supply(state)[1]  # once a Month
    assert twice == {"axis": 0, "allied": 0}
    held = table.state.model_copy(update={"fortresses": {bardia.id: "axis"}, "month_fortresses": {"bardia": "axis"}})
    assert captured_supply(held)[1] == {"axis": 0, "allied": 0}


@pytest.mark.rule("16.52")
def test_units_refitting_when_the_game_ends_are_counted_in_their_base() -> None:
    table = allied_buildup()
    table.do("allied", {"action": "refit", "token": "allied-02"})
    table.state = table.state.model_copy(update={"month": table.state.last_month, "phase": "advance"})
    table.do("axis", {"action": "advance"})
    assert table.state.tokens["allied-02"].status == "map" and table.state.tokens["allied-02"].hex == "2605"
    assert table.state.phase == "over" and table.state.outcome


@pytest.mark.rule("16.53")
def test_the_axis_may_not_sail_from_a_besieged_port() -> None:
    table = allied_buildup()
    table.do("allied", {"action": "end_buildup"})
    while any(a["action"] == "identify" for a in table.legal("axis")):
        table.do("axis", table.first_legal("axis", "identify"))
    # Bardia (1504) has the Allies next door in Sollum (1605): besieged
    assert table.refusal("axis", {"action": "sea_redeploy", "token": "axis-01", "to": "0108"}) == (
        "16.53",
        "besieged",
    )
