"""The Pass Turn's free Withdrawal Move (§4.5, §5.3) over the game state.

A Withdrawal is a Group or Regroup Move made step by step like any other (:mod:`pbem.games.rommel.moves` checks
speed, roads, hexsides and disengaging); each step must also keep the mover on a Withdrawal
(:func:`pbem.games.rommel.supply.check_withdrawal`: along its own supply line, never away from its source, never
Engaging), judged from the position as the Move began. The network's loss of a hex (condition 3) is judged when
the Move ends. Supply depends only on public facts (positions, Disruption, battles), so every replay judges alike.

A Withdrawal whose units cannot reduce the network (or that its player gives up) is taken back: its units return
where they began and the turn's free Withdrawal is spent (the Moves its cards pay for are not), so a player is never
left with a Move it may not end.

The free Withdrawal is the Pass Turn's only Move (§4.5: "no other movement"): a turn that makes it begins no other
Move and no Forced March, and costs nothing for it at the reveal.
"""

from __future__ import annotations

from pbem.games.rommel.moves import EXIT, settled
from pbem.games.rommel.state import RommelState, Side
from pbem.games.rommel.supply import check_withdrawal
from pbem.games.rommel.supplycheck import fortress_assigned
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = ["begin_verdict", "end_verdict", "move_start", "step_verdict", "void_verdict", "voided"]


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


def _check(state: RommelState, side: Side, paths: dict[str, tuple[str, ...]]) -> Verdict:
    start = move_start(state)
    fortress = {t: f for t, f in fortress_assigned(start, side).items() if t in paths}
    return check_withdrawal(state.pack, start.position(), side, paths, fortress)


def step_verdict(state: RommelState, side: Side, token: str, to: str) -> Verdict:
    """§5.3 conditions 1, 2 and 4, and no Engaging, for ``token`` stepping on to ``to`` in the Withdrawal under
    way (the network's reduction is judged when the Move ends)."""
    if to == EXIT:  # the enemy map-end is never back towards one's own source
        return deny("5.3", "away-from-base", f"{token} would leave the map at the enemy end")
    turn = state.turn
    here = state.tokens[token].hex
    path = turn.current if token == turn.mover else (here or "",)
    verdict = _check(state, side, {token: (*path, to)})
    if not verdict.ok and verdict.reason != "network-not-reduced":
        return verdict
    return ALLOW


def end_verdict(state: RommelState, side: Side) -> Verdict:
    """§5.3: the whole Withdrawal Move, condition 3 included (the friendly Supply Network loses a hex)."""
    paths = {t: state.turn.paths[t] for t in state.turn.in_move}
    return _check(state, side, paths)


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
