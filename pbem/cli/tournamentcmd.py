"""pbem tournament: commands for tournament directors."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli._common import ExitCode, JsonOpt, check_output, console, emit_json, err_console

__all__ = ["app"]

app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Commands for tournament directors.")


@app.command("verify")
def verify(
    folder: Annotated[Path, typer.Argument(help="A folder of game logs (*.jsonl).")],
    roster: Annotated[Path | None, typer.Option("--roster", help="JSON roster of registered player keys.")] = None,
    html: Annotated[Path | None, typer.Option("--html", help="Also write the table as an HTML page.")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Processes to use (default: one per core).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace the HTML file if it exists.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Verify every log in FOLDER on all cores; exit 1 if any game fails (or has a seat not on the roster)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from pbem.log.store import write_file
    from pbem.report import render
    from pbem.text import plural
    from pbem.verify.tournament import Roster, verify_folder
    from pbem.verify.tournament import as_json as rows_json

    check_output(html, force)
    registered = Roster.load(roster) if roster is not None else None
    bar = Progress(
        TextColumn("verifying"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
        disable=as_json or not err_console.is_terminal,
    )
    with bar:
        task = bar.add_task("verify", total=None)
        rows = verify_folder(
            folder,
            roster=registered,
            jobs=jobs,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    bad = [r for r in rows if r.verdict != "valid"]
    if html is not None:
        page = render.html(
            "tournament.html",
            folder=folder.name,
            rows=rows,
            roster=registered is not None,
            counts={"valid": len(rows) - len(bad), "bad": len(bad)},
        )
        write_file(html, page.encode(), replace=force)
    if as_json:
        emit_json({"folder": str(folder), "games": rows_json(rows), "valid": not bad})
    else:
        table = Table()
        for title in ("log", "scenario", "players", "result", "entries", "verdict", "first error"):
            table.add_column(title, overflow="fold")  # a narrow terminal wraps; nothing is cut off with "…"
        for r in rows:
            table.add_row(
                r.file,
                r.scenario or "",
                "\n".join(r.players),
                r.result or "",
                str(r.entries),
                r.verdict,
                r.first_error or "",
            )
        # Piped or saved, the table keeps its natural width rather than rich's 80-column default.
        natural = console.measure(table, options=console.options.update_width(100_000)).maximum
        width = console.width if console.is_terminal else max(console.width, natural)
        Console(width=width, highlight=False).print(table)
        console.print(f"{len(rows) - len(bad)} of {plural(len(rows), 'game')} verified valid")
    raise typer.Exit(ExitCode.INVALID if bad else ExitCode.OK)
