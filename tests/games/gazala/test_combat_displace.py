"""Retreats after combat and displacements (§7.5.2.2, §7.5.2.3, §5.3.1-§5.3.3) on the real map."""

from __future__ import annotations

import itertools

import pytest

from pbem.games.gazala.combat_displace import (
    Displacement,
    RetreatPath,
    can_retreat,
    check_displacement,
    check_retreat_path,
    displacement_options,
    hq_displacement_options,
    overstacked,
    retreat_paths,
)
from pbem.games.gazala.data import GazalaPack
from pbem.games.gazala.retreat import home_distance
from pbem.kit.hexes import HexId
from tests.games.gazala.board_helpers import at

CW = ("3rtr-4", "7mot")
EXAMPLE = {"3rtr-4": "2707", "7mot": "2707", "104": "2607", "3": "2607", "18-flak": "2607", "i-5": "2708"}
H = HexId


def _paths(gazala: GazalaPack, units: dict[str, str], hexes: int, *, forced: bool) -> tuple[RetreatPath, ...]:
    return retreat_paths(gazala, at(gazala, units), "cw", H("2707"), CW, hexes, forced=forced)


@pytest.mark.rule("7.5.2.2")
def test_r7_5_2_2_combat_example_retreat(gazala: GazalaPack) -> None:
    """3 RTR/4 and 7th Inf Bde retreat one hex towards home: 2807 (2808 is in I./5's zone); no extra loss."""
    paths = _paths(gazala, EXAMPLE, 1, forced=True)
    assert paths == (RetreatPath((H("2807"),), 0, (), ()),)
    assert paths[0].losses(gazala) == 0
    assert [p.hexes for p in _paths(gazala, EXAMPLE, 2, forced=False)] == [
        (H("2807"), H("2906")),
        (H("2807"), H("2907")),
    ]


@pytest.mark.rule("7.5.2.2")
def test_r7_5_2_2_every_hex_goes_home(gazala: GazalaPack) -> None:
    """The Axis defender retreats west, each hex nearer its edge or Major source (notes B5)."""
    sit = at(gazala, EXAMPLE)
    paths = retreat_paths(gazala, sit, "axis", H("2607"), ("104", "3", "18-flak"), 2, forced=False)
    assert {p.hexes[0] for p in paths} == {H("2506"), H("2507")}
    assert all(int(p.hexes[-1][:2]) == 24 for p in paths)


@pytest.mark.rule("7.5.2.3")
def test_r7_5_2_3_forced_retreat_into_an_ezoc(gazala: GazalaPack) -> None:
    """With every homeward hex in an EZOC, a Voluntary Retreat is closed; a Forced Retreat enters the EZOC and each
    unit loses one Strength Point."""
    units = {**EXAMPLE, "ii-8": "2906"}  # II./8's zone covers 2807 too
    assert not can_retreat(gazala, at(gazala, units), "cw", H("2707"), CW, 1)
    forced = _paths(gazala, units, 1, forced=True)
    assert {p.hexes for p in forced} == {(H("2807"),), (H("2808"),)}
    assert all(p.losses(gazala) == gazala.number("forced_retreat_ezoc_loss") == 1 for p in forced)


@pytest.mark.rule("7.5.2.3")
def test_r7_5_2_3_a_blocked_forced_retreat_costs_two_per_hex(gazala: GazalaPack) -> None:
    units = {**EXAMPLE, "ii-8": "2807", "i-8": "2808"}  # both homeward hexes enemy-occupied
    one = _paths(gazala, units, 1, forced=True)
    assert one == (RetreatPath((), 1, (), ()),) and one[0].losses(gazala) == 2
    assert _paths(gazala, units, 2, forced=True)[0].losses(gazala) == 4
    assert _paths(gazala, units, 1, forced=False) == ()


