"""What the report templates get: plain models built from a chronicle's views and events.

Templates never see a state, a log entry or a key: only these models. Text in them is untrusted (player
names, notes, data-pack names) and the templates autoescape it; the SVG figures are made by
:mod:`pbem.report.svg` and :mod:`pbem.report.charts` with ElementTree, which escapes as it serializes, so
they are passed as :class:`markupsafe.Markup`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup
from pydantic import BaseModel, ConfigDict

from pbem.report import charts
from pbem.report.chronicle import QUIET, Chronicle, Moment
from pbem.report.story import Fight, Paragraph, lookup_text, losses_in_words, tell, told, visible
from pbem.report.svg import Box, MapRenderer
from pbem.rules.contract import OBSERVER, OMNISCIENT, Event, OptionSpec, View
from pbem.rules.presentation import LossUnit, Presentation, period_title
from pbem.rules.records import CombatRecord, Fire, combat_record, event_locations

__all__ = [
    "PRINT_WIDTH_MM",
    "QUIET",
    "AarContext",
    "CombatTable",
    "Header",
    "Line",
    "Seal",
    "Turn",
    "TurnContext",
    "aar_context",
    "default_viewer",
    "option_row",
    "turn_context",
    "turns_of",
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


class OptionRow(_Model):
    """A game option in words: ``Escarpments block movement``, ``yes``, ``rule 9.3.2``; ``standard``: the
    game's default."""

    label: str
    value: str
    rule: str
    standard: bool


class Header(_Model):
    """The game as its genesis describes it, and how it ended."""

    title: str
    game: str
    ruleset: str
    version: str
    scenario: str
    options: list[OptionRow]
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


class FireRow(_Model):
    """One unit's or one group of pieces' fire: ``3 infantry``, its dice, what it needed and its hits."""

    who: str
    dice: list[int]
    needs: int | None
    hits: int


class StepRow(_Model):
    """A volley of a round: who fired, under which rule, each firer's dice and hits, any table read."""

    label: str
    side: str
    rule: str | None
    fire: list[FireRow]
    lookup: str
    hits: int


class RoundRow(_Model):
    number: int
    steps: list[StepRow]


class Consequence(_Model):
    text: str
    rule: str | None


class CombatTable(_Model):
    line: int
    location: str
    result: str
    rule: str | None
    sides: list[CombatSide]
    rounds: list[RoundRow]
    lookup: str
    hits: list[str]
    losses: list[str]
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


class CasualtyRow(_Model):
    side: str
    kind: str
    steps: int
    eliminated: int


# --- shared pieces ---------------------------------------------------------------------------------------

PRINT_WIDTH_MM = 176.0
"""The printed width of a full-width figure: A4 less the page margins of ``report.css`` (17 mm each side)."""
TURN_MAP_MM = 80.0
"""The height a turn's map may take when its counters stay legible smaller: two fit a page with a heading."""
SUMMARY_MAP_MM = 120.0


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
    specs = {o.id: o for o in ruleset.options} if ruleset is not None else {}
    order = {k: i for i, k in enumerate(specs)}  # the rulebook's order, as the game lists its options
    chosen = sorted(genesis.options.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))
    options = [option_row(k, v, specs.get(k)) for k, v in chosen]
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


RULE_REFERENCE = re.compile(r"^(?:(ruling|rule|rules|§)\s*)?([A-Z]?\d[\w.]*)\s*:\s*(.+)$", re.I | re.S)


QUOTED_CHOICE = re.compile(r"'([a-z][a-z0-9_]*)'")
"""A choice's value quoted in an option's description (``'single_step'``), shown in words like the setting."""


def option_row(option: str, value: Any, spec: OptionSpec | None) -> OptionRow:
    """An option in plain words from its description (``"9.3.2: escarpments block movement"`` →
    ``Escarpments block movement: yes (rule 9.3.2)``); an option the game does not describe keeps its id."""
    described = spec.description if spec is not None else option.replace("_", " ")
    found = RULE_REFERENCE.match(described)
    rule = ""
    if found:
        kind, number, described = found.groups()
        rule = f"{'ruling' if (kind or '').lower() == 'ruling' else 'rule'} {number}"
    described = QUOTED_CHOICE.sub(lambda m: "“" + m.group(1).replace("_", " ") + "”", described)
    label = described[0].upper() + described[1:] if described else option
    return OptionRow(
        label=label,
        value=_in_words(value),
        rule=rule,
        standard=spec is not None and spec.default == value,
    )


