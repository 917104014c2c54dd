"""Rommel Buildup (§16) and the Initiative Challenge (§3.3)."""

from __future__ import annotations

import re

import pytest

from pbem.games.rommel.buildup import bp_slot
from pbem.games.rommel.state import cv_slot
from tests.games.rommel.rules_driver import R, Table

DUMMY = 28


def to_buildup(
    scenario: str = "demo-1940", dice: tuple[int, ...] = (2, 5), cards: list[int] | None = None, early: int = 6
) -> Table:
    """The first Buildup: BP dice ``dice``, then every Early Arrival die ``early``."""
    table = Table(scenario, cards=cards, dice=[*dice, *[early] * 30])
    table.set_up()
    for _ in range(2):
        seat = table.state.active
        table.do(seat, {"action": "select"})
        table.do(seat, {"action": "end_movement"})
        table.do(seat, {"action": "end_combat"})
    table.do("axis", {"action": "advance"})
    return table


@pytest.mark.rule("16.3")
def test_each_player_gets_all_the_dice_and_the_lower_roller_goes_first() -> None:
    table = to_buildup(dice=(5, 2))  # one die each in 1940: Axis 5, Allies 2
    assert table.state.hidden[bp_slot("axis")].value == 7 == table.state.hidden[bp_slot("allied")].value
    assert table.state.order == ("allied", "axis")
    tie = to_buildup(dice=(3, 3))
    assert tie.state.order == ("allied", "axis")  # a tie: the Allies are Player 1


@pytest.mark.rule("16.4")
def test_reinforcements_arrive_in_base_with_secret_identities() -> None:
    table = to_buildup(dice=(5, 2))  # the Allies rolled lower: Player 1
    arrivals = [t for t, tok in table.state.tokens.items() if tok.group == "arrival-2"]
    scenario = table.state.pack.scenario("demo-1940")
    due = [b for a in scenario.allied.reinforcements if a.month == 2 for b in a.blocks]
    assert len(arrivals) == len(due) and R.to_act(table.state) == (table.state.order[0],)
    assert table.state.order[0] == "allied" and due
    assert table.refusal("allied", {"action": "end_buildup"}) == ("16.4", "muster-first")
    assert table.refusal("allied", {"action": "buy"}) == ("16.4", "muster-first")
    table.do("allied", table.first_legal("allied", "identify"))
    first = sorted(arrivals)[0]
    base = table.state.pack.place("alexandria").hex
    assert table.state.tokens[first].hex == base and table.state.tokens[first].status == "map"


@pytest.mark.rule("16.5")
def test_extra_cards_cost_bp_and_unspent_bp_are_saved_up_to_the_limit() -> None:
    table = to_buildup(dice=(6, 6))
    seat = table.state.order[0]
    while any(a["action"] == "identify" for a in table.legal(seat)):
        table.do(seat, table.first_legal(seat, "identify"))
    table.do(seat, {"action": "buy"})
    assert table.state.hidden[bp_slot(seat)].value == 2
    assert table.refusal(seat, {"action": "buy"}) == ("16.5", "short-of-bp")
    table.do(seat, {"action": "end_buildup"})
    assert table.state.hidden[bp_slot(seat)].value == 2


@pytest.mark.rule("16.6")
def test_resupply_deals_the_monthly_cards_and_extras() -> None:
    table = to_buildup(dice=(6, 6))
    before = {s: len(table.state.decks["supply"].hands[s]) for s in ("axis", "allied")}
    for _ in range(2):
        seat = R.to_act(table.state)[0]
        while any(a["action"] == "identify" for a in table.legal(seat)):
            table.do(seat, table.first_legal(seat, "identify"))
        if seat == "axis":
            table.do(seat, {"action": "buy"})
        table.do(seat, {"action": "end_buildup"})
    scenario = table.state.pack.scenario("demo-1940")
    after = {s: len(table.state.decks["supply"].hands[s]) for s in ("axis", "allied")}
    assert after["axis"] == before["axis"] + scenario.axis.resupply + 1
    assert after["allied"] == before["allied"] + scenario.allied.resupply
    assert table.state.phase == "initiative" and R.to_act(table.state) == ("allied",)


