"""Mail a packet: a standards-compliant message (stdlib ``email``) and, if asked, SMTP with STARTTLS.

The message carries the packet twice, as a ``.pbem`` attachment and as armour at the end of the body, so
the recipient can import either the saved message, the attachment, or the body pasted anywhere. The body
first says in plain words what happened and what the recipient must do next.

SMTP settings come from a TOML file (``PBEM_MAIL_CONFIG``, default ``~/.config/pbem/mail.toml``) and the
environment, never from the command line (a password there would be visible to other users)::

    [smtp]
    host = "smtp.example.org"
    port = 587
    user = "alice@example.org"
    password_file = "~/.config/pbem/smtp-password"   # or the environment variable PBEM_SMTP_PASSWORD
    from = "Alice <alice@example.org>"
    # cafile = "/path/to/ca.pem"                     # a private CA; default: the system's trust store

Environment variables override the file: ``PBEM_SMTP_HOST``, ``PBEM_SMTP_PORT``, ``PBEM_SMTP_USER``,
``PBEM_SMTP_PASSWORD``, ``PBEM_MAIL_FROM``, ``PBEM_SMTP_CAFILE``. STARTTLS is always required.
"""

from __future__ import annotations

import os
import smtplib
import ssl
import textwrap
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path

from pbem.errors import ExchangeError, UsageError
from pbem.exchange.packet import MEDIA_TYPE, Packet, armour
from pbem.log.entry import entry_count, envelope
from pbem.replay.game import DataProvider, builtin_data
from pbem.report.chronicle import QUIET, chronicle
from pbem.text import header_value

__all__ = ["MailSettings", "Summary", "compose", "send", "summarize"]


@dataclass(frozen=True)
class MailSettings:
    host: str
    port: int = 587
    user: str | None = None
    password: str | None = None
    sender: str | None = None
    cafile: str | None = None

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None) -> MailSettings:
        """Settings from the config file and the environment.

        Raises:
            UsageError: U003 if the file is malformed or no host is configured.
        """
        env = os.environ if environ is None else environ
        path = Path(env.get("PBEM_MAIL_CONFIG", "~/.config/pbem/mail.toml")).expanduser()
        table: dict[str, object] = {}
        if path.exists():
            try:
                table = dict(tomllib.loads(path.read_text()).get("smtp", {}))
            except (tomllib.TOMLDecodeError, OSError) as exc:
                raise UsageError("U003", f"cannot read the mail settings in {path}: {exc}") from exc
        password = env.get("PBEM_SMTP_PASSWORD")
        if password is None and isinstance(table.get("password_file"), str):
            try:
                password = Path(str(table["password_file"])).expanduser().read_text().strip()
            except OSError as exc:
                raise UsageError("U003", f"cannot read the SMTP password file: {exc.strerror}") from exc
        host = env.get("PBEM_SMTP_HOST") or table.get("host")
        if not isinstance(host, str) or not host:
            raise UsageError("U003", f"no SMTP host: set PBEM_SMTP_HOST or [smtp] host in {path}")
        try:
            port = int(env.get("PBEM_SMTP_PORT") or str(table.get("port", 587)))
        except ValueError as exc:
            raise UsageError("U003", "the SMTP port is not a number") from exc

        def text(key: str, var: str) -> str | None:
            value = env.get(var) or table.get(key)
            return value if isinstance(value, str) else None

        user, sender, cafile = (
            text("user", "PBEM_SMTP_USER"),
            text("from", "PBEM_MAIL_FROM"),
            text("cafile", "PBEM_SMTP_CAFILE"),
        )
        return cls(host, port, user, password, sender, cafile)


@dataclass(frozen=True)
class Summary:
    """What a packet's entries did (public events only), who sent them, and what the recipient must do next."""

    title: str
    sender: str
    happened: tuple[str, ...]
    next_steps: tuple[str, ...]


# What each kind of wait asks of the recipient, and the command that does it ({log}: the log's file name).
_REVEAL = "pbem reveal {log} --key YOUR.key"
_NEXT_STEPS = {
    "join": ("join the game", "pbem join {log} --key YOUR.key --name YOUR-NAME"),
    "act": ("your move", "pbem play {log} --key YOUR.key"),
    "dice": ("reveal your dice seed so the pending roll settles", _REVEAL),
    "open": ("open {detail} as the rules require", _REVEAL),
    "seal": ("commit to {detail}", _REVEAL),
    "checkpoint": ("co-sign the end of {detail}", _REVEAL),
    "disclose": ("the game is over: disclose your game secret for the audit", _REVEAL),
    "deck": ("{detail}", _REVEAL),
}
_WIDTH = 76  # body lines stay short enough for 7bit transfer and every mail reader


