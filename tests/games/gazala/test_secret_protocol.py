"""Secret assignments (§5.5.2, notes §7.2 M3) through the real protocol: the conformance suite on all three scenarios
with the option on, and a player who commits an illegal marker, whom the public cannot see and the audit names."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.client.session import Session, own_knowledge, start_game
from pbem.games.gazala.audit import audit
from pbem.kit import conformance
from pbem.log import derive, hidden
from pbem.log.entry import seal
from pbem.rules import registry
from pbem.rules.contract import Action
from pbem.verify.pipeline import verify_lines
from tests.helpers import codes

TARGET = "pbem.games.gazala.ruleset:RULESET"
SCENARIOS = ("bir-hacheim", "opening-phase", "gazala-battles")
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
    assert played.game.state is not None and audit(played.game.state) is None  # type: ignore[arg-type]


def _to_the_organisation(rng: random.Random) -> tuple[list[bytes], dict[str, Session], Any]:
    """The Opening Phase played briskly in memory until the Axis may place its first marker."""
    ruleset = registry.get("gazala")
    pairs = {s: conformance.seat_key(s) for s in ("axis", "cw")}
    clock, entropy = conformance.counter_clock(), conformance.counter_entropy("cheat")

    def knowledge(game_id: str, seat: str, number: int, epoch: Any) -> bytes | None:
        return own_knowledge(pairs[seat])(game_id, seat, number, epoch)

    verifier, first = start_game(
        ruleset, "opening-phase", {s: k.public for s, k in pairs.items()}, pairs["axis"], options={},
        clock=clock, entropy=entropy, knowledge=knowledge,
    )  # fmt: skip
    lines = [e.line for e in first]
    sessions = {s: Session(None, k, verifier, clock=clock, entropy=entropy) for s, k in pairs.items()}
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
                return lines, sessions, verifier
            lines.extend(e.line for e in session.act([brisk(seat, legal, rng)]))
    raise AssertionError("no Organisation Segment reached")


@pytest.mark.rule("5.5.2")
def test_a_cheating_marker_passes_the_public_and_is_caught_at_the_audit() -> None:
    lines, sessions, verifier = _to_the_organisation(random.Random(3))
    axis = sessions["axis"]
    game = verifier.game
    state = game.state
    permanent = next(u.id for u in state.pack.units if u.side == "axis" and u.independent == "permanent")
    honest = {"action": "place_marker", "formation": "15pz", "unit": "dummy"}
    body, _ = axis._batch_body(game.clone(), [honest])
    secret = axis.secret
    item = body["sealed"][0]
    salt = derive.salt(secret, item["slot"], item["ver"])
    commit = hidden.commit_value(game.id, "axis", item["slot"], item["ver"], salt, permanent)
    enc = hidden.seal(derive.seal_key(secret, item["slot"], item["ver"]), permanent, commit)
    body["sealed"] = [{**item, "commit": commit, "enc": enc}]
    cheat = seal(axis.draft(game, "action", body), conformance.seat_key("axis").private.sign)
    forged = [*lines, cheat.line]
    assert verify_lines(forged)[0].valid  # the Commonwealth cannot see what the marker is...
    found, _ = verify_lines(forged, knowledge=own_knowledge(conformance.seat_key("axis")))
    assert codes(found) == ["R001"] and found.findings[0].rule == "§5.5.2"  # ...the audit names the entry
