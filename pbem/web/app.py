"""The browser client: a Starlette application serving one seat's desk to one local browser.

Security, in the order a request meets it:

1. The Host header must name the address the server listens on (no DNS-rebinding page can reach it).
2. Every request carries the session's random token: in the first URL's ``?token=`` (which sets an HttpOnly
   SameSite=Strict cookie and redirects to a clean URL), then in that cookie. Without it: 403.
3. Every state-changing request is a POST whose form repeats the token (CSRF); a GET never changes anything.
4. Every response forbids framing, sniffing, caching and referrers, and carries a strict Content-Security-Policy:
   scripts and styles only from this server's own static files, no network access at all.
5. Pages are Jinja2 templates with autoescaping: names and notes from the log are hostile input. The private
   key stays in the :class:`~pbem.web.desk.Desk`; no page ever receives it.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup
from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from pbem.client.turn import Turn
from pbem.errors import PbemError
from pbem.log.entry import entry_count
from pbem.report import render
from pbem.rules.contract import View
from pbem.rules.presentation import Presentation
from pbem.web.choices import Naming, Pick
from pbem.web.desk import Desk
from pbem.web.overlay import moves_of, with_arrows
from pbem.web.tray import tray

__all__ = ["COOKIE", "CSP", "WebApp", "make_app"]

COOKIE = "pbem_session"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
STATIC = {"web.js": "text/javascript", "web.css": "text/css"}
RECENT = 40  # lines of "since your last turn" shown (as in pbem play)


@dataclass
class WebApp:
    """The desk, the session token, and what the next page should tell the player."""

    desk: Desk
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    messages: list[tuple[str, str]] = field(default_factory=list)
    packet: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def tell(self, text: str, kind: str = "info") -> None:
        """Say ``text`` on the next page (``kind``: ``info`` or ``error``)."""
        self.messages.append((kind, text))


def _cookie(request: Request) -> str:
    """The cookie's name: one per port, since browsers share cookies between the ports of one host."""
    return f"{COOKIE}_{request.url.port or 80}"


def _authorized(request: Request, app: WebApp) -> bool:
    cookie = request.cookies.get(_cookie(request), "")
    return secrets.compare_digest(cookie.encode(), app.token.encode())


