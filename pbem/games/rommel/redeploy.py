"""Buildup movement (§16.51-§16.53): land Redeployment, Sea Redeployment between Ports, and Return for Refit.

Each side's Supply Network is traced once, at the Buildup Supply Check, and stays frozen for the whole Buildup
(§16.2; §16.51 sidebar: a Redeployment that extends the network does not widen it this Buildup). It is every hex of
the lines to the Base and to the side's isolated Fortresses (§12.6, notes §10.11). Everything here depends on public
facts (positions, battles, Fortress control), so every replay judges alike; only the BP balance is hidden (a
replay that cannot see it allows the spending, as for Replacements).

* Redeployment (§16.51): one unit, up to the pack's ``redeployment_hexes`` plus the road bonus of a path wholly on
  one kind of road (no Rommel bonus), for ``bp_redeployment`` BP, as often as BP allow; every hex inside the
  friendly network and outside the enemy's, never into or through a battle hex; out of one only if a friendly unit
  stays (not a Disengagement). Disrupted units do not Redeploy (§11.1).
* Sea Redeployment (§16.53): between two controlled Ports (the Bases and friendly Fortresses), ``bp_sea_redeployment``
  BP; if either is besieged (§13.5) the Allies pay ``bp_sea_redeployment_besieged_allied`` and the Axis may not;
  never between two besieged Ports; a Fortress embarks and debarks at most its Port Capacity each Buildup.
* Return for Refit (§16.52): an undisrupted unit with an overland route to its Base inside the friendly network
  leaves the map face down at no cost; it comes back upright in its Base at the start of the next Buildup (notes
  §10.30: just after Advance Month) and takes no other part in this one.
"""

from __future__ import annotations

from collections import deque

from pbem.games.rommel.board import ROADS, passable
from pbem.games.rommel.ledger import afford, counted, spend
from pbem.games.rommel.moves import SEARCHES_KEEP, settled
from pbem.games.rommel.offboard import arrive
from pbem.games.rommel.state import SIDES, RommelState, Side, other
from pbem.games.rommel.supply import base_hex, fortress_isolated, fortress_lines, supply_lines
from pbem.kit.graph import Cost, StepCost
from pbem.kit.hexes import HexId, Hexside
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "besieged",
    "freeze_networks",
    "network",
    "port_of",
    "ports",
    "redeploy_reach",
    "redeploy_verdict",
    "redeployed",
    "refit_verdict",
    "refitted",
    "return_refitted",
    "sea_cost",
    "sea_redeployed",
    "sea_verdict",
]


def freeze_networks(state: RommelState) -> RommelState:
    """§16.2: each side's Supply Network as the Buildup begins (its Base's lines and its isolated Fortresses')."""
    pack = state.pack
    position = state.position()
    networks: dict[str, tuple[str, ...]] = {}
    for side in SIDES:
        hexes = set(supply_lines(pack, position, side).hexes)
        for place in pack.map.places:
            friendly = place.kind == "fortress" and state.fortresses.get(place.id) == side
            if friendly and fortress_isolated(pack, position, side, place.id):
                hexes |= fortress_lines(pack, position, side, place.id).hexes
        networks[side] = tuple(sorted(hexes))
    return state.model_copy(update={"networks": networks, "port_use": {}})


def network(state: RommelState, side: Side) -> frozenset[str]:
    """``side``'s Supply Network frozen at the start of this Buildup."""
    return frozenset(state.networks.get(side, ()))


def _open_hexes(state: RommelState, side: Side) -> frozenset[str]:
    """Where a Redeploying unit may be: in the friendly network, not the enemy's, not a battle hex nor an enemy
    hex (§16.51)."""
    enemy = {state.tokens[t].hex for t in state.on_map(other(side))}
    return network(state, side) - network(state, other(side)) - set(state.battles) - enemy


