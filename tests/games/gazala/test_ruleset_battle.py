"""The Combat Action wired into the sequence of play (§7.5): each decision an action of the right seat, each die
through the protocol, the combat library deciding every number."""

from __future__ import annotations

import pytest

from pbem.games.gazala.ruleset import RULESET
from pbem.games.gazala.state import BattleStep, Reacting
from tests.games.gazala.gazala_play import PACK, act, active, kinds, place, refused, roll, start, update


def _ariete(ap: int = 6):
    return active(start("bir-hacheim"), "ariete", ap)


def _declared():
    return act(_ariete(), "axis", {"action": "attack", "target": "2522", "units": ["viii-132"]})


@pytest.mark.rule("7.5.1")
def test_a_declared_attack_pays_its_ap_and_opens_the_combat() -> None:
    state = _ariete()
    assert {"action": "attack", "target": "2522", "units": ["viii-132"]} in RULESET.legal_actions(state, "axis")
    step = _declared()
    assert "attack_declared" in kinds(step.events)
    assert step.state.activation is not None and step.state.activation.ap == 6 - PACK.number("cost_hasty")
    assert step.state.battle is not None and step.state.battle.defenders == ("ff-2",)
    assert refused(step.state, "axis", {"action": "move", "units": ["ix-132"]}).reason == "not-now"
    assert refused(state, "axis", {"action": "attack", "target": "2522", "units": ["viii-132", "8-bers"]}).ok is False
    assert refused(state, "axis", {"action": "attack", "target": "2723", "units": ["viii-132"]}).reason == "no-enemy"
    assert (
        refused(state, "axis", {"action": "attack", "target": "2522", "units": ["viii-132", "ix-132"]}).reason
        == "units-order"
    )


@pytest.mark.rule("7.2")
def test_only_the_active_formations_units_attack() -> None:
    state = place(_ariete(), **{"ff-1": "2622"})
    verdict = refused(state, "axis", {"action": "attack", "target": "2622", "units": ["ff-1"]})
    assert verdict.rule == "7.2"


@pytest.mark.rule("7.5.1")
def test_the_static_side_never_decides_and_the_combat_runs_to_its_end() -> None:
    step = _declared()
    escalation = step.state.pending[-1]
    assert isinstance(escalation, BattleStep) and escalation.kind == "escalation" and escalation.seat == "axis"
    step = act(step.state, "axis", {"action": "escalate", "to": "regular"})
    assert step.state.activation is not None and step.state.activation.ap == 6 - 2
    step = roll(step.state, {"attacker": (1,), "defender": (1,)})
    chits = step.events[0].data
    assert chits["attacker"] != chits["defender"]
    assert refused(step.state, "axis", {"action": "air", "count": 2}).reason == "air-limit"  # §10.1: one mission
    step = act(step.state, "axis", {"action": "air", "count": 1})
    assert step.state.air == {"2-stormo": False} and step.state.air_missions == 0
    done = roll(step.state, {"combat": (10,)})
    assert "combat_resolved" in kinds(done.events)
    assert done.state.battle is None and done.state.phase == "activation"
    resolved = next(e for e in done.events if e.kind == "combat_resolved")
    assert resolved.data["location"] == "2522" and resolved.data["result"]


@pytest.mark.rule("7.5.1.4")
def test_air_units_only_for_the_axis_and_within_the_limit() -> None:
    step = act(_declared().state, "axis", {"action": "escalate", "to": "hasty"})
    step = roll(step.state, {"attacker": (3,), "defender": (3,)})
    assert {"action": "air", "count": 0} in RULESET.legal_actions(step.state, "axis")
    assert refused(step.state, "axis", {"action": "air", "count": -1}).reason == "air-limit"


# --- two seats: Retreat before Combat, decisions of the defender, Battle Victory -------------------------------------


def _panzer_attack(ap: int = 6):
    """21 Pz's I/5 next to 7th Armoured's 7 Mot (motorised: may retreat before combat)."""
    state = place(start("opening-phase"), **{"i-5": "2922", "21pz-hq": "2820"})
    return act(active(state, "21pz", ap), "axis", {"action": "attack", "target": "3023", "units": ["i-5"]})


