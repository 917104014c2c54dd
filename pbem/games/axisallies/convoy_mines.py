"""Sea mines detonated on the reinforcements deployed in phase 6 of *Axis & Allies: North Africa* (p.27).

After all deployments (``done`` of phase 6), each sea zone the mover deployed land units or supply into (its
virtual transports, p.14) that holds sea mine tokens of an enemy power is offered to that power's seat, zone by
zone and owner by owner (RULING: in the order of the map's zones, then of the powers), to ``detonate`` some of its
tokens there (or ``done`` for none). The owner rolls 1 die a token (:func:`.combat_mines.mine_dice`); each hit
costs the mover two pieces of the cargo deployed there this phase (pieces already in the zone cannot be
chosen): the mover picks the first (``mine_loss``: a land unit, trucks included, or ``"supply"``, 5 supply points
or all if fewer), the mine's owner names a unit type or supply (``mine_name``), and the mover picks the second of
that type (:mod:`.combat_sea`'s transport hit, rule p.27). A hit with nothing left aboard lapses.

Sea units deployed in phase 6 go to their power's sea unit deployment zone, where no enemy may lay mines (p.14),
so only transports are ever hit here. The same decisions serve the stepwise loop of phases 3 and 5 (p.27,
:mod:`.sea_mines`): there the hits fall on the sea units that entered the zone in that step (``mine_loss`` names
one of their types), and once every zone is decided the mover's move phase goes on.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.games.axisallies import sea_mines
from pbem.games.axisallies.actions import Detonate, MineLoss, MineName
from pbem.games.axisallies.combat_mines import check_sea_detonation, mine_dice, mine_hits
from pbem.games.axisallies.combat_sea import (
    CargoLoss,
    cargo_after,
    cargo_first_options,
    cargo_names,
    cargo_second_options,
)
from pbem.games.axisallies.combat_types import Cargo
from pbem.games.axisallies.state import (
    AxisState,
    SeaDetonation,
    SeaMineCheck,
    SeaMineLoss,
    SeaMineRoll,
    added,
    key,
    split,
)
from pbem.kit.machine import pop, push, replace_top, top
from pbem.rules.contract import ALLOW, Event, Outcome, RollRequest, RollSpec, Step, Verdict, deny

__all__ = [
    "after_deployments",
    "can_mine_loss",
    "can_mine_name",
    "can_sea_detonate",
    "detonations",
    "done_sea",
    "mine_loss",
    "mine_losses",
    "mine_name",
    "mine_names",
    "record_deployment",
    "sea_detonate",
    "sea_detonates",
    "sea_mines_rolled",
]

SUPPLY = "supply"


def record_deployment(state: AxisState, unit: str, zone: str) -> AxisState:
    """Note one piece (a unit type of the mover, or supply) deployed into sea zone ``zone`` this phase."""
    name = SUPPLY if unit == SUPPLY else key(state.power, unit)
    return state.model_copy(update={"deployed": added(state.deployed, zone, name, 1)})


def _cargo(state: AxisState, zone: str) -> Cargo:
    """What the mover deployed into ``zone`` this phase and is still aboard."""
    here = state.deployed.get(zone, {})
    units = {split(k): n for k, n in here.items() if k != SUPPLY and n > 0}
    supply = {state.power: here[SUPPLY]} if here.get(SUPPLY, 0) > 0 else {}
    return Cargo(units, supply)


def _checks(state: AxisState) -> tuple[SeaMineCheck, ...]:
    side = state.pack.power(state.power).side
    found = []
    for zone in state.pack.sea_zones:
        if not state.deployed.get(zone.id):
            continue
        for owner, n in sorted(state.sea_mines.get(zone.id, {}).items()):
            if n > 0 and state.pack.power(owner).side != side:
                found.append(SeaMineCheck(zone=zone.id, owner=owner))
    return tuple(found)


def after_deployments(state: AxisState, events: tuple[Event, ...]) -> Step[AxisState]:
    """p.27: once everything is deployed, the sea mine owners of the zones that received cargo decide."""
    return _next(state, _checks(state), events)


def _exposed(state: AxisState, zone: str) -> bool:
    """Whether anything in ``zone`` may still be hit: the cargo deployed there (phase 6), or the sea units that
    entered it in this step of the loop (phases 3 and 5)."""
    if sea_mines.in_loop(state):
        return bool(sea_mines.entered(state, zone))
    cargo = _cargo(state, zone)
    return bool(cargo.units or cargo.supply_points)


def detonations(state: AxisState, checks: tuple[SeaMineCheck, ...], events: tuple[Event, ...]) -> Step[AxisState]:
    """p.27: the next owner asked to detonate, zone by zone; once none is left, phase 6 ends or the move goes on."""
    return _next(state, checks, events)


def _next(state: AxisState, checks: tuple[SeaMineCheck, ...], events: tuple[Event, ...]) -> Step[AxisState]:
    from pbem.games.axisallies.phases import finish_deploy

    for i, check in enumerate(checks):
        if state.sea_mines.get(check.zone, {}).get(check.owner, 0) > 0 and _exposed(state, check.zone):
            decision = SeaDetonation(seat=state.seat_of(check.owner), check=check, rest=checks[i + 1 :])
            return Step(state=push(state, decision), events=events)
    if sea_mines.in_loop(state):
        return sea_mines.step_resolved(state, events)
    return finish_deploy(state, events)


def sea_detonates(state: AxisState, seat: str) -> Iterator[Detonate]:
    decision = top(state, SeaDetonation)
    for n in range(1, state.sea_mines.get(decision.check.zone, {}).get(decision.check.owner, 0) + 1):
        yield Detonate(icons=n)


def can_sea_detonate(state: AxisState, seat: str, act: Detonate) -> Verdict:
    decision = top(state, SeaDetonation)
    tokens = state.sea_mines.get(decision.check.zone, {}).get(decision.check.owner, 0)
    return check_sea_detonation(state.pack, decision.check.owner, state.power, tokens, act.icons)


def sea_detonate(state: AxisState, seat: str, act: Detonate) -> Step[AxisState]:
    """p.27: the tokens detonated are removed; the owner rolls a die for each."""
    decision = top(state, SeaDetonation)
    check = decision.check
    here = dict(state.sea_mines.get(check.zone, {}))
    here[check.owner] -= act.icons
    if not here[check.owner]:
        del here[check.owner]
    sea = {**state.sea_mines, check.zone: here}
    if not here:
        del sea[check.zone]
    state = pop(state).model_copy(update={"sea_mines": sea})
    data = {"zone": check.zone, "owner": check.owner, "tokens": act.icons}
    event = Event(kind="sea_mines_detonated", seat=seat, rule="27", data=data)
    spec = RollSpec(id="sea_mines", sides=state.pack.limit("die_sides"), n=mine_dice(state.pack, "sea", act.icons),
                    purpose="sea mines")  # fmt: skip
    roll = SeaMineRoll(seat=state.seat_of(state.power), check=check, rest=decision.rest)
    return Step(state=push(state, roll).with_rolls(RollRequest(rolls=(spec,))), events=(event,))


def done_sea(state: AxisState, seat: str) -> Step[AxisState]:
    """p.27: the owner detonates none of its tokens in this zone."""
    decision = top(state, SeaDetonation)
    return _next(pop(state), decision.rest, ())


def sea_mines_rolled(state: AxisState, outcome: Outcome) -> Step[AxisState]:
    decision = top(state, SeaMineRoll)
    state = pop(state)
    faces = (outcome.dice or {}).get("sea_mines", ())
    hits = mine_hits(state.pack, "sea", faces)
    data = {"zone": decision.check.zone, "faces": list(faces), "hits": hits}
    event = Event(kind="sea_mine_dice", rule="27", data=data)
    if hits <= 0 or not _exposed(state, decision.check.zone):
        return _next(state, decision.rest, (event,))
    loss = SeaMineLoss(seat=state.seat_of(state.power), check=decision.check, rest=decision.rest, hits=hits)
    return Step(state=push(state, loss), events=(event,))


def _loss(state: AxisState, cargo: Cargo, unit: str) -> CargoLoss | None:
    if unit == SUPPLY:
        group = min(cargo.supply_points, state.pack.limit("supply_per_bay"))
        return CargoLoss(supply={state.power: group}) if group else None
    return CargoLoss(unit=split(unit)) if ":" in unit else None


def mine_losses(state: AxisState, seat: str) -> Iterator[MineLoss]:
    decision = top(state, SeaMineLoss)
    if sea_mines.in_loop(state):
        for k in sorted(sea_mines.entered(state, decision.check.zone)):
            yield MineLoss(unit=k)
        return
    cargo = _cargo(state, decision.check.zone)
    for k in sorted(f"{p}:{t}" for (p, t), n in cargo.units.items() if n > 0):
        yield MineLoss(unit=k)
    if cargo.supply_points:
        yield MineLoss(unit=SUPPLY)


def can_mine_loss(state: AxisState, seat: str, act: MineLoss) -> Verdict:
    decision = top(state, SeaMineLoss)
    if sea_mines.in_loop(state):
        if act.unit not in sea_mines.entered(state, decision.check.zone):
            return deny("27", "not-entered", f"no {act.unit} entered {decision.check.zone} in this step")
        return ALLOW
    if decision.named is None and decision.stage == "second":
        return deny("27", "wait-for-name", "the mine's owner names the type of the second loss first")
    cargo = _cargo(state, decision.check.zone)
    loss = _loss(state, cargo, act.unit)
    allowed = (
        cargo_first_options(state.pack, cargo)
        if decision.stage == "first"
        else cargo_second_options(state.pack, cargo, decision.named or "")
    )
    if loss is None or loss not in allowed:
        return deny("27", "bad-cargo-loss", f"{act.unit} is not a loss the hit allows among the cargo deployed")
    return ALLOW


def mine_loss(state: AxisState, seat: str, act: MineLoss) -> Step[AxisState]:
    """p.27: the piece (or supply group) deployed this phase is destroyed; in the loop of phases 3 and 5, the sea
    unit hit is destroyed (a battleship damaged first)."""
    decision = top(state, SeaMineLoss)
    zone = decision.check.zone
    if sea_mines.in_loop(state):
        return _ship_loss(state, seat, decision, act.unit)
    cargo = _cargo(state, zone)
    loss = _loss(state, cargo, act.unit)
    assert loss is not None  # can_mine_loss
    state = _remove(state, zone, loss)
    event = Event(kind="mine_loss", seat=seat, rule="27", data={"zone": zone, "unit": act.unit})
    rest = cargo_after(cargo, loss)
    if decision.stage == "first" and cargo_names(state.pack, rest):
        naming = decision.model_copy(update={"seat": state.seat_of(decision.check.owner), "stage": "second"})
        return Step(state=replace_top(state, naming), events=(event,))
    hits = decision.hits - 1
    if hits > 0 and cargo_first_options(state.pack, _cargo(state, zone)):
        following = decision.model_copy(update={"hits": hits, "stage": "first", "named": None})
        return Step(state=replace_top(state, following), events=(event,))
    return _next(pop(state), decision.rest, (event,))


def _ship_loss(state: AxisState, seat: str, decision: SeaMineLoss, unit: str) -> Step[AxisState]:
    zone = decision.check.zone
    state, fate = sea_mines.hit(state, zone, unit)
    event = Event(kind="mine_loss", seat=seat, rule="27", data={"zone": zone, "unit": unit, "fate": fate})
    hits = decision.hits - 1
    if hits > 0 and sea_mines.entered(state, zone):
        return Step(state=replace_top(state, decision.model_copy(update={"hits": hits})), events=(event,))
    return _next(pop(state), decision.rest, (event,))


def _remove(state: AxisState, zone: str, loss: CargoLoss) -> AxisState:
    if loss.unit is not None:
        k = key(*loss.unit)
        pieces = added(state.pieces, zone, k, -1)
        return state.model_copy(update={"pieces": pieces, "deployed": added(state.deployed, zone, k, -1)})
    n = sum(loss.supply.values())
    convoy = {z: dict(p) for z, p in state.convoy_supply.items()}
    convoy[zone][state.power] -= n
    if not convoy[zone][state.power]:
        del convoy[zone][state.power]
    if not convoy[zone]:
        del convoy[zone]
    return state.model_copy(update={"convoy_supply": convoy, "deployed": added(state.deployed, zone, SUPPLY, -n)})


def mine_names(state: AxisState, seat: str) -> Iterator[MineName]:
    decision = top(state, SeaMineLoss)
    for named in cargo_names(state.pack, _cargo(state, decision.check.zone)):
        yield MineName(unit=named)


def can_mine_name(state: AxisState, seat: str, act: MineName) -> Verdict:
    decision = top(state, SeaMineLoss)
    if decision.stage != "second" or decision.named is not None:
        return deny("27", "not-naming", "the mover picks the first loss")
    if act.unit not in cargo_names(state.pack, _cargo(state, decision.check.zone)):
        return deny("27", "bad-cargo-name", f"{act.unit} is not aboard")
    return ALLOW


def mine_name(state: AxisState, seat: str, act: MineName) -> Step[AxisState]:
    decision = top(state, SeaMineLoss)
    picking = decision.model_copy(update={"seat": state.seat_of(state.power), "named": act.unit})
    event = Event(kind="mine_named", seat=seat, rule="27", data={"unit": act.unit})
    return Step(state=replace_top(state, picking), events=(event,))
