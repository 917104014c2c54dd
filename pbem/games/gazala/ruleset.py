"""*Operation Theseus: Gazala 1942* on contract v2: the sequence of play (§4) as the kit's step machine.

Phases: ``ops`` (the side with the initiative acts, transfers or passes, §6.2), ``activation`` (the active formation's
Actions, §7), ``admin`` (§9), ``over``. Interrupts: ``dice`` (every roll the sequence waits for, handed to its
handler by purpose), ``reaction_offer`` (§6.5.1: the non-moving seat may attempt a Formation Reaction),
``reacting`` (§6.5.2: the reacting formation's nested activation; also the defender's Battle Victory bonus APs,
§7.5.3), ``reinforcing`` (§9.4.2), ``overstack`` (§5.3.1, §5.3.3: displacements at a move's end, :mod:`.overstack`),
``snafu`` (§5.2: the marker's holder may re-roll an opponent's die just rolled,
:mod:`.snafu`), and the decisions of a combat (:mod:`.battle`: Retreat before Combat and its
free move, escalation, air, Lead Formation, Armour Superiority, first loss, hit distribution, retreat, displacement).

Hidden information: the secret assignment of independents with Dummy markers (§5.5.2, option
``secret_assignments``, :mod:`.assignments`): a marker's identity is a secret field committed in its slot, opened
when both sides have organised; illegal markers found then are listed by :mod:`.audit`.

Limited intelligence (§5.3.4, option ``limited_intelligence``, :mod:`.intelligence`) shapes the views only: the
log still names every unit, so a replaying opponent knows every stack.

Not registered in the ``pbem.games`` entry point (BRIEF): develop with ``PBEM_GAMES=pbem.games.gazala.ruleset:RULESET``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any

from pydantic import TypeAdapter

from pbem.games.gazala import (
    actions_misc,
    admin,
    assignments,
    battle,
    hq_decisions,
    intelligence,
    moves,
    ops,
    overstack,
    snafu,
    victory,
)
from pbem.games.gazala.actions import (
    Activate,
    ActivateUnit,
    Air,
    ArmourChoice,
    ArmourUnit,
    Assign,
    Attack,
    Breach,
    Cannibalise,
    Decline,
    DeclineBonus,
    Displace,
    DisplaceHq,
    Distribute,
    EndActivation,
    Escalate,
    FirstLoss,
    Forgo,
    GazalaAction,
    Halt,
    Improve,
    KeepRoll,
    Lead,
    Leave,
    Move,
    Organised,
    Pass,
    PlaceMarker,
    Postpone,
    Proceed,
    React,
    Refit,
    Reinforce,
    ReinforceAt,
    Replace,
    RetreatBeforeCombat,
    RetreatPath,
    Schwerpunkt,
    Snafu,
    Stand,
    Step,
    Transfer,
)
from pbem.games.gazala.board import situation
from pbem.games.gazala.cycle import cycle
from pbem.games.gazala.data import FORMAT, GazalaPack
from pbem.games.gazala.mapspec import piece_name
from pbem.games.gazala.present import GazalaLook
from pbem.games.gazala.rulings import RULINGS
from pbem.games.gazala.scenarios import setup
from pbem.games.gazala.state import DiceWait, GazalaState, position, sit_of
from pbem.kit.datapack import PackedData
from pbem.kit.machine import Interrupt, Machine, Phase, action, top
from pbem.rules.contract import (
    Action,
    OptionSpec,
    Outcome,
    Result,
    Roster,
    Ruleset,
    Scenario,
    SeatSpec,
    UnitView,
    Verdict,
    View,
    deny,
)
from pbem.rules.contract import Step as Stepped
from pbem.rules.presentation import Presentation

__all__ = ["MACHINE", "RULESET", "Gazala"]

ACTIVATION_ACTIONS = (
    "move",
    "step",
    "leave",
    "halt",
    "breach",
    "refit",
    "improve",
    "attack",
    "decline_bonus",
    "end_activation",
)
ADMIN_ACTIONS = (
    "assign",
    "place_marker",
    "proceed",
    "organised",
    "schwerpunkt",
    "replace",
    "cannibalise",
    "forgo",
    "reinforce",
    "reinforce_at",
    "postpone",
)
AXIS_FORMATIONS = ("21pz", "15pz", "90le", "15sch", "ariete", "trieste", "brescia", "pavia", "trento", "sabratha")
"""The Axis formations on the map at the start of 10.2 and 10.3: where the Axis player may put the Schwerpunkt."""

_DICE: dict[str, Callable[[GazalaState, Outcome], Stepped[GazalaState]]] = {
    "initiative": ops.initiative_rolled,
    "ap": ops.ap_rolled,
    "reaction": moves.reaction_rolled,
    "minefield": moves.minefield_checked,
    "isolated": moves.isolated_checked,
    "breach": actions_misc.breached,
    "refit": actions_misc.refitted,
    "attrition": admin.attrition_checked,
    "battle_isolated": battle.battle_isolated_checked,
    "rbc": battle.rbc_rolled,
    "chits": battle.chits_drawn,
    "combat": battle.combat_rolled,
    "battle_ec": battle.battle_ecs_rolled,
}


def _handle(state: GazalaState, outcome: Outcome) -> Stepped[GazalaState]:
    """The handler of the roll the top :class:`DiceWait` waits for."""
    return _DICE[top(state, DiceWait).purpose](state, outcome)


def _dice(state: GazalaState, outcome: Outcome) -> Stepped[GazalaState]:
    """A roll came back: the SNAFU window first (§5.2), then its handler."""
    return snafu.offer_or_apply(state, outcome, _handle)


def _displacements(state: GazalaState, seat: str) -> Iterator[Displace]:
    """A displacement after a combat's retreat (:mod:`.battle`) or at the end of a move (:mod:`.overstack`)."""
    if overstack.top_overstack(state) is not None:
        return overstack.displacements(state, seat)
    return battle.displacements(state, seat)


