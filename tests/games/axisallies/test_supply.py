"""Supply tokens: access, attack and defence costs, and where they may be taken from (pages 18, 20), by page.

The rulebook has no numbered sections; its pages serve as sections, so ``@pytest.mark.rule("18")`` is page 18.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.games.axisallies.data import AxisAlliesPack, Scenario
from pbem.games.axisallies.position import Position, initial_position
from pbem.games.axisallies.supply import (
    attack_supply_due,
    check_land_attack,
    check_payment,
    defense_supply_due,
    sources,
    usable_by,
)


@pytest.fixture(scope="module")
def start(pack: AxisAlliesPack) -> Position:
    return initial_position(pack, pack.scenario("rommels_last_push"))


@pytest.mark.rule("18")
@pytest.mark.parametrize(("units", "due"), [(1, 1), (5, 1), (6, 2), (10, 2), (11, 3)])
def test_p18_worked_example_one_token_per_five_attackers(pack: AxisAlliesPack, units: int, due: int) -> None:
    """p.18: "1 to 5 units = 1 supply token, 6 to 10 units = 2 supply tokens, etc."."""
    assert pack.limit("supply_per_attack_units") == 5
    assert attack_supply_due(pack, "germany", {"infantry": units}, defended=True) == due


@pytest.mark.rule("18")
def test_p18_scout_cars_are_not_counted(pack: AxisAlliesPack) -> None:
    assert attack_supply_due(pack, "germany", {"scout_car": 3}, defended=True) == 0
    assert attack_supply_due(pack, "germany", {"scout_car": 3, "tank": 5}, defended=True) == 1
    assert attack_supply_due(pack, "germany", {"scout_car": 1, "tank": 6}, defended=True) == 2


@pytest.mark.rule("18")
def test_p18_no_supply_against_a_territory_without_defenders(pack: AxisAlliesPack) -> None:
    assert attack_supply_due(pack, "germany", {"tank": 7}, defended=False) == 0


@pytest.mark.rule("18")
def test_p18_tokens_belong_to_the_side_holding_their_territory(pack: AxisAlliesPack, start: Position) -> None:
    assert usable_by(pack, start, "el_agheila", "axis")
    assert not usable_by(pack, start, "el_agheila", "allies")
    assert usable_by(pack, start, "benghazi", "allies") and not usable_by(pack, start, "benghazi", "axis")
    assert usable_by(pack, start, "sirte", "axis")  # no marker, but Italian combat units
    neutral = replace(start, supply={**start.supply, "mechili": 2})
    assert usable_by(pack, neutral, "mechili", "axis") and usable_by(pack, neutral, "mechili", "allies")


@pytest.mark.rule("18")
def test_p18_trucks_alone_do_not_hold_tokens(pack: AxisAlliesPack, start: Position) -> None:
    trucks = replace(start, pieces={**start.pieces, "mechili": {("germany", "truck"): 1}}, supply={"mechili": 2})
    assert usable_by(pack, trucks, "mechili", "allies")


@pytest.mark.rule("18")
def test_p18_sources_are_the_territory_and_friendly_or_neutral_neighbours(
    pack: AxisAlliesPack, start: Position
) -> None:
    # El Agheila borders Benghazi (British), Jalo (a British scout car), Mechili (empty) and Sirte (Italians).
    assert sources(pack, start, "el_agheila", "axis") == {"el_agheila": 3, "sirte": 1}
    neutral = replace(start, supply={**start.supply, "mechili": 2})
    assert sources(pack, neutral, "el_agheila", "axis") == {"el_agheila": 3, "mechili": 2, "sirte": 1}
    assert sources(pack, neutral, "benghazi", "allies") == {"benghazi": 2, "mechili": 2}


@pytest.mark.rule("28")
def test_p28_torch_supply_with_landed_us_units_is_allied(pack: AxisAlliesPack, start: Position) -> None:
    """Notes §10.22: the landing's supply sits in a Vichy territory beside US units; the Allies may use it."""
    landed = {**start.pieces["casablanca"], ("united_states", "infantry"): 5}
    board = replace(start, round=7, pieces={**start.pieces, "casablanca": landed}, supply={"casablanca": 4})
    assert usable_by(pack, board, "casablanca", "allies")
    assert sources(pack, board, "casablanca", "allies") == {"casablanca": 4}


@pytest.mark.rule("18")
def test_p18_payment_must_be_exact_and_in_reach(pack: AxisAlliesPack, start: Position) -> None:
    assert check_payment(pack, start, "el_agheila", "axis", 2, {"el_agheila": 1, "sirte": 1}, rule="18").ok
    for payment in ({"el_agheila": 1}, {"el_agheila": 3}, {"el_agheila": 2, "sirte": 0}):
        verdict = check_payment(pack, start, "el_agheila", "axis", 2, payment, rule="18")
        assert (verdict.ok, verdict.rule, verdict.reason) == (False, "18", "supply-amount")
    far = check_payment(pack, start, "el_agheila", "axis", 1, {"tripoli": 1}, rule="18")
    assert (far.rule, far.reason) == ("18", "supply-out-of-reach")
    enemy = check_payment(pack, start, "el_agheila", "axis", 1, {"benghazi": 1}, rule="18")
    assert enemy.reason == "supply-out-of-reach"
    short = check_payment(pack, start, "el_agheila", "axis", 2, {"sirte": 2}, rule="18")
    assert (short.rule, short.reason) == ("18", "supply-short")


@pytest.mark.rule("18")
def test_p18_no_supply_may_be_spent_when_none_is_due(pack: AxisAlliesPack, start: Position) -> None:
    verdict = check_payment(pack, start, "el_agheila", "axis", 0, {"el_agheila": 1}, rule="18")
    assert (verdict.rule, verdict.reason) == ("18", "supply-amount")
    assert check_payment(pack, start, "el_agheila", "axis", 0, {}, rule="18").ok


