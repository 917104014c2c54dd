"""Turn order and skipped turns (pages 6, 12, 28), by page."""

from __future__ import annotations

import pytest

from pbem.games.axisallies.data import AxisAlliesPack
from pbem.games.axisallies.turns import plays_in, powers_in_round

ALL = ("germany", "united_kingdom", "italy", "united_states")


@pytest.mark.rule("12")
def test_p12_turn_order(pack: AxisAlliesPack) -> None:
    assert powers_in_round(pack, pack.scenario("rommels_last_push"), 8) == ALL


@pytest.mark.rule("6")
def test_p6_rlp_united_states_skipped_until_round_7(pack: AxisAlliesPack) -> None:
    rlp = pack.scenario("rommels_last_push")
    for round_ in range(1, 7):
        assert powers_in_round(pack, rlp, round_) == ALL[:3]
        assert not plays_in(rlp, "united_states", round_)
    assert powers_in_round(pack, rlp, 7) == ALL


@pytest.mark.rule("28")
def test_p28_torch_germany_skips_round_7(pack: AxisAlliesPack) -> None:
    torch = pack.scenario("operation_torch")
    assert torch.start_round == 7
    assert powers_in_round(pack, torch, 7) == ALL[1:]
    assert powers_in_round(pack, torch, 8) == ALL
