"""Mine tokens in a turn of *Axis & Allies: North Africa* (pp.13-14, 26-27): laying them in phase 2 and the
land mines' detonation after the attack declarations of phase 3, as actions of the kit machine.

* ``lay_mine`` (p.14): the moving power deploys a land mine token on the border of a territory it controls or
  holds with combat land units, facing one adjacent territory, or upgrades the "1 mine" token there to "2
  mines"; one a territory a turn, 1 RP each (the token's cost in the pack), within the turn's RP.
* ``lay_sea_mine`` (p.14): a sea mine token of the moving power in a sea zone without enemy combat sea units,
  not an enemy sea unit deployment zone, not barred to Axis mines (but the Suez Canal zone with the optional
  Mining the Suez Canal rule and an Axis bomber on Crete, p.39); one a zone a turn, 2 RP.
* detonation (p.26): once every attack is declared, each border an attack crosses (the attacked territory's
  tokens facing the attack's origin) whose mines an enemy of the mover owns is offered to the owner's seat in
  turn (``detonate`` some icons, or ``done`` for none; mines owned jointly on a tie ask each owner's seat and
  detonate the fewest wished, :func:`.combat_mines.joint_icons`). The owner rolls 3 dice an icon; each hit
  makes the mover ``turn_back`` one unit of that attack (it stays where it is, spent, p.26); an attack left
  with no unit is withdrawn (its supply stays spent, notes §10.19); a scout car turned back loses its
  Long-Range Patrol (p.31).

Everything else about mines (ownership, legality of a detonation, dice, hits, tokens left) is
:mod:`.combat_mines`' and :mod:`.economy`'s.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.games.axisallies import convoy_mines, phase_combat
from pbem.games.axisallies.actions import Detonate, LayMine, LaySeaMine, TurnBackUnit
from pbem.games.axisallies.combat_mines import (
    after_detonation,
    check_detonation,
    joint_icons,
    land_mine_owners,
    mine_dice,
    mine_hits,
)
from pbem.games.axisallies.economy import check_land_mine, check_sea_mine
from pbem.games.axisallies.position import graph_of, side_of, status
from pbem.games.axisallies.state import (
    AttackGroup,
    AxisState,
    Border,
    Crossing,
    Detonation,
    MineRoll,
    Patrol,
    TurnBack,
    added,
    key,
)
from pbem.kit.machine import pop, push, top
from pbem.rules.contract import ALLOW, Event, Outcome, RollRequest, RollSpec, Step, Verdict, deny

__all__ = [
    "after_declarations",
    "blitz_mined",
    "can_detonate",
    "can_lay_mine",
    "can_lay_sea_mine",
    "can_turn_back",
    "detonate",
    "detonates",
    "done_detonating",
    "lay_mine",
    "lay_mines",
    "lay_sea_mine",
    "lay_sea_mines",
    "mines_rolled",
    "start_crossing",
    "turn_back",
    "turn_backs",
]

SUEZ_MINING = ("crete", "suez_canal")
"""p.39 Mining the Suez Canal: "if an Axis player has one or more bombers on the island of Crete, they may deploy
1 sea mine token per turn in the Suez Canal convoy sea zone" (the island and the zone, by their pack ids)."""


# --- laying (p.14) -------------------------------------------------------------------------------------------


def land_tokens_in_play(state: AxisState) -> int:
    """p.9: land mine tokens on the board."""
    return sum(len(tokens) for borders in state.land_mines.values() for tokens in borders.values())


def sea_tokens_in_play(state: AxisState, side: str) -> int:
    """p.9: sea mine tokens of ``side``'s pool on the board."""
    return sum(n for powers in state.sea_mines.values() for p, n in powers.items() if state.pack.power(p).side == side)


def lay_mines(state: AxisState, seat: str) -> Iterator[LayMine]:
    graph = graph_of(state.pack)
    for territory in sorted({*state.pieces, *state.control}):
        if graph.kind(territory) != "land":
            continue
        for edge in graph.edges(territory):
            if edge.type == "land":
                yield LayMine(territory=territory, facing=edge.b)


