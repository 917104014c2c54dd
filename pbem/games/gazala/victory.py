"""Victory (§10): objectives and their last occupants, VPs at each End of Turn Phase, Automatic Victory, the final
score and its victory level, and Strength Point losses (which several VP rows count).

Rulings (design notes §10): each objective is scored once per game at its best value (§10); an objective earns its
In Command value when an In Command Axis combat unit stands in it at the End of Turn, otherwise its bracketed value
(B17: an unassigned independent unit counts as Out of Command); a last-occupant objective counts at the end only if
an Axis ground unit was the last to occupy or pass through it; the thresholds of SP losses apply their highest row
met; losses count combat, minefield and attrition losses (B18).
"""

from __future__ import annotations

from collections.abc import Iterable

from pbem.games.gazala.data import Objective, Scenario, Side
from pbem.games.gazala.mapspec import piece_name
from pbem.games.gazala.paths import command, supply
from pbem.games.gazala.state import GazalaState, sit_of
from pbem.kit.hexes import HexId
from pbem.rules.contract import Event, Result

__all__ = ["end_of_turn", "game_end", "lose", "occupy", "result", "score", "sudden_death"]

LOSS_GROUPS = {"cw-motorised": "cw_motorised", "dak-xx": "dak_xx"}
"""Threshold VP rows (their id before the threshold) and the loss tally each reads (§10.3)."""


def occupy(state: GazalaState, side: Side, hexes: Iterable[str]) -> GazalaState:
    """§10: ``side``'s ground units occupied or passed through ``hexes``: the last occupant of the objectives there."""
    objectives = {o.hex: o.id for o in state.pack.scenario(state.scenario).objectives}
    changed = {objectives[h]: side for h in hexes if h in objectives}
    if not changed or all(state.victory.last.get(k) == v for k, v in changed.items()):
        return state
    return state.model_copy(
        update={"victory": state.victory.model_copy(update={"last": {**state.victory.last, **changed}})}
    )


def disrupt(state: GazalaState, units: Iterable[str]) -> GazalaState:
    """``units`` flip to their Disrupted side; the Improved Defence marker of each one's hex goes (§7.7: "if at
    least one unit in the hex becomes Disrupted")."""
    counters = dict(state.units)
    hexes = set()
    for unit in units:
        counters[unit] = counters[unit].model_copy(update={"disrupted": True})
        hexes.add(counters[unit].hex)
    improved = tuple(h for h in state.improved if h not in hexes)
    return state.model_copy(update={"units": counters, "improved": improved})


def lose(state: GazalaState, unit: str, points: int, rule: str) -> tuple[GazalaState, tuple[Event, ...]]:
    """A combat unit loses ``points`` Strength Points (§7.5.2.1: at 0 it is eliminated), counted for victory."""
    counter = state.units[unit]
    record = state.pack.unit(unit)
    lost = min(points, counter.cs)
    left = counter.cs - lost
    updated = counter.model_copy(update={"cs": left, "hex": counter.hex if left > 0 else None})
    losses = dict(state.victory.losses)
    if record.side == "cw" and record.movement == "motorised":
        losses["cw_motorised"] = losses.get("cw_motorised", 0) + lost
    if record.loss_group is not None:
        losses[record.loss_group] = losses.get(record.loss_group, 0) + lost
    ff = state.ff_lost + (lost if record.nationality == "free_french" else 0)
    state = state.model_copy(
        update={
            "units": {**state.units, unit: updated},
            "ff_lost": ff,
            "victory": state.victory.model_copy(update={"losses": losses}),
            "improved": tuple(h for h in state.improved if h != counter.hex) if left == 0 else state.improved,
        }
    )
    event = Event(
        kind="strength_lost" if left else "unit_eliminated",
        seat=record.side,
        rule=rule,
        data={"unit": unit, "lost": lost, "cs": left},
        text=f"{piece_name(state.pack, unit)} loses {lost} SP" + ("" if left else " and is eliminated"),
    )
    if left:
        return state, (event,)
    state, removed = _hq_removed(state, record.formation or counter.assigned)
    return state, (event, *removed)


