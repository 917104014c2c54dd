"""The Initiative Challenge (§3.3): the Allies may commit one card face down, the Axis may answer with one; the
Allies seize the Initiative only with a real card the Axis has not matched with a real one. Both cards are spent.
No challenge in a scenario's first Month (there is no Initiative phase then)."""

from __future__ import annotations

from pbem.games.rommel.options import is_real
from pbem.games.rommel.scenarios import hand
from pbem.games.rommel.state import DECK, RommelState, Side
from pbem.games.rommel.supplycheck import begin_turn
from pbem.rules.contract import ALLOW, DeckRequest, Event, Verdict, deny

__all__ = ["answered", "card_verdict", "challenged", "initiative_revealed"]


def card_verdict(state: RommelState, side: Side, card: int | None) -> Verdict:
    """§3.3: a card of the hand (by position), or none."""
    if card is not None and not 0 <= card < len(hand(state, side)):
        return deny("3.3", "not-held", f"{side} holds no card at position {card}")
    return ALLOW


def challenged(state: RommelState, card: int | None) -> tuple[RommelState, list[Event]]:
    """The Allied decision: no challenge (the Axis keeps the Initiative) or a card committed face down."""
    if card is None:
        event = Event(kind="initiative_kept", seat="axis", rule="3.3", text="No challenge: the Axis has the Initiative")
        return _begin(state, "axis"), [event]
    event = Event(
        kind="initiative_challenged", seat="allied", rule="3.3", text="The Allies challenge for the Initiative"
    )
    return state.model_copy(update={"challenge": {"allied": card}}), [event]


def answered(state: RommelState, card: int | None) -> RommelState:
    """The Axis answer (a card or none); the Allied card is then revealed."""
    challenge = {**state.challenge, "axis": card}
    allied = state.challenge["allied"]
    assert allied is not None
    request = DeckRequest(deck=DECK, op="reveal", seat="allied", hand=(allied,))
    return state.model_copy(update={"challenge": challenge}).with_deck(request)


def initiative_revealed(state: RommelState, cards: tuple[int, ...]) -> tuple[RommelState, list[Event]]:
    """After each reveal: reveal the Axis card if any, then decide (§3.3)."""
    challenge = dict(state.challenge)
    if "allied_card" not in challenge:
        challenge["allied_card"] = cards[0]
        axis = challenge.get("axis")
        if axis is not None:
            request = DeckRequest(deck=DECK, op="reveal", seat="axis", hand=(axis,))
            return state.model_copy(update={"challenge": challenge}).with_deck(request), []
    else:
        challenge["axis_card"] = cards[0]
    allied_card = challenge["allied_card"]
    allied_real = allied_card is not None and is_real(state.pack, allied_card)
    axis_card = challenge.get("axis_card")
    axis_real = axis_card is not None and is_real(state.pack, axis_card)
    winner: Side = "allied" if allied_real and not axis_real else "axis"
    event = Event(
        kind="initiative_decided",
        seat=winner,
        rule="3.3",
        data={"allied_card": challenge["allied_card"], "axis_card": axis_card, "first": winner},
        text=f"{winner} has the Initiative",
    )
    return _begin(state.model_copy(update={"challenge": challenge}), winner), [event]


def _begin(state: RommelState, first: Side) -> RommelState:
    """The Month's first Player-Turn."""
    state, _ = begin_turn(state.model_copy(update={"passes": 0}), first)
    return state
