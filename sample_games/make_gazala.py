"""Re-create sample_games/gazala: the two sample games of Operation Theseus: Gazala 1942, played by scripted players.

    PBEM_GAMES=pbem.games.gazala.ruleset:RULESET python sample_games/make_gazala.py    (the script sets it if unset)

* ``bir-hacheim/``: scenario 10.1, Assault on Bir Hacheim, the solitaire training scenario, played to its end by one
  seat (the Axis) against the static Free French.
* ``opening-phase/``: scenario 10.2, The Opening Phase, Game Turns 1-4 to the victory check, between two scripted
  players who keep their own copies of the log and exchange only armoured packets (``packets/``), as email bodies
  carry them (:func:`pbem.client.scripted.play_by_packets`).

Gazala is not in the ``pbem.games`` entry point yet (its hidden information is not enforced), so the script loads it
through ``PBEM_GAMES``; ``make demo`` does the same to verify the games and write their reports.

The players are simple but sensible, and only ever pick among the legal actions (:class:`SensiblePlayer`): they
attack at good odds (their Combat Strength at least 3:2 the defenders'), breach enemy Minefields in their way,
refit Disrupted units, move each stack once per activation towards its goal (the Axis towards the nearest objective
it does not hold, the HQ following its units so that they stay In Command and in supply; the Commonwealth's mobile
units towards Axis units that come near, its infantry staying in its Boxes and improving their defences), react to
a moving stack only where their adjacent units outweigh it, retreat before combat only when badly outnumbered, and
take their losses where they cost least. The keys are TEST KEYS derived from public seeds (keys/README.md): never use
them for a real game. The clock and the join nonces are fixed, so the script writes the same bytes every time (for
the same rules: the rules' log changes as they grow, so the samples are re-made by this script, never by hand).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PBEM_GAMES", "pbem.games.gazala.ruleset:RULESET")

from pbem.client.scripted import ScriptedGame, play_by_packets
from pbem.games.gazala.board import other
from pbem.games.gazala.state import GazalaState, sit_of
from pbem.kit.hexes import HexId
from pbem.rules import registry
from pbem.rules.contract import Action, Ruleset
from sample_games._scripted import play_and_report

HERE = Path(__file__).parent / "gazala"
NAMES = {"axis": "Erwin", "cw": "Neil"}
NOTES = {"axis": "The Panzerarmee moves tonight.", "cw": "The Gazala line will hold."}
GOOD_ODDS = 1.5
"""Attack when the attackers' Combat Strength is at least this many times the defenders' (§7.5.1: odds columns)."""
OUTNUMBERED = 3
"""Retreat before combat when the attackers' Combat Strength is at least this many times the defenders'."""
HQ_LAG = 2
"""An HQ follows its formation: it moves when more than this many hexes from the unit nearest the formation's goal."""
CW_RANGE = 5
"""A Commonwealth mobile unit moves against an Axis unit at most this many hexes away (else it holds its ground)."""
DISTRIBUTION_ORDER = ("hold", "follow", "retreat", "forced")


