"""Operation Battleaxe: Wavell vs. Rommel, 1941, as a pbem ruleset (the engine contract's side)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pbem.errors import ActionError, PbemError
from pbem.games.battleaxe import phase_bids, sequence
from pbem.games.battleaxe.actions import BattleaxeAction
from pbem.games.battleaxe.board import ALLIED, AXIS, Side
from pbem.games.battleaxe.context import board
from pbem.games.battleaxe.data import FORMAT, BattleaxePack
from pbem.games.battleaxe.sequence import MACHINE
from pbem.games.battleaxe.state import BattleaxeState, UnitState, now
from pbem.kit.datapack import PackedData
from pbem.rules.contract import (
    OMNISCIENT,
    Action,
    Choices,
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

if TYPE_CHECKING:  # the look is imported by reports only (verifying and status never need it)
    from pbem.rules.presentation import Presentation

__all__ = ["RULESET", "Battleaxe"]

_STACK_MOVES = ("move", "regroup_move")  # actions whose units are offered by the stack they stand in
_UNIT_FIELDS = frozenset({"unit", "keep", "remove", "lead"})
_PLACE_FIELDS = frozenset({"to", "zone", "area", "target", "areas"})


class Battleaxe(PackedData, Ruleset[BattleaxeState]):
    pack_format = FORMAT
    id = "battleaxe"
    name = "Operation Battleaxe: Wavell vs. Rommel, 1941"
    version = "1.0"
    actions = BattleaxeAction
    scenarios = (
        Scenario(
            id="campaign",
            name="The campaign game, June 15-17, 1941 (5.0)",
            seats=(
                SeatSpec(id="allied", name="Allied player (Wavell)", team="allied"),
                SeatSpec(id="axis", name="Axis player (Rommel)", team="axis"),
            ),
            description="Three turns; the Allied player tries to relieve Tobruk or take enough of the frontier.",
        ),
        Scenario(
            id="bidding",
            name="The campaign game with side bids (18.1)",
            seats=(
                SeatSpec(id="player-a", name="First player", team="player-a"),
                SeatSpec(id="player-b", name="Second player", team="player-b"),
            ),
            description="Each player secretly bids the VP he would need to win as the Allies; the higher bid "
            "plays the Allies and sets the Operational Victory threshold.",
        ),
    )
    options = (
        OptionSpec(
            id="extended",
            description="20: the Extended Game (June 18 when the Allies end June 17 on 9-10 VP)",
            default=False,
        ),
        OptionSpec(
            id="consolidated_4rtr",
            description="19.3: the consolidated 4th RTR replaces 4RTR(-), SQ-A and SQ-B",
            default=False,
        ),
        OptionSpec(
            id="tiger_cubs",
            description="19.1G: the Allies may spend the Advantage to flip an armored unit",
            default=False,
        ),
        OptionSpec(
            id="wireless_intercepts",
            description="19.1H: the Axis may spend the Advantage for a Regroup and an Assault in one Impulse",
            default=False,
        ),
        OptionSpec(
            id="luftwaffe",
            description="19.2: Greater Luftwaffe intervention (Axis air support from June 16)",
            default=False,
        ),
        OptionSpec(
            id="success_reduced_lead",
            description="ruling A16: on a Success an already Reduced lead attacker "
            "is eliminated ('step') or unharmed ('no_effect')",
            default="step",
            choices=("step", "no_effect"),
        ),
        OptionSpec(
            id="flip_and_retreat",
            description="ruling A17: a Full-Strength defender may absorb 2 AP by flipping and then retreating",
            default=True,
        ),
        OptionSpec(
            id="zone_entry",
            description="ruling A8: a Zone (ALL MF) may be entered with any MF left "
            "('any_mf') or only as a unit's first move ('first_move_only')",
            default="any_mf",
            choices=("any_mf", "first_move_only"),
        ),
        OptionSpec(
            id="axis_stutzpunkt_artillery",
            description="ruling A22: the +1 Axis artillery modifier in an "
            "Axis-controlled Stützpunkt applies to every Axis call ('always') or only in defense",
            default="always",
            choices=("always", "defense_only"),
        ),
        OptionSpec(
            id="adjacency",
            description="ruling A4: Areas across an escarpment are not adjacent ('movement', 3.1) or are, for the "
            "2-MF cost, retreat priorities and the 16.1 release only ('boundary', Glossary)",
            default="movement",
            choices=("movement", "boundary"),
        ),
        OptionSpec(
            id="fanatical_vs_excess",
            description="ruling A26: Fanatical Defense may answer a Success whose AP exceed what the defenders "
            "absorb when no Overrun is allowed",
            default=True,
        ),
        OptionSpec(
            id="retreat",
            description="ruling A33: a retreat is one step ('single_step') or may continue through fully stacked "
            "friendly Areas ('continue_through_full')",
            default="single_step",
            choices=("single_step", "continue_through_full"),
        ),
        OptionSpec(
            id="fuel_timing",
            description="ruling A44: the Allies declare an Axis Fuel Shortage in their own Impulse "
            "('allied_impulse') or also as the Axis Impulse begins ('also_start_of_axis_impulse')",
            default="allied_impulse",
            choices=("allied_impulse", "also_start_of_axis_impulse"),
        ),
        OptionSpec(
            id="supply",
            description="ruling A52: supply is marked at the end of each Maneuvers Phase ('end_of_maneuvers') or "
            "traced whenever it matters ('continuous')",
            default="end_of_maneuvers",
            choices=("end_of_maneuvers", "continuous"),
        ),
        OptionSpec(
            id="free_flip_needs_supply",
            description="ruling A55: Battlefield Recovery and Tiger Cubs need supply (13.3.1)",
            default=True,
        ),
        OptionSpec(
            id="zone_h_rebuild_ignores_contest",
            description="ruling A56: Tobruk units may be rebuilt in a contested Zone H",
            default=False,
        ),
    )

    def setup(self, scenario: str, options: Mapping[str, Any], roster: Roster, data: BattleaxePack) -> BattleaxeState:
        """5.1, 5.2: markers and the fixed set-up; the Allied free set-up is the first decision."""
        removed: set[str] = set()
        optional: set[str] = {u.id for u in data.units if u.optional_rule is not None}
        if options["consolidated_4rtr"]:
            for variant in data.tables.variants:
                removed |= set(variant.removes)
                optional -= set(variant.adds)
        units: dict[str, UnitState] = {}
        free: list[str] = []
        for unit in data.units:
            if unit.id in removed or unit.id in optional:
                continue
            fixed = unit.fixed_setup
            units[unit.id] = UnitState(location=fixed)
            if fixed is None:
                free.append(unit.id)
        control: dict[str, Side] = {
            loc.id: (ALLIED if loc.initial_control == "allied" else AXIS) for loc in data.locations
        }
        bidding = scenario == "bidding"
        turns = data.tables.turns
        return BattleaxeState(
            pack=data,
            options=dict(options),
            sides={} if bidding else {"allied": ALLIED, "axis": AXIS},
            last_turn=len(turns) if options["extended"] else sum(1 for t in turns if not t.extended_only),
            units=units,
            control=control,
            advantage=ALLIED if data.setting("advantage_start") == "allied" else AXIS,
            fuel_low=data.setting("turn_marker_start") != "attack",
            air_ready={ALLIED: True, AXIS: False},
            artillery={ALLIED: data.limit("allied_artillery_markers"), AXIS: data.limit("axis_artillery_markers")},
            setup_left=tuple(free),
            step="bid" if bidding else "setup" if free else "impulse",
            phase="setup" if free or bidding else "maneuvers",
        )

    # --- the contract: seats are mapped to sides, and the rules work with sides -------------------------------
    def _side(self, state: BattleaxeState, seat: str) -> Side | None:
        return state.sides.get(seat)

    def _seat(self, state: BattleaxeState, side: str) -> str:
        for seat, held in state.sides.items():  # (a loop, not next() over a generator: asked for every action)
            if held == side:
                return seat
        raise ValueError(f"no seat plays the {side} side")

    def to_act(self, state: BattleaxeState) -> tuple[str, ...]:
        if state.step in phase_bids.STEPS:
            return phase_bids.to_act(state)
        return tuple([self._seat(state, side) for side in MACHINE.to_act(state)])

    def secret_fields(self, state: BattleaxeState, seat: str, action: Action) -> dict[str, str]:
        return {"vp": f"bid/{seat}"} if action.get("action") == "bid" else {}

    def legal_actions(self, state: BattleaxeState, seat: str) -> list[Action]:
        if state.step in phase_bids.STEPS:
            return [a.wire() for a in phase_bids.candidates(state) if self.contains(state, seat, a).ok]
        side = self._side(state, seat)
        return [] if side is None else [a.wire() for a in MACHINE.legal_actions(state, side)]

    def contains(
        self,
        state: BattleaxeState,
        seat: str,
        action: BattleaxeAction | Action,
        *,
        unseen: frozenset[str] = frozenset(),
    ) -> Verdict:
        act: BattleaxeAction = self.typed(action)
        if state.step in phase_bids.STEPS:
            return phase_bids.check(state, seat, act, unseen)
        side = self._side(state, seat)
        if side is None:
            return deny("18.1", "no-side", f"{seat} has no side yet")
        return sequence.check(state, side, act)

    def choices(self, state: BattleaxeState, seat: str) -> Choices:
        """The default tree, with the units of a move grouped by the location they stand in (a stack)."""
        tree = super().choices(state, seat)
        options = []
        for kind in tree.options:
            if kind.value in _STACK_MOVES and kind.then is not None and kind.then.field == "unit":
                units = tuple(u.model_copy(update={"group": self._stack(state, u.value)}) for u in kind.then.options)
                kind = kind.model_copy(update={"then": kind.then.model_copy(update={"options": units})})
            options.append(kind)
        return tree.model_copy(update={"options": tuple(options)})

    def _stack(self, state: BattleaxeState, unit: Any) -> str | None:
        piece = state.units.get(unit) if isinstance(unit, str) else None
        return None if piece is None or piece.location is None else board(state).place(piece.location)

    def label(self, state: BattleaxeState, field: str, value: Any) -> str:
        """Units by name, places as ``Area 7 (Halfaya Pass)``, from the data pack."""
        pieces = board(state)
        if field in _UNIT_FIELDS and isinstance(value, str) and value in pieces.units:
            return pieces.label(value)
        if field in _PLACE_FIELDS and isinstance(value, str):
            return pieces.place(value)
        return super().label(state, field, value)

    def apply(self, state: BattleaxeState, seat: str, action: BattleaxeAction | Action) -> Step[BattleaxeState]:
        if state.step in phase_bids.STEPS:
            verdict = phase_bids.check(state, seat, self.typed(action), frozenset({"vp"}))
            if not verdict.ok:
                code = "R002" if verdict.reason == "not-your-turn" else "R001"
                raise ActionError(code, f"{verdict.reason}: {verdict.message}", rule=f"§{verdict.rule}")
            return phase_bids.apply(state, seat)
        side = self._side(state, seat)  # without a side, the machine refuses it (R002) as any seat not waited for
        return sequence.apply(state, seat if side is None else side, self.typed(action))

    def resume(self, state: BattleaxeState, outcome: Outcome) -> Step[BattleaxeState]:
        if state.step == "bid":
            return phase_bids.opened(state)
        if outcome.dice is None:  # bids are opened above; the rest of the game has no hidden information (7.1)
            raise PbemError("R008", f"battleaxe: resume without dice in step {state.step}")
        if state.step == "tiebreak":
            return phase_bids.rolled(state, outcome.dice)
        return MACHINE.resume(state, outcome)  # the dice the top pending entry waits for (R008 if none does)

    def period(self, state: BattleaxeState) -> str:
        return "setup" if state.phase == "setup" else f"turn-{min(state.turn, state.last_turn)}"

    def result(self, state: BattleaxeState) -> Result | None:
        if state.step != "over" or state.winner is None:
            return None
        return Result(winners=(self._seat(state, state.winner),), outcome=state.outcome, score={"allied_vp": state.vp})

    def view(self, state: BattleaxeState, viewer: str) -> View:
        """7.1: "A player may freely examine stacks of enemy units at any time": everyone sees everything."""
        pieces = board(state)
        units = []
        for unit_id, piece in state.units.items():
            unit = pieces.units[unit_id]
            units.append(
                UnitView(
                    id=unit_id,
                    name=unit.name,
                    side=unit.side,
                    location=piece.location,
                    kind=unit.type,
                    strength=pieces.cv(unit_id, piece.full),
                    steps=(2 if piece.full else 1) if piece.location else 0,
                    extra={
                        "type": unit.type,
                        "nationality": unit.nationality,
                        "mf": pieces.mf(unit_id, piece.full),
                        "out_of_supply": piece.oos,
                        "anti_tank": unit.at_star,
                    },
                )
            )
        turn = pieces.turns[min(state.turn, len(pieces.turns)) - 1].label
        where = (
            f"{turn}, Impulse {state.impulse} ({state.half})"
            if state.phase == "maneuvers"
            else f"{turn}, {state.phase}"
        )
        summary = state.outcome if state.step == "over" else f"{where}: {now(state)}"
        bids = {}
        for seat in phase_bids.BIDDERS:
            slot = state.hidden.get(f"bid/{seat}")
            if slot is not None:  # a bid is secret until both are opened (18.1)
                visible = slot.known and (slot.public or viewer in (seat, OMNISCIENT))
                bids[seat] = slot.value if visible else None
        facts = {
            "sides": dict(state.sides),
            "bids": bids,
            "vp_needed": state.threshold,
            "turn": state.turn,
            "impulse": state.impulse,
            "half": state.half,
            "phase": state.phase,
            "step": now(state),
            "advantage": state.advantage,
            "fuel_low": state.fuel_low,
            "rommel": state.rommel,
            "vp": state.vp,
            "control": dict(state.control),
            "artillery": dict(state.artillery),
            "released": list(state.released),
            "winner": state.winner,
        }
        return View(viewer=viewer, summary=summary, units=tuple(units), facts=facts)

    def presentation(self, data: Any) -> Presentation:
        from pbem.games.battleaxe.present import BattleaxePresentation

        return BattleaxePresentation(data)


RULESET = Battleaxe()
