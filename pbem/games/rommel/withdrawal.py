"""The Withdrawal Move (§5.3), the one home of both its uses, each judged by :func:`judged` from the position as it
began: :func:`pbem.games.rommel.supply.check_withdrawal` (a supply line at the start, back along the unit's own line,
never further from the source, never Engaging an undisrupted enemy), with the units on Fortress supply withdrawing
towards their Fortress and the others never towards one (§13.3). The network's loss of a hex (condition 3) is the
whole move's, judged as it ends. Supply depends only on public facts (positions, Disruption, battles), so every
replay judges alike.

**The Pass Turn's free Withdrawal Move** (§4.5): a Group or Regroup Move made step by step like any other
(:mod:`pbem.games.rommel.moves` checks speed, roads, hexsides and disengaging) whose every step must also keep the
mover on a Withdrawal (:func:`move_step_verdict`). One whose units cannot reduce the network (or that its player
gives up) is taken back (:func:`voided`): its units return where they began and the turn's free Withdrawal is spent
(the Moves its cards pay for are not), so a player is never left with a Move it may not end. It is the Pass Turn's
only Move (§4.5: "no other movement"): a turn that makes it begins no other Move and no Forced March.

**The Withdrawal Group Move the rules impose**: a group Refusing Battle (§10.2), Routed (§11.3), or Attacking a
Fortress in a Pass Turn (§13.5 sidebar, :func:`fortress_attackers`). A
:class:`~pbem.games.rommel.state.Withdrawal` on the stack lets its owner extend each unit's path a hex at a time
(``withdraw``) and then end it (``end_withdrawal``), within the unit's speed: no road or Rommel bonus for a Retreat
(§6.2 sidebar, §6.3). A replay that cannot see the unit's speed allows the fastest and records a ``speed`` claim for
the audit, as for any move (§6.1). As it ends, the units move: the network must have lost a hex over the whole move,
and every unit must have withdrawn if it could take a first step (``must-withdraw``). A unit that did not withdraw,
or whose group's move does not reduce the network, was unable to: it is eliminated (§10.1, §11.3), or, a Fortress
Attacker, Routed (Disrupted where it stands, then its Rout, §13.5 sidebar). The units that withdrew are Disrupted
(again) this turn (§10.2, §11.3), so they do not recover at their side's next Initial Supply Check (§11.2).

RULING (§13.3): the Fortress supply a withdrawing unit traces is the one assigned on the position as its Withdrawal
begins (:func:`~pbem.games.rommel.supplycheck.fortress_assigned`: units without a line to Base, nearest first, up to
the Port Capacity), for either side, in either player's turn.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.games.rommel import pursuit
from pbem.games.rommel.board import speed_need
from pbem.games.rommel.moves import EXIT, max_speed, settled, speed_of
from pbem.games.rommel.present import SIDE_NAMES, hex_label, public_label
from pbem.games.rommel.state import Claim, RommelState, Side, Withdrawal, other
from pbem.games.rommel.supply import check_withdrawal
from pbem.games.rommel.supplycheck import fortress_assigned
from pbem.kit.machine import push, replace_top
from pbem.rules.contract import ALLOW, Event, Verdict, deny

__all__ = [
    "begin_verdict",
    "end_verdict",
    "ended",
    "fortress_attackers",
    "judged",
    "live",
    "move_end_verdict",
    "move_start",
    "move_step_verdict",
    "step_candidates",
    "step_verdict",
    "stepped",
    "void_verdict",
    "voided",
]


def judged(start: RommelState, side: Side, paths: Mapping[str, tuple[str, ...]], *, whole: bool = True) -> Verdict:
    """§5.3, §13.3: whether ``paths`` (each unit's hexes, its own first) withdraw from the position ``start`` as the
    Withdrawal began, Fortress-supplied units towards their Fortress. ``whole``: the whole move, condition 3 (the
    network reduced) included; else the paths so far, which only the move's end must reduce it."""
    fortress = {t: f for t, f in fortress_assigned(start, side).items() if t in paths}
    verdict = check_withdrawal(start.pack, start.position(), side, paths, fortress)
    return ALLOW if not whole and verdict.reason == "network-not-reduced" else verdict


# --- the Pass Turn's free Withdrawal Move (§4.5) ------------------------------------------------------------------


def begin_verdict(state: RommelState) -> Verdict:
    """§4.5: the one free Withdrawal Move begins in the Movement phase, before any other Move of the turn."""
    turn = state.turn
    if turn.stage != "movement" or turn.move is not None:
        return deny("5.0", "not-now", "a Move begins in the Movement phase, after the one under way ends")
    if turn.withdrawn or turn.voided:
        return deny("4.5", "withdrawn", "a Pass Turn allows one Withdrawal Move")
    if turn.moves:
        return deny("4.5", "not-a-pass", "the free Withdrawal Move is the only Move of its turn")
    return ALLOW


def move_start(state: RommelState) -> RommelState:
    """The state as the Move under way began: its movers back where they started, the battles they left restored."""
    turn = state.turn
    tokens = dict(state.tokens)
    battles = dict(state.battles)
    for token in turn.in_move:
        tok = tokens[token]
        path = turn.paths[token]
        if tok.status == "map":
            tokens[token] = tok.model_copy(update={"hex": path[0]})
        if token in turn.left:
            battles.setdefault(path[0], turn.left[token])
    return state.model_copy(update={"tokens": tokens, "battles": settled(tokens, battles)})


def move_step_verdict(state: RommelState, side: Side, token: str, to: str) -> Verdict:
    """§5.3 conditions 1, 2 and 4, and no Engaging, for ``token`` stepping on to ``to`` in the Withdrawal Move under
    way (the network's reduction is judged when the Move ends)."""
    if to == EXIT:  # the enemy map-end is never back towards one's own source
        return deny("5.3", "away-from-base", f"{token} would leave the map at the enemy end")
    turn = state.turn
    here = state.tokens[token].hex
    path = turn.current if token == turn.mover else (here or "",)
    return judged(move_start(state), side, {token: (*path, to)}, whole=False)


def move_end_verdict(state: RommelState, side: Side) -> Verdict:
    """§5.3: the whole Withdrawal Move, condition 3 included (the friendly Supply Network loses a hex)."""
    return judged(move_start(state), side, {t: state.turn.paths[t] for t in state.turn.in_move})


def void_verdict(state: RommelState) -> Verdict:
    """A Withdrawal Move under way may be taken back (§5.3: a Move that does not qualify is no Withdrawal)."""
    if state.turn.move is None or not state.turn.withdrawal:
        return deny("5.3", "no-withdrawal", "no Withdrawal Move is under way")
    return ALLOW


def voided(state: RommelState) -> RommelState:
    """The Withdrawal under way taken back: its units where they began (the battles they left restored), no path
    recorded for them; the turn's free Withdrawal is spent."""
    turn = state.turn
    back = move_start(state)
    movers = turn.in_move
    new_turn = turn.model_copy(
        update={
            "paths": {t: p for t, p in turn.paths.items() if t not in movers},
            "left": {t: b for t, b in turn.left.items() if t not in movers},
            "disengaged": {t: d for t, d in turn.disengaged.items() if t not in movers},
            "move": None,
            "destination": None,
            "mover": None,
            "current": (),
            "in_move": (),
            "withdrawal": False,
            "voided": True,
        }
    )
    return back.model_copy(update={"turn": new_turn})


# --- the Withdrawal Group Move the rules impose (§10.2, §11.3) ----------------------------------------------------


def live(state: RommelState, item: Withdrawal) -> tuple[str, ...]:
    """The units of the group still on the map (Attrition and Pursuit Fire may have eliminated some)."""
    return tuple(t for t in item.group if state.tokens[t].status == "map")


def _side(item: Withdrawal) -> Side:
    return "axis" if item.seat == "axis" else "allied"


def step_verdict(state: RommelState, item: Withdrawal, token: str, to: str) -> Verdict:
    """Whether ``token`` of the withdrawing group may go on to ``to`` (its units still stand where it began)."""
    if token not in live(state, item):
        return deny("5.3", "not-withdrawing", f"{token} is not a unit of this Withdrawal")
    path = item.paths.get(token, (item.hex,))
    if to not in state.pack.hex_map or to not in state.pack.hex_map.neighbours(path[-1]):  # type: ignore[arg-type]
        return deny("6.0", "not-adjacent", f"{to} is not next to {path[-1]}")
    known = speed_of(state, token)
    speed = known if known is not None else max_speed(state)
    if speed_need(state.pack, (*path, to), roads=False) > speed:
        return deny("6.1", "over-budget", f"{token} has no hex of its speed left (no road bonus in a Retreat)")
    return judged(state, _side(item), {**item.paths, token: (*path, to)}, whole=False)


def step_candidates(state: RommelState, item: Withdrawal) -> list[tuple[str, str]]:
    """Every (unit, hex) a step may take now."""
    found: list[tuple[str, str]] = []
    for token in live(state, item):
        here = item.paths.get(token, (item.hex,))[-1]
        found.extend((token, str(n)) for n in state.pack.hex_map.neighbours(here))  # type: ignore[arg-type]
    return [(t, n) for t, n in found if step_verdict(state, item, t, n).ok]


def stepped(state: RommelState, item: Withdrawal, token: str, to: str) -> tuple[RommelState, list[Event]]:
    """The path grows by a hex; a hidden unit's speed claim records the speed its path needs (§6.1)."""
    path = (*item.paths.get(token, (item.hex,)), to)
    need = speed_need(state.pack, path, roads=False)
    claim = Claim(act=state.acts, seat=_side(item), token=token, kind="speed", value=need, rule="5.3")
    state = state.model_copy(update={"claims": (*state.claims, claim)})
    state = replace_top(state, item.model_copy(update={"paths": {**item.paths, token: path}}))
    data = {"unit": token, "src": path[-2], "dst": to}
    return state, [Event(kind="withdrew", seat=_side(item), rule="5.3", data=data)]


_MUST = {"refuse": "10.2", "rout": "11.3", "fortress": "13.5"}
"""The rule that makes each cause's units withdraw."""


def fortress_attackers(state: RommelState) -> tuple[RommelState, list[Event]]:
    """§13.5 sidebar (§13.2): after a Pass Turn, the passing player's undisrupted Fortress Attackers Disengage by
    Withdrawal Move, a Full Retreat that the Fortress's undisrupted units pursue (§10.3, §10.5); those unable to
    withdraw are Routed (§11.3). RULING: the cards decide whether a turn was a Pass (a bluff may hide one, §3.48), so
    this follows the reveal, as the next Player-Turn (or the Month's end) begins; the first battle hex first."""
    if state.passes == 0 or state.phase == "over":
        return state, []
    side = other(state.active)
    events: list[Event] = []
    for hex_id, record in sorted(state.battles.items(), reverse=True):
        group = tuple(t for t in state.at(hex_id) if state.tokens[t].side == side and not state.tokens[t].disrupted)
        if not record.fortress or record.attacker != side or not group:
            continue
        state = push(state, Withdrawal(seat=side, hex=hex_id, group=group, cause="fortress"))
        text = f"{SIDE_NAMES[side]} passed: its Fortress Attackers at {hex_label(state.pack, hex_id)} must withdraw"
        data = {"location": hex_id, "units": list(group)}
        events.append(Event(kind="fortress_withdrawal", seat=side, rule="13.5", data=data, text=text))
        state, more = pursuit.start(state, hex_id, side, group, "retreat")
        events.extend(more)
    return state, events


def end_verdict(state: RommelState, item: Withdrawal) -> Verdict:
    """Every unit that can withdraw does (§10.2: all units of the group; §11.3: routed units; §13.5 sidebar: the
    Fortress Attackers of a Pass Turn)."""
    rule = _MUST[item.cause]
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
    reduced = bool(paths) and judged(state, side, paths).ok
    tokens = dict(state.tokens)
    events = []
    for token in live(state, item):
        if token in paths and reduced:
            update = {"hex": paths[token][-1], "disrupted": True, "disrupted_turn": state.turn_no}
            tokens[token] = tokens[token].model_copy(update=update)
        elif item.cause == "fortress":  # Routed (§13.5 sidebar): Disrupted here, its Rout follows (§11.3)
            tokens[token] = tokens[token].model_copy(update={"disrupted": True, "disrupted_turn": state.turn_no})
        else:
            text = f"{public_label(state, token)} eliminated: no way to withdraw"
            tokens[token] = tokens[token].model_copy(update={"status": "eliminated", "hex": None})
            rule = "10.1" if item.cause == "refuse" else "11.3"
            events.append(Event(kind="unit_eliminated", seat=side, rule=rule, data={"unit": token}, text=text))
    battles = settled(tokens, dict(state.battles))
    data = {"location": item.hex, "cause": item.cause, "paths": {t: list(p) for t, p in sorted(paths.items())}}
    events.insert(0, Event(kind="withdrawal_ended", seat=side, rule="5.3", data=data))
    return replace_top(state.model_copy(update={"tokens": tokens, "battles": battles}), None), events
