"""The combat library of *Axis & Allies: North Africa* (pp.19-23, 26-27, 29-34): pure functions, no dice.

A combat is a :class:`Battle`: the pieces on each side counted by (power, type), the space, the round, and the
origins of the attacking land units. Each step says how many d10s it needs (:class:`FireGroup` s, or a count);
the caller rolls them (the protocol's committed dice) and hands the faces back; the owner of the pieces hit
chooses casualties, which :func:`check_casualties` judges and :func:`casualty_options` enumerates. Refusals are
:class:`~pbem.rules.contract.Verdict` s citing the rulebook page (the pack uses pages as sections).

The pieces live in submodules, re-exported here:

* :mod:`.combat_start`: a :class:`Battle` read off the board (:func:`start_battle`: defenders, convoy cargo).
* :mod:`.combat_types`: :class:`Battle`, :class:`FireGroup`, :class:`Hit`, :class:`Cargo`, counted units.
* :mod:`.combat_fire`: who fires how many dice at what value (support, flanking rerolls, defensive bonus,
  aimed hits), the hits, and where hits may fall (:func:`volley`).
* :mod:`.combat_casualties`: legal casualty choices (as many hits as possible, aimed hits, escorts first,
  battleships' two hits).
* :mod:`.combat_land`: air defense, supply strikes, the defender's fight-or-retreat orders and retreats, the
  Vichy surrender.
* :mod:`.combat_end`: the end of a round and of a combat: press (and its supply) or cease, who holds the
  territory, moving in, captured trucks, control and convoy markers.
* :mod:`.combat_losses`: casualties named per origin (:class:`Losses`) and taken off the combat.
* :mod:`.combat_sea`: submarines (surprise strike or submerge), transports' cargo losses, convoy escapes.
* :mod:`.combat_mines`: land and sea mine ownership, detonation, dice and hits.

**A land combat, step by step** (who decides in brackets; the state between steps is the caller's):

1. :func:`check_battle`; with several origins the attacker names the main attack among
   :func:`main_candidates` (p.19).
2. Before round 1: :func:`air_defense_dice` d10s, :func:`air_defense_hits`, and [attacker] air losses judged
   by :func:`check_casualties` on :func:`air_defense_volley` (rule ``"31"``). Without :func:`needs_fight` the
   attacker may still use its :func:`supply_strikes` and the combat goes to step 8 (:func:`aaa_destroyed` says
   whether the AAA dies).
3. Step 1 [defender]: :func:`orders_options` / :func:`check_orders` (fight paying 1 supply, or retreat).
4. Step 2: in round 1, "immediately before rolling attack dice" (pp.31, 33), [attacker]
   :func:`supply_strikes` / :func:`check_supply_strikes`; then :func:`attack_fire` groups, :func:`roll_specs`,
   :func:`dice_needed` for flanking rerolls, :func:`check_faces`, :func:`group_hits`; [attacker]
   :func:`aim_options` / :func:`check_aims`; :func:`volley`; [defender] :func:`casualty_options` /
   :func:`check_casualties` (rule ``"21"``) on :func:`casualty_pool`. Marked casualties still fire.
5. Step 3: :func:`defense_fire` of :func:`fighting`, the same way, [attacker] :class:`Losses` per origin
   judged by :func:`check_losses` (rule ``"22"``), removed at once with :func:`take_losses`.
6. Step 4: the defender's casualties go (:func:`take_losses`); [defender] :func:`check_retreats` for the
   :func:`retreating` survivors; :func:`surrenders` for the Vichy French.
7. Step 5: :func:`combat_over`, else [attacker] :func:`check_press` (:func:`press_due`, paid per origin) then
   :func:`after_press` and :func:`attacker_retreats`, or :func:`check_cease`.
8. Step 6: :func:`conclude`, and [attacker] :func:`check_move_in`.

**A sea combat**: step 1 [attacker, then defender] :func:`check_submerge`, then :func:`surprise_fire` of each
side (casualties rule ``"34"``, removed at the end of step 1); steps 2 and 3 with ``holding`` set to the
submarines that struck or submerged; a hit on :data:`TRANSPORT` is resolved by :func:`check_transport_hit`
(:func:`cargo_first_options`, [firer] :func:`cargo_names`, :func:`cargo_second_options`); step 4 [defender]
:func:`check_escape`; step 5 press (free) or cease.

**Mines**: :func:`land_mine_owners`, [owner] :func:`check_detonation` (:func:`joint_icons` on a tie),
:func:`mine_dice` / :func:`mine_hits`, :func:`after_detonation`, [acting player] :func:`check_turned_back`; sea
mines :func:`check_sea_detonation` and :func:`sea_mine_volley`.

**Named options** (notes §10; the ruleset exposes each as a genesis option, default first):

* ``escorts_shield`` (§10.12; :data:`EscortsShield`, keyword of :func:`volley` and :func:`combat_over`):
  ``"reachable"``: only the escorts a hit could fall on keep it off the defender's transports (the p.21
  worked example: submarine hits go to the transports past an escorting fighter); ``"all"``: any escort does.
* ``torch_unpaid_press`` (§10.22; keyword of :func:`check_press` and :func:`check_cease`): ``False``: a Torch
  landing short of supply to press must cease, as any attack (p.23); ``True``: it presses unpaid (p.28: "must
  continue to be pressed with all units until ...").

Rulings the text settles, or where the other choice is never better, are fixed and quoted where they are made
(artillery of its own power and the best pairing, :func:`attack_fire`; battleships damaged before sunk,
:func:`apply_hits`; the "1 mine" token first, :func:`after_detonation`; supply strikes after the defender's
orders, :func:`supply_strikes`). A named unit type is the rulebook's (:func:`rule_type`: a Lend-Lease Sherman
or a Tiger is a tank).

Example: one round of land combat. Three German tanks and an anti-tank gun attack two British infantry and a
Matilda; the defenders pay a supply token to fight::

    >>> from pbem.games.axisallies.data import default_pack_bytes, load_pack
    >>> from pbem.games.axisallies.position import Position
    >>> pack = load_pack(default_pack_bytes())
    >>> uk_inf, uk_tank = ("united_kingdom", "infantry"), ("united_kingdom", "tank")
    >>> battle = Battle(
    ...     space="tobruk", kind="land", attacker="axis",
    ...     land={"derna": {("germany", "tank"): 3, ("germany", "anti_tank_gun"): 1}},
    ...     defenders={uk_inf: 2, uk_tank: 1},
    ... )
    >>> board = Position(round=1, supply={"tobruk": 2})
    >>> orders = Orders(fight=True, payment={"tobruk": 1})
    >>> check_orders(pack, board, battle, orders).ok
    True
    >>> groups = attack_fire(pack, battle)
    >>> [(g.type, g.count, g.needs, g.target) for g in groups]
    [('anti_tank_gun', 1, 2, 'tanks'), ('tank', 3, 5, 'any')]
    >>> faces = {0: [[1]], 1: [[4, 9, 6]]}                     # the protocol rolls, the caller hands back
    >>> [group_hits(pack, g, faces[i]) for i, g in enumerate(groups)]
    [1, 1]
    >>> hits = volley(pack, battle, [Scored(groups[0], 1, {"tanks": 1}), Scored(groups[1], 1)])
    >>> pool = casualty_pool(pack, battle, "defender")
    >>> check_casualties(hits, pool, {uk_inf: 2}, rule="21").reason   # the aimed hit must take the tank
    'aimed-hit-ignored'
    >>> check_casualties(hits, pool, {uk_inf: 1, uk_tank: 1}, rule="21").ok
    True
    >>> [(g.type, g.count, g.needs) for g in defense_fire(pack, battle, fighting(pack, battle, orders))]
    [('infantry', 2, 4), ('tank', 1, 6)]

Tobruk's Defensive Bonus (the pack's reconstruction: +1) raises the defenders' values.
"""

