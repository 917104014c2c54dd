"""The state of a game of *Rommel in the Desert*: frozen, JSON-serializable, derived only from the log.

A block on the map is a public **token** (``axis-07``): its side, hex and upright/face-down (Disrupted) state are
public (§2 introduction). Its identity and current CV are hidden values owned by its side, in the slots
``unit/<token>`` (the pack's block id) and ``cv/<token>`` (the CV), which the core commits per block; the rules ask
for them to be opened when a battle is accepted (§8.5) and at the end of the game (victory, §17.2). The supply cards
are the shared hidden deck ``supply`` (cards ``0 … real−1`` are real, the rest dummies, from the pack).

Decisions whose legality depends on hidden values are recorded as :class:`Claim` s and checked by
:mod:`pbem.games.rommel.audit` once the values are revealed.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from pbem.games.rommel.board import Battle, Position, Unit
from pbem.games.rommel.schema import RommelPack
from pbem.kit.machine import MachineState, Pending

__all__ = [
    "DECK",
    "SIDES",
    "BattleRecord",
    "Claim",
    "Fight",
    "FireShot",
    "Phase",
    "Probe",
    "Pursuit",
    "Refusal",
    "RommelState",
    "Side",
    "Token",
    "TurnRecord",
    "Withdrawal",
    "cv_slot",
    "other",
    "unit_slot",
]

Side = Literal["axis", "allied"]
SIDES: tuple[Side, Side] = ("axis", "allied")
DECK = "supply"
Phase = Literal["dealing", "setup", "mulligan", "buildup", "initiative", "turn", "advance", "over"]


def other(side: Side) -> Side:
    """The enemy of ``side``."""
    return "allied" if side == "axis" else "axis"


def unit_slot(token: str) -> str:
    """The hidden slot holding the pack block id behind ``token``."""
    return f"unit/{token}"


def cv_slot(token: str) -> str:
    """The hidden slot holding ``token``'s current CV."""
    return f"cv/{token}"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Token(_Model):
    """A block as everybody sees it.

    Attributes:
        side: its colour (§2.1).
        group: the scenario group it belongs to (``deploy-0``, ``arrival-5``): the blocks its identity comes from.
        hex: where it stands; None while not on the map.
        status: ``muster`` (identity not yet chosen), ``ready`` (chosen, not yet placed), ``due`` (a reinforcement
            of next Month, identified, waiting for its Early Arrival die or its Month, §16.41), ``map``,
            ``eliminated``, ``exited`` (off the enemy map-end, §17.1), ``refit`` (off the map near its Base, face
            down, until the next Buildup, §16.52), ``waiting`` (a reinforcement or refitted unit held off the map in
            its side's off-board box while its Base is engaged, until a Group Move brings it in, §16.4 sidebar).
        disrupted: face down (§11).
        identified: whether its owner has chosen its identity.
        raider: behind enemy lines, cut off from friendly supply while its battle lasts (§12.5).
    """

    side: Side
    group: str
    hex: str | None = None
    status: Literal["muster", "ready", "due", "map", "eliminated", "exited", "refit", "waiting"] = "muster"
    disrupted: bool = False
    disrupted_turn: int = 0
    unsupplied: bool = False
    raider: bool = False


class BattleRecord(_Model):
    """A battle hex (§8): its Defender, the side that last engaged across each crossed hexside (§8.1), and whether
    it is new this Player-Turn (combat is mandatory in its first Combat phase, §8.6)."""

    defender: Side
    attacker: Side
    crossed: dict[str, Side] = Field(default_factory=dict)
    new: bool = True
    fortress: bool = False


