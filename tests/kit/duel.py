"""Duel: a complete two-player test game on the step machine (pbem.kit.machine).

Rules (the sections its predicates cite):

* 2 Sequence of play. Red and Blue take turns; in a turn the active seat takes one action of §3-§4 or passes.
  After ``last_turn`` rounds, or when a side has no units left, the game is over; the side with more strength
  left wins.
* 3.1 Advance: an own unit moves to a neighbouring location of the line 0..4 that holds no enemy unit.
* 4.1 Attack: an own unit attacks a neighbouring location that holds enemy units. The defender decides (§5).
* 5.1 Hold: the defenders stay; the attacker rolls a die. The hits are the attacker's strength plus the die
  modifier of the Combat table (1: -1, 2-5: 0, 6: +1), at most the defenders' total strength.
* 5.2 Withdraw: the defenders all move to the neighbouring location away from the attacker, if it is on the
  line and holds no attacking unit.
* 6.1 Take loss: the defender allocates hits one at a time to its units in the attacked location; each hit
  takes one strength, and a unit at 0 is eliminated. When the hits are allocated the attacker's turn ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from pbem.kit.machine import Interrupt, Machine, MachineState, Pending, Phase, action, pop, push, replace_top, top
from pbem.kit.tables import RangeTable, Term, Total
from pbem.rules.contract import ALLOW, Event, Outcome, RollRequest, RollSpec, Step, Verdict, deny

SEATS = ("red", "blue")
LINE = range(5)
COMBAT = RangeTable[int].model_validate_json(
    '{"id": "combat", "rule": "5.1", "rows": [{"rolls": "1", "result": -1}, {"rolls": "2-5", "result": 0},'
    ' {"rolls": "6", "result": 1}]}'
)
"""The die modifiers of §5.1, as a data pack would hold them."""


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Advance(_Action):
    action: Literal["advance"] = "advance"
    unit: str
    to: int


class Attack(_Action):
    action: Literal["attack"] = "attack"
    unit: str
    target: int


class Pass(_Action):
    action: Literal["pass"] = "pass"


class Hold(_Action):
    action: Literal["hold"] = "hold"


class Withdraw(_Action):
    action: Literal["withdraw"] = "withdraw"
    to: int


class TakeLoss(_Action):
    action: Literal["take_loss"] = "take_loss"
    unit: str


DuelAction = Annotated[Advance | Attack | Pass | Hold | Withdraw | TakeLoss, Field(discriminator="action")]


class Defend(Pending):
    """§5: the defender of ``target`` decides how to meet ``attacker``'s attack."""

    kind: Literal["defend"] = "defend"
    attacker: str
    target: int


class CombatRoll(Pending):
    """§5.1: the die of ``attacker``'s attack on ``target`` (no seat acts until it is rolled)."""

    kind: Literal["combat_roll"] = "combat_roll"
    attacker: str
    target: int


class Allocate(Pending):
    """§6.1: ``hits`` still to take in location ``at``."""

    kind: Literal["allocate"] = "allocate"
    hits: int
    at: int


