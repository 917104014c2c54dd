"""Re-create sample_games/axis-allies: Rommel's Last Push played to its end by scripted players, by packets.

    PBEM_GAMES=pbem.games.axisallies.ruleset:RULESET python sample_games/make_axisallies.py   (the script sets it)

(``make sample`` runs it.) Arguments ``2`` or ``4`` re-make only that game; ``-v`` says on stderr where each seat
is as it plays. Both games take about four minutes on a shared machine and print the packets and round trips of
each round.

* ``rommels-last-push-2p/``: two players (Axis: Germany and Italy; Allies: the UK and the US), every round to the
  end of the scenario or an instant victory.
* ``rommels-last-push-4p/``: four players, one power each, every round to the end or an instant victory.

Each seat keeps its own copy of the log and the seats exchange only armoured packets (``packets/``), as email bodies
carry them (:func:`pbem.client.scripted.play_by_packets`). Axis & Allies is not in the ``pbem.games`` entry point
yet, so the script loads it through ``PBEM_GAMES``; ``make demo`` does the same to verify the games and write their
reports.

The players are simple but sensible and only ever pick among the legal actions (:class:`SensiblePlayer`), so the
script keeps working while the rules grow (the samples are re-made by this script, never by hand): they pay
Malta's upkeep, buy supply while their side holds little of it and then the most combat value per RP, attack only
where the attack they can commit is at least :data:`GOOD_ODDS` times the defence, pay every attack's supply, fight
on while they outweigh the enemy, take their cheapest pieces as casualties first, move towards the nearest enemy
territory within the stacking limits and deploy at the front (at sea, by convoy, from an off-map staging area).
The keys are TEST KEYS derived from public seeds (keys/README.md): never use them for a real game. The clock
and the join nonces are fixed, so the script writes the same bytes every time.
"""

from __future__ import annotations

import os
import sys
from collections import deque
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PBEM_GAMES", "pbem.games.axisallies.ruleset:RULESET")

from pbem.client.scripted import ScriptedGame, play_by_packets
from pbem.games.axisallies.combat_land import retreat_room
from pbem.games.axisallies.data import UnitType
from pbem.games.axisallies.position import controller, graph_of
from pbem.games.axisallies.state import AxisState, split
from pbem.rules import registry
from pbem.rules.contract import Action, Ruleset
from sample_games._scripted import play_and_report

HERE = Path(__file__).parent / "axis-allies"
SCENARIO = "rommels_last_push"
GOOD_ODDS = 1.25
"""Attack (and fight on) only when the attackers' summed attack values are at least this many times the
defenders' summed defence values (each value is a d10 hit number, so the sums compare expected hits)."""
NOTES = {
    "axis": "Panzerarmee Afrika rolls east.",
    "allies": "The Eighth Army holds at El Alamein.",
    "germany": "Panzerarmee Afrika rolls east.",
    "united_kingdom": "The Eighth Army holds at El Alamein.",
    "italy": "Avanti, Savoia!",
    "united_states": "Torch is coming.",
}
SUPPLY_RESERVE = 15
"""Buy supply tokens while the side holds fewer supply points than this (p.18: each attack and defence pays)."""
UNREACHABLE = 99
"""The distance of a space from which no land path leads to the enemy (an off-map staging territory)."""
VERBOSE = "-v" in sys.argv
"""``-v``: say on stderr where each seat is as it plays (round, power, phase)."""
NAMES = {
    "axis": "Erwin",
    "allies": "Bernard",
    "germany": "Erwin",
    "united_kingdom": "Bernard",
    "italy": "Ettore",
    "united_states": "George",
}


def side_of(state: AxisState, space: str, unit_key: str) -> str:
    """The side a piece serves: its power's, or for French pieces their allegiance there (p.29)."""
    power, _ = split(unit_key)
    side = state.pack.power(power).side
    return side if side is not None else state.french.get(space, "axis")


def row_of(state: AxisState, unit: str) -> UnitType | None:
    """The chart row of an action's piece: ``"power:type"``, or a type of the power whose turn it is."""
    power, type_ = split(unit) if ":" in unit else (state.power, unit)
    try:
        return state.pack.unit(power, type_)
    except KeyError:  # a token or a cargo record, not a piece
        return None


def my_side(state: AxisState, seat: str) -> str:
    power = next(p for p, s in state.seats.items() if s == seat)
    return state.pack.power(power).side or "axis"


def strength(state: AxisState, space: str, side: str, *, attack: bool) -> int:
    """The summed attack (or defence) values of ``side``'s pieces in ``space``."""
    total = 0
    for unit_key, count in state.pieces.get(space, {}).items():
        if side_of(state, space, unit_key) != side:
            continue
        row = state.pack.unit(*split(unit_key))
        total += count * ((row.attack if attack else row.defense) or 0)
    return total


def enemy_held(state: AxisState, side: str) -> set[str]:
    """Territories with enemy pieces or under enemy control."""
    held = {t for t, power in state.control.items() if state.pack.power(power).side not in (side, None)}
    for space, counts in state.pieces.items():
        if any(side_of(state, space, k) != side and n for k, n in counts.items()):
            held.add(space)
    return held


