"""Commands that move entries between players: export, import and mail."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli._common import DataOpt, ForceOpt, JsonOpt, LogArg, check_output, console, data_provider, emit_json
from pbem.errors import UsageError

__all__ = ["export", "import_", "mail"]


def export(
    log: LogArg,
    recipient: Annotated[
        str | None, typer.Option("--for", help="The seat to send to (default: every other seat).")
    ] = None,
    sender: Annotated[
        str | None, typer.Option("--from", help="Your seat (left out of the default recipients).")
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write a packet file (.pbem) instead of printing armour.")
    ] = None,
    armoured: Annotated[bool, typer.Option("--armour", help="With -o: write the armoured text, not the file.")] = False,
    everything: Annotated[bool, typer.Option("--all", help="Send the whole log, not only what is missing.")] = False,
    force: ForceOpt = False,
    data: DataOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Make a packet of the entries the other player lacks: an armoured block to paste into an email, or a file.

    What a seat lacks is read from the log: everything after the entries its own latest entry builds on.
    """
    from pbem.exchange.packet import armour
    from pbem.exchange.transfer import export_packet
    from pbem.log.entry import entry_count
    from pbem.log.store import read_log, write_file

    lines, _ = read_log(log)
    packet = export_packet(
        lines, sender=sender, recipient=recipient, everything=everything, data_provider=data_provider(data)
    )
    text = armour(packet)
    if output is not None:
        check_output(output, force)
        write_file(output, text.encode() if armoured else packet.to_file(), replace=force)
    if as_json:
        emit_json(
            {
                "game": packet.game,
                "from": packet.sender,
                "for": packet.recipient,
                "entries": len(packet.lines),
                "output": None if output is None else str(output),
                "armour": text if output is None else None,
            }
        )
    elif output is None:
        typer.echo(text, nl=False)
    else:
        console.print(f"wrote {entry_count(len(packet.lines))} for {recipient or 'the other seats'} to {output}")


