"""Re-create sample_games/rommel: Crusader (§18.4) between two scripted sensible players exchanging packets.

    PBEM_GAMES=pbem.games.rommel.ruleset:RULESET python sample_games/make_rommel.py    (the script sets it if unset)

Two scripted players keep their own copies of the log and exchange only armoured packets (``packets/``), as email
bodies carry them (:func:`pbem.client.scripted.play_by_packets`), from the secret set-up through the three Months of
the scenario to the end of the game: the blocks revealed for the count, the victory determination (§17) and the
full audit of the public claims (speeds, strengths) the verifier makes of the disclosed game.

Rommel is not in the ``pbem.games`` entry point yet (its rules are not complete), so the script loads it through
``PBEM_GAMES``; ``make demo`` does the same to verify the game and write its reports.

The players are simple but sensible and only ever pick among the legal actions (:class:`SensiblePlayer`), so the
sample follows the rules as they grow (re-make it with this script after a change of the rules, never by hand):

* they set up on the front (the legal hex nearest the enemy, spreading out), keep a hand with enough real cards
  (else redraw it once), rebuild units in their Base and buy cards with spare Buildup Points;
* they pay for the turns they can use, found by playing the turn out before committing: an Offensive Turn (two
  real cards) when two useful Moves can be made (an attack, a retreat, a relief, not only advances), a Basic Turn
  (one) for one useful Move or a battle worth fighting, and otherwise Pass, bluffing with a dummy card when they
  hold one (§3.42, §4);
* they attack at good odds (their CV at least :data:`GOOD_ODDS` times the enemy's as they can estimate it: the CV
  a battle revealed, else the enemy's average), advance towards the enemy only through hexes where they stay
  Supplied, stopping two hexes short and keeping :data:`RESERVE` real cards back, and retreat from a battle where
  the enemy outweighs them :data:`BEATEN` times (§7.2: they disengage towards their Base);
* they keep supply (§12): a stack cut off moves back to where it is Supplied, and an enemy stack near it is
  attacked at even odds to reopen the line;
* in a battle they fire every unit at the arms class holding the most enemy CV and take their losses where they
  eliminate the fewest blocks;
* after a battle they answer every decision the rules offer: Pursuit Fire with every die the pursuers have, its
  hits (and a Rout's Attrition) taken where they eliminate the fewest blocks (§10.5, §11.3), Battle Refused where
  the Attacker outweighs them :data:`BEATEN` times and accepted otherwise (§8.4, §10.2), a Withdrawal ended as
  soon as it saves every unit, each unit stepping nearer its Base (§5.3), Probe Combat provoked only at
  :data:`GOOD_ODDS` (§10.41), and every Minefield the enemy entered revealed (§14.2); in a Pass they take a
  beaten or cut-off stack back with the free Withdrawal Move when, played out in advance, it qualifies (§4.5, §5.3;
  one that cannot end is taken back);
* a Blitz Turn (three real cards, §4.4) when two useful Moves begin with an attack and a real card is left over: the
  attack, its battle, then the second Move as Blitz Movement and Blitz Combat;
* in a Buildup (§16.5) they rebuild units in their Base, send a unit that has lost steps back to Refit when it is
  out of the fighting and a later Buildup can rebuild it, or in the last Buildup when it is down to a third of its CV
  and near the enemy, to count at the end (§16.52, notes §8), build one Minefield in the stack nearest
  the enemy when the BP pay for it (§16.55), Redeploy rear units towards the front (at most
  :data:`REDEPLOY_BP` BP, never within :data:`STANDOFF` hexes of the enemy, §16.51), and buy cards with the rest.

The keys are TEST KEYS derived from public seeds (keys/README.md): never use them for a real game. The clock and
the join nonces are fixed, so the script writes the same bytes every time (for the same rules).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PBEM_GAMES", "pbem.games.rommel.ruleset:RULESET")

from pbem.client.scripted import ScriptedGame, play_by_packets
from pbem.games.rommel.ledger import bp_known
from pbem.games.rommel.moves import known_block
from pbem.games.rommel.options import is_real
from pbem.games.rommel.scenarios import hand, supplied_hexes
from pbem.games.rommel.state import RommelState, Side, cv_slot, other
from pbem.games.rommel.supply import base_hex
from pbem.games.rommel.supplycheck import supplied
from pbem.games.rommel.turns import moves_allowed
from pbem.rules import registry
from pbem.rules.contract import Action, Ruleset
from sample_games._scripted import play_and_report

HERE = Path(__file__).parent / "rommel"
SCENARIO = "crusader"
NAMES = {"axis": "Erwin", "allied": "Alan"}
NOTES = {"axis": "The Afrika Korps stands before Tobruk.", "allied": "Eighth Army will relieve Tobruk."}
GOOD_ODDS = 2
"""Attack (or fight a battle) when the own CV is at least this many times the enemy's estimated CV."""
BEATEN = 2
"""Retreat from a battle where the enemy's estimated CV is at least this many times the own."""
KEEP_RATIO = 2
"""Redraw the initial hand once (§18.0) when fewer than 1 in this many of its cards are real."""
STANDOFF = 2
"""An advance stops this many hexes from the nearest enemy block (the next turn's attack is within reach)."""
REACH = 3
"""Enemy hexes at most this many hexes from a stack are attack targets for it."""
RESERVE = 2
"""Real cards kept back from advances, for the attacks and retreats that supply may call for."""
REDEPLOY_BP = 6
"""The most Buildup Points a Buildup spends on Redeployments (§16.51), the rest going to cards."""
WALK = 64
"""The most steps a Move played out in advance may take (a bound: every block's speed is far below it)."""
STACK = 3
"""Set-up stacks: a hex counts one hex farther from the enemy for each full stack of this many own blocks in it."""


