"""Movement over the game state (§5-§7): one hex at a time, so every legal step can be listed and checked.

A Move (§4) is begun with its kind and origin and then extended a step at a time (``step``): each step checks the
whole path so far with :func:`pbem.games.rommel.board.check_unit_move` (speed plus road bonus plus Rommel bonus,
hexsides, engaging and disengaging, hexside limits). A block's speed is hidden from the opponent: a replay that
cannot see it allows the fastest speed of any unit type and records a :class:`~pbem.games.rommel.state.Claim` of
the least speed the path needs, which the audit checks against the revealed identity; a replay that sees it checks
the true speed at once.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

from pbem.games.rommel.battle import unit_speed
from pbem.games.rommel.board import Battle, Position, check_unit_move, movement_cost, speed_need
from pbem.games.rommel.raiders import entry_held
from pbem.games.rommel.state import BattleRecord, Claim, RommelState, Side, Token, other, unit_slot
from pbem.kit.graph import StepCost
from pbem.kit.hexes import HexId, Hexside, HexsideId
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "EXIT",
    "SEARCHES_KEEP",
    "announced",
    "can_finish",
    "crossings",
    "exit_hexes",
    "exited",
    "finishes",
    "force_verdict",
    "forced_step_verdict",
    "known_block",
    "max_speed",
    "regroup_arrived",
    "settled",
    "short_of",
    "shorts_announced",
    "speed_of",
    "step_verdict",
    "stepped",
]


def known_block(state: RommelState, token: str) -> str | None:
    """The pack block behind ``token`` if this replay may read it, else None."""
    slot = state.hidden.get(unit_slot(token))
    if slot is None or not slot.known or not isinstance(slot.value, str):
        return None
    return slot.value


def max_speed(state: RommelState) -> int:
    """The fastest speed of any unit type (§6.1): what a hidden block may at most claim."""
    return max(t.speed for t in state.pack.unit_types)


def speed_of(state: RommelState, token: str) -> int | None:
    """``token``'s speed (§6.1) if this replay may see its identity, else None."""
    block = known_block(state, token)
    if block is None or block not in {b.id for b in state.pack.blocks}:
        return None
    return unit_speed(state.pack, block, i_tanks=i_tanks(state))


def i_tanks(state: RommelState) -> bool:
    """Whether the optional Allied I-Tanks rule is in play (elite, the pack's ``i_tank_speed``)."""
    return state.options.get("i_tanks") is True


def step_verdict(state: RommelState, seat: Side, token: str, to: str) -> Verdict:
    """Whether ``seat`` may move ``token`` one hex on to ``to`` within the Move under way (§5.1, §6, §7)."""
    turn = state.turn
    if turn.move is None:
        return deny("5.0", "no-move", "begin a Group Move first")
    tok = state.tokens.get(token)
    if tok is None or tok.status != "map" or tok.side != seat or tok.hex is None:
        return deny("5.0", "not-own-unit", f"{token} is not a {seat} block on the map")
    if token in turn.paths and token != turn.mover:
        return deny("4.2", "moved-once", f"{token} has already moved this turn")
    path = turn.current if token == turn.mover else (tok.hex,)
    regroup = turn.move[0] == "regroup"
    if token != turn.mover and not regroup and tok.hex != turn.move[1]:
        return deny("5.1", "not-in-group", f"{token} is not in the moving group's hex {turn.move[1]}")
    if token != turn.mover and regroup and not _near(state, tok.hex, turn.move[1]):
        return deny("5.2", "not-near-command-point", f"{token} is not in or next to {turn.move[1]}")
    if token != turn.mover and regroup and turn.mover is not None and not regroup_arrived(state, seat, turn.mover):
        return deny("5.2", "finish-first", f"{turn.mover} must reach {turn.destination} before another unit moves")
    if token != turn.mover and regroup:  # the stopped mover's Forced March is announced as this unit moves (§7.1)
        state = shorts_announced(state, seat, keep=token)
        turn = state.turn
    if to == EXIT:
        return _exit_verdict(state, seat, token, path)
    if to not in state.pack.hex_map:
        return deny("6.0", "not-adjacent", f"{to} is not a land hex")
    if token == turn.mover and any(state.tokens[t].side != seat for t in state.at(path[-1])):
        return deny("7.0", "after-stop", f"{token} Engaged in {path[-1]} and stops there")
    full = (*path, to)
    position = state.position()
    if token == turn.mover:  # the board checks a path from the unit's hex: put it back where it began
        position = position.moved({token: (path[0],)})
        position = _with_left(position, turn.left.get(token), path[0])
    known = speed_of(state, token)
    verdict = check_unit_move(
        state.pack,
        position,
        token,
        list(full),
        rommel=turn.rommel,
        speed=known if known is not None else max_speed(state),
        engaged=crossings(state),
    )
    if not verdict.ok:
        return verdict
    if regroup and turn.destination is not None and not _regroup_can_end(state, seat, token, full, turn.destination):
        return deny("5.2", "not-to-destination", f"{token} could not end its Regroup in {turn.destination}")
    return ALLOW


