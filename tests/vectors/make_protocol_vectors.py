"""Write tests/vectors/protocol-v1: a complete signed game, what a verifier must compute, and attack cases.

    PBEM_GAMES=pbem.games.triad.ruleset:RULESET PYTHONPATH=. python tests/vectors/make_protocol_vectors.py

Everything is deterministic (fixed test keys, a fixed clock, Ed25519's deterministic signatures), so the
test suite regenerates the set in memory and compares it byte for byte with the committed files.

* ``game.jsonl``: a three-seat game of the test game Triad with dice, a chained roll, a private draw, secret choices, a
  hidden change caused by the opponent, openings, checkpoints and disclosure.
* ``keys.json``: the seats' Ed25519 private seeds (TEST KEYS: public) and public keys.
* ``expected.json``: the game id, every line's entry id, every resolved roll with its inputs and faces,
  the co-signed checkpoints, the final state hash and the result.
* ``derivations.json``: for every seat, the inputs and outputs of each HKDF call of PROTOCOL.md §5 (the game
  secret, the chain top and the anchor it hashes down to), and for one sealed value and one private draw the
  salt, seal key, draw secret, commitment and plaintext, so a second implementation can check its byte layouts.
* ``attacks/<CODE>-<name>.jsonl``: the game with one defect; ``attacks/expected.json`` gives the first
  error's code and line for each.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PBEM_GAMES", "pbem.games.triad.ruleset:RULESET")

from pbem.log import derive, hidden  # noqa: E402
from pbem.log.dice import SeedChain  # noqa: E402
from pbem.log.entry import envelope, seal  # noqa: E402
from pbem.log.sign import SMALL_ORDER_POINTS, on_curve  # noqa: E402
from pbem.verify.pipeline import verify_lines  # noqa: E402
from tests.helpers import Table, test_key  # noqa: E402

OUT = Path(__file__).parent / "protocol-v1"
SEED = 116  # covers every protocol path, like the trio fixture (tests/conftest.py)


def build() -> dict[str, bytes]:
    """Every file of the vector set, by path relative to ``protocol-v1``."""
    with tempfile.TemporaryDirectory() as tmp:
        previous = os.environ.get("PBEM_STATE_DIR")
        os.environ["PBEM_STATE_DIR"] = str(Path(tmp) / "state")
        try:
            table = Table.start(Path(tmp), "standard", rounds=3)
            table.play_out(random.Random(SEED))
        finally:
            if previous is None:
                del os.environ["PBEM_STATE_DIR"]
            else:
                os.environ["PBEM_STATE_DIR"] = previous
        lines = table.lines()
    files: dict[str, bytes] = {"game.jsonl": _join(lines)}
    files["keys.json"] = _json({
        seat: {"private_seed": pair.seed.hex(), "public": pair.public.hex, "fingerprint": pair.public.fingerprint}
        for seat, pair in table.keys.items()
    } | {"note": "TEST KEYS: the seeds are public; never use them for a game"})  # fmt: skip
    report, verifier = verify_lines(lines)
    game = verifier.game
    assert report.valid and game is not None and report.result is not None
    checkpoints = {
        json.loads(line)["body"]["label"]: json.loads(line)["body"]
        for line in lines
        if json.loads(line)["type"] == "checkpoint"
    }
    files["expected.json"] = _json({
        "game": game.id,
        "ids": [envelope(line).id for line in lines],
        "rolls": [r.as_json() for r in game.rolls],
        "checkpoints": checkpoints,
        "final_state": report.state_hash,
        "result": report.result.model_dump(mode="json"),
    })  # fmt: skip
    files["derivations.json"] = _json(_derivations(lines, table))
    expected: dict[str, dict[str, Any]] = {}
    for name, attack in ATTACKS.items():
        broken = attack(list(lines), table)
        bad, _ = verify_lines(broken)
        first = bad.first_error
        assert first is not None and name.startswith(first.code), (name, first)
        files[f"attacks/{name}.jsonl"] = _join(broken)
        expected[name] = {"code": first.code, "line": first.line}
    files["attacks/expected.json"] = _json(expected)
    return files


def _derivations(lines: list[bytes], table: Table) -> dict[str, Any]:
    entries = [json.loads(line) for line in lines]
    game = envelope(lines[0]).id
    seats: dict[str, Any] = {}
    secrets: dict[str, bytes] = {}
    for entry in entries:
        if entry["type"] != "join":
            continue
        seat, nonce = entry["author"], bytes.fromhex(entry["body"]["nonce"])
        secret = derive.game_secret(table.keys[seat].seed, game, nonce, 0)
        top = derive.chain_top(secret)
        anchor = SeedChain(top, game, seat, 0, entries[0]["body"]["dice"]["chain"]).anchor
        assert anchor.hex() == entry["body"]["anchor"]
        secrets[seat] = secret
        seats[seat] = {"private_seed": table.keys[seat].seed.hex(), "epoch": 0, "nonce": nonce.hex(),
                       "game_secret": secret.hex(), "chain_top": top.hex(), "anchor": anchor.hex()}  # fmt: skip
    owner, item = next((e["author"], s) for e in entries if e["type"] == "action" for s in e["body"]["sealed"])
    salt, key = (
        derive.salt(secrets[owner], item["slot"], item["ver"]),
        derive.seal_key(secrets[owner], item["slot"], item["ver"]),
    )
    value = hidden.unseal(key, item["enc"], item["commit"])
    assert hidden.commit_value(game, owner, item["slot"], item["ver"], salt, value) == item["commit"]
    sealed = {"owner": owner, "slot": item["slot"], "ver": item["ver"], "salt": salt.hex(), "seal_key": key.hex(),
              "value": value, "commit": item["commit"], "enc": item["enc"], "aad": item["commit"]}  # fmt: skip
    draw_entry = next(
        e for e in entries if e["type"] == "action" and e["body"]["rolls"] and e["body"]["rolls"]["owner"]
    )
    rolls = draw_entry["body"]["rolls"]
    opening = next(
        o for e in entries if e["type"] == "hidden" for o in e["body"]["opened"] if o["slot"] == rolls["slot"]
    )
    draw_secret = derive.draw_secret(secrets[rolls["owner"]], rolls["slot"], opening["ver"])
    assert draw_secret.hex() == opening["secret"]
    assert hidden.commit_draw(game, rolls["owner"], rolls["slot"], opening["ver"], draw_secret) == rolls["commit"]
    draw = {"owner": rolls["owner"], "slot": rolls["slot"], "ver": opening["ver"], "secret": draw_secret.hex(),
            "commit": rolls["commit"], "declared_in": envelope(lines[entries.index(draw_entry)]).id}  # fmt: skip
    return {"game": game, "seats": seats, "sealed": sealed, "private_draw": draw,
            "note": "TEST KEYS: derived from the public seeds of keys.json"}  # fmt: skip


def _join(lines: list[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


def _json(value: Any) -> bytes:
    return (json.dumps(value, indent=1, sort_keys=True) + "\n").encode()


def _find(lines: list[bytes], **match: Any) -> int:
    return next(i for i, line in enumerate(lines) if all(json.loads(line).get(k) == v for k, v in match.items()))


def _resign(line: bytes, table: Table, seat: str | None = None, **changes: Any) -> bytes:
    data = json.loads(line)
    data.pop("sig")
    data.update(changes)
    return seal(data, table.keys[seat or data["author"]].private.sign).line


def _swap_reveal(lines: list[bytes], table: Table) -> list[bytes]:
    i = _find(lines, type="reveal")
    reveal = lines.pop(i)
    lines.insert(i - 1, reveal)
    return lines


def _fork(lines: list[bytes], table: Table) -> list[bytes]:
    i = _find(lines, type="action", author="blue")
    return [*lines, _resign(lines[i], table, ts="2026-12-31T23:59:59Z")]


def _flip_sig(lines: list[bytes], table: Table) -> list[bytes]:
    i = _find(lines, type="action")
    data = json.loads(lines[i])
    data["sig"] = ("0" if data["sig"][5] != "0" else "1").join([data["sig"][:5], data["sig"][6:]])
    lines[i] = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return lines


def _weak_r(lines: list[bytes], table: Table) -> list[bytes]:
    i = _find(lines, type="action")
    data = json.loads(lines[i])
    data["sig"] = sorted(SMALL_ORDER_POINTS)[0].hex() + data["sig"][64:]
    lines[i] = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return lines


def _other_key(lines: list[bytes], table: Table) -> list[bytes]:
    i = _find(lines, type="action", author="red")
    lines[i] = _resign(lines[i], table, "blue", kid=table.keys["blue"].public.id)
    return lines


def _gap(lines: list[bytes], table: Table) -> list[bytes]:
    entries = [json.loads(line) for line in lines]
    # a checkpoint directly followed by its author's next entry: removing it leaves a sequence gap
    i = next(
        i for i in range(1, len(lines) - 1)
        if entries[i]["type"] == "checkpoint" and entries[i + 1]["author"] == entries[i]["author"]
    )  # fmt: skip
    del lines[i]
    return lines


def _prev(lines: list[bytes], table: Table) -> list[bytes]:
    i = _find(lines, type="action", author="blue")
    lines[i] = _resign(lines[i], table, prev="00" * 32)
    return lines


def _text_edit(old: bytes, new: bytes) -> Callable[[list[bytes], Table], list[bytes]]:
    def edit(lines: list[bytes], table: Table) -> list[bytes]:
        i = _find(lines, type="action")
        lines[i] = lines[i].replace(old, new, 1)
        return lines

    return edit


def _bad_seed(lines: list[bytes], table: Table) -> list[bytes]:
    i = _find(lines, type="reveal")
    data = json.loads(lines[i])
    lines[i] = _resign(lines[i], table, body={**data["body"], "seed": "11" * 32})
    return lines


def _bad_echo(lines: list[bytes], table: Table) -> list[bytes]:
    i = next(
        i for i, line in enumerate(lines) if json.loads(line)["type"] == "action" and json.loads(line)["body"]["echo"]
    )
    data = json.loads(lines[i])
    data["body"]["echo"][0]["faces"][0] = data["body"]["echo"][0]["faces"][0] % 6 + 1
    lines[i] = _resign(lines[i], table, body=data["body"])
    return lines


def _bad_opening(lines: list[bytes], table: Table) -> list[bytes]:
    i = next(
        i for i, line in enumerate(lines)
        if json.loads(line)["type"] == "hidden" and any(o["salt"] for o in json.loads(line)["body"]["opened"])
    )  # fmt: skip
    data = json.loads(lines[i])
    item = next(o for o in data["body"]["opened"] if o["salt"])
    item["salt"] = "00" * 32
    lines[i] = _resign(lines[i], table, body=data["body"])
    return lines


def _bad_disclosure(lines: list[bytes], table: Table) -> list[bytes]:
    i = _find(lines, type="disclose")
    data = json.loads(lines[i])
    data["body"]["secrets"][0]["secret"] = "42" * 32
    lines[i] = _resign(lines[i], table, body=data["body"])
    return lines


def _bad_checkpoint(lines: list[bytes], table: Table) -> list[bytes]:
    i = _find(lines, type="checkpoint")
    data = json.loads(lines[i])
    lines[i] = _resign(lines[i], table, body={**data["body"], "state": "00" * 32})
    return lines


def _illegal(lines: list[bytes], table: Table) -> list[bytes]:
    i = next(
        i for i, line in enumerate(lines)
        if json.loads(line)["type"] == "action" and json.loads(line)["body"]["actions"][0]["action"] == "pass"
    )  # fmt: skip
    data = json.loads(lines[i])
    data["body"]["actions"] = [{"action": "attack", "target": data["author"]}]  # attacking yourself: §T3.1
    lines[i] = _resign(lines[i], table, body=data["body"])
    return lines


def _foreign(lines: list[bytes], table: Table) -> list[bytes]:
    data = json.loads(lines[3])
    data.pop("sig")
    data["game"] = "ab" * 32
    return [*lines, seal(data, test_key(data["author"]).private.sign).line]


def _edit(lines: list[bytes], i: int, table: Table, change: Callable[[dict[str, Any]], None]) -> list[bytes]:
    """Line ``i`` changed by ``change`` and signed again by its author (a format rule, not a signature, fails)."""
    data = json.loads(lines[i])
    data.pop("sig")
    change(data)
    signer = table.keys.get(data["author"]) or test_key(data["author"])
    lines[i] = seal(data, signer.private.sign).line
    return lines


def _genesis_edit(change: Callable[[dict[str, Any]], None], signer: str | None = None) -> Callable[..., list[bytes]]:
    def edit(lines: list[bytes], table: Table) -> list[bytes]:
        data = json.loads(lines[0])
        data.pop("sig")
        change(data)
        lines[0] = seal(data, table.keys[signer or data["author"]].private.sign).line
        return lines

    return edit


def _off_curve_key() -> str:
    return next(y.to_bytes(32, "little") for y in range(2, 100) if not on_curve(y.to_bytes(32, "little"))).hex()


def _set_ts(ts: str, seat: str = "red") -> Callable[[list[bytes], Table], list[bytes]]:
    def edit(lines: list[bytes], table: Table) -> list[bytes]:
        return _edit(lines, _find(lines, type="action", author=seat), table, lambda d: d.update(ts=ts))

    return edit


def _before_dependency(lines: list[bytes], table: Table) -> list[bytes]:
    # green's first action answers red's; dated at green's own join: not before its own prev, before a dep
    join_ts = json.loads(lines[_find(lines, type="join", author="green")])["ts"]
    return _edit(lines, _find(lines, type="action", author="green"), table, lambda d: d.update(ts=join_ts))


def _repeated_dep(lines: list[bytes], table: Table) -> list[bytes]:
    return _edit(lines, _find(lines, type="action", author="green"), table, lambda d: d.update(deps=d["deps"] * 2))


def _bad_copy(lines: list[bytes], table: Table) -> list[bytes]:
    copy = _flip_sig([lines[_find(lines, type="action")]], table)[0]
    return [*lines, copy]


def _echo_twice(lines: list[bytes], table: Table) -> list[bytes]:
    i = next(
        i for i, line in enumerate(lines) if json.loads(line)["type"] == "action" and json.loads(line)["body"]["echo"]
    )
    return _edit(lines, i, table, lambda d: d["body"].update(echo=d["body"]["echo"] * 2))


def _draw_secret(lines: list[bytes], table: Table) -> list[bytes]:
    i = next(
        i for i, line in enumerate(lines)
        if json.loads(line)["type"] == "hidden" and any(o["secret"] for o in json.loads(line)["body"]["opened"])
    )  # fmt: skip

    def change(data: dict[str, Any]) -> None:
        for opening in data["body"]["opened"]:
            if opening["secret"]:
                opening["secret"] = "77" * 32

    return _edit(lines, i, table, change)


def _one_sided_die(lines: list[bytes], table: Table) -> list[bytes]:
    i = next(
        i for i, line in enumerate(lines) if json.loads(line)["type"] == "action" and json.loads(line)["body"]["rolls"]
    )
    return _edit(lines, i, table, lambda d: d["body"]["rolls"]["rolls"][0].update(sides=1))


def _disclose_nothing(lines: list[bytes], table: Table) -> list[bytes]:
    return _edit(lines, _find(lines, type="disclose"), table, lambda d: d["body"].update(secrets=[]))


def _type_list(lines: list[bytes], table: Table) -> list[bytes]:
    return _edit(lines, _find(lines, type="action"), table, lambda d: d.update(type=[d["type"]]))


def _replace_without_cosigs(lines: list[bytes], table: Table) -> list[bytes]:
    entries = [json.loads(line) for line in lines]
    heads = {e["author"]: envelope(line).id for e, line in zip(entries, lines, strict=True) if "seq" in e}
    last = max(i for i, e in enumerate(entries) if e["author"] == "blue")
    new = test_key("blue-replacement")
    deps = sorted(h for s, h in heads.items() if s != "blue")
    unsigned = {
        "v": 1, "type": "key-replace", "game": envelope(lines[0]).id, "author": "blue", "kid": new.public.id,
        "seq": entries[last]["seq"] + 1, "prev": heads["blue"], "deps": deps,
        "ts": entries[-1]["ts"], "body": {"key": new.public.hex, "anchor": "11" * 32, "nonce": "22" * 32, "cosigs": []},
    }  # fmt: skip
    return [*lines, seal(unsigned, new.private.sign).line]


def _opening(change: Callable[[dict[str, Any]], None], slot: str) -> Callable[[list[bytes], Table], list[bytes]]:
    """The hidden entry opening ``slot`` with that opening changed and signed again."""

    def edit(lines: list[bytes], table: Table) -> list[bytes]:
        entries = [json.loads(line) for line in lines]
        opens = [
            i for i, e in enumerate(entries) if e["type"] == "hidden" for o in e["body"]["opened"] if o["slot"] == slot
        ]
        i = opens[0]
        return _edit(lines, i, table, lambda d: [change(o) for o in d["body"]["opened"] if o["slot"] == slot])

    return edit


def _after_the_end(lines: list[bytes], table: Table) -> list[bytes]:
    entries = [json.loads(line) for line in lines]
    heads = {e["author"]: envelope(line).id for e, line in zip(entries, lines, strict=True) if "seq" in e}
    last = max(i for i, e in enumerate(entries) if e["author"] == "red")
    deps = sorted(h for s, h in heads.items() if s != "red")
    unsigned = {
        "v": 1, "type": "action", "game": envelope(lines[0]).id, "author": "red", "kid": entries[last]["kid"],
        "seq": entries[last]["seq"] + 1, "prev": heads["red"], "deps": deps,
        "ts": entries[-1]["ts"], "body": {"actions": [{"action": "pass"}], "rolls": None, "sealed": [], "echo": []},
    }  # fmt: skip
    return [*lines, seal(unsigned, table.keys["red"].private.sign).line]


ATTACKS: dict[str, Callable[[list[bytes], Table], list[bytes]]] = {
    "C002-other-game": _foreign,
    "C003-seq-gap": _gap,
    "C004-prev": _prev,
    "C005-reveal-before-action": _swap_reveal,
    "C005-repeated-dependency": _repeated_dep,
    "C006-fork": _fork,
    "C011-action-after-the-end": _after_the_end,
    "C008-timestamp-not-a-real-instant": _set_ts("2026-13-45T00:00:04Z"),
    "C008-timestamp-before-a-dependency": _before_dependency,
    "C008-timestamp-far-ahead": _set_ts("2100-01-01T00:00:04Z"),
    "D006-echo-repeated": _echo_twice,
    "H001-opening-another-version": _opening(lambda o: o.update(ver=o["ver"] - 1), "reserve/green"),
    "H003-private-draw-secret": _draw_secret,
    "H006-opening-not-asked": _opening(lambda o: o.update(slot="reserve/blue"), "card/green/1"),
    "K001-copy-with-another-signature": _bad_copy,
    "K003-roster-key-off-curve": _genesis_edit(lambda d: d["body"]["roster"][2].update(key=_off_curve_key())),
    "K004-genesis-key-id-before-signature": _genesis_edit(lambda d: d.update(kid=test_key("blue").public.id), "blue"),
    "L014-chain-shorter-than-16": _genesis_edit(lambda d: d["body"]["dice"].update(chain=15)),
    "L014-cosigs-empty": _replace_without_cosigs,
    "L014-die-with-one-side": _one_sided_die,
    "L014-disclose-without-secret": _disclose_nothing,
    "L014-envelope-type-is-a-list": _type_list,
    "D003-seed-off-chain": _bad_seed,
    "D006-echo": _bad_echo,
    "H001-opening-salt": _bad_opening,
    "H004-disclosure": _bad_disclosure,
    "K001-signature": _flip_sig,
    "K002-small-order-r": _weak_r,
    "K004-other-seats-key": _other_key,
    "L004-duplicate-key": _text_edit(b'"v":1', b'"v":1,"v":1'),
    "L005-float": _text_edit(b'"v":1', b'"v":1.0'),
    "P001-checkpoint-state": _bad_checkpoint,
    "R001-illegal-action": _illegal,
}


def main() -> None:
    for name, data in build().items():
        path = OUT / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
