"""Supply (§12, §13.3, §15.1) and Withdrawal Moves (§5.3) on the Rommel map: each rule's acceptance and refusal,
and the text's worked examples (§12.7 examples A and B, the §12 supply figure, the §5.3 Mechili example, the
Bardia-Ft. Capuzzo sidebar, the §19 demo withdrawals)."""

from __future__ import annotations

import pytest

from pbem.games.rommel.board import Battle, Position, Unit
from pbem.games.rommel.data import RommelPack
from pbem.games.rommel.supply import (
    base_hex,
    check_fortress_supply,
    check_oasis_supply,
    check_withdrawal,
    fortress_isolated,
    supply_lines,
)
from pbem.kit.hexes import hexside_id
from pbem.rules.contract import Verdict

from .conftest import at, blocks


def refused(verdict: Verdict) -> tuple[str | None, str]:
    assert not verdict.ok
    return verdict.rule, verdict.reason


def units(pack: RommelPack, side: str, *places: str, disrupted: bool = False, skip: int = 0) -> list[Unit]:
    """One ``side`` unit (infantry, then the other types) in each of ``places`` (place ids or hex ids)."""
    ids = [b.id for b in pack.blocks if b.side == side][skip:]
    hexes = [at(pack, p) if not p.isdigit() else p for p in places]
    return [Unit(b, h, disrupted) for b, h in zip(ids, hexes, strict=False)]


# --- §12.2-§12.4 lines ----------------------------------------------------------------------------------------


@pytest.mark.rule("12.3")
def test_r12_3_the_highway_supplies_unless_blocked(rommel: RommelPack) -> None:
    axis = units(rommel, "axis", "tobruk", "bardia")
    assert supply_lines(rommel, Position(tuple(axis)), "axis").supplied == {u.block for u in axis}
    blocker = units(rommel, "allied", "gazala")
    net = supply_lines(rommel, Position((*axis, *blocker)), "axis")
    assert net.supplied == frozenset()
    assert at(rommel, "derna") in net.hexes and at(rommel, "gazala") not in net.hexes


@pytest.mark.rule("12.4")
def test_r12_4_chain_ranges_by_road(rommel: RommelPack) -> None:
    # The Ben Gania trail leaves the highway at Agedabia: 0307, 0407, 0507 are 1, 2 and 3 trail hexes out (range 2).
    for hex_id, supplied in (("0307", True), ("0407", True), ("0507", False)):
        unit = units(rommel, "axis", hex_id)[0]
        assert (unit.block in supply_lines(rommel, Position((unit,)), "axis").supplied) == supplied, hex_id
    chain = units(rommel, "axis", "0307", "0507")
    assert supply_lines(rommel, Position(tuple(chain)), "axis").supplied == {u.block for u in chain}
    # Msus is 3 track hexes from Agedabia (range 3); Tengeder on the Trigh el Abd is far from any highway.
    for hex_id, supplied in (("0505", True), ("0906", False)):
        unit = units(rommel, "axis", hex_id)[0]
        assert (unit.block in supply_lines(rommel, Position((unit,)), "axis").supplied) == supplied, hex_id
    # No road: a unit must be adjacent to the highway or a chain unit (range 1).
    for hex_id, supplied in (("0208", True), ("0309", False)):
        unit = units(rommel, "axis", hex_id)[0]
        assert (unit.block in supply_lines(rommel, Position((unit,)), "axis").supplied) == supplied, hex_id


@pytest.mark.rule("12.4")
def test_r12_4_disrupted_units_neither_chain_nor_block(rommel: RommelPack) -> None:
    link = units(rommel, "axis", "0307", disrupted=True)
    tail = units(rommel, "axis", "0507", skip=1)
    net = supply_lines(rommel, Position((*link, *tail)), "axis")
    assert link[0].block in net.supplied and tail[0].block not in net.supplied
    enemy = units(rommel, "allied", "gazala", disrupted=True)
    east = units(rommel, "axis", "tobruk")
    assert supply_lines(rommel, Position((*enemy, *east)), "axis").supplied == {east[0].block}


