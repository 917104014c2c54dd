"""The rulebook's contradictions and gaps (notes §10) that have a second sensible reading, as genesis options.

Each option's default is the notes' recommended ruling (or, where the notes are silent, the reading closest to the
text); docs/gazala-rules.md lists every contradiction and gap with its ruling, including those with no second
reading worth an option. :func:`ruling` reads an option with its default, so a genesis without it plays the
default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.rules.contract import OptionSpec

if TYPE_CHECKING:
    from pbem.games.gazala.state import GazalaState

__all__ = ["RULINGS", "ruling"]

RULINGS: tuple[OptionSpec, ...] = (
    OptionSpec(
        id="alternate_entry",
        description="§9.4.1 (the end of the rule is lost in our copy), notes B23: where a reinforcement enters when "
        "none of its entry hexes is available: 'command_range' (default) the nearest friendly map-edge hexes in "
        "Command Range of its formation's HQ (by a Command Path) and not adjacent to an enemy unit; 'open_edge' the "
        "nearest friendly map-edge hexes that are neither enemy-occupied nor in an EZOC",
        default="command_range",
        choices=("command_range", "open_edge"),
    ),
    OptionSpec(
        id="stacking_at_entry",
        description="§9.4.2 ('ignore stacking restrictions until the conclusion of each free Movement Action'): "
        "default false, a reinforcement may be placed in a hex it overstacks and the limits are checked where its "
        "free move ends; true refuses a placement that overstacks the entry hex",
        default=False,
    ),
    OptionSpec(
        id="bir_hacheim_end",
        description="§10.1 says both 'activated six times' and '0 space on the Formation Activation track' (notes "
        "B19): 'first' (default) ends at whichever comes first; 'level' only when Ariete is at level 0",
        default="first",
        choices=("first", "level"),
    ),
    OptionSpec(
        id="disrupted_minefield_support",
        description="§7.5.1.5 A against §7.5.1.2's 'Remember' note (notes A6): default false, a defender with a "
        "Disrupted unit gets no Combat Support even in its own unbreached Minefield; true gives it the Improved "
        "Defence support there",
        default=False,
    ),
    OptionSpec(
        id="reaction_needs_level",
        description="§6.5 is silent on a reacting formation at Activation Level 0 (notes B3): default true, it "
        "cannot react; false lets it react (its level stays 0)",
        default=True,
    ),
    OptionSpec(
        id="independent_recovery_needs_supply",
        description="§5.6.4 ('automatically') against §9.1.4 ('that are in supply', notes A7): default true, an "
        "unassigned independent unit recovers and sheds its activation markers only in supply; false always",
        default=True,
    ),
    OptionSpec(
        id="retreat_ezoc_loss",
        description="§7.5.2.3 does not say whether a Forced Retreat's extra Strength Point for entering an EZOC is "
        "paid per EZOC hex or once (notes B7): 'per_hex' (default, as both examples count it) or 'once'",
        default="per_hex",
        choices=("per_hex", "once"),
    ),
    OptionSpec(
        id="hq_support_any_in_command",
        description="§7.5.1.5 B with an attacking stack partly Out of Command (notes B11): default false, HQ Attack "
        "Support needs every participant In Command; true, one In Command participant is enough",
        default=False,
    ),
    OptionSpec(
        id="combined_arms_stack",
        description="§7.5.1.3 is silent on whether the attacker's tank and infantry must take part (notes B12): "
        "default false, participating attackers only; true, any qualifying pair in the attacking hex",
        default=False,
    ),
    OptionSpec(
        id="minefield_stack_together",
        description="§7.3.1 ('all units that begin moving as a stack must end their movement in the same hex') "
        "against §7.3.6 and its example, where the units that pass enter and those that fail stay (notes A10): "
        "default false, the stack splits; true, one failure keeps the whole stack out",
        default=False,
    ),
    OptionSpec(
        id="attrition_printed_eff",
        description="§5.8.4 does not say which Effectiveness a Disrupted unit's Attrition Check uses (notes B16): "
        "default false, the current (Disrupted) side's; true, the undisrupted side's",
        default=False,
    ),
    OptionSpec(
        id="hq_displacement_enemy_mines",
        description="§5.3.2 places a displaced HQ on a unit 'not located in an unbreached Minefield hex' without "
        "saying whose (notes B14): default false, no unbreached Minefield of either side; true, only the enemy's",
        default=False,
    ),
    OptionSpec(
        id="box_breach",
        description="§5.7.3 ('once breached, a Box ceases to function as a Commonwealth Box supply source') does not "
        "say whether a breached hex ends the supply of its hex or of its whole Box (notes B15): 'hex' (default) only "
        "the breached hex stops supplying; 'whole' every hex of that Box does",
        default="hex",
        choices=("hex", "whole"),
    ),
    OptionSpec(
        id="improved_defence_mixed",
        description="§7.7 is silent on a hex holding units of two formations (notes B26): default false, no "
        "Improved Defence there; true lets the active formation's units improve the hex",
        default=False,
    ),
)
"""The options, in the order the ruleset lists them after its own."""

_DEFAULTS: dict[str, str | int | bool] = {o.id: o.default for o in RULINGS}


def ruling(state: GazalaState, option: str) -> str | int | bool:
    """The value of a ruling option in this game (its default when genesis does not set it)."""
    return state.options.get(option, _DEFAULTS[option])
