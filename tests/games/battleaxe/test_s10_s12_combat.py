"""Support units (10), combat (11) and the Advantage in combat (12.1A, 12.1B)."""

from __future__ import annotations

import pytest

from pbem.games.battleaxe.state import Allocation, AttackerRetreat, BattleaxeState, Decision, DiceWait, now
from pbem.kit.machine import top
from pbem.replay.basics import state_hash
from tests.games.battleaxe.position import (
    R,
    axis_turn,
    controlled,
    new_game,
    off_board,
    placed,
    play,
    plays,
    reduced,
    refusal,
    roll,
)

INTO_6 = [{"action": "move", "unit": u, "to": "6"} for u in ("7rtr", "22gds", "65at")]


def at_halfaya(state: BattleaxeState | None = None) -> BattleaxeState:
    """7RTR, 22 Gds and 65 AT have moved from Area 7 into Halfaya Pass (Area 6): a Mandatory Attack."""
    state = placed(state or new_game(), **{"7rtr": "7", "22gds": "7", "65at": "7"})
    state = play(state, "allied", {"action": "assault", "areas": ["7"]})
    state = plays(state, "allied", *INTO_6, {"action": "attack", "target": "6"})
    return state


def declared(state: BattleaxeState, *, air: bool = False, artillery: bool = False) -> BattleaxeState:
    state = plays(state, "allied", {"action": "lead", "unit": "7rtr"})
    return play(state, "allied", {"action": "support", "air": air, "rommel": False, "artillery": artillery})


def fought(
    state: BattleaxeState, attack: tuple[int, int], defense: tuple[int, int], lead: str = "1-104"
) -> BattleaxeState:
    """Defend and roll; an Advantage window (12.1A, 12.1B) is passed up."""
    state = play(state, "axis", {"action": "defend", "lead": lead, "artillery": False})
    state = roll(state, attack=attack, defense=defense)
    if now(state) == "max_attack":
        state = play(state, "allied", {"action": "accept"})
    return state


@pytest.mark.rule("10.3")
@pytest.mark.rule("11.4.2")
def test_10_3_an_at_unit_may_not_lead_an_attack() -> None:
    state = at_halfaya()
    assert state.combat is not None and set(state.combat.attackers) == {"7rtr", "22gds", "65at"}  # 11.1: all of them
    assert refusal(state, "allied", {"action": "lead", "unit": "65at"}) == ("10.3", "at-lead")
    assert refusal(state, "allied", {"action": "support", "air": False, "rommel": False, "artillery": False}) == (
        "11.4.2",
        "no-lead",
    )


@pytest.mark.rule("11.4.2")
@pytest.mark.rule("11.4.3")
def test_11_4_attack_and_defense_values() -> None:
    state = fought(declared(at_halfaya()), (3, 3), (3, 3))
    # AV: 7RTR 5 + 2 additional units + 1 combined arms = 8; DV: 1/104 4 + 2 additional + TEM 3 = 9
    combat = next(
        e
        for e in R.apply(
            declared(at_halfaya()), "axis", {"action": "defend", "lead": "1-104", "artillery": False}
        ).events
    )
    assert combat.kind == "defense_declared"
    assert state.combat is None or state.combat.attack_total in (14,)
    assert state.units["7rtr"].full is False  # 8+6=14 < 9+6=15: Repulse, every attacker takes a step


@pytest.mark.rule("11.1")
@pytest.mark.rule("11.6")
def test_11_1_a_repulsed_mandatory_attack_retreats_whence_it_came() -> None:
    state = fought(declared(at_halfaya()), (1, 1), (6, 6))
    for unit in ("7rtr", "22gds", "65at"):
        assert not state.units[unit].full and state.units[unit].location == "7"
    assert now(state) == "voluntary_retreat"  # 11.6.3: then the defender may still withdraw
    assert now(play(state, "axis", {"action": "stay"})) == "assault"


