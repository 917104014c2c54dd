"""What the report templates get: plain models built from a chronicle's views and events.

Templates never see a state, a log entry or a key: only these models. Text in them is untrusted (player
names, notes, data-pack names) and the templates autoescape it; the SVG figures are made by
:mod:`pbem.report.svg` and :mod:`pbem.report.charts` with ElementTree, which escapes as it serializes, so
they are passed as :class:`markupsafe.Markup`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup
from pydantic import BaseModel, ConfigDict

from pbem.report import charts
from pbem.report.chronicle import Chronicle, Moment
from pbem.report.svg import MapRenderer
from pbem.rules.contract import OBSERVER, OMNISCIENT, Event, View
from pbem.rules.presentation import Presentation

__all__ = [
    "AarContext",
    "CombatTable",
    "Header",
    "Line",
    "Seal",
    "TurnContext",
    "aar_context",
    "default_viewer",
    "turn_context",
    "viewer_label",
]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)


class PlayerRow(_Model):
    seat: str
    team: str
    role: str
    name: str
    fingerprint: str


class Header(_Model):
    """The game as its genesis describes it, and how it ended."""

    title: str
    game: str
    ruleset: str
    version: str
    scenario: str
    options: list[tuple[str, str]]
    data: str
    data_bundled: bool
    players: list[PlayerRow]
    started: str | None
    last: str | None
    result: str
    viewer: str


class Seal(_Model):
    """The verification seal: what was checked, and the first failure if any."""

    valid: bool
    lines: int
    entries: int
    heads: list[tuple[str, str]]
    state_hash: str | None
    audit: str
    checks: list[str]
    errors: list[str]
    claims: list[str]


class Term(_Model):
    label: str
    value: int
    rule: str


class CombatSide(_Model):
    role: str
    side: str
    units: list[str]
    lead: str
    terms: list[Term]
    dice: list[int]
    total: int


class Consequence(_Model):
    text: str
    rule: str | None


class CombatTable(_Model):
    line: int
    location: str
    result: str
    rule: str | None
    sides: list[CombatSide]
    consequences: list[Consequence]


class Line(_Model):
    """One line of narrative: an event, a player's note, or a combat (then ``combat`` is set)."""

    line: int
    kind: str
    who: str
    text: str
    rule: str | None = None
    combat: CombatTable | None = None


class Section(_Model):
    """A stage of a turn (an impulse, a phase) and what happened in it."""

    title: str
    anchor: str
    lines: list[Line]


class TurnContext(_Model):
    header: Header
    title: str
    period: str
    start_map: Markup | None
    end_map: Markup | None
    sections: list[Section]
    status: list[tuple[str, str]]
    scores: list[tuple[str, int]]
    seal: Seal


class TimelinePeriod(_Model):
    title: str
    anchor: str
    lines: list[Line]


class CasualtyRow(_Model):
    side: str
    kind: str
    steps: int
    eliminated: int


class AarContext(_Model):
    header: Header
    seal: Seal
    timeline: list[TimelinePeriod]
    score_chart: Markup | None
    loss_chart: Markup | None
    casualties: list[CasualtyRow]
    final_map: Markup | None
    combats: int


# --- shared pieces ---------------------------------------------------------------------------------------


def default_viewer(chron: Chronicle) -> str:
    """Everything once the game is over and fully disclosed; before that, only public information."""
    return OMNISCIENT if chron.report.audit == "complete" else OBSERVER


def viewer_label(chron: Chronicle, viewer: str) -> str:
    if viewer == OMNISCIENT:
        return "everything (full disclosure)" if chron.report.audit == "complete" else "everything this copy knows"
    if viewer == OBSERVER:
        return "an observer (public information only)"
    return chron.name_of(viewer)