def can_lay_mine(state: AxisState, seat: str, act: LayMine) -> Verdict:
    from pbem.games.axisallies.phases import can_afford

    graph = graph_of(state.pack)
    if act.territory not in graph.nodes or graph.kind(act.territory) != "land":
        return deny("10", "unknown-territory", f"{act.territory} is not a territory")
    tokens = state.land_mines.get(act.territory, {}).get(act.facing, ())
    verdict = check_land_mine(
        state.pack,
        state.position(),
        state.power,
        act.territory,
        act.facing,
        done_here=state.mines_laid.get(act.territory, 0),
        new_token=1 not in tokens,
        tokens_in_play=land_tokens_in_play(state),
    )
    return verdict if not verdict.ok else can_afford(state, land_mines=1)


def lay_mine(state: AxisState, seat: str, act: LayMine) -> Step[AxisState]:
    """p.14: a new "1 mine" token, or the "1 mine" token on that border flipped to "2 mines"."""
    borders = dict(state.land_mines.get(act.territory, {}))
    tokens = list(borders.get(act.facing, ()))
    if 1 in tokens:
        tokens[tokens.index(1)] = 2
    else:
        tokens.append(1)
    borders[act.facing] = tuple(sorted(tokens, reverse=True))
    state = state.model_copy(
        update={
            "land_mines": {**state.land_mines, act.territory: borders},
            "mines_laid": {**state.mines_laid, act.territory: state.mines_laid.get(act.territory, 0) + 1},
        }
    )
    data = {"power": state.power, "territory": act.territory, "facing": act.facing, "tokens": list(tokens)}
    return Step(state=state, events=(Event(kind="land_mine_laid", seat=seat, rule="14", data=data),))


def lay_sea_mines(state: AxisState, seat: str) -> Iterator[LaySeaMine]:
    for zone in state.pack.sea_zones:
        yield LaySeaMine(zone=zone.id)


def _suez_mining(state: AxisState, zone: str) -> bool:
    """p.39 (optional Mining the Suez Canal): an Axis power with a bomber on the rule's island may mine the
    rule's zone, once a turn, despite p.14's ban."""
    rule = next((o for o in state.pack.optional_rules if o.id == "mining_the_suez_canal"), None)
    if rule is None or state.options.get(rule.id) != "on" or state.pack.power(state.power).side != rule.side:
        return False
    if zone != SUEZ_MINING[1]:
        return False
    return any(
        n > 0 and state.pack.unit(p, t).has("collateral_damage") and state.pack.power(p).side == rule.side
        for (p, t), n in state.position().pieces.get(SUEZ_MINING[0], {}).items()
    )


def can_lay_sea_mine(state: AxisState, seat: str, act: LaySeaMine) -> Verdict:
    from pbem.games.axisallies.phases import can_afford

    if not any(z.id == act.zone for z in state.pack.sea_zones):
        return deny("10", "unknown-space", f"{act.zone} is not a sea zone")
    side = state.pack.power(state.power).side or "axis"
    verdict = check_sea_mine(
        state.pack,
        state.position(),
        state.power,
        act.zone,
        done_here=state.mines_laid.get(act.zone, 0),
        tokens_in_play=sea_tokens_in_play(state, side),
        axis_ban_lifted=_suez_mining(state, act.zone),
    )
    return verdict if not verdict.ok else can_afford(state, sea_mines=1)


def lay_sea_mine(state: AxisState, seat: str, act: LaySeaMine) -> Step[AxisState]:
    here = dict(state.sea_mines.get(act.zone, {}))
    here[state.power] = here.get(state.power, 0) + 1
    state = state.model_copy(
        update={
            "sea_mines": {**state.sea_mines, act.zone: here},
            "mines_laid": {**state.mines_laid, act.zone: state.mines_laid.get(act.zone, 0) + 1},
        }
    )
    data = {"power": state.power, "zone": act.zone}
    return Step(state=state, events=(Event(kind="sea_mine_laid", seat=seat, rule="14", data=data),))


