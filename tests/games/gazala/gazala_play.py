"""Helpers for the Gazala rules tests: set a scenario up, act, roll chosen dice, place counters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.gazala.ruleset import RULESET
from pbem.games.gazala.state import Activation, GazalaState
from pbem.rules.contract import Event, Outcome, Roster, RosterSeat, Step, Verdict

SEATS = {"bir-hacheim": ("axis",), "opening-phase": ("axis", "cw"), "gazala-battles": ("axis", "cw")}
PACK = RULESET.load_data(RULESET.default_data())


def start(scenario: str, **options: Any) -> GazalaState:
    """A scenario set up; assignments are open (§5.5.2 markers: ``secret_assignments=True``) unless asked."""
    roster = Roster(seats=tuple(RosterSeat(seat=s, team=s) for s in SEATS[scenario]))
    return RULESET.setup(scenario, {"schwerpunkt": "21pz", "secret_assignments": False, **options}, roster, PACK)


def act(state: GazalaState, seat: str, action: dict[str, Any]) -> Step[GazalaState]:
    verdict = RULESET.contains(state, seat, RULESET.parse_action(action))
    assert verdict.ok, verdict
    return RULESET.apply(state, seat, RULESET.parse_action(action))


def refused(state: GazalaState, seat: str, action: dict[str, Any]) -> Verdict:
    verdict = RULESET.contains(state, seat, RULESET.parse_action(action))
    assert not verdict.ok, f"{action} is allowed"
    return verdict


def rolled(state: GazalaState, faces: Mapping[str, tuple[int, ...]]) -> Step[GazalaState]:
    """Resolve the first pending roll request with the given faces (by roll id), stopping at a SNAFU offer."""
    assert state.rolls is not None, "no roll is pending"
    assert {r.id for r in state.rolls.rolls} == set(faces), state.rolls
    return RULESET.resume(state.without_first_roll(), Outcome(dice=dict(faces)))


def roll(state: GazalaState, faces: Mapping[str, tuple[int, ...]]) -> Step[GazalaState]:
    """Resolve the first pending roll request with the given faces (by roll id); if the SNAFU holder is offered a
    re-roll (§5.2), it keeps the roll."""
    step = rolled(state, faces)
    if step.state.pending and step.state.pending[-1].kind == "snafu":
        kept = act(step.state, step.state.pending[-1].seat, {"action": "keep_roll"})
        return Step(state=kept.state, events=(*step.events, *kept.events))
    return step


def place(state: GazalaState, **hexes: str | None) -> GazalaState:
    """Counters moved by hand (``place(s, **{"vii-132": "2622"})``)."""
    units = dict(state.units)
    hqs = dict(state.hqs)
    for ident, hex_id in hexes.items():
        if ident in units:
            units[ident] = units[ident].model_copy(update={"hex": hex_id})
        else:
            hqs[ident] = hqs[ident].model_copy(update={"hex": hex_id})
    return state.model_copy(update={"units": units, "hqs": hqs})


def update(state: GazalaState, ident: str, **fields: Any) -> GazalaState:
    """A counter's fields changed by hand (``update(s, "ff-1", disrupted=True)``)."""
    if ident in state.units:
        return state.model_copy(update={"units": {**state.units, ident: state.units[ident].model_copy(update=fields)}})
    return state.model_copy(update={"hqs": {**state.hqs, ident: state.hqs[ident].model_copy(update=fields)}})


def active(state: GazalaState, formation: str, ap: int, **fields: Any) -> GazalaState:
    """``formation`` activated with ``ap`` Action Points (no dice)."""
    side = PACK.formation(formation).side
    activation = Activation(side=side, formation=formation, ap=ap, **fields)
    return state.model_copy(update={"phase": "activation", "activation": activation, "chooser": None})


def kinds(events: tuple[Event, ...]) -> list[str]:
    return [e.kind for e in events]