@pytest.mark.rule("11.4.3")
@pytest.mark.rule("11.5")
def test_11_4_3_a_combat_is_one_pending_entry_over_the_assault_from_the_defense_to_its_last_decision() -> None:
    state = declared(at_halfaya())
    assert state.step == "assault" and state.pending == (Decision(kind="defend", seat="axis"),)
    assert R.to_act(state) == ("axis",) and refusal(state, "allied", {"action": "end_assault"})[1] == "not-your-turn"
    state = play(state, "axis", {"action": "defend", "lead": "1-104", "artillery": False})
    assert state.pending == (DiceWait(kind="combat", seat="allied"),) and R.to_act(state) == ()
    state = roll(state, attack=(6, 4), defense=(2, 1))  # 6 AP (test_11_5 below)
    assert state.step == "assault" and len(state.pending) == 1 and top(state, Allocation).seat == "axis"
    assert state_hash(state) != state_hash(state.model_copy(update={"pending": ()}))  # the decision is hashed
    waits = declared(at_halfaya(), artillery=True)  # the attacker's artillery call comes first (10.2.1)
    assert waits.pending == (DiceWait(kind="attacker_artillery", seat="allied"),)
    assert roll(waits, artillery=(6,)).pending == (Decision(kind="defend", seat="axis"),)


@pytest.mark.rule("11.4.4")
def test_11_4_4_stalemate_costs_both_leads_a_step() -> None:
    state = fought(declared(at_halfaya()), (4, 3), (3, 3))  # 8+7 = 15 = 9+6
    assert not state.units["7rtr"].full and not state.units["1-104"].full
    assert state.units["22gds"].full and state.units["defr"].full


@pytest.mark.rule("11.4.4")
@pytest.mark.rule("11.5")
def test_11_5_success_attrition_is_exact_and_starts_with_the_lead() -> None:
    state = fought(declared(at_halfaya()), (6, 4), (2, 1))  # 8+10 = 18 against 9+3 = 12: 6 AP
    assert now(state) == "allocate" and top(state, Allocation).ap_left == 6
    assert not state.units["7rtr"].full  # the lead attacker steps on a Success
    assert refusal(state, "axis", {"action": "absorb", "unit": "defr", "loss": "eliminate", "to": None}) == (
        "11.5",
        "lead-first",
    )
    state = play(state, "axis", {"action": "absorb", "unit": "1-104", "loss": "eliminate", "to": None})  # 3
    state = plays(
        state,
        "axis",
        {"action": "absorb", "unit": "1-33a", "loss": "flip", "to": None},
        {"action": "absorb", "unit": "defr", "loss": "flip_retreat", "to": "17"},
    )
    assert state.units["1-104"].location is None and not state.units["1-33a"].full
    assert state.units["defr"].location == "17" and not state.units["defr"].full
    # the rule's own example: with 2 AP a Full-Strength unit may not be eliminated to spare another
    two = fought(declared(at_halfaya()), (4, 4), (3, 2))  # 8+8 = 16 against 9+5 = 14
    assert top(two, Allocation).ap_left == 2
    assert refusal(two, "axis", {"action": "absorb", "unit": "1-104", "loss": "eliminate", "to": None}) == (
        "11.5",
        "exact-losses",
    )


@pytest.mark.rule("11.5.1")
def test_11_5_1_only_german_full_strength_units_retreat_for_one_ap() -> None:
    state = fought(declared(at_halfaya()), (6, 4), (2, 1))
    options = {(a["unit"], a["loss"]) for a in R.legal_actions(state, "axis")}
    assert ("1-104", "retreat") in options  # German
    state = play(state, "axis", {"action": "absorb", "unit": "1-104", "loss": "retreat", "to": "17"})
    state = play(state, "axis", {"action": "absorb", "unit": "1-33a", "loss": "eliminate", "to": None})
    assert refusal(state, "axis", {"action": "absorb", "unit": "defr", "loss": "retreat", "to": "17"}) == (
        "11.5.1",
        "loss",
    )


@pytest.mark.rule("11.4.4")
def test_11_4_4_no_allied_overrun_of_an_axis_strongpoint() -> None:
    state = placed(at_halfaya(), **{"1-33a": None, "defr": None})  # only 1/104 (4 AP at most) defends
    state = fought(declared(state), (6, 6), (1, 1))  # far more AP than can be absorbed
    assert now(state) == "allocate" and state.combat is not None and state.combat.outcome == "success"


