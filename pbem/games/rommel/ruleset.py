"""*Rommel in the Desert* (Columbia Games, 2021 rules) on contract v2 and the kit's step machine.

The sequence of play (§3): set-up (§18.0: secret identities, free deployment, Axis first), the initial hands and
their one-time redraw, then Months of Buildup (§16), Initiative (§3.3) and alternating Player-Turns (§3.4) with Turn
Options bought by cards committed face down and revealed at the end of the turn (§3.42, §3.48), until two Passes in
succession end the Month (§3.1). After the last Month the blocks are revealed and victory decided (§17); taking the
enemy Base wins at once (§17.1). What the module enforces, and what it does not yet, is listed in
``docs/rommel-rules.md``; the game is kept out of the ``pbem.games`` entry point until it is complete.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import TypeAdapter

from pbem.errors import PbemError
from pbem.games.rommel import (
    buildup,
    fights,
    initiative,
    ledger,
    minefields,
    moves,
    offboard,
    probe,
    pursuit,
    raiders,
    refuse,
    rout,
    scenarios,
    spending,
    supplycheck,
    turns,
    victory,
    withdrawal,
)
from pbem.games.rommel.actions import (
    AcceptBattle,
    Advance,
    Answer,
    Attrition,
    Blitz,
    BuildMinefield,
    Buy,
    Cease,
    Challenge,
    Commit,
    Deploy,
    Discard,
    EndBuildup,
    EndCombat,
    EndMove,
    EndMovement,
    EndWithdrawal,
    FightBattle,
    Fire,
    Force,
    GroupMove,
    Identify,
    Keep,
    Losses,
    Malta,
    ProbeCombat,
    Pursue,
    PursuitLosses,
    Redraw,
    Refuse,
    Regroup,
    Replace,
    RommelAction,
    Select,
    Slowest,
    StepMove,
    SwapMinefields,
    Withdraw,
    WithdrawalVoid,
    WithdrawGroup,
    WithdrawRegroup,
)
from pbem.games.rommel.data import FORMAT, default_pack_bytes, load_pack
from pbem.games.rommel.mapspec import block_name
from pbem.games.rommel.options import is_real
from pbem.games.rommel.present import RommelLook, hex_label, known_label, public_label, token_label
from pbem.games.rommel.schema import RommelPack
from pbem.games.rommel.state import (
    DECK,
    SIDES,
    Claim,
    Fight,
    Probe,
    Pursuit,
    RommelState,
    Side,
    TurnRecord,
    Withdrawal,
    cv_slot,
    other,
    unit_slot,
)
from pbem.games.rommel.supply import base_hex
from pbem.kit.datapack import PackedData
from pbem.kit.machine import Interrupt, Machine, Phase, action, top
from pbem.rules.contract import (
    ALLOW,
    OMNISCIENT,
    Action,
    DeckRequest,
    Event,
    OptionSpec,
    Outcome,
    Result,
    RollRequest,
    RollSpec,
    Roster,
    Ruleset,
    Scenario,
    SeatSpec,
    Step,
    UnitView,
    Verdict,
    View,
    deny,
    updated,
)

if TYPE_CHECKING:
    from pbem.rules.presentation import Presentation

__all__ = ["RULESET", "Rommel"]

SEATS = (SeatSpec(id="axis", name="Axis", team="axis"), SeatSpec(id="allied", name="Allies", team="allied"))


def _side(seat: str) -> Side:
    return "axis" if seat == "axis" else "allied"


def _strength_claims(state: RommelState, opened: Iterable[str]) -> RommelState:
    """Each CV the rules just opened (a Battle Array, §8.5; the end of the game, §17.2) is its owner's public claim
    of a strength its block can have (§2.3), which the audit checks: the core proves the value is the committed
    one, not that the block can stand at it."""
    claims = []
    for name in sorted(opened):
        if not name.startswith("cv/"):
            continue
        token = name.removeprefix("cv/")
        slot = state.hidden[name]
        if slot.known and isinstance(slot.value, int):
            side = state.tokens[token].side
            claims.append(Claim(act=state.acts, seat=side, token=token, kind="strength", value=slot.value, rule="2.3"))
    return state.model_copy(update={"claims": (*state.claims, *claims)}) if claims else state


# --- set-up ---------------------------------------------------------------------------------------------------


def _identify_candidates(state: RommelState, seat: str) -> Iterable[Identify]:
    token = scenarios.next_token(state, _side(seat))
    if token is None or state.tokens[token].status != "muster":
        return []
    return [Identify(token=token, block=b) for b in scenarios.group_blocks(state, token)]


def _can_identify(state: RommelState, seat: str, act: Identify) -> Verdict:
    return scenarios.identify_verdict(state, _side(seat), act.token, act.block, unseen=False)


def _identified(state: RommelState, seat: str, act: Identify) -> Step[RommelState]:
    """The identity is in its slot (a secret field); the CV starts at the unit's maximum (§18.0), hidden too."""
    side = _side(seat)
    slot = state.hidden[unit_slot(act.token)]
    cv = state.pack.block(slot.value).cv_max if slot.known else None
    state = state.with_hidden(cv_slot(act.token), side, cv, known=slot.known)
    tok = state.tokens[act.token]
    if tok.group in (f"arrival-{state.month}", "malta"):  # a reinforcement arrives in its Base (§16.4)
        tok = offboard.arrive(state, tok)
    elif tok.group.startswith("arrival-"):  # next Month's: it waits for its Early Arrival die (§16.41)
        tok = tok.model_copy(update={"status": "due"})
    else:
        tok = tok.model_copy(update={"status": "ready"})
    state = state.model_copy(update={"tokens": {**state.tokens, act.token: tok}})
    event = Event(
        kind="unit_chosen",
        seat=side,
        rule="18.0",
        data={"unit": act.token},
        text=f"{public_label(state, act.token)} mustered",
    )
    if state.phase == "buildup":
        state = buildup.early_request(state, side)
    return Step(state=state, events=(event, *buildup.held_off(state, [act.token])))


def _deploy_candidates(state: RommelState, seat: str) -> Iterable[Deploy]:
    side = _side(seat)
    token = scenarios.next_token(state, side)
    if token is None or state.tokens[token].status != "ready":
        return []
    group = scenarios.deployment(state, token)
    assert group is not None
    area = scenarios.area_hexes(state, group)
    supplied = scenarios.supplied_hexes(state, side, area)
    return [Deploy(token=token, hex=h) for h in sorted(supplied)]


def _can_deploy(state: RommelState, seat: str, act: Deploy) -> Verdict:
    if act.token not in state.tokens:
        return deny("18.0", "not-next", f"{act.token} is not a block")
    return scenarios.setup_verdict(state, _side(seat), act.token, act.hex)


def _deployed(state: RommelState, seat: str, act: Deploy) -> Step[RommelState]:
    tok = state.tokens[act.token].model_copy(update={"status": "map", "hex": act.hex})
    state = state.model_copy(update={"tokens": {**state.tokens, act.token: tok}})
    event = Event(
        kind="deployed",
        seat=seat,
        rule="18.0",
        data={"unit": act.token, "dst": act.hex},
        text=f"{act.token} at {act.hex}",
    )
    if all(scenarios.next_token(state, s) is None for s in SIDES):
        state = state.model_copy(update={"fortresses": _initial_fortresses(state)})
        pregame = state.pack.scenario(state.scenario).pregame_buildup
        if pregame is not None:  # 18.7: both players' pre-game Buildup, no dice (notes §10.22: after set-up)
            state = buildup.pregame(state, pregame.first, pregame.bp)
        else:
            state = scenarios.start_dealing(state, _initial_deals(state), "mulligan")
    return Step(state=state, events=(event,))


def _initial_deals(state: RommelState) -> tuple[tuple[Side, int], ...]:
    scenario = state.pack.scenario(state.scenario)
    return (("axis", scenario.axis.initial_cards), ("allied", scenario.allied.initial_cards))


def _initial_fortresses(state: RommelState) -> dict[str, Side]:
    """§13.1: a Fortress starts under the control of the side whose deployment area holds it (notes §10.36: where
    both areas hold it, the side that set units up in it)."""
    scenario = state.pack.scenario(state.scenario)
    control: dict[str, Side] = {}
    for place in state.pack.map.places:
        if place.kind != "fortress":
            continue
        holders = [
            side
            for side in SIDES
            if any(place.hex in scenarios.area_hexes(state, g) for g in getattr(scenario, side).deployments)
        ]
        present = {state.tokens[t].side for t in state.at(place.hex)}
        if len(holders) == 1:
            control[place.id] = holders[0]
        elif len(present) == 1:
            control[place.id] = next(iter(present))
    return control


# --- the initial hand -----------------------------------------------------------------------------------------


