"""The gateway's HTTP routes (Starlette), behind :class:`corpdir.gateway.access.Access`.

Caller-ID (``?number=``, any form a PBX sends; ``&ascii=1`` for ASCII only):
  /cid        the whole body is the name; nobody: 404 with an empty body
  /cid.kv     name=...&company=...&division=...&type=...&id=... (Asterisk hashcompat); nobody: 404, empty
  /cid.json   JSON (``found`` false for nobody, 200)
Every caller-ID answer says how it was answered (``X-Corpdir-Answer``: cache, service,
unknown, late) and how long it took here (``Server-Timing: lookup;dur=MS``).

Desk phones (:mod:`corpdir.gateway.phone_routes`; ``&ascii=1`` or ``Accept-Charset``
everywhere): /yealink/directory.xml (``?q=``), /yealink/phonebook.xml,
/cisco/directory.xml (``?start=``, ``?q=``, ``?bytes=``), /cisco/search.xml,
/snom/directory.xml (``?start=``, ``?q=``), /grandstream/phonebook.xml; 3CX: /3cx.xml;
a record's page: /record/user/ID, /record/contact/ID; Prometheus: /metrics.

:meth:`GatewayApp.fast` answers caller-ID and /health for the gateway's own HTTP server
(:mod:`corpdir.gateway.httpserver`) without going through Starlette; the routes here give
the same answers (:mod:`corpdir.gateway.callerid`) to any other ASGI server.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections import OrderedDict
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Awaitable, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from corpdir.gateway import callerid, threecx
from corpdir.gateway.access import Access, Refusal
from corpdir.gateway.callerid import CallerId
from corpdir.gateway.ascii import romanise
from corpdir.gateway.http_messages import Reply
from corpdir.gateway.http_messages import Request as HttpRequest
from corpdir.gateway.lookup import CallerLookup
from corpdir.gateway.metrics import CONTENT_TYPE as METRICS_TYPE, Metrics, counted_ask
from corpdir.gateway.listing import Listing
from corpdir.gateway.phone_routes import ascii_wanted, phone_routes
from corpdir.config import GatewayConfig
from corpdir.gateway.xml import MEDIA_TYPE
from corpdir.service.identify import Identity
from corpdir.service.phonebook import Entry, Phonebook
from corpdir.text import printable

log = logging.getLogger("corpdir.gateway")
MAX_ID = 2**63 - 1
DOCUMENTS = 3


class Gateway:
    """The routes' shared state: the phonebook, the caller lookup, the settings."""

    def __init__(self, service: Any, settings: GatewayConfig) -> None:
        self.service = service
        self.settings = settings
        self.phonebook = Phonebook(service)
        self.metrics = Metrics()
        ask = counted_ask(self.metrics, self.phonebook.ask_service if service.offers("N1") else None)
        self.lookup = CallerLookup(self.phonebook, ask, deadline=settings.deadline_ms / 1000,
                                   strip_prefixes=settings.strip_prefixes)
        self.callerid = CallerId(self.lookup, self.metrics.lookup)
        self.listing = Listing(self.phonebook)
        self._sync: asyncio.Task[None] | None = None
        self._documents: OrderedDict[tuple[Any, ...], tuple[int, bytes]] = OrderedDict()
        self._rendering = asyncio.Lock()

    async def document(self, key: tuple[Any, ...], render: Callable[[], AsyncIterator[bytes]],
                       media_type: str = MEDIA_TYPE) -> Response:
        """A whole directory, rendered once per state of the cache: a phone that downloads
        200k entries must not make every other phone wait for the same work again. The last
        DOCUMENTS renderings are kept (tens of MB each at 200k entries)."""
        async with self._rendering:
            version = self.phonebook.version()
            kept = self._documents.get(key)
            if kept is None or kept[0] != version:
                chunks = [chunk async for chunk in render()]
                kept = (version, await asyncio.to_thread(b"".join, chunks))  # tens of MB: not on the loop
                self._documents[key] = kept
            self._documents.move_to_end(key)
            while len(self._documents) > DOCUMENTS:
                self._documents.popitem(last=False)
        return Response(kept[1], media_type=media_type)

    # -- life ------------------------------------------------------------------------------
    async def start(self) -> None:
        # the directory's reading order (~0.5 s at 200k) is read while pykakasi loads: not on
        # the first phone's request, which a phone gives up on after a few seconds
        self.listing.warm()
        await asyncio.to_thread(romanise, "カナ")  # pykakasi loads its dictionaries once (~1-4 s): not on a call
        if self.lookup.ask:
            self.service.reserve_rate_share(self.settings.n1_share)
        if self.settings.sync_every > 0:
            self._sync = asyncio.create_task(self._sync_forever())

    async def stop(self) -> None:
        if self._sync is not None:
            self._sync.cancel()
            await asyncio.gather(self._sync, return_exceptions=True)
        await self.listing.close()
        await self.lookup.close()
        self.phonebook.close()

    async def _sync_forever(self) -> None:
        """Keep the cache fresh: one sync, then one every ``sync_every`` seconds. The
        client's token bucket paces every request, so a sync never takes the service's
        rate limit from other users of the key; a failed sync is retried at the next turn."""
        while True:
            try:
                summary = await self.service.sync.run()
                total = summary.total()
                log.info("sync: %d added, %d changed, %d removed", total.added, total.changed, total.removed)
                self.metrics.synced()
                await self.listing.current()  # laid out now, not on the first phone's request (seconds at 200k)
            except Exception as exc:  # noqa: BLE001 - the gateway keeps answering from the cache
                log.warning("sync failed (%s); answering from the cache", exc.__class__.__name__)
            await asyncio.sleep(self.settings.sync_every)

    # -- helpers -----------------------------------------------------------------------------
    def base(self, request: Request) -> str:
        """This gateway's URL as the client reached it, with the token path when it used one."""
        return self.base_from(request.scope.get("root_path", ""), lambda: f"{request.url.scheme}://{request.url.netloc}")

    def base_from(self, root: str, origin: Callable[[], str]) -> str:
        """The public URL when one is set, else ``origin()`` (as the request came), then ``root``."""
        return (self.settings.public_url.rstrip("/") if self.settings.public_url else origin()) + root

    @staticmethod
    def record_url(base: str) -> Callable[[Identity], str]:
        # a record page for a cached person or contact; a division or a company has none
        return lambda a: (f"{base}/record/{a.ref.replace(':', '/')}" if a.source == "cache" and a.kind in ("person", "contact")
                          else "")


