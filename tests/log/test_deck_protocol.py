"""Shared hidden decks in the log (PROTOCOL.md §14): every attack on a shuffle, a deal or a revealed card is
refused with its code, naming the seat and the entry; a stall is answered by a timeout claim."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pbem.client.session import own_knowledge
from pbem.log import deck as crypto
from pbem.log.entry import seal
from pbem.log.store import LogStore
from pbem.replay import decks
from pbem.replay.game import Game
from pbem.verify.pipeline import verify_lines
from tests.helpers import Table, codes, test_key

OPTIONS = {"cards": 8, "hand": 2, "deals": 2, "keep": 0, "dealer": False}


def start(tmp_path: Path, deadline: int | None = None) -> Table:
    return Table.start(tmp_path, "duel", game="highcard", options=OPTIONS, deadline=deadline)


def seen_by(table: Table, seat: str, lines: list[bytes] | None = None) -> Game:
    """The game as ``seat``'s own client replays it (its secret known)."""
    game = verify_lines(table.lines() if lines is None else lines, knowledge=own_knowledge(table.keys[seat]))[1].game
    assert game is not None
    return game


def honest(table: Table, seat: str) -> tuple[str, dict[str, Any]]:
    work = decks.owed(seen_by(table, seat), seat)
    assert work is not None
    return work


def append(table: Table, *lines: bytes) -> list[bytes]:
    with LogStore.open(table.path) as store:
        for line in lines:
            store.append(line)
    return table.lines()


def step(table: Table, seat: str) -> None:
    """``seat`` signs the one deck entry it owes next (and nothing after it)."""
    append(table, table.forge(seat, *honest(table, seat)))


def one(table: Table, seat: str) -> None:
    """``seat`` signs the one protocol entry it owes next (a checkpoint, a deck step…), and nothing after it."""
    with table.session(seat) as session:
        owed = session._next_owed(session.game)
        assert owed is not None
        session._write(*owed)


def first_error(lines: list[bytes], **kwargs: Any) -> Any:
    report = verify_lines(lines, **kwargs)[0]
    return next(f for f in report.findings if f.severity == "error")


def dealt(tmp_path: Path) -> Table:
    """Both players have shuffled and been dealt; North leads."""
    table = start(tmp_path)
    table.settle()
    return table


# --- shuffles -----------------------------------------------------------------------------------------
def test_the_first_shuffle_is_owed_by_north_then_south(tmp_path: Path) -> None:
    table = start(tmp_path)
    game = table.replay().game
    assert game is not None and [w.describe() for w in game.awaiting()] == ["waiting for north to shuffle deck main"]
    table.settle()
    types = [json.loads(line)["type"] for line in table.lines()]
    assert types.count("deck-shuffle") == 2 and types.count("deck-strip") == 2
    assert table.legal("north") == [{"action": "play", "card": 0}, {"action": "play", "card": 1}]


@pytest.mark.parametrize("cheat", ["duplicate", "drop", "substitute"])
def test_a_shuffle_that_duplicates_drops_or_substitutes_a_card_is_refused_at_once(tmp_path: Path, cheat: str) -> None:
    table = start(tmp_path)
    kind, body = honest(table, "north")
    game = seen_by(table, "north")
    deck = game.decks["main"]
    step = crypto.derive_step(game.secret("north", 0), "main", 0, 8)
    out = [bytes.fromhex(p) for p in body["stack"]]
    if cheat == "duplicate":
        out[1] = out[0]
    elif cheat == "drop":
        out = out[:-1]
    else:  # a card of another deck, masked like the rest, with a proof over the changed deck
        out[2] = crypto.mul(step.scalar, crypto.card_point(game.id, "other", 0))
    layer, proof, _ = crypto.prove_step(step, deck.total(), out, crypto.BASE, deck.context("north", "shuffle", 0))
    body = {**body, "stack": [p.hex() for p in out], "proof": proof.hex(), "layer": layer.hex()}
    lines = append(table, table.forge("north", kind, body))
    finding = first_error(lines)
    assert (finding.code, finding.author, finding.line) == ("E003", "north", len(lines))


