"""HTTP/1.1 for the gateway: asyncio's Protocol and httptools (the parser uvicorn uses), one
process, one event loop.

Why not uvicorn: a PBX's caller-ID lookup is a tiny GET whose answer the cache gives in a
tenth of a millisecond, so the HTTP stack is most of the cost. Measured on this machine
(docs/performance.md, "Gateway"), uvicorn with httptools and uvloop plus Starlette's
routing spent several times the lookup itself per request. Here a request the gateway can
answer at once (``fast``: caller-ID) is answered from the parser's callback, with no ASGI
scope, no routing, no middleware; every other request (desk-phone directories, the 3CX
template, a record's page) goes to the gateway's ASGI app as it would under uvicorn.

What a server owes its clients is kept: keep-alive, pipelined requests answered in order,
``Connection: close`` and HTTP/1.0 honoured, streamed bodies chunked, the transport's flow
control obeyed, an idle or half-sent connection closed after ``IDLE_SECONDS``, malformed
requests answered 400 and oversized ones 413/431 (all with empty bodies: a PBX shows a
body as the caller's name), and the ASGI lifespan run at start and stop.

This module is the connection (the parser's callbacks, the order of answers, flow control,
idle time) and the listening server; the messages and the writing of a reply's head are in
:mod:`.http_messages`, the ASGI exchange and lifespan in :mod:`.http_asgi`. Names are
imported into this module, so the split adds no call layer to a request (docs/performance.md).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any, Awaitable, Callable
from urllib.parse import unquote

import httptools

from corpdir.gateway.http_asgi import Exchange, Lifespan
from corpdir.gateway.access import redacted
from corpdir.gateway.http_messages import Fast, Headers, Reply, Request, encode_raw_targets, head
from corpdir.gateway.precomputed import Precomputed

log = logging.getLogger("corpdir.gateway")
IDLE_SECONDS = 5.0  # a connection with no request under way is closed after this
MAX_HEAD = 16 * 1024  # request line and headers
MAX_BODY = 64 * 1024  # the gateway's routes take no body; a small one is read and ignored
MAX_QUEUED = 32  # pipelined requests read ahead of their answers before reading pauses


class Connection(asyncio.Protocol):
    """One client connection: parses requests, answers them in the order they came."""

    def __init__(self, server: HttpServer) -> None:
        self.server = server
        self.loop = asyncio.get_running_loop()
        self.parser = httptools.HttpRequestParser(self)
        self.transport: asyncio.Transport | None = None
        self.client: tuple[str, int] | None = None
        self.local: tuple[str, int] | None = None
        self.queue: deque[Request] = deque()
        self.busy = False  # an answer is being made (fast awaitable or the ASGI app)
        self.closed = asyncio.Event()
        self.writable = asyncio.Event()
        self.writable.set()
        self.reading = True
        self.idle: asyncio.TimerHandle | None = None
        self.last = 0.0  # the loop's time of the last precomputed answer (they leave the idle timer be)
        self._mid = False  # the parser is inside a request: the next bytes are its
        self._url = b""
        self._headers: Headers = []
        self._body: list[bytes] = []
        self._size = 0
        self._too_large = 0  # the status for a request found too large while parsing

    # -- the connection ------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's is no asyncio.Transport subclass
        self.client = _address(transport.get_extra_info("peername"))
        self.local = _address(transport.get_extra_info("sockname"))
        self.server.connections.add(self)
        self._wait_idle()

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)
        self.closed.set()
        self.writable.set()
        if self.idle is not None:
            self.idle.cancel()

    def pause_writing(self) -> None:
        self.writable.clear()

    def resume_writing(self) -> None:
        self.writable.set()

    def data_received(self, data: bytes) -> None:
        precomputed = self.server.precomputed
        if precomputed is not None and not self._mid and not self.busy and not self.queue:
            reply = precomputed.reply(data)
            if reply is not None:
                self.transport.write(reply)  # type: ignore[union-attr]  # connected: data came on it
                self.last = self.loop.time()
                return
        if not data.isascii():  # a phone's raw UTF-8 search: percent-encoded for the parser
            data = encode_raw_targets(data)
        try:
            self.parser.feed_data(data)
        except (httptools.HttpParserError, httptools.HttpParserUpgrade):
            # a callback's exception reaches here wrapped by the parser: the status it set
            self._fail(self._too_large or 400)

    def _fail(self, status: int) -> None:
        """A request that cannot be parsed or is too large: answered in turn, then closed."""
        self.queue.append(Request("", "", b"", b"", [], self.client, self.local, False, "1.1", refused=status))
        self._pause_reading()
        self._next()

    def _wait_idle(self) -> None:
        if self.idle is not None:
            self.idle.cancel()
        self.idle = self.loop.call_later(self.server.idle_seconds, self._close_idle)

    def _close_idle(self) -> None:
        if (left := self.last + self.server.idle_seconds - self.loop.time()) > 0:
            self.idle = self.loop.call_later(left, self._close_idle)  # answered since: idle from the last answer
            return
        if not self.busy and not self.queue and self.transport is not None:
            self.transport.close()

    def _pause_reading(self) -> None:
        if self.reading and self.transport is not None:
            self.reading = False
            self.transport.pause_reading()

    # -- httptools callbacks ---------------------------------------------------------------
    def on_message_begin(self) -> None:
        self._mid = True
        self._url, self._headers, self._body, self._size = b"", [], [], 0

    def on_url(self, url: bytes) -> None:
        self._url += url
        self._grow(len(url), MAX_HEAD, 414)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers.append((name.lower(), value))
        self._grow(len(name) + len(value), MAX_HEAD, 431)

    def on_body(self, body: bytes) -> None:
        self._body.append(body)
        self._grow(len(body), MAX_HEAD + MAX_BODY, 413)

    def _grow(self, n: int, limit: int, status: int) -> None:
        self._size += n
        if self._size > limit:
            self._too_large = status
            raise ValueError(f"request over {limit} bytes")

    def on_message_complete(self) -> None:
        self._mid = False
        url = httptools.parse_url(self._url)
        raw_path = url.path or b"/"
        self.queue.append(Request(
            self.parser.get_method().decode("ascii", "replace"), unquote(raw_path.decode("latin-1")), raw_path,
            url.query or b"", self._headers, self.client, self.local, self.parser.should_keep_alive(),
            self.parser.get_http_version(), b"".join(self._body)))
        if len(self.queue) >= MAX_QUEUED:
            self._pause_reading()
        if self.idle is not None:
            self.idle.cancel()
            self.idle = None
        self._next()

    # -- answering ----------------------------------------------------------------------------
    def _next(self) -> None:
        """Answer queued requests in order; an answer that must wait holds the ones after it."""
        while self.queue and not self.busy and self.transport is not None and not self.transport.is_closing():
            request = self.queue.popleft()
            if request.refused:
                self.write(Reply(request.refused), False)
                return
            answer = self.server.fast(request) if request.method == "GET" else None
            if isinstance(answer, Reply):
                self.write(answer, request.keep_alive)
                continue
            self.busy = True
            task = self.loop.create_task(self._answer(request, answer))
            self.server.tasks.add(task)
            task.add_done_callback(self.server.tasks.discard)
        if not self.queue and not self.busy:
            if self.transport is not None and not self.reading and not self.transport.is_closing():
                self.reading = True
                self.transport.resume_reading()
            if self.server.stopping and self.transport is not None:
                self.transport.close()
            else:
                self._wait_idle()

    async def _answer(self, request: Request, pending: Awaitable[Reply] | None) -> None:
        try:
            if pending is not None:
                self.write(await pending, request.keep_alive)
            else:
                await Exchange(self, request).run()
        except Exception:  # noqa: BLE001 - one request's failure must not stop the server
            log.exception("gateway: %s %s failed", request.method, redacted(request.path))
            if self.transport is not None:
                self.transport.close()
        finally:
            self.busy = False
        self._next()

    def write(self, reply: Reply, keep_alive: bool) -> None:
        assert self.transport is not None
        keep_alive = keep_alive and not self.server.stopping
        self.transport.write(head(reply.status, reply.headers, len(reply.body), keep_alive) + reply.body)
        if not keep_alive:
            self.transport.close()


def _address(value: Any) -> tuple[str, int] | None:
    return (str(value[0]), int(value[1])) if isinstance(value, tuple) and len(value) >= 2 else None


class HttpServer:
    """The gateway's listening socket, its connections, and the app's lifespan."""

    def __init__(self, app: Any, fast: Fast, idle_seconds: float = IDLE_SECONDS) -> None:
        self.app = app
        self.fast = fast
        self.idle_seconds = idle_seconds
        self.connections: set[Connection] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.state: dict[str, Any] = {}
        self.precomputed: Precomputed | None = None  # caller-ID replies answered before the parser sees them
        self.stopping = False
        self._server: asyncio.AbstractServer | None = None
        self._lifespan: Lifespan | None = None

    async def start(self, host: str = "127.0.0.1", port: int = 0, *, sock: Any = None) -> tuple[str, int]:
        """Run the app's startup, then listen; returns the address listened on."""
        self._lifespan = Lifespan(self.app, self.state)
        await self._lifespan.startup()
        if hasattr(self.app, "gateway"):  # the gateway's app (any other ASGI app is served as it is)
            self.precomputed = Precomputed(self.app)
            count = self.app.gateway.metrics.lookup
            self.precomputed.answered = lambda _format: count("cache")  # /metrics: the map's answers are the cache's
            self.precomputed.start()
        loop = asyncio.get_running_loop()
        if sock is not None:
            self._server = await loop.create_server(lambda: Connection(self), sock=sock, backlog=1024)
        else:
            self._server = await loop.create_server(lambda: Connection(self), host, port, backlog=1024)
        return _address(self._server.sockets[0].getsockname()) or (host, port)

    async def stop(self, grace: float = 5.0) -> None:
        """Stop listening, let answers under way finish (at most ``grace`` s), run shutdown."""
        self.stopping = True
        if self.precomputed is not None:
            self.precomputed.stop()
            self.precomputed = None  # answers now say the connection closes: the ordinary path's
        if self._server is not None:
            self._server.close()
        for connection in list(self.connections):
            if not connection.busy and not connection.queue and connection.transport is not None:
                connection.transport.close()
        if self.tasks:
            _, late = await asyncio.wait(set(self.tasks), timeout=grace)
            for task in late:
                task.cancel()
        for connection in list(self.connections):
            if connection.transport is not None:
                connection.transport.close()
        if self._lifespan is not None:
            await self._lifespan.shutdown()


