"""The Buildup (§16): Advance Month, BP dice, reinforcements, BP spent on Replacements and Extra Supply, saving,
and Resupply from the shared deck.

Each side's Buildup Points are a hidden value owned by that side (:mod:`pbem.games.rommel.ledger`). Redeployment,
Sea Redeployment and Refit are :mod:`pbem.games.rommel.redeploy`; Minefields :mod:`pbem.games.rommel.minefields`.
"""

from __future__ import annotations

from pbem.games.rommel.ledger import bp_known, bp_slot, counted, with_bp
from pbem.games.rommel.moves import i_tanks, known_block
from pbem.games.rommel.offboard import arrive
from pbem.games.rommel.options import is_real
from pbem.games.rommel.present import SIDE_NAMES
from pbem.games.rommel.redeploy import freeze_networks, return_refitted
from pbem.games.rommel.scenarios import hand, start_dealing
from pbem.games.rommel.state import DECK, SIDES, RommelState, Side, Token, cv_slot
from pbem.games.rommel.supply import base_hex
from pbem.games.rommel.supplycheck import buildup_check
from pbem.rules.contract import ALLOW, DeckRequest, Event, RollRequest, RollSpec, Verdict, deny
from pbem.text import plural

__all__ = [
    "bought",
    "bp_known",
    "bp_slot",
    "buy_verdict",
    "captured_supply",
    "dice_rolled",
    "discard_verdict",
    "discarded",
    "divulging",
    "early_request",
    "early_rolled",
    "end_buildup",
    "malta",
    "malta_verdict",
    "monthly_cards",
    "pregame",
    "replace_cost",
    "replace_verdict",
    "replaced",
    "resupply",
    "start_buildup",
]


def start_buildup(state: RommelState) -> tuple[RommelState, list[Event]]:
    """§16.1-§16.4: advance the Month; this Month's reinforcements that did not arrive early arrive (muster),
    next Month's are mustered for their Early Arrival dice (§16.41); roll the BP dice (§16.3)."""
    month = state.month + 1
    scenario = state.pack.scenario(state.scenario)
    tokens = dict(state.tokens)
    arrivals: dict[str, int] = {}
    on_time: list[str] = []
    for side in SIDES:
        setup = scenario.axis if side == "axis" else scenario.allied
        for token, tok in sorted(tokens.items()):  # identified last Buildup, not early: on time now
            if tok.side == side and tok.status == "due":
                on_time.append(token)
        number = sum(1 for t in tokens.values() if t.side == side)
        arrivals[side] = 0
        for when in (month, month + 1):
            if when > state.last_month or any(t.side == side and t.group == f"arrival-{when}" for t in tokens.values()):
                continue  # mustered already (at the last Buildup), or past the end: no Early Arrival (§16.41)
            due = [b for a in setup.reinforcements if a.month == when and not a.optional for b in a.blocks]
            for _ in due:
                number += 1
                tokens[f"{side}-{number:02d}"] = Token(side=side, group=f"arrival-{when}")
            arrivals[side] += len(due) if when == month else 0
    dice = state.pack.scenario(state.scenario).bp_dice
    request = RollRequest(
        rolls=tuple(RollSpec(id=f"bp-{side}", sides=6, n=dice, purpose=f"{side} Buildup Points") for side in SIDES)
    )
    new = state.model_copy(
        update={
            "month": month,
            "phase": "buildup",
            "tokens": tokens,
            "order": (),
            "buildup_done": (),
            "extra_cards": {},
            "passes": 0,
            "challenge": {},
            "early_rolled": (),
            "ledger": {},
        }
    )
    event = Event(kind="month_began", rule="16.1", data={"month": month, "arrivals": arrivals}, text=f"Month {month}")
    new, refitted = return_refitted(new)  # notes §10.30: just after Advance Month
    events = [event]
    if refitted:
        events.append(Event(kind="refit_returned", rule="16.52", data={"units": refitted}))
        events.extend(held_off(new, refitted))
    new, bonus = captured_supply(new)
    if any(bonus.values()):
        events.append(Event(kind="captured_supply", rule="13.4", data={"cards": bonus}))
    new, checked = buildup_check(new)
    new, held = _arrived(new, on_time)  # after the Buildup Supply Check (the Buildup sequence, §16.4)
    return freeze_networks(new).with_rolls(request), [*events, *checked, *held]


