"""A step machine for sequences of play: phases, actions and a stack of pending decisions, declared as data.

Instead of dispatching on formatted method names, a game declares:

* its **actions**, each with :func:`action`: the pydantic model (discriminated on its ``action`` Literal), a
  generator of candidate instances, a ``can_<action>`` predicate returning the contract's
  :class:`~pbem.rules.contract.Verdict`, and an effect returning a new state and events
  (:class:`~pbem.rules.contract.Step`);
* its **phases** (:class:`Phase`): which actions each allows and whose turn it is;
* its **interrupts** (:class:`Interrupt`): decisions that suspend the sequence of play (a reaction, a retreat,
  loss allocation, a choice by the non-moving player). A pending decision is a :class:`Pending` record on a stack
  in the frozen state (:attr:`MachineState.pending`); the top one names the seat that decides and which actions
  it may take. Effects push and pop them (:func:`push`, :func:`pop`, :func:`replace_top`).

The :class:`Machine` then gives the contract's answers: :meth:`Machine.to_act`, :meth:`Machine.legal_actions`
(candidates filtered by their predicate, so what a player is offered and what the verifier accepts cannot drift
apart), :meth:`Machine.check` / :meth:`Machine.contains` (one action, dispatched on its name to its predicate,
without enumerating anything) and :meth:`Machine.apply` (which checks first: there is no unchecked path).
Actions arrive as models or as the plain JSON objects of the log, parsed by a ``TypeAdapter`` of the union.

Example (``tests/kit/game.py`` is a complete game)::

    MACHINE = Machine(
        adapter=TypeAdapter(DuelAction),
        rule="2",
        phases=(Phase("battle", ("advance", "attack", "pass"), rule="3", to_act=lambda s: (s.active,)),),
        interrupts=(Interrupt("defend", ("hold", "withdraw"), rule="5.2"),),
        actions=(action(Attack, legal=attacks, can=can_attack, effect=attack), ...),
    )
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, SerializeAsAny, TypeAdapter, ValidationError

from pbem.errors import ActionError, PbemError
from pbem.rules.contract import GameState, Outcome, Step, Verdict, deny, updated

__all__ = [
    "ActionSpec",
    "Interrupt",
    "Machine",
    "MachineState",
    "Pending",
    "Phase",
    "action",
    "action_name",
    "pop",
    "push",
    "replace_top",
    "top",
]


class Pending(BaseModel):
    """A decision the sequence of play waits for: its ``kind`` (an :class:`Interrupt`) and the ``seat`` deciding.

    Games subclass it with a ``kind`` Literal and the facts the decision needs (the attack it answers, the hits
    still to allocate), and narrow :attr:`MachineState.pending` to the union of their subclasses.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    kind: str
    seat: str


class MachineState(GameState):
    """The base of a state the machine runs: the current ``phase`` and the stack of pending decisions (top last).

    A game narrows both: ``phase: Literal["movement", "combat"]``, ``pending: tuple[Defend | Allocate, ...] = ()``.
    """

    phase: str
    pending: tuple[SerializeAsAny[Pending], ...] = ()


S = TypeVar("S", bound=MachineState)
A = TypeVar("A", bound=BaseModel)
X = TypeVar("X", bound=BaseModel)
P = TypeVar("P", bound=Pending)


def action_name(model: type[BaseModel]) -> str:
    """The ``action`` Literal of an action model (``class Attack: action: Literal["attack"]`` -> ``"attack"``).

    Raises:
        TypeError: the model has no ``action`` field with a single Literal value.
    """
    info = model.model_fields.get("action")
    values = get_args(info.annotation) if info is not None else ()
    if len(values) != 1 or not isinstance(values[0], str):
        raise TypeError(f"{model.__name__} needs a field action: Literal['<name>']")
    return values[0]


def _name_of(act: BaseModel) -> str | None:
    name = act.__dict__.get("action")
    return name if isinstance(name, str) else None


