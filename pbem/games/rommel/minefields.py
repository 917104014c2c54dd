"""Minefields (§14, §16.55): built in secret during Buildup, revealed when the enemy enters them.

A Minefield built in a Buildup is a hidden slot ``mine/<side>-<n>`` owned by its builder, holding its hex (the
action's secret field, like a block's identity). The builder's replay (and the verifier's full-disclosure replay)
checks the hex at once: inside the friendly Supply Network frozen for the Buildup, not a battle hex (§14.0,
§16.55); a replay that cannot see it checks the rest (the BP, the phase). Building costs the pack's
``bp_minefield``; the pack's ``minefield_swap`` Minefields inside the friendly network may instead be dismantled to
build one at no cost (§16.55; notes §10.21: any Minefield, as they are impartial, §14.0: one's own hidden ones or
revealed ones).

§14.2: a Minefield is revealed at the end of the Movement phase in which enemy units entered its hex. After every
Movement phase that entered a hex, a player with hidden Minefields opens those the active player's units entered
(``reveal_mine``), then says it is done (``mines_done``); the builder's replay refuses ``mines_done`` while one is
left closed and refuses opening one that was not entered, so a cheat is named by the verifier's full replay. An
opened Minefield is public in :attr:`RommelState.minefields`, where battles read it (§14.2, §9.52).
"""

from __future__ import annotations

from collections.abc import Iterable

from pbem.games.rommel.ledger import afford, counted, spend
from pbem.games.rommel.moves import EXIT
from pbem.games.rommel.redeploy import network
from pbem.games.rommel.state import RommelState, Side, other
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "build_verdict",
    "built",
    "dismantlable",
    "done_verdict",
    "entered",
    "hidden_mines",
    "mine_hex",
    "mines_due",
    "next_slot",
    "open_verdict",
    "opened",
    "site_verdict",
    "sites",
    "swap_verdict",
    "swapped",
]


def next_slot(state: RommelState, side: Side) -> str:
    """The slot of ``side``'s next Minefield (public: the number built so far is)."""
    return f"mine/{side}-{sum(1 for m in state.mines if m.startswith(f'mine/{side}-')) + 1}"


def mine_hex(state: RommelState, slot: str) -> str | None:
    """The hex of the Minefield in ``slot`` if this replay may see it."""
    held = state.hidden.get(slot)
    return held.value if held is not None and held.known and isinstance(held.value, str) else None


def hidden_mines(state: RommelState, side: Side) -> list[str]:
    """``side``'s Minefields still hidden (not revealed, not dismantled)."""
    return [m for m, status in sorted(state.mines.items()) if status == "hidden" and state.hidden[m].owner == side]


def site_verdict(state: RommelState, side: Side, hex_id: str | None) -> Verdict:
    """§14.0, §16.55: a Minefield's hex is inside the friendly Supply Network and not a battle hex (None: a hex
    this replay cannot see, judged by its builder's replay)."""
    if hex_id is None:
        return ALLOW
    if hex_id not in network(state, side):
        return deny("16.55", "outside-network", f"{hex_id} is outside the {side} Supply Network")
    if hex_id in state.battles:
        return deny("14.0", "battle-hex", f"{hex_id} is a battle hex")
    return ALLOW


def sites(state: RommelState, side: Side) -> list[str]:
    """The hexes a Minefield may be built in now."""
    return sorted(h for h in network(state, side) if h not in state.battles)


def build_verdict(state: RommelState, side: Side, hex_id: str | None) -> Verdict:
    """§16.55: a new Minefield for the pack's BP in a legal hex."""
    verdict = site_verdict(state, side, hex_id)
    if not verdict.ok:
        return verdict
    return afford(state, side, state.pack.limit("bp_minefield"), "a Minefield")


def built(state: RommelState, side: Side, slot: str, *, cost: bool = True) -> RommelState:
    """The state with the Minefield in ``slot`` (its hex already in the slot) built and, if ``cost``, paid for."""
    state = state.model_copy(update={"mines": {**state.mines, slot: "hidden"}})
    if not cost:
        return state
    bp = state.pack.limit("bp_minefield")
    return counted(spend(state, side, bp), side, "minefields", bp)


