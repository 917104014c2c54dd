"""Commands a player uses to play: new, join, legal, act, reveal, resign."""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pbem.cli._common import (
    DataOpt,
    JsonOpt,
    KeyOpt,
    LogArg,
    NameOpt,
    NoteOpt,
    PassOpt,
    console,
    data_provider,
    emit_json,
    load_key,
)
from pbem.errors import ActionError, PbemError, UsageError

if TYPE_CHECKING:  # imported where used, so a command loads only what it needs (CLI start time)
    from pbem.client.session import Session
    from pbem.log.entry import Envelope


def _pair(text: str, what: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name or not value:
        raise UsageError("U003", f"{what} must look like NAME=VALUE, got {text!r}")
    return name, value


def new(
    game: Annotated[str, typer.Argument(help="Game id (see pbem games).")],
    scenario: Annotated[str, typer.Option("--scenario", "-s", help="Scenario id.")],
    seat: Annotated[list[str], typer.Option("--seat", help="SEAT=PUBKEYFILE, once per seat.")],
    key: KeyOpt,
    output: Annotated[Path, typer.Option("--output", "-o", help="The new log file (never overwritten).")],
    option: Annotated[list[str] | None, typer.Option("--option", help="OPTION=VALUE (VALUE as JSON).")] = None,
    referee: Annotated[str | None, typer.Option("--referee", help="SEAT=PUBKEYFILE of a referee.")] = None,
    referee_dice: Annotated[bool, typer.Option("--referee-dice", help="The referee alone supplies dice.")] = False,
    team_dice: Annotated[
        bool, typer.Option("--team-dice", help="One seat per opposing team supplies dice (team games).")
    ] = False,
    title: Annotated[str, typer.Option("--title", help="A title for reports.")] = "",
    player: NameOpt = None,
    deadline: Annotated[
        int | None, typer.Option("--deadline", help="Hours a seat has to answer before a timeout can be claimed.")
    ] = None,
    data: Annotated[Path | None, typer.Option("--data", help="Use this data pack instead of the bundled one.")] = None,
    passphrase_file: PassOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Start a game: write its genesis (and your join) to a new log."""
    from pbem.client.session import create_game
    from pbem.log import keys
    from pbem.log.store import read_regular_file
    from pbem.rules import registry

    ruleset = registry.get(game)
    seats = {name: keys.load_public(Path(path)) for name, path in (_pair(s, "--seat") for s in seat)}
    options: dict[str, Any] = {}
    for text in option or []:
        name, value = _pair(text, "--option")
        try:
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    ref = None
    if referee is not None:
        name, path = _pair(referee, "--referee")
        ref = (name, keys.load_public(Path(path)))
    pack = None
    if data is not None:
        pack = read_regular_file(data, "data pack")
    created = create_game(
        output, ruleset, scenario, seats, load_key(key, passphrase_file),
        options=options, referee=ref, referee_dice=referee_dice, team_dice=team_dice, title=title, name=player,
        deadline=deadline, data=pack,
    )  # fmt: skip
    if as_json:
        emit_json({"game": created.game, "seat": created.seat, "log": str(output)})
        return
    console.print(f"game {created.game[:16]}… created in {output}; you hold seat {created.seat} and have joined")
    if len(seats) > 1:
        console.print("send the log to the other players so they can join (pbem join)")


def _sign(
    log: Path,
    key: Path,
    passphrase_file: Path | None,
    data: list[Path] | None,
    as_json: bool,
    work: Callable[[Session], list[Envelope]],
) -> None:
    """Open LOG under its lock as KEY's seat, let ``work`` sign entries, and report them and what followed."""
    from pbem.client.session import Session
    from pbem.log.store import LogStore

    with LogStore.open(log) as store:
        session = Session.open(store, load_key(key, passphrase_file), data_provider=data_provider(data))
        since = len(session.game.events)
        written = work(session)
    events = session.game.events[since:]
    status = [w.describe() for w in session.game.awaiting()]
    if as_json:
        emit_json({
            "written": [{"type": e.raw["type"], "seq": e.raw["seq"], "id": e.id} for e in written],
            "events": [e.event.model_dump(mode="json") for e in events],
            "awaiting": status,
        })  # fmt: skip
        return
    for env in written:
        console.print(f"signed {env.raw['type']} #{env.raw['seq']} ({env.id[:12]}…)")
    for logged in events:
        if logged.event.text and (logged.event.visible_to is None or session.seat in logged.event.visible_to):
            console.print(f"  {logged.event.text}")
    console.print("; ".join(status) or "nothing is awaited")


def join(
    log: LogArg,
    key: KeyOpt,
    player: NameOpt = None,
    passphrase_file: PassOpt = None,
    data: DataOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Join a game: sign your seat's join entry (proof of your key, your dice-chain anchor, your name)."""
    _sign(log, key, passphrase_file, data, as_json, lambda session: [session.join(player), *session.do_owed()])


def legal(
    log: LogArg, key: KeyOpt, passphrase_file: PassOpt = None, data: DataOpt = None, as_json: JsonOpt = False
) -> None:
    """List your legal actions now (each JSON object is accepted as it is by pbem act)."""
    from pbem.client.session import Session
    from pbem.log.store import LogStore

    with LogStore.open(log) as store:
        session = Session.open(store, load_key(key, passphrase_file), data_provider=data_provider(data))
        actions = session.legal()
    if as_json:
        emit_json(actions)
        return
    waits = session.game.awaiting()
    owed = sorted({w.what for w in waits if w.seat == session.seat and w.what not in ("act", "join")})
    if owed:
        work = ", ".join(_OWED[what] for what in owed)
        console.print(f"you owe {work} first: run pbem reveal {log} --key {key} (pbem act does it first too)")
    if not actions:
        console.print(f"{session.seat} has nothing to choose now: " + "; ".join(w.describe() for w in waits))
        return
    for number, action in enumerate(actions, 1):
        console.print(f"{number:3d}. {json.dumps(action, sort_keys=True)}", markup=False)


_OWED = {
    "dice": "a dice reveal",
    "open": "an opening of a hidden value",
    "seal": "a commitment",
    "checkpoint": "a checkpoint co-signature",
    "disclose": "the disclosure of your game secret",
}


def _near_miss(session: Session, actions: list[dict[str, Any]], error: PbemError) -> PbemError:
    """``error`` with "did you mean 'pass'?" when an action's name is a near miss of one legal now."""
    names = sorted({str(a.get("action")) for a in session.legal()})
    for action in actions:
        name = action.get("action")
        if isinstance(name, str) and name not in names:
            close = difflib.get_close_matches(name, names, n=1)
            if close:
                return error.__class__(
                    error.code.id, f"{error.message}; did you mean “{close[0]}”?", entry=error.entry, rule=error.rule
                )
    return error


def _act(session: Session, actions: list[dict[str, Any]], note: str | None) -> list[Envelope]:
    try:
        return session.act(actions, note)
    except PbemError as exc:
        raise _near_miss(session, actions, exc) from exc


def act(
    log: LogArg,
    actions: Annotated[list[str], typer.Argument(help="Action JSON objects, applied in order as one batch.")],
    key: KeyOpt,
    note: NoteOpt = None,
    passphrase_file: PassOpt = None,
    data: DataOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Sign and append your actions (after any dice reveal, checkpoint or opening you owe)."""
    parsed = []
    for text in actions:
        try:
            value = json.loads(text)
        except ValueError as exc:
            raise ActionError("R004", f"action “{text}” is not JSON") from exc
        if not isinstance(value, dict):
            raise ActionError("R004", f"action “{text}” is not a JSON object")
        parsed.append(value)
    _sign(log, key, passphrase_file, data, as_json, lambda session: _act(session, parsed, note))


def reveal(
    log: LogArg, key: KeyOpt, passphrase_file: PassOpt = None, data: DataOpt = None, as_json: JsonOpt = False
) -> None:
    """Do the protocol work you owe: reveal dice seeds, co-sign checkpoints, open hidden values, disclose."""

    def owed(session: Session) -> list[Envelope]:
        written = session.do_owed()
        if not written:
            raise UsageError("U002", f"{session.seat} owes nothing now")
        return written

    _sign(log, key, passphrase_file, data, as_json, owed)


def undo(
    log: LogArg,
    key: KeyOpt,
    accept: Annotated[bool, typer.Option("--accept", help="Agree to the other player's take-back request.")] = False,
    passphrase_file: PassOpt = None,
    data: DataOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Ask to take back your last action (the others must agree), or with --accept agree to their request.

    Only an action that rolled no dice, touched no hidden value and ended no period can be taken back, and only
    until anything else happens; to decline, simply play on.
    """
    _sign(
        log, key, passphrase_file, data, as_json,
        lambda session: [session.accept_undo() if accept else session.request_undo()],
    )  # fmt: skip


def claim_timeout(
    log: LogArg,
    key: KeyOpt,
    against: Annotated[str, typer.Option("--against", help="The seat that has not answered in time.")],
    passphrase_file: PassOpt = None,
    data: DataOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Sign a claim that a seat has not answered within the game's deadline (the log must bear it out: C012)."""
    _sign(log, key, passphrase_file, data, as_json, lambda session: [session.claim_timeout(against)])


def resign(
    log: LogArg,
    key: KeyOpt,
    note: NoteOpt = None,
    passphrase_file: PassOpt = None,
    data: DataOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Resign the game."""
    _sign(log, key, passphrase_file, data, as_json, lambda session: session.resign(note))