@pytest.mark.rule("16.54")
def test_replacements_in_base_up_to_full_strength() -> None:
    table = to_buildup(dice=(6, 6))
    seat = table.state.order[0]
    while any(a["action"] == "identify" for a in table.legal(seat)):
        table.do(seat, table.first_legal(seat, "identify"))
    in_base = [a for a in table.legal(seat) if a["action"] == "replace"]
    assert not in_base  # every arrival is at full strength
    token = next(t for t, tok in table.state.tokens.items() if tok.side == seat and tok.group.startswith("arrival"))
    slot = table.state.hidden[cv_slot(token)]
    table.state = table.state.model_copy(
        update={"hidden": {**table.state.hidden, cv_slot(token): slot.model_copy(update={"value": slot.value - 1})}}
    )
    table.do(seat, {"action": "replace", "token": token})
    assert table.state.hidden[cv_slot(token)].value >= slot.value
    far = next(t for t, tok in table.state.tokens.items() if tok.side == seat and tok.group.startswith("deploy"))
    assert table.refusal(seat, {"action": "replace", "token": far}) == ("16.54", "not-in-base")


def initiative(allied_card: int | None, axis_card: int | None, hands: list[int]) -> Table:
    table = to_buildup(dice=(1, 1), cards=hands)
    for _ in range(2):
        seat = R.to_act(table.state)[0]
        while any(a["action"] == "identify" for a in table.legal(seat)):
            table.do(seat, table.first_legal(seat, "identify"))
        table.do(seat, {"action": "end_buildup"})
    table.do("allied", {"action": "challenge", "card": allied_card})
    if allied_card is not None:
        table.do("axis", {"action": "answer", "card": axis_card})
    return table


# the demo deals the Axis 6 cards, then the Allies 3: the Axis holds cards 0-5, the Allies 28-30 (dummies) or 6-8
REAL_ALLIES = [0, 1, 2, 3, 4, 5, 6, 7, 8, *range(9, 42)]
DUMMY_AXIS = [28, 29, 30, 31, 32, 33, 6, 7, 8, *[c for c in range(42) if c not in (28, 29, 30, 31, 32, 33, 6, 7, 8)]]


@pytest.mark.rule("3.3")
def test_a_real_allied_card_unmatched_seizes_the_initiative() -> None:
    table = initiative(0, 0, DUMMY_AXIS)
    assert table.state.phase == "turn" and table.state.active == "allied"
    matched = initiative(0, 0, REAL_ALLIES)
    assert matched.state.active == "axis"
    declined = initiative(None, None, REAL_ALLIES)
    assert declined.state.active == "axis"
    unanswered = initiative(0, None, REAL_ALLIES)
    assert unanswered.state.active == "allied"
    assert table.refusal("allied", {"action": "commit", "card": 99}) == ("3.42", "not-held")


@pytest.mark.rule("3.3")
def test_challenge_cards_must_be_held() -> None:
    table = to_buildup(dice=(1, 1))
    for _ in range(2):
        seat = R.to_act(table.state)[0]
        while any(a["action"] == "identify" for a in table.legal(seat)):
            table.do(seat, table.first_legal(seat, "identify"))
        table.do(seat, {"action": "end_buildup"})
    assert table.refusal("allied", {"action": "challenge", "card": 50}) == ("3.3", "not-held")


@pytest.mark.rule("16.41")
def test_next_months_units_may_arrive_early() -> None:
    scenario = Table("demo-1940").state.pack.scenario("demo-1940")
    due = {side: [b for a in getattr(scenario, side).reinforcements if a.month == 3 for b in a.blocks]
           for side in ("axis", "allied")}  # fmt: skip
    for die, arrives in ((2, True), (3, False)):
        table = to_buildup(dice=(5, 2), early=die)  # month 2: the Allies are Player 1
        while table.state.phase == "buildup":
            seat = R.to_act(table.state)[0]
            while any(a["action"] == "identify" for a in table.legal(seat)):
                table.do(seat, table.first_legal(seat, "identify"))
            table.do(seat, {"action": "end_buildup"})
        for side in ("axis", "allied"):
            third = [t for t, tok in table.state.tokens.items() if tok.side == side and tok.group == "arrival-3"]
            assert len(third) == len(due[side])
            assert all(table.state.tokens[t].status == ("map" if arrives else "due") for t in third)
        early = [e for e in table.events if e.kind == "early_arrivals"]
        assert early and all(e.rule == "16.41" for e in early)
        assert all(re.fullmatch(r"(Axis|Allied): \d+ of \d+ units? due next Month arrive early", e.text) for e in early)


