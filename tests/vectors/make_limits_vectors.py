"""Write tests/vectors/protocol-v2-limits: signed games that use the limits contract v2 lifts (PROTOCOL.md §3.6,
§6.3.1, §6.4.1, §6.7, §6.8), what a verifier must compute from them, and attack cases.

    python tests/vectors/make_limits_vectors.py

Deterministic like protocol-v1 (fixed test keys, a fixed clock and entropy, Ed25519's deterministic
signatures); the test suite regenerates the set in memory and compares it byte for byte.

* ``solo/``: a solitaire game of Triad (one seat): roll-offs against fate (two pending rolls answered by
  the mover's own seeds) and private draws, to the end and disclosure.
* ``teams/``: Triad's two-against-one scenario with the one-seat-per-team dice quorum: a roll-off (two
  pending rolls), a gift (a private draw owned by a teammate, committed in its reveal), a rally (a public
  roll and a teammate's draw pending together), a resignation the game survives, and play to the end.
* each game's ``game.jsonl`` and ``expected.json`` (the game id, every entry id, every resolved roll with
  its inputs, the checkpoints, the final state hash and the result); ``keys.json``: the TEST keys.
* ``attacks/<CODE>-<name>.jsonl``: a game with one defect; ``attacks/expected.json`` gives the first
  error's code and line for each.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pbem.client.session import Session  # noqa: E402
from pbem.log.entry import envelope, seal  # noqa: E402
from pbem.verify.pipeline import verify_lines  # noqa: E402
from tests.helpers import Table  # noqa: E402
from tests.vectors.make_protocol_vectors import _find, _join, _json, _resign  # noqa: E402

OUT = Path(__file__).parent / "protocol-v2-limits"
SOLO_SEED = 25  # a solo play-out with roll-offs, draws and a played card
TEAMS_SEED = 5  # the teams game's random finish


@contextmanager
def _state_dir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as tmp:
        previous = os.environ.get("PBEM_STATE_DIR")
        os.environ["PBEM_STATE_DIR"] = str(Path(tmp) / "state")
        try:
            yield Path(tmp)
        finally:
            if previous is None:
                del os.environ["PBEM_STATE_DIR"]
            else:
                os.environ["PBEM_STATE_DIR"] = previous


def solo_game() -> tuple[Table, list[bytes]]:
    with _state_dir() as tmp:
        table = Table.start(tmp, "solo", rounds=5)
        table.play_out(random.Random(SOLO_SEED))
        return table, table.lines()


def teams_game() -> tuple[Table, list[bytes]]:
    with _state_dir() as tmp:
        table = Table.start(tmp, "teams", rounds=3, team_dice=True)
        for seat, value in (("red", 2), ("green", 3), ("blue", 1)):
            table.act(seat, {"action": "choose_reserve", "value": value})
        table.settle()
        table.act("red", {"action": "challenge", "target": "blue"})  # T10: two pending rolls
        table.settle()
        table.act("green", {"action": "gift", "target": "red"})  # T11: red's private draw, declared by green
        table.settle()
        table.act("blue", {"action": "pass"})
        table.act("red", {"action": "rally", "target": "green"})  # T11.2: a public roll and green's draw at once
        table.settle()
        with table.session("green") as session:  # T9.2: green drops out, the others play on
            session.resign()
        table.settle()
        table.play_out(random.Random(TEAMS_SEED))
        return table, table.lines()


def build() -> dict[str, bytes]:
    """Every file of the vector set, by path relative to ``protocol-v2-limits``."""
    games = {"solo": solo_game(), "teams": teams_game()}
    files: dict[str, bytes] = {}
    keys: dict[str, Any] = {"note": "TEST KEYS: the seeds are public; never use them for a game"}
    for name, (table, lines) in games.items():
        files[f"{name}/game.jsonl"] = _join(lines)
        files[f"{name}/expected.json"] = _expected(lines)
        for seat, pair in table.keys.items():
            keys[seat] = {
                "private_seed": pair.seed.hex(),
                "public": pair.public.hex,
                "fingerprint": pair.public.fingerprint,
            }
    files["keys.json"] = _json(keys)
    expected: dict[str, dict[str, Any]] = {}
    for name, (game, attack) in ATTACKS.items():
        table, lines = games[game]
        broken = attack(list(lines), table)
        bad, _ = verify_lines(broken)
        first = bad.first_error
        assert first is not None and name.startswith(first.code), (name, first)
        files[f"attacks/{name}.jsonl"] = _join(broken)
        expected[name] = {"code": first.code, "line": first.line}
    files["attacks/expected.json"] = _json(expected)
    return files


def _expected(lines: list[bytes]) -> bytes:
    report, verifier = verify_lines(lines)
    game = verifier.game
    assert report.valid and game is not None and report.result is not None and report.audit == "complete"
    checkpoints = {raw["body"]["label"]: raw["body"] for raw in map(json.loads, lines) if raw["type"] == "checkpoint"}
    return _json({
        "game": game.id,
        "ids": [envelope(line).id for line in lines],
        "rolls": [r.as_json() for r in game.rolls],
        "checkpoints": checkpoints,
        "final_state": report.state_hash,
        "result": report.result.model_dump(mode="json"),
    })  # fmt: skip


def _declaring(lines: list[bytes]) -> int:
    """The first action that declares several rolls."""
    return next(i for i, line in enumerate(lines) if isinstance(json.loads(line).get("body", {}).get("rolls"), list))


def _one_declaration(lines: list[bytes], table: Table) -> list[bytes]:
    i = _declaring(lines)
    body = json.loads(lines[i])["body"]
    lines[i] = _resign(lines[i], table, body={**body, "rolls": body["rolls"][0]})
    return lines[: i + 1]


def _draft(lines: list[bytes], table: Table, seat: str, kind: str, body: dict[str, Any], deps: list[str]) -> bytes:
    """A signed entry of ``seat`` on top of ``lines`` (its seq, prev and deps as the client would set them)."""
    session = Session(None, table.keys[seat], verify_lines(lines)[1], clock=lambda: "2026-01-02T00:00:00Z")
    return seal(session.draft(session.game, kind, body, deps), table.keys[seat].private.sign).line


def _reveal(lines: list[bytes], table: Table, seat: str, entry: str) -> bytes:
    """``seat``'s next dice-chain seed, answering ``entry``."""
    session = Session(None, table.keys[seat], verify_lines(lines)[1])
    index = session.book.epoch.index + 1
    body = {"for": entry, "index": index, "seed": session.chain()[index].hex()}
    return _draft(lines, table, seat, "reveal", body, [entry])


