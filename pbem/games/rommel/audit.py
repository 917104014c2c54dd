"""The end-of-game audit of public claims (notes §7.2.8, §7.2.9).

While a block's identity is hidden, a replay allows a move at the fastest speed any unit has and the state records
a :class:`~pbem.games.rommel.state.Claim` of the least speed the path needs. Once the identities are revealed (at
the end of the game every slot is disclosed) :func:`audit` checks each claim in the order made and names the first
that was not legal under full information, with its seat. A replay that knows the identities refuses such a move at
once (the verifier's full-disclosure replay reports it as R001 on the entry that made it); this audit is the same
check over a finished state, for reports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pbem.games.rommel.battle import unit_speed
from pbem.games.rommel.moves import i_tanks, known_block
from pbem.games.rommel.state import Claim, RommelState

__all__ = ["Finding", "audit"]


@dataclass(frozen=True)
class Finding:
    """The first illegal claim: the action number that made it, its seat, the rule and why."""

    act: int
    seat: str
    rule: str
    reason: str
    message: str


def audit(state: RommelState, revealed: Mapping[str, str] | None = None) -> Finding | None:
    """The first claim of ``state`` that the revealed identities contradict (``revealed``: token → block; by default
    the identities this replay can read), or None if every claim holds. A claim on a block never revealed cannot be
    checked and is skipped (at the end of a verified game every block is revealed)."""
    for claim in state.claims:
        block = revealed.get(claim.token) if revealed is not None else known_block(state, claim.token)
        if block is None:
            continue
        found = _check(state, claim, block)
        if found is not None:
            return found
    return None


def _check(state: RommelState, claim: Claim, block: str) -> Finding | None:
    if claim.kind == "speed":
        speed = unit_speed(state.pack, block, i_tanks=i_tanks(state))
        if claim.value > speed:
            return Finding(
                act=claim.act,
                seat=claim.seat,
                rule=claim.rule,
                reason="too-fast",
                message=f"{claim.token} ({block}, speed {speed}) moved a path that needs speed {claim.value}",
            )
    return None
