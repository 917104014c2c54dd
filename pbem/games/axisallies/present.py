"""How *Axis & Allies: North Africa* names things in prompts and reports: spaces and pieces by their printed
names (the pack's), never by id."""

from __future__ import annotations

from typing import Any

from pbem.games.axisallies.data import AxisAlliesPack
from pbem.games.axisallies.state import split

__all__ = ["SPACE_FIELDS", "label"]

SPACE_FIELDS = frozenset({"origin", "to", "target", "source", "zone", "territory"})
"""Action fields whose values are spaces of the map."""


def _space(pack: AxisAlliesPack, ident: str) -> str | None:
    names = {t.id: t.name for t in pack.territories} | {z.id: z.name for z in pack.sea_zones}
    return names.get(ident)


def label(pack: AxisAlliesPack, power: str, field: str, value: Any) -> str | None:
    """The human label of an action field's value, or None to leave it to the contract's default.

    A space is its printed name; a unit type of the acting power is its piece's name; a ``"power:type"`` piece
    names its power too; ``supply`` is a supply point.
    """
    if not isinstance(value, str):
        return None
    if field in SPACE_FIELDS:
        return _space(pack, value)
    if field != "unit":
        return None
    if value == "supply":
        return "1 supply point"
    owner, _, type_ = value.partition(":")
    if type_:
        owner, type_ = split(value)
    else:
        owner, type_ = power, value
    try:
        unit = pack.unit(owner, type_)
    except KeyError:
        return None
    if type_ != value:
        return f"{pack.power(owner).name} {unit.name}"
    return unit.name