def _regroup_can_end(state: RommelState, seat: Side, token: str, full: tuple[str, ...], destination: str) -> bool:
    """Whether a Regroup mover stepping along ``full`` can still end in ``destination`` (an Engaging step ends it),
    by its range or by a Forced March to it (§5.2 sidebar)."""
    to = full[-1]
    if to == destination:
        return True
    if any(state.tokens[t].side != seat for t in state.at(to)):
        return False
    after = stepped(state, seat, token, to)
    if can_finish(after, seat, token, full, destination):
        return True
    return not state.turn.withdrawal and _can_force_into(after, seat, token, full, destination)  # §4.5: no other


def _can_force_into(state: RommelState, seat: Side, token: str, path: tuple[str, ...], destination: str) -> bool:
    """§5.2 sidebar, §6.4: whether ``token`` can stop within its range next to ``destination``, out of battle, and
    Force March into it across a hexside it may still cross: the march is the move's last hex, never a detour, and
    the whole path with it stays within the allowance plus the Forced March hex."""
    pack = state.pack
    if destination not in finishes(state, seat, token, path, extra=pack.limit("forced_march_hexes")):
        return False
    position = _with_left(state.position(), state.turn.left.get(token), path[0])
    cost = movement_cost(pack, position, seat, crossings(state))
    goal = HexId(destination)
    for end in finishes(state, seat, token, path):
        side = pack.hex_map.hexside(HexId(end), goal)
        if side is None or any(state.tokens[t].side != seat for t in state.at(end)):
            continue
        if end == path[-1] and state.turn.paths.get(token) == path:  # from where it stands: the exact check
            if forced_step_verdict(state, seat, token, destination).ok:
                return True
        elif cost(HexId(end), goal, side) is not None:
            return True
    return False


def crossings(state: RommelState) -> dict[HexsideId, int]:
    """§7.1: the Engagements across each hexside this Movement phase, the announced Forced Marches' included."""
    turn = state.turn
    counts = {HexsideId(k): v for k, v in turn.engaged.items()}
    for k, v in turn.forced_engaged.items():
        counts[HexsideId(k)] = counts.get(HexsideId(k), 0) + v
    return counts


def short_of(state: RommelState, seat: Side) -> list[str]:
    """The Regroup movers of the Move under way that stopped next to the destination, beyond their range, with no
    Forced March announced yet (§5.2 sidebar)."""
    turn = state.turn
    return [
        t
        for t in turn.in_move
        if turn.destination is not None
        and state.tokens[t].hex != turn.destination
        and t not in turn.forced
        and regroup_arrived(state, seat, t)
    ]


def shorts_announced(state: RommelState, seat: Side, *, keep: str | None = None) -> RommelState:
    """§5.2 sidebar: the state with the Forced March into the destination announced for every Regroup mover that
    stopped short of it (but ``keep``, which moves on): the state a step by another unit, or the Move's end, is judged
    and made in, so that the crossings the marches will make count against the hexside limits (§7.1)."""
    for token in short_of(state, seat):
        if token != keep:
            state = announced(state, seat, token, state.turn.destination or "")
    return state


def announced(state: RommelState, seat: Side, token: str, to: str) -> RommelState:
    """§6.4: the state with ``token``'s Forced March from the end of its path to ``to`` announced; one into an enemy
    hex counts against that hexside's limit from now on (§7.1, sidebar: no Forced March beyond the limits)."""
    turn = state.turn
    side = state.pack.hex_map.hexside(HexId(turn.paths[token][-1]), HexId(to))
    counts = dict(turn.forced_engaged)
    if side is not None and any(state.tokens[t].side != seat for t in state.at(to)):
        counts[side.id] = counts.get(side.id, 0) + 1
    turn = turn.model_copy(update={"forced": {**turn.forced, token: to}, "forced_engaged": counts})
    return state.model_copy(update={"turn": turn})


