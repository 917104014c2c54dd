"""Re-create sample_games/triad-duel: a complete, signed, fully disclosed game of the test-only game Triad.

    PBEM_GAMES=tests.games.triad.ruleset:RULESET PYTHONPATH=. python sample_games/make_triad_duel.py

The keys in keys/ are TEST KEYS derived from public seeds: never use them for a real game. Signatures are
deterministic and the clock is fixed, so the script writes the same bytes every time.
"""

from __future__ import annotations

import hashlib
import os
import random
import tempfile
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.client.session import Session, create_game
from pbem.log.keys import KeyPair, save_keypair
from pbem.log.store import LogStore
from pbem.rules import registry

HERE = Path(__file__).parent / "triad-duel"
SEATS = ("red", "blue")


def test_key(seat: str) -> KeyPair:
    seed = hashlib.sha256(b"pbem sample game test key " + seat.encode()).digest()
    return KeyPair.from_private(Ed25519PrivateKey.from_private_bytes(seed))


def main() -> None:
    os.environ["PBEM_STATE_DIR"] = tempfile.mkdtemp()  # do not touch this machine's record of signed heads
    keys = {seat: test_key(seat) for seat in SEATS}
    tick = iter(range(10**6))

    def clock() -> str:
        t = next(tick) * 37  # a move every half minute or so
        return f"2026-03-{1 + t // 86400:02d}T{t // 3600 % 24:02d}:{t // 60 % 60:02d}:{t % 60:02d}Z"

    log = HERE / "game.jsonl"
    log.unlink(missing_ok=True)
    key_dir = HERE / "keys"
    key_dir.mkdir(exist_ok=True)
    for seat, pair in keys.items():
        for old in key_dir.glob(f"{seat}.*"):
            old.unlink()
        save_keypair(pair, key_dir, seat, None)
    ruleset = registry.get("triad")
    create_game(log, ruleset, "duel", {s: k.public for s, k in keys.items()}, keys["red"],
                options={"rounds": 3}, title="Sample duel (test keys)", clock=clock)  # fmt: skip
    rng = random.Random(2026)
    preference = ["attack", "draw", "play", "fortify", "defend", "choose_reserve", "pass"]
    while True:
        progressed = False
        for seat in SEATS:
            with LogStore.open(log) as store:
                session = Session.open(store, keys[seat], clock=clock)
                written = [] if session.book.joined else [session.join()]
                written += session.do_owed()
                legal = session.legal()
                if legal:  # a simple, sensible player: prefer attacking, then drawing and playing cards
                    best = min(preference.index(a["action"]) for a in legal)
                    written += session.act([rng.choice([a for a in legal if preference.index(a["action"]) == best])])
                progressed = progressed or bool(written)
        if not progressed:
            break
    print(f"wrote {log} ({sum(1 for _ in log.open())} entries)")


if __name__ == "__main__":
    main()
