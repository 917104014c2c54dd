"""Hostile mail and packets: unknown charsets, header injection through titles and names, armour re-wrapped at
40 columns (quoted or not), re-spaced packet headers."""

from __future__ import annotations

import email
import email.policy
import json
import textwrap
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.exchange.packet import Packet, armour, find_packets, read_packets
from tests.cli.conftest import Cli
from tests.helpers import Table
from tests.report.conftest import SAMPLE

LINES = tuple(SAMPLE.read_bytes().splitlines()[:5])
PACKET = Packet("ab" * 32, "allied", "a-seat-name-of-thirty-two-chars-", LINES)


def _rewrap(text: str, width: int, *, quote: str = "", hard: bool) -> str:
    """What a mail client does: wrap every line to ``width`` columns (breaking long words or not), then quote."""
    out = []
    for line in text.splitlines():
        room = width - len(quote)
        parts = textwrap.wrap(line, room, break_long_words=hard, break_on_hyphens=False) or [""]
        out.extend(quote + part if part or not quote else quote.rstrip() for part in parts)
    return "\n".join(out) + "\n"


def test_every_armour_line_fits_40_columns_with_room_for_a_quote() -> None:
    head = armour(PACKET).split("\n\n")[0].splitlines()
    assert max(len(line) for line in head) <= 38


@pytest.mark.parametrize("quote", ["", "> ", "> > "])
@pytest.mark.parametrize("hard", [True, False])
@pytest.mark.parametrize("width", [40, 72])
def test_armour_survives_rewrapping_and_quoting(quote: str, hard: bool, width: int) -> None:
    mangled = _rewrap(armour(PACKET), width, quote=quote, hard=hard)
    (back,) = find_packets(f"Bob wrote:\n{mangled}\n-- \nsent from my phone\n")
    assert back.lines == LINES


def test_armour_rewrapped_twice_with_crlf_still_reads() -> None:
    twice = _rewrap(_rewrap(armour(PACKET), 40, quote="> ", hard=True), 40, quote="> ", hard=True)
    (back,) = find_packets(twice.replace("\n", "\r\n"))
    assert back.lines == LINES


@pytest.mark.parametrize("spacing", [{"indent": None, "separators": (", ", ": ")}, {"indent": None}])
def test_a_packet_file_whose_header_json_was_respaced_is_read(tmp_path: Path, spacing: dict[str, object]) -> None:
    data = PACKET.to_file()
    header, rest = data.split(b"\n", 1)
    respaced = json.dumps(json.loads(header), **spacing).encode()  # type: ignore[arg-type]
    file = tmp_path / "move.pbem"
    file.write_bytes(b"  " + respaced + b"\r\n" + rest)
    (back,) = read_packets(file)
    assert back.lines == LINES


@pytest.mark.parametrize("charset", ["x-unknown-charset", "utf-99", "klingon"])
def test_an_email_with_an_unknown_charset_is_read_as_utf8(tmp_path: Path, charset: str) -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@example.org", "b@example.org", "move"
    message.set_content(armour(PACKET))
    raw = bytes(message).replace(b'charset="utf-8"', f'charset="{charset}"'.encode())
    assert charset.encode() in raw
    eml = tmp_path / "move.eml"
    eml.write_bytes(raw)
    (back,) = read_packets(eml)
    assert back.lines == LINES


HOSTILE = ["Evil\r\nBcc: victim@example.org", "Evil\nX-Injected: 1", "Evil=?utf-8?q?=0D=0ABcc:_v@example.org?=",
           "Evil\u2028Bcc: victim@example.org", "Evil\u2029\x1b[2J\x85\x00"]  # fmt: skip


@pytest.mark.parametrize("text", HOSTILE)
def test_mail_with_line_breaks_in_the_title_and_names_is_one_header(tmp_path: Path, cli: Cli, text: str) -> None:
    table = Table.start(tmp_path, "duel", title=text, names={"red": text, "blue": text})
    eml = tmp_path / "move.eml"
    run = cli("mail", table.path, "--to", "bob@example.org", "--for", "blue", "--all", "-o", eml)
    assert run.code == 0, run.err
    message = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    assert "Bcc" not in message and "X-Injected" not in message
    subject = message["Subject"]
    assert subject.startswith("[pbem] Evil") and not any(c in subject for c in "\r\n\u2028\u2029\x1b\x85\x00")
    copy = tmp_path / "copy.jsonl"
    assert cli("import", copy, eml).code == 0  # the body and the attachment still carry the packet
    assert copy.read_bytes() == table.path.read_bytes()


def test_an_address_with_a_line_break_is_a_usage_error(tmp_path: Path, cli: Cli) -> None:
    table = Table.start(tmp_path, "duel")
    run = cli("mail", table.path, "--to", "bob@example.org\r\nBcc: x@example.org", "-o", tmp_path / "m.eml")
    run.assert_error("U003", exit_code=2)
    assert not (tmp_path / "m.eml").exists()
