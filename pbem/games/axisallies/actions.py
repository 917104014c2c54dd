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
    "Aim",
    "Airlift",
    "Allot",
    "AxisAction",
    "Casualty",
    "Cease",
    "Claim",
    "Commit",
    "Deploy",
    "Destroy",
    "Detonate",
    "Done",
    "Escape",
    "Escort",
    "Fight",
    "LandEscort",
    "LayMine",
    "LaySeaMine",
    "Load",
    "LoseCargo",
    "Main",
    "MineLoss",
    "MineName",
    "Move",
    "MoveExcess",
    "MoveIn",
    "NameCargo",
    "Order",
    "Pay",
    "PayUpkeep",
    "Place",
    "Press",
    "PressPay",
    "Reinforce",
    "Repair",
    "Requisition",
    "Retreat",
    "SeaAttack",
    "Strike",
    "Submerge",
    "TurnAside",
    "TurnBackUnit",
    "Withdraw",
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


class Claim(ActionModel):
    """p.29: German or Italian combat land units in a territory holding only Vichy French units take control."""

    action: Literal["claim"] = "claim"
    territory: str = Field(title="territory")


class Withdraw(ActionModel):
    """p.18: take back an attack declaration of this phase (its supply goes back)."""

    action: Literal["withdraw"] = "withdraw"
    origin: str = Field(title="attack from")
    target: str = Field(title="attack on")


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


class Fight(ActionModel):
    """p.19: the moving power fights its next declared combat."""

    action: Literal["fight"] = "fight"
    target: str = Field(title="combat in")


class Main(ActionModel):
    """p.19: the attacker names the main attack among the origins tied for the most land units."""

    action: Literal["main"] = "main"
    origin: str = Field(title="main attack from")


class Strike(ActionModel):
    """pp.31, 33: the attacker destroys 1 supply token in the attacked territory (Supply Raider, Collateral
    Damage)."""

    action: Literal["strike"] = "strike"
    ability: Literal["supply_raider", "collateral_damage"] = Field(title="with")


class Order(ActionModel):
    """p.20: the defender's combat orders for the round: fight (paying 1 supply from ``source`` unless every
    defender is exempt) or retreat; ``exempt_stay``: the exempt units fight while the others retreat."""

    action: Literal["order"] = "order"
    fight: bool = Field(title="fight")
    exempt_stay: bool = Field(title="exempt units stay")
    source: str | None = Field(title="supply from")


class Aim(ActionModel):
    """pp.30-33: the firer aims one hit of fire group ``group`` at ``target`` (tanks, air, a unit type)."""

    action: Literal["aim"] = "aim"
    group: int = Field(title="fire group")
    target: str = Field(title="aimed at")


class Casualty(ActionModel):
    """pp.21-22: the owner takes one hit on a piece (``"power:type"``); an attacking land unit is named with the
    territory it attacks from (None for a defender)."""

    action: Literal["casualty"] = "casualty"
    unit: str = Field(title="piece")
    origin: str | None = Field(title="attacking from")


class Retreat(ActionModel):
    """p.22: a retreating defender (``"power:type"``) moves to an adjacent territory."""

    action: Literal["retreat"] = "retreat"
    unit: str = Field(title="piece")
    to: str = Field(title="to")


class TurnAside(ActionModel):
    """p.23: the attacker turns one attacking piece aside before pressing (it stays in its origin; an air unit,
    origin None, stays in the air and lands in the noncombat move)."""

    action: Literal["turn_aside"] = "turn_aside"
    origin: str | None = Field(title="from")
    unit: str = Field(title="piece")


class PressPay(ActionModel):
    """p.23: one supply token from ``source`` pays for pressing out of ``origin``."""

    action: Literal["press_pay"] = "press_pay"
    origin: str = Field(title="attack from")
    source: str = Field(title="supply from")


class Press(ActionModel):
    """p.23: the attacker presses: another round."""

    action: Literal["press"] = "press"


class Cease(ActionModel):
    """p.23: the attacker ceases the attack."""

    action: Literal["cease"] = "cease"


class MoveIn(ActionModel):
    """p.23 step 6: one attacking land unit moves into the captured territory."""

    action: Literal["move_in"] = "move_in"
    origin: str = Field(title="from")
    unit: str = Field(title="piece")


class LayMine(ActionModel):
    """p.14: deploy a land mine token (or upgrade the "1 mine" token there) on the border of ``territory`` facing
    the adjacent ``facing``."""

    action: Literal["lay_mine"] = "lay_mine"
    territory: str = Field(title="territory")
    facing: str = Field(title="facing")


class LaySeaMine(ActionModel):
    """p.14: deploy a sea mine token of the acting power in ``zone``."""

    action: Literal["lay_sea_mine"] = "lay_sea_mine"
    zone: str = Field(title="sea zone")


class Detonate(ActionModel):
    """p.26: the mines' owner detonates ``icons`` mine icons on the border being crossed."""

    action: Literal["detonate"] = "detonate"
    icons: int = Field(title="mine icons")


