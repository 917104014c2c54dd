"""Bidding for sides (optional 18.1, ruling A60): each player secretly bids the VP he would need to win as the
Allies; the higher bid plays the Allies with that threshold; a tie means new bids, a second tie a dr.

Before sides are decided a player is a seat, not a side, so these steps are decided here, by seat, ahead of the
machine (:mod:`.sequence`).
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.games.battleaxe.actions import BattleaxeAction, Bid, RollForSides
from pbem.games.battleaxe.board import ALLIED, AXIS
from pbem.games.battleaxe.state import BattleaxeState, evolve
from pbem.rules.contract import ALLOW, Event, RollRequest, RollSpec, Step, Verdict, deny

__all__ = ["BIDDERS", "MAX_BID", "STEPS", "apply", "candidates", "check", "opened", "rolled", "to_act"]

BIDDERS = ("player-a", "player-b")
MAX_BID = 60  # more VP than any game can score (14 a turn from VP Areas, plus German losses)
STEPS = frozenset({"bid", "tiebreak"})
_SIDES_ROLL = RollSpec(id="sides", sides=6, n=1, purpose="dr for the Allied side")


def to_act(state: BattleaxeState) -> tuple[str, ...]:
    """Both players bid (in any order); after a second tie, the first rolls for sides."""
    if state.step == "bid":
        return tuple(s for s in BIDDERS if s not in state.bidders)
    return BIDDERS[:1]


def candidates(state: BattleaxeState) -> list[BattleaxeAction]:
    return [*(Bid(vp=v) for v in range(MAX_BID + 1)), RollForSides()]


def check(state: BattleaxeState, seat: str, act: BattleaxeAction, unseen: frozenset[str]) -> Verdict:
    """18.1: a bid of 0 to MAX_BID VP; without its secret value (``unseen``), the audit checks it later."""
    if seat not in to_act(state):
        return deny("18.1", "not-your-turn", f"{seat} does not act now")
    if state.step == "tiebreak":
        return ALLOW if isinstance(act, RollForSides) else deny("18.1", "tiebreak", "roll for sides")
    if not isinstance(act, Bid):
        return deny("18.1", "bid", "each player first submits a secret VP bid")
    if act.vp is None and "vp" in unseen:
        return ALLOW  # the redacted form: the bid itself is checked at the audit
    if act.vp is None or not 0 <= act.vp <= MAX_BID:
        return deny("18.1", "bid-range", f"a bid is a whole number of VP from 0 to {MAX_BID}")
    return ALLOW


def apply(state: BattleaxeState, seat: str) -> Step[BattleaxeState]:
    """A bid is recorded (its value stays in the seat's secret slot); both are opened together. A roll for sides
    asks for the dr."""
    if state.step == "tiebreak":
        return Step(state=state.with_rolls(RollRequest(rolls=(_SIDES_ROLL,))))
    bidders = tuple(s for s in BIDDERS if s in state.bidders or s == seat)  # not arrival order: bids are concurrent
    state = evolve(state, bidders=bidders)
    event = Event(kind="bid_submitted", seat=seat, rule="18.1", text=f"{seat} submits a secret bid")
    if len(bidders) == len(BIDDERS):  # both have bid: both bids are opened together
        state = state.with_opening(*(f"bid/{s}" for s in BIDDERS))
    return Step(state=state, events=(event,))


def opened(state: BattleaxeState) -> Step[BattleaxeState]:
    """Both bids are open: the higher plays the Allies; RULING (notes A60): a tie means new bids, a second a dr."""
    bids = {seat: state.hidden[f"bid/{seat}"].value for seat in BIDDERS}
    text = "; ".join(f"{seat} bids {vp} VP" for seat, vp in bids.items())
    shown = Event(kind="bids_opened", rule="18.1", text=text, data={"bids": bids})
    first, second = (bids[s] for s in BIDDERS)
    if first != second:
        allied = BIDDERS[0] if first > second else BIDDERS[1]
        step = _sides_decided(state, allied, bids[allied], f"{allied} bids higher")
        return Step(state=step.state, events=(shown, *step.events))
    if state.bid_round == 1:
        state = evolve(state, bidders=(), bid_round=2)
        return Step(state=state, events=(shown, Event(kind="bids_tied", rule="18.1", text="tied: bid again")))
    return Step(state=evolve(state, step="tiebreak"), events=(shown,))


def rolled(state: BattleaxeState, dice: Mapping[str, tuple[int, ...]]) -> Step[BattleaxeState]:
    """RULING (notes A60): after a second tie, a dr of 1-3 gives the first player the Allies, 4-6 the second."""
    face = dice["sides"][0]
    allied = BIDDERS[0] if face <= _SIDES_ROLL.sides // 2 else BIDDERS[1]
    bid = state.hidden[f"bid/{allied}"].value
    return _sides_decided(state, allied, bid, f"a dr of {face} gives {allied} the Allies")


def _sides_decided(state: BattleaxeState, allied: str, bid: int, why: str) -> Step[BattleaxeState]:
    axis = next(s for s in BIDDERS if s != allied)
    # RULING (notes A60): the winning bid replaces the standard threshold; the Extended Game keeps its own
    state = evolve(state, sides={allied: ALLIED, axis: AXIS}, threshold=bid)
    if state.setup_left:
        state = evolve(state, step="setup", phase="setup")
    else:
        state = evolve(state, step="impulse", phase="maneuvers")
    text = f"{why}: {allied} plays the Allies and needs {bid} VP; {axis} plays the Axis"
    return Step(state=state, events=(Event(kind="sides_decided", rule="18.1", text=text, data={"allied": allied}),))
