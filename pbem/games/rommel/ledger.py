"""Each side's Buildup Points (§16.3, §16.5): a hidden value owned by that side (slot ``bp/<side>``).

The dice are public, but what a player spends on Replacements depends on hidden unit types, so the balance is known
to its owner only; a replay that cannot see it allows a purchase and the owner's replay refuses an overdraft.
"""

from __future__ import annotations

from pbem.games.rommel.state import RommelState, Side
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = ["afford", "bp_known", "bp_slot", "spend", "with_bp"]


def bp_slot(side: Side) -> str:
    """The hidden slot of ``side``'s Buildup Points."""
    return f"bp/{side}"


def bp_known(state: RommelState, side: Side) -> int | None:
    """``side``'s Buildup Points if this replay may see them (none yet: 0)."""
    slot = state.hidden.get(bp_slot(side))
    if slot is None:
        return 0
    return slot.value if slot.known and isinstance(slot.value, int) else None


def with_bp(state: RommelState, side: Side, change: int | None) -> RommelState:
    """``side``'s BP changed by ``change`` (None: by an amount this replay cannot see)."""
    now = bp_known(state, side)
    known = now is not None and change is not None
    value = (now or 0) + (change or 0) if known else None
    return state.with_hidden(bp_slot(side), side, value, known=known)


def afford(state: RommelState, side: Side, cost: int, what: str = "this") -> Verdict:
    """§16.5: ``side`` has ``cost`` BP to spend (allowed where this replay cannot see the balance)."""
    bp = bp_known(state, side)
    if bp is not None and bp < cost:
        return deny("16.5", "short-of-bp", f"{what} costs {cost} BP; {side} has {bp}")
    return ALLOW


def spend(state: RommelState, side: Side, cost: int) -> RommelState:
    """The state after ``side`` spends ``cost`` BP (nothing changes for a free action)."""
    return with_bp(state, side, -cost) if cost else state
