"""Step-by-step choices walking the rules' choice tree: every legal action is reachable, nothing else is, labels
are the game's own, and no label shows a Python value or a bare id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.log.canon import canonical
from pbem.web.choices import Leaf, Naming, Pick, Question, next_step
from pbem.web.desk import Desk
from tests.helpers import Table
from tests.web.conftest import desk_of


def _reachable(found: list[Leaf], naming: Naming) -> tuple[list[Leaf], list[Question]]:
    """Every action some sequence of answers ends on, and every question asked on the way."""
    reached: list[Leaf] = []
    asked: list[Question] = []
    seen: set[str] = set()
    stack: list[list[Pick]] = [[]]
    while stack:
        picks = stack.pop()
        key = json.dumps(sorted(json.dumps(p.__dict__, sort_keys=True) for p in picks))
        if key in seen:
            continue
        seen.add(key)
        step = next_step(found, picks, naming)
        assert step is not None, picks
        if isinstance(step, Question):
            asked.append(step)
            stack.extend([*picks, o.pick] for o in step.options)
        else:
            reached.append(step)
    return reached, asked


@pytest.fixture
def desk(tmp_path: Path) -> Desk:
    table = Table.start(tmp_path, "campaign", game="battleaxe", options={})
    table.act(
        "allied", {"action": "place", "unit": "11h", "zone": "A"}, {"action": "place", "unit": "cih", "zone": "B"}
    )
    return desk_of(table, "allied")


def test_web_choices_reach_every_legal_action_and_nothing_else(desk: Desk) -> None:
    turn = desk.turn()
    naming = desk.naming(turn, desk.view(turn))
    game = turn.game()
    assert game.state is not None
    legal = game.ruleset.legal_actions(game.state, desk.seat)
    assaults = [a for a in legal if a["action"] == "assault"]
    areas = {area for a in assaults for area in a["areas"]}
    assert len(assaults) > len(areas) > 1  # combinations of areas: a list the player should never have to read
    reached, asked = _reachable(desk.tree(turn), naming)
    assert {canonical(leaf.action) for leaf in reached} == set(map(canonical, legal))  # orders of areas meet
    area_questions = [q for q in asked if all(o.pick.field == "areas" for o in q.options)]
    assert area_questions and max(len(q.options) for q in area_questions) <= len(areas) + 1  # area by area


def test_web_choice_labels_are_the_games_and_plain_language(desk: Desk) -> None:
    turn = desk.turn()
    view = desk.view(turn)
    naming = desk.naming(turn, view)
    game = turn.game()
    assert view is not None and game.state is not None
    reached, asked = _reachable(desk.tree(turn), naming)
    labels = [o.label for q in asked for o in q.options] + [leaf.describe(naming) for leaf in reached]
    ids = {u.id for u in view.units if u.id != u.name}
    for label in labels:
        assert not {"True", "False", "None", "{", "["} & set(label.replace(",", " ").split()), label
        assert not ids & set(label.split()), label  # units by name, never by bare id
    for question in asked:
        for option in question.options:
            pick = option.pick
            if pick.mode == "is" and pick.field != "action" and not isinstance(pick.value, bool):
                said = game.ruleset.label(game.state, pick.field, pick.value)
                assert option.label in (said, said[:1].upper() + said[1:])  # the game's own label, from its tree
            elif pick.mode == "has":
                assert option.label == f"Add {game.ruleset.label(game.state, pick.field, pick.value)}"
    titles = [q.prompt for q in asked if any(o.pick.field == "areas" for o in q.options)]
    assert all("Active Area(s)" in t for t in titles)  # the field's title from the game's action model


def test_web_a_stack_moves_together_in_one_step(desk: Desk) -> None:
    turn = desk.turn()
    view = desk.view(turn)
    assert view is not None
    crowd: dict[str, list[str]] = {}
    for unit in view.units:
        if unit.side == "allied" and unit.location is not None:
            crowd.setdefault(unit.location, []).append(unit.id)
    legal = [leaf.action for leaf in desk.tree(turn)]
    single = [a["areas"][0] for a in legal if a["action"] == "assault" and len(a["areas"]) == 1 and a["areas"] != ["H"]]
    area = max(single, key=lambda place: len(crowd.get(place, [])))  # the biggest stack assaults
    assert desk.answer(Pick("is", "action", "assault")) is None
    label = desk.answer(Pick("has", "areas", area)) or desk.answer(Pick("all", "areas"))  # "that is all" if asked
    assert label is not None and label.startswith("Assault")
    assert desk.answer(Pick("is", "unit", crowd[area][0])) is None
    turn = desk.turn()
    stacks = desk.stacks(turn)
    assert stacks and all(s.label.startswith("Move the stack from ") for s in stacks)  # the rules' stack group
    assert desk.take_stack(1) == stacks[0].label
    assert desk.steps[-1].actions == stacks[0].actions and len(stacks[0].actions) > 1 and desk.picks == []
    assert desk.take_stack(99) is None
