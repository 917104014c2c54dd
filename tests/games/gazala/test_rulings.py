"""The rulebook's contradictions and gaps with a second reading (notes §10), as genesis options: each plays its
default (the notes' ruling) and its alternative."""

from __future__ import annotations

import pytest

from pbem.games.gazala.admin import attrition_checked, begin_admin
from pbem.games.gazala.combat import CombatOptions, resolve
from pbem.games.gazala.combat_displace import RetreatPath, hq_displacement_options
from pbem.games.gazala.combat_drm import hq_support_drm
from pbem.games.gazala.paths import command, supply
from pbem.games.gazala.ruleset import RULESET
from pbem.games.gazala.rulings import RULINGS, ruling
from pbem.games.gazala.state import DiceWait, GazalaState, ReactionOffer, sit_of
from pbem.kit.hexes import HexId
from pbem.rules.contract import Outcome
from tests.games.gazala.board_helpers import at
from tests.games.gazala.combat_helpers import BROKEN, example_defenders, unit
from tests.games.gazala.gazala_play import PACK, act, active, kinds, place, refused, roll, start, update
from tests.games.gazala.test_ruleset_battle import _to_roll


def test_every_ruling_is_a_genesis_option_with_the_notes_default() -> None:
    options = {o.id: o for o in RULESET.options}
    for spec in RULINGS:
        assert options[spec.id] == spec
    defaults = {o.id: o.default for o in RULINGS}
    assert defaults == {
        "alternate_entry": "command_range",
        "stacking_at_entry": False,
        "bir_hacheim_end": "first",
        "disrupted_minefield_support": False,
        "reaction_needs_level": True,
        "independent_recovery_needs_supply": True,
        "retreat_ezoc_loss": "per_hex",
        "hq_support_any_in_command": False,
        "combined_arms_stack": False,
        "minefield_stack_together": False,
        "attrition_printed_eff": False,
        "hq_displacement_enemy_mines": False,
        "improved_defence_mixed": False,
        "box_breach": "hex",
    }
    for optional in ("linear_chits", "oos_halves_defence", "armour_negative_with_at"):
        assert options[optional].default is False


# --- §9.4.1, §9.4.2: reinforcements -----------------------------------------------------------------------------


def _reinforcing(**options: object) -> GazalaState:
    """GT2 of 10.2 at the Reinforcement Segment, with every entry hex of 6 RTR (7th Armoured) blocked."""
    record = next(r for r in PACK.scenario("opening-phase").reinforcements if r.unit == "6rtr")
    base = start("opening-phase", **options).model_copy(update={"turn": 2, "blocked": tuple(record.entry)})
    state = act(begin_admin(base, ()).state, "axis", {"action": "schwerpunkt", "formation": "21pz"}).state
    if state.admin == "replacement":
        state = act(state, "axis", {"action": "forgo"}).state
    assert state.admin == "reinforcement"
    return state


def _edge(state: GazalaState) -> list[str]:
    grid = sit_of(state).board.grid
    hexes = (grid.hex_id(PACK.map.cols[1], r) for r in range(PACK.map.rows[0], PACK.map.rows[1] + 1))
    return [str(h) for h in hexes if h in grid]


@pytest.mark.rule("9.4.1")
def test_the_alternate_entry_needs_command_range_and_no_adjacent_enemy() -> None:
    far = _reinforcing()
    assert not any(a["action"] == "reinforce_at" for a in RULESET.legal_actions(far, "cw"))  # 7 Armd HQ at 3124
    near = place(far, **{"7armd-hq": "4912", "i-5": "5110"})
    offered = [a for a in RULESET.legal_actions(near, "cw") if a["action"] == "reinforce_at" and a["unit"] == "6rtr"]
    assert offered
    sit = sit_of(near)
    enemy = {HexId(c.hex) for u, c in near.units.items() if c.hex is not None and PACK.unit(u).side == "axis"}
    for pick in offered:
        assert pick["hex"] in _edge(near) and not enemy & set(sit.board.grid.neighbours(HexId(pick["hex"])))
        there = place(near, **{"6rtr": pick["hex"]})
        assert command(sit_of(there), "6rtr").state == "in-command"
    beside = next(h for h in _edge(near) if HexId("5110") in sit.board.grid.neighbours(HexId(h)))
    move = {**offered[0], "hex": beside}
    assert refused(near, "cw", move).reason == "alternate"
    entered = act(near, "cw", offered[0])
    assert entered.state.units["6rtr"].hex == offered[0]["hex"] and entered.events[0].data["alternate"] is True


