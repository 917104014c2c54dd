"""Stacking limits (§5.3.1) and one HQ a hex (§3.3), shared by the pack's setup check and the rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pbem.rules.contract import ALLOW, Verdict, deny

if TYPE_CHECKING:
    from pbem.games.gazala.data import GazalaPack


def stacking(pack: GazalaPack, stack: Sequence[str]) -> Verdict:
    """§5.3.1, §3.3: whether the units and HQs ``stack`` (ids, one side) may end an Action in one hex.

    * at most ``hq_per_hex`` HQs (§3.3);
    * Axis: ``axis_stack_infantry`` infantry units and ``axis_stack_panzer_recce`` Panzer and/or recce units, any
      number of FLAK and engineer units;
    * Commonwealth: ``cw_stack_units`` units of which ``cw_stack_leg_infantry`` of leg infantry type, the HQ free;
      the two Free French half-brigades count as one leg infantry unit;
    * units with the free-stacking symbol (§3.2k) never count.

    Refusals: ``hq-per-hex`` (§3.3), ``mixed-sides``, ``overstacked`` (§5.3.1).
    """
    found = [pack.find_unit(ident) for ident in stack]
    units = [u for u in found if u is not None]
    hqs = [ident for ident, unit in zip(stack, found, strict=True) if unit is None]
    if len(hqs) > pack.number("hq_per_hex"):
        return deny("3.3", "hq-per-hex", "no more than one HQ may be in a hex")
    if len({u.side for u in units} | {pack.side_of(ident) for ident in hqs}) > 1:
        return deny("5.3.1", "mixed-sides", "units of both sides cannot share a hex")
    counted = [u for u in units if not u.free_stacking]
    if units and units[0].side == "axis":
        infantry = sum(1 for u in counted if u.is_infantry and u.type != "engineer")
        armour = sum(1 for u in counted if u.is_tank or u.is_recce)
        if infantry > pack.number("axis_stack_infantry") or armour > pack.number("axis_stack_panzer_recce"):
            return deny("5.3.1", "overstacked", "over the Axis stacking limit")
    elif units:
        halves = [u for u in counted if u.half_brigade]
        legs = sum(1 for u in counted if u.movement == "leg" and u.is_infantry and not u.half_brigade)
        legs += 1 if halves else 0
        total = len(counted) - len(halves) + (1 if halves else 0)
        if total > pack.number("cw_stack_units") or legs > pack.number("cw_stack_leg_infantry"):
            return deny("5.3.1", "overstacked", "over the Commonwealth stacking limit")
    return ALLOW
