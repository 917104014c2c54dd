"""Component limits of *Axis & Allies: North Africa* beyond the strict piece counts (p.9, p.18, notes §10.30).

* Chips (p.9, "Plastic Chips" and "Component Limits"): combat land units may be shown with chips under a piece
  of their type, so their number is limited by the pieces and the chips together. Every stack needs a piece on
  top (the stacks of a power's type are at most its pieces), and the chips are shared by everyone: gray chips of
  1 unit and green chips of 3 (the pack's ``gray_chips``, ``green_chips`` and their ``*_units``). French units
  never use chips (the pack's own check, :func:`.data._check_pieces`, holds them to their pieces).
* Supply tokens (p.18): tokens of 1 and 5 (the pack's ``supply_1`` and ``supply_5`` pieces). In a territory or a
  convoy sea zone a 5 is exchanged for five 1s, and back, at any time, so supply is kept in points there (notes
  §10.21: a 5 is broken whenever a rule takes 1); in the Reinforcements Zone and while being deployed tokens are
  never exchanged. RULING: supply is requisitioned and deployed one point at a time, so the supply waiting in a
  Reinforcements Zone is 1-tokens.

The limits are checked when components come into play or are placed (:func:`check_components`): a requisition,
a deployment. Everything in play must then be shown with the box's components, the stacks made as thriftily as
they can be (:func:`gray_chips_needed`, :func:`ones_needed`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pbem.games.axisallies.data import AxisAlliesPack, UnitType
from pbem.games.axisallies.economy import pieces_available
from pbem.games.axisallies.state import AxisState, split
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = ["check_components", "chip_stacks", "gray_chips_needed", "ones_needed"]

SUPPLY = "supply"


def _chipped(pack: AxisAlliesPack) -> frozenset[str]:
    """p.9: the ``"power:type"`` keys that chips may show (combat land units; not the French)."""
    return frozenset(
        f"{u.power}:{u.type}" for u in pack.units if u.category == "land" and u.combat and u.power != "france"
    )


def chip_stacks(state: AxisState) -> dict[tuple[str, str], list[int]]:
    """(power, type) -> the size of each of its stacks of combat land units that chips may show: one a space, and
    one in its power's Reinforcements Zone."""
    chipped = _chipped(state.pack)
    stacks: dict[tuple[str, str], list[int]] = {}
    for counts in state.pieces.values():
        for k, n in counts.items():
            if n > 0 and k in chipped:
                stacks.setdefault(split(k), []).append(n)
    for power, waiting in state.reserve.items():
        for type_, n in waiting.items():
            if n > 0 and f"{power}:{type_}" in chipped:
                stacks.setdefault((power, type_), []).append(n)
    return stacks


def gray_chips_needed(
    stacks: Mapping[tuple[str, str], Iterable[int]], pieces: Mapping[tuple[str, str], int], greens: int
) -> int | None:
    """The fewest gray chips (1 unit) that show ``stacks`` with ``pieces`` of each type and at most ``greens``
    green chips (3 units); None when a type has more stacks than pieces.

    Each stack has a piece on top; the rest of a type's units are its other pieces, greens (3 units, within one
    stack) and grays. With ``D`` units of a type left for chips once its spare pieces are placed, ``D // 3``
    greens each save 3 grays while a stack can hold them, and a last green saves ``D % 3``: the greens go where
    they save most.
    """
    savings: list[int] = []
    grays = 0
    for kind, sizes in stacks.items():
        sizes = list(sizes)
        spare = pieces.get(kind, 0) - len(sizes)
        if spare < 0:
            return None
        beyond = [n - 1 for n in sizes]
        left = max(0, sum(beyond) - spare)
        blocks = sum(n // 3 for n in beyond)  # greens fit only in stacks of 3 more units
        grays += left
        full = min(left // 3, blocks)
        savings += [3] * full
        if blocks > full and left - 3 * full > 0:
            savings.append(min(3, left - 3 * full))
    return grays - sum(sorted(savings, reverse=True)[:greens])


def ones_needed(piles: Iterable[int], fives: int, waiting: int) -> int:
    """The fewest 1-tokens that show the supply ``piles`` of the board (territories, and each power's supply in a
    convoy zone: exchanged freely) with at most ``fives`` 5-tokens, and ``waiting`` points in Reinforcements
    Zones (1-tokens, never exchanged there)."""
    piles = list(piles)
    wanted = sum(n // 5 for n in piles)
    return waiting + sum(n % 5 for n in piles) + 5 * max(0, wanted - fives)


def _tokens(pack: AxisAlliesPack, ident: str) -> int:
    return next(t for t in pack.tokens if t.id == ident).pieces.get("all", 0)


def check_components(state: AxisState, placed: UnitType | None) -> Verdict:
    """p.9, p.18: whether everything in play in ``state`` can still be shown with the box's pieces and chips
    (``placed``, the unit just requisitioned or deployed, is a combat land unit that chips may show) or supply
    tokens (``placed`` is None: a supply point); another unit is held to its own pieces (p.9, :mod:`.economy`)."""
    pack = state.pack
    if placed is not None:
        if f"{placed.power}:{placed.type}" not in _chipped(pack):
            return ALLOW
        scenario = pack.scenario(state.scenario)
        stacks = chip_stacks(state)
        pieces = {kind: pieces_available(pack, scenario, state.round, pack.unit(*kind)) for kind in stacks}
        grays = gray_chips_needed(stacks, pieces, pack.limit("green_chips"))
        if grays is None:
            return deny("9", "no-piece-for-stack", "every stack of units needs a piece of its type on top")
        if grays > pack.limit("gray_chips"):
            return deny("9", "no-chips-left", "the chips cannot show that many combat land units")
        return ALLOW
    piles = [*state.supply.values(), *(n for zone in state.convoy_supply.values() for n in zone.values())]
    waiting = sum(r.get(SUPPLY, 0) for r in state.reserve.values())
    if ones_needed(piles, _tokens(pack, "supply_5"), waiting) > _tokens(pack, "supply_1"):
        return deny("9", "no-supply-tokens-left", "the supply tokens cannot show that much supply")
    return ALLOW
