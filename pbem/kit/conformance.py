"""The contract's conformance suite: checks any ruleset's tests call, through the real protocol.

A game's test suite runs, for each of its scenarios:

* :func:`play_out`: a whole game between scripted players choosing at random among the legal actions, every
  entry signed, verified and written as a player's client would (dice, hidden values, checkpoints, disclosure);
* :func:`check_legal_matches_contains` on every reachable state (:func:`reachable`): every listed action is
  contained, and mutations of them that are not listed are refused citing a rule (or are malformed, R004);
* :func:`check_choices`: the choice tree holds exactly the legal actions, with human labels;
* :func:`check_deterministic`: replaying the log twice gives the same states and events, byte for byte;
* :func:`check_viewer_hashes`: the public replay and each seat's own replay agree on the state hash after every
  entry (hidden values are left out of the hash, so knowledge must not change it);
* :func:`check_concurrent_commute` on every reachable state where several seats may act: actions of different
  seats commute (PROTOCOL.md §8.1), since copies of one game may hold concurrent entries in either order;
* :func:`rules_without_tests`: every rule the module cites in ``deny(...)`` or in an event has a test carrying
  that ``rule`` marker.

This module drives the client and the verifier, so only tests import it; games never do.
"""

from __future__ import annotations

import copy
import hashlib
import inspect
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.client.session import Clock, Entropy, Session, own_knowledge, start_game
from pbem.errors import ActionError
from pbem.log.canon import canonical
from pbem.log.keys import KeyPair
from pbem.replay.basics import state_hash
from pbem.replay.books import Epoch
from pbem.replay.game import Game
from pbem.rules import registry
from pbem.rules.contract import OBSERVER, Action, GameState, HiddenSlot, Ruleset, listed
from pbem.verify.pipeline import Verifier, verify_lines

__all__ = [
    "Chooser",
    "Picker",
    "PlayOut",
    "check_choices",
    "check_concurrent_commute",
    "check_deterministic",
    "check_legal_matches_contains",
    "check_viewer_hashes",
    "counter_clock",
    "counter_entropy",
    "play_out",
    "reachable",
    "rules_cited",
    "rules_without_tests",
    "seat_key",
]

T = TypeVar("T")


class Picker(Protocol):
    """What the scripted players choose with (``random.Random`` in tests; never the game's dice)."""

    def choice(self, seq: Sequence[T]) -> T: ...


Chooser = Callable[[str, list[Action], Picker], Action]
"""Picks the action a scripted seat plays from its legal ones (default: uniformly at random)."""


def seat_key(seat: str) -> KeyPair:
    """A fixed, public key pair for ``seat`` (for tests only: anyone can derive it)."""
    seed = hashlib.sha256(b"pbem test key " + seat.encode()).digest()
    return KeyPair.from_private(Ed25519PrivateKey.from_private_bytes(seed))


def counter_clock() -> Clock:
    """A clock that advances one second per reading from 2026-01-01T00:00:00Z, so logs are reproducible."""
    tick = iter(range(10**9))

    def clock() -> str:
        t = next(tick)
        return f"2026-01-{1 + t // 86400:02d}T{t // 3600 % 24:02d}:{t // 60 % 60:02d}:{t % 60:02d}Z"

    return clock


def counter_entropy(label: str = "") -> Entropy:
    """Deterministic "random" bytes (a counter through SHA-256), so logs are the same on every run."""
    count = iter(range(1, 10**9))

    def entropy(n: int) -> bytes:
        return hashlib.sha256(f"pbem test entropy {label} {next(count)}".encode()).digest()[:n]

    return entropy


def _random_choice(seat: str, legal: list[Action], rng: Picker) -> Action:
    return rng.choice(legal)


@dataclass
class PlayOut:
    """A played game: its signed lines, the keys that signed them, and the replay that built them."""

    lines: list[bytes]
    keys: dict[str, KeyPair]
    verifier: Verifier

    @property
    def game(self) -> Game:
        game = self.verifier.game
        assert game is not None
        return game


