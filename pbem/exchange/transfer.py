"""Export the entries another player lacks, and import what they send: verified first, appended in one write.

What a seat already has is known from the log itself: every entry a seat signs names its dependencies, so the
causal past of its latest entry (its vector clock) is in its copy. An export holds everything outside the
recipient's causal past, in file order; importing it twice is harmless (duplicates are skipped, and a packet
with nothing new leaves the log untouched).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import ExchangeError, LogFormatError, PbemError, UsageError
from pbem.exchange.packet import Packet
from pbem.log.entry import envelope
from pbem.log.store import LogStore, write_new_file
from pbem.replay.game import DataProvider, Game, builtin_data
from pbem.verify.findings import Finding, Severity
from pbem.verify.pipeline import Verifier, verify_lines

__all__ = ["Imported", "export_packet", "import_packets"]

# Findings that mean "the packet builds on entries this copy does not have" rather than a bad entry.
_GAP = {"C003", "C004", "C005"}


def _verified(lines: Sequence[bytes], data_provider: DataProvider, kept: Verifier | None = None) -> Verifier:
    """The replay of ``lines``: ``kept`` if the caller's own replay has seen exactly them, else a new one."""
    written = [line for line in lines if line.strip()]
    if kept is not None and kept.game is not None and kept.lines == len(written) and _ends_at(kept.game, written):
        error = next((f for f in kept.findings if f.severity is Severity.ERROR), None)
        if error is not None:
            raise UsageError("U005", f"this copy of the log does not verify ({error.render()})")
        return kept
    report, verifier = verify_lines(list(lines), data_provider=data_provider)
    if not report.valid or verifier.game is None:
        first = report.first_error
        raise UsageError("U005", f"this copy of the log does not verify ({first.render() if first else 'no game'})")
    return verifier


def _ends_at(game: Game, lines: Sequence[bytes]) -> bool:
    try:
        return bool(lines) and game.last[0] == envelope(lines[-1]).id
    except LogFormatError:
        return False


def _known(game: Game, seat: str) -> dict[str, int] | None:
    """The sequence numbers ``seat`` has seen of every author (None: it has signed nothing, so may lack all)."""
    head = game.seats[seat].head
    return None if head is None else dict(game.clocks.get(head, {}))


def export_packet(
    lines: Sequence[bytes],
    *,
    sender: str | None = None,
    recipient: str | None = None,
    everything: bool = False,
    data_provider: DataProvider = builtin_data,
    verifier: Verifier | None = None,
) -> Packet:
    """The entries ``recipient`` (default: every seat but ``sender``) has not seen, as a packet.

    ``verifier`` is a replay of ``lines`` the caller keeps (a client that plays on): used if it has seen exactly
    as many lines, it spares verifying the whole log again.

    Raises:
        UsageError: U003 for an unknown seat, U005 if the log does not verify, U002 if there is nothing to send.
    """
    game = _verified(lines, data_provider, verifier).game
    assert game is not None
    for seat in (sender, recipient):
        if seat is not None and seat not in game.seats:
            raise UsageError("U003", f"no seat {seat!r} in this game (seats: {', '.join(game.seats)})")
    recipients = [recipient] if recipient is not None else [s for s in game.seats if s != sender]
    known = {seat: None if everything else _known(game, seat) for seat in recipients}
    chosen = []
    for line in lines:
        if not line.strip():
            continue
        env = envelope(line)
        _, author, seq = game.entries[env.id]
        if any(k is None or seq > k.get(author, -1) for k in known.values()):
            chosen.append(env.line)
    if not chosen:
        whom = recipient or "the other seats"
        raise UsageError("U002", f"{whom} already has every entry of this log (use --all to send it whole)")
    if sender is None:  # a packet of one seat's entries is from that seat (the usual reply after a turn)
        authors = {game.entries[envelope(line).id][1] for line in chosen}
        sender = authors.pop() if len(authors) == 1 else None
    if recipient is None and sender is not None and len(game.seats) == 2:  # two players: the other one
        recipient = next(seat for seat in game.seats if seat != sender)
    return Packet(game.id, sender, recipient, tuple(chosen))


@dataclass
class Imported:
    """What an import did: entries added (in order), duplicates skipped, and the packets read."""

    game: str
    added: list[str] = field(default_factory=list)
    duplicates: int = 0
    sources: list[str] = field(default_factory=list)
    created: bool = False

    @property
    def stale(self) -> bool:
        """Every entry of the packets was already in the log (a packet imported twice): nothing changed."""
        return not self.added and not self.created


