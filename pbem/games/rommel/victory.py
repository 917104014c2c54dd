"""Victory (§17): Strategic (sudden death: the enemy Base), then at the end Decisive, Positional and Attrition.

Units in play count one each; German units count the pack's ``german_unit_halves`` halves (1.5, §17.2), which needs
the units' identities: the rules open every block on the map when the last Month ends.
"""

from __future__ import annotations

from pbem.games.rommel.moves import known_block
from pbem.games.rommel.state import SIDES, RommelState, Side, other
from pbem.games.rommel.supply import base_hex
from pbem.rules.contract import Event

__all__ = ["base_taken", "exits_won", "final_result", "unit_halves"]


def base_taken(state: RommelState) -> Side | None:
    """§17.1: the side whose units alone occupy the enemy Base (§1.2 control), if any."""
    for side in SIDES:
        there = {state.tokens[t].side for t in state.at(base_hex(state.pack, other(side)))}
        if there == {side}:
            return side
    return None


def exits_won(state: RommelState) -> Side | None:
    """§17.1: the side that has exited the pack's number of Supplied units off the enemy map-end (RULING, notes
    §10.16: counted over the whole game)."""
    need = state.pack.limit("strategic_exit_units")
    return next((side for side in SIDES if state.exited.get(side, 0) >= need), None)


def unit_halves(state: RommelState, side: Side) -> int:
    """§17.2, §17.4: ``side``'s units in play, in halves (a German unit counts 1.5)."""
    halves = 0
    for token in state.on_map(side):
        block = known_block(state, token)
        german = block is not None and state.pack.block(block).nationality == "german"
        halves += state.pack.limit("german_unit_halves") if german else 2
    return halves


def _tobruk_held(state: RommelState) -> Side | None:
    """§17.3, §13.5: the side holding Tobruk, provided no adjacent hex holds enemy units (not besieged)."""
    holder = state.fortresses.get("tobruk")
    if holder is None:
        return None
    where = state.pack.place("tobruk").hex
    for near in state.pack.hex_map.neighbours(where):  # type: ignore[arg-type]
        if any(state.tokens[t].side != holder for t in state.at(near)):
            return None
    if any(state.tokens[t].side != holder for t in state.at(where)):
        return None
    return holder


def final_result(state: RommelState) -> tuple[Side | None, str, list[Event]]:
    """§17.2-§17.4 at the end of the last Month: the highest level either side achieves, else a draw."""
    halves = {side: unit_halves(state, side) for side in SIDES}
    ratio = state.pack.limit("decisive_ratio")
    winner: Side | None = None
    level = "a draw"
    rule = "17.0"
    for side in SIDES:
        if halves[side] >= ratio * halves[other(side)] and halves[side] > 0:
            winner, level, rule = side, "Decisive Victory", "17.2"
    if winner is None:
        held = _tobruk_held(state)
        if held is not None:
            winner, level, rule = held, "Positional Victory", "17.3"
    if winner is None and halves["axis"] != halves["allied"]:
        winner = "axis" if halves["axis"] > halves["allied"] else "allied"
        level, rule = "Attrition Victory", "17.4"
    text = f"{winner}: {level}" if winner else "a draw"
    event = Event(kind="game_over", seat=winner, rule=rule, data={"halves": halves, "level": level}, text=text)
    return winner, (f"{winner} wins: {level}" if winner else "a draw"), [event]
