"""Data packs: strict loading, per-field provenance and a stable code, shared by every game.

A data pack holds every number and place a rules module must not hard-code (style guide §2.2). Each game
describes its pack as a tree of :class:`PackModel` s; records carry a ``sources`` object naming, field by
field, where each value came from (:data:`SourceText`). :func:`load_pack` parses strictly, validates and runs
the game's cross-checks; any defect raises :class:`~pbem.errors.DataPackError` with code R006 and a message
naming the record (by id) and the field.

A game declares its pack once as a :class:`PackFormat` and registers it under the ``pbem.packs`` entry-point
group, so that ``pbem data check GAME FILE`` validates a transcription even before the game's rules are
installed; the ruleset takes its data hooks from the same format (:class:`PackedData`).

Example (a game's pack module)::

    class Row(PackModel):
        id: Slug
        value: int
        sources: RowSources          # one SourceText per field

    class Pack(PackModel):
        rows: tuple[Row, ...]

    FORMAT = PackFormat(game="demo", model=Pack, package="pbem.games.demo", cross_checks=(check_rows,))

    class Demo(PackedData, Ruleset[DemoState]):   # default_data, load_data, data_schema from the format
        pack_format = FORMAT
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from importlib.metadata import entry_points
from typing import Annotated, Any, ClassVar, Generic, NoReturn, Protocol, TypeVar, cast

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

from pbem.errors import DataPackError, LogFormatError
from pbem.log.canon import MAX_LINE_BYTES, JSONValue, canonical, check_value, parse_line

__all__ = [
    "PACK_ENTRY_POINT_GROUP",
    "PackFormat",
    "PackMeta",
    "PackModel",
    "RuleRef",
    "Slug",
    "SourceText",
    "Text",
    "bundled_pack_bytes",
    "by_id",
    "fail",
    "load_pack",
    "pack_format",
    "pack_schema",
    "parse_pack_json",
    "require_unique",
]

SourceText = Annotated[
    str, StringConstraints(pattern=r"^(rulebook §\d|reconstructed: \S|transcribed: \S)", max_length=600)
]
"""Provenance of one value: ``rulebook §<section> …``, ``reconstructed: <one-line reason>``, or, in a user's
transcription of the published components, ``transcribed: <component>`` (e.g. ``transcribed: map``)."""
RuleRef = Annotated[str, StringConstraints(pattern=r"^[0-9]+(\.[0-9]+)*[A-Za-z]?$")]
"""A rulebook section without the ``§``: ``"9.2"``, ``"8.1.2a"``, ``"12.1E"``."""
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]*$")]
"""An identifier: lower-case letters, digits, ``_`` and ``-``."""
Text = Annotated[str, StringConstraints(min_length=1, max_length=1000)]

_WHITESPACE = b" \t\r\n"
_MAX_DIGITS = 16

M = TypeVar("M", bound=BaseModel)


class PackModel(BaseModel):
    """The base of every record of a data pack: frozen, no unknown fields, no type coercion."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class PackMeta(PackModel):
    """What a pack is: the game id it is for, the published edition, this version of the data, notes."""

    game: Text
    edition: Text
    version: Text
    description: Text
    notes: tuple[Text, ...]


PACK_ENTRY_POINT_GROUP = "pbem.packs"
"""Entry points naming ``module:FORMAT`` for each game's :class:`PackFormat`, by game id."""


