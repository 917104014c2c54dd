"""The Admin Phase (§9), every Game Turn after the first (§4, §10): Recovery, Organisation, Replacements and
Reinforcements, then the Ops Phase.

* Recovery (§9.1), automatic: each HQ's supply check raises its formation's level by its Recovery Rating (to its
  maximum) and flips the HQ back from Emergency Supply; the air units return (§9.1.2); Disrupted units In Command
  recover (§9.1.3; Out of Command ones do not, §5.8.3); unassigned independents in supply lose their activation
  markers and recover (§9.1.4, ruling A7); Disrupted and Isolated units take an Attrition Check (§9.1.5).
* Organisation (§9.2): the Axis assigns and reassigns its independents without a white stripe (``assign``,
  §5.5.2) and ends by placing the Schwerpunkt on a formation whose HQ is in supply (§5.9; ``organised`` when it
  cannot); then the Commonwealth assigns and reassigns its own and ends with ``organised``. A side with nothing
  to decide is skipped. With the option ``secret_assignments`` (the rules' way) the assignments are Assigned and
  Dummy markers placed face down (``place_marker``), opened when both sides have organised (:mod:`.assignments`).
* Replacements (§9.3): the Axis's German Panzer RP on the turns the track gives it; then, on the turns the track
  allows it, the Commonwealth cannibalises tank, heavy tank and StopCol/SeaCol units for RPs of their type and
  spends them one Strength Point at a time (§9.3.1, §9.3.2).
* Reinforcements (§9.4): the Commonwealth first, then the Axis, enter each eligible unit at a friendly entry hex
  or postpone it, or, when none of its entry hexes is available, enter at the nearest friendly map-edge hex
  (``reinforce_at``); each unit placed may make a free Movement Action that never enters an EZOC (§9.4.2:
  ``step`` / ``halt``; overstacking is resolved at its end, :mod:`.overstack`).
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.games.gazala import assignments as secret_markers
from pbem.games.gazala import victory
from pbem.games.gazala.actions import (
    Assign,
    Cannibalise,
    Forgo,
    Organised,
    PlaceMarker,
    Postpone,
    Proceed,
    Reinforce,
    ReinforceAt,
    Replace,
    Schwerpunkt,
)
from pbem.games.gazala.board import other
from pbem.games.gazala.cycle import begin_ops_phase, d10
from pbem.games.gazala.data import Side
from pbem.games.gazala.mapspec import piece_name, side_name
from pbem.games.gazala.paths import command, in_command, supply
from pbem.games.gazala.rulings import ruling
from pbem.games.gazala.scenarios import reinforcements_allowed
from pbem.games.gazala.stacking import stacking
from pbem.games.gazala.state import DiceWait, GazalaState, MoveState, Reinforcing, sit_of
from pbem.kit.hexes import HexId
from pbem.kit.machine import pop, push, top
from pbem.rules.contract import ALLOW, Event, Outcome, Step, Verdict, deny

__all__ = ["admin_seat", "attrition_checked", "begin_admin", "markers_opened"]


def begin_admin(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    """§9.1 the Recovery Segment, then the segments that need decisions."""
    pack = state.pack
    sit = sit_of(state)
    found = list(events)
    formations = dict(state.formations)
    hqs = dict(state.hqs)
    for formation, level in state.formations.items():
        hq_id = pack.hq_of(formation).id
        hq = hqs.get(hq_id)
        if hq is None or hq.hex is None:
            continue
        supplied = supply(sit, hq_id).ok
        hqs[hq_id] = hq.model_copy(update={"supplied": supplied, "es": hq.es and not supplied})
        if supplied:
            raised = min(pack.formation(formation).max_level, level.level + pack.formation(formation).recovery)
            formations[formation] = level.model_copy(update={"level": raised})
        found.append(
            Event(
                kind="recovered" if supplied else "recovery_failed",
                seat=pack.formation(formation).side,
                rule="9.1.1",
                data={"formation": formation, "level": formations[formation].level, "supplied": supplied},
            )
        )
    units = dict(state.units)
    attrition: list[str] = []
    for unit, counter in state.units.items():
        if counter.hex is None:
            continue
        belongs = sit.formation(unit)
        if (
            belongs is None
            and counter.acts
            and (not ruling(state, "independent_recovery_needs_supply") or supply(sit, unit).ok)
        ):
            units[unit] = counter.model_copy(update={"acts": 0, "disrupted": False})  # §9.1.4
            continue
        if not counter.disrupted:
            continue
        state_of = command(sit, unit).state
        if state_of == "in-command":
            units[unit] = counter.model_copy(update={"disrupted": False})  # §9.1.3
        elif state_of == "isolated":
            attrition.append(unit)  # §9.1.5
    air = {a: True for a in state.air}
    state = state.model_copy(
        update={
            "formations": formations,
            "hqs": hqs,
            "units": units,
            "air": air,
            "phase": "admin",
            "admin": None,
            "postponed": (),
            "activation": None,
            "reaction": None,
            "move": None,
            "passed": (),
        }
    )
    found.append(Event(kind="air_recovered", seat="axis", rule="9.1.2", data={"air": sorted(air)}))
    if attrition:
        wait = DiceWait(seat=state.seats[0], purpose="attrition", units=tuple(attrition))
        return Step(
            state=push(state, wait).with_rolls(d10("attrition", "§9.1.5 Attrition Checks", len(attrition))),
            events=tuple(found),
        )
    return _organisation(state, tuple(found))


def attrition_checked(state: GazalaState, outcome: Outcome) -> Step[GazalaState]:
    """§9.1.5, §5.8.4, ruling B16: a failed Attrition Check (d10 above the current Effectiveness) costs the
    difference in Strength Points."""
    wait = top(state, DiceWait)
    assert outcome.dice is not None
    state = pop(state)
    events: list[Event] = []
    for unit, die in zip(wait.units, outcome.dice["attrition"], strict=True):
        record = state.pack.unit(unit)
        eff = record.eff.front if ruling(state, "attrition_printed_eff") else record.eff.disrupted  # notes B16
        events.append(
            Event(
                kind="attrition_check",
                seat=state.pack.unit(unit).side,
                rule="9.1.5",
                data={"unit": unit, "die": die, "eff": eff},
                text=f"{record.name} (Isolated, {side_name(record.side)}) rolls {die} against {eff}",
            )
        )
        if die > eff:
            state, lost = victory.lose(state, unit, die - eff, "9.1.5")
            events.extend(lost)
    return _organisation(state, tuple(events))


# --- Organisation (§9.2) ----------------------------------------------------------------------------------------


def _schwerpunkt_candidates(state: GazalaState) -> list[str]:
    return [f for f in state.formations if state.pack.formation(f).side == "axis"]


def _organisation(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    """§9.2: the Axis (re)assigns independents and places the Schwerpunkt, then the Commonwealth (re)assigns."""
    state = state.model_copy(update={"admin": "organisation"})
    if "axis" in state.seats and (_may_schwerpunkt(state) or _may_assign(state, "axis")):
        return Step(state=state, events=events)
    return _cw_organisation(state, events)


def _cw_organisation(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    state = state.model_copy(update={"admin": "cw_organisation"})
    if "cw" in state.seats and _may_assign(state, "cw"):
        return Step(state=state, events=events)
    return _replacement(state, events)


def _may_schwerpunkt(state: GazalaState) -> bool:
    return any(can_schwerpunkt(state, "axis", s).ok for s in schwerpunkts(state, "axis"))


def _organising(state: GazalaState) -> Side | None:
    return {"organisation": "axis", "cw_organisation": "cw"}.get(state.admin or "")  # type: ignore[return-value]


def _may_assign(state: GazalaState, side: Side) -> bool:
    if secret_markers.secret(state):  # public facts only: the segment's course must not depend on a secret
        return any(secret_markers.box_verdict(state, side, f).ok for f in state.formations)
    return any(_assignment(state, side, a).ok for a in _assignments(state, side))


def _assignments(state: GazalaState, side: Side) -> Iterator[Assign]:
    for unit, counter in sorted(state.units.items()):
        record = state.pack.unit(unit)
        if record.side == side and record.independent == "assignable" and counter.hex is not None:
            for formation in record.assign_to:
                if formation != counter.assigned:
                    yield Assign(unit=unit, formation=formation)


def _assignment(state: GazalaState, side: Side, act: Assign) -> Verdict:
    """§5.5.2: an independent unit without a white stripe, on the map and undisrupted, joins one of the formations
    it may join (the pack's ``assign_to``), within Command Range of that formation's HQ; a reassignment also needs
    it In Command of its present HQ (within its Command Range, not Out of Command nor Isolated, §5.8.3)."""
    counter = state.units.get(act.unit)
    record = state.pack.unit(act.unit) if counter is not None else None
    if counter is None or record is None or record.side != side or counter.hex is None:
        return deny(
            "5.5.2",
            "not-assignable",
            f"{piece_name(state.pack, act.unit)} is not a unit of {side_name(side)} on the map",
        )
    if record.independent != "assignable":
        return deny(
            "5.5.2",
            "not-assignable",
            f"{piece_name(state.pack, act.unit)} is not an independent unit without a white stripe",
        )
    if act.formation not in record.assign_to or act.formation == counter.assigned:
        return deny(
            "5.5.2",
            "assign-to",
            f"{piece_name(state.pack, act.unit)} may not be assigned to {piece_name(state.pack, act.formation)}",
        )
    if counter.disrupted:
        return deny("5.5.2", "disrupted", f"{act.unit} is Disrupted")
    hq = next((h.id for h in state.pack.hqs if h.formation == act.formation), None)
    if hq is None or state.hqs[hq].hex is None:
        return deny("5.5.2", "no-hq", f"the HQ of {act.formation} is not on the map")
    if counter.assigned is not None:
        verdict = in_command(sit_of(state), act.unit)
        if not verdict.ok:
            return verdict
    joined = state.model_copy(
        update={"units": {**state.units, act.unit: counter.model_copy(update={"assigned": act.formation})}}
    )
    if command(sit_of(joined), act.unit).state != "in-command":
        return deny("5.5.2", "out-of-range", f"{act.unit} is not within Command Range of the HQ of {act.formation}")
    return ALLOW


def assignments(state: GazalaState, seat: str) -> Iterator[Assign]:
    side = _organising(state)
    if side is not None and side == seat and not secret_markers.secret(state):
        yield from _assignments(state, side)


def can_assign(state: GazalaState, seat: str, act: Assign) -> Verdict:
    side = _organising(state)
    if side is None or side != seat:
        return deny("9.2", "not-now", "independents are (re)assigned in the side's Organisation Segment")
    if secret_markers.secret(state):
        return deny("5.5.2", "secret", "assignments are recorded secretly: place an Assigned or Dummy marker")
    return _assignment(state, side, act)


def markers(state: GazalaState, seat: str) -> Iterator[PlaceMarker]:
    side = _organising(state)
    if side is not None and side == seat and secret_markers.secret(state):
        yield from secret_markers.legal_markers(state, side, _assignment)


def can_place_marker(state: GazalaState, seat: str, act: PlaceMarker) -> Verdict:
    """§5.5.2: an Assigned or Dummy marker in one of the side's formation boxes, in its Organisation Segment."""
    side = _organising(state)
    if side is None or side != seat:
        return deny("9.2", "not-now", "markers are placed in the side's Organisation Segment")
    if not secret_markers.secret(state):
        return deny("5.5.2", "open", "assignments are open in this game (option secret_assignments): assign")
    return secret_markers.marker_verdict(state, side, act, _assignment)


def place_marker(state: GazalaState, seat: str, act: PlaceMarker) -> Step[GazalaState]:
    side = _organising(state)
    assert side is not None
    state, event = secret_markers.place(state, side, act.formation)
    if side == "axis" and not (_may_schwerpunkt(state) or _may_assign(state, "axis")):
        return _cw_organisation(state, (event,))
    if side == "cw" and not _may_assign(state, "cw"):
        return _replacement(state, (event,))
    return Step(state=state, events=(event,))


def markers_opened(state: GazalaState) -> Step[GazalaState]:
    """The segment's markers are open (:mod:`.assignments`): they take effect, then the Replacement Segment; but
    if no decision came before the Ops Phase's initiative dice, the first seat ``proceed`` s to them, since dice
    may not follow an opening (PROTOCOL.md §7.5: a ``hidden`` entry declares no rolls)."""
    state, events = secret_markers.reveal(state, _assignment)
    step = _replacement(state, tuple(events))
    if step.state.rolls is None:
        return step
    return Step(state=state.model_copy(update={"admin": "revealed"}), events=tuple(events))


def proceeds(state: GazalaState, seat: str) -> Iterator[Proceed]:
    if can_proceed(state, seat, Proceed()).ok:
        yield Proceed()


def can_proceed(state: GazalaState, seat: str, act: Proceed) -> Verdict:
    if state.admin != "revealed" or seat != state.seats[0]:
        return deny("9.2", "not-now", "the Admin Phase goes on by itself")
    return ALLOW


def proceed(state: GazalaState, seat: str, act: Proceed) -> Step[GazalaState]:
    return _replacement(state, ())


def assign(state: GazalaState, seat: str, act: Assign) -> Step[GazalaState]:
    counter = state.units[act.unit]
    event = Event(
        kind="unit_assigned",
        seat=seat,
        rule="5.5.2",
        data={"unit": act.unit, "formation": act.formation, "from": counter.assigned},
        text=f"{piece_name(state.pack, act.unit)} is assigned to {piece_name(state.pack, act.formation)}",
    )
    units = {**state.units, act.unit: counter.model_copy(update={"assigned": act.formation})}
    state = state.model_copy(update={"units": units})
    if _organising(state) == "axis" and not (_may_schwerpunkt(state) or _may_assign(state, "axis")):
        return _cw_organisation(state, (event,))
    if _organising(state) == "cw" and not _may_assign(state, "cw"):
        return _replacement(state, (event,))
    return Step(state=state, events=(event,))


def organised_ends(state: GazalaState, seat: str) -> Iterator[Organised]:
    if can_organised(state, seat, Organised()).ok:
        yield Organised()


def can_organised(state: GazalaState, seat: str, act: Organised) -> Verdict:
    """§9.2: a side ends its Organisation Segment (the Axis by placing the Schwerpunkt while it can)."""
    side = _organising(state)
    if side is None or side != seat:
        return deny("9.2", "not-now", "not in the side's Organisation Segment")
    if side == "axis" and _may_schwerpunkt(state):
        return deny("9.2", "schwerpunkt", "the Axis ends its Organisation Segment by placing the Schwerpunkt")
    return ALLOW


def organised(state: GazalaState, seat: str, act: Organised) -> Step[GazalaState]:
    if _organising(state) == "axis":
        return _cw_organisation(state, ())
    return _replacement(state, ())


def schwerpunkts(state: GazalaState, seat: str) -> Iterator[Schwerpunkt]:
    for formation in _schwerpunkt_candidates(state):
        yield Schwerpunkt(formation=formation)


def can_schwerpunkt(state: GazalaState, seat: str, act: Schwerpunkt) -> Verdict:
    """§5.9, §9.2: on an Axis formation whose HQ is on the map and in supply."""
    if state.admin != "organisation":
        return deny("9.2", "not-now", "the Schwerpunkt is placed in the Organisation Segment")
    if act.formation not in state.formations or state.pack.formation(act.formation).side != "axis":
        return deny("5.9", "not-axis", f"{act.formation} is not an Axis formation in play")
    hq = state.hqs.get(state.pack.hq_of(act.formation).id)
    if hq is None or hq.hex is None or not hq.supplied:
        return deny("5.9", "hq-unsupplied", f"the HQ of {act.formation} is not on the map in supply")
    return ALLOW


def place_schwerpunkt(state: GazalaState, seat: str, act: Schwerpunkt) -> Step[GazalaState]:
    event = Event(
        kind="schwerpunkt_placed",
        seat="axis",
        rule="9.2",
        data={"formation": act.formation},
        text=f"the Schwerpunkt goes to {piece_name(state.pack, act.formation)}",
    )
    return _cw_organisation(state.model_copy(update={"schwerpunkt": act.formation}), (event,))


# --- Replacements (§9.3) ------------------------------------------------------------------------------------------


def _axis_rp(state: GazalaState) -> int:
    row = next((t for t in state.pack.tables.turns if t.number == state.turn), None)
    return 0 if row is None else row.axis_rp


def _replacement(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    if state.markers:  # membership matters from here on: the Organisation Segment's markers are opened first
        return Step(state=secret_markers.open_markers(state), events=events)
    state = state.model_copy(update={"admin": "replacement"})
    offered = any(can_replace(state, "axis", r).ok for r in replacements(state, "axis"))
    if "axis" in state.seats and _axis_rp(state) > 0 and offered:
        return Step(state=state, events=events)
    return _cw_replacement(state, events)


def replacements(state: GazalaState, seat: str) -> Iterator[Replace]:
    for unit in sorted(state.units):
        if state.pack.unit(unit).side == seat:
            yield Replace(unit=unit)


def _category(state: GazalaState, unit: str) -> str | None:
    """§9.3.1, §9.3.2: the Commonwealth RP type a unit takes: heavy tank, tank, or leg infantry."""
    record = state.pack.unit(unit)
    if record.is_heavy_tank:
        return "heavy_tank"
    if record.is_tank:
        return "tank"
    return "leg_infantry" if record.movement == "leg" and record.is_infantry else None


def can_replace(state: GazalaState, seat: str, act: Replace) -> Verdict:
    """§9.3: the German Panzer RP goes to a German tank unit (armoured cars included); a Commonwealth RP to a unit of
    its type (§9.3.1, §9.3.2). The unit is on the map below its printed strength, undisrupted, In Command of its
    parent HQ, that HQ in supply (an unassigned independent unit: itself in supply, §5.7.5), not in an EZOC."""
    if state.admin not in ("replacement", "cw_replacement"):
        return deny("9.3", "not-now", "replacements come in the Replacement Segment")
    counter = state.units.get(act.unit)
    record = state.pack.unit(act.unit) if counter is not None else None
    if counter is None or record is None or counter.hex is None:
        return deny("9.3", "not-on-map", f"{act.unit} is not a unit on the map (eliminated units are not rebuilt)")
    if state.admin == "replacement" and (
        record.nationality != "german" or not (record.is_tank or record.type == "armoured_car")
    ):
        return deny("9.3", "not-panzer", f"{act.unit} is not a German tank unit")
    if state.admin == "cw_replacement":
        category = _category(state, act.unit)
        if record.side != "cw" or category is None or state.rps.get(category, 0) < 1:
            return deny("9.3.1", "no-rp", f"no Replacement Point of {act.unit}'s type is left")
    if counter.cs >= record.cs:
        return deny("9.3", "full-strength", f"{act.unit} is at its printed strength")
    if counter.disrupted:
        return deny("9.3", "disrupted", f"{act.unit} is Disrupted")
    sit = sit_of(state)
    formation = sit.formation(act.unit)
    hq = state.hqs.get(state.pack.hq_of(formation).id) if formation is not None else None
    if formation is None:
        if not supply(sit, act.unit).ok:
            return deny("5.7.5", "out-of-supply", f"{act.unit} is an unsupplied unassigned independent unit")
    elif hq is None or not hq.supplied or command(sit, act.unit).state != "in-command":
        return deny("9.3", "not-in-command", f"{act.unit} is not In Command of a supplied HQ")
    if HexId(counter.hex) in sit.enemy_zone(record.side):
        return deny("9.3", "in-ezoc", f"{act.unit} is in an EZOC")
    return ALLOW


def replace(state: GazalaState, seat: str, act: Replace) -> Step[GazalaState]:
    counter = state.units[act.unit]
    printed = state.pack.unit(act.unit).cs
    step = state.pack.number("rp_strength")
    if state.admin == "cw_replacement":
        category = _category(state, act.unit)
        assert category is not None
        gained = min(printed - counter.cs, step)
        rps = {**state.rps, category: state.rps[category] - 1}
        state = state.model_copy(update={"rps": rps})
    else:
        gained = min(printed - counter.cs, _axis_rp(state) * step)
    units = {**state.units, act.unit: counter.model_copy(update={"cs": counter.cs + gained})}
    event = Event(
        kind="replaced",
        seat=seat,
        rule="9.3",
        data={"unit": act.unit, "sp": gained},
        text=f"{piece_name(state.pack, act.unit)} gains {gained} SP",
    )
    state = state.model_copy(update={"units": units})
    if state.admin == "cw_replacement":
        return _cw_replacement(state, (event,))
    return _cw_replacement(state.model_copy(update={"admin": None}), (event,))


def _cannibalisable(state: GazalaState) -> list[str]:
    return sorted(u for u, c in state.units.items() if c.hex is not None and state.pack.unit(u).cannibalise)


def cannibalisations(state: GazalaState, seat: str) -> Iterator[Cannibalise]:
    for unit in _cannibalisable(state):
        yield Cannibalise(unit=unit)


def can_cannibalise(state: GazalaState, seat: str, act: Cannibalise) -> Verdict:
    """§9.3.1: a Commonwealth tank or heavy tank unit that has lost at least half its printed strength; §9.3.2: the
    StopCol or SeaCol brigade at any strength; neither Isolated nor in an EZOC; on even turns from GT4."""
    if state.admin != "cw_replacement":
        return deny("9.3.1", "not-now", "the Commonwealth cannibalises in the Replacement Segment of its turns")
    counter = state.units.get(act.unit)
    if counter is None or counter.hex is None or state.pack.unit(act.unit).cannibalise is None:
        return deny("9.3.1", "not-cannibalisable", f"{act.unit} cannot be cannibalised")
    record = state.pack.unit(act.unit)
    if (
        record.cannibalise != "leg_infantry"
        and (record.cs - counter.cs) * state.pack.number("cannibalise_loss_divisor") < record.cs
    ):
        return deny("9.3.1", "strength", f"{act.unit} has not lost half its printed strength")
    sit = sit_of(state)
    if command(sit, act.unit).state == "isolated":
        return deny("9.3.1", "isolated", f"{act.unit} is Isolated")
    if HexId(counter.hex) in sit.enemy_zone("cw"):
        return deny("9.3.1", "in-ezoc", f"{act.unit} is in an EZOC")
    return ALLOW


def cannibalise(state: GazalaState, seat: str, act: Cannibalise) -> Step[GazalaState]:
    """The unit leaves play; each of its Strength Points becomes an RP of its type (not a loss: ruling B18)."""
    counter = state.units[act.unit]
    kind = state.pack.unit(act.unit).cannibalise
    assert kind is not None
    rps = {**state.rps, kind: state.rps.get(kind, 0) + counter.cs}
    units = {**state.units, act.unit: counter.model_copy(update={"hex": None})}
    improved = tuple(h for h in state.improved if h != counter.hex)
    event = Event(
        kind="cannibalised",
        seat="cw",
        rule="9.3.1" if kind != "leg_infantry" else "9.3.2",
        data={"unit": act.unit, "rp": counter.cs, "type": kind},
        text=f"{piece_name(state.pack, act.unit)} is cannibalised for {counter.cs} {kind.replace('_', ' ')} RP",
    )
    return _cw_replacement(state.model_copy(update={"rps": rps, "units": units, "improved": improved}), (event,))


def _cw_replacement(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    """§9.3: the Commonwealth's segment follows the Axis's, on the turns the track allows it."""
    row = next((t for t in state.pack.tables.turns if t.number == state.turn), None)
    if "cw" not in state.seats or row is None or not row.cw_cannibalise:
        return _reinforcement(state, events)
    state = state.model_copy(update={"admin": "cw_replacement"})
    useful = any(can_cannibalise(state, "cw", c).ok for c in cannibalisations(state, "cw"))
    useful = useful or any(can_replace(state, "cw", r).ok for r in replacements(state, "cw"))
    if useful:
        return Step(state=state, events=events)
    return _reinforcement(state.model_copy(update={"rps": {}}), events)


def forgoes(state: GazalaState, seat: str) -> Iterator[Forgo]:
    yield Forgo()


def can_forgo(state: GazalaState, seat: str, act: Forgo) -> Verdict:
    if state.admin not in ("replacement", "cw_replacement"):
        return deny("9.3", "not-now", "replacements come in the Replacement Segment")
    return ALLOW


def forgo(state: GazalaState, seat: str, act: Forgo) -> Step[GazalaState]:
    """§9.3: RPs must be used at once; the ones left are lost, and the segment ends for the side."""
    event = Event(kind="replacement_forgone", seat=seat, rule="9.3", data={"rps": sum(state.rps.values())})
    if state.admin == "cw_replacement":
        return _reinforcement(state.model_copy(update={"rps": {}}), (event,))
    return _cw_replacement(state, (event,))


# --- Reinforcements (§9.4) ----------------------------------------------------------------------------------------


def _waiting(state: GazalaState, side: Side) -> list[str]:
    """The reinforcements of ``side`` eligible now and not yet entered or postponed this turn."""
    if not reinforcements_allowed(state.pack, state.scenario) or side not in state.seats:
        return []
    done = set(state.reinforced) | set(state.postponed)
    return [
        r.unit
        for r in state.pack.scenario(state.scenario).reinforcements
        if r.turn <= state.turn and r.unit not in done and state.pack.side_of(r.unit) == side
    ]


def admin_seat(state: GazalaState) -> tuple[str, ...]:
    """Who decides in the Admin Phase now: the Axis in Organisation and Replacement; in Reinforcement the
    Commonwealth first, then the Axis (§9.4)."""
    if state.pending:
        return ()
    if state.admin in ("organisation", "replacement"):
        return ("axis",)
    if state.admin == "cw_organisation":
        return ("cw",)
    if state.admin == "revealed":
        return (state.seats[0],)
    if state.admin == "cw_replacement":
        return ("cw",)
    if state.admin == "reinforcement":
        for side in ("cw", "axis"):
            if _waiting(state, side):
                return (side,)
    return ()


def _reinforcement(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    state = state.model_copy(update={"admin": "reinforcement"})
    if admin_seat(state):
        return Step(state=state, events=events)
    return begin_ops_phase(state, events)


def _entries(state: GazalaState, unit: str) -> tuple[str, ...]:
    record = next(r for r in state.pack.scenario(state.scenario).reinforcements if r.unit == unit)
    return record.entry


def _closed(state: GazalaState, side: Side, hex_id: str, source: str | None) -> Verdict:
    """§9.4.1 (2, 3): a hex a reinforcement may not enter: with a Supply Blocked marker, enemy-occupied, or in an
    EZOC."""
    sit = sit_of(state)
    here = HexId(hex_id)
    marked = any(s.hex == hex_id and s.id in state.blocked for s in state.pack.supply_sources)
    if source in state.blocked or marked or here in sit.occupied[other(side)]:
        return deny("9.4.1", "blocked", f"{source or hex_id} is blocked")
    if here in sit.enemy_zone(side):
        return deny("9.4.1", "in-ezoc", f"{source or hex_id} is in an EZOC")
    return ALLOW


def _source_hex(state: GazalaState, source: str) -> str:
    return next(s.hex for s in state.pack.supply_sources if s.id == source)


def _placed(state: GazalaState, unit: str, hex_id: str, formation: str | None) -> GazalaState:
    """``state`` with ``unit`` at ``hex_id``, assigned to ``formation`` when it names one (§5.5.2, §9.4.1)."""
    if unit in state.units:
        change: dict[str, object] = {"hex": hex_id} if formation is None else {"hex": hex_id, "assigned": formation}
        return state.model_copy(update={"units": {**state.units, unit: state.units[unit].model_copy(update=change)}})
    return state.model_copy(update={"hqs": {**state.hqs, unit: state.hqs[unit].model_copy(update={"hex": hex_id})}})


def _edge_entry(state: GazalaState, side: Side, unit: str, hex_id: HexId, formation: str | None) -> bool:
    """Whether ``unit`` (assigned to ``formation`` if independent) may enter at the map-edge hex ``hex_id`` when no
    entry hex is available (§9.4.1), by the ``alternate_entry`` ruling: ``command_range``, the text's "if they are
    in Command Range and not adjacent to an enemy unit" (Command Range of its formation's HQ by a Command Path,
    notes B23; an HQ, or an unassigned independent unit, is always in range; never an enemy-occupied hex);
    ``open_edge``, neither enemy-occupied nor in an EZOC."""
    sit = sit_of(state)
    if ruling(state, "alternate_entry") == "open_edge":
        return _closed(state, side, hex_id, None).ok
    enemy = sit.occupied[other(side)]
    if hex_id in enemy or any(n in enemy for n in sit.board.grid.neighbours(hex_id)):
        return False
    if unit not in state.units:
        return True
    return command(sit_of(_placed(state, unit, hex_id, formation)), unit).state == "in-command"


def alternate_entries(state: GazalaState, side: Side, unit: str, formation: str | None = None) -> tuple[str, ...]:
    """§9.4.1: "should no friendly entry hex be available", the friendly map-edge hexes nearest to the unit's entry
    hexes where it may enter (:func:`_edge_entry`, assigned to ``formation`` if independent); none while any entry
    hex is available."""
    entries = [_source_hex(state, e) for e in _entries(state, unit)]
    if any(_closed(state, side, h, e).ok for h, e in zip(entries, _entries(state, unit), strict=True)):
        return ()
    grid = sit_of(state).board.grid
    first, last = state.pack.map.cols
    column = first if state.pack.setting("axis_edge" if side == "axis" else "cw_edge") == "west" else last
    low, high = state.pack.map.rows
    hexes = (grid.hex_id(column, row) for row in range(low, high + 1))
    edge = [h for h in hexes if h in grid and _edge_entry(state, side, unit, h, formation)]
    if not edge:
        return ()
    reach = {h: min(grid.distance(h, HexId(e)) for e in entries) for h in edge}
    nearest = min(reach.values())
    return tuple(sorted(h for h, d in reach.items() if d == nearest))


def independent(state: GazalaState, unit: str) -> bool:
    """§5.5.2: whether a reinforcement is an independent unit without a white stripe (assigned as it enters)."""
    record = state.pack.find_unit(unit)
    return record is not None and record.independent == "assignable"


def qualifying(state: GazalaState, unit: str) -> tuple[str, ...]:
    """§5.5.2, §9.4.1: the formations an independent reinforcement may be assigned to before it is placed: those
    the counter allows (the pack's ``assign_to``) whose HQ is on the map ("must always be part of a qualifying
    formation"; Command Range is measured once it is placed, as for any unit of the formation)."""
    allowed = state.pack.unit(unit).assign_to
    return tuple(f for f in allowed if state.hqs[state.pack.hq_of(f).id].hex is not None)


def _formations(state: GazalaState, unit: str) -> tuple[str | None, ...]:
    """The ``formation`` values a reinforcement's entry may carry: a qualifying formation for an independent
    one (none: it cannot enter, only wait), nothing for any other."""
    return qualifying(state, unit) if independent(state, unit) else (None,)


def reinforcements(state: GazalaState, seat: str) -> Iterator[Reinforce]:
    for seat_side in admin_seat(state):
        side: Side = "axis" if seat_side == "axis" else "cw"
        for unit in _waiting(state, side):
            for formation in _formations(state, unit):
                for entry in _entries(state, unit):
                    yield Reinforce(unit=unit, entry=entry, formation=formation)


def alternates(state: GazalaState, seat: str) -> Iterator[ReinforceAt]:
    for seat_side in admin_seat(state):
        side: Side = "axis" if seat_side == "axis" else "cw"
        for unit in _waiting(state, side):
            entry = _entries(state, unit)[0]
            for formation in _formations(state, unit):
                for hex_id in alternate_entries(state, side, unit, formation):
                    yield ReinforceAt(unit=unit, entry=entry, hex=hex_id, formation=formation)


def _may_act(state: GazalaState, seat: str, unit: str) -> Verdict:
    if state.admin != "reinforcement":
        return deny("9.4", "not-now", "reinforcements come in the Reinforcement Segment")
    if unit not in _waiting(state, "axis" if seat == "axis" else "cw"):
        return deny("9.4", "not-eligible", f"{unit} is not an eligible reinforcement of {seat} now")
    return ALLOW


def _assignment_at_entry(state: GazalaState, unit: str, formation: str | None) -> Verdict:
    """§5.5.2, §9.4.1: an independent reinforcement without a white stripe "must be assigned to a formation before
    entering the map", a qualifying one (:func:`qualifying`); any other reinforcement names none."""
    if not independent(state, unit):
        if formation is not None:
            return deny(
                "9.4.1",
                "not-independent",
                f"{piece_name(state.pack, unit)} is not an independent unit: it is assigned to none",
            )
        return ALLOW
    if formation is None:
        return deny(
            "9.4.1", "unassigned", f"{piece_name(state.pack, unit)} must be assigned to a formation before it enters"
        )
    if formation not in qualifying(state, unit):
        return deny(
            "9.4.1",
            "assign-to",
            f"{piece_name(state.pack, unit)} may not be assigned to {piece_name(state.pack, formation)} (§5.5.2)",
        )
    return ALLOW


def can_reinforce(state: GazalaState, seat: str, act: Reinforce | ReinforceAt) -> Verdict:
    """§9.4.1: at one of the unit's entry hexes: a friendly Major supply source not blocked, not enemy-occupied,
    not in an EZOC; or, when none is, at one of the :func:`alternate_entries` (``alternate``); an independent unit
    assigned to a qualifying formation (:func:`_assignment_at_entry`). §9.4.2: stacking limits wait for the end of
    its free move (ruling ``stacking_at_entry``: or hold at the entry hex, §5.3.1)."""
    verdict = _may_act(state, seat, act.unit)
    if not verdict.ok:
        return verdict
    if act.entry not in _entries(state, act.unit):
        return deny("9.4.1", "not-entry", f"{act.entry} is not an entry hex of {act.unit}")
    verdict = _assignment_at_entry(state, act.unit, act.formation)
    if not verdict.ok:
        return verdict
    side: Side = "axis" if seat == "axis" else "cw"
    if isinstance(act, ReinforceAt):
        if act.hex not in alternate_entries(state, side, act.unit, act.formation):
            return deny("9.4.1", "alternate", f"{act.unit} may enter at {act.hex} only when no entry hex is available")
        there = act.hex
    else:
        there = _source_hex(state, act.entry)
        verdict = _closed(state, side, there, act.entry)
        if not verdict.ok:
            return verdict
    if not ruling(state, "stacking_at_entry"):
        return ALLOW  # §9.4.2: stacking is ignored until the free Movement Action ends (:mod:`.overstack`)
    pieces = [u for u, c in state.units.items() if c.hex == there] + [h for h, c in state.hqs.items() if c.hex == there]
    return stacking(state.pack, [*pieces, act.unit])


def reinforce(state: GazalaState, seat: str, act: Reinforce | ReinforceAt) -> Step[GazalaState]:
    alternate = isinstance(act, ReinforceAt)
    hex_id = act.hex if isinstance(act, ReinforceAt) else _source_hex(state, act.entry)
    state = _placed(state, act.unit, hex_id, act.formation)
    state = state.model_copy(update={"reinforced": (*state.reinforced, act.unit)})
    data: dict[str, object] = {"unit": act.unit, "dst": hex_id, "alternate": alternate}
    assigned = ""
    if act.formation is not None:
        data["formation"] = act.formation
        assigned = f", assigned to {piece_name(state.pack, act.formation)}"
    event = Event(
        kind="reinforcement_entered",
        seat=seat,
        rule="9.4",
        data=data,
        text=f"{piece_name(state.pack, act.unit)} enters at {hex_id}"
        + (" (no entry hex available)" if alternate else "")
        + assigned,
    )
    state = victory.occupy(state, "axis" if seat == "axis" else "cw", (hex_id,))
    moving = MoveState(units=(act.unit,), path=(hex_id,), supplied=True, reactable=False, reinforcement=True)
    return Step(state=push(state.model_copy(update={"move": moving}), Reinforcing(seat=seat)), events=(event,))


def next_reinforcement(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    """§9.4.2: after a reinforcement's free move, the next reinforcement (or the Ops Phase)."""
    return _reinforcement(state, events)


def postponements(state: GazalaState, seat: str) -> Iterator[Postpone]:
    for seat_side in admin_seat(state):
        side: Side = "axis" if seat_side == "axis" else "cw"
        for unit in _waiting(state, side):
            yield Postpone(unit=unit)


def can_postpone(state: GazalaState, seat: str, act: Postpone) -> Verdict:
    return _may_act(state, seat, act.unit)


def postpone(state: GazalaState, seat: str, act: Postpone) -> Step[GazalaState]:
    event = Event(kind="reinforcement_postponed", seat=seat, rule="9.4", data={"unit": act.unit})
    return _reinforcement(state.model_copy(update={"postponed": (*state.postponed, act.unit)}), (event,))
