"""The opponent's moves since the player's last turn, drawn as arrows over the seat's map."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from pbem.log.store import read_log
from pbem.report.chronicle import chronicle
from pbem.report.svg import MapRenderer
from pbem.web.overlay import moves_of, with_arrows

SAMPLE = Path(__file__).resolve().parents[2] / "sample_games" / "battleaxe" / "game.jsonl"


def test_web_moves_become_arrows_over_the_map() -> None:
    chron = chronicle(read_log(SAMPLE)[0][:120])
    assert chron.presentation is not None and chron.final is not None
    renderer = MapRenderer(chron.presentation)
    events = [e for m in chron.moments for e in m.events]
    moves = moves_of(events, renderer)
    assert moves and all(src in renderer.regions and dst in renderer.regions for src, dst in moves)
    view = chron.view(chron.final, "axis")
    plain = renderer.render(view)
    drawn = with_arrows(plain, renderer, moves)
    root = ET.fromstring(drawn)  # still one well-formed drawing
    heads = root.findall(".//{http://www.w3.org/2000/svg}polygon[@class='news-move-head']")
    assert 0 < len(heads) <= len(moves)
    assert with_arrows(plain, renderer, []) == plain
