"""The *Axis & Allies: North Africa* ruleset (contract v2) on the kit's step machine.

Not registered in the ``pbem.games`` entry point yet (BRIEF: the game's rules are only partly enforced); load it
with ``PBEM_GAMES=pbem.games.axisallies.ruleset:RULESET``. What it enforces is listed in :mod:`.phases` and
:mod:`.phase_combat`; the seats and resignations in :mod:`.seats`; setup, rounds and victory in
:mod:`.scenarios`.

Air units attack territories and sea zones (:mod:`.air_sorties`: the combat move out, air defense, the landing
after); sea units make combat moves and attack (:mod:`.sea_moves`), sea combats and convoy interdiction are
fought in :mod:`.sea_battle`; air units escort convoys and land from them (:mod:`.sea_escorts`); damaged
battleships are repaired (:mod:`.sea_repair`); mechanized infantry blitz only along with a tank
(:mod:`.blitz_pairs`). ``docs/axisallies-rules.md`` lists the pages enforced and their tests.

Mines (:mod:`.mines`, :mod:`.convoy_mines`), truck cargo (:mod:`.trucks`), Long-Range Patrol (:mod:`.patrols`),
the Free French (:mod:`.operated`), the optional rules (:mod:`.bidding`, :mod:`.reinforcing`, :mod:`.airlift`,
:mod:`.reserve`, :mod:`.advantages`) and the war at sea (:mod:`.sea_moves`, :mod:`.sea_battle`, :mod:`.sea_escorts`,
:mod:`.sea_repair`) are listed with what is not enforced yet in ``docs/axisallies-rules.md``.

Not enforced yet (such moves are not offered, so a game stays legal but narrower than the rulebook): supply token
exchange. Sea mines against moving sea units are :mod:`.sea_mines`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import TypeAdapter

from pbem.games.axisallies import airlift, bidding, convoy_mines, mines, present, reinforcing, trucks
from pbem.games.axisallies import phase_combat as pc
from pbem.games.axisallies import phases as ph
from pbem.games.axisallies import sea_battle as sb
from pbem.games.axisallies import sea_escorts as se
from pbem.games.axisallies import sea_moves as sm
from pbem.games.axisallies import sea_repair as sr
from pbem.games.axisallies.actions import (
    Aim,
    Airlift,
    Allot,
    AxisAction,
    Casualty,
    Cease,
    Claim,
    Commit,
    Deploy,
    Destroy,
    Detonate,
    Done,
    Escape,
    Escort,
    Fight,
    LandEscort,
    LayMine,
    LaySeaMine,
    Load,
    LoseCargo,
    Main,
    MineLoss,
    MineName,
    Move,
    MoveExcess,
    MoveIn,
    NameCargo,
    Order,
    Pay,
    PayUpkeep,
    Place,
    Press,
    PressPay,
    Reinforce,
    Repair,
    Requisition,
    Retreat,
    SeaAttack,
    Strike,
    Submerge,
    TurnAside,
    TurnBackUnit,
    Withdraw,
)
from pbem.games.axisallies.data import FORMAT, GAME_ID, AxisAlliesPack, default_pack_bytes, load_pack
from pbem.games.axisallies.scenarios import initial_state
from pbem.games.axisallies.seats import contract_scenarios, parse_scenario, seat_table, successor
from pbem.games.axisallies.state import AxisState, split
from pbem.kit.datapack import PackedData
from pbem.kit.machine import Interrupt, Machine, Phase, action
from pbem.rules.contract import (
    Action,
    Event,
    OptionSpec,
    Outcome,
    Result,
    Roster,
    Ruleset,
    Step,
    UnitView,
    Verdict,
    View,
)
from pbem.rules.presentation import Presentation

__all__ = ["RULESET", "AxisAllies"]


def _mover(state: AxisState) -> tuple[str, ...]:
    return (state.seat_of(state.power),)


def _bidder(state: AxisState) -> tuple[str, ...]:
    side = bidding.parse_bid(state.pack, state.options.get("rp_bidding", "none"))
    if side is None:
        return ()
    powers = bidding.sharers(state.pack, ph.scenario_of(state), side[0])
    return (state.seat_of(powers[0]),)


def _acting_power(state: AxisState) -> str:
    """The power whose part of the turn it is: the UK in the set-up (p.9: its variable reinforcements), the
    bidding side's first power while the bid is given out (p.38), else the power whose turn it is."""
    if state.phase == "setup":
        rows = ph.scenario_of(state).setup.variable_reinforcements
        return rows[0].power if rows else state.power
    if state.phase == "allot":
        side = bidding.parse_bid(state.pack, state.options.get("rp_bidding", "none"))
        return bidding.sharers(state.pack, ph.scenario_of(state), side[0])[0] if side is not None else state.power
    return state.power


