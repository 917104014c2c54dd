"""The signed state of an *Axis & Allies: North Africa* game, and the pending decisions of its step machine.

Pieces are interchangeable (issue 14): a space holds counts per ``"power:type"`` key (JSON object keys are
strings), never named units. :meth:`AxisState.position` turns the state into the
:class:`~.position.Position` the rules libraries (:mod:`.economy`, :mod:`.supply`, :mod:`.movement`) read.

The per-turn bookkeeping says what each piece has done this turn, by space and key:

* ``moved``: pieces that made a combat move (they move no more in the combat move, p.15);
* ``obliged``: of those, the ones that moved into attack position and must attack (p.18), blitzers excepted;
* ``exhausted``: blitzers that used their second movement point (p.15) and can neither attack nor move again;
* ``spent``: pieces that may not make a noncombat move (moved or fought, p.24);
* ``kept``: of the moved pieces, those that kept a movement point and declared no attack (they may reinforce a
  land attack, p.38).

Movement points are remembered as far as the rules ask of interchangeable pieces: a land unit's combat move
leaves it at least 1 point (p.15) unless it blitzed on (``exhausted``) or was turned back by mines; scout cars
keep their exact points for their patrol (``patrols``, p.31).

Every number the rules use comes from the pack that :func:`.data.load_pack` returns; the state keeps only ids.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from pbem.games.axisallies.data import AxisAlliesPack
from pbem.games.axisallies.position import Position
from pbem.kit.machine import MachineState, Pending

__all__ = [
    "AirDefenseRoll",
    "AttackGroup",
    "AxisState",
    "BlitzRoute",
    "Border",
    "Counts",
    "Crossing",
    "Detonation",
    "Drive",
    "ExcessDestroy",
    "ExcessMove",
    "Halt",
    "MineRoll",
    "Patrol",
    "PhaseName",
    "SeaDetonation",
    "SeaMineCheck",
    "SeaMineLoss",
    "SeaMineRoll",
    "Sortie",
    "TurnBack",
    "Volley",
    "added",
    "key",
    "remember",
    "remembered",
    "split",
    "tally",
]

PhaseName = Literal[
    "allot", "setup", "purchase", "combat_move", "declare", "combat", "noncombat_move", "deploy", "over"
]
"""p.12: a power's turn. ``allot`` gives out an RP bid (p.38, :mod:`.bidding`); ``setup`` is the UK's variable
reinforcements (p.9); ``declare`` is the end of phase 3
(attack declarations, after every combat move, p.18); phase 1, convoys, runs by itself at the turn's start."""

Counts = dict[str, int]
"""``"power:type"`` -> how many pieces."""


def key(power: str, type_: str) -> str:
    """The key of ``power``'s ``type_`` in a space's counts."""
    return f"{power}:{type_}"


def split(unit_key: str) -> tuple[str, str]:
    """(power, type) of a key."""
    power, _, type_ = unit_key.partition(":")
    return power, type_


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class AttackGroup(_Model):
    """p.18: a land attack declared out of ``origin`` into ``target``: the units committed so far (type -> count)
    and the supply tokens paid (territory -> tokens)."""

    power: str
    origin: str
    target: str
    units: dict[str, int] = Field(default_factory=dict)
    paid: dict[str, int] = Field(default_factory=dict)
    pre_declared: bool = False


class ExcessMove(Pending):
    """p.12: an opposing player may move excess units of ``side`` out of ``territory`` into adjacent territories."""

    kind: Literal["excess_move"] = "excess_move"
    territory: str
    side: str


class ExcessDestroy(Pending):
    """p.12: the owner then destroys units of its choice until ``territory`` is within its stacking limit."""

    kind: Literal["excess_destroy"] = "excess_destroy"
    territory: str
    side: str


# --- phase 4: the combat under way and its decisions (see :mod:`.phase_combat`) ---------------------------


