"""Sea combat through the ruleset (pp.11, 15-18, 20-24, 33-34): sea combat moves and declarations, air attacks on
sea zones, submarines' submerge choices and Surprise Strikes, battleships, transport hits and convoy escapes, and
the worked examples of pages 21-22 played as actions of the seats that own each decision."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.games.axisallies.combat import Battle, Cargo, combat_over
from pbem.games.axisallies.ruleset import RULESET
from pbem.games.axisallies.state import AxisState, Counts
from pbem.kit import conformance
from tests.games.axisallies.rules_helpers import done, play, refusal, seat, start
from tests.games.axisallies.test_phases import germany, mv
from tests.games.axisallies.test_phases_combat import roll


def put(state: AxisState, space: str, counts: Counts) -> AxisState:
    """``state`` with ``space`` holding exactly ``counts``."""
    pieces = {s: dict(c) for s, c in state.pieces.items() if s != space}
    if counts:
        pieces[space] = dict(counts)
    return state.model_copy(update={"pieces": pieces})


def uk(phase: str = "combat_move", **options: str) -> AxisState:
    """Rommel's Last Push, round 1, the United Kingdom's turn at ``phase`` (Germany did nothing)."""
    state = done(start(**options))  # no variable reinforcements
    while state.power == "germany":
        state = done(state)
    assert state.power == "united_kingdom"
    for _ in ["purchase", "combat_move", "declare", "noncombat_move", "deploy"][
        : ["purchase", "combat_move", "declare", "noncombat_move", "deploy"].index(phase)
    ]:
        state = done(state)
    assert state.phase == phase
    return state


def cas(unit: str) -> dict[str, Any]:
    return {"action": "casualty", "unit": unit, "origin": None}


def kinds(state: AxisState) -> list[str]:
    return [p.kind for p in state.pending]


# --- combat moves and declarations (pp.11, 15-18, 24) -----------------------------------------------------------


@pytest.mark.rule("15")
@pytest.mark.rule("17")
def test_p15_p17_sea_combat_moves_end_in_attack_position_and_submarines_stop_at_destroyers() -> None:
    state = germany("combat_move")
    state = put(state, "sz19", {"united_kingdom:destroyer": 1})
    state = put(state, "sz23", {"united_kingdom:destroyer": 1})
    state = put(state, "sz24", {"united_kingdom:submarine": 1})
    assert refusal(state, mv("submarine", "sz21", "sz20")) == ("15", "not-attack-position")
    assert refusal(state, mv("submarine", "sz21", "sz24")) == ("17", "must-stop")  # every way passes a destroyer
    state = play(state, mv("submarine", "sz21", "sz19"))
    assert state.count("sz19", "germany:submarine") == 1 and state.naval == ("sz19",)


@pytest.mark.rule("17")
def test_p17_a_submarine_sails_through_a_hostile_zone_without_a_destroyer() -> None:
    state = germany("combat_move")
    state = put(state, "sz19", {"united_kingdom:battleship": 1})
    state = put(state, "sz24", {"united_kingdom:submarine": 1})
    state = play(state, mv("submarine", "sz21", "sz24"))
    assert state.naval == ("sz24",)


@pytest.mark.rule("11")
@pytest.mark.rule("16")
@pytest.mark.rule("24")
def test_p11_p16_surface_ships_stop_in_hostile_zones_and_allies_never_pass_messina() -> None:
    state = uk("combat_move")
    state = put(state, "sz11", {"united_kingdom:destroyer": 1})
    state = put(state, "sz16", {"italy:submarine": 1})
    state = put(state, "sz13", {"italy:destroyer": 1})
    assert refusal(state, mv("destroyer", "sz11", "sz16")) == ("11", "strait-of-messina")
    assert refusal(state, mv("destroyer", "sz11", "sz12")) == ("16", "must-stop")  # through hostile sz13
    state = done(done(state))
    assert state.phase == "noncombat_move"  # the destroyer in sz11 attacked nothing
    assert refusal(state, mv("destroyer", "sz11", "sz13")) == ("24", "hostile-zone")


@pytest.mark.rule("18")
def test_p18_sea_units_in_a_hostile_zone_attack_and_those_beside_enemy_submarines_may() -> None:
    state = germany("combat_move")
    state = put(state, "sz21", {"germany:submarine": 1, "united_kingdom:destroyer": 1})
    state = done(done(state))
    assert state.phase == "combat" and state.naval == ("sz21",)  # it stayed: it attacks (p.17)
    state = germany("combat_move")
    state = put(state, "sz21", {"germany:submarine": 1, "united_kingdom:submarine": 1})
    state = done(state)
    assert state.phase == "declare"
    assert refusal(state, {"action": "sea_attack", "zone": "sz20"}) == ("18", "no-sea-units")
    assert refusal(state, {"action": "sea_attack", "zone": "sz1"}) == ("18", "no-sea-units")
    state = play(state, {"action": "sea_attack", "zone": "sz21"})
    assert refusal(state, {"action": "sea_attack", "zone": "sz21"}) == ("18", "already-attacking")
    assert done(state).phase == "combat"
    quiet = put(germany("declare"), "sz21", {"germany:submarine": 1})
    assert refusal(quiet, {"action": "sea_attack", "zone": "sz21"}) == ("18", "nothing-to-attack")
    assert done(quiet).phase == "noncombat_move"  # ignoring enemy submarines is allowed


@pytest.mark.rule("15")
def test_p15_air_units_attack_sea_zones_holding_enemy_units_only() -> None:
    state = germany("combat_move")
    assert refusal(state, mv("fighter", "tripoli", "sz15")) == ("15", "air-target-not-hostile")  # Italian ships
    state = play(state, mv("fighter", "tripoli", "sz12"))  # the UK submarine off Malta
    assert [(s.target, s.fought) for s in state.sorties] == [("sz12", False)]
    assert done(done(state)).naval == ("sz12",)


# --- step 1: submerge or strike (p.34) ----------------------------------------------------------------------------


def _sub_duel() -> AxisState:
    """Germany's submarine attacks the UK submarine off Malta; the fight begun."""
    state = play(germany("combat_move"), mv("submarine", "sz21", "sz12"))
    state = done(done(state))
    return play(state, {"action": "fight", "target": "sz12"})


