"""The battle stage (§8.5, §8.6, §9): the Combat phase's battles, fought one at a time over the battle library.

The Active Player selects a battle to fight (``fight``: mandatory ones cannot be skipped, §8.6, §13.2; Assaults only
in an Assault Turn, §4.3). Its undisrupted blocks are revealed (§8.5: the rules open their identity and CV slots),
and a :class:`~pbem.games.rommel.state.Fight` goes on the machine's stack: Defensive Fire by the passive side, unit
by unit (``fire``: target class, then the dice the library says, §9.2-§9.4; ``cease`` ends the volley), the owner's
report of the losses (``losses``: exactly a legal allocation, §9.5), then Offensive Fire with the surviving, reduced
units (§9.1) and its losses. Every rule of fire and loss is :mod:`pbem.games.rommel.battle`'s; this module keeps the
state: the shots so far, the revealed strengths (the CV slots, public from the reveal on), eliminated blocks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pbem.games.rommel import battle, pursuit, rout
from pbem.games.rommel.moves import i_tanks, known_block, settled
from pbem.games.rommel.options import real_count
from pbem.games.rommel.present import hex_label, public_label
from pbem.games.rommel.scenarios import hand
from pbem.games.rommel.state import Fight, FireShot, RommelState, Side, cv_slot, other, unit_slot
from pbem.kit.machine import pop, push, replace_top
from pbem.rules.contract import ALLOW, Event, RollRequest, RollSpec, Verdict, deny
from pbem.text import plural

__all__ = [
    "battle_hex",
    "cease",
    "fight_verdict",
    "fire_candidates",
    "fire_verdict",
    "fired",
    "loss_candidates",
    "losses_verdict",
    "paid",
    "partial_retreats",
    "shot",
    "skip_verdict",
    "start_fight",
    "strength_verdict",
    "take_losses",
    "unfought",
]


def _fighters(state: RommelState, hex_id: str) -> list[str]:
    """The undisrupted blocks in ``hex_id``: those the Battle Array reveals (§8.5) and that fire (§11.1)."""
    return [t for t in state.at(hex_id) if not state.tokens[t].disrupted]


def strength_verdict(state: RommelState, fight: Fight) -> Verdict:
    """§2.3: every strength the Battle Array opened is one its block can have (the core proves an opened CV is the
    committed one, not that it is possible). A misreported strength stops the battle here, citing the block; the
    audit names the opening's entry and seat (:mod:`pbem.games.rommel.audit`)."""
    for token in _fighters(state, fight.hex):
        block = known_block(state, token)
        cv = state.hidden.get(cv_slot(token))
        if block is None or cv is None or not cv.known:
            continue
        verdict = battle.check_strength(state.pack, block, cv.value, i_tanks=i_tanks(state))
        if not verdict.ok:
            return deny(verdict.rule or "2.3", verdict.reason, f"{token}: {verdict.message}")
    return ALLOW


def battle_hex(state: RommelState, fight: Fight) -> battle.BattleHex | None:
    """The library's battle from the revealed blocks (None while a value is not yet known to this replay, or when an
    opened strength is impossible: :func:`strength_verdict` refuses every battle action then)."""
    if not strength_verdict(state, fight).ok:
        return None
    units = []
    for token in _fighters(state, fight.hex):
        block = known_block(state, token)
        cv = state.hidden.get(cv_slot(token))
        if block is None or cv is None or not cv.known:
            return None
        units.append(battle.battle_unit(state.pack, block, cv.value, i_tanks=i_tanks(state)))
    # §10.41 sidebar: in Probe Combat only a Rearguard of Original Defenders keeps the Fortress and Minefield benefits
    probing_defenders = bool(fight.probe) and fight.initiator == fight.defender
    minefield = fight.hex in state.minefields and not probing_defenders
    fortress = fight.fortress and not probing_defenders
    return battle.BattleHex(tuple(units), attacker=fight.attacker, fortress=fortress, minefield=minefield)


def _volley(fight: Fight) -> battle.Volley:
    shots = tuple(
        battle.Shot(s.block, s.target, s.fire, s.rolls, battle.Hits(full=s.full, half=s.half))  # type: ignore[arg-type]
        for s in fight.shots
    )
    return battle.Volley(side=_seat(fight) if fight.awaiting == "fire" else other(_seat(fight)), shots=shots)


