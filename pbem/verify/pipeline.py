"""Verification of a game log, as an explicit pipeline.

Every line goes through these steps, in this order; the first step that fails for a line produces that
line's finding:

1. **line**: strict parse under the data model (``L`` codes) and the envelope fields' JSON types (L014); the id
   is computed from the signing input.
2. **duplicate**: an entry already seen (same id, and a signature that is the same or verifies) is dropped with
   a warning (C010); identical duplicates are harmless, so this comes before anything that would call them a
   chain error. A copy with a bad signature is K001, not a duplicate.
3. **key**: the author is a seat and the key id names its current key (K005, K004); the Ed25519 signature
   verifies strictly (K001, K002). This comes before the schema, so no unsigned byte is ever interpreted.
4. **schema**: the strict pydantic schema of the entry type (L014-L017).
5. **game binding**: the entry names this game (C002).
6. **equivocation**: no other entry has the same author and sequence number (C006). A fork halts the
   replay: the game cannot go on until a tournament director rules.
7. **author chain**: sequence, prev, join-first and timestamps (C003, C004, C007, C008; the bounds of
   :mod:`pbem.log.timestamps`).
8. **causal order**: every dependency appears earlier in the file (C005).
9. **protocol and rules**: dice reveals, hidden commitments, checkpoints, and the rules engine's legality
   check of every action (D, H, P, R codes) — :meth:`pbem.replay.game.Game.apply`.

After the first error in step 9 the replay halts (the game state is no longer meaningful), but steps 1-8
still run on every later line, so one report lists every structural problem in the file. PROTOCOL.md §9.1
lists every check in order with its code.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import InternalError, LogFormatError, PbemError
from pbem.log import timestamps
from pbem.log.entry import DiscloseEntry, Envelope, GenesisEntry, envelope, validate
from pbem.log.sign import PublicKey
from pbem.log.store import TornTail, read_log
from pbem.replay.books import Epoch
from pbem.replay.game import DataProvider, Game, Knowledge, builtin_data, no_knowledge
from pbem.verify.findings import Finding, Severity, VerificationReport

__all__ = ["Verifier", "disclosed_knowledge", "verify_file", "verify_lines", "with_disclosed"]


@dataclass
class Verifier:
    """Streams lines through the pipeline; ``game`` is the replay so far."""

    knowledge: Knowledge = no_knowledge
    data_provider: DataProvider = builtin_data
    rules: bool = True
    game: Game | None = None
    findings: list[Finding] = field(default_factory=list)
    halted: bool = False
    lines: int = 0
    forked: set[str] = field(default_factory=set)
    times: MutableMapping[str, str] = field(default_factory=dict)  # entry id → ts, for the order of timestamps
    sigs: MutableMapping[str, bytes] = field(default_factory=dict)  # entry id → signature: what "identical" means

    def clone(self) -> Verifier:
        """An independent copy, to try a line without committing to it."""
        return Verifier(
            self.knowledge, self.data_provider, self.rules, None if self.game is None else self.game.clone(),
            list(self.findings), self.halted, self.lines, set(self.forked),
            ChainMap({}, self.times), ChainMap({}, self.sigs),
        )  # fmt: skip

    def feed(self, line: bytes, number: int | None = None) -> list[Finding]:
        """Run one line through every step; returns (and records) its findings. Blank lines are skipped."""
        if not line.strip():
            return []
        self.lines += 1
        number = self.lines if number is None else number
        try:
            found = self._feed(line, number)
        except Exception as exc:  # a bug in pbem met on this line: say which line, never call the log bad for it
            # (a game module's bugs are R009 findings, raised by the replay guard, not here)
            raise InternalError(exc, entry=f"line {number}") from exc
        self.findings.extend(found)
        return found

    def _feed(self, line: bytes, number: int) -> list[Finding]:
        # (1) line
        try:
            env = envelope(line)
        except LogFormatError as exc:
            return [Finding.from_error(exc, line=number)]
        if self.game is None:
            if self.halted:
                return []  # the genesis was refused: later lines have no game to belong to
            try:
                self.game = self._genesis(env)
                self.times[env.id] = self.game.genesis.ts
                self.sigs[env.id] = env.sig
            except PbemError as exc:
                self.halted = True
                return [self._finding(exc, env, number)]
            return []
        game = self.game
        # (2) duplicate: an entry with an id seen before is a copy, ignored with a warning, if its signature is
        # the same bytes or another valid signature of the same key over the same entry; any other signature is
        # K001/K002 (never silently skipped, never a fork: the id, hence the content, is the same).
        if env.id in game.entries:
            first = game.entries[env.id][0]
            if self.sigs.get(env.id) != env.sig:
                try:
                    _signer(game, env).verify(env.sig, env.signing_input)
                except PbemError as exc:
                    return [self._finding(exc, env, number)]
            return [Finding.warning("C010", f"identical copy of line {first} ignored", line=number, entry=env.id)]
        try:
            # (3) key and signature, on the raw object
            game.key_for(env).verify(env.sig, env.signing_input)
            # (4) schema
            entry = validate(env.raw)
            if isinstance(entry, GenesisEntry):
                raise PbemError("C001", "a second genesis entry")
            # (5) game binding
            game.check_binding(entry)
            if entry.author in self.forked:
                return []  # a forked feed is dead: its later entries cannot be placed
            # (6) equivocation
            try:
                game.check_fork(env, entry)
            except PbemError:
                self.forked.add(entry.author)
                self.halted = True
                raise
            # (7) author chain, (8) causal order
            game.check_chain(env, entry)
            parents = (self.times[p] for p in (entry.prev, *entry.deps) if p in self.times)
            timestamps.check_order(entry.ts, parents, game.genesis.body.deadline)
            game.check_causal(entry)
        except PbemError as exc:
            return [self._finding(exc, env, number)]
        self.times[env.id], self.sigs[env.id] = entry.ts, env.sig
        # (9) protocol and rules
        if self.halted or not self.rules:
            game.record(env, entry, number)
            return []
        try:
            game.apply(env, entry, number)
        except PbemError as exc:
            self.halted = True
            game.record(env, entry, number)
            return [self._finding(exc, env, number)]
        return []

    @staticmethod
    def _finding(error: PbemError, env: Envelope, number: int) -> Finding:
        author = env.author if isinstance(env.author, str) else None
        seq = env.raw.get("seq")
        return Finding.from_error(
            error, line=number, entry=env.id, author=author, seq=seq if isinstance(seq, int) else None
        )

    def _genesis(self, env: Envelope) -> Game:
        if env.raw.get("type") != "genesis":
            raise PbemError("C001", "the first entry is not a genesis")
        key = PublicKey.from_hex(_roster_key(env.raw))  # K005 not in the roster, K003 a weak key
        if env.kid != key.id:  # §9 step 3: the key id before the signature, as for every other entry
            raise PbemError("K004", "the genesis is not signed with its author's roster key")
        key.verify(env.sig, env.signing_input)
        genesis = validate(env.raw)
        assert isinstance(genesis, GenesisEntry)
        for seat in genesis.body.roster:
            PublicKey.from_hex(seat.key)  # refuse weak keys of every seat at genesis (K003)
        return Game(env, genesis, knowledge=self.knowledge, data_provider=self.data_provider, rules=self.rules)

    def report(self, torn: TornTail | None = None) -> VerificationReport:
        """The verdict so far."""
        findings = list(self.findings)
        if self.game is None and not findings:
            findings.append(Finding.from_error(PbemError("C001", "the log has no genesis entry"), line=None))
        if torn is not None:
            where = f" (set aside as {torn.saved_to})" if torn.saved_to else ""
            if torn.damaged_entry:  # an entry that was written whole is lost: the log is not what was signed
                message = (
                    f"the last entry is damaged: a complete entry followed by stray bytes (its newline?), "
                    f"{len(torn.data)} bytes not verified{where}; this copy has lost that entry, re-import it"
                )
                findings.append(Finding.from_error(PbemError("L013", message), line=self.lines + 1))
            else:
                message = f"torn last line of {len(torn.data)} bytes (an append cut short?) not verified{where}"
                findings.append(Finding.warning("L013", message, line=self.lines + 1))
        game = self.game
        valid = not any(f.severity is Severity.ERROR for f in findings) and game is not None
        if game is None:
            return VerificationReport(
                valid=False,
                lines=self.lines,
                entries=0,
                game=None,
                ruleset=None,
                scenario=None,
                result=None,
                audit="unknown",
                awaiting=[],
                heads={},
                state_hash=None,
                final_checkpoints=[],
                findings=findings,
            )
        result = game.result if game.rules and game.started and not self.halted else None
        players = game.roster.players
        if result is None:
            audit = "in-play" if not self.halted else "unknown"
        else:
            audit = "complete" if all(game.seats[s].disclosed for s in players) else "pending"
        return VerificationReport(
            valid=valid,
            lines=self.lines,
            entries=game.count,
            game=game.id,
            ruleset=f"{game.genesis.body.ruleset} {game.genesis.body.version}",
            scenario=game.genesis.body.scenario,
            result=result,
            audit=audit,
            awaiting=[] if self.halted or not game.rules else [w.describe() for w in game.awaiting()],
            heads=game.heads(),
            state_hash=game.current_state_hash() if game.rules and not self.halted else None,
            final_checkpoints=list(game.finals),
            findings=findings,
            claims=[f"line {c.line}: {c.describe()}" for c in game.claims],
        )


def _signer(game: Game, env: Envelope) -> PublicKey:
    """The key of the author's named by ``kid`` in any epoch (a copy of an old entry names an old key).

    Raises:
        PbemError: K004 if no key of the author has that id.
    """
    book = game.seats[env.author]
    keys = [book.roster_key, *(epoch.key for epoch in book.epochs)]
    key = next((k for k in keys if k.id == env.kid), None)
    if key is None:
        raise PbemError("K004", f"a copy of an entry of {book.seat} names a key that is not the seat's")
    return key


def _roster_key(raw: dict[str, Any]) -> str:
    """The genesis author's key, read from the raw (not yet schema-checked) roster."""
    body = raw.get("body")
    roster = body.get("roster") if isinstance(body, dict) else None
    if isinstance(roster, list):
        for seat in roster:
            if isinstance(seat, dict) and seat.get("seat") == raw.get("author"):
                key = seat.get("key")
                if isinstance(key, str) and len(key) == 64 and all(c in "0123456789abcdef" for c in key):
                    return key
                raise LogFormatError("L017", "the genesis author's roster key is not 64 lowercase hex digits")
    raise PbemError("K005", f"genesis author {raw.get('author')!r} is not in its roster")