@pytest.mark.rule("34")
def test_p34_without_an_enemy_destroyer_the_attacker_then_the_defender_choose_to_submerge() -> None:
    state = _sub_duel()
    assert kinds(state)[-1] == "submerging" and seat(state) == "axis"
    assert refusal(state, {"action": "submerge", "unit": "united_kingdom:submarine"}) == ("34", "not-a-submarine")
    state = play(state, {"action": "submerge", "unit": "germany:submarine"})
    assert seat(state) == "allies" and kinds(state)[-1] == "submerging"  # the attacker's choice made first
    assert state.battle is not None and state.battle.ships == {} and state.battle.submerged == {"germany:submarine": 1}
    state = play(state, {"action": "submerge", "unit": "united_kingdom:submarine"})
    assert state.battle is None and state.phase == "noncombat_move"  # nobody left to fight
    assert state.count("sz12", "germany:submarine") == 1 and state.count("sz12", "united_kingdom:submarine") == 1


@pytest.mark.rule("34")
def test_p34_an_enemy_destroyer_in_the_combat_cancels_submerging_and_surprise_strikes() -> None:
    state = germany("combat_move")
    state = put(state, "sz19", {"united_kingdom:destroyer": 1})
    state = done(done(play(state, mv("submarine", "sz21", "sz19"))))
    state = play(state, {"action": "fight", "target": "sz19"})
    assert "submerging" not in kinds(state)
    assert state.rolls is not None and [r.id for r in state.rolls.rolls] == ["a1-0"]  # fires in step 2


