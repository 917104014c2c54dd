"""The SNAFU / Schlachtenglück re-roll window (§5.2) as a decision of the seat holding the marker.

Every die the sequence of play rolls is labelled with its owner (notes §6.1): the side whose roll it is. When a
roll comes back holding at least one die of the side *without* the marker, and the marker's side has a seat, the
machine stops before the roll takes effect and offers the holder a :class:`SnafuOffer`: keep the roll
(``keep_roll``) or hand the marker over to force a re-roll of one of the opponent's dice (``snafu``). This is the
window of notes §7.2 (it closes at the holder's next signed entry): the offer is that entry. The re-rolled die
replaces the old one and the roll takes effect; the re-roll is the new holder's own roll, so it opens no window.
Combat chits are draws, never dice (notes B25), and are never offered; every die of the game is a d10 (§3.9).
The checks are the library's (:func:`~.combat_victory.check_snafu`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from pbem.games.gazala.actions import KeepRoll, Snafu
from pbem.games.gazala.board import other
from pbem.games.gazala.combat_victory import DieRoll, check_snafu, snafu_holder_after
from pbem.games.gazala.cycle import D10
from pbem.games.gazala.data import Side
from pbem.games.gazala.mapspec import side_name
from pbem.games.gazala.ops import side_of_seat
from pbem.games.gazala.state import DiceWait, GazalaState, SnafuOffer
from pbem.kit.machine import pop, push, replace_top, top
from pbem.rules.contract import ALLOW, Event, Outcome, RollRequest, RollSpec, Step, Verdict, deny

__all__ = ["can_keep", "can_snafu", "keep", "keeps", "offer_or_apply", "reroll", "snafus"]

Handler = Callable[[GazalaState, Outcome], Step[GazalaState]]


def _owners(state: GazalaState, wait: DiceWait, faces: Mapping[str, tuple[int, ...]]) -> dict[str, tuple[Side, ...]]:
    """The owner of each die rolled for ``wait`` (notes §6.1); chit draws own nothing (never re-rolled)."""
    if wait.purpose == "chits":
        return {}
    battle = state.battle
    found: dict[str, tuple[Side, ...]] = {}
    for ident, values in faces.items():
        if wait.purpose == "initiative":
            owner: tuple[Side, ...] = (side_of_seat(ident),) * len(values)
        elif wait.purpose in ("rbc", "combat") and battle is not None:
            attacker = battle.side
            side = other(attacker) if ident == "defender" else attacker
            owner = (side,) * len(values)
        elif wait.purpose == "attrition":
            owner = tuple(state.pack.unit(u).side for u in wait.units)
        else:
            owner = (side_of_seat(wait.seat),) * len(values)
        found[ident] = owner
    return found


def offer_or_apply(state: GazalaState, outcome: Outcome, handler: Handler) -> Step[GazalaState]:
    """Resume the top :class:`DiceWait`: after a SNAFU re-roll, merge the new die into the kept roll and apply it;
    otherwise open the §5.2 window when the holder may re-roll one of the opponent's dice, or apply the roll."""
    wait = top(state, DiceWait)
    if wait.kept:
        assert outcome.dice is not None and wait.target is not None
        ident, index = wait.target
        merged = {k: v for k, v in wait.kept}
        faces = list(merged[ident])
        faces[index] = outcome.dice[ident][0]
        merged[ident] = tuple(faces)
        return handler(state, Outcome(dice=merged))
    holder = state.snafu
    if outcome.dice is None or holder not in state.seats:
        return handler(state, outcome)
    owners = _owners(state, wait, outcome.dice)
    if not any(side != holder for sides in owners.values() for side in sides):
        return handler(state, outcome)
    offer = SnafuOffer(
        seat=holder,
        dice=tuple((k, tuple(v)) for k, v in outcome.dice.items()),
        owners=tuple((k, owners[k]) for k in outcome.dice),
    )
    return Step(state=push(state, offer))


def _offer(state: GazalaState) -> SnafuOffer | None:
    item = state.pending[-1] if state.pending else None
    return item if isinstance(item, SnafuOffer) else None


