"""A verifier that cannot crash: malformed signed actions end in a code, and a game module's bugs in one R009.

* the mistyped-field repro of issue 10 (Battleaxe ``"areas": [["7"]]``) is R004 naming the field, in
  ``pbem verify`` and in the tournament table;
* a module that raises in any contract call gives one R009 finding naming the entry (line, author#seq);
* hypothesis: correctly signed entries whose actions are arbitrary JSON always end in a code (never an
  exception, never R008/R009) for every game (the three under construction through ``PBEM_GAMES``), with the
  game's own field names; a few hundred here, 10,000 per game with ``--slow``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.client.session import Session
from pbem.log.entry import seal
from pbem.log.keys import KeyPair
from pbem.rules import registry
from pbem.verify.pipeline import Verifier, verify_lines
from pbem.verify.tournament import verify_one
from tests.helpers import UNINSTALLED, Cli, Table, codes, first_choice

# --- prefixes: a game brought to a point where a seat must act -----------------------------------------------


def battleaxe_table(directory: Path) -> tuple[Table, str]:
    """Battleaxe after the Allied free set-up: the Allies choose their first Impulse."""
    table = Table.start(directory, "campaign", game="battleaxe", options={})
    while (legal := table.legal("allied")) and legal[0]["action"] == "place":
        table.act("allied", legal[0])
    return table, "allied"


def triad_table(directory: Path) -> tuple[Table, str]:
    """Triad after both secret reserves: red's first turn."""
    table = Table.start(directory, "duel")
    table.act("red", {"action": "choose_reserve", "value": 2})
    table.act("blue", {"action": "choose_reserve", "value": 3})
    table.settle()
    return table, "red"


def skirmish_table(directory: Path) -> tuple[Table, str]:
    """Skirmish after both secret deployments: red's first move."""
    table = Table.start(directory, "meeting", game="skirmish", options={"rounds": 4})
    table.act("red", {"action": "deploy", "s1": 2, "s2": 2, "s3": 2})
    table.act("blue", {"action": "deploy", "s1": 1, "s2": 2, "s3": 3})
    table.settle()
    return table, "red"


PREFIXES: dict[str, Callable[[Path], tuple[Table, str]]] = {
    "battleaxe": battleaxe_table,
    "triad": triad_table,
    "skirmish": skirmish_table,
    "rommel": first_choice("rommel", "demo-1940"),
    "gazala": first_choice("gazala", "opening-phase"),
    "axis-allies": first_choice("axis-allies", "rommels_last_push-2p"),
}


@dataclass
class Forger:
    """Signs action entries of ``seat`` on top of a verified prefix, and feeds each to a copy of its replay."""

    verifier: Verifier
    key: KeyPair
    template: dict[str, Any]
    words: list[str]
    names: list[str]
    fields: list[str]

    @classmethod
    def at(cls, table: Table, seat: str) -> Forger:
        verifier = verify_lines(table.lines())[1]
        assert verifier.report().valid
        game = verifier.game
        assert game is not None and game.state is not None
        session = Session(None, table.keys[seat], verifier, clock=table.clock, entropy=table.entropy)
        template = session.draft(game, "action", {})
        words: set[str] = set()
        for who in game.roster.players:
            for action in game.ruleset.legal_actions(game.state, who):
                words |= {str(v) for v in action.values() if isinstance(v, str)}
                words |= {x for v in action.values() if isinstance(v, list) for x in v if isinstance(x, str)}
        for unit in game.ruleset.view(game.state, "@all").units:
            words |= {unit.id, unit.location or ""}
        model = game.ruleset.actions
        names = sorted(m.model_fields["action"].default for m in model.__args__)
        fields = sorted({f for m in model.__args__ for f in m.model_fields} - {"action"})
        return cls(verifier, table.keys[seat], template, sorted(words), names, fields)

    def feed(self, actions: list[Any]) -> list[str]:
        unsigned = {**self.template, "body": {"actions": actions, "rolls": None, "sealed": [], "echo": []}}
        line = seal(unsigned, self.key.private.sign).line
        replay = self.verifier.clone()
        return [f.code for f in replay.feed(line, 999) if f.severity == "error"]