def import_(
    log: Annotated[Path, typer.Argument(help="The game log (created if it does not exist yet).")],
    sources: Annotated[
        list[Path], typer.Argument(help="Packet files, saved emails (.eml), mbox files, or text holding armour.")
    ],
    data: DataOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Verify the entries in packets and append the new ones to LOG in one write (nothing if any fails)."""
    from pbem.exchange.packet import read_packets
    from pbem.exchange.transfer import import_packets
    from pbem.log.entry import entry_count
    from pbem.verify.pipeline import verify_file

    packets = [p for source in sources for p in read_packets(source)]
    provider = data_provider(data)
    result = import_packets(log, packets, data_provider=provider)
    report, verifier = verify_file(log, data_provider=provider)
    game = verifier.game
    request = game.undo_request if game is not None else None
    undo: dict[str, Any] | None = None
    if game is not None and request is not None and request.waiting:
        line, _, seq = game.entries[request.action]
        undo = {"from": request.author, "entry": request.action, "line": line,
                "seq": seq, "waiting": sorted(request.waiting)}  # fmt: skip
    if as_json:
        emit_json(
            {
                "game": result.game,
                "added": len(result.added),
                "duplicates": result.duplicates,
                "created": result.created,
                "stale": result.stale,
                "valid": report.valid,
                "awaiting": report.awaiting,
                "undo_request": undo,
                "result": None if report.result is None else report.result.model_dump(mode="json"),
            }
        )
        return
    added = entry_count(len(result.added), "new")
    if result.created:
        console.print(f"created {log} with {added}", markup=False)
    elif result.stale:
        console.print(
            f"nothing new: {log} already has every entry of {', '.join(result.sources)} "
            f"({entry_count(result.duplicates)}); nothing was changed",
            markup=False,
        )
    else:
        known = f" ({result.duplicates} already there)" if result.duplicates else ""
        console.print(f"appended {added} to {log}{known}", markup=False)
    if undo is not None:
        console.print(
            f"{undo['from']} asks to take back its last action ({undo['from']} #{undo['seq']}, line {undo['line']}); "
            "to agree, "
            f"{' and '.join(undo['waiting'])} run: pbem undo {log} --key YOUR.key --accept (to decline, play on)",
            markup=False,
        )
    if report.result is not None:
        console.print(f"the game is over: {report.result.outcome}")
    else:
        console.print("; ".join(report.awaiting) or "nothing is awaited")


def _address(value: str, option: str) -> str:
    """``value`` if it is a list of one or more email addresses (``bob@example.org``, ``Bob <bob@example.org>``).

    Raises:
        UsageError: U003 naming the option and what is wrong.
    """
    from email.errors import HeaderParseError
    from email.headerregistry import HeaderRegistry

    header: Any = None
    with contextlib.suppress(HeaderParseError, IndexError, ValueError):  # the stdlib parser raises these too
        header = HeaderRegistry()("To", value)
    addresses = list(header.addresses) if header is not None and not header.defects else []
    if not addresses or any(not a.username or not a.domain for a in addresses):
        raise UsageError("U003", f"{option} {value!r} is not an email address (like bob@example.org)")
    return value


def mail(
    log: LogArg,
    to: Annotated[str, typer.Option("--to", help="The recipient's email address.")],
    recipient: Annotated[
        str | None, typer.Option("--for", help="The recipient's seat (default: every other seat).")
    ] = None,
    sender_seat: Annotated[str | None, typer.Option("--from", help="Your seat.")] = None,
    sender: Annotated[
        str | None, typer.Option("--sender", help="Your address (default: the mail settings' from).")
    ] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Also save the message as .eml here.")] = None,
    do_send: Annotated[bool, typer.Option("--send", help="Send it by SMTP (STARTTLS; settings: see docs).")] = False,
    everything: Annotated[bool, typer.Option("--all", help="Send the whole log, not only what is missing.")] = False,
    force: ForceOpt = False,
    data: DataOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Write (-o) or send (--send) an email with the packet, a summary, and what the recipient must do next.

    SMTP settings come from ~/.config/pbem/mail.toml (or the file PBEM_MAIL_CONFIG names) or PBEM_SMTP_*
    variables, never options (see the README).
    """
    from pbem.exchange.mail import MailSettings, compose, send, summarize
    from pbem.exchange.transfer import export_packet
    from pbem.log.entry import entry_count
    from pbem.log.store import read_log, write_file

    if output is None and not do_send:
        raise UsageError("U003", "give -o FILE.eml to save the message, --send to send it, or both")
    check_output(output, force)
    _address(to, "--to")
    if sender is not None:
        _address(sender, "--sender")
    settings = None
    if do_send:
        try:
            settings = MailSettings.load()
        except UsageError as exc:
            hint = "" if output is not None else "; or save the message with -o FILE.eml and send it yourself"
            raise UsageError(exc.code.id, f"{exc.message} (the README lists the SMTP settings){hint}") from exc
    address = sender or (settings.sender if settings else None) or "pbem@localhost"
    lines, _ = read_log(log)
    provider = data_provider(data)
    packet = export_packet(
        lines, sender=sender_seat, recipient=recipient, everything=everything, data_provider=provider
    )
    summary = summarize(lines, packet, log_name=log.name, data_provider=provider)
    message = compose(packet, summary, to=to, sender=address, log_name=log.name)
    if output is not None:
        write_file(output, bytes(message), replace=force)
    if settings is not None:
        send(message, settings)
    if as_json:
        emit_json({"to": to, "entries": len(packet.lines), "sent": do_send, "output": output and str(output)})
    else:
        done = " and ".join(x for x in (f"saved to {output}" if output else "", "sent" if do_send else "") if x)
        console.print(f"message to {to} with {entry_count(len(packet.lines))} {done}")
