"""How *Axis & Allies: North Africa* names things in prompts and reports: spaces and pieces by their printed
names (the pack's), never by id; and its look in reports and replays (:class:`AxisAlliesLook`): the board and the
counted stacks of :mod:`.mapspec`, territories tinted by their controller, and per power its income, its supply
and its Reinforcements Zone."""

from __future__ import annotations

from typing import Any, ClassVar

from pbem.games.axisallies import mapspec
from pbem.games.axisallies.data import AxisAlliesPack
from pbem.games.axisallies.economy import income, supply_cost
from pbem.games.axisallies.position import Position, controller
from pbem.games.axisallies.state import split
from pbem.rules.contract import View
from pbem.rules.presentation import LookModule, LossUnit, MapspecLook, Presentation

__all__ = ["SPACE_FIELDS", "AxisAlliesLook", "label", "power_status"]

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


def priced(pack: AxisAlliesPack, power: str, value: Any) -> str | None:
    """What a requisition buys, with its price (p.13: a player buying reads the chart's prices): ``Infantry
    (3 RP)``, ``1 supply point (1 RP)``; None for anything else."""
    if value == "supply":
        return f"1 supply point ({supply_cost(pack, 1)} RP)"
    try:
        unit = pack.unit(power, value) if isinstance(value, str) and ":" not in value else None
    except KeyError:
        return None
    return None if unit is None or unit.cost is None else f"{unit.name} ({unit.cost} RP)"


def _position(view: View) -> Position:
    """The board of a view as the economy rules read it (pieces, control and supply; the round plays no part)."""
    pieces: dict[str, dict[tuple[str, str], int]] = {}
    for unit in view.units:
        count = unit.extra.get("count", unit.steps)
        here = pieces.setdefault(unit.location or "", {})
        here[(str(unit.extra.get("power", unit.side)), unit.kind)] = count if isinstance(count, int) else 1
    control = view.facts.get("control", {})
    supply = view.facts.get("supply", {})
    return Position(
        round=0,
        pieces=pieces,
        control=dict(control) if isinstance(control, dict) else {},
        supply=dict(supply) if isinstance(supply, dict) else {},
    )


def power_status(pack: AxisAlliesPack, view: View) -> list[tuple[str, str]]:
    """Per power with a turn (p.12): its income (p.13: national basic RP and its territories' RP, Malta's only
    when its upkeep is paid), the supply points on the territories it controls (p.18), and what waits in its
    Reinforcements Zone (p.13)."""
    position = _position(view)
    reserve = view.facts.get("reserve", {})
    lines = []
    for power in sorted((p for p in pack.powers if p.turn_order is not None), key=lambda p: p.turn_order or 0):
        rp = income(pack, position, power.id, upkeep_paid=False).value
        held = [t for t in position.supply if controller(pack, position, t) == power.id]
        supply = sum(position.supply[t] for t in held)
        text = f"income {rp} RP; {supply} supply on {len(held)} territories"
        waiting = reserve.get(power.id, {}) if isinstance(reserve, dict) else {}
        pieces = [f"{n} {label(pack, power.id, 'unit', k) or k}" for k, n in sorted(waiting.items()) if n]
        if pieces:
            text += f"; waiting to deploy: {', '.join(pieces)}"
        lines.append((power.name, text))
    return lines


class AxisAlliesLook(MapspecLook):
    """The game's look over one data pack: the board and counted stacks of :mod:`.mapspec`; control from the
    view's ``control`` fact (territory -> power, whose colour tints it); the stage of a turn from the view's
    summary; per power its income, supply and reinforcements (:func:`power_status`)."""

    highlights = Presentation.highlights | frozenset({"turn_started", "round_event", "game_ended"})
    """Besides the shared kinds: each power's turn with its RP (p.13), the scenario's round events and the end."""
    loss_unit = LossUnit(name="piece", plural="pieces", units=False)  # every loss is a piece gone

    look: ClassVar[LookModule] = mapspec

    def stage(self, view: View) -> str:
        """``"Germany, combat"``: the power whose turn it is and its phase (the view's summary after the round)."""
        _, _, rest = view.summary.partition(", ")
        return rest

    def scores(self, view: View) -> dict[str, int]:
        """Each power's income, charted round by round."""
        position = _position(view)
        return {
            f"{p.name} RP": income(self.data, position, p.id, upkeep_paid=False).value
            for p in self.data.powers
            if p.turn_order is not None
        }

    def status(self, view: View) -> list[tuple[str, str]]:
        return power_status(self.data, view)