class HitRecord(_Model):
    """A :class:`~.combat_types.Hit` in the signed state (pieces as ``"power:type"``)."""

    count: int
    allowed: tuple[str, ...]
    preferred: tuple[str, ...] = ()
    escorts_first: bool = False


class GroupRecord(_Model):
    """A :class:`~.combat_types.FireGroup` and its dice so far (batches of faces, rerolls after the first)."""

    role: Literal["attacker", "defender"]
    power: str
    type: str
    count: int
    needs: int
    target: str = "any"
    flanking: bool = False
    supported: bool = False
    rule: str = "21"
    batches: tuple[tuple[int, ...], ...] = ()
    aims: dict[str, int] = Field(default_factory=dict)


class Volley(_Model):
    """A volley fired in the combat under way, kept for the ``combat_resolved`` record that reports read."""

    round: int
    surprise: bool = False
    groups: tuple[GroupRecord, ...] = ()


class Sortie(_Model):
    """pp.15, 24: an air unit that flew in the combat move to attack ``target`` (off the board until it lands in
    the noncombat move, p.12: attacking air units are in the air); ``flown``: the movement points it used."""

    power: str
    type: str
    origin: str
    target: str
    flown: int
    fought: bool = False


class BlitzRoute(_Model):
    """p.15: a path tanks blitzed along this combat move, and how many units without a tank (mechanized
    infantry) moved along with them: at most one per tank."""

    path: tuple[str, ...]
    tanks: int = 0
    followers: int = 0


class BattleRecord(_Model):
    """The combat under way: a :class:`~.combat_types.Battle` and the round's bookkeeping."""

    space: str
    attacker: str
    land: dict[str, Counts]
    defenders: Counts
    air: Counts = Field(default_factory=dict)
    """The attacking air units (pp.15, 31): they fly in from anywhere, so they are not kept per origin."""
    round: int = 1
    main: str | None = None
    must_press: bool = False
    controller: str
    fight: bool = True
    exempt_stay: bool = False
    fire: tuple[GroupRecord, ...] = ()
    marked: Counts = Field(default_factory=dict)
    defender_hits: int = 0
    turned: dict[str, Counts] = Field(default_factory=dict)
    paid: dict[str, dict[str, int]] = Field(default_factory=dict)
    kind: Literal["land", "sea"] = "land"
    """A sea combat (:mod:`.sea_battle`) keeps its own fields below."""
    ships: Counts = Field(default_factory=dict)
    """The attacking sea units still in a sea combat (on the board in the zone, p.16)."""
    damaged: Counts = Field(default_factory=dict)
    """Battleships of either side in the combat already hit once (p.33)."""
    cargo_units: Counts = Field(default_factory=dict)
    """The defender's land units at sea still in a convoy combat (on its virtual transports, p.14)."""
    cargo_supply: dict[str, int] = Field(default_factory=dict)
    """Power -> the defender's supply points at sea still in a convoy combat."""
    stage: Literal["", "surprise"] = ""
    """``surprise``: step 1 of a sea round, the Surprise Strikes (p.34); casualties wait for its end."""
    struck: Counts = Field(default_factory=dict)
    """Submarines (either side) that made a Surprise Strike this round: they fire no more this round (p.34)."""
    submerged: Counts = Field(default_factory=dict)
    """Submarines (either side) that submerged: out of the combat to its end (p.34)."""
    lost: Counts = Field(default_factory=dict)
    """Hit points the attacker took in the Surprise Strikes, removed at the end of step 1 (p.34)."""
    volleys: tuple[Volley, ...] = ()
    """Every volley fired so far with its dice (for the report's record of the combat, not for the rules)."""
    casualties: dict[str, Counts] = Field(default_factory=dict)
    """Role -> the pieces it chose as casualties so far (for the report's record, not for the rules)."""


class ChooseMain(Pending):
    kind: Literal["choose_main"] = "choose_main"


