"""The Gazala game state: counters on the map, formations, the Ops Phase's cycle, pending decisions (§4, §6, §9).

A frozen model the kit's step machine runs (:class:`~pbem.kit.machine.MachineState`): the ``phase`` of the
sequence of play and a stack of :class:`~pbem.kit.machine.Pending` decisions (dice awaited, a Formation Reaction
offered to the non-moving seat, a reacting formation's nested activation). ``pack`` is the data pack in use:
carried for the rules, but not serialized or hashed (genesis commits to its bytes).

Board functions (:mod:`.board`, :mod:`.paths`) work on a :class:`~.board.Position`; :func:`position` builds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from pbem.games.gazala.board import Position, Situation, situation
from pbem.games.gazala.data import GazalaPack, Side
from pbem.games.gazala.rulings import ruling
from pbem.kit.hexes import HexId
from pbem.kit.machine import MachineState, Pending

__all__ = [
    "Activation",
    "CounterState",
    "DiceWait",
    "FormationState",
    "GazalaState",
    "HqDisplacing",
    "HqState",
    "Marker",
    "MarkerPlaced",
    "MoveState",
    "Overstack",
    "Reacting",
    "ReactionOffer",
    "SnafuOffer",
    "Violation",
    "position",
    "sit_of",
]

Phase = Literal["ops", "activation", "admin", "over"]
AdminStep = Literal[
    "organisation", "cw_organisation", "markers", "revealed", "replacement", "cw_replacement", "reinforcement"
]


SIDES: tuple[Side, ...] = ("axis", "cw")
POSITION_FIELDS = frozenset({"units", "hqs", "breached", "blocked", "tobruk"})
"""The state fields :func:`position` reads: a copy that changes none of them has the same :class:`Situation`."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class CounterState(_Frozen):
    """A combat unit: its hex (None: not on the map, eliminated or not yet arrived), current CS, Disrupted side,
    the Independent Activation markers it carries (§6.4) and the formation it is assigned to (§5.5.2)."""

    hex: str | None
    cs: int
    disrupted: bool = False
    acts: int = 0
    assigned: str | None = None


class HqState(_Frozen):
    """An HQ: its hex (None: not on the map), current Attack Support Points, whether it shows its Emergency Supply
    side (§5.7.5, §6.3.3), and whether it was in supply at its last check (§5.7.1: valid until the next)."""

    hex: str | None
    support: int
    es: bool = False
    supplied: bool = True


class FormationState(_Frozen):
    """A Formation Activation marker (§6.3.2): its level, and how often it was activated (§10.1)."""

    level: int
    activations: int = 0


class Marker(_Frozen):
    """The Initiative +DRM marker (§6.1): the side shown (None at the 0 space) and its space on the track."""

    side: Side | None = None
    space: int = 0


class Activation(_Frozen):
    """A formation (or independent unit, §6.4) acting now: its side, its Action Points, and whether it reacts.

    Attributes:
        formation: the activated formation; None for an Independent Unit Activation.
        unit: the activated independent unit (one Action, no AP accounting, §6.4).
        ap: Action Points left (§7.1); an independent activation has 1 for its single Action.
        schwerpunkt: the Schwerpunkt is on the formation (§5.9).
        supplied: the HQ's (or unit's) supply at the activation's check (§5.7.1, §5.7.5; Emergency Supply counts).
        bonus: Battle Victory bonus APs still to spend (§7.5.3), part of ``ap``; while any is left only
            ``bonus_units`` act.
    """

    side: Side
    formation: str | None = None
    unit: str | None = None
    ap: int
    schwerpunkt: bool = False
    supplied: bool = True
    bonus: int = 0
    bonus_units: tuple[str, ...] = ()