def _mulligan_side(state: RommelState) -> Side | None:
    return next((s for s in SIDES if s not in state.mulligan_done), None)


def _keep(state: RommelState, seat: str, act: Keep) -> Step[RommelState]:
    done = (*state.mulligan_done, _side(seat))
    state = state.model_copy(update={"mulligan_done": done})
    if _mulligan_side(state) is None:
        state = _first_month(state)
    return Step(state=state, events=(Event(kind="hand_kept", seat=seat, rule="18.0", text=f"{seat} keeps its hand"),))


def _redraw(state: RommelState, seat: str, act: Redraw) -> Step[RommelState]:
    side = _side(seat)
    positions = tuple(range(len(scenarios.hand(state, side))))
    request = DeckRequest(deck=DECK, op="reveal", seat=side, hand=positions)
    state = state.model_copy(update={"redrawing": side, "mulligan_done": (*state.mulligan_done, side)})
    event = Event(kind="hand_discarded", seat=seat, rule="18.0", text=f"{seat} discards its hand to draw again")
    return Step(state=state.with_deck(request), events=(event,))


def _first_month(state: RommelState) -> RommelState:
    """§3.2, §3.3: no Buildup and no Initiative Challenge in a scenario's first Month."""
    state = state.model_copy(update={"passes": 0, "month_fortresses": dict(state.fortresses)})  # §13.4
    state, _ = supplycheck.begin_turn(state, state.first)
    return state


# --- Buildup and Initiative --------------------------------------------------------------------------------------


def _buildup_side(state: RommelState) -> Side | None:
    return next((s for s in state.order if s not in state.buildup_done), None)


def _buys(state: RommelState, seat: str) -> Iterable[Buy]:
    return [Buy()]


def _can_buy(state: RommelState, seat: str, act: Buy) -> Verdict:
    side = _side(seat)
    if scenarios.next_token(state, side) is not None:
        return deny("16.4", "muster-first", "choose the arriving units first")
    return buildup.buy_verdict(state, side)


def _bought(state: RommelState, seat: str, act: Buy) -> Step[RommelState]:
    event = Event(kind="card_bought", seat=seat, rule="16.5", text=f"{seat} buys an extra Supply Card")
    return Step(state=buildup.bought(state, _side(seat)), events=(event,))


def _replaces(state: RommelState, seat: str) -> Iterable[Replace]:
    side = _side(seat)
    return [Replace(token=t) for t in state.at(base_hex(state.pack, side)) if state.tokens[t].side == side]


def _can_replace(state: RommelState, seat: str, act: Replace) -> Verdict:
    side = _side(seat)
    if scenarios.next_token(state, side) is not None:
        return deny("16.4", "muster-first", "choose the arriving units first")
    return buildup.replace_verdict(state, side, act.token)


def _replaced(state: RommelState, seat: str, act: Replace) -> Step[RommelState]:
    event = Event(kind="unit_replaced", seat=seat, rule="16.54", data={"unit": act.token}, text=f"{act.token} rebuilt")
    return Step(state=buildup.replaced(state, _side(seat), act.token), events=(event,))


def _discards(state: RommelState, seat: str) -> Iterable[Discard]:
    return [Discard(card=i) for i in range(len(scenarios.hand(state, _side(seat))))]


def _can_discard(state: RommelState, seat: str, act: Discard) -> Verdict:
    if scenarios.next_token(state, _side(seat)) is not None:
        return deny("16.4", "muster-first", "choose the arriving units first")
    return buildup.discard_verdict(state, _side(seat), act.card)


def _discarded(state: RommelState, seat: str, act: Discard) -> Step[RommelState]:
    event = Event(kind="dummy_discarded", seat=seat, rule="16.6", text=f"{seat} discards a dummy card face up")
    return Step(state=buildup.discarded(state, _side(seat), act.card), events=(event,))


def _can_malta(state: RommelState, seat: str, act: Malta) -> Verdict:
    if scenarios.next_token(state, _side(seat)) is not None:
        return deny("16.4", "muster-first", "choose the arriving units first")
    return buildup.malta_verdict(state, _side(seat))


def _called_malta(state: RommelState, seat: str, act: Malta) -> Step[RommelState]:
    new, events = buildup.malta(state)
    return Step(state=new, events=tuple(events))


def _ends(state: RommelState, seat: str) -> Iterable[EndBuildup]:
    return [EndBuildup()]


def _can_end_buildup(state: RommelState, seat: str, act: EndBuildup) -> Verdict:
    if scenarios.next_token(state, _side(seat)) is not None:
        return deny("16.4", "muster-first", "choose the arriving units first")
    return ALLOW


def _ended_buildup(state: RommelState, seat: str, act: EndBuildup) -> Step[RommelState]:
    event = Event(kind="buildup_ended", seat=seat, rule="16.5", text=f"{seat} ends its Buildup")
    events = [event]
    if buildup.divulging(state):  # ❒ §16.5: what was spent; the BP saved are opened with the record
        counts = ledger.counts(state, _side(seat))
        events.append(Event(kind="buildup_divulged", seat=seat, rule="16.5", data=counts, text=f"{seat}: {counts}"))
    return Step(state=buildup.end_buildup(state, _side(seat)), events=tuple(events))


def _challenges(state: RommelState, seat: str) -> Iterable[Challenge]:
    return [Challenge(card=None), *(Challenge(card=i) for i in range(len(scenarios.hand(state, "allied"))))]


def _can_challenge(state: RommelState, seat: str, act: Challenge) -> Verdict:
    if seat != "allied" or "allied" in state.challenge:
        return deny("3.3", "not-challenger", "the Allied player challenges, once, before the Axis answers")
    return initiative.card_verdict(state, "allied", act.card)


def _challenged(state: RommelState, seat: str, act: Challenge) -> Step[RommelState]:
    new, events = initiative.challenged(state, act.card)
    return Step(state=new, events=tuple(events))


def _answers(state: RommelState, seat: str) -> Iterable[Answer]:
    return [Answer(card=None), *(Answer(card=i) for i in range(len(scenarios.hand(state, "axis"))))]


def _can_answer(state: RommelState, seat: str, act: Answer) -> Verdict:
    if seat != "axis" or state.challenge.get("allied") is None or "axis" in state.challenge:
        return deny("3.3", "no-challenge", "the Axis answers an Allied challenge, once")
    return initiative.card_verdict(state, "axis", act.card)


def _answered(state: RommelState, seat: str, act: Answer) -> Step[RommelState]:
    event = Event(kind="initiative_answered", seat=seat, rule="3.3", text="The Axis answers the challenge")
    return Step(state=initiative.answered(state, act.card), events=(event,))


# --- Player-Turns ------------------------------------------------------------------------------------------------


def _commits(state: RommelState, seat: str) -> Iterable[Commit]:
    return [Commit(card=i) for i in range(len(scenarios.hand(state, _side(seat))))]


def _can_commit(state: RommelState, seat: str, act: Commit) -> Verdict:
    return turns.select_verdict(state, _side(seat), act.card)


def _committed(state: RommelState, seat: str, act: Commit) -> Step[RommelState]:
    turn = state.turn.model_copy(update={"committed": (*(state.turn.committed or ()), act.card)})
    event = Event(kind="card_committed", seat=seat, rule="3.42", text=f"{seat} commits a card face down")
    return Step(state=state.model_copy(update={"turn": turn}), events=(event,))


def _selects(state: RommelState, seat: str) -> Iterable[Select]:
    return [Select()]


def _can_select(state: RommelState, seat: str, act: Select) -> Verdict:
    if state.turn.stage != "select":
        return deny("3.42", "not-selecting", "the Turn Option is already selected")
    return ALLOW


def _selected(state: RommelState, seat: str, act: Select) -> Step[RommelState]:
    turn = state.turn.model_copy(update={"stage": "movement", "committed": state.turn.committed or ()})
    n = len(turn.committed or ())
    event = Event(kind="option_selected", seat=seat, rule="3.42", data={"cards": n}, text=f"{seat} commits {n} cards")
    return Step(state=state.model_copy(update={"turn": turn}), events=(event,))


def _groups(state: RommelState, seat: str) -> Iterable[GroupMove]:
    side = _side(seat)
    origins = sorted({state.tokens[t].hex or "" for t in state.on_map(side) if t not in state.turn.paths})
    if offboard.waiting(state, side):  # §16.4 sidebar: the units held off the map, a Group in their box
        origins.append(offboard.box(state, side))
    rommel = [False, True] if side == "axis" else [False]
    box = offboard.box(state, side)
    return [GroupMove(origin=o, rommel=r) for o in origins for r in rommel if not (r and o == box)]