def _uk(state: AxisState) -> tuple[str, ...]:
    rows = ph.scenario_of(state).setup.variable_reinforcements
    return (state.seat_of(rows[0].power),) if rows else ()


MACHINE: Machine[AxisState, Any] = Machine(
    adapter=TypeAdapter(AxisAction),
    rule="12",
    phases=(
        Phase("allot", ("allot",), rule="38", to_act=_bidder),
        Phase("setup", ("place", "done"), rule="9", to_act=_uk),
        Phase(
            "purchase",
            ("pay_upkeep", "requisition", "lay_mine", "lay_sea_mine", "repair", "done"),
            rule="13",
            to_act=_mover,
        ),
        Phase("combat_move", ("move", "done"), rule="15", to_act=_mover),
        Phase("declare", ("commit", "pay", "withdraw", "sea_attack", "done"), rule="18", to_act=_mover),
        Phase("combat", ("fight",), rule="19", to_act=_mover),
        Phase("noncombat_move", ("move", "load", "airlift", "claim", "done"), rule="24", to_act=_mover),
        Phase("deploy", ("deploy", "escort", "done"), rule="25", to_act=_mover),
        Phase("over", (), rule="6", to_act=lambda s: ()),
    ),
    interrupts=(
        Interrupt("excess_move", ("move_excess", "done"), rule="12"),
        Interrupt("excess_destroy", ("destroy",), rule="12"),
        Interrupt("choose_main", ("main",), rule="19"),
        Interrupt("strike_supply", ("strike", "done"), rule="31"),
        Interrupt("give_orders", ("order",), rule="20"),
        Interrupt("air_defense_roll", (), rule="31", resume=pc.air_defense_rolled),
        Interrupt("fire_roll", (), rule="21", resume=pc.rolled),
        Interrupt("aim_hits", ("aim", "done"), rule="30"),
        Interrupt("take_casualties", ("casualty",), rule="21"),
        Interrupt("retreats", ("retreat", "done"), rule="22"),
        Interrupt("press_or_cease", ("turn_aside", "reinforce", "press_pay", "press", "cease"), rule="23"),
        Interrupt("move_into", ("move_in",), rule="23"),
        Interrupt("detonation", ("detonate", "done"), rule="26"),
        Interrupt("mine_roll", (), rule="26", resume=mines.mines_rolled),
        Interrupt("turn_back", ("turn_back",), rule="26"),
        Interrupt("sea_detonation", ("detonate", "done"), rule="27"),
        Interrupt("sea_mine_roll", (), rule="27", resume=convoy_mines.sea_mines_rolled),
        Interrupt("sea_mine_loss", ("mine_loss", "mine_name"), rule="27"),
        Interrupt("submerging", ("submerge", "done"), rule="34"),
        Interrupt("transport_hits", ("lose_cargo", "name_cargo"), rule="21"),
        Interrupt("escapes", ("escape", "done"), rule="22"),
        Interrupt("land_escorts", ("land_escort", "done"), rule="12"),
    ),
    actions=(
        action(Place, legal=ph.places, can=ph.can_place, effect=ph.place_unit),
        action(PayUpkeep, legal=ph.upkeeps, can=ph.can_pay_upkeep, effect=ph.pay_upkeep),
        action(Requisition, legal=ph.requisitions, can=ph.can_requisition, effect=ph.requisition),
        action(Move, legal=ph.moves, can=ph.can_move, effect=ph.move),
        action(Commit, legal=ph.commits, can=ph.can_commit, effect=ph.commit),
        action(Pay, legal=ph.pays, can=ph.can_pay, effect=ph.pay),
        action(Withdraw, legal=ph.withdraws, can=ph.can_withdraw, effect=ph.withdraw),
        action(Claim, legal=ph.claims, can=ph.can_claim, effect=ph.claim),
        action(Deploy, legal=ph.deploys, can=ph.can_deploy, effect=ph.deploy),
        action(MoveExcess, legal=ph.excess_moves, can=ph.can_move_excess, effect=ph.move_excess),
        action(Destroy, legal=ph.destroys, can=ph.can_destroy, effect=ph.destroy),
        action(Fight, legal=pc.fights, can=pc.can_fight, effect=pc.fight),
        action(Main, legal=pc.mains, can=pc.can_main, effect=pc.main),
        action(Strike, legal=pc.strikes, can=pc.can_strike, effect=pc.strike),
        action(Order, legal=pc.orders, can=pc.can_order, effect=pc.order),
        action(Aim, legal=pc.aims, can=pc.can_aim, effect=pc.aim),
        action(Casualty, legal=pc.casualties, can=pc.can_casualty, effect=pc.casualty),
        action(Retreat, legal=pc.retreats, can=pc.can_retreat, effect=pc.retreat),
        action(TurnAside, legal=pc.turn_asides, can=pc.can_turn_aside, effect=pc.turn_aside),
        action(PressPay, legal=pc.press_pays, can=pc.can_press_pay, effect=pc.press_pay),
        action(Press, legal=pc.presses, can=pc.can_press, effect=pc.press),
        action(Cease, legal=pc.ceases, can=pc.can_cease, effect=pc.cease),
        action(MoveIn, legal=pc.moves_in, can=pc.can_move_in, effect=pc.move_in),
        action(LayMine, legal=mines.lay_mines, can=mines.can_lay_mine, effect=mines.lay_mine),
        action(LaySeaMine, legal=mines.lay_sea_mines, can=mines.can_lay_sea_mine, effect=mines.lay_sea_mine),
        action(Detonate, legal=mines.detonates, can=mines.can_detonate, effect=mines.detonate),
        action(TurnBackUnit, legal=mines.turn_backs, can=mines.can_turn_back, effect=mines.turn_back),
        action(Load, legal=trucks.loads, can=trucks.can_load, effect=trucks.load),
        action(Airlift, legal=airlift.airlifts, can=airlift.can_airlift, effect=airlift.airlift),
        action(Allot, legal=bidding.allots, can=bidding.can_allot, effect=bidding.allot),
        action(MineLoss, legal=convoy_mines.mine_losses, can=convoy_mines.can_mine_loss, effect=convoy_mines.mine_loss),
        action(MineName, legal=convoy_mines.mine_names, can=convoy_mines.can_mine_name, effect=convoy_mines.mine_name),
        action(Reinforce, legal=reinforcing.reinforces, can=reinforcing.can_reinforce, effect=reinforcing.reinforce),
        action(SeaAttack, legal=sm.sea_attacks, can=sm.can_sea_attack, effect=sm.sea_attack),
        action(Submerge, legal=sb.submerges, can=sb.can_submerge, effect=sb.submerge),
        action(LoseCargo, legal=sb.lose_cargos, can=sb.can_lose_cargo, effect=sb.lose_cargo),
        action(NameCargo, legal=sb.name_cargos, can=sb.can_name_cargo, effect=sb.name_cargo),
        action(Escape, legal=sb.escapes, can=sb.can_escape, effect=sb.escape),
        action(Escort, legal=se.escorts, can=se.can_escort, effect=se.escort),
        action(LandEscort, legal=se.land_escorts, can=se.can_land_escort, effect=se.land_escort),
        action(Repair, legal=sr.repairs, can=sr.can_repair, effect=sr.repair),
        action(Done, legal=ph.dones, can=ph.can_done, effect=ph.done),
    ),
)