def test_a_sum_preserving_substitution_passes_at_once_and_is_caught_at_the_audit(tmp_path: Path) -> None:
    table = start(tmp_path)
    kind, body = honest(table, "north")
    game = seen_by(table, "north")
    deck = game.decks["main"]
    step = crypto.derive_step(game.secret("north", 0), "main", 0, 8)
    out = [bytes.fromhex(p) for p in body["stack"]]
    shift = crypto.card_point(game.id, "other", 0)
    out[0] = crypto.sodium.crypto_core_ed25519_add(out[0], shift)
    out[1] = crypto.sodium.crypto_core_ed25519_sub(out[1], shift)
    _, proof, _ = crypto.prove_step(step, deck.total(), out, crypto.BASE, deck.context("north", "shuffle", 0))
    cheat = table.forge("north", kind, {**body, "stack": [p.hex() for p in out], "proof": proof.hex()})
    lines = append(table, cheat)
    assert verify_lines(lines)[0].valid  # the public verifier cannot see it yet
    secret = game.secret("north", 0)  # North discloses its secret (the end-of-game audit)
    disclose = table.forge("north", "disclose", {"secrets": [{"epoch": 0, "secret": secret.hex()}]})
    lines = [*lines, disclose]
    finding = first_error(lines)
    assert (finding.code, finding.author, finding.line) == ("E007", "north", len(lines) - 1)
    assert "north's shuffle of main" in finding.message and "substitutes" in finding.message
    assert finding.entry is not None and finding.entry[:16] in finding.message


def test_a_stale_deck_state_is_refused(tmp_path: Path) -> None:
    table = start(tmp_path)
    table.owed("north")  # north shuffles
    kind, body = honest(table, "south")
    game = seen_by(table, "south")
    before = game.entries  # the deck's head before north's shuffle was south's join
    stale = next(i for i, (_, author, seq) in before.items() if (author, seq) == ("south", 0))
    assert body["after"] != stale
    lines = append(table, table.forge("south", kind, {**body, "after": stale}))
    assert first_error(lines).code == "E002"


def test_a_deal_entry_from_the_wrong_seat_is_refused(tmp_path: Path) -> None:
    table = start(tmp_path)
    step(table, "north")
    step(table, "south")  # both shuffled; the deal to north needs south's strip, not north's
    game = table.replay().game
    assert game is not None and game.awaiting()[0].seat == "south"
    kind, body = honest(table, "south")
    assert kind == "deck-strip"
    lines = append(table, table.forge("north", kind, body))
    assert first_error(lines).code == "E001"


def test_a_strip_with_a_wrong_proof_or_point_is_refused(tmp_path: Path) -> None:
    table = start(tmp_path)
    step(table, "north")
    step(table, "south")
    kind, body = honest(table, "south")
    proofs = [body["proofs"][1], body["proofs"][0]]
    lines = append(table, table.forge("south", kind, {**body, "proofs": proofs}))
    assert first_error(lines).code == "E004"


def test_a_strip_replayed_into_a_later_deal_is_refused(tmp_path: Path) -> None:
    table = start(tmp_path)
    step(table, "north")
    step(table, "south")
    kind, old = honest(table, "south")  # south's strip of north's first hand
    table.settle()
    for _ in range(20):  # play the first deal out until the second deal waits for south's strip again
        game = seen_by(table, "south")
        deck = game.decks["main"]
        if deck.number == 1 and deck.duties and deck.duties[0] == decks.Duty("strip", "south"):
            break
        seat = next(iter(game.ruleset.to_act(game.state)), None)  # type: ignore[arg-type]
        if seat is not None:
            table.act(seat, {"action": "play", "card": 0})
        else:
            one(table, game.awaiting()[0].seat)
    else:
        raise AssertionError("the second deal never came")
    stale = table.forge("south", kind, old)
    assert first_error([*table.lines(), stale]).code == "E002"  # the old state
    replayed = table.forge("south", kind, {**old, "after": deck.head})
    assert first_error([*table.lines(), replayed]).code == "E004"  # proofs bound to their deck state