def _in_words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value.replace("_", " ")
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return ", ".join(_in_words(v) for v in value) or "none"
    return str(value)


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
            if not visible(event, viewer):
                continue
            told = True
            if combat is not None and event.kind in followups:
                # the table was handed out already; its consequences fill in as the story goes on
                combat.consequences.append(Consequence(text=event.text, rule=event.rule))
                continue
            if event.kind != "dice_rolled":
                combat = None
            credited = moment.credit(event)
            actor = chron.name_of(credited) if credited else ""
            record = combat_record(event)
            text = chron.text_of(event)
            if record is not None:
                combat = _combat(moment.line, event, record, names)
                yield moment, Line(line=moment.line, kind=event.kind, who=actor, text=text, combat=combat)
            elif event.text:
                yield moment, Line(line=moment.line, kind=event.kind, who=actor, text=text, rule=event.rule)
        if moment.type == "action" and not told and ruleset is not None:  # logged actions are public
            for action in moment.actions:
                yield moment, Line(line=moment.line, kind="action", who=who, text=ruleset.describe(action))
        if moment.note:
            yield moment, Line(line=moment.line, kind="note", who=who, text=moment.note)
        if moment.type == "resign":
            yield moment, Line(line=moment.line, kind="resigned", who=who, text=f"{who} resigns")


def _combat(line: int, event: Event, record: CombatRecord, names: _Names) -> CombatTable:
    sides = [
        CombatSide(
            role=side.role,
            side=names.side(side.side),
            units=[names.unit(u) for u in side.units],
            lead=names.unit(side.lead) if side.lead else "",
            terms=[Term(label=t.label, value=t.value, rule=t.rule) for t in side.terms],
            dice=list(side.dice),
            total=side.total,
        )
        for side in record.sides
    ]
    rounds = [
        RoundRow(
            number=r.number,
            steps=[
                StepRow(
                    label=step.label,
                    side=names.side(step.side),
                    rule=step.rule,
                    fire=[
                        FireRow(who=_firer(f, names), dice=list(f.dice), needs=f.needs, hits=f.hits) for f in step.fire
                    ],
                    lookup=lookup_text(step.lookup) if step.lookup is not None else "",
                    hits=step.hits,
                )
                for step in r.steps
            ],
        )
        for r in record.rounds
    ]
    return CombatTable(
        line=line,
        location=names.place(record.location),
        result=record.result.replace("_", " ").title(),
        rule=event.rule,
        sides=sides,
        rounds=rounds,
        lookup=lookup_text(record.lookup) if record.lookup is not None else "",
        hits=[f"{names.side(h.side)} scored {_count(h.count, h.kind.removesuffix('s'))}" for h in record.hits],
        losses=[f"{names.side(side)}: {text}" for side, text in losses_in_words(record, names.unit)],
        consequences=[],
    )


def _firer(fire: Fire, names: _Names) -> str:
    kind = fire.kind.replace("_", " ")
    if fire.unit:
        return names.unit(fire.unit)
    return f"{fire.count} {kind}" if fire.count != 1 else kind


def _names(view: View | None, renderer: MapRenderer | None) -> _Names:
    units = {u.id: u.name for u in view.units} if view is not None else {}
    return _Names(units, renderer)


def _renderer(presentation: Presentation | None) -> MapRenderer | None:
    """The renderer for printed documents: counters never shrink below legible type."""
    return None if presentation is None else MapRenderer(presentation, min_scale=1.0)


def _map(
    renderer: MapRenderer | None,
    view: View | None,
    title: str,
    highlight: Iterable[str] = (),
    before: View | None = None,
    view_box: Box | None = None,
) -> Markup | None:
    """A full-width printed map with its legend; with ``before``, arrows for the units that moved since;
    with ``view_box``, only that part of the board."""
    if renderer is None or view is None:
        return None
    moves = renderer.moves(before, view) if before is not None else []
    return Markup(renderer.render(view, title=title, highlight=tuple(highlight), moves=moves, legend=True,
                                  width_mm=renderer.print_width(PRINT_WIDTH_MM, TURN_MAP_MM, view_box),
                                  view_box=view_box))  # fmt: skip