def redeploy_reach(state: RommelState, side: Side, token: str) -> frozenset[str]:
    """§16.51: the hexes one Redeployment takes ``token`` to: the pack's hexes, or more along one kind of road (the
    road bonus of a path wholly on it)."""
    pack = state.pack
    here = state.tokens[token].hex
    if here is None:
        return frozenset()
    allowed = _open_hexes(state, side)
    key = ("redeploy", here, allowed)
    known = pack.move_searches.get(key)
    if known is not None:  # every candidate of a listing asks again
        return known
    hexes = pack.limit("redeployment_hexes")

    def step(a: HexId, b: HexId, side_: Hexside) -> StepCost:
        return Cost(1) if passable(side_) and b in allowed else None

    found = set(pack.hex_map.reach(HexId(here), hexes, step).spent)
    for rank, kind in enumerate(ROADS):
        kinds = ROADS[: rank + 1]
        bonus = pack.limit(f"road_bonus_{kind}")

        def on_road(a: HexId, b: HexId, side_: Hexside, kinds: tuple[str, ...] = kinds) -> StepCost:
            return step(a, b, side_) if side_.has(*kinds) else None

        found |= set(pack.hex_map.reach(HexId(here), hexes + bonus, on_road).spent)
    found.discard(here)
    if len(pack.move_searches) >= SEARCHES_KEEP:
        pack.move_searches.clear()
    reach = pack.move_searches[key] = frozenset(found)
    return reach


def _movable(state: RommelState, side: Side, token: str, rule: str) -> Verdict:
    """A unit of ``side`` on the map, undisrupted (§11.1), in the friendly network, leaving any battle with a
    friendly unit behind (§16.51)."""
    tok = state.tokens.get(token)
    if tok is None or tok.side != side or tok.status != "map" or tok.hex is None:
        return deny(rule, "not-own-unit", f"{token} is not a {side} unit on the map")
    if tok.disrupted:
        return deny("11.1", "disrupted", f"{token} is Disrupted and cannot Redeploy")
    if tok.hex not in network(state, side):
        return deny(rule, "outside-network", f"{token} is outside the {side} Supply Network")
    if tok.hex in state.battles and not any(state.tokens[t].side == side for t in state.at(tok.hex) if t != token):
        return deny("16.51", "last-in-battle", f"{token} may leave its battle only if a friendly unit stays")
    return ALLOW


def redeploy_verdict(state: RommelState, side: Side, token: str, to: str) -> Verdict:
    """§16.51: one Redeployment of ``token`` to ``to``."""
    verdict = _movable(state, side, token, "16.51")
    if not verdict.ok:
        return verdict
    if to not in redeploy_reach(state, side, token):
        return deny("16.51", "out-of-reach", f"{token} cannot Redeploy to {to} inside the friendly network")
    return afford(state, side, state.pack.limit("bp_redeployment"))


def _moved(state: RommelState, token: str, to: str | None, status: str = "map") -> RommelState:
    tokens = {**state.tokens, token: state.tokens[token].model_copy(update={"hex": to, "status": status})}
    return state.model_copy(update={"tokens": tokens, "battles": settled(tokens, dict(state.battles))})


def redeployed(state: RommelState, side: Side, token: str, to: str) -> RommelState:
    """The state after one (land) Redeployment: the unit moved, its BP spent."""
    cost = state.pack.limit("bp_redeployment")
    return counted(spend(_moved(state, token, to), side, cost), side, "redeployments", cost)


# --- Sea Redeployment ------------------------------------------------------------------------------------------


def ports(state: RommelState, side: Side) -> dict[str, str]:
    """§16.53: ``side``'s Ports by hex: its Base and the Fortresses it controls (§13.1), as place ids."""
    found = {
        base_hex(state.pack, side): next(p.id for p in state.pack.map.places if p.kind == "base" and p.side == side)
    }
    for place in state.pack.map.places:
        if place.kind == "fortress" and state.fortresses.get(place.id) == side:
            found[place.hex] = place.id
    return found


def port_of(state: RommelState, side: Side, hex_id: str | None) -> str | None:
    """The place id of ``side``'s Port in ``hex_id``, if any."""
    return ports(state, side).get(hex_id or "")


def besieged(state: RommelState, side: Side, hex_id: str) -> bool:
    """§13.5: a hex next to ``hex_id`` holds enemy units (an enemy or battle hex)."""
    enemy = other(side)
    return any(state.tokens[t].side == enemy for n in state.pack.hex_map.neighbours(HexId(hex_id)) for t in state.at(n))


def sea_cost(state: RommelState, side: Side, src: str, dst: str) -> int | None:
    """§16.53: the BP of a Sea Redeployment from ``src`` to ``dst`` (hexes), None where it is not allowed."""
    sieges = [besieged(state, side, h) for h in (src, dst)]
    if all(sieges):
        return None
    if any(sieges):
        return None if side == "axis" else state.pack.limit("bp_sea_redeployment_besieged_allied")
    return state.pack.limit("bp_sea_redeployment")


