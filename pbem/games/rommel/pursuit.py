"""Pursuit Fire (§10.5) on the machine's stack: the retreating owner's announcement, the pursuer's dice, the
owner's hidden losses.

A :class:`~pbem.games.rommel.state.Pursuit` goes on the stack when a group Retreats (a Full Retreat as its Move
ends, §10.3; a group Refusing Battle, §10.2; routed units, §11.3) and undisrupted enemy units that have not fired
stand in the (former) battle hex. Its three decisions:

1. ``slowest`` (the retreating owner): the speed of the slowest retreating unit. While the group is hidden from the
   replaying party any speed up to the fastest is accepted and the announcement is recorded as a public
   ``slowest`` claim (:class:`~pbem.games.rommel.state.Claim`) for the audit.
2. ``pursue`` (the pursuer): how many dice. One per equally fast pursuer, two per faster one, any of them may hold
   its fire (Pursuit Deception): the library's :func:`~pbem.games.rommel.battle.pursuit_dice_counts`. While the
   pursuers are hidden, every count some speeds could give is accepted and recorded as a ``pursuit`` claim.
3. ``pursuit_losses`` (the retreating owner): the hits on the group, exactly a legal allocation (§9.5, the
   library's :func:`~pbem.games.rommel.battle.check_losses`). The CVs lost are a secret field (the group is not
   revealed, §10.2); the eliminations are public. Every CV slot of the group gets a new version, changed or not, so
   the commitments leak no more than the table does (notes §7.2.1). A replay that cannot see the group checks only
   that the eliminated blocks are retreating units and no more than the hits; the owner's and the full-disclosure
   replays check the allocation exactly.

Every finite candidate set here can be listed by a replay that cannot see the hidden values (speeds 1 to the
fastest; dice 0 to two per pursuer; the subsets of the group that the hits could eliminate).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Literal

from pbem.games.rommel import battle
from pbem.games.rommel.moves import i_tanks, known_block, max_speed, settled, speed_of
from pbem.games.rommel.present import hex_label, public_label, public_labels
from pbem.games.rommel.state import Claim, Pursuit, RommelState, Side, cv_slot, other
from pbem.kit.machine import pop, push, replace_top
from pbem.rules.contract import ALLOW, Event, RollRequest, RollSpec, Verdict, deny
from pbem.text import plural

__all__ = [
    "announced",
    "dice_candidates",
    "dice_verdict",
    "full_retreats",
    "loss_slot",
    "losses_candidates",
    "losses_verdict",
    "pursued",
    "pursuers_of",
    "rolled",
    "slowest_candidates",
    "slowest_verdict",
    "start",
    "took_losses",
]


def loss_slot(side: str) -> str:
    """The hidden slot holding ``side``'s last secret report of losses on a hidden group (its secret field)."""
    return f"losses/{side}"


def pursuers_of(state: RommelState, hex_id: str, pursuer: Side, fired: Iterable[str] = ()) -> tuple[str, ...]:
    """``pursuer``'s undisrupted units in ``hex_id`` that have not fired (§10.5; §10.3 sidebar: in a Combat phase
    only unfired units pursue)."""
    spent = set(fired)
    return tuple(
        t
        for t in state.at(hex_id)
        if state.tokens[t].side == pursuer and not state.tokens[t].disrupted and t not in spent
    )


def start(
    state: RommelState,
    hex_id: str,
    retreating: Side,
    group: Sequence[str],
    cause: Literal["retreat", "refuse", "rout", "probe"],
    fired: Iterable[str] = (),
) -> tuple[RommelState, list[Event]]:
    """Put the Pursuit Fire of ``group`` (``retreating``'s units leaving ``hex_id``) on the stack, if any enemy unit
    there may pursue it (with none, there is nothing to announce)."""
    pursuers = pursuers_of(state, hex_id, other(retreating), fired)
    group = tuple(t for t in group if state.tokens[t].status == "map")
    if not pursuers or not group:
        return state, []
    item = Pursuit(seat=retreating, hex=hex_id, retreating=retreating, group=group, pursuers=pursuers, cause=cause)
    data = {"location": hex_id, "units": list(group), "pursuers": list(pursuers), "cause": cause}
    text = f"Pursuit Fire at {hex_label(state.pack, hex_id)} on {public_labels(state, group)}"
    return push(state, item), [Event(kind="pursuit_begun", seat=retreating, rule="10.5", data=data, text=text)]


