"""The Axis & Allies sample games (sample_games/axis-allies): Rommel's Last Push played to its end by packets
between scripted sensible players, by 2 and by 4 players; re-made byte for byte by their script (slow); and
``pbem mail``, ``pbem export`` and ``pbem play`` for 3 and 4 players and for a seat with two powers."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from pbem.exchange.packet import read_packets
from pbem.games.axisallies.ruleset import RULESET
from pbem.games.axisallies.state import AxisState
from pbem.log.keys import save_keypair
from pbem.log.store import read_log
from pbem.verify.pipeline import verify_lines
from tests.games.axisallies.rules_helpers import seat, start
from tests.helpers import Cli, test_key
from tests.samples import ROOT, actions_of, assert_same_folder, mailed, sample_script

SAMPLES = ROOT / "sample_games" / "axis-allies"
GAMES = {2: SAMPLES / "rommels-last-push-2p", 4: SAMPLES / "rommels-last-push-4p"}
TARGET = "pbem.games.axisallies.ruleset:RULESET"


@pytest.fixture(autouse=True)
def _loadable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_GAMES", TARGET)


@pytest.mark.parametrize("players", [2, 4])
def test_the_sample_is_rommels_last_push_played_to_its_end_by_packets(players: int) -> None:
    folder = GAMES[players]
    lines = read_log(folder / "game.jsonl")[0]
    report, verifier = verify_lines(lines)
    assert report.valid and report.audit == "complete" and report.result is not None, report.first_error
    genesis = json.loads(lines[0])["body"]
    assert genesis["scenario"] == f"rommels_last_push-{players}p" and len(genesis["roster"]) == players
    assert verifier.game is not None and verifier.game.state is not None
    state = verifier.game.state
    assert isinstance(state, AxisState)
    assert state.winner and (state.round == state.pack.scenario("rommels_last_push").end_round or state.outcome)
    kinds = {e.event.kind for e in verifier.game.events}
    assert "game_ended" in kinds or report.result is not None
    names = {str(a["action"]) for a in actions_of(lines)}
    assert {"requisition", "deploy", "move", "commit", "casualty", "done"} <= names  # it buys, moves and fights
    # every entry but the creator's first reached every other seat in a packet, as mailed
    assert set(lines[1:]) <= mailed(folder)


def test_the_sensible_player_takes_its_cheapest_pieces_first() -> None:
    player = sample_script("make_axisallies").SensiblePlayer()
    state = start()
    cheap = {"action": "casualty", "unit": "germany:infantry", "origin": None}
    dear = {"action": "casualty", "unit": "germany:tank", "origin": None}
    assert player.choose(state, "axis", [dear, cheap], RULESET) == cheap
    legal = RULESET.legal_actions(state, seat(state))
    assert player.choose(state, seat(state), legal, RULESET) in legal


def test_the_sensible_player_attacks_only_at_good_odds() -> None:
    module = sample_script("make_axisallies")
    player = module.SensiblePlayer()
    state = start()
    side = "axis"
    commits = [{"action": "commit", "unit": "infantry", "origin": "el_agheila", "target": "benghazi"}]
    defence = module.strength(state, "benghazi", "allies", attack=False)
    attack = state.pack.unit("germany", "infantry").attack or 0
    assert attack < module.GOOD_ODDS * defence  # one infantry against Benghazi's garrison: no attack
    assert player._commit(state, side, commits) is None


@pytest.mark.slow
def test_the_script_recreates_the_committed_samples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = sample_script("make_axisallies")
    monkeypatch.setattr(module, "HERE", tmp_path / "axis-allies")
    monkeypatch.setattr("sys.argv", ["make_axisallies.py"])
    module.main()
    for kept in GAMES.values():
        assert_same_folder(tmp_path / "axis-allies" / kept.name, kept)


# --- mail, export and play for 3 and 4 players --------------------------------------------------------------------


def _new_game(cli: Cli, tmp_path: Path, players: int) -> tuple[Path, dict[str, Path]]:
    """A Rommel's Last Push game for ``players`` created and joined by every seat through the CLI."""
    scenario = next(s for s in RULESET.scenarios if s.id == f"rommels_last_push-{players}p")
    keys = {}
    for spec in scenario.seats:
        (tmp_path / spec.id).mkdir()
        key, pub = save_keypair(test_key(f"aa {spec.id}"), tmp_path / spec.id, spec.id, None)
        keys[spec.id] = key
        keys[f"{spec.id}.pub"] = pub
    log = tmp_path / "game.jsonl"
    first = scenario.seats[0].id
    seats = [a for s in scenario.seats for a in ("--seat", f"{s.id}={keys[f'{s.id}.pub']}")]
    made = cli("new", RULESET.id, "--scenario", scenario.id, *seats, "--key", keys[first], "-o", log)
    assert made.code == 0, made.err
    for joiner in scenario.seats[1:]:
        joined = cli("join", log, "--key", keys[joiner.id])
        assert joined.code == 0, joined.err
    return log, keys


@pytest.mark.parametrize("players", [3, 4])
def test_mail_and_export_work_for_three_and_four_players(cli: Cli, tmp_path: Path, players: int) -> None:
    log, _ = _new_game(cli, tmp_path, players)
    seats = [s.id for s in next(s for s in RULESET.scenarios if s.id == f"rommels_last_push-{players}p").seats]
    packet = tmp_path / "all.pbem"
    assert cli("export", log, "--from", seats[0], "-o", packet, "--all").code == 0
    assert packet.stat().st_size > 0
    for other in seats[1:]:
        mail = tmp_path / f"to-{other}.eml"
        sent = cli("mail", log, "--from", seats[0], "--for", other, "--to", f"{other}@example.org", "-o", mail,
                   "--all")  # fmt: skip
        assert sent.code == 0, sent.err
        assert "BEGIN" in mail.read_text()  # the armoured packet is in the body


def test_the_four_player_sample_exports_and_mails_to_each_seat(cli: Cli, tmp_path: Path) -> None:
    log = GAMES[4] / "game.jsonl"
    lines = read_log(log)[0]
    seats = [s["seat"] for s in json.loads(lines[0])["body"]["roster"]]
    assert seats == ["germany", "italy", "united_kingdom", "united_states"]
    for other in seats[1:]:
        packet = tmp_path / f"{other}.txt"
        made = cli("export", log, "--from", "germany", "--for", other, "--all", "-o", packet, "--armour")
        assert made.code == 0, made.err
        assert [line for p in read_packets(packet) for line in p.lines] == lines  # the whole log, as mailed
        mail = tmp_path / f"{other}.eml"
        address = f"{other}@example.org"
        sent = cli("mail", log, "--from", "germany", "--for", other, "--to", address, "--all", "-o", mail)
        assert sent.code == 0, sent.err


def test_play_serves_a_seat_with_two_powers(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two players: the Allied seat (the United Kingdom and the United States) opens with the UK's variable
    reinforcements (p.9) through pbem play and signs its first choice."""
    log, keys = _new_game(cli, tmp_path, 2)
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    waiting = cli("play", log, "--key", keys["axis"])
    assert waiting.code == 0 and "waiting for allies" in waiting.out
    before = read_log(log)[0]
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n1\ns\ny\n\n"))  # place, in the first zone, the first type
    played = cli("play", log, "--key", keys["allies"])
    assert played.code == 0, played.err
    assert "signed 1 entry" in played.out
    lines = read_log(log)[0]
    assert len(lines) == len(before) + 1 and actions_of(lines[-1:])[0]["action"] == "place"
    report, _ = verify_lines(lines)
    assert report.valid, report.first_error
