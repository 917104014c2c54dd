"""A replay page holds only what its writer may see: written with one seat's key, it never carries another
seat's hidden values, nor a view of everything for the page to hide (issue 16)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pbem.client.session import own_knowledge
from pbem.log.store import read_log
from pbem.replay.books import Epoch
from pbem.report.chronicle import Chronicle, chronicle
from pbem.report.replay import page_viewers, replay_page
from tests.helpers import test_key

SYMBOL = re.compile(r"<symbol\b.*?</symbol>", re.S)
TEXT = re.compile(r"<text\b[^>]*>([^<]*)</text>")


def both_keys(game: str, seat: str, number: int, epoch: Epoch) -> bytes | None:
    """A copy that holds both seats' keys (a hot-seat game, or a referee's tools)."""
    return own_knowledge(test_key("red"))(game, seat, number, epoch) or own_knowledge(test_key("blue"))(
        game, seat, number, epoch
    )


@pytest.fixture(scope="module")
def before_the_first_fight(skirmish_log: Path) -> list[bytes]:
    """Both sides deployed in secret and marching: every strength is still hidden (line 24 declares the
    first attack, which opens two blocks)."""
    return read_log(skirmish_log)[0][:23]


def page_data(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="pbem-data">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def faces_shown(page: str) -> set[str]:
    """Every text drawn on a counter face the page carries (a concealed block carries none)."""
    return {t for symbol in SYMBOL.findall(page) for t in TEXT.findall(symbol)}


def strengths(chron: Chronicle, side: str) -> dict[str, str]:
    """The hidden strengths of ``side``'s blocks, as a copy that knows them draws them: name → value."""
    view = chron.view(chron.final, "@all")
    assert view is not None
    return {u.name: str(u.strength) for u in view.units if u.side == side and u.strength is not None}


def test_a_page_written_with_one_seats_key_holds_only_that_seat_and_the_public(
    before_the_first_fight: list[bytes],
) -> None:
    chron = chronicle(before_the_first_fight, knowledge=own_knowledge(test_key("red")))
    assert chron.knows == {"red"} and chron.report.audit != "complete"
    page = replay_page(chron).decode()
    data = page_data(page)
    assert [v["id"] for v in data["viewers"]] == ["red", "@observer"] == page_viewers(chron)
    assert {viewer for step in data["steps"] for viewer in step["frame"]} == {"red", "@observer"}
    own = strengths(chron, "red")
    assert len(own) == 3 and set(own) <= faces_shown(page)  # the writer's own blocks, with their strengths
    assert not any(name.startswith("Blue") for name in faces_shown(page))


def test_another_seats_hidden_values_are_never_in_the_file(before_the_first_fight: list[bytes]) -> None:
    chron = chronicle(before_the_first_fight, knowledge=both_keys)
    blue = strengths(chron, "blue")
    assert len(blue) == 3
    everything = replay_page(chron).decode()  # the copy knows both seats: its page may show both
    assert set(blue) <= faces_shown(everything)
    page = replay_page(chron, seat="red").decode()
    data = page_data(page)
    assert [v["id"] for v in data["viewers"]] == ["red", "@observer"]
    drawn = faces_shown(page)
    assert set(strengths(chron, "red")) <= drawn
    assert not set(blue) & drawn and not any(text.startswith("Blue") for text in drawn)
    for step in data["steps"]:
        for line in step["lines"]:
            assert line[4] is None or set(line[4]) <= {"red", "@observer"}


def test_a_fully_disclosed_game_is_public_to_every_viewer(skirmish: Chronicle) -> None:
    assert skirmish.report.audit == "complete"
    assert page_viewers(skirmish) == ["@all", "red", "blue", "@observer"]