def full_retreats(state: RommelState, movers: Iterable[str]) -> list[tuple[str, tuple[str, ...]]]:
    """§10.3: the battles ``movers`` (the units of a Move just ended) made a Full Retreat from: some disengaged from
    the hex and no undisrupted unit of the Active Player stays there (Disrupted ones left behind Rout, step 4), with
    the retreating units of each (RULING: the Retreat is announced and pursued as its Move ends, once its units
    have moved: the Pursuit Fire hits them where they stand, as it would before they left)."""
    turn = state.turn
    by_hex: dict[str, list[str]] = {}
    for token in movers:
        if turn.disengaged.get(token, False) and token in turn.paths and state.tokens[token].status == "map":
            by_hex.setdefault(turn.paths[token][0], []).append(token)
    found = []
    for hex_id in sorted(by_hex):
        here = state.at(hex_id)
        stays = any(state.tokens[t].side == state.active and not state.tokens[t].disrupted for t in here)
        if not stays and any(state.tokens[t].side != state.active for t in here):
            found.append((hex_id, tuple(sorted(by_hex[hex_id]))))
    return found


# --- 1. the slowest speed -------------------------------------------------------------------------------------


def _speeds(state: RommelState, tokens: Sequence[str]) -> list[int | None]:
    return [speed_of(state, t) for t in tokens]


def slowest_candidates(state: RommelState, item: Pursuit) -> list[int]:
    """The speeds the owner may announce: the true slowest where this replay sees the whole group, else any speed up
    to the slowest it does see (or the fastest of any unit)."""
    speeds = _speeds(state, item.group)
    known = [s for s in speeds if s is not None]
    if len(known) == len(speeds):
        return [min(known)]
    return list(range(1, min(known, default=max_speed(state)) + 1))


def slowest_verdict(state: RommelState, item: Pursuit, speed: int) -> Verdict:
    """§10.5: the announced speed is the slowest retreating unit's (as far as this replay can see)."""
    if item.awaiting != "slowest":
        return deny("10.5", "not-announcing", "the slowest retreating speed is not due now")
    if speed not in slowest_candidates(state, item):
        return deny("10.5", "slowest-speed-misreported", f"the slowest retreating unit does not have speed {speed}")
    return ALLOW


def announced(state: RommelState, item: Pursuit, speed: int) -> tuple[RommelState, list[Event]]:
    """The speed is public, and the owner's claim; the pursuer says how many dice next."""
    claim = Claim(
        act=state.acts, seat=item.retreating, token=item.group[0], kind="slowest", value=speed, rule="10.5",
        group=item.group,
    )  # fmt: skip
    pursuer = other(item.retreating)
    state = state.model_copy(update={"claims": (*state.claims, claim)})
    update = {"awaiting": "dice", "slowest": speed, "seat": pursuer, "before": _earlier(state, item)}
    state = replace_top(state, item.model_copy(update=update))
    data = {"location": item.hex, "speed": speed}
    return state, [Event(kind="slowest_announced", seat=item.retreating, rule="10.5", data=data)]


# --- 2. the pursuit dice ----------------------------------------------------------------------------------------


def _earlier(state: RommelState, item: Pursuit) -> tuple[tuple[int, int], ...]:
    """The Pursuit Fires from ``item``'s hex by the same side this turn, before it."""
    return state.turn.pursued.get(f"{item.hex}/{other(item.retreating)}", ())


def dice_candidates(state: RommelState, item: Pursuit) -> list[int]:
    """The numbers of dice the pursuer may roll against the announced speed (§10.5, Pursuit Deception): exactly the
    library's counts where this replay sees every pursuer, less the units the earlier Pursuit Fires from the hex this
    turn needed (a unit fires once); a hidden pursuer may add none, one or two to any one of them."""
    pack = state.pack
    speeds = [s for s, _ in item.before] + [item.slowest]
    most = max(pack.limit("pursuit_dice_faster"), pack.limit("pursuit_dice_equal"))
    splits = {(0,) * len(speeds)}
    for token in item.pursuers:
        block = known_block(state, token)
        options: list[Sequence[int]]
        if block is None:
            options = [range(most + 1)] * len(speeds)
        else:
            unit = battle.battle_unit(pack, block, i_tanks=i_tanks(state))
            options = [[battle.pursuit_dice(pack, speed, [unit])] for speed in speeds]
        grown = set(splits)
        for k, dice in enumerate(options):
            grown |= {(*s[:k], s[k] + d, *s[k + 1 :]) for s in splits for d in dice}
        splits = grown
    earlier = tuple(d for _, d in item.before)
    return sorted({s[-1] for s in splits if s[:-1] == earlier})


