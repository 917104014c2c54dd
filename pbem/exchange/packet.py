"""Packets: the entries one player sends another, as a file attachment or as armoured text for an email body.

A **packet file** (``.pbem``) is JSON Lines: a header, then the entries, each a canonical log line::

    {"entries":2,"for":"axis","from":"allied","game":"81a7…","pbem":"packet","v":1}
    {"author":"allied",…}
    {"author":"allied",…}

The **armoured** form carries the same bytes, zlib-compressed and base64-encoded in 64-column lines between
two markers, with a checksum, so that it survives being pasted into an email, re-wrapped, quoted with ``> ``,
given CRLF line endings or trailing spaces::

    -----BEGIN PBEM PACKET-----
    Game: 81a7af5c8785161c
    From: allied
    For: axis
    Entries: 2
    Checksum: 5f0e…(SHA-256 of the packet file, its first 24 hex digits)

    eJzNlcuO2zAMRX9F0DqL…
    -----END PBEM PACKET-----

The armour's header lines are for people (the game id in full is in the packet itself); only the payload and
its checksum count. Every header line is at most 38 characters, and the reader takes the headers as one block
up to the first blank line, joined without their line breaks, so a mail client that re-wraps the text at 40
columns, quotes it with ``> `` or both still yields the same checksum; the payload's whitespace is ignored.
Nothing in a packet is trusted: its entries are verified like any other line before they reach a log
(:mod:`pbem.exchange.transfer`).
"""

from __future__ import annotations

import base64
import binascii
import email
import email.policy
import hashlib
import mailbox
import re
import zlib
from dataclasses import dataclass
from email.message import EmailMessage, Message
from pathlib import Path

from pbem.errors import ExchangeError, LogFormatError
from pbem.log.canon import canonical, parse_line
from pbem.log.store import read_regular_file

__all__ = ["MEDIA_TYPE", "Packet", "armour", "find_packets", "read_packets"]

MEDIA_TYPE = "application/vnd.pbem-packet"
BEGIN, END = "-----BEGIN PBEM PACKET-----", "-----END PBEM PACKET-----"
_BLOCK = re.compile(
    r"^(?P<quote>[ \t>]*)" + re.escape(BEGIN) + r"[ \t]*\r?$(?P<body>.*?)^[ \t>]*" + re.escape(END), re.M | re.S
)
_HEADER = re.compile(r"^[A-Za-z-]+:")
_CHECKSUM = re.compile(r"Checksum:\s*([0-9A-Fa-f]+)")
_CHECKSUM_DIGITS = 24
_PACKET_FILE = re.compile(rb'^\s*\{.*"pbem"\s*:\s*"packet"')  # a packet file's header, however it is spaced
_MAX_PACKET = 64 * 1024 * 1024  # an inflated packet larger than this is refused (zip bombs)


@dataclass(frozen=True)
class Packet:
    """Entries for one game, from one seat (or None) for one seat (or None: everyone)."""

    game: str
    sender: str | None
    recipient: str | None
    lines: tuple[bytes, ...]
    source: str = ""
    """Where it was found, for messages (``mail.eml, part 2``)."""

    def to_file(self) -> bytes:
        """The packet file: header line, then one entry per line."""
        header = {
            "pbem": "packet",
            "v": 1,
            "game": self.game,
            "from": self.sender,
            "for": self.recipient,
            "entries": len(self.lines),
        }
        return b"".join(line + b"\n" for line in (canonical(header), *self.lines))

    @classmethod
    def from_file(cls, data: bytes, source: str = "") -> Packet:
        """Parse a packet file (CRLF line endings and blank lines tolerated).

        Raises:
            ExchangeError: X006 if the header or an entry line is malformed.
        """
        lines = [line.strip() for line in data.splitlines() if line.strip()]
        if not lines:
            raise ExchangeError("X006", f"{source or 'the packet'} is empty")
        try:
            header = parse_line(lines[0])
        except LogFormatError as exc:
            raise ExchangeError(
                "X006", f"{source or 'the packet'}: its header is not strict JSON ({exc.message})"
            ) from exc
        ok = (
            isinstance(header, dict)
            and header.get("pbem") == "packet"
            and header.get("v") == 1
            and isinstance(header.get("game"), str)
            and header.get("entries") == len(lines) - 1
            and all(header.get(k) is None or isinstance(header.get(k), str) for k in ("from", "for"))
        )
        if not ok:
            raise ExchangeError(
                "X006", f"{source or 'the packet'}: not a version 1 packet header, or the entry count is wrong"
            )
        assert isinstance(header, dict)
        return cls(header["game"], header.get("from"), header.get("for"), tuple(lines[1:]), source)


