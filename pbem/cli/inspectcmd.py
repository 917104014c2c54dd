"""Commands that read logs: games, status, verify, show, merge."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from pbem.cli._common import (
    DataOpt,
    ExitCode,
    JsonOpt,
    LogArg,
    PassOpt,
    console,
    data_provider,
    emit_json,
    load_key,
    untrusted,
)
from pbem.errors import StorageError, UsageError

if TYPE_CHECKING:  # imported where used, so a command loads only what it needs (CLI start time)
    from pbem.replay.game import Game, Knowledge
    from pbem.verify.findings import VerificationReport


OptKey = Annotated[Path | None, typer.Option("--key", "-k", help="Your key: also see your own hidden values.")]


def _knowledge(key: Path | None, passphrase_file: Path | None) -> Knowledge:
    """What the key's seat knows of its own hidden values (nothing without a key; the client loads only then)."""
    if key is None:
        from pbem.replay.game import no_knowledge

        return no_knowledge
    from pbem.client.session import own_knowledge

    return own_knowledge(load_key(key, passphrase_file))


def games(as_json: JsonOpt = False) -> None:
    """List the installed games with their versions, scenarios and seats."""
    from pbem.rules import registry

    listing: list[dict[str, Any]] = [
        {
            "id": r.id,
            "name": r.name,
            "version": r.version,
            "scenarios": [{"id": s.id, "name": s.name, "seats": [seat.id for seat in s.seats]} for s in r.scenarios],
            "options": [{"id": o.id, "default": o.default, "description": o.description} for o in r.options],
        }
        for r in registry.installed().values()
    ]
    if as_json:
        emit_json(listing)
        return
    for game in listing:
        console.print(f"[bold]{game['id']}[/bold] {game['version']}: {game['name']}")
        for scenario in game["scenarios"]:
            console.print(f"  scenario {scenario['id']}: {scenario['name']} (seats: {', '.join(scenario['seats'])})")


_DAMAGE = ("L0", "C001", "K001")  # findings that mean the file itself is damaged, which pbem repair recovers from


def _print_report(report: VerificationReport, lines: Sequence[bytes] = (), log: Path | None = None) -> None:
    """The findings, each error with a count of the later errors that only follow from it, then the verdict."""
    from pbem.log.entry import entry_count
    from pbem.text import plural
    from pbem.verify.findings import Severity, root_causes

    causes = root_causes(report.findings, lines)
    for finding in report.findings:
        if finding.severity is not Severity.ERROR:
            console.print(f"[yellow]{escape(finding.render())}[/yellow]")
    for cause in causes:
        console.print(f"[red]{escape(cause.finding.render())}[/red]")
        if cause.consequences:
            numbers = [f.line for f in cause.consequences if f.line is not None]
            lines_of = f"line {numbers[0]}" if len(set(numbers)) == 1 else f"lines {min(numbers)}–{max(numbers)}"
            span = f" ({lines_of}; --json lists each)" if numbers else ""
            later = plural(len(cause.consequences), "later entry", "later entries")
            console.print(f"  and {later} {'depends' if len(cause.consequences) == 1 else 'depend'} on it{span}")
    if report.valid:
        console.print(
            f"[green]valid[/green]: {entry_count(report.entries)}, {report.ruleset}, scenario {report.scenario}"
        )
    else:
        console.print(f"[red]INVALID[/red]: {entry_count(report.entries)} read")
        first = report.first_error
        if log is not None and first is not None and first.code.startswith(_DAMAGE):
            console.print(f"the file is damaged: pbem repair {log} keeps its valid part and sets the rest aside")
    if report.result is not None:
        winners = ", ".join(report.result.winners) or "nobody"
        console.print(f"result: {report.result.outcome}; winners: {winners}; audit {report.audit}")
    for line in report.awaiting if report.valid else ():  # an invalid log waits for nothing but its repair
        console.print(line)


