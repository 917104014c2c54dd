"""The Actions of §7 other than movement and combat: Breach Minefield (§7.4), Refit (§7.6), Improved Defence (§7.7).

Each pays its AP from the pack's ``cost_*`` rows (§7); none is open to Out of Command or Isolated units (§5.8.3,
§5.8.4: they may only move and make Hasty Attacks), and only Refit to Disrupted ones (§5.6.3).
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.games.gazala.actions import Breach, Improve, Refit
from pbem.games.gazala.mapspec import piece_name, side_name
from pbem.games.gazala.minefields import breach, breach_drm, can_breach
from pbem.games.gazala.ops import action_cost, affordable, after_action, member, side_of_seat, spend
from pbem.games.gazala.paths import command, in_command
from pbem.games.gazala.rulings import ruling
from pbem.games.gazala.state import DiceWait, GazalaState, sit_of
from pbem.kit.hexes import HexId
from pbem.kit.machine import pop, push, top
from pbem.rules.contract import ALLOW, Event, Outcome, RollRequest, RollSpec, Step, Verdict, deny

__all__ = ["breached", "refitted"]


def _no_move(state: GazalaState) -> Verdict:
    if state.move is not None:
        return deny("7.3", "moving", "finish the Movement Action first")
    return ALLOW


def _without_marker(state: GazalaState, hex_id: str | None) -> GazalaState:
    """§7.7: a unit in an Improved Defence hex takes an Action: the marker goes."""
    return state.model_copy(update={"improved": tuple(h for h in state.improved if h != hex_id)})


# --- Breach Minefield (§7.4) --------------------------------------------------------------------------------------


def breaches(state: GazalaState, seat: str) -> Iterator[Breach]:
    for unit in sorted(state.units):
        if member(state, unit):
            yield Breach(unit=unit)


def can_breach_action(state: GazalaState, seat: str, act: Breach) -> Verdict:
    """§7.4: an infantry-type unit of the active formation, undisrupted and In Command, in an unbreached enemy
    Minefield hex; ``cost_breach`` AP."""
    verdict = _no_move(state)
    if not verdict.ok:
        return verdict
    if act.unit not in state.units or not member(state, act.unit):
        return deny("7.4", "not-active", f"{act.unit} is not a unit of the active formation on the map")
    sit = sit_of(state)
    verdict = can_breach(sit, act.unit, command=in_command(sit, act.unit))
    if not verdict.ok:
        return verdict
    return affordable(state, action_cost(state, "cost_breach", [act.unit], doubles=False))


def breach_attempt(state: GazalaState, seat: str, act: Breach) -> Step[GazalaState]:
    """§7.4: pay the AP and roll with the DRMs of :func:`~.minefields.breach_drm`."""
    sit = sit_of(state)
    acting = state.acting
    assert acting is not None
    drm = breach_drm(sit, act.unit, in_command=True, schwerpunkt=acting.schwerpunkt)
    hex_id = state.units[act.unit].hex
    state = _without_marker(spend(state, action_cost(state, "cost_breach", [act.unit], doubles=False)), hex_id)
    wait = DiceWait(seat=seat, purpose="breach", units=(act.unit,), hex=hex_id, drms=(drm.value,))
    roll = RollRequest(rolls=(RollSpec(id="breach", sides=10, n=1, purpose=f"§7.4 breach attempt in {hex_id}"),))
    event = Event(
        kind="breach_attempted",
        seat=side_of_seat(seat),
        rule="7.4",
        data={"unit": act.unit, "hex": hex_id, "drm": drm.model_dump(mode="json")},
        text=f"{piece_name(state.pack, act.unit)} attempts to breach the Minefield in {hex_id} "
        f"({drm.describe() or 'no DRM'})",
    )
    return Step(state=push(state, wait).with_rolls(roll), events=(event,))


def breached(state: GazalaState, outcome: Outcome) -> Step[GazalaState]:
    """§7.4: the Minefield Breach table's row for the hex type: on success the hex is breached for good."""
    wait = top(state, DiceWait)
    assert outcome.dice is not None and wait.hex is not None
    state = pop(state)
    die = outcome.dice["breach"][0]
    found = breach(sit_of(state), HexId(wait.hex), die, wait.drms[0]).result
    if found == "success":
        state = state.model_copy(update={"breached": (*state.breached, wait.hex)})
    breacher = state.pack.unit(wait.units[0])
    event = Event(
        kind="minefield_breached" if found == "success" else "breach_failed",
        seat=breacher.side,
        rule="7.4",
        data={"hex": wait.hex, "die": die, "drm": wait.drms[0], "result": found},
        text=f"{breacher.name} ({side_name(breacher.side)}) rolls {die}{wait.drms[0]:+d} to breach {wait.hex}: "
        + ("breached" if found == "success" else "no effect"),
    )
    return after_action(state, (event,))


# --- Refit (§7.6) ------------------------------------------------------------------------------------------------


