"""Rommel's look: the hex map from the pack, blocks concealed for those who may not see them (§2 introduction),
and prompt labels that never reveal a hidden identity."""

from __future__ import annotations

import pytest

from pbem.games.rommel.present import RommelLook
from pbem.report.svg import MapRenderer
from pbem.rules.contract import OBSERVER
from tests.games.rommel.rules_driver import R, Table


@pytest.mark.rule("2.1")
def test_blocks_are_concealed_for_the_enemy_and_face_up_for_their_owner() -> None:
    table = Table("demo-1940")
    table.set_up()
    look = R.presentation(table.state.pack)
    assert isinstance(look, RommelLook)
    spec = look.map_spec()
    assert {h.id for h in table.state.pack.map.hexes} <= {r.id for r in spec.regions}
    allied = R.view(table.state, "allied")
    axis_block = next(u for u in allied.units if u.id == "axis-01")
    assert look.face(axis_block).concealed
    own = next(u for u in R.view(table.state, "axis").units if u.id == "axis-01")
    face = look.face(own)
    assert not face.concealed and face.value == str(own.strength)
    svg = MapRenderer(look).render(R.view(table.state, OBSERVER))
    assert svg.startswith("<svg") and "it-art" not in svg


def test_labels_name_places_and_blocks_without_identities() -> None:
    table = Table("demo-1940")
    table.set_up()
    assert R.label(table.state, "to", "1506") == "1506 (Sidi Omar)"
    assert R.label(table.state, "token", "axis-07") == "Axis block 07 at 1506 (Sidi Omar)"
    tree = R.choices(table.state, "axis")
    assert tree.options and all("it-" not in o.label for o in tree.options)