@pytest.mark.rule("7.5.2.3")
def test_r7_5_2_3_retreat_example_ridges_all_round(gazala: GazalaPack) -> None:
    """ "Failed Forced Retreat (Ridges)": a stack whose homeward hexsides are all Ridges cannot retreat; each unit
    loses 2 Strength Points per hex it could not enter. A Voluntary Retreat is not possible there."""
    sit = at(gazala, {"104": "1609", "3": "1609"})
    paths = retreat_paths(gazala, sit, "axis", H("1609"), ("104", "3"), 1, forced=True)
    assert paths == (RetreatPath((), 1, (), ()),) and paths[0].losses(gazala) == 2
    assert not can_retreat(gazala, sit, "axis", H("1609"), ("104", "3"), 1)


@pytest.mark.rule("7.5.2.2")
def test_r7_5_2_2_overstacking_is_avoided_then_costs(gazala: GazalaPack) -> None:
    """Avoiding extra losses takes precedence: a full hex is entered only when nothing better is open, and then
    each retreating unit loses a Strength Point."""
    full_2808 = {"3rtr-4": "2707", "7mot": "2707", "104": "2607", "8h-4": "2808", "5rtr-4": "2808"}
    assert [p.hexes for p in _paths(gazala, full_2808, 1, forced=False)] == [(H("2807"),)]
    full_2807 = {**EXAMPLE, "8h-4": "2807", "5rtr-4": "2807"}  # 2808 is in I./5's zone
    voluntary = _paths(gazala, full_2807, 1, forced=False)
    assert voluntary == (RetreatPath((H("2807"),), 0, (), (H("2807"),)),)
    assert voluntary[0].losses(gazala) == gazala.number("retreat_overstack_loss") == 1
    forced = _paths(gazala, full_2807, 1, forced=True)  # an EZOC or an overstack: one loss either way
    assert {p.hexes for p in forced} == {(H("2807"),), (H("2808"),)}


@pytest.mark.rule("7.5.2.2")
def test_r7_5_2_2_check_retreat_path(gazala: GazalaPack) -> None:
    sit = at(gazala, EXAMPLE)
    assert check_retreat_path(gazala, sit, "cw", H("2707"), CW, 1, [H("2807")], forced=True).ok
    refused = check_retreat_path(gazala, sit, "cw", H("2707"), CW, 1, [H("2808")], forced=True)
    assert (refused.rule, refused.reason) == ("7.5.2.2", "retreat-path")
    assert "2808" in refused.message
    backwards = check_retreat_path(gazala, sit, "cw", H("2707"), CW, 2, [H("2807"), H("2806")], forced=False)
    assert backwards.reason == "retreat-path" and "2806" in backwards.message
    short = check_retreat_path(gazala, sit, "cw", H("2707"), CW, 2, [H("2807")], forced=False)
    assert short.reason == "retreat-path"


# --- displacement ---------------------------------------------------------------------------------------------------


@pytest.mark.rule("5.3.3")
def test_r5_3_3_the_opponent_displaces_into_open_hexes_first(gazala: GazalaPack) -> None:
    units = {"3rtr-4": "2807", "7mot": "2807", "8h-4": "2807", "104": "2707", "5rtr-4": "2906", "6rtr": "2906"}
    sit = at(gazala, units)
    assert overstacked(gazala, sit, "cw", H("2807"))
    options = displacement_options(gazala, sit, "cw", H("2807"))
    assert {d.unit for d in options} == {"3rtr-4", "7mot", "8h-4"}
    assert {d.to for d in options} == {H("2806"), H("2907"), H("2808"), H("2706")}  # not 2707 (enemy), not 2906 (full)
    assert check_displacement(gazala, sit, "cw", H("2807"), Displacement("8h-4", H("2907"))).ok
    refused = check_displacement(gazala, sit, "cw", H("2807"), Displacement("8h-4", H("2906")))
    assert (refused.rule, refused.reason) == ("5.3.3", "displace-to")
    assert check_displacement(gazala, sit, "cw", H("2807"), Displacement("104", H("2907"))).reason == "displace-unit"
    calm = at(gazala, {"3rtr-4": "2807"})
    assert displacement_options(gazala, calm, "cw", H("2807")) == ()
    assert check_displacement(gazala, calm, "cw", H("2807"), Displacement("3rtr-4", H("2907"))).reason == (
        "not-overstacked"
    )


