"""Scenarios (§18): the starting state, secret identities, free deployment, the initial hands and their redraw.

Each scenario's forces come from the pack. Every starting block is a public token of its deployment group; its
owner chooses in secret which block of the group each token is (``identify``) and then sets it up (``deploy``) in
a supplied hex of the group's area that the enemy does not hold, within the area's caps (§18.0). The Axis sets up
first. Then both hands are dealt from the shared deck and each player, Axis first, may once discard the whole hand
and draw a new one (§18.0).
"""

from __future__ import annotations

from collections.abc import Iterable

from pbem.games.rommel.board import Position, Unit
from pbem.games.rommel.schema import Deployment, RommelPack
from pbem.games.rommel.state import DECK, SIDES, Phase, RommelState, Side, Token, other, unit_slot
from pbem.games.rommel.supply import supply_lines
from pbem.rules.contract import ALLOW, DeckRequest, Verdict, deny

__all__ = [
    "area_hexes",
    "deployment",
    "group_blocks",
    "hand",
    "identify_verdict",
    "initial_state",
    "next_deal",
    "next_token",
    "setup_verdict",
    "start_dealing",
    "supplied_hexes",
]


def initial_state(pack: RommelPack, scenario_id: str, options: dict[str, bool | int | str]) -> RommelState:
    """The state before set-up: every starting block as a token of its deployment group (§18.0)."""
    scenario = pack.scenario(scenario_id)
    tokens: dict[str, Token] = {}
    for side in SIDES:
        setup = scenario.axis if side == "axis" else scenario.allied
        number = 0
        for index, group in enumerate(setup.deployments):
            for _ in range(group.count):
                number += 1
                tokens[f"{side}-{number:02d}"] = Token(side=side, group=f"deploy-{index}")
    minefields = tuple(pack.place(p).hex for p in scenario.minefields)
    return RommelState(
        pack=pack,
        options=options,
        scenario=scenario_id,
        phase="setup",
        month=scenario.first_month,
        first_month=scenario.first_month,
        last_month=scenario.last_month,
        tokens=tokens,
        minefields=minefields,
        first=scenario.first_player,
        active=scenario.first_player,
    )


def deployment(state: RommelState, token: str) -> Deployment | None:
    """The deployment group record of a starting ``token`` (None for a reinforcement)."""
    tok = state.tokens[token]
    if not tok.group.startswith("deploy-"):
        return None
    scenario = state.pack.scenario(state.scenario)
    setup = scenario.axis if tok.side == "axis" else scenario.allied
    return setup.deployments[int(tok.group.removeprefix("deploy-"))]


def group_blocks(state: RommelState, token: str) -> tuple[str, ...]:
    """The blocks ``token``'s identity is chosen from: its deployment group's, or its month's arrivals (§16.4)."""
    tok = state.tokens[token]
    found = deployment(state, token)
    if found is not None:
        return found.blocks
    scenario = state.pack.scenario(state.scenario)
    setup = scenario.axis if tok.side == "axis" else scenario.allied
    if tok.group == "malta":
        return tuple(b for a in setup.reinforcements if a.optional for b in a.blocks)
    month = int(tok.group.removeprefix("arrival-"))
    return tuple(b for a in setup.reinforcements if a.month == month and not a.optional for b in a.blocks)


def next_token(state: RommelState, side: Side) -> str | None:
    """The first of ``side``'s tokens still to be identified or set up (tokens are handled in id order)."""
    for token, tok in sorted(state.tokens.items()):
        if tok.side == side and tok.status in ("muster", "ready"):
            return token
    return None


def area_hexes(state: RommelState, group: Deployment) -> frozenset[str]:
    """The hexes of a deployment area: its areas and places, less the places it excludes (§18)."""
    pack = state.pack
    areas = {a.id for a in pack.map.areas}
    found: set[str] = set()
    for where in group.where:
        found |= set(pack.area(where).hexes) if where in areas else {pack.place(where).hex}
    return frozenset(found - {pack.place(p).hex for p in group.excluding})


_SUPPLIED: dict[tuple[object, ...], tuple[RommelPack, frozenset[str]]] = {}
_SUPPLIED_KEEP = 64  # positions remembered (set-up checks the same position once per candidate hex)


_GROWING: dict[tuple[object, ...], tuple[RommelPack, frozenset[Unit], frozenset[str]]] = {}
"""Per side, enemy blocks and battles: the last supplied map computed and the side's own blocks it was made with."""


