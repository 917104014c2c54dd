"""pbem play driven through its input stream for a few turns."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from pbem.log.store import read_log
from pbem.verify.pipeline import verify_file
from tests.cli.conftest import Player
from tests.helpers import Cli, Run


@pytest.fixture
def play(cli: Cli, duel_log: Path, monkeypatch: pytest.MonkeyPatch) -> object:
    def run(player: Player, answers: str) -> Run:
        monkeypatch.setattr("sys.stdin", io.StringIO(answers))
        return cli("play", duel_log, "--key", player.key)

    return run


def actions(log: Path) -> list[list[dict[str, object]]]:
    return [json.loads(line)["body"]["actions"] for line in read_log(log)[0] if b'"type":"action"' in line]


def test_a_few_turns_of_play(play: object, duel_log: Path, alice: Player, bob: Player) -> None:
    run = play  # type: ignore[assignment]
    first = run(alice, "1\n1\ny\n\n")  # choose reserve, of 1 (secret), sign, no note
    assert first.code == 0, first.err
    assert "choose reserve" in first.out and "signed 1 entry" in first.out
    second = run(bob, "?\n1\n3\ny\nYour turn, Alice!\n")  # help, a reserve of 3, sign, a note
    assert second.code == 0 and "number: choose" in second.out
    third = run(alice, "u\n1\n1\nu\n4\ny\n\n")  # nothing to undo; attack blue, take it back; pass
    assert "nothing to undo" in third.out and "undone: attack blue" in third.out and "Since your last turn" in third.out
    assert "Your turn, Alice!" in third.out  # Bob's note reached Alice's screen
    assert actions(duel_log)[-1] == [{"action": "pass"}]
    assert [a[0]["action"] for a in actions(duel_log)] == ["choose_reserve", "choose_reserve", "pass"]
    assert verify_file(duel_log)[0].valid


def test_a_combat_and_its_dice_show_on_the_next_turn(play: object, duel_log: Path, alice: Player, bob: Player) -> None:
    run = play  # type: ignore[assignment]
    run(alice, "1\n1\ny\n\n")
    run(bob, "1\n1\ny\n\n")
    attack = run(alice, "1\n1\ny\n\n")
    assert "Sign this action?" in attack.out and "signed 1 entry" in attack.out
    assert "pbem mail " in attack.out and "--from" not in attack.out  # the sender is read from the log
    defend = run(bob, "1\n1\ny\n\n")
    assert "red attacks blue" in defend.out and "waiting for red's dice" in defend.out
    after = run(alice, "")  # Alice's reveal settles the dice: she sees the faces and the result
    assert "signed the reveal entry you owed" in after.out
    assert re.search(r"red attacks: \d\+\d; blue defends: \d", after.out)
    assert re.search(r"red rolls \d+ against \d+", after.out)


def test_quitting_or_declining_signs_nothing(play: object, duel_log: Path, alice: Player) -> None:
    run = play  # type: ignore[assignment]
    before = duel_log.read_bytes()
    assert "nothing was signed" in run(alice, "q\n").out
    assert "nothing was written" in run(alice, "1\n2\nn\n").out
    assert "nothing was signed" in run(alice, "1\n2\nu\n").out  # undone at the end, then the input ends: quit
    assert "is not a choice" in run(alice, "99\nq\n").out
    assert duel_log.read_bytes() == before


def test_nothing_to_do_says_whom_the_game_waits_for(play: object, duel_log: Path, alice: Player) -> None:
    run = play  # type: ignore[assignment]
    run(alice, "1\n1\ny\n\n")
    waiting = run(alice, "")
    assert "Nothing for you to do now: waiting for blue to act" in waiting.out


def test_a_take_back_request_is_answered_in_play(
    play: object, cli: Cli, duel_log: Path, alice: Player, bob: Player
) -> None:
    run = play  # type: ignore[assignment]
    run(alice, "1\n1\ny\n\n")
    run(bob, "1\n1\ny\n\n")
    run(alice, "4\ny\n\n")  # pass
    assert "pbem undo" in run(alice, "").out
    assert cli("undo", duel_log, "--key", alice.key).code == 0
    answered = run(bob, "y\n")
    assert "asks to take back" in answered.out and "waiting for red to act" in answered.out
    assert verify_file(duel_log)[0].valid


def test_answering_n_at_the_sign_prompt_keeps_the_batch(play: object, duel_log: Path, alice: Player) -> None:
    """'n' goes back to the batch instead of throwing it away; u then q still leave the log untouched."""
    run = play  # type: ignore[assignment]
    kept = run(alice, "1\n2\nn\nu\n1\n1\ny\n\n")  # choose, decline to sign, take it back, choose again, sign
    assert kept.code == 0, kept.err
    assert "batch is complete" in kept.out and "undone:" in kept.out and "signed 1 entry" in kept.out
    assert len(actions(duel_log)) == 1


def test_a_choice_is_built_a_field_at_a_time_and_u_steps_back_within_it(
    play: object, duel_log: Path, alice: Player
) -> None:
    run = play  # type: ignore[assignment]
    built = run(alice, "1\nu\n1\n2\ny\n\n")  # choose reserve; u: back to the kinds; choose reserve, 2; sign
    assert built.code == 0, built.err
    assert "Choose an action:" in built.out and "choose reserve · reserve:" in built.out
    assert "undone" not in built.out and "nothing to undo" not in built.out  # u took back a part, not a choice
    assert "1. choose reserve 2" in built.out  # the batch, read back before signing
    assert actions(duel_log) == [[{"action": "choose_reserve"}]]  # the reserve itself is secret (sealed)
