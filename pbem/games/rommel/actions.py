"""The actions of *Rommel in the Desert* (contract v2): one typed model per decision, in wire order.

A secret field (``Identify.block``, the Minefield actions' ``hex``) defaults to None: the log carries the action
without it and the engine keeps its value in a hidden slot (:meth:`pbem.games.rommel.ruleset.Rommel.secret_fields`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pbem.rules.contract import ActionModel

__all__ = [
    "AcceptBattle",
    "Advance",
    "Answer",
    "Attrition",
    "Blitz",
    "BuildMinefield",
    "Buy",
    "Cease",
    "Challenge",
    "Commit",
    "Deploy",
    "Discard",
    "EndBuildup",
    "EndCombat",
    "EndMove",
    "EndMovement",
    "EndWithdrawal",
    "FightBattle",
    "Fire",
    "Force",
    "GroupMove",
    "Identify",
    "Keep",
    "Losses",
    "Malta",
    "MinesDone",
    "ProbeCombat",
    "Pursue",
    "PursuitLosses",
    "Redeploy",
    "Redraw",
    "Refit",
    "Refuse",
    "Regroup",
    "Replace",
    "RevealMine",
    "RommelAction",
    "SeaRedeploy",
    "Select",
    "Slowest",
    "StepMove",
    "SwapMinefields",
    "Withdraw",
    "WithdrawGroup",
    "WithdrawRegroup",
    "WithdrawalVoid",
]


class Identify(ActionModel):
    """Choose, in secret, which block of its group a token is (§18.0 starting forces, §16.4 reinforcements)."""

    action: Literal["identify"] = "identify"
    token: str = Field(title="block")
    block: str | None = Field(default=None, title="unit (secret)")


class Deploy(ActionModel):
    """Set a token up in a hex of its deployment area (§18.0: supplied, not held by the enemy)."""

    action: Literal["deploy"] = "deploy"
    token: str = Field(title="block")
    hex: str = Field(title="hex")


class Keep(ActionModel):
    """Keep the initial hand (§18.0)."""

    action: Literal["keep"] = "keep"


class Redraw(ActionModel):
    """Discard the whole initial hand and draw a new one, once (§18.0)."""

    action: Literal["redraw"] = "redraw"


class Buy(ActionModel):
    """Spend Buildup Points on one extra Supply Card (§16.5)."""

    action: Literal["buy"] = "buy"


class Replace(ActionModel):
    """Spend Buildup Points to add one step to a unit in its Base (§16.54)."""

    action: Literal["replace"] = "replace"
    token: str = Field(title="block")


class Redeploy(ActionModel):
    """One Redeployment: a unit moves within the friendly Supply Network, for BP (§16.51)."""

    action: Literal["redeploy"] = "redeploy"
    token: str = Field(title="block")
    to: str = Field(title="to hex")


class SeaRedeploy(ActionModel):
    """A Sea Redeployment between two controlled Ports (§16.53)."""

    action: Literal["sea_redeploy"] = "sea_redeploy"
    token: str = Field(title="block")
    to: str = Field(title="to Port")


class Refit(ActionModel):
    """Return a unit to Base for Refit: off the map until the next Buildup (§16.52)."""

    action: Literal["refit"] = "refit"
    token: str = Field(title="block")


class BuildMinefield(ActionModel):
    """Build a hidden Minefield in the friendly Supply Network (§16.55); its hex is secret."""

    action: Literal["build_minefield"] = "build_minefield"
    hex: str | None = Field(default=None, title="hex (secret)")


class SwapMinefields(ActionModel):
    """Dismantle two Minefields in the friendly network to build a new hidden one at no cost (§16.55)."""

    action: Literal["swap_minefields"] = "swap_minefields"
    first: str = Field(title="Minefield dismantled")
    second: str = Field(title="Minefield dismantled")
    hex: str | None = Field(default=None, title="new hex (secret)")


class RevealMine(ActionModel):
    """Open a hidden Minefield the enemy entered in this Movement phase (§14.2)."""

    action: Literal["reveal_mine"] = "reveal_mine"
    mine: str = Field(title="Minefield")


class MinesDone(ActionModel):
    """Every hidden Minefield the enemy entered this Movement phase is revealed (§14.2)."""

    action: Literal["mines_done"] = "mines_done"


class Discard(ActionModel):
    """Discard a dummy Supply Card of the hand, shown face up; it returns to the deck at Resupply (§16.6)."""

    action: Literal["discard"] = "discard"
    card: int = Field(title="card (hand position)")


class Malta(ActionModel):
    """Axis: call in the Malta Group, the optional "M" units, in this Buildup (18.6, 18.8)."""

    action: Literal["malta"] = "malta"


class EndBuildup(ActionModel):
    """End this player's Buildup: unspent BP are saved up to the limit (§16.5)."""

    action: Literal["end_buildup"] = "end_buildup"


