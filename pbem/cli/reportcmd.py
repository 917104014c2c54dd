"""Commands that make documents from a log: report (turn or after-action, HTML or PDF) and replay."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem.cli._common import (
    DataOpt,
    ExitCode,
    ForceOpt,
    JsonOpt,
    LogArg,
    PassOpt,
    check_output,
    data_provider,
    emit_json,
    err_console,
    load_key,
)
from pbem.errors import UsageError

if TYPE_CHECKING:  # the report modules are imported only by the commands that use them (CLI start time)
    from pbem.report.chronicle import Chronicle

__all__ = ["replay", "report"]

ReadKeyOpt = Annotated[
    Path | None,
    typer.Option("--key", "-k", help="Your key: lets the document show your own hidden values before disclosure."),
]


class FormatChoice(StrEnum):
    html = "html"
    pdf = "pdf"


Tick = Callable[[str, int, int], None]


@contextmanager
def _progress(quiet: bool) -> Iterator[Tick]:
    """A progress bar on the terminal (nothing when piped or with --json)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TaskID, TextColumn

    bar = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err_console,
        transient=True,
        disable=quiet or not err_console.is_terminal,
    )
    tasks: dict[str, TaskID] = {}

    def update(what: str, done: int, total: int) -> None:
        if what not in tasks:
            tasks[what] = bar.add_task(what, total=total)
        bar.update(tasks[what], completed=done, total=total)

    with bar:
        yield update


def _chronicle(
    log: Path, key: Path | None, passphrase_file: Path | None, data: list[Path] | None, tick: Tick
) -> tuple[Chronicle, str | None]:
    """The chronicle of LOG, and the seat of ``key`` if one was given (whose hidden values it then knows)."""
    from pbem.client.session import own_knowledge
    from pbem.log.store import read_log
    from pbem.replay.game import no_knowledge
    from pbem.report.chronicle import chronicle

    lines, _ = read_log(log)
    pair = load_key(key, passphrase_file) if key is not None else None
    chron = chronicle(
        lines,
        knowledge=own_knowledge(pair) if pair is not None else no_knowledge,
        data_provider=data_provider(data),
        progress=lambda done, total: tick("replaying the log", done, total),
    )
    seat = None
    if pair is not None and chron.game is not None:
        seat = next((s for s, book in chron.game.seats.items() if book.key.id == pair.public.id), None)
    return chron, seat


def _viewer(chron: Chronicle, viewer: str | None, seat: str | None) -> str | None:
    """With --key and no --as, the document is what the key's seat saw (and says so), not an observer's view."""
    from pbem.report.context import default_viewer
    from pbem.rules.contract import OBSERVER

    if viewer is not None or seat is None or default_viewer(chron) != OBSERVER:
        return viewer
    return seat


def _format(output: Path, fmt: FormatChoice | None) -> FormatChoice:
    """The format --format names, else OUTPUT's suffix; a suffix that says the other format is refused (U003)."""
    suffix = output.suffix.lower()
    implied = {".pdf": FormatChoice.pdf, ".html": FormatChoice.html, ".htm": FormatChoice.html}.get(suffix)
    if fmt is not None and implied is not None and fmt != implied:
        raise UsageError(
            "U003", f"--format {fmt.value} would write {fmt.value.upper()} into {output.name}: change one of them"
        )
    return fmt or implied or FormatChoice.html


def _finish(chron: Chronicle, output: Path, kind: str, as_json: bool) -> None:
    report = chron.report
    first = report.first_error
    if as_json:
        emit_json({"output": str(output), "document": kind, "valid": report.valid, "error": first and first.render()})
    else:
        err_console.print(f"wrote {kind} to {output}", markup=False)
        if first is not None:
            err_console.print(f"the log does not verify; the document shows why: {first.render()}", markup=False)
    raise typer.Exit(ExitCode.OK if report.valid else ExitCode.INVALID)


def report(
    log: LogArg,
    output: Annotated[Path, typer.Option("--output", "-o", help="The file to write (.html or .pdf).")],
    turn: Annotated[
        str | None, typer.Option("--turn", help="A turn report for this turn (a number, or a period like setup).")
    ] = None,
    viewer: Annotated[
        str | None,
        typer.Option("--as", help="See the game as this seat, @observer or @all (default: @all once disclosed)."),
    ] = None,
    fmt: Annotated[
        FormatChoice | None,
        typer.Option("--format", "-f", help="html or pdf (default: from OUTPUT's suffix; they must agree)."),
    ] = None,
    key: ReadKeyOpt = None,
    passphrase_file: PassOpt = None,
    data: DataOpt = None,
    force: ForceOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Write an after-action report of the whole game, or with --turn a turn report, as HTML or PDF.

    Exit code 0 if the log verifies, 1 if not (the document is still written and shows the first failure).
    """
    from pbem.log.store import write_file
    from pbem.report.documents import after_action_report, turn_report

    chosen = _format(output, fmt)
    check_output(output, force)
    with _progress(as_json) as tick:
        chron, seat = _chronicle(log, key, passphrase_file, data, tick)
        who = _viewer(chron, viewer, seat)
        if chosen == FormatChoice.pdf:
            tick("typesetting the PDF", 0, 1)
        if turn is not None:
            document = turn_report(chron, turn, who, chosen.value)
        else:
            document = after_action_report(chron, who, chosen.value)
    write_file(output, document, replace=force)
    _finish(chron, output, "turn report" if turn is not None else "after-action report", as_json)


def replay(
    log: LogArg,
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.")],
    key: ReadKeyOpt = None,
    passphrase_file: PassOpt = None,
    data: DataOpt = None,
    force: ForceOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Write a self-contained HTML page that steps through the game entry by entry (works offline).

    Exit code 0 if the log verifies, 1 if not (the page is still written and marks the failing line).
    """
    from pbem.log.store import write_file
    from pbem.report.replay import replay_page

    check_output(output, force)
    with _progress(as_json) as tick:
        chron, _ = _chronicle(log, key, passphrase_file, data, tick)
        page = replay_page(chron, progress=lambda done, total: tick("drawing every step", done, total))
    write_file(output, page, replace=force)
    _finish(chron, output, "replay page", as_json)
