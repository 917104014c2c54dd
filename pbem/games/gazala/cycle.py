"""The start of an Ops Cycle (§6.1): who has the initiative, and the Initiative Determination dice.

Shared by the Ops Phase (:mod:`.ops`, after each activation) and the Admin Phase (:mod:`.admin`, which ends by
starting the Ops Phase), so neither imports the other's flow.
"""

from __future__ import annotations

from pbem.games.gazala.board import other
from pbem.games.gazala.data import Side
from pbem.games.gazala.mapspec import side_name
from pbem.games.gazala.scenarios import only_formation
from pbem.games.gazala.state import DiceWait, GazalaState, Marker
from pbem.kit.machine import push
from pbem.rules.contract import Event, RollRequest, RollSpec, Step

__all__ = ["D10", "begin_ops_phase", "cycle", "d10", "initiative_won"]

D10 = 10
"""§3.9: every die is a d10 (0 reads as 10: the protocol's faces are 1..10)."""


def d10(ident: str, purpose: str, n: int = 1) -> RollRequest:
    """A public roll of ``n`` d10."""
    return RollRequest(rolls=(RollSpec(id=ident, sides=D10, n=n, purpose=purpose),))


def begin_ops_phase(state: GazalaState, events: tuple[Event, ...] = ()) -> Step[GazalaState]:
    """§6: a new Ops Phase: nobody has passed; the Initiative +DRM marker starts at 0 (§9)."""
    fresh = state.model_copy(
        update={"phase": "ops", "passed": (), "transferred": False, "marker": Marker(), "admin": None}
    )
    return cycle(fresh, events)


def cycle(state: GazalaState, events: tuple[Event, ...]) -> Step[GazalaState]:
    """§6.1, §6.2, §10: the next Ops Cycle's initiative. In a solitaire scenario the one side always has it (§10.1:
    "no sequence of play"); on the first cycle of GT1 the Axis has it automatically and the marker goes to the
    Commonwealth's +2; when one side has passed, the other has it without a roll; otherwise both roll."""
    pack = state.pack
    base = state.model_copy(update={"phase": "ops", "activation": None, "reaction": None, "move": None})
    base = base.model_copy(update={"transferred": False})
    if only_formation(pack, state.scenario) is not None:
        return Step(state=initiative_won(base, state.seats[0]), events=events)
    if base.first_cycle and base.turn == pack.scenario(state.scenario).first_turn:
        winner: Side = "axis" if pack.setting("gt1_first_initiative") == "axis" else "cw"
        marker_side: Side = "cw" if pack.setting("gt1_marker_side") == "cw" else "axis"
        marker = Marker(side=marker_side, space=1)
        event = Event(
            kind="initiative_given",
            seat=winner,
            rule="10",
            data={"side": winner, "marker": marker.model_dump()},
            text=f"the {side_name(winner)} has the first initiative of the scenario",
        )
        given = base.model_copy(update={"marker": marker, "first_cycle": False})
        return Step(state=initiative_won(given, winner), events=(*events, event))
    waiting = [s for s in ("axis", "cw") if s not in base.passed]
    if len(waiting) == 1:
        side: Side = "axis" if waiting[0] == "axis" else "cw"
        event = Event(
            kind="initiative_given",
            seat=side,
            rule="6.2",
            data={"side": side},
            text=f"the {side_name(other(side))} has passed: the {side_name(side)} has the initiative",
        )
        return Step(state=initiative_won(base, side), events=(*events, event))
    roll = RollRequest(
        rolls=(
            RollSpec(id="axis", sides=D10, n=1, purpose="§6.1 Axis initiative"),
            RollSpec(id="cw", sides=D10, n=1, purpose="§6.1 Commonwealth initiative"),
        )
    )
    wait = DiceWait(seat=state.seats[0], purpose="initiative")
    return Step(state=push(base, wait).with_rolls(roll), events=events)


def initiative_won(state: GazalaState, side: Side) -> GazalaState:
    """``side`` has the initiative and chooses to act, transfer or pass (§6.2)."""
    return state.model_copy(update={"initiative": side, "chooser": side, "phase": "ops"})