# --- revealed cards -----------------------------------------------------------------------------------
def play_forged(table: Table, seat: str, card: dict[str, Any]) -> list[bytes]:
    """``seat`` signs the action to play its first card, then a forged reveal of ``card``."""
    with table.session(seat) as session:
        session.act([{"action": "play", "card": 0}])  # writes the action and the honest reveal
    lines = table.lines()
    honest_reveal = json.loads(lines[-1])
    assert honest_reveal["type"] == "deck-reveal"
    body = {**honest_reveal["body"], "cards": [{**honest_reveal["body"]["cards"][0], **card}]}
    unsend(table)
    return append(table, table.forge(seat, "deck-reveal", body))


def unsend(table: Table) -> None:
    """Drop the last line before anyone has seen it (the forger then signs another in its place)."""
    table.path.write_bytes(b"".join(line + b"\n" for line in table.lines()[:-1]))


def test_a_revealed_card_with_a_valid_proof_is_accepted(tmp_path: Path) -> None:
    table = dealt(tmp_path)
    mine = seen_by(table, "north").decks["main"].hands["north"][0].card
    table.act("north", {"action": "play", "card": 0})
    game = table.replay().game
    assert game is not None and game.state is not None and game.state.decks["main"].faceup == (mine,)


def test_playing_a_card_never_dealt_to_you_is_refused(tmp_path: Path) -> None:
    table = dealt(tmp_path)
    lines = play_forged(table, "north", {"hand": 5})
    assert first_error(lines).code == "E005"


def test_playing_the_opponents_card_is_refused(tmp_path: Path) -> None:
    table = dealt(tmp_path)
    theirs = seen_by(table, "south").decks["main"].hands["south"][0].card
    lines = play_forged(table, "north", {"card": theirs})
    finding = first_error(lines)
    assert (finding.code, finding.author) == ("E006", "north")


def test_playing_a_card_still_in_the_deck_is_refused(tmp_path: Path) -> None:
    table = dealt(tmp_path)
    held = {c.card for s in ("north", "south") for c in seen_by(table, s).decks["main"].hands[s]}
    in_deck = next(c for c in range(8) if c not in held)
    assert first_error(play_forged(table, "north", {"card": in_deck})).code == "E006"


def test_a_wrong_or_missing_proof_is_refused(tmp_path: Path) -> None:
    table = dealt(tmp_path)
    lines = play_forged(table, "north", {"proof": "00" * 64})
    assert first_error(lines).code == "E006"


def test_a_missing_proof_is_a_schema_error(tmp_path: Path) -> None:
    table = dealt(tmp_path)
    with table.session("north") as session:
        session.act([{"action": "play", "card": 0}])
    line = json.loads(table.lines()[-1])
    del line["body"]["cards"][0]["proof"]
    unsend(table)
    lines = append(table, table.forge("north", "deck-reveal", line["body"]))
    assert first_error(lines).code == "L014"


# --- stalls -------------------------------------------------------------------------------------------
def test_a_seat_that_does_not_strip_is_answered_by_a_timeout_claim(tmp_path: Path) -> None:
    table = start(tmp_path, deadline=24)
    step(table, "north")
    step(table, "south")  # south shuffled; it now owes the strip of north's cards
    table.clock.tick += 25 * 3600
    with table.session("north") as session:
        claim = session.claim_timeout("south")
    assert claim is not None
    report = table.verify()
    assert report.valid and "south" in str(report.model_dump())
    game = table.replay().game
    assert game is not None and game.claims[-1].owed == "waiting for south to deal from deck main"