class SensiblePlayer:
    """Chooses among the legal actions by the rules of thumb of the module docstring; never an illegal action.

    It remembers, for the Player-Turn under way, how many real and dummy cards it means to commit and, for the
    Move under way, what the Move is for (an attack on a hex, an advance, a retreat from a battle).
    """

    def __init__(self) -> None:
        self._plan: tuple[int, int, int] | None = None  # (turn, real, dummy)
        self._redeployed: dict[int, int] = {}  # Month -> BP spent on Redeployments in its Buildup
        self._mined: set[int] = set()  # the Months whose Buildup built a Minefield
        self._goal: tuple[str, str] | None = None  # (kind, hex) of the Move under way

    def choose(self, state: RommelState, seat: str, legal: Sequence[Action], ruleset: Ruleset[Any]) -> Action:
        if len(legal) == 1:
            return legal[0]
        side: Side = "axis" if seat == "axis" else "allied"
        by: dict[str, list[Action]] = {}
        for action in legal:
            by.setdefault(str(action["action"]), []).append(action)
        if "identify" in by:
            return by["identify"][0]
        if "deploy" in by:
            return self._deploy(state, side, by["deploy"])
        if "keep" in by:
            cards = hand(state, side)
            real = sum(1 for c in cards if c is not None and is_real(state.pack, c))
            return by["keep"][0] if real * KEEP_RATIO >= len(cards) else by["redraw"][0]
        if state.phase == "buildup":
            return self._buildup(state, side, by)
        if "challenge" in by or "answer" in by:
            return self._initiative(state, side, by)
        if "fire" in by:
            return self._fire(state, side, by["fire"])
        if "losses" in by:
            return min(by["losses"], key=lambda a: self._loss_cost(state, a))
        decided = self._interrupt(state, side, by, ruleset)
        if decided is not None:
            return decided
        if state.phase == "turn":
            return self._turn(state, side, by, legal, ruleset)
        return legal[0]

    # --- Buildup ------------------------------------------------------------------------------------------------
    def _buildup(self, state: RommelState, side: Side, by: dict[str, list[Action]]) -> Action:
        """§16.5, in this order: rebuild units in the Base (§16.54), send worn rear units back to Refit (§16.52),
        build a Minefield where a stack faces the enemy (§16.55), Redeploy units in the rear towards the front
        (§16.51), then buy cards with the BP left (§16.5)."""
        if "replace" in by:
            return by["replace"][0]
        for chosen in (
            self._refit(state, side, by.get("refit", [])),
            self._minefield(state, side, by.get("build_minefield", [])),
            self._redeploy(state, side, by.get("redeploy", [])),
        ):
            if chosen is not None:
                return chosen
        return by["buy"][0] if "buy" in by else by["end_buildup"][0]

    def _front(self, state: RommelState, side: Side, hex_id: str) -> int:
        """Hexes from ``hex_id`` to the nearest enemy block (far away when there is none)."""
        grid = state.pack.map.grid
        return min((grid.distance(hex_id, e) for e in self._enemy_hexes(state, side)), default=WALK)

    def _refit(self, state: RommelState, side: Side, refits: list[Action]) -> Action | None:
        """§16.52: a unit that has lost steps Returns for Refit, out of the Base and of any battle: before the last
        Buildup when it is out of the fighting (no enemy within :data:`STANDOFF` hexes), so that the next Buildup
        rebuilds it; in the last one when it is down to a third of its CV or less and within reach of the enemy, so
        that it counts at the end (notes §8) rather than fall to the next attack."""
        base = base_hex(state.pack, side)
        last = state.month >= state.last_month
        for act in refits:
            token = str(act["token"])
            block = known_block(state, token)
            here = state.tokens[token].hex
            if block is None or here is None or here == base or here in state.battles:
                continue
            cv, most = self._cv(state, token), state.pack.block(block).cv_max
            near = self._front(state, side, here) <= STANDOFF
            if (not last and cv < most and not near) or (last and cv * 3 <= most and near):
                return act
        return None

    def _minefield(self, state: RommelState, side: Side, builds: list[Action]) -> Action | None:
        """§16.55: one Minefield a Buildup, in the stack nearest the enemy (within :data:`REACH` of it), when the BP
        pay for it."""
        bp = bp_known(state, side) or 0
        if not builds or bp < state.pack.limit("bp_minefield"):
            return None
        if state.month in self._mined:
            return None
        held = {state.tokens[t].hex for t in state.on_map(side)}
        sites = [(self._front(state, side, str(a["hex"])), str(a["hex"]), a) for a in builds if a["hex"] in held]
        sites = [s for s in sites if s[0] <= REACH]
        if not sites:
            return None
        self._mined.add(state.month)
        return min(sites, key=lambda s: (s[0], s[1]))[2]

    def _redeploy(self, state: RommelState, side: Side, redeploys: list[Action]) -> Action | None:
        """§16.51: a unit more than :data:`REACH` hexes behind the front, one Redeployment nearer the enemy (never
        within :data:`STANDOFF` hexes of it), while this Buildup has spent less than :data:`REDEPLOY_BP` on them."""
        if self._redeployed.get(state.month, 0) >= REDEPLOY_BP:
            return None
        best: tuple[int, str, str, Action] | None = None
        for act in redeploys:
            token, to = str(act["token"]), str(act["to"])
            here = state.tokens[token].hex
            if here is None or here in state.battles or self._front(state, side, here) <= REACH:
                continue
            near = self._front(state, side, to)
            if near <= STANDOFF or near >= self._front(state, side, here):
                continue
            if best is None or (near, token, to) < best[:3]:
                best = (near, token, to, act)
        if best is None:
            return None
        self._redeployed[state.month] = self._redeployed.get(state.month, 0) + state.pack.limit("bp_redeployment")
        return best[3]

    # --- set-up and Initiative ------------------------------------------------------------------------------
    def _deploy(self, state: RommelState, side: Side, deploys: list[Action]) -> Action:
        """§18.0: the legal hex nearest the enemy (its blocks, else its Base), spreading the blocks out."""
        grid = state.pack.map.grid
        enemy = [state.tokens[t].hex for t in state.on_map(other(side))] or [base_hex(state.pack, other(side))]

        def score(act: Action) -> tuple[int, str]:
            here = str(act["hex"])
            crowd = sum(1 for t in state.at(here) if state.tokens[t].side == side)
            return (min(grid.distance(here, e) for e in enemy if e is not None) + crowd // STACK, here)

        return min(deploys, key=score)

    def _initiative(self, state: RommelState, side: Side, by: dict[str, list[Action]]) -> Action:
        """§3.3: challenge (or answer) with a real card only when the hand holds real cards to spare."""
        name = "challenge" if "challenge" in by else "answer"
        real = self._cards(state, side, real=True)
        spare = 4 if name == "challenge" else 3
        if len(real) >= spare:
            return next(a for a in by[name] if a["card"] == real[0])
        return next(a for a in by[name] if a["card"] is None)

    # --- estimates ------------------------------------------------------------------------------------------
    def _cards(self, state: RommelState, side: Side, *, real: bool) -> list[int]:
        """The hand positions of ``side``'s uncommitted real (or dummy) cards."""
        committed = state.turn.committed or ()
        return [
            i
            for i, c in enumerate(hand(state, side))
            if c is not None and is_real(state.pack, c) == real and i not in committed
        ]

    def _cv(self, state: RommelState, token: str) -> int:
        """A block's CV where this player may see it, else the enemy's average maximum CV (an estimate)."""
        slot = state.hidden.get(cv_slot(token))
        if slot is not None and slot.known and isinstance(slot.value, int):
            return slot.value
        side = state.tokens[token].side
        setup = getattr(state.pack.scenario(state.scenario), side)
        blocks = [state.pack.block(b).cv_max for group in setup.deployments for b in group.blocks]
        return -(-sum(blocks) // len(blocks))

    def _strength(self, state: RommelState, hex_id: str, side: Side, tokens: Sequence[str] | None = None) -> int:
        found = tokens if tokens is not None else [t for t in state.at(hex_id) if state.tokens[t].side == side]
        return sum(self._cv(state, t) for t in found if not state.tokens[t].disrupted)

    def _enemy_hexes(self, state: RommelState, side: Side) -> list[str]:
        return sorted({state.tokens[t].hex for t in state.on_map(other(side)) if state.tokens[t].hex is not None})  # type: ignore[misc]

    # --- Player-Turns ---------------------------------------------------------------------------------------
    def _turn(
        self,
        state: RommelState,
        side: Side,
        by: dict[str, list[Action]],
        legal: Sequence[Action],
        ruleset: Ruleset[Any],
    ) -> Action:
        turn = state.turn
        if turn.stage == "select":
            return self._select(state, side, by, ruleset)
        if "step" in by and turn.move is not None:
            return self._step(state, side, by)
        if turn.stage == "movement":
            first_of_blitz = self._blitzing(state) and not turn.blitz and turn.moves >= state.pack.limit("moves_basic")
            if turn.moves < moves_allowed(state) and turn.move is None and not first_of_blitz:
                begin = self._begin(state, side, by, ruleset)
                if begin is not None:
                    return begin
            if "withdraw_group" in by and turn.move is None and self._passing(state):
                begin = self._pass_withdrawal(state, side, by, ruleset)
                if begin is not None:
                    return begin
            for name in ("end_move", "end_movement"):
                if name in by:
                    return by[name][0]
        if turn.stage == "combat":
            fights = [a for a in by.get("fight", []) if not a["assault"]]
            worth = self._worth_fighting(state, side)
            for act in fights:  # the mandatory ones first (§8.6, §13.2), then those worth fighting
                if "end_combat" not in by or act["hex"] in worth:
                    return act
            if "blitz" in by and self._blitzing(state):  # §4.4: on to the Blitz Movement the cards paid for
                return by["blitz"][0]
            if "end_combat" in by:
                return by["end_combat"][0]
        return legal[0]

    def _blitzing(self, state: RommelState) -> bool:
        """Whether this player committed a Blitz Turn's real cards to the turn under way (§4.4)."""
        return (
            self._plan is not None
            and self._plan[0] == state.turn_no
            and self._plan[1] >= state.pack.limit("cost_blitz")
        )

    def _passing(self, state: RommelState) -> bool:
        """Whether this player committed no real card to the turn under way (a Pass, perhaps bluffed)."""
        return self._plan is not None and self._plan[0] == state.turn_no and self._plan[1] == 0

    def _pass_withdrawal(
        self, state: RommelState, side: Side, by: dict[str, list[Action]], ruleset: Ruleset[Any]
    ) -> Action | None:
        """§4.5, §5.3: a Pass Turn's free Withdrawal Move for a beaten or cut-off stack, when played out in advance
        it steps usefully and may end (the network reduced); else none."""
        starts = {str(a["origin"]): a for a in by["withdraw_group"] if not a["rommel"]}
        for kind, origin, target in self._plans(state, side):
            start = starts.get(origin)
            if kind not in ("retreat", "resupply") or start is None:
                continue
            self._goal = (kind, target)
            after = ruleset.apply(state, side, start).state
            steps = [a for a in ruleset.legal_actions(after, side) if a["action"] == "step"]
            if self._useful(after, side, steps) and self._walk(after, side, ruleset) is not None:
                return start
        self._goal = None
        return None

    def _odds(self, state: RommelState, side: Side, hex_id: str, tokens: Sequence[str] | None = None) -> float:
        mine = self._strength(state, hex_id, side, tokens)
        theirs = self._strength(state, hex_id, other(side))
        return mine / max(theirs, 1)

    def _select(self, state: RommelState, side: Side, by: dict[str, list[Action]], ruleset: Ruleset[Any]) -> Action:
        """§3.42, §4: commit the real cards the turn can use (a dummy to bluff a Pass), then select."""
        if self._plan is None or self._plan[0] != state.turn_no:
            real, dummy = self._cards(state, side, real=True), self._cards(state, side, real=False)
            want = min(len(real), self._uses(state, side, real, ruleset))
            self._plan = (state.turn_no, want, 1 if want == 0 and dummy else 0)
        _, want_real, want_dummy = self._plan
        held = hand(state, side)
        committed = state.turn.committed or ()
        have_real = sum(1 for i in committed if (c := held[i]) is not None and is_real(state.pack, c))
        if have_real < want_real:
            card = self._cards(state, side, real=True)[0]
            return next(a for a in by["commit"] if a["card"] == card)
        if len(committed) - have_real < want_dummy:
            card = self._cards(state, side, real=False)[0]
            return next(a for a in by["commit"] if a["card"] == card)
        return by["select"][0]

    def _uses(self, state: RommelState, side: Side, real: list[int], ruleset: Ruleset[Any]) -> int:
        """The real cards this turn can put to use (§4), found by playing the turn out as paid: three for a Blitz Turn
        (§4.4) when two useful Moves begin with an attack and a card is left over; two for an Offensive
        Turn whose two Moves are both useful, not both advances, with a card left over; one for a useful Move (an
        advance only with more than :data:`RESERVE` real cards, an attack with a card left over for a retreat or a
        relief) or a battle worth fighting; else none (a Pass)."""
        if not real:
            return 0
        two = self._paid(state, side, real[:2], ruleset) if len(real) > 2 else []
        if len(two) == 2 and two[0] == "attack" and len(real) > state.pack.limit("cost_blitz"):
            return state.pack.limit("cost_blitz")  # §4.4: attack, fight, then the second Move as Blitz Movement
        if len(two) == 2 and two != ["advance", "advance"]:
            return 2
        one = self._paid(state, side, real[:1], ruleset)
        spare = {"advance": RESERVE, "attack": RESERVE - 1}  # retreats, reliefs, resupply may spend the last card
        if one and len(real) > spare.get(one[0], 0):
            return 1
        return 1 if self._worth_fighting(state, side) else 0

    def _paid(self, state: RommelState, side: Side, cards: list[int], ruleset: Ruleset[Any]) -> list[str]:
        """What the useful Moves of this turn would be (their kinds) if ``cards`` were committed, each played out as
        this player would play it, as many as the cards pay for if all are real (§4.1: one card, one Move)."""
        paid = state
        for card in cards:
            paid = ruleset.apply(paid, side, {"action": "commit", "card": card}).state
        paid = ruleset.apply(paid, side, {"action": "select"}).state
        kinds: list[str] = []
        for _ in cards:
            by: dict[str, list[Action]] = {}
            for action in ruleset.legal_actions(paid, side):
                by.setdefault(str(action["action"]), []).append(action)
            start = self._begin(paid, side, by, ruleset)
            if start is None or self._goal is None:
                break
            kinds.append(self._goal[0])
            after = self._walk(ruleset.apply(paid, side, start).state, side, ruleset)
            if after is None:
                break
            paid = after
        self._goal = None
        return kinds

    def _walk(self, state: RommelState, side: Side, ruleset: Ruleset[Any]) -> RommelState | None:
        """The Move under way played out as :meth:`_step` plays it: its useful steps, then its end (None if the
        Move cannot end, or the game ends in it)."""
        for _ in range(WALK):
            legal = ruleset.legal_actions(state, side)
            useful = self._useful(state, side, [a for a in legal if a["action"] == "step"])
            if useful:
                state = ruleset.apply(state, side, useful[0]).state
                continue
            end = [a for a in legal if a["action"] == "end_move"]
            return ruleset.apply(state, side, end[0]).state if end else None
        return None

    def _worth_fighting(self, state: RommelState, side: Side) -> list[str]:
        """The battles ``side`` is in where the enemy has blocks that fight and ``side`` has the odds (§8.6)."""
        return [
            h
            for h in sorted(state.battles)
            if any(state.tokens[t].side == side for t in state.at(h))
            and self._strength(state, h, other(side)) > 0
            and self._odds(state, side, h) >= GOOD_ODDS
        ]

    def _stacks(self, state: RommelState, side: Side) -> dict[str, list[str]]:
        """``side``'s undisrupted blocks that have not moved this turn, by hex."""
        found: dict[str, list[str]] = {}
        for t in state.on_map(side):
            tok = state.tokens[t]
            if tok.hex is not None and not tok.disrupted and t not in state.turn.paths:
                found.setdefault(tok.hex, []).append(t)
        return found

    def _retreats(self, state: RommelState, side: Side) -> list[str]:
        """The battle hexes ``side`` is beaten in (§7.2: it disengages from them)."""
        return [
            h
            for h, movers in sorted(self._stacks(state, side).items())
            if h in state.battles
            and self._strength(state, h, other(side)) >= BEATEN * max(self._strength(state, h, side), 1)
        ]

    def _attacks(self, state: RommelState, side: Side) -> list[tuple[float, str, str]]:
        """(odds, origin, target): enemy hexes with fighting blocks that the stacks within :data:`REACH` of them
        (the strongest first, as many as the turn has Moves left) and ``side``'s blocks already there outweigh
        :data:`GOOD_ODDS` times; the origin is the strongest of those stacks. Near a cut-off stack even odds will do
        (a relief attack, its odds negated so that it comes first)."""
        grid = state.pack.map.grid
        stacks = self._stacks(state, side)
        cut = self._cut_off(state, side)
        left = max(moves_allowed(state) - state.turn.moves, 1) if state.turn.stage != "select" else 2
        found = []
        for target in self._enemy_hexes(state, side):
            theirs = self._strength(state, target, other(side))
            if theirs == 0:
                continue
            near = sorted(
                ((self._strength(state, o, side, m), o) for o, m in stacks.items()
                 if o not in state.battles and grid.distance(o, target) <= REACH),
                key=lambda n: (-n[0], n[1]),
            )  # fmt: skip
            mine = self._strength(state, target, side) + sum(n[0] for n in near[:left])
            relief = any(grid.distance(h, target) <= REACH for h in cut)
            if near and mine >= GOOD_ODDS * theirs:
                found.append((mine / theirs, near[0][1], target))
            elif near and relief and mine >= theirs:  # §12: an even fight to reopen a supply line
                found.append((-mine / theirs, near[0][1], target))
        return sorted(found, key=lambda f: (-f[0], f[1], f[2]))

    def _advances(self, state: RommelState, side: Side) -> list[tuple[int, str]]:
        """(distance, origin): stacks more than :data:`STANDOFF` hexes from the nearest enemy block."""
        grid = state.pack.map.grid
        enemy = self._enemy_hexes(state, side)
        found = []
        for origin in sorted(self._stacks(state, side)):
            if origin in state.battles or not enemy:
                continue
            near = min(grid.distance(origin, e) for e in enemy)
            if near > STANDOFF + 1:
                found.append((near, origin))
        return sorted(found)

    def _plans(self, state: RommelState, side: Side) -> list[tuple[str, str, str]]:
        """(kind, origin, target) of the Moves worth making, best first: retreats, attacks, advances."""
        cut = self._cut_off(state, side)
        plans: list[tuple[str, str, str]] = [("relief", o, t) for odds, o, t in self._attacks(state, side) if odds < 0]
        plans += [("retreat", h, h) for h in self._retreats(state, side)]
        plans += [("attack", o, t) for odds, o, t in self._attacks(state, side) if odds >= 0]
        plans += [("resupply", h, h) for h in sorted(cut) if h not in state.battles]
        plans += [("advance", origin, origin) for _, origin in self._advances(state, side)]
        return plans

    def _cut_off(self, state: RommelState, side: Side) -> set[str]:
        """The hexes of ``side``'s Unsupplied stacks that may still move (§12: they die at the next Buildup)."""
        ok = supplied(state, side)
        return {h for h, movers in self._stacks(state, side).items() if any(t not in ok for t in movers)}

    def _begin(
        self, state: RommelState, side: Side, by: dict[str, list[Action]], ruleset: Ruleset[Any]
    ) -> Action | None:
        """§5.1: the Group Move of the first plan whose first step is legal and useful (with the Rommel bonus when
        the Axis has it, §6.3)."""
        groups = {(str(a["origin"]), bool(a["rommel"])): a for a in by.get("group", [])}
        for kind, origin, target in self._plans(state, side):
            for rommel in (True, False):
                start = groups.get((origin, rommel))
                if start is None:
                    continue
                self._goal = (kind, target)
                after = ruleset.apply(state, side, start).state
                steps = [a for a in ruleset.legal_actions(after, side) if a["action"] == "step"]
                if self._useful(after, side, steps):
                    return start
        self._goal = None
        return None

    def _useful(self, state: RommelState, side: Side, steps: list[Action]) -> list[Action]:
        """The steps that serve the Move's goal, best first (for the token already moving, then in token order)."""
        if self._goal is None:
            return []
        kind, target = self._goal
        grid = state.pack.map.grid
        base = base_hex(state.pack, side)
        enemy = self._enemy_hexes(state, side)
        ranked = []
        for act in steps:
            token, to = str(act["token"]), str(act["to"])
            here = state.tokens[token].hex
            if here is None or to not in state.pack.land():
                continue
            hostile = to in enemy
            if kind in ("attack", "relief"):
                if hostile and to != target:
                    continue
                if grid.distance(to, target) >= grid.distance(here, target):
                    continue
                gain = grid.distance(here, target) - grid.distance(to, target)
            elif kind == "resupply":  # towards the Base, only through hexes where the block is Supplied again
                if hostile or not supplied_hexes(state, side, (to,)):
                    continue
                if here in supplied_hexes(state, side, (here,)) and state.tokens[token].hex != target:
                    continue
                gain = grid.distance(here, base) - grid.distance(to, base)
            elif kind == "retreat":
                if hostile or here != target or grid.distance(to, base) >= grid.distance(here, base):
                    continue
                gain = 1
            else:
                if hostile or not enemy:
                    continue
                near = min(grid.distance(to, e) for e in enemy)
                if near < STANDOFF or near >= min(grid.distance(here, e) for e in enemy):
                    continue
                if not supplied_hexes(state, side, (to,)):
                    continue
                gain = 1
            moving = token == state.turn.mover
            ranked.append(((not moving, -gain, token, to), act))
        return [act for _, act in sorted(ranked, key=lambda r: r[0])]

    def _step(self, state: RommelState, side: Side, by: dict[str, list[Action]]) -> Action:
        useful = self._useful(state, side, by["step"])
        if useful:
            return useful[0]
        if "end_move" in by:
            return by["end_move"][0]
        if "void_withdrawal" in by:  # §4.5: a Withdrawal that cannot reduce the network is taken back
            return by["void_withdrawal"][0]
        return by["step"][0]

    # --- battles --------------------------------------------------------------------------------------------
    def _interrupt(
        self, state: RommelState, side: Side, by: dict[str, list[Action]], ruleset: Ruleset[Any]
    ) -> Action | None:
        """The decisions the rules ask for between and after Moves: Pursuit Fire (§10.5), Rout Attrition (§11.3),
        Withdrawals (§5.3), Refusing Battle (§8.4), Probe Combat (§10.41), Minefields entered (§14.2)."""
        if "attrition" in by:  # the owner's report: the fewest eliminations the rules let it make
            return min(by["attrition"], key=lambda a: (len(a["eliminated"]), sorted(a["eliminated"])))
        if "slowest" in by:  # the owner's replay offers the true speed; the least of any offered otherwise
            return min(by["slowest"], key=lambda a: int(a["speed"]))
        if "pursue" in by:  # every die the pursuers have
            return max(by["pursue"], key=lambda a: int(a["dice"]))
        if "pursuit_losses" in by:
            return min(by["pursuit_losses"], key=lambda a: self._pursuit_cost(state, a))
        if "withdraw" in by or "end_withdrawal" in by:
            return self._withdraw(state, side, by, ruleset)
        if "refuse" in by or "accept_battle" in by:
            for act in by.get("refuse", []):  # §10.2: refuse where the Attacker outweighs the group
                here = str(act["hex"])
                if self._strength(state, here, other(side)) >= BEATEN * max(self._strength(state, here, side), 1):
                    return act
            return by["accept_battle"][0]
        if "probe" in by:  # §10.41: provoke only a Rearguard the prober outweighs
            item = state.pending[-1]
            here = str(getattr(item, "hex", ""))
            provoke = self._odds(state, side, here) >= GOOD_ODDS
            return next(a for a in by["probe"] if bool(a["provoke"]) == provoke)
        if "reveal_mine" in by:  # §14.2: every Minefield the enemy entered, then done
            return by["reveal_mine"][0]
        if "mines_done" in by:
            return by["mines_done"][0]
        return None

    def _withdraw(self, state: RommelState, side: Side, by: dict[str, list[Action]], ruleset: Ruleset[Any]) -> Action:
        """§5.3: end the Withdrawal once it saves every unit (each has withdrawn and the network is reduced), else
        take the next unit one hex nearer its Base (the one that has withdrawn least first)."""
        if "end_withdrawal" in by:
            ended = ruleset.apply(state, side, by["end_withdrawal"][0])
            if not any(e.kind == "unit_eliminated" for e in ended.events) or "withdraw" not in by:
                return by["end_withdrawal"][0]
        item = state.pending[-1]
        paths: dict[str, tuple[str, ...]] = dict(getattr(item, "paths", {}))
        grid = state.pack.map.grid
        base = base_hex(state.pack, side)

        def rank(act: Action) -> tuple[int, int, str, str]:
            token, to = str(act["token"]), str(act["to"])
            return (len(paths.get(token, ())), grid.distance(to, base), token, to)

        return min(by["withdraw"], key=rank)

    def _pursuit_cost(self, state: RommelState, act: Action) -> tuple[int, int, str]:
        """§10.5, §9.5: the fewest blocks eliminated, then the smallest single loss."""
        losses = dict(act.get("losses") or {})
        spread = max((int(cv) for cv in losses.values()), default=0)
        return (len(act["eliminated"]), spread, str(sorted(losses.items())))

    def _fire(self, state: RommelState, side: Side, fires: list[Action]) -> Action:
        """§9.3: fire at the arms class holding the most enemy CV."""
        fight = state.pending[-1] if state.pending else None
        attackers, defenders = getattr(fight, "attackers", ()), getattr(fight, "defenders", ())
        enemy = defenders if getattr(fight, "attacker", None) == side else attackers  # whatever stage fires now
        by_class: dict[str, int] = {}
        for token in enemy:
            block = known_block(state, token)
            if block is not None and state.tokens[token].status == "map":
                cls = state.pack.unit_type(state.pack.block(block).unit_type).arms_class
                by_class[cls] = by_class.get(cls, 0) + self._cv(state, token)
        return max(fires, key=lambda a: (by_class.get(str(a["target"]), 0), str(a["token"]), str(a["target"])))

    def _loss_cost(self, state: RommelState, act: Action) -> tuple[int, int, str]:
        """§9.5: eliminate the fewest blocks, then spare the weakest."""
        losses = dict(act["losses"])
        dead = sum(1 for t, cv in losses.items() if cv and self._cv(state, t) - cv <= 0)
        spread = max((cv for cv in losses.values()), default=0)
        return (dead, spread, str(sorted(losses.items())))


def play(ruleset: Ruleset[Any]) -> ScriptedGame:
    seats = ("axis", "allied")
    return play_by_packets(
        ruleset, SCENARIO, {seat: SensiblePlayer() for seat in seats}, HERE,
        title="Rommel in the Desert, Crusader (§18.4): sample game by packets (test keys)", names=NAMES, notes=NOTES,
    )  # fmt: skip


def main() -> None:
    play_and_report(lambda: play(registry.get("rommel")))


if __name__ == "__main__":
    main()