# --- detonation after the declarations (p.26) ----------------------------------------------------------------


def _borders(state: AxisState) -> tuple[Border, ...]:
    """The borders this turn's declared land attacks cross that hold mines an enemy of the mover owns."""
    found = []
    for group in sorted(state.attacks, key=lambda g: (g.target, g.origin)):
        if group.pre_declared or group.power != state.power:
            continue
        tokens = state.land_mines.get(group.target, {}).get(group.origin, ())
        if tokens and _owner_seats(state, group.target):
            found.append(Border(territory=group.target, origin=group.origin))
    return tuple(found)


def _owner_seats(state: AxisState, territory: str) -> tuple[str, ...]:
    """The seats of the enemy powers owning ``territory``'s mines (France's by its allegiance's operator)."""
    position = state.position()
    mover = state.pack.power(state.power).side
    seats = []
    for owner in land_mine_owners(state.pack, position, territory):
        if side_of(state.pack, position, owner, territory) == mover:
            return ()
        if state.pack.power(owner).side is None:  # French mines: their allegiance's operator decides (p.29)
            side = side_of(state.pack, position, owner, territory)
            allegiance = next(a for a in state.pack.allegiances if a.side == side)
            seat = state.seat_of(allegiance.operated_by)
        else:
            seat = state.seat_of(owner)
        if seat not in seats:
            seats.append(seat)
    return tuple(seats)


def after_declarations(state: AxisState) -> Step[AxisState]:
    """p.26: after every attack is declared (and paid), the mine owners of each crossed border decide."""
    return _next_border(state, _borders(state), ())


def _next_border(state: AxisState, borders: tuple[Border, ...], events: tuple[Event, ...]) -> Step[AxisState]:
    for i, border in enumerate(borders):
        group = _attack(state, border)
        tokens = state.land_mines.get(border.territory, {}).get(border.origin, ())
        seats = _owner_seats(state, border.territory)
        if group is None or not tokens or not seats:
            continue
        decision = Detonation(seat=seats[0], border=border, rest=borders[i + 1 :], seats=seats[1:])
        return Step(state=push(state, decision), events=events)
    if state.phase == "combat" and not phase_combat.combats_left(state):
        state = state.model_copy(update={"phase": "noncombat_move"})
    return Step(state=state, events=events)


def _attack(state: AxisState, border: Border) -> AttackGroup | None:
    return next(
        (g for g in state.attacks if (g.target, g.origin) == (border.territory, border.origin) and g.units), None
    )


def detonates(state: AxisState, seat: str) -> Iterator[Detonate]:
    if state.pending[-1].kind == "sea_detonation":
        yield from convoy_mines.sea_detonates(state, seat)
        return
    decision = top(state, Detonation)
    tokens = state.land_mines.get(decision.border.territory, {}).get(decision.border.origin, ())
    for icons in range(1, sum(tokens) + 1):
        yield Detonate(icons=icons)


def can_detonate(state: AxisState, seat: str, act: Detonate) -> Verdict:
    if state.pending[-1].kind == "sea_detonation":
        return convoy_mines.can_sea_detonate(state, seat, act)
    decision = top(state, Detonation)
    border = decision.border
    tokens = state.land_mines.get(border.territory, {}).get(border.origin, ())
    return check_detonation(state.pack, state.position(), border.territory, tokens, act.icons, acting=state.power)


def detonate(state: AxisState, seat: str, act: Detonate) -> Step[AxisState]:
    if state.pending[-1].kind == "sea_detonation":
        return convoy_mines.sea_detonate(state, seat, act)
    return _answered(state, seat, act.icons)


def done_detonating(state: AxisState, seat: str) -> Step[AxisState]:
    """p.26: the owner detonates none of the mines on this border."""
    return _answered(state, seat, 0)


