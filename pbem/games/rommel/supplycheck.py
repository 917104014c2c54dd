"""Supply checks (§12.7): Initial and Final in each Player-Turn, and the Buildup Supply Check (§16.2), with
Disruption recovery (§11.2).

A unit is Supplied when it has a line to its Base (:func:`pbem.games.rommel.supply.supply_lines`), to an isolated
friendly Fortress within the Fortress's Port Capacity (§13.3: units inside first, then the nearest), or sits in a
friendly Oasis (§15.1: one unit).

RULING (Fortress and Oasis supply): the rules let the owner choose among equally near units; the module assigns
them in token order, the same for every replay, so no decision is needed. Units left out of a Fortress's capacity
are Unsupplied.
"""

from __future__ import annotations

from pbem.games.rommel.board import hex_state
from pbem.games.rommel.moves import settled
from pbem.games.rommel.present import SIDE_NAMES, public_label, public_labels
from pbem.games.rommel.raiders import cut_off
from pbem.games.rommel.state import SIDES, RommelState, Side, TurnRecord
from pbem.games.rommel.supply import Network, fortress_lines, supply_lines
from pbem.rules.contract import Event

__all__ = ["begin_turn", "buildup_check", "final_check", "fortress_assigned", "initial_check", "supplied"]


def fortress_assigned(state: RommelState, side: Side, base: Network | None = None) -> dict[str, str]:
    """§13.3: ``side``'s tokens on Fortress supply, with the Fortress (a place id) each traces to: tokens without a
    line to Base (``base``: its network, if already traced), by isolated friendly Fortress, nearest first up to its
    Port Capacity (RULING: token order)."""
    pack = state.pack
    position = state.position()
    base = supply_lines(pack, position, side) if base is None else base
    found = set(base.supplied)
    assigned: dict[str, str] = {}
    for place in pack.map.places:
        if place.kind == "fortress" and state.fortresses.get(place.id) == side and place.hex not in base.length:
            assert place.port is not None
            capacity = place.port.axis if side == "axis" else place.port.allied
            lines = fortress_lines(pack, position, side, place.id)
            ranked = sorted((lines.length[state.tokens[t].hex or ""], t) for t in lines.supplied if t not in found)
            for _, token in ranked[:capacity]:
                assigned[token] = place.id
                found.add(token)
    return assigned


def supplied(state: RommelState, side: Side) -> frozenset[str]:
    """``side``'s Supplied tokens on the map (§12.1-§12.6, §13.3, §15.1)."""
    pack = state.pack
    position = state.position()
    base = supply_lines(pack, position, side)
    found = set(base.supplied) | set(fortress_assigned(state, side, base))
    for place in pack.map.places:
        if place.kind == "oasis":
            kind = hex_state(pack, position, side, place.hex)
            record = state.battles.get(place.hex)
            if kind == "friendly" or (kind == "battle" and record is not None and record.defender == side):
                inside = [t for t in state.at(place.hex) if state.tokens[t].side == side and t not in found]
                found |= set(inside[: pack.limit("oasis_supply_units")])
    return frozenset(t for t in found if not cut_off(state, t))  # §12.5: Raiders are cut off


def initial_check(state: RommelState) -> tuple[RommelState, list[Event]]:
    """§3.41, §12.7, §11.2: mark the Active Player's Unsupplied units; recover Disrupted units that are Supplied,
    not in a battle hex, and spent a whole enemy turn Disrupted."""
    side = state.active
    ok = supplied(state, side)
    tokens = dict(state.tokens)
    recovered = []
    for token in state.on_map(side):
        tok = tokens[token]
        update: dict[str, object] = {"unsupplied": token not in ok}
        if tok.disrupted and token in ok and tok.hex not in state.battles and tok.disrupted_turn < state.turn_no - 1:
            update |= {"disrupted": False}
            recovered.append(token)
        tokens[token] = tok.model_copy(update=update)
    marked = sorted(t for t in state.on_map(side) if t not in ok)
    events = [
        Event(
            kind="supply_checked",
            seat=side,
            rule="12.7",
            data={"unsupplied": marked, "recovered": recovered},
            text=f"{SIDE_NAMES[side]} Unsupplied: {public_labels(state, marked)}" if marked else "",
        )
    ]
    if recovered:
        text = f"{SIDE_NAMES[side]} recovered: {public_labels(state, recovered)}"
        events.append(Event(kind="recovered", seat=side, rule="11.2", data={"units": recovered}, text=text))
    return state.model_copy(update={"tokens": tokens}), events


def final_check(state: RommelState) -> tuple[RommelState, list[Event]]:
    """§3.47, §12.7, §12.1: units Unsupplied at both checks of the turn are Disrupted."""
    side = state.active
    ok = supplied(state, side)
    tokens = dict(state.tokens)
    disrupted = []
    for token in state.on_map(side):
        tok = tokens[token]
        if token in ok:
            tokens[token] = tok.model_copy(update={"unsupplied": False})
        elif tok.unsupplied and not tok.disrupted:
            tokens[token] = tok.model_copy(update={"disrupted": True, "disrupted_turn": state.turn_no})
            disrupted.append(token)
    text = f"{SIDE_NAMES[side]} Disrupted for want of supply: {public_labels(state, disrupted)}" if disrupted else ""
    event = Event(kind="supply_final", seat=side, rule="12.1", data={"disrupted": disrupted}, text=text)
    return state.model_copy(update={"tokens": tokens}), [event]


def buildup_check(state: RommelState) -> tuple[RommelState, list[Event]]:
    """§16.2, §12.7: each side's Unsupplied units are eliminated; Supplied, unengaged Disrupted units recover."""
    tokens = dict(state.tokens)
    eliminated: list[str] = []
    recovered: list[str] = []
    for side in SIDES:
        ok = supplied(state, side)
        for token in state.on_map(side):
            tok = tokens[token]
            if token not in ok:
                tokens[token] = tok.model_copy(update={"status": "eliminated", "hex": None, "disrupted": False})
                eliminated.append(token)
            elif tok.disrupted and tok.hex not in state.battles:
                tokens[token] = tok.model_copy(update={"disrupted": False, "unsupplied": False})
                recovered.append(token)
            else:
                tokens[token] = tok.model_copy(update={"unsupplied": False})
    named = "; ".join(public_label(state, t) for t in eliminated) or "none"
    battles = settled(tokens, dict(state.battles))
    event = Event(
        kind="buildup_supply_checked",
        rule="16.2",
        data={"eliminated": eliminated, "recovered": recovered},
        text=f"Buildup supply check: eliminated {named}" if eliminated else "",
    )
    return state.model_copy(update={"tokens": tokens, "battles": battles}), [event]


def begin_turn(state: RommelState, active: Side) -> tuple[RommelState, list[Event]]:
    """A new Player-Turn of ``active`` (§3.4), beginning with its Initial Supply Check (§3.41)."""
    state = state.model_copy(
        update={"phase": "turn", "active": active, "turn": TurnRecord(), "turn_no": state.turn_no + 1}
    )
    return initial_check(state)