def disclosed_knowledge(lines: Iterable[bytes]) -> dict[tuple[str, int], bytes]:
    """Game secrets disclosed anywhere in the file, for the audit.

    They need no signature check here: :class:`Game` trusts a secret only if it reproduces the seat's
    committed dice anchor, which nobody but the seat could arrange. The disclose entries themselves are
    verified in order like any other.
    """
    found: dict[tuple[str, int], bytes] = {}
    for line in lines:
        if b"disclose" not in line:
            continue
        try:
            entry = validate(envelope(line).raw)
        except PbemError:
            continue
        if isinstance(entry, DiscloseEntry):
            for item in entry.body.secrets:
                found[(entry.author, item.epoch)] = bytes.fromhex(item.secret)
    return found


def with_disclosed(local: Knowledge, lines: Iterable[bytes]) -> Knowledge:
    """``local`` knowledge (a player's own key) plus every game secret disclosed in ``lines``."""
    disclosed = disclosed_knowledge(lines)

    def knowledge(game: str, seat: str, number: int, epoch: Epoch) -> bytes | None:
        return local(game, seat, number, epoch) or disclosed.get((seat, number))

    return knowledge


def verify_lines(
    lines: list[bytes],
    *,
    knowledge: Knowledge = no_knowledge,
    data_provider: DataProvider = builtin_data,
    rules: bool = True,
    torn: TornTail | None = None,
) -> tuple[VerificationReport, Verifier]:
    """Verify a whole log given as lines; returns the report and the verifier (with its replay)."""
    if rules:
        knowledge = with_disclosed(knowledge, lines)
    verifier = Verifier(knowledge=knowledge, data_provider=data_provider, rules=rules)
    for number, line in enumerate(lines, 1):
        verifier.feed(line, number)
    return verifier.report(torn), verifier


def verify_file(
    path: Path,
    *,
    knowledge: Knowledge = no_knowledge,
    data_provider: DataProvider = builtin_data,
    rules: bool = True,
) -> tuple[VerificationReport, Verifier]:
    """Read (without changing) and verify the log at ``path``.

    Raises:
        StorageError: F001 if the file cannot be read.
    """
    lines, torn = read_log(path)
    return verify_lines(lines, knowledge=knowledge, data_provider=data_provider, rules=rules, torn=torn)
