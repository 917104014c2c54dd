"""Scripted games played by email: each seat keeps its own copy of the log, and only packets pass between them.

A sample game (``sample_games/make_*.py``) names a :class:`Policy` per seat and calls :func:`play_by_packets`::

    played = play_by_packets(RULESET, "pairs", {seat: SensiblePlayer() for seat in seats}, Path("sample_games/x"),
                             options={"rounds": 3}, team_dice=True)
    for period in played.periods:
        print(period.period, period.packets, period.round_trips)

Every seat plays through the real client, as a player at their own machine would:

1. The first seat of the scenario writes the genesis and its join (:func:`~pbem.client.session.create_game`) and
   mails the invitation.
2. When mail arrives, a seat reads every armoured packet it received (:func:`~pbem.exchange.packet.read_packets`)
   and imports them into its own copy (:func:`~pbem.exchange.transfer.import_packets`); the invitation creates
   that copy.
3. It opens its copy (:class:`~pbem.client.session.Session`, on the replay of its copy it keeps between turns
   as a client that plays on does; ``reverify=True`` re-reads and re-verifies the whole copy at every step, as
   the command line does), joins if it has not, does the protocol work it owes (dice reveals, openings,
   shuffles, checkpoints, disclosure) and, while the rules wait for it, asks its policy for one action among
   its legal ones and signs it (:meth:`Session.act <pbem.client.session.Session.act>`).
4. If it signed anything, it exports what the others lack (:func:`~pbem.exchange.transfer.export_packet`),
   armoured as an email body carries it (:func:`~pbem.exchange.packet.armour`), to every other seat.

By default the seats answer **one at a time**: whoever has mail reads all of it, works and sends before the
next seat in roster order does. Nothing is ever signed concurrently, so every copy ends as the same bytes.
With ``parallel=True`` delivery goes in **waves** instead: every packet sent in one wave is read in the next,
as if every player answered their mail as soon as it came, so two seats may sign at once (two dice reveals
for one roll, two secret set-up choices). That is how email play goes, and it needs fewer hops; each copy then
holds its concurrent entries in another order, which is sound because rules must make concurrent actions
commute (docs/PROTOCOL.md §8.1; the kit's ``check_concurrent_commute``) and a deck made at set-up builds on
the roster's last join, not the file's (§14.8).

A packet's **hop** is one more than the latest hop of the mail its sender had read: the length of the chain of
deliveries that led to it, i.e. the time spent waiting for mail. A period's hops are the distinct hops of the
packets whose work began in it (a round, a phase); a **round trip** is two hops, there and back.

The output is byte-identical on every run: the seats' keys are derived from public seeds (:func:`sample_key`:
TEST KEYS, never for a real game), the clock is fixed (:class:`SampleClock`) and so are the join nonces
(:func:`sample_entropy`); Ed25519 signatures are deterministic. The output folder receives ``game.jsonl`` (the
first seat's copy), ``packets/NNNN-from-SEAT.txt`` (each packet as mailed) with an index, and ``keys/`` (the
public keys and a warning); it is built aside and renamed into place, so it is never half-written.

What holds at the end, and is checked: every copy holds the same entries; each verifies with the same result,
a complete audit and the same final state hash; merging any copy into the first (:mod:`pbem.verify.merge`)
adds nothing and finds nothing; and, when the seats answer one at a time, every copy is the same bytes. The
protocol orders entries causally, not totally, so nothing stronger holds for concurrent entries.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.client.session import Entropy, Session, create_game
from pbem.errors import PbemError, UsageError
from pbem.exchange.packet import armour, read_packets
from pbem.exchange.transfer import export_packet, import_packets
from pbem.log.canon import JSONValue
from pbem.log.entry import envelope
from pbem.log.keys import KeyPair, save_keypair
from pbem.log.store import LogStore, read_log, write_new_file
from pbem.replay.game import Game
from pbem.rules.contract import Action, Ruleset
from pbem.verify.findings import VerificationReport
from pbem.verify.merge import merge_lines
from pbem.verify.pipeline import Verifier, verify_lines

__all__ = [
    "PeriodStats",
    "Policy",
    "RandomPolicy",
    "SampleClock",
    "ScriptedGame",
    "SentPacket",
    "period_stats",
    "play_by_packets",
    "sample_entropy",
    "sample_key",
]

KEYS_README = """# TEST KEYS: do not use

