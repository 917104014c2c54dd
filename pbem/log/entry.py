"""Log entries: the signing input, the entry id, and the strict schema of every entry type.

One entry is one canonical JSON object per line (PROTOCOL.md §3)::

    signing_input = PAE("application/vnd.pbem-log.entry.v1+json", JCS(entry without "sig"))
    id            = hex(SHA-256(signing_input))
    sig           = Ed25519(author's key, signing_input)

The id excludes the signature, so nobody, not even the signer, can change an entry's identity by
re-signing. The signature is verified on the raw parsed object *before* the schema is applied
(:func:`envelope` then :func:`validate`), so a schema bug can never make an unsigned field count.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from pbem.errors import LogFormatError
from pbem.log import timestamps
from pbem.log.canon import JSONValue, canonical, check_value, parse_line

__all__ = [
    "PAYLOAD_TYPE",
    "ActionEntry",
    "CheckpointEntry",
    "DeckRekeyEntry",
    "DeckRevealEntry",
    "DeckShuffleEntry",
    "DeckStripEntry",
    "DiscloseEntry",
    "Entry",
    "EntryType",
    "Envelope",
    "FeedEntry",
    "GenesisEntry",
    "HiddenEntry",
    "JoinEntry",
    "KeyReplaceEntry",
    "KeyRotateEntry",
    "ResignEntry",
    "RevealEntry",
    "entry_count",
    "envelope",
    "pae",
    "seal",
    "signing_input",
    "validate",
]

PAYLOAD_TYPE = "application/vnd.pbem-log.entry.v1+json"
VERSION = 1
MAX_DEPS = 16
_HEX = re.compile(r"^[0-9a-f]*$")


def pae(payload_type: str, payload: bytes) -> bytes:
    """DSSE pre-authentication encoding: ``"DSSEv1" SP len(type) SP type SP len(body) SP body``."""
    t = payload_type.encode()
    return b"DSSEv1 %d %s %d %s" % (len(t), t, len(payload), payload)


def signing_input(unsigned: Mapping[str, JSONValue]) -> bytes:
    """The bytes an entry's signature covers and its id hashes."""
    return pae(PAYLOAD_TYPE, canonical(unsigned))


class EntryType(StrEnum):
    """Every entry type of protocol v1, in the protocol's spelling."""

    GENESIS = "genesis"
    JOIN = "join"
    ACTION = "action"
    REVEAL = "reveal"  # a dice-chain seed answering an action's declared rolls
    HIDDEN = "hidden"  # openings the rules ask for, and re-seals of values changed by others' entries
    CHECKPOINT = "checkpoint"
    DISCLOSE = "disclose"
    KEY_ROTATE = "key-rotate"
    KEY_REPLACE = "key-replace"
    RESIGN = "resign"
    CLAIM_TIMEOUT = "claim-timeout"  # evidence that a seat has not answered within the genesis deadline
    UNDO_REQUEST = "undo-request"  # the author asks to take back its last action
    UNDO_ACCEPT = "undo-accept"  # another seat agrees; once all have, the action is void
    DECK_SHUFFLE = "deck-shuffle"  # a seat masks and permutes a shared deck (PROTOCOL.md §14)
    DECK_REKEY = "deck-rekey"  # a seat adds its layer to cards returned to a shared deck
    DECK_STRIP = "deck-strip"  # a seat strips its layer from cards dealt to another seat
    DECK_REVEAL = "deck-reveal"  # a seat reveals cards of its hand, each with a proof


@dataclass(frozen=True, slots=True)
class Envelope:
    """A parsed line before its schema is checked: the raw object, what it signs, its id and signature."""

    raw: dict[str, JSONValue]
    signing_input: bytes
    id: str
    sig: bytes

    @property
    def line(self) -> bytes:
        """The canonical line, as a store writes it (computed on demand: verification never needs it)."""
        return canonical(self.raw)

    @property
    def author(self) -> Any:
        return self.raw.get("author")

    @property
    def kid(self) -> Any:
        return self.raw.get("kid")


def entry_count(n: int, adjective: str = "") -> str:
    """``1 entry``, ``3 new entries``: how messages count entries."""
    words = f"{adjective} " if adjective else ""
    return f"1 {words}entry" if n == 1 else f"{n} {words}entries"


# The JSON type of every envelope field (PROTOCOL.md §3.1), checked at the parse step: later steps (the key
# lookup, the duplicate check, every command's summary of a log) may then read these fields without a guard.
_ENVELOPE_TYPES: dict[str, tuple[type, ...]] = {
    "v": (int,),
    "type": (str,),
    "game": (str,),
    "author": (str,),
    "kid": (str,),
    "seq": (int,),
    "prev": (str,),
    "deps": (list,),
    "ts": (str,),
    "body": (dict,),
    "sig": (str,),
}
_JSON_NAMES = {int: "an integer", str: "a string", list: "an array", dict: "an object", bool: "a boolean"}


