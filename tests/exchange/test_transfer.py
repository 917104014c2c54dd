"""Export and import between players who each keep their own copy and exchange only packets."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem.errors import ExchangeError, PbemError
from pbem.exchange.packet import Packet, armour, find_packets
from pbem.exchange.transfer import export_packet, import_packets
from pbem.log.store import read_log
from pbem.verify.pipeline import verify_file
from tests.exchange.conftest import Correspondent, start_by_mail
from tests.helpers import Clock


def invited(tmp_path: Path) -> tuple[Correspondent, Correspondent]:
    """Red created the game and mailed it to Blue, who joined and mailed the join back."""
    red, blue = start_by_mail(tmp_path, Clock())
    result = blue.receive(red.send(blue))  # an invitation: Blue has no copy yet
    assert result.created
    blue.session_do(lambda s: [s.join()])
    red.receive(blue.send(red))
    return red, blue


def test_a_whole_game_by_packets_ends_with_identical_copies(tmp_path: Path) -> None:
    red, blue = invited(tmp_path)
    rng = random.Random(5)
    sent = 0
    while True:
        moved = False
        for me, other in ((red, blue), (blue, red)):
            if me.play(rng):
                packet = find_packets(armour(me.send(other)))[0]  # through the email-proof text form
                other.receive(packet)
                moved, sent = True, sent + 1
        if not moved:
            break
    assert red.path.read_bytes() == blue.path.read_bytes()
    report, _ = verify_file(red.path)
    assert report.valid and report.result is not None and report.audit == "complete"
    assert sent > 5


def test_export_holds_exactly_what_the_recipient_lacks(tmp_path: Path) -> None:
    red, blue = invited(tmp_path)
    red.session_do(lambda s: s.act([{"action": "choose_reserve", "value": 2}]))
    packet = red.send(blue)
    assert len(packet.lines) == 1 and b'"type":"action"' in packet.lines[0]
    everything = red.send(blue, everything=True)
    assert everything.lines == tuple(read_log(red.path)[0])


@pytest.mark.case("C1")
def test_a_forked_packet_is_refused_naming_both_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    red, blue = invited(tmp_path)
    honest = red.path.read_bytes()
    red.session_do(lambda s: s.act([{"action": "choose_reserve", "value": 2}]))
    first = red.send(blue)
    red.path.write_bytes(honest)  # Red restores an old copy and signs a different move at the same seq
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / "other-machine"))
    red.session_do(lambda s: s.act([{"action": "choose_reserve", "value": 3}]))
    second = red.send(blue)
    blue.receive(first)
    before = blue.path.read_bytes()
    with pytest.raises(PbemError) as refused:
        blue.receive(second)
    assert refused.value.code.id == "C006"
    ids = [line.split(b'"sig"')[0] for line in (first.lines[0], second.lines[0])]
    assert all(_id(p) in refused.value.message for p in (first, second)), refused.value.message
    assert blue.path.read_bytes() == before and ids[0] != ids[1]


def _id(packet: Packet) -> str:
    from pbem.log.entry import envelope

    return envelope(packet.lines[0]).id


def test_a_packet_imported_twice_is_a_harmless_no_op(tmp_path: Path) -> None:
    red, blue = invited(tmp_path)
    red.session_do(lambda s: s.act([{"action": "choose_reserve", "value": 2}]))
    packet = red.send(blue)
    blue.receive(packet)
    before = blue.path.read_bytes()
    again = import_packets(blue.path, [packet])
    assert again.stale and again.added == [] and again.duplicates == len(packet.lines)
    assert blue.path.read_bytes() == before


def test_another_games_packet_is_refused(tmp_path: Path) -> None:
    _, blue = invited(tmp_path)
    later = Clock()
    later.tick = 10_000  # the same players a day later: another genesis, another game
    other_red, _ = start_by_mail(tmp_path / "other", later)
    before = blue.path.read_bytes()
    with pytest.raises(ExchangeError) as refused:
        blue.receive(export_packet(read_log(other_red.path)[0], everything=True))
    assert refused.value.code.id == "X003" and blue.path.read_bytes() == before


def test_a_truncated_copy_is_told_to_ask_for_a_complete_export(tmp_path: Path) -> None:
    red, blue = invited(tmp_path)
    red.session_do(lambda s: s.act([{"action": "choose_reserve", "value": 2}]))
    blue.session_do(lambda s: s.act([{"action": "choose_reserve", "value": 1}]))
    red.receive(blue.send(red))
    red.session_do(lambda s: s.do_owed() + s.act([s.legal()[0]]))
    lines = blue.path.read_bytes().splitlines(keepends=True)
    blue.path.write_bytes(b"".join(lines[:-1]))  # Blue's copy lost its last entry
    with pytest.raises(ExchangeError) as refused:
        blue.receive(red.send(blue))
    assert refused.value.code.id == "X005" and "--all" in refused.value.message
    result = blue.receive(red.send(blue, everything=True))  # the remedy
    assert result.added and verify_file(blue.path)[0].valid


def test_a_tampered_entry_in_a_packet_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    red, blue = invited(tmp_path)
    red.session_do(lambda s: s.act([{"action": "choose_reserve", "value": 2}]))
    packet = red.send(blue)
    forged = Packet(
        packet.game, packet.sender, packet.recipient, (packet.lines[0].replace(b'"ts":"2026', b'"ts":"2027'),)
    )
    before = blue.path.read_bytes()
    with pytest.raises(PbemError) as refused:
        import_packets(blue.path, [forged])
    assert refused.value.code.id == "K001" and blue.path.read_bytes() == before


def test_an_invitation_without_a_genesis_cannot_create_a_log(tmp_path: Path) -> None:
    red, blue = invited(tmp_path)
    red.session_do(lambda s: s.act([{"action": "choose_reserve", "value": 2}]))
    with pytest.raises(ExchangeError) as refused:
        import_packets(tmp_path / "new.jsonl", [red.send(blue)])
    assert refused.value.code.id == "X005" and not (tmp_path / "new.jsonl").exists()


def test_cli_import_twice_is_a_no_op_and_surfaces_an_undo_request(tmp_path: Path) -> None:
    from pbem.cli import main
    from tests.cli.conftest import run_script

    red, blue = invited(tmp_path)
    red.session_do(lambda s: s.act([{"action": "choose_reserve", "value": 2}]))
    blue.receive(red.send(blue))
    blue.session_do(lambda s: s.act([{"action": "choose_reserve", "value": 2}]))
    red.receive(blue.send(red))
    red.session_do(lambda s: s.act([{"action": "pass"}]))
    red.session_do(lambda s: [s.request_undo()])
    packet_file = tmp_path / "from-red.pbem"
    packet_file.write_bytes(red.send(blue).to_file())
    first = run_script("import", blue.path, packet_file)
    assert first.code == 0, first.err
    assert f"pbem undo {blue.path} --key YOUR.key --accept" in first.out
    before = blue.path.read_bytes()
    again = run_script("import", blue.path, packet_file)
    assert again.code == 0, again.err
    assert "nothing new" in again.out and "nothing was changed" in again.out
    assert blue.path.read_bytes() == before
    assert main(["import", str(blue.path), str(packet_file), "--json"]) == 0