def stockpile(state: AxisState) -> int:
    """The supply points on the territories the side of the power whose turn it is controls, and in its
    Reinforcements Zone."""
    position = state.position()
    side = state.pack.power(state.power).side
    held = sum(
        points
        for space, points in state.supply.items()
        if (owner := controller(state.pack, position, space)) is not None and state.pack.power(owner).side == side
    )
    return held + state.reserve.get(state.power, {}).get("supply", 0)


def distances(state: AxisState, side: str) -> dict[str, int]:
    """Land steps from each territory to the nearest enemy-held territory (breadth first over the land map)."""
    pack = state.pack
    land = {row.id for row in pack.territories if not row.impassable}
    goals = enemy_held(state, side) & land
    found = dict.fromkeys(goals, 0)
    queue = deque(sorted(goals))
    graph = graph_of(pack)
    while queue:
        here = queue.popleft()
        for there in graph.neighbours(here):
            if there in land and there not in found:
                found[there] = found[here] + 1
                queue.append(there)
    return found


class SensiblePlayer:
    """Chooses among the legal actions by the rules of thumb of the module docstring; never an illegal action."""

    def __init__(self) -> None:
        self._seen: tuple[int, str, str] = (0, "", "")

    def choose(self, state: AxisState, seat: str, legal: Sequence[Action], ruleset: Ruleset[Any]) -> Action:
        if VERBOSE and (state.round, state.power, state.phase) != self._seen:
            self._seen = (state.round, state.power, state.phase)
            print(f"    {seat}: round {state.round}, {state.power}, {state.phase}", file=sys.stderr)
        if len(legal) == 1:
            return legal[0]
        by: dict[str, list[Action]] = {}
        for action in legal:
            by.setdefault(str(action["action"]), []).append(action)
        side = my_side(state, seat)
        for name, pick in (
            ("pay_upkeep", lambda acts: acts[0]),  # p.13: Malta's token buys its RP
            ("requisition", lambda acts: self._buy(state, acts)),
            ("casualty", lambda acts: self._cheapest(state, acts)),
            ("mine_loss", lambda acts: self._cheapest(state, acts)),
            ("destroy", lambda acts: self._cheapest(state, acts)),
            ("lose_cargo", lambda acts: acts[0]),
            ("order", lambda acts: self._order(state, acts)),
            ("press", lambda acts: self._press(state, by)),
            ("pay", lambda acts: acts[0]),  # p.18: every attack gets its supply
            ("press_pay", lambda acts: acts[0]),
            ("commit", lambda acts: self._commit(state, side, acts)),
            ("move_in", lambda acts: acts[0]),
            ("deploy", lambda acts: self._front(state, side, self._roomy(state, side, acts), "to")),
            ("reinforce", lambda acts: acts[0]),
            ("place", lambda acts: acts[0]),
            ("move", lambda acts: self._advance(state, side, acts)),
            ("move_excess", lambda acts: self._front(state, side, self._roomy(state, side, acts), "to")),
            ("retreat", lambda acts: self._front(state, side, acts, "to", away=True)),
        ):
            if name in by:
                chosen = pick(by[name])
                if chosen is not None:
                    return chosen
        if "done" in by:
            return by["done"][0]
        return legal[0]

    def _buy(self, state: AxisState, acts: list[Action]) -> Action | None:
        """Supply tokens first (no attack without them, p.18), then the most attack plus defence per RP."""
        supply = [a for a in acts if a["unit"] == "supply"]
        if supply and stockpile(state) < SUPPLY_RESERVE:
            return supply[0]
        acts = [a for a in acts if a["unit"] != "supply"] or acts

        def value(act: Action) -> tuple[float, str]:
            row = row_of(state, str(act["unit"]))
            if row is None:
                return (0.0, str(act["unit"]))
            return (((row.attack or 0) + (row.defense or 0)) / max(row.cost or 1, 1), str(act["unit"]))

        return max(acts, key=value)

    def _cheapest(self, state: AxisState, acts: list[Action]) -> Action:
        """p.21: the owner takes the pieces that cost least first."""

        def cost(act: Action) -> tuple[int, int, str]:
            unit = str(act["unit"])
            row = row_of(state, unit)
            if row is None:
                return (0, 0, unit)
            return (row.cost or 0, (row.attack or 0) + (row.defense or 0), unit)

        return min(acts, key=cost)

    def _odds(self, state: AxisState, side: str, target: str, extra: int = 0) -> float:
        committed = sum(
            _value(state, {k if ":" in k else f"{group.power}:{k}": n for k, n in group.units.items()}, attack=True)
            for group in state.attacks
            if group.target == target
        )
        enemy = "allies" if side == "axis" else "axis"
        defence = strength(state, target, enemy, attack=False)
        return (committed + extra) / max(defence, 1)

    def _commit(self, state: AxisState, side: str, acts: list[Action]) -> Action | None:
        """Commit every piece that can reach a target the whole force available outweighs :data:`GOOD_ODDS` times."""
        available: dict[str, int] = {}
        for act in acts:
            row = row_of(state, str(act["unit"]))
            attack = row.attack or 0 if row is not None else 0
            available[str(act["target"])] = available.get(str(act["target"]), 0) + attack
        good = [a for a in acts if self._odds(state, side, str(a["target"]), available[str(a["target"])]) >= GOOD_ODDS]
        if not good:
            return None
        return max(good, key=lambda a: (self._odds(state, side, str(a["target"])), str(a["target"]), str(a["unit"])))

    def _order(self, state: AxisState, acts: list[Action]) -> Action:
        """p.20: the defender fights unless the attack outweighs it twice :data:`GOOD_ODDS` times and it may
        retreat."""
        fight = [a for a in acts if a["fight"]]
        retreat = [a for a in acts if not a["fight"]]
        if not fight or (retreat and battle_odds(state) >= 2 * GOOD_ODDS):
            return retreat[0]
        return fight[0]

    def _press(self, state: AxisState, by: dict[str, list[Action]]) -> Action:
        """p.22: press on while the attackers still outweigh the defenders; else cease."""
        if "cease" not in by or battle_odds(state) >= 1:
            return by["press"][0]
        return by["cease"][0]

    def _advance(self, state: AxisState, side: str, acts: list[Action]) -> Action | None:
        """A piece one step nearer the nearest enemy territory (land pieces only; the rest stay)."""
        far = distances(state, side)
        nearer = [
            a
            for a in acts
            if a["to"] in far and a["origin"] in far and far[str(a["to"])] < far[str(a["origin"])]
            and far[str(a["to"])] > 0
        ]  # fmt: skip
        nearer = [a for a in nearer if self._room(state, side, str(a["to"]), str(a["unit"]))]
        if not nearer:
            return None
        return min(nearer, key=lambda a: (far[str(a["to"])], str(a["origin"]), str(a["unit"]), str(a["to"])))

    def _room(self, state: AxisState, side: str, space: str, unit: str) -> bool:
        """p.10: whether ``space`` takes one more piece of ``side`` within its stacking limit (sea zones and
        pieces that do not count, such as trucks, always fit)."""
        row = row_of(state, unit)
        if row is None or row.category == "sea" or not row.combat or space not in self._land(state):
            return True
        return retreat_room(state.pack, state.position(), space, side) > 0

    def _roomy(self, state: AxisState, side: str, acts: list[Action]) -> list[Action]:
        """The actions that keep within the stacking limits, or all of them if none does."""
        fits = [a for a in acts if self._room(state, side, str(a["to"]), str(a.get("unit", "")))]
        return fits or acts

    @staticmethod
    def _land(state: AxisState) -> frozenset[str]:
        return frozenset(row.id for row in state.pack.territories)

    def _front(self, state: AxisState, side: str, acts: list[Action], field: str, *, away: bool = False) -> Action:
        """The space nearest the enemy (or, with ``away``, the farthest from it); a sea zone counts one step more
        than its nearest coast, so reinforcements sail (p.27: cargo deployed at sea lands from its convoy)."""
        far = distances(state, side)
        graph = graph_of(state.pack)
        sign = -1 if away else 1

        def steps(space: str) -> int:
            if space in far:
                return far[space]
            coasts = [far[n] for n in graph.neighbours(space) if n in far]
            return 1 + min(coasts) if coasts else UNREACHABLE

        return min(acts, key=lambda a: (sign * steps(str(a[field])), str(a[field]), str(a.get("unit"))))