_FIELDS = tuple(_ENVELOPE_TYPES)
_EXACT_TYPES = tuple(kinds[0] for kinds in _ENVELOPE_TYPES.values())
_STR = {str}


def _check_envelope_types(raw: Mapping[str, JSONValue]) -> None:
    # every field present with exactly its JSON type (a bool is not an int): the usual case, checked at once
    if tuple(map(type, map(raw.get, _FIELDS))) == _EXACT_TYPES and set(map(type, raw["deps"])) <= _STR:
        return
    for name, kinds in _ENVELOPE_TYPES.items():
        if name not in raw:
            continue  # a missing field is the schema's finding (step 4), after the signature
        value = raw[name]
        if not isinstance(value, kinds) or isinstance(value, bool):
            got = "null" if value is None else _JSON_NAMES.get(type(value), type(value).__name__)
            raise LogFormatError("L014", f"envelope field {name!r} is {got}, not {_JSON_NAMES[kinds[0]]}")
    deps = raw.get("deps")
    if isinstance(deps, list) and not all(isinstance(d, str) for d in deps):
        raise LogFormatError("L014", "envelope field 'deps' holds a value that is not a string")


def envelope(line: bytes) -> Envelope:
    """Parse one line strictly and compute its signing input and id.

    Raises:
        LogFormatError: an ``L`` code for a malformed line, L014 for an envelope field of the wrong JSON type,
        or L017 for a malformed ``sig``.
    """
    raw = parse_line(line)
    _check_envelope_types(raw)
    sig = raw.get("sig")
    if not isinstance(sig, str) or len(sig) != 128 or not _HEX.match(sig):
        raise LogFormatError("L017", "sig is not 128 lowercase hex digits")
    unsigned = dict(raw)
    del unsigned["sig"]
    signed = signing_input(unsigned)
    return Envelope(raw, signed, hashlib.sha256(signed).hexdigest(), bytes.fromhex(sig))


def seal(unsigned: Mapping[str, JSONValue], sign: Any) -> Envelope:
    """Sign an entry built in memory; ``sign`` maps the signing input to a 64-byte signature.

    Raises:
        LogFormatError: if the entry is outside the data model.
    """
    check_value(unsigned)
    signed = signing_input(unsigned)
    sig: bytes = sign(signed)
    raw = {**unsigned, "sig": sig.hex()}
    return Envelope(raw, signed, hashlib.sha256(signed).hexdigest(), sig)


# --- schema ---------------------------------------------------------------------------------------

Hex64 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
Hex128 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{128}$")]
HexAny = Annotated[str, StringConstraints(pattern=r"^(?:[0-9a-f]{2}){1,2048}$")]
Seat = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_-]{0,31}$")]
Name = Annotated[str, StringConstraints(min_length=1, max_length=128)]
Slot = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_./:-]{1,96}$")]
Timestamp = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")]  # and real: C008
Count = Annotated[int, Field(ge=0)]


class Wire(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, defer_build=True)


class RosterSeat(Wire):
    seat: Seat
    key: Hex64
    role: Literal["player", "referee"]
    team: Seat


class DiceConfig(Wire):
    quorum: Literal["opponents", "referee", "teams"]  # "teams": one seat per opposing team (§6.3.1)
    referee: Seat | None
    chain: Annotated[int, Field(ge=16, le=65536)]


class GenesisBody(Wire):
    ruleset: Name
    version: Name
    data: Hex64
    scenario: Name
    options: dict[str, Any]
    roster: Annotated[list[RosterSeat], Field(min_length=1, max_length=8)]
    dice: DiceConfig
    title: Annotated[str, StringConstraints(max_length=200)]
    deadline: Annotated[int, Field(ge=1, le=8760)] | None = None  # hours a seat has to answer (absent: none)


PlayerName = Annotated[str, StringConstraints(min_length=1, max_length=64)]
Note = Annotated[str, StringConstraints(min_length=1, max_length=2000)]


class JoinBody(Wire):
    anchor: Hex64
    nonce: Hex64  # fresh randomness in this seat's game secret: a replayed genesis cannot repeat its dice
    next_key: Hex64 | None  # pre-rotation: SHA-256 of the raw public key this seat may rotate to
    name: PlayerName | None = None  # how the player wants to be called in reports (absent: the seat id)


class RollSpec(Wire):
    id: Annotated[str, StringConstraints(pattern=r"^[a-z0-9_.-]{1,40}$")]
    sides: Annotated[int, Field(ge=2, le=1000)]
    n: Annotated[int, Field(ge=1, le=100)]
    purpose: Annotated[str, StringConstraints(max_length=200)]