@pytest.mark.rule("34")
@pytest.mark.rule("33")
def test_p34_surprise_strike_hits_a_battleship_which_stays_damaged() -> None:
    state = germany("combat_move")
    state = put(state, "sz19", {"united_kingdom:battleship": 1, "united_kingdom:fighter": 1})
    state = done(done(play(state, mv("submarine", "sz21", "sz19"))))
    state = done(play(state, {"action": "fight", "target": "sz19"}))  # the submarine strikes
    assert state.rolls is not None and [r.id for r in state.rolls.rolls] == ["sa1-0"]
    state = roll(state)
    assert seat(state) == "allies" and kinds(state)[-1] == "take_casualties"
    assert refusal(state, cas("united_kingdom:fighter")) == ("21", "casualty-not-allowed")  # p.34: not air units
    state = play(state, cas("united_kingdom:battleship"))
    assert state.damaged == {"sz19": {"united_kingdom:battleship": 1}}
    assert state.count("sz19", "united_kingdom:battleship") == 1  # one hit: damaged, not sunk (p.33)
    assert RULESET.view(state, "allies").facts["damaged"] == {"sz19": {"united_kingdom:battleship": 1}}
    assert state.rolls is not None and [r.id for r in state.rolls.rolls] == ["d1-0", "d1-1"]  # struck: no a1
    state = roll(state, miss=True)
    assert kinds(state)[-1] == "press_or_cease" and seat(state) == "axis"
    state = play(state, {"action": "press"})
    state = done(state)  # round 2: the submarine strikes again
    state = play(roll(state), cas("united_kingdom:battleship"))
    assert state.count("sz19", "united_kingdom:battleship") == 0 and state.damaged == {}


# --- transports: the worked example of pages 21-22 ----------------------------------------------------------------


def _tripoli_convoy(**options: str) -> AxisState:
    """p.21: two UK submarines attack the Tripoli convoy zone: an Italian fighter escorts German and Italian cargo."""
    state = uk("combat_move", **options)
    state = put(state, "sz12", {"united_kingdom:submarine": 2})
    cargo = {"germany:infantry": 1, "italy:infantry": 1, "germany:tank": 1, "italy:tank": 1, "germany:scout_car": 1}
    state = put(state, "sz15", {"italy:fighter": 1, **cargo})
    state = state.model_copy(update={"convoy_supply": {"sz15": {"germany": 4, "italy": 3}}})
    state = play(state, mv("submarine", "sz12", "sz15"), mv("submarine", "sz12", "sz15"))
    return play(done(done(state)), {"action": "fight", "target": "sz15"})


def lose(unit: str | None = None, **supply: int) -> dict[str, Any]:
    return {"action": "lose_cargo", "unit": unit, "supply": [f"{p}:{n}" for p, n in sorted(supply.items())]}


