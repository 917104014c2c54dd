"""Finding game modules: the ``pbem.games`` entry-point group, plus ``PBEM_GAMES`` for development.

A third party adds a game by publishing a package with::

    [project.entry-points."pbem.games"]
    mygame = "mygame.ruleset:RULESET"

``PBEM_GAMES`` (comma-separated ``module:attribute``) loads further rulesets without installing them;
the test suite uses it for its test-only game.
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from pbem.errors import PbemError
from pbem.rules.contract import Ruleset

__all__ = ["ENTRY_POINT_GROUP", "get", "installed"]

ENTRY_POINT_GROUP = "pbem.games"


@cache
def _load(target: str) -> Ruleset[Any]:
    """The ruleset at ``target`` (``module:attribute``), imported once.

    Raises:
        PbemError: R005 if it cannot be imported or is no Ruleset; R009 if importing it raises anything else
        (a bug in the module).
    """
    module_name, _, attribute = target.partition(":")
    try:
        obj = getattr(importlib.import_module(module_name), attribute or "RULESET")
    except (ImportError, AttributeError) as exc:
        raise PbemError("R005", f"cannot load game module {target!r}: {exc}") from exc
    except Exception as exc:  # a module that crashes on import is a bug in it, not in pbem
        raise PbemError(
            "R009",
            f"importing game module {target!r} raised {type(exc).__name__}: {exc}; "
            "this is a bug in the game module, please report it",
        ) from exc
    if not isinstance(obj, Ruleset):
        raise PbemError("R005", f"{target!r} is not a pbem Ruleset")
    return obj


def _targets() -> tuple[tuple[str | None, str], ...]:
    """(id if known before loading, target) of every game: entry points by name, then ``PBEM_GAMES``."""
    return _targets_with(os.environ.get("PBEM_GAMES", ""))


@cache
def _targets_with(extra: str) -> tuple[tuple[str | None, str], ...]:
    found: list[tuple[str | None, str]] = [(ep.name, ep.value) for ep in entry_points(group=ENTRY_POINT_GROUP)]
    found.extend((None, target) for target in filter(None, (t.strip() for t in extra.split(","))))
    return tuple(found)


def installed() -> dict[str, Ruleset[Any]]:
    """Every available ruleset by id, sorted by id."""
    found: dict[str, Ruleset[Any]] = {}
    for name, target in _targets():
        ruleset = _load(target)
        found[name if name is not None else ruleset.id] = ruleset
    return {k: found[k] for k in sorted(found)}


def _find(game_id: str) -> Ruleset[Any] | None:
    """Only the modules that may be ``game_id`` are imported (an installed game by its entry-point name first,
    then ``PBEM_GAMES``), so a broken other game does not break this one."""
    targets = _targets()
    named = next((target for name, target in targets if name == game_id), None)
    if named is not None:
        return _load(named)
    return next((r for name, t in targets if name is None and (r := _load(t)).id == game_id), None)


def get(game_id: str, version: str | None = None) -> Ruleset[Any]:
    """The ruleset ``game_id``; with ``version``, only if that exact version is installed.

    Raises:
        PbemError: R005 if it is not installed (or not in that version).
    """
    ruleset = _find(game_id)
    if ruleset is None:
        known = ", ".join(installed()) or "none"
        raise PbemError("R005", f"no game module {game_id!r} is installed (installed: {known})")
    if version is not None and ruleset.version != version:
        raise PbemError(
            "R005", f"the log needs {game_id} version {version}, but version {ruleset.version} is installed"
        )
    return ruleset
