"""One seat's desk: the log, the key, the batch being built and the multi-part choice in progress.

Everything that signs or writes goes through the client and exchange functions the commands use
(:meth:`Session.act` as ``pbem act``, :meth:`Session.do_owed` as ``pbem reveal``, the take-back and timeout
claims, :func:`export_packet`, :func:`import_packets`), each under the log's lock. Reading is cached per
version of the log file, so a click does not replay the whole game again. The key never leaves this object.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.client.session import Clock, Entropy, Session, own_knowledge, system_clock
from pbem.client.turn import Choice, Turn
from pbem.errors import ExchangeError, StorageError
from pbem.exchange.mail import MailSettings, compose, send, summarize
from pbem.exchange.packet import armour, find_packets, read_packets
from pbem.exchange.transfer import Imported, export_packet, import_packets
from pbem.log.entry import Envelope
from pbem.log.keys import KeyPair
from pbem.log.store import LogStore, read_log, write_file
from pbem.replay.game import DataProvider, builtin_data
from pbem.report.chronicle import Chronicle, chronicle
from pbem.report.svg import MapRenderer
from pbem.rules.contract import View
from pbem.web.choices import Leaf, Naming, Option, Pick, Question, leaves, next_step

__all__ = ["Desk"]


@dataclass
class _Snapshot:
    """The log as read at one version: the verified session and the seat's chronicle."""

    version: tuple[int, int, str]
    session: Session
    chron: Chronicle