class Unit(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    side: str
    strength: int
    at: int | None  # None: eliminated


class DuelState(MachineState):
    phase: Literal["battle", "over"] = "battle"
    pending: tuple[Annotated[Defend | CombatRoll | Allocate, Field(discriminator="kind")], ...] = ()
    active: str = "red"
    turn: int = 1
    last_turn: int = 4
    units: dict[str, Unit]
    winner: str | None = None


def setup(last_turn: int = 4) -> DuelState:
    units = {
        "r1": Unit(side="red", strength=3, at=0),
        "r2": Unit(side="red", strength=2, at=1),
        "b1": Unit(side="blue", strength=3, at=4),
        "b2": Unit(side="blue", strength=2, at=3),
    }
    return DuelState(units=units, last_turn=last_turn)


def enemy(seat: str) -> str:
    return "blue" if seat == "red" else "red"


def at(state: DuelState, where: int, side: str) -> list[str]:
    return [u for u, unit in state.units.items() if unit.at == where and unit.side == side]


def strength(state: DuelState, side: str) -> int:
    return sum(u.strength for u in state.units.values() if u.side == side and u.at is not None)


def _own(state: DuelState, seat: str, unit: str) -> Verdict:
    found = state.units.get(unit)
    if found is None or found.side != seat or found.at is None:
        return deny("2", "not-own-unit", f"{unit} is not a unit of {seat} on the map")
    return ALLOW


def _with_units(state: DuelState, **changes: Unit) -> DuelState:
    return state.model_copy(update={"units": {**state.units, **changes}})


def end_turn(state: DuelState) -> DuelState:
    """§2: the other seat's turn, or the end of the game."""
    turn = state.turn + (1 if state.active == "blue" else 0)
    if turn > state.last_turn or not strength(state, "red") or not strength(state, "blue"):
        red, blue = strength(state, "red"), strength(state, "blue")
        winner = "red" if red > blue else "blue" if blue > red else None
        return state.model_copy(update={"phase": "over", "winner": winner, "turn": turn})
    return state.model_copy(update={"active": enemy(state.active), "turn": turn})


def resume_sequence(state: DuelState) -> DuelState:
    """After a decision is settled: the next pending decision, else the end of the attacker's turn."""
    return state if state.pending else end_turn(state)


# --- §3.1 advance ----------------------------------------------------------------------------------------------


def advances(state: DuelState, seat: str) -> Iterator[Advance]:
    for unit, found in state.units.items():
        if found.side == seat and found.at is not None:
            for to in (found.at - 1, found.at + 1):
                yield Advance(unit=unit, to=to)


def can_advance(state: DuelState, seat: str, act: Advance) -> Verdict:
    own = _own(state, seat, act.unit)
    if not own.ok:
        return own
    here = state.units[act.unit].at
    if act.to not in LINE or here is None or abs(act.to - here) != 1:
        return deny("3.1", "not-neighbour", f"{act.to} is not next to {act.unit}")
    if at(state, act.to, enemy(seat)):
        return deny("3.1", "enemy-there", f"{act.to} holds enemy units")
    return ALLOW


def advance(state: DuelState, seat: str, act: Advance) -> Step[DuelState]:
    moved = state.units[act.unit].model_copy(update={"at": act.to})
    event = Event(kind="advanced", seat=seat, rule="3.1", data={"unit": act.unit, "to": act.to})
    return Step(state=end_turn(_with_units(state, **{act.unit: moved})), events=(event,))


# --- §4.1 attack -----------------------------------------------------------------------------------------------


def attacks(state: DuelState, seat: str) -> Iterator[Attack]:
    for unit, found in state.units.items():
        if found.side == seat and found.at is not None:
            for target in (found.at - 1, found.at + 1):
                yield Attack(unit=unit, target=target)


def can_attack(state: DuelState, seat: str, act: Attack) -> Verdict:
    own = _own(state, seat, act.unit)
    if not own.ok:
        return own
    here = state.units[act.unit].at
    if here is None or abs(act.target - here) != 1 or not at(state, act.target, enemy(seat)):
        return deny("4.1", "no-target", f"{act.target} holds no enemy next to {act.unit}")
    return ALLOW


def attack(state: DuelState, seat: str, act: Attack) -> Step[DuelState]:
    event = Event(kind="attacked", seat=seat, rule="4.1", data={"unit": act.unit, "target": act.target})
    return Step(state=push(state, Defend(seat=enemy(seat), attacker=act.unit, target=act.target)), events=(event,))


# --- §2 pass ---------------------------------------------------------------------------------------------------


def passes(state: DuelState, seat: str) -> Iterator[Pass]:
    yield Pass()


def can_pass(state: DuelState, seat: str, act: Pass) -> Verdict:
    return ALLOW


def pass_turn(state: DuelState, seat: str, act: Pass) -> Step[DuelState]:
    return Step(state=end_turn(state), events=(Event(kind="passed", seat=seat, rule="2"),))


# --- §5 the defender's decision --------------------------------------------------------------------------------


def holds(state: DuelState, seat: str) -> Iterator[Hold]:
    yield Hold()


def can_hold(state: DuelState, seat: str, act: Hold) -> Verdict:
    return ALLOW


def hold(state: DuelState, seat: str, act: Hold) -> Step[DuelState]:
    defend = top(state, Defend)
    roll = RollRequest(rolls=(RollSpec(id="combat", sides=6, n=1, purpose="§5.1 combat"),))
    waiting = replace_top(state, CombatRoll(seat=enemy(seat), attacker=defend.attacker, target=defend.target))
    event = Event(kind="held", seat=seat, rule="5.1", data={"target": defend.target})
    return Step(state=waiting.with_rolls(roll), events=(event,))


def combat(state: DuelState, outcome: Outcome) -> Step[DuelState]:
    """§5.1: the hits of a held attack: the attacker's strength and the die modifier, at most what is there."""
    fight = top(state, CombatRoll)
    assert outcome.dice is not None  # a public roll always has its faces
    die = outcome.dice["combat"][0]
    defender = enemy(fight.seat)
    total = Total.of(
        [
            Term(label=f"strength of {fight.attacker}", value=state.units[fight.attacker].strength, rule="5.1"),
            Term(label=f"die {die}", value=COMBAT.lookup(die), rule=COMBAT.rule),
        ]
    )
    there = sum(state.units[u].strength for u in at(state, fight.target, defender))
    hits = max(0, min(total.value, there))
    event = Event(kind="combat_resolved", rule="5.1", data={"total": total.model_dump(mode="json"), "hits": hits})
    if not hits:
        return Step(state=resume_sequence(pop(state)), events=(event,))
    return Step(state=replace_top(state, Allocate(seat=defender, hits=hits, at=fight.target)), events=(event,))


def withdrawals(state: DuelState, seat: str) -> Iterator[Withdraw]:
    defend = top(state, Defend)
    for to in (defend.target - 1, defend.target + 1):
        yield Withdraw(to=to)


def can_withdraw(state: DuelState, seat: str, act: Withdraw) -> Verdict:
    defend = top(state, Defend)
    origin = state.units[defend.attacker].at
    if origin is None or act.to != 2 * defend.target - origin:
        return deny("5.2", "not-away", f"{act.to} is not the location away from the attacker")
    if act.to not in LINE or at(state, act.to, enemy(seat)):
        return deny("5.2", "blocked", f"{act.to} is off the line or holds enemy units")
    return ALLOW


def withdraw(state: DuelState, seat: str, act: Withdraw) -> Step[DuelState]:
    defend = top(state, Defend)
    moved = {u: state.units[u].model_copy(update={"at": act.to}) for u in at(state, defend.target, seat)}
    event = Event(kind="withdrew", seat=seat, rule="5.2", data={"from": defend.target, "to": act.to})
    return Step(state=resume_sequence(pop(_with_units(state, **moved))), events=(event,))


# --- §6.1 loss allocation --------------------------------------------------------------------------------------


def losses(state: DuelState, seat: str) -> Iterator[TakeLoss]:
    for unit in state.units:
        yield TakeLoss(unit=unit)


def can_take_loss(state: DuelState, seat: str, act: TakeLoss) -> Verdict:
    allocate = top(state, Allocate)
    found = state.units.get(act.unit)
    if found is None or found.side != seat or found.at != allocate.at:
        return deny("6.1", "not-in-battle", f"{act.unit} is not a unit of {seat} in {allocate.at}")
    return ALLOW


def take_loss(state: DuelState, seat: str, act: TakeLoss) -> Step[DuelState]:
    allocate = top(state, Allocate)
    unit = state.units[act.unit]
    left = unit.strength - 1
    hit = unit.model_copy(update={"strength": left, "at": unit.at if left else None})
    after = _with_units(state, **{act.unit: hit})
    hits = allocate.hits - 1
    events = [Event(kind="lost_step", seat=seat, rule="6.1", data={"unit": act.unit, "strength": left})]
    if hits and at(after, allocate.at, seat):
        return Step(state=replace_top(after, allocate.model_copy(update={"hits": hits})), events=tuple(events))
    return Step(state=resume_sequence(pop(after)), events=tuple(events))


MACHINE: Machine[DuelState, Advance | Attack | Pass | Hold | Withdraw | TakeLoss] = Machine(
    adapter=TypeAdapter(DuelAction),
    rule="2",
    phases=(
        Phase("battle", ("advance", "attack", "pass"), rule="2", to_act=lambda s: (s.active,)),
        Phase("over", (), rule="2", to_act=lambda s: ()),
    ),
    interrupts=(
        Interrupt("defend", ("hold", "withdraw"), rule="5"),
        Interrupt("combat_roll", (), rule="5.1", resume=combat),
        Interrupt("allocate", ("take_loss",), rule="6.1"),
    ),
    actions=(
        action(Advance, legal=advances, can=can_advance, effect=advance),
        action(Attack, legal=attacks, can=can_attack, effect=attack),
        action(Pass, legal=passes, can=can_pass, effect=pass_turn),
        action(Hold, legal=holds, can=can_hold, effect=hold),
        action(Withdraw, legal=withdrawals, can=can_withdraw, effect=withdraw),
        action(TakeLoss, legal=losses, can=can_take_loss, effect=take_loss),
    ),
)