These are the public halves of keys derived from public seeds (`pbem.client.scripted.sample_key("{game}", SEAT)`)
so that the sample game can be re-created byte for byte. Anyone can derive the private keys and sign as these
seats. Never use them for a real game.
"""


def sample_key(game: str, seat: str) -> KeyPair:
    """The TEST key of ``seat`` in the sample games of ``game``: derived from a public seed, so anyone can sign
    with it. For sample games and tests only. (For ``battleaxe`` these are the keys of its sample game.)"""
    seed = hashlib.sha256(f"pbem sample game test key {game} {seat}".encode()).digest()
    return KeyPair.from_private(Ed25519PrivateKey.from_private_bytes(seed))


def sample_entropy(game: str, seat: str) -> Entropy:
    """Fixed "random" bytes for ``seat``'s machine (its join nonces), so a sample game is reproducible.

    Never in play: a real join nonce must be unpredictable.
    """
    count = iter(range(10**9))

    def entropy(n: int) -> bytes:
        return hashlib.sha256(f"pbem sample nonce {game} {seat} {next(count)}".encode()).digest()[:n]

    return entropy


class SampleClock:
    """A fixed clock shared by every seat: ``start``, then ``step`` seconds more at each reading."""

    def __init__(self, start: str = "2026-06-15T08:00:00Z", step: int = 53):
        self._next = datetime.strptime(start, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        self._step = timedelta(seconds=step)

    def __call__(self) -> str:
        now, self._next = self._next, self._next + self._step
        return now.strftime("%Y-%m-%dT%H:%M:%SZ")


class Policy(Protocol):
    """A scripted player: picks the action ``seat`` plays in ``state`` (what that seat knows) among ``legal``."""

    def choose(self, state: Any, seat: str, legal: Sequence[Action], ruleset: Ruleset[Any]) -> Action: ...


class RandomPolicy:
    """Any legal action, picked by a counter through SHA-256 seeded from ``seed`` (a fallback player).

    Deterministic and the same on every platform; it only chooses among legal actions, never the game's dice
    (which come from the committed-dice protocol alone, hence no ``random`` here either).
    """

    def __init__(self, seed: str):
        self._seed, self._count = seed, 0

    def choose(self, state: Any, seat: str, legal: Sequence[Action], ruleset: Ruleset[Any]) -> Action:
        self._count += 1
        digest = hashlib.sha256(f"pbem random policy {self._seed} {self._count}".encode()).digest()
        return legal[int.from_bytes(digest[:8], "big") % len(legal)]


@dataclass(frozen=True)
class SentPacket:
    """One packet as mailed: its number, sender, the period its work began in, and the hop it travelled on."""

    number: int
    sender: str
    period: str
    entries: int
    size: int
    hop: int
    file: str


@dataclass(frozen=True)
class PeriodStats:
    """The mail one period of the game (a round, a phase) took: packets sent and hops waited for."""

    period: str
    packets: int
    hops: int
    entries: int

    @property
    def round_trips(self) -> float:
        """Hops there and back: a round trip is two hops (a display figure, never signed)."""
        return self.hops / 2


@dataclass
class ScriptedGame:
    """What :func:`play_by_packets` wrote into ``out``, and how the mail went."""

    out: Path
    report: VerificationReport
    entries: int
    packets: list[SentPacket]
    hops: int
    copies_identical: bool

    @property
    def periods(self) -> list[PeriodStats]:
        """Per period, in the order they came: packets, hops (distinct waves), entries carried."""
        return period_stats(self.packets)


def period_stats(packets: Sequence[SentPacket]) -> list[PeriodStats]:
    """The packets, hops (distinct waves) and entries of each period, in the order the periods came."""
    by_period: dict[str, list[SentPacket]] = {}
    for packet in packets:
        by_period.setdefault(packet.period, []).append(packet)
    return [
        PeriodStats(period, len(sent), len({p.hop for p in sent}), sum(p.entries for p in sent))
        for period, sent in by_period.items()
    ]


@dataclass
class _Seat:
    """One player's machine: its key, its own copy of the log, its mail and how far mail has reached it."""

    seat: str
    key: KeyPair
    copy: Path
    entropy: Entropy
    policy: Policy | None
    name: str | None
    note: str | None
    inbox: list[SentPacket] = field(default_factory=list)
    hop: int = 0  # the latest hop whose mail this seat has read
    replay: Verifier | None = None  # the replay of its copy it keeps, as a client that plays on does


