"""The off-board boxes (§16.4 sidebar, §16.52): reinforcements, and refitted units coming back, cannot arrive in an
engaged Base; they wait off the map as one Group, one hex directly east or west of it (the pack's ``offboard`` box),
and only a normal Group Move in a later Player-Turn brings them in, across no hexside limit.

A unit arriving while enemy units stand in its Base (:func:`base_engaged`) is ``waiting`` in its side's box
(:func:`arrive`). A Group Move from the box (its ``origin`` is the box's id) steps any of them into the Base
(:func:`enter_verdict`, :func:`entered`); entering enemy units there joins their battle. Waiting units are not on the
map: no supply check, Replacement or Redeployment reaches them; at the end of the game they count in their Base like
refitting units (notes §9 [DECIDE], recommendation: off-board units count), :func:`count_in`.

RULING (entering from the box): the step into the Base is the unit's whole move. The box is not a hex of the pack's
map, so the board cannot judge a path through it; while the Base is engaged the unit stops there anyway, Engaging
(§7.0). It is told in ``docs/rommel-rules.md``.
"""

from __future__ import annotations

from pbem.games.rommel.state import BattleRecord, RommelState, Side, Token, other
from pbem.games.rommel.supply import base_hex
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = ["arrive", "base_engaged", "box", "count_in", "enter_verdict", "entered", "is_box", "waiting"]


def box(state: RommelState, side: Side) -> str:
    """The id of ``side``'s off-board box (the pack's, §16.4 sidebar)."""
    return next(b.id for b in state.pack.map.offboard if b.side == side)


def is_box(state: RommelState, place: str) -> bool:
    return any(b.id == place for b in state.pack.map.offboard)


def base_engaged(state: RommelState, side: Side) -> bool:
    """Whether enemy units stand in ``side``'s Base (§16.4 sidebar: an engaged Base)."""
    return any(state.tokens[t].side != side for t in state.at(base_hex(state.pack, side)))


def arrive(state: RommelState, tok: Token) -> Token:
    """``tok`` arriving (a reinforcement, §16.4; a refitted unit, §16.52): in its Base, or waiting in the box while
    the Base is engaged."""
    if base_engaged(state, tok.side):
        return tok.model_copy(update={"status": "waiting", "hex": None})
    return tok.model_copy(update={"status": "map", "hex": base_hex(state.pack, tok.side)})


def waiting(state: RommelState, side: Side) -> list[str]:
    """``side``'s units waiting in its box, in token order."""
    return sorted(t for t, tok in state.tokens.items() if tok.side == side and tok.status == "waiting")


def enter_verdict(state: RommelState, side: Side, token: str, to: str) -> Verdict:
    """§16.4 sidebar: a waiting unit of the Group Move from the box steps into its Base, and only there."""
    turn = state.turn
    tok = state.tokens.get(token)
    if turn.move is None or turn.move != ("group", box(state, side)):
        return deny("16.4", "not-from-box", "units waiting off the map enter by a Group Move from their box")
    if tok is None or tok.side != side or tok.status != "waiting":
        return deny("16.4", "not-waiting", "only the units waiting in the box step in from it")
    if to != base_hex(state.pack, side):
        return deny("16.4", "only-the-base", f"from the box a unit enters its Base, {base_hex(state.pack, side)}")
    return ALLOW


def entered(state: RommelState, side: Side, token: str) -> RommelState:
    """The unit in its Base, its move over (RULING above); among enemy units it joins their battle (no hexside is
    crossed: the box's side has no limit, §16.4 sidebar)."""
    base = base_hex(state.pack, side)
    tokens = {**state.tokens, token: state.tokens[token].model_copy(update={"status": "map", "hex": base})}
    battles = dict(state.battles)
    if any(tokens[t].side != side for t in state.at(base)) and base not in battles:
        battles[base] = BattleRecord(defender=other(side), attacker=side)
    turn = state.turn.model_copy(
        update={
            "paths": {**state.turn.paths, token: (base,)},
            "in_move": (*state.turn.in_move, token),
            "mover": None,
            "current": (),
        }
    )
    return state.model_copy(update={"tokens": tokens, "battles": battles, "turn": turn})


def count_in(state: RommelState) -> tuple[RommelState, list[str]]:
    """The end of the game: every refitting or waiting unit counts in its Base (notes §8, §9), where the rules open
    it for the count (§17.2)."""
    tokens = dict(state.tokens)
    back: list[str] = []
    for token, tok in sorted(tokens.items()):
        if tok.status in ("refit", "waiting"):
            update = {"status": "map", "hex": base_hex(state.pack, tok.side), "disrupted": False, "unsupplied": False}
            tokens[token] = tok.model_copy(update=update)
            back.append(token)
    return state.model_copy(update={"tokens": tokens}), back