def _seat(fight: Fight) -> Side:
    """The side that acts in ``fight`` now."""
    return "axis" if fight.seat == "axis" else "allied"


def _round(fight: Fight) -> battle.Round:
    return battle.Round(initiator=fight.initiator, assault=fight.assault)


def paid(state: RommelState) -> int:
    """The real cards committed this turn: counted where this replay sees them, else every card counted as real
    (the reveal settles it, §3.48)."""
    cards = state.turn.committed or ()
    held = hand(state, state.active)
    real = real_count(state.pack, [held[c] if c < len(held) else None for c in cards])
    return len(cards) if real is None else real


def partial_retreats(state: RommelState, movers: Iterable[str]) -> tuple[str, ...]:
    """§10.4: the battles ``movers`` (the units of a Move just ended) made a Partial Retreat from: some of them
    disengaged from the hex and an undisrupted unit of the Active Player stays there, the Rearguard (as the library's
    :func:`~pbem.games.rommel.battle.retreat_kind` reads it: Disrupted units left behind do not make it partial).
    Judged as the Move ends: units that join the battle later do not turn a Full Retreat into a Partial one."""
    turn = state.turn
    left = {turn.paths[t][0] for t in movers if turn.disengaged.get(t, False) and t in turn.paths}
    found = [
        hex_id
        for hex_id in sorted(left & set(state.battles))
        if any(state.tokens[t].side == state.active and not state.tokens[t].disrupted for t in state.at(hex_id))
    ]
    return tuple(found)


def _fortress_ruling(state: RommelState) -> bool:
    """Genesis option ``partial_retreat_bars_fortress_combat`` (notes §10.9; RULING default: §10.4 wins)."""
    return state.options.get("partial_retreat_bars_fortress_combat", True) is not False


def fight_verdict(state: RommelState, seat: Side, hex_id: str, assault: bool) -> Verdict:
    """§8.6: ``seat`` may fight the battle in ``hex_id`` now (as an Assault: §4.3)."""
    turn = state.turn
    record = state.battles.get(hex_id)
    if turn.stage != "combat" or state.pending:
        return deny("3.44", "not-combat", "battles are fought in the Combat phase, one at a time")
    if record is None:
        return deny("8.6", "no-battle", f"there is no battle in {hex_id}")
    if hex_id in turn.fought:
        return deny("8.6", "fought", f"the battle in {hex_id} has had its Combat Round this phase")
    verdict = battle.check_combat(
        fight=True,
        active=seat,
        attacker=record.attacker,
        new=record.new,
        fortress=record.fortress,
        blitz=turn.blitz,
        partial_retreat=hex_id in state.turn.partial,
        pass_turn=paid(state) == 0,
        partial_retreat_bars_fortress_combat=_fortress_ruling(state),
    )
    if not verdict.ok:
        return verdict
    if assault and turn.moves > state.pack.limit("moves_assault"):
        return deny("4.3", "two-moves", "an Assault Turn has one Move: two Moves were made")
    assault_turn = paid(state) >= state.pack.limit("cost_assault")
    return battle.check_assault(assault=assault, assault_turn=assault_turn, fight=True)


def _could_pass(state: RommelState) -> bool:
    """Whether this turn may be a Pass as far as this replay can see: no real card among the committed ones (unknown
    cards may all be dummies; the reveal settles it, :func:`unfought`)."""
    cards = state.turn.committed or ()
    held = hand(state, state.active)
    real = real_count(state.pack, [held[c] if c < len(held) else None for c in cards])
    return real is None or real == 0


def unfought(state: RommelState, seat: Side, *, pass_turn: bool) -> Verdict:
    """§8.6, §13.2: ALLOW if every battle left unfought may be skipped (in a Pass Turn, or not: ``pass_turn``)."""
    for hex_id, record in sorted(state.battles.items()):
        if hex_id in state.turn.fought:
            continue
        verdict = battle.check_combat(
            fight=False,
            active=seat,
            attacker=record.attacker,
            new=record.new,
            fortress=record.fortress,
            blitz=state.turn.blitz,
            partial_retreat=hex_id in state.turn.partial,
            pass_turn=pass_turn,
            partial_retreat_bars_fortress_combat=_fortress_ruling(state),
        )
        if not verdict.ok:
            return verdict
    return ALLOW