class RollDeclaration(Wire):
    rolls: Annotated[list[RollSpec], Field(min_length=1, max_length=50)]
    index: Annotated[int, Field(ge=1)]  # the mover's own contribution: its next dice-chain element
    seed: Hex64
    owner: Seat | None  # a private draw: only this seat learns the faces
    slot: Slot | None  # the hidden slot a private draw fills
    commit: Hex64 | None  # the owner's commitment to its private-draw secret


class Sealed(Wire):
    """A commitment to a new version of a hidden slot, with the value sealed for its owner."""

    slot: Slot
    ver: Count
    commit: Hex64
    enc: HexAny


class Echo(Wire):
    for_: Annotated[Hex64, Field(alias="for")]
    faces: list[Annotated[int, Field(ge=1)]]


class ActionBody(Wire):
    actions: Annotated[list[dict[str, Any]], Field(min_length=1, max_length=200)]
    # one request as an object (v1); several pending at once as a list of 2-8, in resolution order (§6.7)
    rolls: RollDeclaration | Annotated[list[RollDeclaration], Field(min_length=2, max_length=8)] | None
    sealed: list[Sealed]
    echo: list[Echo]
    note: Note | None = None  # a message to the other players, shown in reports (absent: none)


class RevealBody(Wire):
    for_: Annotated[Hex64, Field(alias="for")]
    index: Annotated[int, Field(ge=1)]
    seed: Hex64
    commit: Hex64 | None = None  # a private draw's owner, when another seat declared it (§6.8; absent: none)


class Opening(Wire):
    slot: Slot
    ver: Count
    salt: Hex64 | None  # for a chosen or rule-computed value
    value: Any  # the opened value (ignored for a private draw: it is recomputed)
    secret: Hex64 | None  # for a private draw


class HiddenBody(Wire):
    opened: Annotated[list[Opening], Field(max_length=200)]
    sealed: Annotated[list[Sealed], Field(max_length=200)]


class CheckpointBody(Wire):
    label: Name
    state: Hex64
    heads: dict[Seat, Hex64]
    entries: Count


class EpochSecret(Wire):
    epoch: Count
    secret: Hex64


class DiscloseBody(Wire):
    secrets: Annotated[list[EpochSecret], Field(min_length=1, max_length=16)]


class KeyRotateBody(Wire):
    key: Hex64
    pop: Hex128  # the new key's signature over the rotation statement
    anchor: Hex64  # the new epoch's dice-chain anchor
    nonce: Hex64  # fresh randomness in the new epoch's game secret
    next_key: Hex64 | None


class Cosignature(Wire):
    seat: Seat
    sig: Hex128


class KeyReplaceBody(Wire):
    key: Hex64
    anchor: Hex64
    nonce: Hex64
    cosigs: Annotated[list[Cosignature], Field(min_length=1, max_length=8)]


class ResignBody(Wire):
    note: Note | None = None


class ClaimTimeoutBody(Wire):
    against: Seat  # the seat the game has waited for
    since: Hex64  # the last entry of the log when the claim was made: nothing came after it


class _Entry(Wire):
    v: Literal[1]
    author: Seat
    kid: Hex64
    ts: Timestamp
    sig: Hex128


class GenesisEntry(_Entry):
    type: Literal["genesis"]
    body: GenesisBody


class _FeedEntry(_Entry):
    game: Hex64
    seq: Count
    prev: Hex64
    deps: Annotated[list[Hex64], Field(max_length=MAX_DEPS)]


class JoinEntry(_FeedEntry):
    type: Literal["join"]
    body: JoinBody


class ActionEntry(_FeedEntry):
    type: Literal["action"]
    body: ActionBody


class RevealEntry(_FeedEntry):
    type: Literal["reveal"]
    body: RevealBody


class HiddenEntry(_FeedEntry):
    type: Literal["hidden"]
    body: HiddenBody


class CheckpointEntry(_FeedEntry):
    type: Literal["checkpoint"]
    body: CheckpointBody


class DiscloseEntry(_FeedEntry):
    type: Literal["disclose"]
    body: DiscloseBody


class KeyRotateEntry(_FeedEntry):
    type: Literal["key-rotate"]
    body: KeyRotateBody


class KeyReplaceEntry(_FeedEntry):
    type: Literal["key-replace"]
    body: KeyReplaceBody


class ResignEntry(_FeedEntry):
    type: Literal["resign"]
    body: ResignBody


class UndoBody(Wire):
    for_: Annotated[Hex64, Field(alias="for")]  # the action (request) or the request (accept)


class UndoRequestEntry(_FeedEntry):
    type: Literal["undo-request"]
    body: UndoBody


class UndoAcceptEntry(_FeedEntry):
    type: Literal["undo-accept"]
    body: UndoBody