@pytest.mark.rule("21")
@pytest.mark.rule("22")
@pytest.mark.rule("23")
def test_p21_p22_worked_example_the_tripoli_convoy() -> None:
    state = done(_tripoli_convoy())  # the UK submarines strike
    state = roll(state, faces={"sa1-0": [1, 1]})
    assert seat(state) == "axis"
    assert refusal(state, cas("italy:fighter")) == ("21", "casualty-not-allowed")  # submarines never hit air units
    state = play(state, cas("convoy:transport"), cas("convoy:transport"))
    assert kinds(state)[-1] == "transport_hits" and seat(state) == "axis"
    assert refusal(state, lose(germany=4)) == ("21", "bad-cargo-loss")  # 5 supply go when 5 are aboard
    assert refusal(state, {"action": "lose_cargo", "unit": None, "supply": ["germany:two"]}) == (
        "21",
        "bad-cargo-loss",
    )
    state = play(state, lose("germany:infantry"))  # "The defenders choose to lose 1 infantry to the first hit."
    assert seat(state) == "allies"
    assert refusal(state, {"action": "name_cargo", "type": "artillery"}) == ("21", "bad-cargo-name")
    assert refusal(state, lose("italy:tank")) == ("21", "name-first")
    state = play(state, {"action": "name_cargo", "type": "supply"})  # "The attacker chooses supply"
    assert seat(state) == "axis"
    assert refusal(state, lose("italy:tank")) == ("21", "bad-cargo-loss")
    state = play(state, lose(germany=2, italy=3))  # "lose 2 German and 3 Italian supply"
    state = play(state, lose("italy:infantry"))  # "For the second hit, the defenders choose to lose 1 infantry."
    state = play(state, {"action": "name_cargo", "type": "tank"})  # "The attacker chooses the tank unit type"
    state = play(state, lose("italy:tank"))  # "so the defenders choose to lose the Italian tank"
    assert state.convoy_supply == {"sz15": {"germany": 2}}
    assert {k: n for k, n in state.pieces["sz15"].items()} == {
        "italy:fighter": 1, "germany:tank": 1, "germany:scout_car": 1, "united_kingdom:submarine": 2
    }  # fmt: skip
    assert state.rolls is not None and [r.id for r in state.rolls.rolls] == ["d1-0"]  # the fighter fires in vain
    state = roll(state)
    assert kinds(state)[-1] == "escapes" and seat(state) == "axis"
    # p.22: "the defenders choose 2 reinforcement land units to escape ... the 2 supply tokens ... and the tank"
    state = play(state, {"action": "escape", "unit": None, "supply": ["germany:2"]})
    state = play(state, {"action": "escape", "unit": "germany:tank", "supply": []})
    assert kinds(state)[-1] == "press_or_cease" and seat(state) == "allies"
    assert state.battle is not None and state.battle.cargo_units == {"germany:scout_car": 1}
    turn = {"action": "turn_aside", "origin": None, "unit": "united_kingdom:submarine"}
    assert refusal(state, turn) == ("23", "sea-press-with-all")
    state = done(play(state, {"action": "press"}))  # round 2: the submarines strike again
    state = roll(state, faces={"sa2-0": [9, 9]})
    state = roll(state, miss=True)  # the fighter
    assert kinds(state)[-1] == "escapes"
    state = play(state, {"action": "escape", "unit": "germany:scout_car", "supply": []})  # it escapes
    assert state.battle is None and state.phase == "noncombat_move"
    assert state.count("sz15", "germany:scout_car") == 1 and state.convoy_supply == {"sz15": {"germany": 2}}


@pytest.mark.rule("22")
def test_p22_at_most_two_pieces_of_cargo_escape_each_round() -> None:
    state = roll(done(_tripoli_convoy()), miss=True)  # the submarines miss
    state = roll(state, miss=True)  # so does the fighter
    assert kinds(state)[-1] == "escapes"
    assert refusal(state, {"action": "escape", "unit": "italy:artillery", "supply": []}) == ("22", "not-aboard")
    six = {"action": "escape", "unit": None, "supply": ["germany:4", "italy:2"]}
    assert refusal(state, six) == ("22", "too-much-supply")
    for bad in (["germany:2", "germany:1"], ["germany:x"], ["germany:0"], []):
        assert refusal(state, {"action": "escape", "unit": None, "supply": bad}) == ("22", "not-aboard")
    assert RULESET.label(state, "supply", "germany:2") == "2 Germany supply"
    assert RULESET.describe({"action": "escape", "unit": None, "supply": ["germany:2", "italy:3"]}) == (
        "escape germany:2, italy:3"
    )
    state = play(state, {"action": "escape", "unit": "germany:tank", "supply": []})
    state = play(state, {"action": "escape", "unit": "italy:tank", "supply": []})
    assert kinds(state)[-1] == "press_or_cease"  # two escaped: the round goes on to step 5


@pytest.mark.rule("21")
def test_p21_option_escorts_shield_all_keeps_submarine_hits_off_the_transports() -> None:
    state = _tripoli_convoy(escorts_shield="all")
    assert state.battle is None and state.phase == "noncombat_move"  # neither side can hit the other


