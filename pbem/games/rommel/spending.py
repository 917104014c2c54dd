"""The machine's declarations of the Buildup's movement and Minefield actions (§16.51-§16.55) and of the reveal of
entered Minefields after a Movement phase (§14.2): candidates, predicates and effects over
:mod:`pbem.games.rommel.redeploy` and :mod:`pbem.games.rommel.minefields`."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Any

from pbem.games.rommel import minefields, redeploy, scenarios
from pbem.games.rommel.actions import (
    BuildMinefield,
    MinesDone,
    Redeploy,
    Refit,
    RevealMine,
    SeaRedeploy,
    SwapMinefields,
)
from pbem.games.rommel.state import RommelState, Side, other
from pbem.kit.machine import ActionSpec, action
from pbem.rules.contract import ALLOW, Event, Step, Verdict, deny

__all__ = ["ACTIONS", "BUILDUP", "MINES", "apply_unseen", "secret_slot", "unseen_verdict"]

BUILDUP = ("redeploy", "sea_redeploy", "refit", "build_minefield", "swap_minefields")
"""The Buildup's actions declared here (§16.5)."""

MINES = ("reveal_mine", "mines_done")
"""The passive player's Minefield reveal after a Movement phase (§14.2)."""


def _side(seat: str) -> Side:
    return "axis" if seat == "axis" else "allied"


def _mustered(state: RommelState, side: Side) -> Verdict:
    if scenarios.next_token(state, side) is not None:
        return deny("16.4", "muster-first", "choose the arriving units first")
    return ALLOW


def _first(*verdicts: Verdict) -> Verdict:
    return next((v for v in verdicts if not v.ok), ALLOW)


# --- Redeployment, Sea Redeployment, Refit -----------------------------------------------------------------------


def _redeploys(state: RommelState, seat: str) -> Iterable[Redeploy]:
    side = _side(seat)
    return [
        Redeploy(token=t, to=h) for t in state.on_map(side) for h in sorted(redeploy.redeploy_reach(state, side, t))
    ]


def _can_redeploy(state: RommelState, seat: str, act: Redeploy) -> Verdict:
    side = _side(seat)
    return _first(_mustered(state, side), redeploy.redeploy_verdict(state, side, act.token, act.to))


def _redeployed(state: RommelState, seat: str, act: Redeploy) -> Step[RommelState]:
    src = state.tokens[act.token].hex
    event = Event(kind="redeployed", seat=seat, rule="16.51", data={"unit": act.token, "src": src, "dst": act.to})
    return Step(state=redeploy.redeployed(state, _side(seat), act.token, act.to), events=(event,))


def _seas(state: RommelState, seat: str) -> Iterable[SeaRedeploy]:
    side = _side(seat)
    ports = redeploy.ports(state, side)
    return [SeaRedeploy(token=t, to=h) for t in state.on_map(side) if state.tokens[t].hex in ports for h in ports]


def _can_sea(state: RommelState, seat: str, act: SeaRedeploy) -> Verdict:
    side = _side(seat)
    return _first(_mustered(state, side), redeploy.sea_verdict(state, side, act.token, act.to))


def _sailed(state: RommelState, seat: str, act: SeaRedeploy) -> Step[RommelState]:
    src = state.tokens[act.token].hex
    data = {"unit": act.token, "src": src, "dst": act.to}
    event = Event(kind="sea_redeployed", seat=seat, rule="16.53", data=data)
    return Step(state=redeploy.sea_redeployed(state, _side(seat), act.token, act.to), events=(event,))


def _refits(state: RommelState, seat: str) -> Iterable[Refit]:
    return [Refit(token=t) for t in state.on_map(_side(seat))]


def _can_refit(state: RommelState, seat: str, act: Refit) -> Verdict:
    side = _side(seat)
    return _first(_mustered(state, side), redeploy.refit_verdict(state, side, act.token))


def _refitted(state: RommelState, seat: str, act: Refit) -> Step[RommelState]:
    src = state.tokens[act.token].hex
    event = Event(kind="returned_for_refit", seat=seat, rule="16.52", data={"unit": act.token, "src": src})
    return Step(state=redeploy.refitted(state, _side(seat), act.token), events=(event,))


# --- Minefields ---------------------------------------------------------------------------------------------------


def secret_slot(state: RommelState, seat: str, act: dict[str, Any]) -> dict[str, str]:
    """The slot a Minefield action's secret hex goes to (public: the builder's next number)."""
    if act.get("action") in ("build_minefield", "swap_minefields"):
        return {"hex": minefields.next_slot(state, _side(seat))}
    return {}


