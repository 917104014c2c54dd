"""Movement on the Rommel map (§1.4, §5.1-§5.2, §6, §7): each rule's acceptance and each refusal with its rule,
and the text's worked movement examples (the §6.2 road-bonus sidebar, the §19 demo moves into Sollum)."""

from __future__ import annotations

import pytest

from pbem.games.rommel.board import (
    Battle,
    MoveOptions,
    Position,
    Unit,
    check_group_move,
    check_regroup_move,
    check_unit_move,
    hexside_limit,
    passable,
    road_bonus,
)
from pbem.games.rommel.data import RommelPack
from pbem.kit.hexes import HexId, hexside_id
from pbem.rules.contract import Verdict

from .conftest import at, blocks

HIGHWAY = ("0108", "0107", "0207", "0206", "0205", "0204", "0303", "0403", "0402", "0502")


def refused(verdict: Verdict) -> tuple[str | None, str]:
    assert not verdict.ok
    return verdict.rule, verdict.reason


def one(pack: RommelPack, side: str, unit_type: str, hex_id: str, n: int = 0) -> Unit:
    return Unit(list(blocks(pack, side, unit_type))[n], hex_id)


# --- §1.4, §7.1 hexsides ---------------------------------------------------------------------------------------


@pytest.mark.rule("1.4")
def test_r1_4_passable_agrees_with_the_pack(rommel: RommelPack) -> None:
    for side in rommel.hex_map.hexsides.values():
        assert passable(side) == rommel.passable(side.a, side.b), side.id


@pytest.mark.rule("7.1")
def test_r7_1_hexside_limits(rommel: RommelPack) -> None:
    side = rommel.hex_map.hexside
    assert hexside_limit(rommel, side(HexId("0108"), HexId("0107"))) == 2  # clear
    assert hexside_limit(rommel, side(HexId("1505"), HexId("1605"))) == 1  # the Sollum gap
    assert hexside_limit(rommel, side(HexId("0402"), HexId("0502"))) == 1  # mountain road
    assert hexside_limit(rommel, side(HexId("0802"), HexId("0803"))) == 0  # ridge


@pytest.mark.rule("1.4")
def test_r1_4_impassable_hexsides_refused(rommel: RommelPack) -> None:
    recon = one(rommel, "axis", "recon", "0802")
    pos = Position((recon,))
    assert refused(check_unit_move(rommel, pos, recon.block, ["0802", "0803"])) == ("1.4", "impassable")  # ridge
    mountain = Position((Unit(recon.block, "0402"),))
    assert refused(check_unit_move(rommel, mountain, recon.block, ["0402", "0503"])) == ("1.4", "impassable")
    assert check_unit_move(rommel, mountain, recon.block, ["0402", "0502"]).ok  # the highway crosses it


# --- §6 speed and bonuses ----------------------------------------------------------------------------------------


@pytest.mark.rule("6.2")
def test_r6_2_road_bonus_sidebar(rommel: RommelPack) -> None:
    """A Recon unit (speed 4) moves 8 hexes along the highway, 6 along tracks, 5 on trails, 5 on tracks and trails."""
    recon = one(rommel, "axis", "recon", "0108")
    cases = [
        (list(HIGHWAY[:9]), 8),
        (["0703", "0604", "0504", "0505", "0406", "0306", "0206"], 6),  # Mechili-Msus-Agedabia tracks
        (["0706", "0707", "0607", "0507", "0407", "0307"], 5),  # Ben Gania-Agedabia trail
        (["0806", "0706", "0707", "0607", "0507", "0407"], 5),  # Trigh el Abd track, then the trail
    ]
    for path, hexes in cases:
        assert len(path) - 1 == hexes and road_bonus(rommel, path) == hexes - 4
        pos = Position((Unit(recon.block, path[0]),))
        assert check_unit_move(rommel, pos, recon.block, path).ok, path
    too_far = [*HIGHWAY]
    pos = Position((Unit(recon.block, "0108"),))
    assert refused(check_unit_move(rommel, pos, recon.block, too_far)) == ("6.1", "over-budget")
    mixed = ["0703", "0604", "0504", "0505", "0406", "0306", "0206", "0207"]  # tracks then highway: track bonus
    pos = Position((Unit(recon.block, "0703"),))
    assert refused(check_unit_move(rommel, pos, recon.block, mixed)) == ("6.1", "over-budget")


@pytest.mark.rule("6.2")
def test_r6_2_no_bonus_off_the_road(rommel: RommelPack) -> None:
    assert road_bonus(rommel, ["0206", "0306", "0307"]) == 0  # leaves the road
    assert road_bonus(rommel, ["0206"]) == 0


