"""Battle Victory (§7.5.3) and the SNAFU / Schlachtenglück re-roll (§5.2).

Battle Victory: the side with the lower CRT hit number wins, unless every one of its units in the combat was
eliminated; a tie (and a successful Retreat before Combat) gives no winner. Losses from ECs and retreats do not
count: only the CRT numbers. The winner's units that took part, are In Command and survived get one bonus AP
(two for the Axis when one of them is an In Command unit of the Schwerpunkt formation), to be spent at once.

SNAFU: the player holding the marker may hand it to the opponent to force a re-roll of one of the opponent's die
rolls (one d10; never a chit draw, notes B25). The window for a roll closes once anything happens after it
(notes §7.2: at the holder's next signed entry); the ruleset says which roll is still open (``latest``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pbem.games.gazala.board import other
from pbem.games.gazala.combat import Combatant
from pbem.games.gazala.data import GazalaPack, Side
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = ["DieRoll", "Victory", "battle_victory", "check_snafu", "snafu_holder_after"]

Role = Literal["attacker", "defender"]


@dataclass(frozen=True)
class Victory:
    """A Battle Victory (§7.5.3): the winning role (None: no winner), its bonus APs and the units that may spend
    them (none: the APs are lost)."""

    winner: Role | None
    bonus_ap: int
    units: tuple[str, ...]


def battle_victory(
    pack: GazalaPack,
    attacker: Side,
    hits: tuple[int, int],
    attackers: Sequence[Combatant],
    defenders: Sequence[Combatant],
    eliminated: frozenset[str],
    *,
    schwerpunkt: str | None = None,
    rbc_succeeded: bool = False,
) -> Victory:
    """§7.5.3 for a combat whose CRT result gave ``hits`` (attacker's, defender's), in which ``eliminated`` units
    were removed; ``attacker`` is the attacking side, ``schwerpunkt`` the formation holding the Axis marker.

    A 5/0 below the table is a defender's victory (notes B9); a successful Retreat before Combat is none."""
    if rbc_succeeded or hits[0] == hits[1]:
        return Victory(None, 0, ())
    role: Role = "attacker" if hits[0] < hits[1] else "defender"
    side = attacker if role == "attacker" else other(attacker)
    units = attackers if role == "attacker" else defenders
    survivors = [u for u in units if u.id not in eliminated]
    if not survivors:
        return Victory(None, 0, ())
    able = tuple(u.id for u in survivors if u.in_command)
    if not able:
        return Victory(role, 0, ())
    bonus = pack.number("battle_victory_ap")
    in_schwerpunkt = [u for u in survivors if schwerpunkt is not None and u.formation == schwerpunkt]
    if side == "axis" and any(u.in_command for u in in_schwerpunkt):
        bonus += pack.number("schwerpunkt_victory_ap")
    return Victory(role, bonus, able)


# --- SNAFU (§5.2) ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DieRoll:
    """A die rolled in the game: its id (the ruleset's), its owner (the side that rolled it, notes §6.1) and
    whether it is a chit draw (never re-rolled)."""

    id: str
    owner: Side
    chit: bool = False


def check_snafu(holder: Side, user: Side, roll: DieRoll, *, latest: str | None) -> Verdict:
    """§5.2: ``user`` forces a re-roll of ``roll``. Refused: ``snafu-not-held`` (``user`` does not hold the marker),
    ``snafu-chit`` (a chit draw is not a die roll), ``snafu-own-roll`` (only an opponent's roll),
    ``snafu-window`` (the roll is no longer the one open to a re-roll: ``latest``)."""
    if holder != user:
        return deny("5.2", "snafu-not-held", "the SNAFU marker is held by the other side")
    if roll.chit:
        return deny("5.2", "snafu-chit", "SNAFU re-rolls a die, never a combat chit draw")
    if roll.owner == user:
        return deny("5.2", "snafu-own-roll", "SNAFU forces a re-roll of one of the opponent's die rolls")
    if roll.id != latest:
        return deny("5.2", "snafu-window", "that roll can no longer be re-rolled")
    return ALLOW


def snafu_holder_after(user: Side) -> Side:
    """§5.2: the marker goes to the opponent whose roll was re-rolled."""
    return other(user)
