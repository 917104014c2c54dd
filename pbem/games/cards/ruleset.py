"""High Card: a small example game for two or three players on one shared hidden deck, dealt with no dealer.

Rules (cited by number in refusals and events):

* C1 Deck. One deck of ``cards`` cards ranked 0 to cards−1 (option, default 12), shuffled by both players
  before play (C1.1); neither player learns the order.
* C2 Deal. Each player is dealt ``hand`` cards (option, default 3), first player first (C2.1). Hand sizes
  are public, the cards are seen by their owner alone (C2.2).
* C3 Tricks. The leader plays a card from its hand face up (C3.1), then each other player in seat order
  (C3.2). The highest card wins the trick and a point, and its player leads the next trick (C3.3).
* C4 Resupply. When both hands are down to ``keep`` cards (option, default 0), every face-up card goes back
  into the deck, which both players shuffle again, and each hand is dealt up to ``hand`` cards again (C4.1),
  for ``deals`` deals in all (option, default 2). Kept cards stay in their hands through the reshuffle.
* C6 Dealer. With the option ``dealer``, the game's referee deals (the weaker mode of PROTOCOL.md §14.10:
  the order is still fixed by the players, but the referee sees every hand) (C6.1).
* C5 End. After the last deal's tricks the player with the most points wins; a shared lead is a draw (C5.1).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from pbem.errors import DataPackError, PbemError
from pbem.rules.contract import (
    ALLOW,
    OMNISCIENT,
    Action,
    DeckRequest,
    Event,
    GameState,
    OptionSpec,
    Outcome,
    Result,
    Roster,
    Ruleset,
    Scenario,
    SeatSpec,
    Step,
    UnitView,
    Verdict,
    View,
    deny,
)

__all__ = ["RULESET", "HighCard"]

DECK = "main"


class CardsData(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    name: str


DATA = CardsData(name="a deck of ranked cards")


class Play(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: str
    card: int


class HighCardState(GameState):
    seats: tuple[str, ...]
    size: int
    hand_size: int
    keep: int
    deals: int
    deal: int = 1
    phase: Literal["dealing", "play", "over"] = "dealing"
    leader: str
    to_play: str | None = None
    trick: tuple[Play, ...] = ()
    points: dict[str, int]
    dealt: tuple[str, ...] = ()  # the seats dealt to in this deal


class HighCard(Ruleset[HighCardState]):
    id = "highcard"
    name = "High Card (example card game)"
    version = "1"
    scenarios = (
        Scenario(
            id="duel",
            name="Two players",
            seats=(SeatSpec(id="north", name="North", team="north"), SeatSpec(id="south", name="South", team="south")),
        ),
        Scenario(
            id="trio",
            name="Three players",
            seats=(
                SeatSpec(id="north", name="North", team="north"),
                SeatSpec(id="east", name="East", team="east"),
                SeatSpec(id="south", name="South", team="south"),
            ),
        ),
    )
    options = (
        OptionSpec(id="cards", description="cards in the deck", default=12),
        OptionSpec(id="hand", description="cards dealt to each player per deal", default=3),
        OptionSpec(id="deals", description="number of deals", default=2),
        OptionSpec(id="keep", description="cards each player keeps in hand through a resupply", default=0),
        OptionSpec(id="dealer", description="the referee deals (and sees every hand)", default=False),
    )

    # --- data -----------------------------------------------------------------------------------
    def default_data(self) -> bytes:
        return json.dumps(DATA.model_dump(), sort_keys=True, separators=(",", ":")).encode()

    def load_data(self, raw: bytes) -> CardsData:
        try:
            return CardsData.model_validate_json(raw)
        except ValidationError as exc:
            raise DataPackError("R006", f"highcard data pack: {exc.errors()[0]['msg']}") from exc

    def setup(self, scenario: str, options: Mapping[str, Any], roster: Roster, data: CardsData) -> HighCardState:
        seats = roster.players
        size, hand, deals, keep = (int(options[k]) for k in ("cards", "hand", "deals", "keep"))
        if not (0 <= keep < hand and len(seats) * hand <= size <= 256 and deals >= 1):
            raise PbemError("R007", "highcard needs 0 ≤ keep < hand, a hand for everyone, ≤ 256 cards and a deal")
        referees = [s.seat for s in roster.seats if s.role == "referee"]
        if options["dealer"] and not referees:
            raise PbemError("R007", "highcard's dealer option needs a referee seat (C6.1)")
        dealer = referees[0] if options["dealer"] else None
        state = HighCardState(
            seats=seats, size=size, hand_size=hand, keep=keep, deals=deals, leader=seats[0],
            points=dict.fromkeys(seats, 0),
        )  # fmt: skip
        return state.with_deck(DeckRequest(deck=DECK, op="shuffle", size=size, dealer=dealer))  # C1.1, C6.1

    # --- who acts ---------------------------------------------------------------------------------
    def to_act(self, state: HighCardState) -> tuple[str, ...]:
        return (state.to_play,) if state.phase == "play" and state.to_play is not None else ()

    def period(self, state: HighCardState) -> str:
        return f"deal-{min(state.deal, state.deals)}"

    def _hand(self, state: HighCardState, seat: str) -> tuple[int | None, ...]:
        deck = state.decks.get(DECK)
        return () if deck is None else deck.hands.get(seat, ())

    def legal_actions(self, state: HighCardState, seat: str) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [{"action": "play", "card": i} for i in range(len(self._hand(state, seat)))]

    def check(self, state: HighCardState, seat: str, action: Action) -> Verdict:
        if seat not in self.to_act(state):
            return deny("C3.1", "not-your-turn", f"{seat} does not play now")
        if action.get("action") != "play" or set(action) != {"action", "card"}:
            return deny("C3.1", "unknown-action", "the only action is play with the position of a card in hand")
        card = action["card"]
        if type(card) is not int or not 0 <= card < len(self._hand(state, seat)):
            return deny("C2.2", "not-in-hand", f"{seat} holds no card at position {json.dumps(card)}")
        return ALLOW

    # --- applying -----------------------------------------------------------------------------------
    def apply(self, state: HighCardState, seat: str, action: Action) -> Step[HighCardState]:
        request = DeckRequest(deck=DECK, op="reveal", seat=seat, hand=(int(action["card"]),))
        return Step(state=state.model_copy(update={"to_play": None}).with_deck(request))

    def resume(self, state: HighCardState, outcome: Outcome) -> Step[HighCardState]:
        if outcome.revealed:  # a card played (C3.1, C3.2)
            return self._played(state, outcome.revealed[0])
        if len(state.dealt) < len(state.seats):  # after the shuffle, or after a deal: deal the next hand (C2.1)
            seat = state.seats[len(state.dealt)]
            n = state.hand_size - len(self._hand(state, seat))  # up to a full hand (C4.1)
            request = DeckRequest(deck=DECK, op="deal", seat=seat, n=n)
            return Step(state=state.model_copy(update={"dealt": (*state.dealt, seat)}).with_deck(request))
        leader = state.leader
        return Step(state=state.model_copy(update={"phase": "play", "to_play": leader}))

    def _played(self, state: HighCardState, card: int) -> Step[HighCardState]:
        order = _trick_order(state)
        mover = order[len(state.trick)]
        trick = (*state.trick, Play(seat=mover, card=card))
        events = [Event(kind="card_played", seat=mover, rule="C3.1" if len(trick) == 1 else "C3.2",
                        data={"card": card}, text=f"{mover} plays {card}")]  # fmt: skip
        if len(trick) < len(state.seats):
            return Step(state=state.model_copy(update={"trick": trick, "to_play": order[len(trick)]}),
                        events=tuple(events))  # fmt: skip
        winner = max(trick, key=lambda p: p.card).seat
        points = {**state.points, winner: state.points[winner] + 1}
        events.append(Event(kind="trick_won", seat=winner, rule="C3.3", text=f"{winner} wins the trick"))
        state = state.model_copy(update={"trick": (), "points": points, "leader": winner, "to_play": winner})
        if any(len(self._hand(state, s)) > state.keep for s in state.seats):
            return Step(state=state, events=tuple(events))
        if state.deal >= state.deals:  # C5.1
            return Step(state=state.model_copy(update={"phase": "over", "to_play": None}), events=tuple(events))
        deck = state.decks[DECK]
        update = {"deal": state.deal + 1, "phase": "dealing", "to_play": None, "dealt": ()}
        request = DeckRequest(deck=DECK, op="shuffle", returned=deck.faceup)  # C4.1
        return Step(state=state.model_copy(update=update).with_deck(request), events=tuple(events))

    # --- results and views ------------------------------------------------------------------------
    def result(self, state: HighCardState) -> Result | None:
        if state.phase != "over":
            return None
        score = dict(state.points)
        best = max(score.values())
        winners = tuple(seat for seat in state.seats if score[seat] == best)
        if len(winners) > 1:
            return Result(winners=(), outcome="a draw", score=score)
        return Result(winners=winners, outcome=f"{winners[0]} wins on points", score=score)

    def view(self, state: HighCardState, viewer: str) -> View:
        deck = state.decks.get(DECK)
        units = []
        for seat in state.seats:
            hand = () if deck is None else deck.hand(seat, viewer)
            shown = viewer in (seat, OMNISCIENT)
            units.append(
                UnitView(
                    id=seat,
                    name=seat.title(),
                    side=seat,
                    location="table",
                    strength=state.points[seat],
                    hidden=not shown,
                    extra={"hand": list(hand) if shown else len(hand)},
                )
            )
        facts: dict[str, Any] = {
            "deck": 0 if deck is None else deck.size,
            "faceup": [] if deck is None else list(deck.faceup),
            "trick": [p.model_dump() for p in state.trick],
            "hands": {s: len(self._hand(state, s)) for s in state.seats},
        }
        summary = f"deal {min(state.deal, state.deals)} of {state.deals}, {state.phase}"
        if viewer in state.seats and deck is not None:  # a player sees its own cards, by position
            cards = ", ".join(f"{i}: {'?' if c is None else c}" for i, c in enumerate(deck.hand(viewer, viewer)))
            summary += f"; your hand (position: card): {cards or 'empty'}"
        if state.trick:
            summary += f"; on the table: {state.trick[0].seat} played {state.trick[0].card}"
        return View(viewer=viewer, summary=summary, units=tuple(units), facts=facts)

    def describe(self, action: Action) -> str:
        return f"play the card at position {action.get('card')} of your hand"

    def assert_invariants(self, state: HighCardState) -> None:
        deck = state.decks.get(DECK)
        if deck is not None:
            held = sum(len(h) for h in deck.hands.values())
            assert deck.size + held + len(deck.faceup) == state.size
            assert len({c for h in deck.hands.values() for c in h if c is not None} | set(deck.faceup)) == len(
                [c for h in deck.hands.values() for c in h if c is not None]
            ) + len(deck.faceup)


def _trick_order(state: HighCardState) -> tuple[str, ...]:
    """The seats in the order they play to the current trick: the leader, then the others in seat order (C3.2)."""
    start = state.seats.index(state.leader)
    return state.seats[start:] + state.seats[:start]


RULESET = HighCard()
