"""High Card, the example game on a shared hidden deck: its rules, the secrecy of every hand at every state,
and a whole game played by packets with ``pbem play`` that verifies."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from pbem.client.session import own_knowledge
from pbem.errors import PbemError
from pbem.log.store import read_log
from pbem.replay.game import Game
from pbem.rules.contract import OMNISCIENT
from pbem.verify.pipeline import Verifier, verify_file, verify_lines
from tests.cli.conftest import Player, write_keys
from tests.helpers import Cli, Table, play_in_memory, test_key

OPTIONS = {"cards": 10, "hand": 3, "deals": 2, "keep": 0, "dealer": False}
SEATS = ("north", "south")


def finished(seed: int, options: dict[str, Any] = OPTIONS, scenario: str = "duel") -> list[bytes]:
    return play_in_memory("highcard", scenario, options, random.Random(seed))


def events(lines: list[bytes]) -> list[Any]:
    game = verify_lines(lines)[1].game
    assert game is not None
    return [e.event for e in game.events]


@pytest.mark.rule("C1.1")
@pytest.mark.rule("C2.1")
def test_both_players_shuffle_then_each_is_dealt_a_hand(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel", game="highcard", options=OPTIONS)
    table.settle()
    types = [json.loads(line)["type"] for line in table.lines()]
    assert types[3:] == ["deck-shuffle", "deck-shuffle", "deck-strip", "deck-strip"]
    game = table.replay().game
    assert game is not None and game.state is not None
    deck = game.state.decks["main"]
    assert (deck.size, {s: len(h) for s, h in deck.hands.items()}) == (4, {"north": 3, "south": 3})
    assert [e.kind for e in (x.event for x in game.events)][-2:] == ["cards_dealt", "cards_dealt"]


@pytest.mark.rule("C2.2")
def test_a_player_may_play_only_a_position_it_holds(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel", game="highcard", options=OPTIONS)
    table.settle()
    game = table.replay().game
    assert game is not None and game.state is not None
    verdict = game.ruleset.check(game.state, "north", {"action": "play", "card": 3})
    assert (verdict.ok, verdict.rule, verdict.reason) == (False, "C2.2", "not-in-hand")
    assert not game.ruleset.check(game.state, "south", {"action": "play", "card": 0}).ok  # C3.1: North leads


@pytest.mark.rule("C3.1")
@pytest.mark.rule("C3.3")
def test_the_higher_card_wins_the_trick_and_leads(tmp_path: Path) -> None:
    lines = finished(3)
    played = [e for e in events(lines) if e.kind in ("card_played", "trick_won")]
    for lead, follow, won in zip(played[0::3], played[1::3], played[2::3], strict=True):
        assert won.seat == (lead.seat if lead.data["card"] > follow.data["card"] else follow.seat)
    leaders = [e.seat for e in played[0::3]]
    assert leaders[1:] == [e.seat for e in played[2::3]][:-1]


@pytest.mark.rule("C4.1")
@pytest.mark.rule("C5.1")
def test_face_up_cards_return_and_the_deck_is_reshuffled_for_the_next_deal() -> None:
    lines = finished(4)
    types = [json.loads(line)["type"] for line in lines]
    assert types.count("deck-rekey") == 2 and types.count("deck-shuffle") == 4  # one reshuffle of 6 cards
    report = verify_lines(lines)[0]
    assert report.valid and report.audit == "complete" and report.result is not None
    assert sum(report.result.score.values()) == 6  # 2 deals of 3 tricks
    shuffled = [e for e in events(lines) if e.kind == "deck_shuffled"]
    assert [e.data["size"] for e in shuffled] == [10, 10]  # every face-up card went back


def _check_secrecy(lines: list[bytes], seat: str, seats: tuple[str, ...] = SEATS) -> int:
    """Replay ``lines`` as ``seat``'s client, entry by entry, and as the auditor; return the states checked."""
    others = [s for s in seats if s != seat]
    mine = Verifier(knowledge=own_knowledge(test_key(seat)))
    everyone = verify_lines(lines)[1]  # only for the keys: the audit knows every disclosed secret
    audit = Verifier(knowledge=everyone.knowledge)
    checked = 0
    for line in lines:
        assert not mine.feed(line) and not audit.feed(line)
        game, full = mine.game, audit.game
        if game is None or game.state is None or full is None or full.state is None:
            continue
        checked += 1
        deck = game.state.decks.get("main")
        if deck is not None:
            # the seat's own client cannot know another hand (never computed, never in its state)
            assert all(card is None for other in others for card in deck.hands.get(other, ()))
            assert all(card is not None for card in deck.hands.get(seat, ()))
        for other in others:
            _check_view(full, seat, other)
    return checked