def regroup_arrived(state: RommelState, seat: Side, token: str) -> bool:
    """§5.2: whether the Regroup mover ``token`` is in the destination, or next to it beyond its range with a Forced
    March into it open (§5.2 sidebar: attempted at the end of the Movement phase, §6.4)."""
    destination = state.turn.regroup_to.get(token, state.turn.destination)
    here = state.tokens[token].hex
    if destination is None or here == destination or state.turn.forced.get(token) == destination:
        return True
    if state.turn.withdrawal:  # §4.5: a Withdrawal makes no Forced March
        return False
    path = state.turn.paths.get(token, ())
    if len(path) < 2:
        return False
    if speed_of(state, token) is not None and destination in finishes(state, seat, token, path):
        return False  # its own range still takes it there (judged where its speed is seen: the audit's claim)
    return forced_step_verdict(state, seat, token, destination).ok


def _near(state: RommelState, here: str, command_point: str) -> bool:
    """§5.2: in or adjacent to the Command Point (regardless of terrain)."""
    return state.pack.hex_map.distance(HexId(here), HexId(command_point)) <= state.pack.limit("regroup_reach")


def stepped(state: RommelState, seat: Side, token: str, to: str, *, forced: bool = False) -> RommelState:
    """The state after ``token`` steps to ``to``: its path, the speed claim, and any Engagement (§7.0, §8.1-§8.3).
    ``forced``: the extra hex of a successful Forced March (§6.4), which the speed claim does not count."""
    turn = state.turn
    tok = state.tokens[token]
    assert tok.hex is not None
    path = (*(turn.current if token == turn.mover else (tok.hex,)), to)
    here = path[-2]
    pack = state.pack
    enemy = other(seat)
    enemy_there = any(state.tokens[t].side == enemy for t in state.at(to))
    battles = dict(state.battles)
    engaged = dict(turn.engaged)
    raids = dict(turn.raids)
    if enemy_there:
        side = pack.hex_map.hexside(here, to)  # type: ignore[arg-type]
        assert side is not None
        engaged[side.id] = engaged.get(side.id, 0) + 1
        record = battles.get(to)
        if entry_held(state, seat, token, record, side.id):  # §12.5: a Raider leaves the hexside to the enemy
            raids[token] = side.id
        else:
            if record is None:  # an Attack (§8.2): the mover is the Attacker (§8.3)
                fortress = any(p.hex == to and p.kind == "fortress" for p in pack.map.places)
                record = BattleRecord(defender=enemy, attacker=seat, fortress=fortress)
            battles[to] = record.model_copy(update={"crossed": {**record.crossed, side.id: seat}})
    tokens = {**state.tokens, token: tok.model_copy(update={"hex": to})}
    battles = settled(tokens, battles)
    rommel = token in turn.rommel_moved or (turn.rommel and not forced)
    need = speed_need(pack, path, rommel=rommel, forced=forced)
    claim = Claim(act=state.acts, seat=seat, token=token, kind="speed", value=need, rule="6.4" if forced else "6.1")
    # a Forced March is rolled after all Moves (§6.4): its unit joins no Move (a later one, in a Blitz Movement
    # phase, would take it for one of its own movers)
    in_move = turn.in_move if token in turn.in_move or forced else (*turn.in_move, token)
    disengaged = dict(turn.disengaged)
    if len(path) == 2 and any(state.tokens[t].side == enemy for t in state.at(here)):
        disengaged[token] = True  # §7.2: it leaves a battle, and is Disrupted at the end of its move
    left = dict(turn.left)
    if token != turn.mover and here in state.battles:
        left[token] = state.battles[here]
    new_turn = turn.model_copy(
        update={
            "left": left,
            "paths": {**turn.paths, token: path},
            "current": path,
            "mover": token,
            "engaged": engaged,
            "in_move": in_move,
            "rommel_moved": (*turn.rommel_moved, token)
            if rommel and token not in turn.rommel_moved
            else turn.rommel_moved,
            "disengaged": disengaged,
            "raids": raids,
        }
    )
    return state.model_copy(
        update={"tokens": tokens, "battles": battles, "turn": new_turn, "claims": (*state.claims, claim)}
    )


