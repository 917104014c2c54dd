"""Raiders (§12.5): an Unsupplied unit entering a battle across an enemy battle hexside neither makes that hexside
friendly nor regains a supply line by it. If the hexside is still enemy after all movement, the unit is a Raider:
behind enemy lines, cut off from friendly supply (so Disrupted at the Final Supply Check) until the battle ends.

Everything here is public (Unsupplied markers, battle hexsides, positions), so every replay judges alike.
"""

from __future__ import annotations

from pbem.games.rommel.state import BattleRecord, RommelState, Side
from pbem.rules.contract import Event

__all__ = ["cut_off", "entry_held", "mark"]


def _owner(record: BattleRecord, hexside: str) -> Side:
    """§12.5: a battle hexside is friendly to the side that last crossed it, else to the Original Defender."""
    return record.crossed.get(hexside, record.defender)


def entry_held(state: RommelState, seat: Side, token: str, record: BattleRecord | None, hexside: str) -> bool:
    """Whether ``token`` entering the battle ``record`` across ``hexside`` leaves the hexside to the enemy: an
    Unsupplied unit entering an existing battle across an enemy hexside (§12.5)."""
    return record is not None and state.tokens[token].unsupplied and _owner(record, hexside) != seat


def cut_off(state: RommelState, token: str) -> bool:
    """Whether ``token`` is a Raider still in its battle: no friendly supply reaches it (§12.5)."""
    tok = state.tokens[token]
    return tok.raider and tok.hex in state.battles


def mark(state: RommelState) -> tuple[RommelState, list[Event]]:
    """After all movement: the units whose raid hexside is still enemy become Raiders; Raiders whose battle has
    ended (won, or left) are Raiders no more (§12.5)."""
    tokens = dict(state.tokens)
    marked: list[str] = []
    for token, tok in sorted(tokens.items()):
        hexside = state.turn.raids.get(token)
        record = state.battles.get(tok.hex or "")
        if hexside is not None and record is not None and _owner(record, hexside) != tok.side:
            if not tok.raider:
                marked.append(token)
            tokens[token] = tok.model_copy(update={"raider": True})
        elif tok.raider and record is None:
            tokens[token] = tok.model_copy(update={"raider": False})
    events = [Event(kind="raiders_marked", seat=state.active, rule="12.5", data={"units": marked})] if marked else []
    return state.model_copy(update={"tokens": tokens}), events