def _die(offer: SnafuOffer, act: Snafu) -> DieRoll | None:
    owners = dict(offer.owners)
    if act.roll not in owners or not 0 <= act.die < len(owners[act.roll]):
        return None
    return DieRoll(id=f"{act.roll}:{act.die}", owner=owners[act.roll][act.die])


def snafus(state: GazalaState, seat: str) -> Iterator[Snafu]:
    offer = _offer(state)
    if offer is None:
        return
    for ident, owners in offer.owners:
        for index, owner in enumerate(owners):
            if owner != side_of_seat(seat):
                yield Snafu(roll=ident, die=index)


def can_snafu(state: GazalaState, seat: str, act: Snafu) -> Verdict:
    offer = _offer(state)
    if offer is None:
        return deny("5.2", "snafu-window", "no roll is open to a SNAFU re-roll now")
    die = _die(offer, act)
    if die is None:
        return deny("5.2", "snafu-no-die", f"the roll just made has no die {act.roll}:{act.die}")
    return check_snafu(state.snafu, side_of_seat(seat), die, latest=die.id)


def reroll(state: GazalaState, seat: str, act: Snafu) -> Step[GazalaState]:
    """§5.2: the marker goes to the opponent, and the targeted die is rolled again (by its owner)."""
    offer = _offer(state)
    assert offer is not None
    user = side_of_seat(seat)
    state = pop(state).model_copy(update={"snafu": snafu_holder_after(user)})
    wait = top(state, DiceWait).model_copy(update={"kept": offer.dice, "target": (act.roll, act.die)})
    purpose = f"§5.2 SNAFU re-roll of die {act.die + 1} of {act.roll} ({wait.purpose})"
    request = RollRequest(rolls=(RollSpec(id=act.roll, sides=D10, n=1, purpose=purpose),))
    faces = dict(offer.dice)[act.roll]
    event = Event(
        kind="snafu_used",
        seat=seat,
        rule="5.2",
        data={"roll": act.roll, "die": act.die, "was": faces[act.die], "holder": other(user)},
        text=f"the {side_name(seat)} hands over the SNAFU marker to re-roll {_rerolled(wait.purpose, act.roll)} "
        f"({faces[act.die]})",
    )
    return Step(state=replace_top(state, wait).with_rolls(request), events=(event,))


def keeps(state: GazalaState, seat: str) -> Iterator[KeepRoll]:
    if _offer(state) is not None:
        yield KeepRoll()


def can_keep(state: GazalaState, seat: str, act: KeepRoll) -> Verdict:
    if _offer(state) is None:
        return deny("5.2", "snafu-window", "no roll is open to a SNAFU re-roll now")
    return ALLOW


def keep(state: GazalaState, seat: str, act: KeepRoll, handler: Handler) -> Step[GazalaState]:
    """The holder lets the roll stand: it takes effect as rolled."""
    offer = _offer(state)
    assert offer is not None
    return handler(pop(state), Outcome(dice=dict(offer.dice)))


ROLLED = {
    "initiative": "initiative die",
    "ap": "Action Points die",
    "reaction": "Reaction dice",
    "combat": "combat die",
    "rbc": "Retreat before Combat die",
    "chits": "chit draw",
    "battle_ec": "Efficiency Check dice",
    "battle_isolated": "Isolated units' Efficiency Check dice",
    "isolated": "Isolation dice",
    "attrition": "attrition dice",
    "breach": "breach die",
    "refit": "refit die",
    "minefield": "Minefield Check die",
}
"""The rolls a SNAFU marker may re-roll (their waits' purposes), as a text names them."""


def _rerolled(purpose: str, roll: str) -> str:
    """``the Commonwealth's initiative die``, ``the attacker's combat die``, ``the Action Points die``."""
    what = ROLLED.get(purpose, f"{purpose.replace('_', ' ')} die")
    if roll in ("axis", "cw"):
        return f"the {side_name(roll)}'s {what}"
    if roll in ("attacker", "defender"):
        return f"the {roll}'s {what}"
    return f"the {what}"
