"""Derived facts about a position (7.2-7.5, 9.2, 14.2, 16): who is where, control, supply, movement costs.

A :class:`Situation` is a read-only view of one state; build a new one after every change.
"""

from __future__ import annotations

from functools import cached_property

from pbem.games.battleaxe.board import ALLIED, AXIS, Board, Side, enemy, supplied
from pbem.games.battleaxe.state import BattleaxeState

__all__ = ["Situation"]

ALL_MF = -1


class Situation:
    def __init__(self, board: Board, state: BattleaxeState, *, after: Situation | None = None):
        """The facts of ``state``; ``after``: the previous situation, whose unit placement is reused when the
        state kept the same (immutable) ``units`` mapping, as most steps do."""
        self.board = board
        self.state = state
        self._supply: dict[Side, frozenset[str]] = {}
        self._retreats: dict[tuple[Side, str], tuple[str, ...]] = {}
        if after is not None and "where" in after.__dict__:
            where = self._moved_from(after)
            if where is not None:
                self.__dict__["where"] = where

    def _moved_from(self, after: Situation) -> dict[str, dict[Side, tuple[str, ...]]] | None:
        """:attr:`where`, from ``after``'s: the same mapping if no unit moved, else only the locations that
        units left or entered rebuilt (in the state's unit order, as a full rebuild would); None if the
        units themselves differ."""
        old, new = after.state.units, self.state.units
        if old is new:
            return after.where
        changed = [u for u, p in new.items() if old.get(u) is not p]
        if len(old) != len(new) or any(u not in old for u in changed):  # other units: not the same game
            return None
        where = dict(after.where)
        board = self.board
        rebuilt: dict[str, set[str]] = {}
        for unit in changed:
            for loc in (old[unit].location, new[unit].location):
                if loc is not None and loc not in rebuilt:
                    rebuilt[loc] = {*where[loc][ALLIED], *where[loc][AXIS]}
        for unit in changed:
            if (left := old[unit].location) is not None:
                rebuilt[left].discard(unit)
            if (entered := new[unit].location) is not None:
                rebuilt[entered].add(unit)
        for loc, units in rebuilt.items():
            ordered = sorted(units, key=board.unit_order.__getitem__)  # the state's (the pack's) unit order
            where[loc] = {side: tuple(u for u in ordered if board.side_of(u) == side) for side in (ALLIED, AXIS)}
        return where

    @cached_property
    def where(self) -> dict[str, dict[Side, tuple[str, ...]]]:
        found: dict[str, dict[Side, list[str]]] = {loc: {ALLIED: [], AXIS: []} for loc in self.board.locations}
        for unit, piece in self.state.units.items():
            if piece.location is not None:
                found[piece.location][self.board.side_of(unit)].append(unit)
        return {loc: {side: tuple(units) for side, units in sides.items()} for loc, sides in found.items()}

    def units_of(self, side: Side, location: str) -> tuple[str, ...]:
        return self.where[location][side]

    def contested(self, location: str) -> bool:
        """7.3: units of both sides."""
        return bool(self.where[location][ALLIED] and self.where[location][AXIS])

    def vacant_for(self, side: Side, location: str) -> bool:
        """7.4: no enemy units, whoever controls it."""
        return not self.where[location][enemy(side)]

    def free_for(self, side: Side, location: str) -> bool:
        """7.5: vacant and friendly-controlled."""
        return self.vacant_for(side, location) and self.state.control[location] == side

    def full_for(self, side: Side, location: str) -> bool:
        """7.1: four friendly units (Zones never fill, 15.2)."""
        return self.board.full_for(location, len(self.where[location][side]))

    def restricted(self, unit: str) -> bool:
        """16.1, 16.2: a unit of an unreleased division may not move or attack."""
        return self.board.restriction(unit, self.state.released) is not None

    def out_of_supply(self, unit: str) -> bool:
        """14.2: as marked at the end of the last Maneuvers Phase, or, under option supply=continuous
        (notes A52), traced now."""
        piece = self.state.units[unit]
        if self.state.options["supply"] == "continuous" and piece.location is not None:
            return not self.in_supply(self.board.side_of(unit), piece.location)
        return piece.oos

    def mf(self, unit: str) -> int:
        """The unit's Movement Factor, less 1 while Out of Supply (14.2.2)."""
        penalty = self.board.limits["oos_mf_penalty"] if self.out_of_supply(unit) else 0
        return self.board.mf(unit, self.state.units[unit].full) - penalty

    def cv(self, unit: str) -> int:
        """The unit's Combat Value, less 1 while Out of Supply (14.2.2)."""
        penalty = self.board.limits["oos_cv_penalty"] if self.out_of_supply(unit) else 0
        return self.board.cv(unit, self.state.units[unit].full) - penalty

    def neighbours(self, location: str) -> tuple[str, ...]:
        """Locations adjacent to ``location`` for the 9.2 cost, the 11.6.2 priorities and the 16.1 release.

        RULING (notes A4, option adjacency): 3.1's adjacency ("units could move directly") by default; with
        ``boundary`` the Glossary's ("share a common boundary"), which adds escarpment neighbours.
        """
        if self.state.options["adjacency"] == "boundary":
            return (*self.board.adjacent[location], *sorted(self.board.escarpment[location]))
        return self.board.adjacent[location]

    def move_cost(self, side: Side, location: str) -> int:
        """9.2: the MF to enter ``location`` now (``ALL_MF`` for a Zone)."""
        costs = self.board.costs
        if self.board.is_zone(location):
            return ALL_MF
        enemies = self.where[location][enemy(side)]
        if enemies:
            if any(self.state.units[u].full for u in enemies):
                return costs["enter_full_strength_enemy"].mf or 0
            return costs["enter_reduced_enemy_only"].mf or 0
        # RULING (notes A9): enemy units in adjacent Zones are ignored when entering an Area (15.1)
        near = any(self.where[n][enemy(side)] for n in self.neighbours(location) if not self.board.is_zone(n))
        return (costs["enter_vacant_adjacent_enemy"] if near else costs["enter_vacant"]).mf or 0

    def in_supply(self, side: Side, location: str) -> bool:
        """14.2.1: a supply line to a friendly-controlled source of the side's colour."""
        if side == ALLIED and location in self.board.roles["tobruk_supplied"]:
            return self.state.control[location] == ALLIED
        lines = self._supply.get(side)
        if lines is None:  # one search per side and position
            lines = supplied(self.board, self.state.control, side, self.board.sources[side])
            self._supply[side] = lines
        return location in lines

    def enemy_controlled_neighbours(self, side: Side, location: str) -> int:
        return sum(1 for n in self.neighbours(location) if self.state.control[n] == enemy(side))

    def retreat_options(self, side: Side, origin: str) -> tuple[str, ...]:
        """11.6.2: where a unit of ``side`` may retreat from ``origin``, best priority class only (asked several
        times per decision, so kept with this position).

        Units retreat one at a time (11.6.1): each retreat is a new position, whose options count it.
        RULING (notes A33, option retreat): a retreat is one step and a fully stacked destination is elimination
        (11.6.4); with ``continue_through_full`` a unit may go on through fully stacked friendly Free Areas.
        """
        found = self._retreats.get((side, origin))
        if found is None:
            found = self._retreats[side, origin] = self._retreat_options(side, origin)
        return found

    def _retreat_options(self, side: Side, origin: str) -> tuple[str, ...]:
        classes: list[list[str]] = [[], [], []]
        for there in self._retreat_reach(side, origin):
            if self.full_for(side, there):
                continue
            if self.free_for(side, there):
                classes[0].append(there)
            elif self.contested(there) and self.state.control[there] == side:
                classes[1].append(there)
            elif self.contested(there):
                classes[2].append(there)
        if classes[0]:
            fewest = min(self.enemy_controlled_neighbours(side, loc) for loc in classes[0])
            return tuple(loc for loc in classes[0] if self.enemy_controlled_neighbours(side, loc) == fewest)
        return tuple(classes[1] or classes[2])

    def _retreat_reach(self, side: Side, origin: str) -> list[str]:
        """The locations a retreat may end in: the neighbours, or beyond full friendly Free Areas (A33)."""
        reach = list(self.board.adjacent[origin])
        if self.state.options["retreat"] != "continue_through_full":
            return reach
        seen = {origin, *reach}
        todo = [n for n in reach if self.free_for(side, n) and self.full_for(side, n)]
        while todo:
            here = todo.pop()
            for there in self.board.adjacent[here]:
                if there not in seen:
                    seen.add(there)
                    reach.append(there)
                    if self.free_for(side, there) and self.board.full_for(there, len(self.where[there][side])):
                        todo.append(there)
        return reach
