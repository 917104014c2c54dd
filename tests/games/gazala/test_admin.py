"""Breach, Refit and Improved Defence (§7.4, §7.6, §7.7), the Admin Phase (§9) and victory (§10)."""

from __future__ import annotations

import pytest

from pbem.games.gazala.admin import begin_admin
from pbem.games.gazala.ops import end_of_turn
from pbem.games.gazala.ruleset import RULESET
from pbem.games.gazala.state import sit_of
from pbem.games.gazala.victory import end_of_turn as victory_end_of_turn
from pbem.games.gazala.victory import occupy, score
from tests.games.gazala.gazala_play import PACK, act, active, kinds, place, refused, roll, start, update


def _ariete(ap: int = 6):
    return active(start("bir-hacheim"), "ariete", ap)


@pytest.mark.rule("7.4")
def test_breaching_the_minefield_a_unit_stands_in() -> None:
    state = place(_ariete(3), **{"8-bers": "2622"})
    assert refused(state, "axis", {"action": "breach", "unit": "vii-132"}).reason == "not-infantry"
    assert (
        refused(place(state, **{"8-bers": "2723"}), "axis", {"action": "breach", "unit": "8-bers"}).reason
        == "not-in-enemy-minefield"
    )
    asked = act(state, "axis", {"action": "breach", "unit": "8-bers"})
    assert asked.state.activation is not None and asked.state.activation.ap == 3 - PACK.number("cost_breach")
    drm = asked.events[0].data["drm"]["value"]
    assert drm == PACK.hq("ariete-hq").engineer + PACK.number("ezoc_breach_drm")  # In Command, in an EZOC
    done = roll(asked.state, {"breach": (1,)})
    assert "2622" in done.state.breached and done.events[0].kind == "minefield_breached"
    failed = roll(asked.state, {"breach": (9,)})
    assert "2622" not in failed.state.breached and failed.events[0].kind == "breach_failed"
    low = place(_ariete(1), **{"8-bers": "2622"})
    assert refused(low, "axis", {"action": "breach", "unit": "8-bers"}).reason == "no-ap"


@pytest.mark.rule("10.1")
def test_solitaire_victory_points_and_automatic_victory() -> None:
    state = start("bir-hacheim").model_copy(update={"breached": ("2622", "2621"), "ff_lost": 1})
    state = update(state, "ff-2", disrupted=True)
    assert score(state) == 2 + 1 + 1
    cleared = place(_ariete(2), **{"ff-1": None, "ff-2": None, "ix-132": "2622"})
    moving = act(cleared, "axis", {"action": "move", "units": ["ix-132"]}).state
    won = roll(act(moving, "axis", {"action": "step", "to": "2521"}).state, {"mines": (1,)})
    assert won.state.victory.decided == "axis" and won.state.phase == "over"
    result = RULESET.result(won.state)
    assert result is not None and "Automatic Victory" in result.outcome


@pytest.mark.rule("7.6")
def test_refit_is_an_effectiveness_check_on_the_disrupted_side() -> None:
    state = update(_ariete(2), "ix-132", disrupted=True)
    assert refused(state, "axis", {"action": "refit", "unit": "vii-132"}).reason == "not-disrupted"
    asked = act(state, "axis", {"action": "refit", "unit": "ix-132"})
    eff = PACK.unit("ix-132").eff.disrupted
    assert not roll(asked.state, {"ec": (eff,)}).state.units["ix-132"].disrupted
    assert roll(asked.state, {"ec": (eff + 1,)}).state.units["ix-132"].disrupted


