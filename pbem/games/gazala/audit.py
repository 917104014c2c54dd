"""The audit of Gazala's secret choices (notes §7.2 M3): the first illegal one, its entry and its seat.

A secret choice (an Assigned or Dummy marker, §5.5.2) is checked at once only by its owner's replay; everybody
else checks it when its slot is opened (:func:`~pbem.games.gazala.assignments.reveal`), and a replay that knows
every disclosed game secret refuses the entry that made it (R001). The openings record each illegal choice as a
:class:`~pbem.games.gazala.state.Violation`; :func:`audit` names the first, and :func:`unopened` lists the secret
choices still closed (none once the game has ended: every segment's markers are opened before its Replacement
Segment), which a verifier can only check with the disclosed secrets.
"""

from __future__ import annotations

from pbem.games.gazala.state import GazalaState, Violation

__all__ = ["audit", "unopened"]


def audit(state: GazalaState) -> Violation | None:
    """The first illegal secret choice found so far: its slot names the entry that committed it (the entry whose
    ``sealed`` carries the slot's first version), ``seat`` who made it, the rule and the reason; None if every
    opened choice was legal."""
    return state.violations[0] if state.violations else None


def unopened(state: GazalaState) -> tuple[str, ...]:
    """The slots of secret choices not opened yet."""
    return tuple(m.slot for m in state.markers)