def _secured(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers[name] = value
    return response


Handler = Callable[[Request], Awaitable[Response]]


def _guard(app: WebApp, handler: Handler, *, post: bool) -> Handler:
    """Wrap ``handler`` with the token checks (steps 2 and 3 of the module docstring)."""

    async def guarded(request: Request) -> Response:
        """The token from the first URL into the cookie; then cookie, and on POST the form's copy, or 403."""
        query = request.query_params.get("token")
        if not post and query is not None:
            if not secrets.compare_digest(query.encode(), app.token.encode()):
                return _secured(PlainTextResponse("forbidden: wrong session token", status_code=403))
            response = RedirectResponse(request.url.path, status_code=303)
            response.set_cookie(_cookie(request), app.token, httponly=True, samesite="strict", path="/")
            return _secured(response)
        if not _authorized(request, app):
            return _secured(PlainTextResponse("forbidden: this page needs the session's token", status_code=403))
        if post:
            form = await request.form()
            sent = form.get("csrf")
            if not isinstance(sent, str) or not secrets.compare_digest(sent.encode(), app.token.encode()):
                return _secured(PlainTextResponse("forbidden: the form lacks the session's token", status_code=403))
        async with app.lock:
            return _secured(await handler(request))

    return guarded


def _field(form: Any, name: str) -> str:
    value = form.get(name)
    return value.strip() if isinstance(value, str) else ""


def _back() -> Response:
    return RedirectResponse("/", status_code=303)


def make_app(web: WebApp, *, hosts: tuple[str, ...] = ("127.0.0.1", "localhost")) -> Starlette:
    """The Starlette application for ``web`` (``hosts``: the Host names it answers to)."""
    desk = web.desk

    def signed(written: list[Any], what: str) -> None:
        """Tell the player which entries were signed."""
        kinds = ", ".join(f"{e.raw['type']} #{e.raw['seq']}" for e in written)
        web.tell(f"{what}: signed {entry_count(len(written))} ({kinds})" if written else f"{what}: nothing to sign")

    async def page(request: Request) -> Response:
        """GET /: the desk."""
        try:
            return HTMLResponse(_page(web))
        except PbemError as exc:  # a copy that does not verify or is stale: importing may be the remedy
            messages, web.messages = web.messages, []
            document = render.html(
                "web/trouble.html", error=exc.render(), messages=messages, csrf=web.token, log=desk.log.name
            )
            return HTMLResponse(document, status_code=409)

    async def static(request: Request) -> Response:
        """GET /static/NAME: the page's own script and stylesheet (nothing else is served)."""
        name = request.path_params["name"]
        if name not in STATIC:
            return PlainTextResponse("not found", status_code=404)
        text = (render.TEMPLATES / "web" / name).read_text(encoding="utf-8")
        return Response(text, media_type=STATIC[name])

    async def act(request: Request) -> Response:
        """Every POST: the form's ``do`` says what; errors become one message with their code."""
        form = await request.form()
        do = _field(form, "do")
        try:
            if do == "pick":
                data = json.loads(_field(form, "pick"))
                label = desk.answer(Pick(data["mode"], data["field"], data.get("value")))
                if label is not None:
                    web.tell(f"added to your batch: {label}")
            elif do == "stack":
                label = desk.take_stack(int(_field(form, "stack") or "0"))
                if label is not None:
                    web.tell(f"added to your batch: {label}")
            elif do == "back":
                desk.back()
            elif do == "cancel":
                desk.picks.clear()
            elif do == "take-back":
                desk.take_back(int(_field(form, "step") or "0"))
            elif do == "sign":
                note = _field(form, "note")
                signed(desk.sign(note or None), "your batch")
                web.tell("now send it to the other players: see Send and receive")
            elif do == "owed":
                signed(desk.do_owed(), "protocol work")
            elif do == "undo-request":
                signed(desk.request_undo(), "take-back request")
            elif do == "undo-accept":
                signed(desk.accept_undo(), "take-back agreed")
            elif do == "claim-timeout":
                signed(desk.claim_timeout(_field(form, "against")), "timeout claim")
            elif do == "export":
                web.packet = desk.export()
            elif do == "mail":
                to = _field(form, "to")
                seq = desk.snapshot().session.book.seq
                output = desk.log.with_name(f"{desk.log.stem}-{desk.seat}-{seq}.eml")  # one per entry signed
                count = desk.write_mail(to, output, do_send=_field(form, "send") == "yes")
                sent = " and sent" if _field(form, "send") == "yes" else ""
                web.tell(f"message to {to} with {entry_count(count)} saved to {output}{sent}")
            elif do == "import":
                upload = form.get("file")
                if isinstance(upload, UploadFile) and upload.filename:
                    result = desk.import_file(await upload.read(), upload.filename)
                else:
                    result = desk.import_text(_field(form, "text"))
                web.tell(f"imported {entry_count(len(result.added))}; {result.duplicates} already here")
            else:
                return PlainTextResponse("unknown request", status_code=400)
        except PbemError as exc:
            web.tell(exc.render(), "error")
        except (ValueError, KeyError, TypeError):
            web.tell("that request was malformed; nothing was changed", "error")
        return _back()

    routes = [
        Route("/", _guard(web, page, post=False), methods=["GET"]),
        Route("/static/{name}", _guard(web, static, post=False), methods=["GET"]),
        Route("/act", _guard(web, act, post=True), methods=["POST"]),
    ]
    return Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))])