@pytest.mark.rule("7.7")
def test_improved_defence_for_a_whole_undisrupted_stack() -> None:
    state = _ariete(2)
    done = act(state, "axis", {"action": "improve", "hex": "2723"})
    assert "2723" in done.state.improved
    assert refused(done.state, "axis", {"action": "improve", "hex": "2723"}).reason == "already"
    assert (
        refused(update(state, "8-bers", disrupted=True), "axis", {"action": "improve", "hex": "2723"}).reason
        == "disrupted"
    )
    assert refused(state, "axis", {"action": "improve", "hex": "2521"}).reason == "not-own-stack"
    moved = act(done.state, "axis", {"action": "move", "units": ["vii-132"]}).state
    assert "2723" not in moved.improved  # a unit of the hex takes an Action: the marker goes
    mines = active(start("opening-phase"), "50div", 2)
    assert refused(mines, "cw", {"action": "improve", "hex": "2414"}).reason == "friendly-minefield"


@pytest.mark.rule("9.1.1")
def test_recovery_raises_supplied_formations_levels() -> None:
    state = start("opening-phase")
    low = {f: s.model_copy(update={"level": 0}) for f, s in state.formations.items()}
    low_state = update(state.model_copy(update={"formations": low}), "21pz-hq", es=True)
    step = begin_admin(low_state.model_copy(update={"turn": 2}), ())
    assert step.state.formations["21pz"].level == PACK.formation("21pz").recovery
    assert not step.state.hqs["21pz-hq"].es
    cut = begin_admin(place(low_state, **{"21pz-hq": "3829"}).model_copy(update={"turn": 2}), ()).state
    assert cut.formations["21pz"].level == 0


@pytest.mark.rule("9.1.2")
def test_air_units_return_to_available() -> None:
    state = start("opening-phase")
    flown = state.model_copy(update={"air": {a: False for a in state.air}, "turn": 2})
    assert all(begin_admin(flown, ()).state.air.values())


@pytest.mark.rule("9.1.3")
def test_disrupted_units_in_command_recover_and_others_do_not() -> None:
    state = update(update(start("opening-phase"), "i-5", disrupted=True), "ii-5", disrupted=True)
    state = place(state, **{"ii-5": "3829"})
    after = begin_admin(state.model_copy(update={"turn": 2}), ()).state
    assert not after.units["i-5"].disrupted and after.units["ii-5"].disrupted


@pytest.mark.rule("9.1.5")
def test_attrition_checks_for_disrupted_isolated_units() -> None:
    state = update(place(start("opening-phase"), **{"i-5": "4529"}), "i-5", disrupted=True)
    asked = begin_admin(state.model_copy(update={"turn": 2}), ())
    assert asked.state.rolls is not None
    eff = PACK.unit("i-5").eff.disrupted
    hit = roll(asked.state, {"attrition": (eff + 2,)}).state
    assert hit.units["i-5"].cs == PACK.unit("i-5").cs - 2
    assert hit.victory.losses["dak_xx"] == 2
    safe = roll(asked.state, {"attrition": (eff,)}).state
    assert safe.units["i-5"].cs == PACK.unit("i-5").cs


@pytest.mark.rule("9.2")
def test_the_axis_places_the_schwerpunkt_in_organisation() -> None:
    state = begin_admin(start("opening-phase").model_copy(update={"turn": 2}), ()).state
    assert state.admin == "organisation" and RULESET.to_act(state) == ("axis",)
    placed = act(state, "axis", {"action": "schwerpunkt", "formation": "15pz"}).state
    assert placed.schwerpunkt == "15pz" and placed.admin != "organisation"


@pytest.mark.rule("5.9")
def test_the_schwerpunkt_needs_an_hq_in_supply() -> None:
    state = begin_admin(place(start("opening-phase"), **{"15pz-hq": "3829"}).model_copy(update={"turn": 2}), ()).state
    assert refused(state, "axis", {"action": "schwerpunkt", "formation": "15pz"}).reason == "hq-unsupplied"
    assert refused(state, "axis", {"action": "schwerpunkt", "formation": "7armd"}).reason == "not-axis"