def _can_begin(state: RommelState, side: Side, rommel: bool, *, withdrawing: bool = False) -> Verdict:
    """A Move may begin now (§4, §5.0) with the Rommel bonus if asked (§6.3); ``withdrawing``: the Pass Turn's free
    Withdrawal Move (§4.5)."""
    turn = state.turn
    if withdrawing:
        verdict = withdrawal.begin_verdict(state)
        if not verdict.ok:
            return verdict
    if turn.stage != "movement" or turn.move is not None:
        return deny("5.0", "not-now", "a Move begins in the Movement phase, after the one under way ends")
    if turn.withdrawn:
        return deny("4.5", "withdrawn", "a turn that made the free Withdrawal Move makes no other Move")
    if not withdrawing and turn.moves >= turns.moves_allowed(state):
        return deny("4.0", "option-spent", "the committed cards pay for no more Moves this turn")
    if rommel:
        if side != "axis":
            return deny("6.3", "not-axis", "only Axis Moves take the Rommel bonus")
        if not state.pack.scenario(state.scenario).rommel_bonus:
            return deny("6.3", "no-rommel", "this scenario has no Rommel bonus")
        if turn.rommel_used:
            return deny("6.3", "rommel-used", "the Rommel bonus serves one Move a turn")
    return ALLOW


def _can_group(state: RommelState, seat: str, act: GroupMove | WithdrawGroup) -> Verdict:
    side = _side(seat)
    turn = state.turn
    verdict = _can_begin(state, side, act.rommel, withdrawing=isinstance(act, WithdrawGroup))
    if not verdict.ok:
        return verdict
    if act.origin == offboard.box(state, side):  # §16.4 sidebar: only by a normal Group Move
        if isinstance(act, WithdrawGroup):
            return deny("16.4", "not-from-box", "units waiting off the map enter their Base by a normal Group Move")
        if act.rommel:  # the step into the Base is the whole move (RULING): the bonus would add nothing
            return deny("6.3", "no-bonus-from-box", "units entering from the box take no Rommel bonus")
        movers = offboard.waiting(state, side)
    else:
        movers = [
            t
            for t in state.at(act.origin)
            if state.tokens[t].side == side and t not in turn.paths and not _disr(state, t)
        ]
    if not movers:
        return deny("5.1", "no-movers", f"{act.origin} holds no {side} unit that may move")
    begun = _grouped(state, seat, act).state  # a Move moves at least one unit: one of them must have a first step
    if not any(_can_step(begun, seat, step).ok for step in _steps(begun, seat)):
        return deny("5.1", "no-first-step", f"no {side} unit in {act.origin} can take a step")
    return ALLOW


def _disr(state: RommelState, token: str) -> bool:
    return state.tokens[token].disrupted


def _grouped(state: RommelState, seat: str, act: GroupMove | WithdrawGroup) -> Step[RommelState]:
    turn = state.turn.model_copy(
        update={
            "move": ("group", act.origin),
            "withdrawal": isinstance(act, WithdrawGroup),
            "rommel": act.rommel,
            "rommel_used": state.turn.rommel_used or act.rommel,
            "mover": None,
            "current": (),
        }
    )
    rule = "5.3" if isinstance(act, WithdrawGroup) else "5.1"
    data = {"src": act.origin, "rommel": act.rommel, "withdrawal": isinstance(act, WithdrawGroup)}
    event = Event(kind="move_begun", seat=seat, rule=rule, data=data)
    return Step(state=state.model_copy(update={"turn": turn}), events=(event,))


def _regroup_movers(state: RommelState, side: Side, command_point: str) -> list[str]:
    """§5.2: ``side``'s undisrupted units in or next to the Command Point that have not moved this turn."""
    reach = state.pack.limit("regroup_reach")
    return [
        t
        for t in state.on_map(side)
        if t not in state.turn.paths
        and not state.tokens[t].disrupted
        and state.pack.hex_map.distance(state.tokens[t].hex, command_point) <= reach  # type: ignore[arg-type]
    ]


_R = TypeVar("_R", Regroup, WithdrawRegroup)


def _regroups(state: RommelState, seat: str) -> Iterable[Regroup]:
    return _regroup_candidates(state, seat, Regroup)


def _withdraw_regroups(state: RommelState, seat: str) -> Iterable[WithdrawRegroup]:
    return _regroup_candidates(state, seat, WithdrawRegroup)


def _withdraw_groups(state: RommelState, seat: str) -> Iterable[WithdrawGroup]:
    boxed = offboard.box(state, _side(seat))
    return [WithdrawGroup(origin=g.origin, rommel=g.rommel) for g in _groups(state, seat) if g.origin != boxed]


def _regroup_candidates(state: RommelState, seat: str, kind: type[_R]) -> list[_R]:
    side = _side(seat)
    if not _can_begin(state, side, False, withdrawing=kind is WithdrawRegroup).ok:
        return []  # no Move of this kind may begin now: spare the searches
    found: list[_R] = []
    forced = 0 if kind is WithdrawRegroup else state.pack.limit("forced_march_hexes")  # §5.2 sidebar, §4.5
    for rommel in [False, True] if side == "axis" else [False]:
        probe = state.model_copy(update={"turn": state.turn.model_copy(update={"rommel": rommel})})
        reach: dict[str, frozenset[str]] = {}
        for command_point in sorted(state.pack.land()):
            movers = _regroup_movers(state, side, command_point)
            if not movers:
                continue
            ends: set[str] = set()
            for t in movers:
                if t not in reach:
                    reach[t] = moves.finishes(probe, side, t, (state.tokens[t].hex or "",), extra=forced)
                ends |= reach[t]
            found.extend(kind(command_point=command_point, destination=d, rommel=rommel) for d in sorted(ends))
    return found


def _can_regroup(state: RommelState, seat: str, act: Regroup | WithdrawRegroup) -> Verdict:
    side = _side(seat)
    verdict = _can_begin(state, side, act.rommel, withdrawing=isinstance(act, WithdrawRegroup))
    if not verdict.ok:
        return verdict
    if act.command_point not in state.pack.land() or act.destination not in state.pack.land():
        return deny("5.2", "not-a-hex", "the Command Point and the destination are land hexes")
    if any(state.tokens[t].side != side for t in state.at(act.command_point)) and not any(
        state.tokens[t].side == side for t in state.at(act.command_point)
    ):
        return deny("5.2", "enemy-command-point", f"the Command Point {act.command_point} is an enemy hex")
    probe = state.model_copy(update={"turn": state.turn.model_copy(update={"rommel": act.rommel})})
    movers = _regroup_movers(state, side, act.command_point)
    forced = 0 if isinstance(act, WithdrawRegroup) else state.pack.limit("forced_march_hexes")  # §5.2 sidebar
    here = {t: (state.tokens[t].hex or "",) for t in movers}
    if not any(act.destination in moves.finishes(probe, side, t, here[t], extra=forced) for t in movers):
        return deny("5.2", "no-movers", f"no unit in or next to {act.command_point} can reach {act.destination}")
    return ALLOW


def _regrouped(state: RommelState, seat: str, act: Regroup | WithdrawRegroup) -> Step[RommelState]:
    turn = state.turn.model_copy(
        update={
            "move": ("regroup", act.command_point),
            "withdrawal": isinstance(act, WithdrawRegroup),
            "destination": act.destination,
            "rommel": act.rommel,
            "rommel_used": state.turn.rommel_used or act.rommel,
            "mover": None,
            "current": (),
        }
    )
    withdrawal = isinstance(act, WithdrawRegroup)
    data = {"src": act.command_point, "dst": act.destination, "rommel": act.rommel, "withdrawal": withdrawal}
    event = Event(kind="move_begun", seat=seat, rule="5.3" if withdrawal else "5.2", data=data)
    return Step(state=state.model_copy(update={"turn": turn}), events=(event,))


def _steps(state: RommelState, seat: str) -> Iterable[StepMove]:
    turn = state.turn
    if turn.move is None:
        return []
    side = _side(seat)
    if turn.move == ("group", offboard.box(state, side)):  # §16.4 sidebar: into the Base, the whole move
        base = base_hex(state.pack, side)
        return [StepMove(token=t, to=base) for t in offboard.waiting(state, side)]
    if turn.move[0] == "regroup":
        tokens = _regroup_movers(state, side, turn.move[1])
    else:
        tokens = [t for t in state.at(turn.move[1]) if state.tokens[t].side == side and t not in turn.paths]
    if turn.mover is not None:
        tokens.insert(0, turn.mover)
    found: list[StepMove] = []
    for token in tokens:
        here = state.tokens[token].hex
        assert here is not None
        found.extend(StepMove(token=token, to=n) for n in state.pack.hex_map.neighbours(here))  # type: ignore[arg-type]
        if here in moves.exit_hexes(state, side) and turn.move[0] == "group":
            found.append(StepMove(token=token, to=moves.EXIT))
    return found


