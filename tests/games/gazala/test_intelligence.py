"""Limited intelligence (§5.3.4, option ``limited_intelligence``): what each viewer sees of enemy stacks."""

from __future__ import annotations

import random

import pytest

from pbem.games.gazala.intelligence import OPTION, open_stacks, top_of
from pbem.games.gazala.ruleset import RULESET
from pbem.games.gazala.state import Battle, GazalaState, sit_of
from pbem.kit import conformance
from pbem.kit.hexes import HexId
from pbem.report.svg import MapRenderer
from pbem.rules.contract import OBSERVER, OMNISCIENT, UnitView
from tests.games.gazala.gazala_play import PACK, act, active, kinds, place, start, update

# 115 (9 SP) and 35 FLAK stand in 1927 at the start of 10.2, I/5 and KG Hecker in 1923.
STACK = ("115", "35-flak")


def _opening() -> GazalaState:
    state = start("opening-phase", **{OPTION: True})
    return update(state, "115", cs=7, disrupted=True)


def _at(state: GazalaState, viewer: str, hex_id: str, side: str) -> list[UnitView]:
    return [u for u in RULESET.view(state, viewer).units if u.location == hex_id and u.side == side]


@pytest.mark.rule("5.3.4")
def test_r5_3_4_off_by_default_every_counter_is_shown() -> None:
    state = start("opening-phase")
    assert state.options[OPTION] is False
    seen = _at(state, "cw", "1927", "axis")
    assert {u.id for u in seen} == set(STACK) and all(u.strength is not None for u in seen)


@pytest.mark.rule("5.3.4")
def test_r5_3_4_the_owner_sees_its_whole_stack() -> None:
    state = _opening()
    seen = {u.id: u for u in _at(state, "axis", "1927", "axis")}
    assert set(seen) == set(STACK)
    assert seen["115"].strength == 7 and seen["115"].extra["disrupted"] is True


@pytest.mark.rule("5.3.4")
@pytest.mark.parametrize("viewer", ["cw", OBSERVER])
def test_r5_3_4_an_opponent_sees_only_the_top_unit_and_how_tall_the_stack_is(viewer: str) -> None:
    """The top unit's printed face and side shown; beneath it one anonymous counter; no current strength (the
    reduced strength marker lies beneath the counter)."""
    state = _opening()
    assert top_of(state, STACK) == "115"
    seen = _at(state, viewer, "1927", "axis")
    assert [u.id for u in seen if not u.hidden] == ["115"]
    top = seen[0]
    assert top.strength is None and top.steps is None and top.extra["disrupted"] is True and top.name
    beneath = [u for u in seen if u.hidden]
    assert len(beneath) == 1
    assert beneath[0].strength is None and beneath[0].kind == "" and not beneath[0].extra
    everything = RULESET.view(state, viewer)
    assert "35-flak" not in {u.id for u in everything.units}
    assert "35-flak" not in everything.model_dump_json()  # no field names it
    # nor does the order: the unseen counters come after every seen unit, by side and hex, not in the units' order
    places = [u.hidden for u in everything.units]
    assert places == sorted(places)
    unseen = [(u.side, u.location) for u in everything.units if u.hidden]
    assert unseen == sorted(unseen)


@pytest.mark.rule("5.3.4")
def test_r5_3_4_the_observer_sees_both_sides_as_an_opponent() -> None:
    state = place(_opening(), **{"3rtr-4": "3122"})
    assert [u.hidden for u in _at(state, OBSERVER, "3122", "cw")] == [False, True]
    assert [u.hidden for u in _at(state, OBSERVER, "1927", "axis")] == [False, True]
    assert {u.id for u in _at(state, "cw", "3122", "cw")} == {"8h-4", "3rtr-4"}


@pytest.mark.rule("5.3.4")
def test_r5_3_4_beneath_an_enemy_hq_is_always_seen() -> None:
    """The 21st Panzer HQ tops its stack (§3.3): everything beneath it may be inspected, strengths excepted."""
    state = place(_opening(), **{"21pz-hq": "1927"})
    seen = _at(state, "cw", "1927", "axis")
    assert {u.id for u in seen} == {"21pz-hq", *STACK} and not any(u.hidden for u in seen)
    assert all(u.strength is None for u in seen if u.id in STACK)