@pytest.mark.rule("9.3")
def test_the_german_panzer_rp_on_even_turns() -> None:
    state = update(start("opening-phase"), "i-5", cs=PACK.unit("i-5").cs - 2)
    organised = begin_admin(state.model_copy(update={"turn": 2}), ()).state
    at_rp = act(organised, "axis", {"action": "schwerpunkt", "formation": "21pz"}).state
    assert at_rp.admin == "replacement"
    assert refused(at_rp, "axis", {"action": "replace", "unit": "104"}).reason == "not-panzer"
    assert refused(at_rp, "axis", {"action": "replace", "unit": "ii-5"}).reason == "full-strength"
    replaced = act(at_rp, "axis", {"action": "replace", "unit": "i-5"}).state
    assert replaced.units["i-5"].cs == PACK.unit("i-5").cs - 1
    odd = act(
        begin_admin(state.model_copy(update={"turn": 3}), ()).state,
        "axis",
        {"action": "schwerpunkt", "formation": "21pz"},
    )
    assert odd.state.admin != "replacement"


@pytest.mark.rule("9.4")
def test_reinforcements_enter_or_wait_commonwealth_first() -> None:
    state = begin_admin(start("opening-phase").model_copy(update={"turn": 4}), ()).state
    state = act(state, "axis", {"action": "schwerpunkt", "formation": "21pz"}).state
    if state.admin == "replacement":
        state = act(state, "axis", {"action": "forgo"}).state
    if state.admin == "cw_replacement":
        state = act(state, "cw", {"action": "forgo"}).state
    assert state.admin == "reinforcement" and RULESET.to_act(state) == ("cw",)
    legal = RULESET.legal_actions(state, "cw")
    assert {"action": "postpone", "unit": "6rtr"} in legal
    entered = act(
        state, "cw", {"action": "reinforce", "unit": "6rtr", "entry": "cw-via-balbia", "formation": None}
    ).state
    source = next(s for s in PACK.supply_sources if s.id == "cw-via-balbia")
    assert entered.units["6rtr"].hex == source.hex and "6rtr" in entered.reinforced
    assert entered.move is not None and entered.move.reinforcement  # §9.4.2: its free Movement Action
    entered = act(entered, "cw", {"action": "halt"}).state
    assert entered.move is None and entered.units["6rtr"].hex == source.hex
    for unit in ("10ind-bde", "11ind-bde"):
        entered = act(entered, "cw", {"action": "postpone", "unit": unit}).state
    assert RULESET.to_act(entered) == ("axis",)
    assert (
        refused(
            entered, "axis", {"action": "reinforce", "unit": "6rtr", "entry": "cw-via-balbia", "formation": None}
        ).reason
        == "not-eligible"
    )


@pytest.mark.rule("9.4.2")
def test_a_reinforcement_moves_free_but_never_into_an_ezoc() -> None:
    state = begin_admin(start("opening-phase").model_copy(update={"turn": 2}), ()).state
    state = act(state, "axis", {"action": "schwerpunkt", "formation": "21pz"}).state
    if state.admin == "replacement":
        state = act(state, "axis", {"action": "forgo"}).state
    source = next(s for s in PACK.supply_sources if s.id == "cw-trigh-capuzzo")
    col = int(source.hex[:2])
    enemy = f"{col - 2:02d}{source.hex[2:]}"
    state = place(state, **{"i-5": enemy})
    entered = act(
        state, "cw", {"action": "reinforce", "unit": "6rtr", "entry": "cw-trigh-capuzzo", "formation": None}
    ).state
    legal = RULESET.legal_actions(entered, "cw")
    assert {"action": "halt"} in legal and any(a["action"] == "step" for a in legal)
    near = f"{col - 1:02d}{source.hex[2:]}"
    assert refused(entered, "cw", {"action": "step", "to": near}).reason == "reinforcement-ezoc"
    stepped = act(entered, "cw", next(a for a in legal if a["action"] == "step"))
    assert stepped.state.units["6rtr"].hex != source.hex