from __future__ import annotations

from pbem.games.axisallies.combat_casualties import (
    Score,
    apply_hits,
    best,
    casualty_options,
    check_casualties,
    hits_assignable,
    pool_of,
)
from pbem.games.axisallies.combat_end import (
    Conclusion,
    Press,
    after_press,
    attacker_retreats,
    check_cease,
    check_move_in,
    check_press,
    check_reinforcements,
    combat_over,
    conclude,
    press_due,
    reinforce,
)
from pbem.games.axisallies.combat_fire import (
    Scored,
    aim_options,
    attack_fire,
    casualty_pool,
    check_aims,
    check_battle,
    check_faces,
    defense_bonus,
    defense_fire,
    dice_needed,
    final_faces,
    fire_step,
    group_hits,
    main_candidates,
    roll_specs,
    rule_type,
    two_hit_pieces,
    volley,
)
from pbem.games.axisallies.combat_land import (
    Orders,
    aaa_destroyed,
    air_defense_dice,
    air_defense_hits,
    air_defense_volley,
    check_orders,
    check_retreats,
    check_supply_strikes,
    fighting,
    is_exempt,
    is_vichy,
    needs_fight,
    orders_options,
    retreat_room,
    retreating,
    supply_strikes,
    surrenders,
)
from pbem.games.axisallies.combat_losses import Losses, check_losses, take_losses
from pbem.games.axisallies.combat_mines import (
    after_detonation,
    check_detonation,
    check_sea_detonation,
    check_turned_back,
    joint_icons,
    land_mine_owners,
    mine_dice,
    mine_hits,
    sea_mine_volley,
)
from pbem.games.axisallies.combat_sea import (
    CargoLoss,
    cargo_after,
    cargo_first_options,
    cargo_names,
    cargo_second_options,
    check_escape,
    check_submerge,
    check_transport_hit,
    has_destroyer,
    may_surprise,
    submarines,
    surprise_fire,
)
from pbem.games.axisallies.combat_start import convoy_cargo, defenders_in, start_battle
from pbem.games.axisallies.combat_types import (
    TRANSPORT,
    Battle,
    Cargo,
    EscortsShield,
    FireGroup,
    Hit,
    Piece,
    Role,
    Target,
    Units,
    add,
    subtract,
    total,
)