@pytest.mark.rule("12.7")
def test_r12_7_example_a_chain_around_gazala(rommel: RommelPack) -> None:
    """An Allied recon unit cuts the highway at Gazala; Axis units at Mechili and Bir Harmat re-establish the
    highway east from Bir Harmat: Bir Harmat chains 3 hexes along the track to Mechili, Mechili 2 along the trail
    to the supplied highway at Derna. No chaining unit is needed at Derna."""
    recon = Unit(next(blocks(rommel, "allied", "recon")), at(rommel, "gazala"))
    east = units(rommel, "axis", "acroma")
    assert supply_lines(rommel, Position((recon, *east)), "axis").supplied == frozenset()
    harmat = units(rommel, "axis", "bir-harmat", skip=1)
    assert supply_lines(rommel, Position((recon, *east, *harmat)), "axis").supplied == frozenset()
    mechili = units(rommel, "axis", "mechili", skip=2)
    net = supply_lines(rommel, Position((recon, *east, *harmat, *mechili)), "axis")
    assert net.supplied == {u.block for u in (*east, *harmat, *mechili)}
    assert at(rommel, "derna") in net.points and at(rommel, "tobruk") in net.points


@pytest.mark.rule("12.7")
def test_r12_7_example_b_chain_around_benghazi(rommel: RommelPack) -> None:
    """Allied units hold Benghazi against Axis attackers; the Attacker cannot trace through the battle, so the
    highway is blocked for Axis units at Gazala, until a unit at Er Regima chains 2 hexes along the trail to the
    supplied highway at Ghemines."""
    benghazi = at(rommel, "benghazi")
    allied = units(rommel, "allied", "benghazi")
    attackers = units(rommel, "axis", "benghazi")
    gazala = units(rommel, "axis", "gazala", skip=1)
    battles = {benghazi: Battle("allied", {hexside_id(at(rommel, "ghemines"), benghazi): "axis"})}
    pos = Position((*allied, *attackers, *gazala), battles=battles)
    net = supply_lines(rommel, pos, "axis")
    assert net.supplied == {attackers[0].block}  # traced into the battle across its friendly hexside
    regima = units(rommel, "axis", "er-regima", skip=2)
    net = supply_lines(rommel, Position((*allied, *attackers, *gazala, *regima), battles=battles), "axis")
    assert net.supplied == {u.block for u in (*attackers, *gazala, *regima)}
    untouched = {benghazi: Battle("allied")}  # no hexside crossed yet: all are the Defender's
    net = supply_lines(rommel, Position((*allied, *attackers, *gazala, *regima), battles=untouched), "axis")
    assert attackers[0].block not in net.supplied and gazala[0].block in net.supplied
    assert supply_lines(rommel, Position((*allied, *attackers), battles=untouched), "allied").supplied == {
        allied[0].block
    }


@pytest.mark.rule("12.7")
def test_r12_7_supply_figure(rommel: RommelPack) -> None:
    """[A] on the highway; [B] 3 hexes along the Siwa track from Mersa Matruh; units 3 hexes further at Siwa trace
    through [B]; [C] 2 hexes along the trail from Sidi Barrani, [D] adjacent to [C]; [E] next to the highway but
    behind a ridge is Unsupplied. Axis [1] at Sofafi and [2] at Sidi Omar cut [C] and [D]."""
    a, b, siwa, c, d, e = units(rommel, "allied", "2205", "1908", "siwa", "bir-habata", "1607", "1806")
    pos = Position((a, b, siwa, c, d, e))
    net = supply_lines(rommel, pos, "allied")
    assert net.supplied == {a.block, b.block, siwa.block, c.block, d.block}
    assert supply_lines(rommel, Position((a, siwa, c, d, e)), "allied").supplied == {a.block, c.block, d.block}
    one, two = units(rommel, "axis", "sofafi", "sidi-omar")
    cut = supply_lines(rommel, Position((a, b, c, d, e, one, two)), "allied")
    assert c.block not in cut.supplied and d.block not in cut.supplied
    via_sollum = supply_lines(rommel, Position((a, b, c, d, e, one)), "allied")
    assert d.block in via_sollum.supplied  # without [2] at Sidi Omar, [D] traces along the trail to Sollum


@pytest.mark.rule("12.2")
def test_r12_2_no_line_through_an_enemy_battle_or_enemy_hexside(rommel: RommelPack) -> None:
    tobruk = at(rommel, "tobruk")
    allied = units(rommel, "allied", "tobruk")
    axis_in = units(rommel, "axis", "tobruk")
    east = units(rommel, "axis", "bardia", skip=1)
    pos = Position((*allied, *axis_in, *east), battles={tobruk: Battle("allied")})
    assert east[0].block not in supply_lines(rommel, pos, "axis").supplied  # the Attacker cannot pass through
    pos = Position((*allied, *axis_in, *east), battles={tobruk: Battle("axis")})
    assert east[0].block in supply_lines(rommel, pos, "axis").supplied  # the Defender can


