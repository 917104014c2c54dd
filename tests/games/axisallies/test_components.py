"""Component limits (p.9, p.18, notes §10.30): combat land units shown with pieces and the shared chips, each
stack under a piece of its type; supply shown with the box's tokens of 1 and 5, exchanged freely on the board
but not in the Reinforcements Zone."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.components import gray_chips_needed, ones_needed
from pbem.games.axisallies.state import AxisState
from tests.games.axisallies.rules_helpers import play, refusal
from tests.games.axisallies.test_extras import turn

INF = ("germany", "infantry")
REQ_INF = {"action": "requisition", "unit": "infantry"}
REQ_SUPPLY = {"action": "requisition", "unit": "supply"}


def spread(state: AxisState, unit: str, spaces: list[str]) -> AxisState:
    """``state`` with one ``unit`` (``"power:type"``) more in each of ``spaces``."""
    pieces = {s: dict(c) for s, c in state.pieces.items()}
    for space in spaces:
        here = pieces.setdefault(space, {})
        here[unit] = here.get(unit, 0) + 1
    return state.model_copy(update={"pieces": pieces})


def territories(state: AxisState, n: int, without: str) -> list[str]:
    """``n`` territories holding no ``without`` piece, Italy excepted."""
    free = [t.id for t in state.pack.territories if t.id != "italy" and not state.pieces.get(t.id, {}).get(without)]
    return free[:n]


@pytest.mark.rule("9")
def test_p9_the_fewest_gray_chips_a_board_needs() -> None:
    """One piece tops each stack; spare pieces and green chips (3 units, within one stack) save grays."""
    assert gray_chips_needed({INF: [1, 1]}, {INF: 2}, greens=15) == 0
    assert gray_chips_needed({INF: [1, 1, 1]}, {INF: 2}, greens=15) is None  # a stack with no piece on top
    assert gray_chips_needed({INF: [5]}, {INF: 1}, greens=15) == 1  # the p.9 example: a green, a gray, a piece
    assert gray_chips_needed({INF: [5]}, {INF: 2}, greens=15) == 0  # the spare piece stands for the gray
    assert gray_chips_needed({INF: [5]}, {INF: 1}, greens=0) == 4
    assert gray_chips_needed({INF: [3, 3]}, {INF: 2}, greens=15) == 4  # 2 units a stack: no green fits
    assert gray_chips_needed({INF: [4, 7], ("italy", "tank"): [10]}, {INF: 2, ("italy", "tank"): 1}, greens=3) == 9


@pytest.mark.rule("18")
def test_p18_the_fewest_1_tokens_a_supply_needs() -> None:
    """On the board a 5 breaks into five 1s and back at any time; in the Reinforcements Zone supply is 1s."""
    assert ones_needed([5, 10, 3], fives=15, waiting=0) == 3
    assert ones_needed([5, 5, 5], fives=2, waiting=0) == 5
    assert ones_needed([4, 4], fives=15, waiting=2) == 10


@pytest.mark.rule("9")
def test_p9_a_requisition_the_chips_cannot_show_is_refused() -> None:
    """Italy's infantry fill every chip: its 12 pieces top its stacks or stand in them, the rest are chips. Another
    Italian infantry would be a stack in the Reinforcements Zone: a piece on top, so 1 chip more below."""
    state = turn(power="italy")
    chips = 50 + 15 * 3
    others = sum(c.get("italy:infantry", 0) for s, c in state.pieces.items() if s != "tripoli")
    here = {**state.pieces["tripoli"], "italy:infantry": 12 + chips - others}
    full = state.model_copy(update={"pieces": {**state.pieces, "tripoli": here}})
    assert refusal(full, REQ_INF) == ("9", "no-chips-left")
    assert play(full, {"action": "requisition", "unit": "tank"}).ordered == {"tank": 1}  # tanks have their own
    fewer = {**here, "italy:infantry": here["italy:infantry"] - 1}
    assert play(state.model_copy(update={"pieces": {**state.pieces, "tripoli": fewer}}), REQ_INF).ordered


@pytest.mark.rule("9")
def test_p9_a_stack_needs_a_piece_on_top() -> None:
    """Germany's 12 infantry pieces all top stacks: a 13th stack cannot be made, in the Reinforcements Zone
    (a requisition) nor by a deployment to a space without German infantry; joining a stack can."""
    state = turn()
    state = spread(state, "germany:infantry", territories(state, 11, "germany:infantry"))
    assert refusal(state, REQ_INF) == ("9", "no-piece-for-stack")
    deploying = turn("deploy")
    deploying = deploying.model_copy(update={"reserve": {**deploying.reserve, "germany": {"infantry": 2}}})
    spaces = territories(deploying, 10, "germany:infantry")
    to_italy = {"action": "deploy", "unit": "infantry", "to": "italy"}
    assert refusal(spread(deploying, "germany:infantry", spaces), to_italy) == ("9", "no-piece-for-stack")
    joined = play(spread(deploying, "germany:infantry", [*spaces[:9], "italy"]), to_italy)
    assert joined.pieces["italy"]["germany:infantry"] == 2


@pytest.mark.rule("18")
def test_p18_supply_the_tokens_cannot_show_is_not_requisitioned() -> None:
    """Ten territories of 4 supply points need the forty 1-tokens; a point more in the Reinforcements Zone (a
    1-token: none is exchanged there) cannot be shown; piles of 5 leave the 1-tokens free."""
    state = turn()
    piles = territories(state, 10, "")
    fours = state.model_copy(update={"supply": dict.fromkeys(piles, 4), "convoy_supply": {}})
    assert refusal(fours, REQ_SUPPLY) == ("9", "no-supply-tokens-left")
    fives = state.model_copy(update={"supply": dict.fromkeys(piles, 5), "convoy_supply": {}})
    assert play(fives, REQ_SUPPLY).reserve["germany"]["supply"] == 1
