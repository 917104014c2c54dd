"""The benchmarks' shared timing harness: CPU timings, the signature floor, and what a replay's time goes to.

The replay benchmarks (``replay_battleaxe.py``, ``rommel_replay.py``, ``gazala_replay.py``, ``axisallies_replay.py``)
time a log's bare Ed25519 verifications (:func:`signature_floor`), its verification with and without the rules, and
(Battleaxe, Rommel) the parts of its replay. The micro-benchmarks time with :func:`median_time`.

A full verification is the protocol-only verification plus the replay, and the replay splits into:

* the **module**: the calls the replay makes into the game module (contains, apply, resume, to_act...);
* the **chain audit**: each disclosed game secret's 4,096-step dice chain, rebuilt to the anchor committed at join
  (a fixed cost per seat and game that the protocol requires, whatever the rules);
* the **engine**: everything else, pbem's own replay machinery (the protocol's bookkeeping per entry, dice
  derivation, hidden-information checks, the guard, the events), measured by verifying the log with every module
  call and chain answered at once from a recording of a first verification (states are immutable, so the engine
  does exactly the same work on the same objects).

Times are CPU times (the time other processes hold the shared cores is not counted), the fastest of interleaved
rounds, so that a change in the machine's load affects every measure alike (the micro-benchmarks, whose works
take microseconds, take the median wall-clock time instead).
"""

from __future__ import annotations

import cProfile
import io
import json
import pstats
import statistics
import time
from collections.abc import Callable
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from pbem.log import dice
from pbem.log.entry import envelope
from pbem.replay import guard
from pbem.verify.pipeline import verify_lines

MODULE_CALLS = ("to_act", "secret_fields", "contains", "apply", "resume", "period", "result")


def best(repeat: int, *works: Callable[[], object]) -> list[float]:
    """The fastest of ``repeat`` CPU timings of each of ``works``, taken in interleaved rounds."""
    times: list[list[float]] = [[] for _ in works]
    for _ in range(repeat):
        for work, spent in zip(works, times, strict=True):
            start = time.process_time()
            work()
            spent.append(time.process_time() - start)
    return [min(spent) for spent in times]


def median_time(work: Callable[[], object], repeat: int) -> float:
    """The median of ``repeat`` wall-clock timings of ``work()``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def median_us(work: Callable[[], object], repeat: int, per: int = 1) -> float:
    """:func:`median_time` divided by ``per`` items, in microseconds to a tenth."""
    return round(median_time(work, repeat) / per * 1e6, 1)


def us(seconds: float, count: int) -> float:
    """``seconds`` per one of ``count``, in microseconds to a tenth."""
    return round(seconds / count * 1e6, 1)


def us_each(count: int, **seconds: float) -> dict[str, float]:
    """Each of ``seconds`` per one of ``count``, in microseconds to a tenth (named and ordered as given)."""
    return {name: us(spent, count) for name, spent in seconds.items()}


def over_signatures(signatures: float, **seconds: float) -> dict[str, float]:
    """Each of ``seconds`` as a multiple of the ``signatures`` floor, as ``NAME_over_signatures`` to a hundredth."""
    return {f"{name}_over_signatures": round(spent / signatures, 2) for name, spent in seconds.items()}


def signature_floor(lines: list[bytes]) -> tuple[Callable[[], None], int]:
    """A function that verifies every entry's Ed25519 signature and nothing else (the cryptographic floor a
    verification cannot go under), and the number of rules actions in ``lines``."""
    envelopes = [envelope(line) for line in lines]
    roster = {s["seat"]: s["key"] for s in json.loads(lines[0])["body"]["roster"]}
    keys = {s: Ed25519PublicKey.from_public_bytes(bytes.fromhex(k)) for s, k in roster.items()}
    work = [(keys[e.raw["author"]], e.sig, e.signing_input) for e in envelopes]
    actions = sum(len(e.raw["body"]["actions"]) for e in envelopes if e.raw["type"] == "action")

    def signatures() -> None:
        for public, sig, message in work:
            public.verify(sig, message)

    return signatures, actions


def print_json(figures: object) -> None:
    """Print ``figures`` as the one JSON line a benchmark reports."""
    print(json.dumps(figures))


def module_calls(cls: type, ruleset: Any, lines: list[bytes]) -> Callable[[], None]:
    """The calls one verification of ``lines`` makes into the ruleset class ``cls``, as a function that makes them
    again in a row (states are immutable, so each call sees exactly what it saw during the verification)."""
    calls: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = []
    originals = {name: getattr(cls, name) for name in MODULE_CALLS}

    def recorder(method: Callable[..., Any]) -> Callable[..., Any]:
        def record(self: Any, *args: Any, **kwargs: Any) -> Any:
            calls.append((method, args, kwargs))
            return method(self, *args, **kwargs)

        return record

    try:
        for name, method in originals.items():
            setattr(cls, name, recorder(method))
        verify_lines(lines)
    finally:
        for name, method in originals.items():
            setattr(cls, name, method)

    def again() -> None:
        for method, args, kwargs in calls:
            method(ruleset, *args, **kwargs)

    return again


def engine_only(lines: list[bytes]) -> Callable[[], None]:
    """A full verification of ``lines`` in which every guarded module call (the replay's hot calls) and every dice
    chain returns at once what it returned in a first verification: what is left is the protocol and the engine."""
    answers: list[Any] = []
    replaying = [False]
    position = [0]
    bound, chain = guard._bound, dice._chain  # (a benchmark instrument: private names on purpose)

    def answering(held: guard.GuardedRuleset, name: str) -> Callable[..., Any]:
        call = bound(held, name)

        def answer(*args: Any, **kwargs: Any) -> Any:
            if replaying[0]:
                position[0] += 1
                return answers[position[0] - 1]
            result = call(*args, **kwargs)
            answers.append(result)
            return result

        return answer

    anchors: dict[tuple[bytes, str, str, int, int], bytes] = {}

    def known_chain(top: bytes, game: str, seat: str, epoch: int, length: int, keep: list[bytes] | None) -> bytes:
        if keep is not None:
            return chain(top, game, seat, epoch, length, keep)
        key = (top, game, seat, epoch, length)
        if key not in anchors:
            anchors[key] = chain(top, game, seat, epoch, length, None)
        return anchors[key]

    guard._bound, dice._chain = answering, known_chain  # type: ignore[assignment]
    try:
        verify_lines(lines)
    finally:
        guard._bound, dice._chain = bound, chain

    def run() -> None:
        guard._bound, dice._chain = answering, known_chain  # type: ignore[assignment]
        replaying[0], position[0] = True, 0
        try:
            verify_lines(lines)
        finally:
            guard._bound, dice._chain = bound, chain
            replaying[0] = False
        assert position[0] == len(answers), "the replay asked the module other questions the second time"

    return run


def profile(lines: list[bytes], top: int = 30) -> str:
    """The top functions of one full verification by cumulative and by own CPU time (cProfile), after a first one
    (which builds pydantic's deferred schemas and loads the data pack: once per process, not per game)."""
    verify_lines(lines)
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    verify_lines(lines)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()
