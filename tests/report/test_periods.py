"""The after-action report tells every period once, in order, each with its own events: a period with something
to tell is a turn of its own, named after itself; only a period with nothing to tell joins a neighbour. Played on
Triad's two-against-two scenario, whose first round (cards given and drawn) has no combat and nothing that moves,
and on the bundled Battleaxe sample, whose silent set-up and audit join the turns beside them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.client.scripted import RandomPolicy, play_by_packets
from pbem.log.store import read_log
from pbem.report.chronicle import Chronicle, chronicle
from pbem.report.context import Turn, aar_context, turns_of
from pbem.report.documents import after_action_report
from pbem.report.story import sentence, told
from pbem.rules import registry
from pbem.rules.contract import OMNISCIENT
from pbem.rules.records import combat_record

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
SECTION = re.compile(r'<section class="turn" id="([^"]+)">\s*<h2>([^<]*)</h2>', re.S)
NAMES = {"red": "Ada", "blue": "Ben", "green": "Cleo", "yellow": "Dan"}


@pytest.fixture(scope="module")
def pairs(tmp_path_factory: pytest.TempPathFactory) -> Chronicle:
    """A Triad pairs game of two rounds, played by packets between four scripted seats."""
    directory = tmp_path_factory.mktemp("pairs")
    ruleset = registry.get("triad")
    policies = {seat: RandomPolicy(f"aar {seat}") for seat in NAMES}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_STATE_DIR", str(directory / "state"))
        played = play_by_packets(
            ruleset, "pairs", policies, directory / "game", options={"rounds": 2}, team_dice=True, names=NAMES
        )
    return chronicle(read_log(played.out / "game.jsonl")[0])


@pytest.fixture(scope="module")
def triad_sample() -> Chronicle:
    return chronicle(read_log(SAMPLES / "triad" / "game.jsonl")[0])


def told_in(chron: Chronicle, period: str) -> list[str]:
    """The sentences the story owes ``period``: its events told as sentences of their own (Triad's combats have
    no combat record, so the story tells them by their text too)."""
    return [
        sentence(chron.text_of(e))  # as reports word it (an opened hidden value in the game's words)
        for m in chron.moments_of(period)
        for e in m.events
        if told(chron.presentation, e, OMNISCIENT) and combat_record(e) is None
    ]


def assert_every_period_once_in_order_with_its_own_events(chron: Chronicle) -> None:
    turns = turns_of(chron, OMNISCIENT)
    assert [p for t in turns for p in t.periods] == chron.periods  # each period in exactly one turn, in order
    aar = aar_context(chron, OMNISCIENT)
    assert [t.anchor for t in aar.turns] == [t.main for t in turns]
    for turn, section in zip(turns, aar.turns, strict=True):
        assert turn.main in turn.periods
        story = [s for p in section.paragraphs for s in p.sentences]
        owed = [s for p in turn.periods for s in told_in(chron, p)]
        assert owed and story == owed  # exactly its own events, in the order they happened
    html = after_action_report(chron, None, "html").decode()
    assert [anchor for anchor, _ in SECTION.findall(html)] == [t.main for t in turns]


@pytest.mark.parametrize("game", ["pairs", "triad_sample"])
def test_every_triad_round_is_a_turn_of_its_own(game: str, request: pytest.FixtureRequest) -> None:
    chron: Chronicle = request.getfixturevalue(game)
    assert chron.report.valid and chron.report.result is not None
    rounds = sorted({p for p in chron.periods if p.startswith("round-")})
    assert len(rounds) >= 2
    turns = turns_of(chron, OMNISCIENT)
    # set-up (reserves chosen), every round and the audit (secrets disclosed) each have something to tell
    assert [t.periods for t in turns] == [[p] for p in chron.periods] and chron.periods == ["setup", *rounds, "end"]
    assert_every_period_once_in_order_with_its_own_events(chron)
    html = after_action_report(chron, None, "html").decode()
    titles = [title for _, title in SECTION.findall(html)]
    assert titles == ["Setup", *(f"Round {r.split('-')[1]}" for r in rounds), "After the game"]


def test_a_period_with_nothing_to_tell_joins_its_neighbour_and_names_nothing(sample: Chronicle) -> None:
    assert sample.periods == ["setup", "turn-1", "turn-2", "turn-3", "end"]
    assert turns_of(sample, OMNISCIENT) == [
        Turn(main="turn-1", periods=["setup", "turn-1"]),
        Turn(main="turn-2", periods=["turn-2"]),
        Turn(main="turn-3", periods=["turn-3", "end"]),
    ]
    titles = [title for _, title in SECTION.findall(after_action_report(sample, None, "html").decode())]
    assert titles == ["Turn 1: June 15", "Turn 2: June 16", "Turn 3: June 17"]


def test_the_losses_column_is_shown_only_for_a_game_with_losses_to_list(
    sample: Chronicle, triad_sample: Chronicle
) -> None:
    battleaxe = after_action_report(sample, None, "html").decode()
    assert '<table class="losses">' in battleaxe and battleaxe.count('<div class="col">') == 2
    summary = aar_context(triad_sample, OMNISCIENT).summary
    assert summary.losses == [] and summary.turning_point is None
    triad = after_action_report(triad_sample, None, "html").decode()
    assert '<table class="losses">' not in triad
    assert triad.count('<div class="col">') == 1  # no empty half beside the players: they take the width


def test_the_players_table_names_each_seats_team_from_the_roster(triad_sample: Chronicle) -> None:
    """Triad's pairs are the roster's teams: red and green are north, blue and yellow south."""
    html = after_action_report(triad_sample, None, "html").decode()
    rows = re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td><td class=\"fingerprint\">", html)
    assert rows == [("Ada", "north"), ("Ben", "south"), ("Cleo", "north"), ("Dan", "south")]
