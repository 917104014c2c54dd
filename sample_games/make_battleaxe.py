"""Re-create sample_games/battleaxe: a complete signed game of Operation Battleaxe between two scripted players.

    python sample_games/make_battleaxe.py        (or: make sample)

The players are simple but sensible: each Impulse they attack where their odds and the Victory Points are
best, lead with their strongest unit, call every support they have, take the cheapest losses the rules
allow, and refit their best units. The keys in keys/ are TEST KEYS derived from public seeds: never use them
for a real game. Signatures are deterministic and the clock and the join nonces are fixed, so the script writes
the same bytes every time.
"""

from __future__ import annotations

import hashlib
import os
import random
import tempfile
from pathlib import Path
from typing import Any

from pbem.client.scripted import SampleClock, sample_key
from pbem.client.session import Session, create_game, own_knowledge
from pbem.games.battleaxe.board import Board, enemy
from pbem.games.battleaxe.ruleset import RULESET
from pbem.games.battleaxe.situation import Situation
from pbem.games.battleaxe.state import BattleaxeState, now
from pbem.log.keys import save_keypair
from pbem.log.store import write_new_file
from pbem.verify.pipeline import Verifier

HERE = Path(__file__).parent / "battleaxe"
SEATS = ("allied", "axis")
Action = dict[str, Any]


class SensiblePlayer:
    """Chooses among the legal actions with a few rules of thumb (never an illegal move: it only picks)."""

    def __init__(self, side: str, rng: random.Random):
        self.side = side
        self.rng = rng
        self.target: str | None = None

    def choose(self, state: BattleaxeState, legal: list[Action]) -> Action:
        board = Board(state.pack)
        s = Situation(board, state)
        by_name: dict[str, list[Action]] = {}
        for action in legal:
            by_name.setdefault(action["action"], []).append(action)
        pick = getattr(self, f"_{now(state)}", None)
        choice = pick(state, s, by_name) if pick else None
        return choice if choice in legal else self.rng.choice(legal)

    # -- choosing the Impulse: attack where the odds and the VP are best ----------------------------------
    def _odds(self, s: Situation, area: str, target: str) -> int:
        side = self.side
        ours = sorted((s.cv(u) for u in s.units_of(side, area) if not s.restricted(u)), reverse=True)  # type: ignore[arg-type]
        theirs = sorted((s.cv(u) for u in s.units_of(enemy(side), target)), reverse=True)  # type: ignore[arg-type]
        if not ours or not theirs:
            return -99
        return ours[0] + len(ours) - 1 - theirs[0] - len(theirs) + 1 - s.board.locations[target].tem

    def _impulse(self, state: BattleaxeState, s: Situation, by_name: dict[str, list[Action]]) -> Action | None:
        panzers_loose = state.turn >= 2 and "15pz" in state.released
        if self.side == "allied" and by_name.get("fuel_shortage") and panzers_loose:
            return {"action": "fuel_shortage"}
        if self.side == "axis" and by_name.get("rommel") and state.released:
            return by_name["rommel"][0]
        best, best_score = None, 0
        for action in by_name.get("assault", []):
            for area in action["areas"]:
                for target in s.board.adjacent[area]:
                    score = self._odds(s, area, target) + 2 * s.board.locations[target].vp
                    if state.control[target] != self.side and not s.where[target][enemy(self.side)]:  # type: ignore[index]
                        score = 1 + 2 * s.board.locations[target].vp  # an empty Area to take
                    if score > best_score:
                        best, best_score, self.target = action, score, target
        if best is not None and len(best["areas"]) <= 2:
            return best
        four = [a for a in by_name.get("assault", []) if len(a["areas"]) == 4]
        if four:
            self.target = None
            return four[0]
        return {"action": "pass"}

    def _assault(self, state: BattleaxeState, s: Situation, by_name: dict[str, list[Action]]) -> Action | None:
        attacks = by_name.get("attack", [])
        if attacks:  # a pending Mandatory Attack, or units ready to strike
            return attacks[0]
        moves = by_name.get("move", [])
        if self.target is not None:
            toward = [m for m in moves if m["to"] == self.target]
            if toward:
                return toward[0]
        if state.assault is not None and state.assault.overrun_target is not None:
            return {"action": "end_overrun"}
        grab = [m for m in moves if state.control[m["to"]] != self.side and s.board.locations[m["to"]].vp]
        if grab and self.rng.random() < 0.5:
            return grab[0]
        return {"action": "end_assault"}

    def _declare(self, state: BattleaxeState, s: Situation, by_name: dict[str, list[Action]]) -> Action | None:
        leads = by_name.get("lead", [])
        if leads:
            return max(leads, key=lambda a: s.cv(a["unit"]))
        supports = by_name.get("support", [])
        return max(supports, key=lambda a: (a["air"], a["rommel"], a["artillery"])) if supports else None

    def _defend(self, state: BattleaxeState, s: Situation, by_name: dict[str, list[Action]]) -> Action | None:
        return max(by_name["defend"], key=lambda a: (a["artillery"], s.cv(a["lead"])))

    def _max_attack(self, state: BattleaxeState, s: Situation, by_name: dict[str, list[Action]]) -> Action | None:
        return {"action": "maximum_attack"}

    def _fanatical(self, state: BattleaxeState, s: Situation, by_name: dict[str, list[Action]]) -> Action | None:
        return {"action": "fanatical_defense"}

    def _allocate(self, state: BattleaxeState, s: Situation, by_name: dict[str, list[Action]]) -> Action | None:
        order = {"none": 0, "flip": 1, "retreat": 2, "flip_retreat": 3, "eliminate": 4}
        return min(by_name["absorb"], key=lambda a: order[a["loss"]])

    def _voluntary_retreat(
        self, state: BattleaxeState, s: Situation, by_name: dict[str, list[Action]]
    ) -> Action | None:
        return {"action": "stay"}

    def _overrun(self, state: BattleaxeState, s: Situation, by_name: dict[str, list[Action]]) -> Action | None:
        targets = by_name.get("overrun", [])
        valuable = [a for a in targets if s.board.locations[a["target"]].vp]
        if valuable:
            self.target = valuable[0]["target"]
            return valuable[0]
        return {"action": "decline"}

    def _daylight(self, state: BattleaxeState, s: Situation, by_name: dict[str, list[Action]]) -> Action | None:
        wants_more_light = (self.side == "allied") == (state.turn == 1)
        return {"action": "prolonged_daylight" if wants_more_light else "nightfall"}

    def _refit(self, state: BattleaxeState, s: Situation, by_name: dict[str, list[Action]]) -> Action | None:
        for name in ("recover", "flip", "rebuild"):
            options = by_name.get(name, [])
            if options:
                return max(options, key=lambda a: s.board.cv(a["unit"], True))
        return {"action": "end_refit"}


