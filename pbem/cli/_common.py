"""Shared CLI plumbing: exit codes, output, key loading (never prompting without a terminal)."""

from __future__ import annotations

import hashlib
import json
import sys
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from pbem.errors import PbemError, StorageError, UsageError
from pbem.text import json_safe, one_line, terminal_safe

if TYPE_CHECKING:  # imported where used, so that a command loads only what it needs (CLI start time)
    from pbem.log.keys import KeyPair
    from pbem.replay.game import DataProvider
    from pbem.rules.contract import Ruleset

__all__ = [
    "DataOpt",
    "ExitCode",
    "ForceOpt",
    "JsonOpt",
    "KeyOpt",
    "LogArg",
    "PassOpt",
    "check_output",
    "console",
    "data_provider",
    "emit_json",
    "exit_code_for",
    "load_key",
    "untrusted",
]


class SafeConsole(Console):
    """A rich console that makes every string it renders inert (:func:`pbem.text.terminal_safe`) before markup
    is parsed: text from a log reaches the terminal only through here or :func:`emit_json`, so no note, title or
    name can move the cursor, clear the screen or reorder what is shown."""

    def render_str(self, text: str, **kwargs: Any) -> Text:
        return super().render_str(terminal_safe(text), **kwargs)


def untrusted(text: str, *, multiline: bool = False) -> str:
    """Log text to interpolate into console markup: its brackets are not markup, and (unless ``multiline``) its
    line breaks are shown as escapes, so a name or title cannot style itself or start a fake line."""
    return escape(terminal_safe(text) if multiline else one_line(text))


console = SafeConsole(highlight=False, soft_wrap=True)
err_console = SafeConsole(stderr=True, highlight=False, soft_wrap=True)


class ExitCode(IntEnum):
    """Exit codes of every pbem command (documented in the README)."""

    OK = 0
    INVALID = 1  # the log does not verify, or the action / command was refused
    USAGE = 2  # bad command line (typer's own code)
    UNREADABLE = 3  # a file could not be read or written at all
    BUG = 4  # an internal error: please report it


def exit_code_for(error: PbemError) -> ExitCode:
    if error.code.id in ("U007", "R009"):  # a bug in pbem or in a game module: to report, never a bad log
        return ExitCode.BUG
    if error.code.id in ("F001", "F002", "F003", "F006", "K009"):
        return ExitCode.UNREADABLE
    if error.code.id in ("U003", "F004"):  # F004: an output that exists without --force is a usage slip
        return ExitCode.USAGE
    return ExitCode.INVALID


LogArg = Annotated[Path, typer.Argument(help="The game log (JSON Lines).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on standard output.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace OUTPUT if it exists (atomically).")]
KeyOpt = Annotated[Path, typer.Option("--key", "-k", help="Your private key file (pbem .key or OpenSSH).")]
NameOpt = Annotated[str | None, typer.Option("--name", help="Your name as reports show it (up to 64 characters).")]
NoteOpt = Annotated[
    str | None, typer.Option("--note", help="A message to the other players, signed with the entry (up to 2,000).")
]
PassOpt = Annotated[
    Path | None,
    typer.Option("--passphrase-file", help="File holding the key's passphrase (or set PBEM_PASSPHRASE)."),
]
DataOpt = Annotated[
    list[Path] | None,
    typer.Option("--data", help="A data pack file to use when the game names a pack that is not built in."),
]


def check_output(path: Path | None, force: bool) -> None:
    """Refuse to replace an existing file unless ``--force`` says so (F004, exit code 2 like every usage slip)."""
    if path is not None and path.exists() and not force:
        raise StorageError("F004", f"{path} exists: choose another name or pass --force to replace it")


def emit_json(value: Any) -> None:
    typer.echo(json_safe(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)))


def load_key(path: Path, passphrase_file: Path | None) -> KeyPair:
    """Load a private key; prompt for a passphrase only when standard input is a terminal.

    Raises:
        UsageError: U004 if a passphrase is needed and none can be had.
        KeyStoreError: K009 if the file is not a usable key.
    """
    from pbem.log import keys

    if not keys.is_encrypted(path):
        return keys.load_private(path, None)  # a PBEM_PASSPHRASE exported for another key must not get in the way
    passphrase = keys.passphrase_from(passphrase_file)
    if passphrase is None:
        if not sys.stdin.isatty():
            raise UsageError("U004", f"{path} is encrypted: give --passphrase-file or set PBEM_PASSPHRASE")
        passphrase = typer.prompt(f"Passphrase for {path}", hide_input=True).encode()
    return keys.load_private(path, passphrase)


def data_provider(files: list[Path] | None) -> DataProvider:
    """Built-in packs plus any ``--data`` files, looked up by SHA-256."""
    from pbem.log.store import read_regular_file
    from pbem.replay.game import builtin_data

    packs: dict[str, bytes] = {}
    for file in files or []:
        raw = read_regular_file(file, "data pack")
        packs[hashlib.sha256(raw).hexdigest()] = raw

    def provide(ruleset: Ruleset[Any], sha: str) -> bytes | None:
        return packs.get(sha) or builtin_data(ruleset, sha)

    return provide