def _answered(state: AxisState, seat: str, icons: int) -> Step[AxisState]:
    decision = top(state, Detonation)
    wishes = (*decision.wishes, icons)
    if decision.seats and icons > 0:
        update = {"seat": decision.seats[0], "seats": decision.seats[1:], "wishes": wishes}
        following = decision.model_copy(update=update)
        return Step(state=push(pop(state), following))
    state = pop(state)
    chosen = joint_icons(wishes)
    border = decision.border
    data = {"territory": border.territory, "facing": border.origin, "icons": chosen}
    event = Event(kind="mines_detonated", seat=seat, rule="26", data=data)
    if chosen <= 0 and decision.crossing is not None:
        return _complete(state, decision.crossing, (event,))
    if chosen <= 0:
        return _next_border(state, decision.rest, (event,))
    spec = RollSpec(id="mines", sides=state.pack.limit("die_sides"), n=mine_dice(state.pack, "land", chosen),
                    purpose="land mines")  # fmt: skip
    roll = MineRoll(
        seat=state.seat_of(state.power), border=border, rest=decision.rest, icons=chosen, crossing=decision.crossing
    )
    waiting = push(state, roll)
    return Step(state=waiting.with_rolls(RollRequest(rolls=(spec,))), events=(event,))


def mines_rolled(state: AxisState, outcome: Outcome) -> Step[AxisState]:
    """p.26: the icons leave the border; each die at or under the pack's number turns one unit of the attack
    aside, the mover's choice."""
    decision = top(state, MineRoll)
    state = pop(state)
    border = decision.border
    faces = (outcome.dice or {}).get("mines", ())
    hits = mine_hits(state.pack, "land", faces)
    borders = dict(state.land_mines.get(border.territory, {}))
    left = after_detonation(borders.get(border.origin, ()), decision.icons)
    if left:
        borders[border.origin] = left
    else:
        borders.pop(border.origin, None)
    mines = {**state.land_mines, border.territory: borders}
    if not borders:
        del mines[border.territory]
    state = state.model_copy(update={"land_mines": mines})
    data = {"territory": border.territory, "facing": border.origin, "faces": list(faces), "hits": hits}
    event = Event(kind="mine_dice", rule="26", data=data)
    if decision.crossing is not None:
        return _turned(state, decision.crossing, (event,)) if hits else _complete(state, decision.crossing, (event,))
    group = _attack(state, border)
    crossing = sum(group.units.values()) if group is not None else 0
    owed = min(hits, crossing)
    if owed <= 0:
        return _next_border(state, decision.rest, (event,))
    turn = TurnBack(seat=state.seat_of(state.power), border=border, rest=decision.rest, left=owed)
    return Step(state=push(state, turn), events=(event,))


def turn_backs(state: AxisState, seat: str) -> Iterator[TurnBackUnit]:
    decision = top(state, TurnBack)
    group = _attack(state, decision.border)
    for type_ in sorted(group.units if group is not None else {}):
        yield TurnBackUnit(unit=type_)


def can_turn_back(state: AxisState, seat: str, act: TurnBackUnit) -> Verdict:
    decision = top(state, TurnBack)
    group = _attack(state, decision.border)
    if group is None or group.units.get(act.unit, 0) <= 0:
        return deny("26", "not-crossing", f"no {act.unit} attacks across that border")
    return ALLOW


def turn_back(state: AxisState, seat: str, act: TurnBackUnit) -> Step[AxisState]:
    """p.26: the unit stays where it is, takes no part in the combat and moves no more this turn (a scout car
    loses its Long-Range Patrol, p.31); the attack goes on with the others, or is withdrawn without any."""
    decision = top(state, TurnBack)
    border = decision.border
    group = _attack(state, border)
    assert group is not None
    units = dict(group.units)
    units[act.unit] -= 1
    if not units[act.unit]:
        del units[act.unit]
    attacks = tuple(
        g.model_copy(update={"units": units}) if g is group else g for g in state.attacks if g is not group or units
    )
    state = state.model_copy(update={"attacks": attacks, "patrols": _cancel_patrol(state, border.origin, act.unit)})
    data = {"unit": act.unit, "src": border.origin, "dst": border.territory}
    event = Event(kind="turned_back", seat=seat, rule="26", data=data)
    if decision.left > 1 and units:
        return Step(state=push(pop(state), decision.model_copy(update={"left": decision.left - 1})), events=(event,))
    return _next_border(pop(state), decision.rest, (event,))