def _capacity_left(state: RommelState, side: Side, place_id: str) -> int | None:
    """A Fortress's embarkations and debarkations left this Buildup (None: a Base, unlimited)."""
    place = state.pack.place(place_id)
    if place.port is None:
        return None
    capacity = place.port.axis if side == "axis" else place.port.allied
    return capacity - state.port_use.get(f"{side}/{place_id}", 0)


def sea_verdict(state: RommelState, side: Side, token: str, to: str) -> Verdict:
    """§16.53: ``token`` by sea from its Port to the Port ``to``."""
    verdict = _movable(state, side, token, "16.53")
    if not verdict.ok:
        return verdict
    here = state.tokens[token].hex
    assert here is not None
    src, dst = port_of(state, side, here), port_of(state, side, to)
    if src is None or dst is None or src == dst:
        return deny("16.53", "not-a-port", "a Sea Redeployment runs between two different controlled Ports")
    if to in state.battles or any(state.tokens[t].side != side for t in state.at(to)):
        return deny("16.51", "into-battle", f"{to} holds enemy units")
    cost = sea_cost(state, side, here, to)
    if cost is None:
        return deny("16.53", "besieged", "no Sea Redeployment between besieged Ports, nor for the Axis to or from one")
    for place_id in (src, dst):
        left = _capacity_left(state, side, place_id)
        if left is not None and left < 1:
            return deny("16.53", "port-capacity", f"{place_id} has used its Port Capacity this Buildup")
    return afford(state, side, cost)


def sea_redeployed(state: RommelState, side: Side, token: str, to: str) -> RommelState:
    """The state after a Sea Redeployment: the unit in the other Port, the Ports' capacity used, BP spent."""
    here = state.tokens[token].hex
    assert here is not None
    cost = sea_cost(state, side, here, to)
    assert cost is not None
    use = dict(state.port_use)
    for place_id in (port_of(state, side, here), port_of(state, side, to)):
        assert place_id is not None
        if state.pack.place(place_id).port is not None:
            use[f"{side}/{place_id}"] = use.get(f"{side}/{place_id}", 0) + 1
    state = _moved(state, token, to).model_copy(update={"port_use": use})
    return counted(spend(state, side, cost), side, "sea_redeployments", cost)


# --- Return for Refit ------------------------------------------------------------------------------------------


def _overland(state: RommelState, side: Side, start: str) -> bool:
    """§16.52: an overland route from ``start`` to the Base inside the friendly network (no battle hex on the way)."""
    allowed = _open_hexes(state, side) | {start}
    goal = base_hex(state.pack, side)
    seen = {start}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        if here == goal:
            return True
        for there, hexside in state.pack.hex_map.sides(HexId(here)):
            if there not in seen and there in allowed and passable(hexside):
                seen.add(there)
                todo.append(there)
    return False


def refit_verdict(state: RommelState, side: Side, token: str) -> Verdict:
    """§16.52: an undisrupted unit with an overland route to Base inside the friendly network."""
    verdict = _movable(state, side, token, "16.52")
    if not verdict.ok:
        return verdict
    here = state.tokens[token].hex
    assert here is not None
    if not _overland(state, side, here):
        return deny("16.52", "no-route", f"{token} has no overland route to its Base inside the Supply Network")
    return afford(state, side, state.pack.limit("bp_refit"))


def refitted(state: RommelState, side: Side, token: str) -> RommelState:
    """The unit off the map, face down, until the next Buildup (§16.52)."""
    return spend(_moved(state, token, None, "refit"), side, state.pack.limit("bp_refit"))


def return_refitted(state: RommelState) -> tuple[RommelState, list[str]]:
    """§16.52, notes §10.30: at the start of a Buildup, refitted units come back upright in their Base (or wait in the
    off-board box while it is engaged: "treat as for Reinforcements")."""
    tokens = dict(state.tokens)
    back: list[str] = []
    for token, tok in sorted(tokens.items()):
        if tok.status == "refit":
            tokens[token] = arrive(state, tok.model_copy(update={"disrupted": False, "unsupplied": False}))
            back.append(token)
    return state.model_copy(update={"tokens": tokens}), back