def _can_displace(state: GazalaState, seat: str, act: Displace) -> Verdict:
    if overstack.top_overstack(state) is not None:
        return overstack.can_displace(state, seat, act)
    return battle.can_displace(state, seat, act)


def _displace(state: GazalaState, seat: str, act: Displace) -> Stepped[GazalaState]:
    if overstack.top_overstack(state) is not None:
        return overstack.displace(state, seat, act)
    return battle.displace(state, seat, act)


def _keep(state: GazalaState, seat: str, act: KeepRoll) -> Stepped[GazalaState]:
    return snafu.keep(state, seat, act, _handle)


def _activation_seat(state: GazalaState) -> tuple[str, ...]:
    return (state.activation.side,) if state.activation is not None else ()


MACHINE: Machine[GazalaState, Any] = Machine(
    adapter=TypeAdapter(GazalaAction),
    rule="4",
    phases=(
        Phase(
            "ops",
            ("activate", "activate_unit", "transfer", "pass"),
            rule="6.2",
            to_act=lambda s: (s.chooser,) if s.chooser else (),
        ),
        Phase("activation", ACTIVATION_ACTIONS, rule="7", to_act=_activation_seat),
        Phase(
            "admin",
            (
                "assign",
                "place_marker",
                "proceed",
                "organised",
                "schwerpunkt",
                "replace",
                "cannibalise",
                "forgo",
                "reinforce",
                "reinforce_at",
                "postpone",
            ),
            rule="9",
            to_act=admin.admin_seat,
        ),
        Phase("over", (), rule="8", to_act=lambda s: ()),
    ),
    interrupts=(
        Interrupt("dice", (), rule="3.9", resume=_dice),
        Interrupt("reaction_offer", ("react", "decline"), rule="6.5.1"),
        Interrupt("reacting", ACTIVATION_ACTIONS, rule="6.5.2"),
        Interrupt("rbc_offer", ("retreat_before_combat", "stand"), rule="7.5.1.1"),
        Interrupt("rbc_moving", ("step", "halt"), rule="7.5.1.1"),
        Interrupt("reinforcing", ("step", "halt"), rule="9.4.2"),
        Interrupt("escalation", ("escalate",), rule="7.5.1"),
        Interrupt("air", ("air",), rule="7.5.1.4"),
        Interrupt("lead", ("lead",), rule="7.5.1.5"),
        Interrupt("armour_attacker", ("armour_unit",), rule="7.5.1.5"),
        Interrupt("armour_defender", ("armour",), rule="7.5.1.5"),
        Interrupt("first_loss", ("first_loss",), rule="7.5.2"),
        Interrupt("distribution", ("distribute",), rule="7.5.2"),
        Interrupt("retreat", ("retreat",), rule="7.5.2.2"),
        Interrupt("displacement", ("displace",), rule="5.3.3"),
        Interrupt("overstack", ("displace",), rule="5.3.3"),
        Interrupt("hq_displacement", ("displace_hq",), rule="5.3.2"),
        Interrupt("snafu", ("snafu", "keep_roll"), rule="5.2"),
    ),
    actions=(
        action(Activate, legal=ops.activations, can=ops.can_activate, effect=ops.activate),
        action(ActivateUnit, legal=ops.independents, can=ops.can_activate_unit, effect=ops.activate_unit),
        action(Transfer, legal=ops.transfers, can=ops.can_transfer, effect=ops.transfer),
        action(Pass, legal=ops.passes, can=ops.can_pass, effect=ops.pass_turn),
        action(Move, legal=moves.moves, can=moves.can_move, effect=moves.move),
        action(Step, legal=moves.steps, can=moves.can_step, effect=moves.step),
        action(Leave, legal=moves.leaves, can=moves.can_leave, effect=moves.leave),
        action(Halt, legal=moves.halts, can=moves.can_halt, effect=moves.halt),
        action(
            Breach, legal=actions_misc.breaches, can=actions_misc.can_breach_action, effect=actions_misc.breach_attempt
        ),
        action(Refit, legal=actions_misc.refits, can=actions_misc.can_refit, effect=actions_misc.refit),
        action(Improve, legal=actions_misc.improvements, can=actions_misc.can_improve, effect=actions_misc.improve),
        action(EndActivation, legal=ops.ends, can=ops.can_end, effect=ops.end),
        action(React, legal=moves.reacts, can=moves.can_react, effect=moves.react),
        action(Decline, legal=moves.declines, can=moves.can_decline, effect=moves.decline),
        action(Assign, legal=admin.assignments, can=admin.can_assign, effect=admin.assign),
        action(PlaceMarker, legal=admin.markers, can=admin.can_place_marker, effect=admin.place_marker),
        action(Proceed, legal=admin.proceeds, can=admin.can_proceed, effect=admin.proceed),
        action(Organised, legal=admin.organised_ends, can=admin.can_organised, effect=admin.organised),
        action(Schwerpunkt, legal=admin.schwerpunkts, can=admin.can_schwerpunkt, effect=admin.place_schwerpunkt),
        action(Replace, legal=admin.replacements, can=admin.can_replace, effect=admin.replace),
        action(Cannibalise, legal=admin.cannibalisations, can=admin.can_cannibalise, effect=admin.cannibalise),
        action(Forgo, legal=admin.forgoes, can=admin.can_forgo, effect=admin.forgo),
        action(Reinforce, legal=admin.reinforcements, can=admin.can_reinforce, effect=admin.reinforce),
        action(ReinforceAt, legal=admin.alternates, can=admin.can_reinforce, effect=admin.reinforce),
        action(Postpone, legal=admin.postponements, can=admin.can_postpone, effect=admin.postpone),
        action(Attack, legal=battle.attacks, can=battle.can_attack, effect=battle.attack),
        action(RetreatBeforeCombat, legal=battle.rbc_attempts, can=battle.can_rbc, effect=battle.rbc),
        action(Stand, legal=battle.stands, can=battle.can_stand, effect=battle.stand),
        action(Escalate, legal=battle.escalations, can=battle.can_escalate, effect=battle.escalate),
        action(Air, legal=battle.airs, can=battle.can_air, effect=battle.air),
        action(Lead, legal=battle.leads, can=battle.can_lead, effect=battle.lead),
        action(ArmourUnit, legal=battle.armour_units, can=battle.can_armour_unit, effect=battle.armour_unit),
        action(ArmourChoice, legal=battle.armour_picks, can=battle.can_armour, effect=battle.armour),
        action(FirstLoss, legal=battle.first_losses, can=battle.can_first_loss, effect=battle.first_loss),
        action(Distribute, legal=battle.distributions, can=battle.can_distribute, effect=battle.distribute_hits),
        action(RetreatPath, legal=battle.retreats, can=battle.can_retreat_path, effect=battle.retreat),
        action(Displace, legal=_displacements, can=_can_displace, effect=_displace),
        action(
            DisplaceHq,
            legal=hq_decisions.hq_displacements,
            can=hq_decisions.can_displace_hq,
            effect=hq_decisions.displace_hq_action,
        ),
        action(DeclineBonus, legal=battle.bonus_declines, can=battle.can_decline_bonus, effect=battle.decline_bonus),
        action(Snafu, legal=snafu.snafus, can=snafu.can_snafu, effect=snafu.reroll),
        action(KeepRoll, legal=snafu.keeps, can=snafu.can_keep, effect=_keep),
    ),
)

