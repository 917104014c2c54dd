"""The state of a game of Operation Battleaxe: frozen, JSON-serializable, derived only from the log."""

from __future__ import annotations

from typing import Any, ClassVar, Literal, TypedDict, Unpack, get_args, overload

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from pbem.games.battleaxe.board import ALLIED, AXIS, Side
from pbem.games.battleaxe.data import BattleaxePack
from pbem.kit.machine import MachineState, Pending
from pbem.rules.contract import GameState, updated

__all__ = [
    "ELIMINATED",
    "Allocation",
    "Assault",
    "AttackerRetreat",
    "BattleaxeState",
    "Combat",
    "Decision",
    "DiceWait",
    "Refit",
    "UnitState",
    "decision",
    "evolve",
    "now",
    "waiting",
]

Step = Literal[
    "bid",  # secret Victory Point bids for the Allied side (optional 18.1)
    "tiebreak",  # a second tied bid is decided by a dr (18.1, notes A60)
    "setup",  # Allied free set-up (5.2.1)
    "impulse",  # the active player chooses the kind of Impulse (8.1)
    "assault",  # moves and attacks of an Assault Impulse (9, 11)
    "declare",  # the attacker builds an attack: participants, lead, supports (11.4.2)
    "regroup",  # a Regroup Impulse (8.1.2a)
    "intercepts",  # the Axis may spend the Advantage for a second, other Impulse (optional 19.1H)
    "refit",  # a player's Refit (13)
    "over",
]
GamePhase = Literal["setup", "maneuvers", "refit", "end", "over"]
AssaultMode = Literal["single", "simultaneous", "sequential"]
CombatResult = Literal["repulse", "stalemate", "success", "overrun"]
ImpulseKind = Literal["assault", "regroup"]
Awaiting = Literal["attacker_artillery", "combat", "sunset", "surrender"]
Reaction = Literal["defend", "max_attack", "fanatical", "voluntary_retreat", "overrun", "daylight", "fuel_window"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class UnitState(_Model):
    location: str | None  # None: eliminated
    full: bool = True
    oos: bool = False  # marked Out of Supply at the end of the last Maneuvers Phase (14.2)

    def at(self, location: str) -> UnitState:
        """The unit moved to ``location``, keeping its strength and supply mark."""
        return UnitState(location=location, full=self.full, oos=self.oos)

    def reduced(self) -> UnitState:
        """The unit flipped to its Reduced-Strength side."""
        return UnitState(location=self.location, full=False, oos=self.oos)

    def refitted(self) -> UnitState:
        """The unit flipped back to Full Strength (8.1.2, 13.3)."""
        return UnitState(location=self.location, full=True, oos=self.oos)

    def marked(self, oos: bool) -> UnitState:
        """The unit marked in or Out of Supply (14.2)."""
        return UnitState(location=self.location, full=self.full, oos=oos)


ELIMINATED = UnitState(location=None, full=False)
"""An eliminated unit (reduced, so that a rebuilt one returns Reduced, 13.3.2)."""


class Combat(_Model):
    """One combat resolution (11.4), from declaration to the last retreat."""

    target: str
    attackers: tuple[str, ...]
    mandatory: bool
    contested_at_start: bool
    overrun: bool = False  # the second combat of an Overrun: no further Overrun (11.4.4)
    lead: str | None = None
    air: bool = False
    rommel: bool = False
    artillery: bool = False  # the attacker called artillery
    attacker_artillery_ok: bool = False
    def_lead: str | None = None
    def_artillery: bool = False
    defender_artillery_ok: bool = False
    defenders: tuple[str, ...] = ()
    attack_total: int = 0
    defense_total: int = 0
    dice: dict[str, list[int]] = Field(default_factory=dict)
    outcome: CombatResult | None = None
    ap: int = 0  # the Attrition Points the result inflicts on the defenders (11.4.4, 11.5)


class Assault(_Model):
    """The Assault Impulse in progress (9.1)."""

    areas: tuple[str, ...]
    mode: AssaultMode = "single"
    second_open: bool = False  # sequential Combined Operations: a second Area may still be activated
    active: tuple[str, ...]  # units that began the Impulse in an Active Area and may still act
    contested_at_start: tuple[str, ...]
    mover: str | None = None  # the unit now moving (units move one at a time, 9.1)
    mf_left: int = 0
    spent: bool = False  # the mover has spent MF this Impulse
    moved: tuple[str, ...] = ()  # units whose move is over
    entered_from: dict[str, str] = Field(default_factory=dict)  # unit → where it came from (11.6)
    entered: dict[str, tuple[str, ...]] = Field(default_factory=dict)  # location → units that entered it
    attacked: tuple[str, ...] = ()  # locations attacked this Impulse (9.2.1)
    attackers: tuple[str, ...] = ()  # units that have attacked (11.0: one attack each)
    air_used: bool = False
    rommel_used: bool = False
    overrun_units: tuple[str, ...] = ()  # survivors of an Overrun (11.4.4): may enter only overrun_target
    overrun_target: str | None = None
    overrun_moved: tuple[str, ...] = ()  # overrun units that have taken their step
    overrun_artillery: bool = False  # the first combat's artillery call succeeded and may follow


class Refit(_Model):
    """A player's Refit (13): Replacement Points left and what they bought."""

    side: Side
    rp: int
    flips_left: int = 0  # the second flip of an RP already spent on a flip (13.3.2)
    recovered: bool = False  # Axis Battlefield Recovery used (13.3.5)
    tiger_cubs: bool = False  # Additional Tiger Cubs used (19.1G)


# --- pending decisions (the kit machine's stack) -------------------------------------------------------------------
# A decision of the non-moving or interrupted player (or of the attacker between the steps of a combat) suspends
# the step under way: it is an entry on the machine's stack, which names the side that decides and the facts the
# decision needs. A combat holds one entry from the defender's response to its last retreat, replaced as it goes.


class Decision(Pending):
    """A decision that needs no facts beyond the state's own: the defender's response (``defend``, 11.4.3), the
    Advantage spent on a result (``max_attack`` 12.1B, ``fanatical`` 12.1A), the defender's withdrawal
    (``voluntary_retreat``, 11.6.3), an Overrun's choice (``overrun``, 11.4.4), Prolonged Daylight against a Sunset
    DR (``daylight``, 12.1C) and the Allied Fuel Shortage as the Axis Impulse begins (``fuel_window``, notes A44)."""

    kind: Reaction


class Allocation(Pending):
    """11.5: the defender absorbs Attrition Points: ``ap_left`` still to absorb, and how each unit absorbed."""

    kind: Literal["allocate"] = "allocate"
    ap_left: int
    absorbed: dict[str, str] = Field(default_factory=dict)  # defender unit → how it absorbed AP


class AttackerRetreat(Pending):
    """11.1, 11.6: the attackers of a repulsed Mandatory Attack still to retreat, in order (11.6.1)."""

    kind: Literal["attacker_retreat"] = "attacker_retreat"
    units: tuple[str, ...]


class DiceWait(Pending):
    """Dice the sequence of play waits for (nobody acts): an artillery call, a combat's DRs, the Sunset DR or the
    Surrender checks of ``units`` (14.2.3). ``seat`` is the side whose step asked for them."""

    kind: Awaiting
    units: tuple[str, ...] = ()


Decided = Decision | Allocation | AttackerRetreat | DiceWait

_DECISIONS = {(kind, side): Decision(kind=kind, seat=side) for kind in get_args(Reaction) for side in (ALLIED, AXIS)}
_WAITS = {(kind, side): DiceWait(kind=kind, seat=side) for kind in get_args(Awaiting) for side in (ALLIED, AXIS)}


def decision(kind: Reaction, side: Side) -> Decision:
    """The pending entry of ``side``'s decision ``kind`` (entries are frozen values: one of each is made once)."""
    return _DECISIONS[kind, side]


def waiting(kind: Awaiting, side: Side) -> DiceWait:
    """The pending entry of dice ``kind`` that ``side``'s step asked for (made once, like :func:`decision`)."""
    return _WAITS[kind, side]


class BattleaxeState(MachineState):
    """Everything on the table, plus where in the sequence of play the game stands.

    ``pack`` is the data pack in use: carried for the rules, but not serialized or hashed (genesis commits
    to it by its SHA-256). ``step`` is the step of the kit's machine (:mod:`.sequence`); ``phase`` is the
    rulebook's phase (6). ``pending`` is the machine's stack of decisions that suspend the step (the defender's
    response, loss allocation, retreats, the Advantage's windows, dice awaited): its top entry, if any, says who
    must decide what now (:func:`now`).
    """

    omit_when_empty: ClassVar[frozenset[str]] = GameState.omit_when_empty | {"pending"}
    retired: ClassVar[dict[str, Any]] = {"awaiting": None, "surrender_units": []}
    """Fields that logs signed before the pending stack carried, with the value they always had while nothing was
    pending: they are still serialized, so that a state with an empty stack (every state a checkpoint hashes: one
    at a period's start, when no decision or dice are awaited) hashes as before and old logs stay valid. A state
    with pending entries hashes them instead (``pending`` replaces ``awaiting``, ``surrender_units`` and the
    reaction steps)."""

    pack: BattleaxePack = Field(exclude=True, repr=False)
    pending: tuple[Decided, ...] = ()
    options: dict[str, bool | str]
    sides: dict[str, Side]  # seat → side; with bids (18.1) decided by them
    bidders: tuple[str, ...] = ()  # seats that have bid in this round (18.1)
    bid_round: int = 1
    threshold: int | None = None  # the winning bid: the VP an Allied Operational Victory needs (18.1)
    turn: int = 1
    last_turn: int = 3
    step: Step = "setup"
    phase: GamePhase = "setup"
    impulse: int = 1
    half: Side = "allied"
    units: dict[str, UnitState]
    control: dict[str, Side]
    advantage: Side | None = "allied"
    advantage_used_by: Side | None = None  # spent this Impulse or Phase: passes on at its end (12.2)
    fuel_low: bool = False
    rommel: bool = False  # Rommel an der spitz! active for the rest of the Maneuvers Phase (12.1E)
    air_ready: dict[str, bool]  # side → Air Support marker available (10.1; 19.2 for the Axis)
    artillery: dict[str, int]  # side → Artillery Support markers available this turn (10.2)
    released: tuple[str, ...] = ()  # formations released from the June 15 restrictions (16)
    vp: int = 0
    sunset: int | None = None  # the Sunset DR of this Axis half-Impulse, once rolled (6.2.1)
    half_kind: ImpulseKind | None = None  # the kind of the Impulse under way (19.1H)
    intercepted: bool = False  # Wireless Intercepts were used this half-Impulse (19.1H)
    assault: Assault | None = None
    combat: Combat | None = None
    refit: Refit | None = None
    setup_left: tuple[str, ...] = ()  # units of the Allied free set-up still to place
    winner: Side | None = None
    outcome: str = ""

    @model_serializer(mode="wrap")
    def _omit_empty_new_fields(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        dumped: dict[str, Any] = GameState._omit_empty_new_fields(self, handler)  # the engine's, then ours
        return {**dumped, **self.retired}


def now(state: BattleaxeState) -> str:
    """What the game waits for: the top pending decision's kind, else the step under way."""
    return state.pending[-1].kind if state.pending else state.step


# --- typed transitions --------------------------------------------------------------------------------------------
# The fields a transition may change, with their types: ``evolve(state, step="assault")`` is checked by mypy
# (a misspelt field or a mistyped value is an error), and tests/games/battleaxe/test_state.py keeps each of these
# equal to its model's own fields.


class AssaultChanges(TypedDict, total=False):
    areas: tuple[str, ...]
    mode: AssaultMode
    second_open: bool
    active: tuple[str, ...]
    contested_at_start: tuple[str, ...]
    mover: str | None
    mf_left: int
    spent: bool
    moved: tuple[str, ...]
    entered_from: dict[str, str]
    entered: dict[str, tuple[str, ...]]
    attacked: tuple[str, ...]
    attackers: tuple[str, ...]
    air_used: bool
    rommel_used: bool
    overrun_units: tuple[str, ...]
    overrun_target: str | None
    overrun_moved: tuple[str, ...]
    overrun_artillery: bool


class CombatChanges(TypedDict, total=False):
    target: str
    attackers: tuple[str, ...]
    mandatory: bool
    contested_at_start: bool
    overrun: bool
    lead: str | None
    air: bool
    rommel: bool
    artillery: bool
    attacker_artillery_ok: bool
    def_lead: str | None
    def_artillery: bool
    defender_artillery_ok: bool
    defenders: tuple[str, ...]
    attack_total: int
    defense_total: int
    dice: dict[str, list[int]]
    outcome: CombatResult | None
    ap: int


class RefitChanges(TypedDict, total=False):
    side: Side
    rp: int
    flips_left: int
    recovered: bool
    tiger_cubs: bool


class StateChanges(TypedDict, total=False):
    """Every field of :class:`BattleaxeState` but the data pack, which a game never changes, and the pending stack,
    which the kit's ``push``, ``pop`` and ``replace_top`` change."""

    options: dict[str, bool | str]
    sides: dict[str, Side]
    bidders: tuple[str, ...]
    bid_round: int
    threshold: int | None
    turn: int
    last_turn: int
    step: Step
    phase: GamePhase
    impulse: int
    half: Side
    units: dict[str, UnitState]
    control: dict[str, Side]
    advantage: Side | None
    advantage_used_by: Side | None
    fuel_low: bool
    rommel: bool
    air_ready: dict[str, bool]
    artillery: dict[str, int]
    released: tuple[str, ...]
    vp: int
    sunset: int | None
    half_kind: ImpulseKind | None
    intercepted: bool
    assault: Assault | None
    combat: Combat | None
    refit: Refit | None
    setup_left: tuple[str, ...]
    winner: Side | None
    outcome: str


@overload
def evolve(model: BattleaxeState, **changes: Unpack[StateChanges]) -> BattleaxeState: ...
@overload
def evolve(model: Assault, **changes: Unpack[AssaultChanges]) -> Assault: ...
@overload
def evolve(model: Combat, **changes: Unpack[CombatChanges]) -> Combat: ...
@overload
def evolve(model: Refit, **changes: Unpack[RefitChanges]) -> Refit: ...
def evolve(model: BaseModel, **changes: Any) -> BaseModel:
    """``model`` with ``changes`` (the model itself is frozen and left unchanged).

    The overloads type every change by the model's changes dict above, so mypy refuses a transition that writes
    a field the model does not have or a value of the wrong type, without validating again at run time.
    """
    return updated(model, changes)
