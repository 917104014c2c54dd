"""Sea combat of *Axis & Allies: North Africa* in phase 4 (pp.20-23, 33-34): every decision an action of the seat
that owns it, every die through the protocol, the rules in the combat library (:mod:`.combat`).

A sea zone the mover attacks (:mod:`.sea_moves`) is fought with ``fight`` like a territory. The attackers are the
mover's sea units in the zone and its air units that flew there (:mod:`.air_sorties`); the defenders are the other
side's combat sea and air units there (escorts), and in a convoy zone its reinforcements at sea on their virtual
transports (p.14). Each round:

* step 1 (p.20, p.34): with no enemy destroyer in the combat, the attacker and then the defender say which
  submarines ``submerge`` (one at a time, then ``done``); the others make a Surprise Strike: the attacker's fire,
  the defender's casualties, then the defender's (casualties included) and the attacker's casualties, all
  removed at the end of step 1 (a battleship hit once stays, damaged);
* steps 2 and 3 (pp.21-22): the other units fire as on land (bombers ``aim`` at a sea type, p.33); the defender's
  casualties are removed in step 4, the attacker's at once. A hit on the defender's transports (reached once no
  escort the hit could fall on is left: genesis option ``escorts_shield``, notes §10.12) costs two pieces of
  cargo: the defender picks the first (``lose_cargo``), the attacker names a type (``name_cargo``), the defender
  picks one of it (p.21);
* step 4 (p.22): in a convoy zone the defender lets up to the pack's ``convoy_escapes_per_round`` pieces of
  cargo ``escape`` (each a land unit or up to ``supply_per_bay`` supply), then ``done``; they stay in the zone;
* step 5 (p.23): the combat ends when neither side can hit the other, else the attacker presses (free, with
  every unit) or ceases; step 6: surviving attacking sea units stay, air units land in the noncombat move.

Battleships take two hits (p.33); the damage stays on the board (``state.damaged``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Literal

from pbem.games.axisallies import combat as lib
from pbem.games.axisallies import combat_record as words
from pbem.games.axisallies import phase_combat as pc
from pbem.games.axisallies import sea_escorts
from pbem.games.axisallies.actions import Escape, LoseCargo, NameCargo, Submerge
from pbem.games.axisallies.combat_start import convoy_cargo, defenders_in
from pbem.games.axisallies.combat_types import Cargo, EscortsShield, FireGroup, Piece
from pbem.games.axisallies.position import enemy
from pbem.games.axisallies.state import (
    AxisState,
    BattleRecord,
    Counts,
    Escapes,
    PressOrCease,
    Submerging,
    TakeCasualties,
    TransportHits,
    added,
    key,
    split,
)
from pbem.kit.machine import pop, push, replace_top, top
from pbem.rules.contract import ALLOW, Event, Step, Verdict, deny

__all__ = [
    "after_casualties",
    "can_escape",
    "can_lose_cargo",
    "can_name_cargo",
    "can_submerge",
    "casualties_taken",
    "done_at_sea",
    "escape",
    "escapes",
    "fight_at_sea",
    "lose_cargo",
    "lose_cargos",
    "name_cargo",
    "name_cargos",
    "next_round",
    "shield",
    "submerge",
    "submerges",
]

Role = Literal["attacker", "defender"]
TRANSPORT_KEY = key(*lib.TRANSPORT)


def shield(state: AxisState) -> EscortsShield:
    """The genesis option ``escorts_shield`` (notes §10.12, :data:`.combat_types.EscortsShield`)."""
    return "all" if state.options.get("escorts_shield") == "all" else "reachable"


def _record(state: AxisState) -> BattleRecord:
    assert state.battle is not None  # every sea decision is pushed with its battle
    return state.battle


def _set(state: AxisState, **update: object) -> AxisState:
    return state.model_copy(update={"battle": _record(state).model_copy(update=update)})


def _sea_units(state: AxisState, zone: str) -> Counts:
    return {
        k: n
        for k, n in sorted(state.pieces.get(zone, {}).items())
        if n > 0 and split(k)[0] == state.power and state.pack.unit(*split(k)).category == "sea"
    }


# --- the start of a sea combat --------------------------------------------------------------------------------


def fight_at_sea(state: AxisState, seat: str, zone: str) -> Step[AxisState]:
    """p.19: the combat in ``zone``: the mover's sea units there and its air units that flew there, against the
    other side's combat units and convoy there."""
    pack = state.pack
    side = pack.power(state.power).side or "axis"
    position = state.position()
    ships = _sea_units(state, zone)
    flying: Counts = {}
    sorties = []
    for sortie in state.sorties:
        if sortie.target == zone and not sortie.fought:
            flying = {**flying, key(sortie.power, sortie.type): flying.get(key(sortie.power, sortie.type), 0) + 1}
            sortie = sortie.model_copy(update={"fought": True})
        sorties.append(sortie)
    defenders = {key(*k): n for k, n in defenders_in(pack, position, zone, side).items()}
    cargo = convoy_cargo(pack, position, zone, enemy(side))
    here = state.damaged.get(zone, {})
    damaged = {k: n for k, n in here.items() if k in ships or k in defenders}
    spent = state.spent
    for k, n in ships.items():  # p.24: units that fought make no noncombat move (those that moved are counted)
        spent = added(spent, zone, k, max(n - spent.get(zone, {}).get(k, 0), 0))
    record = BattleRecord(
        space=zone,
        attacker=side,
        land={},
        defenders=defenders,
        air=flying,
        controller=state.power,
        kind="sea",
        ships=ships,
        damaged=damaged,
        cargo_units={key(*k): n for k, n in (cargo.units if cargo else {}).items()},
        cargo_supply=dict(cargo.supply) if cargo else {},
    )
    state = state.model_copy(
        update={
            "sorties": tuple(sorties),
            "naval": tuple(z for z in state.naval if z != zone),
            "spent": spent,
            "battle": record,
        }
    )
    text = f"{state.pack.power(state.power).name} attacks at sea in {words.space_name(state.pack, zone)}"
    event = Event(kind="sea_combat_started", seat=seat, rule="19", text=text, data={"space": zone, "attacker": side})
    return _round(state, (event,))