def header(chron: Chronicle, viewer: str) -> Header:
    genesis = chron.genesis
    assert genesis is not None and chron.game is not None
    ruleset = chron.ruleset
    scenario = genesis.scenario
    if ruleset is not None:
        scenario = next((s.name for s in ruleset.scenarios if s.id == scenario), scenario)
    defaults = {o.id: o.default for o in ruleset.options} if ruleset is not None else {}
    options = [
        (k, f"{v}" + ("" if k in defaults and defaults[k] == v else " (not the default)"))
        for k, v in sorted(genesis.options.items())
    ]
    bundled = ruleset is not None and hashlib.sha256(ruleset.default_data()).hexdigest() == genesis.data
    stamps = [m.ts for m in chron.moments if m.ts is not None]
    return Header(
        title=genesis.title or (ruleset.name if ruleset is not None else genesis.ruleset),
        game=chron.game.id,
        ruleset=ruleset.name if ruleset is not None else genesis.ruleset,
        version=genesis.version,
        scenario=scenario,
        options=options,
        data=genesis.data,
        data_bundled=bundled,
        players=[PlayerRow(**p.__dict__) for p in chron.players],
        started=stamps[0] if stamps else None,
        last=stamps[-1] if stamps else None,
        result=result_text(chron),
        viewer=viewer_label(chron, viewer),
    )


def result_text(chron: Chronicle) -> str:
    result = chron.report.result
    if result is None:
        if not chron.report.valid:
            return "not established: the log does not verify"
        return "in play: " + "; ".join(chron.report.awaiting or ["nothing is awaited"])
    if not result.winners:
        return result.outcome
    return f"{result.outcome} (winner: {', '.join(chron.name_of(s) for s in result.winners)})"


def seal(chron: Chronicle) -> Seal:
    report, game = chron.report, chron.game
    checks = []
    if game is not None:
        entries = report.entries
        checks.append(f"{entries} entries: every Ed25519 signature verified, every hash link and sequence checked")
        if game.rules:
            rolls = len(game.rolls)
            checks.append(f"{rolls} dice rolls re-derived from the players' committed seeds")
            commitments = len(game.commitments)
            opened = sum(1 for e in game.events if e.event.kind == "hidden_opened")
            audit = {
                "complete": "after full disclosure every commitment was re-derived and matched",
                "pending": "the players have not all disclosed their secrets yet, so unopened values are unchecked",
            }.get(report.audit, "the game is not over, so unopened values are still secret")
            if commitments:
                checks.append(f"{commitments} commitments to hidden values, {opened} opened in play and matched")
                checks.append(audit)
            else:
                checks.append("no hidden information was committed in this game")
            actions = sum(len(m.actions) for m in chron.moments if not m.findings)
            checks.append(f"{actions} actions replayed and found legal by the rules engine")
            if report.final_checkpoints:
                checks.append("final state co-signed by every seat: " + ", ".join(report.final_checkpoints))
    errors = [f.render() for f in report.findings if f.severity == "error"]
    return Seal(
        valid=report.valid,
        lines=report.lines,
        entries=report.entries,
        heads=sorted(report.heads.items()),
        state_hash=report.state_hash,
        audit=report.audit,
        checks=checks,
        errors=errors,
        claims=report.claims,
    )


QUIET = frozenset({"checkpoint_final"})
"""Engine events that the verification seal covers and a story need not repeat."""


def _visible(event: Event, viewer: str) -> bool:
    if event.kind in QUIET:
        return False
    return viewer == OMNISCIENT or event.visible_to is None or viewer in event.visible_to


@dataclass
class _Names:
    """Unit and location names as a viewer knows them."""

    units: dict[str, str]
    places: MapRenderer | None

    def unit(self, unit: str) -> str:
        return self.units.get(unit, unit)

    def side(self, side: str) -> str:
        return _side_name(self.places.presentation if self.places is not None else None, side)

    def place(self, location: str) -> str:
        return location if self.places is None else self.places.name(location)


def narrate(
    chron: Chronicle, moments: Iterable[Moment], viewer: str, names: _Names, followups: frozenset[str]
) -> Iterator[tuple[Moment, Line]]:
    """The story of ``moments`` as ``viewer`` may read it, combats gathered into tables."""
    ruleset = chron.ruleset
    combat: CombatTable | None = None
    for moment in moments:
        who = chron.name_of(moment.author)
        told = False
        for event in moment.events:
            if not _visible(event, viewer):
                continue
            told = True
            if combat is not None and event.kind in followups:
                # the table was handed out already; its consequences fill in as the story goes on
                combat.consequences.append(Consequence(text=event.text, rule=event.rule))
                continue
            if event.kind != "dice_rolled":
                combat = None
            actor = chron.name_of(event.seat) if event.seat else ""
            if event.kind == "combat_resolved" and "sides" in event.data:
                combat = _combat(moment.line, event, names)
                yield moment, Line(line=moment.line, kind=event.kind, who=actor, text=event.text, combat=combat)
            elif event.text:
                yield moment, Line(line=moment.line, kind=event.kind, who=actor, text=event.text, rule=event.rule)
        if moment.type == "action" and not told and ruleset is not None:  # logged actions are public
            for action in moment.actions:
                yield moment, Line(line=moment.line, kind="action", who=who, text=ruleset.describe(action))
        if moment.note:
            yield moment, Line(line=moment.line, kind="note", who=who, text=moment.note)
        if moment.type == "resign":
            yield moment, Line(line=moment.line, kind="resigned", who=who, text=f"{who} resigns")