class StrikeSupply(Pending):
    """pp.31, 33: the attacker may destroy supply before the round-1 attack dice (``then``: what follows)."""

    kind: Literal["strike_supply"] = "strike_supply"
    then: Literal["fire", "conclude"]
    used: tuple[str, ...] = ()


class GiveOrders(Pending):
    kind: Literal["give_orders"] = "give_orders"


class FireRoll(Pending):
    kind: Literal["fire_roll"] = "fire_roll"
    role: Literal["attacker", "defender"]


class AimHits(Pending):
    kind: Literal["aim_hits"] = "aim_hits"
    role: Literal["attacker", "defender"]


class TakeCasualties(Pending):
    kind: Literal["take_casualties"] = "take_casualties"
    role: Literal["attacker", "defender"]
    hits: tuple[HitRecord, ...]
    chosen: dict[str, Counts] = Field(default_factory=dict)
    stage: Literal["fire", "air_defense"] = "fire"


class AirDefenseRoll(Pending):
    """p.31: the air defense dice before round 1 of a land combat with attacking air units."""

    kind: Literal["air_defense_roll"] = "air_defense_roll"


class Retreats(Pending):
    kind: Literal["retreats"] = "retreats"
    survivors: Counts


class PressOrCease(Pending):
    kind: Literal["press_or_cease"] = "press_or_cease"


class MoveInto(Pending):
    kind: Literal["move_into"] = "move_into"
    left: int
    moved: dict[str, Counts] = Field(default_factory=dict)


# --- mines (pp.14, 26): see :mod:`.mines` ------------------------------------------------------------------


class Border(_Model):
    """p.26: the border of an attacked ``territory`` crossed by the attack out of ``origin``."""

    territory: str
    origin: str


class Crossing(_Model):
    """p.26: a blitzing ``unit`` (``"power:type"``) that crossed the mined border into ``path[1]`` and waits there
    for the owner's decision before its blitz takes the territory (and goes on to ``path[2]``, if any)."""

    unit: str
    path: tuple[str, ...]


class Detonation(Pending):
    """p.26: the owner(s) of the mines on ``border`` decide how many icons to detonate. Jointly owned mines (a
    tie) ask each owner's seat in turn (``seats``: those still to answer; ``wishes``: the answers so far)."""

    kind: Literal["detonation"] = "detonation"
    border: Border
    rest: tuple[Border, ...] = ()
    seats: tuple[str, ...] = ()
    wishes: tuple[int, ...] = ()
    crossing: Crossing | None = None


class MineRoll(Pending):
    """p.26: the mine dice, 3 per icon detonated."""

    kind: Literal["mine_roll"] = "mine_roll"
    border: Border
    rest: tuple[Border, ...] = ()
    icons: int
    crossing: Crossing | None = None


class TurnBack(Pending):
    """p.26: the acting player turns aside ``left`` more land units of the attack crossing ``border``."""

    kind: Literal["turn_back"] = "turn_back"
    border: Border
    rest: tuple[Border, ...] = ()
    left: int


class SeaMineCheck(_Model):
    """p.27: the sea mines of ``owner`` in ``zone``, where the mover deployed cargo this phase."""

    zone: str
    owner: str


class SeaDetonation(Pending):
    """p.27: the owner decides how many of its sea mine tokens in the zone to detonate."""

    kind: Literal["sea_detonation"] = "sea_detonation"
    check: SeaMineCheck
    rest: tuple[SeaMineCheck, ...] = ()


class SeaMineRoll(Pending):
    """p.27: the sea mine dice, 1 per token."""

    kind: Literal["sea_mine_roll"] = "sea_mine_roll"
    check: SeaMineCheck
    rest: tuple[SeaMineCheck, ...] = ()


class SeaMineLoss(Pending):
    """p.27: ``hits`` transport hits on the cargo deployed this phase: the mover picks the first loss of each
    (``stage`` first), the owner names a type (``stage`` second, ``named`` None), the mover picks the second."""

    kind: Literal["sea_mine_loss"] = "sea_mine_loss"
    check: SeaMineCheck
    rest: tuple[SeaMineCheck, ...] = ()
    hits: int
    stage: Literal["first", "second"] = "first"
    named: str | None = None


