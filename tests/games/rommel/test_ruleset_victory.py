"""Rommel victory (§17): the enemy Base at once, then Decisive, Positional and Attrition at the end."""

from __future__ import annotations

import pytest

from pbem.games.rommel import victory
from pbem.games.rommel.state import RommelState, Token, unit_slot
from pbem.rules.contract import HiddenSlot
from tests.games.rommel.rules_driver import R, Table


def board(units: list[tuple[str, str, str]], fortresses: dict[str, str] | None = None) -> RommelState:
    """A finished demo game with ``units`` (token side, hex, block) on the map, identities revealed."""
    table = Table("demo-1940")
    state = table.state
    tokens = {f"{side}-{i:02d}": Token(side=side, group="deploy-0", hex=hex_id, status="map")
              for i, (side, hex_id, _) in enumerate(units)}  # fmt: skip
    hidden = {
        unit_slot(f"{side}-{i:02d}"): HiddenSlot(owner=side, value=block, known=True, public=True)
        for i, (side, _, block) in enumerate(units)
    }
    return state.model_copy(
        update={"tokens": tokens, "hidden": hidden, "fortresses": fortresses or {}, "phase": "over"}
    )


def blocks(nationality: str) -> list[str]:
    pack = Table("demo-1940").state.pack
    return [b.id for b in pack.blocks if b.nationality == nationality]


@pytest.mark.rule("17.1")
def test_sole_occupation_of_the_enemy_base_wins_at_once() -> None:
    state = board([("axis", "2605", blocks("italian")[0]), ("allied", "2405", blocks("british")[0])])
    assert victory.base_taken(state) == "axis"
    contested = board([("axis", "2605", blocks("italian")[0]), ("allied", "2605", blocks("british")[0])])
    assert victory.base_taken(contested) is None


@pytest.mark.rule("17.2")
def test_twice_the_units_is_decisive_and_germans_count_one_and_a_half() -> None:
    german, italian, british = blocks("german"), blocks("italian"), blocks("british")
    state = board([("axis", "0108", german[0]), ("axis", "0108", german[1]), ("allied", "2605", british[0]),
                   ("allied", "2605", british[1])])  # fmt: skip
    assert victory.unit_halves(state, "axis") == 6 and victory.unit_halves(state, "allied") == 4
    winner, _, events = victory.final_result(state)
    assert (winner, events[0].rule) == ("axis", "17.4")
    state = board([("axis", "0108", italian[0]), ("axis", "0108", italian[1]), ("allied", "2605", british[0])])
    winner, _, events = victory.final_result(state)
    assert (winner, events[0].rule, events[0].data["level"]) == ("axis", "17.2", "Decisive Victory")


@pytest.mark.rule("17.3")
def test_holding_tobruk_unbesieged_is_positional() -> None:
    italian, british = blocks("italian"), blocks("british")
    tobruk = Table("demo-1940").state.pack.place("tobruk").hex
    units = [("axis", "0108", italian[0]), ("axis", "0108", italian[1]), ("allied", tobruk, british[0]),
             ("allied", "2605", british[1])]  # fmt: skip
    state = board(units, {"tobruk": "allied"})
    winner, _, events = victory.final_result(state)
    assert (winner, events[0].rule) == ("allied", "17.3")
    near = R.load_data(R.default_data()).hex_map.neighbours(tobruk)[0]  # type: ignore[arg-type]
    besieged = board([*units, ("axis", near, italian[2])], {"tobruk": "allied"})
    winner, _, events = victory.final_result(besieged)
    assert events[0].rule != "17.3"


@pytest.mark.rule("17.4")
def test_more_units_is_attrition_and_equal_is_a_draw() -> None:
    italian, british = blocks("italian"), blocks("british")
    state = board([("axis", "0108", italian[0]), ("axis", "0108", italian[1]), ("allied", "2605", british[0]),
                   ("allied", "2605", british[1]), ("allied", "2605", british[2])])  # fmt: skip
    winner, _, events = victory.final_result(state)
    assert (winner, events[0].rule) == ("allied", "17.4")
    even = board([("axis", "0108", italian[0]), ("allied", "2605", british[0])])
    assert victory.final_result(even)[0] is None
    assert R.result(even.model_copy(update={"outcome": "a draw"})).winners == ()  # type: ignore[union-attr]


@pytest.mark.rule("17.1")
def test_three_supplied_units_off_the_enemy_map_end_win_at_once() -> None:

    table = Table("demo-1940")
    table.set_up()
    state = table.state
    edge = "2607"  # on the Allied (east) map-end, off Alexandria's road
    tokens = dict(state.tokens)
    for token in ("axis-02", "axis-03"):
        tokens[token] = tokens[token].model_copy(update={"hex": edge})
    table.state = state.model_copy(update={"tokens": tokens, "exited": {"axis": 2}})
    table.do("axis", {"action": "commit", "card": 0})
    table.do("axis", {"action": "select"})
    table.do("axis", {"action": "group", "origin": edge, "rommel": False})
    assert table.refusal("axis", {"action": "step", "token": "axis-06", "to": "exit"}) == ("5.1", "not-in-group")
    unsupplied = table.state.tokens["axis-03"].model_copy(update={"unsupplied": True})
    saved = table.state
    table.state = saved.model_copy(update={"tokens": {**saved.tokens, "axis-03": unsupplied}})
    assert table.refusal("axis", {"action": "step", "token": "axis-03", "to": "exit"}) == ("17.1", "unsupplied")
    table.state = saved
    table.do("axis", {"action": "step", "token": "axis-02", "to": "exit"})
    assert table.state.tokens["axis-02"].status == "exited"
    assert R.result(table.state) is not None and R.result(table.state).winners == ("axis",)  # type: ignore[union-attr]
    inland = Table("demo-1940")
    inland.set_up()
    inland.do("axis", {"action": "commit", "card": 0})
    inland.do("axis", {"action": "select"})
    inland.do("axis", {"action": "group", "origin": "1506", "rommel": False})
    assert (
        R.check(inland.state, "axis", {"action": "step", "token": "axis-06", "to": "exit"}).reason == "not-at-map-end"
    )


@pytest.mark.rule("2.4")
def test_the_i_tanks_option_makes_army_tanks_slow_elite_units() -> None:
    from pbem.games.rommel import moves
    from pbem.games.rommel.buildup import replace_cost
    from pbem.games.rommel.state import unit_slot

    table = Table("demo-1940")
    pack = table.state.pack
    tank = next(b for b in pack.blocks if b.i_tank)
    state = table.state.with_hidden(unit_slot("allied-01"), "allied", tank.id, known=True)
    normal = pack.unit_type(tank.unit_type).speed
    assert moves.speed_of(state, "allied-01") == normal
    optional = state.model_copy(update={"options": {"i_tanks": True}})
    assert moves.speed_of(optional, "allied-01") == pack.limit("i_tank_speed") != normal
    assert replace_cost(optional, "allied-01") == (pack.unit_type(tank.unit_type).replacement_bp * 2, 2)
    assert any(o.id == "i_tanks" and o.default is False for o in R.options)