def _hq_removed(state: GazalaState, formation: str | None) -> tuple[GazalaState, tuple[Event, ...]]:
    """§3.3: an HQ is removed from play once every unit of its formation and every unit assigned to it has been
    eliminated (a unit not yet arrived, or cannibalised for Replacement Points, §9.3, is not eliminated)."""
    hq = next((h.id for h in state.pack.hqs if h.formation == formation), None)
    if hq is None or state.hqs[hq].hex is None:
        return state, ()
    pack = state.pack
    members = [u for u, c in state.units.items() if pack.unit(u).formation == formation or c.assigned == formation]
    if any(state.units[u].cs > 0 for u in members):
        return state, ()
    state = state.model_copy(update={"hqs": {**state.hqs, hq: state.hqs[hq].model_copy(update={"hex": None})}})
    side = pack.formation(pack.hq(hq).formation).side
    found = [
        Event(
            kind="hq_removed",
            seat=side,
            rule="3.3",
            data={"hq": hq, "formation": formation},
            text=f"{piece_name(pack, hq)} is removed from play: every unit of {piece_name(pack, formation or '')} "
            "has been eliminated",
        )
    ]
    if formation is not None and state.schwerpunkt == formation:  # §5.9: to the next turn's space of the track
        state = state.model_copy(update={"schwerpunkt": None})
        found.append(
            Event(
                kind="schwerpunkt_lost",
                seat=side,
                rule="5.9",
                data={"formation": formation},
                text=f"the Schwerpunkt leaves {piece_name(pack, formation)} until the next Organisation Segment",
            )
        )
    return state, tuple(found)


def _place(state: GazalaState, hex_id: str) -> str:
    """A hex with its printed place names, as the reports show it (``2522 (Bir Hacheim)``)."""
    names = next((r.names for r in state.pack.map.hexes if r.id == hex_id), ())
    return f"{hex_id} ({', '.join(names)})" if names else hex_id


def _scenario(state: GazalaState) -> Scenario:
    return state.pack.scenario(state.scenario)


def _band_value(state: GazalaState, objective: Objective, *, in_command: bool) -> int:
    for band in objective.bands:
        if band.first_turn <= state.turn <= band.last_turn:
            return band.in_command if in_command else band.out_of_command
    return 0


def _axis_in_command_at(state: GazalaState, hex_id: str) -> bool | None:
    """Whether an Axis combat unit In Command stands in ``hex_id`` (None: no Axis combat unit there)."""
    sit = sit_of(state)
    units = sit.combat["axis"].get(HexId(hex_id), ())
    if not units:
        return None
    return any(sit.formation(u) is not None and command(sit, u).state == "in-command" for u in units)


def sudden_death(state: GazalaState) -> GazalaState:
    """§10.1 Automatic Victory, checked after every Action: the Free French are cleared from the scenario's hex and
    a unit of the activating formation has entered it."""
    scenario = _scenario(state)
    target = scenario.automatic_victory_hex
    if target is None or not state.pack.scenario(state.scenario).solitaire or state.victory.decided is not None:
        return state
    sit = sit_of(state)
    here = HexId(target)
    if sit.combat["cw"].get(here) or not sit.combat["axis"].get(here):
        return state
    return state.model_copy(update={"victory": state.victory.model_copy(update={"decided": "axis"})})


def end_of_turn(state: GazalaState) -> tuple[GazalaState, tuple[Event, ...]]:
    """§8, §10.2, §10.3: the objectives' VPs at their best, the penalty for each Axis Major supply source a
    Commonwealth combat unit occupies, and the Automatic Victory of §10.3 (an Axis combat unit in Tobruk and fewer
    than two Commonwealth HQs in supply; A1: Tobruk is 4303, whatever the text's "3703")."""
    scenario = _scenario(state)
    if scenario.solitaire:
        return state, ()
    best = dict(state.victory.best)
    events: list[Event] = []
    for objective in scenario.objectives:
        if state.victory.last.get(objective.id) != "axis":
            continue
        held = _axis_in_command_at(state, objective.hex)
        value = _band_value(state, objective, in_command=bool(held))
        if value > best.get(objective.id, 0):
            best[objective.id] = value
            events.append(
                Event(
                    kind="objective_scored",
                    seat="axis",
                    rule=objective.rule,
                    data={"objective": objective.id, "hex": objective.hex, "vp": value},
                    text=f"the Axis scores {value} VP for {_place(state, objective.hex)}",
                )
            )
    sources = state.victory.sources
    sit = sit_of(state)
    for row in scenario.vp_rows:
        if row.per != "turn_per_source":
            continue
        for source in state.pack.supply_sources:
            if source.side == "axis" and source.kind == "major" and sit.combat["cw"].get(HexId(source.hex)):
                sources += row.vp
                events.append(
                    Event(
                        kind="source_occupied",
                        seat="cw",
                        rule=row.rule,
                        data={"source": source.id, "vp": row.vp},
                        text=f"a Commonwealth unit holds {source.name} ({source.hex}): {row.vp} VP",
                    )
                )
    decided = state.victory.decided
    if scenario.automatic_victory_hex is not None and sit.combat["axis"].get(HexId(scenario.automatic_victory_hex)):
        supplied = sum(
            1 for hq, c in state.hqs.items() if c.hex is not None and sit.board.side[hq] == "cw" and supply(sit, hq).ok
        )
        if supplied < 2:
            decided = "axis"
            events.append(
                Event(
                    kind="automatic_victory",
                    seat="axis",
                    rule=scenario.number,
                    data={"hex": scenario.automatic_victory_hex, "cw_hqs_supplied": supplied},
                    text="the Axis holds Tobruk and the Commonwealth has fewer than two HQs in supply",
                )
            )
    victory = state.victory.model_copy(update={"best": best, "sources": sources, "decided": decided})
    return state.model_copy(update={"victory": victory}), tuple(events)


