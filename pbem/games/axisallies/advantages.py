"""Optional rules of *Axis & Allies: North Africa* that change a single check (pp.6, 38-39), each a genesis option.

* ``anzac_reinforcements`` (p.39): the UK may deploy the pack's ``anzac_infantry_per_turn`` infantry a turn from
  the Reinforcements Zone straight to the Indian Ocean convoy zone (p.25 otherwise bars it).
* ``draw_tie_break`` (p.6): a draw at the end of the game goes to the side whose land units in territories are
  worth more RP. RULING (notes §10.29): combat land units and trucks count, at their chart cost; a unit printed
  "-" (the UK's Lend-Lease Sherman) counts the cost of the first chart row of its type that has one (the US
  Sherman); pieces at sea or in a Reinforcements Zone do not count; an equal count stays a draw.

Mining the Suez Canal is :mod:`.mines`'; the Tiger tank and the Choice of US Landing Zones are :mod:`.economy`'s.
"""

from __future__ import annotations

from pbem.games.axisallies.data import AxisAlliesPack, UnitType
from pbem.games.axisallies.position import graph_of, side_of
from pbem.games.axisallies.state import AxisState, split

__all__ = ["ANZAC", "anzac_allows", "land_rp", "tie_break"]

ANZAC = ("united_kingdom", "infantry", "indian_ocean")
"""p.39: "The United Kingdom player may deploy one UK infantry each turn from the Reinforcements Zone directly to
the Indian Ocean convoy sea zone" (power, unit type and zone by their pack ids)."""


def _on(state: AxisState, option: str) -> bool:
    return state.options.get(option) == "on"


def anzac_allows(state: AxisState, unit: UnitType | None, destination: str) -> bool:
    """p.39 (option ``anzac_reinforcements``): whether this deployment is an ANZAC infantry still allowed this
    turn."""
    if not _on(state, "anzac_reinforcements") or unit is None:
        return False
    power, type_, zone = ANZAC
    wanted = (state.power, unit.type, destination) == (power, type_, zone)
    return wanted and state.anzac < state.pack.limit("anzac_infantry_per_turn")


def _cost(pack: AxisAlliesPack, unit: UnitType) -> int:
    if unit.cost is not None:
        return unit.cost
    return next((u.cost for u in pack.units if u.type == unit.type and u.cost is not None), 0)


def land_rp(state: AxisState, side: str) -> int:
    """p.6: the RP of ``side``'s land units (combat units and trucks) in territories."""
    pack = state.pack
    graph = graph_of(pack)
    position = state.position()
    total = 0
    for space, counts in state.pieces.items():
        if graph.kind(space) != "land":
            continue
        for k, n in counts.items():
            power, type_ = split(k)
            unit = pack.unit(power, type_)
            if n > 0 and unit.category == "land" and side_of(pack, position, power, space) == side:
                total += _cost(pack, unit) * n
    return total


def tie_break(state: AxisState) -> tuple[str, str] | None:
    """p.6 (option ``draw_tie_break``): (winning side, outcome) of a drawn game, or None if it stays a draw."""
    if not _on(state, "draw_tie_break"):
        return None
    axis, allies = land_rp(state, "axis"), land_rp(state, "allies")
    if axis == allies:
        return None
    side = "axis" if axis > allies else "allies"
    return side, f"{side} wins the draw's tie-break on land units' RP, {max(axis, allies)} to {min(axis, allies)}"