class Patrol(_Model):
    """p.31 Long-Range Patrol: ``count`` scout cars of ``unit`` (``"power:type"``) in ``space`` that used
    ``used`` movement points this turn (combat move and the attack's point); once they attacked, they may move
    the rest of their move in the noncombat move."""

    space: str
    unit: str
    used: int
    count: int
    attacked: bool = False


class Halt(_Model):
    """p.27: ``count`` sea units of ``unit`` (``"power:type"``) whose move this phase entered ``path[-1]``, a sea zone
    mined by an enemy power, and stopped there (``path``: every zone entered this phase, from where they started);
    ``damaged``: how many of them are battleships hit once (p.33); ``waiting``: the mines' owners have not yet
    decided on them (step 2 of the stepwise loop); once they have, the survivors may sail on (step 3)."""

    unit: str
    path: tuple[str, ...]
    count: int = 1
    damaged: int = 0
    waiting: bool = True


class Drive(_Model):
    """p.32: a truck of ``unit`` (``"power:type"``) on its way: it drove ``path`` (start first) this noncombat move
    to pick up the cargo waiting in ``path[-1]``, and may drive on with everything loaded there."""

    unit: str
    path: tuple[str, ...]


class Submerging(Pending):
    """p.34: ``role`` says which of its submarines submerge (one at a time, then ``done``)."""

    kind: Literal["submerging"] = "submerging"
    role: Literal["attacker", "defender"]


class TransportHits(Pending):
    """p.21: hits on the defender's transports, one at a time: the loser picks the first piece of cargo
    (``step`` ``first``), the firer names a type (``name``), the loser picks a piece of it (``second``)."""

    kind: Literal["transport_hits"] = "transport_hits"
    left: int
    step: Literal["first", "name", "second"] = "first"
    named: str = ""
    fired: Literal["attacker", "defender"]
    """Whose fire scored the hits (the combat goes on after them, :mod:`.sea_battle`)."""


class Escapes(Pending):
    """p.22 step 4: the defender may let cargo escape from the convoy combat (``used``: pieces so far)."""

    kind: Literal["escapes"] = "escapes"
    used: int = 0


class LandEscorts(Pending):
    """p.12 phase 1: the power's escorting air units (zone -> counts) still to land."""

    kind: Literal["land_escorts"] = "land_escorts"
    left: dict[str, Counts]


PendingDecision = Annotated[
    ExcessMove
    | ExcessDestroy
    | ChooseMain
    | StrikeSupply
    | GiveOrders
    | FireRoll
    | AirDefenseRoll
    | AimHits
    | TakeCasualties
    | Retreats
    | PressOrCease
    | MoveInto
    | Detonation
    | MineRoll
    | TurnBack
    | SeaDetonation
    | SeaMineRoll
    | SeaMineLoss
    | Submerging
    | TransportHits
    | Escapes
    | LandEscorts,
    Field(discriminator="kind"),
]


