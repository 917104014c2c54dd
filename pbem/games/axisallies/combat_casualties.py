"""Casualties chosen by their owner (pp.21-22, p.26-27, p.31): which choices are legal, and the choices left.

The owner of the pieces hit picks the casualties, but must assign as many hits as possible (p.21, p.22): a hit
that only some pieces can take (a submarine's cannot fall on air units, p.34) must not be wasted by spending a
hit that could go anywhere on those pieces. An aimed hit (anti-tank guns at tanks, scout cars at air units,
bombers at a named type) must fall on its target if possible (pp.30-33), and hits reach the defender's
transports only once no escort they could hit is left (p.21; notes §10.12: the escorts a submarine cannot hit
do not shield the transports from it).

A choice is a count of **hit points** per piece: one per piece destroyed, and for a battleship (two hits to
destroy, p.33) each hit it takes (see :func:`apply_hits`). Legality is a small assignment problem of hits to
pieces solved exactly: the owner's choice must reach, in this order of priority, the most hits assigned, then
the most aimed hits on target, then the most escort hits before transports. :func:`check_casualties` judges a
whole choice; :func:`casualty_options` offers, piece by piece, what can still be picked (for prompts).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.games.axisallies.combat_types import TRANSPORT, Hit, Piece, Units, total
from pbem.rules.contract import ALLOW, Verdict, deny

__all__ = [
    "Score",
    "apply_hits",
    "best",
    "casualty_options",
    "check_casualties",
    "hits_assignable",
    "pool_of",
]

# Lexicographic weights of the assignment: forced pieces >> hits assigned >> aimed hits on target >> escorts.
_ESCORT = 1
_AIMED = 1_000
_ASSIGNED = 1_000_000
_FORCED = 1_000_000_000


@dataclass(frozen=True)
class Score:
    """The best assignment of some hits to some pieces.

    Attributes:
        forced: how many of the required pieces it could include.
        assigned: hits assigned.
        aimed: aimed hits on their target.
        escorts: ``escorts_first`` hits on escorts rather than transports.
    """

    forced: int
    assigned: int
    aimed: int
    escorts: int


class _Flow:
    """A min-cost flow on a few nodes (successive shortest paths, Bellman-Ford): the exact assignment."""

    def __init__(self, size: int) -> None:
        self.head: list[list[int]] = [[] for _ in range(size)]
        self.to: list[int] = []
        self.cap: list[int] = []
        self.cost: list[int] = []

    def edge(self, a: int, b: int, cap: int, cost: int) -> int:
        self.head[a].append(len(self.to))
        self.to += [b]
        self.cap += [cap]
        self.cost += [cost]
        self.head[b].append(len(self.to))
        self.to += [a]
        self.cap += [0]
        self.cost += [-cost]
        return len(self.to) - 2

    def run(self, s: int, t: int) -> None:
        """Augment along cheapest paths while they lower the cost (costs are convex in the flow)."""
        n = len(self.head)
        while True:
            dist: list[int | None] = [None] * n
            via = [-1] * n
            dist[s] = 0
            for _ in range(n):
                changed = False
                for a in range(n):
                    da = dist[a]
                    if da is None:
                        continue
                    for e in self.head[a]:
                        b = self.to[e]
                        db = dist[b]
                        if self.cap[e] > 0 and (db is None or da + self.cost[e] < db):
                            dist[b] = da + self.cost[e]
                            via[b] = e
                            changed = True
                if not changed:
                    break
            end = dist[t]
            if end is None or end >= 0:
                return
            push = None
            b = t
            while b != s:
                e = via[b]
                push = self.cap[e] if push is None else min(push, self.cap[e])
                b = self.to[e ^ 1]
            assert push is not None
            b = t
            while b != s:
                e = via[b]
                self.cap[e] -= push
                self.cap[e ^ 1] += push
                b = self.to[e ^ 1]


def best(hits: Sequence[Hit], pool: Units, forced: Units | None = None) -> Score:
    """The best assignment of ``hits`` to the hit points of ``pool`` that includes as much of ``forced`` as
    it can (see the module docstring for the order of priority)."""
    forced = forced or {}
    kinds = sorted(k for k, n in pool.items() if n > 0)
    hit_list = [h for h in hits if h.count > 0]
    s, t = 0, 1
    flow = _Flow(2 + len(hit_list) + len(kinds))
    hit_edges: list[tuple[int, int]] = []
    for i, h in enumerate(hit_list):
        flow.edge(s, 2 + i, h.count, 0)
        for j, k in enumerate(kinds):
            if k in h.allowed:
                cost = -(_AIMED if k in h.preferred else 0) - (_ESCORT if h.escorts_first and k != TRANSPORT else 0)
                hit_edges.append((i, flow.edge(2 + i, 2 + len(hit_list) + j, h.count, cost)))
    forced_edges = []
    for j, k in enumerate(kinds):
        node = 2 + len(hit_list) + j
        must = min(forced.get(k, 0), pool[k])
        if must:
            forced_edges.append(flow.edge(node, t, must, -(_FORCED + _ASSIGNED)))
        if pool[k] - must:
            flow.edge(node, t, pool[k] - must, -_ASSIGNED)
    flow.run(s, t)

    def used(e: int) -> int:
        return flow.cap[e ^ 1]

    assigned = sum(used(e) for _, e in hit_edges)
    aimed = escorts = 0
    for i, e in hit_edges:
        k = kinds[_piece_of(flow, e, len(hit_list))]
        h = hit_list[i]
        aimed += used(e) if k in h.preferred else 0
        escorts += used(e) if h.escorts_first and k != TRANSPORT else 0
    return Score(sum(used(e) for e in forced_edges), assigned, aimed, escorts)


def _piece_of(flow: _Flow, edge: int, hit_count: int) -> int:
    return flow.to[edge] - 2 - hit_count


def hits_assignable(hits: Sequence[Hit], pool: Units) -> int:
    """How many of ``hits`` the owner of ``pool`` must take (p.21: as many as possible)."""
    return best(hits, pool).assigned


def check_casualties(hits: Sequence[Hit], pool: Units, chosen: Units, *, rule: str) -> Verdict:
    """Whether ``chosen`` (piece -> hit points taken) is a legal answer to ``hits`` on ``pool``.

    Args:
        hits: the hits scored, with what each may fall on.
        pool: the hit points the owner has in the combat (see :func:`.combat_land.casualty_pool`).
        chosen: the owner's choice.
        rule: the page of the step (p.21 attacking fire, p.22 defending fire, p.31 air defense, ...).

    Returns:
        ALLOW, or a refusal citing ``rule`` (or the page of the aimed hit or transports).
    """
    for piece, n in sorted(chosen.items()):
        if n < 0 or n > pool.get(piece, 0):
            return deny(rule, "casualty-not-present", f"{piece[0]} {piece[1]}: {n} chosen, {pool.get(piece, 0)} there")
    goal = best(hits, pool)
    mine = best(hits, pool, chosen)
    taken = total(chosen)
    if taken > goal.assigned:
        return deny(rule, "too-many-casualties", f"{goal.assigned} hits are assigned, {taken} casualties chosen")
    if mine.forced < taken:
        return deny(rule, "casualty-cannot-be-hit", f"the hits scored cannot take these {taken} casualties")
    if taken < goal.assigned:
        return deny(rule, "too-few-casualties", f"{goal.assigned} hits must be assigned, {taken} chosen")
    if mine.aimed < goal.aimed:
        rule_of_aim = min((h.aim_rule for h in hits if h.preferred), default="30")
        return deny(rule_of_aim, "aimed-hit-ignored", "an aimed hit must fall on its target where possible")
    if mine.escorts < goal.escorts:
        return deny("21", "transports-before-escorts", "transports are hit only once no escort is left")
    return ALLOW


def casualty_options(hits: Sequence[Hit], pool: Units, chosen: Units) -> tuple[Piece, ...]:
    """The pieces that may be picked next after ``chosen`` such that a legal choice can still be completed;
    empty once ``chosen`` is complete (or cannot be)."""
    goal = best(hits, pool)
    if total(chosen) >= goal.assigned:
        return ()
    found = []
    for piece in sorted(k for k, n in pool.items() if n > chosen.get(k, 0)):
        more = {**chosen, piece: chosen.get(piece, 0) + 1}
        mine = best(hits, pool, more)
        if mine.forced == total(more) and (mine.assigned, mine.aimed, mine.escorts) == (
            goal.assigned,
            goal.aimed,
            goal.escorts,
        ):
            found.append(piece)
    return tuple(found)


def apply_hits(units: Units, damaged: Units, taken: Units, two_hit: frozenset[Piece]) -> tuple[Units, Units]:
    """The pieces and damaged battleships left after ``taken`` hit points (p.33).

    RULING: hits on battleships damage the undamaged ones first and sink damaged ones after; the owner's choice
    is only how many hits its battleships take. The text lets the owner "choose 1 combat unit ... for each hit"
    (p.21), and "If an undamaged battleship is hit once ... turn it on its side to mark its damaged status"
    (p.33); a damaged battleship fires as an undamaged one and can be repaired (p.13), so damaging a fresh one
    rather than sinking a damaged one keeps the same hits to absorb with one more battleship firing: the other
    choice is never better, and is not offered.

    Returns:
        (the pieces left, the two-hit pieces left that are damaged).
    """
    left = dict(units)
    hurt = dict(damaged)
    for piece, n in taken.items():
        if n <= 0:
            continue
        if piece not in two_hit:
            left[piece] = left.get(piece, 0) - n
            continue
        fresh = left.get(piece, 0) - hurt.get(piece, 0)
        newly = min(n, fresh)
        sunk = n - newly
        hurt[piece] = hurt.get(piece, 0) + newly - sunk
        left[piece] = left.get(piece, 0) - sunk
    return (
        {k: v for k, v in sorted(left.items()) if v > 0},
        {k: v for k, v in sorted(hurt.items()) if v > 0},
    )


def pool_of(units: Units, damaged: Units, two_hit: frozenset[Piece]) -> dict[Piece, int]:
    """Hit points per piece: one each, two for an undamaged two-hit piece (p.33)."""
    return {k: n * 2 - damaged.get(k, 0) if k in two_hit else n for k, n in sorted(units.items()) if n > 0}
