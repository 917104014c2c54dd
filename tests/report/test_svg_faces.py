"""The renderer's additions for the hex and block games: counted stacks, formation stripes, air-defense and truck
symbols, outlined and coloured labels, and owner tints; absent when a game does not ask for them."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import ClassVar

import pytest

from pbem.report.svg import PILE, MapRenderer, draw_face
from pbem.rules.contract import UnitView, View
from pbem.rules.maps import Label, MapSpec, Region
from pbem.rules.presentation import CounterFace, MapStyle, Presentation, SideStyle

SVG = "{http://www.w3.org/2000/svg}"
SIDES = {"a": SideStyle(name="A", fill="#cccccc", ink="#111111", control="#aa0000")}
STYLE = MapStyle(terrain={}, sides=SIDES)


def drawn(face: CounterFace, style: MapStyle = STYLE) -> ET.Element:
    root = ET.Element("g")
    draw_face(root, face, style)
    return root


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == name]


@pytest.mark.parametrize("count", [1, 2, 3, 12])
def test_counted_stack_shows_a_pile_and_its_number(count: int) -> None:
    root = drawn(CounterFace(side="a", title="Tank", symbol="armor", value="3/3/2", count=count))
    assert len(with_class(root, "pile")) == min(count, PILE) - 1
    (badge,) = with_class(root, "count")
    assert badge.get("data-count") == str(count)
    assert [t.text for t in badge.iter("text")] == [str(count)]


def test_single_unit_has_no_pile_or_badge() -> None:
    root = drawn(CounterFace(side="a", title="x", value="1"))
    assert with_class(root, "pile") == [] and with_class(root, "count") == []
    assert with_class(root, "stripe") == []


def test_formation_stripe_in_its_colour() -> None:
    (stripe,) = with_class(drawn(CounterFace(side="a", title="x", stripe="#c8102e")), "stripe")
    assert stripe.get("fill") == "#c8102e"


@pytest.mark.parametrize(
    ("symbol", "marks"), [("air_defense", ["rect", "path"]), ("truck", ["rect", "circle", "line", "line"])]
)
def test_new_symbols_draw_inside_the_frame(symbol: str, marks: list[str]) -> None:
    (frame,) = [g for g in drawn(CounterFace(side="a", symbol=symbol)).iter("g") if g.get("fill") == "none"]
    assert [e.tag for e in frame] == marks


class Board(Presentation):
    style = STYLE
    spec: ClassVar[MapSpec]

    def map_spec(self) -> MapSpec:
        return self.spec

    def face(self, unit: UnitView) -> CounterFace:
        return CounterFace(side=unit.side)


SQUARE = ((0.0, 0.0), (60.0, 0.0), (60.0, 60.0), (0.0, 60.0))


def board(style: MapStyle, labels: tuple[Label, ...] = ()) -> MapRenderer:
    Board.style = style
    Board.spec = MapSpec(width=60, height=60, regions=(Region(id="r", label="R", center=(30, 30), polygon=SQUARE),),
                         labels=labels)  # fmt: skip
    return MapRenderer(Board(None))


def texts(svg: str) -> list[ET.Element]:
    return list(ET.fromstring(svg).iter(f"{SVG}text"))


def test_halos_colours_and_bold_only_where_asked() -> None:
    labels = (
        Label(text="Sea", at=(30, 10)),
        Label(text="Pass", at=(30, 50), halo="#ffffff", color="#123456", bold=True),
    )
    svg = board(STYLE, labels).render(None)
    region, sea, named = texts(svg)
    assert region.get("stroke") is None and sea.get("stroke") is None and sea.get("fill") == STYLE.label_color
    assert (named.get("stroke"), named.get("paint-order"), named.get("fill"), named.get("font-weight")) == (
        "#ffffff", "stroke", "#123456", "bold"
    )  # fmt: skip
    outlined = board(STYLE.model_copy(update={"label_halo": "#fefefe"})).render(None)
    assert texts(outlined)[0].get("stroke") == "#fefefe"


def test_owner_tint_over_controlled_regions_only_when_the_style_asks() -> None:
    view = View(viewer="a", summary="", facts={"control": {"r": "a"}})
    plain = ET.fromstring(board(STYLE).render(view))
    assert not [e for e in plain.iter() if e.get("class") == "control-tint"]
    tinted = ET.fromstring(board(STYLE.model_copy(update={"control_tint": 0.3})).render(view))
    (layer,) = [e for e in tinted.iter() if e.get("class") == "control-tint"]
    (wash,) = list(layer)
    assert (wash.get("data-id"), wash.get("fill"), wash.get("fill-opacity")) == ("r", "#aa0000", "0.3")
