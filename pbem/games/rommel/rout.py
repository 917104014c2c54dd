"""Routs (§11.3) and Overruns (§11.4): Disrupted units left in a battle hex without an undisrupted friendly unit to
shield them (§11.11).

:func:`begin` finds every such group (the library's :func:`~pbem.games.rommel.battle.routed`: only undisrupted
enemy units rout them; Disrupted units of both sides alone in a hex coexist, §5.3 sidebar) and puts its Rout on the
stack, in the rules' order: Rout Attrition (``attrition``: one step each, §11.3), Pursuit Fire by the enemy's
undisrupted units that have not fired (:mod:`pbem.games.rommel.pursuit`, §10.5 and its sidebar), then the
Withdrawal Group Move (:mod:`pbem.games.rommel.withdrawal`), after which they are Disrupted again. It runs when a
Move ends (a Full Retreat's Disrupted units left behind, §10.3 step 4; an Overrun: units entered a hex of unshielded
Disrupted enemy units, §11.4), when losses are taken in combat (the last shielding unit eliminated, §11.11), and
when a Withdrawal ends (a group Refused Battle, leaving its Disrupted units, §10.2 step 4), at the Final Supply
Check, before the cards are revealed (units it Disrupted, §12.7: without a Supply Line they cannot withdraw, so the
Withdrawal eliminates them, §12.7 sidebar), and as a Player-Turn begins (a unit recovered beside enemy Disrupted
units, notes §10.18).

RULING (§11.4): the Rout of an Overrun is resolved as its Move ends, so every unit of that Move that entered the hex
pursues; units of the Move cannot pass through the hex before the Rout is resolved.

Attrition on hidden blocks: which units the lost step eliminates is public (``eliminated``); the CVs change in
secret, and every CV slot of the group gets a new version (notes §7.2.1). A replay that sees the group checks the
eliminations exactly; one that cannot, only that they are routed units.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from itertools import combinations

from pbem.games.rommel import battle
from pbem.games.rommel.moves import i_tanks, known_block, settled
from pbem.games.rommel.present import SIDE_NAMES, hex_label, public_label
from pbem.games.rommel.pursuit import pursuers_of
from pbem.games.rommel.state import SIDES, Pursuit, RommelState, Side, Withdrawal, cv_slot, other
from pbem.kit.machine import push, replace_top
from pbem.rules.contract import ALLOW, Event, Verdict, deny
from pbem.text import plural

__all__ = ["attrited", "attrition_candidates", "attrition_verdict", "begin", "march_losses", "unshielded"]


def unshielded(state: RommelState, among: Collection[str] | None = None) -> list[tuple[str, Side]]:
    """Every (hex, side) whose Disrupted units there are unshielded facing undisrupted enemy units (§11.11), except
    those whose Rout is already under way; with ``among``, only the groups holding one of those units."""
    routing = {(p.hex, p.seat) for p in state.pending if isinstance(p, Withdrawal) and p.cause == "rout"}
    by_hex: dict[str, list[str]] = {}  # one pass over the tokens: this runs after every Move and Withdrawal
    for token, tok in state.tokens.items():
        if tok.status == "map" and tok.hex is not None:
            by_hex.setdefault(tok.hex, []).append(token)
    found: list[tuple[str, Side]] = []
    for hex_id in sorted(by_hex):
        here = by_hex[hex_id]
        if len({state.tokens[t].side for t in here}) < 2:
            continue
        for side in SIDES:
            own = [t for t in here if state.tokens[t].side == side]
            shield = any(not state.tokens[t].disrupted for t in own)
            enemy = any(state.tokens[t].side != side and not state.tokens[t].disrupted for t in here)
            named = among is None or any(t in among for t in own)
            if own and not shield and enemy and named and (hex_id, side) not in routing:
                found.append((hex_id, side))
    return found


def begin(
    state: RommelState, fired: Iterable[str] = (), among: Collection[str] | None = None
) -> tuple[RommelState, list[Event]]:
    """Put every Rout due now on the stack (the first hex decided first): its Withdrawal, beneath its Attrition and
    Pursuit Fire; ``among``: only the groups holding one of those units (the Final Supply Check's newly Disrupted,
    §12.7)."""
    events = []
    spent = tuple(fired)
    found = unshielded(state, among)
    for hex_id, side in reversed(found):
        group = tuple(t for t in state.at(hex_id) if state.tokens[t].side == side)
        pursuers = pursuers_of(state, hex_id, other(side), spent)
        withdrawal = Withdrawal(seat=side, hex=hex_id, group=group, cause="rout")
        item = Pursuit(
            seat=side, hex=hex_id, retreating=side, group=group, pursuers=pursuers, cause="rout", awaiting="attrition"
        )
        state = push(state, withdrawal, item)
    for hex_id, side in found:
        overrun = state.turn.stage == "movement" and side != state.active
        kind, rule = ("overrun", "11.4") if overrun else ("routed", "11.3")
        units = [t for t in state.at(hex_id) if state.tokens[t].side == side]
        text = f"{SIDE_NAMES[side]} {kind} at {hex_label(state.pack, hex_id)}: {plural(len(units), 'block')}"
        events.append(Event(kind=kind, seat=side, rule=rule, data={"location": hex_id, "units": units}, text=text))
    return state, events


def _units(state: RommelState, group: Sequence[str]) -> dict[str, battle.BattleUnit] | None:
    found = {}
    for token in group:
        block = known_block(state, token)
        cv = state.hidden.get(cv_slot(token))
        if block is None or cv is None or not cv.known or not isinstance(cv.value, int):
            return None
        if not battle.check_strength(state.pack, block, cv.value, i_tanks=i_tanks(state)).ok:
            return None
        found[token] = battle.battle_unit(state.pack, block, cv.value, i_tanks=i_tanks(state))
    return found


def _live(state: RommelState, item: Pursuit) -> tuple[str, ...]:
    return tuple(t for t in item.group if state.tokens[t].status == "map")


def attrition_candidates(state: RommelState, item: Pursuit) -> list[list[str]]:
    """The units the lost step may eliminate: exactly those at their last step where this replay sees the group,
    else any of them."""
    if item.awaiting != "attrition":
        return []
    group = _live(state, item)
    units = _units(state, group)
    if units is None:
        return [list(c) for k in range(len(group) + 1) for c in combinations(group, k)]
    return [sorted(t for t, u in units.items() if battle.rout_attrition(state.pack, u) is None)]


def _rule(item: Pursuit) -> str:
    """Why the group loses a step: a Rout (§11.3), or a failed Forced March on a Retreat (§6.4 sidebar)."""
    return "6.4" if item.cause == "march" else "11.3"


def attrition_verdict(state: RommelState, item: Pursuit, eliminated: Sequence[str]) -> Verdict:
    """§11.3 (§6.4 sidebar): each unit loses one step; the report names exactly the units that eliminates."""
    if item.awaiting != "attrition":
        return deny("11.3", "no-attrition-due", "no Rout Attrition is due now")
    if list(eliminated) not in attrition_candidates(state, item):
        return deny(
            _rule(item), "attrition-misreported", "the lost step eliminates exactly the units at their last step"
        )
    return ALLOW


def attrited(state: RommelState, item: Pursuit, eliminated: Sequence[str]) -> tuple[RommelState, list[Event]]:
    """A step off each routed unit (in secret where the group is hidden); then Pursuit Fire, if anyone pursues."""
    group = _live(state, item)
    units = _units(state, group)
    tokens = dict(state.tokens)
    rule = _rule(item)
    kind = "march_attrition" if item.cause == "march" else "rout_attrition"
    events = [Event(kind=kind, seat=item.retreating, rule=rule, data={"eliminated": list(eliminated)})]
    for token in group:
        if units is not None:
            after = battle.rout_attrition(state.pack, units[token])
            state = state.with_hidden(cv_slot(token), item.retreating, 0 if after is None else after.cv, known=True)
        else:
            state = state.with_hidden(cv_slot(token), item.retreating, None, known=False)
        if token in eliminated:
            why = "a failed Retreat Forced March" if item.cause == "march" else "Rout attrition"
            text = f"{public_label(state, token)} eliminated by {why}"
            tokens[token] = tokens[token].model_copy(update={"status": "eliminated", "hex": None})
            data = {"unit": token}
            events.append(Event(kind="unit_eliminated", seat=item.retreating, rule=rule, data=data, text=text))
    state = state.model_copy(update={"tokens": tokens, "battles": settled(tokens, dict(state.battles))})
    survivors = tuple(t for t in group if t not in eliminated)
    if item.cause == "march":  # notes §10.10: a Regroup mover back in its battle hex Routs if unshielded
        state, routs = begin(replace_top(state, None))
        return state, [*events, *routs]
    if not survivors or not item.pursuers:
        return replace_top(state, None), events
    return replace_top(state, item.model_copy(update={"awaiting": "slowest", "group": survivors})), events


def march_losses(state: RommelState, side: Side, failed: Sequence[str]) -> RommelState:
    """§6.4 sidebar: each of ``failed`` (units that failed a Forced March on a Retreat: they Disengaged this turn)
    loses one step besides the Disruption, reported by its owner like a Rout's Attrition (the CV in secret, an
    elimination public); the first unit's report first."""
    for token in reversed(failed):
        where = state.tokens[token].hex
        assert where is not None
        item = Pursuit(
            seat=side, hex=where, retreating=side, group=(token,), pursuers=(), cause="march", awaiting="attrition"
        )
        state = push(state, item)
    return state