@pytest.mark.rule("7.5.1.1")
def test_retreat_before_combat_is_offered_and_its_free_move_ends_the_combat() -> None:
    step = _panzer_attack()
    offer = step.state.pending[-1]
    assert isinstance(offer, BattleStep) and offer.kind == "rbc_offer" and offer.seat == "cw"
    assert refused(step.state, "axis", {"action": "stand"}).reason == "not-your-turn"
    tried = act(step.state, "cw", {"action": "retreat_before_combat"})
    success = roll(tried.state, {"attacker": (1,), "defender": (10,)})
    assert success.events[0].data["success"]
    moving = success.state
    assert moving.move is not None and moving.move.rbc and moving.pending[-1].kind == "rbc_moving"
    legal = RULESET.legal_actions(moving, "cw")
    assert legal and all(a["action"] == "step" for a in legal)
    stepped = act(moving, "cw", legal[0]).state
    if stepped.move is not None:
        stepped = act(stepped, "cw", {"action": "halt"}).state
    assert stepped.battle is None and stepped.move is None and stepped.units["7mot"].hex != "3023"
    assert stepped.activation is not None and stepped.activation.side == "axis"


@pytest.mark.rule("7.5.1.1")
def test_a_failed_retreat_before_combat_gives_the_attacker_two() -> None:
    tried = act(_panzer_attack().state, "cw", {"action": "retreat_before_combat"})
    failed = roll(tried.state, {"attacker": (10,), "defender": (1,)})
    assert failed.state.battle is not None and failed.state.battle.rbc_failed
    stood = act(_panzer_attack().state, "cw", {"action": "stand"})
    assert stood.state.battle is not None and not stood.state.battle.rbc_failed


def _to_roll(step):
    state = step.state
    while state.rolls is None or state.pending[-1].purpose != "combat":  # type: ignore[union-attr]
        top = state.pending[-1]
        if state.rolls is not None:
            faces = {r.id: tuple([1] * r.n) for r in state.rolls.rolls}
            state = roll(state, faces).state
        else:
            legal = RULESET.legal_actions(state, top.seat)
            pick = next((a for a in legal if a["action"] in ("stand", "escalate")), legal[0])
            state = act(state, top.seat, pick).state
    return state


def _settle(state):
    """Every pending combat decision taken with its first option and every die a 1 or as given, to the end."""
    while state.battle is not None:
        top = state.pending[-1]
        if state.rolls is not None:
            state = roll(state, {r.id: tuple([10 if r.id == "ec" else 1] * r.n) for r in state.rolls.rolls}).state
        else:
            state = act(state, top.seat, RULESET.legal_actions(state, top.seat)[0]).state
    return state


def _overrun():
    state = place(start("opening-phase"), **{"i-5": "3025", "ii-5": "3025", "104": "3025", "21pz-hq": "2924"})
    step = act(
        active(state, "21pz", 6), "axis", {"action": "attack", "target": "3026", "units": ["104", "i-5", "ii-5"]}
    )
    return roll(_to_roll(step), {"combat": (1,)})


@pytest.mark.rule("7.5.3")
def test_battle_victory_bonus_ap_go_to_the_winning_units_at_once() -> None:
    resolved = _overrun()
    assert next(e for e in resolved.events if e.kind == "combat_resolved").data["result"].startswith("0/")
    done = _settle(resolved.state)
    activation = done.activation
    assert activation is not None and done.schwerpunkt == "21pz"
    assert activation.bonus == PACK.number("battle_victory_ap") + PACK.number("schwerpunkt_victory_ap")
    assert set(activation.bonus_units) == {"104", "i-5", "ii-5"}
    assert refused(done, "axis", {"action": "move", "units": ["21pz-hq"]}).reason == "not-active"
    assert RULESET.contains(done, "axis", RULESET.parse_action({"action": "move", "units": ["i-5"]})).ok
    declined = act(done, "axis", {"action": "decline_bonus"}).state
    assert declined.activation is not None and declined.activation.bonus == 0
    assert declined.activation.ap == activation.ap - activation.bonus
    assert refused(declined, "axis", {"action": "decline_bonus"}).reason == "no-bonus"


@pytest.mark.rule("7.5.3")
def test_the_static_side_earns_no_battle_victory() -> None:
    step = act(_declared().state, "axis", {"action": "escalate", "to": "hasty"})
    step = act(roll(step.state, {"attacker": (1,), "defender": (1,)}).state, "axis", {"action": "air", "count": 0})
    done = roll(step.state, {"combat": (1,)})
    assert done.state.reaction is None and "battle_victory" not in kinds(done.events)


