"""A turn's story and summary measure from where each stage and score began: the announcement of a turn that
the rules start inside the previous turn's last action heads the new stage, and the first turn's score change
is measured from the score as the game began, not from 0."""

from __future__ import annotations

import copy
from typing import Any

from pbem.report.chronicle import Chronicle
from pbem.report.context import aar_context, turn_context
from pbem.report.story import tell
from pbem.report.svg import MapRenderer
from pbem.rules.contract import OMNISCIENT, View


class _Opening:
    """Battleaxe's presentation, for which a change of control opens a stage (as a power's turn does in A&A)."""

    stage_openers = frozenset({"control_changed"})

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def _opening(sample: Chronicle) -> Chronicle:
    opening = copy.copy(sample)
    opening.__dict__["presentation"] = _Opening(sample.presentation)  # the cached property, replaced
    return opening


def _lead_of(story: Any, text: str) -> str:
    lead = ""
    for paragraph in story.paragraphs:
        lead = paragraph.lead or lead
        if any(text in s for s in paragraph.sentences):
            return str(lead)
    raise AssertionError(f"{text!r} is not told")


def test_an_event_that_opens_a_stage_heads_it(sample: Chronicle) -> None:
    """Line 186 ends Impulse 5 (night falls) and, in the same line, a change of control opens the Refit Phase."""
    assert sample.presentation is not None
    renderer = MapRenderer(sample.presentation)
    line = next(m for m in sample.moments if m.line == 186)
    changed = next(e for e in line.events if e.kind == "control_changed")
    assert line.period == sample.period_after(line) == "turn-2"
    plain, _ = tell(sample, ["turn-2"], OMNISCIENT, renderer)
    assert _lead_of(plain, changed.text) == "Impulse 5"  # control_changed opens no stage by default
    story, _ = tell(_opening(sample), ["turn-2"], OMNISCIENT, renderer)
    assert _lead_of(story, changed.text) == "Refit Phase"


def test_a_stage_of_the_next_period_is_left_to_it(sample: Chronicle) -> None:
    """Line 121, the last of turn 1, begins turn 2 (turn_began, an opener): turn 2's Impulse 1 is not told in
    turn 1, which ends on its Refit Phase."""
    line = next(m for m in sample.moments if m.line == 121)
    began = next(e for e in line.events if e.kind == "turn_began")
    assert sample.presentation is not None and began.kind in sample.presentation.stage_openers
    assert (line.period, sample.period_after(line)) == ("turn-1", "turn-2")
    sections = turn_context(sample, "turn-1", OMNISCIENT).sections
    assert sections[-1].title == "Refit Phase" and [s.title for s in sections].count("Impulse 1") == 1


def test_a_turn_report_files_an_opening_event_under_the_stage_it_opens(sample: Chronicle) -> None:
    def sections_of(chron: Chronicle) -> dict[str, str]:
        return {
            line.kind: section.title
            for section in turn_context(chron, "turn-2", OMNISCIENT).sections
            for line in section.lines
            if line.line == 186
        }

    assert sections_of(sample) == {"maneuvers_ended": "Impulse 5", "control_changed": "Impulse 5"}
    assert sections_of(_opening(sample)) == {"maneuvers_ended": "Impulse 5", "control_changed": "Refit Phase"}


class _Offset:
    """A presentation whose charted score starts the game at 13 (as every A&A power's income does)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def scores(self, view: View) -> dict[str, int]:
        return {name: value + 13 for name, value in self._inner.scores(view).items()}


def test_the_first_turns_change_is_measured_from_the_score_at_the_start(sample: Chronicle) -> None:
    plain = aar_context(sample, OMNISCIENT)
    offset = copy.copy(sample)
    offset.__dict__["presentation"] = _Offset(sample.presentation)  # the cached property, replaced
    shifted = aar_context(offset, OMNISCIENT)
    assert plain.summary.turning_point is not None and shifted.summary.turning_point is not None
    assert shifted.summary.turning_point.title == plain.summary.turning_point.title
    assert "from 0 to 13" not in shifted.summary.turning_point.text
    first = [s for s in shifted.turns[0].overview if s.startswith("Allied VP")]
    assert first and "13 to 13" not in first[0] and " 0 to " not in first[0]


class _Scoring(_Opening):
    """Battleaxe's presentation, for which scoring opens a stage (line 121 scores as it begins turn 2)."""

    stage_openers = frozenset({"victory_points"})


def test_a_stage_the_last_line_of_a_period_opens_is_told_in_the_next_period(sample: Chronicle) -> None:
    """The rules start a new turn, a new period, inside the last action of the one before (A&A's next round):
    from the opener on, that line's events are the new period's story, under its first stage."""
    assert sample.presentation is not None
    renderer = MapRenderer(sample.presentation)
    line = next(m for m in sample.moments if m.line == 121)
    scored = next(e for e in line.events if e.kind == "victory_points")
    assert (line.period, sample.period_after(line)) == ("turn-1", "turn-2")
    plain = [tell(sample, [p], OMNISCIENT, renderer)[0] for p in ("turn-1", "turn-2")]
    assert _lead_of(plain[0], scored.text) == "Refit Phase"
    scoring = copy.copy(sample)
    scoring.__dict__["presentation"] = _Scoring(sample.presentation)
    first, second = (tell(scoring, [p], OMNISCIENT, renderer)[0] for p in ("turn-1", "turn-2"))
    assert not any(scored.text in s for p in first.paragraphs for s in p.sentences)
    assert _lead_of(second, scored.text) == "Impulse 1"
    assert second.paragraphs[0].sentences[0].startswith(scored.text)
