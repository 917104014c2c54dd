"""The typed actions of Gazala (contract v2), in wire order, each citing the rule it plays.

A Movement Action is logged step by step (``move``, then ``step`` / ``leave`` / ``halt``), so that the non-moving
seat can attempt a Formation Reaction at each trigger point before the mover has said where it goes next (§6.5.1:
the mover "does neither have to specify the destination hex … nor the number of units").
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pbem.rules.contract import ActionModel

__all__ = [
    "Activate",
    "ActivateUnit",
    "Breach",
    "Decline",
    "EndActivation",
    "Forgo",
    "GazalaAction",
    "Halt",
    "Improve",
    "Leave",
    "Move",
    "Pass",
    "Postpone",
    "React",
    "Refit",
    "Reinforce",
    "Replace",
    "Schwerpunkt",
    "Step",
    "Transfer",
]


class Activate(ActionModel):
    """Activate a formation (§6.3): its HQ's supply check, then the AP roll."""

    action: Literal["activate"] = "activate"
    formation: str = Field(title="formation")


class ActivateUnit(ActionModel):
    """Activate an unassigned independent unit for one Action (§6.4)."""

    action: Literal["activate_unit"] = "activate_unit"
    unit: str = Field(title="independent unit")


class Transfer(ActionModel):
    """Hand the initiative to the other side (§6.2)."""

    action: Literal["transfer"] = "transfer"


class Pass(ActionModel):
    """Pass for the rest of the Ops Phase (§6.2)."""

    action: Literal["pass"] = "pass"


class Move(ActionModel):
    """Begin a Movement Action with a stack that starts in one hex (§7.3.1)."""

    action: Literal["move"] = "move"
    units: list[str] = Field(title="moving units")


class Step(ActionModel):
    """Move the stack one hex on (§7.3.2)."""

    action: Literal["step"] = "step"
    to: str = Field(title="to hex")


class Leave(ActionModel):
    """Announce that the stack leaves a hex next to an enemy combat unit (§6.5.1: a Reaction trigger point)."""

    action: Literal["leave"] = "leave"


class Halt(ActionModel):
    """End the Movement Action where the stack stands (§7.3)."""

    action: Literal["halt"] = "halt"


class Breach(ActionModel):
    """Attempt to breach the enemy Minefield a unit stands in (§7.4)."""

    action: Literal["breach"] = "breach"
    unit: str = Field(title="breaching unit")


class Refit(ActionModel):
    """Refit a Disrupted unit: an Effectiveness Check (§7.6)."""

    action: Literal["refit"] = "refit"
    unit: str = Field(title="unit to refit")


class Improve(ActionModel):
    """Improve the defence of a stack (§7.7)."""

    action: Literal["improve"] = "improve"
    hex: str = Field(title="hex")


class EndActivation(ActionModel):
    """End the activation; any Action Points left are lost (§7.1)."""

    action: Literal["end_activation"] = "end_activation"


class React(ActionModel):
    """Attempt a Formation Reaction with the formation of a qualifying unit (§6.5.1, §6.5.2)."""

    action: Literal["react"] = "react"
    unit: str = Field(title="qualifying unit")


class Decline(ActionModel):
    """Let the move go on without a Reaction attempt here (§6.5.1)."""

    action: Literal["decline"] = "decline"


class Schwerpunkt(ActionModel):
    """Place the Axis Schwerpunkt on a formation (§5.9, §9.2)."""

    action: Literal["schwerpunkt"] = "schwerpunkt"
    formation: str = Field(title="formation")


class Replace(ActionModel):
    """Spend a Replacement Point on a unit (§9.3)."""

    action: Literal["replace"] = "replace"
    unit: str = Field(title="unit")


class Forgo(ActionModel):
    """Leave the Replacement Point unused (§9.3: RPs must be used at once or are lost)."""

    action: Literal["forgo"] = "forgo"


class Reinforce(ActionModel):
    """Bring a reinforcement onto the map at a friendly entry hex (§9.4, §9.4.1)."""

    action: Literal["reinforce"] = "reinforce"
    unit: str = Field(title="reinforcement")
    entry: str = Field(title="entry hex")


class Postpone(ActionModel):
    """Postpone a reinforcement to a later turn (§9.4)."""

    action: Literal["postpone"] = "postpone"
    unit: str = Field(title="reinforcement")


GazalaAction = (
    Activate
    | ActivateUnit
    | Transfer
    | Pass
    | Move
    | Step
    | Leave
    | Halt
    | Breach
    | Refit
    | Improve
    | EndActivation
    | React
    | Decline
    | Schwerpunkt
    | Replace
    | Forgo
    | Reinforce
    | Postpone
)
