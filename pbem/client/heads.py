"""This machine's record of the last sequence number it signed per log file, game and seat (stale-copy guard, F005).

A restored backup may lack entries this machine already signed and sent; signing on top of it would fork
the seat's feed (the SSB lesson: persist the head before signing the next entry). The record is keyed by the
log's resolved path as well as the game and seat: a copy in another folder (made to try a move) is its own
copy, and signing in it must not make the real log look stale. The record is only a guard, never the source
of ``seq``: that always comes from the log.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path

__all__ = ["record", "recorded", "state_dir"]


def state_dir() -> Path:
    """``$PBEM_STATE_DIR``, else ``$XDG_STATE_HOME/pbem``, else ``~/.local/state/pbem``."""
    if os.environ.get("PBEM_STATE_DIR"):
        return Path(os.environ["PBEM_STATE_DIR"])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "pbem"


@contextlib.contextmanager
def _locked() -> Iterator[Path]:
    directory = state_dir()
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / "heads.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield directory / "heads.json"


def _load(path: Path) -> dict[str, int]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, int)} if isinstance(data, dict) else {}


def _key(log: Path, game: str, seat: str) -> str:
    return f"{game}:{seat}:{log.resolve()}"


def recorded(log: Path, game: str, seat: str) -> int | None:
    """The highest seq this machine signed for ``seat`` in ``game`` in the log file ``log``, if any."""
    with _locked() as path:
        return _load(path).get(_key(log, game, seat))


def record(log: Path, game: str, seat: str, seq: int) -> None:
    """Remember that this machine signed (and durably wrote) ``seq`` in ``log``; best effort."""
    with contextlib.suppress(OSError), _locked() as path:
        data = _load(path)
        key = _key(log, game, seat)
        if data.get(key, -1) >= seq:
            return
        data[key] = seq
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, sort_keys=True))
        os.replace(tmp, path)
