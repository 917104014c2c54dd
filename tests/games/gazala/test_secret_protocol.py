"""Secret assignments (§5.5.2, notes §7.2 M3) through the real protocol: the conformance suite on all three scenarios
with the option on, and a player who commits an illegal marker, whom the public cannot see and the audit names."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from pbem.client.session import Clock, Entropy, Session, own_knowledge, start_game
from pbem.games.gazala.audit import audit
from pbem.games.gazala.state import GazalaState
from pbem.kit import conformance
from pbem.log import derive, hidden
from pbem.log.entry import seal
from pbem.replay.game import Game
from pbem.rules import registry
from pbem.rules.contract import Action
from pbem.verify.pipeline import Verifier, verify_lines
from tests.helpers import codes

TARGET = "pbem.games.gazala.ruleset:RULESET"
SCENARIOS = ("bir-hacheim", "opening-phase", "gazala-battles")
KEYS = {s: conformance.seat_key(s) for s in ("axis", "cw")}
BRISK = ("pass", "end_activation", "halt", "decline", "stand", "keep_roll", "decline_bonus", "forgo")


@pytest.fixture(autouse=True)
def _gazala_loadable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_GAMES", TARGET)


def brisk(seat: str, legal: list[Action], rng: conformance.Picker) -> Action:
    """A scripted player who mostly ends what it may end (a game of a few hundred entries) and organises at random."""
    quick = [a for a in legal if a["action"] in BRISK]
    return rng.choice(quick) if quick and rng.choice((True, True, False)) else rng.choice(legal)


@pytest.mark.rule("5.5.2")
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_play_outs_with_secret_assignments_conform(scenario: str) -> None:
    played = conformance.play_out(
        "gazala", scenario, {"secret_assignments": True}, random.Random(11), title=f"secret {scenario}", choose=brisk
    )
    report = played.verifier.report()
    assert report.valid and report.result is not None and report.audit == "complete", report.first_error
    rng = random.Random(11)
    organising = 0
    for replay, _ in conformance.reachable(played.lines):
        state = replay.state
        assert state is not None
        replay.ruleset.assert_invariants(state)
        if replay.waits_for_protocol() or replay.result is not None:
            continue
        for seat in replay.ruleset.to_act(state):
            if any(a["action"] == "place_marker" for a in replay.ruleset.legal_actions(state, seat)):
                organising += conformance.check_legal_matches_contains(replay.ruleset, state, seat, rng, mutations=2)
                conformance.check_choices(replay.ruleset, state, seat)
    conformance.check_deterministic(played.lines)
    assert conformance.check_viewer_hashes(played.lines, played.keys) > 0
    kinds = [e.event.kind for e in played.game.events]
    if scenario == "bir-hacheim":  # Ariete alone: no independent to assign, so no marker
        assert "marker_placed" not in kinds
    else:
        assert organising > 0 and "marker_placed" in kinds and "marker_revealed" in kinds
    final = played.game.state
    assert isinstance(final, GazalaState) and audit(final) is None and not final.markers


@dataclass
class Organising:
    """The Opening Phase played briskly in memory until the Axis may place its first marker."""

    lines: list[bytes]
    sessions: dict[str, Session]
    verifier: Verifier
    clock: Clock
    entropy: Entropy

    @property
    def game(self) -> Game:
        assert self.verifier.game is not None
        return self.verifier.game


def _to_the_organisation(rng: random.Random) -> Organising:
    ruleset = registry.get("gazala")
    clock, entropy = conformance.counter_clock(), conformance.counter_entropy("cheat")

    def knowledge(game_id: str, seat: str, number: int, epoch: Any) -> bytes | None:
        return own_knowledge(KEYS[seat])(game_id, seat, number, epoch)

    verifier, first = start_game(
        ruleset, "opening-phase", {s: k.public for s, k in KEYS.items()}, KEYS["axis"], options={},
        clock=clock, entropy=entropy, knowledge=knowledge,
    )  # fmt: skip
    lines = [e.line for e in first]
    sessions = {s: Session(None, k, verifier, clock=clock, entropy=entropy) for s, k in KEYS.items()}
    for session in sessions.values():
        if not session.book.joined:
            lines.append(session.join().line)
    game = verifier.game
    assert game is not None
    for _ in range(5000):
        for seat, session in sessions.items():
            lines.extend(e.line for e in session.do_owed())
            if game.state is None or game.waits_for_protocol() or seat not in game.ruleset.to_act(game.state):
                continue
            legal = game.ruleset.legal_actions(game.state, seat)
            if seat == "axis" and any(a["action"] == "place_marker" for a in legal):
                return Organising(lines, sessions, verifier, clock, entropy)
            lines.extend(e.line for e in session.act([brisk(seat, legal, rng)]))
    raise AssertionError("no Organisation Segment reached")


def _cheat(table: Organising, value: str) -> tuple[bytes, str, bytes]:
    """The Axis places a Dummy marker as far as the public can tell, but commits to ``value``: the line, the
    marker's slot and its salt."""
    axis = table.sessions["axis"]
    body, _ = axis._batch_body(table.game.clone(), [{"action": "place_marker", "formation": "15pz", "unit": "dummy"}])
    item = body["sealed"][0]
    salt = derive.salt(axis.secret, item["slot"], item["ver"])
    commit = hidden.commit_value(table.game.id, "axis", item["slot"], item["ver"], salt, value)
    enc = hidden.seal(derive.seal_key(axis.secret, item["slot"], item["ver"]), value, commit)
    body["sealed"] = [{**item, "commit": commit, "enc": enc}]
    return seal(axis.draft(table.game, "action", body), KEYS["axis"].private.sign).line, item["slot"], salt