@pytest.mark.rule("11.4.4")
def test_11_4_4_overrun_into_one_more_area() -> None:
    state = off_board(new_game(), "7rtr", "22gds", "1-62", "2-62")
    state = placed(state, **{"7rtr": "17", "22gds": "17"})
    state = controlled(state, **{"17": "allied"})
    state = play(state, "allied", {"action": "assault", "areas": ["17"]})
    state = plays(
        state,
        "allied",
        {"action": "move", "unit": "7rtr", "to": "15"},
        {"action": "move", "unit": "22gds", "to": "15"},
        {"action": "attack", "target": "15"},
        {"action": "lead", "unit": "7rtr"},
        {"action": "support", "air": False, "rommel": False, "artillery": False},
    )
    state = play(state, "axis", {"action": "defend", "lead": "1-62", "artillery": False})
    state = roll(state, attack=(6, 6), defense=(1, 1))  # 6+12 vs 2+2+2 = 6: 12 AP, 1/62 absorbs 3 at most
    assert now(state) == "overrun" and state.units["1-62"].location is None and state.control["15"] == "allied"
    assert refusal(state, "allied", {"action": "overrun", "target": "16"}) == ("11.4.4", "not-adjacent")
    state = play(
        state, "allied", {"action": "overrun", "target": "17"} if False else {"action": "overrun", "target": "18"}
    )
    assert refusal(state, "allied", {"action": "attack", "target": "16"})[0] in ("11.4.4", "11.0")
    state = plays(state, "allied", {"action": "move", "unit": "22gds", "to": "18"})
    assert state.units["22gds"].location == "18" and state.control["18"] == "allied"
    state = play(state, "allied", {"action": "end_overrun"})
    assert state.assault is not None and state.assault.overrun_target is None


@pytest.mark.rule("11.6.3")
@pytest.mark.rule("11.6.2")
def test_11_6_3_voluntary_retreat_never_for_full_strength_allies() -> None:
    state = axis_turn(placed(new_game(), **{"2rtr": "10"}))
    state = controlled(state, **{"10": "allied"})
    state = reduced(state, "2rtr")
    state = play(state, "axis", {"action": "assault", "areas": ["9"]})
    state = plays(
        state,
        "axis",
        {"action": "move", "unit": "15mc", "to": "10"},
        {"action": "attack", "target": "10"},
        {"action": "lead", "unit": "15mc"},
        {"action": "support", "air": False, "rommel": False, "artillery": False},
    )
    state = play(state, "allied", {"action": "defend", "lead": "2rtr", "artillery": False})
    state = roll(state, attack=(1, 1), defense=(6, 6))  # Repulse
    assert now(state) == "voluntary_retreat"
    retreats = [a for a in R.legal_actions(state, "allied") if a["action"] == "retreat"]
    assert retreats and all(a["unit"] == "2rtr" for a in retreats)  # Reduced: may withdraw
    best = {a["to"] for a in retreats}
    worst = next(loc for loc in ("5", "7", "D", "17") if loc not in best)
    assert refusal(state, "allied", {"action": "retreat", "unit": "2rtr", "to": worst}) == (
        "11.6.2",
        "retreat-priority",
    )


@pytest.mark.rule("10.1")
@pytest.mark.rule("10.1.1")
@pytest.mark.rule("10.2")
def test_10_supports_air_once_per_impulse_artillery_by_turn() -> None:
    state = plays(at_halfaya(), "allied", {"action": "lead", "unit": "7rtr"})
    ok = {"action": "support", "air": True, "rommel": False, "artillery": True}
    assert ok in R.legal_actions(state, "allied")
    used = state.model_copy(update={"assault": state.assault.model_copy(update={"air_used": True})})  # type: ignore[union-attr]
    assert refusal(used, "allied", ok) == ("10.1.1", "air-used")
    empty = state.model_copy(update={"artillery": {"allied": 0, "axis": 2}})
    assert refusal(empty, "allied", {"action": "support", "air": False, "rommel": False, "artillery": True}) == (
        "10.2",
        "no-artillery",
    )
    axis = axis_turn(new_game())
    axis = play(axis, "axis", {"action": "assault", "areas": ["9"]})
    axis = plays(
        axis, "axis", {"action": "move", "unit": "15mc", "to": "10"}, {"action": "move", "unit": "15mc", "to": "D"}
    )
    axis = plays(axis, "axis", {"action": "attack", "target": "D"}, {"action": "lead", "unit": "15mc"})
    assert refusal(axis, "axis", {"action": "support", "air": True, "rommel": False, "artillery": False}) == (
        "10.1",
        "no-air",
    )