@pytest.fixture(scope="module", params=sorted(PREFIXES))
def forger(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Forger:
    with pytest.MonkeyPatch.context() as patch:
        directory = tmp_path_factory.mktemp(request.param)
        patch.setenv("PBEM_STATE_DIR", str(directory / "state"))
        patch.setenv("PBEM_GAMES", UNINSTALLED)
        table, seat = PREFIXES[request.param](directory)
        return Forger.at(table, seat)


# --- the repro of issue 10 -----------------------------------------------------------------------------------


def test_a_mistyped_battleaxe_field_is_r004_naming_the_field_in_verify_and_tournament(tmp_path: Path) -> None:
    table, seat = battleaxe_table(tmp_path)
    line = table.forge(seat, "action", {"actions": [{"action": "assault", "areas": [["7"]]}], "rolls": None,
                                        "sealed": [], "echo": []})  # fmt: skip
    lines = [*table.lines(), line]
    report = table.verify(lines)
    assert codes(report) == ["R004"]
    finding = report.findings[0]
    assert finding.line == len(lines) and finding.author == seat and "areas.0" in finding.message
    folder = tmp_path / "tournament"
    folder.mkdir()
    (folder / "game.jsonl").write_bytes(b"".join(x + b"\n" for x in lines))
    row = verify_one(folder / "game.jsonl")
    assert row.verdict == "invalid" and row.first_error is not None
    assert row.first_error.startswith(f"[R004] error line {len(lines)} ({seat}#")


# --- a module's bug is one finding --------------------------------------------------------------------------


@pytest.mark.parametrize("call", ["contains", "apply", "to_act", "resume", "period", "secret_fields", "result"])
def test_a_module_that_raises_gives_one_r009_naming_the_entry(
    duel: Table, monkeypatch: pytest.MonkeyPatch, call: str
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("division by zero in the module")

    monkeypatch.setattr(registry.get("triad"), call, broken)
    report = duel.verify()
    assert codes(report) == ["R009"]
    finding = report.findings[0]
    assert finding.line is not None and finding.author is not None and finding.seq is not None
    assert f"at line {finding.line} ({finding.author}#{finding.seq})" in finding.message
    assert "ZeroDivisionError" in finding.message and "bug in the game module" in finding.message
    row = verify_one(duel.path)
    assert row.verdict == "invalid" and row.first_error is not None and row.first_error.startswith("[R009]")


def test_pbem_verify_exits_4_for_a_module_bug(duel: Table, monkeypatch: pytest.MonkeyPatch, cli: Cli) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(registry.get("triad"), "apply", broken)
    run = cli("verify", duel.path)
    assert run.code == 4 and "Traceback" not in run.out + run.err and "[R009]" in run.out + run.err


def test_a_module_that_fails_to_load_its_data_gives_r009(duel: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(raw: bytes) -> Any:
        raise KeyError("terrain")

    monkeypatch.setattr(registry.get("triad"), "load_data", broken)
    report = duel.verify()
    assert codes(report) == ["R009"] and "while setting up the game" in report.findings[0].message


def test_a_module_that_crashes_on_import_is_r009(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pbem_boom_game.py").write_text("RULESET = 1 // 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PBEM_GAMES", "pbem_boom_game:RULESET")
    with pytest.raises(Exception) as raised:
        registry.get("boom")
    assert getattr(raised.value, "code", None) is not None and raised.value.code.id == "R009"  # type: ignore[attr-defined]
    assert registry.get("triad").id == "triad"  # a broken game does not break the others
    sys.modules.pop("pbem_boom_game", None)


# --- hypothesis: arbitrary JSON actions, correctly signed --------------------------------------------------

SAFE_TEXT = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=8)
INTEGERS = st.integers(-(2**53) + 1, 2**53 - 1)


def payloads(forger: Forger) -> st.SearchStrategy[list[Any]]:
    words = st.sampled_from(forger.words) | SAFE_TEXT
    values = st.recursive(
        st.none() | st.booleans() | INTEGERS | st.integers(-3, 70) | words,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(words, inner, max_size=3),
        max_leaves=8,
    )
    fields = st.sampled_from(forger.fields) | SAFE_TEXT  # the game's own field names, mistyped values
    action = st.builds(
        lambda name, rest: {"action": name, **rest},
        st.sampled_from(forger.names) | SAFE_TEXT,
        st.dictionaries(fields, values, max_size=4),
    )
    return st.lists(action | values, min_size=1, max_size=2)


def sweep(forger: Forger, examples: int) -> None:
    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        actions = data.draw(payloads(forger))
        found = forger.feed(actions)
        assert len(found) <= 1, found
        assert not set(found) & {"R008", "R009"}, (actions, found)

    run()


def test_signed_arbitrary_actions_always_end_in_a_code(forger: Forger) -> None:
    sweep(forger, 150)


@pytest.mark.slow
def test_signed_arbitrary_actions_always_end_in_a_code_10000(forger: Forger) -> None:
    sweep(forger, 10_000)


def test_a_presentation_that_raises_while_reporting_is_one_r009_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, cli: Cli, tmp_path: Path
) -> None:
    from pbem.games.skirmish.ruleset import SkirmishLook
    from tests.games.skirmish.play import aggressive_game

    table = aggressive_game(tmp_path)

    def broken(self: Any, unit: Any) -> Any:
        raise ValueError("no counter art")

    monkeypatch.setattr(SkirmishLook, "face", broken)
    line = cli("report", table.path, "-o", tmp_path / "report.html").assert_error("R009")
    assert "presentation.face" in line and "ValueError" in line and "bug in the game module" in line
    assert not (tmp_path / "report.html").exists()
