"""Contract v2 limits lifted (PROTOCOL.md §3.6, §6.3.1, §6.4.1, §6.7, §6.8, §7.3.1), on the example game Triad.

Each test drives a game through the client, then checks the verifier's view of it or forges the one entry
that breaks a rule and expects its code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pbem.client.session import own_knowledge
from pbem.errors import PbemError
from pbem.games.triad.ruleset import RULESET as TRIAD
from pbem.log.dice import faces, roll_seed
from pbem.log.entry import envelope, seal
from pbem.verify.pipeline import verify_lines
from tests.helpers import Table, codes


def raw(line: bytes) -> dict[str, Any]:
    return json.loads(line)


def errors(lines: list[bytes]) -> list[str]:
    return codes(verify_lines(lines)[0])


def seed(table: Table, seat: str, index: int) -> str:
    with table.session(seat) as session:
        return session.chain()[index].hex()


def next_index(table: Table, seat: str) -> int:
    game = table.replay().game
    assert game is not None
    return game.seats[seat].epoch.index + 1


def reveal(table: Table, seat: str, entry: str, **extra: Any) -> list[bytes]:
    """The log with ``seat``'s next chain seed answering ``entry`` appended (forged: no checks on the way)."""
    index = next_index(table, seat)
    body = {"for": entry, "index": index, "seed": seed(table, seat, index), **extra}
    return [*table.lines(), table.forge(seat, "reveal", body, deps=sorted({*raw_heads(table, seat), entry}))]


def raw_heads(table: Table, seat: str) -> set[str]:
    game = table.replay().game
    assert game is not None
    return {h for s, h in game.heads().items() if s != seat}


def set_up(table: Table) -> None:
    for seat, value in zip(table.keys, (2, 3, 1), strict=False):
        table.act(seat, {"action": "choose_reserve", "value": value})
    table.settle()


def teams(tmp_path: Path, **kwargs: Any) -> Table:
    table = Table.start(tmp_path, "teams", rounds=3, **kwargs)
    set_up(table)
    return table


# --- solitaire (§6.4.1) ------------------------------------------------------------------------------------------


def last_action(lines: list[bytes]) -> int:
    return max(i for i, line in enumerate(lines) if raw(line)["type"] == "action")


@pytest.mark.rule("T12.1")
def test_a_one_seat_scenario_is_accepted_and_played_to_its_end(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "solo", rounds=2)
    assert [raw(line)["type"] for line in table.lines()] == ["genesis", "join"]
    set_up(table)
    table.act("red", {"action": "challenge"})
    lines = table.lines()
    i = last_action(lines)
    challenge = envelope(lines[i]).id
    # the mover's own reveals answer its two requests, after the action that declared them
    answers = [raw(line) for line in lines[i + 1 :] if raw(line)["type"] == "reveal"]
    assert [(a["author"], a["body"]["for"], a["body"]["index"]) for a in answers] == [
        ("red", challenge, 3),
        ("red", challenge, 4),
    ]
    assert verify_lines(lines[: i + 1])[0].awaiting == ["waiting for red's dice"] * 2
    while table.legal("red"):
        table.act("red", {"action": "draw"} if {"action": "draw"} in table.legal("red") else {"action": "pass"})
        table.settle()
    report, verifier = verify_lines(table.lines())
    assert report.valid and report.result is not None and report.audit == "complete"
    game = verifier.game
    assert game is not None
    rolls = [r for r in game.rolls if r.entry == challenge]
    assert [r.part for r in rolls] == [0, 1]
    for record in rolls:  # the derivation binds the game id, not the declaring entry, and the revealed seeds
        assert record.action == game.id and set(record.seeds) == {"red"}
        spec = [(s.sides, s.n) for s in record.request.rolls]
        assert record.faces is not None
        assert faces(roll_seed(game.id, game.id, record.seeds), spec)[0] == list(next(iter(record.faces.values())))
    draws = [r for r in game.rolls if r.request.owner == "red"]
    assert draws and all(r.action == game.id for r in draws)  # a solitaire private draw too