def _period(game: Game) -> str:
    if game.state is None:
        return "joining"
    if game.result is not None:
        return "end"
    return game.ruleset.period(game.state)


@contextlib.contextmanager
def _private_heads(directory: Path) -> Iterator[None]:
    """Keep the seats' record of signed heads in ``directory``, not in this machine's (pbem.client.heads)."""
    old = os.environ.get("PBEM_STATE_DIR")
    os.environ["PBEM_STATE_DIR"] = str(directory)
    try:
        yield
    finally:
        if old is None:
            del os.environ["PBEM_STATE_DIR"]
        else:
            os.environ["PBEM_STATE_DIR"] = old


class _Table:
    """The seats, their mail and the bound on what they may sign."""

    def __init__(
        self, ruleset: Ruleset[Any], seats: list[_Seat], stage: Path, clock: SampleClock, limit: int, reverify: bool
    ):
        self.ruleset, self.seats, self.stage, self.clock, self.limit = ruleset, seats, stage, clock, limit
        self.reverify = reverify
        self.sent: list[SentPacket] = []
        self.signed = 0

    def work(self, seat: _Seat, created: bool = False) -> str | None:
        """Read ``seat``'s mail, then sign everything it can; the period its work began in, if it signed
        anything (or ``created`` the game: its invitation is mail too)."""
        mail = seat.inbox
        seat.inbox = []
        if mail:
            packets = [p for sent in mail for p in read_packets(self.stage / sent.file)]
            import_packets(seat.copy, packets, verifier=None if self.reverify else seat.replay)
            seat.hop = max(seat.hop, *(sent.hop for sent in mail))
        with LogStore.open(seat.copy) as store:
            if self.reverify or seat.replay is None:
                session = Session.open(store, seat.key, clock=self.clock, entropy=seat.entropy)
                seat.replay = session.verifier
            else:
                session = Session(store, seat.key, seat.replay, clock=self.clock, entropy=seat.entropy)
            period = _period(session.game)
            written = int(created)
            if not session.book.joined:
                session.join(seat.name)
                written = 1
            while True:
                done = session.do_owed()
                legal = session.legal()
                if legal:
                    done += self._play(session, seat, legal)
                if not done:
                    break
                written += len(done)
                self._count(len(done), session.game)
        return period if written else None

    def _play(self, session: Session, seat: _Seat, legal: list[Action]) -> list[Any]:
        if seat.policy is None:
            raise UsageError("U003", f"{seat.seat} must act, but no policy plays it")
        action = seat.policy.choose(session.game.state, seat.seat, legal, self.ruleset)
        note, seat.note = seat.note, None
        return session.act([action], note)

    def _count(self, written: int, game: Game) -> None:
        self.signed += written
        if self.signed > self.limit:
            raise UsageError(
                "U003",
                f"the scripted game did not end within {self.limit} signed entries (now in {_period(game)}, "
                f"awaiting {', '.join(w.describe() for w in game.awaiting()) or 'nothing'}): raise max_entries "
                "or check the policies",
            )

    def mail(self, seat: _Seat, period: str) -> SentPacket | None:
        """Export what the others lack as an armoured packet file, or None for a game with nobody to mail."""
        if len(self.seats) == 1:
            return None
        packet = export_packet(
            read_log(seat.copy)[0], sender=seat.seat, verifier=None if self.reverify else seat.replay
        )
        number = len(self.sent) + 1
        name = f"packets/{number:04d}-from-{seat.seat}.txt"
        text = armour(packet).encode()
        write_new_file(self.stage / name, text)
        sent = SentPacket(number, seat.seat, period, len(packet.lines), len(text), seat.hop + 1, name)
        self.sent.append(sent)
        return sent


