"""The typed actions of *Axis & Allies: North Africa* (contract v2): one piece or one token at a time.

Pieces are interchangeable, so an action names a unit type and a space, never a unit: ``move`` carries one piece
of the acting power from ``origin`` to ``to`` (the rules find a legal path, trying the map's paths in its
order), ``commit`` adds one piece to a declared attack, ``pay`` spends one supply token. A whole turn is a
packet of such actions.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pbem.rules.contract import ActionModel

__all__ = [
    "AxisAction",
    "Commit",
    "Deploy",
    "Destroy",
    "Done",
    "Move",
    "MoveExcess",
    "Pay",
    "PayUpkeep",
    "Place",
    "Requisition",
]


class Place(ActionModel):
    """p.9: the UK places one combat unit as a variable reinforcement in a sea zone of its setup chart."""

    action: Literal["place"] = "place"
    zone: str = Field(title="sea zone")
    unit: str = Field(title="unit type")


class PayUpkeep(ActionModel):
    """p.13: spend a territory's supply upkeep (Malta: 1 token) to collect its RP this turn."""

    action: Literal["pay_upkeep"] = "pay_upkeep"
    territory: str = Field(title="territory")


class Requisition(ActionModel):
    """p.13: requisition one unit of the power's chart, or one supply point (``unit`` = ``"supply"``)."""

    action: Literal["requisition"] = "requisition"
    unit: str = Field(title="unit type")


class Move(ActionModel):
    """pp.15, 24: move one piece of the acting power from ``origin`` to ``to``."""

    action: Literal["move"] = "move"
    unit: str = Field(title="unit type")
    origin: str = Field(title="from")
    to: str = Field(title="to")


class Commit(ActionModel):
    """p.18: one land unit in ``origin`` joins the attack on the adjacent ``target``."""

    action: Literal["commit"] = "commit"
    unit: str = Field(title="unit type")
    origin: str = Field(title="from")
    target: str = Field(title="attack on")


class Pay(ActionModel):
    """p.18: one supply token from ``source`` pays for the attack out of ``origin`` into ``target``."""

    action: Literal["pay"] = "pay"
    origin: str = Field(title="attack from")
    target: str = Field(title="attack on")
    source: str = Field(title="supply from")


class Deploy(ActionModel):
    """p.25: deploy one piece (or one supply point, ``"supply"``) of the Reinforcements Zone to ``to``."""

    action: Literal["deploy"] = "deploy"
    unit: str = Field(title="unit type")
    to: str = Field(title="to")


class MoveExcess(ActionModel):
    """p.12: an opposing player moves one excess piece (``"power:type"``) out of an over-stacked territory."""

    action: Literal["move_excess"] = "move_excess"
    unit: str = Field(title="piece")
    to: str = Field(title="to")


class Destroy(ActionModel):
    """p.12: the owner destroys one of its pieces (``"power:type"``) in an over-stacked territory."""

    action: Literal["destroy"] = "destroy"
    unit: str = Field(title="piece")


class Done(ActionModel):
    """End the current phase (or, for an opposing player, stop moving excess units)."""

    action: Literal["done"] = "done"


AxisAction = Place | PayUpkeep | Requisition | Move | Commit | Pay | Deploy | MoveExcess | Destroy | Done