def _combat(line: int, event: Event, names: _Names) -> CombatTable:
    data: dict[str, Any] = event.data
    sides = []
    for side in data.get("sides", []):
        sides.append(
            CombatSide(
                role=str(side.get("role", "")),
                side=names.side(str(side.get("side", ""))),
                units=[names.unit(u) for u in side.get("units", [])],
                lead=names.unit(side["lead"]) if side.get("lead") else "",
                terms=[Term(label=str(t["label"]), value=int(t["value"]), rule=str(t["rule"])) for t in side["terms"]],
                dice=[int(d) for d in side.get("dice", [])],
                total=int(side.get("total", 0)),
            )
        )
    return CombatTable(
        line=line,
        location=names.place(str(data.get("location", ""))),
        result=str(data.get("result", "")).replace("_", " ").title(),
        rule=event.rule,
        sides=sides,
        consequences=[],
    )


def _names(view: View | None, renderer: MapRenderer | None) -> _Names:
    units = {u.id: u.name for u in view.units} if view is not None else {}
    return _Names(units, renderer)


def _renderer(presentation: Presentation | None) -> MapRenderer | None:
    return None if presentation is None else MapRenderer(presentation)


def _map(renderer: MapRenderer | None, view: View | None, title: str, highlight: Iterable[str] = ()) -> Markup | None:
    if renderer is None or view is None:
        return None
    return Markup(renderer.render(view, title=title, highlight=tuple(highlight)))


