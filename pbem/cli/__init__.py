"""The ``pbem`` command line: a thin layer over the library.

Every command has ``--help``; commands whose output is data take ``--json``. Exit codes: 0 success (a
valid log), 1 invalid log or refused action, 2 bad usage, 3 a file that cannot be read or written,
4 an internal error. An error prints one line, ``error [CODE] message``, on standard error; so does a bug
(U007, exit 4, "please report"), never a traceback.
"""

from __future__ import annotations

import importlib
import sys
from typing import Annotated, Any

import typer

from pbem.cli._common import ExitCode, err_console, exit_code_for
from pbem.cli._help import plain_metavars
from pbem.errors import InternalError, PbemError

__all__ = ["app", "command", "main"]

# Every command and group, in the order --help lists them, with the module (in pbem.cli) and the function or
# sub-app that implements it: a command's module is imported only when the command is built (CLI start time).
_GROUPS = {"key": "keycmd", "data": "datacmd", "tournament": "tournamentcmd"}
_COMMANDS = {
    "games": ("inspectcmd", "games"),
    "new": ("playcmd", "new"),
    "join": ("playcmd", "join"),
    "status": ("inspectcmd", "status"),
    "play": ("playsession", "play"),
    "legal": ("playcmd", "legal"),
    "act": ("playcmd", "act"),
    "reveal": ("playcmd", "reveal"),
    "resign": ("playcmd", "resign"),
    "claim-timeout": ("playcmd", "claim_timeout"),
    "undo": ("playcmd", "undo"),
    "verify": ("inspectcmd", "verify"),
    "show": ("inspectcmd", "show"),
    "merge": ("inspectcmd", "merge"),
    "repair": ("repaircmd", "repair"),
    "export": ("exchangecmd", "export"),
    "import": ("exchangecmd", "import_"),
    "mail": ("exchangecmd", "mail"),
    "report": ("reportcmd", "report"),
    "replay": ("reportcmd", "replay"),
}


def _module(name: str) -> Any:
    return importlib.import_module(f"pbem.cli.{name}")


def _app(only: str | None = None) -> typer.Typer:
    """The typer app with every command, or with only the command or group named ``only``."""
    tree = typer.Typer(
        name="pbem",
        rich_markup_mode=None,  # plain click help: rich's help renderer imports markdown-it (CLI start time)
        no_args_is_help=True,
        pretty_exceptions_show_locals=False,  # locals may hold key material
        help="Play board wargames by email with a signed log, fair dice and audited hidden information.",
        add_completion=False,
    )
    tree.callback()(_options)
    for name, module in _GROUPS.items():
        if only in (None, name):
            tree.add_typer(_module(module).app, name=name)
    for name, (module, function) in _COMMANDS.items():
        if only in (None, name):
            tree.command(name)(getattr(_module(module), function))
    return tree


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"pbem {version('pbem')}")
        raise typer.Exit(int(ExitCode.OK))


def _options(
    show_version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print pbem's version and exit.")
    ] = False,
) -> None:
    """Play board wargames by email with a signed log, fair dice and audited hidden information."""


def command(name: str | None = None) -> Any:
    """The click command tree of the CLI, with help text in words (see :mod:`pbem.cli._help`).

    With the ``name`` of one of its commands or groups, the tree holds only that one under the same top level
    (and ``--version``): running a command then imports and builds one command, not all 30 (CLI start time).
    Anything else (no name, an option, a mistyped command) gets the whole tree, for its help and errors.
    """
    known = name in _COMMANDS or name in _GROUPS
    return plain_metavars(typer.main.get_command(_app(name if known else None)))


def __getattr__(name: str) -> Any:
    """``pbem.cli.app``: the typer app with every command (built on demand, so importing pbem.cli is cheap)."""
    if name == "app":
        return _app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns (and, as a console script, exits with) the exit code."""
    try:
        args = sys.argv[1:] if argv is None else argv
        # standalone: click handles usage errors and exits
        command(args[0] if args else None)(args=argv, prog_name="pbem")
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