class Challenge(ActionModel):
    """Allied: challenge for the Initiative with the card at ``card`` of the hand, or decline with None (§3.3)."""

    action: Literal["challenge"] = "challenge"
    card: int | None = Field(title="card (hand position)")


class Answer(ActionModel):
    """Axis: answer an Initiative Challenge with the card at ``card`` of the hand, or not with None (§3.3)."""

    action: Literal["answer"] = "answer"
    card: int | None = Field(title="card (hand position)")


class Commit(ActionModel):
    """Commit one more card of the hand face down to the Turn Option (§3.42; dummies may bluff, §4.0)."""

    action: Literal["commit"] = "commit"
    card: int = Field(title="card (hand position)")


class Select(ActionModel):
    """End the Turn Option selection with the cards committed so far; none is a Pass (§3.42, §4.5)."""

    action: Literal["select"] = "select"


class GroupMove(ActionModel):
    """Begin a Group Move of units from ``origin`` (§5.1); ``rommel``: with the Rommel bonus (§6.3)."""

    action: Literal["group"] = "group"
    origin: str = Field(title="from hex")
    rommel: bool = Field(title="Rommel bonus")


class Regroup(ActionModel):
    """Begin a Regroup Move: units in or next to the Command Point move to one destination (§5.2)."""

    action: Literal["regroup"] = "regroup"
    command_point: str = Field(title="Command Point")
    destination: str = Field(title="destination hex")
    rommel: bool = Field(title="Rommel bonus")


class WithdrawGroup(ActionModel):
    """Begin the Pass Turn's free Withdrawal Move as a Group Move from ``origin`` (§4.5, §5.3)."""

    action: Literal["withdraw_group"] = "withdraw_group"
    origin: str = Field(title="from hex")
    rommel: bool = Field(title="Rommel bonus")


class WithdrawRegroup(ActionModel):
    """Begin the Pass Turn's free Withdrawal Move as a Regroup Move (§4.5, §5.2, §5.3)."""

    action: Literal["withdraw_regroup"] = "withdraw_regroup"
    command_point: str = Field(title="Command Point")
    destination: str = Field(title="destination hex")
    rommel: bool = Field(title="Rommel bonus")


class WithdrawalVoid(ActionModel):
    """Take back a Withdrawal Move that cannot qualify (§5.3): its units return where they began, and the turn's
    free Withdrawal is spent."""

    action: Literal["void_withdrawal"] = "void_withdrawal"


class StepMove(ActionModel):
    """Move a unit of the Move under way one hex further (§6.0)."""

    action: Literal["step"] = "step"
    token: str = Field(title="block")
    to: str = Field(title="to hex")


class EndMove(ActionModel):
    """End the Move under way (§4)."""

    action: Literal["end_move"] = "end_move"


class Force(ActionModel):
    """Announce a Forced March: a unit that moved tries one hex past its range (§6.4), rolled at the phase's end."""

    action: Literal["force"] = "force"
    token: str = Field(title="block")
    to: str = Field(title="to hex")


class EndMovement(ActionModel):
    """End the Movement phase (§3.43)."""

    action: Literal["end_movement"] = "end_movement"


class Advance(ActionModel):
    """After the Month ends, go on: the next Month's Buildup (§16.1), or the end of the game (§17)."""

    action: Literal["advance"] = "advance"


class FightBattle(ActionModel):
    """Fight a Combat Round in the battle in ``hex`` (§8.6), as an Assault if ``assault`` (§4.3)."""

    action: Literal["fight"] = "fight"
    hex: str = Field(title="battle hex")
    assault: bool = Field(title="Assault")