class ClaimTimeoutEntry(_FeedEntry):
    type: Literal["claim-timeout"]
    body: ClaimTimeoutBody


# --- shared hidden decks (PROTOCOL.md §14) -------------------------------------------------------------
DeckName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_-]{0,31}$")]
Proof = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{128}$")]
MAX_DECK = 256


class DeckShuffleBody(Wire):
    deck: DeckName
    after: Hex64  # the deck's head: the last entry that changed it (a stale state is refused)
    stack: Annotated[list[Hex64], Field(min_length=1, max_length=MAX_DECK)]  # the deck after this step
    layer: Hex64  # the author's new layer point
    proof: Proof  # the new layer and the deck's sum moved by one factor


class DeckPointsBody(Wire):
    deck: DeckName
    after: Hex64
    points: Annotated[list[Hex64], Field(min_length=1, max_length=MAX_DECK)]
    proofs: Annotated[list[Proof], Field(min_length=1, max_length=MAX_DECK)]


class RevealedCard(Wire):
    hand: Count  # the position in the author's hand (in the order dealt)
    card: Annotated[int, Field(ge=0, lt=MAX_DECK)]
    proof: Proof


class DeckRevealBody(Wire):
    deck: DeckName
    after: Hex64
    cards: Annotated[list[RevealedCard], Field(min_length=1, max_length=MAX_DECK)]


class DeckShuffleEntry(_FeedEntry):
    type: Literal["deck-shuffle"]
    body: DeckShuffleBody


class DeckRekeyEntry(_FeedEntry):
    type: Literal["deck-rekey"]
    body: DeckPointsBody


class DeckStripEntry(_FeedEntry):
    type: Literal["deck-strip"]
    body: DeckPointsBody


class DeckRevealEntry(_FeedEntry):
    type: Literal["deck-reveal"]
    body: DeckRevealBody


FeedEntry = (
    JoinEntry
    | ActionEntry
    | RevealEntry
    | HiddenEntry
    | CheckpointEntry
    | DiscloseEntry
    | KeyRotateEntry
    | KeyReplaceEntry
    | ResignEntry
    | ClaimTimeoutEntry
    | UndoRequestEntry
    | UndoAcceptEntry
    | DeckShuffleEntry
    | DeckRekeyEntry
    | DeckStripEntry
    | DeckRevealEntry
)
Entry = GenesisEntry | FeedEntry
_MODELS: dict[str, type[Entry]] = {
    t.model_fields["type"].annotation.__args__[0]: t  # type: ignore[union-attr]
    for t in (GenesisEntry, JoinEntry, ActionEntry, RevealEntry, HiddenEntry, CheckpointEntry, DiscloseEntry,
              KeyRotateEntry, KeyReplaceEntry, ResignEntry, ClaimTimeoutEntry, UndoRequestEntry, UndoAcceptEntry,
              DeckShuffleEntry, DeckRekeyEntry, DeckStripEntry, DeckRevealEntry)
}  # fmt: skip
assert set(_MODELS) == {t.value for t in EntryType}


def validate(raw: Mapping[str, JSONValue]) -> Entry:
    """Apply the strict schema to a raw (already signature-checked) entry.

    Raises:
        LogFormatError: L015 unsupported version, L016 unknown type, L017 malformed hex, L014 otherwise.
        PbemError: C008 for a ``ts`` that is not a real UTC instant in the canonical form.
    """
    version, kind = raw.get("v"), raw.get("type")
    if version != VERSION or isinstance(version, bool):
        shown = str(version)[:20] if isinstance(version, int) else type(version).__name__
        raise LogFormatError("L015", f"protocol version {shown} is not supported (expected {VERSION})")
    model = _MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        shown = repr(kind[:40]) if isinstance(kind, str) else f"of JSON type {type(kind).__name__}"
        raise LogFormatError("L016", f"unknown entry type {shown}")
    try:
        entry: Entry = model.__pydantic_validator__.validate_python(raw)  # model_validate less its Python wrapper
    except ValidationError as exc:
        first = exc.errors()[0]
        if first["loc"] == ("ts",) and isinstance(raw.get("ts"), str):
            timestamps.parse(raw["ts"])  # C008: a malformed timestamp is the chain's finding, as CODES.md says
        where = ".".join(str(p) for p in first["loc"][1:]) or "entry"
        pattern = str((first.get("ctx") or {}).get("pattern", ""))
        code = "L017" if first["type"] == "string_pattern_mismatch" and "0-9a-f]{" in pattern else "L014"
        raise LogFormatError(code, f"{kind}.{where}: {first['msg']}") from exc
    timestamps.parse(entry.ts)  # C008 for 2026-13-45T…: the pattern alone accepts impossible dates
    return entry