_PACK = load_pack(default_pack_bytes())


class AxisAllies(PackedData, Ruleset[AxisState]):
    """*Axis & Allies: North Africa* for 2, 3 or 4 players (p.7), both scenarios (p.6, pp.28-29)."""

    pack_format = FORMAT
    id = GAME_ID
    name = "Axis & Allies: North Africa"
    version = "0.1"
    scenarios = contract_scenarios(_PACK)
    options = (
        OptionSpec(
            id="resignation",
            description="RULING (the rulebook is silent): a resigning seat's powers pass to its side's next seat "
            "(partner_takes_over), or the whole side concedes (side_concedes)",
            default="partner_takes_over",
            choices=("partner_takes_over", "side_concedes"),
        ),
        OptionSpec(
            id="torch_unpaid_press",
            description="notes §10.22: a Torch landing short of supply to press ceases as any attack (off), or "
            "presses unpaid (on)",
            default="off",
            choices=("off", "on"),
        ),
        OptionSpec(
            id="escorts_shield",
            description="notes §10.12: only the escorts a hit could fall on keep it off the defender's transports "
            "(reachable, the p.21 worked example), or every escort does (all)",
            default="reachable",
            choices=("reachable", "all"),
        ),
        OptionSpec(
            id="transport_naming",
            description="notes §10.27: for a transport hit's second piece the attacker names a type aboard "
            "(present), or any land unit type or supply, a type not aboard sparing the piece (any)",
            default="present",
            choices=("present", "any"),
        ),
        OptionSpec(
            id="chain_escorts",
            description="notes §10.16: air units in the UK's Atlantic and Indian Ocean convoy legs go on with the "
            "chain at phase 1 (advance), or land within 2 spaces like other escorts (land)",
            default="advance",
            choices=("advance", "land"),
        ),
        OptionSpec(
            id="tiger_tanks",
            description="p.38 optional rule: Germany may requisition Tiger tanks from round 8",
            default="off",
            choices=("off", "on"),
        ),
        OptionSpec(
            id="choice_of_us_landing_zones",
            description="p.39 optional rule: the US need not deploy to Casablanca in round 7",
            default="off",
            choices=("off", "on"),
        ),
        OptionSpec(
            id="mining_the_suez_canal",
            description="p.39 optional rule: with a bomber on Crete, an Axis power may lay 1 sea mine a turn in "
            "the Suez Canal convoy zone",
            default="off",
            choices=("off", "on"),
        ),
        OptionSpec(
            id="anzac_reinforcements",
            description="p.39 optional rule: the UK may deploy 1 infantry a turn straight to the Indian Ocean "
            "convoy zone",
            default="off",
            choices=("off", "on"),
        ),
        OptionSpec(
            id="draw_tie_break",
            description="p.6: a draw at the end goes to the side with more RP of land units in territories",
            default="off",
            choices=("off", "on"),
        ),
        OptionSpec(
            id="air_transport",
            description="p.38 optional rule: an Axis bomber in Italy carries 1 land unit of its power in the "
            "noncombat move",
            default="off",
            choices=("off", "on"),
        ),
        OptionSpec(
            id="rp_bidding",
            description="p.38 optional rule: the accepted bid, settled before the game (RULING): none, or "
            "<axis|allies>:<RP> added to that side's first round, given out among its powers by its seat",
            default="none",
        ),
        OptionSpec(
            id="reinforcing_land_attacks",
            description="p.38 optional rule: land units adjacent to a pressed land attack that neither moved nor "
            "attacked may join it",
            default="off",
            choices=("off", "on"),
        ),
        OptionSpec(
            id="strategic_supply_reserve",
            description="p.39 optional rule: each side's strategic reserve of supply in its staging territory "
            "pays 1 token for every 5 attacking air units; the US may deploy supply to Gibraltar",
            default="off",
            choices=("off", "on"),
        ),
    )
    actions = AxisAction

    def setup(self, scenario: str, options: Mapping[str, Any], roster: Roster, data: AxisAlliesPack) -> AxisState:
        """pp.8-9: the scenario's Setup Charts; the seat table of p.7 for the roster's number of players."""
        base, players = parse_scenario(scenario)
        chosen = {o.id: str(options.get(o.id, o.default)) for o in self.options}
        bidding.parse_bid(data, chosen["rp_bidding"])  # R007 before anything else
        state = initial_state(data, data.scenario(base), players, seat_table(data, players), chosen)
        state = bidding.share_bid(state, data.scenario(base))
        if state.phase == "purchase":
            return ph.start_turn(state).state
        return state

    def to_act(self, state: AxisState) -> tuple[str, ...]:
        return MACHINE.to_act(state)

    def legal_actions(self, state: AxisState, seat: str) -> list[Action]:
        return [MACHINE.dump(a) for a in MACHINE.legal_actions(state, seat)]

    def contains(self, state: AxisState, seat: str, action: Any, *, unseen: frozenset[str] = frozenset()) -> Verdict:
        return MACHINE.check(state, seat, self.typed(action))

    def apply(self, state: AxisState, seat: str, action: Any) -> Step[AxisState]:
        return ph.check_victory(MACHINE.apply(state, seat, self.typed(action)))

    def resume(self, state: AxisState, outcome: Outcome) -> Step[AxisState]:
        return ph.check_victory(MACHINE.resume(state, outcome))

    def label(self, state: AxisState, field: str, value: Any) -> str:
        """Spaces and pieces by their printed names (:mod:`.present`)."""
        if field == "group" and state.battle is not None and isinstance(value, int):
            fire = state.battle.fire
            if 0 <= value < len(fire):
                return present.label(state.pack, fire[value].power, "unit", fire[value].type) or str(value)
        if field == "supply" and isinstance(value, list):  # cargo at sea: "power:points" (p.21)
            if not value:
                return "no supply"
            return super().label(state, field, value)
        if field == "supply" and isinstance(value, str) and ":" in value:
            power, _, points = value.partition(":")
            name = next((p.name for p in state.pack.powers if p.id == power), power)
            return f"{points} {name} supply"
        if field == "unit" and state.phase == "purchase" and (bought := present.priced(state.pack, state.power, value)):
            return bought  # p.13: a requisition's choices with their prices
        if field == "unit" and value == "convoy:transport":
            return "the transports (two pieces of cargo)"
        if field == "type" and isinstance(value, str):  # a unit type named for a transport hit (p.21)
            return value.replace("_", " ")
        return present.label(state.pack, state.power, field, value) or super().label(state, field, value)

    def period(self, state: AxisState) -> str:
        return f"round-{state.round}"

    def on_resign(self, state: AxisState, seat: str) -> Step[AxisState] | None:
        """RULING (option ``resignation``): the resigning seat's powers pass to the next seat of its side still
        playing; without one (or with ``side_concedes``) the game ends, won by the other side."""
        if state.options.get("resignation") != "partner_takes_over" or state.phase == "over":
            return None
        sides = {p: state.pack.power(p).side or "" for p in state.seats}
        gone = frozenset(state.resigned)
        heir = successor(state.seats, sides, seat, gone)
        if heir is None:
            return None
        seats = {p: heir if s == seat else s for p, s in state.seats.items()}
        pending = tuple(d.model_copy(update={"seat": heir}) if d.seat == seat else d for d in state.pending)
        event = Event(kind="powers_taken_over", seat=heir, rule="7", data={"from": seat, "to": heir})
        updated = state.model_copy(update={"seats": seats, "pending": pending, "resigned": (*state.resigned, seat)})
        return Step(state=updated, events=(event,))

    def result(self, state: AxisState) -> Result | None:
        if state.phase != "over":
            return None
        sides = {p: state.pack.power(p).side for p in state.seats}
        winners = (
            ()
            if state.winner == "draw"
            else tuple(
                sorted({s for p, s in state.seats.items() if sides[p] == state.winner and s not in state.resigned})
            )
        )
        return Result(winners=winners, outcome=state.outcome)

    def view(self, state: AxisState, viewer: str) -> View:
        """Nothing is hidden (notes §7): every viewer sees the whole board. A unit's side is its power, the key
        of the presentation's colours (:func:`.mapspec.map_style`) and of the reports' losses."""
        units = []
        for space in sorted(state.pieces):
            for k, n in sorted(state.pieces[space].items()):
                power, type_ = split(k)
                unit = state.pack.unit(power, type_)
                units.append(
                    UnitView(
                        id=f"{space}/{k}", name=unit.name, side=power,
                        location=space, kind=type_, steps=n, extra={"power": power, "count": n},
                    )
                )  # fmt: skip
        acting = state.pack.power(_acting_power(state)).name
        summary = f"round {state.round}, {acting}, {state.phase.replace('_', ' ')}"
        facts: dict[str, Any] = {
            "control": dict(state.control),
            "supply": dict(state.supply),
            "convoy_supply": {z: dict(p) for z, p in state.convoy_supply.items()},
            "reserve": {p: dict(r) for p, r in state.reserve.items()},
            "rp": state.rp,
            "seats": dict(state.seats),
            "damaged": {z: dict(c) for z, c in state.damaged.items()},
        }
        if state.battle is not None:
            facts["battle"] = state.battle.model_dump(mode="json")
        if state.phase == "over":
            facts["outcome"] = state.outcome
        return View(viewer=viewer, summary=summary, units=tuple(units), facts=facts)

    def presentation(self, data: Any) -> Presentation:
        return present.AxisAlliesLook(data)


RULESET = AxisAllies()