@pytest.mark.rule("12.6")
def test_r12_6_networks_overlap(rommel: RommelPack) -> None:
    pos = Position(())
    axis, allied = supply_lines(rommel, pos, "axis"), supply_lines(rommel, pos, "allied")
    assert at(rommel, "tobruk") in axis.hexes & allied.hexes
    assert axis.length[base_hex(rommel, "axis")] == 0 and allied.length[base_hex(rommel, "allied")] == 0


@pytest.mark.rule("1.6")
def test_r1_6_no_supply_from_a_lost_base(rommel: RommelPack) -> None:
    pos = Position(tuple(units(rommel, "allied", "el-agheila") + units(rommel, "axis", "mersa-brega")))
    assert supply_lines(rommel, pos, "axis").supplied == frozenset()


# --- §13.3 Fortress supply, §15.1 Oasis supply ---------------------------------------------------------------


def isolated_tobruk(pack: RommelPack) -> tuple[Position, list[Unit]]:
    inside = units(pack, "allied", "tobruk", "tobruk", "tobruk", "tobruk", "el-adem", "1303")
    # Acroma and Gambut cut the highway on both sides, Sidi Rezegh the Trigh Capuzzo to El Adem.
    axis = units(pack, "axis", "acroma", "gambut", "sidi-rezegh")
    return Position((*inside, *axis), fortresses={"tobruk": "allied"}), inside


@pytest.mark.rule("13.3")
def test_r13_3_fortress_supply(rommel: RommelPack) -> None:
    pos, allied = isolated_tobruk(rommel)
    assert fortress_isolated(rommel, pos, "allied", "tobruk")
    inside = [u.block for u in allied[:4]]
    assert check_fortress_supply(rommel, pos, "allied", "tobruk", [*inside, allied[4].block]).ok
    too_many = [u.block for u in allied]
    assert refused(check_fortress_supply(rommel, pos, "allied", "tobruk", too_many)) == ("13.3", "over-capacity")
    skip_inside = [*inside[:3], allied[4].block, allied[5].block]
    assert refused(check_fortress_supply(rommel, pos, "allied", "tobruk", skip_inside)) == ("13.3", "priority")
    assert refused(check_fortress_supply(rommel, pos, "axis", "tobruk", [])) == ("13.3", "not-friendly")
    assert refused(check_fortress_supply(rommel, pos, "allied", "sollum", [])) == ("13.3", "not-a-fortress")
    open_line = Position(tuple(allied), fortresses={"tobruk": "allied"})
    assert refused(check_fortress_supply(rommel, open_line, "allied", "tobruk", inside)) == ("13.3", "not-isolated")
    far = units(rommel, "allied", "bir-hacheim", skip=6)
    pos = Position((*pos.units, *far), fortresses={"tobruk": "allied"})
    assert refused(check_fortress_supply(rommel, pos, "allied", "tobruk", [far[0].block])) == ("13.3", "no-line")


@pytest.mark.rule("15.1")
def test_r15_1_oasis_supply(rommel: RommelPack) -> None:
    a, b = units(rommel, "axis", "jalo", "jalo")
    out = units(rommel, "axis", "0510", skip=2)[0]
    pos = Position((a, b, out))
    assert check_oasis_supply(rommel, pos, "axis", "jalo", [a.block]).ok
    assert refused(check_oasis_supply(rommel, pos, "axis", "jalo", [a.block, b.block])) == ("15.1", "over-capacity")
    assert refused(check_oasis_supply(rommel, pos, "axis", "jalo", [out.block])) == ("15.1", "not-in-oasis")
    assert refused(check_oasis_supply(rommel, pos, "axis", "tobruk", [a.block])) == ("15.1", "not-an-oasis")
    enemy = units(rommel, "allied", "jalo")[0]
    battle = Position((a, enemy), battles={at(rommel, "jalo"): Battle("allied")})
    assert refused(check_oasis_supply(rommel, battle, "axis", "jalo", [a.block])) == ("15.1", "not-friendly")
    assert check_oasis_supply(rommel, battle, "allied", "jalo", [enemy.block]).ok