@pytest.mark.rule("7.5.2")
def test_a_red_number_makes_every_unit_check_then_the_hits_fall() -> None:
    resolved = _overrun()
    wait = resolved.state.pending[-1]
    assert wait.kind == "dice" and wait.units == ("4saac",)
    after = roll(resolved.state, {"ec": (10,)})
    assert "effectiveness_checks" in kinds(after.events)
    done = _settle(after.state)
    assert done.units["4saac"].hex != "3026" or done.units["4saac"].cs < PACK.unit("4saac").cs


@pytest.mark.rule("7.5.2")
def test_the_defender_distributes_its_hits_first() -> None:
    state = update(_to_roll(_panzer_attack()), "7mot", cs=12)
    done = roll(state, {"combat": (10,)})
    kinds_seen = kinds(done.events)
    assert "combat_resolved" in kinds_seen
    pending = done.state.pending[-1] if done.state.pending else None
    if isinstance(pending, BattleStep):
        assert pending.kind in ("first_loss", "distribution", "retreat", "displacement")
        assert done.state.battle is not None and done.state.battle.role in ("defender", "attacker")


@pytest.mark.rule("7.5.1.2")
def test_the_optional_linear_chits_replace_their_numbers() -> None:
    plain = act(_declared().state, "axis", {"action": "escalate", "to": "hasty"}).state
    linear = plain.model_copy(update={"options": {**plain.options, "linear_chits": True}})
    drawn = roll(plain, {"attacker": (10,), "defender": (10,)}).events[0].data
    swapped = roll(linear, {"attacker": (10,), "defender": (10,)}).events[0].data
    assert PACK.chit(drawn["attacker"]).number == 10 and not PACK.chit(drawn["attacker"]).alternate
    assert PACK.chit(swapped["attacker"]).number == 10 and PACK.chit(swapped["attacker"]).alternate
    assert {o.id for o in RULESET.options} >= {"linear_chits", "oos_halves_defence", "armour_negative_with_at"}


@pytest.mark.rule("7.5.2.2")
def test_the_defender_chooses_hold_or_retreat_then_its_path_home() -> None:
    resolved = _overrun()
    passed = roll(resolved.state, {"ec": (1,)}).state
    legal = RULESET.legal_actions(passed, "cw")
    assert {a["choice"] for a in legal} == {"hold", "retreat"}
    assert refused(passed, "axis", legal[0]).reason == "not-your-turn"
    retreating = act(passed, "cw", next(a for a in legal if a["choice"] == "retreat")).state
    paths = RULESET.legal_actions(retreating, "cw")
    assert paths and all(a["action"] == "retreat" and len(a["path"]) == 3 for a in paths)
    assert refused(retreating, "cw", {"action": "retreat", "path": ["2926", "2826", "2726"]}).reason == "retreat-path"
    home = act(retreating, "cw", paths[0]).state
    assert home.units["4saac"].hex == paths[0]["path"][-1]
    assert "retreated" in kinds(act(retreating, "cw", paths[0]).events)


@pytest.mark.rule("7.5.3")
def test_a_defending_winner_spends_its_bonus_at_once_in_a_nested_activation() -> None:
    state = _to_roll(_panzer_attack())
    resolved = roll(state, {"combat": (1,)})
    assert next(e for e in resolved.events if e.kind == "combat_resolved").data["result"] == "5/0"
    done = resolved.state
    while done.battle is not None:
        top = done.pending[-1]
        if done.rolls is not None:
            done = roll(done, {r.id: tuple([1] * r.n) for r in done.rolls.rolls}).state
        else:
            done = act(done, top.seat, RULESET.legal_actions(done, top.seat)[0]).state
    assert isinstance(done.pending[-1], Reacting) and done.pending[-1].seat == "cw"
    bonus = done.reaction
    assert bonus is not None and bonus.bonus == PACK.number("battle_victory_ap") and bonus.bonus_units == ("7mot",)
    assert RULESET.to_act(done) == ("cw",)
    assert refused(done, "cw", {"action": "move", "units": ["7armd-hq"]}).reason == "not-active"
    back = act(done, "cw", {"action": "decline_bonus"}).state
    assert back.reaction is None and RULESET.to_act(back) == ("axis",)
