"""Help text players can read: metavars in words (FILE, SEAT, N), never Python types (``<list[Path]>``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer.core

__all__ = ["plain_metavars"]

# What an option's value is, by option name; an option not listed shows its name in capitals.
_METAVARS = {
    "key": "FILE", "passphrase_file": "FILE", "data": "FILE", "output": "FILE", "roster": "FILE", "html": "FILE",
    "seat": "SEAT=PUBFILE", "referee": "SEAT=PUBFILE", "option": "NAME=VALUE", "scenario": "SCENARIO",
    "title": "TEXT", "player": "NAME", "note": "TEXT", "deadline": "HOURS", "at": "LINE", "viewer": "SEAT",
    "turn": "TURN", "fmt": "html|pdf", "jobs": "N", "to": "ADDRESS", "sender": "ADDRESS", "recipient": "SEAT",
    "sender_seat": "SEAT", "against": "SEAT", "directory": "DIR",
}  # fmt: skip


def _plain(param: Any) -> None:
    if isinstance(param, typer.core.TyperArgument):
        param.metavar = (param.name or "value").upper() + ("..." if param.nargs != 1 else "")
        usage = param.metavar if param.required else f"[{param.metavar}]"
        # Per instance, since typer makes the parameter objects itself: the name says what it is (the type column
        # would say <path>), and the usage line shows LOG, not {LOG}.
        setattr(param, "display_type_rich", lambda ctx: None)  # noqa: B010
        setattr(param, "_usage_display_name", lambda: usage)  # noqa: B010
    elif isinstance(param, typer.core.TyperOption):
        if param.is_flag:
            param.metavar = ""
        elif param.metavar is None:
            param.metavar = _METAVARS.get(param.name or "", (param.name or "value").upper())


def _wrap(get_params: Callable[[Any], list[Any]]) -> Callable[[Any], list[Any]]:
    def plain_params(ctx: Any) -> list[Any]:
        params = get_params(ctx)
        for param in params:  # the --help option is made on first use, so every call is looked at
            _plain(param)
        return params

    return plain_params


def plain_metavars(command: Any) -> Any:
    """Give every parameter of ``command`` and its sub-commands a metavar in words; returns ``command``."""
    command.get_params = _wrap(command.get_params)
    for sub in getattr(command, "commands", {}).values():
        plain_metavars(sub)
    return command