def _arrived(state: RommelState, arriving: list[str]) -> tuple[RommelState, list[Event]]:
    """``arriving`` placed in their Base, or held in the off-board box while it is engaged (§16.4 sidebar)."""
    tokens = dict(state.tokens)
    for token in arriving:
        tokens[token] = arrive(state, tokens[token])
    state = state.model_copy(update={"tokens": tokens})
    return state, held_off(state, arriving)


def held_off(state: RommelState, arrived: list[str]) -> list[Event]:
    """The event telling which of ``arrived`` wait in the off-board box (§16.4 sidebar, §16.52), if any."""
    held = [t for t in arrived if state.tokens[t].status == "waiting"]
    if not held:
        return []
    side = SIDE_NAMES[state.tokens[held[0]].side]
    wait = "waits" if len(held) == 1 else "wait"
    text = f"{plural(len(held), f'{side} unit')} {wait} in the {side} off-board box: their Base is engaged"
    return [Event(kind="held_off_board", rule="16.4", data={"units": held}, text=text)]


def captured_supply(state: RommelState) -> tuple[RommelState, dict[str, int]]:
    """§13.4: each Fortress a side captured in the Month just ended (held now, not held as it began; notes §10.35)
    earns its new owner bonus cards in this Buildup's Resupply: the enemy's Port Capacity there, once a Month."""
    bonus: dict[str, int] = dict.fromkeys(SIDES, 0)
    for place in state.pack.map.places:
        owner = state.fortresses.get(place.id)
        if place.kind != "fortress" or place.port is None or owner is None:
            continue
        if state.month_fortresses.get(place.id) != owner:
            bonus[owner] += place.port.allied if owner == "axis" else place.port.axis
    update = {"bonus_cards": {s: n for s, n in bonus.items() if n}, "month_fortresses": dict(state.fortresses)}
    return state.model_copy(update=update), bonus


def dice_rolled(state: RommelState, dice: dict[str, tuple[int, ...]]) -> tuple[RommelState, list[Event]]:
    """§16.3: each player receives the total of all the dice; the lower roller is Player 1 (the Allies on a tie)."""
    rolled = {side: sum(dice.get(f"bp-{side}", ())) for side in SIDES}
    total = sum(rolled.values())
    order: tuple[Side, Side] = ("axis", "allied") if rolled["axis"] < rolled["allied"] else ("allied", "axis")
    for side in SIDES:
        state = with_bp(state, side, total)
    event = Event(
        kind="bp_rolled",
        rule="16.3",
        data={"rolled": rolled, "bp": total, "first": order[0]},
        text=f"BP dice: Axis {rolled['axis']}, Allied {rolled['allied']}: {total} BP each; {order[0]} is Player 1",
    )
    return state.model_copy(update={"order": order}), [event]


def monthly_cards(state: RommelState, side: Side) -> int:
    """§16.6: ``side``'s Monthly Resupply in this Month (with the scenario's changes by Month)."""
    setup = state.pack.scenario(state.scenario).axis if side == "axis" else state.pack.scenario(state.scenario).allied
    cards = setup.resupply
    for change in setup.resupply_changes:
        if change.month is not None and state.month >= change.month:
            cards = change.cards
    for change in setup.resupply_changes:  # the Malta Group's drop overrides (18.6, 18.8)
        if change.trigger == "malta_group" and state.malta and side == "axis":
            cards = change.cards
    return cards


def buy_verdict(state: RommelState, side: Side) -> Verdict:
    """§16.5, §16.6: one extra card for the pack's BP, not past the hand limit once Resupply is dealt."""
    cost = state.pack.limit("bp_extra_card")
    bp = bp_known(state, side)
    if bp is not None and bp < cost:
        return deny("16.5", "short-of-bp", f"an extra card costs {cost} BP; {side} has {bp}")
    regular = (
        monthly_cards(state, side)
        if DECK in state.decks
        else getattr(state.pack.scenario(state.scenario), side).initial_cards
    )
    bonus = state.bonus_cards.get(side, 0)
    coming = len(hand(state, side)) + regular + bonus + state.extra_cards.get(side, 0) + 1
    if coming > state.pack.limit("hand_limit"):
        return deny("16.6", "hand-limit", f"a hand never holds more than {state.pack.limit('hand_limit')} cards")
    return ALLOW


