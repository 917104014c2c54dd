"""Run the browser client: on loopback, on a free port, with a fresh session token (uvicorn serves it)."""

from __future__ import annotations

import ipaddress
import socket
import webbrowser
from collections.abc import Callable
from pathlib import Path

import uvicorn

from pbem.errors import UsageError
from pbem.log.keys import KeyPair
from pbem.replay.game import DataProvider
from pbem.web.app import WebApp, entry_url, make_app
from pbem.web.desk import Desk

__all__ = ["LOOPBACK", "allowed_hosts", "check_address", "free_port", "serve", "serve_log", "server"]

LOOPBACK = "127.0.0.1"


def check_address(address: str, *, unsafe: bool) -> str:
    """``address`` if the server may listen there: loopback always, anything else only when ``unsafe``.

    Raises:
        UsageError: U003 for a non-loopback address without ``unsafe``, or one that is not an IP address.
    """
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError as exc:
        raise UsageError("U003", f"{address!r} is not an IP address to listen on") from exc
    if not parsed.is_loopback and not unsafe:
        raise UsageError("U003", f"refusing to listen on {address}: only loopback, unless --unsafe-listen says so")
    return address


def allowed_hosts(address: str) -> tuple[str, ...]:
    """The Host headers to answer for a server on ``address`` (a DNS-rebinding page names another host).

    On every interface (``0.0.0.0``, ``::``) or on IPv6 the browser may name the machine any way: only the token
    guards it then, which ``--unsafe-listen`` warns about.
    """
    parsed = ipaddress.ip_address(address)
    if parsed.is_unspecified or parsed.version == 6:
        return ("*",)
    return (address, "localhost") if parsed.is_loopback else (address,)


def free_port(host: str = LOOPBACK) -> int:
    """A port the operating system says is free on ``host`` now."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def server(desk: Desk, host: str, port: int) -> tuple[uvicorn.Server, WebApp]:
    """A uvicorn server for ``desk`` (not started) and the app's state, whose token the first URL carries."""
    web = WebApp(desk)
    app = make_app(web, hosts=allowed_hosts(host))
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, lifespan="off")
    return uvicorn.Server(config), web


def serve_log(
    log: Path,
    pair: KeyPair,
    provider: DataProvider,
    *,
    unsafe_listen: str | None = None,
    open_browser: bool = True,
    say: Callable[[str], None] = print,
) -> None:
    """``pbem play LOG --web``: verify the log now (a bad log or key fails here, with its code), then serve it."""
    host = LOOPBACK if unsafe_listen is None else check_address(unsafe_listen, unsafe=True)
    if unsafe_listen is not None:
        say(f"warning: listening on {host}: anyone who can reach this address and learns the URL can play your seat")
    desk = Desk(log, pair, data_provider=provider)
    desk.snapshot()
    serve(desk, host=host, open_browser=open_browser, say=say)


def serve(desk: Desk, *, host: str = LOOPBACK, open_browser: bool = True, say: Callable[[str], None] = print) -> None:
    """Serve ``desk`` until interrupted, opening the player's browser on it (or printing its URL)."""
    port = free_port(host)
    runner, web = server(desk, host, port)
    url = entry_url(host if ":" not in host else f"[{host}]", port, web.token)
    say(f"the game is at {url} (Ctrl-C to stop; nothing unsigned is kept)")
    if open_browser:
        webbrowser.open(url)
    runner.run()
