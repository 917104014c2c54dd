"""pbem play: an interactive turn in the terminal (rich), driven by the same legal-action list as everything else."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem.cli._common import DataOpt, KeyOpt, PassOpt, console, data_provider, load_key, untrusted

if TYPE_CHECKING:  # imported where used, so a command loads only what it needs (CLI start time)
    from rich.console import Console

    from pbem.client.turn import Turn
    from pbem.report.chronicle import Chronicle


__all__ = ["play"]

HELP = (
    "number: choose · u: take back the last part or choice · s: sign the batch now · q: quit without signing · ?: help"
)
RECENT = 40  # lines of "since your last turn" shown before the rest is summarized


def _ask(out: Console, prompt: str) -> str | None:
    """One answer from the player (None at the end of the input: quit)."""
    try:
        return out.input(prompt).strip()
    except EOFError:
        return None


def _since_last_turn(chron: Chronicle, seat: str) -> list[str]:
    """What the others did since this seat's last action (:meth:`Chronicle.since_last_turn`), as lines."""
    lines = []
    for told in chron.since_last_turn(seat):
        who = untrusted(chron.name_of(told.seat)) if told.seat else ""
        if told.note:
            lines.append(f"[dim]{told.line:>4}[/dim] {who} writes: “{untrusted(told.text, multiline=True)}”")
        else:
            lines.append(f"[dim]{told.line:>4}[/dim] {who + ': ' if who else ''}{told.text}")
    return lines


def _situation(out: Console, turn: Turn) -> None:
    game = turn.game()
    state = game.state
    if state is None:
        return
    view = game.ruleset.view(state, turn.session.seat)
    out.print(f"[bold]{view.summary}[/bold]")
    if turn.steps:
        out.print("Your batch so far (not signed):")
        for number, step in enumerate(turn.steps, 1):
            out.print(f"  {number}. {step.label}")
        for event in turn.events:
            if event.text:
                out.print(f"     [green]→ {event.text}[/green]", markup=True)


def _list(out: Console, labels: list[str]) -> None:
    for number, label in enumerate(labels, 1):
        out.print(f"  [cyan]{number:>3}[/cyan]. {label}", highlight=False)


def _choose(out: Console, turn: Turn) -> bool:
    """Let the player add choices until the batch is complete or they ask to sign; False: they quit.

    Each choice is built a step at a time (:class:`pbem.client.turn.Builder`): the action kind, then each field.
    """
    while (builder := turn.builder()) is not None:
        _situation(out, turn)
        while True:
            entries = builder.entries()
            out.print(f"{builder.title()}:", highlight=False)
            _list(out, [e.label for e in entries])
            answer = _ask(out, "Choose (? for help): ")
            if answer is None or answer == "q":
                out.print("quit: nothing was signed")
                return False
            if answer == "?":
                out.print(HELP)
            elif answer == "u":
                if builder.back():
                    continue
                undone = turn.undo()
                out.print(f"undone: {undone.label}" if undone else "nothing to undo")
                break
            elif answer == "s":
                if turn.steps:
                    return True
                out.print("nothing chosen yet")
            elif answer.isdigit() and 1 <= int(answer) <= len(entries):
                choice = builder.pick(entries[int(answer) - 1])
                if choice is not None:
                    turn.choose(choice)
                    break
            else:
                out.print(f"[red]“{untrusted(answer)}” is not a choice[/red] ({HELP})")
    return True


def play(
    log: Annotated[Path, typer.Argument(help="The game log (JSON Lines).")],
    key: KeyOpt,
    passphrase_file: PassOpt = None,
    data: DataOpt = None,
    web: Annotated[bool, typer.Option("--web", help="Play in your browser: the map, clickable legal moves.")] = False,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="With --web: print the URL, open nothing.")] = False,
    unsafe_listen: Annotated[
        str | None, typer.Option("--unsafe-listen", help="With --web: listen on ADDR, not only on this machine.")
    ] = None,
) -> None:
    """Play your turn interactively: see what happened, choose actions (undo freely), then sign them as one entry."""
    from pbem.client.session import Session, own_knowledge
    from pbem.client.turn import Turn
    from pbem.log.entry import entry_count
    from pbem.log.store import LogStore
    from pbem.report.chronicle import chronicle

    pair = load_key(key, passphrase_file)
    provider = data_provider(data)
    if web:
        from pbem.web.serve import serve_log  # late: only --web needs the web stack

        serve_log(log, pair, provider, unsafe_listen=unsafe_listen, open_browser=not no_browser, say=console.print)
        return
    out = console
    with LogStore.open(log) as store:
        session = Session.open(store, pair, data_provider=provider)
        seat = session.seat
        for env in session.do_owed():
            out.print(f"signed the {env.raw['type']} entry you owed (#{env.raw['seq']})")
        chron = chronicle(store.lines, knowledge=own_knowledge(pair), data_provider=provider)
        title = untrusted(chron.genesis.title) if chron.genesis else ""
        out.rule(f"{title} · you are {untrusted(chron.name_of(seat))}")
        news = _since_last_turn(chron, seat)
        if news:
            out.print("Since your last turn:")
            if len(news) > RECENT:
                out.print(f"  [dim]… {len(news) - RECENT} earlier lines (pbem report --turn N tells them all)[/dim]")
            for line in news[-RECENT:]:
                out.print(f"  {line}")
        request = session.game.undo_request
        if request is not None and seat in request.waiting:
            who = untrusted(chron.name_of(request.author))
            answer = _ask(out, f"{who} asks to take back its last action. Agree? [y/N] ")
            if answer is not None and answer.lower() in ("y", "yes"):
                session.accept_undo()
                out.print("agreed: the action is taken back once every other player agrees")
            else:
                out.print("not agreed: playing on declines it")
        turn = Turn(session)
        while True:
            if not _choose(out, turn):
                return
            if not turn.steps:
                waits = [w.describe() for w in session.game.awaiting()]
                out.print("Nothing for you to do now: " + ("; ".join(waits) or "the game is over"))
                undoable = session.game.undoable
                if undoable is not None and undoable.author == seat and session.game.undo_request is None:
                    out.print(f"(to ask to take back your last action: pbem undo {log} --key KEY)")
                return
            _situation(out, turn)
            what = "this action" if len(turn.actions) == 1 else f"these {len(turn.actions)} actions as one entry"
            confirm = _ask(out, f"Sign {what}? [y: sign, n: keep editing, u: undo the last choice, q: quit] ")
            if confirm is None or confirm.lower() in ("q", "quit"):
                out.print("not signed: nothing was written")
                return
            if confirm.lower() in ("y", "yes"):
                break
            if confirm == "u":
                out.print(f"undone: {turn.undo().label}")  # type: ignore[union-attr]
            elif turn.builder() is None:  # 'n' with nothing more to add: the batch stays as it is
                out.print("not signed; the batch is complete: u takes back its last choice, q quits without signing")
            else:
                out.print("not signed: your batch is kept, go on choosing")
        note = _ask(out, "A note to the other players (Enter for none): ")
        written = turn.sign(note or None)
        out.print(
            f"signed {entry_count(len(written))}: " + ", ".join(f"{e.raw['type']} #{e.raw['seq']}" for e in written)
        )
        waits = [w.describe() for w in session.game.awaiting()]
        out.print("; ".join(waits) or "the game is over")
        out.print(f"send it: pbem mail {log} --to ADDRESS --send   (or paste what pbem export {log} prints)")
        if turn.actions:
            out.print(f"[dim]actions: {json.dumps(turn.actions)}[/dim]", highlight=False)
