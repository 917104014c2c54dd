"""A turn being put together before it is signed: choices, compound choices, undo.

Nothing here is signed or written: every step is tried on a clone of the replay (after the protocol work the
seat owes), so what the player sees is exactly what the verifier will accept. Signing is
:meth:`pbem.client.session.Session.act` with the whole batch, as one entry.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pbem.client.session import Session
from pbem.errors import PbemError
from pbem.log.entry import Envelope
from pbem.replay.game import Game
from pbem.rules.contract import Action, Branch, Choices, Event, Ruleset

__all__ = ["Builder", "Choice", "Entry", "Turn"]


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
        stacks = [choice for kind in tree.options for choice in self.stacks(kind)]
        return [*stacks, *(Choice(ruleset.describe(a), (a,)) for a in tree.actions())]

    def builder(self) -> Builder | None:
        """A step-by-step menu over the rules' choice tree (None once the seat must wait)."""
        if self.must_wait():
            return None
        game = self.game()
        assert game.state is not None
        return Builder(self, game.ruleset, game.state, game.ruleset.choices(game.state, self.session.seat))

    def stacks(self, kind: Branch) -> list[Choice]:
        """The members of a group under ``kind`` in the rules' choice tree (units of one stack, say) that may all
        take the same last step (move to one place), offered as one choice if they are legal together."""
        if kind.then is None:
            return []
        found = []
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
                        steps.setdefault(_key(step.value), []).append((member, step))
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


def _worded(level: Choices | None, branch: Branch) -> str:
    """A chosen value in a choice's summary: a yes/no with its question (``Rommel bonus: no``), else its label."""
    if isinstance(branch.value, bool) and level is not None:
        return f"{level.title}: {branch.label}"
    return branch.label


def _key(value: Any) -> str:
    """A JSON value as a dictionary key (values compare as JSON, never as Python's ``True == 1``)."""
    return json.dumps(value, sort_keys=True)


@dataclass(frozen=True)
class Entry:
    """One line of a :class:`Builder` menu: a value of the field, one item of a list field, or a whole stack."""

    label: str
    branch: Branch | None = None
    item: Any = None
    stack: Choice | None = None


@dataclass
class Builder:
    """One choice put together a field at a time from the rules' choice tree: the action kind, then each field's
    legal values as the game names them. A list field (an assault's areas) is picked one item at a time, with a
    "done" entry whenever the items so far make a legal action, so the player never reads every combination."""

    turn: Turn
    ruleset: Ruleset[Any]
    state: Any
    root: Choices
    path: list[Branch] = field(default_factory=list)
    items: list[Any] = field(default_factory=list)

    @property
    def level(self) -> Choices:
        """The field being chosen now."""
        then = self.path[-1].then if self.path else self.root
        assert then is not None
        return then

    def _listed(self) -> bool:
        options = self.level.options
        return bool(self.path) and bool(options) and all(isinstance(o.value, list) for o in options)

    def title(self) -> str:
        """The question, with what is chosen so far: ``assault · Active Area(s) (so far: Area 3 (Sidi Omar))``."""
        if not self.path:
            return "Choose an action"
        chosen = " · ".join(b.label for b in self.path)
        so_far = ", ".join(self.ruleset.label(self.state, self.level.field, i) for i in self.items)
        return f"{chosen} · {self.level.title}" + (f" (so far: {so_far})" if so_far else "")

    def entries(self) -> list[Entry]:
        """The menu at this step: a whole stack first, then the field's values (or a list field's next items)."""
        stacks = [Entry(c.label, stack=c) for c in self.turn.stacks(self.path[-1])] if len(self.path) == 1 else []
        if not self._listed():
            return [*stacks, *(Entry(b.label, branch=b) for b in self.level.options)]
        found: dict[str, Entry] = {}
        done = None
        for branch in self.level.options:
            rest = Counter(_key(v) for v in branch.value)
            rest.subtract(_key(i) for i in self.items)
            if any(n < 0 for n in rest.values()):
                continue  # this value lacks an item already picked
            if not +rest:
                done = branch
            for item in branch.value:
                if rest[_key(item)] > 0:
                    label = self.ruleset.label(self.state, self.level.field, item)
                    found.setdefault(_key(item), Entry(label, item=item))
        finish = [Entry(f"done: {done.label or 'none'}", branch=done)] if done is not None else []
        return [*stacks, *found.values(), *finish]

    def pick(self, entry: Entry) -> Choice | None:
        """Take ``entry``: the complete choice if it finishes one, else None (the menu moves on a step)."""
        if entry.stack is not None:
            return entry.stack
        if entry.branch is None:
            self.items.append(entry.item)
            following = self.entries()
            if len(following) == 1 and following[0].branch is not None:  # nothing can be added: it is complete
                return self.pick(following[0])
            return None
        self.items = []
        if entry.branch.action is not None:
            levels = [self.root, *(b.then for b in self.path)]
            words = [_worded(level, b) for level, b in zip(levels, [*self.path, entry.branch], strict=True)]
            return Choice(" ".join(words), (entry.branch.action,))
        self.path.append(entry.branch)
        return None

    def back(self) -> bool:
        """Take back the last part picked; False if nothing of this choice was picked yet."""
        if self.items:
            self.items.pop()
        elif self.path:
            self.path.pop()
        else:
            return False
        return True