def settled(tokens: dict[str, Token], battles: dict[str, BattleRecord]) -> dict[str, BattleRecord]:
    """The battles that still hold units of both sides (a battle lasts until one side leaves or is eliminated)."""
    kept = {}
    for hex_id, record in battles.items():
        sides = {t.side for t in tokens.values() if t.status == "map" and t.hex == hex_id}
        if len(sides) == 2:
            kept[hex_id] = record
    return kept


def force_verdict(state: RommelState, seat: Side, token: str, to: str) -> Verdict:
    """§6.4: after all Moves, a unit that moved this turn may attempt one hex past its range."""
    turn = state.turn
    if turn.stage != "movement" or turn.move is not None:
        return deny("6.4", "not-now", "Forced Marches are announced after all Moves are complete")
    path = turn.paths.get(token)
    tok = state.tokens.get(token)
    if path is None or len(path) < 2 or tok is None or tok.side != seat or tok.status != "map":
        return deny("6.4", "not-moved", f"{token} did not move this turn")
    if token in turn.forced:
        return deny("6.4", "already-forced", f"{token} already attempts a Forced March")
    if token in turn.first_phase:  # §4.4: it moved in the first Movement phase and stays put in the Blitz's
        return deny("4.4", "moved-before-blitz", f"{token} moved before the Blitz Movement phase")
    return forced_step_verdict(state, seat, token, to)


def forced_step_verdict(state: RommelState, seat: Side, token: str, to: str) -> Verdict:
    """§6.4: whether ``token``, at the end of its path this turn, may march one hex on to ``to``."""
    turn = state.turn
    path = turn.paths[token]
    tok = state.tokens[token]
    retreating = turn.disengaged.get(token, False)  # Disrupted as its Retreat ended (§7.2), it may march on
    if (tok.disrupted and not retreating) or to not in state.pack.hex_map:
        return deny("6.4", "cannot-force", f"{token} cannot Force March to {to}")
    if any(state.tokens[t].side != seat for t in state.at(path[-1])):
        return deny("7.0", "after-stop", f"{token} Engaged in {path[-1]} and stops there")
    position = state.position().moved({token: (path[0],)})
    if retreating:  # it moved upright (§7.2: turned face-down after it finishes moving, §6.4 sidebar)
        upright = tuple(replace(u, disrupted=False) if u.block == token else u for u in position.units)
        position = Position(upright, position.battles, position.fortresses)
    position = _with_left(position, turn.left.get(token), path[0])
    known = speed_of(state, token)
    engaged = crossings(state)
    return check_unit_move(
        state.pack,
        position,
        token,
        [*path, to],
        rommel=token in turn.rommel_moved,
        forced=True,
        speed=known if known is not None else max_speed(state),
        engaged=engaged,
    )


def _with_left(position: Position, left: BattleRecord | None, where: str) -> Position:
    """``position`` with the battle a unit left at the start of its move (it may have ended when the unit left):
    the board re-checks the unit's path from there."""
    if left is None:
        return position
    battles = {**position.battles, where: Battle(left.defender, dict(left.crossed))}
    return Position(position.units, battles, position.fortresses)


_KINDS = ("highway", "track", "trail")


def can_finish(
    state: RommelState, seat: Side, token: str, path: tuple[str, ...], destination: str, *, extra: int = 0
) -> bool:
    """§5.2: whether ``token``, having moved along ``path`` (its start first), can still end its move in
    ``destination`` (see :func:`finishes`)."""
    return destination in finishes(state, seat, token, path, extra=extra)


def finishes(state: RommelState, seat: Side, token: str, path: tuple[str, ...], *, extra: int = 0) -> frozenset[str]:
    """Where ``token``, having moved along ``path`` (its start first), can still end its move: a continuation
    within its allowance (speed, plus the road bonus of a path wholly on roads of a kind, plus the Rommel bonus),
    over the board's step rules (passable hexsides, disengaging, the hexside limits so far), where entering an enemy
    hex ends the move and a Disengaging unit does not Engage again (§7.2). A replay that cannot see the speed uses
    the fastest. ``extra``: hexes beyond the allowance (a Regroup mover's Forced March, §5.2 sidebar, §6.4)."""
    pack = state.pack
    turn = state.turn
    position = _with_left(state.position(), turn.left.get(token), path[0])
    speed = (speed_of(state, token) or max_speed(state)) + extra
    key = (
        position.units,
        tuple(sorted((h, b.defender, tuple(sorted(b.crossed.items()))) for h, b in position.battles.items())),
        tuple(sorted(crossings(state).items())),
        turn.rommel,
        token,
        path,
        speed,
    )
    searches = pack.move_searches
    known = searches.get(key)
    if known is not None:
        return known
    if len(searches) >= SEARCHES_KEEP:
        searches.clear()
    found = _finishes(state, seat, token, path, position, speed)
    searches[key] = found
    return found


