"""How Gazala looks in reports and replays: the hex map from the pack (terrain, Minefields and Boxes, Ridges, Wadis,
the sea, roads and trails), NATO counters with their values and formation colours, and the markers (Improved
Defence, Breached Minefields, Supply Blocked, the active formation), and in the status the Assigned and Dummy
markers of the Organisation Segment under way (§5.5.2).
"""

from __future__ import annotations

from pbem.games.gazala import mapspec
from pbem.games.gazala.data import GazalaPack
from pbem.rules.contract import UnitView, View
from pbem.rules.maps import MapSpec
from pbem.rules.presentation import CounterFace, Marker, Presentation

__all__ = ["GazalaLook"]


class GazalaLook(Presentation):
    """The map, counters and style are :mod:`pbem.games.gazala.mapspec`'s; markers, stages and scores are here."""

    def __init__(self, data: GazalaPack):
        super().__init__(data)
        self.style = mapspec.map_style(data)

    def map_spec(self) -> MapSpec:
        return mapspec.map_spec(self.data)

    def face(self, unit: UnitView) -> CounterFace:
        return mapspec.face(self.data, unit)

    def markers(self, view: View) -> tuple[Marker, ...]:
        found: list[Marker] = []
        for hex_id in view.facts.get("improved", ()):
            found.append(Marker(location=hex_id, text="Improved Defence"))
        for hex_id in view.facts.get("breached", ()):
            found.append(Marker(location=hex_id, text="Breached"))
        for hex_id in view.facts.get("blocked", ()):
            found.append(Marker(location=hex_id, text="Supply Blocked"))
        return tuple(found)

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
            lines.append(("Activation levels", ", ".join(f"{f} {n}" for f, n in sorted(levels.items()))))
        lines.extend(_marker_lines(view))
        return lines


def _marker_lines(view: View) -> list[tuple[str, str]]:
    """§5.5.2: the markers placed this Organisation Segment, by box (what they are only for their owner), and any
    illegal secret choice found when its slot was opened."""
    lines: list[tuple[str, str]] = []
    boxes = view.facts.get("markers", {})
    if isinstance(boxes, dict):
        for side, counts in sorted(boxes.items()):
            shown = ", ".join(f"{box} {n}" for box, n in sorted(counts.items()))
            lines.append((f"Assigned markers ({side})", shown))
    mine = view.facts.get("my_markers", [])
    if isinstance(mine, list) and mine:
        lines.append(("Your markers", ", ".join(f"{m['unit']} in {m['formation']}" for m in mine)))
    for found in view.facts.get("violations", []):
        lines.append(("Illegal secret choice", f"{found['seat']}, {found['slot']}: {found['message']}"))
    return lines