@dataclass(frozen=True)
class ActionSpec(Generic[S]):
    """One action of a game, as :func:`action` declares it (its callables take that action's own model)."""

    name: str
    model: type[BaseModel]
    legal: Callable[[S, str], Iterable[Any]]
    can: Callable[[S, str, Any], Verdict]
    effect: Callable[[S, str, Any], Step[S]]


def action(
    model: type[X],
    *,
    legal: Callable[[S, str], Iterable[X]],
    can: Callable[[S, str, X], Verdict],
    effect: Callable[[S, str, X], Step[S]],
) -> ActionSpec[S]:
    """Declare an action.

    Args:
        model: its pydantic model, with an ``action`` Literal field.
        legal: the candidate instances a seat might take now (the machine keeps those ``can`` allows).
        can: the ``can_<action>`` predicate: ALLOW, or ``deny(rule, reason, message)``.
        effect: the new state and the events; called only after ``can`` allowed the action.
    """
    return ActionSpec(name=action_name(model), model=model, legal=legal, can=can, effect=effect)


@dataclass(frozen=True)
class Phase(Generic[S]):
    """A step of the sequence of play: the actions it allows, its rule, and whose turn it is."""

    name: str
    actions: tuple[str, ...]
    rule: str
    to_act: Callable[[S], tuple[str, ...]]


@dataclass(frozen=True)
class Interrupt(Generic[S]):
    """A kind of pending decision: the actions its seat may take, and its rule.

    An interrupt with ``resume`` waits for dice (or openings) instead of a seat: the effect that pushes it also
    sets ``state.rolls``; no seat acts while it is on top, and :meth:`Machine.resume` hands the outcome to
    ``resume`` (which pops or replaces it, like any effect).
    """

    kind: str
    actions: tuple[str, ...]
    rule: str
    resume: Callable[[S, Outcome], Step[S]] | None = None


@dataclass(frozen=True, slots=True)
class _Allowed:
    """The last (state, seat, action) :meth:`Machine.check` allowed, and the action's declaration.

    States and actions are immutable, and a predicate depends on nothing else, so applying these very objects needs
    no second check. Held by weak reference: the machine outlives every game and must keep none of them alive.
    """

    state: weakref.ref[Any]
    seat: str
    act: weakref.ref[Any]
    spec: ActionSpec[Any]

    @staticmethod
    def of(state: Any, seat: str, act: Any, spec: ActionSpec[Any]) -> _Allowed | None:
        try:
            return _Allowed(weakref.ref(state), seat, weakref.ref(act), spec)
        except TypeError:  # an object that cannot be weakly referenced: not remembered
            return None

    def holds(self, state: Any, seat: str, act: Any) -> bool:
        return self.act() is act and self.state() is state and self.seat == seat


