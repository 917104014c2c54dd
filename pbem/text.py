"""Text a player reads: untrusted text made inert on its way to a terminal, and wording helpers.

Any string from a log (a title, a player's name, a note, a finding that quotes a field) may hold terminal
control sequences: ``ESC [2J`` clears the screen, ``CR`` overwrites a line, C1 ``CSI`` (U+009B) starts a
sequence on some terminals, bidi overrides (U+202E) reorder what is shown, U+2028/U+2029 break lines where
nothing seems to. :func:`terminal_safe` shows each such character as a visible escape (``\\x1b``, ``\\u202e``)
instead, so the reader sees that it was there and nothing it does takes effect. The CLI's consoles apply it to
everything they print (:mod:`pbem.cli._common`); :func:`one_line` also escapes line breaks, for a field that
must stay on its line.
"""

from __future__ import annotations

import re

__all__ = ["UNSAFE", "header_value", "json_safe", "one_line", "plural", "terminal_safe"]

# C0 controls but tab and newline, DEL, C1 controls, the Arabic letter mark, LRM/RLM, the bidi embeddings and
# overrides (U+202A-U+202E) and isolates (U+2066-U+2069), and the Unicode line and paragraph separators.
UNSAFE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029"
_UNSAFE = re.compile(f"[{UNSAFE}]")
_UNSAFE_OR_BREAK = re.compile(f"[{UNSAFE}\t\n]")


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def terminal_safe(text: str) -> str:
    """``text`` with every control, bidi and separator character shown as an escape (tab and newline kept)."""
    return _UNSAFE.sub(_escape, text)


def one_line(text: str) -> str:
    """:func:`terminal_safe`, escaping tab and newline too: for a title, a name, a mail header."""
    return _UNSAFE_OR_BREAK.sub(_escape, text)


def json_safe(text: str) -> str:
    """JSON text with the unsafe characters inside its strings written as ``\\u`` escapes (still the same JSON).

    ``json.dumps`` escapes C0 controls but, without ASCII escaping, emits C1, bidi and separator characters raw.
    """
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def header_value(text: str) -> str:
    """``text`` fit for a mail header: every control, separator and line break becomes one space (a CR or LF in
    a header would end it and let the text forge others; the stdlib refuses to write such a header at all), and
    ``=?`` becomes ``= ?``: the stdlib decodes RFC 2047 encoded words in a header value it is given, so the
    text ``=?utf-8?q?=0D=0A?=`` would otherwise come out as a raw line break that ends the headers."""
    return " ".join(_UNSAFE_OR_BREAK.sub(" ", text).replace("=?", "= ?").split())


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 line``, ``3 lines``, ``2 copies`` (``many`` for an irregular plural)."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"
