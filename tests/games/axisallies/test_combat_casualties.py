"""Casualties chosen by their owner (pages 21-22, 30-33): every legal choice accepted, every illegal one refused
with its rule, the options offered piece by piece, battleships' two hits, and the worked examples of p.21-22.
"""

from __future__ import annotations

from itertools import permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games.axisallies.combat import (
    TRANSPORT,
    Battle,
    Hit,
    Piece,
    Scored,
    Units,
    apply_hits,
    attack_fire,
    casualty_options,
    casualty_pool,
    check_casualties,
    defense_fire,
    hits_assignable,
    pool_of,
    volley,
)
from pbem.games.axisallies.data import AxisAlliesPack
from tests.games.axisallies.pieces import (
    DE_AT,
    DE_BOMBER,
    DE_TANK,
    IT_DD,
    IT_SUB,
    UK_BB,
    UK_DD,
    UK_FIGHTER,
    UK_INF,
    UK_SHERMAN,
    UK_TANK,
)


def choices(pool: Units) -> list[dict[Piece, int]]:
    """Every multiset of hit points within ``pool``."""
    kinds = sorted(pool)
    return [
        {k: n for k, n in zip(kinds, counts, strict=True) if n}
        for counts in product(*(range(pool[k] + 1) for k in kinds))
    ]


def brute_legal(hits: tuple[Hit, ...], pool: Units) -> list[dict[Piece, int]]:
    """The legal choices by exhaustive search: a choice is fully assignable to distinct hits, with the most
    hits, then the most aimed hits on target, then the most escort hits (the rule, stated independently)."""
    singles = [h for h in hits for _ in range(h.count)]
    scored = []
    for chosen in choices(pool):
        units = [k for k, n in sorted(chosen.items()) for _ in range(n)]
        best_value = None
        for order in permutations(range(len(singles)), len(units)):
            if all(units[i] in singles[j].allowed for i, j in enumerate(order)):
                aimed = sum(1 for i, j in enumerate(order) if units[i] in singles[j].preferred)
                escort = sum(1 for i, j in enumerate(order) if singles[j].escorts_first and units[i] != TRANSPORT)
                if best_value is None or (aimed, escort) > best_value:
                    best_value = (aimed, escort)
        if best_value is not None:
            scored.append(((len(units), *best_value), chosen))
    top = max(value for value, _ in scored)
    return [chosen for value, chosen in scored if value == top]


def assert_exactly_legal(hits: tuple[Hit, ...], pool: Units, legal: list[dict[Piece, int]]) -> None:
    for chosen in choices(pool):
        verdict = check_casualties(hits, pool, chosen, rule="21")
        assert verdict.ok == (chosen in legal), (chosen, verdict)


# --- the rule: as many hits as possible (p.21, p.22) --------------------------------------------------------


@pytest.mark.rule("21")
def test_p21_land_hits_fall_anywhere_every_choice_of_that_many_is_legal(pack: AxisAlliesPack) -> None:
    battle = Battle("tobruk", "land", "axis", land={"derna": {DE_TANK: 3}}, defenders={UK_INF: 2, UK_TANK: 1})
    (group,) = attack_fire(pack, battle)
    hits = volley(pack, battle, [Scored(group, 2)])
    pool = casualty_pool(pack, battle, "defender")
    assert_exactly_legal(hits, pool, [{UK_INF: 2}, {UK_INF: 1, UK_TANK: 1}])
    few = check_casualties(hits, pool, {UK_INF: 1}, rule="21")
    assert (few.rule, few.reason) == ("21", "too-few-casualties")
    many = check_casualties(hits, pool, {UK_INF: 2, UK_TANK: 1}, rule="21")
    assert (many.rule, many.reason) == ("21", "too-many-casualties")
    absent = check_casualties(hits, pool, {UK_SHERMAN: 1, UK_INF: 1}, rule="21")
    assert (absent.rule, absent.reason) == ("21", "casualty-not-present")


@pytest.mark.rule("21")
def test_p21_more_hits_than_pieces_take_every_piece(pack: AxisAlliesPack) -> None:
    battle = Battle("tobruk", "land", "axis", land={"derna": {DE_TANK: 3}}, defenders={UK_INF: 1})
    (group,) = attack_fire(pack, battle)
    hits = volley(pack, battle, [Scored(group, 3)])
    pool = casualty_pool(pack, battle, "defender")
    assert hits_assignable(hits, pool) == 1
    assert_exactly_legal(hits, pool, [{UK_INF: 1}])