class SensiblePlayer:
    """Chooses among the legal actions by a few rules of thumb (module docstring); never an illegal action.

    It remembers which stacks it moved in the current activation (so each moves once) and, for the stack moving now,
    the hex it set out from (so it stops as soon as a step would not bring it nearer its goal).
    """

    def __init__(self) -> None:
        self._moved: set[tuple[Any, ...]] = set()
        self._activation: tuple[Any, ...] = ()

    def choose(self, state: GazalaState, seat: str, legal: Sequence[Action], ruleset: Ruleset[Any]) -> Action:
        if len(legal) == 1:
            return legal[0]
        by: dict[str, list[Action]] = {}
        for action in legal:
            by.setdefault(str(action["action"]), []).append(action)
        kind = state.pending[-1].kind if state.pending else state.phase
        for name, pick in (
            ("keep_roll", lambda acts: acts[0]),  # §5.2: no second-guessing of the opponent's dice
            ("react", lambda acts: self._reaction(state, seat, acts, by)),
            ("stand", lambda acts: self._stand_or_retreat(state, by)),
            ("escalate", lambda acts: self._escalation(acts)),
            ("air", lambda acts: max(acts, key=lambda a: int(a["count"]))),
            ("lead", lambda acts: acts[0]),
            ("armour_unit", lambda acts: self._best_armour(state, acts)),
            ("armour", lambda acts: self._best_armour(state, acts)),
            ("first_loss", lambda acts: max(acts, key=lambda a: (state.units[a["unit"]].cs, a["unit"]))),
            ("distribute", lambda acts: self._distribution(state, acts)),
            ("retreat", lambda acts: self._retreat(state, acts)),
            ("displace", lambda acts: acts[0]),
        ):
            if name in by:
                chosen = pick(by[name])
                if chosen is not None:
                    return chosen
        if kind in ("activation", "reacting", "rbc_moving", "reinforcing"):
            return self._act(state, seat, by, legal)
        if kind == "ops":
            return self._ops(state, seat, by, legal)
        if kind == "admin":
            return self._admin(state, by, legal)
        return legal[0]

    # --- the Ops Phase ---------------------------------------------------------------------------------------------
    def _ops(self, state: GazalaState, seat: str, by: dict[str, list[Action]], legal: Sequence[Action]) -> Action:
        """§6.2: activate a formation (:meth:`_activation_order`); pass only with nothing to do."""
        if "activate" in by:
            return min(by["activate"], key=lambda a: self._activation_order(state, seat, a["formation"]))
        for name in ("activate_unit", "pass"):
            if name in by:
                return by[name][0]
        return legal[0]

    def _activation_order(self, state: GazalaState, seat: str, formation: str) -> tuple[bool, int, int, str]:
        """Mobile formations first (infantry with a leg HQ holds its line), then the nearest the enemy, then the
        highest level."""
        hq = sit_of(state).board.hq_of.get(formation)
        holds = hq is not None and hq.type == "leg"
        return (holds, self._formation_distance(state, seat, formation), -state.formations[formation].level, formation)

    def _formation_distance(self, state: GazalaState, seat: str, formation: str) -> int:
        sit = sit_of(state)
        grid = sit.board.grid
        enemy = list(sit.combat[other(seat)])  # type: ignore[arg-type]
        own = [HexId(c.hex) for u, c in state.units.items() if c.hex is not None and sit.formation(u) == formation]
        if not own or not enemy:
            return 10**6
        return min(grid.distance(a, b) for a in own for b in enemy)

    # --- Actions of an activation ----------------------------------------------------------------------------------
    def _act(self, state: GazalaState, seat: str, by: dict[str, list[Action]], legal: Sequence[Action]) -> Action:
        acting = state.acting
        key = (state.turn, acting.formation, acting.unit, acting.side) if acting is not None else ()
        if key != self._activation:
            self._activation, self._moved = key, set()
        if state.move is not None:
            return self._step(state, seat, by)
        if "attack" in by:
            best = max(by["attack"], key=lambda a: (self._odds(state, a), len(a["units"]), a["target"]))
            if self._odds(state, best) >= GOOD_ODDS:
                return best
        for name in ("breach", "refit"):
            if name in by:
                return by[name][0]
        move = self._move(state, seat, by.get("move", []))
        if move is not None:
            self._moved.add(tuple(move["units"]))
            return move
        if seat == "cw" and "improve" in by:  # §7.7: infantry holding the line digs in
            return by["improve"][0]
        for name in ("end_activation", "decline_bonus", "halt"):
            if name in by:
                return by[name][0]
        return legal[0]

    def _odds(self, state: GazalaState, attack: Action) -> float:
        sit = sit_of(state)
        side = sit.board.side[attack["units"][0]]
        defenders = sit.combat[other(side)].get(HexId(attack["target"]), ())
        defence = sum(state.units[u].cs for u in defenders)
        return sum(state.units[u].cs for u in attack["units"]) / max(defence, 1)

    def _goal(self, state: GazalaState, seat: str, units: Sequence[str]) -> HexId | None:
        """Where a stack heads: for the Axis the nearest objective it does not hold (10.1: Bir Hacheim), for the
        Commonwealth's mobile units the nearest Axis unit within :data:`CW_RANGE`; an HQ, its formation's unit
        nearest that goal."""
        sit = sit_of(state)
        grid = sit.board.grid
        counter = state.units.get(units[0]) or state.hqs[units[0]]
        here = HexId(counter.hex or "")
        hq = next((u for u in units if u in state.hqs), None)
        if hq is not None and all(u in state.hqs for u in units):
            formation = state.pack.hq(hq).formation
            own = [HexId(c.hex) for u, c in state.units.items() if c.hex is not None and sit.formation(u) == formation]
            if not own:
                return None
            lead = min(own, key=lambda h: (grid.distance(h, self._front(state, seat, h) or h), h))
            return lead if grid.distance(here, lead) > HQ_LAG else None
        return self._front(state, seat, here, units)

    def _front(self, state: GazalaState, seat: str, here: HexId, units: Sequence[str] = ()) -> HexId | None:
        sit = sit_of(state)
        grid = sit.board.grid
        if seat == "axis":
            scenario = state.pack.scenario(state.scenario)
            targets = [HexId(o.hex) for o in scenario.objectives if state.victory.last.get(o.id) != "axis"]
            if scenario.automatic_victory_hex is not None:
                targets.append(HexId(scenario.automatic_victory_hex))
            targets = targets or [HexId(h) for h in sit.combat["cw"]]
        else:
            if any(state.pack.unit(u).movement == "leg" for u in units if u in state.units):
                return None  # the infantry holds its Box
            targets = [HexId(h) for h in sit.combat["axis"] if grid.distance(here, HexId(h)) <= CW_RANGE]
        if not targets:
            return None
        return min(targets, key=lambda h: (grid.distance(here, h), h))

    def _move(self, state: GazalaState, seat: str, moves: list[Action]) -> Action | None:
        """The largest stack of one hex not moved yet in this activation whose goal is elsewhere (§7.3.1)."""
        best: dict[str, Action] = {}
        for move in moves:
            units = move["units"]
            first = units[0]
            hex_id = (state.units[first] if first in state.units else state.hqs[first]).hex or ""
            combat = [u for u in units if u in state.units]
            if combat and len(combat) != len(units):
                continue  # HQs move on their own, behind their units
            if tuple(units) in self._moved or self._holds(state, units):
                continue
            if hex_id not in best or len(units) > len(best[hex_id]["units"]):
                best[hex_id] = move
        for hex_id, move in sorted(best.items()):
            goal = self._goal(state, seat, move["units"])
            if goal is not None and goal != hex_id:
                return move
        return None

    def _holds(self, state: GazalaState, units: Sequence[str]) -> bool:
        """Infantry formations with a leg HQ hold their line: such an HQ must stay on or next to a Road or Trail to
        trace supply (§5.7.2), and its units within its Command Range (§5.8)."""
        sit = sit_of(state)
        formation = sit.formation(units[0]) if units[0] in state.units else state.pack.hq(units[0]).formation
        hq = sit.board.hq_of.get(formation) if formation is not None else None
        return hq is not None and hq.type == "leg"

    def _step(self, state: GazalaState, seat: str, by: dict[str, list[Action]]) -> Action:
        """One hex nearer the goal while that is possible, else halt (§7.3)."""
        move = state.move
        assert move is not None
        grid = sit_of(state).board.grid
        here = HexId(move.path[-1])
        goal = self._goal(state, seat, move.units)
        if goal is not None and "step" in by:
            nearer = [a for a in by["step"] if grid.distance(HexId(a["to"]), goal) < grid.distance(here, goal)]
            if nearer:
                return min(nearer, key=lambda a: (grid.distance(HexId(a["to"]), goal), a["to"]))
        elif goal is not None and "leave" in by:
            return by["leave"][0]
        for name in ("halt", "step"):
            if name in by:
                return by[name][0]
        return next(iter(by.values()))[0]

    # --- interrupts ------------------------------------------------------------------------------------------------
    def _reaction(self, state: GazalaState, seat: str, reacts: list[Action], by: dict[str, list[Action]]) -> Action:
        """§6.5: react only where the qualifying units outweigh the moving stack; else decline."""
        move = state.move
        mine = sum(state.units[a["unit"]].cs for a in reacts)
        theirs = sum(state.units[u].cs for u in move.units if u in state.units) if move is not None else 0
        if mine >= theirs and theirs > 0:
            return max(reacts, key=lambda a: (state.units[a["unit"]].cs, a["unit"]))
        return by["decline"][0] if "decline" in by else reacts[0]

    def _stand_or_retreat(self, state: GazalaState, by: dict[str, list[Action]]) -> Action:
        """§7.5.1.1: Retreat before Combat only when the attackers have :data:`OUTNUMBERED` times the strength."""
        battle = state.battle
        if battle is not None and "retreat_before_combat" in by:
            attack = sum(state.units[u].cs for u in battle.attackers)
            defence = sum(state.units[u].cs for u in battle.defenders)
            if attack >= OUTNUMBERED * max(defence, 1):
                return by["retreat_before_combat"][0]
        return by["stand"][0]

    def _escalation(self, escalations: list[Action]) -> Action:
        """§7.5.1: a Regular attack when it is offered (a better chit column for an AP), else the first offered."""
        return next((a for a in escalations if a["to"] == "regular"), escalations[0])

    def _best_armour(self, state: GazalaState, acts: list[Action]) -> Action:
        """§7.5.1.5: the unit with the most Tank (or Anti-Tank) Points."""

        def points(act: Action) -> tuple[int, str]:
            unit = state.pack.unit(act["unit"]) if act["unit"] in state.units else None
            return ((unit.armour_points.front if unit is not None else 0), str(act["unit"]))

        return max(acts, key=points)

    def _distribution(self, state: GazalaState, acts: list[Action]) -> Action:
        """§7.5.2: the fewest step losses, spread over the strongest units; hold before follow, retreat, forced."""

        def cost(act: Action) -> tuple[int, int, int]:
            losses = list(act["losses"])
            weakest = -min((state.units[u].cs - losses.count(u) for u in losses), default=99)
            return (len(losses), weakest, DISTRIBUTION_ORDER.index(str(act["choice"])))

        return min(acts, key=cost)

    def _retreat(self, state: GazalaState, acts: list[Action]) -> Action:
        """§7.5.2.2: the retreat path that ends farthest from the enemy's hex."""
        battle = state.battle
        grid = sit_of(state).board.grid
        if battle is None:
            return acts[0]
        enemy = HexId(battle.source if battle.role == "defender" else battle.target)
        return max(acts, key=lambda a: (grid.distance(HexId(a["path"][-1]), enemy) if a["path"] else 0, a["path"]))

    # --- the Admin Phase -------------------------------------------------------------------------------------------
    def _admin(self, state: GazalaState, by: dict[str, list[Action]], legal: Sequence[Action]) -> Action:
        """§9: the Schwerpunkt on the strongest formation, every replacement and reinforcement taken at once."""
        if "schwerpunkt" in by:
            return max(by["schwerpunkt"], key=lambda a: (self._strength(state, a["formation"]), a["formation"]))
        for name in ("replace", "reinforce", "reinforce_at", "assign", "organised", "forgo", "cannibalise"):
            if name in by:
                return by[name][0]
        return legal[0]

    def _strength(self, state: GazalaState, formation: str) -> int:
        sit = sit_of(state)
        return sum(c.cs for u, c in state.units.items() if c.hex is not None and sit.formation(u) == formation)


def play(ruleset: Ruleset[Any], scenario: str, seats: Sequence[str], title: str) -> ScriptedGame:
    return play_by_packets(
        ruleset, scenario, {seat: SensiblePlayer() for seat in seats}, HERE / scenario, title=title,
        names={s: NAMES[s] for s in seats}, notes={s: NOTES[s] for s in seats},
    )  # fmt: skip


def main() -> None:
    ruleset = registry.get("gazala")
    for scenario, seats, title in (
        ("bir-hacheim", ("axis",), "Gazala 10.1 Assault on Bir Hacheim: solitaire sample game (test keys)"),
        ("opening-phase", ("axis", "cw"), "Gazala 10.2 The Opening Phase: sample game by packets (test keys)"),
    ):
        play_and_report(partial(play, ruleset, scenario, seats, title), periods=False)


if __name__ == "__main__":
    main()