def _anchor(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-") or "section"


# --- turn report -----------------------------------------------------------------------------------------


def turn_context(chron: Chronicle, period: str, viewer: str) -> TurnContext:
    """A turn report: maps at the start and end, the turn told stage by stage, the position at its end."""
    presentation = chron.presentation
    renderer = _renderer(presentation)
    moments = chron.moments_of(period)
    start_view = chron.view(None, viewer, state=chron.state_before(period)) if moments else None
    end_view = chron.view(moments[-1], viewer) if moments else None
    title = presentation.period_title(period) if presentation is not None else period
    names = _names(end_view or start_view, renderer)
    followups = presentation.combat_followups if presentation is not None else frozenset()
    sections: list[Section] = []
    previous = dict(
        zip((m.line for m in moments), [chron.state_before(period), *(m.state for m in moments)], strict=False)
    )
    for moment, line in narrate(chron, moments, viewer, names, followups):
        before = chron.view(None, viewer, state=previous[moment.line])
        stage = presentation.stage(before) if presentation is not None and before is not None else ""
        stage = stage or title
        if not sections or sections[-1].title != stage:
            sections.append(Section(title=stage, anchor=_anchor(f"{period}-{stage}-{len(sections)}"), lines=[]))
        sections[-1].lines.append(line)
    combats = [ln.combat.location for s in sections for ln in s.lines if ln.combat is not None]
    status = presentation.status(end_view) if presentation is not None and end_view is not None else []
    scores = sorted(presentation.scores(end_view).items()) if presentation is not None and end_view else []
    return TurnContext(
        header=header(chron, viewer),
        title=title,
        period=period,
        start_map=_map(renderer, start_view, f"{title}: the start"),
        end_map=_map(renderer, end_view, f"{title}: the end", highlight=_locations(end_view, combats, renderer)),
        sections=sections,
        status=status,
        scores=scores,
        seal=seal(chron),
    )


def _locations(view: View | None, names: list[str], renderer: MapRenderer | None) -> list[str]:
    """Region ids of the named locations (combat sites are named in the tables)."""
    if renderer is None:
        return []
    wanted = set(names)
    return [r.id for r in renderer.spec.regions if renderer.name(r.id) in wanted]


# --- after-action report -----------------------------------------------------------------------------------


def aar_context(chron: Chronicle, viewer: str) -> AarContext:
    """The whole game: header, seal, timeline, charts, casualties and the final map."""
    presentation = chron.presentation
    renderer = _renderer(presentation)
    final = chron.final
    final_view = chron.view(final, viewer) if final is not None else None
    names = _names(final_view, renderer)
    followups = presentation.combat_followups if presentation is not None else frozenset()
    highlights = presentation.highlights if presentation is not None else frozenset({"game_over"})
    timeline = []
    combats = 0
    for period in chron.periods:
        title = presentation.period_title(period) if presentation is not None else period
        lines = []
        for _, line in narrate(chron, chron.moments_of(period), viewer, names, followups):
            combats += line.combat is not None
            if line.kind in highlights or line.kind in ("note", "resigned"):
                lines.append(line)
        if lines:  # a period with nothing worth a line (the set-up, the audit after the game) is left out
            timeline.append(TimelinePeriod(title=title, anchor=_anchor(period), lines=lines))
    losses = _losses(chron, viewer)
    titles = [presentation.period_title(p) if presentation is not None else p for p in chron.periods]
    score_chart = loss_chart = None
    if presentation is not None:
        series = _scores(chron, viewer, presentation)
        if series:
            score_chart = Markup(charts.line_chart(titles, series, title="Score at the end of each turn"))
        sides = sorted({side for side, _ in losses.by_period})
        if sides:
            colours = {s: presentation.style.sides[s].control for s in sides if s in presentation.style.sides}
            bars = {
                _side_name(presentation, s): [losses.by_period.get((s, p), 0) for p in chron.periods] for s in sides
            }
            loss_chart = Markup(
                charts.bar_chart(
                    titles,
                    bars,
                    colours={_side_name(presentation, s): c for s, c in colours.items()},
                    title="Steps lost in each turn",
                )
            )
    casualties = [
        CasualtyRow(side=_side_name(presentation, side), kind=kind or "unit", steps=steps, eliminated=gone)
        for (side, kind), (steps, gone) in sorted(losses.by_kind.items())
    ]
    return AarContext(
        header=header(chron, viewer),
        seal=seal(chron),
        timeline=timeline,
        score_chart=score_chart,
        loss_chart=loss_chart,
        casualties=casualties,
        final_map=_map(renderer, final_view, "The final position"),
        combats=combats,
    )


def _side_name(presentation: Presentation | None, side: str) -> str:
    if presentation is not None and side in presentation.style.sides:
        return presentation.style.sides[side].name
    return side


@dataclass
class _Losses:
    by_period: dict[tuple[str, str], int]  # (side, period) → steps lost
    by_kind: dict[tuple[str, str], tuple[int, int]]  # (side, unit kind) → (steps lost, units eliminated)


def _losses(chron: Chronicle, viewer: str) -> _Losses:
    """Losses as the viewer can see them: every drop in a unit's steps from one moment to the next."""
    by_period: dict[tuple[str, str], int] = {}
    by_kind: dict[tuple[str, str], tuple[int, int]] = {}
    before: dict[str, tuple[int | None, str | None]] = {}
    last_state = None
    for moment in chron.moments:
        if moment.state is None or moment.state is last_state:
            continue
        last_state = moment.state
        view = chron.view(moment, viewer)
        assert view is not None
        for unit in view.units:
            old = before.get(unit.id)
            before[unit.id] = (unit.steps, unit.location)
            if old is None or old[0] is None or unit.steps is None or moment.period is None:
                continue
            lost = old[0] - unit.steps
            if lost <= 0:
                continue
            by_period[(unit.side, moment.period)] = by_period.get((unit.side, moment.period), 0) + lost
            steps, gone = by_kind.get((unit.side, unit.kind), (0, 0))
            by_kind[(unit.side, unit.kind)] = (steps + lost, gone + (unit.location is None and old[1] is not None))
    return _Losses(by_period, by_kind)


def _scores(chron: Chronicle, viewer: str, presentation: Presentation) -> dict[str, list[int]]:
    """Each charted number at the end of every period."""
    series: dict[str, list[int]] = {}
    for index, period in enumerate(chron.periods):
        moments = chron.moments_of(period)
        view = chron.view(moments[-1], viewer) if moments else None
        for name, value in (presentation.scores(view) if view is not None else {}).items():
            series.setdefault(name, [0] * index).append(value)
    length = len(chron.periods)
    return {name: values + [values[-1]] * (length - len(values)) for name, values in series.items()}
