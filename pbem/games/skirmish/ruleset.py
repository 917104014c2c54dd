"""Skirmish: a tiny hex-and-block example game, the smallest complete game with a map and fog of war.

It gives the report renderer what Operation Battleaxe lacks: a hex map (terrain, a river along hexsides, a
road with a bridge) and blocks whose strengths are hidden from the enemy until they fight.

* SK1 Set-up. Each side secretly gives its three blocks strengths of 1-3 (SK1.1), together at most the data
  pack's budget (SK1.2); both sides deploy at once.
* SK2 Turns. Red, then Blue, for the rounds in the options. On its turn a side moves one block to an adjacent
  hex (SK2.1), never across the river except along the road (SK2.2), never onto its own block (SK2.3); or
  attacks (SK3); or passes (SK2.4).
* SK3 Combat. A block attacks an adjacent enemy block (SK3.1, the river as in SK2.2). Both blocks are revealed;
  the attacker then presses on or breaks off (SK3.2). Pressing, each side rolls a die: strength + die, +1 for
  a defender in woods or on a hill (SK3.3); the defender wins ties (SK3.4). The loser is eliminated and a
  winning attacker advances into the hex (SK3.5).
* SK4 End. After the last round, or when a side has no blocks, the game ends (SK4.1). Each side scores 2 per
  town its blocks occupy and 1 per surviving block; the higher score wins, equal scores draw (SK4.2).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pbem.errors import DataPackError
from pbem.kit.tables import Term
from pbem.rules.contract import (
    ALLOW,
    OMNISCIENT,
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
from pbem.rules.maps import Edge, HexGrid, Label, MapSpec, Path, hex_regions
from pbem.rules.presentation import CounterFace, MapStyle, Presentation, SideStyle, Stroke
from pbem.rules.records import CombatRecord, CombatSide, Loss

__all__ = ["RULESET", "Skirmish"]

SIDES = ("red", "blue")
Terrain = Literal["clear", "woods", "hill", "town"]


class SkirmishData(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    grid: HexGrid
    terrain: dict[str, Terrain]
    river: tuple[tuple[str, str], ...]
    road: tuple[str, ...]
    start: dict[str, tuple[str, ...]]
    strength_max: int
    budget: int


GRID = HexGrid(columns=8, rows=6, size=36, orientation="flat", stagger="odd", origin=(14, 34))
DATA = SkirmishData(
    grid=GRID,
    terrain={"0302": "woods", "0205": "hill", "0403": "town", "0504": "town", "0602": "woods", "0705": "hill"},
    river=tuple((f"04{r:02d}", f"05{n:02d}") for r in range(1, 7) for n in (r, r + 1) if n <= 6),
    road=("0103", "0203", "0303", "0403", "0504", "0604", "0704", "0804"),
    start={"red": ("0102", "0103", "0105"), "blue": ("0803", "0804", "0805")},
    strength_max=3,
    budget=6,
)


def _coords(hex_id: str) -> tuple[int, int]:
    return int(hex_id[:2]), int(hex_id[2:])


def _on_grid(grid: HexGrid, hex_id: str) -> bool:
    """Whether ``hex_id`` names a hex of ``grid`` (a player may log any string)."""
    if len(hex_id) != 4 or not hex_id.isascii() or not hex_id.isdigit():
        return False
    col, row = _coords(hex_id)
    return grid.contains(col, row) and grid.hex_id(col, row) == hex_id


def _adjacent(grid: HexGrid, a: str, b: str) -> bool:
    return _coords(b) in grid.neighbors(*_coords(a))


class SkirmishState(GameState):
    data: SkirmishData
    rounds: int
    phase: Literal["setup", "play", "combat", "over"] = "setup"
    round: int = 1
    side: str = "red"
    deployed: tuple[str, ...] = ()
    location: dict[str, str | None]  # block → hex (None: eliminated)
    attack: tuple[str, str] | None = None  # attacker, defender
    winner: str | None = None
    outcome: str = ""


# --- the actions (contract v2) --------------------------------------------------------------------------------
class Deploy(ActionModel):
    """Give your three blocks their secret strengths (SK1.1)."""

    action: Literal["deploy"] = "deploy"
    s1: int | None = Field(default=None, title="strength of block 1")  # secret: logged without them
    s2: int | None = Field(default=None, title="strength of block 2")
    s3: int | None = Field(default=None, title="strength of block 3")


class Move(ActionModel):
    """Move a block to an adjacent hex (SK2.1)."""

    action: Literal["move"] = "move"
    block: str = Field(title="block")
    to: str = Field(title="to hex")


class Attack(ActionModel):
    """Attack an adjacent enemy block (SK3.1)."""

    action: Literal["attack"] = "attack"
    block: str = Field(title="attacking block")
    target: str = Field(title="enemy block")


class Press(ActionModel):
    """Press the attack: both sides roll (SK3.2)."""

    action: Literal["press"] = "press"


class BreakOff(ActionModel):
    """Break the attack off (SK3.2)."""

    action: Literal["break_off"] = "break_off"


class Pass(ActionModel):
    """Pass (SK2.4)."""

    action: Literal["pass"] = "pass"


SkirmishAction = Deploy | Move | Attack | Press | BreakOff | Pass
_PHASE_OF: dict[type[ActionModel], str] = {Deploy: "setup", Press: "combat", BreakOff: "combat"}


def _slot(block: str) -> str:
    return f"strength/{block}"


def _side(block: str) -> str:
    return "red" if block.startswith("r") else "blue"


class Skirmish(Ruleset[SkirmishState]):
    id = "skirmish"
    name = "Skirmish (example game)"
    version = "1"
    scenarios = (
        Scenario(
            id="meeting",
            name="Meeting engagement",
            seats=(SeatSpec(id="red", name="Red", team="red"), SeatSpec(id="blue", name="Blue", team="blue")),
        ),
    )
    options = (OptionSpec(id="rounds", description="number of rounds", default=4),)
    actions = SkirmishAction

    def default_data(self) -> bytes:
        return json.dumps(DATA.model_dump(mode="json"), sort_keys=True, separators=(",", ":")).encode()

    def load_data(self, raw: bytes) -> SkirmishData:
        try:
            data = SkirmishData.model_validate_json(raw)
        except ValidationError as exc:
            raise DataPackError("R006", f"skirmish data pack: {exc}") from exc
        pairs = [*data.river, *itertools.pairwise(data.road)]
        if not all(_adjacent(data.grid, a, b) for a, b in pairs):
            raise DataPackError("R006", "skirmish data pack: a river side or road step joins hexes that do not touch")
        return data

    def setup(self, scenario: str, options: Mapping[str, Any], roster: Roster, data: SkirmishData) -> SkirmishState:
        location: dict[str, str | None] = {}
        for side in SIDES:
            for number, hex_id in enumerate(data.start[side], 1):
                location[f"{side[0]}{number}"] = hex_id
        return SkirmishState(data=data, rounds=int(options["rounds"]), location=location)

    def to_act(self, state: SkirmishState) -> tuple[str, ...]:
        if state.phase == "setup":
            return tuple(s for s in SIDES if s not in state.deployed)
        if state.phase in ("play", "combat"):
            return (state.side,)
        return ()

    def period(self, state: SkirmishState) -> str:
        return "setup" if state.phase == "setup" else f"round-{min(state.round, state.rounds)}"

    def secret_fields(self, state: SkirmishState, seat: str, action: Action) -> dict[str, str]:
        if action.get("action") != "deploy":
            return {}
        return {f"s{n}": _slot(f"{seat[0]}{n}") for n in (1, 2, 3)}

    # --- legality ----------------------------------------------------------------------------------
    def _blocks(self, state: SkirmishState, side: str) -> list[str]:
        return [b for b, at in state.location.items() if _side(b) == side and at is not None]

    def _crossing_ok(self, state: SkirmishState, a: str, b: str) -> bool:
        """SK2.2: the river may be crossed only along the road."""
        river = {frozenset(p) for p in state.data.river}
        road = {frozenset(p) for p in itertools.pairwise(state.data.road)}
        return frozenset((a, b)) not in river or frozenset((a, b)) in road

    def _candidates(self, state: SkirmishState, seat: str) -> list[SkirmishAction]:
        if state.phase == "setup":
            top = state.data.strength_max
            return [Deploy(s1=a, s2=b, s3=c) for a, b, c in itertools.product(range(1, top + 1), repeat=3)]
        if state.phase == "combat":
            return [Press(), BreakOff()]
        actions: list[SkirmishAction] = []
        grid = state.data.grid
        for block in self._blocks(state, seat):
            here = state.location[block]
            assert here is not None
            for col, row in grid.neighbors(*_coords(here)):
                there = grid.hex_id(col, row)
                occupant = next((b for b, at in state.location.items() if at == there), None)
                if occupant is None or _side(occupant) == seat:
                    actions.append(Move(block=block, to=there))
                else:
                    actions.append(Attack(block=block, target=occupant))
        actions.append(Pass())
        return actions

    def legal_actions(self, state: SkirmishState, seat: str) -> list[Action]:
        return [a.wire() for a in self._candidates(state, seat) if self.contains(state, seat, a).ok]

    def contains(
        self, state: SkirmishState, seat: str, action: SkirmishAction | Action, *, unseen: frozenset[str] = frozenset()
    ) -> Verdict:
        act: SkirmishAction = self.typed(action)
        if seat not in self.to_act(state):
            return deny("SK2", "not-your-turn", f"{seat} is not to act")
        if _PHASE_OF.get(type(act), "play") != state.phase:
            return deny("SK2", "wrong-phase", f"{act.action} is not possible in the {state.phase} phase")
        match act:
            case Deploy(s1=s1, s2=s2, s3=s3):
                values = [s1, s2, s3]
                if all(v is None for v in values) and unseen == {"s1", "s2", "s3"}:
                    return ALLOW  # the redacted form: the exact values are checked at the audit
                top = state.data.strength_max
                strengths = [v for v in values if v is not None and 1 <= v <= top]
                if len(strengths) != len(values):
                    return deny("SK1.1", "strength", f"each block's strength is 1-{top}")
                if sum(strengths) > state.data.budget:
                    return deny("SK1.2", "budget", f"strengths total at most {state.data.budget}")
            case Move(block=block, to=there):
                return self._check_step(state, seat, block, there, moving=True)
            case Attack(block=block, target=target):
                return self._check_step(state, seat, block, state.location.get(target), moving=False)
        return ALLOW

    def _check_step(self, state: SkirmishState, seat: str, block: str, there: str | None, *, moving: bool) -> Verdict:
        if block not in self._blocks(state, seat):
            return deny("SK2.1", "no-block", f"{block} is not a block of {seat} on the map")
        here = state.location[block]
        assert here is not None
        if there is None or not _on_grid(state.data.grid, there) or not _adjacent(state.data.grid, here, there):
            return deny("SK2.1" if moving else "SK3.1", "not-adjacent", f"{there} is not next to {here}")
        if not self._crossing_ok(state, here, there):
            return deny("SK2.2", "river", f"the river between {here} and {there} can be crossed only by the road")
        occupant = next((b for b, at in state.location.items() if at == there), None)
        if moving and occupant is not None:
            if _side(occupant) == seat:
                return deny("SK2.3", "stacking", f"{there} already holds {occupant}")
            return deny("SK3.1", "enemy-hex", f"{there} holds an enemy block: attack it")
        if not moving and (occupant is None or _side(occupant) == seat):
            return deny("SK3.1", "no-enemy", f"{there} holds no enemy block")
        return ALLOW

    # --- applying ------------------------------------------------------------------------------------
    def apply(self, state: SkirmishState, seat: str, action: SkirmishAction | Action) -> Step[SkirmishState]:
        act: SkirmishAction = self.typed(action)
        if isinstance(act, Deploy):
            deployed = tuple(s for s in SIDES if s in state.deployed or s == seat)  # concurrent: not arrival order
            phase = "play" if len(deployed) == len(SIDES) else "setup"
            event = Event(kind="deployed", seat=seat, rule="SK1.1", text=f"{seat.title()} deploys its blocks in secret")
            return Step(state=state.model_copy(update={"deployed": deployed, "phase": phase}), events=(event,))
        if isinstance(act, Move):
            block, to = act.block, act.to
            event = Event(
                kind="moved",
                seat=seat,
                rule="SK2.1",
                data={"unit": block, "src": state.location[block], "dst": to},
                text=f"{_name(block)} moves from {state.location[block]} to {to}",
            )
            return self._end_turn(state.model_copy(update={"location": {**state.location, block: to}}), [event])
        if isinstance(act, Attack):
            block, target = act.block, act.target
            event = Event(
                kind="attack_declared",
                seat=seat,
                rule="SK3.1",
                data={"unit": block, "target": target},
                text=f"{_name(block)} attacks {_name(target)} in {state.location[target]}; both blocks are revealed",
            )
            new = state.model_copy(update={"phase": "combat", "attack": (block, target)})
            closed = [_slot(b) for b in (block, target) if not state.hidden[_slot(b)].public]
            return Step(state=new.with_opening(*closed) if closed else new, events=(event,))
        if isinstance(act, Press):
            assert state.attack is not None
            attacker, defender = state.attack
            request = RollRequest(
                rolls=(
                    RollSpec(id="attack", sides=6, n=1, purpose=f"{_name(attacker)} attacks"),
                    RollSpec(id="defense", sides=6, n=1, purpose=f"{_name(defender)} defends"),
                )
            )
            return Step(state=state.with_rolls(request))
        if isinstance(act, BreakOff):
            assert state.attack is not None
            event = Event(kind="broke_off", seat=seat, rule="SK3.2", text=f"{_name(state.attack[0])} breaks off")
            return self._end_turn(state.model_copy(update={"attack": None}), [event])
        event = Event(kind="passed", seat=seat, rule="SK2.4", text=f"{seat.title()} passes")
        return self._end_turn(state, [event])

    def resume(self, state: SkirmishState, outcome: Outcome) -> Step[SkirmishState]:
        if outcome.dice is None:
            return Step(state=state)  # both blocks are open: the attacker now presses on or breaks off (SK3.2)
        assert state.attack is not None
        attacker, defender = state.attack
        where = state.location[defender]
        assert where is not None
        bonus = 1 if state.data.terrain.get(where) in ("woods", "hill") else 0
        fights = (
            ("attack", attacker, outcome.dice["attack"], 0),
            ("defense", defender, outcome.dice["defense"], bonus),
        )
        sides: list[CombatSide] = []
        for role, block, die, extra in fights:
            terms = [Term(label=f"strength of {_name(block)}", value=state.hidden[_slot(block)].value, rule="SK3.3")]
            if extra:
                terms.append(Term(label=state.data.terrain[where], value=extra, rule="SK3.3"))
            total = sum(t.value for t in terms) + die[0]
            sides.append(
                CombatSide(
                    role=role,
                    side=_side(block),
                    units=(block,),
                    lead=block,
                    terms=tuple(terms),
                    dice=tuple(die),
                    total=total,
                )
            )
        won = sides[0].total > sides[1].total
        loser, winner = (defender, attacker) if won else (attacker, defender)
        location = {**state.location, loser: None}
        if won:
            location[attacker] = where
        result = "attacker wins" if won else "defender holds"
        text = f"{_name(attacker)} {sides[0].total} against {_name(defender)} {sides[1].total}: {result}"
        record = CombatRecord(
            location=where,
            result=result,
            sides=tuple(sides),
            losses=(Loss(side=_side(loser), kind="infantry", unit=loser, steps=1, eliminated=True),),
        )
        events = [
            Event(kind="combat_resolved", seat=_side(attacker), rule="SK3.4", data=record.data(), text=text),
            Event(
                kind="unit_eliminated",
                seat=_side(loser),
                rule="SK3.5",
                data={"unit": loser},
                text=f"{_name(loser)} is eliminated",
            ),
        ]
        if won:
            events.append(Event(kind="advanced", seat=_side(winner), rule="SK3.5", text=f"{_name(winner)} advances"))
        return self._end_turn(state.model_copy(update={"location": location, "attack": None}), events)

    def _end_turn(self, state: SkirmishState, events: list[Event]) -> Step[SkirmishState]:
        side, round_ = ("blue", state.round) if state.side == "red" else ("red", state.round + 1)
        state = state.model_copy(update={"side": side, "round": round_, "phase": "play"})
        if round_ > state.rounds or not all(self._blocks(state, s) for s in SIDES):
            scores = self._scores(state)
            best = max(scores.values())
            winners = [s for s in SIDES if scores[s] == best]
            winner = winners[0] if len(winners) == 1 else None
            outcome = f"{winner.title()} wins {scores[winner]} to {min(scores.values())}" if winner else "a draw"
            state = state.model_copy(update={"phase": "over", "winner": winner, "outcome": outcome})
            events.append(Event(kind="game_over", rule="SK4.2", data={"score": scores}, text=outcome))
        return Step(state=state, events=tuple(events))

    def _scores(self, state: SkirmishState) -> dict[str, int]:
        towns = {h for h, t in state.data.terrain.items() if t == "town"}
        return {s: sum(1 + 2 * (state.location[b] in towns) for b in self._blocks(state, s)) for s in SIDES}

    def result(self, state: SkirmishState) -> Result | None:
        if state.phase != "over":
            return None
        return Result(winners=(state.winner,) if state.winner else (), outcome=state.outcome, score=self._scores(state))

    def view(self, state: SkirmishState, viewer: str) -> View:
        units = []
        for block, at in state.location.items():
            slot = state.hidden.get(_slot(block))
            seen = slot is not None and slot.known and (slot.public or viewer in (_side(block), OMNISCIENT))
            units.append(
                UnitView(
                    id=block,
                    name=_name(block),
                    side=_side(block),
                    location=at,
                    kind="infantry",
                    strength=slot.value if seen and slot is not None else None,
                    steps=1 if at is not None else 0,
                    hidden=not seen,
                )
            )
        summary = state.outcome or f"round {min(state.round, state.rounds)} of {state.rounds}: {state.side} to act"
        return View(viewer=viewer, summary=summary, units=tuple(units), facts={"phase": state.phase})

    def presentation(self, data: Any) -> Presentation:
        return SkirmishLook(data)


def _name(block: str) -> str:
    return f"{_side(block).title()} {block[1:]}"


class SkirmishLook(Presentation):
    style = MapStyle(
        terrain={"clear": "#e9e4cf", "woods": "#9fbf8a", "hill": "#cdb48a", "town": "#d9d0c0", "paper": "#f7f4ea"},
        sides={
            "red": SideStyle(name="Red", fill="#c0392b", ink="#ffffff", control="#c0392b"),
            "blue": SideStyle(name="Blue", fill="#2e5e8e", ink="#ffffff", control="#2e5e8e"),
        },
        strokes={"river": Stroke(color="#3d7fb5", width=6), "road": Stroke(color="#8a6d3b", width=3, dash="7,3")},
        counter=30,
        label_size=8,
    )

    def map_spec(self) -> MapSpec:
        data: SkirmishData = self.data
        width, height = data.grid.extent()
        names = {h: f"{t.title()} {h}" for h, t in data.terrain.items()}
        return MapSpec(
            width=width + 14,
            height=height + 14,
            regions=hex_regions(data.grid, data.terrain, names),
            edges=tuple(Edge(a=a, b=b, kind="river") for a, b in data.river),
            paths=(Path(kind="road", through=data.road),),
            labels=(Label(text="Skirmish", at=(width / 2, 24), size=16, italic=True),),
            background="paper",
        )

    def face(self, unit: UnitView) -> CounterFace:
        if unit.hidden:
            return CounterFace(side=unit.side, shape="block", concealed=True)
        return CounterFace(side=unit.side, shape="block", title=unit.name, value=str(unit.strength or ""))

    def period_title(self, period: str) -> str:
        return period.replace("round-", "Round ") if period.startswith("round-") else super().period_title(period)


RULESET = Skirmish()