def _turn_box(renderer: MapRenderer | None, start: View | None, end: View | None, places: list[str]) -> Box | None:
    """The part of the board a turn's maps show, for a game whose presentation asks for it (``crop_turn_maps``):
    around the places its events name and where the units that moved stood and stand (every unit would span
    the whole board); None (the whole board) otherwise, or when nothing happened."""
    if renderer is None or not renderer.presentation.crop_turn_maps:
        return None
    moved = renderer.moves(start, end) if start is not None and end is not None else []
    return renderer.view_box([*places, *(p.location for m in moved for p in (m.start, m.end))])


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
    title = _title(presentation, period)
    names = _names(end_view or start_view, renderer)
    followups = presentation.combat_followups if presentation is not None else frozenset()
    sections: list[Section] = []
    previous = dict(
        zip((m.line for m in moments), [chron.state_before(period), *(m.state for m in moments)], strict=False)
    )
    opened_in = None  # the line in which an event opened the stage that line ends in (stage_openers)
    for moment, line in narrate(chron, moments, viewer, names, followups):
        if presentation is not None and line.kind in presentation.stage_openers:
            # within its period only: a stage of the next period (a new turn that is a new period) is its own
            opened_in = moment.line if chron.period_after(moment) == period else opened_in
        # a line's events belong to the stage it was made in, those from an opener on to the stage it opened
        state = moment.state if opened_in == moment.line else previous[moment.line]
        before = chron.view(None, viewer, state=state)
        stage = presentation.stage(before) if presentation is not None and before is not None else ""
        stage = stage or title
        if not sections or sections[-1].title != stage:
            sections.append(Section(title=stage, anchor=_anchor(f"{period}-{stage}-{len(sections)}"), lines=[]))
        sections[-1].lines.append(line)
    places = [p for m in moments for e in m.events if visible(e, viewer) for p in event_locations(e.data)]
    box = _turn_box(renderer, start_view, end_view, places)
    status = presentation.status(end_view) if presentation is not None and end_view is not None else []
    scores = sorted(presentation.scores(end_view).items()) if presentation is not None and end_view else []
    return TurnContext(
        header=header(chron, viewer),
        title=title,
        period=period,
        start_map=_map(renderer, start_view, f"{title}: the start", view_box=box),
        end_map=_map(
            renderer,
            end_view,
            f"{title}: the end",
            highlight=_regions(places, renderer),
            before=start_view,
            view_box=box,
        ),
        sections=sections,
        status=status,
        scores=scores,
        seal=seal(chron),
    )


def _regions(locations: list[str], renderer: MapRenderer | None) -> list[str]:
    """The map's regions among ``locations`` (events name locations by id: ``data.location(s)``), in map order."""
    if renderer is None:
        return []
    wanted = set(locations)
    return [r.id for r in renderer.spec.regions if r.id in wanted]


# --- after-action report -----------------------------------------------------------------------------------


class LossRow(_Model):
    side: str
    steps: int
    eliminated: int


class TurningPoint(_Model):
    title: str
    anchor: str
    text: str


class Summary(_Model):
    """The first page: how it ended, the final map, the charts, the losses and the turn that decided it."""

    final_map: Markup | None
    score_chart: Markup | None
    loss_chart: Markup | None
    losses: list[LossRow]
    turning_point: TurningPoint | None
    changed_options: list[OptionRow]


SHORT_STORY = 600
"""A turn told in fewer characters goes above its maps, so that it does not trail onto a page of its own."""


class TurnSection(_Model):
    title: str
    anchor: str
    short: bool
    overview: list[str]
    start_map: Markup | None
    end_map: Markup | None
    paragraphs: list[Paragraph]
    fights: list[Fight]


class AarContext(_Model):
    header: Header
    seal: Seal
    summary: Summary
    turns: list[TurnSection]
    casualties: list[CasualtyRow]
    combats: int
    loss_unit: LossUnit
    """What the losses count, in the game's words (:attr:`Presentation.loss_unit`)."""


class Turn(_Model):
    """A turn a story tells: the period it is named after (``main``) and every period it covers, in order."""

    main: str
    periods: list[str]


