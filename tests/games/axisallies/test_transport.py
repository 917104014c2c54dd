"""Trucks and their cargo (page 32) and the optional Air Transport (page 38), by page."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.games.axisallies.data import AxisAlliesPack, Scenario
from pbem.games.axisallies.movement import landing_spaces
from pbem.games.axisallies.position import Position, initial_position
from pbem.games.axisallies.transport import check_air_transport, check_truck_move


@pytest.fixture(scope="module")
def rlp(pack: AxisAlliesPack) -> Scenario:
    return pack.scenario("rommels_last_push")


@pytest.fixture(scope="module")
def start(pack: AxisAlliesPack, rlp: Scenario) -> Position:
    return initial_position(pack, rlp)


def why(pack: AxisAlliesPack, rlp: Scenario, board: Position, path: list[str], **kw: object) -> str:
    loads: dict[str, dict[str, int]] = kw.get("loads", {})  # type: ignore[assignment]
    supply: dict[str, int] = kw.get("supply", {})  # type: ignore[assignment]
    power = str(kw.get("power", "united_kingdom"))
    verdict = check_truck_move(pack, rlp, board, power, "truck", path, loads=loads, supply=supply)
    return "ok" if verdict.ok else f"{verdict.rule}:{verdict.reason}"


@pytest.mark.rule("32")
def test_p32_cargo_types_from_the_pack(pack: AxisAlliesPack) -> None:
    assert pack.cargo.truck == ("infantry", "artillery", "anti_tank_gun", "aaa")
    assert pack.limit("truck_capacity") == 6


@pytest.mark.rule("32")
def test_p32_truck_carries_six_along_the_coast_road(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    """Tobruk's truck takes 2 infantry, the artillery and 3 supply to Benghazi (3 coast road territories)."""
    road = ["tobruk", "derna", "benghazi"]
    full = {"tobruk": {"infantry": 2, "artillery": 1}}
    assert why(pack, rlp, start, road, loads=full, supply={"tobruk": 3}) == "ok"
    board = replace(start, supply={**start.supply, "tobruk": 5})
    assert why(pack, rlp, board, road, loads=full, supply={"tobruk": 4}) == "32:over-capacity"


@pytest.mark.rule("32")
def test_p32_truck_refusals(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    road = ["tobruk", "derna", "benghazi"]
    assert why(pack, rlp, start, road, loads={"tobruk": {"tank": 1}}) == "32:not-cargo"
    assert why(pack, rlp, start, road, loads={"tobruk": {"infantry": 3}}) == "32:cargo-missing"
    assert why(pack, rlp, start, road, loads={"benghazi": {"infantry": 1}}) == "32:load-off-path"
    assert why(pack, rlp, start, road, supply={"tobruk": 4}) == "32:cargo-missing"
    assert why(pack, rlp, start, road, supply={"mersa_matruh": 1}) == "32:load-off-path"
    assert why(pack, rlp, start, ["tobruk", "derna"], loads={"tobruk": {"infantry": 1}}) == "ok"
    assert why(pack, rlp, start, ["tobruk", "bir_hachem", "siwa"]) == "ok"  # 2 off the road
    assert why(pack, rlp, start, ["tobruk", "bir_hachem", "siwa", "mersa_matruh"]) == "24:too-far"


@pytest.mark.rule("18")
def test_p18_trucks_move_only_supply_their_side_may_use(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    board = replace(
        start,
        pieces={**start.pieces, "mechili": {("germany", "truck"): 1}},
        supply={**start.supply, "mechili": 2},
    )
    neutral = why(pack, rlp, board, ["mechili", "el_agheila"], supply={"mechili": 2}, power="germany")
    assert neutral == "ok"  # tokens in a neutral territory may be moved by any power's truck
    german = why(pack, rlp, start, ["tobruk", "derna"], loads={"tobruk": {"infantry": 1}}, power="germany")
    assert german == "32:cargo-missing"  # cargo units must be the truck's own power's
    stranded = replace(start, pieces={**start.pieces, "el_agheila": {("united_kingdom", "truck"): 1}})
    held = why(pack, rlp, stranded, ["el_agheila", "mechili"], supply={"el_agheila": 1})
    assert held == "18:supply-not-usable"  # German-controlled: the tokens are the Axis side's


@pytest.mark.rule("38")
def test_p38_air_transport_from_italy(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    """Italy's bomber (move 6) flies an Italian infantry from Italy to Tripoli: sz16, sz12, sz15, Tripoli."""
    on = frozenset({"air_transport"})
    landing = landing_spaces(pack, start, "axis")
    path = ["italy", "sz16", "sz12", "sz15", "tripoli"]

    def carry(board: Position, route: list[str], cargo: str = "infantry", power: str = "italy", **kw: object) -> str:
        options: frozenset[str] = kw.get("options", on)  # type: ignore[assignment]
        verdict = check_air_transport(pack, rlp, board, power, "bomber", route, cargo, landing=landing, options=options)
        return "ok" if verdict.ok else f"{verdict.rule}:{verdict.reason}"

    assert carry(start, path) == "ok"
    assert carry(start, path, options=frozenset()) == "38:optional-rule-off"
    assert carry(start, path, cargo="tank") == "38:not-cargo"
    assert carry(start, path, cargo="artillery") == "38:cargo-missing"
    assert carry(start, ["sicily", "sz12", "sz15", "tripoli"], power="germany") == "38:not-from-staging"
    assert carry(start, ["italy", "sz16", "sz12"]) == "24:no-landing"
    uk = check_air_transport(
        pack, rlp, start, "united_kingdom", "bomber", ["malta", "sz12"], "infantry", landing=landing, options=on
    )
    assert (uk.rule, uk.reason) == ("24", "no-landing")
