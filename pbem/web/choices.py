"""Multi-part choices asked step by step, derived from the rules engine's legal action list.

The engine offers whole atomic actions (``{"action": "move", "unit": "7rtr", "to": "6"}``); a player should
not pick from their cross product. This adapter groups the legal list by action kind, then by field, and asks
one field at a time: what to do, which unit, where, yes or no. A list field (the areas of an assault) is built
one element at a time, so 36 combinations become a few clicks. Every answer only narrows the legal list, so
whatever the player ends with is one of the engine's own actions.

This is the one place that knows how to split actions into steps: when the rules contract grows a choice tree
(``choices(state, seat)``), only this module changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from pbem.rules.contract import Action

__all__ = ["Naming", "Option", "Pick", "Question", "matching", "next_step"]

Mode = Literal["is", "has", "all"]


@dataclass(frozen=True)
class Pick:
    """One answer: ``field`` is ``value`` (``is``), the list ``field`` holds ``value`` (``has``), or the list
    ``field`` holds exactly the elements picked so far (``all``)."""

    mode: Mode
    field: str
    value: object = None


@dataclass(frozen=True)
class Option:
    """A possible answer, with the unit or map location a click on the map stands for (if any)."""

    label: str
    pick: Pick
    unit: str | None = None
    location: str | None = None


@dataclass(frozen=True)
class Question:
    """The next thing to ask; ``locations`` light up on the map, ``units`` can be clicked there."""

    prompt: str
    options: tuple[Option, ...]

    @property
    def locations(self) -> tuple[str, ...]:
        """The map places the options stand for (outlined on the map)."""
        return tuple(o.location for o in self.options if o.location is not None)

    @property
    def units(self) -> tuple[str, ...]:
        """The units the options stand for (clickable on the map)."""
        return tuple(o.unit for o in self.options if o.unit is not None)


def _words(name: str) -> str:
    return name.replace("_", " ").replace("-", " ")


@dataclass(frozen=True)
class Naming:
    """Names for what actions hold: units by the viewer's view, locations by the map."""

    units: Mapping[str, str]
    locations: Mapping[str, str]

    def value(self, value: object) -> str:
        """``value`` in words: a unit's or place's name, yes/no, a list of names; never a Python repr."""
        if isinstance(value, bool):
            return "yes" if value else "no"
        if value is None:
            return "none"
        if isinstance(value, list | tuple):
            return ", ".join(self.value(v) for v in value) or "none"
        if isinstance(value, str):
            if value in self.units:
                return self.units[value]
            if value in self.locations:
                return self.locations[value]
            return _words(value)
        return str(value)

    def kind(self, action: str) -> str:
        """An action kind in words: ``end_assault`` → ``End assault``."""
        return _words(action).capitalize()

    def describe(self, action: Action) -> str:
        """A plain-language line for ``action``: ``Move: 7RTR to Area 6 (Halfaya Pass)``."""
        parts = []
        for field, value in action.items():
            if field == "action" or value is None:
                continue
            named = isinstance(value, str) and (value in self.units or value in self.locations)
            if named and field == "unit":
                parts.append(self.value(value))
            elif named and field in _DESTINATIONS:
                parts.append(f"to {self.value(value)}")
            elif isinstance(value, list) and value and all(isinstance(v, str) and v in self.locations for v in value):
                parts.append(self.value(value))
            else:
                parts.append(f"{_words(field)} {self.value(value)}")
        kind = self.kind(str(action.get("action", "")))
        if not parts:
            return kind
        text = parts[0]
        for part in parts[1:]:
            text += (" " if part.startswith("to ") else ", ") + part  # "7RTR to Area 6", "air no, artillery yes"
        return f"{kind}: {text}"


_DESTINATIONS = frozenset({"to", "zone", "dst"})  # fields that name where a unit goes, told as "to …"


def _has(action: Action, pick: Pick, picks: Sequence[Pick]) -> bool:
    value = action.get(pick.field)
    if pick.mode == "is":
        return pick.field in action and value == pick.value
    if not isinstance(value, list):
        return False
    if pick.mode == "has":
        return pick.value in value
    chosen = [p.value for p in picks if p.mode == "has" and p.field == pick.field]
    return sorted(map(str, value)) == sorted(map(str, chosen))


def matching(legal: Sequence[Action], picks: Sequence[Pick]) -> list[Action]:
    """The legal actions consistent with every pick so far."""
    return [a for a in legal if all(_has(a, p, picks) for p in picks)]


