"""A seat's desk served on a free loopback port in a thread, as ``pbem play --web`` serves it."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from pbem.web.app import WebApp, entry_url
from pbem.web.desk import Desk
from pbem.web.serve import LOOPBACK, free_port, server
from tests.helpers import Table

__all__ = ["Served", "desk_of", "served"]


@dataclass(frozen=True)
class Served:
    """A running server: its first URL (with the token), its base URL and its state."""

    url: str
    base: str
    web: WebApp


def desk_of(table: Table, seat: str) -> Desk:
    """``seat``'s desk at ``table``, with the table's deterministic clock and entropy."""
    return Desk(table.path, table.keys[seat], clock=table.clock, entropy=table.entropy)


@contextlib.contextmanager
def served(desk: Desk) -> Iterator[Served]:
    port = free_port()
    runner, web = server(desk, LOOPBACK, port)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not runner.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    try:
        yield Served(entry_url(LOOPBACK, port, web.token), f"http://{LOOPBACK}:{port}", web)
    finally:
        runner.should_exit = True
        thread.join(timeout=10)