@pytest.mark.rule("6.1")
def test_r6_1_speed_off_road(rommel: RommelPack) -> None:
    inf = one(rommel, "axis", "infantry", "0704")
    pos = Position((inf,))
    assert check_unit_move(rommel, pos, inf.block, ["0704", "0705"]).ok
    assert refused(check_unit_move(rommel, pos, inf.block, ["0704", "0705", "0706"])) == ("6.1", "over-budget")


@pytest.mark.rule("6.3")
def test_r6_3_rommel_bonus(rommel: RommelPack) -> None:
    inf = one(rommel, "axis", "infantry", "0704")
    pos = Position((inf,))
    assert check_unit_move(rommel, pos, inf.block, ["0704", "0705", "0706"], rommel=True).ok
    allied = one(rommel, "allied", "recon", "0704")
    pos = Position((allied,))
    assert refused(check_unit_move(rommel, pos, allied.block, ["0704", "0705"], rommel=True)) == ("6.3", "not-axis")


@pytest.mark.rule("6.0")
def test_r6_0_path_must_be_connected_and_start_at_the_unit(rommel: RommelPack) -> None:
    recon = one(rommel, "axis", "recon", "0704")
    pos = Position((recon,))
    assert refused(check_unit_move(rommel, pos, recon.block, ["0704", "0706"])) == ("6.0", "not-adjacent")
    assert refused(check_unit_move(rommel, pos, recon.block, ["0705", "0706"])) == ("5.1", "wrong-start")
    assert refused(check_unit_move(rommel, pos, "no-such", ["0704"])) == ("5.1", "not-on-map")


@pytest.mark.rule("11.1")
def test_r11_1_disrupted_units_do_not_move(rommel: RommelPack) -> None:
    recon = Unit(next(blocks(rommel, "axis", "recon")), "0704", disrupted=True)
    assert refused(check_unit_move(rommel, Position((recon,)), recon.block, ["0704", "0705"])) == (
        "11.1",
        "disrupted",
    )


# --- §7 engaging, hexside limits, disengaging --------------------------------------------------------------------


@pytest.mark.rule("7.0")
def test_r7_0_engaging_stops_the_move(rommel: RommelPack) -> None:
    recon = one(rommel, "axis", "recon", "0704")
    enemy = one(rommel, "allied", "infantry", "0705")
    pos = Position((recon, enemy))
    assert check_unit_move(rommel, pos, recon.block, ["0704", "0705"]).ok
    assert refused(check_unit_move(rommel, pos, recon.block, ["0704", "0705", "0706"])) == ("7.0", "after-stop")


def sollum_demo(pack: RommelPack) -> tuple[Position, list[Unit]]:
    """§19 demo deployment (the pack's ``demo-1940``): Axis 1 in Bardia, 4 in Ft. Capuzzo, 3 in Sidi Omar; the
    Allied unit in Sollum. The Axis units come in that order."""
    demo = pack.scenario("demo-1940")
    axis = [
        Unit(b, at(pack, place))
        for place in ("bardia", "ft-capuzzo", "sidi-omar")
        for d in demo.axis.deployments
        if d.where == (place,)
        for b in d.blocks
    ]
    sollum = next(d for d in demo.allied.deployments if d.where == ("sollum",))
    return Position((*axis, Unit(sollum.blocks[0], at(pack, "sollum")))), axis


@pytest.mark.rule("7.1")
def test_r7_1_gap_limit_one_unit_per_phase(rommel: RommelPack) -> None:
    pos, axis = sollum_demo(rommel)
    capuzzo, sollum = at(rommel, "ft-capuzzo"), at(rommel, "sollum")
    first, second = axis[1], axis[2]
    paths = {first.block: [capuzzo, sollum], second.block: [capuzzo, sollum]}
    assert refused(check_group_move(rommel, pos, "axis", capuzzo, paths)) == ("7.1", "hexside-limit")
    assert check_group_move(rommel, pos, "axis", capuzzo, {first.block: [capuzzo, sollum]}).ok
    used = {hexside_id(capuzzo, sollum): 1}
    verdict = check_group_move(
        rommel, pos, "axis", capuzzo, {second.block: [capuzzo, sollum]}, MoveOptions(engaged=used)
    )
    assert refused(verdict) == ("7.1", "hexside-limit")  # the phase's count carries over between Moves
    assert check_group_move(rommel, pos, "axis", capuzzo, {second.block: [capuzzo, sollum]}).ok  # Blitz: reset