def skip_verdict(state: RommelState, seat: Side) -> Verdict:
    """§8.6, §13.2: the Combat phase may end once every mandatory battle has been fought (none in a Pass Turn,
    §4.5: a replay that cannot see the cards allows it, and the reveal checks it)."""
    return unfought(state, seat, pass_turn=_could_pass(state))


def start_fight(
    state: RommelState, seat: Side, hex_id: str, assault: bool, probe: tuple[str, ...] = ()
) -> tuple[RommelState, list[Event]]:
    """§8.5: the battle is selected; its undisrupted blocks are revealed; Defensive Fire begins (§9.1).

    ``probe``: a round of Probe Combat (§10.41) that ``seat``, the Passive Player, provokes against the Rearguard of
    the Partial Retreat of ``probe`` (roles reversed: the Rearguard fires Defensive Fire first; the Original
    Defender keeps its Fortress and Minefield benefits; it is not the Active Player's Combat Round)."""
    record = state.battles[hex_id]
    fighters = _fighters(state, hex_id)
    closed = [n for t in fighters for n in (unit_slot(t), cv_slot(t)) if not state.hidden[n].public]
    turn = state.turn.model_copy(
        update={"fought": (*state.turn.fought, hex_id), "assault": state.turn.assault or assault}
    )
    battles = {**state.battles, hex_id: record.model_copy(update={"new": False})}
    if probe:
        turn, battles = state.turn, dict(state.battles)
    fight = Fight(
        seat=other(seat),
        hex=hex_id,
        attacker=record.attacker,
        defender=record.defender,
        initiator=seat,
        assault=assault,
        fortress=record.fortress,
        attackers=tuple(t for t in fighters if state.tokens[t].side == record.attacker),
        defenders=tuple(t for t in fighters if state.tokens[t].side == record.defender),
        probe=probe,
    )
    state = push(state.model_copy(update={"turn": turn, "battles": battles}), fight)
    data = {"location": hex_id, "assault": assault, "units": fighters}
    event = Event(
        kind="battle_begun",
        seat=seat,
        rule="10.41" if probe else "8.5",
        data=data,
        text=f"battle at {hex_label(state.pack, hex_id)}",
    )
    return (state.with_opening(*closed) if closed else state), [event]


def _block_of(state: RommelState, token: str) -> str | None:
    """The revealed block of ``token`` (None where this replay cannot see it)."""
    return known_block(state, token)


def _token_of(state: RommelState, fight: Fight, block: str) -> str | None:
    """The token of the revealed ``block`` in ``fight``."""
    return next((t for t in (*fight.attackers, *fight.defenders) if known_block(state, t) == block), None)


def fire_candidates(state: RommelState, fight: Fight) -> list[tuple[str, str]]:
    """Every (block, target class) the firing side may fire next: exactly the library's fire options."""
    here = battle_hex(state, fight)
    if here is None or fight.awaiting != "fire" or fight.shooting is not None:
        return []
    found = []
    for block, target in battle.fire_options(here, _volley(fight)):
        token = _token_of(state, fight, block)
        if token is not None:
            found.append((token, str(target)))
    return found


def fire_verdict(state: RommelState, fight: Fight, token: str, target: str) -> Verdict:
    """§9.2-§9.3 (the library's :func:`~pbem.games.rommel.battle.check_fire`)."""
    strength = strength_verdict(state, fight)
    if not strength.ok:
        return strength
    if fight.awaiting != "fire" or fight.shooting is not None:
        return deny("9.1", "not-firing", "no fire is due now")
    if token not in (*fight.attackers, *fight.defenders) or state.tokens[token].status != "map":
        return deny("9.2", "not-in-battle", f"{token} is not in this battle")
    if state.tokens[token].side != fight.seat:
        return deny("9.1", "not-firing-side", f"{token} is not a {fight.seat} unit")
    here = battle_hex(state, fight)
    block = _block_of(state, token)
    if here is None or block is None:
        return ALLOW  # not yet known to this replay: the audit replays it with the values
    if target not in battle.CLASSES:
        return deny("9.3", "no-target", f"{target} is not an arms class")
    return battle.check_fire(here, _volley(fight), block, target)


