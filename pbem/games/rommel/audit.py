"""The end-of-game audit of public claims (notes §7.2.8, §7.2.9).

While a block's identity is hidden, a replay allows a move at the fastest speed any unit has and the state records
a :class:`~pbem.games.rommel.state.Claim` of the least speed the path needs. Once the identities are revealed (at
the end of the game every slot is disclosed) :func:`audit` checks each claim in the order made and names the first
that was not legal under full information, with its seat. A replay that knows the identities refuses such a move at
once (the verifier's full-disclosure replay reports it as R001 on the entry that made it); this audit is the same
check over a finished state, for reports.

The battle claims are judged by the battle library on the revealed values: a strength opened by the rules
(:func:`~pbem.games.rommel.battle.check_strength`, §2.3), an announced slowest retreating speed
(:func:`~pbem.games.rommel.battle.check_slowest_speed`) and a number of pursuit dice
(:func:`~pbem.games.rommel.battle.check_pursuit_dice`, §10.5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pbem.games.rommel.battle import (
    battle_unit,
    check_pursuit_dice,
    check_reserved_pursuit_dice,
    check_slowest_speed,
    check_strength,
    unit_speed,
)
from pbem.games.rommel.moves import i_tanks, known_block
from pbem.games.rommel.state import Claim, RommelState
from pbem.rules.contract import Verdict

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

    def block_of(token: str) -> str | None:
        return revealed.get(token) if revealed is not None else known_block(state, token)

    for claim in state.claims:
        block = block_of(claim.token)
        group = [block_of(t) for t in claim.group]
        if block is None or None in group:
            continue
        found = _check(state, claim, block, [b for b in group if b is not None])
        if found is not None:
            return found
    return None


def _check(state: RommelState, claim: Claim, block: str, group: list[str]) -> Finding | None:
    tanks = i_tanks(state)
    if claim.kind == "speed":
        speed = unit_speed(state.pack, block, i_tanks=tanks)
        if claim.value > speed:
            return Finding(
                act=claim.act,
                seat=claim.seat,
                rule=claim.rule,
                reason="too-fast",
                message=f"{claim.token} ({block}, speed {speed}) moved a path that needs speed {claim.value}",
            )
        return None
    units = [battle_unit(state.pack, b, i_tanks=tanks) for b in group]
    verdict: Verdict
    if claim.kind == "strength":
        verdict = check_strength(state.pack, block, claim.value, i_tanks=tanks)
    elif claim.kind == "slowest":
        verdict = check_slowest_speed(units, claim.value)
    elif claim.before:  # after earlier Pursuit Fires from the hex: their units cannot fire again
        verdict = check_reserved_pursuit_dice(state.pack, claim.before, claim.against, units, claim.value)
    else:
        verdict = check_pursuit_dice(state.pack, claim.against, units, claim.value)
    if verdict.ok:
        return None
    return Finding(
        act=claim.act,
        seat=claim.seat,
        rule=verdict.rule or claim.rule,
        reason=verdict.reason or claim.kind,
        message=f"{claim.token} ({block}): {verdict.message}",
    )
