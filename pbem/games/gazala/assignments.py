"""Secret assignment of independent units with Dummy markers (§5.5.2; notes §7.2 M3), option ``secret_assignments``.

"Players should record any Assignment secretly by placing its Assigned marker on the corresponding Formation box.
Dummy markers may be placed at this time as well." In its Organisation Segment (§9.2) a side places markers face
down (``place_marker``): the box is public, so everybody counts the markers each box received; what a marker is (an
independent unit, or ``"dummy"``) is a secret field committed in a slot of its own, ``marker/<side>/<turn>/<n>``.

Formation membership matters from the Replacement Segment on (replacements, reinforcements, then the Ops Phase's
command states, activations, support, Reactions and VP In Command status, notes §7.2 M3), and the rules give no
challenge procedure (ruling B27: the reveal is automatic), so when both sides have organised every marker of the
segment is opened at once. The real ones then take effect in the order placed; dummies are set aside.

Legality: the box, and that the side still has a marker to place, are public and checked at once. What the marker is
is checked by the owner's own replay at once (its client refuses an illegal marker) and by everybody at the opening,
against the same position: the open assignment rule of :mod:`.admin` (§5.5.2) with the side's
earlier markers of the segment in effect, one marker per unit, no more Dummy markers than the counter sheet holds
(read from the pack). An illegal marker found at the opening has no effect and is recorded as a
:class:`~pbem.games.gazala.state.Violation` naming its slot and seat (:mod:`.audit`); the verifier that knows every
disclosed secret refuses the entry that placed it (R001).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from pbem.games.gazala.actions import Assign, PlaceMarker
from pbem.games.gazala.data import GazalaPack, Side
from pbem.games.gazala.mapspec import piece_name, side_name
from pbem.games.gazala.state import GazalaState, MarkerPlaced, Violation
from pbem.rules.contract import ALLOW, Event, Verdict, deny

__all__ = [
    "DUMMY",
    "OPTION",
    "AssignmentCheck",
    "box_verdict",
    "identity_verdict",
    "legal_markers",
    "marker_verdict",
    "open_markers",
    "place",
    "reveal",
    "secret",
    "slot_of",
]

OPTION = "secret_assignments"
DUMMY = "dummy"
"""The value of a Dummy marker's slot."""

AssignmentCheck = Callable[[GazalaState, Side, Assign], Verdict]
"""The open assignment rule (§5.5.2): may this unit join that formation now?"""


def secret(state: GazalaState) -> bool:
    """Whether the game records assignments secretly (the option; the rules' way, §5.5.2)."""
    return state.options.get(OPTION) is True


def dummy_limit(pack: GazalaPack) -> int:
    """How many Dummy markers a side may place in one Organisation Segment: the counter sheet's (the pack's)."""
    return next(m.count for m in pack.markers if m.id == DUMMY)


def slot_of(state: GazalaState, side: str) -> str:
    """The slot of the next marker ``side`` places: public, numbered by the side's markers of the segment."""
    placed = sum(1 for m in state.markers if m.side == side)
    return f"marker/{side}/{state.turn}/{placed}"


def _independents(state: GazalaState, side: Side) -> list[str]:
    """The side's independent units without a white stripe on the map: each has one Assigned marker."""
    return [
        record.id
        for record in state.pack.units
        if record.side == side
        and record.independent == "assignable"
        and (counter := state.units.get(record.id)) is not None
        and counter.hex is not None
    ]


def box_verdict(state: GazalaState, side: Side, formation: str) -> Verdict:
    """The public part of a placement: a box of one of the side's formations in play, and a marker left to place
    (one per assignable independent on the map, plus the Dummy markers)."""
    if formation not in state.formations or state.pack.formation(formation).side != side:
        return deny("5.5.2", "box", f"{formation} is not a formation box of {side}")
    placed = sum(1 for m in state.markers if m.side == side)
    independents = len(_independents(state, side))
    if not independents:  # with no independent to hide, a Dummy marker would hide nothing
        return deny("5.5.2", "no-marker", f"{side} has no independent unit without a white stripe on the map")
    if placed >= independents + dummy_limit(state.pack):
        return deny("5.5.2", "no-marker", f"{side} has placed every marker it holds this segment")
    return ALLOW


def identity_verdict(
    state: GazalaState,
    side: Side,
    formation: str,
    unit: object,
    earlier: Sequence[tuple[str, str]],
    check: AssignmentCheck,
) -> Verdict:
    """What the marker is, given the side's ``earlier`` markers of the segment, (box, identity), in effect."""
    return _identity(state, _with(state, earlier), side, formation, unit, earlier, check)


def _identity(
    state: GazalaState,
    joined: GazalaState,
    side: Side,
    formation: str,
    unit: object,
    earlier: Sequence[tuple[str, str]],
    check: AssignmentCheck,
) -> Verdict:
    """:func:`identity_verdict` with ``joined``, the state with the earlier markers in effect, made once."""
    if unit == DUMMY:
        if sum(1 for _, u in earlier if u == DUMMY) >= dummy_limit(state.pack):
            return deny("5.5.2", "no-dummy", f"{side} has no Dummy marker left")
        return ALLOW
    if not isinstance(unit, str) or unit not in state.units:
        return deny("5.5.2", "not-assignable", f"{unit!r} is neither a unit nor a Dummy marker")
    if any(u == unit for _, u in earlier):
        return deny("5.5.2", "one-marker", f"{unit} has one Assigned marker, placed already this segment")
    return check(joined, side, Assign(unit=unit, formation=formation))


