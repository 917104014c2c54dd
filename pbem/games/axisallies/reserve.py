"""The optional Strategic Supply Reserve for Air and Sea Attacks of *Axis & Allies: North Africa* (p.39).

With the genesis option ``strategic_supply_reserve`` on:

* each side starts with the scenario's reserve of supply tokens in its staging territory (Italy for the Axis,
  Gibraltar for the Allies: the staging territory of the side's first power that has one);
* after all attacks are declared the attacker spends 1 supply token from its side's staging territory for every
  pack's ``strategic_reserve_per_units`` attacking air and/or sea units (or fraction), whatever they attack from
  (:func:`reserve_due`); a combat move that would leave the attacks unpaid is refused (an air unit flying to
  attack, a sea unit sailing into attack position, :mod:`.sea_moves`), and so is a ``sea_attack`` declaration;
  the tokens are spent at the end of the declarations;
* the United States, which has no staging territory, may deploy supply tokens to Gibraltar (p.39 note).

The air units counted are this turn's :attr:`.state.AxisState.sorties`; the sea units are the mover's sea units in
the zones it attacks (``state.naval``) and in hostile zones (they stay and attack, p.17).

RULING: every attack that joins (an air unit flying, a sea unit sailing into attack position, a ``sea_attack``) is
refused unless the reserve pays for every attacker then counted, those that stayed in hostile zones included
(:func:`check_reserve`). Sea units that stayed attack without a combat move, so nothing can refuse their attack;
when the reserve falls short at the end of the declarations (they alone, or ships that join the attack of a zone
by the air units flying there), it pays what it holds: the end of the declarations is never refused.
"""

from __future__ import annotations

from pbem.games.axisallies.data import AxisAlliesPack, Scenario
from pbem.games.axisallies.position import sea_status
from pbem.games.axisallies.state import AxisState, split, tally
from pbem.games.axisallies.supply import usable_by
from pbem.rules.contract import ALLOW, Event, Verdict, deny

__all__ = [
    "check_reserve",
    "in_force",
    "pay_reserve",
    "reserve_due",
    "reserve_staging",
    "sea_attackers",
    "setup_reserve",
    "supply_staging",
]

OPTION = "strategic_supply_reserve"


def in_force(state: AxisState) -> bool:
    return state.options.get(OPTION) == "on"


def reserve_staging(pack: AxisAlliesPack, side: str) -> str | None:
    """p.39: the staging territory holding ``side``'s strategic reserve."""
    ordered = sorted((p for p in pack.powers if p.turn_order is not None), key=lambda p: p.turn_order or 0)
    return next((p.staging for p in ordered if p.side == side and p.staging is not None), None)


def setup_reserve(state: AxisState, scenario: Scenario) -> AxisState:
    """p.39: the scenario's reserve tokens placed in each side's staging territory."""
    if not in_force(state):
        return state
    supply = dict(state.supply)
    for side, n in sorted(scenario.strategic_supply_reserve.items()):
        where = reserve_staging(state.pack, side)
        if where is not None and n > 0:
            supply[where] = supply.get(where, 0) + n
    return state.model_copy(update={"supply": supply})


def supply_staging(state: AxisState) -> str | None:
    """p.39 note: where the acting power without a staging territory may deploy supply (the US: Gibraltar)."""
    if not in_force(state) or state.pack.power(state.power).staging is not None:
        return None
    return reserve_staging(state.pack, state.pack.power(state.power).side or "axis")


def sea_attackers(state: AxisState) -> tuple[int, int]:
    """p.39: the mover's attacking sea units (in the zones it attacks, by sea or by air, or staying in hostile
    zones, p.17), and of those the ones that stayed in a hostile zone without moving this turn."""
    side = state.pack.power(state.power).side or "axis"
    position = state.position()
    flown = {s.target for s in state.sorties if s.power == state.power and not s.fought}  # p.16: ships there fight
    attacking = stayed = 0
    for zone in state.pack.sea_zones:
        ships = {
            k: n
            for k, n in state.pieces.get(zone.id, {}).items()
            if n > 0 and split(k)[0] == state.power and state.pack.unit(*split(k)).category == "sea"
        }
        if not ships:
            continue
        hostile = sea_status(state.pack, position, zone.id, side) == "hostile"
        if hostile or zone.id in state.naval or zone.id in flown:
            attacking += sum(ships.values())
        if hostile:
            stayed += sum(max(n - tally(state.moved, zone.id, k), 0) for k, n in ships.items())
    return attacking, stayed


def _attackers(state: AxisState) -> int:
    return sum(1 for s in state.sorties if s.power == state.power) + sea_attackers(state)[0]


def _tokens(state: AxisState, units: int) -> int:
    return -(-units // state.pack.limit("strategic_reserve_per_units"))


def reserve_due(state: AxisState, more: int = 0) -> int:
    """p.39: the reserve tokens this turn's air and sea attacks (and ``more`` attackers) cost."""
    if not in_force(state):
        return 0
    return _tokens(state, _attackers(state) + more)


def _available(state: AxisState) -> int:
    side = state.pack.power(state.power).side or "axis"
    where = reserve_staging(state.pack, side)
    if where is None or not usable_by(state.pack, state.position(), where, side):
        return 0
    return state.supply.get(where, 0)


def check_reserve(state: AxisState, more: int = 0) -> Verdict:
    """p.39: whether the side's reserve pays for every attacker of this turn (those that stayed in hostile zones
    included) with ``more`` joining: an air unit flying to attack passes 1, a sea move or a ``sea_attack`` is
    judged on the state it would leave (0)."""
    due = reserve_due(state, more)
    if due > _available(state):
        return deny("39", "reserve-short", f"the air and sea attacks cost {due} supply of the strategic reserve")
    return ALLOW


def pay_reserve(state: AxisState) -> tuple[AxisState, tuple[Event, ...]]:
    """p.39: after all attacks are declared, the reserve tokens are spent (all it holds when it falls short of
    what sea units that stayed in hostile zones cost)."""
    due = min(reserve_due(state), _available(state))
    if due <= 0:
        return state, ()
    side = state.pack.power(state.power).side or "axis"
    where = reserve_staging(state.pack, side)
    assert where is not None  # _available found it
    supply = dict(state.supply)
    supply[where] -= due
    if not supply[where]:
        del supply[where]
    data = {"power": state.power, "src": where, "n": due}
    return state.model_copy(update={"supply": supply}), (Event(kind="reserve_spent", rule="39", data=data),)