@pytest.mark.rule("20")
def test_p20_defence_costs_one_token_whatever_the_numbers(pack: AxisAlliesPack, start: Position) -> None:
    assert pack.limit("defense_supply") == 1
    assert defense_supply_due(pack, start, "el_agheila", "axis") == 1
    assert defense_supply_due(pack, start, "tobruk", "allies") == 1


@pytest.mark.rule("20")
def test_p20_air_scout_and_french_defenders_need_none(pack: AxisAlliesPack, start: Position) -> None:
    assert defense_supply_due(pack, start, "jalo", "allies") == 0  # a lone scout car
    assert defense_supply_due(pack, start, "sicily", "axis") == 0  # air units
    assert defense_supply_due(pack, start, "casablanca", "axis") == 0  # Vichy French
    mixed = replace(start, pieces={**start.pieces, "jalo": {**start.pieces["jalo"], ("united_kingdom", "infantry"): 1}})
    assert defense_supply_due(pack, mixed, "jalo", "allies") == 1


@pytest.mark.rule("20")
def test_p20_defence_supply_from_the_territory_or_a_friendly_neighbour(pack: AxisAlliesPack, start: Position) -> None:
    assert check_payment(pack, start, "mersa_matruh", "allies", 1, {"tobruk": 1}, rule="20").ok
    assert check_payment(pack, start, "mersa_matruh", "allies", 1, {"cairo": 1}, rule="20").ok
    verdict = check_payment(pack, start, "mersa_matruh", "allies", 1, {"benghazi": 1}, rule="20")
    assert (verdict.rule, verdict.reason) == ("20", "supply-out-of-reach")


# --- p.18: declaring land attacks ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rlp(pack: AxisAlliesPack) -> Scenario:
    return pack.scenario("rommels_last_push")


@pytest.mark.rule("18")
def test_p18_declare_an_attack_paying_its_supply(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    attackers = {"tank": 2, "infantry": 1, "mech_infantry": 1, "anti_tank_gun": 1, "scout_car": 1}
    ok = check_land_attack(pack, rlp, start, "germany", "el_agheila", "benghazi", attackers, {"el_agheila": 1})
    assert ok.ok
    twice = check_land_attack(pack, rlp, start, "germany", "el_agheila", "benghazi", attackers, {"el_agheila": 2})
    assert (twice.rule, twice.reason) == ("18", "supply-amount")
    scouts = check_land_attack(pack, rlp, start, "germany", "el_agheila", "jalo", {"scout_car": 1}, {})
    assert scouts.ok  # scout cars alone spend nothing
    paid = check_land_attack(pack, rlp, start, "germany", "el_agheila", "jalo", {"scout_car": 1}, {"sirte": 1})
    assert paid.reason == "supply-amount"


@pytest.mark.rule("18")
def test_p18_attack_refusals(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    def reason(origin: str, target: str, attackers: dict[str, int], payment: dict[str, int]) -> tuple[str, str]:
        verdict = check_land_attack(pack, rlp, start, "germany", origin, target, attackers, payment)
        assert not verdict.ok
        return verdict.rule or "", verdict.reason

    assert reason("el_agheila", "tobruk", {"tank": 1}, {"el_agheila": 1}) == ("18", "not-adjacent")
    assert reason("el_agheila", "benghazi", {"tank": 3}, {"el_agheila": 1}) == ("18", "units-missing")
    assert reason("el_agheila", "benghazi", {"truck": 1}, {}) == ("18", "cannot-attack")
    assert reason("el_agheila", "mechili", {"tank": 1}, {}) == ("18", "not-hostile")
    assert reason("el_agheila", "sirte", {"tank": 1}, {}) == ("18", "not-hostile")
    assert reason("el_agheila", "benghazi", {}, {}) == ("18", "no-attackers")


@pytest.mark.rule("31")
def test_p31_scout_cars_may_raid_neutral_supply(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    stocked = replace(start, supply={**start.supply, "mechili": 2})
    assert check_land_attack(pack, rlp, stocked, "germany", "el_agheila", "mechili", {"scout_car": 1}, {}).ok
    tanks = check_land_attack(pack, rlp, stocked, "germany", "el_agheila", "mechili", {"tank": 1}, {})
    assert tanks.reason == "not-hostile"


@pytest.mark.rule("11")
def test_p11_only_scout_cars_attack_into_the_sahara(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    board = replace(
        start,
        pieces={
            "cairo": {("united_kingdom", "infantry"): 1, ("united_kingdom", "scout_car"): 1},
            "kharga": {("germany", "scout_car"): 1},
        },
    )
    infantry = check_land_attack(pack, rlp, board, "united_kingdom", "cairo", "kharga", {"infantry": 1}, {"cairo": 1})
    assert (infantry.rule, infantry.reason) == ("11", "sahara")
    assert check_land_attack(pack, rlp, board, "united_kingdom", "cairo", "kharga", {"scout_car": 1}, {}).ok


@pytest.mark.rule("8")
def test_p8_attackers_off_the_chart_and_unknown_places(pack: AxisAlliesPack, rlp: Scenario, start: Position) -> None:
    verdict = check_land_attack(pack, rlp, start, "germany", "el_agheila", "benghazi", {"aaa": 1}, {})
    assert (verdict.rule, verdict.reason) == ("8", "unknown-unit")  # Germany has no AAA
    assert sources(pack, start, "atlantis", "axis") == {}
    assert sources(pack, start, "sz15", "axis") == {}
    far = check_payment(pack, start, "atlantis", "axis", 1, {"atlantis": 1}, rule="18")
    assert far.reason == "supply-out-of-reach"