def _can_step(state: RommelState, seat: str, act: StepMove) -> Verdict:
    if state.turn.stage != "movement":
        return deny("5.0", "no-move", "units move in the Movement phase")
    tok = state.tokens.get(act.token)
    if state.turn.move == ("group", offboard.box(state, _side(seat))) or (tok is not None and tok.status == "waiting"):
        return offboard.enter_verdict(state, _side(seat), act.token, act.to)
    verdict = moves.step_verdict(state, _side(seat), act.token, act.to)
    if verdict.ok and state.turn.withdrawal:
        return withdrawal.move_step_verdict(state, _side(seat), act.token, act.to)
    return verdict


def _announce_short(state: RommelState, side: Side, keep: str | None = None) -> tuple[RommelState, list[Event]]:
    """§5.2 sidebar: a Regroup mover that stops next to the destination beyond its range announces its Forced March
    into it as it stops (when another unit moves, or the Move ends), so later movers count its crossing (§7.1)."""
    events: list[Event] = []
    for token in moves.short_of(state, side):
        if token != keep:
            data = {"unit": token, "src": state.turn.paths[token][-1], "dst": state.turn.destination or ""}
            events.append(Event(kind="forced_march_announced", seat=side, rule="6.4", data=data))
    return moves.shorts_announced(state, side, keep=keep), events


def _stepped(state: RommelState, seat: str, act: StepMove) -> Step[RommelState]:
    side = _side(seat)
    announced: list[Event] = []
    if state.turn.move is not None and state.turn.move[0] == "regroup":
        state, announced = _announce_short(state, side, keep=act.token)
    src = state.tokens[act.token].hex
    if state.tokens[act.token].status == "waiting":
        src = offboard.box(state, side)
        state = offboard.entered(state, side, act.token)
    elif act.to == moves.EXIT:
        state = moves.exited(state, side, act.token)
    else:
        state = moves.stepped(state, side, act.token, act.to)
    if act.to == moves.EXIT:
        events = [*announced, Event(kind="exited", seat=seat, rule="17.1", data={"unit": act.token, "src": src})]
    else:
        data = {"unit": act.token, "src": src, "dst": act.to}
        events = [*announced, Event(kind="moved", seat=seat, rule="6.0", data=data)]
    taken = victory.base_taken(state) or victory.exits_won(state)
    if taken is not None:
        outcome = f"{taken} wins a Strategic Victory"
        state = state.model_copy(update={"phase": "over", "winner": taken, "outcome": outcome})
        events.append(Event(kind="game_over", seat=taken, rule="17.1", text=outcome))
    return Step(state=state, events=tuple(events))


def _end_moves(state: RommelState, seat: str) -> Iterable[EndMove]:
    return [EndMove()]


def _can_end_move(state: RommelState, seat: str, act: EndMove) -> Verdict:
    if state.turn.move is None:
        return deny("5.0", "no-move", "no Move is under way")
    if not state.turn.in_move:
        return deny("5.1", "no-movers", "a Move moves at least one unit")
    if state.turn.move[0] == "regroup":
        late = [t for t in state.turn.in_move if not moves.regroup_arrived(state, _side(seat), t)]
        if late:
            return deny(
                "5.2", "not-to-destination", f"{', '.join(late)} must end the Regroup in {state.turn.destination}"
            )
    if state.turn.withdrawal:
        return withdrawal.move_end_verdict(state, _side(seat))
    return ALLOW


def _move_paths(state: RommelState) -> dict[str, tuple[str, ...]]:
    """The paths of the units of the Move under way."""
    return {t: state.turn.paths[t] for t in state.turn.in_move}


def _ended_move(state: RommelState, seat: str, act: EndMove) -> Step[RommelState]:
    """§7.2: units that Disengaged are Disrupted at the end of their move; §5.2 sidebar: Regroup movers short of the
    destination announce their Forced March into it."""
    announced: list[Event] = []
    if state.turn.move is not None and state.turn.move[0] == "regroup":
        state, announced = _announce_short(state, _side(seat))
    tokens = dict(state.tokens)
    for token in _move_paths(state):
        if state.turn.disengaged.get(token, False):
            tokens[token] = tokens[token].model_copy(update={"disrupted": True, "disrupted_turn": state.turn_no})
    regrouped = state.turn.in_move if state.turn.move is not None and state.turn.move[0] == "regroup" else ()
    regroup_to = {**state.turn.regroup_to, **dict.fromkeys(regrouped, state.turn.destination or "")}
    partial = fights.partial_retreats(state.model_copy(update={"tokens": tokens}), _move_paths(state))
    update = {
        "partial": (*state.turn.partial, *(h for h in partial if h not in state.turn.partial)),
        "moves": state.turn.moves + (0 if state.turn.withdrawal else 1),
        "withdrawal": False,
        "withdrawn": (*state.turn.withdrawn, *state.turn.in_move) if state.turn.withdrawal else state.turn.withdrawn,
        "move": None,
        "destination": None,
        "mover": None,
        "current": (),
        "in_move": (),
        "regrouped": (*state.turn.regrouped, *regrouped),
        "regroup_to": regroup_to,
    }
    movers = tuple(_move_paths(state))
    full = pursuit.full_retreats(state.model_copy(update={"tokens": tokens}), movers)
    turn = state.turn.model_copy(update=update)
    events = [*announced, Event(kind="move_ended", seat=seat, rule="5.0", data={"moves": turn.moves})]
    state = state.model_copy(update={"turn": turn, "tokens": tokens})
    state, more = rout.begin(state)  # §10.3 step 4, §11.4: after the Retreats' Pursuit Fire
    events.extend(more)
    state = probe.offer(state, partial, movers)  # §10.41
    for hex_id, group in reversed(full):  # §10.3: each Full Retreat takes Pursuit Fire, the first hex first
        state, more = pursuit.start(state, hex_id, _side(seat), group, "retreat")
        events.extend(more)
    return Step(state=state, events=tuple(events))


def _voided(state: RommelState, seat: str, act: WithdrawalVoid) -> Step[RommelState]:
    event = Event(kind="withdrawal_voided", seat=seat, rule="5.3", data={"units": list(state.turn.in_move)})
    return Step(state=withdrawal.voided(state), events=(event,))


def _end_movements(state: RommelState, seat: str) -> Iterable[EndMovement]:
    return [EndMovement()]


def _can_end_movement(state: RommelState, seat: str, act: EndMovement) -> Verdict:
    if state.turn.stage != "movement":
        return deny("3.43", "not-movement", "this is not the Movement phase")
    if state.turn.move is not None:
        return deny("3.43", "move-under-way", "end the Move under way first")
    return ALLOW


def _ended_movement(state: RommelState, seat: str, act: EndMovement) -> Step[RommelState]:
    """§3.43: the Forced Marches announced are rolled (§6.4), then the Combat phase."""
    stage = "mines" if minefields.mines_due(state) else "combat"  # §14.2: the enemy's entered Minefields first
    # a unit eliminated since it announced its Forced March (its Retreat's Pursuit Fire, §10.5) rolls none
    forced = {t: h for t, h in state.turn.forced.items() if state.tokens[t].status == "map"}
    turn = state.turn.model_copy(update={"stage": stage, "forced": forced})
    event = Event(kind="movement_ended", seat=seat, rule="3.43")
    state = state.model_copy(update={"turn": turn})
    if turn.forced:
        spec = RollSpec(id="forced", sides=6, n=len(turn.forced), purpose=f"{seat} Forced Marches")
        state = state.with_rolls(RollRequest(rolls=(spec,)))
    else:
        state = refuse.offer(state)  # §8.4: after all Movement
    return Step(state=state, events=(event,))


def _forces(state: RommelState, seat: str) -> Iterable[Force]:
    found: list[Force] = []
    for token, path in state.turn.paths.items():
        if len(path) > 1:
            found.extend(Force(token=token, to=n) for n in state.pack.hex_map.neighbours(path[-1]))  # type: ignore[arg-type]
    return found


def _can_force(state: RommelState, seat: str, act: Force) -> Verdict:
    if act.token in state.turn.withdrawn:
        return deny("4.5", "withdrawn", f"{act.token} made the Pass Turn's Withdrawal: no other movement")
    destination = state.turn.regroup_to.get(act.token)
    if destination is not None and state.tokens[act.token].hex == destination:
        return deny("5.2", "regrouped", f"{act.token} regrouped: it ends in the destination and marches no further")
    if destination is not None and act.to != destination:  # §5.2 sidebar: only into the destination
        return deny("5.2", "not-to-destination", f"{act.token} may Force March only into {destination}")
    return moves.force_verdict(state, _side(seat), act.token, act.to)


