"""A turn built interactively: undo before signing, compound choices (a stack moving as one), one signed entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.client.turn import Turn
from pbem.verify.pipeline import verify_file
from tests.helpers import UNINSTALLED, Table, first_choice


def test_undo_changes_nothing_until_the_batch_is_signed_as_one_entry(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel")
    before = table.path.read_bytes()
    with table.session("red") as session:
        turn = Turn(session)
        first, second = turn.options()[:2]
        turn.choose(first)
        assert turn.undo() == first and turn.steps == []
        turn.choose(second)
        assert table.path.read_bytes() == before  # choosing and undoing write nothing
        assert turn.must_wait() and turn.options() == []  # a secret set-up choice ends red's part of the phase
        written = turn.sign()
    assert [e.raw["type"] for e in written] == ["action"]
    assert len(written[0].raw["body"]["actions"]) == 1 and verify_file(table.path)[0].valid


def test_a_stack_moves_as_one_choice(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "campaign", game="battleaxe", options={})
    with table.session("allied") as session:
        turn = Turn(session)
        while not any(o.actions[0]["action"] == "assault" for o in turn.options()):
            turn.choose(turn.options()[0])  # the free set-up, first choice each time
        game = turn.game()
        assert game.state is not None
        allied: dict[str, int] = {}
        for unit in game.ruleset.view(game.state, "allied").units:
            if unit.side == "allied" and unit.location is not None:
                allied[unit.location] = allied.get(unit.location, 0) + 1
        assaults = [o for o in turn.options() if o.actions[0]["action"] == "assault"]
        single = [o for o in assaults if len(o.actions[0]["areas"]) == 1 and o.actions[0]["areas"] != ["H"]]
        turn.choose(max(single, key=lambda o: allied.get(o.actions[0]["areas"][0], 0)))  # the biggest stack
        stacks = [o for o in turn.options() if len(o.actions) > 1]
        assert stacks and all("stack" in o.label for o in stacks)
        stack = stacks[0]
        turn.choose(stack)
        game = turn.game()
        assert game.state is not None
        moved = {a["unit"] for a in stack.actions}
        target = stack.actions[0]["to"]
        assert all(game.state.units[u].location == target for u in moved)  # type: ignore[attr-defined]
        turn.sign()
    report, _ = verify_file(table.path)
    assert report.valid


def _at_the_first_assault(turn: Turn) -> None:
    while not any(o.actions[0]["action"] == "assault" for o in turn.options()):
        turn.choose(turn.options()[0])  # the free set-up, first choice each time


def test_an_assault_is_built_one_area_at_a_time_from_named_places(tmp_path: Path) -> None:
    """The areas of an assault are picked one by one (with "done" once they make a legal action), never as a
    flat menu of every combination; kinds and places read as words, never as ids or Python values."""
    table = Table.start(tmp_path, "campaign", game="battleaxe", options={})
    with table.session("allied") as session:
        turn = Turn(session)
        _at_the_first_assault(turn)
        legal = [o.actions[0] for o in turn.options() if len(o.actions) == 1 and o.actions[0]["action"] == "assault"]
        longest = max(legal, key=lambda a: len(a["areas"]))
        assert len(longest["areas"]) > 1, legal
        builder = turn.builder()
        assert builder is not None
        kinds = builder.entries()
        assert all(e.label and "_" not in e.label and "{" not in e.label for e in kinds)
        builder.pick(next(e for e in kinds if e.label == "assault"))
        first = builder.entries()
        assert all(e.item is not None for e in first)  # areas, never whole combinations
        assert all(e.label != e.item and "(" in e.label for e in first), [e.label for e in first]  # named
        *most, last = longest["areas"]
        for area in most:
            assert builder.pick(next(e for e in builder.entries() if e.item == area)) is None
            assert "so far: " in builder.title()
        assert builder.back() and builder.items == most[:-1]  # u takes back the last area only
        builder.pick(next(e for e in builder.entries() if e.item == most[-1]))
        done = [e for e in builder.entries() if e.label.startswith("done: ")]
        assert bool(done) == (most in [a["areas"] for a in legal])
        choice = builder.pick(next(e for e in builder.entries() if e.item == last))
        assert choice is not None and choice.actions == (longest,)  # nothing can be added: it is complete
        assert choice.label.startswith("assault ") and "(" in choice.label


def test_the_axis_pairwise_assaults_are_one_area_at_a_time(tmp_path: Path) -> None:
    """Where the Axis may activate any two Areas (36 pairs of 9), the menu lists the 9 Areas, then the rest."""
    table = Table.start(tmp_path, "campaign", game="battleaxe", options={})
    for _ in range(200):
        table.settle()
        seat = next(s for s in ("allied", "axis") if table.legal(s))
        legal = table.legal(seat)
        assaults = [a["areas"] for a in legal if a["action"] == "assault"]
        if seat == "axis" and any(len(areas) == 2 for areas in assaults):
            break
        table.act(seat, next((a for a in legal if a["action"] in ("pass", "end_assault", "regroup")), legal[0]))
    else:
        raise AssertionError("the Axis was never offered a pair of Areas")
    singles = sorted(areas[0] for areas in assaults if len(areas) == 1)
    assert len(assaults) > 2 * len(singles)  # the flat menu would list every pair
    with table.session("axis") as session:
        builder = Turn(session).builder()
        assert builder is not None
        builder.pick(next(e for e in builder.entries() if e.label == "assault"))
        assert sorted(e.item for e in builder.entries()) == singles
        first, second = next(areas for areas in assaults if len(areas) == 2)
        builder.pick(next(e for e in builder.entries() if e.item == first))
        labels = [e.label for e in builder.entries()]
        assert labels[-1].startswith("done: ") and len(labels) == len(singles)  # the other Areas, then done
        choice = builder.pick(next(e for e in builder.entries() if e.item == second))
        assert choice is not None and choice.actions == ({"action": "assault", "areas": [first, second]},)


def test_a_yes_or_no_reads_with_its_question_in_the_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rommel's Group Move asks "Rommel bonus" (yes/no): the batch says "Rommel bonus: no", not a bare "no"."""
    monkeypatch.setenv("PBEM_GAMES", UNINSTALLED)
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / "state"))
    table, seat = first_choice("rommel", "demo-1940")(tmp_path)
    with table.session(seat) as session:
        builder = Turn(session).builder()
        assert builder is not None
        builder.pick(next(e for e in builder.entries() if e.label == "group"))
        builder.pick(builder.entries()[0])
        assert builder.title().endswith("· Rommel bonus")
        choice = builder.pick(next(e for e in builder.entries() if e.label == "no"))
    assert choice is not None and choice.label.startswith("group ") and choice.label.endswith(" Rommel bonus: no")