# --- more worked examples and air units at sea (pp.22, 33) ---------------------------------------------------------


def _uk_attack_on_sz13() -> AxisState:
    """p.22's example: a UK destroyer and fighter attack an Italian destroyer and submarine."""
    state = uk("combat_move")
    state = put(state, "sz12", {"united_kingdom:destroyer": 1})
    state = put(state, "sz13", {"italy:destroyer": 1, "italy:submarine": 1})
    state = play(state, mv("destroyer", "sz12", "sz13"), mv("fighter", "malta", "sz13"))
    state = play(done(done(state)), {"action": "fight", "target": "sz13"})
    assert "submerging" not in kinds(state)  # the UK destroyer cancels the Italian submarine's choices
    return roll(state, miss=True)  # the attacker misses


@pytest.mark.rule("22")
@pytest.mark.rule("34")
def test_p22_worked_example_the_submarine_hit_goes_to_the_destroyer() -> None:
    """p.22: "the attacker must assign the submarine hit to the destroyer and the destroyer hit to the fighter"."""
    state = _uk_attack_on_sz13()
    state = roll(state, faces={"d1-0": [10], "d1-1": [1]})  # only the submarine hits
    assert seat(state) == "allies"
    assert refusal(state, cas("united_kingdom:fighter")) == ("22", "casualty-not-allowed")
    state = play(state, cas("united_kingdom:destroyer"))
    assert state.count("sz13", "united_kingdom:destroyer") == 0
    both = roll(_uk_attack_on_sz13())
    both = play(both, cas("united_kingdom:fighter"), cas("united_kingdom:destroyer"))
    assert both.battle is None and both.sorties == ()  # the fighter was shot down over the zone


@pytest.mark.rule("33")
@pytest.mark.rule("24")
def test_p33_a_bomber_aims_at_the_transports_past_an_escort_and_lands_after() -> None:
    state = germany("combat_move")
    state = put(state, "sz12", {"united_kingdom:submarine": 1, "united_kingdom:infantry": 2})
    state = play(state, mv("bomber", "sicily", "sz12"))
    state = play(done(done(state)), {"action": "fight", "target": "sz12"})
    assert seat(state) == "allies" and kinds(state)[-1] == "submerging"  # no German destroyer
    state = play(state, {"action": "submerge", "unit": "united_kingdom:submarine"})
    state = roll(state)  # the bomber hits
    assert kinds(state)[-1] == "aim_hits" and seat(state) == "axis"
    assert refusal(state, {"action": "aim", "group": 0, "target": "submarine"})[1] == "bad-aim"
    state = play(state, {"action": "aim", "group": 0, "target": "transport"})
    state = play(state, cas("convoy:transport"), lose("united_kingdom:infantry"))
    assert seat(state) == "axis"
    state = play(state, {"action": "name_cargo", "type": "infantry"}, lose("united_kingdom:infantry"))
    assert state.count("sz12", "united_kingdom:infantry") == 0
    assert state.battle is None and state.phase == "noncombat_move"
    state = play(state, mv("bomber", "sz12", "sicily"))
    assert state.count("sicily", "germany:bomber") == 1 and state.sorties == ()


def test_sea_actions_are_typed() -> None:
    for act in (
        {"action": "sea_attack", "zone": "sz1"},
        {"action": "submerge", "unit": "italy:submarine"},
        {"action": "lose_cargo", "unit": None, "supply": ["italy:2"]},
        {"action": "name_cargo", "type": "tank"},
        {"action": "escape", "unit": "italy:tank", "supply": []},
    ):
        assert RULESET.typed(act).model_dump(mode="json") == act


# --- convoy escorts (pp.12, 25) and battleship repair (p.13) -------------------------------------------------------


def _escorted() -> AxisState:
    """Germany requisitions a fighter and deploys it to the Tripoli convoy zone as an escort."""
    state = play(germany(), {"action": "requisition", "unit": "fighter"})
    for _ in range(4):
        state = done(state)
    assert state.phase == "deploy"
    return play(state, {"action": "deploy", "unit": "fighter", "to": "sz15"})


