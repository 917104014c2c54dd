"""The replay's plain helpers: what a replaying party knows, where data packs come from, state hashes, the
statements a new key signs, and the value of a private draw.

They need no :class:`~pbem.replay.game.Game`, so every other replay module may import them without a cycle;
:mod:`pbem.replay.game` re-exports the public ones.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from pbem.errors import LogFormatError, PbemError
from pbem.log.canon import canonical, check_value
from pbem.log.dice import faces
from pbem.log.entry import pae
from pbem.replay.books import Epoch
from pbem.rules.contract import GameState, RollRequest, Ruleset

__all__ = [
    "UNKNOWN",
    "DataProvider",
    "Knowledge",
    "builtin_data",
    "check_state",
    "draw_value",
    "no_knowledge",
    "replacement_statement",
    "rotation_statement",
    "state_hash",
]

Knowledge = Callable[[str, str, int, Epoch], bytes | None]
"""The game secret of (game id, seat, epoch number, the epoch's key and nonce), if the replaying party knows it
(its own, or disclosed)."""

UNKNOWN: Any = object()
"""A hidden value the replaying party cannot see."""


def no_knowledge(game: str, seat: str, number: int, epoch: Epoch) -> None:
    """The public verifier's knowledge: no secrets at all."""
    return None


DataProvider = Callable[[Ruleset[Any], str], bytes | None]
"""Finds the data pack with a given SHA-256 for a ruleset (None if unavailable)."""


def builtin_data(ruleset: Ruleset[Any], sha: str) -> bytes | None:
    """The default provider: the ruleset's bundled pack, if it has that hash."""
    raw = ruleset.default_data()
    return raw if hashlib.sha256(raw).hexdigest() == sha else None


def state_hash(state: GameState) -> str:
    """SHA-256 of the public part of ``state``: unopened hidden values are left out."""
    dumped = state.model_dump(mode="json")
    dumped["hidden"] = {
        name: {
            "owner": slot.owner,
            "ver": slot.ver,
            "public": slot.public,
            "must_open": slot.must_open,
            **({"value": slot.value} if slot.public else {}),
        }
        for name, slot in state.hidden.items()
    }
    # Shared decks: hands by size only (``deck`` and ``decks`` are left out while unused, omit_when_empty).
    if "decks" in dumped:
        dumped["decks"] = {
            name: {**deck, "hands": {seat: len(cards) for seat, cards in deck["hands"].items()}}
            for name, deck in dumped["decks"].items()
        }
    return hashlib.sha256(canonical(dumped)).hexdigest()


def check_state(state: GameState) -> None:
    """Check that a module's state is inside the JSON data model (no floats, no huge integers).

    States come from module code, not from players, so this guards against module bugs: the test suite runs
    it on every state of every play-out rather than the verifier on every checkpoint.

    Raises:
        PbemError: R008 if it is not.
    """
    try:
        check_value(state.model_dump(mode="json"))
    except LogFormatError as exc:
        raise PbemError("R008", f"the game state is not in the JSON data model: {exc.message}") from exc


def rotation_statement(game: str, seat: str, key: str, seq: int) -> bytes:
    """What a rotated-to key signs to prove possession (PROTOCOL.md §4.3)."""
    return pae("pbem/key-rotate/v1", canonical({"game": game, "seat": seat, "key": key, "seq": seq}))


def replacement_statement(game: str, seat: str, key: str, seq: int, prev: str) -> bytes:
    """What every other seat co-signs to replace a lost key (PROTOCOL.md §4.4)."""
    body = {"game": game, "seat": seat, "key": key, "seq": seq, "prev": prev}
    return pae("pbem/key-replace/v1", canonical(body))


def draw_value(request: RollRequest, seed: bytes) -> dict[str, list[int]]:
    """The faces of a private draw, by roll id (used when the draw resolves and when its owner opens it)."""
    drawn = faces(seed, [(r.sides, r.n) for r in request.rolls])
    return {r.id: f for r, f in zip(request.rolls, drawn, strict=True)}