def refits(state: GazalaState, seat: str) -> Iterator[Refit]:
    for unit in sorted(state.units):
        if member(state, unit) and state.units[unit].disrupted:
            yield Refit(unit=unit)


def can_refit(state: GazalaState, seat: str, act: Refit) -> Verdict:
    """§7.6: a Disrupted unit of the active formation, within Command Range (§7.1; not Isolated, §5.6.3)."""
    verdict = _no_move(state)
    if not verdict.ok:
        return verdict
    counter = state.units.get(act.unit)
    if counter is None or not member(state, act.unit):
        return deny("7.6", "not-active", f"{act.unit} is not a unit of the active formation on the map")
    if not counter.disrupted:
        return deny("7.6", "not-disrupted", f"{act.unit} is not Disrupted")
    verdict = in_command(sit_of(state), act.unit)
    if not verdict.ok:
        return verdict
    return affordable(state, action_cost(state, "cost_refit", [act.unit], doubles=False))


def refit(state: GazalaState, seat: str, act: Refit) -> Step[GazalaState]:
    state = spend(state, action_cost(state, "cost_refit", [act.unit], doubles=False))
    state = _without_marker(state, state.units[act.unit].hex)
    wait = DiceWait(seat=seat, purpose="refit", units=(act.unit,))
    roll = RollRequest(rolls=(RollSpec(id="ec", sides=10, n=1, purpose=f"§7.6 refit of {act.unit}"),))
    return Step(state=push(state, wait).with_rolls(roll))


def refitted(state: GazalaState, outcome: Outcome) -> Step[GazalaState]:
    """§7.6, §5.6.1: an Effectiveness Check against the current (Disrupted-side) rating: pass, undisrupted; fail,
    nothing else happens."""
    wait = top(state, DiceWait)
    assert outcome.dice is not None
    state = pop(state)
    unit = wait.units[0]
    die = outcome.dice["ec"][0]
    eff = state.pack.unit(unit).eff.disrupted
    passed = die <= eff
    if passed:
        state = state.model_copy(
            update={"units": {**state.units, unit: state.units[unit].model_copy(update={"disrupted": False})}}
        )
    record = state.pack.unit(unit)
    event = Event(
        kind="refitted" if passed else "refit_failed",
        seat=record.side,
        rule="7.6",
        data={"unit": unit, "die": die, "eff": eff},
        text=f"{record.name} ({side_name(record.side)}) rolls {die} against {eff}: "
        + ("refitted" if passed else "still Disrupted"),
    )
    return after_action(state, (event,))


# --- Improved Defence (§7.7) ---------------------------------------------------------------------------------------


def improvements(state: GazalaState, seat: str) -> Iterator[Improve]:
    hexes = sorted({c.hex for u, c in state.units.items() if c.hex is not None and member(state, u)})
    for hex_id in hexes:
        yield Improve(hex=hex_id)


def can_improve(state: GazalaState, seat: str, act: Improve) -> Verdict:
    """§7.7: a stack of undisrupted combat units all of the active formation (ruling B26: no other formation's unit
    in the hex), In Command (§5.8.3), not already improved, not in an unbreached friendly Minefield."""
    verdict = _no_move(state)
    if not verdict.ok:
        return verdict
    here = [u for u, c in state.units.items() if c.hex == act.hex]
    if ruling(state, "improved_defence_mixed"):  # notes B26: the active formation's units improve a shared hex
        here = [u for u in here if member(state, u)]
    if not here or not all(member(state, u) for u in here):
        return deny("7.7", "not-own-stack", f"{act.hex} does not hold a stack of the active formation only")
    if any(state.units[u].disrupted for u in here):
        return deny("7.7", "disrupted", "every unit of the stack must be undisrupted")
    sit = sit_of(state)
    for unit in here:
        if command(sit, unit).state != "in-command":
            return in_command(sit, unit)
    if act.hex in state.improved:
        return deny("7.7", "already", f"{act.hex} has an Improved Defence marker")
    mine = sit.board.mines.get(HexId(act.hex))
    side = state.pack.unit(here[0]).side
    if mine is not None and mine.owner == side and HexId(act.hex) not in sit.position.breached:
        return deny("7.7", "friendly-minefield", "not in an unbreached friendly Minefield")
    return affordable(state, action_cost(state, "cost_improved_defence", here, doubles=False))


def improve(state: GazalaState, seat: str, act: Improve) -> Step[GazalaState]:
    here = [u for u, c in state.units.items() if c.hex == act.hex]
    state = spend(state, action_cost(state, "cost_improved_defence", here, doubles=False))
    state = state.model_copy(update={"improved": (*state.improved, act.hex)})
    event = Event(
        kind="defence_improved",
        seat=side_of_seat(seat),
        rule="7.7",
        data={"hex": act.hex},
        text=f"the stack in {act.hex} improves its defence",
    )
    return after_action(state, (event,))