def _refusal(finding: Finding, packet: Packet) -> PbemError:
    where = f"{packet.source}: " if packet.source else ""
    if finding.code in _GAP:
        sender = packet.sender or "the sender"
        return ExchangeError(
            "X005",
            f"{where}the packet builds on entries this copy lacks ({finding.message}); ask {sender} for a "
            "complete export (pbem export LOG --all)",
        )
    return PbemError(finding.code, f"{where}{finding.message}", entry=finding.entry, rule=finding.rule)


def _take(verifier: Verifier, packets: Sequence[Packet], result: Imported) -> list[bytes]:
    """Feed every new entry of ``packets`` to ``verifier``; the canonical lines to append, in order.

    An entry that comes twice in this import (a saved email holds its packet as attachment and as armour)
    counts once; ``duplicates`` counts the entries the log already had.
    """
    new: list[bytes] = []
    seen: set[str] = set()
    for packet in packets:
        result.sources.append(packet.source)
        for number, line in enumerate(packet.lines, 1):
            try:
                env = envelope(line)
            except LogFormatError as exc:
                where = f"{packet.source}, entry {number}"
                raise ExchangeError("X006", f"{where}: the entry does not parse ({exc.render()})") from exc
            if env.id in seen:
                continue
            seen.add(env.id)
            game = verifier.game
            if game is not None and env.id in game.entries:
                result.duplicates += 1
                continue
            errors = [f for f in verifier.feed(env.line) if f.severity is Severity.ERROR]
            if errors:
                raise _refusal(errors[0], packet)
            new.append(env.line)
            result.added.append(env.id)
    return new


def import_packets(
    path: Path,
    packets: Sequence[Packet],
    *,
    data_provider: DataProvider = builtin_data,
    verifier: Verifier | None = None,
) -> Imported:
    """Verify ``packets`` on top of the log at ``path`` and append their new entries in one durable write.

    A log that does not exist yet is created from packets that start with the game's genesis (an invitation).
    Nothing is written unless every new entry verifies. ``verifier`` is a replay of the log the caller keeps (a
    client that plays on): used if it has seen exactly the lines of the file, it spares verifying the whole log
    again, and the new entries are fed to it once they are written.

    Raises:
        ExchangeError: X003 another game, X005 a gap, X006 a malformed entry line. Packets that hold nothing
            new are no error: the result then has no ``added`` entries and the log is not touched.
        PbemError: the verifier's code for an entry that does not verify (C006 for a fork, naming both entries).
        UsageError: U005 if the log at ``path`` does not verify itself.
    """
    if not packets:
        raise ExchangeError("X001", "no packets to import")
    if not path.exists():
        if _kind(packets[0].lines[:1]) != "genesis":
            raise ExchangeError("X005", f"{path} does not exist and the packets do not start with a game's genesis")
        _same_game(packets[0].game, packets)
        verifier = Verifier(data_provider=data_provider)
        result = Imported(game=packets[0].game, created=True)
        new = _take(verifier, packets, result)
        if verifier.game is None or verifier.game.id != packets[0].game:
            raise ExchangeError("X006", f"{packets[0].source}: its header names another game than its genesis")
        write_new_file(path, b"".join(line + b"\n" for line in new))
        return result
    with LogStore.open(path) as store:
        replay = _verified(store.lines, data_provider, verifier)
        kept = replay is verifier
        replay = replay.clone() if kept else replay  # the caller's replay moves on only once the write is done
        assert replay.game is not None
        _same_game(replay.game.id, packets)
        result = Imported(game=replay.game.id)
        new = _take(replay, packets, result)
        if new:  # importing a packet twice is harmless: nothing new, nothing written
            store.extend(new)
    if kept and verifier is not None:
        for line in new:
            verifier.feed(line)
    return result


def _kind(lines: Sequence[bytes]) -> object:
    try:
        return envelope(lines[0]).raw.get("type") if lines else None
    except LogFormatError:
        return None


def _same_game(game: str, packets: Sequence[Packet]) -> None:
    for packet in packets:
        if packet.game != game:
            where = packet.source or "the packet"
            raise ExchangeError("X003", f"{where} is for game {packet.game[:16]}…, this log is game {game[:16]}…")
