"""The losses tables and chart count what the game's presentation names (``Presentation.loss_unit``): steps and
units eliminated by default (Battleaxe), pieces in a game of interchangeable pieces (Axis & Allies)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.log.store import read_log
from pbem.report.chronicle import Chronicle, chronicle
from pbem.report.context import aar_context
from pbem.report.documents import after_action_report
from pbem.rules.presentation import LossUnit, Presentation

AA_SAMPLE = Path(__file__).resolve().parents[2] / "sample_games" / "axis-allies" / "rommels-last-push-2p" / "game.jsonl"


def test_the_default_counts_steps_and_units_eliminated(sample: Chronicle) -> None:
    assert Presentation.loss_unit == LossUnit(name="step", plural="steps", units=True)
    assert LossUnit().count(1) == "1 step" and LossUnit().count(3) == "3 steps"
    html = after_action_report(sample, None, "html").decode()
    assert "<th>Losses</th><th>Steps</th><th>Units eliminated</th>" in html
    assert "<th>Steps lost</th><th>Units eliminated</th>" in html
    assert "Steps lost in each turn" in html


def test_axis_and_allies_counts_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_GAMES", "pbem.games.axisallies.ruleset:RULESET")
    chron = chronicle(read_log(AA_SAMPLE)[0])
    ctx = aar_context(chron, "@all")
    assert ctx.loss_unit == LossUnit(name="piece", plural="pieces", units=False)
    assert any(row.steps for row in ctx.summary.losses)
    html = after_action_report(chron, None, "html").decode()
    assert "<th>Losses</th><th>Pieces</th></tr>" in html
    assert "<th>Pieces lost</th></tr>" in html
    assert "Pieces lost in each turn" in html
    assert "Units eliminated" not in html and "<th>Steps" not in html
    told = " ".join(line for turn in ctx.turns for line in turn.overview if line.startswith("Losses:"))
    assert " piece" in told and " step" not in told
