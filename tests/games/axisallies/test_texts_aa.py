"""What players read of an Axis & Allies game: combat events with text in printed names and the generic combat
record reports read (rounds of fire, hits, casualties by piece type), units keyed by their power (the key of the
presentation's colours and of the losses table), and a set-up summary naming the power that sets up."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.games.axisallies.ruleset import RULESET
from pbem.games.axisallies.state import AxisState
from pbem.log.store import read_log
from pbem.report.chronicle import chronicle
from pbem.report.context import _losses
from pbem.rules.contract import OMNISCIENT, Event
from pbem.rules.records import combat_record
from pbem.verify.pipeline import verify_lines
from tests.games.axisallies.rules_helpers import start

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "sample_games" / "axis-allies" / "rommels-last-push-2p" / "game.jsonl"
TOLD = ("combat_started", "sea_combat_started", "dice_rolled", "casualty_chosen", "territory_captured")


@pytest.fixture(scope="module")
def played() -> tuple[AxisState, list[Event]]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_GAMES", "pbem.games.axisallies.ruleset:RULESET")
        report, verifier = verify_lines(read_log(SAMPLE)[0])
    assert report.valid, report.first_error
    assert verifier.game is not None and isinstance(verifier.game.state, AxisState)
    return verifier.game.state, [e.event for e in verifier.game.events]


@pytest.mark.rule("23")
def test_every_combat_ends_with_a_record_of_its_rounds_hits_and_losses(played: tuple[AxisState, list[Event]]) -> None:
    state, events = played
    powers = {p.id for p in state.pack.powers}
    combats = 0
    lost: dict[str, int] = {}
    for event in events:
        if event.kind == "casualty_chosen" and not str(event.data["unit"]).startswith("convoy:"):
            power = str(event.data["unit"]).split(":")[0]
            lost[power] = lost.get(power, 0) + 1
        if event.kind != "combat_resolved":
            continue
        combats += 1
        record = combat_record(event)
        assert record is not None and record.location == event.data["space"] and event.text
        assert {s.side for r in record.rounds for s in r.steps} <= powers
        assert {h.side for h in record.hits} | {loss.side for loss in record.losses} <= powers
        assert record.winner is None or record.winner in powers
        if record.result == "captured":  # p.23: the attacker took the territory and won
            assert record.winner in powers
        for round_ in record.rounds:
            for step in round_.steps:
                assert all(len(f.dice) == f.count and f.needs is not None for f in step.fire)
        for loss in record.losses:
            lost[loss.side] -= loss.pieces
    assert combats > 0
    assert set(lost.values()) <= {0}, "every casualty chosen is a loss in its combat's record"


@pytest.mark.rule("21")
def test_combat_events_speak_in_printed_names_not_ids(played: tuple[AxisState, list[Event]]) -> None:
    state, events = played
    ids = {u.type for u in state.pack.units if "_" in u.type}
    told = [e for e in events if e.kind in TOLD]  # the engine's dice_rolled (data "rolls") quotes the purposes
    assert {e.kind for e in told} >= {"combat_started", "dice_rolled", "casualty_chosen", "territory_captured"}
    for event in told:
        assert event.text, event.kind
        assert not any(re.search(rf"\b{i}\b", event.text) for i in ids), event.text
        if event.kind == "dice_rolled" and "groups" in event.data:
            for g in event.data["groups"]:
                name = f"{state.pack.power(g['power']).name} {state.pack.unit(g['power'], g['type']).name}"
                assert f"{name} hit on {g['needs']} or less" in event.text


def _raw_ids(state: AxisState) -> set[str]:
    """Every id a player must never read: powers, unit types, territories and sea zones."""
    pack = state.pack
    return {
        *(p.id for p in pack.powers),
        *(u.type for u in pack.units),
        *(t.id for t in pack.territories),
        *(z.id for z in pack.sea_zones),
    }


@pytest.mark.rule("21")
@pytest.mark.parametrize("players", [2, 4])
def test_every_dice_line_of_both_samples_reads_in_the_games_words(players: int) -> None:
    """The engine's dice lines quote the roll purposes the game signs: each purpose names spaces and pieces by
    their printed names, so no raw id (nor a roll's id in place of a purpose) reaches a player."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_GAMES", "pbem.games.axisallies.ruleset:RULESET")
        report, verifier = verify_lines(read_log(SAMPLE.parents[1] / f"rommels-last-push-{players}p" / "game.jsonl")[0])
    assert report.valid, report.first_error
    assert verifier.game is not None and isinstance(verifier.game.state, AxisState)
    ids = _raw_ids(verifier.game.state)
    lines = [e.event for e in verifier.game.events if e.event.kind == "dice_rolled" and "rolls" in e.event.data]
    assert lines
    for event in lines:
        for roll in event.data["rolls"]:
            assert roll["purpose"] and f"{roll['purpose']}: " in event.text, event.text
        words = set(re.findall(r"[A-Za-z0-9_]+", event.text))
        assert not words & ids, event.text


@pytest.mark.rule("21")
def test_event_data_stays_machine_readable(played: tuple[AxisState, list[Event]]) -> None:
    state, events = played
    casualty = next(e for e in events if e.kind == "casualty_chosen")
    power, type_ = str(casualty.data["unit"]).split(":")
    assert state.pack.unit(power, type_)
    record = combat_record(next(e for e in events if e.kind == "combat_resolved"))
    assert record is not None
    kinds = {f.kind for r in record.rounds for s in r.steps for f in s.fire}
    assert kinds <= {u.type for u in state.pack.units}


def test_units_belong_to_their_power_the_key_of_the_colours() -> None:
    state = start()
    look = RULESET.presentation(state.pack)
    assert look is not None
    view = RULESET.view(state, OMNISCIENT)
    assert view.units
    for unit in view.units:
        assert unit.side == unit.extra["power"]
        assert unit.side in look.style.sides


@pytest.mark.rule("9")
def test_the_set_up_summary_names_the_power_setting_up() -> None:
    state = start()
    assert state.phase == "setup"
    uk = state.pack.scenario("rommels_last_push").setup.variable_reinforcements[0].power
    assert RULESET.view(state, OMNISCIENT).summary == f"round {state.round}, {state.pack.power(uk).name}, setup"


def test_the_reports_losses_are_the_pieces_lost_in_combat_by_power(played: tuple[AxisState, list[Event]]) -> None:
    """A stack that shrinks may only have moved: the losses table counts the combat records' pieces, per power."""
    state, events = played
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_GAMES", "pbem.games.axisallies.ruleset:RULESET")
        chron = chronicle(read_log(SAMPLE)[0])
    losses = _losses(chron, OMNISCIENT)
    lost: dict[str, int] = {}
    for event in events:
        if event.kind == "casualty_chosen" and not str(event.data["unit"]).startswith("convoy:"):
            power = str(event.data["unit"]).split(":")[0]
            lost[power] = lost.get(power, 0) + 1
    by_power: dict[str, int] = {}
    for (side, _kind), (pieces, _gone) in losses.by_kind.items():
        by_power[side] = by_power.get(side, 0) + pieces
    assert by_power == lost and set(by_power) <= {p.id for p in state.pack.powers}
