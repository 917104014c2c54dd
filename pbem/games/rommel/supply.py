"""Supply (§12): supply lines along the highway and supply chains, the network, Fortress and Oasis supply, and the
four conditions of a Withdrawal Move (§5.3).

One search (:func:`pbem.kit.graph.dijkstra`) runs outwards from a source over states ``(hex, steps, range,
chained)``: ``steps`` since the last point of the line (0 at a point), ``range`` the Supply Range of the link so
far (§12.4: the least of the roads used; track 3, trail 2, none 1; the highway does not limit it) and
``chained`` whether that link began at a chain unit. The points of a line are:

* the source itself (the Base; an isolated Fortress for :func:`fortress_lines`);
* a supplied highway hex (§12.3): reached along the highway from a point, or by a link from a chain unit;
* a chain unit: an undisrupted friendly unit within range of a point (§12.4). A chain cannot run from one highway
  hex to another without a unit between them.

Lines pass through friendly and empty hexes and friendly battles, never enemy hexes or enemy battles, and cross
battle hexsides only where they are friendly (§12.2, §12.5); an Attacker's battle hex is reached but never passed
(§12.5). Disrupted units neither chain nor block, and are supplied when a line comes within their range.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from types import MappingProxyType

from pbem.games.rommel.board import (
    ROADS,
    Battle,
    Position,
    Side,
    battle,
    has_enemy,
    hex_state,
    passable,
    side_of,
)
from pbem.games.rommel.schema import RommelPack
from pbem.kit.graph import dijkstra
from pbem.kit.hexes import HexId, Hexside
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "Network",
    "base_hex",
    "check_fortress_supply",
    "check_oasis_supply",
    "check_withdrawal",
    "fortress_isolated",
    "fortress_lines",
    "supply_lines",
]

State = tuple[str, int, int, bool]
"""``(hex, steps since the last point, range of the link, link began at a chain unit)``."""

HIGHWAY_JOG = ("bardia", "ft-capuzzo")
"""§5.3 sidebar: the two places the Axis may treat as equally distant from its Base (the highway's jog)."""


@dataclass(frozen=True)
class Network:
    """The supply lines of ``side`` from ``source``.

    Attributes:
        length: every hex on a line (§12.6: the Supply Network), with the length of its shortest line.
        points: the highway hexes and chain units' hexes the lines are made of.
        supplied: the blocks with a supply line.
        lines: each search state on a line, with the states one step nearer the source it is reached from.
    """

    side: Side
    source: str
    length: Mapping[str, int]
    points: frozenset[str]
    supplied: frozenset[str]
    lines: Mapping[State, tuple[State, ...]]

    @property
    def hexes(self) -> frozenset[str]:
        """§12.6: the Supply Network's hexes."""
        return frozenset(self.length)

    def follows(self, path: Sequence[str]) -> bool:
        """§5.3 condition 2: whether ``path`` (a unit's hex first) runs back along one supply line of that unit, each
        hex entered one step nearer the source on it."""
        by_hex: dict[str, list[State]] = {}
        for state in self.lines:
            by_hex.setdefault(state[0], []).append(state)
        ahead = set(by_hex.get(path[-1], ()))
        for hex_id in reversed(path[:-1]):
            ahead = {t for t in by_hex.get(hex_id, ()) if not ahead.isdisjoint(self.lines[t])}
        return bool(ahead)


def base_hex(pack: RommelPack, side: Side) -> str:
    """§1.6: the hex of ``side``'s Base."""
    return next(p.hex for p in pack.map.places if p.kind == "base" and p.side == side)


def _range(pack: RommelPack, hexside: Hexside, cap: int) -> int:
    """§12.4: the Supply Range along one hexside (the highway: no limit, i.e. the longest range, ``cap``)."""
    if hexside.has("highway"):
        return cap
    for kind in ROADS[1:]:
        if hexside.has(kind):
            return pack.limit(f"supply_range_{kind}")
    return pack.limit("supply_range_none")


@dataclass(frozen=True)
class _Crossings:
    """What supply lines need of a pack's map, worked out once per pack: each land hex's passable crossings
    (neighbour, hexside, along the highway, Supply Range across it, §12.3, §12.4), the highway's hexes and the
    longest range."""

    sides: Mapping[str, tuple[tuple[str, Hexside, bool, int], ...]]
    highway: frozenset[str]
    cap: int


_CROSSINGS: dict[int, tuple[RommelPack, _Crossings]] = {}


def _crossings(pack: RommelPack) -> _Crossings:
    found = _CROSSINGS.get(id(pack))
    if found is not None and found[0] is pack:
        return found[1]
    hex_map = pack.hex_map
    cap = max(pack.limit(f"supply_range_{k}") for k in ("track", "trail", "none"))
    sides = {
        str(h): tuple(
            (str(there), s, s.has("highway"), _range(pack, s, cap)) for there, s in hex_map.sides(h) if passable(s)
        )
        for h in hex_map.hexes
    }
    highway = frozenset(str(h) for h in hex_map.hexes if any(s.has("highway") for _, s in hex_map.sides(h)))
    made = _Crossings(MappingProxyType(sides), highway, cap)
    if len(_CROSSINGS) >= 8:  # packs loaded in one process: a handful at most
        _CROSSINGS.clear()
    _CROSSINGS[id(pack)] = (pack, made)
    return made


def supply_lines(pack: RommelPack, position: Position, side: Side, source: str | None = None) -> Network:
    """§12.2-§12.6: the supply lines of ``side`` from ``source`` (its Base by default), and so its network."""
    start = base_hex(pack, side) if source is None else source
    crossings = _crossings(pack)
    cap, highway, sides = crossings.cap, crossings.highway, crossings.sides
    # The hex's kind for lines: through (the default: empty and friendly hexes), end (reached, not passed),
    # blocked; only hexes with units can be anything but through, or hold a chain unit.
    state_of: dict[str, str] = {}
    chain: dict[str, bool] = {}
    battles: dict[str, Battle] = {}
    for hex_id in sorted({u.hex for u in position.units}):
        if hex_id not in sides:
            continue
        kind = hex_state(pack, position, side, hex_id)
        # both sides with no battle recorded: Disrupted units side by side (§5.3 sidebar: a Retreating Withdrawal may
        # stop with enemy Disrupted units), which neither block nor hold battle hexsides (§11.1)
        if kind == "battle" and hex_id in position.battles:
            battles[hex_id] = battle(position, hex_id)
            state_of[hex_id] = "through" if battles[hex_id].defender == side else "end"
        elif kind in ("enemy", "battle") and has_enemy(pack, position, side, hex_id, undisrupted=True):
            state_of[hex_id] = "blocked"
        chain[hex_id] = any(side_of(pack, u) == side and not u.disrupted for u in position.at(hex_id))
    own = {u.hex for u in position.units if side_of(pack, u) == side}

    def crossing_ok(here: str, there: str, hexside: Hexside) -> bool:
        if state_of.get(there) == "blocked":
            return False
        return all(battles[h].owner(hexside.id) == side for h in (here, there) if h in battles)

    def expand(state: State, _spent: int) -> Iterable[tuple[State, int]]:
        here, steps, reach, chained = state
        if state_of.get(here) == "end" and here != start:
            return
        for there, hexside, along_highway, across in sides[here]:
            if not crossing_ok(here, there, hexside):
                continue
            if steps == 0 and along_highway:
                yield (there, 0, cap, chain.get(there, False)), 1  # §12.3: along the highway from a point
                continue
            link = min(reach if steps else cap, across)
            walked = steps + 1
            if walked > link:
                continue
            linked = chained if steps else chain.get(here, False)
            ends = state_of.get(there) == "end"
            if not ends and (chain.get(there, False) or (linked and there in highway)):
                yield (there, 0, cap, chain.get(there, False)), 1
            elif walked < link or ends or there in own:
                yield (there, walked, link, linked), 1

    if start not in sides or state_of.get(start) == "blocked":
        return Network(side, start, {}, frozenset(), frozenset(), {})
    nearer: dict[State, list[State]] = {}

    def recorded(state: State, spent: int) -> Iterator[tuple[State, int]]:
        for nxt, cost in expand(state, spent):
            nearer.setdefault(nxt, []).append(state)
            yield nxt, cost

    search = dijkstra([(start, 0, cap, chain.get(start, False))], recorded)
    # A state is on a line if a line goes on from it to a point or to a unit of the side (§12.4: chains do not
    # project into empty desert): walk back from those ends over the recorded steps.
    on_line = {s for s in search.cost if s[1] == 0 or s[0] in own}
    todo = list(on_line)
    while todo:
        for back in nearer.get(todo.pop(), ()):
            if back not in on_line:
                on_line.add(back)
                todo.append(back)
    length: dict[str, int] = {}
    for state in on_line:
        cost = search.cost[state]
        if cost < length.get(state[0], cost + 1):
            length[state[0]] = cost
    lines = {s: tuple(b for b in nearer.get(s, ()) if b in on_line) for s in sorted(on_line)}
    points = frozenset(s[0] for s in on_line if s[1] == 0)
    supplied = frozenset(u.block for u in position.units if side_of(pack, u) == side and u.hex in length)
    return Network(side, start, length, points, supplied, lines)


# --- Fortress and Oasis supply --------------------------------------------------------------------------------


def fortress_isolated(pack: RommelPack, position: Position, side: Side, fortress: str) -> bool:
    """§13.3: whether ``side``'s Fortress ``fortress`` (a place id) has no land supply line to its Base."""
    return pack.place(fortress).hex not in supply_lines(pack, position, side).length


def fortress_lines(pack: RommelPack, position: Position, side: Side, fortress: str) -> Network:
    """§13.3: the supply lines of ``side`` traced to the Fortress ``fortress`` instead of the Base."""
    return supply_lines(pack, position, side, pack.place(fortress).hex)


def check_fortress_supply(
    pack: RommelPack, position: Position, side: Side, fortress: str, blocks: Sequence[str]
) -> Verdict:
    """§13.3: assigning Fortress supply to ``blocks``.

    Refusals: ``13.3 not-a-fortress``, ``13.3 not-friendly`` (the last occupant was the enemy), ``13.3
    not-isolated`` (it has a land line to Base), ``13.3 over-capacity`` (the side's Port Capacity), ``13.3
    no-line`` (a block cannot trace to it), ``13.3 priority`` (units inside first, then the nearest).
    """
    place = pack.place(fortress)
    if place.kind != "fortress" or place.port is None:
        return deny("13.3", "not-a-fortress", f"{fortress} is not a Fortress")
    if position.fortresses.get(fortress) != side:
        return deny("13.3", "not-friendly", f"{fortress} is not a {side} Fortress")
    if not fortress_isolated(pack, position, side, fortress):
        return deny("13.3", "not-isolated", f"{fortress} has a land supply line to Base")
    capacity = place.port.axis if side == "axis" else place.port.allied
    if len(set(blocks)) > capacity:
        return deny("13.3", "over-capacity", f"{fortress} supplies at most {capacity} {side} units")
    lines = fortress_lines(pack, position, side, fortress)

    def rank(block: str) -> int:
        unit = position.unit(block)
        return lines.length[unit.hex] if unit is not None else 0

    for block in blocks:
        if block not in lines.supplied:
            return deny("13.3", "no-line", f"{block} cannot trace a supply line to {fortress}")
    left = [b for b in lines.supplied if b not in blocks]
    if blocks and any(rank(b) < max(rank(c) for c in blocks) for b in left):
        return deny("13.3", "priority", f"units inside {fortress}, then the nearest, come first")
    return ALLOW


def check_oasis_supply(pack: RommelPack, position: Position, side: Side, oasis: str, blocks: Sequence[str]) -> Verdict:
    """§15.1: Oasis supply for ``blocks``: units in the Oasis only, in a friendly Oasis (in an Oasis battle only
    the Defender), at most the pack's ``oasis_supply_units``.

    Refusals: ``15.1 not-an-oasis``, ``15.1 over-capacity``, ``15.1 not-in-oasis``, ``15.1 not-friendly``.
    """
    place = pack.place(oasis)
    if place.kind != "oasis":
        return deny("15.1", "not-an-oasis", f"{oasis} is not an Oasis")
    if len(set(blocks)) > pack.limit("oasis_supply_units"):
        return deny("15.1", "over-capacity", f"an Oasis supplies {pack.limit('oasis_supply_units')} unit")
    for block in blocks:
        unit = position.unit(block)
        if unit is None or unit.hex != place.hex:
            return deny("15.1", "not-in-oasis", f"{block} is not in {oasis}")
    state = hex_state(pack, position, side, place.hex)
    contested = state == "battle" and place.hex in position.battles and battle(position, place.hex).defender != side
    if state == "enemy" or contested:
        return deny("15.1", "not-friendly", f"{oasis} is not a friendly Oasis (or {side} is not its Defender)")
    return ALLOW


# --- Withdrawal Moves -----------------------------------------------------------------------------------------


def check_withdrawal(
    pack: RommelPack,
    position: Position,
    side: Side,
    paths: Mapping[str, Sequence[str]],
    fortress_supplied: Mapping[str, str] = MappingProxyType({}),
) -> Verdict:
    """§5.3: whether moving ``paths`` (each block's hexes, its own first) is a Withdrawal Move.

    The four conditions: (1) every mover has a supply line as the move begins (``5.3 no-supply-line``); (2) each
    hex entered is on the network and shortens the mover's line (``5.3 not-along-supply-line``); (3) the Supply
    Network loses at least one hex (``5.3 network-not-reduced``); (4) no step takes a unit physically further
    from the Base in hexes (``5.3 away-from-base``), except that the Axis may follow the highway between Bardia and
    Ft. Capuzzo (sidebar). Withdrawing units do not Engage undisrupted enemy units (``5.3 engages``).
    ``fortress_supplied`` maps a block assigned Fortress supply to its Fortress (a place id): its line, its
    "source" and its direction are the Fortress's (§5.3 and §13.3 sidebars).

    Unit speeds, hexsides and group shape are :mod:`pbem.games.rommel.board`'s checks.
    """
    # RULING (notes §10.11, §10.12): the network is every hex of every valid line (the highway stretches, every hex
    # of every chain link, the supplied units' hexes), with the lines to the Fortresses in ``fortress_supplied``.
    # "Along one of its own lines, each hex entered shortening it": the path, read from its end, is the tail of one
    # line from the source to the unit. "Reduced" compares the number of network hexes before and after.
    sources = sorted(set(fortress_supplied.values()))

    def networks(where: Position) -> tuple[Network, dict[str, Network]]:
        return supply_lines(pack, where, side), {f: fortress_lines(pack, where, side, f) for f in sources}

    base_lines, fortress_nets = networks(position)
    jog = {pack.place(p).hex for p in HIGHWAY_JOG}
    distance = pack.hex_map.distance
    for block in sorted(paths):
        path = paths[block]
        lines = fortress_nets[fortress_supplied[block]] if block in fortress_supplied else base_lines
        source = HexId(lines.source)
        if block not in lines.supplied:
            return deny("5.3", "no-supply-line", f"{block} has no supply line as the Withdrawal begins")
        if len(set(path)) != len(path):
            return deny("5.3", "not-along-supply-line", f"{block} enters a hex twice")
        for here, there in pairwise(path):
            if has_enemy(pack, position, side, there, undisrupted=True):
                return deny("5.3", "engages", f"{block} would Engage in {there} while withdrawing")
            hexside = pack.hex_map.hexside(HexId(here), HexId(there))
            along_jog = (
                side == "axis"
                and lines is base_lines
                and {here, there} == jog
                and hexside is not None
                and hexside.has("highway")
            )
            if distance(HexId(there), source) > distance(HexId(here), source) and not along_jog:
                return deny("5.3", "away-from-base", f"{block}: {there} is further from its source than {here}")
        if not lines.follows(path):
            return deny("5.3", "not-along-supply-line", f"{block}: {'-'.join(path)} is not back along its own line")
    moved = position.moved(paths)
    after_lines, after_forts = networks(moved)

    def size(base: Network, forts: Mapping[str, Network]) -> int:
        return len(base.hexes.union(*(n.hexes for n in forts.values())))

    if size(after_lines, after_forts) >= size(base_lines, fortress_nets):
        return deny("5.3", "network-not-reduced", "a Withdrawal must reduce the Supply Network by a hex")
    return ALLOW
