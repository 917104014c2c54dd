"""Triad: a tiny example game that exercises the whole engine contract (the protocol vectors use it).

Rules (cited by number in refusals and events):

* T1 Setup. Every seat secretly chooses a reserve of 1-3 (T1.1), all at once (a simultaneous secret phase).
* T2 Turns. Seats act in roster order, one action per turn, for the number of rounds in the options;
  a seat at 0 health is out and skipped (T2.2).
* T3 Attack another seat still in (T3.1). The defender chooses a stance (T3.2, a decision by the non-moving
  player). Then the attacker rolls 2d6 and the defender 1d6 (T3.3): damage is the attack minus the defence,
  doubled when blocking. A 12 rolls one more die of damage (T3.4, a chained roll). A dodging defender that
  rolls 1 or 2 loses one reserve point (T3.5, a hidden change caused by another seat's move).
* T4 Draw a card: a private d6 only the drawer learns (T4.1); at most two cards in hand (T4.2).
* T5 Play a card from the hand (T5.1): the card is opened and heals its value (T5.2).
* T6 Fortify: raise your own hidden reserve by one (T6.1), never above 5 (T6.2).
* T7 Pass.
* T8 End. After the last round every reserve is opened (T8.1); score is health plus reserve, highest wins
  (T8.2).

Rules of the scenarios added with contract v2 (``teams``, ``pairs`` and ``solo``; ``standard`` and ``duel`` are
unchanged):

* T9 Teams (``teams``: red and green against blue; ``pairs``: red and green against blue and yellow). An
  attack or a challenge targets a seat of another team (T9.1). A seat that resigns after set-up drops out: its
  health falls to 0 and the others play on (T9.2; before play starts a resignation ends the game). The game
  ends when the seats still in are all of one team (T9.3). A team scores the sum of its seats still in; the
  best team's seats still in win (T9.4).
* T10 Roll-off. Challenge a seat of another team (or, alone, fate): both roll one die at once, as two roll
  requests resolved in order, the challenger's first (T10.1). The lower die loses one health; a tie does
  nothing (T10.2). Alone, beating fate heals one (T10.3).
* T11 Gift (``teams``). Draw a card for a teammate still in: a private draw owned by the teammate, which
  only the teammate learns (T11.1); the teammate's hand limit applies (T4.2). Rally: the same gift with a
  die rolled at once, a public roll and the teammate's draw pending together; a 4 or more heals the mover
  one (T11.2).
* T12 Solitaire (``solo``: one seat). The same turns without attacks; the seat wins if its score at the end
  reaches 15 (T12.1).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pbem.errors import DataPackError
from pbem.rules.contract import (
    ALLOW,
    Action,
    ActionModel,
    Event,
    GameState,
    OptionSpec,
    Outcome,
    Result,
    RollRequest,
    RollSpec,
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

__all__ = ["RULESET", "Triad"]


class TriadData(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    health: int
    reserve_min: int
    reserve_max: int
    reserve_cap: int
    hand_limit: int
    card_sides: int


DATA = TriadData(health=12, reserve_min=1, reserve_max=3, reserve_cap=5, hand_limit=2, card_sides=6)


class Attack(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    attacker: str
    defender: str
    stance: Literal["block", "dodge"] | None = None


class Challenge(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    challenger: str
    target: str | None  # None: fate (solitaire)
    first: int | None = None  # the challenger's die, once its request has resolved


class TriadState(GameState):
    # the v2 scenarios' fields: absent from the standard and duel states, which hash as before
    omit_when_empty = GameState.omit_when_empty | {"scenario", "teams", "resigned", "challenge"}

    seats: tuple[str, ...]
    rounds: int
    data: TriadData
    phase: Literal["setup", "main", "defend", "reveal", "over"] = "setup"
    round: int = 1
    turn: int = 0
    health: dict[str, int]
    chosen: tuple[str, ...] = ()
    attack: Attack | None = None
    drawn: dict[str, int]
    hand: dict[str, tuple[str, ...]]
    playing: str | None = None
    fortified: dict[str, int]
    scenario: str = ""  # "teams" or "solo"; empty for standard and duel
    teams: dict[str, str] = Field(default_factory=dict)
    resigned: tuple[str, ...] = ()
    challenge: Challenge | None = None


SOLO_TARGET = 15  # T12.1
V2_SCENARIOS = ("teams", "solo")
TEAM_SCENARIOS = ("teams", "pairs")  # both play T9-T11; the state names them "teams"


# --- the actions (contract v2: typed, checked by the engine before the rules see them) ---------------------------
class ChooseReserve(ActionModel):
    """Choose your secret reserve (T1.1)."""

    action: Literal["choose_reserve"] = "choose_reserve"
    value: int | None = Field(default=None, title="reserve")  # secret: logged without it


class AttackSeat(ActionModel):
    """Attack another seat (T3.1)."""

    action: Literal["attack"] = "attack"
    target: str = Field(title="seat to attack")


class Defend(ActionModel):
    """Choose how to meet an attack (T3.2)."""

    action: Literal["defend"] = "defend"
    stance: Literal["block", "dodge"] = Field(title="stance")


class Draw(ActionModel):
    """Draw a card (T4.1)."""

    action: Literal["draw"] = "draw"


class Play(ActionModel):
    """Play a card from your hand (T5.1)."""

    action: Literal["play"] = "play"
    card: str = Field(title="card")


class Fortify(ActionModel):
    """Raise your reserve by one (T6.1)."""

    action: Literal["fortify"] = "fortify"


class Pass(ActionModel):
    """Pass (T7)."""

    action: Literal["pass"] = "pass"


class ChallengeSeat(ActionModel):
    """Challenge a seat of another team to a roll-off (T10.1); in solitaire, fate answers (T12.1)."""

    action: Literal["challenge"] = "challenge"
    target: str | None = Field(default=None, title="seat to challenge")


class Gift(ActionModel):
    """Draw a card for a teammate (T11.1)."""

    action: Literal["gift"] = "gift"
    target: str = Field(title="teammate")


class Rally(ActionModel):
    """Rally: a die for you and a card for a teammate (T11.2)."""

    action: Literal["rally"] = "rally"
    target: str = Field(title="teammate")


TriadAction = ChooseReserve | AttackSeat | Defend | Draw | Play | Fortify | Pass | ChallengeSeat | Gift | Rally
_PHASE_OF: dict[type[ActionModel], str] = {ChooseReserve: "setup", Defend: "defend"}


def _reserve(seat: str) -> str:
    return f"reserve/{seat}"


class Triad(Ruleset[TriadState]):
    id = "triad"
    name = "Triad (example game)"
    version = "1"
    scenarios = (
        Scenario(
            id="standard",
            name="Three seats",
            seats=(
                SeatSpec(id="red", name="Red", team="red"),
                SeatSpec(id="green", name="Green", team="green"),
                SeatSpec(id="blue", name="Blue", team="blue"),
            ),
        ),
        Scenario(
            id="duel",
            name="Two seats",
            seats=(SeatSpec(id="red", name="Red", team="red"), SeatSpec(id="blue", name="Blue", team="blue")),
        ),
        Scenario(
            id="teams",
            name="Two against one",
            seats=(
                SeatSpec(id="red", name="Red", team="north"),
                SeatSpec(id="green", name="Green", team="north"),
                SeatSpec(id="blue", name="Blue", team="south"),
            ),
            description="T9-T11: teams, resignations that let the game go on, roll-offs, gifts",
        ),
        Scenario(
            id="pairs",
            name="Two against two",
            seats=(
                SeatSpec(id="red", name="Red", team="north"),
                SeatSpec(id="blue", name="Blue", team="south"),
                SeatSpec(id="green", name="Green", team="north"),
                SeatSpec(id="yellow", name="Yellow", team="south"),
            ),
            description="T9-T11 with four seats, two on each team, the teams taking turns",
        ),
        Scenario(
            id="solo",
            name="Solitaire",
            seats=(SeatSpec(id="red", name="Red", team="red"),),
            description="T12: one seat, whose dice come from its own seed chain",
        ),
    )
    options = (OptionSpec(id="rounds", description="number of rounds", default=3),)
    actions = TriadAction

    # --- data -----------------------------------------------------------------------------------
    def default_data(self) -> bytes:
        return json.dumps(DATA.model_dump(), sort_keys=True, separators=(",", ":")).encode()

    def load_data(self, raw: bytes) -> TriadData:
        try:
            return TriadData.model_validate_json(raw)
        except ValidationError as exc:
            raise DataPackError("R006", f"triad data pack: {exc.errors()[0]['msg']}") from exc

    def setup(self, scenario: str, options: Mapping[str, Any], roster: Roster, data: TriadData) -> TriadState:
        seats = roster.players
        scenario = "teams" if scenario in TEAM_SCENARIOS else scenario
        return TriadState(
            seats=seats,
            rounds=int(options["rounds"]),
            data=data,
            health={s: data.health for s in seats},
            drawn={s: 0 for s in seats},
            hand={s: () for s in seats},
            fortified={s: 0 for s in seats},
            scenario=scenario if scenario in V2_SCENARIOS else "",
            teams={s: roster.team_of(s) for s in seats} if scenario == "teams" else {},
        )

    # --- who acts ---------------------------------------------------------------------------------
    def to_act(self, state: TriadState) -> tuple[str, ...]:
        if state.phase == "setup":
            return tuple(s for s in state.seats if s not in state.chosen)
        if state.phase == "main":
            return (state.seats[state.turn],)
        if state.phase == "defend":
            assert state.attack is not None
            return (state.attack.defender,)
        return ()

    def period(self, state: TriadState) -> str:
        return "setup" if state.phase == "setup" else f"round-{min(state.round, state.rounds)}"

    def secret_fields(self, state: TriadState, seat: str, action: Action) -> dict[str, str]:
        return {"value": _reserve(seat)} if action.get("action") == "choose_reserve" else {}

    # --- legality: contains() is the predicate, legal_actions() filters the candidates with it --------
    def _candidates(self, state: TriadState, seat: str) -> list[TriadAction]:
        d = state.data
        if state.phase == "setup":
            return [ChooseReserve(value=v) for v in range(d.reserve_min, d.reserve_max + 1)]
        if state.phase == "defend":
            return [Defend(stance="block"), Defend(stance="dodge")]
        if state.phase != "main":
            return []
        actions: list[TriadAction] = [AttackSeat(target=t) for t in state.seats if t != seat]
        if state.scenario == "solo":
            actions.append(ChallengeSeat())
        elif state.scenario == "teams":
            actions.extend(ChallengeSeat(target=t) for t in state.seats if t != seat)
            actions.extend(Gift(target=t) for t in state.seats if t != seat)
            actions.extend(Rally(target=t) for t in state.seats if t != seat)
        actions.append(Draw())
        actions.extend(Play(card=c) for c in state.hand[seat])
        actions.append(Fortify())
        actions.append(Pass())
        return actions

    def legal_actions(self, state: TriadState, seat: str) -> list[Action]:
        return [a.wire() for a in self._candidates(state, seat) if self.contains(state, seat, a).ok]

    def contains(
        self, state: TriadState, seat: str, action: TriadAction, *, unseen: frozenset[str] = frozenset()
    ) -> Verdict:
        act: TriadAction = self.typed(action)
        if seat not in self.to_act(state):
            return deny("T2.1", "not-your-turn", f"{seat} is not to act")
        if _PHASE_OF.get(type(act), "main") != state.phase:
            return deny("T2.1", "wrong-phase", f"{act.action} is not possible in the {state.phase} phase")
        d = state.data
        match act:
            case ChooseReserve(value=value):
                if value is None and "value" in unseen:
                    return ALLOW  # the redacted form: the exact value is checked at the audit
                if value is None or not d.reserve_min <= value <= d.reserve_max:
                    return deny("T1.1", "reserve-range", f"reserve must be {d.reserve_min}-{d.reserve_max}")
            case AttackSeat(target=target):
                if target == seat or target not in state.seats or state.health[target] <= 0:
                    return deny("T3.1", "target", f"{target} is not another seat still in the game")
                if state.teams and state.teams[target] == state.teams[seat]:
                    return deny("T9.1", "teammate", f"{target} is on {seat}'s team")
            case ChallengeSeat(target=target):
                if state.scenario not in V2_SCENARIOS:
                    return deny("T10.1", "no-challenge", "challenges belong to the teams and solo scenarios")
                if state.scenario == "solo" and target is not None:
                    return deny("T12.1", "no-target", "a solitaire challenge names no seat: fate answers")
                if state.scenario == "teams" and target is None:
                    return deny("T9.1", "no-target", "a challenge names a seat of another team")
                if state.scenario == "teams" and (
                    target not in state.seats
                    or state.health.get(target, 0) <= 0
                    or state.teams[target] == state.teams[seat]
                ):
                    return deny("T9.1", "target", f"{target} is not a seat of another team still in the game")
            case Gift(target=target) | Rally(target=target):
                if state.scenario != "teams":
                    return deny("T11.1", "no-teams", "gifts and rallies belong to the teams scenario")
                if target == seat or target not in state.seats or state.teams[target] != state.teams[seat]:
                    return deny("T11.1", "not-a-teammate", f"{target} is not {seat}'s teammate")
                if state.health[target] <= 0:
                    return deny("T11.1", "out", f"{target} is out of the game")
                if len(state.hand[target]) >= d.hand_limit:
                    return deny("T4.2", "hand-full", f"a hand holds at most {d.hand_limit} cards")
            case Draw():
                if len(state.hand[seat]) >= d.hand_limit:
                    return deny("T4.2", "hand-full", f"a hand holds at most {d.hand_limit} cards")
            case Play(card=card):
                if card not in state.hand[seat]:
                    return deny("T5.1", "not-in-hand", f"{card} is not in {seat}'s hand")
            case Fortify():
                slot = state.hidden[_reserve(seat)]
                if slot.known and slot.value >= d.reserve_cap:
                    return deny("T6.2", "reserve-cap", f"a reserve is never above {d.reserve_cap}")
        return ALLOW

    # --- applying ---------------------------------------------------------------------------------
    def apply(self, state: TriadState, seat: str, action: TriadAction | Action) -> Step[TriadState]:
        match self.typed(action):
            case ChooseReserve():
                # roster order, not arrival order: the choices are simultaneous, so copies must agree (§8.1)
                chosen = tuple(s for s in state.seats if s in state.chosen or s == seat)
                phase = "main" if len(chosen) == len(state.seats) else "setup"
                event = Event(kind="reserve_chosen", seat=seat, rule="T1.1", text=f"{seat} chose a secret reserve")
                return Step(state=state.model_copy(update={"chosen": chosen, "phase": phase}), events=(event,))
            case AttackSeat(target=target):
                attack = Attack(attacker=seat, defender=target)
                event = Event(
                    kind="attack_declared",
                    seat=seat,
                    rule="T3.1",
                    data={"target": target},
                    text=f"{seat} attacks {target}",
                )
                return Step(state=state.model_copy(update={"phase": "defend", "attack": attack}), events=(event,))
            case Defend(stance=stance):
                assert state.attack is not None
                attack = state.attack.model_copy(update={"stance": stance})
                request = RollRequest(
                    rolls=(
                        RollSpec(id="attack", sides=6, n=2, purpose=f"{attack.attacker} attacks"),
                        RollSpec(id="defence", sides=6, n=1, purpose=f"{seat} defends"),
                    )
                )
                event = Event(
                    kind="stance_chosen",
                    seat=seat,
                    rule="T3.2",
                    data={"stance": stance},
                    text=f"{seat} chooses to {stance}",
                )
                return Step(state=state.model_copy(update={"attack": attack}).with_rolls(request), events=(event,))
            case Draw():
                slot = f"card/{seat}/{state.drawn[seat] + 1}"
                request = RollRequest(
                    rolls=(RollSpec(id="card", sides=state.data.card_sides, n=1, purpose="draw a card"),),
                    owner=seat,
                    slot=slot,
                )
                drawn = {**state.drawn, seat: state.drawn[seat] + 1}
                return Step(state=state.model_copy(update={"drawn": drawn}).with_rolls(request))
            case Play(card=card):
                return Step(state=state.model_copy(update={"playing": card}).with_opening(card))
            case ChallengeSeat(target=target):
                return self._challenge(state, seat, target)
            case Gift(target=target) | Rally(target=target) as gift:
                request = RollRequest(
                    rolls=(RollSpec(id="card", sides=state.data.card_sides, n=1, purpose=f"a card for {target}"),),
                    owner=target,
                    slot=f"card/{target}/{state.drawn[target] + 1}",
                )
                drawn = {**state.drawn, target: state.drawn[target] + 1}
                rally = isinstance(gift, Rally)
                event = Event(
                    kind="rallied" if rally else "card_given",
                    seat=seat,
                    rule="T11.2" if rally else "T11.1",
                    data={"to": target},
                    text=f"{seat} {'rallies and draws' if rally else 'draws'} a card for {target}",
                )
                requests = [request]
                if rally:  # T11.2: the die first, then the teammate's draw, both pending at once
                    requests.insert(
                        0, RollRequest(rolls=(RollSpec(id="rally", sides=6, n=1, purpose=f"{seat} rallies"),))
                    )
                return Step(state=state.model_copy(update={"drawn": drawn}).with_rolls(*requests), events=(event,))
            case Fortify():
                reserve = state.hidden[_reserve(seat)]
                new = state.with_hidden(
                    _reserve(seat), seat, reserve.value + 1 if reserve.known else None, known=reserve.known
                )
                fortified = {**state.fortified, seat: state.fortified[seat] + 1}
                event = Event(kind="fortified", seat=seat, rule="T6.1", text=f"{seat} fortifies")
                return self._end_turn(new.model_copy(update={"fortified": fortified}), (event,))
            case _:
                event = Event(kind="passed", seat=seat, rule="T7", text=f"{seat} passes")
                return self._end_turn(state, (event,))

    def _challenge(self, state: TriadState, seat: str, target: str | None) -> Step[TriadState]:
        """T10.1: two roll requests at once, the challenger's die first, then the target's (or fate's)."""
        answering = target or "fate"
        mine = RollRequest(rolls=(RollSpec(id="challenger", sides=6, n=1, purpose=f"{seat} challenges"),))
        theirs = RollRequest(rolls=(RollSpec(id="challenged", sides=6, n=1, purpose=f"{answering} answers"),))
        event = Event(
            kind="challenge_made",
            seat=seat,
            rule="T10.1",
            data={"target": target},
            text=f"{seat} challenges {answering}",
        )
        challenge = Challenge(challenger=seat, target=target)
        return Step(state=state.model_copy(update={"challenge": challenge}).with_rolls(mine, theirs), events=(event,))

    def _roll_off(self, state: TriadState, dice: Mapping[str, tuple[int, ...]]) -> Step[TriadState]:
        challenge = state.challenge
        assert challenge is not None
        if "challenger" in dice:  # the first request: keep the die until the second resolves (T10.1)
            first = challenge.model_copy(update={"first": dice["challenger"][0]})
            return Step(state=state.model_copy(update={"challenge": first}))
        assert challenge.first is not None
        mine, theirs = challenge.first, dice["challenged"][0]
        health = dict(state.health)
        if mine < theirs:
            loser: str | None = challenge.challenger
            rule = "T10.2"
        elif mine > theirs and challenge.target is not None:
            loser, rule = challenge.target, "T10.2"
        else:
            loser, rule = None, "T10.3" if mine > theirs else "T10.2"
        if loser is not None:
            health[loser] = max(0, health[loser] - 1)
        elif mine > theirs:  # alone, beating fate heals one
            health[challenge.challenger] += 1
        outcome = f": {loser} loses 1" if loser else ", heals 1" if mine > theirs else ""
        text = f"{challenge.challenger} rolls {mine} against {theirs}{outcome}"
        event = Event(
            kind="roll_off",
            seat=challenge.challenger,
            rule=rule,
            data={"challenger": mine, "challenged": theirs, "loser": loser},
            text=text,
        )
        return self._end_turn(state.model_copy(update={"health": health, "challenge": None}), (event,))

    def resume(self, state: TriadState, outcome: Outcome) -> Step[TriadState]:
        if outcome.dice is not None and state.challenge is not None:
            return self._roll_off(state, outcome.dice)
        if outcome.dice is not None and "rally" in outcome.dice:  # T11.2; the turn ends once the card is drawn
            healed = outcome.dice["rally"][0] >= 4
            seat = state.seats[state.turn]
            health = {**state.health, seat: state.health[seat] + 1} if healed else state.health
            event = Event(
                kind="rally_rolled",
                seat=seat,
                rule="T11.2",
                data={"die": outcome.dice["rally"][0], "healed": healed},
                text=f"{seat}'s rally: {outcome.dice['rally'][0]}, " + ("heals 1" if healed else "no heal"),
            )
            return Step(state=state.model_copy(update={"health": health}), events=(event,))
        if outcome.dice is not None and "bonus" in outcome.dice:
            assert state.attack is not None
            return self._damage(state, state.attack.defender, outcome.dice["bonus"][0], "T3.4", ())
        if outcome.dice is not None:
            return self._combat(state, outcome.dice)
        if outcome.drawn is not None:
            seat = state.hidden[outcome.drawn].owner
            hand = {**state.hand, seat: (*state.hand[seat], outcome.drawn)}
            event = Event(
                kind="card_drawn", seat=seat, rule="T4.1", data={"slot": outcome.drawn}, text=f"{seat} draws a card"
            )
            return self._end_turn(state.model_copy(update={"hand": hand}), (event,))
        if state.phase == "reveal":
            return self._finish(state)
        assert state.playing is not None
        card = state.playing
        seat = state.hidden[card].owner
        value = state.hidden[card].value["card"][0]
        hand = {**state.hand, seat: tuple(c for c in state.hand[seat] if c != card)}
        health = {**state.health, seat: state.health[seat] + value}
        hidden = {name: slot for name, slot in state.hidden.items() if name != card}  # played: discard it
        event = Event(
            kind="card_played",
            seat=seat,
            rule="T5.2",
            data={"card": card, "heal": value},
            text=f"{seat} plays a {value} and heals {value}",
        )
        new = state.model_copy(update={"hand": hand, "health": health, "playing": None, "hidden": hidden})
        return self._end_turn(new, (event,))

    def _combat(self, state: TriadState, dice: Mapping[str, tuple[int, ...]]) -> Step[TriadState]:
        attack = state.attack
        assert attack is not None
        attack_sum, defence = sum(dice["attack"]), dice["defence"][0]
        guard = defence * 2 if attack.stance == "block" else defence
        damage = max(0, attack_sum - guard)
        events: list[Event] = [
            Event(
                kind="combat_resolved",
                seat=attack.attacker,
                rule="T3.3",
                data={"attack": attack_sum, "defence": defence, "damage": damage},
                text=f"{attack.attacker} rolls {attack_sum} against {guard}: {damage} damage",
            )
        ]
        if attack.stance == "dodge" and defence <= 2:
            slot = state.hidden[_reserve(attack.defender)]
            lowered = max(state.data.reserve_min, slot.value - 1) if slot.known else None
            state = state.with_hidden(_reserve(attack.defender), attack.defender, lowered, known=slot.known)
            events.append(
                Event(
                    kind="reserve_lost",
                    seat=attack.defender,
                    rule="T3.5",
                    text=f"{attack.defender} stumbles and loses reserve",
                )
            )
        if attack_sum == 12:
            step = self._damage(state, attack.defender, damage, "T3.3", tuple(events), end=False)
            bonus = RollRequest(rolls=(RollSpec(id="bonus", sides=6, n=1, purpose="critical hit"),))
            return Step(state=step.state.with_rolls(bonus), events=step.events)
        return self._damage(state, attack.defender, damage, "T3.3", tuple(events))

    def _damage(
        self,
        state: TriadState,
        seat: str,
        damage: int,
        rule: str,
        events: tuple[Event, ...],
        end: bool = True,
    ) -> Step[TriadState]:
        health = {**state.health, seat: max(0, state.health[seat] - damage)}
        state = state.model_copy(update={"health": health})
        if rule == "T3.4":
            events = (
                *events,
                Event(
                    kind="critical_hit",
                    seat=seat,
                    rule=rule,
                    data={"damage": damage},
                    text=f"critical hit: {damage} more damage",
                ),
            )
        if not end:
            return Step(state=state, events=events)
        return self._end_turn(state.model_copy(update={"attack": None}), events)

    def _end_turn(self, state: TriadState, events: tuple[Event, ...]) -> Step[TriadState]:
        alive = [s for s in state.seats if state.health[s] > 0]
        turn, round_ = state.turn, state.round
        while alive:
            turn += 1
            if turn == len(state.seats):
                turn, round_ = 0, round_ + 1
            if state.health[state.seats[turn]] > 0:
                break
        state = state.model_copy(update={"turn": turn, "round": round_, "phase": "main"})
        if round_ > state.rounds or self._decided(state, alive):
            return self._to_reveal(state, events)
        return Step(state=state, events=events)

    def _decided(self, state: TriadState, alive: list[str]) -> bool:
        """Whether the game is over before its last round: T2.2 one seat left, T9.3 one team, T12 nobody."""
        if state.scenario == "solo":
            return not alive
        if state.teams:
            return len({state.teams[s] for s in alive}) <= 1
        return len(alive) <= 1

    def _to_reveal(self, state: TriadState, events: tuple[Event, ...]) -> Step[TriadState]:
        slots = [_reserve(s) for s in state.seats if s not in state.resigned]  # T8.1 (T9.2: not the resigned)
        return Step(state=state.model_copy(update={"phase": "reveal"}).with_opening(*slots), events=events)

    def on_resign(self, state: TriadState, seat: str) -> Step[TriadState] | None:
        """T9.2: in ``teams``, once play has started, the seat drops out and the others play on."""
        if state.scenario != "teams" or state.phase not in ("main", "defend"):
            return None
        health = {**state.health, seat: 0}
        event = Event(kind="dropped_out", seat=seat, rule="T9.2", text=f"{seat} drops out; the others play on")
        state = state.model_copy(update={"health": health, "resigned": (*state.resigned, seat)})
        if state.phase == "defend" or state.seats[state.turn] == seat:  # an open attack ends with the turn
            return self._end_turn(state.model_copy(update={"attack": None}), (event,))
        alive = [s for s in state.seats if health[s] > 0]
        if self._decided(state, alive):
            return self._to_reveal(state, (event,))
        return Step(state=state, events=(event,))

    def _finish(self, state: TriadState) -> Step[TriadState]:
        event = Event(kind="game_ended", rule="T8.2", data={"score": self._scores(state)}, text="the game ends")
        return Step(state=state.model_copy(update={"phase": "over"}), events=(event,))

    def _scores(self, state: TriadState) -> dict[str, int]:
        return {s: state.health[s] + state.hidden[_reserve(s)].value for s in state.seats if s not in state.resigned}

    def result(self, state: TriadState) -> Result | None:
        if state.phase != "over":
            return None
        scores = self._scores(state)
        if state.scenario == "solo":  # T12.1
            won = tuple(s for s in state.seats if scores[s] >= SOLO_TARGET)
            return Result(winners=won, outcome=f"score {SOLO_TARGET} reached" if won else "target missed", score=scores)
        if state.teams:  # T9.4
            totals: dict[str, int] = {}
            for seat, score in scores.items():
                totals[state.teams[seat]] = totals.get(state.teams[seat], 0) + score
            top = max(totals.values())
            winners = tuple(s for s in scores if totals[state.teams[s]] == top)
            return Result(winners=winners, outcome="highest team score", score=scores)
        best = max(scores.values())
        return Result(winners=tuple(s for s in state.seats if scores[s] == best), outcome="highest score", score=scores)

    def view(self, state: TriadState, viewer: str) -> View:
        units = []
        for seat in state.seats:
            slot = state.hidden.get(_reserve(seat))
            visible = slot is not None and slot.known and (slot.public or viewer in (seat, "@all"))
            units.append(
                UnitView(
                    id=seat,
                    name=seat.title(),
                    side=seat,
                    location="arena",
                    strength=state.health[seat],
                    hidden=not visible,
                    extra={"reserve": slot.value if visible and slot else None, "hand": len(state.hand[seat])},
                )
            )
        summary = f"round {min(state.round, state.rounds)} of {state.rounds}, {state.phase}"
        return View(viewer=viewer, summary=summary, units=tuple(units), facts={"phase": state.phase})

    def assert_invariants(self, state: TriadState) -> None:
        assert all(h >= 0 for h in state.health.values())
        assert all(len(h) <= state.data.hand_limit for h in state.hand.values())
        assert (state.attack is not None) == (
            state.phase == "defend" or (state.rolls is not None and state.attack is not None)
        )


RULESET = Triad()