@pytest.mark.rule("19.0")
def test_r19_0_demo_regroup_into_sollum_three_units_at_most(rommel: RommelPack) -> None:
    """The first Axis turn: a Regroup into Sollum with the Command Point at Ft. Capuzzo; at most three units can
    enter, through the three gaps."""
    pos, axis = sollum_demo(rommel)
    capuzzo, sollum, omar = at(rommel, "ft-capuzzo"), at(rommel, "sollum"), at(rommel, "sidi-omar")
    bardia = at(rommel, "bardia")
    movers = {axis[0].block: [bardia, sollum], axis[1].block: [capuzzo, sollum], axis[5].block: [omar, sollum]}
    assert check_regroup_move(rommel, pos, "axis", capuzzo, sollum, movers).ok
    for extra in (axis[2], axis[6]):  # a fourth unit has no gap left
        four = {**movers, extra.block: [extra.hex, sollum]}
        assert refused(check_regroup_move(rommel, pos, "axis", capuzzo, sollum, four)) == ("7.1", "hexside-limit")
    habata = at(rommel, "bir-habata")
    around = {axis[5].block: [omar, habata, sollum]}
    assert refused(check_regroup_move(rommel, pos, "axis", capuzzo, sollum, around))[0] in ("1.4", "6.1")


@pytest.mark.rule("19.0")
def test_r19_0_demo_two_units_attack_buq_buq_across_one_clear_hexside(rommel: RommelPack) -> None:
    sollum, buq = at(rommel, "sollum"), at(rommel, "buq-buq")
    infantry = list(blocks(rommel, "axis", "infantry"))[:3]
    allied = Unit(next(blocks(rommel, "allied", "armor")), buq)
    pos = Position((*(Unit(b, sollum) for b in infantry), allied))
    two = {b: [sollum, buq] for b in infantry[:2]}
    assert check_group_move(rommel, pos, "axis", sollum, two).ok
    three = {b: [sollum, buq] for b in infantry}
    assert refused(check_group_move(rommel, pos, "axis", sollum, three)) == ("7.1", "hexside-limit")


@pytest.mark.rule("7.2")
def test_r7_2_disengaging_only_through_friendly_hexsides(rommel: RommelPack) -> None:
    buq, barrani, sollum = at(rommel, "buq-buq"), at(rommel, "sidi-barrani"), at(rommel, "sollum")
    allied = Unit(next(blocks(rommel, "allied", "recon")), buq)
    axis = one(rommel, "axis", "infantry", buq)
    crossed = {hexside_id(buq, sollum): "axis"}
    pos = Position((allied, axis), battles={buq: Battle("allied", crossed)})
    assert check_unit_move(rommel, pos, allied.block, [buq, barrani]).ok
    assert refused(check_unit_move(rommel, pos, allied.block, [buq, sollum])) == ("7.2", "enemy-hexside")
    other = one(rommel, "axis", "infantry", barrani, 1)
    pos = Position((allied, axis, other), battles={buq: Battle("allied", crossed)})
    assert refused(check_unit_move(rommel, pos, allied.block, [buq, barrani])) == ("7.2", "into-enemy")


# --- §5 group and regroup moves ----------------------------------------------------------------------------------


@pytest.mark.rule("5.1")
def test_r5_1_group_move_disperses_from_one_hex(rommel: RommelPack) -> None:
    a, b = one(rommel, "axis", "recon", "0704"), one(rommel, "axis", "recon", "0704", 1)
    c = one(rommel, "axis", "infantry", "0705")
    pos = Position((a, b, c))
    assert check_group_move(rommel, pos, "axis", "0704", {a.block: ["0704", "0604"], b.block: ["0704", "0804"]}).ok
    assert refused(check_group_move(rommel, pos, "axis", "0704", {c.block: ["0705", "0706"]})) == (
        "5.1",
        "not-in-group",
    )
    assert refused(check_group_move(rommel, pos, "axis", "0704", {})) == ("5.1", "no-movers")
    enemy = one(rommel, "allied", "recon", "0704")
    pos = Position((a, enemy), battles={"0704": Battle("axis")})
    assert refused(check_group_move(rommel, pos, "axis", "0704", {enemy.block: ["0704", "0604"]})) == (
        "5.0",
        "not-own-unit",
    )


@pytest.mark.rule("5.2")
def test_r5_2_regroup_move(rommel: RommelPack) -> None:
    """§5.2 example: units in or next to the Command Point move to one destination; distance counts from each
    unit's own hex, and a unit that cannot reach the destination cannot take part."""
    recon = one(rommel, "axis", "recon", "0704")
    inf = one(rommel, "axis", "infantry", "0705")
    art = Unit(next(blocks(rommel, "axis", "artillery")), "0605")
    far = one(rommel, "axis", "recon", "0707", 1)
    pos = Position((recon, inf, art, far))
    cp, dest = "0705", "0706"
    assert check_regroup_move(
        rommel, pos, "axis", cp, dest, {recon.block: ["0704", "0705", dest], inf.block: ["0705", dest]}
    ).ok
    assert refused(check_regroup_move(rommel, pos, "axis", cp, dest, {art.block: ["0605", "0705", dest]})) == (
        "6.1",
        "over-budget",
    )
    assert refused(check_regroup_move(rommel, pos, "axis", cp, dest, {far.block: ["0707", dest]})) == (
        "5.2",
        "not-near-command-point",
    )
    assert refused(check_regroup_move(rommel, pos, "axis", cp, dest, {recon.block: ["0704", "0705"]})) == (
        "5.2",
        "not-to-destination",
    )
    enemy_cp = Position((recon, one(rommel, "allied", "recon", "0804")))
    assert refused(check_regroup_move(rommel, enemy_cp, "axis", "0804", "0704", {recon.block: ["0704"]})) == (
        "5.2",
        "enemy-command-point",
    )