def test_a_timeout_claim_against_a_seat_that_owes_no_deck_work_is_refused(tmp_path: Path) -> None:
    table = start(tmp_path, deadline=24)
    table.clock.tick += 25 * 3600  # north owes the first shuffle, south nothing
    game = table.replay().game
    assert game is not None
    lines = append(table, table.forge("north", "claim-timeout", {"against": "south", "since": game.last[0]}))
    assert codes(verify_lines(lines)[0]) == ["C012"]


def test_a_rekey_with_a_wrong_proof_is_refused(tmp_path: Path) -> None:
    table = start(tmp_path)
    table.settle()
    for _ in range(10):  # play the first deal out: the last card's owner re-keys at once, the other owes it
        game = seen_by(table, "north")
        deck = game.decks["main"]
        if deck.duties and deck.duties[0].kind == "rekey" and deck.duties[0].seat == "north":
            break
        seat = next(iter(game.ruleset.to_act(game.state)), None)  # type: ignore[arg-type]
        if seat is not None:
            table.act(seat, {"action": "play", "card": 0})
        else:
            one(table, game.awaiting()[0].seat)
    else:
        raise AssertionError("no re-key came")
    while seen_by(table, "north").seats["north"].owed_checkpoints:  # the end of deal 1 is co-signed first
        one(table, "north")
    kind, body = honest(table, "north")
    assert kind == "deck-rekey" and len(body["points"]) == 4
    tampered = {**body, "points": [body["points"][1], body["points"][0], *body["points"][2:]]}
    assert first_error([*table.lines(), table.forge("north", kind, tampered)]).code == "E004"
    assert (
        first_error([*table.lines(), table.forge("north", kind, {**body, "points": body["points"][:3]})]).code == "E004"
    )


def test_a_reveal_of_other_positions_or_a_face_up_card_is_refused(tmp_path: Path) -> None:
    table = dealt(tmp_path)
    table.act("north", {"action": "play", "card": 0})
    shown = seen_by(table, "north").decks["main"].faceup[0]
    lines = play_forged(table, "south", {"hand": 1})  # the game asked for position 0
    assert first_error(lines).code == "E001"
    table.path.write_bytes(b"".join(line + b"\n" for line in lines[:-1]))
    lines = append(table, table.forge("south", "deck-reveal", {**json.loads(lines[-1])["body"], "cards": [
        {**json.loads(lines[-1])["body"]["cards"][0], "hand": 0, "card": shown}]}))  # fmt: skip
    assert first_error(lines).code == "E008"


def test_a_shuffle_in_an_order_of_the_seats_choosing_is_caught_at_the_audit(tmp_path: Path) -> None:
    table = start(tmp_path)
    kind, body = honest(table, "north")
    game = seen_by(table, "north")
    deck = game.decks["main"]
    step = crypto.derive_step(game.secret("north", 0), "main", 0, 8)
    chosen = crypto.Step(step.scalar, tuple(range(8)))  # honest masks, but the order North likes
    out = crypto.apply_step(chosen, deck.stack)
    layer, proof, _ = crypto.prove_step(chosen, deck.total(), out, crypto.BASE, deck.context("north", "shuffle", 0))
    lines = append(table, table.forge("north", kind, {**body, "stack": [p.hex() for p in out], "proof": proof.hex()}))
    assert verify_lines(lines)[0].valid and layer.hex() == body["layer"]  # nothing shows before the audit
    secret = game.secret("north", 0)
    lines = [*lines, table.forge("north", "disclose", {"secrets": [{"epoch": 0, "secret": secret.hex()}]})]
    finding = first_error(lines)
    assert (finding.code, finding.author, finding.line) == ("E007", "north", len(lines) - 1)
    assert "orders the cards otherwise" in finding.message


def test_a_resignation_ends_the_deck_operation_with_the_game(tmp_path: Path) -> None:
    table = start(tmp_path)
    step(table, "north")  # south owes its shuffle
    kind, body = honest(table, "south")
    with table.session("north") as session:
        session.resign()
    game = table.replay().game
    assert game is not None and game.result is not None
    assert not [w for w in game.awaiting() if w.what == "deck"]  # nothing owed to a finished game
    while seen_by(table, "south").seats["south"].owed_checkpoints:  # the end is co-signed first
        one(table, "south")
    assert first_error([*table.lines(), table.forge("south", kind, body)]).code == "C011"