def _with(state: GazalaState, earlier: Sequence[tuple[str, str]]) -> GazalaState:
    """``state`` with the real markers of ``earlier`` in effect."""
    real = [(f, u) for f, u in earlier if u != DUMMY and u in state.units]
    if not real:
        return state
    units = dict(state.units)
    for formation, unit in real:
        units[unit] = units[unit].model_copy(update={"assigned": formation})
    return state.model_copy(update={"units": units})


def _known_earlier(state: GazalaState, side: Side) -> list[tuple[str, str]]:
    """The side's markers of the segment whose identity the replaying party can read (all of them for the owner)."""
    found = []
    for marker in state.markers:
        slot = state.hidden.get(marker.slot)
        if marker.side == side and slot is not None and slot.known and isinstance(slot.value, str):
            found.append((marker.formation, slot.value))
    return found


def marker_verdict(state: GazalaState, side: Side, act: PlaceMarker, check: AssignmentCheck) -> Verdict:
    """A placement: the public part always; what the marker is when the replaying party can see it (the action's
    field for its owner, or the slot the engine filled before applying it), else at the opening."""
    verdict = box_verdict(state, side, act.formation)
    if not verdict.ok:
        return verdict
    unit: object = act.unit
    if unit is None:
        slot = state.hidden.get(slot_of(state, side))
        if slot is None or not slot.known:
            return ALLOW  # unseen: checked when the markers are opened, and at audit
        unit = slot.value
    return identity_verdict(state, side, act.formation, unit, _known_earlier(state, side), check)


def legal_markers(state: GazalaState, side: Side, check: AssignmentCheck) -> Iterator[PlaceMarker]:
    earlier = _known_earlier(state, side)
    joined = _with(state, earlier)
    for formation in state.formations:
        if not box_verdict(state, side, formation).ok:
            continue
        for unit in (DUMMY, *_independents(state, side)):
            if _identity(state, joined, side, formation, unit, earlier, check).ok:
                yield PlaceMarker(formation=formation, unit=unit)


def place(state: GazalaState, side: Side, formation: str) -> tuple[GazalaState, Event]:
    """Record the marker (its identity is in its slot already, for whoever can read it)."""
    marker = MarkerPlaced(slot=slot_of(state, side), side=side, formation=formation)
    state = state.model_copy(update={"markers": (*state.markers, marker)})
    count = sum(1 for m in state.markers if m.side == side and m.formation == formation)
    event = Event(
        kind="marker_placed",
        seat=side,
        rule="5.5.2",
        data={"formation": formation, "slot": marker.slot, "in_box": count},
        text=f"the {side_name(side)} places a marker in the {piece_name(state.pack, formation)} box "
        f"({count} this segment)",
    )
    return state, event


def _told(pack: GazalaPack, value: object) -> str:
    """What an opened marker holds, as players read it (an illegal value as it was placed)."""
    if value == DUMMY:
        return "a Dummy marker"
    return piece_name(pack, value) if isinstance(value, str) else str(value)


def open_markers(state: GazalaState) -> GazalaState:
    """The Organisation Segment is over: its owners open every marker before membership matters (notes §7.2 M3)."""
    state = state.model_copy(update={"admin": "markers"})
    return state.with_opening(*(m.slot for m in state.markers))


def reveal(state: GazalaState, check: AssignmentCheck) -> tuple[GazalaState, list[Event]]:
    """The markers opened: each judged in the order placed (illegal ones recorded and set aside), the real ones
    assigned, the slots (now public) dropped."""
    accepted: dict[str, list[tuple[str, str]]] = {}
    events: list[Event] = []
    violations = list(state.violations)
    for marker in state.markers:
        value = state.hidden[marker.slot].value
        earlier = accepted.setdefault(marker.side, [])
        verdict = identity_verdict(state, marker.side, marker.formation, value, earlier, check)
        events.append(
            Event(
                kind="marker_revealed",
                seat=marker.side,
                rule="5.5.2",
                data={"formation": marker.formation, "unit": value, "slot": marker.slot, "legal": verdict.ok},
                text=f"the {piece_name(state.pack, marker.formation)} marker {marker.slot} is "
                f"{_told(state.pack, value)}",
            )
        )
        if not verdict.ok or not isinstance(value, str):
            violations.append(
                Violation(
                    seat=marker.side,
                    slot=marker.slot,
                    turn=state.turn,
                    rule=verdict.rule or "5.5.2",
                    reason=verdict.reason or "illegal",
                    message=verdict.message,
                )
            )
            continue
        earlier.append((marker.formation, value))
    units = dict(state.units)
    for side_markers in accepted.values():
        for formation, unit in side_markers:
            if unit == DUMMY:
                continue
            events.append(
                Event(
                    kind="unit_assigned",
                    seat=state.pack.unit(unit).side,
                    rule="5.5.2",
                    data={"unit": unit, "formation": formation, "from": units[unit].assigned},
                    text=f"{piece_name(state.pack, unit)} is assigned to {piece_name(state.pack, formation)}",
                )
            )
            units[unit] = units[unit].model_copy(update={"assigned": formation})
    opened = {m.slot for m in state.markers}
    hidden = {name: slot for name, slot in state.hidden.items() if name not in opened}
    update = {"units": units, "markers": (), "violations": tuple(violations), "hidden": hidden}
    return state.model_copy(update=update), events
