"""The scenarios of *Axis & Allies: North Africa* (p.6, pp.8-9, pp.28-29): setup, rounds and victory.

* :func:`initial_state`: the Setup Charts (pp.8-9) as a state: pieces, supply (on land, or on a power's marker in
  a convoy zone), control markers; Vichy French pieces are Axis (p.29). If the setup has UK variable
  reinforcements (p.9) the game opens with the UK placing them.
* :func:`round_start`: the scheduled round-start events (Rommel's Last Push round 7, p.28: control markers,
  Tunis's supply, the Torch forces; the second Axis truck comes from the pack's pool changes).
* :func:`next_turn`: the turn order of p.12 with the scenario's skipped turns (the United States until round 7
  in Rommel's Last Push, Germany's round-7 turn in Operation Torch), and the end after the last round (p.6).
* :func:`instant_winner` and :func:`final_result`: Instant Total Victory and the end-of-game levels (p.6).
"""

from __future__ import annotations

from pbem.games.axisallies.advantages import tie_break
from pbem.games.axisallies.data import AxisAlliesPack, Placement, Scenario
from pbem.games.axisallies.position import combat_units, controller, side_of
from pbem.games.axisallies.reserve import setup_reserve
from pbem.games.axisallies.state import AxisState, Counts, key
from pbem.games.axisallies.turns import powers_in_round
from pbem.rules.contract import Event

__all__ = [
    "LEVELS",
    "final_result",
    "initial_state",
    "instant_winner",
    "next_turn",
    "phase6_events",
    "place",
    "round_start",
]

LEVELS = ("minor", "major", "total")
"""p.6: victory levels, lowest first."""


def place(state: AxisState, pack: AxisAlliesPack, rows: tuple[Placement, ...]) -> AxisState:
    """``state`` with the pieces and supply of placement ``rows`` added (supply at sea rides its power's marker)."""
    pieces = {s: dict(c) for s, c in state.pieces.items()}
    supply = dict(state.supply)
    convoy = {z: dict(p) for z, p in state.convoy_supply.items()}
    kinds = {z.id for z in pack.sea_zones}
    for row in rows:
        here: Counts = pieces.setdefault(row.space, {})
        for type_, n in row.units.items():
            here[key(row.power, type_)] = here.get(key(row.power, type_), 0) + n
        if not here:
            del pieces[row.space]
        if row.supply and row.space in kinds:
            at_sea = convoy.setdefault(row.space, {})
            at_sea[row.power] = at_sea.get(row.power, 0) + row.supply
        elif row.supply:
            supply[row.space] = supply.get(row.space, 0) + row.supply
    return state.model_copy(update={"pieces": pieces, "supply": supply, "convoy_supply": convoy})


def initial_state(
    pack: AxisAlliesPack,
    scenario: Scenario,
    players: int,
    seats: dict[str, str],
    options: dict[str, str],
) -> AxisState:
    """pp.8-9, p.28: the board of ``scenario``'s Setup Charts at its first round, before the first turn.

    The first turn's phase 1 and income are left to :func:`.phases.start_turn` (the caller's), or to the end of
    the UK's variable reinforcements when the setup has some.
    """
    first = powers_in_round(pack, scenario, scenario.start_round)[0]
    state = AxisState(
        pack=pack,
        scenario=scenario.id,
        players=players,
        seats=seats,
        round=scenario.start_round,
        power=first,
        phase="setup" if scenario.setup.variable_reinforcements else "purchase",
        control={row.territory: row.power for row in scenario.setup.control},
        options=options,
        land_mines=_land_mines(scenario),
        sea_mines=_sea_mines(scenario),
    )
    return setup_reserve(place(state, pack, scenario.setup.placements), scenario)


def _land_mines(scenario: Scenario) -> dict[str, dict[str, tuple[int, ...]]]:
    """p.8: the land mine tokens of the Setup Charts, by territory and the border they face."""
    found: dict[str, dict[str, tuple[int, ...]]] = {}
    for row in scenario.setup.land_mines:
        here = found.setdefault(row.territory, {})
        here[row.facing] = tuple(sorted((*here.get(row.facing, ()), *row.tokens), reverse=True))
    return found


def _sea_mines(scenario: Scenario) -> dict[str, dict[str, int]]:
    """p.8: the sea mine tokens of the Setup Charts, by zone and power."""
    found: dict[str, dict[str, int]] = {}
    for row in scenario.setup.sea_mines:
        here = found.setdefault(row.zone, {})
        here[row.power] = here.get(row.power, 0) + 1
    return found