def _tampered(line: bytes, path: tuple[str | int, ...]) -> bytes:
    """``line`` with one hex digit changed at ``path`` inside its body, signed again by its author's key."""
    entry = json.loads(line)
    del entry["sig"]
    holder: Any = entry["body"]
    for key in path[:-1]:
        holder = holder[key]
    value = holder[path[-1]]
    holder[path[-1]] = ("1" if value[10] == "0" else "0").join((value[:10], value[11:]))
    return seal(entry, test_key(entry["author"]).private.sign).line


def _hex_fields(body: dict[str, Any]) -> list[tuple[str | int, ...]]:
    paths: list[tuple[str | int, ...]] = [("stack", 0), ("stack", -1), ("layer",), ("proof",), ("after",)]
    paths += [("points", 0), ("proofs", 0), ("cards", 0, "proof")]
    found = []
    for path in paths:
        holder: Any = body
        try:
            for key in path:
                holder = holder[key]
        except (KeyError, IndexError):
            continue
        found.append(path)
    return found


def test_every_signed_field_of_every_deck_entry_is_checked() -> None:
    lines = (Path(__file__).resolve().parents[1] / "vectors" / "deck-v1" / "game.jsonl").read_bytes().splitlines()
    checked = 0
    for number, line in enumerate(lines):
        entry = json.loads(line)
        if not entry["type"].startswith("deck-"):
            continue
        for path in _hex_fields(entry["body"]):
            finding = first_error([*lines[:number], _tampered(line, path)])
            assert finding.line == number + 1 and finding.code[0] in "EL", (entry["type"], path, finding.code)
            checked += 1
    assert checked > 40


def test_a_receiver_dealt_a_point_that_is_no_card_refuses_the_log_at_once(tmp_path: Path) -> None:
    table = start(tmp_path)
    kind, body = honest(table, "north")
    game = seen_by(table, "north")
    deck = game.decks["main"]
    derived = crypto.derive_step(game.secret("north", 0), "main", 0, 8)
    shift = crypto.card_point(game.id, "other", 0)
    out = [bytes.fromhex(p) for p in body["stack"]]  # every point moved, the sum kept: no card is left
    out = [(crypto.sodium.crypto_core_ed25519_add if i % 2 else crypto.sodium.crypto_core_ed25519_sub)(p, shift)
           for i, p in enumerate(out)]  # fmt: skip
    _, proof, _ = crypto.prove_step(derived, deck.total(), out, crypto.BASE, deck.context("north", "shuffle", 0))
    append(table, table.forge("north", kind, {**body, "stack": [p.hex() for p in out], "proof": proof.hex()}))
    step(table, "south")  # south shuffles honestly
    step(table, "south")  # and strips its layer from north's two cards
    public = table.replay().game  # north strips its layer from south's two cards (built by hand: north's own
    assert public is not None  # client refuses its own false shuffle)
    deck = public.decks["main"]
    key = derived.scalar
    points = [crypto.mul(crypto.invert(key), p) for p in deck.dealing]
    proofs = [crypto.prove_layer(key, new, old, deck.context("north", "strip", i)).hex()
              for i, (old, new) in enumerate(zip(deck.dealing, points, strict=True))]  # fmt: skip
    strip = {"deck": "main", "after": deck.head, "points": [p.hex() for p in points], "proofs": proofs}
    lines = append(table, table.forge("north", "deck-strip", strip))
    assert verify_lines(lines)[0].valid  # nobody else can tell yet
    finding = first_error(lines, knowledge=own_knowledge(table.keys["south"]))
    assert (finding.code, finding.line) == ("E007", len(lines)) and "dealt to south" in finding.message