@pytest.mark.rule("16.4")
def test_units_not_arrived_early_arrive_on_schedule() -> None:
    from pbem.games.rommel import buildup

    table = to_buildup(dice=(5, 2), early=6)
    while table.state.phase == "buildup":
        seat = R.to_act(table.state)[0]
        while any(a["action"] == "identify" for a in table.legal(seat)):
            table.do(seat, table.first_legal(seat, "identify"))
        table.do(seat, {"action": "end_buildup"})
    waiting = [t for t, tok in table.state.tokens.items() if tok.status == "due"]
    assert waiting
    after, _ = buildup.start_buildup(table.state)
    assert after.month == 3 and all(after.tokens[t].status == "map" for t in waiting)
    assert all(after.tokens[t].hex == after.pack.place("el-agheila" if after.tokens[t].side == "axis" else
                                                       "alexandria").hex for t in waiting)  # fmt: skip


@pytest.mark.rule("18.6")
def test_the_malta_group_arrives_in_any_buildup_and_axis_resupply_drops() -> None:
    table = to_buildup("1942", dice=(1, 2))  # the Axis rolled lower: Player 1
    assert table.state.order[0] == "axis"
    while any(a["action"] == "identify" for a in table.legal("axis")):
        table.do("axis", table.first_legal("axis", "identify"))
    normal = table.state.pack.scenario("1942").axis.resupply
    table.do("axis", {"action": "malta"})
    assert table.refusal("axis", {"action": "malta"}) == ("16.4", "muster-first")
    while any(a["action"] == "identify" for a in table.legal("axis")):
        table.do("axis", table.first_legal("axis", "identify"))
    assert table.refusal("axis", {"action": "malta"}) == ("18.6", "malta-called")
    malta = [t for t, tok in table.state.tokens.items() if tok.group == "malta"]
    base = table.state.pack.place("el-agheila").hex
    assert malta and all(table.state.tokens[t].hex == base for t in malta)
    from pbem.games.rommel.buildup import monthly_cards

    assert monthly_cards(table.state, "axis") < normal
    demo = to_buildup()
    assert R.check(demo.state, demo.state.order[0], {"action": "malta"}).rule in ("16.4", "18.6")


@pytest.mark.rule("16.6")
def test_dummy_cards_may_be_discarded_face_up_and_return_at_resupply() -> None:
    first = [0, 1, 2, 3, 4, 5, 6, DUMMY, 7]  # the Axis hand, then the Allies': real, dummy, real
    table = to_buildup(dice=(6, 6), cards=[*first, *(c for c in range(42) if c not in first)])
    assert table.state.order[0] == "allied"  # a tie: the Allies first
    while any(a["action"] == "identify" for a in table.legal("allied")):
        table.do("allied", table.first_legal("allied", "identify"))
    assert table.state.decks["supply"].hands["allied"] == (6, DUMMY, 7)
    assert table.refusal("allied", {"action": "discard", "card": 0}) == ("16.6", "real-card")
    assert table.refusal("allied", {"action": "discard", "card": 3}) == ("16.6", "not-held")
    table.do("allied", {"action": "discard", "card": 1})
    assert table.state.decks["supply"].hands["allied"] == (6, 7)
    assert DUMMY in table.state.decks["supply"].faceup
    assert [e.data["real"] for e in table.events if e.kind == "card_shown"] == [0]
    table.do("allied", {"action": "end_buildup"})
    while any(a["action"] == "identify" for a in table.legal("axis")):
        table.do("axis", table.first_legal("axis", "identify"))
    table.do("axis", {"action": "end_buildup"})
    assert DUMMY not in table.state.decks["supply"].faceup  # shuffled back at Resupply
