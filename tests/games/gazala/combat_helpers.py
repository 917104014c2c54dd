"""Combatants and the rulebook's combat example (§7.5.1) for the combat tests."""

from __future__ import annotations

from pbem.games.gazala.combat import Combatant, Ground
from pbem.games.gazala.data import Chit, ChitFace, GazalaPack


def unit(
    pack: GazalaPack,
    ident: str,
    strength: int | None = None,
    *,
    formation: str | None = "",
    disrupted: bool = False,
    in_command: bool = True,
    supplied: bool = True,
    isolated: bool = False,
) -> Combatant:
    """A combatant at its printed strength and in its own formation unless told otherwise."""
    record = pack.unit(ident)
    return Combatant(
        unit=record,
        strength=record.cs if strength is None else strength,
        disrupted=disrupted,
        formation=record.formation if formation == "" else formation,
        in_command=in_command,
        supplied=supplied,
        isolated=isolated,
    )


def example_attackers(pack: GazalaPack) -> tuple[Combatant, ...]:
    """3 RTR/4 and 7th Inf Bde in 2707 (7th Armoured Division)."""
    return (unit(pack, "3rtr-4"), unit(pack, "7mot"))


def example_defenders(pack: GazalaPack) -> tuple[Combatant, ...]:
    """104, 3 and 18 FLAK (assigned to 21. Panzer) in 2607."""
    return (unit(pack, "104"), unit(pack, "3"), unit(pack, "18-flak", formation="21pz"))


BROKEN = Ground(crt_row="broken", at_bonus=1, tp_halved=False, improved=False)
"""2607: Broken, no Improved Defence, an open hexside."""


def example_attacker_chit(pack: GazalaPack) -> Chit:
    """The chit the example's 24 + 8 = 32 needs: Nº 1/29 with Effectiveness 5, Regular Attack x2. The face as
    extracted reads x1 there (notes §10 A4: the example cannot be reproduced from the extracted chit)."""
    chit = pack.chit("1")
    rows = [list(r) for r in chit.high.multipliers]
    rows[0][1] = 2
    face = ChitFace(
        effectiveness=chit.high.effectiveness,
        multipliers=(tuple(rows[0]), tuple(rows[1]), tuple(rows[2])),  # type: ignore[arg-type]
        source="rulebook §7.5.1 combat example: the arithmetic 24 + 8 = 32",
    )
    return chit.model_copy(update={"high": face})