def turns_of(chron: Chronicle, viewer: str) -> list[Turn]:
    """The periods grouped into the turns a story tells: each eventful period (:func:`_eventful`) is a turn of
    its own, named after it; a quiet period before the first eventful one joins it, any other quiet period joins
    the turn before (set-up without a word to tell, the audit after the game)."""
    periods = chron.periods
    if not periods:
        return []
    eventful = [p for p in periods if _eventful(chron, p, viewer)]
    if not eventful:
        return [Turn(main=_quiet_main(periods), periods=periods)]
    turns: list[Turn] = []
    pending: list[str] = []
    for period in periods:
        pending.append(period)
        if period in eventful:
            turns.append(Turn(main=period, periods=pending))
            pending = []
    if pending:
        last = turns[-1]
        turns[-1] = Turn(main=last.main, periods=[*last.periods, *pending])
    return turns


def _quiet_main(periods: list[str]) -> str:
    """The period a game where nothing eventful happened is named after: not the set-up or the audit."""
    return next((p for p in periods if p not in ("setup", "end")), periods[0])


def _eventful(chron: Chronicle, period: str, viewer: str) -> bool:
    """Whether ``period`` has something of its own to tell ``viewer``: a combat, a unit that moved, an event the
    story tells (:func:`~pbem.report.story.told`), or a resignation. A player's note alone does not make a turn:
    it is quoted in the turn it falls in."""
    moments = chron.moments_of(period)
    if any(e.kind == "combat_resolved" for m in moments for e in m.events):
        return True
    if any(m.type == "resign" or any(told(chron.presentation, e, viewer) for e in m.events) for m in moments):
        return True
    start = chron.view(None, viewer, state=chron.state_before(period))
    end = chron.view(moments[-1], viewer) if moments else None
    if start is None or end is None:
        return False
    then = {u.id: u.location for u in start.units}
    return any(then.get(u.id) not in (None, u.location) and u.location is not None for u in end.units)


def aar_context(chron: Chronicle, viewer: str) -> AarContext:
    """The whole game as a player would post it: a one-page summary, then each turn told with its maps."""
    presentation = chron.presentation
    renderer = None if presentation is None else MapRenderer(presentation, min_scale=1.0)
    final = chron.final
    final_view = chron.view(final, viewer) if final is not None else None
    turns_told = turns_of(chron, viewer)
    groups = [turn.periods for turn in turns_told]
    titles = [_title(presentation, turn.main) for turn in turns_told]
    turns: list[TurnSection] = []
    losses = _losses(chron, viewer)
    series = _scores_by_group(chron, viewer, presentation, groups) if presentation is not None else {}
    start = _scores_at_start(chron, viewer, presentation, groups)
    fights = 1
    width = renderer.print_width(PRINT_WIDTH_MM, TURN_MAP_MM) if renderer is not None else PRINT_WIDTH_MM
    for group, title, main in zip(groups, titles, (t.main for t in turns_told), strict=True):
        anchor = _anchor(main)
        moments = [m for m in chron.moments if m.period in group]
        # as its main period begins: a quiet set-up folded into the first turn has placed its units by then
        start_state = chron.state_before(main)
        start_view = chron.view(None, viewer, state=start_state) if start_state is not None else None
        end_view = chron.view(moments[-1], viewer) if moments else None
        paragraphs: list[Paragraph] = []
        turn_fights: list[Fight] = []
        start_map = end_map = None
        story, sites = tell(chron, group, viewer, renderer, fights)
        paragraphs, turn_fights = story.paragraphs, story.fights
        fights += len(turn_fights)
        if renderer is not None:
            places = [p for m in moments for e in m.events if visible(e, viewer) for p in event_locations(e.data)]
            box = _turn_box(renderer, start_view, end_view, places)
            wide = width if box is None else renderer.print_width(PRINT_WIDTH_MM, TURN_MAP_MM, box)
            if start_view is not None:
                start_map = Markup(renderer.render(start_view, title=f"{title}: the start", legend=True,
                                                   width_mm=wide, view_box=box))  # fmt: skip
            if end_view is not None:
                moves = renderer.moves(start_view, end_view) if start_view is not None else []
                end_map = Markup(renderer.render(end_view, title=f"{title}: the end", moves=moves, combats=sites,
                                                 legend=True, width_mm=wide, view_box=box))  # fmt: skip
        overview = _overview(chron, presentation, group, turn_fights, losses, series, start, groups.index(group))
        told = sum(len(p.text) + sum(len(x) for x in p.sentences) for p in paragraphs)
        turns.append(TurnSection(title=title, anchor=anchor, short=told < SHORT_STORY, overview=overview,
                                 start_map=start_map,
                                 end_map=end_map, paragraphs=paragraphs, fights=turn_fights))  # fmt: skip
    head = header(chron, viewer)
    summary = Summary(
        final_map=None
        if renderer is None or final_view is None
        else Markup(
            renderer.render(
                final_view,
                title="The final position",
                legend=True,
                width_mm=renderer.print_width(PRINT_WIDTH_MM, SUMMARY_MAP_MM),
            )
        ),
        score_chart=Markup(charts.line_chart(titles, series, title="Score at the end of each turn"))
        if series
        else None,
        loss_chart=_loss_chart(presentation, groups, titles, losses),
        losses=_loss_rows(presentation, losses),
        turning_point=_turning_point(series, start, turns),
        changed_options=[o for o in head.options if not o.standard],
    )
    casualties = [
        CasualtyRow(side=_side_name(presentation, side), kind=kind or "unit", steps=steps, eliminated=gone)
        for (side, kind), (steps, gone) in sorted(losses.by_kind.items())
    ]
    return AarContext(header=head, seal=seal(chron), summary=summary, turns=turns, casualties=casualties,
                      combats=fights - 1, loss_unit=_loss_unit(presentation))  # fmt: skip