def round_start(state: AxisState, pack: AxisAlliesPack, scenario: Scenario) -> tuple[AxisState, tuple[Event, ...]]:
    """p.28: the round-start events of ``state.round`` (control markers, placements; pool changes are read from
    the pack by :func:`.economy.pieces_available`)."""
    events = []
    for event in scenario.events:
        if event.timing != "round_start" or event.round != state.round:
            continue
        control = dict(state.control) | {row.territory: row.power for row in event.control}
        state = place(state.model_copy(update={"control": control}), pack, event.placements)
        events.append(
            Event(
                kind="round_event",
                rule=event.rule,
                data={"event": event.id},
                text=event.text,
            )
        )
    return state, tuple(events)


def phase6_events(state: AxisState, pack: AxisAlliesPack, scenario: Scenario) -> tuple[AxisState, tuple[Event, ...]]:
    """p.28: events in the current power's phase 6 this round (the Lend-Lease Shermans, round 4)."""
    events = []
    for event in scenario.events:
        if event.timing == "phase_6" and event.round == state.round and event.power == state.power:
            state = place(state, pack, event.placements)
            events.append(
                Event(
                    kind="round_event",
                    rule=event.rule,
                    data={"event": event.id},
                    text=event.text,
                )
            )
    return state, tuple(events)


def next_turn(state: AxisState, pack: AxisAlliesPack, scenario: Scenario) -> tuple[str, int] | None:
    """p.12, p.6, p.28: the (power, round) of the next turn after the current one, or None after the last round."""
    order = powers_in_round(pack, scenario, state.round)
    later = order[order.index(state.power) + 1 :] if state.power in order else ()
    if later:
        return later[0], state.round
    for round_ in range(state.round + 1, scenario.end_round + 1):
        order = powers_in_round(pack, scenario, round_)
        if order:
            return order[0], round_
    return None


def _side_controls(pack: AxisAlliesPack, state: AxisState, territory: str, side: str) -> bool:
    position = state.position()
    owner = controller(pack, position, territory)
    return owner is not None and side_of(pack, position, owner, territory) == side


def instant_winner(pack: AxisAlliesPack, scenario: Scenario, state: AxisState) -> tuple[str, str] | None:
    """p.6 Instant Total Victory: (side, how) if a side has captured the enemy's regional capital or no enemy
    combat unit is left in a territory in North Africa (Vichy pieces are Axis units, notes §10.15)."""
    position = state.position()
    for instant in scenario.victory.instant:
        if _side_controls(pack, state, instant.capture, instant.side):
            return instant.side, f"captured {pack.territory(instant.capture).name}"
    for side, other in (("axis", "allies"), ("allies", "axis")):
        if not any(combat_units(pack, position, t.id, other) for t in pack.territories if t.north_africa):
            return side, f"no {other} combat units left in North Africa"
    return None


def side_level(pack: AxisAlliesPack, scenario: Scenario, state: AxisState, side: str) -> str | None:
    """p.6: the highest victory level ``side`` holds at the end of the game, or None."""
    best: str | None = None
    for level in scenario.victory.levels:
        if level.side != side:
            continue
        held = all(_side_controls(pack, state, t, side) for t in level.all_of) and (
            not level.any_of or any(_side_controls(pack, state, t, side) for t in level.any_of)
        )
        if held and (best is None or LEVELS.index(level.level) > LEVELS.index(best)):
            best = level.level
    return best


def final_result(pack: AxisAlliesPack, scenario: Scenario, state: AxisState) -> tuple[str, str]:
    """p.6: (winning side or "draw", outcome) at the end of the last round. The higher level wins (RULING, notes
    §10.14: Axis Minor against Allied Major is possible and the text is silent); equal levels, both Minor
    included, and no level at all are a draw, unless the option ``draw_tie_break`` breaks it (p.6)."""
    axis = side_level(pack, scenario, state, "axis")
    allies = side_level(pack, scenario, state, "allies")
    rank: dict[str | None, int] = {
        None: -1,
        **{level: i for i, level in enumerate(LEVELS)},
    }
    if rank[axis] == rank[allies]:
        words = "no victory level" if axis is None else f"both sides {axis} victory"
        broken = tie_break(state)
        if broken is not None:
            return broken[0], f"{words}; {broken[1]}"
        return "draw", words
    side, level = ("axis", axis) if rank[axis] > rank[allies] else ("allies", allies)
    return side, f"{side} {level} victory"