def summarize(
    lines: Sequence[bytes],
    packet: Packet,
    *,
    log_name: str,
    data_provider: DataProvider = builtin_data,
) -> Summary:
    """The summary of ``packet`` for its recipient, replayed from the sender's whole log ``lines``."""
    recipient = packet.recipient
    chron = chronicle(lines, data_provider=data_provider)
    game = chron.game
    assert game is not None
    ids = {envelope(line).id for line in packet.lines}
    sender = "your opponent" if packet.sender is None else chron.name_of(packet.sender)
    genesis = game.genesis.body
    name = chron.ruleset.name if chron.ruleset else genesis.ruleset
    title = genesis.title or name
    invitation = []
    if game.id in ids:
        seat = f"; your seat: {recipient}" if recipient is not None else ""
        invitation.append(f"{sender} started a game of {name} (scenario {genesis.scenario}){seat}")
    happened = tuple(invitation) + tuple(
        f"{chron.name_of(m.credit(e))}: {chron.text_of(e)}" if m.credit(e) else chron.text_of(e)
        for m in chron.moments
        if m.entry in ids
        for e in m.events
        if e.visible_to is None and e.text and e.kind not in QUIET
    )
    steps = []
    for wait in game.awaiting():
        if recipient is not None and wait.seat != recipient:
            continue
        what, command = (text.format(log=log_name, detail=wait.detail) for text in _NEXT_STEPS[wait.what])
        who = "" if recipient is not None else f"{chron.name_of(wait.seat)}: "
        steps.append(f"{who}{what}:\n      {command}")
    return Summary(title, sender, happened, tuple(dict.fromkeys(steps)))


def _bullet(text: str) -> str:
    return textwrap.fill(text, _WIDTH, initial_indent="  - ", subsequent_indent="    ", break_long_words=False)


def compose(packet: Packet, summary: Summary, *, to: str, sender: str, log_name: str) -> EmailMessage:
    """The message for ``packet``: a plain-text summary and instructions, the armour, and the attachment."""
    title, who, happened, next_steps = summary.title, summary.sender, summary.happened, summary.next_steps
    for option, address in (("--to", to), ("the sender address", sender)):
        if header_value(address) != address:
            raise UsageError("U003", f"{option} {address!r} holds a line break, a control character or '=?'")
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    # title and names are the players' free text: one line each in a header, whatever they hold
    message["Subject"] = header_value(f"[pbem] {title}: {entry_count(len(packet.lines), 'new')} from {who}")
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = make_msgid(domain="pbem.invalid")
    message["X-Pbem-Game"] = packet.game
    story = "\n".join(_bullet(line) for line in happened) or "  (protocol entries only: dice seeds, checkpoints)"
    todo = "\n".join(f"  - {line}" for line in next_steps) or "  - nothing yet: the game waits for someone else"
    body = (
        f"{who[0].upper()}{who[1:]} sent you {entry_count(len(packet.lines), 'new signed')} for {title}.\n\n"
        f"What happened:\n{story}\n\n"
        f"What you must do next, once you have imported them:\n{todo}\n\n"
        "To take them in, save the attachment (or this whole message) and run:\n"
        f"  pbem import {log_name} <the saved file>\n"
        "pbem verifies every signature, die roll and move before it appends anything.\n\n"
        "The same entries as text, in case the attachment is lost:\n\n"
        f"{armour(packet)}"
    )
    message.set_content(body)
    maintype, subtype = MEDIA_TYPE.split("/")
    name = f"{packet.game[:8]}-{packet.sender or 'entries'}-{len(packet.lines)}.pbem"
    message.add_attachment(packet.to_file(), maintype=maintype, subtype=subtype, filename=name)
    return message


def send(message: EmailMessage, settings: MailSettings, *, timeout: float = 30.0) -> None:
    """Send ``message`` over SMTP, always through STARTTLS, logging in if a user is configured.

    Raises:
        ExchangeError: X007 if the server cannot be reached, refuses TLS, the login or the message.
    """
    context = ssl.create_default_context(cafile=settings.cafile)
    try:
        with smtplib.SMTP(settings.host, settings.port, timeout=timeout) as smtp:
            smtp.starttls(context=context)
            if settings.user is not None:
                if settings.password is None:
                    raise ExchangeError("X007", "an SMTP user is configured without a password")
                smtp.login(settings.user, settings.password)
            smtp.send_message(message)
    except (OSError, smtplib.SMTPException, ssl.SSLError) as exc:
        where = f"{settings.host}:{settings.port}"
        raise ExchangeError("X007", f"mail to {message['To']} via {where} failed: {exc}") from exc
