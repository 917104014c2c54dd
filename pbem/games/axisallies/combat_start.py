"""A combat of *Axis & Allies: North Africa* read off the board: the defenders and the convoy in the space.

The attacker's pieces come from its declarations (land units per origin, air and sea units moved in, p.18); the
defenders are every combat unit of the other side in the space (units of a power friendly to the attacker take
no part, p.20), and at sea the other side's reinforcements on their virtual transports (p.14, p.21). Trucks are
never in a combat (p.32). Damaged battleships are not part of a :class:`~.position.Position`: the caller passes
them.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.games.axisallies.combat_types import Battle, Cargo, Piece, Units
from pbem.games.axisallies.data import AxisAlliesPack
from pbem.games.axisallies.position import Position, combat_units, enemy, graph_of, side_of

__all__ = ["convoy_cargo", "defenders_in", "start_battle"]


def defenders_in(pack: AxisAlliesPack, position: Position, space: str, attacker: str) -> dict[Piece, int]:
    """The combat units that defend ``space`` against ``attacker`` (a side): the other side's, but at sea not
    its land units, which are cargo."""
    sea = graph_of(pack).kind(space) == "sea"
    units = combat_units(pack, position, space, enemy(attacker))
    return {k: n for k, n in sorted(units.items()) if not (sea and pack.unit(*k).category == "land")}


def convoy_cargo(pack: AxisAlliesPack, position: Position, zone: str, side: str) -> Cargo | None:
    """p.14: ``side``'s reinforcements at sea in ``zone``: its land units there (trucks included) and the supply
    on its powers' markers; None if it has none."""
    units = {
        k: n
        for k, n in sorted(position.pieces.get(zone, {}).items())
        if n > 0 and pack.unit(*k).category == "land" and side_of(pack, position, k[0], zone) == side
    }
    supply = {
        p: n
        for p, n in sorted(position.convoy_supply.get(zone, {}).items())
        if n > 0 and side_of(pack, position, p, zone) == side
    }
    cargo = Cargo(units, supply)
    return None if cargo.empty() else cargo


def start_battle(
    pack: AxisAlliesPack,
    position: Position,
    space: str,
    attacker: str,
    *,
    land: Mapping[str, Units] | None = None,
    air_sea: Units | None = None,
    main: str | None = None,
    damaged: Units | None = None,
    must_press: bool = False,
) -> Battle:
    """The combat in ``space`` as it begins (round 1): ``attacker`` (a side) with its declared ``land`` units
    per origin and ``air_sea`` units, against :func:`defenders_in` and, at sea, :func:`convoy_cargo`.

    Check it with :func:`.combat_fire.check_battle` (the main attack among several origins, p.19)."""
    sea = graph_of(pack).kind(space) == "sea"
    return Battle(
        space=space,
        kind="sea" if sea else "land",
        attacker=attacker,
        land={o: dict(u) for o, u in (land or {}).items() if any(n > 0 for n in u.values())},
        air_sea=dict(air_sea or {}),
        defenders=defenders_in(pack, position, space, attacker),
        main=main,
        damaged=dict(damaged or {}),
        cargo=convoy_cargo(pack, position, space, enemy(attacker)) if sea else None,
        must_press=must_press,
    )