def test_a_solitaire_roll_cannot_be_steered_by_rewording_the_action(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mover signs its declaring action again with another timestamp and note: the same dice (§6.4.1)."""
    table = Table.start(tmp_path, "solo", rounds=2)
    set_up(table)
    table.act("red", {"action": "challenge"})
    lines = table.lines()
    i = last_action(lines)
    original = raw(lines[i])
    original.pop("sig")
    reworded = {**original, "ts": "2026-01-05T00:00:00Z", "body": {**original["body"], "note": "luck"}}
    other = seal(reworded, table.keys["red"].private.sign).line
    outcomes = []
    for n, declaring in enumerate((lines[i], other)):
        monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / f"state{n}"))  # two copies, as on two machines
        trial = Table(tmp_path / f"t{n}.jsonl", table.keys, table.clock, table.entropy)
        trial.path.write_bytes(b"".join(line + b"\n" for line in [*lines[:i], declaring]))
        trial.settle()
        game = trial.replay().game
        assert game is not None
        outcomes.append([r.faces for r in game.rolls if r.entry == envelope(declaring).id])
    assert outcomes[0] == outcomes[1] and len(outcomes[0]) == 2


def test_a_solitaire_roll_waits_for_the_movers_next_element_not_the_declared_one(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "solo", rounds=2)
    set_up(table)
    table.act("red", {"action": "challenge"})
    lines = table.lines()
    i = last_action(lines)
    declared = raw(lines[i])["body"]["rolls"]
    assert [d["index"] for d in declared] == [1, 2]  # two requests: the mover's next two elements
    entry = envelope(lines[i]).id
    stale = {"for": entry, "index": 2, "seed": declared[1]["seed"]}
    forged = Table(tmp_path / "cut.jsonl", table.keys, table.clock, table.entropy)
    forged.path.write_bytes(b"".join(line + b"\n" for line in lines[: i + 1]))
    assert errors([*lines[: i + 1], forged.forge("red", "reveal", stale, deps=[entry])]) == ["D002"]


# --- resignation (§3.6) ------------------------------------------------------------------------------------------


@pytest.mark.rule("T9.2")
def test_in_teams_a_resigning_seat_drops_out_and_the_others_play_on(tmp_path: Path) -> None:
    table = teams(tmp_path)
    with table.session("green") as session:
        session.resign()
    report = table.verify()
    assert report.valid and report.result is None and report.awaiting == ["waiting for red to act"]
    game = table.replay().game
    assert game is not None and game.resigned == {"green"} and game.state is not None
    assert game.quorum("blue") == ["red"]  # a resigned seat no longer answers rolls
    table.act("red", {"action": "pass"})
    assert table.verify().awaiting == ["waiting for blue to act"]  # green is skipped (T2.2)
    forged = table.forge("green", "action", {"actions": [{"action": "pass"}], "rolls": None, "sealed": [], "echo": []})
    assert errors([*table.lines(), forged]) == ["C014"]
    assert errors([*table.lines(), table.forge("green", "resign", {})]) == ["C014"]


@pytest.mark.rule("T9.3")
def test_in_teams_the_game_ends_when_one_team_is_left(tmp_path: Path) -> None:
    table = teams(tmp_path)
    with table.session("blue") as session:
        session.resign()
    table.settle()
    report = table.verify()
    assert report.valid and report.result is not None and set(report.result.winners) == {"red", "green"}
    assert report.audit == "complete"  # the resigned seat disclosed too; its reserve was never opened
    game = table.replay().game
    assert game is not None and game.state is not None and not game.state.hidden["reserve/blue"].public


def test_by_default_a_resignation_ends_the_game_for_everyone(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "standard", rounds=2)
    set_up(table)
    with table.session("green") as session:
        session.resign()
    report = table.verify()
    assert report.valid and report.result is not None and report.result.winners == ()
    assert report.result.outcome == "green resigned"


def test_a_resignation_the_game_survives_waits_for_open_dice(tmp_path: Path) -> None:
    table = teams(tmp_path)
    table.act("red", {"action": "challenge", "target": "blue"})  # waits for blue's seeds
    assert errors([*table.lines(), table.forge("green", "resign", {})]) == ["C014"]


# --- secret fields see the public fields (§7.3.1) -----------------------------------------------------------------


def test_secret_fields_get_the_public_fields_of_the_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[str, Any]] = []
    original = type(TRIAD).secret_fields

    def spy(self: Any, state: Any, seat: str, action: dict[str, Any]) -> dict[str, str]:
        seen.append(dict(action))
        return original(self, state, seat, action)

    monkeypatch.setattr(type(TRIAD), "secret_fields", spy)
    table = Table.start(tmp_path, "duel", rounds=2)
    table.act("red", {"action": "choose_reserve", "value": 2})
    seen.clear()
    table.verify()
    assert {"action": "choose_reserve"} in seen and all("value" not in a for a in seen)


def test_secret_fields_that_depend_on_a_secret_value_are_a_module_bug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def peeking(self: Any, state: Any, seat: str, action: dict[str, Any]) -> dict[str, str]:
        return {"value": f"reserve/{seat}"} if action.get("value") == 2 else {}

    table = Table.start(tmp_path, "duel", rounds=2)
    monkeypatch.setattr(type(TRIAD), "secret_fields", peeking)
    with pytest.raises(PbemError) as bug:
        table.act("red", {"action": "choose_reserve", "value": 2})
    assert bug.value.code.id == "R008"


# --- several pending rolls (§6.7) ---------------------------------------------------------------------------------


@pytest.mark.rule("T10.1")
def test_two_pending_rolls_are_declared_revealed_and_resumed_in_order(tmp_path: Path) -> None:
    table = teams(tmp_path)
    table.act("red", {"action": "challenge", "target": "blue"})
    declaring = table.lines()[-1]
    body = raw(declaring)["body"]
    assert isinstance(body["rolls"], list) and [d["rolls"][0]["id"] for d in body["rolls"]] == [
        "challenger",
        "challenged",
    ]
    entry = envelope(declaring).id
    game = table.replay().game
    assert game is not None and [p.key for p in game.pending.values()] == [entry, f"{entry}/1"]
    first = reveal(table, "blue", entry)  # blue's first reveal answers the first request
    table.path.write_bytes(b"".join(line + b"\n" for line in first))
    game = table.replay().game
    assert game is not None and [r.part for r in game.rolls if r.entry == entry] == [0]
    state = game.state
    assert state is not None and state.challenge is not None and state.challenge.first is not None  # type: ignore[attr-defined]
    table.settle()
    report, verifier = verify_lines(table.lines())
    assert report.valid and verifier.game is not None
    parts = [r for r in verifier.game.rolls if r.entry == entry]
    assert [r.part for r in parts] == [0, 1] and [r.as_json().get("part") for r in parts] == [None, 1]
    assert errors(reveal(table, "blue", entry)) == ["D005"]


def test_several_requests_must_be_declared_as_a_list_one_per_request(tmp_path: Path) -> None:
    table = teams(tmp_path)
    table.act("red", {"action": "challenge", "target": "blue"})
    lines = table.lines()
    data = raw(lines[-1])
    data.pop("sig")
    one = {**data, "body": {**data["body"], "rolls": data["body"]["rolls"][0]}}
    assert errors([*lines[:-1], seal(one, table.keys["red"].private.sign).line]) == ["D007"]
    swapped = {**data, "body": {**data["body"], "rolls": data["body"]["rolls"][::-1]}}
    assert errors([*lines[:-1], seal(swapped, table.keys["red"].private.sign).line]) == ["D007"]
    table.settle()
    table.act("green", {"action": "draw"})  # one request: an array of one is not the v1 object form
    lines = table.lines()
    i = max(i for i, line in enumerate(lines) if raw(line)["type"] == "action")
    data = raw(lines[i])
    data.pop("sig")
    single = {**data, "body": {**data["body"], "rolls": [data["body"]["rolls"]]}}
    assert errors([*lines[:i], seal(single, table.keys["green"].private.sign).line]) == ["L014"]


def test_echoes_name_each_request_of_an_entry_in_order(tmp_path: Path) -> None:
    table = teams(tmp_path)
    table.act("red", {"action": "challenge", "target": "blue"})
    entry = envelope(table.lines()[-1]).id
    table.settle()
    for seat in ("green", "blue", "red"):  # a roll-off costs at most one health: everyone is still in
        table.act(seat, {"action": "pass"})
        table.settle()
    echo = next(raw(line)["body"]["echo"] for line in reversed(table.lines()) if raw(line)["author"] == "red"
                and raw(line)["type"] == "action")  # fmt: skip
    assert [e["for"] for e in echo] == [entry, entry]
    assert table.verify().valid
    lines = table.lines()
    i = max(i for i, line in enumerate(lines) if raw(line)["author"] == "red" and raw(line)["type"] == "action")
    data = raw(lines[i])
    data.pop("sig")
    data["body"]["echo"] = data["body"]["echo"][::-1]
    swapped = seal(data, table.keys["red"].private.sign).line
    if echo[0]["faces"] != echo[1]["faces"]:
        assert errors([*lines[:i], swapped]) == ["D006"]


# --- dice quorum of one seat per opposing team (§6.3.1) ----------------------------------------------------------


def test_the_team_quorum_asks_one_seat_of_each_opposing_team(tmp_path: Path) -> None:
    (tmp_path / "t").mkdir()
    (tmp_path / "o").mkdir()
    table = teams(tmp_path / "t", team_dice=True)
    assert raw(table.lines()[0])["body"]["dice"]["quorum"] == "teams"
    game = table.replay().game
    assert game is not None and game.quorum("blue") == ["red"] and game.quorum("red") == ["blue"]
    table.act("red", {"action": "pass"})
    table.act("green", {"action": "pass"})
    table.act("blue", {"action": "challenge", "target": "green"})
    entry = envelope(table.lines()[-1]).id
    assert table.verify().awaiting == ["waiting for red's dice"] * 2  # one per request
    assert errors(reveal(table, "green", entry)) == ["D001"]  # green is not in the quorum
    table.settle()
    assert table.verify().valid
    default = teams(tmp_path / "o")
    game = default.replay().game
    assert game is not None and game.quorum("blue") == ["red", "green"]  # the default: every opponent


def test_the_team_quorum_refuses_a_referee_seat(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "teams", rounds=2, team_dice=True)
    data = raw(table.lines()[0])
    data["body"]["dice"]["referee"] = "red"
    data.pop("sig")
    assert errors([seal(data, table.keys["red"].private.sign).line]) == ["R007"]


# --- a private draw owned by another seat (§6.8) ------------------------------------------------------------------


@pytest.mark.rule("T11.1")
def test_a_gift_is_a_private_draw_of_the_teammate_committed_in_its_reveal(tmp_path: Path) -> None:
    table = teams(tmp_path)
    table.act("red", {"action": "gift", "target": "green"})
    declaring = table.lines()[-1]
    body = raw(declaring)["body"]["rolls"]
    assert (body["owner"], body["commit"]) == ("green", None)  # the mover cannot commit for green
    entry = envelope(declaring).id
    assert table.verify().awaiting == ["waiting for green's dice", "waiting for blue's dice"]
    assert errors(reveal(table, "blue", entry)) == ["D009"]  # the owner commits first
    assert errors(reveal(table, "green", entry)) == ["D009"]  # without its commitment
    table.owed("green")
    answer = raw(table.lines()[-1])
    assert answer["type"] == "reveal" and len(answer["body"]["commit"]) == 64
    assert errors(reveal(table, "blue", entry, commit="00" * 32)) == ["D009"]  # nobody asked blue for one
    table.settle()
    lines = table.lines()
    public = verify_lines(lines)[1].game
    mine = verify_lines(lines, knowledge=own_knowledge(table.keys["green"]))[1].game
    theirs = verify_lines(lines, knowledge=own_knowledge(table.keys["red"]))[1].game
    assert public is not None and mine is not None and theirs is not None
    assert public.state is not None and mine.state is not None and theirs.state is not None
    assert mine.state.hidden["card/green/1"].known and mine.state.hidden["card/green/1"].owner == "green"
    assert not public.state.hidden["card/green/1"].known and not theirs.state.hidden["card/green/1"].known
    assert mine.state.hand["green"] == ("card/green/1",)  # type: ignore[attr-defined]


def test_a_wrong_draw_commitment_of_the_owner_is_caught_with_its_secret(tmp_path: Path) -> None:
    table = teams(tmp_path)
    table.act("red", {"action": "gift", "target": "green"})
    entry = envelope(table.lines()[-1]).id
    lines = reveal(table, "green", entry, commit="ab" * 32)
    assert codes(verify_lines(lines)[0]) == []  # the public verifier cannot tell yet
    assert codes(verify_lines(lines, knowledge=own_knowledge(table.keys["green"]))[0]) == ["H003"]


@pytest.mark.rule("T11.2")
def test_a_public_roll_and_a_teammates_draw_pending_together(tmp_path: Path) -> None:
    table = teams(tmp_path)
    table.act("red", {"action": "rally", "target": "green"})
    entry = envelope(table.lines()[-1]).id
    assert errors(reveal(table, "blue", f"{entry}")) == []  # blue's first seed answers the public roll (part 0)
    assert table.verify().awaiting == ["waiting for blue's dice", "waiting for green's dice", "waiting for blue's dice"]
    table.owed("green")  # the owner may commit first: its first open request is the draw (part 1)
    game = table.replay().game
    assert game is not None and [p.key for p in game.pending.values()] == [entry, f"{entry}/1"]
    assert game.pending[f"{entry}/1"].commit is not None and game.pending[f"{entry}/1"].awaiting == ["blue"]
    table.settle()
    report, verifier = verify_lines(table.lines(), knowledge=own_knowledge(table.keys["green"]))
    assert report.valid and verifier.game is not None
    records = [r for r in verifier.game.rolls if r.entry == entry]
    assert [(r.part, r.request.owner) for r in records] == [(0, None), (1, "green")]
    assert records[1].faces is not None  # green reads its card; the public record of the die is plain
    assert [r.faces is None for r in verify_lines(table.lines())[1].game.rolls if r.entry == entry] == [False, True]  # type: ignore[union-attr]
