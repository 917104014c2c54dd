"""The bookkeeping a replay keeps beside the game state: per-seat feeds, dice, commitments, checkpoints."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pbem.log.sign import PublicKey
from pbem.rules.contract import Event, GameState, RollRequest

__all__ = [
    "Await",
    "Boundary",
    "Claim",
    "Commitment",
    "Epoch",
    "LoggedEvent",
    "OwedSeal",
    "PendingRoll",
    "RollRecord",
    "SeatBook",
    "UndoRequest",
    "Undoable",
]


@dataclass
class Epoch:
    """One key of a seat (epoch 0 joined; each rotation or replacement starts the next)."""

    key: PublicKey
    anchor: bytes  # x_0 of this epoch's dice chain
    nonce: bytes  # the randomness published with the anchor, part of the seat's game secret
    index: int = 0  # the last chain index revealed
    element: bytes = b""  # x_index
    next_key: str | None = None  # pre-rotation digest committed with this key
    secret: bytes | None = None  # the seat's game secret for this epoch, when the replaying party knows it

    def __post_init__(self) -> None:
        if not self.element:
            self.element = self.anchor


@dataclass(frozen=True)
class Boundary:
    """A checkpoint every seat owes: the label and body it must sign, and the entry that crossed it."""

    label: str
    author: str
    seq: int
    body: dict[str, Any]


@dataclass(frozen=True)
class OwedSeal:
    """A hidden slot of this seat that another seat's entry changed: the owner must commit to it."""

    slot: str
    ver: int
    author: str
    seq: int


@dataclass
class SeatBook:
    seat: str
    team: str
    role: str
    roster_key: PublicKey
    epochs: list[Epoch] = field(default_factory=list)
    seq: int = -1
    head: str | None = None
    ts: str = ""
    clock: dict[str, int] = field(default_factory=dict)
    owed_checkpoints: list[Boundary] = field(default_factory=list)
    owed_seals: list[OwedSeal] = field(default_factory=list)
    disclosed: bool = False

    @property
    def joined(self) -> bool:
        return bool(self.epochs)

    @property
    def key(self) -> PublicKey:
        return self.epochs[-1].key if self.epochs else self.roster_key

    @property
    def epoch(self) -> Epoch:
        return self.epochs[-1]

    def clone(self) -> SeatBook:
        return SeatBook(
            self.seat,
            self.team,
            self.role,
            self.roster_key,
            [Epoch(e.key, e.anchor, e.nonce, e.index, e.element, e.next_key, e.secret) for e in self.epochs],
            self.seq,
            self.head,
            self.ts,
            dict(self.clock),
            list(self.owed_checkpoints),
            list(self.owed_seals),
            self.disclosed,
        )


@dataclass
class PendingRoll:
    """Roll request number ``part`` declared by entry ``entry`` that still waits for some seats' seeds.

    ``key`` names it uniquely: the entry id for part 0 (as in protocol v1), ``<entry id>/<part>`` after.
    ``solo``: only the mover answers it (no other seat supplies entropy), so the derivation binds the game
    id instead of the entry id (PROTOCOL.md §6.4.1).
    """

    key: str
    line: int
    mover: str
    request: RollRequest
    awaiting: list[str]
    seeds: dict[str, str]
    ver: int = 0  # the version a private draw will give its slot
    commit: str | None = None
    entry: str = ""  # the declaring entry (the key for part 0)
    part: int = 0
    solo: bool = False

    def __post_init__(self) -> None:
        if not self.entry:
            self.entry = self.key

    def action(self, game: str) -> str:
        """The ``"action"`` input of the dice derivation in game ``game``."""
        return game if self.solo else self.entry

    def clone(self) -> PendingRoll:
        return PendingRoll(
            self.key,
            self.line,
            self.mover,
            self.request,
            list(self.awaiting),
            dict(self.seeds),
            self.ver,
            self.commit,
            self.entry,
            self.part,
            self.solo,
        )


@dataclass(frozen=True)
class RollRecord:
    """A resolved roll with every input needed to recompute it by hand (PROTOCOL.md §6.4)."""

    game: str
    entry: str  # the declaring entry's id, the "action" input of the derivation
    line: int  # the line that completed it
    mover: str
    request: RollRequest
    seeds: dict[str, str]
    faces: dict[str, tuple[int, ...]] | None  # None: a private draw the replaying party cannot see
    private_secret: str | None = None  # a private draw's owner secret, once known
    part: int = 0  # the request's number among those its entry declared (§6.7)
    action: str = ""  # the derivation's "action" input: the entry id, or the game id for a solo roll (§6.4.1)

    @property
    def key(self) -> str:
        """The roll's unique name, as :attr:`PendingRoll.key`."""
        return self.entry if self.part == 0 else f"{self.entry}/{self.part}"

    def as_json(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.part:
            extra["part"] = self.part
        if self.action and self.action != self.entry:
            extra["entry"] = self.entry
        return extra | {
            "game": self.game,
            "action": self.action or self.entry,
            "line": self.line,
            "mover": self.mover,
            "rolls": [r.model_dump() for r in self.request.rolls],
            "private_to": self.request.owner,
            "seeds": self.seeds,
            "private": self.private_secret,
            "faces": None if self.faces is None else {k: list(v) for k, v in self.faces.items()},
        }


@dataclass(frozen=True)
class Commitment:
    owner: str
    slot: str
    ver: int
    commit: str
    enc: str | None
    epoch: int
    draw: PendingRoll | None = None  # set for a private draw: the roll it commits to


@dataclass(frozen=True)
class LoggedEvent:
    line: int
    entry: str
    event: Event


@dataclass(frozen=True)
class Undoable:
    """The last action, which may still be taken back: ``state`` is the game as it was before it."""

    entry: str
    author: str
    state: GameState


@dataclass(frozen=True)
class UndoRequest:
    """An open take-back request (entry ``id``) for ``action``; ``waiting``: the seats yet to agree."""

    id: str
    author: str
    action: str
    waiting: frozenset[str]

    def accepted_by(self, seat: str) -> UndoRequest:
        return UndoRequest(self.id, self.author, self.action, self.waiting - {seat})


@dataclass(frozen=True)
class Claim:
    """A timeout claim the log bears out: at ``line``, ``claimant`` had waited ``hours`` for ``against``."""

    line: int
    claimant: str
    against: str
    since: str
    hours: int
    owed: str

    def describe(self) -> str:
        return f"{self.claimant} claims a timeout against {self.against}: {self.owed} for {self.hours} hours"


@dataclass(frozen=True)
class Await:
    """Something the game waits for: ``what`` a seat must do, with details for people."""

    seat: str
    what: Literal["join", "act", "dice", "open", "seal", "checkpoint", "disclose", "deck"]
    detail: str = ""

    def describe(self) -> str:
        texts = {
            "join": f"waiting for {self.seat} to join",
            "act": f"waiting for {self.seat} to act",
            "dice": f"waiting for {self.seat}'s dice",
            "open": f"waiting for {self.seat} to open {self.detail}",
            "seal": f"waiting for {self.seat} to commit to {self.detail}",
            "checkpoint": f"waiting for {self.seat} to co-sign checkpoint {self.detail}",
            "disclose": f"waiting for {self.seat} to disclose its game secret",
            "deck": f"waiting for {self.seat} to {self.detail}",
        }
        return texts[self.what]