def fired(state: RommelState, fight: Fight, token: str, target: str) -> RommelState:
    """The dice of one unit's fire (§9.2: one per CV, times the multiplier)."""
    here = battle_hex(state, fight)
    block = _block_of(state, token)
    assert here is not None and block is not None
    n = battle.fire_dice(state.pack, here, _round(fight), block)
    state = replace_top(state, fight.model_copy(update={"shooting": (token, target)}))
    spec = RollSpec(id="fire", sides=6, n=n, purpose=f"{token} fires at {target}")
    return state.with_rolls(RollRequest(rolls=(spec,)))


def shot(state: RommelState, fight: Fight, rolls: tuple[int, ...]) -> tuple[RommelState, list[Event]]:
    """The dice are in: the library scores them (§9.4); a volley with nothing left to fire ends."""
    here = battle_hex(state, fight)
    assert here is not None and fight.shooting is not None
    token, target = fight.shooting
    block = _block_of(state, token)
    assert block is not None
    volley, made = battle.fire(state.pack, here, _round(fight), _volley(fight), block, target, rolls)  # type: ignore[arg-type]
    record = FireShot(
        block=block, target=target, fire=made.fire, rolls=made.rolls, full=made.hits.full, half=made.hits.half
    )
    fired = (*fight.fired, token)
    fight = fight.model_copy(update={"shots": (*fight.shots, record), "shooting": None, "fired": fired})
    data = {
        "unit": token,
        "target": target,
        "fire": made.fire,
        "dice": list(rolls),
        "hits": made.hits.full,
        "half": made.hits.half,
    }
    text = f"{public_label(state, token)} fires at {target.replace('_', '-')}: {_dice(rolls)}, {_hits(made.hits)}"
    events = [Event(kind="fired", seat=fight.seat, rule="9.4", data=data, text=text)]
    state = replace_top(state, fight)
    if not battle.fire_options(here, volley):
        return cease(state, fight, events)
    return state, events


def _dice(rolls: Iterable[int]) -> str:
    return f"dice {' '.join(map(str, rolls)) or 'none'}"


def _hits(hits: battle.Hits) -> str:
    """``2 hits``, ``1 hit and a half hit`` (§9.52: half-hits)."""
    return plural(hits.full, "hit") + (f" and {plural(hits.half, 'half hit')}" if hits.half else "")


def cease(state: RommelState, fight: Fight, events: list[Event] | None = None) -> tuple[RommelState, list[Event]]:
    """The volley ends (firing is optional: RULING notes §10.29); its owner reports the losses, if any (§9.5)."""
    events = list(events or [])
    here = battle_hex(state, fight)
    assert here is not None
    if battle.volley_losses(here, _volley(fight)):
        return replace_top(state, fight.model_copy(update={"awaiting": "losses", "seat": other(_seat(fight))})), events
    return _next_volley(state, fight, _seat(fight), here, events)


def _due(state: RommelState, fight: Fight) -> tuple[str, tuple[battle.BattleUnit, ...], battle.Hits] | None:
    """The next arms class whose losses the owner reports (§9.5), in the Fire Table's order, with its units and
    hits; None when every class hit has been reported."""
    here = battle_hex(state, fight)
    if here is None or fight.awaiting != "losses":
        return None
    for cls, targets, hits in battle.volley_losses(here, _volley(fight)):
        if cls not in fight.reported:
            return str(cls), targets, hits
    return None


def loss_candidates(state: RommelState, fight: Fight) -> list[tuple[str, dict[str, int]]]:
    """Every legal report of the next class's losses (§9.5), by token: exactly the library's allocations."""
    due = _due(state, fight)
    if due is None:
        return []
    cls, targets, hits = due
    found = []
    for allocation in battle.legal_losses(targets, hits):
        report = {}
        for block, cv in allocation.items():
            token = _token_of(state, fight, block)
            assert token is not None
            report[token] = cv
        found.append((cls, dict(sorted(report.items()))))
    return found