NOTES = {"allied": "Good luck! Tobruk first, then Halfaya.", "axis": "Danke. The 88s are waiting at Halfaya."}


def main() -> None:
    os.environ["PBEM_STATE_DIR"] = tempfile.mkdtemp()  # do not touch this machine's record of signed heads
    keys = {seat: sample_key("battleaxe", seat) for seat in SEATS}
    clock = SampleClock("2026-06-15T00:00:00Z")  # a move every minute or so
    nonces = iter(range(10**6))

    def entropy(n: int) -> bytes:  # the join nonces: fixed, so the sample is reproducible (never do this in play)
        return hashlib.sha256(f"pbem sample nonce {next(nonces)}".encode()).digest()[:n]

    HERE.mkdir(exist_ok=True)
    key_dir = HERE / "keys"
    key_dir.mkdir(exist_ok=True)
    for seat, pair in keys.items():
        for old in key_dir.glob(f"{seat}.*"):
            old.unlink()
        save_keypair(pair, key_dir, seat, None)
    scratch = Path(tempfile.mkdtemp()) / "game.jsonl"
    create_game(scratch, RULESET, "campaign", {s: k.public for s, k in keys.items()}, keys["allied"],
                title="Operation Battleaxe: sample game (test keys)", name="Archie", clock=clock,
                entropy=entropy)  # fmt: skip
    lines = scratch.read_bytes().splitlines()

    class Memory:
        path = scratch

        def append(self, line: bytes) -> None:
            lines.append(line)

    verifier = Verifier(knowledge=lambda g, seat, e, k: own_knowledge(keys[seat])(g, seat, e, k))
    for line in lines:
        verifier.feed(line)
    sessions = {
        seat: Session(Memory(), keys[seat], verifier, clock=clock, entropy=entropy)  # type: ignore[arg-type]
        for seat in SEATS
    }
    sessions["axis"].join("Erwin")
    notes = dict(NOTES)  # each seat's first action carries a note to its opponent
    rng = random.Random(1941)
    players = {seat: SensiblePlayer(seat, rng) for seat in SEATS}
    game = verifier.game
    assert game is not None
    progressed = True
    while progressed:
        progressed = False
        for seat in SEATS:
            progressed |= bool(sessions[seat].do_owed())
            state = game.state
            if state is None or game.result is not None or game.waits_for_protocol():
                continue
            if seat in RULESET.to_act(state):
                legal = RULESET.legal_actions(state, seat)
                sessions[seat].act([players[seat].choose(state, legal)], notes.pop(seat, None))
                progressed = True
    report = verifier.report()
    assert report.valid and report.result is not None, [f.render() for f in report.findings[:3]]
    log = HERE / "game.jsonl"
    log.unlink(missing_ok=True)
    write_new_file(log, b"".join(line + b"\n" for line in lines))
    print(f"wrote {log}: {len(lines)} entries; {report.result.outcome}")


if __name__ == "__main__":
    main()
