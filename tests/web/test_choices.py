"""Step-by-step choices from the legal action list: every legal action is reachable, nothing else is, and no
label shows a Python value or a bare id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.rules.contract import Action
from pbem.web.choices import Naming, Pick, Question, next_step
from pbem.web.desk import Desk
from tests.helpers import Table
from tests.web.conftest import desk_of


def _reachable(legal: list[Action], naming: Naming) -> tuple[set[str], list[Question]]:
    """Every action some sequence of answers ends on, and every question asked on the way."""
    found: set[str] = set()
    asked: list[Question] = []
    seen: set[str] = set()
    stack: list[list[Pick]] = [[]]
    while stack:
        picks = stack.pop()
        key = json.dumps(sorted(json.dumps(p.__dict__, sort_keys=True) for p in picks))
        if key in seen:
            continue
        seen.add(key)
        step = next_step(legal, picks, naming)
        assert step is not None, picks
        if isinstance(step, Question):
            asked.append(step)
            stack.extend([*picks, o.pick] for o in step.options)
        else:
            found.add(json.dumps(step, sort_keys=True))
    return found, asked


@pytest.fixture
def desk(tmp_path: Path) -> Desk:
    table = Table.start(tmp_path, "campaign", game="battleaxe", options={})
    table.act(
        "allied", {"action": "place", "unit": "11h", "zone": "A"}, {"action": "place", "unit": "cih", "zone": "B"}
    )
    return desk_of(table, "allied")


def test_web_choices_reach_every_legal_action_and_nothing_else(desk: Desk) -> None:
    turn = desk.turn()
    naming = desk.naming(desk.view(turn))
    legal = desk.legal(turn)
    assaults = [a for a in legal if a["action"] == "assault"]
    areas = {area for a in assaults for area in a["areas"]}
    assert len(assaults) > len(areas) > 1  # combinations of areas: a list the player should never have to read
    found, asked = _reachable(legal, naming)
    assert found == {json.dumps(a, sort_keys=True) for a in legal}
    area_questions = [q for q in asked if all(o.pick.field == "areas" for o in q.options)]
    assert area_questions and max(len(q.options) for q in area_questions) <= len(areas) + 1  # area by area


def test_web_choice_labels_are_plain_language(desk: Desk) -> None:
    turn = desk.turn()
    view = desk.view(turn)
    naming = desk.naming(view)
    legal = desk.legal(turn)
    _, asked = _reachable(legal, naming)
    labels = [o.label for q in asked for o in q.options] + [naming.describe(a) for a in legal]
    assert view is not None
    ids = {u.id for u in view.units if u.id != u.name}
    for label in labels:
        assert not {"True", "False", "None", "{", "["} & set(label.replace(",", " ").split()), label
        assert not ids & set(label.split()), label  # units by name, never by bare id


def test_web_a_stack_moves_together_in_one_step(desk: Desk) -> None:
    turn = desk.turn()
    naming = desk.naming(desk.view(turn))
    view = desk.view(turn)
    assert view is not None
    crowd: dict[str, list[str]] = {}
    for unit in view.units:
        if unit.side == "allied" and unit.location is not None:
            crowd.setdefault(unit.location, []).append(unit.id)
    legal = desk.legal(turn)
    single = [a["areas"][0] for a in legal if a["action"] == "assault" and len(a["areas"]) == 1 and a["areas"] != ["H"]]
    area = max(single, key=lambda place: len(crowd.get(place, [])))  # the biggest stack assaults
    assert desk.answer(Pick("is", "action", "assault")) is None
    label = desk.answer(Pick("has", "areas", area)) or desk.answer(Pick("all", "areas"))  # "that is all" if asked
    assert label is not None and label.startswith("Assault")
    desk.answer(Pick("is", "unit", crowd[area][0]))
    turn = desk.turn()
    stacks = desk.stacks(turn, naming)
    assert stacks and all("the whole stack to" in s.label for s in stacks)
    assert desk.take_stack(1) == stacks[0].label
    assert desk.steps[-1].actions == stacks[0].actions and len(stacks[0].actions) > 1 and desk.picks == []
    assert desk.take_stack(99) is None
