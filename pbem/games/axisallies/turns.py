"""Whose turns a round of *Axis & Allies: North Africa* has (p.12, p.6, p.28).

Germany, the United Kingdom, Italy and the United States play in that order (p.12); a scenario skips some turns:
in Rommel's Last Push the United States enters only in round 7 (p.6), and in Operation Torch Germany's round-7
turn is skipped (p.28). A skipped turn has no income, requisition or moves.
"""

from __future__ import annotations

from pbem.games.axisallies.data import AxisAlliesPack, Scenario

__all__ = ["plays_in", "powers_in_round"]


def plays_in(scenario: Scenario, power: str, round_: int) -> bool:
    """Whether ``power`` takes a turn in ``round_`` of ``scenario`` (its skipped turns, p.6 and p.28)."""
    return not any(row.power == power and round_ in row.rounds for row in scenario.skipped_turns)


def powers_in_round(pack: AxisAlliesPack, scenario: Scenario, round_: int) -> tuple[str, ...]:
    """p.12: the powers that take a turn in ``round_``, in turn order (France never has one, p.29)."""
    ordered = sorted((p for p in pack.powers if p.turn_order is not None), key=lambda p: p.turn_order or 0)
    return tuple(p.id for p in ordered if plays_in(scenario, p.id, round_))