@pytest.mark.rule("10.2.1")
def test_10_2_1_artillery_calls_and_the_axis_strongpoint_modifier() -> None:
    state = declared(at_halfaya(), artillery=True)
    state = roll(state, artillery=(3,))  # the Allied call: 3 fails
    assert state.combat is not None and not state.combat.attacker_artillery_ok and state.artillery["allied"] == 3
    state = play(state, "axis", {"action": "defend", "lead": "1-104", "artillery": True})
    state = roll(state, attack=(1, 1), defense=(1, 1), defender_artillery=(3,))  # 3+1 in an Axis Stützpunkt: success
    assert state.artillery["axis"] == 1


@pytest.mark.rule("11.4.3")
@pytest.mark.rule("14.1.1")
def test_11_4_3_defender_lead_and_fuel_shortage_bonus() -> None:
    state = declared(at_halfaya())
    assert refusal(state, "axis", {"action": "defend", "lead": "1-8", "artillery": False}) == ("11.4.3", "lead")


@pytest.mark.rule("11.0")
@pytest.mark.rule("11.2")
def test_11_0_attacks_need_enemies_and_eligible_units() -> None:
    state = play(new_game(), "allied", {"action": "assault", "areas": ["C"]})
    assert refusal(state, "allied", {"action": "attack", "target": "8"}) == ("11.0", "no-enemy")
    assert refusal(state, "allied", {"action": "attack", "target": "6"}) == ("11.0", "no-attackers")
    # 11.3: units in a contested Active Area may attack without moving, choosing who joins
    state = placed(new_game(), **{"7rtr": "6", "22gds": "6", "2rtr": "7"})
    state = play(state, "allied", {"action": "assault", "areas": ["6"]})
    state = play(state, "allied", {"action": "attack", "target": "6"})
    assert state.combat is not None and state.combat.attackers == () and not state.combat.mandatory
    assert refusal(state, "allied", {"action": "join", "unit": "2rtr"}) == ("11.2", "not-eligible")
    state = plays(state, "allied", {"action": "join", "unit": "22gds"}, {"action": "lead", "unit": "7rtr"})
    assert state.combat is not None and set(state.combat.attackers) == {"22gds", "7rtr"}


@pytest.mark.rule("11.1")
def test_11_1_the_mandatory_attack_must_be_made() -> None:
    state = placed(new_game(), **{"7rtr": "7"})
    state = plays(state, "allied", {"action": "assault", "areas": ["7"]}, {"action": "move", "unit": "7rtr", "to": "6"})
    assert refusal(state, "allied", {"action": "end_assault"}) == ("11.1", "mandatory-attack")


@pytest.mark.rule("12.1")
def test_12_1_maximum_attack_and_fanatical_defense() -> None:
    state = declared(at_halfaya())  # the Allies hold the Advantage
    state = play(state, "axis", {"action": "defend", "lead": "1-104", "artillery": False})
    state = roll(state, attack=(1, 1), defense=(6, 6))
    assert now(state) == "max_attack"
    state = play(state, "allied", {"action": "maximum_attack"})
    assert state.advantage is None and state.advantage_used_by == "allied"
    assert not state.units["7rtr"].full and not state.units["1-104"].full and state.units["22gds"].full
    axis_advantage = declared(at_halfaya(new_game().model_copy(update={"advantage": "axis"})))
    state = play(axis_advantage, "axis", {"action": "defend", "lead": "1-104", "artillery": False})
    state = roll(state, attack=(6, 4), defense=(2, 1))
    assert now(state) == "fanatical"
    state = play(state, "axis", {"action": "fanatical_defense"})
    assert state.combat is None or state.combat.outcome == "stalemate"
    assert not state.units["1-104"].full and state.units["1-33a"].full


@pytest.mark.rule("12.1")
def test_12_1_advantage_uses_belong_to_their_side() -> None:
    state = new_game()
    assert refusal(state, "allied", {"action": "rommel"}) == ("12.1", "axis-only")
    axis = axis_turn(state)
    assert refusal(axis, "axis", {"action": "fuel_shortage"}) == ("12.1", "allied-only")
    assert refusal(axis, "axis", {"action": "rommel"}) == ("12.1", "no-advantage")
    state = play(state, "allied", {"action": "fuel_shortage"})
    assert state.fuel_low and state.advantage is None
    state = play(state, "allied", {"action": "pass"})
    assert state.advantage == "axis"  # 12.2: it passes at the end of the Impulse