# --- §5.3 Withdrawal Moves -----------------------------------------------------------------------------------


def mechili_example(pack: RommelPack) -> tuple[Position, Unit]:
    """§5.3 example: an Axis recon unit in Mechili, Axis units in Msus and Charruba chaining to the highway,
    Benghazi friendly, no Allied units west of Tobruk."""
    recon = Unit(next(blocks(pack, "axis", "recon")), at(pack, "mechili"))
    chains = units(pack, "axis", "msus", "charruba")
    return Position((recon, *chains, *units(pack, "allied", "tobruk"))), recon


ROUTES_TOWARD_BASE = [
    ("mechili-msus-agedabia", ["0703", "0604", "0504", "0505", "0406", "0306", "0206"]),
    ("mechili-msus-beda-fomm", ["0703", "0604", "0504", "0505", "0405", "0305", "0205"]),
    ("mechili-msus-ghemines", ["0703", "0604", "0504", "0505", "0404", "0304", "0204"]),
    ("mechili-charruba-er-regima", ["0703", "0604", "0504", "0503", "0403"]),
]


@pytest.mark.rule("5.3")
@pytest.mark.parametrize(("route", "path"), ROUTES_TOWARD_BASE, ids=[r[0] for r in ROUTES_TOWARD_BASE])
def test_r5_3_mechili_withdrawal_routes(rommel: RommelPack, route: str, path: list[str]) -> None:
    """The first four of the recon unit's eight supply lines are legal Withdrawals, all the way to the highway and
    every part of the way."""
    pos, recon = mechili_example(rommel)
    for end in range(2, len(path) + 1):
        assert check_withdrawal(rommel, pos, "axis", {recon.block: path[:end]}).ok, (route, path[:end])


LINES_AWAY = [
    ("mechili-derna", ["0703", "0702", "0801"]),
    ("mechili-gazala", ["0703", "0803", "0903", "0902"]),
    ("mechili-bir-harmat", ["0703", "0803", "0903", "1003"]),
]


@pytest.mark.rule("5.3")
@pytest.mark.rule("12.6")
def test_r5_3_mechili_has_eight_supply_lines(rommel: RommelPack) -> None:
    """All eight lines of the example are supply lines of the recon unit, and all are in the network (§12.6)."""
    pos, recon = mechili_example(rommel)
    net = supply_lines(rommel, pos, "axis")
    assert recon.block in net.supplied
    for route, path in ROUTES_TOWARD_BASE + LINES_AWAY:
        assert set(path) <= net.hexes, route
        assert net.follows(path), route


@pytest.mark.rule("5.3")
@pytest.mark.parametrize("end", ["derna", "gazala", "bir-harmat"])
def test_r5_3_mechili_lines_away_from_base_refused(rommel: RommelPack, end: str) -> None:
    pos, recon = mechili_example(rommel)
    path = rommel.road_path(recon.hex, at(rommel, end), ("track", "trail"))
    assert path is not None
    assert refused(check_withdrawal(rommel, pos, "axis", {recon.block: list(path)})) == ("5.3", "away-from-base")


@pytest.mark.rule("5.3")
def test_r5_3_withdrawal_conditions(rommel: RommelPack) -> None:
    pos, recon = mechili_example(rommel)
    cut = units(rommel, "axis", "0606", skip=3)[0]  # alone in the desert: no supply line
    pos2 = Position((*pos.units, cut))
    assert refused(check_withdrawal(rommel, pos2, "axis", {cut.block: ["0606", "0506"]})) == (
        "5.3",
        "no-supply-line",
    )
    assert refused(check_withdrawal(rommel, pos, "axis", {recon.block: ["0703", "0704"]})) == (
        "5.3",
        "not-along-supply-line",
    )
    # A unit on an open highway concedes nothing by falling back along it: the highway stays in the network.
    beda = units(rommel, "axis", "beda-fomm", skip=4)[0]
    path = [beda.hex, at(rommel, "agedabia")]
    assert refused(check_withdrawal(rommel, Position((beda,)), "axis", {beda.block: path})) == (
        "5.3",
        "network-not-reduced",
    )
    # The Msus unit falling back toward Agedabia gives up its links to Ghemines and Beda Fomm: a Withdrawal.
    msus = pos.units[1]
    assert check_withdrawal(rommel, pos, "axis", {msus.block: ["0505", "0406"]}).ok
    # Back and forth on a line is not shortening it.
    assert refused(check_withdrawal(rommel, pos, "axis", {recon.block: ["0703", "0604", "0703"]})) == (
        "5.3",
        "not-along-supply-line",
    )


