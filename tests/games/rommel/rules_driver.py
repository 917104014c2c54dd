"""Drives the Rommel ruleset without the protocol, for rule tests: secret fields go to their slots, the shared deck
deals a fixed order of cards, and dice are given by the test (the real protocol is exercised by the play-outs)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.games.rommel.ruleset import RULESET
from pbem.games.rommel.state import DECK, RommelState
from pbem.rules.contract import Deck, Outcome, Roster, RosterSeat, Verdict

R = RULESET
ROSTER = Roster(seats=(RosterSeat(seat="axis", team="axis"), RosterSeat(seat="allied", team="allied")))


class Table:
    """One game driven by hand: ``cards`` is the deck's order, top first (every card known to the test)."""

    def __init__(self, scenario: str, cards: Sequence[int] | None = None, dice: Sequence[int] = ()) -> None:
        self.state: RommelState = R.setup(scenario, {}, ROSTER, R.load_data(R.default_data()))
        pack = self.state.pack
        self.order = list(cards) if cards is not None else list(range(pack.deck.real + pack.deck.dummy))
        self.dice = list(dice)
        self.events: list[Any] = []

    def legal(self, seat: str) -> list[dict[str, Any]]:
        return R.legal_actions(self.state, seat)

    def check(self, seat: str, action: dict[str, Any]) -> Verdict:
        return R.check(self.state, seat, action)

    def do(self, seat: str, action: dict[str, Any], *, listed: bool = True) -> None:
        """Apply ``action`` (which must be legal), then run the deck and dice the rules ask for."""
        if listed:
            assert action in self.legal(seat), (action, self.legal(seat)[:5])
        verdict = R.check(self.state, seat, action)
        assert verdict.ok, verdict
        logged = dict(action)
        state = self.state
        for field, slot in R.secret_fields(state, seat, action).items():
            state = state.with_hidden(slot, seat, logged.pop(field), known=True)
        step = R.apply(state, seat, R.typed(logged))
        self.events.extend(step.events)
        self.state = step.state
        self.run()

    def run(self) -> None:
        """Answer the deck requests, dice and openings the rules make, as the engine would."""
        while True:
            state = self.state
            if state.deck is not None:
                self.state = self._deck(state)
            elif state.rolls is not None:
                request = state.rolls
                faces = {}
                for spec in request.rolls:
                    faces[spec.id] = tuple(self.dice.pop(0) for _ in range(spec.n))
                step = R.resume(state.without_first_roll(), Outcome(dice=faces))
                self.events.extend(step.events)
                self.state = step.state
            elif any(s.must_open for s in state.hidden.values()):
                names = tuple(n for n, s in state.hidden.items() if s.must_open)
                opened = {n: state.hidden[n].model_copy(update={"must_open": False, "public": True}) for n in names}
                hidden = {**state.hidden, **opened}
                step = R.resume(state.model_copy(update={"hidden": hidden}), Outcome(opened=names))
                self.events.extend(step.events)
                self.state = step.state
            else:
                return

    def _deck(self, state: RommelState) -> RommelState:
        request = state.deck
        assert request is not None
        deck = state.decks.get(DECK, Deck(size=0))
        revealed: tuple[int, ...] = ()
        if request.op == "shuffle":
            if request.size:
                deck = Deck(size=request.size, hands={}, faceup=())
                self.remaining = list(self.order)
            else:
                back = [c for c in deck.faceup if c in request.returned]
                self.remaining.extend(back)
                deck = deck.model_copy(
                    update={"size": deck.size + len(back), "faceup": tuple(c for c in deck.faceup if c not in back)}
                )
        elif request.op == "deal":
            assert request.seat is not None
            dealt = tuple(self.remaining[: request.n])
            self.remaining = self.remaining[request.n :]
            hands = {**deck.hands, request.seat: (*deck.hands.get(request.seat, ()), *dealt)}
            deck = deck.model_copy(update={"size": deck.size - request.n, "hands": hands})
        else:
            assert request.seat is not None
            cards = deck.hands[request.seat]
            revealed = tuple(cards[i] for i in request.hand if cards[i] is not None)  # type: ignore[misc]
            kept = tuple(c for i, c in enumerate(cards) if i not in request.hand)
            deck = deck.model_copy(
                update={"hands": {**deck.hands, request.seat: kept}, "faceup": (*deck.faceup, *revealed)}
            )
        state = state.model_copy(update={"deck": None, "decks": {**state.decks, DECK: deck}})
        step = R.resume(state, Outcome(revealed=revealed))
        self.events.extend(step.events)
        return step.state

    def first_legal(self, seat: str, name: str) -> dict[str, Any]:
        return next(a for a in self.legal(seat) if a["action"] == name)

    def set_up(self) -> None:
        """Every block identified and deployed at its first legal hex, both hands kept."""
        while self.state.phase == "setup":
            seat = R.to_act(self.state)[0]
            self.do(seat, self.legal(seat)[0])
        while self.state.phase == "mulligan":
            self.do(R.to_act(self.state)[0], {"action": "keep"})

    def refusal(self, seat: str, action: dict[str, Any]) -> tuple[str | None, str]:
        assert action not in self.legal(seat)
        verdict = R.check(self.state, seat, action)
        assert not verdict.ok
        return verdict.rule, verdict.reason