@pytest.mark.rule("9.4.1")
def test_a_blocked_entry_hex_is_refused() -> None:
    state = begin_admin(start("opening-phase").model_copy(update={"turn": 2, "blocked": ("cw-via-balbia",)}), ()).state
    state = act(state, "axis", {"action": "schwerpunkt", "formation": "21pz"}).state
    if state.admin == "replacement":
        state = act(state, "axis", {"action": "forgo"}).state
    verdict = refused(state, "cw", {"action": "reinforce", "unit": "6rtr", "entry": "cw-via-balbia", "formation": None})
    assert verdict.reason == "blocked"
    assert (
        refused(
            state, "cw", {"action": "reinforce", "unit": "6rtr", "entry": "axis-via-balbia", "formation": None}
        ).reason
        == "not-entry"
    )


@pytest.mark.rule("10.2")
def test_objectives_score_at_their_best_and_last_occupants_count() -> None:
    state = start("opening-phase")
    held = place(state, **{"i-5": "3012", "201gds": None})
    held = occupy(held, "axis", ("3012",))
    scored, events = victory_end_of_turn(held)
    assert "objective_scored" in [e.kind for e in events]
    best = scored.victory.best["knightsbridge"]
    assert best in (3, 2)
    assert score(scored) == best
    lost = occupy(scored, "cw", ("3012",))
    assert score(lost) == 0  # a last-occupant objective counts only if the Axis was last there
    source = next(s for s in PACK.supply_sources if s.side == "axis" and s.kind == "major")
    raided = place(state, **{"12l": source.hex})
    penalised, _ = victory_end_of_turn(raided)
    assert penalised.victory.sources == -2


@pytest.mark.rule("10.3")
def test_automatic_victory_in_tobruk_with_the_commonwealth_hqs_cut() -> None:
    state = start("gazala-battles")
    cw_hqs = {h: None for h in state.hqs if PACK.formation(PACK.hq(h).formation).side == "cw"}
    taken = place(state, **{"i-5": PACK.tobruk.hex, **cw_hqs})
    step = end_of_turn(taken.model_copy(update={"passed": ("axis", "cw")}), ())
    assert "automatic_victory" in kinds(step.events) and step.state.phase == "over"
    result = RULESET.result(step.state)
    assert result is not None and result.winners == ("axis",)


@pytest.mark.rule("8")
def test_the_game_ends_after_its_last_turn_with_a_level() -> None:
    state = start("opening-phase").model_copy(update={"turn": 4, "passed": ("axis", "cw")})
    step = end_of_turn(state, ())
    assert step.state.phase == "over" and "game_ended" in kinds(step.events)
    result = RULESET.result(step.state)
    assert result is not None and result.outcome


def _cw_segment(**changes: int):
    state = start("opening-phase").model_copy(update={"turn": 4})
    for unit, cs in changes.items():
        state = update(state, unit, cs=cs)
    state = begin_admin(state, ()).state
    state = act(state, "axis", {"action": "schwerpunkt", "formation": "21pz"}).state
    if state.admin == "replacement":
        state = act(state, "axis", {"action": "forgo"}).state
    return state


@pytest.mark.rule("9.3.1")
def test_the_commonwealth_cannibalises_worn_tanks_for_rps_of_their_type() -> None:
    state = _cw_segment(**{"8rtr": 2, "42rtr": 3, "3rtr-4": 3})
    assert state.admin == "cw_replacement" and RULESET.to_act(state) == ("cw",)
    assert refused(state, "cw", {"action": "cannibalise", "unit": "44rtr"}).reason == "strength"
    assert refused(state, "cw", {"action": "cannibalise", "unit": "3rtr-4"}).reason == "strength"
    assert refused(state, "cw", {"action": "cannibalise", "unit": "7mot"}).reason == "not-cannibalisable"
    done = act(state, "cw", {"action": "cannibalise", "unit": "8rtr"}).state
    assert done.units["8rtr"].hex is None and done.rps == {"heavy_tank": 2}
    assert "cw_motorised" not in done.victory.losses  # ruling B18: not a loss
    assert refused(done, "cw", {"action": "replace", "unit": "3rtr-4"}).reason == "no-rp"
    fed = act(done, "cw", {"action": "replace", "unit": "42rtr"}).state
    assert fed.units["42rtr"].cs == 4 and fed.rps == {"heavy_tank": 1}
    ended = act(fed, "cw", {"action": "forgo"}).state
    assert ended.rps == {} and ended.admin == "reinforcement"


