"""What players read of a Gazala game (issue 13, Play and reports): losses counted from the view's steps, the winner
of every combat, names instead of ids in the Ops Phase's events, whose die an Action Point roll is, and how a Box
hex is described."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from pbem.games.gazala import victory
from pbem.games.gazala.mapspec import map_spec, piece_name, side_name
from pbem.games.gazala.ruleset import RULESET
from pbem.log.store import read_log
from pbem.report.chronicle import Chronicle, chronicle
from pbem.report.context import aar_context
from pbem.report.documents import after_action_report
from pbem.rules.contract import OBSERVER, OMNISCIENT, Event
from tests.chromium import chromium, needs_chromium
from tests.games.gazala.gazala_play import PACK, act, roll, start
from tests.games.gazala.test_combat_report import _resolved
from tests.games.gazala.test_sample_games import SAMPLES, TARGET


@pytest.fixture
def solo(monkeypatch: pytest.MonkeyPatch) -> Chronicle:
    monkeypatch.setenv("PBEM_GAMES", TARGET)
    return _solo()


@cache
def _solo() -> Chronicle:
    return chronicle(read_log(SAMPLES / "bir-hacheim" / "game.jsonl")[0])


# --- 1. losses: a unit's steps are its Strength Points ---------------------------------------------------------------


@pytest.mark.rule("7.5.2.1")
def test_the_view_gives_each_units_strength_points_as_its_steps() -> None:
    state = start("bir-hacheim")
    before = {u.id: u for u in RULESET.view(state, OBSERVER).units}
    assert all(before[u].steps == c.cs for u, c in state.units.items())
    assert all(before[h].steps is None for h in state.hqs)  # an HQ is removed, never reduced (§3.3)
    hit, _ = victory.lose(state, "ff-2", 1, "7.5.2.1")
    gone, _ = victory.lose(state, "ff-2", state.units["ff-2"].cs, "7.5.2.1")
    reduced = {u.id: u for u in RULESET.view(hit, OBSERVER).units}["ff-2"]
    eliminated = {u.id: u for u in RULESET.view(gone, OBSERVER).units}["ff-2"]
    assert reduced.steps == state.units["ff-2"].cs - 1 and reduced.location == before["ff-2"].location
    assert eliminated.steps == 0 and eliminated.location is None


@pytest.mark.rule("7.5.2.1")
def test_the_aars_losses_are_the_strength_points_the_game_took(solo: Chronicle) -> None:
    lost: dict[str, int] = {}
    eliminated: dict[str, int] = {}
    for moment in solo.moments:
        for event in moment.events:
            if event.kind in ("strength_lost", "unit_eliminated"):
                side = PACK.unit(event.data["unit"]).side
                lost[side] = lost.get(side, 0) + event.data["lost"]
                eliminated[side] = eliminated.get(side, 0) + (event.kind == "unit_eliminated")
    rows = {row.side: row for row in aar_context(solo, OMNISCIENT).summary.losses}
    assert lost and all(n > 0 for n in lost.values())
    for side, steps in lost.items():
        assert (rows[side_name(side)].steps, rows[side_name(side)].eliminated) == (steps, eliminated[side])


# --- 2. how a combat ended --------------------------------------------------------------------------------------------


@pytest.mark.rule("7.5.3")
def test_the_winner_is_read_from_the_crt_cell_every_combat_carries() -> None:
    resolved, _ = _resolved()
    look = RULESET.presentation(PACK)
    bare = {k: v for k, v in resolved.data.items() if k in ("location", "result", "sides")}  # the shared contract
    for cell, winner in (("0/2!", "attack"), ("3!/1", "defense"), ("2/2!", None), ("5/0", "defense")):
        assert look.combat_outcome({**bare, "result": cell}, []).winner == winner
    gone = Event(kind="unit_eliminated", seat="axis", rule="7.5.2.1", data={"unit": "viii-132"})
    assert look.combat_outcome({**bare, "result": "0/2!"}, [gone]).winner is None


@pytest.mark.rule("7.5.3")
def test_the_sample_aar_tells_who_won_each_combat(solo: Chronicle) -> None:
    """Over both samples: which side wins the combats of one sample depends on its dice, and those change whenever
    the samples are re-made (their genesis lists every option)."""
    duel = chronicle(read_log(SAMPLES / "opening-phase" / "game.jsonl")[0])
    fights = [f for game in (solo, duel) for t in aar_context(game, OMNISCIENT).turns for f in t.fights]
    assert fights
    for fight in fights:
        sides = {f"{side_name(s)}" for s in ("axis", "cw")}
        assert fight.winner_name in sides or fight.winner is None
        attacker, defender = (int(n.rstrip("!")) for n in fight.result.split("/"))
        if attacker != defender and fight.winner is None:
            assert "eliminated" in fight.sentence  # §7.5.3: only a winner whose units all died wins nothing
    assert {f.winner for f in fights} >= {"axis", "cw"}


# --- 3. and 4. names, and whose roll it is -----------------------------------------------------------------------


@pytest.mark.rule("6.3.1")
def test_the_ops_phase_events_name_formations_and_sides() -> None:
    state = start("opening-phase")
    asked = act(state, "axis", {"action": "activate", "formation": "21pz"})
    done = roll(asked.state, {"ap": (6,)})
    activated = next(e for e in asked.events if e.kind == "formation_activated")
    points = next(e for e in done.events if e.kind == "action_points")
    name = PACK.formation("21pz").name
    assert name != "21pz"
    for event in (activated, points):
        assert name in event.text and "21pz" not in event.text and side_name("axis") in event.text
    # the roll's line is credited to whoever revealed the die (the core's); its text says whose die it is
    assert f"{name} ({side_name('axis')}) rolls 6" in points.text
    assert f"{name} active with" in RULESET.view(done.state, OBSERVER).summary
    ended = act(done.state, "axis", {"action": "end_activation"}).events
    assert any(e.kind == "activation_ended" and e.text.startswith(name) for e in ended)


@pytest.mark.rule("6.3.2")
def test_the_status_names_the_formations_on_their_activation_tracks() -> None:
    state = start("opening-phase")
    status = dict(RULESET.presentation(PACK).status(RULESET.view(state, OBSERVER)))
    told = status["Activation levels"]
    for formation, level in state.formations.items():
        assert f"{PACK.formation(formation).name} {level.level}" in told
    assert "21pz" not in told


def test_names_come_from_the_pack() -> None:
    assert piece_name(PACK, "ff-2") == PACK.unit("ff-2").name
    assert piece_name(PACK, "21pz-hq") == PACK.hq("21pz-hq").name
    assert piece_name(PACK, "nothing-like-it") == "nothing-like-it"
    assert (side_name("axis"), side_name("cw")) == ("Axis", "Commonwealth")


# --- 5. the map's words -------------------------------------------------------------------------------------------


@pytest.mark.rule("3.1.3")
def test_a_box_hex_reads_as_a_box_and_a_minefield_before_its_terrain() -> None:
    regions = {r.id: r for r in map_spec(PACK).regions}
    boxes = {b.id: b.name for b in PACK.boxes}
    for mine in PACK.minefields:
        about = regions[mine.hex].name.split(" (", 1)[1]
        if mine.box is not None:
            assert about.startswith(f"{boxes[mine.box]}; Commonwealth Minefield; ")
        else:
            assert about.startswith("Axis Minefield" if mine.owner == "axis" else "Commonwealth Minefield")


OVERLAPS = """
var found = [];
document.querySelectorAll('svg .legend').forEach(function (legend, map) {
  var boxes = Array.from(legend.querySelectorAll('.legend-item')).map(function (g) {
    var b = g.getBBox(), gap = parseFloat(g.querySelector('text').getAttribute('font-size')) / 3;
    return [b.x, b.y, b.x + b.width + gap, b.y + b.height, g.textContent];
  });
  boxes.forEach(function (a, i) { boxes.slice(i + 1).forEach(function (b) {
    if (a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]) { found.push([map, a[4], b[4]]); }
  }); });
});
return [document.querySelectorAll('svg .legend').length, found];
"""


@needs_chromium
def test_the_legends_words_do_not_overlap_in_a_browser(solo: Chronicle, tmp_path: Path) -> None:
    """Each key of a map's legend stands clear of the next by a third of its type (Chromium's DejaVu Sans; the PDF's
    is wider still), in print size, where the type is as large as a Gazala counter."""
    page = tmp_path / "aar.html"
    page.write_bytes(after_action_report(solo, None, "html"))
    with chromium(1280, 900) as driver:
        driver.get(page.as_uri())
        legends, overlaps = driver.execute_script(OVERLAPS)
    assert legends > 0 and overlaps == []