def build_app(service: Any, settings: GatewayConfig) -> GatewayApp:
    """The ASGI app: routes behind access control. ``service`` is a DirectoryService."""
    gw = Gateway(service, settings)

    async def caller(request: Request) -> Response:
        fmt, number = callerid.route(request.scope["path"]) or ("text", "")
        number = request.query_params.get("number") or number
        reply = gw.callerid.reply(fmt, number, ascii_wanted(request), gw.record_url(gw.base(request)))
        if not isinstance(reply, Reply):
            reply = await reply
        return Response(reply.body, status_code=reply.status,
                        headers={k.decode(): v.decode() for k, v in reply.headers})

    async def threecx_template(request: Request) -> Response:
        tokened = bool(request.scope.get("root_path")) or bool(settings.public_url and "/t/" in settings.public_url)
        body = threecx.template(gw.base(request), None if tokened or settings.user is None else settings.user)
        return Response(body, media_type=MEDIA_TYPE)

    async def record(request: Request) -> Response:
        kind = request.path_params["kind"]
        try:
            rid = int(request.path_params["rid"])
        except ValueError:
            return Response(status_code=404)
        if not 0 < rid <= MAX_ID:  # SQLite's integers end here; a larger id is nobody's
            return Response(status_code=404)
        entry = gw.phonebook.entry(kind, rid) if kind in ("user", "contact") else None
        if entry is None:
            return Response(status_code=404)
        return HTMLResponse(_record_page(entry))

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok")

    async def metrics(request: Request) -> Response:
        return Response(gw.metrics.text(), media_type=METRICS_TYPE)

    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        await gw.start()
        try:
            yield
        finally:
            await gw.stop()

    routes = [
        Route("/cid", caller), Route("/cid.kv", caller), Route("/cid.json", caller), Route("/cid/{number}", caller),
        *phone_routes(gw),
        Route("/3cx.xml", threecx_template), Route("/record/{kind}/{rid}", record), Route("/health", health),
        Route("/metrics", metrics),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.gateway = gw
    return GatewayApp(gw, Access(_EmptyErrors(app), settings))


class GatewayApp:
    """The ASGI app, and :meth:`fast`: what the gateway's own HTTP server answers without it."""

    def __init__(self, gw: Gateway, app: Access) -> None:
        self.gateway = gw
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        await self.app(scope, receive, send)

    def fast(self, request: HttpRequest) -> Reply | Awaitable[Reply] | None:
        """Caller-ID and /health, answered from the parser's callback (access checked as
        the middleware checks it); None for everything else (the ASGI app's)."""
        if "/cid" not in request.path and not request.path.endswith("/health"):
            return None
        admitted = self.app.admit(request.path, request.headers, request.client)
        if isinstance(admitted, Refusal):
            return Reply(admitted.status, admitted.headers)
        path, root = admitted
        if path == "/health":
            return HEALTH
        found = callerid.route(path)
        if found is None:
            return None
        number, ascii = callerid.query(request.query)
        gw = self.gateway

        def record_url(answer: Identity) -> str:  # JSON only: the base is worked out when a record is linked
            base = gw.base_from(root, lambda: f"http://{request.header(b'host').decode('latin-1')}")
            return gw.record_url(base)(answer)

        return gw.callerid.reply(found[0], number or found[1], ascii, record_url)


HEALTH = Reply(200, [(b"content-type", b"text/plain; charset=utf-8")], b"ok")


class _EmptyErrors:
    """Starlette's own 404/405 answers carry text ('Not Found'): a PBX would show it as a
    name. Every answer of 400 and above leaves here with an empty body."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.state = app.state

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        failed = False

        async def guarded(message: dict[str, Any]) -> None:
            nonlocal failed
            if message["type"] == "http.response.start" and message["status"] >= 400:
                failed = True
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in (b"content-length", b"content-type")]
                message = {**message, "headers": [*headers, (b"content-length", b"0")]}
            elif message["type"] == "http.response.body" and failed:
                if message.get("more_body"):
                    return
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        await self.app(scope, receive, guarded)


def _record_page(entry: Entry) -> str:
    """A plain page for a 3CX contact link: the record's name, place and numbers."""
    def esc(value: object) -> str:
        return html.escape(printable(value))

    rows = "".join(f"<tr><th>{esc(label)}</th><td>{esc(n)}</td></tr>" for label, n in entry.dialable_numbers())
    rows += "".join(f"<tr><th>E-mail</th><td>{esc(e)}</td></tr>" for e in entry.emails)
    where = " / ".join(v for v in (entry.company, entry.division_path) if v)
    return (f"<!doctype html><html lang=\"ja\"><meta charset=\"utf-8\"><title>{esc(entry.name)}</title>"
            f"<h1>{esc(entry.name)}</h1><p>{esc(entry.kana)}</p><p>{esc(where)}</p><table>{rows}</table></html>")
