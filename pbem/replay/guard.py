"""The one place where the replay calls game-module code, so that a bug in a module can never crash pbem.

:class:`GuardedRuleset` wraps a :class:`~pbem.rules.contract.Ruleset` and forwards every contract call to it.
A :class:`~pbem.errors.PbemError` the module raises passes through unchanged (it already has a code); any
other exception becomes one R009 error naming the call, the entry being replayed (line and author#seq) and the
module's message, with "this is a bug in the game module, please report it". Verification, import, reports and
tournament verification all reach the module through :attr:`pbem.replay.game.Game.ruleset`, so they all get
this guard without catching anything themselves. A module's look (reports, replay pages) is guarded the same way
by :mod:`pbem.replay.guarded_look`, which only a report imports.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from pbem.errors import PbemError
from pbem.rules.contract import Action, Result, Ruleset, Step, View

if TYPE_CHECKING:  # the look is imported only by reports (CLI start time: verifying never needs it)
    from pbem.rules.presentation import Presentation

__all__ = ["GuardedRuleset", "Where", "module_bug"]

P = ParamSpec("P")
T = TypeVar("T")

_MESSAGE_LIMIT = 300  # a module's message may be huge (a repr of its state); the first part identifies it


@dataclass
class Where:
    """The entry being replayed, for messages: its line and author#seq (None before any entry)."""

    line: int | None = None
    author: str | None = None
    seq: int | None = None

    def describe(self) -> str:
        if self.line is None:
            return "while setting up the game"
        who = f" ({self.author}#{self.seq})" if self.author is not None and self.seq is not None else ""
        return f"at line {self.line}{who}"


def module_bug(game: str, call: str, exc: BaseException, where: str) -> PbemError:
    """The R009 error for ``exc`` raised by module ``game`` in ``call``."""
    text = str(exc)
    if len(text) > _MESSAGE_LIMIT:
        text = text[:_MESSAGE_LIMIT] + "…"
    return PbemError(
        "R009",
        f"{game}.{call}() raised {type(exc).__name__}: {text} {where}; "
        "this is a bug in the game module, please report it",
    )


def _forwarder(name: str) -> Callable[..., Any]:
    """The guarded form of contract method ``name``: the module's own, with any exception but a PbemError
    turned into R009 (as :meth:`GuardedRuleset._call` does; inlined here, since this is the hot path)."""

    def forward(self: GuardedRuleset, *args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(self.inner, name)(*args, **kwargs)
        except PbemError:
            raise
        except Exception as exc:  # the point of the guard: any other exception is a bug in the module
            raise module_bug(self.inner.id, name, exc, self.where.describe()) from exc

    forward.__name__ = forward.__qualname__ = name
    return forward


_HOT = ("to_act", "secret_fields", "parse_action", "contains", "apply", "resume", "period", "result")
"""The calls the replay makes for every entry or action: bound once per guard (see :func:`_bound`)."""


def _bound(guard: GuardedRuleset, name: str) -> Callable[..., Any]:
    """:func:`_forwarder`'s guard around the module's method ``name`` already bound: the replay asks these for
    every action, and looking the method up on each call cost as much as the guard itself."""
    method = getattr(guard.inner, name)

    def forward(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except PbemError:
            raise
        except Exception as exc:  # the point of the guard: any other exception is a bug in the module
            raise module_bug(guard.inner.id, name, exc, guard.where.describe()) from exc

    forward.__name__ = forward.__qualname__ = name
    return forward


class GuardedRuleset(Ruleset[Any]):
    """``inner`` behind the guard (see the module docstring); ``where`` says which entry is being replayed."""

    def __init__(self, inner: Ruleset[Any], where: Where):
        # The ruleset's class attributes (id, name, scenarios, actions…) are copied onto this instance, so
        # ``guarded.id`` reads like ``inner.id``.
        vars(self).update({name: getattr(inner, name) for name in Ruleset.__annotations__})
        self.inner = inner
        self.where = where
        vars(self).update({name: _bound(self, name) for name in _HOT})

    def rebind(self, where: Where) -> GuardedRuleset:
        """The same module behind a guard that reports ``where`` (for a cloned replay)."""
        return GuardedRuleset(self.inner, where)

    def _call(self, call: str, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return fn(*args, **kwargs)
        except PbemError:
            raise
        except Exception as exc:  # the point of this class: any other exception is a bug in the module
            raise module_bug(self.inner.id, call, exc, self.where.describe()) from exc

    # --- the contract's abstract methods, forwarded (the others are forwarded by _forward_the_rest) ---------
    # Each is a forwarder (above), not a method calling _call: the replay asks the module several times per
    # action, and the guard then costs one Python call per question instead of three.
    default_data: Callable[..., bytes] = _forwarder("default_data")
    load_data: Callable[..., Any] = _forwarder("load_data")
    setup: Callable[..., Any] = _forwarder("setup")
    to_act: Callable[..., tuple[str, ...]] = _forwarder("to_act")
    legal_actions: Callable[..., list[Action]] = _forwarder("legal_actions")
    apply: Callable[..., Step[Any]] = _forwarder("apply")
    resume: Callable[..., Step[Any]] = _forwarder("resume")
    view: Callable[..., View] = _forwarder("view")
    result: Callable[..., Result | None] = _forwarder("result")

    def presentation(self, data: Any) -> Presentation | None:
        """The module's look, behind the same guard (reports call its methods while rendering)."""
        look = self._call("presentation", self.inner.presentation, data)
        if look is None:
            return None
        from pbem.replay.guarded_look import GuardedPresentation  # reports only: not imported to verify

        return GuardedPresentation(look, self)


def _forward_the_rest() -> None:
    """Forward every other public method of the contract (with its default or the module's override), so that
    a method the contract gains later is guarded too instead of silently running the base default."""
    for name, member in vars(Ruleset).items():
        if callable(member) and not name.startswith("_") and name not in vars(GuardedRuleset):
            setattr(GuardedRuleset, name, _forwarder(name))


_forward_the_rest()