def _forced(state: RommelState, seat: str, act: Force) -> Step[RommelState]:
    data = {"unit": act.token, "src": state.turn.paths[act.token][-1], "dst": act.to}
    event = Event(kind="forced_march_announced", seat=seat, rule="6.4", data=data)
    return Step(state=moves.announced(state, _side(seat), act.token, act.to), events=(event,))


def _marched(state: RommelState, dice: tuple[int, ...]) -> Step[RommelState]:
    """§6.4: 4-6 the unit moves the extra hex; 1-3 it is Disrupted where it stands (a Group Move)."""
    side = state.active
    events = []
    retreating: list[str] = []  # §6.4 sidebar: a Retreat's failed Forced March costs a step
    for (token, to), die in zip(sorted(state.turn.forced.items()), dice, strict=True):
        if die >= state.pack.limit("forced_march_min"):
            turn = state.turn.model_copy(update={"mover": token, "current": state.turn.paths[token]})
            state = moves.stepped(state.model_copy(update={"turn": turn}), side, token, to, forced=True)
            events.append(
                Event(kind="forced_march", seat=side, rule="6.4", data={"unit": token, "die": die, "dst": to})
            )
        else:  # Disrupted where it stands; a Regroup mover back at its original location (§5.2 sidebar)
            home = state.turn.paths[token][0] if token in state.turn.regroup_to else state.tokens[token].hex
            update = {"disrupted": True, "disrupted_turn": state.turn_no, "hex": home}
            tok = state.tokens[token].model_copy(update=update)
            tokens = {**state.tokens, token: tok}
            battles = dict(state.battles)
            if token in state.turn.left and home is not None:
                battles.setdefault(home, state.turn.left[token])
            state = state.model_copy(update={"tokens": tokens, "battles": moves.settled(tokens, battles)})
            events.append(Event(kind="forced_march_failed", seat=side, rule="6.4", data={"unit": token, "die": die}))
            if state.turn.disengaged.get(token, False):
                retreating.append(token)
    turn = state.turn.model_copy(update={"mover": None, "current": (), "forced": {}, "forced_engaged": {}})
    state = refuse.offer(state.model_copy(update={"turn": turn}))  # §8.4: after all Movement, Forced Marches too
    state = rout.march_losses(state, side, retreating)
    return Step(state=state, events=tuple(events))


def _end_combats(state: RommelState, seat: str) -> Iterable[EndCombat]:
    return [EndCombat()]


def _can_end_combat(state: RommelState, seat: str, act: EndCombat) -> Verdict:
    if state.turn.stage != "combat":
        return deny("3.44", "not-combat", "this is not the Combat phase")
    return fights.skip_verdict(state, _side(seat))


def _fights(state: RommelState, seat: str) -> Iterable[FightBattle]:
    return [FightBattle(hex=h, assault=a) for h in sorted(state.battles) for a in (False, True)]


def _can_fight(state: RommelState, seat: str, act: FightBattle) -> Verdict:
    return fights.fight_verdict(state, _side(seat), act.hex, act.assault)


def _fought(state: RommelState, seat: str, act: FightBattle) -> Step[RommelState]:
    new, events = fights.start_fight(state, _side(seat), act.hex, act.assault)
    return Step(state=new, events=tuple(events))


def _fires(state: RommelState, seat: str) -> Iterable[Fire]:
    fight = top(state, Fight)
    return [Fire(token=t, target=c) for t, c in fights.fire_candidates(state, fight)]


def _can_fire(state: RommelState, seat: str, act: Fire) -> Verdict:
    return fights.fire_verdict(state, top(state, Fight), act.token, act.target)


def _fired(state: RommelState, seat: str, act: Fire) -> Step[RommelState]:
    return Step(state=fights.fired(state, top(state, Fight), act.token, act.target))


def _can_cease(state: RommelState, seat: str, act: Cease) -> Verdict:
    fight = top(state, Fight)
    if fight.awaiting != "fire" or fight.shooting is not None:
        return deny("9.1", "not-firing", "no fire is due now")
    return fights.strength_verdict(state, fight)


def _ceased(state: RommelState, seat: str, act: Cease) -> Step[RommelState]:
    event = Event(kind="fire_ended", seat=seat, rule="9.1")
    new, events = fights.cease(state, top(state, Fight), [event])
    return Step(state=new, events=tuple(events))


def _losses(state: RommelState, seat: str) -> Iterable[Losses]:
    return [Losses(target=t, losses=c) for t, c in fights.loss_candidates(state, top(state, Fight))]


def _can_lose(state: RommelState, seat: str, act: Losses) -> Verdict:
    return fights.losses_verdict(state, top(state, Fight), act.target, act.losses)


def _lost(state: RommelState, seat: str, act: Losses) -> Step[RommelState]:
    new, events = fights.take_losses(state, top(state, Fight), act.target, act.losses)
    return Step(state=new, events=tuple(events))


def _slowests(state: RommelState, seat: str) -> Iterable[Slowest]:
    return [Slowest(speed=v) for v in pursuit.slowest_candidates(state, top(state, Pursuit))]


def _can_slowest(state: RommelState, seat: str, act: Slowest) -> Verdict:
    return pursuit.slowest_verdict(state, top(state, Pursuit), act.speed)


def _announced(state: RommelState, seat: str, act: Slowest) -> Step[RommelState]:
    new, events = pursuit.announced(state, top(state, Pursuit), act.speed)
    return Step(state=new, events=tuple(events))


def _pursues(state: RommelState, seat: str) -> Iterable[Pursue]:
    item = top(state, Pursuit)
    return [Pursue(dice=n) for n in pursuit.dice_candidates(state, item)] if item.awaiting == "dice" else []


def _can_pursue(state: RommelState, seat: str, act: Pursue) -> Verdict:
    return pursuit.dice_verdict(state, top(state, Pursuit), act.dice)


def _pursued(state: RommelState, seat: str, act: Pursue) -> Step[RommelState]:
    new, events = pursuit.pursued(state, top(state, Pursuit), act.dice)
    return Step(state=new, events=tuple(events))


def _pursuit_losses(state: RommelState, seat: str) -> Iterable[PursuitLosses]:
    found = []
    for gone, losses in pursuit.losses_candidates(state, top(state, Pursuit)):
        found.append(
            PursuitLosses(eliminated=gone) if losses is None else PursuitLosses(eliminated=gone, losses=losses)
        )
    return found


def _can_pursuit_lose(state: RommelState, seat: str, act: PursuitLosses) -> Verdict:
    return pursuit.losses_verdict(state, top(state, Pursuit), act.eliminated, act.losses)


def _pursuit_lost(state: RommelState, seat: str, act: PursuitLosses) -> Step[RommelState]:
    new, events = pursuit.took_losses(state, top(state, Pursuit), act.eliminated)
    return Step(state=new, events=tuple(events))


def _attritions(state: RommelState, seat: str) -> Iterable[Attrition]:
    return [Attrition(eliminated=e) for e in rout.attrition_candidates(state, top(state, Pursuit))]


def _can_attrit(state: RommelState, seat: str, act: Attrition) -> Verdict:
    return rout.attrition_verdict(state, top(state, Pursuit), act.eliminated)


def _attrited(state: RommelState, seat: str, act: Attrition) -> Step[RommelState]:
    new, events = rout.attrited(state, top(state, Pursuit), act.eliminated)
    return Step(state=new, events=tuple(events))


def _withdraws(state: RommelState, seat: str) -> Iterable[Withdraw]:
    return [Withdraw(token=t, to=h) for t, h in withdrawal.step_candidates(state, top(state, Withdrawal))]


def _can_withdraw(state: RommelState, seat: str, act: Withdraw) -> Verdict:
    return withdrawal.step_verdict(state, top(state, Withdrawal), act.token, act.to)


def _withdrew(state: RommelState, seat: str, act: Withdraw) -> Step[RommelState]:
    new, events = withdrawal.stepped(state, top(state, Withdrawal), act.token, act.to)
    return Step(state=new, events=tuple(events))


def _can_end_withdrawal(state: RommelState, seat: str, act: EndWithdrawal) -> Verdict:
    return withdrawal.end_verdict(state, top(state, Withdrawal))


def _ended_withdrawal(state: RommelState, seat: str, act: EndWithdrawal) -> Step[RommelState]:
    new, events = withdrawal.ended(state, top(state, Withdrawal))
    new, more = rout.begin(new)  # §10.2 step 4: the Disrupted units a refusing group leaves Rout
    return Step(state=refuse.settle(new), events=(*events, *more))


def _refuses(state: RommelState, seat: str) -> Iterable[Refuse]:
    return [Refuse(hex=h) for h in refuse.attacked(state)]


