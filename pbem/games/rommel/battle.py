"""Battles of *Rommel in the Desert* (§8-§11, §13.2, §14.2): pure, deterministic functions over typed inputs.

The ruleset builds a :class:`BattleHex` from the blocks in a battle (:func:`battle_unit` reads a block's class,
speed, steps and lowest CV from the pack) and asks these functions what is legal and what the dice did. Dice are
inputs: each step says how many it needs (:func:`fire_dice`, :func:`pursuit_dice`), the protocol rolls them.
Checks return the contract's :class:`~pbem.rules.contract.Verdict` naming the rule; the functions that change a
battle check first and raise ``ValueError`` on an illegal input. Every number comes from the pack.

The pieces, by module (all re-exported here; import from this module):

* :mod:`~pbem.games.rommel.battle_units`: :class:`BattleUnit`, :class:`BattleHex` (Attacker, Fortress, Minefield),
  :class:`Round` (initiator, Assault), :func:`check_strength` (§2.3: a reported strength).
* :mod:`~pbem.games.rommel.battle_fire`: a volley (§9.1): :func:`legal_targets` and :func:`check_fire` (§9.2
  artillery first, §9.3 targeting), :func:`fire_options` (for prompts), :func:`fire_dice` (§9.21, §13.2
  multipliers), :func:`fire` (§9.4 Fire Table, §9.52 half-hits), or a whole volley from one roll
  (:func:`plan_dice`, :func:`resolve_plan`), then :func:`volley_losses`, :func:`check_volley_losses` and
  :func:`apply_volley` (§9.5).
* :mod:`~pbem.games.rommel.battle_losses`: :class:`Hits`, :func:`check_losses` and :func:`legal_losses`: the
  owner's allocation, exactly (§9.5, §9.52, §2.4).
* :mod:`~pbem.games.rommel.battle_retreat`: Pursuit Fire (§10.5), Routs (§11.3), Overruns (§11.4), Refusing
  Battle (§8.4, §10.2), full and partial retreats and Probe Combat (§10.3, §10.4, §10.41), and the audit's checks
  of hidden claims (:func:`check_slowest_speed`, :func:`check_pursuit_dice`).
* :mod:`~pbem.games.rommel.battle_phase`: which battles are fought (:func:`check_combat`: §8.6, §13.2, §10.4,
  §4.5; :func:`check_assault`: §4.3), battle hexside control as :class:`~pbem.games.rommel.board.Battle`
  (:func:`attacked`, :func:`engaged_across`, :func:`is_raider`: §8.1, §8.3, §12.5), the Battle Array (§8.5), the end
  of a battle, Disruption recovery (§11.2).

Options: where the text is truly ambiguous the choice is a parameter whose default is the design notes'
recommended ruling, for the ruleset to expose as a genesis option:

* ``Volley(fire_optional=True)`` (notes §10.29): a unit may hold its fire; False makes every unit with a target
  fire, all artillery first (:func:`check_volley_over`).
* ``check_combat(partial_retreat_bars_fortress_combat=True)`` (notes §10.9): after the Fortress Attacker's Partial
  Retreat, §10.4's ban on combat wins over §13.2's mandatory Fortress combat; False lets §13.2 win.
* ``battle_unit(i_tanks=False)``: the optional Allied I-Tanks rule (elite, the pack's ``i_tank_speed``).

Readings the text settles (no option): Pursuit hits are full hits (§10.5 "one hit", half-hits are Minefield
Defenders' against Offensive Fire, §14.2); a Full Retreat is every undisrupted unit disengaging, Disrupted units
left behind Rout (§10.3 procedure step 4); only the undisrupted units of a group Refusing Battle need a Supply
Line (§8.6 sidebar: its Disrupted units never withdraw with it, they Rout).

Example, the §19 demo battle at Buq Buq (the Allies defend, the Axis attacked; an Axis turn)::

    >>> from pbem.games.rommel.data import default_pack_bytes, load_pack
    >>> pack = load_pack(default_pack_bytes())
    >>> units = tuple(battle_unit(pack, b) for b in ("uk-7ad-4", "uk-7ad-sg", "it-brescia", "it-pavia"))
    >>> buq_buq = BattleHex(units, attacker="axis")
    >>> round_ = Round(initiator="axis")                       # Defensive Fire first: the Allies
    >>> volley = Volley(side=round_.defensive)
    >>> legal_targets(buq_buq, volley, "uk-7ad-4")             # no Axis armor: the armor may fire at infantry
    ('infantry',)
    >>> fire_dice(pack, buq_buq, round_, "uk-7ad-4")
    4
    >>> volley, shot = fire(pack, buq_buq, round_, volley, "uk-7ad-4", "infantry", (5, 2, 6, 1))
    >>> shot.fire, shot.hits.full                              # DF: two hits
    ('df', 2)
    >>> volley, _ = fire(pack, buq_buq, round_, volley, "uk-7ad-sg", "infantry", (3, 1, 4))
    >>> [(cls, hits.full) for cls, _, hits in volley_losses(buq_buq, volley)]
    [('infantry', 2)]
    >>> [dict(x) for x in legal_losses(buq_buq.of("axis"), Hits(full=2))]
    [{'it-pavia': 2}, {'it-brescia': 1, 'it-pavia': 1}, {'it-brescia': 2}]
    >>> buq_buq = apply_volley(buq_buq, volley, {"infantry": {"it-brescia": 2}})
    >>> buq_buq.unit("it-brescia").cv                          # Offensive Fire next, with the reduced units
    2
"""

