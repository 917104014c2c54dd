"""Pieces a power operates besides its own: Free French units, owned by the United States player and moved and
attacking as US units on the US turn (p.29).

An action names the acting power's own pieces by unit type (``"infantry"``), as everywhere, and a piece of
another power it operates by its ``"power:type"`` key (``"france:infantry"``), so the wire form of every action
stays one string. French pieces serve the side :attr:`.state.AxisState.french` says for their space (Vichy, the
Axis, unless they surrendered or were requisitioned as Free French); an allegiance of the pack says which power
operates them and whether they may move and attack.
"""

from __future__ import annotations

from pbem.games.axisallies.state import AxisState, Counts, split

__all__ = ["french_side", "moved_french", "name", "operated_pieces", "operates", "resolve"]


def resolve(state: AxisState, unit: str) -> tuple[str, str]:
    """(power, type) of a unit named in an action by the acting power. Its own pieces have one name only, the
    type: ``"<its power>:type"`` resolves to no unit of its chart (so it is refused as unknown, and what is
    accepted stays what is offered)."""
    if ":" not in unit:
        return state.power, unit
    power, type_ = split(unit)
    return (power, unit) if power == state.power else (power, type_)


def name(state: AxisState, unit_key: str) -> str:
    """How an action of the acting power names the piece ``unit_key`` (its own by type)."""
    power, type_ = split(unit_key)
    return type_ if power == state.power else unit_key


def french_side(state: AxisState, space: str) -> str:
    """p.29: the side the French pieces in ``space`` serve."""
    return state.french.get(space, "axis")


def operates(state: AxisState, power: str, space: str) -> bool:
    """Whether the acting power moves and attacks with ``power``'s pieces in ``space``: its own, or French pieces
    of an allegiance it operates that may move (Free French for the US, p.29)."""
    if power == state.power:
        return True
    side = french_side(state, space)
    return any(
        a.operated_by == state.power and a.side == side and a.can_move and a.can_attack and power == "france"
        for a in state.pack.allegiances
    )


def operated_pieces(state: AxisState, space: str) -> Counts:
    """The pieces in ``space`` the acting power moves: its own and those it operates there."""
    return {k: n for k, n in state.pieces.get(space, {}).items() if n > 0 and operates(state, split(k)[0], space)}


def moved_french(state: AxisState, power: str, origin: str, to: str) -> dict[str, str]:
    """``state.french`` after a French piece moved from ``origin`` to ``to``: it serves its side there too."""
    if power != "france":
        return dict(state.french)
    french = {**state.french, to: french_side(state, origin)}
    if not any(split(k)[0] == "france" and n > 0 for k, n in state.pieces.get(origin, {}).items()):
        french.pop(origin, None)
    return french