@pytest.mark.rule("11.6.1")
def test_11_6_1_attackers_retreat_one_at_a_time() -> None:
    state = fought(
        declared(placed(at_halfaya(), **{"2rtr": "7", "6rtr": "7", "1-krr": "7", "2-rb": "7"})), (1, 1), (6, 6)
    )
    # Area 7 filled up with four other units: the repulsed attackers retreat by the priorities, one by one
    assert all(state.units[u].location != "6" for u in ("7rtr", "22gds", "65at"))
    if now(state) == "attacker_retreat":
        action = R.legal_actions(state, "allied")[0]
        other = top(state, AttackerRetreat).units[1]  # not the first in order
        assert refusal(state, "allied", {**action, "unit": other}) == ("11.6.1", "one-at-a-time")


# --- interpretation options (engineering notes §10) --------------------------------------------------------


@pytest.mark.rule("9.2")
def test_option_a4_adjacency_across_escarpments_counts_for_the_2_mf_cost() -> None:
    # Area 16 touches Halfaya (6) only across an escarpment: entering 16 costs 1 MF by 3.1, 2 by the Glossary
    for adjacency, cost in (("movement", 1), ("boundary", 2)):
        state = off_board(new_game(adjacency=adjacency), "7rtr", "1-104", "1-8")
        state = controlled(placed(state, **{"7rtr": "17"}), **{"17": "allied"})
        state = placed(state, **{"1-8": "F"})
        state = play(state, "allied", {"action": "assault", "areas": ["17"]})
        state = play(state, "allied", {"action": "move", "unit": "7rtr", "to": "16"})
        assert state.assault is not None and state.assault.mf_left == 4 - cost, adjacency


@pytest.mark.rule("12.1")
def test_option_a26_fanatical_defense_against_excess_ap_at_a_strongpoint() -> None:
    for allowed in (True, False):
        state = new_game(fanatical_vs_excess=allowed).model_copy(update={"advantage": "axis"})
        state = placed(at_halfaya(state), **{"1-33a": None, "defr": None})
        state = play(declared(state), "axis", {"action": "defend", "lead": "1-104", "artillery": False})
        state = roll(state, attack=(6, 6), defense=(1, 1))
        assert (now(state) == "fanatical") is allowed


@pytest.mark.rule("12.1")
def test_option_a44_fuel_shortage_as_the_axis_impulse_begins() -> None:
    state = play(new_game(fuel_timing="also_start_of_axis_impulse"), "allied", {"action": "pass"})
    assert now(state) == "fuel_window" and R.to_act(state) == ("allied",)
    state = play(state, "allied", {"action": "fuel_shortage"})
    assert state.fuel_low and now(state) == "impulse" and R.to_act(state) == ("axis",)
    assert now(play(new_game(), "allied", {"action": "pass"})) == "impulse"  # the default: no window


@pytest.mark.rule("11.6.2")
def test_option_a33_retreat_through_full_friendly_areas() -> None:
    from pbem.games.battleaxe.board import Board
    from pbem.games.battleaxe.situation import Situation

    for retreat, reaches_far in (("single_step", False), ("continue_through_full", True)):
        state = off_board(new_game(retreat=retreat), "1-62", "2-62", "3-62", "15mc", "33pak", "1-104")
        state = placed(state, **{"1-62": "13", "2-62": "13", "3-62": "13", "15mc": "13", "1-104": "15"})
        options = Situation(Board(state.pack), state).retreat_options("axis", "15")
        # Area 13 next door holds four Axis units: only by going on through it can a unit reach 12 or 14
        assert bool({"12", "14"} & set(options)) == reaches_far


@pytest.mark.rule("14.2")
def test_option_a52_continuous_supply_applies_the_penalty_at_once() -> None:
    from pbem.games.battleaxe.board import Board
    from pbem.games.battleaxe.situation import Situation

    for supply, penalised in (("end_of_maneuvers", False), ("continuous", True)):
        state = off_board(new_game(supply=supply), "7rtr", "1-8")
        state = controlled(placed(state, **{"7rtr": "11"}), **{"11": "allied"})  # Allied-held, cut off by Axis
        s = Situation(Board(state.pack), state)
        assert (s.cv("7rtr") == 5 - 1) is penalised