class Fire(ActionModel):
    """A unit fires at an enemy arms class (§9.2, §9.3): one die per CV, times the multiplier."""

    action: Literal["fire"] = "fire"
    token: str = Field(title="block")
    target: str = Field(title="target class")


class Cease(ActionModel):
    """End this side's fire in the Combat Round (firing is optional, notes §10.29)."""

    action: Literal["cease"] = "cease"


class Losses(ActionModel):
    """Report the losses of the volley just fired at this side on one arms class: CV lost per block (§9.5)."""

    action: Literal["losses"] = "losses"
    target: str = Field(title="arms class hit")
    losses: dict[str, int] = Field(title="CV lost per block")


class Slowest(ActionModel):
    """Announce the speed of the slowest unit of the group Retreating under Pursuit Fire (§10.5)."""

    action: Literal["slowest"] = "slowest"
    speed: int = Field(title="slowest speed")


class Pursue(ActionModel):
    """Roll Pursuit Fire at a Retreating group: the number of dice (§10.5; fire may be held back, Pursuit
    Deception)."""

    action: Literal["pursue"] = "pursue"
    dice: int = Field(title="pursuit dice")


class PursuitLosses(ActionModel):
    """Allocate the Pursuit Fire hits on the Retreating group (§10.5, §9.5): the units eliminated (public) and, in
    secret, the CV each unit loses."""

    action: Literal["pursuit_losses"] = "pursuit_losses"
    eliminated: list[str] = Field(title="units eliminated")
    losses: dict[str, int] | None = Field(default=None, title="CV lost per block (secret)")


class Attrition(ActionModel):
    """Report the Rout Attrition of a routed group: each unit loses one step; the units that eliminates (§11.3)."""

    action: Literal["attrition"] = "attrition"
    eliminated: list[str] = Field(title="units eliminated")


class Withdraw(ActionModel):
    """Move a unit of a Withdrawal Group Move (Refusing Battle, a Rout) one hex back along its supply line (§5.3)."""

    action: Literal["withdraw"] = "withdraw"
    token: str = Field(title="block")
    to: str = Field(title="to hex")


class EndWithdrawal(ActionModel):
    """End the Withdrawal: the units move; those unable to withdraw are eliminated (§10.1, §11.3)."""

    action: Literal["end_withdrawal"] = "end_withdrawal"


class Refuse(ActionModel):
    """Passive Player: Refuse Battle with the group just Attacked in ``hex`` (§8.4, §10.2)."""

    action: Literal["refuse"] = "refuse"
    hex: str = Field(title="battle hex")


class AcceptBattle(ActionModel):
    """Passive Player: accept every battle not refused (§8.4)."""

    action: Literal["accept_battle"] = "accept_battle"


class ProbeCombat(ActionModel):
    """Passive Player: provoke a round of Probe Combat against a Partial Retreat's Rearguard, or not (§10.41)."""

    action: Literal["probe"] = "probe"
    provoke: bool = Field(title="provoke Probe Combat")


class Blitz(ActionModel):
    """End the Combat phase and begin Blitz Movement: a second Move with other units, then Blitz Combat (§4.4)."""

    action: Literal["blitz"] = "blitz"


class EndCombat(ActionModel):
    """End the Combat phase and the Player-Turn: the committed cards are revealed (§3.44, §3.48)."""

    action: Literal["end_combat"] = "end_combat"


RommelAction = (
    Identify
    | Deploy
    | Keep
    | Redraw
    | Buy
    | Replace
    | Redeploy
    | SeaRedeploy
    | Refit
    | BuildMinefield
    | SwapMinefields
    | Discard
    | RevealMine
    | MinesDone
    | EndBuildup
    | Malta
    | Challenge
    | Answer
    | Commit
    | Select
    | GroupMove
    | Regroup
    | WithdrawGroup
    | WithdrawRegroup
    | WithdrawalVoid
    | StepMove
    | EndMove
    | Force
    | EndMovement
    | EndCombat
    | FightBattle
    | Fire
    | Cease
    | Losses
    | Slowest
    | Pursue
    | PursuitLosses
    | Attrition
    | Withdraw
    | EndWithdrawal
    | Refuse
    | AcceptBattle
    | ProbeCombat
    | Blitz
    | Advance
)
