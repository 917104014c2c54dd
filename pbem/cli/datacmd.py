"""``pbem data``: check a game's data pack, or print its schema."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli._common import ExitCode, JsonOpt, console, emit_json
from pbem.errors import PbemError, UsageError

app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_show_locals=False,
    help="Check and describe data packs.",
)


@dataclass(frozen=True)
class _Pack:
    """What ``pbem data`` needs of a game's pack, from its ruleset or, before its rules are installed, from
    its registered pack format (``pbem.packs``)."""

    load: Callable[[bytes], Any]
    bundled: Callable[[], bytes]
    schema: Callable[[], dict[str, Any] | None]


def _pack(game: str) -> _Pack:
    from pbem.kit.datapack import pack_format
    from pbem.rules import registry

    if game in registry.installed():
        ruleset = registry.get(game)
        return _Pack(ruleset.load_data, ruleset.default_data, ruleset.data_schema)
    fmt = pack_format(game)
    if fmt is None:
        registry.get(game)  # R005, naming the installed games
    assert fmt is not None
    return _Pack(fmt.load, fmt.bundled, fmt.schema)


@app.command("check")
def check(
    game: Annotated[str, typer.Argument(help="Game id (see pbem games; also rommel, gazala, axis-allies).")],
    file: Annotated[Path | None, typer.Argument(help="A data pack file (default: the bundled one).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Validate a data pack against the game's schema and cross-checks; print its SHA-256.

    Start a game with a checked pack: pbem new GAME ... --data FILE. Genesis records the SHA-256, so every
    player sees which pack the game uses. Exit code 0 if the pack is valid, 1 if not.
    """
    import hashlib

    pack = _pack(game)
    if file is None:
        raw = pack.bundled()
    else:
        from pbem.log.store import read_regular_file

        raw = read_regular_file(file, "data pack")
    sha = hashlib.sha256(raw).hexdigest()
    try:
        pack.load(raw)
    except PbemError as exc:
        if as_json:
            emit_json({"valid": False, "sha256": sha, "error": {"code": exc.code.id, "message": exc.message}})
        else:
            console.print(f"[red]INVALID[/red] {exc.render()}")
        raise typer.Exit(ExitCode.INVALID) from None
    if as_json:
        emit_json({"valid": True, "sha256": sha, "bundled": raw == pack.bundled()})
    else:
        console.print(f"[green]valid[/green] {game} data pack, sha256 {sha}")


@app.command("schema")
def schema(game: Annotated[str, typer.Argument(help="Game id (see pbem games).")]) -> None:
    """Print the JSON Schema of the game's data pack."""
    found = _pack(game).schema()
    if found is None:
        raise UsageError("U002", f"{game} publishes no data-pack schema")
    emit_json(found)