@pytest.mark.rule("9.4.1")
def test_the_open_edge_ruling_takes_any_nearest_edge_hex_out_of_enemy_control() -> None:
    state = _reinforcing(alternate_entry="open_edge")
    offered = [a for a in RULESET.legal_actions(state, "cw") if a["action"] == "reinforce_at" and a["unit"] == "6rtr"]
    assert offered and all(a["hex"] in _edge(state) for a in offered)


def _crowded(**options: object) -> tuple[GazalaState, str]:
    """GT2, the Via Balbia entry hex already holding two Commonwealth units (the stacking limit)."""
    record = next(r for r in PACK.scenario("opening-phase").reinforcements if r.unit == "6rtr")
    base = start("opening-phase", **options).model_copy(update={"turn": 2, "blocked": tuple(record.entry[1:])})
    source = next(s.hex for s in PACK.supply_sources if s.id == "cw-via-balbia")
    base = place(base, **{"3rtr-4": source, "5rtr-4": source})
    state = act(begin_admin(base, ()).state, "axis", {"action": "schwerpunkt", "formation": "21pz"}).state
    if state.admin == "replacement":
        state = act(state, "axis", {"action": "forgo"}).state
    return state, source


@pytest.mark.rule("9.4.2")
def test_a_reinforcement_may_be_placed_overstacked_and_the_limits_wait_for_its_moves_end() -> None:
    state, source = _crowded()
    entered = act(
        state, "cw", {"action": "reinforce", "unit": "6rtr", "entry": "cw-via-balbia", "formation": None}
    ).state
    assert entered.units["6rtr"].hex == source
    halted = act(entered, "cw", {"action": "halt"})
    over = next(e for e in halted.events if e.kind == "overstacked")
    assert over.rule == "5.3.1" and set(over.data["disrupted"]) == {"3rtr-4", "5rtr-4", "6rtr"}
    assert RULESET.to_act(halted.state) == ("axis",)  # §5.3.3: the opponent displaces


@pytest.mark.rule("5.3.1")
def test_the_stacking_at_entry_ruling_refuses_an_overstacking_placement() -> None:
    state, _ = _crowded(stacking_at_entry=True)
    verdict = refused(state, "cw", {"action": "reinforce", "unit": "6rtr", "entry": "cw-via-balbia", "formation": None})
    assert verdict.rule == "5.3.1" and verdict.reason == "overstacked"


# --- §10.1: the end of the solitaire scenario (notes B19) -------------------------------------------------------


@pytest.mark.rule("10.1")
def test_bir_hacheim_ends_after_six_activations_or_only_at_level_zero() -> None:
    for option, ok in (("first", False), ("level", True)):
        state = start("bir-hacheim", bir_hacheim_end=option)
        spent = state.formations["ariete"].model_copy(update={"activations": 6, "level": 1})
        state = state.model_copy(update={"formations": {**state.formations, "ariete": spent}})
        verdict = RULESET.contains(state, "axis", RULESET.parse_action({"action": "activate", "formation": "ariete"}))
        assert verdict.ok is ok
        if not ok:
            assert verdict.rule == "10.1" and verdict.reason == "activations-spent"


# --- §7.5.1.5 A: a Disrupted defender in its own minefield (notes A6) -------------------------------------------


@pytest.mark.rule("7.5.1.5")
def test_a_disrupted_defender_in_its_own_minefield_gets_support_only_by_the_ruling() -> None:
    found = {}
    for option in (False, True):
        state = active(start("bir-hacheim", disrupted_minefield_support=option), "ariete", 6)
        state = place(update(state, "ff-2", disrupted=True), **{"ff-1": "2622"})
        step = act(state, "axis", {"action": "attack", "target": "2522", "units": ["viii-132"]})
        step = act(step.state, "axis", {"action": "escalate", "to": "hasty"})
        done = roll(_to_roll(step), {"combat": (5,)})
        resolved = next(e for e in done.events if e.kind == "combat_resolved")
        found[option] = resolved.data["resolution"]["drms"]["value"]
    assert found[False] == 0
    assert found[True] == PACK.number("support_improved_defence") < 0