_AXIS = SeatSpec(id="axis", name="Axis", team="axis")
_CW = SeatSpec(id="cw", name="Commonwealth", team="cw")


class Gazala(PackedData, Ruleset[GazalaState]):
    pack_format = FORMAT
    id = "gazala"
    name = "Operation Theseus: Gazala 1942"
    version = "1"
    scenarios = (
        Scenario(
            id="bir-hacheim",
            name="Assault on Bir Hacheim",
            seats=(_AXIS,),
            description="§10.1: solitaire training; Ariete against the static Free French",
        ),
        Scenario(id="opening-phase", name="The Opening Phase", seats=(_AXIS, _CW), description="§10.2: Game Turns 1-4"),
        Scenario(
            id="gazala-battles", name="The Gazala Battles", seats=(_AXIS, _CW), description="§10.3: Game Turns 1-8"
        ),
    )
    options = (
        OptionSpec(
            id="schwerpunkt",
            description="§5.9: the Axis formation that carries the Schwerpunkt at the start (10.2, 10.3)",
            default="21pz",
            choices=AXIS_FORMATIONS,
        ),
        OptionSpec(
            id="linear_chits",
            description="optional rule (note on the chits): linear chits A10, A14-A18, A29 replace 10, 14-18, 29",
            default=False,
        ),
        OptionSpec(
            id="oos_halves_defence",
            description="ruling A5: an out-of-supply unit is halved defending too (default: attacking only, §5.7.5)",
            default=False,
        ),
        OptionSpec(
            id="armour_negative_with_at",
            description="ruling A3: Anti-Tank Points above the attacker's Tank Points give a negative DRM, as in the "
            "combat example (default: the rule text, §7.5.1.5 C)",
            default=False,
        ),
        OptionSpec(
            id=assignments.OPTION,
            description="§5.5.2: independents are assigned secretly, by Assigned and Dummy markers placed face down "
            "and opened when both sides have organised (false: every assignment open)",
            default=True,
            choices=(True, False),
        ),
        OptionSpec(
            id=intelligence.OPTION,
            description="§5.3.4: of an enemy stack only the topmost unit is shown (the whole stack beneath an HQ or "
            "once attacked), never a current strength; views only: the log still names every unit",
            default=False,
            choices=(True, False),
        ),
        *RULINGS,
    )
    actions = GazalaAction

    # --- data -----------------------------------------------------------------------------------------------
    def setup(self, scenario: str, options: Mapping[str, Any], roster: Roster, data: GazalaPack) -> GazalaState:
        """§10: the setup display, then the first Ops Cycle's initiative (GT1: the Axis's without a roll)."""
        seats = tuple("axis" if s == "axis" else "cw" for s in roster.players)
        options = {**{o.id: o.default for o in self.options}, **options}
        start = setup(data, scenario, options, seats)  # type: ignore[arg-type]
        return cycle(start, ()).state

    # --- the contract through the machine ------------------------------------------------------------------
    def to_act(self, state: GazalaState) -> tuple[str, ...]:
        return MACHINE.to_act(state)

    def legal_actions(self, state: GazalaState, seat: str) -> list[Action]:
        return [MACHINE.dump(a) for a in MACHINE.legal_actions(state, seat)]

    def secret_fields(self, state: GazalaState, seat: str, action: Action) -> dict[str, str]:
        """The identity of an Assigned or Dummy marker (§5.5.2) goes into the marker's own slot."""
        if action.get("action") == "place_marker" and assignments.secret(state):
            return {"unit": assignments.slot_of(state, seat)}
        return {}

    def contains(self, state: GazalaState, seat: str, action: Any, *, unseen: frozenset[str] = frozenset()) -> Verdict:
        act = self.typed(action)
        if isinstance(act, PlaceMarker) and act.unit is None and "unit" not in unseen:
            return deny("5.5.2", "no-identity", "a marker is an independent unit or a Dummy marker")
        return MACHINE.check(state, seat, act)

    def apply(self, state: GazalaState, seat: str, action: Any) -> Stepped[GazalaState]:
        """The action's effect (the machine runs it at once for the very objects :meth:`contains` just allowed)."""
        return MACHINE.apply(state, seat, self.typed(action))

    def resume(self, state: GazalaState, outcome: Outcome) -> Stepped[GazalaState]:
        if outcome.opened:  # the only openings the rules ask for: the Organisation Segment's markers
            return admin.markers_opened(state)
        return MACHINE.resume(state, outcome)

    def result(self, state: GazalaState) -> Result | None:
        return victory.result(state)

    def period(self, state: GazalaState) -> str:
        return f"turn-{state.turn}"

    def view(self, state: GazalaState, viewer: str) -> View:
        """Everything is open, unless the option ``limited_intelligence`` shows only the top of enemy stacks
        (§5.3.4, :mod:`.intelligence`).

        A combat unit's ``steps`` are its Strength Points (§7.5.2.1: each hit taken as losses costs one; at 0 the
        unit is eliminated and leaves the map), so the reports count losses from them; a cannibalised unit leaves
        with its points (ruling B18: not a loss). HQs have no steps: they are removed, never reduced (§3.3)."""
        units = []
        for ident, counter in state.units.items():
            record = state.pack.unit(ident)
            units.append(
                UnitView(
                    id=ident,
                    name=record.name,
                    side=record.side,
                    location=counter.hex,
                    kind=record.type,
                    strength=counter.cs,
                    steps=counter.cs,
                    extra={"disrupted": counter.disrupted, "formation": record.formation or counter.assigned},
                )
            )
        for ident, hq in state.hqs.items():
            record_hq = state.pack.hq(ident)
            units.append(
                UnitView(
                    id=ident,
                    name=record_hq.name,
                    side=state.pack.formation(record_hq.formation).side,
                    location=hq.hex,
                    kind="hq",
                    strength=hq.support,
                    extra={
                        "emergency_supply": hq.es,
                        "formation": record_hq.formation,
                        "level": state.formations[record_hq.formation].level
                        if record_hq.formation in state.formations
                        else None,
                    },
                )
            )
        acting = state.acting
        doing = (
            f", {piece_name(state.pack, acting.formation or acting.unit or '')} active with {acting.ap} AP"
            if acting
            else ""
        )
        summary = f"Game Turn {state.turn} of {state.last_turn}, {state.phase}{doing}"
        sources = {s.id: s.hex for s in state.pack.supply_sources}
        facts: dict[str, Any] = {
            "turn": state.turn,
            "phase": state.phase,
            "improved": list(state.improved),
            "breached": list(state.breached),
            "blocked": [sources[b] for b in state.blocked],
            "levels": {f: s.level for f, s in state.formations.items()},
            "schwerpunkt": state.schwerpunkt,
            "axis_vp": victory.score(state),
            "active": _active(state),
            "acts": {u: c.acts for u, c in state.units.items() if c.acts and c.hex is not None},
        }
        if state.markers:  # §5.5.2: how many markers each box received is public, what they are is not
            boxes: dict[str, dict[str, int]] = {}
            for marker in state.markers:
                box = boxes.setdefault(marker.side, {})
                box[marker.formation] = box.get(marker.formation, 0) + 1
            facts["markers"] = boxes
            own = [(m.formation, state.hidden.get(m.slot)) for m in state.markers if m.side == viewer]
            if own and all(slot is not None and slot.known and slot.owner == viewer for _, slot in own):
                facts["my_markers"] = [{"formation": f, "unit": slot.value} for f, slot in own if slot is not None]
        if state.violations:
            facts["violations"] = [v.model_dump(mode="json") for v in state.violations]
        seen = intelligence.redact(state, viewer, units)
        unseen = {u.id for u in units} - {u.id for u in seen}
        if unseen:  # an Independent Activation marker on an unseen counter would name it
            facts["acts"] = {u: n for u, n in facts["acts"].items() if u not in unseen}
        return View(viewer=viewer, summary=summary, units=seen, facts=facts)

    def presentation(self, data: Any) -> Presentation:
        return GazalaLook(data)

    def describe(self, action: Action) -> str:
        """The kit's short text with the pieces by name (``refit VIII/132 Battalion``). An action comes without the
        game's state, so the names are the bundled pack's (an id that pack does not know stays as it is)."""
        pack = _bundled_pack()
        named = {k: _piece_names(pack, v) if k in _PIECE_FIELDS else v for k, v in action.items()}
        return super().describe(named)

    def label(self, state: GazalaState, field: str, value: Any) -> str:
        """Units (with their formation: unit numbers repeat across armies), HQs and formations by name, never by
        id; hexes with their place names."""
        pack = state.pack
        if isinstance(value, str):
            if field == "unit" and value == assignments.DUMMY:
                return "a Dummy marker"
            if field in ("unit",) and value in state.units:
                unit = pack.unit(value)
                return f"{unit.name} ({pack.formation(unit.formation).name})" if unit.formation else unit.name
            if field == "formation" and value in state.formations:
                return f"{pack.formation(value).name}"
            if field == "hq" and value in state.hqs:
                return pack.hq(value).name
            if field in ("to", "hex"):
                names = next((r.names for r in pack.map.hexes if r.id == value), ())
                return f"{value} ({', '.join(names)})" if names else value
            if field == "entry":
                source = next((s for s in pack.supply_sources if s.id == value), None)
                return f"{source.name} ({source.hex})" if source is not None else value
        if isinstance(value, list) and not value:
            return "none"
        if field in ("units", "holders", "losses") and isinstance(value, list):
            return ", ".join(pack.unit(v).name if v in state.units else pack.hq(v).name for v in value)
        return super().label(state, field, value)

    def assert_invariants(self, state: GazalaState) -> None:
        assert all(c.cs > 0 for c in state.units.values() if c.hex is not None)
        assert all(f.level >= 0 for f in state.formations.values())
        assert state.acting is None or state.acting.ap >= 0
        if state.phase == "activation":
            assert state.activation is not None
        cached, fresh = sit_of(state), situation(state.pack, position(state))
        for side in ("axis", "cw"):
            assert cached.zone(side) == fresh.zone(side), f"the {side} zone of control inherited by a copy is stale"


def _active(state: GazalaState) -> dict[str, str] | None:
    """The Activated Formation marker's piece (§3.5): the active formation's HQ, or the activated independent unit."""
    acting = state.acting
    if acting is None:
        return None
    if acting.formation is not None:
        hq = state.pack.hq_of(acting.formation).id
        return {"side": acting.side, "hq": hq, "name": state.pack.formation(acting.formation).name}
    if acting.unit is not None:
        return {"side": acting.side, "unit": acting.unit, "name": state.pack.unit(acting.unit).name}
    return None


# The action fields that hold unit, HQ or formation ids (see actions.py).
_PIECE_FIELDS = frozenset({"unit", "units", "formation", "hq", "holders", "losses"})


@cache
def _bundled_pack() -> GazalaPack:
    return FORMAT.load(FORMAT.bundled())


def _piece_names(pack: GazalaPack, value: Any) -> Any:
    if isinstance(value, str):
        return piece_name(pack, value)
    if isinstance(value, list):
        return [_piece_names(pack, v) for v in value]
    return value


RULESET = Gazala()