@pytest.mark.rule("21")
def test_p21_worked_example_submarine_hits_cannot_be_spent_on_the_fighter(pack: AxisAlliesPack) -> None:
    """p.21: "if 1 destroyer and 2 submarines are attacking a battleship and a fighter and score 3 hits, the
    defender must assign the destroyer hit to the fighter and the submarine hits to the battleship"."""
    battle = Battle("sz25", "sea", "axis", air_sea={IT_DD: 1, IT_SUB: 2}, defenders={UK_BB: 1, UK_FIGHTER: 1})
    groups = {g.type: g for g in attack_fire(pack, battle)}
    hits = volley(pack, battle, [Scored(groups["destroyer"], 1), Scored(groups["submarine"], 2)])
    pool = casualty_pool(pack, battle, "defender")
    assert pool == {UK_BB: 2, UK_FIGHTER: 1}
    assert_exactly_legal(hits, pool, [{UK_BB: 2, UK_FIGHTER: 1}])
    refused = check_casualties(hits, pool, {UK_BB: 2}, rule="21")
    assert (refused.rule, refused.reason) == ("21", "too-few-casualties")
    left, damaged = apply_hits(battle.defenders, {}, {UK_BB: 2, UK_FIGHTER: 1}, frozenset({UK_BB}))
    assert (left, damaged) == ({}, {})


@pytest.mark.rule("22")
def test_p22_worked_example_the_attacker_must_not_waste_the_submarine_hit(pack: AxisAlliesPack) -> None:
    """p.22: "if 1 destroyer and 1 submarine are defending against 1 destroyer and 1 fighter and the defender
    scores 2 hits, the attacker must assign the submarine hit to the destroyer and the destroyer hit to the
    fighter"."""
    battle = Battle("sz25", "sea", "allies", air_sea={UK_DD: 1, UK_FIGHTER: 1}, defenders={IT_DD: 1, IT_SUB: 1})
    groups = {g.type: g for g in defense_fire(pack, battle, battle.defenders)}
    hits = volley(pack, battle, [Scored(groups["destroyer"], 1), Scored(groups["submarine"], 1)])
    pool = casualty_pool(pack, battle, "attacker")
    assert_exactly_legal(hits, pool, [{UK_DD: 1, UK_FIGHTER: 1}])
    refused = check_casualties(hits, pool, {UK_DD: 1}, rule="22")
    assert (refused.rule, refused.reason) == ("22", "too-few-casualties")
    assert casualty_options(hits, pool, {}) == (UK_DD, UK_FIGHTER)
    assert casualty_options(hits, pool, {UK_FIGHTER: 1}) == (UK_DD,)


# --- aimed hits (p.30, p.31, p.33) ---------------------------------------------------------------------------


@pytest.mark.rule("30")
def test_p30_an_aimed_anti_tank_hit_takes_a_tank_if_possible(pack: AxisAlliesPack) -> None:
    battle = Battle(
        "tobruk",
        "land",
        "axis",
        land={"derna": {DE_AT: 1, DE_TANK: 1}},
        defenders={UK_INF: 2, UK_TANK: 1, UK_SHERMAN: 1},
    )
    at, tank = attack_fire(pack, battle)
    pool = casualty_pool(pack, battle, "defender")
    aimed = volley(pack, battle, [Scored(at, 1, {"tanks": 1}), Scored(tank, 1)])
    assert_exactly_legal(
        aimed,
        pool,
        [
            {UK_TANK: 1, UK_INF: 1},
            {UK_SHERMAN: 1, UK_INF: 1},
            {UK_TANK: 1, UK_SHERMAN: 1},
        ],
    )
    refused = check_casualties(aimed, pool, {UK_INF: 2}, rule="21")
    assert (refused.rule, refused.reason) == ("30", "aimed-hit-ignored")
    waived = volley(pack, battle, [Scored(at, 1), Scored(tank, 1)])  # the option is the firer's
    assert check_casualties(waived, pool, {UK_INF: 2}, rule="21").ok


@pytest.mark.rule("30")
def test_p30_aimed_hits_beyond_the_tanks_fall_anywhere(pack: AxisAlliesPack) -> None:
    battle = Battle("tobruk", "land", "axis", land={"derna": {DE_AT: 3}}, defenders={UK_INF: 3, UK_TANK: 1})
    (at,) = attack_fire(pack, battle)
    hits = volley(pack, battle, [Scored(at, 3, {"tanks": 3})])
    pool = casualty_pool(pack, battle, "defender")
    assert_exactly_legal(hits, pool, [{UK_TANK: 1, UK_INF: 2}])


@pytest.mark.rule("33")
def test_p33_overlapping_aims_are_all_met_when_they_can_be(pack: AxisAlliesPack) -> None:
    """A bomber names the type ``tank`` and an anti-tank gun aims at any tank: both aims are met, so both tanks
    go (the Matilda and the Sherman are both of the type tank, p.30), not a tank and the infantry."""
    battle = Battle(
        "tobruk",
        "land",
        "axis",
        land={"derna": {DE_AT: 1}},
        air_sea={DE_BOMBER: 1},
        defenders={UK_INF: 1, UK_TANK: 1, UK_SHERMAN: 1},
    )
    at, bomber = attack_fire(pack, battle)
    hits = volley(pack, battle, [Scored(at, 1, {"tanks": 1}), Scored(bomber, 1, {"tank": 1})])
    pool = casualty_pool(pack, battle, "defender")
    assert_exactly_legal(hits, pool, [{UK_TANK: 1, UK_SHERMAN: 1}])
    assert casualty_options(hits, pool, {}) == (UK_SHERMAN, UK_TANK)