from __future__ import annotations

from pbem.games.rommel.battle_fire import (
    PlannedFire,
    Shot,
    Volley,
    apply_volley,
    check_fire,
    check_volley_losses,
    check_volley_over,
    dice_multiplier,
    fire,
    fire_dice,
    fire_level,
    fire_options,
    half_hits,
    hits_scored,
    legal_targets,
    plan_dice,
    remaining_classes,
    resolve_plan,
    volley_losses,
)
from pbem.games.rommel.battle_losses import (
    FULL,
    HALF,
    Hits,
    Losses,
    apply_losses,
    check_losses,
    legal_losses,
    losses_steps,
    reduced,
    usable_points,
)
from pbem.games.rommel.battle_phase import (
    attacked,
    battle_array,
    battle_over,
    can_recover,
    check_assault,
    check_combat,
    engaged_across,
    fortress_pass_withdrawal,
    is_raider,
)
from pbem.games.rommel.battle_retreat import (
    Engagement,
    RetreatKind,
    check_pursuers,
    check_pursuit_dice,
    check_refuse_battle,
    check_reserved_pursuit_dice,
    check_retreat,
    check_slowest_speed,
    engagement,
    lose_steps,
    probe_battle,
    probe_round,
    pursuit_dice,
    pursuit_dice_counts,
    pursuit_dice_splits,
    pursuit_hits,
    rearguard,
    retreat_forced_march,
    retreat_kind,
    rout_attrition,
    routed,
    slowest_speed,
    unfired_pursuers,
)
from pbem.games.rommel.battle_units import (
    CLASSES,
    ArmsClass,
    BattleHex,
    BattleUnit,
    Round,
    Side,
    battle_unit,
    check_strength,
    other_side,
    unit_speed,
)

__all__ = [
    "CLASSES",
    "FULL",
    "HALF",
    "ArmsClass",
    "BattleHex",
    "BattleUnit",
    "Engagement",
    "Hits",
    "Losses",
    "PlannedFire",
    "RetreatKind",
    "Round",
    "Shot",
    "Side",
    "Volley",
    "apply_losses",
    "apply_volley",
    "attacked",
    "battle_array",
    "battle_over",
    "battle_unit",
    "can_recover",
    "check_assault",
    "check_combat",
    "check_fire",
    "check_losses",
    "check_pursuers",
    "check_pursuit_dice",
    "check_refuse_battle",
    "check_reserved_pursuit_dice",
    "check_retreat",
    "check_slowest_speed",
    "check_strength",
    "check_volley_losses",
    "check_volley_over",
    "dice_multiplier",
    "engaged_across",
    "engagement",
    "fire",
    "fire_dice",
    "fire_level",
    "fire_options",
    "fortress_pass_withdrawal",
    "half_hits",
    "hits_scored",
    "is_raider",
    "legal_losses",
    "legal_targets",
    "lose_steps",
    "losses_steps",
    "other_side",
    "plan_dice",
    "probe_battle",
    "probe_round",
    "pursuit_dice",
    "pursuit_dice_counts",
    "pursuit_dice_splits",
    "pursuit_hits",
    "rearguard",
    "reduced",
    "remaining_classes",
    "resolve_plan",
    "retreat_forced_march",
    "retreat_kind",
    "rout_attrition",
    "routed",
    "slowest_speed",
    "unfired_pursuers",
    "unit_speed",
    "usable_points",
    "volley_losses",
]
