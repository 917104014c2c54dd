"""A combat read off the board: defenders, friendly bystanders, trucks and convoy cargo (pages 14, 20-21, 32)."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.combat import Cargo, Piece, check_battle, start_battle
from pbem.games.axisallies.data import AxisAlliesPack
from pbem.games.axisallies.position import Position, initial_position
from tests.games.axisallies.pieces import DE_TANK, DE_TRUCK, IT_DD, IT_FIGHTER, IT_INF, IT_TANK, UK_DD, UK_INF, UK_SUB


@pytest.mark.rule("20")
def test_p20_every_combat_unit_of_the_other_side_defends_and_trucks_never_do(pack: AxisAlliesPack) -> None:
    board = Position(round=3, pieces={"el_agheila": {DE_TANK: 1, IT_INF: 2, DE_TRUCK: 1}, "benghazi": {UK_INF: 3}})
    battle = start_battle(pack, board, "el_agheila", "allies", land={"benghazi": {UK_INF: 3}})
    assert battle.kind == "land" and battle.round == 1 and battle.cargo is None
    assert battle.defenders == {DE_TANK: 1, IT_INF: 2}  # German and Italian together (p.20)
    assert check_battle(pack, battle).ok


@pytest.mark.rule("21")
def test_p21_at_sea_the_defenders_land_units_are_cargo_and_the_attackers_convoy_stays_out(
    pack: AxisAlliesPack,
) -> None:
    board = Position(
        round=3,
        pieces={"sz15": {IT_FIGHTER: 1, IT_DD: 1, IT_INF: 2, IT_TANK: 1, UK_SUB: 1, UK_INF: 1}},
        convoy_supply={"sz15": {"italy": 3, "germany": 2}},
    )
    battle = start_battle(pack, board, "sz15", "allies", air_sea={UK_SUB: 1, UK_DD: 1})
    assert battle.kind == "sea"
    assert battle.defenders == {IT_DD: 1, IT_FIGHTER: 1}
    assert battle.cargo == Cargo(units={IT_INF: 2, IT_TANK: 1}, supply={"germany": 2, "italy": 3})
    assert check_battle(pack, battle).ok
    empty = start_battle(pack, Position(round=3, pieces={"sz15": {IT_DD: 1}}), "sz15", "allies", air_sea={UK_DD: 1})
    assert empty.cargo is None


@pytest.mark.rule("28")
def test_p28_a_torch_landing_fights_in_the_territory_it_landed_in(pack: AxisAlliesPack) -> None:
    scenario = pack.scenario("operation_torch")
    board = initial_position(pack, scenario)
    landing = next(row for row in scenario.torch.landings if row.territory == "casablanca")
    attackers: dict[Piece, int] = {
        (str(p), t): n for (p, t), n in board.pieces["casablanca"].items() if p in landing.attackers
    }
    battle = start_battle(pack, board, "casablanca", "allies", land={"casablanca": attackers}, must_press=True)
    assert battle.defenders and all(p == "france" for p, _ in battle.defenders)  # the Vichy French
    assert check_battle(pack, battle).ok