def _owner_not_first(lines: list[bytes], table: Table) -> list[bytes]:
    """The opposing team's seed comes before the commitment of the draw's owner."""
    gift = next(i for i, line in enumerate(lines) if b'"action":"gift"' in line)
    head = lines[: gift + 1]
    return [*head, _reveal(head, table, "blue", envelope(lines[gift]).id)]


def _resigned_acts(lines: list[bytes], table: Table) -> list[bytes]:
    """The resigned seat signs an action anyway."""
    head = lines[: _find(lines, type="resign") + 1]
    body = {"actions": [{"action": "pass"}], "rolls": None, "sealed": [], "echo": []}
    return [*head, _draft(head, table, "green", "action", body, [])]


def _double_answer(lines: list[bytes], table: Table) -> list[bytes]:
    """The quorum seat answers both requests of a roll-off, then once more."""
    i = _declaring(lines)
    entry = envelope(lines[i]).id
    last = max(j for j, line in enumerate(lines) if json.loads(line)["body"].get("for") == entry)
    head = lines[: last + 1]
    return [*head, _reveal(head, table, json.loads(lines[last])["author"], entry)]


ATTACKS: dict[str, tuple[str, Callable[[list[bytes], Table], list[bytes]]]] = {
    "C014-resigned-seat-acts": ("teams", _resigned_acts),
    "D005-third-answer": ("teams", _double_answer),
    "D007-one-declaration-for-two-rolls": ("teams", _one_declaration),
    "D009-answer-before-the-owner": ("teams", _owner_not_first),
}


def main() -> None:
    for name, data in build().items():
        path = OUT / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
