"""The exceptions of pbem: each carries a stable code from :mod:`pbem.codes`.

The CLI catches :class:`PbemError` once and prints it as one line; anything else is a bug.
"""

from __future__ import annotations

from pbem.codes import Code, code

__all__ = [
    "ActionError",
    "DataPackError",
    "InternalError",
    "KeyStoreError",
    "LogFormatError",
    "PbemError",
    "SignatureError",
    "StorageError",
    "UsageError",
]


class PbemError(Exception):
    """Base class: a problem with a stable code, optionally tied to a log entry and a rule.

    Args:
        code_id: a code registered in :mod:`pbem.codes`.
        message: what went wrong, with what reproduces it.
        entry: the log line (1-based) or entry id at fault, if any.
        rule: the rule reference (``"§7.1"``) at fault, if any.
    """

    def __init__(self, code_id: str, message: str, *, entry: str | None = None, rule: str | None = None):
        self.code: Code = code(code_id)
        self.message = message
        self.entry = entry
        self.rule = rule
        super().__init__(self.render())

    def render(self) -> str:
        where = f" at {self.entry}" if self.entry else ""
        rule = f" ({self.rule})" if self.rule else ""
        return f"[{self.code.id}] {self.message}{where}{rule}"


class LogFormatError(PbemError):
    """A line of a log cannot be parsed under the strict data model."""


class SignatureError(PbemError):
    """A key or signature is malformed, weak or does not verify."""


class KeyStoreError(PbemError):
    """A key file cannot be read, decrypted or written."""


class StorageError(PbemError):
    """The log file cannot be read, locked or durably written."""


class DataPackError(PbemError):
    """A game's data pack is missing or does not validate."""


class ActionError(PbemError):
    """An action was refused: malformed, not the seat's turn, or illegal under the rules."""


class UsageError(PbemError):
    """A command cannot do what was asked."""


class ExchangeError(PbemError):
    """A packet cannot be read, or does not fit the log it is imported into."""


class InternalError(PbemError):
    """A bug in pbem met on the way (U007): never reported as a bad log. ``entry`` names what was being read."""

    def __init__(self, error: BaseException, *, entry: str | None = None):
        what = f"{type(error).__name__}: {str(error)[:200]}" if str(error) else type(error).__name__
        super().__init__("U007", f"internal error ({what}); please report it with the command and the log", entry=entry)
