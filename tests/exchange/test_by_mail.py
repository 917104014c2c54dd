"""Play by email end to end: two players, separate directories, only packets between them (one pasted into an
email body with CRLF endings, one through a real SMTP server with STARTTLS), identical copies at the end."""

from __future__ import annotations

import email
import email.policy
import json
import random
from pathlib import Path

import pytest

from pbem.verify.pipeline import verify_file
from tests.cli.conftest import Cli, write_keys
from tests.exchange.smtp import PASSWORD, USER, Server, smtp_server


@pytest.fixture
def server(tmp_path: Path) -> object:
    with smtp_server(tmp_path) as running:
        yield running


def smtp_env(monkeypatch: pytest.MonkeyPatch, server: Server, tmp_path: Path) -> None:
    monkeypatch.setenv("PBEM_MAIL_CONFIG", str(tmp_path / "no-such-config.toml"))
    for name, value in {"HOST": server.host, "PORT": str(server.port), "USER": USER, "PASSWORD": PASSWORD,
                        "CAFILE": str(server.cafile)}.items():  # fmt: skip
        monkeypatch.setenv(f"PBEM_SMTP_{name}", value)
    monkeypatch.setenv("PBEM_MAIL_FROM", "Alice <alice@example.org>")


def test_a_game_by_email_ends_with_identical_verified_copies(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: Server
) -> None:
    smtp_env(monkeypatch, server, tmp_path)
    home = {"red": tmp_path / "alice", "blue": tmp_path / "bob"}
    keys = {"red": write_keys(home["red"], "alice", "red"), "blue": write_keys(home["blue"], "bob", "blue")}
    logs = {seat: home[seat] / "game.jsonl" for seat in home}
    other = {"red": "blue", "blue": "red"}
    made = cli("new", "triad", "--scenario", "duel", "--seat", f"red={keys['red'].pub}", "--seat",
               f"blue={keys['blue'].pub}", "--key", keys["red"].key, "-o", logs["red"], "--name", "Alice",
               "--option", "rounds=1", "--title", "A friendly duel")  # fmt: skip
    assert made.code == 0, made.err
    sent = {"file": 0, "pasted": 0, "smtp": 0}

    def deliver(seat: str, how: str) -> None:
        """Send what ``seat`` wrote to the other player, who imports it."""
        to = other[seat]
        inbox = home[to] / f"in-{sum(sent.values())}"
        if how == "file":
            assert cli("export", logs[seat], "--for", to, "--from", seat, "-o", inbox).code == 0
        elif how == "pasted":
            text = cli("export", logs[seat], "--for", to, "--from", seat).out
            inbox.write_bytes(f"Hi,\n\nmy move:\n\n{text}\nSee you!\n".replace("\n", "\r\n").encode())
        else:
            run = cli("mail", logs[seat], "--to", "bob@example.org", "--for", to, "--from", seat, "--send")
            assert run.code == 0, run.err
            inbox.write_bytes(server.inbox.messages[-1])  # the message as the server received it, saved as .eml
        run = cli("import", logs[to], inbox)
        assert run.code == 0, run.err
        sent[how] += 1

    deliver("red", "file")  # the invitation creates Bob's copy
    assert cli("join", logs["blue"], "--key", keys["blue"].key, "--name", "Bob").code == 0
    deliver("blue", "pasted")
    rng = random.Random(3)
    channels = iter(["smtp"])
    while True:
        moved = False
        for seat in ("red", "blue"):
            size = logs[seat].stat().st_size
            cli("reveal", logs[seat], "--key", keys[seat].key)
            legal = json.loads(cli("legal", logs[seat], "--key", keys[seat].key, "--json").out)
            if legal:
                acted = cli("act", logs[seat], json.dumps(rng.choice(legal)), "--key", keys[seat].key)
                assert acted.code == 0, acted.err
            if logs[seat].stat().st_size != size:
                deliver(seat, next(channels, "file"))
                moved = True
        if not moved:
            break
    assert logs["red"].read_bytes() == logs["blue"].read_bytes()
    report, _ = verify_file(logs["red"])
    assert report.valid and report.result is not None and report.audit == "complete"
    assert sent["smtp"] == 1 and sent["pasted"] == 1 and sent["file"] > 3
    received = email.message_from_bytes(server.inbox.messages[0], policy=email.policy.default)
    assert received["Subject"].startswith("[pbem] A friendly duel") and server.inbox.recipients == [["bob@example.org"]]
    body = received.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    assert "What you must do next" in body and "pbem import game.jsonl" in body and "BEGIN PBEM PACKET" in body