def play_by_packets(
    ruleset: Ruleset[Any],
    scenario: str,
    policies: Mapping[str, Policy],
    out: Path,
    *,
    options: Mapping[str, JSONValue] | None = None,
    team_dice: bool = False,
    referee: str | None = None,
    referee_dice: bool = False,
    title: str = "",
    names: Mapping[str, str] | None = None,
    notes: Mapping[str, str] | None = None,
    clock: SampleClock | None = None,
    parallel: bool = False,
    reverify: bool = False,
    max_entries: int = 20_000,
) -> ScriptedGame:
    """Play ``scenario`` of ``ruleset`` between scripted seats that exchange only packets; write it into ``out``.

    ``ruleset`` must be installed (or named in ``PBEM_GAMES``): every copy is verified by the real pipeline.
    Each seat keeps the replay of its copy between turns and hands it to the exchange functions, so a game costs
    time linear in its length; ``reverify`` makes every seat re-read and re-verify its whole copy at each step
    instead, as the command line does (quadratic: for checking that both paths agree). ``policies`` plays each
    seat (and the ``referee``, if one is named and must act); ``names`` are the names the players go by in
    reports; ``notes`` a message each seat sends with its first action. ``out`` is replaced whole, at the end,
    only if the game ended with a result that verifies.

    Raises:
        UsageError: U003 for an unknown scenario, a seat without a policy, or a game that does not end within
            ``max_entries`` signed entries.
        ActionError: R001-R004 for an action of a policy that the rules refuse (as the client refuses it).
        PbemError: R008 if the game stalls (nobody owes anything and there is no result), U007 if the seats'
            copies disagree, U005 if the final log does not verify: both are bugs in pbem, never in the script.
    """
    spec = next((s for s in ruleset.scenarios if s.id == scenario), None)
    if spec is None:
        raise UsageError("U003", f"{ruleset.id} has no scenario {scenario!r}")
    players = [s.id for s in spec.seats]
    missing = sorted(set(players) - set(policies))
    if missing:
        raise UsageError("U003", f"no policy plays {', '.join(missing)}")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    work = Path(tempfile.mkdtemp(prefix="pbem-scripted-"))
    try:
        with _private_heads(work / "state"):
            result = _play(ruleset, scenario, players, policies, stage, work, out, options=options,
                           team_dice=team_dice, referee=referee, referee_dice=referee_dice, title=title,
                           names=names or {}, notes=notes or {}, clock=clock or SampleClock(), parallel=parallel,
                           reverify=reverify, max_entries=max_entries)  # fmt: skip
        _replace(stage, out)
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(stage, ignore_errors=True)


