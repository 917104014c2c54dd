"""Each side's Buildup Points (§16.3, §16.5): a hidden value owned by that side (slot ``bp/<side>``).

The dice are public, but what a player spends on Replacements depends on hidden unit types, so the balance is known
to its owner only; a replay that cannot see it allows a purchase and the owner's replay refuses an overdraft.
"""

from __future__ import annotations

from pbem.games.rommel.state import RommelState, Side
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = ["afford", "bp_known", "bp_slot", "counted", "counts", "spend", "with_bp"]

RECORDED = ("redeployments", "sea_redeployments", "steps", "extra_cards", "minefields")
"""What the Game Record Sheet counts and the divulging option discloses (§16.5 sidebar)."""


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


def counted(state: RommelState, side: Side, what: str, bp: int | None) -> RommelState:
    """The Buildup's record with one more ``what`` for ``side`` and its BP where every replay knows them (a
    Replacement's BP depend on the hidden unit: None)."""
    ledger = dict(state.ledger)
    ledger[f"{side}/{what}"] = ledger.get(f"{side}/{what}", 0) + 1
    if bp is not None:
        ledger[f"{side}/{what}_bp"] = ledger.get(f"{side}/{what}_bp", 0) + bp
    return state.model_copy(update={"ledger": ledger})


def counts(state: RommelState, side: Side) -> dict[str, int]:
    """§16.5 sidebar: ``side``'s spending this Buildup, as the divulging option discloses it (the BP of the steps
    rebuilt follow from the BP saved, which the option opens)."""
    out: dict[str, int] = {}
    for what in RECORDED:
        out[what] = state.ledger.get(f"{side}/{what}", 0)
        if what != "steps":
            out[f"{what}_bp"] = state.ledger.get(f"{side}/{what}_bp", 0)
    return out


def spend(state: RommelState, side: Side, cost: int) -> RommelState:
    """The state after ``side`` spends ``cost`` BP (nothing changes for a free action)."""
    return with_bp(state, side, -cost) if cost else state
