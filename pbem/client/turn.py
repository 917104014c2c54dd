"""A turn being put together before it is signed: choices, compound choices, undo.

Nothing here is signed or written: every step is tried on a clone of the replay (after the protocol work the
seat owes), so what the player sees is exactly what the verifier will accept. Signing is
:meth:`pbem.client.session.Session.act` with the whole batch, as one entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.client.session import Session
from pbem.errors import PbemError
from pbem.log.entry import Envelope
from pbem.replay.game import Game
from pbem.rules.contract import Action, Branch, Choices, Event

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
        tree = ruleset.choices(state, self.session.seat)
        return [*self._groups(tree), *(Choice(ruleset.describe(a), (a,)) for a in tree.actions())]

    def _groups(self, tree: Choices) -> list[Choice]:
        """The members of a group in the rules' choice tree (units of one stack, say) that may all take the same
        last step (move to one place), offered as one choice if they are legal together."""
        found = []
        for kind in tree.options:
            if kind.then is None:
                continue
            groups: dict[str, list[Branch]] = {}
            for member in kind.then.options:
                if member.group is not None and member.then is not None:
                    groups.setdefault(member.group, []).append(member)
            for group, members in groups.items():
                if len(members) < 2:
                    continue
                steps: dict[str, list[tuple[Branch, Branch]]] = {}
                for member in members:
                    assert member.then is not None
                    for step in member.then.options:
                        if step.action is not None:
                            steps.setdefault(repr(step.value), []).append((member, step))
                for together in steps.values():
                    moves = tuple(step.action for _, step in together if step.action is not None)
                    if len(moves) < 2 or not self._legal_together(list(moves)):
                        continue
                    names = ", ".join(member.label for member, _ in together)
                    where = together[0][1].label
                    label = f"{kind.label} the stack from {group} to {where} ({len(moves)} units: {names})"
                    found.append(Choice(label, moves))
        return found

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