def dice_verdict(state: RommelState, item: Pursuit, dice: int) -> Verdict:
    """§10.5: some of the eligible pursuers roll exactly ``dice`` against the announced speed."""
    if item.awaiting != "dice":
        return deny("10.5", "not-pursuing", "no Pursuit Fire is due now")
    if dice not in dice_candidates(state, item):
        return deny("10.5", "pursuit-dice-miscounted", f"the pursuers cannot roll {dice} dice at speed {item.slowest}")
    return ALLOW


def pursued(state: RommelState, item: Pursuit, dice: int) -> tuple[RommelState, list[Event]]:
    """The count is public, and the pursuer's claim; the dice are rolled (none: the pursuit is over)."""
    claim = Claim(
        act=state.acts, seat=other(item.retreating), token=item.pursuers[0], kind="pursuit", value=dice,
        rule="10.5", group=item.pursuers, against=item.slowest, before=item.before,
    )  # fmt: skip
    key = f"{item.hex}/{other(item.retreating)}"
    pursued = {**state.turn.pursued, key: (*item.before, (item.slowest, dice))}
    turn = state.turn.model_copy(update={"pursued": pursued})
    state = state.model_copy(update={"claims": (*state.claims, claim), "turn": turn})
    data = {"location": item.hex, "dice": dice}
    events = [Event(kind="pursuit_fire", seat=other(item.retreating), rule="10.5", data=data)]
    if not dice:
        return pop(state), events
    spec = RollSpec(id="pursuit", sides=6, n=dice, purpose=f"Pursuit Fire at {item.hex}")
    return state.with_rolls(RollRequest(rolls=(spec,))), events


def rolled(state: RommelState, item: Pursuit, rolls: Sequence[int]) -> tuple[RommelState, list[Event]]:
    """§10.5: a hit per 4-6; the owner allocates them next (none: the pursuit is over)."""
    hits = battle.pursuit_hits(state.pack, rolls)
    data = {"location": item.hex, "dice": list(rolls), "hits": hits}
    text = f"Pursuit Fire at {hex_label(state.pack, item.hex)}: dice {' '.join(map(str, rolls))}, {plural(hits, 'hit')}"
    events = [Event(kind="pursuit_hits", seat=other(item.retreating), rule="10.5", data=data, text=text)]
    if not hits:
        return pop(state), events
    update = {"awaiting": "losses", "hits": hits, "seat": item.retreating}
    return replace_top(state, item.model_copy(update=update)), events


# --- 3. the losses ----------------------------------------------------------------------------------------------


def _units(state: RommelState, item: Pursuit) -> dict[str, battle.BattleUnit] | None:
    """The retreating units at their current strengths by token, or None where this replay cannot see them all."""
    found = {}
    for token in item.group:
        block = known_block(state, token)
        cv = state.hidden.get(cv_slot(token))
        if block is None or cv is None or not cv.known or not isinstance(cv.value, int):
            return None
        if not battle.check_strength(state.pack, block, cv.value, i_tanks=i_tanks(state)).ok:
            return None  # an impossible strength: the audit names it (§2.3)
        found[token] = battle.battle_unit(state.pack, block, cv.value, i_tanks=i_tanks(state))
    return found


def _eliminated(units: Mapping[str, battle.BattleUnit], losses: Mapping[str, int]) -> list[str]:
    return sorted(t for t, cv in losses.items() if cv and units[t].cv - cv < units[t].cv_min)


