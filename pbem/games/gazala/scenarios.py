"""The three scenarios of §10 set up from the pack, and their special rules as queries.

* 10.1 Assault on Bir Hacheim: solitaire, one seat (``axis``); only Ariete activates, six times at most, its HQ
  always in supply; the Commonwealth is static (never activates, reacts or recovers); one air mission.
* 10.2 The Opening Phase (Game Turns 1-4) and 10.3 The Gazala Battles (1-8): two seats. The Axis automatically
  wins the first initiative of GT1, the marker goes to the Commonwealth's +2, and the Axis adds
  ``gt1_axis_initiative_drm`` to every GT1 Initiative Determination (§10). The first Admin Phase is skipped
  (§4: every scenario begins with the Ops Phase).

Special rules are the pack's records (:class:`~.data.SpecialRule`); the functions here answer the questions the
sequence of play asks of them.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.games.gazala.board import other
from pbem.games.gazala.data import GazalaPack, Scenario, Side, SpecialRule
from pbem.games.gazala.state import CounterState, FormationState, GazalaState, HqState, sit_of
from pbem.kit.hexes import distance as lattice

__all__ = [
    "activation_restriction",
    "air_missions",
    "always_supplied",
    "max_activations",
    "only_formation",
    "reinforcements_allowed",
    "setup",
    "static_side",
]


def _rules(pack: GazalaPack, scenario: str, kind: str) -> list[SpecialRule]:
    return list(pack.special_rules(scenario, kind))


def setup(pack: GazalaPack, scenario_id: str, options: Mapping[str, object], seats: tuple[Side, ...]) -> GazalaState:
    """The initial state of a scenario: the setup display's placements (assignments included), the Formation
    Activation levels, the air units Available, the Schwerpunkt (§5.9: the Axis player's choice, the option
    ``schwerpunkt``), SNAFU with the Axis (§5.2), and the Ops Phase of the first turn (§4)."""
    scenario: Scenario = pack.scenario(scenario_id)
    units = {u.id: CounterState(hex=None, cs=u.cs) for u in pack.units}
    hqs = {h.id: HqState(hex=None, support=h.support) for h in pack.hqs}
    for place in scenario.placements:
        if place.unit in units:
            units[place.unit] = units[place.unit].model_copy(update={"hex": place.hex, "assigned": place.assigned_to})
        else:
            hqs[place.unit] = hqs[place.unit].model_copy(update={"hex": place.hex})
    present = {u: c for u, c in units.items() if c.hex is not None or _arrives(scenario, u)}
    present_hqs = {h: c for h, c in hqs.items() if c.hex is not None or _arrives(scenario, h)}
    for rein in scenario.reinforcements:
        if rein.unit in present and rein.assigned_to is not None:
            present[rein.unit] = present[rein.unit].model_copy(update={"assigned": rein.assigned_to})
    formations = {f.formation: FormationState(level=f.level) for f in scenario.formations}
    for formation in pack.formations:
        if formation.id not in formations and pack.hq_of(formation.id).id in present_hqs:
            formations[formation.id] = FormationState(level=formation.max_level)  # §9.4.3: arrives at its maximum
    schwerpunkt = None
    if _rules(pack, scenario_id, "schwerpunkt_at_start"):
        chosen = str(options.get("schwerpunkt", ""))
        schwerpunkt = chosen if chosen in formations else _rules(pack, scenario_id, "schwerpunkt_at_start")[0].formation
    missions = _rules(pack, scenario_id, "air_missions")
    return GazalaState(
        pack=pack,
        scenario=scenario_id,
        options=dict(options),
        seats=seats,
        turn=scenario.first_turn,
        last_turn=scenario.last_turn,
        units=present,
        hqs=present_hqs,
        formations=formations,
        schwerpunkt=schwerpunkt,
        air={a: True for a in scenario.air_units},
        air_missions=missions[0].value if missions else None,
        snafu="axis" if pack.setting("snafu_start") == "axis" else "cw",
        tobruk="cw",
    )


def _arrives(scenario: Scenario, ident: str) -> bool:
    return any(r.unit == ident for r in scenario.reinforcements)


def only_formation(pack: GazalaPack, scenario: str) -> str | None:
    """§10.1: the one formation that activates, if the scenario names one."""
    found = _rules(pack, scenario, "only_formation")
    return found[0].formation if found else None


def max_activations(pack: GazalaPack, scenario: str) -> int | None:
    """§10.1: how many activations the scenario allows its formation, if it limits them."""
    found = _rules(pack, scenario, "max_activations")
    return found[0].value if found else None


def always_supplied(pack: GazalaPack, scenario: str, formation: str) -> bool:
    """§10.1: the formation's HQ is always in supply (Command Range still counts)."""
    return any(r.formation == formation for r in _rules(pack, scenario, "hq_always_supplied"))


def static_side(pack: GazalaPack, scenario: str) -> Side | None:
    """§10.1: the side that never activates, reacts, wins a Battle Victory or recovers."""
    found = _rules(pack, scenario, "static_side")
    return found[0].side if found else None


def air_missions(pack: GazalaPack, scenario: str) -> int | None:
    """§10.1: how many Ground Support missions the scenario allows (None: as many as air units allow)."""
    found = _rules(pack, scenario, "air_missions")
    return found[0].value if found else None


def reinforcements_allowed(pack: GazalaPack, scenario: str) -> bool:
    """§10.1: whether reinforcements are available."""
    return not _rules(pack, scenario, "no_reinforcements")


def activation_restriction(state: GazalaState, formation: str) -> SpecialRule | None:
    """§10.2, §10.3 (the setup display's Restricted Activation): the special rule that forbids ``formation`` to
    activate now, or None. ``restricted_until_turn``: not before Game Turn ``value``; ``restricted_until_contact``:
    not while no enemy combat unit is within ``value`` hexes of one of its combat units."""
    pack = state.pack
    for rule in pack.scenario(state.scenario).special_rules:
        if rule.formation != formation or rule.value is None:
            continue
        if rule.kind == "restricted_until_turn" and state.turn < rule.value:
            return rule
        if rule.kind == "restricted_until_contact" and not _contact(state, formation, rule.value):
            return rule
    return None


def _contact(state: GazalaState, formation: str, distance: int) -> bool:
    sit = sit_of(state)
    key = ("contact", formation, str(distance))
    known = sit.memo.get(key)
    if isinstance(known, bool):  # once per position: every end of an activation asks it of every formation
        return known
    side = state.pack.formation(formation).side
    coords = sit.board.grid.coords
    own = [coords(h) for h, units in sit.combat[side].items() if any(sit.formation(u) == formation for u in units)]
    theirs = [coords(h) for h in sit.combat[other(side)]]
    found = any(lattice(a, b) <= distance for a in own for b in theirs)
    sit.memo[key] = found
    return found