def supplied_hexes(state: RommelState, side: Side, hexes: Iterable[str]) -> frozenset[str]:
    """Of ``hexes``, those without enemy units where a unit of ``side`` would be Supplied from its Base (§12).

    A block of ``side`` added to a position only adds supply (§12.4: an undisrupted one may be a chain point, none
    ever blocks its own side), so hexes supplied with fewer own blocks, the same enemy blocks and battles stay
    supplied: set-up, which adds one own block at a time, asks for a fresh map only when a hex was not supplied
    before."""
    position = state.position()
    battles = tuple(sorted((h, b.defender, tuple(sorted(b.crossed.items()))) for h, b in state.battles.items()))
    key = (id(state.pack), side, position.units, battles)
    found = _SUPPLIED.get(key)
    if found is not None and found[0] is state.pack:
        return found[1].intersection(hexes)
    wanted = frozenset(hexes)
    own = frozenset(u for u in position.units if u.side == side)
    growing = (id(state.pack), side, tuple(u for u in position.units if u.side != side), battles)
    before = _GROWING.get(growing)
    if before is not None and before[0] is state.pack and before[1] <= own and wanted <= before[2]:
        return wanted
    if len(_SUPPLIED) >= _SUPPLIED_KEEP:
        _SUPPLIED.clear()
        _GROWING.clear()
    supplied = _supplied_map(state, side)
    _SUPPLIED[key] = (state.pack, supplied)
    _GROWING[growing] = (state.pack, own, supplied)
    return supplied.intersection(wanted)


def _supplied_map(state: RommelState, side: Side) -> frozenset[str]:
    """Every land hex without enemy units where a unit of ``side`` would be Supplied.

    One search: a Disrupted probe in each such hex neither chains nor blocks (§12.4 sidebar) and is supplied exactly
    when a unit there would be.
    """
    position = state.position()
    enemy = {u.hex for u in position.units if u.side != side}
    probes = tuple(Unit(f"probe/{h}", h, True, side=side) for h in sorted(state.pack.land() - enemy))
    probed = Position((*position.units, *probes), position.battles, position.fortresses)
    network = supply_lines(state.pack, probed, side)
    return frozenset(u.hex for u in probes if u.block in network.supplied)


def setup_verdict(state: RommelState, seat: Side, token: str, hex_id: str) -> Verdict:
    """§18.0: ``token`` may be set up in ``hex_id``."""
    if next_token(state, seat) != token or state.tokens[token].status != "ready":
        return deny("18.0", "not-next", f"{token} is not the next {seat} block to set up")
    group = deployment(state, token)
    assert group is not None
    if hex_id not in area_hexes(state, group):
        return deny("18.0", "outside-area", f"{hex_id} is not in the deployment area of {token}")
    if any(state.tokens[t].side == other(seat) for t in state.at(hex_id)):
        return deny("18.0", "enemy-held", f"{hex_id} holds enemy units")
    for cap in group.caps:
        where = state.pack.place(cap.place).hex
        if where == hex_id and sum(1 for t in state.at(hex_id) if state.tokens[t].side == seat) >= cap.at_most:
            return deny("18.0", "cap", f"at most {cap.at_most} units set up in {cap.place}")
    if hex_id not in supplied_hexes(state, seat, (hex_id,)):
        return deny("18.0", "unsupplied", f"{hex_id} is not a Supplied location")
    return ALLOW


def identify_verdict(state: RommelState, seat: Side, token: str, block: str | None, *, unseen: bool) -> Verdict:
    """§18.0, §16.4: ``token`` may be the block ``block`` of its group, not already chosen for another token."""
    tok = state.tokens.get(token)
    if tok is None or tok.side != seat or tok.status != "muster" or next_token(state, seat) != token:
        return deny("18.0", "not-next", f"{token} is not the next {seat} block to identify")
    if block is None:
        return ALLOW if unseen else deny("18.0", "no-unit", "name the unit the block is")
    if block not in group_blocks(state, token):
        return deny("18.0", "not-in-group", f"{block} is not one of the units {token} may be")
    for other_token, other_tok in state.tokens.items():
        slot = state.hidden.get(unit_slot(other_token))
        if other_token != token and other_tok.side == seat and slot is not None and slot.known and slot.value == block:
            return deny("18.0", "duplicate", f"{block} is already block {other_token}")
    return ALLOW


def hand(state: RommelState, side: Side) -> tuple[int | None, ...]:
    """``side``'s hand as this replay sees it (None where a card's value is unknown)."""
    deck = state.decks.get(DECK)
    return () if deck is None else deck.hands.get(side, ())


def start_dealing(state: RommelState, deals: tuple[tuple[Side, int], ...], then: Phase) -> RommelState:
    """Shuffle the face-up cards back (a new deck the first time) and deal ``deals`` in order (§16.6, §18.0)."""
    deck = state.decks.get(DECK)
    if deck is None:
        request = DeckRequest(deck=DECK, op="shuffle", size=state.pack.deck.real + state.pack.deck.dummy)
    else:
        request = DeckRequest(deck=DECK, op="shuffle", returned=deck.faceup)
    return state.model_copy(update={"phase": "dealing", "deals": deals, "then": then}).with_deck(request)


def next_deal(state: RommelState) -> RommelState:
    """Deal the next hand of the plan (never past the hand limit, §16.6), or go on to the phase that follows."""
    deals = state.deals
    limit = state.pack.limit("hand_limit")
    deck = state.decks[DECK]
    while deals:
        side, n = deals[0]
        deals = deals[1:]
        n = min(n, limit - len(hand(state, side)), deck.size)
        if n > 0:
            request = DeckRequest(deck=DECK, op="deal", seat=side, n=n)
            return state.model_copy(update={"deals": deals}).with_deck(request)
    return state.model_copy(update={"deals": (), "phase": state.then})
