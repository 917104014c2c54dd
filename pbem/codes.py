"""The registry of stable error codes.

Every problem pbem reports carries one of these codes. A code is never renumbered or reused; a code that
is no longer raised stays here marked ``retired``. ``docs/CODES.md`` is generated from this table
(``python -m pbem.codes > docs/CODES.md``) and a test keeps the two in step.

Families:

* ``L`` line and parse: the bytes of one log line.
* ``K`` keys and signatures.
* ``C`` chain: game binding, per-author sequence, causal order, forks.
* ``D`` dice: the commit-reveal protocol.
* ``H`` hidden information: commitments, openings, private draws, disclosure.
* ``P`` checkpoints and truncation.
* ``R`` rules: the game module refused an action or could not be set up.
* ``F`` files and storage.
* ``U`` use: a command that cannot do what was asked (wrong key, nothing to do, bad argument).
* ``X`` exchange: packets of entries sent between players (export, import, mail).
* ``E`` shared hidden decks: shuffles, deals (strips) and revealed cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["CODES", "Code", "Family", "code"]


class Family(StrEnum):
    LINE = "L"
    KEY = "K"
    CHAIN = "C"
    DICE = "D"
    HIDDEN = "H"
    CHECKPOINT = "P"
    RULES = "R"
    FILE = "F"
    USE = "U"
    EXCHANGE = "X"
    DECK = "E"


@dataclass(frozen=True)
class Code:
    """One stable error code: ``id`` never changes meaning; ``slug`` names it in prose and JSON."""

    id: str
    slug: str
    summary: str
    retired: bool = False

    @property
    def family(self) -> Family:
        return Family(self.id[0])

    def __str__(self) -> str:
        return self.id


_TABLE: tuple[Code, ...] = (
    # L: one line of the log file
    Code("L001", "invalid-utf8", "The line is not valid UTF-8."),
    Code("L002", "bom", "The line starts with a byte order mark."),
    Code("L003", "not-json", "The line is not a JSON text."),
    Code("L004", "duplicate-key", "A JSON object has the same key twice."),
    Code("L005", "non-integer-number", "A number is a float, NaN or Infinity; only integers are allowed."),
    Code("L006", "integer-range", "An integer is outside ±(2^53−1) or longer than 16 digits."),
    Code("L007", "non-nfc", "A string is not in Unicode normalization form C."),
    Code("L008", "non-ascii-key", "An object key is not ASCII."),
    Code("L009", "too-deep", "The JSON nests deeper than the limit."),
    Code("L010", "line-too-long", "The line is longer than the limit."),
    Code("L011", "not-an-object", "The line is not a JSON object."),
    Code("L012", "bad-string", "A string holds a lone surrogate or is longer than the limit."),
    Code(
        "L013",
        "torn-tail",
        "The last line is incomplete (a torn write; a warning) or a whole entry followed by stray bytes (a lost "
        "entry; an error); it was not verified, or was set aside.",
    ),
    Code(
        "L014",
        "schema",
        "The entry does not match the schema of its type (missing, extra or mistyped field).",
    ),
    Code("L015", "version", "The entry's protocol version is not supported."),
    Code("L016", "unknown-type", "The entry type is unknown."),
    Code("L017", "bad-hex", "A hash, key or signature is not lowercase hex of the right length."),
    # K: keys and signatures
    Code("K001", "bad-signature", "The Ed25519 signature does not verify."),
    Code("K002", "weak-signature", "The signature's R point is small-order or non-canonical."),
    Code("K003", "weak-key", "The public key is small-order or non-canonically encoded."),
    Code("K004", "wrong-key", "The entry is signed with a key that is not the author's current key."),
    Code("K005", "unknown-author", "The author is not a seat of this game."),
    Code("K006", "rotation-proof", "A key rotation lacks a valid proof of possession by the new key."),
    Code("K007", "pre-rotation", "A rotated-to key does not match the digest committed in advance."),
    Code("K008", "replace-cosign", "A key replacement lacks a valid co-signature of every other seat."),
    Code("K009", "bad-key-file", "A key file cannot be read, decrypted or parsed."),
    # C: chain
    Code("C001", "genesis", "The first line is not a genesis entry, or a second genesis appears."),
    Code("C002", "other-game", "The entry belongs to another game."),
    Code("C003", "seq", "The author's sequence number is not the previous one plus one."),
    Code("C004", "prev", "The entry's prev is not the id of the author's previous entry."),
    Code("C005", "causal-order", "A dependency is unknown or does not come earlier in the file."),
    Code("C006", "fork", "Two different entries share an author and sequence number (equivocation)."),
    Code("C007", "join", "A seat's first entry is not its join, or a seat joins twice."),
    Code(
        "C008",
        "timestamp",
        "The timestamp is not a real UTC instant in the canonical form, is earlier than the author's previous one "
        "or an entry it depends on, or is too far ahead of them.",
    ),
    Code("C009", "not-started", "A play entry comes before every seat has joined."),
    Code("C010", "duplicate", "An identical entry appears twice; the copy is ignored."),
    Code("C011", "after-end", "A play entry comes after the game has ended."),
    Code(
        "C012",
        "bad-claim",
        "A timeout claim the log does not bear out: no deadline, the seat owes nothing, "
        "something came after the claimed entry, or the deadline had not passed.",
    ),
    Code(
        "C013",
        "bad-undo",
        "A take-back the log does not allow: not the author's last action, something came after it, it rolled "
        "dice, touched hidden values or ended a period, or no such request is open.",
    ),
    Code(
        "C014",
        "resigned",
        "A seat that resigned from a game that goes on acts or resigns again, or resigns while dice are open.",
    ),
    # D: dice
    Code("D001", "unexpected-reveal", "A dice reveal answers no open roll that awaits this seat."),
    Code("D002", "reveal-index", "A dice reveal skips or reuses a chain index."),
    Code("D003", "reveal-chain", "A revealed seed does not hash forward to the seat's previous chain element."),
    Code("D004", "reveal-deps", "A dice reveal does not depend on the action it answers."),
    Code("D005", "double-reveal", "A seat reveals twice for the same roll."),
    Code("D006", "echo", "Echoed dice faces do not match the derivation."),
    Code("D007", "declaration", "The declared rolls differ from the rolls the rules require at that point."),
    Code("D008", "chain-exhausted", "The seat's dice chain is exhausted."),
    Code(
        "D009",
        "draw-commitment",
        "A private draw declared by another seat than its owner: the owner's reveal lacks the draw commitment, "
        "another seat answers before it, or a reveal carries a commitment nobody asked for.",
    ),
    # H: hidden information
    Code("H001", "opening", "An opening does not match its commitment (value, salt, version or slot)."),
    Code("H002", "hidden-transition", "At audit, a committed hidden value differs from what the rules produce."),
    Code("H003", "private-draw", "A private draw's secret does not match its commitment."),
    Code("H004", "disclosure", "A disclosed game secret does not reproduce the seat's committed anchor."),
    Code("H005", "commitments", "An entry lacks a commitment the rules require, or carries one they do not."),
    Code(
        "H006",
        "unexpected-opening",
        "An opening answers no hidden slot that the rules ask this seat to open.",
    ),
    Code(
        "H007",
        "sealed-value",
        "At audit, a sealed hidden value does not decrypt or does not match its commitment.",
    ),
    # P: checkpoints
    Code("P001", "checkpoint-state", "A checkpoint's state hash differs from the replay."),
    Code("P002", "checkpoint-heads", "A checkpoint's heads or entry count differ from the file."),
    Code("P003", "checkpoint-missing", "A seat acted without first co-signing the owed checkpoint."),
    Code("P004", "unexpected-checkpoint", "A checkpoint names no boundary that is owed."),
    Code("P005", "truncated", "A copy lacks entries that a final co-signed checkpoint covers."),
    # R: rules
    Code("R001", "illegal-action", "The action is not legal at that point under the game's rules."),
    Code("R002", "not-your-turn", "The seat is not one the game is waiting for."),
    Code("R003", "past-wait-point", "The batch goes on after the point where the seat must wait for another."),
    Code("R004", "malformed-action", "The action is not an object with a known action name and fields."),
    Code("R005", "unknown-ruleset", "The game names a ruleset or version that is not installed."),
    Code("R006", "data-pack", "The game's data pack is not available or does not validate."),
    Code("R007", "setup", "The scenario, options or roster are not valid for the ruleset."),
    Code("R008", "contract", "The game module broke the engine contract (a bug in the module)."),
    Code(
        "R009",
        "module-bug",
        "The game module raised an unexpected error while replaying an entry (a bug in the module; report it).",
    ),
    # F: files and storage
    Code("F001", "unreadable", "The file cannot be read."),
    Code(
        "F002",
        "write-failed",
        "A write or fsync failed; nothing was acknowledged and the log is now read-only.",
    ),
    Code("F003", "read-only", "The log is marked read-only after an earlier write failure."),
    Code("F004", "exists", "The output file exists already; pbem never overwrites."),
    Code("F005", "stale-copy", "This copy of the log is behind what this machine has already signed."),
    Code("F006", "locked", "Another pbem process holds the log's lock."),
    Code("F007", "damaged", "A line other than the last is damaged; re-import the log from a peer."),
    # U: use
    Code("U001", "not-a-seat", "The key is not the key of any seat in this game."),
    Code("U002", "nothing-to-do", "There is nothing for this seat to do now."),
    Code("U003", "bad-argument", "A command argument is malformed."),
    Code("U004", "passphrase", "The key is encrypted and no passphrase was supplied, or it is wrong."),
    Code("U005", "invalid-log", "The log does not verify, so pbem will not sign on top of it."),
    Code("U006", "no-game", "The log holds no game to report on (no genesis could be read)."),
    Code("U007", "internal-error", "pbem failed with an internal error (a bug, not a bad log): please report it."),
    # X: exchange
    Code("X001", "no-packet", "The file holds no pbem packet (neither a packet file, an armoured block nor an email)."),
    Code("X002", "bad-armour", "An armoured packet is damaged: its text does not decode or fails its checksum."),
    Code("X003", "other-game", "The packet belongs to another game."),
    Code("X004", "stale", "The packet holds nothing new: every entry in it is already in the log."),
    Code("X005", "gap", "The packet builds on entries this copy of the log lacks; ask for a complete export."),
    Code("X006", "bad-packet", "A packet file is malformed (header or entry lines)."),
    Code(
        "X007", "mail-failed", "Sending mail failed: the SMTP server, STARTTLS, the login or the message was refused."
    ),
    # E: shared hidden decks
    Code(
        "E001",
        "deck-turn",
        "A deck entry the game does not wait for from this seat: a shuffle, strip or reveal out of turn, for "
        "another deck, or by the wrong seat.",
    ),
    Code(
        "E002",
        "deck-stale",
        "A deck entry built on another state of the deck than the current one (stale or replayed).",
    ),
    Code(
        "E003",
        "shuffle-proof",
        "A shuffle step that is not the deck's cards masked by its new layer's factor: wrong length, a repeated "
        "or invalid point, or a failing proof.",
    ),
    Code("E004", "strip-proof", "A strip or re-key whose points or proofs do not match the seat's layer."),
    Code(
        "E005",
        "not-in-hand",
        "A reveal names a hand position the seat does not hold (a card never dealt to it, or another seat's).",
    ),
    Code("E006", "card-proof", "A revealed card lacks a valid proof that it is the card dealt to that position."),
    Code(
        "E007",
        "shuffle-audit",
        "At audit, a shuffle step differs from the one derived from the seat's disclosed secret (it duplicates, "
        "drops, substitutes or reorders cards).",
    ),
    Code("E008", "card-twice", "A revealed card is already face up, is named twice, or is no card of the deck."),
)

CODES: dict[str, Code] = {c.id: c for c in _TABLE}
assert len(CODES) == len(_TABLE), "duplicate code id"


def code(code_id: str) -> Code:
    """Return the registered code ``code_id``; unknown ids are a programming error."""
    return CODES[code_id]


def markdown_table() -> str:
    """The code table for ``docs/CODES.md``."""
    lines = [
        "# Error codes",
        "",
        "Generated from `pbem/codes.py` by `python -m pbem.codes`; do not edit by hand.",
        "",
        "| Code | Slug | Meaning |",
        "|---|---|---|",
    ]
    for c in _TABLE:
        status = " (retired)" if c.retired else ""
        lines.append(f"| {c.id} | `{c.slug}` | {c.summary}{status} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown_table(), end="")