# --- §6.5: a formation at level 0 (notes B3) --------------------------------------------------------------------


@pytest.mark.rule("6.5.1")
def test_a_formation_at_level_zero_reacts_only_by_the_ruling() -> None:
    for option in (True, False):
        state = place(start("opening-phase", reaction_needs_level=option), **{"i-5": "2921", "21pz-hq": "2820"})
        state = active(state, "21pz", 6)
        zero = state.formations["7armd"].model_copy(update={"level": 0})
        state = state.model_copy(update={"formations": {**state.formations, "7armd": zero}})
        moving = act(state, "axis", {"action": "move", "units": ["i-5"]}).state
        entered = act(moving, "axis", {"action": "step", "to": "2922"}).state
        react = {"action": "react", "unit": "7mot"}
        if option:  # no unit qualifies, so no Reaction is offered at all
            assert not any(isinstance(p, ReactionOffer) for p in entered.pending)
        else:
            assert isinstance(entered.pending[-1], ReactionOffer)
            strict = entered.model_copy(update={"options": {**entered.options, "reaction_needs_level": True}})
            assert refused(strict, "cw", react).reason == "level-zero"
            reacted = roll(act(entered, "cw", react).state, {"reaction": (1, 5)})
            assert "reaction_succeeded" in kinds(reacted.events)
            assert reacted.state.formations["7armd"].level == 0


# --- §9.1.4: unassigned independents out of supply (notes A7) ---------------------------------------------------


@pytest.mark.rule("9.1.4")
def test_an_unsupplied_independent_keeps_its_markers_unless_the_ruling_says_automatically() -> None:
    for option, acts in ((True, 2), (False, 0)):
        state = start("opening-phase", independent_recovery_needs_supply=option)
        state = update(place(state, recam="4112"), "recam", acts=2)
        recovered = begin_admin(state.model_copy(update={"turn": 2}), ()).state
        assert recovered.units["recam"].acts == acts


# --- §7.7: Improved Defence in a hex shared by two formations (notes B26) ---------------------------------------


@pytest.mark.rule("7.7")
def test_improved_defence_in_a_shared_hex_only_by_the_ruling() -> None:
    for option in (False, True):
        state = place(
            start("opening-phase", improved_defence_mixed=option), **{"i-5": "2820", "115": "2820", "21pz-hq": "2820"}
        )
        state = active(state, "21pz", 6)
        improve = {"action": "improve", "hex": "2820"}
        if option:
            done = act(state, "axis", improve)
            assert "2820" in done.state.improved
        else:
            assert refused(state, "axis", improve).reason == "not-own-stack"


# --- §7.5.2.3: a Forced Retreat through EZOCs (notes B7) ---------------------------------------------------------


@pytest.mark.rule("7.5.2.3")
def test_a_forced_retreat_pays_the_ezoc_loss_per_hex_or_once_by_the_ruling() -> None:
    through = RetreatPath(
        hexes=(HexId("2622"), HexId("2722")), blocked=0, ezoc=(HexId("2622"), HexId("2722")), overstacked=()
    )
    loss = PACK.number("forced_retreat_ezoc_loss")
    assert through.losses(PACK) == 2 * loss
    assert through.losses(PACK, ezoc_once=True) == loss


# --- §7.5.1.5 B, §7.5.1.3: HQ Attack Support and Combined Arms (notes B11, B12) ---------------------------------


@pytest.mark.rule("7.5.1.5")
def test_hq_attack_support_for_a_partly_out_of_command_stack_only_by_the_ruling() -> None:
    away = (unit(PACK, "3rtr-4", in_command=False), unit(PACK, "7mot"))
    support = PACK.hq("7armd-hq").support
    assert hq_support_drm(PACK, away, "prepared", support) is None
    given = hq_support_drm(PACK, away, "prepared", support, any_in_command=True)
    assert given is not None and given.value == support
    nobody = tuple(unit(PACK, u, in_command=False) for u in ("3rtr-4", "7mot"))
    assert hq_support_drm(PACK, nobody, "prepared", support, any_in_command=True) is None


