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


def _load(target: str) -> Ruleset[Any]:
    module_name, _, attribute = target.partition(":")
    try:
        obj = getattr(importlib.import_module(module_name), attribute or "RULESET")
    except (ImportError, AttributeError) as exc:
        raise PbemError("R005", f"cannot load game module {target!r}: {exc}") from exc
    if not isinstance(obj, Ruleset):
        raise PbemError("R005", f"{target!r} is not a pbem Ruleset")
    return obj


@cache
def _discover(extra: str) -> dict[str, Ruleset[Any]]:
    found: dict[str, Ruleset[Any]] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found[ep.name] = _load(ep.value)
    for target in filter(None, (t.strip() for t in extra.split(","))):
        ruleset = _load(target)
        found[ruleset.id] = ruleset
    return found


@cache
def _named(game_id: str, extra: str) -> Ruleset[Any] | None:
    """The entry point named ``game_id`` alone, if it provides that ruleset: a command that needs one game does
    not import every installed game (CLI start time). With ``PBEM_GAMES`` set, full discovery decides."""
    if extra:
        return None
    for ep in entry_points(group=ENTRY_POINT_GROUP, name=game_id):
        ruleset = _load(ep.value)
        return ruleset if ruleset.id == game_id else None
    return None


def installed() -> dict[str, Ruleset[Any]]:
    """Every available ruleset by id, sorted by id."""
    found = _discover(os.environ.get("PBEM_GAMES", ""))
    return {k: found[k] for k in sorted(found)}


def get(game_id: str, version: str | None = None) -> Ruleset[Any]:
    """The ruleset ``game_id``; with ``version``, only if that exact version is installed.

    Raises:
        PbemError: R005 if it is not installed (or not in that version).
    """
    ruleset = _named(game_id, os.environ.get("PBEM_GAMES", "")) or installed().get(game_id)
    if ruleset is None:
        known = ", ".join(installed()) or "none"
        raise PbemError("R005", f"no game module {game_id!r} is installed (installed: {known})")
    if version is not None and ruleset.version != version:
        raise PbemError(
            "R005", f"the log needs {game_id} version {version}, but version {ruleset.version} is installed"
        )
    return ruleset
