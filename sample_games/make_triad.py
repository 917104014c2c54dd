"""Re-create sample_games/triad: a four-seat Triad game (two against two) played by email, packet by packet.

    python sample_games/make_triad.py        (or: make sample)

Four scripted players, each with its own copy of the log, exchange only armoured packets, as email bodies
carry them (sample_games/triad/packets/), and roll their dice with one seat per opposing team (the team dice
quorum). The players are simple but sensible: they keep the largest reserve, block rather than dodge, heal
with their best card when hurt, give cards to a teammate with an empty hand, and otherwise strike the weakest
enemy still standing. The keys are TEST KEYS derived from public seeds (keys/README.md): never use them for a
real game. The clock and the join nonces are fixed, so the script writes the same bytes every time.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.client.scripted import ScriptedGame, play_by_packets
from pbem.games.triad.ruleset import RULESET, TriadState
from pbem.rules.contract import Action, Ruleset
from sample_games._scripted import play_and_report

HERE = Path(__file__).parent / "triad"
NAMES = {"red": "Ada", "blue": "Ben", "green": "Cleo", "yellow": "Dan"}
NOTES = {"red": "Good luck, all.", "blue": "Blue and yellow will hold.", "green": "Red, I have your back."}


class SensiblePlayer:
    """Chooses among the legal actions with a few rules of thumb (it only picks: never an illegal move)."""

    def choose(self, state: TriadState, seat: str, legal: Sequence[Action], ruleset: Ruleset[Any]) -> Action:
        by_name: dict[str, list[Action]] = {}
        for action in legal:
            by_name.setdefault(str(action["action"]), []).append(action)
        if "choose_reserve" in by_name:  # T1.1: the largest reserve scores most at the end (T8.2)
            return max(by_name["choose_reserve"], key=lambda a: int(a["value"]))
        if "defend" in by_name:  # T3.2: a block doubles the defence and never loses reserve (T3.5)
            return next(a for a in by_name["defend"] if a["stance"] == "block")
        health = state.health[seat]
        cards = [(state.hidden[a["card"]].value["card"][0], a) for a in by_name.get("play", [])]
        if cards and health <= state.data.health - 4:  # T5.2: heal with the best card once hurt
            return max(cards, key=lambda c: int(c[0]))[1]
        friends = [a for a in by_name.get("gift", []) if not state.hand[a["target"]]]
        if friends and health >= state.data.health - 2:  # T11.1: arm a teammate with an empty hand
            return friends[0]
        targets = by_name.get("attack", [])
        if targets and health >= 5:  # T3.1: strike the weakest enemy still in
            return min(targets, key=lambda a: (state.health[a["target"]], a["target"]))
        for name in ("draw", "fortify", "pass"):
            if name in by_name:
                return by_name[name][0]
        return legal[0]


def play() -> ScriptedGame:
    return play_by_packets(
        RULESET, "pairs", {seat: SensiblePlayer() for seat in NAMES}, HERE, options={"rounds": 3}, team_dice=True,
        title="Triad, two against two: sample game by packets (test keys)", names=NAMES, notes=NOTES,
    )  # fmt: skip


def main() -> None:
    play_and_report(play)


if __name__ == "__main__":
    main()