def verify(
    log: LogArg,
    data: DataOpt = None,
    no_rules: Annotated[bool, typer.Option("--no-rules", help="Check only signatures, chain and format.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Verify a log: signatures, hash chains, dice, hidden commitments, checkpoints and every rule.

    Exit code 0 if it is valid, 1 if not, 4 if the game module failed (R009, a bug to report).
    """
    from pbem.log.store import conflicted_siblings, read_log
    from pbem.verify.findings import root_causes
    from pbem.verify.pipeline import verify_lines

    lines, torn = read_log(log)
    report, _ = verify_lines(lines, data_provider=data_provider(data), rules=not no_rules, torn=torn)
    siblings = conflicted_siblings(log)
    if as_json:
        follow_on = [
            {"line": c.finding.line, "code": c.finding.code, "consequences": [f.line for f in c.consequences]}
            for c in root_causes(report.findings, lines)
        ]
        emit_json({**report.as_json(), "conflicted_copies": [str(p) for p in siblings], "causes": follow_on})
    else:
        _print_report(report, lines, log)
        for sibling in siblings:
            console.print(f"[yellow]a sync conflict left {sibling}: run pbem merge {log} {sibling} -o MERGED[/yellow]")
    raise typer.Exit(ExitCode.OK if report.valid else ExitCode.BUG if report.module_bug else ExitCode.INVALID)


def status(
    log: LogArg, key: OptKey = None, passphrase_file: PassOpt = None, data: DataOpt = None, as_json: JsonOpt = False
) -> None:
    """Who must do what now, the seats and their fingerprints, and the result if the game is over."""
    from pbem.log import timestamps
    from pbem.log.entry import entry_count
    from pbem.log.store import read_log
    from pbem.verify.pipeline import verify_lines

    knowledge = _knowledge(key, passphrase_file)
    lines, torn = read_log(log)
    report, verifier = verify_lines(lines, knowledge=knowledge, data_provider=data_provider(data), torn=torn)
    game = verifier.game
    if game is None:  # not a game log at all: its findings, and no line of empty fields
        if as_json:
            full = report.as_json()
            emit_json(
                {"game": None, "valid": False, "entries": 0, "findings": full["findings"], "error": full["error"]}
            )
        else:
            console.print(f"{log} is not a pbem game log (no genesis entry could be read)", markup=False)
            _print_report(report, lines, log)
        raise typer.Exit(ExitCode.INVALID)
    seats = [
        {"seat": name, "role": book.role, "team": book.team, "fingerprint": book.key.fingerprint,
         "joined": book.joined, "seq": book.seq}
        for name, book in game.seats.items()
    ]  # fmt: skip
    deadline = None
    if game.genesis.body.deadline is not None:
        hours, since = game.genesis.body.deadline, game.last[1]
        deadline = {"hours": hours, "last_entry": since, "claim_from": timestamps.add_hours(since, hours)}
    decks = _public_decks(game)
    info = {
        "game": report.game,
        "title": game.genesis.body.title or None,
        "ruleset": report.ruleset,
        "scenario": report.scenario,
        "valid": report.valid,
        "entries": report.entries,
        "period": game.period,
        "seats": seats,
        "awaiting": report.awaiting,
        "result": None if report.result is None else report.result.model_dump(mode="json"),
        "audit": report.audit,
        "deadline": deadline,
        "claims": report.claims,
        "decks": decks,
        "error": None if report.first_error is None else report.first_error.model_dump(mode="json"),
    }
    if as_json:
        emit_json(info)
    else:
        console.print(f"{untrusted(str(info['title'] or 'game'))} {report.game}")
        period = f", period {info['period']}" if info["period"] else ""
        console.print(f"{report.ruleset}, scenario {report.scenario}, {entry_count(report.entries)}{period}")
        for seat in seats:
            joined = "joined" if seat["joined"] else "not joined"
            console.print(f"  {seat['seat']:<10} {seat['role']:<8} {seat['fingerprint']}  {joined}")
        if deadline is not None and report.result is None:
            console.print(
                f"deadline: {deadline['hours']} hours to answer; the last entry is from {deadline['last_entry']}, "
                f"so a timeout can be claimed from {deadline['claim_from']}"
            )
        for claim in report.claims:
            console.print(f"timeout claim, {claim}")
        if game.state is not None:
            for name, deck in sorted(game.state.decks.items()):
                console.print(deck.describe(name))
        _print_report(report, lines, log)
    raise typer.Exit(ExitCode.OK if report.valid else ExitCode.INVALID)


def _public_decks(game: Game | None) -> dict[str, dict[str, Any]]:
    """What everybody may know of each shared deck: its size, each hand's size and the face-up cards."""
    if game is None or game.state is None:
        return {}
    return {
        name: {"size": d.size, "hands": {s: len(h) for s, h in d.hands.items()}, "faceup": list(d.faceup)}
        for name, d in sorted(game.state.decks.items())
    }


def show(
    log: LogArg,
    at: Annotated[int | None, typer.Option("--at", help="Show the game after line N.")] = None,
    viewer: Annotated[str | None, typer.Option("--as", help="See it as this seat (default: an observer).")] = None,
    key: OptKey = None,
    passphrase_file: PassOpt = None,
    data: DataOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Show the game as one seat (or an observer) sees it, now or after line N."""
    from rich.table import Table

    from pbem.log.store import read_log
    from pbem.rules.contract import OBSERVER, OMNISCIENT
    from pbem.verify.pipeline import verify_lines

    lines, _ = read_log(log)
    if at is not None:
        if at < 1:
            raise UsageError("U003", "--at counts lines from 1")
        lines = lines[:at]
    knowledge = _knowledge(key, passphrase_file)
    report, verifier = verify_lines(lines, knowledge=knowledge, data_provider=data_provider(data))
    game = verifier.game
    if game is None:
        first = report.first_error
        raise UsageError("U005", f"{log} does not verify ({first.render() if first else 'no genesis'})")
    if game.state is None:
        raise UsageError("U002", "the game has not started at that point (not every seat has joined)")
    who = viewer or OBSERVER
    if viewer is not None and viewer not in game.seats and viewer not in (OBSERVER, OMNISCIENT):
        raise UsageError("U003", f"--as {viewer}: no such seat (seats: {', '.join(game.seats)})")
    view = game.ruleset.view(game.state, who)
    if as_json:
        data_out = view.model_dump(mode="json")
        data_out.update({"valid": report.valid, "line": report.lines, "period": game.period})
        emit_json(data_out)
        return
    console.print(f"{view.summary} (as {who}, after line {report.lines})")
    table = Table("unit", "side", "location", "strength", "steps")
    for unit in view.units:
        hidden = "?" if unit.hidden else ""
        table.add_row(
            unit.name, unit.side, unit.location or "-", str(unit.strength or hidden), str(unit.steps or hidden)
        )
    console.print(table)


def merge(
    a: Annotated[Path, typer.Argument(help="One copy of the log.")],
    b: Annotated[Path, typer.Argument(help="Another copy of the same game.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The merged log (never overwritten).")],
    as_json: JsonOpt = False,
) -> None:
    """Merge two copies of a game into OUT: their union in causal order, naming any fork or truncated copy.

    OUT is written only when the union verifies; otherwise nothing is written and the reason is shown.
    Exit code 0 if both copies merge cleanly, 1 if anything is named (a fork, a truncated copy, a damaged entry).
    """
    from pbem.log.entry import entry_count
    from pbem.log.store import write_new_file
    from pbem.verify.merge import merge_files
    from pbem.verify.pipeline import verify_lines

    if output.exists():  # checked first to save the work; the atomic write checks again
        raise StorageError("F004", f"{output} exists; pbem never overwrites a file")
    result = merge_files(a, b)
    report, _ = verify_lines(result.lines)
    complete = report.valid and not result.unplaced  # never a valid-looking file that silently drops entries
    if complete:
        write_new_file(output, b"".join(line + b"\n" for line in result.lines))
    clean = result.clean and report.valid
    if as_json:
        emit_json({
            "output": str(output) if complete else None, "entries": len(result.lines),
            "added_from_b": result.added, "forks": [vars(f) for f in result.forks],
            "truncations": [vars(t) for t in result.truncations], "damaged": [vars(d) for d in result.damaged],
            "unplaced": result.unplaced, "unreadable": result.unreadable, "verification": report.as_json(),
            "clean": clean,
        })  # fmt: skip
        raise typer.Exit(ExitCode.OK if clean else ExitCode.INVALID)
    if complete:
        console.print(f"merged {entry_count(len(result.lines))} into {output} ({result.added} only in {b})")
    for fork in result.forks:
        console.print(f"[red][C006] fork: {fork.author} seq {fork.seq} is both {fork.first} and {fork.second}[/red]")
    for cut in result.truncations:
        console.print(
            f"[red][P005] copy {cut.copy} lacks {entry_count(cut.missing)} covered by checkpoint {cut.label}, "
            "which every seat co-signed: it is an old copy or a truncated one[/red]"
        )
    for bad in result.damaged:
        name = a if bad.copy == "A" else b
        who = f" ({bad.author}#{bad.seq})" if bad.author is not None and bad.seq is not None else ""
        console.print(
            f"[red][{bad.code}] {name} line {bad.line}{who}: {bad.message}: a damaged entry, not a fork; "
            "left out of the merge[/red]"
        )
    for problem in [*result.unreadable, *result.unplaced]:
        console.print(f"[red]{problem}[/red]")
    if complete:
        _print_report(report)
    elif result.unplaced:
        console.print("[red]nothing written: some entries build on entries neither copy holds[/red]")
    else:
        first = report.first_error
        console.print(
            f"[red]nothing written: the union of the two copies does not verify"
            f"{f' ({first.render()})' if first else ''}[/red]"
        )
    raise typer.Exit(ExitCode.OK if clean else ExitCode.INVALID)