def unseen_verdict(state: RommelState, seat: str, act: Any) -> Verdict:
    """A Minefield action whose hex this replay cannot see: everything but the hex is checked."""
    side = _side(seat)
    if isinstance(act, BuildMinefield):
        return _first(_mustered(state, side), minefields.build_verdict(state, side, None))
    assert isinstance(act, SwapMinefields)
    return _first(_mustered(state, side), minefields.swap_verdict(state, side, act.first, act.second, None))


def apply_unseen(state: RommelState, seat: str, act: BuildMinefield | SwapMinefields) -> Step[RommelState]:
    """Apply a Minefield action whose hex is in its slot, not in the logged action."""
    return _built(state, seat, act) if isinstance(act, BuildMinefield) else _swapped(state, seat, act)


def _builds(state: RommelState, seat: str) -> Iterable[BuildMinefield]:
    return [BuildMinefield(hex=h) for h in minefields.sites(state, _side(seat))]


def _can_build(state: RommelState, seat: str, act: BuildMinefield) -> Verdict:
    side = _side(seat)
    if act.hex is None:
        return deny("16.55", "no-hex", "name the Minefield's hex (it stays secret)")
    return _first(_mustered(state, side), minefields.build_verdict(state, side, act.hex))


def _built(state: RommelState, seat: str, act: BuildMinefield) -> Step[RommelState]:
    side = _side(seat)
    slot = minefields.next_slot(state, side)
    event = Event(kind="minefield_built", seat=seat, rule="16.55", data={"mine": slot})
    return Step(state=minefields.built(state, side, slot), events=(event,))


def _swaps(state: RommelState, seat: str) -> Iterable[SwapMinefields]:
    side = _side(seat)
    pairs = list(combinations(minefields.dismantlable(state, side), 2))
    if not pairs:
        return []
    hexes = minefields.sites(state, side)
    return [SwapMinefields(first=a, second=b, hex=h) for a, b in pairs for h in hexes]


def _can_swap(state: RommelState, seat: str, act: SwapMinefields) -> Verdict:
    side = _side(seat)
    if act.hex is None:
        return deny("16.55", "no-hex", "name the new Minefield's hex (it stays secret)")
    return _first(_mustered(state, side), minefields.swap_verdict(state, side, act.first, act.second, act.hex))


def _swapped(state: RommelState, seat: str, act: SwapMinefields) -> Step[RommelState]:
    side = _side(seat)
    slot = minefields.next_slot(state, side)
    data = {"dismantled": [act.first, act.second], "mine": slot}
    event = Event(kind="minefields_swapped", seat=seat, rule="16.55", data=data)
    return Step(state=minefields.swapped(state, side, act.first, act.second, slot), events=(event,))


def _reveals(state: RommelState, seat: str) -> Iterable[RevealMine]:
    return [RevealMine(mine=m) for m in minefields.hidden_mines(state, _side(seat))]


def _can_reveal(state: RommelState, seat: str, act: RevealMine) -> Verdict:
    if state.turn.stage != "mines" or _side(seat) != other(state.active):
        return deny("14.2", "not-now", "Minefields are revealed by the passive player after a Movement phase")
    return minefields.open_verdict(state, _side(seat), act.mine)


def _revealed(state: RommelState, seat: str, act: RevealMine) -> Step[RommelState]:
    event = Event(kind="minefield_revealed", seat=seat, rule="14.2", data={"mine": act.mine})
    return Step(state=state.with_opening(act.mine), events=(event,))


def _can_be_done(state: RommelState, seat: str, act: MinesDone) -> Verdict:
    if state.turn.stage != "mines" or _side(seat) != other(state.active):
        return deny("14.2", "not-now", "Minefields are revealed by the passive player after a Movement phase")
    return minefields.done_verdict(state, _side(seat))


def _done(state: RommelState, seat: str, act: MinesDone) -> Step[RommelState]:
    turn = state.turn.model_copy(update={"stage": "combat"})
    event = Event(kind="minefields_checked", seat=seat, rule="14.2")
    return Step(state=state.model_copy(update={"turn": turn}), events=(event,))


ACTIONS: tuple[ActionSpec[RommelState], ...] = (
    action(Redeploy, legal=_redeploys, can=_can_redeploy, effect=_redeployed),
    action(SeaRedeploy, legal=_seas, can=_can_sea, effect=_sailed),
    action(Refit, legal=_refits, can=_can_refit, effect=_refitted),
    action(BuildMinefield, legal=_builds, can=_can_build, effect=_built),
    action(SwapMinefields, legal=_swaps, can=_can_swap, effect=_swapped),
    action(RevealMine, legal=_reveals, can=_can_reveal, effect=_revealed),
    action(MinesDone, legal=lambda s, seat: [MinesDone()], can=_can_be_done, effect=_done),
)