@pytest.mark.rule("25")
@pytest.mark.rule("12")
def test_p25_air_units_deploy_to_open_convoys_and_land_at_the_start_of_the_next_turn() -> None:
    state = _escorted()
    assert state.count("sz15", "germany:fighter") == 1
    while not (state.power == "germany" and state.round == 2):
        state = done(state)
    assert kinds(state) == ["land_escorts"] and seat(state) == "axis"
    landing = {"action": "land_escort", "unit": "fighter", "origin": "sz15"}
    assert refusal(state, {**landing, "to": "benghazi"})[0] == "12"  # the enemy's, and too far
    assert refusal(state, {"action": "done"}) == ("12", "escort-must-land")
    state = play(state, {**landing, "to": "tripoli"})
    assert state.pending == () and state.phase == "purchase"
    assert state.count("tripoli", "germany:fighter") == 2 and state.count("sz15", "germany:fighter") == 0


@pytest.mark.rule("25")
def test_p25_an_air_unit_that_did_not_move_escorts_an_open_convoy_within_two_spaces() -> None:
    state = germany("deploy")
    escort = {"action": "escort", "unit": "fighter", "origin": "tripoli"}
    assert refusal(state, {**escort, "to": "sz21"}) == ("25", "not-a-convoy")
    assert refusal(state, {**escort, "to": "sz2"})[0] == "25"  # an Allied route
    state = play(state, {**escort, "to": "sz15"})
    assert state.count("sz15", "germany:fighter") == 1
    assert refusal(state, {**escort, "origin": "sz15", "to": "sz20"}) == ("25", "moved-this-turn")
    moved = play(germany("noncombat_move"), mv("fighter", "tripoli", "sicily"))
    moved = play(done(moved), {**escort, "origin": "sicily", "to": "sz15"})  # Sicily's own fighter did not move
    assert refusal(moved, {**escort, "origin": "sicily", "to": "sz15"}) == ("25", "moved-this-turn")


@pytest.mark.rule("13")
@pytest.mark.rule("33")
def test_p13_a_damaged_battleship_at_the_naval_base_is_repaired_for_supply_from_cairo() -> None:
    state = uk("purchase")
    assert refusal(state, {"action": "repair", "zone": "sz31"}) == ("13", "nothing-to-repair")
    state = state.model_copy(update={"damaged": {"sz31": {"united_kingdom:battleship": 1}}})
    assert refusal(state, {"action": "repair", "zone": "sz4"}) == ("13", "no-naval-base")
    dry = state.model_copy(update={"supply": {k: n for k, n in state.supply.items() if k != "cairo"}})
    assert refusal(dry, {"action": "repair", "zone": "sz31"}) == ("13", "repair-supply")
    cairo = state.supply["cairo"]
    state = play(state, {"action": "repair", "zone": "sz31"})
    assert state.damaged == {} and state.supply.get("cairo", 0) == cairo - 1


@pytest.mark.rule("33")
def test_p33_a_damaged_battleship_moves_before_an_undamaged_one() -> None:
    state = uk("noncombat_move")
    state = state.model_copy(update={"damaged": {"sz31": {"united_kingdom:battleship": 1}}})
    state = play(state, mv("battleship", "sz31", "sz29"))
    assert state.damaged == {"sz29": {"united_kingdom:battleship": 1}}


@pytest.mark.rule("12")
def test_p12_suez_sends_its_ships_to_sea_zone_31_and_its_escorts_land() -> None:
    state = germany("deploy")
    state = put(state, "suez_canal", {"united_kingdom:destroyer": 1, "united_kingdom:fighter": 1})
    ships = state.count("sz31", "united_kingdom:destroyer")
    state = done(state)  # the UK's turn begins with phase 1
    assert state.power == "united_kingdom" and state.count("sz31", "united_kingdom:destroyer") == ships + 1
    assert state.count("suez_canal", "united_kingdom:fighter") == 1 and kinds(state) == ["land_escorts"]
    state = play(state, {"action": "land_escort", "unit": "fighter", "origin": "suez_canal", "to": "cairo"})
    assert state.count("cairo", "united_kingdom:fighter") == 2 and state.pending == ()


