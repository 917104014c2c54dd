"""Battle Victory (§7.5.3) and SNAFU (§5.2)."""

from __future__ import annotations

import pytest

from pbem.games.gazala.combat_victory import DieRoll, Victory, battle_victory, check_snafu, snafu_holder_after
from pbem.games.gazala.data import GazalaPack
from tests.games.gazala.combat_helpers import example_attackers, example_defenders, unit


@pytest.mark.rule("7.5.3")
def test_r7_5_3_example_schwerpunkt_winner_gets_two_aps(gazala: GazalaPack) -> None:
    found = battle_victory(
        gazala, "cw", (2, 1), example_attackers(gazala), example_defenders(gazala), frozenset(), schwerpunkt="21pz"
    )
    assert found == Victory("defender", gazala.example("combat-after")["bonus_ap"], ("104", "3", "18-flak"))
    plain = battle_victory(gazala, "cw", (2, 1), example_attackers(gazala), example_defenders(gazala), frozenset())
    assert plain.bonus_ap == gazala.number("battle_victory_ap") == 1


@pytest.mark.rule("7.5.3")
def test_r7_5_3_who_wins(gazala: GazalaPack) -> None:
    attackers, defenders = example_attackers(gazala), example_defenders(gazala)
    assert battle_victory(gazala, "cw", (1, 1), attackers, defenders, frozenset()).winner is None  # a tie
    assert battle_victory(gazala, "cw", (0, 3), attackers, defenders, frozenset()).winner == "attacker"
    assert battle_victory(gazala, "cw", (5, 0), attackers, defenders, frozenset()).winner == "defender"  # 5/0
    wiped = frozenset({"3rtr-4", "7mot"})
    assert battle_victory(gazala, "cw", (0, 3), attackers, defenders, wiped) == Victory(None, 0, ())
    assert battle_victory(gazala, "cw", (0, 3), attackers, defenders, frozenset(), rbc_succeeded=True).winner is None


@pytest.mark.rule("7.5.3")
@pytest.mark.rule("5.8.3")
def test_r7_5_3_only_in_command_survivors_spend_the_bonus(gazala: GazalaPack) -> None:
    attackers = (unit(gazala, "3rtr-4", in_command=False), unit(gazala, "7mot"))
    found = battle_victory(gazala, "cw", (0, 2), attackers, example_defenders(gazala), frozenset({"7mot"}))
    assert found == Victory("attacker", 0, ())  # the survivor is Out of Command: the AP is lost
    axis = (unit(gazala, "104", in_command=False), unit(gazala, "i-5"))
    sp = battle_victory(gazala, "axis", (0, 1), axis, example_attackers(gazala), frozenset(), schwerpunkt="21pz")
    assert sp == Victory("attacker", 2, ("i-5",))
    cw_sp = battle_victory(gazala, "cw", (0, 1), example_attackers(gazala), axis, frozenset(), schwerpunkt="7armd")
    assert cw_sp.bonus_ap == 1  # the Schwerpunkt is the Axis's


@pytest.mark.rule("5.2")
def test_r5_2_snafu(gazala: GazalaPack) -> None:
    assert gazala.setting("snafu_start") == "axis"
    combat = DieRoll("combat", "cw")
    assert check_snafu("axis", "axis", combat, latest="combat").ok
    assert snafu_holder_after("axis") == "cw"

    def reason(holder: str, user: str, roll: DieRoll, latest: str | None) -> tuple[str, str]:
        verdict = check_snafu(holder, user, roll, latest=latest)  # type: ignore[arg-type]
        return verdict.rule or "", verdict.reason

    assert reason("cw", "axis", combat, "combat") == ("5.2", "snafu-not-held")
    assert reason("axis", "axis", DieRoll("chit", "cw", chit=True), "chit") == ("5.2", "snafu-chit")
    assert reason("axis", "axis", DieRoll("ec-104", "axis"), "ec-104") == ("5.2", "snafu-own-roll")
    assert reason("axis", "axis", combat, "ec-3rtr-4") == ("5.2", "snafu-window")
    assert reason("axis", "axis", combat, None) == ("5.2", "snafu-window")