def replace_cost(state: RommelState, token: str) -> tuple[int, int] | None:
    """§16.54: (BP, CV) of one step for ``token``: the type's BP per CV for each CV of a step (2 CV for elites);
    None if this replay cannot see the unit."""
    block = known_block(state, token)
    if block is None:
        return None
    unit = state.pack.block(block)
    elite = unit.elite or (unit.i_tank and i_tanks(state))  # Optional Rules, Allied I-Tanks
    step = state.pack.limit("elite_step") if elite else state.pack.limit("step")
    return state.pack.unit_type(unit.unit_type).replacement_bp * step, step


def replace_verdict(state: RommelState, side: Side, token: str) -> Verdict:
    """§16.54: a step for a unit in its Base, up to its maximum CV, paid in BP."""
    tok = state.tokens.get(token)
    if tok is None or tok.side != side or tok.status != "map" or tok.hex != base_hex(state.pack, side):
        return deny("16.54", "not-in-base", f"{token} is not a {side} unit in its Base")
    cost = replace_cost(state, token)
    cv = state.hidden.get(cv_slot(token))
    if cost is None or cv is None or not cv.known:
        return ALLOW
    block = state.pack.block(str(known_block(state, token)))
    if cv.value + cost[1] > block.cv_max:
        return deny("16.54", "full-strength", f"{token} would exceed its maximum CV {block.cv_max}")
    bp = bp_known(state, side)
    if bp is not None and bp < cost[0]:
        return deny("16.5", "short-of-bp", f"a step of {token} costs {cost[0]} BP; {side} has {bp}")
    return ALLOW


def replaced(state: RommelState, side: Side, token: str) -> RommelState:
    """The state after a Replacement step: CV up, BP down (both hidden from the opponent)."""
    cost = replace_cost(state, token)
    cv = state.hidden[cv_slot(token)]
    state = counted(state, side, "steps", None)
    if cost is None or not cv.known:
        state = state.with_hidden(cv_slot(token), side, None, known=False)
        return with_bp(state, side, None)
    state = state.with_hidden(cv_slot(token), side, cv.value + cost[1], known=True)
    return with_bp(state, side, -cost[0])


def bought(state: RommelState, side: Side) -> RommelState:
    """The state after buying an extra card (§16.5)."""
    cost = state.pack.limit("bp_extra_card")
    state = counted(with_bp(state, side, -cost), side, "extra_cards", cost)
    return state.model_copy(update={"extra_cards": {**state.extra_cards, side: state.extra_cards.get(side, 0) + 1}})


def end_buildup(state: RommelState, side: Side) -> RommelState:
    """§16.5: save at most the limit; after both players, Resupply for both (one shuffle, Player 1 first; notes
    §10.5), then the Initiative."""
    bp = bp_known(state, side)
    limit = state.pack.limit("bp_save_limit")
    if bp is None:
        state = state.with_hidden(bp_slot(side), side, None, known=False)
    elif bp > limit:
        state = state.with_hidden(bp_slot(side), side, limit, known=True)
    done = (*state.buildup_done, side)
    state = state.model_copy(update={"buildup_done": done})
    if divulging(state):  # ❒ §16.5: the BP saved are disclosed; Resupply follows the opening (resupply)
        return state.with_opening(bp_slot(side))
    if len(done) < len(SIDES):
        return state
    return resupply(state)


def divulging(state: RommelState) -> bool:
    """Whether the ❒ option Divulging BP Expenditures (§16.5 sidebar) is in play."""
    return state.options.get("divulge_bp") is True


def resupply(state: RommelState) -> RommelState:
    """§16.6: once both players ended their Buildup, the Resupply for both (one shuffle, Player 1 first; notes
    §10.5); before the first Month (18.7), the initial hands."""
    if state.decks.get(DECK) is None:  # the pre-game Buildup (18.7): the initial hands with the extras
        scenario = state.pack.scenario(state.scenario)
        deals = tuple((s, getattr(scenario, s).initial_cards + state.extra_cards.get(s, 0)) for s in state.order)
        return start_dealing(state, deals, "mulligan")
    deals = tuple(
        (s, monthly_cards(state, s) + state.extra_cards.get(s, 0) + state.bonus_cards.get(s, 0)) for s in state.order
    )
    return start_dealing(state.model_copy(update={"bonus_cards": {}}), deals, "initiative")