class AxisState(MachineState):
    """The whole game: board, reserves, whose turn and phase, this turn's bookkeeping and the result.

    Attributes:
        scenario: the pack's scenario id; ``players``: 2, 3 or 4 (the seat table, p.7).
        seats: power -> the roster seat that plays it (France's pieces follow their allegiance's operator, p.29).
        round, power: the round and the power whose turn it is.
        pieces: space -> counts; control: RP territory -> power (emblems come from the pack).
        supply: territory -> supply points; convoy_supply: convoy zone -> power -> supply points at sea.
        french: space -> the side French pieces there serve ("allies" once they surrendered, p.29).
        reserve: power -> unit type (or ``"supply"``) -> pieces in its Reinforcements Zone (p.13).
        rp: the Reinforcement Points of this turn (p.13); ordered: what was requisitioned this turn.
        upkeep_paid: whether the UK spent Malta's supply token this turn (p.13).
        placed: the UK's variable reinforcements so far, zone -> type -> count (p.9).
        blitzed: territories captured by a blitz this turn (p.15, p.22).
        sorties: this turn's air units flying to attack or fought and not yet landed (pp.15, 24).
        blitz_routes: the paths tanks blitzed along this turn and the mechanized infantry that went along (p.15).
        landing: where the power's air units may land this turn: its side's territories at the turn's start (p.24).
        attacks: this turn's declared land attacks not yet fought (p.18); ``pre_declared``: a Torch landing (p.28).
        battle: the combat being fought (phase 4).
        attacked: every territory land units attacked this turn, fought or not (no retreat into them, p.22).
        options: the genesis options the rules read.
        land_mines: territory -> the adjacent territory its mines face -> the tokens there, 1 or 2 icons (p.14).
        sea_mines: sea zone -> power -> its sea mine tokens there (p.14).
        mines_laid: space -> mine tokens deployed or upgraded there this turn (p.14: one a turn).
        patrols: this turn's scout cars that attacked and may still move in the noncombat move (p.31).
        loads: space -> what is loaded there onto the next truck to drive out (unit types, ``"supply"``, p.32).
        bonus: power -> RP of an accepted bid added to its first turn (p.38); bid_left: RP still to give out,
            and bid_phase_after the phase that follows.
        deployed: sea zone -> cargo deployed there this phase, ``"power:type"`` or ``"supply"`` (p.27).
        anzac: UK infantry deployed this turn to the Indian Ocean (optional ANZAC Reinforcements, p.39).
        winner: the winning side, "draw", or "" while the game goes on; outcome: its level in words.
    """

    pack: AxisAlliesPack = Field(exclude=True, repr=False)
    phase: PhaseName = "purchase"
    pending: tuple[PendingDecision, ...] = ()
    scenario: str
    players: int
    seats: dict[str, str]
    round: int
    power: str
    pieces: dict[str, Counts] = Field(default_factory=dict)
    control: dict[str, str] = Field(default_factory=dict)
    supply: dict[str, int] = Field(default_factory=dict)
    convoy_supply: dict[str, dict[str, int]] = Field(default_factory=dict)
    french: dict[str, Literal["axis", "allies"]] = Field(default_factory=dict)
    reserve: dict[str, dict[str, int]] = Field(default_factory=dict)
    rp: int = 0
    ordered: Counts = Field(default_factory=dict)
    upkeep_paid: bool = False
    placed: dict[str, dict[str, int]] = Field(default_factory=dict)
    moved: dict[str, Counts] = Field(default_factory=dict)
    obliged: dict[str, Counts] = Field(default_factory=dict)
    exhausted: dict[str, Counts] = Field(default_factory=dict)
    spent: dict[str, Counts] = Field(default_factory=dict)
    kept: dict[str, Counts] = Field(default_factory=dict)
    """From the end of the attack declarations: space -> land units there that moved in the combat move, kept a
    movement point and declared no attack (p.38: they may reinforce a land attack)."""
    blitzed: tuple[str, ...] = ()
    blitz_routes: tuple[BlitzRoute, ...] = ()
    sorties: tuple[Sortie, ...] = ()
    landing: tuple[str, ...] = ()
    attacks: tuple[AttackGroup, ...] = ()
    battle: BattleRecord | None = None
    attacked: tuple[str, ...] = ()
    naval: tuple[str, ...] = ()
    """Sea zones the mover's sea units attack this turn, not yet fought (pp.16-18, :mod:`.sea_moves`); empty
    between turns, as phase 4 fights every one."""
    damaged: dict[str, Counts] = Field(default_factory=dict)
    """Space -> battleships there already hit once (p.33)."""
    options: dict[str, str] = Field(default_factory=dict)
    resigned: tuple[str, ...] = ()
    land_mines: dict[str, dict[str, tuple[int, ...]]] = Field(default_factory=dict)
    sea_mines: dict[str, dict[str, int]] = Field(default_factory=dict)
    mines_laid: dict[str, int] = Field(default_factory=dict)
    patrols: tuple[Patrol, ...] = ()
    loads: dict[str, Counts] = Field(default_factory=dict)
    deployed: dict[str, Counts] = Field(default_factory=dict)
    halts: tuple[Halt, ...] = ()
    """Sea units stopped this move phase in zones mined by an enemy power (p.27, :mod:`.sea_mines`)."""
    drives: tuple[Drive, ...] = ()
    """Trucks on their way, stopped to pick up cargo (p.32, :mod:`.trucks`)."""
    anzac: int = 0
    bonus: dict[str, int] = Field(default_factory=dict)
    bid_left: int = 0
    bid_phase_after: PhaseName = "purchase"
    winner: str = ""
    outcome: str = ""

    def position(self) -> Position:
        """The board as the rules libraries read it (made once per state, :func:`remembered`)."""
        return remembered(self, "position", self._position)

    def _position(self) -> Position:
        pieces = {space: {split(k): n for k, n in counts.items() if n > 0} for space, counts in self.pieces.items()}
        return Position(
            round=self.round,
            pieces=pieces,
            control=dict(self.control),
            supply={t: n for t, n in self.supply.items() if n > 0},
            convoy_supply={z: dict(p) for z, p in self.convoy_supply.items()},
            french=dict(self.french),
        )

    def count(self, space: str, unit_key: str) -> int:
        """How many pieces of ``unit_key`` stand in ``space``."""
        return self.pieces.get(space, {}).get(unit_key, 0)

    def seat_of(self, power: str) -> str:
        """The seat that plays ``power``."""
        return self.seats[power]