@pytest.mark.rule("9.3.2")
def test_stopcol_and_seacol_give_leg_infantry_rps_at_any_strength() -> None:
    state = _cw_segment(**{"151-bde": 8})
    done = act(state, "cw", {"action": "cannibalise", "unit": "seacol"}).state
    assert done.rps == {"leg_infantry": PACK.unit("seacol").cs}
    fed = act(done, "cw", {"action": "replace", "unit": "151-bde"}).state
    assert fed.units["151-bde"].cs == 9
    assert refused(start("opening-phase"), "cw", {"action": "cannibalise", "unit": "seacol"}).ok is False


def _cw_reinforcing(blocked: tuple[str, ...]):
    # ruling alternate_entry "open_edge": any nearest edge hex out of enemy control (the default, Command Range and
    # no adjacent enemy, is tested in test_rulings.py)
    base = start("opening-phase", alternate_entry="open_edge")
    state = begin_admin(base.model_copy(update={"turn": 2, "blocked": blocked}), ()).state
    state = act(state, "axis", {"action": "schwerpunkt", "formation": "21pz"}).state
    if state.admin == "replacement":
        state = act(state, "axis", {"action": "forgo"}).state
    return state


@pytest.mark.rule("9.4.1")
def test_with_every_entry_hex_blocked_a_reinforcement_enters_at_the_nearest_map_edge_hex() -> None:
    record = next(r for r in PACK.scenario("opening-phase").reinforcements if r.unit == "6rtr")
    state = _cw_reinforcing(tuple(record.entry))
    legal = RULESET.legal_actions(state, "cw")
    alternates = [a for a in legal if a["action"] == "reinforce_at" and a["unit"] == "6rtr"]
    assert alternates and all(a["entry"] in record.entry for a in alternates)
    grid = sit_of(state).board.grid
    edge = PACK.map.cols[1] if PACK.setting("cw_edge") == "east" else PACK.map.cols[0]
    sources = [s.hex for s in PACK.supply_sources if s.id in record.entry]
    for pick in alternates:
        assert grid.offset(pick["hex"])[0] == edge and pick["hex"] not in sources
    entered = act(state, "cw", alternates[0])
    assert entered.state.units["6rtr"].hex == alternates[0]["hex"] and entered.events[0].data["alternate"] is True
    assert refused(state, "cw", {**alternates[0], "hex": sources[0]}).reason == "alternate"


@pytest.mark.rule("9.4.1")
def test_no_alternate_entry_while_an_entry_hex_is_available() -> None:
    record = next(r for r in PACK.scenario("opening-phase").reinforcements if r.unit == "6rtr")
    state = _cw_reinforcing(tuple(record.entry[1:]))
    legal = RULESET.legal_actions(state, "cw")
    assert any(a["action"] == "reinforce" for a in legal) and not any(a["action"] == "reinforce_at" for a in legal)
    free = [s.hex for s in PACK.supply_sources if s.side == "cw" and s.entry]
    grid = sit_of(state).board.grid
    column = grid.offset(free[0])[0]
    anywhere = next(
        h for h in (grid.hex_id(column, r) for r in range(PACK.map.rows[0], PACK.map.rows[1] + 1)) if h not in free
    )
    move = {"action": "reinforce_at", "unit": "6rtr", "entry": record.entry[0], "hex": anywhere, "formation": None}
    assert refused(state, "cw", move).reason == "alternate"