def _cancel_patrol(state: AxisState, space: str, type_: str) -> tuple[Patrol, ...]:
    """p.31: a scout car turned back by mines loses its Long-Range Patrol (the one with the most left goes)."""
    k = key(state.power, type_)
    found = sorted(
        (p for p in state.patrols if (p.space, p.unit) == (space, k)), key=lambda p: (not p.attacked, p.used)
    )
    if not found:
        return state.patrols
    first = found[0]
    rest = tuple(p for p in state.patrols if p is not first)
    return rest if first.count == 1 else (*rest, first.model_copy(update={"count": first.count - 1}))


# --- a blitz across a mined border (p.26) --------------------------------------------------------------------


def blitz_mined(state: AxisState, path: tuple[str, ...]) -> bool:
    """p.26: whether a blitz along ``path`` crosses into a hostile territory whose border with ``path[0]`` holds
    mines an enemy of the mover owns."""
    side = state.pack.power(state.power).side or "axis"
    if len(path) < 2 or status(state.pack, state.position(), path[1], side) != "hostile":
        return False
    return bool(state.land_mines.get(path[1], {}).get(path[0])) and bool(_owner_seats(state, path[1]))


def start_crossing(state: AxisState, seat: str, unit_key: str, path: tuple[str, ...]) -> Step[AxisState]:
    """p.26: the blitzer crosses the mined border and waits in ``path[1]`` for the owner's decision (RULING: pieces
    move one at a time, so each blitzer's crossing is decided as it crosses)."""
    state = state.model_copy(
        update={
            "pieces": added(added(state.pieces, path[0], unit_key, -1), path[1], unit_key, 1),
            "moved": added(state.moved, path[1], unit_key, 1),
        }
    )
    seats = _owner_seats(state, path[1])
    crossing = Crossing(unit=unit_key, path=path)
    border = Border(territory=path[1], origin=path[0])
    decision = Detonation(seat=seats[0], border=border, seats=seats[1:], crossing=crossing)
    data = {"power": state.power, "unit": unit_key, "src": path[0], "dst": path[1], "path": list(path[:2])}
    return Step(state=push(state, decision), events=(Event(kind="crossed_mines", seat=seat, rule="26", data=data),))


def _complete(state: AxisState, crossing: Crossing, events: tuple[Event, ...]) -> Step[AxisState]:
    """p.26: a blitzer the mines did not stop takes the territory (p.15) and goes on if its move said so."""
    from pbem.games.axisallies.phases import blitz_capture, capture_trucks

    path, k = crossing.path, crossing.unit
    state, captured = blitz_capture(state, path[1])
    if len(path) == 3:
        state = state.model_copy(
            update={
                "pieces": added(added(state.pieces, path[1], k, -1), path[2], k, 1),
                "moved": added(added(state.moved, path[1], k, -1), path[2], k, 1),
                "exhausted": added(state.exhausted, path[2], k, 1),
            }
        )
        state, more = capture_trucks(state, path[2])
        captured = [*captured, *more]
    data = {"unit": k, "src": path[0], "dst": path[-1], "path": list(path)}
    done_event = Event(kind="moved", rule="15", data=data)
    return Step(state=state, events=(*events, done_event, *captured))


def _turned(state: AxisState, crossing: Crossing, events: tuple[Event, ...]) -> Step[AxisState]:
    """p.26: the blitzer is turned back into the territory it entered from; it moves and attacks no more this
    turn, and the territory is not captured."""
    path, k = crossing.path, crossing.unit
    state = state.model_copy(
        update={
            "pieces": added(added(state.pieces, path[1], k, -1), path[0], k, 1),
            "moved": added(added(state.moved, path[1], k, -1), path[0], k, 1),
            "exhausted": added(state.exhausted, path[0], k, 1),
        }
    )
    data = {"unit": k, "src": path[0], "dst": path[1]}
    return Step(state=state, events=(*events, Event(kind="turned_back", rule="26", data=data)))