@dataclass(frozen=True)
class Machine(Generic[S, A]):
    """The sequence of play of one game, from its declared phases, interrupts and actions.

    Attributes:
        adapter: a ``TypeAdapter`` of the game's action union (discriminated on ``action``), for logged JSON.
        rule: the rule of the sequence of play, cited when a seat acts out of turn or sends a malformed action.
        phases, interrupts, actions: the declarations.
        phase_of: the name of the phase a state is in (default: its ``phase`` field), for a game whose state
            already names its steps otherwise (Battleaxe's ``step``, which its signed checkpoints hash).

    Raises:
        ValueError: a phase or interrupt names an undeclared action, or a name is declared twice.
    """

    adapter: TypeAdapter[A]
    rule: str
    phases: tuple[Phase[S], ...]
    interrupts: tuple[Interrupt[S], ...]
    actions: tuple[ActionSpec[S], ...]
    phase_of: Callable[[S], str] = field(default=lambda state: state.phase)
    _phases: dict[str, Phase[S]] = field(init=False, repr=False)
    _interrupts: dict[str, Interrupt[S]] = field(init=False, repr=False)
    _specs: dict[str, ActionSpec[S]] = field(init=False, repr=False)
    _allowed: list[_Allowed | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        specs: dict[str, ActionSpec[S]] = {}
        for spec in self.actions:
            if spec.name in specs:
                raise ValueError(f"action {spec.name!r} is declared twice")
            specs[spec.name] = spec
        phases = {p.name: p for p in self.phases}
        interrupts = {i.kind: i for i in self.interrupts}
        if len(phases) != len(self.phases) or len(interrupts) != len(self.interrupts):
            raise ValueError("a phase or interrupt is declared twice")
        for where, names in [
            *((p.name, p.actions) for p in self.phases),
            *((i.kind, i.actions) for i in self.interrupts),
        ]:
            unknown = [n for n in names if n not in specs]
            if unknown:
                raise ValueError(f"{where} allows undeclared actions {unknown}")
        for waits in self.interrupts:
            if waits.resume is not None and waits.actions:
                raise ValueError(f"{waits.kind} waits for dice, so no seat can act in it")
        object.__setattr__(self, "_phases", phases)
        object.__setattr__(self, "_interrupts", interrupts)
        object.__setattr__(self, "_specs", specs)
        object.__setattr__(self, "_allowed", [None])

    # --- where the game is -------------------------------------------------------------------------------------
    def _now(self, state: S) -> tuple[Phase[S] | Interrupt[S], tuple[str, ...]]:
        """The phase or top interrupt in force, and the seats it waits for (none while dice are awaited)."""
        if state.pending:
            top = state.pending[-1]
            interrupt = self._interrupts[top.kind]
            return interrupt, (() if interrupt.resume is not None else (top.seat,))
        phase = self._phases[self.phase_of(state)]
        return phase, phase.to_act(state)

    def to_act(self, state: S) -> tuple[str, ...]:
        """The seats whose decision the game waits for: the top pending decision's seat, else the phase's."""
        return self._now(state)[1]

    def allowed(self, state: S) -> tuple[str, ...]:
        """The action names the phase or top pending decision allows now."""
        return self._now(state)[0].actions

    # --- legality ----------------------------------------------------------------------------------------------
    def parse(self, raw: Mapping[str, object] | A) -> A | Verdict:
        """An action model from a logged JSON object, or a refusal (reason ``malformed``) naming the field.

        The object is read with JSON's rules (a JSON array fills a tuple field; nothing is coerced), as the log
        carries it.
        """
        if isinstance(raw, BaseModel):
            return raw
        try:
            text = json.dumps(raw, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as exc:
            return deny(self.rule, "malformed", f"not a JSON object: {exc}")
        try:
            return self.adapter.validate_json(text)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(map(str, first["loc"])) or "action"
            return deny(self.rule, "malformed", f"{where}: {first['msg']}")

    def legal_actions(self, state: S, seat: str) -> list[A]:
        """Every legal action of ``seat`` now, in the declared order: each action's candidates that its predicate
        allows."""
        where, seats = self._now(state)
        if seat not in seats:
            return []
        found: list[A] = []
        for name in where.actions:
            spec = self._specs[name]
            found.extend(act for act in spec.legal(state, seat) if spec.can(state, seat, act).ok)
        return found

    def check(self, state: S, seat: str, act: Mapping[str, object] | A) -> Verdict:
        """Whether ``seat`` may take ``act`` now, asking only that action's predicate.

        An allowed action is remembered (see :class:`_Allowed`): the replay asks :meth:`check` and then applies
        these very objects, and :meth:`apply` need not ask the predicate a second time.
        """
        verdict, spec, parsed = self._decide(state, seat, act)
        if spec is not None and parsed is not None:
            self._allowed[0] = _Allowed.of(state, seat, parsed, spec)
        return verdict

    def _decide(
        self, state: S, seat: str, act: Mapping[str, object] | A
    ) -> tuple[Verdict, ActionSpec[S] | None, A | None]:
        """The verdict, and for an allowed action its declaration and parsed model."""
        parsed = self.parse(act)
        if isinstance(parsed, Verdict):
            return parsed, None, None
        where, seats = self._now(state)
        if seat not in seats:
            waited = ", ".join(seats) or "no seat"
            return deny(self.rule, "not-your-turn", f"the game waits for {waited}, not {seat}"), None, parsed
        name = _name_of(parsed)
        if name is None:
            return deny(self.rule, "malformed", f"{type(parsed).__name__} is not an action model"), None, parsed
        if name not in where.actions:
            label = where.name if isinstance(where, Phase) else f"the pending {where.kind}"
            return deny(where.rule, "not-now", f"{name} is not an action of {label}"), None, parsed
        spec = self._specs[name]
        if not isinstance(parsed, spec.model):
            return deny(self.rule, "malformed", f"{name} is not a {spec.model.__name__}"), None, parsed
        verdict = spec.can(state, seat, parsed)
        return verdict, spec if verdict.ok else None, parsed

    def contains(self, state: S, seat: str, act: Mapping[str, object] | A) -> bool:
        """Whether ``act`` is one of :meth:`legal_actions` (decided by :meth:`check`, without enumerating)."""
        return self.check(state, seat, act).ok

    def apply(self, state: S, seat: str, act: Mapping[str, object] | A, *, checked: S | None = None) -> Step[S]:
        """Check ``act`` and apply its effect.

        ``checked``: the state :meth:`check` was asked of, when the effect runs on a copy of it that differs only in
        the game's own bookkeeping no predicate reads (Rommel counts the actions for its claims), so the verdict just
        given still stands.

        Raises:
            ActionError: R004 malformed, R002 not the seat's turn, R001 illegal (with the rule that refuses it).
        """
        allowed = self._allowed[0]
        if allowed is not None and allowed.holds(state if checked is None else checked, seat, act):
            return allowed.spec.effect(state, seat, act)  # check() has just allowed these very objects
        verdict, spec, parsed = self._decide(state, seat, act)
        if spec is None or parsed is None:
            code = {"malformed": "R004", "not-your-turn": "R002"}.get(verdict.reason, "R001")
            rule = f"§{verdict.rule}" if verdict.rule else None  # as the replay cites rules
            raise ActionError(code, f"{verdict.reason}: {verdict.message}", rule=rule)
        return spec.effect(state, seat, parsed)

    def resume(self, state: S, outcome: Outcome) -> Step[S]:
        """Go on after the dice (or openings) the top pending decision waits for.

        Raises:
            PbemError: R008 if nothing pending waits for dice (the engine and the game disagree: a bug).
        """
        waiting = self._interrupts[state.pending[-1].kind].resume if state.pending else None
        if waiting is None:
            raise PbemError("R008", f"resume called, but no pending decision waits for dice (phase {state.phase})")
        return waiting(state, outcome)

    def dump(self, act: A) -> dict[str, Any]:
        """The JSON object of an action, as the log carries it."""
        dumped: dict[str, Any] = self.adapter.dump_python(act, mode="json")
        return dumped


# --- the pending stack -----------------------------------------------------------------------------------------


def push(state: S, *items: Pending) -> S:
    """``state`` with ``items`` on top of its pending stack (the last one decided first)."""
    return updated(state, {"pending": (*state.pending, *items)})


def pop(state: S) -> S:
    """``state`` without its top pending decision.

    Raises:
        ValueError: nothing is pending.
    """
    if not state.pending:
        raise ValueError("no pending decision to pop")
    return updated(state, {"pending": state.pending[:-1]})


def replace_top(state: S, item: Pending | None) -> S:
    """``state`` with its top pending decision replaced by ``item`` (None: popped), e.g. fewer hits left."""
    rest = pop(state).pending
    return updated(state, {"pending": rest if item is None else (*rest, item)})


def top(state: MachineState, kind: type[P]) -> P:
    """The top pending decision, which must be a ``kind`` (an effect's precondition; TypeError otherwise)."""
    item = state.pending[-1] if state.pending else None
    if not isinstance(item, kind):
        raise TypeError(f"the top pending decision is {item!r}, not a {kind.__name__}")
    return item
