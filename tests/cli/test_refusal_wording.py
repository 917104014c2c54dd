"""A refused action reads as words: the action and the rule's reason, never a Python value (a dict, a list, quotes,
True/False/None). The CLI prints ``error [CODE] MESSAGE (§RULE)`` (:meth:`PbemError.render`): the message is
checked here, past the code's own brackets."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pbem.errors import ActionError
from tests.helpers import Table

PYTHON = re.compile(r"[{}\[\]']|\bTrue\b|\bFalse\b|\bNone\b")


def _refusal(table: Table, seat: str, action: dict[str, Any]) -> str:
    with pytest.raises(ActionError) as refused:
        table.act(seat, action)
    assert refused.value.code.id == "R001"
    line = refused.value.render()
    assert line.startswith("[R001] ")
    return line.removeprefix("[R001] ")


@pytest.mark.rule("T1.1")
def test_a_refused_triad_action_is_words(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel")
    line = _refusal(table, "red", {"action": "choose_reserve", "value": 7})
    assert "choose reserve 7 is illegal" in line and "(§T1.1)" in line
    assert not PYTHON.search(line), line


@pytest.mark.rule("5.2.1")
@pytest.mark.rule("8.1")
def test_refused_battleaxe_actions_are_words(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "campaign", game="battleaxe", options={})
    with table.session("allied") as session:
        legal = session.game.ruleset.legal_actions(session.game.state, "allied")
    place = next(a for a in legal if a["action"] == "place")
    zones = {a["zone"] for a in legal if a["action"] == "place" and a["unit"] == place["unit"]}
    elsewhere = next(z for z in ("A", "B", "C", "D", "H") if z not in zones)
    wrong_zone = _refusal(table, "allied", {**place, "zone": elsewhere})
    assert "sets up in one of Zone " in wrong_zone and "(§5.2.1)" in wrong_zone
    wrong_step = _refusal(table, "allied", {"action": "assault", "areas": ["A", "B"]})
    assert "assault A, B is illegal" in wrong_step and "assault is not possible now" in wrong_step
    support = _refusal(table, "allied", {"action": "support", "air": True, "rommel": False, "artillery": False})
    assert "air yes" in support
    for line in (wrong_zone, wrong_step, support):
        assert not PYTHON.search(line), line