def _can_refuse(state: RommelState, seat: str, act: Refuse) -> Verdict:
    return refuse.refuse_verdict(state, act.hex)


def _refused(state: RommelState, seat: str, act: Refuse) -> Step[RommelState]:
    new, events = refuse.refused(state, act.hex)
    return Step(state=new, events=tuple(events))


def _accepted(state: RommelState, seat: str, act: AcceptBattle) -> Step[RommelState]:
    new, events = refuse.accepted(state)
    return Step(state=new, events=tuple(events))


def _can_probe(state: RommelState, seat: str, act: ProbeCombat) -> Verdict:
    return probe.probe_verdict(state, top(state, Probe), act.provoke)


def _probed(state: RommelState, seat: str, act: ProbeCombat) -> Step[RommelState]:
    new, events = probe.probed(state, top(state, Probe), act.provoke)
    return Step(state=new, events=tuple(events))


def _can_blitz(state: RommelState, seat: str, act: Blitz) -> Verdict:
    """§4.4: a Blitz Turn (three real cards) has a second pair of Movement and Combat phases after the first."""
    turn = state.turn
    if turn.stage != "combat" or turn.blitz:
        return deny("4.4", "not-now", "Blitz Movement follows the first Combat phase, once a turn")
    if fights.paid(state) < state.pack.limit("cost_blitz"):
        return deny("4.4", "not-blitz-paid", "the committed cards do not pay for a Blitz Turn")
    if turn.moves > state.pack.limit("moves_basic"):
        return deny("4.4", "two-moves", "a Blitz Turn has one Move in each Movement phase: two Moves were made")
    if turn.assault:
        return deny("4.4", "assault-turn", "an Assault was fought: this is an Assault Turn")
    return fights.skip_verdict(state, _side(seat))


def _blitzed(state: RommelState, seat: str, act: Blitz) -> Step[RommelState]:
    """§4.4, §3.45: the hexside limits are reset; units that moved cannot move again (their paths stay)."""
    update = {"stage": "movement", "blitz": True, "engaged": {}, "fought": (), "first_phase": tuple(state.turn.paths)}
    turn = state.turn.model_copy(update=update)
    event = Event(kind="blitz_begun", seat=seat, rule="4.4")
    return Step(state=state.model_copy(update={"turn": turn}), events=(event,))


def _ended_combat(state: RommelState, seat: str, act: EndCombat) -> Step[RommelState]:
    skipped = not fights.unfought(state, _side(seat), pass_turn=False).ok  # fine only if the turn is a Pass
    state = state.model_copy(update={"turn": state.turn.model_copy(update={"skipped": skipped})})
    state, raided = raiders.mark(state)  # §12.5: after all movement and combat, before the Final Supply Check
    state, events = supplycheck.final_check(state)
    newly = next(e.data["disrupted"] for e in events if e.kind == "supply_final")
    state, routs = rout.begin(state, among=newly)  # §12.7: at once, before the reveal
    events = [*raided, *events, *routs]
    if state.pending:
        return Step(
            state=state.model_copy(update={"turn": state.turn.model_copy(update={"stage": "final"})}),
            events=tuple(events),
        )
    return _reveal(state, events)


def _reveal(state: RommelState, events: list[Event]) -> Step[RommelState]:
    """§3.48: the Player-Turn's cards revealed, once the Final Supply Check (and its Routs) is over."""
    ending = state.active  # end_turn may already hand the next Player-Turn over (no card committed)
    state = turns.end_turn(state)
    events.append(Event(kind="turn_ended", seat=ending, rule="3.48"))
    if state.deck is None:
        return _after_turn(state, events)
    return Step(state=state, events=tuple(events))


def _settled(step: Step[RommelState]) -> Step[RommelState]:
    """The turn goes on to the reveal once the Routs the Final Supply Check began are over (§12.7, §3.48)."""
    state = step.state
    waiting = (
        state.pending
        or state.deck is not None
        or state.pending_rolls
        or any(s.must_open for s in state.hidden.values())
    )
    if state.phase != "turn" or state.turn.stage != "final" or waiting:
        return step
    return _reveal(state, list(step.events))


def _after_turn(state: RommelState, events: list[Event]) -> Step[RommelState]:
    """After the reveal: the next Player-Turn, or the end of the Month (§3.1) and of the game (§17)."""
    if state.phase == "over":
        return Step(state=state, events=tuple(events))
    if state.passes < 2:
        state, more = supplycheck.begin_turn(state, state.active)
        state, routs = rout.begin(state)  # §11.3: a recovered unit Routs the enemy Disrupted units beside it
        state, forced = withdrawal.fortress_attackers(state)  # §13.5 sidebar: a Pass Turn's, first
        return Step(state=state, events=(*events, *more, *routs, *forced))
    events.append(Event(kind="month_ended", rule="3.1", data={"month": state.month}, text=f"Month {state.month} ends"))
    state, forced = withdrawal.fortress_attackers(state.model_copy(update={"phase": "advance"}))
    return Step(state=state, events=(*events, *forced))


def _advanced(state: RommelState, seat: str, act: Advance) -> Step[RommelState]:
    """The next Month's Buildup (§16.1), or after the last Month the blocks revealed for the count (§17.0, §17.2).

    An action of its own: the Month may end at a reveal of cards, and dice cannot follow a deck operation."""
    events: list[Event] = []
    if state.month >= state.last_month:
        state, back = offboard.count_in(state)  # notes §8, §9: refitting and waiting units count (in Base)
        if back:
            events.append(Event(kind="refit_returned", rule="16.52", data={"units": back}))
        closed = [
            name
            for t in state.on_map()
            for name in (unit_slot(t), cv_slot(t))
            if name in state.hidden and not state.hidden[name].public
        ]
        closed += [m for m in sorted(state.mines) if not state.hidden[m].public]  # for the audit (§14.1)
        state = state.model_copy(update={"phase": "over"})
        if closed:
            return Step(state=state.with_opening(*closed), events=tuple(events))
        return _final(state, events)
    new, more = buildup.start_buildup(state)
    return Step(state=new, events=(*events, *more))


def _final(state: RommelState, events: list[Event]) -> Step[RommelState]:
    winner, outcome, more = victory.final_result(state)
    return Step(state=state.model_copy(update={"winner": winner, "outcome": outcome}), events=(*events, *more))


def _to_act(state: RommelState) -> tuple[str, ...]:
    if state.deck is not None or state.pending_rolls:
        return ()
    match state.phase:
        case "setup":
            return next(((s,) for s in SIDES if scenarios.next_token(state, s) is not None), ())
        case "mulligan":
            side = _mulligan_side(state)
            return () if side is None or state.redrawing is not None else (side,)
        case "buildup":
            side = _buildup_side(state)
            return () if side is None else (side,)
        case "initiative":
            if "allied" not in state.challenge:
                return ("allied",)
            return ("axis",) if "axis" not in state.challenge else ()
        case "turn":
            if state.turn.stage == "mines":  # §14.2: the passive player reveals the Minefields entered
                return (other(state.active),)
            return () if state.turn.stage == "reveal" else (state.active,)
        case "advance":
            return ("axis",)
    return ()


