"""The Withdrawal Group Move the rules impose (§5.3): a group Refusing Battle (§10.2) or Routed (§11.3).

A :class:`~pbem.games.rommel.state.Withdrawal` on the stack lets its owner extend each unit's path a hex at a time
(``withdraw``) and then end it (``end_withdrawal``). Every step is judged by
:func:`pbem.games.rommel.supply.check_withdrawal` on the position as the Withdrawal began (a supply line at the start,
back along the unit's own line, never further from the source, never Engaging an undisrupted enemy), within the
unit's speed: no road or Rommel bonus for a Retreat (§6.2 sidebar, §6.3). A replay that cannot see the unit's speed
allows the fastest and records a ``speed`` claim for the audit, as for any move (§6.1).

As it ends, the units move: the network must have lost a hex over the whole move (§5.3 condition 3), and every
unit must have withdrawn if it could take a first step (``must-withdraw``). A unit that did not withdraw, or whose
group's move does not reduce the network, was unable to: it is eliminated (§10.1, §11.3). The units that withdrew
are Disrupted (again) this turn (§10.2, §11.3), so they do not recover at their side's next Initial Supply Check
(§11.2).
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.games.rommel.board import speed_need
from pbem.games.rommel.moves import max_speed, settled, speed_of
from pbem.games.rommel.present import public_label
from pbem.games.rommel.state import Claim, RommelState, Side, Withdrawal
from pbem.games.rommel.supply import check_withdrawal
from pbem.kit.machine import replace_top
from pbem.rules.contract import ALLOW, Event, Verdict, deny

__all__ = ["end_verdict", "ended", "live", "step_candidates", "step_verdict", "stepped"]


def live(state: RommelState, item: Withdrawal) -> tuple[str, ...]:
    """The units of the group still on the map (Attrition and Pursuit Fire may have eliminated some)."""
    return tuple(t for t in item.group if state.tokens[t].status == "map")


def _side(item: Withdrawal) -> Side:
    return "axis" if item.seat == "axis" else "allied"


def _check(state: RommelState, item: Withdrawal, paths: Mapping[str, tuple[str, ...]]) -> Verdict:
    """§5.3 for ``paths`` so far, except condition 3 (the network reduced), which is the whole move's."""
    verdict = check_withdrawal(state.pack, state.position(), _side(item), paths)
    return ALLOW if verdict.reason == "network-not-reduced" else verdict


def step_verdict(state: RommelState, item: Withdrawal, token: str, to: str) -> Verdict:
    """Whether ``token`` of the withdrawing group may go on to ``to``."""
    if token not in live(state, item):
        return deny("5.3", "not-withdrawing", f"{token} is not a unit of this Withdrawal")
    path = item.paths.get(token, (item.hex,))
    if to not in state.pack.hex_map or to not in state.pack.hex_map.neighbours(path[-1]):  # type: ignore[arg-type]
        return deny("6.0", "not-adjacent", f"{to} is not next to {path[-1]}")
    known = speed_of(state, token)
    speed = known if known is not None else max_speed(state)
    if speed_need(state.pack, (*path, to), roads=False) > speed:
        return deny("6.1", "over-budget", f"{token} has no hex of its speed left (no road bonus in a Retreat)")
    return _check(state, item, {**item.paths, token: (*path, to)})


def step_candidates(state: RommelState, item: Withdrawal) -> list[tuple[str, str]]:
    """Every (unit, hex) a step may take now."""
    found: list[tuple[str, str]] = []
    for token in live(state, item):
        here = item.paths.get(token, (item.hex,))[-1]
        found.extend((token, str(n)) for n in state.pack.hex_map.neighbours(here))  # type: ignore[arg-type]
    return [(t, n) for t, n in found if step_verdict(state, item, t, n).ok]


def stepped(state: RommelState, item: Withdrawal, token: str, to: str) -> tuple[RommelState, list[Event]]:
    """The path grows by a hex; a hidden unit's speed claim records the hexes it has withdrawn (§6.1)."""
    path = (*item.paths.get(token, (item.hex,)), to)
    claim = Claim(
        act=state.acts,
        seat=_side(item),
        token=token,
        kind="speed",
        value=speed_need(state.pack, path, roads=False),
        rule="5.3",
    )
    state = state.model_copy(update={"claims": (*state.claims, claim)})
    state = replace_top(state, item.model_copy(update={"paths": {**item.paths, token: path}}))
    data = {"unit": token, "src": path[-2], "dst": to}
    return state, [Event(kind="withdrew", seat=_side(item), rule="5.3", data=data)]


def end_verdict(state: RommelState, item: Withdrawal) -> Verdict:
    """Every unit that can withdraw does (§10.2: all units of the group; §11.3: routed units)."""
    rule = "10.2" if item.cause == "refuse" else "11.3"
    for token in live(state, item):
        if token in item.paths:
            continue
        for n in state.pack.hex_map.neighbours(item.hex):  # type: ignore[arg-type]
            if step_verdict(state, item, token, str(n)).ok:
                return deny(rule, "must-withdraw", f"{token} can withdraw, so it must")
    return ALLOW


def ended(state: RommelState, item: Withdrawal) -> tuple[RommelState, list[Event]]:
    """The units move to the ends of their paths, Disrupted; those unable to withdraw are eliminated."""
    side = _side(item)
    paths = {t: p for t, p in item.paths.items() if t in live(state, item)}
    reduced = bool(paths) and check_withdrawal(state.pack, state.position(), side, paths).ok
    tokens = dict(state.tokens)
    events = []
    for token in live(state, item):
        if token in paths and reduced:
            update = {"hex": paths[token][-1], "disrupted": True, "disrupted_turn": state.turn_no}
            tokens[token] = tokens[token].model_copy(update=update)
        else:
            text = f"{public_label(state, token)} eliminated: no way to withdraw"
            tokens[token] = tokens[token].model_copy(update={"status": "eliminated", "hex": None})
            rule = "10.1" if item.cause == "refuse" else "11.3"
            events.append(Event(kind="unit_eliminated", seat=side, rule=rule, data={"unit": token}, text=text))
    battles = settled(tokens, dict(state.battles))
    data = {"location": item.hex, "cause": item.cause, "paths": {t: list(p) for t, p in sorted(paths.items())}}
    events.insert(0, Event(kind="withdrawal_ended", seat=side, rule="5.3", data=data))
    return replace_top(state.model_copy(update={"tokens": tokens, "battles": battles}), None), events
