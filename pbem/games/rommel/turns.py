"""Player-Turns (§3.4, §4): the Turn Option committed face down, the Moves, the Combat phase, the reveal (§3.48),
and the end of the Month after two Passes in succession (§3.1, §4.5).

Cards are committed one at a time by hand position (their values stay hidden, §3.42). While they are hidden a
replay allows the Moves the committed count could pay for if every card were real; a replay that sees them allows
only what the real cards pay for. At the reveal (§3.48) the rules count the real cards: a turn that used more than
they pay for is forfeited by its player (:attr:`RommelState.forfeit`), and the verifier that sees the cards refuses
the first Move beyond them as it replays the log.
"""

from __future__ import annotations

from pbem.games.rommel.options import cost_of_moves, moves_paid, real_count
from pbem.games.rommel.scenarios import hand
from pbem.games.rommel.state import DECK, RommelState, Side, other
from pbem.rules.contract import ALLOW, DeckRequest, Event, Verdict, deny

__all__ = ["committed_cards", "end_turn", "moves_allowed", "revealed", "select_verdict"]


def committed_cards(state: RommelState) -> tuple[int | None, ...]:
    """The committed cards' values as this replay sees them (None where unknown)."""
    cards = hand(state, state.active)
    return tuple(cards[i] for i in state.turn.committed or () if i < len(cards))


def moves_allowed(state: RommelState) -> int:
    """The Moves this turn's committed cards pay for (§4): counted exactly where the cards are known, else as if all
    were real."""
    cards = committed_cards(state)
    real = real_count(state.pack, cards)
    return moves_paid(state.pack, len(cards) if real is None else real)


def select_verdict(state: RommelState, seat: Side, card: int) -> Verdict:
    """§3.42: commit the card at hand position ``card`` (held, not already committed)."""
    if state.turn.stage != "select":
        return deny("3.42", "not-selecting", "the Turn Option is already selected")
    if not 0 <= card < len(hand(state, seat)):
        return deny("3.42", "not-held", f"{seat} holds no card at position {card}")
    if card in (state.turn.committed or ()):
        return deny("3.42", "already-committed", f"the card at position {card} is already committed")
    return ALLOW


def end_turn(state: RommelState) -> RommelState:
    """§3.48: reveal the committed cards (the deck protocol), or go straight on when none were committed."""
    committed = state.turn.committed or ()
    if committed:
        request = DeckRequest(deck=DECK, op="reveal", seat=state.active, hand=tuple(sorted(committed)))
        return state.model_copy(update={"turn": state.turn.model_copy(update={"stage": "reveal"})}).with_deck(request)
    return _next_turn(state, 0)


def revealed(state: RommelState, cards: tuple[int, ...]) -> tuple[RommelState, list[Event]]:
    """§3.48, §4: the committed cards are face up: check that they paid for the turn, then go on."""
    real = real_count(state.pack, cards) or 0
    needed = cost_of_moves(state.pack, state.turn.moves)
    if state.turn.fought:  # a Combat Round needs at least a Basic Turn (§4.1); an Assault its own cost (§4.3)
        needed = max(needed, state.pack.limit("cost_basic"))
    if state.turn.assault:
        needed = max(needed, state.pack.limit("cost_assault"))
    if state.turn.blitz:  # §4.4: Blitz Movement and Combat need a Blitz Turn
        needed = max(needed, state.pack.limit("cost_blitz"))
    events = [
        Event(
            kind="supply_revealed",
            seat=state.active,
            rule="3.48",
            data={"cards": list(cards), "real": real, "moves": state.turn.moves},
            text=f"{state.active} reveals {len(cards)} cards, {real} real",
        )
    ]
    if real > 0 and state.turn.skipped:  # a mandatory battle left unfought in a turn that was not a Pass
        events.append(
            Event(
                kind="battle_skipped",
                seat=state.active,
                rule="8.6",
                text=f"{state.active} left a mandatory battle unfought with {real} real cards and forfeits",
            )
        )
        update = {"phase": "over", "forfeit": state.active, "winner": other(state.active)}
        return state.model_copy(update=update), events
    if real < needed:
        events.append(
            Event(
                kind="turn_unpaid",
                seat=state.active,
                rule="4.0",
                data={"real": real, "needed": needed},
                text=f"{state.active} made {state.turn.moves} Moves with {real} real cards and forfeits the game",
            )
        )
        return state.model_copy(
            update={"phase": "over", "forfeit": state.active, "winner": other(state.active)}
        ), events
    return _next_turn(state, real), events


def _next_turn(state: RommelState, real: int) -> RommelState:
    """The other player's turn; ``passes`` counts Passes in succession (two end the Month, §3.1, §4.5). Fortresses
    change hands at the end of a Player-Turn, held solely by undisrupted units (§13.4)."""
    fortresses = dict(state.fortresses)
    for place in state.pack.map.places:
        if place.kind != "fortress":
            continue
        there = [state.tokens[t] for t in state.at(place.hex)]
        sides = {t.side for t in there}
        if len(sides) == 1 and all(not t.disrupted for t in there):
            fortresses[place.id] = there[0].side
    passes = state.passes + 1 if real == 0 else 0
    update = {"passes": passes, "active": other(state.active), "fortresses": fortresses}
    return state.model_copy(update=update)