def _fields(candidates: Sequence[Action]) -> list[str]:
    """Every field of the candidates, ``action`` first, then in the engine's own order."""
    order = ["action"]
    for action in candidates:
        order.extend(f for f in action if f not in order)
    return order


def _is_location(naming: Naming, value: object) -> bool:
    return isinstance(value, str) and value in naming.locations and value not in naming.units


def _option(naming: Naming, field: str, value: object) -> Option:
    if field == "action":
        return Option(naming.kind(str(value)), Pick("is", field, value))
    if isinstance(value, bool):
        return Option(f"{_words(field).capitalize()}: {naming.value(value)}", Pick("is", field, value))
    unit = value if isinstance(value, str) and value in naming.units else None
    location = value if isinstance(value, str) and _is_location(naming, value) else None
    label = naming.value(value)
    return Option(
        label if unit or location else label.capitalize(), Pick("is", field, value), unit=unit, location=location
    )


def _prompt(naming: Naming, field: str, values: Sequence[object]) -> str:
    if all(isinstance(v, str) and v in naming.units for v in values):
        return f"Which unit ({_words(field)})? Click one on the map or below."
    if all(_is_location(naming, v) for v in values):
        return f"Where ({_words(field)})? Click a highlighted place on the map or below."
    if all(isinstance(v, bool) for v in values):
        return f"{_words(field).capitalize()}?"
    return f"Choose the {_words(field)}."


def _top(candidates: Sequence[Action], naming: Naming) -> Question:
    """The first question: what to do, or which unit to act with (a click on the map)."""
    kinds = list(dict.fromkeys(str(a["action"]) for a in candidates))
    options = [_option(naming, "action", k) for k in kinds]
    units: dict[tuple[str, str], None] = {}
    for action in candidates:
        for field, value in action.items():
            if field != "action" and isinstance(value, str) and value in naming.units:
                units.setdefault((field, value), None)
                break  # the first unit of an action is the one clicked to start it
    options.extend(_option(naming, field, value) for field, value in units)
    hint = " Click a unit on the map, or choose below." if units else ""
    return Question(f"What do you want to do?{hint}", tuple(options))


def next_step(legal: Sequence[Action], picks: Sequence[Pick], naming: Naming) -> Question | Action | None:
    """The next question for ``picks``, or the one action they settle (None: the picks fit no legal action).

    A place the action goes to is always asked, even if only one is legal, so a move ends on a map click.
    """
    candidates = matching(legal, picks)
    if not candidates:
        return None
    if not picks:
        return _top(candidates, naming)
    settled = {p.field for p in picks if p.mode in ("is", "all")}
    for field in _fields(candidates):
        if field in settled:
            continue
        values = [a.get(field) for a in candidates]
        if any(isinstance(v, list) for v in values):
            question = _list_question(candidates, picks, field, naming)
            if question is not None:
                return question
            continue
        distinct = list(dict.fromkeys(values))
        if len(distinct) > 1 or (_is_location(naming, distinct[0]) and len(candidates) == 1):
            return Question(_prompt(naming, field, distinct), tuple(_option(naming, field, v) for v in distinct))
    return candidates[0]  # they agree on every field: one action


def _list_question(candidates: Sequence[Action], picks: Sequence[Pick], field: str, naming: Naming) -> Question | None:
    """Add one more element to a list field, or say it is complete (None: the candidates agree already)."""
    chosen = [p.value for p in picks if p.mode == "has" and p.field == field]
    lists = [v if isinstance(v, list) else [] for v in (a.get(field) for a in candidates)]
    if len({tuple(sorted(map(str, v))) for v in lists}) == 1 and chosen:
        return None
    more = list(dict.fromkeys(e for v in lists for e in v if e not in chosen))
    options = []
    for element in more:
        label = naming.value(element)
        location = element if isinstance(element, str) and _is_location(naming, element) else None
        unit = element if isinstance(element, str) and element in naming.units else None
        options.append(Option(f"Add {label}", Pick("has", field, element), unit=unit, location=location))
    if any(sorted(map(str, v)) == sorted(map(str, chosen)) for v in lists):
        done = f"That is all: {naming.value(chosen)}" if chosen else f"No {_words(field)}"
        options.append(Option(done, Pick("all", field)))
    what = _words(field)
    so_far = f" So far: {naming.value(chosen)}." if chosen else ""
    prompt = f"Which {what}? Add them one at a time, on the map or below.{so_far}"
    return Question(prompt, tuple(options))
