"""The attack and fault cases of research-crypto §9, each expecting its specific error code.

Cases are named by their §9 number in a ``case`` marker. Parser-level cases (C1-C4), the Ed25519 vector
cases (S1, S3, S4 at the signature level) and the dice distribution (D7) are in ``tests/log``; the storage
faults (F1-F4) in ``tests/log/test_store.py``; the byte-mutation sweep (T1) in ``test_mutation.py``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from pbem.client.session import own_knowledge
from pbem.log import derive, hidden
from pbem.log.dice import SeedChain
from pbem.log.entry import envelope, seal
from pbem.log.sign import SMALL_ORDER_POINTS
from pbem.verify.merge import merge_lines
from pbem.verify.pipeline import verify_lines
from tests.helpers import Table, codes, test_key


def raw(line: bytes) -> dict[str, Any]:
    return json.loads(line)


def resign(line: bytes, key_seat: str, table: Table, **changes: Any) -> bytes:
    """``line`` with ``changes`` applied to its envelope and signed again by ``key_seat``'s key."""
    data = raw(line)
    data.pop("sig")
    data.update(changes)
    return seal(data, table.keys[key_seat].private.sign).line


def first_error(lines: list[bytes], **kwargs: Any) -> str:
    report, _ = verify_lines(lines, **kwargs)
    errors = codes(report)
    assert errors, "expected the log to be rejected"
    return errors[0]


def index_of(lines: list[bytes], **match: Any) -> int:
    """Index of the first line whose envelope (or body, for keys starting with body_) matches."""
    for i, line in enumerate(lines):
        data = raw(line)
        if all((data["body"].get(k[5:]) if k.startswith("body_") else data.get(k)) == v for k, v in match.items()):
            return i
    raise LookupError(match)


def attacked(tmp_path: Path) -> Table:
    """A duel in round 1 where blue has just defended: red owes the dice reveal."""
    table = Table.start(tmp_path, "duel", rounds=2)
    table.act("red", {"action": "choose_reserve", "value": 2})
    table.act("blue", {"action": "choose_reserve", "value": 3})
    table.settle()
    table.act("red", {"action": "attack", "target": "blue"})
    table.act("blue", {"action": "defend", "stance": "block"})
    return table


def red_chain(table: Table) -> SeedChain:
    with table.session("red") as session:
        return session.chain()


def append(table: Table, line: bytes) -> list[bytes]:
    return [*table.lines(), line]


# --- fixtures are sound -------------------------------------------------------------------------


def test_fixture_games_verify_and_cover_every_protocol_path(duel: Table, trio: Table) -> None:
    for table in (duel, trio):
        report, verifier = verify_lines(table.lines())
        assert report.valid and report.audit == "complete", [f.render() for f in report.findings]
        assert verifier.game is not None
    kinds = {e.event.kind for t in (duel, trio) for e in t.replay().game.events}  # type: ignore[union-attr]
    assert {"private_draw_made", "card_played", "fortified", "reserve_lost", "critical_hit", "hidden_opened"} <= kinds


# --- T: integrity and tampering -------------------------------------------------------------------


@pytest.mark.case("T1")
@pytest.mark.parametrize("field", ["sig", "prev", "deps", "body", "kid", "ts", "seq"])
def test_t1_changed_signed_field_is_rejected(duel: Table, field: str) -> None:
    lines = duel.lines()
    i = index_of(lines, type="action")
    data = raw(lines[i])
    if field == "sig":
        data["sig"] = ("1" if data["sig"][0] != "1" else "2") + data["sig"][1:]
    elif field == "prev":
        data["prev"] = "0" * 64
    elif field == "deps":
        data["deps"] = []
    elif field == "body":
        data["body"]["actions"][0]["value"] = 1 if data["body"]["actions"][0].get("value") != 1 else 2
    elif field == "kid":
        data["kid"] = "f" * 64
    elif field == "ts":
        data["ts"] = "2030-01-01T00:00:00Z"
    else:
        data["seq"] += 1
    lines[i] = json.dumps(data).encode()
    assert first_error(lines) in ({"kid": "K004"}.get(field, "K001"),)