def armour(packet: Packet) -> str:
    """The packet as an armoured text block (see the module docstring)."""
    data = packet.to_file()
    payload = base64.b64encode(zlib.compress(data, 9)).decode()
    rows = [payload[i : i + 64] for i in range(0, len(payload), 64)]
    head = [
        BEGIN,
        f"Game: {packet.game[:16]}",
        f"From: {packet.sender or '-'}",
        f"For: {packet.recipient or 'everyone'}",
        f"Entries: {len(packet.lines)}",
        f"Checksum: {hashlib.sha256(data).hexdigest()[:_CHECKSUM_DIGITS]}",
        "",
    ]
    return "\n".join([*head, *rows, END]) + "\n"


def _dearmour(body: str, quote: str, source: str) -> Packet:
    rows = [
        (raw[len(quote) :] if quote and raw.startswith(quote) else raw.lstrip(" \t>")).strip()
        for raw in body.splitlines()
    ]
    while rows and not rows[0]:
        rows.pop(0)
    if "" in rows:  # the header block ends at the blank line, however it was re-wrapped
        blank = rows.index("")
        match = _CHECKSUM.search("".join(rows[:blank]))  # re-joined: a split "Checksum:" line reads as one
    else:  # a client dropped the blank line: the headers are the leading "Name: value" lines
        blank = next((i for i, row in enumerate(rows) if not _HEADER.match(row)), len(rows))
        match = _CHECKSUM.search("\n".join(rows[:blank]))
    checksum = match.group(1).lower() if match else None
    payload = [re.sub(r"\s+", "", row) for row in rows[blank:]]
    inflate = zlib.decompressobj()
    try:
        data = inflate.decompress(base64.b64decode("".join(payload), validate=True), _MAX_PACKET)
    except (binascii.Error, zlib.error, ValueError) as exc:
        raise ExchangeError("X002", f"{source}: the armoured packet does not decode ({exc})") from exc
    if inflate.unconsumed_tail:
        raise ExchangeError("X002", f"{source}: the armoured packet inflates to more than {_MAX_PACKET} bytes")
    if checksum is None or hashlib.sha256(data).hexdigest()[: len(checksum)] != checksum or len(checksum) < 16:
        raise ExchangeError("X002", f"{source}: the armoured packet fails its checksum (it was changed in transit)")
    return Packet.from_file(data, source)


def find_packets(text: str, source: str = "text") -> list[Packet]:
    """Every armoured packet in ``text`` (an email body, a saved message, anything), in order."""
    return [_dearmour(m.group("body"), m.group("quote"), source) for m in _BLOCK.finditer(text)]


def _message_packets(message: Message, source: str) -> list[Packet]:
    found: list[Packet] = []
    for number, part in enumerate(message.walk(), 1):
        if part.is_multipart():
            continue
        where = f"{source}, part {number}"
        name = part.get_filename() or ""
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            continue
        if part.get_content_type() == MEDIA_TYPE or name.endswith(".pbem"):
            found.append(Packet.from_file(payload, where))
        elif part.get_content_maintype() == "text":
            found.extend(find_packets(_decode(payload, part.get_content_charset()), where))
    return found


def _decode(payload: bytes, charset: str | None) -> str:
    """A text part as text: armour is ASCII, so an unknown or bogus charset falls back to UTF-8."""
    try:
        return payload.decode(charset or "utf-8", errors="replace")
    except LookupError:  # "x-unknown", "utf-99": the name is the sender's client's business, not an error
        return payload.decode("utf-8", errors="replace")


def read_packets(path: Path) -> list[Packet]:
    """The packets in a file: a packet file, text with armoured blocks, a saved email (.eml) or an mbox.

    Raises:
        ExchangeError: X001 if there is none, X002/X006 for a damaged one.
        StorageError: F001 if the file cannot be read.
    """
    data = read_regular_file(path)
    source = path.name
    first = data.lstrip().split(b"\n", 1)[0]
    if _PACKET_FILE.match(first):
        return [Packet.from_file(data, source)]
    if data.startswith(b"From "):  # an mbox: one message after another
        box = mailbox.mbox(path, create=False)
        try:
            found = [p for i, m in enumerate(box, 1) for p in _message_packets(m, f"{source}, message {i}")]
        finally:
            box.close()
    elif re.match(rb"^[A-Za-z-]+: ", data) and b"\n\n" in data.replace(b"\r\n", b"\n"):
        message = email.message_from_bytes(data, _class=EmailMessage, policy=email.policy.default)
        found = _message_packets(message, source)
    else:
        found = find_packets(data.decode("utf-8", errors="replace"), source)
    if not found:
        raise ExchangeError("X001", f"{path} holds no pbem packet (no packet file, armoured block or attachment)")
    return found
