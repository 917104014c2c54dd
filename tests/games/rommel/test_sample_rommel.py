"""The Rommel sample game (sample_games/rommel): Crusader by packets between scripted sensible players, to the
victory determination and a complete audit; re-made byte for byte by its script (slow), verified by ``make demo``
through PBEM_GAMES."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from itertools import takewhile
from pathlib import Path

import pytest

from pbem.games.rommel import battle, mapspec, scenarios
from pbem.games.rommel.audit import audit
from pbem.games.rommel.moves import i_tanks, known_block
from pbem.games.rommel.options import cost_of_moves
from pbem.games.rommel.ruleset import RULESET
from pbem.games.rommel.state import RommelState, cv_slot
from pbem.kit import conformance
from pbem.log.store import read_log
from pbem.report.chronicle import chronicle
from pbem.report.context import aar_context, turns_of
from pbem.rules.contract import Event, UnitView
from pbem.verify.pipeline import verify_lines
from tests.games.rommel.rules_driver import R, Table
from tests.games.rommel.test_minefields_rommel import entered_sidi_omar_neighbour
from tests.games.rommel.test_probe_blitz_rommel import partial
from tests.games.rommel.test_redeploy_rommel import allied_buildup
from tests.games.rommel.test_rout_refuse_rommel import attacking
from tests.samples import ROOT, assert_same_folder, mailed, sample_script

SAMPLE = ROOT / "sample_games" / "rommel"
TARGET = "pbem.games.rommel.ruleset:RULESET"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True)
def _rommel_loadable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_GAMES", TARGET)


def _events() -> tuple[list[bytes], list[Event], RommelState]:
    lines = read_log(SAMPLE / "game.jsonl")[0]
    report, verifier = verify_lines(lines)
    assert report.valid and report.audit == "complete" and report.result is not None, report.first_error
    assert verifier.game is not None and isinstance(verifier.game.state, RommelState)
    return lines, [e.event for e in verifier.game.events], verifier.game.state


@pytest.mark.rule("17.0")
def test_the_sample_is_crusader_by_packets_to_a_victory_and_a_complete_audit() -> None:
    lines, events, state = _events()
    genesis = json.loads(lines[0])["body"]
    assert genesis["scenario"] == "crusader" and [s["seat"] for s in genesis["roster"]] == ["axis", "allied"]
    kinds = {e.kind for e in events}
    assert {"deployed", "moved", "battle_begun", "fired", "unit_reduced", "initiative_decided"} <= kinds
    assert [e.data["month"] for e in events if e.kind == "month_ended"] == [8, 9, 10]  # every Month of 18.4
    assert [e.kind for e in events if e.kind == "game_over"] == ["game_over"]
    assert state.phase == "over" and state.outcome and state.forfeit is None
    assert audit(state) is None  # every public claim (speeds, strengths) holds under full information
    # every entry but the creator's first reached the other seat in a packet, as mailed
    assert set(lines[1:]) <= mailed(SAMPLE)


@pytest.mark.rule("4.0")
def test_the_sensible_players_pay_exactly_for_the_turns_they_use_and_bluff_their_passes() -> None:
    """Each turn's real cards are what its Moves and battles cost (§4.1: a Basic Turn for one Move or a battle, an
    Offensive Turn for two, §4.4: a Blitz Turn for Blitz Movement), never more; a Pass is often a committed dummy
    (§3.42: bluff)."""
    _, events, state = _events()
    pack = state.pack
    fought = blitz = False
    bluffs = blitzes = 0
    for event in events:
        fought |= event.kind == "battle_begun"
        blitz |= event.kind == "blitz_begun"
        if event.kind == "supply_revealed":
            real, moves = int(event.data["real"]), int(event.data["moves"])
            cost = max(cost_of_moves(pack, moves), pack.limit("cost_basic") if fought else 0)
            assert real == (pack.limit("cost_blitz") if blitz else cost), event
            bluffs += real == 0 and len(event.data["cards"]) > 0
            blitzes += blitz
            fought = blitz = False
    assert bluffs > 0 and blitzes > 0


@pytest.mark.rule("7.2")
def test_a_beaten_player_disengages_from_a_battle() -> None:
    """The sensible players retreat when beaten: some Group Move sets out from a battle hex (§7.2)."""
    lines = read_log(SAMPLE / "game.jsonl")[0]
    before: RommelState | None = None
    retreats = []
    for game, number in conformance.reachable(lines):
        entry = json.loads(lines[number - 1])
        if before is not None and entry["type"] == "action":
            retreats += [
                a for a in entry["body"]["actions"] if a["action"] == "group" and a["origin"] in before.battles
            ]
        assert isinstance(game.state, RommelState)
        before = game.state
    assert retreats


@pytest.mark.rule("10.5")
def test_the_sensible_players_pursue_with_every_die_refuse_when_outweighed_and_withdraw_whole() -> None:
    """§10.5: a first Pursuit Fire from a hex rolls every die its pursuers have (judged on the disclosed game); §8.4:
    the players both refuse and accept battle; §5.3: a unit that stepped in a Withdrawal is never eliminated by it."""
    _, events, state = _events()  # the disclosed game: every pursuer's identity is known
    first = [c for c in state.claims if c.kind == "pursuit" and not c.before]
    assert first
    for claim in first:
        blocks = [known_block(state, t) for t in claim.group]
        assert None not in blocks, claim
        units = [battle.battle_unit(state.pack, str(b), i_tanks=i_tanks(state)) for b in blocks]
        assert claim.value == sum(battle.pursuit_dice(state.pack, claim.against, [u]) for u in units), claim
    assert {"battle_refused", "battle_accepted", "pursuit_losses", "rout_attrition"} <= {e.kind for e in events}
    for n, event in enumerate(events):
        if event.kind == "withdrawal_ended":
            gone = takewhile(lambda e: e.kind == "unit_eliminated", events[n + 1 :])
            assert not {str(e.data["unit"]) for e in gone} & set(event.data["paths"]), event


def _decide(table: Table) -> list[dict[str, object]]:
    """The sensible players answer every pending decision of ``table`` (each seat its own), as the script plays."""
    players = {seat: sample_script("make_rommel").SensiblePlayer() for seat in ("axis", "allied")}
    chosen: list[dict[str, object]] = []
    while table.state.pending or table.state.turn.stage == "mines":
        seat = RULESET.to_act(table.state)[0]
        legal = table.legal(seat)
        act = players[seat].choose(table.state, seat, legal, RULESET)
        assert act in legal
        table.do(seat, act)
        chosen.append(act)
    return chosen


@pytest.mark.rule("10.2")
@pytest.mark.parametrize(("defender", "refuses"), [(1, True), (4, False)])
def test_the_sensible_players_refuse_battle_when_outweighed_and_withdraw_every_unit(
    defender: int, refuses: bool
) -> None:
    """§8.4, §10.2: Sollum's defender (CV ``defender``) refuses Italian infantry of CV 3 only when outweighed
    :data:`BEATEN` times; a refusal ends with the unit withdrawn, Disrupted, not eliminated (§5.3)."""
    table = attacking()
    table.state = table.state.with_hidden(cv_slot("allied-01"), "allied", defender, known=True).with_hidden(
        cv_slot("axis-02"), "axis", 3, known=True
    )
    chosen = _decide(table)
    assert (chosen[0]["action"] == "refuse") is refuses
    tok = table.state.tokens["allied-01"]
    assert tok.status == "map" and (tok.hex != "1605") is refuses and tok.disrupted is refuses
    if refuses:
        assert [a["action"] for a in chosen] == ["refuse", "slowest", "pursue", "withdraw", "end_withdrawal"]


@pytest.mark.rule("10.41")
def test_the_sensible_players_probe_a_rearguard_they_outweigh() -> None:
    """§10.41: two Allied blocks provoke Probe Combat against a Rearguard of CV 1."""
    table = partial([])
    legal = table.legal("allied")
    assert sample_script("make_rommel").SensiblePlayer().choose(table.state, "allied", legal, RULESET) == {
        "action": "probe",
        "provoke": True,
    }


@pytest.mark.rule("14.2")
def test_the_sensible_players_reveal_every_minefield_entered() -> None:
    table = entered_sidi_omar_neighbour()
    assert _decide(table) == [{"action": "reveal_mine", "mine": "mine/allied-1"}, {"action": "mines_done"}]
    assert table.state.minefields == ("1606",)


@pytest.mark.rule("18.0")
def test_set_up_supply_answers_as_a_fresh_search_does() -> None:
    """§18.0, §12: the set-up's supplied hexes, reused while a side adds its own blocks, are always those a fresh
    search finds, hex by hex, through the sample's whole set-up."""
    lines = read_log(SAMPLE / "game.jsonl")[0]
    checked = 0
    for game, _ in conformance.reachable(lines):
        state = game.state
        assert isinstance(state, RommelState)
        if state.phase != "setup":
            continue
        for side in ("axis", "allied"):
            token = scenarios.next_token(state, side)
            group = scenarios.deployment(state, token) if token is not None else None
            if group is None:
                continue
            area = sorted(scenarios.area_hexes(state, group))
            fresh = scenarios._supplied_map(state, side)
            assert {h for h in area if scenarios.supplied_hexes(state, side, (h,))} == fresh.intersection(area)
            checked += 1
    assert checked >= 50  # every deployment of the scenario


