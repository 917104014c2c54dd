"""The actions of Operation Battleaxe as typed models (contract v2): the log's JSON objects, validated strictly.

Field order is the wire order; titles are what a prompt asks for. Whether an action is legal now is the rules'
business (the phase modules, on :mod:`pbem.games.battleaxe.sequence`); these models only fix its shape, so a
mistyped field is refused as malformed (R004) before any rule runs.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pbem.rules.contract import ActionModel

__all__ = ["BattleaxeAction", "Loss"]

Loss = Literal["eliminate", "flip", "retreat", "flip_retreat", "none"]
"""How a defending unit absorbs Attrition Points (11.5)."""


# --- bids (18.1) -----------------------------------------------------------------------------------------------
class Bid(ActionModel):
    """Bid the VP you would need to win as the Allies (18.1); the bid is secret until both are in."""

    action: Literal["bid"] = "bid"
    vp: int | None = Field(default=None, title="VP bid")  # secret: logged without it


class RollForSides(ActionModel):
    """Roll for sides after two tied bids (18.1)."""

    action: Literal["roll_for_sides"] = "roll_for_sides"


# --- set-up and Impulses (5.2.1, 8.1, 12) ------------------------------------------------------------------------
class Place(ActionModel):
    """Set a unit up in one of its zones (5.2.1)."""

    action: Literal["place"] = "place"
    unit: str = Field(title="unit")
    zone: str = Field(title="set-up zone")


class Assault(ActionModel):
    """Declare an Assault Impulse from one Area, or two for Combined Operations (8.1.1, 9.1.2)."""

    action: Literal["assault"] = "assault"
    areas: list[str] = Field(title="Active Area(s)")


class Regroup(ActionModel):
    """Declare a Regroup Impulse (8.1.2)."""

    action: Literal["regroup"] = "regroup"


class Consolidate(ActionModel):
    """Consolidate two Reduced units into one Full-Strength unit (8.1.2)."""

    action: Literal["consolidate"] = "consolidate"
    keep: str = Field(title="unit that stays")
    remove: str = Field(title="unit absorbed")


class Pass(ActionModel):
    """Pass the Impulse (8.1.3)."""

    action: Literal["pass"] = "pass"


class FuelShortage(ActionModel):
    """Spend the Advantage: Axis Fuel Shortage (12.1)."""

    action: Literal["fuel_shortage"] = "fuel_shortage"


class NoFuelShortage(ActionModel):
    """Do not declare a Fuel Shortage now (ruling A44)."""

    action: Literal["no_fuel_shortage"] = "no_fuel_shortage"


class Rommel(ActionModel):
    """Spend the Advantage: Rommel at the front (12.1)."""

    action: Literal["rommel"] = "rommel"


# --- Assault: movement and attacks (9, 11) ----------------------------------------------------------------------
class Move(ActionModel):
    """Move a unit one step (9.1)."""

    action: Literal["move"] = "move"
    unit: str = Field(title="unit")
    to: str = Field(title="to")


class Attack(ActionModel):
    """Attack an enemy-occupied location (11)."""

    action: Literal["attack"] = "attack"
    target: str = Field(title="location attacked")


class Activate(ActionModel):
    """Activate a second Area (9.1.2, Combined Operations)."""

    action: Literal["activate"] = "activate"
    area: str = Field(title="second Active Area")


class EndOverrun(ActionModel):
    """End the Overrun (11.4.4)."""

    action: Literal["end_overrun"] = "end_overrun"


class EndAssault(ActionModel):
    """End the Assault Impulse (8.1.1)."""

    action: Literal["end_assault"] = "end_assault"


class Join(ActionModel):
    """Add a unit to the attack (11.2)."""

    action: Literal["join"] = "join"
    unit: str = Field(title="attacking unit")


class Lead(ActionModel):
    """Choose the Lead Attacking Unit (11.4.2)."""

    action: Literal["lead"] = "lead"
    unit: str = Field(title="Lead Attacking Unit")


class Support(ActionModel):
    """Commit the attack with its support (10, 11.4.2)."""

    action: Literal["support"] = "support"
    air: bool = Field(title="Air Support")
    rommel: bool = Field(title="Rommel")
    artillery: bool = Field(title="Artillery Support")


class Defend(ActionModel):
    """Choose the Lead Defending Unit and call artillery (11.4.3, 10.2.1)."""

    action: Literal["defend"] = "defend"
    lead: str = Field(title="Lead Defending Unit")
    artillery: bool = Field(title="Artillery Support")


class MaximumAttack(ActionModel):
    """Spend the Advantage: a Repulse becomes a Stalemate (12.1)."""

    action: Literal["maximum_attack"] = "maximum_attack"


class FanaticalDefense(ActionModel):
    """Spend the Advantage: a Success becomes a Stalemate (12.1)."""

    action: Literal["fanatical_defense"] = "fanatical_defense"


class Accept(ActionModel):
    """Accept the combat result (12.1)."""

    action: Literal["accept"] = "accept"


class Absorb(ActionModel):
    """Absorb Attrition Points with one defending unit (11.5)."""

    action: Literal["absorb"] = "absorb"
    unit: str = Field(title="defending unit")
    loss: Loss = Field(title="loss")
    to: str | None = Field(title="retreat to")


class Retreat(ActionModel):
    """Retreat a unit (11.6)."""

    action: Literal["retreat"] = "retreat"
    unit: str = Field(title="unit")
    to: str = Field(title="retreat to")


class Stay(ActionModel):
    """Retreat no more units voluntarily (11.6.3)."""

    action: Literal["stay"] = "stay"


class Overrun(ActionModel):
    """Overrun into an adjacent location (11.4.4)."""

    action: Literal["overrun"] = "overrun"
    target: str = Field(title="location to overrun")


class Decline(ActionModel):
    """Decline the Overrun (11.4.4)."""

    action: Literal["decline"] = "decline"


class RegroupMove(ActionModel):
    """Regroup a unit one step (8.1.2)."""

    action: Literal["regroup_move"] = "regroup_move"
    unit: str = Field(title="unit")
    to: str = Field(title="to")


class EndRegroup(ActionModel):
    """End the Regroup (8.1.2)."""

    action: Literal["end_regroup"] = "end_regroup"


class ProlongedDaylight(ActionModel):
    """Spend the Advantage: ignore the Sunset DR (12.1)."""

    action: Literal["prolonged_daylight"] = "prolonged_daylight"


class Nightfall(ActionModel):
    """Let night fall (6.2.1)."""

    action: Literal["nightfall"] = "nightfall"


class WirelessIntercepts(ActionModel):
    """Spend the Advantage for another Impulse (19.1H)."""

    action: Literal["wireless_intercepts"] = "wireless_intercepts"


class NoIntercepts(ActionModel):
    """Do not use Wireless Intercepts (19.1H)."""

    action: Literal["no_intercepts"] = "no_intercepts"


# --- Refit (13) -----------------------------------------------------------------------------------------------
class IncreaseReplacements(ActionModel):
    """Spend the Advantage for more Replacement Points (12.1)."""

    action: Literal["increase_replacements"] = "increase_replacements"


class Flip(ActionModel):
    """Spend Replacement Points to flip a Reduced unit (13.3.2)."""

    action: Literal["flip"] = "flip"
    unit: str = Field(title="unit")


class Recover(ActionModel):
    """Battlefield Recovery of an Axis Armored unit (13.3.5)."""

    action: Literal["recover"] = "recover"
    unit: str = Field(title="unit")


class TigerCubs(ActionModel):
    """Tiger Cubs: flip an Allied Armored unit for the Advantage (19.1G)."""

    action: Literal["tiger_cubs"] = "tiger_cubs"
    unit: str = Field(title="unit")


class Rebuild(ActionModel):
    """Rebuild an eliminated unit (13.3.3, 13.3.4)."""

    action: Literal["rebuild"] = "rebuild"
    unit: str = Field(title="unit")
    to: str = Field(title="rebuilt in")


class EndRefit(ActionModel):
    """End your Refit Phase (13.1)."""

    action: Literal["end_refit"] = "end_refit"


BattleaxeAction = (
    Bid | RollForSides | Place | Assault | Regroup | Consolidate | Pass | FuelShortage | NoFuelShortage | Rommel
    | Move | Attack | Activate | EndOverrun | EndAssault | Join | Lead | Support | Defend | MaximumAttack
    | FanaticalDefense | Accept | Absorb | Retreat | Stay | Overrun | Decline | RegroupMove | EndRegroup
    | ProlongedDaylight | Nightfall | WirelessIntercepts | NoIntercepts | IncreaseReplacements | Flip | Recover
    | TigerCubs | Rebuild | EndRefit
)  # fmt: skip
"""Every Battleaxe action, discriminated on ``action``."""