@dataclass
class Desk:
    """The seat of ``pair`` at the game in ``log``."""

    log: Path
    pair: KeyPair
    data_provider: DataProvider = builtin_data
    clock: Clock = system_clock
    entropy: Entropy = os.urandom
    steps: list[Choice] = field(default_factory=list)
    picks: list[Option] = field(default_factory=list)
    """The answers given so far to the choice in progress."""
    _snapshot: _Snapshot | None = None
    _renderer: tuple[int, MapRenderer | None] | None = None

    # --- reading ---------------------------------------------------------------------------------------------
    def _version(self) -> tuple[int, int, str]:
        try:
            stat = self.log.stat()
            return stat.st_mtime_ns, stat.st_size, hashlib.sha256(self.log.read_bytes()).hexdigest()
        except OSError as exc:
            raise StorageError("F001", f"cannot read {self.log}: {exc.strerror or exc}") from exc

    def snapshot(self) -> _Snapshot:
        """The verified log (read again only when the file changed).

        The session is kept after its lock is released, for reading only: every write opens the log again.

        Raises:
            StorageError: F001 if the log cannot be read, F005 for a stale copy.
            UsageError: U005 if it does not verify, U001 if the key holds no seat.
        """
        version = self._version()
        if self._snapshot is None or self._snapshot.version != version:
            with LogStore.open(self.log) as store:
                session = Session.open(
                    store, self.pair, clock=self.clock, entropy=self.entropy, data_provider=self.data_provider
                )
                lines = list(store.lines)
            chron = chronicle(lines, knowledge=own_knowledge(self.pair), data_provider=self.data_provider)
            self._snapshot = _Snapshot(version, session, chron)
        return self._snapshot

    @property
    def seat(self) -> str:
        """The seat the key holds."""
        return self.snapshot().session.seat

    def turn(self) -> Turn:
        """The batch so far, on the current log (choices that no longer fit are dropped with the picks)."""
        return Turn(self.snapshot().session, steps=list(self.steps))

    def renderer(self) -> MapRenderer | None:
        """The game's map renderer (None: the game has no presentation), built once per replay."""
        chron = self.snapshot().chron
        if self._renderer is None or self._renderer[0] != id(chron.game):
            presentation = chron.presentation
            self._renderer = (id(chron.game), None if presentation is None else MapRenderer(presentation))
        return self._renderer[1]

    def view(self, turn: Turn) -> View | None:
        """What this seat sees after the batch so far (the preview)."""
        game = turn.game()
        return None if game.state is None else game.ruleset.view(game.state, self.seat)

    def naming(self, turn: Turn, view: View | None) -> Naming:
        """What a map click stands for (units as ``view`` shows them, the map's places) and the game's labels."""
        renderer = self.renderer()
        units = {u.id: u.name for u in view.units} if view is not None else {}
        locations = {r.id: renderer.name(r.id) for r in renderer.spec.regions} if renderer is not None else {}
        game = turn.game()
        state = game.state
        return Naming(units, locations, lambda field, value: game.ruleset.label(state, field, value))

    def tree(self, turn: Turn) -> list[Leaf]:
        """This seat's choice tree after the batch so far, as its complete actions ([] while it must wait)."""
        if turn.must_wait():
            return []
        game = turn.game()
        assert game.state is not None
        return leaves(game.ruleset.choices(game.state, self.seat))

    def _step(self, turn: Turn, naming: Naming) -> Question | Leaf | None:
        found = self.tree(turn)
        if not found:
            self.picks.clear()
            return None
        step = next_step(found, [o.pick for o in self.picks], naming)
        if step is None:  # the picks no longer fit (the batch changed): start the choice again
            self.picks.clear()
            step = next_step(found, [], naming)
        return step

    def question(self, turn: Turn, naming: Naming) -> Question | None:
        """The next question of the choice in progress (None: nothing to choose now)."""
        step = self._step(turn, naming)
        if isinstance(step, Leaf):  # a choice left complete: start the next one
            self.picks.clear()
            step = self._step(turn, naming)
        return step if isinstance(step, Question) else None

    # --- building the batch ----------------------------------------------------------------------------------
    def answer(self, pick: Pick) -> str | None:
        """Take ``pick`` if it is one of the options now; the label of the action it completes, if any."""
        turn = self.turn()
        naming = self.naming(turn, self.view(turn))
        question = self.question(turn, naming)
        option = next((o for o in question.options if o.pick == pick), None) if question is not None else None
        if option is None:
            return None
        self.picks.append(option)
        step = self._step(turn, naming)
        if isinstance(step, Leaf):
            self.picks.clear()
            label = step.describe(naming)
            self.steps.append(Choice(label, (step.action,)))
            return label
        return None

    def stacks(self, turn: Turn) -> list[Choice]:
        """The rules' whole-stack moves (their tree's groups) of the unit picked so far, each legal as a whole."""
        if len(self.picks) != 1 or self.picks[0].pick.mode != "is" or self.picks[0].pick.field != "unit":
            return []
        unit = self.picks[0].pick.value
        found = []
        for choice in turn.options():
            if len(choice.actions) > 1 and any(a.get("unit") == unit for a in choice.actions):
                found.append(Choice(choice.label[:1].upper() + choice.label[1:], choice.actions))
        return found

    def take_stack(self, number: int) -> str | None:
        """Add stack move ``number`` (from 1) of :meth:`stacks` to the batch; its label, if there is one."""
        stacks = self.stacks(self.turn())
        if not 1 <= number <= len(stacks):
            return None
        self.steps.append(stacks[number - 1])
        self.picks.clear()
        return stacks[number - 1].label

    def back(self) -> None:
        """Take back the last part of the choice in progress."""
        if self.picks:
            self.picks.pop()

    def take_back(self, number: int) -> None:
        """Take back step ``number`` (from 1) of the batch and every step after it."""
        if 1 <= number <= len(self.steps):
            del self.steps[number - 1 :]
            self.picks.clear()

    # --- signing and protocol work (the commands' own client functions, under the log's lock) ----------------
    def _signing(self, work: Callable[[Session], list[Envelope]]) -> list[Envelope]:
        with LogStore.open(self.log) as store:
            session = Session.open(
                store, self.pair, clock=self.clock, entropy=self.entropy, data_provider=self.data_provider
            )
            return work(session)

    def sign(self, note: str | None) -> list[Envelope]:
        """Sign the batch as one entry, exactly as ``pbem act`` does; the batch is emptied once written."""
        actions = [a for step in self.steps for a in step.actions]
        written = self._signing(lambda session: session.act(actions, note))
        self.steps.clear()
        self.picks.clear()
        return written

    def do_owed(self) -> list[Envelope]:
        """Dice reveals, checkpoints, commitments and openings this seat owes (as ``pbem reveal``)."""
        return self._signing(lambda session: session.do_owed())

    def request_undo(self) -> list[Envelope]:
        """Ask to take back this seat's last action (as ``pbem undo``)."""
        return self._signing(lambda session: [session.request_undo()])

    def accept_undo(self) -> list[Envelope]:
        """Agree to the other seat's take-back request (as ``pbem undo --accept``)."""
        return self._signing(lambda session: [session.accept_undo()])

    def claim_timeout(self, against: str) -> list[Envelope]:
        """Claim that ``against`` missed the game's deadline (as ``pbem claim-timeout``)."""
        return self._signing(lambda session: [session.claim_timeout(against)])

    # --- exchange ----------------------------------------------------------------------------------------------
    def export(self) -> str:
        """The armoured packet of the entries the others lack (as ``pbem export``)."""
        lines, _ = read_log(self.log)
        return armour(export_packet(lines, sender=self.seat, data_provider=self.data_provider))

    def write_mail(self, to: str, output: Path, *, do_send: bool) -> int:
        """The packet as an email (as ``pbem mail``): saved to ``output`` and, with ``do_send``, sent.

        Returns the number of entries in it.
        """
        settings = MailSettings.load() if do_send else None
        lines, _ = read_log(self.log)
        packet = export_packet(lines, sender=self.seat, data_provider=self.data_provider)
        summary = summarize(lines, packet, log_name=self.log.name, data_provider=self.data_provider)
        sender = settings.sender if settings is not None and settings.sender else "pbem@localhost"
        message = compose(packet, summary, to=to, sender=sender, log_name=self.log.name)
        write_file(output, bytes(message), replace=True)
        if settings is not None:
            send(message, settings)
        return len(packet.lines)

    def import_text(self, text: str) -> Imported:
        """Verify and append the armoured packets pasted in ``text``, as ``pbem import``.

        Raises:
            ExchangeError: X001 if the text holds no packet; as :func:`import_packets` otherwise.
        """
        packets = find_packets(text, "the pasted text")
        if not packets:
            raise ExchangeError("X001", "the pasted text holds no pbem packet (no armoured block)")
        return import_packets(self.log, packets, data_provider=self.data_provider)

    def import_file(self, data: bytes, name: str) -> Imported:
        """Verify and append the packets of a dropped file (packet, saved email, mbox), as ``pbem import``."""
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / (Path(name).name or "packet")
            path.write_bytes(data)
            packets = read_packets(path)
        return import_packets(self.log, packets, data_provider=self.data_provider)

    def hidden_values(self) -> list[tuple[str, Any]]:
        """This seat's own hidden values it knows now (slot, value)."""
        game = self.snapshot().session.game
        if game.state is None:
            return []
        hidden = sorted(game.state.hidden.items())
        return [(name, slot.value) for name, slot in hidden if slot.owner == self.seat and slot.known]