def losses_candidates(state: RommelState, item: Pursuit) -> list[tuple[list[str], dict[str, int] | None]]:
    """Every report the owner may make: each legal allocation of the hits (§9.5) with its eliminations where this
    replay sees the group; else every set of retreating units the hits could eliminate, without the secret CVs."""
    if item.awaiting != "losses":
        return []
    units = _units(state, item)
    if units is None:
        return [
            (list(gone), None)
            for k in range(min(item.hits, len(item.group)) + 1)
            for gone in combinations(sorted(item.group), k)
        ]
    block_token = {u.block: t for t, u in units.items()}
    found: list[tuple[list[str], dict[str, int] | None]] = []
    for allocation in battle.legal_losses(list(units.values()), battle.Hits(full=item.hits)):
        report = {block_token[b]: cv for b, cv in sorted(allocation.items())}
        found.append((_eliminated(units, report), dict(sorted(report.items()))))
    return found


def losses_verdict(
    state: RommelState,
    item: Pursuit,
    eliminated: Sequence[str],
    losses: Mapping[str, int] | None,
    *,
    unseen: bool = False,
) -> Verdict:
    """§10.5, §9.5: the report is a legal allocation of the hits on the retreating units and names exactly the units
    it eliminates. Without the secret CVs (``losses`` None: ``unseen`` for a logged action whose secret this replay
    cannot read, or a replay that cannot see the group), only what such a replay can judge: the eliminated units
    retreat, and no more of them than the hits."""
    if item.awaiting != "losses":
        return deny("10.5", "no-losses-due", "no Pursuit Fire losses are due now")
    if len(set(eliminated)) != len(eliminated) or any(t not in item.group for t in eliminated):
        return deny("10.5", "loss-not-retreating", "Pursuit Fire hits only the retreating units")
    if len(eliminated) > item.hits:
        return deny("10.5", "eliminations-exceed-hits", f"{item.hits} hits cannot eliminate {len(eliminated)} units")
    if list(eliminated) != sorted(eliminated):
        return deny("10.5", "eliminations-unsorted", "name the eliminated units in token order")
    units = _units(state, item)
    if losses is None:
        if units is not None and not unseen:
            return deny("10.5", "losses-missing", "the report names the CV each retreating unit loses")
        return ALLOW
    if units is None:
        return deny("10.5", "group-unseen", "this replay cannot see the retreating units' strengths")
    if any(t not in units for t in losses):
        return deny("10.5", "loss-not-retreating", "Pursuit Fire hits only the retreating units")
    by_block = {units[t].block: cv for t, cv in losses.items()}
    verdict = battle.check_losses(list(units.values()), battle.Hits(full=item.hits), by_block)
    if not verdict.ok:
        return verdict
    if _eliminated(units, losses) != list(eliminated):
        return deny("10.5", "eliminations-misreported", "the eliminated units are not those the losses eliminate")
    return ALLOW


def took_losses(state: RommelState, item: Pursuit, eliminated: Sequence[str]) -> tuple[RommelState, list[Event]]:
    """The owner's secret report (in :func:`loss_slot`, where this replay sees it) lowers the group's hidden CVs;
    every CV slot of the group gets a new version (notes §7.2.1); the eliminations are public (§2.3)."""
    owner = item.retreating
    report = state.hidden.get(loss_slot(owner))
    seen = report is not None and report.known and isinstance(report.value, dict)
    losses: dict[str, int] = dict(report.value) if seen and report is not None else {}
    tokens = dict(state.tokens)
    events = []
    for token in item.group:
        slot = state.hidden[cv_slot(token)]
        known = seen and slot.known and isinstance(slot.value, int)
        left = slot.value - losses.get(token, 0) if known else None
        if token in eliminated:
            text = f"{public_label(state, token)} eliminated by Pursuit Fire"
            tokens[token] = tokens[token].model_copy(update={"status": "eliminated", "hex": None})
            events.append(Event(kind="unit_eliminated", seat=owner, rule="10.5", data={"unit": token}, text=text))
            left = 0 if known else None
        state = state.with_hidden(cv_slot(token), owner, left, known=known)
    state = state.model_copy(update={"tokens": tokens, "battles": settled(tokens, dict(state.battles))})
    data = {"location": item.hex, "hits": item.hits, "eliminated": list(eliminated)}
    events.insert(0, Event(kind="pursuit_losses", seat=owner, rule="10.5", data=data))
    return pop(state), events