def dismantlable(state: RommelState, side: Side) -> list[str]:
    """The Minefields ``side`` may name for dismantling: its own hidden ones (slots) and the revealed ones (hexes)."""
    return [*hidden_mines(state, side), *sorted(set(state.minefields))]


def _in_network(state: RommelState, side: Side, mine: str) -> Verdict:
    if mine.startswith("mine/"):
        if state.mines.get(mine) != "hidden" or state.hidden[mine].owner != side:
            return deny("16.55", "not-a-minefield", f"{mine} is not a hidden {side} Minefield")
        hex_id = mine_hex(state, mine)
    elif mine in state.minefields:
        hex_id = mine
    else:
        return deny("16.55", "not-a-minefield", f"{mine} holds no known Minefield")
    if hex_id is not None and hex_id not in network(state, side):
        return deny("16.55", "outside-network", f"the Minefield {mine} is outside the {side} Supply Network")
    return ALLOW


def swap_verdict(state: RommelState, side: Side, first: str, second: str, hex_id: str | None) -> Verdict:
    """§16.55: two Minefields inside the friendly network dismantled, one built free in a legal hex."""
    if first == second:
        return deny("16.55", "same-minefield", "two different Minefields are dismantled")
    for mine in (first, second):
        verdict = _in_network(state, side, mine)
        if not verdict.ok:
            return verdict
    order = dismantlable(state, side)  # a pair has one written form: its Minefields in the order the list gives
    if order.index(first) > order.index(second):
        return deny("16.55", "pair-order", f"name {second} before {first}: the pair is written in list order")
    return site_verdict(state, side, hex_id)


def swapped(state: RommelState, side: Side, first: str, second: str, slot: str) -> RommelState:
    """The two Minefields gone (a revealed one leaves the map), the new one built in ``slot`` at no cost."""
    mines = dict(state.mines)
    minefields = list(state.minefields)
    for mine in (first, second):
        if mine.startswith("mine/"):
            mines[mine] = "dismantled"
        else:
            minefields.remove(mine)
            for name, status in mines.items():
                if status == "revealed" and mine_hex(state, name) == mine:
                    mines[name] = "dismantled"
                    break
    state = state.model_copy(update={"mines": mines, "minefields": tuple(minefields)})
    return built(state, side, slot, cost=False)


# --- revealing ------------------------------------------------------------------------------------------------


def entered(state: RommelState) -> frozenset[str]:
    """The hexes the active player's units entered this Movement phase (Forced Marches announced included)."""
    hexes = {h for path in state.turn.paths.values() for h in path[1:] if h != EXIT}
    return frozenset(hexes | set(state.turn.forced.values()))


def mines_due(state: RommelState) -> bool:
    """Whether the passive player must say which of its hidden Minefields were entered (public facts only)."""
    return bool(hidden_mines(state, other(state.active))) and bool(entered(state))


def open_verdict(state: RommelState, side: Side, slot: str) -> Verdict:
    """§14.2: the passive player opens one of its hidden Minefields that the enemy entered."""
    if state.mines.get(slot) != "hidden" or state.hidden[slot].owner != side:
        return deny("14.2", "not-a-minefield", f"{slot} is not a hidden {side} Minefield")
    hex_id = mine_hex(state, slot)
    if hex_id is not None and hex_id not in entered(state):
        return deny("14.2", "not-entered", f"the enemy did not enter the Minefield {slot}: it stays hidden")
    return ALLOW


def done_verdict(state: RommelState, side: Side) -> Verdict:
    """§14.2: every hidden Minefield the enemy entered is open."""
    left = [m for m in hidden_mines(state, side) if mine_hex(state, m) in entered(state)]
    if left:
        return deny("14.2", "must-reveal", f"the enemy entered the Minefield {left[0]}: reveal it")
    return ALLOW


def opened(state: RommelState, names: Iterable[str]) -> RommelState:
    """The Minefields just opened are public: their hexes join :attr:`RommelState.minefields`."""
    mines = dict(state.mines)
    minefields = list(state.minefields)
    for name in names:
        if name in mines and mines[name] != "dismantled":
            hex_id = mine_hex(state, name)
            if mines[name] == "hidden" and hex_id is not None:
                mines[name] = "revealed"
                minefields.append(hex_id)
    return state.model_copy(update={"mines": mines, "minefields": tuple(minefields)})
