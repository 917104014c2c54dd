"""How Gazala looks in reports and replays: the hex map from the pack (terrain, Minefields and Boxes, Ridges, Wadis,
the sea, roads and trails), NATO counters with their values and formation colours, and the markers (Improved
Defence, Breached Minefields, Supply Blocked, the active formation), each side's zone of control for a map that
shows it on request (§5.4), and in the status the Assigned and Dummy markers of the Organisation Segment under way
(§5.5.2).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, ClassVar, Literal

from pbem.games.gazala import assignments, mapspec
from pbem.games.gazala.board import Position, situation
from pbem.games.gazala.combat import parse_result
from pbem.games.gazala.data import GazalaPack
from pbem.kit.hexes import HexId
from pbem.rules.contract import Event, View
from pbem.rules.presentation import CombatOutcome, LookModule, MapspecLook, Marker, Presentation

__all__ = ["ACT_MARKERS", "GazalaLook"]

ACT_MARKERS = ("ACT-1", "ACT-2", "NO-ACT")
"""§3.5, §6.4: the Independent Activation markers, by the number of activations made."""


class GazalaLook(MapspecLook):
    """The map, counters and style are :mod:`pbem.games.gazala.mapspec`'s; markers, stages and scores are here."""

    crop_turn_maps = True  # the whole battlefield would print its counters ~8 px: a turn's maps show its fighting

    look: ClassVar[LookModule] = mapspec

    combat_followups = Presentation.combat_followups | {
        "combat_modifiers",
        "effectiveness_checks",
        "hits_distributed",
        "strength_lost",
        "displaced",
        "hq_displaced",
    }
    """The chits, shifts, DRMs and die (:mod:`.battle`), the ECs, the hit distribution and its losses, retreats and
    displacements are told under their combat."""

    def combat_outcome(self, data: Mapping[str, Any], followups: Sequence[Event]) -> CombatOutcome:
        """§7.5.3: the side with fewer CRT hits wins, unless all its participating units were eliminated.

        The hits are read from the CRT cell every ``combat_resolved`` carries (``result``, e.g. ``"1/2!"``), not
        from the game's own keys beside it, so a report tells the winner whatever else the event carries."""
        cell = str(data.get("result", ""))
        hits = parse_result(cell) if "/" in cell else None
        role: Literal["attack", "defense"] | None = None
        if hits is not None and hits.attacker != hits.defender:
            role = "attack" if hits.attacker < hits.defender else "defense"
        gone = {str(e.data.get("unit")) for e in followups if e.kind == "unit_eliminated"}
        side = next((s for s in data.get("sides", []) if s.get("role") == role), None)
        if side is not None and side.get("units") and set(side["units"]) <= gone:
            role = None
        return CombatOutcome(result=cell, winner=role)

    def markers(self, view: View) -> tuple[Marker, ...]:
        found: list[Marker] = _activation_markers(view)
        for hex_id in view.facts.get("improved", ()):
            found.append(Marker(location=hex_id, text="Improved Defence"))
        for hex_id in view.facts.get("breached", ()):
            found.append(Marker(location=hex_id, text="Breached"))
        for hex_id in view.facts.get("blocked", ()):
            found.append(Marker(location=hex_id, text="Supply Blocked"))
        return tuple(found)

    def zones(self, view: View) -> Mapping[str, Collection[str]]:
        """§5.4: each side's zone of control as the view shows the map: the combat units the viewer sees (their
        Disrupted side included) and the Breached markers, through the rules' own :func:`~.board.zone_of_control`
        (HQs, German FLAK and KG Hecker project none; never across Ridges and Wadis nor into an enemy unbreached
        Minefield). A unit the view does not name projects nothing the viewer can know of."""
        known = situation(self.data, _position(self.data, view))
        return {side: sorted(zone) for side, zone in known.zones.items() if zone}

    def stage(self, view: View) -> str:
        phase = view.facts.get("phase")
        return {"ops": "Ops Phase", "activation": "Ops Phase", "admin": "Admin Phase"}.get(str(phase), "")

    def period_title(self, period: str) -> str:
        return period.replace("turn-", "Game Turn ") if period.startswith("turn-") else super().period_title(period)

    def scores(self, view: View) -> dict[str, int]:
        vp = view.facts.get("axis_vp")
        return {"Axis VP": vp} if isinstance(vp, int) else {}

    def status(self, view: View) -> list[tuple[str, str]]:
        lines: list[tuple[str, str]] = []
        levels = view.facts.get("levels", {})
        if isinstance(levels, dict):
            named = sorted((mapspec.piece_name(self.data, f), n) for f, n in levels.items())
            lines.append(("Activation levels", ", ".join(f"{name} {n}" for name, n in named)))
        lines.extend(_marker_lines(self.data, view))
        return lines


def _position(pack: GazalaPack, view: View) -> Position:
    """The board position of the units a view shows on the map (combat units only: an HQ projects no ZOC)."""
    units = {
        u.id: HexId(u.location)
        for u in view.units
        if u.location is not None and not u.hidden and pack.find_unit(u.id) is not None
    }
    disrupted = frozenset(u.id for u in view.units if u.id in units and u.extra.get("disrupted") is True)
    breached = frozenset(HexId(h) for h in view.facts.get("breached", ()) if isinstance(h, str))
    return Position(units=units, disrupted=disrupted, breached=breached)


def _marker_lines(pack: GazalaPack, view: View) -> list[tuple[str, str]]:
    """§5.5.2: the markers placed this Organisation Segment, by box (what they are only for their owner), and any
    illegal secret choice found when its slot was opened."""
    lines: list[tuple[str, str]] = []
    boxes = view.facts.get("markers", {})
    if isinstance(boxes, dict):
        for side, counts in sorted(boxes.items()):
            shown = ", ".join(f"{mapspec.piece_name(pack, box)} {n}" for box, n in sorted(counts.items()))
            lines.append((f"Assigned markers ({mapspec.side_name(side)})", shown))
    mine = view.facts.get("my_markers", [])
    if isinstance(mine, list) and mine:
        named = (f"{_marker_name(pack, m['unit'])} in {mapspec.piece_name(pack, m['formation'])}" for m in mine)
        lines.append(("Your markers", ", ".join(named)))
    for found in view.facts.get("violations", []):
        lines.append(("Illegal secret choice", f"{found['seat']}, {found['slot']}: {found['message']}"))
    return lines


def _marker_name(pack: GazalaPack, unit: str) -> str:
    """§5.5.2: an Assigned marker's unit by name, or a Dummy marker."""
    return "a Dummy marker" if unit == assignments.DUMMY else mapspec.piece_name(pack, unit)


def _activation_markers(view: View) -> list[Marker]:
    """§3.5: the Activated Formation marker on the active formation's HQ (or the activated independent unit), and
    each unassigned independent unit's Independent Activation marker (§6.4: ACT-1, ACT-2, NO-ACT)."""
    where = {u.id: u.location for u in view.units if u.location is not None}
    found: list[Marker] = []
    active = view.facts.get("active")
    if isinstance(active, dict):
        piece = active.get("hq") or active.get("unit")
        if isinstance(piece, str) and piece in where:
            found.append(
                Marker(location=where[piece], text=f"Activated: {active.get('name', piece)}", side=active.get("side"))
            )
    acts = view.facts.get("acts", {})
    if isinstance(acts, dict):
        for unit, count in sorted(acts.items()):
            if unit in where and isinstance(count, int) and count > 0:
                found.append(Marker(location=where[unit], text=ACT_MARKERS[min(count, len(ACT_MARKERS)) - 1]))
    return found