def score(state: GazalaState) -> int:
    """The Axis VPs (§10): for the solitaire scenario breached Minefields, Free French SP lost and Disrupted Free
    French units; otherwise the objectives, the supply-source penalties and the game-end rows."""
    scenario = _scenario(state)
    pack = state.pack
    total = 0
    if scenario.solitaire:
        for row in scenario.vp_rows:
            if row.per == "breached_minefield":
                total += row.vp * len(state.breached)
            elif row.per == "sp_lost":
                total += row.vp * state.ff_lost
            elif row.per == "disrupted_unit":
                disrupted = sum(
                    1
                    for u, c in state.units.items()
                    if c.hex is not None and c.disrupted and pack.unit(u).nationality == "free_french"
                )
                total += row.vp * disrupted
        return total
    for objective in scenario.objectives:
        if objective.kind == "definitive" or state.victory.last.get(objective.id) == "axis":
            total += state.victory.best.get(objective.id, 0)
    total += state.victory.sources
    sit = sit_of(state)
    arrived = {p.unit for p in scenario.placements} | set(state.reinforced)
    thresholds: dict[str, int] = {}
    for row in scenario.vp_rows:
        if row.per == "hq":
            for hq, counter in state.hqs.items():
                if sit.board.side[hq] != "axis" or hq not in arrived:
                    continue
                removed = counter.hex is None
                if (removed and row.id == "axis-hq-lost") or (not removed and not supply(sit, hq).ok):
                    total += row.vp
        elif row.per == "threshold" and row.threshold is not None:
            group = next((g for prefix, g in LOSS_GROUPS.items() if row.id.startswith(prefix)), None)
            met = group is not None and state.victory.losses.get(group, 0) >= row.threshold
            if group is not None and met and abs(row.vp) > abs(thresholds.get(group, 0)):
                thresholds[group] = row.vp
    return total + sum(thresholds.values())


def game_end(state: GazalaState) -> tuple[GazalaState, tuple[Event, ...]]:
    """§10: the final score and victory level."""
    found = result(state.model_copy(update={"phase": "over"}))
    assert found is not None
    event = Event(
        kind="game_ended",
        rule=_scenario(state).number,
        data={"vp": score(state), "level": found.outcome, "winners": list(found.winners)},
        text=f"the game ends: {found.outcome} ({score(state)} Axis VP)",
    )
    return state, (event,)


def result(state: GazalaState) -> Result | None:
    """The victory level of the final score (§10); an Automatic Victory is the Axis's outright."""
    if state.phase != "over":
        return None
    scenario = _scenario(state)
    vp = score(state)
    if state.victory.decided is not None and not scenario.solitaire:
        return Result(winners=(state.victory.decided,), outcome="Automatic Victory", score={"axis": vp})
    for level in scenario.levels:
        if (level.min_vp is None or vp >= level.min_vp) and (level.max_vp is None or vp <= level.max_vp):
            winners = () if level.winner == "none" else (level.winner,)
            outcome = level.label + (" (Automatic Victory)" if state.victory.decided is not None else "")
            return Result(winners=winners, outcome=outcome, score={"axis": vp})
    return Result(winners=(), outcome="no victory level", score={"axis": vp})