_MEMOS: dict[int, tuple[weakref.ref[AxisState], dict[Hashable, Any]]] = {}
"""id of a live state -> (a weak reference to it, what :func:`remembered` computed of it); goes with its state."""

T = TypeVar("T")


def _memo(state: AxisState) -> dict[Hashable, Any]:
    """What was computed of ``state`` so far (:func:`remembered`)."""
    entry = _MEMOS.get(id(state))
    if entry is None or entry[0]() is not state:

        def forget(ref: weakref.ref[AxisState], ident: int = id(state)) -> None:
            if _MEMOS.get(ident, (None, {}))[0] is ref:
                del _MEMOS[ident]

        entry = (weakref.ref(state, forget), {})
        _MEMOS[id(state)] = entry
    return entry[1]


def remembered(state: AxisState, what: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, a pure function of ``state`` named ``what``, computed once per state: a state never changes
    (its copies are new states), and one list of legal actions asks for the same board and reach thousands of
    times."""
    memo = _memo(state)
    if what not in memo:
        memo[what] = compute()
    return memo[what]  # type: ignore[no-any-return]


def remember(state: AxisState, what: Hashable, value: object) -> None:
    """Record ``value`` as :func:`remembered`'s answer ``what`` of ``state``, found on the way by a caller that
    computes it the same way."""
    _memo(state).setdefault(what, value)


def tally(table: dict[str, Counts], space: str, unit_key: str) -> int:
    """The count of ``unit_key`` in ``space`` of a bookkeeping table (``moved``, ``spent``...)."""
    return table.get(space, {}).get(unit_key, 0)


def added(table: dict[str, Counts], space: str, unit_key: str, n: int) -> dict[str, Counts]:
    """``table`` with ``n`` more of ``unit_key`` in ``space`` (entries at zero are dropped, so states hash alike)."""
    here = dict(table.get(space, {}))
    value = here.get(unit_key, 0) + n
    if value:
        here[unit_key] = value
    else:
        here.pop(unit_key, None)
    out = dict(table)
    if here:
        out[space] = here
    else:
        out.pop(space, None)
    return out
