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
    "Assign",
    "Breach",
    "Decline",
    "DisplaceHq",
    "EndActivation",
    "Forgo",
    "GazalaAction",
    "Halt",
    "Improve",
    "KeepRoll",
    "Leave",
    "Move",
    "Organised",
    "Pass",
    "PlaceMarker",
    "Postpone",
    "Proceed",
    "React",
    "Refit",
    "Reinforce",
    "ReinforceAt",
    "Replace",
    "Schwerpunkt",
    "Snafu",
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


class Cannibalise(ActionModel):
    """Remove a Commonwealth unit from play for its Strength Points as Replacement Points (§9.3.1, §9.3.2)."""

    action: Literal["cannibalise"] = "cannibalise"
    unit: str = Field(title="unit")


class Assign(ActionModel):
    """Assign or reassign an independent unit without a white stripe to a formation (§5.5.2, §9.2)."""

    action: Literal["assign"] = "assign"
    unit: str = Field(title="unit")
    formation: str = Field(title="formation")


class PlaceMarker(ActionModel):
    """Place an Assigned marker face down in a formation box (§5.5.2, option ``secret_assignments``): ``unit`` is the
    independent unit it assigns, or ``"dummy"`` for a Dummy marker. The unit is a secret field: the log carries only
    the box, the value sits in a committed slot until the Organisation Segment's markers are opened."""

    action: Literal["place_marker"] = "place_marker"
    formation: str = Field(title="formation box")
    unit: str | None = Field(default=None, title="unit (or dummy)")


class Proceed(ActionModel):
    """Go on with the Admin Phase once the Organisation Segment's markers are open (§5.5.2): an action of its own
    when no decision comes before the Ops Phase's initiative dice, which may not follow an opening."""

    action: Literal["proceed"] = "proceed"


class Organised(ActionModel):
    """End the side's Organisation Segment (§9.2): no more (re)assignments this turn."""

    action: Literal["organised"] = "organised"


class Forgo(ActionModel):
    """Leave the Replacement Point unused (§9.3: RPs must be used at once or are lost)."""

    action: Literal["forgo"] = "forgo"


class Reinforce(ActionModel):
    """Bring a reinforcement onto the map at a friendly entry hex (§9.4, §9.4.1); an independent one (no stripe)
    names the qualifying formation its owner assigns it to (§5.5.2, §9.4.1), any other none (``null``)."""

    action: Literal["reinforce"] = "reinforce"
    unit: str = Field(title="reinforcement")
    entry: str = Field(title="entry hex")
    formation: str | None = Field(title="assigned to")


class ReinforceAt(ActionModel):
    """Bring a reinforcement onto the map at ``hex``, the map-edge hex nearest to its entry hexes, when none of them
    is available (§9.4.1); ``entry`` names the original entry hex, ``formation`` as for :class:`Reinforce`."""

    action: Literal["reinforce_at"] = "reinforce_at"
    unit: str = Field(title="reinforcement")
    entry: str = Field(title="entry hex")
    hex: str = Field(title="alternate hex")
    formation: str | None = Field(title="assigned to")


class Postpone(ActionModel):
    """Postpone a reinforcement to a later turn (§9.4)."""

    action: Literal["postpone"] = "postpone"
    unit: str = Field(title="reinforcement")


class Attack(ActionModel):
    """Declare a Hasty Attack by units of one hex on an adjacent enemy-occupied hex (§7.5.1 A)."""

    action: Literal["attack"] = "attack"
    target: str = Field(title="target hex")
    units: list[str] = Field(title="attacking units")


class RetreatBeforeCombat(ActionModel):
    """Attempt a Retreat before Combat with the defending stack (§7.5.1.1)."""

    action: Literal["retreat_before_combat"] = "retreat_before_combat"


class Stand(ActionModel):
    """Stand and fight: no Retreat before Combat (§7.5.1.1)."""

    action: Literal["stand"] = "stand"


class Escalate(ActionModel):
    """Escalate the attack, or keep it Hasty (§7.5.1 C)."""

    action: Literal["escalate"] = "escalate"
    to: Literal["hasty", "regular", "prepared"] = Field(title="attack")


class Air(ActionModel):
    """Commit Axis air units from the Available box (§7.5.1.4)."""

    action: Literal["air"] = "air"
    count: int = Field(title="air units")


class Lead(ActionModel):
    """Name the Lead Formation of a defending stack of several formations (§7.5.1.5 A)."""

    action: Literal["lead"] = "lead"
    formation: str = Field(title="Lead Formation")


class ArmourUnit(ActionModel):
    """Select the attacking unit for Armour Superiority among tied ones (§7.5.1.5 C)."""

    action: Literal["armour_unit"] = "armour_unit"
    unit: str = Field(title="Tank Points unit")


class ArmourChoice(ActionModel):
    """Defend with Tank or Anti-Tank Points, and select the unit (§7.5.1.5 C)."""

    action: Literal["armour"] = "armour"
    points: Literal["tp", "at"] = Field(title="points")
    unit: str = Field(title="unit")


class FirstLoss(ActionModel):
    """Choose the unit that takes the first Strength Point loss (§7.5.2 step 1)."""

    action: Literal["first_loss"] = "first_loss"
    unit: str = Field(title="unit")


class Distribute(ActionModel):
    """Distribute the remaining hits (§7.5.2): Hold, Retreat, Follow or Forced, the holding units, the step losses
    (a unit named once per loss)."""

    action: Literal["distribute"] = "distribute"
    choice: Literal["hold", "retreat", "follow", "forced"] = Field(title="distribution")
    holders: list[str] = Field(title="holding units")
    losses: list[str] = Field(title="step losses")


class RetreatPath(ActionModel):
    """Retreat the stack along these hexes (§7.5.2.2, §7.5.2.3)."""

    action: Literal["retreat"] = "retreat"
    path: list[str] = Field(title="retreat path")


class Displace(ActionModel):
    """Displace an overstacked enemy unit into an adjacent hex (§5.3.3; none: it is eliminated)."""

    action: Literal["displace"] = "displace"
    unit: str = Field(title="unit")
    to: str | None = Field(title="to hex")


class DisplaceHq(ActionModel):
    """Displace one's own HQ to one of its nearest destinations (§5.3.2: the owner chooses; §5.3.1: which surplus
    HQ leaves a hex holding two)."""

    action: Literal["displace_hq"] = "displace_hq"
    hq: str = Field(title="HQ")
    to: str = Field(title="to hex")


class DeclineBonus(ActionModel):
    """Let the Battle Victory bonus APs go unspent (§7.5.3)."""

    action: Literal["decline_bonus"] = "decline_bonus"


class Snafu(ActionModel):
    """Hand the SNAFU marker to the opponent to force a re-roll of die ``die`` (from 0) of its roll ``roll``, just
    rolled (§5.2)."""

    action: Literal["snafu"] = "snafu"
    roll: str
    die: int = Field(ge=0)


class KeepRoll(ActionModel):
    """Let the opponent's roll just made stand, keeping the SNAFU marker (§5.2)."""

    action: Literal["keep_roll"] = "keep_roll"


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
    | Cannibalise
    | Forgo
    | Reinforce
    | Postpone
    | Attack
    | RetreatBeforeCombat
    | Stand
    | Escalate
    | Air
    | Lead
    | ArmourUnit
    | ArmourChoice
    | FirstLoss
    | Distribute
    | RetreatPath
    | Displace
    | DeclineBonus
    | Snafu
    | KeepRoll
    | Assign
    | Organised
    | ReinforceAt
    | PlaceMarker
    | Proceed
    | DisplaceHq
)
