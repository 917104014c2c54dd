"""Rommel set-up (§18.0): scenarios from the pack, secret identities, free deployment, the initial hands."""

from __future__ import annotations

import pytest

from pbem.games.rommel.state import cv_slot, unit_slot
from pbem.rules.contract import OBSERVER
from tests.games.rommel.rules_driver import R, Table


@pytest.mark.rule("18.0")
def test_every_scenario_of_the_pack_is_a_genesis_scenario() -> None:
    ids = {s.id for s in R.scenarios}
    assert {"1940", "1941", "crusader", "battleaxe", "1942", "gazala", "pursuit", "demo-1940"} <= ids
    table = Table("crusader")
    assert table.state.first == "allied" and table.state.month == 8  # 18.4: the Allies take the first turn
    assert table.state.minefields == (table.state.pack.place("tobruk").hex,)  # 18.4: Tobruk has a Minefield


@pytest.mark.rule("18.0")
def test_the_axis_sets_up_first_and_identities_are_secret() -> None:
    table = Table("demo-1940")
    assert R.to_act(table.state) == ("axis",)
    action = table.first_legal("axis", "identify")
    assert R.secret_fields(table.state, "axis", action) == {"block": unit_slot("axis-01")}
    table.do("axis", action)
    assert table.state.hidden[cv_slot("axis-01")].value == table.state.pack.block(action["block"]).cv_max
    view = R.view(table.state, "allied")
    assert next(u for u in view.units if u.id == "axis-01").hidden
    assert next(u for u in R.view(table.state, "axis").units if u.id == "axis-01").extra["block"] == action["block"]
    assert next(u for u in R.view(table.state, OBSERVER).units if u.id == "axis-01").strength is None


@pytest.mark.rule("18.0")
def test_identity_must_come_from_the_group_and_not_repeat() -> None:
    table = Table("1941")
    first = table.first_legal("axis", "identify")
    table.do("axis", first)
    table.do("axis", table.first_legal("axis", "deploy"))
    assert table.refusal("axis", {"action": "identify", "token": "axis-02", "block": first["block"]}) == (
        "18.0",
        "duplicate",
    )
    allied = next(b.id for b in table.state.pack.blocks if b.side == "allied")
    assert table.refusal("axis", {"action": "identify", "token": "axis-02", "block": allied}) == (
        "18.0",
        "not-in-group",
    )
    assert table.refusal("axis", {"action": "identify", "token": "axis-03", "block": first["block"]})[1] == "not-next"
    assert table.refusal("axis", {"action": "identify", "token": "axis-02"}) == ("18.0", "no-unit")


@pytest.mark.rule("18.0")
def test_unseen_identity_is_allowed_for_the_audit() -> None:
    table = Table("demo-1940")
    parsed = R.parse_action({"action": "identify", "token": "axis-01"})
    assert R.contains(table.state, "axis", parsed, unseen=frozenset({"block"})).ok
    assert not R.contains(table.state, "allied", parsed, unseen=frozenset({"block"})).ok


@pytest.mark.rule("18.0")
def test_free_deployment_only_in_the_area_supplied_and_not_enemy_held() -> None:
    table = Table("battleaxe")
    table.do("axis", table.first_legal("axis", "identify"))
    pack = table.state.pack
    tobruk = pack.place("tobruk").hex
    alexandria = pack.place("alexandria").hex
    assert table.refusal("axis", {"action": "deploy", "token": "axis-01", "hex": tobruk}) == ("18.0", "outside-area")
    assert table.refusal("axis", {"action": "deploy", "token": "axis-01", "hex": alexandria}) == (
        "18.0",
        "outside-area",
    )
    libya = set(pack.area("libya").hexes) - {tobruk}
    offered = {a["hex"] for a in table.legal("axis") if a["action"] == "deploy"}
    assert offered and offered < libya  # supplied hexes only: not every Libyan hex has a line to El Agheila
    unsupplied = sorted(libya - offered)[0]
    assert table.refusal("axis", {"action": "deploy", "token": "axis-01", "hex": unsupplied}) == ("18.0", "unsupplied")
    while R.to_act(table.state) == ("axis",):
        table.do("axis", table.legal("axis")[0])
    table.do("allied", table.first_legal("allied", "identify"))
    held = table.state.tokens["axis-01"].hex
    assert table.refusal("allied", {"action": "deploy", "token": "allied-01", "hex": held})[1] in (
        "enemy-held",
        "outside-area",
    )


@pytest.mark.rule("18.0")
def test_a_place_caps_its_garrison() -> None:
    table = Table("crusader")
    while R.to_act(table.state) == ("allied",) or R.to_act(table.state) == ("axis",):
        seat = R.to_act(table.state)[0]
        if seat == "axis":
            table.do(seat, table.legal(seat)[0])
            continue
        tobruk = table.state.pack.place("tobruk").hex
        action = next((a for a in table.legal(seat) if a.get("hex") == tobruk), table.legal(seat)[0])
        if action["action"] == "deploy" and action["hex"] != tobruk:
            break
        table.do(seat, action)
    tobruk = table.state.pack.place("tobruk").hex
    assert sum(1 for t in table.state.at(tobruk) if table.state.tokens[t].side == "allied") == 5
    token = next(t for t, tok in sorted(table.state.tokens.items()) if tok.status == "ready")
    assert table.refusal("allied", {"action": "deploy", "token": token, "hex": tobruk}) == ("18.0", "cap")


@pytest.mark.rule("18.0")
def test_initial_hands_and_the_one_redraw() -> None:
    table = Table("demo-1940")
    while table.state.phase == "setup":
        seat = R.to_act(table.state)[0]
        table.do(seat, table.legal(seat)[0])
    scenario = table.state.pack.scenario("demo-1940")
    deck = table.state.decks["supply"]
    assert len(deck.hands["axis"]) == scenario.axis.initial_cards
    assert len(deck.hands["allied"]) == scenario.allied.initial_cards
    assert R.to_act(table.state) == ("axis",)
    before = deck.hands["axis"]
    table.do("axis", {"action": "redraw"})
    after = table.state.decks["supply"].hands["axis"]
    assert len(after) == len(before) and set(after).isdisjoint(before)  # a new hand, the old one shuffled back
    assert R.to_act(table.state) == ("allied",)  # once only: the Allies decide next
    table.do("allied", {"action": "keep"})
    assert table.state.phase == "turn" and table.state.active == "axis"


@pytest.mark.rule("13.1")
def test_fortresses_start_with_the_side_whose_area_holds_them() -> None:
    table = Table("1941")
    table.set_up()
    assert table.state.fortresses["tobruk"] == "allied"


@pytest.mark.rule("18.7")
def test_gazala_has_a_pregame_buildup_of_30_bp_without_dice() -> None:
    table = Table("gazala")
    while table.state.phase == "setup":
        seat = R.to_act(table.state)[0]
        table.do(seat, table.legal(seat)[0])
    assert table.state.phase == "buildup" and table.state.order == ("allied", "axis")
    assert R.to_act(table.state) == ("allied",) and table.state.hidden["bp/allied"].value == 30
    for _ in range(3):
        table.do("allied", {"action": "buy"})
    assert table.refusal("allied", {"action": "buy"}) == ("16.5", "short-of-bp")
    table.do("allied", {"action": "end_buildup"})
    table.do("axis", {"action": "end_buildup"})
    scenario = table.state.pack.scenario("gazala")
    hands = table.state.decks["supply"].hands
    assert len(hands["allied"]) == scenario.allied.initial_cards + 3
    assert len(hands["axis"]) == scenario.axis.initial_cards
    assert table.state.phase == "mulligan"
