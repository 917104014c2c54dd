"""Retreat paths on the real Gazala map (§7.5.2.2, §7.5.2.3): the hexes a retreat may not enter, EZOCs only in a
Forced Retreat with nothing else open, and "towards" the friendly edge or Major source."""

from __future__ import annotations

import pytest

from pbem.games.gazala.data import GazalaPack
from pbem.games.gazala.retreat import home_distance, retreat_options, retreat_step
from pbem.kit.hexes import HexId
from tests.games.gazala.board_helpers import at


@pytest.mark.rule("7.5.2.2")
def test_r7_5_2_2_hexes_a_retreat_may_not_enter(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "1022", "150-bde": "1121", "104": "2623", "115": "2709"}, {"50div-hq": "0821"})
    cases = {
        ("1022", "1120"): "impassable",  # not a neighbour
        ("1022", "1121"): "enemy-occupied",
        ("1022", "0921"): "enemy-hq-adjacent",  # next to the lone 50 Div HQ in 0821
        ("0921", "0821"): "enemy-occupied",  # a hex held by an HQ alone
        ("2623", "2622"): "enemy-minefield",
        ("2709", "2710"): "ridge",
    }
    for (here, there), why in cases.items():
        verdict = retreat_step(sit, "axis", HexId(here), HexId(there))
        assert (verdict.rule, verdict.reason) == ("7.5.2.2", why), (here, there)
    tobruk = at(gazala, {"i-8": "4404"})
    assert retreat_step(tobruk, "axis", HexId("4404"), HexId("4403")).reason == "impassable"  # the sea hexside
    road = at(gazala, {"i-8": "2814"})
    assert retreat_step(road, "axis", HexId("2814"), HexId("2815")).ok  # a Ridge crossed by a Trail


@pytest.mark.rule("7.5.2.2")
def test_r7_5_2_2_towards_the_friendly_edge_and_never_into_an_ezoc(gazala: GazalaPack) -> None:
    sit = at(gazala, {"i-8": "1022", "150-bde": "1224"})
    assert home_distance(sit, "axis", HexId("1022")) == 9  # column 10 to the west edge, column 01
    options = retreat_options(sit, "axis", HexId("1022"), forced=False)
    assert options[0].home < home_distance(sit, "axis", HexId("1022"))
    assert not any(o.ezoc for o in options)
    assert not {o.hex for o in options} & sit.zones["cw"]
    assert home_distance(sit, "cw", HexId("5208")) == 0  # a Commonwealth Major source on the east edge


@pytest.mark.rule("7.5.2.3")
def test_r7_5_2_3_a_forced_retreat_enters_an_ezoc_only_when_nothing_else_is_open(gazala: GazalaPack) -> None:
    # I/8 at 1022 with Commonwealth units two hexes off all round: every neighbour is in an EZOC
    ring = {"150-bde": "1020", "151-bde": "1024", "69-bde": "0821", "6sa-bde": "0823", "4sa-bde": "1221"}
    sit = at(gazala, {"i-8": "1022", **ring, "1sa-bde": "1223"})
    neighbours = set(sit.board.grid.neighbours(HexId("1022")))
    assert neighbours <= sit.zones["cw"]
    assert retreat_options(sit, "axis", HexId("1022"), forced=False) == ()
    forced = retreat_options(sit, "axis", HexId("1022"), forced=True)
    assert forced and all(o.ezoc for o in forced)