class TurnBackUnit(ActionModel):
    """p.26: the acting player turns one land unit of the attack crossing a detonated border aside."""

    action: Literal["turn_back"] = "turn_back"
    unit: str = Field(title="unit type")


class Load(ActionModel):
    """p.32: load one unit (or one supply point, ``"supply"``) in ``origin`` onto the next truck of the acting
    power to drive out of ``origin`` in this noncombat move."""

    action: Literal["load"] = "load"
    origin: str = Field(title="in")
    cargo: str = Field(title="cargo")


class Airlift(ActionModel):
    """p.38 (optional Air Transport): a bomber of the acting power flies from its staging territory to ``to``
    carrying one ``cargo`` land unit of its power."""

    action: Literal["airlift"] = "airlift"
    unit: str = Field(title="bomber")
    cargo: str = Field(title="carrying")
    to: str = Field(title="to")


class Allot(ActionModel):
    """p.38: one RP of an accepted bid goes to ``power``'s first turn."""

    action: Literal["allot"] = "allot"
    power: str = Field(title="power")


class Reinforce(ActionModel):
    """p.38 (optional Reinforcing Land Attacks): one land unit in ``origin`` joins the land attack being pressed."""

    action: Literal["reinforce"] = "reinforce"
    origin: str = Field(title="from")
    unit: str = Field(title="unit type")


class MineLoss(ActionModel):
    """p.27: the acting player loses one piece of cargo it deployed (``"power:type"``, or ``"supply"``: 5 supply
    points, all if fewer) to a sea mine's hit on its transports."""

    action: Literal["mine_loss"] = "mine_loss"
    unit: str = Field(title="piece")


class MineName(ActionModel):
    """p.27: the mine's owner names the unit type (or ``"supply"``) of a transport hit's second loss."""

    action: Literal["mine_name"] = "mine_name"
    unit: str = Field(title="unit type")


class SeaAttack(ActionModel):
    """p.18: the mover's sea units in a friendly sea zone holding enemy submarines or transports attack them
    (they may; those that moved there in the combat move must)."""

    action: Literal["sea_attack"] = "sea_attack"
    zone: str = Field(title="sea zone")


class Submerge(ActionModel):
    """p.34: one submarine (``"power:type"``) submerges instead of making a Surprise Strike."""

    action: Literal["submerge"] = "submerge"
    unit: str = Field(title="submarine")


class LoseCargo(ActionModel):
    """p.21: one piece of cargo lost to a transport hit: a land unit (``"power:type"``), or supply points as
    ``"power:points"`` per power (``unit`` None)."""

    action: Literal["lose_cargo"] = "lose_cargo"
    unit: str | None = Field(title="land unit")
    supply: list[str] = Field(title="supply")


class NameCargo(ActionModel):
    """p.21: the firer names the unit type (or ``"supply"``) of the second piece of cargo a transport hit
    destroys."""

    action: Literal["name_cargo"] = "name_cargo"
    type: str = Field(title="unit type")


class Escape(ActionModel):
    """p.22 step 4: one piece of cargo escapes the convoy combat: a land unit (``"power:type"``), or supply points
    as ``"power:points"`` per power (``unit`` None)."""

    action: Literal["escape"] = "escape"
    unit: str | None = Field(title="land unit")
    supply: list[str] = Field(title="supply")


class Escort(ActionModel):
    """p.25: an air unit that did not move this turn flies from ``origin`` to escort the open convoy in ``to``."""

    action: Literal["escort"] = "escort"
    unit: str = Field(title="unit type")
    origin: str = Field(title="from")
    to: str = Field(title="to")


class LandEscort(ActionModel):
    """p.12: at the start of its turn, an air unit escorting in the convoy zone ``origin`` lands in ``to``."""

    action: Literal["land_escort"] = "land_escort"
    unit: str = Field(title="unit type")
    origin: str = Field(title="from")
    to: str = Field(title="to")


class Repair(ActionModel):
    """p.13: repair one damaged battleship in the naval base zone ``zone``."""

    action: Literal["repair"] = "repair"
    zone: str = Field(title="sea zone")


class Done(ActionModel):
    """End the current phase (or, for an opposing player, stop moving excess units)."""

    action: Literal["done"] = "done"


AxisAction = (
    Place
    | PayUpkeep
    | Requisition
    | Move
    | Commit
    | Pay
    | Withdraw
    | Claim
    | Deploy
    | MoveExcess
    | Destroy
    | Fight
    | Main
    | Strike
    | Order
    | Aim
    | Casualty
    | Retreat
    | TurnAside
    | PressPay
    | Press
    | Cease
    | MoveIn
    | LayMine
    | LaySeaMine
    | Detonate
    | TurnBackUnit
    | Load
    | Airlift
    | Allot
    | Reinforce
    | MineLoss
    | MineName
    | SeaAttack
    | Submerge
    | LoseCargo
    | NameCargo
    | Escape
    | Escort
    | LandEscort
    | Repair
    | Done
)