def _check_view(full: Game, seat: str, other: str) -> None:
    """Even with every secret known, ``seat``'s view shows the other hand only as its size."""
    assert full.state is not None
    deck = full.state.decks.get("main")
    view = full.ruleset.view(full.state, seat).model_dump(mode="json")
    units = {u["id"]: u for u in view["units"]}
    hand = units[other]["extra"]["hand"]
    assert isinstance(hand, int)
    if deck is None:
        return
    theirs = set(deck.hands[other])
    shown = (
        set(units[seat]["extra"]["hand"]) | set(view["facts"]["faceup"]) | {p["card"] for p in view["facts"]["trick"]}
    )
    assert not shown & theirs
    text = view["summary"]
    assert "your hand" in text and all(f": {c}," not in text + "," for c in theirs - set(deck.hands[seat]))
    omniscient = {u.id: u for u in full.ruleset.view(full.state, OMNISCIENT).units}
    assert omniscient[other].extra["hand"] == list(deck.hands[other])


@pytest.mark.parametrize("seed", [1, 2])
def test_no_seat_ever_sees_the_other_hand_before_it_is_played(seed: int) -> None:
    lines = finished(seed)
    assert sum(_check_secrecy(lines, seat) for seat in SEATS) > 2 * 30


@pytest.mark.rule("C3.2")
def test_three_players_deal_with_two_strips_each_and_no_one_sees_another_hand() -> None:
    trio = ("north", "east", "south")
    lines = finished(8, {**OPTIONS, "cards": 12, "keep": 1}, "trio")
    report = verify_lines(lines)[0]
    assert report.valid and report.audit == "complete" and report.result is not None
    strips = [json.loads(line)["author"] for line in lines if b'"type":"deck-strip"' in line]
    assert strips[:6] == ["east", "south", "north", "south", "north", "east"]  # each deal: every other seat
    played = [e for e in events(lines) if e.kind == "card_played"]
    assert [e.seat for e in played[:3]] == ["north", "east", "south"]  # C3.2: then the others in seat order
    for seat in trio:
        _check_secrecy(lines, seat, trio)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3, 13))
def test_no_seat_ever_sees_another_hand_over_many_games(seed: int) -> None:
    scenario, seats = ("trio", ("north", "east", "south")) if seed % 2 else ("duel", SEATS)
    lines = finished(seed, {**OPTIONS, "cards": 12, "hand": 3, "deals": 3, "keep": seed % 3}, scenario)
    assert verify_lines(lines)[0].audit == "complete"
    for seat in seats:
        _check_secrecy(lines, seat, seats)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_no_player_sees_another_hand_with_a_dealer_either(seed: int, tmp_path: Path) -> None:
    options = {**OPTIONS, "dealer": True, "keep": 1, "deals": 3}
    table = Table.start(tmp_path, "duel", game="highcard", options=options, referee=True)
    table.play_out(random.Random(seed))
    lines = table.lines()
    assert verify_lines(lines)[0].audit == "complete"
    for seat in SEATS:
        _check_secrecy(lines, seat)