@pytest.mark.rule("17")
@pytest.mark.rule("24")
def test_p17_ships_starting_in_a_hostile_zone_may_escape_as_their_combat_move() -> None:
    state = germany("combat_move")
    state = put(state, "sz21", {"germany:submarine": 1, "united_kingdom:destroyer": 1})
    state = play(state, mv("submarine", "sz21", "sz20"))  # no attack position needed to leave
    state = done(done(state))
    assert state.naval == () and state.phase == "noncombat_move"
    assert refusal(state, mv("submarine", "sz20", "sz18")) == ("24", "no-unit-to-move")  # it moved already


@pytest.mark.rule("23")
@pytest.mark.rule("24")
def test_p23_a_ceased_sea_attack_leaves_both_sides_in_the_zone_and_the_attackers_spent() -> None:
    state = germany("combat_move")
    state = put(state, "sz19", {"united_kingdom:battleship": 1})
    state = done(done(play(state, mv("submarine", "sz21", "sz19"))))
    state = done(play(state, {"action": "fight", "target": "sz19"}))  # strike
    state = roll(roll(state, miss=True), miss=True)
    assert seat(state) == "axis"
    state = play(state, {"action": "cease"})
    assert state.battle is None and state.phase == "noncombat_move"
    assert state.count("sz19", "germany:submarine") == 1 and state.count("sz19", "united_kingdom:battleship") == 1
    assert refusal(state, mv("submarine", "sz19", "sz21")) == ("24", "no-unit-to-move")


@pytest.mark.rule("33")
def test_p33_a_bomber_that_may_aim_at_transports_keeps_a_shielded_convoy_combat_going() -> None:
    """With ``escorts_shield`` ``all`` a submarine escort shields the transports from every unaimed hit, and air
    units cannot hit it (p.34); a German bomber may still aim at the transports (p.33), so the combat goes on."""
    pack = start().pack
    convoy = Battle(
        "sz12", "sea", "axis", air_sea={("germany", "bomber"): 1},
        defenders={("united_kingdom", "submarine"): 1}, cargo=Cargo(units={("united_kingdom", "infantry"): 1}),
    )  # fmt: skip
    assert not combat_over(pack, convoy, escorts_shield="all")
    assert combat_over(pack, Battle("sz12", "sea", "axis", air_sea=convoy.air_sea, defenders=convoy.defenders))
    italian = Battle("sz12", "sea", "axis", air_sea={("italy", "fighter"): 1}, defenders=convoy.defenders)
    assert combat_over(pack, Battle(**{**italian.__dict__, "cargo": convoy.cargo}), escorts_shield="all")


def _decisions_of_the_convoy_example() -> list[AxisState]:
    """A state at each kind of sea decision of the worked convoy example (and its escorts' landing)."""
    found = [_tripoli_convoy()]  # submerging
    state = roll(done(found[0]), faces={"sa1-0": [1, 1]})
    found.append(state)  # the defender's casualties
    state = play(state, cas("convoy:transport"), cas("convoy:transport"))
    found.append(state)  # the first piece of cargo
    state = play(state, lose("germany:infantry"))
    found.append(state)  # the named type
    state = play(state, {"action": "name_cargo", "type": "supply"})
    found.append(state)  # the second piece
    state = play(state, lose(germany=2, italy=3), lose("italy:infantry"), {"action": "name_cargo", "type": "tank"})
    state = roll(play(state, lose("italy:tank")))
    found.append(state)  # the escapes
    found.append(play(state, {"action": "escape", "unit": None, "supply": ["germany:2"]}, {"action": "done"}))
    return found