def _round(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    """Step 1 of a round (p.20): the attacker's submerge choices first, then the defender's (p.34)."""
    state = _set(state, struck={}, stage="")
    if lib.combat_over(state.pack, pc.battle_of(_record(state)), escorts_shield=shield(state)):
        return pc.conclude_combat(state, events)
    return _choose_or_next(state, "attacker", events)


def _choose_or_next(state: AxisState, role: Role, events: tuple[Event, ...]) -> Step[AxisState]:
    if lib.may_surprise(state.pack, pc.battle_of(_record(state)), role):
        decision = Submerging(seat=_seat(state, role), role=role)
        return Step(state=push(state, decision), events=events)
    if role == "attacker":
        return _choose_or_next(state, "defender", events)
    return _surprise(state, events)


def _seat(state: AxisState, role: Role) -> str:
    return pc.attacker_seat(state) if role == "attacker" else pc.defender_seat(state, _record(state))


# --- step 1: submerge or Surprise Strike (p.34) -----------------------------------------------------------------


def _subs(state: AxisState, role: Role) -> dict[Piece, int]:
    return lib.submarines(state.pack, pc.battle_of(_record(state)), role)


def submerges(state: AxisState, seat: str) -> Iterator[Submerge]:
    decision = top(state, Submerging)
    for piece in _subs(state, decision.role):
        yield Submerge(unit=key(*piece))


def can_submerge(state: AxisState, seat: str, act: Submerge) -> Verdict:
    decision = top(state, Submerging)
    piece = split(act.unit)
    if piece not in _subs(state, decision.role):
        return deny("34", "not-a-submarine", f"{act.unit} is no submarine of the {decision.role} in the combat")
    return lib.check_submerge(state.pack, pc.battle_of(_record(state)), decision.role, {piece: 1})


def submerge(state: AxisState, seat: str, act: Submerge) -> Step[AxisState]:
    """p.34: the submarine leaves the combat: it neither fires nor can be hit until the combat ends."""
    decision = top(state, Submerging)
    record = _record(state)
    field = "ships" if decision.role == "attacker" else "defenders"
    units = dict(getattr(record, field))
    units[act.unit] -= 1
    units = {k: n for k, n in units.items() if n > 0}
    submerged = {**record.submerged, act.unit: record.submerged.get(act.unit, 0) + 1}
    state = _set(state, **{field: units, "submerged": submerged})
    event = Event(kind="submerged", seat=seat, rule="34", data={"unit": act.unit, "space": record.space})
    if _subs(state, decision.role):
        return Step(state=state, events=(event,))
    return _submerged(pop(state), decision.role, (event,))


def _submerged(state: AxisState, role: Role, events: tuple[Event, ...]) -> Step[AxisState]:
    if role == "attacker":
        return _choose_or_next(state, "defender", events)
    return _surprise(state, events)


def _surprise(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    """p.34: the submarines that did not submerge strike: the attacker's first."""
    pack = state.pack
    battle = pc.battle_of(_record(state))
    attack = lib.surprise_fire(pack, battle, "attacker", {})
    defend = lib.surprise_fire(pack, battle, "defender", {})
    if not attack and not defend:
        return _step_two(state, events)
    struck = {key(g.power, g.type): g.count for g in (*attack, *defend)}
    state = _set(state, struck=struck, stage="surprise")
    if attack:
        return _volley(state, "attacker", attack, events)
    return after_casualties(state, "attacker", events)


def _volley(state: AxisState, role: Role, groups: tuple[FireGroup, ...], events: tuple[Event, ...]) -> Step[AxisState]:
    """``role``'s dice, unless the other side has nothing left in the combat to hit (all sunk or submerged)."""
    other: Role = "defender" if role == "attacker" else "attacker"
    if not lib.casualty_pool(state.pack, pc.battle_of(_record(state)), other):
        groups = ()
    return pc.fire_volley(state, role, groups, events)


def _end_surprise(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    """p.34: the Surprise Strikes' casualties leave at the end of step 1 (a battleship hit once stays)."""
    record = _record(state)
    state = _take(state, "defender", record.marked)
    state = _take(state, "attacker", _record(state).lost)
    state = _set(state, stage="", marked={}, lost={})
    if lib.combat_over(state.pack, pc.battle_of(_record(state)), escorts_shield=shield(state)):
        return _step_four(state, events)
    return _step_two(state, events)


def _step_two(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    record = _record(state)
    groups = lib.attack_fire(state.pack, pc.battle_of(record), holding={split(k): n for k, n in record.struck.items()})
    return _volley(state, "attacker", groups, events)


def after_casualties(state: AxisState, fired: Role, events: tuple[Event, ...]) -> Step[AxisState]:
    """What follows a volley at sea once its casualties are chosen (and its transport hits resolved)."""
    record = _record(state)
    battle = pc.battle_of(record)
    if record.stage == "surprise":
        if fired == "attacker":
            groups = lib.surprise_fire(state.pack, battle, "defender", {})
            if groups:
                return _volley(state, "defender", groups, events)
        return _end_surprise(state, events)
    if fired == "attacker":
        held = {split(k): n for k, n in record.struck.items()}
        groups = lib.defense_fire(state.pack, battle, battle.defenders, holding=held)
        return _volley(state, "defender", groups, events)
    return _step_four(state, events)


def casualties_taken(state: AxisState, decision: TakeCasualties, events: tuple[Event, ...]) -> Step[AxisState]:
    """The loser's casualties of one volley at sea are chosen: the defender's are marked (they still fire, p.21),
    the attacker's go at once (p.22) but those of the Surprise Strikes wait for the end of step 1 (p.34); hits on
    the transports are resolved now, two pieces of cargo each (p.21)."""
    chosen = pc.chosen_counts(decision)
    transports = chosen.pop(TRANSPORT_KEY, 0)
    record = _record(state)
    fired: Role = "attacker" if decision.role == "defender" else "defender"
    if decision.role == "defender":
        state = _set(state, marked=chosen)
    elif record.stage == "surprise":
        state = _set(state, lost=chosen)
    else:
        state = _take(state, "attacker", chosen)
    if transports:
        hits = TransportHits(seat=_seat(state, "defender"), left=transports, fired=fired)
        return Step(state=push(state, hits), events=events)
    return after_casualties(state, fired, events)


def _take(state: AxisState, role: Role, taken: Counts) -> AxisState:
    """``taken`` hit points off ``role``'s pieces: battleships damaged before sunk (p.33), the rest destroyed."""
    if not taken:
        return state
    pack = state.pack
    record = _record(state)
    units = {**record.air, **record.ships} if role == "attacker" else dict(record.defenders)
    pieces = {split(k): n for k, n in units.items()}
    damaged = {split(k): n for k, n in record.damaged.items()}
    hits = {split(k): n for k, n in taken.items()}
    left, hurt = lib.apply_hits(pieces, damaged, hits, lib.two_hit_pieces(pack, pieces))
    zone = record.space
    air, ships, defenders = dict(record.air), dict(record.ships), dict(record.defenders)
    for piece, n in pieces.items():
        gone = n - left.get(piece, 0)
        if gone <= 0:
            continue
        k = key(*piece)
        if role == "attacker" and k in air:
            state = pc.shoot_down(state, zone, k, gone)
            air[k] -= gone
        else:
            state = state.model_copy(update={"pieces": added(state.pieces, zone, k, -gone)})
            if role == "attacker":
                ships[k] -= gone
            else:
                defenders[k] -= gone
    fresh = {key(*p): n for p, n in hurt.items() if n > 0}
    in_combat = {k: n for k, n in record.damaged.items() if split(k) not in pieces} | fresh
    board = {k: n for k, n in state.damaged.get(zone, {}).items() if split(k) not in pieces} | fresh
    damaged_on_board = {z: dict(c) for z, c in state.damaged.items() if z != zone}
    if board:
        damaged_on_board[zone] = board
    state = state.model_copy(update={"damaged": damaged_on_board})
    return _set(
        state,
        air={k: n for k, n in air.items() if n > 0},
        ships={k: n for k, n in ships.items() if n > 0},
        defenders={k: n for k, n in defenders.items() if n > 0},
        damaged=in_combat,
    )


# --- transport hits (p.21) -------------------------------------------------------------------------------------


def _cargo(record: BattleRecord) -> Cargo:
    return Cargo({split(k): n for k, n in record.cargo_units.items() if n > 0}, dict(record.cargo_supply))


def supply_of(entries: list[str]) -> dict[str, int] | None:
    """``["germany:2", "italy:3"]`` -> supply points per power; None unless each power appears once with a
    positive whole number."""
    out: dict[str, int] = {}
    for entry in entries:
        power, _, points = entry.partition(":")
        if not points.isdigit() or int(points) <= 0 or power in out:
            return None
        out[power] = int(points)
    return out


def entries(supply: Mapping[str, int]) -> list[str]:
    """Supply points per power as the actions write them (powers in order)."""
    return [f"{p}:{n}" for p, n in sorted(supply.items()) if n > 0]


def _loss(act: LoseCargo | Escape) -> lib.CargoLoss | None:
    supply = supply_of(act.supply)
    if supply is None:
        return None
    return lib.CargoLoss(unit=split(act.unit) if act.unit is not None else None, supply=supply)


def _options(state: AxisState) -> tuple[lib.CargoLoss, ...]:
    decision = top(state, TransportHits)
    cargo = _cargo(_record(state))
    if decision.step == "second":
        return lib.cargo_second_options(state.pack, cargo, decision.named)
    return lib.cargo_first_options(state.pack, cargo)


def lose_cargos(state: AxisState, seat: str) -> Iterator[LoseCargo]:
    if top(state, TransportHits).step == "name":
        return
    for loss in _options(state):
        unit = key(*loss.unit) if loss.unit is not None else None
        yield LoseCargo(unit=unit, supply=entries(loss.supply))


def can_lose_cargo(state: AxisState, seat: str, act: LoseCargo) -> Verdict:
    decision = top(state, TransportHits)
    if decision.step == "name":
        return deny("21", "name-first", "the attacker names the type of the second piece first")
    loss = _loss(act)
    if loss is None or loss not in _options(state):
        which = "of the named type" if decision.step == "second" else "one land unit or 5 supply aboard"
        return deny("21", "bad-cargo-loss", f"the piece lost must be {which}")
    return ALLOW


def _without(state: AxisState, loss: lib.CargoLoss, *, board: bool) -> AxisState:
    """The cargo of the combat less ``loss``; off the board too when it is destroyed (not when it escapes)."""
    record = _record(state)
    units = dict(record.cargo_units)
    supply = dict(record.cargo_supply)
    zone = record.space
    if loss.unit is not None:
        k = key(*loss.unit)
        units[k] -= 1
        if board:
            state = state.model_copy(update={"pieces": added(state.pieces, zone, k, -1)})
    convoy = {z: dict(p) for z, p in state.convoy_supply.items()}
    for power, n in loss.supply.items():
        supply[power] -= n
        if board:
            convoy[zone][power] -= n
            if not convoy[zone][power]:
                del convoy[zone][power]
            if not convoy[zone]:
                del convoy[zone]
    state = state.model_copy(update={"convoy_supply": convoy})
    return _set(
        state,
        cargo_units={k: n for k, n in units.items() if n > 0},
        cargo_supply={p: n for p, n in supply.items() if n > 0},
    )


def lose_cargo(state: AxisState, seat: str, act: LoseCargo) -> Step[AxisState]:
    decision = top(state, TransportHits)
    loss = _loss(act)
    assert loss is not None  # can_lose_cargo parsed it
    state = _without(state, loss, board=True)
    data = {"unit": act.unit, "supply": list(act.supply), "space": _record(state).space}
    event = Event(kind="cargo_lost", seat=seat, rule="21", data=data)
    cargo = _cargo(_record(state))
    if decision.step == "first" and lib.cargo_names(state.pack, cargo):
        named = decision.model_copy(update={"step": "name", "seat": pc.attacker_seat(state)})
        return Step(state=replace_top(state, named), events=(event,))
    return _next_hit(state, decision, (event,))


def _next_hit(state: AxisState, decision: TransportHits, events: tuple[Event, ...]) -> Step[AxisState]:
    """One transport hit resolved: the next, or the fire goes on."""
    cargo = _cargo(_record(state))
    left = decision.left - 1
    if left > 0 and not cargo.empty():
        seat_ = _seat(state, "defender")
        again = decision.model_copy(update={"left": left, "step": "first", "named": "", "seat": seat_})
        return Step(state=replace_top(state, again), events=events)
    return after_casualties(pop(state), decision.fired, events)


def _names(state: AxisState) -> tuple[str, ...]:
    """The types the attacker may name: those aboard (notes §10.27, option ``transport_naming`` ``present``, the
    default), or with ``any`` every land unit type and supply (a type not aboard spares the second piece)."""
    if state.options.get("transport_naming") != "any":
        return lib.cargo_names(state.pack, _cargo(_record(state)))
    types = {lib.rule_type(state.pack, u.type) for u in state.pack.units if u.category == "land"}
    return (*sorted(types), "supply")


def name_cargos(state: AxisState, seat: str) -> Iterator[NameCargo]:
    if top(state, TransportHits).step != "name":
        return
    for named in _names(state):
        yield NameCargo(type=named)


def can_name_cargo(state: AxisState, seat: str, act: NameCargo) -> Verdict:
    if top(state, TransportHits).step != "name":
        return deny("21", "not-naming", "no type is to be named now")
    names = _names(state)
    if lib.rule_type(state.pack, act.type) not in names:
        return deny("21", "bad-cargo-name", f"name one of {', '.join(names)}")
    return ALLOW


def name_cargo(state: AxisState, seat: str, act: NameCargo) -> Step[AxisState]:
    decision = top(state, TransportHits)
    named = lib.rule_type(state.pack, act.type)
    event = Event(kind="cargo_named", seat=seat, rule="21", data={"type": named})
    if named not in lib.cargo_names(state.pack, _cargo(_record(state))):  # nothing of it aboard: spared
        return _next_hit(state, decision, (event,))
    second = decision.model_copy(update={"step": "second", "named": named, "seat": _seat(state, "defender")})
    return Step(state=replace_top(state, second), events=(event,))


# --- step 4: casualties removed, convoy escapes (p.22) --------------------------------------------------------


def _step_four(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    state = _set(_take(state, "defender", _record(state).marked), marked={})
    if not _cargo(_record(state)).empty():
        return Step(state=push(state, Escapes(seat=_seat(state, "defender"))), events=events)
    return _step_five(state, events)


def escapes(state: AxisState, seat: str) -> Iterator[Escape]:
    pack = state.pack
    cargo = _cargo(_record(state))
    for piece in sorted(k for k, n in cargo.units.items() if n > 0):
        yield Escape(unit=key(*piece), supply=[])
    powers = sorted(p for p, n in cargo.supply.items() if n > 0)
    bay = pack.limit("supply_per_bay")
    for amount in range(1, min(bay, cargo.supply_points) + 1):
        for split_ in _splits(cargo.supply, powers, amount):
            yield Escape(unit=None, supply=entries(split_))


def _splits(supply: Mapping[str, int], powers: list[str], amount: int) -> Iterator[dict[str, int]]:
    if not powers:
        if amount == 0:
            yield {}
        return
    first, rest = powers[0], powers[1:]
    for n in range(min(supply.get(first, 0), amount), -1, -1):
        for tail in _splits(supply, rest, amount - n):
            yield {first: n, **tail} if n else tail


def can_escape(state: AxisState, seat: str, act: Escape) -> Verdict:
    """p.22 step 4: up to ``convoy_escapes_per_round`` pieces of cargo a round, each a land unit or up to
    ``supply_per_bay`` supply tokens."""
    pack = state.pack
    decision = top(state, Escapes)
    if decision.used >= pack.limit("convoy_escapes_per_round"):
        limit = pack.limit("convoy_escapes_per_round")
        return deny("22", "too-many-escapes", f"{limit} pieces of cargo escape at most")
    supply = supply_of(act.supply)
    if supply is None or (act.unit is None) == (not supply):
        return deny("22", "not-aboard", "one land unit or a group of supply escapes")
    if sum(supply.values()) > pack.limit("supply_per_bay"):
        return deny("22", "too-much-supply", f"a group of at most {pack.limit('supply_per_bay')} supply escapes")
    escaped = Cargo({split(act.unit): 1} if act.unit is not None else {}, supply)
    return lib.check_escape(pack, _cargo(_record(state)), escaped)


def escape(state: AxisState, seat: str, act: Escape) -> Step[AxisState]:
    """The piece leaves the combat but stays in the zone and rejoins the convoy afterwards (p.22)."""
    decision = top(state, Escapes)
    loss = _loss(act)
    assert loss is not None  # can_escape parsed it
    state = _without(state, loss, board=False)
    event = Event(kind="cargo_escaped", seat=seat, rule="22", data={"unit": act.unit, "supply": list(act.supply)})
    used = decision.used + 1
    if used < state.pack.limit("convoy_escapes_per_round") and not _cargo(_record(state)).empty():
        return Step(state=replace_top(state, decision.model_copy(update={"used": used})), events=(event,))
    return _step_five(pop(state), (event,))


def _step_five(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    """p.22 step 5: the combat ends when neither side can hit the other, else the attacker presses or ceases."""
    if lib.combat_over(state.pack, pc.battle_of(_record(state)), escorts_shield=shield(state)):
        return pc.conclude_combat(state, events)
    return Step(state=push(state, PressOrCease(seat=pc.attacker_seat(state))), events=events)


def next_round(state: AxisState, seat: str) -> Step[AxisState]:
    """p.23: at sea the attacker presses for free, with every unit."""
    record = _record(state)
    state = _set(pop(state), round=record.round + 1)
    event = Event(kind="pressed", seat=seat, rule="23", data={"space": record.space, "round": record.round + 1})
    return _round(state, (event,))


def done_at_sea(state: AxisState, seat: str) -> Step[AxisState] | None:
    """``done`` ending the submerge choices, the escapes or the escorts' landings of phase 1 (:mod:`.sea_escorts`);
    None elsewhere."""
    kind = state.pending[-1].kind if state.pending else ""
    if kind == "land_escorts":
        return sea_escorts.done_landing(state, seat)
    if kind == "submerging":
        role = top(state, Submerging).role
        return _submerged(pop(state), role, ())
    if kind == "escapes":
        return _step_five(pop(state), ())
    return None