def _title(presentation: Presentation | None, period: str) -> str:
    return presentation.period_title(period) if presentation is not None else period_title(period)


def _scores_by_group(
    chron: Chronicle, viewer: str, presentation: Presentation, groups: list[list[str]]
) -> dict[str, list[int]]:
    """Each charted number at the end of every turn."""
    series: dict[str, list[int]] = {}
    for index, group in enumerate(groups):
        moments = [m for m in chron.moments if m.period in group]
        view = chron.view(moments[-1], viewer) if moments else None
        for name, value in (presentation.scores(view) if view is not None else {}).items():
            series.setdefault(name, [0] * index).append(value)
    return {name: values + [values[-1]] * (len(groups) - len(values)) for name, values in series.items()}


def _scores_at_start(
    chron: Chronicle, viewer: str, presentation: Presentation | None, groups: list[list[str]]
) -> dict[str, int]:
    """Each charted number as the game began (before the first turn), which the first turn's change is
    measured from: a score that starts at 13 has not swung by 13 in round 1."""
    if presentation is None or not groups:
        return {}
    state = chron.state_before(groups[0][0])
    view = chron.view(None, viewer, state=state) if state is not None else None
    return presentation.scores(view) if view is not None else {}


def _overview(
    chron: Chronicle,
    presentation: Presentation | None,
    group: list[str],
    fights: list[Fight],
    losses: _Losses,
    series: dict[str, list[int]],
    start: dict[str, int],
    index: int,
) -> list[str]:
    """The turn in a few sentences: its combats and who won them, the losses, the scores."""
    said = []
    if fights:
        won: dict[str, int] = {}
        for fight in fights:
            won[fight.winner_name] = won.get(fight.winner_name, 0) + 1
        parts = [f"{name} won {count}" for name, count in sorted(won.items()) if name]
        if won.get(""):
            parts.append(f"{won['']} ended with no winner")
        said.append(f"{_count(len(fights), 'combat')}: {', '.join(parts)}.")
    lost: dict[str, int] = {}
    for (side, period), steps in losses.by_period.items():
        if period in group:
            lost[side] = lost.get(side, 0) + steps
    if lost:
        unit = _loss_unit(presentation)
        parts = [f"{_side_name(presentation, side)} {unit.count(steps)}" for side, steps in sorted(lost.items())]
        said.append(f"Losses: {', '.join(parts)}.")
    for name, values in sorted(series.items()):
        before = values[index - 1] if index > 0 else start.get(name, 0)
        after = values[index]
        change = after - before
        said.append(f"{name}: {before} to {after} ({change:+d})." if change else f"{name}: {after}, unchanged.")
    return said


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _turning_point(
    series: dict[str, list[int]], start: dict[str, int], turns: list[TurnSection]
) -> TurningPoint | None:
    """The turn with the largest swing of the first charted score (the earliest, if several tie), each turn
    measured from the one before and the first from the score as the game began (``start``; 0 if unknown)."""
    if not series or not turns:
        return None
    name = sorted(series)[0]
    values = series[name]
    swings = [values[i] - (values[i - 1] if i else start.get(name, 0)) for i in range(len(values))]
    best = max(range(len(swings)), key=lambda i: (abs(swings[i]), -i))
    if swings[best] == 0:
        return None
    turn = turns[best]
    before = values[best - 1] if best else start.get(name, 0)
    text = f"{name} went from {before} to {values[best]} ({swings[best]:+d}), the largest swing of the game."
    return TurningPoint(title=turn.title, anchor=turn.anchor, text=text)