class MoveState(_Frozen):
    """A Movement Action under way (§7.3), step by step so that a Reaction can interrupt it (§6.5.1).

    Attributes:
        units: the moving stack (combat units and perhaps its HQ).
        path: the hexes entered so far, the start first.
        supplied: whether the movers' MA is whole (§5.7.5: halved when unsupplied).
        offered: Reaction trigger points already offered (``"entry:2623"``, ``"exit:2623"``).
        attempted: a Reaction was attempted in this Movement Action (at most one, §6.5.1).
        barred: formations whose HQ this move displaced: they may not react to it (§7.3.5).
        reactable: the move may trigger a Reaction (not a reacting formation's, §6.5.3).
        rbc: the free Movement Action of a successful Retreat before Combat (§7.5.1.1).
        reinforcement: the free Movement Action of a reinforcement just placed (§9.4.2: never into an EZOC).
    """

    units: tuple[str, ...]
    path: tuple[str, ...]
    supplied: bool
    offered: tuple[str, ...] = ()
    attempted: bool = False
    barred: tuple[str, ...] = ()
    reactable: bool = True
    rbc: bool = False
    reinforcement: bool = False


class DiceWait(Pending):
    """Dice the sequence of play waits for; ``purpose`` says what they decide and the fields carry its facts."""

    kind: Literal["dice"] = "dice"
    purpose: Literal[
        "initiative",
        "ap",
        "reaction",
        "minefield",
        "breach",
        "refit",
        "attrition",
        "isolated",
        "battle_isolated",
        "rbc",
        "chits",
        "combat",
        "battle_ec",
    ]
    units: tuple[str, ...] = ()
    movers: tuple[str, ...] = ()
    formation: str | None = None
    hex: str | None = None
    drms: tuple[int, ...] = ()
    kept: tuple[tuple[str, tuple[int, ...]], ...] = ()
    target: tuple[str, int] | None = None


class ReactionOffer(Pending):
    """§6.5.1: the non-moving seat may attempt a Formation Reaction: the moving stack ``at`` a trigger point."""

    kind: Literal["reaction_offer"] = "reaction_offer"
    at: str
    exit: bool


class Reacting(Pending):
    """§6.5.2: a reacting formation's nested activation (its Actions; no counter-reaction)."""

    kind: Literal["reacting"] = "reacting"


class BattleStep(Pending):
    """A decision of a combat (§7.5) the machine waits for, by ``step``: Retreat before Combat offered to the defender,
    its free move, escalation, air units, the Lead Formation, Armour Superiority units, the first loss, the hit
    distribution, a retreat path, a displacement by the opponent."""

    kind: Literal[
        "rbc_offer",
        "rbc_moving",
        "escalation",
        "air",
        "lead",
        "armour_attacker",
        "armour_defender",
        "first_loss",
        "distribution",
        "retreat",
        "displacement",
    ]


class Battle(_Frozen):
    """A combat under way (§7.5): the attacking stack and hex, the defending hex and units, and what each step
    decided.

    Attributes:
        side: the attacking side. source, target: the attacking and defending hexes.
        attackers, defenders: the participating units (every defending combat unit takes part).
        kind: hasty, regular or prepared. rbc_failed: the defender's Retreat before Combat failed (+2 DRM).
        chits: the attacker's and the defender's chit ids. air: air units committed. lead: the Lead Formation.
        armour: the Armour Superiority choice (attacker unit or "", points kind, defender unit or "").
        before: each unit's strength and Disrupted side when the CRT was read (the hit distribution's view).
        hits: the CRT's hits (attacker, defender) and whether each is red.
        role: whose hits are being distributed. first: that side's first loss. passed, failed, ec_losses: its ECs.
        retreats: retreats still to make for that side: (hexes, forced, units...).
        eliminated: units eliminated in this combat.
        displacing: the hex whose overstacking the opponent resolves.
    """

    side: Side
    source: str
    target: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    kind: Literal["hasty", "regular", "prepared"] = "hasty"
    rbc_failed: bool = False
    chits: tuple[str, ...] = ()
    air: int = 0
    lead: str | None = None
    armour: tuple[str, ...] = ()
    before: dict[str, tuple[int, bool]] = Field(default_factory=dict)
    hits: tuple[int, bool, int, bool] | None = None
    role: Literal["defender", "attacker"] = "defender"
    first: str | None = None
    passed: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()
    ec_losses: dict[str, int] = Field(default_factory=dict)
    retreats: tuple[tuple[str, ...], ...] = ()
    eliminated: tuple[str, ...] = ()
    displacing: str | None = None