def _play(
    ruleset: Ruleset[Any],
    scenario: str,
    players: list[str],
    policies: Mapping[str, Policy],
    stage: Path,
    work: Path,
    out: Path,
    *,
    options: Mapping[str, JSONValue] | None,
    team_dice: bool,
    referee: str | None,
    referee_dice: bool,
    title: str,
    names: Mapping[str, str],
    notes: Mapping[str, str],
    clock: SampleClock,
    parallel: bool,
    reverify: bool,
    max_entries: int,
) -> ScriptedGame:
    everyone = [*players, *([referee] if referee is not None else [])]
    (stage / "packets").mkdir()
    (stage / "keys").mkdir()
    (work / "keys").mkdir()
    seats = []
    for name in everyone:
        pair = sample_key(ruleset.id, name)
        (work / name).mkdir()
        save_keypair(pair, work / "keys", name, None)  # the one home of the key file format
        write_new_file(stage / "keys" / f"{name}.pub", (work / "keys" / f"{name}.pub").read_bytes())
        copy = work / name / "game.jsonl"
        entropy = sample_entropy(ruleset.id, name)
        seats.append(_Seat(name, pair, copy, entropy, policies.get(name), names.get(name), notes.get(name)))
    write_new_file(stage / "keys" / "README.md", KEYS_README.format(game=ruleset.id).encode())
    creator = seats[0]
    create_game(
        creator.copy, ruleset, scenario, {s.seat: s.key.public for s in seats if s.seat in players}, creator.key,
        options=options, referee=None if referee is None else (referee, seats[-1].key.public),
        referee_dice=referee_dice, team_dice=team_dice, title=title, name=creator.name, clock=clock,
        entropy=creator.entropy,
    )  # fmt: skip
    table = _Table(ruleset, seats, stage, clock, max_entries, reverify)
    outbox: list[tuple[_Seat, SentPacket]] = []

    def deliver() -> None:
        for sender, packet in outbox:
            for seat in seats:
                if seat is not sender:
                    seat.inbox.append(packet)
        outbox.clear()

    def turn(seat: _Seat, created: bool = False) -> None:
        period = table.work(seat, created)
        if period is not None:
            packet = table.mail(seat, period)
            if packet is not None:
                outbox.append((seat, packet))
                if not parallel:
                    deliver()

    turn(creator, created=True)
    deliver()
    while any(s.inbox for s in seats):
        for seat in seats:
            if seat.inbox:
                turn(seat)
        deliver()
    lines = _agreed(ruleset, seats, identical=not parallel)
    write_new_file(stage / "game.jsonl", b"".join(line + b"\n" for line in lines))
    write_new_file(stage / "packets" / "README.md", _index(table.sent).encode())
    report, _ = verify_lines(lines)
    hops = max((p.hop for p in table.sent), default=0)
    copies_identical = all(read_log(s.copy)[0] == lines for s in seats)
    return ScriptedGame(out, report, len(lines), table.sent, hops, copies_identical)


def _agreed(ruleset: Ruleset[Any], seats: list[_Seat], *, identical: bool) -> list[bytes]:
    """The first seat's copy, once every copy is shown to hold the same game (see the module docstring)."""
    copies = {s.seat: read_log(s.copy)[0] for s in seats}
    first, lines = next(iter(copies.items()))
    reports = {seat: verify_lines(copy)[0] for seat, copy in copies.items()}
    head = reports[first]
    if not head.valid:
        detail = head.first_error.render() if head.first_error else "no game"
        raise PbemError("U005", f"{first}'s copy does not verify ({detail}): a bug in pbem")
    if head.result is None:
        raise PbemError(
            "R008",
            f"the {ruleset.id} game stalled: nobody owes anything, yet there is no result "
            f"(awaiting: {', '.join(head.awaiting) or 'nothing'}; state {head.state_hash})",
        )
    ids = {seat: sorted(envelope(line).id for line in copy) for seat, copy in copies.items()}
    for seat, copy in copies.items():
        report = reports[seat]
        merged = merge_lines(lines, copy)
        same = (
            ids[seat] == ids[first]
            and report.valid
            and report.audit == "complete"
            and report.result == head.result
            and report.state_hash == head.state_hash
            and merged.clean
            and merged.added == 0
            and len(merged.lines) == len(lines)
        )
        if not same or (identical and copy != lines):
            raise PbemError("U007", f"{seat}'s copy differs from {first}'s at the end of the game: a bug in pbem")
    return lines


def _index(sent: list[SentPacket]) -> str:
    rows = [
        "# The packets of this game",
        "",
        "Each file is the armoured packet one seat mailed to every other seat after its turn, as an email body",
        "carries it; `pbem import COPY FILE` reads it. A hop is one delivery of mail: packets on the same hop",
        "were written at the same time, each seat having read the mail of the hop before.",
        "",
        "| packet | from | period | entries | bytes | hop |",
        "|---|---|---|---|---|---|",
        *(f"| {p.file.split('/')[-1]} | {p.sender} | {p.period} | {p.entries} | {p.size} | {p.hop} |" for p in sent),
        "",
        "| period | packets | hops | round trips |",
        "|---|---|---|---|",
    ]
    rows += [f"| {s.period} | {s.packets} | {s.hops} | {s.round_trips:g} |" for s in period_stats(sent)]
    return "\n".join(rows) + "\n"


def _replace(stage: Path, out: Path) -> None:
    """Put the finished folder in place of ``out``: renames, so ``out`` is never half-written."""
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
        os.replace(out, old / out.name)
    os.replace(stage, out)
    if old is not None:
        shutil.rmtree(old)
