"""Packets: armour that survives email, packet files, saved emails and mbox files."""

from __future__ import annotations

import mailbox
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.errors import ExchangeError
from pbem.exchange.packet import MEDIA_TYPE, Packet, armour, find_packets, read_packets
from tests.report.conftest import SAMPLE

LINES = tuple(SAMPLE.read_bytes().splitlines()[:5])
PACKET = Packet("ab" * 32, "allied", "axis", LINES)


def test_armour_round_trip() -> None:
    (back,) = find_packets(armour(PACKET))
    assert (back.game, back.sender, back.recipient, back.lines) == (PACKET.game, "allied", "axis", LINES)


@pytest.mark.case("F7")
@pytest.mark.parametrize(
    "mangle",
    [
        lambda t: t.replace("\n", "\r\n"),  # CRLF line endings
        lambda t: t.replace("\n", "  \n"),  # trailing whitespace
        lambda t: "".join("> " + line for line in t.splitlines(keepends=True)),  # quoted in a reply
        lambda t: "> " + t.replace("\n", "\n> ").replace("\n> \n", "\n>\n"),  # quoted, with bare '>' lines
        lambda t: "\n".join(  # re-wrapped at 40 columns by a mail client
            part
            for line in t.splitlines()
            for part in (
                [line] if "-----" in line or ":" in line else [line[i : i + 40] for i in range(0, len(line), 40)]
            )
        ),
        lambda t: f"Hi Bob,\n\nmy move is below.\n\n{t}\nCheers,\nAlice\n",  # inside an email body
    ],
    ids=["crlf", "trailing-spaces", "quoted", "quoted-bare", "rewrapped", "in-body"],
)
def test_armour_survives_email(mangle: object) -> None:
    (back,) = find_packets(mangle(armour(PACKET)))  # type: ignore[operator]
    assert back.lines == LINES


def test_two_blocks_in_one_text_are_both_found() -> None:
    other = Packet("cd" * 32, None, None, LINES[:1])
    found = find_packets(f"first\n{armour(PACKET)}\nsecond\n{armour(other)}")
    assert [p.game for p in found] == [PACKET.game, other.game]


def _flip(text: str, row: int, column: int) -> str:
    """``text`` with one base64 character of line ``row`` changed."""
    lines = text.splitlines()
    line = lines[row]
    lines[row] = line[:column] + ("A" if line[column] != "A" else "B") + line[column + 1 :]
    return "\n".join(lines)


@pytest.mark.parametrize(
    "damage",
    [
        lambda t: _flip(t, 8, 10),
        lambda t: "\n".join(line for i, line in enumerate(t.splitlines()) if i != 8),  # a payload line lost
        lambda t: t.replace("Checksum: ", "Checksum: 0"),
    ],
    ids=["changed-character", "lost-line", "wrong-checksum"],
)
def test_damaged_armour_is_refused_with_x002(damage: object) -> None:
    with pytest.raises(ExchangeError) as refused:
        find_packets(damage(armour(PACKET)))  # type: ignore[operator]
    assert refused.value.code.id == "X002"


def test_packet_files_tolerate_crlf_and_refuse_a_bad_header(tmp_path: Path) -> None:
    file = tmp_path / "move.pbem"
    file.write_bytes(PACKET.to_file().replace(b"\n", b"\r\n"))
    (back,) = read_packets(file)
    assert back.lines == LINES
    file.write_bytes(PACKET.to_file().replace(b'"entries":5', b'"entries":6'))
    with pytest.raises(ExchangeError) as refused:
        read_packets(file)
    assert refused.value.code.id == "X006"


def _message(body: str, attachment: bytes | None = None) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "alice@example.org", "bob@example.org", "pbem move"
    message.set_content(body)
    if attachment is not None:
        maintype, subtype = MEDIA_TYPE.split("/")
        message.add_attachment(attachment, maintype=maintype, subtype=subtype, filename="move.pbem")
    return message


def test_saved_emails_and_mbox_files(tmp_path: Path) -> None:
    eml = tmp_path / "move.eml"
    eml.write_bytes(bytes(_message("see attachment", PACKET.to_file())))
    assert [p.lines for p in read_packets(eml)] == [LINES]
    pasted = tmp_path / "pasted.eml"
    pasted.write_bytes(bytes(_message(f"Hello!\n\n{armour(PACKET)}")).replace(b"\n", b"\r\n"))
    assert [p.lines for p in read_packets(pasted)] == [LINES]
    box = mailbox.mbox(tmp_path / "inbox.mbox")
    box.add(_message("nothing here"))
    box.add(_message(armour(PACKET)))
    box.add(_message("attached", PACKET.to_file()))
    box.flush()
    box.close()
    assert [p.sender for p in read_packets(tmp_path / "inbox.mbox")] == ["allied", "allied"]


def test_a_file_without_packets_is_x001(tmp_path: Path) -> None:
    plain = tmp_path / "note.txt"
    plain.write_text("no packet here\n-----BEGIN PBEM PACKET-----\nbut never ended\n")
    with pytest.raises(ExchangeError) as refused:
        read_packets(plain)
    assert refused.value.code.id == "X001"