def pregame(state: RommelState, first: Side, bp: int) -> RommelState:
    """18.7: a Buildup before play, ``first`` first, with ``bp`` Buildup Points each and no dice."""
    order: tuple[Side, Side] = (first, "axis" if first == "allied" else "allied")
    for side in SIDES:
        state = state.with_hidden(bp_slot(side), side, bp, known=True)
    state = state.model_copy(update={"phase": "buildup", "order": order, "buildup_done": (), "extra_cards": {}})
    return freeze_networks(state)


def early_request(state: RommelState, side: Side) -> RommelState:
    """§16.41: once ``side`` has identified next Month's units, one die each, in token order (identities hidden)."""
    if side in state.early_rolled or any(t.side == side and t.status == "muster" for t in state.tokens.values()):
        return state
    due = [t for t, tok in sorted(state.tokens.items()) if tok.side == side and tok.status == "due"]
    state = state.model_copy(update={"early_rolled": (*state.early_rolled, side)})
    if not due:
        return state
    spec = RollSpec(id=f"early-{side}", sides=6, n=len(due), purpose=f"{side} Early Arrival")
    return state.with_rolls(RollRequest(rolls=(spec,)))


def early_rolled(state: RommelState, side: Side, dice: tuple[int, ...]) -> tuple[RommelState, list[Event]]:
    """§16.41: 1-2, the unit arrives in Base now; 3-6, on schedule next Month."""
    due = [t for t, tok in sorted(state.tokens.items()) if tok.side == side and tok.status == "due"]
    tokens = dict(state.tokens)
    early = []
    for token, die in zip(due, dice, strict=True):
        if die <= state.pack.limit("early_arrival_max"):
            tokens[token] = arrive(state, tokens[token])
            early.append(token)
    event = Event(
        kind="early_arrivals",
        seat=side,
        rule="16.41",
        data={"dice": list(dice), "arrived": early},
        text=f"{SIDE_NAMES[side]}: {len(early)} of {plural(len(due), 'unit')} due next Month arrive early",
    )
    state = state.model_copy(update={"tokens": tokens})
    return state, [event, *held_off(state, early)]


def discard_verdict(state: RommelState, side: Side, card: int) -> Verdict:
    """§16.6: a dummy card of the hand may be discarded before Resupply (its owner's replay sees which are real;
    the card is shown face up, so every replay sees it at once)."""
    cards = hand(state, side)
    if not 0 <= card < len(cards):
        return deny("16.6", "not-held", f"{side} holds no card at position {card}")
    value = cards[card]
    if value is not None and is_real(state.pack, value):
        return deny("16.6", "real-card", "only dummy cards are discarded")
    return ALLOW


def discarded(state: RommelState, side: Side, card: int) -> RommelState:
    """The card at ``card`` of ``side``'s hand shown face up (the deck protocol); the shuffle takes it back."""
    return state.with_deck(DeckRequest(deck=DECK, op="reveal", seat=side, hand=(card,)))


def malta_verdict(state: RommelState, side: Side) -> Verdict:
    """18.6, 18.8: the Axis may call the optional "M" units in any Buildup of a scenario that has them, once."""
    setup = state.pack.scenario(state.scenario).axis
    optional = [a for a in setup.reinforcements if a.optional]
    if side != "axis" or not optional:
        return deny("18.6", "no-malta-group", "only the Axis has a Malta Group, in 1942, Pursuit and the campaign")
    if state.malta:
        return deny("18.6", "malta-called", "the Malta Group has already been called in")
    if state.month < min(a.month for a in optional):
        return deny(
            "18.6", "malta-not-yet", f"the Malta Group is available from Month {min(a.month for a in optional)}"
        )
    return ALLOW


def malta(state: RommelState) -> tuple[RommelState, list[Event]]:
    """The "M" units muster (their identities are chosen in secret) and arrive in Base; Axis Resupply drops now."""
    setup = state.pack.scenario(state.scenario).axis
    blocks = [b for a in setup.reinforcements if a.optional for b in a.blocks]
    tokens = dict(state.tokens)
    number = sum(1 for t in tokens.values() if t.side == "axis")
    for _ in blocks:
        number += 1
        tokens[f"axis-{number:02d}"] = Token(side="axis", group="malta")
    event = Event(kind="malta_group", seat="axis", rule="18.6", data={"units": len(blocks)}, text="Malta Group")
    return state.model_copy(update={"tokens": tokens, "malta": True}), [event]