@pytest.mark.case("T1")
def test_t1_whitespace_and_key_order_changes_are_accepted(duel: Table) -> None:
    mangled = [
        json.dumps(raw(line), indent=1, sort_keys=False).replace("\n", " ").encode() + b"  \r" for line in duel.lines()
    ]
    mangled = [json.dumps(dict(reversed(list(raw(line).items())))).encode() + b" \r" for line in mangled]
    report, _ = verify_lines(mangled)
    assert report.valid and report.audit == "complete"


@pytest.mark.case("T2")
def test_t2_entry_resigned_by_another_seat_is_rejected(duel: Table) -> None:
    lines = duel.lines()
    i = index_of(lines, type="action", author="red")
    lines[i] = resign(lines[i], "blue", duel)  # kid still names red's key
    assert first_error(lines) == "K001"
    lines[i] = resign(lines[i], "blue", duel, kid=duel.keys["blue"].public.id)
    assert first_error(lines) == "K004"


@pytest.mark.case("T2")
def test_t2_entry_signed_by_a_key_outside_the_roster_is_rejected(duel: Table) -> None:
    lines = duel.lines()
    i = index_of(lines, type="action", author="red")
    stranger = test_key("mallory")
    data = raw(lines[i])
    data.pop("sig")
    data["kid"] = stranger.public.id
    lines[i] = seal(data, stranger.private.sign).line
    assert first_error(lines) == "K004"
    data["author"] = "mallory"
    lines[i] = seal(data, stranger.private.sign).line
    assert first_error(lines) == "K005"


@pytest.mark.case("T3")
def test_t3_entry_deleted_mid_feed_is_a_seq_gap(duel: Table) -> None:
    lines = duel.lines()
    # red's checkpoint and red's next entry are consecutive lines in the fixture: remove the checkpoint
    i = next(
        i for i in range(1, len(lines) - 1)
        if raw(lines[i])["type"] == "checkpoint" and raw(lines[i + 1])["author"] == raw(lines[i])["author"]
    )  # fmt: skip
    del lines[i]
    assert first_error(lines) == "C003"


@pytest.mark.case("T4")
def test_t4_entry_moved_before_its_dependency_is_rejected(duel: Table) -> None:
    lines = duel.lines()
    i = index_of(lines, type="reveal")
    action = next(j for j in range(i) if raw(lines[j])["type"] == "action" and raw(lines[j])["body"]["rolls"])
    reveal = lines.pop(i)
    lines.insert(action, reveal)  # the reveal now precedes the action it answers
    assert first_error(lines) == "C005"


@pytest.mark.case("T4")
def test_t4_two_lines_swapped_are_rejected(duel: Table) -> None:
    lines = duel.lines()
    i = index_of(lines, type="join", author="blue")
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    assert first_error(lines) in ("C005", "C003")


@pytest.mark.case("T5")
def test_t5_identical_duplicate_is_harmless(duel: Table) -> None:
    lines = duel.lines()
    lines.insert(5, lines[3])
    report, _ = verify_lines(lines)
    assert report.valid
    assert [f.code for f in report.findings] == ["C010"]


@pytest.mark.case("T5")
def test_t5_second_entry_with_same_author_and_seq_is_a_fork(tmp_path: Path) -> None:
    table = attacked(tmp_path)
    lines = table.lines()
    i = index_of(lines, type="action", author="blue", seq=3)
    twin = resign(lines[i], "blue", table, ts="2026-01-01T23:59:59Z")
    report, _ = verify_lines([*lines, twin])
    assert codes(report) == ["C006"]
    fork = report.findings[0]
    assert raw(lines[i])["sig"] and fork.entry == envelope(twin).id and envelope(lines[i]).id in fork.message


@pytest.mark.case("T6")
def test_t6_entry_from_another_game_is_rejected(tmp_path: Path) -> None:
    one = Table.start(tmp_path, "duel", rounds=2, name="one.jsonl")
    two = Table.start(tmp_path, "duel", rounds=3, name="two.jsonl")
    two.act("red", {"action": "choose_reserve", "value": 1})
    foreign = two.lines()[-1]
    assert first_error([*one.lines(), foreign]) == "C002"


