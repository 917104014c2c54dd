"""The sequence of play of Operation Battleaxe as a state machine (6, 8-17).

Each step of :data:`pbem.games.battleaxe.state.Step` has a candidate generator and one predicate per action
(``_can_<action>``, returning a Verdict that cites the rule). ``legal`` keeps the candidates the predicates
allow, and ``check`` is the same predicate: what a player is offered and what the verifier accepts cannot
drift apart. ``apply`` and ``resume`` produce the next state and events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, get_args

from pbem.games.battleaxe import actions, context
from pbem.games.battleaxe import combat as cmb
from pbem.games.battleaxe.board import ALLIED, AXIS, Board, Side, enemy
from pbem.games.battleaxe.situation import Situation
from pbem.games.battleaxe.state import BattleaxeState, Combat, UnitState
from pbem.kit.machine import ActionSpec, action_name
from pbem.rules.contract import ALLOW, Event, RollRequest, RollSpec, Verdict, deny

__all__ = ["Rules"]

Result = tuple[BattleaxeState, list[Event]]


def _event(kind: str, rule: str, text: str, seat: str | None = None, **data: Any) -> Event:
    return Event(kind=kind, seat=seat, rule=rule, text=text, data=data)


class Rules:
    """The rules of the phases not yet declared on the kit machine, over one board."""

    def __init__(self, board: Board):
        self.board = board

    def at(self, state: BattleaxeState) -> Situation:
        return context.at(state)

    def _candidates_assault(self, state: BattleaxeState, side: Side) -> Iterable[actions.BattleaxeAction]:
        assault = state.assault
        assert assault is not None
        if assault.overrun_target is not None:  # an Overrun is resolved before anything else
            yield actions.Attack(target=assault.overrun_target)
            return
        for loc in self.board.locations:
            yield actions.Attack(target=loc)

    # --- Assault: declaring an attack (11) ------------------------------------------------------------------------
    def _eligible_attackers(self, state: BattleaxeState, target: str) -> tuple[str, ...]:
        assault = state.assault
        assert assault is not None
        side = state.half
        s = self.at(state)
        found = []
        overrun = target == assault.overrun_target
        for unit in s.units_of(side, target):
            if unit in assault.attackers and not (overrun and unit in assault.overrun_moved):
                continue
            if unit in assault.entered.get(target, ()):
                found.append(unit)
            elif unit in assault.active and unit not in assault.moved and target in assault.contested_at_start:
                found.append(unit)  # 11.3: units starting in a Contested Active Area attack without moving
        return tuple(found)

    def _can_attack(self, state: BattleaxeState, side: Side, action: actions.Attack) -> Verdict:
        assault = state.assault
        assert assault is not None
        target = action.target
        if target not in self.board.locations:
            return deny("11.0", "unknown", f"unknown location {target}")
        s = self.at(state)
        if not s.where[target][enemy(side)]:
            return deny("11.0", "no-enemy", f"no enemy unit in {target}")
        if target in assault.attacked:
            return deny("9.2.1", "attacked", f"{target} has already been attacked this Impulse")
        if assault.overrun_target is not None and target != assault.overrun_target:
            return deny("11.4.4", "overrun-target", f"the Overrun may attack only {assault.overrun_target}")
        if not self._eligible_attackers(state, target):
            return deny("11.0", "no-attackers", f"no unit that began in an Active Area may attack {target}")
        return ALLOW

    def _do_attack(self, state: BattleaxeState, side: Side, action: actions.Attack) -> Result:
        assault = state.assault
        assert assault is not None
        target = action.target
        contested = target in assault.contested_at_start
        mandatory = not contested
        forced = tuple(u for u in self._eligible_attackers(state, target) if u in assault.entered.get(target, ()))
        overrun = target == assault.overrun_target
        combat = Combat(
            target=target,
            attackers=forced if mandatory else (),
            mandatory=mandatory,
            contested_at_start=contested,
            overrun=overrun,
            attacker_artillery_ok=overrun and assault.overrun_artillery,
        )
        if assault.mover is not None:
            assault = assault.model_copy(update={"mover": None, "moved": (*assault.moved, assault.mover)})
        state = state.model_copy(update={"step": "declare", "combat": combat, "assault": assault})
        kind = "Mandatory Attack" if mandatory else "attack"
        return state, [
            _event(
                "attack_declared",
                "11.1" if mandatory else "11.2",
                f"{side.title()} {kind} on {self._place(target)}",
                side,
                target=target,
            )
        ]

    def _candidates_declare(self, state: BattleaxeState, side: Side) -> Iterable[actions.BattleaxeAction]:
        combat = state.combat
        assert combat is not None
        for unit in self._eligible_attackers(state, combat.target):
            yield actions.Join(unit=unit)
            yield actions.Lead(unit=unit)
        for air in (False, True):
            for rommel in (False, True):
                for artillery in (False, True):
                    yield actions.Support(air=air, rommel=rommel, artillery=artillery)

    def _can_join(self, state: BattleaxeState, side: Side, action: actions.Join) -> Verdict:
        combat = state.combat
        assert combat is not None
        unit = action.unit
        if combat.lead is not None:
            return deny("11.4.2", "declared", "the attackers are declared once the lead is chosen")
        if unit in combat.attackers or unit not in self._eligible_attackers(state, combat.target):
            return deny("11.2", "not-eligible", f"{unit} may not join this attack")
        return ALLOW

    def _do_join(self, state: BattleaxeState, side: Side, action: actions.Join) -> Result:
        combat = state.combat
        assert combat is not None
        combat = combat.model_copy(update={"attackers": (*combat.attackers, action.unit)})
        return state.model_copy(update={"combat": combat}), []

    def _can_lead(self, state: BattleaxeState, side: Side, action: actions.Lead) -> Verdict:
        combat = state.combat
        assert combat is not None
        unit = action.unit
        if combat.lead is not None:
            return deny("11.4.2", "declared", "the lead is already chosen")
        attackers = combat.attackers if unit in combat.attackers else (*combat.attackers, unit)
        if unit not in combat.attackers and unit not in self._eligible_attackers(state, combat.target):
            return deny("11.4.2", "not-eligible", f"{unit} may not attack here")
        if self.board.is_anti_tank(unit) and not all(self.board.is_anti_tank(u) for u in attackers):
            return deny("10.3", "at-lead", "an AT/FLAK unit may not be the Lead Attacking Unit")
        return ALLOW

    def _do_lead(self, state: BattleaxeState, side: Side, action: actions.Lead) -> Result:
        combat = state.combat
        assert combat is not None
        unit = action.unit
        attackers = combat.attackers if unit in combat.attackers else (*combat.attackers, unit)
        return state.model_copy(update={"combat": combat.model_copy(update={"lead": unit, "attackers": attackers})}), []

    def _can_support(self, state: BattleaxeState, side: Side, action: actions.Support) -> Verdict:
        combat, assault = state.combat, state.assault
        assert combat is not None and assault is not None
        if combat.lead is None:
            return deny("11.4.2", "no-lead", "choose the Lead Attacking Unit first")
        if action.air:
            if side == AXIS and not (
                state.options["luftwaffe"] and state.turn >= self.board.pack.limit("luftwaffe_from_turn")
            ):
                return deny("10.1", "no-air", "the Axis has no Air Support (optional 19.2 from June 16)")
            if not state.air_ready[side] or (assault.air_used and not combat.overrun):
                return deny("10.1.1", "air-used", "Air Support is committed once per Assault Impulse")
        if action.rommel:
            if side != AXIS or not state.rommel:
                return deny("12.1", "no-rommel", "Rommel is not at the front (spend the Advantage, 12.1E)")
            if assault.rommel_used:
                return deny("12.1", "rommel-used", "Rommel adds to one Axis attack per Impulse")
        if action.artillery and not combat.overrun and state.artillery[side] <= 0:
            return deny("10.2", "no-artillery", f"the {side} player has no Artillery Support marker left this turn")
        if action.artillery and combat.overrun and not combat.attacker_artillery_ok:
            return deny("11.4.4", "no-artillery", "only artillery placed in the first combat carries over")
        return ALLOW

    def _do_support(self, state: BattleaxeState, side: Side, action: actions.Support) -> Result:
        combat, assault = state.combat, state.assault
        assert combat is not None and assault is not None
        if combat.overrun:  # 11.4.4: the first combat's artillery is assigned again, without a new call
            carried = action.artillery and combat.attacker_artillery_ok
            combat = combat.model_copy(
                update={"air": action.air, "rommel": False, "artillery": False, "attacker_artillery_ok": carried}
            )
        else:
            combat = combat.model_copy(
                update={
                    "air": action.air,
                    "rommel": action.rommel,
                    "artillery": action.artillery,
                    "attacker_artillery_ok": False,
                }
            )
        assault = assault.model_copy(
            update={
                "air_used": assault.air_used or action.air,
                "rommel_used": assault.rommel_used or action.rommel,
                "attackers": (*assault.attackers, *combat.attackers),
                "attacked": (*assault.attacked, combat.target),
            }
        )
        state = state.model_copy(update={"combat": combat, "assault": assault})
        supports = [
            k for k, used in (("air", action.air), ("rommel", action.rommel), ("artillery", action.artillery)) if used
        ]
        lead = self._label(combat.lead or "")
        text = f"{len(combat.attackers)} unit(s) led by {lead} attack {self._place(combat.target)}"
        events = [
            _event(
                "attack_committed",
                "11.4.2",
                text + (f" with {', '.join(supports)}" if supports else ""),
                side,
                attackers=list(combat.attackers),
                lead=combat.lead,
                supports=supports,
            )
        ]
        if combat.artillery:
            request = RollRequest(rolls=(RollSpec(id="artillery", sides=6, n=1, purpose=f"{side} artillery call"),))
            return state.model_copy(update={"awaiting": "attacker_artillery"}).with_rolls(request), events
        return state.model_copy(update={"step": "defend"}), events

    # --- the defender's response (11.4.3, 10.2.1) ----------------------------------------------------------------
    def _candidates_defend(self, state: BattleaxeState, side: Side) -> Iterable[actions.BattleaxeAction]:
        combat = state.combat
        assert combat is not None
        for unit in self.at(state).units_of(side, combat.target):
            for artillery in (False, True):
                yield actions.Defend(lead=unit, artillery=artillery)

    def _can_defend(self, state: BattleaxeState, side: Side, action: actions.Defend) -> Verdict:
        combat = state.combat
        assert combat is not None
        if action.lead not in self.at(state).units_of(side, combat.target):
            return deny("11.4.3", "lead", f"the Lead Defending Unit must be in {self._place(combat.target)}")
        if action.artillery and state.artillery[side] <= 0:
            return deny("10.2", "no-artillery", f"the {side} player has no Artillery Support marker left this turn")
        return ALLOW

    def _do_defend(self, state: BattleaxeState, side: Side, action: actions.Defend) -> Result:
        combat = state.combat
        assert combat is not None
        defenders = self.at(state).units_of(side, combat.target)
        combat = combat.model_copy(
            update={"def_lead": action.lead, "def_artillery": action.artillery, "defenders": defenders}
        )
        rolls = [
            RollSpec(id="attack", sides=6, n=2, purpose=f"{state.half} combat DR"),
            RollSpec(id="defense", sides=6, n=2, purpose=f"{side} combat DR"),
        ]
        if combat.def_artillery:
            rolls.append(RollSpec(id="defender_artillery", sides=6, n=1, purpose=f"{side} artillery call"))
        if combat.air:
            rolls.append(RollSpec(id="air", sides=6, n=1, purpose=f"{state.half} air support"))
        if combat.rommel:
            rolls.append(RollSpec(id="rommel", sides=6, n=1, purpose="Rommel"))
        text = f"{self._label(action.lead)} leads the defense" + (", calling artillery" if action.artillery else "")
        state = state.model_copy(update={"combat": combat, "awaiting": "combat"}).with_rolls(
            RollRequest(rolls=tuple(rolls))
        )
        return state, [_event("defense_declared", "11.4.3", text, side, lead=action.lead)]

    # --- dice ------------------------------------------------------------------------------------------------------
    def resume(self, state: BattleaxeState, dice: Mapping[str, tuple[int, ...]]) -> Result:
        awaiting = state.awaiting
        state = state.model_copy(update={"awaiting": None})
        if awaiting == "attacker_artillery":
            return self._attacker_artillery(state, dice["artillery"][0])
        if awaiting == "combat":
            return self._resolve(state, dice)
        raise ValueError(f"no dice awaited as {awaiting}")

    def _artillery_ok(self, state: BattleaxeState, side: Side, roll: int, target: str) -> bool:
        """10.2.1: a call succeeds on 4-6; +1 for an Axis call in an Axis-controlled Stützpunkt.

        RULING (notes A22, option axis_stutzpunkt_artillery): the +1 applies to any Axis call there, or with
        ``defense_only`` only when the Axis defends.
        """
        location = self.board.locations[target]
        modifier = 0
        stutzpunkt = side == AXIS and location.terrain == "stutzpunkt" and state.control[target] == AXIS
        if stutzpunkt and (state.options["axis_stutzpunkt_artillery"] == "always" or side != state.half):
            modifier = self.board.die_mods["artillery_axis_stutzpunkt"].value
        success = next(r for r in self.board.pack.tables.die_results if r.id == "artillery_available")
        return roll + modifier >= success.min

    def _attacker_artillery(self, state: BattleaxeState, roll: int) -> Result:
        combat = state.combat
        assert combat is not None
        ok = self._artillery_ok(state, state.half, roll, combat.target)
        artillery = {**state.artillery, state.half: state.artillery[state.half] - (1 if ok else 0)}
        combat = combat.model_copy(update={"attacker_artillery_ok": ok})
        text = f"{state.half.title()} artillery call: {roll}, " + ("support arrives" if ok else "no support")
        state = state.model_copy(update={"combat": combat, "artillery": artillery, "step": "defend"})
        return state, [_event("artillery_called", "10.2.1", text, state.half, roll=roll, success=ok)]

    def _resolve(self, state: BattleaxeState, dice: Mapping[str, tuple[int, ...]]) -> Result:
        combat = state.combat
        assert combat is not None
        attacker, defender = state.half, enemy(state.half)
        events: list[Event] = []
        if combat.def_artillery:
            roll = dice["defender_artillery"][0]
            ok = self._artillery_ok(state, defender, roll, combat.target)
            state = state.model_copy(
                update={"artillery": {**state.artillery, defender: state.artillery[defender] - ok}}
            )
            combat = combat.model_copy(update={"defender_artillery_ok": ok})
            events.append(
                _event(
                    "artillery_called",
                    "10.2.1",
                    f"{defender.title()} artillery call: {roll}, " + ("support arrives" if ok else "no support"),
                    defender,
                    roll=roll,
                    success=ok,
                )
            )
        air = 0
        if combat.air:
            air = dice["air"][0]
            if state.options["luftwaffe"] and attacker == ALLIED:  # 19.2, notes A48: +1, capped, then halved
                air = min(
                    air + self.board.die_mods["luftwaffe_allied_air"].value,
                    self.board.pack.limit("luftwaffe_allied_air_cap"),
                )
            if combat.contested_at_start:
                air //= self.board.pack.limit("air_contested_divisor")
        rommel = dice["rommel"][0] if combat.rommel else 0
        s = self.at(state)
        av, av_terms = cmb.attack_value(s, combat, air, rommel)
        dv, dv_terms = cmb.defense_value(s, combat, attacker)
        at, dt = av + sum(dice["attack"]), dv + sum(dice["defense"])
        result = cmb.outcome(at, dt)
        ap = max(0, at - dt)
        location = self.board.locations[combat.target]
        stutz = attacker == ALLIED and location.terrain == "stutzpunkt" and state.control[combat.target] == AXIS
        if result == "success" and ap > cmb.absorbable(s, combat.defenders) and not stutz and not combat.overrun:
            result = "overrun"
        combat = combat.model_copy(
            update={
                "attack_total": at,
                "defense_total": dt,
                "outcome": result,
                "ap_left": ap,
                "dice": {k: list(v) for k, v in dice.items()},
            }
        )
        state = state.model_copy(update={"combat": combat})
        if attacker == AXIS and state.sunset is None:
            state = state.model_copy(update={"sunset": sum(dice["attack"])})  # 6.2.1: the first Axis DR
        words = {
            "repulse": "Repulse",
            "stalemate": "Stalemate",
            "success": f"Success, {ap} AP",
            "overrun": f"Overrun, {ap} AP",
        }
        text = (
            f"Combat in {self._place(combat.target)}: attack {av} ({cmb.describe(av_terms)}) + DR "
            f"{'+'.join(map(str, dice['attack']))} = {at} against defense {dv} ({cmb.describe(dv_terms)}) + DR "
            f"{'+'.join(map(str, dice['defense']))} = {dt}: {words[result]}"
        )
        record = cmb.record(
            combat,
            attacker,
            defender,
            result,
            ap,
            (av_terms, dice["attack"]),
            (dv_terms, dice["defense"]),
        )
        other_dice = {k: list(v) for k, v in dice.items() if k not in ("attack", "defense")}
        events.append(
            Event(
                kind="combat_resolved",
                seat=attacker,
                rule="11.4.4",
                text=text,
                data=record.data(dice=other_dice),
            )
        )
        if result == "repulse" and context.holds(state, attacker):
            return state.model_copy(update={"step": "max_attack"}), events
        # RULING (notes A26, option fanatical_vs_excess): more AP than the defenders can absorb without an
        # Overrun (an Axis Stützpunkt, or a second combat) is still a Success that Fanatical Defense may turn
        excess = ap > cmb.absorbable(s, combat.defenders)
        if (
            result == "success"
            and context.holds(state, defender)
            and (state.options["fanatical_vs_excess"] or not excess)
        ):
            return state.model_copy(update={"step": "fanatical"}), events
        state, more = self._settle(state)
        return state, events + more

    # --- Advantage windows in combat (12.1A, 12.1B) ------------------------------------------------------------------
    def _candidates_max_attack(self, state: BattleaxeState, side: Side) -> Iterable[actions.BattleaxeAction]:
        yield actions.MaximumAttack()
        yield actions.Accept()

    def _candidates_fanatical(self, state: BattleaxeState, side: Side) -> Iterable[actions.BattleaxeAction]:
        yield actions.FanaticalDefense()
        yield actions.Accept()

    def _can_maximum_attack(self, state: BattleaxeState, side: Side, action: actions.MaximumAttack) -> Verdict:
        return ALLOW if state.step == "max_attack" else deny("12.1", "window", "Maximum Attack answers a Repulse")

    def _do_maximum_attack(self, state: BattleaxeState, side: Side, action: actions.MaximumAttack) -> Result:
        combat = state.combat
        assert combat is not None
        state = context.spend(state, side).model_copy(
            update={"combat": combat.model_copy(update={"outcome": "stalemate"})}
        )
        event = _event("maximum_attack", "12.1", "Maximum Attack: the Repulse becomes a Stalemate", side)
        state, more = self._settle(state)
        return state, [event, *more]

    def _can_fanatical_defense(self, state: BattleaxeState, side: Side, action: actions.FanaticalDefense) -> Verdict:
        return ALLOW if state.step == "fanatical" else deny("12.1", "window", "Fanatical Defense answers a Success")

    def _do_fanatical_defense(self, state: BattleaxeState, side: Side, action: actions.FanaticalDefense) -> Result:
        combat = state.combat
        assert combat is not None
        combat = combat.model_copy(update={"outcome": "stalemate", "ap_left": 0})
        state = context.spend(state, side).model_copy(update={"combat": combat})
        event = _event("fanatical_defense", "12.1", "Fanatical Defense: the Success becomes a Stalemate", side)
        state, more = self._settle(state)
        return state, [event, *more]

    def _can_accept(self, state: BattleaxeState, side: Side, action: actions.Accept) -> Verdict:
        return ALLOW

    def _do_accept(self, state: BattleaxeState, side: Side, action: actions.Accept) -> Result:
        return self._settle(state)

    # --- results (11.4.4) ----------------------------------------------------------------------------------------
    def _settle(self, state: BattleaxeState) -> Result:
        combat = state.combat
        assert combat is not None and combat.lead is not None and combat.def_lead is not None
        lead, def_lead = combat.lead, combat.def_lead
        attacker, defender = state.half, enemy(state.half)
        events: list[Event] = []
        if combat.outcome == "repulse":
            for unit in combat.attackers:
                state, how = context.step_loss(state, unit)
                events.append(self._loss_event(unit, how, "11.4.4", attacker))
            survivors = tuple(u for u in combat.attackers if state.units[u].location == combat.target)
            if combat.mandatory and survivors:  # 11.1: a repulsed Mandatory Attack retreats
                combat = combat.model_copy(update={"retreating": survivors})
                state = state.model_copy(update={"combat": combat})
                state, more = self._auto_retreat(state)
                return state, events + more
            state, more = self._voluntary(state)
            return state, events + more
        if combat.outcome == "stalemate":
            for unit, side in ((lead, attacker), (def_lead, defender)):
                state, how = context.step_loss(state, unit)
                events.append(self._loss_event(unit, how, "11.4.4", side))
            state, more = self._voluntary(state)
            return state, events + more
        # success or overrun: the Lead Attacking Unit takes a step (notes A16, option success_reduced_lead)
        if state.units[lead].full or state.options["success_reduced_lead"] == "step":
            state, how = context.step_loss(state, lead)
            events.append(self._loss_event(lead, how, "11.4.4", attacker))
        if combat.outcome == "overrun":
            for unit in combat.defenders:
                state = state.model_copy(update={"units": {**state.units, unit: UnitState(location=None, full=False)}})
                events.append(self._loss_event(unit, "eliminated", "11.4.4", defender))
            state, more = self._after_combat(state)
            return state, events + more
        return self._allocation_or_next(state, events)

    def _loss_event(self, unit: str, how: str, rule: str, side: Side) -> Event:
        return _event(f"unit_{how}", rule, f"{self._label(unit)} is {how}", side, unit=unit)

    # --- Attrition Points (11.5) ----------------------------------------------------------------------------------
    def _allocation_or_next(self, state: BattleaxeState, events: list[Event]) -> Result:
        combat = state.combat
        assert combat is not None
        remaining = [
            u for u in combat.defenders if u not in combat.absorbed and state.units[u].location == combat.target
        ]
        if combat.ap_left <= 0 or not remaining:
            state, more = self._voluntary(state)
            return state, events + more
        return state.model_copy(update={"step": "allocate"}), events

    def _absorb_options(self, state: BattleaxeState, unit: str) -> dict[cmb.Loss, int]:
        combat = state.combat
        assert combat is not None
        s = self.at(state)
        can_retreat = bool(s.retreat_options(enemy(state.half), combat.target))
        lead = unit == combat.def_lead and unit not in combat.absorbed
        return cmb.loss_options(
            s, unit, lead=lead, flip_and_retreat=bool(state.options["flip_and_retreat"]), can_retreat=can_retreat
        )

    def _candidates_allocate(self, state: BattleaxeState, side: Side) -> Iterable[actions.BattleaxeAction]:
        combat = state.combat
        assert combat is not None
        options = self.at(state).retreat_options(side, combat.target)
        for unit in combat.defenders:
            if unit in combat.absorbed or state.units[unit].location != combat.target:
                continue
            for loss in self._absorb_options(state, unit):
                for to in options if loss in ("retreat", "flip_retreat") else (None,):
                    yield actions.Absorb(unit=unit, loss=loss, to=to)

    def _can_absorb(self, state: BattleaxeState, side: Side, action: actions.Absorb) -> Verdict:
        combat = state.combat
        assert combat is not None
        unit, loss, to = action.unit, action.loss, action.to
        if unit not in combat.defenders or unit in combat.absorbed or state.units[unit].location != combat.target:
            return deny("11.5", "not-defender", f"{unit} is not a defending unit still to absorb AP")
        if combat.def_lead not in combat.absorbed and unit != combat.def_lead:
            return deny("11.5", "lead-first", "the Lead Defending Unit absorbs the first Attrition Point")
        options = self._absorb_options(state, unit)
        if loss not in options:
            german = "11.5.1" if state.units[unit].full and loss == "retreat" else "11.5"
            return deny(german, "loss", f"{self._label(unit)} cannot absorb AP by {str(loss).replace('_', ' ')}")
        retreat = loss in ("retreat", "flip_retreat")
        if retreat != (to is not None) or (retreat and to not in self.at(state).retreat_options(side, combat.target)):
            return deny("11.6.2", "retreat-priority", f"{to} is not a retreat destination the priorities allow")
        others = [
            u
            for u in combat.defenders
            if u != unit and u not in combat.absorbed and state.units[u].location == combat.target
        ]
        sets = [self._absorb_options(state, u).values() for u in others]
        need = min(combat.ap_left, sum(max(self._absorb_options(state, u).values()) for u in (*others, unit)))
        target = cmb.goal(need, [options.values(), *sets])
        if (target - options[loss]) not in cmb.achievable(sets):
            return deny("11.5", "exact-losses", f"exact losses must be applied whenever possible ({target} AP)")
        return ALLOW

    def _do_absorb(self, state: BattleaxeState, side: Side, action: actions.Absorb) -> Result:
        combat = state.combat
        assert combat is not None
        unit, loss, to = action.unit, action.loss, action.to
        value = self._absorb_options(state, unit)[loss]
        piece = state.units[unit]
        if loss == "eliminate":
            piece = UnitState(location=None, full=False)
        elif loss == "flip":
            piece = piece.model_copy(update={"full": False})
        elif loss == "retreat":
            piece = piece.model_copy(update={"location": to})
        elif loss == "flip_retreat":
            piece = piece.model_copy(update={"full": False, "location": to})
        combat = combat.model_copy(
            update={"absorbed": {**combat.absorbed, unit: loss}, "ap_left": combat.ap_left - value}
        )
        state = state.model_copy(update={"units": {**state.units, unit: piece}, "combat": combat})
        words = {
            "eliminate": "is eliminated",
            "flip": "is reduced",
            "retreat": f"retreats to {self._place(to or '')}",
            "flip_retreat": f"is reduced and retreats to {self._place(to or '')}",
            "none": "takes no loss",
        }
        events = [
            _event(
                "attrition_absorbed",
                "11.5",
                f"{self._label(unit)} {words[loss]} ({value} AP)",
                side,
                unit=unit,
                loss=loss,
                ap=value,
                to=to,
            )
        ]
        return self._allocation_or_next(state, events)

    # --- retreats (11.6) --------------------------------------------------------------------------------------------
    def _attacker_destinations(self, state: BattleaxeState, unit: str) -> tuple[str, ...]:
        combat, assault = state.combat, state.assault
        assert combat is not None and assault is not None
        s = self.at(state)
        origin = assault.entered_from.get(unit)
        if origin is not None and not s.full_for(state.half, origin):
            return (origin,)  # 11.6: back into the Area they came from
        return s.retreat_options(state.half, combat.target)

    def _auto_retreat(self, state: BattleaxeState) -> Result:
        """Retreat attackers that have one choice (or none: eliminated, 11.6.4); ask about the rest."""
        events: list[Event] = []
        while True:
            combat = state.combat
            assert combat is not None
            if not combat.retreating:
                break
            unit = combat.retreating[0]
            options = self._attacker_destinations(state, unit)
            if len(options) > 1:
                return state.model_copy(update={"step": "attacker_retreat"}), events
            state, event = self._retreat_attacker(state, unit, options[0] if options else None)
            events.append(event)
        state, more = self._voluntary(state)
        return state, events + more

    def _retreat_attacker(self, state: BattleaxeState, unit: str, to: str | None) -> tuple[BattleaxeState, Event]:
        combat = state.combat
        assert combat is not None
        piece = (
            UnitState(location=None, full=False)
            if to is None
            else state.units[unit].model_copy(update={"location": to})
        )
        combat = combat.model_copy(update={"retreating": tuple(u for u in combat.retreating if u != unit)})
        state = state.model_copy(update={"units": {**state.units, unit: piece}, "combat": combat})
        if to is None:
            return state, _event(
                "unit_eliminated",
                "11.6.4",
                f"{self._label(unit)} cannot retreat and is eliminated",
                state.half,
                unit=unit,
            )
        return state, _event(
            "retreated", "11.6", f"{self._label(unit)} retreats to {self._place(to)}", state.half, unit=unit, to=to
        )

    def _candidates_attacker_retreat(self, state: BattleaxeState, side: Side) -> Iterable[actions.BattleaxeAction]:
        combat = state.combat
        assert combat is not None
        for unit in combat.retreating[:1]:
            for to in self._attacker_destinations(state, unit):
                yield actions.Retreat(unit=unit, to=to)

    def _can_retreat(self, state: BattleaxeState, side: Side, action: actions.Retreat) -> Verdict:
        combat = state.combat
        assert combat is not None
        unit, to = action.unit, action.to
        if state.step == "attacker_retreat":
            if combat.retreating[:1] != (unit,):
                return deny("11.6.1", "one-at-a-time", "units retreat one at a time, in order")
            if to not in self._attacker_destinations(state, unit):
                return deny("11.6", "retreat-priority", f"{unit} may not retreat to {to}")
            return ALLOW
        if unit not in self._voluntary_units(state):
            return deny("11.6.3", "voluntary", f"{unit} may not retreat voluntarily")
        if to not in self.at(state).retreat_options(side, combat.target):
            return deny("11.6.2", "retreat-priority", f"{to} is not a destination the priorities allow")
        return ALLOW

    def _do_retreat(self, state: BattleaxeState, side: Side, action: actions.Retreat) -> Result:
        unit, to = action.unit, action.to
        if state.step == "attacker_retreat":
            state, event = self._retreat_attacker(state, unit, to)
            state, more = self._auto_retreat(state)
            return state, [event, *more]
        state = state.model_copy(
            update={"units": {**state.units, unit: state.units[unit].model_copy(update={"location": to})}}
        )
        event = _event(
            "retreated", "11.6.3", f"{self._label(unit)} withdraws to {self._place(to)}", side, unit=unit, to=to
        )
        if not self._voluntary_units(state):
            state, more = self._after_combat(state)
            return state, [event, *more]
        return state, [event]

    def _voluntary_units(self, state: BattleaxeState) -> list[str]:
        """11.6.3: defenders that may still withdraw (never Full-Strength Allied units)."""
        combat = state.combat
        assert combat is not None
        side = enemy(state.half)
        s = self.at(state)
        if not s.retreat_options(side, combat.target):
            return []
        return [u for u in s.units_of(side, combat.target) if not (side == ALLIED and state.units[u].full)]

    def _voluntary(self, state: BattleaxeState) -> Result:
        if self._voluntary_units(state):
            return state.model_copy(update={"step": "voluntary_retreat"}), []
        return self._after_combat(state)

    def _candidates_voluntary_retreat(self, state: BattleaxeState, side: Side) -> Iterable[actions.BattleaxeAction]:
        combat = state.combat
        assert combat is not None
        for unit in self._voluntary_units(state):
            for to in self.at(state).retreat_options(side, combat.target):
                yield actions.Retreat(unit=unit, to=to)
        yield actions.Stay()

    def _can_stay(self, state: BattleaxeState, side: Side, action: actions.Stay) -> Verdict:
        return ALLOW

    def _do_stay(self, state: BattleaxeState, side: Side, action: actions.Stay) -> Result:
        return self._after_combat(state)

    def _after_combat(self, state: BattleaxeState) -> Result:
        combat, assault = state.combat, state.assault
        assert combat is not None and assault is not None
        state, events = context.settle_control(state, combat.target)
        state, released = context.release(state)
        events += released
        overrun = combat.outcome == "overrun" and not combat.overrun
        survivors = tuple(u for u in combat.attackers if state.units[u].location == combat.target)
        assault = assault.model_copy(update={"overrun_units": (), "overrun_target": None, "overrun_moved": ()})
        state = state.model_copy(update={"combat": None, "assault": assault})
        if overrun and survivors:
            assault = assault.model_copy(update={"overrun_units": survivors})
            state = state.model_copy(update={"assault": assault, "combat": combat, "step": "overrun"})
            return state, events
        return state.model_copy(update={"step": "assault"}), events

    # --- Overrun (11.4.4) -------------------------------------------------------------------------------------------
    def _candidates_overrun(self, state: BattleaxeState, side: Side) -> Iterable[actions.BattleaxeAction]:
        combat = state.combat
        assert combat is not None
        for there in self.board.adjacent[combat.target]:
            yield actions.Overrun(target=there)
        yield actions.Decline()

    def _can_overrun(self, state: BattleaxeState, side: Side, action: actions.Overrun) -> Verdict:
        combat, assault = state.combat, state.assault
        assert combat is not None and assault is not None
        there = action.target
        if there not in self.board.adjacent[combat.target]:
            rule = "9.3.2" if there in self.board.escarpment[combat.target] else "11.4.4"
            return deny(rule, "not-adjacent", f"{self._place(there)} is not adjacent to {self._place(combat.target)}")
        if there in assault.attacked:
            return deny("9.2.1", "attacked", f"{there} has been attacked this Impulse")
        if self.at(state).full_for(side, there):
            return deny("7.1", "stacking", f"{there} already holds four {side} units")
        return ALLOW

    def _do_overrun(self, state: BattleaxeState, side: Side, action: actions.Overrun) -> Result:
        assault, combat = state.assault, state.combat
        assert assault is not None and combat is not None
        # 11.4.4: the survivors may enter ONE adjacent location; the first combat's artillery may follow them
        assault = assault.model_copy(
            update={
                "overrun_target": action.target,
                "mover": None,
                "overrun_moved": (),
                "overrun_artillery": combat.attacker_artillery_ok,
            }
        )
        state = state.model_copy(update={"assault": assault, "combat": None, "step": "assault"})
        text = f"Overrun: units may move into {self._place(action.target)} and attack once more"
        return state, [_event("overrun", "11.4.4", text, side, target=action.target)]

    def _can_decline(self, state: BattleaxeState, side: Side, action: actions.Decline) -> Verdict:
        return ALLOW

    def _do_decline(self, state: BattleaxeState, side: Side, action: actions.Decline) -> Result:
        assault = state.assault
        assert assault is not None
        assault = assault.model_copy(update={"overrun_units": (), "overrun_target": None})
        return state.model_copy(update={"assault": assault, "combat": None, "step": "assault"}), []

    def _label(self, unit: str) -> str:
        return self.board.label(unit)

    def _place(self, location: str) -> str:
        return self.board.place(location)


_Can = Callable[[Rules, BattleaxeState, Side, Any], Verdict]
_Do = Callable[[Rules, BattleaxeState, Side, Any], Result]

# Each action's predicate and effect (an explicit table: no dispatch on formatted names).
_HANDLERS: dict[str, tuple[_Can, _Do]] = {
    "attack": (Rules._can_attack, Rules._do_attack),
    "join": (Rules._can_join, Rules._do_join),
    "lead": (Rules._can_lead, Rules._do_lead),
    "support": (Rules._can_support, Rules._do_support),
    "defend": (Rules._can_defend, Rules._do_defend),
    "maximum_attack": (Rules._can_maximum_attack, Rules._do_maximum_attack),
    "fanatical_defense": (Rules._can_fanatical_defense, Rules._do_fanatical_defense),
    "accept": (Rules._can_accept, Rules._do_accept),
    "absorb": (Rules._can_absorb, Rules._do_absorb),
    "retreat": (Rules._can_retreat, Rules._do_retreat),
    "stay": (Rules._can_stay, Rules._do_stay),
    "overrun": (Rules._can_overrun, Rules._do_overrun),
    "decline": (Rules._can_decline, Rules._do_decline),
}

# The candidate actions of each step, which legal() filters with the predicates.
_CANDIDATES: dict[str, Callable[[Rules, BattleaxeState, Side], Iterable[actions.BattleaxeAction]]] = {
    "assault": Rules._candidates_assault,
    "declare": Rules._candidates_declare,
    "defend": Rules._candidates_defend,
    "max_attack": Rules._candidates_max_attack,
    "fanatical": Rules._candidates_fanatical,
    "allocate": Rules._candidates_allocate,
    "attacker_retreat": Rules._candidates_attacker_retreat,
    "voluntary_retreat": Rules._candidates_voluntary_retreat,
    "overrun": Rules._candidates_overrun,
}

# The steps whose actions the handlers above still decide, for the kit machine (sequence.py).
_STEPS: dict[str, tuple[str, ...]] = {
    "assault": ("attack",),
    "declare": ("join", "lead", "support"),
    "defend": ("defend",),
    "max_attack": ("maximum_attack", "accept"),
    "fanatical": ("fanatical_defense", "accept"),
    "allocate": ("absorb",),
    "attacker_retreat": ("retreat",),
    "voluntary_retreat": ("retreat", "stay"),
    "overrun": ("overrun", "decline"),
}


def _rules(state: BattleaxeState) -> Rules:
    return Rules(context.board(state))


def _legacy(name: str, model: type[actions.BattleaxeAction]) -> ActionSpec[BattleaxeState]:
    can, do = _HANDLERS[name]
    steps = [step for step, names in _STEPS.items() if name in names]

    def legal(state: BattleaxeState, side: Side) -> Iterable[Any]:
        if state.step not in steps:
            return ()
        return [a for a in _CANDIDATES[state.step](_rules(state), state, side) if isinstance(a, model)]

    def allowed(state: BattleaxeState, side: Side, act: Any) -> Verdict:
        return can(_rules(state), state, side, act)

    def effect(state: BattleaxeState, side: Side, act: Any) -> Result:
        return do(_rules(state), state, side, act)

    return context.declare(model, legal=legal, can=allowed, effect=effect)


def legacy_actions() -> tuple[ActionSpec[BattleaxeState], ...]:
    """The actions still decided by :class:`Rules`, as kit actions."""
    models = {action_name(m): m for m in get_args(actions.BattleaxeAction)}
    return tuple(_legacy(name, models[name]) for name in _HANDLERS)


def legacy_resume() -> dict[str, Callable[[BattleaxeState, Mapping[str, tuple[int, ...]]], Result]]:
    """What goes on after the dice of each ``awaiting`` value."""

    def go(awaiting: str) -> Callable[[BattleaxeState, Mapping[str, tuple[int, ...]]], Result]:
        def after(state: BattleaxeState, dice: Mapping[str, tuple[int, ...]]) -> Result:
            return _rules(state).resume(state.model_copy(update={"awaiting": awaiting}), dice)

        return after

    return {name: go(name) for name in ("attacker_artillery", "combat")}