@pytest.mark.rule("7.5.1.3")
def test_combined_arms_with_a_pair_not_taking_part_only_by_the_ruling() -> None:
    tank, infantry = unit(PACK, "i-5"), unit(PACK, "104")  # both 21. Panzer, the infantry staying out
    shifts = {}
    for option in (False, True):
        done = resolve(
            PACK,
            (tank,),
            example_defenders(PACK),
            BROKEN,
            "hasty",
            (PACK.chit("1"), PACK.chit("21")),
            drms=(),
            roll=5,
            stack=(infantry,),
            options=CombatOptions(combined_arms_stack=option),
        )
        shifts[option] = done.shifts.value
    assert shifts[True] == shifts[False] + 1


# --- §7.3.1 against §7.3.6: a stack failing its Minefield Checks in part (notes A10) ----------------------------


@pytest.mark.rule("7.3.6")
def test_a_stack_stays_together_at_a_minefield_only_by_the_ruling() -> None:
    for option, inside in ((False, "2622"), (True, "2722")):
        state = place(start("bir-hacheim", minefield_stack_together=option), **{"8-bers": "2722", "vii-132": "2722"})
        state = active(state, "ariete", 6)
        moving = act(state, "axis", {"action": "move", "units": ["8-bers", "ix-132", "vii-132"]}).state
        asked = act(moving, "axis", {"action": "step", "to": "2622"})  # the Bir Hacheim Box
        done = roll(asked.state, {"mines": (1, 10, 5)})
        assert done.state.units["8-bers"].hex == inside and not done.state.units["8-bers"].disrupted
        assert done.state.units["ix-132"].hex == "2722" and done.state.move is None


# --- §5.8.4: the Effectiveness of an Attrition Check (notes B16) ------------------------------------------------


@pytest.mark.rule("9.1.5")
def test_an_attrition_check_reads_the_disrupted_side_unless_the_ruling_says_printed() -> None:
    record = PACK.unit("7mot")
    assert record.eff.front > record.eff.disrupted
    die = record.eff.front
    for option, lost in ((False, die - record.eff.disrupted), (True, 0)):
        state = start("opening-phase", attrition_printed_eff=option)
        state = update(state, "7mot", disrupted=True)
        wait = DiceWait(seat="cw", purpose="attrition", units=("7mot",))
        state = state.model_copy(update={"pending": (wait,), "turn": 2, "phase": "admin"})
        done = attrition_checked(state, Outcome(dice={"attrition": (die,)}))
        assert done.state.units["7mot"].cs == record.cs - lost


# --- §5.3.2: a displaced HQ and the Minefields (notes B14) ------------------------------------------------------


@pytest.mark.rule("5.3.2")
def test_a_displaced_hq_avoids_its_own_minefields_unless_the_ruling_says_enemy_only() -> None:
    """The Free French: one half-brigade in the Bir Hacheim Box (their own unbreached Minefield), the other farther
    off in the open."""
    sit = at(PACK, {"ff-1": "2521", "ff-2": "2524"}, {"ffbde-hq": "2421"})
    assert sit.board.mines[HexId("2521")].owner == "cw"
    assert hq_displacement_options(sit, "ffbde-hq") == (HexId("2524"),)
    assert hq_displacement_options(sit, "ffbde-hq", enemy_mines_only=True) == (HexId("2521"),)


@pytest.mark.rule("5.7.3")
@pytest.mark.parametrize(("box_breach", "boxed"), [("hex", True), ("whole", False)])
def test_a_breached_hex_ends_box_supply_of_that_hex_or_of_the_whole_box(box_breach: str, boxed: bool) -> None:
    """Notes B15: ruling ``box_breach``: 2521 breached, the 50th Division HQ next to 2622 of the same (Bir Hacheim)
    Box (2623 is next to 2522 and 2622) is still supplied under ``hex`` (the default), no longer under ``whole``;
    2522 and 2622 breached, never."""
    base = place(start("opening-phase", box_breach=box_breach), **{"50div-hq": "2623"})
    assert supply(sit_of(base), "50div-hq").source == "box"
    far = base.model_copy(update={"breached": ("2521",)})
    assert (supply(sit_of(far), "50div-hq").source == "box") is boxed
    near = base.model_copy(update={"breached": ("2522", "2622")})
    assert supply(sit_of(near), "50div-hq").source != "box"


@pytest.mark.rule("5.7.3")
def test_box_breach_defaults_to_the_breached_hex_only() -> None:
    assert ruling(start("opening-phase"), "box_breach") == "hex"