MACHINE: Machine[RommelState, Any] = Machine(
    adapter=TypeAdapter(RommelAction),
    rule="3.0",
    phases=(
        Phase("dealing", (), rule="16.6", to_act=_to_act),
        Phase("setup", ("identify", "deploy"), rule="18.0", to_act=_to_act),
        Phase("mulligan", ("keep", "redraw"), rule="18.0", to_act=_to_act),
        Phase(
            "buildup",
            ("identify", "buy", "replace", *spending.BUILDUP, "discard", "malta", "end_buildup"),
            rule="16.0",
            to_act=_to_act,
        ),
        Phase("initiative", ("challenge", "answer"), rule="3.3", to_act=_to_act),
        Phase(
            "turn",
            (
                "commit",
                "select",
                "group",
                "regroup",
                "withdraw_group",
                "withdraw_regroup",
                "void_withdrawal",
                "step",
                "end_move",
                "force",
                "end_movement",
                "fight",
                "blitz",
                "end_combat",
                *spending.MINES,
            ),
            rule="3.4",
            to_act=_to_act,
        ),
        Phase("advance", ("advance",), rule="3.1", to_act=_to_act),
        Phase("over", (), rule="17.0", to_act=_to_act),
    ),
    interrupts=(
        Interrupt("battle", ("fire", "cease", "losses"), rule="9.1"),
        Interrupt("pursuit", ("attrition", "slowest", "pursue", "pursuit_losses"), rule="10.5"),
        Interrupt("withdrawal", ("withdraw", "end_withdrawal"), rule="5.3"),
        Interrupt("refusal", ("refuse", "accept_battle"), rule="8.4"),
        Interrupt("probe", ("probe",), rule="10.41"),
    ),
    actions=(
        action(Identify, legal=_identify_candidates, can=_can_identify, effect=_identified),
        action(Deploy, legal=_deploy_candidates, can=_can_deploy, effect=_deployed),
        action(Keep, legal=lambda s, seat: [Keep()], can=lambda s, seat, a: ALLOW, effect=_keep),
        action(Redraw, legal=lambda s, seat: [Redraw()], can=lambda s, seat, a: ALLOW, effect=_redraw),
        action(Buy, legal=_buys, can=_can_buy, effect=_bought),
        action(Replace, legal=_replaces, can=_can_replace, effect=_replaced),
        *spending.ACTIONS,
        action(Discard, legal=_discards, can=_can_discard, effect=_discarded),
        action(Malta, legal=lambda s, seat: [Malta()], can=_can_malta, effect=_called_malta),
        action(EndBuildup, legal=_ends, can=_can_end_buildup, effect=_ended_buildup),
        action(Challenge, legal=_challenges, can=_can_challenge, effect=_challenged),
        action(Answer, legal=_answers, can=_can_answer, effect=_answered),
        action(Commit, legal=_commits, can=_can_commit, effect=_committed),
        action(Select, legal=_selects, can=_can_select, effect=_selected),
        action(GroupMove, legal=_groups, can=_can_group, effect=_grouped),
        action(Regroup, legal=_regroups, can=_can_regroup, effect=_regrouped),
        action(WithdrawGroup, legal=_withdraw_groups, can=_can_group, effect=_grouped),
        action(WithdrawRegroup, legal=_withdraw_regroups, can=_can_regroup, effect=_regrouped),
        action(
            WithdrawalVoid,
            legal=lambda s, seat: [WithdrawalVoid()],
            can=lambda s, seat, a: withdrawal.void_verdict(s),
            effect=_voided,
        ),
        action(StepMove, legal=_steps, can=_can_step, effect=_stepped),
        action(EndMove, legal=_end_moves, can=_can_end_move, effect=_ended_move),
        action(Force, legal=_forces, can=_can_force, effect=_forced),
        action(EndMovement, legal=_end_movements, can=_can_end_movement, effect=_ended_movement),
        action(EndCombat, legal=_end_combats, can=_can_end_combat, effect=_ended_combat),
        action(FightBattle, legal=_fights, can=_can_fight, effect=_fought),
        action(Fire, legal=_fires, can=_can_fire, effect=_fired),
        action(Cease, legal=lambda s, seat: [Cease()], can=_can_cease, effect=_ceased),
        action(Losses, legal=_losses, can=_can_lose, effect=_lost),
        action(Slowest, legal=_slowests, can=_can_slowest, effect=_announced),
        action(Pursue, legal=_pursues, can=_can_pursue, effect=_pursued),
        action(PursuitLosses, legal=_pursuit_losses, can=_can_pursuit_lose, effect=_pursuit_lost),
        action(Attrition, legal=_attritions, can=_can_attrit, effect=_attrited),
        action(Withdraw, legal=_withdraws, can=_can_withdraw, effect=_withdrew),
        action(
            EndWithdrawal,
            legal=lambda s, seat: [EndWithdrawal()],
            can=_can_end_withdrawal,
            effect=_ended_withdrawal,
        ),
        action(Refuse, legal=_refuses, can=_can_refuse, effect=_refused),
        action(AcceptBattle, legal=lambda s, seat: [AcceptBattle()], can=lambda s, seat, a: ALLOW, effect=_accepted),
        action(
            ProbeCombat,
            legal=lambda s, seat: [ProbeCombat(provoke=p) for p in (True, False)],
            can=_can_probe,
            effect=_probed,
        ),
        action(Blitz, legal=lambda s, seat: [Blitz()], can=_can_blitz, effect=_blitzed),
        action(Advance, legal=lambda s, seat: [Advance()], can=lambda s, seat, a: ALLOW, effect=_advanced),
    ),
)