def _loss_rows(presentation: Presentation | None, losses: _Losses) -> list[LossRow]:
    by_side: dict[str, tuple[int, int]] = {}
    for (side, _kind), (steps, gone) in losses.by_kind.items():
        had = by_side.get(side, (0, 0))
        by_side[side] = (had[0] + steps, had[1] + gone)
    sides = list(presentation.style.sides) if presentation is not None else sorted(by_side)
    return [
        LossRow(side=_side_name(presentation, s), steps=by_side.get(s, (0, 0))[0], eliminated=by_side.get(s, (0, 0))[1])
        for s in sides
    ]


def _loss_chart(
    presentation: Presentation | None, groups: list[list[str]], titles: list[str], losses: _Losses
) -> Markup | None:
    if presentation is None:
        return None
    sides = sorted({side for side, _ in losses.by_period})
    if not sides:
        return None
    colours = {_side_name(presentation, s): presentation.style.sides[s].control for s in sides
               if s in presentation.style.sides}  # fmt: skip
    bars = {
        _side_name(presentation, s): [sum(losses.by_period.get((s, p), 0) for p in group) for group in groups]
        for s in sides
    }
    title = f"{presentation.loss_unit.plural.capitalize()} lost in each turn"
    return Markup(charts.bar_chart(titles, bars, colours=colours, title=title))


def _loss_unit(presentation: Presentation | None) -> LossUnit:
    return presentation.loss_unit if presentation is not None else LossUnit()


def _side_name(presentation: Presentation | None, side: str) -> str:
    if presentation is not None and side in presentation.style.sides:
        return presentation.style.sides[side].name
    return side


@dataclass
class _Losses:
    by_period: dict[tuple[str, str], int]  # (side, period) → steps lost
    by_kind: dict[tuple[str, str], tuple[int, int]]  # (side, unit kind) → (steps lost, units eliminated)


def _piece_losses(chron: Chronicle, viewer: str) -> _Losses | None:
    """Losses of a game whose combat records count interchangeable pieces (Axis & Allies' stacks), read from
    those records: a stack that shrinks may only have moved. None for a game whose records name their units."""
    by_period: dict[tuple[str, str], int] = {}
    by_kind: dict[tuple[str, str], tuple[int, int]] = {}
    counted = False
    for moment in chron.moments:
        for event in moment.events:
            record = combat_record(event) if visible(event, viewer) and moment.period is not None else None
            for loss in record.losses if record is not None else ():
                if loss.unit is not None:
                    return None
                counted = True
                period = str(moment.period)
                by_period[(loss.side, period)] = by_period.get((loss.side, period), 0) + loss.pieces
                steps, gone = by_kind.get((loss.side, loss.kind), (0, 0))
                by_kind[(loss.side, loss.kind)] = (steps + loss.pieces, gone + loss.pieces * loss.eliminated)
    return _Losses(by_period, by_kind) if counted else None


def _losses(chron: Chronicle, viewer: str) -> _Losses:
    """Losses as the viewer can see them: every drop in a unit's steps from one moment to the next (or, for a
    game of interchangeable pieces, the pieces its combat records lose: :func:`_piece_losses`)."""
    pieces = _piece_losses(chron, viewer)
    if pieces is not None:
        return pieces
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