class Claim(_Model):
    """A public claim about hidden values, checked at the end-of-game audit.

    * ``speed``: the token's speed is at least ``value`` (§6.1).
    * ``strength``: the token's CV, opened at ``act``, is ``value``: a CV its block can have (§2.3, §2.4).
    * ``slowest``: the slowest of the retreating ``group`` has speed ``value`` (§10.5).
    * ``pursuit``: some of the eligible pursuers ``group`` roll exactly ``value`` dice against the announced slowest
      speed ``against`` (§10.5, Pursuit Deception), after the Pursuit Fires ``before`` from the same hex this turn
      ((announced speed, dice) each), whose units cannot fire again.
    """

    act: int
    seat: Side
    token: str
    kind: Literal["speed", "strength", "slowest", "pursuit"]
    value: int
    rule: str
    group: tuple[str, ...] = ()
    against: int = 0
    before: tuple[tuple[int, int], ...] = ()


class TurnRecord(_Model):
    """The Player-Turn under way (§3.4).

    Attributes:
        committed: the hand positions of the cards committed face down (§3.42); None before the selection.
        moves: Moves completed (§4).
        move: the Move under way: its kind and origin hex.
        rommel: whether the Move under way takes the Rommel bonus (§6.3); ``rommel_used``: one per turn.
        paths: each token moved this turn, with its path (a unit moves once a turn, §4.2).
        mover: the token whose path the next step extends (a token stops for good once another moves).
        engaged: engagements across each hexside this Movement phase (§7.1).
        partial: the battles a Move of this turn made a Partial Retreat from (§10.4), as the Move ended.
        regroup_to: each Regroup mover's destination (one short of it must Force March into it, §5.2 sidebar).
        raids: each Unsupplied unit that entered a battle across an enemy hexside, with the hexside (§12.5).
        withdrawal: the Move under way is the Pass Turn's free Withdrawal Move (§4.5, §5.3); ``withdrawn``: the
            units that made it (the turn makes no other Move); ``voided``: a Withdrawal was taken back (no other
            Withdrawal this turn).
        stage: ``select``, ``movement``, ``mines`` (the passive player reveals the Minefields entered, §14.2),
            ``combat``, ``final`` (the Routs of units the Final Supply Check Disrupted, before the reveal, §12.7),
            ``reveal``.
        blitz: the Blitz Movement and Combat phases are under way (§4.4, §3.45, §3.46); ``first_phase``: the units
            that moved before them (they stay put, Forced Marches included).
        pursued: the Pursuit Fires from each hex this turn, (announced speed, dice) each: a unit fires once.
    """

    committed: tuple[int, ...] | None = None
    moves: int = 0
    move: tuple[str, str] | None = None
    destination: str | None = None
    rommel: bool = False
    rommel_used: bool = False
    paths: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    current: tuple[str, ...] = ()
    mover: str | None = None
    in_move: tuple[str, ...] = ()
    left: dict[str, BattleRecord] = Field(default_factory=dict)
    rommel_moved: tuple[str, ...] = ()
    regrouped: tuple[str, ...] = ()
    regroup_to: dict[str, str] = Field(default_factory=dict)
    raids: dict[str, str] = Field(default_factory=dict)
    fought: tuple[str, ...] = ()
    assault: bool = False
    skipped: bool = False
    forced: dict[str, str] = Field(default_factory=dict)
    forced_engaged: dict[str, int] = Field(default_factory=dict)
    disengaged: dict[str, bool] = Field(default_factory=dict)
    partial: tuple[str, ...] = ()
    withdrawal: bool = False
    withdrawn: tuple[str, ...] = ()
    voided: bool = False
    engaged: dict[str, int] = Field(default_factory=dict)
    stage: Literal["select", "movement", "mines", "combat", "final", "reveal"] = "select"
    blitz: bool = False
    first_phase: tuple[str, ...] = ()
    pursued: dict[str, tuple[tuple[int, int], ...]] = Field(default_factory=dict)

    @model_serializer(mode="wrap")
    def _omit_empty_new_fields(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """``first_phase`` came after logs were signed: left out while empty, so their checkpoints hash as before
        (as :attr:`pbem.rules.contract.GameState.omit_when_empty` does for a state's own fields)."""
        dumped: dict[str, Any] = handler(self)
        if not dumped.get("first_phase"):
            dumped.pop("first_phase", None)
        return dumped


class FireShot(_Model):
    """One unit's fire in the volley under way (§9.2-§9.4): the block (revealed), its target class, Firepower, dice
    and hits."""

    block: str
    target: str
    fire: str
    rolls: tuple[int, ...]
    full: int
    half: int


class Fight(Pending):
    """A battle handed over to the battle stage (§8.6, §9): its hex, Attacker, Defender, the blocks revealed in it,
    the Combat Round's initiator and Assault (§9.1, §4.3), and the volley under way.

    ``seat`` fires (``awaiting`` ``fire``) or reports the losses of the other side's fire (``losses``); ``shooting``
    is the unit whose dice are being rolled; ``fired``, the units that fired in this Combat Round (only the others
    may pursue a Rout, §10.5 sidebar). A round of Probe Combat (§10.41) names the units making the Partial Retreat
    in ``probe``: if the Rearguard is eliminated they take Pursuit Fire from the unfired probing units."""

    kind: Literal["battle"] = "battle"
    hex: str
    attacker: Side
    defender: Side
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    initiator: Side
    assault: bool = False
    fortress: bool = False
    awaiting: Literal["fire", "losses"] = "fire"
    shots: tuple[FireShot, ...] = ()
    shooting: tuple[str, str] | None = None
    reported: tuple[str, ...] = ()
    fired: tuple[str, ...] = ()
    probe: tuple[str, ...] = ()


class Pursuit(Pending):
    """Pursuit Fire on a Retreating group (§10.5), handed over to :mod:`pbem.games.rommel.pursuit`: the (former)
    battle hex, the retreating side and units, the eligible pursuers (undisrupted, unfired), why the group retreats
    (``retreat`` §10.3, ``refuse`` §10.2, ``rout`` §11.3, ``probe`` §10.41), and the decision awaited: a Rout's
    Attrition (§11.3), the owner's slowest speed, the pursuer's dice, the owner's losses (``hits`` to allocate).
    ``march``: no Pursuit Fire, only the step a unit loses for a failed Forced March on a Retreat (§6.4 sidebar),
    reported like a Rout's Attrition."""

    kind: Literal["pursuit"] = "pursuit"
    hex: str
    retreating: Side
    group: tuple[str, ...]
    pursuers: tuple[str, ...]
    cause: Literal["retreat", "refuse", "rout", "probe", "march"] = "retreat"
    awaiting: Literal["attrition", "slowest", "dice", "losses"] = "slowest"
    slowest: int = 0
    hits: int = 0
    before: tuple[tuple[int, int], ...] = ()


class Withdrawal(Pending):
    """A Withdrawal Group Move (§5.3) the rules impose: a group Refusing Battle (§10.2), Routed (§11.3) or, after a
    Pass Turn, Attacking a Fortress (``fortress``, §13.5 sidebar) leaves ``hex``. ``paths`` holds each unit's path
    so far (its hex first); the units move when it ends (the four conditions of §5.3 are judged on the position as
    the Withdrawal began)."""

    kind: Literal["withdrawal"] = "withdrawal"
    hex: str
    group: tuple[str, ...]
    cause: Literal["refuse", "rout", "fortress"]
    paths: dict[str, tuple[str, ...]] = Field(default_factory=dict)


class Probe(Pending):
    """§10.41: the Passive Player may provoke a round of Probe Combat against the Rearguard of a Partial Retreat from
    ``hex`` (``group``: the units that disengaged)."""

    kind: Literal["probe"] = "probe"
    hex: str
    group: tuple[str, ...]


class Refusal(Pending):
    """§8.4, §10.2: after all enemy Movement, the Passive Player may Refuse Battle with the groups just Attacked."""

    kind: Literal["refusal"] = "refusal"


class RommelState(MachineState):
    """Everything on the table, and where in the sequence of play the game stands.

    ``minefields`` are the hexes of the Minefields everybody knows (a scenario's, and hidden ones once revealed,
    §14.2); ``mines`` each Minefield built in a Buildup by its hidden slot (``mine/<side>-<n>``, the hex), with its
    public state (``hidden``, ``revealed``, ``dismantled``). ``networks`` are the Supply Networks frozen for the
    Buildup under way (§16.2), ``port_use`` the Sea Redeployments through each Fortress in it (``side/place``,
    §16.53), ``month_fortresses`` the Fortress control as the Month began and ``bonus_cards`` the Captured Supply
    due at this Buildup's Resupply (§13.4); ``ledger`` counts each side's Buildup spending (``side/what``) for
    the divulging option (§16.5).

    ``pack`` is the data pack in use: carried for the rules, never serialized or hashed (genesis commits to it).
    ``told`` the CV slots whose current version everybody knows though it was never opened (a public loss report,
    §9.5): slot -> version; for views only, so neither serialized nor hashed either.
    """

    pack: RommelPack = Field(exclude=True, repr=False)
    told: dict[str, int] = Field(default_factory=dict, exclude=True, repr=False)
    options: dict[str, bool | int | str]
    scenario: str
    phase: Phase = "dealing"
    pending: tuple[Fight | Pursuit | Withdrawal | Refusal | Probe, ...] = ()
    month: int
    first_month: int
    last_month: int
    acts: int = 0
    tokens: dict[str, Token]
    battles: dict[str, BattleRecord] = Field(default_factory=dict)
    fortresses: dict[str, Side] = Field(default_factory=dict)
    minefields: tuple[str, ...] = ()
    mines: dict[str, str] = Field(default_factory=dict)
    networks: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    port_use: dict[str, int] = Field(default_factory=dict)
    month_fortresses: dict[str, Side] = Field(default_factory=dict)
    bonus_cards: dict[str, int] = Field(default_factory=dict)
    ledger: dict[str, int] = Field(default_factory=dict)
    deals: tuple[tuple[Side, int], ...] = ()
    then: Phase = "mulligan"
    redrawing: Side | None = None
    mulligan_done: tuple[Side, ...] = ()
    first: Side = "axis"
    active: Side = "axis"
    passes: int = 0
    turn_no: int = 0
    turn: TurnRecord = Field(default_factory=TurnRecord)
    claims: tuple[Claim, ...] = ()
    bp: dict[str, int] = Field(default_factory=dict)
    order: tuple[Side, ...] = ()
    buildup_done: tuple[Side, ...] = ()
    extra_cards: dict[str, int] = Field(default_factory=dict)
    early_rolled: tuple[Side, ...] = ()
    malta: bool = False
    challenge: dict[str, int | None] = Field(default_factory=dict)
    exited: dict[str, int] = Field(default_factory=dict)
    winner: Side | None = None
    outcome: str = ""
    forfeit: Side | None = None

    def position(self) -> Position:
        """The board's view of the map: tokens on it, battles and fortress control (§1.2, §8.1)."""
        units = tuple(
            Unit(t, tok.hex, tok.disrupted, side=tok.side)
            for t, tok in sorted(self.tokens.items())
            if tok.status == "map" and tok.hex is not None
        )
        battles = {h: Battle(b.defender, dict(b.crossed)) for h, b in self.battles.items()}
        return Position(units, battles, dict(self.fortresses))

    def on_map(self, side: Side | None = None) -> list[str]:
        """The tokens on the map (of ``side``), in id order."""
        return sorted(
            t for t, tok in self.tokens.items() if tok.status == "map" and (side is None or tok.side == side)
        )  # the few found sorted, not every token (the rules ask this thousands of times in a replay)

    def at(self, hex_id: str) -> list[str]:
        """The tokens in ``hex_id``."""
        return sorted(t for t, tok in self.tokens.items() if tok.status == "map" and tok.hex == hex_id)