def _value(state: AxisState, counts: dict[str, int], *, attack: bool) -> int:
    total = 0
    for unit_key, count in counts.items():
        try:
            row = state.pack.unit(*split(unit_key))
        except KeyError:  # not a piece (a cargo record)
            continue
        total += count * ((row.attack if attack else row.defense) or 0)
    return total


def battle_odds(state: AxisState) -> float:
    """The combat under way: the attackers' summed attack values over the defenders' summed defence values."""
    battle = state.battle
    if battle is None:
        return 1.0
    attack = sum(_value(state, counts, attack=True) for counts in battle.land.values())
    attack += _value(state, battle.air, attack=True) + _value(state, battle.ships, attack=True)
    return attack / max(_value(state, battle.defenders, attack=False), 1)


def play(ruleset: Ruleset[Any], players: int) -> ScriptedGame:
    scenario = f"{SCENARIO}-{players}p"
    spec = next(s for s in ruleset.scenarios if s.id == scenario)
    seats = [s.id for s in spec.seats]
    return play_by_packets(
        ruleset, scenario, {seat: SensiblePlayer() for seat in seats}, HERE / f"rommels-last-push-{players}p",
        title=f"Axis & Allies: North Africa, Rommel's Last Push, {players} players: sample game by packets (test keys)",
        names={s: NAMES.get(s, s) for s in seats}, notes={s: NOTES.get(s, "") for s in seats},
    )  # fmt: skip


def main() -> None:
    ruleset = registry.get("axis-allies")
    for players in [int(a) for a in sys.argv[1:] if a.isdigit()] or [2, 4]:
        play_and_report(partial(play, ruleset, players))


if __name__ == "__main__":
    main()