@dataclass(frozen=True)
class PackFormat(Generic[M]):
    """A game's data-pack format: the root model, where the bundled pack lives, and the cross-checks."""

    game: str
    model: type[M]
    package: str
    resource: str = "data/pack.json"
    cross_checks: tuple[Callable[[M], None], ...] = ()

    def load(self, raw: bytes) -> M:
        """Parse, validate and cross-check ``raw`` (:func:`load_pack`).

        The same bytes give the same (frozen) pack again, so the copies of a tournament's games load it once; a
        few packs are kept, so memory stays flat however many logs one process verifies.

        Raises:
            DataPackError: R006, naming the record and field at fault.
        """
        return cast(M, _loaded(self, raw))

    def bundled(self) -> bytes:
        """The bundled pack as canonical JSON, read once (:func:`bundled_pack_bytes`).

        Raises:
            DataPackError: R006 if the bundled file cannot be read or is not strict JSON.
        """
        return _bundled(self.package, self.resource, self.game)

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of a pack (without the cross-checks), for checking a transcription in an editor."""
        return pack_schema(self.model)


@cache
def _bundled(package: str, resource: str, game: str) -> bytes:
    return bundled_pack_bytes(package, resource, game=game)


@lru_cache(maxsize=8)
def _loaded(fmt: PackFormat[Any], raw: bytes) -> Any:
    return load_pack(raw, fmt.model, game=fmt.game, cross_checks=fmt.cross_checks)


class PackedData:
    """The data hooks of a :class:`~pbem.rules.contract.Ruleset` whose pack is a :class:`PackFormat`: list it
    first among the bases and name the format (``class Game(PackedData, Ruleset[State]): pack_format = FORMAT``)."""

    pack_format: ClassVar[PackFormat[Any]]

    def default_data(self) -> bytes:
        """The bundled pack, as canonical JSON bytes (its SHA-256 goes into genesis)."""
        return self.pack_format.bundled()

    def load_data(self, raw: bytes) -> Any:
        """Validate and load a pack; raises ``DataPackError`` (R006) if it does not validate."""
        return self.pack_format.load(raw)

    def data_schema(self) -> dict[str, Any]:
        """The JSON Schema of a pack, for people transcribing the published components."""
        return self.pack_format.schema()


def pack_format(game: str) -> PackFormat[Any] | None:
    """The pack format registered under ``pbem.packs`` for ``game`` (only that entry point is imported)."""
    for ep in entry_points(group=PACK_ENTRY_POINT_GROUP, name=game):
        fmt = ep.load()
        if isinstance(fmt, PackFormat) and fmt.game == game:
            return fmt
    return None


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


R = TypeVar("R", bound=_Identified)


def by_id(rows: Iterable[R], ident: str) -> R:
    """The record of ``rows`` whose ``id`` is ``ident``; KeyError if there is none (a pack's lookups)."""
    for row in rows:
        if row.id == ident:
            return row
    raise KeyError(ident)


def fail(game: str, message: str) -> NoReturn:
    """Raise R006 for ``game``'s pack (cross-checks call this)."""
    raise DataPackError("R006", f"{game} data pack: {message}")


def require_unique(game: str, ids: Iterable[str], what: str) -> None:
    """R006 unless every id in ``ids`` is distinct (``what`` names them: ``"unit"``)."""
    seen: set[str] = set()
    for ident in ids:
        if ident in seen:
            fail(game, f"{what} id {ident!r} appears twice")
        seen.add(ident)


def load_pack(
    raw: bytes,
    model: type[M],
    *,
    game: str,
    cross_checks: Sequence[Callable[[M], None]] = (),
) -> M:
    """Parse, validate and cross-check a data pack.

    Args:
        raw: the pack file's bytes (UTF-8 JSON, pretty-printed or canonical).
        model: the pack's root model.
        game: the game id, for messages.
        cross_checks: what the schema cannot say, run in order; each raises via :func:`fail`.

    Returns:
        The validated pack.

    Raises:
        DataPackError: R006, naming the record and field at fault.
    """
    value = parse_pack_json(raw, game=game)
    try:
        pack = model.model_validate_json(canonical(value))
    except ValidationError as exc:
        raise DataPackError("R006", f"{game} data pack: {_describe(exc, value)}") from exc
    for check in cross_checks:
        check(pack)
    return pack


def bundled_pack_bytes(package: str, name: str, *, game: str) -> bytes:
    """A pack shipped inside ``package`` as canonical JSON (RFC 8785), so its SHA-256 ignores formatting.

    Raises:
        DataPackError: R006 if the file cannot be read or is not strict JSON.
    """
    try:
        raw = resources.files(package).joinpath(name).read_bytes()
    except OSError as exc:
        raise DataPackError("R006", f"{game} data pack: cannot read the bundled {name}: {exc}") from exc
    return canonical(parse_pack_json(raw, game=game))


def pack_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema of a pack (without the cross-checks), for checking a transcription in an editor."""
    return model.model_json_schema()


def parse_pack_json(raw: bytes, *, game: str) -> dict[str, JSONValue]:
    """Strict JSON: integers only, no duplicate keys, no NaN, NFC strings, within pbem's data model.

    Raises:
        DataPackError: R006 naming the first defect.
    """
    # RULING: a single-line file that fits a log line is read by the log's own line parser. Anything else
    # (a pretty-printed file, or a canonical pack longer than a log line) is read by json.loads with the
    # same refusals (floats, duplicate keys, constants) and the same value checks.
    body = raw.strip(_WHITESPACE)
    try:
        if b"\n" not in body and b"\r" not in body and len(raw) <= MAX_LINE_BYTES:
            return parse_line(raw)
        if raw.startswith(b"\xef\xbb\xbf"):
            fail(game, "the file starts with a byte order mark")
        try:
            value = json.loads(
                raw.decode("utf-8"),
                object_pairs_hook=lambda pairs: _object(pairs, game),
                parse_float=lambda text: _no_float(text, game),
                parse_int=lambda text: _integer(text, game),
                parse_constant=lambda text: fail(game, f"{text} is not allowed: a pack holds integers only"),
            )
        except UnicodeDecodeError as exc:
            fail(game, f"invalid UTF-8 at byte {exc.start}")
        except json.JSONDecodeError as exc:
            fail(game, f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
        except RecursionError:
            fail(game, "nesting too deep")
        check_value(value)
    except LogFormatError as exc:
        raise DataPackError("R006", f"{game} data pack: {exc.message} [{exc.code.id}]") from exc
    if not isinstance(value, dict):
        fail(game, f"the pack is a JSON {type(value).__name__}, not an object")
    return value


def _object(pairs: list[tuple[str, JSONValue]], game: str) -> dict[str, JSONValue]:
    obj: dict[str, JSONValue] = {}
    for key, item in pairs:
        if key in obj:
            owner = next((v for k, v in pairs if k == "id" and isinstance(v, str)), None)
            where = f" in the object with id {owner!r}" if owner is not None else ""
            fail(game, f"duplicate key {key!r}{where}")
        obj[key] = item
    return obj


def _integer(text: str, game: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS:  # int() refuses very long numbers with a bare ValueError
        fail(game, f"integer with more than {_MAX_DIGITS} digits")
    return int(text)


def _no_float(text: str, game: str) -> NoReturn:
    fail(game, f"non-integer number {text[:20]!r}: a pack holds integers only")


def _describe(exc: ValidationError, value: dict[str, JSONValue]) -> str:
    """The first errors of ``exc`` with their paths, naming records by id (``locations[5] (id '6')``)."""
    parts = [f"{_path(error['loc'], value)}: {error['msg']}" for error in exc.errors()[:3]]
    more = len(exc.errors()) - len(parts)
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def _path(loc: Sequence[int | str], value: JSONValue) -> str:
    out = ""
    node: JSONValue = value
    for step in loc:
        if isinstance(step, int):
            out += f"[{step}]"
            node = node[step] if isinstance(node, list) and step < len(node) else None
            ident = node.get("id", node.get("formation", node.get("unit"))) if isinstance(node, dict) else None
            if isinstance(ident, str):
                out += f" (id {ident!r})"
        else:
            out += f".{step}" if out else step
            node = node.get(step) if isinstance(node, dict) else None
    return out or "pack"