def play_out(
    game: str,
    scenario: str,
    options: Mapping[str, Any],
    rng: Picker,
    *,
    keys: Mapping[str, KeyPair] | None = None,
    clock: Clock | None = None,
    entropy: Entropy | None = None,
    choose: Chooser = _random_choice,
    max_entries: int = 20_000,
    title: str = "",
) -> PlayOut:
    """A whole game of ``game`` between scripted players, in memory (nothing is written to disk).

    One replay knowing every seat's secrets serves all seats, so this is linear in the game's length. The game
    ends when nobody can do anything more (over and disclosed) or after ``max_entries`` lines.
    """
    ruleset = registry.get(game)
    seats = next(s for s in ruleset.scenarios if s.id == scenario).seats
    pairs = dict(keys) if keys is not None else {s.id: seat_key(s.id) for s in seats}
    clock = clock or counter_clock()
    entropy = entropy or counter_entropy(f"{game} {scenario} {title}")

    def knowledge(game_id: str, seat: str, number: int, epoch: Epoch) -> bytes | None:
        return own_knowledge(pairs[seat])(game_id, seat, number, epoch)

    creator = pairs[seats[0].id]
    verifier, first = start_game(
        ruleset, scenario, {s.id: pairs[s.id].public for s in seats}, creator, options=dict(options), title=title,
        clock=clock, entropy=entropy, knowledge=knowledge,
    )  # fmt: skip
    lines = [e.line for e in first]
    sessions = {s.id: Session(None, pairs[s.id], verifier, clock=clock, entropy=entropy) for s in seats}
    for session in sessions.values():
        if not session.book.joined:
            lines.append(session.join().line)
    g = verifier.game
    assert g is not None
    progressed = True
    while progressed and len(lines) < max_entries:
        progressed = False
        for seat, session in sessions.items():
            written = session.do_owed()
            if (
                g.state is not None
                and g.result is None
                and not g.waits_for_protocol()
                and seat in g.ruleset.to_act(g.state)
            ):
                written += session.act([choose(seat, g.ruleset.legal_actions(g.state, seat), rng)])
            lines.extend(e.line for e in written)
            progressed |= bool(written)
    return PlayOut(lines, pairs, verifier)


def reachable(lines: list[bytes]) -> Iterator[tuple[Game, int]]:
    """The public replay of ``lines`` after each entry (the same :class:`Game`, advanced), with the line number.

    Raises:
        AssertionError: if a line does not verify.
    """
    verifier = Verifier()
    for number, line in enumerate(lines, 1):
        found = verifier.feed(line, number)
        assert not [f for f in found if f.severity == "error"], [f.render() for f in found]
        if verifier.game is not None and verifier.game.state is not None:
            yield verifier.game, number


def _mutations(action: Action, legal: list[Action], rng: Picker) -> Iterable[Action]:
    """Near misses of a legal action: another value seen in the legal set, a made-up one, a field dropped,
    an extra field, another action's name."""
    values: list[Any] = [v for a in legal for k, v in a.items() if k != "action"]
    names = sorted({str(a["action"]) for a in legal})
    for field in (k for k in action if k != "action"):
        mutated = dict(action)
        mutated[field] = rng.choice(values) if values else "nowhere"
        yield mutated
        yield {**action, field: "no-such-thing"}
        yield {k: v for k, v in action.items() if k != field}
    yield {**action, "extra": 1}
    yield {**action, "action": rng.choice(names)}