@pytest.mark.rule("5.3.4")
def test_r5_3_4_a_declared_attack_opens_the_defending_and_attacking_stacks() -> None:
    state = place(_opening(), **{"8h-4": "1928", "3rtr-4": "1928"})
    battle = Battle(side="cw", source="1928", target="1927", attackers=("8h-4",), defenders=STACK)
    fighting = state.model_copy(update={"battle": battle})
    for viewer in ("cw", OBSERVER):
        seen = {u.id: u for u in _at(fighting, viewer, "1927", "axis")}
        assert set(seen) == set(STACK) and seen["115"].strength == 7
    assert {u.id for u in _at(fighting, "axis", "1928", "cw")} == {"8h-4", "3rtr-4"}
    assert [u.hidden for u in _at(state, "axis", "1928", "cw")] == [False, True]  # before and after: the top only


@pytest.mark.rule("5.3.4")
def test_r5_3_4_everything_is_open_at_the_end_and_to_the_omniscient_viewer() -> None:
    state = _opening()
    assert not any(u.hidden for u in RULESET.view(state, OMNISCIENT).units)
    over = state.model_copy(update={"phase": "over"})
    assert not any(u.hidden for u in RULESET.view(over, "cw").units)


@pytest.mark.rule("5.3.4")
def test_r5_3_4_solitaire_the_player_sees_the_static_enemy_stacks_top_only() -> None:
    """§10.1 has no Commonwealth seat: the Axis player is shown the Free French stack as any opponent would be."""
    state = place(start("bir-hacheim", **{OPTION: True}), **{"ff-2": "2521"})
    assert [u.hidden for u in _at(state, "axis", "2521", "cw")] == [False, True]


@pytest.mark.rule("5.3.4")
def test_r5_3_4_an_unseen_counters_activation_marker_is_not_shown() -> None:
    state = update(_opening(), "35-flak", acts=1)
    assert RULESET.view(state, "cw").facts["acts"] == {}
    assert RULESET.view(state, "axis").facts["acts"] == {"35-flak": 1}


