"""Players who each keep their own copy of a game and exchange only packets."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.client.session import Session, create_game
from pbem.exchange.packet import Packet
from pbem.exchange.transfer import Imported, export_packet, import_packets
from pbem.log.keys import KeyPair
from pbem.log.store import LogStore, read_log
from pbem.rules import registry
from tests.helpers import Clock, Entropy, test_key

__all__ = ["Correspondent", "start_by_mail"]


@dataclass
class Correspondent:
    """One player: a seat, a key, and a private directory holding that player's copy of the log."""

    seat: str
    key: KeyPair
    path: Path
    clock: Clock
    entropy: Entropy = field(default_factory=Entropy)

    def session_do(self, work: Any) -> list[Any]:
        with LogStore.open(self.path) as store:
            return list(work(Session.open(store, self.key, clock=self.clock, entropy=self.entropy)))

    def send(self, to: Correspondent, *, everything: bool = False) -> Packet:
        return export_packet(read_log(self.path)[0], sender=self.seat, recipient=to.seat, everything=everything)

    def receive(self, packet: Packet) -> Imported:
        return import_packets(self.path, [packet])

    def play(self, rng: random.Random) -> bool:
        """Owed protocol work, then one random legal action if it is this seat's turn; True if anything was signed."""

        def work(session: Session) -> list[Any]:
            written = session.do_owed()
            legal = session.legal()
            if legal:
                written += session.act([rng.choice(legal)])
            return written

        return bool(self.session_do(work))


def start_by_mail(root: Path, clock: Clock, game: str = "triad", scenario: str = "duel") -> tuple[Correspondent, ...]:
    """Red creates the game in its own directory; nobody else has a copy yet."""
    ruleset = registry.get(game)
    seats = next(s for s in ruleset.scenarios if s.id == scenario).seats
    players = []
    for spec in seats:
        directory = root / spec.id
        directory.mkdir(parents=True)
        players.append(Correspondent(spec.id, test_key(spec.id), directory / "game.jsonl", clock))
    creator = players[0]
    create_game(
        creator.path, ruleset, scenario, {p.seat: p.key.public for p in players}, creator.key,
        options={"rounds": 2}, clock=clock, entropy=creator.entropy,
    )  # fmt: skip
    return tuple(players)
