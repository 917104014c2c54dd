"""Deterministic games for tests: fixed keys, a fake clock, and a driver that plays through the client.

Ed25519 signatures are deterministic, so with :func:`test_key` and :class:`Clock` every log built here is
the same bytes on every run, which the golden vectors rely on.
"""

from __future__ import annotations

import contextlib
import hashlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.client.session import Session, create_game
from pbem.kit import conformance
from pbem.log.entry import Envelope, seal
from pbem.log.keys import KeyPair
from pbem.log.store import LogStore, read_log
from pbem.rules import registry
from pbem.verify.findings import VerificationReport
from pbem.verify.pipeline import Verifier, verify_lines

__all__ = [
    "Cli", "Clock", "Entropy", "MemoryStore", "Run", "Table", "codes", "play_in_memory", "resign_lines", "test_key"
]  # fmt: skip


def test_key(name: str) -> KeyPair:
    """A fixed key pair for ``name`` (test keys only: the seed is public)."""
    seed = hashlib.sha256(b"pbem test key " + name.encode()).digest()
    return KeyPair.from_private(Ed25519PrivateKey.from_private_bytes(seed))


test_key.__test__ = False  # type: ignore[attr-defined]  # not a test function


class Clock:
    """A clock that advances one second per reading, from 2026-01-01T00:00:00Z."""

    def __init__(self) -> None:
        self.tick = 0

    def __call__(self) -> str:
        t = self.tick
        self.tick += 1
        return (datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=t)).strftime("%Y-%m-%dT%H:%M:%SZ")


class Entropy:
    """Deterministic "random" bytes (a counter through SHA-256), so test logs are the same on every run."""

    def __init__(self, label: str = "") -> None:
        self.label, self.count = label, 0

    def __call__(self, n: int) -> bytes:
        self.count += 1
        return hashlib.sha256(f"pbem test entropy {self.label} {self.count}".encode()).digest()[:n]


def codes(report: VerificationReport) -> list[str]:
    """The error codes of a report, in order."""
    return [f.code for f in report.findings if f.severity == "error"]


@dataclass
class Table:
    """A game under test: its log file, the seats' keys, a shared clock and a deterministic entropy source."""

    path: Path
    keys: dict[str, KeyPair]
    clock: Clock = field(default_factory=Clock)
    entropy: Entropy = field(default_factory=Entropy)

    @classmethod
    def start(
        cls,
        directory: Path,
        scenario: str = "duel",
        rounds: int = 2,
        *,
        join: bool = True,
        referee: bool = False,
        team_dice: bool = False,
        name: str = "game.jsonl",
        game: str = "triad",
        options: dict[str, Any] | None = None,
        title: str = "",
        names: dict[str, str] | None = None,
        deadline: int | None = None,
    ) -> Table:
        ruleset = registry.get(game)
        seats = next(s for s in ruleset.scenarios if s.id == scenario).seats
        keys = {s.id: test_key(s.id) for s in seats}
        table = cls(directory / name, keys)
        ref = None
        if referee:
            keys["ref"] = test_key("ref")
            ref = ("ref", keys["ref"].public)
        create_game(
            table.path,
            ruleset,
            scenario,
            {s.id: keys[s.id].public for s in seats},
            keys[seats[0].id],
            options={"rounds": rounds} if options is None else options,
            referee=ref,
            referee_dice=referee,
            team_dice=team_dice,
            title=title,
            name=(names or {}).get(seats[0].id),
            deadline=deadline,
            clock=table.clock,
            entropy=table.entropy,
        )
        if join:
            for seat in list(keys)[1:]:
                with table.session(seat) as session:
                    session.join((names or {}).get(seat))
        return table

    @contextlib.contextmanager
    def session(self, seat: str) -> Iterator[Session]:
        with LogStore.open(self.path) as store:
            yield Session.open(store, self.keys[seat], clock=self.clock, entropy=self.entropy)

    def act(self, seat: str, *actions: dict[str, Any]) -> list[Envelope]:
        with self.session(seat) as session:
            return session.act(list(actions))

    def owed(self, seat: str) -> list[Envelope]:
        with self.session(seat) as session:
            return session.do_owed()

    def settle(self) -> None:
        """Let every seat do its owed protocol work until nobody owes anything."""
        while any(self.owed(seat) for seat in self.keys):
            pass

    def legal(self, seat: str) -> list[dict[str, Any]]:
        with self.session(seat) as session:
            return session.legal()

    def lines(self) -> list[bytes]:
        return read_log(self.path)[0]

    def verify(self, lines: list[bytes] | None = None) -> VerificationReport:
        return verify_lines(self.lines() if lines is None else lines)[0]

    def replay(self, lines: list[bytes] | None = None) -> Verifier:
        return verify_lines(self.lines() if lines is None else lines)[1]

    def play_out(self, rng: random.Random, max_steps: int = 2000) -> None:
        """Random legal play until the game is over and every seat has disclosed."""
        for _ in range(max_steps):
            progressed = False
            order = list(self.keys)
            rng.shuffle(order)
            for seat in order:
                with self.session(seat) as session:
                    written = session.do_owed()
                    legal = session.legal()
                    if legal:
                        written += session.act([rng.choice(legal)])
                progressed = progressed or bool(written)
            if not progressed:
                return
        raise AssertionError("the play-out did not finish")

    def forge(self, seat: str, kind: str, body: dict[str, Any], *, key: KeyPair | None = None, **fields: Any) -> bytes:
        """A signed line by ``seat`` on top of the current log, with ``fields`` overriding the envelope.

        The draft comes from a public replay (no secrets), so forging works on top of a log that an audit
        would already reject.
        """
        session = Session(None, self.keys[seat], verify_lines(self.lines())[1], clock=self.clock, entropy=self.entropy)
        unsigned = session.draft(session.game, kind, body)
        unsigned.update(fields)
        signer = key or self.keys[seat]
        return seal(unsigned, signer.private.sign).line