__all__ = [
    "TRANSPORT",
    "Battle",
    "Cargo",
    "CargoLoss",
    "Conclusion",
    "EscortsShield",
    "FireGroup",
    "Hit",
    "Losses",
    "Orders",
    "Piece",
    "Press",
    "Role",
    "Score",
    "Scored",
    "Target",
    "Units",
    "aaa_destroyed",
    "add",
    "after_detonation",
    "after_press",
    "aim_options",
    "air_defense_dice",
    "air_defense_hits",
    "air_defense_volley",
    "apply_hits",
    "attack_fire",
    "attacker_retreats",
    "best",
    "cargo_after",
    "cargo_first_options",
    "cargo_names",
    "cargo_second_options",
    "casualty_options",
    "casualty_pool",
    "check_aims",
    "check_battle",
    "check_casualties",
    "check_cease",
    "check_detonation",
    "check_escape",
    "check_faces",
    "check_losses",
    "check_move_in",
    "check_orders",
    "check_press",
    "check_reinforcements",
    "check_retreats",
    "check_sea_detonation",
    "check_submerge",
    "check_supply_strikes",
    "check_transport_hit",
    "check_turned_back",
    "combat_over",
    "conclude",
    "convoy_cargo",
    "defenders_in",
    "defense_bonus",
    "defense_fire",
    "dice_needed",
    "fighting",
    "final_faces",
    "fire_step",
    "group_hits",
    "has_destroyer",
    "hits_assignable",
    "is_exempt",
    "is_vichy",
    "joint_icons",
    "land_mine_owners",
    "main_candidates",
    "may_surprise",
    "mine_dice",
    "mine_hits",
    "needs_fight",
    "orders_options",
    "pool_of",
    "press_due",
    "reinforce",
    "retreat_room",
    "retreating",
    "roll_specs",
    "rule_type",
    "sea_mine_volley",
    "start_battle",
    "submarines",
    "subtract",
    "supply_strikes",
    "surprise_fire",
    "surrenders",
    "take_losses",
    "total",
    "two_hit_pieces",
    "volley",
]
