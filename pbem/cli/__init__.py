"""The ``pbem`` command line: a thin layer over the library.

Every command has ``--help``; commands whose output is data take ``--json``. Exit codes: 0 success (a
valid log), 1 invalid log or refused action, 2 bad usage, 3 a file that cannot be read or written,
4 an internal error. An error prints one line, ``error [CODE] message``, on standard error; so does a bug
(U007, exit 4, "please report"), never a traceback.
"""

from __future__ import annotations

import copy
import sys
from typing import Annotated, Any

import typer

from pbem.cli import (
    datacmd,
    exchangecmd,
    inspectcmd,
    keycmd,
    playcmd,
    playsession,
    repaircmd,
    reportcmd,
    tournamentcmd,
)
from pbem.cli._common import ExitCode, err_console, exit_code_for
from pbem.cli._help import plain_metavars
from pbem.errors import InternalError, PbemError

__all__ = ["app", "main"]

app = typer.Typer(
    name="pbem",
    rich_markup_mode=None,  # plain click help: rich's help renderer imports markdown-it (CLI start time)
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,  # locals may hold key material
    help="Play board wargames by email with a signed log, fair dice and audited hidden information.",
    add_completion=False,
)
app.add_typer(keycmd.app, name="key")
app.add_typer(datacmd.app, name="data")
app.add_typer(tournamentcmd.app, name="tournament")
app.command("games")(inspectcmd.games)
app.command("new")(playcmd.new)
app.command("join")(playcmd.join)
app.command("status")(inspectcmd.status)
app.command("play")(playsession.play)
app.command("legal")(playcmd.legal)
app.command("act")(playcmd.act)
app.command("reveal")(playcmd.reveal)
app.command("resign")(playcmd.resign)
app.command("claim-timeout")(playcmd.claim_timeout)
app.command("undo")(playcmd.undo)
app.command("verify")(inspectcmd.verify)
app.command("show")(inspectcmd.show)
app.command("merge")(inspectcmd.merge)
app.command("repair")(repaircmd.repair)
app.command("export")(exchangecmd.export)
app.command("import")(exchangecmd.import_)
app.command("mail")(exchangecmd.mail)
app.command("report")(reportcmd.report)
app.command("replay")(reportcmd.replay)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"pbem {version('pbem')}")
        raise typer.Exit(int(ExitCode.OK))


@app.callback()
def _options(
    show_version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print pbem's version and exit.")
    ] = False,
) -> None:
    """Play board wargames by email with a signed log, fair dice and audited hidden information."""


def command(name: str | None = None) -> Any:
    """The click command tree of ``app``, with help text in words (see :mod:`pbem.cli._help`).

    With the ``name`` of one of its commands or groups, the tree holds only that one under the same top level
    (and ``--version``): running a command then builds the parameters of one command, not of all 30 (CLI start
    time). Anything else (no name, an option, a mistyped command) gets the whole tree, for its help and errors.
    """
    chosen = [c for c in app.registered_commands if c.name == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if name is None or not (chosen or groups):
        return plain_metavars(typer.main.get_command(app))
    one = copy.copy(app)  # the same settings and top-level callback, with one command
    one.registered_commands, one.registered_groups = chosen, groups
    return plain_metavars(typer.main.get_command(one))


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns (and, as a console script, exits with) the exit code."""
    try:
        args = sys.argv[1:] if argv is None else argv
        command(args[0] if args else None)(
            args=argv, prog_name="pbem"
        )  # standalone: click handles usage errors and exits
    except PbemError as exc:
        err_console.print(f"error {exc.render()}", markup=False)
        code = int(exit_code_for(exc))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    except KeyboardInterrupt:
        code = 130
    except Exception as exc:  # a bug: one line with its code and exit 4, never a traceback nor the code of a bad log
        bug = InternalError(exc)
        err_console.print(f"error {bug.render()}", markup=False)
        code = int(exit_code_for(bug))
    else:
        code = int(ExitCode.OK)
    if argv is None:
        sys.exit(code)
    return code
