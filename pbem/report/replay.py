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
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from pbem.errors import UsageError
from pbem.report import render
from pbem.report.chronicle import QUIET, Chronicle, Progress
from pbem.report.context import default_viewer, header, seal, viewer_label
from pbem.report.draw import el
from pbem.report.svg import MapRenderer, draw_face
from pbem.rules.contract import OBSERVER, OMNISCIENT, Event, GameState
from pbem.rules.presentation import CounterFace
from pbem.rules.records import event_locations

__all__ = ["page_viewers", "replay_page"]


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
        scores: list[list[Any]] = []
        if view is not None and self.renderer is not None:
            look = self.renderer.presentation
            scores = [[k, str(v)] for k, v in look.scores(view).items()] + [list(row) for row in look.status(view)]
        frame = {
            "units": units,
            "control": control,
            "markers": markers,
            "summary": view.summary if view else "",
            "scores": scores,
        }
        text = json.dumps(frame, sort_keys=True)
        index = self._index.setdefault(text, len(self.frames))
        if index == len(self.frames):
            self.frames.append(frame)
        self._by_state[key] = index
        return index


def page_viewers(chron: Chronicle, seat: str | None = None) -> list[str]:
    """The viewers a replay page holds pictures and story for: only those its writer may see.

    Once every secret is disclosed the whole game is public: everyone. A copy replayed with a player's key
    knows that seat's hidden values, so its page holds that seat's view and the public one, never
    everything (which would carry the writer's secrets for any reader) nor another seat's view. ``seat``
    narrows a copy that knows several seats' secrets to one. A copy with no key knows only public values.
    """
    seats = [p.seat for p in chron.players]
    if chron.report.audit == "complete":
        every = [OMNISCIENT, *seats, OBSERVER]
        return every if seat is None else [seat, OBSERVER]
    if seat is not None:
        return [seat, OBSERVER]
    if chron.knows:
        return [*(s for s in seats if s in chron.knows), OBSERVER]
    return [OMNISCIENT, *seats, OBSERVER]


def _seen(event: Event, viewers: list[str]) -> list[str] | None:
    """Who of the page's viewers may read ``event`` (None: everyone), or [] if none of them may."""
    if event.visible_to is None:
        return None
    return [v for v in viewers if v == OMNISCIENT or v in event.visible_to]


def replay_page(chron: Chronicle, *, seat: str | None = None, progress: Progress | None = None) -> bytes:
    """The replay page of ``chron`` as HTML bytes, holding only what ``page_viewers`` may see.

    Raises:
        UsageError: U006 when there is no game; U003 for an unknown ``seat``.
    """
    if chron.game is None:
        first = chron.report.first_error
        raise UsageError("U006", f"no game to replay: {first.render() if first else 'the log is empty'}")
    if seat is not None and seat not in (p.seat for p in chron.players):
        raise UsageError("U003", f"no such seat: {seat} (seats: {', '.join(p.seat for p in chron.players)})")
    presentation = chron.presentation
    renderer = None if presentation is None else MapRenderer(presentation)
    viewers = page_viewers(chron, seat)
    public = OBSERVER  # where counters stand and what moved is public in every game the renderer draws
    frames = _Frames(renderer)
    steps = []
    total = len(chron.moments)
    before: GameState | None = None
    for number, moment in enumerate(chron.moments, 1):
        stage = ""
        if moment.state is not None and presentation is not None:
            view = chron.view(moment, public)
            period = presentation.period_title(moment.period) if moment.period else ""
            stage = " · ".join(x for x in (period, presentation.stage(view) if view else "") if x)
        if moment.state is not None and moment.state.decks:  # shared decks: sizes and face-up cards, for all
            decks = [d.describe(name) for name, d in sorted(moment.state.decks.items())]
            stage = " · ".join(x for x in (stage, *decks) if x)
        lines = []
        for event in moment.events:
            if event.kind in QUIET or not event.text:
                continue
            seen_by = _seen(event, viewers)
            if seen_by == []:
                continue  # no viewer of this page may read it: it is not written into the file at all
            credited = moment.credit(event)
            who = chron.name_of(credited) if credited else ""
            lines.append([event.kind, who, chron.text_of(event), event.rule, seen_by])
        if moment.note:
            lines.append(["note", chron.name_of(moment.author), moment.note, None, None])
        action = _action(chron, renderer, before, moment.state, public)
        # one highlight serves every viewer of the page: only events everyone may read mark the map
        fought = [place for e in moment.events if e.visible_to is None for place in event_locations(e.data)]
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
                "highlight": sorted({*fought, *action.regions}),
                "moved": action.units,
                "arrows": action.arrows,
            }
        )
        before = moment.state if moment.state is not None else before
        if progress is not None:
            progress(number, total)
    board = _board(renderer, frames)
    script = render.environment().get_template("replay.js").render()
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    shown = default_viewer(chron)
    shown = shown if shown in viewers else viewers[0]
    data = {
        "viewers": [{"id": v, "label": viewer_label(chron, v)} for v in viewers],
        "viewer": shown,
        "steps": steps,
        "frames": frames.frames,
        "counter": renderer.style.counter if renderer is not None else 0,
    }
    document = render.html(
        "replay.html",
        header=header(chron, shown),
        seal=seal(chron),
        board=board,
        data=data,
        script=Markup(script),
        script_hash=digest,
    )
    return document.encode()


@dataclass(frozen=True)
class _Action:
    """What a line did on the map: the units that moved, the regions they left and entered, and arrows."""

    units: list[str]
    regions: list[str]
    arrows: list[list[Any]]


def _action(
    chron: Chronicle, renderer: MapRenderer | None, before: GameState | None, after: GameState | None, viewer: str
) -> _Action:
    if renderer is None or before is None or after is None or before is after:
        return _Action([], [], [])
    old, new = chron.view(None, viewer, state=before), chron.view(None, viewer, state=after)
    if old is None or new is None:
        return _Action([], [], [])
    units: list[str] = []
    regions: set[str] = set()
    arrows: list[list[Any]] = []
    for move in renderer.moves(old, new):
        units.append(move.unit)
        regions.update((move.start.location, move.end.location))
        tail, base, head = renderer.arrow_shape(move)
        stroke = renderer.style.arrow(move.side)
        points = [round(v, 1) for point in (tail, base, *head) for v in point]
        arrows.append([*points, stroke.color, stroke.width])
    return _Action(units, sorted(regions), arrows)


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
    el(root, "g", class_="arrows", id="arrows")  # beneath the counters, as in the reports
    el(root, "g", class_="units", id="units")
    el(root, "g", class_="markers", id="markers")
    renderer.legend(root, moves=True, combats=False)
    return Markup(ET.tostring(root, encoding="unicode"))