@pytest.mark.rule("5.3")
def test_r5_3_bardia_capuzzo_jog(rommel: RommelPack) -> None:
    """Sidebar: the Axis may withdraw along the highway from Ft. Capuzzo to Bardia, though Bardia is one hex further
    from El Agheila; any other step away from the Base is refused. (A lone unit on an open highway concedes no
    hex, so condition 3 is what refuses it here; conditions 2 and 4 hold.)"""
    capuzzo, bardia = at(rommel, "ft-capuzzo"), at(rommel, "bardia")
    assert rommel.hex_map.distance(bardia, base_hex(rommel, "axis")) > rommel.hex_map.distance(
        capuzzo, base_hex(rommel, "axis")
    )
    axis = units(rommel, "axis", "ft-capuzzo")[0]
    jog = check_withdrawal(rommel, Position((axis,)), "axis", {axis.block: [capuzzo, bardia]})
    assert refused(jog) == ("5.3", "network-not-reduced")
    gambut = units(rommel, "axis", "1404")[0]
    assert refused(check_withdrawal(rommel, Position((gambut,)), "axis", {gambut.block: ["1404", bardia]})) == (
        "5.3",
        "away-from-base",
    )
    allied = units(rommel, "allied", "ft-capuzzo")[0]
    assert refused(check_withdrawal(rommel, Position((allied,)), "allied", {allied.block: [capuzzo, "1404"]})) == (
        "5.3",
        "away-from-base",
    )


@pytest.mark.rule("5.3")
def test_r5_3_withdrawing_units_do_not_engage(rommel: RommelPack) -> None:
    """A Defender's battle at Agedabia still carries Axis lines, but a withdrawal may not enter it."""
    mover, defender = units(rommel, "axis", "beda-fomm", "agedabia")
    enemy = units(rommel, "allied", "agedabia")[0]
    pos = Position((mover, defender, enemy), battles={at(rommel, "agedabia"): Battle("axis")})
    assert mover.block in supply_lines(rommel, pos, "axis").supplied
    path = [mover.hex, defender.hex]
    assert refused(check_withdrawal(rommel, pos, "axis", {mover.block: path})) == ("5.3", "engages")


@pytest.mark.rule("19.0")
def test_r19_0_demo_withdrawal_to_sidi_barrani(rommel: RommelPack) -> None:
    """The Allied unit in Sollum, Attacked from Ft. Capuzzo, refuses battle and withdraws to Sidi Barrani along the
    coast highway: a forward hex is abandoned, reducing the Supply Network."""
    sollum, buq, barrani = at(rommel, "sollum"), at(rommel, "buq-buq"), at(rommel, "sidi-barrani")
    allied = Unit(next(blocks(rommel, "allied", "mech_inf")), sollum)
    others = units(rommel, "allied", "buq-buq", "buq-buq", "sofafi", skip=10)
    attackers = units(rommel, "axis", "sollum", "sollum", "sollum", "ft-capuzzo", "sidi-omar", "bardia")
    pos = Position((allied, *others, *attackers), battles={sollum: Battle("allied")})
    assert check_withdrawal(rommel, pos, "allied", {allied.block: [sollum, buq, barrani]}).ok


@pytest.mark.rule("13.3")
@pytest.mark.rule("5.3")
def test_r13_3_fortress_supplied_units_withdraw_toward_the_fortress(rommel: RommelPack) -> None:
    pos, allied = isolated_tobruk(rommel)
    adem, tobruk = allied[4], at(rommel, "tobruk")
    assigned = {adem.block: "tobruk"}
    assert refused(check_withdrawal(rommel, pos, "allied", {adem.block: [adem.hex, tobruk]})) == (
        "5.3",
        "no-supply-line",
    )  # not assigned: it may not trace or withdraw toward the Fortress
    assert check_withdrawal(rommel, pos, "allied", {adem.block: [adem.hex, tobruk]}, assigned).ok
    away = [adem.hex, at(rommel, "bir-guba")]
    assert refused(check_withdrawal(rommel, pos, "allied", {adem.block: away}, assigned)) == ("5.3", "away-from-base")
