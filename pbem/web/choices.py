"""Multi-part choices asked step by step, walking the rules' choice tree (``Ruleset.choices(state, seat)``).

The tree is the game's one account of what a seat may do: action kind, then each field, with the game's own
labels (units and places by name) and field titles. This module only walks it: it asks one field at a time
(what to do, which unit, where, yes or no), and every answer narrows the tree's complete actions, so whatever
the player ends with is one of the tree's own leaves. A list field (the areas of an assault) is offered by the
tree as whole lists; it is built here one element at a time, so 36 combinations become a few clicks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pbem.rules.contract import Action, Choices

__all__ = ["Leaf", "Level", "Naming", "Option", "Pick", "Question", "leaves", "matching", "next_step"]

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


@dataclass(frozen=True)
class Naming:
    """What a click on the map can stand for (unit ids as the viewer sees them, the map's places), and the
    game's label for one element of a list field (the tree labels whole lists only)."""

    units: Mapping[str, str]
    locations: Mapping[str, str]
    label: Callable[[str, Any], str]


@dataclass(frozen=True)
class Level:
    """One level of a path through the tree: the field, its title, the value taken and the game's label."""

    field: str
    title: str
    value: Any
    label: str


@dataclass(frozen=True)
class Leaf:
    """One complete action of the tree and the levels that lead to it."""

    levels: tuple[Level, ...]
    action: Action

    def level(self, field: str) -> Level | None:
        """The level that sets ``field`` (None: this action has no such field)."""
        return next((level for level in self.levels if level.field == field), None)

    def describe(self, naming: Naming) -> str:
        """The action in the game's words: ``Move: 7RTR to Area 6 (Halfaya Pass)``, ``Support: air no``."""
        kind, *rest = self.levels
        text = ""
        for level in rest:
            if level.value is None:
                continue
            if level.field in _DESTINATIONS and _named(naming, level.value):
                part, glue = f"to {level.label}", " "  # "7RTR to Area 6"
            elif _named(naming, level.value):
                part, glue = level.label, ", "
            else:
                part, glue = f"{level.title} {level.label}", ", "
            text = f"{text}{glue}{part}" if text else part
        return f"{_upper(kind.label)}: {text}" if text else _upper(kind.label)


_DESTINATIONS = frozenset({"to", "zone", "dst"})  # fields that name where a unit goes, told as "to …"


def leaves(tree: Choices) -> list[Leaf]:
    """Every complete action of ``tree`` with its path, in the tree's order (kept internal: never listed)."""
    found: list[Leaf] = []

    def walk(node: Choices, above: tuple[Level, ...]) -> None:
        for branch in node.options:
            path = (*above, Level(node.field, node.title, branch.value, branch.label))
            if branch.action is not None:
                found.append(Leaf(path, branch.action))
            if branch.then is not None:
                walk(branch.then, path)

    walk(tree, ())
    return found


def _upper(text: str) -> str:
    """``text`` with its first letter a capital, the rest as the game wrote it (``Air Support``, ``Zone H``)."""
    return text[:1].upper() + text[1:]


def _named(naming: Naming, value: object) -> bool:
    """Whether ``value`` is a unit or place (or a list of them): its label then reads without the field title."""
    if isinstance(value, list):
        return bool(value) and all(_named(naming, v) for v in value)
    return isinstance(value, str) and (value in naming.units or value in naming.locations)


def _is_location(naming: Naming, value: object) -> bool:
    return isinstance(value, str) and value in naming.locations and value not in naming.units


def _has(leaf: Leaf, pick: Pick, picks: Sequence[Pick]) -> bool:
    level = leaf.level(pick.field)
    if level is None:
        return False
    if pick.mode == "is":
        return bool(level.value == pick.value)
    if not isinstance(level.value, list):
        return False
    if pick.mode == "has":
        return pick.value in level.value
    return _same(level.value, [p.value for p in picks if p.mode == "has" and p.field == pick.field])


def _same(elements: Sequence[object], chosen: Sequence[object]) -> bool:
    """Whether a list field's value holds exactly the elements chosen, in any order."""
    return sorted(map(str, elements)) == sorted(map(str, chosen))


def matching(found: Sequence[Leaf], picks: Sequence[Pick]) -> list[Leaf]:
    """The tree's actions consistent with every pick so far."""
    return [leaf for leaf in found if all(_has(leaf, p, picks) for p in picks)]


def _option(naming: Naming, level: Level) -> Option:
    pick = Pick("is", level.field, level.value)
    if level.field == "action":
        return Option(_upper(level.label), pick)
    if isinstance(level.value, bool):
        return Option(f"{_upper(level.title)}: {level.label}", pick)
    unit = level.value if isinstance(level.value, str) and level.value in naming.units else None
    location = level.value if _is_location(naming, level.value) else None
    label = level.label if unit or location else _upper(level.label)
    return Option(label, pick, unit=unit, location=location)


def _prompt(naming: Naming, title: str, values: Sequence[object]) -> str:
    if all(isinstance(v, str) and v in naming.units for v in values):
        return f"Which {title}? Click one on the map or below."
    if all(_is_location(naming, v) for v in values):
        return f"Where ({title})? Click a highlighted place on the map or below."
    if all(isinstance(v, bool) for v in values):
        return f"{_upper(title)}?"
    return f"Choose the {title}."


def _top(candidates: Sequence[Leaf], naming: Naming) -> Question:
    """The first question: what to do, or which unit to act with (a click on the map)."""
    kinds = {repr(leaf.levels[0].value): leaf.levels[0] for leaf in candidates}
    options = [_option(naming, level) for level in kinds.values()]
    units: dict[tuple[str, str], Level] = {}
    for leaf in candidates:
        for level in leaf.levels[1:]:
            if isinstance(level.value, str) and level.value in naming.units:
                units.setdefault((level.field, level.value), level)
                break  # the first unit of an action is the one clicked to start it
    options.extend(_option(naming, level) for level in units.values())
    hint = " Click a unit on the map, or choose below." if units else ""
    return Question(f"What do you want to do?{hint}", tuple(options))


def next_step(found: Sequence[Leaf], picks: Sequence[Pick], naming: Naming) -> Question | Leaf | None:
    """The next question for ``picks``, or the one action they settle (None: the picks fit no action).

    A place the action goes to is always asked, even if only one is legal, so a move ends on a map click.
    """
    candidates = matching(found, picks)
    if not candidates:
        return None
    if not picks:
        return _top(candidates, naming)
    settled = {p.field for p in picks if p.mode in ("is", "all")}
    order = list(dict.fromkeys(level.field for leaf in candidates for level in leaf.levels))
    for field in order:
        if field in settled:
            continue
        levels = [level for level in (leaf.level(field) for leaf in candidates) if level is not None]
        if any(isinstance(level.value, list) for level in levels):
            question = _list_question(candidates, picks, field, naming)
            if question is not None:
                return question
            continue
        distinct = list({repr(level.value): level for level in levels}.values())
        if len(distinct) > 1 or (len(candidates) == 1 and _is_location(naming, distinct[0].value)):
            prompt = _prompt(naming, distinct[0].title, [level.value for level in distinct])
            return Question(prompt, tuple(_option(naming, level) for level in distinct))
    return candidates[0]  # they agree on every field: one action


def _list_question(candidates: Sequence[Leaf], picks: Sequence[Pick], field: str, naming: Naming) -> Question | None:
    """Add one more element to a list field, or say it is complete (None: the candidates agree already)."""
    chosen = [p.value for p in picks if p.mode == "has" and p.field == field]
    levels = [level for level in (leaf.level(field) for leaf in candidates) if level is not None]
    lists = [level.value if isinstance(level.value, list) else [] for level in levels]
    if len({tuple(sorted(map(str, v))) for v in lists}) == 1 and chosen:
        return None
    title = levels[0].title
    more = list(dict.fromkeys(e for v in lists for e in v if e not in chosen))
    options = []
    for element in more:
        location = element if _is_location(naming, element) else None
        unit = element if isinstance(element, str) and element in naming.units else None
        label = naming.label(field, element)
        options.append(Option(f"Add {label}", Pick("has", field, element), unit=unit, location=location))
    so_far = naming.label(field, chosen)
    done = next((level for level, v in zip(levels, lists, strict=True) if _same(v, chosen)), None)
    if done is not None:
        options.append(Option(f"That is all: {done.label}" if chosen else f"No {title}", Pick("all", field)))
    prompt = f"Which {title}? Add them one at a time, on the map or below."
    return Question(f"{prompt} So far: {so_far}." if chosen else prompt, tuple(options))