class Rommel(PackedData, Ruleset[RommelState]):
    pack_format = FORMAT
    id = "rommel"
    name = "Rommel in the Desert"
    version = "1"
    actions = RommelAction
    options = (
        OptionSpec(
            id="i_tanks",
            description="Optional Rules, Allied I-Tanks: the Army Tank blocks are elite, at the pack's I-tank speed",
            default=False,
            choices=(False, True),
        ),
        OptionSpec(
            id="divulge_bp",
            description=(
                "❒ §16.5 sidebar, Divulging BP Expenditures: at the end of each Buildup a player's BP saved and its"
                " counts of Redeployments, steps rebuilt, Extra Supply and Minefields (not their hexes) are disclosed"
            ),
            default=False,
            choices=(False, True),
        ),
        OptionSpec(
            id="partial_retreat_bars_fortress_combat",
            description=(
                "notes §10.9: after the Fortress Attacker's Partial Retreat, §10.4 (no combat there this turn) wins"
                " over §13.2 (the Attacker must fight in a Fortress); false lets §13.2 win"
            ),
            default=True,
            choices=(True, False),
        ),
    )
    scenarios = tuple(
        Scenario(id=s.id, name=f"{s.name} (§{s.section})", seats=SEATS, description=f"{s.start_label} to {s.end_label}")
        for s in load_pack(default_pack_bytes()).scenarios
    )

    # --- data -------------------------------------------------------------------------------------------------
    def setup(self, scenario: str, options: Mapping[str, Any], roster: Roster, data: RommelPack) -> RommelState:
        if scenario not in {s.id for s in data.scenarios}:
            raise PbemError("R007", f"rommel has no scenario {scenario!r}")
        return scenarios.initial_state(data, scenario, dict(options))

    def period(self, state: RommelState) -> str:
        return "setup" if state.turn_no == 0 else f"month-{state.month}"

    # --- the sequence of play -----------------------------------------------------------------------------------
    def to_act(self, state: RommelState) -> tuple[str, ...]:
        if state.phase == "over" or state.deck is not None or state.pending_rolls:
            return ()  # the game waits for the protocol: dice or the deck
        return MACHINE.to_act(state)

    def legal_actions(self, state: RommelState, seat: str) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [a.wire() for a in MACHINE.legal_actions(state, seat)]

    def secret_fields(self, state: RommelState, seat: str, action: Action) -> dict[str, str]:
        token = action.get("token")
        if action.get("action") == "identify" and isinstance(token, str):
            return {"block": unit_slot(token)}
        if action.get("action") == "pursuit_losses":  # the CVs lost by a hidden group (§10.2, notes §7.2.1)
            return {"losses": pursuit.loss_slot(seat)}
        return spending.secret_slot(state, seat, action)

    def contains(self, state: RommelState, seat: str, action: Any, *, unseen: frozenset[str] = frozenset()) -> Verdict:
        act = self.typed(action)
        if seat not in self.to_act(state):
            waited = ", ".join(self.to_act(state)) or "the protocol (dice or cards)"
            return deny("3.0", "not-your-turn", f"the game waits for {waited}, not {seat}")
        if isinstance(act, Identify) and "block" in unseen and act.block is None:
            if seat not in MACHINE.to_act(state) or "identify" not in MACHINE.allowed(state):
                return deny("18.0", "not-now", f"{seat} does not choose units now")
            return scenarios.identify_verdict(state, _side(seat), act.token, None, unseen=True)
        if isinstance(act, BuildMinefield | SwapMinefields) and "hex" in unseen and act.hex is None:
            if seat not in MACHINE.to_act(state) or act.action not in MACHINE.allowed(state):
                return deny("16.55", "not-now", f"{seat} does not build Minefields now")
            return spending.unseen_verdict(state, seat, act)
        if isinstance(act, PursuitLosses) and "losses" in unseen and act.losses is None:
            if "pursuit_losses" not in MACHINE.allowed(state):
                return deny("10.5", "no-losses-due", "no Pursuit Fire losses are due now")
            return pursuit.losses_verdict(state, top(state, Pursuit), act.eliminated, None, unseen=True)
        return MACHINE.check(state, seat, act)

    def apply(self, state: RommelState, seat: str, action: Any) -> Step[RommelState]:
        act = self.typed(action)
        checked, state = state, updated(state, {"acts": state.acts + 1})  # no predicate reads the count
        if isinstance(act, Identify):  # its secret field is in the slot, not in the logged action
            return _identified(state, seat, act)
        if isinstance(act, BuildMinefield | SwapMinefields) and act.hex is None:  # the hex is in its slot
            return spending.apply_unseen(state, seat, act)
        if isinstance(act, PursuitLosses) and act.losses is None:  # likewise (contains checked it)
            return _settled(_pursuit_lost(state, seat, act))
        return _settled(MACHINE.apply(state, seat, act, checked=checked))

    def resume(self, state: RommelState, outcome: Outcome) -> Step[RommelState]:
        return _settled(self._resumed(state, outcome))  # whatever ends the Final Supply Check's Routs (§12.7)

    def _resumed(self, state: RommelState, outcome: Outcome) -> Step[RommelState]:
        if outcome.dice is not None:
            early = [k for k in outcome.dice if k.startswith("early-")]
            if early:
                side: Side = "axis" if early[0] == "early-axis" else "allied"
                new, events = buildup.early_rolled(state, side, tuple(outcome.dice[early[0]]))
                return Step(state=new, events=tuple(events))
            if "fire" in outcome.dice:
                new, events = fights.shot(state, top(state, Fight), tuple(outcome.dice["fire"]))
                return Step(state=new, events=tuple(events))
            if "pursuit" in outcome.dice:
                new, events = pursuit.rolled(state, top(state, Pursuit), tuple(outcome.dice["pursuit"]))
                return Step(state=new, events=tuple(events))
            if "forced" in outcome.dice:
                return _marched(state, tuple(outcome.dice["forced"]))
            new, events = buildup.dice_rolled(state, dict(outcome.dice))
            for seat in SIDES:  # a side with no unit to choose rolls its Early Arrival dice at once
                new = buildup.early_request(new, seat)
            return Step(state=new, events=tuple(events))
        if outcome.opened:
            state = minefields.opened(_strength_claims(state, outcome.opened), outcome.opened)
            if state.phase == "buildup" and buildup.divulging(state) and _buildup_side(state) is None:  # ❒ §16.5
                return Step(state=buildup.resupply(state))
            return _final(state, []) if state.phase == "over" else Step(state=state)
        state = state.model_copy(update={"deck": None})
        if outcome.revealed:
            return self._revealed(state, outcome.revealed)
        if state.phase == "dealing":
            state = scenarios.next_deal(state)
            if state.phase == "turn":
                state = state.model_copy(update={"turn": TurnRecord(), "passes": 0})
            if state.phase == "mulligan" and _mulligan_side(state) is None:
                state = _first_month(state)
        return Step(state=state)

    def _revealed(self, state: RommelState, cards: tuple[int, ...]) -> Step[RommelState]:
        if state.phase == "mulligan" and state.redrawing is not None:  # §18.0: a new hand, once
            side = state.redrawing
            state = state.model_copy(update={"redrawing": None})
            n = len(cards)
            return Step(state=scenarios.start_dealing(state, ((side, n),), "mulligan"))
        if state.phase == "initiative":
            new, events = initiative.initiative_revealed(state, cards)
            return Step(state=new, events=tuple(events))
        if state.phase == "buildup":  # §16.6: a dummy discarded, face up until the Resupply shuffle
            real = [c for c in cards if is_real(state.pack, c)]
            data = {"cards": list(cards), "real": len(real)}
            return Step(state=state, events=(Event(kind="card_shown", rule="16.6", data=data),))
        new, events = turns.revealed(state, cards)
        return _after_turn(new, events)

    def result(self, state: RommelState) -> Result | None:
        if state.phase != "over":
            return None
        if state.forfeit is not None:
            return Result(winners=(state.winner,) if state.winner else (), outcome=f"{state.forfeit} forfeits (§4.0)")
        if not state.outcome:
            return None  # the blocks are being revealed for the count (§17.2)
        return Result(winners=(state.winner,) if state.winner else (), outcome=state.outcome)

    # --- presentation -----------------------------------------------------------------------------------------
    def presentation(self, data: Any) -> Presentation:
        return RommelLook(data)

    def describe(self, action: Action) -> str:
        """The default's words with each block token as everybody may name it (``Axis block 22``), never its id:
        the action alone does not say which block it is (a hidden identity)."""
        named = {key: _named_tokens(value) for key, value in action.items()}
        return super().describe(named)

    def label(self, state: RommelState, field: str, value: Any) -> str:
        """Hexes with their places, blocks by side, number and hex with their identity and CV only where this state
        knows them (a player's own blocks in their prompts), units by name."""
        if field in ("hex", "to", "origin") and isinstance(value, str) and value in state.pack.land():
            return hex_label(state.pack, value)
        if field == "origin" and isinstance(value, str) and offboard.is_box(state, value):  # §16.4 sidebar
            box = next(b for b in state.pack.map.offboard if b.id == value)
            return f"the {box.side.title()} off-board box (beyond {state.pack.place(box.base).name})"
        if field == "token" and isinstance(value, str) and value in state.tokens:
            return known_label(state, value)
        if field == "block" and isinstance(value, str) and value in {b.id for b in state.pack.blocks}:
            block = state.pack.block(value)
            kind = state.pack.unit_type(block.unit_type).name
            return f"{block.division} {block.unit} ({kind}, CV {block.cv_max})"
        if field == "eliminated" and isinstance(value, list):
            return ", ".join(value) or "none"
        if field == "losses" and isinstance(value, dict):
            return "; ".join(f"{token} loses {cv} CV" for token, cv in sorted(value.items())) or "no losses"
        if field == "target" and isinstance(value, str):
            return value.replace("_", "-")
        if field == "card" and isinstance(value, int):
            return f"card {value + 1} of the hand"
        return super().label(state, field, value)

    # --- views ------------------------------------------------------------------------------------------------
    def view(self, state: RommelState, viewer: str) -> View:
        units = []
        for token, tok in sorted(state.tokens.items()):
            unit = state.hidden.get(unit_slot(token))
            cv = state.hidden.get(cv_slot(token))
            seen = unit is not None and unit.known and (unit.public or viewer in (tok.side, OMNISCIENT))
            told = cv is not None and state.told.get(cv_slot(token)) == cv.ver  # a public loss report (§9.5)
            cv_seen = cv is not None and cv.known and (cv.public or told or viewer in (tok.side, OMNISCIENT))
            block = state.pack.block(unit.value) if seen and unit is not None else None
            strength = cv.value if cv_seen and cv is not None and isinstance(cv.value, int) else None
            if tok.status == "eliminated":  # public (§2.3): whatever CV it had is lost
                strength = 0
            units.append(
                UnitView(
                    id=token,
                    name=token_label(tok.side, token, None, state.pack) if block is None else block_name(block),
                    side=tok.side,
                    location=tok.hex if tok.status == "map" else _boxed(state, tok.side, tok.status),
                    # a report's losses are drops in steps: a block's CV (§2.3), by arms class, where seen
                    kind="" if block is None else state.pack.unit_type(block.unit_type).arms_class.replace("_", "-"),
                    strength=strength,
                    steps=strength,
                    hidden=not seen,
                    extra={"disrupted": tok.disrupted, "block": unit.value if seen and unit is not None else None},
                )
            )
        deck = state.decks.get(DECK)
        facts: dict[str, Any] = {
            "phase": state.phase,
            "month": state.month,
            "active": state.active,
            "deck": 0 if deck is None else deck.size,
            "hands": {s: len(scenarios.hand(state, s)) for s in SIDES},
            "battles": sorted(state.battles),
            "minefields": sorted(set(state.minefields)),
        }
        if viewer in SIDES and deck is not None:
            facts["hand"] = list(deck.hand(viewer, viewer))
        if viewer in SIDES:  # its own Minefields not yet revealed (§14.1: noted in secret)
            side = _side(viewer)
            hexes = (minefields.mine_hex(state, m) for m in minefields.hidden_mines(state, side))
            facts["own_minefields"] = sorted(h for h in hexes if h is not None)
        summary = state.outcome or f"Month {state.month}, {state.phase}: {', '.join(self.to_act(state)) or 'waiting'}"
        return View(viewer=viewer, summary=summary, units=tuple(units), facts=facts)


def _boxed(state: RommelState, side: Side, status: str) -> str | None:
    """Where a view draws a block off the map: refitting (§16.52) or waiting (§16.4 sidebar) in its side's box."""
    return offboard.box(state, side) if status in ("refit", "waiting") else None


def _named_tokens(value: Any) -> Any:
    """``value`` with each block token (``axis-22``) named (``Axis block 22``); CV lost per block as ``… 2 CV``."""
    if isinstance(value, str) and _TOKEN.fullmatch(value):
        side, number = value.split("-")
        return f"{side.title()} block {number}"
    if isinstance(value, list):
        return [_named_tokens(v) for v in value]
    if isinstance(value, dict):
        return [f"{_named_tokens(k)} {v} CV" for k, v in sorted(value.items())] or "none"
    return value


_TOKEN = re.compile(r"(axis|allied)-\d+")
"""A block token's id (:mod:`pbem.games.rommel.scenarios` numbers each side's blocks)."""


RULESET = Rommel()