def test_mail_without_starttls_trust_fails_cleanly(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: Server
) -> None:
    smtp_env(monkeypatch, server, tmp_path)
    monkeypatch.delenv("PBEM_SMTP_CAFILE")  # the server's certificate is not trusted now
    log = tmp_path / "game.jsonl"
    alice, bob = write_keys(tmp_path / "a", "alice", "red"), write_keys(tmp_path / "b", "bob", "blue")
    assert cli("new", "triad", "--scenario", "duel", "--seat", f"red={alice.pub}", "--seat", f"blue={bob.pub}",
               "--key", alice.key, "-o", log).code == 0  # fmt: skip
    run = cli("mail", log, "--to", "bob@example.org", "--for", "blue", "--send")
    run.assert_error("X007")
    assert server.inbox.messages == []


def test_mail_saves_a_standard_eml_that_imports(cli: Cli, tmp_path: Path) -> None:
    alice, bob = write_keys(tmp_path / "a", "alice", "red"), write_keys(tmp_path / "b", "bob", "blue")
    log = tmp_path / "a" / "game.jsonl"
    assert cli("new", "triad", "--scenario", "duel", "--seat", f"red={alice.pub}", "--seat", f"blue={bob.pub}",
               "--key", alice.key, "-o", log).code == 0  # fmt: skip
    eml = tmp_path / "invite.eml"
    assert cli("mail", log, "--to", "bob@example.org", "--for", "blue", "-o", eml).code == 0
    message = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    assert message["Message-ID"] and message["Date"] and message.is_multipart()
    assert next(str(p.get_filename()) for p in message.iter_attachments()).endswith(".pbem")
    copy = tmp_path / "b" / "game.jsonl"
    assert cli("import", copy, eml).code == 0 and copy.read_bytes() == log.read_bytes()
    cli("mail", log, "--to", "bob@example.org").assert_error("U003", 2)  # neither -o nor --send


def test_the_message_names_the_sender_and_tells_the_recipient_what_to_run(cli: Cli, tmp_path: Path) -> None:
    """Without --from/--for, a two-player packet of one seat's entries is from that seat to the other."""
    alice, bob = write_keys(tmp_path / "a", "alice", "red"), write_keys(tmp_path / "b", "bob", "blue")
    log, copy = tmp_path / "a" / "game.jsonl", tmp_path / "b" / "game.jsonl"
    assert cli("new", "triad", "--scenario", "duel", "--seat", f"red={alice.pub}", "--seat", f"blue={bob.pub}",
               "--key", alice.key, "-o", log, "--name", "Alice", "--title", "Duel").code == 0  # fmt: skip
    invite = tmp_path / "invite.eml"
    assert cli("mail", log, "--to", "bob@example.org", "-o", invite).code == 0
    message = email.message_from_bytes(invite.read_bytes(), policy=email.policy.default)
    assert message["Subject"] == "[pbem] Duel: 2 new entries from Alice (red)"
    part = message.get_body(preferencelist=("plain",))
    assert part is not None and part["Content-Transfer-Encoding"] == "7bit"
    body = part.get_content()
    words = " ".join(body.split())
    assert "Alice (red) started a game of" in words and "your seat: blue" in words
    assert "join the game:\n      pbem join game.jsonl --key YOUR.key --name YOUR-NAME" in body
    assert max(len(line) for line in body.splitlines()) <= 76
    imported = cli("import", copy, invite)  # the message holds the packet twice: counted once
    assert imported.code == 0 and "created" in imported.out and "with 2 new entries" in imported.out
    assert cli("join", copy, "--key", bob.key, "--name", "Bob").code == 0
    reply = tmp_path / "reply.eml"
    assert cli("mail", copy, "--to", "alice@example.org", "-o", reply).code == 0
    answer = email.message_from_bytes(reply.read_bytes(), policy=email.policy.default)
    assert answer["Subject"] == "[pbem] Duel: 1 new entry from Bob (blue)"
    taken = cli("import", log, reply, "--json")
    assert taken.code == 0 and json.loads(taken.out)["added"] == 1
    stale = cli("import", log, reply)  # importing the same packet twice is a harmless no-op that says so
    assert stale.code == 0, stale.err
    assert "already has every entry" in stale.out and "(1 entry)" in stale.out
