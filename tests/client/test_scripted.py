"""Scripted games exchanged by packets: each seat's own copy, real client, real packets, reproducible output."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pbem.client.scripted import RandomPolicy, ScriptedGame, play_by_packets, sample_key
from pbem.errors import PbemError
from pbem.exchange.packet import Packet, read_packets
from pbem.exchange.transfer import export_packet, import_packets
from pbem.games.triad.ruleset import Triad, TriadState
from pbem.log.entry import envelope
from pbem.log.keys import load_public
from pbem.log.store import read_log, write_new_file
from pbem.rules import registry
from pbem.rules.contract import Action, Ruleset
from pbem.verify.pipeline import verify_file, verify_lines

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"


def play(out: Path, game: str, scenario: str, **kwargs: Any) -> ScriptedGame:
    ruleset = registry.get(game)
    seats = [s.id for s in next(s for s in ruleset.scenarios if s.id == scenario).seats]
    everyone = [*seats, *([kwargs["referee"]] if "referee" in kwargs else [])]
    policies = {seat: RandomPolicy(f"{game} {seat}") for seat in everyone}
    return play_by_packets(ruleset, scenario, policies, out, **kwargs)


def entries(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in read_log(path)[0]]


def assert_sound(played: ScriptedGame, seats: int) -> None:
    """The written game verifies with a result and a complete audit; the packets on disk are the ones counted."""
    report, _ = verify_file(played.out / "game.jsonl")
    assert report.valid and report.result is not None and report.audit == "complete"
    assert report.result == played.report.result and played.entries == report.entries
    files = sorted((played.out / "packets").glob("*-from-*.txt"))
    assert [f.name for f in files] == [p.file.split("/")[-1] for p in played.packets]
    for sent, file in zip(played.packets, files, strict=True):
        (packet,) = read_packets(file)
        assert packet.sender == sent.sender and len(packet.lines) == sent.entries and file.stat().st_size == sent.size
    assert sum(s.packets for s in played.periods) == len(played.packets)
    keys = sorted(p.name for p in (played.out / "keys").iterdir())
    assert len([k for k in keys if k.endswith(".pub")]) == seats and "README.md" in keys
    assert not [k for k in keys if k.endswith(".key")]  # only the public halves are written


def test_a_duel_by_packets_is_a_verified_game_whose_mail_rebuilds_it(tmp_path: Path) -> None:
    played = play(tmp_path / "duel", "triad", "duel", options={"rounds": 2})
    assert_sound(played, 2)
    assert played.copies_identical and played.hops == len(played.packets) > 4
    # the mail alone, read in order by someone with no copy, rebuilds every entry of the game
    rebuilt = tmp_path / "from-mail.jsonl"
    packets = [p for f in sorted((played.out / "packets").glob("*.txt")) for p in read_packets(f)]
    import_packets(rebuilt, packets)
    assert read_log(rebuilt)[0] == read_log(played.out / "game.jsonl")[0]
    periods = [s.period for s in played.periods]
    assert periods[0] == "joining" and "round-1" in periods and periods[-1] == "end"
    for seat in ("red", "blue"):
        assert load_public(played.out / "keys" / f"{seat}.pub") == sample_key("triad", seat).public


def test_the_output_is_the_same_bytes_on_every_run(tmp_path: Path) -> None:
    first = play(tmp_path / "a", "triad", "duel", options={"rounds": 1}, names={"red": "Ann"}, notes={"blue": "hi"})
    second = play(tmp_path / "b", "triad", "duel", options={"rounds": 1}, names={"red": "Ann"}, notes={"blue": "hi"})
    files = sorted(p.relative_to(first.out) for p in first.out.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second.out) for p in second.out.rglob("*") if p.is_file())
    assert all((first.out / f).read_bytes() == (second.out / f).read_bytes() for f in files)
    log = entries(first.out / "game.jsonl")
    assert log[1]["body"]["name"] == "Ann" and any(e["body"].get("note") == "hi" for e in log if e["author"] == "blue")


def test_the_sample_keys_are_those_of_the_battleaxe_sample_game() -> None:
    for seat in ("allied", "axis"):
        assert load_public(SAMPLES / "battleaxe" / "keys" / f"{seat}.pub") == sample_key("battleaxe", seat).public


def test_solitaire_needs_no_mail(tmp_path: Path) -> None:
    played = play(tmp_path / "solo", "triad", "solo", options={"rounds": 2})
    assert_sound(played, 1)
    assert played.packets == [] and played.hops == 0 and played.report.result is not None


def test_four_seats_two_per_team_with_the_team_dice_quorum(tmp_path: Path) -> None:
    played = play(tmp_path / "pairs", "triad", "pairs", options={"rounds": 1}, team_dice=True)
    assert_sound(played, 4)
    log = entries(played.out / "game.jsonl")
    assert log[0]["body"]["dice"]["quorum"] == "teams"
    assert {p.sender for p in played.packets} == {"red", "blue", "green", "yellow"}
    # one seat per opposing team answers a roll (its first seat): green never answers south, yellow never north
    author = {envelope(line).id: envelope(line).raw["author"] for line in read_log(played.out / "game.jsonl")[0]}
    team = {"red": "north", "green": "north", "blue": "south", "yellow": "south"}
    answers = {(team[author[e["body"]["for"]]], e["author"]) for e in log if e["type"] == "reveal"}
    assert ("north", "blue") in answers
    assert ("south", "green") not in answers and ("north", "yellow") not in answers
    assert played.copies_identical


def test_three_seats_two_of_one_team(tmp_path: Path) -> None:
    played = play(tmp_path / "teams", "triad", "teams", options={"rounds": 1})
    assert_sound(played, 3)
    assert played.report.result is not None and played.copies_identical


def test_skirmish_by_packets(tmp_path: Path) -> None:
    assert_sound(play(tmp_path / "skirmish", "skirmish", "meeting", options={"rounds": 2}), 2)


def test_a_hidden_deck_is_shuffled_by_every_seat_before_anyone_plays(tmp_path: Path) -> None:
    played = play(tmp_path / "cards", "highcard", "duel", options={"cards": 8, "hand": 2, "deals": 1, "keep": 0,
                                                                     "dealer": False})  # fmt: skip
    assert_sound(played, 2)
    log = entries(played.out / "game.jsonl")
    first_action = next(i for i, e in enumerate(log) if e["type"] == "action")
    assert {e["author"] for e in log[:first_action] if e["type"] == "deck-shuffle"} == {"north", "south"}


def test_a_referee_who_deals_keeps_a_copy_too(tmp_path: Path) -> None:
    options = {"cards": 8, "hand": 2, "deals": 1, "keep": 0, "dealer": True}
    played = play(tmp_path / "dealt", "highcard", "duel", options=options, referee="ref")
    assert_sound(played, 3)
    assert "ref" in {p.sender for p in played.packets}


def test_parallel_delivery_gives_copies_with_the_same_entries(tmp_path: Path) -> None:
    played = play(tmp_path / "parallel", "triad", "duel", options={"rounds": 1}, parallel=True)
    assert_sound(played, 2)
    assert played.hops <= len(played.packets)


PARALLEL = [
    ("triad", "standard", {"options": {"rounds": 1}}),
    ("triad", "teams", {"options": {"rounds": 1}}),
    ("triad", "pairs", {"options": {"rounds": 1}, "team_dice": True}),
    ("highcard", "trio", {"options": {"cards": 9, "hand": 2, "deals": 1, "keep": 0, "dealer": False}}),
    ("highcard", "trio", {"options": {"cards": 9, "hand": 2, "deals": 1, "keep": 0, "dealer": True}, "referee": "ref"}),
    ("highcard", "duel", {"options": {"cards": 8, "hand": 2, "deals": 1, "keep": 0, "dealer": True}, "referee": "ref"}),
]


@pytest.mark.parametrize(("game", "scenario", "kwargs"), PARALLEL, ids=[f"{g}-{s}-{len(k)}" for g, s, k in PARALLEL])
def test_three_seats_or_more_answering_at_once_agree(
    tmp_path: Path, game: str, scenario: str, kwargs: dict[str, Any]
) -> None:
    """Concurrent entries commute (PROTOCOL.md §8.1): Triad's simultaneous set-up choices, and the joins a deck
    made at set-up builds on (§14.8), reach the copies in different orders, yet every copy holds the same
    entries, result and final state hash (the driver checks it, U007 otherwise)."""
    played = play(tmp_path / "parallel", game, scenario, parallel=True, **kwargs)
    seats = len(next(s for s in registry.get(game).scenarios if s.id == scenario).seats) + ("referee" in kwargs)
    assert_sound(played, seats)
    assert not played.copies_identical  # the copies do hold concurrent entries in different orders


class Cheat:
    """A policy that plays an action the rules do not offer."""

    def choose(self, state: Any, seat: str, legal: Sequence[Action], ruleset: Ruleset[Any]) -> Action:
        return {"action": "attack", "target": seat}


def leaves_out_untouched(out: Path) -> None:
    assert [p.name for p in out.iterdir()] == ["kept.txt"] and (out / "kept.txt").read_text() == "old"
    assert sorted(p.name for p in out.parent.iterdir()) == [out.name]  # nothing half-written beside it


@pytest.mark.parametrize(
    ("policies", "kwargs", "code"),
    [
        ({"red": RandomPolicy("r")}, {}, "U003"),  # blue has no policy
        ({"red": RandomPolicy("r"), "blue": RandomPolicy("b")}, {"max_entries": 5}, "U003"),  # does not end
        ({"red": Cheat(), "blue": RandomPolicy("b")}, {}, "R001"),  # the client refuses an illegal action
    ],
)
def test_a_failed_game_leaves_the_output_folder_as_it_was(
    tmp_path: Path, policies: dict[str, Any], kwargs: dict[str, Any], code: str
) -> None:
    out = tmp_path / "root" / "out"
    out.mkdir(parents=True)
    (out / "kept.txt").write_text("old")
    with pytest.raises(PbemError) as raised:
        play_by_packets(registry.get("triad"), "duel", policies, out, options={"rounds": 1}, **kwargs)
    assert raised.value.code.id == code
    leaves_out_untouched(out)


def test_an_unknown_scenario_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PbemError) as raised:
        play_by_packets(registry.get("triad"), "quartet", {}, tmp_path / "out")
    assert raised.value.code.id == "U003" and not (tmp_path / "out").exists()


def test_a_random_policy_is_deterministic_and_only_picks_legal_actions() -> None:
    legal: list[Action] = [{"action": "pass"}, {"action": "draw"}, {"action": "fortify"}]
    ruleset = registry.get("triad")
    first, second = RandomPolicy("seed"), RandomPolicy("seed")
    picks = [first.choose(None, "red", legal, ruleset) for _ in range(30)]
    assert picks == [second.choose(None, "red", legal, ruleset) for _ in range(30)]
    assert all(pick in legal for pick in picks) and len({pick["action"] for pick in picks}) == 3


def test_re_verifying_every_copy_at_each_step_gives_the_same_bytes(tmp_path: Path) -> None:
    """The kept replays the exchange functions are handed change nothing but the time taken."""
    kept = play(tmp_path / "kept", "triad", "teams", options={"rounds": 1})
    again = play(tmp_path / "again", "triad", "teams", options={"rounds": 1}, reverify=True)
    files = sorted(p.relative_to(kept.out) for p in kept.out.rglob("*") if p.is_file())
    assert all((kept.out / f).read_bytes() == (again.out / f).read_bytes() for f in files)


def test_a_kept_replay_that_does_not_match_the_copy_is_not_used(tmp_path: Path) -> None:
    played = play(tmp_path / "duel", "triad", "duel", options={"rounds": 1})
    lines = read_log(played.out / "game.jsonl")[0]
    _, stale = verify_lines(lines[:-3])
    packet = export_packet(lines, sender="red", recipient="blue", everything=True, verifier=stale)
    assert packet.lines == tuple(lines)  # verified afresh: the stale replay would not know the last entries
    copy = tmp_path / "copy.jsonl"
    write_new_file(copy, b"".join(line + b"\n" for line in lines[:-3]))
    _, kept = verify_lines(lines[:-3])
    sig = lines[-1].index(b'"sig":"') + 7
    forged = lines[-1][:sig] + (b"0" if lines[-1][sig : sig + 1] != b"0" else b"1") + lines[-1][sig + 1 :]
    tampered = Packet(packet.game, "red", "blue", (*lines[-3:-1], forged))
    with pytest.raises(PbemError) as refused:
        import_packets(copy, [tampered], verifier=kept)
    assert refused.value.code.id in {"K001", "K002"}
    assert kept.lines == len(lines) - 3 and read_log(copy)[0] == lines[:-3]  # neither moved on
    import_packets(copy, [packet], verifier=kept)
    assert kept.lines == len(lines) and read_log(copy)[0] == lines and kept.report().valid


class Stuck(Triad):
    """Triad whose main phase waits for nobody: a game module with a dead end."""

    id = "stuck-triad"

    def to_act(self, state: TriadState) -> tuple[str, ...]:
        return () if state.phase == "main" else super().to_act(state)


STUCK = Stuck()


def test_a_game_that_waits_for_nobody_is_reported_as_a_module_bug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_GAMES", f"{__name__}:STUCK")
    policies: dict[str, Any] = {"red": RandomPolicy("r"), "blue": RandomPolicy("b")}
    with pytest.raises(PbemError) as raised:
        play_by_packets(registry.get("stuck-triad"), "duel", policies, tmp_path / "out", options={"rounds": 1})
    assert raised.value.code.id == "R008" and not (tmp_path / "out").exists()