# --- battleships (p.33) --------------------------------------------------------------------------------------


@pytest.mark.rule("33")
def test_p33_a_battleship_takes_two_hits_and_a_damaged_one_only_one(pack: AxisAlliesPack) -> None:
    two_hit = frozenset({UK_BB})
    assert pool_of({UK_BB: 2}, {UK_BB: 1}, two_hit) == {UK_BB: 3}
    assert apply_hits({UK_BB: 1}, {}, {UK_BB: 1}, two_hit) == ({UK_BB: 1}, {UK_BB: 1})
    assert apply_hits({UK_BB: 1}, {UK_BB: 1}, {UK_BB: 1}, two_hit) == ({}, {})
    # RULING: a hit damages the intact battleship before it sinks the damaged one
    assert apply_hits({UK_BB: 2}, {UK_BB: 1}, {UK_BB: 1}, two_hit) == ({UK_BB: 2}, {UK_BB: 2})
    assert apply_hits({UK_BB: 2}, {UK_BB: 1}, {UK_BB: 2}, two_hit) == ({UK_BB: 1}, {UK_BB: 1})


# --- the solver against an exhaustive search -----------------------------------------------------------------

PIECES = (UK_INF, UK_TANK, UK_FIGHTER, TRANSPORT)


@st.composite
def problems(draw: st.DrawFn) -> tuple[tuple[Hit, ...], dict[Piece, int]]:
    pool = {k: draw(st.integers(0, 2)) for k in PIECES}
    pool = {k: n for k, n in pool.items() if n}
    hits = []
    for _ in range(draw(st.integers(1, 3))):
        allowed = frozenset(draw(st.sets(st.sampled_from(PIECES), min_size=1)))
        preferred = frozenset(draw(st.sets(st.sampled_from(sorted(allowed)))))
        hits.append(Hit(draw(st.integers(1, 2)), allowed, preferred, draw(st.booleans())))
    return tuple(hits), pool


@pytest.mark.rule("21")
@settings(max_examples=60, deadline=None)
@given(problems())
def test_p21_the_choice_rules_match_an_exhaustive_search(problem: tuple[tuple[Hit, ...], dict[Piece, int]]) -> None:
    hits, pool = problem
    legal = brute_legal(hits, pool)
    assert_exactly_legal(hits, pool, legal)
    # the options offered piece by piece reach exactly the legal choices
    reached: list[dict[Piece, int]] = []
    frontier: list[dict[Piece, int]] = [{}]
    while frontier:
        chosen = frontier.pop()
        options = casualty_options(hits, pool, chosen)
        if not options and check_casualties(hits, pool, chosen, rule="21").ok and chosen not in reached:
            reached.append(chosen)
        frontier += [{**chosen, k: chosen.get(k, 0) + 1} for k in options]
    assert sorted(map(sorted, (c.items() for c in reached))) == sorted(map(sorted, (c.items() for c in legal)))


@pytest.mark.rule("31")
def test_p31_an_ignored_scout_car_aim_cites_page_31(pack: AxisAlliesPack) -> None:
    scout: Piece = ("germany", "scout_car")
    battle = Battle("tobruk", "land", "axis", land={"derna": {scout: 1}}, defenders={UK_INF: 1, UK_FIGHTER: 1})
    (group,) = attack_fire(pack, battle)
    hits = volley(pack, battle, [Scored(group, 1, {"air": 1})])
    pool = casualty_pool(pack, battle, "defender")
    refused = check_casualties(hits, pool, {UK_INF: 1}, rule="21")
    assert (refused.rule, refused.reason) == ("31", "aimed-hit-ignored")
    assert check_casualties(hits, pool, {UK_FIGHTER: 1}, rule="21").ok


@pytest.mark.rule("33")
def test_p33_an_ignored_bomber_aim_cites_page_33(pack: AxisAlliesPack) -> None:
    battle = Battle("tobruk", "land", "axis", air_sea={DE_BOMBER: 1}, defenders={UK_INF: 1, UK_TANK: 1})
    (group,) = attack_fire(pack, battle)
    hits = volley(pack, battle, [Scored(group, 1, {"tank": 1})])
    refused = check_casualties(hits, casualty_pool(pack, battle, "defender"), {UK_INF: 1}, rule="21")
    assert (refused.rule, refused.reason) == ("33", "aimed-hit-ignored")
