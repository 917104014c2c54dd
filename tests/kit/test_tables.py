"""pbem.kit.tables: terms and totals, die-roll ranges, CRT lookups with exact odds, shifts and clamping."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.errors import DataPackError
from pbem.kit.datapack import PackModel, load_pack
from pbem.kit.tables import (
    ABOVE,
    BELOW,
    CombatTable,
    RangeTable,
    Term,
    Total,
    odds,
    parse_range,
)

CRT_JSON = {
    "id": "crt",
    "rule": "7.5",
    "kind": "odds",
    "columns": ["1:2", "1:1", "3:2", "2:1", "3:1"],
    "rows": [
        {"rolls": "1-2", "results": ["AE", "AR", "AR", "EX", "DR"]},
        {"rolls": "3-4", "results": ["AR", "AR", "EX", "DR", "DE"]},
        {"rolls": "5-6", "results": ["AR", "EX", "DR", "DE", "DE"]},
    ],
    "below": "AE",
}


class Pack(PackModel):
    """A game's pack embeds the kit's table models; the results' type is the game's."""

    crt: CombatTable[str]
    fire: CombatTable[int]
    morale: RangeTable[str]


FIRE_JSON = {
    "id": "fire",
    "rule": "9.4",
    "kind": "threshold",
    "columns": ["1", "3", "5", "8"],
    "rows": [
        {"rolls": "1-3", "results": [0, 0, 1, 1]},
        {"rolls": "4-5", "results": [0, 1, 1, 2]},
        {"rolls": "6", "results": [1, 1, 2, 3]},
    ],
}
MORALE_JSON = {
    "id": "morale",
    "rule": "12.1",
    "rows": [{"rolls": "1-4", "result": "holds"}, {"rolls": "5-6", "result": "breaks"}],
}


def pack(**changes: object) -> Pack:
    raw = {"crt": CRT_JSON, "fire": FIRE_JSON, "morale": MORALE_JSON, **changes}
    return load_pack(json.dumps(raw).encode(), Pack, game="demo")


def test_terms_sum_and_describe_themselves() -> None:
    total = Total.of([Term(label="lead 2/RTR", value=5, rule="11.4.2"), Term(label="terrain", value=-1, rule="3.1.3")])
    assert total.value == 4 and total.describe() == "lead 2/RTR 5; -1 terrain"
    assert Total.of([]).describe() == "0" and Total.of([]).value == 0
    record = total.model_dump(mode="json")
    assert record["terms"][1] == {"label": "terrain", "value": -1, "rule": "3.1.3"}

    class Modifier(PackModel):
        id: str
        value: int
        rule: str

    assert Term.of(Modifier(id="additional_unit", value=1, rule="11.4.2B"), "additional units", 2).value == 2


def test_die_ranges_parse_and_look_up() -> None:
    assert parse_range("1-4") == (1, 4) and parse_range("6") == (6, 6) and parse_range("-2--1") == (-2, -1)
    for bad in ("4-1", "x", "1-"):
        with pytest.raises(ValueError):
            parse_range(bad)
    morale = pack().morale
    assert [morale.lookup(r) for r in (0, 1, 4, 5, 9)] == ["holds", "holds", "holds", "breaks", "breaks"]
    strict = RangeTable[str].model_validate_json(json.dumps({**MORALE_JSON, "clamp": False}))
    with pytest.raises(ValueError):
        strict.lookup(7)


def test_odds_columns_round_in_the_defenders_favour_unless_told() -> None:
    crt = pack().crt
    assert odds("3:2") == (3, 2)
    assert [crt.columns[crt.odds_column(a, d)] for a, d in ((7, 3), (3, 2), (8, 6), (5, 5), (30, 1))] == [
        "2:1",
        "3:2",
        "1:1",
        "1:1",
        "3:1",
    ]
    assert crt.odds_column(1, 3) == -1  # below 1:2
    assert crt.columns[crt.odds_column(7, 3, favour="attacker")] == "3:1"
    assert crt.columns[crt.odds_column(1, 3, favour="attacker")] == "1:2"
    assert crt.columns[crt.odds_column(4, 0)] == "3:1"


def test_a_lookup_records_column_shift_roll_and_result() -> None:
    crt = pack().crt
    found = crt.resolve(7, 3, roll=4, shift=1)
    assert (found.base, found.shift, found.applied, found.column, found.rows, found.result) == (
        "2:1",
        1,
        1,
        "3:1",
        "3-4",
        "DE",
    )
    edge = crt.resolve(7, 3, roll=4, shift=3)
    assert (edge.applied, edge.column) == (1, "3:1")  # shifts stop at the edge
    left = crt.resolve(4, 5, roll=1, shift=-5)
    assert (left.base, left.applied, left.column, left.result) == ("1:2", 0, "1:2", "AE")
    below = crt.resolve(1, 3, roll=6, shift=2)
    assert (below.base, below.applied, below.column, below.result) == (BELOW, 0, BELOW, "AE")  # Gazala-style
    clamped = crt.resolve(3, 2, roll=9)
    assert clamped.rows == "5-6" and clamped.roll == 9
    assert found.model_dump(mode="json")["result"] == "DE"


def test_a_table_without_a_below_result_clamps_to_its_edge() -> None:
    crt = pack(crt={**CRT_JSON, "below": None, "above": "DE"}).crt
    low = crt.resolve(1, 9, roll=1)
    assert (low.base, low.column, low.result) == (BELOW, "1:2", "AE")
    high = crt.lookup(len(crt.columns), roll=1)
    assert (high.base, high.result) == (ABOVE, "DE")


def test_threshold_and_named_columns() -> None:
    fire = pack().fire
    assert [fire.columns[fire.value_column(v)] for v in (1, 2, 4, 7, 12)] == ["1", "1", "3", "5", "8"]
    assert fire.value_column(0) == -1
    assert fire.lookup(fire.value_column(6), 6).result == 2
    differential = fire.resolve(9, 4, roll=4, shift=-1)  # +5 is the "5" column, shifted one left
    assert (differential.base, differential.column, differential.result) == ("5", "3", 1)
    named = CombatTable[int].model_validate_json(
        json.dumps(
            {
                "id": "chit",
                "rule": "7.5.1",
                "kind": "named",
                "columns": ["hasty", "regular"],
                "rows": [{"rolls": "1-10", "results": [1, 2]}],
            }
        )
    )
    assert named.lookup(named.named_column("regular"), 3).result == 2
    with pytest.raises(ValueError):
        named.named_column("prepared")
    with pytest.raises(ValueError):
        named.value_column(3)
    with pytest.raises(ValueError):
        named.resolve(3, 1, roll=2)
    with pytest.raises(ValueError):
        fire.odds_column(1, 1)


@pytest.mark.parametrize(
    "crt",
    [
        {**CRT_JSON, "columns": ["1:1", "1:2", "3:2", "2:1", "3:1"]},  # odds out of order
        {**CRT_JSON, "columns": ["1:2", "1:1", "3:2", "2:1", "2:1"]},  # twice
        {**CRT_JSON, "columns": ["1:2", "1:1", "3:2", "2:1", "three"]},
        {**CRT_JSON, "rows": [{"rolls": "1-2", "results": ["AE"]}]},  # too few results
        {**CRT_JSON, "rows": [{"rolls": "1-2", "results": ["AE"] * 5}, {"rolls": "4-6", "results": ["AE"] * 5}]},  # gap
        {**CRT_JSON, "rows": [{"rolls": "3-2", "results": ["AE"] * 5}]},
        {**CRT_JSON, "kind": "threshold", "columns": ["3", "1", "5", "8", "9"]},
    ],
)
def test_a_pack_with_a_malformed_table_is_refused_with_r006(crt: dict[str, object]) -> None:
    with pytest.raises(DataPackError) as caught:
        pack(crt=crt)
    assert caught.value.code.id == "R006"


@given(st.integers(0, 60), st.integers(1, 60))
def test_odds_columns_are_exact(attack: int, defence: int) -> None:
    crt = pack().crt
    ratios = [Fraction(*odds(c)) for c in crt.columns]
    actual = Fraction(attack, defence)
    down = crt.odds_column(attack, defence)
    assert down == max((i for i, r in enumerate(ratios) if r <= actual), default=-1)
    up = crt.odds_column(attack, defence, favour="attacker")
    assert up == min((i for i, r in enumerate(ratios) if r >= actual), default=len(ratios) - 1)


def test_a_crt_per_terrain_row_is_a_mapping_of_tables() -> None:
    """Gazala's CRT is read [terrain][column][roll]: one table per terrain in the pack."""

    class Crts(PackModel):
        crt: dict[str, CombatTable[str]]

    raw = json.dumps({"crt": {"clear": CRT_JSON, "hill": {**CRT_JSON, "id": "crt-hill", "below": None}}}).encode()
    crts = load_pack(raw, Crts, game="demo").crt
    assert crts["clear"].resolve(1, 3, roll=1).result == "AE" and crts["hill"].resolve(1, 3, roll=6).result == "AR"