class Reinforcing(Pending):
    """§9.4.2: a reinforcement just placed makes its free Movement Action (or stays)."""

    kind: Literal["reinforcing"] = "reinforcing"


class SnafuOffer(Pending):
    """§5.2: the holder of the marker may force a re-roll of one of the opponent's dice just rolled.

    Attributes:
        dice: the faces rolled, by roll id, as the engine handed them back.
        owners: the side owning each die, by roll id, in the same order as ``dice``.
    """

    kind: Literal["snafu"] = "snafu"
    dice: tuple[tuple[str, tuple[int, ...]], ...]
    owners: tuple[tuple[str, tuple[Side, ...]], ...]


class Overstack(Pending):
    """§5.3.1, §5.3.3: a Movement Action ended with ``side`` overstacked in ``hexes``; ``seat`` picks the next
    displacement of the first; ``then`` is what the move's end leads to once every hex meets the limits (the
    Action's end, a Retreat before Combat's end, the next reinforcement, or nothing: a Reaction acts next)."""

    kind: Literal["overstack"] = "overstack"
    hexes: tuple[str, ...]
    side: Side
    then: Literal["action", "rbc", "reinforcement", "none"]
    hq_hexes: tuple[str, ...] = ()
    """Hexes where a surplus HQ still has to be displaced by its owner (§5.3.1), before any unit displacement."""


class HqDisplacing(Pending):
    """§5.3.1, §5.3.2: the owner (``seat``) displaces ``count`` of the HQs ``hqs``, one at a time, each to one of its
    nearest destinations (which HQs, where: the owner's choice); then ``then`` goes on: the overstacking at the end
    of a move (the :class:`Overstack` below this), the hex a moving stack entered (§7.3.5), or the end of a combat
    (§7.5)."""

    kind: Literal["hq_displacement"] = "hq_displacement"
    hqs: tuple[str, ...]
    count: int
    then: Literal["overstack", "entered", "battle", "displacement"]


PendingItem = Annotated[
    DiceWait | ReactionOffer | Reacting | BattleStep | Reinforcing | SnafuOffer | Overstack | HqDisplacing,
    Field(discriminator="kind"),
]


class MarkerPlaced(_Frozen):
    """An Assigned or Dummy marker placed face down in a formation box this Organisation Segment (§5.5.2): public are
    its side, box and the slot that commits to what it is (a unit or ``"dummy"``)."""

    slot: str
    side: Side
    formation: str


class Violation(_Frozen):
    """An illegal secret choice found when its slot was opened: the slot names the entry that committed it (its
    ``sealed`` carries that slot's first version), ``seat`` who made it, the rule and why (:mod:`.audit`)."""

    seat: Side
    slot: str
    turn: int
    rule: str
    reason: str
    message: str


class Victory(_Frozen):
    """What victory needs remembered (§10): the last side to occupy or pass through each objective, the best VPs
    earned per objective, VPs from supply sources, SP losses by group, removed HQs."""

    last: dict[str, Side] = Field(default_factory=dict)
    best: dict[str, int] = Field(default_factory=dict)
    sources: int = 0
    losses: dict[str, int] = Field(default_factory=dict)
    decided: str | None = None


