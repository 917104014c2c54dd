"""A turn being put together before it is signed: choices, compound choices, undo.

Nothing here is signed or written: every step is tried on a clone of the replay (after the protocol work the
seat owes), so what the player sees is exactly what the verifier will accept. Signing is
:meth:`pbem.client.session.Session.act` with the whole batch, as one entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.client.session import Session
from pbem.errors import PbemError
from pbem.log.entry import Envelope
from pbem.replay.game import Game
from pbem.rules.contract import Action, Event

__all__ = ["Choice", "Turn"]


@dataclass(frozen=True)
class Choice:
    """What the player picks: one atomic action, or several that go together (a stack moving as one)."""

    label: str
    actions: tuple[Action, ...]


@dataclass
class Turn:
    """The batch ``session``'s seat is building; :meth:`options` is empty once the seat must wait."""

    session: Session
    steps: list[Choice] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    _trial: Game | None = None

    @property
    def actions(self) -> list[Action]:
        return [a for step in self.steps for a in step.actions]

    def game(self) -> Game:
        """The game as it would be after the protocol work owed and the batch so far."""
        if self._trial is None:
            self._trial, self.events = self.session.try_batch(self.actions)
        return self._trial

    def must_wait(self) -> bool:
        game = self.game()
        if game.state is None or game.result is not None or game.waits_for_protocol():
            return True
        return self.session.seat not in game.ruleset.to_act(game.state)

    def options(self) -> list[Choice]:
        """Compound choices first (each tried as a whole), then every legal atomic action."""
        if self.must_wait():
            return []
        game = self.game()
        state = game.state
        assert state is not None
        ruleset = game.ruleset
        legal = ruleset.legal_actions(state, self.session.seat)
        return [*self._stacks(game, legal), *(Choice(ruleset.describe(a), (a,)) for a in legal)]

    def _stacks(self, game: Game, legal: list[Action]) -> list[Choice]:
        """Moves of several units from one location to the same place, offered as one choice if legal together.

        Any game whose move actions are ``{"action", "unit", "to"}`` gets these.
        """
        state = game.state
        assert state is not None
        view = game.ruleset.view(state, self.session.seat)
        where = {u.id: u.location for u in view.units}
        names = {u.id: u.name for u in view.units}
        groups: dict[tuple[Any, Any, Any], list[Action]] = {}
        for action in legal:
            if set(action) == {"action", "unit", "to"} and where.get(str(action["unit"])):
                groups.setdefault((action["action"], where[str(action["unit"])], action["to"]), []).append(action)
        stacks = []
        for (verb, src, dst), moves in groups.items():
            if len(moves) < 2 or not self._legal_together(moves):
                continue
            units = ", ".join(names.get(str(m["unit"]), str(m["unit"])) for m in moves)
            label = f"{str(verb).replace('_', ' ')} the stack from {src} to {dst} ({len(moves)} units: {units})"
            stacks.append(Choice(label, tuple(moves)))
        return stacks

    def _legal_together(self, moves: list[Action]) -> bool:
        try:
            self.session.try_batch([*self.actions, *moves])
        except PbemError:
            return False
        return True

    def choose(self, choice: Choice) -> None:
        """Add ``choice`` to the batch (it was offered, so it is legal)."""
        self.steps.append(choice)
        self._trial = None

    def undo(self) -> Choice | None:
        """Take back the last choice (only before signing)."""
        if not self.steps:
            return None
        self._trial = None
        return self.steps.pop()

    def sign(self, note: str | None = None) -> list[Envelope]:
        """Sign the whole batch as one entry (after any owed protocol work), then any work that follows."""
        return self.session.act(self.actions, note)