@pytest.mark.case("T6")
def test_t6_a_replayed_genesis_gives_the_joiner_a_fresh_secret(duel: Table, tmp_path: Path) -> None:
    """The creator of a finished game sends its genesis (and its own join) again as a "new" game: the game id
    is the same, but blue's new join carries a fresh nonce, so the secret blue disclosed at the end of the
    first game says nothing about blue's new dice chain or hidden salts."""
    lines = duel.lines()
    first_join = raw(lines[index_of(lines, type="join", author="blue")])
    disclosed = raw(lines[index_of(lines, type="disclose", author="blue")])["body"]["secrets"][0]["secret"]
    replay = Table(tmp_path / "again.jsonl", duel.keys)
    replay.entropy.label = "a later session"
    replay.path.write_bytes(b"".join(line + b"\n" for line in lines[:2]))  # genesis and red's join, unchanged
    with replay.session("blue") as session:
        session.join()
        assert session.game.id == envelope(lines[0]).id
        secret = session.secret
    second_join = raw(replay.lines()[-1])
    assert second_join["body"]["nonce"] != first_join["body"]["nonce"]
    assert second_join["body"]["anchor"] != first_join["body"]["anchor"]
    assert secret.hex() != disclosed
    game_id = envelope(lines[0]).id
    old_chain = SeedChain(derive.chain_top(bytes.fromhex(disclosed)), game_id, "blue", 0)
    assert old_chain.anchor.hex() == first_join["body"]["anchor"] != second_join["body"]["anchor"]


@pytest.mark.case("T7")
@pytest.mark.parametrize(
    ("change", "code"),
    [({"v": 2}, "L015"), ({"type": "teleport"}, "L016"), ({"extra": 1}, "L014"), ({"ts": None}, "L014")],
)
def test_t7_version_type_and_schema_changes_are_rejected(duel: Table, change: dict[str, Any], code: str) -> None:
    lines = duel.lines()
    i = index_of(lines, type="action", author="red")
    data = raw(lines[i])
    data.pop("sig")
    data.update(change)
    data = {k: v for k, v in data.items() if v is not None}
    lines[i] = seal(data, duel.keys["red"].private.sign).line
    assert first_error(lines) == code


@pytest.mark.case("T8")
def test_t8_dependency_on_unknown_entry_is_rejected(tmp_path: Path) -> None:
    table = attacked(tmp_path)
    line = table.forge("red", "reveal", {"for": "ab" * 32, "index": 1, "seed": red_chain(table)[1].hex()})
    data = raw(line)
    data.pop("sig")
    data["deps"] = sorted([*data["deps"], "ab" * 32])
    assert first_error(append(table, seal(data, table.keys["red"].private.sign).line)) == "C005"


@pytest.mark.case("T8")
def test_t8_reveal_without_its_action_in_deps_is_rejected(tmp_path: Path) -> None:
    table = attacked(tmp_path)
    action = envelope(table.lines()[-1]).id
    line = table.forge("red", "reveal", {"for": action, "index": 1, "seed": red_chain(table)[1].hex()}, deps=[])
    assert first_error(append(table, line)) == "D004"


@pytest.mark.case("T9")
def test_t9_checkpoint_with_wrong_state_hash_is_rejected(duel: Table) -> None:
    lines = duel.lines()
    i = index_of(lines, type="checkpoint", author="red")
    data = raw(lines[i])
    lines[i] = resign(lines[i], "red", duel, body={**data["body"], "state": "0" * 64})
    assert first_error(lines) == "P001"


@pytest.mark.case("T9")
def test_t9_checkpoint_with_wrong_heads_is_rejected(duel: Table) -> None:
    lines = duel.lines()
    i = index_of(lines, type="checkpoint", author="red")
    data = raw(lines[i])
    lines[i] = resign(lines[i], "red", duel, body={**data["body"], "entries": data["body"]["entries"] + 1})
    assert first_error(lines) == "P002"


@pytest.mark.case("T9")
def test_t9_checkpoint_nobody_owes_is_rejected(tmp_path: Path) -> None:
    table = attacked(tmp_path)
    body = {"label": "round-7", "state": "0" * 64, "heads": {}, "entries": 1}
    assert first_error(append(table, table.forge("red", "checkpoint", body))) == "P004"