def _permanent(table: Organising) -> str:
    state = table.game.state
    assert isinstance(state, GazalaState)
    return next(u.id for u in state.pack.units if u.side == "axis" and u.independent == "permanent")


@pytest.mark.rule("5.5.2")
def test_a_cheating_marker_passes_the_public_and_is_caught_at_the_audit() -> None:
    table = _to_the_organisation(random.Random(3))
    cheat, _, _ = _cheat(table, _permanent(table))
    forged = [*table.lines, cheat]
    assert verify_lines(forged)[0].valid  # the Commonwealth cannot see what the marker is...
    found, _ = verify_lines(forged, knowledge=own_knowledge(KEYS["axis"]))
    assert codes(found) == ["R001"]  # ...the audit names the entry, its seat and the rule
    finding = found.findings[0]
    assert (finding.line, finding.author, finding.rule) == (len(forged), "axis", "§5.5.2")


@pytest.mark.rule("5.5.2")
def test_the_commonwealth_replay_catches_the_cheating_marker_when_it_is_opened() -> None:
    """The honest side's own replay: the Axis forges on (its own client would refuse), the markers are opened at the
    end of the segment, and the rules record the illegal one, its slot and seat, for the audit."""
    table = _to_the_organisation(random.Random(3))
    permanent = _permanent(table)
    cheat, slot, salt = _cheat(table, permanent)
    view = Verifier(knowledge=own_knowledge(KEYS["cw"]))
    for number, line in enumerate([*table.lines, cheat], 1):
        assert not [f for f in view.feed(line, number) if f.severity == "error"]
    game = view.game
    assert game is not None and isinstance(game.state, GazalaState)
    cw = Session(None, KEYS["cw"], view, clock=table.clock, entropy=table.entropy)
    forger = Session(None, KEYS["axis"], view, clock=table.clock, entropy=table.entropy)

    def forge(kind: str, body: dict[str, Any]) -> None:
        line = seal(forger.draft(game, kind, body), KEYS["axis"].private.sign).line
        assert not [f for f in view.feed(line) if f.severity == "error"]

    legal = game.ruleset.legal_actions(game.state, "axis")
    ending = next(a for a in legal if a["action"] in ("schwerpunkt", "organised"))
    forge("action", forger._batch_body(game.clone(), [ending])[0])
    if game.state.admin == "cw_organisation":
        cw.act([{"action": "organised"}])
    assert game.state.admin == "markers" and game.state.hidden[slot].must_open
    forge(
        "hidden",
        {"opened": [{"slot": slot, "ver": 0, "salt": salt.hex(), "value": permanent, "secret": None}], "sealed": []},
    )
    state = game.state
    assert isinstance(state, GazalaState) and state.admin != "markers"
    found = audit(state)
    assert found is not None and (found.seat, found.slot, found.rule) == ("axis", slot, "5.5.2")
    assert state.units[permanent].assigned is None


@pytest.mark.slow
@pytest.mark.rule("5.5.2")
@pytest.mark.parametrize("seed", range(12, 18))
@pytest.mark.parametrize("scenario", SCENARIOS[1:])
def test_random_play_outs_with_secret_assignments_verify_and_audit_clean(scenario: str, seed: int) -> None:
    played = conformance.play_out("gazala", scenario, {"secret_assignments": True}, random.Random(seed))
    report = played.verifier.report()
    assert report.valid and report.result is not None and report.audit == "complete", report.first_error
    assert conformance.check_viewer_hashes(played.lines, played.keys) > 0
    state = played.game.state
    assert isinstance(state, GazalaState) and audit(state) is None and not state.markers