def test_every_report_page_and_replay_frame_lists_the_public_card_counts() -> None:
    """§16.6: hand sizes and the deck are public; the real/dummy split only for the hand's owner. A battle hex
    carries a Battle marker (§8) and the story goes Player-Turn by Player-Turn (§3.4)."""
    _, _, state = _events()
    look = RULESET.presentation(state.pack)
    battling = state.model_copy(update={"phase": "turn", "active": "allied"})
    observer = RULESET.view(battling, "@observer")
    rows = dict(look.status(observer))
    hands = observer.facts["hands"]
    cards = f"hands Axis {hands['axis']}, Allied {hands['allied']} · deck {observer.facts['deck']}"
    assert rows["Supply cards"] == cards
    assert "Your hand" not in rows
    own = dict(look.status(RULESET.view(battling, "axis")))
    assert own["Your hand"].startswith(f"{hands['axis']} cards, ")
    assert look.stage(observer) == f"Allied Player-Turn · {cards}"  # the section's and its pages' running head
    with_battle = observer.model_copy(update={"facts": {**observer.facts, "battles": ["1406"]}})
    assert [(m.location, m.text) for m in look.markers(with_battle)] == [("1406", "Battle")]


def test_a_disrupted_enemy_block_shows_its_public_state_and_nothing_else() -> None:
    """§11: face down is public; the block's identity and CV are not."""
    _, _, state = _events()
    hidden = UnitView(id="axis-01", name="", side="axis", location="1203", hidden=True, extra={"disrupted": True})
    face = mapspec.face(state.pack, hidden)
    assert face.marks == ("D",) and face.title == "" and face.symbol is None and face.value == "?"


