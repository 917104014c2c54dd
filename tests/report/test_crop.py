"""Turn maps cropped to their action for a game that asks (Gazala's battlefield would print counters ~8 px);
Battleaxe's maps stay whole."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.log.store import read_log
from pbem.report.chronicle import Chronicle, chronicle
from pbem.report.context import aar_context, turn_context
from pbem.rules.contract import OMNISCIENT

GAZALA = Path(__file__).resolve().parents[2] / "sample_games" / "gazala" / "bir-hacheim" / "game.jsonl"


@pytest.fixture(scope="module")
def gazala() -> Iterator[Chronicle]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_GAMES", "pbem.games.gazala.ruleset:RULESET")
        yield chronicle(read_log(GAZALA)[0])


def _box(svg: str) -> tuple[float, ...]:
    return tuple(float(v) for v in (ET.fromstring(svg).get("viewBox") or "").split())


def test_gazalas_turn_maps_show_the_turns_action_larger(gazala: Chronicle) -> None:
    assert gazala.presentation is not None and gazala.presentation.crop_turn_maps
    spec = gazala.presentation.map_spec()
    report = turn_context(gazala, "turn-1", OMNISCIENT)
    assert report.start_map is not None and report.end_map is not None
    left, top, width, _ = _box(str(report.end_map))
    assert width < spec.width * 0.6  # counters print at least 1.6 times as large
    assert _box(str(report.start_map))[:3] == (left, top, width)  # both maps frame the same part
    end = ET.fromstring(str(report.end_map))
    moved = {g.get("data-unit") for g in end.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "arrow"}
    units = {
        g.get("data-unit"): g.get("transform", "")
        for g in end.iter("{http://www.w3.org/2000/svg}g")
        if g.get("class") == "unit"
    }
    assert moved
    for unit in moved:  # every unit that moved stands inside the frame
        x, y = (float(v) for v in units[unit or ""].removeprefix("translate(").split(")")[0].split(","))
        assert left <= x <= left + width and top <= y, unit
    aar = aar_context(gazala, OMNISCIENT)
    assert aar.summary.final_map is not None and _box(str(aar.summary.final_map))[:3] == (0, 0, spec.width)
    assert any(t.end_map is not None and _box(str(t.end_map))[2] < spec.width for t in aar.turns)


def test_battleaxes_maps_stay_whole(sample: Chronicle) -> None:
    assert sample.presentation is not None and not sample.presentation.crop_turn_maps
    width = sample.presentation.map_spec().width
    aar = aar_context(sample, OMNISCIENT)
    maps = [m for t in aar.turns for m in (t.start_map, t.end_map) if m is not None]
    assert maps and all(_box(str(m))[:3] == (0, 0, width) for m in maps)
    report = turn_context(sample, "turn-1", OMNISCIENT)
    assert report.end_map is not None and _box(str(report.end_map))[:3] == (0, 0, width)