@pytest.mark.rule("5.3.4")
@pytest.mark.parametrize(
    "scenario", ["bir-hacheim", "opening-phase", pytest.param("gazala-battles", marks=pytest.mark.slow)]
)
def test_r5_3_4_play_outs_with_the_option_conform(scenario: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the real protocol: the log verifies, replays deterministically, every seat's replay has the public
    state hash after every entry and shows the observer the same view, legal actions agree with ``contains`` (every
    tenth position), and each seat's view hides the other's stacks beneath their tops (every fifth)."""
    monkeypatch.setenv("PBEM_GAMES", "pbem.games.gazala.ruleset:RULESET")
    played = conformance.play_out("gazala", scenario, {OPTION: True}, random.Random(1), title=f"gazala li {scenario}")
    report = played.verifier.report()
    assert report.valid and report.result is not None and report.audit == "complete", report.first_error
    conformance.check_deterministic(played.lines)
    assert conformance.check_viewer_hashes(played.lines, played.keys) > 0
    state = played.game.state
    assert state is not None and state.options[OPTION] is True
    hidden = checked = 0
    rng = random.Random(1)
    for index, (replay, _) in enumerate(conformance.reachable(played.lines)):
        if index % 5 or replay.state is None:
            continue
        hidden += _only_tops_shown(replay.state)
        if index % 10 or replay.waits_for_protocol() or replay.result is not None:
            continue
        for seat in replay.ruleset.to_act(replay.state):
            checked += conformance.check_legal_matches_contains(replay.ruleset, replay.state, seat, rng, mutations=1)
            conformance.check_choices(replay.ruleset, replay.state, seat)
    assert checked > 0
    assert hidden > 0 or scenario == "bir-hacheim"  # 10.1's Free French never stack


def _only_tops_shown(state: GazalaState) -> int:
    """Whether every seat and the observer are shown, of each enemy stack outside a combat and without an HQ, only
    the topmost unit by name: the number of counters hidden from them."""
    found = 0
    for viewer in (*state.seats, OBSERVER):
        view = RULESET.view(state, viewer)
        named = {u.id for u in view.units}
        for side in ("axis", "cw"):
            if side == viewer:
                continue
            stacks: dict[str, list[str]] = {}
            for unit, counter in state.units.items():
                if counter.hex is not None and PACK.unit(unit).side == side:
                    stacks.setdefault(counter.hex, []).append(unit)
            for hex_id, pieces in stacks.items():
                hqs = [h for h, c in state.hqs.items() if c.hex == hex_id]
                if hqs or hex_id in open_stacks(state) or state.phase == "over":
                    assert set(pieces) <= named
                    continue
                top = top_of(state, pieces)
                assert top in named and not (set(pieces) - {top}) & named, (viewer, hex_id, pieces)
                found += len(pieces) - 1
    return found


@pytest.mark.rule("5.3.4")
def test_r5_3_4_the_map_draws_an_unseen_counter_as_a_plain_one_of_its_side() -> None:
    state = _opening()
    look = RULESET.presentation(PACK)
    view = RULESET.view(state, "cw")
    beneath = next(u for u in view.units if u.hidden and u.location == "1927")
    face = look.face(beneath)
    assert face.side == "axis" and face.value == "" and "35" not in face.title
    top = next(u for u in view.units if u.id == "115")
    assert look.face(top).value.startswith(f"{PACK.unit('115').cs}-")  # the printed face, not the 7 SP left
    svg = MapRenderer(look).render(view, legend=True)
    assert svg.startswith("<svg") and "35 FLAK" not in svg


@pytest.mark.rule("5.3.4")
def test_r5_3_4_declaring_an_attack_examines_the_defending_stack() -> None:
    """Ariete's VIII/132 attacks the Free French stack in 2522 (both half-brigades, their HQ moved off to 2521): until
    the attack is declared the Axis sees one of them and an unseen counter; the declaration examines the stack, which
    the views show whole."""
    opened = active(start("bir-hacheim", **{OPTION: True}), "ariete", 6)
    state = place(opened, **{"ff-1": "2522", "ffbde-hq": "2521"})
    before = _at(state, "axis", "2522", "cw")
    assert [u.hidden for u in before] == [False, True]
    step = act(state, "axis", {"action": "attack", "target": "2522", "units": ["viii-132"]})
    examined = next(e for e in step.events if e.kind == "stack_examined")
    assert examined.seat == "axis" and examined.data == {"location": "2522", "units": ["ff-1", "ff-2"]}
    assert kinds(step.events)[:2] == ["attack_declared", "stack_examined"]
    seen = _at(step.state, "axis", "2522", "cw")
    assert {u.id for u in seen} == {"ff-1", "ff-2"} and all(u.strength is not None for u in seen)
    plain = act(
        active(start("bir-hacheim"), "ariete", 6), "axis", {"action": "attack", "target": "2522", "units": ["viii-132"]}
    )
    assert "stack_examined" not in kinds(plain.events)  # the option off: nothing to examine


@pytest.mark.rule("5.3.4")
@pytest.mark.rule("5.3.3")
def test_r5_3_4_the_opponent_displacing_an_overstacked_hex_sees_its_units() -> None:
    """21 Pz's recce halts on its two Panzer battalions in 1924: the Commonwealth, choosing which of them is displaced,
    sees the three; once the hex meets the limits again, only its top unit."""
    base = start("opening-phase", **{OPTION: True})
    beside = next(str(n) for n in sit_of(base).board.grid.neighbours(HexId("1924")) if str(n) not in ("1923", "2024"))
    state = place(active(base, "21pz", 6), **{"i-5": "1924", "ii-5": "1924", "3": beside})
    moving = act(state, "axis", {"action": "move", "units": ["3"]}).state
    halted = act(act(moving, "axis", {"action": "step", "to": "1924"}).state, "axis", {"action": "halt"}).state
    assert halted.pending[-1].kind == "overstack" and RULESET.to_act(halted) == ("cw",)
    assert {u.id for u in _at(halted, "cw", "1924", "axis")} == {"i-5", "ii-5", "3"}
    pick = next(a for a in RULESET.legal_actions(halted, "cw") if a["unit"] == "i-5")
    done = act(halted, "cw", pick).state
    assert not done.pending and [u.hidden for u in _at(done, "cw", "1924", "axis")] == [False, True]
