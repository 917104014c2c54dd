"""Generic event records: combats of any shape in the tables and the story, periods of any name, map
highlights from any event with a location, air and naval counter symbols."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from pydantic import ValidationError

from pbem.errors import UsageError
from pbem.kit.tables import CombatRow, CombatTable, Term
from pbem.log.store import read_log
from pbem.report import render
from pbem.report.chronicle import Chronicle, Moment, chronicle
from pbem.report.context import _combat, _Names, turn_context
from pbem.report.documents import pick_period
from pbem.report.replay import replay_page
from pbem.report.story import _Teller
from pbem.report.svg import AIR, SEA, SUBSURFACE, draw_face
from pbem.rules.contract import OMNISCIENT, Event
from pbem.rules.presentation import CounterFace, MapStyle, SideStyle
from pbem.rules.records import (
    CombatRecord,
    CombatSide,
    Fire,
    FireStep,
    Hits,
    Loss,
    Round,
    combat_record,
    event_locations,
)
from tests.report.test_replay_privacy import page_data

TRIAD = Path(__file__).resolve().parents[1] / "vectors" / "protocol-v1" / "game.jsonl"


def _crt() -> CombatTable[str]:
    rows = (
        CombatRow[str](rolls="1-3", results=("AR", "EX", "DR")),
        CombatRow[str](rolls="4-6", results=("AE", "DR", "DE")),
    )
    return CombatTable[str](id="crt", rule="7.5", kind="odds", columns=("1:1", "2:1", "3:1"), rows=rows)


def axis_and_allies() -> CombatRecord:
    """Two rounds of Axis & Allies fire: interchangeable pieces counted by type, and a CRT read for good measure."""
    first = Round(
        number=1,
        steps=(
            FireStep(
                label="attacking units",
                side="allied",
                rule="A&A 6.4",
                fire=(
                    Fire(kind="infantry", count=3, dice=(1, 4, 6), needs=1, hits=1),
                    Fire(kind="armor", count=2, dice=(2, 3), needs=3, hits=2),
                ),
            ),
            FireStep(
                label="defending units",
                side="axis",
                rule="A&A 6.5",
                fire=(Fire(kind="infantry", count=2, dice=(2, 5), needs=2, hits=1),),
            ),
        ),
    )
    second = Round(
        number=2,
        steps=(FireStep(label="attacking units", side="allied", fire=(Fire(unit="u7", dice=(1,), needs=3, hits=1),)),),
    )
    return CombatRecord(
        location="tobruk",
        result="attacker_wins",
        rounds=(first, second),
        lookup=_crt().resolve(5, 2, roll=5, shift=1),
        hits=(Hits(side="allied", count=4), Hits(side="axis", count=1)),
        winner="allied",
        losses=(
            Loss(side="axis", kind="infantry", pieces=2),
            Loss(side="axis", kind="armor", pieces=1),
            Loss(side="axis", kind="infantry", pieces=1),
            Loss(side="allied", kind="infantry", pieces=1),
        ),
    )


def test_a_side_total_must_be_its_terms_plus_its_dice() -> None:
    terms = (Term(label="lead", value=5, rule="11.4.2"),)
    assert CombatSide(role="attack", side="a", terms=terms, dice=(3, 4), total=12).value.value == 5
    with pytest.raises(ValidationError):
        CombatSide(role="attack", side="a", terms=terms, dice=(3, 4), total=13)


def test_a_record_travels_in_an_event_and_comes_back_whole() -> None:
    record = axis_and_allies()
    event = Event(kind="combat_resolved", rule="6.4", data=record.data(game_key=[1, 2]))
    assert combat_record(event) == record
    assert "sides" not in event.data  # empty parts are left out
    assert combat_record(Event(kind="combat_resolved", data={"attack": 3, "defence": 2})) is None  # Triad's own
    assert combat_record(Event(kind="moved", data=record.data())) is None


def test_rounds_of_fire_pieces_by_type_and_a_lookup_render_in_the_combat_table() -> None:
    record = axis_and_allies()
    event = Event(kind="combat_resolved", rule="6.4", data=record.data())
    names = _Names({"u7": "7th Armoured"}, None)
    table = _combat(12, event, record, names)
    html = render.environment().from_string('{% from "_macros.html" import combat_table %}{{ combat_table(c) }}')
    out = html.render(c=table)
    assert "Round 1" in out and "Round 2" in out and "<th>Units</th>" not in out  # no two-sided table
    assert "3 infantry" in out and "2 armor" in out and "7th Armoured" in out and "hits on 3 or less" in out
    assert "crt (rule 7.5) column 2:1 shifted +1 to 3:1, roll 5: DE" in out
    assert "axis: 3 infantry, 1 armor" in out and "allied: 1 infantry" in out  # pieces add up by type
    assert "allied scored 4 hits; axis scored 1 hit" in out
    assert [s.hits for s in table.rounds[0].steps] == [3, 1]


def test_the_story_tells_rounds_hits_and_losses_of_a_combat_without_sides() -> None:
    teller = _Teller(cast(Chronicle, None), OMNISCIENT, None, None, first_fight=4)
    record = axis_and_allies()
    moment = cast(Moment, SimpleNamespace(line=9))
    teller.fight(moment, Event(kind="combat_resolved", data=record.data()), record)
    teller.close_fight()
    (fight,) = teller.fights
    assert fight.sentence.startswith("Combat 4 at tobruk over 2 rounds of fire (allied 4 hits, axis 1 hit)")
    assert "losses: axis 3 infantry, 1 armor; allied 1 infantry" in fight.sentence
    assert fight.winner == "allied" and fight.sentence.endswith("won by the allied side.")


def test_battleaxe_combats_carry_a_two_sided_record(sample: Chronicle) -> None:
    combats = [e for m in sample.moments for e in m.events if e.kind == "combat_resolved"]
    assert combats
    for event in combats:
        record = combat_record(event)
        assert record is not None and [s.role for s in record.sides] == ["attack", "defense"]
        attack, defense = record.sides
        assert attack.lead in attack.units and attack.terms[0].label.startswith("lead ")
        assert sum(h.count for h in record.hits) == max(0, attack.total - defense.total)  # Attrition Points


def test_skirmish_combats_record_the_eliminated_block(skirmish: Chronicle) -> None:
    for moment in skirmish.moments:
        for event in moment.events:
            record = combat_record(event)
            if record is None:
                continue
            gone = next(e for e in moment.events if e.kind == "unit_eliminated")
            assert [(loss.unit, loss.eliminated) for loss in record.losses] == [(gone.data["unit"], True)]


# --- periods of any name ----------------------------------------------------------------------------------


@pytest.mark.parametrize("periods", [["setup", "month-1", "month-2", "month-3"], ["round-1", "round-2", "round-3"]])
def test_turn_numbers_find_periods_of_any_name(periods: list[str]) -> None:
    fake = cast(Chronicle, SimpleNamespace(periods=periods, presentation=None))
    assert pick_period(fake, "3") == periods[-1]
    assert pick_period(fake, periods[1]) == periods[1]
    with pytest.raises(UsageError) as raised:
        pick_period(fake, "4")
    assert raised.value.code.id == "U003"


def test_several_periods_with_one_number_are_not_guessed() -> None:
    fake = cast(Chronicle, SimpleNamespace(periods=["month-1", "turn-1"], presentation=None))
    with pytest.raises(UsageError) as raised:
        pick_period(fake, "1")
    assert raised.value.code.id == "U003"
    unnumbered = cast(Chronicle, SimpleNamespace(periods=["setup", "spring", "summer"], presentation=None))
    assert pick_period(unnumbered, "2") == "spring"


def test_a_turn_is_found_by_its_title(sample: Chronicle) -> None:
    assert sample.presentation is not None
    title = sample.presentation.period_title("turn-2")
    assert pick_period(sample, title.upper()) == "turn-2"


def test_triad_rounds_make_turn_reports() -> None:
    triad = chronicle(read_log(TRIAD)[0])
    period = pick_period(triad, "2")
    assert period == "round-2"
    ctx = turn_context(triad, period, OMNISCIENT)
    assert ctx.period == "round-2" and ctx.title == "Round 2" and ctx.sections and all(s.lines for s in ctx.sections)
    assert pick_period(triad, "round 3") == "round-3"  # by its title


# --- map highlights ---------------------------------------------------------------------------------------


def test_event_locations_read_location_and_locations() -> None:
    assert event_locations({"location": "7", "locations": ["8", "7", 9, ""]}) == ("7", "8")
    assert event_locations({"locations": ("a", "b")}) == ("a", "b")
    assert event_locations({"location": 3, "unit": "x"}) == ()


def test_turn_map_outlines_every_event_location_not_only_combats(sample: Chronicle) -> None:
    moments = sample.moments_of("turn-1")
    events = [e for m in moments for e in m.events]
    everywhere = {p for e in events for p in event_locations(e.data)}
    combats = {e.data["location"] for e in events if e.kind == "combat_resolved"}
    assert everywhere - combats  # control changed where nobody fought
    ctx = turn_context(sample, "turn-1", OMNISCIENT)
    assert ctx.end_map is not None
    root = ET.fromstring(str(ctx.end_map))
    outlined = [e for e in root.iter() if e.get("class") == "highlight"]
    assert len(outlined) == len(everywhere)


# --- air and naval symbols --------------------------------------------------------------------------------


@pytest.mark.parametrize("symbol", [*AIR, *SEA, *SUBSURFACE])
def test_air_and_naval_symbols_draw_their_frame_and_letters(symbol: str) -> None:
    style = MapStyle(terrain={}, sides={"a": SideStyle(name="A", fill="#fff", ink="#000", control="#000")})
    root = ET.Element("g")
    draw_face(root, CounterFace(side="a", title="x", symbol=symbol), style)
    frame = "air" if symbol in AIR else "sea" if symbol in SEA else "subsurface"
    frames = [e for e in root.iter() if e.get("class") == f"frame-{frame}"]
    letters = {**AIR, **SEA, **SUBSURFACE}[symbol]
    texts: list[Any] = [e.text for e in root.iter("text")]
    assert len(frames) == 1 and letters in texts
    assert not [e for e in root.iter("rect") if e.get("height") and float(e.get("height", 0)) < 10]  # no land box


def test_replay_steps_outline_the_locations_of_their_events(sample: Chronicle) -> None:
    data = page_data(replay_page(sample).decode())
    by_line = {step["line"]: step for step in data["steps"]}
    changed = [(m.line, e.data["location"]) for m in sample.moments for e in m.events if e.kind == "control_changed"]
    assert changed
    for line, location in changed:
        assert location in by_line[line]["highlight"]