@pytest.mark.case("T9")
def test_t9_acting_before_cosigning_an_owed_checkpoint_is_rejected(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel", rounds=2)
    table.act("red", {"action": "choose_reserve", "value": 2})
    table.act("blue", {"action": "choose_reserve", "value": 3})  # crosses "setup"; blue co-signs at once
    with table.session("red") as session:
        body, _ = session._batch_body(session.game.clone(), [{"action": "pass"}])
    line = table.forge("red", "action", body)  # red skips its owed checkpoint
    assert first_error(append(table, line)) == "P003"


@pytest.mark.case("T10")
def test_t10_merge_names_a_copy_truncated_after_a_final_checkpoint(duel: Table) -> None:
    lines = duel.lines()
    last_round = max(i for i, line in enumerate(lines) if raw(line)["type"] == "checkpoint") - 1
    truncated = lines[: last_round - 3]
    result = merge_lines(truncated, lines)
    assert not result.forks
    assert [t.copy for t in result.truncations] and {t.copy for t in result.truncations} == {"A"}
    assert result.lines == lines


@pytest.mark.case("T10")
@pytest.mark.case("D8")
def test_t10_d8_merge_of_copies_with_equivocated_roll_gives_a_fork_proof(tmp_path: Path) -> None:
    table = attacked(tmp_path)
    lines = table.lines()
    alpha = lines[-1]  # blue's defend, which declares the rolls
    alpha_prime = resign(alpha, "blue", table, ts="2026-01-01T23:59:59Z")
    result = merge_lines(lines, [*lines[:-1], alpha_prime])
    assert len(result.forks) == 1
    fork = result.forks[0]
    assert (fork.author, fork.seq) == ("blue", raw(alpha)["seq"])
    assert {fork.first, fork.second} == {envelope(alpha).id, envelope(alpha_prime).id}
    report, _ = verify_lines(result.lines)
    assert "C006" in codes(report)


# --- S: signatures and keys -------------------------------------------------------------------


@pytest.mark.case("S2")
def test_s2_small_order_key_in_roster_is_refused(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel", rounds=2, join=False)
    genesis = raw(table.lines()[0])
    genesis.pop("sig")
    genesis["body"]["roster"][1]["key"] = sorted(SMALL_ORDER_POINTS)[0].hex()
    line = seal(genesis, table.keys["red"].private.sign).line
    assert first_error([line]) == "K003"


@pytest.mark.case("S2")
def test_s2_signature_with_small_order_r_is_rejected(duel: Table) -> None:
    lines = duel.lines()
    i = index_of(lines, type="action")
    data = raw(lines[i])
    data["sig"] = sorted(SMALL_ORDER_POINTS)[1].hex() + data["sig"][64:]
    lines[i] = json.dumps(data).encode()
    assert first_error(lines) == "K002"


@pytest.mark.case("S4")
@pytest.mark.parametrize("bad", ["short", "long", "upper", "space"])
def test_s4_malformed_signature_hex_is_rejected(duel: Table, bad: str) -> None:
    lines = duel.lines()
    i = index_of(lines, type="action")
    data = raw(lines[i])
    sig = data["sig"]
    data["sig"] = {"short": sig[:126], "long": sig + "00", "upper": sig.upper(), "space": sig[:64] + " " + sig[65:]}[
        bad
    ]
    lines[i] = json.dumps(data).encode()
    assert first_error(lines) == "L017"


@pytest.mark.case("S4")
def test_s4_malformed_roster_key_is_rejected(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel", rounds=2, join=False)
    genesis = raw(table.lines()[0])
    genesis.pop("sig")
    genesis["body"]["roster"][1]["key"] = genesis["body"]["roster"][1]["key"][:62]  # a 31-byte key
    assert first_error([seal(genesis, table.keys["red"].private.sign).line]) == "L017"


def rotate(table: Table, seat: str, new_seat: str, **body_changes: Any) -> bytes:
    """A key-rotate line of ``seat`` to ``test_key(new_seat)``, with ``body_changes``."""
    from pbem.replay.game import rotation_statement

    new = test_key(new_seat)
    with table.session(seat) as session:
        unsigned = session.draft(session.game, "key-rotate", {})
        game_id, seq = session.game.id, unsigned["seq"]
    nonce = table.entropy(32)
    secret = derive.game_secret(new.seed, game_id, nonce, 1)
    anchor = SeedChain(derive.chain_top(secret), game_id, seat, 1).anchor
    pop = new.private.sign(rotation_statement(game_id, seat, new.public.hex, seq))
    unsigned["body"] = {
        "key": new.public.hex, "pop": pop.hex(), "anchor": anchor.hex(), "nonce": nonce.hex(), "next_key": None
    }  # fmt: skip
    unsigned["body"].update(body_changes)
    return seal(unsigned, table.keys[seat].private.sign).line


@pytest.mark.case("S5")
def test_s5_rotation_without_proof_of_possession_is_rejected(tmp_path: Path) -> None:
    table = attacked(tmp_path)
    line = rotate(table, "red", "red2", pop="00" * 64)
    assert first_error(append(table, line)) == "K006"


@pytest.mark.case("S5")
def test_s5_rotation_to_a_key_other_than_the_prerotated_one_is_rejected(tmp_path: Path) -> None:
    table = attacked(tmp_path)
    committed = hashlib.sha256(test_key("red-next").public.raw).hexdigest()
    first = rotate(table, "red", "red2", next_key=committed)
    table.path.write_bytes(b"".join(line + b"\n" for line in append(table, first)))
    table.keys["red"] = test_key("red2")
    second = rotate(table, "red", "red3")  # not the pre-rotated key
    assert first_error(append(table, second)) == "K007"


@pytest.mark.case("S5")
@pytest.mark.case("T2")
def test_s5_entry_signed_with_the_rotated_out_key_is_rejected(tmp_path: Path) -> None:
    table = attacked(tmp_path)
    lines = append(table, rotate(table, "red", "red2"))
    assert verify_lines(lines)[0].valid
    table.path.write_bytes(b"".join(line + b"\n" for line in lines))
    table.keys["red"] = test_key("red2")
    with table.session("red") as session:
        unsigned = session.draft(session.game, "resign", {})
    unsigned["kid"] = test_key("red").public.id
    old_signed = seal(unsigned, test_key("red").private.sign).line
    finding = verify_lines([*lines, old_signed])[0].findings[0]
    assert (finding.code, "rotated-out" in finding.message) == ("K004", True)


@pytest.mark.case("S5")
def test_s5_rotated_key_plays_on(tmp_path: Path) -> None:
    table = attacked(tmp_path)
    table.path.write_bytes(b"".join(line + b"\n" for line in append(table, rotate(table, "red", "red2"))))
    table.keys["red"] = test_key("red2")
    table.owed("red")  # the new key reveals from its own new dice chain
    report = table.verify()
    assert report.valid, [f.render() for f in report.findings]


@pytest.mark.case("S5")
def test_s5_key_replacement_needs_every_other_seat(tmp_path: Path) -> None:
    from pbem.replay.game import replacement_statement

    table = Table.start(tmp_path, "standard", rounds=2)
    new = test_key("green-new")
    with table.session("green") as session:
        unsigned = session.draft(session.game, "key-replace", {})
        game_id = session.game.id
    statement = replacement_statement(game_id, "green", new.public.hex, unsigned["seq"], unsigned["prev"])
    nonce = table.entropy(32)
    secret = derive.game_secret(new.seed, game_id, nonce, 1)
    anchor = SeedChain(derive.chain_top(secret), game_id, "green", 1).anchor
    cosigs = [{"seat": s, "sig": table.keys[s].private.sign(statement).hex()} for s in ("red", "blue")]
    unsigned["kid"] = new.public.id
    unsigned["body"] = {"key": new.public.hex, "anchor": anchor.hex(), "nonce": nonce.hex(), "cosigs": cosigs}
    assert verify_lines([*table.lines(), seal(unsigned, new.private.sign).line])[0].valid
    unsigned["body"] = {**unsigned["body"], "cosigs": cosigs[:1]}
    assert first_error([*table.lines(), seal(unsigned, new.private.sign).line]) == "K008"
    bad = [cosigs[0], {"seat": "blue", "sig": table.keys["red"].private.sign(statement).hex()}]
    unsigned["body"] = {**unsigned["body"], "cosigs": bad}
    assert first_error([*table.lines(), seal(unsigned, new.private.sign).line]) == "K008"


# --- C: canonicalization at the log level -----------------------------------------------------------


@pytest.mark.case("C1")
@pytest.mark.case("C2")
@pytest.mark.parametrize(
    ("edit", "code"),
    [
        (lambda s: s.replace('"v":1', '"v":1,"v":1'), "L004"),
        (lambda s: s.replace('"v":1', '"v":1.0'), "L005"),
        (lambda s: s.replace('"v":1', '"v":NaN'), "L005"),
        (lambda s: s.replace('"v":1', '"v":9007199254740993'), "L006"),
        (lambda s: "\ufeff" + s, "L002"),
        (lambda s: s.replace('"v":1', '"v":1,"\u00e9":1'), "L008"),
    ],
)
def test_c1_c2_non_canonical_values_in_a_log_line_are_rejected(duel: Table, edit: Any, code: str) -> None:
    lines = duel.lines()
    lines[4] = edit(lines[4].decode()).encode()
    assert first_error(lines) == code


@pytest.mark.case("C3")
def test_c3_deep_nesting_and_huge_lines_are_clean_errors(duel: Table) -> None:
    lines = duel.lines()
    assert first_error([*lines, b"[" * 10_000 + b"]" * 10_000]) == "L009"
    assert first_error([*lines, b'{"a":"' + b"x" * 70_000 + b'"}']) == "L010"


# --- D: dice ------------------------------------------------------------------------------------------


@pytest.mark.case("D1")
def test_d1_early_reveal_answering_no_open_roll_is_rejected(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel", rounds=2)
    table.act("blue", {"action": "choose_reserve", "value": 2})  # an action that opens no roll
    blue_head = envelope(table.lines()[-1]).id
    line = table.forge("red", "reveal", {"for": blue_head, "index": 1, "seed": red_chain(table)[1].hex()})
    assert first_error(append(table, line)) == "D001"


@pytest.mark.case("D1")
@pytest.mark.case("D2")
def test_d1_d2_reveal_reusing_an_index_is_rejected(trio: Table) -> None:
    lines = trio.lines()
    reveals = [i for i, line in enumerate(lines) if raw(line)["type"] == "reveal"]
    by_author: dict[str, list[int]] = {}
    for i in reveals:
        by_author.setdefault(raw(lines[i])["author"], []).append(i)
    first, second = next(v for v in by_author.values() if len(v) >= 2)[:2]
    data = raw(lines[second])
    data["body"] = {
        **data["body"],
        "index": raw(lines[first])["body"]["index"],
        "seed": raw(lines[first])["body"]["seed"],
    }
    lines[second] = resign(lines[second], data["author"], trio, body=data["body"])
    assert first_error(lines) == "D002"


@pytest.mark.case("D2")
def test_d2_reveal_skipping_an_index_is_rejected(tmp_path: Path) -> None:
    table = attacked(tmp_path)
    action = envelope(table.lines()[-1]).id
    skip = table.forge("red", "reveal", {"for": action, "index": 2, "seed": red_chain(table)[2].hex()})
    assert first_error(append(table, skip)) == "D002"


@pytest.mark.case("D2")
def test_d2_seed_not_on_the_chain_is_rejected(tmp_path: Path) -> None:
    table = attacked(tmp_path)
    action = envelope(table.lines()[-1]).id
    blue = Table(table.path, table.keys)
    with blue.session("blue") as session:
        blue_seed = session.chain()[1]
    for seed in (b"\x01" * 32, blue_seed):  # a made-up seed, and one from another seat's chain
        line = table.forge("red", "reveal", {"for": action, "index": 1, "seed": seed.hex()})
        assert first_error(append(table, line)) == "D003"


@pytest.mark.case("D3")
def test_d3_mover_echo_is_checked(trio: Table) -> None:
    lines = trio.lines()
    i = next(i for i, line in enumerate(lines) if raw(line)["type"] == "action" and raw(line)["body"]["echo"])
    data = raw(lines[i])
    data["body"]["echo"][0]["faces"][0] = data["body"]["echo"][0]["faces"][0] % 6 + 1
    lines[i] = resign(lines[i], data["author"], trio, body=data["body"])
    assert first_error(lines) == "D006"


@pytest.mark.case("D4")
def test_d4_second_reveal_for_the_same_roll_is_rejected(tmp_path: Path) -> None:
    table = attacked(tmp_path)
    table.owed("red")
    action = envelope(
        next(line for line in table.lines() if raw(line)["type"] == "action" and raw(line)["body"]["rolls"])
    ).id
    line = table.forge("red", "reveal", {"for": action, "index": 2, "seed": red_chain(table)[2].hex()})
    assert first_error(append(table, line)) == "D005"


@pytest.mark.case("D5")
def test_d5_three_seats_wait_for_every_opponent_seed(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "standard", rounds=2)
    for seat, value in (("red", 1), ("green", 2), ("blue", 3)):
        table.act(seat, {"action": "choose_reserve", "value": value})
    table.settle()
    table.act("red", {"action": "attack", "target": "blue"})
    defend = table.act("blue", {"action": "defend", "stance": "dodge"})[-1].id
    table.owed("red")  # green has not revealed yet
    report = table.verify()
    assert report.valid and report.awaiting == ["waiting for green's dice"]
    with table.session("red") as session:
        assert session.legal() == []
    line = table.forge("red", "action", {"actions": [{"action": "pass"}], "rolls": None, "sealed": [], "echo": []})
    assert first_error(append(table, line)) == "R002"
    table.owed("green")
    game = table.replay().game
    assert game is not None and defend not in game.pending  # settled (a chained critical roll may follow)


@pytest.mark.case("D6")
def test_d6_referee_quorum_accepts_only_the_referee_seed(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel", rounds=2, referee=True)
    table.act("red", {"action": "choose_reserve", "value": 2})
    table.act("blue", {"action": "choose_reserve", "value": 3})
    table.settle()
    table.act("red", {"action": "attack", "target": "blue"})
    table.act("blue", {"action": "defend", "stance": "block"})
    assert table.verify().awaiting[-1] == "waiting for ref's dice"
    action = envelope(table.lines()[-1]).id
    assert (
        first_error(
            append(table, table.forge("red", "reveal", {"for": action, "index": 1, "seed": red_chain(table)[1].hex()}))
        )
        == "D001"
    )
    table.owed("ref")
    table.settle()
    report = table.verify()
    assert report.valid and not any("dice" in w for w in report.awaiting)


# --- H: hidden information ------------------------------------------------------------------------


@pytest.mark.case("H1")
@pytest.mark.parametrize("flaw", ["salt", "value", "ver"])
def test_h1_opening_that_does_not_match_its_commitment_is_rejected(duel: Table, flaw: str) -> None:
    lines = duel.lines()
    i = next(i for i, line in enumerate(lines) if raw(line)["type"] == "hidden" and raw(line)["body"]["opened"])
    data = raw(lines[i])
    item = data["body"]["opened"][0]
    if item["secret"] is not None:
        item["secret"] = "00" * 32
    elif flaw == "salt":
        item["salt"] = "00" * 32
    elif flaw == "value":
        item["value"] = item["value"] + 1
    else:
        item["ver"] = item["ver"] + 1
    lines[i] = resign(lines[i], data["author"], duel, body=data["body"])
    assert first_error(lines) in (("H003",) if item["secret"] is not None else ("H001",))


@pytest.mark.case("H1")
def test_h1_opening_of_a_slot_not_asked_for_is_rejected(duel: Table) -> None:
    lines = duel.lines()
    i = next(i for i, line in enumerate(lines) if raw(line)["type"] == "hidden" and raw(line)["body"]["opened"])
    data = raw(lines[i])
    data["body"]["opened"][0]["slot"] = "reserve/nobody"
    lines[i] = resign(lines[i], data["author"], duel, body=data["body"])
    assert first_error(lines) == "H006"


def cheat_fortify(table: Table, committed_value: int) -> list[bytes]:
    """red fortifies but commits its reserve as ``committed_value`` (instead of the rules' old+1)."""
    with table.session("red") as session:
        body, _ = session._batch_body(session.game.clone(), [{"action": "fortify"}])
        game_id, secret = session.game.id, session.secret
    item = body["sealed"][0]
    salt = derive.salt(secret, item["slot"], item["ver"])
    commit = hidden.commit_value(game_id, "red", item["slot"], item["ver"], salt, committed_value)
    enc = hidden.seal(derive.seal_key(secret, item["slot"], item["ver"]), committed_value, commit)
    body["sealed"] = [{**item, "commit": commit, "enc": enc}]
    return append(table, table.forge("red", "action", body))


def fortify_turn(tmp_path: Path, reserve: int) -> Table:
    table = Table.start(tmp_path, "duel", rounds=2)
    table.act("red", {"action": "choose_reserve", "value": reserve})
    table.act("blue", {"action": "choose_reserve", "value": 3})
    table.settle()
    return table


@pytest.mark.case("H2")
def test_h2_hidden_transition_that_breaks_the_rules_is_caught_at_audit(tmp_path: Path) -> None:
    table = fortify_turn(tmp_path, reserve=2)
    lines = cheat_fortify(table, committed_value=5)  # the rules give 3
    assert verify_lines(lines)[0].valid  # the public cannot see it yet...
    audit, _ = verify_lines(lines, knowledge=own_knowledge(table.keys["red"]))
    assert codes(audit) == ["H002"]  # ...the audit (with red's secret) does


@pytest.mark.case("H2")
@pytest.mark.rule("T6.2")
def test_h2_secret_choice_outside_the_rules_is_caught_at_audit(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel", rounds=2)
    with table.session("red") as session:
        body, _ = session._batch_body(session.game.clone(), [{"action": "choose_reserve", "value": 3}])
        game_id, secret = session.game.id, session.secret
    item = body["sealed"][0]
    salt = derive.salt(secret, item["slot"], item["ver"])
    commit = hidden.commit_value(game_id, "red", item["slot"], item["ver"], salt, 9)  # 9 is outside 1-3
    enc = hidden.seal(derive.seal_key(secret, item["slot"], item["ver"]), 9, commit)
    body["sealed"] = [{**item, "commit": commit, "enc": enc}]
    lines = append(table, table.forge("red", "action", body))
    assert verify_lines(lines)[0].valid
    audit, _ = verify_lines(lines, knowledge=own_knowledge(table.keys["red"]))
    assert codes(audit) == ["R001"] and audit.findings[0].rule == "§T1.1"


@pytest.mark.case("H2")
def test_h2_disclosure_at_game_end_triggers_the_audit(tmp_path: Path) -> None:
    table = fortify_turn(tmp_path, reserve=2)
    lines = cheat_fortify(table, committed_value=5)
    join = raw(lines[index_of(lines, type="join", author="red")])
    secret = derive.game_secret(table.keys["red"].seed, envelope(lines[0]).id, bytes.fromhex(join["body"]["nonce"]), 0)
    table.path.write_bytes(b"".join(line + b"\n" for line in lines))
    disclose = table.forge("red", "disclose", {"secrets": [{"epoch": 0, "secret": secret.hex()}]})
    assert codes(verify_lines([*lines, disclose])[0]) == ["H002"]


@pytest.mark.case("H3")
def test_h3_private_draw_commitment_not_matching_the_secret_is_rejected_at_audit(tmp_path: Path) -> None:
    table = fortify_turn(tmp_path, reserve=2)
    with table.session("red") as session:
        body, _ = session._batch_body(session.game.clone(), [{"action": "draw"}])
    body["rolls"]["commit"] = "11" * 32  # commits to something other than its derived secret
    lines = append(table, table.forge("red", "action", body))
    assert verify_lines(lines)[0].valid
    assert codes(verify_lines(lines, knowledge=own_knowledge(table.keys["red"]))[0]) == ["H003"]


@pytest.mark.case("H4")
def test_h4_disclosed_secret_that_does_not_reproduce_the_anchor_is_rejected(duel: Table) -> None:
    lines = duel.lines()
    i = index_of(lines, type="disclose", author="blue")
    data = raw(lines[i])
    data["body"]["secrets"][0]["secret"] = "42" * 32
    lines[i] = resign(lines[i], "blue", duel, body=data["body"])
    report, _ = verify_lines(lines)
    assert codes(report) == ["H004"] and report.findings[0].author == "blue"