@pytest.mark.rule("12")
@pytest.mark.rule("21")
@pytest.mark.rule("22")
@pytest.mark.rule("25")
@pytest.mark.rule("34")
def test_sea_decisions_offer_exactly_what_they_accept() -> None:
    rng = random.Random(7)
    escorted = _escorted()
    landing = escorted
    while not (landing.power == "germany" and landing.round == 2):
        landing = done(landing)
    for state in (*_decisions_of_the_convoy_example(), escorted, landing, _sub_duel()):
        assert conformance.check_legal_matches_contains(RULESET, state, seat(state), rng, mutations=30) > 0
        conformance.check_choices(RULESET, state, seat(state))


@pytest.mark.rule("12")
def test_p12_escorts_that_cannot_land_are_destroyed() -> None:
    state = put(germany("deploy"), "sz7", {"united_kingdom:fighter": 1})  # off Algiers, Vichy all around
    state = done(state)
    assert state.power == "united_kingdom" and kinds(state) == ["land_escorts"]
    assert RULESET.legal_actions(state, seat(state)) == [{"action": "done"}]
    state = play(state, {"action": "done"})
    assert state.count("sz7", "united_kingdom:fighter") == 0 and state.pending == ()


def _uk_fighter_in_the_atlantic(**options: str) -> AxisState:
    """The UK deploys a fighter to the Atlantic Ocean convoy leg; play goes on to its next turn."""
    state = play(uk("purchase", **options), {"action": "requisition", "unit": "fighter"})
    for _ in range(4):
        state = done(state)
    state = play(state, {"action": "deploy", "unit": "fighter", "to": "atlantic_ocean"})
    while not (state.power == "united_kingdom" and state.round == 2):
        state = done(state)
    return state


@pytest.mark.rule("12")
def test_p12_option_chain_escorts_air_units_on_the_uk_chain_advance_or_land() -> None:
    """Notes §10.16: p.12 lands the escorts in "your convoy sea zones" but sends "all of the units" of the Atlantic
    and Indian Ocean legs on; ``advance`` (the default) lets air units ride the chain, ``land`` lands them."""
    riding = _uk_fighter_in_the_atlantic()
    assert riding.pending == () and riding.count("indian_ocean", "united_kingdom:fighter") == 1
    landing = _uk_fighter_in_the_atlantic(chain_escorts="land")
    assert kinds(landing) == ["land_escorts"] and landing.count("atlantic_ocean", "united_kingdom:fighter") == 1
    assert RULESET.legal_actions(landing, seat(landing)) == [{"action": "done"}]  # no land within 2 spaces
    landing = done(landing)
    assert landing.count("atlantic_ocean", "united_kingdom:fighter") == 0
    assert landing.count("indian_ocean", "united_kingdom:fighter") == 0


@pytest.mark.rule("21")
def test_p21_option_transport_naming_a_type_not_aboard_spares_the_second_piece() -> None:
    """Notes §10.27: ``present`` (the default) lets the attacker name only a type aboard; with ``any`` a type not
    aboard is allowed and spares the second piece."""
    state = roll(done(_tripoli_convoy(transport_naming="any")), faces={"sa1-0": [1, 9]})
    state = play(state, cas("convoy:transport"), lose("germany:infantry"))
    assert {"action": "name_cargo", "type": "artillery"} in RULESET.legal_actions(state, seat(state))
    state = play(state, {"action": "name_cargo", "type": "artillery"})  # none aboard: the hit is spent
    assert "transport_hits" not in kinds(state)
    assert state.count("sz15", "italy:infantry") == 1 and state.convoy_supply == {"sz15": {"germany": 4, "italy": 3}}
    present = roll(done(_tripoli_convoy()), faces={"sa1-0": [1, 9]})
    present = play(present, cas("convoy:transport"), lose("germany:infantry"))
    assert refusal(present, {"action": "name_cargo", "type": "artillery"}) == ("21", "bad-cargo-name")