@pytest.mark.rule("6.4")
def test_r6_4_forced_march_one_hex_more(rommel: RommelPack) -> None:
    inf = one(rommel, "axis", "infantry", "0704")
    pos = Position((inf,))
    two = ["0704", "0705", "0706"]
    assert refused(check_unit_move(rommel, pos, inf.block, two)) == ("6.1", "over-budget")
    assert check_unit_move(rommel, pos, inf.block, two, forced=True).ok
    assert refused(check_unit_move(rommel, pos, inf.block, [*two, "0707"], forced=True)) == ("6.1", "over-budget")


@pytest.mark.rule("19.0")
def test_r19_0_demo_forced_march_from_sidi_omar_to_sofafi(rommel: RommelPack) -> None:
    """Third Axis turn: three units move out of Sidi Omar, two to Sofafi (the non-motorized one by a successful
    Forced March), the third to Bir Habata."""
    omar, habata, sofafi = at(rommel, "sidi-omar"), at(rommel, "bir-habata"), at(rommel, "sofafi")
    inf, mot, other = (
        one(rommel, "axis", "infantry", omar),
        one(rommel, "axis", "mot_inf", omar),
        one(rommel, "axis", "infantry", omar, 1),
    )
    pos = Position((inf, mot, other))
    paths = {inf.block: [omar, habata, sofafi], mot.block: [omar, habata, sofafi], other.block: [omar, habata]}
    assert check_group_move(rommel, pos, "axis", omar, paths, MoveOptions(forced=frozenset({inf.block}))).ok
    assert refused(check_group_move(rommel, pos, "axis", omar, paths)) == ("6.1", "over-budget")


@pytest.mark.rule("6.1")
def test_r6_1_claimed_speed_of_a_hidden_block(rommel: RommelPack) -> None:
    """A hidden block's move is checked at the speed its owner claims (the audit checks the claim later)."""
    inf = one(rommel, "axis", "infantry", "0704")
    pos = Position((inf,))
    assert check_unit_move(rommel, pos, inf.block, ["0704", "0705", "0706"], speed=2).ok
    options = MoveOptions(speeds={inf.block: 1})
    assert refused(check_group_move(rommel, pos, "axis", "0704", {inf.block: ["0704", "0705", "0706"]}, options)) == (
        "6.1",
        "over-budget",
    )


@pytest.mark.rule("6.3")
def test_r6_3_rommel_move_covers_every_unit_of_the_move(rommel: RommelPack) -> None:
    a, b = one(rommel, "axis", "infantry", "0704"), one(rommel, "axis", "infantry", "0704", 1)
    pos = Position((a, b))
    paths = {a.block: ["0704", "0705", "0706"], b.block: ["0704", "0804", "0904"]}
    assert check_group_move(rommel, pos, "axis", "0704", paths, MoveOptions(rommel=True)).ok
    assert refused(check_group_move(rommel, pos, "axis", "0704", paths)) == ("6.1", "over-budget")


@pytest.mark.rule("7.2")
def test_r7_2_no_re_engaging_after_disengaging(rommel: RommelPack) -> None:
    recon = one(rommel, "allied", "recon", "1705")
    axis = one(rommel, "axis", "infantry", "1705")
    other = one(rommel, "axis", "infantry", "1905", 1)
    pos = Position((recon, axis, other), battles={"1705": Battle("allied")})
    assert check_unit_move(rommel, pos, recon.block, ["1705", "1805"]).ok
    assert refused(check_unit_move(rommel, pos, recon.block, ["1705", "1805", "1905"])) == ("7.2", "re-engage")


@pytest.mark.rule("8.1")
def test_r8_1_battle_hexsides_belong_to_the_last_to_cross(rommel: RommelPack) -> None:
    side = hexside_id("1705", "1805")
    fought = Battle("allied", {side: "axis"})
    assert fought.owner(side) == "axis"
    assert fought.owner(hexside_id("1705", "1605")) == "allied"  # never crossed: the Defender's
