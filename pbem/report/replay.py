"""The offline replay page: one self-contained HTML file that steps through a game entry by entry.

Python does all the game work: for every line and every viewer it lays out the counters (as the reports do)
and tells the story; the page's small script only moves prepared counters (``<use>`` of one ``<symbol>`` per
counter face) and swaps text in with ``textContent``. The page loads nothing from the network, and its
Content Security Policy allows only its own script, by hash, so text from a log can never run as code.
"""

from __future__ import annotations

import base64
import hashlib
import json
import xml.etree.ElementTree as ET
from typing import Any

from markupsafe import Markup

from pbem.errors import UsageError
from pbem.report import render
from pbem.report.chronicle import Chronicle, Progress
from pbem.report.context import QUIET, default_viewer, header, seal, viewer_label
from pbem.report.draw import el
from pbem.report.svg import MapRenderer, draw_face
from pbem.rules.contract import OBSERVER, OMNISCIENT, GameState
from pbem.rules.presentation import CounterFace

__all__ = ["replay_page"]


class _Frames:
    """Distinct map pictures (counter placements and control), numbered as first seen."""

    def __init__(self, renderer: MapRenderer | None):
        self.renderer = renderer
        self.faces: dict[CounterFace, int] = {}
        self.frames: list[dict[str, Any]] = []
        self._index: dict[str, int] = {}
        self._by_state: dict[tuple[int, str], int] = {}

    def frame(self, chron: Chronicle, state: GameState | None, viewer: str) -> int:
        key = (id(state), viewer)
        if key in self._by_state:
            return self._by_state[key]
        view = chron.view(None, viewer, state=state)
        units: list[list[Any]] = []
        control: dict[str, str] = {}
        if view is not None and self.renderer is not None:
            style = self.renderer.style
            for p in self.renderer.placements(view):
                face = self.faces.setdefault(p.face, len(self.faces))
                units.append([p.unit, face, round(p.x, 1), round(p.y, 1), p.name, int(p.face.concealed), p.scale])
            for region, side in self.renderer.presentation.control(view).items():
                if side in style.sides:
                    control[region] = style.sides[side].control
        markers = []
        if view is not None and self.renderer is not None:
            markers = [[m.text, m.colour, round(m.x, 1), round(m.y, 1), round(m.width, 1)] for m in
                       self.renderer.marker_boxes(view)]  # fmt: skip
        frame = {"units": units, "control": control, "markers": markers, "summary": view.summary if view else ""}
        text = json.dumps(frame, sort_keys=True)
        index = self._index.setdefault(text, len(self.frames))
        if index == len(self.frames):
            self.frames.append(frame)
        self._by_state[key] = index
        return index


def replay_page(chron: Chronicle, *, progress: Progress | None = None) -> bytes:
    """The replay page of ``chron`` as HTML bytes."""
    if chron.game is None:
        first = chron.report.first_error
        raise UsageError("U006", f"no game to replay: {first.render() if first else 'the log is empty'}")
    presentation = chron.presentation
    renderer = None if presentation is None else MapRenderer(presentation)
    viewers = [OMNISCIENT, *(p.seat for p in chron.players), OBSERVER]
    frames = _Frames(renderer)
    steps = []
    total = len(chron.moments)
    for number, moment in enumerate(chron.moments, 1):
        stage = ""
        if moment.state is not None and presentation is not None:
            view = chron.view(moment, OMNISCIENT)
            period = presentation.period_title(moment.period) if moment.period else ""
            stage = " · ".join(x for x in (period, presentation.stage(view) if view else "") if x)
        lines = []
        for event in moment.events:
            if event.kind in QUIET or not event.text:
                continue
            credited = moment.credit(event)
            who = chron.name_of(credited) if credited else ""
            seen_by = list(event.visible_to) if event.visible_to is not None else None
            lines.append([event.kind, who, event.text, event.rule, seen_by])
        if moment.note:
            lines.append(["note", chron.name_of(moment.author), moment.note, None, None])
        highlight = [
            str(e.data["location"]) for e in moment.events if e.kind == "combat_resolved" and "location" in e.data
        ]
        steps.append(
            {
                "line": moment.line,
                "type": moment.type,
                "who": chron.name_of(moment.author) if moment.author else "",
                "ts": moment.ts or "",
                "stage": stage,
                "lines": lines,
                "error": moment.findings[0].render() if moment.findings else None,
                "frame": {v: frames.frame(chron, moment.state, v) for v in viewers},
                "highlight": highlight,
            }
        )
        if progress is not None:
            progress(number, total)
    board = _board(renderer, frames)
    script = render.environment().get_template("replay.js").render()
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    data = {
        "viewers": [{"id": v, "label": viewer_label(chron, v)} for v in viewers],
        "viewer": default_viewer(chron),
        "steps": steps,
        "frames": frames.frames,
        "counter": renderer.style.counter if renderer is not None else 0,
    }
    document = render.html(
        "replay.html",
        header=header(chron, default_viewer(chron)),
        seal=seal(chron),
        board=board,
        data=data,
        script=Markup(script),
        script_hash=digest,
    )
    return document.encode()


def _board(renderer: MapRenderer | None, frames: _Frames) -> Markup | None:
    """The board with a control marker on every region, one ``<symbol>`` per counter face, and an empty
    layer the script fills."""
    if renderer is None:
        return None
    root = renderer.board(title="Replay map", css_class="map replay-map", every_control=True)
    defs = ET.Element("defs")
    root.insert(1, defs)
    size = renderer.style.counter
    for face, index in frames.faces.items():
        symbol = el(defs, "symbol", id=f"face-{index}", viewBox=f"-1 -1 {size * 1.1 + 2} {size * 1.12 + 2}")
        symbol.set("width", str(round(size * 1.1 + 2, 1)))
        symbol.set("height", str(round(size * 1.12 + 2, 1)))
        draw_face(symbol, face, renderer.style)
    el(root, "g", class_="units", id="units")
    el(root, "g", class_="markers", id="markers")
    return Markup(ET.tostring(root, encoding="unicode"))
