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
    """Battleaxe's presentation, for which the end of the game opens a stage (as a turn's start does in A&A)."""

    stage_openers = frozenset({"game_over"})

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def test_an_event_that_opens_a_stage_heads_it_and_what_came_before_stays(sample: Chronicle) -> None:
    """Line 273 is the Axis player's last Refit Phase action: it scores the Allies' VP (still the Refit Phase)
    and ends the game, the stage the line ends in."""
    assert sample.presentation is not None
    renderer = MapRenderer(sample.presentation)
    last = next(m for m in sample.moments if m.line == 273)
    ended = next(e for e in last.events if e.kind == "game_over")
    scored = next(e for e in last.events if e.kind == "victory_points")
    assert last.period is not None

    def lead_of(story: Any, text: str) -> str:
        lead = ""
        for paragraph in story.paragraphs:
            lead = paragraph.lead or lead
            if any(text in s for s in paragraph.sentences):
                return str(lead)
        raise AssertionError(f"{text!r} is not told")

    plain, _ = tell(sample, [last.period], OMNISCIENT, renderer)
    assert lead_of(plain, ended.text) == "Refit Phase"  # game_over opens no stage by default
    opening = copy.copy(sample)
    opening.__dict__["presentation"] = _Opening(sample.presentation)  # the cached property, replaced
    story, _ = tell(opening, [last.period], OMNISCIENT, renderer)
    assert lead_of(story, scored.text) == "Refit Phase"
    assert lead_of(story, ended.text) == "End of the game"


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


def test_a_turn_report_files_an_opening_event_under_the_stage_it_opens(sample: Chronicle) -> None:
    last = next(m for m in sample.moments if m.line == 273)
    assert last.period is not None
    opening = copy.copy(sample)
    opening.__dict__["presentation"] = _Opening(sample.presentation)

    def sections_of(chron: Chronicle) -> dict[str, str]:
        found = {}
        for section in turn_context(chron, last.period or "", OMNISCIENT).sections:
            for line in section.lines:
                if line.line == last.line:
                    found[line.kind] = section.title
        return found

    assert sections_of(sample)["game_over"] == "Refit Phase"
    filed = sections_of(opening)
    assert filed["victory_points"] == "Refit Phase" and filed["game_over"] == "End of the game"
