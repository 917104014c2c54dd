"""Rommel's look: the hex map from the pack, blocks concealed for those who may not see them (§2 introduction),
and prompt labels that never reveal a hidden identity."""

from __future__ import annotations

import pytest

from pbem.games.rommel.mapspec import block_name
from pbem.games.rommel.present import RommelLook
from pbem.games.rommel.state import cv_slot, unit_slot
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


@pytest.mark.rule("2.1")
def test_labels_name_places_and_blocks_and_identities_only_where_the_state_knows_them() -> None:
    """The owner's own replay knows its blocks, so its prompts name them (a player picks "5 Pz (21 Pz), CV 3", not
    "block 07"); a replay that does not know a block (the opponent's) names it by side, number and hex only."""
    table = Table("demo-1940")
    table.set_up()
    state = table.state
    assert R.label(state, "to", "1506") == "1506 (Sidi Omar)"
    slot = state.hidden[unit_slot("axis-07")]
    block = state.pack.block(slot.value)
    own = R.label(state, "token", "axis-07")
    assert own.startswith("Axis block 07: ") and block_name(block) in own and own.endswith(" at 1506 (Sidi Omar)")
    assert f"CV {state.hidden[cv_slot('axis-07')].value}" in own
    unseen = state.with_hidden(unit_slot("axis-07"), slot.owner, None, known=False)
    unseen = unseen.with_hidden(cv_slot("axis-07"), slot.owner, None, known=False)
    assert R.label(unseen, "token", "axis-07") == "Axis block 07 at 1506 (Sidi Omar)"
    tree = R.choices(state, "axis")
    assert tree.options and all("it-" not in o.label for o in tree.options)
