"""The optional Reinforcement Point Bidding of *Axis & Allies: North Africa* (p.38) as a genesis option.

Players who both want the same side bid RP for the other side until one accepts; the bidder then plays the
undisputed side, which adds the bid to its **first round** RP, divided between its powers as its controller
wishes. RULING: the bidding decides who takes which seat, so it happens before the game starts: genesis records
its result as the option ``rp_bidding`` = ``"<side>:<RP>"`` (``"none"`` without a bid), the RP at least the
pack's ``min_bid``. The side's powers that have a turn in the scenario's first round share it (notes §10.37:
in Operation Torch Germany has none, so an Axis bid all goes to Italy); with several, the seat of the first of
them in turn order gives the RP out one at a time (``allot``) before play begins, and each power adds its share
to the RP of its first turn.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.errors import PbemError
from pbem.games.axisallies.actions import Allot
from pbem.games.axisallies.data import AxisAlliesPack, Scenario
from pbem.games.axisallies.state import AxisState
from pbem.games.axisallies.turns import powers_in_round
from pbem.rules.contract import ALLOW, Event, Step, Verdict, deny

__all__ = ["allot", "allots", "can_allot", "parse_bid", "share_bid", "sharers"]


def parse_bid(pack: AxisAlliesPack, value: str) -> tuple[str, int] | None:
    """(side, RP) of the option ``rp_bidding``, None for ``"none"``.

    Raises:
        PbemError: R007, the value is neither ``"none"`` nor ``"<axis|allies>:<RP>"`` with RP at least the
            pack's ``min_bid``.
    """
    if value == "none":
        return None
    rule = next(o for o in pack.optional_rules if o.id == "rp_bidding")
    side, _, amount = value.partition(":")
    least = rule.values.get("min_bid", 1)
    if side not in ("axis", "allies") or not amount.isdigit() or int(amount) < least:
        raise PbemError("R007", f"rp_bidding is 'none' or '<axis|allies>:<RP>' with at least {least} RP (p.38)")
    return side, int(amount)


def sharers(pack: AxisAlliesPack, scenario: Scenario, side: str) -> tuple[str, ...]:
    """The powers of ``side`` with a turn in the scenario's first round, in turn order."""
    return tuple(p for p in powers_in_round(pack, scenario, scenario.start_round) if pack.power(p).side == side)


def share_bid(state: AxisState, scenario: Scenario) -> AxisState:
    """The state before play with the bid of its options given out, or waiting for its side to give it out."""
    bid = parse_bid(state.pack, state.options.get("rp_bidding", "none"))
    if bid is None:
        return state
    side, amount = bid
    powers = sharers(state.pack, scenario, side)
    if len(powers) == 1:
        return state.model_copy(update={"bonus": {powers[0]: amount}})
    return state.model_copy(update={"bid_left": amount, "bid_phase_after": state.phase, "phase": "allot"})


def allots(state: AxisState, seat: str) -> Iterator[Allot]:
    side = _bid_side(state)
    for power in sharers(state.pack, state.pack.scenario(state.scenario), side):
        yield Allot(power=power)


def _bid_side(state: AxisState) -> str:
    bid = parse_bid(state.pack, state.options.get("rp_bidding", "none"))
    assert bid is not None  # the allot phase exists only with a bid
    return bid[0]


def can_allot(state: AxisState, seat: str, act: Allot) -> Verdict:
    if act.power not in sharers(state.pack, state.pack.scenario(state.scenario), _bid_side(state)):
        return deny("38", "not-a-sharer", f"{act.power} has no turn of the bid's side in the first round")
    return ALLOW


def allot(state: AxisState, seat: str, act: Allot) -> Step[AxisState]:
    """One RP of the bid to ``power``'s first turn; the last one starts the game."""
    from pbem.games.axisallies.phases import start_turn

    bonus = {**state.bonus, act.power: state.bonus.get(act.power, 0) + 1}
    left = state.bid_left - 1
    state = state.model_copy(update={"bonus": bonus, "bid_left": left})
    event = Event(kind="bid_allotted", seat=seat, rule="38", data={"power": act.power})
    if left > 0:
        return Step(state=state, events=(event,))
    state = state.model_copy(update={"phase": state.bid_phase_after})
    if state.phase == "purchase":
        step = start_turn(state)
        return Step(state=step.state, events=(event, *step.events))
    return Step(state=state, events=(event,))
