"""Gazala's presentation: the renderer's hex grid is the kit's map, counters show their values, markers and stages."""

from __future__ import annotations

from pbem.games.gazala.board import board_of
from pbem.games.gazala.mapspec import hex_grid
from pbem.games.gazala.ruleset import RULESET
from pbem.kit.hexes import HexId
from pbem.report.svg import MapRenderer
from pbem.rules.contract import OBSERVER
from tests.games.gazala.gazala_play import PACK, start


def test_the_drawn_grid_has_the_kits_topology() -> None:
    grid = hex_grid(PACK)
    kit = board_of(PACK).grid
    assert grid.layout == kit.layout
    spec = RULESET.presentation(PACK).map_spec()
    assert len(spec.regions) == len(kit.hexes)
    for hex_id in ("2521", "2622", "4303"):
        col, row = int(hex_id[:2]), int(hex_id[2:])
        drawn = {grid.hex_id(c, r) for c, r in grid.neighbors(col, row)} - set(PACK.map.missing)
        assert drawn == set(kit.neighbours(HexId(hex_id)))
    assert any(e.kind == "ridge" for e in spec.edges) and spec.paths


def test_counters_markers_and_stage() -> None:
    state = start("bir-hacheim").model_copy(update={"breached": ("2622",), "improved": ("2723",)})
    look = RULESET.presentation(PACK)
    view = RULESET.view(state, OBSERVER)
    faces = {u.id: look.face(u) for u in view.units}
    unit = PACK.unit("8-bers")
    assert faces["8-bers"].value.startswith(f"{unit.cs}-{unit.eff.front}-")
    assert faces["ariete-hq"].symbol == "hq"
    assert {m.text for m in look.markers(view)} == {"Breached", "Improved Defence"}
    assert look.stage(view) == "Ops Phase" and look.period_title("turn-2") == "Game Turn 2"


def test_the_renderer_draws_the_board_with_its_counters() -> None:
    view = RULESET.view(start("opening-phase"), OBSERVER)
    svg = MapRenderer(RULESET.presentation(PACK)).render(view, legend=True)
    assert svg.startswith("<svg") and "Bir Hacheim" in svg and "Improved" not in svg


def test_prompts_name_units_with_their_formation_and_hqs_by_name_never_by_id() -> None:
    state = start("opening-phase")
    assert RULESET.label(state, "unit", "115") == "115 (15. Panzer-Division)"  # "115" alone repeats across armies
    assert RULESET.label(state, "unit", "recam") == "RECAM"  # an independent unit has no formation to name
    assert RULESET.label(state, "hq", "15pz-hq") == "15. Pz HQ"