class GazalaState(MachineState):
    """The whole game state (module docstring)."""

    omit_when_empty: ClassVar[frozenset[str]] = MachineState.omit_when_empty | {"markers", "violations"}

    pack: GazalaPack = Field(exclude=True, repr=False)
    phase: Phase = "ops"
    pending: tuple[PendingItem, ...] = ()
    scenario: str
    options: dict[str, str | int | bool] = Field(default_factory=dict)
    seats: tuple[Side, ...]
    turn: int
    last_turn: int
    units: dict[str, CounterState]
    hqs: dict[str, HqState]
    formations: dict[str, FormationState]
    breached: tuple[str, ...] = ()
    blocked: tuple[str, ...] = ()
    tobruk: Side = "cw"
    tobruk_next: Side | None = None
    schwerpunkt: str | None = None
    air: dict[str, bool] = Field(default_factory=dict)
    """Axis air units in play: True while Available, False once Flown (§7.5.1.4, §9.1.2)."""
    air_missions: int | None = None
    """Missions left where a scenario limits them (§10.1); None: no limit."""
    improved: tuple[str, ...] = ()
    snafu: Side = "axis"
    marker: Marker = Marker()
    initiative: Side | None = None
    chooser: Side | None = None
    passed: tuple[Side, ...] = ()
    transferred: bool = False
    first_cycle: bool = True
    activation: Activation | None = None
    reaction: Activation | None = None
    move: MoveState | None = None
    admin: AdminStep | None = None
    reinforced: tuple[str, ...] = ()
    postponed: tuple[str, ...] = ()
    rps: dict[str, int] = Field(default_factory=dict)
    """Commonwealth Replacement Points of the segment by type: tank, heavy_tank, leg_infantry (§9.3.1, §9.3.2)."""
    ff_lost: int = 0
    victory: Victory = Victory()
    battle: Battle | None = None
    markers: tuple[MarkerPlaced, ...] = ()
    """The markers of the Organisation Segment under way, unopened (:mod:`.assignments`)."""
    violations: tuple[Violation, ...] = ()
    """Illegal secret choices found at their opening, in the order found (:mod:`.audit`)."""
    _zones: dict[Side, frozenset[HexId]] = PrivateAttr(default_factory=dict)
    """Zones of control inherited from the state this one was copied from, where they cannot differ."""
    _sit: Situation | None = PrivateAttr(default=None)
    """This state's :class:`Situation`, built once on first use (kept by a copy with the same position)."""

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy; it keeps this state's cached :class:`Situation` unless the update touches the position."""
        copied = super().model_copy(update=update, deep=deep)
        if deep or (update is not None and not POSITION_FIELDS.isdisjoint(update)):
            copied._sit = None
            copied._zones = self._kept_zones(update or {}) if not deep else {}
        return copied

    def _kept_zones(self, update: Mapping[str, Any]) -> dict[Side, frozenset[HexId]]:
        """The zones of control a copy with ``update`` shares with this state: a side's zone changes only with its
        own combat units' hexes or Disrupted sides, or with the breached Minefields (§5.4)."""
        known = self._sit
        found: dict[Side, frozenset[HexId]] = dict(self._zones)
        if known is not None:
            for side in SIDES:
                zone = known.memo.get(("zone", side))
                if isinstance(zone, frozenset):
                    found[side] = zone
        if "breached" in update and update["breached"] != self.breached:
            return {}
        units = update.get("units")
        if isinstance(units, dict):
            for unit, counter in units.items():
                old = self.units.get(unit)
                if old is not counter and old != counter:  # most counters are the same objects: skip comparing them
                    found.pop(self.pack.unit(unit).side, None)
        return found

    @property
    def acting(self) -> Activation | None:
        """The activation whose Actions are taken now: a reacting formation's, else the initiative one's."""
        return self.reaction if self.reaction is not None else self.activation


def position(state: GazalaState) -> Position:
    """The board's :class:`Position` of a state (units and HQs on the map only)."""
    return Position(
        units={u: HexId(c.hex) for u, c in state.units.items() if c.hex is not None},
        hqs={h: HexId(c.hex) for h, c in state.hqs.items() if c.hex is not None},
        disrupted=frozenset(u for u, c in state.units.items() if c.disrupted and c.hex is not None),
        breached=frozenset(HexId(h) for h in state.breached),
        blocked_sources=frozenset(state.blocked),
        tobruk_owner=state.tobruk,
        assigned={u: c.assigned for u, c in state.units.items() if c.assigned is not None},
        whole_boxes=ruling(state, "box_breach") == "whole",
    )


def sit_of(state: GazalaState) -> Situation:
    """The :class:`Situation` of a state on its pack's board, built once per state object."""
    known = state._sit
    if known is None:
        known = situation(state.pack, position(state))
        for side, zone in state._zones.items():
            known.memo["zone", side] = zone
        state._sit = known
    return known