def losses_verdict(state: RommelState, fight: Fight, target: str, losses: Mapping[str, int]) -> Verdict:
    """§9.5: the report of the next class hit is exactly a legal allocation (the library's :func:`check_losses`)."""
    if fight.awaiting != "losses":
        return deny("9.5", "no-losses-due", "no losses are due now")
    strength = strength_verdict(state, fight)
    if not strength.ok:
        return strength
    due = _due(state, fight)
    if due is None:
        return ALLOW  # not yet known to this replay
    cls, targets, hits = due
    if target != cls:
        return deny("9.5", "class-order", f"the losses on {cls} are reported next")
    by_block: dict[str, int] = {}
    for token, cv in losses.items():
        block = _block_of(state, token) if token in (*fight.attackers, *fight.defenders) else None
        if block is None:
            return deny("9.5", "loss-not-a-target", f"{token} is not in this battle")
        by_block[block] = cv
    return battle.check_losses(targets, hits, by_block)


def take_losses(
    state: RommelState, fight: Fight, target: str, losses: Mapping[str, int]
) -> tuple[RommelState, list[Event]]:
    """Apply the owner's report: CVs reduced (public now), eliminated blocks removed (§2.3); then the next class, or
    the next volley."""
    tokens = dict(state.tokens)
    events = []
    for token, cv in sorted(losses.items()):
        if not cv:
            continue
        slot = state.hidden[cv_slot(token)]
        left = slot.value - cv
        owner = tokens[token].side
        block = _block_of(state, token)
        assert block is not None
        name = public_label(state, token)
        if left < state.pack.block(block).cv_min:
            tokens[token] = tokens[token].model_copy(update={"status": "eliminated", "hex": None})
            text = f"{name} eliminated (loses {cv} CV)"
            events.append(Event(kind="unit_eliminated", seat=owner, rule="9.5", data={"unit": token}, text=text))
        else:
            data = {"unit": token, "cv": left}
            text = f"{name} loses {cv} CV, now CV {left}"
            events.append(Event(kind="unit_reduced", seat=owner, rule="9.5", data=data, text=text))
        state = state.with_hidden(cv_slot(token), owner, max(left, 0), known=True)
        if state.hidden[unit_slot(token)].public:  # a revealed block's reported loss is known to all (§9.5)
            state = state.model_copy(update={"told": {**state.told, cv_slot(token): state.hidden[cv_slot(token)].ver}})
    state = state.model_copy(update={"tokens": tokens, "battles": settled(tokens, dict(state.battles))})
    fight = fight.model_copy(update={"reported": (*fight.reported, target)})
    if _due(state, fight) is not None:
        return replace_top(state, fight), events
    after = battle_hex(state, fight)
    assert after is not None
    state, events = _next_volley(state, fight, other(_seat(fight)), after, events)
    state, more = rout.begin(state, fight.fired)  # §11.11: the last shield gone, the Disrupted units Rout at once
    return state, [*events, *more]


def _next_volley(
    state: RommelState, fight: Fight, firing: Side, here: battle.BattleHex, events: list[Event]
) -> tuple[RommelState, list[Event]]:
    """After ``firing``'s volley: Offensive Fire after Defensive Fire (§9.1); after it, the Combat Round is over."""
    if firing != fight.initiator and fight.hex in state.battles:
        update = {"seat": fight.initiator, "awaiting": "fire", "shots": (), "shooting": None, "reported": ()}
        nxt = fight.model_copy(update=update)
        if battle.fire_options(here, battle.Volley(side=fight.initiator)):
            return replace_top(state, nxt), events
        fight = nxt
    events.append(Event(kind="combat_round_ended", rule="9.1", data={"location": fight.hex}))
    state = pop(state)
    retreating = other(fight.initiator)
    rearguard = [t for t in state.at(fight.hex) if state.tokens[t].side == retreating and not state.tokens[t].disrupted]
    if fight.probe and not rearguard:  # §10.41: the Rearguard is gone, the Partial Retreat becomes a Full one
        state, more = pursuit.start(state, fight.hex, retreating, fight.probe, "probe", fight.fired)
        events.extend(more)
    return state, events
