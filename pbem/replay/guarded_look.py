"""A game module's look behind the replay's guard (:mod:`pbem.replay.guard`), for reports and replay pages.

Kept apart from the guard itself so that verifying a log never imports the presentation layer (CLI start time):
:meth:`pbem.replay.guard.GuardedRuleset.presentation` imports this module when a report first asks for a look.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pbem.rules.contract import UnitView
from pbem.rules.maps import MapSpec
from pbem.rules.presentation import CounterFace, Presentation

if TYPE_CHECKING:
    from pbem.replay.guard import GuardedRuleset

__all__ = ["GuardedPresentation"]


class GuardedPresentation(Presentation):
    """A module's :class:`~pbem.rules.presentation.Presentation` whose every method call is guarded like the
    ruleset's (an exception in it is one R009 naming the entry shown, never a traceback in a report)."""

    def __init__(self, inner: Presentation, guard: GuardedRuleset):
        # class attributes (style, highlights…) and ``data`` read like the module's own
        vars(self).update({k: getattr(inner, k) for k in dir(inner) if not k.startswith("_")
                           and not callable(getattr(inner, k))})  # fmt: skip
        self.inner = inner
        self.guard = guard

    def map_spec(self) -> MapSpec:
        return self.guard._call("presentation.map_spec", self.inner.map_spec)

    def face(self, unit: UnitView) -> CounterFace:
        return self.guard._call("presentation.face", self.inner.face, unit)

    def __getattr__(self, name: str) -> Any:
        """A method the module's presentation adds beyond the base class, guarded too."""
        value = getattr(self.inner, name)
        if not callable(value):
            return value
        return lambda *args, **kwargs: self.guard._call(f"presentation.{name}", value, *args, **kwargs)


def _presentation_forwarder(name: str) -> Callable[..., Any]:
    def forward(self: GuardedPresentation, *args: Any, **kwargs: Any) -> Any:
        return self.guard._call(f"presentation.{name}", getattr(self.inner, name), *args, **kwargs)

    forward.__name__ = forward.__qualname__ = name
    return forward


def _forward_the_rest() -> None:
    """Forward every other public method of :class:`Presentation` (with its default or the module's override),
    so that a method the base class gains later is guarded too instead of silently running the base default."""
    for name, member in vars(Presentation).items():
        if callable(member) and not name.startswith("_") and name not in vars(GuardedPresentation):
            setattr(GuardedPresentation, name, _presentation_forwarder(name))


_forward_the_rest()
