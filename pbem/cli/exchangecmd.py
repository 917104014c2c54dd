"""Commands that move entries between players: export and import."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli._common import DataOpt, JsonOpt, console, data_provider, emit_json
from pbem.errors import UsageError
from pbem.exchange.packet import armour, read_packets
from pbem.exchange.transfer import export_packet, import_packets
from pbem.log.store import read_log, write_file
from pbem.verify.pipeline import verify_file

__all__ = ["export", "import_"]

LogArg = Annotated[Path, typer.Argument(help="The game log (JSON Lines).")]


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
    force: Annotated[bool, typer.Option("--force", help="Replace OUTPUT if it exists (atomically).")] = False,
    data: DataOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Make a packet of the entries the other player lacks: an armoured block to paste into an email, or a file.

    What a seat lacks is read from the log: everything after the entries its own latest entry builds on.
    """
    lines, _ = read_log(log)
    packet = export_packet(
        lines, sender=sender, recipient=recipient, everything=everything, data_provider=data_provider(data)
    )
    text = armour(packet)
    if output is not None:
        if output.exists() and not force:
            raise UsageError("U003", f"{output} exists: choose another name or pass --force to replace it")
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
        console.print(f"wrote {len(packet.lines)} entries for {recipient or 'the other seats'} to {output}")


def import_(
    log: Annotated[Path, typer.Argument(help="The game log (created if it does not exist yet).")],
    sources: Annotated[
        list[Path], typer.Argument(help="Packet files, saved emails (.eml), mbox files, or text holding armour.")
    ],
    data: DataOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Verify the entries in packets and append the new ones to LOG in one write (nothing if any fails)."""
    packets = [p for source in sources for p in read_packets(source)]
    provider = data_provider(data)
    result = import_packets(log, packets, data_provider=provider)
    report, _ = verify_file(log, data_provider=provider)
    if as_json:
        emit_json(
            {
                "game": result.game,
                "added": len(result.added),
                "duplicates": result.duplicates,
                "created": result.created,
                "valid": report.valid,
                "awaiting": report.awaiting,
                "result": None if report.result is None else report.result.model_dump(mode="json"),
            }
        )
        return
    made = "created" if result.created else "appended to"
    console.print(f"{len(result.added)} new entries {made} {log} ({result.duplicates} already there)")
    if report.result is not None:
        console.print(f"the game is over: {report.result.outcome}")
    else:
        console.print("; ".join(report.awaiting) or "nothing is awaited")