def test_a_whole_game_by_packets_with_pbem_play_verifies(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = write_keys(tmp_path / "alice", "alice", "north"), write_keys(tmp_path / "bob", "bob", "south")
    logs = {"north": tmp_path / "alice" / "game.jsonl", "south": tmp_path / "bob" / "game.jsonl"}
    players: dict[str, Player] = {"north": alice, "south": bob}
    made = cli("new", "highcard", "--scenario", "duel", "--seat", f"north={alice.pub}", "--seat", f"south={bob.pub}",
               "--key", alice.key, "-o", logs["north"], "--option", "cards=8", "--option", "hand=2")  # fmt: skip
    assert made.code == 0, made.err
    send(cli, tmp_path, logs["north"], logs["south"])
    assert cli("join", logs["south"], "--key", bob.key).code == 0
    send(cli, tmp_path, logs["south"], logs["north"])
    hands_seen: list[str] = []
    for turn in range(60):
        seat = SEATS[turn % 2]
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\ny\n\n"))  # play, the first card, sign, no note
        run = cli("play", logs[seat], "--key", players[seat].key)
        assert run.code == 0, run.err
        hands_seen += [line for line in run.out.splitlines() if "your hand (position" in line]
        send(cli, tmp_path, logs[seat], logs[SEATS[(turn + 1) % 2]])
        if verify_file(logs[seat])[0].audit == "complete":
            break
    else:
        raise AssertionError("the game did not end")
    assert read_log(logs["north"])[0] == read_log(logs["south"])[0]
    report = verify_file(logs["north"])[0]
    assert report.valid and report.result is not None and report.audit == "complete"
    assert hands_seen and all("?" not in line.split("your hand")[1] for line in hands_seen)  # its own cards
    status = cli("status", logs["north"], "--json")
    public = json.loads(status.out)["decks"]["main"]
    assert (public["size"], len(public["faceup"]), public["hands"]) == (4, 4, {"north": 0, "south": 0})


def send(cli: Cli, tmp_path: Path, source: Path, target: Path) -> None:
    packet = tmp_path / "packet.pbem"
    packet.unlink(missing_ok=True)
    assert cli("export", source, "-o", packet).code == 0
    imported = cli("import", target, packet)
    assert imported.code == 0 or "nothing new" in imported.err.lower() or "X004" in imported.err, imported.err


@pytest.mark.rule("C4.1")
def test_kept_cards_stay_in_hand_through_the_reshuffle_and_are_played_later() -> None:
    lines = finished(5, {**OPTIONS, "keep": 1, "deals": 3})
    report, verifier = verify_lines(lines)
    assert report.valid and report.audit == "complete"
    game = verifier.game
    assert game is not None and game.state is not None
    revealed = [e.event for e in game.events if e.event.kind == "cards_revealed"]
    shuffles = [i for i, e in enumerate(game.events) if e.event.kind == "deck_shuffled"]
    assert len(shuffles) == 3 and len(revealed) == 2 * (2 + 2 + 2)  # 2 tricks per deal, one card kept
    assert {s: len(h) for s, h in game.state.decks["main"].hands.items()} == {"north": 1, "south": 1}
    for seat in SEATS:
        _check_secrecy(lines, seat)


@pytest.mark.rule("C6.1")
def test_with_a_dealer_the_referee_deals_sees_the_hands_and_the_players_still_do_not(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel", game="highcard", options={**OPTIONS, "dealer": True}, referee=True)
    table.play_out(random.Random(2))
    lines = table.lines()
    report = verify_lines(lines)[0]
    assert report.valid and report.audit == "complete" and report.result is not None
    types = [json.loads(line)["type"] for line in lines]
    authors = [(json.loads(line)["type"], json.loads(line)["author"]) for line in lines]
    assert ("deck-strip", "ref") in authors and ("disclose", "ref") in authors  # the dealer strips and discloses
    assert types.count("deck-shuffle") == 2 * 3 + 4  # players and dealer per round, and each receiver's mask
    assert ("deck-rekey", "ref") in authors and ("deck-rekey", "north") not in authors
    # mid-game: the dealer's own client knows both hands, each player only its own
    middle = next(i for i, t in enumerate(types) if t == "action") + 1
    dealer = verify_lines(lines[:middle], knowledge=own_knowledge(test_key("ref")))[1].game
    north = verify_lines(lines[:middle], knowledge=own_knowledge(test_key("north")))[1].game
    assert dealer is not None and north is not None
    assert all(c.card is not None for s in SEATS for c in dealer.decks["main"].hands[s])
    assert all(c.card is None for c in north.decks["main"].hands["south"])
    assert all(c.card is not None for c in north.decks["main"].hands["north"])


def test_the_dealer_option_needs_a_referee(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel", game="highcard", options={**OPTIONS, "dealer": True}, join=False)
    with table.session("south") as session, pytest.raises(PbemError) as refused:
        session.join()  # the last join sets the game up
    assert refused.value.code.id == "R007"


PROBES = [{"action": "play", "card": c} for c in (-1, 0, 1, 2, 3, "0", True)] + [{"action": "pass"}]


@pytest.mark.rule("C2.2")
@pytest.mark.rule("C3.1")
def test_legal_actions_and_check_agree_on_every_state_of_a_game() -> None:
    verifier = Verifier()
    for line in finished(6):
        assert not verifier.feed(line)
        game = verifier.game
        if game is None or game.state is None:
            continue
        game.ruleset.assert_invariants(game.state)
        for seat in SEATS:
            legal = game.ruleset.legal_actions(game.state, seat)
            assert all(game.ruleset.check(game.state, seat, a).ok for a in legal)
            for probe in PROBES:
                listed = any(probe == a and type(probe["card"]) is int for a in legal) if "card" in probe else False
                assert listed == game.ruleset.check(game.state, seat, probe).ok, (seat, probe)


def test_status_and_the_replay_page_show_each_decks_public_sizes(cli: Cli, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_bytes(b"".join(line + b"\n" for line in finished(1)))
    status = cli("status", log)
    assert status.code == 0 and "deck main: 4 cards; hands: north 0, south 0; face up: " in status.out
    page = tmp_path / "replay.html"
    assert cli("replay", log, "-o", page).code == 0
    text = page.read_text()
    assert "deck main: 10 cards; hands: north 0, south 0; face up: none" in text
    assert "deck main: 7 cards; hands: north 3, south 0; face up: none" in text  # North's hand, by size only