def resign_lines(table: Table, seat: str) -> list[bytes]:
    with table.session(seat) as session:
        session.resign()
    return table.lines()


class MemoryStore:
    """Stands in for a LogStore when a test or benchmark needs the lines, not a file."""

    def __init__(self, lines: list[bytes]):
        self.lines = lines
        self.path = Path("memory")

    def append(self, line: bytes) -> None:
        self.lines.append(line)


def play_in_memory(
    game: str,
    scenario: str,
    options: dict[str, Any],
    rng: random.Random,
    *,
    max_entries: int = 20_000,
    title: str = "",
) -> list[bytes]:
    """A whole game between scripted players choosing at random, every entry signed and verified once (the
    seats' keys are :func:`test_key`'s); see :func:`pbem.kit.conformance.play_out`."""
    return conformance.play_out(game, scenario, options, rng, max_entries=max_entries, title=title).lines


@dataclass(frozen=True)
class Run:
    """One CLI invocation: its exit code and what it printed."""

    code: int
    out: str
    err: str

    @property
    def err_lines(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.strip()]

    def assert_error(self, code_id: str, exit_code: int | None = None) -> str:
        """Assert a clean one-line ``error [CODE] …`` on stderr (no traceback) and return that line."""
        assert "Traceback" not in self.err + self.out
        assert len(self.err_lines) == 1, self.err
        line = self.err_lines[0]
        assert line.startswith(f"error [{code_id}] "), line
        if exit_code is not None:
            assert self.code == exit_code, (self.code, line)
        else:
            assert self.code != 0
        return line


Cli = Callable[..., Run]
"""The in-process CLI runner the ``cli`` fixture gives: ``cli("verify", path, "--json")``."""


UNINSTALLED = ",".join(f"pbem.games.{p}.ruleset:RULESET" for p in ("rommel", "gazala", "axisallies"))
"""``PBEM_GAMES`` for the games under construction (not in the ``pbem.games`` entry points yet)."""


def first_choice(game: str, scenario: str) -> Callable[[Path], tuple[Table, str]]:
    """A game played by each seat's first legal action until a seat chooses among three kinds of action or more:
    Rommel's first Movement Phase (after the secret set-up), Gazala's first activation, A&A's first purchases."""

    def table_at(directory: Path) -> tuple[Table, str]:
        table = Table.start(directory, scenario, game=game, options={})
        for _ in range(400):
            acting = [(seat, legal) for seat in table.keys if (legal := table.legal(seat))]
            if not acting:
                table.settle()
                continue
            seat, legal = acting[0]
            if len({a["action"] for a in legal}) >= 3:
                return table, seat
            table.act(seat, legal[0])
        raise AssertionError(f"{game} {scenario}: no choice of three kinds of action in 400 actions")

    return table_at