@pytest.mark.rule("5.3.3")
def test_r5_3_3_full_hexes_when_nothing_else_and_elimination(gazala: GazalaPack) -> None:
    ring = {"104": "2806", "i-5": "2707", "ii-8": "2808", "i-8": "2706"}  # Axis all round but 2906 and 2907
    units = {"3rtr-4": "2807", "7mot": "2807", "8h-4": "2807", "5rtr-4": "2906", "6rtr": "2906", "9l-2": "2907"}
    units |= {"10h-2": "2907", **ring}
    sit = at(gazala, units)
    assert {d.to for d in displacement_options(gazala, sit, "cw", H("2807"))} == {H("2906"), H("2907")}
    trapped = at(gazala, {"3rtr-4": "2807", "7mot": "2807", "8h-4": "2807", **ring, "27": "2906", "3": "2907"})
    options = displacement_options(gazala, trapped, "cw", H("2807"))
    assert set(options) == {Displacement(u, None) for u in ("3rtr-4", "7mot", "8h-4")}


@pytest.mark.rule("5.3.2")
def test_r5_3_2_hq_displacement(gazala: GazalaPack) -> None:
    units = {"3rtr-4": "2907", "7mot": "2807"}
    assert hq_displacement_options(at(gazala, units, {"7armd-hq": "2707"}), "7armd-hq") == (H("2807"),)
    busy = at(gazala, units, {"7armd-hq": "2707", "1armd-hq": "2807"})
    assert hq_displacement_options(busy, "7armd-hq") == (H("2907"),)  # not onto another HQ
    mine = next(m for m in gazala.minefields if m.owner == "cw")
    mined = at(gazala, {"3rtr-4": mine.hex}, {"7armd-hq": "2707"})
    around = hq_displacement_options(mined, "7armd-hq")
    assert around and H(mine.hex) not in around
    assert all(mined.board.grid.distance(H(mine.hex), h) == 1 for h in around)
    assert hq_displacement_options(at(gazala, {}, {"7armd-hq": "2707"}), "7armd-hq") == ()


@pytest.mark.rule("5.3.3")
def test_r5_3_3_displacing_until_the_limits_are_met(gazala: GazalaPack) -> None:
    """One displacement at a time: once the hex meets the limits, nothing more may be displaced."""
    units = {"3rtr-4": "2807", "7mot": "2807", "8h-4": "2807"}
    sit = at(gazala, units)
    move = displacement_options(gazala, sit, "cw", H("2807"))[0]
    assert move.to is not None
    after = at(gazala, {**units, move.unit: move.to})
    assert not overstacked(gazala, after, "cw", H("2807"))
    assert displacement_options(gazala, after, "cw", H("2807")) == ()


@pytest.mark.rule("7.5.2.2")
def test_r7_5_2_2_retreat_paths_are_homeward_and_accepted(gazala: GazalaPack) -> None:
    """Sweep over a band of the map: every enumerated path steps to an adjacent hex nearer home each time, avoids
    EZOCs when voluntary, and is accepted by the check."""
    sit = at(gazala, {"104": "2607", "i-5": "2708", "7mot": "3010", "69-bde": "2204"})
    grid = sit.board.grid
    zone = sit.enemy_zone("cw")
    checked = 0
    for col in range(20, 34, 3):
        for row in range(4, 16, 3):
            start = H(f"{col:02d}{row:02d}")
            if start not in grid or start in sit.occupied["axis"]:
                continue
            for forced in (False, True):
                for path in retreat_paths(gazala, sit, "cw", start, ("3rtr-4",), 2, forced=forced):
                    hexes = (start, *path.hexes)
                    for a, b in itertools.pairwise(hexes):
                        assert grid.distance(a, b) == 1
                        assert home_distance(sit, "cw", b) < home_distance(sit, "cw", a)
                    assert forced or not any(h in zone for h in path.hexes)
                    assert check_retreat_path(gazala, sit, "cw", start, ("3rtr-4",), 2, path.hexes, forced=forced).ok
                    checked += 1
    assert checked > 20
