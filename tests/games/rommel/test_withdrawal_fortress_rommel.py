"""Rommel: the Withdrawal Move's one home (``withdrawal.py``) judges a battle Withdrawal (Refusing Battle, a Rout)
like the Pass Turn's: units on Fortress supply withdraw towards their Fortress, the others never (§5.3, §13.3)."""

from __future__ import annotations

import pytest

from pbem.games.rommel import withdrawal
from pbem.games.rommel.state import RommelState, Withdrawal
from pbem.games.rommel.supplycheck import fortress_assigned
from tests.games.rommel.rules_driver import Table


def placed(table: Table, where: dict[str, str]) -> RommelState:
    """The Crusader state with only the tokens of ``where`` on the map, each in its hex (a place id or a hex)."""
    pack = table.state.pack
    tokens = {}
    for token, tok in table.state.tokens.items():
        spot = where.get(token)
        hex_id = None if spot is None else (spot if spot.isdigit() else pack.place(spot).hex)
        tokens[token] = tok.model_copy(update={"hex": hex_id, "status": "map" if hex_id else "muster"})
    return table.state.model_copy(update={"tokens": tokens, "fortresses": {"tobruk": "allied"}})


def isolated_tobruk() -> tuple[RommelState, str, str]:
    """Tobruk cut off (Axis units at Acroma, Gambut and Sidi Rezegh), four Allied units inside and one each at El
    Adem and 1303 (Tobruk supplies five): the one of those two assigned Fortress supply, and the other."""
    table = Table("crusader")
    allied = [t for t, tok in table.state.tokens.items() if tok.side == "allied"][:6]
    axis = [t for t, tok in table.state.tokens.items() if tok.side == "axis"][:3]
    where = dict(zip(allied, ["tobruk", "tobruk", "tobruk", "tobruk", "el-adem", "1303"], strict=True))
    where |= dict(zip(axis, ["acroma", "gambut", "sidi-rezegh"], strict=True))
    state = placed(table, where)
    assigned = fortress_assigned(state, "allied")
    outside = [t for t in allied[4:] if t not in assigned]
    supplied = [t for t in allied[4:] if t in assigned]
    assert len(outside) == len(supplied) == 1 and assigned[supplied[0]] == "tobruk"
    return state, supplied[0], outside[0]


@pytest.mark.rule("13.3")
@pytest.mark.rule("5.3")
def test_a_routed_fortress_supplied_unit_withdraws_towards_its_fortress() -> None:
    state, supplied, outside = isolated_tobruk()
    tobruk = state.pack.place("tobruk").hex
    for token, ok in ((supplied, True), (outside, False)):
        here = state.tokens[token].hex
        assert here is not None
        item = Withdrawal(seat="allied", hex=here, group=(token,), cause="rout")
        routed = state.model_copy(update={"pending": (item,)})
        towards = [
            n
            for n in state.pack.hex_map.neighbours(here)
            if state.pack.hex_map.distance(n, tobruk) < state.pack.hex_map.distance(here, tobruk)
        ]  # type: ignore[arg-type]
        verdicts = [withdrawal.step_verdict(routed, item, token, str(n)) for n in towards]
        if ok:
            assert any(v.ok for v in verdicts), verdicts
            assert withdrawal.step_candidates(routed, item)
        else:  # §13.3: a unit not assigned Fortress supply may not withdraw towards the Fortress
            assert {(v.rule, v.reason) for v in verdicts} <= {("5.3", "no-supply-line"), ("6.1", "over-budget")}
            assert ("5.3", "no-supply-line") in {(v.rule, v.reason) for v in verdicts}
            assert not withdrawal.step_candidates(routed, item)
