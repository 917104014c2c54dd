"""``pbem data``: check a game's data pack, or print its schema."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli._common import ExitCode, JsonOpt, console, emit_json
from pbem.errors import PbemError, UsageError

app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_show_locals=False,
    help="Check and describe data packs.",
)


@app.command("check")
def check(
    game: Annotated[str, typer.Argument(help="Game id (see pbem games).")],
    file: Annotated[Path | None, typer.Argument(help="A data pack file (default: the bundled one).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Validate a data pack against the game's schema and cross-checks; print its SHA-256.

    Start a game with a checked pack: pbem new GAME ... --data FILE. Genesis records the SHA-256, so every
    player sees which pack the game uses. Exit code 0 if the pack is valid, 1 if not.
    """
    import hashlib

    from pbem.rules import registry

    ruleset = registry.get(game)
    if file is None:
        raw = ruleset.default_data()
    else:
        try:
            raw = file.read_bytes()
        except OSError as exc:
            raise PbemError("F001", f"cannot read {file}: {exc.strerror}") from exc
    sha = hashlib.sha256(raw).hexdigest()
    try:
        ruleset.load_data(raw)
    except PbemError as exc:
        if as_json:
            emit_json({"valid": False, "sha256": sha, "error": {"code": exc.code.id, "message": exc.message}})
        else:
            console.print(f"[red]INVALID[/red] {exc.render()}")
        raise typer.Exit(ExitCode.INVALID) from None
    if as_json:
        emit_json({"valid": True, "sha256": sha, "bundled": raw == ruleset.default_data()})
    else:
        console.print(f"[green]valid[/green] {game} data pack, sha256 {sha}")


@app.command("schema")
def schema(game: Annotated[str, typer.Argument(help="Game id (see pbem games).")]) -> None:
    """Print the JSON Schema of the game's data pack."""
    from pbem.rules import registry

    found = registry.get(game).data_schema()
    if found is None:
        raise UsageError("U002", f"{game} publishes no data-pack schema")
    emit_json(found)