SEARCHES_KEEP = 4096  # searches a pack remembers (RommelPack.move_searches)


def _finishes(
    state: RommelState, seat: Side, token: str, path: tuple[str, ...], position: Position, speed: int
) -> frozenset[str]:
    pack = state.pack
    turn = state.turn
    rommel = pack.limit("rommel_bonus") if turn.rommel else 0
    cost = movement_cost(pack, position, seat, crossings(state))
    here = HexId(path[-1])
    walked = len(path) - 1
    found: set[str] = set(pack.hex_map.reach(here, max(0, speed + rommel - walked), cost).spent)
    sides = [pack.hex_map.hexside(HexId(a), HexId(b)) for a, b in pairwise(path)]
    for rank, kind in enumerate(_KINDS):
        allowed = _KINDS[: rank + 1]
        if not all(s is not None and s.has(*allowed) for s in sides):
            continue
        bonus = pack.limit(f"road_bonus_{kind}")

        def on_road(a: HexId, b: HexId, side: Hexside, allowed: tuple[str, ...] = allowed) -> StepCost:
            return cost(a, b, side) if side.has(*allowed) else None

        found |= set(pack.hex_map.reach(here, max(0, speed + bonus + rommel - walked), on_road).spent)
    if any(state.tokens[t].side != seat for t in state.at(path[0])):  # Disengaging: no Engaging again
        # not even by coming back: once the unit has left the battle hex, returning to it Engages (§7.2)
        stays = len(path) == 1
        found = {
            h for h in found if (stays and h == path[0]) or not any(state.tokens[t].side != seat for t in state.at(h))
        }
    if len(path) == 1:
        found.discard(path[0])  # a Regroup mover moves
    return frozenset(found)


EXIT = "exit"
"""The ``to`` of a step off the enemy map-end (§17.1)."""


def exit_hexes(state: RommelState, side: Side) -> frozenset[str]:
    """The edge hexes ``side`` leaves the map from: the enemy map-end (§17.1)."""
    return frozenset(h for e in state.pack.map.exits if e.side == side for h in e.hexes)


def _exit_verdict(state: RommelState, seat: Side, token: str, path: tuple[str, ...]) -> Verdict:
    """§17.1: a Supplied unit on the enemy map-end may step off it, within its range (the step off counts a hex)."""
    if path[-1] not in exit_hexes(state, seat):
        return deny("17.1", "not-at-map-end", f"{path[-1]} is not on the enemy map-end")
    if any(state.tokens[t].side != seat for t in state.at(path[-1])):
        return deny("7.0", "after-stop", f"{token} Engaged in {path[-1]} and stops there")
    if state.tokens[token].unsupplied:
        return deny("17.1", "unsupplied", f"{token} is Unsupplied: only Supplied units exit")
    known = speed_of(state, token)
    speed = known if known is not None else max_speed(state)
    if speed_need(state.pack, path, rommel=state.turn.rommel, off_map=True) > speed:
        return deny("6.1", "over-budget", f"{token} has no hex of its range left to leave the map")
    return ALLOW


def exited(state: RommelState, seat: Side, token: str) -> RommelState:
    """The unit leaves the map for good (§17.1); its claim: the path with the step off counts a hex more."""
    turn = state.turn
    tok = state.tokens[token]
    assert tok.hex is not None
    path = turn.current if token == turn.mover else (tok.hex,)
    need = speed_need(state.pack, path, rommel=turn.rommel, off_map=True)
    claim = Claim(act=state.acts, seat=seat, token=token, kind="speed", value=need, rule="6.1")
    tokens = {**state.tokens, token: tok.model_copy(update={"status": "exited", "hex": None})}
    in_move = turn.in_move if token in turn.in_move else (*turn.in_move, token)
    new_turn = turn.model_copy(
        update={"paths": {**turn.paths, token: (*path, EXIT)}, "mover": None, "current": (), "in_move": in_move}
    )
    exits = {**state.exited, seat: state.exited.get(seat, 0) + 1}
    return state.model_copy(
        update={
            "tokens": tokens,
            "battles": settled(tokens, dict(state.battles)),
            "turn": new_turn,
            "claims": (*state.claims, claim),
            "exited": exits,
        }
    )
