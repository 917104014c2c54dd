"""Pursuit Fire on the machine's stack (§10.3, §10.5): the retreating owner's slowest speed, the pursuer's dice, the
owner's losses on the hidden group (a secret field, public eliminations, every CV slot of the group re-committed:
notes §7.2.1), and each refusal; claims made in play while the values are hidden, caught by the audit."""

from __future__ import annotations

import pytest

from pbem.games.rommel.audit import audit
from pbem.games.rommel.pursuit import loss_slot
from pbem.games.rommel.state import Pursuit, cv_slot, unit_slot
from tests.games.rommel.rules_driver import R, Table
from tests.games.rommel.test_audit_rommel import public
from tests.games.rommel.test_turn_combat_rommel import two_attackers


def retreated(dice: list[int] | None = None) -> Table:
    """axis-02 (Italian infantry, speed 1) and axis-06 (motorized, speed 2) leave the battle at Sollum (1605) in one
    Group Move: a Full Retreat, which allied-01 (British motor infantry, speed 2) pursues."""
    table = two_attackers()
    table.dice = list(dice or [])
    table.do("axis", {"action": "group", "origin": "1605", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1506"})
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1505"})
    table.do("axis", {"action": "end_move"})
    return table


def pursuit(table: Table) -> Pursuit:
    item = table.state.pending[-1]
    assert isinstance(item, Pursuit)
    return item


@pytest.mark.rule("10.3")
def test_a_full_retreat_takes_pursuit_fire_as_its_move_ends() -> None:
    table = retreated()
    item = pursuit(table)
    assert (item.hex, item.group, item.pursuers, item.cause) == (
        "1605",
        ("axis-02", "axis-06"),
        ("allied-01",),
        "retreat",
    )
    assert R.to_act(table.state) == ("axis",) and table.legal("axis") == [{"action": "slowest", "speed": 1}]
    assert all(table.state.tokens[t].disrupted for t in item.group)  # §10.0: disengaged units are Disrupted


@pytest.mark.rule("10.4")
def test_a_partial_retreat_is_not_pursued() -> None:
    table = two_attackers()
    table.do("axis", {"action": "group", "origin": "1605", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1506"})
    table.do("axis", {"action": "end_move"})
    assert table.state.turn.partial == ("1605",)
    assert [p.kind for p in table.state.pending] == ["probe"]  # only Probe Combat can expose it (§10.41)
    table.do("allied", {"action": "probe", "provoke": False})
    assert not table.state.pending and not any(e.kind == "pursuit_begun" for e in table.events)


@pytest.mark.rule("10.5")
def test_the_slowest_speed_announced_is_the_true_one() -> None:
    table = retreated()
    assert table.refusal("axis", {"action": "slowest", "speed": 2}) == ("10.5", "slowest-speed-misreported")
    assert table.refusal("allied", {"action": "slowest", "speed": 1})[1] == "not-your-turn"
    table.do("axis", {"action": "slowest", "speed": 1})
    claim = table.state.claims[-1]
    assert (claim.kind, claim.seat, claim.value, claim.group) == ("slowest", "axis", 1, ("axis-02", "axis-06"))
    assert R.to_act(table.state) == ("allied",)


@pytest.mark.rule("10.5")
def test_pursuit_dice_are_two_per_faster_pursuer_and_may_be_withheld() -> None:
    table = retreated()
    table.do("axis", {"action": "slowest", "speed": 1})
    # allied-01 (speed 2) is faster than speed 1: two dice, or none (Pursuit Deception)
    assert table.legal("allied") == [{"action": "pursue", "dice": 0}, {"action": "pursue", "dice": 2}]
    assert table.refusal("allied", {"action": "pursue", "dice": 1}) == ("10.5", "pursuit-dice-miscounted")
    assert table.refusal("allied", {"action": "pursue", "dice": 3}) == ("10.5", "pursuit-dice-miscounted")
    table.do("allied", {"action": "pursue", "dice": 0})
    assert not table.state.pending and table.state.claims[-1].kind == "pursuit"
    assert audit(table.state) is None


@pytest.mark.rule("10.5")
def test_pursuit_misses_end_the_pursuit() -> None:
    table = retreated([3, 1])
    table.do("axis", {"action": "slowest", "speed": 1})
    table.do("allied", {"action": "pursue", "dice": 2})
    assert not table.state.pending
    assert [e.data["hits"] for e in table.events if e.kind == "pursuit_hits"] == [0]


@pytest.mark.rule("10.5")
def test_the_owner_allocates_the_pursuit_hits_exactly() -> None:
    table = retreated([6, 4])  # two hits on axis-02 (CV 4) and axis-06 (CV 3)
    table.do("axis", {"action": "slowest", "speed": 1})
    table.do("allied", {"action": "pursue", "dice": 2})
    assert pursuit(table).hits == 2 and R.to_act(table.state) == ("axis",)
    assert table.legal("axis") == [
        {"action": "pursuit_losses", "eliminated": [], "losses": {"axis-06": 2}},
        {"action": "pursuit_losses", "eliminated": [], "losses": {"axis-02": 1, "axis-06": 1}},
        {"action": "pursuit_losses", "eliminated": [], "losses": {"axis-02": 2}},
    ]
    refusals = {
        "wasted": {"eliminated": [], "losses": {"axis-02": 1}},
        "too many": {"eliminated": [], "losses": {"axis-02": 3}},
        "not retreating": {"eliminated": [], "losses": {"allied-01": 2}},
        "eliminations": {"eliminated": ["axis-06"], "losses": {"axis-06": 2}},
        "elimination not retreating": {"eliminated": ["allied-01"], "losses": {"axis-02": 2}},
        "unsorted": {"eliminated": ["axis-06", "axis-02"], "losses": {"axis-02": 2}},
    }
    found = {k: table.refusal("axis", {"action": "pursuit_losses", **v}) for k, v in refusals.items()}
    assert found == {
        "wasted": ("9.5", "hits-wasted"),
        "too many": ("9.5", "losses-exceed-hits"),
        "not retreating": ("10.5", "loss-not-retreating"),
        "eliminations": ("10.5", "eliminations-misreported"),
        "elimination not retreating": ("10.5", "loss-not-retreating"),
        "unsorted": ("10.5", "eliminations-unsorted"),
    }
    versions = {t: table.state.hidden[cv_slot(t)].ver for t in ("axis-02", "axis-06")}
    table.do("axis", {"action": "pursuit_losses", "eliminated": [], "losses": {"axis-02": 2}})
    assert not table.state.pending
    assert table.state.hidden[cv_slot("axis-02")].value == 2 and table.state.hidden[cv_slot("axis-06")].value == 3
    # every CV slot of the group has a new version, changed or not (notes §7.2.1), and none is public
    for token, ver in versions.items():
        slot = table.state.hidden[cv_slot(token)]
        assert slot.ver == ver + 1 and not slot.public
    assert table.state.hidden[loss_slot("axis")].owner == "axis"


@pytest.mark.rule("10.5")
def test_pursuit_eliminations_are_public() -> None:
    table = retreated([6, 6, 6, 6])
    table.do("axis", {"action": "slowest", "speed": 1})
    table.do("allied", {"action": "pursue", "dice": 2})
    # two hits; axis-06 (motorized) has lost all but its last CV: one hit on it eliminates it
    table.state = table.state.with_hidden(cv_slot("axis-06"), "axis", 1, known=True)
    gone = {"action": "pursuit_losses", "eliminated": ["axis-06"], "losses": {"axis-02": 1, "axis-06": 1}}
    assert gone in table.legal("axis")
    table.do("axis", {"action": "pursuit_losses", "eliminated": ["axis-06"], "losses": {"axis-02": 1, "axis-06": 1}})
    assert table.state.tokens["axis-06"].status == "eliminated"
    assert any(e.kind == "unit_eliminated" and e.data["unit"] == "axis-06" for e in table.events)


@pytest.mark.rule("10.5")
def test_a_replay_that_cannot_see_the_group_lists_every_candidate() -> None:
    table = retreated([6, 4])
    public(table)
    hidden = {n: s.model_copy(update={"known": False, "value": None}) for n, s in table.state.hidden.items()}
    table.state = table.state.model_copy(update={"hidden": {**table.state.hidden, **{
        n: s for n, s in hidden.items() if n.startswith("cv/")}}})  # fmt: skip
    speeds = [a["speed"] for a in R.legal_actions(table.state, "axis")]
    assert speeds == [1, 2, 3, 4]  # up to the fastest unit type
    table.do("axis", {"action": "slowest", "speed": 1})
    assert [a["dice"] for a in R.legal_actions(table.state, "allied")] == [0, 1, 2]
    table.do("allied", {"action": "pursue", "dice": 2})
    legal = R.legal_actions(table.state, "axis")
    assert {"action": "pursuit_losses", "eliminated": []} in legal
    assert {"action": "pursuit_losses", "eliminated": ["axis-02", "axis-06"]} in legal
    verdict = R.contains(table.state, "axis", R.typed({"action": "pursuit_losses", "eliminated": []}))
    assert verdict.ok
    step = R.apply(table.state, "axis", R.typed({"action": "pursuit_losses", "eliminated": []}))
    assert all(not step.state.hidden[cv_slot(t)].known for t in ("axis-02", "axis-06"))


@pytest.mark.rule("10.5")
def test_no_more_units_are_eliminated_than_the_hits() -> None:
    table = retreated([6, 1])
    table.do("axis", {"action": "slowest", "speed": 1})
    table.do("allied", {"action": "pursue", "dice": 2})
    both = {"action": "pursuit_losses", "eliminated": ["axis-02", "axis-06"]}
    assert table.refusal("axis", both) == ("10.5", "eliminations-exceed-hits")


def hidden_from_replay(table: Table, side: str) -> dict[str, str]:
    """Hide ``side``'s identities and strengths from the replay, as the opponent's replay sees them; the identities,
    returned, are what the end-of-game disclosure reveals."""
    revealed = {}
    hidden = dict(table.state.hidden)
    for name, slot in table.state.hidden.items():
        if slot.owner == side and name.startswith(("unit/", "cv/")):
            if name.startswith("unit/"):
                revealed[name.removeprefix("unit/")] = slot.value
            hidden[name] = slot.model_copy(update={"known": False, "value": None, "public": False})
    table.state = table.state.model_copy(update={"hidden": hidden})
    return revealed


@pytest.mark.rule("10.5")
def test_a_misannounced_slowest_speed_made_in_play_is_caught_at_the_audit() -> None:
    table = retreated()
    revealed = hidden_from_replay(table, "axis")
    # the group's slowest unit, axis-02, is leg infantry (speed 1): announced as 2, which this replay cannot refuse
    assert [a["speed"] for a in table.legal("axis")] == [1, 2, 3, 4]
    table.do("axis", {"action": "slowest", "speed": 2})
    act = table.state.acts
    found = audit(table.state, revealed)
    assert found is not None
    assert (found.act, found.seat, found.rule, found.reason) == (act, "axis", "10.5", "slowest-speed-misreported")


@pytest.mark.rule("10.5")
def test_too_many_pursuit_dice_made_in_play_are_caught_at_the_audit() -> None:
    table = retreated([1])
    table.do("axis", {"action": "slowest", "speed": 1})
    revealed = hidden_from_replay(table, "allied")
    # allied-01 (speed 2) is faster than speed 1: it rolls two dice or none, yet the hidden pursuer claims one
    assert [a["dice"] for a in table.legal("allied")] == [0, 1, 2]
    table.do("allied", {"action": "pursue", "dice": 1})
    act = table.state.acts
    found = audit(table.state, {**revealed, "axis-02": "it-brescia", "axis-06": "it-trento"})
    assert found is not None
    assert (found.act, found.seat, found.rule, found.reason) == (act, "allied", "10.5", "pursuit-dice-miscounted")


@pytest.mark.rule("10.5")
def test_a_replay_that_sees_the_group_needs_the_losses_unless_they_are_a_secret_it_cannot_read() -> None:
    table = retreated([6, 4])
    table.do("axis", {"action": "slowest", "speed": 1})
    table.do("allied", {"action": "pursue", "dice": 2})
    bare = R.typed({"action": "pursuit_losses", "eliminated": []})
    assert table.refusal("axis", {"action": "pursuit_losses", "eliminated": []}) == ("10.5", "losses-missing")
    assert R.contains(table.state, "axis", bare, unseen=frozenset({"losses"})).ok  # a logged action: audited later
    too_many = R.typed({"action": "pursuit_losses", "eliminated": ["axis-02", "axis-06", "allied-01"]})
    verdict = R.contains(table.state, "axis", too_many, unseen=frozenset({"losses"}))
    assert (verdict.ok, verdict.rule) == (False, "10.5")


def retreat_leaving(dice: list[int]) -> Table:
    """As :func:`retreated`, with axis-03 left behind Disrupted in the battle: it Routs after the Retreat's Pursuit
    Fire (§10.3 step 4)."""
    table = two_attackers()
    tok = table.state.tokens["axis-03"].model_copy(update={"hex": "1605", "disrupted": True})
    table.state = table.state.model_copy(update={"tokens": {**table.state.tokens, "axis-03": tok}})
    table.dice = list(dice)
    table.do("axis", {"action": "group", "origin": "1605", "rommel": False})
    table.do("axis", {"action": "step", "token": "axis-06", "to": "1506"})
    table.do("axis", {"action": "step", "token": "axis-02", "to": "1505"})
    table.do("axis", {"action": "end_move"})
    return table


@pytest.mark.rule("10.5")
def test_a_unit_that_pursued_the_retreat_cannot_pursue_the_rout() -> None:
    table = retreat_leaving([1, 1])
    assert [p.kind for p in table.state.pending] == ["withdrawal", "pursuit", "pursuit"]
    table.do("axis", {"action": "slowest", "speed": 1})
    table.do("allied", {"action": "pursue", "dice": 2})  # allied-01 fires at the Retreat: 1, 1
    table.do("axis", {"action": "attrition", "eliminated": []})  # axis-03's Rout: a step off
    table.do("axis", {"action": "slowest", "speed": 1})
    assert table.legal("allied") == [{"action": "pursue", "dice": 0}]  # its only pursuer has fired
    assert table.refusal("allied", {"action": "pursue", "dice": 2}) == ("10.5", "pursuit-dice-miscounted")


@pytest.mark.rule("10.5")
def test_fire_held_back_at_the_retreat_may_pursue_the_rout() -> None:
    table = retreat_leaving([6, 1])
    table.do("axis", {"action": "slowest", "speed": 1})
    table.do("allied", {"action": "pursue", "dice": 0})  # Pursuit Deception: fire saved for the Rout
    table.do("axis", {"action": "attrition", "eliminated": []})
    table.do("axis", {"action": "slowest", "speed": 1})
    assert [a["dice"] for a in table.legal("allied")] == [0, 2]
    table.do("allied", {"action": "pursue", "dice": 2})
    assert table.state.claims[-1].before == ((1, 0),)
    assert audit(table.state) is None


@pytest.mark.rule("10.5")
def test_reserved_pursuit_dice_made_in_play_by_hidden_pursuers_are_caught_at_the_audit() -> None:
    table = retreat_leaving([1, 1, 1, 1])
    # a second pursuer in the hex: allied-02 as an Australian infantry battalion (speed 1, one die at speed 1)
    tok = table.state.tokens["allied-02"].model_copy(update={"hex": "1605"})
    table.state = table.state.model_copy(update={"tokens": {**table.state.tokens, "allied-02": tok}})
    table.state = table.state.with_hidden(unit_slot("allied-02"), "allied", "aus-9-20", known=True)
    table.state = table.state.with_hidden(cv_slot("allied-02"), "allied", 4, known=True)
    item = table.state.pending[-1]
    table.state = table.state.model_copy(
        update={
            "pending": (*table.state.pending[:-1], item.model_copy(update={"pursuers": ("allied-01", "allied-02")}))
        }
    )
    table.do("axis", {"action": "slowest", "speed": 1})
    revealed = hidden_from_replay(table, "allied")
    table.do("allied", {"action": "pursue", "dice": 2})  # allied-01 (faster: two dice) fires at the Retreat
    table.do("axis", {"action": "attrition", "eliminated": []})
    rout = table.state.pending[-1]
    table.state = table.state.model_copy(
        update={
            "pending": (*table.state.pending[:-1], rout.model_copy(update={"pursuers": ("allied-01", "allied-02")}))
        }
    )
    table.do("axis", {"action": "slowest", "speed": 1})
    assert [a["dice"] for a in table.legal("allied")] == [0, 1, 2]  # this replay cannot tell who fired
    table.do("allied", {"action": "pursue", "dice": 2})  # only allied-02's one die was left
    act = table.state.acts
    found = audit(table.state, {**revealed, "axis-02": "it-brescia", "axis-06": "it-trento", "axis-03": "it-pavia"})
    assert found is not None
    assert (found.act, found.seat, found.rule, found.reason) == (act, "allied", "10.5", "pursuit-dice-miscounted")


@pytest.mark.rule("10.5")
def test_the_library_splits_pursuit_dice_between_pursuits_a_unit_firing_once() -> None:
    from pbem.games.rommel import battle

    table = Table("demo-1940")
    pack = table.state.pack
    fast, slow = battle.battle_unit(pack, "uk-2ad-sg"), battle.battle_unit(pack, "aus-9-20")  # speeds 3 and 1
    splits = battle.pursuit_dice_splits(pack, [1, 1], [fast, slow])
    assert splits == {(0, 0), (2, 0), (0, 2), (1, 0), (0, 1), (3, 0), (0, 3), (2, 1), (1, 2)}
    assert battle.check_reserved_pursuit_dice(pack, [(1, 2)], 1, [fast, slow], 1).ok
    verdict = battle.check_reserved_pursuit_dice(pack, [(1, 2)], 1, [fast, slow], 2)
    assert (verdict.ok, verdict.rule, verdict.reason) == (False, "10.5", "pursuit-dice-miscounted")