def check_legal_matches_contains(
    ruleset: Ruleset[Any], state: GameState, seat: str, rng: Picker, *, mutations: int = 20
) -> int:
    """``legal_actions`` and ``contains`` agree on ``state``: every listed action is contained, and sampled
    mutations of them that are not listed are refused citing a rule, or are malformed (R004).

    Returns the number of actions checked.

    Raises:
        AssertionError: on the first disagreement, naming the action.
    """
    legal = ruleset.legal_actions(state, seat)
    for action in legal:
        verdict = ruleset.contains(state, seat, ruleset.parse_action(action))
        assert verdict.ok, f"{ruleset.id}: {seat} is offered {action} but contains() refuses it: {verdict}"
    checked = len(legal)
    if not legal:
        return checked
    for _ in range(mutations):
        for candidate in _mutations(rng.choice(legal), legal, rng):
            if listed(candidate, legal):
                continue
            try:
                parsed = ruleset.parse_action(copy.deepcopy(candidate))
            except ActionError as exc:
                assert exc.code.id == "R004"
                continue
            verdict = ruleset.contains(state, seat, parsed)
            assert not verdict.ok, f"{ruleset.id}: contains() allows {candidate}, which legal_actions() does not list"
            assert verdict.rule, f"{ruleset.id}: the refusal of {candidate} cites no rule: {verdict}"
            checked += 1
    return checked


_REPR = re.compile(r"^[\[{('\"]|\b(None|True|False)\b")


def check_choices(ruleset: Ruleset[Any], state: GameState, seat: str) -> None:
    """The choice tree holds exactly the legal actions, each once, and labels every value for humans (nothing
    that looks like a Python repr: a leading bracket or quote, ``None``, ``True``, ``False``).

    Raises:
        AssertionError: naming the offending action or label.
    """
    legal = ruleset.legal_actions(state, seat)
    tree = ruleset.choices(state, seat)
    leaves = tree.actions()
    assert sorted(map(canonical, leaves)) == sorted(map(canonical, legal)), f"{ruleset.id}: tree != legal actions"
    pending = [tree]
    while pending:
        node = pending.pop()
        assert node.title and not _REPR.search(node.title), node.title
        for branch in node.options:
            assert branch.label and not _REPR.search(branch.label), branch.label
            if branch.then is not None:
                pending.append(branch.then)


def check_deterministic(lines: list[bytes]) -> None:
    """Replaying ``lines`` twice gives byte-identical states and events.

    Raises:
        AssertionError: if the two replays differ.
    """
    first, second = verify_lines(lines)[1].game, verify_lines(lines)[1].game
    assert first is not None and second is not None and first.state is not None and second.state is not None
    assert canonical(first.state.model_dump(mode="json")) == canonical(second.state.model_dump(mode="json"))
    assert [e.event.model_dump() for e in first.events] == [e.event.model_dump() for e in second.events]


def check_viewer_hashes(lines: list[bytes], keys: Mapping[str, KeyPair]) -> int:
    """After every entry, the public replay and each seat's own replay have the same state hash.

    Returns the number of entries compared.

    Raises:
        AssertionError: naming the first line where a seat's knowledge changes the hash.
    """
    public = Verifier()
    own = {seat: Verifier(knowledge=own_knowledge(pair)) for seat, pair in keys.items()}
    compared = 0
    for number, line in enumerate(lines, 1):
        for verifier in (public, *own.values()):
            found = verifier.feed(line, number)
            assert not [f for f in found if f.severity == "error"], [f.render() for f in found]
        game = public.game
        if game is None or game.state is None:
            continue
        expected = state_hash(game.state)
        for seat, verifier in own.items():
            assert verifier.game is not None and verifier.game.state is not None
            assert state_hash(verifier.game.state) == expected, f"line {number}: {seat}'s knowledge changes the hash"
            view = verifier.game.ruleset.view(verifier.game.state, OBSERVER)
            assert view == game.ruleset.view(game.state, OBSERVER), f"line {number}: {seat}'s knowledge leaks"
        compared += 1
    return compared


def rules_cited(ruleset: Ruleset[Any], events: Iterable[Any] = ()) -> set[str]:
    """Rule sections the module can cite: every ``deny("…", …)`` in its package, and the rules of ``events``."""
    inner = getattr(ruleset, "inner", ruleset)
    package = Path(inspect.getfile(type(inner))).parent
    found: set[str] = set()
    for source in package.rglob("*.py"):
        found |= set(re.findall(r'deny\(\s*"([^"]+)"', source.read_text()))
    found |= {e.rule for e in events if getattr(e, "rule", None)}
    return found