def test_a_bare_brigade_number_is_labelled_with_its_division() -> None:
    """§2.1: labels print the division over a brigade's number; 2 NZ's 4 Brigade is not 7 Armoured's 4."""
    _, _, state = _events()
    pack = state.pack
    assert mapspec.designation(pack.block("nz-2-4")) == "2 NZ/4"
    assert mapspec.designation(pack.block("uk-7ad-4")) == "7 Armd/4"
    assert mapspec.designation(pack.block("de-5pz")) == "5 Pz"  # a name of its own stays as it is
    assert mapspec.block_face(pack, "nz-2-4", cv=3).title == "2 NZ/4"


@pytest.mark.slow
def test_the_script_recreates_the_committed_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = sample_script("make_rommel")
    monkeypatch.setattr(module, "HERE", tmp_path / "rommel")
    module.main()
    assert_same_folder(tmp_path / "rommel", SAMPLE)


def test_the_first_months_start_map_shows_the_deployed_position() -> None:
    """The set-up (§18.0) has nothing of its own to tell and is told with Month 8: the map of Month 8's start shows
    every block as deployed, for every viewer (an observer sees them concealed), not the empty board before it."""
    lines = read_log(SAMPLE / "game.jsonl")[0]
    chron = chronicle(lines)
    first = turns_of(chron, "@observer")[0]
    assert first.periods[0] == "setup" and first.main == "month-8"
    deployed = chron.view(None, "@observer", state=chron.state_before("month-8"))
    assert deployed is not None
    on_map = sorted(u.id for u in deployed.units if u.location is not None)
    assert len(on_map) > 30
    for viewer in ("@observer", "axis"):
        start = aar_context(chron, viewer).turns[0].start_map
        assert start is not None
        drawn = sorted(
            g.get("data-unit", "") for g in ET.fromstring(str(start)).iter(f"{SVG}g") if g.get("class") == "unit"
        )
        assert drawn == on_map, viewer


@pytest.mark.rule("16.51")
@pytest.mark.rule("16.52")
@pytest.mark.rule("16.55")
@pytest.mark.rule("4.4")
def test_the_sample_shows_redeployment_refit_minefields_and_blitz_turns() -> None:
    """The sensible players Redeploy (§16.51), Return for Refit (§16.52), build Minefields that the enemy then meets
    (§16.55, §14.2) and play Blitz Turns (§4.4) in the sample."""
    _, events, _ = _events()
    kinds = {e.kind for e in events}
    assert {"redeployed", "returned_for_refit", "minefield_built", "minefield_revealed", "blitz_begun"} <= kinds


@pytest.mark.rule("16.5")
def test_the_sensible_buildup_mines_the_front_redeploys_the_rear_then_buys_cards() -> None:
    """§16.55: one Minefield, in the stack nearest the enemy; §16.51: Base units Redeployed towards the front, never
    within STANDOFF hexes of the enemy, for at most REDEPLOY_BP BP; the rest on cards (§16.5)."""
    script = sample_script("make_rommel")
    table = allied_buildup(bp=20)
    player = script.SensiblePlayer()
    chosen: list[dict[str, object]] = []
    while R.to_act(table.state) == ("allied",) and table.state.phase == "buildup":
        act = player.choose(table.state, "allied", table.legal("allied"), RULESET)
        chosen.append(act)
        table.do("allied", act)
    names = [str(a["action"]) for a in chosen]
    assert names[0] == "build_minefield" and names.count("build_minefield") == 1
    assert names[-1] == "end_buildup" and "redeploy" in names
    grid = table.state.pack.map.grid
    enemy = [table.state.tokens[t].hex for t in table.state.on_map("axis")]
    for act in chosen:
        if act["action"] == "redeploy":
            assert min(grid.distance(str(act["to"]), str(e)) for e in enemy) > script.STANDOFF
    assert names.count("redeploy") <= script.REDEPLOY_BP