def run(app: Any, fast: Fast, host: str, port: int, *, sock: Any = None,
        started: Callable[[], Awaitable[Any]] | None = None) -> None:
    """Serve until SIGINT or SIGTERM, on uvloop when it is installed. ``sock``: a listening
    socket to serve on instead of ``host``:``port`` (a worker's: :mod:`.http_workers`);
    ``started``: awaited once the server listens."""
    import gc
    import signal
    import sys

    try:
        import uvloop
        factory: Any = uvloop.new_event_loop
    except ImportError:  # pragma: no cover - uvloop is declared, but asyncio's own loop works
        factory = None

    async def serve() -> None:
        server = HttpServer(app, fast)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await server.start(host, port, sock=sock)
        if started is not None:
            await started()
        # What start-up loaded (the app, pykakasi's dictionaries: ~330k objects) is never
        # scanned by the collector again: one full collection of it took 200-270 ms, a
        # caller-ID lookup's p99 of its own.
        gc.freeze()
        # A whole directory is rendered on threads: with Python's 5 ms switch interval a
        # lookup waited up to that long for the GIL, again and again (p99 50 ms at 8
        # clients during a 190k-entry render); 1 ms gives the event loop its turn sooner.
        sys.setswitchinterval(0.001)
        try:
            await stop.wait()
        finally:
            await server.stop()

    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(serve())