def rules_without_tests(ruleset: Ruleset[Any], tests: Path, events: Iterable[Any] = ()) -> set[str]:
    """The rules :func:`rules_cited` finds that no test under ``tests`` carries as a ``rule`` marker."""
    marked: set[str] = set()
    for source in tests.rglob("test_*.py"):
        marked |= set(re.findall(r'mark\.rule\(\s*"([^"]+)"', source.read_text()))
    return rules_cited(ruleset, events) - marked


def _alone(ruleset: Ruleset[Any], state: GameState, seat: str, action: Action, *, last: bool) -> GameState:
    """``state`` after ``seat``'s ``action``. It must not ask for dice or a deck operation: the entry that asks
    commits to them or is the deck's head, and copies differ on which entry comes last. Unless it is the ``last``
    of the pair, it must not ask for openings either: they would hold the other seat's action.

    As the engine does, the action's secret fields go into their hidden slots and ``apply`` gets the rest.
    """
    secret = ruleset.secret_fields(state, seat, dict(action))
    hidden = dict(state.hidden)
    for field, slot in secret.items():
        old = hidden.get(slot)
        hidden[slot] = HiddenSlot(owner=seat, ver=0 if old is None else old.ver + 1, value=action[field], known=True)
    logged = {k: v for k, v in action.items() if k not in secret}
    before = state.model_copy(update={"hidden": hidden})
    after: GameState = ruleset.apply(before, seat, ruleset.parse_action(copy.deepcopy(logged))).state
    asks = after.rolls is not None or after.deck is not None
    assert not asks, f"{ruleset.id}: {seat}'s {action} may be concurrent, yet asks for dice or a deck"
    opens = not last and any(s.must_open for s in after.hidden.values())
    assert not opens, f"{ruleset.id}: {seat}'s {action} asks for openings before a concurrent action"
    return after


def _after_both(
    ruleset: Ruleset[Any], state: GameState, first: tuple[str, Action], then: tuple[str, Action]
) -> GameState:
    middle = _alone(ruleset, state, *first, last=False)
    seat, action = then
    verdict = ruleset.contains(middle, seat, ruleset.parse_action(copy.deepcopy(action)))
    assert verdict.ok, f"{ruleset.id}: {first[0]}'s {first[1]} makes {seat}'s concurrent {action} illegal: {verdict}"
    return _alone(ruleset, middle, seat, action, last=True)


def check_concurrent_commute(
    ruleset: Ruleset[Any], state: GameState, seats: Sequence[str], rng: Picker, *, pairs: int = 50
) -> int:
    """Actions that can be concurrent commute on ``state`` (PROTOCOL.md §8.1): for sampled pairs of legal
    actions of two different seats the rules wait for at once, each stays legal after the other, neither asks
    for dice, a deck or an opening, and both orders give the same state hash, the same seats to act and the
    same legal actions for each of ``seats`` (the roster's players).

    Returns the number of pairs checked (0 where at most one seat may act).

    Raises:
        AssertionError: naming the first pair whose order matters.
    """
    waiting = ruleset.to_act(state)
    offered = [(seat, action) for seat in waiting for action in ruleset.legal_actions(state, seat)]
    candidates = [(a, b) for i, a in enumerate(offered) for b in offered[i + 1 :] if a[0] != b[0]]
    if len(candidates) > pairs:
        candidates = [rng.choice(candidates) for _ in range(pairs)]
    for a, b in candidates:
        one, other = _after_both(ruleset, state, a, b), _after_both(ruleset, state, b, a)
        where = f"{ruleset.id}: {a[0]}'s {a[1]} and {b[0]}'s {b[1]}"
        assert state_hash(one) == state_hash(other), f"{where} give different states in either order"
        assert ruleset.to_act(one) == ruleset.to_act(other), f"{where} leave different seats to act"
        for seat in seats:
            assert canonical(ruleset.legal_actions(one, seat)) == canonical(ruleset.legal_actions(other, seat)), where
    return len(candidates)
