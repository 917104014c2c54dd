"""Limited intelligence (§5.3.4): what of an enemy stack a viewer may see, option ``limited_intelligence``.

"A side may only examine the contents of an enemy stack after having declared a ground attack against the
defending hex. Reduced strength markers beneath units may never be inspected. At all other times, only the topmost
unit in an enemy stack may be viewed. Important: A player may always inspect beneath an enemy HQ unit."

With the option on, :func:`redact` turns the units of a view into what its viewer may see:

* a side sees all of its own pieces; the omniscient viewer sees everything;
* an opponent seat and an observer see, of each enemy stack, its topmost piece and one anonymous counter for each
  piece beneath it (the height of a stack is in plain sight);
* a stack topped by an HQ is seen whole (an HQ is always the top of its stack, §3.3, and beneath it may always be
  inspected);
* of an enemy combat unit seen, the printed face and the side shown (Disrupted or not), never its current strength:
  the reduced strength marker lies beneath the counter;
* the stacks of a combat under way are seen whole by everybody, strengths included: the defending stack is examined
  once the attack is declared (a ``stack_examined`` event, :mod:`.battle`), the attacking units are named by the
  declaration, and the combat's strengths are told (notes §7.2 M2 (i), (ii)); so is an overstacked hex while the
  opponent displaces its units (§5.3.3: it chooses which);
* when the game is over everything is open.

A stack's topmost unit, when no HQ tops it, is its first unit in the counter sheet's order (the pack's): the owner
does not arrange its stacks.

In solitaire scenarios (§10.1) the only seat sees the enemy's stacks as any opponent would, though the static
enemy has nobody to keep them secret: the option then shapes what the player is shown, nothing else.

What this module does not do: the log and the public state still name every unit and its hex (every action names the
units it moves or fights with), so a player who replays the log knows every stack. Keeping stack contents secret from
a replaying opponent needs anonymous stack tokens in the actions and the state, with the contents beneath the top in
committed slots (as Rommel keeps its blocks); see ``docs/gazala-rules.md``, *Not yet*. Until then the option is off
by default (notes §7.2: a first version runs with every counter open); the rules' own default is on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from pbem.games.gazala.data import GazalaPack, Side
from pbem.games.gazala.state import GazalaState, Overstack
from pbem.rules.contract import OMNISCIENT, UnitView, updated

__all__ = ["OPTION", "limited", "open_stacks", "redact", "top_of"]

OPTION = "limited_intelligence"


def limited(state: GazalaState) -> bool:
    """Whether the game plays with limited intelligence (the option)."""
    return state.options.get(OPTION) is True


def _sheet_order(pack: GazalaPack) -> dict[str, int]:
    """Each combat unit's place in the counter sheet (the pack's order)."""
    return {unit.id: index for index, unit in enumerate(pack.units)}


def top_of(state: GazalaState, pieces: Sequence[str], order: Mapping[str, int] | None = None) -> str:
    """The topmost of ``pieces``, one side's pieces in one hex: its HQ (§3.3), else its first unit in the counter
    sheet's order (``order``, the pack's when not given)."""
    hqs = [p for p in pieces if p in state.hqs]
    if hqs:
        return hqs[0]
    sheet = _sheet_order(state.pack) if order is None else order
    return min(pieces, key=lambda p: sheet[p])


def open_stacks(state: GazalaState) -> frozenset[str]:
    """The hexes whose stacks everybody may see whole now: those of a combat under way (§5.3.4: the defending stack
    is examined once the attack is declared; the declaration names the attackers), and an overstacked hex whose
    units the opponent is displacing (§5.3.3: it chooses which go, so it sees them)."""
    found = {h for p in state.pending if isinstance(p, Overstack) and p.seat != p.side for h in p.hexes}
    battle = state.battle
    if battle is not None:
        found |= {battle.source, battle.target}
        if battle.displacing is not None:
            found.add(battle.displacing)
    return frozenset(found)


def _side(state: GazalaState, piece: str) -> Side:
    return state.pack.side_of(piece)


def redact(state: GazalaState, viewer: str, units: Iterable[UnitView]) -> tuple[UnitView, ...]:
    """The units of a view as ``viewer`` may see them (module docstring); the view of the whole state when the
    option is off, the viewer sees everything or the game is over."""
    units = tuple(units)
    if not limited(state) or viewer == OMNISCIENT or state.phase == "over":
        return units
    stacks: dict[tuple[Side, str], list[str]] = {}
    for unit in units:
        if unit.location is not None and unit.side != viewer:
            stacks.setdefault((_side(state, unit.id), unit.location), []).append(unit.id)
    shown = open_stacks(state)
    order = _sheet_order(state.pack)
    hidden: set[str] = set()
    for (_, hex_id), pieces in stacks.items():
        top = top_of(state, pieces, order)
        if top in state.hqs or hex_id in shown:
            continue
        hidden.update(p for p in pieces if p != top)
    seen: list[UnitView] = []
    counted: dict[tuple[str, str], int] = {}
    for unit in units:
        if unit.id in hidden:
            assert unit.location is not None
            counted[unit.side, unit.location] = counted.get((unit.side, unit.location), 0) + 1
        elif unit.side != viewer and unit.location not in shown and unit.id in state.units:
            seen.append(updated(unit, {"strength": None, "steps": None}))
        else:
            seen.append(unit)
    # the unseen counters come last, by hex: in the units' own order, their places would tell which unit is which
    beneath = (
        _beneath(side, hex_id, n) for (side, hex_id), count in sorted(counted.items()) for n in range(1, count + 1)
    )
    return (*seen, *beneath)


def _beneath(side: str, hex_id: str, number: int) -> UnitView:
    """An enemy counter beneath the top of its stack: its side and hex, nothing else (its id names neither the unit
    nor the counter sheet's order)."""
    return UnitView(
        id=f"{side}@{hex_id}/{number}",
        name="unseen counter",
        side=side,
        location=hex_id,
        hidden=True,
    )
