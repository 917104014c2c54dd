"""Rules PROTOCOL.md now states where it was silent: early disclosure, the audit after a halt, what `entries`
counts, and what makes two lines one entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.log import derive
from pbem.log.entry import envelope, seal
from pbem.verify.pipeline import verify_lines
from tests.helpers import Table, codes, test_key

VECTORS = Path(__file__).resolve().parents[1] / "vectors" / "protocol-v1"
LINES = (VECTORS / "game.jsonl").read_bytes().splitlines()
SEEDS = {
    s: v["private_seed"] for s, v in json.loads((VECTORS / "keys.json").read_text()).items() if isinstance(v, dict)
}


def _resign(line: bytes, change: dict[str, object]) -> bytes:
    data = json.loads(line)
    data.pop("sig")
    data.update(change)
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(SEEDS[data["author"]]))
    return seal(data, key.sign).line


def test_a_disclosure_before_the_end_is_accepted_and_the_game_goes_on(tmp_path: Path) -> None:
    table = Table.start(tmp_path, "duel")
    table.act("red", {"action": "choose_reserve", "value": 2})
    join = next(
        json.loads(x) for x in table.lines() if json.loads(x)["type"] == "join" and json.loads(x)["author"] == "red"
    )
    game = envelope(table.lines()[0]).id
    secret = derive.game_secret(test_key("red").seed, game, bytes.fromhex(join["body"]["nonce"]), 0)
    early = table.forge("red", "disclose", {"secrets": [{"epoch": 0, "secret": secret.hex()}]})
    with table.path.open("ab") as file:
        file.write(early + b"\n")
    table.act("blue", {"action": "choose_reserve", "value": 1})
    report = table.verify()
    assert report.valid and report.result is None
    wrong = table.forge("blue", "disclose", {"secrets": [{"epoch": 0, "secret": "42" * 32}]})
    assert codes(table.verify([*table.lines(), wrong])) == ["H004"]


def test_the_audit_uses_secrets_disclosed_after_the_replay_halts() -> None:
    """A sealed value that is not the committed one (H007) can only be seen with its owner's secret, disclosed
    at the end; the replay halts at that early line, and the disclosure after it still makes the audit see it."""
    i = next(n for n, x in enumerate(LINES) if json.loads(x)["type"] == "action" and json.loads(x)["body"]["sealed"])
    data = json.loads(LINES[i])
    other = next(
        s
        for x in LINES
        for s in json.loads(x)["body"].get("sealed", [])
        if s["enc"] != data["body"]["sealed"][0]["enc"]
    )
    data["body"]["sealed"][0]["enc"] = other["enc"]  # another seal: it does not decrypt under this slot's key
    broken = [*LINES[:i], _resign(LINES[i], {"body": data["body"]}), *LINES[i + 1 :]]
    report, _ = verify_lines(broken)
    assert report.first_error is not None and (report.first_error.code, report.first_error.line) == ("H007", i + 1)
    without_disclosures = [x for x in broken if json.loads(x)["type"] != "disclose"]
    assert "H007" not in codes(verify_lines(without_disclosures)[0])


@pytest.mark.case("T5")
def test_entries_counts_each_entry_once() -> None:
    report, _ = verify_lines([*LINES[:10], LINES[5], *LINES[10:]])
    assert report.valid and report.entries == len(LINES)
    assert [f.code for f in report.findings] == ["C010"]


@pytest.mark.case("T5")
def test_a_copy_whose_signature_was_damaged_is_k001_not_a_duplicate() -> None:
    data = json.loads(LINES[5])
    data["sig"] = ("0" if data["sig"][10] != "0" else "1").join([data["sig"][:10], data["sig"][11:]])
    copy = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    assert envelope(copy).id == envelope(LINES[5]).id
    report, _ = verify_lines([*LINES, copy])
    assert codes(report) == ["K001"] and report.entries == len(LINES)