def _page(web: WebApp) -> str:
    """The desk as one page (see templates/web/page.html)."""
    desk = web.desk
    snap = desk.snapshot()
    session, chron = snap.session, snap.chron
    seat = session.seat
    try:
        turn = desk.turn()
        turn.game()
    except PbemError as exc:  # the log changed under the batch (an import): it no longer applies
        desk.steps.clear()
        desk.picks.clear()
        web.tell(f"your unsigned batch no longer applies and was dropped ({exc.render()})", "error")
        turn = desk.turn()
    view = desk.view(turn)
    naming = desk.naming(turn, view)
    question = desk.question(turn, naming)
    renderer = desk.renderer()
    news = chron.since_last_turn(seat)
    board = None
    zones = False
    if renderer is not None and view is not None:
        highlight = question.locations if question is not None else ()
        title = "The map after your batch (not signed yet)" if desk.steps else "The map as you see it"
        drawn_zones = renderer.presentation.zones(view)  # drawn hidden: the page's "Zones of control" shows them
        zones = bool(drawn_zones)
        drawn = renderer.render(view, highlight=highlight, title=title, css_class="map", zones=drawn_zones)
        moves = moves_of((t.event for t in news if t.event is not None), renderer)
        board = Markup(with_arrows(drawn, renderer, moves))
        off_map = tray(renderer, view, question.units if question is not None else ())
        if off_map is not None:
            board += Markup(off_map)
    game = session.game
    presentation = chron.presentation
    waits = [w.describe() for w in game.awaiting()]
    owed = [w for w in game.awaiting() if w.seat == seat and w.what != "act"]
    undoable = game.undoable
    request = game.undo_request
    picks = [o.label for o in desk.picks]
    places = set(renderer.regions) if renderer is not None else set()
    touched = {v for t in news if t.event is not None for v in _named(t.event.data.values())}
    messages, web.messages = web.messages, []
    genesis = game.genesis.body
    return render.html(
        "web/page.html",
        csrf=web.token,
        title=genesis.title or (chron.ruleset.name if chron.ruleset else genesis.ruleset),
        me=chron.name_of(seat),
        summary=_situation(turn, view, presentation),
        waits=waits,
        result=game.result,
        board=board,
        zones=board is not None and zones,
        question=question,
        picks=picks,
        options=[(o, json.dumps(o.pick.__dict__, sort_keys=True)) for o in question.options] if question else [],
        steps=[s.label for s in desk.steps],
        stacks=[s.label for s in desk.stacks(turn)] if question is not None else [],
        events=[e.text for e in turn.events if e.text and (e.visible_to is None or seat in e.visible_to)],
        news=[(told, chron.name_of(told.seat) if told.seat else "") for told in news[-RECENT:]],
        news_places=" ".join(sorted(touched & places)),
        news_units=" ".join(sorted(touched & set(naming.units))),
        earlier=max(0, len(news) - RECENT),
        scores=presentation.scores(view) if presentation is not None and view is not None else {},
        hidden=[_secret(naming, presentation, name, value) for name, value in desk.hidden_values()],
        owed=[w.describe() for w in owed],
        may_request_undo=undoable is not None and undoable.author == seat and request is None,
        undo_asked=None if request is None or seat not in request.waiting else chron.name_of(request.author),
        timeout_seats=[(s, chron.name_of(s)) for s in game.seats if s != seat] if genesis.deadline else [],
        packet=web.packet,
        messages=messages,
        log=desk.log.name,
    )


def _situation(turn: Turn, view: View | None, presentation: Presentation | None) -> str:
    """Where the game stands, in the game's words: the period's title and the stage (``Turn 1: June 15 ·
    Impulse 2``), as reports head their sections; the game's own summary once it is over or has no look."""
    game = turn.game()
    if view is None or game.state is None:
        return "the game has not started"
    if presentation is None or game.result is not None:
        return view.summary
    period = presentation.period_title(game.ruleset.period(game.state))
    stage = presentation.stage(view)
    if _letters(stage) == _letters(period):  # "Setup" and "Set-up": one is enough
        return period
    return " · ".join(part for part in (period, stage) if part)


def _letters(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def _secret(naming: Naming, presentation: Presentation | None, name: str, value: Any) -> tuple[str, str]:
    """A row of the player's own hidden values: the game's words (:meth:`Presentation.secret`), else the slot's
    parts and the value's label."""
    told = presentation.secret(name, value) if presentation is not None else None
    return told if told is not None else (_slot(naming, name), naming.label(name, value))


def _slot(naming: Naming, name: str) -> str:
    """A hidden slot's name in words: ``strength/red-1`` → ``strength · Red 1`` (units and places by name)."""
    parts = name.split("/")
    return " · ".join(naming.units.get(p) or naming.locations.get(p) or p.replace("_", " ") for p in parts)


def _named(values: Iterable[object]) -> Iterator[str]:
    """The strings among event data values and lists of them (ids of places and units, among other words)."""
    for value in values:
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, str))


def entry_url(host: str, port: int, token: str) -> str:
    """The first URL the browser opens (the token then moves into the cookie)."""
    return f"http://{host}:{port}/?token={token}"
